"""Shopping tools for the customer's account: profile, addresses, saved cards, gift cards."""

from __future__ import annotations

import re
import sqlite3
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import luhn_ok, money, quote

from .server import (
    AddressId,
    CardNumber,
    FreeAddressId,
    FreeCardId,
    GiftCardCode,
    PaymentMethodId,
    SecurityCode,
    Text,
    active,
    card_expired,
)

tools = Toolset("account")

Region = Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=40)]
NETWORKS = (("American Express", ("34", "37"), 15), ("Visa", ("4",), 16),
            ("Mastercard", tuple(str(n) for n in range(51, 56)) + ("22", "23", "24", "25", "26", "27"), 16),
            ("Discover", ("6011", "65"), 16))


class Account(BaseModel):
    customer_id: str
    name: str
    email: str
    phone: str
    member_since: str
    store_credit: float
    default_address_id: AddressId | None
    default_payment_method_id: PaymentMethodId | None
    cart_items: int
    wishlist_items: int
    open_orders: int = Field(description="orders placed or shipped but not yet delivered")


class Address(BaseModel):
    address_id: AddressId
    label: str
    recipient: str
    street: str
    city: str
    region: str
    postal_code: str
    country: str
    phone: str | None
    is_default: bool


class AddressList(BaseModel):
    addresses: list[Address]
    total: int
    default_address: str | None = Field(description="the default address in words, such as 'Home (1045 Willow "
                                                    "Drive, Chicago)'")
    other_addresses: str | None = Field(description="the other addresses in words, such as 'Work (200 Hillcrest "
                                                    "Road, New York) and Cabin (12 Lake Road, Ely)'")


class PaymentMethod(BaseModel):
    payment_method_id: PaymentMethodId
    nickname: str
    network: str
    last4: str
    exp_month: int
    exp_year: int
    expired: bool
    cardholder: str
    is_default: bool


class PaymentMethodList(BaseModel):
    payment_methods: list[PaymentMethod]
    total: int
    cards_text: str = Field(description="the cards on one line, the default and the expired ones marked")


class PaymentSecrets(BaseModel):
    payment_method_id: PaymentMethodId
    card_number: str
    security_code: str
    exp_month: int
    exp_year: int


class GiftCard(BaseModel):
    code: str
    amount: float


class GiftCardList(BaseModel):
    gift_cards: list[GiftCard]
    total: int


class Redemption(BaseModel):
    amount: float = Field(description="value added to the store credit")
    store_credit: float = Field(description="the store credit after redeeming")


def _address(row: sqlite3.Row) -> Address:
    return Address(**{k: row[k] for k in Address.model_fields if k != "is_default"}, is_default=bool(row["is_default"]))


def _addresses(ctx: Ctx) -> AddressList:
    rows = ctx.db.execute("SELECT * FROM addresses WHERE status = 'active' "
                          "ORDER BY is_default DESC, address_id").fetchall()
    addresses = [_address(r) for r in rows]

    def said(a: Address) -> str:
        return f"{a.label} ({a.street}, {a.city})"
    default = next((said(a) for a in addresses if a.is_default), None)
    others = [said(a) for a in addresses if not a.is_default]
    return AddressList(addresses=addresses, total=len(rows), default_address=default,
                       other_addresses=", ".join(others[:-1]) + " and " + others[-1] if len(others) > 1
                       else (others[0] if others else None))


def _card(ctx: Ctx, row: sqlite3.Row) -> PaymentMethod:
    return PaymentMethod(payment_method_id=row["payment_method_id"], nickname=row["nickname"], network=row["network"],
                         last4=row["last4"], exp_month=row["exp_month"], exp_year=row["exp_year"],
                         expired=card_expired(row, ctx.today()), cardholder=row["cardholder"],
                         is_default=bool(row["is_default"]))


def _cards(ctx: Ctx) -> PaymentMethodList:
    rows = ctx.db.execute("SELECT * FROM payment_methods WHERE status = 'active' "
                          "ORDER BY is_default DESC, payment_method_id").fetchall()
    cards = [_card(ctx, r) for r in rows]
    parts = [c.nickname + (" (your default)" if c.is_default else "") + (" (expired)" if c.expired else "")
             for c in cards]
    text = ("no saved card" if not parts else parts[0] if len(parts) == 1
            else ", ".join(parts[:-1]) + " and " + parts[-1])
    return PaymentMethodList(payment_methods=cards, total=len(rows), cards_text=text)


