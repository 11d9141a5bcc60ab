"""Properties over generated examples: gold is the best, no corruption beats it, the budget holds."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from prove.reward import Call, RewardConfig, corruptions, score_calls

from .helpers import calls_of, example, gold_of

_ids = st.sampled_from(["IT-1", "IT-2", " IT-3", "it-4"])
_ARGS = {
    "find": st.fixed_dictionaries({"query": st.text(min_size=1, max_size=5)},
                                  optional={"limit": st.integers(1, 20)}),
    "get": st.fixed_dictionaries({"item_id": _ids}),
    "pay": st.fixed_dictionaries({"item_id": _ids, "amount": st.integers(1, 99) | st.floats(0.5, 99.5)},
                                 optional={"note": st.text(max_size=4)}),
    "ship": st.fixed_dictionaries({"item_id": _ids, "speed": st.sampled_from(["fast", "slow"])}),
    "other": st.fixed_dictionaries({"x": st.integers(0, 5)}),
}


@st.composite
def examples(draw: st.DrawFn) -> dict[str, Any]:
    """1-3 turns of 0-4 calls (at least one call in all), with random dependency edges."""
    n_turns = draw(st.integers(1, 3))
    turns: list[list[tuple[str, str, dict[str, Any], list[str]]]] = []
    made: list[str] = []
    for _ in range(n_turns):
        calls = []
        for _ in range(draw(st.integers(0, 4))):
            name = draw(st.sampled_from(sorted(_ARGS)))
            cid = f"c{len(made) + 1}"
            after = draw(st.lists(st.sampled_from(made), unique=True, max_size=2)) if made else []
            calls.append((cid, name, draw(_ARGS[name]), after))
            made.append(cid)
        turns.append(calls)
    if not made:
        turns[-1].append(("c1", "get", {"item_id": "IT-1"}, []))
    return example(*turns)


_configs = st.builds(RewardConfig, turns=st.sampled_from(["causal", "pooled"]),
                     beta=st.sampled_from([0.0, 0.5, 1.0]), scale=st.sampled_from(["raw", "unit"]))


@settings(max_examples=150, deadline=None)
@given(examples(), _configs, st.integers(0, 2**16))
def test_gold_is_the_best_and_no_corruption_beats_it(ex: dict[str, Any], config: RewardConfig, seed: int) -> None:
    gold = gold_of(ex, config)
    best = score_calls(gold, calls_of(ex, ok=None), config)
    assert abs(best.total - config.best()) < 1e-9
    for name, variant, calls in corruptions(gold, random.Random(seed), 4, config.values):
        s = score_calls(gold, calls, config)
        assert s.total <= best.total + 1e-9, (name, variant, s.breakdown())
        # Two gold calls that differ only in a default leave a wrong value room to match the
        # other one: a tie the example itself allows.
        ambiguous = name == "wrong_value" and len({c.name for c in gold.calls}) < len(gold.calls)
        if name in ("no_calls", "drop_one", "missing_key", "wrong_value", "random_calls") and not ambiguous:
            assert s.total < best.total - 1e-9, (name, variant, s.breakdown())


@settings(max_examples=150, deadline=None)
@given(examples(), st.sampled_from([0.0, 0.5, 1.0]), st.data())
def test_extra_calls_are_free_within_the_budget_and_cost_beyond(ex: dict[str, Any], beta: float,
                                                                data: st.DataObject) -> None:
    config = RewardConfig(preset="paper", beta=beta)
    gold = gold_of(ex, config)
    calls = calls_of(ex)
    base = score_calls(gold, calls, config).total
    extra = data.draw(st.integers(1, 2 * len(calls) + 2))
    padded = list(calls)
    for _ in range(extra):
        i = data.draw(st.integers(0, len(padded) - 1))
        c = padded[i]
        padded.insert(i + 1, Call(c.name, dict(c.args or {}), c.ok, c.turn))  # a repeat, in its own turn
    s = score_calls(gold, padded, config)
    if len(padded) <= gold.budget:
        assert s.components["efficiency"] == 0.0
        assert abs(s.total - base) < 1e-9
    else:
        assert s.components["efficiency"] < 0.0
        assert s.total < base


@settings(max_examples=100, deadline=None)
@given(examples(), st.integers(0, 6))
def test_efficiency_never_rewards_and_penalises_only_the_excess(ex: dict[str, Any], extra: int) -> None:
    config = RewardConfig(preset="paper")
    gold = gold_of(ex, config)
    filler = [Call("other", {"x": 1}, True, None)] * extra
    s = score_calls(gold, calls_of(ex) + filler, config)
    n = len(gold.calls) + extra
    assert s.components["efficiency"] == (0.0 if n <= gold.budget else -0.5 * (n - gold.budget) / gold.budget)


def test_swapping_two_equal_calls_is_no_corruption() -> None:
    """The same read asked twice, the second after a write, swapped is gold itself: never a variant."""
    ex = example([("c1", "get", {"item_id": "IT-1"}, [])],
                 [("c2", "pay", {"item_id": "IT-1", "amount": 5}, ["c1"])],
                 [("c3", "get", {"item_id": "IT-1"}, ["c1", "c2"])])
    gold = gold_of(ex)
    swaps = [v for name, v, _ in corruptions(gold, random.Random(0), 8, RewardConfig().values) if name == "swap_dependent"]
    assert swaps and not any("c1<->c3" in v or "c3<->c1" in v for v in swaps)
