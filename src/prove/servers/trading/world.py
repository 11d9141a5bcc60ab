"""The trading world: one investor's accounts at a retail broker, and the market model.

The investor holds an individual brokerage account and a Roth IRA (and, in some worlds, a joint
account with a partner). A year of history before the epoch (Monday 2026-03-16 09:00) is
simulated trade by trade: deposits, buys and sells at the model's prices, quarterly dividends,
IRA contributions. The world ends with the positions and cash that history implies, a few
resting limit orders, watchlists and price alerts.

The market model is shared with the tools:

- Trading days are weekdays that are not NYSE holidays. The broker trades in extended hours,
  04:00 to 20:00 Eastern (pre-market until 09:30, the regular session until 16:00, after-hours
  until 20:00); the simulated clock is Eastern time.
- Market time `T` counts trading days from the epoch's session (T = 0 at 04:00 on 2026-03-16,
  T = 1 at that day's 20:00 close and at the next session's start); it stands still while the
  market is closed.
- A security's price at `T` is `ref_price * exp(drift * T + volatility * wave(T))`, where
  `wave` is a fixed sum of sines with the security's phase: deterministic, continuous, and
  moving a realistic one to three percent a day.
"""

from __future__ import annotations

import math
from datetime import date, datetime, time, timedelta
from typing import Any

from prove.env import WorldGen
from prove.env.values import iso

EPOCH_DAY = date(2026, 3, 16)
OPEN_MINUTE, REGULAR_OPEN, REGULAR_CLOSE, CLOSE_MINUTE = 4 * 60, 9 * 60 + 30, 16 * 60, 20 * 60
SESSION_MINUTES = CLOSE_MINUTE - OPEN_MINUTE
IRA_LIMIT = {2025: 7000.0, 2026: 7500.0}  # Roth IRA contribution limit per tax year (under 50)

HOLIDAYS = frozenset(date.fromisoformat(d) for d in (
    "2025-01-01 2025-01-20 2025-02-17 2025-04-18 2025-05-26 2025-06-19 2025-07-04 2025-09-01 "
    "2025-11-27 2025-12-25 2026-01-01 2026-01-19 2026-02-16 2026-04-03 2026-05-25 2026-06-19 "
    "2026-07-03 2026-09-07 2026-11-26 2026-12-25 2027-01-01 2027-01-18 2027-02-15 2027-03-26 "
    "2027-05-31 2027-06-18 2027-07-05 2027-09-06 2027-11-25 2027-12-24").split())

