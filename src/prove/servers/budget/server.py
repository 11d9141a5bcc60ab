"""The budget server's declaration: a personal budgeting app of one signed-in user.

This module declares the server, the entity kinds, the shared result models and helpers. The tools
live by area, each a toolset that `__init__.py` includes:

- `tools_accounts.py`: accounts and the monthly summary;
- `tools_activity.py`: transactions (expenses, income, edits);
- `tools_envelopes.py`: categories, monthly budgets and moves between envelopes;
- `tools_plans.py`: savings goals and recurring bills.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import money

from .world import CATEGORY_IDS, VARIABLE, build_world

ACCOUNT = EntityKind("account", table="accounts", key="account_id", label="name",
                     description="a bank account, credit card or cash wallet of the user", live="status = 'open'")
CATEGORY = EntityKind("category", table="categories", key="category_id", label="name",
                      description="a budget category (envelope) for expenses or income", live="status = 'active'")
TRANSACTION = EntityKind("transaction", table="transactions", key="transaction_id", label="payee",
                         description="an expense, income or goal transfer on an account",
                         # "from Citi Double Cash" reads as where the money came from
                         links=(("account_id", "on"), ("category_id", "under")))
BILL = EntityKind("bill", table="bills", key="bill_id", label="name",
                  description="a recurring bill such as rent or a subscription", live="status = 'active'")
GOAL = EntityKind("goal", table="goals", key="goal_id", label="name", noun="savings goal",
                  description="a savings goal with a target amount", live="status = 'active'")
CONTRIBUTION = EntityKind("contribution", table="goal_contributions", key="contribution_id", label="date",
                          description="money set aside into (or taken back from) a savings goal")
BUDGET_MOVE = EntityKind("budget_move", table="budget_moves", key="move_id", label="note",
                         description="budget moved from one envelope to another for a month")

server = Server(
    "budget", "Personal budget",
    "The personal budgeting app of one signed-in user: accounts (checking, savings, credit cards, "
    "cash), budget categories ('envelopes') with monthly limits, expenses and income, moving money "
    "between envelopes, savings goals with contributions, recurring bills and monthly summaries. "
    "Going over a budget is reported as a warning, except in strict categories, which refuse it.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[ACCOUNT, CATEGORY, TRANSACTION, BILL, GOAL, CONTRIBUTION, BUDGET_MOVE],
)

AccountId = ACCOUNT.id
CategoryId = CATEGORY.id
TransactionId = TRANSACTION.id
BillId = BILL.id
GoalId = GOAL.id
ContributionId = CONTRIBUTION.id
MoveId = BUDGET_MOVE.id

# Subsets that a tool accepts.
ExpenseCategoryId = CATEGORY.where("kind = 'expense'")
LimitCategoryId = CATEGORY.where("kind = 'expense' AND name != 'Rent'")
IncomeCategoryId = CATEGORY.where("kind = 'income'")
UnbilledCategoryId = CATEGORY.where("category_id NOT IN (SELECT category_id FROM bills WHERE status = 'active')")
FundingAccountId = ACCOUNT.where("type != 'credit_card'")
# Where pay and refunds are deposited: a bank account, not the cash wallet.
IncomeAccountId = ACCOUNT.where("type IN ('checking', 'savings') AND status = 'open'")
# What purchases and bills are paid with: checking, a card or cash, not the savings account.
SpendingAccountId = ACCOUNT.where("type IN ('checking', 'credit_card', 'cash') AND status = 'open'")
FundedGoalId = GOAL.where("saved_amount > 0")
EverydayCategoryId = CATEGORY.where("kind = 'expense' AND category_id NOT IN "
                                    "(SELECT category_id FROM bills WHERE status = 'active')")
# Entries that a correction takes: grocery purchases, which may belong under Shopping or Household.
# They come from other grocers than the corrected payees of GROCERY_FIXES: a fix changes the store.
GroceryEntryId = TRANSACTION.where(f"kind = 'expense' AND category_id = '{CATEGORY_IDS['Groceries']}' "
                                   "AND payee IN ('Safeway', 'Kroger', 'Costco', 'Aldi')")
# Entries a person looks up or deletes by payee and day; a goal transfer is followed through its goal (get_goal).
EntryId = TRANSACTION.where("kind != 'goal_transfer'")
GroceryRefileId = CATEGORY.where(f"category_id IN ('{CATEGORY_IDS['Shopping']}', '{CATEGORY_IDS['Household']}')")

Month = Annotated[str, Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]
Money = Annotated[float, Field(ge=0.01, le=1_000_000)]
Limit = Annotated[int, Field(ge=1, le=200)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Note = Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)]

# How far back an entry may be dated.
BACKDATE_DAYS = 365


# Candidate entries for synthesized requests (`values=` of the transaction tools): an expense's
# category with payees that sell what it covers and notes that fit every one of them. Categories keep their IDs in every world
# (world.CATEGORY_IDS), so a drawn category picks its own payees.
_EXPENSES = {
    "Groceries": (("Whole Foods Market", "Trader Joe's", "Safeway", "Costco"),
                  ("Monthly stock-up", "Bought in bulk", "Split with roommate")),
    "Dining Out": (("Chipotle", "Olive Garden", "Panera Bread", "Shake Shack"),
                   ("Birthday dinner", "Split with roommate", "Lunch with a client, to be reimbursed")),
    "Coffee Shops": (("Starbucks", "Blue Bottle Coffee", "Peet's Coffee"),
                     ("Coffee with a friend", "Morning coffee before work")),
    "Gas & Fuel": (("Shell", "Chevron", "BP"), ("Filled up the tank", "Gas for the road trip")),
    "Rideshare": (("Uber", "Lyft"), ("Ride to the airport", "Work trip, to be reimbursed")),
    "Public Transit": (("Metro Transit", "Amtrak"), ("Monthly pass", "Train to visit family")),
    "Pharmacy": (("CVS Pharmacy", "Walgreens"), ("Prescription refill", "Cold medicine")),
    "Medical": (("One Medical", "Bright Smile Dental"), ("Copay", "Annual checkup")),
    "Shopping": (("Amazon", "Target", "Best Buy"), ("Gift for Mom", "Refund expected")),
    "Clothing": (("Uniqlo", "Nike", "Zara"), ("New work clothes", "Refund expected")),
    "Entertainment": (("AMC Theatres", "Ticketmaster", "Regal Cinemas"), ("Night out with friends", "Date night")),
    "Personal Care": (("Supercuts", "Sephora", "Great Clips"), ("Monthly haircut", "Treat for myself")),
    "Pets": (("Chewy", "Petco", "PetSmart"), ("Dog food", "New leash and toys")),
    "Gifts & Donations": (("Etsy", "1-800-Flowers"), ("Birthday gift for Mom", "Anniversary present")),
    "Travel": (("Delta Air Lines", "Airbnb", "Marriott"), ("Summer vacation", "Work trip, to be reimbursed")),
    "Household": (("The Home Depot", "Lowe's", "Ace Hardware"), ("Fixing the sink", "New light bulbs")),
    "Education": (("Coursera", "Udemy"), ("Python course", "Certificate program")),
    # Bill categories are not drawn for everyday expenses, but an earlier result may name one.
    "Rent": (("Landlord",), ("Rent for March",)),
    "Utilities": (("City Water Department",), ("Water bill",)),
    "Phone & Internet": (("Verizon Wireless",), ("Phone bill",)),
    "Subscriptions": (("Netflix", "Spotify"), ("Monthly plan",)),
    "Fitness": (("Planet Fitness",), ("Drop-in class",)),
    "Insurance": (("GEICO",), ("Car insurance payment",)),
}
# Sources are who paid, as in "I got paid $400 from {source}": not "from Tax refund", "from Venmo from Alex".
# Each income category has payers of its own, with notes and amounts that fit them: pay from an
# employer, a client's fee, a bank's interest; never a consulting firm's fee filed as interest.
_INCOMES = {
    "Paycheck": ((("Acme Corp", "March paycheck"), ("Acme Corp", "Quarterly bonus")), (1850.0, 2400.0, 3125.5)),
    "Freelance": ((("Brightline Studio", "Logo design project"), ("Northwind Consulting", "Consulting retainer"),
                   ("Maple Street Tutoring", "Weekend tutoring"), ("Etsy", "Sold handmade mugs")),
                  (180.0, 450.0, 850.0)),
    "Interest": ((("Ally Bank", "Monthly interest"), ("Marcus by Goldman Sachs", "Interest for February")),
                 (12.48, 23.06, 41.5)),
    "Other Income": ((("the IRS", "2025 federal tax refund"), ("Alex", "Concert tickets paid back")),
                     (85.0, 140.0, 310.0)),
}
INCOMES = [(CATEGORY_IDS[category], source, note, amount) for category, (payers, amounts) in _INCOMES.items()
           for source, note in payers for amount in amounts]
# A new monthly limit near what the category's purchases come to in a month (count times the
# middle amount, world.VARIABLE), a little under, at or over it: never $30 for groceries.
# The bill categories go by what their bills come to; rent, which differs from world to world,
# is not among them (LimitCategoryId).
_BILL_MONTHS = {"Utilities": 150, "Phone & Internet": 130, "Subscriptions": 50, "Fitness": 50, "Insurance": 300}
LIMITS = [(CATEGORY_IDS[v[0]], float(max(10, round(v[3] * (v[4] + v[5]) / 2 * share / 10) * 10)))
          for v in VARIABLE for share in (0.8, 1.0, 1.25)] + \
    [(CATEGORY_IDS[name], float(round(base * share / 10) * 10)) for name, base in _BILL_MONTHS.items()
     for share in (1.0, 1.2, 1.5)]
GROCERY_FIXES = [(payee, note) for payee in ("Whole Foods Market", "Trader Joe's") for note in _EXPENSES["Groceries"][1]]
# What one entry of a category costs: within the range the world's history draws it from
# (world.VARIABLE), or a plausible one-off for a bill category.
_SPANS = {v[0]: (v[4], v[5]) for v in VARIABLE} | {
    "Rent": (900, 2400), "Utilities": (40, 120), "Phone & Internet": (45, 90), "Subscriptions": (9.99, 17.99),
    "Fitness": (15, 60), "Insurance": (120, 480)}


def _amounts(category: str) -> tuple[float, ...]:
    lo, hi = _SPANS[category]
    return tuple(sorted({round(lo + (hi - lo) * share, 2) for share in (0.25, 0.6)}))


EXPENSES = [(CATEGORY_IDS[category], payee, note, amount) for category, (payees, notes) in _EXPENSES.items()
            for payee in payees for note in notes for amount in _amounts(category)]


# ----- models ------------------------------------------------------------------------------------

class Account(BaseModel):
    account_id: AccountId
    name: str
    type: Literal["checking", "savings", "credit_card", "cash"]
    institution: str
    last4: str | None
    balance: float = Field(description="current balance; negative for a credit card means owed")
    credit_limit: float | None
    available: float = Field(description="money that can still be spent from the account")
    status: Literal["open", "closed"]


class AccountList(BaseModel):
    accounts: list[Account]
    total: int
    net_worth: float = Field(description="sum of the open accounts' balances")
    accounts_text: str = Field(description="The accounts and their balances in words, such as 'Everyday Checking "
                                           "(Citi, ending 2536): $8,168.84'.")


class Transaction(BaseModel):
    transaction_id: TransactionId
    date: str
    account_id: AccountId
    account_name: str
    category_id: CategoryId | None
    category_name: str | None
    amount: float = Field(description="signed: negative takes money out of the account")
    payee: str
    note: str | None
    kind: Literal["expense", "income", "goal_transfer"]
    bill_id: BillId | None
    goal_id: GoalId | None
    amount_text: str = Field(description="the amount and which way it went, such as '$79.13 paid from Capital One "
                                         "Quicksilver' or '$2,000.00 paid into Main Checking'")


class BudgetStatus(BaseModel):
    category_id: CategoryId
    category_name: str
    month: str
    budgeted: float
    spent: float
    remaining: float
    over_budget: bool


class CategoryLine(BaseModel):
    category_id: CategoryId
    name: str
    group: str
    budgeted: float
    spent: float
    remaining: float
    over_budget: bool


class MonthlySummary(BaseModel):
    month: str
    income: float
    expenses: float
    net: float = Field(description="income minus expenses")
    net_text: str = Field("", description="the net in words: 'a net of $1,926.76', or '$1,094.14 more went out than "
                                          "came in'")
    saved_to_goals: float
    budgeted: float
    remaining: float
    over_budget_count: int
    over_budget_names: list[str] = Field(description="the categories over budget, by name")
    categories: list[CategoryLine]
    total: int


# ----- helpers -----------------------------------------------------------------------------------

def fmt(x: float) -> str:
    return f"${x:,.2f}"


def month_range(month: str) -> tuple[str, str]:
    """First day of `month` and first day of the next month, as ISO dates."""
    y, m = int(month[:4]), int(month[5:])
    nxt = f"{y + 1:04d}-01" if m == 12 else f"{y:04d}-{m + 1:02d}"
    return f"{month}-01", f"{nxt}-01"


def shift_month(month: str, n: int) -> str:
    y, m = divmod(int(month[:4]) * 12 + int(month[5:]) - 1 + n, 12)
    return f"{y:04d}-{m + 1:02d}"


def load_account(ctx: Ctx, account_id: str, *, open_only: bool = True) -> sqlite3.Row:
    """The account, else `not_found`; with `open_only`, `account_closed` for a closed one."""
    row = ctx.get("account", account_id)
    if open_only and row["status"] != "open":
        raise ToolError("account_closed", f"{row['name']} ({account_id}) is closed.",
                        hint="Use one of the open accounts from list_accounts.")
    return row


def active_category(ctx: Ctx, category_id: str, kind: str) -> sqlite3.Row:
    """A category that may take new entries of `kind` ('expense' or 'income')."""
    row = ctx.get("category", category_id)
    if row["status"] != "active":
        raise ToolError("category_archived", f"The category {row['name']!r} is archived.",
                        hint="Pick an active category from list_categories.")
    if row["kind"] != kind:
        raise ToolError("category_kind_mismatch",
                        f"{row['name']!r} is an {row['kind']} category, not an {kind} category.",
                        hint=f"Pick an {kind} category from list_categories(kind='{kind}').")
    return row


def available(acc: sqlite3.Row, balance: float | None = None) -> float:
    bal = acc["balance"] if balance is None else balance
    if acc["type"] == "credit_card":
        return money((acc["credit_limit"] or 0.0) + bal)
    return money(bal)


def balance_text(acc: sqlite3.Row, balance: float) -> str:
    """An account's balance as a person says it: 'Everyday Checking has $8,061.04', 'you owe $1,011.95 on Citi
    Double Cash' (a credit card's balance is negative when owed)."""
    if acc["type"] != "credit_card":
        return f"{acc['name']} has ${balance:,.2f}"
    if balance < 0:
        return f"you owe ${-balance:,.2f} on {acc['name']}"
    return f"{acc['name']} has ${balance:,.2f} of credit on it" if balance > 0 else f"you owe nothing on {acc['name']}"


def change_balance(ctx: Ctx, acc: sqlite3.Row, delta: float) -> float:
    """Add `delta` to the account's balance; refuse to overdraw it. Returns the new balance."""
    new = money(acc["balance"] + delta)
    if delta < 0 and available(acc, new) < 0:
        raise ToolError("insufficient_funds",
                        f"{acc['name']} has only {fmt(available(acc))} available; {fmt(-delta)} is needed.",
                        hint="Use another account, or a smaller amount.")
    ctx.db.execute("UPDATE accounts SET balance = ? WHERE account_id = ?", (new, acc["account_id"]))
    return new


