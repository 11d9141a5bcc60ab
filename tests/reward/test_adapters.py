"""The trainers' reward hooks, called exactly as VERL's reward managers and TRL's GRPOTrainer call them."""

from __future__ import annotations

from prove.reward import RewardConfig

import functools
import json
import math
from collections import defaultdict
from typing import Any

import pytest

from prove.records import Example
from prove.integrations.trl import trl_reward
from prove.integrations.verl.reward import compute_score, compute_score_batch
from prove.reward.config import COMPONENTS

BEST = RewardConfig().best()  # the default preset's best without the state component


def _hermes(calls: list[tuple[str, dict]]) -> str:
    return "".join("<tool_call>\n" + json.dumps({"name": n, "arguments": a}) + "\n</tool_call>" for n, a in calls)


def _gold(ex: Example, turn: int | None = None) -> list[tuple[str, dict]]:
    turns = ex.turns if turn is None else [ex.turns[turn]]
    return [(c.name, c.arguments) for t in turns for c in t.calls]


class _FakeArray:
    """What a Parquet list column looks like once VERL has it (a numpy array: has `tolist`)."""

    def __init__(self, items: list[Any]) -> None:
        self._items = items

    def tolist(self) -> list[Any]:
        return list(self._items)


def _verl_naive_loop(compute: Any, batch: list[dict[str, Any]]) -> tuple[list[float], dict[str, list[Any]]]:
    """The body of VERL's NaiveRewardManager.__call__ (per-sample keyword call, dict result)."""
    rewards: list[float] = []
    reward_extra_info: dict[str, list[Any]] = defaultdict(list)
    for item in batch:
        extra_info = dict(item.get("extra_info", {}))
        extra_info["num_turns"] = item.get("__num_turns__")
        extra_info["rollout_reward_scores"] = {}
        result = compute(data_source=item["data_source"], solution_str=item["response"],
                         ground_truth=item["reward_model"]["ground_truth"], extra_info=extra_info)
        if isinstance(result, dict):
            reward = result["score"]
            for key, value in result.items():
                reward_extra_info[key].append(value)
        else:
            reward = result
        rewards.append(reward)
    return rewards, reward_extra_info


def test_verl_compute_score_as_the_naive_manager_calls_it(examples: list[Example]) -> None:
    batch = []
    for ex in examples:
        gt = ex.model_dump_json(exclude={"messages"})
        batch.append({"data_source": "prove", "response": _hermes(_gold(ex)) or "I cannot help with that.",
                      "reward_model": {"ground_truth": gt}, "extra_info": {"index": 0, "split": "train"},
                      "__num_turns__": 3})
        batch.append({"data_source": "prove", "response": "", "reward_model": {"ground_truth": gt},
                      "extra_info": {}, "__num_turns__": 1})
    rewards, info = _verl_naive_loop(compute_score, batch)
    for ex, good, empty in zip(examples, rewards[::2], rewards[1::2]):
        abstain = not ex.gold_calls()
        assert good == pytest.approx(1.0 if abstain else BEST), ex.id
        assert empty == (1.0 if abstain else 0.0)
    # VERL stacks every key across the batch: same keys, one float each, for every sample.
    assert set(info) == {"score", *COMPONENTS, "abstain", "n_calls", "n_gold", "matched", "solved", "episode_calls"}
    assert all(len(v) == len(batch) and all(isinstance(x, float) for x in v) for v in info.values())


def test_verl_loads_the_adapter_by_its_path(by_id: dict[str, Example]) -> None:
    """VERL's get_custom_reward_fn: spec_from_file_location on `custom_reward_function.path`."""
    import importlib.util
    import sys

    import prove.integrations.verl.reward as hook

    spec = importlib.util.spec_from_file_location("custom_module", hook.__file__)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["custom_module"] = module
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    finally:
        del sys.modules["custom_module"]
    ex = by_id["read-1"]
    result = module.compute_score(data_source="prove", solution_str=_hermes(_gold(ex)),
                                  ground_truth=ex.model_dump_json(), extra_info=None)
    assert result["score"] == pytest.approx(BEST)


def test_verl_reward_kwargs_and_extra_kwargs(by_id: dict[str, Example]) -> None:
    ex = by_id["chain-3"]
    gold = _gold(ex)
    # custom_reward_function.reward_kwargs are bound with functools.partial; newer managers add more.
    fn = functools.partial(compute_score, config={"scale": "unit", "preset": "paper"}, execute=True)
    result = fn(data_source="prove", solution_str=_hermes(gold + gold[1:2]),
                ground_truth=ex.model_dump_json(), extra_info={"tools_kwargs": {}},
                reward_router_address=None, reward_model_tokenizer=None)
    assert result["score"] == pytest.approx(1.0)  # paper, unit scale: the repeat is within the budget
    assert result["state"] < 1.0  # executed: the second move is collateral
    prove = compute_score("prove", _hermes(gold + gold[1:2]), ex.model_dump_json(), None, config={"scale": "unit"},
                          execute=True)
    assert prove["score"] < 0.8  # prove: the repeated move costs, and its state counts


def test_verl_ground_truth_forms(by_id: dict[str, Example]) -> None:
    ex = by_id["chain-3"]
    dumped = ex.model_dump(mode="json")
    solution = _hermes(_gold(ex))
    as_arrays = {**dumped, "turns": _FakeArray([{**t, "calls": _FakeArray(t["calls"])} for t in dumped["turns"]]),
                 "tools": _FakeArray(dumped["tools"])}
    flat_calls = [c for t in dumped["turns"] for c in t["calls"]]
    for gt, extra in ((json.dumps(dumped), None), (dumped, {}), (as_arrays, None),
                      (json.dumps(flat_calls), {"tools": json.dumps(dumped["tools"])}),
                      ({"calls": flat_calls}, {"tools": _FakeArray(dumped["tools"])})):
        assert compute_score("prove", solution, gt, extra)["score"] == pytest.approx(BEST)


