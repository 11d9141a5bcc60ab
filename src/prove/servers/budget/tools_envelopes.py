"""Budget tools for categories ("envelopes"): their monthly budgets, limits and moves between them."""

from __future__ import annotations

import calendar
import sqlite3
from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import money, said_in_part

from .server import (
    LIMITS,
    TX_SELECT,
    BillId,
    CategoryId,
    ExpenseCategoryId,
    Limit,
    LimitCategoryId,
    Money,
    Month,
    MoveId,
    Name,
    Note,
    Transaction,
    UnbilledCategoryId,
    budget_status,
    fmt,
    net_moves,
    set_budget,
    shift_month,
    tx_model,
)
from .world import month_of

Group = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
LimitAmount = Annotated[float, Field(ge=0, le=1_000_000)]
# How far ahead budgets may be planned.
tools = Toolset("envelopes")


PLAN_MONTHS = 12


class Category(BaseModel):
    category_id: CategoryId
    name: str
    group: str
    kind: Literal["expense", "income"]
    status: Literal["active", "archived"]
    strict: bool = Field(description="a strict category refuses expenses that would take it over budget")
    monthly_limit: float = Field(description="default budget of each new month")
    month: str
    budgeted: float = Field(description="the budget for `month` (0 for income categories)")
    spent: float = Field(description="spent in `month` (expense categories) or received (income categories)")
    remaining: float
    over_budget: bool


class CategoryList(BaseModel):
    month: str
    categories: list[Category]
    total: int
    categories_text: str = Field(description="The categories with what is spent and left in words, such as "
                                             "'Coffee Shops: $36.35 spent of $70.00, $33.65 left'.")


def _categories_text(categories: list[Category]) -> str:
    """'Coffee Shops: $36.35 spent of $70.00, $33.65 left; Paycheck: $5,067.90 received'."""
    def one(c: Category) -> str:
        if c.kind == "income":
            said = f"{c.name}: {f'${c.spent:,.2f}' if c.spent else 'nothing'} received"
        elif not c.spent:
            said = f"{c.name}: nothing spent of ${c.budgeted:,.2f}"
        elif not c.remaining:
            said = f"{c.name}: all ${c.budgeted:,.2f} spent"
        else:
            left = f"over by ${-c.remaining:,.2f}" if c.remaining < 0 else f"${c.remaining:,.2f} left"
            said = f"{c.name}: ${c.spent:,.2f} spent of ${c.budgeted:,.2f}, {left}"
        return said + (" (archived)" if c.status == "archived" else "")
    return "; ".join(one(c) for c in categories) or "no categories"


class BillRef(BaseModel):
    bill_id: BillId
    name: str
    amount: float
    next_due_date: str


class CategoryDetail(Category):
    transactions: list[Transaction] = Field(description="the category's entries in `month`, newest first")
    bills: list[BillRef] = Field(description="active recurring bills paid from this category")


class MonthLine(BaseModel):
    month: str
    budgeted: float
    spent: float
    remaining: float
    over_budget: bool


class CategoryHistory(BaseModel):
    category_id: CategoryId
    name: str
    months: list[MonthLine]
    total: int
    average_spent: float
    total_spent: float = Field(description="Everything spent in the months shown, this month so far included.")
    months_over_budget: int
    spending: str = Field(description="What was spent each month, oldest first, in words.")
    average_text: str = Field(description="The average in words, with the months it covers: '$21.46 a month on "
                                          "average over the 3 months before this one'.")


class BudgetMove(BaseModel):
    move_id: MoveId
    summary: str = Field(description="How much moved from which category to which, in words.")
    month: str
    from_category_id: CategoryId
    from_category: str
    to_category_id: CategoryId
    to_category: str
    amount: float
    note: str | None
    created_at: str


class MoveResult(BaseModel):
    move: BudgetMove
    from_remaining: float = Field(description="what is left in the source envelope for the month")
    to_remaining: float = Field(description="what is left in the destination envelope for the month")
    to_standing: str = Field(description="how the destination envelope stands, in words: 'now has $40.00 left' or "
                                         "'is still $12.50 over budget'")


class BudgetMoveList(BaseModel):
    moves: list[BudgetMove]
    total: int
    moves_text: str = Field(description="The moves in words, such as '$20.00 from Household to Education for "
                                        "December 2025'.")


