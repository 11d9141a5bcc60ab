"""Shopping tools for orders: history, tracking, cancellation and returns."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ctx, ToolError
from prove.env.values import money

from .tools import (
    RETURN_WINDOW_DAYS,
    AddressId,
    CouponCode,
    Limit,
    OrderId,
    OrderItemId,
    PaymentMethodId,
    ProductId,
    ReturnId,
    VariantId,
    fetch,
    like,
    server,
)

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


class OrderSummary(BaseModel):
    order_id: OrderId
    placed_at: str
    status: Status
    summary: str
    item_count: int
    total_charged: float
    estimated_delivery: str
    delivered_at: str | None


class OrderList(BaseModel):
    orders: list[OrderSummary]
    total: int


class ReturnList(BaseModel):
    returns: list[Return]
    total: int


def _return_by(order: sqlite3.Row) -> date | None:
    if not order["delivered_at"]:
        return None
    return datetime.fromisoformat(order["delivered_at"]).date() + timedelta(days=RETURN_WINDOW_DAYS)


def _returned(ctx: Ctx, order_item_id: str) -> int:
    (n,) = ctx.db.execute("SELECT coalesce(sum(quantity), 0) FROM returns WHERE order_item_id = ? "
                          "AND status != 'cancelled'", (order_item_id,)).fetchone()
    return n


def _return(row: sqlite3.Row) -> Return:
    return Return(**{k: row[k] for k in Return.model_fields})


def load_order(ctx: Ctx, order_id: str) -> Order:
    o = fetch(ctx, "order", order_id)
    a = ctx.db.execute("SELECT * FROM addresses WHERE address_id = ?", (o["address_id"],)).fetchone()
    (card,) = ctx.db.execute("SELECT nickname FROM payment_methods WHERE payment_method_id = ?",
                             (o["payment_method_id"],)).fetchone()
    by = _return_by(o)
    items = [OrderItem(order_item_id=i["order_item_id"], product_id=i["product_id"], variant_id=i["variant_id"],
                       product_name=i["product_name"], variant_name=i["variant_name"], unit_price=i["unit_price"],
                       quantity=i["quantity"], returned_quantity=_returned(ctx, i["order_item_id"]),
                       returnable=bool(i["returnable"]), return_by=by.isoformat() if by and i["returnable"] else None)
             for i in ctx.db.execute("SELECT i.*, p.returnable FROM order_items i JOIN products p "
                                     "ON p.product_id = i.product_id WHERE i.order_id = ? ORDER BY i.order_item_id",
                                     (order_id,))]
    returns = [_return(r) for r in ctx.db.execute("SELECT * FROM returns WHERE order_id = ? ORDER BY return_id",
                                                  (order_id,))]
    ship_to = f"{a['label']}: {a['recipient']}, {a['street']}, {a['city']}, {a['region']} {a['postal_code']}"
    return Order(order_id=o["order_id"], placed_at=o["placed_at"], status=o["status"], summary=o["summary"],
                 items=items, address_id=o["address_id"], ship_to=ship_to, payment_method_id=o["payment_method_id"],
                 payment=card, shipping_speed=o["shipping_speed"], subtotal=o["subtotal"], discount=o["discount"],
                 coupon_code=o["coupon_code"], shipping_fee=o["shipping_fee"], store_credit_used=o["store_credit_used"],
                 total_charged=o["total_charged"], estimated_delivery=o["estimated_delivery"], carrier=o["carrier"],
                 tracking_number=o["tracking_number"], shipped_at=o["shipped_at"], delivered_at=o["delivered_at"],
                 cancelled_at=o["cancelled_at"], cancel_reason=o["cancel_reason"], returns=returns)


@server.tool(effect=READ, asks=[
    "Show me my recent orders.",
    "Which of my orders are {status}?",
    "Did I ever order {query}? Look at orders since {since}.",
])
def list_orders(ctx: Ctx, status: Status | None = None, since: date | None = None, query: str | None = None,
                limit: Limit = 20) -> OrderList:
    """List the customer's orders, newest first.

    Args:
        status: only 'placed', 'shipped', 'delivered' or 'cancelled' orders.
        since: only orders placed on or after this date, such as '2026-01-01'.
        query: only orders with a product whose name contains this text, such as 'Yeti'.
        limit: how many to return, 1 to 50 (default 20).

    Returns:
        The orders with status, a one-line summary, item count, amount charged and delivery
        dates, and how many match in all.
    """
    where, args = [], []
    if status is not None:
        where.append("o.status = ?")
        args.append(status)
    if since is not None:
        where.append("o.placed_at >= ?")
        args.append(since.isoformat())
    if query and query.strip():
        where.append("EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id "
                     "AND i.product_name LIKE ? ESCAPE '\\')")
        args.append(like(query.strip()))
    clause = (" WHERE " + " AND ".join(where)) if where else ""
    (total,) = ctx.db.execute(f"SELECT count(*) FROM orders o{clause}", args).fetchone()
    rows = ctx.db.execute(
        f"SELECT o.*, (SELECT sum(quantity) FROM order_items i WHERE i.order_id = o.order_id) AS n FROM orders o"
        f"{clause} ORDER BY o.placed_at DESC, o.order_id DESC LIMIT ?", (*args, limit)).fetchall()
    orders = [OrderSummary(order_id=r["order_id"], placed_at=r["placed_at"], status=r["status"], summary=r["summary"],
                           item_count=r["n"] or 0, total_charged=r["total_charged"],
                           estimated_delivery=r["estimated_delivery"], delivered_at=r["delivered_at"]) for r in rows]
    return OrderList(orders=orders, total=total)


@server.tool(effect=READ, asks=[
    "Where is my order {order_id}?",
    "Show me the details of order {order_id}, including tracking.",
    "Until when can I return the things from order {order_id}?",
])
def get_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Look up one order: items, totals, shipping address, card, tracking and returns.

    Args:
        order_id: ID of the order, such as 'ORD-10001'.

    Returns:
        The order with its items (and for each, units returned and the last day to return it),
        totals, the address and card used, carrier and tracking number, delivery dates and returns.

    Raises:
        not_found: no order has that ID.
    """
    return load_order(ctx, order_id)


