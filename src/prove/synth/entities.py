"""Where entity references live in a tool's inputs and outputs, and which entities exist.

The framework records which entity kinds a tool takes (`Param.entity`) and which its result
carries (`Tool.produces`); synthesis also needs *where* in a result each kind sits, to follow
data flow from one call's output into a later call's argument, and to keep the set of entities
that exist at each point of an episode (the grounding measure).
"""

from __future__ import annotations

import sqlite3
import typing
from collections.abc import Iterator, Mapping
from typing import Any, get_args, get_origin

from pydantic import BaseModel

from ..env import Entity, EntityKind, Server, Tool
from ..env.world import EPOCH, clock_params

__all__ = ["EntityIndex", "entity_fields", "extract_entities", "iter_records", "kind_of_param"]


def _markers(annotation: Any) -> set[str]:
    found: set[str] = set()
    stack = [annotation]
    while stack:
        current = stack.pop()
        if get_origin(current) is typing.Annotated:
            base, *meta = get_args(current)
            found.update(m.kind for m in meta if isinstance(m, Entity))
            stack.append(base)
        else:
            stack.extend(a for a in get_args(current) if a is not Ellipsis)
    return found


def _models(annotation: Any) -> Iterator[type[BaseModel]]:
    stack, seen = [annotation], set()
    while stack:
        current = stack.pop()
        if isinstance(current, type) and issubclass(current, BaseModel):
            if current in seen:
                continue
            seen.add(current)
            yield current
            for info in current.model_fields.values():
                stack.append(info.annotation)
        else:
            stack.extend(a for a in get_args(current) if a is not Ellipsis)


# Keyed by id(tool), holding the tool too: a combined view's tool copies come and go, and an id is
# reused once its object is gone.
_FIELDS_CACHE: dict[int, tuple[Tool, dict[str, tuple[str, ...]]]] = {}


def entity_fields(tool: Tool) -> dict[str, tuple[str, ...]]:
    """Field name -> entity kinds for every entity-typed field anywhere in the tool's result.

    A JSON record does not say which model it came from, so a field name that means different
    kinds in different nested models (a `path` that is a folder here and a file there) maps to
    all of them. The key "" holds the kinds of a bare result (a list of IDs).
    """
    key = id(tool)
    found = _FIELDS_CACHE.get(key)
    if found is not None and found[0] is tool:
        return found[1]
    out: dict[str, tuple[str, ...]] = {}
    try:
        returns = typing.get_type_hints(tool.fn, include_extras=True).get("return")
    except Exception:  # noqa: BLE001 - the framework already resolved these hints once
        returns = None
    if returns is not None:
        for model in _models(returns):
            for name, info in model.model_fields.items():
                hint = info.annotation
                if info.metadata:
                    hint = typing.Annotated[(hint, *info.metadata)]
                kinds = _markers(hint)
                if kinds:
                    out[name] = tuple(sorted(set(out.get(name, ())) | kinds))
        top = _markers(returns)
        if top:
            out[""] = tuple(sorted(top))
    if tool.renamed:  # a tool of a combined view calls some kinds by the view's names
        out = {name: tuple(sorted(tool.renamed.get(k, k) for k in kinds)) for name, kinds in out.items()}
    _FIELDS_CACHE[key] = (tool, out)
    return out


_RECORDS_CACHE: dict[int, tuple[Tool, dict[str, set[str]]]] = {}


def record_fields(tool: Tool) -> dict[str, set[str]]:
    """Per entity kind, the fields of the records of the tool's result that *are* such an entity
    (whose first entity field is of that kind, as `own_ids` reads them): what its output shows of one."""
    found = _RECORDS_CACHE.get(id(tool))
    if found is not None and found[0] is tool:
        return found[1]
    out: dict[str, set[str]] = {}
    _RECORDS_CACHE[id(tool)] = (tool, out)
    try:
        returns = typing.get_type_hints(tool.fn, include_extras=True).get("return")
    except Exception:  # noqa: BLE001 - the framework already resolved these hints once
        return out
    for model in _models(returns):
        for info in model.model_fields.values():
            hint = typing.Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
            kinds = _markers(hint)
            if kinds:
                for kind in kinds:
                    out.setdefault(tool.renamed.get(kind, kind), set()).update(model.model_fields)
                break
    return out


def kind_of_param(tool: Tool, name: str) -> str | None:
    for p in tool.params:
        if p.name == name:
            return p.entity
    return None


def iter_records(data: Any, depth: int = 0) -> Iterator[Mapping[str, Any]]:
    """Every JSON object inside a result, outermost first."""
    if depth > 8:
        return
    if isinstance(data, Mapping):
        yield data
        for value in data.values():
            if isinstance(value, (Mapping, list)):
                yield from iter_records(value, depth + 1)
    elif isinstance(data, list):
        for item in data:
            yield from iter_records(item, depth + 1)


def extract_entities(tool: Tool, data: Any) -> list[tuple[str, str, Mapping[str, Any]]]:
    """(kind, id, record) for every entity reference in a result, in document order."""
    fields = entity_fields(tool)
    if not fields:
        return []
    out: list[tuple[str, str, Mapping[str, Any]]] = []
    if "" in fields:
        for value in data if isinstance(data, list) else [data]:
            if isinstance(value, str):
                out.extend((kind, value, {}) for kind in fields[""])
    for record in iter_records(data):
        for name, value in record.items():
            kinds = fields.get(name)
            if kinds is None or not name:
                continue
            values = [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)] \
                if isinstance(value, list) else []
            for v in values:
                out.extend((kind, v, record) for kind in kinds)
    return out


