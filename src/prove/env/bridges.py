"""Bridges: where the worlds of two servers meet, and the shared worlds they give an episode.

A bridge is declared once, as data, between an entity kind of one server and an entity kind of
another, with the columns on which the two agree: the people in the CRM are the contacts of the
mailbox (`crm.contact` -> `email.contact` by name and address), the restaurants of the delivery
app are places on the map. Servers know nothing of each other; a package declares its bridges
in the `prove.bridges` entry-point group (a sequence of `Bridge`), as PROVE's own do in
`prove.servers.bridges`.

An episode of several servers (`Session(["crm", "email"])`) starts from their *shared world*:
for every bridge with both ends in the episode, rows of the target kind take the values of rows
of the source kind (paired by a seeded shuffle), and every occurrence of a replaced value in the
target's database is rewritten too (a cell equal to it, or the value as a whole word inside a
text), so that the target world stays consistent with itself (the messages from a contact carry
its new address). A target kind takes its values from the first bridge that reaches it in the
episode, so three servers agree on one person. The shared worlds are built once per (servers,
seed) and cached like templates; a single-server episode never sees them.
"""

from __future__ import annotations

import random
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from .errors import ToolDefinitionError
from .state import forget_writes, read_tables, table_digest
from .world import EPOCH, Template, clock_params, connect

if TYPE_CHECKING:
    from .server import Server

__all__ = ["GROUP", "Alignment", "Bridge", "align", "bridges", "bridges_among"]

GROUP = "prove.bridges"


@dataclass(frozen=True)
class Bridge:
    """Rows of `target` ("server.kind") are the same things as rows of `source`.

    Attributes:
        source: "server.kind" whose values are kept.
        target: "server.kind" whose rows take them.
        fields: (source column, target column) pairs the two rows agree on; the first names the
            thing (how a person says which one they mean).
        source_where / target_where: SQL conditions on each kind's table choosing the rows that
            take part (not the user's own entry, only the restaurants among the places).
        note: one line saying what the bridge means, for the docs and the run report.
        derived: (SQL expression on the source row, target column) pairs for what else the target
            row takes, where the source keeps it in another column or table (a CRM contact's
            company is its account's name). Set in that cell only, never rewritten elsewhere (many
            rows share a company), and left as it is where the source has none.
    """

    source: str
    target: str
    fields: tuple[tuple[str, str], ...]
    source_where: str | None = None
    target_where: str | None = None
    note: str = ""
    derived: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for end in (self.source, self.target):
            if end.count(".") != 1:
                raise ToolDefinitionError(f"bridge end {end!r} is not 'server.kind'")
        if self.source_server == self.target_server:
            raise ToolDefinitionError(f"bridge {self.source} -> {self.target} stays on one server")
        if not self.fields:
            raise ToolDefinitionError(f"bridge {self.source} -> {self.target} names no field")

    @property
    def source_server(self) -> str:
        return self.source.split(".")[0]

    @property
    def source_kind(self) -> str:
        return self.source.split(".")[1]

    @property
    def target_server(self) -> str:
        return self.target.split(".")[0]

    @property
    def target_kind(self) -> str:
        return self.target.split(".")[1]

    @property
    def servers(self) -> frozenset[str]:
        return frozenset((self.source_server, self.target_server))

    def __str__(self) -> str:
        return f"{self.source} -> {self.target}"


_LOCK = threading.Lock()
_DECLARED: list[Bridge] | None = None


def bridges() -> list[Bridge]:
    """Every declared bridge, in declaration order (entry points sorted by name)."""
    global _DECLARED
    with _LOCK:
        if _DECLARED is None:
            found: list[Bridge] = []
            for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
                try:
                    declared = ep.load()
                except Exception as exc:  # a broken third-party package must not look like our bug
                    raise ToolDefinitionError(f"bridges {ep.name!r} ({ep.value}) failed to load: {exc!r}") from exc
                if not all(isinstance(b, Bridge) for b in declared):
                    raise ToolDefinitionError(f"entry point {ep.name!r} -> {ep.value!r} is not a sequence of Bridge")
                found.extend(declared)
            _DECLARED = found
        return list(_DECLARED)


