"""Payments and requests: send money, refund it, request it, answer requests."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import like, money, parse_date, said_in_part

from .server import (
    PAYMENT_SQL,
    REQUEST_SQL,
    Amount,
    AnyReceivedPaymentId,
    Audience,
    IncomingRequestId,
    Limit,
    Note,
    OutgoingRequestId,
    Payment,
    PaymentList,
    PaymentReceipt,
    PersonId,
    Query,
    ReceivedPaymentId,
    Refund,
    RefundReceipt,
    Request,
    RequestList,
    SourceId,
    UserId,
    adjust_balance,
    balance,
    cents,
    check_weekly_limit,
    fund,
    insert_payment,
    payment_model,
    payment_row,
    pending_request,
    remaining_this_week,
    request_model,
    request_row,
)
from .world import REFUND_WINDOW_DAYS

# A note with an amount that fits it (a coffee is a few dollars, a share of rent hundreds).
NOTE_AMOUNTS = [("Dinner at Luigi's", 42.5), ("Dinner at Luigi's", 35.0), ("Rent for March", 650.0),
                ("Rent for March", 825.0), ("Concert tickets", 85.0), ("Groceries", 38.2), ("Groceries", 24.75),
                ("Uber home", 18.4), ("Birthday gift for Sam", 25.0), ("Utilities split", 47.3), ("Coffee", 4.5),
                ("Coffee", 6.25), ("Book club snacks", 12.0), ("Gas money for the road trip", 30.0)]

tools = Toolset("payments")


def _receipt(ctx: Ctx, payment_id: str) -> PaymentReceipt:
    return PaymentReceipt(payment=payment_model(ctx, payment_row(ctx, payment_id)), balance=balance(ctx),
                          remaining_this_week=remaining_this_week(ctx))


@tools.tool(effect=WRITE, asks=[
    "Send {amount} dollars to {user_id} for '{note}'.",
    "Pay {user_id} ${amount}, note: {note}.",
    "Send {user_id} ${amount} for '{note}' using {source_id}.",
    Ask("Pay {user_id} ${amount} for '{note}' and keep it private.", audience="private"),
    Ask("Send ${amount} to {user_id} for '{note}', and share it publicly.", audience="public"),
], reply=[
    "Sent ${result.payment.amount} to {user_id}; your balance is ${result.balance}.",
    "Paid {user_id} ${result.payment.amount} for '{result.payment.note}'. You can send "
    "${result.remaining_this_week} more this week.",
], values={"note, amount": NOTE_AMOUNTS})
def send_payment(ctx: Ctx, user_id: PersonId, amount: Amount, note: Note, source_id: SourceId | None = None,
                 audience: Audience = "friends") -> PaymentReceipt:
    """Send money to another member, a person or a business. Payments cannot be cancelled.

    The money comes from the wallet balance unless `source_id` names a linked bank account or
    card. A payment to a person funded by a credit card costs 3% on top. Payments count toward
    the weekly sending limit.

    Args:
        user_id: ID of the recipient, such as 'USR-10002'.
        amount: dollars the recipient gets, such as 25.5.
        note: what it is for, shown to both sides, such as 'Pizza night 🍕'.
        source_id: the bank account or card to charge, such as 'FS-10001'; the wallet balance if omitted.
        audience: who sees it in the feed: 'private', 'friends' or 'public'.

    Returns:
        The payment (with fee and funding source), the wallet balance afterwards and what is left
        of this week's sending limit.

    Raises:
        not_found: the recipient or the funding source does not exist.
        invalid_amount: the amount rounds to less than one cent.
        weekly_limit_exceeded: the payment would pass the weekly sending limit.
        insufficient_balance: no source was named and the wallet balance is less than the amount.
        source_unavailable: the funding source was removed.
        card_expired: the card has expired.
    """
    recipient = ctx.get("user", user_id)
    amount = cents(amount)
    check_weekly_limit(ctx, amount)
    source, fee = fund(ctx, amount, source_id, recipient)
    payment_id = insert_payment(ctx, direction="sent", counterparty_id=user_id, amount=amount, fee=fee, note=note,
                                source_id=source, audience=audience)
    return _receipt(ctx, payment_id)


@tools.tool(effect=READ, asks=[
    "Show my recent payments.",
    Ask("What have I paid {counterparty_id} since {start_date}?", direction="sent"),
    "Find the payment for '{query}'.",
    Ask("List the money I received between {start_date} and {end_date}.", direction="received"),
    Ask("What payments have I sent lately?", direction="sent"),
], reply=[
    "Here's what I found, newest first: {result.payments_text}.",
    "Your payments: {result.payments_text}.",
    Ask("You sent {result.payments_text}.", direction="sent"),
    Ask("You received {result.payments_text}.", direction="received"),
])
def list_payments(ctx: Ctx, direction: Literal["sent", "received"] | None = None,
                  counterparty_id: UserId | None = None, query: Query | None = None,
                  start_date: str | None = None, end_date: str | None = None, limit: Limit = 20) -> PaymentList:
    """List payments the member sent or received, newest first.

    Args:
        direction: only 'sent' or only 'received' payments.
        counterparty_id: only payments with this member, such as 'USR-10002'.
        query: only payments whose note contains this text, such as 'rent'.
        start_date: only payments on or after this day, such as '2026-03-01'.
        end_date: only payments on or before this day, such as '2026-03-15'.
        limit: the most payments to return, from 1 to 100, such as 20.

    Returns:
        The payments with counterparty, amount, fee, note, funding source, audience, status,
        refunds and what may still be refunded, and how many matched.

    Raises:
        not_found: counterparty_id names no member.
        invalid_date: a date is not a valid 'YYYY-MM-DD' day.
        invalid_range: end_date is before start_date.
    """
    where = Where()
    where.eq("p.direction", direction)
    where.entity(ctx, "user", "p.counterparty_id", counterparty_id)
    if query is not None:
        where.add("lower(p.note) LIKE ? ESCAPE '\\'", like(query))
    start = parse_date(start_date, "start_date") if start_date is not None else None
    end = parse_date(end_date, "end_date") if end_date is not None else None
    if start and end and end < start:
        raise ToolError("invalid_range", f"end_date {end} is before start_date {start}.")
    if start:
        where.add("p.created_at >= ?", start.isoformat())
    if end:
        where.add("p.created_at < ?", (end + timedelta(days=1)).isoformat())
    rows = ctx.db.execute(f"{PAYMENT_SQL} WHERE {where.sql} ORDER BY p.created_at DESC, p.payment_id DESC",
                          where.params).fetchall()
    payments = [payment_model(ctx, r) for r in rows[:limit]]
    return PaymentList(payments=payments, total=len(rows), payments_text=_payments_text(payments, len(rows), ctx.now()))


def _day(at: str, today: datetime) -> str:
    d = datetime.fromisoformat(at)
    return f"{d:%B} {d.day}" + ("" if d.year == today.year else f", {d.year}")


def _payments_text(payments: list[Payment], total: int, now: datetime) -> str:
    """'$87.62 to Happy Paws Grooming for 'Order pickup' on March 15 and $75.48 from Leo James for
    'Dinner 🍝' on March 14 (refunded)'."""
    def one(p: Payment) -> str:
        refunded = {"refunded": " (refunded)", "partially_refunded": " (partly refunded)"}.get(p.status, "")
        way = "to" if p.direction == "sent" else "from"
        return f"${p.amount:,.2f} {way} {p.counterparty_name} for '{p.note}' on {_day(p.created_at, now)}{refunded}"
    return said_in_part([one(p) for p in payments[:5]], total, "no payments")


