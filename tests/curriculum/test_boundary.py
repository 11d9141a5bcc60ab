"""Statistics and the boundary on hand-made reward streams."""

from __future__ import annotations

import pytest

from prove.curriculum import Curriculum, CurriculumConfig, Skill, Tally, group, on_boundary, project, skill_of
from prove.curriculum.skills import depth
from prove.records import Example


def test_group_figures() -> None:
    g = group([1, 0, 1, 0], success_at=0.8)
    assert (g.mean, g.variance, g.success, g.n) == (0.5, 0.25, 0.5, 4)
    g = group([0.9, 0.85, 0.3], success_at=0.8)
    assert g.success == pytest.approx(2 / 3) and g.variance == pytest.approx(0.07388, abs=1e-4)
    with pytest.raises(ValueError):
        group([], 0.5)


def test_boundary_by_success_band_by_variance_and_not_before_min_groups() -> None:
    cfg = CurriculumConfig(min_groups=2, band=(0.2, 0.8), min_variance=0.05, success_at=0.8, decay=0.5)
    mixed = Tally()
    mixed.add(group([1, 0, 1, 0], cfg.success_at), cfg)
    assert not on_boundary(mixed, cfg)          # one group is not enough
    mixed.add(group([1, 1, 0, 0], cfg.success_at), cfg)
    assert on_boundary(mixed, cfg)
    solved, failed = Tally(), Tally()
    for _ in range(4):
        solved.add(group([1, 1, 1, 1], cfg.success_at), cfg)
        failed.add(group([0, 0, 0, 0], cfg.success_at), cfg)
    assert not on_boundary(solved, cfg) and not on_boundary(failed, cfg)
    assert solved.solved_run == 4 and failed.failed_run == 4
    # Continuous rewards that never reach success_at but disagree: on the boundary by their variance.
    spread = Tally()
    for _ in range(3):
        spread.add(group([0.1, 0.7, 0.1, 0.7], cfg.success_at), cfg)
    assert spread.success == 0 and spread.variance == pytest.approx(0.09) and on_boundary(spread, cfg)
    # The running figures follow the newest groups once 1/n falls below `decay`.
    moving = Tally()
    for rewards in ([1, 1], [1, 1], [0, 0], [0, 0]):
        moving.add(group(rewards, cfg.success_at), cfg)
    assert moving.success == pytest.approx(0.25)


def test_skills_of_real_examples(seeds: list[Example]) -> None:
    for ex in seeds:
        s = skill_of(ex)
        calls = [c.model_dump() for c in ex.gold_calls()]
        assert s.server == ex.servers[0] and s.kind == ex.kind
        if calls:
            assert s.tool == ex.meta["chain"][0] and 1 <= s.depth <= 4 and 1 <= s.length <= 5
        else:
            assert (s.tool, s.length, s.depth) == ("", 0, 0)
    assert depth([{"id": "a"}, {"id": "b", "after": ["a"]}, {"id": "c", "after": ["b", "a"]}, {"id": "d"}]) == 3
    s = Skill("banking", "pay_payee", 3, 2, "multi_turn")
    assert s.key == "banking/pay_payee/L3/D2/multi_turn"
    assert project(s, ["tool"]).key == "banking/pay_payee/*/*/*"
    with pytest.raises(ValueError, match="unknown skill field"):
        project(s, ["colour"])


def _by_skill(cur: Curriculum) -> dict[Skill, list[str]]:
    out: dict[Skill, list[str]] = {}
    for e in cur.buffer:
        out.setdefault(e.skill, []).append(e.id)
    return out


def test_a_hand_made_stream_moves_the_boundary_retires_and_parks(seeds: list[Example]) -> None:
    cfg = CurriculumConfig(capacity=24, max_share=0.25, skill_by=["server", "kind"], retire_after=2, park_after=2,
                           min_groups=2, generate_per_step=0)
    cur = Curriculum(seeds, cfg)
    ids = _by_skill(cur)
    easy, hard, mid = sorted((s for s in ids if len(ids[s]) >= 2), key=lambda s: s.key)[:3]
    stream = ([(i, [1.0] * 4) for i in ids[easy][:2]] + [(i, [0.0] * 4) for i in ids[hard][:2]]
              + [(i, [1.0, 0.0, 1.0, 0.0]) for i in ids[mid][:2]])
    first = cur.update(stream)
    assert first["boundary"] == 1 and first["boundary_skills"] == [mid.key]   # min_groups=2, two groups each
    assert first["retired"] == first["parked"] == 0
    assert first["boundary_rollouts"] == 8 and first["rollouts"] == 24
    second = cur.update(stream)
    retired = set(ids[easy][:2]) - {e.id for e in cur.buffer}
    parked = set(ids[hard][:2]) - {e.id for e in cur.buffer}
    # Solved twice in a row: retired; failed twice: back to the reserve, where they wait.
    assert second["retired"] + second["kept"] >= 2 and len(retired) == second["retired"]
    assert len(parked) == second["parked"]
    assert all(cur.buffer.slot_of(i) is None for i in retired | parked)
    waiting = {e.id for q in cur.buffer.reserve.values() for e in q}
    assert parked <= waiting and not retired & waiting
    assert cur.update([("no-such-example", [1.0])])["unknown"] == 1
