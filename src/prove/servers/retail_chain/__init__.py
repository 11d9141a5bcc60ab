"""The retail_chain server: a regional chain of home and outdoor stores with click-and-collect and loyalty."""

from .tools import server

__all__ = ["server"]
