"""Stage 4: perturbations, decided per example before the teacher starts.

- `distractors`: 3-8 tools of other servers are offered too (names that collide are skipped);
- `stripped_enums`: the schemas shown lose their `enum` lists (descriptions still name the
  values), so the model must read rather than pick;
- `irrelevance`: an off-topic request the assistant must decline;
- `hidden_tool`: a tool is taken out of view; the task becomes an abstention (the tool it needs
  is gone) or a clarification (the lookup is gone, so the assistant must ask for the ID).

Also the example's kind and information level (complete / missing / minimal). All rates come
from `Rates` and are drawn from the example's own RNG.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..env import Server
from .config import Rates

__all__ = ["PERTURBATIONS", "Choice", "choose", "distractor_pool", "shown_tools", "strip_enums"]

PERTURBATIONS = ("distractors", "stripped_enums", "irrelevance", "hidden_tool")


@dataclass
class Choice:
    kind: str
    level: str
    distractors: int = 0
    strip: bool = False
    abstain_tool: str | None = None
    hide_lookup: bool = False
    perturbations: list[str] = field(default_factory=list)


def choose(rng: random.Random, rates: Rates, server: Server, kind: str | None = None,
           tool: str | None = None) -> Choice:
    """Kind, information level and perturbations of one example.

    `kind` asks for that kind (its level drawn among the levels that make it); `tool` is the
    tool an abstention hides. Without them every draw is as the rates say.
    """
    r = rng.random()
    if kind is not None:
        choice = _steered(rng, rates, server, kind, tool)
    elif r < rates.irrelevance:
        choice = Choice("irrelevance", "complete", perturbations=["irrelevance"])
    elif r < rates.irrelevance + rates.abstention:
        tools = [t for t in server.visible_tools if t.asks]
        tool = rng.choice(tools) if tools else None
        choice = Choice("abstention", "complete", abstain_tool=tool.name if tool else None,
                        perturbations=["hidden_tool"])
        if tool is None:
            choice = Choice("irrelevance", "complete", perturbations=["irrelevance"])
    else:
        total = rates.complete + rates.missing + rates.minimal
        x = rng.random() * total
        level = "complete" if x < rates.complete else "missing" if x < rates.complete + rates.missing else "minimal"
        kind = "clarification" if level == "missing" else "multi_turn"
        choice = Choice(kind, level, hide_lookup=level == "missing" and rng.random() < rates.hidden_lookup)
    if rng.random() < rates.distractors:
        choice.distractors = rng.randint(rates.distractors_min, rates.distractors_max)
    if rng.random() < rates.stripped_enums:
        choice.strip = True
    return choice


def _steered(rng: random.Random, rates: Rates, server: Server, kind: str, tool: str | None) -> Choice:
    if kind == "irrelevance":
        return Choice("irrelevance", "complete", perturbations=["irrelevance"])
    if kind == "abstention":
        tools = [t for t in server.visible_tools if t.asks]
        found = server.tools.get(tool) if tool is not None else rng.choice(tools) if tools else None
        return Choice("abstention", "complete", abstain_tool=found.name if found else None,
                      perturbations=["hidden_tool"])
    if kind == "clarification":
        return Choice("clarification", "missing", hide_lookup=rng.random() < rates.hidden_lookup)
    if kind == "multi_turn":
        total = rates.complete + rates.minimal
        level = "complete" if total <= 0 or rng.random() * total < rates.complete else "minimal"
        return Choice("multi_turn", level)
    raise ValueError(f"unknown kind {kind!r}")


def distractor_pool(servers: Sequence[Server]) -> dict[str, list[dict[str, Any]]]:
    """Per server, the visible tool schemas of every *other* server."""
    schemas = {s.name: [t.openai_schema() for t in s.visible_tools] for s in servers}
    return {s.name: [sch for other, items in schemas.items() if other != s.name for sch in items] for s in servers}


def strip_enums(schema: Any) -> Any:
    """A copy of a tool schema without `enum` lists (the JSON type is kept or inferred)."""
    if isinstance(schema, Mapping):
        out = {}
        for key, value in schema.items():
            if key == "enum":
                continue
            out[key] = strip_enums(value)
        if "enum" in schema and "type" not in out:
            kinds = {type(v).__name__ for v in schema["enum"]}
            out["type"] = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}.get(
                kinds.pop(), "string") if len(kinds) == 1 else "string"
        return out
    if isinstance(schema, list):
        return [strip_enums(v) for v in schema]
    return schema


def shown_tools(server: Server, rng: random.Random, *, hidden: set[str], distractors: int,
                pool: Sequence[dict[str, Any]], strip: bool) -> tuple[list[dict[str, Any]], list[str]]:
    """The tools offered to the model, and the perturbations that actually applied."""
    tools = [t.openai_schema() for t in server.visible_tools if t.name not in hidden]
    applied: list[str] = []
    if distractors:
        names = {t["function"]["name"] for t in tools}
        usable = [d for d in pool if d["function"]["name"] not in names]
        picked: list[dict[str, Any]] = []
        seen: set[str] = set()
        for d in rng.sample(usable, min(len(usable), distractors * 2)):
            if d["function"]["name"] not in seen and len(picked) < distractors:
                seen.add(d["function"]["name"])
                picked.append(d)
        for d in picked:
            tools.insert(rng.randint(0, len(tools)), d)
        if picked:
            applied.append("distractors")
    if strip:
        stripped = [strip_enums(t) for t in tools]
        if stripped != tools:
            applied.append("stripped_enums")
        tools = stripped
    return tools, applied
