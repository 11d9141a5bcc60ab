"""The shopping server: an online store and one customer's account (see README.md)."""

from . import hooks, tools_account, tools_cart, tools_catalog, tools_orders
from .server import server

server.include(tools_account.tools, tools_orders.tools, tools_cart.tools, tools_catalog.tools)
server.advances_with(hooks.advance)

__all__ = ["server"]