@server.tool(effect=WRITE, asks=[
    "Cancel order {order_id}.",
    "Please cancel my order {order_id}, {reason}.",
])
def cancel_order(ctx: Ctx, order_id: OrderId,
                 reason: Annotated[str, Field(max_length=200)] | None = None) -> Order:
    """Cancel an order that has not shipped yet.

    The stock is released, store credit used is given back and a coupon used becomes usable again;
    the card is not charged.

    Args:
        order_id: the order, such as 'ORD-10001'.
        reason: optional reason, such as 'ordered by mistake'.

    Returns:
        The cancelled order.

    Raises:
        not_found: no order has that ID.
        already_shipped: the order has shipped (or been delivered); request a return once it arrives.
        already_cancelled: the order is already cancelled.
    """
    o = fetch(ctx, "order", order_id)
    if o["status"] == "cancelled":
        raise ToolError("already_cancelled", f"Order {order_id} was already cancelled on {o['cancelled_at'][:10]}.")
    if o["status"] in ("shipped", "delivered"):
        raise ToolError("already_shipped", f"Order {order_id} {o['status']} on "
                        f"{(o['shipped_at'] or '')[:10]} and can no longer be cancelled.",
                        hint="Once it is delivered, request a return with request_return.")
    for i in ctx.db.execute("SELECT variant_id, quantity FROM order_items WHERE order_id = ?", (order_id,)).fetchall():
        ctx.db.execute("UPDATE variants SET stock = stock + ? WHERE variant_id = ?", (i["quantity"], i["variant_id"]))
    if o["store_credit_used"]:
        ctx.db.execute("UPDATE customer SET store_credit = round(store_credit + ?, 2)", (o["store_credit_used"],))
    if o["coupon_code"]:
        ctx.db.execute("UPDATE coupons SET used_on = NULL WHERE code = ?", (o["coupon_code"],))
    ctx.db.execute("UPDATE orders SET status = 'cancelled', cancelled_at = ?, cancel_reason = ? WHERE order_id = ?",
                   (ctx.now_iso(), (reason or "").strip() or None, order_id))
    return load_order(ctx, order_id)


