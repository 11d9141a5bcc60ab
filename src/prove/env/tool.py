"""A tool: a typed, documented Python function whose signature and docstring are its schema."""

from __future__ import annotations

import functools
import inspect
import re
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, get_args, get_origin

import docstring_parser
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model
from pydantic_core import PydanticUndefined

from .annotations import Effect, Entity, Sensitive
from .asks import Ask, as_ask
from .errors import ToolDefinitionError
from .schema import plain_schema

# Bounds that protect every tool from oversized or non-finite input; a tool may tighten them.
MAX_STRING_LENGTH = 10_000
_ARGS_CONFIG = ConfigDict(extra="forbid", str_max_length=MAX_STRING_LENGTH, allow_inf_nan=False)
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
_CODE = re.compile(r"^[a-z][a-z0-9_]*$")
_SLOT = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a tool, as the framework sees it."""

    name: str
    annotation: Any
    description: str
    required: bool
    entity: str | None
    sensitive: bool
    where: str | None = None  # the entity's SQL condition for this parameter (a light, not any device)


@dataclass(eq=False)
class Tool:
    """A registered tool. Built by `Server.tool`; never constructed by hand."""

    name: str
    server: str
    fn: Callable[..., Any]
    effect: Effect
    summary: str
    description: str
    params: tuple[Param, ...]
    parameters: dict[str, Any]
    output_schema: dict[str, Any] | None
    errors: dict[str, str]
    asks: tuple[Ask, ...]
    hidden: bool
    produces: frozenset[str]
    args_model: type[BaseModel]
    result_adapter: TypeAdapter[Any]
    replies: tuple[Ask, ...] = ()
    values: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    needs: tuple[str, ...] = ()
    # In a combined view of several servers (`prove.env.combined`): the entity kinds this copy
    # calls by another name there, {kind in the tool's own annotations: name in the view}.
    renamed: dict[str, str] = field(default_factory=dict)

    @property
    def read_only(self) -> bool:
        return self.effect is Effect.READ

    @functools.cached_property
    def defaults(self) -> dict[str, Any]:
        """Each optional parameter's default, None included: what a call that leaves it out means."""
        return {name: info.default for name, info in self.args_model.model_fields.items()
                if info.default is not PydanticUndefined}

    @property
    def consumes(self) -> frozenset[str]:
        """Entity kinds this tool takes as arguments."""
        return frozenset(p.entity for p in self.params if p.entity)

    @property
    def sensitive_params(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params if p.sensitive)

    def openai_schema(self, name: str | None = None) -> dict[str, Any]:
        """The tool in OpenAI function-tool form, as a model is shown it."""
        return {
            "type": "function",
            "function": {
                "name": name or self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


def build_tool(
    fn: Callable[..., Any],
    *,
    server: str,
    effect: Effect,
    asks: Sequence[str | Ask],
    hidden: bool,
    name: str | None,
    entity_kinds: Sequence[str],
    replies: Sequence[str | Ask] = (),
    values: dict[str, Sequence[Any]] | None = None,
    needs: Sequence[str] = (),
) -> Tool:
    """Build a `Tool` from a function, failing loudly on anything undocumented or untyped."""
    tool_name = name or fn.__name__
    where = f"{server}.{tool_name}"
    if not _NAME.match(tool_name):
        raise ToolDefinitionError(f"{where}: tool names are lower_snake_case, at most 64 characters")
    if not isinstance(effect, Effect):
        raise ToolDefinitionError(f"{where}: effect must be READ or WRITE, got {effect!r}")
    try:
        doc = docstring_parser.parse(inspect.getdoc(fn) or "", docstring_parser.DocstringStyle.GOOGLE)
    except docstring_parser.ParseError as exc:
        raise ToolDefinitionError(f"{where}: the docstring is not Google style (Args:/Returns:/Raises:): {exc}") from exc
    if not doc.short_description:
        raise ToolDefinitionError(f"{where}: a tool needs a docstring; it is the model's prompt")
    documented = {p.arg_name: _oneline(p.description) for p in doc.params}
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as exc:  # a bad annotation is a definition error, whatever it raised
        raise ToolDefinitionError(f"{where}: cannot resolve type hints: {exc}") from exc

    signature = inspect.signature(fn)
    names = list(signature.parameters)
    if not names or names[0] != "ctx":
        raise ToolDefinitionError(f"{where}: the first parameter must be `ctx`")
    params: list[Param] = []
    fields: dict[str, Any] = {}
    for pname in names[1:]:
        sp = signature.parameters[pname]
        if sp.kind not in (sp.POSITIONAL_OR_KEYWORD, sp.KEYWORD_ONLY):
            raise ToolDefinitionError(f"{where}: parameter {pname!r} must be a plain named parameter")
        if pname not in hints:
            raise ToolDefinitionError(f"{where}: parameter {pname!r} has no type annotation")
        if not documented.get(pname):
            raise ToolDefinitionError(f"{where}: parameter {pname!r} is not documented under Args:")
        annotation = hints[pname]
        entities, sensitive = _markers(annotation)
        if len(entities) > 1:
            raise ToolDefinitionError(f"{where}: parameter {pname!r} names several entity kinds")
        marker = next(iter(entities), None)
        entity = marker.kind if marker else None
        if entity is not None and entity not in entity_kinds:
            raise ToolDefinitionError(f"{where}: parameter {pname!r} refers to undeclared entity kind {entity!r}")
        required = sp.default is inspect.Parameter.empty
        default = ... if required else sp.default
        fields[pname] = (annotation, Field(default, description=documented[pname]))
        params.append(Param(pname, annotation, documented[pname], required, entity, sensitive,
                            marker.where if marker else None))
    stray = set(documented) - set(names[1:])
    if stray:
        raise ToolDefinitionError(f"{where}: Args: documents parameters it does not have: {sorted(stray)}")

    if "return" not in hints:
        raise ToolDefinitionError(f"{where}: the return type must be annotated")
    returns = hints["return"]
    if returns is type(None):
        raise ToolDefinitionError(f"{where}: a tool must return something the model can read")
    errors: dict[str, str] = {}
    for raised in doc.raises:
        code = (raised.type_name or "").strip()
        if not _CODE.match(code):
            raise ToolDefinitionError(f"{where}: Raises: entries are `error_code: when`, got {code!r}")
        errors[code] = _oneline(raised.description)

    phrasings = tuple(as_ask(a) for a in asks)
    for ask in phrasings:
        _check_ask(where, ask, fields)
    kept_values = _check_values(where, values or {}, fields)

    args_model = create_model(f"{tool_name}_arguments", __config__=_ARGS_CONFIG, **fields)
    try:
        parameters = plain_schema(args_model.model_json_schema())
    except ToolDefinitionError as exc:
        raise ToolDefinitionError(f"{where}: {exc}") from exc
    _drop_default_bounds(parameters)
    parameters.setdefault("properties", {})
    parameters.setdefault("required", [])
    parameters.pop("additionalProperties", None)

    output_schema = None
    if isinstance(returns, type) and issubclass(returns, BaseModel):
        output_schema = plain_schema(_result_json_schema(returns), strip_null=False)
    produced = _produced_entities(returns)
    undeclared = produced - set(entity_kinds)
    if undeclared:
        raise ToolDefinitionError(f"{where}: return type refers to undeclared entity kinds {sorted(undeclared)}")

    summary, long = _oneline(doc.short_description), (doc.long_description or "").strip()
    if long and not doc.blank_after_short_description:  # a summary wrapped over several lines
        first, _, long = long.partition("\n\n")
        summary = _oneline(f"{summary} {first}")
    return Tool(
        name=tool_name,
        server=server,
        fn=fn,
        effect=effect,
        summary=summary,
        description=_description(summary, long, doc, errors),
        params=tuple(params),
        parameters=parameters,
        output_schema=output_schema,
        errors=errors,
        asks=phrasings,
        hidden=hidden,
        produces=frozenset(produced),
        args_model=args_model,
        result_adapter=TypeAdapter(returns),
        replies=_check_replies(where, replies, fields, returns),
        values=kept_values,
        needs=tuple(needs),
    )


@functools.cache
def _result_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A result model's JSON schema, made once: tools share result models (13 return a `Device`), and
    `plain_schema` copies what it keeps, so the one schema is never changed."""
    return model.model_json_schema(mode="serialization")


def _check_ask(where: str, ask: Ask, fields: dict[str, Any]) -> None:
    for slot in ask.slots:
        if slot not in fields:
            raise ToolDefinitionError(f"{where}: asks phrase {ask.text!r} uses unknown slot {{{slot}}}")
    for slot in ask.fits:
        if slot not in ask.slots:
            raise ToolDefinitionError(f"{where}: asks phrase {ask.text!r} fits {slot!r}, which it does not slot")
    _check_binds(f"{where}: asks phrase {ask.text!r}", ask, fields)


def _check_binds(what: str, ask: Ask, fields: dict[str, Any], returns: Any = None) -> None:
    """A phrasing's or a reply's bindings name parameters, take values they accept, and no slot;
    a reply's may also name a result field (`returns` given): "result.refund_amount"."""
    for name, value in ask.binds.items():
        if returns is not None and name.startswith("result."):
            if not _has_path(returns, name[len("result."):].split(".")):
                raise ToolDefinitionError(f"{what} binds {name!r}, which the result lacks")
            continue
        if name not in fields:
            raise ToolDefinitionError(f"{what} binds unknown parameter {name!r}")
        if name in ask.slots:
            raise ToolDefinitionError(f"{what} both slots and binds {name!r}")
        try:
            TypeAdapter(fields[name][0]).validate_python(value, strict=True)
        except ValueError as exc:
            raise ToolDefinitionError(f"{what} binds {name}={value!r}, which the parameter does not accept: "
                                      f"{exc}") from None


def _check_values(where: str, values: dict[str, Sequence[Any]], fields: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """Candidate values per parameter; a key naming several parameters ("rating, comment") holds
    tuples of values that belong together (a 5-star rating with a happy comment)."""
    kept = {}
    for key, candidates in values.items():
        names = [n.strip() for n in key.split(",")]
        for name in names:
            if name not in fields:
                raise ToolDefinitionError(f"{where}: values given for unknown parameter {name!r}")
        if isinstance(candidates, (str, bytes)) or not candidates:
            raise ToolDefinitionError(f"{where}: values[{key!r}] is a non-empty list of candidate values")
        adapters = [TypeAdapter(fields[name][0]) for name in names]
        for candidate in candidates:
            parts = candidate if len(names) > 1 else (candidate,)
            if len(names) > 1 and (not isinstance(candidate, (tuple, list)) or len(candidate) != len(names)):
                raise ToolDefinitionError(f"{where}: values[{key!r}] holds {candidate!r}; each is a tuple of "
                                          f"{len(names)} values")
            for name, adapter, value in zip(names, adapters, parts):
                try:
                    # A date or a time is given as it travels in a call: an ISO string.
                    adapter.validate_python(value, strict=not (isinstance(value, str) and _ISO.match(value)))
                except ValueError as exc:
                    raise ToolDefinitionError(f"{where}: values[{key!r}] holds {value!r} for {name!r}, which the "
                                              f"parameter does not accept: {exc}") from None
        kept[", ".join(names) if len(names) > 1 else names[0]] = tuple(
            tuple(c) if len(names) > 1 else c for c in candidates)
    return kept


_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?$|^\d{2}:\d{2}(?::\d{2})?$")


def _check_replies(where: str, replies: Sequence[str | Ask] | str | Ask, fields: dict[str, Any],
                   returns: Any) -> tuple[Ask, ...]:
    """Reply templates: `{param}` slots name arguments, `{result.a.b}` name fields of the result.

    A reply given as an `Ask` fits only calls whose arguments hold its bindings ("Unassigned
    {issue_id}." for `assignee_id=None`), and results whose fields hold its `result.` bindings
    ("Nothing comes back ..." for `**{"result.refund_amount": 0}`); a plain string fits every call.
    """
    if isinstance(replies, (str, Ask)):
        replies = (replies,)
    kept = tuple(as_ask(reply) for reply in replies)
    for reply in kept:
        for slot in reply.slots:
            head, _, path = slot.partition(".")
            if head == "result":
                if not _has_path(returns, path.split(".") if path else []):
                    raise ToolDefinitionError(f"{where}: reply {reply.text!r} names {slot!r}, which the result lacks")
            elif slot not in fields:
                raise ToolDefinitionError(f"{where}: reply {reply.text!r} uses unknown slot {{{slot}}}")
        _check_binds(f"{where}: reply {reply.text!r}", reply, fields, returns)
    return kept


def _has_path(annotation: Any, path: list[str]) -> bool:
    """Whether a field path exists in a return type (through models, optional values and lists)."""
    if not path:
        return True
    stack = [annotation]
    while stack:
        current = stack.pop()
        if isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(path[0])
            if info is None:
                continue
            return _has_path(info.annotation, path[1:])
        stack.extend(a for a in get_args(current) if a is not Ellipsis)
    return False


def _oneline(text: str | None) -> str:
    """A docstring entry wrapped over several lines, as one line."""
    return " ".join((text or "").split())


def _drop_default_bounds(node: Any) -> None:
    """Remove the framework-wide string bound from the schema: it is a guard, not prompt material."""
    if isinstance(node, dict):
        if node.get("maxLength") == MAX_STRING_LENGTH:
            del node["maxLength"]
        for value in node.values():
            _drop_default_bounds(value)
    elif isinstance(node, list):
        for value in node:
            _drop_default_bounds(value)


def _description(summary: str, long: str, doc: docstring_parser.Docstring, errors: dict[str, str]) -> str:
    parts = [summary]
    if long:
        parts.append(long)
    if doc.returns and doc.returns.description:
        parts.append("Returns: " + _oneline(doc.returns.description))
    if errors:
        parts.append("Errors:\n" + "\n".join(f"- {code}: {why}" for code, why in errors.items()))
    return "\n\n".join(parts)


def _markers(annotation: Any) -> tuple[set[Entity], bool]:
    """Entity markers and sensitivity found anywhere inside an annotation."""
    entities: set[Entity] = set()
    sensitive = False
    stack = [annotation]
    while stack:
        current = stack.pop()
        if get_origin(current) is typing.Annotated:
            base, *meta = get_args(current)
            for item in meta:
                if isinstance(item, Entity):
                    entities.add(item)
                elif isinstance(item, Sensitive):
                    sensitive = True
            stack.append(base)
        else:
            stack.extend(a for a in get_args(current) if a is not Ellipsis)
    return entities, sensitive


def _produced_entities(annotation: Any, seen: set[type] | None = None) -> set[str]:
    """Entity kinds carried by a return type, including fields of nested models."""
    seen = set() if seen is None else seen
    found = {marker.kind for marker in _markers(annotation)[0]}
    stack = [annotation]
    while stack:
        current = stack.pop()
        if isinstance(current, type) and issubclass(current, BaseModel):
            if current in seen:
                continue
            seen.add(current)
            for info in current.model_fields.values():
                hint = info.annotation
                if info.metadata:
                    hint = typing.Annotated[(hint, *info.metadata)]
                found |= _produced_entities(hint, seen)
        else:
            stack.extend(a for a in get_args(current) if a is not Ellipsis)
    return found
