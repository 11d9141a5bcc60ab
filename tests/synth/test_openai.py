"""The OpenAI-compatible teacher against a local scripted chat-completions server (no timing assertions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prove.synth import SynthConfig, Synthesizer, run
from prove.synth.teachers.openai import OpenAITeacher
from prove.synth.teachers.scripted import Reply, ScriptedServer, oracle, script


def _synth(url: str, cache: Path, **options) -> Synthesizer:
    opts = {"concurrency": 1, "timeout": 3.0, "retries": 2, "backoff": 0.01, **options}
    cfg = SynthConfig(n=4, seed=11, servers=["banking"], teacher=f"openai:scripted@{url}", teacher_options=opts)
    return Synthesizer(cfg, cache_dir=cache)


def _task_index(synth: Synthesizer) -> int:
    return next(i for i in range(100) if synth.spec(i).kind == "multi_turn")


def test_bad_answers_are_validated_and_recovered(tmp_path: Path) -> None:
    with ScriptedServer(oracle()) as server:
        probe = _synth(server.url, tmp_path / "probe")
        i = _task_index(probe)
        account = probe.spec(i).context.ids("account")[0]

        def get(args):
            return Reply.call("get_account", args)

        server.handler = script([
            get('{"account_id": '),                              # invalid JSON arguments
            Reply.call("get_acount", {"account_id": account}),   # unknown tool
            get({"account_id": "ACC-99999"}),                    # an invented entity
            Reply(delay=8.0),                                    # past the client's timeout: retried
            get({"account_id": account}),
            Reply("The available balance is shown above."),
        ], queries=[f"What's the balance of {account}?"])
        synth = _synth(server.url, tmp_path / "cache")
        cand = synth.example(i)
    assert cand.info["status"] == "accepted", cand.info
    assert cand.info["regenerations"] == 3
    teacher = synth.teacher
    assert isinstance(teacher, OpenAITeacher)
    assert teacher.stats["timeouts"] == 1 and teacher.stats["retries"] >= 1
    ex = json.loads(cand.line)
    first_calls = ex["turns"][0]["calls"]
    assert [(c["name"], c["arguments"]) for c in first_calls] == [("get_account", {"account_id": account})]
    executed = [tc["function"]["name"] for m in ex["messages"] for tc in m.get("tool_calls") or []]
    assert "get_acount" not in executed  # rejected moves never reach the session or the record
    assert ex["turns"][0]["user"] == f"What's the balance of {account}?"


def test_the_response_cache_replays_a_run_exactly(tmp_path: Path) -> None:
    with ScriptedServer(oracle()) as server:
        synth = _synth(server.url, tmp_path / "cache")
        lines = [synth.example(i).line for i in range(3)]
        asked = server.requests
        again = _synth(server.url, tmp_path / "cache")
        assert [again.example(i).line for i in range(3)] == lines
        assert server.requests == asked  # every request, graph classification included, came from the cache
    assert any(lines)


def test_server_errors_are_retried_and_exhaustion_rejects(tmp_path: Path) -> None:
    with ScriptedServer(oracle()) as server:
        probe = _synth(server.url, tmp_path / "probe")
        i = _task_index(probe)
        server.handler = script([Reply(status=500, body={"error": "busy"}), Reply(status=503, body={"error": "x"})])
        synth = _synth(server.url, tmp_path / "a")
        assert synth.example(i).info["status"] == "accepted"
        assert synth.teacher.stats["http_errors"] == 2
        server.handler = script([Reply(status=500, body={})] * 10, queries=["hello"])
        synth = _synth(server.url, tmp_path / "b", retries=1)
        cand = synth.example(i)
    assert cand.info["status"] == "teacher_error"


def test_concurrency_is_bounded(tmp_path: Path) -> None:
    with ScriptedServer(oracle(delay=0.02)) as server:
        cfg = SynthConfig(n=12, seed=2, servers=["banking"], shard_size=12,
                          teacher=f"openai:scripted@{server.url}", teacher_options={"concurrency": 3})
        summary = run(cfg, tmp_path / "out", cache_dir=tmp_path / "cache")
        assert summary.accepted >= 1
        assert 1 <= server.peak <= 3


def test_the_llm_classifier_refines_the_graph_and_is_cached(tmp_path: Path) -> None:
    def handler(body):
        text = body["messages"][0]["content"]
        if text.startswith("Classify the dependency") and "tool get_profile " in text:
            return Reply('Sure: {"labels": {"list_accounts": "implicit", "get_card": "sideways"}}')
        return oracle()(body)

    with ScriptedServer(handler) as server:
        synth = _synth(server.url, tmp_path / "cache")
        graph = synth.graphs["banking"]
        assert graph.classifier.startswith("openai:")
        assert graph.label("get_profile", "list_accounts") == "implicit"
        before = server.requests
        _synth(server.url, tmp_path / "cache")
        assert server.requests == before
    assert list((tmp_path / "cache" / "graphs").glob("banking-*.json"))


def test_teacher_spec_is_checked() -> None:
    from prove.synth.teachers import parse_teacher

    assert parse_teacher("programmatic") == ("programmatic", {})
    assert parse_teacher("openai:Qwen/Qwen3-8B@http://localhost:8000/v1") == (
        "openai", {"model": "Qwen/Qwen3-8B", "base_url": "http://localhost:8000/v1"})
    with pytest.raises(ValueError):
        parse_teacher("openai:model-without-url")
    with pytest.raises(ValueError):
        parse_teacher("gpt")
