"""Banking tools: debit and credit cards (freeze, report lost, PIN, spending limit)."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from datetime import date, timedelta
from typing import Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import luhn_digit, money

from .server import (
    AccountId,
    ActiveCardId,
    CardId,
    FrozenCardId,
    Money,
    Pin,
    Where,
    cents,
)
from .world import DEBIT_CARD_MAX_LIMIT, REPLACEMENT_SHIPPING_DAYS, is_weak_pin

tools = Toolset("cards")

CardStatus = Literal["active", "frozen", "lost", "stolen"]

# ----- models -------------------------------------------------------------------------------------


class Card(BaseModel):
    """A debit or credit card. Its full number and PIN are never shown."""

    card_id: CardId
    account_id: AccountId
    name: str = Field(description="How the customer names it, such as 'Visa debit card ending 4821'.")
    kind: Literal["debit", "credit"]
    network: str
    number_ending: str = Field(description="Last four digits of the card number.")
    cardholder: str
    expires: str = Field(description="Expiry month as MM/YY.")
    status: CardStatus = Field(description="'active', 'frozen' (temporarily blocked by the customer), "
                                           "or 'lost'/'stolen' (permanently blocked).")
    daily_spending_limit: float
    issued_on: str
    replaces_card_id: CardId | None = Field(description="The lost or stolen card this one replaced, if any.")


class CardList(BaseModel):
    cards: list[Card]
    total: int
    cards_text: str = Field(description="The cards in words, such as 'Visa debit card ending 5182, reported lost; "
                                        "Mastercard credit card ending 6880, active'.")


_STATE = {"active": "active", "frozen": "frozen", "lost": "reported lost", "stolen": "reported stolen"}


def _cards_text(cards: list[Card], status_named: bool) -> str:
    """'Visa debit card ending 5182, reported lost; Mastercard credit card ending 6880, active', the status
    left out where the request named it."""
    def one(c: Card) -> str:
        return c.name if status_named else f"{c.name}, {_STATE[c.status]}"
    return "; ".join(one(c) for c in cards) or "no cards"


class CardDetail(Card):
    """One card, with whether it is frozen in words."""

    frozen_status: str = Field(description="Whether the card is frozen, in words, such as 'is frozen' or 'isn't "
                                           "frozen; it's active'.")


_NOT_FROZEN = {"active": "isn't frozen; it's active", "lost": "isn't frozen; it was reported lost and no longer works",
               "stolen": "isn't frozen; it was reported stolen and no longer works"}


class CardReplacement(BaseModel):
    """A card reported lost or stolen and the replacement card issued for it."""

    reported_card: Card
    replacement: Card
    arrives_by: str = Field(description="Day by which the replacement card arrives by mail.")


class PinChange(BaseModel):
    card_id: CardId
    pin_changed_on: str


class CardPin(BaseModel):
    card_id: CardId
    pin: str


# ----- helpers ------------------------------------------------------------------------------------


def _card(row: sqlite3.Row) -> Card:
    return Card(card_id=row["card_id"], account_id=row["account_id"], name=row["name"], kind=row["kind"],
                network=row["network"], number_ending=row["card_number"][-4:], cardholder=row["cardholder"],
                expires=row["expires"], status=row["status"], daily_spending_limit=money(row["daily_spending_limit"]),
                issued_on=row["issued_on"], replaces_card_id=row["replaces_card_id"])


def _live_card(ctx: Ctx, card_id: str) -> sqlite3.Row:
    """A card that was not reported lost or stolen (it may be frozen), else `card_inactive`."""
    row = ctx.get("card", card_id)
    if row["status"] in ("lost", "stolen"):
        replacement = ctx.db.execute("SELECT card_id FROM cards WHERE replaces_card_id = ?", (card_id,)).fetchone()
        hint = (f"Use its replacement {replacement[0]}." if replacement
                else "Call list_cards to find the customer's active cards.")
        raise ToolError("card_inactive", f"{row['name']} was reported {row['status']} and no longer works.", hint=hint)
    return row


def _set_status(ctx: Ctx, card_id: str, status: str, code: str, message: str, hint: str) -> Card:
    """Freeze ('frozen') or unfreeze ('active') a live card; if it already has that status, the
    error `code` with `message` (a template over the card's columns) and `hint`."""
    row = _live_card(ctx, card_id)
    if row["status"] == status:
        raise ToolError(code, message.format(**dict(row)), hint=hint)
    ctx.db.execute("UPDATE cards SET status = ? WHERE card_id = ?", (status, card_id))
    return _card(ctx.get("card", card_id))


def _replacement_number(old_number: str, card_id: str) -> str:
    """A new card number on the same network, derived from the IDs (deterministic, no RNG)."""
    digest = hashlib.sha256(f"{old_number}:{card_id}".encode()).hexdigest()
    body = old_number[:6] + "".join(str(int(ch, 16) % 10) for ch in digest[:9])
    return body + luhn_digit(body)


# ----- reading ------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What cards do I have?",
    "Show me the cards linked to {account_id}.",
    "Are any of my cards {status} right now?",
    Ask("Which of my cards are frozen?", status="frozen"),
], reply=[
    Ask("Your cards: {result.cards_text}.", status=None),
    Ask("Active: {result.cards_text}.", status="active"),
    Ask("Frozen right now: {result.cards_text}.", status="frozen"),
    Ask("Reported lost: {result.cards_text}.", status="lost"),
    Ask("Reported stolen: {result.cards_text}.", status="stolen"),
])
def list_cards(ctx: Ctx, account_id: AccountId | None = None, status: CardStatus | None = None) -> CardList:
    """List the customer's debit and credit cards, including frozen and lost ones.

    Args:
        account_id: only cards of this account, such as 'ACC-10001'.
        status: only cards with this status: 'active', 'frozen', 'lost' or 'stolen'.

    Returns:
        The cards (ID, account, name, kind, network, last four digits, expiry, status, daily
        spending limit) and how many there are.

    Raises:
        not_found: `account_id` does not exist.
    """
    where = Where(ctx).entity("account", "account_id = ?", account_id).add("status = ?", status)
    rows = ctx.db.execute(f"SELECT * FROM cards{where} ORDER BY card_id", where.params).fetchall()
    cards = [_card(r) for r in rows]
    return CardList(cards=cards, total=len(rows), cards_text=_cards_text(cards, status is not None))


