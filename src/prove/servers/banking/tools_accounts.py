"""Banking tools: the customer's profile, accounts, transactions and monthly statements."""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, Ask, Ctx, ToolError, Toolset
from prove.env.values import money, said_in_part, spoken_day

from .server import (
    AccountId,
    CardId,
    DisputeId,
    Limit,
    StatementId,
    TransactionId,
    TransferId,
    Where,
    available,
    daily_limit,
    held,
    paid_today,
)
from .world import Category

tools = Toolset("accounts")

AccountType = Literal["checking", "savings", "credit_card"]
Period = Annotated[str, Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]

# ----- models -------------------------------------------------------------------------------------


class Profile(BaseModel):
    """The signed-in customer and what they may still pay to payees today."""

    name: str
    email: str
    phone: str
    address: str
    customer_since: str
    daily_payment_limit: float = Field(description="Most that may be paid to payees per calendar day.")
    paid_today: float = Field(description="Paid to payees so far today.")
    remaining_today: float = Field(description="What may still be paid to payees today.")


class Account(BaseModel):
    """A checking, savings or credit card account with its balances."""

    account_id: AccountId
    nickname: str
    type: AccountType
    number_ending: str = Field(description="Last four digits of the account number.")
    current_balance: float = Field(description="Posted balance; for a credit card, the amount owed.")
    pending: float = Field(description="Pending debits (for a credit card, pending charges) not yet posted.")
    available_balance: float = Field(
        description="What can be spent or moved now: the current balance less pending debits; "
                    "for a credit card, the credit still available.")
    credit_limit: float | None = Field(description="Credit cards only.")
    interest_rate: float = Field(description="Percent: APY for checking and savings, APR for credit cards.")
    opened_on: str
    owed_text: str | None = Field(None, description="Credit cards only: what is owed in words, 'You owe $722.03', "
                                                    "or a card paid past it, 'You have a $139.41 credit'.")


class AccountList(BaseModel):
    accounts: list[Account]
    total: int
    accounts_text: str = Field(description="The accounts and their balances in words, such as 'Main Checking "
                                           "(ending 4792): $2,687.51, $2,583.38 of it available'.")


def _accounts_text(accounts: list[Account]) -> str:
    """'Main Checking (ending 4792): $2,687.51, all of it available; Platinum Visa (ending 9146): you owe
    $722.03, with $3,487.21 of credit left'."""
    def one(a: Account) -> str:
        head = f"{a.nickname} (ending {a.number_ending})"
        if a.type == "credit_card":
            return f"{head}: {_lower(a.owed_text or '')}, with ${a.available_balance:,.2f} of credit left"
        if a.available_balance == a.current_balance:
            return f"{head}: ${a.current_balance:,.2f}, all of it available"
        return f"{head}: ${a.current_balance:,.2f}, ${a.available_balance:,.2f} of it available"
    return "; ".join(one(a) for a in accounts) or "no accounts"


class Transaction(BaseModel):
    """One line of an account's history."""

    transaction_id: TransactionId
    account_id: AccountId
    occurred_at: str
    amount: float = Field(description="Signed: negative for money out or a credit card charge, "
                                      "positive for money in or a credit card payment or refund.")
    merchant: str
    category: str
    kind: Literal["purchase", "refund", "deposit", "withdrawal", "transfer", "payment", "fee", "interest"]
    status: Literal["pending", "posted"]
    card_id: CardId | None = Field(description="The card used, for card transactions.")
    transfer_id: TransferId | None = Field(description="The transfer or payment this line belongs to.")
    memo: str | None
    dispute_id: DisputeId | None = Field(description="The dispute opened on this transaction, if any.")


class TransactionList(BaseModel):
    transactions: list[Transaction]
    total: int = Field(description="How many transactions match the filters (more than shown if over `limit`).")
    net_amount: float = Field(description="Sum of the signed amounts of all matching transactions.")
    spent: float = Field(description="Money out across all matching transactions, as a positive amount.")
    transactions_text: str = Field(description="The transactions in words, newest first, such as '$57.53 at Uber "
                                               "Eats on February 23'.")


