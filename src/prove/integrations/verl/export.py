"""`prove export verl`: a dataset as VERL training input, with its configs and a GRPO launch script.

Writes into one directory:

- `train.parquet`, `val.parquet`: one row per example in VERL's columns. `prompt` is the
  conversation up to the first user message; `reward_model.ground_truth` is the example
  without its messages, as JSON text (Arrow would pad heterogeneous argument objects into
  structs); `agent_name` is `prove_agent`; `extra_info` carries what the agent loop needs to
  play the episode (`example_id`, `servers`, `world`, `kind`, the offered `tools` as JSON text,
  the scripted `followups`) and what VERL's stock `tool_agent` loop needs (`tool_selection`,
  `tools_kwargs.prove`). `data_source` is `prove/<servers>`, so validation metrics come per
  server.
- `tool_config.yaml`: every offered tool as a `ProveTool`, its schema flattened to what VERL's
  `OpenAIFunctionToolSchema` keeps (for the stock `tool_agent` loop; `prove_agent` shows each
  example its own tools and does not need it).
- `agent_loop.yaml`: registers `prove_agent` in VERL's workers, with where its episodes run
  (`env_url`: a `prove serve`; `env_ray`: a pool of Ray environment actors; neither: in-process).
- `train_grpo.sh`: the paper's GRPO settings (batch 16, 16 rollouts per prompt, KL 0.01, 350
  steps; the learning rate chosen per model family), with VERL's `multi_turn` caps and the token
  budgets derived from the data (`budget`), counted as VERL counts them, so that every
  reference conversation fits: VERL counts each round of tool results as a user turn, so the
  paper's 5 user turns would cut off the longer conversations.

Needs `pyarrow` (the `data` extra, or `verl`) and `pyyaml`; VERL itself is not imported.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prove.integrations import require
from prove.records import Example, content_text

from .schema import flatten_tool

__all__ = ["FLOORS", "LEARNING_RATES", "Budget", "ExportResult", "Needs", "budget", "export", "learning_rate", "needs",
           "row"]

AGENT_NAME = "prove_agent"
AGENT_TARGET = "prove.integrations.verl.agent_loop.ProveAgentLoop"
TOOL_CLASS = "prove.integrations.verl.tool.ProveTool"

# The paper tunes only the learning rate per model family and does not publish the values:
# these are PROVE's starting points (the usual range for GRPO on 4-8B models), to be tuned.
LEARNING_RATES: dict[str, float] = {"qwen3": 1e-6, "qwen2.5": 1e-6, "granite": 5e-7}
DEFAULT_LR = 1e-6


def learning_rate(model: str) -> float:
    """The starting learning rate for a model (by family: qwen3, qwen2.5, granite; else 1e-6)."""
    name = model.lower().replace("qwen2_5", "qwen2.5")
    for family, lr in LEARNING_RATES.items():
        if family in name:
            return lr
    return DEFAULT_LR


def row(example: Example, index: int, split: str, agent: str = AGENT_NAME) -> dict[str, Any]:
    """One example as a row in VERL's columns (see the module docstring)."""
    from prove.rollout import script

    sc = script(example)
    gt = example.model_dump(mode="json", exclude_none=True, exclude={"messages", "meta", "provenance"})
    servers = list(example.servers)
    return {
        "data_source": "prove/" + "+".join(servers),
        "agent_name": agent,
        "prompt": [{"role": m["role"], "content": content_text(m.get("content"))} for m in sc.prompt],
        "ability": "tool_use",
        "reward_model": {"style": "rule", "ground_truth": json.dumps(gt, ensure_ascii=False)},
        "extra_info": {
            "index": index, "split": split, "example_id": example.id, "kind": example.kind,
            "servers": servers, "world": example.world,
            "tools": json.dumps(sc.tools, ensure_ascii=False),
            "followups": [content_text(m["content"]) for m in sc.followups],
            "tool_selection": example.tool_names(),
            "tools_kwargs": {"prove": {"servers": servers, "world": example.world}},
        },
    }


