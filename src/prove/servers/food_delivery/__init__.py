"""Food delivery: restaurants, menus, carts, promo codes, orders on the clock, tips, ratings and the account."""

from . import tools_account, tools_cart, tools_orders, tools_restaurants
from .server import server

server.include(tools_cart.tools, tools_orders.tools, tools_account.tools, tools_restaurants.tools)

__all__ = ["server"]
