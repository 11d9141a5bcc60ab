"""BFCL multi-turn entries as PROVE records, so that PROVE's reward and audit run beside BFCL's checker.

    prove eval convert bfcl-multi-turn:base bfcl-base.jsonl
    prove reward audit bfcl-base.jsonl
    prove eval --benchmark bfcl-multi-turn:base ... --trajectories runs/base-traj.jsonl
    prove reward score runs/base-traj.jsonl --dataset bfcl-base.jsonl

An entry becomes one `Example` (`kind` multi_turn, id = BFCL's id):

- `tools`: every function doc of the entry in OpenAI form, as the run offers them (`bfcl.tools`;
  BFCL's `response` schema is left out, the records' tool form has no place for it); in `miss_func`
  the held-out functions are listed too, and `meta.missed_function` says from which turn on each
  is offered;
- `turns`: one per BFCL turn, the user's words (BFCL's own message where a held-out function comes
  back) and the ground-truth calls, with their positional arguments named (`bfcl.gold_calls`);
  BFCL gives no dependency graph, so each call of a turn is recorded as depending on the one
  before it (BFCL's ground truth is a sequence its checker runs in order);
- `messages`: the reference conversation: each turn's user message, one assistant message with
  the turn's gold calls, their results as BFCL's backends answer them, and a closing reply in
  words (so `python -m prove.rollout.scripted` replays it as a policy that makes BFCL's gold calls);
- `servers`: `bfcl/<class>` for each of the entry's BFCL classes. They are not PROVE servers, so
  the reward scores the records without execution (no state component), as it does any example
  of a server not installed; `meta` keeps the category, the classes and BFCL's initial state.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..records import Example
from .errors import EvalError
from .bfcl import Backend, Entry, gold_calls, modules, render, tools

__all__ = ["DONE", "NO_CALLS", "to_example", "to_examples"]

# BFCL's ground truth has calls only; a reference conversation ends each turn in words.
DONE = "Done."
NO_CALLS = "I cannot do that with the functions and the information I have."


def _user_text(question: Sequence[dict[str, Any]]) -> str:
    return "\n".join(str(m.get("content", "")) for m in question if m.get("role") == "user")


def to_example(entry: Entry) -> Example:
    """One BFCL entry as a PROVE example (see the module docstring)."""
    holdout = entry.data.get("missed_function") or {}
    functions = list(entry.data.get("function") or []) + [f for t in sorted(holdout, key=int) for f in holdout[t]]
    schemas = []
    for tool in tools(functions):
        tool["function"].pop("response", None)
        schemas.append(tool)
    gold = gold_calls(entry)
    messages: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    n = 0
    with Backend(entry) as backend:
        for t, question in enumerate(entry.data["question"]):
            if str(t) in holdout:
                question = [{"role": "user", "content": modules().more_functions}]
            messages.extend({"role": m["role"], "content": m["content"]} for m in question)
            calls = []
            for name, args in gold[t]:
                n += 1
                calls.append({"id": f"c{n}", "name": name, "arguments": args,
                              "after": [calls[-1]["id"]] if calls else []})
            turns.append({"user": _user_text(question), "calls": calls})
            if not calls:
                messages.append({"role": "assistant", "content": NO_CALLS})
                continue
            strings = [render(c["name"], c["arguments"], backend.methods) for c in calls]
            if None in strings:
                raise EvalError(f"{entry.id}: a ground-truth call of turn {t} is not one BFCL's backends define")
            results = backend.run(strings)
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": c["id"], "type": "function",
                 "function": {"name": c["name"], "arguments": json.dumps(c["arguments"], ensure_ascii=False)}}
                for c in calls]})
            messages.extend({"role": "tool", "tool_call_id": c["id"], "content": text}
                            for c, text in zip(calls, results))
            messages.append({"role": "assistant", "content": DONE})
    return Example.model_validate({
        "id": entry.id, "servers": [f"bfcl/{c}" for c in entry.data["involved_classes"]], "kind": "multi_turn",
        "tools": schemas, "messages": messages, "turns": turns,
        "meta": {"source": "bfcl-v4", "category": entry.category, "involved_classes": entry.data["involved_classes"],
                 "missed_function": {t: [f["name"] for f in fs] for t, fs in holdout.items()},
                 "initial_config": entry.data.get("initial_config", {})},
    })


def to_examples(entries: Sequence[Entry]) -> list[Example]:
    return [to_example(e) for e in entries]
