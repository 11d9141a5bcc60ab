"""Behaviour tests of the trading server: its main flows and its state-dependent failures."""

from __future__ import annotations

import pytest

from prove.env import Session

from .helpers import fails, ok, session_fixture

NIGHT = 14 * 3600          # Monday 09:00 -> Monday 23:00, market closed
SATURDAY = 5 * 86400       # Monday 09:00 -> Saturday 09:00


s = session_fixture("trading")


def accounts(s: Session) -> dict[str, dict]:
    return {a["kind"]: a for a in ok(s, "list_accounts")["accounts"]}


def test_world_is_open_at_the_epoch_and_quotes_are_consistent(s: Session) -> None:
    status = ok(s, "get_market_status")
    assert status == {**status, "now": "2026-03-16T09:00:00", "session": "pre_market", "is_open": True,
                      "closes_at": "2026-03-16T20:00:00", "next_open": None}
    q = ok(s, "get_quote", {"ticker": "aapl"})
    assert q["ticker"] == "AAPL" and q["bid"] < q["price"] < q["ask"]
    assert q["change"] == pytest.approx(q["price"] - q["previous_close"], abs=0.011)
    with Session("trading", world=0) as other:  # prices are a function of the clock only
        assert ok(other, "get_quote", {"ticker": "AAPL"}) == q
    s.advance(3 * 3600)
    assert ok(s, "get_quote", {"ticker": "AAPL"})["price"] != q["price"]
    assert ok(s, "get_market_status")["session"] == "regular"


def test_market_buy_then_sell_moves_cash_positions_and_history(s: Session) -> None:
    acct = accounts(s)["individual"]["account_id"]
    before = ok(s, "get_account_summary", {"account_id": acct})
    ask = ok(s, "get_quote", {"ticker": "KO"})["ask"]
    held = ok(s, "list_positions", {"account_id": acct, "ticker": "KO"})["positions"]
    assert held == []

    order = ok(s, "place_order", {"account_id": acct, "ticker": "KO", "side": "buy", "quantity": 10})
    assert order["status"] == "filled" and order["fill_price"] == ask
    assert order["total"] == round(10 * ask, 2)
    after = ok(s, "get_account_summary", {"account_id": acct})
    assert after["cash"] == pytest.approx(before["cash"] - order["total"], abs=0.005)
    assert after["positions"] == before["positions"] + 1
    (pos,) = ok(s, "list_positions", {"account_id": acct, "ticker": "KO"})["positions"]
    assert pos["quantity"] == 10 and pos["avg_cost"] == ask
    latest = ok(s, "list_activity", {"account_id": acct, "limit": 1})["activities"][0]
    assert latest["kind"] == "buy" and latest["order_id"] == order["order_id"] and latest["amount"] == -order["total"]
    assert ok(s, "get_order", {"order_id": order["order_id"]})["status"] == "filled"

    sold = ok(s, "place_order", {"account_id": acct, "ticker": "KO", "side": "sell", "quantity": 10})
    assert sold["status"] == "filled" and sold["fill_price"] < ask  # sells at the bid
    assert ok(s, "list_positions", {"account_id": acct, "ticker": "KO"})["positions"] == []
    sale = ok(s, "list_activity", {"account_id": acct, "kind": "sell", "limit": 1})["activities"][0]
    assert sale["realized_gain"] == pytest.approx(10 * (sold["fill_price"] - ask), abs=0.01)
    tables = s.diff().tables()
    assert tables["trading.orders"]["insert"] == 2 and tables["trading.activity"]["insert"] == 2


