"""TRL integration: environment classes generated from servers, rows, the reward, and a GRPO run.

The GRPO run (`@pytest.mark.slow`, also `scripts/train-smoke.sh`) trains a tiny model built
here (no download) on CPU; see `trl_smoke.py`.
"""

from __future__ import annotations

from prove.reward import RewardConfig

import inspect
import json
from pathlib import Path

import pytest

from prove.env import Session
from prove.integrations.trl import environment_class, environments, rows, trl_reward
from prove.records import Example

from .conftest import missing

BEST = RewardConfig().best()  # the default preset's best without the state component


@pytest.mark.parametrize("server", ["banking", "calendar"])
def test_methods_carry_the_tools_signatures_and_docstrings(server: str) -> None:
    if missing("transformers"):
        pytest.skip("transformers is not installed (pip install 'prove-rl[train]')")
    from transformers.utils import get_json_schema

    env = environment_class(server)()
    with Session([server]) as s:
        tools = {t["function"]["name"]: t["function"] for t in s.tool_schemas()}
    public = {n for n, _ in inspect.getmembers(type(env), inspect.isfunction) if not n.startswith("_")}
    assert public == set(tools) | {"reset"}          # what TRL exposes as tools: every tool, nothing else
    for name, spec in tools.items():
        got = get_json_schema(getattr(env, name))["function"]      # what TRL shows the model
        assert got["name"] == name
        assert got["description"].split("\n")[0] == spec["description"].split("\n")[0]
        props = spec["parameters"]["properties"]
        assert set(got["parameters"]["properties"]) == set(props)
        assert set(got["parameters"].get("required", [])) == set(spec["parameters"].get("required", []))
        for key, prop in got["parameters"]["properties"].items():
            if "enum" in props[key]:
                assert prop["enum"] == props[key]["enum"]
            elif isinstance(props[key].get("type"), str):
                assert prop["type"] == props[key]["type"], (name, key)
            assert prop["description"] == " ".join(props[key]["description"].split())


def test_reset_opens_an_episode_and_methods_call_live_tools(by_id: dict[str, Example]) -> None:
    env = environment_class("banking", tools=["get_account", "transfer_between_accounts"])()
    assert json.loads(env.get_account(account_id="ACC-10001"))["error"]["code"] == "no_episode"
    assert env.reset(world=0, example_id="x") is None
    first = env.session
    assert json.loads(env.get_account(account_id="ACC-10001"))["account_id"] == "ACC-10001"
    assert json.loads(env.get_account(account_id="nope"))["error"]["code"] == "not_found"
    assert json.loads(env.transfer_between_accounts(from_account_id="ACC-10001", to_account_id="ACC-10002",
                                                    amount=50.0, memo=None))["amount"] == 50.0
    assert [r.ok for r in env.results] == [True, False, True]
    env.reset(world=0)
    assert first.closed and env.session is not first and env.results == []
    with pytest.raises(ValueError, match="no tool"):
        environment_class("banking", tools=["teleport"])


def test_rows_and_per_turn_replay(examples: list[Example], by_id: dict[str, Example]) -> None:
    assert len(rows(examples)) == len(examples)
    per_turn = [r for r in rows(examples, per_turn=True) if r["example_id"] == "bank-two-turns"]
    assert [r["turn"] for r in per_turn] == [0, 1]
    assert [m["role"] for m in per_turn[1]["prompt"]] == ["system", "user", "assistant", "tool", "assistant", "user"]
    factories = environments(examples)
    assert set(factories) == {"banking", "calendar"}
    env = factories["banking"]()
    env.reset(**per_turn[1])              # the earlier turn's gold calls are replayed
    assert [c.name for c in env.session.log] == ["get_account"]
    clarify = [r for r in rows(examples, per_turn=True) if r["example_id"] == "bank-clarify"][1]
    env.reset(**clarify)
    assert env.session.log == []           # nothing to replay: the first turn had no gold call