def _moves_text(moves: list[BudgetMove], total: int, month: str | None) -> str:
    """'$20.00 from Household to Education for December 2025 ('Dentist ran over')': the month unless asked."""
    def one(m: BudgetMove) -> str:
        when = "" if month is not None else f" for {date.fromisoformat(m.month + '-01'):%B %Y}"
        return f"{m.summary}{when}" + (f" ('{m.note}')" if m.note else "")
    return said_in_part([one(m) for m in moves[:6]], total, "no moves")


def _category(ctx: Ctx, cat: sqlite3.Row, month: str) -> Category:
    st = budget_status(ctx, cat, month)
    return Category(category_id=cat["category_id"], name=cat["name"], group=cat["group_name"], kind=cat["kind"],
                    status=cat["status"], strict=bool(cat["strict"]), monthly_limit=cat["monthly_limit"],
                    month=month, budgeted=st.budgeted, spent=st.spent,
                    remaining=st.remaining if cat["kind"] == "expense" else 0.0,
                    over_budget=st.over_budget if cat["kind"] == "expense" else False)


def _plannable(ctx: Ctx, month: str | None) -> str:
    current = month_of(ctx.today())
    if month is None:
        return current
    if month < current:
        raise ToolError("invalid_month", f"{month} is in the past; past months' budgets are closed.",
                        hint=f"Use the current month, {current}, or a later one.")
    if month > shift_month(current, PLAN_MONTHS):
        raise ToolError("invalid_month", f"{month} is more than {PLAN_MONTHS} months ahead.",
                        hint=f"Plan up to {shift_month(current, PLAN_MONTHS)}.")
    return month


def _expense_category(ctx: Ctx, category_id: str) -> sqlite3.Row:
    cat = ctx.get("category", category_id)
    if cat["kind"] != "expense":
        raise ToolError("category_kind_mismatch", f"{cat['name']!r} is an income category and has no budget.",
                        hint="Pick an expense category from list_categories(kind='expense').")
    if cat["status"] != "active":
        raise ToolError("category_archived", f"The category {cat['name']!r} is archived.",
                        hint="Pick an active category from list_categories.")
    return cat


def _move(ctx: Ctx, move_id: str) -> BudgetMove:
    row = ctx.db.execute(
        "SELECT m.*, f.name AS from_name, t.name AS to_name FROM budget_moves m "
        "JOIN categories f ON f.category_id = m.from_category_id JOIN categories t ON t.category_id = m.to_category_id "
        "WHERE m.move_id = ?", (move_id,)).fetchone()
    return BudgetMove(move_id=row["move_id"], summary=f"${row['amount']:,.2f} from {row['from_name']} to {row['to_name']}",
                      month=row["month"], from_category_id=row["from_category_id"],
                      from_category=row["from_name"], to_category_id=row["to_category_id"],
                      to_category=row["to_name"], amount=row["amount"], note=row["note"],
                      created_at=row["created_at"])


@tools.tool(effect=READ, asks=[
    "What are my budget categories?",
    "Show my {kind} categories for {month}.",
    "How am I doing in the {group} categories this month?",
    Ask("List all my categories, archived ones included.", include_archived=True),
], reply=[
    "In {result.month}: {result.categories_text}.",
    "For {result.month}, your categories: {result.categories_text}.",
])
def list_categories(ctx: Ctx, month: Month | None = None, kind: Literal["expense", "income"] | None = None,
                    group: str | None = None, include_archived: bool = False) -> CategoryList:
    """List budget categories with their budget, spending and what is left for one month.

    Args:
        month: the month as 'YYYY-MM', such as '2026-03'; default the current month.
        kind: only 'expense' or 'income' categories.
        group: only categories of this group (case-insensitive), such as 'Food'.
        include_archived: also list archived categories (default false).

    Returns:
        The categories (grouped, then by name) with budgeted, spent (or received), remaining and
        over_budget for the month.
    """
    month = month or month_of(ctx.today())
    where = Where()
    where.eq("kind", kind)
    if group:
        where.add("group_name = ? COLLATE NOCASE", group.strip())
    if not include_archived:
        where.add("status = 'active'")
    rows = ctx.db.execute(f"SELECT * FROM categories{where.clause} ORDER BY kind, group_name, name",
                          where.params).fetchall()
    cats = [_category(ctx, r, month) for r in rows]
    return CategoryList(month=month, categories=cats, total=len(cats), categories_text=_categories_text(cats))


