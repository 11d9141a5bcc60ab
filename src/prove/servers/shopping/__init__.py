"""The shopping server: an online store and one customer's account (see README.md)."""

from .tools import server

__all__ = ["server"]
