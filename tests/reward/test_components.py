"""Each component on its own, with its edge cases, and the paper's arithmetic."""

from __future__ import annotations

import math

import pytest

from prove.reward import (
    Call,
    RewardConfig,
    Values,
    Weights,
    align,
    argument_values,
    budget,
    call_validity,
    coverage,
    efficiency,
    name_precision,
    score_calls,
    validity,
)
from prove.reward.gold import spec_from_schema, type_ok

from .helpers import FOUR, TOOLS, calls_of, example, gold_of, tool

SPECS = {s.name: s for s in map(spec_from_schema, TOOLS)}


# ----- the paper's arithmetic ----------------------------------------------------------------------

def test_budget_and_efficiency_match_the_paper() -> None:
    assert budget(4, 0.5) == 6
    assert efficiency(9, 4, alpha=0.5, beta=0.5) == pytest.approx(-0.25)


def test_nine_calls_on_four_gold_calls_end_to_end() -> None:
    gold = gold_of(FOUR)
    calls = calls_of(FOUR) + [Call("get", {"item_id": "IT-1"}, True, 0) for _ in range(5)]
    score = score_calls(gold, calls, RewardConfig(preset="paper"))
    assert score.budget == 6 and score.n_calls == 9
    assert score.components["efficiency"] == pytest.approx(-0.25)
    # Every other component is perfect: 0.5 + 0.5 + 0.2 + 0.1 - 0.15 * 0.25
    assert score.total == pytest.approx(1.3 - 0.0375)


@pytest.mark.parametrize(("n_gold", "beta", "expected"), [(0, 0.5, 0), (1, 0.5, 2), (3, 0.5, 5), (4, 0.0, 4),
                                                          (5, 1.0, 10), (7, 0.25, 9)])
def test_budget_rounds_up(n_gold: int, beta: float, expected: int) -> None:
    assert budget(n_gold, beta) == expected


def test_efficiency_is_free_within_the_budget_and_linear_beyond() -> None:
    assert efficiency(0, 4, 0.5, 0.5) == 0.0
    assert efficiency(6, 4, 0.5, 0.5) == 0.0
    assert efficiency(7, 4, 0.5, 0.5) == pytest.approx(-0.5 / 6)
    assert efficiency(12, 4, 0.5, 0.5) == pytest.approx(-0.5)
    assert efficiency(30, 4, 1.0, 0.5) == pytest.approx(-4.0)  # unbounded below, as in the paper
    assert efficiency(5, 4, 0.5, 0.0) == pytest.approx(-0.125)  # beta = 0: every extra call costs
    assert efficiency(3, 0, 0.5, 0.5) == 0.0  # no gold: no budget to divide by (abstention decides)


# ----- validity ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("call", "expected"), [
    (Call("nope", {"x": 1}, True), 0.0),                             # name not offered
    (Call(None, None, None), 0.0),                                   # malformed
    (Call("pay", None, False), 1 / 3),                               # arguments not an object
    (Call("pay", {"item_id": "IT-1"}, False), 1 / 3),                # required key missing
    (Call("pay", {"item_id": "IT-1", "amount": "65"}, True), 1 / 3),  # wrong JSON type
    (Call("pay", {"item_id": "IT-1", "amount": True}, True), 1 / 3),  # a bool is not a number
    (Call("pay", {"item_id": "IT-1", "amount": 65}, False), 2 / 3),   # executed, failed
    (Call("pay", {"item_id": "IT-1", "amount": 65.5}, True), 1.0),
    (Call("other", {"x": 3.0}, True), 1.0),                          # 3.0 is an integer in JSON Schema
    (Call("other", {"x": 3.5}, True), 1 / 3),
    (Call("find", {"query": "q", "limit": "x"}, False), 2 / 3),       # only required types are checked
])
def test_call_validity_levels(call: Call, expected: float) -> None:
    assert call_validity(call, SPECS) == pytest.approx(expected)


