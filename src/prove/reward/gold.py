"""The ground truth of an example, prepared once for fast scoring: plain tuples, no pydantic.

`prepare(example, config)` reads an `Example` (or the same shape as a plain dict, as trainers'
adapters get it) and returns a `Gold`: the gold calls in episode order with their turns,
dependency edges as indices, the argument values already normalised, the tool specs that the
validity check needs, and the name sets for precision.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..env import registry
from .config import RewardConfig, Values

__all__ = ["Gold", "GoldStep", "ToolSpec", "canon", "checker", "prepare", "same", "spec_from_schema", "type_ok"]

_NUMERIC = re.compile(r"^-?\d+(?:\.\d+)?$")


def _is_int(v: Any) -> bool:
    return (type(v) is int) or (type(v) is float and v.is_integer())


_TYPE_CHECKS = {
    "string": lambda v: type(v) is str,
    "integer": _is_int,
    "number": lambda v: type(v) in (int, float),
    "boolean": lambda v: type(v) is bool,
    "array": lambda v: type(v) in (list, tuple),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def _types(schema: Any) -> tuple[str, ...]:
    """The JSON types a schema allows; () for any."""
    if not isinstance(schema, Mapping):
        return ()
    t = schema.get("type")
    if isinstance(t, str):
        return (t,)
    if isinstance(t, list):
        return tuple(x for x in t if isinstance(x, str))
    branches = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list):
        out: list[str] = []
        for b in branches:
            sub = _types(b)
            if not sub:
                return ()
            out.extend(sub)
        return tuple(out)
    return ()


def type_ok(value: Any, types: tuple[str, ...]) -> bool:
    """Whether a value has one of the JSON types (any value when `types` is empty)."""
    if not types:
        return True
    for t in types:
        check = _TYPE_CHECKS.get(t)
        if check is None or check(value):
            return True
    return False


def checker(types: tuple[str, ...]) -> Callable[[Any], bool] | None:
    """One function that tells whether a value has one of the JSON types (None: any value)."""
    if not types or any(t not in _TYPE_CHECKS for t in types):
        return None
    if len(types) == 1:
        return _TYPE_CHECKS[types[0]]
    checks = tuple(_TYPE_CHECKS[t] for t in types)
    return lambda v: any(c(v) for c in checks)


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """What validity and the audit need of one offered tool.

    `required` lists the required parameters with their JSON types; `checks` the same with one
    type-check function each (None: any value), for the hot path.
    """

    name: str
    required: tuple[tuple[str, tuple[str, ...]], ...]
    properties: Mapping[str, Any]
    fold: frozenset[str]
    defaults: Mapping[str, Any]
    checks: tuple[tuple[str, Callable[[Any], bool] | None], ...] = ()
    read: bool | None = None  # the tool only reads (None: unknown, counted as a write)

    def __post_init__(self) -> None:
        if not self.checks and self.required:
            object.__setattr__(self, "checks", tuple((k, checker(t)) for k, t in self.required))


def spec_from_schema(tool: Mapping[str, Any]) -> ToolSpec | None:
    """A `ToolSpec` from an OpenAI function tool (or its bare `function` object)."""
    fn = tool.get("function", tool) if isinstance(tool, Mapping) else None
    if not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str):
        return None
    params = fn.get("parameters") if isinstance(fn.get("parameters"), Mapping) else {}
    props = params.get("properties") if isinstance(params.get("properties"), Mapping) else {}
    required = params.get("required") if isinstance(params.get("required"), list) else []
    fold = set()
    defaults = {}
    for key, sub in props.items():
        if not isinstance(sub, Mapping):
            continue
        items = sub.get("items")
        if "enum" in sub or (isinstance(items, Mapping) and "enum" in items):
            fold.add(key)
        if "default" in sub:
            defaults[key] = sub["default"]
    return ToolSpec(fn["name"], tuple((k, _types(props.get(k))) for k in required if isinstance(k, str)),
                    props, frozenset(fold), defaults, read=_read_hint(tool, fn))


def _read_hint(tool: Mapping[str, Any], fn: Mapping[str, Any]) -> bool | None:
    """MCP's `readOnlyHint`, where a schema carries its annotations (on the tool or its function)."""
    for holder in (fn, tool):
        notes = holder.get("annotations")
        if isinstance(notes, Mapping) and isinstance(notes.get("readOnlyHint"), bool):
            return notes["readOnlyHint"]
    return None


# ----- values ------------------------------------------------------------------------------------

def canon(value: Any, fold: bool, opts: Values) -> Any:
    """A value in the form values are compared in (numbers as floats, strings trimmed, ...)."""
    t = type(value)
    if t is str:
        if opts.strip:
            value = value.strip()
        if fold or opts.casefold == "all":
            value = value.casefold()
        if opts.numeric_strings and _NUMERIC.match(value):
            return float(value)
        return value
    if t is bool or value is None:
        return value
    if t is int or t is float:
        return float(value) if opts.numbers else value
    if t is list or t is tuple:
        return [canon(v, fold, opts) for v in value]
    if isinstance(value, dict):
        return {k: canon(v, fold, opts) for k, v in value.items()}
    return value


