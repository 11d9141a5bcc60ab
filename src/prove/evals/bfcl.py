"""BFCL v4 multi-turn, run on BFCL's own backends and judged by BFCL's own checker.

    from prove.evals import bfcl
    entries = bfcl.load(["base", "miss_func"])
    records = bfcl.run(entries, OpenAIPolicy(url, model), concurrency=8)

An entry is played as BFCL's function-calling inference loop plays it
(`BaseHandler.inference_multi_turn_FC`): the tools are the entry's function docs in OpenAI form;
each turn's user messages are sent, then the model is asked again and again, each reply's calls
are run on the entry's BFCL backends (`execute_multi_turn_func_call`) and their results sent
back, until a reply holds no call (or its calls cannot be decoded: the turn ends there, as in
BFCL); a turn of more than 20 steps ends the entry (BFCL's `force_terminated`). In `miss_func` the
held-out functions are added at their turn, with BFCL's own user message. The entry is then
judged by `multi_turn_checker`, which replays the model's calls and the ground truth turn by turn
on fresh backends and compares their states and results: the score is 1 when it passes, else 0,
with BFCL's error type.

No model output is ever evaluated as code (BFCL `eval`s call strings). A call is parsed into a name
and a JSON object (`prove.rollout.normalize`: native `tool_calls` or Hermes text), and handed to
BFCL only as a string PROVE writes from that structure: the name must be a public method of the
entry's backends (what BFCL's executor resolves), the argument names identifiers and the values
JSON literals (strings, finite numbers, booleans, null, lists, objects), written with `repr`. A
call that fails this is not run; the model is told so in BFCL's words for an undefined name, and
the checker gets a call of a name no backend defines in its place, so that the step still counts
as one with calls, as BFCL counts it.

BFCL's instances live in its executor module's globals under names made of a model name and the
entry id; each episode and each judgement uses a name of its own and removes its instances when
it ends, so runs never share state and nothing is left behind.
"""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
import keyword
import math
import os
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ..rollout import Policy, PolicyError, normalize
from ..rollout.runner import run_all
from .errors import EvalError, MissingExtra  # noqa: F401 - re-exported for callers of this module
from .runs import pick

__all__ = ["BENCHMARK", "CATEGORIES", "INSTALL", "Backend", "Entry", "gold_calls", "judge", "load", "render",
           "run", "run_entry", "tools"]

BENCHMARK = "bfcl-multi-turn"
CATEGORIES = ("base", "miss_func", "miss_param", "long_context")
INSTALL = "pip install 'prove-rl[bfcl]' && pip install --no-deps bfcl-eval==2026.3.23"
# What the checker gets for a call PROVE did not hand to BFCL: a name no backend defines, so that
# BFCL answers it as an undefined name, as it answers a model's call of an unknown function.
NOT_RUN = "prove_call_not_run()"

_bfcl: SimpleNamespace | None = None


def _cache_dir() -> Path:
    base = os.environ.get("PROVE_CACHE") or os.path.join(os.environ.get("XDG_CACHE_HOME", "~/.cache"), "prove")
    return Path(base).expanduser() / "bfcl"


def modules() -> SimpleNamespace:
    """BFCL's loader, executor, checker and constants (`MissingExtra` when bfcl-eval is not installed)."""
    global _bfcl
    if _bfcl is not None:
        return _bfcl
    # BFCL creates result, score and lock folders under its project root when imported (by default
    # beside site-packages): a cache folder of PROVE's instead, unless the user chose one.
    if "BFCL_PROJECT_ROOT" not in os.environ:
        root = _cache_dir()
        root.mkdir(parents=True, exist_ok=True)
        os.environ["BFCL_PROJECT_ROOT"] = str(root)
    try:
        from bfcl_eval import utils
        from bfcl_eval.constants import default_prompts, executable_backend_config, type_mappings
        from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_checker, multi_turn_utils
    except ImportError as exc:
        raise MissingExtra(f"BFCL multi-turn needs the `{exc.name}` package: {INSTALL}") from exc
    _bfcl = SimpleNamespace(
        utils=utils, checker=multi_turn_checker, executor=multi_turn_utils,
        classes=executable_backend_config.CLASS_FILE_PATH_MAPPING,
        types=type_mappings.GORILLA_TO_OPENAPI,
        max_steps=default_prompts.MAXIMUM_STEP_LIMIT,
        more_functions=default_prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC,
    )
    return _bfcl


