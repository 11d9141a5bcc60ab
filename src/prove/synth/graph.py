"""Stage 1: the dependency graph of a server's tools, and chains drawn from it.

Every ordered pair (A, B) of visible tools is classified:

- `explicit`: A's output carries an entity that B takes as an argument (data flows A -> B);
- `implicit`: A writes state that B reads or writes (same entity kinds), so A must run first;
- `none`.

In a combined view of several servers (`prove.env.combined`) the graph also has *cross-server*
edges: A's output carries an entity that a bridge makes the same thing as an entity B takes on
another server (a CRM contact -> the calendar person invited), labelled `explicit` with the
bridged kind as the flow. `servers` maps each tool to its server there.

The schema classifier derives the labels from the entity flow and the effects the framework
records. An LLM classifier (the paper's method, through the teacher) refines them; its answers
are cached on disk by the hash of the server's schemas, so a tool change invalidates them and
nothing else does. Chains of 2-5 tools are walks on the graph.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..env import Server, Tool
from ..env.annotations import Effect
from ..env.combined import Combined
from .entities import record_fields
from .phrasing import QUERY_PARAMS

__all__ = ["EXPLICIT", "IMPLICIT", "LABELS", "NONE", "DependencyGraph", "PairClassifier", "build_graph",
           "graph_cache_path", "schema_classify", "schema_hash"]

EXPLICIT, IMPLICIT, NONE = "explicit", "implicit", "none"
LABELS = (EXPLICIT, IMPLICIT, NONE)
CLASSIFIER_VERSION = 1

# (server, tool A, candidate tools B) -> {B name: label}; labels outside LABELS are ignored.
PairClassifier = Callable[[Server, Tool, Sequence[Tool]], Mapping[str, str]]


def _touches(tool: Tool) -> frozenset[str]:
    return tool.produces | tool.consumes


def schema_classify(a: Tool, b: Tool) -> tuple[str, tuple[str, ...]]:
    """The schema classifier: a label and the entity kinds that flow from A to B."""
    if a.name == b.name:
        return NONE, ()
    flow = tuple(sorted(a.produces & b.consumes))
    if flow:
        return EXPLICIT, flow
    if a.effect is Effect.WRITE and _touches(a) & _touches(b):
        return IMPLICIT, ()
    return NONE, ()


def schema_hash(server: Server) -> str:
    """A stable hash of everything the classifiers look at: schemas, effects, entity flow."""
    items = []
    for tool in server.visible_tools:
        items.append({"schema": tool.openai_schema(), "effect": tool.effect.value,
                      "produces": sorted(tool.produces), "consumes": sorted(tool.consumes)})
    text = json.dumps({"server": server.name, "tools": items, "v": CLASSIFIER_VERSION}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


_INVERSE = (("add", "remove"), ("enable", "disable"), ("freeze", "unfreeze"), ("archive", "unarchive"),
            ("follow", "unfollow"), ("block", "unblock"), ("star", "unstar"), ("pin", "unpin"), ("lock", "unlock"),
            ("mute", "unmute"), ("watch", "unwatch"), ("start", "stop"), ("open", "close"), ("join", "leave"),
            ("like", "unlike"), ("subscribe", "unsubscribe"), ("arm", "disarm"), ("save", "unsave"),
            ("activate", "deactivate"), ("pause", "resume"), ("mark", "unmark"), ("create", "delete"),
            ("close", "reopen"), ("delete", "restore"), ("save", "remove_saved"), ("apply", "remove"),
            ("set", "clear"), ("start", "end"), ("contribute_to", "withdraw_from"))


@functools.lru_cache(maxsize=65536)
def undoes(a: str, b: str) -> bool:
    """Whether one tool takes back what the other does (`add_favorite` and `remove_favorite`,
    `freeze_card` and `unfreeze_card`), by the verbs of their names."""
    for x, y in _INVERSE:
        for first, second in ((a, b), (b, a)):
            if first.startswith(x + "_") and second.startswith(y + "_") and \
                    first[len(x):].replace("_to_", "_from_") == second[len(y):]:  # add_booking_to_trip / remove_booking_from_trip
                return True
    for first, second in ((a, b), (b, a)):  # set_navigation_destination / cancel_navigation
        if first.startswith("set_") and second.startswith("cancel_") and first[4:].startswith(second[7:] + "_"):
            return True
    return False


@dataclass
class DependencyGraph:
    """Labels for every ordered pair of a server's visible tools (pairs absent are `none`)."""

    server: str
    tools: list[str]
    labels: dict[tuple[str, str], str] = field(default_factory=dict)
    flows: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    schema_hash: str = ""
    classifier: str = "schema"
    servers: dict[str, str] = field(default_factory=dict)  # tool -> server, in a combined view

    def crosses(self, a: str, b: str) -> bool:
        """Whether A -> B is a cross-server edge (an entity carried from one server to another)."""
        return bool(self.servers) and self.servers.get(a) != self.servers.get(b) and (a, b) in self.labels

    def cross_edges(self) -> list[tuple[str, str]]:
        """The cross-server edges, in order."""
        return sorted((a, b) for a, b in self.labels if self.crosses(a, b))

    def cross_walk(self, rng: random.Random, length: int) -> list[str]:
        """A chain that opens with a cross-server edge (empty where the graph has none)."""
        edges = self.cross_edges()
        return self.walk(rng, length, prefix=rng.choice(edges)) if edges else []

    def label(self, a: str, b: str) -> str:
        return self.labels.get((a, b), NONE)

    def successors(self, a: str) -> list[tuple[str, str]]:
        return [(b, self.labels[(a, b)]) for b in self.tools if (a, b) in self.labels]

    def counts(self) -> dict[str, int]:
        out = {EXPLICIT: 0, IMPLICIT: 0, NONE: 0}
        for a in self.tools:
            for b in self.tools:
                if a != b:
                    out[self.label(a, b)] += 1
        return out

    def walk(self, rng: random.Random, length: int, start: str | None = None,
             avoid: frozenset[str] = frozenset(), prefix: Sequence[str] = ()) -> list[str]:
        """A chain of up to `length` distinct tools, each linked to an earlier one by an edge.

        The next tool prefers an explicit edge from the last tool (data flows on), then explicit
        edges from earlier tools, then implicit ones. Where no edge leads on, the chain goes on
        with an independent request (another tool, no edge), as people ask for unrelated things
        in one conversation: so a tool that no edge reaches still gets chains of its own.
        Every tool starts chains equally often. With a `prefix`, the chain starts with those tools.
        """
        pool = [t for t in self.tools if t not in avoid]
        if not pool:
            return []
        if prefix:
            chain = list(prefix)
        else:
            chain = [start if start is not None else rng.choice(pool)]
        while len(chain) < length:
            scores: dict[str, float] = {}
            for i, a in enumerate(chain):
                last = i == len(chain) - 1
                for b, label in self.successors(a):
                    if b in chain or b in avoid or any(undoes(b, c) for c in chain):
                        continue  # nobody removes a favorite and adds it back in one conversation
                    w = (3.0 if last else 1.0) if label == EXPLICIT else (1.0 if last else 0.4)
                    scores[b] = scores.get(b, 0.0) + w
            if not scores:
                rest = [t for t in pool if t not in chain and not any(undoes(t, c) for c in chain)]
                if not rest:
                    break
                chain.append(rng.choice(rest))
                continue
            names = sorted(scores)
            chain.append(rng.choices(names, [scores[n] for n in names])[0])
        return chain

    def to_dict(self) -> dict[str, Any]:
        out = {
            "server": self.server, "schema_hash": self.schema_hash, "classifier": self.classifier,
            "tools": self.tools,
            "edges": [[a, b, lab, list(self.flows.get((a, b), ()))] for (a, b), lab in sorted(self.labels.items())],
        }
        if self.servers:
            out["servers"] = dict(self.servers)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DependencyGraph:
        g = cls(data["server"], list(data["tools"]), schema_hash=data.get("schema_hash", ""),
                classifier=data.get("classifier", "schema"), servers=dict(data.get("servers", {})))
        for a, b, lab, flow in data["edges"]:
            g.labels[(a, b)] = lab
            if flow:
                g.flows[(a, b)] = tuple(flow)
        return g