def _schema() -> Any:
    pa = require("pyarrow", "data", "prove export verl")
    strings = pa.list_(pa.string())
    return pa.schema([
        ("data_source", pa.string()),
        ("agent_name", pa.string()),
        ("prompt", pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))),
        ("ability", pa.string()),
        ("reward_model", pa.struct([("style", pa.string()), ("ground_truth", pa.string())])),
        ("extra_info", pa.struct([
            ("index", pa.int64()), ("split", pa.string()), ("example_id", pa.string()), ("kind", pa.string()),
            ("servers", strings), ("world", pa.int64()), ("tools", pa.string()), ("followups", strings),
            ("tool_selection", strings),
            ("tools_kwargs", pa.struct([("prove", pa.struct([("servers", strings), ("world", pa.int64())]))])),
        ])),
    ])


def _write_parquet(rows: list[dict[str, Any]], path: Path) -> None:
    pa = require("pyarrow", "data", "prove export verl")
    pq = require("pyarrow.parquet", "data", "prove export verl")
    pq.write_table(pa.Table.from_pylist(rows, schema=_schema()), path)


def _omegaconf_safe(value: Any) -> Any:
    """Text that OmegaConf would read as an interpolation (`${...}`) escaped."""
    if isinstance(value, str):
        return value.replace("${", "\\${")
    if isinstance(value, dict):
        return {k: _omegaconf_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_omegaconf_safe(v) for v in value]
    return value


def tool_config(examples: Sequence[Example], *, env_url: str | None = None, env_ray: dict[str, Any] | None = None,
                call_timeout: float = 10.0, idle_ttl: float = 600.0, max_sessions: int = 4096) -> dict[str, Any]:
    """VERL's tool config: one `ProveTool` per offered tool name, in the schema most examples show."""
    shown: dict[str, Counter[str]] = {}
    servers: dict[str, list[str]] = {}
    for ex in examples:
        for tool in ex.tools:
            name = tool.function.name
            shown.setdefault(name, Counter())[json.dumps(tool.model_dump(mode="json", exclude_none=True),
                                                         sort_keys=True)] += 1
            servers.setdefault(name, list(ex.servers))
    tools = []
    for name in sorted(shown):
        schema = json.loads(shown[name].most_common(1)[0][0])
        tools.append({
            "class_name": TOOL_CLASS,
            "config": {"type": "native", "servers": servers[name], "env_url": env_url, "env_ray": env_ray,
                       "call_timeout": call_timeout, "idle_ttl": idle_ttl, "max_sessions": max_sessions},
            "tool_schema": flatten_tool(schema),
        })
    return {"tools": tools}


def agent_loop_config(*, env_url: str | None = None, env_ray: dict[str, Any] | None = None,
                      call_timeout: float = 10.0, max_calls: int = 50, record_diff: bool = False) -> list[dict[str, Any]]:
    """VERL's agent loop config registering `prove_agent` (the constructor's options with it)."""
    return [{"name": AGENT_NAME, "_target_": AGENT_TARGET, "env_url": env_url, "env_ray": env_ray,
             "call_timeout": call_timeout, "max_calls": max_calls, "record_diff": record_diff}]


def ray_pool_config(actors: int, *, name: str = "prove-env", num_cpus: float = 1.0) -> dict[str, Any]:
    """The `env_ray` settings of a pool of `actors` Ray environment actors shared by VERL's workers."""
    if actors < 1:
        raise ValueError("a Ray environment pool needs at least one actor")
    return {"actors": actors, "name": name, "num_cpus": num_cpus}


def _round_up(n: float, low: int, high: int, step: int = 1024) -> int:
    return int(min(high, max(low, step * math.ceil(n / step))))


# The paper's caps (at most 5 user turns and 10 assistant turns) and VERL's defaults (8 parallel
# calls, 4096 characters of a tool response) are the floors; the data raises them where a reference
# conversation needs more, so that no reference is cut off.
FLOORS = {"user_turns": 5, "assistant_turns": 10, "parallel_calls": 8, "calls": 50, "tool_response_chars": 4096,
          "response": 8192}