@tools.tool(effect=READ, asks=[
    "How much have I spent on {category_id} in {month}?",
    "How is {category_id} doing this month?",
    "What's left in {category_id} this month?",
], reply=[
    "In {result.month}, {result.name} has ${result.spent} spent of ${result.budgeted} budgeted, leaving "
    "${result.remaining}.",
    Ask("Nothing has been spent in {result.name} in {result.month}; all ${result.budgeted} budgeted is left.",
        **{"result.spent": 0.0}),
    Ask("In {result.month}, {result.name} has spent all ${result.budgeted} budgeted; nothing is left.",
        **{"result.remaining": 0.0}),
])
def get_category(ctx: Ctx, category_id: ExpenseCategoryId, month: Month | None = None) -> CategoryDetail:
    """Look up one category with its budget, spending and entries for a month.

    The recurring bills charged to the category are listed too.

    Args:
        category_id: ID of the category, such as 'CAT-10012'.
        month: the month as 'YYYY-MM', such as '2026-03'; default the current month.

    Returns:
        The category with budgeted, spent, remaining and over_budget for the month, its
        transactions of that month (newest first) and its active bills.

    Raises:
        not_found: no category has that ID.
    """
    month = month or month_of(ctx.today())
    cat = ctx.get("category", category_id)
    base = _category(ctx, cat, month)
    rows = ctx.db.execute(TX_SELECT + " WHERE t.category_id = ? AND substr(t.date, 1, 7) = ? "
                          "ORDER BY t.date DESC, t.transaction_id DESC", (category_id, month)).fetchall()
    bills = ctx.db.execute("SELECT bill_id, name, amount, next_due_date FROM bills WHERE category_id = ? "
                           "AND status = 'active' ORDER BY next_due_date", (category_id,)).fetchall()
    return CategoryDetail(**base.model_dump(), transactions=[tx_model(r) for r in rows],
                          bills=[BillRef(**dict(b)) for b in bills])


@tools.tool(effect=READ, asks=[
    "How has my spending on {category_id} changed over the last {months} months?",
    "Show the monthly history of {category_id}.",
], reply=[
    "{result.name} spending over the last {result.total} months: {result.spending}; {result.average_text}.",
    Ask("Over the last {result.total} months, {result.name} averaged no spending at all.",
        **{"result.total_spent": 0.0}),
], values={
    # A history to compare: several months, never "the last 1 months".
    "months": [3, 4, 6, 12],
})
def get_category_history(ctx: Ctx, category_id: ExpenseCategoryId,
                         months: Annotated[int, Field(ge=1, le=24)] = 6) -> CategoryHistory:
    """Show a category's budget and spending month by month, ending with the current month.

    Args:
        category_id: ID of the category, such as 'CAT-10012'.
        months: how many months to show, 1 to 24 (default 6).

    Returns:
        One line per month (oldest first) with budgeted, spent, remaining and over_budget, the
        average monthly spending over the complete months shown, and how many were over budget.

    Raises:
        not_found: no category has that ID.
    """
    cat = ctx.get("category", category_id)
    current = month_of(ctx.today())
    lines = []
    for i in range(months - 1, -1, -1):
        st = budget_status(ctx, cat, shift_month(current, -i))
        lines.append(MonthLine(month=st.month, budgeted=st.budgeted, spent=st.spent, remaining=st.remaining,
                               over_budget=st.over_budget and cat["kind"] == "expense"))
    complete = [x.spent for x in lines if x.month < current]
    average = money(sum(complete) / len(complete)) if complete else lines[-1].spent
    return CategoryHistory(category_id=category_id, name=cat["name"], months=lines, total=len(lines),
                           average_spent=average, total_spent=money(sum(x.spent for x in lines)),
                           months_over_budget=sum(x.over_budget for x in lines),
                           spending=", ".join(_spent_in(x, current) for x in lines),
                           average_text=_average_in(average, len(complete)))


