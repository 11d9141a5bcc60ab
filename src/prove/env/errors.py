"""The two error channels of the framework.

`ToolError` is the model's channel: a tool raises it for a failure the model can recover from,
and it becomes a tool result with `is_error` and a structured body. Everything else a developer
or the infrastructure broke is a `ProveError`, from one small rooted tree.
"""

from __future__ import annotations

from typing import Any

# Codes the framework itself produces; tools document their own codes in `Raises:`.
INVALID_ARGUMENTS = "invalid_arguments"
UNKNOWN_TOOL = "unknown_tool"
INTERNAL_ERROR = "internal_error"
TIMEOUT = "timeout"
FRAMEWORK_CODES = frozenset({INVALID_ARGUMENTS, UNKNOWN_TOOL, INTERNAL_ERROR, TIMEOUT})


class ToolError(Exception):
    """A failure the model can recover from: a code, a message and an optional hint."""

    def __init__(self, code: str, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint

    def body(self) -> dict[str, Any]:
        """The structured body the model sees: `{"error": {code, message, hint}}`."""
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.hint is not None:
            err["hint"] = self.hint
        return {"error": err}


class ProveError(Exception):
    """Root of every error that is not the model's to fix."""


class ToolDefinitionError(ProveError):
    """A tool or server is declared wrongly (raised at import time)."""


class UnknownServerError(ProveError, KeyError):
    """No server of that name is registered."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown server"


class SessionClosedError(ProveError):
    """The session was closed (or reaped) and can no longer be used."""


class UnknownSessionError(ProveError, KeyError):
    """No live session has that ID."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown session"


class InvalidRequestError(ProveError, ValueError):
    """The framework was asked for something it cannot do (a session without servers, a clock
    moved backwards, a snapshot of other servers); the caller's to fix, never a server's bug."""


class SessionExistsError(InvalidRequestError):
    """A session with the requested ID is already live."""


class HookError(ProveError):
    """A server's `on_advance` hook raised: a bug in the server; the clock and state are unchanged."""


class PoolFullError(ProveError):
    """The session pool is at its cap and every session in it is in use or fresh."""
