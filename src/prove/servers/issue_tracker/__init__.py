"""Issue tracker: projects, issues, workflow, sprints, comments and time tracking of one engineer."""

from .tools import server

__all__ = ["server"]