def own_ids(tool: Tool, data: Any) -> set[str]:
    """The IDs of the records a result *is* (each record's first entity field), not the ones it refers to.

    A card record carries `card_id` and then `account_id`: the card is the record, the account a
    reference. Models put their own ID first, which is what this relies on.
    """
    fields = entity_fields(tool)
    out: set[str] = set()
    if not fields:
        return out
    if "" in fields:
        for value in data if isinstance(data, list) else [data]:
            if isinstance(value, str):
                out.add(value)
    for record in iter_records(data):
        for name, value in record.items():
            if name in fields and name:
                if isinstance(value, str):
                    out.add(value)
                break
    return out


class EntityIndex:
    """The entity IDs of one server's world: all of them, the live ones, and their labels.

    Read once from the world template (read-only SQL on the declared table, key, label and
    `live` condition); an episode adds what its calls create (`EpisodeEntities`).
    """

    def __init__(self, server: Server, world: int) -> None:
        self.server = server.name
        self.world = world
        self.ids: dict[str, set[str]] = {}
        self.live: dict[str, list[str]] = {}
        self.labels: dict[str, dict[str, str]] = {}
        self.rows: dict[str, dict[str, dict[str, Any]]] = {}  # the live rows
        self.every: dict[str, dict[str, dict[str, Any]]] = {}  # every row: what a person names things by
        # Per kind, a column that points by another key at a named kind's row (a version's `node_id`
        # at a file named by its path): column -> (that kind, its keys by the pointed-at column).
        self.refs: dict[str, dict[str, tuple[str, dict[str, str]]]] = {}
        self.stands_for: dict[str, str] = {}  # kind -> the column naming whom it stands for
        for _, kinds, db in server.parts(world):
            self._read(kinds, db)

    def _read(self, kinds: Mapping[str, EntityKind], db: sqlite3.Connection) -> None:
        params = clock_params(EPOCH)
        for kind in kinds.values():
            if kind.stands_for:
                self.stands_for[kind.name] = kind.stands_for
            self.ids[kind.name] = {str(r[0]) for r in db.execute(f'SELECT "{kind.key}" FROM "{kind.table}"')}
            every = db.execute(f'SELECT * FROM "{kind.table}" ORDER BY "{kind.key}"')
            cols = [d[0] for d in every.description]
            at = cols.index(kind.key)
            self.every[kind.name] = {str(row[at]): dict(zip(cols, row)) for row in every.fetchall()}
            self.live[kind.name] = [str(r[0]) for r in db.execute(
                f'SELECT "{kind.key}" FROM "{kind.table}" WHERE {kind.live or 1} ORDER BY "{kind.key}"', params)]
            self.rows[kind.name] = {k: self.every[kind.name][k] for k in self.live[kind.name]}
            if kind.label:  # every row's: an archived channel is still called by its name
                self.labels[kind.name] = {str(k): str(v) for k, v in db.execute(
                    f'SELECT "{kind.key}", "{kind.label}" FROM "{kind.table}"') if v not in (None, "")}
        named = {}  # the first named kind declared on each table: nodes -> item
        for kind in kinds.values():
            if kind.label:
                named.setdefault(kind.table, kind)
        for kind in kinds.values():
            for fk in db.execute(f'PRAGMA foreign_key_list("{kind.table}")'):
                table, column, target = fk[2], fk[3], fk[4]
                other = named.get(table)
                if other is not None and other.name != kind.name and target != other.key:
                    keys = {str(a): str(b) for a, b in db.execute(f'SELECT "{target}", "{other.key}" FROM "{table}"')}
                    self.refs.setdefault(kind.name, {})[column] = (other.name, keys)

    def owner(self, kind: str, value: str) -> tuple[str, str, str] | None:
        """What a nameless entity belongs to, by which a person names it ("the recording of the
        meeting 'Weekly sync'", "the share link of the Budget.csv file"): the first column of its
        row that holds a named entity's ID, as (column, kind, ID); None for a named kind."""
        if kind in self.labels:
            return None
        row = self.every.get(kind, {}).get(value)
        stands = (row or {}).get(self.stands_for.get(kind, "")) if value in self.rows.get(kind, {}) else None
        other = self.named_kind(stands, besides=kind) if isinstance(stands, str) else None
        if other is not None:  # a participant in a meeting now: the person it stands for
            return self.stands_for[kind], other, stands
        for column, cell in (row or {}).items():
            ref = self.refs.get(kind, {}).get(column)
            if ref is not None and str(cell) in ref[1]:  # a version's node_id: the file, by its path
                return column, ref[0], ref[1][str(cell)]
            other = self.named_kind(cell, besides=kind) if isinstance(cell, str) else None
            if other is not None:
                return column, other, cell
        return None

    def named_kind(self, value: str, besides: str | None = None) -> str | None:
        """The kind with a name whose entity has this ID (other than `besides`), if any."""
        return next((k for k, labels in self.labels.items() if k != besides and value in labels), None)

    def exists(self, kind: str, value: str, created: Mapping[str, set[str]] | None = None) -> bool:
        if value in self.ids.get(kind, ()):
            return True
        return bool(created) and value in created.get(kind, ())  # type: ignore[union-attr]


def entity_kinds(server: Server) -> dict[str, EntityKind]:
    return server.entities


def found_nothing(data: Any) -> bool:
    """A result that found nothing: an empty list, or a record whose lists are all empty."""
    if isinstance(data, list):
        return not data
    if isinstance(data, Mapping):
        lists = [v for v in data.values() if isinstance(v, list)]
        return bool(lists) and not any(lists)
    return False
