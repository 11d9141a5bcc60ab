"""Stage 5b: faithfulness. Every gold call must mean what the conversation asked for.

Replay proves that an example executes; this check proves that it says what it does. For every
gold call, every argument that differs from the tool's default must be traceable to what came
before the call in the conversation:

- bound by the phrasing the request was written from (`meta.bindings`, per call), and then the
  call must hold the bound value (`unfaithful_binding` otherwise);
- said by the user: the value itself in one of the ways a person writes it (`phrasing.renderings`:
  '2026-03-18T14:00:00' as "March 18 at 2:00 PM", 'credit_card' as "credit card"), or, for an
  entity, its ID or its label ("Main Checking");
- read from an earlier tool output (an ID or value the assistant looked up).

A boolean is traceable only by a binding or by user words that speak of it ("without the
attachments", "switch it off"): a request that never mentions an option cannot justify a
non-default value of it. Secrets are checked by the provenance rule of replay.

The check reads only the record, the tool definitions and the world's labels, so it judges data
from any teacher (an LLM teacher makes these mistakes too). Reasons: `unfaithful_binding`,
`unfaithful_entity`, `unfaithful_value`, `unfaithful_boolean`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic_core import PydanticUndefined

from ..env import Server, Tool
from ..env.asks import bool_words, words_in
from .entities import EntityIndex
from .phrasing import excerpt_of, full_spans, renderings
from .values import QUANTITY_KEYS
from .values import human

__all__ = ["Unfaithful", "faithfulness", "leaves", "said"]


@dataclass(frozen=True)
class Unfaithful:
    reason: str
    detail: str


def _default(tool: Tool, name: str) -> Any:
    return tool.defaults.get(name, PydanticUndefined)


def said(text: str, value: str) -> bool:
    """Whether `value` (lower case) stands in `text` (lower case) as a whole word or phrase."""
    if not value:
        return False
    if len(value) <= 3 or value[0].isalnum() and value[-1].isalnum():
        start = text.find(value)
        while start >= 0:
            end = start + len(value)
            if text[end:end + 2] == "es":  # a word may stand in its plural ("customers" for 'customer')
                end += 2
            elif text[end:end + 1] == "s":
                end += 1
            if (start == 0 or not text[start - 1].isalnum()) and (end >= len(text) or not text[end].isalnum()):
                return True
            start = text.find(value, start + 1)
        return False
    return value in text or value[-1] in ".!" and value[:-1] in text


def leaves(value: Any) -> list[Any]:
    """The scalar values inside a structure (a line item's description, quantity and price); a
    quantity of one goes without saying ("an invoice for Rush fee at $50")."""
    if isinstance(value, Mapping):
        return [leaf for k, v in value.items() if not (k in QUANTITY_KEYS and v == 1) for leaf in leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in leaves(v)]
    return [] if value is None or isinstance(value, bool) else [value]


def faithfulness(example: Mapping[str, Any], server: Server, index: EntityIndex) -> Unfaithful | None:
    """The first unfaithful argument of the example's gold calls, or None (see the module doc)."""
    messages = example["messages"]
    bindings: Mapping[str, Mapping[str, Any]] = (example.get("meta") or {}).get("bindings", {})
    gold = {c["id"]: c for t in example["turns"] for c in t["calls"]}
    users = ""
    outputs = ""
    for m in messages:
        role = m.get("role")
        content = m.get("content")
        if role == "user" and isinstance(content, str):
            users += "\n" + full_spans(content).lower()
        elif role == "tool" and isinstance(content, str):
            outputs += "\n" + content.lower()
        elif role == "assistant":
            for tc in m.get("tool_calls") or ():
                call = gold.get(tc["id"])
                tool = server.tools.get(tc["function"]["name"])
                if call is None or tool is None:
                    continue
                found = _check_call(call, tool, bindings.get(call["id"], {}), users, outputs, index)
                if found is not None:
                    return found
    return None


def _check_call(call: Mapping[str, Any], tool: Tool, bound: Mapping[str, Any], users: str, outputs: str,
                index: EntityIndex) -> Unfaithful | None:
    args = call.get("arguments") or {}
    where = f"{call['id']} ({tool.name})"
    for name, value in bound.items():
        if args.get(name, _default(tool, name)) != value:
            return Unfaithful("unfaithful_binding", f"{where}: the request fixes {name}={value!r}, the call has "
                                                    f"{args.get(name)!r}")
    words = None
    for p in tool.params:
        if p.name not in args or p.name in bound or p.sensitive:
            continue
        value = args[p.name]
        if value == _default(tool, p.name):
            continue
        if isinstance(value, bool):
            words = words if words is not None else set(words_in(users))
            if not bool_words(p.name) & words:
                return Unfaithful("unfaithful_boolean", f"{where}: {p.name}={value} is said nowhere")
            continue
        for item in value if isinstance(value, list) else [value]:
            if p.entity and isinstance(item, str):
                label = index.labels.get(p.entity, {}).get(item, "")
                opening = excerpt_of(label) if isinstance(label, str) and len(label) > 60 else None
                owner = index.owner(p.entity, item) if not label else None  # "the recording of the meeting 'X'"
                owner_label = index.labels.get(owner[1], {}).get(owner[2], "") if owner else ""
                if not (said(users, item.lower()) or said(outputs, item.lower())
                        or (label and (said(users, label.lower()) or said(users, human(label).lower())))
                        or (opening and opening.lower() in users)
                        or (owner_label and said(users, owner_label.lower()))
                        or (owner and said(users, owner[2].lower()))  # "the comment on issue WEB-10011"
                        or (index.rows.get(p.entity, {}).get(item, {}).get("is_me") == 1
                            and (said(users, "me") or said(users, "my")))):  # the user's own name is "me"
                    return Unfaithful("unfaithful_entity", f"{where}: {p.name}={item!r} is neither named by the "
                                                           f"user nor read from a result")
                continue
            for leaf in leaves(item):
                if not any(said(users, r) or said(outputs, r) for r in renderings(leaf)):
                    return Unfaithful("unfaithful_value", f"{where}: {p.name} holds {leaf!r}, said nowhere before "
                                                          f"the call")
    return None