def test_limit_order_rests_reserves_buying_power_and_cancel_releases_it(s: Session) -> None:
    acct = accounts(s)["individual"]["account_id"]
    power = ok(s, "get_account_summary", {"account_id": acct})["buying_power"]
    price = ok(s, "get_quote", {"ticker": "MSFT"})["price"]
    limit = round(price * 0.8, 2)
    order = ok(s, "place_order",
               {"account_id": acct, "ticker": "MSFT", "side": "buy", "quantity": 3, "order_type": "limit",
                                  "limit_price": limit, "time_in_force": "gtc"})
    assert order["status"] == "open" and order["fill_price"] is None and order["expires_at"] is None
    summary = ok(s, "get_account_summary", {"account_id": acct})
    assert summary["buying_power"] == pytest.approx(power - 3 * limit, abs=0.01)
    assert order["order_id"] in {o["order_id"] for o in ok(s, "list_orders", {"status": "open"})["orders"]}

    cancelled = ok(s, "cancel_order", {"order_id": order["order_id"]})
    assert cancelled["status"] == "cancelled" and cancelled["cancelled_at"] == "2026-03-16T09:00:00"
    assert ok(s, "get_account_summary", {"account_id": acct})["buying_power"] == power
    fails(s, "cancel_order", "order_not_open", {"order_id": order["order_id"]})


def test_marketable_limit_fills_at_once_at_the_better_price(s: Session) -> None:
    acct = accounts(s)["individual"]["account_id"]
    ask = ok(s, "get_quote", {"ticker": "VTI"})["ask"]
    order = ok(s, "place_order",
               {"account_id": acct, "ticker": "VTI", "side": "buy", "quantity": 2, "order_type": "limit",
                                  "limit_price": round(ask + 5, 2)})
    assert order["status"] == "filled" and order["fill_price"] == ask


def test_resting_limit_fills_when_the_market_reaches_it(s: Session) -> None:
    acct = accounts(s)["individual"]["account_id"]
    ask = ok(s, "get_quote", {"ticker": "NVDA"})["ask"]
    order = ok(s, "place_order",
               {"account_id": acct, "ticker": "NVDA", "side": "buy", "quantity": 1, "order_type": "limit",
                                  "limit_price": round(ask * 0.995, 2), "time_in_force": "gtc"})
    assert order["status"] == "open"
    for _ in range(400):  # walk the clock in half hours until the ask reaches the limit while open
        s.advance(1800)
        q = ok(s, "get_quote", {"ticker": "NVDA"})
        if q["session"] != "closed" and q["ask"] <= order["limit_price"]:
            break
    else:
        pytest.fail("NVDA never reached the limit")
    assert ok(s, "get_order", {"order_id": order["order_id"]})["status"] == "open"  # reads never fill
    ok(s, "create_watchlist", {"name": "Semis"})  # any write catches up with the market
    filled = ok(s, "get_order", {"order_id": order["order_id"]})
    assert filled["status"] == "filled" and filled["fill_price"] == q["ask"] <= order["limit_price"]
    (pos,) = ok(s, "list_positions", {"account_id": acct, "ticker": "NVDA"})["positions"]
    assert pos["quantity"] >= 1


def test_market_closed_at_night_and_on_weekends_but_limit_orders_queue(s: Session) -> None:
    acct = accounts(s)["individual"]["account_id"]
    s.advance(NIGHT)
    status = ok(s, "get_market_status")
    assert not status["is_open"] and status["next_open"] == "2026-03-17T04:00:00"
    fails(s, "place_order", "market_closed", {"account_id": acct, "ticker": "AAPL", "side": "buy", "quantity": 1})
    bid = ok(s, "get_quote", {"ticker": "AAPL"})["bid"]
    queued = ok(s, "place_order",
                {"account_id": acct, "ticker": "AAPL", "side": "buy", "quantity": 1, "order_type": "limit",
                                   "limit_price": round(bid * 0.5, 2)})
    assert queued["status"] == "open" and queued["expires_at"] == "2026-03-17T20:00:00"
    s.advance(SATURDAY)  # the day order's session closed unfilled
    assert ok(s, "get_market_status")["session"] == "closed"
    fails(s, "place_order", "market_closed", {"account_id": acct, "ticker": "AAPL", "side": "buy", "quantity": 1})
    ok(s, "create_price_alert", {"ticker": "AAPL", "condition": "above", "target_price": round(bid * 2, 2)})
    expired = ok(s, "get_order", {"order_id": queued["order_id"]})
    assert expired["status"] == "expired" and expired["cancelled_at"] == "2026-03-17T20:00:00"
    fails(s, "cancel_order", "order_not_open", {"order_id": queued["order_id"]})


