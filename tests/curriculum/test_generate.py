"""Examples generated for a skill are validated as offline data is, and are of the skill asked for."""

from __future__ import annotations

import json

import pytest

from prove.curriculum import Skill, project, skill_of
from prove.records import Example
from prove.synth import SynthConfig, SynthError, Synthesizer, Target, check

from .conftest import SERVERS, generator


def test_generated_examples_replay_and_are_faithful(seeds: list[Example]) -> None:
    gen = generator()
    gen.prime(ex.model_dump(mode="json", exclude_none=True) for ex in seeds)
    asked = [project(skill_of(ex), ["server", "tool", "kind"]) for ex in seeds[:12]]
    made = []
    for skill in asked:
        got = gen.generate(skill, attempts=6)
        if got.record is not None:
            made.append((skill, got.record))
    assert len(made) >= 8, [gen.generate(s, 1).rejected for s in asked[:3]]
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


def test_steering_fixes_server_first_tool_length_and_kind() -> None:
    synth = Synthesizer(SynthConfig(seed=9, servers=SERVERS))
    tool = synth.graphs["calendar"].tools[3]
    for i in range(6):
        spec = synth.spec(i, Target("calendar", tool=tool, length=3, kind="multi_turn"))
        assert spec.server.name == "calendar" and spec.chain[0] == tool and len(spec.chain) == 3
        assert spec.kind == "multi_turn" and spec.level in ("complete", "minimal")
    assert synth.spec(0, Target("calendar", kind="clarification")).level == "missing"
    hidden = synth.spec(0, Target("calendar", tool=tool, kind="abstention"))
    assert hidden.abstain_tool == tool and tool not in hidden.chain
    # The untargeted stream is untouched by targeted requests.
    plain = Synthesizer(SynthConfig(seed=9, servers=SERVERS))
    assert json.dumps(plain.example(5).info, sort_keys=True) == json.dumps(synth.example(5).info, sort_keys=True)


def test_bad_targets_are_refused() -> None:
    synth = Synthesizer(SynthConfig(seed=9, servers=SERVERS))
    with pytest.raises(SynthError, match="no server 'email'"):
        synth.spec(0, Target("email"))
    with pytest.raises(SynthError, match="no visible tool"):
        synth.spec(0, Target("banking", tool="launch_rocket"))
