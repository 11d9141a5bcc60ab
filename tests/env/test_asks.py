"""Phrasings that carry their meaning, toolsets, and the shared value helpers."""

from __future__ import annotations

from datetime import date
from typing import Literal

import pytest
from pydantic import BaseModel

from prove.env import (
    READ,
    WRITE,
    Ask,
    Ctx,
    EntityKind,
    Server,
    ToolDefinitionError,
    ToolError,
    Toolset,
)
from prove.env.asks import problems
from prove.env.values import luhn_ok, parse_clock, parse_span, parse_time

SCHEMA = "CREATE TABLE messages (message_id TEXT PRIMARY KEY, subject TEXT NOT NULL, kind TEXT NOT NULL);"
MESSAGE = EntityKind("message", "messages", "message_id", "subject", noun="email")


class Forwarded(BaseModel):
    message_id: MESSAGE.id
    subject: str
    attachments: int


def _server(tools: Toolset) -> Server:
    return Server("mail", "Mail", "A mailbox for tests of phrasings and toolsets, nothing more.",
                  schema=SCHEMA, world=None, entities=[MESSAGE]).include(tools)


def _forward_tools(*asks: str | Ask, reply: str | list[str | Ask] = "Forwarded {message_id}.") -> Toolset:
    tools = Toolset("compose")

    @tools.tool(effect=WRITE, asks=asks, reply=reply)
    def forward(ctx: Ctx, message_id: MESSAGE.id, to: str, include_attachments: bool = True,
                priority: Literal["normal", "urgent"] = "normal") -> Forwarded:
        """Forward a message.

        Args:
            message_id: the message, such as 'MSG-10001'.
            to: the address, such as 'ana@example.com'.
            include_attachments: send its attachments too, such as false; default true.
            priority: how urgent, such as 'urgent'.
        """
        return Forwarded(message_id=message_id, subject="x", attachments=0)

    return tools


def _problems(server: Server, name: str = "forward") -> list[str]:
    tool = server.tools[name]
    props = tool.parameters["properties"]
    return [p for ask in tool.asks for p in problems(ask, {q.name: (q.required, props[q.name]) for q in tool.params})]


def test_a_phrase_that_names_an_option_it_does_not_bind_is_flagged() -> None:
    server = _server(_forward_tools("Forward {message_id} to {to} but without the attachments.",
                                    "Forward {message_id} to {to}, it's urgent."))
    found = _problems(server)
    assert any("include_attachments" in p for p in found) and any("'urgent' of 'priority'" in p for p in found)


def test_bound_phrases_pass_and_agree_only_with_their_values() -> None:
    ask = Ask("Forward {message_id} to {to} without the attachments.", include_attachments=False)
    server = _server(_forward_tools(ask, Ask("Forward {message_id} to {to}, urgently.", priority="urgent")))
    assert _problems(server) == []
    assert server.tools["forward"].asks[0] == ask and ask.slots == ["message_id", "to"]
    assert ask.agrees({"message_id": "M", "to": "a", "include_attachments": False})
    assert not ask.agrees({"message_id": "M", "to": "a"})
    assert not ask.agrees({"message_id": "M", "to": "a", "include_attachments": True})


def test_a_phrase_must_say_every_required_argument() -> None:
    server = _server(_forward_tools("Forward {message_id}.", "Forward {message_id} to {to}."))
    assert _problems(server) == ["'Forward {message_id}.' leaves the required 'to' unsaid (slot it or bind it)"]


@pytest.mark.parametrize("ask, error", [
    (Ask("Forward {message_id} to {to}.", colour="red"), "binds unknown parameter"),
    (Ask("Forward {message_id} to {to}.", include_attachments="no"), "does not accept"),
    (Ask("Forward {message_id} to {to}.", priority="loud"), "does not accept"),
    (Ask("Forward {message_id} to {to}.", to="x"), "both slots and binds"),
    (Ask("Forward {message_id} to {to}.", fits={"folder_id": "kind = 'custom'"}), "which it does not slot"),
])
def test_bad_bindings_fail_at_import(ask: Ask, error: str) -> None:
    with pytest.raises(ToolDefinitionError, match=error):
        _server(_forward_tools(ask))


