"""One MCP endpoint: the SDK's low-level server over PROVE's own schemas, with episode binding.

An endpoint shows either one server's tools (`/mcp/<server>`, names as the server declares
them) or every tool of an episode's servers (`/mcp`, names as the episode routes them).
A call is bound to its episode, in order, by `_meta["prove/session"]`, by the
`X-Prove-Session` header, by the URL's `?episode=ID` (created on first use and shared by every
MCP session whose URL names it: clients that open a new MCP session per call keep one world),
or by the MCP session itself (its episode is created on first use).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server as LowLevelServer
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.requests import Request

import prove
from prove.env import Server, tool_names

from .convert import call_result, mcp_tool
from .episodes import SESSION_HEADER, SESSION_META, Episodes, check_id
from .errors import ServeError, as_serve_error

MCP_SESSION_HEADER = "mcp-session-id"
EPISODE_QUERY = "episode"           # ?episode=ID: the named episode every MCP session of that URL shares
PINNED_EPISODE = "prove.episode"     # ASGI scope key: the episode a request's episode token reaches
STATIC_LISTING_TTL_MS = 60_000


def rpc_error(exc: ServeError) -> MCPError:
    data: dict[str, Any] = {"code": exc.code}
    if exc.hint:
        data["hint"] = exc.hint
    return MCPError(code=exc.rpc_code, message=exc.message, data=data)


class Endpoint:
    """The MCP face of one server (`scope`), or of whole episodes (`scope=None`).

    Args:
        episodes: the process's episodes.
        scope: the server this endpoint shows, or None for the episode endpoint.
        sessions: "mcp" (an MCP session without explicit binding is an episode), "explicit"
            (every call must bind: --stateless), or "fixed" (stdio: the one episode `fixed`).
        fixed: the episode of a stdio process.
    """

    def __init__(self, episodes: Episodes, scope: Server | None, *, sessions: str = "mcp",
                 fixed: str | None = None) -> None:
        self.episodes = episodes
        self.scope = scope
        self.sessions = sessions
        self.fixed = fixed
        self.on_bound: Callable[[str], None] | None = None   # told the MCP session that binds an episode
        served = list(episodes.servers.values())
        self._listing_cache: dict[tuple[str, ...], dict[str, Any]] = {}
        if scope is not None:
            # One server's listing is the same for every client: cacheable on the 2026 wire.
            self._static = {"tools": [mcp_tool(t) for t in scope.visible_tools]}
            self._static_modern = {**self._static, "ttlMs": STATIC_LISTING_TTL_MS, "cacheScope": "public",
                                   "resultType": "complete"}
            self._inputs = {t.name: t.parameters for t in scope.visible_tools}
            name, title, description = f"prove-{scope.name}", scope.title, scope.description
        else:
            self._static = None
            self._inputs = {n: t.parameters for n, t in tool_names(served).items() if not t.hidden}
            name, title = "prove", "PROVE episode"
            description = "Every tool of an episode's servers: " + ", ".join(s.title for s in served) + "."
        self.server = LowLevelServer(
            name, version=prove.__version__, title=title, description=description, instructions=description,
            on_list_tools=self._list_tools, on_call_tool=self._call_tool,
            get_tool_input_schema=self._inputs.get,
        )
        # Our own metrics replace the SDK's per-message tracing span (a no-op without an exporter).
        self.server.middleware = []
        if sessions == "mcp":
            # A plain client is an episode only through its MCP session, which the 2026 wire (one
            # self-contained POST per request) does not have: advertise the handshake versions only,
            # so that `mode="auto"` clients fall back to `initialize` and get a session.
            self.server.add_request_handler("server/discover", types.RequestParams, self._discover)

    async def _discover(self, ctx: Any, params: Any) -> types.DiscoverResult:
        return types.DiscoverResult(supported_versions=list(HANDSHAKE_PROTOCOL_VERSIONS),
                                    capabilities=self.server.get_capabilities(), instructions=self.server.instructions)

    # ----- binding -----------------------------------------------------------------------------

    @staticmethod
    def explicit(params: Any, request: Request | None) -> str | None:
        """The episode a request names itself: `_meta["prove/session"]`, else `X-Prove-Session`."""
        meta = getattr(params, "meta", None)
        if meta:
            value = meta.get(SESSION_META)
            if value is not None:
                return check_id(value, f'_meta["{SESSION_META}"]')
        if request is not None:
            value = request.headers.get(SESSION_HEADER)
            if value:
                return check_id(value, "X-Prove-Session header")
        return None

    @staticmethod
    def named(request: Request | None) -> str | None:
        """The episode the URL names (`?episode=ID`), if any."""
        value = request.query_params.get(EPISODE_QUERY) if request is not None else None
        return check_id(value, "?episode= name") if value is not None else None

    def _query_servers(self, request: Request | None) -> tuple[list[str], int]:
        """The servers and world of an episode that an MCP session opens (`?servers=a,b&world=7`)."""
        world = self.episodes.config.world
        servers = [self.scope.name] if self.scope is not None else list(self.episodes.servers)
        if request is None:
            return servers, world
        query = request.query_params
        if "world" in query:
            try:
                world = int(query["world"])
            except ValueError:
                raise ServeError("invalid_request",
                                 f"?world= takes an integer seed, got {query['world'][:40]!r}") from None
        if self.scope is None and query.get("servers"):
            servers = [s.strip() for s in query["servers"].split(",") if s.strip()]
        return servers, world

    @staticmethod
    def pinned(request: Request | None, session_id: str | None) -> str | None:
        """The episode an episode token pins this request to (a different explicit one is refused)."""
        pinned = request.scope.get(PINNED_EPISODE) if request is not None else None
        if pinned is not None and session_id is not None and session_id != pinned:
            raise ServeError("forbidden_episode", "this request's episode token reaches another episode",
                             "An episode token reaches its own episode only; the control plane reaches any.")
        return pinned

    async def bind(self, ctx: Any, params: Any) -> str:
        """The ID of the episode this request acts on (creating a plain MCP session's episode)."""
        request = ctx.request if isinstance(ctx.request, Request) else None
        explicit = self.explicit(params, request)
        named = self.named(request) if explicit is None else None
        session_id = self.pinned(request, explicit or named) or explicit
        mcp_session = request.headers.get(MCP_SESSION_HEADER) if request is not None else None
        if session_id is None and self.sessions == "fixed" and self.fixed is not None:
            session_id = self.fixed
        if session_id is None and named is not None:
            session_id = await self.episodes.named(named, *self._query_servers(request))
        if session_id is None and self.sessions == "mcp" and mcp_session:
            servers, world = self._query_servers(request)
            session_id = await self.episodes.for_mcp_session(mcp_session, servers, world)
        if session_id is not None:
            if mcp_session and self.on_bound is not None:
                self.on_bound(mcp_session)
            return session_id
        if self.sessions == "explicit":
            raise ServeError("no_episode", "this server is stateless: every call must name its episode",
                             f'Create a session on the control plane (POST /v1/sessions) and send its ID as '
                             f'_meta["{SESSION_META}"] or the X-Prove-Session header, or name one in the URL '
                             f'(?{EPISODE_QUERY}=ID).')
        raise ServeError("no_episode", "this request names no episode and has no MCP session to be one",
                         f'Send _meta["{SESSION_META}"] or X-Prove-Session, name one in the URL '
                         f'(?{EPISODE_QUERY}=ID), or connect with the initialize handshake so that the MCP '
                         f'session is the episode.')

    # ----- handlers ----------------------------------------------------------------------------

    def _listing(self, servers: Sequence[str]) -> dict[str, Any]:
        key = tuple(servers)
        found = self._listing_cache.get(key)
        if found is None:
            known = self.episodes.servers
            missing = [s for s in servers if s not in known]
            if missing:
                raise ServeError("unknown_server", f"this process does not serve {', '.join(missing)}",
                                 f"Served: {', '.join(known)}.")
            names = tool_names([known[s] for s in servers])
            found = {"tools": [mcp_tool(t, n) for n, t in names.items() if not t.hidden]}
            if len(self._listing_cache) < 256:
                self._listing_cache[key] = found
        return found

    async def _list_tools(self, ctx: Any, params: types.PaginatedRequestParams | None) -> dict[str, Any]:
        modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
        try:
            if self._static is not None:
                return self._static_modern if modern else self._static
            request = ctx.request if isinstance(ctx.request, Request) else None
            explicit = self.explicit(params, request)
            named = self.named(request) if explicit is None else None
            bound = (self.pinned(request, explicit or named) or explicit
                     or (self.fixed if self.sessions == "fixed" else None))
            if bound is None and named is not None and named in self.episodes.pool:
                bound = named
            servers = self.episodes.servers_of(bound) if bound is not None else self._query_servers(request)[0]
            listing = self._listing(servers)
        except Exception as exc:
            raise self._rpc(exc) from None
        # The 2026 wire requires the caching fields and resultType (a model would default them).
        return {**listing, "ttlMs": 0, "cacheScope": "private", "resultType": "complete"} if modern else listing

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        try:
            session_id = await self.bind(ctx, params)
            result = await self.episodes.call(session_id, params.name, params.arguments, scope=self.scope)
        except Exception as exc:
            raise self._rpc(exc) from None
        out = call_result(result)
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            out["resultType"] = "complete"
        return out

    def _rpc(self, exc: Exception) -> Exception:
        """A refusal as a JSON-RPC error (counted); anything else propagates as the SDK's internal error."""
        err = as_serve_error(exc)
        if err is None:
            return exc
        self.episodes.metrics.refused[err.code] += 1
        return rpc_error(err)
