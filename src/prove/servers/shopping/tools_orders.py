"""Shopping tools for orders: history, tracking, cancellation and returns."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import like, money, said_in_part, spoken_day

from .server import (
    DeliveredItemId,
    Limit,
    OpenReturnId,
    Order,
    OrderId,
    PlacedOrderId,
    Return,
    ReturnId,
    ReturnReason,
    Status,
    load_order,
    return_by,
    return_model,
    returned_units,
    ship,
)

tools = Toolset("orders")

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
    orders_text: str = Field(description="The orders in words, such as 'ORD-10010 (Smartwool Merino Wool Sweater "
                                         "and 1 more, $182.90, placed February 15, delivered February 20)'.")


def _orders_text(orders: list[OrderSummary], total: int, status: str | None, today: date) -> str:
    """Each order by number, what it holds, what it cost, when it was placed and (unless the request
    named one status) where it stands."""
    def day(at: str) -> str:
        d = date.fromisoformat(at[:10])
        return f"{d:%B} {d.day}" + ("" if d.year == today.year else f", {d.year}")

    def one(o: OrderSummary) -> str:
        said = [o.summary, f"placed {day(o.placed_at)}"]
        if o.status != "cancelled":  # a cancelled order was never charged
            said.insert(1, f"${o.total_charged:,.2f}")
        if status is None:
            said.append({"placed": "waiting to ship", "shipped": f"on its way, arriving by {day(o.estimated_delivery)}",
                         "delivered": f"delivered {day(o.delivered_at or o.estimated_delivery)}"}.get(o.status, o.status))
        return f"{o.order_id} ({', '.join(said)})"
    return said_in_part([one(o) for o in orders[:5]], total, "no orders")


class ReturnList(BaseModel):
    returns: list[Return]
    total: int
    returns_text: str = Field(description="The returns in words, newest first, such as 'the KONG Classic Dog Toy from "
                                          "order ORD-10013, waiting for its refund since March 14'.")


def _returns_text(returns: list[Return], today: date) -> str:
    """'the KONG Classic Dog Toy from order ORD-10013, waiting for its refund since March 14; 2 × Post-it Sticky
    Notes 12 Pads from order ORD-10007, refunded $17.98'."""
    def one(r: Return) -> str:
        what = f"the {r.product_name}" if r.quantity == 1 else f"{r.quantity} × {r.product_name}"
        state = {"requested": f"waiting for its refund since {spoken_day(r.requested_at, today)}",
                 "refunded": f"refunded ${r.refund_amount:,.2f}", "cancelled": "cancelled"}[r.status]
        return f"{what} from order {r.order_id}, {state}"
    return said_in_part([one(r) for r in returns[:5]], len(returns), "no returns", noun="return")



