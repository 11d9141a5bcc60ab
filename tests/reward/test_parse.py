"""Parsing the model's calls: OpenAI tool_calls, Hermes/Qwen blocks, plain JSON; never raising."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prove.reward import Call, parse_completion, parse_json, parse_messages, parse_text, parse_trajectory
from prove.calls import ParseLimits, outcome
from prove.rollout import hermes_calls

ERR = json.dumps({"error": {"code": "not_found", "message": "No such wallet.", "hint": "List wallets."}})


def _tc(cid: str, name: str, arguments: object) -> dict:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}


def test_openai_messages_with_outcomes_and_turns() -> None:
    messages = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": None, "tool_calls": [_tc("a", "get", '{"id": "W-1"}'),
                                                              _tc("b", "get", {"id": "W-2"})]},
        {"role": "tool", "tool_call_id": "b", "content": ERR},       # answered out of order
        {"role": "tool", "tool_call_id": "a", "content": '{"id": "W-1", "balance": 3}'},
        {"role": "assistant", "content": "done"},
        {"role": "user", "content": "second"},
        {"role": "assistant", "tool_calls": [_tc("c", "move", '{"src": "W-1",')]},  # malformed arguments
        {"role": "tool", "tool_call_id": "c", "content": ERR},
        {"role": "assistant", "tool_calls": [_tc("d", "list", "")]},  # empty arguments: no arguments
    ]
    assert parse_messages(messages) == [
        Call("get", {"id": "W-1"}, True, 0), Call("get", {"id": "W-2"}, False, 0),
        Call("move", None, False, 1), Call("list", {}, None, 1),
    ]
    assert parse_trajectory({"example_id": "x", "messages": messages}) == parse_messages(messages)


def test_outcome_detection() -> None:
    assert outcome('{"id": 1}') and outcome("[]") and outcome("plain text") and outcome('{"error": "x", "id": 2}')
    assert not outcome(ERR) and not outcome(' { "error" : {"code": "x"}}')
    assert not outcome({"error": {"code": "x"}}) and outcome({"result": 1})
    assert not outcome([{"type": "text", "text": ERR}])
    assert outcome('{"error": {broken')  # not the framework's error body


def test_messages_edge_cases() -> None:
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "assistant", "function_call": {"name": "legacy", "arguments": '{"a": 1}'}},
        {"role": "function", "name": "legacy", "content": "{}"},
        {"role": "assistant", "content": [{"type": "text", "text": '<tool_call>{"name": "x", "arguments": {}}'
                                                                     '</tool_call>'}]},
        {"role": "tool", "content": ERR},                           # no id: answers the oldest open call
        {"role": "assistant", "tool_calls": "not a list"},
        {"role": "assistant", "tool_calls": [{"id": "q", "function": {"arguments": "{}"}}, 7]},
        "not a message", None,
        {"role": "assistant", "tool_calls": [{"id": ["unhashable"], "function": {"name": "h"}}]},
        {"role": "tool", "tool_call_id": {"also": "unhashable"}, "content": "{}"},
    ]
    assert parse_messages(messages) == [
        Call("legacy", {"a": 1}, True, 0), Call("x", {}, False, 0),
        Call(None, None, True, 0),  # answered by the last tool message, whose id is unusable: in order
        Call(None, {}, None, 0), Call(None, None, None, 0), Call("h", {}, None, 0),
    ]


def test_calls_before_any_user_message_have_no_turn() -> None:
    assert parse_messages([{"role": "assistant", "tool_calls": [_tc("a", "f", "{}")]}]) == [Call("f", {}, None, None)]


def test_qwen_tool_responses_in_user_messages_are_not_turns() -> None:
    messages = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": '<tool_call>{"name": "a", "arguments": {}}</tool_call>\n'
                                         '<tool_call>{"name": "b", "arguments": {}}</tool_call>'},
        {"role": "user", "content": "<tool_response>\n{}\n</tool_response>\n<tool_response>\n" + ERR
                                    + "\n</tool_response>"},
        {"role": "assistant", "content": '<tool_call>{"name": "c", "arguments": {}}</tool_call>'},
    ]
    assert parse_messages(messages) == [Call("a", {}, True, 0), Call("b", {}, False, 0), Call("c", {}, None, 0)]


def test_hermes_text() -> None:
    text = (
        '<think>maybe <tool_call>{"name": "ignored"}</tool_call></think>Let me look.\n'
        '<tool_call>\n{"name": "get", "arguments": {"id": "W-1"}}\n</tool_call>\n'
        '<tool_call>{"name": "get", "arguments": "{\\"id\\": \\"W-2\\"}"}</tool_call><|im_end|>\n'
        '<|im_start|>user\n<tool_response>\n{"id": "W-1"}\n</tool_response>\n'
        '<tool_response>\n' + ERR + '\n</tool_response><|im_end|>\n<|im_start|>assistant\n'
        '<tool_call>{broken</tool_call>'
        '<|im_end|>\n<|im_start|>user\nNow move it.<|im_end|>\n<|im_start|>assistant\n'
        '<tool_call>{"name": "move", "parameters": {"src": "W-1"}}'  # truncated: no closing tag
    )
    assert parse_text(text) == [
        Call("get", {"id": "W-1"}, True, 0), Call("get", {"id": "W-2"}, False, 0), Call(None, None, None, 0),
        Call("move", {"src": "W-1"}, None, 1),
    ]
    assert parse_completion(text) == parse_text(text)
    # Turns count from the prompt's turn when given; without markers, calls have no turn.
    assert parse_text('<tool_call>{"name": "a", "arguments": {}}</tool_call>') == [Call("a", {}, None, None)]
    assert parse_text('<tool_call>{"name": "a", "arguments": {}}</tool_call>', first_turn=2) == [Call("a", {}, None, 2)]


def test_hermes_unclosed_blocks_end_at_the_next_block() -> None:
    text = '<tool_call>{"name": "a", "arguments": {}}<tool_call>{"name": "b", "arguments": {}}</tool_call>'
    assert [c.name for c in parse_text(text)] == ["a", "b"]
    assert parse_text("<think>unclosed <tool_call>{}</tool_call>") == []
    assert parse_text("<tool_response>orphan</tool_response>") == []


def test_plain_json() -> None:
    assert parse_json('{"name": "a", "arguments": {"x": 1}}') == [Call("a", {"x": 1})]
    assert parse_json('[{"name": "a", "arguments": {}}, {"name": "b", "parameters": {"y": 2}}]') == [
        Call("a", {}), Call("b", {"y": 2})]
    assert parse_json('{"tool_calls": [{"id": "1", "type": "function", "function": {"name": "a", '
                      '"arguments": "{\\"x\\": 1}"}}]}') == [Call("a", {"x": 1})]
    assert parse_json('```json\n{"name": "a", "arguments": {}}\n```') == [Call("a", {})]
    assert parse_json('I will call {"name": "a", "arguments": {"x": 1}} and then {"name": "b"}.') == [
        Call("a", {"x": 1}), Call("b", {})]
    assert parse_json("No tool is needed; the answer is 4.") == []
    assert parse_json('{"name": "a", "arguments": ') == [Call(None, None)]  # started, broken
    assert parse_json('{"answer": 4}') == [Call(None, {})]  # JSON, but not a call
    assert parse_json('{"name": "a", "arguments": [1, 2]}') == [Call("a", None)]
    assert parse_json('{"name": "", "arguments": {}}') == [Call(None, {})]
    assert parse_completion('{"name": "a", "arguments": {}}', first_turn=1) == [Call("a", {}, None, 1)]


def test_completion_as_messages() -> None:
    completion = [{"role": "assistant", "tool_calls": [_tc("a", "f", "{}")]},
                  {"role": "tool", "tool_call_id": "a", "content": "{}"}]
    assert parse_completion(completion) == [Call("f", {}, True, None)]
    assert parse_completion(completion, first_turn=1) == [Call("f", {}, True, 1)]
    assert parse_completion({"role": "assistant", "tool_calls": [_tc("a", "f", "{}")]}) == [Call("f", {}, None, None)]
    assert parse_completion(None) == [] and parse_completion(42) == []


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
                     lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
                     max_leaves=12)
_fragments = st.sampled_from(["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>",
                              "</think>", "<|im_start|>user\n", '{"name": "a", "arguments": {', "}", "]", "[",
                              '"', "{", '{"error": {"code": "x"}}', "```json\n", "```", "\\", "\x00", "🙂"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_fragments | st.text(max_size=12), max_size=30).map("".join))
def test_text_parsing_never_raises(text: str) -> None:
    for call in parse_completion(text) + parse_json(text) + parse_text(text, first_turn=1):
        assert call.name is None or isinstance(call.name, str)
        assert call.args is None or isinstance(call.args, dict)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["role", "content", "tool_calls", "tool_call_id", "function_call"]),
                                _json | st.sampled_from(["assistant", "tool", "user"]), max_size=5)
                | _json, max_size=8))
def test_message_parsing_never_raises(messages: list) -> None:
    parse_messages(messages)
    parse_completion(messages)
    parse_trajectory({"example_id": "x", "messages": messages})


@given(_json)
def test_any_json_record_parses(value: object) -> None:
    parse_trajectory({"example_id": "x", "messages": value})
    parse_trajectory({"example_id": "x", "completion": value})
    parse_messages(value)  # type: ignore[arg-type]
    parse_completion(value)
    parse_json(value)


# ----- adversarial input: parsing stays linear in the length of the text ---------------------------
# Each of these took seconds to hours with backtracking patterns (a fence followed by blank lines
# was 4.8 s at 2 KB); the timeout only guards the suite, it is not a measurement.

_ADVERSARIAL = [
    "```" + "\n" * 50_000,
    "```json" + " \n" * 30_000 + "x",
    "``` " + "\t" * 40_000 + "```x",
    "[" + " " * 60_000,
    "{" * 20_000 + " " * 20_000,
    ('[ {' + " " * 5_000) * 20,
    '"name"' + " " * 50_000,
    '{"name"' + " " * 30_000 + ":" + " " * 30_000,
    "<tool_call>" * 20_000,
    "<tool_call>{" + "\n" * 40_000,
    "<think>" * 10_000 + "</think>" * 10_000,
    "<tool_response>" * 20_000,
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("text", _ADVERSARIAL, ids=lambda t: repr(t[:12]))
def test_adversarial_text_parses_in_linear_time(text: str) -> None:
    for call in parse_completion(text) + parse_json(text) + parse_text(text):
        assert call.name is None or isinstance(call.name, str)
    hermes_calls(text)


# ----- the reading caps: bounded work, and the calls past them counted ----------------------------

SMALL = ParseLimits(max_calls=3, max_blocks=8, max_chars=400)
_CALL = '<tool_call>{"name": "get", "arguments": {"item_id": "IT-1"}}</tool_call>'


def test_calls_past_the_cap_are_counted_not_read() -> None:
    text = "<think>plan</think>" + _CALL * 5
    calls = parse_text(text, limits=ParseLimits(max_calls=3))
    assert [c.name for c in calls] == ["get"] * 3 and calls.excess == 2
    messages = [{"role": "user", "content": "go"},
                {"role": "assistant", "tool_calls": [_tc(f"c{i}", "get", "{}") for i in range(2)]},
                {"role": "assistant", "tool_calls": [_tc(f"d{i}", "get", "{}") for i in range(3)]},
                {"role": "assistant", "content": _CALL * 2},
                {"role": "tool", "tool_call_id": "d2", "content": ERR}]
    read = parse_messages(messages, limits=ParseLimits(max_calls=3))
    assert len(read) == 3 and read.excess == 4
    assert [c.ok for c in read] == [None, None, None]  # d2's response answers a call that was not read
    as_json = parse_json('{"name": "get"} ' * 6, limits=ParseLimits(max_calls=4))
    assert len(as_json) == 4 and as_json.excess == 2
    listed = parse_json(json.dumps([{"name": "get", "arguments": {}}] * 6), limits=ParseLimits(max_calls=4))
    assert len(listed) == 4 and listed.excess == 2


def test_text_past_the_character_cap_is_not_read_and_its_calls_count() -> None:
    text = _CALL * 2 + " " * 400 + _CALL * 3
    calls = parse_text(text, limits=ParseLimits(max_chars=300))
    assert len(calls) == 2 and calls.excess == 3
    cut_list = parse_json(json.dumps([{"name": "get", "arguments": {}}] * 40), limits=ParseLimits(max_chars=300))
    assert len(cut_list) + cut_list.excess == 40


@settings(max_examples=300, deadline=None)
@given(st.lists(_fragments | st.text(max_size=12), max_size=40).map("".join), st.integers(1, 4), st.integers(1, 10))
def test_capped_text_reads_a_prefix_and_counts_the_rest(text: str, max_calls: int, max_blocks: int) -> None:
    whole = parse_text(text)
    limits = ParseLimits(max_calls=max_calls, max_blocks=max_blocks)
    capped = parse_text(text, limits=limits)
    assert len(capped) <= max_calls and capped.excess >= 0
    assert len(capped) + capped.excess >= len(whole)
    assert [(c.name, c.args, c.turn) for c in capped] == [(c.name, c.args, c.turn) for c in whole[:len(capped)]]
    for calls in (parse_completion(text, limits=SMALL), parse_json(text, limits=SMALL)):
        assert len(calls) <= SMALL.max_calls