def test_reward_on_trl_completions(examples: list[Example]) -> None:
    row = next(r for r in rows(examples) if r["example_id"] == "cal-list")
    completion = [{"role": "assistant", "content": "", "tool_calls": [
                       {"type": "function", "function": {"name": "list_calendars", "arguments": {}}}]},
                  {"role": "tool", "name": "list_calendars", "content": '{"calendars": []}'},
                  {"role": "assistant", "content": "You have two."}]
    bad = [{"role": "assistant", "content": "", "tool_calls": [
               {"type": "function", "function": {"name": "list_calendars", "arguments": {}}}]},
           {"role": "tool", "name": "list_calendars", "content": '{"error": {"code": "x", "message": "y"}}'}]
    reward = trl_reward()
    cols = {k: [row[k], row[k]] for k in row if k != "prompt"}
    good_score, bad_score = reward(prompts=[row["prompt"]] * 2, completions=[completion, bad], **cols)
    assert good_score == pytest.approx(BEST) and bad_score < good_score


@pytest.mark.slow
def test_grpo_on_cpu_calls_live_tools_and_changes_weights(tmp_path: Path) -> None:
    gone = missing("torch", "transformers", "trl", "datasets", "tokenizers")
    if gone:
        pytest.skip(f"{gone} is not installed (pip install 'prove-rl[train]')")
    from .trl_smoke import run

    figures = run(tmp_path, steps=3)
    assert figures["steps"] == 3 and len(figures["reward_per_step"]) == 3
    assert figures["live_tool_calls"] > 0 and figures["live_tool_calls_ok"] > 0
    assert figures["weights_changed"] > 0 and figures["weight_change_l2"] > 0


def _chain_completion(amount: float) -> list[dict]:
    calls = [("transfer_between_accounts", {"from_account_id": "ACC-10001", "to_account_id": "ACC-10002",
                                            "amount": amount}), ("get_account", {"account_id": "ACC-10002"})]
    out: list[dict] = []
    for name, args in calls:
        out.append({"role": "assistant", "content": "", "tool_calls": [
            {"type": "function", "function": {"name": name, "arguments": args}}]})
        out.append({"role": "tool", "name": name, "content": "{}"})
    out.append({"role": "assistant", "content": "Done."})
    return out


def test_reward_reads_the_episode_the_rollout_ran_in(examples: list[Example]) -> None:
    """As TRL 1.16's GRPOTrainer calls reward functions under `environment_factory`: `environments=`
    holds the instance each completion was generated in; its final state gives the state component."""
    row = next(r for r in rows(examples) if r["example_id"] == "bank-chain")
    factory = environments(examples)["banking"]
    played = []
    for amount in (50.0, 60.0):
        env = factory()
        env.reset(**row)
        env.transfer_between_accounts(from_account_id="ACC-10001", to_account_id="ACC-10002", amount=amount,
                                      memo=None)
        env.get_account(account_id="ACC-10002")
        played.append(env)
    reward = trl_reward()
    cols = {k: [row[k], row[k]] for k in row if k != "prompt"}
    # Both completions show the gold calls: only the episodes tell them apart.
    same_text = [_chain_completion(50.0)] * 2
    solved, missed = reward(prompts=[row["prompt"]] * 2, completions=same_text, environments=played, **cols)
    assert solved == pytest.approx(RewardConfig().best(state=True))
    cfg = RewardConfig()
    assert missed == pytest.approx(solved - cfg.w["state"] * (1 - cfg.state_miss))  # the state missed
    offline = reward(prompts=[row["prompt"]], completions=same_text[:1], **{k: v[:1] for k, v in cols.items()})
    assert offline == [pytest.approx(BEST)]  # no episode: the completion alone, no state component


def test_reset_lets_the_turns_simulated_time_pass(examples: list[Example]) -> None:
    from prove.env.world import EPOCH

    row = next(r for r in rows(examples, per_turn=True) if r["example_id"] == "bank-two-turns" and r["turn"] == 1)
    gt = json.loads(row["ground_truth"])
    gt["turns"][0]["advance"], gt["turns"][1]["advance"] = 600, 3600
    env = environments(examples)["banking"]()
    env.reset(**{**row, "ground_truth": json.dumps(gt)})
    assert (env.session.now - EPOCH).total_seconds() == 4200
    assert [c.name for c in env.session.log] == ["get_account"]
    assert env.base is not None and env._final_state()[0].changes == []  # the turn starts from the replayed state
    first = next(r for r in rows(examples) if r["example_id"] == "bank-two-turns")
    env.reset(**{**first, "ground_truth": json.dumps(gt)})
    assert (env.session.now - EPOCH).total_seconds() == 600 and env.base is None