@pytest.mark.parametrize("reply, error", [("Sent {result.nothing}.", "the result lacks"),
                                          ("Sent {nobody}.", "unknown slot")])
def test_reply_slots_name_arguments_or_result_fields(reply: str, error: str) -> None:
    with pytest.raises(ToolDefinitionError, match=error):
        _server(_forward_tools("Forward {message_id} to {to}.", reply=reply))
    ok = _server(_forward_tools("Forward {message_id} to {to}.", reply="Sent {result.subject} to {to}."))
    assert ok.tools["forward"].replies == (Ask("Sent {result.subject} to {to}."),)


@pytest.mark.parametrize("reply, error", [(Ask("Sent {to}.", colour="red"), "binds unknown parameter"),
                                          (Ask("Sent {to}.", include_attachments="no"), "does not accept")])
def test_reply_bindings_are_checked_at_import(reply: Ask, error: str) -> None:
    with pytest.raises(ToolDefinitionError, match=error):
        _server(_forward_tools("Forward {message_id} to {to}.", reply=[reply]))


def test_a_reply_is_chosen_only_for_calls_that_hold_its_bindings() -> None:
    from prove.synth.teachers.programmatic import _fitting_replies

    with_files = Ask("Forwarded {message_id} with its attachments.", include_attachments=True)
    without = Ask("Forwarded {message_id}, attachments left out.", include_attachments=False)
    tool = _server(_forward_tools("Forward {message_id} to {to}.", reply=[with_files, without, "Sent."])).tools["forward"]
    assert _fitting_replies(tool, {"message_id": "M", "to": "a"}) == [with_files]  # the default: True
    assert _fitting_replies(tool, {"message_id": "M", "to": "a", "include_attachments": False}) == [without]
    urgent = Ask("Forwarded {message_id}, marked urgent.", priority="urgent")
    tool = _server(_forward_tools("Forward {message_id} to {to}.", reply=[urgent, "Sent."])).tools["forward"]
    assert _fitting_replies(tool, {"message_id": "M", "to": "a", "priority": "urgent"}) == [urgent]
    assert _fitting_replies(tool, {"message_id": "M", "to": "a"}) == [Ask("Sent.")]  # no bound reply fits


def test_a_reply_can_be_bound_on_what_the_result_holds() -> None:
    """"Forwarded it; it had no attachments" fits a result with `attachments == 0` only; a binding
    on a field the result lacks fails at import."""
    from prove.synth.teachers.programmatic import _fitting_replies

    bare = Ask("Forwarded {message_id}; it had no attachments.", **{"result.attachments": 0})
    tool = _server(_forward_tools("Forward {message_id} to {to}.", reply=[bare, "Sent {result.subject}."])).tools["forward"]
    args = {"message_id": "M", "to": "a"}
    assert _fitting_replies(tool, args, {"message_id": "M", "subject": "Hi", "attachments": 0}) == [bare]
    assert _fitting_replies(tool, args, {"message_id": "M", "subject": "Hi", "attachments": 2}) == \
        [Ask("Sent {result.subject}.")]
    assert set(_fitting_replies(tool, args)) == {bare, Ask("Sent {result.subject}.")}  # before the call: either
    with pytest.raises(ToolDefinitionError, match="which the result lacks"):
        _server(_forward_tools("Forward {message_id} to {to}.", reply=[Ask("Sent.", **{"result.nothing": 0})]))


def test_a_reply_that_names_an_option_it_does_not_bind_is_flagged() -> None:
    tool = _server(_forward_tools("Forward {message_id} to {to}.", reply=[
        "Forwarded {message_id} without the attachments.",
        Ask("Forwarded {message_id} without the attachments.", include_attachments=False)])).tools["forward"]
    props = tool.parameters["properties"]
    params = {q.name: (q.required, props[q.name]) for q in tool.params}
    assert [bool(problems(r, params, reply=True)) for r in tool.replies] == [True, False]


