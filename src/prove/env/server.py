"""A server: a name, a SQLite schema, a world builder, entity kinds and the tools over them."""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from .annotations import Effect, EntityKind
from .asks import Ask
from .errors import ToolDefinitionError
from .state import TableMeta
from .tool import Tool, build_tool
from .toolset import Toolset
from .world import EPOCH, Template, WorldGen, build_template, clock_params

F = TypeVar("F", bound=Callable[..., Any])
WorldBuilder = Callable[[WorldGen], dict[str, list[dict[str, Any]]]]
AdvanceHook = Callable[[Any, datetime, datetime], None]


class Server:
    """One stateful tool server.

    Args:
        name: registry name, lower_snake_case, such as 'banking'.
        title: human title, such as 'Banking'.
        description: one paragraph a model or a person reads to know what the server is for.
        schema: the server's `schema.sql` (a path) or the SQL text itself.
        world: `world(gen) -> {table: [row, ...]}`, deterministic for `gen.seed`.
        entities: the entity kinds tools refer to with `Entity(kind)`.
        on_advance: `hook(ctx, old, new)` run when an episode's clock moves from `old` to `new`
            (post what came due, move orders on); it runs in a transaction like a write call.
        cached_worlds: how many seeds' templates to keep in memory.
    """

    def __init__(self, name: str, title: str, description: str, *, schema: str | Path,
                 world: WorldBuilder | None, entities: Sequence[EntityKind] = (),
                 on_advance: AdvanceHook | None = None, cached_worlds: int = 32) -> None:
        self.name = name
        self.title = title
        self.description = description
        self.schema_sql = schema.read_text() if isinstance(schema, Path) else schema
        self.build_world = world
        self.on_advance = on_advance
        self.entities = {kind.name: kind for kind in entities}
        if len(self.entities) != len(entities):
            raise ToolDefinitionError(f"{name}: an entity kind is declared twice")
        self.tools: dict[str, Tool] = {}
        self._templates: OrderedDict[int, Template] = OrderedDict()
        self._cached_worlds = cached_worlds
        self._lock = threading.Lock()

    def tool(self, fn: F | None = None, *, effect: Effect | None = None, asks: Sequence[str | Ask] = (),
             hidden: bool = False, name: str | None = None, reply: str | Ask | Sequence[str | Ask] = (),
             values: Mapping[str, Sequence[Any]] | None = None, needs: Sequence[str] = ()) -> Callable[[F], F]:
        """Register a tool: `@server.tool(effect=WRITE, asks=["Pay {amount} to {payee_id}."])`.

        Args:
            effect: READ or WRITE.
            asks: phrasings a user would say, with `{param}` slots; an `Ask` also binds the
                argument values its words fix (see `prove.env.asks`).
            hidden: a helper for tests and the pipeline, never shown to a model.
            name: the tool's name, if not the function's.
            reply: how the assistant reports a successful call, with `{param}` slots for
                arguments (said in the user's terms) and `{result.field}` slots for the result;
                an `Ask` reply fits only calls that hold its bindings (`Ask("Unassigned
                {issue_id}.", assignee_id=None)`).
            values: candidate values per free-text parameter (a scene's name, a message body),
                so that synthesized calls carry values that fit the tool.
            needs: tools that set up this one's precondition (add to the cart before checkout);
                the planner runs them first.
        """

        def register(func: F) -> F:
            built = build_tool(func, server=self.name, effect=effect, asks=asks,  # type: ignore[arg-type]
                               hidden=hidden, name=name, entity_kinds=list(self.entities),
                               replies=(reply,) if isinstance(reply, (str, Ask)) else tuple(reply),
                               values=dict(values or {}), needs=needs)
            if built.name in self.tools:
                raise ToolDefinitionError(f"{self.name}: tool {built.name!r} is defined twice")
            self.tools[built.name] = built
            return func

        if fn is not None or effect is None:
            raise ToolDefinitionError("use @server.tool(effect=READ or WRITE, ...), with arguments")
        return register

    def include(self, *toolsets: Toolset) -> Server:
        """Build and register the tools of each toolset (in order); returns the server."""
        for toolset in toolsets:
            for spec in toolset.specs:
                self.tool(effect=spec.effect, asks=spec.asks, hidden=spec.hidden, name=spec.name,
                          reply=spec.replies, values=spec.values, needs=spec.needs)(spec.fn)
        for tool in self.tools.values():
            unknown = [n for n in tool.needs if n not in self.tools]
            if unknown:
                raise ToolDefinitionError(f"{self.name}.{tool.name}: needs unknown tools {unknown}")
        return self

    def advances_with(self, hook: AdvanceHook) -> Server:
        """Set the hook run when an episode's clock moves (for hooks kept in their own module)."""
        if self.on_advance is not None:
            raise ToolDefinitionError(f"{self.name}: on_advance is set twice")
        self.on_advance = hook
        return self

    def lister(self, kind: str) -> str | None:
        """The visible read tool that best lists entities of `kind` without a required argument.

        A `list_`/`search_` tool is preferred, then one whose output carries fewest other kinds.
        """
        declared = self.entities[kind].lister
        if declared is not None:
            return declared
        candidates = [t for t in self.visible_tools
                      if t.read_only and kind in t.produces and not any(p.required for p in t.params)]
        if not candidates:
            return None

        def rank(tool: Tool) -> tuple[bool, bool, int]:
            named = tool.name.startswith(("list_", "search_", "find_"))
            return (not named, kind.rstrip("s") not in tool.name, len(tool.produces))

        return min(candidates, key=rank).name

    @property
    def members(self) -> list[Server]:
        """The servers an episode of this one holds: itself (a combined view holds several)."""
        return [self]

    def parts(self, world: int) -> list[tuple[Server, dict[str, EntityKind], sqlite3.Connection]]:
        """Per member server, its entity kinds (by the names this server calls them) and the
        read-only database of its world `world`."""
        return [(self, self.entities, self.template(world).db)]

    @property
    def visible_tools(self) -> list[Tool]:
        """The tools a model may be shown (hidden helpers excluded)."""
        return [t for t in self.tools.values() if not t.hidden]

    def template(self, seed: int) -> Template:
        """The built world for `seed`, built on first use and kept (LRU)."""
        with self._lock:
            found = self._templates.get(seed)
            if found is not None:
                self._templates.move_to_end(seed)
                return found
        built = self.build(seed)
        with self._lock:
            self._templates.setdefault(seed, built)
            while len(self._templates) > self._cached_worlds:
                self._templates.popitem(last=False)
            return self._templates[seed]

    def build(self, seed: int) -> Template:
        """Build the world for `seed` afresh (not cached), checking the declaration against it."""
        return build_template(self.name, self.schema_sql, self.build_world, seed, self._check_world)

    def _check_world(self, db: sqlite3.Connection, tables: dict[str, TableMeta]) -> None:
        visible = {t.name for t in self.visible_tools}
        for kind in self.entities.values():
            if kind.table not in tables:
                raise ToolDefinitionError(f"{self.name}: entity {kind.name!r} names missing table {kind.table!r}")
            if kind.lister is not None and kind.lister not in visible:
                raise ToolDefinitionError(f"{self.name}: entity {kind.name!r} names unknown lister {kind.lister!r}")
            try:
                db.execute(f'SELECT "{kind.key}" FROM "{kind.table}" WHERE {kind.live or 1} LIMIT 1',
                           clock_params(EPOCH))
            except sqlite3.Error as exc:
                raise ToolDefinitionError(f"{self.name}: entity {kind.name!r} key or live condition: {exc}") from exc
        for tool in self.tools.values():
            for p in tool.params:
                if p.where is None:
                    continue
                kind = self.entities[p.entity]  # type: ignore[index]
                try:
                    db.execute(f'SELECT "{kind.key}" FROM "{kind.table}" WHERE {p.where} LIMIT 1',
                               clock_params(EPOCH))
                except sqlite3.Error as exc:
                    raise ToolDefinitionError(f"{self.name}.{tool.name}: {p.name}'s entity condition: {exc}") from exc

    def __repr__(self) -> str:
        return f"Server({self.name!r}, {len(self.visible_tools)} tools)"
