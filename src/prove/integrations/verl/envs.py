"""Where the episodes of a VERL worker live: an in-process session pool, a `prove serve`, or Ray actors.

One pool per worker process (VERL runs agent loops as coroutines in its AgentLoopWorker
actors). In-process, an episode is a pooled `Session` held under a lease for as long as the
agent loop runs it, and closed when it ends; the pool's idle TTL only reaps what a crashed
caller leaves behind, and its cap refuses new episodes beyond `max_sessions`. Remotely, an
episode is a `prove.mcp.RemoteEnv` on the given workers, whose own TTL does the same. On Ray
(`ray`: the settings of a `prove.integrations.ray.RayEnvPool`), an episode is a `RayEnv` on the
named pool of environment actors that every worker of the cluster shares (made by the first
worker that needs it), so the tools' work runs in the actors' processes, on any node, not beside
the worker's event loop.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from prove.records import plain

from prove.env import SessionExistsError, SessionPool, UnknownSessionError

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
        max_sessions: cap on live in-process episodes in this worker (on Ray: per actor).
        idle_ttl: seconds an unused episode lives (in-process, or on a Ray actor).
        ray: run the episodes on a shared pool of Ray actors: `RayEnvPool`'s options, such as
            `{"actors": 8, "name": "prove-env", "num_cpus": 1}` (`name` defaults to "prove-env");
            None: not on Ray.
    """

    url: str | None = None
    token: str | None = None
    call_timeout: float | None = 10.0
    max_sessions: int = 4096
    idle_ttl: float = 600.0
    ray: Any = None

    def __post_init__(self) -> None:
        if self.url and self.ray:
            raise ValueError("episodes run on a `prove serve` (url) or on Ray (ray), not both")

    @property
    def urls(self) -> list[str]:
        return [u.strip() for u in (self.url or "").split(",") if u.strip()]

    @property
    def remote(self) -> bool:
        """Episodes live outside this process (a `prove serve`, or Ray actors)."""
        return bool(self.url or self.ray)

    def ray_pool(self) -> Any:
        """This process's handle on the shared pool of environment actors (`ray` set)."""
        from prove.integrations.ray import shared_pool  # only when episodes are on Ray

        options = dict(plain(self.ray))
        options.setdefault("max_sessions", self.max_sessions)
        options.setdefault("idle_ttl", self.idle_ttl)
        options.setdefault("call_timeout", self.call_timeout)
        return shared_pool(**options)

    def _remote(self, servers: Sequence[str], world: int, session_id: str | None) -> Any:
        if self.ray:
            return self.ray_pool().open(list(servers), world, session_id=session_id)
        from prove.mcp import RemoteEnv  # only when episodes are remote

        timeout = max(60.0, 3 * (self.call_timeout or 10.0))
        return RemoteEnv(list(servers), world, url=self.urls, token=self.token, session_id=session_id,
                         timeout=timeout)

    def _attach(self, session_id: str) -> Any:
        if self.ray:
            return self.ray_pool().attach(session_id)
        from prove.mcp import RemoteEnv

        return RemoteEnv.attach(session_id, url=self.urls, token=self.token)

    def open(self, servers: Sequence[str], world: int) -> Opened:
        """A fresh episode, held until `close` (in-process: under a lease, never reaped meanwhile)."""
        if self.remote:
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
        if self.remote:
            return env.call(name, arguments)
        with pool(self.max_sessions, self.idle_ttl).lease(env.id) as leased:
            return leased.call(name, arguments)

    def keyed(self, key: str, servers: Sequence[str], world: int) -> Any:
        """The episode named `key`, opened on first use and left to the idle TTL (VERL's stock tools).

        In-process the key is the pooled session's ID; remotely, the remote session's.
        """
        if self.remote:
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
    with _LOCK:
        env = _REMOTE.get(key)
        if env is not None:
            return env
        try:
            env = cfg._remote(servers, world, key)
        except Exception as exc:  # noqa: BLE001 - created by another process: attach to it
            if not isinstance(exc, SessionExistsError) and getattr(exc, "code", None) != "session_exists":
                raise
            env = cfg._attach(key)
        if len(_REMOTE) > 4 * cfg.max_sessions:      # handles only; the server reaps the sessions
            _REMOTE.clear()
        _REMOTE[key] = env
        return env