CHARS_PER_TOKEN = 3.2        # a conservative mean for BPE vocabularies on this JSON-heavy text
MARKUP_CHARS = 32            # a message's role markers and a call's <tool_call> wrapper, in characters
MAX_TOKENS = 32768


@dataclass(frozen=True)
class Needs:
    """What one reference conversation takes of VERL's caps, counted as VERL counts them.

    `env_turns` is what `multi_turn.max_user_turns` counts: every turn the environment takes
    after a reply (a round of tool results, a scripted follow-up), the first user message not
    included; `replies` is what `max_assistant_turns` counts. `response_chars` is the text after
    the prompt (replies, tool results, follow-ups) with its markup, which `max_response_length`
    bounds in tokens.
    """

    env_turns: int
    replies: int
    parallel_calls: int
    calls: int
    tool_chars: int
    response_chars: int


def needs(example: Example) -> Needs:
    """What `example`'s reference conversation takes of the caps (see `Needs`)."""
    messages = [m.model_dump(mode="json", exclude_none=True) for m in example.messages]
    first = next((i for i, m in enumerate(messages) if m["role"] == "user"), len(messages))
    after = messages[first + 1:]
    replies = env_turns = parallel = calls = tool_chars = chars = 0
    for i, m in enumerate(after):
        text = content_text(m.get("content"))
        chars += len(text) + MARKUP_CHARS
        if m["role"] == "assistant":
            replies += 1
            made = m.get("tool_calls") or []
            parallel, calls = max(parallel, len(made)), calls + len(made)
            chars += sum(len(c["function"]["name"]) + len(str(c["function"].get("arguments", ""))) + MARKUP_CHARS
                         for c in made)
            env_turns += i + 1 < len(after)          # whatever follows a reply is one turn of the environment
        elif m["role"] == "tool":
            tool_chars = max(tool_chars, len(text))
    return Needs(env_turns, replies, parallel, calls, tool_chars, chars)


@dataclass
class Budget:
    """The launch script's caps and token budgets, from the data; `fit` of `examples` fit them all."""

    prompt: int
    response: int
    tool_response_chars: int
    user_turns: int
    assistant_turns: int
    parallel_calls: int
    calls: int
    examples: int = 0
    fit: int = 0
    cut: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"max_prompt_length": self.prompt, "max_response_length": self.response,
                "max_tool_response_length": self.tool_response_chars, "max_user_turns": self.user_turns,
                "max_assistant_turns": self.assistant_turns, "max_parallel_calls": self.parallel_calls,
                "max_calls": self.calls, "examples": self.examples, "fit": self.fit, "cut": dict(self.cut)}


def _tokens(chars: float) -> float:
    return chars / CHARS_PER_TOKEN * 1.15 + 64