def test_buying_power_and_share_checks(s: Session) -> None:
    acct = accounts(s)["individual"]["account_id"]
    power = ok(s, "get_account_summary", {"account_id": acct})["buying_power"]
    ask = ok(s, "get_quote", {"ticker": "COST"})["ask"]
    too_many = int(power // ask) + 1
    fails(s, "place_order", "insufficient_buying_power",
          {"account_id": acct, "ticker": "COST", "side": "buy", "quantity": too_many})
    fails(s, "place_order", "insufficient_shares",
          {"account_id": acct, "ticker": "COST", "side": "sell", "quantity": 1})
    pos = ok(s, "list_positions", {"account_id": acct})["positions"][0]
    fails(s, "place_order", "insufficient_shares", {"account_id": acct, "ticker": pos["ticker"], "side": "sell",
                                                    "quantity": pos["available"] + 1})
    # shares in an open sell order are committed
    high = round(pos["price"] * 3, 2)
    ok(s, "place_order", {"account_id": acct, "ticker": pos["ticker"], "side": "sell", "quantity": pos["available"],
                          "order_type": "limit", "limit_price": high, "time_in_force": "gtc"})
    assert ok(s, "list_positions", {"account_id": acct, "ticker": pos["ticker"]})["positions"][0]["available"] == 0
    fails(s, "place_order", "insufficient_shares",
          {"account_id": acct, "ticker": pos["ticker"], "side": "sell", "quantity": 1})


@pytest.mark.parametrize("args", [
    {"order_type": "limit"},
    {"order_type": "market", "limit_price": 10.0},
    {"order_type": "market", "time_in_force": "gtc"},
])
def test_invalid_order_shapes(s: Session, args: dict) -> None:
    acct = accounts(s)["individual"]["account_id"]
    fails(s, "place_order", "invalid_order",
          {"account_id": acct, "ticker": "AAPL", "side": "buy", "quantity": 1, **args})


def test_unknown_ids_and_bad_input(s: Session) -> None:
    acct = accounts(s)["individual"]["account_id"]
    fails(s, "get_quote", "not_found", {"ticker": "NOPE"})
    fails(s, "place_order", "not_found", {"account_id": "BRK-99999", "ticker": "AAPL", "side": "buy", "quantity": 1})
    fails(s, "place_order", "not_found", {"account_id": acct, "ticker": "'; DROP TABLE orders; --", "side": "buy",
                                          "quantity": 1})
    fails(s, "place_order", "invalid_arguments", {"account_id": acct, "ticker": "AAPL", "side": "buy", "quantity": 0})
    fails(s, "list_activity", "invalid_date", {"start_date": "2026-13-45"})
    fails(s, "list_activity", "invalid_range", {"start_date": "2026-03-10", "end_date": "2026-03-01"})
    fails(s, "get_order", "not_found", {"order_id": ""})


def test_restricted_joint_account_may_sell_but_not_buy() -> None:
    with Session("trading", world=6) as s:
        joint = accounts(s)["joint"]
        assert joint["status"] == "restricted"
        fails(s, "place_order", "account_restricted", {"account_id": joint["account_id"], "ticker": "KO", "side": "buy",
                                                       "quantity": 1})
        pos = ok(s, "list_positions", {"account_id": joint["account_id"]})["positions"][0]
        sold = ok(s, "place_order",
                  {"account_id": joint["account_id"], "ticker": pos["ticker"], "side": "sell", "quantity": 1})
        assert sold["status"] == "filled"


def test_transfers_and_the_roth_ira_contribution_limit(s: Session) -> None:
    acc = accounts(s)
    ind, ira = acc["individual"]["account_id"], acc["roth_ira"]["account_id"]
    room = ok(s, "get_account_summary", {"account_id": ira})["contribution_room"]
    assert 0 < room <= 7500
    moved = ok(s, "transfer_cash", {"from_account_id": ind, "to_account_id": ira, "amount": 1000})
    assert moved["amount"] == 1000 and len(moved["activity_ids"]) == 2
    assert moved["to_account_cash"] == pytest.approx(acc["roth_ira"]["cash"] + 1000)
    summary = ok(s, "get_account_summary", {"account_id": ira})
    assert summary["contribution_room"] == room - 1000
    fails(s, "deposit_funds", "contribution_limit_exceeded",
          {"account_id": ira, "bank_link_id": "BNK-10001", "amount": room - 999})
    ok(s, "deposit_funds", {"account_id": ind, "bank_link_id": "BNK-10001", "amount": room})
    fails(s, "transfer_cash", "contribution_limit_exceeded",
          {"from_account_id": ind, "to_account_id": ira, "amount": room - 999})
    ok(s, "transfer_cash", {"from_account_id": ind, "to_account_id": ira, "amount": room - 1000})
    assert ok(s, "get_account_summary", {"account_id": ira})["contribution_room"] == 0
    fails(s, "transfer_cash", "retirement_withdrawal_not_allowed",
          {"from_account_id": ira, "to_account_id": ind, "amount": 10})
    fails(s, "transfer_cash", "same_account", {"from_account_id": ind, "to_account_id": ind, "amount": 10})
    power = ok(s, "get_account_summary", {"account_id": ind})["buying_power"]
    fails(s, "withdraw_funds", "insufficient_funds",
          {"account_id": ind, "bank_link_id": "BNK-10001", "amount": power + 1})
    history = ok(s, "list_activity", {"account_id": ira, "kind": "transfer_in", "limit": 2})["activities"]
    assert history[1]["activity_id"] == moved["activity_ids"][1]


def test_deposits_withdrawals_and_bank_links(s: Session) -> None:
    ind = accounts(s)["individual"]["account_id"]
    links = {b["status"]: b["bank_link_id"] for b in ok(s, "list_bank_links")["bank_links"]}
    cash = ok(s, "get_account_summary", {"account_id": ind})["cash"]
    dep = ok(s, "deposit_funds", {"account_id": ind, "bank_link_id": links["verified"], "amount": 2500})
    assert dep["to_account_cash"] == pytest.approx(cash + 2500)
    wd = ok(s, "withdraw_funds", {"account_id": ind, "bank_link_id": links["verified"], "amount": 500.004})
    assert wd["amount"] == 500.0 and wd["from_account_cash"] == pytest.approx(cash + 2000)
    fails(s, "deposit_funds", "bank_link_unverified",
          {"account_id": ind, "bank_link_id": links["pending_verification"], "amount": 100})
    fails(s, "deposit_funds", "deposit_limit_exceeded",
          {"account_id": ind, "bank_link_id": links["verified"], "amount": 999_999})
    fails(s, "deposit_funds", "invalid_amount", {"account_id": ind, "bank_link_id": links["verified"], "amount": 0.001})


def test_watchlist_flow(s: Session) -> None:
    created = ok(s, "create_watchlist", {"name": "Energy Plays", "tickers": ["xom", "CVX", "XOM"]})
    wid = created["watchlist_id"]
    assert [i["ticker"] for i in created["items"]] == ["CVX", "XOM"]
    fails(s, "create_watchlist", "duplicate_name", {"name": "energy plays"})
    fails(s, "create_watchlist", "not_found", {"name": "Bad", "tickers": ["ZZZZ"]})
    assert ok(s, "add_to_watchlist", {"watchlist_id": wid, "ticker": "XLE"})["count"] == 3
    fails(s, "add_to_watchlist", "already_on_watchlist", {"watchlist_id": wid, "ticker": "XLE"})
    assert ok(s, "remove_from_watchlist", {"watchlist_id": wid, "ticker": "CVX"})["count"] == 2
    fails(s, "remove_from_watchlist", "not_on_watchlist", {"watchlist_id": wid, "ticker": "CVX"})
    names = [w["name"] for w in ok(s, "list_watchlists")["watchlists"]]
    assert "Energy Plays" in names
    deleted = ok(s, "delete_watchlist", {"watchlist_id": wid})
    assert deleted["removed_items"] == 2
    fails(s, "add_to_watchlist", "not_found", {"watchlist_id": wid, "ticker": "XLE"})


def test_price_alert_flow_triggers_after_the_price_moves(s: Session) -> None:
    price = ok(s, "get_quote", {"ticker": "TSLA"})["price"]
    fails(s, "create_price_alert", "condition_already_met",
          {"ticker": "TSLA", "condition": "above", "target_price": price - 1})
    target = round(price * 1.01, 2)
    alert = ok(s, "create_price_alert", {"ticker": "TSLA", "condition": "above", "target_price": target})
    assert alert["status"] == "active" and alert["current_price"] == price
    fails(s, "create_price_alert", "duplicate_alert", {"ticker": "TSLA", "condition": "above", "target_price": target})
    below = ok(s, "create_price_alert", {"ticker": "TSLA", "condition": "below", "target_price": round(price * 0.5, 2)})
    assert ok(s, "cancel_price_alert", {"alert_id": below["alert_id"]})["status"] == "cancelled"
    fails(s, "cancel_price_alert", "alert_not_active", {"alert_id": below["alert_id"]})
    for _ in range(400):
        s.advance(1800)
        if ok(s, "get_quote", {"ticker": "TSLA"})["price"] >= target:
            break
    else:
        pytest.fail("TSLA never reached the target")
    ok(s, "create_watchlist", {"name": "EV"})  # a write catches alerts up
    (fired,
     ) = [a for a in ok(s, "list_price_alerts", {"ticker": "TSLA"})["alerts"] if a["alert_id"] == alert["alert_id"]]
    assert fired["status"] == "triggered" and fired["triggered_price"] >= target
    fails(s, "cancel_price_alert", "alert_not_active", {"alert_id": alert["alert_id"]})


def test_search_and_history(s: Session) -> None:
    found = ok(s, "search_securities", {"query": "apple"})
    assert found["securities"][0]["ticker"] == "AAPL"
    etfs = ok(s, "search_securities", {"kind": "etf", "sector": "bond", "limit": 100})
    assert etfs["total"] >= 3 and all(x["kind"] == "etf" for x in etfs["securities"])
    hist = ok(s, "get_price_history", {"ticker": "SPY", "days": 5})
    assert [c["date"] for c in hist["closes"]] == ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12",
                                                   "2026-03-13"]
    assert hist["closes"][-1]["close"] == ok(s, "get_quote", {"ticker": "SPY"})["previous_close"]


