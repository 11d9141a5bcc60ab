"""BFCL v4 multi-turn on BFCL's own backends and checker, with scripted policies on the local
chat-completions server (`prove.rollout.ScriptedServer`: scripted answers, not a model).

Needs bfcl-eval (`pip install 'prove-rl[bfcl]' && pip install --no-deps bfcl-eval==2026.3.23`);
skipped without it. Every category in full: `pytest -m slow tests/evals`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("bfcl_eval", reason="needs bfcl-eval: pip install 'prove-rl[bfcl]' && "
                                        "pip install --no-deps bfcl-eval==2026.3.23")

from prove.evals import bfcl  # noqa: E402
from prove.rollout import OpenAIPolicy, ScriptedModel, ScriptedServer  # noqa: E402


def first_message(entry: bfcl.Entry) -> str:
    return entry.data["question"][0][-1]["content"]


def gold_script(entry: bfcl.Entry, turn_calls: Sequence[Sequence[tuple[str, dict[str, Any]]]] | None = None,
                form: str = "native") -> list[dict[str, Any]]:
    """One reply with the turn's gold calls, then an answer in words, for every turn."""
    steps: list[dict[str, Any]] = []
    for turn in turn_calls if turn_calls is not None else bfcl.gold_calls(entry):
        if turn:
            steps.append({"calls": [{"name": n, "arguments": a} for n, a in turn], "form": form})
        steps.append({"content": "Done."})
    return steps


def play(entries: Sequence[bfcl.Entry], scripts: dict[str, list[dict[str, Any]]],
         concurrency: int = 4) -> list[dict[str, Any]]:
    """Run entries against scripts keyed by entry id; entries sharing a first message go in separate servers."""
    batches: list[list[bfcl.Entry]] = []
    for entry in entries:
        for batch in batches:
            if all(first_message(e) != first_message(entry) for e in batch):
                batch.append(entry)
                break
        else:
            batches.append([entry])
    records: dict[str, dict[str, Any]] = {}
    for batch in batches:
        model = ScriptedModel({first_message(e): scripts[e.id] for e in batch if e.id in scripts})
        with ScriptedServer(model) as server, OpenAIPolicy(server.url, "scripted", retries=0, timeout=10) as policy:
            for rec in bfcl.run(batch, policy, concurrency=concurrency):
                records[rec["id"]] = rec
    return [records[e.id] for e in entries]


def accuracy(records: Sequence[dict[str, Any]]) -> float:
    return sum(r["score"] for r in records) / len(records)


@pytest.fixture(scope="module")
def base() -> list[bfcl.Entry]:
    return bfcl.load(["base"])


def test_gold_passes_every_base_entry(base: list[bfcl.Entry]) -> None:
    records = play(base, {e.id: gold_script(e) for e in base})
    failed = {r["id"]: r["error_type"] for r in records if not r["valid"]}
    # BFCL's accuracy for its own ground truth on `base`: 200 of 200.
    assert len(records) == 200 and failed == {}, failed
    assert all(r["status"] == "done" and not r["err"] and r["not_run"] == 0 for r in records)


@pytest.mark.parametrize("category", ["miss_func", "miss_param", "long_context"])
def test_gold_passes_a_sample_of_the_other_categories(category: str) -> None:
    entries = bfcl.load([category])[::10]
    records = play(entries, {e.id: gold_script(e) for e in entries})
    assert accuracy(records) == 1.0, [(r["id"], r["error_type"]) for r in records if not r["valid"]]
    if category == "miss_func":
        # The held-out function is offered from its turn on, after BFCL's own message.
        rec = records[0]
        held = next(iter(entries[0].data["missed_function"].values()))[0]["name"]
        turns = [i for i, m in enumerate(rec["messages"]) if m["role"] == "user"]
        hold_turn = int(next(iter(entries[0].data["missed_function"])))
        assert rec["messages"][turns[hold_turn]]["content"] == bfcl.modules().more_functions
        assert any(held in call for step in rec["calls"][hold_turn] for call in step)


@pytest.mark.slow
@pytest.mark.parametrize("category", bfcl.CATEGORIES)
def test_gold_passes_every_entry(category: str) -> None:
    entries = bfcl.load([category])
    records = play(entries, {e.id: gold_script(e) for e in entries})
    assert accuracy(records) == 1.0, [(r["id"], r["error_type"]) for r in records if not r["valid"]]


def test_no_calls_score_zero(base: list[bfcl.Entry]) -> None:
    records = play(base[:40], {})
    assert accuracy(records) == 0.0
    assert {r["error_type"] for r in records} == {"multi_turn:empty_turn_model_response"}


def test_a_repeated_write_is_rejected_and_a_repeated_read_is_not(base: list[bfcl.Entry]) -> None:
    writes = [e for e in base if any(n == "post_tweet" for turn in bfcl.gold_calls(e) for n, _ in turn)][:6]
    reads = [e for e in base if any(n == "ls" for turn in bfcl.gold_calls(e) for n, _ in turn)][:6]
    assert writes and reads

    def doubled(entry: bfcl.Entry, name: str) -> list[list[tuple[str, dict[str, Any]]]]:
        out = []
        for turn in bfcl.gold_calls(entry):
            calls = []
            for n, a in turn:
                calls.append((n, a))
                if n == name:
                    calls.append((n, copy.deepcopy(a)))
            out.append(calls)
        return out

    records = play(writes, {e.id: gold_script(e, doubled(e, "post_tweet")) for e in writes})
    # BFCL's checker compares the backends' states: the second tweet is one too many.
    assert [r["error_type"] for r in records] == ["multi_turn:instance_state_mismatch"] * len(writes)
    records = play(reads, {e.id: gold_script(e, doubled(e, "ls")) for e in reads})
    assert accuracy(records) == 1.0