def _equal(a: Any, b: Any, tol: float) -> bool:
    ta, tb = type(a), type(b)
    if ta is float and tb is float:
        return a == b or abs(a - b) <= tol * max(1.0, abs(a), abs(b))
    if ta is not tb:
        return False
    if ta is list:
        return len(a) == len(b) and all(_equal(x, y, tol) for x, y in zip(a, b))
    if ta is dict:
        return a.keys() == b.keys() and all(_equal(a[k], b[k], tol) for k in a)
    return a == b


def same(gold_canon: Any, value: Any, fold: bool, opts: Values) -> bool:
    """Whether a model's value equals a gold value already in canonical form."""
    t = type(value)
    if t is type(gold_canon) and (t is str or t is float) and value == gold_canon:
        return True
    return _equal(gold_canon, canon(value, fold, opts), opts.tolerance)


# ----- gold --------------------------------------------------------------------------------------

@dataclass(slots=True)
class GoldStep:
    """One gold call, ready for matching.

    `keys` are the argument keys a model call must contain to match; `values` holds, per gold
    argument, (key, canonical value, case-insensitive, may be omitted).
    """

    id: str
    name: str
    arguments: dict[str, Any]
    turn: int
    deps: tuple[int, ...]
    keys: tuple[str, ...]
    values: tuple[tuple[str, Any, bool, bool], ...]


@dataclass(slots=True)
class Gold:
    """An example's ground truth, prepared for one `RewardConfig`.

    `names_upto[t]` holds the gold names of turns 0..t: what a call made in turn t may use.
    """

    id: str
    calls: tuple[GoldStep, ...]
    specs: dict[str, ToolSpec]
    names: frozenset[str]
    names_upto: tuple[frozenset[str], ...]
    budget: int
    servers: tuple[str, ...] = ()
    world: int = 0
    kind: str = "multi_turn"
    fingerprint: str | None = None
    edges: tuple[tuple[int, int], ...] = field(default=())
    prefix: tuple[tuple[str, dict[str, Any], int], ...] = field(default=())
    counts: Mapping[str, int] = field(default_factory=dict)
    advance: tuple[int, ...] = field(default=())
    first: int = 0
    last: int = -1
    missing: tuple[str, ...] = field(default=())

    @property
    def executable(self) -> bool:
        """Whether the example's servers are all installed here (so its calls can be run)."""
        return bool(self.servers) and not self.missing

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """Identifies the gold calls (an example scored whole, or one of its turns)."""
        return (self.id, tuple(s.id for s in self.calls))


def _dump(example: Any) -> Mapping[str, Any]:
    if isinstance(example, Mapping):
        return example
    dump = getattr(example, "model_dump", None)
    if dump is None:
        raise TypeError(f"cannot read an example from {type(example).__name__}")
    return dump(mode="json", exclude_none=True, exclude={"messages"})  # the reward never reads them


