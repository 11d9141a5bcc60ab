"""Video meetings: a Zoom-like account of one signed-in employee (meetings, waiting rooms, chat, recordings)."""

from . import hooks, tools_live, tools_meetings, tools_recordings
from .server import server

server.include(tools_meetings.tools, tools_live.tools, tools_recordings.tools).advances_with(hooks.advance)

__all__ = ["server"]
