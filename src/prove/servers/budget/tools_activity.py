"""Budget tools for transactions: finding them, recording expenses and income, editing and deleting."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import listing_said, money

from .server import (
    EXPENSES,
    GROCERY_FIXES,
    INCOMES,
    TX_SELECT,
    AccountId,
    BudgetStatus,
    CategoryId,
    EntryId,
    EverydayCategoryId,
    GroceryEntryId,
    GroceryRefileId,
    IncomeAccountId,
    IncomeCategoryId,
    Limit,
    Money,
    Name,
    Note,
    SpendingAccountId,
    Transaction,
    active_category,
    balance_text,
    budget_status,
    change_balance,
    check_entry_date,
    fmt,
    insert_tx,
    load_account,
    load_tx,
    over_budget_warnings,
    spent,
    tx_model,
)
from .world import month_of

tools = Toolset("activity")


class TransactionList(BaseModel):
    transactions: list[Transaction]
    total: int = Field(description="how many transactions match the filters (may exceed the number returned)")
    net_amount: float = Field(description="sum of the signed amounts of all matching transactions")
    transactions_text: str = Field(description="the transactions in words, newest first, such as '$39.74 at Sakura "
                                               "Sushi on March 10'; for a payee, with what was spent in all")


_LIMIT = 25  # how many a listing returns where no number is asked


def _transactions_text(rows: list[Transaction], total: int, asked: bool, today: date, spent: float | None) -> str:
    """'$39.74 at Sakura Sushi on March 10 and $2,500.00 from Bright Logistics on March 1', then for a
    payee '; $61.50 spent in all'. Up to 10 returned are each said, more are counted: all that match, or
    where a number was `asked`, those returned ("the last 10" are those 10, not 5 and how many more the
    account holds)."""
    def one(t: Transaction) -> str:
        when = date.fromisoformat(t.date)
        day = f"{when:%B} {when.day}" + ("" if when.year == today.year else f", {when.year}")
        if t.kind == "goal_transfer":  # the payee is 'Goal: New Bike' or, taken back, 'From goal: New Bike'
            goal = t.payee.split(": ", 1)[-1]
            where = f"into the {goal} goal" if t.amount < 0 else f"back from the {goal} goal"
        else:
            where = f"{'at' if t.amount < 0 else 'from'} {t.payee}"
        return f"${abs(t.amount):,.2f} {where} on {day}"
    text = listing_said([one(t) for t in rows], total, asked, "none")
    return f"{text}; ${spent:,.2f} spent in all" if spent and total > 1 else text


class EntryResult(BaseModel):
    transaction: Transaction
    account_balance: float
    balance_text: str = Field(description="the account's balance in words, such as 'you owe $1,011.95 on Citi "
                                          "Double Cash'")
    budget: BudgetStatus | None = Field(description="the category's budget for the entry's month, after it")
    limit_exceeded: bool = Field(description="true when the category is now over its budget for that month")
    warnings: list[str]


class DeletedTransaction(BaseModel):
    deleted: Transaction
    account_balance: float
    balance_text: str = Field(description="the account's balance in words, such as 'Everyday Checking has $8,061.04'")
    budget: BudgetStatus | None


def _entry(ctx: Ctx, transaction_id: str, before_remaining: float | None = None) -> EntryResult:
    tx = load_tx(ctx, transaction_id)
    (balance,) = ctx.db.execute("SELECT balance FROM accounts WHERE account_id = ?", (tx.account_id,)).fetchone()
    status, warnings = None, []
    if tx.category_id is not None and tx.kind == "expense":
        status = budget_status(ctx, ctx.get("category", tx.category_id), tx.date[:7])
        before = status.remaining + 1e9 if before_remaining is None else before_remaining
        warnings = over_budget_warnings(status, before)
    return EntryResult(transaction=tx, account_balance=balance, budget=status,
                       balance_text=balance_text(ctx.get("account", tx.account_id), balance),
                       limit_exceeded=bool(status and status.over_budget), warnings=warnings)


def _refuse_strict(status: BudgetStatus, amount: float) -> ToolError:
    return ToolError(
        "limit_exceeded",
        f"{status.category_name} is a strict category: {fmt(amount)} would take it over its "
        f"{fmt(status.budgeted)} budget for {status.month} ({fmt(max(status.remaining, 0))} left).",
        hint="Move budget into it first with move_budget, raise its limit with set_category_limit, "
             "or use another category.")


@tools.tool(effect=READ, asks=[
    "Show me my recent transactions.",
    "What did I spend at {payee} between {start_date} and {end_date}?",
    "List the entries in {category_id}.",
    "Show the last {limit} transactions on {account_id}.",
    Ask("What income came in since {start_date}?", kind="income"),
    Ask("Which purchases were over ${min_amount}?", kind="expense"),
], reply=[
    "Here's what I found: {result.transactions_text}.",
    "Your entries, newest first: {result.transactions_text}.",
])
def list_transactions(ctx: Ctx, account_id: AccountId | None = None, category_id: CategoryId | None = None,
                      kind: Literal["expense", "income", "goal_transfer"] | None = None,
                      start_date: date | None = None, end_date: date | None = None, payee: str | None = None,
                      min_amount: Annotated[float, Field(ge=0, le=10_000_000)] | None = None,
                      max_amount: Annotated[float, Field(ge=0, le=10_000_000)] | None = None,
                      limit: Limit = _LIMIT) -> TransactionList:
    """Find transactions, newest first, with optional filters.

    Args:
        account_id: only transactions in this account, such as 'ACC-10001'.
        category_id: only transactions in this category, such as 'CAT-10012'.
        kind: only 'expense', 'income' or 'goal_transfer' entries.
        start_date: earliest date, inclusive, such as '2026-03-01'.
        end_date: latest date, inclusive, such as '2026-03-15'.
        payee: text the payee contains (case-insensitive), such as 'Starbucks'.
        min_amount: smallest absolute amount in dollars, such as 50.0.
        max_amount: largest absolute amount in dollars, such as 200.0.
        limit: how many to return, 1 to 200 (default 25).

    Returns:
        The matching transactions (newest first), how many match in all, and their net amount.

    Raises:
        not_found: the account or category does not exist.
    """
    where = Where()
    if account_id is not None:
        load_account(ctx, account_id, open_only=False)
    where.eq("t.account_id", account_id)
    where.entity(ctx, "category", "t.category_id", category_id)
    where.eq("t.kind", kind)
    if start_date is not None:
        where.add("t.date >= ?", start_date.isoformat())
    if end_date is not None:
        where.add("t.date <= ?", end_date.isoformat())
    if payee:
        escaped = payee.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where.add("t.payee LIKE ? ESCAPE '\\'", f"%{escaped}%")
    where.cmp("abs(t.amount)", ">=", min_amount)
    where.cmp("abs(t.amount)", "<=", max_amount)
    clause = where.clause
    total, net, out = ctx.db.execute(
        "SELECT count(*), coalesce(sum(t.amount), 0), coalesce(sum(CASE WHEN t.amount < 0 THEN -t.amount END), 0) "
        f"FROM transactions t{clause}", where.params).fetchone()
    rows = ctx.db.execute(f"{TX_SELECT}{clause} ORDER BY t.date DESC, t.transaction_id DESC LIMIT ?",
                          (*where.params, limit)).fetchall()
    found = [tx_model(r) for r in rows]
    return TransactionList(transactions=found, total=total, net_amount=money(net),
                           transactions_text=_transactions_text(found, total, limit != _LIMIT, ctx.today(),
                                                              money(out) if payee else None))


@tools.tool(effect=READ, asks=[
    "Show me the details of {transaction_id}.",
    "What was {transaction_id} for?",
], reply=[
    Ask("{result.payee} on {result.date}: {result.amount_text}, filed under {result.category_name}.",
        **{"result.note": None}),
    "{result.payee} on {result.date}: {result.amount_text}, filed under {result.category_name}, with the note "
    "'{result.note}'.",
    Ask("On {result.date}, {result.amount_text}.", **{"result.kind": "goal_transfer"}),
    Ask("{result.payee} on {result.date}: {result.amount_text}, not filed under any category.",
        **{"result.kind": "income", "result.category_name": None}),
])
def get_transaction(ctx: Ctx, transaction_id: EntryId) -> Transaction:
    """Look up one transaction.

    Args:
        transaction_id: ID of the transaction, such as 'TXN-10001'.

    Returns:
        The transaction with its account, category, signed amount, payee, note and kind, and the
        bill or savings goal it belongs to, if any.

    Raises:
        not_found: no transaction has that ID.
    """
    return load_tx(ctx, transaction_id)


@tools.tool(effect=WRITE, asks=[
    "Log the ${amount} I just spent at {payee} under {category_id}; I paid with {account_id}.",
    "Log an expense of ${amount} to {payee} on {date} in {category_id}, from {account_id}.",
    "Record that I paid {payee} ${amount} with {account_id} for {category_id}. Note: {note}",
], reply=[
    "Logged ${amount} at {payee} under {category_id}; {result.balance_text} now.",
    "Recorded the ${amount} expense at {payee} on {result.transaction.date}.",
], values={
    "category_id, payee, note, amount": EXPENSES,
})
def add_expense(ctx: Ctx, amount: Money, category_id: EverydayCategoryId, account_id: SpendingAccountId, payee: Name,
                date: date | None = None, note: Note | None = None) -> EntryResult:
    """Record an expense paid from one of the user's accounts, in a budget category.

    The expense counts against the category's budget for the month of `date`. Going over the
    budget is allowed and reported in `warnings` and `limit_exceeded`, except in a strict
    category, which refuses it.

    Args:
        amount: amount paid in dollars, such as 42.5.
        category_id: expense category, such as 'CAT-10012'.
        account_id: account that paid, such as 'ACC-10003'.
        payee: who was paid, such as 'Trader Joe's'.
        date: when it was paid, such as '2026-03-15'; default today. Up to a year back.
        note: optional note, such as 'split with roommate'.

    Returns:
        The new transaction, the account's new balance, and the category's budget for that month
        (budgeted, spent, remaining) with any warnings.

    Raises:
        not_found: the category or account does not exist.
        account_closed: the account is closed.
        category_archived: the category is archived.
        category_kind_mismatch: the category is an income category.
        invalid_date: the date is in the future or more than a year ago.
        limit_exceeded: the category is strict and the expense would take it over its budget for the month.
        insufficient_funds: the account does not have `amount` available (a credit card's limit counts).
    """
    amount = money(amount)
    acc = load_account(ctx, account_id)
    cat = active_category(ctx, category_id, "expense")
    day = check_entry_date(ctx, date)
    before = budget_status(ctx, cat, month_of(day))
    if cat["strict"] and before.remaining - amount < -0.004:
        raise _refuse_strict(before, amount)
    change_balance(ctx, acc, -amount)
    tid = insert_tx(ctx, account_id=account_id, category_id=category_id, day=day, amount=-amount, payee=payee,
                    note=note, kind="expense")
    return _entry(ctx, tid, before.remaining)


@tools.tool(effect=WRITE, asks=[
    "I got paid ${amount} from {source} into {account_id}.",
    "Add income of ${amount} from {source} to {account_id} under {category_id}.",
    "Record a ${amount} deposit from {source} on {date} into {account_id}.",
], reply=[
    "Added ${amount} from {source}; {result.balance_text} now.",
    "Recorded ${amount} of income from {source} on {result.transaction.date}.",
], values={
    # A source with the income category it belongs to, and a note and an amount that fit it.
    "category_id, source, note, amount": INCOMES,
})
def add_income(ctx: Ctx, amount: Money, account_id: IncomeAccountId, source: Name,
               category_id: IncomeCategoryId | None = None, date: date | None = None,
               note: Note | None = None) -> EntryResult:
    """Record money received into one of the user's accounts (a paycheck, a client payment, a refund).

    Args:
        amount: amount received in dollars, such as 1250.0.
        account_id: account that received it, such as 'ACC-10001'.
        source: who paid, such as 'Northwind Consulting'.
        category_id: income category, such as the 'Freelance' or 'Other Income' category; default none.
        date: when it arrived, such as '2026-03-13'; default today. Up to a year back.
        note: optional note, such as 'Invoice 1042'.

    Returns:
        The new transaction and the account's new balance.

    Raises:
        not_found: the account or category does not exist.
        account_closed: the account is closed.
        category_archived: the category is archived.
        category_kind_mismatch: the category is an expense category.
        invalid_date: the date is in the future or more than a year ago.
    """
    amount = money(amount)
    acc = load_account(ctx, account_id)
    if category_id is not None:
        active_category(ctx, category_id, "income")
    day = check_entry_date(ctx, date)
    change_balance(ctx, acc, amount)
    tid = insert_tx(ctx, account_id=account_id, category_id=category_id, day=day, amount=amount, payee=source,
                    note=note, kind="income")
    return _entry(ctx, tid)


@tools.tool(effect=WRITE, asks=[
    "Move {transaction_id} to {category_id}.",
    "Change the amount on {transaction_id}: it should be ${amount}.",
    "Fix {transaction_id}: the payee should be {payee}, with the note: {note}",
    "Fix the date of {transaction_id}; it actually happened on {date}.",
], reply=[
    "Updated {transaction_id}; it now reads {result.transaction.payee} on {result.transaction.date}: "
    "{result.transaction.amount_text}, under {result.transaction.category_name}.",
    "Fixed the entry: {result.transaction.payee} on {result.transaction.date} is now "
    "{result.transaction.amount_text}, under {result.transaction.category_name}; {result.balance_text} now.",
], values={
    # The corrections are asked of grocery purchases (see GroceryEntryId): grocery payees and notes.
    "payee, note": GROCERY_FIXES,
})
def update_transaction(ctx: Ctx, transaction_id: GroceryEntryId, amount: Money | None = None,
                       category_id: GroceryRefileId | None = None, payee: Name | None = None,
                       note: Note | None = None, date: date | None = None) -> EntryResult:
    """Correct an expense or income entry: its amount, category, payee, note or date.

    The account's balance follows a changed amount. Goal transfers cannot be edited (use
    withdraw_from_goal instead).

    Args:
        transaction_id: the entry to change, such as 'TXN-10040'.
        amount: new amount in dollars (positive; the sign follows the kind), such as 38.2.
        category_id: new category of the same kind, such as 'CAT-10013'.
        payee: new payee, such as 'Whole Foods Market'.
        note: new note, such as 'reimbursable'; an empty string clears it.
        date: new date, such as '2026-03-12'; up to a year back.

    Returns:
        The updated transaction, the account's balance, and the category's budget for its month.

    Raises:
        not_found: the transaction or category does not exist.
        not_editable: the transaction is a goal transfer.
        no_changes: no field to change was given.
        account_closed: the transaction's account is closed.
        category_archived: the new category is archived.
        category_kind_mismatch: the new category's kind differs from the entry's (expense or income).
        invalid_date: the new date is in the future or more than a year ago.
        limit_exceeded: the change would take a strict category over its budget for the month.
        insufficient_funds: a larger expense (or smaller income) would overdraw the account.
    """
    tx = load_tx(ctx, transaction_id)
    if tx.kind == "goal_transfer":
        raise ToolError("not_editable", f"{transaction_id} is a transfer to a savings goal and cannot be edited.",
                        hint="Use withdraw_from_goal to take money back from the goal.")
    if amount is None and category_id is None and payee is None and note is None and date is None:
        raise ToolError("no_changes", "Nothing to change was given.",
                        hint="Pass at least one of amount, category_id, payee, note or date.")
    acc = load_account(ctx, tx.account_id)
    new_cat = tx.category_id
    if category_id is not None:
        active_category(ctx, category_id, tx.kind)
        new_cat = category_id
    new_day = check_entry_date(ctx, date) if date is not None else None
    new_date = new_day.isoformat() if new_day else tx.date
    spent_before = spent(ctx, new_cat, new_date[:7]) if new_cat and tx.kind == "expense" else 0.0
    if amount is not None:
        signed = -money(amount) if tx.kind == "expense" else money(amount)
        change_balance(ctx, acc, signed - tx.amount)
    else:
        signed = tx.amount
    ctx.db.execute("UPDATE transactions SET amount = ?, category_id = ?, payee = ?, note = ?, date = ? "
                   "WHERE transaction_id = ?",
                   (signed, new_cat, payee if payee is not None else tx.payee,
                    (note or None) if note is not None else tx.note, new_date, transaction_id))
    if new_cat and tx.kind == "expense":
        cat = ctx.get("category", new_cat)
        status = budget_status(ctx, cat, new_date[:7])
        if cat["strict"] and status.over_budget and status.spent > spent_before + 0.004:
            before = status.model_copy(update={"spent": spent_before,
                                               "remaining": money(status.budgeted - spent_before)})
            raise _refuse_strict(before, money(status.spent - spent_before))
        return _entry(ctx, transaction_id, money(status.budgeted - spent_before))
    return _entry(ctx, transaction_id)


@tools.tool(effect=WRITE, asks=[
    "Delete {transaction_id}, it was a duplicate.",
    "Remove {transaction_id} from my budget.",
], reply=[
    "Deleted the entry for {result.deleted.payee}; {result.balance_text} now.",
    "{transaction_id} is gone.",
])
def delete_transaction(ctx: Ctx, transaction_id: EntryId) -> DeletedTransaction:
    """Delete an expense or income entry, such as a duplicate or a mistake.

    The account's balance is restored. A bill's schedule is not changed. Goal transfers cannot
    be deleted.

    Args:
        transaction_id: the entry to delete, such as 'TXN-10040'.

    Returns:
        The deleted transaction, the account's new balance and the category's budget for its month.

    Raises:
        not_found: no transaction has that ID.
        not_editable: the transaction is a goal transfer.
        account_closed: the transaction's account is closed.
        insufficient_funds: removing an income entry would overdraw the account.
    """
    tx = load_tx(ctx, transaction_id)
    if tx.kind == "goal_transfer":
        raise ToolError("not_editable", f"{transaction_id} is a transfer to a savings goal and cannot be deleted.",
                        hint="Use withdraw_from_goal to take money back from the goal.")
    acc = load_account(ctx, tx.account_id)
    balance = change_balance(ctx, acc, -tx.amount)
    ctx.db.execute("DELETE FROM transactions WHERE transaction_id = ?", (transaction_id,))
    status = None
    if tx.category_id and tx.kind == "expense":
        status = budget_status(ctx, ctx.get("category", tx.category_id), tx.date[:7])
    return DeletedTransaction(deleted=tx, account_balance=balance, budget=status,
                              balance_text=balance_text(acc, balance))
