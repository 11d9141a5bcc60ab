"""The retail_chain server: stores, stock, click-and-collect, transfers and a loyalty account.

This module declares the server, its entity kinds, the shared types and helpers; the toolsets
live in `tools_stores.py` (stores, products, stock and prices), `tools_pickup.py` (reservations
and store-to-store transfers) and `tools_loyalty.py` (loyalty points, certificates, purchases),
and `__init__.py` includes them.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, Field

from prove.env import Ctx, EntityKind, Sensitive, Server, ToolError
from prove.env.values import iso, money

from .world import build_world

STORE = EntityKind("store", table="stores", key="store_id", label="name",
                   description="a store of the chain, with its city and opening hours", naming="alone")
PRODUCT = EntityKind("product", table="products", key="product_id", label="name",
                     description="a product the chain sells", naming="article")
CUSTOMER = EntityKind("customer", table="customers", key="customer_id", label="name",
                      description="the signed-in customer")
LOYALTY_ACCOUNT = EntityKind("loyalty_account", table="loyalty_accounts", key="loyalty_id", label="card_number",
                             description="the customer's loyalty account with its points")
CERTIFICATE = EntityKind("certificate", table="certificates", key="certificate_id", label=None,
                         description="a reward certificate bought with loyalty points", public_id=True,
                         noun="reward certificate",
                         lister="get_loyalty_account")
RESERVATION = EntityKind("reservation", table="reservations", key="reservation_id", label=None,
                         description="a click-and-collect reservation holding stock at a store", public_id=True)
TRANSFER = EntityKind("transfer", table="transfers", key="transfer_id", label=None,
                      description="stock moved from one store to another at the customer's request", public_id=True)
PURCHASE = EntityKind("purchase", table="purchases", key="purchase_id", label=None,
                      description="a receipt of the customer's purchase at a store", public_id=True)
POINTS_ACTIVITY = EntityKind("points_activity", table="points_activity", key="activity_id", label="description",
                             description="one entry of the loyalty points history",
                             noun="points entry")

server = Server(
    "retail_chain", "Retail chain",
    "A regional chain of home and outdoor stores, used by one signed-in customer: find stores by "
    "city and opening hours, search products, check stock and shelf prices store by store, reserve "
    "items for click-and-collect pickup (reservations hold stock and expire), collect them while the "
    "store is open, move stock between stores, and earn and redeem loyalty points for reward "
    "certificates.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[STORE, PRODUCT, CUSTOMER, LOYALTY_ACCOUNT, CERTIFICATE, RESERVATION, TRANSFER, PURCHASE, POINTS_ACTIVITY],
)

StoreId = STORE.id
ProductId = PRODUCT.id
CustomerId = CUSTOMER.id
LoyaltyId = LOYALTY_ACCOUNT.id
CertificateId = CERTIFICATE.id
ReservationId = RESERVATION.id
TransferId = TRANSFER.id
PurchaseId = PURCHASE.id
ActivityId = POINTS_ACTIVITY.id
# Subsets a tool accepts, so that sampled calls name rows it can act on.
OpenStoreId = STORE.where("status = 'open'")
# A new home store: an open store that is not the home store already.
OtherOpenStoreId = STORE.where("status = 'open' AND store_id NOT IN (SELECT home_store_id FROM customers)")
PickupStoreId = STORE.where("status = 'open' AND offers_pickup = 1")
ActiveReservationId = RESERVATION.where("status = 'active'")
AvailableCertificateId = CERTIFICATE.where("status = 'available'")
InTransitTransferId = TRANSFER.where("status = 'in_transit'")
Pin = Annotated[str, Sensitive()]
Limit = Annotated[int, Field(ge=1, le=50)]

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MAX_ACTIVE_RESERVATIONS = 5

# ----- helpers ------------------------------------------------------------------------------------


def weekly_hours(ctx: Ctx, store_id: str) -> dict[int, tuple[str, str]]:
    rows = ctx.db.execute("SELECT weekday, opens, closes FROM store_hours WHERE store_id = ?", (store_id,))
    return {r["weekday"]: (r["opens"], r["closes"]) for r in rows}


def is_open(store: sqlite3.Row, hours: dict[int, tuple[str, str]], at: datetime) -> bool:
    """Whether the store is open at `at` (local time)."""
    if store["status"] != "open" or at.weekday() not in hours:
        return False
    opens, closes = hours[at.weekday()]
    return opens <= at.strftime("%H:%M") < closes


def next_opening(store: sqlite3.Row, hours: dict[int, tuple[str, str]], after: datetime) -> datetime | None:
    """The next time the store opens after `after`, within a week; None if it is temporarily closed."""
    if store["status"] != "open":
        return None
    for days in range(8):
        day = after.date() + timedelta(days=days)
        if day.weekday() not in hours:
            continue
        opens = datetime.combine(day, datetime.strptime(hours[day.weekday()][0], "%H:%M").time())
        if opens > after:
            return opens
    return None


def today_hours(hours: dict[int, tuple[str, str]], at: datetime) -> str:
    found = hours.get(at.weekday())
    return f"{found[0]}-{found[1]}" if found else "closed"


# Units of a product a store can still promise: on hand, plus arrived transfers not yet shelved,
# minus the customer's reservations that still hold stock. Parameters: :now; columns of `i`.
AVAILABLE_SQL = """max(0, i.on_hand
  + coalesce((SELECT sum(t.quantity) FROM transfers t WHERE t.to_store_id = i.store_id
              AND t.product_id = i.product_id AND t.status = 'in_transit' AND t.arrives_at <= :now), 0)
  - coalesce((SELECT sum(r.quantity) FROM reservations r WHERE r.store_id = i.store_id
              AND r.product_id = i.product_id AND r.status = 'active' AND r.expires_at > :now), 0))"""


def stock(ctx: Ctx, store_id: str, product_id: str) -> sqlite3.Row | None:
    """The store's inventory row for the product with `available`, or None if it does not carry it."""
    return ctx.db.execute(f"SELECT i.*, {AVAILABLE_SQL} AS available FROM inventory i "
                          "WHERE i.store_id = :store AND i.product_id = :product",
                          {"now": iso(ctx.now()), "store": store_id, "product": product_id}).fetchone()


