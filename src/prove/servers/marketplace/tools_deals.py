"""Marketplace tools: buying, offers in both directions, and the orders that follow."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, money, said_in_part, spoken_day

from .server import (
    OFFER_SQL,
    ORDER_SQL,
    CounteredOfferId,
    ForSaleListingId,
    ListingId,
    MyPendingOfferId,
    Offer,
    Order,
    PaidSaleId,
    PaymentMethodId,
    ReceivedOfferId,
    ShippedPurchaseId,
    charge,
    listing_row,
    me,
    offer_expiry,
    offer_model,
    offer_row,
    order_model,
    order_row,
    sell,
)

tools = Toolset("deals")

Amount = Annotated[float, Field(gt=0, le=50_000)]
Limit = Annotated[int, Field(ge=1, le=50)]
OfferStatus = Literal["pending", "countered", "accepted", "rejected", "withdrawn", "expired"]


class OfferList(BaseModel):
    offers: list[Offer]
    total: int
    offers_text: str = Field(description="The offers in words, such as 'gamesbyoscar's $210.00 offer on 'Apple "
                                         "iPhone 13 128GB Starlight' (asking $245.00), waiting for your answer'.")


_WAITING = {"received": {"pending": "waiting for your answer", "countered": "waiting for the buyer"},
            "made": {"pending": "waiting for the seller", "countered": "waiting for you"}}
_CLOSED = {"accepted": "accepted", "rejected": "turned down", "withdrawn": "withdrawn", "expired": "expired"}


def _offers_text(offers: list[Offer], total: int, role: str, status: str | None) -> str:
    """Each offer by its summary, with where it stands unless the request asked for one status."""
    def one(o: Offer) -> str:
        said = o.summary.replace(f"{o.buyer_username}'s ", "your ", 1) if role == "made" else o.summary
        if status is not None:
            return said
        return f"{said}, {_WAITING[role].get(o.status) or _CLOSED.get(o.status, o.status)}"
    return said_in_part([one(o) for o in offers[:5]], total, "no offers", noun="offer")


class OrderList(BaseModel):
    orders: list[Order]
    total: int
    orders_text: str = Field(description="The orders in words, newest first, such as \"'Dune by Frank Herbert' from "
                                         "jia_books, $14.98, not shipped yet (order ORD-10014)\".")


def _orders_text(orders: list[Order], total: int, role: str, today: date, status_named: bool) -> str:
    """"'Dune by Frank Herbert' from jia_books, $14.98, not shipped yet (order ORD-10014); 'Shure SM58' from
    mic_shop, $67.99, shipped March 13 (order ORD-10010)", where it stands left out where the request named it."""
    def one(o: Order) -> str:
        who = f"from {o.seller_username}" if role == "purchases" else f"to {o.buyer_username}"
        if status_named:
            state = ""
        elif o.status == "paid":
            state = ", waiting for you to ship it" if role == "sales" else ", not shipped yet"
        elif o.status == "shipped":
            state = f", shipped {spoken_day(o.shipped_at or o.created_at, today)}"
        else:
            state = f", delivered {spoken_day(o.delivered_at or o.created_at, today)}"
        return f"'{o.title}' {who}, ${o.total:,.2f}{state} (order {o.order_id})"
    return said_in_part([one(o) for o in orders[:5]], total, "no orders", noun="order")


class OfferResponse(BaseModel):
    offer: Offer
    order: Order | None


def _buyable(ctx: Ctx, listing_id: str):  # noqa: ANN202 - a sqlite3.Row
    row = listing_row(ctx, listing_id)
    if row["is_mine"]:
        raise ToolError("own_listing", f"{listing_id} is your own listing.",
                        hint="You cannot buy or make offers on your own items.")
    if row["status"] != "active":
        raise ToolError("listing_unavailable", f"{listing_id} ({row['title']}) is {row['status']} and no longer "
                        "for sale.", hint="Search for another listing with search_listings.")
    return row


