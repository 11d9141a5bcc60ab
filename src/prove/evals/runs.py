"""Run one function over a benchmark's entries, a few at a time, results in input order; pick
entries by ID."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .errors import EvalError

__all__ = ["pick", "run_all"]

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


def pick(items: list[T], ids: Sequence[str] | None, what: str, among: str = "") -> list[T]:
    """The items whose `id` is in `ids`, in that order (all of them when `ids` is empty); an ID
    that none has is an `EvalError` naming `what` was looked for, and `among` which."""
    if not ids:
        return items
    known = {item.id: item for item in items}  # type: ignore[attr-defined]
    missing = [i for i in ids if i not in known]
    if missing:
        raise EvalError(f"no {what} {missing[0]!r}{f' in {among}' if among else ''}")
    return [known[i] for i in ids]
