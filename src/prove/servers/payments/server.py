"""The payments server: the one `server`, its entity types, result models and shared rules.

The tools live by area in toolsets, `tools_<area>.py` (invoices, payments and requests, people,
wallet and funding sources); each imports what it needs from here, and the package includes them.

Rules every tool follows:

- The member pays from their wallet balance unless a funding source is named. A payment to a
  person funded by a credit card costs 3% on top; everything else is free.
- Everything sent in any rolling 7 days (payments and paid requests, fees excluded) may not pass
  the member's weekly sending limit.
- Only the recipient can refund a payment: the member may refund payments they received, from
  their balance, within 30 days.
- A card is expired after the last day of its 'MM/YY' month; an expired card cannot fund
  anything or be the default.
- Transfers to and from banks are stored with an arrival time; one is 'pending' until then.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import iso, money, said_in_part, spoken_day

from .world import REFUND_WINDOW_DAYS, build_world

# A person is a "friend", a business a "business" ("Which business do you mean?"), each said by its name.
USER = EntityKind("user", table="users", key="user_id", label="display_name",
                  description="another member of the network: a person or a business", lister="search_users",
                  noun="friend", naming="alone", noun_from="kind", nouns=(("person", "friend"),))
FUNDING_SOURCE = EntityKind("funding_source", table="funding_sources", key="source_id", label="name",
                            description="a bank account or card linked to the member's wallet",
                            live="status = 'active'",
                            noun="payment method")
PAYMENT = EntityKind("payment", table="payments", key="payment_id", label="note",
                     description="money the member sent to or received from another member")
REQUEST = EntityKind("request", table="requests", key="request_id", label="note",
                     description="a request for money, to the member (incoming) or from them (outgoing)")
REFUND = EntityKind("refund", table="refunds", key="refund_id", label="reason",
                    description="money returned on a payment")
INVOICE = EntityKind("invoice", table="invoices", key="invoice_id", label="title",
                     description="a bill the member sent a client for freelance work", public_id=True)
TRANSFER = EntityKind("transfer", table="transfers", key="transfer_id", label=None,
                      description="money moved between the wallet and a bank account or debit card")

server = Server(
    "payments", "Payments app",
    "A person-to-person payments app (Venmo-like) seen by one signed-in member: wallet balance, "
    "linked bank accounts and cards, contacts and the member directory, sending money and "
    "requesting it, pending requests to pay or decline, refunds within 30 days, a weekly sending "
    "limit, cash-outs and top-ups, and invoices the member sends to clients of their freelance business.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[USER, FUNDING_SOURCE, PAYMENT, REQUEST, REFUND, INVOICE, TRANSFER],
)

# ----- parameter types -------------------------------------------------------------------------

UserId = USER.id
SourceId = FUNDING_SOURCE.id
PaymentId = PAYMENT.id
RequestId = REQUEST.id
RefundId = REFUND.id
InvoiceId = INVOICE.id
TransferId = TRANSFER.id

# Subsets of a kind for tools that act on only some of its rows (the sampler offers only those).
PersonId = USER.where("kind = 'person'")
# Who the member's freelance business bills: people and the businesses that are its clients.
ClientId = USER.where("kind = 'person' OR category = 'Client'")
ContactId = USER.where("is_contact = 1")
NonContactId = USER.where("is_contact = 0")
BankId = FUNDING_SOURCE.where("kind = 'bank_account'")
PayoutSourceId = FUNDING_SOURCE.where("kind IN ('bank_account', 'debit_card')")
OtherSourceId = FUNDING_SOURCE.where("is_default = 0")
ReceivedPaymentId = PAYMENT.where("direction = 'received' AND status != 'refunded'")
# Any payment the member received, refunded or not: only the recipient can refund one.
AnyReceivedPaymentId = PAYMENT.where("direction = 'received'")
IncomingRequestId = REQUEST.where("direction = 'incoming' AND status = 'pending'")
OutgoingRequestId = REQUEST.where("direction = 'outgoing' AND status = 'pending'")
OpenInvoiceId = INVOICE.where("status = 'open'")

Note = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=280)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Limit = Annotated[int, Field(ge=1, le=100)]
Amount = Annotated[float, Field(gt=0, le=50_000)]
Audience = Literal["private", "friends", "public"]

WEEK = timedelta(days=7)
MAX_ACTIVE_SOURCES = 8
FEE_NOTE = "Credit-card payments to people cost 3% on top; balance, bank and debit payments are free."

# ----- result models ---------------------------------------------------------------------------


class FundingSource(BaseModel):
    source_id: SourceId
    name: str
    kind: Literal["bank_account", "debit_card", "credit_card"]
    institution: str
    last4: str
    expires: str | None = Field(description="cards: 'MM/YY'")
    expired: bool
    status: Literal["active", "removed"]
    is_default: bool = Field(description="used when a bank or card is needed and none is named")
    added_at: str


class FundingSourceList(BaseModel):
    funding_sources: list[FundingSource]
    total: int
    sources_text: str = Field(description="the banks and cards in words, such as 'PNC Checking ending 4202 (your "
                                          "default) and PNC Visa Debit ending 2816 (expired)'")


class Wallet(BaseModel):
    name: str
    username: str
    balance: float
    identity_verified: bool
    default_source_id: SourceId | None
    default_source_name: str | None
    weekly_send_limit: float
    sent_last_7_days: float
    remaining_this_week: float
    cash_out_in_transit: float = Field(description="cash-outs on their way to a bank, not yet arrived")
    pending_incoming_requests: int = Field(description="requests waiting for the member to pay or decline")
    open_invoices: int


class Limits(BaseModel):
    weekly_send_limit: float
    sent_last_7_days: float
    remaining_this_week: float
    window_start: str = Field(description="payments since this time count toward the limit")
    next_release_at: str | None = Field(description="when the oldest payment in the window stops counting")
    next_release_amount: float | None = Field(description="how much room that frees")


class User(BaseModel):
    user_id: UserId
    display_name: str
    username: str
    kind: Literal["person", "business"]
    category: str | None = Field(description="businesses: what they are, such as 'Coffee shop'")
    city: str
    is_contact: bool
    contact_since: str | None


class UserList(BaseModel):
    users: list[User]
    total: int = Field(description="how many matched, before `limit`")
    users_text: str = Field(description="the members in words, such as 'Carlos Reed (@carlos-reed, in Manchester), "
                                        "one of your contacts'")


class Refund(BaseModel):
    refund_id: RefundId
    payment_id: PaymentId
    amount: float
    reason: str | None
    created_at: str


class Payment(BaseModel):
    payment_id: PaymentId
    direction: Literal["sent", "received"]
    counterparty_id: UserId
    counterparty_name: str
    amount: float = Field(description="what the recipient got")
    fee: float
    note: str
    source_id: SourceId | None = Field(
        description="sent payments: the bank or card charged; null for the wallet balance")
    source_name: str | None
    audience: Audience
    status: Literal["completed", "partially_refunded", "refunded"]
    refunded_amount: float
    refundable_amount: float = Field(description="what the member may still refund (received payments in the window)")
    refundable_until: str | None = Field(description="received payments: the end of the refund window")
    request_id: RequestId | None
    invoice_id: InvoiceId | None
    created_at: str
    refunds: list[Refund]


class PaymentList(BaseModel):
    payments: list[Payment]
    total: int = Field(description="how many matched, before `limit`")
    payments_text: str = Field(description="the payments in words, newest first, such as '$87.62 to Happy Paws "
                                           "Grooming for 'Order pickup' on March 15'")


class PaymentReceipt(BaseModel):
    payment: Payment
    balance: float = Field(description="the wallet balance afterwards")
    remaining_this_week: float


class RefundReceipt(BaseModel):
    refund: Refund
    payment: Payment
    balance: float = Field(description="the wallet balance afterwards")


class Request(BaseModel):
    request_id: RequestId
    direction: Literal["incoming", "outgoing"] = Field(description="incoming: someone asks the member to pay")
    counterparty_id: UserId
    counterparty_name: str
    amount: float
    note: str
    status: Literal["pending", "paid", "declined", "cancelled"]
    created_at: str
    resolved_at: str | None
    payment_id: PaymentId | None = Field(description="the payment that settled it, once paid")


class RequestList(BaseModel):
    requests: list[Request]
    total: int = Field(description="how many matched, before `limit`")
    requests_text: str = Field(description="the requests in words, such as 'Henry Williams owes you $95.11 for "
                                           "'Splitting the cab' (asked March 12)'")


class InvoiceItem(BaseModel):
    line: int
    description: str
    quantity: float
    unit_price: float
    total: float


class Invoice(BaseModel):
    invoice_id: InvoiceId
    customer_id: UserId
    customer_name: str
    title: str
    amount: float
    status: Literal["open", "paid", "void"]
    overdue: bool = Field(description="open and past its due date")
    issued_at: str
    due_date: str
    paid_at: str | None
    paid_via: Literal["app", "cash", "check", "bank_transfer"] | None
    payment_id: PaymentId | None
    reminders_sent: int
    last_reminded_at: str | None
    voided_at: str | None
    items: list[InvoiceItem]
    paid_status: str = Field(description="whether and how it was paid, in words, such as 'was paid on March 6 by "
                                         "check' or 'hasn't been paid; it was due March 3'")


class InvoiceList(BaseModel):
    invoices: list[Invoice]
    total: int = Field(description="how many matched, before `limit`")
    invoices_text: str = Field(description="the invoices in words, newest first, such as 'Nora Cruz: $105.00 for "
                                           "Photo session - March 2026, paid March 6 in the app'")


class Transfer(BaseModel):
    transfer_id: TransferId
    direction: Literal["add_money", "cash_out"]
    source_id: SourceId
    source_name: str
    amount: float = Field(description="what left the wallet (cash-out) or reached it (add money)")
    fee: float
    arriving_amount: float = Field(description="what reaches the destination after fees")
    speed: Literal["standard", "instant"]
    status: Literal["pending", "completed"]
    created_at: str
    arrives_at: str


class TransferList(BaseModel):
    transfers: list[Transfer]
    total: int
    transfers_text: str = Field(description="The transfers and whether they have arrived, in words, such as 'the "
                                            "$274.84 cash-out to PNC Checking ending 4202 on March 13 (on its way, "
                                            "arriving March 17)'.")


class TransferReceipt(BaseModel):
    transfer: Transfer
    balance: float = Field(description="the wallet balance afterwards")


# ----- small helpers ---------------------------------------------------------------------------

def cents(value: float, what: str = "amount") -> float:
    rounded = money(value)
    if rounded < 0.01:
        raise ToolError("invalid_amount", f"The {what} {value!r} rounds to less than one cent.",
                        hint="Use an amount of at least 0.01 dollars.")
    return rounded


def profile(ctx: Ctx) -> sqlite3.Row:
    return ctx.db.execute("SELECT * FROM profile").fetchone()


def balance(ctx: Ctx) -> float:
    return profile(ctx)["balance"]


def adjust_balance(ctx: Ctx, delta: float) -> None:
    ctx.db.execute("UPDATE profile SET balance = round(balance + ?, 2)", (delta,))


# ----- users -----------------------------------------------------------------------------------

def users_text(users: list[User], total: int, *, names_only: bool = False, contact_said: bool = True,
               first: int = 10) -> str:
    """'Carlos Reed (@carlos-reed, in Manchester), one of your contacts; Green Leaf Market (@green-leaf-market),
    a grocery in Minneapolis' (whether each is a contact unless only contacts were searched); a listing of
    contacts names them only, the `first` of them: 'Aaron Phillips, Alexander Gray and 38 more'."""
    if names_only:
        names = [u.display_name for u in users[:first]]
        rest = total - len(names)
        names += [f"{rest} more"] if rest > 0 else []
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else "nobody"

    def one(u: User) -> str:
        if u.category:
            said = f"{u.display_name} ({u.username}), {_a(_PLACE.get(u.category, u.category).lower())} in {u.city}"
        else:
            said = f"{u.display_name} ({u.username}, in {u.city})"
        return said + (", one of your contacts" if u.is_contact and contact_said else "")
    return said_in_part([one(u) for u in users[:5]], total, "nobody", noun="member")


# What a business is, for the categories that name what it does rather than what it is ("a pet care").
_PLACE = {"Fitness": "fitness studio", "Pet care": "pet care business", "Repairs": "repair shop",
          "Laundry": "laundromat", "Personal care": "personal care business", "Parking": "parking business",
          "Entertainment": "entertainment venue"}


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def user_model(row: sqlite3.Row) -> User:
    return User(user_id=row["user_id"], display_name=row["display_name"], username=row["username"], kind=row["kind"],
                category=row["category"], city=row["city"], is_contact=bool(row["is_contact"]),
                contact_since=row["contact_since"])


# ----- funding sources -------------------------------------------------------------------------

def card_expired(expires: str | None, today: date) -> bool:
    """Whether an 'MM/YY' card has expired by `today` (cards are good through their month)."""
    if not expires:
        return False
    month, year = int(expires[:2]), 2000 + int(expires[3:])
    return (today.year, today.month) > (year, month)


def sources_text(sources: list[FundingSource]) -> str:
    """'PNC Checking ending 4202 (your default), PNC Visa Debit ending 2816 and PNC Mastercard Credit ending 9603
    (expired)'."""
    def one(f: FundingSource) -> str:
        notes = [n for n, holds in (("removed", f.status == "removed"), ("your default", f.is_default),
                                    ("expired", f.expired and f.status == "active")) if holds]
        return f.name + (f" ({', '.join(notes)})" if notes else "")
    said = [one(f) for f in sources]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1] if said else "none"


