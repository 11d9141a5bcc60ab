"""Email: the mailbox of one signed-in user (see README.md)."""

from . import (
               hooks,
               tools_compose,
               tools_contacts,
               tools_folders,
               tools_messages,
               tools_settings,
)
from .server import server

server.include(tools_messages.tools, tools_compose.tools, tools_folders.tools, tools_contacts.tools,
               tools_settings.tools).advances_with(hooks.advance)

__all__ = ["server"]
