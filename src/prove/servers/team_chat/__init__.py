"""Team chat: a Slack-like workspace of one signed-in member (see README.md)."""

from .tools import server

__all__ = ["server"]