def test_unknown_outcomes() -> None:
    good, bad = Call("get", {"item_id": "a"}), Call("get", {})
    assert call_validity(good, SPECS, "skip") == 1.0 and call_validity(bad, SPECS, "skip") == 0.5
    assert call_validity(good, SPECS, "pass") == 1.0 and call_validity(good, SPECS, "fail") == pytest.approx(2 / 3)
    assert call_validity(bad, SPECS, "pass") == pytest.approx(1 / 3)


def test_validity_averages_and_is_zero_without_calls() -> None:
    assert validity([], SPECS) == 0.0
    calls = [Call("get", {"item_id": "a"}, True), Call("nope", {}, True), Call("get", {"item_id": "a"}, False)]
    assert validity(calls, SPECS) == pytest.approx((1 + 0 + 2 / 3) / 3)


def test_type_checks() -> None:
    assert type_ok(5, ("integer",)) and type_ok(5.0, ("integer",)) and not type_ok(True, ("integer",))
    assert type_ok(5, ("number",)) and not type_ok(False, ("number",))
    assert type_ok(None, ("string", "null")) and type_ok(object(), ())
    assert type_ok([1], ("array",)) and type_ok({}, ("object",)) and not type_ok("x", ("boolean",))


# ----- coverage and alignment ----------------------------------------------------------------------

def test_coverage_matches_names_and_keys_not_values() -> None:
    gold = gold_of(FOUR)
    calls = [Call(c.name, {k: "WRONG" for k in c.args}, True, 0) for c in calls_of(FOUR)]
    mu, shares = align(gold, calls, Values())
    assert mu == [0, 1, 2, 3]
    assert coverage(gold, mu) == 1.0
    assert argument_values(mu, shares) == 0.0


def test_coverage_needs_every_gold_key() -> None:
    gold = gold_of(FOUR)
    calls = calls_of(FOUR)
    del calls[2].args["amount"]
    mu, _ = align(gold, calls, Values())
    assert mu[2] == -1
    # c4 depends on c3, which is unmatched: its edge is not satisfied either.
    assert coverage(gold, mu) == pytest.approx(2 / 4)


def test_coverage_dependency_order() -> None:
    gold = gold_of(FOUR)
    calls = calls_of(FOUR)
    calls[1], calls[2] = calls[2], calls[1]  # pay before get: c3 out of order, c4 still after c3
    mu, _ = align(gold, calls, Values())
    assert coverage(gold, mu) == pytest.approx(3 / 4)
    assert coverage(gold, [-1, -1, -1, -1]) == 0.0


def test_coverage_of_parallel_calls_ignores_their_order() -> None:
    ex = example([("a", "get", {"item_id": "1"}, []), ("b", "get", {"item_id": "2"}, []),
                  ("c", "pay", {"item_id": "1", "amount": 1}, ["a", "b"])])
    gold = gold_of(ex)
    calls = calls_of(ex)
    calls[0], calls[1] = calls[1], calls[0]
    mu, shares = align(gold, calls, Values())
    assert mu == [1, 0, 2]  # each get is matched to the call with its values
    assert coverage(gold, mu) == 1.0 and argument_values(mu, shares) == 1.0


def test_alignment_is_one_to_one_and_prefers_agreeing_values() -> None:
    ex = example([("a", "get", {"item_id": "1"}, []), ("b", "get", {"item_id": "2"}, [])])
    gold = gold_of(ex)
    mu, shares = align(gold, [Call("get", {"item_id": "2"}, True, 0), Call("get", {"item_id": "1"}, True, 0)],
                       Values())
    assert mu == [1, 0] and shares == [1.0, 1.0]
    mu, _ = align(gold, [Call("get", {"item_id": "1"}, True, 0)], Values())
    assert mu == [0, -1]