@tools.tool(effect=WRITE, asks=[
    "Buy {listing_id} for me.",
    "Purchase {listing_id} with {payment_method_id}.",
    Ask("Buy {listing_id} and pay from my marketplace balance.", use_balance=True),
], reply=[
    "Bought '{result.title}' for ${result.total}; the order is {result.order_id}.",
    "Done: you bought '{result.title}' for ${result.total}, paid with {result.paid_with} (order {result.order_id}).",
])
def buy_listing(ctx: Ctx, listing_id: ForSaleListingId, payment_method_id: PaymentMethodId | None = None,
                use_balance: bool = False) -> Order:
    """Buy an active listing of another member at its asking price plus shipping.

    Pays with the given payment method, the default one when none is given, or the marketplace
    balance when `use_balance` is true. The listing is sold at once and other open offers on it
    are rejected.

    Args:
        listing_id: ID of the listing to buy, such as 'LST-10002'.
        payment_method_id: card or wallet to pay with, such as 'PM-10001'; the default one when omitted.
        use_balance: pay from the marketplace balance instead of a payment method (default false).

    Returns:
        The new order (status 'paid') with the total charged and how it was paid.

    Raises:
        not_found: no listing or payment method has that ID.
        own_listing: the listing is the member's own.
        listing_unavailable: the listing is sold or withdrawn.
        conflicting_payment: both a payment method and use_balance were given.
        payment_method_expired: the card's expiry date has passed.
        insufficient_balance: the marketplace balance is below the total.
    """
    row = _buyable(ctx, listing_id)
    total = money(row["price"] + row["shipping_cost"])
    paid_with, method = charge(ctx, total, payment_method_id, use_balance)
    order_id = sell(ctx, row, me(ctx), row["price"], None, paid_with, method)
    return order_model(order_row(ctx, order_id))


@tools.tool(effect=WRITE, asks=[
    "Offer ${amount} for {listing_id}.",
    "Make the seller of {listing_id} an offer of ${amount} and say: {message}",
    "Would the seller take ${amount} for {listing_id}? Make the offer.",
], reply=[
    "Offered ${amount} for '{result.listing_title}'; it's open until {result.expires_at}.",
    "Done: your ${amount} offer is with {result.seller_username}.",
], values={"message": ["Would you take this? I can pay today.", "I can pick it up this weekend.",
                       "Is this fair given the scratches?", "Happy to pay right away if you accept.",
                       "This is my best offer, thanks!", "Can you do this price with shipping?"]})
def make_offer(ctx: Ctx, listing_id: ForSaleListingId, amount: Amount, message: Annotated[str, Field(max_length=500)]
               | None = None) -> Offer:
    """Offer to buy another member's listing for less than its asking price.

    The seller may accept, reject or counter; an offer lapses 48 hours after it is made.

    Args:
        listing_id: ID of the listing, such as 'LST-10002'.
        amount: offered item price in dollars (shipping is added on purchase), such as 85.0.
        message: optional note to the seller, such as 'Can pay right away.'.

    Returns:
        The new offer with status 'pending' and its expiry time.

    Raises:
        not_found: no listing has that ID.
        own_listing: the listing is the member's own.
        listing_unavailable: the listing is sold or withdrawn.
        offers_not_accepted: the seller does not take offers on this listing.
        offer_not_below_price: the amount is at or above the asking price (buy it instead).
        offer_too_low: the amount is below half the asking price.
        offer_exists: the member already has an open offer on this listing.
    """
    row = _buyable(ctx, listing_id)
    if not row["accepts_offers"]:
        raise ToolError("offers_not_accepted", f"The seller does not accept offers on {listing_id}.",
                        hint=f"Buy it at ${row['price']:.2f} with buy_listing, or message the seller.")
    amount = money(amount)
    if amount >= row["price"]:
        raise ToolError("offer_not_below_price", f"${amount:.2f} is not below the asking price ${row['price']:.2f}.",
                        hint="Buy the listing at its price with buy_listing instead.")
    if amount < row["price"] / 2:
        raise ToolError("offer_too_low", f"Offers must be at least half the asking price (${row['price'] / 2:.2f}).",
                        hint="Offer a higher amount.")
    buyer = me(ctx)
    open_offer = ctx.db.execute(
        "SELECT offer_id FROM offers WHERE listing_id = ? AND buyer_id = ? AND status IN ('pending', 'countered') "
        "AND expires_at > ?", (listing_id, buyer, iso(ctx.now()))).fetchone()
    if open_offer is not None:
        raise ToolError("offer_exists", f"You already have open offer {open_offer[0]} on {listing_id}.",
                        hint="Withdraw it with withdraw_offer first, or wait for the seller's answer.")
    offer_id = ctx.new_id("OFR")
    note = message.strip() if message and message.strip() else None
    ctx.db.execute(
        "INSERT INTO offers (offer_id, listing_id, buyer_id, amount, message, status, created_at, expires_at) "
        "VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)",
        (offer_id, listing_id, buyer, amount, note, iso(ctx.now()), offer_expiry(ctx)))
    return offer_model(offer_row(ctx, offer_id))


