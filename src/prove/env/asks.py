"""How a person asks for a tool call: phrasings whose words carry their meaning.

An `Ask` is a phrasing with `{param}` slots and the argument values its words fix:

    Ask("Forward {message_id} to {to} without the attachments.", include_attachments=False)
    Ask("Decline the invitation to {event_id}.", response="declined")

An `Ask` may also say which of its entities its words fit (`fits`, an SQL condition on the
entity's row per slot), where the words speak of what the thing is: "I work at {place_id} now"
fits a workplace, not an apartment building:

    Ask("I work at {place_id} now.", label="work", fits={"place_id": "category != 'residential'"})

A request written from an `Ask` and its gold call can never disagree: the teacher uses a phrasing
only for a call whose arguments equal its bindings, fills its slots from the call, and sets no
optional argument that neither the phrasing nor the conversation asks for. `problems` is the
conformance check: a phrasing that leaves a required argument unsaid, or whose words name an
option (an enum value, a boolean's subject) that it neither slots nor binds, is a defect.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["Ask", "as_ask", "bool_words", "problems", "result_field", "words_in"]

_SLOT = re.compile(r"\{([^{}]*)\}")
_WORD = re.compile(r"[a-z0-9]+")


class Ask:
    """One phrasing of a request, and the argument values its words imply (see the module doc)."""

    __slots__ = ("binds", "fits", "text")

    def __init__(self, text: str, /, fits: Mapping[str, str] | None = None, **binds: Any) -> None:
        self.text = text
        self.binds: dict[str, Any] = dict(binds)
        self.fits: dict[str, str] = dict(fits or {})

    @property
    def slots(self) -> list[str]:
        """The `{param}` slots, in order of appearance."""
        return _SLOT.findall(self.text)

    @property
    def covers(self) -> set[str]:
        """The parameters this phrasing says something about: its slots and its bindings."""
        return set(self.slots) | set(self.binds)

    def agrees(self, arguments: Mapping[str, Any], result: Any = None) -> bool:
        """Whether a call's arguments hold every binding of this phrasing, and its result every
        `result.` binding of a reply (without a result, those may yet hold)."""
        for name, value in self.binds.items():
            if name.startswith("result."):
                if result is not None and result_field(result, name[len("result."):]) != value:
                    return False
            elif name not in arguments or arguments[name] != value:
                return False
        return True

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "binds": dict(self.binds)}

    def _key(self) -> tuple[str, str, str]:
        return self.text, repr(sorted(self.binds.items())), repr(sorted(self.fits.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ask) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        binds = "".join(f", {k}={v!r}" for k, v in self.binds.items())
        fits = f", fits={self.fits!r}" if self.fits else ""
        return f"Ask({self.text!r}{fits}{binds})"


def result_field(data: Any, path: str) -> Any:
    """The field of a result at a dotted path ("booking.summary"), or None where it has none; through
    a list, the field of each item ("participants.name": every participant's name)."""
    for part in path.split("."):
        if isinstance(data, list):
            data = [item.get(part) for item in data if isinstance(item, Mapping)]
        else:
            data = data.get(part) if isinstance(data, Mapping) else None
    return data


def as_ask(phrase: str | Ask) -> Ask:
    return phrase if isinstance(phrase, Ask) else Ask(phrase)


def words_in(text: str) -> list[str]:
    """Lower-case words of a text with its `{slots}` removed (slot names are not words a user says)."""
    return _WORD.findall(_SLOT.sub(" ", text).lower().replace("'", ""))


# Words that name a boolean's subject without saying anything about its value.
_GENERIC = {"include", "includes", "is", "has", "set", "use", "with", "only", "allow", "enable", "enabled",
            "show", "the", "and", "for", "all", "new", "to", "of", "as", "auto", "do", "be", "by", "send"}
# Words that, said in a request, speak to a boolean of that name (both of its values).
_TOGGLES = {
    "on": {"on", "off"}, "enabled": {"enable", "disable", "enabled", "disabled", "on", "off"},
    "active": {"activate", "deactivate", "active", "inactive"}, "locked": {"lock", "unlock", "locked", "unlocked"},
    "muted": {"mute", "unmute", "muted", "unmuted"}, "read": {"read", "unread"}, "open": {"open", "close", "closed"},
    "public": {"public", "private"}, "pinned": {"pin", "unpin", "pinned", "unpinned"},
    "starred": {"star", "unstar", "starred", "unstarred"}, "favorite": {"favorite", "unfavorite", "favourite"},
    "archived": {"archive", "unarchive", "archived"}, "visible": {"show", "hide", "visible", "hidden"},
}


def bool_words(param: str) -> set[str]:
    """Words that, said in a request, speak of a boolean parameter of this name."""
    parts = param.split("_")
    found = set(_TOGGLES.get(param, ()))
    for part in parts:
        if len(part) >= 3:  # 'on' in 'mute_on_entry' says nothing about on/off
            found |= _TOGGLES.get(part, set())
        if len(part) >= 3 and part not in _GENERIC:
            found.add(part)
    return found


def _enum_phrases(values: Iterable[Any]) -> list[tuple[Any, list[str]]]:
    return [(v, words_in(str(v).replace("_", " ").replace("-", " "))) for v in values if isinstance(v, str)]


def _contains(words: list[str], seq: list[str]) -> bool:
    n = len(seq)
    return n > 0 and any(words[i:i + n] == seq for i in range(len(words) - n + 1))


def problems(ask: Ask, params: Mapping[str, tuple[bool, dict[str, Any]]], *, reply: bool = False) -> list[str]:
    """What is wrong with a phrasing, given the tool's parameters: name -> (required, JSON schema).

    - every required parameter is a slot or a binding (not asked of a `reply`, which may leave
      arguments unsaid);
    - an enum parameter that the words name by one of its values is slotted or bound;
    - a boolean parameter whose subject the words name ("without the attachments", "don't block
      the sender", "switch it off") is bound.
    """
    found = []
    covered = ask.covers
    for name, (required, _) in params.items():
        if required and not reply and name not in covered:
            found.append(f"{ask.text!r} leaves the required {name!r} unsaid (slot it or bind it)")
    words = words_in(ask.text)
    for name, (_, schema) in params.items():
        if name in covered:
            continue
        if schema.get("type") == "boolean":
            named = sorted(w for w in bool_words(name) if w in words)
            if named:
                found.append(f"{ask.text!r} speaks of {name!r} ({', '.join(named)}) but does not bind it")
            continue
        values = schema.get("enum") or (schema.get("items", {}) or {}).get("enum") or ()
        for value, seq in _enum_phrases(values):
            if _contains(words, seq):
                found.append(f"{ask.text!r} names {value!r} of {name!r} but does not bind it")
                break
    return found