def test_alignment_prefers_a_candidate_after_the_dependencies() -> None:
    ex = example([("a", "find", {"query": "q"}, []), ("b", "get", {"item_id": "1"}, ["a"])])
    calls = [Call("get", {"item_id": "1"}, True, 0), Call("find", {"query": "q"}, True, 0),
             Call("get", {"item_id": "9"}, True, 0)]
    mu, shares = align(gold_of(ex), calls, Values())
    assert mu == [1, 2] and shares == [1.0, 0.0]


def test_causal_turns() -> None:
    ex = example([("a", "find", {"query": "q"}, [])], [("b", "get", {"item_id": "1"}, ["a"])])
    gold = gold_of(ex)
    early = [Call("find", {"query": "q"}, True, 0), Call("get", {"item_id": "1"}, True, 0)]
    mu, _ = align(gold, early, Values(), causal=True)
    assert mu == [0, -1]  # turn 1's call was made in turn 0, before the user asked
    assert name_precision(early, gold, causal=True) == 0.5
    mu, _ = align(gold, early, Values(), causal=False)
    assert mu == [0, 1] and name_precision(early, gold, causal=False) == 1.0
    late = [Call("find", {"query": "q"}, True, 1), Call("get", {"item_id": "1"}, True, 1)]
    mu, _ = align(gold, late, Values(), causal=True)
    assert mu == [0, 1]  # late is allowed
    unknown = [Call("find", {"query": "q"}, True, None), Call("get", {"item_id": "1"}, True, None)]
    assert align(gold, unknown, Values(), causal=True)[0] == [0, 1]


# ----- names ---------------------------------------------------------------------------------------

def test_name_precision() -> None:
    gold = gold_of(FOUR)
    assert name_precision([], gold) == 0.0
    assert name_precision([Call("get", {}, True, 0), Call("other", {}, True, 0), Call(None, None, None, 0)],
                          gold) == pytest.approx(1 / 3)
    assert name_precision([Call("get", {}, True, 5)], gold) == 1.0  # a turn past the last one


# ----- argument values -----------------------------------------------------------------------------

@pytest.mark.parametrize(("gold_args", "model_args", "values", "expected"), [
    ({"item_id": "IT-1", "amount": 65}, {"item_id": "IT-1", "amount": 65.0}, Values(), 1.0),
    ({"item_id": "IT-1", "amount": 65.0}, {"item_id": "IT-1", "amount": 65}, Values(), 1.0),
    ({"item_id": "IT-1", "amount": 65}, {"item_id": "IT-1", "amount": 65.0}, Values(numbers=False), 0.5),
    ({"item_id": "IT-1", "amount": 0.3}, {"item_id": "IT-1", "amount": 0.1 + 0.2}, Values(), 1.0),
    ({"item_id": "IT-1", "amount": 1.0}, {"item_id": "IT-1", "amount": 1.01}, Values(), 0.5),
    ({"item_id": "IT-1", "amount": 1.0}, {"item_id": "IT-1", "amount": 1.01}, Values(tolerance=0.05), 1.0),
    ({"item_id": "IT-1", "amount": 1}, {"item_id": " IT-1 ", "amount": 1}, Values(), 1.0),
    ({"item_id": "IT-1", "amount": 1}, {"item_id": " IT-1 ", "amount": 1}, Values(strip=False), 0.5),
    ({"item_id": "IT-1", "amount": 1}, {"item_id": "it-1", "amount": 1}, Values(), 0.5),
    ({"item_id": "IT-1", "amount": 1}, {"item_id": "it-1", "amount": 1}, Values(casefold="all"), 1.0),
    ({"item_id": "IT-1", "amount": 65}, {"item_id": "IT-1", "amount": "65"}, Values(), 0.5),
    ({"item_id": "IT-1", "amount": 65}, {"item_id": "IT-1", "amount": "65"}, Values(numeric_strings=True), 1.0),
    ({"item_id": "IT-1", "amount": 1}, {"item_id": "IT-1", "amount": True}, Values(), 0.5),
])
def test_value_normalisation(gold_args: dict, model_args: dict, values: Values, expected: float) -> None:
    ex = example([("a", "pay", gold_args, [])])
    config = RewardConfig(preset="paper", values=values)
    mu, shares = align(gold_of(ex, config), [Call("pay", model_args, True, 0)], values)
    assert mu == [0]
    assert argument_values(mu, shares) == pytest.approx(expected)


