"""Food delivery: restaurants, menus, carts, promo codes, orders on the clock, tips, ratings and the account."""

from .tools import server

__all__ = ["server"]
