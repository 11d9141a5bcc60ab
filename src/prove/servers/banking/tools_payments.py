"""Banking tools: transfers between accounts, payments to payees, payees and scheduled payments."""

from __future__ import annotations

import re
import sqlite3
from datetime import date, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, Sensitive, ToolError, Toolset
from prove.env.values import iso, money, quote, spoken_day

from .server import (
    AccountId,
    CheckingAccountId,
    DepositAccountId,
    Memo,
    Money,
    PayeeId,
    ScheduledPaymentId,
    TransferId,
    Where,
    active_payee,
    available,
    cents,
    daily_limit,
    paid_today,
    post,
)
from .world import CASH_ADVANCE_FEE_RATE, CASH_ADVANCE_MIN_FEE, MAX_DAYS_AHEAD

tools = Toolset("payments")

Frequency = Literal["once", "weekly", "biweekly", "monthly"]

# ----- models -------------------------------------------------------------------------------------


class Transfer(BaseModel):
    """Money moved to another account of the customer or paid to a payee."""

    transfer_id: TransferId
    kind: Literal["internal", "payee"]
    status: Literal["completed"] = "completed"
    from_account_id: AccountId
    to_account_id: AccountId | None
    payee_id: PayeeId | None
    amount: float
    fee: float = Field(description="Cash-advance fee charged to a credit card that funded the transfer, else 0.")
    memo: str | None
    created_at: str
    from_account_balance: float = Field(
        description="Current balance of the debited account afterwards (amount owed, for a credit card).")
    to_account_balance: float | None = Field(
        description="Current balance of the credited account afterwards (amount owed, for a credit card).")


class Payee(BaseModel):
    """A person or company the customer can pay."""

    payee_id: PayeeId
    name: str
    kind: Literal["person", "business"]
    category: str = Field(description="Category given to payments to this payee.")
    account_ending: str = Field(description="Last four digits of the payee's account number.")
    status: Literal["active", "removed"]
    added_on: str


class PayeeList(BaseModel):
    payees: list[Payee]
    total: int
    payees_text: str = Field(description="The payees by name, such as 'AT&T Wireless (account ending 1471) and "
                                         "Anna Nelson (account ending 2717)'.")


def _payees_text(payees: list[Payee]) -> str:
    """'AT&T Wireless (account ending 1471), Anna Nelson (account ending 2717) and 20 more'."""
    said = [f"{p.name} (account ending {p.account_ending})" for p in payees[:8]]
    if len(payees) > len(said):
        said.append(f"{len(payees) - len(said)} more")
    if not said:
        return "no payees"
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


class ScheduledPayment(BaseModel):
    """A one-time or recurring payment to a payee, or transfer to another account, set up in advance."""

    scheduled_payment_id: ScheduledPaymentId
    from_account_id: AccountId
    payee_id: PayeeId | None
    to_account_id: AccountId | None
    recipient_name: str
    amount: float
    frequency: Frequency
    next_date: str | None = Field(description="When it runs next; none once completed or cancelled.")
    end_date: str | None = Field(description="Last day a recurring payment may run, if it ends.")
    memo: str | None
    status: Literal["scheduled", "completed", "cancelled"]
    created_at: str


class ScheduledPaymentList(BaseModel):
    scheduled_payments: list[ScheduledPayment]
    total: int
    scheduled_text: str = Field(description="The payments in words, soonest first, such as '$140.85 to Progressive "
                                            "every month, next on March 20'.")


_EVERY = {"weekly": "every week", "biweekly": "every two weeks", "monthly": "every month"}


def _scheduled_text(payments: list[ScheduledPayment], today: date, status_named: bool) -> str:
    """'$140.85 to Progressive every month, next on March 20; $190.00 to Luis Robinson on March 28', with
    a cancelled or completed one said so unless the request asked for those."""
    def one(p: ScheduledPayment) -> str:
        head = f"${p.amount:,.2f} to {p.recipient_name}"
        if p.next_date is None:
            said = head if p.frequency == "once" else f"{head} {_EVERY[p.frequency]}"
            return said if status_named else f"{said} ({p.status})"
        day = spoken_day(p.next_date, today)
        if p.frequency == "once":
            return f"{head} on {day}"
        until = f", until {spoken_day(p.end_date, today)}" if p.end_date else ""
        return f"{head} {_EVERY[p.frequency]}, next on {day}{until}"
    return "; ".join(one(p) for p in payments) or "none"