def lookup_param(tool: Tool, columns: Sequence[str] = ()) -> str | None:
    """The parameter a read tool finds things by: a search query, or one of `columns` (a name)."""
    if not tool.read_only:
        return None
    return next((p.name for p in tool.params if p.name in QUERY_PARAMS or p.name in columns), None)


def _cross_edges(server: Combined, tools: Sequence[Tool], graph: DependencyGraph) -> None:
    """The edges through the view's bridges: A's records show a kind bridged to one that B needs (a
    required argument) on another server, and that server can look it up by the value they agree on."""
    graph.servers = {t.name: t.server for t in tools}
    bridged = server.bridged_kinds()
    # A carries a kind across where its records of that kind show a value the bridge agrees on (the
    # address, the name), and the other server can look the same thing up by it. A write carries
    # only what it was given (an updated contact), never what it makes: a new thing is on one server.
    shows = {t.name: {k for k, names in record_fields(t).items() if t.read_only or k in t.consumes
                      for other in {k2 for k1, k2 in bridged if k1 == k}
                      if any(mine in names for mine, _ in server.agreed(k, other))} for t in tools}
    # (a lookup whose records are such things: a payee is found in the payee list, not in transactions)
    searchable = {(k1, k2) for k1, k2 in bridged for t in tools if k2 in record_fields(t)
                  and lookup_param(t, [theirs for _, theirs in server.agreed(k1, k2)])}
    for a in tools:
        for b in tools:
            if a.server == b.server:
                continue
            needed = {p.entity for p in b.params if p.required}
            flow = tuple(sorted({k2 for k1 in shows[a.name] for k2 in needed
                                 if (k1, k2) in bridged and (k1, k2) in searchable}))
            if flow:
                graph.labels[(a.name, b.name)] = EXPLICIT
                graph.flows[(a.name, b.name)] = flow


