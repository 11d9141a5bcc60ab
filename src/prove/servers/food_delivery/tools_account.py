"""The customer's account: profile and credit, saved addresses, saved cards and gift cards."""

from __future__ import annotations

import re
import sqlite3
from datetime import date
from typing import Annotated

from pydantic import BaseModel

from prove.env import READ, WRITE, Ask, Ctx, Sensitive, ToolError, Toolset
from prove.env.values import luhn_ok, quote

from .server import (
    Account,
    Address,
    AddressId,
    AddressList,
    DeletedAddress,
    GiftCardRedemption,
    Label,
    OtherAddressId,
    PaymentMethod,
    PaymentMethodId,
    PaymentMethodList,
    ShortText,
    Street,
    address_row,
    card_expired,
    customer,
    money,
    order_status,
    payment_row,
)
from .world import MAX_ADDRESSES

tools = Toolset("account")

CardNumber = Annotated[str, Sensitive()]
Cvv = Annotated[str, Sensitive()]
GiftCode = Annotated[str, Sensitive()]


def _address(row: sqlite3.Row, default_id: str | None) -> Address:
    return Address(address_id=row["address_id"], label=row["label"], street=row["street"], apartment=row["apartment"],
                   neighborhood=row["neighborhood"], city=row["city"], zip=row["zip"], instructions=row["instructions"],
                   is_default=row["address_id"] == default_id)


def _card(row: sqlite3.Row, ctx: Ctx) -> PaymentMethod:
    return PaymentMethod(payment_method_id=row["payment_method_id"], nickname=row["nickname"], brand=row["brand"],
                         last4=row["last4"], expiry=f"{row['exp_month']:02d}/{row['exp_year']}",
                         expired=card_expired(row, ctx.today()),
                         is_default=row["payment_method_id"] == customer(ctx)["default_payment_method_id"])


@tools.tool(effect=READ, asks=[
    "How much credit do I have on my account?",
    "Show me my account details.",
    "How many orders have I placed?",
], reply=[
    # The details, and each question its own answer.
    "You have ${result.credit_balance} of credit and {result.order_count} orders so far; the account is "
    "{result.name}'s ({result.email}, {result.phone}), a member since {result.member_since}.",
    "You have ${result.credit_balance} of credit on your account.",
    "You've placed {result.order_count} orders.",
])
def get_account(ctx: Ctx) -> Account:
    """Show the signed-in customer's profile, account credit, defaults, order count and favorites.

    Returns:
        Name, email, phone, city, member since, account credit balance in dollars, the default
        address and card IDs, how many orders they placed and their favorite restaurants' IDs.
    """
    me = customer(ctx)
    count = ctx.db.execute("SELECT count(*) FROM orders").fetchone()[0]
    favorites = [r[0] for r in ctx.db.execute("SELECT restaurant_id FROM favorites ORDER BY added_at, restaurant_id")]
    return Account(name=me["name"], email=me["email"], phone=me["phone"], city=me["city"],
                   member_since=me["member_since"], credit_balance=me["credit_balance"],
                   default_address_id=me["default_address_id"],
                   default_payment_method_id=me["default_payment_method_id"], order_count=count,
                   favorite_restaurants=favorites)


@tools.tool(effect=READ, asks=[
    "What addresses do I have saved?",
    "Which of my addresses is the default for delivery?",
], reply=[
    "Your saved addresses: {result.addresses_text}.",
    "You have {result.total} saved addresses: {result.addresses_text}.",
    "{result.default_address} is your default for delivery; you also have {result.other_addresses}.",
])
def list_addresses(ctx: Ctx) -> AddressList:
    """List the customer's saved delivery addresses and the neighborhoods of their city.

    Returns:
        The saved addresses with label, street, apartment, neighborhood, zip, courier
        instructions and which one is the default, and the city's neighborhoods.
    """
    default_id = customer(ctx)["default_address_id"]
    rows = ctx.db.execute("SELECT a.*, n.city, n.zip FROM addresses a JOIN neighborhoods n ON n.name = a.neighborhood "
                          "WHERE a.deleted = 0 ORDER BY a.created_at, a.address_id").fetchall()
    hoods = [r[0] for r in ctx.db.execute("SELECT name FROM neighborhoods ORDER BY name")]
    addresses = [_address(r, default_id) for r in rows]
    named = [f"{a.label} ({a.street}, {a.neighborhood}{'; your default' if a.is_default else ''})" for a in addresses]
    others = [f"{a.label} ({a.street}, {a.neighborhood})" for a in addresses if not a.is_default]
    return AddressList(addresses=addresses, total=len(rows), neighborhoods=hoods, addresses_text=_and(named) or "none",
                       default_address=next((f"{a.label} ({a.street}, {a.neighborhood})" for a in addresses
                                             if a.is_default), None),
                       other_addresses=_and(others) or None)


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1] if words else ""


