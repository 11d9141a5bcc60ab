"""The filesystem server: the cloud drive of one signed-in user (see README.md)."""

from . import (
    hooks,
    tools_archive,
    tools_browse,
    tools_edit,
    tools_organize,
    tools_search,
    tools_sharing,
    tools_trash,
    tools_vault,
    tools_versions,
)
from .server import server

server.include(tools_browse.tools, tools_search.tools, tools_edit.tools, tools_trash.tools, tools_versions.tools,
               tools_sharing.tools, tools_organize.tools, tools_archive.tools, tools_vault.tools)
server.advances_with(hooks.advance)

__all__ = ["server"]