# ----- transfers and payments ---------------------------------------------------------------------


def _memo(memo: str | None) -> str | None:
    """A memo with its whitespace tidied; blank memos become None."""
    return (" ".join(memo.split()) or None) if memo else None


def _balance(ctx: Ctx, account_id: str) -> float:
    (value,) = ctx.db.execute("SELECT current_balance FROM accounts WHERE account_id = ?", (account_id,)).fetchone()
    return money(value)


def _insufficient(account: sqlite3.Row, free: float, needed: float) -> ToolError:
    if account["type"] == "credit_card":
        return ToolError("insufficient_funds", f"{account['nickname']} has {free:.2f} of credit available; "
                         f"{needed:.2f} is needed including the cash-advance fee.",
                         hint="Send less, or fund the transfer from a checking or savings account.")
    return ToolError("insufficient_funds", f"{account['nickname']} has an available balance of {free:.2f}; "
                     f"{needed:.2f} is needed.",
                     hint="Send less, or first move money into this account from another one.")


@tools.tool(effect=WRITE, asks=[
    "Move ${amount} from {from_account_id} to {to_account_id}.",
    "Transfer ${amount} from {from_account_id} into {to_account_id} with the memo '{memo}'.",
    "Shift ${amount} over to {to_account_id} from {from_account_id}.",
    "Could you put ${amount} from {from_account_id} into {to_account_id}?",
], reply=[
    "Done: ${amount} moved from {from_account_id} to {to_account_id}. The transfer is {result.transfer_id}.",
    "I've transferred ${amount} to {to_account_id}; {from_account_id} now shows ${result.from_account_balance}.",
], values={
    # Either account may be a checking, savings or credit card one: memos that fit any pair.
    "memo": ["March transfer", "Moving money around", "Monthly shuffle", "For next week", "Evening things out",
        "Month-end move"],
})
def transfer_between_accounts(ctx: Ctx, from_account_id: DepositAccountId, to_account_id: AccountId, amount: Money,
                              memo: Memo | None = None) -> Transfer:
    """Move money now between two accounts of the customer; both balances change at once.

    Moving money into a credit card pays it down. Moving money out of a credit card (into
    checking or savings) is a cash advance: it is charged a fee of 5% of the amount, at least
    $10, and needs that much available credit.

    Args:
        from_account_id: ID of the account to take the money from, such as 'ACC-10001'.
        to_account_id: ID of the account to put the money into, such as 'ACC-10003'.
        amount: dollars to move, greater than zero, such as 250.0.
        memo: optional note shown on both accounts' transactions, such as 'March savings'.

    Returns:
        The completed transfer with its ID, amount, fee and both accounts' new current balances.

    Raises:
        not_found: one of the accounts does not exist.
        same_account: the two accounts are the same.
        invalid_amount: the amount has fractions of a cent.
        unsupported_account: both accounts are credit cards (a credit card cannot pay another).
        insufficient_funds: the source's available balance (for a credit card, its available
            credit, fee included) is below what the transfer needs.
    """
    source = ctx.get("account", from_account_id)
    target = ctx.get("account", to_account_id)
    if from_account_id == to_account_id:
        raise ToolError("same_account", "The two accounts are the same.",
                        hint="Pick a different account to move the money to.")
    amount = cents(amount)
    if source["type"] == "credit_card" and target["type"] == "credit_card":
        raise ToolError("unsupported_account", "A credit card cannot pay another credit card.",
                        hint="Pay the card from a checking or savings account.")
    fee = 0.0
    if source["type"] == "credit_card":
        fee = money(max(CASH_ADVANCE_MIN_FEE, amount * CASH_ADVANCE_FEE_RATE))
    free = available(ctx, source)
    if amount + fee > free:
        raise _insufficient(source, free, money(amount + fee))

    transfer_id = ctx.new_id("TRF")
    memo = _memo(memo)
    ctx.db.execute(
        "INSERT INTO transfers (transfer_id, kind, from_account_id, to_account_id, payee_id, scheduled_payment_id, "
        "amount, memo, created_at) VALUES (?, 'internal', ?, ?, NULL, NULL, ?, ?, ?)",
        (transfer_id, from_account_id, to_account_id, amount, memo, iso(ctx.now())))
    verb = "Cash advance" if fee else "Payment" if target["type"] == "credit_card" else "Transfer"
    post(ctx, source, -amount, f"{verb} to {target['nickname']}", "transfer", "transfer",
         transfer_id=transfer_id, memo=memo)
    post(ctx, target, amount, f"{verb} from {source['nickname']}", "transfer", "transfer",
         transfer_id=transfer_id, memo=memo)
    if fee:
        post(ctx, source, -fee, "Cash advance fee", "fees", "fee", transfer_id=transfer_id)
    return Transfer(transfer_id=transfer_id, kind="internal", from_account_id=from_account_id,
                    to_account_id=to_account_id, payee_id=None, amount=amount, fee=fee, memo=memo,
                    created_at=iso(ctx.now()), from_account_balance=_balance(ctx, from_account_id),
                    to_account_balance=_balance(ctx, to_account_id))


