"""The errors of the benchmark harnesses: one small tree under the project's `ProveError`."""

from __future__ import annotations

from ..env import ProveError

__all__ = ["EvalError", "MissingExtra"]


class EvalError(ProveError):
    """A benchmark cannot be run as asked (an unknown category, domain or entry; an unreadable result)."""


class MissingExtra(EvalError):
    """The optional package a benchmark runs on is not installed; the message names what to install."""
