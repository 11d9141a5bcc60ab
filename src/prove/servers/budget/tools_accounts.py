"""Accounts and the monthly summary."""

from __future__ import annotations

from typing import Literal

from prove.env import READ, Ask, Ctx, Toolset
from prove.env.values import money

from .server import (
    Account,
    AccountList,
    CategoryLine,
    Month,
    MonthlySummary,
    account_model,
    budget_status,
    month_range,
)
from .world import month_of

tools = Toolset("accounts")


def _accounts_text(accounts: list[Account], status: str) -> str:
    """'Everyday Checking (Citi, ending 2536): $8,168.84; Citi Double Cash (credit card, ending 3298): you owe
    $1,011.95'; a closed account among open ones says so."""
    def one(a: Account) -> str:
        bank = "" if a.institution.lower() in a.name.lower() else a.institution  # not "Cash Wallet (Cash)"
        about = ", ".join(p for p in ("credit card" if a.type == "credit_card" else bank,
                                      f"ending {a.last4}" if a.last4 else "",
                                      "closed" if a.status == "closed" and status == "all" else "") if p)
        owed = a.type == "credit_card" and a.balance < 0
        amount = -a.balance if owed else a.balance
        head = f"{a.name} ({about})" if about else a.name
        return f"{head}: {'you owe ' if owed else ''}{'-' if amount < 0 else ''}${abs(amount):,.2f}"
    return "; ".join(one(a) for a in accounts) or "no accounts"


@tools.tool(effect=READ, asks=[
    "What accounts do I have and how much is in each?",
    Ask("Show me my closed accounts.", status="closed"),
    "Which accounts do I have, and what's the balance of each?",
    Ask("List every account I've ever had, closed ones too.", status="all"),
], reply=[
    Ask("Your accounts: {result.accounts_text}.", status="open"),
    Ask("Here's how much is in each account. {result.accounts_text}.", status="open"),
    Ask("Your closed accounts: {result.accounts_text}.", status="closed"),
    Ask("Every account you've had: {result.accounts_text}.", status="all"),
])
def list_accounts(ctx: Ctx, status: Literal["open", "closed", "all"] = "open") -> AccountList:
    """List the user's accounts (checking, savings, credit cards, cash) with balances.

    Args:
        status: which accounts to list: 'open' (default), 'closed' or 'all'.

    Returns:
        The accounts with balance, credit limit and available money, and the net worth of the
        open accounts (credit card balances are negative: money owed).
    """
    sql = "SELECT * FROM accounts" + ("" if status == "all" else " WHERE status = ?") + " ORDER BY account_id"
    rows = ctx.db.execute(sql, () if status == "all" else (status,)).fetchall()
    (net,) = ctx.db.execute("SELECT coalesce(sum(balance), 0) FROM accounts WHERE status = 'open'").fetchone()
    accounts = [account_model(r) for r in rows]
    return AccountList(accounts=accounts, total=len(rows), net_worth=money(net), accounts_text=_accounts_text(accounts, status))


@tools.tool(effect=READ, asks=[
    "How did I do with my budget in {month}?",
    "Give me a summary of my spending and income for {month}.",
    "Am I over budget anywhere this month?",
], reply=[
    "In {result.month}, income was ${result.income} and expenses were ${result.expenses}, {result.net_text}, "
    "with {result.over_budget_count} categories over budget: {result.over_budget_names}.",
    Ask("In {result.month}, income was ${result.income} and expenses were ${result.expenses}, {result.net_text}, "
        "with 1 category over budget: {result.over_budget_names}.", **{"result.over_budget_count": 1}),
    Ask("In {result.month}, income was ${result.income} and expenses were ${result.expenses}, {result.net_text}, "
        "and no category is over budget.", **{"result.over_budget_count": 0}),
])
def get_monthly_summary(ctx: Ctx, month: Month | None = None) -> MonthlySummary:
    """Summarise one month's income, expenses, goal savings and every category's budget.

    Each expense category shows its budget for the month, what was spent and what is left.

    Args:
        month: the month as 'YYYY-MM', such as '2026-02'; default the current month.

    Returns:
        Totals for the month, the names of the categories over budget, and one line per expense
        category (budgeted, spent, remaining, over_budget), categories that are over budget first.
    """
    month = month or month_of(ctx.today())
    start, end = month_range(month)
    totals = {k: v for k, v in ctx.db.execute(
        "SELECT kind, coalesce(sum(amount), 0) FROM transactions WHERE date >= ? AND date < ? GROUP BY kind",
        (start, end)).fetchall()}
    lines = []
    for cat in ctx.db.execute("SELECT * FROM categories WHERE kind = 'expense' ORDER BY group_name, name"):
        st = budget_status(ctx, cat, month)
        if cat["status"] == "archived" and st.budgeted == 0 and st.spent == 0:
            continue
        lines.append(CategoryLine(category_id=cat["category_id"], name=cat["name"], group=cat["group_name"],
                                  budgeted=st.budgeted, spent=st.spent, remaining=st.remaining,
                                  over_budget=st.over_budget))
    lines.sort(key=lambda x: (not x.over_budget, x.group, x.name))
    income, expenses = money(totals.get("income", 0.0)), money(-totals.get("expense", 0.0))
    total_budget = money(sum(x.budgeted for x in lines))
    net = money(income - expenses)
    net_text = f"a net of ${net:,.2f}" if net >= 0 else f"so ${-net:,.2f} more went out than came in"
    return MonthlySummary(month=month, income=income, expenses=expenses, net=net, net_text=net_text,
                          saved_to_goals=money(-totals.get("goal_transfer", 0.0)), budgeted=total_budget,
                          remaining=money(total_budget - expenses),
                          over_budget_count=sum(x.over_budget for x in lines),
                          over_budget_names=[x.name for x in lines if x.over_budget], categories=lines, total=len(lines))
