"""Behaviour tests of the banking server: its world, its main flows and its failures.

Every test works on a fresh `Session("banking", world=0)` and finds the entities it needs through
the server's own list tools, the way a model would, so the tests describe behaviour rather than
the particular rows of one world.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import pytest

from prove.env import INTERNAL_ERROR, INTERNAL_ERRORS, Session, registry
from prove.env.asks import as_ask

from .helpers import fails, ok, session_fixture

TODAY = date(2026, 3, 16)
SERVER = registry.get("banking")


s = session_fixture("banking")


def accounts(s: Session, account_type: str) -> list[dict]:
    return ok(s, "list_accounts", {"account_type": account_type})["accounts"]


def balance(s: Session, account_id: str) -> float:
    return ok(s, "get_account", {"account_id": account_id})["current_balance"]


def active_card(s: Session, kind: str) -> dict:
    return next(c for c in ok(s, "list_cards", {"status": "active"})["cards"] if c["kind"] == kind)


def person_payee(s: Session) -> dict:
    return ok(s, "list_payees", {"kind": "person"})["payees"][0]


def recent_purchase(s: Session) -> dict:
    """A posted card purchase from the last few weeks that nobody disputed yet."""
    found = ok(s, "list_transactions", {"status": "posted", "start_date": str(TODAY - timedelta(days=30)),
                                        "limit": 200})["transactions"]
    return next(t for t in found if t["kind"] == "purchase" and t["dispute_id"] is None)


# ----- the server and its world -----------------------------------------------------------------


def test_server_declares_documented_tools():
    visible = SERVER.visible_tools
    assert len(visible) >= 17
    for tool in visible:
        assert len(tool.asks) >= 2, tool.name
    assert SERVER.tools["get_card_pin"].hidden
    assert SERVER.tools["change_card_pin"].sensitive_params == ("current_pin", "new_pin")
    assert SERVER.tools["add_payee"].sensitive_params == ("account_number",)
    assert set(SERVER.entities) == {"account", "transaction", "transfer", "payee", "scheduled_payment", "card",
                                    "statement", "dispute"}


def test_worlds_differ_by_seed_and_stay_small():
    with Session("banking", world=0) as a, Session("banking", world=1) as c:
        assert ok(a, "get_profile")["name"] != ok(c, "get_profile")["name"]
    assert SERVER.template(0).size < 250_000


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_world_has_a_realistic_size(seed):
    db = SERVER.template(seed).db

    def count(table: str, where: str = "1") -> int:
        return db.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0]

    assert count("customers") == 1
    assert 3 <= count("accounts") <= 6
    assert {r[0] for r in db.execute("SELECT type FROM accounts")} == {"checking", "savings", "credit_card"}
    assert 300 <= count("transactions") <= 700
    assert count("transactions", "status = 'pending'") <= 10
    assert count("transactions", "occurred_at > '2026-03-16T09:00:00'") == 0
    assert 10 <= count("payees") <= 30
    assert 2 <= count("cards") <= 5
    assert count("scheduled_payments", "status = 'scheduled'") >= 4
    assert count("disputes") >= 2
    assert count("statements") == 6 * count("accounts")


def test_statements_chain_into_the_current_balance(s):
    for account in ok(s, "list_accounts")["accounts"]:
        statements = ok(s, "list_statements", {"account_id": account["account_id"]})["statements"][::-1]
        assert [st["period"] for st in statements] == ["2025-09", "2025-10", "2025-11", "2025-12", "2026-01",
                                                        "2026-02"]
        for earlier, later in zip(statements, statements[1:]):
            assert later["opening_balance"] == earlier["closing_balance"]
        march = ok(s, "list_transactions", {"account_id": account["account_id"], "status": "posted",
                                            "start_date": "2026-03-01", "limit": 1})["net_amount"]
        owed = account["type"] == "credit_card"
        expected = statements[-1]["closing_balance"] + (-march if owed else march)
        assert account["current_balance"] == pytest.approx(expected, abs=0.005)


def test_statement_breaks_money_out_down_by_category(s):
    card = accounts(s, "credit_card")[0]
    summary = ok(s, "list_statements", {"account_id": card["account_id"], "period": "2026-01"})["statements"][0]
    detail = ok(s, "get_statement", {"statement_id": summary["statement_id"]})
    assert detail["closing_balance"] == pytest.approx(
        detail["opening_balance"] + detail["total_debits"] - detail["total_credits"], abs=0.005)
    assert sum(c["amount"] for c in detail["spending_by_category"]) == pytest.approx(detail["total_debits"], abs=0.01)
    assert detail["minimum_payment_due"] is not None and detail["payment_due_date"] == "2026-02-25"


def test_statements_of_one_month_name_their_accounts(s):
    """Every account has a statement for a month; a listing of that month tells them apart by name."""
    names = {a["account_id"]: a["nickname"] for a in ok(s, "list_accounts")["accounts"]}
    found = ok(s, "list_statements", {"period": "2026-01"})["statements"]
    assert len(found) == len(names) > 1
    assert {st["account_id"]: st["account_name"] for st in found} == names
    detail = ok(s, "get_statement", {"statement_id": found[0]["statement_id"]})
    assert detail["account_name"] == names[found[0]["account_id"]]


def test_available_balance_subtracts_pending_debits(s):
    for account in ok(s, "list_accounts")["accounts"]:
        pending = ok(s, "list_transactions", {"account_id": account["account_id"], "status": "pending", "limit": 200})
        debits = -sum(t["amount"] for t in pending["transactions"] if t["amount"] < 0)
        assert account["pending"] == pytest.approx(debits, abs=0.005)
        if account["type"] == "credit_card":
            expected = account["credit_limit"] - account["current_balance"] - debits
        else:
            expected = account["current_balance"] - debits
        assert account["available_balance"] == pytest.approx(expected, abs=0.005)


def test_read_tools_never_change_state(s):
    checking = accounts(s, "checking")[0]["account_id"]
    before = s.fingerprint()
    transaction = ok(s, "list_transactions", {"account_id": checking})["transactions"][0]["transaction_id"]
    statement = ok(s, "list_statements", {"account_id": checking})["statements"][0]["statement_id"]
    card = ok(s, "list_cards")["cards"][0]["card_id"]
    dispute = ok(s, "list_disputes")["disputes"][0]["dispute_id"]
    ok(s, "get_profile")
    ok(s, "get_account", {"account_id": checking})
    ok(s, "get_transaction", {"transaction_id": transaction})
    ok(s, "get_statement", {"statement_id": statement})
    ok(s, "list_payees")
    ok(s, "list_scheduled_payments", {"status": "all"})
    ok(s, "get_card", {"card_id": card})
    ok(s, "get_card_pin", {"card_id": card})
    ok(s, "get_dispute", {"dispute_id": dispute})
    assert s.fingerprint() == before


# ----- transfers and payments -------------------------------------------------------------------


def test_transfer_moves_both_balances_and_shows_in_history(s):
    checking = accounts(s, "checking")[0]["account_id"]
    savings = accounts(s, "savings")[0]["account_id"]
    start_checking, start_savings = balance(s, checking), balance(s, savings)

    transfer = ok(s, "transfer_between_accounts", {"from_account_id": savings, "to_account_id": checking,
                                                   "amount": 250.75, "memo": "  rent   top-up "})
    assert transfer["from_account_balance"] == pytest.approx(start_savings - 250.75)
    assert transfer["to_account_balance"] == pytest.approx(start_checking + 250.75)
    assert transfer["memo"] == "rent top-up" and transfer["fee"] == 0
    assert balance(s, checking) == pytest.approx(start_checking + 250.75)
    assert balance(s, savings) == pytest.approx(start_savings - 250.75)

    legs = ok(s, "list_transactions", {"start_date": str(TODAY), "limit": 200})["transactions"]
    legs = [t for t in legs if t["transfer_id"] == transfer["transfer_id"]]
    assert sorted((t["account_id"], t["amount"]) for t in legs) == sorted([(checking, 250.75), (savings, -250.75)])
    assert all(t["status"] == "posted" and t["occurred_at"] == "2026-03-16T09:00:00" for t in legs)
    assert ok(s, "list_transactions", {"account_id": checking, "limit": 1})["transactions"][0]["transfer_id"] == \
        transfer["transfer_id"]


def test_transfer_respects_the_available_balance(s):
    checking = accounts(s, "checking")[0]
    savings = accounts(s, "savings")[0]["account_id"]
    free = checking["available_balance"]
    assert checking["pending"] > 0  # world 0 has a pending card purchase: available < current
    fails(s, "transfer_between_accounts", "insufficient_funds",
          {"from_account_id": checking["account_id"], "to_account_id": savings,
                                                                 "amount": round(free + 0.01, 2)})
    ok(s, "transfer_between_accounts",
       {"from_account_id": checking["account_id"], "to_account_id": savings, "amount": free})
    assert ok(s, "get_account", {"account_id": checking["account_id"]})["available_balance"] == 0


def test_paying_a_credit_card_lowers_what_is_owed(s):
    checking = accounts(s, "checking")[0]["account_id"]
    card = accounts(s, "credit_card")[0]
    ok(s, "transfer_between_accounts",
       {"from_account_id": checking, "to_account_id": card["account_id"], "amount": 100})
    after = ok(s, "get_account", {"account_id": card["account_id"]})
    assert after["current_balance"] == pytest.approx(card["current_balance"] - 100)
    assert after["available_balance"] == pytest.approx(card["available_balance"] + 100)
    line = ok(s, "list_transactions", {"account_id": card["account_id"], "limit": 1})["transactions"][0]
    assert line["amount"] == 100 and line["merchant"].startswith("Payment from")


def test_cash_advance_charges_a_fee_within_the_credit_limit(s):
    card = accounts(s, "credit_card")[0]
    checking = accounts(s, "checking")[0]["account_id"]
    transfer = ok(s, "transfer_between_accounts", {"from_account_id": card["account_id"], "to_account_id": checking,
                                                   "amount": 100})
    assert transfer["fee"] == 10.0  # 5% of 100 is below the $10 minimum
    assert balance(s, card["account_id"]) == pytest.approx(card["current_balance"] + 110)
    free = ok(s, "get_account", {"account_id": card["account_id"]})["available_balance"]
    fails(s, "transfer_between_accounts", "insufficient_funds",
          {"from_account_id": card["account_id"], "to_account_id": checking,
                                                                 "amount": round(free, 2)})  # the fee no longer fits


def test_transfer_rejects_bad_requests(s):
    checking = accounts(s, "checking")[0]["account_id"]
    card_a, card_b = [a["account_id"] for a in accounts(s, "credit_card")[:2]]
    fails(s, "transfer_between_accounts", "same_account", {"from_account_id": checking, "to_account_id": checking,
                                                           "amount": 5})
    fails(s, "transfer_between_accounts", "unsupported_account", {"from_account_id": card_a, "to_account_id": card_b,
                                                                  "amount": 5})
    fails(s, "transfer_between_accounts", "not_found", {"from_account_id": checking, "to_account_id": "ACC-99999",
                                                        "amount": 5})
    fails(s, "transfer_between_accounts", "invalid_amount", {"from_account_id": checking, "to_account_id": card_a,
                                                             "amount": 10.005})
    fails(s, "transfer_between_accounts", "invalid_arguments", {"from_account_id": checking, "to_account_id": card_a,
                                                                "amount": 0})


def test_pay_payee_debits_checking_and_counts_against_the_daily_limit(s):
    checking = accounts(s, "checking")[0]
    payee = person_payee(s)
    profile = ok(s, "get_profile")
    assert profile["paid_today"] == 0 and profile["remaining_today"] == profile["daily_payment_limit"]

    payment = ok(s, "pay_payee",
                 {"payee_id": payee["payee_id"], "from_account_id": checking["account_id"], "amount": 40})
    assert payment["kind"] == "payee" and payment["from_account_balance"] == pytest.approx(
        checking["current_balance"] - 40)
    line = ok(s, "list_transactions", {"merchant": payee["name"].upper(), "start_date": str(TODAY)})["transactions"][0]
    assert line["amount"] == -40 and line["kind"] == "payment" and line["transfer_id"] == payment["transfer_id"]
    assert ok(s, "get_profile")["paid_today"] == 40

    # Fund checking so that only the daily limit stands in the way.
    savings = accounts(s, "savings")[0]["account_id"]
    limit = profile["daily_payment_limit"]
    ok(s, "transfer_between_accounts",
       {"from_account_id": savings, "to_account_id": checking["account_id"], "amount": limit})
    fails(s, "pay_payee", "daily_limit_exceeded",
          {"payee_id": payee["payee_id"], "from_account_id": checking["account_id"],
                                                   "amount": limit - 39})
    ok(s, "pay_payee", {"payee_id": payee["payee_id"], "from_account_id": checking["account_id"], "amount": limit - 40})
    assert ok(s, "get_profile")["remaining_today"] == 0
    s.advance(timedelta(days=1))  # a new day, a new allowance
    ok(s, "pay_payee", {"payee_id": payee["payee_id"], "from_account_id": checking["account_id"], "amount": 1})


def test_pay_payee_rules(s):
    checking = accounts(s, "checking")[0]
    savings = accounts(s, "savings")[0]["account_id"]
    payee = person_payee(s)["payee_id"]
    fails(s, "pay_payee", "unsupported_account", {"payee_id": payee, "from_account_id": savings, "amount": 10})
    fails(s, "pay_payee", "not_found", {"payee_id": "PAY-00000", "from_account_id": checking["account_id"],
                                        "amount": 10})
    too_much = min(checking["available_balance"] + 1, ok(s, "get_profile")["daily_payment_limit"])
    assert checking["available_balance"] < too_much
    fails(s, "pay_payee", "insufficient_funds", {"payee_id": payee, "from_account_id": checking["account_id"],
                                                 "amount": too_much})


# ----- payees -----------------------------------------------------------------------------------


def test_add_pay_and_remove_a_payee(s):
    total = ok(s, "list_payees")["total"]
    payee = ok(s, "add_payee", {"name": "Bright Dental Care", "account_number": "4400-1239-87",
                                "routing_number": "021000021"})
    assert payee["account_ending"] == "3987" and payee["kind"] == "business" and payee["added_on"] == str(TODAY)
    assert ok(s, "list_payees")["total"] == total + 1
    assert ok(s, "list_payees", {"name": "dental"})["payees"] == [payee]
    checking = accounts(s, "checking")[0]["account_id"]
    ok(s, "pay_payee", {"payee_id": payee["payee_id"], "from_account_id": checking, "amount": 95})

    removed = ok(s, "remove_payee", {"payee_id": payee["payee_id"]})
    assert removed["status"] == "removed"
    assert ok(s, "list_payees")["total"] == total
    fails(s, "pay_payee", "not_found", {"payee_id": payee["payee_id"], "from_account_id": checking, "amount": 5})
    fails(s, "remove_payee", "not_found", {"payee_id": payee["payee_id"]})
    # The payment stays in the history.
    assert ok(s, "list_transactions", {"merchant": "Bright Dental"})["total"] == 1


def test_add_payee_validates_its_input(s):
    existing = person_payee(s)
    good = {"name": "Lakeside Plumbing", "account_number": "123456789", "routing_number": "011000015"}
    fails(s, "add_payee", "duplicate_payee", {**good, "name": existing["name"].lower()})
    fails(s, "add_payee", "invalid_name", {**good, "name": "'; DROP TABLE accounts; --"})
    fails(s, "add_payee", "invalid_name", {**good, "name": "   "})
    fails(s, "add_payee", "invalid_account_number", {**good, "account_number": "12ab"})
    fails(s, "add_payee", "invalid_routing_number", {**good, "routing_number": "12345"})
    ok(s, "add_payee", good)
    fails(s, "add_payee", "duplicate_payee", {**good, "name": "Other Name"})  # same account


def test_payee_with_scheduled_payments_cannot_be_removed_until_they_are_cancelled(s):
    upcoming = ok(s, "list_scheduled_payments")["scheduled_payments"]
    scheduled = next(p for p in upcoming if p["payee_id"])
    fails(s, "remove_payee", "has_scheduled_payments", {"payee_id": scheduled["payee_id"]})
    for payment in ok(s, "list_scheduled_payments", {"payee_id": scheduled["payee_id"]})["scheduled_payments"]:
        ok(s, "cancel_scheduled_payment", {"scheduled_payment_id": payment["scheduled_payment_id"]})
    assert ok(s, "remove_payee", {"payee_id": scheduled["payee_id"]})["status"] == "removed"


# ----- scheduled payments -----------------------------------------------------------------------


def test_schedule_list_and_cancel_a_recurring_payment(s):
    checking = accounts(s, "checking")[0]["account_id"]
    savings = accounts(s, "savings")[0]["account_id"]
    before = ok(s, "list_scheduled_payments")["total"]
    payment = ok(s, "schedule_payment", {"from_account_id": checking, "to_account_id": savings, "amount": 200,
                                         "send_on": "2026-04-03", "frequency": "monthly", "end_date": "2026-12-31",
                                         "memo": "House fund"})
    assert payment["status"] == "scheduled" and payment["next_date"] == "2026-04-03"
    assert payment["recipient_name"] == accounts(s, "savings")[0]["nickname"]
    listed = ok(s, "list_scheduled_payments", {"account_id": savings})["scheduled_payments"]
    assert payment in listed
    assert ok(s, "list_scheduled_payments")["total"] == before + 1
    assert balance(s, checking) == accounts(s, "checking")[0]["current_balance"]  # nothing moves yet

    cancelled = ok(s, "cancel_scheduled_payment", {"scheduled_payment_id": payment["scheduled_payment_id"]})
    assert cancelled["status"] == "cancelled" and cancelled["next_date"] is None
    fails(s, "cancel_scheduled_payment", "not_cancellable",
                 {"scheduled_payment_id": payment["scheduled_payment_id"]})
    assert cancelled in ok(s, "list_scheduled_payments", {"status": "cancelled"})["scheduled_payments"]


def test_schedule_payment_rules(s):
    checking = accounts(s, "checking")[0]["account_id"]
    savings = accounts(s, "savings")[0]["account_id"]
    card = accounts(s, "credit_card")[0]["account_id"]
    payee = person_payee(s)["payee_id"]
    base = {"from_account_id": checking, "amount": 50, "payee_id": payee}

    def rejects(expected: str, **changes: Any) -> None:
        fails(s, "schedule_payment", expected, {"send_on": str(TODAY + timedelta(days=3)), **base, **changes})

    rejects("past_date", send_on=str(TODAY - timedelta(days=1)))
    rejects("too_far_ahead", send_on="2028-01-01")
    rejects("invalid_recipient", payee_id=None)
    rejects("invalid_recipient", to_account_id=savings)
    rejects("same_account", payee_id=None, to_account_id=checking)
    rejects("unsupported_account", from_account_id=savings)
    rejects("unsupported_account", payee_id=None, to_account_id=savings, from_account_id=card)
    rejects("invalid_end_date", end_date="2026-06-01")  # a one-time payment
    rejects("invalid_end_date", frequency="weekly", end_date=str(TODAY))
    rejects("daily_limit_exceeded", amount=1_000_000)
    rejects("not_found", payee_id="PAY-1")
    rejects("invalid_arguments", send_on="2026-13-01")
    today = ok(s, "schedule_payment", {**base, "send_on": str(TODAY)})  # today is allowed
    assert today["next_date"] == str(TODAY)


def test_scheduled_payment_dates_follow_the_clock(s):
    checking = accounts(s, "checking")[0]["account_id"]
    payee = person_payee(s)["payee_id"]
    s.advance(timedelta(days=10))
    fails(s, "schedule_payment", "past_date", {"from_account_id": checking, "amount": 20, "payee_id": payee,
                                               "send_on": str(TODAY + timedelta(days=5))})


# ----- cards ------------------------------------------------------------------------------------


def test_freeze_and_unfreeze_a_card(s):
    card = active_card(s, "debit")["card_id"]
    assert ok(s, "freeze_card", {"card_id": card})["status"] == "frozen"
    fails(s, "freeze_card", "already_frozen", {"card_id": card})
    fails(s, "set_card_spending_limit", "card_frozen", {"card_id": card, "daily_limit": 500})
    assert ok(s, "list_cards", {"status": "frozen"})["cards"][0]["card_id"] == card
    assert ok(s, "unfreeze_card", {"card_id": card})["status"] == "active"
    fails(s, "unfreeze_card", "not_frozen", {"card_id": card})


def test_some_worlds_hold_a_card_frozen_days_ago_that_unfreezes():
    assert not SERVER.tools["unfreeze_card"].needs
    frozen = {}
    for world in range(8):
        with Session("banking", world=world) as w:
            cards = ok(w, "list_cards", {"status": "frozen"})["cards"]
            assert len(cards) <= 1
            if cards:
                frozen[world] = cards[0]["card_id"]
    assert 3 <= len(frozen) <= 7
    for world, card in list(frozen.items())[:2]:
        with Session("banking", world=world) as w:
            # no purchase on the card since it was frozen, at least three days ago
            last = ok(w, "list_transactions", {"card_id": card, "limit": 1})["transactions"]
            assert not last or last[0]["occurred_at"] <= str(TODAY - timedelta(days=3))
            fails(w, "set_card_spending_limit", "card_frozen", {"card_id": card, "daily_limit": 500})
            assert ok(w, "unfreeze_card", {"card_id": card})["status"] == "active"
            assert ok(w, "list_cards", {"status": "frozen"})["cards"] == []
            fails(w, "unfreeze_card", "not_frozen", {"card_id": card})


def test_report_lost_blocks_the_card_and_issues_a_replacement(s):
    card = active_card(s, "debit")
    ok(s, "freeze_card", {"card_id": card["card_id"]})  # a frozen card can still be reported
    pin = ok(s, "get_card_pin", {"card_id": card["card_id"]})["pin"]
    report = ok(s, "report_card_lost", {"card_id": card["card_id"], "reason": "stolen"})
    new = report["replacement"]
    assert report["reported_card"]["status"] == "stolen"
    assert new["status"] == "active" and new["replaces_card_id"] == card["card_id"]
    assert new["account_id"] == card["account_id"] and new["number_ending"] != card["number_ending"]
    assert new["daily_spending_limit"] == card["daily_spending_limit"] and new["issued_on"] == str(TODAY)
    assert report["arrives_by"] == str(TODAY + timedelta(days=7))
    assert ok(s, "get_card_pin", {"card_id": new["card_id"]})["pin"] == pin
    for tool, extra in [("freeze_card", {}), ("unfreeze_card", {}), ("report_card_lost", {}),
                        ("set_card_spending_limit", {"daily_limit": 100}),
                        ("change_card_pin", {"current_pin": pin, "new_pin": "8042"})]:
        fails(s, tool, "card_inactive", {"card_id": card["card_id"], **extra})


def test_change_pin_needs_the_current_pin_and_a_safe_new_one(s):
    card = active_card(s, "credit")["card_id"]
    pin = ok(s, "get_card_pin", {"card_id": card})["pin"]
    wrong = "0000" if pin != "0000" else "1111"
    fails(s, "change_card_pin", "wrong_pin", {"card_id": card, "current_pin": wrong, "new_pin": "8042"})
    for bad in ["1234", "7777", "9876", "12a4", "12345", "", pin]:
        fails(s, "change_card_pin", "invalid_pin", {"card_id": card, "current_pin": pin, "new_pin": bad})
    new_pin = "8042" if pin != "8042" else "8043"
    assert ok(s, "change_card_pin", {"card_id": card, "current_pin": pin, "new_pin": new_pin}) == {
        "card_id": card, "pin_changed_on": str(TODAY)}
    assert ok(s, "get_card_pin", {"card_id": card})["pin"] == new_pin
    fails(s, "change_card_pin", "wrong_pin", {"card_id": card, "current_pin": pin, "new_pin": "5190"})


def test_spending_limits_are_capped(s):
    debit = active_card(s, "debit")["card_id"]
    credit = active_card(s, "credit")
    credit_limit = ok(s, "get_account", {"account_id": credit["account_id"]})["credit_limit"]
    assert ok(s, "set_card_spending_limit", {"card_id": debit, "daily_limit": 750})["daily_spending_limit"] == 750
    fails(s, "set_card_spending_limit", "limit_too_high", {"card_id": debit, "daily_limit": 5000.01})
    fails(s, "set_card_spending_limit", "limit_too_high", {"card_id": credit["card_id"],
                                                           "daily_limit": credit_limit + 1})
    fails(s, "set_card_spending_limit", "invalid_amount", {"card_id": debit, "daily_limit": 99.999})
    ok(s, "set_card_spending_limit", {"card_id": credit["card_id"], "daily_limit": credit_limit})


# ----- disputes ---------------------------------------------------------------------------------


def test_open_a_dispute_on_a_recent_charge(s):
    charge = recent_purchase(s)
    dispute = ok(s, "open_dispute", {"transaction_id": charge["transaction_id"], "reason": "unauthorized",
                                     "details": "I was at home that evening."})
    assert dispute["status"] == "open" and dispute["amount"] == -charge["amount"]
    assert dispute["merchant"] == charge["merchant"] and dispute["account_id"] == charge["account_id"]
    assert ok(s, "get_transaction", {"transaction_id": charge["transaction_id"]})["dispute_id"] == dispute["dispute_id"]
    assert ok(s, "get_dispute", {"dispute_id": dispute["dispute_id"]}) == dispute
    assert dispute in ok(s, "list_disputes", {"status": "open", "account_id": charge["account_id"]})["disputes"]
    fails(s, "open_dispute", "already_disputed", {"transaction_id": charge["transaction_id"], "reason": "other"})


def test_dispute_rules(s):
    existing = ok(s, "list_disputes")["disputes"][0]
    fails(s, "open_dispute", "already_disputed", {"transaction_id": existing["transaction_id"],
                                                  "reason": "duplicate"})
    old = ok(s, "list_transactions", {"end_date": str(TODAY - timedelta(days=61)), "status": "posted",
                                      "limit": 200})["transactions"]
    old_purchase = next(t for t in old if t["kind"] == "purchase" and t["dispute_id"] is None)
    fails(s, "open_dispute", "outside_dispute_window", {"transaction_id": old_purchase["transaction_id"],
                                                        "reason": "wrong_amount"})
    pending = ok(s, "list_transactions", {"status": "pending"})["transactions"][0]
    fails(s, "open_dispute", "transaction_pending", {"transaction_id": pending["transaction_id"],
                                                     "reason": "unauthorized"})
    transfer = ok(s, "list_transactions", {"category": "income"})["transactions"][0]
    fails(s, "open_dispute", "not_disputable", {"transaction_id": transfer["transaction_id"], "reason": "other"})
    fails(s, "open_dispute", "not_found", {"transaction_id": "TRX-0", "reason": "other"})
    fails(s, "open_dispute", "invalid_arguments", {"transaction_id": old_purchase["transaction_id"],
                                                   "reason": "i_dont_like_it"})


def test_dispute_window_closes_sixty_days_after_the_charge(s):
    charge = recent_purchase(s)
    made = date.fromisoformat(charge["occurred_at"][:10])
    s.advance(timedelta(days=(made + timedelta(days=60) - TODAY).days))  # the last day of the window
    with s.fork() as late:
        late.advance(timedelta(days=1))
        fails(late, "open_dispute", "outside_dispute_window", {"transaction_id": charge["transaction_id"],
                                                               "reason": "not_received"})
    ok(s, "open_dispute", {"transaction_id": charge["transaction_id"], "reason": "not_received"})


# ----- searching transactions -------------------------------------------------------------------


def test_transaction_filters(s):
    everything = ok(s, "list_transactions", {"limit": 200})
    assert everything["total"] > 200 and len(everything["transactions"]) == 200
    times = [t["occurred_at"] for t in everything["transactions"]]
    assert times == sorted(times, reverse=True)

    february = ok(s, "list_transactions",
                  {"category": "groceries", "start_date": "2026-02-01", "end_date": "2026-02-28",
                                           "limit": 200})
    assert february["total"] > 0
    assert all(t["category"] == "groceries" and "2026-02-01" <= t["occurred_at"][:10] <= "2026-02-28"
               for t in february["transactions"])
    assert february["net_amount"] == pytest.approx(sum(t["amount"] for t in february["transactions"]), abs=0.005)

    merchant = february["transactions"][0]["merchant"]
    found = ok(s, "list_transactions", {"merchant": merchant.lower()[1:-1], "limit": 200})["transactions"]
    assert found and all(merchant.lower()[1:-1] in t["merchant"].lower() for t in found)

    big = ok(s, "list_transactions", {"min_amount": 100, "max_amount": 300, "limit": 200})["transactions"]
    assert big and all(100 <= abs(t["amount"]) <= 300 for t in big)
    card = ok(s, "list_cards")["cards"][0]["card_id"]
    assert all(t["card_id"] == card for t in ok(s, "list_transactions", {"card_id": card})["transactions"])
    assert ok(s, "list_transactions", {"merchant": "%"})["total"] == 0  # no wildcards: a literal search


def test_transaction_filters_reject_contradictions(s):
    fails(s, "list_transactions", "invalid_date_range", {"start_date": "2026-03-01", "end_date": "2026-02-01"})
    fails(s, "list_transactions", "invalid_amount_range", {"min_amount": 50, "max_amount": 10})
    fails(s, "list_transactions", "not_found", {"account_id": "ACC-1"})
    fails(s, "list_transactions", "not_found", {"card_id": "nope"})
    fails(s, "list_transactions", "invalid_arguments", {"limit": 0})
    fails(s, "list_transactions", "invalid_arguments", {"category": "luxury"})


# ----- hostile and malformed input --------------------------------------------------------------


HOSTILE = ["'; DROP TABLE accounts; --", "", " ", "ACC-10001' OR '1'='1", "%", "\x00", "x" * 10_000,
           "ACC-99999999999999999999"]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_ids_are_not_found_and_harmless(s, value):
    before = s.fingerprint()
    for tool, param in [("get_account", "account_id"), ("get_transaction", "transaction_id"),
                        ("get_statement", "statement_id"), ("get_card", "card_id"), ("freeze_card", "card_id"),
                        ("remove_payee", "payee_id"), ("cancel_scheduled_payment", "scheduled_payment_id"),
                        ("get_dispute", "dispute_id"), ("open_dispute", "transaction_id")]:
        args = {param: value, **({"reason": "other"} if tool == "open_dispute" else {})}
        assert s.call(tool, args).code == "not_found", (tool, value)
    assert s.fingerprint() == before
    assert ok(s, "list_accounts")["total"] >= 3


def test_malformed_arguments_never_crash(s):
    checking = accounts(s, "checking")[0]["account_id"]
    calls = [
        ("transfer_between_accounts", {"from_account_id": checking, "to_account_id": checking, "amount": 1e308}),
        ("transfer_between_accounts", {"from_account_id": checking, "to_account_id": "x", "amount": -5}),
        ("pay_payee", {"payee_id": "", "from_account_id": checking, "amount": "lots"}),
        ("list_transactions", {"limit": 10**30}),
        ("list_transactions", {"min_amount": 1e308, "start_date": "0001-01-01", "end_date": "9999-12-31"}),
        ("schedule_payment", {"from_account_id": checking, "amount": 5, "to_account_id": checking,
                              "send_on": "9999-12-31"}),
        ("set_card_spending_limit", {"card_id": "CRD-10001", "daily_limit": float("inf")}),
        ("add_payee", {"name": "Zoë O'Brien-Smith", "account_number": "1" * 17, "routing_number": "0" * 9,
                       "kind": "person"}),
        ("list_statements", {"period": "February"}),
        ("get_account", {"account_id": 10001}),
        ("get_account", {}),
        ("get_account", "not json"),
    ]
    for tool, args in calls:
        result = s.call(tool, args)
        assert result.code != INTERNAL_ERROR, (tool, args, result.error)
        if not result.ok:
            assert result.code in SERVER.tools[tool].errors or result.code == "invalid_arguments", result.error
    assert INTERNAL_ERRORS.count(SERVER.name) == 0


def test_new_ids_continue_the_world_counters(s):
    checking = accounts(s, "checking")[0]["account_id"]
    savings = accounts(s, "savings")[0]["account_id"]
    newest = ok(s, "list_transactions", {"limit": 1})["transactions"][0]["transaction_id"]
    transfer = ok(s, "transfer_between_accounts", {"from_account_id": savings, "to_account_id": checking, "amount": 1})
    legs = [t["transaction_id"] for t in ok(s, "list_transactions", {"limit": 2})["transactions"]]
    assert all(int(leg.split("-")[1]) > int(newest.split("-")[1]) for leg in legs)
    assert transfer["transfer_id"].startswith("TRF-")


def test_synthesized_transfers_never_take_a_cash_advance():
    """A cash advance carries a fee the transfer replies do not mention; calls draw deposit accounts."""
    source = next(p for p in SERVER.tools["transfer_between_accounts"].params if p.name == "from_account_id")
    assert source.where == "type != 'credit_card'"


def test_the_statement_of_the_account_and_month_named_is_said_without_an_empty_heading(s):
    """"Your statements ...: : from $285.54 to $1,188.36": narrowed to one account and one month, a
    statement has no heading left to say; "...: from $4,225.30 to $2,618.42" did not say which it was, and
    "the February 2026 statement, which opened at ..." does."""
    first = ok(s, "list_statements", {})["statements"][0]
    one = ok(s, "list_statements", {"account_id": first["account_id"], "period": first["period"]})
    month = f"{date.fromisoformat(first['period'] + '-01'):%B %Y}"
    assert one["statements_text"].startswith(f"the {month} statement, which opened at $"), one["statements_text"]


def test_a_reason_a_request_gives_is_true_of_what_it_is_given_for() -> None:
    """"Freeze the card 'Mastercard credit card ending 0404', I can't find it." of a replacement still in the
    mail, and "I paid for it, but the order never arrived" of a One Medical charge: a phrasing that gives a
    reason takes only the things it is true of."""
    tools = registry.get("banking").tools
    lost = [a for n in ("freeze_card", "report_card_lost") for a in tools[n].asks
            if re.search(r"can't find it|lost it|stolen", a.text)]
    order = [a for a in tools["open_dispute"].asks if "order never arrived" in a.text]
    assert lost and order
    with Session(["banking"]) as session:
        old = next(c for c in session.call("list_cards", {}).data["cards"] if c["status"] == "active")
        new = session.call("report_card_lost", {"card_id": old["card_id"]}).data["replacement"]
        other = next(c for c in session.call("list_cards", {}).data["cards"]
                     if c["status"] == "active" and c["card_id"] != new["card_id"])
        for ask in lost:
            assert not session.satisfies("card", new["card_id"], ask.fits.get("card_id", "1")), ask.text
            assert session.satisfies("card", other["card_id"], ask.fits.get("card_id", "1")), ask.text
        charges = session.call("list_transactions", {"limit": 100}).data["transactions"]
        clinic = next(t for t in charges if t["category"] == "health" and t["kind"] == "purchase")
        shop = next(t for t in charges if t["category"] == "shopping" and t["kind"] == "purchase")
        for ask in order:
            assert not session.satisfies("transaction", clinic["transaction_id"], ask.fits.get("transaction_id", "1"))
            assert session.satisfies("transaction", shop["transaction_id"], ask.fits.get("transaction_id", "1"))


def test_whether_a_transaction_went_through_is_asked_of_a_recent_one():
    """"Has the transaction 'Interest earned' from October 31, 2025 gone through yet?": only a recent transaction may
    still be pending."""
    ask = next(as_ask(a) for a in registry.get("banking").tools["get_transaction"].asks if "gone through" in as_ask(a).text)
    with Session(["banking"]) as session:
        found = session.call("list_transactions", {"limit": 100}).data["transactions"]
        pending = [t for t in found if t["status"] == "pending"]
        old = [t for t in found if t["occurred_at"] < "2026-03-01"]
        assert pending and old
        assert all(session.satisfies("transaction", t["transaction_id"], ask.fits["transaction_id"]) for t in pending)
        assert not any(session.satisfies("transaction", t["transaction_id"], ask.fits["transaction_id"]) for t in old)
