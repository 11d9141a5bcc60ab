"""Where the episodes of a VERL worker live: an in-process session pool, or a `prove serve`.

One pool per worker process (VERL runs agent loops as coroutines in its AgentLoopWorker
actors). In-process, an episode is a pooled `Session` held under a lease for as long as the
agent loop runs it, and closed when it ends; the pool's idle TTL only reaps what a crashed
caller leaves behind, and its cap refuses new episodes beyond `max_sessions`. Remotely, an
episode is a `prove.mcp.RemoteEnv` on the given workers, whose own TTL does the same.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from prove.env import SessionPool, UnknownSessionError

__all__ = ["EnvConfig", "Opened", "pool"]

_POOLS: dict[tuple[int, float], SessionPool] = {}
_LOCK = threading.Lock()


def pool(max_sessions: int = 4096, idle_ttl: float = 600.0) -> SessionPool:
    """This process's session pool for these settings (started on first use)."""
    key = (max_sessions, idle_ttl)
    with _LOCK:
        found = _POOLS.get(key)
        if found is None:
            found = _POOLS[key] = SessionPool(max_sessions=max_sessions, idle_ttl=idle_ttl,
                                              reap_interval=min(30.0, idle_ttl / 4)).start()
        return found


@dataclass
class Opened:
    """An open episode: the environment, and in-process the pool and lease that hold it."""

    env: Any
    pool: SessionPool | None
    lease: Any


@dataclass(frozen=True)
class EnvConfig:
    """How to open episodes.

    Attributes:
        url: a `prove serve` base URL, or several workers' URLs separated by commas; None for
            in-process sessions.
        token: the server's bearer token.
        call_timeout: seconds a tool call's SQL may run in-process (a remote server enforces
            its own `--call-timeout`).
        max_sessions: cap on live in-process episodes in this worker.
        idle_ttl: seconds an unused in-process episode lives.
    """

    url: str | None = None
    token: str | None = None
    call_timeout: float | None = 10.0
    max_sessions: int = 4096
    idle_ttl: float = 600.0

    @property
    def urls(self) -> list[str]:
        return [u.strip() for u in (self.url or "").split(",") if u.strip()]

    def _remote(self, servers: Sequence[str], world: int, session_id: str | None) -> Any:
        from prove.mcp import RemoteEnv  # only when episodes are remote

        timeout = max(60.0, 3 * (self.call_timeout or 10.0))
        return RemoteEnv(list(servers), world, url=self.urls, token=self.token, session_id=session_id,
                         timeout=timeout)

    def open(self, servers: Sequence[str], world: int) -> Opened:
        """A fresh episode, held until `close` (in-process: under a lease, never reaped meanwhile)."""
        if self.url:
            return Opened(self._remote(servers, world, None), None, None)
        p = pool(self.max_sessions, self.idle_ttl)
        session = p.create(list(servers), world)
        session.timeout = self.call_timeout
        lease = p.lease(session.id)
        return Opened(lease.__enter__(), p, lease)

    def close(self, opened: Opened) -> None:
        """Close an episode `open` returned. Idempotent."""
        if opened.pool is None:
            opened.env.close()
            return
        if opened.lease is not None:
            lease, opened.lease = opened.lease, None
            lease.__exit__(None, None, None)
            try:
                opened.pool.close(opened.env.id)
            except UnknownSessionError:
                pass

    @contextmanager
    def episode(self, servers: Sequence[str], world: int) -> Iterator[Any]:
        """`open` and `close` around a block."""
        opened = self.open(servers, world)
        try:
            yield opened.env
        finally:
            self.close(opened)

    def call_keyed(self, key: str, servers: Sequence[str], world: int, name: str, arguments: Any) -> Any:
        """Run one call on the episode named `key` (opened on first use), under a lease in-process."""
        env = self.keyed(key, servers, world)
        if self.url:
            return env.call(name, arguments)
        with pool(self.max_sessions, self.idle_ttl).lease(env.id) as leased:
            return leased.call(name, arguments)

    def keyed(self, key: str, servers: Sequence[str], world: int) -> Any:
        """The episode named `key`, opened on first use and left to the idle TTL (VERL's stock tools).

        In-process the key is the pooled session's ID; remotely, the remote session's.
        """
        if self.url:
            return _remote_keyed(self, key, servers, world)
        p = pool(self.max_sessions, self.idle_ttl)
        with _LOCK:
            if key in p:
                return p.get(key)
            session = p.create(list(servers), world, session_id=key)
            session.timeout = self.call_timeout
            return session


_REMOTE: dict[str, Any] = {}


def _remote_keyed(cfg: EnvConfig, key: str, servers: Sequence[str], world: int) -> Any:
    from prove.mcp import RemoteEnv

    with _LOCK:
        env = _REMOTE.get(key)
        if env is not None:
            return env
        try:
            env = cfg._remote(servers, world, key)
        except Exception as exc:  # noqa: BLE001 - created by another process: attach to it
            if getattr(exc, "code", None) != "session_exists":
                raise
            env = RemoteEnv.attach(key, url=cfg.urls, token=cfg.token)
        if len(_REMOTE) > 4 * cfg.max_sessions:      # handles only; the server reaps the sessions
            _REMOTE.clear()
        _REMOTE[key] = env
        return env