def _average_in(average: float, complete: int) -> str:
    """'$21.46 a month on average over the 3 months before this one'; with no full month shown,
    this month's spending so far."""
    if not complete:
        return f"${average:,.2f} this month so far"
    months = "the month" if complete == 1 else f"the {complete} months"
    return f"${average:,.2f} a month on average over {months} before this one"


def _spent_in(line: MonthLine, current: str) -> str:
    """'February $36.01', 'April 2025 $40.00', 'March $12.50 so far'."""
    year, month = line.month.split("-")
    name = calendar.month_name[int(month)] + ("" if year == current[:4] else f" {year}")
    return f"{name} ${line.spent:,.2f}" + (" so far" if line.month == current else "")


@tools.tool(effect=WRITE, asks=[
    Ask("Create a budget category called {name} in {group} with ${monthly_limit} a month.", kind="expense"),
    Ask("Add a new envelope {name} with a monthly limit of ${monthly_limit}.", kind="expense"),
    Ask("Set up an income category named {name}.", kind="income"),
    Ask("Make a strict category {name} capped at ${monthly_limit} a month; refuse anything over.", strict=True,
        kind="expense"),
], reply=[
    Ask("Created the income category {result.name} under {result.group}.", kind="income"),
    "Created the category {result.name} with ${result.monthly_limit} a month.",
    "{result.name} is set up in {result.group} with ${result.monthly_limit} a month.",
    Ask("Created the strict category {result.name}: ${result.monthly_limit} a month, and anything over it is "
        "refused.", strict=True, kind="expense"),
], values={
    # A new category with the group it belongs in and whether it is spent from or earned into.
    "name, group, kind": [
        ("Childcare", "Personal", "expense"), ("Home Office", "Housing", "expense"), ("Streaming", "Fun", "expense"),
        ("Car Maintenance", "Transportation", "expense"), ("Hobbies", "Fun", "expense"),
        ("Charity", "Giving", "expense"), ("Vitamins", "Health", "expense"),
        ("Parking", "Transportation", "expense"), ("Takeout", "Food", "expense"),
        ("Side Business", "Income", "income"), ("Rental Income", "Income", "income"),
        ("Tutoring Income", "Income", "income"), ("Dividends", "Income", "income"),
    ],
})
def create_category(ctx: Ctx, name: Name, group: Group = "Other", monthly_limit: LimitAmount = 0.0,
                    kind: Literal["expense", "income"] = "expense", strict: bool = False) -> Category:
    """Create a budget category (an envelope).

    Its monthly limit is the budget of the current month and of every later month until changed.

    Args:
        name: the category's name, unique, such as 'Car Maintenance'.
        group: the group it is shown under, such as 'Transportation' (default 'Other').
        monthly_limit: monthly budget in dollars, such as 150.0; ignored for income categories.
        kind: 'expense' (default) or 'income'.
        strict: refuse expenses that would take it over budget (default false).

    Returns:
        The new category with its budget for the current month.

    Raises:
        duplicate_name: a category (active or archived) already has that name.
    """
    clash = ctx.db.execute("SELECT category_id, status FROM categories WHERE name = ? COLLATE NOCASE",
                           (name,)).fetchone()
    if clash is not None:
        raise ToolError("duplicate_name", f"A category named {name!r} already exists ({clash['category_id']}, "
                        f"{clash['status']}).", hint="Choose another name, or use the existing category.")
    cid = ctx.new_id("CAT")
    limit = money(monthly_limit) if kind == "expense" else 0.0
    ctx.db.execute("INSERT INTO categories (category_id, name, group_name, kind, monthly_limit, strict, status, "
                   "created_on) VALUES (?, ?, ?, ?, ?, ?, 'active', ?)",
                   (cid, name, group, kind, limit, int(strict and kind == "expense"), ctx.today().isoformat()))
    return _category(ctx, ctx.get("category", cid), month_of(ctx.today()))


