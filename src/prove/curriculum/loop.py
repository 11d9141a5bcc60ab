"""The online curriculum: group rewards in, a buffer that moves with the policy out.

Each training step a trainer reports its groups (`update([(example_id, rewards), ...])`):

1. every group updates its example's and its skill's running figures (`stats`);
2. the boundary is the skills whose groups disagree or whose success rate is near 0.5;
3. saturated examples (solved by every rollout, `retire_after` times in a row) are retired and
   stuck ones (failed every time, `park_after` times) go back to the reserve;
4. the generator writes up to `generate_per_step` new examples for boundary skills, most
   variable first and in turn, never past a skill's cap; they take the freed slots, else the
   slots of measured examples of skills off the boundary that carry the least signal;
5. slots still free are refilled from the reserve: boundary skills first, then skills not yet
   measured, then the rest by how near their success rate is to 0.5. A slot nothing can take
   keeps its example.

Everything is drawn from RNGs seeded by the config's seed, and the order of every choice is
fixed (skill keys break ties), so the same seed examples, config and reward stream give the
same buffer. Each step returns (and, with `log`, appends to a JSONL file) a record of the skill
mix drawn, the boundary, and the counts generated, retired, parked and evicted.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..env.errors import ProveError
from ..records import Example
from .buffer import Buffer, Entry
from .config import CurriculumConfig
from .generate import Generator
from .skills import Skill, project, skill_of
from .stats import Tally, group, on_boundary

__all__ = ["Curriculum", "CurriculumError"]


class CurriculumError(ProveError):
    """A curriculum cannot start or go on (no seed examples, repeated ids, a trainer hook misused)."""


def _plain(example: Example | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(example, Example):
        return example.model_dump(mode="json", exclude_none=True)
    return Example.model_validate(example).model_dump(mode="json", exclude_none=True)


class Curriculum:
    """A bounded, skill-capped buffer of examples driven by group rewards (see the module docstring)."""

    def __init__(self, examples: Iterable[Example | Mapping[str, Any]], config: CurriculumConfig | None = None,
                 *, generator: Generator | None = None, log: Path | str | None = None) -> None:
        self.config = config or CurriculumConfig()
        records = [_plain(e) for e in examples]
        ids = [r["id"] for r in records]
        if len(set(ids)) != len(ids):
            raise CurriculumError("the seed examples repeat an id")
        if not records:
            raise CurriculumError("a curriculum needs seed examples")
        self.skills: dict[Skill, Tally] = {}
        self.known: dict[str, Skill] = {}
        entries = [self._entry(r, "seed", 0) for r in records]
        self.buffer = Buffer(entries, self.config.capacity, self.config.per_skill,
                             random.Random(f"{self.config.seed}:fill"))
        self.generator = generator
        if generator is not None:
            generator.prime(records)
        self.step = 0
        self.totals: Counter[str] = Counter()
        self._epoch = -1
        self._order: list[int] = []
        self._cursor = 0
        self.log = Path(log) if log is not None else None
        if self.log is not None:
            self.log.parent.mkdir(parents=True, exist_ok=True)
            self.log.write_text("")

    def _entry(self, record: dict[str, Any], origin: str, step: int) -> Entry:
        skill = project(skill_of(record), self.config.skill_by)
        self.known[record["id"]] = skill
        return Entry(record["id"], record, skill, origin, step)

    # ----- drawing -------------------------------------------------------------------------------

    def draw(self, n: int) -> list[Entry]:
        """The next `n` entries: the slots in an order redrawn (from the seed) on every pass."""
        out = []
        while len(out) < n:
            if self._cursor >= len(self._order):
                self._epoch += 1
                self._order = list(range(len(self.buffer)))
                random.Random(f"{self.config.seed}:draw:{self._epoch}").shuffle(self._order)
                self._cursor = 0
            out.append(self.buffer[self._order[self._cursor]])
            self._cursor += 1
        return out

    # ----- the boundary ----------------------------------------------------------------------------

    def boundary(self) -> list[Skill]:
        """Skills on the boundary, the most variable first."""
        found = [s for s, t in self.skills.items() if on_boundary(t, self.config)]
        return sorted(found, key=lambda s: (-self.skills[s].variance, s.key))

    # ----- one step ----------------------------------------------------------------------------

    def update(self, groups: Iterable[tuple[str, Sequence[float]]]) -> dict[str, Any]:
        """One training step's groups, as (example id, rewards of its rollouts); returns the step's record."""
        cfg = self.config
        self.step += 1
        drawn: Counter[str] = Counter()
        variances: list[float] = []
        means: list[float] = []
        unknown = 0
        for example_id, rewards in groups:
            skill = self.known.get(example_id)
            if skill is None or not rewards:
                unknown += 1
                continue
            g = group(rewards, cfg.success_at)
            self.skills.setdefault(skill, Tally()).add(g, cfg)
            slot = self.buffer.slot_of(example_id)
            if slot is not None:
                self.buffer[slot].tally.add(g, cfg)
            drawn[skill.key] += g.n
            variances.append(g.variance)
            means.append(g.mean)
        boundary = self.boundary()
        on = set(boundary)
        counts: Counter[str] = Counter()
        # Slots to free: saturated examples, then stuck ones.
        leaving: dict[int, str] = {}
        for i, e in enumerate(self.buffer):
            if e.tally.solved_run >= cfg.retire_after:
                leaving[i] = "retired"
        for i, e in enumerate(self.buffer):
            if i not in leaving and e.tally.failed_run >= cfg.park_after:
                leaving[i] = "parked"
        rejected: Counter[str] = Counter()
        for entry in self._generate(boundary, leaving, counts, rejected):
            slot = self._slot_for(entry, leaving, on)
            if slot is None:
                self.buffer.give_back(entry)
                counts["waiting"] += 1
                continue
            self._leave(slot, entry, leaving.pop(slot, "evicted"), counts)
        for slot in sorted(leaving):
            entry = self._from_reserve(slot, boundary)
            if entry is None:
                counts["kept"] += 1
                continue
            self._leave(slot, entry, leaving[slot], counts)
        self.totals.update({k: counts[k] for k in ("generated", "retired", "parked", "evicted", "attempts")})
        record = self._record(drawn, variances, means, unknown, boundary, counts, rejected)
        if self.log is not None:
            with open(self.log, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(record, sort_keys=True) + "\n")
        return record

    def _generate(self, boundary: list[Skill], leaving: Mapping[int, str], counts: Counter[str],
                  rejected: Counter[str]) -> list[Entry]:
        """New examples for boundary skills: one per skill in turn, most variable first, caps kept."""
        cfg = self.config
        if self.generator is None or not cfg.generate_per_step:
            return []
        freed = Counter(self.buffer[i].skill for i in leaving)
        made: Counter[Skill] = Counter()
        out: list[Entry] = []
        queue = list(boundary)
        while queue and len(out) < cfg.generate_per_step:
            for skill in list(queue):
                if len(out) >= cfg.generate_per_step:
                    break
                if self.buffer.count(skill) - freed[skill] + made[skill] >= cfg.per_skill:
                    queue.remove(skill)
                    continue
                got = self.generator.generate(skill, cfg.attempts)
                counts["attempts"] += got.tried
                rejected.update(got.rejected)
                if got.record is None:
                    queue.remove(skill)   # this skill gives nothing this step
                    continue
                made[skill] += 1
                counts["generated"] += 1
                out.append(self._entry(got.record, "generated", self.step))
        return out

    def _slot_for(self, entry: Entry, leaving: Mapping[int, str], on: set[Skill]) -> int | None:
        """A freed slot the entry may take, else the measured slot off the boundary with the least signal."""
        for slot in sorted(leaving):
            if self.buffer.can_take(entry.skill, slot):
                return slot
        weakest = [(e.tally.variance, -e.tally.groups, i) for i, e in enumerate(self.buffer)
                   if i not in leaving and e.tally.groups and e.skill not in on
                   and self.buffer.can_take(entry.skill, i)]
        return min(weakest)[2] if weakest else None

    def _from_reserve(self, slot: int, boundary: list[Skill]) -> Entry | None:
        """The reserve's best entry for a freed slot (see the module docstring, step 5)."""
        on = set(boundary)
        unmeasured = sorted((s for s in self.buffer.reserve if s not in self.skills), key=lambda s: s.key)
        rest = sorted((s for s in self.buffer.reserve if s in self.skills and s not in on),
                      key=lambda s: (abs(self.skills[s].success - 0.5), s.key))
        for skill in [*boundary, *unmeasured, *rest]:
            if not self.buffer.waiting(skill) or not self.buffer.can_take(skill, slot):
                continue
            return self.buffer.take(skill)
        return None

    def _leave(self, slot: int, entry: Entry, why: str, counts: Counter[str]) -> None:
        old = self.buffer.replace(slot, entry)
        counts[why] += 1
        if why != "retired":   # parked and evicted examples may come back later
            old.tally.failed_run = 0
            self.buffer.give_back(old)

    def _record(self, drawn: Counter[str], variances: list[float], means: list[float], unknown: int,
                boundary: list[Skill], counts: Counter[str], rejected: Counter[str]) -> dict[str, Any]:
        mix = self.buffer.mix()
        servers: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        for e in self.buffer:
            servers[e.skill.server] += 1
            kinds[e.skill.kind or "*"] += 1
        return {
            "step": self.step, "groups": len(variances), "rollouts": sum(drawn.values()), "unknown": unknown,
            "mean_reward": round(sum(means) / len(means), 6) if means else None,
            "mean_variance": round(sum(variances) / len(variances), 6) if variances else None,
            "drawn": dict(sorted(drawn.items())),
            "boundary": len(boundary), "boundary_skills": [s.key for s in boundary],
            "boundary_rollouts": sum(drawn[s.key] for s in boundary),
            "generated": counts["generated"], "attempts": counts["attempts"], "rejected": dict(sorted(rejected.items())),
            "retired": counts["retired"], "parked": counts["parked"], "evicted": counts["evicted"],
            "kept": counts["kept"], "waiting": counts["waiting"],
            "buffer": {"size": len(self.buffer), "skills": len(mix), "largest_skill": max(mix.values(), default=0),
                       "generated": sum(e.origin == "generated" for e in self.buffer),
                       "servers": dict(sorted(servers.items())), "kinds": dict(sorted(kinds.items()))},
            "totals": dict(sorted(self.totals.items())),
        }

    # ----- state -----------------------------------------------------------------------------

    def digest(self) -> str:
        """A hash of the buffer, the reserve and every running figure: equal states, equal digests."""
        state = {
            "slots": [[e.id, e.origin, e.added, e.tally.to_dict(), e.tally.solved_run, e.tally.failed_run]
                      for e in self.buffer],
            "reserve": {s.key: [e.id for e in q] for s, q in sorted(self.buffer.reserve.items(), key=lambda x: x[0].key)},
            "skills": {s.key: t.to_dict() for s, t in sorted(self.skills.items(), key=lambda x: x[0].key)},
            "step": self.step, "totals": dict(sorted(self.totals.items())),
        }
        return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()
