"""Maps: places, hours, reviews, geocoding, routes and transit in three cities, for one user."""

from .tools import server

__all__ = ["server"]
