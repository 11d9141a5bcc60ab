"""Whole episodes against the scripted model server (a test double that replays written answers,
not a model), on live in-process sessions of the banking and calendar servers."""

from __future__ import annotations

import pytest

from prove.records import Example, Trajectory
from prove.reward import COMPONENTS, RewardConfig, Scorer
from prove.rollout import (
    Limits,
    OpenAIPolicy,
    Sampling,
    ScriptedModel,
    ScriptedServer,
    evaluate,
    local_env,
    oracle,
    run_episode,
    summarize,
)


def scoring(examples: list[Example]) -> dict:
    """The reward as a rollout takes it: a scoring callable, and whether it wants the episode's diff."""
    scorer = Scorer(examples)
    return {"score": scorer.breakdown, "state": scorer.state}


@pytest.mark.parametrize("form", ["native", "hermes"])
def test_the_oracle_earns_the_best_score(examples: list[Example], form: str) -> None:
    with ScriptedServer(ScriptedModel(oracle(examples), form=form)) as server, \
            OpenAIPolicy(server.url, "scripted", timeout=10) as policy:
        trajectories = evaluate(examples, policy, env=local_env(call_timeout=5), concurrency=3,
                                **scoring(examples))
    config = RewardConfig()
    for traj, ex in zip(trajectories, examples, strict=True):
        Trajectory.model_validate(traj)                       # a valid record
        assert traj["example_id"] == ex.id
        assert traj["meta"]["status"] == "done", traj["meta"]
        assert traj["reward"]["score"] == pytest.approx(config.best(traj["reward"]["abstain"])), (ex.id, traj["reward"])
        assert traj["meta"]["fingerprint"] == ex.fingerprint
        if ex.gold_calls():
            assert traj["meta"]["forms"].get(form) == len(ex.gold_calls())
    report = summarize(trajectories, examples, components=COMPONENTS, best=RewardConfig().best())
    assert report["overall"]["success"] == 1.0 and report["overall"]["perfect"] == 1.0
    assert report["overall"]["state_match"] == 1.0 and report["overall"]["errors"] == 0
    assert set(report["by_server"]) == {"banking", "calendar"}
    assert set(report["by_kind"]) == {"multi_turn", "clarification", "abstention"}
    assert report["by_server"]["banking"]["n"] == 4
    assert report["overall"]["calls"] == pytest.approx(6 / 4)    # 2 + 2 + 1 + 1 calls, four examples with gold
    assert report["overall"]["over_budget"] == 0.0


def test_follow_up_turns_are_sent_to_the_model(examples: list[Example], oracle_server: ScriptedServer,
                                               by_id: dict[str, Example]) -> None:
    with OpenAIPolicy(oracle_server.url, "scripted") as policy:
        traj = run_episode(by_id["bank-clarify"], policy, **scoring([by_id["bank-clarify"]]))
    last = oracle_server.requests[-1]
    assert [m["role"] for m in last["messages"]] == ["system", "user", "assistant", "user", "assistant", "tool"]
    assert last["messages"][3]["content"] == "40 dollars."
    assert {t["function"]["name"] for t in last["tools"]} == {t.function.name for t in by_id["bank-clarify"].tools}
    assert traj["meta"]["user_turns"] == 2 and traj["meta"]["calls"][0]["turn"] == 1


def test_bad_calls_are_executed_recorded_and_scored(by_id: dict[str, Example]) -> None:
    ex = by_id["bank-chain"]
    first = ex.messages[1].content
    steps = [
        {"content": '<tool_call>{"name": "transfer_between_accounts", "arguments": {"from_account_id": '
                    '</tool_call>', "form": "hermes"},                                      # malformed
        {"calls": [{"name": "wire_money", "arguments": {"amount": 50}}]},                  # unknown tool
        {"calls": [{"name": "get_account", "arguments": {"account_id": "ACC-99999"}}]},    # not found
        {"calls": [{"name": "transfer_between_accounts", "arguments": {
            "from_account_id": "ACC-10001", "to_account_id": "ACC-10002", "amount": 50.0}}]},
        {"calls": [{"name": "get_account", "arguments": {"account_id": "ACC-10002"}}]},
        {"content": "Done."},
    ]
    with ScriptedServer(ScriptedModel({first: steps})) as server, OpenAIPolicy(server.url, "m") as policy:
        [traj] = evaluate([ex], policy, concurrency=1, **scoring([ex]))
    codes = [c["code"] for c in traj["meta"]["calls"]]
    assert codes == ["invalid_arguments", "unknown_tool", "not_found", None, None]
    r = traj["reward"]
    assert r["n_calls"] == 5 and r["coverage"] == 1.0 and r["validity"] < 1.0
    assert r["score"] < RewardConfig().best()
    assert traj["meta"]["fingerprint"] == ex.fingerprint       # the state is right all the same


def test_caps_end_the_episode(by_id: dict[str, Example]) -> None:
    ex = by_id["bank-chain"]
    loop = [{"calls": [{"name": "list_accounts", "arguments": {}}]}] * 20
    with ScriptedServer(ScriptedModel({ex.messages[1].content: loop})) as server, \
            OpenAIPolicy(server.url, "m") as policy:
        [traj] = evaluate([ex], policy, limits=Limits(max_assistant_turns=4), concurrency=1, **scoring([ex]))
    assert traj["meta"]["status"] == "assistant_turn_cap" and traj["meta"]["n_calls"] == 4
    assert traj["reward"]["efficiency"] < 0          # 4 calls against a budget of 3


def test_a_policy_timeout_ends_the_episode_and_is_reported(by_id: dict[str, Example]) -> None:
    ex = by_id["bank-two-turns"]
    steps = [{"calls": [{"name": "get_account", "arguments": {"account_id": "ACC-10001"}}]},
             {"content": "slow", "delay": 3}]
    with ScriptedServer(ScriptedModel({ex.messages[1].content: steps})) as server, \
            OpenAIPolicy(server.url, "m", timeout=0.5, retries=1) as policy:
        [traj] = evaluate([ex], policy, concurrency=1, **scoring([ex]))
        assert len([r for r in server.requests if len(r["messages"]) == 4]) == 2      # one retry
    assert traj["meta"]["status"] == "policy_error" and "timeout" in traj["meta"]["error"]
    assert traj["meta"]["n_calls"] == 1 and 0 < traj["reward"]["score"] < RewardConfig().best()
    report = summarize([traj], [ex], components=COMPONENTS)
    assert report["overall"]["errors"] == 1 and report["overall"]["status"] == {"policy_error": 1}


def test_http_errors_are_retried_then_reported(by_id: dict[str, Example]) -> None:
    ex = by_id["cal-list"]
    with ScriptedServer(ScriptedModel({ex.messages[1].content: [{"status": 503}]})) as server, \
            OpenAIPolicy(server.url, "m", retries=2) as policy:
        policy_error = run_episode(ex, policy, **scoring([ex]))
        assert len(server.requests) == 3
    assert policy_error["meta"]["status"] == "policy_error" and "http_503" in policy_error["meta"]["error"]


def test_sampling_settings_are_sent(oracle_server: ScriptedServer, by_id: dict[str, Example]) -> None:
    policy = OpenAIPolicy(oracle_server.url.removesuffix("/v1"), "the-model", api_key="k",
                          sampling=Sampling(temperature=0.7, max_tokens=64, seed=3, extra={"top_k": 20}))
    with policy:
        run_episode(by_id["cal-list"], policy)
    body = oracle_server.requests[0]
    assert (body["model"], body["temperature"], body["max_tokens"], body["seed"], body["top_k"]) == \
        ("the-model", 0.7, 64, 3, 20)
