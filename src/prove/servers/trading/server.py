"""The trading server's declaration: the `server`, its entity kinds, types, result models and shared rules.

The tools live by area in `tools_<area>.py` (market, accounts, orders, watchlists and alerts),
each a toolset the package includes.

Rules every tool follows:

- Prices come from the deterministic market model in `world.py`: they depend only on the
  security and the simulated clock, so they move only when the episode's clock moves.
- The market is open on trading days from 04:00 to 20:00 (extended hours). Market orders need
  an open market; limit orders may be placed any time and rest ('open') until they can fill.
- A buy fills at the ask, a sell at the bid. A buy limit order reserves `quantity x limit_price`
  of cash and a sell order reserves its shares until it fills, is cancelled or expires.
- Resting orders, day-order expiry and price alerts are brought up to date at the start of every
  write tool (the market is checked at that moment); read tools report the stored state.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import iso, money

from .world import (
    IRA_LIMIT,
    build_world,
    half_spread,
    market_clock,
    model_price,
    session_close,
    session_of,
)

ACCOUNT = EntityKind("account", table="accounts", key="account_id", label="name",
                     description="a brokerage account of the investor (individual, joint or Roth IRA)")
SECURITY = EntityKind("security", table="securities", key="ticker", label="name", noun="ticker", public_id=True,
                      description="a stock or ETF that can be quoted and traded, by ticker symbol", naming="alone")
ORDER = EntityKind("order", table="orders", key="order_id", label="ticker", public_id=True,
                   description="an order to buy or sell shares, open or done")
ACTIVITY = EntityKind("activity", table="activity", key="activity_id", label="description", noun="transaction",
                      description="one entry of an account's history: a fill, dividend, deposit or transfer")
BANK_LINK = EntityKind("bank_link", table="bank_links", key="bank_link_id", label="nickname",
                       noun="linked bank account",
                       description="an external bank account linked for deposits and withdrawals")
WATCHLIST = EntityKind("watchlist", table="watchlists", key="watchlist_id", label="name",
                       description="a named list of securities the investor follows")
ALERT = EntityKind("alert", table="price_alerts", key="alert_id", label="ticker", noun="price alert",
                   description="a price alert on a security (above or below a target)")

server = Server(
    "trading", "Brokerage trading",
    "The brokerage accounts of one signed-in investor at a retail broker: cash, positions, live "
    "quotes for about 75 US stocks and ETFs, market and limit orders with their status and history, "
    "deposits, withdrawals and transfers (with Roth IRA contribution limits), watchlists and price "
    "alerts. The market trades weekdays 04:00-20:00 Eastern, extended hours included.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[ACCOUNT, SECURITY, ORDER, ACTIVITY, BANK_LINK, WATCHLIST, ALERT],
)

# ----- parameter types -------------------------------------------------------------------------

AccountId = ACCOUNT.id
Ticker = SECURITY.id
OrderId = ORDER.id
ActivityId = ACTIVITY.id
BankLinkId = BANK_LINK.id
WatchlistId = WATCHLIST.id
AlertId = ALERT.id
# Subsets some tools take, so that sampled calls name an entity the tool can act on.
OpenOrderId = ORDER.where("status = 'open'")
ActiveAlertId = ALERT.where("status = 'active'")
VerifiedBankLinkId = BANK_LINK.where("status = 'verified'")
TaxableAccountId = ACCOUNT.where("kind != 'roth_ira'")

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Limit = Annotated[int, Field(ge=1, le=100)]
Amount = Annotated[float, Field(gt=0, le=1_000_000)]
Price = Annotated[float, Field(gt=0, le=1_000_000)]
Quantity = Annotated[int, Field(ge=1, le=100_000)]
Side = Literal["buy", "sell"]
OrderType = Literal["market", "limit"]
TimeInForce = Literal["day", "gtc"]
OrderStatus = Literal["open", "filled", "cancelled", "expired"]
Session = Literal["pre_market", "regular", "after_hours", "closed"]
Condition = Literal["above", "below"]
AlertStatus = Literal["active", "triggered", "cancelled"]
ActivityKind = Literal["buy", "sell", "dividend", "deposit", "withdrawal", "transfer_in", "transfer_out", "interest"]

# ----- result models ---------------------------------------------------------------------------


class Quote(BaseModel):
    ticker: Ticker
    name: str
    price: float = Field(description="last trade price")
    bid: float = Field(description="price a market sell fills at")
    ask: float = Field(description="price a market buy fills at")
    previous_close: float = Field(description="close of the previous session")
    change: float = Field(description="price minus previous_close")
    change_percent: float
    change_text: str = Field("", description="the change in words: 'up 1.69%', 'down 0.42%' or 'unchanged'")
    session: Session = Field(description="market session at the time of the quote")
    as_of: str


class Security(BaseModel):
    ticker: Ticker
    name: str
    kind: Literal["stock", "etf"]
    sector: str
    exchange: str
    price: float
    change_percent: float
    dividend_yield: float = Field(description="annual dividend yield in percent")


class SecurityList(BaseModel):
    securities: list[Security]
    total: int = Field(description="how many securities matched, before `limit`")
    securities_text: str = Field(description="The securities in words, such as 'Palantir Technologies Inc. (PLTR), "
                                             "a Technology stock at $93.95'.")


class DailyClose(BaseModel):
    date: str
    close: float
    change_percent: float = Field(description="change from the session before")


class PriceHistory(BaseModel):
    ticker: Ticker
    name: str
    closes: list[DailyClose] = Field(description="closing prices of completed sessions, oldest first")
    total: int
    start_price: float = Field(description="the close of the session before the first listed")
    change_percent: float = Field(description="change from the close before the first listed to the last")
    last_date: str = Field(description="the day of the last close listed")
    last_price: float = Field(description="the last close listed")
    low_price: float = Field(description="the lowest close listed")
    high_price: float = Field(description="the highest close listed")


class MarketStatus(BaseModel):
    now: str
    session: Session
    is_open: bool = Field(description="whether market orders can be placed now")
    next_open: str | None = Field(description="when the market next opens, if it is closed")
    closes_at: str | None = Field(description="when the current session ends, if it is open")
    hours: str


class AccountBrief(BaseModel):
    account_id: AccountId
    name: str
    kind: Literal["individual", "joint", "roth_ira"]
    number_last4: str
    status: Literal["active", "restricted"] = Field(description="'restricted' accounts may sell but not buy")
    cash: float
    total_value: float = Field(description="cash plus the market value of positions")


class AccountList(BaseModel):
    accounts: list[AccountBrief]
    total: int
    accounts_text: str = Field(description="The accounts in words, such as 'Individual Brokerage (ending 1568): "
                                           "$7,473.09 in cash, $34,067.62 in all'.")


class AccountSummary(BaseModel):
    account_id: AccountId
    name: str
    kind: Literal["individual", "joint", "roth_ira"]
    number_last4: str
    status: Literal["active", "restricted"]
    opened_on: str
    cash: float = Field(description="cash in the account, including cash reserved for open buy orders")
    reserved_for_orders: float = Field(description="cash held for open buy limit orders")
    buying_power: float = Field(description="cash available for new buys and withdrawals")
    positions_value: float
    total_value: float
    unrealized_gain: float
    day_change: float = Field(description="change of the positions' value since the previous close")
    positions: int = Field(description="number of securities held")
    open_orders: int
    contributions_ytd: float | None = Field(description="Roth IRA only: contributions this tax year")
    contribution_room: float | None = Field(description="Roth IRA only: what may still be contributed this year")


class Position(BaseModel):
    account_id: AccountId
    ticker: Ticker
    name: str
    quantity: int
    available: int = Field(description="shares not reserved by open sell orders")
    avg_cost: float
    price: float
    market_value: float
    cost_basis: float
    unrealized_gain: float
    unrealized_gain_percent: float
    day_change: float
    opened_on: str


class PositionList(BaseModel):
    account_name: str = Field(description="The account's name, such as 'Roth IRA'.")
    positions: list[Position]
    total: int
    total_market_value: float
    total_unrealized_gain: float
    holdings_text: str = Field(description="The positions in words, such as '10 shares of Apple Inc. (AAPL), worth "
                                           "$2,588.40'.")
    gains_text: str = Field(description="The positions with their gains in words, such as '10 shares of Apple Inc. "
                                        "(AAPL), worth $2,588.40, down $169.20 (6.1%)'.")


class Activity(BaseModel):
    activity_id: ActivityId
    summary: str = Field(description="What happened, in words: 'Bought 33 BND at $65.55'.")
    account_id: AccountId
    occurred_at: str
    kind: ActivityKind
    description: str
    amount: float = Field(description="cash effect: negative when cash left the account")
    ticker: Ticker | None
    quantity: int | None
    price: float | None
    realized_gain: float | None
    order_id: OrderId | None
    bank_link_id: BankLinkId | None


class ActivityList(BaseModel):
    activities: list[Activity]
    total: int = Field(description="how many entries matched, before `limit`")
    activities_text: str = Field(description="the entries in words, newest first, such as 'Bought 33 BND at $65.55 "
                                             "on March 12'")


class BankLink(BaseModel):
    bank_link_id: BankLinkId
    nickname: str
    institution: str
    account_type: Literal["checking", "savings"]
    number_last4: str
    status: Literal["verified", "pending_verification"]
    linked_on: str


class BankLinkList(BaseModel):
    bank_links: list[BankLink]
    total: int
    bank_links_text: str = Field(description="The links in words, such as 'Schwab Investor Checking ending 4247 "
                                             "(Schwab Bank, verified)'.")


class CashMovement(BaseModel):
    kind: Literal["deposit", "withdrawal", "transfer"]
    amount: float
    activity_ids: list[ActivityId] = Field(description="the history entries this created")
    from_account_id: AccountId | None
    to_account_id: AccountId | None
    bank_link_id: BankLinkId | None
    occurred_at: str
    from_account_cash: float | None = Field(description="the source account's cash afterwards")
    to_account_cash: float | None = Field(description="the destination account's cash afterwards")


class Order(BaseModel):
    order_id: OrderId
    summary: str = Field(description="The order and what it trades, in words: 'ORD-10080 (sell 1 share of ADBE at a "
                                     "$503.17 limit)'.")
    account_id: AccountId
    ticker: Ticker
    side: Side
    order_type: OrderType
    quantity: int
    limit_price: float | None
    time_in_force: TimeInForce
    status: OrderStatus
    placed_at: str
    expires_at: str | None = Field(description="day orders: when they expire unfilled")
    filled_at: str | None
    fill_price: float | None
    total: float | None = Field(description="quantity x fill_price once filled")
    cancelled_at: str | None = Field(description="when it was cancelled or expired")


class OrderList(BaseModel):
    orders: list[Order]
    total: int = Field(description="how many orders matched, before `limit`")
    orders_text: str = Field(description="The orders in words, newest first: 'ORD-10068 (buy 1 share of SPY at a "
                                         "$544.42 limit): filled February 26 at $542.25 a share'.")


class WatchItem(BaseModel):
    ticker: Ticker
    name: str
    price: float
    change_percent: float
    added_at: str


class Watchlist(BaseModel):
    watchlist_id: WatchlistId
    name: str
    created_at: str
    items: list[WatchItem]
    count: int


class WatchlistList(BaseModel):
    watchlists: list[Watchlist]
    total: int
    watchlists_text: str = Field(description="The watchlists in words, such as 'Big Tech (2 tickers: AAPL and "
                                             "MSFT)'.")


class WatchlistDeleted(BaseModel):
    watchlist_id: WatchlistId
    name: str
    removed_items: int


class Alert(BaseModel):
    alert_id: AlertId
    summary: str = Field(description="What the alert watches for, in words: 'GOOGL below $126.51'.")
    ticker: Ticker
    condition: Condition
    target_price: float
    status: AlertStatus
    current_price: float
    created_at: str
    triggered_at: str | None
    triggered_price: float | None
    cancelled_at: str | None


class AlertList(BaseModel):
    alerts: list[Alert]
    total: int
    alerts_text: str = Field(description="The alerts and where each stands, in words, such as 'GOOGL below $126.51 "
                                         "(watching; now at $141.84)'.")


# ----- small helpers ---------------------------------------------------------------------------

MAX_WATCHLISTS = 20
MAX_WATCH_ITEMS = 50
MAX_ACTIVE_ALERTS = 25


def cents(value: float, what: str = "amount") -> float:
    """A positive dollar amount rounded to cents, or the ToolError saying it is too small."""
    rounded = money(value)
    if rounded < 0.01:
        raise ToolError("invalid_amount", f"The {what} {value!r} rounds to less than one cent.",
                        hint="Use an amount of at least 0.01 dollars.")
    return rounded


# ----- securities and prices -------------------------------------------------------------------

def security(ctx: Ctx, ticker: str) -> sqlite3.Row:
    """A security by ticker (case-insensitive), or not_found."""
    return ctx.get("security", ticker.strip().upper())


def price_at(sec: sqlite3.Row, t: float) -> float:
    return model_price(sec["ref_price"], sec["drift"], sec["volatility"], sec["phase"], t)


def current_price(ctx: Ctx, sec: sqlite3.Row) -> float:
    return price_at(sec, market_clock(ctx.now())[0])


def previous_close(sec: sqlite3.Row, t: float, is_open: bool) -> float:
    """The close of the session before the current (or, when closed, the last) one."""
    return price_at(sec, float(int(t // 1)) if is_open else t - 1)


def quote(ctx: Ctx, sec: sqlite3.Row) -> Quote:
    now = ctx.now()
    t, is_open = market_clock(now)
    price = price_at(sec, t)
    prev = previous_close(sec, t, is_open)
    spread, change = half_spread(price), pct(price, prev)
    return Quote(ticker=sec["ticker"], name=sec["name"], price=price, bid=money(max(0.01, price - spread)),
                 ask=money(price + spread), previous_close=prev, change=money(price - prev),
                 change_percent=change, change_text=f"up {change:g}%" if change > 0 else
                 f"down {-change:g}%" if change < 0 else "unchanged", session=session_of(now), as_of=iso(now))


def pct(new: float, old: float) -> float:
    return round((new - old) / old * 100, 2) + 0.0 if old else 0.0


# ----- accounts --------------------------------------------------------------------------------

def reserved_cash(ctx: Ctx, account_id: str) -> float:
    (value,) = ctx.db.execute(
        "SELECT coalesce(sum(quantity * limit_price), 0) FROM orders "
        "WHERE account_id = ? AND status = 'open' AND side = 'buy'", (account_id,)).fetchone()
    return money(value)


def reserved_shares(ctx: Ctx, account_id: str, ticker: str) -> int:
    (value,) = ctx.db.execute(
        "SELECT coalesce(sum(quantity), 0) FROM orders "
        "WHERE account_id = ? AND ticker = ? AND status = 'open' AND side = 'sell'", (account_id, ticker)).fetchone()
    return int(value)


def buying_power(ctx: Ctx, acct: sqlite3.Row) -> float:
    return money(acct["cash"] - reserved_cash(ctx, acct["account_id"]))


def contributions_this_year(ctx: Ctx, acct: sqlite3.Row) -> float:
    """A Roth IRA's contributions in the current tax year (a new year starts from zero)."""
    return acct["contributions_ytd"] if acct["contribution_year"] == ctx.today().year else 0.0