# (ticker, name, kind, sector, exchange, typical price, daily volatility, dividend yield %)
UNIVERSE: tuple[tuple[str, str, str, str, str, float, float, float], ...] = (
    ("AAPL", "Apple Inc.", "stock", "Technology", "NASDAQ", 228, 0.016, 0.44),
    ("MSFT", "Microsoft Corporation", "stock", "Technology", "NASDAQ", 415, 0.015, 0.78),
    ("NVDA", "NVIDIA Corporation", "stock", "Technology", "NASDAQ", 134, 0.031, 0.03),
    ("AMZN", "Amazon.com, Inc.", "stock", "Consumer Discretionary", "NASDAQ", 205, 0.019, 0.0),
    ("GOOGL", "Alphabet Inc. Class A", "stock", "Communication Services", "NASDAQ", 176, 0.018, 0.46),
    ("META", "Meta Platforms, Inc.", "stock", "Communication Services", "NASDAQ", 610, 0.022, 0.33),
    ("TSLA", "Tesla, Inc.", "stock", "Consumer Discretionary", "NASDAQ", 262, 0.036, 0.0),
    ("BRK.B", "Berkshire Hathaway Inc. Class B", "stock", "Financials", "NYSE", 472, 0.009, 0.0),
    ("JPM", "JPMorgan Chase & Co.", "stock", "Financials", "NYSE", 244, 0.014, 2.05),
    ("V", "Visa Inc.", "stock", "Financials", "NYSE", 322, 0.012, 0.73),
    ("MA", "Mastercard Incorporated", "stock", "Financials", "NYSE", 524, 0.012, 0.55),
    ("UNH", "UnitedHealth Group Incorporated", "stock", "Health Care", "NYSE", 312, 0.021, 2.7),
    ("JNJ", "Johnson & Johnson", "stock", "Health Care", "NYSE", 156, 0.010, 3.2),
    ("LLY", "Eli Lilly and Company", "stock", "Health Care", "NYSE", 790, 0.022, 0.7),
    ("PFE", "Pfizer Inc.", "stock", "Health Care", "NYSE", 26.4, 0.015, 6.5),
    ("MRK", "Merck & Co., Inc.", "stock", "Health Care", "NYSE", 96, 0.014, 3.3),
    ("ABBV", "AbbVie Inc.", "stock", "Health Care", "NYSE", 192, 0.014, 3.4),
    ("PG", "The Procter & Gamble Company", "stock", "Consumer Staples", "NYSE", 166, 0.009, 2.4),
    ("KO", "The Coca-Cola Company", "stock", "Consumer Staples", "NYSE", 68.5, 0.008, 2.9),
    ("PEP", "PepsiCo, Inc.", "stock", "Consumer Staples", "NASDAQ", 151, 0.010, 3.6),
    ("COST", "Costco Wholesale Corporation", "stock", "Consumer Staples", "NASDAQ", 905, 0.013, 0.5),
    ("WMT", "Walmart Inc.", "stock", "Consumer Staples", "NYSE", 96, 0.011, 0.9),
    ("XOM", "Exxon Mobil Corporation", "stock", "Energy", "NYSE", 112, 0.014, 3.4),
    ("CVX", "Chevron Corporation", "stock", "Energy", "NYSE", 156, 0.014, 4.2),
    ("HD", "The Home Depot, Inc.", "stock", "Consumer Discretionary", "NYSE", 392, 0.013, 2.3),
    ("MCD", "McDonald's Corporation", "stock", "Consumer Discretionary", "NYSE", 298, 0.010, 2.3),
    ("NKE", "NIKE, Inc.", "stock", "Consumer Discretionary", "NYSE", 72, 0.020, 2.1),
    ("SBUX", "Starbucks Corporation", "stock", "Consumer Discretionary", "NASDAQ", 94, 0.018, 2.5),
    ("DIS", "The Walt Disney Company", "stock", "Communication Services", "NYSE", 112, 0.016, 0.9),
    ("NFLX", "Netflix, Inc.", "stock", "Communication Services", "NASDAQ", 98, 0.024, 0.0),
    ("ADBE", "Adobe Inc.", "stock", "Technology", "NASDAQ", 402, 0.020, 0.0),
    ("CRM", "Salesforce, Inc.", "stock", "Technology", "NYSE", 298, 0.019, 0.6),
    ("ORCL", "Oracle Corporation", "stock", "Technology", "NYSE", 172, 0.022, 1.0),
    ("INTC", "Intel Corporation", "stock", "Technology", "NASDAQ", 22.8, 0.027, 0.0),
    ("AMD", "Advanced Micro Devices, Inc.", "stock", "Technology", "NASDAQ", 152, 0.029, 0.0),
    ("QCOM", "QUALCOMM Incorporated", "stock", "Technology", "NASDAQ", 161, 0.020, 2.1),
    ("AVGO", "Broadcom Inc.", "stock", "Technology", "NASDAQ", 232, 0.027, 1.0),
    ("CSCO", "Cisco Systems, Inc.", "stock", "Technology", "NASDAQ", 61, 0.012, 2.6),
    ("IBM", "International Business Machines Corporation", "stock", "Technology", "NYSE", 242, 0.013, 2.8),
    ("BA", "The Boeing Company", "stock", "Industrials", "NYSE", 176, 0.021, 0.0),
    ("CAT", "Caterpillar Inc.", "stock", "Industrials", "NYSE", 372, 0.016, 1.5),
    ("GE", "GE Aerospace", "stock", "Industrials", "NYSE", 201, 0.018, 0.6),
    ("UPS", "United Parcel Service, Inc.", "stock", "Industrials", "NYSE", 112, 0.016, 5.8),
    ("F", "Ford Motor Company", "stock", "Consumer Discretionary", "NYSE", 10.4, 0.020, 5.7),
    ("GM", "General Motors Company", "stock", "Consumer Discretionary", "NYSE", 51, 0.019, 0.9),
    ("T", "AT&T Inc.", "stock", "Communication Services", "NYSE", 27.3, 0.011, 4.1),
    ("VZ", "Verizon Communications Inc.", "stock", "Communication Services", "NYSE", 42.6, 0.010, 6.3),
    ("BAC", "Bank of America Corporation", "stock", "Financials", "NYSE", 45.2, 0.016, 2.3),
    ("WFC", "Wells Fargo & Company", "stock", "Financials", "NYSE", 74, 0.017, 2.2),
    ("GS", "The Goldman Sachs Group, Inc.", "stock", "Financials", "NYSE", 602, 0.017, 2.0),
    ("MS", "Morgan Stanley", "stock", "Financials", "NYSE", 131, 0.017, 2.8),
    ("PYPL", "PayPal Holdings, Inc.", "stock", "Financials", "NASDAQ", 74, 0.022, 0.0),
    ("UBER", "Uber Technologies, Inc.", "stock", "Industrials", "NYSE", 79, 0.025, 0.0),
    ("ABNB", "Airbnb, Inc.", "stock", "Consumer Discretionary", "NASDAQ", 131, 0.025, 0.0),
    ("SHOP", "Shopify Inc.", "stock", "Technology", "NASDAQ", 109, 0.031, 0.0),
    ("PLTR", "Palantir Technologies Inc.", "stock", "Technology", "NASDAQ", 88, 0.038, 0.0),
    ("NEE", "NextEra Energy, Inc.", "stock", "Utilities", "NYSE", 71, 0.014, 3.0),
    ("DUK", "Duke Energy Corporation", "stock", "Utilities", "NYSE", 112, 0.010, 3.7),
    ("O", "Realty Income Corporation", "stock", "Real Estate", "NYSE", 56, 0.012, 5.6),
    ("SPY", "SPDR S&P 500 ETF Trust", "etf", "Broad Market ETF", "NYSE Arca", 572, 0.009, 1.2),
    ("VOO", "Vanguard S&P 500 ETF", "etf", "Broad Market ETF", "NYSE Arca", 526, 0.009, 1.2),
    ("VTI", "Vanguard Total Stock Market ETF", "etf", "Broad Market ETF", "NYSE Arca", 289, 0.009, 1.3),
    ("QQQ", "Invesco QQQ Trust", "etf", "Growth ETF", "NASDAQ", 492, 0.012, 0.6),
    ("IWM", "iShares Russell 2000 ETF", "etf", "Small Cap ETF", "NYSE Arca", 214, 0.013, 1.1),
    ("DIA", "SPDR Dow Jones Industrial Average ETF Trust", "etf", "Broad Market ETF", "NYSE Arca", 423, 0.008, 1.6),
    ("VXUS", "Vanguard Total International Stock ETF", "etf", "International ETF", "NASDAQ", 62, 0.009, 3.1),
    ("SCHD", "Schwab U.S. Dividend Equity ETF", "etf", "Dividend ETF", "NYSE Arca", 28.1, 0.008, 3.6),
    ("VIG", "Vanguard Dividend Appreciation ETF", "etf", "Dividend ETF", "NYSE Arca", 198, 0.008, 1.7),
    ("BND", "Vanguard Total Bond Market ETF", "etf", "Bond ETF", "NASDAQ", 73, 0.003, 3.7),
    ("AGG", "iShares Core U.S. Aggregate Bond ETF", "etf", "Bond ETF", "NYSE Arca", 98, 0.003, 3.6),
    ("TLT", "iShares 20+ Year Treasury Bond ETF", "etf", "Bond ETF", "NASDAQ", 91, 0.009, 4.3),
    ("GLD", "SPDR Gold Shares", "etf", "Commodity ETF", "NYSE Arca", 242, 0.010, 0.0),
    ("VNQ", "Vanguard Real Estate ETF", "etf", "Real Estate ETF", "NYSE Arca", 89, 0.012, 3.9),
    ("XLK", "Technology Select Sector SPDR Fund", "etf", "Sector ETF", "NYSE Arca", 231, 0.013, 0.7),
    ("XLE", "Energy Select Sector SPDR Fund", "etf", "Sector ETF", "NYSE Arca", 91, 0.013, 3.3),
    ("ARKK", "ARK Innovation ETF", "etf", "Growth ETF", "Cboe BZX", 54, 0.030, 0.0),
)

