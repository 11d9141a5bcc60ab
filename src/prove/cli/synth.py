"""`prove synth`: grounded synthesis of tool-use conversations, and `prove synth report`."""

from __future__ import annotations

import json
import logging
import os
import time
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
from .output import console, errors, fail, print_json

app = typer.Typer(help="Synthesize grounded multi-turn tool-use conversations (and report on them).",
                  invoke_without_command=True, no_args_is_help=False)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print the run summary as JSON on stdout.")]


def _cache_dir(value: Path | None) -> Path:
    if value is not None:
        return value
    base = os.environ.get("PROVE_CACHE") or os.path.join(os.environ.get("XDG_CACHE_HOME", "~/.cache"), "prove")
    return Path(base).expanduser() / "synth"


def _load_config(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        text = path.read_text()
        if path.suffix == ".toml":
            import tomllib

            return tomllib.loads(text)
        return json.loads(text)
    except (OSError, ValueError) as exc:
        fail(f"cannot read --config {path}: {exc}")


@app.callback()
def synth(
    ctx: typer.Context,
    servers: Annotated[list[str] | None, typer.Option("--servers", help="Servers to use (repeat or comma-separate); "
                                                                       "default every registered server that loads.")] = None,
    n: Annotated[int | None, typer.Option("--n", help="Accepted examples to write (default 200).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Run seed: the same seed gives byte-identical files.")] = None,
    teacher: Annotated[str | None, typer.Option("--teacher", help="programmatic (default, no model), "
                                                                  "openai:MODEL@BASE_URL, or reword:MODEL@BASE_URL "
                                                                  "(the programmatic plan, worded by the model).")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory (resumed if it holds this run).")] = Path(
        "prove-synth"),
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Worker processes, or Ray actors with --ray "
                                                                        "(default 1; with --ray one per CPU of the "
                                                                        "cluster). The output does not depend on it.")] = None,
    ray_address: Annotated[str | None, typer.Option("--ray", metavar="ADDRESS", help="Run the shards as Ray tasks on "
                                                    "the cluster at ADDRESS: auto (the one this machine belongs to), "
                                                    "local (a new one here), HOST:PORT (a head node), or "
                                                    "ray://HOST:10001. Needs the `ray` extra.")] = None,
    ungrounded: Annotated[bool, typer.Option("--ungrounded", help="No sampling context: invent entities the way an "
                                                                   "ungrounded model does (for the report's contrast).")] = False,
    formats: Annotated[str, typer.Option("--formats", help="Comma-separated: jsonl (always), parquet (VERL), hf.")] = "jsonl",
    config: Annotated[Path | None, typer.Option("--config", "-c", help="SynthConfig as JSON or TOML (rates, "
                                                                       "limits); flags override it.")] = None,
    concurrency: Annotated[int | None, typer.Option("--concurrency", help="OpenAI teacher: requests in flight.")] = None,
    cross_server: Annotated[float | None, typer.Option("--cross-server", help="Share of candidates on two or three "
                                                       "servers that bridges join, one conversation across them "
                                                       "(default 0: one server each).")] = None,
    cache: Annotated[Path | None, typer.Option("--cache", help="Cache directory (graphs, responses); default "
                                                                "$PROVE_CACHE or ~/.cache/prove.")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Discard what --out holds and start again.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Synthesize a dataset (see `prove synth report` for the figures)."""
    if ctx.invoked_subcommand is not None:
        return
    from ..synth import SynthConfig, SynthError, run
    from ..synth.writers import FORMATS, MissingExtra, write_hf, write_parquet

    data = _load_config(config)
    if servers:
        data["servers"] = [s for item in servers for s in item.split(",") if s]
    for key, value in (("n", n), ("seed", seed), ("teacher", teacher), ("cross_server", cross_server)):
        if value is not None:
            data[key] = value
    if ungrounded:
        data["ungrounded"] = True
    if concurrency is not None:
        data.setdefault("teacher_options", {})["concurrency"] = concurrency
    try:
        cfg = SynthConfig.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        fail(f"invalid synthesis config: {'.'.join(map(str, first['loc']))}: {first['msg']}")
    wanted = [f.strip() for f in formats.split(",") if f.strip()]
    unknown = [f for f in wanted if f not in FORMATS]
    if unknown:
        fail(f"unknown format(s) {', '.join(unknown)}; use {', '.join(FORMATS)}")
    if "parquet" in wanted or "hf" in wanted:
        try:
            import pyarrow  # noqa: F401
            if "hf" in wanted:
                import datasets  # noqa: F401
        except ImportError as exc:
            fail(f"--formats {formats} needs the `{exc.name}` package: pip install 'prove-rl[data]'")
    runner = None
    if ray_address is not None:
        from functools import partial

        from ..integrations import MissingExtraError
        try:
            from ..integrations.ray import RayShards
        except MissingExtraError as exc:
            fail(str(exc))
        runner = partial(RayShards, address=ray_address)
    logging.getLogger("prove.env").setLevel(logging.CRITICAL)
    started = time.perf_counter()
    progress = Progress(TextColumn("[bold]synth[/]"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("[dim]{task.fields[info]}[/]"), TimeElapsedColumn(), console=errors,
                        transient=False, disable=not errors.is_terminal)

    def warn(message: str) -> None:
        errors.print(f"[yellow]warning:[/] {message}")

    try:
        with progress:
            task = progress.add_task("synth", total=cfg.n, info="loading servers")

            def update(event: dict[str, Any]) -> None:
                c = event["candidates"]
                y = f"{event['accepted'] / c:.1%}" if c else "-"
                progress.update(task, completed=event["accepted"],
                                info=f"{c} candidates, yield {y}, {event['shards']} shards")

            summary = run(cfg, out, workers=workers if workers is not None else 0 if runner else 1,
                          cache_dir=_cache_dir(cache), overwrite=overwrite, progress=update, warn=warn, runner=runner)
        written = {"jsonl": str(out / "dataset.jsonl")}
        if "parquet" in wanted:
            written["parquet"] = str(write_parquet(out / "dataset.jsonl", out / "dataset.parquet"))
        if "hf" in wanted:
            written["hf"] = str(write_hf(out / "dataset.jsonl", out / "hf"))
    except MissingExtra as exc:
        fail(str(exc))
    except (SynthError, ProveError, ValueError, ConnectionError) as exc:
        fail(str(exc))
    seconds = time.perf_counter() - started
    result = {"out": str(out), "accepted": summary.accepted, "n": cfg.n, "candidates": summary.candidates,
              "yield": round(summary.yield_, 4), "shards": summary.shards, "resumed_shards": summary.resumed,
              "rejected": summary.reasons, "seconds": round(seconds, 2), "files": written,
              "stopped": summary.stopped}
    if as_json:
        print_json(result)
    else:
        table = Table(title=f"prove synth -> {out}", show_header=False)
        table.add_column(style="bold")
        table.add_column()
        for k in ("accepted", "candidates", "yield", "shards", "resumed_shards", "seconds"):
            table.add_row(k, f"{result[k]:.1%}" if k == "yield" else str(result[k]))
        table.add_row("rejected", ", ".join(f"{k} {v}" for k, v in sorted(summary.reasons.items())) or "none")
        for k, v in written.items():
            table.add_row(k, v)
        console.print(table)
        if summary.stopped:
            console.print(f"[yellow]stopped early ({summary.stopped}): the yield is too low to reach --n[/]")
        console.print(f"[dim]report: prove synth report {out}[/]")
    if summary.accepted < cfg.n:
        raise typer.Exit(1)


@app.command("report")
def report(
    run_dir: Annotated[Path, typer.Argument(help="A `prove synth --out` directory.")],
    ungrounded: Annotated[Path | None, typer.Option("--ungrounded", help="The directory of a `prove synth "
                                                                         "--ungrounded` run to compare with.")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="HTML file (default RUN_DIR/report.html).")] = None,
    reward: Annotated[bool, typer.Option(help="Add the reward of the gold calls (prove.reward).")] = True,
    audit: Annotated[int, typer.Option(help="Also run the reward audit on this many examples (0: none).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Write an HTML report with plots: counts, chains, turns, perturbations, rejections, grounding."""
    from ..synth.report import load_stats, render

    def stats_of(path: Path) -> dict[str, Any]:
        if not (path / "stats.json").is_file():
            fail(f"{path} has no stats.json: is it a finished `prove synth --out` directory?")
        return load_stats(path)

    stats = stats_of(run_dir)
    other = stats_of(ungrounded) if ungrounded is not None else None
    sections: list[tuple[str, str]] = []
    figures: dict[str, Any] = {}
    if reward and (run_dir / "dataset.jsonl").is_file():
        figures, html = _reward_section(run_dir / "dataset.jsonl", audit)
        sections.append(("Reward of the gold calls", html))
    page = render(stats, ungrounded=other, title=f"PROVE synthesis report: {run_dir}", sections=sections)
    target = out or run_dir / "report.html"
    target.write_text(page, encoding="utf-8")
    if as_json:
        print_json({"report": str(target), "stats": stats, "ungrounded": other, "reward": figures})
    else:
        console.print(f"wrote {target}")


def _reward_section(dataset: Path, audit_n: int) -> tuple[dict[str, Any], str]:
    """Mean reward of each example's own gold calls, per kind (and an audit of a sample): composed here,
    because `prove.synth` must not import `prove.reward`."""
    from ..records import read_examples
    from ..reward import Call, RewardConfig, Scorer
    from ..reward import audit as run_audit
    from ..synth.report import _table, hbar

    examples = read_examples(dataset)
    cfg = RewardConfig()
    scorer = Scorer(examples, cfg)
    by_kind: dict[str, list[float]] = {}
    below = 0
    for ex in examples:
        gold = scorer.gold(ex.id)
        calls = [Call(s.name, dict(s.arguments), True, s.turn) for s in gold.calls]
        total = scorer.score_calls(gold, calls).total
        by_kind.setdefault(ex.kind, []).append(total)
        below += total < cfg.best(abstain=not gold.calls) - 1e-9
    means = {k: sum(v) / len(v) for k, v in sorted(by_kind.items())}
    figures: dict[str, Any] = {"mean_gold_reward": means, "gold_below_best": below, "examples": len(examples),
                               "best": cfg.best(), "best_abstain": cfg.best(abstain=True)}
    html = hbar("Mean reward of the gold calls, per kind", means, color="#54A24B", fmt="{:.3f}")
    html += (f"<p>{len(examples)} examples; best possible {cfg.best():g} (abstentions {cfg.best(abstain=True):g}); "
             f"gold below the best on {below}.</p>")
    if audit_n > 0:
        report = run_audit(examples[:audit_n], cfg)
        data = report.to_dict()
        figures["audit"] = {k: v for k, v in data.items() if k != "findings"}
        rows = [(name, c["variants"], f"{c['mean']:.3f}" if c["mean"] is not None else "-",
                 f"{c['max']:.3f}" if c["max"] is not None else "-", c["ties"], c["beats"])
                for name, c in data["corruptions"].items()]
        html += (f"<h3>Reward audit of the first {audit_n} examples (gold mean {data['gold_mean']:.3f})</h3>"
                 + _table(rows, ["corruption", "variants", "mean", "max", "ties", "beats"]))
    return figures, html