def budget(examples: Sequence[Example], *, user_turns: int | None = None, assistant_turns: int | None = None,
           parallel_calls: int | None = None, calls: int | None = None, tool_response_chars: int | None = None,
           response: int | None = None) -> Budget:
    """Caps that every reference conversation of `examples` fits, counted VERL's way (see `Needs`).

    Each cap is the largest the data needs, at least its floor (`FLOORS`: the paper's 5 user and
    10 assistant turns, VERL's defaults); a value given here is kept as given, and `fit` and
    `cut` (references cut off, by cap) then say what it costs. The prompt budget is the longest
    prompt with its tools, the response budget the longest reference after its prompt (tool
    results cut at `tool_response_chars`), both in tokens (about 3.2 characters each, with a
    margin) rounded up to a multiple of 1024.
    """
    from prove.rollout import script

    longest_prompt = 0
    each = [needs(ex) for ex in examples]
    for ex in examples:
        sc = script(ex)
        chars = (len(json.dumps(sc.tools, ensure_ascii=False))
                 + sum(len(content_text(m.get("content"))) for m in sc.prompt))
        longest_prompt = max(longest_prompt, chars)

    def pick(given: int | None, key: str, needed: int) -> int:
        return given if given is not None else max(FLOORS[key], needed)

    b = Budget(
        prompt=_round_up(_tokens(longest_prompt), 2048, MAX_TOKENS), response=0,
        tool_response_chars=pick(tool_response_chars, "tool_response_chars", max((n.tool_chars for n in each),
                                                                                 default=0)),
        user_turns=pick(user_turns, "user_turns", max((n.env_turns for n in each), default=0)),
        assistant_turns=pick(assistant_turns, "assistant_turns", max((n.replies for n in each), default=0)),
        parallel_calls=pick(parallel_calls, "parallel_calls", max((n.parallel_calls for n in each), default=0)),
        calls=pick(calls, "calls", max((n.calls for n in each), default=0)),
        examples=len(examples))

    def response_chars(ex: Example, n: Needs) -> int:
        over = sum(max(0, len(content_text(m.content)) - b.tool_response_chars)
                   for m in ex.messages if m.role == "tool")
        return n.response_chars - over

    longest = max((response_chars(ex, n) for ex, n in zip(examples, each)), default=0)
    b.response = response if response is not None else _round_up(_tokens(longest), FLOORS["response"], MAX_TOKENS)
    cut: Counter[str] = Counter()
    for ex, n in zip(examples, each):
        reasons = [name for name, over in (
            ("max_user_turns", n.env_turns > b.user_turns), ("max_assistant_turns", n.replies > b.assistant_turns),
            ("max_parallel_calls", n.parallel_calls > b.parallel_calls), ("max_calls", n.calls > b.calls),
            ("max_tool_response_length", n.tool_chars > b.tool_response_chars),
            ("max_response_length", _tokens(response_chars(ex, n)) > b.response)) if over]
        cut.update(reasons)
        b.fit += not reasons
    b.cut = dict(sorted(cut.items()))
    return b


SCRIPT = r'''#!/usr/bin/env bash
# GRPO on live PROVE episodes with VERL {verl_version}, written by `prove export verl`.
#
# The paper's settings: a batch of 16 prompts, 16 rollouts per prompt, KL 0.01 (as a loss,
# low_var_kl), 350 steps, no SFT warm-up; only the learning rate changes per model family (the
# paper does not publish its values: the ones below are starting points to tune). Runs on one
# node of 8 GPUs by default.
#
# Caps ({fit} of {examples} reference conversations fit them): max_user_turns={user_turns} (VERL
# counts every turn the environment takes, a round of tool results or a follow-up, as a user
# turn), max_assistant_turns={assistant_turns}, max_parallel_calls={parallel_calls}, tool responses up to {tool_chars}
# characters, responses up to {response} tokens.
#
#   MODEL=Qwen/Qwen3-4B bash {script_name}          # any extra argument is passed on to VERL
#   MODEL=/models/granite-4.1-8b TP=2 bash {script_name} trainer.logger='["console","wandb"]'
set -euo pipefail
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
PYTHON="${{PYTHON:-python3}}"
MODEL="${{MODEL:-{model}}}"
NGPUS="${{NGPUS:-8}}"
NNODES="${{NNODES:-1}}"
TP="${{TP:-1}}"                      # vLLM tensor parallel size (2 for 8B models on 40 GB cards)
STEPS="${{STEPS:-350}}"
EXPERIMENT="${{EXPERIMENT:-grpo-$(basename "$MODEL")}}"
if [ -z "${{LR:-}}" ]; then
  case "$(echo "$MODEL" | tr '[:upper:]' '[:lower:]')" in
    *qwen3*) LR={lr_qwen3} ;;
    *qwen2.5*|*qwen2_5*) LR={lr_qwen25} ;;
    *granite*) LR={lr_granite} ;;
    *) LR={lr_default} ;;
  esac
fi
REWARD="$("$PYTHON" -c 'import prove.integrations.verl.reward as r; print(r.__file__)')"

"$PYTHON" -m verl.trainer.main_ppo \
{overrides}
  "$@"
'''


