"""`prove reward score` and `prove reward audit`: score trajectories, and audit the reward itself."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from ..env import ProveError
from ..records import RecordError, read_jsonl
from ..reward import COMPONENTS, RewardConfig, Scorer
from ..reward import audit as run_audit
from .datasets import read_dataset
from .output import console, errors, fail, print_json

app = typer.Typer(help="Score trajectories with the programmatic reward, and audit the reward.",
                  no_args_is_help=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
ConfigOpt = Annotated[Path | None, typer.Option("--config", "-c", help="RewardConfig as a JSON file.")]
ScaleOpt = Annotated[str | None, typer.Option("--scale", help="raw (weighted sum) or unit (best = 1.0).")]
TurnsOpt = Annotated[str | None, typer.Option("--turns", help="causal (default) or pooled.")]


def _config(path: Path | None, scale: str | None, turns: str | None, preset: str | None = None) -> RewardConfig:
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            fail(f"cannot read --config {path}: {exc}")
    if scale is not None:
        data["scale"] = scale
    if turns is not None:
        data["turns"] = turns
    if preset is not None:
        data["preset"] = preset
    try:
        return RewardConfig.model_validate(data)
    except ValidationError as exc:
        fail(f"invalid reward config: {exc.errors(include_url=False)[0]['msg']}")


def _progress(what: str) -> Progress:
    """A progress bar on stderr, shown only on a terminal (stdout stays clean for --json)."""
    return Progress(TextColumn(f"[dim]{what}[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=errors, transient=True, disable=not errors.is_terminal)


def _trajectories(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(number, trajectory) pairs as plain dicts.

    Only the envelope is checked here (`example_id`, and exactly one of `messages` and
    `completion`): what is inside is the policy's output, and a malformed call in it is the
    reward's to score (as an invalid call), not a reason to stop.
    """
    if path == "-":
        source: Any = (json.loads(line) for line in sys.stdin if line.strip())
    elif Path(path).is_file():
        source = read_jsonl(path)
    else:
        fail(f"no such trajectories file: {path}")
    try:
        for n, data in enumerate(source, 1):
            problem = _envelope(data)
            if problem:
                fail(f"{path}: trajectory {n}: {problem}")
            yield n, data
    except RecordError as exc:
        fail(str(exc))
    except ValueError as exc:  # stdin
        fail(f"{path}: not JSON: {exc}")