@tools.tool(effect=WRITE, asks=[
    "Budget ${monthly_limit} a month for {category_id}.",
    Ask("Give {category_id} a strict monthly limit of ${monthly_limit}.", strict=True),
    "Make the budget ${monthly_limit} for {category_id}.",
    Ask("Make {category_id} ${monthly_limit} a month and let it go over again.", strict=False),
], reply=[
    Ask("{result.name} now has ${result.monthly_limit} a month, and it is strict: expenses that would take it "
        "over budget are refused.", strict=True),
    Ask("Done: {category_id} is strict now, with a budget of ${monthly_limit} a month.", strict=True),
    Ask("{result.name} now has ${result.monthly_limit} a month, and it may go over again (you'll only get a "
        "warning).", strict=False),
    "{result.name} now has ${result.monthly_limit} a month.",
    "Done: the budget for {category_id} is ${monthly_limit} a month.",
], values={
    "category_id, monthly_limit": LIMITS,
})
def set_category_limit(ctx: Ctx, category_id: LimitCategoryId, monthly_limit: LimitAmount,
                       strict: bool | None = None) -> Category:
    """Change an expense category's monthly limit, and optionally whether it is strict.

    The new limit applies to the current month and every later month; money already moved in
    or out of the envelope for those months (move_budget) is kept on top of it.

    Args:
        category_id: the expense category, such as 'CAT-10012'.
        monthly_limit: the new monthly budget in dollars, such as 300.0.
        strict: true to refuse over-budget expenses, false to only warn; default unchanged.

    Returns:
        The category with its budget for the current month.

    Raises:
        not_found: no category has that ID.
        category_kind_mismatch: the category is an income category.
        category_archived: the category is archived.
    """
    cat = _expense_category(ctx, category_id)
    limit = money(monthly_limit)
    ctx.db.execute("UPDATE categories SET monthly_limit = ?, strict = ? WHERE category_id = ?",
                   (limit, cat["strict"] if strict is None else int(strict), category_id))
    current = month_of(ctx.today())
    months = {current} | {r["month"] for r in ctx.db.execute(
        "SELECT month FROM budgets WHERE category_id = ? AND month > ?", (category_id, current))}
    for month in months:
        set_budget(ctx, category_id, month, limit + net_moves(ctx, category_id, month))
    return _category(ctx, ctx.get("category", category_id), current)


# a category with no transactions in the last two months
_UNUSED = "category_id NOT IN (SELECT category_id FROM transactions WHERE category_id IS NOT NULL " \
          "AND date >= date(:today, '-60 days'))"


@tools.tool(effect=WRITE, asks=[
    # (a category still in use, such as the paycheck, is not one the user says they no longer use)
    Ask("Archive {category_id}, I don't use it anymore.", fits={"category_id": _UNUSED}),
    "Remove {category_id} from my budget.",
], reply=[
    "Archived {category_id}; its history stays.",
    "{category_id} is archived.",
])
def archive_category(ctx: Ctx, category_id: UnbilledCategoryId) -> Category:
    """Archive a category: it no longer takes new entries or budgets, and its history is kept.

    Args:
        category_id: the category to archive, such as 'CAT-10012'.

    Returns:
        The archived category, with its figures for the current month.

    Raises:
        not_found: no category has that ID.
        already_archived: the category is already archived.
        category_in_use: active recurring bills are charged to it.
    """
    cat = ctx.get("category", category_id)
    if cat["status"] == "archived":
        raise ToolError("already_archived", f"{cat['name']!r} is already archived.")
    bills = ctx.db.execute("SELECT bill_id, name FROM bills WHERE category_id = ? AND status = 'active' "
                           "ORDER BY bill_id", (category_id,)).fetchall()
    if bills:
        names = ", ".join(f"{b['name']} ({b['bill_id']})" for b in bills)
        raise ToolError("category_in_use", f"{cat['name']!r} still has active bills: {names}.",
                        hint="Cancel those bills or move them to another category with update_bill first.")
    ctx.db.execute("UPDATE categories SET status = 'archived' WHERE category_id = ?", (category_id,))
    ctx.db.execute("DELETE FROM budgets WHERE category_id = ? AND month > ?", (category_id, month_of(ctx.today())))
    return _category(ctx, ctx.get("category", category_id), month_of(ctx.today()))


