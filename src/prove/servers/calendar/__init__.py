"""Calendar: calendars, events, recurring series, invitations, free/busy and reminders of one user."""

from . import (
    tools_availability,
    tools_calendars,
    tools_events,
    tools_invitations,
    tools_people,
    tools_recurrence,
    tools_reminders,
)
from .server import server

server.include(tools_people.tools, tools_calendars.tools, tools_events.tools, tools_recurrence.tools,
               tools_invitations.tools, tools_availability.tools, tools_reminders.tools)

__all__ = ["server"]
