"""Logical state: per-table digests, dirty tracking and row-level diffs of SQLite databases.

A fingerprint hashes rows, not pages. Triggers record which tables a session has written
(with a random version per write, so a restored snapshot can never reuse a stale digest), and
only those tables are rehashed; the others reuse the template's digests.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class TableMeta:
    """A user table's layout and the query that reads it in key order."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    select: str

    @cached_property
    def key_index(self) -> tuple[int, ...]:
        """The positions of the key's columns in a row."""
        return tuple(self.columns.index(k) for k in self.key)

    def key_of(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(row[i] for i in self.key_index)


def read_tables(db: sqlite3.Connection) -> dict[str, TableMeta]:
    """The user tables of a database (the framework's own `_prove_*` tables excluded)."""
    names = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' "
        "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_prove_%' ORDER BY name")]
    tables = {}
    for name in names:
        info = db.execute(f'PRAGMA table_info("{name}")').fetchall()
        columns = tuple(r[1] for r in info)
        pk = tuple(r[1] for r in sorted((r for r in info if r[5] > 0), key=lambda r: r[5]))
        key = pk or columns
        order = ", ".join(f'"{c}"' for c in key)
        tables[name] = TableMeta(name, columns, key, f'SELECT * FROM "{name}" ORDER BY {order}')
    return tables


def install_tracking(db: sqlite3.Connection, tables: dict[str, TableMeta]) -> None:
    """Triggers that mark a table dirty (with a fresh random version) on every row change.

    Every table has its row in `_prove_dirty` from the start (version NULL = clean) and the
    triggers only UPDATE it: an INSERT in a trigger body would inherit the firing statement's
    conflict policy (`INSERT OR IGNORE` would silently keep a stale version, an UPSERT would
    fail on the trigger's own conflict).
    """
    db.executemany("INSERT INTO _prove_dirty(name, v) VALUES (?, NULL)", [(n,) for n in tables])
    for name in tables:
        for op in ("INSERT", "UPDATE", "DELETE"):
            db.execute(
                f'CREATE TRIGGER "_prove_{op.lower()}_{name}" AFTER {op} ON "{name}" BEGIN '
                f"UPDATE _prove_dirty SET v = randomblob(8) WHERE name = '{name}'; END")


def _rows(db: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    """Rows as plain tuples, whatever row factory the connection uses."""
    cur = db.cursor()
    cur.row_factory = None
    return cur.execute(sql).fetchall()


def table_digest(db: sqlite3.Connection, meta: TableMeta) -> bytes:
    rows = _rows(db, meta.select)
    return hashlib.blake2b(repr(rows).encode(), digest_size=16).digest()


def dirty_tables(db: sqlite3.Connection) -> list[tuple[str, bytes]]:
    return _rows(db, "SELECT name, v FROM _prove_dirty WHERE v IS NOT NULL")


@dataclass(frozen=True, slots=True)
class RowChange:
    """One row that differs between two states of the same server."""

    server: str
    table: str
    op: str  # "insert", "delete" or "update"
    key: dict[str, Any]
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    @property
    def columns(self) -> list[str]:
        """For an update, the columns whose values changed."""
        if self.before is None or self.after is None:
            return []
        return [c for c in self.after if self.after[c] != self.before.get(c)]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"server": self.server, "table": self.table, "op": self.op, "key": self.key}
        if self.op == "update":
            out["changes"] = {c: [self.before[c], self.after[c]] for c in self.columns}  # type: ignore[index]
        else:
            out["row"] = self.after if self.op == "insert" else self.before
        return out


def table_rows(db: sqlite3.Connection, meta: TableMeta) -> frozenset[tuple[Any, ...]]:
    """A table's rows as a set (no two rows of a table are the same: it has a key)."""
    return frozenset(_rows(db, meta.select))


def diff_table(server: str, meta: TableMeta, old: frozenset[tuple[Any, ...]],
               new: frozenset[tuple[Any, ...]]) -> list[RowChange]:
    """Row-level changes of one table from the rows `old` to the rows `new` (matched by primary key)."""
    # A row both states hold as it is changed nothing: only the others are matched by key.
    before = {meta.key_of(r): r for r in old - new}
    after = {meta.key_of(r): r for r in new - old}
    cols = meta.columns
    changes = []
    for key in sorted(before.keys() | after.keys(), key=repr):
        b, a = before.get(key), after.get(key)
        keyd = dict(zip(meta.key, key))
        bd = dict(zip(cols, b)) if b is not None else None
        ad = dict(zip(cols, a)) if a is not None else None
        op = "insert" if b is None else "delete" if a is None else "update"
        changes.append(RowChange(server, meta.name, op, keyd, bd, ad))
    return changes
