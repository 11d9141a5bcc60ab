"""Worlds: a server's database built once per seed into an in-memory template.

A session copies the template's bytes (`deserialize`), so a new episode costs a memory copy,
not a rebuild. Per-table digests of the template are kept so that a session's fingerprint
rehashes only the tables it has written (see `state.py`).
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .errors import ToolDefinitionError
from .fake import Fake
from .state import TableMeta, install_tracking, keyed_rows, read_tables, table_digest

# Every world and every episode starts at this simulated local time (a Monday morning).
EPOCH = datetime(2026, 3, 16, 9, 0, 0)
ID_START = 10_000
# Small pages: every table, index and trigger costs at least one page, and sessions copy the
# whole image; 1 KiB pages cut world images by a third at no measured speed cost.
PAGE_SIZE = 1024

_PROVE_TABLES = """
CREATE TABLE _prove_ids (prefix TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE _prove_dirty (name TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID;
"""
NEW_ID_SQL = (
    "INSERT INTO _prove_ids(prefix, n) VALUES (?, ?) "
    "ON CONFLICT(prefix) DO UPDATE SET n = n + 1 RETURNING n"
)


def clock_params(now: datetime) -> dict[str, str]:
    """The named parameters an entity kind's `live` condition may use: `:now` and `:today`."""
    return {"now": now.isoformat(), "today": now.date().isoformat()}


def new_id(db: sqlite3.Connection, prefix: str) -> str:
    """The next ID for `prefix` in this database, such as 'TRX-10007'.

    The counter lives in the database, so it rolls back with a failed call and is copied by
    fork and snapshot: a replay of the same calls produces the same IDs.
    """
    (n,) = db.execute(NEW_ID_SQL, (prefix, ID_START + 1)).fetchone()
    return f"{prefix}-{n}"


def connect() -> sqlite3.Connection:
    """An in-memory connection in autocommit mode; the framework manages transactions."""
    return sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)


class WorldGen:
    """What a world builder gets: the seed, a seeded RNG, the epoch, IDs and fake data."""

    def __init__(self, server: str, seed: int, db: sqlite3.Connection) -> None:
        self.server = server
        self.seed = seed
        self.rng = random.Random(f"{server}:{seed}")
        self.now = EPOCH
        self.fake = Fake(self.rng)
        self._db = db

    def new_id(self, prefix: str) -> str:
        """A fresh ID from the same counter that sessions continue, such as 'ACC-10001'."""
        return new_id(self._db, prefix)


class WorldBuilder:
    """A base for a world builder written as a class, whose parts share state through `self`.

    It holds the generator `w` and its handles `rng`, `fake`, `now` and `today` (the epoch's
    date), and `rows`: a list of rows per table named in `tables`, in insertion order. A
    subclass adds its own state and the parts that fill the tables, usually with a `build()`
    that returns what `build_template` inserts ({table: rows}), so that the server's
    `build_world(w)` is `MyBuilder(w).build()`. Creating a builder draws nothing from the RNG,
    so a builder that moves onto this base keeps its worlds.
    """

    def __init__(self, w: WorldGen, tables: Iterable[str] = ()) -> None:
        self.w = w
        self.rng = w.rng
        self.fake = w.fake
        self.now = w.now
        self.today = w.now.date()
        self.rows: dict[str, list[dict[str, Any]]] = {t: [] for t in tables}


@dataclass(frozen=True)
class Template:
    """The built world of one (server, seed): its bytes, table layout and table digests."""

    server: str
    seed: int
    data: bytes
    tables: dict[str, TableMeta]
    digests: dict[str, bytes]
    db: sqlite3.Connection  # read-only use: the base for diffs against the initial state
    _rows: dict[str, dict[tuple[Any, ...], tuple[Any, ...]]] = field(default_factory=dict, init=False, repr=False,
                                                                    compare=False)
    _texts: dict[str, dict[tuple[Any, ...], str]] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def size(self) -> int:
        return len(self.data)

    def rows(self, table: str) -> dict[tuple[Any, ...], tuple[Any, ...]]:
        """A table's rows in this world by key, in key order, read once (a template never changes):
        what a session's diff compares the rows it wrote with."""
        found = self._rows.get(table)
        if found is None:
            found = self._rows[table] = keyed_rows(self.db, self.tables[table])
        return found

    def row_texts(self, table: str) -> dict[tuple[Any, ...], str]:
        """`repr` of each row by key, in key order, made once: what a session's digest of a table
        it wrote takes for the rows it has not written (`state.written_digest`)."""
        found = self._texts.get(table)
        if found is None:
            found = self._texts[table] = {k: repr(row) for k, row in self.rows(table).items()}
        return found


def build_template(name: str, schema_sql: str, builder: Callable[[WorldGen], dict[str, list[dict[str, Any]]]] | None,
                   seed: int, check: Callable[[sqlite3.Connection, dict[str, TableMeta]], None] | None = None) -> Template:
    """Build server `name`'s world for `seed` (deterministic) and freeze it into a template.

    `check(db, tables)` runs on the filled database before it is frozen (the server's own
    declaration checks) and raises `ToolDefinitionError` on what is wrong.
    """
    db = connect()
    db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    db.executescript(schema_sql)
    db.executescript(_PROVE_TABLES)
    gen = WorldGen(name, seed, db)
    try:
        rows = builder(gen) if builder else {}
    except ToolDefinitionError:
        raise
    except Exception as exc:  # a bug in the server's world builder, never the caller's doing
        raise ToolDefinitionError(f"{name} world {seed}: the world builder failed: {exc!r}") from exc
    tables = read_tables(db)
    keyless = [t for t, meta in tables.items() if meta.key == meta.columns and not _has_pk(db, t)]
    if keyless:
        raise ToolDefinitionError(f"{name}: every table needs a primary key; {keyless} have none")
    db.execute("BEGIN")
    for table, items in rows.items():
        _insert(db, name, tables, table, items)
    db.execute("COMMIT")
    # (SQLite lets a NULL into most primary keys; a session's digests tell rows apart by key.)
    nulls = [t for t, meta in tables.items() if db.execute(
        f'SELECT 1 FROM "{t}" WHERE {" OR ".join(f"{c} IS NULL" for c in meta.quoted)} LIMIT 1').fetchone()]
    if nulls:
        raise ToolDefinitionError(f"{name} world {seed}: a primary key holds NULL in {nulls}")
    db.execute("PRAGMA foreign_keys = ON")
    broken = db.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise ToolDefinitionError(f"{name} world {seed}: foreign-key violations, e.g. {broken[:3]}")
    if check is not None:
        check(db, tables)
    install_tracking(db, tables)
    digests = {t: table_digest(db, meta) for t, meta in tables.items()}
    return Template(name, seed, db.serialize(), tables, digests, db)


def _has_pk(db: sqlite3.Connection, table: str) -> bool:
    return any(r[5] for r in db.execute(f'PRAGMA table_info("{table}")'))


def _insert(db: sqlite3.Connection, server: str, tables: dict[str, TableMeta], table: str,
            items: list[dict[str, Any]]) -> None:
    if table not in tables:
        raise ToolDefinitionError(f"{server} world: table {table!r} is not in schema.sql")
    if not items:
        return
    columns = list(items[0])
    unknown = set(columns) - set(tables[table].columns)
    if unknown:
        raise ToolDefinitionError(f"{server} world: table {table!r} has no columns {sorted(unknown)}")
    sql = f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({", ".join("?" * len(columns))})'
    try:
        db.executemany(sql, [tuple(row[c] for c in columns) for row in items])
    except (KeyError, sqlite3.Error) as exc:
        raise ToolDefinitionError(f"{server} world: cannot insert into {table!r}: {exc!r}") from exc
