"""A small dataset recorded live on the banking and calendar servers, for the rollout and trainer tests.

Each example's gold calls are run on a fresh session of world 0 as the conversation is recorded
(every one must succeed), so the reference conversations are real and the recorded fingerprint
is the state the gold calls leave.
"""

from __future__ import annotations

import json
from typing import Any

from prove.env import Session
from prove.records import Example

# (user text, [(call id, tool, arguments, after)]) per user turn
Spec = list[tuple[str, list[tuple[str, str, dict[str, Any], list[str]]]]]
SYSTEM = {"role": "system", "content": "You are a helpful assistant with tools. Use them to do what the user asks."}


def build(example_id: str, servers: list[str], spec: Spec, *, kind: str = "multi_turn", world: int = 0,
          drop_tools: tuple[str, ...] = (), reply: str = "Done.") -> Example:
    """Record a conversation whose gold calls run live, one assistant message per call."""
    with Session(servers, world=world) as session:
        tools = [t for t in session.tool_schemas() if t["function"]["name"] not in drop_tools]
        messages: list[dict[str, Any]] = [SYSTEM]
        turns = []
        for user, calls in spec:
            messages.append({"role": "user", "content": user})
            for cid, name, args, _ in calls:
                messages.append({"role": "assistant", "content": None, "tool_calls": [
                    {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
                result = session.call(name, args)
                assert result.ok, (example_id, name, result.error)
                messages.append({"role": "tool", "tool_call_id": cid, "content": result.text()})
            messages.append({"role": "assistant",
                             "content": "How much should I send?" if kind == "clarification" and not calls else reply})
            turns.append({"user": user, "calls": [{"id": c, "name": n, "arguments": a, "after": d}
                                                  for c, n, a, d in calls]})
        fingerprint = session.fingerprint()
    return Example.model_validate({"id": example_id, "servers": servers, "world": world, "kind": kind,
                                   "tools": tools, "messages": messages, "turns": turns, "fingerprint": fingerprint})


def dataset() -> list[Example]:
    """Five examples: a chain, two user turns, a clarification, an abstention, and a calendar lookup."""
    return [
        build("bank-chain", ["banking"], [(
            "Move 50 dollars from my Main Checking (ACC-10001) to Main Savings (ACC-10002), then show me savings.", [
                ("c1", "transfer_between_accounts",
                 {"from_account_id": "ACC-10001", "to_account_id": "ACC-10002", "amount": 50.0}, []),
                ("c2", "get_account", {"account_id": "ACC-10002"}, ["c1"]),
            ])]),
        build("bank-two-turns", ["banking"], [
            ("What's the balance of ACC-10001?", [("c1", "get_account", {"account_id": "ACC-10001"}, [])]),
            ("Pay 25 dollars from it to AT&T Wireless (PAY-10004).", [
                ("c2", "pay_payee", {"payee_id": "PAY-10004", "from_account_id": "ACC-10001", "amount": 25.0},
                 ["c1"])]),
        ]),
        build("bank-clarify", ["banking"], [
            ("Pay AT&T Wireless (PAY-10004) from ACC-10001.", []),
            ("40 dollars.", [("c1", "pay_payee", {"payee_id": "PAY-10004", "from_account_id": "ACC-10001",
                                                  "amount": 40.0}, [])]),
        ], kind="clarification"),
        build("bank-abstain", ["banking"], [("Freeze my card CRD-10002.", [])], kind="abstention",
              drop_tools=("freeze_card",), reply="I can't do that."),
        build("cal-list", ["calendar"], [("Which calendars do I have?", [("c1", "list_calendars", {}, [])])]),
    ]
