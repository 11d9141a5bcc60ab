"""Fixtures of the curriculum tests: a real synthesized seed set and a real generator on the same servers."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from prove.curriculum import SynthGenerator
from prove.records import Example, read_examples
from prove.synth import SynthConfig, run

SERVERS = ["banking", "calendar"]


@pytest.fixture(autouse=True)
def _quiet_env_logs() -> None:
    logging.getLogger("prove.env").setLevel(logging.CRITICAL)


@pytest.fixture(scope="package")
def seed_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`prove synth --n 80 --seed 3` over banking and calendar (a few seconds)."""
    out = tmp_path_factory.mktemp("seed")
    run(SynthConfig(n=80, seed=3, servers=SERVERS), out)
    return out


@pytest.fixture(scope="package")
def seeds(seed_dir: Path) -> list[Example]:
    return read_examples(seed_dir / "dataset.jsonl")


def generator() -> SynthGenerator:
    """A fresh generator (its candidate counter starts at 0) on the seed set's servers."""
    return SynthGenerator.from_config(SynthConfig(seed=4, servers=SERVERS))