def source_model(ctx: Ctx, row: sqlite3.Row) -> FundingSource:
    return FundingSource(source_id=row["source_id"], name=row["name"], kind=row["kind"],
                         institution=row["institution"], last4=row["last4"], expires=row["expires"],
                         expired=card_expired(row["expires"], ctx.today()), status=row["status"],
                         is_default=bool(row["is_default"]), added_at=row["added_at"])


def usable_source(ctx: Ctx, source_id: str) -> sqlite3.Row:
    """An active, unexpired funding source, or the ToolError saying why it cannot be used."""
    row = ctx.get("funding_source", source_id)
    if row["status"] != "active":
        raise ToolError("source_unavailable", f"{row['name']} was removed from the wallet.",
                        hint="Pick an active source from list_funding_sources.")
    if card_expired(row["expires"], ctx.today()):
        raise ToolError("card_expired", f"{row['name']} expired at the end of {row['expires']}.",
                        hint="Use another source, or link the replacement card with add_card.")
    return row


# ----- sending limits --------------------------------------------------------------------------

def sent_in_window(ctx: Ctx) -> tuple[float, list[sqlite3.Row]]:
    """What the member sent in the last 7 days, and those payments oldest first."""
    start = iso(ctx.now() - WEEK)
    rows = ctx.db.execute("SELECT amount, created_at FROM payments WHERE direction = 'sent' AND created_at > ? "
                          "ORDER BY created_at", (start,)).fetchall()
    return money(sum(r["amount"] for r in rows)), rows


