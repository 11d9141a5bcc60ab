"""The food delivery server: the one `server`, its entity types, result models and shared rules.

The tools live by area in toolsets, `tools_<area>.py` (account, cart, orders, restaurants); each
imports what it needs from here, and the package includes them.

Rules every tool follows:

- The model acts for the one signed-in customer (the single row of `customers`). Their default
  address and card are used when a tool is not given one.
- A restaurant is open when the simulated clock falls inside its hours for that weekday. It
  delivers only to the neighborhoods of its delivery zones, each with its own fee and travel time.
- An order's status follows from its timestamps and the clock: 'placed' (or 'scheduled') until
  the kitchen starts, then 'preparing', 'out_for_delivery' and 'delivered'; or 'cancelled'.
  Only a 'placed' or 'scheduled' order can be cancelled.
- A promo code is used once: an order that is not cancelled uses it up.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import iso, quote

from .world import (
    CUISINES,
    MAX_LINE_QUANTITY,
    SERVICE_FEE_MAX,
    SERVICE_FEE_MIN,
    SERVICE_FEE_RATE,
    build_world,
)

RESTAURANT = EntityKind("restaurant", table="restaurants", key="restaurant_id", label="name",
                        description="a restaurant on the app, with its menu, hours and delivery zones", naming="alone")
MENU_ITEM = EntityKind("menu_item", table="menu_items", key="item_id", label="name",
                       description="a dish or drink on a restaurant's menu", lister="get_menu", noun="dish", naming="article")
CART_ITEM = EntityKind("cart_item", table="cart_items", key="cart_item_id", label="name",
                       description="one line of the customer's cart at a restaurant", lister="view_cart", naming="article")
ORDER = EntityKind("order", table="orders", key="order_id", label="restaurant_name",
                   description="an order the customer placed, past or in progress", public_id=True)
ADDRESS = EntityKind("address", table="addresses", key="address_id", label="label",
                     description="a saved delivery address of the customer", live="deleted = 0")
PAYMENT_METHOD = EntityKind("payment_method", table="payment_methods", key="payment_method_id", label="nickname",
                            description="a card saved to the customer's account", noun="card")
PROMO = EntityKind("promo", table="promo_codes", key="code", label="description",
                   description="a promo code that takes money off an order", noun="promo code",
                   public_id=True)
REVIEW = EntityKind("review", table="reviews", key="review_id", label=None,
                    description="the customer's rating of a delivered order", noun="rating")
GIFT_CARD = EntityKind("gift_card", table="gift_cards", key="gift_card_id", label="from_name",
                       description="a gift card the customer received")

server = Server(
    "food_delivery", "Food delivery",
    "A food delivery app for one signed-in customer in a US city: restaurants with cuisines, "
    "menus, prices, opening hours, delivery zones and minimum orders; a cart per restaurant, "
    "promo codes and gift cards; orders that move from placed to preparing, out for delivery and "
    "delivered on the simulated clock, with cancellation, tips, ratings and reorders; saved "
    "addresses, cards and favorite restaurants.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[RESTAURANT, MENU_ITEM, CART_ITEM, ORDER, ADDRESS, PAYMENT_METHOD, PROMO, REVIEW, GIFT_CARD],
)

# ----- parameter types ---------------------------------------------------------------------------

RestaurantId = RESTAURANT.id
ItemId = MENU_ITEM.id
CartItemId = CART_ITEM.id
OrderId = ORDER.id
AddressId = ADDRESS.id
PaymentMethodId = PAYMENT_METHOD.id
PromoCode = PROMO.id
ReviewId = REVIEW.id
GiftCardId = GIFT_CARD.id

# Subsets of a kind for tools that act on only some of its rows (the sampler offers only those): an
# address that is not the default, and a scheduled order not yet cancelled (the cancellable ones).
OtherAddressId = ADDRESS.where("address_id NOT IN (SELECT default_address_id FROM customers)")
ScheduledOrderId = ORDER.where("scheduled_for IS NOT NULL AND cancelled_at IS NULL")
# A cart line that was in the cart before the conversation: nobody adds a dish and then changes
# how many they want of it in the same breath.
EarlierCartItemId = CART_ITEM.where("added_at < :now")
# A restaurant where the customer has a cart with something in it ("what's in my cart at ...?").
CartRestaurantId = RESTAURANT.where("restaurant_id IN (SELECT c.restaurant_id FROM carts c "
                                    "JOIN cart_items i ON i.cart_id = c.cart_id)")
# A restaurant where the customer's cart carries a promo code ("take the code off my cart at ...").
PromoCartRestaurantId = RESTAURANT.where("restaurant_id IN (SELECT c.restaurant_id FROM carts c "
                                         "JOIN cart_items i ON i.cart_id = c.cart_id WHERE c.promo_code IS NOT NULL)")

Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Label = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
Street = Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=120)]
ShortText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)]
Comment = Annotated[str, StringConstraints(strip_whitespace=True, max_length=1000)]
Limit = Annotated[int, Field(ge=1, le=100)]
Money = Annotated[float, Field(ge=0, le=10_000)]
Tip = Annotated[float, Field(ge=0, le=200)]
Stars = Annotated[int, Field(ge=1, le=5)]
Cuisine = Literal["Pizza", "Italian", "Japanese", "Chinese", "Thai", "Indian", "Mexican", "Burgers",
                  "Mediterranean", "Korean", "Vietnamese", "Breakfast", "Salads", "Bakery"]
Dietary = Literal["vegetarian", "vegan", "gluten_free"]
OrderStatus = Literal["scheduled", "placed", "preparing", "out_for_delivery", "delivered", "cancelled"]

assert set(Cuisine.__args__) == set(CUISINES), "the Cuisine literal lists every cuisine of the world"

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# ----- result models -----------------------------------------------------------------------------


class RestaurantSummary(BaseModel):
    restaurant_id: RestaurantId
    name: str
    cuisine: str
    neighborhood: str
    price_level: str
    rating: float = Field(description="average food rating, 1 to 5 stars")
    rating_count: int
    open_now: bool
    hours_today: str = Field(description="today's opening hours, such as '11:00-22:00', or 'closed'")
    delivers: bool = Field(description="whether it delivers to the address asked about (default: your default address)")
    delivery_fee: float | None = Field(description="delivery fee to that address; null if it does not deliver there")
    estimated_minutes: int | None = Field(description="kitchen plus travel time to that address")
    minimum_order: float
    is_favorite: bool


class RestaurantList(BaseModel):
    restaurants: list[RestaurantSummary]
    total: int = Field(description="how many restaurants matched, before `limit`")
    restaurants_text: str = Field(description="the restaurants in words, such as 'Tsuru Sushi (Japanese, Hawthorne): "
                                              "rated 4.6 from 1,674 ratings, open until 11 PM, $2.99 delivery in about "
                                              "35 minutes'")


class OpeningHours(BaseModel):
    day: str
    opens: str | None
    closes: str | None


class Zone(BaseModel):
    neighborhood: str
    delivery_fee: float
    delivery_minutes: int


class Restaurant(RestaurantSummary):
    description: str
    street_address: str
    phone: str
    prep_minutes: int
    next_opening: str | None = Field(description="when it next opens, if it is closed now (local time)")
    hours: list[OpeningHours]
    delivery_zones: list[Zone]
    open_status: str = Field(description="whether it is open now and until when, or when it opens next, in words")
    hours_text: str = Field(description="the week's opening hours on one line, such as 'Monday to Friday "
                                        "11 AM-10 PM, closed Sunday'")
    delivery_quote: str = Field(description="whether it delivers to the address asked about, for what fee and "
                                            "how fast, in words")


class MenuItem(BaseModel):
    item_id: ItemId
    name: str
    category: str
    description: str
    price: float
    vegetarian: bool
    vegan: bool
    gluten_free: bool
    spicy: bool
    popular: bool
    available: bool = Field(description="false while sold out")


class Menu(BaseModel):
    restaurant_id: RestaurantId
    restaurant_name: str
    categories: list[str]
    items: list[MenuItem]
    total: int
    dishes_text: str = Field(description="The matching dishes in words, such as '2 dishes: Pho Tai ($15.00) and "
                                         "Iced Coffee ($5.50, sold out)'.")


class Dish(BaseModel):
    """A menu item with its restaurant, named right after the dish (two places may sell one dish)."""
    item_id: ItemId
    name: str
    restaurant_id: RestaurantId
    restaurant_name: str
    category: str
    description: str
    price: float
    vegetarian: bool
    vegan: bool
    gluten_free: bool
    spicy: bool
    popular: bool
    available: bool = Field(description="false while sold out")
    open_now: bool


class DishList(BaseModel):
    dishes: list[Dish]
    total: int = Field(description="how many dishes matched, before `limit`")
    dishes_text: str = Field(description="the dishes in words, cheapest first, such as 'Country Sourdough Loaf at "
                                         "Okafor's Bakery ($10.50)'")


class CartLine(BaseModel):
    cart_item_id: CartItemId
    item_id: ItemId
    name: str
    quantity: int
    unit_price: float
    line_total: float
    special_instructions: str | None
    available: bool


class Cart(BaseModel):
    restaurant_id: RestaurantId
    restaurant_name: str
    items: list[CartLine]
    item_count: int
    subtotal: float
    minimum_order: float
    meets_minimum: bool
    promo_code: PromoCode | None
    discount: float
    promo_problem: str | None = Field(description="why the applied promo code would not work right now, if so")
    address_id: AddressId | None = Field(description="the address the fees are estimated for")
    delivers: bool
    delivery_fee: float | None
    service_fee: float
    tax: float
    estimated_total: float = Field(description="what the order would cost before a tip")
    items_text: str = Field(description="the cart's dishes in words, such as '2 × Pho Tai and Iced Coffee'")
    notes: str = Field(description="whether the subtotal meets the minimum order, and whether the restaurant "
                                   "delivers to the address, in words")


class CartSummary(BaseModel):
    restaurant_id: RestaurantId
    restaurant_name: str
    item_count: int
    subtotal: float
    promo_code: PromoCode | None
    updated_at: str


class CartList(BaseModel):
    carts: list[CartSummary]
    total: int
    carts_text: str = Field(description="the carts in words, such as 'Sakura Sushi: 3 items, $25.50 so far, with "
                                        "promo code FREEDEL'")


class ClearedCart(BaseModel):
    restaurant_id: RestaurantId
    restaurant_name: str
    removed_items: int


class Promotion(BaseModel):
    code: PromoCode
    summary: str = Field(description="what it gives, in words, such as 'Free delivery on orders of $15 or more'")
    valid_until: str
    min_subtotal: float
    max_discount: float | None
    used: bool = Field(description="you already used it on an order that was not cancelled")
    kind: Literal["percent", "amount", "free_delivery"]
    value: float
    restaurant_id: RestaurantId | None
    cuisine: str | None


class PromotionList(BaseModel):
    promotions: list[Promotion]
    total: int
    promotions_text: str = Field(description="the codes in words, such as '2 promo codes: FREEDEL for free delivery "
                                             "on orders of $15 or more, until April 10; and ...'")


class OrderLine(BaseModel):
    item_id: ItemId
    name: str
    quantity: int
    unit_price: float
    special_instructions: str | None


class Order(BaseModel):
    order_id: OrderId
    restaurant_id: RestaurantId
    restaurant_name: str
    status: OrderStatus
    placed_at: str
    scheduled_for: str | None
    estimated_delivery: str = Field(description="when it arrives (arrived, once delivered)")
    cancelled_at: str | None
    cancel_reason: str | None
    items: list[OrderLine]
    subtotal: float
    promo_code: PromoCode | None
    discount: float
    delivery_fee: float
    service_fee: float
    tax: float
    tip: float
    total: float
    credit_applied: float
    charged: float = Field(description="charged to the card")
    refunded: float
    address_id: AddressId
    address_label: str
    payment_method_id: PaymentMethodId | None
    courier_name: str | None = Field(description="the courier, once the order is out for delivery")
    can_cancel: bool
    review_id: ReviewId | None
    status_text: str = Field(description="where the order stands, in words, such as 'was delivered March 15 at "
                                         "8:32 PM' or 'is on its way with Sam K., arriving around 9:40 AM'")
    ordered_items: str = Field(description="what was ordered, in words, such as 'Pho Ga and 2 × Spring Rolls'")
    total_paid: str = Field(description="what the order cost and what came back, in words, such as '$22.67' or "
                                        "'$22.67, refunded in full when the order was cancelled'")


class OrderSummary(BaseModel):
    order_id: OrderId
    restaurant_id: RestaurantId
    restaurant_name: str
    status: OrderStatus
    placed_at: str
    estimated_delivery: str
    item_count: int
    total: float
    rated: bool


class OrderList(BaseModel):
    orders: list[OrderSummary]
    total: int = Field(description="how many orders matched, before `limit`")
    orders_text: str = Field(description="the first orders in words, such as '2 orders: ORD-10036 from Gangnam BBQ "
                                         "($73.39), delivered on March 15 at 8:02 PM; ...'")


class Cancellation(BaseModel):
    order_id: OrderId
    status: Literal["cancelled"]
    refunded_to_card: float
    refunded_to_credit: float
    credit_balance: float


class TipChange(BaseModel):
    order_id: OrderId
    previous_tip: float
    tip: float
    total: float
    charged: float


class Review(BaseModel):
    review_id: ReviewId
    order_id: OrderId
    restaurant_id: RestaurantId
    food_rating: int
    delivery_rating: int | None
    comment: str | None
    restaurant_rating: float = Field(description="the restaurant's new average rating")
    restaurant_rating_count: int


class Reorder(BaseModel):
    cart: Cart
    added: list[str] = Field(description="names of the dishes added to the cart")
    skipped: list[str] = Field(description="dishes left out because they are sold out")


class Favorite(BaseModel):
    restaurant_id: RestaurantId
    name: str
    is_favorite: bool


class Address(BaseModel):
    address_id: AddressId
    label: str
    street: str
    apartment: str | None
    neighborhood: str
    city: str
    zip: str
    instructions: str | None
    is_default: bool


class AddressList(BaseModel):
    addresses: list[Address]
    total: int
    neighborhoods: list[str] = Field(description="the neighborhoods of your city an address may lie in")
    addresses_text: str = Field(description="the addresses in words, the default marked, such as 'Home (12 Oak "
                                            "Street, Kerns; your default) and Work (300 Main Street, Pearl)'")
    default_address: str | None = Field(description="the default address in words, such as 'Home (12 Oak Street, "
                                                    "Kerns)'")
    other_addresses: str | None = Field(description="the other addresses in words, such as 'Work (300 Main Street, "
                                                    "Pearl)'")


class DeletedAddress(BaseModel):
    address_id: AddressId
    label: str
    deleted: bool


class PaymentMethod(BaseModel):
    payment_method_id: PaymentMethodId
    nickname: str
    brand: str
    last4: str
    expiry: str = Field(description="'MM/YYYY'")
    expired: bool
    is_default: bool


class PaymentMethodList(BaseModel):
    payment_methods: list[PaymentMethod]
    total: int
    cards_text: str = Field(description="the cards in words, such as 'Visa ending 1005 (your default, expires "
                                        "August 2028) and American Express ending 3041 (expired in January 2026)'")


class Account(BaseModel):
    name: str
    email: str
    phone: str
    city: str
    member_since: str
    credit_balance: float
    default_address_id: AddressId | None
    default_payment_method_id: PaymentMethodId | None
    order_count: int
    favorite_restaurants: list[RestaurantId]


class GiftCardRedemption(BaseModel):
    gift_card_id: GiftCardId
    amount: float
    from_name: str
    message: str | None
    credit_balance: float


# ----- the customer ------------------------------------------------------------------------------

def customer(ctx: Ctx) -> sqlite3.Row:
    return ctx.db.execute("SELECT * FROM customers").fetchone()


def money(x: float) -> float:
    return round(x + 1e-9, 2)


# ----- restaurants -------------------------------------------------------------------------------

def hours_on(ctx: Ctx, restaurant_id: str, day: date) -> tuple[str, str] | None:
    row = ctx.db.execute("SELECT opens, closes FROM restaurant_hours WHERE restaurant_id = ? AND weekday = ?",
                         (restaurant_id, day.weekday())).fetchone()
    return (row["opens"], row["closes"]) if row else None


def is_open(ctx: Ctx, restaurant_id: str, at: datetime) -> bool:
    hours = hours_on(ctx, restaurant_id, at.date())
    return hours is not None and hours[0] <= at.strftime("%H:%M") < hours[1]


def next_opening(ctx: Ctx, restaurant_id: str, after: datetime) -> str | None:
    """The next time at or after `after` the restaurant is open (a week ahead at most)."""
    for days in range(8):
        day = after.date() + timedelta(days=days)
        hours = hours_on(ctx, restaurant_id, day)
        if hours is None:
            continue
        opens = datetime.fromisoformat(f"{day.isoformat()}T{hours[0]}:00")
        if days == 0 and after.strftime("%H:%M") >= hours[1]:
            continue
        return iso(max(opens, after.replace(second=0, microsecond=0)))
    return None


def hours_text(ctx: Ctx, restaurant_id: str, day: date) -> str:
    hours = hours_on(ctx, restaurant_id, day)
    return f"{hours[0]}-{hours[1]}" if hours else "closed"


def zone_for(ctx: Ctx, restaurant_id: str, neighborhood: str) -> sqlite3.Row | None:
    return ctx.db.execute("SELECT * FROM delivery_zones WHERE restaurant_id = ? AND neighborhood = ?",
                          (restaurant_id, neighborhood)).fetchone()


def rating_of(row: sqlite3.Row) -> float:
    return round(row["rating_total"] / row["rating_count"], 1) if row["rating_count"] else 0.0


def is_favorite(ctx: Ctx, restaurant_id: str) -> bool:
    return ctx.db.execute("SELECT 1 FROM favorites WHERE restaurant_id = ?", (restaurant_id,)).fetchone() is not None


def restaurant_summary(ctx: Ctx, row: sqlite3.Row, address: sqlite3.Row) -> RestaurantSummary:
    zone = zone_for(ctx, row["restaurant_id"], address["neighborhood"])
    return RestaurantSummary(
        restaurant_id=row["restaurant_id"], name=row["name"], cuisine=row["cuisine"],
        neighborhood=row["neighborhood"], price_level=row["price_level"], rating=rating_of(row),
        rating_count=row["rating_count"], open_now=is_open(ctx, row["restaurant_id"], ctx.now()),
        hours_today=hours_text(ctx, row["restaurant_id"], ctx.today()), delivers=zone is not None,
        delivery_fee=zone["delivery_fee"] if zone else None,
        estimated_minutes=row["prep_minutes"] + zone["delivery_minutes"] if zone else None,
        minimum_order=row["minimum_order"], is_favorite=is_favorite(ctx, row["restaurant_id"]))


def menu_item(row: sqlite3.Row) -> MenuItem:
    return MenuItem(item_id=row["item_id"], name=row["name"], category=row["category"],
                    description=row["description"], price=row["price"], vegetarian=bool(row["vegetarian"]),
                    vegan=bool(row["vegan"]), gluten_free=bool(row["gluten_free"]), spicy=bool(row["spicy"]),
                    popular=bool(row["popular"]), available=bool(row["available"]))


# ----- addresses and cards -----------------------------------------------------------------------

def address_row(ctx: Ctx, address_id: str | None) -> sqlite3.Row:
    """A saved address with its city and ZIP (`ctx.get`; a deleted one is not found), or the default one."""
    if address_id is None:
        address_id = customer(ctx)["default_address_id"]
    if ctx.get("address", address_id)["deleted"]:
        raise ToolError("not_found", f"No saved address has ID {quote(str(address_id))}.",
                        hint="See your addresses with list_addresses.")
    return ctx.db.execute("SELECT a.*, n.city, n.zip FROM addresses a JOIN neighborhoods n ON n.name = a.neighborhood "
                          "WHERE a.address_id = ?", (address_id,)).fetchone()


def payment_row(ctx: Ctx, payment_method_id: str | None) -> sqlite3.Row:
    """A saved card (`ctx.get`), or the default one when `payment_method_id` is None."""
    return ctx.get("payment_method", payment_method_id or customer(ctx)["default_payment_method_id"])


def card_expired(row: sqlite3.Row, today: date) -> bool:
    """A card works through the last day of its expiry month."""
    return (row["exp_year"], row["exp_month"]) < (today.year, today.month)


# ----- promo codes -------------------------------------------------------------------------------

def promo_row(ctx: Ctx, code: str) -> sqlite3.Row:
    row = ctx.db.execute("SELECT * FROM promo_codes WHERE code = ?", (code.strip().upper(),)).fetchone()
    if row is None:
        raise ToolError("promo_invalid", f"{quote(code)} is not a valid promo code.",
                        hint="Check the spelling, or see current offers with list_promotions.")
    return row


def promo_used(ctx: Ctx, code: str) -> bool:
    return ctx.db.execute("SELECT 1 FROM orders WHERE promo_code = ? AND cancelled_at IS NULL",
                          (code,)).fetchone() is not None


def promo_error(ctx: Ctx, promo: sqlite3.Row, restaurant: sqlite3.Row, subtotal: float) -> ToolError | None:
    """Why `promo` cannot be used on an order of `subtotal` at `restaurant` now, or None."""
    today = ctx.today().isoformat()
    code = promo["code"]
    if not promo["valid_from"] <= today <= promo["valid_until"]:
        return ToolError("promo_expired", f"{code} is valid from {promo['valid_from']} to {promo['valid_until']}; "
                         f"today is {today}.", hint="See current offers with list_promotions.")
    if promo["restaurant_id"] is not None and promo["restaurant_id"] != restaurant["restaurant_id"]:
        other = ctx.db.execute("SELECT name FROM restaurants WHERE restaurant_id = ?",
                               (promo["restaurant_id"],)).fetchone()
        return ToolError("promo_not_applicable", f"{code} only works at {other['name']} ({promo['restaurant_id']}), "
                         f"not at {restaurant['name']}.")
    if promo["cuisine"] is not None and promo["cuisine"] != restaurant["cuisine"]:
        return ToolError("promo_not_applicable", f"{code} only works on {promo['cuisine']} food; "
                         f"{restaurant['name']} serves {restaurant['cuisine']}.")
    if promo_used(ctx, code):
        return ToolError("promo_already_used", f"You already used {code} on an earlier order; each code works once.")
    if subtotal < promo["min_subtotal"]:
        return ToolError("promo_minimum_not_met", f"{code} needs a food subtotal of at least "
                         f"${promo['min_subtotal']:.2f}; the cart has ${subtotal:.2f}.",
                         hint="Add more to the cart, or remove the code with remove_promo_code.")
    return None


def discount_of(promo: sqlite3.Row, subtotal: float, delivery_fee: float) -> float:
    if promo["kind"] == "percent":
        off = subtotal * promo["value"] / 100
        if promo["max_discount"] is not None:
            off = min(off, promo["max_discount"])
    elif promo["kind"] == "amount":
        off = min(promo["value"], subtotal)
    else:
        off = delivery_fee
    return money(off)


# ----- the cart, shared with the order tools ---------------------------------------------------

def cart_row(ctx: Ctx, restaurant_id: str) -> sqlite3.Row | None:
    return ctx.db.execute("SELECT * FROM carts WHERE restaurant_id = ?", (restaurant_id,)).fetchone()


def cart_lines(ctx: Ctx, cart_id: str) -> list[sqlite3.Row]:
    return ctx.db.execute(
        "SELECT ci.*, m.price, m.available FROM cart_items ci JOIN menu_items m ON m.item_id = ci.item_id "
        "WHERE ci.cart_id = ? ORDER BY ci.added_at, ci.cart_item_id", (cart_id,)).fetchall()


def service_fee(subtotal: float) -> float:
    if subtotal <= 0:
        return 0.0
    return money(min(max(subtotal * SERVICE_FEE_RATE, SERVICE_FEE_MIN), SERVICE_FEE_MAX))


def cart_model(ctx: Ctx, restaurant_id: str, address_id: str | None = None) -> Cart:
    """The cart at a restaurant (empty if there is none) priced for an address (default: the default one)."""
    rest = ctx.get("restaurant", restaurant_id)
    address = address_row(ctx, address_id)
    cart = cart_row(ctx, restaurant_id)
    rows = cart_lines(ctx, cart["cart_id"]) if cart else []
    lines = [CartLine(cart_item_id=r["cart_item_id"], item_id=r["item_id"], name=r["name"], quantity=r["quantity"],
                      unit_price=r["price"], line_total=money(r["price"] * r["quantity"]),
                      special_instructions=r["special_instructions"], available=bool(r["available"]))
             for r in rows]
    subtotal = money(sum(line.line_total for line in lines))
    zone = zone_for(ctx, restaurant_id, address["neighborhood"])
    fee = zone["delivery_fee"] if zone else None
    discount, problem, code = 0.0, None, cart["promo_code"] if cart else None
    if code is not None:
        promo = ctx.db.execute("SELECT * FROM promo_codes WHERE code = ?", (code,)).fetchone()
        err = promo_error(ctx, promo, rest, subtotal)
        if err is None:
            discount = discount_of(promo, subtotal, fee or 0.0)
        else:
            problem = err.message
    food_discount = 0.0 if code and problem is None and promo["kind"] == "free_delivery" else discount
    tax = money((subtotal - food_discount) * customer(ctx)["tax_rate"] / 100)
    service = service_fee(subtotal)
    total = money(subtotal - discount + (fee or 0.0) + service + tax) if lines else 0.0
    return Cart(restaurant_id=restaurant_id, restaurant_name=rest["name"], items=lines,
                item_count=sum(line.quantity for line in lines), subtotal=subtotal,
                minimum_order=rest["minimum_order"], meets_minimum=subtotal >= rest["minimum_order"],
                promo_code=code, discount=discount, promo_problem=problem, address_id=address["address_id"],
                delivers=zone is not None, delivery_fee=fee, service_fee=service if lines else 0.0,
                tax=tax if lines else 0.0, estimated_total=total, items_text=_items_text(lines),
                notes=_notes(subtotal, rest, address, zone is not None))


def _items_text(lines: list[CartLine]) -> str:
    """'2 × Pho Tai and Iced Coffee', or 'nothing yet'."""
    named = [line.name if line.quantity == 1 else f"{line.quantity} × {line.name}" for line in lines]
    if not named:
        return "nothing yet"
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def _notes(subtotal: float, rest: sqlite3.Row, address: sqlite3.Row, delivers: bool) -> str:
    """'it meets the $15.00 minimum order', '... and Lotus Thai doesn't deliver to Work (Kerns)'."""
    minimum = rest["minimum_order"]
    note = (f"it meets the ${minimum:,.2f} minimum order" if subtotal >= minimum
            else f"it's ${minimum - subtotal:,.2f} short of the ${minimum:,.2f} minimum order")
    if not delivers:
        note += f", and {rest['name']} doesn't deliver to {address['label']} ({address['neighborhood']})"
    return note
    return f"${minimum - subtotal:,.2f} short of the ${minimum:,.2f} minimum order"


