"""`prove curriculum`: measure an online curriculum on a simulated policy, and report on a curriculum log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .output import console, errors, fail, print_json

app = typer.Typer(help="Online curriculum: boundary skills from training rewards, new examples for them.",
                  no_args_is_help=True)


@app.command("simulate")
def simulate(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for the seed data, log.jsonl, simulation.json, report.html.")],
    servers: Annotated[str, typer.Option(help="Comma-separated servers.")] = "banking,calendar,email,shopping",
    n: Annotated[int, typer.Option(help="Seed examples to synthesize (the static dataset).")] = 400,
    seed: Annotated[int, typer.Option()] = 0,
    steps: Annotated[int, typer.Option(help="Training steps of each run.")] = 200,
    prompts: Annotated[int, typer.Option(help="Prompts per step.")] = 16,
    rollouts: Annotated[int, typer.Option(help="Rollouts per prompt.")] = 8,
    capacity: Annotated[int, typer.Option(help="Buffer size.")] = 96,
    max_share: Annotated[float, typer.Option(help="Largest share of the buffer one skill holds.")] = 0.10,
    skill_by: Annotated[str, typer.Option(help="Skill fields counted (server,tool,length,depth,kind).")] = "server,tool,kind",
    generate: Annotated[int, typer.Option(help="New examples asked for per step.")] = 8,
    workers: Annotated[int, typer.Option(help="Worker processes for the seed data.")] = 1,
) -> None:
    """Static data vs the curriculum on a simulated policy, same rollouts; prints the summary as JSON."""
    from ..curriculum import CurriculumConfig
    from ..curriculum.simulate import SimConfig
    from ..curriculum.simulate import simulate as measure

    try:
        config = CurriculumConfig(seed=seed, capacity=capacity, max_share=max_share,
                                  skill_by=[f for f in skill_by.split(",") if f], generate_per_step=generate)
    except ValueError as exc:
        fail(f"bad curriculum settings: {exc}")
    result = measure(out, servers=[s for s in servers.split(",") if s], n=n, seed=seed,
                     sim=SimConfig(steps=steps, prompts=prompts, rollouts=rollouts, seed=seed), curriculum=config,
                     workers=workers)
    print_json({"summary": result["summary"], "buffer": result["buffer"], "seconds": result["seconds"]})
    errors.print(f"[dim]report: {out / 'report.html'}[/]")


@app.command("report")
def report(
    log: Annotated[Path, typer.Argument(help="A curriculum log (JSONL), as `Curriculum(log=...)` writes it.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="HTML file (default: beside the log).")] = None,
) -> None:
    """Write an HTML report of a curriculum log: skill mix, boundary size, generated and retired."""
    from ..curriculum.report import read_log, render

    if not log.is_file():
        fail(f"{log} is not a file")
    try:
        page = render(read_log(log))
    except (ValueError, KeyError, TypeError) as exc:
        fail(f"{log} is not a curriculum log: {exc!r}")
    target = out or log.with_suffix(".html")
    target.write_text(page, encoding="utf-8")
    console.print(f"report: {target}")
