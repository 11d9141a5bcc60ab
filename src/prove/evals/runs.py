"""Run one function over a benchmark's entries, a few at a time, results in input order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["run_all"]

T = TypeVar("T")


def run_all(items: Sequence[T], one: Callable[[T], dict[str, Any]], *, concurrency: int = 4,
            on_result: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """`[one(item) for item in items]`, `concurrency` at a time; `on_result` sees each record as it is
    collected (in input order, from the calling thread)."""
    results: list[dict[str, Any]] = []
    if concurrency <= 1:
        for item in items:
            results.append(one(item))
            if on_result is not None:
                on_result(results[-1])
        return results
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="prove-eval") as pool:
        for future in [pool.submit(one, item) for item in items]:
            results.append(future.result())
            if on_result is not None:
                on_result(results[-1])
    return results
