"""The marketplace server's declaration: the signed-in member buys, makes offers, sells and talks to members.

This module declares the server, its entity kinds, the shared types and helpers; the package
includes the toolsets of `tools_listings.py` (browsing and the member's own listings),
`tools_deals.py` (offers, purchases and orders) and `tools_account.py` (account, messages,
ratings and gift cards).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field

from prove.env import Ctx, EntityKind, Sensitive, Server, ToolError
from prove.env.values import iso, money

from .world import OFFER_HOURS, build_world, card_expired, fee_for

MEMBER = EntityKind("member", table="members", key="member_id", label="username",
                    description="a member of the marketplace, buyer or seller")
CATEGORY = EntityKind("category", table="categories", key="category_id", label="name",
                      description="a listing category with its selling fee")
LISTING = EntityKind("listing", table="listings", key="listing_id", label="title",
                     description="an item for sale (active, sold or withdrawn)")
OFFER = EntityKind("offer", table="offers", key="offer_id", label=None,
                   description="an offer below the asking price on a listing")
ORDER = EntityKind("order", table="orders", key="order_id", label=None, public_id=True,
                   description="a completed sale: one of the member's purchases or sales")
PAYMENT_METHOD = EntityKind("payment_method", table="payment_methods", key="payment_method_id", label="label",
                            description="a card or wallet the signed-in member pays with")
RATING = EntityKind("rating", table="ratings", key="rating_id", label="comment",
                    description="a buyer's star rating of a seller")
MESSAGE = EntityKind("message", table="messages", key="message_id", label="body",
                     description="a message about a listing between two members")
GIFT_CARD = EntityKind("gift_card", table="gift_cards", key="gift_card_id", label=None,
                       description="a marketplace gift card the signed-in member received")

server = Server(
    "marketplace", "Marketplace",
    "A peer-to-peer marketplace (like eBay or Etsy) where the signed-in member buys from other "
    "members and sells their own items: search listings and seller ratings, buy at the asking price "
    "or make offers that sellers accept, reject or counter, list, reprice and withdraw items, answer "
    "offers on them, ship sales, rate sellers, message members and redeem gift cards.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[MEMBER, CATEGORY, LISTING, OFFER, ORDER, PAYMENT_METHOD, RATING, MESSAGE, GIFT_CARD],
)

MemberId = MEMBER.id
# Another member (a seller to look up): the signed-in member is not their own seller.
OtherMemberId = MEMBER.where("is_me = 0")
CategoryId = CATEGORY.id
ListingId = LISTING.id
_ME = "(SELECT member_id FROM members WHERE is_me = 1)"
# A listing of the signed-in member's that is still for sale: the only kind they can edit or withdraw.
MyActiveListingId = LISTING.where(f"status = 'active' AND seller_id = {_ME}")
# Another member's listing that is still for sale: the only kind one can buy or make an offer on.
ForSaleListingId = LISTING.where(f"status = 'active' AND seller_id != {_ME}")
OfferId = OFFER.id
# The offers each answer takes: one's own still waiting (to withdraw), one received on one's own listing (to
# answer), one's own the seller countered (to accept the counter).
MyPendingOfferId = OFFER.where(f"buyer_id = {_ME} AND status = 'pending'")
ReceivedOfferId = OFFER.where(f"status = 'pending' AND listing_id IN (SELECT listing_id FROM listings "
                              f"WHERE seller_id = {_ME})")
CounteredOfferId = OFFER.where(f"buyer_id = {_ME} AND status = 'countered'")
OrderId = ORDER.id
_MY_PURCHASE = "buyer_id = (SELECT member_id FROM members WHERE is_me = 1)"
ShippedPurchaseId = ORDER.where(f"status = 'shipped' AND {_MY_PURCHASE}")
# A sale of the signed-in member that is paid and waits to be shipped.
PaidSaleId = ORDER.where("status = 'paid' AND seller_id = (SELECT member_id FROM members WHERE is_me = 1)")
UnratedPurchaseId = ORDER.where(f"status = 'delivered' AND {_MY_PURCHASE} "
                                "AND order_id NOT IN (SELECT order_id FROM ratings WHERE order_id IS NOT NULL)")
PaymentMethodId = PAYMENT_METHOD.id
RatingId = RATING.id
MessageId = MESSAGE.id
GiftCardId = GIFT_CARD.id
GiftCardCode = Annotated[str, Sensitive()]

OPEN_OFFER = ("pending", "countered")
BALANCE = "marketplace balance"


# ----- shared models ------------------------------------------------------------------------------

class ListingSummary(BaseModel):
    listing_id: ListingId
    title: str
    seller_username: str
    category_id: CategoryId
    category: str
    condition: str
    price: float
    shipping_cost: float
    accepts_offers: bool = Field(description="Whether buyers may make offers below the price.")
    status: str = Field(description="'active' (for sale), 'sold' or 'withdrawn'.")
    seller_id: MemberId
    seller_rating: float | None = Field(description="The seller's average stars (1-5), None without ratings.")
    location: str
    listed_at: str
    is_mine: bool = Field(description="Whether the signed-in member is the seller.")


class ListingList(BaseModel):
    listings: list[ListingSummary]
    total: int
    listings_text: str = Field(description="The listings in words, such as ''Canon AE-1 Program' ($180.00 plus "
                                           "$12.00 shipping, good condition, from victoria_cameras)'.")


class Offer(BaseModel):
    offer_id: OfferId
    listing_id: ListingId
    summary: str = Field(description="Who offered how much on which listing, and the seller's counter, in words.")
    listing_title: str
    asking_price: float
    buyer_id: MemberId
    buyer_username: str
    seller_id: MemberId
    seller_username: str
    amount: float
    counter_amount: float | None = Field(description="The seller's counter price, when countered.")
    status: str = Field(description="'pending' (waiting for the seller), 'countered' (waiting for the buyer), "
                                    "'accepted', 'rejected', 'withdrawn' or 'expired'.")
    message: str | None
    created_at: str
    expires_at: str


class Order(BaseModel):
    order_id: OrderId
    listing_id: ListingId
    title: str
    buyer_id: MemberId
    buyer_username: str
    seller_id: MemberId
    seller_username: str
    item_price: float
    shipping_cost: float
    total: float
    seller_fee: float = Field(description="What the marketplace keeps from the seller.")
    seller_proceeds: float = Field(description="Total less the seller fee: what the seller receives.")
    paid_with: str
    status: str = Field(description="'paid' (waiting to be shipped), 'shipped' or 'delivered'.")
    carrier: str | None
    tracking_number: str | None
    created_at: str
    shipped_at: str | None
    delivered_at: str | None
    rated: bool


# ----- shared helpers -----------------------------------------------------------------------------

def me(ctx: Ctx) -> str:
    return ctx.db.execute("SELECT member_id FROM members WHERE is_me = 1").fetchone()[0]


def offer_status(row: sqlite3.Row | dict[str, Any], now: datetime) -> str:
    """The status an offer has now: an open offer past its expiry is 'expired'."""
    if row["status"] in OPEN_OFFER and row["expires_at"] <= iso(now):
        return "expired"
    return row["status"]


# SQL for the status an offer has at :now (the same rule as `offer_status`).
OFFER_STATUS_SQL = ("CASE WHEN o.status IN ('pending', 'countered') AND o.expires_at <= :now "
                    "THEN 'expired' ELSE o.status END")

LISTING_SQL = """
SELECT l.*, c.name AS category, c.fee_percent, m.username AS seller_username, m.city, m.region,
       m.is_me AS is_mine,
       (SELECT round(avg(stars), 2) FROM ratings r WHERE r.seller_id = l.seller_id) AS seller_rating,
       (SELECT count(*) FROM ratings r WHERE r.seller_id = l.seller_id) AS seller_rating_count
