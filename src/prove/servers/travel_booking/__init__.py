"""The travel booking server: the online travel agency account of one signed-in traveller (see README.md)."""

from .tools import server

__all__ = ["server"]