def test_enum_values_ignore_case_only_where_the_schema_has_an_enum() -> None:
    ex = example([("a", "ship", {"item_id": "IT-1", "speed": "fast"}, [])])
    for speed, expected, values in (("FAST", 1.0, Values()), (" Fast ", 1.0, Values()),
                                    ("FAST", 0.5, Values(casefold="none"))):
        config = RewardConfig(preset="paper", values=values)
        mu, shares = align(gold_of(ex, config), [Call("ship", {"item_id": "IT-1", "speed": speed}, True, 0)], values)
        assert argument_values(mu, shares) == pytest.approx(expected), (speed, values)


def test_nested_values() -> None:
    tools = [tool("tag", {"ids": "array", "meta": "object"})]
    ex = example([("a", "tag", {"ids": [1, 2], "meta": {"k": " v ", "n": 2}}, [])], tools=tools)
    values = Values()
    mu, shares = align(gold_of(ex), [Call("tag", {"ids": [1.0, 2], "meta": {"k": "v", "n": 2.0}}, True, 0)], values)
    assert shares == [1.0]
    mu, shares = align(gold_of(ex), [Call("tag", {"ids": [2, 1], "meta": {"k": "v"}}, True, 0)], values)
    assert shares == [0.0]  # list order matters; a dict must have the same keys


def test_omitted_defaults() -> None:
    ex = example([("a", "find", {"query": "q", "limit": 10}, [])])
    calls = [Call("find", {"query": "q"}, True, 0)]
    config = RewardConfig(preset="paper")
    mu, shares = align(gold_of(ex, config), calls, config.values)
    assert mu == [0] and shares == [1.0]  # limit=10 is the schema's default
    strict = RewardConfig(preset="paper", omitted_defaults=False)
    assert align(gold_of(ex, strict), calls, strict.values)[0] == [-1]
    other = example([("a", "find", {"query": "q", "limit": 5}, [])])
    assert align(gold_of(other), calls, config.values)[0] == [-1]  # not the default: a missing key


def test_gold_call_without_arguments_and_none_values() -> None:
    tools = [tool("ping", {}, {"verbose": "boolean"})]
    ex = example([("a", "ping", {"verbose": None}, [])], tools=tools)  # None = left out (Arrow padding)
    gold = gold_of(ex)
    assert gold.calls[0].arguments == {}
    mu, shares = align(gold, [Call("ping", {"verbose": True}, True, 0)], Values())
    assert mu == [0] and shares == [1.0]


def test_argument_values_without_matches() -> None:
    assert argument_values([-1, -1], [0.0, 0.0]) == 0.0
    assert argument_values([], []) == 0.0


# ----- the total -----------------------------------------------------------------------------------

def test_gold_scores_the_best() -> None:
    config = RewardConfig(preset="paper")
    score = score_calls(gold_of(FOUR), calls_of(FOUR), config)
    assert score.total == pytest.approx(config.best()) == pytest.approx(1.3)
    assert score.components == {"validity": 1.0, "coverage": 1.0, "efficiency": 0.0, "name": 1.0, "args": 1.0,
                                "state": None}
    assert score.matched == score.ordered == 4


def test_zero_calls_score_zero() -> None:
    score = score_calls(gold_of(FOUR), [], RewardConfig(preset="paper"))
    assert score.total == 0.0
    assert all(v == 0.0 for k, v in score.components.items() if k != "state")


