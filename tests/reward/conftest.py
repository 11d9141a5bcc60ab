from __future__ import annotations

from collections.abc import Iterator

import pytest

from prove.env import registry
from prove.records import Example

from .toy_data import dataset, register_toy


@pytest.fixture(scope="package")
def examples() -> Iterator[list[Example]]:
    """The toy dataset, with the toy server registered while this package's tests run."""
    before = registry.get("toy") if "toy" in registry else None
    register_toy()
    try:
        yield dataset()
    finally:
        if before is None:
            registry.unregister("toy")
        else:
            registry.register(before, replace=True)


@pytest.fixture(scope="package")
def by_id(examples: list[Example]) -> dict[str, Example]:
    return {ex.id: ex for ex in examples}
