"""Hypothesis strategies that derive tool arguments from a tool's JSON schema.

`arguments(tool, entities)` draws well-typed arguments (entity parameters mostly from IDs that
exist in the world, strings from the docstring's examples) mixed with malformed ones: wrong
types, missing and extra keys, huge and hostile strings, NaN, negative numbers, non-objects.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import strategies as st

from prove.env import Session, Tool
from prove.env.world import clock_params

HOSTILE = [
    "'; DROP TABLE accounts; --", "\" OR 1=1 --", "../../../../etc/passwd", "/etc/shadow", "..\\..\\boot.ini",
    "C:\\Windows\\System32", "file:///etc/passwd", "a\x00b", "\x00", "%s%s%n", "{{7*7}}", "${jndi:x}",
    "<script>alert(1)</script>", "ᚠᛇᚻ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀", "", " ", "null", "NaN", "-1", "1e309",
    "2026-13-45T25:61:00", "9999-12-31T23:59:59", "0000-00-00", "x" * 5000,
]
_EXAMPLE = re.compile(r"'([^']{1,60})'")


def entity_values(session: Session, limit: int = 60) -> dict[str, list[str]]:
    """IDs of each entity kind that exist in the session's initial world.

    Live rows come first, and the sample is spread over the whole key range (every k-th row),
    so that the user's own entities, often created last, are reached too.
    """
    out: dict[str, list[str]] = {}
    for name in session.servers:
        rt = next(r for r in session._runtimes if r.server.name == name)
        for kind in rt.server.entities.values():
            live = kind.live or "1"
            rows = [r[0] for r in rt.template.db.execute(
                f'SELECT "{kind.key}" FROM "{kind.table}" ORDER BY ({live}) DESC, "{kind.key}"',
                clock_params(session.now))]
            step = max(1, len(rows) // limit)
            out[kind.name] = rows[::step][:limit]
    return out


def _value(schema: dict[str, Any], entity: str | None, entities: dict[str, list[str]],
           examples: list[str], depth: int = 0) -> st.SearchStrategy[Any]:
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([_value(b, entity, entities, examples, depth + 1) for b in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "string":
        options = [st.text(max_size=12), st.sampled_from(HOSTILE[:-1])]
        if examples:
            options.append(st.sampled_from(examples))
        if entity and entities.get(entity):
            options = [st.sampled_from(entities[entity])] * 3 + options
        return st.one_of(options)
    if kind == "integer":
        lo = schema.get("minimum", schema.get("exclusiveMinimum", -10))
        hi = schema.get("maximum", schema.get("exclusiveMaximum", 10_000))
        return st.integers(min_value=int(lo), max_value=int(hi))
    if kind == "number":
        lo = schema.get("minimum", schema.get("exclusiveMinimum", -1e6))
        hi = schema.get("maximum", schema.get("exclusiveMaximum", 1e6))
        usual = [v for v in (0.01, 1.0, 5.0, 25.0, 100.0) if lo <= v <= hi]
        return st.one_of(st.floats(min_value=float(lo), max_value=float(hi), allow_nan=False,
                                   exclude_min="exclusiveMinimum" in schema,
                                   exclude_max="exclusiveMaximum" in schema),
                         st.sampled_from(usual or [float(hi)]))
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        if depth > 3:
            return st.just([])
        return st.lists(_value(schema.get("items", {}), entity, entities, examples, depth + 1), max_size=4)
    if kind == "object" and "properties" in schema and depth <= 3:
        return _object(schema, entities, {}, {}, depth + 1)
    return st.one_of(st.none(), st.integers(), st.text(max_size=5))


def _object(schema: dict[str, Any], entities: dict[str, list[str]], entity_of: dict[str, str | None],
            examples: dict[str, list[str]], depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    strategies = {name: _value(sub, entity_of.get(name), entities, examples.get(name, []), depth)
                  for name, sub in props.items()}
    req = {n: s for n, s in strategies.items() if n in required}
    opt = {n: s for n, s in strategies.items() if n not in required}
    return st.fixed_dictionaries(req, optional=opt)


def well_typed(tool: Tool, entities: dict[str, list[str]]) -> st.SearchStrategy[dict[str, Any]]:
    entity_of = {p.name: p.entity for p in tool.params}
    examples = {p.name: _EXAMPLE.findall(p.description) for p in tool.params}
    return _object(tool.parameters, entities, entity_of, examples)


@st.composite
def malformed(draw: st.DrawFn, tool: Tool, entities: dict[str, list[str]]) -> Any:
    args = dict(draw(well_typed(tool, entities)))
    names = [p.name for p in tool.params]
    how = draw(st.sampled_from(["drop", "extra", "wrong_type", "huge", "nan", "negative", "hostile", "not_object"]))
    if how == "drop" and args:
        args.pop(draw(st.sampled_from(sorted(args))))
    elif how == "extra":
        args[draw(st.sampled_from(["__proto__", "extra", "id; DROP TABLE x", "ctx"]))] = draw(st.integers())
    elif how == "not_object":
        return draw(st.sampled_from([[], [1, 2], "not json {", "null", 42, "[]", None]))
    elif names:
        target = draw(st.sampled_from(names))
        args[target] = {
            "wrong_type": draw(st.sampled_from([{"nested": True}, [1], 3.5, True, None, "text"])),
            "huge": "y" * 20_000,
            "nan": float("nan"),
            "negative": draw(st.sampled_from([-1, -0.01, -10**12])),
            "hostile": draw(st.sampled_from(HOSTILE)),
        }.get(how, args.get(target))
    return args


def arguments(tool: Tool, entities: dict[str, list[str]]) -> st.SearchStrategy[Any]:
    return st.one_of(well_typed(tool, entities), well_typed(tool, entities), malformed(tool, entities))