def test_contribution_room_starts_over_in_a_new_tax_year(s: Session) -> None:
    ira = accounts(s)["roth_ira"]["account_id"]
    room = ok(s, "get_account_summary", {"account_id": ira})["contribution_room"]
    ok(s, "deposit_funds", {"account_id": ira, "bank_link_id": "BNK-10001", "amount": room})
    assert ok(s, "get_account_summary", {"account_id": ira})["contribution_room"] == 0
    s.advance(300 * 86400)  # into January 2027
    summary = ok(s, "get_account_summary", {"account_id": ira})
    assert summary["contributions_ytd"] == 0 and summary["contribution_room"] == 7500
    ok(s, "deposit_funds", {"account_id": ira, "bank_link_id": "BNK-10001", "amount": 1000})
    assert ok(s, "get_account_summary", {"account_id": ira})["contributions_ytd"] == 1000


def test_a_sector_search_for_stocks_names_a_stock_sector(s):
    """The stock phrasing draws sectors of stocks (an ETF sector would find none)."""
    from prove.env import registry

    pairs = registry.get("trading").tools["search_securities"].values["kind, sector"]
    for kind, sector in pairs:
        found = ok(s, "search_securities", {"kind": kind, "sector": sector, "limit": 100})
        assert found["total"] >= 1, (kind, sector)
    assert {kind for kind, _ in pairs} == {"stock", "etf"}
