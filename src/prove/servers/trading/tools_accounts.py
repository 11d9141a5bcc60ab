"""Accounts: balances, positions, history, linked banks, and moving cash in, out and between."""

from __future__ import annotations

import sqlite3
from datetime import date

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import money, parse_date, said_in_part

from .server import (
    AccountBrief,
    AccountId,
    AccountList,
    AccountSummary,
    Activity,
    ActivityKind,
    ActivityList,
    Amount,
    BankLink,
    BankLinkList,
    CashMovement,
    Limit,
    Position,
    PositionList,
    TaxableAccountId,
    Ticker,
    VerifiedBankLinkId,
    buying_power,
    cents,
    contribution_room,
    contributions_this_year,
    log_activity,
    pct,
    previous_close,
    price_at,
    reserved_cash,
    reserved_shares,
    settle,
)
from .world import market_clock

tools = Toolset("accounts")


def _positions(ctx: Ctx, account_id: str) -> list[Position]:
    t, is_open = market_clock(ctx.now())
    out = []
    rows = ctx.db.execute("SELECT p.*, s.name, s.ref_price, s.drift, s.volatility, s.phase FROM positions p "
                          "JOIN securities s ON s.ticker = p.ticker WHERE p.account_id = ? ORDER BY p.ticker",
                          (account_id,)).fetchall()
    for r in rows:
        price = price_at(r, t)
        value = money(r["quantity"] * price)
        basis = money(r["quantity"] * r["avg_cost"])
        out.append(Position(
            account_id=account_id, ticker=r["ticker"], name=r["name"], quantity=r["quantity"],
            available=r["quantity"] - reserved_shares(ctx, account_id, r["ticker"]),
            avg_cost=round(r["avg_cost"], 4), price=price, market_value=value, cost_basis=basis,
            unrealized_gain=money(value - basis), unrealized_gain_percent=pct(value, basis),
            day_change=money(r["quantity"] * (price - previous_close(r, t, is_open))), opened_on=r["opened_on"]))
    return out


def _brief(ctx: Ctx, acct: sqlite3.Row) -> AccountBrief:
    value = sum(p.market_value for p in _positions(ctx, acct["account_id"]))
    return AccountBrief(account_id=acct["account_id"], name=acct["name"], kind=acct["kind"],
                        number_last4=acct["number_last4"], status=acct["status"], cash=acct["cash"],
                        total_value=money(acct["cash"] + value))


@tools.tool(effect=READ, asks=[
    "What accounts do I have?",
    "Show me all my brokerage accounts and the cash in each.",
], reply=[
    "Your accounts: {result.accounts_text}.",
])
def list_accounts(ctx: Ctx) -> AccountList:
    """List the investor's brokerage accounts with their cash and total value.

    Returns:
        Each account's ID, name, kind ('individual', 'joint' or 'roth_ira'), last four digits,
        status, cash and total value (cash plus positions at current prices).
    """
    rows = ctx.db.execute("SELECT * FROM accounts ORDER BY account_id").fetchall()
    accounts = [_brief(ctx, r) for r in rows]
    return AccountList(accounts=accounts, total=len(rows), accounts_text="; ".join(
        f"{a.name} (ending {a.number_last4}): ${a.cash:,.2f} in cash, ${a.total_value:,.2f} in all" for a in accounts))


