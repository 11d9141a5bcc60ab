"""The banking server: the online bank of one signed-in customer (see README.md)."""

from .tools import server

__all__ = ["server"]
