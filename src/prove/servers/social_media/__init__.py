"""Social media: one signed-in user's account on a social network (posts, feed, follows, blocks, messages)."""

from .tools import server

__all__ = ["server"]