def test_hermes_text_calls_are_run_as_native_ones(base: list[bfcl.Entry]) -> None:
    entries = base[:10]
    records = play(entries, {e.id: gold_script(e, form="hermes") for e in entries})
    assert accuracy(records) == 1.0


def test_model_output_is_never_run_as_code(base: list[bfcl.Entry], tmp_path: Path) -> None:
    entry = next(e for e in base if "GorillaFileSystem" in e.data["involved_classes"])
    canary = tmp_path / "canary"
    payload = f"x') or __import__('os').system('touch {canary}') or ('"
    steps = [
        {"calls": [{"name": "cat", "arguments": {"file_name": payload}},          # a string stays a string
                   {"name": "open", "arguments": {"file": str(canary), "mode": "w"}},  # not a backend method
                   {"name": "ls", "arguments": {"a); __import__('os').system('x'); (": True}},
                   {"name": "__import__", "arguments": {"name": "os"}}]},
        {"content": "Done."},
    ]
    [rec] = play([entry], {entry.id: steps})
    results = [m["content"] for m in rec["messages"] if m["role"] == "tool"]
    assert not canary.exists()
    assert results[0].startswith('{"error": "cat: ') or "No such file" in results[0]
    assert results[1] == "Error during execution: name 'open' is not defined"
    assert results[2] == "Error during execution: an argument name is not an identifier"
    assert results[3] == "Error during execution: name '__import__' is not defined"
    assert rec["not_run"] == 3 and rec["calls"][0][0][1:] == [bfcl.NOT_RUN] * 3
    assert rec["score"] == 0.0


def test_malformed_calls_end_the_turn_as_in_bfcl(base: list[bfcl.Entry]) -> None:
    entry = base[0]
    steps = [{"calls": [{"name": "cd", "arguments": "{not json"}]}] + gold_script(entry)
    [rec] = play([entry], {entry.id: steps})
    # The undecodable reply ends turn 0 with nothing run; the gold replies then come one turn late.
    assert rec["undecodable"] == 1 and rec["calls"][0] == [] and rec["score"] == 0.0
    assert rec["error_type"] == "multi_turn:empty_turn_model_response"
    assert rec["err"] and rec["status"] == "done"     # counted under err; the run went on


def test_endpoint_errors_and_timeouts_fail_the_entry_and_count_as_err(base: list[bfcl.Entry]) -> None:
    entries = base[:3]
    scripts = {entries[0].id: [{"status": 503}], entries[1].id: [{"content": "x", "delay": 3}],
               entries[2].id: gold_script(entries[2])}
    model = ScriptedModel({first_message(e): scripts[e.id] for e in entries})
    with ScriptedServer(model) as server, OpenAIPolicy(server.url, "s", retries=0, timeout=1) as policy:
        records = bfcl.run(entries, policy, concurrency=3)
    assert [r["err"] for r in records] == [True, True, False]
    assert [r["error_type"] for r in records[:2]] == ["multi_turn:inference_error"] * 2
    assert records[0]["error"].startswith("http_503") and records[1]["error"].startswith("timeout")
    assert records[2]["score"] == 1.0


def test_too_many_steps_force_terminate(base: list[bfcl.Entry]) -> None:
    entry = base[1]
    steps = [{"calls": [{"name": "pwd", "arguments": {}}]}] * (bfcl.modules().max_steps + 5)
    [rec] = play([entry], {entry.id: steps})
    assert rec["status"] == "force_terminated" and rec["error_type"] == "multi_turn:force_terminated"
    assert len(rec["calls"][0]) == bfcl.modules().max_steps + 1


def test_no_instance_is_left_in_bfcl_globals(base: list[bfcl.Entry]) -> None:
    play(base[:5], {e.id: gold_script(e) for e in base[:5]})
    assert not [k for k in vars(bfcl.modules().executor) if k.startswith("prove_")]


def test_tools_are_openai_function_tools(base: list[bfcl.Entry]) -> None:
    offered = bfcl.tools(base[0].data["function"])
    names = [t["function"]["name"] for t in offered]
    assert len(names) == len(set(names)) and "cd" in names and "post_tweet" in names
    for tool in offered:
        assert tool["type"] == "function" and tool["function"]["parameters"]["type"] == "object"
        for prop in tool["function"]["parameters"]["properties"].values():
            assert prop["type"] in ("string", "integer", "number", "boolean", "array", "object")


def test_unknown_categories_and_ids() -> None:
    with pytest.raises(bfcl.EvalError, match="no BFCL multi-turn category 'nope'"):
        bfcl.load(["nope"])
    with pytest.raises(bfcl.EvalError, match="no BFCL multi-turn entry 'x'"):
        bfcl.load(["base"], ids=["x"])