def _requests_text(requests: list[Request], total: int, now: datetime) -> str:
    """'Henry Williams owes you $95.11 for 'Splitting the cab' (asked March 12); you declined Jordan
    Okafor's $67.85 request for 'Gas money ⛽''."""
    def one(r: Request) -> str:
        who, amount, note = r.counterparty_name, f"${r.amount:,.2f}", f"for '{r.note}'"
        if r.direction == "outgoing":
            return {"pending": f"{who} owes you {amount} {note} (asked {_day(r.created_at, now)})",
                    "paid": f"{who} paid your {amount} request {note}",
                    "declined": f"{who} declined your {amount} request {note}",
                    "cancelled": f"you cancelled your {amount} request to {who} {note}"}[r.status]
        return {"pending": f"{who} asks you for {amount} {note} (since {_day(r.created_at, now)})",
                "paid": f"you paid {who}'s {amount} request {note}",
                "declined": f"you declined {who}'s {amount} request {note}",
                "cancelled": f"{who} cancelled their {amount} request {note}"}[r.status]
    return said_in_part([one(r) for r in requests[:5]], total, "no requests")


@tools.tool(effect=READ, asks=[
    "Show me {payment_id}.",
    "Can I still refund {payment_id}?",
    "When did {payment_id} come in, and can I still send it back?",
], reply=[
    "{result.counterparty_name} paid you ${result.amount} for '{result.note}' on {result.created_at}, and the "
    "payment is {result.status}; ${result.refundable_amount} of it can still be refunded.",
    Ask("{result.counterparty_name} paid you ${result.amount} for '{result.note}' on {result.created_at}, and the "
        "payment is completed; the 30 days to refund it ended {result.refundable_until}, so it can't be refunded now.",
        **{"result.status": "completed", "result.refundable_amount": 0.0}),
    Ask("{result.counterparty_name} paid you ${result.amount} for '{result.note}' on {result.created_at}, and you've "
        "refunded it in full, so there is nothing left to refund.", **{"result.status": "refunded"}),
])
def get_payment(ctx: Ctx, payment_id: AnyReceivedPaymentId) -> Payment:
    """Look up one payment with its refunds and whether, and until when, it can be refunded.

    Args:
        payment_id: ID of the payment, such as 'PAY-10042'.

    Returns:
        The payment: counterparty, amount, fee, note, funding source, audience, status, its
        refunds, the amount that may still be refunded and the refund deadline.

    Raises:
        not_found: no payment has that ID.
    """
    return payment_model(ctx, payment_row(ctx, payment_id))


