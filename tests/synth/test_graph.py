from __future__ import annotations

import random

from prove.env import registry
from prove.synth.graph import (
    EXPLICIT,
    IMPLICIT,
    NONE,
    build_graph,
    schema_classify,
    schema_hash,
    undoes,
)


def test_schema_classifier_labels_entity_flow_and_set_up_writes() -> None:
    bank = registry.get("banking")
    t = bank.tools
    assert schema_classify(t["list_accounts"], t["get_account"]) == (EXPLICIT, ("account",))
    assert schema_classify(t["list_cards"], t["freeze_card"])[0] == EXPLICIT
    # freeze_card writes a card that get_statement never touches: no edge
    assert schema_classify(t["get_statement"], t["freeze_card"])[0] == NONE
    # a write sets up state for a tool on the same entities that takes nothing it produces
    label, _ = schema_classify(t["add_payee"], t["list_payees"])
    assert label in (EXPLICIT, IMPLICIT)
    assert schema_classify(t["get_account"], t["get_account"])[0] == NONE


def test_graph_covers_visible_tools_only() -> None:
    bank = registry.get("banking")
    g = build_graph(bank)
    assert "get_card_pin" not in g.tools  # hidden
    assert set(g.tools) == {x.name for x in bank.visible_tools}
    counts = g.counts()
    assert counts[EXPLICIT] > 0 and counts[IMPLICIT] > 0 and counts[NONE] > 0
    assert sum(counts.values()) == len(g.tools) * (len(g.tools) - 1)


def test_walks_follow_edges_and_are_deterministic() -> None:
    g = build_graph(registry.get("shopping"))
    for seed in range(30):
        length = 2 + seed % 4
        a = g.walk(random.Random(seed), length)
        assert a == g.walk(random.Random(seed), length)
        assert 1 <= len(a) <= length and len(set(a)) == len(a)
        for i, b in enumerate(a[1:], 1):
            linked = any(g.label(x, b) != NONE for x in a[:i])
            stuck = not any(g.label(x, t) != NONE for x in a[:i] for t in g.tools
                            if t not in a[:i] and not any(undoes(t, c) for c in a[:i]))
            assert linked or stuck, (a, b)  # an independent request only where no edge leads on


def test_a_chain_never_holds_a_tool_and_the_one_that_takes_it_back() -> None:
    assert undoes("add_favorite", "remove_favorite") and undoes("unfreeze_card", "freeze_card")
    assert not undoes("add_favorite", "add_tag") and not undoes("remove_favorite", "remove_tag")
    assert undoes("save_place", "remove_saved_place") and undoes("reopen_issue", "close_issue")
    for server in ("filesystem", "banking", "social_media"):
        g = build_graph(registry.get(server))
        pairs = [(a, b) for a in g.tools for b in g.tools if undoes(a, b)]
        assert pairs, server
        for seed in range(60):
            chain = g.walk(random.Random(seed), 5)
            assert not [(a, b) for a in chain for b in chain if undoes(a, b)], chain


def test_tools_no_edge_reaches_still_get_chains() -> None:
    g = build_graph(registry.get("vehicle"))
    isolated = [t for t in g.tools if not any(g.label(x, t) != NONE for x in g.tools if x != t)]
    seen = {t for seed in range(400) for t in g.walk(random.Random(seed), 3)}
    assert isolated and set(isolated) <= seen
    assert all(len(g.walk(random.Random(s), 3, start=isolated[0])) == 3 for s in range(5))


def test_llm_classifier_refines_and_is_cached_by_schema_hash(tmp_path) -> None:
    bank = registry.get("banking")
    calls = []

    def classifier(server, a, others):
        calls.append(a.name)
        if a.name == "get_profile":
            return {"list_accounts": "implicit", "get_account": "bogus"}
        if a.name == "list_accounts":
            return {"get_account": "none"}
        return {}

    g = build_graph(bank, classifier, classifier_id="fake", cache_dir=tmp_path)
    assert g.classifier == "fake"
    assert g.label("get_profile", "list_accounts") == IMPLICIT      # added
    assert g.label("list_accounts", "get_account") == NONE           # removed
    assert g.label("get_profile", "get_account") == build_graph(bank).label("get_profile", "get_account")  # bad label ignored
    n = len(calls)
    assert n == len(g.tools)
    again = build_graph(bank, classifier, classifier_id="fake", cache_dir=tmp_path)
    assert len(calls) == n  # served from the cache
    assert again.to_dict() == g.to_dict()
    cached = list((tmp_path / "graphs").iterdir())
    assert len(cached) == 1 and schema_hash(bank)[:20] in cached[0].name
