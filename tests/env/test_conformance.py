"""The registry-driven conformance suite: every tool of every registered server.

Schema and documentation checks, seeded worlds, read-only tools, rollback of failing calls,
fork isolation, snapshot round trips, and schema-derived random and malformed arguments that
must each end as a result or a structured error with a documented code.
"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prove.env import FRAMEWORK_CODES, INTERNAL_ERROR, INTERNAL_ERRORS, Session, ToolDefinitionError, registry

from prove.env.asks import problems as ask_problems

from ..strategies import arguments, entity_values

SERVERS = registry.names()


def _tools() -> list[tuple[str, str]]:
    pairs = []
    for name in SERVERS:
        try:
            pairs.extend((name, tool) for tool in registry.get(name).tools)
        except ToolDefinitionError:
            pass  # test_server_declaration reports the server that does not load
    return pairs


TOOLS = _tools()
FUZZ = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("server_name", SERVERS)
def test_server_declaration(server_name: str) -> None:
    server = registry.get(server_name)
    assert server.title and len(server.description) > 40
    assert server.visible_tools, "a server shows at least one tool"
    template = server.template(0)
    for kind in server.entities.values():
        assert kind.table in template.tables, kind
        assert kind.key in template.tables[kind.table].columns, kind
        assert kind.label is None or kind.label in template.tables[kind.table].columns, kind
    used = set().union(*(t.consumes | t.produces for t in server.tools.values()))
    assert used <= set(server.entities)


@pytest.mark.parametrize("server_name", SERVERS)
def test_worlds_are_deterministic_realistic_and_vary_by_seed(server_name: str) -> None:
    server = registry.get(server_name)
    a, b, c = server.build(5), server.build(5), server.build(6)
    assert a.digests == b.digests, "the same seed must give the same world"
    assert a.digests != c.digests, "different seeds must give different worlds"
    rows = sum(a.db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in a.tables)
    assert rows >= 100, f"a world holds hundreds of rows, this one {rows}"
    with Session([server], world=5) as s1, Session([server], world=5) as s2:
        assert s1.fingerprint() == s2.fingerprint()


def _readme_tools(readme: str) -> dict[str, set[str]]:
    """The `## Tools` table of a server README: tool name -> the error codes in its last column.

    A row reads `| `tool_name` | ... | `code_a`, `code_b` |` (an em dash or nothing for no codes).
    """
    assert "\n## Tools" in readme, "the README has a `## Tools` section"
    section = readme.split("\n## Tools", 1)[1].split("\n## ", 1)[0]
    documented: dict[str, set[str]] = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            name = cells[0].strip("`")
            assert name not in documented, f"{name} has two rows"
            documented[name] = set(re.findall(r"`([a-z_]+)`", cells[-1]))
    return documented


@pytest.mark.parametrize("server_name", SERVERS)
def test_readme_documents_every_tool_and_its_error_codes(server_name: str) -> None:
    """The README next to the server's package lists every tool (hidden ones too, marked so)
    with exactly the error codes of its `Raises:`, and no tool the server lacks."""
    server = registry.get(server_name)
    package = Path(inspect.getfile(server.build_world)).parent  # world.py sits in the server's package
    documented = _readme_tools((package / "README.md").read_text(encoding="utf-8"))
    assert not set(documented) - set(server.tools), "the README lists tools the server does not have"
    assert not set(server.tools) - set(documented), "the README does not list every tool"
    assert documented == {name: set(tool.errors) for name, tool in server.tools.items()}, \
        "the README's error codes differ from the tools' Raises:"


def _nodes(schema: object) -> list[object]:
    """Every schema object inside `schema` (property names are not schema keywords)."""
    found, stack = [], [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.append(node)
            for key, value in node.items():
                stack.extend(value.values() if key == "properties" else [value])
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _keywords(schema: object) -> set[str]:
    return {key for node in _nodes(schema) if isinstance(node, dict) for key in node}


@pytest.mark.parametrize("server_name, tool_name", TOOLS)
def test_tool_schema_and_docs(server_name: str, tool_name: str) -> None:
    tool = registry.get(server_name).tools[tool_name]
    fn = tool.openai_schema()["function"]
    json.dumps(fn)
    params = fn["parameters"]
    assert params["type"] == "object"
    assert set(params["properties"]) == {p.name for p in tool.params}
    assert set(params["required"]) == {p.name for p in tool.params if p.required}
    keywords = _keywords(params)
    assert not keywords & {"$ref", "$defs", "title"}, keywords
    assert {"type": "null"} not in _nodes(params), "optional parameters are simply not required"
    for name, prop in params["properties"].items():
        assert prop.get("description"), f"{name} has no description"
    assert len(tool.summary) > 10 and tool.summary[0].isupper()
    if not tool.hidden:
        assert len(tool.asks) >= 2, "each visible tool needs at least two asks phrasings"
        assert len(set(tool.asks)) == len(tool.asks)
    assert not set(tool.errors) & FRAMEWORK_CODES, "framework codes are not documented per tool"


@pytest.mark.parametrize("server_name, tool_name", TOOLS)
def test_phrasings_carry_their_meaning(server_name: str, tool_name: str) -> None:
    """Every phrasing says every required argument (a slot or a binding), and binds every option
    its words name, and so does every reply; every visible write tool says how its result is
    reported."""
    tool = registry.get(server_name).tools[tool_name]
    if tool.hidden:
        return
    props = tool.parameters["properties"]
    params = {p.name: (p.required, props[p.name]) for p in tool.params}
    found = [problem for ask in tool.asks for problem in ask_problems(ask, params)]
    found += [problem for reply in tool.replies for problem in ask_problems(reply, params, reply=True)]
    assert not found, "\n".join(found)
    if not tool.read_only:
        assert tool.replies, "a visible write tool needs reply= wording built from its result"


@pytest.mark.parametrize("server_name, tool_name", TOOLS)
def test_random_and_malformed_arguments(server_name: str, tool_name: str) -> None:
    """Every call ends as a result or a documented structured error; failures write nothing;
    read tools never change state."""
    server = registry.get(server_name)
    tool = server.tools[tool_name]
    session = Session([server], world=0)
    entities = entity_values(session)
    allowed = set(tool.errors) | (FRAMEWORK_CODES - {INTERNAL_ERROR})
    internal_before = INTERNAL_ERRORS.count(server_name, tool_name)

    @FUZZ
    @given(args=arguments(tool, entities))
    def check(args: object) -> None:
        before = session.fingerprint()
        result = session.call(tool_name, args)
        if result.ok:
            json.dumps(result.data)
            if tool.read_only:
                assert session.fingerprint() == before, "a read tool changed state"
        else:
            assert result.code in allowed, f"undocumented error code {result.code!r}: {result.error}"
            assert result.error["message"], "an error needs a message"
            assert session.fingerprint() == before, "a failing call changed state"

    try:
        check()
    finally:
        session.close()
    assert INTERNAL_ERRORS.count(server_name, tool_name) == internal_before


@pytest.mark.parametrize("server_name", SERVERS)
def test_fork_isolation_and_snapshot_round_trip(server_name: str) -> None:
    server = registry.get(server_name)
    writes = [t for t in server.visible_tools if not t.read_only]
    with Session([server], world=0) as session:
        entities = entity_values(session)
        kinds_of: dict[str, list] = {}
        for kind in server.entities.values():
            kinds_of.setdefault(kind.table, []).append(kind)
        start = session.fingerprint()
        snap = session.snapshot()
        child = session.fork()

        @settings(max_examples=40, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(st.data())
        def drive(data: st.DataObject) -> None:
            if data.draw(st.integers(0, 9)) == 0:  # time passing must keep state consistent too
                child.advance(data.draw(st.integers(60, 3 * 86400)))
            tool = data.draw(st.sampled_from(writes))
            before = child.fingerprint()
            result = child.call(tool.name, data.draw(arguments(tool, entities)))
            assert result.ok or child.fingerprint() == before, "a failing call changed state"
            assert result.code != "internal_error", result.error
            if result.ok:  # entities created in the episode become arguments of later calls
                for change in child.diff():
                    for kind in kinds_of.get(change.table, ()):
                        new_id = change.key.get(kind.key)
                        if change.op == "insert" and new_id is not None and new_id not in entities[kind.name]:
                            entities[kind.name].append(new_id)

        if writes:
            drive()
        assert session.fingerprint() == start, "writes on a fork leaked into its parent"
        session.restore(child.snapshot())
        assert session.fingerprint() == child.fingerprint()
        assert session.diff().to_list() == child.diff().to_list()
        session.restore(snap)
        assert session.fingerprint() == start and not session.diff()
        child.close()


# Extreme values for every numeric and string parameter: past SQLite's 64-bit integers, past the
# float range a tool can compute with, at and past the framework's size bounds.
EXTREME_INTEGERS = [0, -1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**30, -(10**30), 10**4400]
EXTREME_FLOATS = [0.0, -0.0, 5e-324, 1e16, -1e16, 1e308, -1e308, 1.7976931348623157e308]
EXTREME_STRINGS = ["", "\x00" * 64, "9" * 5000, "x" * 10_000, "x" * 10_001, "😀" * 5000, "-" * 10_000,
                   "2026-03-16T09:00:00" + "9" * 9000]


def _base_value(schema: dict, entity: str | None, entities: dict[str, list[str]], examples: list[str]) -> object:
    """One well-typed value for a parameter: an existing entity, the docstring's example, the lower bound."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "string":
        if entity and entities.get(entity):
            return entities[entity][0]
        return examples[0] if examples else "x"
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0) + (1 if "exclusiveMinimum" in schema else 0))
        return max(low, 1) if kind == "integer" else float(max(low, 1))
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    return None


