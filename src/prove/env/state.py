"""Logical state: per-table digests, dirty tracking and row-level diffs of SQLite databases.

A fingerprint hashes rows, not pages. Triggers record which tables a session has written
(with a random version per write, so a restored snapshot can never reuse a stale digest), and
only those tables are rehashed; the others reuse the template's digests. They also note the
keys of the rows a session inserts or updates, so that a written table's digest and diff read
those rows only and take every other row from the template.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class TableMeta:
    """A user table's layout and the query that reads it in key order."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]

    @cached_property
    def quoted(self) -> tuple[str, ...]:
        """The key's columns, quoted for SQL."""
        return tuple(f'"{c}"' for c in self.key)

    @cached_property
    def order(self) -> str:
        return ", ".join(self.quoted)

    @cached_property
    def select(self) -> str:
        """Every row, in key order."""
        return f'SELECT * FROM "{self.name}" ORDER BY {self.order}'

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
        tables[name] = TableMeta(name, columns, pk or columns)
    return tables


def install_tracking(db: sqlite3.Connection, tables: dict[str, TableMeta]) -> None:
    """Triggers that mark a table dirty (with a fresh random version) on every row change, and
    note the key of every row inserted or updated in `_prove_rows`.

    Every table has its row in `_prove_dirty` from the start (version NULL = clean) and the
    triggers only UPDATE it: an INSERT in a trigger body would inherit the firing statement's
    conflict policy (`INSERT OR IGNORE` would silently keep a stale version, an UPSERT would
    fail on the trigger's own conflict). So `_prove_rows` has no unique key, and nothing in it
    can conflict: a row written twice is noted twice. A deleted row needs no note: it is simply
    not in the table any more (nor is one that `OR REPLACE` removes, which fires no trigger).
    """
    width = max((len(meta.key) for meta in tables.values()), default=1)
    db.execute(f"CREATE TABLE _prove_rows (name TEXT NOT NULL, {_slots(width)})")
    db.executemany("INSERT INTO _prove_dirty(name, v) VALUES (?, NULL)", [(n,) for n in tables])
    for name, meta in tables.items():
        mark = f"UPDATE _prove_dirty SET v = randomblob(8) WHERE name = '{name}';"
        new_key = ", ".join(f"NEW.{c}" for c in meta.quoted)
        note = f"INSERT INTO _prove_rows(name, {_slots(len(meta.key))}) VALUES ('{name}', {new_key});"
        for op, body in (("INSERT", f"{mark} {note}"), ("UPDATE", f"{mark} {note}"), ("DELETE", mark)):
            db.execute(f'CREATE TRIGGER "_prove_{op.lower()}_{name}" AFTER {op} ON "{name}" BEGIN {body} END')


def _slots(n: int) -> str:
    """The key columns of `_prove_rows` that a key of `n` columns fills."""
    return ", ".join(f"k{i}" for i in range(n))


def forget_writes(db: sqlite3.Connection) -> None:
    """Mark every table clean: the database as it is now is a world, not a session's writes."""
    db.execute("UPDATE _prove_dirty SET v = NULL")
    db.execute("DELETE FROM _prove_rows")


def _rows(db: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    """Rows as plain tuples, whatever row factory the connection uses."""
    cur = db.cursor()
    cur.row_factory = None
    return cur.execute(sql).fetchall()


def table_digest(db: sqlite3.Connection, meta: TableMeta) -> bytes:
    rows = _rows(db, meta.select)
    return hashlib.blake2b(repr(rows).encode(), digest_size=16).digest()


def keyed_rows(db: sqlite3.Connection, meta: TableMeta, where: str = "") -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """Rows by key (`TableMeta.key_of`), in key order."""
    return {meta.key_of(r): r for r in _rows(db, f'SELECT * FROM "{meta.name}" {where} ORDER BY {meta.order}')}


def written_rows(db: sqlite3.Connection, meta: TableMeta, base: Mapping[tuple[Any, ...], Any]
                 ) -> tuple[dict[tuple[Any, ...], tuple[Any, ...]], Iterable[tuple[Any, ...]]] | None:
    """The rows of a table that a session has inserted or updated and that are there now (by
    key), and every key of the table in key order; every other row is as it is in the template,
    whose rows `base` holds by key. None where keys no longer tell rows apart (a tool put a NULL
    into a primary key): then only the whole table says what it holds.
    """
    noted = f"SELECT {_slots(len(meta.key))} FROM _prove_rows WHERE name = '{meta.name}'"
    written = keyed_rows(db, meta, f"WHERE ({meta.order}) IN ({noted})")
    # Every key that is not the template's was written, so with no written key new and as many
    # rows as the template, the keys are the template's: no need to read them.
    ((count,),) = _rows(db, f'SELECT count(*) FROM "{meta.name}"')
    if count == len(base) and written.keys() <= base.keys():
        return written, base.keys()
    order = _rows(db, f'SELECT {meta.order} FROM "{meta.name}" ORDER BY {meta.order}')
    return (written, order) if len(set(order)) == count else None


def written_digest(db: sqlite3.Connection, meta: TableMeta, base: Mapping[tuple[Any, ...], str]) -> bytes:
    """`table_digest` of a table the session wrote, reading only the rows it wrote: `base` holds
    the template's row texts by key (`repr` of each row, as `table_digest` hashes them)."""
    found = written_rows(db, meta, base)
    if found is None:
        return table_digest(db, meta)
    written, order = found
    text = "[" + ", ".join(repr(written[k]) if k in written else base[k] for k in order) + "]"
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


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


def written_changes(server: str, meta: TableMeta, db: sqlite3.Connection,
                    base: Mapping[tuple[Any, ...], tuple[Any, ...]]) -> list[RowChange]:
    """`diff_table` from the template's rows `base` (by key) to a table the session wrote, comparing
    only the rows it wrote and those that are gone: every other row is as it was."""
    found = written_rows(db, meta, base)
    if found is None:
        return diff_table(server, meta, frozenset(base.values()), table_rows(db, meta))
    written, order = found
    keys = written.keys() | (base.keys() - set(order))
    return diff_table(server, meta, frozenset(base[k] for k in keys if k in base), frozenset(written.values()))


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
