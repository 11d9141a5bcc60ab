"""Team chat: a Slack-like workspace of one signed-in member (see README.md)."""

from . import (
               hooks,
               tools_channels,
               tools_later,
               tools_messages,
               tools_people,
               tools_reactions,
)
from .server import server

server.include(tools_channels.tools, tools_messages.tools, tools_reactions.tools, tools_people.tools,
               tools_later.tools).advances_with(hooks.advance)

__all__ = ["server"]
