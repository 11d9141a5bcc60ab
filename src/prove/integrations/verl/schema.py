"""Tool schemas in the form VERL's `OpenAIFunctionToolSchema` accepts.

VERL's tool config validates each tool as `{type, function: {name, description, parameters:
{type, properties: {name: {type, description, enum}}, required}}}`: a property has a `type` (a
string or a list of them), a `description` and an optional `enum`, and nothing else survives
the model (`items`, `format`, bounds, defaults and nested `properties` are dropped silently).
`flatten_tool` keeps what fits and moves the rest into the property's description, so that
the model still reads every constraint the tool's docstring and annotations gave.

No VERL import: the export writes these without VERL installed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from prove.reward.gold import json_type

__all__ = ["flatten_property", "flatten_tool"]

_JSON_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")


def _branches(spec: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    for key in ("anyOf", "oneOf"):
        if isinstance(spec.get(key), list):
            return [b for b in spec[key] if isinstance(b, Mapping)]
    return []


def _types(spec: Mapping[str, Any]) -> list[str]:
    t = spec.get("type")
    if isinstance(t, str):
        return [t]
    if isinstance(t, list):
        return [x for x in t if isinstance(x, str)]
    out: list[str] = []
    for branch in _branches(spec):
        for x in _types(branch):
            if x not in out:
                out.append(x)
    if not out and isinstance(spec.get("enum"), list):
        for v in spec["enum"]:
            if json_type(v) not in out:
                out.append(json_type(v))
    if not out and "const" in spec:
        out.append(json_type(spec["const"]))
    return out


def _short(schema: Any) -> str:
    """A compact description of a nested schema (array items, object properties)."""
    if not isinstance(schema, Mapping):
        return "any value"
    types = [t for t in _types(schema) if t != "null"]
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    if types == ["array"]:
        return f"a list of {_short(schema.get('items'))}"
    if types == ["object"] and isinstance(schema.get("properties"), Mapping):
        req = set(schema.get("required") or [])
        fields = [f"{k}{'' if k in req else '?'}: {_short(v)}" for k, v in schema["properties"].items()]
        return "an object {" + "; ".join(fields) + "}"
    return " or ".join(types) if types else "any value"


def _notes(spec: Mapping[str, Any], types: list[str]) -> list[str]:
    notes = []
    if "array" in types and "items" in spec:
        notes.append(f"a list of {_short(spec['items'])}")
    if "object" in types and isinstance(spec.get("properties"), Mapping):
        notes.append(_short({"type": "object", "properties": spec["properties"],
                             "required": spec.get("required", [])}))
    for key, text in (("format", "format {}"), ("pattern", "matching {}"), ("minimum", "at least {}"),
                      ("exclusiveMinimum", "greater than {}"), ("maximum", "at most {}"),
                      ("exclusiveMaximum", "less than {}"), ("minLength", "at least {} characters"),
                      ("maxLength", "at most {} characters"), ("minItems", "at least {} items"),
                      ("maxItems", "at most {} items"), ("multipleOf", "a multiple of {}")):
        if key in spec:
            notes.append(text.format(spec[key]))
    if "default" in spec:
        notes.append(f"default {json.dumps(spec['default'])}")
    if "const" in spec:
        notes.append(f"always {json.dumps(spec['const'])}")
    return notes


def flatten_property(spec: Any) -> dict[str, Any]:
    """One parameter as `{type, description, enum?}`, constraints moved into the description."""
    spec = spec if isinstance(spec, Mapping) else {}
    types = _types(spec) or ["string"]
    nullable = "null" in types and len(types) > 1
    types = [t for t in types if t in _JSON_TYPES and (t != "null" or not nullable)]
    enum = spec.get("enum")
    if enum is None:
        values = [v for b in _branches(spec) for v in (b.get("enum") or [])]
        enum = values or None
    notes = _notes(spec, types)
    for branch in _branches(spec):
        notes.extend(n for n in _notes(branch, _types(branch)) if n not in notes)
    if not _types(spec):
        notes.insert(0, "any JSON value")
    description = str(spec.get("description") or "").strip()
    if notes:
        description = f"{description} ({'; '.join(notes)})" if description else "; ".join(notes)
    out: dict[str, Any] = {"type": types[0] if len(types) == 1 else types, "description": description}
    if isinstance(enum, list) and enum:
        out["enum"] = list(enum)
    return out


def flatten_tool(tool: Mapping[str, Any]) -> dict[str, Any]:
    """An OpenAI function tool in the form VERL's `OpenAIFunctionToolSchema` keeps whole."""
    fn = tool.get("function", tool)
    params = fn.get("parameters") if isinstance(fn.get("parameters"), Mapping) else {}
    props = params.get("properties") if isinstance(params.get("properties"), Mapping) else {}
    required = [r for r in (params.get("required") or []) if r in props]
    return {"type": "function", "function": {
        "name": fn["name"],
        "description": str(fn.get("description") or ""),
        "parameters": {"type": "object", "properties": {k: flatten_property(v) for k, v in props.items()},
                       "required": required},
    }}
