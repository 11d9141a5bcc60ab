"""Behaviour tests of the payments server: its main flows and its state-dependent failures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from prove.env import Session

DAY = 86400


@pytest.fixture
def s() -> Iterator[Session]:
    with Session("payments", world=0) as session:
        yield session


def ok(s: Session, tool: str, **args: object) -> dict:
    r = s.call(tool, args)
    assert r.ok, (tool, r.error)
    return r.data


def err(s: Session, tool: str, **args: object) -> str:
    before = s.fingerprint()
    r = s.call(tool, args)
    assert not r.ok, (tool, r.data)
    assert s.fingerprint() == before, "a failing call changed state"
    return r.code


def sources(s: Session) -> dict[str, dict]:
    """Active funding sources by role: bank, debit, credit (unexpired), expired."""
    out = {}
    for src in ok(s, "list_funding_sources")["funding_sources"]:
        if src["expired"]:
            out["expired"] = src
        else:
            out.setdefault({"bank_account": "bank", "debit_card": "debit", "credit_card": "credit"}[src["kind"]], src)
    return out


def a_friend(s: Session) -> dict:
    return next(u for u in ok(s, "list_contacts", limit=100)["users"] if u["kind"] == "person")


def a_business(s: Session) -> dict:
    return next(u for u in ok(s, "search_users", query="Coffee")["users"] + ok(s, "search_users", query="a", limit=100)[
        "users"] if u["kind"] == "business")


def test_send_from_balance_then_the_payment_shows_everywhere(s: Session) -> None:
    wallet = ok(s, "get_wallet")
    friend = a_friend(s)
    receipt = ok(s, "send_payment", user_id=friend["user_id"], amount=12.345, note="Tacos 🌮")
    pay = receipt["payment"]
    assert pay["amount"] == 12.35 and pay["fee"] == 0 and pay["source_id"] is None
    assert pay["source_name"] == "Wallet balance" and pay["direction"] == "sent" and pay["audience"] == "friends"
    assert receipt["balance"] == pytest.approx(wallet["balance"] - 12.35)
    assert receipt["remaining_this_week"] == pytest.approx(wallet["remaining_this_week"] - 12.35)
    after = ok(s, "get_wallet")
    assert after["balance"] == receipt["balance"] and after["sent_last_7_days"] == pytest.approx(
        wallet["sent_last_7_days"] + 12.35)
    latest = ok(s, "list_payments", counterparty_id=friend["user_id"], limit=1)["payments"][0]
    assert latest["payment_id"] == pay["payment_id"] and latest["note"] == "Tacos 🌮"
    assert ok(s, "list_payments", query="tacos")["total"] == 1
    assert ok(s, "get_payment", payment_id=pay["payment_id"])["refundable_amount"] == 0  # sent: not ours to refund
    assert err(s, "refund_payment", payment_id=pay["payment_id"]) == "not_refundable"
    assert s.diff().tables() == {"payments.payments": {"insert": 1, "update": 0, "delete": 0},
                                 "payments.profile": {"insert": 0, "update": 1, "delete": 0}}


def test_funding_sources_fees_and_failures(s: Session) -> None:
    src = sources(s)
    friend, shop = a_friend(s), a_business(s)
    balance = ok(s, "get_wallet")["balance"]
    assert err(s, "send_payment", user_id=friend["user_id"], amount=balance + 1, note="Too much") == \
        "insufficient_balance"
    by_bank = ok(s, "send_payment", user_id=friend["user_id"], amount=balance + 1, note="Rent",
                 source_id=src["bank"]["source_id"])
    assert by_bank["payment"]["fee"] == 0 and by_bank["balance"] == balance  # the bank pays, not the wallet
    by_card = ok(s, "send_payment", user_id=friend["user_id"], amount=100, note="Tickets",
                 source_id=src["credit"]["source_id"])
    assert by_card["payment"]["fee"] == 3.0
    to_shop = ok(s, "send_payment", user_id=shop["user_id"], amount=100, note="Order",
                 source_id=src["credit"]["source_id"])
    assert to_shop["payment"]["fee"] == 0  # no fee for paying a business
    assert err(s, "send_payment", user_id=friend["user_id"], amount=5, note="x",
               source_id=src["expired"]["source_id"]) == "card_expired"
    assert err(s, "send_payment", user_id="USR-99999", amount=5, note="x") == "not_found"
    assert err(s, "send_payment", user_id=friend["user_id"], amount=0.001, note="x") == "invalid_amount"
    assert err(s, "send_payment", user_id=friend["user_id"], amount=5, note="  ") == "invalid_arguments"


def test_weekly_limit_counts_a_rolling_week(s: Session) -> None:
    bank = sources(s)["bank"]["source_id"]
    friend = a_friend(s)
    limits = ok(s, "get_limits")
    room = limits["remaining_this_week"]
    assert err(s, "send_payment", user_id=friend["user_id"], amount=room + 1, note="Car", source_id=bank) == \
        "weekly_limit_exceeded"
    ok(s, "send_payment", user_id=friend["user_id"], amount=room, note="Car", source_id=bank)
    assert ok(s, "get_limits")["remaining_this_week"] == 0
    assert err(s, "send_payment", user_id=friend["user_id"], amount=1, note="Coffee", source_id=bank) == \
        "weekly_limit_exceeded"
    s.advance(7 * DAY + 60)  # everything sent so far leaves the window
    assert ok(s, "get_limits")["sent_last_7_days"] == 0
    ok(s, "send_payment", user_id=friend["user_id"], amount=1, note="Coffee", source_id=bank)


def test_refund_a_received_payment_within_the_window(s: Session) -> None:
    received = ok(s, "list_payments", direction="received", limit=100)["payments"]
    recent = next(p for p in received if p["refundable_amount"] > 5 and p["status"] == "completed")
    old = next(p for p in received if p["refundable_until"] < "2026-03-16")
    balance = ok(s, "get_wallet")["balance"]
    assert err(s, "refund_payment", payment_id=old["payment_id"]) == "refund_window_expired"
    assert err(s, "refund_payment", payment_id=recent["payment_id"], amount=recent["amount"] + 1) == \
        "refund_exceeds_payment"
    part = ok(s, "refund_payment", payment_id=recent["payment_id"], amount=2, reason="Overpaid")
    assert part["payment"]["status"] == "partially_refunded" and part["payment"]["refunded_amount"] == 2
    assert part["balance"] == pytest.approx(balance - 2) and part["refund"]["reason"] == "Overpaid"
    rest = ok(s, "refund_payment", payment_id=recent["payment_id"])
    assert rest["refund"]["amount"] == pytest.approx(recent["amount"] - 2)
    assert rest["payment"]["status"] == "refunded" and len(rest["payment"]["refunds"]) == 2
    assert err(s, "refund_payment", payment_id=recent["payment_id"]) == "already_refunded"


def test_refund_needs_balance_and_expires_after_30_days(s: Session) -> None:
    received = ok(s, "list_payments", direction="received", limit=100)["payments"]
    recent = next(p for p in received if p["refundable_amount"] > 0)
    wallet = ok(s, "get_wallet")
    ok(s, "cash_out", amount=wallet["balance"], source_id=sources(s)["bank"]["source_id"],
       pin=ok(s, "get_security_pin")["pin"])
    assert ok(s, "get_wallet")["balance"] == 0
    assert err(s, "refund_payment", payment_id=recent["payment_id"]) == "insufficient_balance"
    s.advance(31 * DAY)
    assert err(s, "refund_payment", payment_id=recent["payment_id"]) == "refund_window_expired"


def test_incoming_requests_pay_and_decline(s: Session) -> None:
    pending = ok(s, "list_requests", direction="incoming", status="pending")["requests"]
    assert len(pending) >= 2
    first, second = pending[0], pending[1]
    balance = ok(s, "get_wallet")["balance"]
    paid = ok(s, "pay_request", request_id=first["request_id"])
    assert paid["payment"]["request_id"] == first["request_id"] and paid["payment"]["amount"] == first["amount"]
    assert paid["balance"] == pytest.approx(balance - first["amount"])
    settled = ok(s, "list_requests", counterparty_id=first["counterparty_id"], status="paid")["requests"][0]
    assert settled["request_id"] == first["request_id"] and settled["payment_id"] == paid["payment"]["payment_id"]
    assert err(s, "pay_request", request_id=first["request_id"]) == "request_not_pending"
    declined = ok(s, "decline_request", request_id=second["request_id"])
    assert declined["status"] == "declined" and declined["resolved_at"] == "2026-03-16T09:00:00"
    assert err(s, "pay_request", request_id=second["request_id"]) == "request_not_pending"
    assert ok(s, "get_wallet")["pending_incoming_requests"] == len(pending) - 2


def test_outgoing_requests(s: Session) -> None:
    friend, shop = a_friend(s), a_business(s)
    req = ok(s, "request_money", user_id=friend["user_id"], amount=42, note="Concert tickets 🎶")
    assert req["status"] == "pending" and req["direction"] == "outgoing"
    assert err(s, "request_money", user_id=friend["user_id"], amount=42, note="again") == "duplicate_request"
    assert err(s, "request_money", user_id=shop["user_id"], amount=42, note="refund?") == "business_account"
    assert err(s, "pay_request", request_id=req["request_id"]) == "wrong_direction"
    assert err(s, "decline_request", request_id=req["request_id"]) == "wrong_direction"
    assert ok(s, "cancel_request", request_id=req["request_id"])["status"] == "cancelled"
    assert err(s, "cancel_request", request_id=req["request_id"]) == "request_not_pending"
    incoming = ok(s, "list_requests", direction="incoming", status="pending")["requests"][0]
    assert err(s, "cancel_request", request_id=incoming["request_id"]) == "wrong_direction"


def test_cards_link_default_and_remove(s: Session) -> None:
    cards = ok(s, "list_cards_on_hand")["cards"]
    new = next(c for c in cards if not c["linked"])
    linked = next(c for c in cards if c["linked"])
    spaced = " ".join(new["card_number"][i:i + 4] for i in range(0, len(new["card_number"]), 4))
    card = ok(s, "add_card", card_number=spaced, expires=new["expires"], cvv=new["cvv"], card_type=new["card_type"])
    assert card["last4"] == new["card_number"][-4:] and card["status"] == "active" and not card["is_default"]
    assert "card_number" not in card
    assert err(s, "add_card", card_number=new["card_number"], expires=new["expires"], cvv=new["cvv"],
               card_type=new["card_type"]) == "already_linked"
    assert err(s, "add_card", card_number=linked["card_number"], expires=linked["expires"], cvv=linked["cvv"],
               card_type=linked["card_type"]) == "already_linked"
    bad = new["card_number"][:-1] + str((int(new["card_number"][-1]) + 1) % 10)
    assert err(s, "add_card", card_number=bad, expires="08/29", cvv="123", card_type="debit") == "invalid_card"
    assert err(s, "add_card", card_number="4111111111111111", expires="13/29", cvv="123",
               card_type="debit") == "invalid_expiry"
    assert err(s, "add_card", card_number="4111111111111111", expires="01/26", cvv="123",
               card_type="debit") == "card_expired"

    src = sources(s)
    assert err(s, "remove_funding_source", source_id=src["bank"]["source_id"]) == "default_source"
    assert err(s, "set_default_funding_source", source_id=src["expired"]["source_id"]) == "card_expired"
    made = ok(s, "set_default_funding_source", source_id=card["source_id"])
    assert made["is_default"] and ok(s, "get_wallet")["default_source_id"] == card["source_id"]
    # The old default has a cash-out in transit at the epoch: it cannot go yet.
    assert err(s, "remove_funding_source", source_id=src["bank"]["source_id"]) == "pending_transfer"
    s.advance(2 * DAY)
    assert ok(s, "remove_funding_source", source_id=src["bank"]["source_id"])["status"] == "removed"
    assert err(s, "send_payment", user_id=a_friend(s)["user_id"], amount=1, note="x",
               source_id=src["bank"]["source_id"]) == "source_unavailable"
    assert src["bank"]["source_id"] not in {x["source_id"] for x in ok(s, "list_funding_sources")["funding_sources"]}
    assert src["bank"]["source_id"] in {x["source_id"] for x in
                                        ok(s, "list_funding_sources", include_removed=True)["funding_sources"]}


def test_cash_out_and_add_money(s: Session) -> None:
    src = sources(s)
    pin = ok(s, "get_security_pin")["pin"]
    wrong = "0000" if pin != "0000" else "1111"
    balance = ok(s, "get_wallet")["balance"]
    top = ok(s, "add_money", source_id=src["bank"]["source_id"], amount=500)
    assert top["balance"] == pytest.approx(balance + 500) and top["transfer"]["status"] == "completed"
    assert err(s, "add_money", source_id=src["debit"]["source_id"], amount=50) == "unsupported_source"
    assert err(s, "cash_out", amount=50, source_id=src["bank"]["source_id"], pin=wrong) == "wrong_pin"
    assert err(s, "cash_out", amount=50, source_id=src["credit"]["source_id"], pin=pin) == "unsupported_source"
    assert err(s, "cash_out", amount=50, source_id=src["debit"]["source_id"], pin=pin) == "unsupported_source"
    assert err(s, "cash_out", amount=balance + 501, source_id=src["bank"]["source_id"], pin=pin) == \
        "insufficient_balance"
    fast = ok(s, "cash_out", amount=100, source_id=src["debit"]["source_id"], pin=pin, speed="instant")
    assert fast["transfer"]["fee"] == 1.75 and fast["transfer"]["arriving_amount"] == 98.25
    slow = ok(s, "cash_out", amount=100, source_id=src["bank"]["source_id"], pin=pin)
    assert slow["transfer"]["status"] == "pending" and slow["transfer"]["arrives_at"] == "2026-03-19T09:00:00"
    assert slow["balance"] == pytest.approx(balance + 300)
    s.advance(3 * DAY + 1)
    listed = {t["transfer_id"]: t for t in ok(s, "list_transfers", direction="cash_out")["transfers"]}
    assert listed[slow["transfer"]["transfer_id"]]["status"] == "completed"


def test_invoice_lifecycle(s: Session) -> None:
    client = a_business(s)
    inv = ok(s, "create_invoice", customer_id=client["user_id"], due_date="2026-03-31", items=[
        {"description": "Development hours", "quantity": 6, "unit_price": 85},
        {"description": "Logo revisions", "quantity": 2, "unit_price": 60.004},
    ])
    assert inv["status"] == "open" and inv["amount"] == 630.0 and not inv["overdue"]
    assert [i["total"] for i in inv["items"]] == [510.0, 120.0]
    assert err(s, "send_invoice_reminder", invoice_id=inv["invoice_id"]) == "reminder_too_soon"
    s.advance(DAY)
    assert ok(s, "send_invoice_reminder", invoice_id=inv["invoice_id"])["reminders_sent"] == 1
    assert err(s, "send_invoice_reminder", invoice_id=inv["invoice_id"]) == "reminder_too_soon"
    s.advance(20 * DAY)
    assert inv["invoice_id"] in {i["invoice_id"] for i in ok(s, "list_invoices", status="overdue")["invoices"]}
    paid = ok(s, "mark_invoice_paid", invoice_id=inv["invoice_id"], method="check")
    assert paid["status"] == "paid" and paid["paid_via"] == "check" and not paid["overdue"]
    assert err(s, "void_invoice", invoice_id=inv["invoice_id"]) == "invoice_not_open"
    assert err(s, "create_invoice", customer_id=client["user_id"], due_date="2026-01-01",
               items=[{"description": "x", "quantity": 1, "unit_price": 5}]) == "invalid_due_date"
    assert err(s, "create_invoice", customer_id=client["user_id"], due_date="next friday",
               items=[{"description": "x", "quantity": 1, "unit_price": 5}]) == "invalid_date"


def test_world_invoices_void_and_overdue(s: Session) -> None:
    overdue = ok(s, "list_invoices", status="overdue")["invoices"]
    assert overdue and all(i["overdue"] and i["status"] == "open" for i in overdue)
    target = overdue[0]["invoice_id"]
    assert ok(s, "void_invoice", invoice_id=target)["status"] == "void"
    assert err(s, "mark_invoice_paid", invoice_id=target, method="cash") == "invoice_not_open"
    paid = ok(s, "list_invoices", status="paid")["invoices"]
    in_app = next(i for i in paid if i["paid_via"] == "app")
    assert ok(s, "get_payment", payment_id=in_app["payment_id"])["invoice_id"] == in_app["invoice_id"]


def test_contacts(s: Session) -> None:
    stranger = next(u for u in ok(s, "search_users", query="e", limit=100)["users"] if not u["is_contact"])
    added = ok(s, "add_contact", user_id=stranger["user_id"])
    assert added["is_contact"] and added["contact_since"] == "2026-03-16"
    assert err(s, "add_contact", user_id=stranger["user_id"]) == "already_contact"
    assert stranger["user_id"] in {u["user_id"] for u in ok(s, "list_contacts", limit=100)["users"]}
    found = ok(s, "search_users", query=stranger["display_name"], contacts_only=True)["users"]
    assert found[0]["user_id"] == stranger["user_id"]
    ok(s, "remove_contact", user_id=stranger["user_id"])
    assert err(s, "remove_contact", user_id=stranger["user_id"]) == "not_contact"
    assert ok(s, "search_users", query="'; DROP TABLE users; --")["total"] == 0
