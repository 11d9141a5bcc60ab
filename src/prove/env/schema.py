"""Turn pydantic's JSON Schema into the plain form models and trainers handle best.

Plain means: no `$ref`/`$defs` (nested models inlined), no `anyOf` with `null` for optional
values (an optional parameter is simply not required), no `title` noise, choices as `enum`.
"""

from __future__ import annotations

from typing import Any

from .errors import ToolDefinitionError

_MAX_DEPTH = 12


def plain_schema(schema: dict[str, Any], *, strip_null: bool = True) -> dict[str, Any]:
    """Return `schema` with references inlined and titles removed.

    With `strip_null` (input schemas), `anyOf [X, null]` becomes X: an optional parameter is
    simply not required. Output schemas keep their null branches, since results carry nulls.
    """
    defs = schema.get("$defs", {})
    out = _clean(schema, defs, 0, strip_null)
    out.pop("$defs", None)
    return out


def _clean(node: Any, defs: dict[str, Any], depth: int, strip_null: bool) -> Any:
    if depth > _MAX_DEPTH:
        raise ToolDefinitionError("schema nests too deeply (a recursive model cannot be a tool type)")
    if isinstance(node, list):
        return [_clean(item, defs, depth, strip_null) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name not in defs:
            raise ToolDefinitionError(f"unresolvable schema reference {node['$ref']!r}")
        merged = {**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
        return _clean(merged, defs, depth + 1, strip_null)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("title", "$defs"):
            continue
        if key == "properties":
            out[key] = {prop: _clean(sub, defs, depth + 1, strip_null) for prop, sub in value.items()}
        elif key == "anyOf" and strip_null:
            branches = [b for b in value if b != {"type": "null"}]
            if len(branches) == 1:
                for k, v in _clean(branches[0], defs, depth + 1, strip_null).items():
                    out.setdefault(k, v)
            else:
                out[key] = _clean(branches, defs, depth + 1, strip_null)
        else:
            out[key] = _clean(value, defs, depth + 1, strip_null)
    if strip_null and out.get("default", 0) is None:
        del out["default"]
    return out
