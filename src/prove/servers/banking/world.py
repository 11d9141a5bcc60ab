"""The banking world: one signed-in customer and about six months of their banking life.

`build_world` creates the customer, 3-6 accounts (checking, savings, credit cards), 10-30
payees, 2-5 cards, 7-11 scheduled payments, a few hundred transactions from 2025-09-01 up to the
epoch (2026-03-16 09:00), the monthly statements of every complete month and a few disputes.

History is simulated day by day with running balances, so everything agrees: each statement's
closing balance is its opening balance plus its transactions, an account's current balance is
where its history ends, recurring payments appear on their dates, and disputed charges exist.
Everything random comes from `w.rng` and `w.fake`, so a seed always gives the same world and
different seeds give different people, merchants, amounts and accounts.

This module also holds the vocabulary the tools share with the world (categories, policies).
"""

from __future__ import annotations

import calendar
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, Literal, get_args

from prove.env import WorldBuilder, WorldGen

# ----- vocabulary shared with the tools ---------------------------------------------------------

Category = Literal[
    "groceries", "dining", "transport", "shopping", "entertainment", "subscriptions", "health",
    "travel", "utilities", "housing", "insurance", "loans", "bills", "cash", "income", "transfer",
    "fees", "interest", "other",
]
CATEGORIES: tuple[str, ...] = get_args(Category)

DISPUTE_WINDOW_DAYS = 60            # a posted charge may be disputed this many days after it occurred
DISPUTABLE_KINDS = ("purchase", "fee")
DEBIT_CARD_MAX_LIMIT = 5_000.0      # highest daily spending limit a debit card may have
CASH_ADVANCE_FEE_RATE = 0.05        # a transfer out of a credit card is a cash advance...
CASH_ADVANCE_MIN_FEE = 10.0         # ...charged 5% with a $10 minimum
MAX_DAYS_AHEAD = 365                # how far ahead a payment may be scheduled
REPLACEMENT_SHIPPING_DAYS = 7       # a replacement card arrives within a week

HISTORY_START = date(2025, 9, 1)
PENDING_FOR = timedelta(days=2)     # card purchases this recent are still pending

# ----- catalogues ---------------------------------------------------------------------------------

# (name, category, low, high): what a card purchase at this merchant costs. "{city}" and "{last}"
# are filled per world, so local merchants differ between seeds.
MERCHANTS: tuple[tuple[str, str, float, float], ...] = (
    ("Whole Foods Market", "groceries", 25, 190), ("Trader Joe's", "groceries", 18, 120),
    ("Safeway", "groceries", 20, 160), ("Kroger", "groceries", 20, 150), ("Costco", "groceries", 60, 320),
    ("Aldi", "groceries", 15, 90), ("Sprouts Farmers Market", "groceries", 15, 110),
    ("Wegmans", "groceries", 25, 170), ("{city} Farmers Co-op", "groceries", 12, 70),
    ("Starbucks", "dining", 4, 14), ("Chipotle", "dining", 11, 24), ("Sweetgreen", "dining", 12, 22),
    ("Shake Shack", "dining", 14, 38), ("Panera Bread", "dining", 10, 26), ("Domino's Pizza", "dining", 15, 42),
    ("DoorDash", "dining", 18, 65), ("Uber Eats", "dining", 18, 60), ("{last}'s Bakery", "dining", 5, 22),
    ("{city} Taqueria", "dining", 10, 34), ("The Copper Kettle", "dining", 28, 110),
    ("Blue Bottle Coffee", "dining", 5, 13), ("Olive Garden", "dining", 30, 95),
    ("Shell", "transport", 28, 75), ("Chevron", "transport", 30, 80), ("Exxon", "transport", 28, 72),
    ("Uber", "transport", 9, 48), ("Lyft", "transport", 9, 44), ("{city} Metro Transit", "transport", 3, 40),
    ("ParkMobile", "transport", 3, 26),
    ("Amazon", "shopping", 8, 180), ("Target", "shopping", 12, 160), ("Walmart", "shopping", 10, 140),
    ("Best Buy", "shopping", 25, 650), ("IKEA", "shopping", 30, 420), ("Home Depot", "shopping", 15, 260),
    ("Etsy", "shopping", 15, 85), ("Nordstrom", "shopping", 40, 280), ("REI", "shopping", 30, 240),
    ("Apple Store", "shopping", 29, 1299), ("Sephora", "shopping", 18, 120),
    ("AMC Theatres", "entertainment", 12, 45), ("Ticketmaster", "entertainment", 45, 260),
    ("Steam", "entertainment", 5, 60), ("Barnes & Noble", "entertainment", 12, 48),
    ("Eventbrite", "entertainment", 15, 90), ("Topgolf", "entertainment", 30, 120),
    ("CVS Pharmacy", "health", 6, 60), ("Walgreens", "health", 6, 55), ("Dr. {last} Dental", "health", 80, 360),
    ("One Medical", "health", 25, 200), ("LabCorp", "health", 20, 150),
    ("Delta Air Lines", "travel", 180, 690), ("United Airlines", "travel", 160, 720),
    ("Marriott", "travel", 150, 620), ("Hilton", "travel", 140, 560), ("Airbnb", "travel", 200, 950),
    ("Hertz", "travel", 120, 420), ("Expedia", "travel", 150, 800),
)
PURCHASE_WEIGHTS = {"groceries": 18, "dining": 30, "transport": 14, "shopping": 18,
                    "entertainment": 6, "health": 5, "travel": 2}
