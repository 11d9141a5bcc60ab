"""The marketplace server: a peer-to-peer marketplace where the signed-in member buys and sells."""

from . import tools_account, tools_deals, tools_listings
from .server import server

server.include(tools_account.tools, tools_deals.tools, tools_listings.tools)

__all__ = ["server"]