def budgeted(ctx: Ctx, cat: sqlite3.Row, month: str) -> float:
    """The budget of an expense category for a month (its row, else its default limit)."""
    if cat["kind"] != "expense":
        return 0.0
    row = ctx.db.execute("SELECT amount FROM budgets WHERE category_id = ? AND month = ?",
                         (cat["category_id"], month)).fetchone()
    if row is not None:
        return money(row["amount"])
    if month < cat["created_on"][:7] or cat["status"] != "active":
        return 0.0
    return money(cat["monthly_limit"])


def net_moves(ctx: Ctx, category_id: str, month: str) -> float:
    (into,) = ctx.db.execute("SELECT coalesce(sum(amount), 0) FROM budget_moves WHERE to_category_id = ? "
                             "AND month = ?", (category_id, month)).fetchone()
    (out,) = ctx.db.execute("SELECT coalesce(sum(amount), 0) FROM budget_moves WHERE from_category_id = ? "
                            "AND month = ?", (category_id, month)).fetchone()
    return money(into - out)


def spent(ctx: Ctx, category_id: str, month: str) -> float:
    """Money spent in a category in a month (expenses; positive), or received for income."""
    start, end = month_range(month)
    (total,) = ctx.db.execute(
        "SELECT coalesce(sum(amount), 0) FROM transactions WHERE category_id = ? AND date >= ? AND date < ? "
        "AND kind IN ('expense', 'income')", (category_id, start, end)).fetchone()
    return money(abs(total))


