"""`prove bench NAME`: run a benchmark from the source tree's `benchmarks/` and print its JSON.

The benchmarks are scripts of the source repository, not modules of the installed package: a
wheel has none. `PROVE_BENCHMARKS` names the folder that holds them when it is not the checkout
this package was installed from (`pip install -e .`).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Annotated

import typer

from .output import fail

app = typer.Typer(help="Reproducible benchmarks (JSON on stdout).", no_args_is_help=True)
CHECKOUT = Path(__file__).resolve().parents[3] / "benchmarks"   # src/prove/cli -> the repository


def benchmarks_dir() -> Path:
    return Path(os.environ["PROVE_BENCHMARKS"]) if os.environ.get("PROVE_BENCHMARKS") else CHECKOUT


def _run(name: str, argv: list[str]) -> None:
    path = benchmarks_dir() / f"{name}.py"
    if not path.is_file():
        fail(f"benchmark {name!r} is not at {path}. Benchmarks are scripts of the source repository "
             "(its benchmarks/ folder), not part of the installed package: run `prove bench` from a checkout "
             "installed with `pip install -e .`, or set PROVE_BENCHMARKS to that benchmarks/ folder.")
    spec = importlib.util.spec_from_file_location(f"prove_benchmarks.{name}", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    module.main(argv)


Quick = Annotated[bool, typer.Option("--quick", help="Fewer repetitions (a smoke run, not a measurement).")]


@app.command("env")
def env(server: Annotated[str, typer.Option(help="Server whose world is measured.")] = "banking",
        quick: Quick = False) -> None:
    """Session create, fork, fingerprint, read and write calls, idle memory per session."""
    _run("env", ["--server", server] + (["--quick"] if quick else []))


@app.command("reward")
def reward(quick: Quick = False) -> None:
    """Reward throughput: trajectories scored per second, 5-call and 20-call, on one core."""
    _run("reward", ["--quick"] if quick else [])


@app.command("mcp")
def mcp(seconds: Annotated[float, typer.Option(help="Measured seconds per point.")] = 3.0,
        rounds: Annotated[int, typer.Option(help="Interleaved rounds per point (the median is kept).")] = 3,
        quick: Quick = False) -> None:
    """MCP serving: calls/s and p50/p99 with 1, 32, 256 episodes, prove serve vs a bare MCPServer; 2 workers vs 1."""
    _run("mcp", ["--seconds", str(seconds), "--rounds", str(rounds)] + (["--quick"] if quick else []))


@app.command("fuzz")
def fuzz(calls: Annotated[int, typer.Option(help="Hostile calls, spread over every tool of every server.")] = 100_000,
         quick: Quick = False) -> None:
    """Hostile arguments on every tool (exceptions, internal errors, partial writes, slowest call); memory per
    episode after 300 calls with 1 MB arguments; RSS returned after 256 episodes close."""
    _run("fuzz", ["--calls", str(calls)] + (["--quick"] if quick else []))


@app.command("synth")
def synth(n: Annotated[int, typer.Option(help="Examples of the programmatic run.")] = 13_500,
          workers: Annotated[int, typer.Option(help="Worker processes.")] = 2,
          delay: Annotated[float, typer.Option(help="Scripted server delay d (s).")] = 0.2,
          concurrency: Annotated[int, typer.Option(help="OpenAI teacher requests in flight c.")] = 32,
          quick: Quick = False) -> None:
    """Synthesis: 13,500 examples with the programmatic teacher (time, yield, replay, grounding); OpenAI-teacher throughput vs c/d."""
    _run("synth", ["--n", str(n), "--workers", str(workers), "--delay", str(delay), "--concurrency",
                   str(concurrency)] + (["--quick"] if quick else []))


@app.command("curriculum")
def curriculum(steps: Annotated[int, typer.Option(help="Training steps of each run.")] = 200,
               n: Annotated[int, typer.Option(help="Seed examples (the static dataset).")] = 400,
               quick: Quick = False) -> None:
    """Static data vs the online curriculum on a simulated policy: boundary share, group variance, skill, ratio."""
    _run("curriculum", ["--steps", str(steps), "--n", str(n)] + (["--quick"] if quick else []))


@app.command("ray")
def ray(address: Annotated[str | None, typer.Option(help="Ray cluster to join (default: a local instance).")] = None,
        seconds: Annotated[float, typer.Option(help="Measured seconds per point.")] = 3.0,
        rounds: Annotated[int, typer.Option(help="Interleaved rounds per point (the median is kept).")] = 3,
        n: Annotated[int, typer.Option(help="Examples of the synthesis part.")] = 600,
        quick: Quick = False) -> None:
    """Episode calls/s in-process, on prove serve --workers 2 and on a Ray pool; synthesis with 1 and 2 Ray workers."""
    _run("ray", (["--address", address] if address else []) + ["--seconds", str(seconds), "--rounds", str(rounds),
                                                               "--n", str(n)] + (["--quick"] if quick else []))
