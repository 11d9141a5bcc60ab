"""`prove eval`: run a model behind an OpenAI-compatible endpoint on a dataset, live, or on an external
benchmark (`--benchmark`), and report; `prove eval compare` and `prove eval convert` (`cli.benchmark`)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from typer.core import TyperGroup
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from ..env import ProveError
from ..records import Example
from ..reward import COMPONENTS, Scorer
from .benchmark import compare_command, convert_command, run_benchmark
from .datasets import DATASET_HELP, read_dataset
from .output import console, errors, fail, print_json
from .reward import ConfigOpt, ScaleOpt, TurnsOpt, _config


class _RunByDefault(TyperGroup):
    """`prove eval DATASET ...` and `prove eval --benchmark ...` mean `prove eval run ...`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(cls=_RunByDefault, no_args_is_help=True,
                  help="Run a model on a dataset or a benchmark (`run`, the default), compare two results, "
                       "convert a benchmark to PROVE records.")


def _pick(examples: list[Example], ids: str | None, servers: str | None, kinds: str | None,
          limit: int | None) -> list[Example]:
    if ids:
        wanted = [i.strip() for i in ids.split(",") if i.strip()]
        known = {ex.id: ex for ex in examples}
        missing = [i for i in wanted if i not in known]
        if missing:
            fail(f"no example {missing[0]!r} in the dataset")
        examples = [known[i] for i in wanted]
    if servers:
        keep = {s.strip() for s in servers.split(",")}
        examples = [ex for ex in examples if keep & set(ex.servers)]
    if kinds:
        keep = {k.strip() for k in kinds.split(",")}
        examples = [ex for ex in examples if ex.kind in keep]
    return examples[:limit] if limit is not None else examples