def contribution_room(ctx: Ctx, acct: sqlite3.Row) -> float:
    limit = IRA_LIMIT.get(ctx.today().year, IRA_LIMIT[max(IRA_LIMIT)])
    return money(max(0.0, limit - contributions_this_year(ctx, acct)))


def log_activity(ctx: Ctx, account_id: str, kind: str, amount: float, description: str, *,
                 ticker: str | None = None, quantity: int | None = None, price: float | None = None,
                 realized_gain: float | None = None, order_id: str | None = None,
                 bank_link_id: str | None = None) -> str:
    activity_id = ctx.new_id("ACT")
    ctx.db.execute(
        "INSERT INTO activity (activity_id, account_id, occurred_at, kind, ticker, quantity, price, amount, "
        "realized_gain, order_id, bank_link_id, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (activity_id, account_id, ctx.now_iso(), kind, ticker, quantity, price, money(amount), realized_gain,
         order_id, bank_link_id, description))
    return activity_id


# ----- orders ----------------------------------------------------------------------------------

def order_model(row: sqlite3.Row) -> Order:
    total = money(row["quantity"] * row["fill_price"]) if row["fill_price"] is not None else None
    price = "at market" if row["order_type"] == "market" else f"at a ${row['limit_price']:,.2f} limit"
    shares = f"{row['quantity']} share{'' if row['quantity'] == 1 else 's'}"
    summary = f"{row['order_id']} ({row['side']} {shares} of {row['ticker']} {price})"
    return Order(order_id=row["order_id"], summary=summary, account_id=row["account_id"], ticker=row["ticker"], side=row["side"],
                 order_type=row["order_type"], quantity=row["quantity"], limit_price=row["limit_price"],
                 time_in_force=row["time_in_force"], status=row["status"], placed_at=row["placed_at"],
                 expires_at=row["expires_at"], filled_at=row["filled_at"], fill_price=row["fill_price"],
                 total=total, cancelled_at=row["cancelled_at"])


