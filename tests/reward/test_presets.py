"""The `prove` preset's rules, each on a small hand-made trajectory, beside the `paper` preset."""

from __future__ import annotations

import json

import pytest

from prove.calls import Outcomes, ParseLimits, outcome_reader
from prove.records import Example
from prove.reward import Call, RewardConfig, Scorer, prepare, score_calls

from .helpers import FOUR, TOOLS, calls_of, example

PROVE = RewardConfig()
PAPER = RewardConfig(preset="paper")
# FOUR's tools with their effects declared as MCP does: find and get read, pay and ship write.
READS = {"find", "get", "other"}
TOOLS_FX = [{**t, "function": {**t["function"], "annotations": {"readOnlyHint": t["function"]["name"] in READS}}}
            for t in TOOLS]
EX = {**FOUR, "tools": TOOLS_FX}


def _total(calls: list[Call], config: RewardConfig = PROVE) -> float:
    return score_calls(prepare(EX, config), calls, config).total


def test_prove_is_the_default_and_paper_keeps_the_formula() -> None:
    assert RewardConfig().preset == "prove"
    assert _total(calls_of(EX), PAPER) == pytest.approx(1.3)
    assert _total(calls_of(EX)) == pytest.approx(PROVE.best())


def test_a_copy_with_another_preset_has_that_presets_weights() -> None:
    copied = PROVE.model_copy(update={"preset": "paper"})
    assert copied.w == PAPER.w
    assert _total(calls_of(EX), copied) == pytest.approx(1.3)


def test_a_repeated_or_unmatched_write_is_never_free() -> None:
    gold = calls_of(EX)
    twice = gold[:3] + [gold[2]] + gold[3:]                        # pay twice: within the budget of 6
    stray = gold + [Call("pay", {"item_id": "IT-9", "amount": 1}, True, 0)]
    assert _total(twice, PAPER) == pytest.approx(_total(gold, PAPER))  # the paper's loophole, kept there
    for calls in (twice, stray):
        assert _total(calls) < _total(gold)
    # Whatever the budget: a larger beta makes repeated reads cheaper, never a write free.
    wide = RewardConfig(beta=10.0)
    assert _total(twice, wide) < _total(gold, wide)


def test_a_wrong_value_costs_at_least_an_unneeded_read() -> None:
    for n in range(1, 5):
        ex = example([(f"c{i}", "get", {"item_id": f"IT-{i}"}, []) for i in range(n)], tools=TOOLS_FX)
        gold = prepare(ex, PROVE)
        calls = calls_of(ex)
        best = score_calls(gold, calls, PROVE).total
        wrong = [Call(c.name, {"item_id": "IT-X"} if i == 0 else c.args, True, 0) for i, c in enumerate(calls)]
        read = calls + [Call("find", {"query": "lamp"}, True, 0)]
        repeat = calls + [calls[0]]
        cost_wrong = best - score_calls(gold, wrong, PROVE).total
        assert cost_wrong >= best - score_calls(gold, read, PROVE).total > 0
        assert cost_wrong >= best - score_calls(gold, repeat, PROVE).total > 0


def test_validity_cannot_be_raised_by_adding_calls() -> None:
    gold = calls_of(EX)
    broken = gold[:3] + [Call("ship", {"item_id": "IT-1"}, False, 0)]  # speed missing, failed
    diluted = broken + [gold[0], gold[1], gold[1]]                     # valid repeats
    for config in (PROVE, PAPER):
        before = score_calls(prepare(EX, config), broken, config).components["validity"]
        after = score_calls(prepare(EX, config), diluted, config).components["validity"]
        if config is PAPER:
            assert after > before  # the paper's mean is diluted
        else:
            assert after <= before + 1e-12


def test_unknown_effects_count_as_writes() -> None:
    gold = calls_of(FOUR)
    extra_read = gold + [gold[0]]
    # Without declared effects a repeated lookup costs as much as a write would.
    plain = score_calls(prepare(FOUR, PROVE), extra_read, PROVE).components["efficiency"]
    known = score_calls(prepare(EX, PROVE), extra_read, PROVE).components["efficiency"]
    assert plain < known < 0


