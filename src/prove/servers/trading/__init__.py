"""Trading: brokerage accounts, live quotes, market and limit orders, cash movements, watchlists and alerts."""

from .tools import server

__all__ = ["server"]
