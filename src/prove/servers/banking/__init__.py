"""The banking server: the online bank of one signed-in customer (see README.md)."""

from . import tools_accounts, tools_cards, tools_disputes, tools_payments
from .server import server

server.include(tools_accounts.tools, tools_payments.tools, tools_cards.tools, tools_disputes.tools)

__all__ = ["server"]