def _envelope(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "not a JSON object"
    if not isinstance(data.get("example_id"), str):
        return "`example_id` (a string) is missing"
    if ("messages" in data) == ("completion" in data):
        return "a trajectory holds exactly one of `messages` and `completion`"
    if "messages" in data and not isinstance(data["messages"], list):
        return "`messages` is not a list"
    return None


@app.command("score")
def score(
    file: Annotated[str, typer.Argument(help="Trajectories, one JSON object a line ({example_id, messages} "
                                             "or {example_id, completion}); - for stdin.")],
    dataset: Annotated[Path, typer.Option("--dataset", "-d", help="The examples the trajectories refer to: a JSONL file or a `prove synth --out` directory.")],
    out: Annotated[Path | None, typer.Option("--out", "-o",
                                             help="Write each trajectory with its `reward` (JSONL).")] = None,
    execute: Annotated[bool, typer.Option(help="Run calls that carry no outcome on a fresh session of the example's "
                                               "world, and compute the state metric.")] = False,
    config: ConfigOpt = None, scale: ScaleOpt = None, turns: TurnsOpt = None,
    show: Annotated[int, typer.Option(help="Trajectories listed in the table.")] = 20,
    as_json: JsonFlag = False,
) -> None:
    """Score trajectories: the total reward of each, with its breakdown."""
    cfg = _config(config, scale, turns)
    scorer = Scorer(read_dataset(dataset), cfg, execute=execute)
    rows: list[dict[str, Any]] = []
    scored: list[dict[str, Any]] = []
    with _progress("scoring") as bar:
        task = bar.add_task("score", total=None)
        for n, traj in _trajectories(file):
            if traj["example_id"] not in scorer:
                fail(f"trajectory {n} refers to example {traj['example_id']!r}, which is not in {dataset}")
            try:
                result = scorer.score(traj).breakdown()
            except ProveError as exc:
                fail(f"trajectory {n}: cannot execute its calls: {exc}")
            rows.append({"example_id": traj["example_id"], **result})
            scored.append({**traj, "reward": result})
            bar.advance(task)
    if out is not None:
        with out.open("w", encoding="utf-8") as fh:
            for record in scored:
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    means = _means(rows)
    if as_json:
        print_json({"count": len(rows), "best": cfg.best(), "mean": means, "scores": rows})
        return
    table = Table(title=f"{len(rows)} trajectories (best {cfg.best():g})")
    table.add_column("example", style="cyan", no_wrap=True)
    table.add_column("score", style="bold", justify="right")
    for c in COMPONENTS:
        table.add_column(c, justify="right")
    table.add_column("calls/gold", justify="right", style="dim")
    for r in rows[:show]:
        table.add_row(str(r["example_id"]), _num(r["score"]), *(_num(r[c]) for c in COMPONENTS),
                      f"{r['n_calls']}/{r['n_gold']}")
    if len(rows) > show:
        table.add_row(f"… {len(rows) - show} more", *[""] * (len(COMPONENTS) + 2))
    if rows:
        table.add_section()
        table.add_row("mean", _num(means["score"]), *(_num(means.get(c)) for c in COMPONENTS), "")
    console.print(table)
    if out is not None:
        console.print(f"[dim]wrote {len(scored)} scored trajectories to {out}[/]")


def _means(rows: list[dict[str, Any]]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for key in ("score", *COMPONENTS):
        values = [r[key] for r in rows if r.get(key) is not None]
        out[key] = sum(values) / len(values) if values else None
    return out


def _num(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}"


@app.command("audit")
def audit(
    dataset: Annotated[Path, typer.Argument(help="The examples to audit (a JSONL file or a `prove synth "
                                                 "--out` directory); examples of servers not installed are "
                                                 "audited without execution.")],
    config: ConfigOpt = None, scale: ScaleOpt = None, turns: TurnsOpt = None,
    preset: Annotated[str | None, typer.Option(help="prove (default) or paper.")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on any tie with gold too (and on an alternative "
                                                          "order scored below gold).")] = False,
    beside: Annotated[bool, typer.Option(help="Score the other preset on the same variants, shown beside.")] = True,
    seed: Annotated[int, typer.Option(help="Seeds the variants and the random calls.")] = 0,
    variants: Annotated[int, typer.Option(help="At most this many variants of each corruption per example.")] = 8,
    show: Annotated[int, typer.Option(help="Findings listed per corruption (--json lists them all).")] = 50,
    as_json: JsonFlag = False,
) -> None:
    """Score every example's gold calls against corruptions of them, executed live.

    Exits with 1 when gold is below the best score on some example or a corruption beats it;
    with --strict, also when one ties it.
    """
    cfg = _config(config, scale, turns, preset)
    other = cfg.model_copy(update={"preset": "paper" if cfg.preset == "prove" else "prove"})
    other = RewardConfig.model_validate(other.model_dump())
    examples = read_dataset(dataset)
    try:
        with _progress("auditing") as bar:
            task = bar.add_task("audit", total=len(examples))
            found = run_audit(examples, cfg, seed=seed, max_variants=variants,
                              progress=lambda n: bar.advance(task, n), also=[other] if beside else [])
    except ProveError as exc:
        fail(f"cannot replay the dataset's calls: {exc}")
    reports = found if isinstance(found, list) else [found]
    main = reports[0]
    if as_json:
        print_json({**main.to_dict(), "beside": [r.to_dict() for r in reports[1:]]})
    else:
        _show_audit(main, show, strict)
        for r in reports[1:]:
            console.print(f"[dim]beside it, preset {r.preset}: gold mean {r.gold_mean:.3f}, "
                          + ", ".join(f"{name} {s['ties']} ties / {s['beats']} beats"
                                      for name, s in r.corruptions.items() if s["ties"] or s["beats"])
                          + (" (no tie)" if not r.findings else "") + "[/]")
    if not (main.strict_ok if strict else main.ok):
        raise typer.Exit(1)


def _show_audit(report: Any, show: int, strict: bool = False) -> None:
    table = Table(title=f"reward audit ({report.preset}): {report.examples} examples, gold mean "
                        f"{report.gold_mean:.3f} (best {report.best:g})")
    table.add_column("corruption", style="cyan", no_wrap=True)
    for col in ("examples", "variants", "mean", "max", "mean state", "ties", "beats"):
        table.add_column(col, justify="right")
    for name, s in report.corruptions.items():
        ties = s["ties"] + s["punished"]
        table.add_row(name, str(s["examples"]), str(s["variants"]), _num(s["mean"]), _num(s["max"]),
                      _num(s["mean_state"]), (f"[yellow]{ties}[/]" if ties else "[dim]0[/]"),
                      f"[bold red]{s['beats']}[/]" if s["beats"] else "[dim]0[/]")
    console.print(table)
    if report.not_executed:
        console.print(f"[yellow]{len(report.not_executed)} example(s) of servers not installed here were audited "
                      "without execution (no outcomes, no state, no fingerprint check)[/]")
    if report.gold_below_best:
        console.print(f"[bold red]gold below the best on {len(report.gold_below_best)} example(s):[/]")
        for g in report.gold_below_best[:show]:
            console.print(f"  {g['example']}: {g['score']:.3f} < {g['best']:g} ({g['why']})")
    else:
        console.print("[green]gold scores the best on every example[/]")
    if not report.findings:
        console.print("[green]gold is strictly above every corruption on every example[/]")
        return
    by_kind: dict[str, list[Any]] = {}
    for f in report.findings:
        by_kind.setdefault(f.corruption, []).append(f)
    for kind, found in by_kind.items():
        beats = sum(f.verdict == "beat" for f in found)
        colour = "bold red" if beats or strict else "yellow"
        what = "below gold (it must score the same)" if kind == "alternative_order" else "at least as high as gold"
        console.print(f"[{colour}]{kind}[/]: {what} on {len(found)} example(s)"
                      + (f", [bold red]above gold on {beats}[/]" if beats else ""))
        for f in found[:show]:
            note = f" [dim]({f.note})[/]" if f.note else ""
            console.print(f"  {f.verdict:4} {f.example}: {f.score:.3f} vs gold {f.gold:.3f}, {f.variant}{note}")
        if len(found) > show:
            console.print(f"  [dim]… {len(found) - show} more (--json lists them all)[/]")
