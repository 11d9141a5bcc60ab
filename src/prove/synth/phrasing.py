"""Words for values: how a person says an entity, a date, an amount, an option.

The programmatic teacher fills an `Ask`'s slots and a tool's `reply` templates through this
module, and the faithfulness check reads user turns back through the same renderings, so a value
is said one way and traced the same way:

- an entity is a noun phrase that names it as a person does: "the Main Checking account",
  "the email 'Q2 budget numbers'", "Ana Lopez", or "order ORD-10012" for kinds whose IDs people
  quote (`EntityKind.public_id`); an entity without a usable label falls back to its noun and ID;
- a date is "March 18" (the year only when it is not the current one), a time "March 18 at
  2:30 PM", a time of day "2:30 PM";
- an enum value is its words ('credit_card' -> 'credit card'); numbers and free text as given.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time
from typing import Any

from ..env import Ask, Server, Tool
from ..env.world import EPOCH
from .entities import EntityIndex
from .sampler import SamplingContext
from .values import render_value
from .wording import Wording

__all__ = ["PERSON_NOUNS", "QUERY_PARAMS", "Phrasing", "human", "renderings"]

_SLOT = re.compile(r"\{([^{}]*)\}")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$")
_CLOCK = re.compile(r"^\d{2}:\d{2}$")
# Free-text parameters that search: their value must find what the request is after.
QUERY_PARAMS = frozenset({"query", "q", "search", "keyword", "keywords", "term", "text_query", "name_contains",
                          "contains", "search_text"})
# Kinds a person names by the name alone ("Ana Lopez", not "the Ana Lopez contact").
PERSON_NOUNS = frozenset({"contact", "person", "payee", "friend", "member", "user", "participant", "attendee",
                          "customer", "lead", "employee", "traveler", "passenger", "driver", "follower", "account holder",
                          "teammate", "assignee", "recipient", "guest", "seller", "buyer", "player", "author"})


def _clock(t: time) -> str:
    hour = t.hour % 12 or 12
    return f"{hour}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def _day(d: date) -> str:
    text = f"{d.strftime('%B')} {d.day}"
    return text if d.year == EPOCH.year else f"{text}, {d.year}"


def human(value: Any) -> str:
    """A non-entity value as a person writes it in a message (see the module docstring)."""
    if isinstance(value, str):
        if _DATE.match(value):
            try:
                return _day(date.fromisoformat(value))
            except ValueError:
                return value
        if _DATETIME.match(value):
            try:
                moment = datetime.fromisoformat(value)
            except ValueError:
                return value
            if moment.time() == time(0, 0):  # a day's start: people just name the day
                return _day(moment.date())
            return f"{_day(moment.date())} at {_clock(moment.time())}"
        if _CLOCK.match(value):
            try:
                return _clock(time.fromisoformat(value))
            except ValueError:
                return value
        return value
    if isinstance(value, list):
        items = [human(v) for v in value]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""
    return render_value(value)


def renderings(value: Any) -> set[str]:
    """Every way a value may be written in a user turn (lower case), for tracing it back."""
    out = {str(value).lower(), render_value(value).lower(), human(value).lower()}
    if isinstance(value, str):
        out.add(value.replace("_", " ").lower())
    if isinstance(value, float) and value.is_integer():
        out.add(str(int(value)))
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) >= 1000:
        out.add(f"{value:,.2f}".rstrip("0").rstrip("."))
        out.add(f"{value:,}")
    return {r for r in out if r}


def _title_like(label: str) -> bool:
    words = label.split()
    return 0 < len(words) <= 4 and all(w[:1].isupper() or not w[:1].isalpha() for w in words)


class Phrasing:
    """Renders requests and replies for one conversation (its server, context, index and RNG)."""

    def __init__(self, server: Server, context: SamplingContext, index: EntityIndex, words: Wording) -> None:
        self.server = server
        self.context = context
        self.index = index
        self.words = words
        self._shared: dict[str, Counter[str]] = {}

    # ----- entities ---------------------------------------------------------------------------

    def label(self, kind: str, value: str) -> str | None:
        """The label a person would use for an entity, if it names that entity alone."""
        label = self.index.labels.get(kind, {}).get(value) or self.context.label(kind, value)
        if not label or not isinstance(label, str) or len(label) > 60:
            return None
        counts = self._shared.get(kind)
        if counts is None:
            counts = self._shared[kind] = Counter(
                v.lower() for v in self.index.labels.get(kind, {}).values() if isinstance(v, str))
        return label if counts.get(label.lower(), 0) <= 1 else None

    def entity_noun(self, kind: str) -> str:
        ek = self.server.entities.get(kind)
        return ek.words if ek else kind.replace("_", " ")

    def entity(self, kind: str, value: str, label: str | None = None) -> str:
        """An entity as a noun phrase (see the module docstring)."""
        ek = self.server.entities.get(kind)
        noun = ek.words if ek else kind.replace("_", " ")
        if ek is not None and ek.public_id:
            return f"{noun} {value}"
        label = label or self.label(kind, value)
        if not label:
            shared = self.index.labels.get(kind, {}).get(value)
            extra = self._telling(kind, value, shared) if isinstance(shared, str) and len(shared) <= 60 else None
            if extra is None:
                return f"{noun} {value}"
            return f"the {noun} '{shared}' {extra}"
        if noun in PERSON_NOUNS:
            return label
        if _title_like(label):
            if label.lower().endswith(noun.split()[-1]):
                return f"the {label}"
            return f"the {label} {noun}"
        return f"the {noun} '{label}'"

    def _telling(self, kind: str, value: str, label: str) -> str | None:
        """What tells an entity apart from others with the same label: its sender, owner or date."""
        rows = self.index.rows.get(kind, {})
        row = rows.get(value)
        if row is None:
            return None
        twins = [r for k, r in rows.items() if k != value and self.index.labels.get(kind, {}).get(k) == label]
        for column, cell in row.items():
            if not isinstance(cell, str) or not cell or column.endswith("_id") or len(cell) > 40:
                continue
            named = any(w in column for w in ("name", "from", "sender", "author", "owner", "merchant", "host"))
            dated = bool(_DATE.match(cell[:10])) and column.endswith(("_at", "_on", "date", "_time"))
            if not (named or dated) or any(r.get(column) == cell for r in twins):
                continue
            if not dated:
                return f"from {cell}"
            try:
                return f"from {_day(date.fromisoformat(cell[:10]))}"
            except ValueError:
                continue
        return None

    def entities(self, kind: str, values: Sequence[str], labels: Mapping[str, str] | None = None) -> str:
        parts = [self.entity(kind, v, (labels or {}).get(v)) for v in values]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    # ----- requests and replies ---------------------------------------------------------------

    def argument(self, tool: Tool, name: str, value: Any, said: str | None = None) -> str:
        """How the user says one argument: `said` when the plan fixed the words, else a rendering."""
        if said is not None:
            return said
        param = next((p for p in tool.params if p.name == name), None)
        if param is not None and param.entity:
            values = value if isinstance(value, list) else [value]
            return self.entities(param.entity, [v for v in values if isinstance(v, str)])
        schema = tool.parameters.get("properties", {}).get(name, {})
        if schema.get("enum") or (schema.get("items") or {}).get("enum"):  # an option: its words
            return human([v.replace("_", " ") if isinstance(v, str) else v for v in value]
                         if isinstance(value, list) else value.replace("_", " ") if isinstance(value, str) else value)
        return human(value)

    def request(self, tool: Tool, ask: Ask, args: Mapping[str, Any], said: Mapping[str, str]) -> str:
        """An `Ask` with its slots filled from the call's arguments."""
        text = _SLOT.sub(lambda m: self.argument(tool, m.group(1), args.get(m.group(1)), said.get(m.group(1))),
                         ask.text)
        return _cap(text)

    def reply(self, tool: Tool, template: str, args: Mapping[str, Any], data: Any,
              said: Mapping[str, str]) -> str:
        """A reply template filled from the call's arguments and its result."""

        def fill(m: re.Match[str]) -> str:
            slot = m.group(1)
            head, _, path = slot.partition(".")
            if head != "result":
                return self.argument(tool, slot, args.get(slot), said.get(slot))
            value: Any = data
            for part in path.split(".") if path else []:
                value = value.get(part) if isinstance(value, Mapping) else None
            return self.result_value(tool, path.split(".")[-1] if path else "", value)

        return _sentences(_SLOT.sub(fill, template))

    def result_value(self, tool: Tool, field: str, value: Any) -> str:
        if isinstance(value, list):
            if value and all(isinstance(v, Mapping) for v in value):
                return str(len(value))
            return human([v for v in value if v is not None])
        if value is None:
            return "none"
        return human(value)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _sentences(text: str) -> str:
    """Capitalise the start of each sentence (a slot may begin one with 'the ...')."""
    return re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
