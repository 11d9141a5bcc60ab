"""The scorer on the toy dataset: reference conversations, execution, the state metric, turns."""

from __future__ import annotations

import json

import pytest

from prove.records import Example, Trajectory
from prove.reward import Call, RewardConfig, Scorer, Weights, prepare

PAPER = RewardConfig(preset="paper")


def _text(calls: list[tuple[str, dict]], responses: list[str] | None = None) -> str:
    out = []
    for i, (name, args) in enumerate(calls):
        out.append("<tool_call>\n" + json.dumps({"name": name, "arguments": args}) + "\n</tool_call>")
        if responses is not None:
            out.append("<tool_response>\n" + responses[i] + "\n</tool_response>")
    return "\n".join(out)


def test_reference_conversations_score_the_best(examples: list[Example]) -> None:
    """Each example's own messages are a perfect trajectory: its outcomes are in the tool messages."""
    config = RewardConfig(preset="paper")
    scorer = Scorer(examples, config)
    for ex in examples:
        score = scorer.score({"example_id": ex.id, "messages": [m.model_dump(exclude_none=True) for m in ex.messages]})
        assert score.total == pytest.approx(config.best(abstain=not ex.gold_calls())), ex.id
        assert score.components["state"] is None  # not computed without execution


def test_trajectory_models_are_accepted(examples: list[Example]) -> None:
    ex = examples[1]
    scorer = Scorer(examples, PAPER)
    traj = Trajectory(example_id=ex.id, messages=ex.messages)
    assert scorer.score(traj).total == pytest.approx(1.3)
    with pytest.raises(KeyError, match="no example"):
        scorer.score({"example_id": "missing", "messages": []})


def test_execution_fills_outcomes_and_the_state_metric(by_id: dict[str, Example]) -> None:
    ex = by_id["chain-3"]
    gold = [(c.name, c.arguments) for c in ex.gold_calls()]
    plain = Scorer([ex], PAPER)
    live = Scorer([ex], PAPER, execute=True)
    assert live.state and not plain.state
    completion = {"example_id": ex.id, "completion": _text(gold)}
    assert plain.score(completion).total == pytest.approx(1.3)  # two checkable levels of validity
    assert plain.score(completion).components["state"] is None
    perfect = live.score(completion)
    assert perfect.total == pytest.approx(1.3) and perfect.components["state"] == 1.0
    wrong_pin = [gold[0], (gold[1][0], {**gold[1][1], "pin": "0000"}), gold[2]]
    failed = live.score({"example_id": ex.id, "completion": _text(wrong_pin)})
    assert failed.components["validity"] == pytest.approx((1 + 2 / 3 + 1) / 3)
    assert failed.components["state"] == 0.0  # nothing moved
    twice = live.score({"example_id": ex.id, "completion": _text(gold[:2] + gold[1:])})
    assert twice.total == pytest.approx(1.3)  # within the budget, by the paper's components ...
    assert twice.components["state"] < 1.0  # ... but the money moved twice


def test_recorded_outcomes_win_over_execution(by_id: dict[str, Example]) -> None:
    ex = by_id["read-1"]
    (call,) = ex.gold_calls()
    err = json.dumps({"error": {"code": "not_found", "message": "x"}})
    text = _text([(call.name, call.arguments)], [err])
    assert Scorer([ex], PAPER, execute=True).score({"example_id": ex.id, "completion": text}).components["validity"] == \
        pytest.approx(2 / 3)


def test_state_weight_makes_the_state_count(by_id: dict[str, Example]) -> None:
    ex = by_id["chain-3"]
    gold = [(c.name, c.arguments) for c in ex.gold_calls()]
    config = RewardConfig(preset="paper", weights=Weights(state=0.5))
    scorer = Scorer([ex], config)
    assert scorer.state  # a weighted state is always computed, by replaying the episode
    best = scorer.score({"example_id": ex.id, "completion": _text(gold)})
    twice = scorer.score({"example_id": ex.id, "completion": _text(gold[:2] + gold[1:])})
    assert best.total == pytest.approx(config.best(state=True)) == pytest.approx(1.8)
    assert twice.total < best.total


def test_an_episode_diff_given_by_the_caller_is_used(by_id: dict[str, Example]) -> None:
    from prove.env import Diff

    ex = by_id["chain-3"]
    scorer = Scorer([ex], PAPER, state=True)
    msgs = [m.model_dump(exclude_none=True) for m in ex.messages]
    assert scorer.score({"example_id": ex.id, "messages": msgs}, diff=Diff()).components["state"] == 0.0
    assert scorer.score({"example_id": ex.id, "messages": msgs}).components["state"] == 1.0