BANKS = (("Chase", "Chase Total Checking"), ("Bank of America", "BofA Advantage Checking"),
         ("Wells Fargo", "Wells Fargo Everyday Checking"), ("Ally Bank", "Ally Online Savings"),
         ("Capital One", "Capital One 360 Checking"), ("Citi", "Citi Priority Checking"),
         ("Marcus", "Marcus High-Yield Savings"), ("Schwab Bank", "Schwab Investor Checking"))
WATCHLISTS = {
    "Big Tech": ("AAPL", "MSFT", "GOOGL", "AMZN", "META", "NVDA", "NFLX"),
    "Dividend Ideas": ("JNJ", "KO", "PEP", "PG", "XOM", "CVX", "VZ", "O", "SCHD", "ABBV", "DUK"),
    "Chips": ("NVDA", "AMD", "AVGO", "QCOM", "INTC"),
    "Banks": ("JPM", "BAC", "WFC", "GS", "MS"),
    "Growth Watch": ("TSLA", "PLTR", "SHOP", "UBER", "ABNB", "ARKK"),
    "Healthcare": ("LLY", "UNH", "MRK", "PFE", "ABBV", "JNJ"),
    "ETFs to Consider": ("VTI", "VXUS", "BND", "QQQ", "IWM", "VIG", "TLT", "GLD"),
}
# What else fits each themed watchlist, as a condition on a security's row: a bond fund is no Big Tech
# name and a bank no chip maker.
WATCHLIST_FITS = {
    "Big Tech": "kind = 'stock' AND (sector = 'Technology' OR ticker IN ('GOOGL', 'AMZN', 'META', 'NFLX'))",
    "Dividend Ideas": "dividend_yield >= 2.5",
    "Chips": "ticker IN ('NVDA', 'AMD', 'AVGO', 'QCOM', 'INTC')",
    "Banks": "ticker IN ('JPM', 'BAC', 'WFC', 'GS', 'MS')",
    "Growth Watch": "(kind = 'stock' AND dividend_yield < 0.5 AND sector != 'Financials') OR sector = 'Growth ETF'",
    "Healthcare": "sector = 'Health Care'",
    "ETFs to Consider": "kind = 'etf'",
}
CORE = ("VTI", "VOO", "SPY", "QQQ", "SCHD", "VXUS", "BND")