@tools.tool(effect=WRITE, asks=[
    "Refund {payment_id}.",
    "Give ${amount} back on {payment_id}, reason: {reason}.",
    "Send back the money from {payment_id}, they paid me by mistake.",
    "Refund part of {payment_id}: ${amount}.",
], reply=[
    "Refunded ${result.refund.amount} on {payment_id}; your balance is now ${result.balance}.",
    "Sent ${result.refund.amount} back on {payment_id}.",
], values={
    # A received payment may be for anything (rent, a bill, dinner): reasons that fit any of them.
    "reason": ["Paid twice by mistake", "Wrong amount sent", "You overpaid me", "Sent to the wrong person",
               "We settled this another way"],
})
def refund_payment(ctx: Ctx, payment_id: ReceivedPaymentId, amount: Amount | None = None,
                   reason: Note | None = None) -> RefundReceipt:
    """Refund, fully or partly, a payment the member received, from the wallet balance.

    Only the recipient can refund a payment, within 30 days of receiving it. Refunds do not
    count toward the weekly sending limit.

    Args:
        payment_id: ID of a payment the member received, such as 'PAY-10228'.
        amount: dollars to refund, such as 12.5; by default everything not yet refunded.
        reason: why, shown to the payer, such as 'Paid twice by mistake'.

    Returns:
        The refund, the payment with its new status and refunded amount, and the wallet balance
        afterwards.

    Raises:
        not_found: no payment has that ID.
        not_refundable: the member sent this payment; only its recipient can refund it.
        already_refunded: the payment has been refunded in full.
        refund_window_expired: the payment was received more than 30 days ago.
        invalid_amount: the amount rounds to less than one cent.
        refund_exceeds_payment: the amount is more than what is left to refund.
        insufficient_balance: the wallet balance is less than the refund.
    """
    row = payment_row(ctx, payment_id)
    if row["direction"] == "sent":
        raise ToolError("not_refundable", f"You sent payment {payment_id} to {row['counterparty_name']}; "
                        "only the recipient can refund it.",
                        hint=f"Ask {row['counterparty_name']} for a refund, or request the money back "
                             "with request_money.")
    left = money(row["amount"] - row["refunded_amount"])
    if left < 0.01:
        raise ToolError("already_refunded", f"Payment {payment_id} has been refunded in full.")
    deadline = datetime.fromisoformat(row["created_at"]) + timedelta(days=REFUND_WINDOW_DAYS)
    if ctx.now() > deadline:
        raise ToolError("refund_window_expired", f"Payment {payment_id} was received on {row['created_at'][:10]}; "
                        f"refunds are possible for {REFUND_WINDOW_DAYS} days, until {deadline.date()}.",
                        hint="Send the money back as a new payment with send_payment instead.")
    amount = left if amount is None else cents(amount)
    if amount > left:
        raise ToolError("refund_exceeds_payment", f"Only ${left:,.2f} of payment {payment_id} is left to refund.",
                        hint=f"Refund at most ${left:,.2f}.")
    available = balance(ctx)
    if available < amount:
        raise ToolError("insufficient_balance", f"Refunds come from the wallet balance, which is ${available:,.2f}; "
                        f"${amount:,.2f} is needed.", hint="Add money to the wallet first with add_money.")
    refund_id = ctx.new_id("RFD")
    ctx.db.execute("INSERT INTO refunds (refund_id, payment_id, amount, reason, created_at) VALUES (?, ?, ?, ?, ?)",
                   (refund_id, payment_id, amount, reason, ctx.now_iso()))
    refunded = money(row["refunded_amount"] + amount)
    ctx.db.execute("UPDATE payments SET refunded_amount = ?, status = ? WHERE payment_id = ?",
                   (refunded, "refunded" if refunded >= row["amount"] else "partially_refunded", payment_id))
    adjust_balance(ctx, -amount)
    refund = Refund(**dict(ctx.db.execute("SELECT * FROM refunds WHERE refund_id = ?", (refund_id,)).fetchone()))
    return RefundReceipt(refund=refund, payment=payment_model(ctx, payment_row(ctx, payment_id)), balance=balance(ctx))


