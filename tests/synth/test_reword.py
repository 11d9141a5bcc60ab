"""The reword teacher against a local scripted chat-completions server: rewrites that keep every
value are used, rewrites that drop or turn round a value are asked again and then given up."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from prove.env import registry
from prove.env.asks import bool_words, words_in
from prove.synth import SynthConfig, Synthesizer, run
from prove.synth.teachers import make_teacher, parse_teacher
from prove.synth.teachers.reword import REWORD_MARK, RewordTeacher, needs_of, problems
from prove.synth.teachers.scripted import Reply, ScriptedServer
from prove.synth.validate import check

SERVERS = ["email", "banking"]
N = 20
_ID = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d{3,}\b")


def _config(url: str | None, **options: Any) -> SynthConfig:
    teacher = f"reword:scripted@{url}" if url else "programmatic"
    opts = {"concurrency": 4, "timeout": 5.0, "retries": 0, "backoff": 0.01, **options} if url else {}
    return SynthConfig(n=N, seed=3, servers=SERVERS, shard_size=24, teacher=teacher, teacher_options=opts)


def _original(body: dict[str, Any]) -> str:
    assert body["messages"][0]["content"].startswith(REWORD_MARK)
    return body["messages"][1]["content"]


def faithful(body: dict[str, Any]) -> Reply:
    """A rewrite that keeps every value: another opener, the first sentence moved to the end (after
    a reasoning block, as thinking models answer)."""
    sentences = re.split(r"(?<=[.!?])\s+", _original(body))
    if len(sentences) > 1:
        sentences = sentences[1:] + sentences[:1]
    return Reply("<think>Keep every value.</think>\nOkay, so: " + " ".join(sentences))


def breaking(body: dict[str, Any]) -> Reply:
    """A rewrite that turns options round ("without" -> "with", "don't block" -> "block"), drops an ID
    and adds a number."""
    text = re.sub(r"\bwithout\b", "with", _original(body))
    text = re.sub(r"\b(don't|do not) ", "", text)
    first = _ID.search(text)
    if first:
        text = text.replace(first.group(), "it")
    return Reply(text + " Make it 99 of them.")


def breaks_once(body: dict[str, Any]) -> Reply:
    """Breaks the first rewrite of a text, then follows the feedback."""
    asked_again = any("rejected" in str(m.get("content")) for m in body["messages"][2:])
    return faithful(body) if asked_again else breaking(body)


def _dataset(out: Path) -> dict[str, dict[str, Any]]:
    lines = (out / "dataset.jsonl").read_text().splitlines()
    return {ex["id"]: ex for ex in map(json.loads, lines)}


def _texts(ex: dict[str, Any]) -> list[str]:
    """The user turns and the final assistant texts."""
    return [m["content"] for m in ex["messages"]
            if m["role"] == "user" or m["role"] == "assistant" and m.get("content") and not m.get("tool_calls")]


def _execution(ex: dict[str, Any]) -> Any:
    """Everything but the words: calls, results, gold turns, fingerprint."""
    calls = [(tc["function"]["name"], tc["function"]["arguments"]) for m in ex["messages"]
             for tc in m.get("tool_calls") or ()]
    results = [m["content"] for m in ex["messages"] if m["role"] == "tool"]
    return calls, results, [t["calls"] for t in ex["turns"]], ex["fingerprint"], ex["meta"].get("bindings")


@pytest.fixture(scope="module")
def programmatic(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    out = tmp_path_factory.mktemp("programmatic")
    run(_config(None), out)
    return _dataset(out)


def test_the_teacher_spec_names_the_model_and_endpoint() -> None:
    assert parse_teacher("reword:Qwen/Qwen3-8B@http://localhost:8000/v1") == (
        "reword", {"model": "Qwen/Qwen3-8B", "base_url": "http://localhost:8000/v1"})
    with pytest.raises(ValueError):
        parse_teacher("reword:model-without-url")
    teacher = make_teacher("reword:m@http://127.0.0.1:9/v1", tries=2, concurrency=3)
    assert isinstance(teacher, RewordTeacher)
    assert (teacher.id, teacher.tries, teacher.client.concurrency) == ("reword:m", 2, 3)
    assert teacher.classifier() is None  # the dependency graph stays the programmatic teacher's


def test_the_check_catches_dropped_values_and_turned_options() -> None:
    email = registry.get("email")
    forward = email.tools["forward_message"]
    original = "Forward email MSG-10068 to anna.evans@tidalsystems.com but without the attachments."
    args = {"message_id": "MSG-10068", "to": ["anna.evans@tidalsystems.com"], "include_attachments": False}
    needs = needs_of(original, [(forward, args, {"include_attachments": False})])
    assert problems(needs, original, "Please pass MSG-10068 on to anna.evans@tidalsystems.com, without the "
                                     "attachments.") == []
    assert problems(needs, original, "Forward email MSG-10068 to anna.evans@tidalsystems.com with the "
                                     "attachments.") == [
        "it turns 'without the attachments' round (include_attachments=false)"]
    assert problems(needs, original, "Forward email MSG-10068 to anna.evans@tidalsystems.com.") == [
        "it no longer says 'without the attachments' (include_attachments=false)"]
    assert problems(needs, original, "Forward it to anna.evans@tidalsystems.com, without the attachments.") == [
        "it drops 'MSG-10068'"]
    assert problems(needs, original, "Forward MSG-10068 and MSG-10069 to anna.evans@tidalsystems.com but "
                                     "without the 2 attachments.") == [
        "it adds MSG-10069, which the original does not name", "it adds the number 2"]

    spam = email.tools["report_spam"]
    original = "Mark the email 'Invitation: Atlas kickoff' as junk but don't block the sender."
    needs = needs_of(original, [(spam, {"message_id": "MSG-10173", "block_sender": False}, {"block_sender": False})],
                     labels=lambda kind, value: ["Invitation: Atlas kickoff"])
    assert problems(needs, original, "Flag 'Invitation: Atlas kickoff' as junk, but do not block whoever sent "
                                     "it.") == []
    assert problems(needs, original, "Flag 'Invitation: Atlas kickoff' as junk and block the sender.") == [
        "it turns \"but don't block the sender\" round (block_sender=false)"]
    # An entity may be named by its ID or its label (as faithfulness reads it), but no ID may be new.
    assert problems(needs, original, "Flag MSG-10173 as junk, but don't block the sender.") == [
        "it adds MSG-10173, which the original does not name"]
    assert problems(needs, original, "Flag that invitation as junk, but don't block the sender.") == [
        "it drops 'Invitation: Atlas kickoff'"]

    mark = email.tools["mark_read"]
    original = "Mark email MSG-10069 unread again, I want to come back to it."
    needs = needs_of(original, [(mark, {"message_ids": ["MSG-10069"], "read": False}, {"read": False})])
    assert problems(needs, original, "I want to come back to MSG-10069, so mark it unread.") == []
    assert problems(needs, original, "Mark email MSG-10069 as read, I want to come back to it.") != []

    transfer = registry.get("banking").tools["transfer_between_accounts"]
    original = "Transfer 1,250 from the Main Savings account into ACC-10001 on April 1."
    args = {"from_account_id": "ACC-10002", "to_account_id": "ACC-10001", "amount": 1250.0}
    needs = needs_of(original, [(transfer, args, {})], labels=lambda kind, value: {"ACC-10002": ["Main Savings"]}
                     .get(value, []))
    assert problems(needs, original, "Move 1250 into ACC-10001 from Main Savings on April 1.") == []
    assert problems(needs, original, "Move 1,520 into ACC-10001 from Main Savings on April 1.") == [
        "it drops '1,250'", "it adds the number 1520"]

    reply = "Which of your drafts should I use?"
    assert problems(needs_of(reply, [], question=True), reply, "Tell me the draft to use.") == [
        "it is no longer a question"]


def test_faithful_rewrites_are_used_and_the_examples_replay(tmp_path: Path, programmatic) -> None:
    with ScriptedServer(faithful) as server:
        synth = Synthesizer(_config(server.url))
        summary = run(synth.config, tmp_path / "out", synthesizer=synth)
    assert summary.accepted == N
    data = _dataset(tmp_path / "out")
    stats = synth.teacher.stats
    assert stats["user_rewritten"] > N and stats["reply_rewritten"] > N
    assert stats["reword_fallback"] == 0 and stats["reword_rejected"] == 0
    shared = set(data) & set(programmatic)
    assert len(shared) >= N - 2
    for ex_id in shared:
        ex, base = data[ex_id], programmatic[ex_id]
        assert ex["meta"]["teacher"] == "reword:scripted"
        assert _execution(ex) == _execution(base)  # the same plan, calls and results: only the words change
        assert all(a != b and a.startswith("Okay, so: ") for a, b in zip(_texts(ex), _texts(base)))
        assert [t["user"] for t in ex["turns"]] == [m["content"] for m in ex["messages"] if m["role"] == "user"]
    for ex in data.values():
        server_ = synth.by_name[ex["servers"][0]]
        verdict = check(ex, server_, synth.index(server_, ex["world"]))
        assert verdict.ok, (ex["id"], verdict.reason, verdict.detail)


def test_broken_rewrites_are_asked_again_then_the_programmatic_words_stay(tmp_path: Path, programmatic) -> None:
    with ScriptedServer(breaks_once) as server:
        server.keep_bodies = True
        synth = Synthesizer(_config(server.url))
        run(synth.config, tmp_path / "once", synthesizer=synth)
        bodies = list(server.bodies)
    feedback = [str(b["messages"][-1]["content"]) for b in bodies if len(b["messages"]) > 2]
    stats = synth.teacher.stats
    assert stats["user_rewritten"] > N and stats["reply_rewritten"] > N and stats["reword_fallback"] == 0
    assert {len(b["messages"]) for b in bodies} == {2, 4}  # each text: one rejected rewrite, one regeneration
    assert any("round (block_sender=false)" in f or "round (include_attachments=false)" in f for f in feedback)
    assert any(re.search(r"it drops '[A-Z]+-\d+'", f) for f in feedback)  # an ID the words had
    assert all("it adds the number 99" in f for f in feedback)
    kept = 0
    for ex in _dataset(tmp_path / "once").values():
        assert all(t.startswith("Okay, so: ") for t in _texts(ex))  # every text is the regenerated rewrite
        assert ex["meta"]["wording"] and all(w.endswith(":rewritten") for w in ex["meta"]["wording"])
        users = set(words_in(" ".join(t["user"] for t in ex["turns"])))
        for bound in (ex["meta"].get("bindings") or {}).values():
            for name, value in bound.items():
                if isinstance(value, bool):  # the words that fix an option survive the rewrite
                    assert any(u.startswith(w) for w in bool_words(name) for u in users), (ex["id"], name)
                    kept += 1
    assert kept

    with ScriptedServer(breaking) as server:
        server.keep_bodies = True
        synth = Synthesizer(_config(server.url, tries=2))
        run(synth.config, tmp_path / "never", synthesizer=synth)
        bodies = list(server.bodies)
    stats = synth.teacher.stats
    never = _dataset(tmp_path / "never")
    assert stats["reword_fallback"] >= sum(len(_texts(ex)) for ex in never.values())
    assert stats["user_rewritten"] == stats["reply_rewritten"] == 0
    assert {len(b["messages"]) for b in bodies} == {2, 4}  # `tries` = 2 rewrites asked per text
    for ex_id, ex in never.items():
        if ex_id in programmatic:
            assert _texts(ex) == _texts(programmatic[ex_id])  # the programmatic words, unchanged


def test_an_endpoint_that_fails_leaves_the_programmatic_words(tmp_path: Path, programmatic) -> None:
    with ScriptedServer(lambda body: Reply(status=500, body={"error": "down"})) as server:
        synth = Synthesizer(_config(server.url, retries=1))
        summary = run(synth.config, tmp_path / "out", synthesizer=synth)
    assert summary.accepted == N
    stats = synth.teacher.stats
    assert stats["reword_errors"] == stats["reword_fallback"] > N and stats["retries"] >= stats["reword_errors"]
    for ex_id, ex in _dataset(tmp_path / "out").items():
        assert ex["meta"]["teacher"] == "reword:scripted"
        if ex_id in programmatic:
            assert ex["messages"] == programmatic[ex_id]["messages"]


def test_the_same_seed_and_cache_give_a_byte_identical_dataset(tmp_path: Path) -> None:
    with ScriptedServer(breaks_once) as server:
        run(_config(server.url), tmp_path / "a", cache_dir=tmp_path / "cache")
        asked = server.requests
        run(_config(server.url), tmp_path / "b", cache_dir=tmp_path / "cache")
        assert server.requests == asked  # every rewrite, regenerations included, came from the cache
    assert asked > 0
    assert (tmp_path / "a" / "dataset.jsonl").read_bytes() == (tmp_path / "b" / "dataset.jsonl").read_bytes()
