"""Payments: a person-to-person payments app with a wallet, funding sources, requests, refunds and invoices."""

from . import tools_invoices, tools_payments, tools_people, tools_wallet
from .server import server

server.include(tools_invoices.tools, tools_payments.tools, tools_people.tools, tools_wallet.tools)

__all__ = ["server"]