@tools.tool(effect=WRITE, asks=[
    "Save a new address called '{label}': {street}, in {neighborhood}.",
    Ask("Add {street} ({neighborhood}) as my '{label}' address and make it the default.", make_default=True),
    "Add my '{label}' address: {street}, {apartment}, in {neighborhood}.",
    "Save '{label}' at {street} in {neighborhood}; the courier should know: {instructions}",
], reply=[
    "Saved '{result.label}': {result.street}, {result.neighborhood}.",
    "Your '{result.label}' address is saved.",
    Ask("Saved '{result.label}': {result.street}, {result.neighborhood}; it's your default for delivery now.",
        make_default=True),
], values={
    "label": ["Home", "Work", "Gym", "Mom's place", "Studio", "Office", "Partner's place", "Weekend"],
    "street": ["742 Maple Avenue", "18 Harbor Street", "1200 Pine Road", "55 Elm Court", "9 Lakeview Drive",
               "310 Market Street"],
    "apartment": ["Apt 3B", "Unit 12", "Floor 4", "Suite 200", "Apt 7", "Room 501"],
    "instructions": ["Leave it at the door.", "Ring the bell twice.", "Call when you arrive.",
                     "Hand it to the front desk.", "Gate code is 4321."],
})
def add_address(ctx: Ctx, label: Label, street: Street, neighborhood: Label, apartment: ShortText | None = None,
                instructions: ShortText | None = None, make_default: bool = False) -> Address:
    """Save a delivery address in the customer's city.

    Args:
        label: the name to file it under, such as 'Gym' or "Dad's place"; unique among saved addresses.
        street: street number and name, such as '1450 Maple Avenue'.
        neighborhood: the neighborhood it lies in, one of the city's (list_addresses shows them), such as 'Kerns'.
        apartment: apartment, suite or floor, such as 'Apt 5C'.
        instructions: a note for couriers, such as 'ring the bell twice'.
        make_default: make it the default delivery address.

    Returns:
        The saved address with its ID and whether it is the default.

    Raises:
        unknown_neighborhood: the neighborhood is not one of the customer's city.
        duplicate_label: another saved address already has that label.
        address_limit_reached: 8 addresses are saved already.
    """
    hood = ctx.db.execute("SELECT * FROM neighborhoods WHERE lower(name) = lower(?)", (neighborhood,)).fetchone()
    if hood is None:
        names = ", ".join(r[0] for r in ctx.db.execute("SELECT name FROM neighborhoods ORDER BY name"))
        raise ToolError("unknown_neighborhood", f"{quote(neighborhood)} is not a neighborhood of "
                        f"{customer(ctx)['city']}.", hint=f"Use one of: {names}.")
    if ctx.db.execute("SELECT 1 FROM addresses WHERE deleted = 0 AND lower(label) = lower(?)", (label,)).fetchone():
        raise ToolError("duplicate_label", f"You already have an address called {quote(label)}.",
                        hint="Pick another label, or delete the old address first.")
    if ctx.db.execute("SELECT count(*) FROM addresses WHERE deleted = 0").fetchone()[0] >= MAX_ADDRESSES:
        raise ToolError("address_limit_reached", f"At most {MAX_ADDRESSES} addresses can be saved.",
                        hint="Delete one you no longer use with delete_address.")
    address_id = ctx.new_id("ADR")
    ctx.db.execute("INSERT INTO addresses (address_id, label, street, apartment, neighborhood, instructions, deleted, "
                   "created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                   (address_id, label, street, apartment or None, hood["name"], instructions or None, ctx.now_iso()))
    if make_default:
        ctx.db.execute("UPDATE customers SET default_address_id = ?", (address_id,))
    return _address(address_row(ctx, address_id), customer(ctx)["default_address_id"])


@tools.tool(effect=WRITE, asks=[
    "Make {address_id} my default address.",
    "Deliver to {address_id} by default from now on.",
], reply=[
    "{address_id} is your default delivery address now.",
    "Done: orders go to {address_id} unless you say otherwise.",
])
def set_default_address(ctx: Ctx, address_id: AddressId) -> Address:
    """Make a saved address the default for deliveries and delivery quotes.

    Args:
        address_id: ID of the saved address, such as 'ADR-10002'.

    Returns:
        The address, now the default.

    Raises:
        not_found: the address does not exist.
    """
    row = address_row(ctx, address_id)
    ctx.db.execute("UPDATE customers SET default_address_id = ?", (address_id,))
    return _address(row, address_id)


@tools.tool(effect=WRITE, asks=[
    "Delete {address_id} from my saved addresses.",
    "Remove {address_id}; I don't order there anymore.",
], reply=[
    "Deleted {address_id}.",
    "{address_id} is no longer one of your saved addresses.",
])
def delete_address(ctx: Ctx, address_id: OtherAddressId) -> DeletedAddress:
    """Delete a saved address (past orders keep showing it).

    Args:
        address_id: ID of the saved address, such as 'ADR-10003'.

    Returns:
        The deleted address's ID and label.

    Raises:
        not_found: the address does not exist.
        default_address: it is the default address; make another one the default first.
        address_in_use: an order on its way or scheduled is going there.
    """
    row = address_row(ctx, address_id)
    if customer(ctx)["default_address_id"] == address_id:
        raise ToolError("default_address", f"'{row['label']}' is your default address.",
                        hint="Make another address the default with set_default_address first.")
    for order in ctx.db.execute("SELECT * FROM orders WHERE address_id = ? AND cancelled_at IS NULL", (address_id,)):
        if order_status(order, ctx.now()) != "delivered":
            raise ToolError("address_in_use", f"Order {order['order_id']} is going to '{row['label']}' and has not "
                            "arrived yet.", hint="Wait until it is delivered, or cancel it first.")
    ctx.db.execute("UPDATE addresses SET deleted = 1 WHERE address_id = ?", (address_id,))
    return DeletedAddress(address_id=address_id, label=row["label"], deleted=True)


@tools.tool(effect=READ, asks=[
    "Which cards do I have saved?",
    "Is any of my saved cards expired?",
], reply=[
    "Your saved cards: {result.cards_text}.",
])
def list_payment_methods(ctx: Ctx) -> PaymentMethodList:
    """List the cards saved to the account.

    Returns:
        The cards with brand, last four digits, expiry, whether expired and which is the default.
    """
    rows = ctx.db.execute("SELECT * FROM payment_methods ORDER BY added_at, payment_method_id").fetchall()
    cards = [_card(r, ctx) for r in rows]
    return PaymentMethodList(payment_methods=cards, total=len(rows), cards_text=_cards_text(cards))


def _cards_text(cards: list[PaymentMethod]) -> str:
    """'Visa ending 1005 (your default, expires August 2028) and American Express ending 3041 (expired in
    January 2026)'."""
    def one(c: PaymentMethod) -> str:
        month = f"{date(int(c.expiry[3:]), int(c.expiry[:2]), 1):%B %Y}"
        notes = ["your default"] if c.is_default else []
        notes.append(f"expired in {month}" if c.expired else f"expires {month}")
        return f"{c.brand} ending {c.last4} ({', '.join(notes)})"
    said = [one(c) for c in cards]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1] if said else "no saved cards"