# ----- requests ----------------------------------------------------------------------------------

@tools.tool(effect=WRITE, asks=[
    "Request {amount} dollars from {user_id} for '{note}'.",
    "Ask {user_id} to pay me back ${amount} for '{note}'.",
    "Send {user_id} a request: they owe me ${amount} for '{note}'.",
], reply=[
    "Requested ${result.amount} from {user_id} for '{result.note}'.",
    "Done: {user_id} has your ${result.amount} request.",
], values={"note, amount": NOTE_AMOUNTS})
def request_money(ctx: Ctx, user_id: PersonId, amount: Amount, note: Note) -> Request:
    """Ask another person to pay the member; they can pay or decline it.

    Args:
        user_id: ID of the person to ask, such as 'USR-10002'.
        amount: dollars requested, such as 42.0.
        note: what it is for, shown to them, such as 'Concert tickets 🎶'.

    Returns:
        The new pending request with its ID.

    Raises:
        not_found: no member has that ID.
        invalid_amount: the amount rounds to less than one cent.
        business_account: the member is a business; money can only be requested from people.
        duplicate_request: a pending request to the same person for the same amount already exists.
    """
    who = ctx.get("user", user_id)
    amount = cents(amount)
    if who["kind"] == "business":
        raise ToolError("business_account", f"{who['display_name']} is a business; requests go to people only.",
                        hint="For work you did for a business, send an invoice with create_invoice.")
    same = ctx.db.execute("SELECT request_id FROM requests WHERE direction = 'outgoing' AND status = 'pending' "
                          "AND counterparty_id = ? AND amount = ?", (user_id, amount)).fetchone()
    if same:
        raise ToolError("duplicate_request", f"Request {same['request_id']} already asks {who['display_name']} "
                        f"for ${amount:,.2f}.", hint="Wait for them to answer it, or cancel it first.")
    request_id = ctx.new_id("REQ")
    ctx.db.execute("INSERT INTO requests (request_id, direction, counterparty_id, amount, note, status, created_at) "
                   "VALUES (?, 'outgoing', ?, ?, ?, 'pending', ?)", (request_id, user_id, amount, note, ctx.now_iso()))
    return request_model(request_row(ctx, request_id))


@tools.tool(effect=READ, asks=[
    Ask("Do I have any pending requests?", status="pending"),
    Ask("Who owes me money? Show my pending outgoing requests.", status="pending", direction="outgoing"),
    Ask("What requests has {counterparty_id} sent me?", direction="incoming"),
    Ask("Which requests did I decline?", status="declined", direction="incoming"),
], reply=[
    "Here's where your requests stand: {result.requests_text}.",
    "Your requests: {result.requests_text}.",
    Ask("Waiting on others: {result.requests_text}.", status="pending", direction="outgoing"),
])
def list_requests(ctx: Ctx, direction: Literal["incoming", "outgoing"] | None = None,
                  status: Literal["pending", "paid", "declined", "cancelled"] | None = None,
                  counterparty_id: UserId | None = None, limit: Limit = 20) -> RequestList:
    """List money requests, newest first: incoming ones ask the member to pay, outgoing ones are the member's.

    Args:
        direction: only 'incoming' or only 'outgoing' requests.
        status: only 'pending', 'paid', 'declined' or 'cancelled' requests.
        counterparty_id: only requests with this member, such as 'USR-10002'.
        limit: the most requests to return, from 1 to 100, such as 20.

    Returns:
        The requests with counterparty, amount, note, status, creation and resolution times and
        the payment that settled a paid one, and how many matched.

    Raises:
        not_found: counterparty_id names no member.
    """
    where = Where()
    where.eq("r.direction", direction)
    where.eq("r.status", status)
    where.entity(ctx, "user", "r.counterparty_id", counterparty_id)
    rows = ctx.db.execute(f"{REQUEST_SQL} WHERE {where.sql} ORDER BY r.created_at DESC, r.request_id DESC",
                          where.params).fetchall()
    requests = [request_model(r) for r in rows[:limit]]
    return RequestList(requests=requests, total=len(rows), requests_text=_requests_text(requests, len(rows), ctx.now()))


