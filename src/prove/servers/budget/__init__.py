"""The budget server: a personal budgeting app (see README.md)."""

from .tools import server

__all__ = ["server"]