def bridges_among(names: Iterable[str], declared: Sequence[Bridge] | None = None) -> list[Bridge]:
    """The bridges an episode of these servers applies, in order: both ends in it, and only the
    first bridge that reaches a target kind (the others would give it a second set of values)."""
    names = set(names)
    out: list[Bridge] = []
    reached: set[str] = set()
    for b in bridges() if declared is None else declared:
        if b.servers <= names and b.target not in reached:
            out.append(b)
            reached.add(b.target)
    return out


@dataclass
class Alignment:
    """The shared world of one (servers, seed): a template per server, and which rows were paired.

    `pairs[bridge]` maps a source entity ID to the target entity ID that took its values.
    """

    templates: dict[str, Template]
    pairs: dict[Bridge, dict[str, str]] = field(default_factory=dict)

    def partner_map(self, bridge: Bridge) -> dict[str, str]:
        """{source ID: target ID} of one bridge (empty where the bridge is not applied)."""
        return dict(self.pairs.get(bridge, {}))


_CACHE: OrderedDict[tuple[tuple[str, ...], int], Alignment] = OrderedDict()
_CACHED = 32


def align(servers: Sequence[Server], seed: int, declared: Sequence[Bridge] | None = None) -> Alignment:
    """The shared world of `servers` for `seed` (built on first use, then cached).

    Servers that no bridge of the group reaches keep their own template object.
    """
    key = (tuple(s.name for s in servers), seed)
    if declared is None:
        with _LOCK:
            found = _CACHE.get(key)
            if found is not None:
                _CACHE.move_to_end(key)
                return found
    by_name = {s.name: s for s in servers}
    applied = bridges_among(by_name, declared)
    templates = {s.name: s.template(seed) for s in servers}
    alignment = Alignment(templates)
    if applied:
        dbs: dict[str, sqlite3.Connection] = {}
        for b in applied:
            for end in (b.source_server, b.target_server):
                if end not in dbs:
                    dbs[end] = _copy(templates[end])
            alignment.pairs[b] = _apply(b, by_name, dbs, seed)
        for name, db in dbs.items():
            if name in {b.target_server for b in applied}:
                templates[name] = _freeze(name, seed, db)
            else:
                db.close()
    if declared is None:
        with _LOCK:
            alignment = _CACHE.setdefault(key, alignment)
            while len(_CACHE) > _CACHED:
                _CACHE.popitem(last=False)
    return alignment


def _copy(template: Template) -> sqlite3.Connection:
    db = connect()
    db.deserialize(template.data)
    db.create_function("prove_rewrite", 3, _rewrite_text, deterministic=True)
    return db


def _freeze(name: str, seed: int, db: sqlite3.Connection) -> Template:
    broken = db.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise ToolDefinitionError(f"{name} world {seed}: the shared world breaks foreign keys, e.g. {broken[:3]}")
    forget_writes(db)  # the rewrite is the world, not a session's write
    tables = read_tables(db)
    digests = {t: table_digest(db, meta) for t, meta in tables.items()}
    return Template(name, seed, db.serialize(), tables, digests, db)


def _kind(servers: dict[str, Server], server: str, kind: str) -> Any:
    spec = servers[server].entities.get(kind)
    if spec is None:
        raise ToolDefinitionError(f"bridge end {server}.{kind}: {server} declares no entity kind {kind!r}")
    return spec