FROM listings l JOIN categories c ON c.category_id = l.category_id JOIN members m ON m.member_id = l.seller_id
"""


def listing_row(ctx: Ctx, listing_id: str) -> sqlite3.Row:
    """A listing with its category, fee and seller's username and rating."""
    return ctx.get("listing", listing_id, LISTING_SQL + " WHERE l.listing_id = ?")


def summary(row: sqlite3.Row) -> ListingSummary:
    return ListingSummary(
        listing_id=row["listing_id"], title=row["title"], category_id=row["category_id"],
        category=row["category"], condition=row["condition"], price=row["price"],
        shipping_cost=row["shipping_cost"], accepts_offers=bool(row["accepts_offers"]), status=row["status"],
        seller_id=row["seller_id"], seller_username=row["seller_username"], seller_rating=row["seller_rating"],
        location=f"{row['city']}, {row['region']}", listed_at=row["created_at"], is_mine=bool(row["is_mine"]))


OFFER_SQL = f"""
SELECT o.*, {OFFER_STATUS_SQL} AS effective, l.title, l.price AS asking_price, l.seller_id,
       b.username AS buyer_username, s.username AS seller_username
FROM offers o JOIN listings l ON l.listing_id = o.listing_id
JOIN members b ON b.member_id = o.buyer_id JOIN members s ON s.member_id = l.seller_id
"""


def offer_row(ctx: Ctx, offer_id: str) -> sqlite3.Row:
    """An offer with its status now, its listing and both members' usernames."""
    ctx.get("offer", offer_id)
    return ctx.db.execute(OFFER_SQL + " WHERE o.offer_id = :id", {"now": iso(ctx.now()), "id": offer_id}).fetchone()


def offer_model(row: sqlite3.Row) -> Offer:
    summary = (f"{row['buyer_username']}'s ${row['amount']:,.2f} offer on '{row['title']}' "
               f"(asking ${row['asking_price']:,.2f})")
    if row["counter_amount"] is not None:
        summary += f", countered by {row['seller_username']} at ${row['counter_amount']:,.2f}"
    return Offer(offer_id=row["offer_id"], listing_id=row["listing_id"], summary=summary, listing_title=row["title"],
                 asking_price=row["asking_price"], buyer_id=row["buyer_id"], buyer_username=row["buyer_username"],
                 seller_id=row["seller_id"], seller_username=row["seller_username"], amount=row["amount"],
                 counter_amount=row["counter_amount"], status=row["effective"], message=row["message"],
                 created_at=row["created_at"], expires_at=row["expires_at"])


