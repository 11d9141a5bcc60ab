"""The marketplace server: a peer-to-peer marketplace where the signed-in member buys and sells."""

from .tools import server

__all__ = ["server"]
