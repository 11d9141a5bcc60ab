"""Sales CRM: accounts, contacts, leads and their conversion, deals through pipeline stages, tasks, activities and notes."""

from .tools import server

__all__ = ["server"]
