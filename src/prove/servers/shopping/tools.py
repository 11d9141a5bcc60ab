"""The shopping server: an online store and the account of one signed-in customer.

This module holds `server`, the ID types, the shared models and helpers. The tools live in one
module per area, imported at the bottom so that they register on `server`:

    tools_catalog.py    products, search, categories, brands, reviews, wishlist
    tools_cart.py       cart, coupons, checkout
    tools_orders.py     orders, cancellation, returns
    tools_account.py    profile, addresses, saved cards, gift cards
"""

from __future__ import annotations

import re
import sqlite3
from datetime import date, datetime
from pathlib import Path
from typing import Annotated

from pydantic import Field, StringConstraints

from prove.env import Ctx, Entity, EntityKind, Sensitive, Server, ToolError
from prove.env.values import quote

from .world import build_world

def on_advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """As the clock moves on, orders ship and arrive and returns are refunded (tools_orders.move_on)."""
    from .tools_orders import move_on

    move_on(ctx, new)


server = Server(
    "shopping", "Online store",
    "An online store and the account of one signed-in customer: a product catalogue with "
    "categories, brands, variants (sizes, colours, formats), prices, stock and reviews; search "
    "with filters; a cart with stock checks and coupons; checkout to a saved address and card; "
    "orders that move from placed to shipped to delivered, cancellation before shipping, returns "
    "within 30 days of delivery; a wishlist, saved addresses and cards, gift cards and store credit.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    on_advance=on_advance,
    entities=[
        EntityKind("product", table="products", key="product_id", label="name",
                   description="a product in the catalogue", live="status = 'active'"),
        EntityKind("variant", table="variants", key="variant_id", label="name",
                   description="one size, colour or format of a product, with its own price and stock",
                   live="stock > 0"),
        EntityKind("category", table="categories", key="category_id", label="name",
                   description="a catalogue category such as Electronics"),
        EntityKind("brand", table="brands", key="brand_id", label="name", description="a brand"),
        EntityKind("review", table="reviews", key="review_id", label="title", description="a product review"),
        EntityKind("coupon", table="coupons", key="code", label="description",
                   description="a coupon code of the customer's account", live="used_on IS NULL"),
        EntityKind("address", table="addresses", key="address_id", label="label",
                   description="a saved shipping address of the customer", live="status = 'active'"),
        EntityKind("payment_method", table="payment_methods", key="payment_method_id", label="nickname",
                   description="a saved card of the customer", live="status = 'active'"),
        EntityKind("order", table="orders", key="order_id", label="summary", description="an order"),
        EntityKind("order_item", table="order_items", key="order_item_id", label="product_name",
                   description="one line of an order"),
        EntityKind("return", table="returns", key="return_id", label="product_name",
                   description="a return of an order line"),
    ],
)

# ----- parameter and field types ----------------------------------------------------------------

ProductId = Annotated[str, Entity("product")]
VariantId = Annotated[str, Entity("variant")]
CategoryId = Annotated[str, Entity("category")]
BrandId = Annotated[str, Entity("brand")]
ReviewId = Annotated[str, Entity("review")]
CouponCode = Annotated[str, Entity("coupon")]
AddressId = Annotated[str, Entity("address")]
PaymentMethodId = Annotated[str, Entity("payment_method")]
OrderId = Annotated[str, Entity("order")]
OrderItemId = Annotated[str, Entity("order_item")]
ReturnId = Annotated[str, Entity("return")]
SecurityCode = Annotated[str, Sensitive()]
CardNumber = Annotated[str, Sensitive()]
GiftCardCode = Annotated[str, Sensitive()]

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
LongText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)]
Limit = Annotated[int, Field(ge=1, le=50)]
Price = Annotated[float, Field(ge=0, le=100_000)]

# Most units of one variant a cart or order may hold.
MAX_PER_LINE = 10
RETURN_WINDOW_DAYS = 30
STANDARD_FEE = 5.99
EXPRESS_FEE = 14.99
FREE_SHIPPING_FROM = 35.0

_LISTED_BY = {
    "product": "search_products", "variant": "get_product", "category": "list_categories", "brand": "list_brands",
    "review": "list_reviews", "coupon": "list_coupons", "address": "list_addresses",
    "payment_method": "list_payment_methods", "order": "list_orders", "order_item": "get_order",
    "return": "list_returns",
}


# ----- helpers ------------------------------------------------------------------------------------

def fetch(ctx: Ctx, kind: str, entity_id: str) -> sqlite3.Row:
    """The row of entity `kind` with this ID, or a `not_found` error naming the list tool."""
    spec = server.entities[kind]
    row = ctx.db.execute(f'SELECT * FROM "{spec.table}" WHERE "{spec.key}" = ?', (entity_id,)).fetchone()
    if row is None:
        what = kind.replace("_", " ")
        raise ToolError("not_found", f"No {what} has ID {quote(entity_id)}.",
                        hint=f"Call {_LISTED_BY[kind]} to see the IDs that exist.")
    return row


def active(ctx: Ctx, kind: str, entity_id: str) -> sqlite3.Row:
    """Like `fetch`, for a saved address or card: one the customer removed is `not_found` too."""
    row = fetch(ctx, kind, entity_id)
    if row["status"] != "active":
        what = kind.replace("_", " ")
        raise ToolError("not_found", f"The {what} {quote(entity_id)} was removed from the account.",
                        hint=f"Call {_LISTED_BY[kind]} to see the saved ones.")
    return row


def card_expired(row: sqlite3.Row, today: date) -> bool:
    """A card is valid through the last day of its expiry month."""
    return (row["exp_year"], row["exp_month"]) < (today.year, today.month)


def like(text: str) -> str:
    """A LIKE pattern matching `text` anywhere, with wildcards escaped (use ESCAPE '\\')."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def words(query: str) -> list[str]:
    return [w for w in re.split(r"\s+", query.strip().lower()) if w][:8]


from . import tools_account, tools_cart, tools_catalog, tools_orders  # noqa: E402,F401  (registers their tools)
