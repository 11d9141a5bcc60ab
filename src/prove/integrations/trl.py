"""TRL (1.16) integration: `environment_factory` classes generated from servers, rows, and the reward.

```python
from trl import GRPOConfig, GRPOTrainer
from prove.integrations.trl import dataset, environments, trl_reward
examples = read_examples("dataset.jsonl")
trainer = GRPOTrainer(model, reward_funcs=[trl_reward()], train_dataset=dataset(examples, per_turn=True),
                      environment_factory=environments(examples), args=GRPOConfig(...))
```

`environment_class(servers)` builds a class whose public methods are the servers' tools, each
with the tool's signature (types from its JSON schema, optional parameters defaulting to None)
and a Google-style docstring made of its description and its parameters' descriptions: TRL
turns them into the tool schemas the model sees. A method runs its call on the episode and
returns the result's JSON text, `{"error": {code, message, hint}}` included: it never raises,
so that TRL's tool loop records the framework's error body (what the reward reads as a failed
call) rather than a Python exception's text. `reset(**row)` closes the previous episode and
opens a session on the row's `world` (TRL calls it with every column of the row, once per
rollout, reusing instances across batches); the simulated time of the example's turns
(`turns[i].advance`) passes as in a replay: before each earlier turn's gold calls, and before the
row's own turn begins.

`trl_reward()` is the reward function. When TRL ran the rollout in one of these environments
(it passes them to reward functions as `environments`), the reward reads the episode it ran in:
its final state (the state component: the diff from the state `reset` set up, and the final
fingerprint), next to the calls and outcomes of the completion's messages; without one (a
dataset scored offline, another trainer's rows), it scores the completion alone.

`rows(examples)` writes one row per example (`prompt` up to the first user message, the
ground truth as JSON text, `world`, `environment`); with `per_turn=True`, one row per user turn
whose prompt is the reference conversation up to that turn and whose `turn` column makes both
`reset` (which replays the earlier turns' gold calls, so the state matches the prompt's
history) and the reward (which scores that turn's gold calls only) consistent. TRL's loop
cannot inject scripted follow-up turns; per-turn rows are how multi-turn examples train here.
The prompts are chat-template ready (tool-call arguments as objects); `dataset(examples)` gives
the rows as a `datasets.Dataset` that keeps them exactly (each message a `Json` value).

The episodes run in-process by default; `environments(examples, env=factory)` opens them with
any `EnvFactory` instead (`factory(servers, world) -> env` with `Session`'s interface): a
`prove.mcp.RemoteEnv` on a `prove serve`, or `RayEnvPool.open` from `prove.integrations.ray`
(environment actors across a Ray cluster).

Limits of TRL's tool loop, compared with `prove_agent` in VERL: every example of an environment
sees the same tools (per-example distractors and stripped enums are not shown; `tools=` picks
a subset), and the conversation ends at the first answer in words.
"""

from __future__ import annotations

import inspect
import json
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from prove.env import Diff, Session, Snapshot, ToolResult
from prove.records import Example, content_text, plain
from prove.reward import COMPONENTS, RewardConfig, RowScorer, Score
from prove.synth.writers import chat_messages

__all__ = ["dataset", "environment_class", "environments", "rows", "trl_reward"]

_PY = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict}