@tools.tool(effect=READ, asks=[
    "How much buying power do I have in {account_id}?",
    "Give me a summary of {account_id}.",
    "How much is {account_id} worth, and how is it doing today?",
], reply=[
    "{result.name} is worth ${result.total_value} (${result.positions_value} in positions, ${result.cash} in cash); "
    "today's change is ${result.day_change}, and the buying power is ${result.buying_power}.",
    "Your {result.name} account has ${result.buying_power} of buying power.",
])
def get_account_summary(ctx: Ctx, account_id: AccountId) -> AccountSummary:
    """Get one account's balances: cash, buying power, value of positions, gains and day change.

    Buying power is cash minus what open buy limit orders reserve; it is what new buys and
    withdrawals may use. A Roth IRA also shows this year's contributions and remaining room.

    Args:
        account_id: ID of the account, such as 'BRK-10001'.

    Returns:
        The account's cash, cash reserved for open orders, buying power, positions value, total
        value, unrealized gain, day change, counts of positions and open orders and, for a Roth
        IRA, contributions this year and the room left under the annual limit.

    Raises:
        not_found: no account has that ID.
    """
    acct = ctx.get("account", account_id)
    positions = _positions(ctx, account_id)
    value = money(sum(p.market_value for p in positions))
    (open_orders,) = ctx.db.execute("SELECT count(*) FROM orders WHERE account_id = ? AND status = 'open'",
                                    (account_id,)).fetchone()
    ira = acct["kind"] == "roth_ira"
    return AccountSummary(
        account_id=acct["account_id"], name=acct["name"], kind=acct["kind"], number_last4=acct["number_last4"],
        status=acct["status"], opened_on=acct["opened_on"], cash=acct["cash"],
        reserved_for_orders=reserved_cash(ctx, account_id), buying_power=buying_power(ctx, acct),
        positions_value=value, total_value=money(acct["cash"] + value),
        unrealized_gain=money(sum(p.unrealized_gain for p in positions)),
        day_change=money(sum(p.day_change for p in positions)), positions=len(positions), open_orders=open_orders,
        contributions_ytd=contributions_this_year(ctx, acct) if ira else None,
        contribution_room=contribution_room(ctx, acct) if ira else None)


@tools.tool(effect=READ, asks=[
    "What do I hold in {account_id}?",
    "Show my positions in {account_id} with gains and losses.",
    "How many shares of {ticker} do I own in {account_id}?",
], reply=[
    # Said with the account, so that "How many shares of X do I own?" gets the holding, not the gains.
    "In your {result.account_name} account you hold {result.holdings_text}.",
    "Your positions and how each has done against what you paid: {result.gains_text}.",
])
def list_positions(ctx: Ctx, account_id: AccountId, ticker: Ticker | None = None) -> PositionList:
    """List the positions (shares held) of an account, valued at current prices.

    Args:
        account_id: only positions in this account, such as 'BRK-10001'.
        ticker: only positions in this security, such as 'VTI'.

    Returns:
        Each position's ticker, name, quantity, shares available to sell (not reserved by open
        sell orders), average cost, current price, market value, cost basis, unrealized gain in
        dollars and percent and day change; and the totals.

    Raises:
        not_found: no account has that ID.
    """
    acct = ctx.get("account", account_id)
    positions = _positions(ctx, account_id)
    if ticker is not None:
        positions = [p for p in positions if p.ticker == ticker.strip().upper()]
    return PositionList(account_name=acct["name"], positions=positions, total=len(positions),
                        total_market_value=money(sum(p.market_value for p in positions)),
                        total_unrealized_gain=money(sum(p.unrealized_gain for p in positions)),
                        holdings_text=_holdings_text(positions, gains=False),
                        gains_text=_holdings_text(positions, gains=True))


def _holdings_text(positions: list[Position], gains: bool) -> str:
    """'10 shares of Apple Inc. (AAPL), worth $2,588.40', with `gains` ', down $169.20 (6.1%)'."""
    def one(p: Position) -> str:
        shares = f"{p.quantity} share{'' if p.quantity == 1 else 's'}"
        said = f"{shares} of {p.name} ({p.ticker}), worth ${p.market_value:,.2f}"
        if not gains:
            return said
        if p.unrealized_gain == 0:
            return f"{said}, even"
        way = "up" if p.unrealized_gain > 0 else "down"
        return f"{said}, {way} ${abs(p.unrealized_gain):,.2f} ({abs(p.unrealized_gain_percent):g}%)"
    return said_in_part([one(p) for p in positions[:6]], len(positions), "no positions", noun="position")