@tools.tool(effect=WRITE, asks=[
    "Pay {payee_id} ${amount} from {from_account_id}.",
    "Send ${amount} to {payee_id} out of {from_account_id} for '{memo}'.",
    "Take ${amount} from {from_account_id} and pay {payee_id} today.",
], reply=[
    "Paid ${amount} to {payee_id} from {from_account_id}; the confirmation is {result.transfer_id}.",
    "Done: {payee_id} gets ${amount}, and {from_account_id} now shows ${result.from_account_balance}.",
], values={
    # The payee may be a landlord, a utility, a lender or a friend: memos that fit any of them (not a thank-you
    # note to a utility).
    "memo": ["March payment", "Invoice 2291", "Reference 40417", "Payment for this month"],
})
def pay_payee(ctx: Ctx, payee_id: PayeeId, from_account_id: CheckingAccountId, amount: Money,
              memo: Memo | None = None) -> Transfer:
    """Pay a saved payee now from a checking account.

    Payments to payees count against the customer's daily payment limit (see get_profile).

    Args:
        payee_id: ID of the payee to pay, such as 'PAY-10004'.
        from_account_id: ID of the checking account to pay from, such as 'ACC-10001'.
        amount: dollars to pay, greater than zero, such as 120.5.
        memo: optional note for the payee, such as 'Invoice 2291'.

    Returns:
        The completed payment with its ID, amount and the account's new current balance.

    Raises:
        not_found: the payee or the account does not exist, or the payee was removed.
        invalid_amount: the amount has fractions of a cent.
        unsupported_account: the account is not a checking account.
        daily_limit_exceeded: this payment would take today's payments to payees over the daily
            payment limit.
        insufficient_funds: the account's available balance is below the amount.
    """
    payee = active_payee(ctx, payee_id)
    source = ctx.get("account", from_account_id)
    amount = cents(amount)
    if source["type"] != "checking":
        raise ToolError("unsupported_account", f"{source['nickname']} is not a checking account; payees can "
                        "only be paid from checking.",
                        hint="Pay from a checking account (move money into it first if needed).")
    limit, paid = daily_limit(ctx), paid_today(ctx)
    if paid + amount > limit:
        raise ToolError("daily_limit_exceeded", f"The daily payment limit is {limit:.2f} and {paid:.2f} was "
                        f"already paid today, so at most {money(max(limit - paid, 0)):.2f} can be paid now.",
                        hint="Pay less today, or schedule the rest for a later day with schedule_payment.")
    free = available(ctx, source)
    if amount > free:
        raise _insufficient(source, free, amount)

    transfer_id = ctx.new_id("TRF")
    memo = _memo(memo)
    ctx.db.execute(
        "INSERT INTO transfers (transfer_id, kind, from_account_id, to_account_id, payee_id, scheduled_payment_id, "
        "amount, memo, created_at) VALUES (?, 'payee', ?, NULL, ?, NULL, ?, ?, ?)",
        (transfer_id, from_account_id, payee_id, amount, memo, iso(ctx.now())))
    post(ctx, source, -amount, payee["name"], payee["category"], "payment", transfer_id=transfer_id, memo=memo)
    return Transfer(transfer_id=transfer_id, kind="payee", from_account_id=from_account_id, to_account_id=None,
                    payee_id=payee_id, amount=amount, fee=0.0, memo=memo, created_at=iso(ctx.now()),
                    from_account_balance=_balance(ctx, from_account_id), to_account_balance=None)