def _rows(db: sqlite3.Connection, spec: Any, where: str | None, columns: Sequence[str],
          expressions: Sequence[str] = ()) -> list[tuple[Any, ...]]:
    cond = " AND ".join(f"({c})" for c in (spec.live, where) if c) or "1"
    cols = ", ".join([*(f'"{c}"' for c in (spec.key, *columns)), *(f"({e})" for e in expressions)])
    try:
        return db.execute(f'SELECT {cols} FROM "{spec.table}" WHERE {cond} ORDER BY "{spec.key}"',
                          clock_params(EPOCH)).fetchall()
    except sqlite3.Error as exc:
        raise ToolDefinitionError(f"bridge on {spec.table}: {exc}") from exc


def _apply(bridge: Bridge, servers: dict[str, Server], dbs: dict[str, sqlite3.Connection], seed: int) -> dict[str, str]:
    """Pair the bridge's rows and give each target row its source's values; returns the pairs."""
    src = _kind(servers, bridge.source_server, bridge.source_kind)
    dst = _kind(servers, bridge.target_server, bridge.target_kind)
    source_cols = [s for s, _ in bridge.fields]
    target_cols = [t for _, t in bridge.fields]
    derived_cols = [t for _, t in bridge.derived]
    sources = _rows(dbs[bridge.source_server], src, bridge.source_where, source_cols, [e for e, _ in bridge.derived])
    targets = _rows(dbs[bridge.target_server], dst, bridge.target_where, target_cols)
    random.Random(f"bridge:{bridge}:{seed}").shuffle(targets)
    db = dbs[bridge.target_server]
    texts = _text_columns(db)
    pairs: dict[str, str] = {}
    taken: dict[str, set[Any]] = {t: {r[0] for r in db.execute(f'SELECT "{t}" FROM "{dst.table}"')} for t in target_cols}
    for source, target in zip(sources, targets):
        new, old = source[1:1 + len(target_cols)], target[1:]
        if any(v is None for v in new):
            continue
        # A value another row of the target already holds would make two things one: skip the pair.
        if any(n != o and n in taken[c] for c, n, o in zip(target_cols, new, old)):
            continue
        for column, n, o in zip(target_cols, new, old):
            if n == o:
                continue
            _replace(db, texts, o, n)
            db.execute(f'UPDATE "{dst.table}" SET "{column}" = ? WHERE "{dst.key}" = ?', (n, target[0]))
            taken[column].add(n)
        for column, n in zip(derived_cols, source[1 + len(target_cols):]):
            if n is not None:
                db.execute(f'UPDATE "{dst.table}" SET "{column}" = ? WHERE "{dst.key}" = ?', (n, target[0]))
        pairs[str(source[0])] = str(target[0])
    return pairs


def _text_columns(db: sqlite3.Connection) -> list[tuple[str, str]]:
    out = []
    for meta in read_tables(db).values():
        for info in db.execute(f'PRAGMA table_info("{meta.name}")'):
            decl = (info[2] or "").upper()
            if not any(t in decl for t in ("INT", "REAL", "FLOA", "DOUB", "NUM", "BLOB")):
                out.append((meta.name, info[1]))
    return out


def _replace(db: sqlite3.Connection, columns: list[tuple[str, str]], old: Any, new: Any) -> None:
    """Every occurrence of `old` in the database becomes `new`: equal cells, and whole words in texts."""
    if not isinstance(old, str) or not old:
        return
    for table, column in columns:
        db.execute(f'UPDATE "{table}" SET "{column}" = prove_rewrite("{column}", ?, ?) '
                   f'WHERE instr("{column}", ?) > 0', (old, new, old))


_WORD: dict[str, re.Pattern[str]] = {}


def _rewrite_text(text: Any, old: str, new: str) -> Any:
    if not isinstance(text, str):
        return text
    if text == old:
        return new
    pattern = _WORD.get(old)
    if pattern is None:
        if len(_WORD) > 10_000:
            _WORD.clear()
        pattern = _WORD[old] = re.compile(r"(?<![\w@.])" + re.escape(old) + r"(?![\w@])")
    return pattern.sub(lambda _: new, text)

