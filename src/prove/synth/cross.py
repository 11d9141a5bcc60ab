"""What a cross-server example carries from one server to another (the run report's measure).

An example of a combined view *carries an entity across* when a gold call on one server takes a
value that an earlier call's output on another server showed and that no user message said
before: the address read from the CRM that finds the person in the calendar, the name of a
bill's payee that finds the bank's payee. It carries it *as an entity* when, besides, a gold
call on one server names an entity that a bridge makes the same thing as an entity an earlier
call on another server returned or named (the CRM contact and the calendar person invited).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..env.combined import Combined
from .entities import extract_entities
from .faithful import leaves

__all__ = ["carried"]


def _strings(value: Any) -> set[str]:
    return {v for v in leaves(value) if isinstance(v, str) and len(v) > 2}


def carried(example: Mapping[str, Any], view: Combined) -> dict[str, Any]:
    """{"value": bool, "entity": bool, "hops": ["crm->calendar", ...]} for one example (see the module doc)."""
    links = view.links(example["world"])
    gold = {c["id"] for t in example["turns"] for c in t["calls"]}
    outputs: list[tuple[str, set[str], set[tuple[str, str]]]] = []  # (server, values shown, entities shown or named)
    users = ""
    hops: list[str] = []
    value = entity = False
    results = {m["tool_call_id"]: m.get("content") for m in example["messages"] if m.get("role") == "tool"}
    for m in example["messages"]:
        if m.get("role") == "user" and isinstance(m.get("content"), str):
            users += "\n" + m["content"]
        for tc in m.get("tool_calls") or () if m.get("role") == "assistant" else ():
            tool = view.tools.get(tc["function"]["name"])
            if tool is None:
                continue
            try:
                args = json.loads(tc["function"].get("arguments") or "{}")
                data = json.loads(results.get(tc["id"]) or "null")
            except ValueError:
                continue
            if not isinstance(args, dict):
                continue
            named = {(p.entity, v) for p in tool.params if p.entity and p.name in args
                     for v in ([args[p.name]] if isinstance(args[p.name], str) else args[p.name] or [])
                     if isinstance(v, str)}
            if tc["id"] in gold:
                for server, shown, ents in outputs:
                    if server == tool.server:
                        continue
                    hop = f"{server}->{tool.server}"
                    if any(v in shown and v not in users for v in _strings(args)):
                        value = True
                        hops.append(hop)
                    if any(links.get((k, kind), {}).get(e) == v for kind, v in named for k, e in ents):
                        entity = True
                        hops.append(hop)
            if isinstance(data, dict) and "error" in data and len(data) == 1:
                continue
            ents = {(k, v) for k, v, _ in extract_entities(tool, data)} | named
            outputs.append((tool.server, _strings(data), ents))
    return {"value": value, "entity": entity, "hops": sorted(set(hops))}