def require_open(store: sqlite3.Row, hint: str) -> None:
    """`store_unavailable` if the store is temporarily closed."""
    if store["status"] != "open":
        raise ToolError("store_unavailable", f"{store['name']} is temporarily closed. {store['status_note'] or ''}"
                        .strip(), hint=hint)


def units(ctx: Ctx, store: sqlite3.Row, product: sqlite3.Row, quantity: int = 0, *,
          short_hint: str = "") -> sqlite3.Row:
    """The store's stock of the product (see `stock`): `not_carried`, or `insufficient_stock` below `quantity`."""
    row = stock(ctx, store["store_id"], product["product_id"])
    if row is None:
        raise ToolError("not_carried", f"{store['name']} does not carry {product['name']}.",
                        hint="Use check_availability to find stores that do.")
    if row["available"] < quantity:
        raise ToolError("insufficient_stock", f"{store['name']} has {row['available']} of {product['name']} "
                        f"available, fewer than {quantity}.", hint=short_hint)
    return row


def settle(ctx: Ctx) -> None:
    """Shelve transfers that have arrived: add their units to the destination's stock.

    Reads compute arrivals on the fly (AVAILABLE_SQL); writes that change stock settle first so
    that on_hand is exact before they take units from it.
    """
    now = iso(ctx.now())
    arrived = ctx.db.execute("SELECT * FROM transfers WHERE status = 'in_transit' AND arrives_at <= ?",
                             (now,)).fetchall()
    for t in arrived:
        ctx.db.execute("UPDATE inventory SET on_hand = on_hand + ? WHERE store_id = ? AND product_id = ?",
                       (t["quantity"], t["to_store_id"], t["product_id"]))
        ctx.db.execute("UPDATE transfers SET status = 'received' WHERE transfer_id = ?", (t["transfer_id"],))


def reservation_status(row: sqlite3.Row, now: datetime) -> str:
    """An active reservation past its expiry is 'expired'."""
    if row["status"] == "active" and row["expires_at"] <= iso(now):
        return "expired"
    return row["status"]


def transfer_status(row: sqlite3.Row, now: datetime) -> str:
    """An in-transit transfer past its arrival time is 'received'."""
    if row["status"] == "in_transit" and row["arrives_at"] <= iso(now):
        return "received"
    return row["status"]


def loyalty_row(ctx: Ctx) -> sqlite3.Row:
    return ctx.db.execute("SELECT * FROM loyalty_accounts").fetchone()


# ----- shared models ------------------------------------------------------------------------------


class Reservation(BaseModel):
    reservation_id: ReservationId
    store_id: StoreId
    store_name: str
    product_id: ProductId
    product_name: str
    quantity: int
    unit_price: float = Field(description="The store price when reserved, honoured at pickup.")
    subtotal: float
    status: str = Field(description="'active' (held for pickup), 'collected', 'cancelled' or 'expired'.")
    created_at: str
    expires_at: str = Field(description="Until when the items are held; collect before then.")
    extended: bool


RESERVATION_SQL = ("SELECT r.*, s.name AS store_name, p.name AS product_name FROM reservations r "
                   "JOIN stores s ON s.store_id = r.store_id JOIN products p ON p.product_id = r.product_id")


def reservation_model(row: sqlite3.Row, now: datetime) -> Reservation:
    return Reservation(reservation_id=row["reservation_id"], store_id=row["store_id"], store_name=row["store_name"],
                       product_id=row["product_id"], product_name=row["product_name"], quantity=row["quantity"],
                       unit_price=row["unit_price"], subtotal=money(row["quantity"] * row["unit_price"]),
                       status=reservation_status(row, now), created_at=row["created_at"],
                       expires_at=row["expires_at"], extended=bool(row["extended"]))


def reservation_row(ctx: Ctx, reservation_id: str) -> sqlite3.Row:
    """The reservation with its store's and product's names (`not_found` from `ctx.get`)."""
    return ctx.get("reservation", reservation_id, RESERVATION_SQL + " WHERE r.reservation_id = ?")
