"""Behaviour tests of the payments server: its main flows and its state-dependent failures."""

from __future__ import annotations

import pytest

from prove.env import Session, registry

from .helpers import fails, ok, session_fixture

DAY = 86400


s = session_fixture("payments")


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
    return next(u for u in ok(s, "list_contacts", {"limit": 100})["users"] if u["kind"] == "person")


def a_business(s: Session) -> dict:
    return next(u for u in ok(s, "search_users", {"query": "Coffee"})["users"] + ok(s, "search_users",
                                                                                    {"query": "a", "limit": 100})[
        "users"] if u["kind"] == "business")


def test_send_from_balance_then_the_payment_shows_everywhere(s: Session) -> None:
    wallet = ok(s, "get_wallet")
    friend = a_friend(s)
    receipt = ok(s, "send_payment", {"user_id": friend["user_id"], "amount": 12.345, "note": "Tacos 🌮"})
    pay = receipt["payment"]
    assert pay["amount"] == 12.35 and pay["fee"] == 0 and pay["source_id"] is None
    assert pay["source_name"] == "Wallet balance" and pay["direction"] == "sent" and pay["audience"] == "friends"
    assert receipt["balance"] == pytest.approx(wallet["balance"] - 12.35)
    assert receipt["remaining_this_week"] == pytest.approx(wallet["remaining_this_week"] - 12.35)
    after = ok(s, "get_wallet")
    assert after["balance"] == receipt["balance"] and after["sent_last_7_days"] == pytest.approx(
        wallet["sent_last_7_days"] + 12.35)
    latest = ok(s, "list_payments", {"counterparty_id": friend["user_id"], "limit": 1})["payments"][0]
    assert latest["payment_id"] == pay["payment_id"] and latest["note"] == "Tacos 🌮"
    assert ok(s, "list_payments", {"query": "tacos"})["total"] == 1
    assert ok(s, "get_payment", {"payment_id": pay["payment_id"]})["refundable_amount"] == 0  # sent: not ours to refund
    fails(s, "refund_payment", "not_refundable", {"payment_id": pay["payment_id"]})
    assert s.diff().tables() == {"payments.payments": {"insert": 1, "update": 0, "delete": 0},
                                 "payments.profile": {"insert": 0, "update": 1, "delete": 0}}


def test_funding_sources_fees_and_failures(s: Session) -> None:
    src = sources(s)
    friend, shop = a_friend(s), a_business(s)
    balance = ok(s, "get_wallet")["balance"]
    fails(s, "send_payment", "insufficient_balance",
          {"user_id": friend["user_id"], "amount": balance + 1, "note": "Too much"})
    by_bank = ok(s, "send_payment", {"user_id": friend["user_id"], "amount": balance + 1, "note": "Rent",
                                     "source_id": src["bank"]["source_id"]})
    assert by_bank["payment"]["fee"] == 0 and by_bank["balance"] == balance  # the bank pays, not the wallet
    by_card = ok(s, "send_payment", {"user_id": friend["user_id"], "amount": 100, "note": "Tickets",
                                     "source_id": src["credit"]["source_id"]})
    assert by_card["payment"]["fee"] == 3.0
    to_shop = ok(s, "send_payment", {"user_id": shop["user_id"], "amount": 100, "note": "Order",
                                     "source_id": src["credit"]["source_id"]})
    assert to_shop["payment"]["fee"] == 0  # no fee for paying a business
    fails(s, "send_payment", "card_expired", {"user_id": friend["user_id"], "amount": 5, "note": "x",
                                              "source_id": src["expired"]["source_id"]})
    fails(s, "send_payment", "not_found", {"user_id": "USR-99999", "amount": 5, "note": "x"})
    fails(s, "send_payment", "invalid_amount", {"user_id": friend["user_id"], "amount": 0.001, "note": "x"})
    fails(s, "send_payment", "invalid_arguments", {"user_id": friend["user_id"], "amount": 5, "note": "  "})


