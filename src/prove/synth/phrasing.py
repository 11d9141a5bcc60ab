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
from datetime import date
from typing import Any

from ..env import Ask, EntityKind, Server, Tool
from ..env.asks import result_field
from .entities import EntityIndex
from .sampler import SamplingContext
from .results import money, number, option_words, span_of_minutes, unsnake
from .values import DAY, day, human, is_money, render_value
from .wording import Wording

__all__ = ["PERSON_NOUNS", "QUERY_PARAMS", "Phrasing", "excerpt_of", "human", "renderings", "row_noun"]

_SLOT = re.compile(r"\{([^{}]*)\}")
# A field that names a record's member ("seller username lucass_tech", "buyer lucass_tech"): about the user, unsaid.
_WHOSE = r"(?:(?:[a-z]+ )?(?:username|handle|owner)|seller|buyer)"
# Free-text parameters that search: their value must find what the request is after.
QUERY_PARAMS = frozenset({"query", "q", "search", "keyword", "keywords", "term", "text_query", "name_contains",
                          "contains", "search_text"})
# Kinds a person names by the name alone ("Ana Lopez", not "the Ana Lopez contact").
PERSON_NOUNS = frozenset({"contact", "person", "payee", "friend", "member", "user", "participant", "attendee",
                          "customer", "lead", "employee", "traveler", "passenger", "driver", "follower", "account holder",
                          "teammate", "assignee", "recipient", "guest", "seller", "buyer", "player", "author"})


def renderings(value: Any) -> set[str]:
    """Every way a value may be written in a user turn (lower case), for tracing it back."""
    out = {str(value).lower(), render_value(value).lower(), human(value).lower()}
    if isinstance(value, str):
        out.add(value.replace("_", " ").lower())
    if isinstance(value, float) and value.is_integer():
        out.add(str(int(value)))
    if value == 1 and not isinstance(value, bool):
        out.add("one")  # "one Cordless String Trimmer 20V"
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) >= 1000:
        out.add(f"{value:,.2f}".rstrip("0").rstrip("."))
        out.add(f"{value:,}")
    return {r for r in out if r}


def excerpt_of(label: str) -> str | None:
    """The opening of a long label, cut at a word (25 to 48 characters), by which a person names it;
    None when the text gives no such opening."""
    cut = label[:49].rsplit(" ", 1)[0].rstrip(",;:.-") if len(label) > 48 else label
    return cut if len(cut) >= 25 else None


def _title_like(label: str) -> bool:
    """A name written like a title ("Main Checking"), not a short text someone wrote ("Beautiful.")."""
    if label.endswith(("!", "?")) or label.endswith(".") and not label.endswith(_ABBREVIATIONS) or "," in label:
        return False  # a name with a comma reads as a list before a noun: "the Gloomhaven Board Game, Unpunched listing"
    words = [w.lstrip("([") for w in label.split()]  # "Meeting (title TBD)" has a word in lower case
    return 0 < len(words) <= 4 and all(w[:1].isupper() or not w[:1].isalpha() for w in words)


def _folder(path: str) -> str:
    """The name of the folder a path is in: '/Documents/Travel/Itinerary.md' -> 'Travel'."""
    return path.rsplit("/", 2)[-2] if path.count("/") > 1 else ""


_WORK = re.compile(r" by [A-Z][\w'.-]+(?: [A-Z][\w'.-]+)+$")  # a book by its author: "Salt and Starlight by Mia Anderson"


def row_noun(ek: EntityKind, own: Any) -> str | None:
    """What a row is called by its `noun_from` value `own`: the kind's word for it (`nouns`: a
    'person' is a "friend"), else the value itself ('file', 'flight') where the kind's phrase for it
    says it (a 'public' channel is "the channel '...'", never "the public"); None where neither."""
    if not isinstance(own, str) or not own:
        return None
    if noun := dict(ek.nouns).get(own):
        return noun
    if any(own.replace("_", " ") not in template for which, template in ek.phrases if which == own):
        return None
    return own.replace("_", " ")


def _named(label: str, naming: str, noun: str) -> str:
    """A label as a noun phrase by its kind's `naming`: "Sushi Moore", "the Electric Kettle 1.7 L",
    "the Main Checking account", "the email 'Q2 numbers'". A name that has its own article
    ("The Salad Lab") takes no other, and neither does a work said with its author."""
    if re.fullmatch(r"\d{4}-\d{2}", label):  # a statement's period: "the October 2025 statement"
        label = human(label)
    own_article = label.split(" ", 1)[0] in ("The", "A", "An") or bool(_WORK.search(label))
    if naming == "alone":
        return label
    if naming == "article":
        return label if own_article else f"the {label}"
    if naming == "before":  # "the like notification"
        return f"the {label.replace('_', ' ')} {noun}"
    if re.search(rf"'s {re.escape(noun.split()[-1])}$", label):  # "Valentina Young's calendar" says whose it is
        return label
    if _title_like(label):
        last = noun.split()[-1]
        if re.search(rf"\b{re.escape(last)}\s+[A-Za-z]?\d+[A-Za-z]?$", label, re.IGNORECASE):
            return label  # a numbered one is a proper name: "complete WEB Sprint 19", not "the WEB Sprint 19"
        if last in label.lower().split() or label.lower().endswith(last):  # "the Primary Bedroom"
            return label if own_article else f"the {label}"
        return f"{label} {noun}" if own_article else f"the {label} {noun}"
    return f"the {noun} '{label}'"


