"""`prove serve <server> --stdio`: one server over stdio, for desktop MCP clients.

The process is the episode: one fresh world when it starts, closed when the client goes.
"""

from __future__ import annotations

import anyio
from mcp.server.stdio import stdio_server

from .config import ServeConfig
from .endpoint import Endpoint
from .episodes import Episodes


async def serve_stdio_async(server: str, world: int = 0, *, call_timeout: float = 10.0) -> None:
    config = ServeConfig(servers=(server,), world=world, call_timeout=call_timeout, max_sessions=1,
                         idle_ttl=365 * 24 * 3600.0).checked()
    async with Episodes(config, threads=4) as episodes:
        session = await episodes.create([server], world)
        endpoint = Endpoint(episodes, episodes.servers[server], sessions="fixed", fixed=session.id)
        low = endpoint.server
        async with stdio_server() as (read, write):
            await low.run(read, write, low.create_initialization_options())


def serve_stdio(server: str, world: int = 0, *, call_timeout: float = 10.0) -> None:
    """Serve one server over stdin/stdout until the client closes the pipe."""
    anyio.run(lambda: serve_stdio_async(server, world, call_timeout=call_timeout))