def touch_cart(ctx: Ctx, restaurant_id: str) -> str:
    """The cart ID at a restaurant, creating the cart if needed, marked as updated now."""
    cart = cart_row(ctx, restaurant_id)
    if cart is None:
        cart_id = ctx.new_id("CRT")
        ctx.db.execute("INSERT INTO carts (cart_id, restaurant_id, promo_code, created_at, updated_at) "
                       "VALUES (?, ?, NULL, ?, ?)", (cart_id, restaurant_id, ctx.now_iso(), ctx.now_iso()))
        return cart_id
    ctx.db.execute("UPDATE carts SET updated_at = ? WHERE cart_id = ?", (ctx.now_iso(), cart["cart_id"]))
    return cart["cart_id"]


def drop_cart_if_empty(ctx: Ctx, cart_id: str) -> None:
    if ctx.db.execute("SELECT 1 FROM cart_items WHERE cart_id = ?", (cart_id,)).fetchone() is None:
        ctx.db.execute("DELETE FROM carts WHERE cart_id = ?", (cart_id,))


def add_line(ctx: Ctx, cart_id: str, item: sqlite3.Row, quantity: int, instructions: str | None) -> None:
    """Add `quantity` of a menu item to a cart, merging with a line of the same dish and instructions."""
    same = ctx.db.execute(
        "SELECT * FROM cart_items WHERE cart_id = ? AND item_id = ? AND special_instructions IS ?",
        (cart_id, item["item_id"], instructions)).fetchone()
    have = same["quantity"] if same else 0
    if have + quantity > MAX_LINE_QUANTITY:
        raise ToolError("quantity_limit", f"At most 20 of one dish fit on a cart line; the cart already has "
                        f"{have} x {item['name']}.", hint="Use a smaller quantity.")
    if same:
        ctx.db.execute("UPDATE cart_items SET quantity = ? WHERE cart_item_id = ?",
                       (have + quantity, same["cart_item_id"]))
    else:
        ctx.db.execute("INSERT INTO cart_items (cart_item_id, cart_id, item_id, name, quantity, "
                       "special_instructions, added_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (ctx.new_id("CI"), cart_id, item["item_id"], item["name"], quantity, instructions,
                        ctx.now_iso()))


# ----- orders ------------------------------------------------------------------------------------

def order_status(row: sqlite3.Row, now: datetime) -> str:
    if row["cancelled_at"] is not None:
        return "cancelled"
    t = iso(now)
    if t < row["prep_start_at"]:
        return "scheduled" if row["scheduled_for"] else "placed"
    if t < row["ready_at"]:
        return "preparing"
    if t < row["delivered_at"]:
        return "out_for_delivery"
    return "delivered"