# ----- payees -------------------------------------------------------------------------------------

_PAYEE_NAME = re.compile(r"[\w .,'&()/+-]{2,80}")


def _payee(row: sqlite3.Row) -> Payee:
    return Payee(payee_id=row["payee_id"], name=row["name"], kind=row["kind"], category=row["category"],
                 account_ending=row["account_number"][-4:], status=row["status"], added_on=row["added_on"])


@tools.tool(effect=READ, asks=[
    "Who are my saved payees?",
    "Do I have {name} set up as a payee?",
    Ask("Which businesses do I have as payees?", kind="business"),
    Ask("List the people I can send money to.", kind="person"),
], reply=[
    Ask("Your payees: {result.payees_text}.", name=None, kind=None),
    Ask("Businesses you pay: {result.payees_text}.", name=None, kind="business"),
    Ask("People you can send money to: {result.payees_text}.", name=None, kind="person"),
    "Yes: {result.payees_text}.",
])
def list_payees(ctx: Ctx, name: str | None = None, kind: Literal["person", "business"] | None = None) -> PayeeList:
    """List the customer's saved payees (removed ones are not shown).

    Args:
        name: only payees whose name contains this text (any case), such as 'property'.
        kind: only 'person' or only 'business' payees.

    Returns:
        The payees (ID, name, kind, category, last four digits of their account number, date
        added), sorted by name, and how many there are.
    """
    where = Where(ctx, "status = 'active'").add("instr(lower(name), lower(?)) > 0", (name or "").strip() or None)
    where.add("kind = ?", kind)
    rows = ctx.db.execute(f"SELECT * FROM payees{where} ORDER BY name, payee_id", where.params).fetchall()
    payees = [_payee(r) for r in rows]
    return PayeeList(payees=payees, total=len(rows), payees_text=_payees_text(payees))


@tools.tool(effect=WRITE, asks=[
    Ask("Add {name} as a new payee so I can pay their bills: account {account_number}, routing number "
        "{routing_number}.", kind="business"),
    Ask("I want to start paying my friend {name}. Their account number is {account_number} and the routing "
        "number is {routing_number}.", kind="person"),
    Ask("Set up the company {name} as a payee, account {account_number} at routing number {routing_number}.",
        kind="business"),
], reply=[
    "{name} is now one of your payees (account ending {result.account_ending}).",
    "Added {name} as a payee; you can pay them right away.",
], values={
    # A person's name goes with kind 'person', a company's with 'business'.
    "name, kind": [("Maria Lopez", "person"), ("Daniel Kim", "person"), ("Priya Shah", "person"),
        ("Tom Becker", "person"), ("Greenview Property Management", "business"), ("City Water Utility", "business"),
        ("Sunrise Dental Care", "business"), ("Oak Street Daycare", "business"), ("Metro Energy", "business")],
})
def add_payee(ctx: Ctx, name: Annotated[str, Field(max_length=80)], account_number: Annotated[str, Sensitive()],
              routing_number: str, kind: Literal["person", "business"] = "business") -> Payee:
    """Save a new payee so that it can be paid or scheduled.

    Args:
        name: the payee's name as the customer knows it, such as 'Bright Dental Care'.
        account_number: the payee's bank account number, 4 to 17 digits, such as '4400123987'.
        routing_number: the 9-digit routing number of the payee's bank, such as '021000021'.
        kind: 'person' for an individual or 'business' for a company (the default).

    Returns:
        The new payee with its ID.

    Raises:
        invalid_name: the name is shorter than 2 characters or has characters other than
            letters, digits, spaces and . , ' & ( ) / + -.
        invalid_account_number: the account number is not 4 to 17 digits.
        invalid_routing_number: the routing number is not exactly 9 digits.
        duplicate_payee: an active payee already has this name or this account and routing number.
    """
    name = " ".join(name.split())
    if not _PAYEE_NAME.fullmatch(name) or not any(ch.isalpha() for ch in name):
        raise ToolError("invalid_name", f"{quote(name)} is not a usable payee name.",
                        hint="Use 2-80 letters, digits, spaces and . , ' & ( ) / + - only.")
    number = re.sub(r"[\s-]", "", account_number)
    if not re.fullmatch(r"\d{4,17}", number):
        raise ToolError("invalid_account_number", "The account number must be 4 to 17 digits.",
                        hint="Ask the customer for the payee's account number again.")
    routing = routing_number.strip()
    if not re.fullmatch(r"\d{9}", routing):
        raise ToolError("invalid_routing_number", f"{quote(routing_number)} is not a 9-digit routing number.",
                        hint="Ask the customer for the 9-digit routing number of the payee's bank.")
    same = ctx.db.execute(
        "SELECT payee_id, name FROM payees WHERE status = 'active' "
        "AND (lower(name) = lower(?) OR (account_number = ? AND routing_number = ?))",
        (name, number, routing)).fetchone()
    if same is not None:
        raise ToolError("duplicate_payee", f"{same['name']} ({same['payee_id']}) already has this name or account.",
                        hint=f"Use the existing payee {same['payee_id']}.")
    payee_id = ctx.new_id("PAY")
    ctx.db.execute(
        "INSERT INTO payees (payee_id, name, kind, category, account_number, routing_number, status, added_on) "
        "VALUES (?, ?, ?, ?, ?, ?, 'active', ?)",
        (payee_id, name, kind, "transfer" if kind == "person" else "bills", number, routing,
         ctx.today().isoformat()))
    return _payee(ctx.get("payee", payee_id))