def test_weekly_limit_counts_a_rolling_week(s: Session) -> None:
    bank = sources(s)["bank"]["source_id"]
    friend = a_friend(s)
    limits = ok(s, "get_limits")
    room = limits["remaining_this_week"]
    fails(s, "send_payment", "weekly_limit_exceeded",
          {"user_id": friend["user_id"], "amount": room + 1, "note": "Car", "source_id": bank})
    ok(s, "send_payment", {"user_id": friend["user_id"], "amount": room, "note": "Car", "source_id": bank})
    assert ok(s, "get_limits")["remaining_this_week"] == 0
    fails(s, "send_payment", "weekly_limit_exceeded",
          {"user_id": friend["user_id"], "amount": 1, "note": "Coffee", "source_id": bank})
    s.advance(7 * DAY + 60)  # everything sent so far leaves the window
    assert ok(s, "get_limits")["sent_last_7_days"] == 0
    ok(s, "send_payment", {"user_id": friend["user_id"], "amount": 1, "note": "Coffee", "source_id": bank})


def test_refund_a_received_payment_within_the_window(s: Session) -> None:
    received = ok(s, "list_payments", {"direction": "received", "limit": 100})["payments"]
    recent = next(p for p in received if p["refundable_amount"] > 5 and p["status"] == "completed")
    old = next(p for p in received if p["refundable_until"] < "2026-03-16")
    balance = ok(s, "get_wallet")["balance"]
    fails(s, "refund_payment", "refund_window_expired", {"payment_id": old["payment_id"]})
    fails(s, "refund_payment", "refund_exceeds_payment",
          {"payment_id": recent["payment_id"], "amount": recent["amount"] + 1})
    part = ok(s, "refund_payment", {"payment_id": recent["payment_id"], "amount": 2, "reason": "Overpaid"})
    assert part["payment"]["status"] == "partially_refunded" and part["payment"]["refunded_amount"] == 2
    assert part["balance"] == pytest.approx(balance - 2) and part["refund"]["reason"] == "Overpaid"
    rest = ok(s, "refund_payment", {"payment_id": recent["payment_id"]})
    assert rest["refund"]["amount"] == pytest.approx(recent["amount"] - 2)
    assert rest["payment"]["status"] == "refunded" and len(rest["payment"]["refunds"]) == 2
    fails(s, "refund_payment", "already_refunded", {"payment_id": recent["payment_id"]})


def test_refund_needs_balance_and_expires_after_30_days(s: Session) -> None:
    received = ok(s, "list_payments", {"direction": "received", "limit": 100})["payments"]
    recent = next(p for p in received if p["refundable_amount"] > 0)
    wallet = ok(s, "get_wallet")
    ok(s, "cash_out", {"amount": wallet["balance"], "source_id": sources(s)["bank"]["source_id"],
                       "pin": ok(s, "get_security_pin")["pin"]})
    assert ok(s, "get_wallet")["balance"] == 0
    fails(s, "refund_payment", "insufficient_balance", {"payment_id": recent["payment_id"]})
    s.advance(31 * DAY)
    fails(s, "refund_payment", "refund_window_expired", {"payment_id": recent["payment_id"]})


def test_incoming_requests_pay_and_decline(s: Session) -> None:
    pending = ok(s, "list_requests", {"direction": "incoming", "status": "pending"})["requests"]
    assert len(pending) >= 2
    first, second = pending[0], pending[1]
    balance = ok(s, "get_wallet")["balance"]
    paid = ok(s, "pay_request", {"request_id": first["request_id"]})
    assert paid["payment"]["request_id"] == first["request_id"] and paid["payment"]["amount"] == first["amount"]
    assert paid["balance"] == pytest.approx(balance - first["amount"])
    settled = ok(s, "list_requests", {"counterparty_id": first["counterparty_id"], "status": "paid"})["requests"][0]
    assert settled["request_id"] == first["request_id"] and settled["payment_id"] == paid["payment"]["payment_id"]
    fails(s, "pay_request", "request_not_pending", {"request_id": first["request_id"]})
    declined = ok(s, "decline_request", {"request_id": second["request_id"]})
    assert declined["status"] == "declined" and declined["resolved_at"] == "2026-03-16T09:00:00"
    fails(s, "pay_request", "request_not_pending", {"request_id": second["request_id"]})
    assert ok(s, "get_wallet")["pending_incoming_requests"] == len(pending) - 2