def prepare(example: Any, config: RewardConfig | None = None, *, turn: int | None = None,
            specs: dict[str, ToolSpec] | None = None) -> Gold:
    """Prepare an example's ground truth for scoring.

    Args:
        example: an `Example`, or a dict of the same shape (only `turns` is required; gold
            calls may leave out `id` and `after`).
        config: the reward settings (value normalisation and defaults depend on it).
        turn: score only this user turn (a trainer's prompt that ends before it); its
            dependencies on earlier turns are taken as done.
        specs: tool specs to use when the example lists no `tools`; without either, the
            visible tools of the example's servers when they are registered, else what the
            gold calls themselves show (their names, keys and value types).
    """
    config = config or RewardConfig()
    ex = _dump(example)
    turns = ex.get("turns") or []
    tools = ex.get("tools") or []
    if specs is None or tools:
        specs = {}
        for tool in tools:
            spec = spec_from_schema(tool)
            if spec is not None:
                specs[spec.name] = spec
    chosen = range(len(turns)) if turn is None else ([turn] if 0 <= turn < len(turns) else [])
    raw: list[tuple[int, Mapping[str, Any]]] = []
    for t in chosen:
        calls = turns[t].get("calls") if isinstance(turns[t], Mapping) else None
        for call in calls or []:
            raw.append((t, call))
    prefix = []
    if turn is not None:
        for t in range(min(max(turn, 0), len(turns))):
            for call in (turns[t].get("calls") if isinstance(turns[t], Mapping) else None) or []:
                args = {k: v for k, v in (call.get("arguments") or {}).items() if v is not None}
                prefix.append((str(call.get("name")), args, t))
    servers = tuple(ex.get("servers") or ())
    missing = tuple(s for s in servers if s not in registry)
    if not specs:
        specs = (_specs_from_servers(servers, int(ex.get("world") or 0)) if not missing else {}) or \
            _specs_from_gold([c for _, c in raw])
    if servers and not missing:
        effects = _effects(servers)
        specs = {name: (replace(spec, read=effects[name]) if spec.read is None and name in effects else spec)
                 for name, spec in specs.items()}
    opts = config.values
    index: dict[str, int] = {}
    steps: list[GoldStep] = []
    edges: list[tuple[int, int]] = []
    names_by_turn: dict[int, set[str]] = {}
    for i, (t, call) in enumerate(raw):
        cid = str(call.get("id", f"c{i + 1}"))
        name = str(call.get("name"))
        # A None value is the same as leaving the key out (and is what Arrow-backed datasets
        # put in for keys that other rows' calls have).
        args = {k: v for k, v in (call.get("arguments") or {}).items() if v is not None}
        deps = tuple(index[d] for d in call.get("after") or [] if d in index)
        edges.extend((d, i) for d in deps)
        spec = specs.get(name)
        fold = spec.fold if spec else frozenset()
        defaults = spec.defaults if spec and config.omitted_defaults else {}
        values = []
        keys = []
        for k, v in args.items():
            f = k in fold and opts.casefold == "enums"
            omittable = k in defaults and _default_equal(defaults[k], v, opts)
            values.append((k, canon(v, f, opts), f, omittable))
            if not omittable:
                keys.append(k)
        steps.append(GoldStep(cid, name, args, t, deps, tuple(keys), tuple(values)))
        index[cid] = i
        names_by_turn.setdefault(t, set()).add(name)
    upto: list[frozenset[str]] = []
    acc: set[str] = set()
    for t in range(len(turns)):
        acc |= names_by_turn.get(t, set())
        upto.append(frozenset(acc))
    n = len(steps)
    counts: dict[str, int] = {}
    for step in steps:
        counts[step.name] = counts.get(step.name, 0) + 1
    return Gold(
        id=str(ex.get("id", "")),
        calls=tuple(steps),
        specs=specs,
        names=frozenset(s.name for s in steps),
        names_upto=tuple(upto),
        budget=n + math.ceil(n * config.beta),
        servers=servers,
        world=int(ex.get("world") or 0),
        kind=str(ex.get("kind") or "multi_turn"),
        fingerprint=ex.get("fingerprint"),
        edges=tuple(edges),
        prefix=tuple(prefix),
        counts=counts,
        advance=tuple(int(t.get("advance") or 0) if isinstance(t, Mapping) else 0 for t in turns),
        first=0 if turn is None else max(turn, 0),
        last=len(turns) - 1 if turn is None else turn,
        missing=missing,
    )


def _default_equal(default: Any, value: Any, opts: Values) -> bool:
    return _equal(canon(default, False, opts), canon(value, False, opts), opts.tolerance)


def json_type(v: Any) -> str:
    """The JSON Schema type name of a decoded JSON value."""
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return "null"


def _specs_from_servers(servers: Any, world: int) -> dict[str, ToolSpec]:
    """Specs of every visible tool of the servers, under the names an episode routes them by."""
    if not servers:
        return {}
    from ..env import ProveError, Session

    try:
        with Session(list(servers), world=world) as session:
            schemas = session.tool_schemas()
    except (ProveError, ValueError):
        return {}
    return {spec.name: spec for spec in map(spec_from_schema, schemas) if spec is not None}


@functools.lru_cache(maxsize=256)
def _effects(servers: tuple[str, ...]) -> dict[str, bool]:
    """Whether each visible tool of the servers only reads, under the names an episode routes them by."""
    from ..env import ProveError, Session

    try:
        with Session(list(servers)) as session:
            return {name: tool.read_only for name, tool in session.tools().items()}
    except (ProveError, ValueError):
        return {}


def _specs_from_gold(calls: list[Mapping[str, Any]]) -> dict[str, ToolSpec]:
    """Specs when no tool schemas are known: the gold's names, the keys every gold call of a
    name uses as required, and the gold values' JSON types."""
    keys: dict[str, set[str]] = {}
    types: dict[tuple[str, str], set[str]] = {}
    for call in calls:
        name = str(call.get("name"))
        args = {k: v for k, v in (call.get("arguments") or {}).items() if v is not None}
        keys[name] = set(args) if name not in keys else keys[name] & set(args)
        for k, v in args.items():
            types.setdefault((name, k), set()).add(json_type(v))
    return {name: ToolSpec(name, tuple((k, tuple(sorted(types[(name, k)]))) for k in sorted(ks)), {},
                           frozenset(), {})
            for name, ks in keys.items()}