@tools.tool(effect=WRITE, asks=[
    "Remove {payee_id} from my payees.",
    "Please delete {payee_id} from my payee list; I don't pay them anymore.",
], reply=[
    "Removed {payee_id} from your payees.",
    "Done: {payee_id} is no longer on your payee list.",
])
def remove_payee(ctx: Ctx, payee_id: PayeeId) -> Payee:
    """Remove a saved payee; past payments to it stay in the history.

    Args:
        payee_id: ID of the payee to remove, such as 'PAY-10007'.

    Returns:
        The payee, now with status 'removed'.

    Raises:
        not_found: no payee has that ID, or it was already removed.
        has_scheduled_payments: payments to this payee are still scheduled; cancel them first.
    """
    active_payee(ctx, payee_id)
    pending = [r[0] for r in ctx.db.execute(
        "SELECT scheduled_payment_id FROM scheduled_payments WHERE payee_id = ? AND status = 'scheduled' "
        "ORDER BY scheduled_payment_id", (payee_id,))]
    if pending:
        raise ToolError("has_scheduled_payments", f"Payments to {payee_id} are still scheduled: {', '.join(pending)}.",
                        hint="Cancel them with cancel_scheduled_payment, then remove the payee.")
    ctx.db.execute("UPDATE payees SET status = 'removed' WHERE payee_id = ?", (payee_id,))
    return _payee(ctx.get("payee", payee_id))


# ----- scheduled payments -------------------------------------------------------------------------


def _scheduled(row: sqlite3.Row) -> ScheduledPayment:
    return ScheduledPayment(**{k: row[k] for k in ScheduledPayment.model_fields})


