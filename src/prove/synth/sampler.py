"""Stage 2: live-state sampling, the context a teacher draws its entities from.

The sampler enumerates a server's entities read-only from a world (the declared table, key,
label and `live` condition of each `EntityKind`, evaluated at the episode's clock), keeps the
well-supported ones (rows other rows refer to, where the kind has dependants, and rows a read
tool can fetch), and adds the categories and value ranges of the server's columns. The result,
a `SamplingContext`, is what the teacher is told to use and nothing else. It is redrawn every
`k` conversations (another subset, another world), so a dataset covers many entities without a
prompt ever listing all of them.
"""

from __future__ import annotations

import random
import sqlite3
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..env import Server, Session, Tool
from ..env.combined import Combined
from ..env.annotations import Effect
from .entities import EntityIndex

__all__ = ["Sampler", "SamplingContext", "getter_tools"]

_MAX_CATEGORIES = 40
SECRET_COLUMNS = ("pin", "password", "passcode", "token", "secret", "cvv", "cvc", "security_code", "card_number",
                  "account_number", "routing_number", "ssn", "passport_number")
_MAX_TEXT = 60


@dataclass
class SamplingContext:
    """What a teacher may use: real entity IDs with their labels, categories and value ranges."""

    server: str
    world: int
    block: int
    entities: dict[str, list[str]] = field(default_factory=dict)
    labels: dict[str, dict[str, str]] = field(default_factory=dict)
    values: dict[str, list[str]] = field(default_factory=dict)
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)

    def ids(self, kind: str) -> list[str]:
        return self.entities.get(kind, [])

    def label(self, kind: str, entity_id: str) -> str | None:
        return self.labels.get(kind, {}).get(entity_id)

    def known(self) -> set[str]:
        return {v for ids in self.entities.values() for v in ids}

    def render(self, limit: int = 6) -> str:
        """The context as prompt text, with the instruction to use nothing else."""
        lines = [f"Live state of {self.server} (world {self.world}). Use only these entities; never invent IDs."]
        for kind in sorted(self.entities):
            shown = []
            for eid in self.entities[kind][:limit]:
                lab = self.label(kind, eid)
                shown.append(f"{eid} ({lab})" if lab else eid)
            if shown:
                lines.append(f"- {kind}: " + ", ".join(shown))
        for col in sorted(self.values)[:12]:
            lines.append(f"- values of {col}: " + ", ".join(self.values[col][:8]))
        for col in sorted(self.ranges)[:12]:
            lo, hi = self.ranges[col]
            lines.append(f"- range of {col}: {lo:g} to {hi:g}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"server": self.server, "world": self.world, "block": self.block, "entities": self.entities,
                "labels": self.labels, "values": self.values,
                "ranges": {k: list(v) for k, v in self.ranges.items()}}


def getter_tools(server: Server) -> dict[str, Tool]:
    """Per entity kind, a read tool that fetches one entity by its ID alone (hidden ones too)."""
    out: dict[str, Tool] = {}
    for tool in server.tools.values():
        if tool.effect is not Effect.READ:
            continue
        required = [p for p in tool.params if p.required]
        if len(required) == 1 and required[0].entity and required[0].entity not in out:
            spec = tool.parameters["properties"].get(required[0].name, {})
            if spec.get("type") == "string":
                out[required[0].entity] = tool
    return out


def _support(db: sqlite3.Connection, table: str, key: str) -> dict[str, int] | None:
    """How many rows of other tables refer to each key of `table`, or None if none can."""
    refs: list[tuple[str, str]] = []
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_prove_%' "
                              "AND name NOT LIKE 'sqlite_%'"):
        for fk in db.execute(f'PRAGMA foreign_key_list("{name}")'):
            if fk[2] == table and (fk[4] in (key, None)):
                refs.append((name, fk[3]))
    if not refs:
        return None
    counts: dict[str, int] = {}
    for child, col in sorted(set(refs)):
        for value, n in db.execute(f'SELECT "{col}", count(*) FROM "{child}" WHERE "{col}" IS NOT NULL '
                                   f'GROUP BY "{col}"'):
            counts[str(value)] = counts.get(str(value), 0) + n
    return counts


