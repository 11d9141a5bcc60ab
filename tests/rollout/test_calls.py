"""Reading an assistant reply's tool calls: native `tool_calls`, Hermes text, malformed calls."""

from __future__ import annotations

import json

from prove.reward import parse_messages
from prove.rollout import hermes_calls, normalize, render_hermes


def test_native_calls_keep_their_ids_and_arguments_text() -> None:
    msg, calls, form = normalize({"role": "assistant", "content": None, "tool_calls": [
        {"id": "x1", "type": "function", "function": {"name": "get_account", "arguments": '{"account_id": "A"}'}},
        {"type": "function", "function": {"name": "list_accounts", "arguments": {"account_type": "savings"}}},
    ]})
    assert form == "native"
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("x1", "get_account", {"account_id": "A"}), ("call_1", "list_accounts", {"account_type": "savings"})]
    assert msg["tool_calls"][0]["function"]["arguments"] == '{"account_id": "A"}'
    assert json.loads(msg["tool_calls"][1]["function"]["arguments"]) == {"account_type": "savings"}


def test_hermes_text_becomes_native_calls() -> None:
    text = ('<think>I could call <tool_call>{"name": "nope", "arguments": {}}</tool_call></think>Let me look.\n'
            '<tool_call>\n{"name": "get_account", "arguments": {"account_id": "ACC-1"}}\n</tool_call>\n'
            '<tool_call>{"name": "list_accounts", "arguments": "{\\"account_type\\": \\"savings\\"}"}</tool_call>')
    msg, calls, form = normalize({"role": "assistant", "content": text}, id_prefix="call_3")
    assert form == "hermes"
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("call_3_0", "get_account", {"account_id": "ACC-1"}),
        ("call_3_1", "list_accounts", {"account_type": "savings"})]      # doubly encoded arguments decoded
    assert "<tool_call>" not in (msg["content"] or "").split("</think>")[-1]
    assert [tc["id"] for tc in msg["tool_calls"]] == ["call_3_0", "call_3_1"]


def test_malformed_hermes_call_is_kept_as_an_invalid_call() -> None:
    text = '<tool_call>{"name": "get_account", "arguments": {"account_id": "ACC-1"</tool_call>'
    msg, calls, form = normalize({"role": "assistant", "content": text})
    assert form == "hermes"
    assert calls[0].name == "get_account" and isinstance(calls[0].arguments, str)
    # The reward sees it as a call with unreadable arguments: it counts, and fails validity.
    parsed = parse_messages([{"role": "user", "content": "hi"}, msg])
    assert len(parsed) == 1 and parsed[0].name == "get_account" and parsed[0].args is None


def test_unclosed_block_at_the_end_is_a_call() -> None:
    _, found = hermes_calls('<tool_call>{"name": "a", "arguments": {}}</tool_call><tool_call>{"name": "b", '
                            '"arguments": {"x": 1}}')
    assert found == [("a", {}), ("b", {"x": 1})]


def test_plain_text_has_no_calls() -> None:
    msg, calls, form = normalize({"role": "assistant", "content": "All done.", "reasoning_content": "..."})
    assert (calls, form) == ([], "none")
    assert msg == {"role": "assistant", "content": "All done.", "reasoning_content": "..."}


def test_render_hermes_round_trips() -> None:
    text = render_hermes([{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": "{broken"}], "ok")
    assert text.startswith("ok\n<tool_call>")
    _, found = hermes_calls(text)
    assert found == [("f", {"a": 1}), ("", "{broken")]
