"""The vehicle server: one connected plug-in hybrid car (see README.md)."""

from . import hooks, tools_body, tools_drive, tools_energy, tools_service
from .server import server

server.include(tools_body.tools, tools_drive.tools, tools_energy.tools, tools_service.tools)
server.advances_with(hooks.advance)

__all__ = ["server"]