@tools.tool(effect=READ, asks=[
    Ask("What offers have I received?", role="received"),
    Ask("Which of the offers I made are still pending?", role="made", status="pending"),
    # (the offers the user received: on a listing of their own)
    Ask("Any offers on {listing_id}?", fits={"listing_id": "seller_id = (SELECT member_id FROM members WHERE is_me = 1)"}),
    Ask("Did any seller counter my offers?", role="made", status="countered"),
], reply=[
    Ask("Offers on your listings: {result.offers_text}.", role="received"),
    Ask("Here's what buyers have offered: {result.offers_text}.", role="received"),
    Ask("Your offers: {result.offers_text}.", role="made"),
])
def list_offers(ctx: Ctx, role: Literal["received", "made"] = "received", status: OfferStatus | None = None,
                listing_id: ListingId | None = None, limit: Limit = 20) -> OfferList:
    """List offers on the member's listings ('received') or offers the member made ('made'), newest first.

    An open offer past its expiry time shows as 'expired'. A 'countered' offer the member made waits
    for the member to accept the seller's counter_amount.

    Args:
        role: 'received' (offers from buyers on the member's listings, default) or 'made' (the member's own offers).
        status: only this status: 'pending', 'countered', 'accepted', 'rejected', 'withdrawn' or 'expired'.
        listing_id: only offers on this listing, such as 'LST-10199'.
        limit: most offers to return, 1 to 50, such as 20.

    Returns:
        Offers with listing, buyer, seller, amount, any counter amount, status and expiry, and the total.
    """
    member = me(ctx)
    where = ["seller_id = :me" if role == "received" else "buyer_id = :me"]
    params: dict[str, object] = {"me": member, "now": iso(ctx.now())}
    if status is not None:
        where.append("effective = :status")
        params["status"] = status
    if listing_id is not None:
        where.append("listing_id = :listing")
        params["listing"] = listing_id
    rows = ctx.db.execute(f"SELECT * FROM ({OFFER_SQL}) WHERE {' AND '.join(where)} "
                          "ORDER BY created_at DESC, offer_id", params).fetchall()
    offers = [offer_model(r) for r in rows[:limit]]
    return OfferList(offers=offers, total=len(rows), offers_text=_offers_text(offers, len(rows), role, status))


@tools.tool(effect=WRITE, asks=[
    "Withdraw {offer_id}.",
    "Cancel {offer_id}, I changed my mind.",
], reply=[
    "Withdrew your offer on '{result.listing_title}'.",
    "Done: your ${result.amount} offer is withdrawn.",
])
def withdraw_offer(ctx: Ctx, offer_id: MyPendingOfferId) -> Offer:
    """Withdraw an open offer the signed-in member made (pending, or countered by the seller).

    Args:
        offer_id: ID of the member's offer, such as 'OFR-10013'.

    Returns:
        The offer, now with status 'withdrawn'.

    Raises:
        not_found: no offer has that ID.
        not_your_offer: the offer was made by another member.
        offer_not_open: the offer was already accepted, rejected, withdrawn or has expired.
    """
    row = offer_row(ctx, offer_id)
    if row["buyer_id"] != me(ctx):
        raise ToolError("not_your_offer", f"{offer_id} was made by {row['buyer_username']}, not by you.",
                        hint="To answer offers on your listings use respond_to_offer.")
    if row["effective"] not in ("pending", "countered"):
        raise ToolError("offer_not_open", f"{offer_id} is {row['effective']} and cannot be withdrawn.")
    ctx.db.execute("UPDATE offers SET status = 'withdrawn', responded_at = ? WHERE offer_id = ?",
                   (iso(ctx.now()), offer_id))
    return offer_model(offer_row(ctx, offer_id))