# The model's sine components: periods in trading days and relative amplitudes.
_PERIODS = (0.19, 0.53, 1.7, 5.9, 21.0, 67.0, 173.0)
_WEIGHTS = (0.18, 0.26, 0.45, 0.8, 1.3, 2.0, 2.6)
_T_BOUND = 2000.0  # market time is clamped here: far-future clocks stay finite


# ----- the market calendar -------------------------------------------------------------------------

def is_trading_day(day: date) -> bool:
    return day.weekday() < 5 and day not in HOLIDAYS


def _weekdays(a: date, b: date) -> int:
    """Weekdays in [a, b), for a <= b."""
    full, rest = divmod((b - a).days, 7)
    start = a.weekday()
    return full * 5 + sum(1 for i in range(rest) if (start + i) % 7 < 5)


def day_index(day: date) -> int:
    """Trading days in [epoch day, day), or minus those in [day, epoch day) before the epoch."""
    if day >= EPOCH_DAY:
        return _weekdays(EPOCH_DAY, day) - sum(1 for h in HOLIDAYS if EPOCH_DAY <= h < day)
    return -(_weekdays(day, EPOCH_DAY) - sum(1 for h in HOLIDAYS if day <= h < EPOCH_DAY))


def market_clock(moment: datetime) -> tuple[float, bool]:
    """Market time `T` at a local moment, and whether the market is open then."""
    day = moment.date()
    idx = day_index(day)
    if not is_trading_day(day):
        return float(idx), False
    minute = moment.hour * 60 + moment.minute + moment.second / 60
    if minute < OPEN_MINUTE:
        return float(idx), False
    if minute >= CLOSE_MINUTE:
        return float(idx + 1), False
    return idx + (minute - OPEN_MINUTE) / SESSION_MINUTES, True


def session_of(moment: datetime) -> str:
    """'pre_market', 'regular', 'after_hours' or 'closed'."""
    if not is_trading_day(moment.date()):
        return "closed"
    minute = moment.hour * 60 + moment.minute
    if minute < OPEN_MINUTE or minute >= CLOSE_MINUTE:
        return "closed"
    if minute < REGULAR_OPEN:
        return "pre_market"
    return "regular" if minute < REGULAR_CLOSE else "after_hours"


def next_trading_day(day: date) -> date:
    """The first trading day after `day`."""
    day += timedelta(days=1)
    while not is_trading_day(day):
        day += timedelta(days=1)
    return day


def next_open(moment: datetime) -> datetime:
    """When the market next opens at or after `moment` (the moment itself if it is open)."""
    day = moment.date()
    if is_trading_day(day) and moment.time() < time(4, 0):
        return datetime.combine(day, time(4, 0))
    if is_trading_day(day) and moment.time() < time(20, 0):
        return moment
    return datetime.combine(next_trading_day(day), time(4, 0))


def session_close(moment: datetime) -> datetime:
    """The close (20:00) of the session a moment belongs to, or of the next one if closed."""
    start = next_open(moment)
    return datetime.combine(start.date(), time(20, 0))


# ----- prices ------------------------------------------------------------------------------------

