"""Sessions: calls and their two error channels, transactions, fingerprints, fork, snapshot, diff."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from prove.env import (
    EPOCH,
    INTERNAL_ERRORS,
    HookError,
    InvalidRequestError,
    Server,
    Session,
    SessionClosedError,
    ToolDefinitionError,
    WorldGen,
)
from prove.env.state import (
    diff_table,
    table_digest,
    table_rows,
    written_changes,
    written_digest,
)
from prove.env.world import build_template, connect

from .conftest import pin_of
from .toy import SCHEMA, make_server


def test_read_call_returns_data(session: Session) -> None:
    r = session.call("get_wallet", {"wallet_id": "W-10002"})
    assert r.ok and r.error is None
    assert r.data["wallet_id"] == "W-10002" and isinstance(r.data["balance"], float)
    assert r.content == r.data
    assert session.log[-1].name == "get_wallet" and session.log[-1].server == "toy"


def test_write_call_changes_state_and_ids_are_deterministic(session: Session) -> None:
    before = session.fingerprint()
    r = session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 5, "pin": pin_of(session, "W-10002")})
    assert r.ok and r.data["move_id"] == "MV-10001" and r.data["amount"] == 5.0
    assert session.fingerprint() != before
    r2 = session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 1, "pin": pin_of(session, "W-10002")})
    assert r2.data["move_id"] == "MV-10002"


def test_an_entity_row_is_read_as_it_is_now(session: Session) -> None:
    was = session.row("wallet", "W-10002")
    assert was is not None and was["wallet_id"] == "W-10002" and session.row("wallet", "W-99999") is None
    session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 5, "pin": pin_of(session, "W-10002")})
    now = session.row("wallet", "W-10002")
    assert now is not None and now["balance"] == was["balance"] - 5 and session.row("nothing", "W-10002") is None


def test_tool_error_is_structured_and_rolls_back_partial_write(session: Session) -> None:
    before = session.fingerprint()
    # `move` debits before checking the PIN: the savepoint must undo the debit.
    r = session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 5, "pin": "0000x"})
    assert not r.ok and r.code == "wrong_pin"
    assert r.content == {"error": {"code": "wrong_pin", "message": "The PIN is wrong."}}
    assert session.fingerprint() == before and not session.diff()
    # The ID counter rolled back too: the next successful move still gets the first ID.
    ok = session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 1, "pin": pin_of(session, "W-10002")})
    assert ok.data["move_id"] == "MV-10001"


def test_ctx_get_raises_not_found_naming_the_list_tool(session: Session) -> None:
    r = session.call("get_wallet", {"wallet_id": "nope"})
    assert r.error == {"code": "not_found", "message": "No wallet has ID 'nope'.",
                       "hint": "Call list_wallets to see the IDs that exist."}


@pytest.mark.parametrize("args, fragment", [
    ({"wallet_id": 5}, "wallet_id: Input should be a valid string"),
    ({}, "wallet_id: required parameter is missing"),
    ({"wallet_id": "W-10002", "extra": 1}, "extra: unknown parameter"),
    ("{not json", "not valid JSON"),
    ([1, 2], "must be a JSON object, not list"),
    ("[1]", "must be a JSON object, not list"),
    ({"wallet_id": "x" * 20_000}, "at most 10000 characters"),
])
def test_invalid_arguments(session: Session, args: object, fragment: str) -> None:
    r = session.call("get_wallet", args)
    assert r.code == "invalid_arguments"
    assert fragment in r.error["message"]
    assert r.error["hint"] == "Required: wallet_id (string)."
    assert len(r.error["message"]) < 600  # hostile input is echoed truncated


def test_json_string_arguments_and_none_are_accepted(session: Session) -> None:
    assert session.call("get_wallet", '{"wallet_id": "W-10002"}').ok
    assert session.call("list_wallets", None).ok


def test_nan_and_nonpositive_amounts_rejected(session: Session) -> None:
    for amount in (float("nan"), float("inf"), -1, 0):
        r = session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": amount, "pin": "1"})
        assert r.code == "invalid_arguments", amount


def test_unknown_tool_suggests_close_names_but_never_hidden_ones(session: Session) -> None:
    r = session.call("get_walet", {})
    assert r.code == "unknown_tool" and "get_wallet" in r.error["hint"]
    r = session.call("count_walets", {})
    assert "count_wallets" not in r.error.get("hint", "")
    r = session.call(None, {})  # type: ignore[arg-type]
    assert r.code == "unknown_tool"


def test_hidden_tools_are_callable_but_not_listed(session: Session) -> None:
    assert "count_wallets" not in session.tools()
    assert "count_wallets" in session.tools(include_hidden=True)
    assert session.call("count_wallets").data == 20
    assert session.tool("count_wallets").hidden and session.tool("nope") is None
    refused = session.call("count_wallets", allow_hidden=False)
    assert refused.code == "unknown_tool" and "count_wallets" not in refused.error["hint"]
    assert {s["function"]["name"] for s in session.tool_schemas()} == {"get_wallet", "list_wallets", "move", "explode"}


def test_internal_error_is_logged_counted_and_rolled_back(session: Session, toy: Server,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    before = session.fingerprint()
    count = INTERNAL_ERRORS.count("toy", "explode")
    with caplog.at_level(logging.ERROR, logger="prove.env"):
        r = session.call("explode", {"wallet_id": "W-10005"})
    assert r.code == "internal_error" and "bug" in r.error["message"]
    assert INTERNAL_ERRORS.count("toy", "explode") == count + 1
    assert "toy.explode" in caplog.text
    assert session.fingerprint() == before


def test_same_seed_same_world_different_seed_different_world(toy: Server) -> None:
    with Session([toy], world=3) as a, Session([toy], world=3) as b, Session([toy], world=4) as c:
        assert a.fingerprint() == b.fingerprint() != c.fingerprint()


def test_fingerprint_is_logical_and_returns_after_undo(session: Session) -> None:
    start = session.fingerprint()
    pin = pin_of(session, "W-10002")
    session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 5, "pin": pin})
    moved = session.fingerprint()
    db = session._runtimes[0].db
    db.execute("UPDATE wallets SET balance = balance + 5 WHERE wallet_id = 'W-10002'")
    db.execute("UPDATE wallets SET balance = balance - 5 WHERE wallet_id = 'W-10003'")
    db.execute("DELETE FROM moves")
    assert session.fingerprint() == start != moved


def test_fork_is_isolated(session: Session) -> None:
    pin = pin_of(session, "W-10002")
    session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 5, "pin": pin})
    child = session.fork()
    assert child.id != session.id and child.fingerprint() == session.fingerprint()
    assert len(child.log) == len(session.log)
    child.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 7, "pin": pin})
    assert child.fingerprint() != session.fingerprint()
    assert [c.op for c in child.diff(session)] == ["insert", "update", "update"]
    assert session.call("get_wallet", {"wallet_id": "W-10003"}).data["balance"] + 7 == pytest.approx(
        child.call("get_wallet", {"wallet_id": "W-10003"}).data["balance"])
    child.close()
    assert not session.closed


def test_trial_undoes_what_it_did(session: Session) -> None:
    pin = pin_of(session, "W-10002")
    session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 5, "pin": pin})
    fp, calls, size = session.fingerprint(), len(session.log), session.size()
    with session.trial() as probe:
        assert probe is session
        probe.advance(3600)
        assert probe.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 7, "pin": pin}).data["move_id"] == "MV-10002"
        with probe.trial():  # trials nest
            probe.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 1, "pin": pin})
        assert len(probe.log) == calls + 1
        assert probe.fingerprint() != fp
        with pytest.raises(InvalidRequestError, match="inside a trial"):
            probe.reset()
    assert session.fingerprint() == fp and session.now == EPOCH
    assert len(session.log) == calls and session.size() == size
    assert [c.op for c in session.diff()] == ["insert", "update", "update"]
    # The ID the trial's call took is free again.
    assert session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 7, "pin": pin}).data["move_id"] == "MV-10002"


def test_snapshot_restore_round_trip(session: Session) -> None:
    pin = pin_of(session, "W-10002")
    snap = session.snapshot()
    fp = session.fingerprint()
    session.advance(3600)
    session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 5, "pin": pin})
    mid = session.fingerprint()
    assert [c.table for c in session.diff(snap)] == ["moves", "wallets", "wallets"]
    session.restore(snap)
    assert session.fingerprint() == fp and session.now == EPOCH and len(session.log) == len(snap.log)
    # A stale digest cached for the undone write must not leak into a different later write.
    session.call("move", {"src": "W-10002", "dst": "W-10004", "amount": 5, "pin": pin})
    assert session.fingerprint() not in (fp, mid)


def test_reset_restores_initial_world_clock_and_log(session: Session) -> None:
    start = session.fingerprint()
    session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 5, "pin": pin_of(session, "W-10002")})
    session.advance(60)
    session.reset()
    assert session.fingerprint() == start and session.now == EPOCH and session.log == [] and not session.diff()


def test_diff_reports_row_level_changes(session: Session) -> None:
    session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 5, "pin": pin_of(session, "W-10002")})
    changes = session.diff().to_list()
    assert changes[0]["op"] == "insert" and changes[0]["table"] == "moves"
    assert changes[0]["row"]["at"] == EPOCH.isoformat()
    upd = changes[1]
    assert upd["key"] == {"wallet_id": "W-10002"}
    before, after = upd["changes"]["balance"]
    assert before - after == pytest.approx(5)
    assert session.diff().tables() == {"toy.moves": {"insert": 1, "update": 0, "delete": 0},
                                       "toy.wallets": {"insert": 0, "update": 2, "delete": 0}}


def test_diff_between_worlds_covers_all_tables(toy: Server) -> None:
    with Session([toy], world=1) as a, Session([toy], world=2) as b:
        assert len(a.diff(b)) >= 20


def test_clock_moves_forward_only(session: Session) -> None:
    assert session.now == EPOCH
    session.advance(90)
    assert (session.now - EPOCH).total_seconds() == 90
    with pytest.raises(ValueError):
        session.advance(-1)
    with pytest.raises(ValueError, match="stops at"):
        session.advance(timedelta(days=365 * 500))
    with pytest.raises(ValueError, match="stops at"):
        session.advance(1e15)
    with pytest.raises(ValueError):
        session.advance(float("nan"))
    assert (session.now - EPOCH).total_seconds() == 90


def test_closed_session_refuses_use(toy: Server) -> None:
    s = Session([toy])
    s.close()
    s.close()
    with pytest.raises(SessionClosedError):
        s.call("list_wallets")
    with pytest.raises(SessionClosedError):
        s.fingerprint()


def test_session_ids_are_random_128_bit_unless_given(toy: Server) -> None:
    ids = {Session([toy]).id for _ in range(50)}
    assert len(ids) == 50 and all(len(i) == 32 for i in ids)
    assert Session([toy], session_id="episode-1").id == "episode-1"


def test_multi_server_routing_qualifies_only_colliding_names() -> None:
    a = make_server()
    b = make_server("toy2")
    with Session([a, b], world=1) as s:
        names = set(s.tools(include_hidden=True))
        assert {"toy_move", "toy2_move", "toy_get_wallet", "toy2_get_wallet"} <= names
        assert "move" not in names
        assert s.call("toy2_get_wallet", {"wallet_id": "W-10002"}).ok
        assert s.log[-1].server == "toy2"
    with pytest.raises(ValueError, match="twice"):
        Session([a, a])


def test_call_timeout_after_reset(toy: Server) -> None:
    with Session([toy], world=1, timeout=0.05) as s:
        s.call("spin", {"n": 1000})
        s.reset()
        assert s.call("spin", {"n": 10**10}).code == "timeout"
        assert s.call("count_wallets").data == 20


def test_call_timeout_stops_long_sql_and_rolls_back(toy: Server) -> None:
    with Session([toy], world=1, timeout=0.05) as s:
        start = s.fingerprint()
        assert s.call("spin", {"n": 1000}).data == 1000
        s.reset()
        r = s.call("spin", {"n": 10**10})
        assert r.code == "timeout" and "0.05s" in r.error["message"]
        assert s.fingerprint() == start
        assert s.call("get_wallet", {"wallet_id": "W-10002"}).ok
        assert s.fork().timeout == 0.05


@pytest.mark.parametrize("sql", [
    "INSERT INTO wallets VALUES ('W-10002', 'X', 1.0, '1', 0) ON CONFLICT(wallet_id) DO UPDATE SET balance = 7",
    "INSERT OR REPLACE INTO wallets VALUES ('W-10002', 'X', 2.0, '1', 0)",
    "INSERT OR IGNORE INTO wallets VALUES ('W-99999', 'Y', 3.0, '1', 0)",
    "UPDATE OR IGNORE wallets SET balance = 9 WHERE wallet_id = 'W-10003'",
])
def test_every_conflict_policy_marks_a_dirty_table_again(session: Session, sql: str) -> None:
    db = session._runtimes[0].db
    db.execute("UPDATE wallets SET balance = 0 WHERE wallet_id = 'W-10004'")
    first = session.fingerprint()
    db.execute(sql)  # a second write to an already-dirty table, under each conflict policy
    assert session.fingerprint() != first


_TAGS = """
CREATE TABLE tags (tag_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, weight REAL);
CREATE TABLE links (a TEXT NOT NULL, b TEXT NOT NULL, note TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
"""


def _tags(w: WorldGen) -> dict[str, list[dict[str, object]]]:
    return {"tags": [{"tag_id": i, "name": f"t{i}", "weight": i / 3} for i in range(1, 6)],
            "links": [{"a": f"x{i}", "b": f"y{i % 2}", "note": None} for i in range(4)]}


@pytest.mark.parametrize("sql", [
    "INSERT OR REPLACE INTO tags VALUES (9, 't1', 0.5)",  # tag 1 goes through the unique name: no trigger sees it
    "UPDATE OR REPLACE tags SET name = 't2' WHERE tag_id = 3",
    "INSERT OR REPLACE INTO tags VALUES (2, 't2', 0.1)",
    "INSERT INTO tags VALUES (0, 'first', NULL) ON CONFLICT DO NOTHING",
    "UPDATE tags SET tag_id = tag_id + 10 WHERE tag_id > 3",
    "UPDATE tags SET weight = weight WHERE tag_id = 1",
    "DELETE FROM tags WHERE tag_id = 4",
    "UPDATE links SET b = 'y9' WHERE a = 'x1'",
    "INSERT INTO links VALUES ('x0', 'y7', 'a''b,c')",
])
def test_a_written_table_is_rehashed_and_diffed_from_its_written_rows_as_from_all(sql: str) -> None:
    template = build_template("tags", _TAGS, _tags, 0)
    db = connect()
    db.deserialize(template.data)
    db.execute(sql)
    db.execute("UPDATE tags SET weight = 1.0 / 7 WHERE tag_id = 5")
    for table, meta in template.tables.items():
        assert written_digest(db, meta, template.row_texts(table)) == table_digest(db, meta)
        full = diff_table("tags", meta, frozenset(template.rows(table).values()), table_rows(db, meta))
        assert written_changes("tags", meta, db, template.rows(table)) == full


def test_a_world_with_a_null_in_a_primary_key_fails_at_build() -> None:
    with pytest.raises(ToolDefinitionError, match="primary key holds NULL in"):
        build_template("nulls", "CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT);",
                       lambda w: {"t": [{"k": None, "v": "a"}, {"k": None, "v": "b"}]}, 0)


def test_a_read_tool_that_writes_is_caught_as_a_bug(session: Session, toy: Server) -> None:
    before = session.fingerprint()
    r = session.call("sneaky_write")
    assert r.code == "internal_error" and session.fingerprint() == before
    assert session.call("move", {"src": "W-10002", "dst": "W-10003", "amount": 1,
                                 "pin": pin_of(session, "W-10002")}).ok  # writes still work after


def test_ctx_rng_is_replayable_and_rolls_back(toy: Server) -> None:
    with Session([toy], world=1) as a, Session([toy], world=1) as b, Session([toy], world=2) as c:
        first = [a.call("open_wallet", {"owner": "Ada"}).data["balance"] for _ in range(3)]
        assert first == [b.call("open_wallet", {"owner": "Ada"}).data["balance"] for _ in range(3)]
        assert first != [c.call("open_wallet", {"owner": "Ada"}).data["balance"] for _ in range(3)]
        assert len(set(first)) == 3


def test_advance_runs_server_hooks_in_a_transaction(session: Session) -> None:
    before = session.call("get_wallet", {"wallet_id": "W-10002"}).data["balance"]
    session.advance(3600)  # same day: no interest
    assert session.call("get_wallet", {"wallet_id": "W-10002"}).data["balance"] == before
    session.advance(2 * 86400)
    assert session.call("get_wallet", {"wallet_id": "W-10002"}).data["balance"] == pytest.approx(
        round(round(before * 1.01, 2) * 1.01, 2))
    assert session.diff().tables() == {"toy.wallets": {"insert": 0, "update": 19, "delete": 0}}


def test_a_failing_hook_leaves_clock_and_state_unchanged() -> None:
    from tests.env.toy import build

    def broken(ctx, old, new):  # noqa: ANN001, ANN202 - a hook with a bug
        ctx.db.execute("UPDATE wallets SET balance = 0")
        raise RuntimeError("hook bug")

    server = Server("hooked", "Hooked", "A server whose advance hook fails.", schema=SCHEMA,
                    world=build, on_advance=broken)
    with Session([server], world=1) as s:
        start, now = s.fingerprint(), s.now
        with pytest.raises(HookError, match="hook bug.*nothing changed"):
            s.advance(86400)
        assert s.fingerprint() == start and s.now == now


def test_entity_live_condition_is_checked_at_build() -> None:
    from prove.env import EntityKind, ToolDefinitionError
    from tests.env.toy import build

    bad = Server("badlive", "Bad", "An entity whose live condition is not SQL.", schema=SCHEMA, world=build,
                 entities=[EntityKind("wallet", "wallets", "wallet_id", live="nonsense = = 1")])
    with pytest.raises(ToolDefinitionError, match="live condition"):
        bad.template(0)


def test_interrupt_from_another_thread_stops_the_running_call(toy: Server) -> None:
    import threading

    with Session([toy], world=1) as s:
        start = s.fingerprint()
        s.call("count_wallets")
        s.reset()  # the interrupt hook must survive a reload of the state
        timer = threading.Timer(0.1, s.interrupt)
        timer.start()
        r = s.call("spin", {"n": 10**10})
        timer.join()
        assert r.code == "timeout" and "nothing changed" in r.error["message"]
        assert s.fingerprint() == start and INTERNAL_ERRORS.count("toy", "spin") == 0
        assert s.call("spin", {"n": 100}).data == 100  # the interrupt does not leak into later calls


def test_an_entity_kind_can_name_its_lister_and_a_wrong_name_fails_at_build() -> None:
    from prove.env import EntityKind, ToolDefinitionError
    from tests.env.toy import build

    named = make_server("named")
    named.entities["wallet"] = EntityKind("wallet", "wallets", "wallet_id", "owner", lister="get_wallet")
    with Session([named], world=1) as s:
        assert s.call("get_wallet", {"wallet_id": "nope"}).error["hint"] == "Call get_wallet to see the IDs that exist."
    wrong = Server("wronglister", "Wrong", "An entity kind naming a tool that does not exist.", schema=SCHEMA,
                   world=build, entities=[EntityKind("wallet", "wallets", "wallet_id", lister="no_such_tool")])
    with pytest.raises(ToolDefinitionError, match="unknown lister"):
        wrong.template(0)


class _Hostile:
    """An argument whose every method fails."""

    def __repr__(self) -> str:
        raise RuntimeError("repr")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    __hash__ = None  # type: ignore[assignment]


class _HostileStr(str):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __repr__(self) -> str:
        raise RuntimeError("repr")

    def __str__(self) -> str:
        raise RuntimeError("str")

    __hash__ = str.__hash__


class _UnhashableStr(_HostileStr):
    def __hash__(self) -> int:
        raise RuntimeError("hash")


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


HOSTILE_ARGUMENTS = [
    {"wallet_id": _nested(5000)}, _nested(5000), {"wallet_id": 10**5000}, {"wallet_id": -(10**5000)},
    {"wallet_id": _Hostile()}, {"wallet_id": [_Hostile()]}, {_HostileStr("wallet_id"): "W-10002"},
    {"wallet_id": _HostileStr("W-10002")}, {10**5000: 1}, {("a", "b"): 1}, _Hostile(), {"x" * 100_000: 1},
    "[" * 100_000, "1" * 5000, '{"wallet_id": ' + "9" * 5000 + "}", b"\xff\xfe", float("nan"),
]


@pytest.mark.parametrize("arguments", HOSTILE_ARGUMENTS, ids=range(len(HOSTILE_ARGUMENTS)))
def test_call_never_raises_for_hostile_arguments(session: Session, arguments: object) -> None:
    r = session.call("get_wallet", arguments)
    assert r.ok or r.code == "invalid_arguments", r.error
    assert len(r.text()) < 4000
    assert session.log[-1].name == "get_wallet"


@pytest.mark.parametrize("name", [_nested(5000), 10**5000, _Hostile(), _HostileStr("get_wallet"),
                                  _UnhashableStr("get_wallet"), "x" * 100_000], ids=range(6))
def test_call_never_raises_for_hostile_names(session: Session, name: object) -> None:
    r = session.call(name, {"wallet_id": "W-10002"})  # type: ignore[arg-type]
    assert r.ok or r.code == "unknown_tool"
    assert len(r.name) <= 81 and len(r.error["message"] if r.error else "") < 200


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 10**30, "9223372036854775808"], ids=range(4))
def test_integers_beyond_64_bits_are_invalid_arguments(session: Session, value: object) -> None:
    r = session.call("list_wallets", {"limit": value})
    assert r.code == "invalid_arguments" and "out of range" in r.error["message"]
    assert session.call("list_wallets", {"limit": 2**63 - 1}).ok


def test_the_call_log_keeps_a_bounded_summary(toy: Server) -> None:
    big = "x" * (1 << 20)
    with Session([toy], world=1) as s:
        empty = s.size()
        for _ in range(300):
            s.call("get_wallet", {"wallet_id": big})
            s.call("churn", {"n": 1, "note": "y" * 9000})
        assert s.size() - empty < 5 << 20
        kept = s.log[0].arguments
        assert set(kept) == {"omitted", "preview"} and len(kept["preview"]) < 300
        assert s.log[1].arguments["omitted"] and s.log[1].result.data == 0    # a small result is kept as it is
        s.call("get_wallet", {"wallet_id": "W-10002"})
        assert s.log[-1].arguments == {"wallet_id": "W-10002"} and s.log[-1].result.data["owner"]
    with Session([toy], world=1, log_bytes=100_000) as roomy:
        roomy.call("churn", {"n": 1, "note": "y" * 9000})
        assert roomy.log[0].arguments["note"] == "y" * 9000


def test_interrupt_stops_pure_python_work(toy: Server) -> None:
    import threading

    with Session([toy], world=1) as s:
        start = s.fingerprint()
        timer = threading.Timer(0.2, s.interrupt)
        timer.start()
        r = s.call("churn", {"n": 10**12})
        timer.join()
        assert r.code == "timeout" and s.fingerprint() == start
        assert s.call("churn", {"n": 10}).data == 24  # nothing of the interrupt is left for later calls
        s.interrupt()                                 # between calls: no effect on the next one
        assert s.call("churn", {"n": 10}).data == 24


def test_fork_is_built_by_the_constructor(toy: Server) -> None:
    with Session([toy], world=1, timeout=3.0, log_bytes=123) as s:
        s.call("get_wallet", {"wallet_id": "W-10002"})
        child = s.fork("child")
        assert (child.id, child.timeout, child.log_bytes, child.world) == ("child", 3.0, 123, 1)
        assert child.log == s.log and child.size() == s.size()
        child.interrupt()                             # its own interrupt state, not its parent's
        assert s.call("churn", {"n": 10}).data == 24
        child.close()


def test_a_world_builder_bug_is_a_definition_error_not_a_value_error() -> None:
    from prove.env import ToolDefinitionError

    def broken(w: object) -> dict:
        raise ValueError("a bug in the builder")

    server = Server("broken_world", "Broken", "A server whose world builder has a bug in it.", schema=SCHEMA,
                    world=broken)
    with pytest.raises(ToolDefinitionError, match="world builder failed") as info:
        Session([server])
    assert not isinstance(info.value, ValueError)