def _what(t: Transaction) -> str:
    """What a line was, after its amount: 'at Uber Eats', 'to AT&T Wireless', 'in from Acme Payroll',
    'by Zelle from Nora Cruz', 'transfer to Main Savings', 'interest earned'."""
    if t.kind == "purchase":
        return f"at {t.merchant}" if t.amount < 0 else f"back from {t.merchant}"
    if t.kind == "payment":
        return f"to {t.merchant}"
    if t.kind == "deposit":
        return f"by {t.merchant}" if t.merchant.startswith("Zelle from ") else f"in from {t.merchant}"
    first = t.merchant.split(" ", 1)[0]
    return t.merchant if first.isupper() else first.lower() + t.merchant[len(first):]


class TransactionDetail(Transaction):
    """One transaction with what it was in words."""

    said: str = Field(description="The transaction in words, such as 'the $85.33 charge at Olive Garden on February "
                                   "24'.")


def _said(t: Transaction, today: date) -> str:
    """'the $85.33 charge at Olive Garden on February 24', 'the $2,000.00 deposit from Acme Payroll on ...'."""
    if t.kind == "purchase":
        what = f"charge at {t.merchant}" if t.amount < 0 else f"refund from {t.merchant}"
    elif t.kind == "deposit":
        what = f"deposit {'by' if t.merchant.startswith('Zelle from ') else 'from'} {t.merchant}"
    else:
        what = f"payment to {t.merchant}" if t.kind == "payment" else _what(t)
    return f"the ${abs(t.amount):,.2f} {what} on {spoken_day(t.occurred_at, today)}"


def _transactions_text(rows: list[Transaction], total: int, today: date, pending_said: bool) -> str:
    """'$57.53 at Uber Eats on February 23; $2,000.00 in from Acme Payroll on February 20 (pending) and 3 more'."""
    shown = rows if len(rows) <= 6 else rows[:5]
    parts = []
    for t in shown:
        when = date.fromisoformat(t.occurred_at[:10])
        day = f"{when:%B} {when.day}" + ("" if when.year == today.year else f", {when.year}")
        parts.append(f"${abs(t.amount):,.2f} {_what(t)} on {day}"
                     + (" (pending)" if pending_said and t.status == "pending" else ""))
    return said_in_part(parts, total, "none")


class Statement(BaseModel):
    """A monthly statement. For a credit card the balances are amounts owed, credits are
    payments and refunds, and debits are charges."""

    statement_id: StatementId
    account_id: AccountId
    account_name: str = Field(description="The account's nickname, such as 'Main Checking'.")
    opening_balance: float
    closing_balance: float
    total_credits: float = Field(description="Money in during the period.")
    total_debits: float = Field(description="Money out during the period.")
    transaction_count: int
    period: str = Field(description="The month covered, such as '2026-02'.")
    start_date: str
    end_date: str
    issued_on: str
    minimum_payment_due: float | None = Field(description="Credit cards only.")
    payment_due_date: str | None = Field(description="Credit cards only.")


class StatementList(BaseModel):
    statements: list[Statement]
    total: int
    statements_text: str = Field(description="The statements in words, such as 'Main Checking, December 2025: opened "
                                             "at $8,467.30, closed at $5,280.16'.")


def _statements_text(statements: list[Statement], by_account: bool, by_period: bool) -> str:
    """'Main Checking, December 2025: opened at $8,467.30, closed at $5,280.16', without what the request
    named; the one statement of the account and month it named is 'the December 2025 statement, which
    opened at $8,467.30 and closed at $5,280.16'."""
    def one(st: Statement) -> str:
        month = f"{date.fromisoformat(st.period + '-01'):%B %Y}"
        head = ", ".join(p for p in (None if by_account else st.account_name, None if by_period else month) if p)
        opened, closed = f"opened at ${st.opening_balance:,.2f}", f"closed at ${st.closing_balance:,.2f}"
        if head:
            return f"{head}: {opened}, {closed}"
        return f"the {month} statement, which {opened} and {closed}"  # the account and month named
    return said_in_part([one(st) for st in statements[:6]], len(statements), "no statements")


class CategoryTotal(BaseModel):
    category: str
    amount: float = Field(description="Money out in this category during the period, positive.")
    count: int


class StatementDetail(Statement):
    """A monthly statement with its money out broken down by category."""

    spending_by_category: list[CategoryTotal]