def fill_price_now(ctx: Ctx, order: sqlite3.Row, sec: sqlite3.Row) -> float | None:
    """The price `order` would fill at now, or None if the market is closed or the limit is not reached."""
    t, is_open = market_clock(ctx.now())
    if not is_open:
        return None
    price = price_at(sec, t)
    spread = half_spread(price)
    if order["side"] == "buy":
        px = money(price + spread)
        return px if order["order_type"] == "market" or px <= order["limit_price"] else None
    px = money(max(0.01, price - spread))
    return px if order["order_type"] == "market" or px >= order["limit_price"] else None


def execute(ctx: Ctx, order: sqlite3.Row, px: float) -> None:
    """Fill `order` at `px`: move cash and shares, record the fill and the history entry."""
    acct_id, ticker, qty = order["account_id"], order["ticker"], order["quantity"]
    gross = money(qty * px)
    pos = ctx.db.execute("SELECT * FROM positions WHERE account_id = ? AND ticker = ?", (acct_id, ticker)).fetchone()
    if order["side"] == "buy":
        ctx.db.execute("UPDATE accounts SET cash = round(cash - ?, 2) WHERE account_id = ?", (gross, acct_id))
        if pos is None:
            ctx.db.execute("INSERT INTO positions (account_id, ticker, quantity, avg_cost, opened_on) "
                           "VALUES (?, ?, ?, ?, ?)", (acct_id, ticker, qty, px, ctx.today().isoformat()))
        else:
            avg = (pos["quantity"] * pos["avg_cost"] + gross) / (pos["quantity"] + qty)
            ctx.db.execute("UPDATE positions SET quantity = quantity + ?, avg_cost = ? WHERE account_id = ? "
                           "AND ticker = ?", (qty, round(avg, 4), acct_id, ticker))
        log_activity(ctx, acct_id, "buy", -gross, f"Bought {qty} {ticker} @ {px:.2f}", ticker=ticker,
                     quantity=qty, price=px, order_id=order["order_id"])
    else:
        gain = money(qty * (px - pos["avg_cost"]))
        ctx.db.execute("UPDATE accounts SET cash = round(cash + ?, 2) WHERE account_id = ?", (gross, acct_id))
        if pos["quantity"] == qty:
            ctx.db.execute("DELETE FROM positions WHERE account_id = ? AND ticker = ?", (acct_id, ticker))
        else:
            ctx.db.execute("UPDATE positions SET quantity = quantity - ? WHERE account_id = ? AND ticker = ?",
                           (qty, acct_id, ticker))
        log_activity(ctx, acct_id, "sell", gross, f"Sold {qty} {ticker} @ {px:.2f}", ticker=ticker,
                     quantity=qty, price=px, realized_gain=gain, order_id=order["order_id"])
    ctx.db.execute("UPDATE orders SET status = 'filled', filled_at = ?, fill_price = ? WHERE order_id = ?",
                   (ctx.now_iso(), px, order["order_id"]))


