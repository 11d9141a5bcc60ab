"""The wallet: balance, limits, linked banks and cards, adding money and cashing out."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, Sensitive, ToolError, Toolset, Where
from prove.env.values import iso, listing_said, luhn_ok, money

from .server import (
    MAX_ACTIVE_SOURCES,
    TRANSFER_SQL,
    WEEK,
    Amount,
    BankId,
    FundingSource,
    FundingSourceList,
    Limit,
    Limits,
    OtherSourceId,
    PayoutSourceId,
    SourceId,
    Text,
    Transfer,
    TransferList,
    TransferReceipt,
    Wallet,
    adjust_balance,
    balance,
    card_expired,
    cents,
    profile,
    remaining_this_week,
    sent_in_window,
    source_model,
    sources_text,
    transfer_model,
    usable_source,
)
from .world import business_days_after, cash_out_fee

tools = Toolset("wallet")

CardNumber = Annotated[str, Sensitive(), StringConstraints(max_length=40)]
Cvv = Annotated[str, Sensitive(), StringConstraints(max_length=10)]
Pin = Annotated[str, Sensitive(), StringConstraints(max_length=20)]


@tools.tool(effect=READ, asks=[
    "What's my balance?",
    "How much money is in my wallet, and how much more can I send this week?",
    "Do I have requests waiting on me?",
    "What's my default bank or card?",
], reply=[
    "Your balance is ${result.balance}.",
    "Your balance is ${result.balance}, and you can send ${result.remaining_this_week} more this week.",
    "Requests waiting on you: {result.pending_incoming_requests}.",
    "Your default payment method is {result.default_source_name}.",
])
def get_wallet(ctx: Ctx) -> Wallet:
    """Get the member's wallet: balance, default funding source, weekly limit use and what is pending.

    Returns:
        The member's name and username, wallet balance, identity verification, default funding
        source, weekly sending limit with what was sent in the last 7 days and what remains,
        cash-outs still in transit, incoming requests waiting for an answer and open invoices.
    """
    me = profile(ctx)
    default = ctx.db.execute("SELECT * FROM funding_sources WHERE is_default = 1 AND status = 'active'").fetchone()
    sent, _ = sent_in_window(ctx)
    (transit,) = ctx.db.execute("SELECT coalesce(sum(amount - fee), 0) FROM transfers WHERE direction = 'cash_out' "
                                "AND arrives_at > ?", (ctx.now_iso(),)).fetchone()
    (incoming,) = ctx.db.execute("SELECT count(*) FROM requests WHERE direction = 'incoming' AND status = 'pending'"
                                 ).fetchone()
    (invoices,) = ctx.db.execute("SELECT count(*) FROM invoices WHERE status = 'open'").fetchone()
    return Wallet(name=me["name"], username=me["username"], balance=me["balance"],
                  identity_verified=bool(me["identity_verified"]),
                  default_source_id=default["source_id"] if default else None,
                  default_source_name=default["name"] if default else None,
                  weekly_send_limit=me["weekly_send_limit"], sent_last_7_days=sent,
                  remaining_this_week=remaining_this_week(ctx), cash_out_in_transit=money(transit),
                  pending_incoming_requests=incoming, open_invoices=invoices)


@tools.tool(effect=READ, asks=[
    "How much more can I send this week?",
    "How much have I sent this week, and what's my weekly limit?",
], reply=[
    "You can send ${result.remaining_this_week} more this week: the weekly limit is ${result.weekly_send_limit}, "
    "and ${result.sent_last_7_days} went out in the last 7 days.",
])
def get_limits(ctx: Ctx) -> Limits:
    """Get the weekly sending limit: what counts toward it now and when room frees up.

    Payments sent (and requests paid) in any rolling 7 days count toward the limit, fees
    excluded; each stops counting 7 days after it was made.

    Returns:
        The weekly limit, what was sent in the last 7 days, what remains, where the window
        starts, and when the oldest payment in it stops counting and how much that frees.
    """
    me = profile(ctx)
    sent, rows = sent_in_window(ctx)
    release_at = release_amount = None
    if rows:
        release_at = iso(datetime.fromisoformat(rows[0]["created_at"]) + WEEK)
        release_amount = money(sum(r["amount"] for r in rows if r["created_at"] == rows[0]["created_at"]))
    return Limits(weekly_send_limit=me["weekly_send_limit"], sent_last_7_days=sent,
                  remaining_this_week=remaining_this_week(ctx), window_start=iso(ctx.now() - WEEK),
                  next_release_at=release_at, next_release_amount=release_amount)


@tools.tool(effect=READ, asks=[
    "Which bank accounts and cards are linked to my wallet?",
    Ask("Show all my payment methods, even the ones I removed.", include_removed=True),
    "What payment methods do I have?",
], reply=[
    Ask("Linked to your wallet: {result.sources_text}.", include_removed=False),
    Ask("All your banks and cards, removed ones too: {result.sources_text}.", include_removed=True),
])
def list_funding_sources(ctx: Ctx, include_removed: bool = False) -> FundingSourceList:
    """List the bank accounts and cards linked to the wallet.

    Args:
        include_removed: also list sources removed earlier, such as true; default false.

    Returns:
        Each source's ID, name, kind ('bank_account', 'debit_card' or 'credit_card'),
        institution or network, last four digits, expiry and whether it has expired, status,
        and which one is the default.
    """
    sql = "SELECT * FROM funding_sources" + ("" if include_removed else " WHERE status = 'active'")
    rows = ctx.db.execute(sql + " ORDER BY is_default DESC, added_at, source_id").fetchall()
    sources = [source_model(ctx, r) for r in rows]
    return FundingSourceList(funding_sources=sources, total=len(rows), sources_text=sources_text(sources))


def _network(number: str) -> str | None:
    if number[0] == "4" and len(number) in (13, 16, 19):
        return "Visa"
    if len(number) == 16 and (51 <= int(number[:2]) <= 55 or 2221 <= int(number[:4]) <= 2720):
        return "Mastercard"
    if len(number) == 15 and number[:2] in ("34", "37"):
        return "American Express"
    if len(number) == 16 and (number.startswith("6011") or number.startswith("65")):
        return "Discover"
    return None


@tools.tool(effect=WRITE, asks=[
    "Add my new {card_type} card {card_number}, expiring {expires}, CVV {cvv}.",
    "Link {card_number} (exp {expires}, security code {cvv}) to my wallet as a {card_type} card.",
    Ask("Add my debit card {card_number}, exp {expires}, CVV {cvv}, and call it '{nickname}'.", card_type="debit"),
    Ask("Link my credit card {card_number}, {expires}, code {cvv}.", card_type="credit"),
], reply=[
    "Linked {result.name} to your wallet.",
    "Your {result.institution} card ending {result.last4} is linked now.",
], values={"nickname": ["Travel card", "Everyday debit", "Backup card", "Work card", "Groceries",
                        "Joint account card"]})
def add_card(ctx: Ctx, card_number: CardNumber, expires: str, cvv: Cvv, card_type: Literal["debit", "credit"],
             nickname: Text | None = None) -> FundingSource:
    """Link a debit or credit card to the wallet.

    The number may contain spaces or dashes. Visa, Mastercard, American Express and Discover
    cards are accepted.

    Args:
        card_number: the full card number, such as '4111 1111 1111 1111'.
        expires: the expiry printed on the card, as 'MM/YY', such as '08/29'.
        cvv: the 3-digit security code (4 digits for American Express), such as '123'.
        card_type: 'debit' or 'credit'.
        nickname: a name to show for the card, such as 'Travel card'; by default the network
            and last four digits.

    Returns:
        The new funding source (only the last four digits are shown).

    Raises:
        invalid_card: the number fails the card checksum, has an unsupported network, or the CVV has the wrong length.
        invalid_expiry: expires is not 'MM/YY'.
        card_expired: the card has already expired.
        already_linked: this card is already linked.
        too_many_sources: the wallet already has the most linked sources allowed (8).
    """
    number = re.sub(r"[ -]", "", card_number)
    if not number.isascii() or not number.isdigit() or not 13 <= len(number) <= 19 or not luhn_ok(number):
        raise ToolError("invalid_card", "That card number is not valid.",
                        hint="Check the digits on the front of the card.")
    network = _network(number)
    if network is None:
        raise ToolError("invalid_card", "Only Visa, Mastercard, American Express and Discover cards are accepted.")
    code = cvv.strip()
    if not code.isascii() or not code.isdigit() or len(code) != (4 if network == "American Express" else 3):
        raise ToolError("invalid_card", f"The security code of a {network} card has "
                        f"{4 if network == 'American Express' else 3} digits.")
    m = re.fullmatch(r"\s*(\d{2})\s*/\s*(\d{2}|\d{4})\s*", expires)
    if m is None or not 1 <= int(m.group(1)) <= 12:
        raise ToolError("invalid_expiry", f"expires {expires[:20]!r} is not a month and year like '08/29'.")
    month, year = int(m.group(1)), int(m.group(2)[-2:])
    stamp = f"{month:02d}/{year:02d}"
    if card_expired(stamp, ctx.today()):
        raise ToolError("card_expired", f"The card expired at the end of {stamp}.",
                        hint="Use the replacement card's number and expiry.")
    linked = ctx.db.execute("SELECT 1 FROM funding_sources WHERE card_number = ? AND status = 'active'",
                            (number,)).fetchone()
    if linked:
        raise ToolError("already_linked", f"The {network} card ending {number[-4:]} is already linked.")
    (active,) = ctx.db.execute("SELECT count(*) FROM funding_sources WHERE status = 'active'").fetchone()
    if active >= MAX_ACTIVE_SOURCES:
        raise ToolError("too_many_sources", f"The wallet already has {active} linked sources, the most allowed.",
                        hint="Remove a bank account or card you no longer use first.")
    source_id = ctx.new_id("FS")
    name = nickname or f"{network} {card_type.title()} ending {number[-4:]}"
    ctx.db.execute(
        "INSERT INTO funding_sources (source_id, name, kind, institution, last4, card_number, expires, status, "
        "is_default, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'active', 0, ?)",
        (source_id, name, f"{card_type}_card", network, number[-4:], number, stamp, ctx.now_iso()))
    return source_model(ctx, ctx.get("funding_source", source_id))


@tools.tool(effect=WRITE, asks=[
    "Remove {source_id} from my wallet.",
    "Unlink {source_id}, I closed that account.",
], reply=[
    "Unlinked {result.name} from your wallet.",
    "{source_id} is removed from your wallet.",
])
def remove_funding_source(ctx: Ctx, source_id: OtherSourceId) -> FundingSource:
    """Unlink a bank account or card from the wallet (past payments keep referring to it).

    Args:
        source_id: ID of the funding source, such as 'FS-10003'.

    Returns:
        The source, now 'removed'.

    Raises:
        not_found: no funding source has that ID.
        source_unavailable: the source was already removed.
        default_source: it is the default source; make another source the default first.
        pending_transfer: a transfer to or from it has not arrived yet.
    """
    row = ctx.get("funding_source", source_id)
    if row["status"] != "active":
        raise ToolError("source_unavailable", f"{row['name']} was already removed.")
    if row["is_default"]:
        raise ToolError("default_source", f"{row['name']} is the default funding source.",
                        hint="Make another source the default with set_default_funding_source, then remove this one.")
    pending = ctx.db.execute("SELECT transfer_id, arrives_at FROM transfers WHERE source_id = ? AND arrives_at > ? "
                             "ORDER BY arrives_at DESC", (source_id, ctx.now_iso())).fetchone()
    if pending:
        raise ToolError("pending_transfer", f"Transfer {pending['transfer_id']} with {row['name']} arrives at "
                        f"{pending['arrives_at']}; the source cannot be removed before then.")
    ctx.db.execute("UPDATE funding_sources SET status = 'removed' WHERE source_id = ?", (source_id,))
    return source_model(ctx, ctx.get("funding_source", source_id))


@tools.tool(effect=WRITE, asks=[
    "Make {source_id} my default payment method.",
    "Use {source_id} as the default from now on.",
], reply=[
    "{result.name} is your default now.",
    "Done: {source_id} will be used when you don't pick one.",
])
def set_default_funding_source(ctx: Ctx, source_id: SourceId) -> FundingSource:
    """Make a linked bank account or card the wallet's default funding source.

    Args:
        source_id: ID of the funding source, such as 'FS-10002'.

    Returns:
        The source, now the default.

    Raises:
        not_found: no funding source has that ID.
        source_unavailable: the source was removed.
        card_expired: the card has expired.
    """
    usable_source(ctx, source_id)
    ctx.db.execute("UPDATE funding_sources SET is_default = (source_id = ?)", (source_id,))
    return source_model(ctx, ctx.get("funding_source", source_id))


def _receipt(ctx: Ctx, transfer_id: str) -> TransferReceipt:
    row = ctx.db.execute(TRANSFER_SQL + " WHERE t.transfer_id = ?", (transfer_id,)).fetchone()
    return TransferReceipt(transfer=transfer_model(ctx, row), balance=balance(ctx))


@tools.tool(effect=WRITE, asks=[
    "Add {amount} dollars to my wallet from {source_id}.",
    "Top up my balance with ${amount} from {source_id}.",
    "Move ${amount} from {source_id} into my wallet.",
], reply=[
    # Money added from a bank arrives at once.
    "Added ${result.transfer.amount} from {source_id}; your balance is now ${result.balance}.",
    "Done: ${result.transfer.amount} from {result.transfer.source_name} is in your wallet, which now holds "
    "${result.balance}.",
])
def add_money(ctx: Ctx, source_id: BankId, amount: Amount) -> TransferReceipt:
    """Move money from a linked bank account into the wallet balance, at once and for free.

    Args:
        source_id: ID of a linked bank account, such as 'FS-10001'.
        amount: dollars to add, such as 200.0.

    Returns:
        The transfer and the wallet balance afterwards.

    Raises:
        not_found: no funding source has that ID.
        source_unavailable: the source was removed.
        unsupported_source: the source is a card; money can only be added from a bank account.
        invalid_amount: the amount rounds to less than one cent.
    """
    src = ctx.get("funding_source", source_id)
    if src["status"] != "active":
        raise ToolError("source_unavailable", f"{src['name']} was removed from the wallet.")
    if src["kind"] != "bank_account":
        raise ToolError("unsupported_source", f"{src['name']} is a card; money can only be added from a bank account.",
                        hint="Pick a bank account from list_funding_sources.")
    amount = cents(amount)
    transfer_id = ctx.new_id("TRF")
    now = ctx.now()
    ctx.db.execute("INSERT INTO transfers (transfer_id, direction, source_id, amount, fee, speed, created_at, "
                   "arrives_at) VALUES (?, 'add_money', ?, ?, 0, 'instant', ?, ?)",
                   (transfer_id, source_id, amount, iso(now), iso(now)))
    adjust_balance(ctx, amount)
    return _receipt(ctx, transfer_id)


@tools.tool(effect=WRITE, asks=[
    "Cash out {amount} dollars to {source_id}. My PIN is {pin}.",
    Ask("Transfer ${amount} from my balance to {source_id} instantly; PIN {pin}.", speed="instant"),
    Ask("Move ${amount} to {source_id} the standard way, PIN {pin}.", speed="standard"),
], reply=[
    Ask("Cashing out ${result.transfer.amount} to {result.transfer.source_name}; after the "
        "${result.transfer.fee} instant fee, ${result.transfer.arriving_amount} arrives {result.transfer.arrives_at}.",
        speed="instant"),
    Ask("Done: ${result.transfer.arriving_amount} is on its way to {source_id} (the instant fee was "
        "${result.transfer.fee}). Your balance is ${result.balance}.", speed="instant"),
    "Cashing out ${result.transfer.amount} to {result.transfer.source_name}; it arrives "
    "{result.transfer.arrives_at}.",
    "On its way: ${result.transfer.arriving_amount} to {source_id}. Your balance is ${result.balance}.",
])
def cash_out(ctx: Ctx, amount: Amount, source_id: PayoutSourceId, pin: Pin,
             speed: Literal["standard", "instant"] = "standard") -> TransferReceipt:
    """Move money from the wallet balance to a linked bank account or debit card.

    Standard transfers go to bank accounts, are free and arrive in 1-3 business days. Instant
    transfers go to a bank account or debit card within minutes for a 1.75% fee (at least $0.25,
    at most $25), taken from the amount. Cash-outs need the member's 4-digit security PIN.

    Args:
        amount: dollars to take out of the wallet, such as 150.0.
        source_id: ID of the bank account or debit card to send it to, such as 'FS-10001'.
        pin: the member's 4-digit security PIN, such as '4821'.
        speed: 'standard' (free, 1-3 business days) or 'instant' (1.75% fee, minutes).

    Returns:
        The transfer with its fee, the amount that will arrive, its arrival time and status,
        and the wallet balance afterwards.

    Raises:
        wrong_pin: the PIN does not match.
        not_found: no funding source has that ID.
        source_unavailable: the source was removed.
        card_expired: the debit card has expired.
        unsupported_source: the source is a credit card, or a standard transfer to a debit card.
        invalid_amount: the amount rounds to less than one cent, or does not cover the instant fee.
        insufficient_balance: the wallet balance is less than the amount.
    """
    if pin.strip() != profile(ctx)["pin"]:
        raise ToolError("wrong_pin", "That PIN is not right.", hint="The security PIN has 4 digits.")
    src = usable_source(ctx, source_id)
    if src["kind"] == "credit_card":
        raise ToolError("unsupported_source", f"{src['name']} is a credit card; cash-outs go to a bank account "
                        "or debit card.")
    if src["kind"] == "debit_card" and speed == "standard":
        raise ToolError("unsupported_source", f"{src['name']} is a debit card; transfers to cards are instant only.",
                        hint="Use speed 'instant', or a bank account for a free standard transfer.")
    amount = cents(amount)
    fee = cash_out_fee(amount) if speed == "instant" else 0.0
    if fee >= amount:
        raise ToolError("invalid_amount", f"The instant fee ${fee:.2f} is not less than ${amount:.2f}.",
                        hint="Cash out a larger amount, or use a standard transfer.")
    available = balance(ctx)
    if amount > available:
        raise ToolError("insufficient_balance",
                        f"The wallet balance is ${available:,.2f}; ${amount:,.2f} was asked for.",
                        hint=f"Cash out at most ${available:,.2f}.")
    now = ctx.now()
    arrives = now + timedelta(minutes=30) if speed == "instant" else business_days_after(now, 3)
    transfer_id = ctx.new_id("TRF")
    ctx.db.execute("INSERT INTO transfers (transfer_id, direction, source_id, amount, fee, speed, created_at, "
                   "arrives_at) VALUES (?, 'cash_out', ?, ?, ?, ?, ?, ?)",
                   (transfer_id, source_id, amount, fee, speed, iso(now), iso(arrives)))
    adjust_balance(ctx, -amount)
    return _receipt(ctx, transfer_id)


_LIMIT = 20  # how many a listing returns where no number is asked


def _transfers_text(transfers: list[Transfer], total: int, asked: bool, today: datetime) -> str:
    """'the $274.84 cash-out to PNC Checking ending 4202 on March 13 (on its way, arriving March 17) and the
    $200.00 top-up from PNC Checking ending 4202 on December 29, 2025 (arrived)'. Up to 10 returned are each
    said, more are counted: all there are, or where a number was `asked`, those returned ("my last 3
    top-ups" are those 3, not 3 and how many more there are)."""
    def day(at: str) -> str:
        d = datetime.fromisoformat(at)
        return f"{d:%B} {d.day}" + ("" if d.year == today.year else f", {d.year}")

    def one(t: Transfer) -> str:
        what = f"cash-out to {t.source_name}" if t.direction == "cash_out" else f"top-up from {t.source_name}"
        where = f"on its way, arriving {day(t.arrives_at)}" if t.status == "pending" else "arrived"
        return f"the ${t.amount:,.2f} {what} on {day(t.created_at)} ({where})"
    return listing_said([one(t) for t in transfers], total, asked, "no transfers", first=4)


@tools.tool(effect=READ, asks=[
    Ask("Show my recent cash-outs.", direction="cash_out"),
    "Has my transfer to the bank arrived yet?",
    Ask("List my last {limit} top-ups.", direction="add_money"),
    "Show my transfers.",
], reply=[
    Ask("Your transfers: {result.transfers_text}.", direction=None),
    Ask("Your cash-outs: {result.transfers_text}.", direction="cash_out"),
    Ask("Your top-ups: {result.transfers_text}.", direction="add_money"),
])
def list_transfers(ctx: Ctx, direction: Literal["add_money", "cash_out"] | None = None,
                   limit: Limit = _LIMIT) -> TransferList:
    """List money moved between the wallet and banks or cards, newest first.

    Args:
        direction: only 'add_money' (into the wallet) or 'cash_out' (out of it).
        limit: the most transfers to return, from 1 to 100, such as 20.

    Returns:
        The transfers with source, amount, fee, amount arriving, speed, status ('pending' until
        its arrival time, then 'completed'), creation and arrival times, and how many there are.
    """
    where = Where()
    where.eq("t.direction", direction)
    rows = ctx.db.execute(f"{TRANSFER_SQL}{where.clause} ORDER BY t.created_at DESC, t.transfer_id DESC",
                          where.params).fetchall()
    transfers = [transfer_model(ctx, r) for r in rows[:limit]]
    return TransferList(transfers=transfers, total=len(rows),
                        transfers_text=_transfers_text(transfers, len(rows), limit != _LIMIT, ctx.now()))


# ----- pipeline-only helpers: secrets a user would know ------------------------------------------

class SecurityPin(BaseModel):
    pin: Annotated[str, Sensitive()] = Field(description="the member's 4-digit security PIN")


class CardOnHand(BaseModel):
    card_number: Annotated[str, Sensitive()]
    network: str
    issuer: str
    card_type: Literal["debit", "credit"]
    expires: str
    cvv: Annotated[str, Sensitive()]
    linked: bool = Field(description="whether the card is already linked to the wallet")


class CardsOnHand(BaseModel):
    cards: list[CardOnHand]
    total: int


@tools.tool(effect=READ, hidden=True)
def get_security_pin(ctx: Ctx) -> SecurityPin:
    """Get the member's security PIN, as the member would know it (for writing user turns).

    Returns:
        The 4-digit PIN that cash-outs ask for.
    """
    return SecurityPin(pin=profile(ctx)["pin"])


@tools.tool(effect=READ, hidden=True)
def list_cards_on_hand(ctx: Ctx) -> CardsOnHand:
    """List the cards in the member's physical wallet, as printed on them (for writing user turns).

    Returns:
        Each card's full number, network, issuer, type, expiry, security code and whether it is
        already linked to the app.
    """
    linked = {r[0] for r in ctx.db.execute("SELECT card_number FROM funding_sources WHERE status = 'active' "
                                           "AND card_number IS NOT NULL")}
    rows = ctx.db.execute("SELECT * FROM cards_on_hand ORDER BY card_number").fetchall()
    return CardsOnHand(cards=[CardOnHand(**dict(r), linked=r["card_number"] in linked) for r in rows],
                       total=len(rows))

