"""Maps: places, hours, reviews, geocoding, routes and transit in three cities, for one user."""

from . import hooks, tools_places, tools_reviews, tools_routes, tools_saved
from .server import server

server.include(tools_places.tools, tools_routes.tools, tools_saved.tools,
               tools_reviews.tools).advances_with(hooks.advance)

__all__ = ["server"]