@tools.tool(effect=READ, asks=[
    "Show me recent activity in {account_id}.",
    Ask("What dividends did I get in {account_id} since {start_date}?", kind="dividend"),
    Ask("List my deposits into {account_id}.", kind="deposit"),
    "Show me my account activity in {ticker}: trades and dividends.",
    "What happened in {account_id} between {start_date} and {end_date}?",
], reply=[
    Ask("Here's what happened, newest first: {result.activities_text}.", account_id=None),
    "Here's what happened in {account_id}, newest first: {result.activities_text}.",
    Ask("Dividends paid: {result.activities_text}.", kind="dividend", account_id=None),
    Ask("Dividends paid into {account_id}: {result.activities_text}.", kind="dividend"),
    Ask("Your deposits into {account_id}: {result.activities_text}.", kind="deposit"),
])
def list_activity(ctx: Ctx, account_id: AccountId | None = None, kind: ActivityKind | None = None,
                  ticker: Ticker | None = None, start_date: str | None = None, end_date: str | None = None,
                  limit: Limit = 20) -> ActivityList:
    """List account history (fills, dividends, interest, deposits, withdrawals, transfers), newest first.

    Args:
        account_id: only entries in this account, such as 'BRK-10001'; all accounts if omitted.
        kind: only this kind: 'buy', 'sell', 'dividend', 'interest', 'deposit', 'withdrawal',
            'transfer_in' or 'transfer_out'.
        ticker: only entries about this security, such as 'AAPL'.
        start_date: only entries on or after this day, such as '2026-01-01'.
        end_date: only entries on or before this day, such as '2026-03-13'.
        limit: the most entries to return, from 1 to 100, such as 20.

    Returns:
        The entries with their ID, account, time, kind, description, cash amount (negative when
        cash left the account), ticker, quantity, price, realized gain for sells and the order or
        bank link involved, and how many matched.

    Raises:
        not_found: the account does not exist.
        invalid_date: a date is not a valid 'YYYY-MM-DD' day.
        invalid_range: end_date is before start_date.
    """
    where = Where()
    where.entity(ctx, "account", "account_id", account_id)
    where.eq("kind", kind)
    if ticker is not None:
        where.add("ticker = ?", ticker.strip().upper())
    start = parse_date(start_date, "start_date") if start_date is not None else None
    end = parse_date(end_date, "end_date") if end_date is not None else None
    if start and end and end < start:
        raise ToolError("invalid_range", f"end_date {end} is before start_date {start}.")
    if start:
        where.add("occurred_at >= ?", start.isoformat())
    if end:
        where.add("occurred_at < ?", end.isoformat() + "U")  # any time on end_date sorts before 'YYYY-MM-DDU'
    rows = ctx.db.execute(f"SELECT * FROM activity WHERE {where.sql} ORDER BY occurred_at DESC, activity_id DESC",
                          where.params).fetchall()
    items = [Activity(activity_id=r["activity_id"], summary=_activity_summary(r), account_id=r["account_id"],
                      occurred_at=r["occurred_at"],
                      kind=r["kind"], description=r["description"], amount=r["amount"], ticker=r["ticker"],
                      quantity=r["quantity"], price=r["price"], realized_gain=r["realized_gain"],
                      order_id=r["order_id"], bank_link_id=r["bank_link_id"]) for r in rows[:limit]]
    return ActivityList(activities=items, total=len(rows), activities_text=_activities_text(items, len(rows), ctx.today()))


def _activities_text(items: list[Activity], total: int, today: date) -> str:
    """'Sold 10 AAPL at $258.84 on March 12 (a gain of $112.40) and $500.00 deposit from Schwab Investor
    Checking ending 4247 on March 2'."""
    def one(a: Activity) -> str:
        d = date.fromisoformat(a.occurred_at[:10])
        day = f"{d:%B} {d.day}" + ("" if d.year == today.year else f", {d.year}")
        said = _mid_sentence(a.summary)  # "...; sold 16 SBUX at $109.92", not "; Sold"
        if a.kind == "buy":
            return f"{said} on {day}"
        if a.kind == "sell":
            gain = a.realized_gain or 0
            result = f" (a {'gain' if gain > 0 else 'loss'} of ${abs(gain):,.2f})" if gain else ""
            return f"{said} on {day}{result}"
        return f"${abs(a.amount):,.2f} {said} on {day}"  # "$500.00 deposit from ..."
    return said_in_part([one(a) for a in items[:5]], total, "nothing")


