"""Invoices: the member bills clients of their freelance business and follows up."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import money, parse_date, said_in_part, spoken_day

from .server import (
    ClientId,
    INVOICE_SQL,
    Invoice,
    InvoiceId,
    InvoiceList,
    Limit,
    OpenInvoiceId,
    PAID_VIA,
    Text,
    UserId,
    invoice_model,
    invoice_row,
    open_invoice,
    profile,
)

tools = Toolset("invoices")

REMINDER_GAP = timedelta(hours=24)


class LineItem(BaseModel):
    description: Text = Field(description="what was done or sold, such as 'Portrait session (2 hours)'")
    quantity: Annotated[float, Field(gt=0, le=1000, description="how many units, such as 2")]
    unit_price: Annotated[float, Field(gt=0, le=100_000, description="dollars per unit, such as 150.0")]


@tools.tool(effect=WRITE, asks=[
    "Invoice {customer_id} for {items}, due {due_date}.",
    "Bill {customer_id}: {items}. Payment due by {due_date}, title it '{title}'.",
    "Send {customer_id} an invoice for {items}; they should pay by {due_date}.",
], reply=[
    "Invoice {result.invoice_id} for ${result.amount} is on its way to {customer_id}, due {result.due_date}.",
    "I've billed {customer_id} ${result.amount} (invoice {result.invoice_id}).",
], values={
    # The member's trade differs by world (photography, web design, tutoring, training, pet care):
    # line items and titles that any of them bills, each title with its items.
    "items, title": [
        ([{"description": "Travel fee", "quantity": 1.0, "unit_price": 40.0}], "Travel fee, March"),
        ([{"description": "Rush fee", "quantity": 1.0, "unit_price": 50.0},
          {"description": "Additional hour", "quantity": 2.0, "unit_price": 65.0}], "Rush job, March 2026"),
        ([{"description": "Additional hour", "quantity": 3.0, "unit_price": 60.0}], "Extra hours in March"),
        ([{"description": "Materials and supplies", "quantity": 1.0, "unit_price": 35.0},
          {"description": "Travel fee", "quantity": 1.0, "unit_price": 25.0}], "Materials and travel"),
        ([{"description": "Cancellation fee (less than 24 hours notice)", "quantity": 1.0, "unit_price": 45.0}],
         "Late cancellation"),
    ],
})
def create_invoice(ctx: Ctx, customer_id: ClientId, items: Annotated[list[LineItem], Field(min_length=1, max_length=20)],
                   due_date: str, title: Text | None = None) -> Invoice:
    """Create and send an invoice to a client for work done by the member's business.

    The client can pay it in the app; the member can also mark it paid when paid another way.

    Args:
        customer_id: ID of the client, a person or business, such as 'USR-10002'.
        items: the line items, each with description, quantity and unit_price, such as
            [{"description": "Development hours", "quantity": 6, "unit_price": 85.0}].
        due_date: the day payment is due, today or later and within a year, such as '2026-03-31'.
        title: a title for the invoice, such as 'Website work - March 2026'; by default the
            business name and the month.

    Returns:
        The new open invoice with its ID, total and items.

    Raises:
        not_found: no member has that customer ID.
        invalid_date: due_date is not a valid 'YYYY-MM-DD' day.
        invalid_due_date: due_date is in the past or more than a year away.
        invalid_amount: a line rounds to less than one cent.
    """
    customer = ctx.get("user", customer_id)
    due = parse_date(due_date, "due_date")
    today = ctx.today()
    if due < today or due > today + timedelta(days=365):
        raise ToolError("invalid_due_date", f"due_date {due} must be between today ({today}) and a year from now.",
                        hint="Invoices are usually due in 14 or 30 days.")
    lines = []
    for n, item in enumerate(items, 1):
        price = money(item.unit_price)
        total = money(item.quantity * price)
        if total < 0.01:
            raise ToolError("invalid_amount", f"Line {n} ({item.description[:40]!r}) comes to less than one cent.")
        lines.append((n, item.description, round(item.quantity, 3), price, total))
    amount = money(sum(line[4] for line in lines))
    invoice_id = ctx.new_id("INV")
    me = profile(ctx)
    name = title or f"{me['business_name']} - {today.strftime('%B %Y')}"
    ctx.db.execute("INSERT INTO invoices (invoice_id, customer_id, title, amount, status, issued_at, due_date) "
                   "VALUES (?, ?, ?, ?, 'open', ?, ?)",
                   (invoice_id, customer["user_id"], name, amount, ctx.now_iso(), due.isoformat()))
    ctx.db.executemany("INSERT INTO invoice_items (invoice_id, line, description, quantity, unit_price) "
                       "VALUES (?, ?, ?, ?, ?)", [(invoice_id, n, d, q, p) for n, d, q, p, _ in lines])
    return invoice_model(ctx, invoice_row(ctx, invoice_id))


def _invoices_text(invoices: list[Invoice], total: int, today: date, by_customer: bool) -> str:
    """'Nora Cruz: $105.00 for Photo session - March 2026, paid March 6 in the app; Leo James: $180.00
    for Extra hours in March, was due March 10', without the client a request named."""
    def one(inv: Invoice) -> str:
        what = f"${inv.amount:,.2f} for {inv.title}"
        head = what if by_customer else f"{inv.customer_name}: {what}"
        if inv.status == "paid":
            state = f"paid {spoken_day(inv.paid_at or inv.due_date, today)} {PAID_VIA[inv.paid_via or 'app']}"
        elif inv.status == "void":
            state = f"voided {spoken_day(inv.voided_at or inv.issued_at, today)}"
        elif inv.overdue:
            state = f"was due {spoken_day(inv.due_date, today)}"
        else:
            state = f"due {spoken_day(inv.due_date, today)}"
        return f"{head}, {state}"
    return said_in_part([one(inv) for inv in invoices[:5]], total, "no invoices", noun="invoice")


