"""Video meetings: a Zoom-like account of one signed-in employee (meetings, waiting rooms, chat, recordings)."""

from .tools import server

__all__ = ["server"]