@tools.tool(effect=WRITE, asks=[
    Ask("Accept {offer_id}.", action="accept"),
    Ask("Reject {offer_id}, it's too low.", action="reject"),
    Ask("Counter {offer_id} at ${counter_amount}.", action="counter"),
    Ask("Say yes to {offer_id}, I'll sell at that price.", action="accept"),
], reply=[
    Ask("Accepted {result.offer.buyer_username}'s offer: '{result.offer.listing_title}' sells for "
        "${result.offer.amount}.", action="accept"),
    Ask("Done: you accepted the ${result.offer.amount} offer on '{result.offer.listing_title}'.", action="accept"),
    Ask("Rejected {result.offer.buyer_username}'s ${result.offer.amount} offer on '{result.offer.listing_title}'.",
        action="reject"),
    Ask("Countered {offer_id} at ${counter_amount}; the buyer can take it or leave it.", action="counter"),
])
def respond_to_offer(ctx: Ctx, offer_id: ReceivedOfferId, action: Literal["accept", "reject", "counter"],
                     counter_amount: Amount | None = None) -> OfferResponse:
    """Answer a pending offer a buyer made on one of the signed-in member's listings.

    Accepting sells the listing to the buyer at the offered amount (plus shipping): an order is
    created, other open offers on the listing are rejected and the proceeds after fees are added
    to the member's marketplace balance. Countering asks the buyer to pay `counter_amount`.

    Args:
        offer_id: ID of a pending offer on the member's listing, such as 'OFR-10001'.
        action: 'accept', 'reject' or 'counter'.
        counter_amount: for 'counter', the price to propose in dollars, above the offer and below the
            asking price, such as 260.0.

    Returns:
        The offer with its new status, and the order when the offer was accepted.

    Raises:
        not_found: no offer has that ID.
        not_your_listing: the offer is on another member's listing (such as an offer the member made).
        offer_not_open: the offer is not pending (already answered, withdrawn or expired).
        counter_amount_required: the action is 'counter' but no counter_amount was given.
        invalid_counter: the counter amount is not above the offer and below the asking price.
    """
    row = offer_row(ctx, offer_id)
    member = me(ctx)
    if row["seller_id"] != member:
        raise ToolError("not_your_listing", f"{offer_id} is on {row['seller_username']}'s listing, not yours.",
                        hint="For offers you made, use accept_counter_offer or withdraw_offer.")
    if row["effective"] != "pending":
        raise ToolError("offer_not_open", f"{offer_id} is {row['effective']}; only pending offers can be answered.")
    now = iso(ctx.now())
    order = None
    if action == "accept":
        listing = listing_row(ctx, row["listing_id"])
        ctx.db.execute("UPDATE offers SET status = 'accepted', responded_at = ? WHERE offer_id = ?", (now, offer_id))
        order_id = sell(ctx, listing, row["buyer_id"], row["amount"], offer_id, "paid by buyer", None)
        order = order_model(order_row(ctx, order_id))
    elif action == "reject":
        ctx.db.execute("UPDATE offers SET status = 'rejected', responded_at = ? WHERE offer_id = ?", (now, offer_id))
    else:
        if counter_amount is None:
            raise ToolError("counter_amount_required", "A counter needs counter_amount.",
                            hint=f"Propose a price between ${row['amount']:.2f} and ${row['asking_price']:.2f}.")
        counter = money(counter_amount)
        if not row["amount"] < counter < row["asking_price"]:
            raise ToolError("invalid_counter", f"A counter must be above the offer (${row['amount']:.2f}) and below "
                            f"the asking price (${row['asking_price']:.2f}).")
        ctx.db.execute("UPDATE offers SET status = 'countered', counter_amount = ?, responded_at = ?, expires_at = ? "
                       "WHERE offer_id = ?", (counter, now, offer_expiry(ctx), offer_id))
    return OfferResponse(offer=offer_model(offer_row(ctx, offer_id)), order=order)


