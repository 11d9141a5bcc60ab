"""The vehicle server: one connected plug-in hybrid car (see README.md)."""

from .tools import server

__all__ = ["server"]