# ----- profile and accounts -----------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "How much more can I send to payees today?",
    "What phone number and address do you have on file for me?",
    "What's my daily payment limit?",
], reply=[
    "Your daily limit for payments to payees is ${result.daily_payment_limit}; ${result.paid_today} went out "
    "today, so ${result.remaining_today} is left.",
    "On file you have the phone number {result.phone} and the address {result.address}.",
])
def get_profile(ctx: Ctx) -> Profile:
    """Show the signed-in customer's profile and how much they may still pay to payees today.

    Returns:
        Name, e-mail, phone, address, customer-since date, the daily limit on payments to
        payees, the amount already paid to payees today and what remains of the limit.
    """
    row = ctx.db.execute("SELECT * FROM customers").fetchone()
    limit, paid = daily_limit(ctx), paid_today(ctx)
    return Profile(name=row["name"], email=row["email"], phone=row["phone"], address=row["address"],
                   customer_since=row["customer_since"], daily_payment_limit=limit, paid_today=paid,
                   remaining_today=money(max(limit - paid, 0)))


def _account(ctx: Ctx, row: sqlite3.Row) -> Account:
    owed = money(row["current_balance"])
    return Account(account_id=row["account_id"], nickname=row["nickname"], type=row["type"],
                   number_ending=row["number_last4"], current_balance=owed,
                   pending=held(ctx, row["account_id"]), available_balance=available(ctx, row),
                   credit_limit=row["credit_limit"], interest_rate=row["interest_rate"], opened_on=row["opened_on"],
                   owed_text=(f"You owe ${owed:,.2f}" if owed >= 0 else f"You have a ${-owed:,.2f} credit")
                   if row["type"] == "credit_card" else None)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


@tools.tool(effect=READ, asks=[
    "What accounts do I have with you?",
    "Show me the balances of all my {account_type} accounts.",
    "Give me an overview of my accounts and how much is in each.",
    Ask("How much is in each of my savings accounts?", account_type="savings"),
    Ask("How much do I owe on my credit cards, and how much credit do I have left?", account_type="credit_card"),
], reply=[
    Ask("Your accounts: {result.accounts_text}.", account_type=None),
    Ask("Here's where your accounts stand. {result.accounts_text}.", account_type=None),
    Ask("Your checking accounts: {result.accounts_text}.", account_type="checking"),
    Ask("Your savings accounts: {result.accounts_text}.", account_type="savings"),
    Ask("Your credit cards: {result.accounts_text}.", account_type="credit_card"),
])
def list_accounts(ctx: Ctx, account_type: AccountType | None = None) -> AccountList:
    """List the customer's accounts with their current and available balances.

    Args:
        account_type: only accounts of this type: 'checking', 'savings' or 'credit_card'.
            Leave it out to list every account.

    Returns:
        The accounts (ID, nickname, type, last four digits, current balance, pending amount,
        available balance, credit limit, interest rate) and how many there are.
    """
    where = Where(ctx).add("type = ?", account_type)
    rows = ctx.db.execute(f"SELECT * FROM accounts{where} ORDER BY account_id", where.params).fetchall()
    accounts = [_account(ctx, r) for r in rows]
    return AccountList(accounts=accounts, total=len(rows), accounts_text=_accounts_text(accounts))


@tools.tool(effect=READ, asks=[
    "What's the balance of {account_id} right now?",
    "What's the available balance on {account_id}?",
    "What are the current and available balances of {account_id}?",
], reply=[
    Ask("{account_id} has ${result.current_balance}, all of it available.",
        **{"result.pending": 0.0, "result.credit_limit": None}),
    Ask("{account_id} has ${result.current_balance}; ${result.available_balance} of it is available, with "
        "${result.pending} still pending.", **{"result.credit_limit": None}),
    Ask("{result.owed_text} on {account_id}; ${result.available_balance} of its "
        "${result.credit_limit} limit is available.", **{"result.type": "credit_card"}),
])
def get_account(ctx: Ctx, account_id: AccountId) -> Account:
    """Show one account with its current and available balances.

    The current balance counts posted transactions only; the available balance also subtracts
    pending debits. For a credit card the current balance is the amount owed and the available
    balance is the credit still available.

    Args:
        account_id: ID of the account, such as 'ACC-10001'.

    Returns:
        The account with its nickname, type, last four digits, current balance, pending amount,
        available balance, credit limit (credit cards) and interest rate.

    Raises:
        not_found: no account has that ID.
    """
    return _account(ctx, ctx.get("account", account_id))


# ----- transactions -------------------------------------------------------------------------------

_TRANSACTION_SQL = ("SELECT t.*, d.dispute_id FROM transactions t "
                    "LEFT JOIN disputes d ON d.transaction_id = t.transaction_id")


