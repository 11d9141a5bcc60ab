"""`prove export verl` (Parquet, configs, a GRPO launch script) and `prove export sft` (chat-template-ready JSONL)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .datasets import DATASET_HELP, dataset_file, read_dataset
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
    env_ray: Annotated[int | None, typer.Option(help="Run episodes on this many Ray environment actors in VERL's "
                                                     "cluster, shared by its workers (needs the `ray` extra "
                                                     "where VERL runs).")] = None,
    call_timeout: Annotated[float, typer.Option(help="Seconds a tool call may run.")] = 10.0,
    max_calls: Annotated[int | None, typer.Option(help="Tool calls per episode (default: the most a reference "
                                                       "makes, at least 50).")] = None,
    max_user_turns: Annotated[int | None, typer.Option(help="VERL's multi_turn.max_user_turns, which counts every "
                                                            "round of tool results and every follow-up (default: "
                                                            "what the longest reference needs, at least 5).")] = None,
    max_assistant_turns: Annotated[int | None, typer.Option(help="VERL's multi_turn.max_assistant_turns (default: "
                                                                 "the longest reference's replies, at least 10).")]
    = None,
    record_diff: Annotated[bool, typer.Option(help="Hand each episode's state diff to the reward.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")] = False,
) -> None:
    """Parquet in VERL's columns, the tool and agent-loop configs, and a GRPO launch script."""
    from ..integrations import MissingExtraError
    from ..integrations.verl.export import export, ray_pool_config

    examples = read_dataset(dataset)
    if agent not in ("prove_agent", "tool_agent"):
        fail("--agent is prove_agent or tool_agent")
    if env_ray is not None and (env_ray < 1 or env_url):
        fail("--env-ray is a number of actors (at least 1), and does not go with --env-url")
    try:
        result = export(examples, out, val=int(val) if val >= 1 else val, model=model, env_url=env_url,
                        env_ray=ray_pool_config(env_ray) if env_ray else None, call_timeout=call_timeout, max_calls=max_calls, max_user_turns=max_user_turns,
                        max_assistant_turns=max_assistant_turns, record_diff=record_diff, agent=agent)
    except MissingExtraError as exc:
        fail(str(exc))
    if as_json:
        print_json(result.to_dict())
        return
    console.print(f"wrote {result.train} training and {result.val} validation examples, {result.tools} tools, "
                  f"to {result.out}")
    for name, path in result.files.items():
        console.print(f"  {name:<12} {path}")
    b = result.budget
    console.print(f"caps: max_user_turns {b.user_turns} (VERL counts each round of tool results), "
                  f"max_assistant_turns {b.assistant_turns}, max_parallel_calls {b.parallel_calls}, "
                  f"max_calls {b.calls}; prompt {b.prompt} tokens, response {b.response}, "
                  f"tool responses {b.tool_response_chars} characters")
    share = f"{b.fit} of {b.examples} reference conversations fit them ({b.fit / max(b.examples, 1):.0%})"
    if b.cut:
        console.print(f"[yellow]{share}; cut off by " + ", ".join(f"{k} {v}" for k, v in b.cut.items()) + "[/]")
    else:
        console.print(share)
    console.print(f"[dim]launch: MODEL=Qwen/Qwen3-4B bash {result.files['script']}[/]")


@app.command("sft")
def sft(
    dataset: Annotated[Path, typer.Argument(help=DATASET_HELP)],
    out: Annotated[Path, typer.Argument(help="JSONL file to write: one {id, messages, tools} per example.")],
    split_parallel: Annotated[bool, typer.Option(help="One call per assistant message, each followed by its result "
                                                      "(for templates that reject parallel calls: Llama 3.1).")]
    = False,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")] = False,
) -> None:
    """Conversations ready for chat templates and SFT: tool-call arguments as objects, not JSON text.

    The records keep OpenAI's `arguments` as JSON text, which chat templates that `tojson` them
    (Qwen2.5, Llama 3.1) would encode a second time. `datasets.load_dataset("json",
    data_files=OUT)` reads the file back with the messages as lists of dicts.
    """
    from ..synth.writers import write_chat

    source = dataset_file(dataset)
    out.parent.mkdir(parents=True, exist_ok=True)
    counts = write_chat(source, out, split_parallel=split_parallel)
    if as_json:
        print_json({"out": str(out), **counts})
        return
    console.print(f"wrote {counts['examples']} conversations ({counts['calls']} calls, arguments as objects) to {out}")
    if split_parallel:
        console.print(f"split {counts['split']} assistant messages with parallel calls into one call each")