class Sampler:
    """Sampling contexts for one server: block `b` (conversations b*k .. b*k+k-1) gets its own.

    Args:
        server: the server.
        seed: the run's seed.
        worlds: the world seeds used, one per block in turn.
        per_kind: at most this many entities of each kind in a context.
        cache: how many contexts to keep.
    """

    def __init__(self, server: Server, seed: int, worlds: Sequence[int] = (0,), per_kind: int = 8,
                 cache: int = 8) -> None:
        self.server = server
        self.seed = seed
        self.worlds = list(worlds) or [0]
        self.per_kind = per_kind
        self._cache: OrderedDict[int, SamplingContext] = OrderedDict()
        self._cache_size = cache
        self._indexes: dict[int, EntityIndex] = {}
        self._columns: dict[int, tuple[dict[str, list[str]], dict[str, tuple[float, float]]]] = {}
        self._getters = getter_tools(server)

    def world(self, block: int) -> int:
        return self.worlds[block % len(self.worlds)]

    def index(self, world: int) -> EntityIndex:
        found = self._indexes.get(world)
        if found is None:
            found = self._indexes[world] = EntityIndex(self.server, world)
        return found

    def context(self, block: int) -> SamplingContext:
        found = self._cache.get(block)
        if found is not None:
            self._cache.move_to_end(block)
            return found
        ctx = self._build(block)
        self._cache[block] = ctx
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return ctx

    def _build(self, block: int) -> SamplingContext:
        world = self.world(block)
        rng = random.Random(f"sample:{self.seed}:{self.server.name}:{block}")
        index = self.index(world)
        dbs = {name: db for _, kinds, db in self.server.parts(world) for name in kinds}
        # In a combined view, a bridged kind offers the entities that are the same on both servers.
        linked: dict[str, set[str]] = {}
        if isinstance(self.server, Combined):
            for (kind, _), pairs in self.server.links(world).items():
                linked.setdefault(kind, set()).update(pairs)
        ctx = SamplingContext(self.server.name, world, block)
        with Session([self.server], world=world, session_id=f"sampler-{self.server.name}-{block}") as probe:
            for kind in sorted(self.server.entities.values(), key=lambda k: k.name):
                live = list(index.live[kind.name])
                if not live:
                    continue
                support = _support(dbs[kind.name], kind.table, kind.key)
                if support:
                    backed = [e for e in live if support.get(e, 0) > 0]
                    if len(backed) >= min(self.per_kind, len(live)) // 2 and backed:
                        live = backed
                if linked.get(kind.name):
                    live = [e for e in live if e in linked[kind.name]] or live
                rng.shuffle(live)
                getter = self._getters.get(kind.name)
                chosen: list[str] = []
                for eid in live:
                    if len(chosen) >= self.per_kind:
                        break
                    if getter is not None:
                        arg = next(p.name for p in getter.params if p.required)
                        if not probe.call(getter.name, {arg: eid}).ok:
                            continue
                    chosen.append(eid)
                ctx.entities[kind.name] = chosen
                labels = index.labels.get(kind.name, {})
                # A label too long to say is no label (never cut mid-word: "the Aurora rollout pla").
                ctx.labels[kind.name] = {e: labels[e] for e in chosen if e in labels and len(labels[e]) <= _MAX_TEXT}
        values, ranges = self._column_stats(world)
        ctx.values = {col: rng.sample(vals, min(len(vals), 12)) if len(vals) > 12 else list(vals)
                      for col, vals in values.items()}
        # the user's own name, of the row that is them (else of the cards on file): a card they save is in it
        # ("name on card Emma Bennett")
        mine = sorted({index.labels[k][e] for k, rows in index.every.items() for e, row in rows.items()
                       if row.get("is_me") == 1 and e in index.labels.get(k, {})})
        if mine:
            ctx.values["my_name"] = mine
        ctx.ranges = dict(ranges)
        return ctx

    def _column_stats(self, world: int) -> tuple[dict[str, list[str]], dict[str, tuple[float, float]]]:
        """Low-cardinality text columns (categories, cities, statuses) and numeric ranges."""
        found = self._columns.get(world)
        if found is not None:
            return found
        values: dict[str, set[str]] = {}
        ranges: dict[str, tuple[float, float]] = {}
        for _, kinds, db in self.server.parts(world):
            self._columns_of(db, kinds, values, ranges)
        result = ({c: sorted(v) for c, v in values.items()}, ranges)
        self._columns[world] = result
        return result

    def _columns_of(self, db: sqlite3.Connection, kinds: dict[str, Any], values: dict[str, set[str]],
                    ranges: dict[str, tuple[float, float]]) -> None:
        keys = {(k.table, k.key) for k in kinds.values()}
        # Secrets never go into a context: a user knows their PIN, a prompt must not carry it.
        secret = {p.name for t in self.server.tools.values() for p in t.params if p.sensitive} | set(SECRET_COLUMNS)
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                                           "'_prove_%' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for table in tables:
            for info in db.execute(f'PRAGMA table_info("{table}")').fetchall():
                col, decl, pk = info[1], (info[2] or "").upper(), info[5]
                if pk or (table, col) in keys or col.endswith("_id") or col in secret \
                        or any(w in col for w in ("pin", "password", "secret", "token", "cvv")):
                    continue
                if "INT" in decl or "REAL" in decl or "NUM" in decl or "FLOA" in decl:
                    lo, hi = db.execute(f'SELECT min("{col}"), max("{col}") FROM "{table}"').fetchone()
                    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and hi > lo:
                        old = ranges.get(col)
                        ranges[col] = (min(lo, old[0]), max(hi, old[1])) if old else (float(lo), float(hi))
                    continue
                rows = db.execute(f'SELECT DISTINCT "{col}" FROM "{table}" WHERE "{col}" IS NOT NULL '
                                  f'AND "{col}" != \'\' LIMIT {_MAX_CATEGORIES + 1}').fetchall()
                texts = [r[0] for r in rows if isinstance(r[0], str) and len(r[0]) <= _MAX_TEXT]
                if "email" in col and texts:
                    values.setdefault(col, set()).update(texts[:_MAX_CATEGORIES])
                elif col == "cardholder" and len(texts) == len(rows) == 1:  # every card on file is in the user's name
                    values.setdefault("my_name", set()).add(texts[0].title() if texts[0].isupper() else texts[0])
                elif 2 <= len(rows) <= _MAX_CATEGORIES and len(texts) == len(rows):
                    values.setdefault(col, set()).update(texts)
