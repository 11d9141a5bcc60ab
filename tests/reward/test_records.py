"""The record models the reward reads: validation, and JSONL round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from prove.records import (
    Example,
    RecordError,
    Trajectory,
    read_examples,
    read_jsonl,
    read_trajectories,
    write_jsonl,
)


def _ex(**over: object) -> dict:
    base = {"id": "e1", "servers": ["toy"], "turns": [
        {"user": "u", "calls": [{"id": "a", "name": "f", "arguments": {"x": 1}},
                                {"id": "b", "name": "g", "after": ["a"]}]}]}
    return {**base, **over}


def test_example_validation() -> None:
    ex = Example.model_validate(_ex())
    assert [c.id for c in ex.gold_calls()] == ["a", "b"] and ex.kind == "multi_turn" and ex.world == 0
    with pytest.raises(ValidationError, match="appears twice"):
        Example.model_validate(_ex(turns=[{"user": "u", "calls": [{"id": "a", "name": "f"},
                                                                  {"id": "a", "name": "g"}]}]))
    with pytest.raises(ValidationError, match="not earlier calls"):
        Example.model_validate(_ex(turns=[{"user": "u", "calls": [{"id": "a", "name": "f", "after": ["b"]},
                                                                  {"id": "b", "name": "g"}]}]))
    with pytest.raises(ValidationError, match="has no gold calls"):
        Example.model_validate(_ex(kind="abstention"))
    with pytest.raises(ValidationError):
        Example.model_validate(_ex(kind="chitchat"))
    assert Example.model_validate(_ex(unknown_field=1)).meta == {"unknown_field": 1}  # kept, not rejected
    with pytest.raises(ValidationError):
        Example.model_validate(_ex(turns=[{"user": "u", "unknown": 1}]))  # the ground truth is strict


def test_dependencies_across_turns() -> None:
    ex = Example.model_validate(_ex(turns=[{"user": "1", "calls": [{"id": "a", "name": "f"}]},
                                           {"user": "2", "calls": [{"id": "b", "name": "g", "after": ["a"]}]}]))
    assert ex.turns[1].calls[0].after == ["a"]


def test_messages_keep_provider_fields_and_serialise_arguments() -> None:
    ex = Example.model_validate(_ex(messages=[
        {"role": "system", "content": "s"},
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "assistant", "content": None, "reasoning_content": "hmm", "tool_calls": [
            {"id": "t1", "type": "function", "function": {"name": "f", "arguments": {"x": 1}}}]},
        {"role": "tool", "tool_call_id": "t1", "content": '{"ok": true}'},
    ]))
    assistant = ex.messages[2]
    assert assistant.tool_calls[0].function.arguments == '{"x": 1}'  # type: ignore[union-attr]
    assert assistant.model_dump()["reasoning_content"] == "hmm"
    with pytest.raises(ValidationError):
        Example.model_validate(_ex(messages=[{"role": "robot", "content": "x"}]))
    with pytest.raises(ValidationError):
        Example.model_validate(_ex(messages=[{"role": "tool", "content": "x"}]))  # no tool_call_id


def test_malformed_arguments_text_is_kept_verbatim() -> None:
    t = Trajectory.model_validate({"example_id": "e1", "messages": [
        {"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "f", "arguments": '{"x": '}}]}]})
    assert t.messages[0].tool_calls[0].function.arguments == '{"x": '  # type: ignore[union-attr]


def test_trajectory_holds_one_form() -> None:
    assert Trajectory(example_id="e", completion="text").messages is None
    with pytest.raises(ValidationError, match="exactly one"):
        Trajectory(example_id="e")
    with pytest.raises(ValidationError, match="exactly one"):
        Trajectory(example_id="e", completion="x", messages=[])


def test_jsonl_round_trip(tmp_path: Path) -> None:
    ex = Example.model_validate(_ex(meta={"teacher": "programmatic"}, tools=[
        {"type": "function", "function": {"name": "f", "description": "F.", "parameters": {"type": "object"}}}]))
    for name in ("d.jsonl", "d.jsonl.gz"):
        path = tmp_path / name
        assert write_jsonl(path, [ex, ex.model_copy(update={"id": "e2"})]) == 2
        back = read_examples(path)
        assert [e.id for e in back] == ["e1", "e2"] and back[0] == ex
    traj = Trajectory(example_id="e1", completion="x", reward={"score": 1.0})
    write_jsonl(tmp_path / "t.jsonl", [traj, {"example_id": "e1", "completion": "y"}])
    assert [t.completion for t in read_trajectories(tmp_path / "t.jsonl")] == ["x", "y"]


def test_read_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(_ex()) + "\n\n{not json\n")
    with pytest.raises(RecordError, match=r"bad.jsonl:3: not JSON"):
        list(read_jsonl(path, Example))
    path.write_text(json.dumps(_ex()) + "\n" + json.dumps(_ex(world="x")) + "\n")
    with pytest.raises(RecordError, match=r"bad.jsonl:2: invalid Example: world"):
        read_examples(path)
    path.write_text(json.dumps(_ex()) + "\n" + json.dumps(_ex()) + "\n")
    with pytest.raises(RecordError, match="appears twice"):
        read_examples(path)


def test_a_turn_may_carry_simulated_time_that_passes_before_it() -> None:
    ex = Example.model_validate(_ex(turns=[{"user": "u", "advance": 3600, "calls": []}, {"user": "v"}]))
    assert [t.advance for t in ex.turns] == [3600, 0]
    with pytest.raises(ValidationError):
        Example.model_validate(_ex(turns=[{"user": "u", "advance": -5}]))


def test_external_records_are_read_leniently() -> None:
    # An empty object where a list belongs (what some writers emit for an empty list), and keys
    # PROVE does not know, which are kept in `meta` rather than rejected.
    ex = Example.model_validate(_ex(provenance={}, perturbations={}, source="bfcl", meta={"a": 1}))
    assert ex.provenance == [] and ex.perturbations == []
    assert ex.meta == {"a": 1, "source": "bfcl"}


def test_what_cannot_be_read_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(_ex(provenance={"c1": "user"})) + "\n")
    with pytest.raises(RecordError, match=r"bad.jsonl:1: invalid Example: provenance: .*list"):
        read_examples(path)
