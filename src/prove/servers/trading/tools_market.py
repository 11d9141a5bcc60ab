"""The market: quotes, the securities universe, recent closes and market hours."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from prove.env import READ, Ask, Ctx, Toolset, Where
from prove.env.values import iso, like, listing_said

from .server import (
    DailyClose,
    Limit,
    MarketStatus,
    PriceHistory,
    Query,
    Quote,
    Security,
    SecurityList,
    Ticker,
    pct,
    previous_close,
    price_at,
    quote,
    security,
)
from .world import (
    UNIVERSE,
    day_index,
    is_trading_day,
    market_clock,
    next_open,
    session_close,
    session_of,
)

tools = Toolset("market")


@tools.tool(effect=READ, asks=[
    "What's {ticker} trading at right now?",
    "Get me a quote for {ticker}.",
    "How is {ticker} doing today?",
], reply=[
    "{result.name} is at ${result.price} (bid ${result.bid}, ask ${result.ask}), {result.change_text} on the day "
    "from the previous close of ${result.previous_close}.",
])
def get_quote(ctx: Ctx, ticker: Ticker) -> Quote:
    """Get the live quote of one stock or ETF: last price, bid, ask and the change on the day.

    A market buy fills at the ask and a market sell at the bid. Outside market hours the quote
    shows the last session's close.

    Args:
        ticker: the ticker symbol, case-insensitive, such as 'AAPL' or 'VTI'.

    Returns:
        The quote: ticker, name, price, bid, ask, previous close, change in dollars and percent,
        the market session and the time of the quote.

    Raises:
        not_found: no security has that ticker.
    """
    return quote(ctx, security(ctx, ticker))


_LIMIT = 20  # how many a search returns where no number is asked


@tools.tool(effect=READ, asks=[
    "Look up '{query}' for me.",
    "What's the ticker for {query}?",
    # The ETFs' sectors are kinds of fund ('Bond ETF', 'Sector ETF'), the stocks' sectors of the economy.
    Ask("Show me the {sector}s I can buy.", kind="etf"),
    Ask("Which stocks are in the {sector} sector?", kind="stock"),
    Ask("List up to {limit} {sector} stocks.", kind="stock"),
], reply=[
    "Here's what I found: {result.securities_text}.",
], values={
    # A sector with the kind of security it holds: stocks are not looked for among the bond ETFs.
    "kind, sector": sorted({(kind, sector) for _, _, kind, sector, *_ in UNIVERSE}),
})
def search_securities(ctx: Ctx, query: Query | None = None, sector: Query | None = None,
                      kind: Literal["stock", "etf"] | None = None, limit: Limit = _LIMIT) -> SecurityList:
    """Search the tradable stocks and ETFs by ticker or company name, sector or kind.

    Matching is case-insensitive and by substring: 'apple', 'AAPL' or 'bank' all work. Results
    carry the current price and the change on the day.

    Args:
        query: part of a ticker or name, such as 'Microsoft' or 'NV'.
        sector: part of a sector name, such as 'Technology', 'Health Care' or 'Bond ETF'.
        kind: only stocks ('stock') or only exchange-traded funds ('etf').
        limit: the most securities to return, from 1 to 100, such as 20.

    Returns:
        The matching securities (exact ticker matches first, then by ticker) with name, kind,
        sector, exchange, price, change percent and dividend yield, and how many matched.
    """
    where = Where()
    if query is not None:
        where.add("(lower(ticker) LIKE ? ESCAPE '\\' OR lower(name) LIKE ? ESCAPE '\\')", like(query), like(query))
    if sector is not None:
        where.add("lower(sector) LIKE ? ESCAPE '\\'", like(sector))
    where.eq("kind", kind)
    exact = query.upper() if query else ""
    rows = ctx.db.execute(f"SELECT * FROM securities WHERE {where.sql} ORDER BY ticker <> ?, ticker",
                          (*where.params, exact)).fetchall()
    t, is_open = market_clock(ctx.now())
    out = []
    for r in rows[:limit]:
        price = price_at(r, t)
        out.append(Security(ticker=r["ticker"], name=r["name"], kind=r["kind"], sector=r["sector"],
                            exchange=r["exchange"], price=price,
                            change_percent=pct(price, previous_close(r, t, is_open)),
                            dividend_yield=r["dividend_yield"]))
    return SecurityList(securities=out, total=len(rows),
                        securities_text=_securities_text(out, len(rows), limit != _LIMIT))


def _securities_text(found: list[Security], total: int, asked: bool) -> str:
    """'Palantir Technologies Inc. (PLTR), a Technology stock at $93.95; Vanguard Total Bond Market ETF (BND),
    a Bond ETF at $65.63'. Up to 10 returned are each said, more are counted: all that match, or where a
    number was `asked`, those returned ("up to 3 Technology stocks" are those 3, not 3 and how many more
    there are)."""
    def one(s: Security) -> str:
        what = s.sector if s.kind == "etf" and s.sector.endswith("ETF") else \
            f"{s.sector} {'ETF' if s.kind == 'etf' else 'stock'}"
        return f"{s.name} ({s.ticker}), {'an' if what[:1] in 'AEIOU' else 'a'} {what} at ${s.price:,.2f}"
    return listing_said([one(s) for s in found], total, asked, "no securities", first=6, noun="security")


@tools.tool(effect=READ, asks=[
    "How has {ticker} done over the last {days} trading days?",
    "Show me the daily closing prices of {ticker}.",
], reply=[
    # The closes themselves (for "show me the daily closing prices") and the change from the close it is
    # measured from: a signed change reads right either way ("a change of -1%", never "moved -1%").
    "{result.name} closed at ${result.last_price} on {result.last_date}, a change of {result.change_percent}% from "
    "its close {result.total} trading days before (${result.start_price}); over those days its closes ran from "
    "${result.low_price} to ${result.high_price}.",
    Ask("{result.name} closed at ${result.last_price} on {result.last_date}, a change of {result.change_percent}% "
        "from its close the session before (${result.start_price}).", **{"result.total": 1}),
])
def get_price_history(ctx: Ctx, ticker: Ticker, days: Annotated[int, Field(ge=1, le=90)] = 10) -> PriceHistory:
    """Get the closing prices of a security over its most recent completed sessions.

    Args:
        ticker: the ticker symbol, such as 'MSFT'.
        days: how many completed trading sessions to show, from 1 to 90, such as 10.

    Returns:
        The daily closes, oldest first, each with its change from the session before; the close
        before the first and the change from it to the last in percent; the last, lowest and
        highest close.

    Raises:
        not_found: no security has that ticker.
    """
    sec = security(ctx, ticker)
    now = ctx.now()
    t, is_open = market_clock(now)
    # The last completed session is the one that closed at market time floor(t) (open) or t.
    day = now.date()
    if is_open or not is_trading_day(day) or now.hour < 20:
        day -= timedelta(days=1)
    sessions = []
    while len(sessions) < days + 1:
        if is_trading_day(day):
            sessions.append(day)
        day -= timedelta(days=1)
    sessions.reverse()
    closes = [(d, price_at(sec, float(day_index(d) + 1))) for d in sessions]
    out = [DailyClose(date=d.isoformat(), close=c, change_percent=pct(c, closes[i][1]))
           for i, (d, c) in enumerate(closes[1:])]
    return PriceHistory(ticker=sec["ticker"], name=sec["name"], closes=out, total=len(out), start_price=closes[0][1],
                        change_percent=pct(out[-1].close, closes[0][1]), last_date=out[-1].date,
                        last_price=out[-1].close, low_price=min(c.close for c in out),
                        high_price=max(c.close for c in out))


@tools.tool(effect=READ, asks=[
    "Is the stock market open right now?",
    "When does the market open next?",
    "Can I still place a market order today?",
], reply=[
    # One fits each session of an open market (it has a closing time), the last a closed one (a next opening).
    *[Ask(f"The market is open now, {words}, and takes market orders until {{result.closes_at}}. It trades on "
          "weekdays except exchange holidays: pre-market 4:00 to 9:30 AM, regular hours 9:30 AM to 4:00 PM and "
          "after-hours 4:00 to 8:00 PM Eastern.", **{"result.session": session})
      for session, words in (("pre_market", "in its pre-market session"), ("regular", "in regular hours"),
                             ("after_hours", "in its after-hours session"))],
    "The market is closed right now; it opens again on {result.next_open}. It trades on weekdays except exchange "
    "holidays: pre-market 4:00 to 9:30 AM, regular hours 9:30 AM to 4:00 PM and after-hours 4:00 to 8:00 PM "
    "Eastern.",
])
def get_market_status(ctx: Ctx) -> MarketStatus:
    """Say whether the market is open now, which session it is in and when it next opens or closes.

    The broker trades on weekdays that are not exchange holidays: pre-market 04:00-09:30,
    regular 09:30-16:00 and after-hours 16:00-20:00, Eastern time. Market orders need an open
    market; limit orders placed while it is closed wait for the next session.

    Returns:
        The current time, the session ('pre_market', 'regular', 'after_hours' or 'closed'),
        whether it is open, and when it next opens (if closed) or closes (if open).
    """
    now = ctx.now()
    _, is_open = market_clock(now)
    return MarketStatus(
        now=iso(now), session=session_of(now), is_open=is_open,
        next_open=None if is_open else iso(next_open(now)),
        closes_at=iso(session_close(now)) if is_open else None,
        hours="Weekdays except exchange holidays: pre-market 04:00-09:30, regular 09:30-16:00, "
              "after-hours 16:00-20:00 (Eastern).")
