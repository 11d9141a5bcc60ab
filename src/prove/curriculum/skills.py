"""What a skill is: the structure of an example that a policy can be good or bad at.

A skill is (server, tool, length, depth, kind): the server of the episode, the tool its chain
starts from, the chain's length, the dependency depth of its gold calls (the longest path along
their `after` edges) and its kind. These are what synthesis can be steered by (`synth.Target`
fixes the server, the first tool, the length and the kind; the depth follows from the chain),
so a skill found at the policy's boundary can be asked for again. Examples without calls
(abstentions, irrelevance) have no tool, length or depth.

A curriculum may count skills coarser than that (`project`): fields left out become None and
match anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from ..records import Example
from ..synth import Target

__all__ = ["FIELDS", "MAX_DEPTH", "MAX_LENGTH", "Skill", "depth", "project", "skill_of"]

FIELDS: tuple[str, ...] = ("server", "tool", "length", "depth", "kind")
MAX_LENGTH = 5   # longer chains count as 5
MAX_DEPTH = 4    # deeper dependency chains count as 4


@dataclass(frozen=True)
class Skill:
    """One skill; a field that is None is not counted (see `project`)."""

    server: str
    tool: str | None = None
    length: int | None = None
    depth: int | None = None
    kind: str | None = None

    @property
    def key(self) -> str:
        """A stable text form, such as `banking/pay_payee/L3/D2/multi_turn` (`*`: not counted)."""
        def part(v: Any, prefix: str = "") -> str:
            return "*" if v is None else f"{prefix}{v}" if v != "" else "-"
        return "/".join([self.server, part(self.tool), part(self.length, "L"), part(self.depth, "D"),
                         part(self.kind)])

    def target(self) -> Target:
        """What to ask the synthesizer for to get more of this skill."""
        return Target(self.server, tool=self.tool or None, length=self.length or None, kind=self.kind)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def depth(calls: Sequence[Mapping[str, Any]]) -> int:
    """The longest path along `after` edges, in calls (0 without calls, 1 for independent calls)."""
    level: dict[str, int] = {}
    for call in calls:
        level[call["id"]] = 1 + max((level.get(a, 0) for a in call.get("after") or []), default=0)
    return max(level.values(), default=0)


def skill_of(example: Example | Mapping[str, Any]) -> Skill:
    """The full skill of an example (a record or its plain dict)."""
    data = example.model_dump(mode="json", exclude_none=True) if isinstance(example, Example) else example
    calls = [c for t in data.get("turns") or [] for c in t.get("calls") or []]
    server = "+".join(data.get("servers") or [])
    kind = data.get("kind") or "multi_turn"
    if not calls:
        return Skill(server, "", 0, 0, kind)
    chain = (data.get("meta") or {}).get("chain") or []
    if chain:
        tool, length = str(chain[0]), len(chain)
    else:  # a record from elsewhere: its first gold call, its distinct tools
        tool, length = calls[0]["name"], len({c["name"] for c in calls})
    return Skill(server, tool, min(length, MAX_LENGTH), min(depth(calls), MAX_DEPTH), kind)


def project(skill: Skill, by: Iterable[str]) -> Skill:
    """`skill` counted by the fields in `by` only (the server always counts)."""
    keep = set(by) | {"server"}
    unknown = keep - set(FIELDS)
    if unknown:
        raise ValueError(f"unknown skill field(s) {sorted(unknown)}; the fields are {', '.join(FIELDS)}")
    return replace(skill, **{f: None for f in FIELDS if f not in keep})
