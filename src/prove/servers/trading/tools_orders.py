"""Orders: place market and limit orders, cancel them, look them up."""

from __future__ import annotations

from datetime import date

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import money, said_in_part, spoken_day

from .server import (
    AccountId,
    Limit,
    OpenOrderId,
    Order,
    OrderId,
    OrderList,
    OrderStatus,
    OrderType,
    Price,
    Quantity,
    Side,
    Ticker,
    TimeInForce,
    buying_power,
    day_order_expiry,
    execute,
    fill_price_now,
    order_model,
    quote,
    reserved_shares,
    security,
    settle,
)
from .world import UNIVERSE, market_clock, next_open

tools = Toolset("orders")


@tools.tool(effect=WRITE, asks=[
    Ask("Buy {quantity} shares of {ticker} in {account_id}.", side="buy"),
    Ask("Sell {quantity} shares of {ticker} from {account_id} at market.", side="sell", order_type="market"),
    Ask("Put in a limit order to {side} {quantity} shares of {ticker} at ${limit_price} in {account_id}, "
        "good till cancelled.", order_type="limit", time_in_force="gtc"),
    Ask("In {account_id}, place a limit order to buy {quantity} shares of {ticker} at ${limit_price}, just for today.",
        side="buy", order_type="limit", time_in_force="day"),
], reply=[
    "Your order to {side} {quantity} shares of {ticker} is {result.status}: {result.order_id}.",
    "Done: order {result.order_id} is {result.status}.",
    # What was done: a fill says its price, a resting limit order its limit and how long it waits.
    *[Ask(text, **{"result.status": "filled"}) for text in (
        "Your order to {side} {quantity} shares of {ticker} filled at ${result.fill_price} a share (order "
        "{result.order_id}).",
        "Order {result.order_id} filled: {quantity} shares of {ticker} at ${result.fill_price} each.")],
    Ask("Your limit order to {side} {quantity} shares of {ticker} at ${limit_price} is in (order {result.order_id}); "
        "it stays open until it fills or you cancel it.", order_type="limit", time_in_force="gtc",
        **{"result.status": "open"}),
    Ask("Your limit order to {side} {quantity} shares of {ticker} at ${limit_price} is in for today (order "
        "{result.order_id}); it expires at {result.expires_at} if it doesn't fill.", order_type="limit",
        time_in_force="day", **{"result.status": "open"}),
], values={
    # A limit price on the side of the market a resting order waits on, some way from it: a
    # world's quote is within 0.87 to 1.17 times the security's typical price for nine in ten
    # securities, so a buy at 0.85 times it waits below the market and a sell at 1.2 times it
    # above, in all but a few (which fill at once, as a marketable limit order does).
    "ticker, side, limit_price": [(t[0], "buy", round(t[5] * 0.85, 2)) for t in UNIVERSE]
                                 + [(t[0], "sell", round(t[5] * 1.2, 2)) for t in UNIVERSE],
})
def place_order(ctx: Ctx, account_id: AccountId, ticker: Ticker, side: Side, quantity: Quantity,
                order_type: OrderType = "market", limit_price: Price | None = None,
                time_in_force: TimeInForce = "day") -> Order:
    """Place an order to buy or sell whole shares of a stock or ETF.

    A market order fills at once (buys at the ask, sells at the bid) and needs the market to be
    open. A limit order fills at once if the market is open and the ask is at or below a buy
    limit (the bid at or above a sell limit); otherwise it rests as 'open' until the market
    reaches the limit, it is cancelled, or (a 'day' order) its session closes. An open buy limit
    order reserves quantity x limit_price of buying power; an open sell order reserves its shares.

    Args:
        account_id: ID of the account to trade in, such as 'BRK-10001'.
        ticker: the ticker symbol, such as 'AAPL'.
        side: 'buy' or 'sell'.
        quantity: whole shares, from 1 to 100000, such as 10.
        order_type: 'market' (fill now at the market price) or 'limit' (only at limit_price or better).
        limit_price: limit orders only: the most to pay per share (buy) or the least to accept
            (sell), in dollars, such as 180.5.
        time_in_force: limit orders: 'day' (expires when the session closes) or 'gtc' (good till
            cancelled). Market orders are always 'day'.

    Returns:
        The order with its ID and status ('filled' with fill price and total, or 'open').

    Raises:
        not_found: the account or the ticker does not exist.
        invalid_order: a limit order lacks limit_price, a market order has one, or a market order is 'gtc'.
        market_closed: a market order was placed while the market is closed (nights, weekends, holidays).
        account_restricted: a buy in an account that is restricted to selling.
        insufficient_buying_power: a buy costs more than the account's buying power.
        insufficient_shares: a sell is for more shares than the account holds and has not already
            committed to open sell orders.
    """
    settle(ctx)
    acct = ctx.get("account", account_id)
    sec = security(ctx, ticker)
    if order_type == "limit" and limit_price is None:
        raise ToolError("invalid_order", "A limit order needs a limit_price.",
                        hint="Give limit_price, or use order_type 'market'.")
    if order_type == "market" and limit_price is not None:
        raise ToolError("invalid_order", "A market order takes no limit_price.",
                        hint="Use order_type 'limit' to trade only at limit_price or better.")
    if order_type == "market" and time_in_force != "day":
        raise ToolError("invalid_order", "Market orders are day orders; 'gtc' applies only to limit orders.",
                        hint="Leave time_in_force as 'day', or place a limit order.")
    if limit_price is not None:
        limit_price = money(limit_price)
        if limit_price < 0.01:
            raise ToolError("invalid_order", "limit_price rounds to less than one cent.")
    now = ctx.now()
    _, is_open = market_clock(now)
    q = quote(ctx, sec)
    if order_type == "market" and not is_open:
        raise ToolError("market_closed", f"The market is closed ({ctx.now_iso()}); market orders cannot be placed.",
                        hint=f"It next opens at {next_open(now).isoformat(timespec='seconds')}. A limit order "
                             "can be placed now and will wait for the open.")
    if side == "buy":
        if acct["status"] == "restricted":
            raise ToolError("account_restricted",
                            f"{acct['name']} is restricted to closing trades while the co-owner's identity "
                            "check is pending; it cannot buy.",
                            hint="Buy in another account, or sell existing positions here.")
        per_share = q.ask if order_type == "market" else limit_price
        cost = money(quantity * per_share)
        power = buying_power(ctx, acct)
        if cost > power:
            raise ToolError("insufficient_buying_power",
                            f"Buying {quantity} {sec['ticker']} at ${per_share:,.2f} needs ${cost:,.2f}; "
                            f"{acct['name']} has ${power:,.2f} of buying power.",
                            hint=f"Buy at most {int(power // per_share)} shares, or deposit or transfer cash first.")
    else:
        held = ctx.db.execute("SELECT quantity FROM positions WHERE account_id = ? AND ticker = ?",
                              (account_id, sec["ticker"])).fetchone()
        owned = held["quantity"] if held else 0
        available = owned - reserved_shares(ctx, account_id, sec["ticker"])
        if quantity > available:
            raise ToolError("insufficient_shares",
                            f"{acct['name']} holds {owned} {sec['ticker']} shares, {available} of them not already "
                            f"in open sell orders; cannot sell {quantity}.",
                            hint="Check list_positions; cancel an open sell order to free its shares.")
    order_id = ctx.new_id("ORD")
    ctx.db.execute(
        "INSERT INTO orders (order_id, account_id, ticker, side, order_type, quantity, limit_price, time_in_force, "
        "status, placed_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)",
        (order_id, account_id, sec["ticker"], side, order_type, quantity, limit_price, time_in_force,
         ctx.now_iso(), day_order_expiry(now) if time_in_force == "day" else None))
    row = ctx.get("order", order_id)
    px = fill_price_now(ctx, row, sec)
    if px is not None:
        execute(ctx, row, px)
    return order_model(ctx.get("order", order_id))