def check_weekly_limit(ctx: Ctx, amount: float) -> None:
    limit = profile(ctx)["weekly_send_limit"]
    sent, rows = sent_in_window(ctx)
    if sent + amount > limit + 1e-9:
        room = money(max(0.0, limit - sent))
        hint = f"You can send up to ${room:,.2f} now."
        if rows:
            hint += f" Room frees up from {iso(datetime.fromisoformat(rows[0]['created_at']) + WEEK)}."
        raise ToolError("weekly_limit_exceeded",
                        f"Sending ${amount:,.2f} would pass the weekly limit of ${limit:,.2f}; "
                        f"${sent:,.2f} was sent in the last 7 days.", hint=hint)


def remaining_this_week(ctx: Ctx) -> float:
    return money(max(0.0, profile(ctx)["weekly_send_limit"] - sent_in_window(ctx)[0]))


def fund(ctx: Ctx, amount: float, source_id: str | None, counterparty: sqlite3.Row) -> tuple[str | None, float]:
    """Charge `amount` to the wallet balance or a source; returns (source_id, fee) and debits the balance."""
    if source_id is None:
        available = balance(ctx)
        if available < amount:
            raise ToolError("insufficient_balance",
                            f"The wallet balance is ${available:,.2f}; ${amount:,.2f} is needed.",
                            hint="Name a bank account or card as source_id (list_funding_sources), "
                                 "or add money to the wallet first.")
        adjust_balance(ctx, -amount)
        return None, 0.0
    src = usable_source(ctx, source_id)
    fee = money(amount * 0.03) if src["kind"] == "credit_card" and counterparty["kind"] == "person" else 0.0
    return src["source_id"], fee


