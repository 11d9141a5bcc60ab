"""The iot_devices server: the smart home of one signed-in user (see README.md)."""

from .tools import server

__all__ = ["server"]
