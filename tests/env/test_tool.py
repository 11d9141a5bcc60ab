"""Tools are built from signatures and docstrings, and fail at import when under-specified."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import BaseModel

from prove.env import READ, WRITE, Ctx, Entity, EntityKind, Sensitive, Server, ToolDefinitionError


def _server() -> Server:
    return Server("t", "T", "test", schema="CREATE TABLE a (id TEXT PRIMARY KEY);", world=None,
                  entities=[EntityKind("thing", "a", "id")])


def test_schema_is_plain_json_schema(toy: Server) -> None:
    params = toy.tools["move"].parameters
    assert params["type"] == "object"
    assert params["required"] == ["src", "dst", "amount", "pin"]
    note = params["properties"]["note"]
    assert note == {"type": "string", "description": "optional note."}  # no anyOf/null, no title
    assert params["properties"]["amount"]["exclusiveMinimum"] == 0
    order = toy.tools["list_wallets"].parameters["properties"]["order"]
    assert order["enum"] == ["owner", "balance"] and order["default"] == "owner"
    assert "$defs" not in str(params) and "title" not in params


class Window(BaseModel):
    start: str
    end: str | None = None


def test_nested_models_are_inlined() -> None:
    server = _server()

    @server.tool(effect=READ, asks=["Check {window}."])
    def check(ctx: Ctx, window: Window, tags: list[Literal["a", "b"]] | None = None) -> dict:
        """Check a window.

        Args:
            window: the window, such as {"start": "09:00"}.
            tags: optional tags.
        """
        return {}

    schema = server.tools["check"].parameters
    assert "$ref" not in str(schema)
    window = schema["properties"]["window"]
    assert window["type"] == "object" and window["required"] == ["start"]
    assert schema["properties"]["tags"]["items"]["enum"] == ["a", "b"]


def test_metadata_entities_sensitivity_errors(toy: Server) -> None:
    move = toy.tools["move"]
    assert move.effect is WRITE and not move.read_only
    assert move.consumes == {"wallet"} and move.produces == {"wallet"}
    assert move.sensitive_params == ("pin",)
    assert set(move.errors) == {"not_found", "wrong_pin", "frozen", "insufficient_funds"}
    assert "Errors:" in move.description and "insufficient_funds" in move.description
    assert toy.tools["count_wallets"].hidden
    assert "count_wallets" not in {t.name for t in toy.visible_tools}


@pytest.mark.parametrize("source, message", [
    ('''
def f(ctx: Ctx, x) -> int:
    """Doc.

    Args:
        x: thing.
    """
''', "no type annotation"),
    ('''
def f(ctx: Ctx, x: int) -> int:
    """Doc."""
''', "not documented"),
    ('''
def f(ctx: Ctx, x: int) -> int:
    """Doc.

    Args:
        x: thing.
        y: ghost.
    """
''', "does not have"),
    ('''
def f(x: int) -> int:
    """Doc.

    Args:
        x: thing.
    """
''', "first parameter must be `ctx`"),
    ('''
def f(ctx: Ctx, x: int):
    """Doc.

    Args:
        x: thing.
    """
''', "return type"),
    ('''
def f(ctx: Ctx, x: int) -> int:
    pass
''', "needs a docstring"),
    ('''
def f(ctx: Ctx, x: Annotated[str, Entity("ghost")]) -> int:
    """Doc.

    Args:
        x: thing.
    """
''', "undeclared entity kind"),
    ('''
def f(ctx: Ctx, *xs: int) -> int:
    """Doc.

    Args:
        xs: things.
    """
''', "plain named parameter"),
])
def test_underspecified_tools_fail_at_import(source: str, message: str) -> None:
    server = _server()
    namespace = {"Ctx": Ctx, "Annotated": Annotated, "Entity": Entity}
    exec(source, namespace)  # noqa: S102 - building test functions from literal source
    with pytest.raises(ToolDefinitionError, match=message):
        server.tool(effect=READ)(namespace["f"])


def test_asks_slots_must_name_parameters() -> None:
    server = _server()
    with pytest.raises(ToolDefinitionError, match="unknown slot"):
        @server.tool(effect=READ, asks=["Find {nope}."])
        def find(ctx: Ctx, x: int) -> int:
            """Find.

            Args:
                x: thing.
            """
            return x


def test_duplicate_names_effect_and_decorator_misuse() -> None:
    server = _server()

    def f(ctx: Ctx) -> int:
        """Doc."""
        return 1

    server.tool(effect=READ)(f)
    with pytest.raises(ToolDefinitionError, match="defined twice"):
        server.tool(effect=READ)(f)
    with pytest.raises(ToolDefinitionError, match="READ or WRITE"):
        server.tool(effect="read", name="g")(f)  # type: ignore[arg-type]
    with pytest.raises(ToolDefinitionError, match="with arguments"):
        server.tool(f)  # type: ignore[call-arg]
    with pytest.raises(ToolDefinitionError, match="lower_snake_case"):
        server.tool(effect=READ, name="Bad-Name")(f)


def test_raises_entries_must_be_codes() -> None:
    server = _server()
    with pytest.raises(ToolDefinitionError, match="Google style|Raises:"):
        @server.tool(effect=READ)
        def f(ctx: Ctx) -> int:
            """Doc.

            Raises:
                ValueError when bad.
            """
            return 1


def test_sensitive_inside_optional_is_found() -> None:
    server = _server()

    @server.tool(effect=READ)
    def f(ctx: Ctx, token: Annotated[str, Sensitive()] | None = None) -> int:
        """Doc.

        Args:
            token: an API token.
        """
        return 1

    assert server.tools["f"].sensitive_params == ("token",)


class Found(BaseModel):
    name: str
    note: str | None = None


def test_output_schema_keeps_nulls_and_descriptions_are_one_line() -> None:
    server = _server()

    @server.tool(effect=READ, asks=["Find {x}.", "Look up {x}."])
    def find(ctx: Ctx, x: int) -> Found:
        """Find a thing.

        Args:
            x: a number that is described
                over two lines, such as 3.

        Raises:
            missing: nothing was
                found.
        """
        return Found(name="a")

    tool = server.tools["find"]
    assert tool.output_schema["properties"]["note"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert tool.parameters["properties"]["x"]["description"] == "a number that is described over two lines, such as 3."
    assert tool.errors == {"missing": "nothing was found."}


def test_a_summary_wrapped_over_lines_is_one_sentence() -> None:
    server = _server()

    @server.tool(effect=READ, asks=["Sum it.", "Add it up."])
    def summarise(ctx: Ctx) -> int:
        """Summarise one month: income, spending per category
        and every expense.

        Details follow here.
        """
        return 1

    tool = server.tools["summarise"]
    assert tool.summary == "Summarise one month: income, spending per category and every expense."
    assert tool.description == tool.summary + "\n\nDetails follow here."