class Phrasing:
    """Renders requests and replies for one conversation (its server, context, index and RNG)."""

    def __init__(self, server: Server, context: SamplingContext, index: EntityIndex, words: Wording) -> None:
        self.server = server
        self.context = context
        self.index = index
        self.words = words
        self._shared: dict[str, Counter[str]] = {}
        self._me_names: list[str] | None = None
        # Labels the conversation has changed so far (a renamed device, a flight moved to another
        # day): later turns say the thing by what it is called now.
        self.renamed: dict[tuple[str, str], str] = {}
        # The rows of things the conversation has changed before the words being written, as they are
        # then (kind -> ID -> row): a request tells a thing an earlier step of it moved by its new day.
        self.current: Mapping[str, Mapping[str, Mapping[str, Any]]] = {}
        # What things made in the conversation are, where their kind leaves it open (a file, a folder).
        self.nouns: dict[tuple[str, str], str] = {}

    # ----- entities ---------------------------------------------------------------------------

    def label(self, kind: str, value: str) -> str | None:
        """The label a person would use for an entity, if it names that entity alone."""
        made = self._made(self.renamed, value)
        if made and value not in self.index.ids.get(kind, ()):
            return made  # moved or renamed in the conversation: said as the conversation said it
        label = self.renamed_to(kind, value) or self.index.labels.get(kind, {}).get(value) \
            or self.context.label(kind, value)
        if not label or not isinstance(label, str):
            return None
        counts = self._counts(kind)
        if counts.get(label.lower(), 0) > 1:
            return None
        if len(label) <= 60:
            return label
        # A long text (a post, a message) is named by its opening, where no other starts the same way.
        opening = excerpt_of(label)
        if opening is None or sum(1 for other in counts if other.startswith(opening.lower())) > 1:
            return None
        return opening + "…"

    def renamed_to(self, kind: str, value: str) -> str | None:
        """The label the conversation has given a thing so far (an earlier step of the request being
        written, or an earlier turn), where it changed it."""
        now = self._label_of(kind, value)
        return now if now != self.index.labels.get(kind, {}).get(value) else self.renamed.get((kind, value))

    def _label_of(self, kind: str, value: str) -> str | None:
        """A thing's label as the conversation has left it before the words being written."""
        ek = self.server.entities.get(kind)
        row = self.current.get(kind, {}).get(value)
        now = row.get(ek.label) if row is not None and ek is not None and ek.label else None
        return now if isinstance(now, str) and now else self.index.labels.get(kind, {}).get(value)

    def _rows(self, kind: str) -> Mapping[str, Mapping[str, Any]]:
        """Every row of a kind, those the conversation has changed as they are now."""
        rows = self.index.every.get(kind, {})
        changed = self.current.get(kind)
        return {**rows, **changed} if changed else rows

    def _labels(self, kind: str) -> Mapping[str, str]:
        """Every label of a kind, those the conversation has changed as they are now."""
        labels = self.index.labels.get(kind, {})
        ek = self.server.entities.get(kind)
        changed = self.current.get(kind)
        if not changed or ek is None or not ek.label:
            return labels
        return {**labels, **{k: str(row[ek.label]) for k, row in changed.items() if row.get(ek.label) not in (None, "")}}

    def _counts(self, kind: str) -> Counter[str]:
        """How many things of a kind each label names: the world's, and those the conversation made."""
        counts = self._shared.get(kind)
        if counts is None:
            counts = self._shared[kind] = Counter(
                v.lower() for v in self.index.labels.get(kind, {}).values() if isinstance(v, str))
        return counts

    def made_twin(self, kind: str, label: str) -> None:
        """The conversation made a thing with a label the world already has (a copy of a file in
        another folder): from now on the label alone names neither, and both are told apart. Kinds
        keyed alike are one thing seen as several (a path is an item, a file and a folder)."""
        key = self.server.entities[kind].key
        for other, ek in self.server.entities.items():
            counts = self._counts(other)
            if ek.key == key and counts.get(label.lower(), 0):
                counts[label.lower()] += 1

    @staticmethod
    def _made(said: Mapping[tuple[str, str], str], value: str) -> str | None:
        """What the conversation said of a thing it made, under whichever kind (a path is an item, a
        file and a folder alike)."""
        return next((text for (_, v), text in said.items() if v == value), None)

    def entity_noun(self, kind: str) -> str:
        ek = self.server.entities.get(kind)
        return ek.words if ek else kind.replace("_", " ")

    def noun_of(self, kind: str, value: str) -> str:
        """The noun for one entity: its row's own (`noun_from`: a file, a folder), else its kind's."""
        ek = self.server.entities.get(kind)
        if made := self._made(self.nouns, value):
            return made
        if ek is not None and ek.noun_from:
            own = row_noun(ek, self.index.every.get(kind, {}).get(value, {}).get(ek.noun_from))
            if own is not None:
                return own
        return self.entity_noun(kind)

    def _phrase(self, ek: Any, value: str) -> str | None:
        """The template a row's own kind of thing is said by (`EntityKind.phrases`), if any."""
        if ek is None or not ek.phrases or not ek.noun_from:
            return None
        own = self.index.every.get(ek.name, {}).get(value, {}).get(ek.noun_from)
        return next((template for which, template in ek.phrases if which == own), None)

    def entity(self, kind: str, value: str, label: str | None = None) -> str:
        """An entity as a noun phrase (see the module docstring)."""
        ek = self.server.entities.get(kind)
        if self._is_me(kind, value):
            return "me"  # the signed-in user, never by their own name ("assign it to me")
        past = value in self.index.every.get(kind, {}) and value not in self.index.rows.get(kind, {})
        if ek is not None and ek.stands_for and not past:  # a participant is the person: "Alice Roberts"
            other = self.index.every.get(kind, {}).get(value, {}).get(ek.stands_for)
            other_kind = self.index.named_kind(other) if isinstance(other, str) else None
            if other_kind is not None:
                return self.entity(other_kind, other)
            if label:
                return label
        template = self._phrase(ek, value)
        name = label or self.renamed_to(kind, value) or self.index.labels.get(kind, {}).get(value)
        if template and name:  # "the DM with Camila Williams"
            return template.format(label=name)
        naming = ek.naming if ek else "noun"
        noun = self.noun_of(kind, value)
        if ek is not None and ek.public_id:
            return value if naming == "alone" else f"{noun} {value}"
        label = label or self.label(kind, value)
        if not label:
            shared = self._labels(kind).get(value)
            of = self._of(ek, value) if isinstance(shared, str) and len(shared) <= 60 else ""
            if of:  # "the Standard variant of the REI Co-op Camping Tent": what it is part of tells it apart
                return _named(shared, naming, noun) + of
            extra = self._telling(kind, value, shared) if isinstance(shared, str) else None
            if extra is None:
                return self._described(kind, value) or f"{noun} {value}"
            if len(shared) > 60:  # a long text many share ("Caught Phoebe Bridgers live…"): its opening and author
                opening = excerpt_of(shared)
                return f"the {noun} '{opening}…' {extra}" if opening else f"{noun} {value}"
            return f"{_named(shared, naming, noun)} {extra}"
        if noun in PERSON_NOUNS:
            return label
        return _named(label, naming, noun) + self._of(ek, value)

    def my_names(self) -> list[str]:
        """The signed-in user's own names (their person, member or account rows)."""
        if self._me_names is None:
            self._me_names = [name for kind, rows in self.index.every.items() for key, row in rows.items()
                              if row.get("is_me") == 1
                              for name in [self.index.labels.get(kind, {}).get(key)] if isinstance(name, str) and name]
        return self._me_names

    def to_user(self, text: str) -> str:
        """A read-out that names the user by their own name ("by Javier Richardson") says "you"."""
        for name in self.my_names():
            text = re.sub(rf"\b(by|from|to) {re.escape(name)}\b", r"\1 you", text)
            # "seller username lucass_tech" on the user's own listing says nothing to them
            text = re.sub(rf", {_WHOSE} {re.escape(name)}\b", "", text)
            text = re.sub(rf"\b{_WHOSE} {re.escape(name)}, ", "", text)
            text = re.sub(rf"\b{re.escape(name)}'s\b", "your", text)  # "lucass_tech's $41.99 offer": yours
        return text

    def _is_me(self, kind: str, value: str) -> bool:
        return self.index.every.get(kind, {}).get(value, {}).get("is_me") == 1

    def _of(self, ek: Any, value: str) -> str:
        """' of the Patagonia Rain Jacket' for a kind that is part of another (`EntityKind.part_of`)."""
        if ek is None or not ek.part_of:
            return ""
        owner = self.index.every.get(ek.name, {}).get(value, {}).get(ek.part_of)
        kind = self.index.named_kind(owner, besides=ek.name) if isinstance(owner, str) else None
        return f" of {self.entity(kind, owner)}" if kind else ""

    def _described(self, kind: str, value: str) -> str | None:
        """A nameless entity by what it belongs to, told apart from the owner's others by who it is
        from, its amount or its day: "the version of the Resume.md file from December 14, 2024",
        "the $72.50 offer on the REI Half Dome SL 2+ Tent", "the offer on the tent from fiona_games";
        None where nothing tells it apart (or the owner has no words either)."""
        found = self.index.owner(kind, value)
        if found is None:
            return None
        column, owner_kind, owner_id = found
        owner_ek = self.server.entities.get(owner_kind)
        if owner_ek is None:
            return None
        owner = self.entity(owner_kind, owner_id)  # a recurring meeting: "the meeting 'Sync' from May 4"
        if owner_id in owner and not owner_ek.public_id:
            return None
        noun = self.entity_noun(kind)
        rows = self._rows(kind)
        other = next((cell for col, cell in rows.get(value, {}).items() if column.startswith("source")
                      and col.startswith("target") and isinstance(cell, str)
                      and self.index.named_kind(cell, besides=kind) == owner_kind), None)
        if other is not None:  # a link joins two issues: "the link between issue PAY-10009 and issue PAY-10035"
            return f"the {noun} between {owner} and {self.entity(owner_kind, other)}"
        of = "from" if column.startswith("from_") else _OF.get(noun.split()[-1], "of")
        text = f"the {noun} {of} {owner}"
        row = rows[value]
        twins = [r for k, r in rows.items() if k != value and r.get(column) == row[column]]
        if not twins:
            return text
        for col, cell in row.items():  # whose it is: "jordan_games's offer on the tent"
            if col in (column, self.server.entities[kind].key) or not col.endswith("_id") or not isinstance(cell, str):
                continue
            who_kind = self.index.named_kind(cell, besides=kind)
            if who_kind is None or self.entity_noun(who_kind) not in PERSON_NOUNS:
                continue
            mine = self._is_me(who_kind, cell)
            to = col.startswith(("to_", "payee", "recipient"))
            if mine and (to or noun in PERSON_NOUNS):
                continue
            who = "my" if mine else self.label(who_kind, cell)
            if who and not any(r.get(col) == cell for r in twins):
                # a transfer to a payee is "to" them; an invitation, an offer, a comment is theirs (or mine);
                # a person's presence is the person: "Alice Roberts in the meeting 'Sync'"
                if to:
                    return f"{text} to {who}"
                if noun in PERSON_NOUNS:
                    return f"{who} {text[len(noun) + 5:]}"
                return f"{who} {text[4:]}" if mine else f"{who}'s {text[4:]}"
        for col, cell in row.items():  # its amount: "the $72.50 offer on the tent"
            if is_money(col) and isinstance(cell, (int, float)) and not isinstance(cell, bool) and cell \
                    and not any(r.get(col) == cell for r in twins):
                return f"the {money(cell)} {text[4:]}"
        dated = [(col, cell) for col, cell in row.items() if isinstance(cell, str) and DAY.match(cell[:10])
                 and col.endswith(("_at", "_on", "date", "_time"))]
        for width in (10, 16):  # its day, else its day and time: "from January 24 at 6:27 PM"
            for col, cell in dated:
                if not any(str(r.get(col, ""))[:width] == cell[:width] for r in twins):
                    return f"{text} {'on' if ' from ' in text else 'from'} {human(cell[:width])}"
        return None

    def _telling(self, kind: str, value: str, label: str) -> str | None:
        """What tells an entity apart from others with the same label: its sender, owner or date,
        or two of them together ("in the DM with Emma Martin from March 5")."""
        rows = self._rows(kind)
        row = rows.get(value)
        if row is None:
            return None
        labels = self._labels(kind)
        opening = excerpt_of(label) if len(label) > 60 else None  # a long text is said by its opening
        twins = [r for k, r in rows.items() if k != value and (labels.get(k) == label or opening is not None
                 and isinstance(labels.get(k), str) and excerpt_of(labels[k]) == opening)]
        tellers, times = self._tellers(kind, row, label)

        def alone(group: list[tuple[str, Any]]) -> str | None:
            return next((words for words, same in group if not any(same(r) for r in twins)), None)

        def paired(group: list[tuple[str, Any]]) -> str | None:
            for n, (first, same_first) in enumerate(group):
                for second, same_second in group[n + 1:]:
                    if not any(same_first(r) and same_second(r) for r in twins):  # "from rossic on March 6"
                        both_from = first.startswith("from ") and second.startswith("from ")
                        return f"{first} {'on' + second[4:] if both_from else second}"
            return None

        # a time of day only where nothing else tells it apart: "from February 25 at 9:15 AM"
        return alone(tellers) or paired(tellers) or alone(times) or paired(tellers + times)

    def _tellers(self, kind: str, row: Mapping[str, Any], label: str) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]]:
        """The words for each thing of a row a person tells it by (its sender, owner, place or day),
        with a test of whether another row shares it; a day comes last, and its time of day apart."""
        out: list[tuple[str, Any]] = []
        days: list[tuple[str, Any]] = []
        times: list[tuple[str, Any]] = []
        key = self.server.entities[kind].key
        links = dict(self.server.entities[kind].links)  # "the deal 'Renewal' with Chloe Singh"
        if key == "path" and str(row.get(key, "")).count("/") > 1:  # a drive item: the folder it is in
            folder = _folder(row[key])
            out.append((f"in the {folder} folder", lambda r: _folder(str(r.get(key, ""))) == folder))
        for column, cell in row.items():
            if column.endswith("_id") and isinstance(cell, str) and column != self.server.entities[kind].key:
                owner_kind = self.index.named_kind(cell)
                owner_ek = self.server.entities.get(owner_kind) if owner_kind else None
                if owner_ek is not None and owner_ek.public_id:  # "from order ORD-10012": known by its number
                    of = _OF.get(self.entity_noun(kind).split()[-1], "from")
                    out.append((f"{of} {self.entity(owner_kind, cell)}", lambda r, c=column, v=cell: r.get(c) == v))
                    continue
                owner = self.label_anywhere(cell)  # the dish's restaurant, the place's city
                if not owner or owner.lower() in label.lower() or owner_kind == kind:
                    continue  # an email's thread says its subject again; a reply is not "from" what it answers
                # a text (a post) is quoted as what it is: "the comment 'Right?!' on the post 'Booked ...'"
                quoted = owner_ek is not None and owner_ek.naming != "article" and " " in owner and not _title_like(owner)
                if owner_ek is not None and (owner_ek.naming == "article" or quoted):
                    owner = self.entity(owner_kind, cell)  # "from the Back Door Lock", "in the Kitchen"
                elif owner_ek is not None and owner_ek.label == "handle":
                    owner = f"@{owner}"  # a handle as people write one: "the comment 'Love this!' from @leer"
                if owner_kind and self.index.every.get(owner_kind, {}).get(cell, {}).get("is_me") == 1:
                    words = "of mine"  # the user's own message, not "from <the user's own name>"
                elif column in links:
                    words = f"{links[column]} {owner}"
                elif owner_kind and self._phrase(self.server.entities.get(owner_kind), cell):
                    words = f"in {self.entity(owner_kind, cell)}"  # "in the DM with Camila Williams"
                elif "folder" in column and not owner.startswith(("the ", "/")):
                    words = f"in the {owner} folder"  # "the email 'Q2 plan' in the Archive folder"
                elif any(w in column for w in _PLACES):
                    words = f"in {owner}"
                elif quoted and self.entity_noun(kind).split()[-1] in _OF:
                    words = f"{_OF[self.entity_noun(kind).split()[-1]]} {owner}"
                else:  # a request the user sent is to Rafael Singh, one they got is from him
                    words = f"{'to' if row.get('direction') in ('outgoing', 'sent') else 'from'} {owner}"
                out.append((words, lambda r, c=column, v=cell: r.get(c) == v))
                continue
            if not isinstance(cell, str) or not cell or column.endswith("_id") or len(cell) > 40 \
                    or cell.lower() == label.lower():
                continue
            named = any(w in column for w in ("name", "from", "sender", "author", "owner", "merchant", "host"))
            dated = bool(DAY.match(cell[:10])) and column.endswith(("_at", "_on", "date", "_time"))
            if dated:  # "from March 10" must tell it from the others by day
                try:
                    days.append((f"from {day(date.fromisoformat(cell[:10]))}",
                                 lambda r, c=column, v=cell[:10]: str(r.get(c, ""))[:10] == v))
                except ValueError:
                    continue
                if len(cell) >= 16 and cell[11:16] != "00:00":  # two replies on one day: "at 9:15 AM"
                    times.append((f"from {human(cell[:16])}",
                                  lambda r, c=column, v=cell[:16]: str(r.get(c, ""))[:16] == v))
            elif named:
                out.append((f"from {cell}", lambda r, c=column, v=cell: r.get(c) == v))
        return out + days, times

    def said_by_id(self, entity_id: str) -> bool:
        """Whether a user can name this entity only by an ID a reply showed: it has no name and
        belongs to nothing named. A named thing is said by its name, and a public ID (an order
        number, a promo code) is one the user has without being shown it."""
        if self.index.named_kind(entity_id) is not None:
            return False  # named (a long name too) by its name; an order number the user has anyway
        return self.index.owner(next((k for k, rows in self.index.every.items() if entity_id in rows), ""),
                                entity_id) is None  # a nameless thing said by what it belongs to

    def label_anywhere(self, entity_id: str) -> str | None:
        for kind, labels in self.index.labels.items():
            found = self._label_of(kind, entity_id) if entity_id in labels else None
            if isinstance(found, str) and len(found) <= 40:
                return found
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
            return human([unsnake(v) if isinstance(v, str) else v for v in value]
                         if isinstance(value, list) else unsnake(value) if isinstance(value, str) else value)
        if isinstance(value, float) and not value.is_integer() and not is_money(name):
            return f"{value:g}"  # 70.5 degrees, not 70.50
        return human(value)

    def request(self, tool: Tool, ask: Ask, args: Mapping[str, Any], said: Mapping[str, str]) -> str:
        """An `Ask` with its slots filled from the call's arguments. A part said with what it is
        part of ("the Standard variant of the REI tent") drops that where another slot says it, and a
        thing told apart by its folder drops the folder where the phrasing's own words name it ("Rescue
        the email 'X' from the spam folder", not "the email 'X' in the Spam folder from the spam folder")."""
        said_as = {name: self.argument(tool, name, args.get(name), said.get(name)) for name in dict.fromkeys(ask.slots)}
        words = _SLOT.sub(" ", ask.text).lower()
        for name, text in said_as.items():
            other = next((o for n, o in said_as.items() if n != name and o and text.endswith(f" of {o}")), None)
            if other is not None:
                said_as[name] = text[: -len(f" of {other}")]
            folder = re.search(r" in the ([\w ]+) folder$", said_as[name])
            if folder is not None and re.search(rf"\b{re.escape(folder.group(1).lower())} folder\b", words):
                said_as[name] = said_as[name][:folder.start()]
        return _cap(self.fill(tool, ask.text, lambda name: said_as[name]))

    def fill(self, tool: Tool, template: str, say: Any) -> str:
        """Fill `{slot}`s with `say(slot)`, minding the words around them (see `tidy`)."""
        out: list[str] = []
        pos = 0
        for m in _SLOT.finditer(template):
            before = template[pos:m.start()]
            text = say(m.group(1))
            param = next((p for p in tool.params if p.name == m.group(1)), None)
            if param is not None and param.entity:
                ek = self.server.entities.get(param.entity)
                before = _drop_noun(before, self.entity_noun(param.entity), text,
                                    always=ek is not None and (ek.naming != "noun" or ek.noun_from is not None))
            out.append(before)
            out.append(text)
            pos = m.end()
        out.append(template[pos:])
        return tidy("".join(out))

    def reply(self, tool: Tool, template: str, args: Mapping[str, Any], data: Any,
              said: Mapping[str, str]) -> str:
        """A reply template filled from the call's arguments and its result."""

        def say(slot: str) -> str:
            head, _, path = slot.partition(".")
            if head != "result":  # an argument left out is its default, as `_fitting_replies` counts it
                return self.argument(tool, slot, args.get(slot, tool.defaults.get(slot)), said.get(slot))
            parent, _, field = path.rpartition(".")
            value = result_field(data, path) if path else data  # through a list: "{result.participants.name}"
            holder = (result_field(data, parent) if parent else data) if path else None
            if field.endswith("_name") and isinstance(holder, Mapping):  # "assigned to you", not to the user's name
                if self._names_me(holder, field):
                    return "you"
            if (field == "name" or field.endswith("_name")) and isinstance(holder, list) and isinstance(value, list) \
                    and len(value) == len(holder):  # "In the meeting right now: you and Adrian Gonzalez"
                value = ["you" if self._names_me(item, field) else v for item, v in zip(holder, value)]
            return self.result_value(tool, field, value)

        text = self.fill(tool, template, say)
        if _one_listed(data):
            text = _ORDER_OPENS.sub(r"\1Here's what I found: ", _ORDER_SAID.sub("", text))
        return _sentences(_agree(_one_currency(whole_units(spoken_to_user(text)))))

    def _names_me(self, item: Any, field: str) -> bool:
        """Whether a record's name field names the signed-in user (its `<x>_id`, or a person's own ID)."""
        if not isinstance(item, Mapping):
            return False
        keys = [field[: -len("_name")] + "_id"] if field.endswith("_name") else ["person_id", "user_id"]
        own = next((item[k] for k in keys if isinstance(item.get(k), str)), None)
        kind = self.index.named_kind(own) if own is not None else None
        return kind is not None and self._is_me(kind, own)

    def result_value(self, tool: Tool, field: str, value: Any) -> str:
        if isinstance(value, list):
            if not value:
                return "none"
            if all(isinstance(v, Mapping) for v in value):
                return str(len(value))
            return human([option_words(field, v) if isinstance(v, str) else v for v in value if v is not None])
        if value is None:
            return "none"
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return money(value) if is_money(field) else number(value, field)
        if isinstance(value, str):
            return human(option_words(field, value))  # an option's value: in_progress -> in progress
        return human(value)


