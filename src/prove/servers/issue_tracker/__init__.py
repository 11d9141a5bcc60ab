"""Issue tracker: projects, issues, workflow, sprints, comments and time tracking of one engineer."""

from . import tools_collab, tools_issues, tools_projects, tools_time, tools_workflow
from .server import server

server.include(tools_projects.tools, tools_issues.tools, tools_workflow.tools, tools_collab.tools, tools_time.tools)

__all__ = ["server"]
