"""The shopping server's declaration: an online store and the account of one signed-in customer.

This module holds `server`, its entity kinds and ID types, the shared models and helpers. The
tools live in one toolset per area, which the package includes:

    tools_account.py    profile, addresses, saved cards, gift cards
    tools_orders.py     orders, cancellation, returns
    tools_cart.py       cart, coupons, checkout
    tools_catalog.py    products, search, categories, brands, reviews, wishlist
"""

from __future__ import annotations

import re
import sqlite3
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Sensitive, Server, ToolError
from prove.env.values import iso, quote, spoken_day

from .world import build_world

PRODUCT = EntityKind("product", table="products", key="product_id", label="name",
                     description="a product in the catalogue", live="status = 'active'", naming="article")
VARIANT = EntityKind("variant", table="variants", key="variant_id", label="name",
                     description="one size, colour or format of a product, with its own price and stock",
                     live="stock > 0", lister="get_product", part_of="product_id")
CATEGORY = EntityKind("category", table="categories", key="category_id", label="name",
                      description="a catalogue category such as Electronics")
BRAND = EntityKind("brand", table="brands", key="brand_id", label="name", description="a brand", naming="alone")
REVIEW = EntityKind("review", table="reviews", key="review_id", label="title", description="a product review",
                    lister="list_reviews")
COUPON = EntityKind("coupon", table="coupons", key="code", label="description",
                    description="a coupon code of the customer's account", live="used_on IS NULL",
                    public_id=True)
ADDRESS = EntityKind("address", table="addresses", key="address_id", label="label",
                     description="a saved shipping address of the customer", live="status = 'active'")
PAYMENT_METHOD = EntityKind("payment_method", table="payment_methods", key="payment_method_id", label="nickname",
                            description="a saved card of the customer", live="status = 'active'",
                            noun="card")
ORDER = EntityKind("order", table="orders", key="order_id", label="summary", description="an order",
                   public_id=True)
ORDER_ITEM = EntityKind("order_item", table="order_items", key="order_item_id", label="product_name",
                        description="one line of an order", lister="get_order", noun="item")
RETURN = EntityKind("return", table="returns", key="return_id", label="product_name",
                    description="a return of an order line", public_id=True)

server = Server(
    "shopping", "Online store",
    "An online store and the account of one signed-in customer: a product catalogue with "
    "categories, brands, variants (sizes, colours, formats), prices, stock and reviews; search "
    "with filters; a cart with stock checks and coupons; checkout to a saved address and card; "
    "orders that move from placed to shipped to delivered, cancellation before shipping, returns "
    "within 30 days of delivery; a wishlist, saved addresses and cards, gift cards and store credit.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[PRODUCT, VARIANT, CATEGORY, BRAND, REVIEW, COUPON, ADDRESS, PAYMENT_METHOD, ORDER, ORDER_ITEM,
              RETURN],
)

# ----- parameter and field types ----------------------------------------------------------------

ProductId = PRODUCT.id
VariantId = VARIANT.id
CategoryId = CATEGORY.id
BrandId = BRAND.id
ReviewId = REVIEW.id
CouponCode = COUPON.id
AddressId = ADDRESS.id
PaymentMethodId = PAYMENT_METHOD.id
OrderId = ORDER.id
OrderItemId = ORDER_ITEM.id
ReturnId = RETURN.id
# Subsets of a kind for tools that act on only some of its rows (the sampler offers only those).
PlacedOrderId = ORDER.where("status = 'placed'")
OpenReturnId = RETURN.where("status = 'requested'")
DeliveredItemId = ORDER_ITEM.where("order_id IN (SELECT order_id FROM orders WHERE status = 'delivered')")
CartVariantId = VARIANT.where("variant_id IN (SELECT variant_id FROM cart_items)")
FreeAddressId = ADDRESS.where("address_id NOT IN (SELECT address_id FROM orders "
                              "WHERE status IN ('placed', 'shipped'))")
FreeCardId = PAYMENT_METHOD.where("payment_method_id NOT IN (SELECT payment_method_id FROM orders "
                                  "WHERE status = 'placed')")