def graph_cache_path(server: Server, classifier_id: str, cache_dir: Path, digest: str | None = None) -> Path:
    """Where an LLM-refined graph of `server` is cached: keyed by its schema hash and the classifier."""
    digest = digest or schema_hash(server)
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in classifier_id)
    return Path(cache_dir) / "graphs" / f"{server.name}-{digest[:20]}-{safe}.json"


def build_graph(server: Server, classifier: PairClassifier | None = None, *, classifier_id: str = "schema",
                cache_dir: Path | None = None) -> DependencyGraph:
    """The graph of `server`: the schema classifier, refined by `classifier` when given.

    With a classifier and a `cache_dir`, its answers are stored under the schema hash and the
    classifier's id and reused: the same schemas never cost a second round of requests.
    """
    tools = [t for t in server.visible_tools]
    digest = schema_hash(server)
    graph = DependencyGraph(server.name, [t.name for t in tools], schema_hash=digest, classifier="schema")
    for a in tools:
        for b in tools:
            label, flow = schema_classify(a, b)
            if label != NONE:
                graph.labels[(a.name, b.name)] = label
                if flow:
                    graph.flows[(a.name, b.name)] = flow
    if isinstance(server, Combined):
        _cross_edges(server, tools, graph)
    if classifier is None:
        return graph
    path = None
    if cache_dir is not None:
        path = graph_cache_path(server, classifier_id, cache_dir, digest)
        if path.is_file():
            try:
                cached = DependencyGraph.from_dict(json.loads(path.read_text()))
                if cached.schema_hash == digest:
                    return cached
            except (ValueError, KeyError, TypeError):
                pass  # a damaged cache entry is rebuilt
    refined = DependencyGraph(server.name, graph.tools, dict(graph.labels), dict(graph.flows), digest,
                              classifier=classifier_id)
    for a in tools:
        others = [b for b in tools if b.name != a.name]
        answer = classifier(server, a, others) or {}
        for b in others:
            label = answer.get(b.name)
            if label not in LABELS:
                continue  # no answer or a bad one: the schema label stands
            key = (a.name, b.name)
            if label == NONE:
                refined.labels.pop(key, None)
                refined.flows.pop(key, None)
            else:
                refined.labels[key] = label
                if label == EXPLICIT:
                    refined.flows[key] = graph.flows.get(key) or tuple(sorted(a.produces & b.consumes))
                else:
                    refined.flows.pop(key, None)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(refined.to_dict(), sort_keys=True))
        tmp.replace(path)
    return refined
