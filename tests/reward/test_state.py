"""The state component: the pure diff comparison, and replays on the toy server."""

from __future__ import annotations

import pytest

from prove.env import RowChange
from prove.records import Example
from prove.reward import Call, RewardConfig, Scorer, compare, replay


def _upd(key: str, before: dict, after: dict, table: str = "wallets") -> RowChange:
    return RowChange("toy", table, "update", {"wallet_id": key}, {"wallet_id": key, **before},
                     {"wallet_id": key, **after})


def _ins(key: str, row: dict) -> RowChange:
    return RowChange("toy", "moves", "insert", {"move_id": key}, None, {"move_id": key, **row})


def test_identical_diffs_score_one() -> None:
    gold = [_upd("W-1", {"balance": 10.0}, {"balance": 5.0}), _ins("MV-1", {"amount": 5.0})]
    assert compare(gold, list(gold)).value == 1.0


def test_nothing_done() -> None:
    gold = [_upd("W-1", {"balance": 10.0}, {"balance": 5.0})]
    s = compare(gold, [])
    assert s.value == 0.0 and s.credit == 0.0 and s.collateral == 0


def test_read_only_gold() -> None:
    assert compare([], []).value == 1.0
    s = compare([], [_upd("W-1", {"balance": 1.0}, {"balance": 0.0})])
    assert s.value == pytest.approx(0.5) and s.collateral == 1
    many = [_upd(f"W-{i}", {"balance": 1.0}, {"balance": 0.0}) for i in range(5)]
    assert compare([], many).value == -1.0  # clipped


def test_partial_update_and_extra_columns() -> None:
    gold = [_upd("W-1", {"balance": 10.0, "frozen": 0}, {"balance": 5.0, "frozen": 0})]
    wrong_value = [_upd("W-1", {"balance": 10.0, "frozen": 0}, {"balance": 6.0, "frozen": 0})]
    extra_column = [_upd("W-1", {"balance": 10.0, "frozen": 0}, {"balance": 5.0, "frozen": 1})]
    assert compare(gold, wrong_value).value == 0.0
    assert compare(gold, extra_column).value == pytest.approx(0.5)
    assert compare(gold, [_upd("W-1", {"balance": 10.0}, {"balance": 5.0 + 1e-12})]).value == 1.0


def test_collateral_rows_cost() -> None:
    gold = [_upd("W-1", {"balance": 10.0}, {"balance": 5.0}), _upd("W-2", {"balance": 0.0}, {"balance": 5.0})]
    episode = gold + [_upd("W-3", {"balance": 1.0}, {"balance": 0.0})]
    s = compare(gold, episode, collateral_weight=0.5)
    assert s.credit == 1.0 and s.collateral == 1 and s.value == pytest.approx(0.75)
    assert compare(gold, episode, collateral_weight=0.0).value == 1.0


def test_op_mismatch() -> None:
    gold = [_ins("MV-1", {"amount": 5.0})]
    deleted = [RowChange("toy", "moves", "delete", {"move_id": "MV-1"}, {"move_id": "MV-1", "amount": 5.0}, None)]
    assert compare(gold, deleted).credit == 0.0


def test_an_insert_under_a_shifted_id_still_counts() -> None:
    gold = [_ins("MV-1", {"src": "W-1", "amount": 5.0})]
    episode = [_ins("MV-1", {"src": "W-9", "amount": 1.0}), _ins("MV-2", {"src": "W-1", "amount": 5.0})]
    s = compare(gold, episode)
    # The intended move was made (as MV-2, after another one took MV-1): credit, and MV-1 is collateral.
    assert s.credit == 1.0 and s.collateral == 1 and s.value == pytest.approx(0.5)
    only_shifted = compare(gold, [_ins("MV-2", {"src": "W-1", "amount": 5.0})])
    assert only_shifted.value == 1.0 and only_shifted.collateral == 0
    half = compare(gold, [_ins("MV-1", {"src": "W-1", "amount": 4.0})])
    assert half.credit == pytest.approx(0.5) and half.collateral == 0


def test_inserts_without_other_columns_match_by_key() -> None:
    link = RowChange("toy", "links", "insert", {"a": 1, "b": 2}, None, {"a": 1, "b": 2})
    other = RowChange("toy", "links", "insert", {"a": 1, "b": 3}, None, {"a": 1, "b": 3})
    assert compare([link], [link]).value == 1.0
    assert compare([link], [other]).credit == 0.0


def test_replay_on_the_toy_server(by_id: dict[str, Example]) -> None:
    ex = by_id["chain-3"]
    gold_calls = [(c.name, c.arguments, 0) for c in ex.gold_calls()]
    gold = replay(ex.servers, ex.world, gold_calls)
    assert gold.outcomes == [True, True, True]
    assert gold.fingerprint == ex.fingerprint
    assert {(ch.table, ch.op) for ch in gold.diff} == {("wallets", "update"), ("moves", "insert")}
    twice = replay(ex.servers, ex.world, gold_calls[:2] + gold_calls[1:])
    s = compare(gold.diff, twice.diff)
    assert s.value < 1.0 and s.collateral == 1  # the second move: balances off, one more row
    offered = {t.function.name for t in ex.tools}
    hidden = replay(ex.servers, ex.world, [("count_wallets", {}, 0), (None, {}, 0), ("get_wallet", None, 0)], offered=offered)
    assert hidden.outcomes == [False, False, False] and not hidden.diff


def test_replay_after_a_prefix(by_id: dict[str, Example]) -> None:
    ex = by_id["two-turns"]
    calls = [(c.name, c.arguments, t) for t, turn in enumerate(ex.turns) for c in turn.calls]
    r = replay(ex.servers, ex.world, calls[1:], prefix=calls[:1], first=1)
    assert r.outcomes == [True, True] and len(r.diff) == 3  # two balances and one move


def test_replay_lets_each_turns_time_pass_before_its_calls(by_id: dict[str, Example]) -> None:
    ex = by_id["two-turns"]
    calls = [(c.name, c.arguments, t) for t, turn in enumerate(ex.turns) for c in turn.calls]
    still = replay(ex.servers, ex.world, calls)
    later = replay(ex.servers, ex.world, calls, advance=(0, 86_400 * 30), last=1)
    move = next(ch for ch in later.diff if ch.table == "moves")
    assert move.after["at"] > next(ch for ch in still.diff if ch.table == "moves").after["at"]
    assert later.fingerprint != still.fingerprint
    # The reward replays the record's own advances, gold and episode alike: gold still ends in
    # the gold's state.
    record = ex.model_dump(mode="json")
    record["turns"][1]["advance"] = 86_400 * 30
    scorer = Scorer([record], RewardConfig(), execute=True)
    gold = [Call(c.name, dict(c.arguments), None, t) for t, turn in enumerate(ex.turns) for c in turn.calls]
    score = scorer.score_calls(ex.id, gold)
    assert score.components["state"] == 1.0 and scorer.gold_replay(ex.id).fingerprint == later.fingerprint
