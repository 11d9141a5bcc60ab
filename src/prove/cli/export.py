"""`prove export verl`: a dataset as VERL training input (Parquet, configs, a GRPO launch script)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .datasets import DATASET_HELP, read_dataset
from .output import console, fail, print_json

app = typer.Typer(help="Write a dataset in a trainer's input format.", no_args_is_help=True)


@app.command("verl")
def verl(
    dataset: Annotated[Path, typer.Argument(help=DATASET_HELP)],
    out: Annotated[Path, typer.Argument(help="Directory to write into (created if needed).")],
    val: Annotated[float, typer.Option(help="Validation examples: a share below 1, or a count.")] = 0.05,
    model: Annotated[str, typer.Option(help="Default model of the launch script ($MODEL overrides it).")] =
    "Qwen/Qwen3-4B",
    agent: Annotated[str, typer.Option(help="prove_agent (live episodes, follow-up turns) or tool_agent "
                                            "(VERL's stock loop with ProveTool).")] = "prove_agent",
    env_url: Annotated[str | None, typer.Option(help="Run episodes on this `prove serve` (comma-separated "
                                                     "workers) instead of in each VERL worker.")] = None,
    call_timeout: Annotated[float, typer.Option(help="Seconds a tool call may run.")] = 10.0,
    max_calls: Annotated[int, typer.Option(help="Tool calls per episode.")] = 50,
    record_diff: Annotated[bool, typer.Option(help="Hand each episode's state diff to the reward.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")] = False,
) -> None:
    """Parquet in VERL's columns, the tool and agent-loop configs, and a GRPO launch script."""
    from ..integrations import MissingExtraError
    from ..integrations.verl.export import export

    examples = read_dataset(dataset)
    if agent not in ("prove_agent", "tool_agent"):
        fail("--agent is prove_agent or tool_agent")
    try:
        result = export(examples, out, val=int(val) if val >= 1 else val, model=model, env_url=env_url,
                        call_timeout=call_timeout, max_calls=max_calls, record_diff=record_diff, agent=agent)
    except MissingExtraError as exc:
        fail(str(exc))
    if as_json:
        print_json(result.to_dict())
        return
    console.print(f"wrote {result.train} training and {result.val} validation examples, {result.tools} tools, "
                  f"to {result.out}")
    for name, path in result.files.items():
        console.print(f"  {name:<12} {path}")
    console.print(f"[dim]prompt budget {result.lengths.prompt} tokens, response {result.lengths.response}; "
                  f"launch: MODEL=Qwen/Qwen3-4B bash {result.files['script']}[/]")
