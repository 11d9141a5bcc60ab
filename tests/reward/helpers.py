"""Small builders for reward tests that need no server: tools, gold examples, model calls."""

from __future__ import annotations

from typing import Any

from prove.reward import Call, Gold, RewardConfig, prepare


def tool(name: str, required: dict[str, str] | None = None, optional: dict[str, Any] | None = None,
         enums: dict[str, list[str]] | None = None, defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    """An OpenAI function tool; `required`/`optional` map parameter names to JSON types."""
    props: dict[str, Any] = {}
    for key, kind in {**(required or {}), **(optional or {})}.items():
        props[key] = {"type": kind, "description": key}
    for key, values in (enums or {}).items():
        props.setdefault(key, {"type": "string"})["enum"] = values
    for key, value in (defaults or {}).items():
        props[key]["default"] = value
    return {"type": "function", "function": {"name": name, "description": name, "parameters": {
        "type": "object", "properties": props, "required": list(required or {})}}}


TOOLS = [
    tool("find", {"query": "string"}, {"limit": "integer"}, defaults={"limit": 10}),
    tool("get", {"item_id": "string"}),
    tool("pay", {"item_id": "string", "amount": "number"}, {"note": "string"}),
    tool("ship", {"item_id": "string", "speed": "string"}, enums={"speed": ["fast", "slow"]}),
    tool("other", {"x": "integer"}),
]


def example(*turns: list[tuple[str, str, dict[str, Any], list[str]]], tools: list[dict[str, Any]] | None = None,
            kind: str = "multi_turn", example_id: str = "ex") -> dict[str, Any]:
    """An example dict (no server): each turn is a list of (id, name, arguments, after)."""
    return {"id": example_id, "servers": [], "world": 0, "kind": kind, "tools": TOOLS if tools is None else tools,
            "turns": [{"user": f"turn {i}", "calls": [{"id": c, "name": n, "arguments": a, "after": d}
                                                       for c, n, a, d in calls]}
                      for i, calls in enumerate(turns)]}


def gold_of(ex: dict[str, Any], config: RewardConfig | None = None) -> Gold:
    return prepare(ex, config or RewardConfig(preset="paper"))


def calls_of(ex: dict[str, Any], ok: bool | None = True, turns: bool = True) -> list[Call]:
    """The gold calls of an example as model calls (executed successfully by default)."""
    return [Call(c["name"], dict(c["arguments"]), ok, i if turns else None)
            for i, t in enumerate(ex["turns"]) for c in t["calls"]]


FOUR = example([
    ("c1", "find", {"query": "lamp"}, []),
    ("c2", "get", {"item_id": "IT-1"}, ["c1"]),
    ("c3", "pay", {"item_id": "IT-1", "amount": 65}, ["c2"]),
    ("c4", "ship", {"item_id": "IT-1", "speed": "fast"}, ["c3"]),
])