def test_outgoing_requests(s: Session) -> None:
    friend, shop = a_friend(s), a_business(s)
    req = ok(s, "request_money", {"user_id": friend["user_id"], "amount": 42, "note": "Concert tickets 🎶"})
    assert req["status"] == "pending" and req["direction"] == "outgoing"
    fails(s, "request_money", "duplicate_request", {"user_id": friend["user_id"], "amount": 42, "note": "again"})
    fails(s, "request_money", "business_account", {"user_id": shop["user_id"], "amount": 42, "note": "refund?"})
    fails(s, "pay_request", "wrong_direction", {"request_id": req["request_id"]})
    fails(s, "decline_request", "wrong_direction", {"request_id": req["request_id"]})
    assert ok(s, "cancel_request", {"request_id": req["request_id"]})["status"] == "cancelled"
    fails(s, "cancel_request", "request_not_pending", {"request_id": req["request_id"]})
    incoming = ok(s, "list_requests", {"direction": "incoming", "status": "pending"})["requests"][0]
    fails(s, "cancel_request", "wrong_direction", {"request_id": incoming["request_id"]})


def test_cards_link_default_and_remove(s: Session) -> None:
    cards = ok(s, "list_cards_on_hand")["cards"]
    new = next(c for c in cards if not c["linked"])
    linked = next(c for c in cards if c["linked"])
    spaced = " ".join(new["card_number"][i:i + 4] for i in range(0, len(new["card_number"]), 4))
    card = ok(s, "add_card",
              {"card_number": spaced, "expires": new["expires"], "cvv": new["cvv"], "card_type": new["card_type"]})
    assert card["last4"] == new["card_number"][-4:] and card["status"] == "active" and not card["is_default"]
    assert "card_number" not in card
    fails(s, "add_card", "already_linked",
          {"card_number": new["card_number"], "expires": new["expires"], "cvv": new["cvv"],
                                            "card_type": new["card_type"]})
    fails(s, "add_card", "already_linked",
          {"card_number": linked["card_number"], "expires": linked["expires"], "cvv": linked["cvv"],
                                            "card_type": linked["card_type"]})
    bad = new["card_number"][:-1] + str((int(new["card_number"][-1]) + 1) % 10)
    fails(s, "add_card", "invalid_card", {"card_number": bad, "expires": "08/29", "cvv": "123", "card_type": "debit"})
    fails(s, "add_card", "invalid_expiry", {"card_number": "4111111111111111", "expires": "13/29", "cvv": "123",
                                            "card_type": "debit"})
    fails(s, "add_card", "card_expired", {"card_number": "4111111111111111", "expires": "01/26", "cvv": "123",
                                          "card_type": "debit"})

    src = sources(s)
    fails(s, "remove_funding_source", "default_source", {"source_id": src["bank"]["source_id"]})
    fails(s, "set_default_funding_source", "card_expired", {"source_id": src["expired"]["source_id"]})
    made = ok(s, "set_default_funding_source", {"source_id": card["source_id"]})
    assert made["is_default"] and ok(s, "get_wallet")["default_source_id"] == card["source_id"]
    # The old default has a cash-out in transit at the epoch: it cannot go yet.
    fails(s, "remove_funding_source", "pending_transfer", {"source_id": src["bank"]["source_id"]})
    s.advance(2 * DAY)
    assert ok(s, "remove_funding_source", {"source_id": src["bank"]["source_id"]})["status"] == "removed"
    fails(s, "send_payment", "source_unavailable", {"user_id": a_friend(s)["user_id"], "amount": 1, "note": "x",
                                                    "source_id": src["bank"]["source_id"]})
    assert src["bank"]["source_id"] not in {x["source_id"] for x in ok(s, "list_funding_sources")["funding_sources"]}
    assert src["bank"]["source_id"] in {x["source_id"] for x in
                                        ok(s, "list_funding_sources", {"include_removed": True})["funding_sources"]}