# ----- payments --------------------------------------------------------------------------------

PAYMENT_SQL = """
SELECT p.*, u.display_name AS counterparty_name, f.name AS source_name FROM payments p
JOIN users u ON u.user_id = p.counterparty_id
LEFT JOIN funding_sources f ON f.source_id = p.source_id
"""


def payment_model(ctx: Ctx, row: sqlite3.Row) -> Payment:
    refunds = [Refund(**dict(r)) for r in ctx.db.execute(
        "SELECT * FROM refunds WHERE payment_id = ? ORDER BY created_at, refund_id", (row["payment_id"],))]
    until = None
    refundable = 0.0
    if row["direction"] == "received":
        deadline = datetime.fromisoformat(row["created_at"]) + timedelta(days=REFUND_WINDOW_DAYS)
        until = iso(deadline)
        if ctx.now() <= deadline:
            refundable = money(row["amount"] - row["refunded_amount"])
    return Payment(payment_id=row["payment_id"], direction=row["direction"], counterparty_id=row["counterparty_id"],
                   counterparty_name=row["counterparty_name"], amount=row["amount"], fee=row["fee"], note=row["note"],
                   source_id=row["source_id"], source_name=row["source_name"] or (
                       "Wallet balance" if row["direction"] == "sent" else None),
                   audience=row["audience"], status=row["status"], refunded_amount=row["refunded_amount"],
                   refundable_amount=refundable, refundable_until=until, request_id=row["request_id"],
                   invoice_id=row["invoice_id"], created_at=row["created_at"], refunds=refunds)


