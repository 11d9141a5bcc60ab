"""A session: one RL episode over the databases of one or more servers."""

from __future__ import annotations

import difflib
import hashlib
import json
import logging
import random
import reprlib
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from pydantic import ValidationError

from .annotations import Effect
from .bridges import align
from .errors import (
    INTERNAL_ERROR,
    INVALID_ARGUMENTS,
    TIMEOUT,
    UNKNOWN_TOOL,
    HookError,
    InvalidRequestError,
    SessionClosedError,
    ToolDefinitionError,
    ToolError,
)
from .server import Server
from .state import (
    RowChange,
    diff_table,
    dirty_tables,
    table_rows,
    written_changes,
    written_digest,
)
from .tool import Tool
from .values import quote
from .world import EPOCH, PAGE_SIZE, Template, clock_params, connect, new_id

log = logging.getLogger("prove.env")
_MAX_ECHO = 80
# The call log keeps a call's arguments and result up to this many bytes each (a summary beyond),
# so that an episode's memory stays bounded whatever the model sends.
LOG_BYTES = 4096
# SQLite integers are 64-bit: a larger one cannot reach a query (OverflowError) and is no sensible
# value for any tool, so the framework refuses it whatever the tool's schema says.
MAX_INTEGER = 2**63 - 1
# SQLite calls the progress handler every this many VM steps; a typical call takes fewer, so
# the deadline check costs nothing unless a query runs long.
_PROGRESS_STEPS = 5000
# Tools add durations to `now`; keep far from datetime.max so that never overflows.
_LATEST = datetime(2200, 1, 1)


@dataclass(slots=True)
class ToolResult:
    """What one call produced: `data` on success, else `error` = {code, message, hint}."""

    name: str
    ok: bool
    data: Any = None
    error: dict[str, Any] | None = None

    @property
    def code(self) -> str | None:
        return self.error["code"] if self.error else None

    @property
    def content(self) -> Any:
        """The JSON body the model sees: the result, or `{"error": {...}}`."""
        return self.data if self.ok else {"error": self.error}

    def text(self) -> str:
        return json.dumps(self.content, ensure_ascii=False)


@dataclass(slots=True)
class CallRecord:
    """One entry of a session's call log.

    `arguments` and `result.data` are what the call got and gave when they fit in the session's
    `log_bytes` as plain JSON; otherwise a summary `{"omitted": why, "preview": text}`.
    """

    index: int
    name: str
    server: str | None
    arguments: Any
    result: ToolResult


@dataclass(frozen=True)
class Snapshot:
    """A session's state at one moment; `Session.restore` brings it back."""

    session_id: str
    data: dict[str, bytes]
    now: datetime
    log: tuple[CallRecord, ...]


