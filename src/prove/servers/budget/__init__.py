"""The budget server: a personal budgeting app (see README.md)."""

from . import hooks, tools_accounts, tools_activity, tools_envelopes, tools_plans
from .server import server

server.include(tools_accounts.tools, tools_activity.tools, tools_envelopes.tools, tools_plans.tools).advances_with(
    hooks.advance)

__all__ = ["server"]
