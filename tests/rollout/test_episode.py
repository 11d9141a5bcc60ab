"""One episode driven by hand: scripts, follow-up turns, caps and environment failures."""

from __future__ import annotations

import json
from typing import Any

import pytest

from prove.env import ProveError, Session
from prove.records import Example
from prove.rollout import CALL_LIMIT, Episode, EpisodeError, Limits, script


def call(name: str, **args: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": f"id-{name}", "type": "function",
                            "function": {"name": name, "arguments": json.dumps(args)}}]}


def say(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


def test_script_starts_at_the_first_user_message(by_id: dict[str, Example]) -> None:
    sc = script(by_id["bank-two-turns"])
    assert [m["role"] for m in sc.prompt] == ["system", "user"]
    assert sc.prompt[1]["content"] == "What's the balance of ACC-10001?"
    assert sc.followups == [{"role": "user", "content": "Pay 25 dollars from it to AT&T Wireless (PAY-10004)."}]
    assert (sc.servers, sc.world, sc.kind) == (["banking"], 0, "multi_turn")
    assert {t["function"]["name"] for t in sc.tools} >= {"get_account", "pay_payee"}


def test_follow_up_turns_come_after_an_answer_in_words(by_id: dict[str, Example]) -> None:
    sc = script(by_id["bank-two-turns"])
    with Session(sc.servers, world=sc.world) as env:
        ep = Episode(sc, env)
        step = ep.step(call("get_account", account_id="ACC-10001"))
        assert step.kind == "tools" and json.loads(step.messages[0]["content"])["account_id"] == "ACC-10001"
        step = ep.step(say("It holds 2687.51."))
        assert step.kind == "user" and step.messages[0]["content"].startswith("Pay 25 dollars")
        ep.step(call("pay_payee", payee_id="PAY-10004", from_account_id="ACC-10001", amount=25))
        step = ep.step(say("Paid."))
        assert (step.kind, step.reason, ep.status) == ("end", "done", "done")
        assert [c.turn for c in ep.calls] == [0, 1]
        assert env.fingerprint() == by_id["bank-two-turns"].fingerprint
    assert [m["role"] for m in ep.messages] == ["system", "user", "assistant", "tool", "assistant", "user",
                                                "assistant", "tool", "assistant"]


def test_failed_calls_are_results_not_errors(by_id: dict[str, Example]) -> None:
    sc = script(by_id["bank-chain"])
    with Session(sc.servers, world=0) as env:
        ep = Episode(sc, env)
        step = ep.step({"role": "assistant", "content": '<tool_call>{"name": "get_account", "arguments": {'
                                                        '"account_id": </tool_call><tool_call>{"name": "teleport", '
                                                        '"arguments": {}}</tool_call>'})
    codes = [json.loads(m["content"])["error"]["code"] for m in step.messages]
    assert codes == ["invalid_arguments", "unknown_tool"]
    assert [c.ok for c in ep.calls] == [False, False] and ep.forms == {"hermes": 1}


def test_the_last_allowed_reply_still_runs_its_calls(by_id: dict[str, Example]) -> None:
    sc = script(by_id["bank-chain"])
    with Session(sc.servers, world=0) as env:
        ep = Episode(sc, env, Limits(max_assistant_turns=2))
        assert ep.step(call("list_accounts")).kind == "tools"
        step = ep.step(call("get_account", account_id="ACC-10002"))
        assert (step.kind, step.reason) == ("end", "assistant_turn_cap")
        assert step.messages[0]["role"] == "tool" and ep.calls[-1].ok
        with pytest.raises(RuntimeError):
            ep.step(say("more"))


def test_calls_past_the_caps_are_answered_call_limit(by_id: dict[str, Example]) -> None:
    sc = script(by_id["bank-chain"])
    with Session(sc.servers, world=0) as env:
        ep = Episode(sc, env, Limits(max_calls=3, max_calls_per_turn=2))
        three = {"role": "assistant", "content": None, "tool_calls": [
            {"id": f"k{i}", "type": "function", "function": {"name": "list_accounts", "arguments": "{}"}}
            for i in range(3)]}
        step = ep.step(three)
        assert step.kind == "tools"
        assert [c.code for c in ep.calls] == [None, None, CALL_LIMIT] and not ep.calls[2].executed
        step = ep.step(three)
        assert (step.kind, step.reason) == ("end", "call_cap")
        assert [c.code for c in ep.calls[3:]] == [CALL_LIMIT] * 3     # the cap counts calls made
        assert len(step.messages) == 3          # every call is answered


def test_user_turn_cap_stops_follow_ups(by_id: dict[str, Example]) -> None:
    sc = script(by_id["bank-two-turns"])
    with Session(sc.servers, world=0) as env:
        ep = Episode(sc, env, Limits(max_user_turns=1))
        step = ep.step(say("Hello."))
    assert (step.kind, step.reason) == ("end", "user_turn_cap")


class _Timeout(ProveError):
    code = "timeout"


class _Gone(ProveError):
    code = "unknown_session"


class FlakyEnv:
    """A remote-like environment whose transport fails the way RemoteEnv's does."""

    def __init__(self, error: ProveError) -> None:
        self.error = error

    def call(self, name: str, arguments: Any = None) -> Any:
        raise self.error

    def fingerprint(self) -> str:
        return "x"

    def diff(self) -> Any:
        return None

    def close(self) -> None:
        pass


def test_a_remote_timeout_is_the_calls_outcome(by_id: dict[str, Example]) -> None:
    ep = Episode(script(by_id["bank-chain"]), FlakyEnv(_Timeout("took too long")))
    step = ep.step(call("list_accounts"))
    assert step.kind == "tools" and json.loads(step.messages[0]["content"])["error"]["code"] == "timeout"


def test_a_broken_environment_ends_the_episode(by_id: dict[str, Example]) -> None:
    ep = Episode(script(by_id["bank-chain"]), FlakyEnv(_Gone("reaped")))
    with pytest.raises(EpisodeError):
        ep.step(call("list_accounts"))
    assert ep.status == "env_error" and "reaped" in (ep.error or "")


def test_verl_turns_count_tool_rounds(by_id: dict[str, Example]) -> None:
    """With VERL's meaning, tool rounds count as user turns; the reply at the cap is the last, its calls run."""
    sc = script(by_id["bank-two-turns"])
    with Session(sc.servers, world=0) as env:
        ep = Episode(sc, env, Limits(max_user_turns=2, turns="verl"))
        assert ep.step(call("list_accounts")).kind == "tools"               # env turn 1
        assert ep.step(call("get_account", account_id="ACC-10001")).kind == "tools"   # env turn 2: cap reached
        step = ep.step(call("get_account", account_id="ACC-10002"))
        assert (step.kind, step.reason, len(step.messages)) == ("end", "user_turn_cap", 1)
        assert ep.env_turns == 2 and ep.calls[-1].ok


def test_only_offered_tools_run(by_id: dict[str, Example]) -> None:
    """The abstention example withholds freeze_card; banking's hidden get_card_pin is never offered."""
    sc = script(by_id["bank-abstain"])
    with Session(sc.servers, world=0) as env:
        before = env.fingerprint()
        ep = Episode(sc, env)
        step = ep.step({"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "freeze_card", "arguments": '{"card_id": "CRD-10002"}'}},
            {"id": "b", "type": "function", "function": {"name": "get_card_pin", "arguments": '{"card_id": "CRD-10002"}'}},
        ]})
        assert [json.loads(m["content"])["error"]["code"] for m in step.messages] == ["unknown_tool"] * 2
        assert [c.executed for c in ep.calls] == [False, False] and env.fingerprint() == before
        assert env.log == []


def test_the_turns_simulated_time_passes_before_each_user_turn(by_id: dict[str, Example]) -> None:
    from prove.env.world import EPOCH

    ex = by_id["bank-two-turns"].model_copy(deep=True)
    ex.turns[0].advance, ex.turns[1].advance = 600, 3600
    sc = script(ex)
    assert sc.advance == (600, 3600)
    with Session(sc.servers, world=sc.world) as env:
        ep = Episode(sc, env)
        assert (env.now - EPOCH).total_seconds() == 600          # before the first user message
        ep.step(call("get_account", account_id="ACC-10001"))
        assert (env.now - EPOCH).total_seconds() == 600
        step = ep.step(say("It holds 2687.51."))
        assert step.kind == "user" and (env.now - EPOCH).total_seconds() == 4200


def test_a_clock_that_cannot_move_ends_the_episode(by_id: dict[str, Example]) -> None:
    ex = by_id["bank-two-turns"].model_copy(deep=True)
    ex.turns[0].advance = 10**12  # past the simulated clock's end
    sc = script(ex)
    with Session(sc.servers, world=sc.world) as env:
        ep = Episode(sc, env)
        assert ep.done and ep.status == "env_error"