_OF = {"offer": "on", "comment": "on", "link": "to", "entry": "on", "rating": "for", "invitation": "to",
       "reminder": "for", "participant": "in"}  # "the offer on the listing"
_PLACES = ("city", "folder", "channel", "calendar", "project", "list", "room", "board")
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_DAY = rf"{_MONTH} \d{{1,2}}(?:, \d{{4}})?"
_TIME = r"\d{1,2}:\d{2} [AP]M"


def _drop_noun(before: str, noun: str, rendered: str, always: bool = False) -> str:
    """Text before an entity slot without the noun the rendering already says.

    "in room {room_id}" with "the Entryway room" reads "in the Entryway room"; "the code {code}"
    with "promo code FREEDEL" reads "promo code FREEDEL". With `always` (a kind said by its name:
    "the place {place_id}" with "Sushi Moore") the noun goes whatever the rendering is.
    """
    last = noun.split()[-1]
    if not always and not rendered.lower().endswith(last) and last not in rendered.lower().split():
        return before
    trimmed = re.sub(rf"(?:\b(?:the|my|a|an|your|this|that) )?(?:{re.escape(noun)}|{re.escape(last)}) $", "", before,
                     flags=re.IGNORECASE)
    return trimmed


# A quote runs to the quote mark that ends it: an apostrophe inside ("team's", "Let's") does not.
_QUOTED = re.compile(r"((?:(?<=\s)|^)'(?:[^'\n]|'(?=[a-z]))+'(?=[\s.,;:!?)]|$))")