def overrides(out: str = "$HERE", *, budget: Budget, agent: str = AGENT_NAME) -> list[str]:
    """The launch script's Hydra overrides (shell text: `$HERE`, `$MODEL`, ... are the script's variables)."""
    o = [
        "algorithm.adv_estimator=grpo",
        "algorithm.use_kl_in_reward=False",
        f"data.train_files={out}/train.parquet",
        f"data.val_files={out}/val.parquet",
        "data.train_batch_size=16",
        "data.val_batch_size=64",
        f"data.max_prompt_length={budget.prompt}",
        f"data.max_response_length={budget.response}",
        "data.return_raw_chat=True",
        "data.filter_overlong_prompts=True",
        "data.truncation=error",
        "actor_rollout_ref.model.path=$MODEL",
        "actor_rollout_ref.model.use_remove_padding=True",
        "actor_rollout_ref.model.enable_gradient_checkpointing=True",
        "actor_rollout_ref.actor.optim.lr=$LR",
        "actor_rollout_ref.actor.ppo_mini_batch_size=16",
        "actor_rollout_ref.actor.use_dynamic_bsz=True",
        f"actor_rollout_ref.actor.ppo_max_token_len_per_gpu={2 * (budget.prompt + budget.response)}",
        "actor_rollout_ref.actor.use_kl_loss=True",
        "actor_rollout_ref.actor.kl_loss_coef=0.01",
        "actor_rollout_ref.actor.kl_loss_type=low_var_kl",
        "actor_rollout_ref.actor.entropy_coeff=0",
        "actor_rollout_ref.ref.log_prob_use_dynamic_bsz=True",
        "actor_rollout_ref.rollout.name=vllm",
        "actor_rollout_ref.rollout.tensor_model_parallel_size=$TP",
        "actor_rollout_ref.rollout.gpu_memory_utilization=0.6",
        "actor_rollout_ref.rollout.n=16",
        "actor_rollout_ref.rollout.temperature=1.0",
        "actor_rollout_ref.rollout.log_prob_use_dynamic_bsz=True",
        "actor_rollout_ref.rollout.multi_turn.enable=True",
        "actor_rollout_ref.rollout.multi_turn.format=hermes",
        f"actor_rollout_ref.rollout.multi_turn.max_user_turns={budget.user_turns}",
        f"actor_rollout_ref.rollout.multi_turn.max_assistant_turns={budget.assistant_turns}",
        f"actor_rollout_ref.rollout.multi_turn.max_parallel_calls={budget.parallel_calls}",
        f"actor_rollout_ref.rollout.multi_turn.max_tool_response_length={budget.tool_response_chars}",
        f"actor_rollout_ref.rollout.agent.default_agent_loop={agent}",
        f"actor_rollout_ref.rollout.agent.agent_loop_config_path={out}/agent_loop.yaml",
        "reward.custom_reward_function.path=$REWARD",
        "reward.custom_reward_function.name=compute_score",
        "trainer.n_gpus_per_node=$NGPUS",
        "trainer.nnodes=$NNODES",
        "trainer.total_training_steps=$STEPS",
        "trainer.save_freq=50",
        "trainer.test_freq=25",
        "trainer.val_before_train=True",
        "trainer.project_name=prove",
        "trainer.experiment_name=$EXPERIMENT",
        "trainer.logger=[console]",
    ]
    if agent != AGENT_NAME:    # VERL's stock loop takes its tools from the tool config
        o.append(f"actor_rollout_ref.rollout.multi_turn.tool_config_path={out}/tool_config.yaml")
    return o


@dataclass
class ExportResult:
    """What `export` wrote."""

    out: Path
    files: dict[str, Path] = field(default_factory=dict)
    train: int = 0
    val: int = 0
    tools: int = 0
    budget: Budget | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"out": str(self.out), "files": {k: str(v) for k, v in self.files.items()}, "train": self.train,
                "val": self.val, "tools": self.tools, **(self.budget.to_dict() if self.budget else {})}


def _val_ids(examples: Sequence[Example], val: float) -> set[str]:
    n = len(examples)
    if n < 2 or val <= 0:
        return set()
    count = int(val) if val >= 1 else max(1, round(n * val))
    count = min(count, n - 1)
    ranked = sorted(examples, key=lambda ex: hashlib.blake2b(ex.id.encode(), digest_size=8).digest())
    return {ex.id for ex in ranked[:count]}