ORDER_SQL = """
SELECT o.*, l.title, b.username AS buyer_username, s.username AS seller_username,
       EXISTS (SELECT 1 FROM ratings r WHERE r.order_id = o.order_id) AS rated
FROM orders o JOIN listings l ON l.listing_id = o.listing_id
JOIN members b ON b.member_id = o.buyer_id JOIN members s ON s.member_id = o.seller_id
"""


def order_row(ctx: Ctx, order_id: str) -> sqlite3.Row:
    """An order with its listing's title, both members' usernames and whether it was rated."""
    return ctx.get("order", order_id, ORDER_SQL + " WHERE o.order_id = ?")


def order_model(row: sqlite3.Row) -> Order:
    return Order(order_id=row["order_id"], listing_id=row["listing_id"], title=row["title"],
                 buyer_id=row["buyer_id"], buyer_username=row["buyer_username"], seller_id=row["seller_id"],
                 seller_username=row["seller_username"], item_price=row["item_price"],
                 shipping_cost=row["shipping_cost"], total=row["total"], seller_fee=row["seller_fee"],
                 seller_proceeds=money(row["total"] - row["seller_fee"]), paid_with=row["paid_with"],
                 status=row["status"], carrier=row["carrier"], tracking_number=row["tracking_number"],
                 created_at=row["created_at"], shipped_at=row["shipped_at"], delivered_at=row["delivered_at"],
                 rated=bool(row["rated"]))


def charge(ctx: Ctx, total: float, payment_method_id: str | None, use_balance: bool) -> tuple[str, str | None]:
    """Take `total` from the signed-in member: from the marketplace balance or a payment method.

    Returns the label the order records and the payment method's ID (None for the balance).
    Raises not_found, payment_method_expired or insufficient_balance.
    """
    if use_balance:
        if payment_method_id is not None:
            raise ToolError("conflicting_payment", "Pay either from the marketplace balance or with a payment "
                            "method, not both.", hint="Drop payment_method_id or set use_balance to false.")
        balance = ctx.db.execute("SELECT balance FROM accounts").fetchone()[0]
        if balance < total:
            raise ToolError("insufficient_balance",
                            f"The marketplace balance is ${balance:.2f}, less than the ${total:.2f} due.",
                            hint="Pay with a card instead, or redeem a gift card first.")
        ctx.db.execute("UPDATE accounts SET balance = round(balance - ?, 2)", (total,))
        return BALANCE, None
    if payment_method_id is None:
        row = ctx.db.execute("SELECT * FROM payment_methods WHERE is_default = 1").fetchone()
    else:
        row = ctx.get("payment_method", payment_method_id)
    if row["expires"] and card_expired(row["expires"], ctx.today()):
        raise ToolError("payment_method_expired", f"{row['label']} expired in {row['expires']}.",
                        hint="Choose another payment method from get_account.")
    return row["label"], row["payment_method_id"]


def sell(ctx: Ctx, listing: sqlite3.Row, buyer_id: str, price: float, offer_id: str | None,
         paid_with: str, payment_method_id: str | None) -> str:
    """Record the sale of `listing` to `buyer_id` at `price`: the order, the listing marked sold,
    other open offers on it rejected, and the seller's proceeds credited when the seller is the
    signed-in member. Returns the new order's ID."""
    now = iso(ctx.now())
    fee = fee_for(listing["fee_percent"], price, listing["shipping_cost"])
    total = money(price + listing["shipping_cost"])
    order_id = ctx.new_id("ORD")
    ctx.db.execute(
        "INSERT INTO orders (order_id, listing_id, buyer_id, seller_id, offer_id, item_price, shipping_cost, "
        "total, seller_fee, paid_with, payment_method_id, status, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'paid', ?)",
        (order_id, listing["listing_id"], buyer_id, listing["seller_id"], offer_id, price,
         listing["shipping_cost"], total, fee, paid_with, payment_method_id, now))
    ctx.db.execute("UPDATE listings SET status = 'sold', updated_at = ? WHERE listing_id = ?",
                   (now, listing["listing_id"]))
    ctx.db.execute(
        "UPDATE offers SET status = 'rejected', responded_at = ? WHERE listing_id = ? AND offer_id IS NOT ? "
        "AND status IN ('pending', 'countered') AND expires_at > ?",
        (now, listing["listing_id"], offer_id, now))
    if listing["is_mine"]:
        ctx.db.execute("UPDATE accounts SET balance = round(balance + ?, 2)", (money(total - fee),))
    return order_id


def offer_expiry(ctx: Ctx) -> str:
    return iso(ctx.now() + timedelta(hours=OFFER_HOURS))


def clean_text(value: str, code: str, what: str) -> str:
    """`value` stripped; a ToolError `code` when nothing is left."""
    text = value.strip()
    if not text or "\x00" in text:
        raise ToolError(code, f"The {what} is empty or not readable text.", hint=f"Give a non-empty {what}.")
    return text

