from __future__ import annotations

import dataclasses
import json

import pytest

from pydantic import BaseModel

from prove.env import WRITE, Ctx, Server, Session, ToolError, Toolset, registry
from prove.synth.contract import Call, Move, Rejected
from prove.synth.machine import order_edges, outcome_of, run_sync, validate_move


class Scripted:
    """A teacher that plays fixed moves: user turns and assistant moves in order."""

    id = "scripted"

    def __init__(self, users, moves) -> None:
        self.users = list(users)
        self.moves = list(moves)

    def classifier(self):
        return None

    async def aclose(self) -> None:
        pass

    async def query(self, conv):
        return self.users.pop(0) if self.users else None

    async def assistant(self, conv, feedback=None):
        return self.moves.pop(0)

    async def continuation(self, conv):
        return "follow_up" if self.users else "end"

    def advance(self, conv):
        return 0


def _spec(synth, server="banking", **kw):
    i = next(i for i in range(200) if synth.locate(i)[0].name == server and synth.spec(i).kind == "multi_turn")
    return dataclasses.replace(synth.spec(i), **kw)


def test_failed_attempts_stay_out_of_the_gold_and_edges_follow_data_flow(synth) -> None:
    from prove.synth.machine import finish

    spec = _spec(synth, max_turns=3)
    pin_card = spec.context.ids("card")[0]
    teacher = Scripted(
        ["What accounts do I have?", "Show me the first one in detail."],
        [Move(calls=[Call("list_accounts", {})]), Move(text="You have accounts."),
         Move(calls=[Call("get_account", {"account_id": "ACC-10001", "extra": 1})]),   # invalid arguments
         Move(text="Retrying.", calls=[Call("get_account", {"account_id": "ACC-10001"})]),
         Move(text="Here it is.")])
    conv = run_sync(synth.machine.run(spec, teacher))
    example, stats = finish(conv)
    example = example.model_dump(mode='json', exclude_none=True)
    gold = [c for t in example["turns"] for c in t["calls"]]
    assert [c["name"] for c in gold] == ["list_accounts", "get_account"]
    assert [len(t["calls"]) for t in example["turns"]] == [1, 1]
    assert gold[1]["after"] == [gold[0]["id"]]          # the ID came from list_accounts' output
    assert stats["calls"] == 3 and stats["failed"] == 1
    assert conv.outcomes == ["none", "success"] or conv.outcomes == ["success", "success"]
    tool_msgs = [m for m in example["messages"] if m["role"] == "tool"]
    assert json.loads(tool_msgs[1]["content"])["error"]["code"] == "invalid_arguments"
    assert example["fingerprint"] == conv.session.fingerprint()
    assert pin_card  # the context has cards


def test_format_validator_catches_bad_moves(synth) -> None:
    spec = _spec(synth)
    conv = run_sync(synth.machine.run(spec, Scripted([], [])))
    conv.turn = 0
    assert validate_move(conv, Move()) == ["the answer has neither tool calls nor text"]
    assert "unknown tool" in validate_move(conv, Move(calls=[Call("launch_rocket", {})]))[0]
    assert "not a JSON object" in validate_move(conv, Move(calls=[Call("get_account", "{oops")]))[0]
    invented = validate_move(conv, Move(calls=[Call("get_account", {"account_id": "ACC-99999"})]))
    assert invented and "not an entity of the live state" in invented[0]
    real = spec.context.ids("account")[0]
    assert validate_move(conv, Move(calls=[Call("get_account", json.dumps({"account_id": real}))])) == []
    conv.spec = dataclasses.replace(spec, ungrounded=True)
    assert validate_move(conv, Move(calls=[Call("get_account", {"account_id": "ACC-99999"})])) == []


def test_a_teacher_that_never_fixes_its_format_is_rejected(synth) -> None:
    spec = _spec(synth, max_regenerations=2)
    teacher = Scripted(["hi"], [Move(calls=[Call("nope", {})])] * 3)
    with pytest.raises(Rejected) as err:
        run_sync(synth.machine.run(spec, teacher))
    assert err.value.reason == "teacher_format"


def test_outcomes(synth) -> None:
    spec = _spec(synth, ungrounded=True)
    acc = spec.context.ids("account")[0]
    teacher = Scripted(["a"], [Move(calls=[Call("get_account", {"account_id": acc}),
                                           Call("freeze_card", {"card_id": "CRD-1"})]), Move(text="done")])
    conv = run_sync(synth.machine.run(spec, teacher))
    assert outcome_of(conv.executed).value == "partial"
    assert outcome_of(conv.executed[1:]).value == "failure"
    assert outcome_of([]).value == "none"


def test_run_sync_refuses_a_coroutine_that_suspends() -> None:
    import asyncio

    async def sleeps():
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError):
        run_sync(sleeps())


def test_registry_has_the_servers_used() -> None:
    assert "banking" in registry


COUNTERS = "CREATE TABLE counters (name TEXT PRIMARY KEY, v INTEGER NOT NULL);"


class Counter(BaseModel):
    name: str
    v: int


def _counter_server() -> Server:
    tools = Toolset("counters")

    @tools.tool(effect=WRITE, asks=["Set {name} to {v}.", "Make {name} {v}."], reply="Set.")
    def set_counter(ctx: Ctx, name: str, v: int) -> Counter:
        """Set a counter, creating it if need be.

        Args:
            name: the counter, such as 'a'.
            v: its value, such as 3.
        """
        ctx.db.execute("INSERT OR REPLACE INTO counters VALUES (?, ?)", (name, v))
        return Counter(name=name, v=v)

    @tools.tool(effect=WRITE, asks=["Double {name}.", "Make {name} twice as big."], reply="Doubled.")
    def double(ctx: Ctx, name: str) -> Counter:
        """Double a counter.

        Args:
            name: the counter, such as 'a'.

        Raises:
            not_found: no counter has that name.
        """
        row = ctx.db.execute("SELECT v FROM counters WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise ToolError("not_found", f"No counter {name!r}.")
        ctx.db.execute("UPDATE counters SET v = ? WHERE name = ?", (row[0] * 2, name))
        return Counter(name=name, v=row[0] * 2)

    return Server("counters", "Counters", "Named counters, for tests of call order and nothing more.",
                  schema=COUNTERS, world=None).include(tools)


def test_calls_whose_order_matters_get_an_edge_and_independent_ones_none() -> None:
    server = _counter_server()

    def call(cid, tool, **args):
        return {"id": cid, "name": tool, "arguments": args, "after": []}

    turns = [{"user": "x", "calls": [call("c1", "set_counter", name="a", v=3), call("c2", "set_counter", name="b", v=4),
                                     call("c3", "double", name="b")]},
             {"user": "y", "calls": [call("c4", "set_counter", name="a", v=5), call("c5", "double", name="a")]}]
    with Session([server], world=0) as episode:  # the recorded order: the state it ends in
        assert all(episode.call(c["name"], c["arguments"]).ok for t in turns for c in t["calls"])
        recorded = episode.fingerprint()
    assert order_edges(turns, server, 0, recorded) == 2
    assert [c["after"] for t in turns for c in t["calls"]] == [[], [], ["c2"], [], ["c4"]]
    assert order_edges(turns, server, 0, recorded) == 0  # ordered now: nothing more to add