@tools.tool(effect=READ, asks=[
    "Is {card_id} frozen?",
    "When does {card_id} expire, and what's its daily limit?",
], reply=[
    "{result.name} is {result.status}; it expires {result.expires} and can spend up to "
    "${result.daily_spending_limit} a day.",
    "{result.name} {result.frozen_status}.",
])
def get_card(ctx: Ctx, card_id: CardId) -> CardDetail:
    """Show one card: its status, expiry and daily spending limit.

    Args:
        card_id: ID of the card, such as 'CRD-10002'.

    Returns:
        The card (account, name, kind, network, last four digits, expiry, status, daily
        spending limit, the card it replaced).

    Raises:
        not_found: no card has that ID.
    """
    card = _card(ctx.get("card", card_id))
    return CardDetail(**card.model_dump(), frozen_status=_NOT_FROZEN.get(card.status, "is frozen"))


@tools.tool(effect=READ, hidden=True)
def get_card_pin(ctx: Ctx, card_id: CardId) -> CardPin:
    """The card's current PIN, for the synthesis pipeline to put in a user turn (never shown to a model).

    Args:
        card_id: ID of the card, such as 'CRD-10002'.

    Returns:
        The card ID and its 4-digit PIN.

    Raises:
        not_found: no card has that ID.
    """
    row = ctx.get("card", card_id)
    return CardPin(card_id=row["card_id"], pin=row["pin"])


# ----- changing -----------------------------------------------------------------------------------


# A card the customer can have lost is one that has reached them, not a replacement still in the mail.
_IN_HAND = {"card_id": f"issued_on <= date(:today, '-{REPLACEMENT_SHIPPING_DAYS} days')"}