def _transaction(row: sqlite3.Row) -> Transaction:
    return Transaction(**{k: row[k] for k in Transaction.model_fields})


@tools.tool(effect=READ, asks=[
    "Show me my recent transactions on {account_id}.",
    "What did I spend on {category} between {start_date} and {end_date}?",
    "Did I pay anything at {merchant} recently?",
    "List everything over ${min_amount} since {start_date}.",
    Ask("What's still pending on {card_id}?", status="pending"),
], reply=[
    "Here's what I found: {result.transactions_text}.",
    "Your transactions, newest first: {result.transactions_text}.",
    Ask("You spent {result.spent} in all: {result.transactions_text}.", account_id=None, card_id=None, merchant=None,
        min_amount=None, max_amount=None, status=None),
    Ask("Still pending: {result.transactions_text}.", status="pending"),
], values={
    # What one spends on: not cash, income, transfers or interest ("what did I spend on income").
    "category": ["groceries", "dining", "transport", "shopping", "entertainment", "subscriptions", "health",
                 "travel", "utilities"],
})
def list_transactions(ctx: Ctx, account_id: AccountId | None = None, card_id: CardId | None = None,
                      start_date: date | None = None, end_date: date | None = None,
                      category: Category | None = None, merchant: str | None = None,
                      min_amount: Annotated[float, Field(ge=0)] | None = None,
                      max_amount: Annotated[float, Field(ge=0)] | None = None,
                      status: Literal["pending", "posted"] | None = None, limit: Limit = 25) -> TransactionList:
    """Search the customer's transactions, newest first; every filter is optional.

    Args:
        account_id: only transactions in this account, such as 'ACC-10001'.
        card_id: only purchases and withdrawals made with this card, such as 'CRD-10002'.
        start_date: only transactions on or after this day, such as '2026-02-01'.
        end_date: only transactions on or before this day, such as '2026-02-28'.
        category: only this category, such as 'groceries' or 'dining'.
        merchant: only merchants or counterparties whose name contains this text (any case),
            such as 'starbucks'.
        min_amount: only transactions of at least this many dollars, ignoring the sign,
            such as 100.
        max_amount: only transactions of at most this many dollars, ignoring the sign,
            such as 20.
        status: only 'pending' or only 'posted' transactions.
        limit: how many transactions to return at most, from 1 to 200, such as 25.

    Returns:
        The matching transactions (newest first, at most `limit`), how many match in all and
        the sum of their signed amounts (negative when more went out than came in).

    Raises:
        not_found: `account_id` or `card_id` does not exist.
        invalid_date_range: `start_date` is after `end_date`.
        invalid_amount_range: `min_amount` is greater than `max_amount`.
    """
    where = Where(ctx).entity("account", "t.account_id = ?", account_id).entity("card", "t.card_id = ?", card_id)
    if start_date and end_date and start_date > end_date:
        raise ToolError("invalid_date_range", f"start_date {start_date} is after end_date {end_date}.",
                        hint="Swap the two dates.")
    if min_amount is not None and max_amount is not None and min_amount > max_amount:
        raise ToolError("invalid_amount_range", f"min_amount {min_amount} is greater than max_amount {max_amount}.",
                        hint="Swap the two amounts.")
    where.add("substr(t.occurred_at, 1, 10) >= ?", start_date and start_date.isoformat())
    where.add("substr(t.occurred_at, 1, 10) <= ?", end_date and end_date.isoformat())
    where.add("t.category = ?", category)
    where.add("instr(lower(t.merchant), lower(?)) > 0", (merchant or "").strip() or None)
    where.add("abs(t.amount) >= ?", min_amount).add("abs(t.amount) <= ?", max_amount).add("t.status = ?", status)
    total, net, out = ctx.db.execute(
        "SELECT count(*), coalesce(sum(t.amount), 0), coalesce(sum(CASE WHEN t.amount < 0 THEN -t.amount END), 0) "
        f"FROM transactions t{where}", where.params).fetchone()
    rows = ctx.db.execute(
        f"{_TRANSACTION_SQL}{where} ORDER BY t.occurred_at DESC, t.transaction_id DESC LIMIT ?",
        [*where.params, limit]).fetchall()
    found = [_transaction(r) for r in rows]
    return TransactionList(transactions=found, total=total, net_amount=money(net), spent=money(out),
                           transactions_text=_transactions_text(found, total, ctx.today(), status is None))


