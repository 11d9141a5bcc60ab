from __future__ import annotations

import copy
import json
import random

from prove.env import registry
from prove.synth.validate import Deduper, call_set, check


def _accepted(candidates, server=None, pred=lambda ex: True):
    for c in candidates:
        if c.line is None:
            continue
        ex = json.loads(c.line)
        if (server is None or ex["servers"] == [server]) and pred(ex):
            return ex
    raise AssertionError("no such example")


def _judge(synth, ex):
    server = registry.get(ex["servers"][0])
    return check(ex, server, synth.index(server, ex["world"]))


def test_accepted_examples_replay_to_their_fingerprint(synth, candidates) -> None:
    ok = [json.loads(c.line) for c in candidates if c.line]
    assert len(ok) >= 0.9 * len(candidates)
    for ex in ok[:40]:
        verdict = _judge(synth, ex)
        assert verdict.ok, verdict.detail
        assert verdict.gold_refs == verdict.gold_refs_exist


def test_tampering_is_caught(synth, candidates) -> None:
    ex = _accepted(candidates, pred=lambda e: sum(len(t["calls"]) for t in e["turns"]) >= 2)
    bad = copy.deepcopy(ex)
    tool = next(m for m in bad["messages"] if m["role"] == "tool")
    tool["content"] = tool["content"].replace('"', "'", 2)
    assert _judge(synth, bad).reason == "replay_mismatch"

    bad = copy.deepcopy(ex)
    bad["fingerprint"] = "0" * 32
    assert _judge(synth, bad).reason == "fingerprint_mismatch"

    bad = copy.deepcopy(ex)
    first = next(t for t in bad["turns"] if t["calls"])
    first["calls"].pop()
    for t in bad["turns"]:
        for c in t["calls"]:
            c["after"] = [a for a in c["after"] if any(a == x["id"] for tt in bad["turns"] for x in tt["calls"])]
    assert _judge(synth, bad).reason == "gold_mismatch"

    bad = copy.deepcopy(ex)
    bad["kind"] = "no-such-kind"
    assert _judge(synth, bad).reason == "schema"


def test_failure_share_and_ungrounded_references(synth, candidates) -> None:
    ex = _accepted(candidates, server="banking", pred=lambda e: any(
        c["name"] == "get_account" for t in e["turns"] for c in t["calls"]))
    bad = copy.deepcopy(ex)
    # Add three failing calls before the end: more than 30% of the calls now fail.
    extra = {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"x{i}", "type": "function", "function": {"name": "get_account", "arguments": '{"account_id": "NOPE"}'}}
        for i in range(3)]}
    server = registry.get("banking")
    from prove.env import Session
    with Session([server], world=ex["world"]) as s:
        error = s.call("get_account", {"account_id": "NOPE"}).text()
    bad["messages"][2:2] = [extra, *({"role": "tool", "tool_call_id": f"x{i}", "content": error} for i in range(3))]
    own = _judge(synth, ex)
    verdict = _judge(synth, bad)
    assert verdict.failed == own.failed + 3  # the example's own recovered mistakes, and the three
    if (own.failed + 3) / (own.calls + 3) > 0.3:
        assert verdict.reason == "too_many_failures"


def test_sensitive_values_need_provenance(synth) -> None:
    from prove.synth.machine import sensitive_provenance

    server = registry.get("banking")
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "my PIN is 4821, make it 7305"},
                {"role": "assistant", "content": None}]
    found, missing = sensitive_provenance(
        messages, [("c1", 2, "change_card_pin", {"card_id": "CRD-1", "current_pin": "4821", "new_pin": "7305"})],
        server)
    assert missing == [] and [f["argument"] for f in found] == ["current_pin", "new_pin"]
    assert all(f["message"] == 1 and f["source"] == "user" for f in found)
    _, missing = sensitive_provenance(
        messages, [("c1", 2, "change_card_pin", {"card_id": "CRD-1", "current_pin": "1111", "new_pin": "7305"})],
        server)
    assert missing == ["c1.current_pin"]
    # a value that only occurs inside a longer number does not count
    messages[1]["content"] = "card ending 48215"
    _, missing = sensitive_provenance(messages, [("c1", 2, "change_card_pin", {"current_pin": "4821"})], server)
    assert missing == ["c1.current_pin"]


def test_dedup_keeps_sets_below_the_threshold() -> None:
    d = Deduper(0.7)
    assert d.add(frozenset("abc"))
    assert not d.add(frozenset("abc"))                 # identical
    assert d.add(frozenset("abd"))                     # 2/4 = 0.5
    assert d.add(frozenset("abcdefghij"))              # 3/10 at most
    assert not d.add(frozenset("abcdefghi"))            # 9/10 of a kept set
    assert d.add(frozenset("xyz"))


def test_dedup_prefix_filter_finds_every_similar_pair() -> None:
    rng = random.Random(7)
    universe = [f"e{i}" for i in range(14)]
    sets = [frozenset(rng.sample(universe, rng.randint(1, 7))) for _ in range(400)]
    fast = Deduper(0.7)
    kept_fast = [s for s in sets if fast.add(s)]
    kept_slow: list[frozenset[str]] = []
    for s in sets:
        if all(len(s & k) / len(s | k) < 0.7 for k in kept_slow):
            kept_slow.append(s)
    assert kept_fast == kept_slow


def test_call_set_distinguishes_arguments_servers_and_repeats() -> None:
    a = {"servers": ["banking"], "turns": [{"calls": [{"name": "get_account", "arguments": {"account_id": "A"}}]}]}
    b = {"servers": ["banking"], "turns": [{"calls": [{"name": "get_account", "arguments": {"account_id": "B"}}]}]}
    c = {"servers": ["budget"], "turns": [{"calls": [{"name": "get_account", "arguments": {"account_id": "A"}}]}]}
    twice = {"servers": ["banking"], "turns": [{"calls": a["turns"][0]["calls"] * 2}]}
    assert len({call_set(a), call_set(b), call_set(c)}) == 3
    assert len(call_set(twice)) == 2
    empty = {"servers": ["banking"], "kind": "irrelevance", "turns": [{"user": "Hi! What is 2+2?", "calls": []}]}
    assert call_set(empty) == call_set({**empty, "turns": [{"user": "hi what is 2 2", "calls": []}]})
