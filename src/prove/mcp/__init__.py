"""MCP serving: every server over streamable HTTP or stdio, episodes, leases and a control plane.

`prove serve` runs `ServeApp`; `RemoteEnv` drives its control plane with the interface of the
in-process `prove.env.Session`. See docs/mcp.md.
"""

from .app import ServeApp, serve
from .config import ConfigError, ServeConfig, is_loopback, load_servers
from .episodes import SESSION_HEADER, SESSION_META, Episodes
from .errors import RemoteError, ServeError
from .remote import (
    ControlClient,
    RemoteEnv,
    RemoteSnapshot,
    RemoteTool,
    shard,
    worker_urls,
)

__all__ = [
    "SESSION_HEADER", "SESSION_META", "ConfigError", "ControlClient", "Episodes", "RemoteEnv", "RemoteError",
    "RemoteSnapshot", "RemoteTool", "ServeApp", "ServeConfig", "ServeError", "is_loopback", "load_servers",
    "serve", "shard", "worker_urls",
]