def payment_row(ctx: Ctx, payment_id: str) -> sqlite3.Row:
    """The payment (`ctx.get`) with the columns its model shows."""
    return ctx.get("payment", payment_id, PAYMENT_SQL + " WHERE p.payment_id = ?")


def insert_payment(ctx: Ctx, *, direction: str, counterparty_id: str, amount: float, fee: float, note: str,
                   source_id: str | None, audience: str, request_id: str | None = None,
                   invoice_id: str | None = None) -> str:
    payment_id = ctx.new_id("PAY")
    ctx.db.execute(
        "INSERT INTO payments (payment_id, direction, counterparty_id, amount, fee, note, source_id, audience, status, "
        "refunded_amount, request_id, invoice_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'completed', 0, ?, ?, ?)",
        (payment_id, direction, counterparty_id, amount, fee, note, source_id, audience, request_id, invoice_id,
         ctx.now_iso()))
    return payment_id


# ----- requests --------------------------------------------------------------------------------

REQUEST_SQL = """
SELECT r.*, u.display_name AS counterparty_name,
       (SELECT payment_id FROM payments p WHERE p.request_id = r.request_id) AS payment_id
FROM requests r JOIN users u ON u.user_id = r.counterparty_id
"""


def request_model(row: sqlite3.Row) -> Request:
    return Request(request_id=row["request_id"], direction=row["direction"], counterparty_id=row["counterparty_id"],
                   counterparty_name=row["counterparty_name"], amount=row["amount"], note=row["note"],
                   status=row["status"], created_at=row["created_at"], resolved_at=row["resolved_at"],
                   payment_id=row["payment_id"])


def request_row(ctx: Ctx, request_id: str) -> sqlite3.Row:
    """The request (`ctx.get`) with the columns its model shows."""
    return ctx.get("request", request_id, REQUEST_SQL + " WHERE r.request_id = ?")