def test_cash_out_and_add_money(s: Session) -> None:
    src = sources(s)
    pin = ok(s, "get_security_pin")["pin"]
    wrong = "0000" if pin != "0000" else "1111"
    balance = ok(s, "get_wallet")["balance"]
    top = ok(s, "add_money", {"source_id": src["bank"]["source_id"], "amount": 500})
    assert top["balance"] == pytest.approx(balance + 500) and top["transfer"]["status"] == "completed"
    fails(s, "add_money", "unsupported_source", {"source_id": src["debit"]["source_id"], "amount": 50})
    fails(s, "cash_out", "wrong_pin", {"amount": 50, "source_id": src["bank"]["source_id"], "pin": wrong})
    fails(s, "cash_out", "unsupported_source", {"amount": 50, "source_id": src["credit"]["source_id"], "pin": pin})
    fails(s, "cash_out", "unsupported_source", {"amount": 50, "source_id": src["debit"]["source_id"], "pin": pin})
    fails(s, "cash_out", "insufficient_balance",
          {"amount": balance + 501, "source_id": src["bank"]["source_id"], "pin": pin})
    fast = ok(s, "cash_out", {"amount": 100, "source_id": src["debit"]["source_id"], "pin": pin, "speed": "instant"})
    assert fast["transfer"]["fee"] == 1.75 and fast["transfer"]["arriving_amount"] == 98.25
    slow = ok(s, "cash_out", {"amount": 100, "source_id": src["bank"]["source_id"], "pin": pin})
    assert slow["transfer"]["status"] == "pending" and slow["transfer"]["arrives_at"] == "2026-03-19T09:00:00"
    assert slow["balance"] == pytest.approx(balance + 300)
    s.advance(3 * DAY + 1)
    listed = {t["transfer_id"]: t for t in ok(s, "list_transfers", {"direction": "cash_out"})["transfers"]}
    assert listed[slow["transfer"]["transfer_id"]]["status"] == "completed"


def test_invoice_lifecycle(s: Session) -> None:
    client = a_business(s)
    inv = ok(s, "create_invoice", {"customer_id": client["user_id"], "due_date": "2026-03-31", "items": [
                                   {"description": "Development hours", "quantity": 6, "unit_price": 85},
                                   {"description": "Logo revisions", "quantity": 2, "unit_price": 60.004},
                               ]})
    assert inv["status"] == "open" and inv["amount"] == 630.0 and not inv["overdue"]
    assert [i["total"] for i in inv["items"]] == [510.0, 120.0]
    fails(s, "send_invoice_reminder", "reminder_too_soon", {"invoice_id": inv["invoice_id"]})
    s.advance(DAY)
    assert ok(s, "send_invoice_reminder", {"invoice_id": inv["invoice_id"]})["reminders_sent"] == 1
    fails(s, "send_invoice_reminder", "reminder_too_soon", {"invoice_id": inv["invoice_id"]})
    s.advance(20 * DAY)
    assert inv["invoice_id"] in {i["invoice_id"] for i in ok(s, "list_invoices", {"status": "overdue"})["invoices"]}
    paid = ok(s, "mark_invoice_paid", {"invoice_id": inv["invoice_id"], "method": "check"})
    assert paid["status"] == "paid" and paid["paid_via"] == "check" and not paid["overdue"]
    fails(s, "void_invoice", "invoice_not_open", {"invoice_id": inv["invoice_id"]})
    fails(s, "create_invoice", "invalid_due_date", {"customer_id": client["user_id"], "due_date": "2026-01-01",
                                                    "items": [{"description": "x", "quantity": 1, "unit_price": 5}]})
    fails(s, "create_invoice", "invalid_date", {"customer_id": client["user_id"], "due_date": "next friday",
                                                "items": [{"description": "x", "quantity": 1, "unit_price": 5}]})