def _annotation(spec: Mapping[str, Any]) -> Any:
    """A Python type for a JSON schema (what transformers' schema builder reads back)."""
    enum = spec.get("enum")
    if isinstance(enum, list) and enum and all(isinstance(v, (str, int, float, bool)) for v in enum):
        return Literal[tuple(enum)]  # type: ignore[valid-type]
    t = spec.get("type")
    if isinstance(t, list):
        types = [_annotation({**spec, "type": x}) for x in t if x != "null"]
        return typing.Union[tuple(types)] if len(types) > 1 else (types[0] if types else Any)  # noqa: UP007
    if t == "array":
        items = spec.get("items")
        return list[_annotation(items)] if isinstance(items, Mapping) else list
    if t in _PY:
        return _PY[t]
    for key in ("anyOf", "oneOf"):
        if isinstance(spec.get(key), list):
            types = [_annotation(b) for b in spec[key] if isinstance(b, Mapping) and b.get("type") != "null"]
            if types:
                return typing.Union[tuple(types)] if len(types) > 1 else types[0]  # noqa: UP007
    return str


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _method(name: str, schema: Mapping[str, Any]) -> Callable[..., str]:
    """A method with the tool's signature and docstring that runs the call on the episode."""
    fn = schema["function"]
    params = fn.get("parameters") or {}
    props: Mapping[str, Any] = params.get("properties") or {}
    required = set(params.get("required") or [])

    def tool_method(self: Any, **kwargs: Any) -> str:
        return self._call(name, kwargs)

    sig_params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    for key in sorted(props, key=lambda k: k not in required):       # required ones first
        ann = _annotation(props[key])
        if key in required:
            sig_params.append(inspect.Parameter(key, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=ann))
        else:
            ann = ann | None if ann is not Any else Any
            sig_params.append(inspect.Parameter(key, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None,
                                                annotation=ann))
        annotations[key] = ann
    annotations["return"] = str
    args = "\n".join(f"    {k}: {_one_line(props[k].get('description') or k)}" for k in props)
    # Transformers reads the text before "Args:" as the description; keep the tool's own sections
    # ("Returns: ...", "Errors: ...") in it, worded so that no line starts a section of its own.
    description = "\n".join(line.replace("Returns:", "It returns:").replace("Raises:", "It raises:")
                            for line in str(fn.get("description") or name).splitlines())
    tool_method.__doc__ = f"{description}\n\nArgs:\n{args}\n" if props else description
    tool_method.__name__ = name
    tool_method.__qualname__ = name
    tool_method.__signature__ = inspect.Signature(sig_params, return_annotation=str)  # type: ignore[attr-defined]
    tool_method.__annotations__ = annotations
    return tool_method


