"""Pick a benchmark's entries by ID (they run with `prove.rollout.runner.run_all`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .errors import EvalError

__all__ = ["pick"]

T = TypeVar("T")


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
