"""Email: the mailbox of one signed-in user (see README.md)."""

from .tools import server

__all__ = ["server"]
