"""A combined view: several servers seen as one, under the names an episode of them exposes.

`combine(["crm", "email"])` is a `Server` whose tools are its members' tools under the names
`tool_names` gives an episode of them (a name two members share is qualified `server_tool`,
the others are kept), and whose entity kinds are its members' kinds, a kind name two members
share qualified the same way (`crm_contact`, `email_contact`; still called "contact" in words).
Everything written against one server (a dependency graph, a sampler, a teacher, validation)
works on it unchanged; `Session([view])` is an episode of its members, from their shared world
(`prove.env.bridges`). `links(world)` says which entities of different members are the same
thing there, by the bridges.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Sequence

from .annotations import EntityKind
from .bridges import Bridge, align, bridges_among
from .errors import InvalidRequestError, ToolDefinitionError
from .server import Server
from .session import _resolve, tool_names
from .tool import Tool
from .world import Template

__all__ = ["Combined", "combine"]


class Combined(Server):
    """Several servers as one (see the module docstring); build it with `combine`."""

    def __init__(self, servers: Sequence[Server], declared: Sequence[Bridge] | None = None) -> None:
        names = [s.name for s in servers]
        if len(servers) < 2 or len(set(names)) != len(names):
            raise InvalidRequestError(f"a combined view needs two or more distinct servers, not {names}")
        counts: dict[str, int] = {}
        for s in servers:
            for kind in s.entities:
                counts[kind] = counts.get(kind, 0) + 1
        self.kind_names = {(s.name, k): (f"{s.name}_{k}" if counts[k] > 1 else k) for s in servers for k in s.entities}
        public = tool_names(servers)
        self.tool_names = {(t.server, t.name): name for name, t in public.items()}
        kinds = []
        for s in servers:
            for k, spec in s.entities.items():
                lister = self.tool_names.get((s.name, spec.lister)) if spec.lister else None
                kinds.append(dataclasses.replace(spec, name=self.kind_names[s.name, k], noun=spec.words, lister=lister))
        super().__init__("+".join(names), " and ".join(s.title for s in servers),
                         " ".join(s.description for s in servers), schema="", world=None, entities=kinds)
        self._members = list(servers)
        self.bridges = bridges_among(names, declared)
        self._declared = declared
        for name, tool in public.items():
            self.tools[name] = self._copy(name, tool)

    def _copy(self, name: str, tool: Tool) -> Tool:
        """The member's tool under its episode name, its entity kinds under this view's names."""
        renamed = {k: self.kind_names[tool.server, k] for k in tool.produces | tool.consumes
                   if (tool.server, k) in self.kind_names}
        params = tuple(dataclasses.replace(p, entity=renamed.get(p.entity, p.entity)) if p.entity else p
                       for p in tool.params)
        return dataclasses.replace(tool, name=name, params=params,
                                   produces=frozenset(renamed.get(k, k) for k in tool.produces),
                                   needs=tuple(self.tool_names[tool.server, n] for n in tool.needs),
                                   renamed={k: v for k, v in renamed.items() if k != v})

    @property
    def members(self) -> list[Server]:
        return list(self._members)

    def template(self, seed: int) -> Template:
        raise ToolDefinitionError(f"{self.name} is a combined view: it has a world per member (see `parts`)")

    def build(self, seed: int) -> Template:
        return self.template(seed)

    def parts(self, world: int) -> list[tuple[Server, dict[str, EntityKind], sqlite3.Connection]]:
        shared = align(self._members, world, self._declared).templates
        return [(s, {self.kind_names[s.name, k]: self.entities[self.kind_names[s.name, k]] for k in s.entities},
                 shared[s.name].db) for s in self._members]

    def kind(self, bridge_end: str) -> str:
        """The name this view gives a bridge end ("crm.contact" -> "crm_contact")."""
        server, kind = bridge_end.split(".")
        return self.kind_names[server, kind]

    def links(self, world: int) -> dict[tuple[str, str], dict[str, str]]:
        """{(kind, other kind): {ID: ID of the same thing}} for every bridge, both ways, in world `world`."""
        alignment = align(self._members, world, self._declared)
        out: dict[tuple[str, str], dict[str, str]] = {}
        for b in self.bridges:
            a, t = self.kind(b.source), self.kind(b.target)
            pairs = alignment.partner_map(b)
            out.setdefault((a, t), {}).update(pairs)
            out.setdefault((t, a), {}).update({v: k for k, v in pairs.items()})
        return out

    def agreed(self, kind: str, other: str) -> tuple[tuple[str, str], ...]:
        """The (column of `kind`, column of `other`) pairs a bridge between the two kinds agrees on."""
        for b in self.bridges:
            a, t = self.kind(b.source), self.kind(b.target)
            if (a, t) == (kind, other):
                return b.fields
            if (t, a) == (kind, other):
                return tuple((y, x) for x, y in b.fields)
        return ()

    def bridged_kinds(self) -> set[tuple[str, str]]:
        """(kind, other kind) pairs that name the same things on two members, both ways."""
        out = set()
        for b in self.bridges:
            a, t = self.kind(b.source), self.kind(b.target)
            out |= {(a, t), (t, a)}
        return out


def combine(servers: Sequence[str | Server], declared: Sequence[Bridge] | None = None) -> Combined:
    """The combined view of these servers (names looked up in the registry)."""
    return Combined(_resolve(servers), declared)