def export(examples: Sequence[Example], out: str | Path, *, val: float = 0.05, model: str = "Qwen/Qwen3-4B",
           env_url: str | None = None, env_ray: dict[str, Any] | None = None, call_timeout: float = 10.0,
           max_calls: int | None = None, max_user_turns: int | None = None, max_assistant_turns: int | None = None,
           record_diff: bool = False, agent: str = AGENT_NAME) -> ExportResult:
    """Write the VERL inputs for `examples` into `out` (see the module docstring).

    `val` is the validation share (below 1) or count (from 1); a stable hash of the example ids
    picks it. With fewer than two examples the validation file repeats the training one.
    `env_url` puts the episodes on a `prove serve`, `env_ray` (`ray_pool_config(actors)`) on a pool
    of Ray environment actors in VERL's own cluster; neither: in-process in each worker.
    `agent` is the rows' agent loop: `prove_agent`, or VERL's stock `tool_agent` (the script
    then points VERL at the tool config). The caps and token budgets come from the data
    (`budget`): None keeps every reference conversation whole; a value given is used as given,
    and `result.budget.fit` says how many references still fit.
    """
    if agent not in (AGENT_NAME, "tool_agent"):
        raise ValueError("agent is 'prove_agent' or 'tool_agent'")
    if env_url and env_ray:
        raise ValueError("episodes run on a `prove serve` (env_url) or on Ray (env_ray), not both")
    import yaml
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    held = _val_ids(examples, val)
    train = [ex for ex in examples if ex.id not in held]
    valid = [ex for ex in examples if ex.id in held] or train
    result = ExportResult(out)
    result.budget = budget(examples, user_turns=max_user_turns, assistant_turns=max_assistant_turns, calls=max_calls)
    result.files["train"] = out / "train.parquet"
    result.files["val"] = out / "val.parquet"
    _write_parquet([row(ex, i, "train", agent) for i, ex in enumerate(train)], result.files["train"])
    _write_parquet([row(ex, i, "val", agent) for i, ex in enumerate(valid)], result.files["val"])
    result.train, result.val = len(train), len(valid)

    tools = tool_config(examples, env_url=env_url, env_ray=env_ray, call_timeout=call_timeout)
    result.tools = len(tools["tools"])
    result.files["tool_config"] = out / "tool_config.yaml"
    result.files["tool_config"].write_text(yaml.safe_dump(_omegaconf_safe(tools), sort_keys=False, allow_unicode=True))
    result.files["agent_loop"] = out / "agent_loop.yaml"
    result.files["agent_loop"].write_text(yaml.safe_dump(
        agent_loop_config(env_url=env_url, env_ray=env_ray, call_timeout=call_timeout, max_calls=result.budget.calls,
                          record_diff=record_diff),
        sort_keys=False))

    try:
        from importlib.metadata import version

        verl_version = version("verl")
    except Exception:  # noqa: BLE001 - not installed here: the script says which it was written for
        verl_version = "0.9"
    # Double quotes: the script's variables expand, brackets are not globs.
    lines = "".join(f'  "{o}" \\\n' for o in overrides(budget=result.budget, agent=agent))
    b = result.budget
    script = SCRIPT.format(verl_version=verl_version, script_name="train_grpo.sh", model=model,
                           lr_qwen3=LEARNING_RATES["qwen3"], lr_qwen25=LEARNING_RATES["qwen2.5"],
                           lr_granite=LEARNING_RATES["granite"], lr_default=DEFAULT_LR,
                           overrides=lines.rstrip("\n"), fit=b.fit, examples=b.examples,
                           user_turns=b.user_turns, assistant_turns=b.assistant_turns,
                           parallel_calls=b.parallel_calls, tool_chars=b.tool_response_chars, response=b.response)
    result.files["script"] = out / "train_grpo.sh"
    result.files["script"].write_text(script)
    result.files["script"].chmod(0o755)
    return result
