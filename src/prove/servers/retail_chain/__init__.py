"""The retail_chain server: a regional chain of home and outdoor stores with click-and-collect and loyalty."""

from . import tools_loyalty, tools_pickup, tools_stores
from .server import server

server.include(tools_loyalty.tools, tools_pickup.tools, tools_stores.tools)

__all__ = ["server"]
