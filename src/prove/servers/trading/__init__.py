"""Trading: brokerage accounts, live quotes, market and limit orders, cash movements, watchlists and alerts."""

from . import tools_accounts, tools_market, tools_orders, tools_watchlists
from .server import server

server.include(tools_accounts.tools, tools_market.tools, tools_orders.tools, tools_watchlists.tools)

__all__ = ["server"]