@tools.tool(effect=WRITE, asks=[
    "Cancel {order_id}.",
    "Please pull {order_id}, I changed my mind.",
], reply=[
    "Cancelled {order_id}.",
    "Done: {order_id} is cancelled; nothing more of it will fill.",
])
def cancel_order(ctx: Ctx, order_id: OpenOrderId) -> Order:
    """Cancel an open order, releasing the cash or shares it reserved.

    Args:
        order_id: ID of the open order, such as 'ORD-10081'.

    Returns:
        The order, now 'cancelled', with the time it was cancelled.

    Raises:
        not_found: no order has that ID.
        order_not_open: the order has already been filled, cancelled or has expired.
    """
    row = ctx.get("order", order_id)
    status, when = row["status"], row["filled_at"] or row["cancelled_at"]
    if status == "open" and row["expires_at"] is not None and row["expires_at"] <= ctx.now_iso():
        status, when = "expired", row["expires_at"]  # its session closed; settle() will record it
    if status != "open":
        raise ToolError("order_not_open", f"Order {order_id} is already {status} ({when}).",
                        hint="Only open orders can be cancelled; list_orders with status 'open' shows them.")
    # Cancelling wins over a fill the market would allow now; other resting orders are then checked.
    ctx.db.execute("UPDATE orders SET status = 'cancelled', cancelled_at = ? WHERE order_id = ?",
                   (ctx.now_iso(), order_id))
    settle(ctx)
    return order_model(ctx.get("order", order_id))


