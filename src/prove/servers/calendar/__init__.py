"""Calendar: calendars, events, recurring series, invitations, free/busy and reminders of one user."""

from .tools import server

__all__ = ["server"]
