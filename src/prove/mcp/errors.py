"""Errors of the serving layer: one code each, with its JSON-RPC code and its HTTP status.

These are the infrastructure's channel (what the caller, not the model, has to fix): over MCP
they are JSON-RPC errors whose `data` holds `{code, hint}`, on the control plane HTTP errors
whose body is `{"error": {code, message, hint}}`. A tool's own failures (`ToolError`, invalid
arguments, unknown tools) stay tool results with `isError`, as in-process.
"""

from __future__ import annotations

from typing import Any

from prove.env import (
    InvalidRequestError,
    PoolFullError,
    ProveError,
    SessionClosedError,
    UnknownServerError,
    UnknownSessionError,
)

# code -> (JSON-RPC error code, HTTP status). JSON-RPC codes sit in the implementation-defined
# server range, clear of the ones MCP itself uses (-32000..-32001, -32020..-32022, -32042).
CODES: dict[str, tuple[int, int]] = {
    "unknown_session": (-32060, 404),
    "no_episode": (-32061, 400),
    "pool_full": (-32062, 503),
    "timeout": (-32063, 504),
    "episode_busy": (-32064, 409),
    "server_not_in_session": (-32065, 400),
    "unknown_server": (-32066, 404),
    "unknown_snapshot": (-32067, 404),
    "session_exists": (-32068, 409),
    "invalid_request": (-32602, 400),
    "unauthorized": (-32069, 401),
    "payload_too_large": (-32070, 413),
    "forbidden_host": (-32071, 421),
    "forbidden_origin": (-32072, 403),
    "not_found": (-32073, 404),
    "snapshot_limit": (-32074, 507),
    "forbidden_episode": (-32075, 403),
    "internal_error": (-32603, 500),
}


class ServeError(ProveError):
    """A request the serving layer refuses, with a stable `code` and a `hint` for the caller."""

    def __init__(self, code: str, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint

    @property
    def rpc_code(self) -> int:
        return CODES.get(self.code, CODES["internal_error"])[0]

    @property
    def status(self) -> int:
        return CODES.get(self.code, CODES["internal_error"])[1]

    def body(self) -> dict[str, Any]:
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.hint:
            err["hint"] = self.hint
        return {"error": err}


def as_serve_error(exc: BaseException) -> ServeError | None:
    """The framework's errors that a caller can cause, as serving errors; None for anything else."""
    if isinstance(exc, ServeError):
        return exc
    if isinstance(exc, (UnknownSessionError, SessionClosedError)):
        return ServeError("unknown_session", str(exc),
                          "Create the session on the control plane first; sessions idle past their TTL are reaped.")
    if isinstance(exc, PoolFullError):
        return ServeError("pool_full", str(exc), "Close finished episodes or start the server with a larger cap.")
    if isinstance(exc, UnknownServerError):
        return ServeError("unknown_server", str(exc))
    if isinstance(exc, InvalidRequestError):
        return ServeError("invalid_request", str(exc))
    return None


# ----- the client's side: remote errors that are also the framework's exceptions ----------------


class RemoteError(ProveError):
    """An error answered by a remote PROVE server (`code`, `status`, `hint` as it sent them)."""

    def __init__(self, code: str, message: str, status: int = 0, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.hint = hint

    def __str__(self) -> str:
        return self.message + (f" ({self.hint})" if self.hint else "")


class RemoteUnknownSessionError(RemoteError, UnknownSessionError):
    """The remote server has no live session of that ID."""

    def __str__(self) -> str:
        return RemoteError.__str__(self)


class RemotePoolFullError(RemoteError, PoolFullError):
    """The remote server's session pool is full."""


class RemoteUnknownServerError(RemoteError, UnknownServerError):
    """The remote server does not serve that server."""

    def __str__(self) -> str:
        return RemoteError.__str__(self)


_REMOTE = {"unknown_session": RemoteUnknownSessionError, "pool_full": RemotePoolFullError,
           "unknown_server": RemoteUnknownServerError}


def remote_error(code: str, message: str, status: int = 0, hint: str | None = None) -> RemoteError:
    """The exception a client raises for an error body, typed so that `except PoolFullError`
    (or `UnknownSessionError`, `UnknownServerError`) works against a remote server too."""
    return _REMOTE.get(code, RemoteError)(code, message, status, hint)
