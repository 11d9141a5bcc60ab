"""Sales CRM: accounts, contacts, leads and their conversion, deals through pipeline stages, tasks, activities and notes."""

from . import tools_accounts, tools_activities, tools_deals, tools_leads
from .server import server

server.include(tools_accounts.tools, tools_activities.tools, tools_deals.tools, tools_leads.tools)

__all__ = ["server"]
