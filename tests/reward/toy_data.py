"""A small dataset built live against the toy wallet server, for the reward's tests."""

from __future__ import annotations

import json
from typing import Any

from prove.env import Session, registry
from prove.records import Example
from tests.env.toy import make_server

Spec = list[tuple[str, list[tuple[str, str, dict[str, Any], list[str]]]]]


def register_toy() -> None:
    registry.register(make_server(), replace=True)


def wallets(world: int = 0) -> list[dict[str, Any]]:
    """The toy world's wallets (with their PINs, which no visible tool shows)."""
    db = registry.get("toy").template(world).db
    cur = db.cursor()
    cur.row_factory = None
    rows = cur.execute("SELECT wallet_id, pin, balance, frozen FROM wallets ORDER BY wallet_id").fetchall()
    return [{"id": r[0], "pin": r[1], "balance": r[2], "frozen": r[3]} for r in rows]


def offered(session: Session) -> list[dict[str, Any]]:
    """The toy tools a model is shown: all visible ones but `explode` (a deliberately buggy tool)."""
    return [t for t in session.tool_schemas() if t["function"]["name"] != "explode"]


def build(example_id: str, spec: Spec, *, kind: str = "multi_turn", world: int = 0,
          tools: list[dict[str, Any]] | None = None) -> Example:
    """Run a conversation's gold calls on a live session and record it as an example."""
    with Session("toy", world=world) as session:
        shown = tools if tools is not None else offered(session)
        messages: list[dict[str, Any]] = [{"role": "system", "content": "You manage the user's wallets."}]
        turns = []
        for user, calls in spec:
            messages.append({"role": "user", "content": user})
            for cid, name, args, _ in calls:
                messages.append({"role": "assistant", "content": None, "tool_calls": [
                    {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
                result = session.call(name, args)
                assert result.ok, (example_id, name, result.error)
                messages.append({"role": "tool", "tool_call_id": cid, "content": result.text()})
            messages.append({"role": "assistant", "content": "Done." if calls else "Could you tell me more?"})
            turns.append({"user": user, "calls": [{"id": c, "name": n, "arguments": a, "after": d}
                                                  for c, n, a, d in calls]})
        fingerprint = session.fingerprint()
    return Example.model_validate({
        "id": example_id, "servers": ["toy"], "world": world, "kind": kind, "tools": shown,
        "messages": messages, "turns": turns, "fingerprint": fingerprint,
    })


def dataset(world: int = 0) -> list[Example]:
    """Eight examples: one to five calls, dependencies within and across turns, parallel calls,
    a clarification, an abstention (the needed tool is not offered) and an irrelevant request."""
    w = wallets(world)
    a, b, c, d, e = [x for x in w if not x["frozen"]][:5]
    with Session("toy", world=world) as s:
        all_tools = offered(s)
    no_move = [t for t in all_tools if t["function"]["name"] != "move"]
    return [
        build("read-1", [("Show the five richest wallets.",
                          [("c1", "list_wallets", {"order": "balance", "limit": 5}, [])])]),
        build("chain-3", [(f"Move 10.5 from {a['id']} to {b['id']} (PIN {a['pin']}) and show {b['id']}.", [
            ("c1", "get_wallet", {"wallet_id": a["id"]}, []),
            ("c2", "move", {"src": a["id"], "dst": b["id"], "amount": 10.5, "pin": a["pin"]}, ["c1"]),
            ("c3", "get_wallet", {"wallet_id": b["id"]}, ["c2"]),
        ])]),
        build("paper-4", [(f"Check {a['id']} and {c['id']}, send 20 from {a['id']} to {c['id']} "
                           f"(PIN {a['pin']}), then list wallets by balance.", [
            ("c1", "get_wallet", {"wallet_id": a["id"]}, []),
            ("c2", "get_wallet", {"wallet_id": c["id"]}, []),
            ("c3", "move", {"src": a["id"], "dst": c["id"], "amount": 20, "pin": a["pin"]}, ["c1", "c2"]),
            ("c4", "list_wallets", {"order": "balance"}, ["c3"]),
        ])]),
        build("two-turns", [
            (f"What is in {d['id']}?", [("c1", "get_wallet", {"wallet_id": d["id"]}, [])]),
            (f"Send 30 of it to {e['id']} for rent, PIN {d['pin']}, then show {e['id']}.", [
                ("c2", "move", {"src": d["id"], "dst": e["id"], "amount": 30.0, "pin": d["pin"], "note": "rent"},
                 ["c1"]),
                ("c3", "get_wallet", {"wallet_id": e["id"]}, ["c2"]),
            ]),
        ]),
        build("clarify", [
            (f"Send some money from {c['id']} to {b['id']}.", []),
            (f"25 dollars, PIN {c['pin']}.", [
                ("c1", "move", {"src": c["id"], "dst": b["id"], "amount": 25, "pin": c["pin"]}, [])]),
        ], kind="clarification"),
        build("parallel-5", [(f"Look at {a['id']}, {b['id']} and {c['id']}, move 5 from {b['id']} to "
                              f"{c['id']} (PIN {b['pin']}) and list wallets.", [
            ("c1", "get_wallet", {"wallet_id": a["id"]}, []),
            ("c2", "get_wallet", {"wallet_id": b["id"]}, []),
            ("c3", "get_wallet", {"wallet_id": c["id"]}, []),
            ("c4", "move", {"src": b["id"], "dst": c["id"], "amount": 5, "pin": b["pin"]}, ["c2", "c3"]),
            ("c5", "list_wallets", {"limit": 20}, ["c4"]),
        ])]),
        build("abstain", [(f"Move 5 from {a['id']} to {b['id']}.", [])], kind="abstention", tools=no_move),
        build("irrelevant", [("What's the weather in Lisbon?", [])], kind="irrelevance"),
    ]