def _mid_sentence(summary: str) -> str:
    """An activity's summary inside a sentence: "sold 16 SBUX", "deposit from ...", but a name keeps
    its capital ("Roth IRA contribution from ...")."""
    return summary if summary.startswith("Roth ") else summary[:1].lower() + summary[1:]


def _activity_summary(row: sqlite3.Row) -> str:
    """A trade as people say it ("Bought 33 BND at $65.55"); anything else by its description."""
    if row["kind"] in ("buy", "sell"):
        return f"{'Bought' if row['kind'] == 'buy' else 'Sold'} {row['quantity']} {row['ticker']} at ${row['price']:,.2f}"
    if row["kind"] == "dividend" and row["quantity"] and row["price"] is not None:
        return f"Dividend on {row['quantity']} {row['ticker']} at ${row['price']:,.2f} a share"
    return row["description"]


@tools.tool(effect=READ, asks=[
    "Which bank accounts are linked to my brokerage?",
    "Show my linked banks.",
], reply=[
    "Your linked banks: {result.bank_links_text}.",
    "Linked to your brokerage: {result.bank_links_text}.",
])
def list_bank_links(ctx: Ctx) -> BankLinkList:
    """List the external bank accounts linked for deposits and withdrawals.

    Returns:
        Each link's ID, nickname, institution, account type, last four digits, status
        ('verified' or 'pending_verification': only verified links can move money) and link date.
    """
    rows = ctx.db.execute("SELECT * FROM bank_links ORDER BY bank_link_id").fetchall()
    links = [BankLink(**dict(r)) for r in rows]
    return BankLinkList(bank_links=links, total=len(rows), bank_links_text=_bank_links_text(links))


def _bank_links_text(links: list[BankLink]) -> str:
    """'Schwab Investor Checking ending 4247 (Schwab Bank, verified) and Marcus High-Yield Savings
    ending 3759 (still pending verification)': the bank where the nickname does not say it."""
    parts = []
    for link in links:
        said = [] if link.institution in link.nickname else [link.institution]
        said.append("verified" if link.status == "verified" else "still pending verification")
        parts.append(f"{link.nickname} ({', '.join(said)})")
    return said_in_part(parts, len(parts), "none")


def _bank_link(ctx: Ctx, bank_link_id: str) -> sqlite3.Row:
    row = ctx.get("bank_link", bank_link_id)
    if row["status"] != "verified":
        raise ToolError("bank_link_unverified", f"{row['nickname']} is still pending verification.",
                        hint="Use a verified bank link; verification takes 1-2 business days after the "
                             "micro-deposits are confirmed.")
    return row


def _contribute(ctx: Ctx, acct: sqlite3.Row, amount: float) -> None:
    """Count `amount` as a Roth IRA contribution, or raise if it exceeds this year's room."""
    if acct["kind"] != "roth_ira":
        return
    room = contribution_room(ctx, acct)
    if amount > room:
        raise ToolError("contribution_limit_exceeded",
                        f"{acct['name']} can take ${room:,.2f} more in contributions for {ctx.today().year}; "
                        f"${amount:,.2f} was requested.",
                        hint=f"Contribute at most ${room:,.2f}.")
    ctx.db.execute("UPDATE accounts SET contributions_ytd = ?, contribution_year = ? WHERE account_id = ?",
                   (money(contributions_this_year(ctx, acct) + amount), ctx.today().year, acct["account_id"]))


def _cash(ctx: Ctx, account_id: str) -> float:
    return ctx.db.execute("SELECT cash FROM accounts WHERE account_id = ?", (account_id,)).fetchone()["cash"]