def test_the_final_state_counts_where_the_episode_was_executed(by_id: dict[str, Example]) -> None:
    ex = by_id["chain-3"]
    a, move, b = ex.gold_calls()
    scorer = Scorer([ex], execute=True)
    gold = [Call(c.name, dict(c.arguments), None, 0) for c in (a, move, b)]
    # Another valid route to the same state: the wallets listed instead of the source fetched.
    route = [Call("list_wallets", {}, None, 0)] + gold[1:]
    wrong = [gold[0], Call("move", {**move.arguments, "amount": 11.5}, None, 0), gold[2]]
    twice = gold[:2] + [gold[1]] + gold[2:]
    s_gold, s_route, s_wrong, s_twice = (scorer.score_calls(ex.id, c) for c in (gold, route, wrong, twice))
    assert s_gold.total == pytest.approx(s_gold.best) == pytest.approx(PROVE.best(state=True))
    assert s_route.components["state"] == 1.0 and s_wrong.components["state"] <= PROVE.state_miss
    assert s_route.total > s_wrong.total and s_route.total > s_twice.total
    paper = Scorer([ex], PAPER, execute=True)
    assert paper.score_calls(ex.id, route).total < paper.score_calls(ex.id, wrong).total  # what prove fixes


def test_a_live_fingerprint_gives_the_state(by_id: dict[str, Example]) -> None:
    ex = by_id["chain-3"]
    scorer = Scorer([ex])
    gold = [Call(c.name, dict(c.arguments), True, 0) for c in ex.gold_calls()]
    assert scorer.score_calls(ex.id, gold).components["state"] is None          # not executed: not counted
    assert scorer.score_calls(ex.id, gold, fingerprint=ex.fingerprint).components["state"] == 1.0
    assert scorer.score_calls(ex.id, gold, fingerprint="other").components["state"] == 0.0


def test_scoring_leaves_the_calls_as_they_were(by_id: dict[str, Example]) -> None:
    ex = by_id["chain-3"]
    calls = [Call(c.name, dict(c.arguments), None, 0) for c in ex.gold_calls()]
    Scorer([ex], execute=True).score_calls(ex.id, calls)
    assert all(c.ok is None for c in calls)


def test_examples_of_servers_not_installed_say_execution_is_off() -> None:
    record = {**EX, "servers": ["bfcl_gorilla_file_system"]}
    score = Scorer([record], execute=True).score_calls("ex", calls_of(EX, ok=None))
    assert score.details["execution"].startswith("off: server(s) bfcl_gorilla_file_system not installed")
    assert score.components["state"] is None and score.total == pytest.approx(PROVE.best())


@pytest.mark.parametrize(("body", "ok"), [
    ('{"error": {"code": "not_found", "message": "x"}}', False),
    ('{"error": "No such file."}', False),
    ('{"error": "bad", "code": 404}', False),
    ("Error during execution: division by zero", False),
    ("error: no such directory", False),
    ('{"isError": true, "content": []}', False),
    ('{"status": "error", "message": "x"}', False),
    ('{"id": 7, "error": "timeout", "finished": true}', True),   # a record that has an error field
    ('{"error": null, "result": 3}', True),
    ('{"error": ""}', True),
    ("The error was fixed.", True),
])
def test_common_error_shapes_are_failures(body: str, ok: bool) -> None:
    assert outcome_reader()(body) is ok


def test_error_shapes_are_configurable() -> None:
    strict = outcome_reader(Outcomes(prefixes=("failed",), flags={}))
    assert not strict("FAILED: disk full") and strict("Error during execution: x")
    scorer = Scorer([EX], RewardConfig(outcomes=Outcomes(prefixes=("failed",))))
    messages = [{"role": "user", "content": "go"},
                {"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "find", "arguments":
                                                                              '{"query": "lamp"}'}}]},
                {"role": "tool", "tool_call_id": "a", "content": "failed: index offline"}]
    score = scorer.score({"example_id": "ex", "messages": messages})
    assert score.components["validity"] < 1.0  # the call failed: validity stops at its second level


@pytest.mark.parametrize("config", [PROVE, PAPER], ids=["prove", "paper"])
def test_calls_past_the_parsers_cap_count_as_malformed_calls(config: RewardConfig) -> None:
    capped = config.model_copy(update={"parsing": ParseLimits(max_calls=4)})
    scorer = Scorer([EX], capped)
    gold = "".join(f'<tool_call>{{"name": "{c.name}", "arguments": {json.dumps(c.args)}}}</tool_call>'
                   for c in calls_of(EX))
    junk = "<tool_call>{}</tool_call>" * 6
    flooded = scorer.score({"example_id": EX["id"], "completion": gold + junk})
    assert flooded.n_calls == 10 and flooded.details["unread_calls"] == 6
    # The six unread calls score exactly as six malformed calls read one by one would.
    read = Scorer([EX], config).score({"example_id": EX["id"], "completion": gold + junk})
    assert flooded.breakdown() == {**read.breakdown(), "unread_calls": 6}
    assert flooded.total < scorer.score({"example_id": EX["id"], "completion": gold}).total