def tidy(text: str) -> str:
    """Mend what filling slots breaks: doubled articles, 'at March 3', 'a event'. A quoted value
    (a label, a message) is the user's words and stays as it is."""
    parts = _QUOTED.split(text)
    text = "".join(part if i % 2 else _mend(part) for i, part in enumerate(parts))
    text = re.sub(r"'([^'\s][^']*)''s\b", r"\1's", text)  # "the account 'kenji''s" -> "kenji's"
    text = re.sub(r"\bthe calendar '([A-Z][\w.-]*(?: [A-Z][\w.-]*)*'s calendar)'", r"\1", text)  # a colleague's
    return re.sub(r"([.!?])'\.(?=\s|$)", r"\1'", text)  # "to say 'Looking into it now.'." -> "... now.'"


def _mend(text: str) -> str:
    for pattern, replacement in _MENDS:
        text = pattern.sub(replacement, text)
    return text


def today_said(text: str, today: date) -> str:
    """A time on the conversation's own day, in what the assistant says, is today's: "last used
    today at 6:45 AM", "it should arrive around 9:54 AM today" (quotes kept as written)."""
    on = re.escape(day(today))
    parts = _QUOTED.split(text)
    for i in range(0, len(parts), 2):
        part = re.sub(rf"\b(around|by|until|since|before|after|till) (?:on )?{on},? at ({_TIME})", r"\1 \2 today", parts[i])
        parts[i] = re.sub(rf"\b([Oo]n )?{on},? at ({_TIME})",
                          lambda m: ("Today" if (m.group(1) or "").startswith("O") else "today") + f" at {m.group(2)}", part)
    return re.sub(r"\bnow today at\b", "now", "".join(parts))  # "and it is now 9:00 AM"