@tools.tool(effect=WRITE, asks=[
    Ask("Schedule a one-time payment of ${amount} to {payee_id} from {from_account_id} on {send_on}.",
        frequency="once"),
    Ask("Set up a monthly payment of ${amount} to {payee_id} from {from_account_id}, starting {send_on} and "
        "ending {end_date}.", frequency="monthly"),
    Ask("Every week, move ${amount} from {from_account_id} to {to_account_id}, starting {send_on}.",
        frequency="weekly"),
    Ask("Starting {send_on}, send {payee_id} ${amount} from {from_account_id} every two weeks with the memo "
        "'{memo}'.", frequency="biweekly"),
], reply=[
    Ask("Scheduled: ${amount} to {result.recipient_name} from {from_account_id}, once, on {result.next_date}.",
        frequency="once"),
    Ask("All set. ${amount} will go to {result.recipient_name} on {result.next_date}; the scheduled payment is "
        "{result.scheduled_payment_id}.", frequency="once"),
    Ask("Scheduled: ${amount} monthly to {result.recipient_name} from {from_account_id}, from {result.next_date} "
        "through {end_date}.", frequency="monthly"),
    Ask("All set. ${amount} will go to {result.recipient_name} every month from {result.next_date} until {end_date}; "
        "the scheduled payment is {result.scheduled_payment_id}.", frequency="monthly"),
    "Scheduled: ${amount} {frequency} to {result.recipient_name} from {from_account_id}, first on "
    "{result.next_date}.",
    "All set. ${amount} will go to {result.recipient_name} {frequency}, starting {result.next_date}; the "
    "scheduled payment is {result.scheduled_payment_id}.",
], values={
    # The recipient may be any payee or one of the customer's own accounts: memos that fit any of them.
    "memo": ["Biweekly payment", "Standing payment", "Reference 40417", "Regular payment"],
})
def schedule_payment(ctx: Ctx, from_account_id: DepositAccountId, amount: Money, send_on: date,
                     payee_id: PayeeId | None = None, to_account_id: AccountId | None = None,
                     frequency: Frequency = "once", end_date: date | None = None,
                     memo: Memo | None = None) -> ScheduledPayment:
    """Schedule a one-time or recurring payment to a payee, or transfer to another own account.

    Give exactly one recipient: `payee_id` for a payee (paid from a checking account) or
    `to_account_id` for another account of the customer (from checking or savings). Funds are
    checked when the payment runs, not now.

    Args:
        from_account_id: ID of the account to pay from, such as 'ACC-10001'.
        amount: dollars per payment, greater than zero, such as 75.0.
        send_on: day of the first (or only) payment, today or later, such as '2026-04-01'.
        payee_id: ID of the payee to pay, such as 'PAY-10004'.
        to_account_id: ID of the customer's account to transfer to, such as 'ACC-10003'.
        frequency: 'once' (the default), 'weekly', 'biweekly' or 'monthly'.
        end_date: for a recurring payment, the last day it may run, such as '2026-12-31';
            leave it out to repeat until cancelled.
        memo: optional note, such as 'Piano lessons'.

    Returns:
        The scheduled payment with its ID, next date and status 'scheduled'.

    Raises:
        invalid_recipient: neither or both of `payee_id` and `to_account_id` were given.
        not_found: the account, payee or target account does not exist, or the payee was removed.
        same_account: `to_account_id` is the account paid from.
        unsupported_account: a payee payment not from checking, or a transfer from a credit card.
        invalid_amount: the amount has fractions of a cent.
        past_date: `send_on` is before today.
        too_far_ahead: `send_on` is more than a year from today.
        invalid_end_date: `end_date` is before `send_on`, or given for a one-time payment.
        daily_limit_exceeded: a payee payment larger than the daily payment limit.
    """
    if (payee_id is None) == (to_account_id is None):
        raise ToolError("invalid_recipient", "Give exactly one of payee_id or to_account_id.",
                        hint="Use payee_id to pay a payee, or to_account_id to move money to your own account.")
    source = ctx.get("account", from_account_id)
    payee = active_payee(ctx, payee_id) if payee_id is not None else None
    target = ctx.get("account", to_account_id) if to_account_id is not None else None
    if target is not None and to_account_id == from_account_id:
        raise ToolError("same_account", "The payment would go to the account it is paid from.",
                        hint="Pick a different account to transfer to.")
    if payee is not None and source["type"] != "checking":
        raise ToolError("unsupported_account", f"{source['nickname']} is not a checking account; payees can "
                        "only be paid from checking.", hint="Schedule the payment from a checking account.")
    if target is not None and source["type"] == "credit_card":
        raise ToolError("unsupported_account", "Transfers cannot be scheduled from a credit card.",
                        hint="Schedule the transfer from a checking or savings account.")
    amount = cents(amount)
    today = ctx.today()
    if send_on < today:
        raise ToolError("past_date", f"{send_on} is in the past; today is {today}.",
                        hint="Pick today or a later day.")
    if send_on > today + timedelta(days=MAX_DAYS_AHEAD):
        raise ToolError("too_far_ahead", f"{send_on} is more than {MAX_DAYS_AHEAD} days ahead.",
                        hint=f"Pick a day no later than {today + timedelta(days=MAX_DAYS_AHEAD)}.")
    if end_date is not None and frequency == "once":
        raise ToolError("invalid_end_date", "A one-time payment has no end date.",
                        hint="Leave end_date out, or choose a recurring frequency.")
    if end_date is not None and end_date < send_on:
        raise ToolError("invalid_end_date", f"end_date {end_date} is before the first payment on {send_on}.",
                        hint="Pick an end date on or after send_on.")
    if payee is not None and amount > daily_limit(ctx):
        raise ToolError("daily_limit_exceeded", f"{amount:.2f} is over the daily payment limit of "
                        f"{daily_limit(ctx):.2f}, so it could never be sent.",
                        hint="Split it into smaller payments on different days.")
    scheduled_id = ctx.new_id("SCH")
    recipient = payee["name"] if payee is not None else target["nickname"]  # type: ignore[index]
    ctx.db.execute(
        "INSERT INTO scheduled_payments (scheduled_payment_id, from_account_id, payee_id, to_account_id, "
        "recipient_name, amount, frequency, next_date, end_date, memo, status, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'scheduled', ?)",
        (scheduled_id, from_account_id, payee_id, to_account_id, recipient, amount, frequency, send_on.isoformat(),
         end_date.isoformat() if end_date else None, _memo(memo), iso(ctx.now())))
    return _scheduled(ctx.get("scheduled_payment", scheduled_id))


