"""The server registry: built-in servers and third-party ones, through one entry-point group.

A package makes servers known by declaring, in its `pyproject.toml`:

    [project.entry-points."prove.servers"]
    my_server = "my_package.my_server:server"

PROVE's own servers are declared the same way. Servers load lazily, on first use.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from importlib.metadata import entry_points

from .errors import ProveError, ToolDefinitionError, UnknownServerError
from .server import Server

GROUP = "prove.servers"


class Registry:
    """Maps server names to `Server` objects, importing each on first use."""

    def __init__(self) -> None:
        self._servers: dict[str, Server] = {}
        self._pending: dict[str, str] | None = None
        self._lock = threading.RLock()

    def _discover(self) -> dict[str, str]:
        if self._pending is None:
            self._pending = {ep.name: ep.value for ep in entry_points(group=GROUP)}
        return self._pending

    def register(self, server: Server, *, replace: bool = False) -> Server:
        """Make a server known under its name (for servers built in code, tests, notebooks)."""
        with self._lock:
            if not replace and server.name in self.names():
                raise ToolDefinitionError(f"a server named {server.name!r} is already registered")
            self._servers[server.name] = server
            return server

    def unregister(self, name: str) -> None:
        with self._lock:
            self._servers.pop(name, None)
            self._discover().pop(name, None)

    def names(self) -> list[str]:
        with self._lock:
            return sorted(set(self._servers) | set(self._discover()))

    def get(self, name: str) -> Server:
        with self._lock:
            found = self._servers.get(name)
            if found is not None:
                return found
            target = self._discover().get(name)
            if target is None:
                raise UnknownServerError(f"no server named {name!r}; known: {', '.join(self.names())}")
            server = _load(name, target)
            self._servers[name] = server
            return server

    def all(self) -> list[Server]:
        return [self.get(name) for name in self.names()]

    def loadable(self, names: Sequence[str] = ()) -> tuple[list[Server], dict[str, ProveError]]:
        """The named servers (default: every registered one) that load, and why each other did not."""
        found: list[Server] = []
        broken: dict[str, ProveError] = {}
        for name in names or self.names():
            try:
                found.append(self.get(name))
            except ProveError as exc:
                broken[name] = exc
        return found, broken

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()


def _load(name: str, target: str) -> Server:
    from importlib import import_module

    module_name, _, attr = target.partition(":")
    try:
        obj = import_module(module_name)
        for part in filter(None, attr.split(".")):
            obj = getattr(obj, part)
    except ToolDefinitionError:
        raise
    except Exception as exc:  # a broken third-party package must not look like our bug
        raise ToolDefinitionError(f"server {name!r} ({target}) failed to load: {exc!r}") from exc
    if not isinstance(obj, Server):
        raise ToolDefinitionError(f"entry point {name!r} -> {target!r} is not a prove.env.Server")
    if obj.name != name:
        raise ToolDefinitionError(f"entry point {name!r} loads a server named {obj.name!r}")
    return obj


registry = Registry()
