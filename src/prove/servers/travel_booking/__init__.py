"""The travel booking server: the online travel agency account of one signed-in traveller (see README.md)."""

from . import (
               hooks,
               tools_account,
               tools_bookings,
               tools_changes,
               tools_flights,
               tools_hotels,
               tools_trips,
)
from .server import server

server.include(tools_flights.tools, tools_bookings.tools, tools_changes.tools, tools_hotels.tools, tools_trips.tools,
               tools_account.tools).advances_with(hooks.advance)

__all__ = ["server"]