def settle(ctx: Ctx) -> None:
    """Bring resting orders and alerts up to the current moment (write tools call this first).

    Day orders past their session's close expire; open orders whose limit the market reaches
    now fill, oldest first; active alerts whose condition holds now trigger.
    """
    now = ctx.now_iso()
    ctx.db.execute("UPDATE orders SET status = 'expired', cancelled_at = expires_at "
                   "WHERE status = 'open' AND time_in_force = 'day' AND expires_at <= ?", (now,))
    if market_clock(ctx.now())[1]:
        resting = ctx.db.execute("SELECT * FROM orders WHERE status = 'open' ORDER BY placed_at, order_id").fetchall()
        for order in resting:
            sec = ctx.db.execute("SELECT * FROM securities WHERE ticker = ?", (order["ticker"],)).fetchone()
            px = fill_price_now(ctx, order, sec)
            if px is None:
                continue
            if order["side"] == "sell":
                held = ctx.db.execute("SELECT quantity FROM positions WHERE account_id = ? AND ticker = ?",
                                      (order["account_id"], order["ticker"])).fetchone()
                if held is None or held["quantity"] < order["quantity"]:
                    continue
            else:
                cash = ctx.db.execute("SELECT cash FROM accounts WHERE account_id = ?",
                                      (order["account_id"],)).fetchone()["cash"]
                if cash < order["quantity"] * px:
                    continue
            execute(ctx, order, px)
    for alert in ctx.db.execute("SELECT a.alert_id, a.condition, a.target_price, s.* FROM price_alerts a "
                                "JOIN securities s ON s.ticker = a.ticker WHERE a.status = 'active'").fetchall():
        price = current_price(ctx, alert)
        if (price >= alert["target_price"]) if alert["condition"] == "above" else (price <= alert["target_price"]):
            ctx.db.execute("UPDATE price_alerts SET status = 'triggered', triggered_at = ?, triggered_price = ? "
                           "WHERE alert_id = ?", (now, price, alert["alert_id"]))


def day_order_expiry(moment: datetime) -> str:
    return iso(session_close(moment))