# ----- entries ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One BFCL multi-turn entry: BFCL's test entry (function docs filled in by its loader) and its ground truth."""

    id: str
    category: str
    data: dict[str, Any]
    ground_truth: list[list[str]]

    @property
    def long_context(self) -> bool:
        # BFCL's executor loads the long-context scenario for these categories.
        return "long_context" in self.id or "composite" in self.id


def load(categories: Iterable[str] = CATEGORIES, ids: Sequence[str] | None = None) -> list[Entry]:
    """The entries of the categories (BFCL's `load_dataset_entry`), in BFCL's order; `ids` picks some."""
    bfcl = modules()
    out: list[Entry] = []
    for cat in categories:
        if cat not in CATEGORIES:
            raise EvalError(f"no BFCL multi-turn category {cat!r}; use {', '.join(CATEGORIES)}")
        name = f"multi_turn_{cat}"
        truth = {g["id"]: g["ground_truth"] for g in bfcl.utils.load_ground_truth_entry(name)}
        out.extend(Entry(e["id"], cat, e, truth[e["id"]]) for e in bfcl.utils.load_dataset_entry(name))
    return pick(out, ids, "BFCL multi-turn entry", ", ".join(categories))


# ----- tools -----------------------------------------------------------------------------------------

def _properties(props: dict[str, Any], types: dict[str, str]) -> dict[str, Any]:
    for value in props.values():
        kind = value.get("type")
        if kind == "float":
            value["format"] = "float"
            value["description"] = value.get("description", "") + " This is a float type value."
        value["type"] = types.get(kind, "string") if kind else "string"
        if value["type"] in ("array", "object"):
            if isinstance(value.get("properties"), dict):
                value["properties"] = _properties(value["properties"], types)
            elif isinstance(value.get("items"), dict):
                _items(value["items"], types)
    return props


def _items(items: dict[str, Any], types: dict[str, str]) -> None:
    items["type"] = types.get(items.get("type", ""), "string")
    if items["type"] == "array" and isinstance(items.get("items"), dict):
        items["items"]["type"] = types.get(items["items"].get("type", ""), "string")
    elif items["type"] == "object" and isinstance(items.get("properties"), dict):
        items["properties"] = _properties(items["properties"], types)