@tools.tool(effect=READ, asks=[
    "Show me my account details.",
    "How much store credit do I have?",
    "What email and phone number are on my account?",
], reply=[
    "Your account: {result.name}, {result.email}, {result.phone}; ${result.store_credit} in store credit and "
    "{result.open_orders} orders on the way.",
    "You have ${result.store_credit} in store credit. The account is in {result.name}'s name, with the e-mail "
    "{result.email} and the phone number {result.phone}.",
    "You have ${result.store_credit} in store credit.",
    "The e-mail on your account is {result.email}, and the phone number is {result.phone}.",
])
def get_account(ctx: Ctx) -> Account:
    """Show the signed-in customer's account: contact details, store credit and defaults.

    Returns:
        Name, e-mail, phone, member since, store credit, the default address and card, and how
        many items are in the cart and wishlist and how many orders are on their way.
    """
    c = ctx.db.execute("SELECT * FROM customer").fetchone()
    addr = ctx.db.execute("SELECT address_id FROM addresses WHERE is_default = 1 AND status = 'active'").fetchone()
    card = ctx.db.execute("SELECT payment_method_id FROM payment_methods WHERE is_default = 1 "
                          "AND status = 'active'").fetchone()

    def count(sql: str) -> int:
        return ctx.db.execute(sql).fetchone()[0]

    return Account(customer_id=c["customer_id"], name=c["name"], email=c["email"], phone=c["phone"],
                   member_since=c["member_since"], store_credit=c["store_credit"],
                   default_address_id=addr["address_id"] if addr else None,
                   default_payment_method_id=card["payment_method_id"] if card else None,
                   cart_items=count("SELECT coalesce(sum(quantity), 0) FROM cart_items"),
                   wishlist_items=count("SELECT count(*) FROM wishlist"),
                   open_orders=count("SELECT count(*) FROM orders WHERE status IN ('placed', 'shipped')"))


@tools.tool(effect=READ, asks=[
    "What addresses do I have saved?",
    "Where can you ship my order? Show my saved addresses.",
    "Which of my addresses is the default one?",
], reply=[
    "{result.default_address} is your default address; you also have {result.other_addresses}.",
    Ask("You have one saved address, {result.default_address}, and it's your default.", **{"result.total": 1}),
])
def list_addresses(ctx: Ctx) -> AddressList:
    """List the customer's saved shipping addresses, the default first.

    Returns:
        The addresses with label, recipient, street, city, region, postal code and phone.
    """
    return _addresses(ctx)