WishedProductId = PRODUCT.where("product_id IN (SELECT product_id FROM wishlist)")
BoughtProductId = PRODUCT.where("product_id IN (SELECT i.product_id FROM order_items i JOIN orders o "
                                "ON o.order_id = i.order_id WHERE o.status = 'delivered') "
                                "AND product_id NOT IN (SELECT product_id FROM reviews WHERE is_mine = 1)")
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

CARRIERS = ("UPS", "FedEx", "USPS")


# ----- helpers ------------------------------------------------------------------------------------

def active(ctx: Ctx, kind: str, entity_id: str) -> sqlite3.Row:
    """`ctx.get` for a saved address or card: one the customer removed is `not_found` too."""
    row = ctx.get(kind, entity_id)
    if row["status"] != "active":
        what = kind.replace("_", " ")
        raise ToolError("not_found", f"The {what} {quote(entity_id)} was removed from the account.",
                        hint=f"Call {server.lister(kind)} to see the saved ones.")
    return row


def card_expired(row: sqlite3.Row, today: date) -> bool:
    """A card is valid through the last day of its expiry month."""
    return (row["exp_year"], row["exp_month"]) < (today.year, today.month)


def words(query: str) -> list[str]:
    return [w for w in re.split(r"\s+", query.strip().lower()) if w][:8]


# ----- orders, shared by checkout, the order tools and the clock -------------------------------------

Status = Literal["placed", "shipped", "delivered", "cancelled"]
ReturnReason = Literal["doesn't fit", "changed my mind", "defective", "not as described", "arrived damaged",
                       "arrived too late"]


class OrderItem(BaseModel):
    order_item_id: OrderItemId
    product_id: ProductId
    variant_id: VariantId
    product_name: str
    variant_name: str
    unit_price: float
    quantity: int
    returned_quantity: int = Field(description="units already returned or with a return in progress")
    returnable: bool = Field(description="false for final-sale products")
    return_by: str | None = Field(description="last day a return can be requested (30 days after delivery)")


class Return(BaseModel):
    return_id: ReturnId
    order_id: OrderId
    order_item_id: OrderItemId
    product_name: str
    quantity: int
    reason: str
    status: Literal["requested", "refunded", "cancelled"]
    refund_amount: float
    requested_at: str
    resolved_at: str | None


class Order(BaseModel):
    order_id: OrderId
    placed_at: str
    status: Status
    summary: str
    items: list[OrderItem]
    address_id: AddressId
    ship_to: str = Field(description="the shipping address on one line")
    payment_method_id: PaymentMethodId
    payment: str = Field(description="the card charged, such as 'Visa ending 4242'")
    shipping_speed: Literal["standard", "express"]
    subtotal: float
    discount: float
    coupon_code: CouponCode | None
    shipping_fee: float
    store_credit_used: float
    total_charged: float = Field(description="charged to the card")
    estimated_delivery: str
    carrier: str | None
    tracking_number: str | None
    shipped_at: str | None
    delivered_at: str | None
    cancelled_at: str | None
    cancel_reason: str | None
    returns: list[Return]
    progress: str = Field(description="where the order stands and until when it can be returned, on one line")


def progress(o: sqlite3.Row, returnable: bool, today: date) -> str:
    """Where an order stands, as a person says it: 'it was delivered on March 3, and you can return it until
    April 2'."""
    if o["status"] == "cancelled":
        return f"it was cancelled on {spoken_day(o['cancelled_at'], today)}, so there is nothing to return"
    if o["status"] == "placed":
        where = f"it's waiting to ship and should arrive by {spoken_day(o['estimated_delivery'], today)}"
    elif o["status"] == "shipped":
        where = (f"it's on its way with {o['carrier']} (tracking {o['tracking_number']}) and should arrive by "
                 f"{spoken_day(o['estimated_delivery'], today)}")
    else:
        where = f"it was delivered on {spoken_day(o['delivered_at'], today)}" + (
            f" ({o['carrier']}, tracking {o['tracking_number']})" if o["carrier"] else "")
    if not returnable:
        return f"{where}; it was a final sale, so it can't be returned"
    by = return_by(o)
    if by is None:
        return f"{where}, and you can return it up to {RETURN_WINDOW_DAYS} days after it arrives"
    if by < today:
        return f"{where}, and its return window closed on {spoken_day(by.isoformat(), today)}"
    return f"{where}, and you can return it until {spoken_day(by.isoformat(), today)}"