def test_world_invoices_void_and_overdue(s: Session) -> None:
    overdue = ok(s, "list_invoices", {"status": "overdue"})["invoices"]
    assert overdue and all(i["overdue"] and i["status"] == "open" for i in overdue)
    target = overdue[0]["invoice_id"]
    assert ok(s, "void_invoice", {"invoice_id": target})["status"] == "void"
    fails(s, "mark_invoice_paid", "invoice_not_open", {"invoice_id": target, "method": "cash"})
    paid = ok(s, "list_invoices", {"status": "paid"})["invoices"]
    in_app = next(i for i in paid if i["paid_via"] == "app")
    assert ok(s, "get_payment", {"payment_id": in_app["payment_id"]})["invoice_id"] == in_app["invoice_id"]


def test_contacts(s: Session) -> None:
    stranger = next(u for u in ok(s, "search_users", {"query": "e", "limit": 100})["users"] if not u["is_contact"])
    added = ok(s, "add_contact", {"user_id": stranger["user_id"]})
    assert added["is_contact"] and added["contact_since"] == "2026-03-16"
    fails(s, "add_contact", "already_contact", {"user_id": stranger["user_id"]})
    assert stranger["user_id"] in {u["user_id"] for u in ok(s, "list_contacts", {"limit": 100})["users"]}
    found = ok(s, "search_users", {"query": stranger["display_name"], "contacts_only": True})["users"]
    assert found[0]["user_id"] == stranger["user_id"]
    ok(s, "remove_contact", {"user_id": stranger["user_id"]})
    fails(s, "remove_contact", "not_contact", {"user_id": stranger["user_id"]})
    assert ok(s, "search_users", {"query": "'; DROP TABLE users; --"})["total"] == 0



def test_an_instant_cash_out_is_said_with_its_fee():
    from prove.env import registry
    from prove.synth.teachers.programmatic import _fitting_replies

    spec = registry.get("payments").tools["cash_out"]
    base = {"amount": 80.75, "source_id": "FS-1", "pin": "1234"}
    instant = [r.text for r in _fitting_replies(spec, {**base, "speed": "instant"})]
    assert instant and all("fee" in r for r in instant)
    standard = [r.text for r in _fitting_replies(spec, base)]
    assert standard and all("fee" not in r for r in standard)


def test_what_i_paid_someone_lists_sent_payments_only(s):
    from prove.env import registry

    asks = {a.text: a for a in registry.get("payments").tools["list_payments"].asks}
    assert asks["What have I paid {counterparty_id} since {start_date}?"].agrees({"direction": "sent"})
    assert not asks["What have I paid {counterparty_id} since {start_date}?"].agrees({"direction": None})
    sent = ok(s, "list_payments", {"direction": "sent", "limit": 100})["payments"]
    assert sent and all(p["direction"] == "sent" for p in sent)


def test_a_payment_note_fits_whom_it_was_paid_to() -> None:
    """"$37.55 to Hannah Hernandez for 'Dinner at Northside Barbers 🍝'" and "$150.00 to Maple Court Parking
    for '☕'": dinner is at a restaurant, a coffee at a café or a bakery, an order picked up at a shop that
    sells things to take away."""
    from prove.servers.payments.world import BUSINESSES

    server = registry.get("payments")
    kinds = {name: category for name, category, _ in BUSINESSES}
    takeaway = {"Restaurant", "Bakery", "Grocery", "Florist", "Bookstore", "Coffee shop"}
    for world in (0, 1, 2):
        db = server.template(world).db
        for note, who in db.execute("SELECT p.note, u.display_name FROM payments p JOIN users u "
                                    "ON u.user_id = p.counterparty_id"):
            if note.startswith("Dinner at "):
                assert kinds.get(note[len("Dinner at "):].removesuffix(" 🍝")) == "Restaurant", note
            if note == "☕":
                assert kinds.get(who) in ("Coffee shop", "Bakery"), (note, who)
            if note == "Order pickup":
                assert kinds.get(who) in takeaway, (note, who)