@tools.tool(effect=WRITE, asks=[
    "Deposit ${amount} into {account_id} from {bank_link_id}.",
    "Move ${amount} from {bank_link_id} into {account_id}.",
], reply=[
    "Deposited ${amount} into {account_id}; its cash is now ${result.to_account_cash}.",
    "Done: ${amount} moved from {bank_link_id} into {account_id}.",
])
def deposit_funds(ctx: Ctx, account_id: AccountId, bank_link_id: VerifiedBankLinkId, amount: Amount) -> CashMovement:
    """Deposit cash from a linked bank into an account; it is available to trade at once.

    Deposits from all banks together may not exceed the investor's daily deposit limit. A
    deposit into a Roth IRA is a contribution and counts against the annual limit.

    Args:
        account_id: ID of the account to fund, such as 'BRK-10001'.
        bank_link_id: ID of the verified linked bank to pull from, such as 'BNK-10001'.
        amount: dollars to deposit, such as 500.0.

    Returns:
        The deposit with its history entry and the account's cash afterwards.

    Raises:
        not_found: the account or the bank link does not exist.
        bank_link_unverified: the bank link is still pending verification.
        invalid_amount: the amount rounds to less than one cent.
        deposit_limit_exceeded: today's deposits would exceed the daily deposit limit.
        contribution_limit_exceeded: a Roth IRA deposit exceeds this year's remaining contribution room.
    """
    settle(ctx)
    acct = ctx.get("account", account_id)
    link = _bank_link(ctx, bank_link_id)
    amount = cents(amount)
    limit = ctx.db.execute("SELECT daily_deposit_limit FROM profile").fetchone()[0]
    (today,) = ctx.db.execute("SELECT coalesce(sum(amount), 0) FROM activity WHERE kind = 'deposit' "
                              "AND substr(occurred_at, 1, 10) = ?", (ctx.today().isoformat(),)).fetchone()
    if today + amount > limit:
        raise ToolError("deposit_limit_exceeded",
                        f"Deposits are limited to ${limit:,.2f} a day; ${today:,.2f} has been deposited today.",
                        hint=f"Deposit at most ${max(0.0, limit - today):,.2f} today, or the rest tomorrow.")
    _contribute(ctx, acct, amount)
    what = "Roth IRA contribution" if acct["kind"] == "roth_ira" else "Deposit"
    ctx.db.execute("UPDATE accounts SET cash = round(cash + ?, 2) WHERE account_id = ?", (amount, account_id))
    aid = log_activity(ctx, account_id, "deposit", amount, f"{what} from {link['nickname']}",
                       bank_link_id=bank_link_id)
    return CashMovement(kind="deposit", amount=amount, activity_ids=[aid], from_account_id=None,
                        to_account_id=account_id, bank_link_id=bank_link_id, occurred_at=ctx.now_iso(),
                        from_account_cash=None, to_account_cash=_cash(ctx, account_id))


@tools.tool(effect=WRITE, asks=[
    "Withdraw ${amount} from {account_id} to {bank_link_id}.",
    "Cash out ${amount} from {account_id} into {bank_link_id}, please.",
], reply=[
    "Withdrew ${amount} from {account_id} to {bank_link_id}.",
    "Done: ${amount} is on its way to {bank_link_id}; {account_id} has ${result.from_account_cash} in cash left.",
])
def withdraw_funds(ctx: Ctx, account_id: TaxableAccountId, bank_link_id: VerifiedBankLinkId,
                   amount: Amount) -> CashMovement:
    """Withdraw cash from a taxable account to a linked bank.

    Only buying power (cash not reserved for open buy orders) can be withdrawn. Money cannot
    be withdrawn from a Roth IRA here.

    Args:
        account_id: ID of the account to withdraw from, such as 'BRK-10001'.
        bank_link_id: ID of the verified linked bank to send the money to, such as 'BNK-10001'.
        amount: dollars to withdraw, such as 250.0.

    Returns:
        The withdrawal with its history entry and the account's cash afterwards.

    Raises:
        not_found: the account or the bank link does not exist.
        bank_link_unverified: the bank link is still pending verification.
        invalid_amount: the amount rounds to less than one cent.
        retirement_withdrawal_not_allowed: the account is a Roth IRA.
        insufficient_funds: the amount is more than the account's buying power.
    """
    settle(ctx)
    acct = ctx.get("account", account_id)
    link = _bank_link(ctx, bank_link_id)
    amount = cents(amount)
    _no_ira_withdrawal(acct)
    _check_funds(ctx, acct, amount)
    ctx.db.execute("UPDATE accounts SET cash = round(cash - ?, 2) WHERE account_id = ?", (amount, account_id))
    aid = log_activity(ctx, account_id, "withdrawal", -amount, f"Withdrawal to {link['nickname']}",
                       bank_link_id=bank_link_id)
    return CashMovement(kind="withdrawal", amount=amount, activity_ids=[aid], from_account_id=account_id,
                        to_account_id=None, bank_link_id=bank_link_id, occurred_at=ctx.now_iso(),
                        from_account_cash=_cash(ctx, account_id), to_account_cash=None)