def full_spans(text: str) -> str:
    """A day said once for a span within it ("on March 20 from 1:00 PM to 2:00 PM") said in full
    again ("from March 20 at 1:00 PM to March 20 at 2:00 PM"), for tracing both ends back."""
    return re.sub(rf"\b[Oo]n ({_DAY}) (from|between) ({_TIME}) (to|and) ({_TIME})",
                  r"\2 \1 at \3 \4 \1 at \5", text, flags=re.IGNORECASE)


def whole_units(text: str) -> str:
    """A lead time that fills whole hours or days is said in them: "1440 minutes before" -> "1 day before"."""
    return re.sub(r"\b(\d[\d,]*) minutes(?= (?:before|ahead|early|earlier|in advance)\b)",
                  lambda m: span_of_minutes(int(m.group(1).replace(",", ""))), text)


# The order a listing is said in ("Your entries, newest first: ..."), said only of more than one.
_ORDER_SAID = re.compile(r",? (?:newest|oldest|nearest|cheapest|priciest|earliest|latest|best(?: rated)?|biggest|largest|"
                         r"highest|lowest|fastest|quickest|soonest|most [a-z]+) first\b(?=[:;,.)])")


_ORDER_OPENS = re.compile(r"(^|[.!?] )(?:Newest|Oldest|Nearest|Cheapest|Priciest|Earliest|Latest|Best rated|Biggest|"
                          r"Largest|Highest|Lowest|Fastest|Soonest|Quickest) first: ")


