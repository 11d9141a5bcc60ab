"""The banking server's declaration: `server`, its entity kinds, ID types and shared helpers.

The tools live in one toolset per area, which the package includes (see `__init__.py`):

    tools_accounts.py   profile, accounts, transactions, statements
    tools_payments.py   transfers, payees, scheduled payments
    tools_cards.py      cards (freeze, report lost, PIN, spending limit)
    tools_disputes.py   disputes of card charges
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Annotated

from pydantic import Field

from prove.env import Ctx, EntityKind, Sensitive, Server, ToolError
from prove.env.values import iso, money

from .world import build_world

# ----- entity kinds and their ID types ---------------------------------------------------------

ACCOUNT = EntityKind("account", "accounts", "account_id", "nickname",
                     "a checking, savings or credit card account of the customer")
TRANSACTION = EntityKind("transaction", "transactions", "transaction_id", "merchant",
                         "one line of an account's history: a purchase, deposit, transfer, fee...",
                         links=(("account_id", "on"),))  # "from Primary Checking": where money came from
TRANSFER = EntityKind("transfer", "transfers", "transfer_id",
                      description="money moved between the customer's accounts or to a payee")
PAYEE = EntityKind("payee", "payees", "payee_id", "name", "a person or company the customer pays",
                   live="status = 'active'")
SCHEDULED_PAYMENT = EntityKind("scheduled_payment", "scheduled_payments", "scheduled_payment_id",
                               "recipient_name", "a one-time or recurring payment set up in advance",
                               live="status = 'scheduled'")
CARD = EntityKind("card", "cards", "card_id", "name", "a debit or credit card of the customer",
                  live="status IN ('active', 'frozen')")
STATEMENT = EntityKind("statement", "statements", "statement_id", "period", "the monthly statement of one account")
DISPUTE = EntityKind("dispute", "disputes", "dispute_id", "merchant", "a claim that a card charge is wrong")

AccountId = ACCOUNT.id
CheckingAccountId = ACCOUNT.where("type = 'checking'")  # payees are paid from checking only
DepositAccountId = ACCOUNT.where("type != 'credit_card'")  # where scheduled payments come out of
TransactionId = TRANSACTION.id
# A fee may be disputed too, but no reason a request gives fits the bank's own fee ("the order never arrived").
DisputableId = TRANSACTION.where("status = 'posted' AND kind = 'purchase' AND amount < 0")
TransferId = TRANSFER.id
PayeeId = PAYEE.id
ScheduledPaymentId = SCHEDULED_PAYMENT.id
CardId = CARD.id
ActiveCardId = CARD.where("status = 'active'")
FrozenCardId = CARD.where("status = 'frozen'")
StatementId = STATEMENT.id
DisputeId = DISPUTE.id

server = Server(
    "banking", "Banking",
    "The online bank of one signed-in customer: checking, savings and credit card accounts with "
    "their balances, transactions and monthly statements; transfers between the customer's "
    "accounts and payments to payees; one-time and recurring scheduled payments; debit and "
    "credit cards (freeze, report lost, change PIN, spending limits); disputes of card charges.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[ACCOUNT, TRANSACTION, TRANSFER, PAYEE, SCHEDULED_PAYMENT, CARD, STATEMENT, DISPUTE],
)

# ----- parameter and field types ----------------------------------------------------------------

Money = Annotated[float, Field(gt=0, le=1_000_000)]
Pin = Annotated[str, Sensitive()]
Memo = Annotated[str, Field(max_length=140)]
Limit = Annotated[int, Field(ge=1, le=200)]

# ----- helpers ------------------------------------------------------------------------------------


class Where:
    """The WHERE clause of a listing, built from the optional filters a caller gave."""

    def __init__(self, ctx: Ctx, *terms: str) -> None:
        self.ctx = ctx
        self.terms = list(terms)
        self.params: list[object] = []

    def add(self, term: str, value: object, *more: object) -> Where:
        """Add `term` with its `?` values, unless `value` is None (the filter was not given)."""
        if value is not None:
            self.terms.append(term)
            self.params += [value, *more]
        return self

    def entity(self, kind: str, term: str, entity_id: str | None, *more: object) -> Where:
        """Add `term` for an entity filter, after checking the entity exists (`not_found`)."""
        if entity_id is not None:
            self.ctx.get(kind, entity_id)
        return self.add(term, entity_id, *more)

    def __str__(self) -> str:
        return " WHERE " + " AND ".join(self.terms) if self.terms else ""


def active_payee(ctx: Ctx, payee_id: str) -> sqlite3.Row:
    """A payee that has not been removed, else `not_found`."""
    row = ctx.get("payee", payee_id)
    if row["status"] != "active":
        raise ToolError("not_found", f"Payee {payee_id} ({row['name']}) was removed.",
                        hint="Add the payee again with add_payee, or call list_payees for current payees.")
    return row


def cents(amount: float, what: str = "amount") -> float:
    """`amount` as dollars and cents, or `invalid_amount` if it has fractions of a cent."""
    if abs(amount * 100 - round(amount * 100)) > 1e-6:
        raise ToolError("invalid_amount", f"The {what} {amount} has fractions of a cent.",
                        hint=f"Send the {what} in dollars and cents, such as {max(money(amount), 0.01):.2f}.")
    return money(amount)


def held(ctx: Ctx, account_id: str) -> float:
    """Pending debits of an account (pending charges, for a credit card), as a positive amount."""
    (total,) = ctx.db.execute(
        "SELECT coalesce(sum(-amount), 0) FROM transactions "
        "WHERE account_id = ? AND status = 'pending' AND amount < 0", (account_id,)).fetchone()
    return money(total)


def available(ctx: Ctx, account: sqlite3.Row) -> float:
    """What can leave the account now: balance less pending debits, or the credit still free."""
    pending = held(ctx, account["account_id"])
    if account["type"] == "credit_card":
        return money(account["credit_limit"] - account["current_balance"] - pending)
    return money(account["current_balance"] - pending)


def post(ctx: Ctx, account: sqlite3.Row, amount: float, merchant: str, category: str, kind: str, *,
         transfer_id: str | None = None, memo: str | None = None) -> str:
    """Record a posted transaction now and move the account's balance; returns its ID.

    `amount` is signed as the transaction shows it: negative takes money out of a checking or
    savings account, or adds to what is owed on a credit card.
    """
    transaction_id = ctx.new_id("TRX")
    ctx.db.execute(
        "INSERT INTO transactions (transaction_id, account_id, occurred_at, amount, merchant, category, kind, "
        "status, card_id, transfer_id, memo) VALUES (?, ?, ?, ?, ?, ?, ?, 'posted', NULL, ?, ?)",
        (transaction_id, account["account_id"], iso(ctx.now()), money(amount), merchant, category, kind,
         transfer_id, memo))
    sign = -1 if account["type"] == "credit_card" else 1
    ctx.db.execute("UPDATE accounts SET current_balance = round(current_balance + ?, 2) WHERE account_id = ?",
                   (sign * money(amount), account["account_id"]))
    return transaction_id


def paid_today(ctx: Ctx) -> float:
    """Total paid to payees today, which counts against the daily payment limit."""
    (total,) = ctx.db.execute(
        "SELECT coalesce(sum(amount), 0) FROM transfers WHERE kind = 'payee' AND substr(created_at, 1, 10) = ?",
        (ctx.today().isoformat(),)).fetchone()
    return money(total)


def daily_limit(ctx: Ctx) -> float:
    (limit,) = ctx.db.execute("SELECT daily_payment_limit FROM customers").fetchone()
    return money(limit)