class ProveEnvironment:
    """The base of generated environment classes: the episode, `reset` and the call plumbing."""

    servers: tuple[str, ...] = ()
    call_timeout: float | None = 10.0
    # `factory(servers, world) -> env` (an `EnvFactory`); None: an in-process `Session`. Private, as
    # every attribute TRL may show the model as a tool is.
    _env: Callable[[Sequence[str], int], Any] | None = None

    def __init__(self) -> None:
        self.session: Any = None
        self.world: int | None = None
        self.results: list[ToolResult] = []
        self.base: Snapshot | None = None  # the state the row's turn starts from (None: the initial world)

    def reset(self, **row: Any) -> str | None:
        """Open a fresh episode on the row's world (closing the previous one); TRL calls it per rollout.

        For a row of a later turn, the earlier turns' gold calls run first (each turn after its
        `advance`), so that the state matches the prompt's history; then the row's own turn's
        `advance` passes.
        """
        self._close()
        self.world = int(row.get("world") or 0)
        if self._env is None:
            self.session = Session(list(self.servers), world=self.world, timeout=self.call_timeout)
        else:
            self.session = self._env(list(self.servers), self.world)
        self.results = []
        self.base = None
        turn = int(row.get("turn") or 0)
        turns = _turns(row)
        for t in turns[:turn]:
            _advance(self.session, t)
            for call in t.get("calls") or []:
                self.session.call(call["name"], {k: v for k, v in (call.get("arguments") or {}).items()
                                                 if v is not None})
        if turn:
            self.base = self.session.snapshot()
        if turn < len(turns):
            _advance(self.session, turns[turn])
        return None

    def _final_state(self) -> tuple[Diff, str] | None:
        """The episode's changes since its turn began and its fingerprint (None without an open episode).

        Private, as every method TRL may show the model as a tool is.
        """
        if self.session is None or self.session.closed:
            return None
        return self.session.diff(self.base), self.session.fingerprint()

    def _call(self, name: str, arguments: Mapping[str, Any]) -> str:
        if self.session is None or self.session.closed:
            return json.dumps({"error": {"code": "no_episode", "message": "reset() was not called"}})
        args = {k: v for k, v in arguments.items() if v is not None}      # None: left out
        result = self.session.call(name, args)
        self.results.append(result)
        return result.text()

    def _close(self) -> None:
        # Private: TRL makes every public method a tool.
        if self.session is not None:
            self.session.close()
            self.session = None

    def __del__(self) -> None:
        try:
            self._close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def _turns(row: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The example's turns, from the row's ground truth (JSON text or a dict) or its own `turns` column."""
    gt = row.get("ground_truth")
    if isinstance(gt, (str, bytes)):
        gt = json.loads(gt)
    turns = plain(gt.get("turns") if isinstance(gt, Mapping) else row.get("turns"))
    return [t for t in turns or [] if isinstance(t, Mapping)]


def _advance(session: Any, turn: Mapping[str, Any]) -> None:
    seconds = turn.get("advance")
    if seconds:
        session.advance(float(seconds))


def environment_class(servers: str | Sequence[str], *, tools: Iterable[str] | None = None,
                      call_timeout: float | None = 10.0, name: str | None = None,
                      env: Callable[[Sequence[str], int], Any] | None = None) -> type[ProveEnvironment]:
    """A TRL environment class for an episode of `servers` (see the module docstring).

    Args:
        servers: the servers of the episode.
        tools: only these tools (by the name the model calls them); default: every visible tool.
        call_timeout: seconds a call's SQL may run (in-process; a factory's environment has its own).
        name: the class name (default from the servers, such as `BankingEnv`).
        env: opens the episodes (`factory(servers, world) -> env`, such as `RayEnvPool.open`);
            None: in-process sessions.
    """
    names = [servers] if isinstance(servers, str) else list(servers)
    with Session(names) as probe:
        schemas = {t["function"]["name"]: t for t in probe.tool_schemas()}
    if tools is not None:
        wanted = list(tools)
        unknown = [t for t in wanted if t not in schemas]
        if unknown:
            raise ValueError(f"no tool {unknown[0]!r} in {names}")
        schemas = {t: schemas[t] for t in wanted}
    clash = [t for t in schemas if t.startswith("_") or t in ("reset", "get_reward")]
    if clash:
        raise ValueError(f"tool {clash[0]!r} cannot be an environment method")
    body: dict[str, Any] = {t: _method(t, s) for t, s in schemas.items()}
    body.update(servers=tuple(names), call_timeout=call_timeout, _env=staticmethod(env) if env else None,
                __doc__=f"TRL environment: an episode of {', '.join(names)} (PROVE).")
    cls_name = name or "".join(p.title().replace("_", "") for p in names) + "Env"
    return type(cls_name, (ProveEnvironment,), body)


def _key(servers: Sequence[str]) -> str:
    return "+".join(servers)


def environments(examples: Iterable[Example], *, tools: Mapping[str, Iterable[str]] | None = None,
                 call_timeout: float | None = 10.0,
                 env: Callable[[Sequence[str], int], Any] | None = None) -> dict[str, type[ProveEnvironment]]:
    """One environment class per server combination of the examples, keyed as `rows` names them.

    Pass the result as `environment_factory` (TRL routes each row by its `environment` column).
    `tools` may restrict a combination's tools: {"banking": ["get_account", ...]}; `env` opens
    the episodes elsewhere (`RayEnvPool.open`, a `RemoteEnv` factory), as in `environment_class`.
    """
    out: dict[str, type[ProveEnvironment]] = {}
    for ex in examples:
        key = _key(ex.servers)
        if key not in out:
            out[key] = environment_class(ex.servers, tools=(tools or {}).get(key), call_timeout=call_timeout,
                                         env=env)
    return out


def rows(examples: Iterable[Example], *, per_turn: bool = False, split_parallel: bool = False) -> list[dict[str, Any]]:
    """Dataset rows for GRPOTrainer (see the module docstring); `dataset` builds the `datasets.Dataset`.

    The prompts are chat-template ready (`prove.synth.writers.chat_messages`): tool-call
    arguments are objects, which templates render once (as JSON text, Qwen2.5's and Llama 3.1's
    would encode them twice); `split_parallel` puts one call in each assistant message, for
    templates that reject parallel calls (Llama 3.1's).
    """
    out = []
    for ex in examples:
        messages = chat_messages([m.model_dump(mode="json", exclude_none=True) for m in ex.messages],
                                 split_parallel=split_parallel)
        users = [i for i, m in enumerate(messages) if m["role"] == "user"]
        gt = json.dumps(ex.model_dump(mode="json", exclude_none=True, exclude={"messages", "meta", "provenance"}),
                        ensure_ascii=False)
        stops = users if per_turn else users[:1]
        for turn, index in enumerate(stops):
            prompt = []
            for m in messages[:index + 1]:
                if turn == 0 and m["role"] not in ("system", "user"):
                    continue
                prompt.append({k: (content_text(v) if k == "content" else v) for k, v in m.items()})
            out.append({"prompt": prompt, "example_id": ex.id, "world": ex.world, "environment": _key(ex.servers),
                        "turn": turn, "ground_truth": gt})
    return out


def trl_reward(config: RewardConfig | None = None, *, examples: Iterable[Any] = (), execute: bool = False,
               name: str = "prove_reward") -> Callable[..., list[float]]:
    """A TRL reward function: `GRPOTrainer(reward_funcs=[trl_reward()])`.

    TRL calls it as `reward(prompts=..., completions=..., completion_ids=..., **dataset_columns)`
    (with `environments=` when it ran the rollouts in `environment_factory` instances); it
    returns one float per completion and, where TRL passes `log_metric`, logs each component's
    mean. Each row's ground truth is its `ground_truth` column, else the example named by its
    `example_id` (or `id`) column among `examples`, else the example's own columns (`turns`,
    `tools`, ...) when the dataset is made of examples. A row whose environment is one of
    `environments(...)` is scored with the final state of the episode it ran in.
    """
    scorer = RowScorer(config, execute, examples)

    def reward(prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
               completion_ids: Sequence[Any] | None = None, **kwargs: Any) -> list[float]:
        completions = list(completions or [])
        envs = kwargs.get("environments")
        envs = list(envs) if isinstance(envs, (list, tuple)) and len(envs) == len(completions) else []
        scores: list[Score] = []
        for i, completion in enumerate(completions):
            row = {k: v[i] for k, v in kwargs.items() if k != "environments" and isinstance(v, (list, tuple))
                   and len(v) == len(completions)}
            if "example_id" not in row and "id" in row and "turns" not in row:
                row["example_id"] = row["id"]
            if "ground_truth" in row:
                gt = row["ground_truth"]
            elif row.get("example_id") in scorer.scorer:
                gt = None
            elif "turns" in row:
                gt = {k: row[k] for k in ("turns", "tools", "servers", "world", "kind", "id", "fingerprint")
                      if k in row}
            else:
                raise ValueError("a row needs a `ground_truth` column, an `example_id` of a known example, "
                                 "or the example's own `turns`")
            live = envs[i]._final_state() if i < len(envs) and isinstance(envs[i], ProveEnvironment) else None
            diff, fingerprint = live if live is not None else (None, None)
            scores.append(scorer.score(completion, gt, row, diff=diff, fingerprint=fingerprint))
        log_metric = kwargs.get("log_metric")
        if callable(log_metric) and scores:
            for c in COMPONENTS:
                values = [s.components[c] for s in scores if s.components.get(c) is not None]
                if values:
                    log_metric(f"prove/{c}", sum(values) / len(values))  # type: ignore[arg-type]
        return [s.total for s in scores]

    reward.__name__ = name
    reward.__qualname__ = name
    return reward


def dataset(examples: Iterable[Example], *, per_turn: bool = False, split_parallel: bool = False) -> Any:
    """`rows` as a `datasets.Dataset` whose prompts are lists of `Json` messages.

    `Dataset.from_list` alone would infer one struct for every message and every call's
    arguments, padding each with the keys of all the others as nulls (which templates then
    render, and which makes Llama 3.1's see a `tool_calls` key in every message).
    """
    import datasets

    data = rows(examples, per_turn=per_turn, split_parallel=split_parallel)
    text = datasets.Value("string")
    features = datasets.Features({"prompt": datasets.List(datasets.Json()), "example_id": text,
                                  "world": datasets.Value("int64"), "environment": text,
                                  "turn": datasets.Value("int64"), "ground_truth": text})
    return datasets.Dataset.from_list(data, features=features)

