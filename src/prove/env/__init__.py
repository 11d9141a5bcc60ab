"""The environment framework: tools, servers, worlds, sessions and the session pool.

It knows no domain; servers (`prove.servers.*`) are written against it.
"""

from .annotations import READ, WRITE, Effect, Entity, EntityKind, Sensitive
from .asks import Ask
from .errors import (
    FRAMEWORK_CODES,
    INTERNAL_ERROR,
    INVALID_ARGUMENTS,
    UNKNOWN_TOOL,
    HookError,
    InvalidRequestError,
    PoolFullError,
    ProveError,
    SessionClosedError,
    SessionExistsError,
    ToolDefinitionError,
    ToolError,
    UnknownServerError,
    UnknownSessionError,
)
from .pool import PoolStats, SessionPool
from .query import Where
from .registry import Registry, registry
from .server import Server
from .session import (
    INTERNAL_ERRORS,
    CallRecord,
    Ctx,
    Diff,
    ErrorCounts,
    Session,
    Snapshot,
    ToolResult,
    tool_names,
)
from .state import RowChange
from .tool import Param, Tool
from .toolset import Toolset
from .world import EPOCH, WorldBuilder, WorldGen

__all__ = [
    "EPOCH", "FRAMEWORK_CODES", "INTERNAL_ERROR", "INTERNAL_ERRORS", "INVALID_ARGUMENTS", "READ", "UNKNOWN_TOOL", "WRITE",
    "Ask", "CallRecord", "Ctx", "Diff", "Effect", "Entity", "EntityKind", "ErrorCounts", "HookError", "InvalidRequestError", "Param", "PoolFullError", "PoolStats",
    "ProveError", "Registry", "RowChange", "Sensitive", "Server", "Session", "SessionClosedError",
    "SessionExistsError", "SessionPool", "Snapshot", "Tool", "ToolDefinitionError", "Toolset", "ToolError", "ToolResult",
    "UnknownServerError", "UnknownSessionError", "Where", "WorldBuilder", "WorldGen", "registry", "tool_names",
]