@tools.tool(effect=WRITE, asks=[
    "Take the seller's counter price on {offer_id}.",
    "Accept the seller's counter to {offer_id} and pay with {payment_method_id}.",
    Ask("Accept the counter on {offer_id} and pay from my marketplace balance.", use_balance=True),
], reply=[
    "Bought '{result.title}' at the counter price: ${result.total}, order {result.order_id}.",
    "Done: you bought '{result.title}' for ${result.total} at the counter price, paid with {result.paid_with} (order "
    "{result.order_id}).",
])
def accept_counter_offer(ctx: Ctx, offer_id: CounteredOfferId, payment_method_id: PaymentMethodId | None = None,
                         use_balance: bool = False) -> Order:
    """Accept a seller's counter to an offer the signed-in member made, buying at the counter amount.

    Args:
        offer_id: ID of the member's countered offer, such as 'OFR-10015'.
        payment_method_id: card or wallet to pay with, such as 'PM-10001'; the default one when omitted.
        use_balance: pay from the marketplace balance instead of a payment method (default false).

    Returns:
        The new order (status 'paid') at the counter amount plus shipping.

    Raises:
        not_found: no offer or payment method has that ID.
        not_your_offer: the offer was made by another member.
        offer_expired: the counter-offer lapsed before it was accepted.
        offer_not_countered: the seller has not countered this offer (it is pending, accepted, rejected or withdrawn).
        conflicting_payment: both a payment method and use_balance were given.
        payment_method_expired: the card's expiry date has passed.
        insufficient_balance: the marketplace balance is below the total.
    """
    row = offer_row(ctx, offer_id)
    if row["buyer_id"] != me(ctx):
        raise ToolError("not_your_offer", f"{offer_id} was made by {row['buyer_username']}, not by you.",
                        hint="To answer offers on your listings use respond_to_offer.")
    if row["effective"] == "expired":
        raise ToolError("offer_expired", f"The counter-offer on {offer_id} expired at {row['expires_at']}.",
                        hint="Make a new offer with make_offer.")
    if row["effective"] != "countered":
        raise ToolError("offer_not_countered", f"{offer_id} is {row['effective']}, not countered by the seller.")
    listing = listing_row(ctx, row["listing_id"])
    price = row["counter_amount"]
    paid_with, method = charge(ctx, money(price + listing["shipping_cost"]), payment_method_id, use_balance)
    ctx.db.execute("UPDATE offers SET status = 'accepted', amount = ?, responded_at = ? WHERE offer_id = ?",
                   (price, iso(ctx.now()), offer_id))
    order_id = sell(ctx, listing, row["buyer_id"], price, offer_id, paid_with, method)
    return order_model(order_row(ctx, order_id))


@tools.tool(effect=READ, asks=[
    Ask("Show my recent purchases.", role="purchases"),
    Ask("Which of my sales still need to be shipped?", role="sales", status="paid"),
    Ask("List what I've sold on the marketplace.", role="sales"),
    Ask("Which of my purchases have been delivered?", role="purchases", status="delivered"),
], reply=[
    Ask("Your purchases, newest first: {result.orders_text}.", role="purchases", status=None),
    Ask("Your sales, newest first: {result.orders_text}.", role="sales", status=None),
    Ask("Still to be shipped: {result.orders_text}.", status="paid"),
    Ask("On the way: {result.orders_text}.", status="shipped"),
    Ask("Delivered: {result.orders_text}.", status="delivered"),
])
def list_orders(ctx: Ctx, role: Literal["purchases", "sales"] = "purchases",
                status: Literal["paid", "shipped", "delivered"] | None = None, limit: Limit = 20) -> OrderList:
    """List the signed-in member's purchases or sales, newest first.

    A 'paid' sale is waiting for the member to ship it; a 'shipped' purchase can be confirmed as
    delivered, and a delivered purchase can be rated.

    Args:
        role: 'purchases' (what the member bought, default) or 'sales' (what the member sold).
        status: only orders in this status: 'paid', 'shipped' or 'delivered'.
        limit: most orders to return, 1 to 50, such as 20.

    Returns:
        Orders with item, counterpart, amounts, fee, payment, shipping details, whether the purchase
        was rated, and the total.
    """
    where = "o.buyer_id = :me" if role == "purchases" else "o.seller_id = :me"
    params: dict[str, object] = {"me": me(ctx)}
    if status is not None:
        where += " AND o.status = :status"
        params["status"] = status
    rows = ctx.db.execute(ORDER_SQL + " WHERE " + where + " ORDER BY o.created_at DESC, o.order_id", params).fetchall()
    orders = [order_model(r) for r in rows[:limit]]
    return OrderList(orders=orders, total=len(rows),
                     orders_text=_orders_text(orders, len(rows), role, ctx.today(), status is not None))


