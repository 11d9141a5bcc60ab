"""Candidates steered to a target: the target's server, first tool, length and kind; the rest as drawn."""

from __future__ import annotations

import json

import pytest

from prove.synth import SynthConfig, SynthError, Synthesizer, Target

from .conftest import SERVERS


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