def return_by(order: sqlite3.Row) -> date | None:
    if not order["delivered_at"]:
        return None
    return datetime.fromisoformat(order["delivered_at"]).date() + timedelta(days=RETURN_WINDOW_DAYS)


def returned_units(ctx: Ctx, order_item_id: str) -> int:
    (n,) = ctx.db.execute("SELECT coalesce(sum(quantity), 0) FROM returns WHERE order_item_id = ? "
                          "AND status != 'cancelled'", (order_item_id,)).fetchone()
    return n


def return_model(row: sqlite3.Row) -> Return:
    return Return(**{k: row[k] for k in Return.model_fields})


def load_order(ctx: Ctx, order_id: str) -> Order:
    o = ctx.get("order", order_id)
    a = ctx.db.execute("SELECT * FROM addresses WHERE address_id = ?", (o["address_id"],)).fetchone()
    (card,) = ctx.db.execute("SELECT nickname FROM payment_methods WHERE payment_method_id = ?",
                             (o["payment_method_id"],)).fetchone()
    by = return_by(o)
    items = [OrderItem(order_item_id=i["order_item_id"], product_id=i["product_id"], variant_id=i["variant_id"],
                       product_name=i["product_name"], variant_name=i["variant_name"], unit_price=i["unit_price"],
                       quantity=i["quantity"], returned_quantity=returned_units(ctx, i["order_item_id"]),
                       returnable=bool(i["returnable"]), return_by=by.isoformat() if by and i["returnable"] else None)
             for i in ctx.db.execute("SELECT i.*, p.returnable FROM order_items i JOIN products p "
                                     "ON p.product_id = i.product_id WHERE i.order_id = ? ORDER BY i.order_item_id",
                                     (order_id,))]
    returns = [return_model(r) for r in ctx.db.execute("SELECT * FROM returns WHERE order_id = ? ORDER BY return_id",
                                                  (order_id,))]
    ship_to = f"{a['label']}: {a['recipient']}, {a['street']}, {a['city']}, {a['region']} {a['postal_code']}"
    return Order(order_id=o["order_id"], placed_at=o["placed_at"], status=o["status"], summary=o["summary"],
                 items=items, address_id=o["address_id"], ship_to=ship_to, payment_method_id=o["payment_method_id"],
                 payment=card, shipping_speed=o["shipping_speed"], subtotal=o["subtotal"], discount=o["discount"],
                 coupon_code=o["coupon_code"], shipping_fee=o["shipping_fee"], store_credit_used=o["store_credit_used"],
                 total_charged=o["total_charged"], estimated_delivery=o["estimated_delivery"], carrier=o["carrier"],
                 tracking_number=o["tracking_number"], shipped_at=o["shipped_at"], delivered_at=o["delivered_at"],
                 cancelled_at=o["cancelled_at"], cancel_reason=o["cancel_reason"], returns=returns,
                 progress=progress(o, any(i.returnable for i in items), ctx.today()))


def ship(ctx: Ctx, order_id: str, at: datetime) -> None:
    """The warehouse hands an order to a carrier at `at`, with a fresh tracking number."""
    rng = ctx.rng()
    carrier = rng.choice(CARRIERS)
    tracking = {"UPS": "1Z" + "".join(rng.choice("0123456789ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(16)),
                "FedEx": "".join(rng.choice("0123456789") for _ in range(12)),
                "USPS": "9400" + "".join(rng.choice("0123456789") for _ in range(18))}[carrier]
    ctx.db.execute("UPDATE orders SET status = 'shipped', carrier = ?, tracking_number = ?, shipped_at = ? "
                   "WHERE order_id = ?", (carrier, tracking, iso(at), order_id))