def test_values_and_needs_are_checked() -> None:
    tools = Toolset("x")

    @tools.tool(effect=READ, asks=["Find {query}."], values={"query": ["budget", "trip"]}, needs=["nothing_here"])
    def find(ctx: Ctx, query: str) -> list[str]:
        """Find messages.

        Args:
            query: words, such as 'budget'.
        """
        return []

    with pytest.raises(ToolDefinitionError, match="needs unknown tools"):
        _server(tools)
    bad = Toolset("y")
    bad.tool(effect=READ, values={"query": [3]})(find)
    with pytest.raises(ToolDefinitionError, match="does not accept"):
        _server(bad)


def test_entity_kinds_give_their_id_types_and_words() -> None:
    assert MESSAGE.words == "email" and EntityKind("scheduled_payment", "t", "k").words == "scheduled payment"
    server = _server(_forward_tools("Forward {message_id} to {to}."))
    assert server.tools["forward"].params[0].entity == "message"


def test_one_set_of_time_rules() -> None:
    assert parse_time("2026-03-18T14:00", "start").hour == 14
    for bad in ("2026-03-18T14:00:00Z", "2026-03-18T14:00:00+02:00", "tomorrow"):
        with pytest.raises(ToolError) as info:
            parse_time(bad, "start")
        assert info.value.code == "invalid_time"
    assert parse_clock("17:30", "at").minute == 30
    with pytest.raises(ToolError) as info:
        parse_span("2026-03-18T14:00", "2026-03-18T13:00")
    assert info.value.code == "end_before_start"
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")


def test_values_that_belong_together_are_checked_as_tuples() -> None:
    def rate(ctx: Ctx, stars: int, comment: str) -> list[str]:
        """Rate something.

        Args:
            stars: from 1 to 5, such as 4.
            comment: a few words, such as 'Fast shipping.'.
        """
        return []

    good = Toolset("good")
    good.tool(effect=WRITE, asks=["Give it {stars} stars: {comment}"], reply="Rated.",
              values={"stars, comment": [(5, "Loved it."), (1, "Broken on arrival.")]})(rate)
    assert _server(good).tools["rate"].values == {"stars, comment": ((5, "Loved it."), (1, "Broken on arrival."))}
    for bad, error in (([(5, "Loved it.", "extra")], "tuple of 2"), ([("five", "Loved it.")], "does not accept")):
        tools = Toolset("bad")
        tools.tool(effect=WRITE, values={"stars, comment": bad})(rate)
        with pytest.raises(ToolDefinitionError, match=error):
            _server(tools)


def test_a_session_tells_whether_an_entity_meets_a_condition() -> None:
    from prove.env import Session

    world = Server("mailw", "Mail", "A mailbox for tests of entity conditions, nothing more.", schema=SCHEMA,
                   world=lambda gen: {"messages": [{"message_id": "M1", "subject": "Hi", "kind": "inbox"},
                                                   {"message_id": "M2", "subject": "Yo", "kind": "spam"}]},
                   entities=[MESSAGE]).include(_forward_tools("Forward {message_id} to {to}."))
    with Session([world], world=0) as s:
        assert s.satisfies("message", "M1", "kind = 'inbox'")
        assert not s.satisfies("message", "M2", "kind = 'inbox'")
        assert not s.satisfies("message", "M9", "1 = 1")
        assert s.satisfies("message", "M1", "'2026-03-16' <= :today")


def test_date_values_are_given_as_iso_strings() -> None:
    tools = Toolset("passports")

    @tools.tool(effect=WRITE, asks=["Save my passport, valid until {expires}."], reply="Saved.",
                values={"expires": ["2031-05-01"]})
    def save_passport(ctx: Ctx, expires: date) -> str:
        """Save a passport.

        Args:
            expires: when it runs out, such as '2031-05-01'.
        """
        return "ok"

    assert _server(tools).tools["save_passport"].values == {"expires": ("2031-05-01",)}
    bad = Toolset("passports2")
    bad.tool(effect=WRITE, asks=["Save it until {expires}."], reply="Saved.", values={"expires": ["May 1st"]})(save_passport)
    with pytest.raises(ToolDefinitionError, match="does not accept"):
        _server(bad)