@tools.tool(effect=READ, asks=[
    Ask("What payments do I have scheduled?", status="scheduled"),
    Ask("Show me the scheduled payments to or from {account_id}.", status="scheduled"),
    "Are there any payments set up to {payee_id}?",
    Ask("Which of my scheduled payments have I cancelled?", status="cancelled"),
], reply=[
    Ask("Coming up: {result.scheduled_text}.", status="scheduled"),
    Ask("Cancelled: {result.scheduled_text}.", status="cancelled"),
    Ask("Done and no longer running: {result.scheduled_text}.", status="completed"),
    Ask("Your scheduled payments: {result.scheduled_text}.", status="all"),
])
def list_scheduled_payments(ctx: Ctx, status: Literal["scheduled", "completed", "cancelled", "all"] = "scheduled",
                            account_id: DepositAccountId | None = None,
                            payee_id: PayeeId | None = None) -> ScheduledPaymentList:
    """List scheduled payments, soonest first.

    Args:
        status: 'scheduled' for upcoming ones (the default), 'completed', 'cancelled' or 'all'.
        account_id: only payments from or to this account, such as 'ACC-10001'.
        payee_id: only payments to this payee, such as 'PAY-10004'.

    Returns:
        The scheduled payments (ID, accounts, payee, recipient name, amount, frequency, next
        date, end date, memo, status) and how many there are.

    Raises:
        not_found: `account_id` or `payee_id` does not exist.
    """
    where = Where(ctx).add("status = ?", None if status == "all" else status)
    where.entity("account", "(from_account_id = ? OR to_account_id = ?)", account_id, account_id)
    where.entity("payee", "payee_id = ?", payee_id)
    rows = ctx.db.execute(f"SELECT * FROM scheduled_payments{where} "
                          "ORDER BY next_date IS NULL, next_date, scheduled_payment_id", where.params).fetchall()
    payments = [_scheduled(r) for r in rows]
    return ScheduledPaymentList(scheduled_payments=payments, total=len(rows),
                                scheduled_text=_scheduled_text(payments, ctx.today(), status != "all"))


@tools.tool(effect=WRITE, asks=[
    "Cancel {scheduled_payment_id}.",
    "Please stop {scheduled_payment_id}, I don't need it anymore.",
], reply=[
    "Cancelled {scheduled_payment_id}; it won't go out again.",
    "Done: {scheduled_payment_id} is cancelled.",
])
def cancel_scheduled_payment(ctx: Ctx, scheduled_payment_id: ScheduledPaymentId) -> ScheduledPayment:
    """Cancel a scheduled payment so that it never runs again; past payments are not undone.

    Args:
        scheduled_payment_id: ID of the scheduled payment, such as 'SCH-10002'.

    Returns:
        The scheduled payment, now with status 'cancelled' and no next date.

    Raises:
        not_found: no scheduled payment has that ID.
        not_cancellable: the payment is already completed or cancelled.
    """
    row = ctx.get("scheduled_payment", scheduled_payment_id)
    if row["status"] != "scheduled":
        raise ToolError("not_cancellable", f"Scheduled payment {scheduled_payment_id} is already {row['status']}.",
                        hint="Call list_scheduled_payments to find payments that are still scheduled.")
    ctx.db.execute("UPDATE scheduled_payments SET status = 'cancelled', next_date = NULL "
                   "WHERE scheduled_payment_id = ?", (scheduled_payment_id,))
    return _scheduled(ctx.get("scheduled_payment", scheduled_payment_id))