@tools.tool(effect=READ, asks=[
    Ask("Which of my invoices are still open?", status="open"),
    "Show the invoices I sent to {customer_id}.",
    Ask("Who hasn't paid their invoice yet? Show the overdue ones.", status="overdue"),
    Ask("Which invoices have been paid?", status="paid"),
], reply=[
    Ask("Your invoices, newest first: {result.invoices_text}.", status=None),
    Ask("Still open: {result.invoices_text}.", status="open"),
    Ask("These are past due and unpaid: {result.invoices_text}.", status="overdue"),
    Ask("These have been paid: {result.invoices_text}.", status="paid"),
    Ask("Voided: {result.invoices_text}.", status="void"),
])
def list_invoices(ctx: Ctx, status: Literal["open", "overdue", "paid", "void"] | None = None,
                  customer_id: UserId | None = None, limit: Limit = 20) -> InvoiceList:
    """List the invoices the member sent, newest first.

    Args:
        status: only 'open' (unpaid, including overdue), 'overdue' (unpaid and past due), 'paid'
            or 'void' invoices.
        customer_id: only invoices to this client, such as 'USR-10002'.
        limit: the most invoices to return, from 1 to 100, such as 20.

    Returns:
        The invoices with client, title, total, status, whether overdue, due date, payment and
        reminder details and items, and how many matched.

    Raises:
        not_found: customer_id names no member.
    """
    where = Where()
    if status == "overdue":
        where.add("i.status = 'open' AND i.due_date < ?", ctx.today().isoformat())
    else:
        where.eq("i.status", status)
    where.entity(ctx, "user", "i.customer_id", customer_id)
    rows = ctx.db.execute(f"{INVOICE_SQL} WHERE {where.sql} ORDER BY i.issued_at DESC, i.invoice_id DESC",
                          where.params).fetchall()
    invoices = [invoice_model(ctx, r) for r in rows[:limit]]
    return InvoiceList(invoices=invoices, total=len(rows),
                       invoices_text=_invoices_text(invoices, len(rows), ctx.today(), customer_id is not None))