@app.command("run")
def eval_command(
    model: Annotated[str, typer.Option("--model", "-m", help="Model name the endpoint serves.")],
    base_url: Annotated[str, typer.Option("--base-url", "-u",
                                          help="OpenAI-compatible endpoint, such as http://127.0.0.1:8000/v1.")],
    dataset: Annotated[Path | None, typer.Argument(help=DATASET_HELP + " Leave out with --benchmark.",
                                                   show_default=False)] = None,
    api_key: Annotated[str | None, typer.Option(envvar="OPENAI_API_KEY", show_default=False,
                                                help="Bearer token of the endpoint.")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the scored trajectories (JSONL); with "
                                                                 "--benchmark, the result (JSON).")] = None,
    ids: Annotated[str | None, typer.Option(help="Only these example ids (comma-separated).")] = None,
    servers: Annotated[str | None, typer.Option(help="Only examples of these servers (comma-separated).")] = None,
    kinds: Annotated[str | None, typer.Option(help="Only these kinds (comma-separated).")] = None,
    limit: Annotated[int | None, typer.Option(help="At most this many examples.")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", "-j", help="Episodes run at once.")] = 4,
    temperature: Annotated[float, typer.Option(help="Sampling temperature.")] = 0.0,
    max_tokens: Annotated[int, typer.Option(help="Tokens per reply.")] = 1024,
    seed: Annotated[int | None, typer.Option(help="Sampling seed sent to the endpoint.")] = None,
    tools: Annotated[str, typer.Option(help="api: send the tools with each request; none: do not.")] = "api",
    timeout: Annotated[float, typer.Option(help="Seconds one model request may take.")] = 120.0,
    retries: Annotated[int, typer.Option(help="Retries of a failed model request.")] = 2,
    call_timeout: Annotated[float, typer.Option(help="Seconds one tool call may run.")] = 10.0,
    max_user_turns: Annotated[int, typer.Option(help="User messages per episode, the first included.")] = 5,
    max_assistant_turns: Annotated[int, typer.Option(help="Assistant replies per episode.")] = 10,
    max_calls: Annotated[int, typer.Option(help="Tool calls per episode.")] = 50,
    max_calls_per_turn: Annotated[int | None, typer.Option(help="Tool calls run from one reply.")] = None,
    remote: Annotated[str | None, typer.Option(
        help="Run the episodes on a `prove serve` at this URL (several: comma-separated workers) "
             "instead of in-process.")] = None,
    token: Annotated[str | None, typer.Option(envvar="PROVE_TOKEN", show_default=False,
                                              help="Bearer token of the `prove serve` given with --remote.")] = None,
    ray_address: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS", help="Run the episodes on Ray environment actors on the cluster at ADDRESS "
                                         "(auto, local, HOST:PORT, ray://HOST:10001); needs the `ray` extra.")] = None,
    ray_actors: Annotated[int, typer.Option(help="Environment actors with --ray.")] = 2,
    config: ConfigOpt = None, scale: ScaleOpt = None, turns: TurnsOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable JSON report on stdout.")] = False,
    benchmark: Annotated[str | None, typer.Option(
        "--benchmark", "-b", help="An external benchmark instead of a dataset: bfcl-multi-turn[:CATEGORY,...] "
                                  "(base, miss_func, miss_param, long_context) or tau2:DOMAIN (airline, retail, "
                                  "telecom). --out then writes the result (JSON) for `prove eval compare`.")] = None,
    trials: Annotated[int, typer.Option(help="Benchmark: runs of every entry (seeds --seed, --seed+1, ... "
                                             "when --seed is given); pass^k over them.")] = 1,
    seeds: Annotated[str | None, typer.Option(help="Benchmark: one run per sampling seed (comma-separated).")] = None,
    trajectories_out: Annotated[Path | None, typer.Option(
        "--trajectories", help="Benchmark: write every run's conversations (JSONL trajectories, for "
                               "`prove reward score`).")] = None,
    user_model: Annotated[str | None, typer.Option(help="tau2: the user simulator's model (default --model).")] = None,
    user_base_url: Annotated[str | None, typer.Option(help="tau2: the user simulator's endpoint "
                                                           "(default --base-url).")] = None,
    user_api_key: Annotated[str | None, typer.Option(envvar="PROVE_USER_API_KEY", show_default=False,
                                                     help="tau2: the user endpoint's key (default --api-key).")] = None,
    max_steps: Annotated[int | None, typer.Option(help="tau2: steps (messages) per simulation "
                                                       "(default tau2's 200).")] = None,
) -> None:
    """Run a model on every example (or benchmark entry), in live episodes, and report.

    On a dataset, each episode opens a fresh world, starts from the example's first user message,
    runs every tool call the model makes, sends the example's follow-up user turns when the model
    answers in words, and is scored by the programmatic reward. With --benchmark, the benchmark's
    own environment and checker run and score it; every figure comes with n and a bootstrap
    interval.
    """
    from ..rollout import Limits, OpenAIPolicy, Sampling, evaluate, local_env, summarize

    if benchmark is not None:
        if dataset is not None:
            fail("give a dataset or --benchmark, not both")

        def make_policy(run_seed: int | None) -> OpenAIPolicy:
            return OpenAIPolicy(base_url, model, api_key=api_key, timeout=timeout, retries=retries, tools=tools,
                                sampling=Sampling(temperature=temperature, max_tokens=max_tokens, seed=run_seed))

        def make_user(run_seed: int | None) -> Any:
            from ..evals.tau2 import UserModel

            return UserModel(user_base_url or base_url, user_model or model, api_key=user_api_key or api_key,
                             timeout=timeout, retries=retries, seed=run_seed)

        run_benchmark(benchmark, make_policy=make_policy, make_user=make_user, seed=seed, seeds=seeds,
                      trials=trials, ids=ids, limit=limit, concurrency=concurrency, max_steps=max_steps, out=out,
                      trajectories=trajectories_out, as_json=as_json, model=model, base_url=base_url,
                      settings={"temperature": temperature, "max_tokens": max_tokens, "tools": tools,
                                "user_model": user_model or model if benchmark.startswith("tau2") else None})
        return
    if dataset is None:
        fail("give a dataset, or --benchmark NAME")

    cfg = _config(config, scale, turns)
    examples = _pick(read_dataset(dataset), ids, servers, kinds, limit)
    if not examples:
        fail("no example to run")
    if tools not in ("api", "none"):
        fail("--tools is 'api' or 'none'")
    limits = Limits(max_user_turns=max_user_turns, max_assistant_turns=max_assistant_turns, max_calls=max_calls,
                    max_calls_per_turn=max_calls_per_turn)
    pool = None
    if remote and ray_address:
        fail("--remote and --ray do not go together")
    if ray_address:
        from ..integrations import MissingExtraError
        try:
            from ..integrations.ray import RayEnvPool

            pool = RayEnvPool(ray_actors, call_timeout=call_timeout, address=ray_address)
        except (MissingExtraError, ProveError, ConnectionError) as exc:
            fail(f"cannot start the Ray environment actors: {exc}")
        env = pool.open
    elif remote:
        from ..mcp import RemoteEnv

        urls = [u.strip() for u in remote.split(",") if u.strip()]

        def env(names: Any, world: int) -> Any:
            return RemoteEnv(list(names), world, url=urls, token=token, timeout=max(60.0, 3 * call_timeout))
    else:
        env = local_env(call_timeout=call_timeout)
    policy = OpenAIPolicy(base_url, model, api_key=api_key, timeout=timeout, retries=retries, tools=tools,
                          sampling=Sampling(temperature=temperature, max_tokens=max_tokens, seed=seed))
    sink = out.open("w", encoding="utf-8") if out is not None else None
    lock = threading.Lock()
    progress = Progress(TextColumn("[dim]episodes[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=errors, transient=True, disable=not errors.is_terminal)

    try:
        with policy, progress:
            task = progress.add_task("eval", total=len(examples))

            def done(traj: dict[str, Any]) -> None:
                with lock:
                    if sink is not None:
                        sink.write(json.dumps(traj, ensure_ascii=False) + "\n")
                        sink.flush()
                    progress.advance(task)

            scorer = Scorer(examples, cfg)
            trajectories = evaluate(examples, policy, env=env, limits=limits, score=scorer.breakdown,
                                    state=scorer.state, concurrency=max(1, concurrency), meta={"model": model},
                                    on_result=done)
    except ProveError as exc:
        fail(f"cannot run the episodes: {exc}")
    finally:
        if sink is not None:
            sink.close()
        if pool is not None:
            pool.shutdown()
    report = summarize(trajectories, examples, components=COMPONENTS, best=cfg.best())
    report = {"model": model, "dataset": str(dataset), "count": len(trajectories), **report}
    if as_json:
        print_json(report)
    else:
        _show(report)
        if out is not None:
            console.print(f"[dim]wrote {len(trajectories)} trajectories to {out}[/]")


app.command("compare")(compare_command)
app.command("convert")(convert_command)


def _pct(v: Any) -> str:
    return "–" if v is None else f"{100 * v:.0f}%"


def _num(v: Any) -> str:
    return "–" if v is None else f"{v:.3f}"


def _show(report: dict[str, Any]) -> None:
    table = Table(title=f"{report['model']} on {report['dataset']}: {report['count']} episodes "
                        f"(best score {report['best']:g})")
    table.add_column("group", style="cyan", no_wrap=True)
    table.add_column("n", justify="right")
    table.add_column("score", style="bold", justify="right")
    comps = [c for c in COMPONENTS if report["overall"]["components"].get(c) is not None]
    short = {"validity": "val", "coverage": "cov", "efficiency": "eff"}
    for c in comps:
        table.add_column(short.get(c, c), justify="right")
    for name in ("success", "state", "perfect"):
        table.add_column(name, justify="right")
    table.add_column("calls/B", justify="right")
    table.add_column(">B", justify="right")
    table.add_column("err", justify="right", style="red")

    def row(label: str, g: dict[str, Any]) -> None:
        calls = "–" if g["calls"] is None else f"{g['calls']:.1f}/{g['budget']:.1f}"
        table.add_row(label, str(g["n"]), _num(g["score"]), *(_num(g["components"].get(c)) for c in comps),
                      _pct(g["success"]), _pct(g["state_match"]), _pct(g["perfect"]), calls,
                      _pct(g["over_budget"]), str(g["errors"] or ""))

    row("all", report["overall"])
    table.add_section()
    for name, g in report["by_server"].items():
        row(name, g)
    table.add_section()
    for name, g in report["by_kind"].items():
        row(name, g)
    console.print(table)
    status = report["overall"]["status"]
    console.print("[dim]val cov eff name args: mean reward components; success: every gold call matched in order "
                  "(and the final state right); state: final state = the example's; perfect: best score; calls/B: "
                  "mean calls / mean budget; >B: share over budget[/]")
    console.print("[dim]episodes ended: " + ", ".join(f"{k} {v}" for k, v in status.items()) + "[/]")
