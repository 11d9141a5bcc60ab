"""The buffer a trainer draws from: a fixed number of slots, and the mixing rule that no skill holds
more than `per_skill` of them.

The slots stay filled (a trainer's dataset has a fixed length): an example leaves only when
another takes its slot. Seed examples that do not fit wait in a reserve, per skill, in an order
drawn from the seed; examples sent back (parked, evicted) join the end of their skill's queue.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .skills import Skill
from .stats import Tally

__all__ = ["Buffer", "Entry"]


@dataclass
class Entry:
    """One example in play: its record (a plain dict), its skill, where it came from and its groups."""

    id: str
    record: dict[str, Any]
    skill: Skill
    origin: str        # "seed" or "generated"
    added: int         # the step it was made (0: the seed data)
    tally: Tally = field(default_factory=Tally)


class Buffer:
    """`size` slots holding entries, at most `per_skill` of one skill, and the reserve of the others."""

    def __init__(self, entries: Sequence[Entry], capacity: int, per_skill: int, rng: random.Random) -> None:
        self.per_skill = per_skill
        by_skill: dict[Skill, list[Entry]] = {}
        for e in entries:
            by_skill.setdefault(e.skill, []).append(e)
        order = sorted(by_skill, key=lambda s: s.key)
        rng.shuffle(order)
        for s in order:
            rng.shuffle(by_skill[s])
        self.reserve: dict[Skill, deque[Entry]] = {s: deque(by_skill[s]) for s in order}
        # Round robin over the skills until the buffer is full or every skill is at its cap.
        self.slots: list[Entry] = []
        self._counts: Counter[Skill] = Counter()
        while len(self.slots) < capacity:
            took = False
            for s in order:
                if len(self.slots) >= capacity:
                    break
                if self.reserve[s] and self._counts[s] < per_skill:
                    self._put(self.reserve[s].popleft())
                    took = True
            if not took:
                break
        self._where = {e.id: i for i, e in enumerate(self.slots)}

    def _put(self, e: Entry) -> None:
        self.slots.append(e)
        self._counts[e.skill] += 1

    def __len__(self) -> int:
        return len(self.slots)

    def __getitem__(self, slot: int) -> Entry:
        return self.slots[slot]

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.slots)

    def count(self, skill: Skill) -> int:
        return self._counts[skill]

    def slot_of(self, example_id: str) -> int | None:
        return self._where.get(example_id)

    def can_take(self, skill: Skill, slot: int) -> bool:
        """Whether `skill` may take `slot` under the mixing rule (the slot's own entry leaving)."""
        return self._counts[skill] - (self.slots[slot].skill == skill) < self.per_skill

    def replace(self, slot: int, entry: Entry) -> Entry:
        """Put `entry` in `slot`; the entry it held is returned (the caller decides where it goes)."""
        if not self.can_take(entry.skill, slot):
            raise ValueError(f"skill {entry.skill.key} is at its cap of {self.per_skill}")
        old = self.slots[slot]
        self._counts[old.skill] -= 1
        del self._where[old.id]
        self.slots[slot] = entry
        self._counts[entry.skill] += 1
        self._where[entry.id] = slot
        return old

    def give_back(self, entry: Entry) -> None:
        """An entry to the end of its skill's reserve queue."""
        self.reserve.setdefault(entry.skill, deque()).append(entry)

    def take(self, skill: Skill) -> Entry | None:
        queue = self.reserve.get(skill)
        return queue.popleft() if queue else None

    def waiting(self, skill: Skill) -> int:
        return len(self.reserve.get(skill) or ())

    def mix(self) -> Counter[str]:
        """Entries per skill key."""
        return Counter({s.key: n for s, n in self._counts.items() if n})