_COUNTS = "two three four five six seven eight nine ten eleven twelve".split()


def _counted_units(m: re.Match[str]) -> str:
    """'2 of the Stud Finder' -> '2 Stud Finders'; before a name that opens with a number, the count in
    words ('two 18-inch Foam Rollers'), or as it was where no word says it."""
    count, name, last = m.group(1), m.group(2), m.group(3)
    if name[:1].isdigit():
        if not 2 <= int(count) <= 12:
            return m.group(0)
        count = _COUNTS[int(count) - 2]
    return f"{count} {name}{last}{'es' if re.search(r'(?:x|ch|sh)$', last) else 's'}"

# What `_mend` mends, in this order: (pattern, replacement).
_MENDS: tuple[tuple[re.Pattern[str], Any], ...] = tuple((re.compile(pattern), replacement) for pattern, replacement in (
    (r"\bme's\b", "my"),  # "me's open deals" -> "my open deals"
    (r"(?<!\.)\.\.(?!\.)", "."),  # "Eggs & Co.." -> "Eggs & Co."
    (r"(?<=\w)!\.(?=\s|$)", "!"),  # "from Chuckit!." -> "from Chuckit!"
    (r"(?<![\d.,$])(\d[\d,]*\.\d\d) dollars\b", r"$\1"),  # "150.50 dollars" -> "$150.50"
    (r"\$(\d{5,})(?!\d)", lambda m: f"${int(m.group(1)):,}"),  # "$100000" -> "$100,000"
    (r"\b([Tt])he (that|this) ", lambda m: (m.group(2).capitalize() if m.group(1) == "T" else m.group(2)) + " "),
    (r"\b([Dd])oes me\b", lambda m: ("D" if m.group(1) == "D" else "d") + "o I"),
    (r"\bme (has|is)\b", lambda m: "I " + {"has": "have", "is": "am"}[m.group(1)]),
    (r"\b([Ww]hat|[Ww]ho) has me\b", r"\1 have I"),  # "What has me said about ..." -> "have I"
    (r"\b([Ww]hat|[Ww]here) me (wrote|said|posted|sent)\b", r"\1 I \2"),  # "what me wrote"
    (r"\b((?i:my|your|this|that)|the|a|an) (?:the|The) ", r"\1 "),
    (r"\b([Tt])hat that (issue|item|event|file|message|email|order|booking|task|deal|one)\b",
     r"\1hat the \2"),  # "record that that issue is blocked" -> "... that the issue ..."
    (r"\bthe The ", "The "),
    (r"\bthe ([A-Z][\w.-]*(?: [A-Z][\w.-]*)*'s calendar) calendar\b", r"\1"),  # a colleague's own
    (rf"\b([Ff]rom|[Bb]etween) ({_DAY}) at ({_TIME}) (to|and) \2 at ({_TIME})",
     lambda m: f"{'O' if m.group(1)[0].isupper() else 'o'}n {m.group(2)} {m.group(1).lower()} "
               f"{m.group(3)} {m.group(4)} {m.group(5)}"),  # one day is said once
    (rf"\b([Aa])t ({_MONTH} \d)", lambda m: ("On " if m.group(1) == "A" else "on ") + m.group(2)),
    # "a event" -> "an event"; a capital A opens a sentence ("A event" -> "An event"), or is a name's ("Class A is")
    (r"(?:\b(a)|(?:^|(?<=[.!?] ))(A)) (?!one\b|once\b|one-)([aeioAEIO]\w)",
     lambda m: f"{m.group(1) or m.group(2)}n {m.group(3)}"),
    # "put 1 of the Trimmer on hold" -> "put one Trimmer on hold" (but "line 1 of the file" stays)
    (r"\b([Pp]ut|[Aa]dd|[Rr]eserve|[Hh]old|holding|[Mm]ove|[Ss]end|[Tt]ransfer|[Tt]ake|[Bb]uy|[Oo]rder|"
     r"[Rr]equested:|[A-Za-z]+ed) 1 of the (?!items?\b)", r"\1 one "),
    (r"(?<![\d.,$-])\b1 of them\b", "one of them"),
    (r" in the Trash folder (?=from the trash\b)", " "),  # said once: "... 'Hi' from the trash"
    # "Reserve 2 of the Stud Finder at ..." -> "Reserve 2 Stud Finders at ..." (not a name that ends in a
    # size or a kind, nor one in an "s" or a "y": "Tacos", "Battery"; of three letters, only a thing one counts:
    # "Glue Gun", not "Pho Tai" or "5th Gen"); a name may hold an "and": "2 Shampoo and Conditioner Sets"
    # A name that opens with a number has the count in words ("two 18-inch Foam Rollers"), up to twelve.
    (r"(?<![\d.,$-])\b((?!1 )\d+) of the ((?:(?:[A-Z0-9][\w'&./-]*|(?<=[a-z] )and|"
     r"(?<=\d )(?:in|ft|oz|qt|lb|mm|cm)) )*)"
     r"([A-Z][a-z]{2,}[a-rt-xz]|Amp|Bag|Bed|Box|Bun|Car|Cup|Fan|Gun|Jar|Kit|Mat|Mug|Pan|Pen|Pit|Saw|Set)"
     r"\b(?![\w'-])"
     r"(?= (?:from|to|in|at|on|for|into|over|back|off)\b| \(|[.,;:?!)]|$)", _counted_units),
    (r"(?<![\d.,$-])\b1 people\b", "1 person"),  # "1 shares" -> "1 share"
    (r"(?<![\d.,$-])\b1 ([a-z]+)ies\b", r"1 \1y"),  # "1 entries" -> "1 entry"
    (r"(?<![\d.,$-])\b1 ([a-z]+(?:ch|sh|ss|x))es\b", r"1 \1"),  # "1 matches" -> "1 match"
    (r"(?<![\d.,$-])\b1 ([a-z]+[^s'])s\b", r"1 \1"),
    (r"(?<![\d.,$-])\b1 (unread|new|open|upcoming|pending|other|active|[a-z]+ed) ([a-z]+[^s'])s\b",
     r"1 \1 \2"),  # "1 planned sprints" -> "1 planned sprint"
    (r"(?<![\d.,$-])\b(1 [a-z]+(?: [a-z]+)?), (?:newest|oldest|latest) first\b", r"\1"),  # one has no order
    # (a thing from a day moved to a time that day keeps both: "move the meeting 'X' from March 20 to March 20 at 1:00 PM")
    (rf"\b([Bb]etween|[Ff]rom) ({_DAY}) (?:and|to|through|until) \2\b(?!,? at )",
     lambda m: ("On " if m.group(1)[0].isupper() else "on ") + m.group(2)),  # "between March 23 and March 23"
    (r"(?<![\d.,$-])\b1 ([a-z]+) were\b", r"1 \1 was"),  # "1 line were added" -> "was"
    (r"\b(has|have|had|matched|removed|with|and) 0 ([a-z]+s)\b", r"\1 no \2"),  # "It has 0 likes"
    (r"(?<![\d.,$-])\b1 ([a-z]+) are\b", r"1 \1 is"),  # "1 person are in" -> "is"
))


