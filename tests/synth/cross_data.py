"""Cross-server examples made by the real pipeline (programmatic teacher), shared by the tests of
the reward, the rollout, the VERL export and the MCP endpoint."""

from __future__ import annotations

import functools
import json

from prove.records import Example
from prove.synth import SynthConfig
from prove.synth.pipeline import Synthesizer

SERVERS = ["banking", "budget", "calendar", "crm", "email"]


@functools.lru_cache(maxsize=1)
def synthesizer() -> Synthesizer:
    return Synthesizer(SynthConfig(seed=5, servers=SERVERS, cross_server=1.0))


@functools.lru_cache(maxsize=1)
def cross_examples() -> tuple[Example, ...]:
    """Accepted cross-server examples of the first 40 candidates (each replayed and judged)."""
    syn = synthesizer()
    out = []
    for i in range(40):
        cand = syn.example(i)
        if cand.line is not None:
            out.append(Example.model_validate(json.loads(cand.line)))
    assert len(out) >= 10, f"only {len(out)} of 40 cross-server candidates were accepted"
    return tuple(out)
