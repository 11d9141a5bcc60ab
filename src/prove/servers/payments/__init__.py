"""Payments: a person-to-person payments app with a wallet, funding sources, requests, refunds and invoices."""

from .tools import server

__all__ = ["server"]
