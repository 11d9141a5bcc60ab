"""Examples generated for a skill are validated as offline data is, and are of the skill asked for."""

from __future__ import annotations

from prove.curriculum import Skill, project, skill_of
from prove.records import Example
from prove.synth import check

from .conftest import generator


def test_generated_examples_replay_and_are_faithful(seeds: list[Example]) -> None:
    gen = generator()
    gen.prime(ex.model_dump(mode="json", exclude_none=True) for ex in seeds)
    asked = [project(skill_of(ex), ["server", "tool", "kind"]) for ex in seeds[:12]]
    made = []
    for skill in asked:
        got = gen.generate(skill, attempts=6)
        if got.record is not None:
            made.append((skill, got.record))
    assert len(made) >= 8, f"{len(made)} of {len(asked)} skills got an example"
    synth = gen.synth
    for skill, record in made:
        Example.model_validate(record)
        assert project(skill_of(record), ["server", "tool", "kind"]) == skill
        server = synth.by_name[record["servers"][0]]
        # Replayed again, from the record alone: the fingerprint, grounding, provenance and faithfulness.
        verdict = check(record, server, synth.index(server, record["world"]), parse=True)
        assert verdict.ok, (record["id"], verdict.reason, verdict.detail)
        assert "-t" in record["id"]   # steered candidates never take an offline candidate's id
    assert len({r["id"] for _, r in made}) == len(made)


def test_a_generated_example_that_duplicates_one_in_play_is_refused() -> None:
    skill = Skill("banking", tool=None, kind="multi_turn")
    first = generator().generate(skill, attempts=5)
    assert first.record is not None
    # The same candidate stream, primed with what it produced, meets the same candidate and refuses it.
    again = generator()
    again.prime([first.record])
    second = again.generate(skill, attempts=first.tried)
    assert second.record is None
    assert second.rejected["duplicate"] == 1
