"""The budget world: one signed-in user's budgeting app, five and a half months into using it.

The history runs from 2025-10-01 to the epoch (Monday 2026-03-16 09:00) and holds:

- four or five accounts (checking, high-yield savings, one or two credit cards, a cash wallet,
  an old closed account) with realistic balances;
- about twenty budget categories ("envelopes") in groups, each expense category with a monthly
  limit and a budget row per month, a few of them strict (they refuse overspending), plus the
  income categories;
- biweekly paychecks, freelance income, savings interest, and everyday expenses at real-looking
  merchants, so that the current month has categories under, near and over budget;
- recurring bills (rent, utilities, phone and internet, subscriptions, insurance, gym) with their
  past payments, one of them overdue;
- savings goals with monthly contributions, one of them already completed;
- a few past moves of money between envelopes.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from prove.env import WorldGen

HISTORY_START = date(2025, 10, 1)
MONTHS = ("2025-10", "2025-11", "2025-12", "2026-01", "2026-02", "2026-03")

# name, group, merchants, expected purchases a month, low and high amount, strict-prone
VARIABLE = (
    ("Groceries", "Food", ("Whole Foods Market", "Trader Joe's", "Safeway", "Kroger", "Costco", "Aldi",
                           "Sprouts Farmers Market"), 7.0, 22, 165, False),
    ("Dining Out", "Food", ("Chipotle", "Sweetgreen", "Shake Shack", "Olive Garden", "Panera Bread",
                            "Sakura Sushi", "Taqueria El Sol", "Luigi's Trattoria", "The Blue Door Bistro"),
     6.0, 14, 88, True),
    ("Coffee Shops", "Food", ("Starbucks", "Blue Bottle Coffee", "Peet's Coffee", "Dunkin'",
                              "Corner Grind Cafe"), 8.0, 4, 13, True),
    ("Gas & Fuel", "Transportation", ("Shell", "Chevron", "ExxonMobil", "BP", "Costco Gas"), 3.0, 34, 72, False),
    ("Rideshare", "Transportation", ("Uber", "Lyft"), 3.0, 9, 42, True),
    ("Public Transit", "Transportation", ("Metro Transit", "Amtrak"), 1.5, 12, 95, False),
    ("Pharmacy", "Health", ("CVS Pharmacy", "Walgreens", "Rite Aid"), 1.5, 8, 62, False),
    ("Medical", "Health", ("Bright Smile Dental", "One Medical", "Quest Diagnostics", "LabCorp"), 0.5, 25, 190, False),
    ("Shopping", "Shopping", ("Amazon", "Target", "Walmart", "Best Buy", "IKEA", "HomeGoods"), 4.0, 12, 185, True),
    ("Clothing", "Shopping", ("Uniqlo", "Nike", "Gap", "Zara", "Nordstrom Rack", "H&M"), 1.2, 24, 145, True),
    ("Entertainment", "Fun", ("AMC Theatres", "Ticketmaster", "Steam", "Regal Cinemas", "Barnes & Noble",
                              "Bowlero"), 2.0, 12, 96, True),
    ("Personal Care", "Personal", ("Supercuts", "Sephora", "Ulta Beauty", "Great Clips"), 1.0, 18, 78, False),
    ("Pets", "Personal", ("Chewy", "Petco", "PetSmart", "Banfield Pet Hospital"), 1.5, 15, 125, False),
    ("Gifts & Donations", "Giving", ("Etsy", "American Red Cross", "GoFundMe", "1-800-Flowers"), 0.8, 20, 125, False),
    ("Travel", "Travel", ("Delta Air Lines", "United Airlines", "Airbnb", "Marriott", "Hilton", "Expedia"),
     0.5, 80, 620, True),
    ("Household", "Housing", ("The Home Depot", "Lowe's", "Ace Hardware", "Target"), 1.2, 10, 115, False),
    ("Education", "Personal", ("Coursera", "Udemy", "MasterClass"), 0.3, 15, 199, False),
)
ALWAYS = ("Groceries", "Dining Out", "Shopping", "Coffee Shops")

# category, group, bill name, payee, low, high, frequency, variable amount
BILLS = (
    ("Rent", "Housing", "Rent", "{landlord}", 1450, 3200, "monthly", False),
    ("Utilities", "Utilities", "Electricity", "{power}", 55, 145, "monthly", True),
    ("Utilities", "Utilities", "Water & Trash", "City Water Department", 70, 130, "quarterly", True),
    ("Phone & Internet", "Utilities", "Internet", "{isp}", 55, 90, "monthly", False),
    ("Phone & Internet", "Utilities", "Phone plan", "{carrier}", 45, 95, "monthly", False),
    ("Subscriptions", "Fun", "Netflix", "Netflix", 15.49, 15.49, "monthly", False),
    ("Subscriptions", "Fun", "Spotify Premium", "Spotify", 11.99, 11.99, "monthly", False),
    ("Subscriptions", "Fun", "Disney+", "Disney+", 13.99, 13.99, "monthly", False),
    ("Subscriptions", "Fun", "iCloud+ storage", "Apple", 2.99, 2.99, "monthly", False),
    ("Subscriptions", "Fun", "New York Times", "The New York Times", 4.0, 4.0, "monthly", False),
    ("Fitness", "Health", "Gym membership", "{gym}", 24.99, 89.0, "monthly", False),
    ("Insurance", "Insurance", "Car insurance", "{insurer}", 280, 520, "quarterly", False),
    ("Insurance", "Insurance", "Renters insurance", "Lemonade", 150, 240, "yearly", False),
)
LANDLORDS = ("Greystar Property Management", "Avalon Communities", "Equity Residential", "Lincoln Property Co.",
             "Harborview Apartments", "Maple Court Residences")
POWER = ("PG&E", "Con Edison", "ComEd", "Duke Energy", "Xcel Energy", "Georgia Power")
ISPS = ("Comcast Xfinity", "Spectrum", "AT&T Fiber", "Verizon Fios", "Google Fiber")
CARRIERS = ("Verizon Wireless", "T-Mobile", "AT&T Wireless", "Mint Mobile")
GYMS = ("Planet Fitness", "24 Hour Fitness", "Orangetheory Fitness", "YMCA", "Crunch Fitness")
INSURERS = ("GEICO", "Progressive", "State Farm", "Allstate")

CHECKING_BANKS = ("Chase", "Bank of America", "Wells Fargo", "Capital One", "Citi", "PNC")
SAVINGS_BANKS = ("Ally Bank", "Marcus by Goldman Sachs", "Discover Bank", "American Express")
CARDS = (("Chase Sapphire Preferred", "Chase"), ("Citi Double Cash", "Citi"),
         ("Capital One Quicksilver", "Capital One"), ("Amex Blue Cash Everyday", "American Express"),
         ("Discover it Cash Back", "Discover"), ("Wells Fargo Active Cash", "Wells Fargo"))
GOALS = (("Emergency Fund", 6000, 15000), ("Vacation to {place}", 1500, 4200), ("New Laptop", 1200, 2600),
         ("Car Down Payment", 4000, 9000), ("Wedding Fund", 8000, 18000), ("Home Down Payment", 20000, 60000),
         ("New Bike", 800, 1600), ("Holiday Gifts", 500, 1200))
PLACES = ("Lisbon", "Tokyo", "Hawaii", "Mexico City", "Iceland", "Barcelona", "Costa Rica", "Rome")


INCOME = ("Paycheck", "Freelance", "Interest", "Other Income")
ARCHIVED = "Kids' Activities"
# Every category a world may hold, in the order of their IDs: a category keeps its ID in every
# world ('CAT-10007' is always Groceries), and one a world lacks leaves its ID unused.
CATALOG = (*dict.fromkeys(b[0] for b in BILLS), *(v[0] for v in VARIABLE), *INCOME, ARCHIVED)
CATEGORY_IDS = {name: f"CAT-{10001 + i}" for i, name in enumerate(CATALOG)}
# Likewise every recurring bill a world may track keeps its ID ('BILL-10007' is always Spotify Premium).
BILL_IDS = {b[2]: f"BILL-{10001 + i}" for i, b in enumerate(BILLS)}


def money_round(x: float) -> float:
    return round(x, 2)


def month_of(d: date) -> str:
    return d.strftime("%Y-%m")


def add_months(d: date, n: int) -> date:
    """`d` moved `n` months, clamped to the month's last day."""
    y, m = divmod(d.month - 1 + n, 12)
    year, month = d.year + y, m + 1
    for day in (d.day, 30, 29, 28):
        try:
            return date(year, month, day)
        except ValueError:
            continue
    raise AssertionError("unreachable")


