"""What `prove serve` is told: servers, address, binding mode, limits, leases and the token."""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass, field, replace

from prove.env import ProveError, registry

log = logging.getLogger("prove.mcp")
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def is_loopback(host: str) -> bool:
    """Whether `host` is a loopback address or name (anything else is reachable from outside)."""
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class ConfigError(ProveError):
    """`prove serve` was asked for something it must not do (such as an open port without a token)."""


@dataclass(frozen=True)
class ServeConfig:
    """Everything one serving process needs to know.

    Attributes:
        servers: server names to serve; empty means every registered server.
        host: address to bind. Loopback by default; any other address requires `token`.
        port: TCP port (0 picks a free one).
        stateless: serve only clients that bind every call to an episode explicitly
            (`_meta["prove/session"]` or `X-Prove-Session`); no MCP sessions are kept.
        world: world seed of the episodes that MCP sessions open (`?world=` overrides it).
        max_sessions: hard cap on live episodes (the pool refuses beyond it).
        idle_ttl: seconds an episode may sit unused before it is reaped.
        handshake_ttl: seconds an MCP session that has bound no episode yet may sit idle
            (such sessions do not count against `max_sessions`).
        max_mcp_sessions: cap on open MCP sessions per endpoint, bound or not.
        log_bytes: how much of each call's arguments and result an episode's call log keeps.
        reap_interval: seconds between reaper passes.
        call_timeout: seconds a tool call may run before the caller gets a `timeout` error.
        max_request_bytes: largest accepted HTTP request body.
        token: bearer token required on every route but `/healthz` (required off loopback).
        worker: index of this worker among `workers` (for logs, metrics and health).
        workers: how many worker processes serve episodes, one port each from `port`.
    """

    servers: tuple[str, ...] = ()
    host: str = "127.0.0.1"
    port: int = 8000
    stateless: bool = False
    world: int = 0
    max_sessions: int = 1024
    idle_ttl: float = 600.0
    handshake_ttl: float = 30.0
    max_mcp_sessions: int = 10_000
    log_bytes: int = 4096
    reap_interval: float = 5.0
    call_timeout: float = 10.0
    max_request_bytes: int = 1 << 20
    token: str | None = field(default=None, repr=False)
    worker: int = 0
    workers: int = 1

    def checked(self) -> ServeConfig:
        """This configuration with `servers` resolved, or a `ConfigError` saying what is wrong."""
        if not is_loopback(self.host) and not self.token:
            raise ConfigError(
                f"refusing to bind {self.host}: off loopback a bearer token is required "
                "(--token or PROVE_TOKEN), since the control plane can read and change every episode")
        if self.token is not None and len(self.token) < 16:
            raise ConfigError("the bearer token must be at least 16 characters long")
        for name, value in (("max_sessions", self.max_sessions), ("max_request_bytes", self.max_request_bytes),
                            ("workers", self.workers), ("max_mcp_sessions", self.max_mcp_sessions),
                            ("log_bytes", self.log_bytes)):
            if value < 1:
                raise ConfigError(f"{name} must be at least 1, got {value}")
        for name, value in (("idle_ttl", self.idle_ttl), ("reap_interval", self.reap_interval),
                            ("call_timeout", self.call_timeout), ("handshake_ttl", self.handshake_ttl)):
            if not value > 0:
                raise ConfigError(f"{name} must be a positive number of seconds, got {value}")
        if not 0 <= self.port <= 65535 or (self.workers > 1 and self.port == 0) or self.port + self.workers - 1 > 65535:
            raise ConfigError(f"port {self.port} cannot serve {self.workers} worker(s) (one port each from it)")
        known = registry.names()
        names = tuple(dict.fromkeys(self.servers))
        unknown = [n for n in names if n not in known]
        if unknown:
            raise ConfigError(f"unknown server(s) {', '.join(unknown)}; known: {', '.join(known) or 'none'}")
        for name in names:
            registry.get(name)          # a named server that does not load is an error
        if not names:                   # every registered server that loads; the others are reported
            loaded, broken = registry.loadable()
            for name, exc in broken.items():
                log.warning("not serving %s: %s", name, exc)
            names = tuple(s.name for s in loaded)
        if not names:
            raise ConfigError("no server to serve: none is registered (or none loads)")
        return replace(self, servers=names)


def load_servers(specs: list[str] | tuple[str, ...]) -> list[str]:
    """Import `module[:attr]` specs that make servers known, returning the names they registered.

    `attr` may be a `Server`, a list of them, or a callable returning either; a bare module is
    imported for its side effects (such as `registry.register(...)` at import).
    """
    import importlib.util
    import sys
    from importlib import import_module
    from pathlib import Path

    from prove.env import Server

    names: list[str] = []
    for spec in specs:
        module_name, _, attr = spec.rpartition(":") if spec.count(":") and not spec.endswith(":") else (spec, "", "")
        try:
            if module_name.endswith(".py"):      # a file: loaded under a private module name
                path = Path(module_name).resolve()
                key = f"prove_loaded_{path.stem}_{abs(hash(str(path))):x}"
                module = sys.modules.get(key)
                if module is None:
                    file_spec = importlib.util.spec_from_file_location(key, path)
                    if file_spec is None or file_spec.loader is None:
                        raise ImportError(f"cannot load {path}")
                    module = importlib.util.module_from_spec(file_spec)
                    sys.modules[key] = module
                    file_spec.loader.exec_module(module)
                obj: object = module
            else:
                obj = import_module(module_name)
            for part in filter(None, attr.split(".")):
                obj = getattr(obj, part)
        except (ImportError, AttributeError, OSError) as exc:
            raise ConfigError(f"--load {spec}: {exc}") from exc
        if not attr:
            continue
        if callable(obj) and not isinstance(obj, Server):
            try:
                obj = obj()
            except Exception as exc:  # a broken factory is a configuration error, with its cause
                raise ConfigError(f"--load {spec}: calling {attr} failed: {exc!r}") from exc
        found = obj if isinstance(obj, (list, tuple)) else [obj]
        for server in found:
            if not isinstance(server, Server):
                raise ConfigError(f"--load {spec}: {type(server).__name__} is not a prove.env.Server")
            registry.register(server, replace=True)
            names.append(server.name)
    return names