def test_verl_one_turn_per_prompt(by_id: dict[str, Example]) -> None:
    ex = by_id["two-turns"]
    gt = ex.model_dump_json()
    second = _hermes(_gold(ex, 1))
    assert compute_score("prove", second, gt, {"turn": 1})["score"] == pytest.approx(BEST)
    assert compute_score("prove", _hermes(_gold(ex, 0)), gt, {"turn": 1})["score"] < 1.0  # did turn 0 again
    assert compute_score("prove", second, gt, {"turn": 1}, execute=True)["state"] == 1.0


def test_verl_batch_manager(examples: list[Example]) -> None:
    gts = [ex.model_dump_json() for ex in examples]
    sols = [_hermes(_gold(ex)) for ex in examples]
    out = compute_score_batch(data_sources=["prove"] * len(gts), solution_strs=sols, ground_truths=gts,
                              extra_infos=[{}] * len(gts))
    assert [o["score"] for o in out] == pytest.approx([1.0 if not ex.gold_calls() else BEST for ex in examples])


def test_verl_bad_ground_truth_is_a_developer_error() -> None:
    with pytest.raises(ValueError, match="ground truth"):
        compute_score("prove", "", "42", None)


def test_trl_reward_as_grpo_trainer_calls_it(examples: list[Example]) -> None:
    reward = trl_reward()
    assert reward.__name__ == "prove_reward"
    rows = [ex for ex in examples for _ in range(2)]  # two generations per prompt
    prompts = [[m.model_dump(exclude_none=True) for m in ex.messages[:2]] for ex in rows]
    completions = []
    for i, ex in enumerate(rows):
        text = _hermes(_gold(ex)) if i % 2 == 0 else "Let me think."
        completions.append([{"role": "assistant", "content": text}])  # conversational form
    logged: dict[str, float] = {}
    extra_cols: dict[str, list] = {}
    reward_kwargs = {
        "ground_truth": [ex.model_dump_json() for ex in rows],
        "example_id": [ex.id for ex in rows],
        "trainer_state": object(),
        "log_extra": lambda column, values: extra_cols.__setitem__(column, values),
        "log_metric": lambda name, value: logged.__setitem__(name, value),
    }
    out = reward(prompts=prompts, completions=completions, completion_ids=[[1, 2]] * len(rows), **reward_kwargs)
    assert isinstance(out, list) and len(out) == len(rows) and all(isinstance(x, float) for x in out)
    for i, ex in enumerate(rows):
        abstain = not ex.gold_calls()
        expected = (1.0 if abstain else BEST) if i % 2 == 0 else (1.0 if abstain else 0.0)
        assert out[i] == pytest.approx(expected), ex.id
    assert set(logged) >= {"prove/validity", "prove/coverage", "prove/efficiency", "prove/name", "prove/args"}


def test_trl_reward_with_string_completions_and_example_columns(examples: list[Example]) -> None:
    reward = trl_reward(name="tool_use")
    assert reward.__name__ == "tool_use"
    columns = [ex.model_dump(mode="json") for ex in examples]
    kwargs = {key: [c.get(key) for c in columns] for key in ("id", "servers", "world", "kind", "tools", "turns")}
    out = reward(prompts=["p"] * len(examples), completions=[_hermes(_gold(ex)) for ex in examples], **kwargs)
    assert out == pytest.approx([1.0 if not ex.gold_calls() else BEST for ex in examples])


def test_trl_reward_by_example_id(examples: list[Example]) -> None:
    reward = trl_reward(examples=examples, execute=True)
    out = reward(prompts=["p"] * len(examples), completions=[_hermes(_gold(ex)) for ex in examples],
                 example_id=[ex.id for ex in examples])
    executed = RewardConfig().best(state=True)
    assert out == pytest.approx([1.0 if not ex.gold_calls() else executed for ex in examples])
    with pytest.raises(ValueError, match="ground_truth"):
        reward(prompts=["p"], completions=["x"], example_id=["unknown"])


def test_metrics_are_nan_free_except_an_uncomputed_state(by_id: dict[str, Example]) -> None:
    result = compute_score("prove", "", by_id["read-1"].model_dump_json(), None)
    assert math.isnan(result["state"]) and math.isnan(result["solved"])  # no episode: neither is known
    assert all(not math.isnan(v) for k, v in result.items() if k not in ("state", "solved"))


def test_rows_without_ids_never_share_a_gold_replay(examples: list[Example]) -> None:
    """Two ground truths with no `id` and the same call ids are two golds, each replayed on its own."""
    # read-1 and clarify both have one gold call: once without ids, their golds looked the same.
    for ex in sorted((ex for ex in examples if ex.gold_calls()), key=lambda e: len(e.gold_calls())):
        gt = ex.model_dump(mode="json", exclude_none=True, exclude={"id", "messages"})
        for t in gt["turns"]:
            for k, call in enumerate(t["calls"]):
                call["id"], call["after"] = f"c{k}", []
        out = compute_score("prove", _hermes(_gold(ex)), json.dumps(gt), None, execute=True)
        assert out["state"] == 1.0, ex.id