@server.tool(effect=WRITE, asks=[
    "I want to return {order_item_id} because it {reason}.",
    "Start a return for {quantity} of order line {order_item_id}, reason: {reason}.",
])
def request_return(ctx: Ctx, order_item_id: OrderItemId, reason: ReturnReason,
                   quantity: Annotated[int, Field(ge=1, le=10)] = 1) -> Return:
    """Request a return of units from a delivered order line, within 30 days of delivery.

    The refund is the units' price less their share of the order's discount.

    Args:
        order_item_id: the order line, such as 'OI-10001' (from get_order).
        reason: "doesn't fit", 'changed my mind', 'defective', 'not as described', 'arrived damaged'
            or 'arrived too late'.
        quantity: units to return, 1 to 10 (default 1).

    Returns:
        The return (status 'requested') with the refund it will give.

    Raises:
        not_found: no order line has that ID.
        not_delivered: the order has not been delivered (or was cancelled).
        not_returnable: the product is final sale.
        return_window_closed: the order was delivered more than 30 days ago.
        exceeds_returnable: more units than the line has left to return.
    """
    item = fetch(ctx, "order_item", order_item_id)
    o = fetch(ctx, "order", item["order_id"])
    if o["status"] != "delivered":
        raise ToolError("not_delivered", f"Order {o['order_id']} is {o['status']}, not delivered; only delivered "
                        "items can be returned.",
                        hint="An order that has not shipped can be cancelled instead (cancel_order)."
                        if o["status"] == "placed" else "Wait for the delivery, then request the return.")
    (returnable,) = ctx.db.execute("SELECT returnable FROM products WHERE product_id = ?",
                                   (item["product_id"],)).fetchone()
    if not returnable:
        raise ToolError("not_returnable", f"{item['product_name']} is final sale and cannot be returned.")
    by = _return_by(o)
    if by is not None and ctx.today() > by:
        raise ToolError("return_window_closed", f"{item['product_name']} was delivered on {o['delivered_at'][:10]}; "
                        f"returns closed on {by.isoformat()}.")
    left = item["quantity"] - _returned(ctx, order_item_id)
    if quantity > left:
        raise ToolError("exceeds_returnable", f"Only {left} of {item['quantity']} unit(s) of "
                        f"{item['product_name']} can still be returned.",
                        hint=f"Ask for {left} or fewer." if left else "Every unit is already returned.")
    share = 1 - o["discount"] / o["subtotal"] if o["subtotal"] else 1.0
    rid = ctx.new_id("RET")
    ctx.db.execute("INSERT INTO returns (return_id, order_id, order_item_id, product_name, quantity, reason, status, "
                   "refund_amount, requested_at, resolved_at) VALUES (?, ?, ?, ?, ?, ?, 'requested', ?, ?, NULL)",
                   (rid, o["order_id"], order_item_id, item["product_name"], quantity, reason,
                    money(item["unit_price"] * quantity * share), ctx.now_iso()))
    return _return(fetch(ctx, "return", rid))


@server.tool(effect=READ, asks=[
    "What returns do I have open?",
    "Show my {status} returns.",
])
def list_returns(ctx: Ctx, status: Literal["requested", "refunded", "cancelled"] | None = None) -> ReturnList:
    """List the customer's returns, newest first.

    Args:
        status: only 'requested', 'refunded' or 'cancelled' returns.

    Returns:
        The returns with product, units, reason, status and refund amount.
    """
    rows = ctx.db.execute("SELECT * FROM returns WHERE (? IS NULL OR status = ?) ORDER BY requested_at DESC",
                          (status, status)).fetchall()
    return ReturnList(returns=[_return(r) for r in rows], total=len(rows))


@server.tool(effect=WRITE, asks=[
    "Cancel my return {return_id}, I'm keeping it.",
    "Never mind return {return_id}, please withdraw it.",
])
def cancel_return(ctx: Ctx, return_id: ReturnId) -> Return:
    """Withdraw a return request that has not been refunded yet.

    Args:
        return_id: the return, such as 'RET-10001'.

    Returns:
        The cancelled return.

    Raises:
        not_found: no return has that ID.
        return_not_cancellable: the return is already refunded or cancelled.
    """
    r = fetch(ctx, "return", return_id)
    if r["status"] != "requested":
        raise ToolError("return_not_cancellable", f"Return {return_id} is {r['status']} and cannot be withdrawn.")
    ctx.db.execute("UPDATE returns SET status = 'cancelled', resolved_at = ? WHERE return_id = ?",
                   (ctx.now_iso(), return_id))
    return _return(fetch(ctx, "return", return_id))