def tools(functions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """BFCL function docs as OpenAI function tools, typed as BFCL types them for OpenAI-style endpoints."""
    types = modules().types
    out = []
    for fn in copy.deepcopy(list(functions)):
        fn["name"] = fn["name"].replace(".", "_")
        params = fn.setdefault("parameters", {})
        params["type"] = "object"
        params["properties"] = _properties(params.get("properties") or {}, types)
        out.append({"type": "function", "function": fn})
    return out


# ----- calls -----------------------------------------------------------------------------------------

def _literal(value: Any) -> bool:
    """Whether a decoded JSON value is made of literals only (what `repr` writes as Python literals)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if v is None or isinstance(v, (bool, int, str)):
            continue
        if isinstance(v, float):
            if not math.isfinite(v):
                return False
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            if not all(isinstance(k, str) for k in v):
                return False
            stack.extend(v.values())
        else:
            return False
    return True


def render(name: str, arguments: Any, methods: Iterable[str]) -> str | None:
    """BFCL's call string for a structured call, or None when BFCL should not run it (see the module docstring)."""
    if name not in set(methods) or not isinstance(arguments, dict):
        return None
    if not all(k.isidentifier() and not keyword.iskeyword(k) for k in arguments):
        return None
    if not _literal(arguments):
        return None
    return f"{name}({','.join(f'{k}={v!r}' for k, v in arguments.items())})"


def _not_run_text(name: str, arguments: Any, methods: Iterable[str]) -> str:
    if name not in set(methods):
        return f"Error during execution: name {name[:80]!r} is not defined"
    if isinstance(arguments, dict) and not all(k.isidentifier() and not keyword.iskeyword(k) for k in arguments):
        return "Error during execution: an argument name is not an identifier"
    return "Error during execution: the arguments are not JSON values"


def _classes(entry: Entry) -> dict[str, type]:
    found = {}
    for name in entry.data["involved_classes"]:
        module = importlib.import_module(modules().classes[name])
        found[name] = getattr(module, name)
    return found


def gold_calls(entry: Entry) -> list[list[tuple[str, dict[str, Any]]]]:
    """The ground truth as structured calls, per turn: BFCL's call strings parsed (`ast`, never run),
    positional arguments named after the backend method's parameters."""
    methods: dict[str, inspect.Signature] = {}
    for cls in _classes(entry).values():
        for name, fn in inspect.getmembers(cls, predicate=inspect.isfunction):
            if not name.startswith("_"):
                methods.setdefault(name, inspect.signature(fn))
    out = []
    for turn in entry.ground_truth:
        calls = []
        for text in turn:
            node = ast.parse(text, mode="eval").body
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                raise EvalError(f"{entry.id}: cannot read the ground-truth call {text!r}")
            name = node.func.id
            params = [p for p in methods[name].parameters if p != "self"]
            args = {params[i]: ast.literal_eval(a) for i, a in enumerate(node.args)}
            args.update({kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg})
            calls.append((name, _jsonable(args)))
        out.append(calls)
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


# ----- backends --------------------------------------------------------------------------------------

def _forget(tag: str) -> None:
    """Remove the instances BFCL's executor keeps in its globals under names starting with `tag`."""
    space = vars(modules().executor)
    for key in [k for k in list(space.keys()) if k.startswith(tag + "_")]:
        space.pop(key, None)


class Backend:
    """An entry's BFCL backends for one episode, driven through BFCL's own executor."""

    def __init__(self, entry: Entry) -> None:
        self.entry = entry
        self.tag = f"prove_{uuid.uuid4().hex}"
        _, instances = self._execute([])
        self.methods = frozenset(name for inst in instances.values()
                                 for name, _ in inspect.getmembers(inst, predicate=inspect.ismethod)
                                 if not name.startswith("_"))

    def _execute(self, calls: list[str]) -> tuple[list[str], dict[str, Any]]:
        data = self.entry.data
        return modules().executor.execute_multi_turn_func_call(
            calls, data.get("initial_config", {}), data["involved_classes"], self.tag, self.entry.id,
            long_context=self.entry.long_context, is_evaL_run=False)

    def run(self, calls: Sequence[str]) -> list[str]:
        """BFCL's results of call strings `render` wrote, in order."""
        return self._execute(list(calls))[0] if calls else []

    def close(self) -> None:
        _forget(self.tag)

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ----- one entry -------------------------------------------------------------------------------------

def judge(entry: Entry, turns: Sequence[Sequence[Sequence[str]]], status: str = "done") -> dict[str, Any]:
    """BFCL's verdict on an episode: `turns[t]` holds the call strings of each step of turn t.

    As BFCL's evaluation runner: an episode that ended on an inference error or before its last turn
    fails (`inference_error`, `force_terminated`); steps without calls are left out; the rest is
    `multi_turn_checker`'s.
    """
    if status == "policy_error":
        return {"valid": False, "error_type": "multi_turn:inference_error",
                "error_message": "the endpoint failed during inference"}
    if len(turns) != len(entry.ground_truth):
        return {"valid": False, "error_type": "multi_turn:force_terminated",
                "error_message": f"the episode ended after {len(turns)} of {len(entry.ground_truth)} turns"}
    decoded = [[list(step) for step in turn if step] for turn in turns]
    tag = f"prove_{uuid.uuid4().hex}"
    try:
        found = modules().checker.multi_turn_checker(decoded, entry.ground_truth, copy.deepcopy(entry.data),
                                                     f"multi_turn_{entry.category}", tag)
    except Exception as exc:  # BFCL's checker asserts on what it cannot compare: the entry fails
        found = {"valid": False, "error_type": "multi_turn:checker_error", "error_message": f"{type(exc).__name__}: {exc}"}
    finally:
        _forget(tag)
    return {"valid": bool(found.get("valid")), "error_type": found.get("error_type"),
            "error_message": found.get("error_message")}


def _tool_messages(pending: Sequence[Any], results: Sequence[str]) -> list[dict[str, Any]]:
    return [{"role": "tool", "tool_call_id": call.id, "content": text} for call, text in zip(pending, results)]


def run_entry(entry: Entry, policy: Policy) -> dict[str, Any]:
    """Play one entry as BFCL's inference loop does, judge it, and return its record.

    The record: `id`, `category`, `score` (1.0 when BFCL's checker passes it), `valid`, `error_type`
    and `error_message` (BFCL's), `status` (`done`, `force_terminated`, `policy_error`), `err`
    (the endpoint failed, or returned a reply whose calls cannot be read), `calls` (the call
    strings per turn and step), counters, and `messages`.
    """
    bfcl = modules()
    start = time.monotonic()
    functions = copy.deepcopy(entry.data.get("function") or [])
    holdout = entry.data.get("missed_function") or {}
    offered = tools(functions)
    messages: list[dict[str, Any]] = []
    turns: list[list[list[str]]] = []
    status, error = "done", None
    counts = {"steps": 0, "n_calls": 0, "not_run": 0, "undecodable": 0}
    with Backend(entry) as backend:
        for t, question in enumerate(entry.data["question"]):
            if str(t) in holdout:
                functions.extend(copy.deepcopy(holdout[str(t)]))
                offered = tools(functions)
                question = [{"role": "user", "content": bfcl.more_functions}]
            messages.extend(copy.deepcopy(question))
            steps: list[list[str]] = []
            while True:
                try:
                    reply = policy(messages, offered)
                except PolicyError as exc:
                    status, error = "policy_error", f"{exc.code}: {exc}"
                    break
                message, pending, _ = normalize(reply.message, id_prefix=f"call_{t}_{len(steps)}")
                messages.append(message)
                counts["steps"] += 1
                if not pending:
                    break
                counts["n_calls"] += len(pending)
                if any(not isinstance(call.arguments, dict) for call in pending):
                    # BFCL cannot decode such a reply: nothing of it runs and the turn ends. Each
                    # call is still answered, so that the conversation stays valid for any server.
                    counts["undecodable"] += 1
                    messages.extend(_tool_messages(pending, ["Error during execution: the arguments are not a "
                                                             "JSON object"] * len(pending)))
                    break
                strings = [render(c.name, c.arguments, backend.methods) for c in pending]
                results = iter(backend.run([s for s in strings if s is not None]))
                texts = [next(results) if s is not None else _not_run_text(c.name, c.arguments, backend.methods)
                         for c, s in zip(pending, strings)]
                counts["not_run"] += sum(1 for s in strings if s is None)
                messages.extend(_tool_messages(pending, texts))
                steps.append([s if s is not None else NOT_RUN for s in strings])
                if len(steps) > bfcl.max_steps:
                    status = "force_terminated"
                    break
            if status == "policy_error":
                break
            turns.append(steps)
            if status != "done":
                break
    verdict = judge(entry, turns, status)
    return {"id": entry.id, "category": entry.category, "score": 1.0 if verdict["valid"] else 0.0, **verdict,
            "status": status, "err": status == "policy_error" or counts["undecodable"] > 0, "error": error, "calls": turns, **counts,
            "seconds": round(time.monotonic() - start, 4), "messages": messages}


def run(entries: Sequence[Entry], policy: Policy, *, concurrency: int = 4,
        on_result: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Every entry's record (`run_entry`), `concurrency` entries at a time, in input order."""
    modules()
    return run_all(entries, lambda e: run_entry(e, policy), concurrency=concurrency, on_result=on_result,
                   thread_name="prove-eval")
