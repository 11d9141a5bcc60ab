"""The buffer's bounds and mixing rule hold at every step; the same seed and reward stream give the same buffer."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from prove.curriculum import Curriculum, CurriculumConfig, CurriculumError, Entry, project, skill_of
from prove.records import Example

from .conftest import generator


def _stream(cur: Curriculum, steps: int, seed: int, prompts: int = 8, rollouts: int = 4) -> list[dict]:
    """A reward stream from a fixed hidden success rate per skill (seeded), with the curriculum's own draws."""
    rng = random.Random(seed)
    rate: dict[str, float] = {}
    records = []
    for _ in range(steps):
        groups = []
        for e in cur.draw(prompts):
            q = rate.setdefault(e.skill.key, rng.choice([0.0, 0.5, 1.0, rng.random()]))
            groups.append((e.id, [float(rng.random() < q) for _ in range(rollouts)]))
        records.append(cur.update(groups))
    return records


def _check(cur: Curriculum, cfg: CurriculumConfig, size: int) -> None:
    assert len(cur.buffer) == size <= cfg.capacity
    counts = Counter(e.skill for e in cur.buffer)
    assert max(counts.values()) <= cfg.per_skill
    assert len({e.id for e in cur.buffer}) == size          # no example twice
    waiting = [e.id for q in cur.buffer.reserve.values() for e in q]
    assert not set(waiting) & {e.id for e in cur.buffer}


def test_bounds_and_mixing_rule_hold_while_the_buffer_moves(seeds: list[Example]) -> None:
    cfg = CurriculumConfig(seed=1, capacity=32, max_share=0.125, skill_by=["server", "tool", "kind"],
                           generate_per_step=4, min_groups=1)
    cur = Curriculum(seeds, cfg, generator=generator())
    size = len(cur.buffer)
    assert size == 32 and cfg.per_skill == 4
    # The first fill takes the skills in turn: as many skills as the slots allow.
    skills = {project(skill_of(ex), cfg.skill_by) for ex in seeds}
    assert len(cur.buffer.mix()) == min(32, len(skills))
    _check(cur, cfg, size)
    records = _stream(cur, 12, seed=5)
    for r in records:
        assert r["buffer"]["size"] == size and r["buffer"]["largest_skill"] <= cfg.per_skill
    totals = records[-1]["totals"]
    assert totals["generated"] > 0 and totals["retired"] + totals["parked"] > 0
    assert sum(e.origin == "generated" for e in cur.buffer) > 0
    _check(cur, cfg, size)
    assert all(e.added > 0 for e in cur.buffer if e.origin == "generated")


def test_a_skill_at_its_cap_is_not_given_more(seeds: list[Example]) -> None:
    cfg = CurriculumConfig(capacity=16, max_share=0.125, skill_by=["server"])
    cur = Curriculum(seeds, cfg)
    # Two servers, two slots each at most: the cap binds before the capacity.
    assert len(cur.buffer) == 4 and cfg.per_skill == 2
    full = cur.buffer[0]
    other = next(i for i, e in enumerate(cur.buffer) if e.skill != full.skill)
    extra = Entry("extra", dict(full.record, id="extra"), full.skill, "generated", 1)
    with pytest.raises(ValueError, match="at its cap"):
        cur.buffer.replace(other, extra)
    assert cur.buffer.replace(0, extra).id == full.id          # its own slot: allowed


def test_same_seed_and_reward_stream_give_the_same_buffer(seeds: list[Example], tmp_path: Path) -> None:
    cfg = CurriculumConfig(seed=2, capacity=24, max_share=0.2, skill_by=["server", "tool", "kind"],
                           generate_per_step=3, min_groups=1)
    runs = []
    for name in ("a", "b"):
        cur = Curriculum(seeds, cfg, generator=generator(), log=tmp_path / f"{name}.jsonl")
        _stream(cur, 8, seed=11)
        runs.append(cur)
    a, b = runs
    assert a.totals["generated"] > 0
    assert a.digest() == b.digest()
    assert [e.id for e in a.buffer] == [e.id for e in b.buffer]
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    # Another seed draws another order, and so another stream and another buffer.
    other = Curriculum(seeds, cfg.model_copy(update={"seed": 3}), generator=generator())
    _stream(other, 8, seed=11)
    assert other.digest() != a.digest()


def test_bad_seed_data_is_refused(seeds: list[Example]) -> None:
    with pytest.raises(CurriculumError, match="seed examples"):
        Curriculum([])
    with pytest.raises(CurriculumError, match="repeat an id"):
        Curriculum([seeds[0], seeds[0]])
    with pytest.raises(ValueError, match="unknown skill field"):
        CurriculumConfig(skill_by=["server", "colour"])