def _one_listed(data: Any) -> bool:
    """Whether a result lists records and holds at most one of them (and no more beyond its page)."""
    if not isinstance(data, Mapping):
        return False
    listed = [v for v in data.values() if isinstance(v, list) and all(isinstance(x, Mapping) for x in v)]
    total = data.get("total")
    return bool(listed) and all(len(v) <= 1 for v in listed) and not (isinstance(total, int) and total > 1)


# "me" and "my" as words, never as parts of an address ("fiona@proton.me", "my.example.com").
_WORD_ALONE = r"(?<![\w.@-])"
_NO_DOMAIN = r"(?![.@-]\w)"


def spoken_to_user(text: str) -> str:
    """A reply speaks to the user: the "me" a request calls the user is "you" (quotes kept), and
    "the message 'X' of mine" is "your message 'X'"."""
    text = re.sub(rf"\bthe ([a-z]+) ({_QUOTED.pattern[1:-1]}) of mine\b", r"your \1 \2", text)
    parts = _QUOTED.split(text)
    return "".join(part if i % 2 else re.sub(rf"{_WORD_ALONE}my\b{_NO_DOMAIN}", "your",
                                             re.sub(rf"{_WORD_ALONE}me\b{_NO_DOMAIN}", "you", part.replace(" of mine", " of yours")))
                   for i, part in enumerate(parts))