@tools.tool(effect=READ, asks=[
    "What's the status of {order_id}?",
    "Did {order_id} go through?",
], reply=[
    Ask("{result.summary} filled at ${result.fill_price} a share on {result.filled_at}, ${result.total} in all.",
        **{"result.status": "filled"}),
    Ask("{result.summary} is still open; it hasn't filled yet.", **{"result.status": "open"}),
    Ask("{result.summary} was cancelled on {result.cancelled_at}; nothing filled.", **{"result.status": "cancelled"}),
    Ask("{result.summary} expired unfilled on {result.cancelled_at}.", **{"result.status": "expired"}),
])
def get_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Look up one order: its terms, status and, once filled, the fill price and total.

    A resting limit order is matched against the market whenever the investor next acts (any
    order, cancellation, cash movement, watchlist or alert change); until then it shows 'open'.

    Args:
        order_id: ID of the order, such as 'ORD-10081'.

    Returns:
        The order's account, ticker, side, type, quantity, limit price, time in force, status
        ('open', 'filled', 'cancelled' or 'expired'), and when it was placed, filled or cancelled.

    Raises:
        not_found: no order has that ID.
    """
    return order_model(ctx.get("order", order_id))


@tools.tool(effect=READ, asks=[
    Ask("Do I have any open orders?", status="open"),
    Ask("Which orders filled in {account_id}?", status="filled"),
    Ask("List my recent buy orders for {ticker}.", side="buy"),
    "Show every order in {account_id}.",
], reply=[
    Ask("Your orders, newest first: {result.orders_text}.", status=None),
    Ask("Your open orders: {result.orders_text}.", status="open"),
    Ask("These orders filled: {result.orders_text}.", status="filled"),
    Ask("Your cancelled orders: {result.orders_text}.", status="cancelled"),
    Ask("These expired unfilled: {result.orders_text}.", status="expired"),
])
def list_orders(ctx: Ctx, account_id: AccountId | None = None, status: OrderStatus | None = None,
                ticker: Ticker | None = None, side: Side | None = None, limit: Limit = 20) -> OrderList:
    """List orders, newest first, optionally only of one account, status, security or side.

    Args:
        account_id: only orders in this account, such as 'BRK-10001'; all accounts if omitted.
        status: only 'open', 'filled', 'cancelled' or 'expired' orders.
        ticker: only orders for this security, such as 'TSLA'.
        side: only 'buy' or 'sell' orders.
        limit: the most orders to return, from 1 to 100, such as 20.

    Returns:
        The matching orders with their terms and status, and how many matched.

    Raises:
        not_found: the account does not exist.
    """
    where = Where()
    where.entity(ctx, "account", "account_id", account_id)
    where.eq("status", status)
    where.eq("side", side)
    if ticker is not None:
        where.add("ticker = ?", ticker.strip().upper())
    rows = ctx.db.execute(f"SELECT * FROM orders WHERE {where.sql} ORDER BY placed_at DESC, order_id DESC",
                          where.params).fetchall()
    orders = [order_model(r) for r in rows[:limit]]
    return OrderList(orders=orders, total=len(rows), orders_text=_orders_text(orders, len(rows), ctx.today()))


def _orders_text(orders: list[Order], total: int, today: date) -> str:
    """'ORD-10068 (buy 1 share of SPY at a $544.42 limit): filled February 26 at $542.25 a share;
    ORD-10080 (sell 1 share of ADBE at market): open since March 11; and 3 more orders'."""
    def one(o: Order) -> str:
        if o.status == "filled" and o.filled_at and o.fill_price is not None:
            return f"{o.summary}: filled {spoken_day(o.filled_at, today)} at ${o.fill_price:,.2f} a share"
        if o.status == "open":
            return f"{o.summary}: open since {spoken_day(o.placed_at, today)}"
        return f"{o.summary}: {o.status} {spoken_day(o.cancelled_at or o.placed_at, today)}"
    return said_in_part([one(o) for o in orders[:5]], total, "no orders", noun="order")