def model_price(ref_price: float, drift: float, volatility: float, phase: float, t: float) -> float:
    """The model price at market time `t`, rounded to cents."""
    t = max(-_T_BOUND, min(_T_BOUND, t))
    x = drift * t
    for k, (period, weight) in enumerate(zip(_PERIODS, _WEIGHTS, strict=True)):
        x += volatility * weight * math.sin(2 * math.pi * t / period + phase * (k + 1.618))
    return max(0.01, round(ref_price * math.exp(x), 2))


def half_spread(price: float) -> float:
    return max(0.01, round(price * 0.0002, 2))


# ----- the world -----------------------------------------------------------------------------------

class _Book:
    """One account's cash and positions while its history is simulated."""

    def __init__(self, account_id: str) -> None:
        self.account_id = account_id
        self.cash = 0.0
        self.positions: dict[str, list[float]] = {}  # ticker -> [quantity, avg_cost, opened_on]
        self.opened: dict[str, str] = {}


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    """Build the world of seed `w.seed`: the investor, securities, accounts and a year of history."""
    rng, fake = w.rng, w.fake
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in (
        "profile", "securities", "accounts", "bank_links", "positions", "orders", "activity",
        "watchlists", "watchlist_items", "price_alerts")}

    # ----- the investor ----------------------------------------------------------------------------
    me, partner = fake.people(2)
    city = fake.city()
    while city.country != "US":
        city = fake.city()
    rows["profile"].append({
        "customer_id": w.new_id("CUS"), "name": me.name, "email": fake.email(me), "phone": fake.phone(),
        "address": f"{fake.street_address()}, {city.name}, {city.region} {city.zip_prefix}{fake.digits(2)}",
        "member_since": fake.date_between(date(2016, 1, 1), date(2022, 12, 31)).isoformat(),
        "daily_deposit_limit": rng.choice((25000.0, 50000.0, 100000.0)),
    })

    # ----- securities and their price models ------------------------------------------------------
    sec: dict[str, dict[str, Any]] = {}
    for ticker, name, kind, sector, exchange, typical, vol, dy in UNIVERSE:
        sec[ticker] = {
            "ticker": ticker, "name": name, "kind": kind, "sector": sector, "exchange": exchange,
            "ref_price": round(typical * rng.uniform(0.86, 1.16), 2),
            "drift": round(rng.gauss(0.0004, 0.0009) if kind == "stock" else rng.gauss(0.0003, 0.0003), 6),
            "volatility": round(vol * rng.uniform(0.8, 1.25), 5),
            "phase": round(rng.uniform(0, 2 * math.pi), 4),
            "dividend_yield": round(dy * rng.uniform(0.9, 1.1), 2) if dy else 0.0,
        }
    rows["securities"] = list(sec.values())

    def price(ticker: str, moment: datetime) -> float:
        s = sec[ticker]
        return model_price(s["ref_price"], s["drift"], s["volatility"], s["phase"], market_clock(moment)[0])

    # ----- accounts and bank links ------------------------------------------------------------------
    start = date(2025, 3, 17)
    history_days = [start + timedelta(days=i) for i in range((EPOCH_DAY - start).days)]
    trading_days = [d for d in history_days if is_trading_day(d)]
    kinds = ["individual", "roth_ira"] + (["joint"] if rng.random() < 0.5 else [])
    names = {"individual": "Individual Brokerage", "roth_ira": "Roth IRA",
             "joint": f"Joint Brokerage with {partner.first}"}
    books: dict[str, _Book] = {}
    for kind in kinds:
        aid = w.new_id("BRK")
        rows["accounts"].append({
            "account_id": aid, "name": names[kind], "kind": kind, "number_last4": fake.digits(4),
            "opened_on": fake.date_between(date(2017, 1, 1), date(2024, 12, 31)).isoformat(),
            "cash": 0.0, "contributions_ytd": 0.0, "contribution_year": EPOCH_DAY.year,
            # A joint account sometimes still waits for the co-owner's ID check: it may not buy.
            "status": "restricted" if kind == "joint" and rng.random() < 0.35 else "active"})
        books[kind] = _Book(aid)
    links = []
    n_links = rng.randint(3, 4)
    for i, (institution, product) in enumerate(rng.sample(BANKS, n_links)):
        last4 = fake.digits(4)
        lid = w.new_id("BNK")
        links.append(lid)
        rows["bank_links"].append({
            "bank_link_id": lid, "nickname": f"{product} ending {last4}", "institution": institution,
            "account_type": "savings" if "Savings" in product else "checking", "number_last4": last4,
            "status": "pending_verification" if i == n_links - 1 else "verified",  # just added
            "linked_on": (date(2026, 3, rng.randint(11, 15)) if i == n_links - 1
                          else fake.date_between(date(2019, 1, 1), date(2025, 12, 31))).isoformat()})
    main_link = links[0]

    events: list[tuple[datetime, int, dict[str, Any]]] = []  # (moment, order, action)

    def at_random_time(day: date, regular: bool = True) -> datetime:
        lo, hi = (REGULAR_OPEN, REGULAR_CLOSE - 5) if regular else (7 * 60, 19 * 60)
        return datetime.combine(day, time()) + timedelta(minutes=rng.randrange(lo, hi), seconds=rng.randrange(60))

    # Deposits: an opening deposit, then monthly savings; IRA contributions by tax year.
    funding = {"individual": rng.randrange(15000, 60000, 500), "joint": rng.randrange(10000, 40000, 500)}
    monthly = {"individual": rng.choice((500, 750, 1000, 1500, 2000)), "joint": rng.choice((300, 500, 800))}
    for kind in ("individual", "joint"):
        if kind not in books:
            continue
        events.append((at_random_time(trading_days[0], False), 0,
                       {"do": "deposit", "kind": kind, "amount": funding[kind]}))
        for year, month in [(2025, m) for m in range(4, 13)] + [(2026, 1), (2026, 2), (2026, 3)]:
            day = next((d for d in trading_days if (d.year, d.month) == (year, month)), None)
            if day is not None:
                events.append((at_random_time(day, False), 0,
                               {"do": "deposit", "kind": kind, "amount": monthly[kind]}))
    ira_2025 = IRA_LIMIT[2025] if rng.random() < 0.7 else rng.randrange(3000, 6500, 500)
    ira_2026 = rng.choice((0.0, 1500.0, 2500.0, 4000.0, 5000.0, 6000.0, 6500.0))
    events.append((at_random_time(trading_days[0], False), 0,
                   {"do": "deposit", "kind": "roth_ira", "amount": rng.randrange(8000, 30000, 1000), "rollover": True}))
    for amount, day in ((ira_2025, rng.choice(trading_days[20:150])),
                        (ira_2026, rng.choice([d for d in trading_days if d.year == 2026]))):
        if amount:
            events.append((at_random_time(day, False), 0, {"do": "deposit", "kind": "roth_ira", "amount": amount,
                                                           "contribution": True}))

    # Trades: each account favours a handful of securities.
    pools = {
        "individual": rng.sample([t for t in sec if t not in CORE], 10) + rng.sample(CORE, 2),
        "roth_ira": rng.sample(CORE, 3) + rng.sample([t for t in sec if t not in CORE], 3),
        "joint": rng.sample(CORE, 2) + rng.sample([t for t in sec if t not in CORE], 4),
    }
    for kind in books:
        n_trades = {"individual": rng.randint(45, 70), "roth_ira": rng.randint(14, 24),
                    "joint": rng.randint(12, 22)}[kind]
        for _ in range(n_trades):
            day = rng.choice(trading_days[3:])
            events.append((at_random_time(day), 1, {"do": "trade", "kind": kind, "ticker": rng.choice(pools[kind])}))
    # Quarterly dividends and cash-sweep interest, paid on the 15th or the next trading day.
    for year, month in ((2025, 3), (2025, 6), (2025, 9), (2025, 12), (2026, 3)):
        pay = date(year, month, 15)
        while not is_trading_day(pay):
            pay += timedelta(days=1)
        if start < pay < EPOCH_DAY:
            events.append((datetime.combine(pay, time(6, 30)), 2, {"do": "dividends"}))
    events.sort(key=lambda e: (e[0], e[1]))

    def log(book: _Book, moment: datetime, kind: str, amount: float, description: str, **extra: Any) -> None:
        rows["activity"].append({
            "activity_id": w.new_id("ACT"), "account_id": book.account_id, "occurred_at": iso(moment),
            "kind": kind, "ticker": extra.get("ticker"), "quantity": extra.get("quantity"),
            "price": extra.get("price"), "amount": round(amount, 2), "realized_gain": extra.get("realized_gain"),
            "order_id": extra.get("order_id"), "bank_link_id": extra.get("bank_link_id"),
            "description": description})

    def order(book: _Book, ticker: str, side: str, qty: int, moment: datetime, px: float) -> tuple[str, datetime]:
        """A filled order placed at `moment`: market, or a limit just through the market."""
        limit = rng.random() < 0.35
        oid = w.new_id("ORD")
        filled = moment + timedelta(seconds=rng.randint(1, 4))
        tif = "gtc" if limit and rng.random() < 0.4 else "day"
        rows["orders"].append({
            "order_id": oid, "account_id": book.account_id, "ticker": ticker, "side": side,
            "order_type": "limit" if limit else "market", "quantity": qty,
            "limit_price": round(px * (1.004 if side == "buy" else 0.996), 2) if limit else None,
            "time_in_force": tif, "status": "filled", "placed_at": iso(moment),
            "expires_at": iso(session_close(moment)) if tif == "day" else None,
            "filled_at": iso(filled), "fill_price": px, "cancelled_at": None})
        return oid, filled

    for moment, _, ev in events:
        if ev["do"] == "deposit":
            book = books[ev["kind"]]
            amount = float(ev["amount"])
            book.cash += amount
            if ev.get("rollover"):
                log(book, moment, "transfer_in", amount, "Rollover from former employer 401(k)")
            else:
                what = "Roth IRA contribution" if ev.get("contribution") else "Deposit"
                log(book, moment, "deposit", amount, f"{what} from {rows['bank_links'][0]['nickname']}",
                    bank_link_id=main_link)
                if ev.get("contribution") and moment.year == 2026:
                    acct = next(a for a in rows["accounts"] if a["account_id"] == book.account_id)
                    acct["contributions_ytd"] += amount
        elif ev["do"] == "trade":
            book, ticker = books[ev["kind"]], ev["ticker"]
            px = price(ticker, moment)
            held = book.positions.get(ticker)
            sell = held is not None and rng.random() < 0.3
            if sell:
                qty = max(1, int(held[0] * rng.choice((0.25, 0.5, 1.0))))
                qty = min(qty, int(held[0]))
                fill = round(px - half_spread(px), 2)
                gain = round(qty * (fill - held[1]), 2)
                oid, filled = order(book, ticker, "sell", qty, moment, fill)
                book.cash += qty * fill
                held[0] -= qty
                if held[0] <= 0:
                    del book.positions[ticker]
                log(book, filled, "sell", qty * fill, f"Sold {qty} {ticker} @ {fill:.2f}", ticker=ticker,
                    quantity=qty, price=fill, realized_gain=gain, order_id=oid)
            else:
                budget = min(book.cash * rng.uniform(0.08, 0.3), rng.choice((1500, 2500, 4000, 6000)))
                fill = round(px + half_spread(px), 2)
                qty = int(budget // fill)
                if qty < 1:
                    continue
                oid, filled = order(book, ticker, "buy", qty, moment, fill)
                book.cash -= qty * fill
                if held is None:
                    book.positions[ticker] = [qty, fill, moment.date().isoformat()]
                else:
                    held[1] = (held[0] * held[1] + qty * fill) / (held[0] + qty)
                    held[0] += qty
                log(book, filled, "buy", -qty * fill, f"Bought {qty} {ticker} @ {fill:.2f}", ticker=ticker,
                    quantity=qty, price=fill, order_id=oid)
        else:  # dividends on everything held
            for book in books.values():
                for ticker, (qty, _, _) in sorted(book.positions.items()):
                    dy = sec[ticker]["dividend_yield"]
                    if dy <= 0:
                        continue
                    per_share = round(price(ticker, moment) * dy / 100 / 4, 4)
                    amount = round(qty * per_share, 2)
                    if amount >= 0.01:
                        book.cash += amount
                        log(book, moment, "dividend", amount, f"Dividend {ticker} ({int(qty)} sh @ {per_share:.4f})",
                            ticker=ticker, quantity=int(qty), price=per_share)
            for book in books.values():  # cash-sweep interest, paid quarterly
                interest = round(book.cash * 0.045 / 4 * rng.uniform(0.8, 1.0), 2)
                if interest >= 0.01:
                    book.cash += interest
                    log(book, moment, "interest", interest, "Interest on cash sweep")

    # A few orders that never filled: cancelled limit orders and expired day orders.
    for _ in range(rng.randint(5, 9)):
        book = rng.choice(list(books.values()))
        ticker = rng.choice(pools[next(k for k, b in books.items() if b is book)])
        moment = at_random_time(rng.choice(trading_days[5:]))
        px = price(ticker, moment)
        side = "buy" if rng.random() < 0.7 else "sell"
        limit = round(px * (rng.uniform(0.88, 0.96) if side == "buy" else rng.uniform(1.05, 1.12)), 2)
        tif = rng.choice(("day", "gtc"))
        closes = session_close(moment)
        end = closes if tif == "day" else moment + timedelta(days=rng.randint(1, 20), minutes=rng.randint(5, 300))
        end = min(end, datetime.combine(EPOCH_DAY, time(8, 0)) - timedelta(days=3))
        if end <= moment:
            continue
        rows["orders"].append({
            "order_id": w.new_id("ORD"), "account_id": book.account_id, "ticker": ticker, "side": side,
            "order_type": "limit", "quantity": rng.randint(1, 40), "limit_price": limit, "time_in_force": tif,
            "status": "expired" if tif == "day" else "cancelled", "placed_at": iso(moment),
            "expires_at": iso(closes) if tif == "day" else None, "filled_at": None, "fill_price": None,
            "cancelled_at": iso(end)})

    # Resting good-till-cancelled limit orders, out of reach of the epoch's prices.
    for kind, book in books.items():
        for _ in range(rng.randint(1, 2) if kind == "individual" else rng.randint(0, 1)):
            moment = at_random_time(rng.choice(trading_days[-8:]))
            if book.positions and rng.random() < 0.4:
                ticker = rng.choice(sorted(book.positions))
                side, qty = "sell", max(1, int(book.positions[ticker][0] // 2))
                limit = round(price(ticker, w.now) * rng.uniform(1.08, 1.15), 2)
            else:
                ticker = rng.choice(pools[kind])
                limit = round(price(ticker, w.now) * rng.uniform(0.86, 0.93), 2)
                side, qty = "buy", int(min(book.cash * 0.25, 3000) // limit)
                if qty < 1:
                    continue
            rows["orders"].append({
                "order_id": w.new_id("ORD"), "account_id": book.account_id, "ticker": ticker, "side": side,
                "order_type": "limit", "quantity": qty, "limit_price": limit, "time_in_force": "gtc",
                "status": "open", "placed_at": iso(moment), "expires_at": None, "filled_at": None,
                "fill_price": None, "cancelled_at": None})

    for account in rows["accounts"]:
        book = next(b for b in books.values() if b.account_id == account["account_id"])
        account["cash"] = round(book.cash, 2)
        for ticker, (qty, avg, opened) in sorted(book.positions.items()):
            rows["positions"].append({"account_id": book.account_id, "ticker": ticker, "quantity": int(qty),
                                      "avg_cost": round(avg, 4), "opened_on": opened})

    # ----- watchlists and price alerts ------------------------------------------------------------
    for name in rng.sample(sorted(WATCHLISTS), rng.randint(2, 4)):
        wid = w.new_id("WL")
        created = datetime.combine(fake.date_between(date(2024, 6, 1), date(2026, 2, 28)), time(20, 30))
        rows["watchlists"].append({"watchlist_id": wid, "name": name, "created_at": iso(created)})
        tickers = WATCHLISTS[name]
        for ticker in rng.sample(tickers, rng.randint(max(3, len(tickers) - 3), len(tickers))):
            added = created + timedelta(days=rng.randint(0, 20), minutes=rng.randint(0, 600))
            rows["watchlist_items"].append({"watchlist_id": wid, "ticker": ticker, "added_at": iso(added)})
    held_or_watched = sorted({p["ticker"] for p in rows["positions"]} | {i["ticker"] for i in rows["watchlist_items"]})
    for i in range(rng.randint(7, 11)):
        ticker = rng.choice(held_or_watched)
        now_px = price(ticker, w.now)
        condition = rng.choice(("above", "below"))
        created = at_random_time(rng.choice(trading_days[-60:]), False)
        if i < 5:  # still waiting
            target = round(now_px * (rng.uniform(1.04, 1.15) if condition == "above" else rng.uniform(0.85, 0.96)), 2)
            status, triggered_at, triggered_price, cancelled_at = "active", None, None, None
        else:
            then = created + timedelta(days=rng.randint(1, 25))
            then = min(then, datetime.combine(EPOCH_DAY, time(8, 0)) - timedelta(days=1))
            if then <= created:
                continue
            then_px = price(ticker, then)
            if rng.random() < 0.6:
                status, triggered_at, triggered_price, cancelled_at = "triggered", iso(then), then_px, None
                target = round(then_px * (0.995 if condition == "above" else 1.005), 2)
            else:
                status, triggered_at, triggered_price, cancelled_at = "cancelled", None, None, iso(then)
                target = round(then_px * (1.1 if condition == "above" else 0.9), 2)
        rows["price_alerts"].append({
            "alert_id": w.new_id("ALR"), "ticker": ticker, "condition": condition, "target_price": target,
            "status": status, "created_at": iso(created), "triggered_at": triggered_at,
            "triggered_price": triggered_price, "cancelled_at": cancelled_at})

    # Rows in key order fill SQLite pages densely: a smaller template for every session to copy.
    rows["orders"].sort(key=lambda r: r["order_id"])
    rows["activity"].sort(key=lambda r: r["activity_id"])
    return rows