SUBSCRIPTIONS = (
    ("Netflix", 15.49), ("Spotify", 11.99), ("Hulu", 17.99), ("Disney+", 13.99), ("Apple iCloud+", 2.99),
    ("Amazon Prime", 14.99), ("YouTube Premium", 13.99), ("New York Times", 17.00),
    ("Adobe Creative Cloud", 59.99), ("Planet Fitness", 24.99), ("ChatGPT Plus", 20.00), ("Audible", 14.95),
)
CHECKING_NAMES = ("Everyday Checking", "Primary Checking", "Main Checking", "Personal Checking")
BILLS_CHECKING_NAMES = ("Bills Checking", "Joint Checking", "Household Checking")
SAVINGS_NAMES = ("Emergency Fund", "High-Yield Savings", "Rainy Day Savings", "Main Savings")
GOAL_SAVINGS_NAMES = ("Vacation Fund", "House Down Payment", "New Car Fund", "Wedding Fund")
CREDIT_NAMES = (("Cash Back Visa", "Visa"), ("Travel Rewards Mastercard", "Mastercard"),
                ("Platinum Visa", "Visa"), ("Everyday Rewards Mastercard", "Mastercard"))
STORE_CREDIT_NAMES = (("Shopping Rewards Visa", "Visa"), ("Dining Rewards Mastercard", "Mastercard"))
ELECTRIC = ("Con Edison", "Pacific Gas & Electric", "Duke Energy", "{city} Power & Light")
INTERNET = ("Xfinity", "Spectrum", "Verizon Fios", "AT&T Internet", "Google Fiber")
MOBILE = ("T-Mobile", "Verizon Wireless", "AT&T Wireless", "Mint Mobile")
INSURANCE = ("GEICO", "State Farm", "Progressive", "Lemonade Insurance", "Allstate")
LOANS = ("Nelnet Student Loans", "Navient", "Toyota Financial Services", "Honda Financial Services")
P2P_MEMOS = ("Dinner", "Concert tickets", "Birthday gift", "Groceries", "Gas money", "Ski trip",
             "Utilities split", "Brunch", "Movie night", "Baseball tickets", "Cabin deposit", "Taxi")
SERVICE_PAYEES = (("dog walking", 25, 60), ("house cleaning", 90, 160), ("piano lessons", 45, 90),
                  ("personal training", 60, 110))

TABLES = ("customers", "accounts", "payees", "cards", "scheduled_payments", "transfers",
          "transactions", "statements", "disputes")


# ----- the builder --------------------------------------------------------------------------------

@dataclass
class _Schedule:
    """A scheduled payment being simulated: its row and when it runs."""

    row: dict[str, Any]
    first: date
    stop: date | None = None      # cancelled on / completed by this day
    runs: list[date] = field(default_factory=list)


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    """Build the banking world of `w.seed`: {table: rows}, in insertion order."""
    return _Builder(w).build()