def _one_currency(text: str) -> str:
    """A template's own "$" or "dollars" around a slot that already reads as money says it once,
    and with its cents ("$62,749.70", not "$62,749.7")."""
    text = re.sub(r"\$(-?)\$", r"\1$", text)
    text = re.sub(r"\$-\$?", "-$", text)
    text = re.sub(r"(\$[\d,]+\.\d)(?!\d)", r"\g<1>0", text)
    text = re.sub(r"\$(\d{4,})(?=[.\d]|\b)", lambda m: f"${int(m.group(1)):,}", text)  # "$1200.50" -> "$1,200.50"
    return re.sub(r"(-?\$[\d,]+(?:\.\d+)?) dollars\b", r"\1", text)


# The last words of names of things that come in pairs or sets: "the Office Blinds are open".
_PLURAL_HEADS = ("Blinds", "Lights", "Shades", "Curtains", "Speakers", "Lamps", "Sensors", "Cameras", "Plugs",
                 "Grandparents", "Parents", "Neighbors")


_YOU_VERB = {"has": "have", "is": "are", "was": "were"}


def _agree(text: str) -> str:
    """A verb after a plural name agrees with it; "none" before a plural noun reads "no"."""
    heads = "|".join(_PLURAL_HEADS)
    text = re.sub(rf"\b({heads})('?) is\b", r"\1\2 are", text)
    text = re.sub(rf"\b({heads})('?) has\b", r"\1\2 have", text)
    text = re.sub(r"\b([Yy]ou) (has|is|was)\b", lambda m: m.group(1) + " " + _YOU_VERB[m.group(2)], text)
    text = re.sub(r"\bleaving -(\$[\d,]+(?:\.\d+)?)", r"over by \1", text)  # "leaving -$21.53"
    text = re.sub(r"\bnone people\b", "nobody", text)
    text = re.sub(r"\bnobody (are|were|have)\b", lambda m: "nobody " + {"are": "is", "were": "was", "have": "has"}[m.group(1)],
                  text)
    text = re.sub(r"(?<![\d.,$-])\b0 of them\b", "none of them", text)  # "14 issues, 0 of them overdue"
    return re.sub(r"\bnone (?!(?:this|thus|does|goes|less|unless|yes)\b)([a-z]{3,}s)\b", r"no \1", text)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


_ABBREVIATIONS = ("Co.", "Bros.", "Inc.", "Ltd.", "Corp.", "St.", "Ave.", "Dr.", "Mr.", "Mrs.", "Ms.", "Jr.", "Sr.", "vs.",
                  "e.g.", "i.e.", "etc.", "approx.", "No.")


def _sentences(text: str) -> str:
    """Capitalise the start of each sentence (a slot may begin one with 'the ...'), not the word
    after an abbreviation ("Harlem Pizza Co. delivers")."""
    def cap(m: re.Match[str]) -> str:
        before = text[:m.start(2)].rstrip()
        if m.group(1).strip() and before.endswith(_ABBREVIATIONS):
            return m.group(0)
        if re.match(r"[a-z]+[A-Z]", text[m.start(2):]):
            return m.group(0)  # a name written so: "nuLOOM", "iPhone"
        return m.group(1) + m.group(2).upper()

    return re.sub(r"(^|[.!?]\s+)([a-z])", cap, text)