@tools.tool(effect=READ, asks=[
    "Tell me more about {transaction_id}.",
    # (asked of a recent transaction, which may still be pending; not of one from months ago)
    Ask("Has {transaction_id} gone through yet?", fits={"transaction_id": "occurred_at >= datetime(:now, '-7 days')"}),
], reply=[
    Ask("{result.said} has posted.", **{"result.status": "posted"}),
    Ask("{result.said} is still pending.", **{"result.status": "pending"}),
])
def get_transaction(ctx: Ctx, transaction_id: TransactionId) -> TransactionDetail:
    """Show one transaction in full.

    Args:
        transaction_id: ID of the transaction, such as 'TRX-10042'.

    Returns:
        The transaction: account, time, signed amount, merchant, category, kind, status
        (pending or posted), card used, transfer it belongs to, memo and dispute, if any.

    Raises:
        not_found: no transaction has that ID.
    """
    ctx.get("transaction", transaction_id)
    t = _transaction(ctx.db.execute(f"{_TRANSACTION_SQL} WHERE t.transaction_id = ?", (transaction_id,)).fetchone())
    return TransactionDetail(**t.model_dump(), said=_said(t, ctx.today()))


# ----- statements ---------------------------------------------------------------------------------


_STATEMENTS = "SELECT s.*, a.nickname AS account_name FROM statements s JOIN accounts a USING (account_id)"


def _statement(row: sqlite3.Row) -> Statement:
    return Statement(**{k: row[k] for k in Statement.model_fields})


@tools.tool(effect=READ, asks=[
    "Which statements are available for {account_id}?",
    "Find my statements for {period}.",
    "Which statements does {account_id} have for {period}?",
], reply=[
    "Here are your statements: {result.statements_text}.",
    "Your statements: {result.statements_text}.",
])
def list_statements(ctx: Ctx, account_id: AccountId | None = None, period: Period | None = None) -> StatementList:
    """List monthly statements, newest first, with their opening and closing balances.

    Args:
        account_id: only statements of this account, such as 'ACC-10001'.
        period: only statements of this month, as 'YYYY-MM', such as '2026-02'.

    Returns:
        The statements (account, month, dates, opening and closing balance, money in and out,
        number of transactions; minimum payment and due date for credit cards) and how many.

    Raises:
        not_found: `account_id` does not exist.
    """
    where = Where(ctx).entity("account", "s.account_id = ?", account_id).add("s.period = ?", period)
    rows = ctx.db.execute(f"{_STATEMENTS}{where} ORDER BY s.period DESC, s.account_id",
                          where.params).fetchall()
    statements = [_statement(r) for r in rows]
    return StatementList(statements=statements, total=len(rows),
                         statements_text=_statements_text(statements, account_id is not None, period is not None))


@tools.tool(effect=READ, asks=[
    "What was the closing balance on {statement_id}?",
    "How much came in and went out on {statement_id}?",
    "Open {statement_id} and give me its totals.",
], reply=[
    "Your {result.account_name} statement for {result.period} opened at ${result.opening_balance} and closed at "
    "${result.closing_balance}, with ${result.total_credits} in credits and ${result.total_debits} in debits over "
    "{result.transaction_count} transactions.",
])
def get_statement(ctx: Ctx, statement_id: StatementId) -> StatementDetail:
    """Show one monthly statement with its money out broken down by category.

    Args:
        statement_id: ID of the statement, such as 'STM-10003'.

    Returns:
        The statement (opening and closing balance, money in and out, number of transactions,
        minimum payment and due date for credit cards) and, per category, the money out and
        the number of transactions, largest first.

    Raises:
        not_found: no statement has that ID.
    """
    ctx.get("statement", statement_id)
    row = ctx.db.execute(f"{_STATEMENTS} WHERE s.statement_id = ?", (statement_id,)).fetchone()
    spending = ctx.db.execute(
        "SELECT category, round(-sum(amount), 2) AS amount, count(*) AS count FROM transactions "
        "WHERE account_id = ? AND status = 'posted' AND amount < 0 AND substr(occurred_at, 1, 10) BETWEEN ? AND ? "
        "GROUP BY category ORDER BY amount DESC, category",
        (row["account_id"], row["start_date"], row["end_date"])).fetchall()
    return StatementDetail(**_statement(row).model_dump(),
                           spending_by_category=[CategoryTotal(**dict(r)) for r in spending])