@tools.tool(effect=WRITE, asks=[
    "Pay {request_id}.",
    "Go ahead and pay {request_id} with {source_id}.",
    "Settle {request_id} for me.",
], reply=[
    "Paid {request_id}: ${result.payment.amount}; your balance is ${result.balance}.",
    "{request_id} is paid; you can send ${result.remaining_this_week} more this week.",
])
def pay_request(ctx: Ctx, request_id: IncomingRequestId, source_id: SourceId | None = None) -> PaymentReceipt:
    """Pay an incoming request: sends its amount to the requester and marks it paid.

    Funding and limits are as for send_payment: the wallet balance unless `source_id` names a
    bank account or card (3% on top for a credit card).

    Args:
        request_id: ID of an incoming pending request, such as 'REQ-10021'.
        source_id: the bank account or card to charge, such as 'FS-10001'; the wallet balance if omitted.

    Returns:
        The payment, the wallet balance afterwards and what is left of this week's sending limit.

    Raises:
        not_found: the request or the funding source does not exist.
        wrong_direction: the request is one the member sent.
        request_not_pending: the request was already paid, declined or cancelled.
        weekly_limit_exceeded: the payment would pass the weekly sending limit.
        insufficient_balance: no source was named and the wallet balance is less than the amount.
        source_unavailable: the funding source was removed.
        card_expired: the card has expired.
    """
    req = pending_request(ctx, request_id, "incoming")
    requester = ctx.get("user", req["counterparty_id"])
    check_weekly_limit(ctx, req["amount"])
    source, fee = fund(ctx, req["amount"], source_id, requester)
    payment_id = insert_payment(ctx, direction="sent", counterparty_id=req["counterparty_id"], amount=req["amount"],
                                fee=fee, note=req["note"], source_id=source, audience="friends", request_id=request_id)
    ctx.db.execute("UPDATE requests SET status = 'paid', resolved_at = ? WHERE request_id = ?",
                   (ctx.now_iso(), request_id))
    return _receipt(ctx, payment_id)


def _close_request(ctx: Ctx, request_id: str, direction: str, status: str) -> Request:
    """Close a pending request of `direction` as `status` ('declined' or 'cancelled'), nothing paid."""
    pending_request(ctx, request_id, direction)
    ctx.db.execute("UPDATE requests SET status = ?, resolved_at = ? WHERE request_id = ?",
                   (status, ctx.now_iso(), request_id))
    return request_model(request_row(ctx, request_id))


@tools.tool(effect=WRITE, asks=[
    "Decline {request_id}.",
    "Turn down {request_id}; I don't owe that.",
    "Reject {request_id}, please.",
], reply=[
    "Declined {request_id}; nothing was paid.",
    "{request_id} is declined, and no money went out.",
])
def decline_request(ctx: Ctx, request_id: IncomingRequestId) -> Request:
    """Decline an incoming request; nothing is paid.

    Args:
        request_id: ID of an incoming pending request, such as 'REQ-10021'.

    Returns:
        The request, now 'declined'.

    Raises:
        not_found: no request has that ID.
        wrong_direction: the request is one the member sent (cancel it instead).
        request_not_pending: the request was already paid, declined or cancelled.
    """
    return _close_request(ctx, request_id, "incoming", "declined")


@tools.tool(effect=WRITE, asks=[
    "Cancel {request_id}.",
    "Never mind {request_id}, they paid me in cash.",
    "Withdraw {request_id}.",
], reply=[
    "Cancelled {request_id}, so nothing is owed on it anymore.",
    "{request_id} is withdrawn.",
])
def cancel_request(ctx: Ctx, request_id: OutgoingRequestId) -> Request:
    """Cancel a request the member sent that has not been answered yet.

    Args:
        request_id: ID of an outgoing pending request, such as 'REQ-10022'.

    Returns:
        The request, now 'cancelled'.

    Raises:
        not_found: no request has that ID.
        wrong_direction: the request was sent to the member (decline it instead).
        request_not_pending: the request was already paid, declined or cancelled.
    """
    return _close_request(ctx, request_id, "outgoing", "cancelled")