def test_turns_causal_and_pooled(by_id: dict[str, Example]) -> None:
    ex = by_id["two-turns"]
    calls = [(c.name, c.arguments) for c in ex.gold_calls()]
    # Everything done in the first turn, before the user asked for the move.
    early = [{"role": "user", "content": ex.turns[0].user}] + [
        {"role": "assistant", "tool_calls": [{"id": f"t{i}", "type": "function",
                                              "function": {"name": n, "arguments": json.dumps(a)}}]}
        for i, (n, a) in enumerate(calls)]
    causal = Scorer([ex], PAPER).score({"example_id": ex.id, "messages": early})
    pooled = Scorer([ex], RewardConfig(preset="paper", turns="pooled")).score({"example_id": ex.id, "messages": early})
    assert pooled.total == pytest.approx(1.3)
    assert causal.total < pooled.total and causal.matched == 1


def test_clarification_example(by_id: dict[str, Example]) -> None:
    ex = by_id["clarify"]
    msgs = [m.model_dump(exclude_none=True) for m in ex.messages]
    scorer = Scorer([ex], PAPER)
    assert scorer.score({"example_id": ex.id, "messages": msgs}).total == pytest.approx(1.3)
    (call,) = ex.gold_calls()
    guess = [msgs[0], msgs[1], {"role": "assistant", "tool_calls": [
        {"id": "g", "type": "function", "function": {"name": call.name, "arguments": json.dumps(call.arguments)}}]}]
    assert scorer.score({"example_id": ex.id, "messages": guess}).total < 0.6


def test_abstention_examples(by_id: dict[str, Example]) -> None:
    for name in ("abstain", "irrelevant"):
        ex = by_id[name]
        scorer = Scorer([ex], PAPER, execute=True)
        assert scorer.score({"example_id": ex.id, "completion": "I can't do that."}).total == 1.0
        call = _text([("get_wallet", {"wallet_id": "W-10002"})])
        assert scorer.score({"example_id": ex.id, "completion": call}).total == 0.0


def test_hidden_and_unknown_tools_fail_without_running(by_id: dict[str, Example]) -> None:
    ex = by_id["read-1"]
    score = Scorer([ex], PAPER, execute=True).score({"example_id": ex.id, "completion": _text([("count_wallets", {})])})
    assert score.components["validity"] == 0.0 and score.components["state"] == 1.0


def test_batch_scoring(examples: list[Example]) -> None:
    scorer = Scorer(examples, PAPER)
    trajs = [{"example_id": ex.id, "completion": ""} for ex in examples]
    scores = scorer.score_batch(trajs)
    assert [s.total for s in scores] == [1.0 if not ex.gold_calls() else 0.0 for ex in examples]


def test_prepare_one_turn(by_id: dict[str, Example]) -> None:
    ex = by_id["two-turns"]
    gold = prepare(ex, turn=1)
    assert [s.id for s in gold.calls] == ["c2", "c3"]
    assert gold.calls[0].deps == () and gold.calls[1].deps == (0,)  # c1 is done in the prompt
    assert gold.prefix == (("get_wallet", ex.turns[0].calls[0].arguments, 0),)
    assert prepare(ex, turn=7).calls == ()
    scorer = Scorer([ex], PAPER, execute=True)
    calls = [Call(s.name, dict(s.arguments), None, None) for s in gold.calls]
    score = scorer.score_calls(gold, calls)
    assert score.total == pytest.approx(1.3) and score.components["state"] == 1.0


def test_gold_without_tool_schemas_uses_the_gold() -> None:
    gold = prepare({"turns": [{"user": "u", "calls": [{"name": "f", "arguments": {"a": 1, "b": "x"}},
                                                      {"name": "f", "arguments": {"a": 2}}]}]})
    assert [s.id for s in gold.calls] == ["c1", "c2"]
    spec = gold.specs["f"]
    assert spec.required == (("a", ("integer",)),)


def test_gold_without_tool_schemas_uses_the_servers(by_id: dict[str, Example]) -> None:
    ex = by_id["chain-3"].model_dump(mode="json", exclude={"tools"})
    gold = prepare(ex)
    assert {"get_wallet", "list_wallets", "move", "explode"} <= set(gold.specs)  # every visible tool
    assert dict(gold.specs["move"].required)["amount"] == ("number",)
    assert set(prepare({**ex, "servers": ["no_such_server"]}).specs) == {"get_wallet", "move"}  # from the gold