@tools.tool(effect=WRITE, asks=[
    "Save a new address called '{label}': {recipient}, {street}, {city}, {region} {postal_code}.",
    Ask("Add my '{label}' address for {recipient} at {street}, {city}, {region} {postal_code}, and make it my "
        "default.", make_default=True),
    "New shipping address, label it '{label}': {recipient}, {street}, {city}, {region} {postal_code}, "
    "phone {phone}.",
], reply=[
    "Saved your '{result.label}' address: {result.street}, {result.city}, {result.region} {result.postal_code}.",
    "Done: your '{result.label}' address is saved.",
    Ask("Saved your '{result.label}' address ({result.street}, {result.city}, {result.region} {result.postal_code}) "
        "and made it your default.", make_default=True),
    Ask("Done: your '{result.label}' address is saved and is your default now.", make_default=True),
], values={
    "label": ["Home", "Office", "Cabin", "Mom's place", "Studio", "Beach house", "Work", "Parents"],
    "recipient": ["Maya Chen", "Jordan Reyes", "Sam Patel", "Alex Morgan", "Priya Nair", "Chris Walker"],
    "street": ["742 Maple Avenue, Apt 3", "18 Harbor Street", "1200 Pine Road, Floor 4", "55 Elm Court",
               "9 Lakeview Drive", "310 Market Street, Suite 200"],
    # a city with its state and one of its ZIP codes
    "city, region, postal_code": [("Portland", "OR", "97205"), ("Seattle", "WA", "98101"), ("Austin", "TX", "78701"),
                                  ("Denver", "CO", "80202"), ("Chicago", "IL", "60601"), ("Boston", "MA", "02108")],
})
def add_address(ctx: Ctx, label: Text, recipient: Text, street: Text, city: Text, region: Region,
                postal_code: str, phone: Annotated[str, Field(max_length=30)] | None = None,
                make_default: bool = False) -> Address:
    """Save a new US shipping address.

    Args:
        label: a unique name for it, such as 'Cabin' or 'Office'.
        recipient: who receives the parcel, such as 'Maya Chen'.
        street: street and number, with apartment or floor, such as '742 Maple Avenue, Apt 3'.
        city: the city, such as 'Portland'.
        region: the state, such as 'OR'.
        postal_code: the 5-digit ZIP code (or ZIP+4), such as '97205'.
        phone: optional phone for the courier, such as '+1-503-555-0142'.
        make_default: make it the default shipping address (default false).

    Returns:
        The saved address.

    Raises:
        duplicate_label: an address already has that label.
        invalid_postal_code: the ZIP code is not 5 digits (or ZIP+4).
    """
    if ctx.db.execute("SELECT 1 FROM addresses WHERE label = ? COLLATE NOCASE AND status = 'active'",
                      (label,)).fetchone():
        raise ToolError("duplicate_label", f"An address labelled {quote(label)} already exists.",
                        hint="Choose another label.")
    zip_code = postal_code.strip()
    if not re.fullmatch(r"\d{5}(-\d{4})?", zip_code):
        raise ToolError("invalid_postal_code", f"{quote(postal_code)} is not a US ZIP code.",
                        hint="Use 5 digits, such as '97205', or ZIP+4, such as '97205-1234'.")
    if make_default:
        ctx.db.execute("UPDATE addresses SET is_default = 0 WHERE is_default = 1")
    aid = ctx.new_id("ADDR")
    ctx.db.execute("INSERT INTO addresses (address_id, label, recipient, street, city, region, postal_code, country, "
                   "phone, is_default, status) VALUES (?, ?, ?, ?, ?, ?, ?, 'US', ?, ?, 'active')",
                   (aid, label, recipient, street, city, region, zip_code, (phone or "").strip() or None,
                    int(make_default)))
    return _address(ctx.get("address", aid))


@tools.tool(effect=WRITE, asks=[
    "Delete {address_id} from my saved addresses.",
    "Remove {address_id} from my account; I don't use it anymore.",
    "Please get rid of {address_id}; I don't ship there anymore.",
], reply=[
    "Removed {address_id}; {result.total} addresses are still saved on your account.",
    "Done: {address_id} is deleted from your account.",
])
def delete_address(ctx: Ctx, address_id: FreeAddressId) -> AddressList:
    """Delete a saved address; past orders keep showing it.

    If it was the default, the oldest other address becomes the default.

    Args:
        address_id: the address, such as 'ADDR-10002'.

    Returns:
        The remaining addresses.

    Raises:
        not_found: no address has that ID (or it was already deleted).
        address_in_use: an order on its way (placed or shipped) is going to this address.
    """
    row = active(ctx, "address", address_id)
    busy = ctx.db.execute("SELECT order_id FROM orders WHERE address_id = ? AND status IN ('placed', 'shipped') "
                          "ORDER BY order_id", (address_id,)).fetchone()
    if busy is not None:
        raise ToolError("address_in_use", f"Order {busy['order_id']} is on its way to {row['label']}.",
                        hint="Delete the address after the order is delivered.")
    ctx.db.execute("UPDATE addresses SET status = 'deleted', is_default = 0 WHERE address_id = ?", (address_id,))
    if row["is_default"]:
        ctx.db.execute("UPDATE addresses SET is_default = 1 WHERE address_id = (SELECT address_id FROM addresses "
                       "WHERE status = 'active' ORDER BY address_id LIMIT 1)")
    return _addresses(ctx)


@tools.tool(effect=READ, asks=[
    "Which cards do I have saved?",
    "Show my payment methods and whether any have expired.",
    "What's my default card?",
], reply=[
    "Your saved cards: {result.cards_text}.",
    "You have {result.cards_text} on file.",
])
def list_payment_methods(ctx: Ctx) -> PaymentMethodList:
    """List the customer's saved cards, the default first (full numbers are never shown).

    Returns:
        The cards with network, last four digits, expiry, whether expired and cardholder.
    """
    return _cards(ctx)


