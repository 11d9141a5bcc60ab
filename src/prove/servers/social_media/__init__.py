"""Social media: one signed-in user's account on a social network (posts, feed, follows, blocks, messages)."""

from . import hooks, tools_accounts, tools_engagement, tools_inbox, tools_posts
from .server import server

server.include(tools_accounts.tools, tools_posts.tools, tools_engagement.tools, tools_inbox.tools
               ).advances_with(hooks.advance)

__all__ = ["server"]
