"""The listing filter: terms from optional arguments, ANDed in order, run against real SQLite."""

from __future__ import annotations

import sqlite3

import pytest

from prove.env import Ctx, Server, Session, ToolError, Where


@pytest.fixture
def db() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.row_factory = sqlite3.Row
    db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, kind TEXT, n INTEGER)")
    db.executemany("INSERT INTO t VALUES (?, ?, ?)", [(i, "ab"[i % 2], i) for i in range(1, 11)])
    return db


def test_filters_left_at_none_add_nothing(db: sqlite3.Connection) -> None:
    where = Where()
    where.eq("kind", None)
    where.cmp("n", ">=", None)
    assert (where.sql, where.clause, where.params) == ("1", "", [])
    assert db.execute(f"SELECT count(*) FROM t WHERE {where.sql}").fetchone()[0] == 10


def test_terms_and_params_keep_their_order(db: sqlite3.Connection) -> None:
    where = Where()
    where.eq("kind", "a")
    where.add("(n = ? OR n = ?)", 3, 4)
    where.cmp("n", "<=", 0)          # 0 is a given filter, not a missing one
    assert where.sql == "kind = ? AND (n = ? OR n = ?) AND n <= ?"
    assert where.clause == " WHERE " + where.sql and where.params == ["a", 3, 4, 0]
    assert db.execute(f"SELECT count(*) FROM t{where.clause}", where.params).fetchone()[0] == 0


def test_page_counts_every_match_and_returns_the_first_limit(db: sqlite3.Connection) -> None:
    where = Where()
    where.eq("kind", "b")
    total, rows = where.page(db, "t", "n DESC", 2)
    assert total == 5 and [r["n"] for r in rows] == [9, 7]
    total, rows = where.page(db, "t", "n", 1, select="n * 10 AS x")
    assert total == 5 and [r["x"] for r in rows] == [10]


def test_entity_filter_checks_the_id_exists(toy: Server, session: Session) -> None:
    db = session._runtimes[0].db
    ctx = Ctx(db, toy, session)
    (wallet_id,) = db.execute("SELECT wallet_id FROM wallets ORDER BY wallet_id LIMIT 1").fetchone()
    where = Where()
    where.entity(ctx, "wallet", "src", None)
    where.entity(ctx, "wallet", "src", wallet_id)
    assert where.sql == "src = ?" and where.params == [wallet_id]
    with pytest.raises(ToolError) as info:
        where.entity(ctx, "wallet", "src", "W-0")
    assert info.value.code == "not_found" and where.params == [wallet_id]


def test_get_with_sql_checks_the_id_then_returns_that_query_row(toy: Server, session: Session) -> None:
    db = session._runtimes[0].db
    ctx = Ctx(db, toy, session)
    (wallet_id, owner) = db.execute("SELECT wallet_id, owner FROM wallets ORDER BY wallet_id LIMIT 1").fetchone()
    sql = "SELECT w.wallet_id, upper(w.owner) AS shout FROM wallets w WHERE w.wallet_id = ?"
    row = ctx.get("wallet", wallet_id, sql)
    assert (row["wallet_id"], row["shout"]) == (wallet_id, owner.upper())
    with pytest.raises(ToolError) as info:
        ctx.get("wallet", "W-0", sql)
    assert info.value.code == "not_found"


def test_update_sets_the_given_columns_of_one_entity(toy: Server, session: Session) -> None:
    db = session._runtimes[0].db
    ctx = Ctx(db, toy, session)
    first, second = [r[0] for r in db.execute("SELECT wallet_id FROM wallets ORDER BY wallet_id LIMIT 2")]
    before = db.execute("SELECT owner, balance FROM wallets WHERE wallet_id = ?", (second,)).fetchone()
    ctx.update("wallet", first, {"owner": "Ada Lovelace", "balance": 12.5})
    ctx.update("wallet", first, {})
    assert tuple(db.execute("SELECT owner, balance FROM wallets WHERE wallet_id = ?", (first,)).fetchone()) == (
        "Ada Lovelace", 12.5)
    assert db.execute("SELECT owner, balance FROM wallets WHERE wallet_id = ?", (second,)).fetchone() == before