@tools.tool(effect=WRITE, asks=[
    "Add my card {card_number}, expiring {exp_month}/{exp_year}, security code {security_code}, name on card "
    "{cardholder}.",
    Ask("Save a new card, name on card {cardholder}: number {card_number}, exp {exp_month}/{exp_year}, CVV "
        "{security_code}, and make it my default.", make_default=True),
    "Here's a card to keep on file: {card_number}, {exp_month}/{exp_year}, code {security_code}, {cardholder}.",
], reply=[
    Ask("Saved the {result.network} ending {result.last4} to your account.", make_default=False),
    Ask("Your {result.network} card ending {result.last4} is on file now.", make_default=False),
    Ask("Saved the {result.network} ending {result.last4}; it's your default card now.", make_default=True),
])
def add_payment_method(ctx: Ctx, card_number: CardNumber, exp_month: Annotated[int, Field(ge=1, le=12)],
                       exp_year: Annotated[int, Field(ge=2000, le=2100)], security_code: SecurityCode,
                       cardholder: Text, make_default: bool = False) -> PaymentMethod:
    """Save a new credit or debit card (Visa, Mastercard, American Express or Discover).

    Args:
        card_number: the full card number, spaces allowed, such as '4111 1111 1111 1111'.
        exp_month: expiry month, 1 to 12, such as 8.
        exp_year: expiry year, such as 2029.
        security_code: the 3-digit code on the back (4 digits on the front for American Express), such as '123'.
        cardholder: the name on the card, such as 'Maya Chen'.
        make_default: make it the default card (default false).

    Returns:
        The saved card (only its last four digits).

    Raises:
        invalid_card_number: the number is not a valid Visa, Mastercard, American Express or Discover number.
        invalid_security_code: the security code has the wrong number of digits.
        card_expired: the expiry date has passed.
        duplicate_card: the card is already saved.
    """
    number = re.sub(r"[\s-]", "", card_number)
    network = next((name for name, prefixes, length in NETWORKS
                    if number.isdigit() and len(number) == length and number.startswith(prefixes)), None)
    if network is None or not luhn_ok(number):
        raise ToolError("invalid_card_number", "That is not a valid card number.",
                        hint="Check the digits; Visa, Mastercard, American Express and Discover are accepted.")
    digits = 4 if network == "American Express" else 3
    code = security_code.strip()
    if not (code.isdigit() and len(code) == digits):
        raise ToolError("invalid_security_code", f"A {network} security code has {digits} digits.")
    today = ctx.today()
    if (exp_year, exp_month) < (today.year, today.month):
        raise ToolError("card_expired", f"The card expired at the end of {exp_month:02d}/{exp_year}.",
                        hint="Use a card that has not expired.")
    if ctx.db.execute("SELECT 1 FROM payment_methods WHERE card_number = ? AND status = 'active'",
                      (number,)).fetchone():
        raise ToolError("duplicate_card", f"The {network} ending {number[-4:]} is already saved.")
    if make_default:
        ctx.db.execute("UPDATE payment_methods SET is_default = 0 WHERE is_default = 1")
    (zip_code,) = ctx.db.execute("SELECT coalesce((SELECT postal_code FROM addresses WHERE is_default = 1 "
                                 "AND status = 'active'), '')").fetchone()
    pid = ctx.new_id("PM")
    ctx.db.execute("INSERT INTO payment_methods (payment_method_id, nickname, network, card_number, last4, exp_month, "
                   "exp_year, cardholder, security_code, billing_zip, is_default, status, added_on) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?)",
                   (pid, f"{network} ending {number[-4:]}", network, number, number[-4:], exp_month, exp_year,
                    cardholder.upper(), code, zip_code, int(make_default), today.isoformat()))
    return _card(ctx, ctx.get("payment_method", pid))