def test_unit_scale_and_weights() -> None:
    config = RewardConfig(preset="paper", scale="unit")
    assert score_calls(gold_of(FOUR), calls_of(FOUR), config).total == pytest.approx(1.0)
    half = score_calls(gold_of(FOUR), calls_of(FOUR)[:2], config)
    raw = score_calls(gold_of(FOUR), calls_of(FOUR)[:2], RewardConfig(preset="paper"))
    assert half.total == pytest.approx(raw.total / 1.3)
    only_cov = RewardConfig(preset="paper", weights=Weights(validity=0, coverage=1, efficiency=0, name=0, args=0))
    assert score_calls(gold_of(FOUR), calls_of(FOUR)[:2], only_cov).total == pytest.approx(0.5)


def test_weight_zero_is_still_reported() -> None:
    config = RewardConfig(preset="paper", weights=Weights(name=0.0))
    score = score_calls(gold_of(FOUR), [Call("other", {"x": 1}, True, 0)] + calls_of(FOUR), config)
    assert score.components["name"] == pytest.approx(0.8)
    assert score.total == pytest.approx(0.5 + 0.5 + 0.1)  # "other" is offered and valid; name weighs 0


def test_state_weight_adds_the_state_component() -> None:
    config = RewardConfig(preset="paper", weights=Weights(state=1.0))
    assert config.best(state=True) == pytest.approx(2.3) and config.best() == pytest.approx(1.3)
    score = score_calls(gold_of(FOUR), calls_of(FOUR), config, state=0.5)
    assert score.total == pytest.approx(1.8) and score.components["state"] == 0.5


# ----- abstention and clarification ----------------------------------------------------------------

@pytest.mark.parametrize("kind", ["abstention", "irrelevance", "clarification"])
def test_abstention(kind: str) -> None:
    ex = example([], kind=kind)
    gold = gold_of(ex)
    good = score_calls(gold, [], RewardConfig(preset="paper"))
    assert good.abstain and good.total == 1.0 and good.components["coverage"] == 1.0
    bad = score_calls(gold, [Call("get", {"item_id": "1"}, True, 0)], RewardConfig(preset="paper"))
    assert bad.abstain and bad.total == 0.0
    assert score_calls(gold, [], RewardConfig(preset="paper", abstain_score=1.3)).total == 1.3


def test_clarification_turn_penalises_a_guess() -> None:
    """Turn 0 needs a question, turn 1 the call: guessing in turn 0 earns no name credit."""
    ex = example([], [("a", "pay", {"item_id": "IT-1", "amount": 25}, [])], kind="clarification")
    gold = gold_of(ex)
    asked = score_calls(gold, [Call("pay", {"item_id": "IT-1", "amount": 25}, True, 1)], RewardConfig(preset="paper"))
    guessed = score_calls(gold, [Call("pay", {"item_id": "IT-1", "amount": 10}, True, 0),
                                 Call("pay", {"item_id": "IT-1", "amount": 25}, True, 1)], RewardConfig(preset="paper"))
    only_guess = score_calls(gold, [Call("pay", {"item_id": "IT-1", "amount": 25}, True, 0)], RewardConfig(preset="paper"))
    assert asked.total == pytest.approx(1.3)
    assert guessed.total < asked.total
    assert only_guess.total < guessed.total and only_guess.components["coverage"] == 0.0
    pooled = score_calls(gold, [Call("pay", {"item_id": "IT-1", "amount": 25}, True, 0)],
                         RewardConfig(preset="paper", turns="pooled"))
    assert pooled.total == pytest.approx(1.3)


def test_score_breakdown_shapes() -> None:
    score = score_calls(gold_of(FOUR), calls_of(FOUR)[:3], RewardConfig(preset="paper"))
    flat = score.breakdown()
    assert flat["score"] == score.total and flat["n_calls"] == 3 and flat["n_gold"] == 4 and flat["budget"] == 6
    metrics = score.metrics()
    assert all(isinstance(v, float) for v in metrics.values())
    assert math.isnan(metrics["state"])