@tools.tool(effect=WRITE, asks=[
    Ask("Freeze {card_id}, I can't find it.", fits=_IN_HAND),
    "Please put a temporary block on {card_id}.",
    "Can you freeze {card_id} for now?",
], reply=[
    "Done: {card_id} is frozen; no new charges will go through until you unfreeze it.",
    "I've frozen {card_id}.",
])
def freeze_card(ctx: Ctx, card_id: ActiveCardId) -> Card:
    """Temporarily block a card: no new purchases or withdrawals until it is unfrozen.

    Use this when a card is misplaced; report_card_lost blocks it for good and orders a new one.

    Args:
        card_id: ID of the card to freeze, such as 'CRD-10002'.

    Returns:
        The card, now with status 'frozen'.

    Raises:
        not_found: no card has that ID.
        card_inactive: the card was reported lost or stolen.
        already_frozen: the card is already frozen.
    """
    return _set_status(ctx, card_id, "frozen", "already_frozen", "{name} is already frozen.",
                       "Nothing to do; call unfreeze_card when the customer wants to use it again.")


@tools.tool(effect=WRITE, asks=[
    "Please unfreeze {card_id}; I found it.",
    "Unblock {card_id} so I can use it again.",
], reply=[
    "{card_id} is unfrozen and works again.",
    "Done: you can use {card_id} again.",
])
def unfreeze_card(ctx: Ctx, card_id: FrozenCardId) -> Card:
    """Lift a freeze so that the card works again.

    Args:
        card_id: ID of the frozen card, such as 'CRD-10002'.

    Returns:
        The card, now with status 'active'.

    Raises:
        not_found: no card has that ID.
        card_inactive: the card was reported lost or stolen; it cannot be unfrozen.
        not_frozen: the card is not frozen.
    """
    return _set_status(ctx, card_id, "active", "not_frozen", "{name} is not frozen; it is {status}.",
                       "Nothing to do: the card already works.")


@tools.tool(effect=WRITE, asks=[
    Ask("Block {card_id} and order a replacement; I lost it.", reason="lost", fits=_IN_HAND),
    Ask("Cancel {card_id} and send me a new one; it was stolen.", reason="stolen", fits=_IN_HAND),
    Ask("Report {card_id} as {reason} and get me a replacement.", fits=_IN_HAND),
], reply=[
    "I've blocked {card_id}. Your replacement, ending {result.replacement.number_ending}, arrives by "
    "{result.arrives_by}.",
    "Done: {card_id} no longer works, and a new card ending {result.replacement.number_ending} is on its way "
    "(by {result.arrives_by}).",
])
def report_card_lost(ctx: Ctx, card_id: CardId, reason: Literal["lost", "stolen"] = "lost") -> CardReplacement:
    """Report a card lost or stolen: it is blocked for good and a replacement is mailed.

    The replacement has a new number, the same account, PIN and daily spending limit, and works
    at once for online purchases. Frozen cards can be reported too.

    Args:
        card_id: ID of the card to report, such as 'CRD-10002'.
        reason: 'lost' (the default) or 'stolen'.

    Returns:
        The reported card (status 'lost' or 'stolen'), the replacement card with its new ID,
        and the day by which it arrives.

    Raises:
        not_found: no card has that ID.
        card_inactive: the card was already reported lost or stolen.
    """
    row = _live_card(ctx, card_id)
    ctx.db.execute("UPDATE cards SET status = ? WHERE card_id = ?", (reason, card_id))
    new_id = ctx.new_id("CRD")
    number = _replacement_number(row["card_number"], new_id)
    today = ctx.today()
    ctx.db.execute(
        "INSERT INTO cards (card_id, account_id, name, kind, network, card_number, cardholder, expires, pin, "
        "pin_changed_on, status, daily_spending_limit, issued_on, replaces_card_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'active', ?, ?, ?)",
        (new_id, row["account_id"], f"{row['network']} {row['kind']} card ending {number[-4:]}", row["kind"],
         row["network"], number, row["cardholder"], date(today.year + 4, today.month, 1).strftime("%m/%y"),
         row["pin"], row["daily_spending_limit"], today.isoformat(), card_id))
    return CardReplacement(reported_card=_card(ctx.get("card", card_id)),
                           replacement=_card(ctx.get("card", new_id)),
                           arrives_by=(today + timedelta(days=REPLACEMENT_SHIPPING_DAYS)).isoformat())


