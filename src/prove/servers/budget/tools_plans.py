"""Budget tools for what is planned ahead: savings goals and recurring bills."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import money, said_in_part, spoken_day

from .server import (
    AccountId,
    BillId,
    BudgetStatus,
    CategoryId,
    ContributionId,
    ExpenseCategoryId,
    FundedGoalId,
    FundingAccountId,
    GoalId,
    Money,
    Name,
    SpendingAccountId,
    Transaction,
    TransactionId,
    active_category,
    available,
    balance_text,
    budget_status,
    change_balance,
    fmt,
    insert_tx,
    load_account,
    load_tx,
    over_budget_warnings,
)
from .world import BILL_IDS, BILLS, CATEGORY_IDS, add_months

# A bill can be paid from this many days before its due date.
# Per bill of the world catalog: amounts it may come to in a cycle, and a new usual amount.
CYCLE_AMOUNTS = [(BILL_IDS[b[2]], amount) for b in BILLS for amount in sorted(
    {round(b[4] + (b[5] - b[4]) * share, 2) for share in (0.3, 0.5, 0.7)})]
_RISES = {"Netflix": 17.99, "Spotify Premium": 12.99, "Disney+": 15.99, "iCloud+ storage": 3.99,
          "New York Times": 6.0}
NEW_AMOUNTS = [(BILL_IDS[name], amount) for name, amount in _RISES.items()] + [
    (BILL_IDS[b[2]], round(b[4] + (b[5] - b[4]) * 0.6, 2)) for b in BILLS if b[2] not in _RISES]

tools = Toolset("plans")


PAY_WINDOW_DAYS = 14
STEP_MONTHS = {"monthly": 1, "quarterly": 3, "yearly": 12}


# ----- goals -------------------------------------------------------------------------------------

class Goal(BaseModel):
    goal_id: GoalId
    name: str
    target_amount: float
    saved_amount: float
    remaining: float
    percent_complete: float
    target_date: str | None
    monthly_needed: float | None = Field(description="saving needed each month to reach the target on its date")
    status: Literal["active", "completed"]
    created_on: str
    completed_on: str | None


class GoalList(BaseModel):
    goals: list[Goal]
    total: int
    total_saved: float
    goals_text: str = Field(description="The goals and how far along each is, in words, such as 'New Bike: "
                                        "$150.00 of $950.00 saved (15.8%)'.")


def _goals_text(goals: list[Goal], status: str) -> str:
    """'Car Down Payment: $840.00 of $4,500.00 saved (18.7%); Holiday Gifts: reached, $900.00 saved'; a
    listing of reached goals does not say of each that it is reached."""
    def one(g: Goal) -> str:
        if g.status == "completed":
            return f"{g.name} ({_dollars(g.saved_amount)})" if status == "completed" else \
                f"{g.name}: reached, {_dollars(g.saved_amount)} saved"
        return f"{g.name}: {_dollars(g.saved_amount)} of {_dollars(g.target_amount)} saved ({g.percent_complete:g}%)"
    return "; ".join(one(g) for g in goals) or "no goals"


def _dollars(value: float) -> str:
    return f"-${-value:,.2f}" if value < 0 else f"${value:,.2f}"


class Contribution(BaseModel):
    contribution_id: ContributionId
    goal_id: GoalId
    account_id: AccountId
    transaction_id: TransactionId
    amount: float = Field(description="positive into the goal, negative taken back out")
    date: str


class GoalDetail(Goal):
    contributions: list[Contribution] = Field(description="newest first")
    contributions_text: str = Field(description="The latest contributions in words, such as '$40.00 on March 4 "
                                                "and $50.00 taken out on February 20'.")


def _contributions_text(contributions: list[Contribution], today: date) -> str:
    """'$40.00 on March 4, $40.00 on February 4, $40.00 on January 4 and 3 more'."""
    def one(c: Contribution) -> str:
        day = date.fromisoformat(c.date)
        when = f"{day:%B} {day.day}" + ("" if day.year == today.year else f", {day.year}")
        return f"{_dollars(c.amount)} on {when}" if c.amount >= 0 else f"{_dollars(-c.amount)} taken out on {when}"
    said = [one(c) for c in contributions[:3]]
    if len(contributions) > 3:
        said.append(f"{len(contributions) - 3} more")
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1] if said else "none yet"


class GoalTransferResult(BaseModel):
    goal: Goal
    contribution: Contribution
    account_balance: float
    completed_now: bool = Field(description="true when this contribution reached the target")


def _goal(ctx: Ctx, row: sqlite3.Row) -> Goal:
    remaining = money(max(row["target_amount"] - row["saved_amount"], 0))
    needed = None
    if row["target_date"] and row["status"] == "active":
        target = date.fromisoformat(row["target_date"])
        today = ctx.today()
        months = max((target.year - today.year) * 12 + target.month - today.month, 1)
        needed = money(remaining / months)
    pct = round(100 * row["saved_amount"] / row["target_amount"], 1) if row["target_amount"] else 100.0
    return Goal(goal_id=row["goal_id"], name=row["name"], target_amount=row["target_amount"],
                saved_amount=row["saved_amount"], remaining=remaining, percent_complete=pct,
                target_date=row["target_date"], monthly_needed=needed, status=row["status"],
                created_on=row["created_on"], completed_on=row["completed_on"])


def _contribution(ctx: Ctx, contribution_id: str) -> Contribution:
    row = ctx.db.execute("SELECT * FROM goal_contributions WHERE contribution_id = ?", (contribution_id,)).fetchone()
    return Contribution(**dict(row))


def _funding_account(ctx: Ctx, account_id: str) -> sqlite3.Row:
    acc = load_account(ctx, account_id)
    if acc["type"] == "credit_card":
        raise ToolError("wrong_account_type", f"{acc['name']} is a credit card; goals are funded from checking, "
                        "savings or cash.", hint="Use a checking, savings or cash account from list_accounts.")
    return acc


def _goal_transfer(ctx: Ctx, goal: sqlite3.Row, acc: sqlite3.Row, amount: float) -> GoalTransferResult:
    """Move `amount` from the account into the goal (negative: back out of it)."""
    balance = change_balance(ctx, acc, -amount)
    saved = money(goal["saved_amount"] + amount)
    reached = saved >= goal["target_amount"] - 0.004
    completed_on = (goal["completed_on"] or ctx.today().isoformat()) if reached else None
    ctx.db.execute("UPDATE goals SET saved_amount = ?, status = ?, completed_on = ? WHERE goal_id = ?",
                   (saved, "completed" if reached else "active", completed_on, goal["goal_id"]))
    verb = "Goal" if amount > 0 else "From goal"
    tid = insert_tx(ctx, account_id=acc["account_id"], category_id=None, day=ctx.today(), amount=-amount,
                    payee=f"{verb}: {goal['name']}", note=None, kind="goal_transfer", goal_id=goal["goal_id"])
    cid = ctx.new_id("CONTRIB")
    ctx.db.execute("INSERT INTO goal_contributions (contribution_id, goal_id, account_id, transaction_id, amount, "
                   "date) VALUES (?, ?, ?, ?, ?, ?)",
                   (cid, goal["goal_id"], acc["account_id"], tid, money(amount), ctx.today().isoformat()))
    return GoalTransferResult(goal=_goal(ctx, ctx.get("goal", goal["goal_id"])), contribution=_contribution(ctx, cid),
                              account_balance=balance, completed_now=reached and goal["status"] != "completed")


@tools.tool(effect=READ, asks=[
    "How are my savings goals coming along?",
    Ask("Which savings goals have I reached already?", status="completed"),
    Ask("Show all my savings goals, finished ones too.", status="all"),
], reply=[
    Ask("Your savings goals: {result.goals_text}.", status="all"),
    Ask("Here's where your goals stand. {result.goals_text}.", status="all"),
    Ask("Your goals in progress: {result.goals_text}.", status="active"),
    Ask("You've reached {result.goals_text}.", status="completed"),
])
def list_goals(ctx: Ctx, status: Literal["active", "completed", "all"] = "all") -> GoalList:
    """List the user's savings goals with progress.

    Args:
        status: 'active', 'completed' or 'all' (default).

    Returns:
        The goals with target, saved, remaining, percent complete, target date and the monthly
        saving needed to reach it, and the total saved across them.
    """
    sql = "SELECT * FROM goals" + ("" if status == "all" else " WHERE status = ?") + " ORDER BY goal_id"
    rows = ctx.db.execute(sql, () if status == "all" else (status,)).fetchall()
    goals = [_goal(ctx, r) for r in rows]
    return GoalList(goals=goals, total=len(goals), total_saved=money(sum(g.saved_amount for g in goals)),
                    goals_text=_goals_text(goals, status))


@tools.tool(effect=READ, asks=[
    "How much have I saved toward {goal_id}?",
    "Show me {goal_id} and all my contributions to it.",
], reply=[
    "You've saved ${result.saved_amount} of ${result.target_amount} toward {goal_id}, {result.percent_complete}% "
    "of the way.",
    "{goal_id} has ${result.saved_amount} of ${result.target_amount} saved ({result.percent_complete}%); your "
    "contributions: {result.contributions_text}.",
])
def get_goal(ctx: Ctx, goal_id: GoalId) -> GoalDetail:
    """Look up one savings goal with its contribution history.

    Args:
        goal_id: ID of the goal, such as 'GOAL-10001'.

    Returns:
        The goal's progress and every contribution (and withdrawal), newest first.

    Raises:
        not_found: no goal has that ID.
    """
    goal = _goal(ctx, ctx.get("goal", goal_id))
    rows = ctx.db.execute("SELECT * FROM goal_contributions WHERE goal_id = ? ORDER BY date DESC, contribution_id DESC",
                          (goal_id,)).fetchall()
    contributions = [Contribution(**dict(r)) for r in rows]
    return GoalDetail(**goal.model_dump(), contributions=contributions,
                      contributions_text=_contributions_text(contributions, ctx.today()))


@tools.tool(effect=WRITE, asks=[
    "Start a savings goal called {name} for ${target_amount} by {target_date}.",
    "I want to save ${target_amount} for {name}.",
], reply=[
    "Started the goal '{result.name}': ${result.target_amount} to save.",
    "Your goal '{result.name}' is set up, with nothing saved toward it yet.",
], values={
    "name": ["Kitchen Remodel", "Japan Trip", "New Couch", "Grad School Fund", "Camera Upgrade",
             "Anniversary Trip", "Moving Costs", "Concert Season"],
})
def create_goal(ctx: Ctx, name: Name, target_amount: Money, target_date: date | None = None) -> Goal:
    """Create a savings goal.

    Args:
        name: the goal's name, unique, such as 'Trip to Japan'.
        target_amount: dollars to save, such as 3000.0.
        target_date: optional date to reach it by, such as '2026-12-01'; after today.

    Returns:
        The new goal, with nothing saved yet and the monthly saving needed if it has a date.

    Raises:
        duplicate_name: a goal already has that name.
        invalid_date: the target date is not after today or is more than 30 years away.
    """
    clash = ctx.db.execute("SELECT goal_id FROM goals WHERE name = ? COLLATE NOCASE", (name,)).fetchone()
    if clash is not None:
        raise ToolError("duplicate_name", f"A goal named {name!r} already exists ({clash['goal_id']}).",
                        hint="Choose another name, or contribute to the existing goal.")
    today = ctx.today()
    if target_date is not None and not today < target_date <= today + timedelta(days=365 * 30):
        raise ToolError("invalid_date", f"The target date {target_date.isoformat()} must be after today "
                        f"({today.isoformat()}) and within 30 years.", hint="Pick a later date, or none.")
    gid = ctx.new_id("GOAL")
    ctx.db.execute("INSERT INTO goals (goal_id, name, target_amount, saved_amount, target_date, status, created_on, "
                   "completed_on) VALUES (?, ?, ?, 0, ?, 'active', ?, NULL)",
                   (gid, name, money(target_amount), target_date.isoformat() if target_date else None,
                    today.isoformat()))
    return _goal(ctx, ctx.get("goal", gid))


@tools.tool(effect=WRITE, asks=[
    "Put ${amount} from {account_id} toward {goal_id}.",
    "Contribute ${amount} to {goal_id} using {account_id}.",
], reply=[
    "Added ${amount} to {result.goal.name}; you're at {result.goal.percent_complete}%.",
    "Set aside ${amount} for {goal_id}; {result.goal.remaining} dollars to go.",
])
def contribute_to_goal(ctx: Ctx, goal_id: GoalId, amount: Money, account_id: FundingAccountId) -> GoalTransferResult:
    """Set money aside from an account into a savings goal.

    Reaching the target completes the goal.

    Args:
        goal_id: the goal, such as 'GOAL-10001'.
        amount: dollars to set aside, such as 200.0.
        account_id: the checking, savings or cash account to take it from, such as 'ACC-10001'.

    Returns:
        The goal's new progress, the contribution, the account's new balance and whether the
        goal was completed by it.

    Raises:
        not_found: the goal or account does not exist.
        goal_completed: the goal has already reached its target.
        exceeds_target: `amount` is more than the goal still needs.
        account_closed: the account is closed.
        wrong_account_type: the account is a credit card.
        insufficient_funds: the account has less than `amount`.
    """
    amount = money(amount)
    goal = ctx.get("goal", goal_id)
    acc = _funding_account(ctx, account_id)
    if goal["status"] == "completed":
        raise ToolError("goal_completed", f"{goal['name']} already reached its {fmt(goal['target_amount'])} target.",
                        hint="Create a new goal, or withdraw from this one with withdraw_from_goal.")
    remaining = money(goal["target_amount"] - goal["saved_amount"])
    if amount > remaining + 0.004:
        raise ToolError("exceeds_target",
                        f"{goal['name']} needs only {fmt(remaining)} more; {fmt(amount)} is too much.",
                        hint=f"Contribute {fmt(remaining)} or less.")
    return _goal_transfer(ctx, goal, acc, amount)


@tools.tool(effect=WRITE, asks=[
    "Take ${amount} out of {goal_id} and put it back in {account_id}.",
    "Withdraw ${amount} from {goal_id} into {account_id}.",
], reply=[
    "Moved ${amount} from {result.goal.name} back to {account_id}.",
    "Took ${amount} out of {goal_id}; {result.goal.saved_amount} dollars remain saved.",
])
def withdraw_from_goal(ctx: Ctx, goal_id: FundedGoalId, amount: Money,
                       account_id: FundingAccountId) -> GoalTransferResult:
    """Take money back out of a savings goal into an account.

    A completed goal that drops below its target becomes active again.

    Args:
        goal_id: the goal, such as 'GOAL-10001'.
        amount: dollars to take out, such as 150.0.
        account_id: the checking, savings or cash account to put it in, such as 'ACC-10002'.

    Returns:
        The goal's new progress, the withdrawal (a negative contribution) and the account's new balance.

    Raises:
        not_found: the goal or account does not exist.
        insufficient_goal_balance: the goal holds less than `amount`.
        account_closed: the account is closed.
        wrong_account_type: the account is a credit card.
    """
    amount = money(amount)
    goal = ctx.get("goal", goal_id)
    acc = _funding_account(ctx, account_id)
    if amount > goal["saved_amount"] + 0.004:
        raise ToolError("insufficient_goal_balance",
                        f"{goal['name']} holds only {fmt(goal['saved_amount'])}; cannot take out {fmt(amount)}.",
                        hint=f"Withdraw {fmt(goal['saved_amount'])} or less.")
    return _goal_transfer(ctx, goal, acc, -amount)


# ----- bills -------------------------------------------------------------------------------------

class Bill(BaseModel):
    bill_id: BillId
    name: str
    payee: str
    amount: float
    category_id: CategoryId
    category_name: str
    account_id: AccountId
    account_name: str
    frequency: Literal["weekly", "monthly", "quarterly", "yearly"]
    next_due_date: str
    days_until_due: int = Field(description="negative when overdue")
    overdue: bool
    autopay: bool
    status: Literal["active", "cancelled"]
    last_paid_on: str | None


class BillList(BaseModel):
    bills: list[Bill]
    total: int
    total_amount: float = Field(description="sum of the listed bills' amounts")
    bills_text: str = Field(description="the bills in words, soonest first, such as 'Internet, $67.00 a month, "
                                        "overdue since March 4; Spotify Premium, $11.99 a month, due March 20'")


_EVERY = {"weekly": "a week", "monthly": "a month", "quarterly": "a quarter", "yearly": "a year"}


def _bills_text(bills: list[Bill], today: date, status: str) -> str:
    """'Internet, $67.00 a month, overdue since March 4; Spotify Premium, $11.99 a month, due March 20', a
    cancelled one said so where the request did not ask for those alone."""
    def one(b: Bill) -> str:
        head = f"{b.name}, ${b.amount:,.2f} {_EVERY[b.frequency]}"
        if b.status == "cancelled":
            return head if status == "cancelled" else f"{head} (cancelled)"
        due = spoken_day(b.next_due_date, today)
        return f"{head}, overdue since {due}" if b.overdue else f"{head}, due {due}"
    return said_in_part([one(b) for b in bills[:8]], len(bills), "no bills", noun="bill")


class BillPayment(BaseModel):
    bill: Bill = Field(description="the bill, with its next due date moved on")
    transaction: Transaction
    account_balance: float
    balance_text: str = Field(description="the account's balance in words, such as 'you owe $1,011.95 on Citi "
                                          "Double Cash'")
    budget: BudgetStatus
    limit_exceeded: bool
    warnings: list[str]


BILL_SELECT = ("SELECT b.*, c.name AS category_name, a.name AS account_name FROM bills b "
               "JOIN categories c ON c.category_id = b.category_id JOIN accounts a ON a.account_id = b.account_id")


def _bill_row(ctx: Ctx, bill_id: str) -> sqlite3.Row:
    return ctx.get("bill", bill_id, BILL_SELECT + " WHERE b.bill_id = ?")


def _bill(ctx: Ctx, row: sqlite3.Row) -> Bill:
    days = (date.fromisoformat(row["next_due_date"]) - ctx.today()).days
    return Bill(bill_id=row["bill_id"], name=row["name"], payee=row["payee"], amount=row["amount"],
                category_id=row["category_id"], category_name=row["category_name"], account_id=row["account_id"],
                account_name=row["account_name"], frequency=row["frequency"], next_due_date=row["next_due_date"],
                days_until_due=days, overdue=days < 0 and row["status"] == "active", autopay=bool(row["autopay"]),
                status=row["status"], last_paid_on=row["last_paid_on"])


def _active_bill(ctx: Ctx, bill_id: str) -> sqlite3.Row:
    row = _bill_row(ctx, bill_id)
    if row["status"] != "active":
        raise ToolError("bill_cancelled", f"The bill {row['name']!r} ({bill_id}) is cancelled.",
                        hint="Add it again with add_bill if it should restart.")
    return row


def _check_due_date(ctx: Ctx, day: date) -> str:
    today = ctx.today()
    if not today <= day <= today + timedelta(days=366):
        raise ToolError("invalid_date", f"The due date {day.isoformat()} must be between today "
                        f"({today.isoformat()}) and a year from now.", hint="Give the next date the bill is due.")
    return day.isoformat()


def _next_due(day: date, frequency: str) -> date:
    return day + timedelta(days=7) if frequency == "weekly" else add_months(day, STEP_MONTHS[frequency])


def run_autopay(ctx: Ctx, until: date) -> None:
    """Pay every autopay bill that came due up to `until`, on its due date, from its account.

    A payment the account cannot cover is skipped, and the bill stays overdue for the user.
    """
    rows = ctx.db.execute(BILL_SELECT + " WHERE b.status = 'active' AND b.autopay = 1 AND b.next_due_date <= ? "
                          "ORDER BY b.next_due_date, b.bill_id", (until.isoformat(),)).fetchall()
    for row in rows:
        due = date.fromisoformat(row["next_due_date"])
        last = row["last_paid_on"]
        while due <= until:
            acc = ctx.db.execute("SELECT * FROM accounts WHERE account_id = ?", (row["account_id"],)).fetchone()
            if acc["status"] != "open" or available(acc) < row["amount"]:
                break
            ctx.db.execute("UPDATE accounts SET balance = ? WHERE account_id = ?",
                           (money(acc["balance"] - row["amount"]), acc["account_id"]))
            insert_tx(ctx, account_id=acc["account_id"], category_id=row["category_id"], day=due,
                      amount=-row["amount"], payee=row["payee"], note=f"Autopay: {row['name']}", kind="expense",
                      bill_id=row["bill_id"])
            last = due.isoformat()
            due = _next_due(due, row["frequency"])
        ctx.db.execute("UPDATE bills SET next_due_date = ?, last_paid_on = ? WHERE bill_id = ?",
                       (due.isoformat(), last, row["bill_id"]))


@tools.tool(effect=READ, asks=[
    "What bills do I have coming up in the next {due_within_days} days?",
    "List my recurring bills.",
    Ask("Which bills have I cancelled?", status="cancelled"),
], reply=[
    Ask("Your bills, soonest first: {result.bills_text}.", status="active"),
    Ask("You've cancelled {result.bills_text}.", status="cancelled"),
    Ask("All your bills: {result.bills_text}.", status="all"),
])
def list_bills(ctx: Ctx, status: Literal["active", "cancelled", "all"] = "active",
               due_within_days: Annotated[int, Field(ge=0, le=366)] | None = None) -> BillList:
    """List recurring bills by due date (overdue ones first).

    Args:
        status: 'active' (default), 'cancelled' or 'all'.
        due_within_days: only bills due within this many days from today, overdue ones included, such as 7.

    Returns:
        The bills with amount, category, paying account, next due date, days until due and
        whether each is overdue or on autopay, and the sum of their amounts.
    """
    where = Where()
    if status != "all":
        where.add("b.status = ?", status)
    if due_within_days is not None:
        horizon = ctx.today() + timedelta(days=due_within_days)
        where.add("b.next_due_date <= ?", horizon.isoformat())
    rows = ctx.db.execute(f"{BILL_SELECT}{where.clause} ORDER BY b.next_due_date, b.bill_id", where.params).fetchall()
    bills = [_bill(ctx, r) for r in rows]
    return BillList(bills=bills, total=len(bills), total_amount=money(sum(b.amount for b in bills)),
                    bills_text=_bills_text(bills, ctx.today(), status))


# cash in a wallet pays nothing automatically
_AUTOPAYS = {"account_id": "type != 'cash'"}


@tools.tool(effect=WRITE, asks=[
    ("Add a {frequency} bill called '{name}': ${amount} to {payee}, next due {next_due_date}, paid from "
     "{account_id} under {category_id}."),
    ("Track my new {name} bill with {payee}: ${amount} {frequency} from {account_id}, under "
     "{category_id}, first due {next_due_date}."),
    Ask("Set up a bill '{name}': ${amount} to {payee} every month from {account_id}, filed under {category_id}, next due "
        "{next_due_date}, and pay it automatically.", frequency="monthly", autopay=True, fits=_AUTOPAYS),
], reply=[
    "Added the {frequency} bill '{result.name}'; next due {result.next_due_date}.",
    "The bill '{result.name}' is tracked now: ${result.amount} {frequency}, next due {result.next_due_date}.",
], values={
    # A bill with its payee, the category it belongs under, how often it comes and what it costs:
    # a monthly one for every expense category a world may hold.
    "name, payee, category_id, frequency, amount": [
        ("Hulu", "Hulu", CATEGORY_IDS["Subscriptions"], "monthly", 17.99),
        ("YouTube Premium", "Google", CATEGORY_IDS["Subscriptions"], "monthly", 13.99),
        ("Cloud storage", "Dropbox", CATEGORY_IDS["Subscriptions"], "yearly", 119.88),
        ("Audible", "Audible", CATEGORY_IDS["Subscriptions"], "monthly", 14.95),
        ("Meal kit", "HelloFresh", CATEGORY_IDS["Groceries"], "weekly", 59.99),
        ("Grocery delivery", "Instacart", CATEGORY_IDS["Groceries"], "monthly", 9.99),
        ("Pet food delivery", "Chewy", CATEGORY_IDS["Pets"], "monthly", 45.0),
        ("Pet insurance", "Lemonade Pet", CATEGORY_IDS["Insurance"], "monthly", 24.0),
        ("Dog walker", "Rover", CATEGORY_IDS["Pets"], "weekly", 75.0),
        ("Yoga classes", "CorePower Yoga", CATEGORY_IDS["Fitness"], "monthly", 89.0),
        ("Second phone line", "Mint Mobile", CATEGORY_IDS["Phone & Internet"], "monthly", 15.0),
        ("Home insurance", "State Farm", CATEGORY_IDS["Insurance"], "quarterly", 310.0),
        *((name, payee, CATEGORY_IDS[category], frequency, amount) for category, name, payee, frequency, amount in (
            ("Rent", "Storage unit", "Public Storage", "monthly", 89.0),
            ("Utilities", "Gas service", "City Gas Company", "monthly", 45.0),
            ("Dining Out", "Lunch plan", "Sweetgreen", "monthly", 60.0),
            ("Coffee Shops", "Coffee subscription", "Blue Bottle Coffee", "monthly", 22.0),
            ("Gas & Fuel", "Fuel rewards plan", "Shell", "monthly", 9.99),
            ("Rideshare", "Uber One", "Uber", "monthly", 9.99),
            ("Public Transit", "Monthly transit pass", "Metro Transit", "monthly", 100.0),
            ("Pharmacy", "Prescription refill", "CVS Pharmacy", "monthly", 15.0),
            ("Medical", "Dental plan", "Bright Smile Dental", "monthly", 29.0),
            ("Shopping", "Walmart+", "Walmart", "monthly", 12.95),
            ("Shopping", "Amazon Prime", "Amazon", "yearly", 139.0),
            ("Clothing", "Clothing box", "Stitch Fix", "monthly", 20.0),
            ("Entertainment", "Movie pass", "AMC Theatres", "monthly", 24.95),
            ("Personal Care", "Haircut membership", "Great Clips", "monthly", 30.0),
            ("Gifts & Donations", "Monthly donation", "American Red Cross", "monthly", 25.0),
            ("Travel", "Travel insurance", "Allianz Travel", "monthly", 12.0),
            ("Household", "Cleaning service", "Merry Maids", "monthly", 120.0),
            ("Education", "Coursera Plus", "Coursera", "monthly", 59.0))),
    ],
})
def add_bill(ctx: Ctx, name: Name, payee: Name, amount: Money, category_id: ExpenseCategoryId, account_id: SpendingAccountId,
             frequency: Literal["weekly", "monthly", "quarterly", "yearly"], next_due_date: date,
             autopay: bool = False) -> Bill:
    """Start tracking a recurring bill.

    Args:
        name: the bill's name, such as 'Internet'.
        payee: who is paid, such as 'Comcast Xfinity'.
        amount: the usual amount in dollars, such as 79.99.
        category_id: the expense category it is paid from, such as 'CAT-10003'.
        account_id: the account that pays it, such as 'ACC-10001'.
        frequency: 'weekly', 'monthly', 'quarterly' or 'yearly'.
        next_due_date: the next date it is due, such as '2026-04-05'; from today to a year ahead.
        autopay: whether it is paid automatically (default false).

    Returns:
        The new bill.

    Raises:
        not_found: the category or account does not exist.
        duplicate_name: an active bill already has that name.
        category_archived: the category is archived.
        category_kind_mismatch: the category is an income category.
        account_closed: the account is closed.
        invalid_date: the due date is in the past or more than a year ahead.
    """
    active_category(ctx, category_id, "expense")
    load_account(ctx, account_id)
    clash = ctx.db.execute("SELECT bill_id FROM bills WHERE name = ? COLLATE NOCASE AND status = 'active'",
                           (name,)).fetchone()
    if clash is not None:
        raise ToolError("duplicate_name", f"An active bill named {name!r} already exists ({clash['bill_id']}).",
                        hint="Choose another name, or change the existing bill with update_bill.")
    due = _check_due_date(ctx, next_due_date)
    bid = ctx.new_id("BILL")
    ctx.db.execute("INSERT INTO bills (bill_id, name, payee, amount, category_id, account_id, frequency, "
                   "next_due_date, autopay, status, last_paid_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', NULL)",
                   (bid, name, payee, money(amount), category_id, account_id, frequency, due, int(autopay)))
    return _bill(ctx, _bill_row(ctx, bid))


@tools.tool(effect=WRITE, asks=[
    "Update {bill_id}: it's ${amount} now.",
    Ask("Pay {bill_id} from {account_id} from now on, automatically.", autopay=True, fits=_AUTOPAYS),
    "Push the next due date of {bill_id} to {next_due_date}.",
    Ask("Stop paying {bill_id} automatically; I'll pay it myself.", autopay=False),
], reply=[
    Ask("{result.name} is paid automatically from {account_id} from now on.", autopay=True),
    Ask("Autopay is off for {result.name}; you'll pay it yourself from now on.", autopay=False),
    "Updated {result.name}: ${result.amount}, next due {result.next_due_date}.",
], values={
    # A new price a bill may have: a subscription's price rise, or a usage bill within its range.
    "bill_id, amount": NEW_AMOUNTS,
})
def update_bill(ctx: Ctx, bill_id: BillId, amount: Money | None = None, next_due_date: date | None = None,
                account_id: SpendingAccountId | None = None, category_id: ExpenseCategoryId | None = None,
                autopay: bool | None = None) -> Bill:
    """Change an active bill's amount, next due date, paying account, category or autopay.

    Args:
        bill_id: the bill, such as 'BILL-10002'.
        amount: the new usual amount in dollars, such as 84.99.
        next_due_date: the new next due date, such as '2026-04-10'; from today to a year ahead.
        account_id: the new paying account, such as 'ACC-10003'.
        category_id: the new expense category, such as 'CAT-10004'.
        autopay: whether it is paid automatically.

    Returns:
        The updated bill.

    Raises:
        not_found: the bill, account or category does not exist.
        bill_cancelled: the bill is cancelled.
        no_changes: no field to change was given.
        account_closed: the new account is closed.
        category_archived: the new category is archived.
        category_kind_mismatch: the new category is an income category.
        invalid_date: the due date is in the past or more than a year ahead.
    """
    row = _active_bill(ctx, bill_id)
    if amount is None and next_due_date is None and account_id is None and category_id is None and autopay is None:
        raise ToolError("no_changes", "Nothing to change was given.",
                        hint="Pass at least one of amount, next_due_date, account_id, category_id or autopay.")
    if account_id is not None:
        load_account(ctx, account_id)
    if category_id is not None:
        active_category(ctx, category_id, "expense")
    due = _check_due_date(ctx, next_due_date) if next_due_date is not None else row["next_due_date"]
    ctx.db.execute("UPDATE bills SET amount = ?, next_due_date = ?, account_id = ?, category_id = ?, autopay = ? "
                   "WHERE bill_id = ?",
                   (money(amount) if amount is not None else row["amount"], due, account_id or row["account_id"],
                    category_id or row["category_id"], row["autopay"] if autopay is None else int(autopay), bill_id))
    return _bill(ctx, _bill_row(ctx, bill_id))


@tools.tool(effect=WRITE, asks=[
    "Pay {bill_id}.",
    "Pay {bill_id} now; it came to ${amount} this time. Use {account_id}.",
], reply=[
    "Paid {result.bill.name}; next due {result.bill.next_due_date}.",
    "{bill_id} is paid; {result.balance_text} now.",
], values={
    # What a bill may come to this cycle: within the range its amount is drawn from (world.BILLS).
    "bill_id, amount": CYCLE_AMOUNTS,
})
def pay_bill(ctx: Ctx, bill_id: BillId, amount: Money | None = None,
             account_id: SpendingAccountId | None = None) -> BillPayment:
    """Pay the current cycle of a recurring bill today.

    Records the expense in the bill's category and moves the bill's next due date one period on.
    A bill can be paid once it is due within 14 days (or overdue). Budgets only warn here: a
    bill is never refused for being over budget.

    Args:
        bill_id: the bill, such as 'BILL-10002'.
        amount: the amount due this time in dollars, such as 92.4; default the bill's usual amount.
        account_id: the account to pay from, such as 'ACC-10001'; default the bill's account.

    Returns:
        The bill with its new due date, the expense transaction, the account's new balance and the
        category's budget for this month with any warnings.

    Raises:
        not_found: the bill or account does not exist.
        bill_cancelled: the bill is cancelled.
        not_due_yet: the bill's next due date is more than 14 days away (this cycle is already paid).
        account_closed: the account is closed.
        insufficient_funds: the account does not have the amount available.
    """
    row = _active_bill(ctx, bill_id)
    today = ctx.today()
    due = date.fromisoformat(row["next_due_date"])
    acc = load_account(ctx, account_id or row["account_id"])
    if due > today + timedelta(days=PAY_WINDOW_DAYS):
        paid = f" (last paid {row['last_paid_on']})" if row["last_paid_on"] else ""
        raise ToolError("not_due_yet", f"{row['name']} is next due on {due.isoformat()}{paid}; bills can be paid "
                        f"from {PAY_WINDOW_DAYS} days before the due date.",
                        hint=f"Pay it from {(due - timedelta(days=PAY_WINDOW_DAYS)).isoformat()} on.")
    pay = money(amount if amount is not None else row["amount"])
    cat = ctx.get("category", row["category_id"])
    before = budget_status(ctx, cat, today.strftime("%Y-%m"))
    balance = change_balance(ctx, acc, -pay)
    tid = insert_tx(ctx, account_id=acc["account_id"], category_id=row["category_id"], day=today, amount=-pay,
                    payee=row["payee"], note=f"{row['name']} due {due:%B} {due.day}", kind="expense", bill_id=bill_id)
    ctx.db.execute("UPDATE bills SET next_due_date = ?, last_paid_on = ? WHERE bill_id = ?",
                   (_next_due(due, row["frequency"]).isoformat(), today.isoformat(), bill_id))
    status = budget_status(ctx, cat, today.strftime("%Y-%m"))
    return BillPayment(bill=_bill(ctx, _bill_row(ctx, bill_id)), transaction=load_tx(ctx, tid), account_balance=balance,
                       balance_text=balance_text(acc, balance),
                       budget=status, limit_exceeded=status.over_budget,
                       warnings=over_budget_warnings(status, before.remaining))


@tools.tool(effect=WRITE, asks=[
    "Cancel {bill_id}, I don't need to track it anymore.",
    "Stop tracking {bill_id}.",
], reply=[
    "Cancelled {bill_id}; it won't come due again.",
    "{bill_id} is cancelled.",
])
def cancel_bill(ctx: Ctx, bill_id: BillId) -> Bill:
    """Cancel a recurring bill (an ended subscription or a paid-off plan); its past payments stay.

    Args:
        bill_id: the bill, such as 'BILL-10006'.

    Returns:
        The cancelled bill.

    Raises:
        not_found: no bill has that ID.
        already_cancelled: the bill is already cancelled.
    """
    row = _bill_row(ctx, bill_id)
    if row["status"] == "cancelled":
        raise ToolError("already_cancelled", f"The bill {row['name']!r} ({bill_id}) is already cancelled.")
    ctx.db.execute("UPDATE bills SET status = 'cancelled' WHERE bill_id = ?", (bill_id,))
    return _bill(ctx, _bill_row(ctx, bill_id))
