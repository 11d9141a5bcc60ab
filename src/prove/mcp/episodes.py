"""The episodes one process serves: a session pool, plus what serving needs around it.

Every operation on a session runs on a worker thread, one at a time per episode (a gate), under
a lease that is held until the thread is done, so the reaper can never close a session that a
thread still uses. A tool call that outlives `call_timeout` answers `timeout` at once; its
SQLite work is aborted and rolled back, and the episode answers `episode_busy` until the thread
is really finished.
"""

from __future__ import annotations

import asyncio
import base64
import difflib
import functools
import hashlib
import hmac
import logging
import queue
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from prove.env import (
    UNKNOWN_TOOL,
    Server,
    Session,
    SessionExistsError,
    SessionPool,
    Snapshot,
    ToolResult,
    registry,
)

from .config import ServeConfig
from .errors import ServeError, as_serve_error
from .metrics import Metrics

log = logging.getLogger("prove.mcp")
T = TypeVar("T")

SESSION_META = "prove/session"
SESSION_HEADER = "x-prove-session"
MAX_ID_LENGTH = 128
_ABORT_GRACE = 1.0           # seconds an aborted call gets to unwind before the caller is answered
_MAX_SNAPSHOTS = 64          # per session
_MAX_SNAPSHOT_BYTES = 1 << 30   # all sessions together
_REMEMBERED_MCP = 100_000    # MCP session IDs remembered, to say "expired" rather than "unknown"
EPISODE_TOKEN_PREFIX = "prove-ep."


def check_id(value: Any, what: str = "session ID") -> str:
    """A caller-supplied session ID: a non-empty printable string of at most 128 characters."""
    if not isinstance(value, str) or not value or len(value) > MAX_ID_LENGTH or not value.isprintable():
        raise ServeError("invalid_request", f"a {what} is a printable string of 1 to {MAX_ID_LENGTH} characters",
                         f"got {str(value)[:40]!r}")
    return value


def unknown_tool(name: Any, shown: Sequence[str]) -> ToolResult:
    """The framework's `unknown_tool` result, for a name the endpoint does not show."""
    text = str(name)
    close = difflib.get_close_matches(text, list(shown), n=3) if isinstance(name, str) else []
    hint = f"Did you mean {', '.join(close)}?" if close else f"Available tools: {', '.join(shown)}."
    shown_name = text if len(text) <= 80 else text[:80] + "…"
    return ToolResult(text[:80], False, error={"code": UNKNOWN_TOOL,
                                               "message": f"No tool named {shown_name!r} in this episode.",
                                               "hint": hint})


class _Episode:
    """Serving state kept beside one pooled session."""

    __slots__ = ("gate", "session", "snapshots", "servers")

    def __init__(self, session: Session) -> None:
        self.gate = asyncio.Lock()
        self.session = session
        self.snapshots: dict[str, Snapshot] = {}
        self.servers = tuple(session.servers)


