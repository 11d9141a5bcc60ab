"""The iot_devices server: the smart home of one signed-in user (see README.md)."""

from . import hooks, tools_devices, tools_home, tools_scenes, tools_security
from .server import server

server.include(tools_home.tools, tools_devices.tools, tools_security.tools, tools_scenes.tools)
server.advances_with(hooks.advance)

__all__ = ["server"]