def build_world(w: WorldGen) -> dict[str, Any]:
    rng = w.rng
    today = w.now.date()
    city = w.fake.city("US")
    person = w.fake.person()
    employer = w.fake.company()

    # ----- profile and accounts --------------------------------------------------------------
    profile = [{"user_id": w.new_id("USR"), "name": person.name, "email": w.fake.email(person),
                "city": f"{city.name}, {city.region}", "member_since": "2025-09-28"}]
    accounts: list[dict[str, Any]] = []

    def account(name: str, kind: str, institution: str, balance: float, credit_limit: float | None = None,
                status: str = "open", opened: str = "2019-06-12") -> str:
        aid = w.new_id("ACC")
        accounts.append({"account_id": aid, "name": name, "type": kind, "institution": institution,
                         "last4": None if kind == "cash" else w.fake.digits(4), "balance": round(balance, 2),
                         "credit_limit": credit_limit, "status": status, "opened_on": opened})
        return aid

    bank = rng.choice(CHECKING_BANKS)
    checking = account("Everyday Checking", "checking", bank, w.fake.money(2400, 8800),
                       opened=w.fake.date_between(date(2014, 1, 1), date(2022, 12, 31)).isoformat())
    savings = account("High-Yield Savings", "savings", rng.choice(SAVINGS_BANKS), w.fake.money(4000, 26000),
                      opened=w.fake.date_between(date(2018, 1, 1), date(2024, 6, 30)).isoformat())
    cards = rng.sample(CARDS, 2)
    card = account(cards[0][0], "credit_card", cards[0][1], -w.fake.money(350, 2400),
                   credit_limit=float(rng.choice((5000, 7500, 8000, 10000, 12000, 15000))),
                   opened=w.fake.date_between(date(2016, 1, 1), date(2023, 12, 31)).isoformat())
    spenders = [card]
    if rng.random() < 0.5:
        spenders.append(account(cards[1][0], "credit_card", cards[1][1], -w.fake.money(80, 900),
                                credit_limit=float(rng.choice((3000, 4000, 6000))),
                                opened=w.fake.date_between(date(2020, 1, 1), date(2024, 12, 31)).isoformat()))
    cash = account("Cash Wallet", "cash", "Cash", w.fake.money(35, 220), opened="2025-09-28")
    account(rng.choice(("Old Student Checking", "Joint Checking", "Credit Union Savings")),
            "checking", rng.choice(CHECKING_BANKS), 0.0, status="closed",
            opened=w.fake.date_between(date(2008, 1, 1), date(2015, 12, 31)).isoformat())

    # ----- categories ------------------------------------------------------------------------
    categories: list[dict[str, Any]] = []
    cat_ids: dict[str, str] = {}

    reserved = {name: w.new_id("CAT") for name in CATALOG}
    assert reserved == CATEGORY_IDS

    def category(name: str, group: str, kind: str, limit: float = 0.0, strict: bool = False,
                 created: str = "2025-09-28", status: str = "active") -> str:
        cid = reserved[name]
        categories.append({"category_id": cid, "name": name, "group_name": group, "kind": kind,
                           "monthly_limit": limit, "strict": int(strict), "status": status, "created_on": created})
        cat_ids[name] = cid
        return cid

    names = {"landlord": rng.choice(LANDLORDS), "power": rng.choice(POWER), "isp": rng.choice(ISPS),
             "carrier": rng.choice(CARRIERS), "gym": rng.choice(GYMS), "insurer": rng.choice(INSURERS)}
    bill_specs = [b for b in BILLS if b[2] not in rng.sample(("Disney+", "New York Times", "iCloud+ storage",
                                                              "Gym membership", "Car insurance"), 2)]
    variable = [v for v in VARIABLE if v[0] in ALWAYS or rng.random() < 0.62]
    if "Car insurance" not in {b[2] for b in bill_specs}:
        variable = [v for v in variable if v[0] != "Gas & Fuel"]

    # Bill amounts are fixed per world; the category's limit covers its bills.
    bill_amounts = {b[2]: (b[4] if b[4] == b[5] else round(rng.uniform(b[4], b[5]), 2 if b[7] else 0))
                    for b in bill_specs}
    bill_groups: dict[str, tuple[str, float]] = {}
    for cat, group, bill, _, _, _, freq, _ in bill_specs:
        monthly = bill_amounts[bill] / {"monthly": 1, "quarterly": 3, "yearly": 12, "weekly": 0.25}[freq]
        prev = bill_groups.get(cat, (group, 0.0))[1]
        bill_groups[cat] = (group, prev + monthly)
    for cat, (group, monthly) in bill_groups.items():
        limit = round(monthly * 1.1 / 5 + 0.49) * 5 if cat != "Rent" else bill_amounts["Rent"]
        if cat == "Insurance":
            limit = round(monthly * 1.4 / 10) * 10  # quarterly and yearly bills land in one month
        category(cat, group, "expense", float(limit))
    strict_pick = set(rng.sample([v[0] for v in variable if v[6]], 2))
    limits: dict[str, float] = {}
    for name, group, _, per_month, lo, hi, _ in variable:
        typical = per_month * (lo + hi) / 2
        limit = float(max(20, round(typical * rng.uniform(0.85, 1.25) / 10) * 10))
        limits[name] = limit
        created = "2025-09-28" if rng.random() < 0.85 or name in ALWAYS else "2025-12-01"
        category(name, group, "expense", limit, strict=name in strict_pick, created=created)
    category("Paycheck", "Income", "income")
    if rng.random() < 0.6:
        category("Freelance", "Income", "income")
    category("Interest", "Income", "income")
    category("Other Income", "Income", "income")
    category("Kids' Activities", "Personal", "expense", 120.0, created="2025-09-28", status="archived")

    # ----- bills ----------------------------------------------------------------------------
    bills: list[dict[str, Any]] = []
    tx_specs: list[dict[str, Any]] = []  # transactions before IDs are assigned
    overdue_bill = rng.choice([b[2] for b in bill_specs if b[6] == "monthly" and b[2] != "Rent"])
    reserved_bills = {b[2]: w.new_id("BILL") for b in BILLS}
    assert reserved_bills == BILL_IDS
    for cat, _, name, payee, _, _, freq, variable_amount in bill_specs:
        bid = reserved_bills[name]
        amount = bill_amounts[name]
        pays_from = checking if cat in ("Rent", "Utilities", "Insurance") else rng.choice(spenders)
        day = 1 if name == "Rent" else rng.randint(4, 13) if name == overdue_bill else rng.randint(3, 28)
        step = {"monthly": 1, "quarterly": 3, "yearly": 12}[freq]
        first = date(2025, 10, day) if freq == "monthly" else add_months(date(2025, 10, day), rng.randint(0, step - 1))
        if freq == "yearly":
            first = date(2025, rng.choice((4, 6, 8, 11)), day)
        due, last_paid = first, None
        while due <= today:
            if name == overdue_bill and month_of(due) == month_of(today):
                break  # this month's cycle was missed: the bill is overdue
            if due >= HISTORY_START:
                paid = round(amount * rng.uniform(0.85, 1.2), 2) if variable_amount else amount
                tx_specs.append({"account_id": pays_from, "category": cat, "date": due, "amount": -paid,
                                 "payee": payee.format(**names), "note": None, "kind": "expense", "bill_id": bid})
            last_paid = due
            due = add_months(due, step)
        bills.append({"bill_id": bid, "name": name, "payee": payee.format(**names), "amount": amount,
                      "category_id": cat_ids[cat], "account_id": pays_from, "frequency": freq,
                      "next_due_date": due.isoformat(), "autopay": int(name != overdue_bill and rng.random() < 0.6),
                      "status": "active", "last_paid_on": last_paid.isoformat() if last_paid else None})
    bills.append({"bill_id": w.new_id("BILL"), "name": "Soccer club fees", "payee": "Youth Soccer League",
                  "amount": 85.0, "category_id": cat_ids["Kids' Activities"], "account_id": checking,
                  "frequency": "monthly", "next_due_date": "2025-12-05", "autopay": 0, "status": "cancelled",
                  "last_paid_on": "2025-11-05"})

    # ----- everyday spending ----------------------------------------------------------------
    for name, _, merchants, per_month, lo, hi, _ in variable:
        created = next(c["created_on"] for c in categories if c["name"] == name)
        day = HISTORY_START if created < "2025-10" else date.fromisoformat(created)
        # heavier spenders overshoot some envelopes in the current month
        heat = rng.uniform(0.9, 1.7)
        month_spent: dict[str, float] = {}
        while day < today:
            rate = per_month / 30.4 * (heat if month_of(day) == month_of(today) else 1.0)
            if rng.random() < rate:
                amount = round(rng.uniform(lo, hi) * (1.0 if rng.random() < 0.85 else 0.5), 2)
                so_far = month_spent.get(month_of(day), 0.0)
                if name in strict_pick and so_far + amount > limits[name]:
                    day += timedelta(days=1)
                    continue  # a strict envelope refuses overspending, so the history never shows it
                month_spent[month_of(day)] = so_far + amount
                if name == "Coffee Shops":
                    account_id = cash if rng.random() < 0.35 else rng.choice(spenders)
                elif name in ("Groceries", "Household", "Pharmacy") and rng.random() < 0.3:
                    account_id = checking
                else:
                    account_id = rng.choice(spenders)
                note = None
                if rng.random() < 0.12:
                    note = rng.choice(("split with roommate", "birthday dinner", "weekly groceries", "reimbursable",
                                       "gift", "work trip", "weekend trip", "bulk buy"))
                tx_specs.append({"account_id": account_id, "category": name, "date": day, "amount": -amount,
                                 "payee": rng.choice(merchants), "note": note, "kind": "expense", "bill_id": None})
            day += timedelta(days=1)

    # ----- income ----------------------------------------------------------------------------
    # take-home pay covers rent and everyday spending with room to save
    paycheck = money_round(max(rng.uniform(1900, 4200), (bill_amounts["Rent"] + 1900) / 2.17 * rng.uniform(1.15, 1.4)))
    payday = date(2025, 10, 3) + timedelta(days=7 * rng.randint(0, 1))
    while payday <= today:
        tx_specs.append({"account_id": checking, "category": "Paycheck", "date": payday, "amount": paycheck,
                         "payee": employer, "note": "Direct deposit", "kind": "income", "bill_id": None})
        payday += timedelta(days=14)
    if "Freelance" in cat_ids:
        clients = [w.fake.company() for _ in range(3)]
        for month in MONTHS[:-1]:
            if rng.random() < 0.7:
                d = date(int(month[:4]), int(month[5:]), rng.randint(5, 27))
                tx_specs.append({"account_id": checking, "category": "Freelance", "date": d,
                                 "amount": w.fake.money(300, 1800), "payee": rng.choice(clients),
                                 "note": "Invoice paid", "kind": "income", "bill_id": None})
    for month in MONTHS[:-1]:
        d = add_months(date(int(month[:4]), int(month[5:]), 28), 0)
        tx_specs.append({"account_id": savings, "category": "Interest", "date": d, "amount": w.fake.money(9, 65),
                         "payee": accounts[1]["institution"], "note": "Monthly interest", "kind": "income",
                         "bill_id": None})
    for _ in range(rng.randint(1, 3)):
        d = w.fake.date_between(HISTORY_START, today - timedelta(days=3))
        payer, note = rng.choice((("Venmo", "dinner split"), ("IRS", "Tax refund"), ("Amazon", "Return refund"),
                                  ("Zelle", "concert tickets payback"), ("Poshmark", "Sold jacket")))
        tx_specs.append({"account_id": checking, "category": "Other Income", "date": d,
                         "amount": w.fake.money(20, 450), "payee": payer, "note": note, "kind": "income",
                         "bill_id": None})

    # ----- savings goals -----------------------------------------------------------------------
    goals: list[dict[str, Any]] = []
    contributions: list[dict[str, Any]] = []
    picked = rng.sample(GOALS[:-1], 3) + [GOALS[-1]]
    for i, (gname, lo, hi) in enumerate(picked):
        gid = w.new_id("GOAL")
        gname = gname.format(place=rng.choice(PLACES))
        target = float(round(rng.uniform(lo, hi) / 50) * 50)
        completed = gname == "Holiday Gifts"
        monthly = round(target / 2.5 / 5) * 5 if completed else min(round(target / rng.uniform(12, 40) / 5) * 5, 450)
        months = MONTHS[:3] if completed else MONTHS[i % 2:]
        saved = 0.0
        for j, month in enumerate(months):
            amount = float(monthly)
            if completed and j == len(months) - 1:
                amount = round(target - saved, 2)
            d = date(int(month[:4]), int(month[5:]), 2 + i)
            if d > today:
                break
            source = savings if gname in ("Emergency Fund", "Home Down Payment") else checking
            tx_specs.append({"account_id": source, "category": None, "date": d, "amount": -amount,
                             "payee": f"Goal: {gname}", "note": None, "kind": "goal_transfer", "bill_id": None,
                             "goal": gid, "contribution": amount})
            saved = round(saved + amount, 2)
        target_date = None if rng.random() < 0.25 else add_months(today, rng.randint(3, 20)).isoformat()
        goals.append({"goal_id": gid, "name": gname, "target_amount": target, "saved_amount": saved,
                      "target_date": "2025-12-15" if completed else target_date,
                      "status": "completed" if completed else "active", "created_on": "2025-09-28",
                      "completed_on": "2025-12-04" if completed else None})

    # ----- budgets, with a few past moves between envelopes ------------------------------------
    budgets: list[dict[str, Any]] = []
    by_key: dict[tuple[str, str], dict[str, Any]] = {}
    for c in categories:
        if c["kind"] != "expense":
            continue
        for month in MONTHS:
            if month < c["created_on"][:7] or (c["status"] == "archived" and month > "2025-11"):
                continue
            row = {"category_id": c["category_id"], "month": month, "amount": c["monthly_limit"]}
            budgets.append(row)
            by_key[(c["category_id"], month)] = row
    moves: list[dict[str, Any]] = []
    movable = [n for n in limits if n not in strict_pick]
    for month in rng.sample(MONTHS[:-1], 3):
        src, dst = rng.sample(movable, 2)
        amount = float(min(round(limits[src] * rng.uniform(0.1, 0.3) / 5) * 5, limits[src]))
        if amount <= 0 or (cat_ids[src], month) not in by_key or (cat_ids[dst], month) not in by_key:
            continue
        by_key[(cat_ids[src], month)]["amount"] -= amount
        by_key[(cat_ids[dst], month)]["amount"] += amount
        when = datetime(int(month[:4]), int(month[5:]), rng.randint(10, 26), rng.randint(8, 21),
                        rng.choice((0, 15, 30, 45)))
        moves.append({"move_id": w.new_id("MOVE"), "month": month, "from_category_id": cat_ids[src],
                      "to_category_id": cat_ids[dst], "amount": amount,
                      "note": rng.choice(("covering overspending", "rebalancing", None, "month-end tidy up")),
                      "created_at": when.isoformat()})

    # ----- transactions in date order, so IDs read chronologically ------------------------------
    tx_specs.sort(key=lambda t: (t["date"], t["kind"] != "income", t["payee"]))
    transactions: list[dict[str, Any]] = []
    for t in tx_specs:
        tid = w.new_id("TXN")
        minute = rng.randint(7 * 60, 22 * 60)
        created = datetime.combine(t["date"], datetime.min.time()) + timedelta(minutes=minute)
        transactions.append({"transaction_id": tid, "account_id": t["account_id"],
                             "category_id": cat_ids[t["category"]] if t["category"] else None,
                             "date": t["date"].isoformat(), "amount": t["amount"], "payee": t["payee"],
                             "note": t["note"], "kind": t["kind"], "bill_id": t["bill_id"],
                             "goal_id": t.get("goal"), "created_at": created.isoformat(timespec="seconds")})
        if t.get("goal"):
            contributions.append({"contribution_id": w.new_id("CONTRIB"), "goal_id": t["goal"],
                                  "account_id": t["account_id"], "transaction_id": tid,
                                  "amount": t["contribution"], "date": t["date"].isoformat()})

    return {"profile": profile, "accounts": accounts, "categories": categories, "budgets": budgets,
            "budget_moves": moves, "bills": bills, "goals": goals, "transactions": transactions,
            "goal_contributions": contributions}