class DaemonExecutor(Executor):
    """A fixed pool of daemon threads: a tool that never returns cannot keep the process alive
    at exit (the standard pool's threads are joined at exit, so one hung call would be)."""

    def __init__(self, threads: int, name: str = "prove-call") -> None:
        self._queue: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]] | None] = \
            queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True) for i in range(threads)]
        self._closed = False
        for thread in self._threads:
            thread.start()

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            self._run(*item)
            del item        # an idle thread keeps nothing of its last call (function, arguments, result)

    @staticmethod
    def _run(future: Future[Any], fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            result = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting caller
            future.set_exception(exc)
        else:
            future.set_result(result)

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        if self._closed:
            raise RuntimeError("the executor is shut down")
        future: Future[T] = Future()
        self._queue.put((future, functools.partial(fn, **kwargs) if kwargs else fn, args))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._closed = True
        if cancel_futures:
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    item[0].cancel()
        for _ in self._threads:
            self._queue.put(None)
        if wait:
            for thread in self._threads:
                thread.join()


class Episodes:
    """Sessions under leases, run on worker threads with per-call timeouts.

    Must be used inside a running asyncio loop (`async with episodes:` starts the reaper).
    """

    def __init__(self, config: ServeConfig, metrics: Metrics | None = None, *, threads: int = 32) -> None:
        self.config = config
        self.metrics = metrics or Metrics(config.worker)
        self.pool = SessionPool(max_sessions=config.max_sessions, idle_ttl=config.idle_ttl,
                                reap_interval=config.reap_interval, log_bytes=config.log_bytes)
        # Episode tokens are signed with the control-plane token (shared by the workers), else
        # with a secret of this process (an episode lives in one process).
        self._secret = config.token.encode() if config.token else secrets.token_bytes(32)
        self.servers = {name: registry.get(name) for name in config.servers}
        self._executor = DaemonExecutor(threads)
        self._episodes: dict[str, _Episode] = {}
        self._from_mcp: OrderedDict[str, None] = OrderedDict()
        self._creating: dict[str, asyncio.Future[None]] = {}
        self._closing: set[asyncio.Task[None]] = set()
        self._snapshot_bytes = 0
        self._sweeper: asyncio.Task[None] | None = None

    # ----- lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> Episodes:
        self.pool.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)
        # Closing a session waits for its running call; a hung one must not hang the shutdown.
        closer = threading.Thread(target=self.pool.shutdown, name="prove-shutdown", daemon=True)
        closer.start()
        closer.join(5.0)
        if closer.is_alive():
            log.error("shutting down with a call still running; its session is abandoned")
        self._episodes.clear()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.reap_interval)
            self.sweep()

    def sweep(self) -> None:
        """Forget the serving state of sessions the pool no longer holds (reaped or closed)."""
        live = set(self.pool.ids())
        for sid in [s for s in self._episodes if s not in live]:
            self._forget(sid)

    def _forget(self, session_id: str) -> None:
        episode = self._episodes.pop(session_id, None)
        if episode is not None:
            self._snapshot_bytes -= sum(_size(s) for s in episode.snapshots.values())

    def stats(self) -> dict[str, Any]:
        return {**self.pool.stats().to_dict(), "max_sessions": self.config.max_sessions,
                "idle_ttl": self.config.idle_ttl, "worker": self.config.worker, "workers": self.config.workers}

    # ----- creating and finding episodes -------------------------------------------------------

    def _servers(self, names: Sequence[str]) -> list[Server]:
        if not names:
            raise ServeError("invalid_request", "a session needs at least one server")
        unknown = [n for n in names if n not in self.servers]
        if unknown:
            raise ServeError("unknown_server", f"this process does not serve {', '.join(map(str, unknown))}",
                             f"Served: {', '.join(self.servers)}.")
        if len(set(names)) != len(names):
            raise ServeError("invalid_request", f"a server appears twice in {list(names)}")
        return [self.servers[n] for n in names]

    async def create(self, servers: Sequence[str], world: int = 0, session_id: str | None = None) -> Session:
        """A new pooled episode (its world is built on a thread the first time a seed is used)."""
        resolved = self._servers(servers)
        if session_id is not None:
            check_id(session_id)
        try:
            session = await self._offload(lambda: self.pool.create(resolved, world, session_id=session_id))
        except SessionExistsError as exc:
            raise ServeError("session_exists", str(exc)) from None
        self._episodes[session.id] = _Episode(session)
        return session

    async def _ensure(self, session_id: str, servers: Sequence[str], world: int) -> bool:
        """Create episode `session_id` unless it is live; concurrent first uses create it once.
        True when this call created it."""
        if session_id in self._episodes and session_id in self.pool:
            return False
        pending = self._creating.get(session_id)
        if pending is not None:                    # its first calls arrived together: one creates
            await asyncio.shield(pending)
            return False
        creating = asyncio.get_running_loop().create_future()
        creating.add_done_callback(lambda f: f.cancelled() or f.exception())   # retrieved, even if unawaited
        self._creating[session_id] = creating
        try:
            await self.create(servers, world, session_id=session_id)
        except BaseException as exc:
            creating.set_exception(exc)
            raise
        else:
            creating.set_result(None)
        finally:
            del self._creating[session_id]
        return True

    async def for_mcp_session(self, mcp_session_id: str, servers: Sequence[str], world: int) -> str:
        """The episode of a plain MCP session: created on its first use, the same ID as the MCP session."""
        live = (mcp_session_id in self._episodes and mcp_session_id in self.pool) or mcp_session_id in self._creating
        if not live and mcp_session_id in self._from_mcp:
            raise ServeError("unknown_session", "the episode of this MCP session was closed, or reaped after "
                             f"{self.config.idle_ttl:g}s idle", "Open a new MCP session for a fresh episode.")
        if await self._ensure(mcp_session_id, servers, world):
            self._from_mcp[mcp_session_id] = None
            while len(self._from_mcp) > _REMEMBERED_MCP:
                self._from_mcp.popitem(last=False)
        return mcp_session_id

    async def named(self, session_id: str, servers: Sequence[str], world: int) -> str:
        """The episode a URL names (`?episode=ID`): the live one of that ID, else a fresh one created
        with it, shared by every MCP session (every connection) that names it."""
        await self._ensure(check_id(session_id, "?episode= name"), servers, world)
        return session_id

    def mcp_session_ended(self, mcp_session_id: str) -> None:
        """The client deleted its MCP session: close its episode now rather than at its TTL
        (in the background: closing waits for a call still running on it)."""
        if mcp_session_id in self._from_mcp and mcp_session_id in self._episodes:
            task = asyncio.get_running_loop().create_task(self._close_quietly(mcp_session_id))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def _close_quietly(self, session_id: str) -> None:
        try:
            await self.close(session_id)
        except ServeError as exc:
            log.warning("could not close the episode of a deleted MCP session: %s", exc.message)

    def _episode(self, session_id: str) -> _Episode:
        episode = self._episodes.get(session_id)
        if episode is None or session_id not in self.pool:
            raise ServeError("unknown_session",
                             f"no live session {session_id[:80]!r} (closed, reaped or never created)",
                             "Create it on the control plane; sessions idle past their TTL are reaped.")
        return episode

    def servers_of(self, session_id: str) -> tuple[str, ...]:
        return self._episode(session_id).servers

    # ----- episode tokens ----------------------------------------------------------------------

    def episode_token(self, session_id: str) -> str:
        """A bearer token that reaches this one episode over MCP and nothing else (not the
        control plane, not another episode): what the model's side is given."""
        encoded = base64.urlsafe_b64encode(session_id.encode()).decode().rstrip("=")
        return f"{EPISODE_TOKEN_PREFIX}{encoded}.{self._mac(session_id)}"

    def token_episode(self, token: str) -> str | None:
        """The episode an episode token was issued for; None if it is not a valid one."""
        if not token.startswith(EPISODE_TOKEN_PREFIX):
            return None
        encoded, _, mac = token[len(EPISODE_TOKEN_PREFIX):].rpartition(".")
        try:
            session_id = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
        except (ValueError, UnicodeDecodeError):
            return None
        return session_id if hmac.compare_digest(mac, self._mac(session_id)) else None

    def _mac(self, session_id: str) -> str:
        digest = hmac.new(self._secret, b"prove-episode\0" + session_id.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    # ----- running operations ------------------------------------------------------------------

    async def _offload(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)

    async def run(self, session_id: str, fn: Callable[[Session], T], *, timeout: float | None = None) -> T:
        """Run `fn(session)` on a worker thread, alone on its episode and under a lease."""
        episode = self._episode(session_id)
        loop = asyncio.get_running_loop()
        limit = self.config.call_timeout if timeout is None else timeout
        deadline = loop.time() + limit
        gate = episode.gate
        if gate.locked():
            try:
                await asyncio.wait_for(gate.acquire(), limit)
            except TimeoutError:
                raise ServeError("episode_busy",
                                 f"another operation on this episode has been running for over {limit:g}s",
                                 "A call that timed out may still be unwinding; retry later.") from None
        else:
            await gate.acquire()
        try:
            lease = self.pool.lease(session_id)
            session = lease.__enter__()
        except BaseException as exc:
            gate.release()
            err = as_serve_error(exc)
            if err is not None:
                raise err from None
            raise
        future = loop.run_in_executor(self._executor, fn, session)
        waiter = loop.create_future()

        def finished(_: object) -> None:
            lease.__exit__(None, None, None)
            gate.release()
            if not waiter.done():
                waiter.set_result(None)

        future.add_done_callback(finished)
        timer = loop.call_later(max(deadline - loop.time(), 0.0), lambda: waiter.done() or waiter.set_result(None))
        try:
            await waiter
        finally:
            timer.cancel()
        if future.done():
            return future.result()
        return await self._abandon(future, episode, limit)

    async def _abandon(self, future: asyncio.Future[T], episode: _Episode, limit: float) -> T:
        episode.session.interrupt()     # the running SQLite statement aborts and the call rolls back
        try:
            await asyncio.wait_for(asyncio.shield(future), _ABORT_GRACE)
        except TimeoutError:
            self.metrics.timeouts_running += 1

            def done(_: object) -> None:
                self.metrics.timeouts_running -= 1

            future.add_done_callback(done)
            log.error("a call is still running %.1fs past its %gs timeout, blocked outside Python and SQLite "
                      "(a bug in the tool?)", _ABORT_GRACE, limit)
            raise ServeError("timeout", f"the call did not finish within {limit:g}s and is still running",
                             "It is blocked where it cannot be stopped at once: the episode answers episode_busy "
                             "until it ends, and its changes are rolled back then.") from None
        except Exception:  # noqa: BLE001 - the call failed while unwinding: it is rolled back either way
            pass
        raise ServeError("timeout", f"the call did not finish within {limit:g}s and was aborted",
                         "Its changes were rolled back; the episode is usable again.")

    async def call(self, session_id: str, name: Any, arguments: Any = None, *,
                   scope: Server | None = None, include_hidden: bool = False) -> ToolResult:
        """One tool call. `scope` limits it to one server's tools, under that server's own names;
        hidden tools answer `unknown_tool` unless `include_hidden` (the control plane's calls)."""
        started = time.perf_counter()
        episode = self._episode(session_id)
        if scope is not None and scope.name not in episode.servers:
            raise ServeError("server_not_in_session", f"session {session_id[:80]!r} has no server {scope.name!r}",
                             f"Its servers: {', '.join(episode.servers)}; use /mcp/<one of them> or /mcp.")

        def work(session: Session) -> tuple[ToolResult, str]:
            if scope is None:
                tool = session.tool(name)
                result = session.call(name, arguments, allow_hidden=include_hidden)
                return result, tool.server if tool is not None and result.code != UNKNOWN_TOOL else "-"
            tool = scope.tools.get(name) if isinstance(name, str) else None
            if tool is None or (tool.hidden and not include_hidden):
                if session.tool(name) is not None:    # hidden, or another server's tool
                    return unknown_tool(name, [t.name for t in scope.visible_tools]), scope.name
                return session.call(name, arguments), scope.name
            target = name if session.tool(name) is tool else f"{scope.name}_{name}"
            return session.call(target, arguments), scope.name

        result, server = await self.run(session_id, work)
        self.metrics.call(server, result.code, time.perf_counter() - started)
        return result

    # ----- the control plane's operations ------------------------------------------------------

    async def fork(self, session_id: str, new_id: str | None = None) -> Session:
        """A pooled copy of a live episode, taken between two of its calls."""
        if new_id is not None:
            check_id(new_id)
        try:
            child = await self.run(session_id, lambda s: self.pool.fork(session_id, new_id), timeout=60)
        except SessionExistsError as exc:
            raise ServeError("session_exists", str(exc)) from None
        self._episodes[child.id] = _Episode(child)
        return child

    def snapshot_store(self, session_id: str) -> dict[str, Snapshot]:
        return self._episode(session_id).snapshots

    async def snapshot(self, session_id: str) -> str:
        """Keep a snapshot of the episode on the server; its ID restores or diffs against it."""
        store = self.snapshot_store(session_id)
        if len(store) >= _MAX_SNAPSHOTS:
            raise ServeError("snapshot_limit", f"a session keeps at most {_MAX_SNAPSHOTS} snapshots",
                             "Delete the snapshots you no longer need.")
        if self._snapshot_bytes >= _MAX_SNAPSHOT_BYTES:
            raise ServeError("snapshot_limit", f"snapshots hold {self._snapshot_bytes >> 20} MiB, the limit",
                             "Delete snapshots or close sessions that hold them.")
        snap = await self.run(session_id, lambda s: s.snapshot(), timeout=60)
        snap_id = "snap-" + secrets.token_hex(8)
        store[snap_id] = snap
        self._snapshot_bytes += _size(snap)
        return snap_id

    def delete_snapshot(self, session_id: str, snapshot_id: str) -> None:
        snap = self.snapshot_store(session_id).pop(snapshot_id, None)
        if snap is None:
            raise ServeError("unknown_snapshot", f"no snapshot {snapshot_id[:80]!r} in this session")
        self._snapshot_bytes -= _size(snap)

    def find_snapshot(self, snapshot_id: str) -> Snapshot:
        for episode in self._episodes.values():
            found = episode.snapshots.get(snapshot_id)
            if found is not None:
                return found
        raise ServeError("unknown_snapshot", f"no snapshot {str(snapshot_id)[:80]!r} (deleted, or its session closed)")

    async def close(self, session_id: str) -> None:
        self._episode(session_id)
        await self.run(session_id, lambda s: None, timeout=60)   # waits for a running call to finish
        try:
            self.pool.close(session_id)
        except KeyError:
            pass
        self._forget(session_id)


def _size(snapshot: Snapshot) -> int:
    return sum(len(data) for data in snapshot.data.values())