class ErrorCounts:
    """Internal errors per (server, tool), counted from every thread; `/metrics` reads them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[tuple[str, str], int] = {}

    def add(self, server: str, tool: str) -> None:
        with self._lock:
            self._counts[server, tool] = self._counts.get((server, tool), 0) + 1

    def count(self, server: str, tool: str | None = None) -> int:
        """Internal errors of one tool, or of every tool of `server`."""
        with self._lock:
            return sum(n for (srv, name), n in self._counts.items() if srv == server and tool in (None, name))

    def items(self) -> list[tuple[tuple[str, str], int]]:
        with self._lock:
            return sorted(self._counts.items())


INTERNAL_ERRORS = ErrorCounts()


class CallInterrupted(BaseException):
    """Raised inside a running tool by `Session.interrupt` (a BaseException: tools' `except
    Exception` must not swallow it)."""


class Ctx:
    """What a tool gets as `ctx`: the server's database, the simulated clock and the ID generator."""

    __slots__ = ("db", "server", "_session", "_spec")

    def __init__(self, db: sqlite3.Connection, server: Server, session: Session) -> None:
        self.db = db
        self.server = server.name
        self._session = session
        self._spec = server

    def get(self, kind: str, entity_id: Any, sql: str | None = None) -> sqlite3.Row:
        """The row of the `kind` entity with this ID, or a `not_found` ToolError.

        The error names the tool that lists such entities, so the model knows how to recover.
        Tools that use it document `not_found` under `Raises:`. With `sql`, a query with one `?`
        for the ID (the entity's row with joined columns, say), the row is that query's, once the
        entity is known to exist.
        """
        spec = self._spec.entities[kind]
        row = self.db.execute(f'SELECT * FROM "{spec.table}" WHERE "{spec.key}" = ?', (entity_id,)).fetchone()
        if row is None:
            lister = self._spec.lister(kind)
            raise ToolError("not_found", f"No {kind.replace('_', ' ')} has ID {quote(entity_id)}.",
                            hint=f"Call {lister} to see the IDs that exist." if lister else None)
        return row if sql is None else self.db.execute(sql, (entity_id,)).fetchone()

    def update(self, kind: str, entity_id: Any, changes: Mapping[str, Any]) -> None:
        """Set `changes` ({column: value}) on the row of the `kind` entity with this ID, in one UPDATE.

        The column names come from the tool's code, never from a caller; no changes, no statement.
        """
        if not changes:
            return
        spec = self._spec.entities[kind]
        sets = ", ".join(f'"{column}" = ?' for column in changes)
        self.db.execute(f'UPDATE "{spec.table}" SET {sets} WHERE "{spec.key}" = ?', (*changes.values(), entity_id))

    def now(self) -> datetime:
        """The episode's simulated local time (never the wall clock)."""
        return self._session.now

    def today(self) -> date:
        return self._session.now.date()

    def now_iso(self) -> str:
        """The simulated time as stored and shown: '2026-03-16T09:00:00'."""
        return self._session.now.isoformat(timespec="seconds")

    def new_id(self, prefix: str) -> str:
        """A deterministic fresh ID such as 'TRX-10042' (rolled back with a failed call)."""
        return new_id(self.db, prefix)

    def rng(self) -> random.Random:
        """A fresh seeded RNG for a write (a new card number, a confirmation code).

        Seeded from the world and a counter kept in the database, so a replay of the same calls
        draws the same values and a failed call's draw is rolled back with it.
        """
        return random.Random(f"{self.server}:{self._session.world}:{new_id(self.db, '_rng')}")


class _Runtime:
    """One server's live database inside a session, with its cached table digests."""

    __slots__ = ("server", "template", "db", "ctx", "digests")

    def __init__(self, server: Server, template: Template, data: bytes, session: Session,
                 digests: dict[str, tuple[bytes, bytes]] | None = None) -> None:
        self.server = server
        self.template = template
        self.db = self._open(data, session)
        self.ctx = Ctx(self.db, server, session)
        self.digests = dict(digests) if digests else {}

    @staticmethod
    def _open(data: bytes, session: Session) -> sqlite3.Connection:
        db = connect()
        db.deserialize(data)
        db.execute("PRAGMA foreign_keys = ON")
        db.row_factory = sqlite3.Row
        db.set_progress_handler(session._past_deadline, _PROGRESS_STEPS)
        return db

    def load(self, data: bytes) -> None:
        """Replace the state with `data` on a fresh connection.

        Deserializing into a connection that has already run statements is not safe: with
        SQLite 3.40, an interrupted statement's rollback after such a reload left an empty
        database (see test_call_timeout_after_reset). A new connection costs microseconds.
        """
        session = self.ctx._session
        self.db.close()
        self.db = self._open(data, session)
        self.ctx = Ctx(self.db, self.server, session)

    def table_digests(self) -> dict[str, bytes]:
        out = dict(self.template.digests)
        for name, version in dirty_tables(self.db):
            cached = self.digests.get(name)
            if cached is None or cached[0] != version:
                cached = (version, written_digest(self.db, self.template.tables[name],
                                                  self.template.row_texts(name)))
                self.digests[name] = cached
            out[name] = cached[1]
        return out

    def dirty(self) -> set[str]:
        return {name for name, _ in dirty_tables(self.db)}


def tool_names(servers: Sequence[Server]) -> dict[str, Tool]:
    """The names an episode of `servers` calls its tools by (hidden ones included).

    A name is qualified as `server_tool` only where two servers of the episode share it.
    """
    owners: dict[str, int] = {}
    for server in servers:
        for name in server.tools:
            owners[name] = owners.get(name, 0) + 1
    names: dict[str, Tool] = {}
    for server in servers:
        for name, tool in server.tools.items():
            public = f"{server.name}_{name}" if owners[name] > 1 else name
            if public in names:
                raise ToolDefinitionError(f"tool name {public!r} is ambiguous in this episode")
            names[public] = tool
    return names


def _resolve(servers: Iterable[str | Server]) -> list[Server]:
    """The servers named (a combined view stands for its members)."""
    from .registry import registry

    return [m for s in servers for m in (s if isinstance(s, Server) else registry.get(s)).members]


def _templates(servers: Sequence[Server], world: int) -> list[Template]:
    """The initial worlds of an episode: a server's own, or with others the shared world their
    bridges give (`prove.env.bridges`)."""
    if len(servers) == 1:
        return [servers[0].template(world)]
    shared = align(servers, world).templates
    return [shared[s.name] for s in servers]


class Session:
    """One episode: the databases of one or more servers, a clock, an ID generator, a call log.

    Args:
        servers: server names (looked up in the registry) or `Server` objects.
        world: the world seed; the same seed gives the same initial state.
        session_id: an ID to use; by default an unguessable 128-bit random hex string.
        timeout: seconds a call may run before it is aborted (`timeout` error, state rolled
            back); None for no limit.
        log_bytes: how much of each call's arguments and result the call log keeps.
    """

    def __init__(self, servers: str | Server | Sequence[str | Server], world: int = 0, *,
                 session_id: str | None = None, timeout: float | None = None, log_bytes: int = LOG_BYTES,
                 _parent: Session | None = None) -> None:
        if isinstance(servers, (str, Server)):
            servers = [servers]
        resolved = _resolve(servers)
        if not resolved:
            raise InvalidRequestError("a session needs at least one server")
        names = [s.name for s in resolved]
        if len(set(names)) != len(names):
            raise InvalidRequestError(f"a server appears twice in {names}")
        self.id = session_id or secrets.token_hex(16)
        self.world = world
        self.timeout = timeout
        self.log_bytes = log_bytes
        self._deadline: float | None = None
        self._interrupted = False
        self._lock = threading.RLock()
        self._guard = threading.Lock()       # between a running tool and `interrupt()`
        self._worker: int | None = None      # the thread running a tool's function, while one does
        self._sent = self._taken = False
        self._closed = False
        self._trials = 0                     # trials open on this session (`trial`)
        if _parent is None:                  # a fresh episode
            self.now = EPOCH
            self.log: list[CallRecord] = []
            self._log_size = 0
            self._runtimes = [_Runtime(s, t, t.data, self) for s, t in zip(resolved, _templates(resolved, world))]
        else:                                # a fork: the parent's state, clock and log as they are
            self.now = _parent.now
            self.log = list(_parent.log)
            self._log_size = _parent._log_size
            self._runtimes = [_Runtime(rt.server, rt.template, rt.db.serialize(), self, rt.digests)
                              for rt in _parent._runtimes]
        self._measure()
        self._routes = self._route()

    # ----- tools -------------------------------------------------------------------------------

    def _route(self) -> dict[str, tuple[_Runtime, Tool]]:
        by_server = {rt.server.name: rt for rt in self._runtimes}
        return {public: (by_server[tool.server], tool)
                for public, tool in tool_names([rt.server for rt in self._runtimes]).items()}

    @property
    def servers(self) -> list[str]:
        return [rt.server.name for rt in self._runtimes]

    def tools(self, include_hidden: bool = False) -> dict[str, Tool]:
        """The tools of this episode under the names a model calls them by."""
        return {name: tool for name, (_, tool) in self._routes.items() if include_hidden or not tool.hidden}

    def tool_schemas(self) -> list[dict[str, Any]]:
        """The visible tools in OpenAI function-tool form."""
        return [tool.openai_schema(name) for name, tool in self.tools().items()]

    # ----- calls -------------------------------------------------------------------------------

    def tool(self, name: Any) -> Tool | None:
        """The tool this episode calls `name` (hidden ones included), or None."""
        route = self._routes.get(name) if isinstance(name, str) else None
        return route[1] if route is not None else None

    def call(self, name: str, arguments: Any = None, *, allow_hidden: bool = True) -> ToolResult:
        """Run one tool call. Never raises for anything the caller sent: errors are results.

        With `allow_hidden=False` (what a model's calls get), a hidden tool is an unknown tool.
        """
        with self._lock:
            self._check_open()
            if isinstance(name, str) and type(name) is not str:
                name = str.__str__(name)     # a str subclass's own methods never run here
            route = self._routes.get(name) if isinstance(name, str) else None
            if route is not None and route[1].hidden and not allow_hidden:
                route = None
            if route is None:
                result = self._unknown(name)
                server = None
            else:
                result = self._execute(name, route[0], route[1], arguments)
                server = route[0].server.name
            kept_arguments, arguments_size = _bounded(arguments, self.log_bytes, "arguments")
            kept_data, data_size = _bounded(result.data, self.log_bytes, "result")
            record = CallRecord(len(self.log), result.name, server, kept_arguments,
                                ToolResult(result.name, result.ok, kept_data, result.error))
            self.log.append(record)
            self._log_size += _record_size(record, arguments_size + data_size)
            if server is not None and route[1].effect is Effect.WRITE:
                self._measure()
            return result

    def _unknown(self, name: Any) -> ToolResult:
        shown = [n for n, (_, t) in self._routes.items() if not t.hidden]
        text = name[:_MAX_ECHO] if isinstance(name, str) else _echo(name)
        close = difflib.get_close_matches(name, shown, n=3) if isinstance(name, str) and len(name) <= 100 else []
        hint = f"Did you mean {', '.join(close)}?" if close else f"Available tools: {', '.join(shown)}."
        return _error(text, UNKNOWN_TOOL, f"No tool named {_echo(name)} in this episode.", hint)

    def _execute(self, name: str, rt: _Runtime, tool: Tool, arguments: Any) -> ToolResult:
        if arguments is None:
            arguments = {}
        elif isinstance(arguments, (str, bytes)):
            try:
                arguments = json.loads(arguments)
            except (ValueError, RecursionError) as exc:
                return _error(name, INVALID_ARGUMENTS, f"Arguments are not valid JSON: {exc}",
                              _expected(tool))
        if not isinstance(arguments, dict):
            return _error(name, INVALID_ARGUMENTS,
                          f"Arguments must be a JSON object, not {type(arguments).__name__}.", _expected(tool))
        try:
            kwargs = tool.args_model.model_validate(arguments).__dict__
        except ValidationError as exc:
            return _error(name, INVALID_ARGUMENTS, _explain(exc), _expected(tool))
        except RecursionError:
            return _error(name, INVALID_ARGUMENTS, "Arguments nest too deeply.", _expected(tool))
        except Exception as exc:  # an argument object whose own methods fail: the caller's doing
            return _error(name, INVALID_ARGUMENTS, f"Arguments could not be read ({type(exc).__name__}).",
                          _expected(tool))
        huge = next((key for key, value in kwargs.items() if _too_large(value)), None)
        if huge is not None:
            return _error(name, INVALID_ARGUMENTS, f"Invalid arguments: {huge}: a number is out of range (integers "
                          f"are at most {MAX_INTEGER:,} in magnitude).", _expected(tool))
        db = rt.db
        # Every call runs in a savepoint; a read tool that changed anything is a bug, undone here.
        write = tool.effect is Effect.WRITE
        self._interrupted = False
        if self.timeout is not None:
            self._deadline = time.monotonic() + self.timeout
        changes = db.total_changes
        db.execute("SAVEPOINT prove_call")
        try:
            value = self._invoke(tool, rt.ctx, kwargs)
            if value is _STOPPED or self._interrupted:   # stopped, or its caller was told it was
                raise CallInterrupted
            data = tool.result_adapter.dump_python(value, mode="json")
            del value
            if not write and db.total_changes != changes:
                raise RuntimeError(f"read tool {tool.name} changed state")
        except CallInterrupted:
            _rollback(db)
            return self._timed_out(name)
        except ToolError as exc:
            _rollback(db)
            return ToolResult(name, False, error=exc.body()["error"])
        except Exception as exc:
            _rollback(db)
            if isinstance(exc, sqlite3.OperationalError) and self._past_deadline():
                return self._timed_out(name)
            INTERNAL_ERRORS.add(tool.server, tool.name)
            log.exception("internal error in %s.%s with arguments %s", tool.server, tool.name,
                          _echo(kwargs, 2000))
            return _error(name, INTERNAL_ERROR, "The tool failed unexpectedly; this is a bug in the server.",
                          "Try a different request; retrying the same call will fail the same way.")
        except BaseException:
            _rollback(db)
            raise
        finally:
            self._deadline = None
        db.execute("RELEASE prove_call")
        return ToolResult(name, True, data)

    def _timed_out(self, name: str) -> ToolResult:
        limit = f"longer than {self.timeout:g}s" if self.timeout is not None else "too long"
        return _error(name, TIMEOUT, f"The call ran {limit} and was stopped; nothing changed.",
                      "Narrow the request (filters, a smaller limit) and try again.")

    def _invoke(self, tool: Tool, ctx: Ctx, kwargs: dict[str, Any]) -> Any:
        """Run a tool's function where `interrupt()` can stop it; `_STOPPED` if it did.

        `interrupt()` raises `CallInterrupted` in this thread only while the function runs, and
        at most once; the function's own exceptions propagate.
        """
        value: Any = _STOPPED
        try:
            with self._guard:
                self._worker, self._sent, self._taken = threading.get_ident(), False, False
            value = tool.fn(ctx, **kwargs)
        except CallInterrupted:
            self._taken = True
        finally:
            self._disarm()
        return value

    def _disarm(self) -> None:
        """No interrupt can reach this thread once this returns (one sent earlier is taken here)."""
        while True:
            try:
                with self._guard:
                    self._worker = None
                    pending = self._sent and not self._taken
                if pending:          # sent but not yet raised: it is, at the next Python call
                    for _ in range(100):
                        _tick()
                return
            except CallInterrupted:
                self._taken = True

    def interrupt(self) -> None:
        """Stop the call running now, from another thread (a server's own deadline).

        Its SQL stops at the next check, and pure-Python work in the tool at its next line
        (`CallInterrupted` is raised in the calling thread); the call is rolled back and answers
        `timeout`. No effect on later calls.
        """
        self._interrupted = True
        with self._guard:
            if self._worker is not None and not self._sent and _raise_in(self._worker, CallInterrupted):
                self._sent = True

    def _past_deadline(self) -> bool:
        if self._interrupted:
            return True
        deadline = self._deadline
        return deadline is not None and time.monotonic() > deadline

    def size(self) -> int:
        """About how many bytes the episode holds: its databases and its call log, as of its last
        operation (read without waiting for a call in progress)."""
        return 0 if self._closed else self._db_bytes + self._log_size

    def _measure(self) -> None:
        self._db_bytes = sum(rt.db.execute("PRAGMA page_count").fetchone()[0] * PAGE_SIZE for rt in self._runtimes)

    # ----- state -------------------------------------------------------------------------------

    def advance(self, delta: timedelta | float) -> datetime:
        """Move the simulated clock forward (`delta` in seconds or as a timedelta).

        Servers with an `on_advance` hook apply what the passing time does (scheduled payments
        run, orders move on); if a hook raises, the clock and every database stay as they were.
        """
        with self._lock:
            self._check_open()
            try:
                step = delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
                new = self.now + step
            except OverflowError:
                new = datetime.max
            except (TypeError, ValueError):
                raise InvalidRequestError(f"the clock moves by a number of seconds or a timedelta, "
                                          f"not {_echo(delta)}") from None
            if new > _LATEST:
                raise InvalidRequestError(f"the simulated clock stops at {_LATEST.isoformat()}")
            if new < self.now:
                raise InvalidRequestError("the simulated clock only moves forward")
            old = self.now
            hooked = [rt for rt in self._runtimes if rt.server.on_advance is not None]
            for rt in hooked:
                rt.db.execute("SAVEPOINT prove_advance")
            self.now = new
            try:
                for rt in hooked:
                    rt.server.on_advance(rt.ctx, old, new)  # type: ignore[misc]
            except BaseException as exc:
                self.now = old
                for rt in hooked:
                    rt.db.execute("ROLLBACK TO prove_advance")
                    rt.db.execute("RELEASE prove_advance")
                if isinstance(exc, Exception):  # a bug in a server's hook, not the caller's doing
                    log.exception("on_advance hook failed moving the clock to %s", new.isoformat())
                    raise HookError(f"a server's on_advance hook failed moving the clock to "
                                    f"{new.isoformat()}: {exc!r}; nothing changed") from exc
                raise
            for rt in hooked:
                rt.db.execute("RELEASE prove_advance")
            return self.now

    def fingerprint(self) -> str:
        """A stable logical hash of the whole state (rows, not pages)."""
        with self._lock:
            self._check_open()
            h = hashlib.blake2b(digest_size=16)
            for rt in self._runtimes:
                h.update(rt.server.name.encode() + b"\0")
                for table, digest in sorted(rt.table_digests().items()):
                    h.update(table.encode() + b"\0" + digest)
            return h.hexdigest()

    def _holders(self, kind: str) -> Iterator[tuple[_Runtime, Any]]:
        """Each runtime with a kind of entity, and its spec; a kind may be named as a combined view
        of the episode's servers names it (`crm_contact`). Call with the lock held."""
        for rt in self._runtimes:
            spec = rt.server.entities.get(kind) or rt.server.entities.get(kind.removeprefix(rt.server.name + "_"))
            if spec is not None:
                yield rt, spec

    def satisfies(self, kind: str, entity_id: str, condition: str) -> bool:
        """Whether an entity's live row meets an SQL condition (a parameter's `KIND.where`), with
        `:now` and `:today` bound to the session's clock; False where no server holds the row."""
        with self._lock:
            self._check_open()
            return any(rt.db.execute(f'SELECT 1 FROM "{spec.table}" WHERE "{spec.key}" = :entity_id AND ({condition})',
                                     {"entity_id": entity_id, **clock_params(self.now)}).fetchone() is not None
                       for rt, spec in self._holders(kind))

    def row(self, kind: str, entity_id: str) -> dict[str, Any] | None:
        """An entity's row as it is now, column by column; None where no server holds it."""
        with self._lock:
            self._check_open()
            for rt, spec in self._holders(kind):
                cursor = rt.db.execute(f'SELECT * FROM "{spec.table}" WHERE "{spec.key}" = ?', (entity_id,))
                found = cursor.fetchone()
                if found is not None:
                    return dict(zip([d[0] for d in cursor.description], found))
            return None

    def snapshot(self) -> Snapshot:
        with self._lock:
            self._check_open()
            return Snapshot(self.id, {rt.server.name: rt.db.serialize() for rt in self._runtimes},
                            self.now, tuple(self.log))

    def restore(self, snapshot: Snapshot) -> None:
        """Bring back the state, clock and call log of a snapshot of this session's servers."""
        with self._lock:
            self._check_open()
            self._check_no_trial("restore")
            if set(snapshot.data) != set(self.servers):
                raise InvalidRequestError(f"snapshot holds {sorted(snapshot.data)}, session has {sorted(self.servers)}")
            for rt in self._runtimes:
                rt.load(snapshot.data[rt.server.name])
            self.now = snapshot.now
            self.log = list(snapshot.log)
            self._log_size = sum(map(_record_size, self.log))
            self._measure()

    def reset(self) -> None:
        """Back to the initial world: state, clock and call log."""
        with self._lock:
            self._check_open()
            self._check_no_trial("reset")
            for rt in self._runtimes:
                rt.load(rt.template.data)
                rt.digests.clear()
            self.now = EPOCH
            self.log = []
            self._log_size = 0
            self._measure()

    def fork(self, session_id: str | None = None) -> Session:
        """An independent copy of this episode as it is now (branch a rollout)."""
        with self._lock:
            self._check_open()
            return Session([rt.server for rt in self._runtimes], self.world, session_id=session_id,
                           timeout=self.timeout, log_bytes=self.log_bytes, _parent=self)

    @contextmanager
    def trial(self) -> Iterator[Session]:
        """This session, for calls and clock moves that are all undone when the block ends: what a
        fork is for trying something out, without copying the databases.

        Every database rolls back to a savepoint taken on entry, and the clock and call log come
        back as they were; trials nest. A trial belongs to one caller (another thread's calls in
        the meantime are undone with it), and `restore` or `reset` inside one is refused.
        """
        with self._lock:
            self._check_open()
            for rt in self._runtimes:
                rt.db.execute("SAVEPOINT prove_trial")
            now, calls, log_size, db_bytes = self.now, len(self.log), self._log_size, self._db_bytes
            digests = [dict(rt.digests) for rt in self._runtimes]
            self._trials += 1
        try:
            yield self
        finally:
            with self._lock:
                self._trials -= 1
                if not self._closed:
                    for rt, kept in zip(self._runtimes, digests):
                        rt.db.execute("ROLLBACK TO prove_trial")
                        rt.db.execute("RELEASE prove_trial")
                        rt.digests = kept
                    self.now, self._log_size, self._db_bytes = now, log_size, db_bytes
                    del self.log[calls:]

    def diff(self, other: Session | Snapshot | None = None) -> Diff:
        """Row-level changes from `other` (default: the initial world) to this session."""
        with self._lock:
            self._check_open()
            changes: list[RowChange] = []
            for rt in self._runtimes:
                base, tables = self._base(rt, other)
                try:
                    for table in sorted(tables):
                        meta = rt.template.tables[table]
                        if base is rt.template.db:
                            changes.extend(written_changes(rt.server.name, meta, rt.db, rt.template.rows(table)))
                        else:
                            changes.extend(diff_table(rt.server.name, meta, table_rows(base, meta),
                                                      table_rows(rt.db, meta)))
                finally:
                    if base is not rt.template.db and not isinstance(other, Session):
                        base.close()
            return Diff(changes)

    def _base(self, rt: _Runtime, other: Session | Snapshot | None) -> tuple[sqlite3.Connection, set[str]]:
        name = rt.server.name
        if other is None:
            return rt.template.db, rt.dirty()
        if isinstance(other, Session):
            peer = next((o for o in other._runtimes if o.server.name == name), None)
            if peer is None:
                raise InvalidRequestError(f"session {other.id} has no server {name!r}")
            same_world = peer.template is rt.template
            return peer.db, (rt.dirty() | peer.dirty()) if same_world else set(rt.template.tables)
        if name not in other.data:
            raise InvalidRequestError(f"snapshot has no server {name!r}")
        db = connect()
        db.deserialize(other.data[name])
        return db, set(rt.template.tables)

    # ----- lifecycle ---------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Free the session's databases. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for rt in self._runtimes:
                rt.db.close()

    def _check_open(self) -> None:
        if self._closed:
            raise SessionClosedError(f"session {self.id} is closed")

    def _check_no_trial(self, what: str) -> None:
        if self._trials:
            raise InvalidRequestError(f"cannot {what} session {self.id} inside a trial")

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Session({self.id[:8]}…, servers={self.servers}, world={self.world}, calls={len(self.log)})"


@dataclass
class Diff:
    """Row-level changes between two states, in a stable order."""

    changes: list[RowChange] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.changes)

    def __len__(self) -> int:
        return len(self.changes)

    def __iter__(self):  # noqa: ANN204 - plain iterator over RowChange
        return iter(self.changes)

    def tables(self) -> dict[str, dict[str, int]]:
        """Counts of inserts, updates and deletes per `server.table`."""
        out: dict[str, dict[str, int]] = {}
        for ch in self.changes:
            counts = out.setdefault(f"{ch.server}.{ch.table}", {"insert": 0, "update": 0, "delete": 0})
            counts[ch.op] += 1
        return out

    def to_list(self) -> list[dict[str, Any]]:
        return [ch.to_dict() for ch in self.changes]


def _rollback(db: sqlite3.Connection) -> None:
    db.execute("ROLLBACK TO prove_call")
    db.execute("RELEASE prove_call")


def _error(name: str, code: str, message: str, hint: str | None) -> ToolResult:
    err: dict[str, Any] = {"code": code, "message": message}
    if hint:
        err["hint"] = hint
    return ToolResult(name, False, error=err)


class _Echo(reprlib.Repr):
    """A repr bounded in length and depth, for any value: hostile objects and huge integers too."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxstring, self.maxother, self.maxlong = 4, 60, 60, 40

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:         # repr() of a 4,300-digit integer raises ValueError
            return f"<{'-' if x < 0 else ''}integer of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_ECHO = _Echo()


def _echo(value: Any, limit: int = _MAX_ECHO) -> str:
    """A short repr of anything the caller sent, for messages; it never raises."""
    try:
        text = _ECHO.repr(value)
    except Exception:  # noqa: BLE001 - a class whose name shadows a builtin type, and the like
        text = "<unprintable value>"
    return text if len(text) <= limit else text[:limit] + "…"


def _tick() -> None:
    """A Python call: where a pending asynchronous exception is raised."""


def _raise_in(thread_id: int, exc: type[BaseException]) -> bool:
    """Raise `exc` in another thread at its next Python line (CPython); False where unsupported."""
    try:
        import ctypes

        set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
    except (ImportError, AttributeError):
        return False
    set_async.argtypes = (ctypes.c_ulong, ctypes.py_object)
    set_async.restype = ctypes.c_int
    return set_async(thread_id, exc) == 1


_STOPPED = object()


def _too_large(value: Any) -> bool:
    """Whether a validated argument holds an integer beyond SQLite's 64 bits, at any depth."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, int):
            if not -MAX_INTEGER <= item <= MAX_INTEGER:
                return True
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif hasattr(item, "__pydantic_fields__"):
            stack.extend(item.__dict__.values())
    return False


def _json_size(value: Any, budget: int) -> int | None:
    """The approximate JSON size of `value` if it is plain JSON (exact built-in types) within
    `budget` bytes; None otherwise. Stops as soon as it knows."""
    stack, used = [(value, 0)], 0
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is str:
            used += len(item) + 2
        elif item is None or kind is bool or kind is float:
            used += 8
        elif kind is int:
            used += item.bit_length() // 3 + 2
        elif kind is dict or kind is list or kind is tuple:
            if depth >= 32 or len(item) > budget:
                return None
            if kind is dict:
                for key, sub in dict.items(item):
                    if type(key) is not str:
                        return None
                    used += len(key) + 4
                    stack.append((sub, depth + 1))
            else:
                used += len(item) + 2
                stack.extend((sub, depth + 1) for sub in item)
        else:
            return None
        if used > budget:
            return None
    return used


def _bounded(value: Any, limit: int, what: str) -> tuple[Any, int]:
    """`value` as the call log keeps it: itself if plain JSON within `limit` bytes, else a summary;
    and the size of what it keeps."""
    size = _json_size(value, limit)
    if size is not None:
        return value, size
    if isinstance(value, (str, bytes)) and len(value) > limit:
        why = f"{what} of {len(value):,} characters, over the log's {limit:,}"
    else:
        why = f"{what} over the log's {limit:,} bytes, or not plain JSON"
    summary = {"omitted": why, "preview": _echo(value, 200)}
    return summary, _json_size(summary, 1 << 62) or 0


def _record_size(record: CallRecord, kept: int | None = None) -> int:
    """About how many bytes one call-log entry holds (its kept values are bounded); `kept` is the
    size of its arguments and result where the caller knows it already."""
    if kept is None:
        kept = sum(_json_size(value, 1 << 62) or 0 for value in (record.arguments, record.result.data))
    return 200 + len(record.name) + kept + (_json_size(record.result.error, 1 << 62) or 0)


def _explain(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False)[:8]:
        loc = (".".join(str(p) for p in err["loc"]) or "arguments")[:_MAX_ECHO]
        if err["type"] == "missing":
            parts.append(f"{loc}: required parameter is missing")
        elif err["type"] == "extra_forbidden":
            parts.append(f"{loc}: unknown parameter")
        else:
            parts.append(f"{loc}: {err['msg']} (got {_echo(err.get('input'))})")
    return "Invalid arguments: " + "; ".join(parts) + "."


def _expected(tool: Tool) -> str:
    props = tool.parameters.get("properties", {})

    def show(name: str) -> str:
        spec = props.get(name, {})
        kind = spec.get("type") or ("one of " + "/".join(map(str, spec["enum"])) if "enum" in spec else "value")
        return f"{name} ({kind})"

    required = [p.name for p in tool.params if p.required]
    optional = [p.name for p in tool.params if not p.required]
    text = "Required: " + (", ".join(map(show, required)) or "none") + "."
    if optional:
        text += " Optional: " + ", ".join(map(show, optional)) + "."
    return text