class _Builder(WorldBuilder):
    """Builds one world: the parts in dependency order, then the day-by-day history."""

    def __init__(self, w: WorldGen) -> None:
        super().__init__(w, TABLES)
        self.balance: dict[str, float] = {}   # posted balance; amount owed for credit cards
        self.held: dict[str, float] = {}      # pending debits (pending charges for credit cards)
        self.accounts: dict[str, dict[str, Any]] = {}
        self.schedules: list[_Schedule] = []
        self.utilities_paid: tuple[int, int] | None = None

    # ----- top level ---------------------------------------------------------------------------

    def build(self) -> dict[str, list[dict[str, Any]]]:
        self._customer()
        self._accounts()
        self._payees()
        self._cards()
        self._scheduled()
        self._history()
        self._statements()
        for acc in self.rows["accounts"]:
            acc["current_balance"] = round(self.balance[acc["account_id"]], 2)
        return self.rows

    def _customer(self) -> None:
        rng, fake = self.rng, self.fake
        self.person = fake.person()
        self.city = next(c for c in iter(fake.city, None) if c.country == "US")
        self.rent = float(rng.randrange(1100, 2900, 25))
        limit = max(rng.choice((2500, 3000, 5000, 7500, 10000)), 500 * (int(self.rent + 1000) // 500 + 1))
        self.customer = {
            "customer_id": self.w.new_id("CUS"),
            "name": self.person.name,
            "email": fake.email(self.person),
            "phone": fake.phone(),
            "address": f"{fake.street_address()}, {self.city.name}, {self.city.region} "
                       f"{self.city.zip_prefix}{fake.digits(2)}",
            "customer_since": fake.date_between(date(2012, 1, 1), date(2023, 12, 31)).isoformat(),
            "daily_payment_limit": float(limit),
        }
        self.rows["customers"].append(self.customer)
        self.employer = fake.company()
        # Net pay every other Friday, comfortably above rent and spending.
        self.paycheck = round((self.rent * 1.8 + rng.uniform(2600, 3600)) * 12 / 26, 2)

    def _account(self, nickname: str, kind: str, start: float, *, credit_limit: float | None = None,
                 rate: float) -> dict[str, Any]:
        since = date.fromisoformat(self.customer["customer_since"])
        row = {
            "account_id": self.w.new_id("ACC"),
            "customer_id": self.customer["customer_id"],
            "nickname": nickname,
            "type": kind,
            "number_last4": self.fake.digits(4),
            "opened_on": self.fake.date_between(since, date(2025, 6, 30)).isoformat(),
            "current_balance": 0.0,
            "credit_limit": credit_limit,
            "interest_rate": rate,
        }
        self.rows["accounts"].append(row)
        self.accounts[row["account_id"]] = row
        self.balance[row["account_id"]] = round(start, 2)
        self.held[row["account_id"]] = 0.0
        return row

    def _accounts(self) -> None:
        rng, fake = self.rng, self.fake
        self.checking = self._account(rng.choice(CHECKING_NAMES), "checking", fake.money(2500, 7000),
                                      rate=0.01)
        self.bills = (self._account(rng.choice(BILLS_CHECKING_NAMES), "checking", fake.money(800, 2000),
                                    rate=0.01) if rng.random() < 0.4 else None)
        self.savings = self._account(rng.choice(SAVINGS_NAMES), "savings", fake.money(4000, 38000),
                                     rate=round(rng.uniform(3.4, 4.6), 2))
        self.goal = (self._account(rng.choice(GOAL_SAVINGS_NAMES), "savings", fake.money(300, 9000),
                                   rate=round(rng.uniform(3.4, 4.6), 2)) if rng.random() < 0.5 else None)
        name, self.credit_network = rng.choice(CREDIT_NAMES)
        self.credit = self._account(name, "credit_card", fake.money(150, 1800),
                                    credit_limit=float(rng.randrange(4000, 25001, 500)),
                                    rate=round(rng.uniform(18.99, 28.99), 2))
        self.store = None
        if rng.random() < 0.35:
            name, self.store_network = rng.choice(STORE_CREDIT_NAMES)
            self.store = self._account(name, "credit_card", fake.money(0, 400),
                                       credit_limit=float(rng.randrange(1500, 6001, 500)),
                                       rate=round(rng.uniform(22.99, 29.99), 2))
        self.bill_payer = self.bills or self.checking

    def _payee(self, name: str, kind: str, category: str) -> dict[str, Any]:
        fake = self.fake
        row = {
            "payee_id": self.w.new_id("PAY"),
            "name": name,
            "kind": kind,
            "category": category,
            "account_number": fake.digits(self.rng.randint(8, 12)),
            "routing_number": fake.digits(9),
            "status": "active",
            "added_on": fake.date_between(date(2023, 1, 1), date(2025, 8, 15)).isoformat(),
        }
        self.rows["payees"].append(row)
        return row

    def _payees(self) -> None:
        rng, fake = self.rng, self.fake
        local = {"city": self.city.name}
        if rng.random() < 0.7:
            self.landlord = self._payee(f"{fake.company().split()[0]} Property Management", "business", "housing")
        else:
            self.landlord = self._payee(fake.person().name, "person", "housing")
        self.electric = self._payee(rng.choice(ELECTRIC).format(**local), "business", "utilities")
        self.internet = self._payee(rng.choice(INTERNET), "business", "utilities")
        self.mobile = self._payee(rng.choice(MOBILE), "business", "utilities")
        self.water = self._payee(f"City of {self.city.name} Water", "business", "utilities")
        self.insurer = self._payee(rng.choice(INSURANCE), "business", "insurance") if rng.random() < 0.7 else None
        self.lender = self._payee(rng.choice(LOANS), "business", "loans") if rng.random() < 0.5 else None
        taken = {self.person.name, self.landlord["name"]}
        people = [p for p in fake.people(rng.randint(6, 21)) if p.name not in taken]
        self.service_kind = rng.choice(SERVICE_PAYEES)
        self.service = self._payee(people[0].name, "person", "bills")
        self.friends = [self._payee(p.name, "person", "transfer") for p in people[1:]]

    def _card(self, account: dict[str, Any], kind: str, network: str, issued: date, *,
              limit: float, replaces: dict[str, Any] | None = None) -> dict[str, Any]:
        fake = self.fake
        prefix = "4" if network == "Visa" else "5" + str(self.rng.randint(1, 5))
        number = fake.card_number(prefix)
        expiry_year = issued.year + 4   # cards are reissued every four years until the account closes
        while expiry_year <= self.today.year:
            expiry_year += 4
        expires = date(expiry_year, self.rng.randint(1, 12), 1)
        row = {
            "card_id": self.w.new_id("CRD"),
            "account_id": account["account_id"],
            "name": f"{network} {kind} card ending {number[-4:]}",
            "kind": kind,
            "network": network,
            "card_number": number,
            "cardholder": self.person.name.upper(),
            "expires": expires.strftime("%m/%y"),
            "pin": replaces["pin"] if replaces else _pin(self.rng),
            "pin_changed_on": None,
            "status": "active",
            "daily_spending_limit": limit,
            "issued_on": issued.isoformat(),
            "replaces_card_id": replaces["card_id"] if replaces else None,
        }
        self.rows["cards"].append(row)
        return row

    def _cards(self) -> None:
        rng, fake = self.rng, self.fake
        debit_limit = float(rng.choice((1000, 1500, 2000, 2500, 3000)))
        # `active_until[card_id]`: the last moment the card was usable (lost or frozen since).
        self.active_until: dict[str, datetime] = {}
        self.debit_cards: list[dict[str, Any]] = []
        if rng.random() < 0.4:
            old = self._card(self.checking, "debit", "Visa", fake.date_between(date(2022, 1, 1), date(2024, 12, 31)),
                             limit=debit_limit)
            lost_on = self.today - timedelta(days=rng.randint(45, 120))
            old["status"] = rng.choice(("lost", "stolen"))
            new = self._card(self.checking, "debit", "Visa", lost_on + timedelta(days=1), limit=debit_limit,
                             replaces=old)
            self.active_until[old["card_id"]] = datetime.combine(lost_on, time(12, 0))
            self.debit_cards += [old, new]
        else:
            issued = fake.date_between(date(2023, 1, 1), date(2025, 6, 1))
            self.debit_cards.append(self._card(self.checking, "debit", "Visa", issued, limit=debit_limit))
        self.credit_cards = [self._card(self.credit, "credit", self.credit_network,
                                        date.fromisoformat(self.credit["opened_on"]),
                                        limit=min(self.credit["credit_limit"], float(rng.choice((2000, 3000, 5000)))))]
        secondary = []
        if self.bills is not None:
            card = self._card(self.bills, "debit", "Visa", date.fromisoformat(self.bills["opened_on"]), limit=1000.0)
            secondary.append(card)
            self.debit_cards.append(card)
        if self.store is not None:
            card = self._card(self.store, "credit", self.store_network, date.fromisoformat(self.store["opened_on"]),
                              limit=min(self.store["credit_limit"], 1500.0))
            secondary.append(card)
            self.credit_cards.append(card)
        frozen = None
        if secondary and rng.random() < 0.6:
            frozen = rng.choice(secondary)
        elif rng.random() < 0.3:
            frozen = self.credit_cards[0]
        if frozen is not None:
            frozen["status"] = "frozen"
            self.active_until[frozen["card_id"]] = self.now - timedelta(days=rng.randint(3, 20))

    def _schedule(self, source: dict[str, Any], amount: float, frequency: str, first: date, *,
                  payee: dict[str, Any] | None = None, to: dict[str, Any] | None = None,
                  memo: str | None = None, end: date | None = None, status: str = "scheduled",
                  stop: date | None = None, created: date | None = None) -> _Schedule:
        created = created or min(first, HISTORY_START) - timedelta(days=self.rng.randint(3, 40))
        row = {
            "scheduled_payment_id": self.w.new_id("SCH"),
            "from_account_id": source["account_id"],
            "payee_id": payee["payee_id"] if payee else None,
            "to_account_id": to["account_id"] if to else None,
            "recipient_name": payee["name"] if payee else to["nickname"],  # type: ignore[index]
            "amount": round(amount, 2),
            "frequency": frequency,
            "next_date": None,
            "end_date": end.isoformat() if end else None,
            "memo": memo,
            "status": status,
            "created_at": datetime.combine(created, time(self.rng.randint(8, 21), self.rng.choice((0, 15, 30, 45))))
                                  .isoformat(timespec="seconds"),
        }
        plan = _Schedule(row, first, stop)
        self.rows["scheduled_payments"].append(row)
        self.schedules.append(plan)
        return plan

    def _scheduled(self) -> None:
        rng, fake = self.rng, self.fake
        days = [1, 3, 5, 7, 10, 12, 18, 20, 22, 25, 28]
        self._schedule(self.checking, self.rent, "monthly", date(2025, 5, 1), payee=self.landlord, memo="Rent")
        self._schedule(self.bill_payer, fake.money(55, 95), "monthly", date(2025, 2, rng.choice(days[1:6])),
                       payee=self.internet)
        self._schedule(self.bill_payer, fake.money(35, 95), "monthly", date(2025, 2, rng.choice(days[1:9])),
                       payee=self.mobile)
        self._schedule(self.checking, float(rng.randrange(150, 801, 50)), "monthly",
                       date(2025, 1, rng.choice((18, 20, 22, 25))), to=self.savings, memo="Monthly savings")
        if self.bills is not None:
            self._schedule(self.checking, float(rng.randrange(500, 901, 50)), "monthly", date(2025, 3, 28),
                           to=self.bills, memo="Household bills")
        if self.goal is not None:
            self._schedule(self.checking, float(rng.randrange(50, 301, 25)), "monthly",
                           date(2025, 4, rng.choice((10, 12, 25))), to=self.goal, memo=self.goal["nickname"])
        if self.insurer is not None:
            self._schedule(self.bill_payer, fake.money(18, 190), "monthly", date(2025, 1, rng.choice(days)),
                           payee=self.insurer)
        if self.lender is not None:
            end = (self.today + timedelta(days=rng.randint(200, 900))).replace(day=28)
            self._schedule(self.checking, fake.money(180, 460), "monthly", date(2024, 9, 28), payee=self.lender,
                           end=end)
        # A weekly or biweekly service (dog walking...) the customer stopped paying a few weeks ago.
        what, low, high = self.service_kind
        start = HISTORY_START + timedelta(days=(4 - HISTORY_START.weekday()) % 7 + 7 * rng.randint(0, 3))
        self._schedule(self.checking, float(rng.randint(low, high)), rng.choice(("weekly", "biweekly")), start,
                       payee=self.service, memo=what.capitalize(), status="cancelled",
                       stop=self.today - timedelta(days=rng.randint(20, 45)))
        # A one-time payment already made, and one still to come.
        friend = rng.choice(self.friends)
        on = self.today - timedelta(days=rng.randint(40, 150))
        self._schedule(self.checking, float(rng.randrange(100, 601, 25)), "once", on, payee=friend,
                       memo=rng.choice(("Wedding gift", "Cabin deposit", "Festival tickets", "Loan repayment")),
                       status="completed", stop=on, created=on - timedelta(days=rng.randint(3, 20)))
        friend = rng.choice(self.friends)
        self._schedule(self.checking, float(rng.randrange(40, 401, 10)), "once",
                       self.today + timedelta(days=rng.randint(3, 14)), payee=friend,
                       memo=rng.choice(P2P_MEMOS), created=self.today - timedelta(days=rng.randint(1, 10)))

    # ----- history -----------------------------------------------------------------------------

    def _history(self) -> None:
        """Simulate every day from HISTORY_START up to the epoch, events in time order."""
        rng = self.rng
        merchants = self._merchant_choice()
        subs = rng.sample(SUBSCRIPTIONS, rng.randint(3, 6))
        sub_days = {name: rng.randint(1, 28) for name, _ in subs}
        sub_cards = {name: rng.choice(self.credit_cards) for name, _ in subs}
        dispute_days = {
            self.today - timedelta(days=rng.randint(95, 125)): ("resolved", "refunded"),
            self.today - timedelta(days=rng.randint(12, 35)): ("under_review", None),
        }
        if rng.random() < 0.5:
            dispute_days[self.today - timedelta(days=rng.randint(66, 90))] = ("resolved", "denied")
        refunds: dict[date, list[dict[str, Any]]] = {}
        self._opening = dict(self.balance)
        self._last_closing = dict(self.balance)   # balances at the last month end
        for plan in self.schedules:
            plan.runs = _runs(plan, self.today)
        events: list[tuple[time, Callable[[datetime], Any]]] = []   # the current day's, by time

        def at(hour: int, minute: int, fn: Callable[[datetime], Any]) -> None:
            events.append((time(hour, minute), fn))

        day = HISTORY_START
        while day <= self.today:
            events.clear()

            if day.weekday() == 4 and (day - date(2025, 9, 5)).days % 14 == 0:
                at(6, 0, lambda t: self._post(self.checking, t, self.paycheck, f"{self.employer} Payroll",
                                              "income", "deposit", memo="Direct deposit"))
            for plan in self.schedules:
                if day in plan.runs:
                    at(6, 30, lambda t, p=plan: self._run_schedule(p, t))
            for name, price in subs:
                if day.day == sub_days[name]:
                    at(rng.randint(0, 5), rng.choice((0, 15, 30)),
                       lambda t, n=name, c=price: self._purchase(sub_cards[n], t, n, "subscriptions", c))
            if day.day == 20:
                for card_acc in filter(None, (self.credit, self.store)):
                    at(7, 15, lambda t, a=card_acc: self._pay_card(a, t))
            if day.day in (12, 13, 14) and rng.random() < 0.3 or day.day == 15:
                at(8, 0, lambda t: self._pay_utilities(t))
            for _ in range(rng.choices((0, 1, 2, 3), (20, 35, 30, 15))[0]):
                category = rng.choices(list(PURCHASE_WEIGHTS), list(PURCHASE_WEIGHTS.values()))[0]
                name, lo, hi = rng.choice(merchants[category])
                amount = self.fake.money(lo, hi)
                at(rng.randint(7, 22), rng.randrange(0, 60, 5),
                   lambda t, n=name, c=category, a=amount: self._card_purchase(t, n, c, a))
            if rng.random() < 0.06:
                at(rng.randint(9, 20), rng.randrange(0, 60, 5), lambda t: self._p2p(t))
            if rng.random() < 0.035:
                at(rng.randint(9, 21), rng.randrange(0, 60, 5), lambda t: self._p2p_in(t))
            if rng.random() < 0.05:
                at(rng.randint(10, 21), rng.randrange(0, 60, 5), lambda t: self._atm(t))
            if day in dispute_days:
                status, resolution = dispute_days[day]
                at(rng.randint(11, 20), 10, lambda t, s=status, r=resolution: self._disputed(t, s, r, refunds))
            for target in refunds.pop(day, []):
                at(5, 45, lambda t, tx=target: self._dispute_refund(t, tx))
            if day.day == calendar.monthrange(day.year, day.month)[1]:
                for acc in filter(None, (self.savings, self.goal)):
                    at(23, 30, lambda t, a=acc: self._interest(a, t))
                at(23, 59, lambda t: self._last_closing.update(self.balance))
            for clock, fn in sorted(events, key=lambda e: e[0]):
                when = datetime.combine(day, clock)
                if when < self.now:  # the epoch day only up to 09:00
                    fn(when)
            day += timedelta(days=1)

    def _merchant_choice(self) -> dict[str, list[tuple[str, float, float]]]:
        """The merchants this customer frequents: about half of each category, names localised."""
        self.local = {"city": self.city.name, "last": self.fake.person().last}
        out: dict[str, list[tuple[str, float, float]]] = {}
        for category in PURCHASE_WEIGHTS:
            pool = [(n.format(**self.local), lo, hi) for n, c, lo, hi in MERCHANTS if c == category]
            out[category] = self.rng.sample(pool, max(2, len(pool) // 2 + self.rng.randint(-1, 1)))
        return out

    # ----- events ------------------------------------------------------------------------------

    def _post(self, account: dict[str, Any], at: datetime, amount: float, merchant: str, category: str,
              kind: str, *, card: dict[str, Any] | None = None, transfer_id: str | None = None,
              memo: str | None = None) -> dict[str, Any]:
        """Append one transaction; posted ones move the balance, recent card ones stay pending."""
        amount = round(amount, 2)
        pending = card is not None and at >= self.now - PENDING_FOR
        acc = account["account_id"]
        row = {
            "transaction_id": self.w.new_id("TRX"),
            "account_id": acc,
            "occurred_at": at.isoformat(timespec="seconds"),
            "amount": amount,
            "merchant": merchant,
            "category": category,
            "kind": kind,
            "status": "pending" if pending else "posted",
            "card_id": card["card_id"] if card else None,
            "transfer_id": transfer_id,
            "memo": memo,
        }
        if pending:
            self.held[acc] = round(self.held[acc] + max(-amount, 0.0), 2)
        else:
            sign = -1 if account["type"] == "credit_card" else 1
            self.balance[acc] = round(self.balance[acc] + sign * amount, 2)
        self.rows["transactions"].append(row)
        return row

    def _room(self, account: dict[str, Any]) -> float:
        """How much can still leave the account (available balance, or available credit)."""
        acc = account["account_id"]
        if account["type"] == "credit_card":
            return account["credit_limit"] - self.balance[acc] - self.held[acc]
        return self.balance[acc] - self.held[acc]

    def _usable(self, card: dict[str, Any], at: datetime) -> bool:
        until = self.active_until.get(card["card_id"])
        issued = datetime.combine(date.fromisoformat(card["issued_on"]), time(0))
        return at >= issued and (until is None or at <= until)

    def _purchase(self, card: dict[str, Any], at: datetime, merchant: str, category: str,
                  amount: float) -> dict[str, Any] | None:
        account = self.accounts[card["account_id"]]
        floor = 0 if account["type"] == "credit_card" else 150
        if not self._usable(card, at) or self._room(account) - amount < floor:
            return None
        return self._post(account, at, -amount, merchant, category, "purchase", card=card)

    def _card_purchase(self, at: datetime, merchant: str, category: str, amount: float) -> None:
        """A purchase on a card in use that day: mostly the main credit card, sometimes debit."""
        cards = [c for c in self.credit_cards + self.debit_cards if self._usable(c, at)]
        if not cards:
            return
        weights = [6 if c is self.credit_cards[0] else 3 if c["kind"] == "debit" and c["account_id"] ==
                   self.checking["account_id"] else 1 for c in cards]
        card = self.rng.choices(cards, weights)[0]
        row = self._purchase(card, at, merchant, category, amount)
        if row and category == "travel" and card["kind"] == "credit" and self.rng.random() < 0.4:
            fee = round(amount * 0.03, 2)
            self._post(self.accounts[card["account_id"]], at + timedelta(minutes=1), -fee,
                       "Foreign transaction fee", "fees", "fee", card=card)

    def _transfer(self, source: dict[str, Any], at: datetime, amount: float, *, to: dict[str, Any] | None = None,
                  payee: dict[str, Any] | None = None, memo: str | None = None,
                  schedule: str | None = None) -> None:
        if amount <= 0 or self._room(source) - amount < 0:
            return
        transfer_id = self.w.new_id("TRF")
        self.rows["transfers"].append({
            "transfer_id": transfer_id,
            "kind": "internal" if to else "payee",
            "from_account_id": source["account_id"],
            "to_account_id": to["account_id"] if to else None,
            "payee_id": payee["payee_id"] if payee else None,
            "scheduled_payment_id": schedule,
            "amount": round(amount, 2),
            "memo": memo,
            "created_at": at.isoformat(timespec="seconds"),
        })
        if to is not None:
            out_name = f"{'Payment' if to['type'] == 'credit_card' else 'Transfer'} to {to['nickname']}"
            self._post(source, at, -amount, out_name, "transfer", "transfer", transfer_id=transfer_id, memo=memo)
            in_name = f"{'Payment' if to['type'] == 'credit_card' else 'Transfer'} from {source['nickname']}"
            self._post(to, at, amount, in_name, "transfer", "transfer", transfer_id=transfer_id, memo=memo)
        else:
            assert payee is not None
            self._post(source, at, -amount, payee["name"], payee["category"], "payment",
                       transfer_id=transfer_id, memo=memo)

    def _run_schedule(self, plan: _Schedule, at: datetime) -> None:
        row = plan.row
        source = self.accounts[row["from_account_id"]]
        to = self.accounts.get(row["to_account_id"]) if row["to_account_id"] else None
        payee = next((p for p in self.rows["payees"] if p["payee_id"] == row["payee_id"]), None)
        self._transfer(source, at, row["amount"], to=to, payee=payee, memo=row["memo"],
                       schedule=row["scheduled_payment_id"])

    def _pay_card(self, card_account: dict[str, Any], at: datetime) -> None:
        """Pay last statement's balance in full when checking can afford it, else a part."""
        owed = self._last_closing.get(card_account["account_id"], 0.0)
        if owed <= 0:
            return
        room = self._room(self.checking) - 300
        amount = owed if room >= owed else max(0.0, min(room, max(25.0, round(owed * 0.1, 2))))
        self._transfer(self.checking, at, round(amount, 2), to=card_account)

    def _pay_utilities(self, at: datetime) -> None:
        """Electricity every month and water every other month, paid by hand mid-month."""
        if self.utilities_paid == (at.year, at.month):
            return
        self.utilities_paid = (at.year, at.month)
        winter = at.month in (12, 1, 2)
        self._transfer(self.bill_payer, at, self.fake.money(70, 190) if winter else self.fake.money(45, 130),
                       payee=self.electric)
        if at.month % 2 == 0:
            self._transfer(self.bill_payer, at + timedelta(minutes=2), self.fake.money(38, 95), payee=self.water)

    def _p2p(self, at: datetime) -> None:
        friend = self.rng.choice(self.friends)
        self._transfer(self.checking, at, self.fake.money(15, 220), payee=friend, memo=self.rng.choice(P2P_MEMOS))

    def _p2p_in(self, at: datetime) -> None:
        friend = self.rng.choice(self.friends)
        self._post(self.checking, at, self.fake.money(12, 180), f"Zelle from {friend['name']}", "transfer",
                   "deposit", memo=self.rng.choice(P2P_MEMOS))

    def _atm(self, at: datetime) -> None:
        card = next((c for c in self.debit_cards if self._usable(c, at)
                     and c["account_id"] == self.checking["account_id"]), None)
        amount = float(self.rng.choice((40, 60, 80, 100, 200)))
        if card is None or self._room(self.checking) - amount < 300 or at >= self.now - PENDING_FOR:
            return
        self._post(self.checking, at, -amount, f"ATM withdrawal {self.city.name}", "cash", "withdrawal", card=card)
        if self.rng.random() < 0.3:
            self._post(self.checking, at + timedelta(minutes=1), -3.0, "Out-of-network ATM fee", "fees", "fee",
                       card=card)

    def _interest(self, account: dict[str, Any], at: datetime) -> None:
        amount = round(self.balance[account["account_id"]] * account["interest_rate"] / 100 / 12, 2)
        if amount > 0:
            self._post(account, at, amount, "Interest earned", "interest", "interest")

    def _disputed(self, at: datetime, status: str, resolution: str | None,
                  refunds: dict[date, list[dict[str, Any]]]) -> None:
        """A charge the customer disputed: a duplicate charge still under review, or older ones."""
        name, category, lo, hi = self.rng.choice([m for m in MERCHANTS if m[1] in ("shopping", "dining", "travel")])
        name = name.format(**self.local)
        amount = self.fake.money(max(lo, 25), hi)
        cards = [c for c in self.credit_cards + self.debit_cards if self._usable(c, at)]
        card = next((c for c in cards if self._room(self.accounts[c["account_id"]]) > 2 * amount + 150), None)
        if card is None:
            return
        first = self._purchase(card, at, name, category, amount)
        if first is None:
            return
        target = first
        if resolution is None:  # charged twice: the second one is disputed
            target = self._purchase(card, at + timedelta(minutes=3), name, category, amount)
            if target is None:
                return
        reason = "duplicate" if resolution is None else self.rng.choice(
            ("not_received", "wrong_amount", "unauthorized") if resolution == "refunded"
            else ("not_as_described", "cancelled"))
        opened = at + timedelta(days=self.rng.randint(2, 6), hours=self.rng.randint(0, 5))
        dispute = {
            "dispute_id": self.w.new_id("DSP"),
            "transaction_id": target["transaction_id"],
            "merchant": name,
            "amount": amount,
            "reason": reason,
            "details": _DISPUTE_DETAILS[reason],
            "status": status,
            "resolution": resolution,
            "opened_at": opened.isoformat(timespec="seconds"),
            "resolved_at": None,
        }
        if resolution is not None:
            resolved = opened + timedelta(days=self.rng.randint(14, 30))
            dispute["resolved_at"] = resolved.replace(hour=5, minute=45).isoformat(timespec="seconds")
            if resolution == "refunded":
                refunds.setdefault(resolved.date(), []).append(target)
        self.rows["disputes"].append(dispute)

    def _dispute_refund(self, at: datetime, target: dict[str, Any]) -> None:
        self._post(self.accounts[target["account_id"]], at, -target["amount"], f"Dispute credit {target['merchant']}",
                   target["category"], "refund")

    # ----- statements --------------------------------------------------------------------------

    def _statements(self) -> None:
        """One statement per account per complete month, replaying the posted history."""
        starts = dict(self._opening)
        months = []
        month = HISTORY_START
        while (month.year, month.month) < (self.today.year, self.today.month):
            months.append(month)
            month = (month.replace(day=28) + timedelta(days=4)).replace(day=1)
        by_account: dict[str, list[dict[str, Any]]] = {a: [] for a in starts}
        for tx in self.rows["transactions"]:
            if tx["status"] == "posted":
                by_account[tx["account_id"]].append(tx)
        for month in months:
            end = month.replace(day=calendar.monthrange(month.year, month.month)[1])
            period = month.strftime("%Y-%m")
            for acc in self.rows["accounts"]:
                acc_id = acc["account_id"]
                txs = [t for t in by_account[acc_id] if t["occurred_at"][:7] == period]
                credit = acc["type"] == "credit_card"
                ins = round(sum(t["amount"] for t in txs if t["amount"] > 0), 2)
                outs = round(-sum(t["amount"] for t in txs if t["amount"] < 0), 2)
                opening = starts[acc_id]
                closing = round(opening + (outs - ins if credit else ins - outs), 2)
                starts[acc_id] = closing
                minimum = None
                if credit:
                    minimum = 0.0 if closing <= 0 else round(min(closing, max(25.0, closing * 0.02)), 2)
                self.rows["statements"].append({
                    "statement_id": self.w.new_id("STM"),
                    "account_id": acc_id,
                    "period": period,
                    "start_date": month.isoformat(),
                    "end_date": end.isoformat(),
                    "issued_on": (end + timedelta(days=1)).isoformat(),
                    "opening_balance": opening,
                    "closing_balance": closing,
                    "total_credits": ins,
                    "total_debits": outs,
                    "transaction_count": len(txs),
                    "minimum_payment_due": minimum,
                    "payment_due_date": (end + timedelta(days=25)).isoformat() if credit else None,
                })


_DISPUTE_DETAILS = {
    "duplicate": "I was charged twice for the same purchase a few minutes apart.",
    "not_received": "The order never arrived and the merchant stopped answering.",
    "wrong_amount": "The charge is higher than the price I agreed to at checkout.",
    "unauthorized": "I do not recognise this charge; I did not make this purchase.",
    "not_as_described": "The item arrived damaged and the merchant refused a return.",
    "cancelled": "I cancelled this booking in time but was still charged.",
}


def _runs(plan: _Schedule, today: date) -> list[date]:
    """The past days a scheduled payment ran on (within the history), and set its next date."""
    row = plan.row
    end = date.fromisoformat(row["end_date"]) if row["end_date"] else None
    runs, upcoming = [], None
    for day in _occurrences(plan.first, row["frequency"]):
        if (end and day > end) or (plan.stop and day > plan.stop):
            break
        if day >= today:
            upcoming = day
            break
        if day >= HISTORY_START:
            runs.append(day)
    row["next_date"] = upcoming.isoformat() if upcoming and row["status"] == "scheduled" else None
    return runs


def _occurrences(first: date, frequency: str):  # noqa: ANN202 - a plain generator of dates
    day, n = first, 0
    while True:
        yield day
        if frequency == "once":
            return
        n += 1
        if frequency == "monthly":
            month = first.month - 1 + n
            year = first.year + month // 12
            day = first.replace(year=year, month=month % 12 + 1,
                                day=min(first.day, calendar.monthrange(year, month % 12 + 1)[1]))
        else:
            day = first + timedelta(days=n * (7 if frequency == "weekly" else 14))


def _pin(rng: Any) -> str:
    while True:
        pin = f"{rng.randint(0, 9999):04d}"
        if not is_weak_pin(pin):
            return pin


def is_weak_pin(pin: str) -> bool:
    """A PIN anyone would guess: one digit repeated, or a straight run up or down."""
    steps = {int(b) - int(a) for a, b in zip(pin, pin[1:])}
    return len(steps) == 1 and steps <= {-1, 0, 1}
