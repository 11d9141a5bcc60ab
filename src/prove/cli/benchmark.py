"""`prove eval --benchmark`, `prove eval compare` and `prove eval convert`: external benchmarks from the CLI.

The work is `prove.evals`'s; this module reads the options, writes the files and prints the tables.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..env import ProveError
from .output import console, errors, fail, print_json

__all__ = ["compare_command", "convert_command", "run_benchmark"]


def _seeds(seed: int | None, seeds: str | None, trials: int) -> list[int | None]:
    if seeds and trials != 1:
        fail("give --seeds or --trials, not both")
    if seeds:
        try:
            return [int(s) for s in seeds.split(",") if s.strip()]
        except ValueError:
            fail(f"--seeds takes comma-separated integers, not {seeds!r}")
    if trials < 1:
        fail("--trials is at least 1")
    return [seed + k if seed is not None else None for k in range(trials)]


def run_benchmark(benchmark: str, *, make_policy: Any, make_user: Any, seed: int | None, seeds: str | None,
                  trials: int, ids: str | None, limit: int | None, concurrency: int, max_steps: int | None,
                  out: Path | None, trajectories: Path | None, as_json: bool, model: str, base_url: str,
                  settings: dict[str, Any]) -> None:
    from ..evals import EvalError, result
    from ..evals.benchmarks import parse, run_benchmark as run

    runs_seeds = _seeds(seed, seeds, trials)
    try:
        spec = parse(benchmark)
    except EvalError as exc:
        fail(str(exc))
    sink = trajectories.open("w", encoding="utf-8") if trajectories is not None else None
    lock = threading.Lock()
    progress = Progress(TextColumn(f"[dim]{spec.name}[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=errors, transient=True, disable=not errors.is_terminal)
    task = progress.add_task("entries", total=None)

    def record(_: dict[str, Any]) -> None:
        progress.advance(task)

    def trajectory(traj: dict[str, Any]) -> None:
        if sink is not None:
            with lock:
                sink.write(json.dumps(traj, ensure_ascii=False) + "\n")
                sink.flush()

    try:
        with progress:
            runs = run(spec, make_policy, runs_seeds, ids=[i.strip() for i in ids.split(",")] if ids else None,
                       limit=limit, concurrency=max(1, concurrency), user=make_user, max_steps=max_steps,
                       on_record=record, on_trajectory=trajectory)
    except ProveError as exc:
        fail(str(exc))
    finally:
        if sink is not None:
            sink.close()
    doc = result(spec.name, runs, model=model, base_url=base_url,
                 settings={**settings, "parts": list(spec.parts), "seeds": runs_seeds})
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if as_json:
        print_json({k: v for k, v in doc.items() if k != "runs"})
        return
    _show(doc)
    if out is not None:
        console.print(f"[dim]wrote the result to {out} (prove eval compare BASE.json {out})[/]")
    if trajectories is not None:
        console.print(f"[dim]wrote the trajectories to {trajectories}[/]")


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}"


def _ci(ci: list[float] | None) -> str:
    return "–" if not ci else f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _show(doc: dict[str, Any]) -> None:
    summary = doc["summary"]
    n_runs = len(doc["runs"])
    table = Table(title=f"{doc['model']} on {doc['benchmark']}: {summary['all']['n']} entries × {n_runs} run(s)")
    table.add_column("group", style="cyan", no_wrap=True)
    table.add_column("n", justify="right")
    table.add_column("mean %", style="bold", justify="right")
    table.add_column("95% interval", justify="right")
    if n_runs > 1:
        table.add_column("runs %", justify="right")
        table.add_column("std", justify="right")
        table.add_column(f"pass^{n_runs} %", justify="right")
    table.add_column("err", justify="right", style="red")

    def row(name: str, g: dict[str, Any]) -> None:
        cells = [name, str(g["n"]), _pct(g["mean"]), _ci(g["ci95"])]
        if n_runs > 1:
            cells += [" ".join(_pct(v) for v in g["runs"]), _pct((g["spread"] or {}).get("std")),
                      _pct((g.get("pass_hat_k") or {}).get(str(n_runs)))]
        cells.append(str(g["err"] or ""))
        table.add_row(*cells)

    row("all", summary["all"])
    if summary["categories"]:
        table.add_section()
        for name, g in summary["categories"].items():
            row(name, g)
    console.print(table)
    console.print("[dim]mean: share of entries passed (over runs); 95% interval: bootstrap over entries; "
                  "err: entry runs with an endpoint error or unreadable calls (scored as the benchmark scores them)[/]")


def compare_command(
    base: Annotated[Path, typer.Argument(help="The base model's result (a `--out` file, or a folder of them).")],
    new: Annotated[Path, typer.Argument(help="The new model's result, of the same benchmark(s).")],
    plot: Annotated[Path | None, typer.Option("--plot", help="Write the comparison as an HTML page (inline SVG).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The comparison as JSON on stdout.")] = False,
) -> None:
    """The difference between two results per benchmark and category, with a paired bootstrap interval."""
    from ..evals import EvalError, compare_all, read_results
    from ..evals.plot import comparison_html

    try:
        left, right = read_results(base), read_results(new)
        found = compare_all(left, right)
    except EvalError as exc:
        fail(str(exc))
    if plot is not None:
        summaries = {(side, d["benchmark"]): d["summary"] for side, docs in (("base", left), ("new", right))
                     for d in docs}
        plot.parent.mkdir(parents=True, exist_ok=True)
        plot.write_text(comparison_html(found, summaries, title=f"{base} vs {new}"), encoding="utf-8")
    if as_json:
        print_json(found)
        return
    for comp in found:
        table = Table(title=f"{comp['benchmark']}: {comp['new_model']} − {comp['base_model']}")
        for name in ("group", "n", "base %", "new %", "delta", "95% interval", "excludes 0"):
            table.add_column(name, justify="left" if name == "group" else "right")
        for group, d in comp["groups"].items():
            delta = "–" if d["delta"] is None else f"{100 * d['delta']:+.1f}"
            ci = "–" if not d["ci95"] else f"[{100 * d['ci95'][0]:+.1f}, {100 * d['ci95'][1]:+.1f}]"
            table.add_row(group, str(d["n"]), _pct(d["base"]), _pct(d["new"]), delta, ci,
                          "[green]yes[/]" if d["excludes_zero"] else "no")
        console.print(table)
        unpaired = comp["groups"]["all"]["unpaired"]
        if unpaired:
            console.print(f"[yellow]{unpaired} entries are in one result only (left out)[/]")
    if plot is not None:
        console.print(f"[dim]wrote the plot to {plot}[/]")


def convert_command(
    benchmark: Annotated[str, typer.Argument(help="bfcl-multi-turn, or bfcl-multi-turn:CATEGORY,...")],
    out: Annotated[Path, typer.Argument(help="The PROVE dataset to write (JSONL).")],
    ids: Annotated[str | None, typer.Option(help="Only these entry ids (comma-separated).")] = None,
    limit: Annotated[int | None, typer.Option(help="At most this many entries.")] = None,
) -> None:
    """Write a benchmark's entries as PROVE records (tools, gold calls per turn), for `prove reward`."""
    from ..evals import EvalError
    from ..evals.benchmarks import BFCL, parse
    from ..records import write_jsonl

    try:
        spec = parse(benchmark)
        if spec.name != BFCL:
            fail("only BFCL multi-turn converts to PROVE records")
        from ..evals import bfcl
        from ..evals.bfcl_records import to_examples

        entries = bfcl.load(spec.parts, [i.strip() for i in ids.split(",")] if ids else None)
        examples = to_examples(entries[:limit] if limit is not None else entries)
    except EvalError as exc:
        fail(str(exc))
    n = write_jsonl(out, examples)
    calls = sum(len(ex.gold_calls()) for ex in examples)
    console.print(f"wrote {n} examples ({calls} gold calls) of {spec.name}:{','.join(spec.parts)} to {out}")
