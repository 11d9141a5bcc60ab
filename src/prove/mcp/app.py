"""The ASGI application of one serving process: MCP endpoints, control plane, health, metrics.

```
/mcp/<server>     one server's tools (streamable HTTP, JSON responses); also at /<server>/mcp, for
                  clients that infer the transport from a URL ending in /mcp
/mcp              the tools of an episode's servers (?servers=a,b&world=7 for a plain client)
/v1/...           the control plane (see control.py)
/healthz          liveness, without a token
/metrics          Prometheus text format
```

Bound to loopback, every request must carry a loopback Host (and Origin, when sent), which
stops DNS-rebinding pages from driving it; with a token, every route but `/healthz` requires
`Authorization: Bearer <token>`. An episode token (issued by the control plane with each session)
reaches that one episode over MCP and nothing else, with or without a control-plane token.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import Message, Receive, Scope, Send

from . import control
from .config import ServeConfig, is_loopback
from .endpoint import MCP_SESSION_HEADER, PINNED_EPISODE, Endpoint
from .episodes import Episodes
from .errors import ServeError
from .metrics import Metrics

log = logging.getLogger("prove.mcp")


def _loopback_name(name: str) -> bool:
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def loopback_host(host: str) -> bool:
    """Whether a Host header names a loopback address (`127.0.0.1:8000`, `[::1]`, `localhost`)."""
    if host.startswith("["):
        name = host[1:host.find("]")] if "]" in host else ""
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return bool(name) and _loopback_name(name.lower())


def loopback_origin(origin: str) -> bool:
    try:
        name = urlsplit(origin).hostname
    except ValueError:
        return False
    return name is not None and _loopback_name(name.lower())


def is_mcp_path(path: str) -> bool:
    """`/mcp`, `/mcp/<server>` or `/<server>/mcp`: the routes an episode token may reach."""
    return path == "/mcp" or path.startswith("/mcp/") or (path.endswith("/mcp") and path.count("/") == 2)


async def _refuse(send: Send, err: ServeError, headers: list[tuple[bytes, bytes]] | None = None,
                  websocket: bool = False) -> None:
    if websocket:     # closed before it is accepted: the client's handshake gets HTTP 403
        await send({"type": "websocket.close", "code": 1008, "reason": f"{err.code}: {err.message}"[:120]})
        return
    body = control.dumps(err.body())
    await send({"type": "http.response.start", "status": err.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """Host/Origin checks on loopback, and the bearer tokens, in front of every route.

    The control-plane token opens every route. An episode token opens the MCP routes only, for
    its own episode: the request is pinned to it (`scope[PINNED_EPISODE]`).
    """

    def __init__(self, app: Any, config: ServeConfig, metrics: Metrics, episodes: Episodes) -> None:
        self.app = app
        self.check_host = is_loopback(config.host)
        self.token = config.token.encode() if config.token else None
        self.metrics = metrics
        self.episodes = episodes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        ws = scope["type"] == "websocket"
        host = origin = auth = None
        for key, value in scope["headers"]:
            if key == b"host":
                host = value
            elif key == b"origin":
                origin = value
            elif key == b"authorization":
                auth = value
        if self.check_host:
            if host is None or not loopback_host(host.decode("latin-1")):
                self.metrics.refused["forbidden_host"] += 1
                await _refuse(send, ServeError("forbidden_host", "this server answers loopback Host headers only",
                                               "It is bound to loopback; a browser page cannot rebind to it."),
                              websocket=ws)
                return
            if origin is not None and not loopback_origin(origin.decode("latin-1")):
                self.metrics.refused["forbidden_origin"] += 1
                await _refuse(send, ServeError("forbidden_origin", "requests from a non-loopback Origin are refused"),
                              websocket=ws)
                return
        supplied = auth[7:] if auth is not None and auth[:7].lower() == b"bearer " else b""
        pinned = self.episodes.token_episode(supplied.decode("latin-1")) if supplied else None
        if pinned is not None:
            if not is_mcp_path(scope["path"]):
                self.metrics.refused["forbidden_episode"] += 1
                await _refuse(send, ServeError("forbidden_episode", "an episode token reaches its episode over MCP only",
                                               "The control plane needs the control-plane token."), websocket=ws)
                return
            scope[PINNED_EPISODE] = pinned
        elif self.token is not None and scope["path"] != "/healthz":
            if not hmac.compare_digest(supplied, self.token):
                self.metrics.refused["unauthorized"] += 1
                await _refuse(send, ServeError("unauthorized", "a valid bearer token is required",
                                               "Send Authorization: Bearer <token>, the token given to prove serve."),
                              [(b"www-authenticate", b'Bearer realm="prove"')], websocket=ws)
                return
        await self.app(scope, receive, send)


class McpRoutes:
    """Routes `/mcp`, `/mcp/<server>` and `/<server>/mcp` to their session managers (an ASGI app, not a view)."""

    def __init__(self, managers: dict[str, StreamableHTTPSessionManager], episodes: Episodes) -> None:
        self.managers = managers
        self.episodes = episodes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        name = scope.get("path_params", {}).get("server", "")
        manager = self.managers.get(name)
        if manager is None:
            served = ", ".join(n for n in self.managers if n)
            await _refuse(send, ServeError("unknown_server", f"no MCP endpoint {scope['path'][:90]}",
                                           f"Served: {served} (at /mcp/<server> and /<server>/mcp); "
                                           "/mcp is the episode endpoint."))
            return
        if scope["method"] != "DELETE":
            await manager.handle_request(scope, receive, send)
            return
        # The client ended its MCP session: close its episode now instead of at its idle TTL.
        session_id = next((v.decode("latin-1") for k, v in scope["headers"] if k == MCP_SESSION_HEADER.encode()), None)
        status = 0

        async def watch(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        await manager.handle_request(scope, receive, watch)
        if session_id and status < 400:
            self.episodes.mcp_session_ended(session_id)


class ServeApp:
    """Everything one `prove serve` process answers; an ASGI application.

    Args:
        config: what to serve and how (checked here: unknown servers, an open port without a
            token and bad limits are refused with `ConfigError`).
    """

    def __init__(self, config: ServeConfig) -> None:
        self.config = config = config.checked()
        self.metrics = Metrics(config.worker)
        self.episodes = Episodes(config, self.metrics)
        sessions = "explicit" if config.stateless else "mcp"
        endpoints = {name: Endpoint(self.episodes, server, sessions=sessions)
                     for name, server in self.episodes.servers.items()}
        endpoints[""] = Endpoint(self.episodes, None, sessions=sessions)
        self.endpoints = endpoints
        # An MCP session lives `handshake_ttl` idle until it binds an episode, then `idle_ttl`; MCP
        # sessions are capped on their own, apart from the episodes (`max_sessions`).
        self.managers = {
            name: StreamableHTTPSessionManager(
                app=ep.server, json_response=True, stateless=config.stateless, security_settings=None,
                max_request_body_size=config.max_request_bytes, session_idle_timeout=config.handshake_ttl,
                max_sessions=config.max_mcp_sessions)
            for name, ep in endpoints.items()
        }
        for name, ep in endpoints.items():
            ep.on_bound = _extend_idle(self.managers[name], config.idle_ttl)
        mcp = McpRoutes(self.managers, self.episodes)
        routes = [
            Route("/mcp", mcp),
            Route("/mcp/{server}", mcp),
            Route("/{server}/mcp", mcp),
            *control.routes(self.episodes, config.max_request_bytes),
            Route("/healthz", self._healthz, methods=["GET"]),
            Route("/metrics", self._metrics, methods=["GET"]),
        ]
        self.starlette = Starlette(routes=routes, lifespan=self._lifespan)
        self._app = Guard(self.starlette, config, self.metrics, self.episodes)

    @asynccontextmanager
    async def _lifespan(self, _: Starlette) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            await stack.enter_async_context(self.episodes)
            for manager in self.managers.values():
                await stack.enter_async_context(manager.run())
            log.info("serving %s (worker %d of %d)", ", ".join(self.config.servers), self.config.worker + 1,
                     self.config.workers)
            yield

    async def _healthz(self, request: Request) -> Response:
        return control.json_response({
            "status": "ok", "worker": self.config.worker, "workers": self.config.workers,
            "servers": list(self.config.servers), "stateless": self.config.stateless,
            "sessions": self.episodes.pool.stats().to_dict(),
        })

    async def _metrics(self, request: Request) -> Response:
        return Response(self.metrics.render(self.episodes.pool), media_type="text/plain; version=0.0.4")

    def mount(self, routes: Sequence[BaseRoute]) -> None:
        """Serve more routes beside MCP and the control plane (behind the same guard), such as
        the OpenEnv protocol (`prove.integrations.openenv`). Before the app starts."""
        self.starlette.router.routes.extend(routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._app(scope, receive, send)


def _extend_idle(manager: StreamableHTTPSessionManager, seconds: float) -> Callable[[str], None]:
    """What an endpoint calls when an MCP session binds an episode: that session now lives
    `seconds` idle, not the handshake's TTL. The SDK has no public setter for one session's idle
    timeout; its transport reads `_idle_timeout` at the end of every request (this one included)."""

    def extend(mcp_session_id: str) -> None:
        transport = manager._server_instances.get(mcp_session_id)
        if transport is not None:
            transport._idle_timeout = seconds

    return extend


def uvicorn_config(app: ServeApp, **overrides: Any) -> Any:
    """The uvicorn settings `prove serve` uses (access log off: metrics count requests)."""
    import uvicorn

    options: dict[str, Any] = {"host": app.config.host, "port": app.config.port, "log_level": "warning",
                               "access_log": False, "lifespan": "on", "backlog": 4096,
                               "timeout_graceful_shutdown": 5}
    options.update(overrides)
    return uvicorn.Config(app, **options)


def serve(config: ServeConfig, mount: Callable[[ServeApp], None] | None = None) -> None:
    """Run one serving process until interrupted (`mount` may add routes to the app first)."""
    import uvicorn

    app = ServeApp(config)
    if mount is not None:
        mount(app)
    uvicorn.Server(uvicorn_config(app, ws_max_size=config.max_request_bytes)).run()