def _extremes(schema: dict) -> list[object]:
    kinds = {schema.get("type")} | {b.get("type") for b in schema.get("anyOf", [])}
    items = schema.get("items", {})
    out: list[object] = []
    if "integer" in kinds:
        out += EXTREME_INTEGERS
    if "number" in kinds:
        out += EXTREME_FLOATS + EXTREME_INTEGERS[3:]
    if "string" in kinds and "enum" not in schema:
        out += EXTREME_STRINGS
    if "array" in kinds:
        out += [[v] for v in _extremes(items)] + [[_base_value(items, None, {}, [])] * 10_000]
    return out


@pytest.mark.parametrize("server_name, tool_name", TOOLS)
def test_extreme_values_of_every_parameter(server_name: str, tool_name: str) -> None:
    """Huge integers, floats and sizes in each numeric or string parameter end as a result or a
    documented error, never an internal error, and a failing call writes nothing."""
    server = registry.get(server_name)
    tool = server.tools[tool_name]
    allowed = set(tool.errors) | (FRAMEWORK_CODES - {INTERNAL_ERROR})
    with Session([server], world=0) as session:
        entities = entity_values(session)
        props = tool.parameters["properties"]
        base = {p.name: _base_value(props[p.name], p.entity, entities, re.findall(r"'([^']{1,60})'", p.description))
                for p in tool.params if p.required}
        for param in tool.params:
            for value in _extremes(props[param.name]):
                before = session.fingerprint()
                result = session.call(tool_name, {**base, param.name: value})
                shown = repr(value)[:40] if not isinstance(value, int) or value.bit_length() < 200 else "huge int"
                assert result.ok or result.code in allowed, (param.name, shown, result.error)
                assert result.ok or session.fingerprint() == before, (param.name, shown, "a failing call wrote")