@tools.tool(effect=WRITE, asks=[
    "Record {order_id} as shipped with {carrier}, tracking {tracking_number}.",
    "Mark my sale {order_id} as shipped via {carrier}; the tracking number is {tracking_number}.",
], reply=[
    "Marked {order_id} as shipped with {carrier}, tracking {tracking_number}.",
    "Done: the buyer can track {order_id} with {tracking_number}.",
], values={
    # a carrier with a tracking number in its own format
    "carrier, tracking_number": [("USPS", "9400111899223344556677"), ("USPS", "9405511206213456789012"),
                                 ("UPS", "1Z999AA10123456784"), ("UPS", "1Z4F82W90312345678"),
                                 ("FedEx", "449044304137"), ("FedEx", "794612345678"),
                                 ("DHL", "1234567890"), ("DHL", "5678901234")],
})
def mark_order_shipped(ctx: Ctx, order_id: PaidSaleId, carrier: Literal["USPS", "UPS", "FedEx", "DHL"],
                       tracking_number: Annotated[str, Field(max_length=40)]) -> Order:
    """Mark one of the signed-in member's paid sales as shipped, with the carrier and tracking number.

    Args:
        order_id: ID of the member's sale, such as 'ORD-10001'.
        carrier: 'USPS', 'UPS', 'FedEx' or 'DHL'.
        tracking_number: the carrier's tracking number, such as '9400111899223344556677'.

    Returns:
        The order, now 'shipped'.

    Raises:
        not_found: no order has that ID.
        not_your_sale: the member is not the seller of this order.
        already_shipped: the order was already shipped or delivered.
        invalid_tracking_number: the tracking number is empty or has characters other than letters and digits.
    """
    row = order_row(ctx, order_id)
    if row["seller_id"] != me(ctx):
        raise ToolError("not_your_sale", f"{order_id} is not one of your sales.",
                        hint="See your sales with list_orders(role='sales').")
    if row["status"] != "paid":
        raise ToolError("already_shipped", f"{order_id} is already {row['status']}.")
    tracking = tracking_number.replace(" ", "").upper()
    if not tracking or not tracking.isalnum() or not tracking.isascii():
        raise ToolError("invalid_tracking_number", f"{tracking_number[:40]!r} is not a tracking number.",
                        hint="Give the carrier's tracking number, letters and digits only.")
    ctx.db.execute("UPDATE orders SET status = 'shipped', carrier = ?, tracking_number = ?, shipped_at = ? "
                   "WHERE order_id = ?", (carrier, tracking, iso(ctx.now()), order_id))
    return order_model(order_row(ctx, order_id))


@tools.tool(effect=WRITE, asks=[
    "Mark {order_id} as delivered; it arrived.",
    "Confirm that I received {order_id}.",
], reply=[
    "Confirmed delivery of {order_id}; you can rate the seller now.",
    "Done: {order_id} is marked delivered.",
])
def confirm_delivery(ctx: Ctx, order_id: ShippedPurchaseId) -> Order:
    """Confirm that a shipped purchase of the signed-in member has arrived.

    Args:
        order_id: ID of the member's purchase, such as 'ORD-10010'.

    Returns:
        The order, now 'delivered' (it can then be rated with rate_seller).

    Raises:
        not_found: no order has that ID.
        not_your_purchase: the member is not the buyer of this order.
        order_not_shipped: the seller has not shipped the order yet.
        already_delivered: the order was already marked delivered.
    """
    row = order_row(ctx, order_id)
    if row["buyer_id"] != me(ctx):
        raise ToolError("not_your_purchase", f"{order_id} is not one of your purchases.",
                        hint="See your purchases with list_orders.")
    if row["status"] == "paid":
        raise ToolError("order_not_shipped", f"{row['seller_username']} has not shipped {order_id} yet.",
                        hint="Message the seller about it with send_message.")
    if row["status"] == "delivered":
        raise ToolError("already_delivered", f"{order_id} was delivered on {row['delivered_at'][:10]}.")
    ctx.db.execute("UPDATE orders SET status = 'delivered', delivered_at = ? WHERE order_id = ?",
                   (iso(ctx.now()), order_id))
    return order_model(order_row(ctx, order_id))
