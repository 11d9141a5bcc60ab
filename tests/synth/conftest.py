from __future__ import annotations

import logging

import pytest

from prove.synth import SynthConfig, Synthesizer

# Servers that are finished; the suite does not depend on servers still being written.
SERVERS = ["banking", "shopping", "calendar"]


@pytest.fixture(autouse=True)
def _quiet_env_logs() -> None:
    logging.getLogger("prove.env").setLevel(logging.CRITICAL)


@pytest.fixture(scope="package")
def synth() -> Synthesizer:
    return Synthesizer(SynthConfig(n=50, seed=3, servers=SERVERS))


@pytest.fixture(scope="package")
def candidates(synth: Synthesizer) -> list:
    """The first 150 candidates of the shared synthesizer (accepted and rejected)."""
    return [synth.example(i) for i in range(150)]
