"""Fixtures of the trainer integration tests: the live dataset, a tiny local model, VERL helpers.

Nothing is downloaded: the tokenizer is trained here on synthesized text and the model is a
randomly initialised two-layer Qwen2 (`tiny.py`). `examples` are five hand-recorded examples;
`synthesized` a real `prove synth` run over every server. The model server the VERL tests generate from
is scripted (`prove.rollout.ScriptedServer`), not a model.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from prove.records import Example

from ..rollout.data import dataset


def missing(*modules: str) -> str | None:
    """The first module of `modules` that is not installed, or None."""
    for m in modules:
        if importlib.util.find_spec(m) is None:
            return m
    return None


@pytest.fixture(scope="session")
def examples() -> list[Example]:
    return dataset()


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> list[Example]:
    """200 examples of `prove synth --n 200 --seed 2` over every server (about 15 s on one core)."""
    from prove.records import read_examples
    from prove.synth import SynthConfig, run

    out = tmp_path_factory.mktemp("synth")
    run(SynthConfig(n=200, seed=2), out, cache_dir=out / "cache")
    return read_examples(out / "dataset.jsonl")


@pytest.fixture(scope="session")
def by_id(examples: list[Example]) -> dict[str, Example]:
    return {ex.id: ex for ex in examples}


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory, examples: list[Example]) -> Path:
    """A local model directory: the tiny tokenizer (ChatML + Hermes template) and model."""
    gone = missing("torch", "transformers", "tokenizers")
    if gone:
        pytest.skip(f"{gone} is not installed (pip install 'prove-rl[train]')")
    from .tiny import build

    path = tmp_path_factory.mktemp("tiny-model")
    build(path, examples, ["banking", "calendar"])
    return path


@pytest.fixture(scope="session")
def wide_dir(tmp_path_factory: pytest.TempPathFactory, synthesized: list[Example]) -> Path:
    """A tiny model whose tokenizer is trained on every server and the synthesized examples."""
    gone = missing("torch", "transformers", "tokenizers")
    if gone:
        pytest.skip(f"{gone} is not installed (pip install 'prove-rl[train]')")
    from prove.env import registry

    from .tiny import build

    path = tmp_path_factory.mktemp("wide-model")
    build(path, synthesized, registry.names(), vocab_size=8000)
    return path