@tools.tool(effect=WRITE, asks=[
    "Remove {payment_method_id} from my account.",
    Ask("Delete {payment_method_id}, it's expired.",  # (only a card whose month has passed)
        fits={"payment_method_id": "exp_year * 100 + exp_month < CAST(strftime('%Y%m', :today) AS INTEGER)"}),
    "Take {payment_method_id} off my saved cards; I don't use it anymore.",
], reply=[
    "Removed {payment_method_id}; {result.total} cards are still saved on your account.",
    "Done: {payment_method_id} is no longer saved.",
])
def remove_payment_method(ctx: Ctx, payment_method_id: FreeCardId) -> PaymentMethodList:
    """Remove a saved card. If it was the default, the next saved card becomes the default.

    Args:
        payment_method_id: the card, such as 'PM-10003'.

    Returns:
        The remaining saved cards.

    Raises:
        not_found: no card has that ID (or it was already removed).
        payment_method_in_use: an order that has not shipped yet will be charged to it.
    """
    row = active(ctx, "payment_method", payment_method_id)
    busy = ctx.db.execute("SELECT order_id FROM orders WHERE payment_method_id = ? AND status = 'placed' "
                          "ORDER BY order_id", (payment_method_id,)).fetchone()
    if busy is not None:
        raise ToolError("payment_method_in_use", f"Order {busy['order_id']} has not shipped yet and will be "
                        f"charged to {row['nickname']}.", hint="Remove the card after the order ships.")
    ctx.db.execute("UPDATE payment_methods SET status = 'removed', is_default = 0 WHERE payment_method_id = ?",
                   (payment_method_id,))
    if row["is_default"]:
        ctx.db.execute("UPDATE payment_methods SET is_default = 1 WHERE payment_method_id = "
                       "(SELECT payment_method_id FROM payment_methods WHERE status = 'active' "
                       "ORDER BY payment_method_id LIMIT 1)")
    return _cards(ctx)


@tools.tool(effect=WRITE, asks=[
    "Redeem my gift card {code}.",
    "Add my new gift card to my balance; the code is {code}.",
    "Put gift card {code} on my account, please.",
], reply=[
    "Redeemed: ${result.amount} was added, so your store credit is now ${result.store_credit}.",
    "The gift card added ${result.amount}; you have ${result.store_credit} in store credit.",
])
def redeem_gift_card(ctx: Ctx, code: GiftCardCode) -> Redemption:
    """Redeem a gift card: its full value becomes store credit, usable at checkout.

    Args:
        code: the gift card's code, such as 'ABCD-EFGH-JKLM-NPQR' (case-insensitive).

    Returns:
        The amount added and the new store credit.

    Raises:
        invalid_gift_card: no gift card has that code.
        already_redeemed: the gift card was already redeemed.
    """
    card = ctx.db.execute("SELECT * FROM gift_cards WHERE code = ?", (code.strip().upper(),)).fetchone()
    if card is None:
        raise ToolError("invalid_gift_card", "That gift card code is not valid.",
                        hint="Check the code on the card; it has four groups of four characters.")
    if card["redeemed_on"]:
        raise ToolError("already_redeemed", f"This gift card was already redeemed on {card['redeemed_on']}.")
    ctx.db.execute("UPDATE gift_cards SET redeemed_on = ? WHERE code = ?", (ctx.today().isoformat(), card["code"]))
    ctx.db.execute("UPDATE customer SET store_credit = round(store_credit + ?, 2)", (card["amount"],))
    (credit,) = ctx.db.execute("SELECT store_credit FROM customer").fetchone()
    return Redemption(amount=money(card["amount"]), store_credit=money(credit))


# ----- hidden helpers: secrets the customer knows, for the synthesis pipeline ------------------------

@tools.tool(effect=READ, hidden=True)
def get_payment_secrets(ctx: Ctx, payment_method_id: PaymentMethodId) -> PaymentSecrets:
    """Read a saved card's full number and security code, which only the customer knows.

    Args:
        payment_method_id: the card, such as 'PM-10001'.

    Returns:
        The card number, security code and expiry.

    Raises:
        not_found: no card has that ID.
    """
    row = ctx.get("payment_method", payment_method_id)
    return PaymentSecrets(payment_method_id=payment_method_id, card_number=row["card_number"],
                          security_code=row["security_code"], exp_month=row["exp_month"], exp_year=row["exp_year"])


@tools.tool(effect=READ, hidden=True)
def list_gift_cards(ctx: Ctx) -> GiftCardList:
    """List the gift cards the customer holds and has not redeemed yet, with their codes.

    Returns:
        The unredeemed gift cards' codes and values.
    """
    rows = ctx.db.execute("SELECT code, amount FROM gift_cards WHERE redeemed_on IS NULL ORDER BY code").fetchall()
    return GiftCardList(gift_cards=[GiftCard(code=r["code"], amount=r["amount"]) for r in rows], total=len(rows))