@tools.tool(effect=READ, asks=[
    "Show me my recent orders.",
    Ask("Which of my orders are still on their way?", status="shipped"),
    Ask("List the orders I've cancelled.", status="cancelled"),
    "Did I ever order {query}? Look at orders since {since}.",
    Ask("What orders are waiting to ship?", status="placed"),
], reply=[
    Ask("Here are your orders, newest first: {result.orders_text}.", status=None),
    Ask("On their way: {result.orders_text}.", status="shipped"),
    Ask("Your cancelled orders: {result.orders_text}.", status="cancelled"),
    Ask("Waiting to ship: {result.orders_text}.", status="placed"),
    Ask("Delivered: {result.orders_text}.", status="delivered"),
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
    where = Where()
    where.eq("o.status", status)
    if since is not None:
        where.add("o.placed_at >= ?", since.isoformat())
    if query and query.strip():
        where.add("EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id "
                  "AND i.product_name LIKE ? ESCAPE '\\')", like(query.strip()))
    total, rows = where.page(ctx.db, "orders o", "o.placed_at DESC, o.order_id DESC", limit,
                             select="o.*, (SELECT sum(quantity) FROM order_items i WHERE i.order_id = o.order_id) AS n")
    orders = [OrderSummary(order_id=r["order_id"], placed_at=r["placed_at"], status=r["status"], summary=r["summary"],
                           item_count=r["n"] or 0, total_charged=r["total_charged"],
                           estimated_delivery=r["estimated_delivery"], delivered_at=r["delivered_at"]) for r in rows]
    return OrderList(orders=orders, total=total, orders_text=_orders_text(orders, total, status, ctx.today()))


@tools.tool(effect=READ, asks=[
    "Where is {order_id}?",
    "Show me the details of {order_id}, including tracking.",
    "Until when can I return the things from {order_id}?",
], reply=[
    "I checked {order_id}: {result.progress}.",
    "Here's where {order_id} stands: {result.progress}.",
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


@tools.tool(effect=WRITE, asks=[
    "Cancel {order_id}.",
    "Please cancel {order_id}, {reason}.",
    "Call off {order_id}; I no longer need it.",
], reply=[
    "{order_id} is cancelled; your card won't be charged.",
    "Done: I cancelled {order_id} and released its items.",
], values={"reason": ["ordered by mistake", "found it cheaper elsewhere", "no longer needed",
                      "wrong size ordered", "it would arrive too late", "ordered twice"]})
def cancel_order(ctx: Ctx, order_id: PlacedOrderId,
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
    o = ctx.get("order", order_id)
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


@tools.tool(effect=WRITE, asks=[
    Ask("I want to return {order_item_id} because it doesn't fit.", reason="doesn't fit",  # a thing one wears
        fits={"order_item_id": "product_id IN (SELECT product_id FROM products JOIN categories USING (category_id) "
                               "WHERE categories.name IN ('Clothing', 'Shoes'))"}),
    Ask("Start a return for {order_item_id}; it arrived damaged.", reason="arrived damaged"),
    Ask("I'd like to send back {order_item_id}; it's defective.", reason="defective"),
    Ask("Return {quantity} of {order_item_id}, I changed my mind.", reason="changed my mind"),
    Ask("Send back {order_item_id}, it's not as described.", reason="not as described"),
], reply=[
    "Return {result.return_id} is open for {order_item_id}; you'll get ${result.refund_amount} back.",
    "I've started return {result.return_id}; the refund will be ${result.refund_amount}.",
])
def request_return(ctx: Ctx, order_item_id: DeliveredItemId, reason: ReturnReason,
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
    item = ctx.get("order_item", order_item_id)
    o = ctx.get("order", item["order_id"])
    if o["status"] != "delivered":
        raise ToolError("not_delivered", f"Order {o['order_id']} is {o['status']}, not delivered; only delivered "
                        "items can be returned.",
                        hint="An order that has not shipped can be cancelled instead (cancel_order)."
                        if o["status"] == "placed" else "Wait for the delivery, then request the return.")
    (returnable,) = ctx.db.execute("SELECT returnable FROM products WHERE product_id = ?",
                                   (item["product_id"],)).fetchone()
    if not returnable:
        raise ToolError("not_returnable", f"{item['product_name']} is final sale and cannot be returned.")
    by = return_by(o)
    if by is not None and ctx.today() > by:
        raise ToolError("return_window_closed", f"{item['product_name']} was delivered on {o['delivered_at'][:10]}; "
                        f"returns closed on {by.isoformat()}.")
    left = item["quantity"] - returned_units(ctx, order_item_id)
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
    return return_model(ctx.get("return", rid))


@tools.tool(effect=READ, asks=[
    "Show my returns.",
    Ask("What returns do I have open?", status="requested"),
    Ask("Which of my returns have been refunded?", status="refunded"),
], reply=[
    "Your returns, newest first: {result.returns_text}.",
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
    returns = [return_model(r) for r in rows]
    return ReturnList(returns=returns, total=len(rows), returns_text=_returns_text(returns, ctx.today()))


def _close_return(ctx: Ctx, return_id: str, status: str, code: str, why: str) -> Return:
    """Close a requested return as `status` now; one already closed is a `code` error."""
    r = ctx.get("return", return_id)
    if r["status"] != "requested":
        raise ToolError(code, f"Return {return_id} is {r['status']}{why}.")
    ctx.db.execute("UPDATE returns SET status = ?, resolved_at = ? WHERE return_id = ?",
                   (status, ctx.now_iso(), return_id))
    return return_model(ctx.get("return", return_id))


@tools.tool(effect=WRITE, asks=[
    "Cancel {return_id}, I'm keeping the item.",
    "Never mind {return_id}, please withdraw it.",
    "Withdraw {return_id}.",
], reply=[
    "Withdrew {return_id}; you keep the {result.product_name}.",
    "Done: {return_id} is cancelled.",
])
def cancel_return(ctx: Ctx, return_id: OpenReturnId) -> Return:
    """Withdraw a return request that has not been refunded yet.

    Args:
        return_id: the return, such as 'RET-10001'.

    Returns:
        The cancelled return.

    Raises:
        not_found: no return has that ID.
        return_not_cancellable: the return is already refunded or cancelled.
    """
    return _close_return(ctx, return_id, "cancelled", "return_not_cancellable", " and cannot be withdrawn")


# ----- hidden helpers: the warehouse's side, for tests and the pipeline -----------------------------

@tools.tool(effect=WRITE, hidden=True)
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
    o = ctx.get("order", order_id)
    if o["status"] == "placed":
        ship(ctx, order_id, ctx.now())
    elif o["status"] == "shipped":
        ctx.db.execute("UPDATE orders SET status = 'delivered', delivered_at = ? WHERE order_id = ?",
                       (ctx.now_iso(), order_id))
    else:
        raise ToolError("order_closed", f"Order {order_id} is {o['status']}.")
    return load_order(ctx, order_id)


@tools.tool(effect=WRITE, hidden=True)
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
    return _close_return(ctx, return_id, "refunded", "return_not_open", "")