def pending_request(ctx: Ctx, request_id: str, direction: str) -> sqlite3.Row:
    """A pending request of `direction`, or the ToolError saying why it cannot be acted on."""
    row = request_row(ctx, request_id)
    if row["direction"] != direction:
        mine = "you sent" if row["direction"] == "outgoing" else f"{row['counterparty_name']} sent you"
        raise ToolError("wrong_direction", f"Request {request_id} is one {mine}.",
                        hint="Pay or decline incoming requests; cancel outgoing ones.")
    if row["status"] != "pending":
        raise ToolError("request_not_pending", f"Request {request_id} is already {row['status']} "
                        f"({row['resolved_at']}).", hint="list_requests with status 'pending' shows what is open.")
    return row


# ----- invoices --------------------------------------------------------------------------------

INVOICE_SQL = """
SELECT i.*, u.display_name AS customer_name,
       (SELECT payment_id FROM payments p WHERE p.invoice_id = i.invoice_id) AS payment_id
FROM invoices i JOIN users u ON u.user_id = i.customer_id
"""


PAID_VIA = {"app": "in the app", "cash": "in cash", "check": "by check", "bank_transfer": "by bank transfer"}


def _paid_status(row: sqlite3.Row, today: date) -> str:
    """'was paid on March 6 by check', 'was voided on March 2', 'hasn't been paid; it was due March 3'."""
    if row["status"] == "paid":
        return f"was paid on {spoken_day(row['paid_at'], today)} {PAID_VIA[row['paid_via'] or 'app']}"
    if row["status"] == "void":
        return f"was voided on {spoken_day(row['voided_at'], today)}, so nothing is owed"
    due = spoken_day(row["due_date"], today)
    return f"hasn't been paid; it was due {due}" if row["due_date"] < today.isoformat() else \
        f"hasn't been paid yet; it's due {due}"


def invoice_model(ctx: Ctx, row: sqlite3.Row) -> Invoice:
    items = [InvoiceItem(line=r["line"], description=r["description"], quantity=r["quantity"],
                         unit_price=r["unit_price"], total=money(r["quantity"] * r["unit_price"]))
             for r in ctx.db.execute("SELECT * FROM invoice_items WHERE invoice_id = ? ORDER BY line",
                                     (row["invoice_id"],))]
    return Invoice(invoice_id=row["invoice_id"], customer_id=row["customer_id"], customer_name=row["customer_name"],
                   title=row["title"], amount=row["amount"], status=row["status"],
                   overdue=row["status"] == "open" and row["due_date"] < ctx.today().isoformat(),
                   issued_at=row["issued_at"], due_date=row["due_date"], paid_at=row["paid_at"],
                   paid_via=row["paid_via"], payment_id=row["payment_id"], reminders_sent=row["reminders_sent"],
                   last_reminded_at=row["last_reminded_at"], voided_at=row["voided_at"], items=items,
                   paid_status=_paid_status(row, ctx.today()))


def invoice_row(ctx: Ctx, invoice_id: str) -> sqlite3.Row:
    """The invoice (`ctx.get`) with the columns its model shows."""
    return ctx.get("invoice", invoice_id, INVOICE_SQL + " WHERE i.invoice_id = ?")


def open_invoice(ctx: Ctx, invoice_id: str) -> sqlite3.Row:
    row = invoice_row(ctx, invoice_id)
    if row["status"] != "open":
        when = row["paid_at"] or row["voided_at"]
        raise ToolError("invoice_not_open", f"Invoice {invoice_id} is already {row['status']} ({when}).",
                        hint="Only open invoices can be reminded, voided or marked paid.")
    return row


# ----- transfers -------------------------------------------------------------------------------

def transfer_model(ctx: Ctx, row: sqlite3.Row) -> Transfer:
    arriving = money(row["amount"] - row["fee"]) if row["direction"] == "cash_out" else row["amount"]
    return Transfer(transfer_id=row["transfer_id"], direction=row["direction"], source_id=row["source_id"],
                    source_name=row["source_name"], amount=row["amount"], fee=row["fee"], arriving_amount=arriving,
                    speed=row["speed"], status="completed" if row["arrives_at"] <= ctx.now_iso() else "pending",
                    created_at=row["created_at"], arrives_at=row["arrives_at"])


TRANSFER_SQL = "SELECT t.*, f.name AS source_name FROM transfers t JOIN funding_sources f ON f.source_id = t.source_id"