@tools.tool(effect=WRITE, asks=[
    "Change the PIN on {card_id} from {current_pin} to {new_pin}.",
    "I'd like a new PIN for {card_id}: my current one is {current_pin}, make it {new_pin}.",
], reply=[
    "Your PIN for {card_id} is changed.",
    "Done: {card_id} now has the new PIN you chose.",
])
def change_card_pin(ctx: Ctx, card_id: CardId, current_pin: Pin, new_pin: Pin) -> PinChange:
    """Change a card's 4-digit PIN; the customer must give the current PIN.

    Args:
        card_id: ID of the card, such as 'CRD-10002'.
        current_pin: the card's current PIN as the customer gave it, such as '4821'.
        new_pin: the new 4-digit PIN the customer chose, such as '7305'.

    Returns:
        The card ID and the day the PIN was changed.

    Raises:
        not_found: no card has that ID.
        card_inactive: the card was reported lost or stolen.
        wrong_pin: `current_pin` is not the card's PIN.
        invalid_pin: `new_pin` is not 4 digits, is easy to guess (such as '1111' or '1234'),
            or equals the current PIN.
    """
    row = _live_card(ctx, card_id)
    if current_pin != row["pin"]:
        raise ToolError("wrong_pin", "The current PIN is not correct.",
                        hint="Ask the customer to confirm their current PIN.")
    if not re.fullmatch(r"\d{4}", new_pin) or is_weak_pin(new_pin) or new_pin == current_pin:
        raise ToolError("invalid_pin", "The new PIN must be 4 digits, not a repeated digit or a straight "
                        "run like 1234, and different from the current PIN.",
                        hint="Ask the customer to choose another PIN.")
    ctx.db.execute("UPDATE cards SET pin = ?, pin_changed_on = ? WHERE card_id = ?",
                   (new_pin, ctx.today().isoformat(), card_id))
    return PinChange(card_id=card_id, pin_changed_on=ctx.today().isoformat())


@tools.tool(effect=WRITE, asks=[
    "Set a daily spending limit of ${daily_limit} on {card_id}.",
    "Change the daily limit on {card_id}: ${daily_limit} a day.",
    "Let me spend up to ${daily_limit} a day with {card_id}.",
], reply=[
    "{card_id} can now spend up to ${result.daily_spending_limit} a day.",
    "Done: the daily limit of {card_id} is ${result.daily_spending_limit}.",
])
def set_card_spending_limit(ctx: Ctx, card_id: CardId, daily_limit: Money) -> Card:
    """Set how much a card may spend per day.

    A debit card's limit can be at most $5,000; a credit card's at most its account's credit
    limit. A frozen card must be unfrozen first.

    Args:
        card_id: ID of the card, such as 'CRD-10002'.
        daily_limit: the new daily limit in dollars, greater than zero, such as 1500.0.

    Returns:
        The card with its new daily spending limit.

    Raises:
        not_found: no card has that ID.
        card_inactive: the card was reported lost or stolen.
        card_frozen: the card is frozen.
        invalid_amount: the limit has fractions of a cent.
        limit_too_high: the limit is above the card's maximum.
    """
    row = _live_card(ctx, card_id)
    if row["status"] == "frozen":
        raise ToolError("card_frozen", f"{row['name']} is frozen; its limit cannot be changed.",
                        hint="Unfreeze the card first if the customer wants to change its limit.")
    daily_limit = cents(daily_limit, "limit")
    if row["kind"] == "debit":
        ceiling = DEBIT_CARD_MAX_LIMIT
    else:
        (ceiling,) = ctx.db.execute("SELECT credit_limit FROM accounts WHERE account_id = ?",
                                    (row["account_id"],)).fetchone()
    if daily_limit > ceiling:
        raise ToolError("limit_too_high", f"The daily limit of {row['name']} can be at most {ceiling:.2f}.",
                        hint=f"Choose {ceiling:.2f} or less.")
    ctx.db.execute("UPDATE cards SET daily_spending_limit = ? WHERE card_id = ?", (daily_limit, card_id))
    return _card(ctx.get("card", card_id))