def _no_ira_withdrawal(acct: sqlite3.Row) -> None:
    if acct["kind"] == "roth_ira":
        raise ToolError("retirement_withdrawal_not_allowed",
                        f"Money cannot be taken out of {acct['name']} here: a Roth IRA distribution needs a "
                        "distribution request with tax withholding choices.",
                        hint="Move money out of a taxable account instead, or call the broker about a distribution.")


def _check_funds(ctx: Ctx, acct: sqlite3.Row, amount: float) -> None:
    available = buying_power(ctx, acct)
    if amount > available:
        raise ToolError("insufficient_funds",
                        f"{acct['name']} has ${available:,.2f} of buying power; ${amount:,.2f} was requested.",
                        hint="Use a smaller amount, or cancel open buy orders to release reserved cash.")


@tools.tool(effect=WRITE, asks=[
    "Transfer ${amount} from {from_account_id} to {to_account_id}.",
    "Put ${amount} from {from_account_id} into {to_account_id}.",
    "Fund {to_account_id} with ${amount} from {from_account_id}.",
], reply=[
    "Moved ${amount} from {from_account_id} to {to_account_id}.",
    "Done: {to_account_id} now has ${result.to_account_cash} in cash.",
])
def transfer_cash(ctx: Ctx, from_account_id: TaxableAccountId, to_account_id: AccountId,
                  amount: Amount) -> CashMovement:
    """Move cash between two of the investor's accounts, instantly.

    Money moved into a Roth IRA is a contribution and counts against the annual limit; money
    cannot be moved out of a Roth IRA here.

    Args:
        from_account_id: ID of the account to take cash from, such as 'BRK-10001'.
        to_account_id: ID of the account to put it in, such as 'BRK-10002'.
        amount: dollars to move, such as 1000.0.

    Returns:
        The transfer with its two history entries and both accounts' cash afterwards.

    Raises:
        not_found: an account does not exist.
        same_account: the two accounts are the same.
        invalid_amount: the amount rounds to less than one cent.
        retirement_withdrawal_not_allowed: the source account is a Roth IRA.
        insufficient_funds: the amount is more than the source account's buying power.
        contribution_limit_exceeded: the destination is a Roth IRA and the amount exceeds this year's
            remaining contribution room.
    """
    settle(ctx)
    src = ctx.get("account", from_account_id)
    dst = ctx.get("account", to_account_id)
    if from_account_id == to_account_id:
        raise ToolError("same_account", "The source and destination accounts are the same.",
                        hint="Pick two different accounts from list_accounts.")
    amount = cents(amount)
    _no_ira_withdrawal(src)
    _check_funds(ctx, src, amount)
    _contribute(ctx, dst, amount)
    ctx.db.execute("UPDATE accounts SET cash = round(cash - ?, 2) WHERE account_id = ?", (amount, from_account_id))
    ctx.db.execute("UPDATE accounts SET cash = round(cash + ?, 2) WHERE account_id = ?", (amount, to_account_id))
    out_id = log_activity(ctx, from_account_id, "transfer_out", -amount, f"Transfer to {dst['name']}")
    in_id = log_activity(ctx, to_account_id, "transfer_in", amount,
                         f"{'Roth IRA contribution' if dst['kind'] == 'roth_ira' else 'Transfer'} from {src['name']}")
    return CashMovement(kind="transfer", amount=amount, activity_ids=[out_id, in_id],
                        from_account_id=from_account_id, to_account_id=to_account_id, bank_link_id=None,
                        occurred_at=ctx.now_iso(),
                        from_account_cash=_cash(ctx, from_account_id),
                        to_account_cash=_cash(ctx, to_account_id))