def budget_status(ctx: Ctx, cat: sqlite3.Row, month: str) -> BudgetStatus:
    b, s = budgeted(ctx, cat, month), spent(ctx, cat["category_id"], month)
    return BudgetStatus(category_id=cat["category_id"], category_name=cat["name"], month=month, budgeted=b,
                        spent=s, remaining=money(b - s), over_budget=s > b + 0.004)


def set_budget(ctx: Ctx, category_id: str, month: str, amount: float) -> None:
    # Not an UPSERT: the framework's dirty-tracking trigger fails inside one (see the report).
    args = (money(amount), category_id, month)
    if ctx.db.execute("UPDATE budgets SET amount = ? WHERE category_id = ? AND month = ?", args).rowcount == 0:
        ctx.db.execute("INSERT INTO budgets (amount, category_id, month) VALUES (?, ?, ?)", args)


def check_entry_date(ctx: Ctx, day: date | None) -> date:
    today = ctx.today()
    if day is None:
        return today
    if day > today:
        raise ToolError("invalid_date", f"{day.isoformat()} is in the future; entries record what already happened.",
                        hint=f"Use a date up to today, {today.isoformat()}.")
    if day < today - timedelta(days=BACKDATE_DAYS):
        raise ToolError("invalid_date", f"{day.isoformat()} is more than a year ago.",
                        hint=f"Use a date from {(today - timedelta(days=BACKDATE_DAYS)).isoformat()} on.")
    return day