_BRANDS = ((r"^4", "Visa"), (r"^(5[1-5]|2[2-7])", "Mastercard"), (r"^3[47]", "American Express"),
           (r"^(6011|65)", "Discover"))


@tools.tool(effect=WRITE, asks=[
    "Add my card {card_number}, expiring {expiry}, security code {cvv}.",
    "Save a new card: number {card_number}, exp {expiry}, CVV {cvv}, and call it '{nickname}'.",
    Ask("Add card {card_number} ({expiry}, CVV {cvv}) and make it my default.", make_default=True),
], reply=[
    Ask("Saved the {result.brand} ending {result.last4}.", make_default=False),
    Ask("Your {result.brand} card ending {result.last4} is on file now.", make_default=False),
    Ask("Saved the {result.brand} ending {result.last4}; it's your default card now.", make_default=True),
], values={"nickname": ["Work card", "Personal Visa", "Travel card", "Groceries", "Joint account",
                        "Backup card"]})
def add_payment_card(ctx: Ctx, card_number: CardNumber, expiry: str, cvv: Cvv, nickname: Label | None = None,
                     make_default: bool = False) -> PaymentMethod:
    """Save a credit or debit card to the account; only its brand, last four digits and expiry are kept.

    Args:
        card_number: the full card number, spaces or dashes allowed, such as '4111 1111 1111 1111'.
        expiry: expiry month and year as 'MM/YY' or 'MM/YYYY', such as '06/29'.
        cvv: the 3-digit security code (4 digits for American Express), such as '123'.
        nickname: a name for it, such as 'Work Visa'; default: brand and last four digits.
        make_default: make it the default card for orders.

    Returns:
        The saved card with its ID, brand, last four digits, expiry and whether it is the default.

    Raises:
        invalid_card: the number, expiry or security code is malformed, or the number fails its checksum.
        card_expired: the expiry date has passed.
        duplicate_card: the same card is already saved.
    """
    number = re.sub(r"[ -]", "", card_number)
    if not number.isascii() or not number.isdigit() or not 13 <= len(number) <= 19 or not luhn_ok(number):
        raise ToolError("invalid_card", "That card number is not valid.", hint="Check the digits and try again.")
    brand = next((name for pattern, name in _BRANDS if re.match(pattern, number)), None)
    if brand is None:
        raise ToolError("invalid_card", "Only Visa, Mastercard, American Express and Discover cards are accepted.")
    match = re.fullmatch(r"\s*(\d{1,2})\s*/\s*(\d{2}|\d{4})\s*", expiry)
    if match is None or not 1 <= int(match.group(1)) <= 12:
        raise ToolError("invalid_card", f"Expiry {quote(expiry)} is not a month and year.", hint="Use 'MM/YY', such as '06/29'.")
    month, year = int(match.group(1)), int(match.group(2))
    year = year + 2000 if year < 100 else year
    want = 4 if brand == "American Express" else 3
    if not (cvv.isascii() and cvv.isdigit() and len(cvv) == want):
        raise ToolError("invalid_card", f"The security code of a {brand} card has {want} digits.")
    today = ctx.today()
    if (year, month) < (today.year, today.month):
        raise ToolError("card_expired", f"The card expired at the end of {month:02d}/{year}.",
                        hint="Use a card that is still valid.")
    last4 = number[-4:]
    if ctx.db.execute("SELECT 1 FROM payment_methods WHERE brand = ? AND last4 = ? AND exp_month = ? AND exp_year = ?",
                      (brand, last4, month, year)).fetchone():
        raise ToolError("duplicate_card", f"Your {brand} ending {last4} is already saved.")
    pm_id = ctx.new_id("PM")
    ctx.db.execute("INSERT INTO payment_methods (payment_method_id, nickname, brand, last4, exp_month, exp_year, "
                   "added_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (pm_id, nickname or f"{brand} ending {last4}", brand, last4, month, year, ctx.now_iso()))
    if make_default:
        ctx.db.execute("UPDATE customers SET default_payment_method_id = ?", (pm_id,))
    return _card(payment_row(ctx, pm_id), ctx)


@tools.tool(effect=WRITE, asks=[
    "Make {payment_method_id} my default card.",
    "Charge {payment_method_id} by default from now on.",
], reply=[
    "{payment_method_id} is your default card now.",
    "Done: orders will be charged to {payment_method_id}.",
])
def set_default_payment_method(ctx: Ctx, payment_method_id: PaymentMethodId) -> PaymentMethod:
    """Make a saved card the default for orders.

    Args:
        payment_method_id: ID of the saved card, such as 'PM-10002'.

    Returns:
        The card, now the default.

    Raises:
        not_found: the card does not exist.
        payment_method_expired: the card has expired.
    """
    row = payment_row(ctx, payment_method_id)
    if card_expired(row, ctx.today()):
        raise ToolError("payment_method_expired", f"{row['nickname']} expired at the end of "
                        f"{row['exp_month']:02d}/{row['exp_year']}.", hint="Add a new card with add_payment_card.")
    ctx.db.execute("UPDATE customers SET default_payment_method_id = ?", (payment_method_id,))
    return _card(row, ctx)


@tools.tool(effect=WRITE, asks=[
    "Redeem my gift card {code}.",
    "Add my new gift card to my account; the code is {code}.",
], reply=[
    "Redeemed ${result.amount} from {result.from_name}; your credit is now ${result.credit_balance}.",
    "The gift card added ${result.amount}, so you have ${result.credit_balance} in credit.",
])
def redeem_gift_card(ctx: Ctx, code: GiftCode) -> GiftCardRedemption:
    """Redeem a gift card: its amount becomes account credit, which pays for orders first.

    Args:
        code: the gift card code, such as 'AB12-CD34-EF56' (case-insensitive).

    Returns:
        The gift card's amount, who sent it, their message and the new credit balance.

    Raises:
        gift_card_invalid: no gift card has that code.
        gift_card_already_redeemed: the gift card was redeemed before.
    """
    row = ctx.db.execute("SELECT * FROM gift_cards WHERE code = ?", (code.strip().upper(),)).fetchone()
    if row is None:
        raise ToolError("gift_card_invalid", "No gift card has that code.", hint="Check the code and try again.")
    if row["redeemed_at"] is not None:
        raise ToolError("gift_card_already_redeemed", f"That gift card was redeemed on {row['redeemed_at'][:10]}.")
    ctx.db.execute("UPDATE gift_cards SET redeemed_at = ? WHERE gift_card_id = ?", (ctx.now_iso(), row["gift_card_id"]))
    balance = money(customer(ctx)["credit_balance"] + row["amount"])
    ctx.db.execute("UPDATE customers SET credit_balance = ?", (balance,))
    return GiftCardRedemption(gift_card_id=row["gift_card_id"], amount=row["amount"], from_name=row["from_name"],
                              message=row["message"], credit_balance=balance)


class GiftCardSecret(BaseModel):
    code: GiftCode
    amount: float
    from_name: str
    redeemed: bool


class WalletCard(BaseModel):
    card_number: CardNumber
    brand: str
    expiry: str
    cvv: Cvv
    holder: str


class Secrets(BaseModel):
    gift_cards: list[GiftCardSecret]
    wallet_cards: list[WalletCard]


@tools.tool(effect=READ, hidden=True)
def get_user_secrets(ctx: Ctx) -> Secrets:
    """What the customer knows but the app does not show: gift card codes and cards not yet saved.

    For the synthesis pipeline, which puts these values in a user turn.

    Returns:
        The gift card codes the customer received (redeemed or not) and the full details of the
        cards in their wallet that are not saved to the account.
    """
    gifts = [GiftCardSecret(code=r["code"], amount=r["amount"], from_name=r["from_name"],
                            redeemed=r["redeemed_at"] is not None)
             for r in ctx.db.execute("SELECT * FROM gift_cards ORDER BY gift_card_id")]
    cards = [WalletCard(**dict(r)) for r in ctx.db.execute("SELECT * FROM wallet_cards ORDER BY card_number")]
    return Secrets(gift_cards=gifts, wallet_cards=cards)