# ----- the warehouse's side: time moving on, and hidden helpers for tests and the pipeline -----------

SHIP_AFTER = timedelta(hours=20)        # an order leaves the warehouse this long after it is placed
REFUND_AFTER = timedelta(days=6)        # a return is received and refunded this long after it is requested
CARRIERS = ("UPS", "FedEx", "USPS")


def _ship(ctx: Ctx, order_id: str, at: datetime) -> None:
    rng = ctx.rng()
    carrier = rng.choice(CARRIERS)
    tracking = {"UPS": "1Z" + "".join(rng.choice("0123456789ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(16)),
                "FedEx": "".join(rng.choice("0123456789") for _ in range(12)),
                "USPS": "9400" + "".join(rng.choice("0123456789") for _ in range(18))}[carrier]
    ctx.db.execute("UPDATE orders SET status = 'shipped', carrier = ?, tracking_number = ?, shipped_at = ? "
                   "WHERE order_id = ?", (carrier, tracking, at.isoformat(timespec="seconds"), order_id))


def move_on(ctx: Ctx, now: datetime) -> None:
    """Everything that has happened by `now`: placed orders ship, shipped orders arrive on their
    estimated delivery date (at 3 pm, a day after shipping at the earliest), returns are refunded."""
    for o in ctx.db.execute("SELECT order_id, placed_at FROM orders WHERE status = 'placed' "
                            "ORDER BY placed_at, order_id").fetchall():
        at = datetime.fromisoformat(o["placed_at"]) + SHIP_AFTER
        if at <= now:
            _ship(ctx, o["order_id"], at)
    for o in ctx.db.execute("SELECT order_id, shipped_at, estimated_delivery FROM orders WHERE status = 'shipped' "
                            "ORDER BY shipped_at, order_id").fetchall():
        at = max(datetime.fromisoformat(o["estimated_delivery"]).replace(hour=15),
                 datetime.fromisoformat(o["shipped_at"]) + timedelta(days=1))
        if at <= now:
            ctx.db.execute("UPDATE orders SET status = 'delivered', delivered_at = ? WHERE order_id = ?",
                           (at.isoformat(timespec="seconds"), o["order_id"]))
    for r in ctx.db.execute("SELECT return_id, requested_at FROM returns WHERE status = 'requested'").fetchall():
        at = datetime.fromisoformat(r["requested_at"]) + REFUND_AFTER
        if at <= now:
            ctx.db.execute("UPDATE returns SET status = 'refunded', resolved_at = ? WHERE return_id = ?",
                           (at.isoformat(timespec="seconds"), r["return_id"]))


@server.tool(effect=WRITE, hidden=True)
def advance_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Move an order one step on now, as the warehouse would: placed to shipped, shipped to delivered.

    Args:
        order_id: the order, such as 'ORD-10001'.

    Returns:
        The order after the step.

    Raises:
        not_found: no order has that ID.
        order_closed: the order is delivered or cancelled.
    """
    o = fetch(ctx, "order", order_id)
    if o["status"] == "placed":
        _ship(ctx, order_id, ctx.now())
    elif o["status"] == "shipped":
        ctx.db.execute("UPDATE orders SET status = 'delivered', delivered_at = ? WHERE order_id = ?",
                       (ctx.now_iso(), order_id))
    else:
        raise ToolError("order_closed", f"Order {order_id} is {o['status']}.")
    return load_order(ctx, order_id)


@server.tool(effect=WRITE, hidden=True)
def process_return(ctx: Ctx, return_id: ReturnId) -> Return:
    """Receive a returned item and refund it, as the warehouse would.

    Args:
        return_id: the return, such as 'RET-10001'.

    Returns:
        The refunded return.

    Raises:
        not_found: no return has that ID.
        return_not_open: the return is already refunded or cancelled.
    """
    r = fetch(ctx, "return", return_id)
    if r["status"] != "requested":
        raise ToolError("return_not_open", f"Return {return_id} is {r['status']}.")
    ctx.db.execute("UPDATE returns SET status = 'refunded', resolved_at = ? WHERE return_id = ?",
                   (ctx.now_iso(), return_id))
    return _return(fetch(ctx, "return", return_id))