def over_budget_warnings(status: BudgetStatus, before_remaining: float) -> list[str]:
    """Warnings (data, not errors) once an expense leaves a category near or over its budget."""
    if status.over_budget:
        return [f"limit_exceeded: {status.category_name} is {fmt(-status.remaining)} over its "
                f"{fmt(status.budgeted)} budget for {status.month}."]
    if status.budgeted > 0 and status.remaining < 0.1 * status.budgeted and before_remaining >= 0.1 * status.budgeted:
        return [f"near_limit: only {fmt(status.remaining)} left in {status.category_name} for {status.month}."]
    return []


TX_SELECT = (
    "SELECT t.*, a.name AS account_name, c.name AS category_name FROM transactions t "
    "JOIN accounts a ON a.account_id = t.account_id LEFT JOIN categories c ON c.category_id = t.category_id"
)


def tx_model(row: sqlite3.Row) -> Transaction:
    return Transaction(transaction_id=row["transaction_id"], date=row["date"], account_id=row["account_id"],
                       account_name=row["account_name"], category_id=row["category_id"],
                       category_name=row["category_name"], amount=row["amount"], payee=row["payee"],
                       note=row["note"], kind=row["kind"], bill_id=row["bill_id"], goal_id=row["goal_id"],
                       amount_text=_amount_text(row["kind"], row["amount"], row["account_name"], row["payee"]))


