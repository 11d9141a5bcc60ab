"""Fixtures: a small dataset recorded live on real servers, and the scripted model server.

The model server is scripted (`prove.rollout.ScriptedServer`): it replays answers written in the
tests, it is not a model.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from prove.records import Example, write_jsonl
from prove.rollout import ScriptedModel, ScriptedServer, oracle

from .data import dataset


@pytest.fixture(scope="package")
def examples() -> list[Example]:
    return dataset()


@pytest.fixture(scope="package")
def by_id(examples: list[Example]) -> dict[str, Example]:
    return {ex.id: ex for ex in examples}


@pytest.fixture(scope="package")
def dataset_file(examples: list[Example], tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    path = tmp_path_factory.mktemp("data") / "dataset.jsonl"
    write_jsonl(path, examples)
    return path


@pytest.fixture
def oracle_server(examples: list[Example]) -> Iterator[ScriptedServer]:
    """A scripted server replaying every example's reference conversation (native tool_calls)."""
    with ScriptedServer(ScriptedModel(oracle(examples))) as server:
        yield server