@tools.tool(effect=WRITE, asks=[
    "Move ${amount} from my budget for {from_category_id} to {to_category_id}.",
    "Take ${amount} out of {from_category_id} and put it in {to_category_id} for {month}.",
    "Top up {to_category_id} with ${amount} from {from_category_id}. Note: {note}",
], reply=[
    "Moved ${amount} from {from_category_id} to {to_category_id}, which {result.to_standing}.",
    "Done: {to_category_id} has ${amount} more, and {from_category_id} has ${result.from_remaining} left.",
], values={
    "note": [
        # Either envelope may be any expense category: notes that fit any pair.
        "Rebalancing for the month", "Unexpected expense came up", "Didn't need it all there",
        "Covering a busy month", "Shifting what I saved",
    ],
})
def move_budget(ctx: Ctx, from_category_id: ExpenseCategoryId, to_category_id: ExpenseCategoryId, amount: Money,
                month: Month | None = None, note: Note | None = None) -> MoveResult:
    """Move budget between two expense envelopes for one month (the current month or a later one).

    Only money not yet spent can move: the source must have at least `amount` remaining.

    Args:
        from_category_id: the envelope to take budget from, such as 'CAT-10007'.
        to_category_id: the envelope to give it to, such as 'CAT-10014'.
        amount: dollars to move, such as 50.0.
        month: the month as 'YYYY-MM', such as '2026-03'; default the current month.
        note: optional reason, such as 'covering dinner out'.

    Returns:
        The move, and what is left in both envelopes for the month afterwards.

    Raises:
        not_found: a category does not exist.
        same_category: the two categories are the same.
        category_kind_mismatch: a category is an income category.
        category_archived: a category is archived.
        invalid_month: the month is in the past or more than 12 months ahead.
        insufficient_budget: the source envelope has less than `amount` remaining for the month.
    """
    amount = money(amount)
    if from_category_id == to_category_id:
        ctx.get("category", from_category_id)
        raise ToolError("same_category", "The source and destination categories are the same.",
                        hint="Pick two different categories.")
    src = _expense_category(ctx, from_category_id)
    dst = _expense_category(ctx, to_category_id)
    month = _plannable(ctx, month)
    before = budget_status(ctx, src, month)
    if before.remaining < amount - 0.004:
        raise ToolError("insufficient_budget",
                        f"{src['name']} has only {fmt(max(before.remaining, 0))} left for {month}; "
                        f"cannot move {fmt(amount)}.",
                        hint="Move a smaller amount, or take it from an envelope with more left (list_categories).")
    to_before = budget_status(ctx, dst, month)
    set_budget(ctx, from_category_id, month, before.budgeted - amount)
    set_budget(ctx, to_category_id, month, to_before.budgeted + amount)
    mid = ctx.new_id("MOVE")
    ctx.db.execute("INSERT INTO budget_moves (move_id, month, from_category_id, to_category_id, amount, note, "
                   "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (mid, month, from_category_id, to_category_id, amount, note or None, ctx.now_iso()))
    left = money(to_before.remaining + amount)
    standing = f"now has {fmt(left)} left" if left > 0 else "now has nothing left" if left == 0 else \
        f"is still {fmt(-left)} over budget"
    return MoveResult(move=_move(ctx, mid), from_remaining=money(before.remaining - amount), to_remaining=left,
                      to_standing=standing)


@tools.tool(effect=READ, asks=[
    "What budget moves have I made in {month}?",
    "Show me the money I've moved in and out of {category_id}.",
], reply=[
    "Budget moves, newest first: {result.moves_text}.",
    "Here's what you've moved: {result.moves_text}.",
])
def list_budget_moves(ctx: Ctx, month: Month | None = None, category_id: CategoryId | None = None,
                      limit: Limit = 50) -> BudgetMoveList:
    """List moves of budget between envelopes, newest first.

    Args:
        month: only moves for this month, such as '2026-03'.
        category_id: only moves into or out of this category, such as 'CAT-10012'.
        limit: how many to return, 1 to 200 (default 50).

    Returns:
        The moves with both categories, amount, note and when each was made, and how many match.

    Raises:
        not_found: the category does not exist.
    """
    where = Where()
    where.eq("month", month)
    if category_id is not None:
        ctx.get("category", category_id)
        where.add("(from_category_id = ? OR to_category_id = ?)", category_id, category_id)
    total, ids = where.page(ctx.db, "budget_moves", "created_at DESC, move_id DESC", limit, select="move_id")
    moves = [_move(ctx, r["move_id"]) for r in ids]
    return BudgetMoveList(moves=moves, total=total, moves_text=_moves_text(moves, total, month))