def _amount_text(kind: str, amount: float, account: str, payee: str) -> str:
    """'$79.13 paid from Capital One Quicksilver', '$2,000.00 paid into Main Checking', '$360.00 moved from
    Everyday Checking to the Holiday Gifts goal': the amount without its sign, said by which way it went."""
    size = f"${abs(amount):,.2f}"
    if kind == "goal_transfer":
        goal = f"the {payee.split(': ', 1)[-1]} goal"  # the payee is 'Goal: Holiday Gifts' or 'From goal: ...'
        return f"{size} moved from {account} to {goal}" if amount < 0 else \
            f"{size} moved back into {account} from {goal}"
    if kind == "income":
        return f"{size} paid into {account}"
    return f"{size} paid from {account}" if amount < 0 else f"{size} refunded to {account}"


def load_tx(ctx: Ctx, transaction_id: str) -> Transaction:
    ctx.get("transaction", transaction_id)
    return tx_model(ctx.db.execute(TX_SELECT + " WHERE t.transaction_id = ?", (transaction_id,)).fetchone())


def insert_tx(ctx: Ctx, *, account_id: str, category_id: str | None, day: date, amount: float, payee: str,
              note: str | None, kind: str, bill_id: str | None = None, goal_id: str | None = None) -> str:
    tid = ctx.new_id("TXN")
    ctx.db.execute(
        "INSERT INTO transactions (transaction_id, account_id, category_id, date, amount, payee, note, kind, "
        "bill_id, goal_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (tid, account_id, category_id, day.isoformat(), money(amount), payee, note or None, kind, bill_id, goal_id,
         ctx.now_iso()))
    return tid


def account_model(row: sqlite3.Row) -> Account:
    return Account(account_id=row["account_id"], name=row["name"], type=row["type"], institution=row["institution"],
                   last4=row["last4"], balance=row["balance"], credit_limit=row["credit_limit"],
                   available=available(row), status=row["status"])
