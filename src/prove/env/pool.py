"""A session pool: sessions under leases, with an idle TTL, a hard cap, a reaper and counters."""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from .errors import (
    InvalidRequestError,
    PoolFullError,
    SessionExistsError,
    UnknownSessionError,
)
from .server import Server
from .session import LOG_BYTES, Session


@dataclass
class PoolStats:
    created: int = 0
    live: int = 0
    bytes: int = 0          # what the live sessions hold (databases and call logs), about
    largest: int = 0        # bytes of the largest live session
    in_use: int = 0
    reaped: int = 0
    closed: int = 0
    refused: int = 0

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None where the C library has none (musl, macOS)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or None).malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _malloc_trim()


class _Entry:
    __slots__ = ("session", "last_used", "leases", "closing")

    def __init__(self, session: Session, now: float) -> None:
        self.session = session
        self.last_used = now
        self.leases = 0
        self.closing = False


class SessionPool:
    """Owns sessions under leases.

    A session idle (no lease held) for longer than `idle_ttl` seconds is reaped: closed and
    forgotten. After sessions close, the reaper hands the C heap's free pages back to the OS
    (SQLite frees a closed session's pages, but glibc would keep them resident). A session under a lease is never reaped, however old. When `max_sessions` are
    live, `create` first reaps what has expired and then refuses with `PoolFullError`.

    Args:
        max_sessions: hard cap on live sessions.
        idle_ttl: seconds an unleased session may sit unused.
        reap_interval: seconds between background reaps once `start()` is called.
        log_bytes: how much of each call's arguments and result a session's call log keeps.
        clock: monotonic time source (injectable for tests).
    """

    def __init__(self, *, max_sessions: int = 1024, idle_ttl: float = 600.0, reap_interval: float = 5.0,
                 log_bytes: int = LOG_BYTES, clock: Callable[[], float] = time.monotonic) -> None:
        if max_sessions < 1 or idle_ttl <= 0:
            raise InvalidRequestError("max_sessions must be >= 1 and idle_ttl > 0")
        self.max_sessions = max_sessions
        self.idle_ttl = idle_ttl
        self.reap_interval = reap_interval
        self.log_bytes = log_bytes
        self._clock = clock
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()
        self._stats = PoolStats()
        self._stop = threading.Event()
        self._reaper: threading.Thread | None = None
        self._freed = False       # sessions closed since memory was last handed back

    # ----- sessions ----------------------------------------------------------------------------

    def create(self, servers: str | Server | Sequence[str | Server], world: int = 0, *,
               session_id: str | None = None) -> Session:
        """Open a new session (not leased: it is reaped after `idle_ttl` without use)."""
        self._admit(session_id)
        session = Session(servers, world, session_id=session_id, log_bytes=self.log_bytes)
        return self._add(session)

    def fork(self, session_id: str, new_id: str | None = None) -> Session:
        """Fork a live session into a new pooled session."""
        self._admit(new_id)
        with self.lease(session_id) as parent:
            child = parent.fork(new_id)
        return self._add(child)

    def get(self, session_id: str) -> Session:
        """The live session with that ID (its idle timer restarts)."""
        with self._lock:
            entry = self._entry(session_id)
            entry.last_used = self._clock()
            return entry.session

    @contextmanager
    def lease(self, session_id: str) -> Iterator[Session]:
        """Hold a session for the duration of a block: it cannot be reaped meanwhile."""
        with self._lock:
            entry = self._entry(session_id)
            entry.leases += 1
        try:
            yield entry.session
        finally:
            with self._lock:
                entry.leases -= 1
                entry.last_used = self._clock()
                close_now = entry.closing and entry.leases == 0
            if close_now:
                entry.session.close()

    def close(self, session_id: str) -> None:
        """Close and forget a session; unknown IDs raise `UnknownSessionError`.

        The ID is gone at once; a session still under a lease is closed when its last lease
        ends, so a call in flight finishes on an open session.
        """
        with self._lock:
            entry = self._entry(session_id)
            del self._entries[session_id]
            self._stats.closed += 1
            entry.closing = True
            self._freed = True
            if entry.leases:
                return
        entry.session.close()

    def __contains__(self, session_id: object) -> bool:
        with self._lock:
            return session_id in self._entries

    def ids(self) -> list[str]:
        with self._lock:
            return list(self._entries)

    # ----- reaping -----------------------------------------------------------------------------

    def reap(self) -> int:
        """Close every unleased session idle for longer than the TTL; returns how many."""
        now = self._clock()
        with self._lock:
            expired = [sid for sid, e in self._entries.items()
                       if e.leases == 0 and now - e.last_used > self.idle_ttl]
            victims = [self._entries.pop(sid).session for sid in expired]
            self._stats.reaped += len(victims)
            self._freed = self._freed or bool(victims)
        for session in victims:
            session.close()
        return len(victims)

    def start(self) -> SessionPool:
        """Start the background reaper thread (idempotent)."""
        if self._reaper is None or not self._reaper.is_alive():
            self._stop.clear()
            self._reaper = threading.Thread(target=self._run, name="prove-reaper", daemon=True)
            self._reaper.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.reap_interval):
            self.reap()
            if self._freed:
                self._freed = False
                self.release_memory()

    @staticmethod
    def release_memory() -> None:
        """Hand the free pages of the C heap back to the OS (glibc; a no-op elsewhere).

        Measured: 256 closed filesystem episodes left 114 MB resident without it, 8 MB with it.
        """
        if _TRIM is not None:
            _TRIM(0)

    def shutdown(self) -> None:
        """Stop the reaper and close every session."""
        self._stop.set()
        if self._reaper is not None:
            self._reaper.join(timeout=5)
        with self._lock:
            sessions = [e.session for e in self._entries.values()]
            self._stats.closed += len(sessions)
            self._entries.clear()
        for session in sessions:
            session.close()

    def __enter__(self) -> SessionPool:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def stats(self) -> PoolStats:
        with self._lock:
            sizes = [e.session.size() for e in self._entries.values()]
            return PoolStats(**{**self._stats.to_dict(), "live": len(self._entries),
                                "in_use": sum(1 for e in self._entries.values() if e.leases),
                                "bytes": sum(sizes), "largest": max(sizes, default=0)})

    # ----- internals ---------------------------------------------------------------------------

    def _entry(self, session_id: str) -> _Entry:
        entry = self._entries.get(session_id)
        if entry is None:
            raise UnknownSessionError(f"no live session {str(session_id)[:80]!r} (closed, reaped or never created)")
        return entry

    def _admit(self, session_id: str | None) -> None:
        with self._lock:
            if session_id is not None and session_id in self._entries:
                raise SessionExistsError(f"session {session_id!r} already exists")
            full = len(self._entries) >= self.max_sessions
        if full:
            self.reap()
            with self._lock:
                if len(self._entries) >= self.max_sessions:
                    self._stats.refused += 1
                    raise PoolFullError(
                        f"session pool is full: {self.max_sessions} live sessions, none idle for "
                        f"more than {self.idle_ttl:g}s; close finished episodes or raise the cap")

    def _add(self, session: Session) -> Session:
        with self._lock:
            if session.id in self._entries:
                session.close()
                raise SessionExistsError(f"session {session.id!r} already exists")
            if len(self._entries) >= self.max_sessions:
                self._stats.refused += 1
                session.close()
                raise PoolFullError(f"session pool is full: {self.max_sessions} live sessions")
            self._entries[session.id] = _Entry(session, self._clock())
            self._stats.created += 1
            return session