@tools.tool(effect=READ, asks=[
    "Show me {invoice_id}.",
    "Has {invoice_id} been paid?",
    # Reminders are asked about while an invoice waits to be paid.
    Ask("How many reminders have gone out for {invoice_id}?", fits={"invoice_id": "status = 'open'"}),
], reply=[
    "{result.title} (${result.amount}, billed to {result.customer_name}) {result.paid_status}, and it has had "
    "{result.reminders_sent} reminders.",
    Ask("{result.title} (${result.amount}, billed to {result.customer_name}) {result.paid_status}, and no reminder "
        "has gone out.", **{"result.status": "open", "result.reminders_sent": 0}),
    # Whether it was paid, also where no reminder went out (the bound reply above would else be the only one).
    "{result.title} (${result.amount}, billed to {result.customer_name}) {result.paid_status}.",
    Ask("{result.title} (${result.amount}, billed to {result.customer_name}) {result.paid_status}.",
        **{"result.status": "open", "result.reminders_sent": 0}),
    # A paid or voided invoice is told by when and how it was settled: its due date and reminders are past.
    *[Ask("{result.title} (${result.amount}, billed to {result.customer_name}) {result.paid_status}.",
          **{"result.status": status}) for status in ("paid", "void")],
])
def get_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Look up one invoice with its line items, status and payment.

    Args:
        invoice_id: ID of the invoice, such as 'INV-10003'.

    Returns:
        The invoice: client, title, items, total, status, whether it is overdue, due date, when
        and how it was paid, reminders sent and when it was voided.

    Raises:
        not_found: no invoice has that ID.
    """
    return invoice_model(ctx, invoice_row(ctx, invoice_id))


@tools.tool(effect=WRITE, asks=[
    "Send a reminder for {invoice_id}.",
    "Nudge the client about {invoice_id}, it's still unpaid.",
    "Could you remind the client about {invoice_id}, please?",
], reply=[
    "Sent a reminder to {result.customer_name} about {invoice_id}.",
    "{result.customer_name} has been reminded about {invoice_id} (${result.amount}, due {result.due_date}).",
])
def send_invoice_reminder(ctx: Ctx, invoice_id: OpenInvoiceId) -> Invoice:
    """Remind the client of an unpaid invoice (at most once every 24 hours).

    Args:
        invoice_id: ID of an open invoice, such as 'INV-10011'.

    Returns:
        The invoice with its reminder count and time.

    Raises:
        not_found: no invoice has that ID.
        invoice_not_open: the invoice is already paid or void.
        reminder_too_soon: the invoice was issued or last reminded less than 24 hours ago.
    """
    row = open_invoice(ctx, invoice_id)
    last = datetime.fromisoformat(row["last_reminded_at"] or row["issued_at"])
    if ctx.now() < last + REMINDER_GAP:
        raise ToolError("reminder_too_soon", f"Invoice {invoice_id} was sent or reminded at {last.isoformat()}; "
                        "the client can be reminded once every 24 hours.",
                        hint=f"Try again after {(last + REMINDER_GAP).isoformat()}.")
    ctx.db.execute("UPDATE invoices SET reminders_sent = reminders_sent + 1, last_reminded_at = ? WHERE invoice_id = ?",
                   (ctx.now_iso(), invoice_id))
    return invoice_model(ctx, invoice_row(ctx, invoice_id))


@tools.tool(effect=WRITE, asks=[
    "Void {invoice_id}.",
    "Cancel {invoice_id}, I sent it by mistake.",
    "Withdraw {invoice_id}; the client won't owe it.",
], reply=[
    "{invoice_id} is void; {result.customer_name} no longer owes it.",
    "Done: I voided {invoice_id}.",
])
def void_invoice(ctx: Ctx, invoice_id: OpenInvoiceId) -> Invoice:
    """Void an unpaid invoice so that it can no longer be paid.

    Args:
        invoice_id: ID of an open invoice, such as 'INV-10011'.

    Returns:
        The invoice, now 'void'.

    Raises:
        not_found: no invoice has that ID.
        invoice_not_open: the invoice is already paid or void (refund a paid one instead).
    """
    open_invoice(ctx, invoice_id)
    ctx.db.execute("UPDATE invoices SET status = 'void', voided_at = ? WHERE invoice_id = ?",
                   (ctx.now_iso(), invoice_id))
    return invoice_model(ctx, invoice_row(ctx, invoice_id))


@tools.tool(effect=WRITE, asks=[
    "Mark {invoice_id} as paid, they paid by {method}.",
    Ask("Record {invoice_id} as paid; it was settled with a check.", method="check"),
    Ask("Mark {invoice_id} as paid; the client paid it in cash.", method="cash"),
    Ask("Mark {invoice_id} paid; it came in by bank transfer.", method="bank_transfer"),
], reply=[
    "Recorded {invoice_id} as paid by {method}.",
    "{result.customer_name}'s {invoice_id} is marked paid.",
])
def mark_invoice_paid(ctx: Ctx, invoice_id: OpenInvoiceId, method: Literal["cash", "check", "bank_transfer"]) -> Invoice:
    """Record that an open invoice was paid outside the app (cash, check or bank transfer).

    Args:
        invoice_id: ID of an open invoice, such as 'INV-10011'.
        method: how the client paid: 'cash', 'check' or 'bank_transfer'.

    Returns:
        The invoice, now 'paid', with the method and time.

    Raises:
        not_found: no invoice has that ID.
        invoice_not_open: the invoice is already paid or void.
    """
    open_invoice(ctx, invoice_id)
    ctx.db.execute("UPDATE invoices SET status = 'paid', paid_at = ?, paid_via = ? WHERE invoice_id = ?",
                   (ctx.now_iso(), method, invoice_id))
    return invoice_model(ctx, invoice_row(ctx, invoice_id))
