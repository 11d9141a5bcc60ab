"""The control plane: HTTP `/v1/...`, kept from the model's view (it is not MCP and lists no tools).

It mirrors `prove.env.Session` operation for operation, so that `RemoteEnv` can offer the same
interface: create, describe, call, tools, advance, fork, reset, snapshot/restore, fingerprint,
diff, log, close, plus the pool's stats. Errors are `{"error": {code, message, hint}}` with the
status of `prove.mcp.errors.CODES`.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from prove.env import CallRecord, RowChange, Session, Tool, ToolResult

from .episodes import Episodes, check_id
from .errors import ServeError, as_serve_error

log = logging.getLogger("prove.mcp")
Handler = Callable[[Request], Awaitable[Response]]


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str).encode()


def json_response(data: Any, status: int = 200) -> Response:
    return Response(dumps(data), status_code=status, media_type="application/json")


def error_response(err: ServeError) -> Response:
    headers = {"Retry-After": "1"} if err.code == "pool_full" else None
    return Response(dumps(err.body()), status_code=err.status, media_type="application/json", headers=headers)


# ----- wire shapes (RemoteEnv reads the same) ---------------------------------------------------


def describe(session: Session) -> dict[str, Any]:
    return {"session_id": session.id, "servers": session.servers, "world": session.world,
            "now": session.now.isoformat(), "calls": len(session.log)}


def tool_info(name: str, tool: Tool) -> dict[str, Any]:
    return {"name": name, "server": tool.server, "tool": tool.name, "summary": tool.summary,
            "description": tool.description, "parameters": tool.parameters, "output_schema": tool.output_schema,
            "effect": tool.effect.value, "read_only": tool.read_only, "hidden": tool.hidden,
            "errors": tool.errors, "asks": [a.as_dict() for a in tool.asks]}


def result_json(result: ToolResult) -> dict[str, Any]:
    if result.ok:
        return {"name": result.name, "ok": True, "data": result.data}
    return {"name": result.name, "ok": False, "error": result.error}


def change_json(ch: RowChange) -> dict[str, Any]:
    return {"server": ch.server, "table": ch.table, "op": ch.op, "key": ch.key, "before": ch.before, "after": ch.after}


def record_json(rec: CallRecord) -> dict[str, Any]:
    return {"index": rec.index, "name": rec.name, "server": rec.server, "arguments": rec.arguments,
            "result": result_json(rec.result)}


# ----- request helpers --------------------------------------------------------------------------


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object body ({} when empty), refusing bodies over `limit` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ServeError("payload_too_large", f"request body over {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ServeError("payload_too_large", f"request body over {limit} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise ServeError("invalid_request", "the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ServeError("invalid_request", f"the request body must be a JSON object, not {type(body).__name__}")
    return body


def _field(body: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    value = body.get(name, default)
    if value is ...:
        raise ServeError("invalid_request", f"missing field {name!r}")
    if value is default and default is not ...:
        return value
    if not isinstance(value, kind) or isinstance(value, bool) and kind in (int, float, (int, float)):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise ServeError("invalid_request", f"field {name!r} must be {names}, got {type(value).__name__}")
    return value


def routes(episodes: Episodes, max_body: int) -> list[Route]:
    """The `/v1` routes over one process's episodes."""
    metrics = episodes.metrics

    def op(name: str, fn: Handler) -> Handler:
        async def handle(request: Request) -> Response:
            try:
                response = await fn(request)
            except Exception as exc:  # noqa: BLE001 - every failure becomes a structured answer
                err = as_serve_error(exc)
                if err is None:
                    log.exception("control plane: %s failed", name)
                    err = ServeError("internal_error", f"{name} failed: {type(exc).__name__}; see the server log")
                metrics.refused[err.code] += 1
                response = error_response(err)
            metrics.control[(name, response.status_code)] += 1
            return response

        return handle

    def sid(request: Request) -> str:
        return check_id(request.path_params["sid"])

    async def create(request: Request) -> Response:
        body = await read_json(request, max_body)
        servers = _field(body, "servers", (list, str))
        servers = [servers] if isinstance(servers, str) else servers
        if not all(isinstance(s, str) for s in servers):
            raise ServeError("invalid_request", "field 'servers' is a list of server names")
        world = _field(body, "world", int, 0)
        session = await episodes.create(servers, world, _field(body, "session_id", str, None))
        return json_response(issued(session), 201)

    async def list_sessions(request: Request) -> Response:
        return json_response({"sessions": episodes.pool.ids(), "stats": episodes.stats()})

    def issued(session: Session) -> dict[str, Any]:
        """A session's description with its episode token (for the model's MCP client)."""
        return {**describe(session), "mcp_token": episodes.episode_token(session.id)}

    async def get(request: Request) -> Response:
        return json_response(await episodes.run(sid(request), issued, timeout=60))

    async def close(request: Request) -> Response:
        await episodes.close(sid(request))
        return json_response({"closed": request.path_params["sid"]})

    async def call(request: Request) -> Response:
        body = await read_json(request, max_body)
        name = _field(body, "name", str)
        result = await episodes.call(sid(request), name, body.get("arguments"), include_hidden=True)
        return json_response(result_json(result))

    async def tools(request: Request) -> Response:
        hidden = request.query_params.get("hidden", "") in ("1", "true", "yes")
        found = await episodes.run(sid(request), lambda s: s.tools(include_hidden=hidden), timeout=60)
        return json_response({"tools": [tool_info(n, t) for n, t in found.items()]})

    async def advance(request: Request) -> Response:
        body = await read_json(request, max_body)
        seconds = _field(body, "seconds", (int, float))
        if not math.isfinite(seconds) or seconds < 0:
            raise ServeError("invalid_request", "the simulated clock only moves forward by a finite number of seconds")
        now = await episodes.run(sid(request), lambda s: s.advance(float(seconds)), timeout=60)
        return json_response({"now": now.isoformat()})

    async def fork(request: Request) -> Response:
        body = await read_json(request, max_body)
        child = await episodes.fork(sid(request), _field(body, "session_id", str, None))
        return json_response(issued(child), 201)

    async def reset(request: Request) -> Response:
        def work(s: Session) -> dict[str, Any]:
            s.reset()
            return describe(s)

        return json_response(await episodes.run(sid(request), work, timeout=60))

    async def snapshot(request: Request) -> Response:
        session_id = sid(request)
        return json_response({"snapshot_id": await episodes.snapshot(session_id), "session_id": session_id}, 201)

    async def delete_snapshot(request: Request) -> Response:
        episodes.delete_snapshot(sid(request), request.path_params["snap"])
        return json_response({"deleted": request.path_params["snap"]})

    async def restore(request: Request) -> Response:
        body = await read_json(request, max_body)
        session_id = sid(request)
        snap = episodes.snapshot_store(session_id).get(_field(body, "snapshot_id", str))
        if snap is None:
            raise ServeError("unknown_snapshot", f"no snapshot {body['snapshot_id'][:80]!r} of this session",
                             "A snapshot restores only into the session it was taken from.")

        def work(s: Session) -> dict[str, Any]:
            s.restore(snap)
            return describe(s)

        return json_response(await episodes.run(session_id, work, timeout=60))

    async def fingerprint(request: Request) -> Response:
        return json_response({"fingerprint": await episodes.run(sid(request), lambda s: s.fingerprint(), timeout=60)})

    async def diff(request: Request) -> Response:
        session_id = sid(request)
        against = request.query_params.get("against")
        if against is None:
            found = await episodes.run(session_id, lambda s: s.diff(), timeout=60)
        elif against.startswith("snap-"):
            snap = episodes.find_snapshot(against)
            found = await episodes.run(session_id, lambda s: s.diff(snap), timeout=60)
        else:
            check_id(against, "?against= session ID")
            episodes.servers_of(against)  # a clear unknown_session for the other side

            def work(s: Session) -> Any:
                with episodes.pool.lease(against) as other:
                    return s.diff(other)

            found = await episodes.run(session_id, work, timeout=60)
        return json_response({"changes": [change_json(c) for c in found], "tables": found.tables()})

    async def call_log(request: Request) -> Response:
        records = await episodes.run(sid(request), lambda s: list(s.log), timeout=60)
        return json_response({"calls": [record_json(r) for r in records]})

    async def stats(request: Request) -> Response:
        return json_response(episodes.stats())

    async def servers(request: Request) -> Response:
        return json_response({"servers": [
            {"name": s.name, "title": s.title, "description": s.description, "tools": len(s.visible_tools),
             "mcp": f"/mcp/{s.name}"} for s in episodes.servers.values()]})

    table: list[tuple[str, str, str, Handler]] = [
        ("/v1/sessions", "POST", "create", create),
        ("/v1/sessions", "GET", "list", list_sessions),
        ("/v1/sessions/{sid}", "GET", "get", get),
        ("/v1/sessions/{sid}", "DELETE", "close", close),
        ("/v1/sessions/{sid}/calls", "POST", "call", call),
        ("/v1/sessions/{sid}/tools", "GET", "tools", tools),
        ("/v1/sessions/{sid}/advance", "POST", "advance", advance),
        ("/v1/sessions/{sid}/fork", "POST", "fork", fork),
        ("/v1/sessions/{sid}/reset", "POST", "reset", reset),
        ("/v1/sessions/{sid}/snapshots", "POST", "snapshot", snapshot),
        ("/v1/sessions/{sid}/snapshots/{snap}", "DELETE", "delete_snapshot", delete_snapshot),
        ("/v1/sessions/{sid}/restore", "POST", "restore", restore),
        ("/v1/sessions/{sid}/fingerprint", "GET", "fingerprint", fingerprint),
        ("/v1/sessions/{sid}/diff", "GET", "diff", diff),
        ("/v1/sessions/{sid}/log", "GET", "log", call_log),
        ("/v1/stats", "GET", "stats", stats),
        ("/v1/servers", "GET", "servers", servers),
    ]
    return [Route(path, op(name, fn), methods=[method]) for path, method, name, fn in table]
