"""Orders: checkout, tracking on the simulated clock, cancellation, tips, ratings and reorders."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Literal

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, parse_time

from .server import (
    AddressId,
    Cancellation,
    Comment,
    Limit,
    Order,
    OrderId,
    OrderLine,
    OrderList,
    OrderSummary,
    PaymentMethodId,
    Reorder,
    RestaurantId,
    Review,
    ScheduledOrderId,
    ShortText,
    Stars,
    Tip,
    TipChange,
    add_line,
    address_row,
    card_expired,
    cart_model,
    cart_row,
    customer,
    is_open,
    money,
    next_opening,
    order_status,
    payment_row,
    promo_error,
    rating_of,
    touch_cart,
    zone_for,
)
from .world import (
    CONFIRM_MINUTES,
    COURIERS,
    RATING_WINDOW_DAYS,
    SCHEDULE_MAX_DAYS,
    SCHEDULE_MIN_MINUTES,
    TIP_WINDOW_HOURS,
)

tools = Toolset("orders")

# ----- order status and results, shared with the account tools ---------------------------------------

def order_model(ctx: Ctx, order_id: str) -> Order:
    row = ctx.get("order", order_id)
    status = order_status(row, ctx.now())
    lines = [OrderLine(item_id=r["item_id"], name=r["name"], quantity=r["quantity"], unit_price=r["unit_price"],
                       special_instructions=r["special_instructions"])
             for r in ctx.db.execute("SELECT * FROM order_items WHERE order_id = ? ORDER BY line", (order_id,))]
    label = ctx.db.execute("SELECT label FROM addresses WHERE address_id = ?", (row["address_id"],)).fetchone()
    review = ctx.db.execute("SELECT review_id FROM reviews WHERE order_id = ?", (order_id,)).fetchone()
    return Order(
        order_id=row["order_id"], restaurant_id=row["restaurant_id"], restaurant_name=row["restaurant_name"],
        status=status, placed_at=row["placed_at"], scheduled_for=row["scheduled_for"],
        estimated_delivery=row["delivered_at"], cancelled_at=row["cancelled_at"], cancel_reason=row["cancel_reason"],
        items=lines, subtotal=row["subtotal"], promo_code=row["promo_code"], discount=row["discount"],
        delivery_fee=row["delivery_fee"], service_fee=row["service_fee"], tax=row["tax"], tip=row["tip"],
        total=row["total"], credit_applied=row["credit_applied"], charged=row["charged"], refunded=row["refunded"],
        address_id=row["address_id"], address_label=label["label"], payment_method_id=row["payment_method_id"],
        courier_name=row["courier_name"] if status in ("out_for_delivery", "delivered") else None,
        can_cancel=status in ("placed", "scheduled"), review_id=review["review_id"] if review else None,
        status_text=_status_text(ctx, status, row), ordered_items=_ordered_items(lines),
        total_paid=_total_paid(status, row))


def _clock(ctx: Ctx, text: str) -> str:
    """'9:40 AM' today, 'March 15 at 8:32 PM' on another day, 'December 22, 2025 at 9:47 PM' in another year."""
    at = datetime.fromisoformat(text)
    clock = f"{at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"
    if at.date() == ctx.now().date():
        return clock
    return f"{at:%B} {at.day}" + ("" if at.year == ctx.now().year else f", {at.year}") + f" at {clock}"


def _status_text(ctx: Ctx, status: str, row: sqlite3.Row) -> str:
    """'was delivered March 15 at 8:32 PM', 'is on its way with Sam K., arriving around 9:40 AM'."""
    eta = _clock(ctx, row["delivered_at"])
    return {"delivered": f"was delivered {eta}", "cancelled": "was cancelled",
            "scheduled": f"is scheduled to arrive around {eta}", "placed": f"is placed, arriving around {eta}",
            "preparing": f"is being prepared, arriving around {eta}",
            "out_for_delivery": f"is on its way with {row['courier_name']}, arriving around {eta}"}[status]


def _ordered_items(lines: list[OrderLine]) -> str:
    """'Pho Ga and 2 × Spring Rolls'."""
    said = [line.name if line.quantity == 1 else f"{line.quantity} × {line.name}" for line in lines]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _total_paid(status: str, row: sqlite3.Row) -> str:
    """'$22.67', '$22.67 ($5.00 of it from your credit)', '$22.67, refunded in full when the order was cancelled'
    (a cancelled order refunds all of it)."""
    paid = f"${row['total']:,.2f}"
    if status == "cancelled":
        return f"{paid}, refunded in full when the order was cancelled"
    if row["credit_applied"] > 0:
        return f"{paid} (${row['credit_applied']:,.2f} of it from your credit)"
    return paid


def tip_deadline(row: sqlite3.Row) -> str:
    return iso(datetime.fromisoformat(row["delivered_at"]) + timedelta(hours=TIP_WINDOW_HOURS))


def rating_deadline(row: sqlite3.Row) -> str:
    return iso(datetime.fromisoformat(row["delivered_at"]) + timedelta(days=RATING_WINDOW_DAYS))

def _parse_schedule(ctx: Ctx, value: str) -> datetime:
    when = parse_time(value, "scheduled_for").replace(second=0)
    now = ctx.now()
    if when < now or when - now > timedelta(days=SCHEDULE_MAX_DAYS):
        raise ToolError("invalid_schedule_time", f"{iso(when)} is not between now ({iso(now)}) and "
                        f"{SCHEDULE_MAX_DAYS} days ahead.", hint="Pick a delivery time within the next week.")
    return when


def _courier(order_id: str) -> str:
    n = sum(ord(ch) for ch in order_id)
    return f"{COURIERS[n % len(COURIERS)]} {'ABCDEFGHJKLMNPRSTW'[n % 18]}."


@tools.tool(effect=WRITE, asks=[
    "Check out my cart at {restaurant_id} and send it to {address_id}.",
    "Place the order at {restaurant_id} with a ${tip} tip.",
    "Schedule my {restaurant_id} order for {scheduled_for}, paid with {payment_method_id}.",
    Ask("Order what's in my {restaurant_id} cart, but keep my account credit for later.", use_credit=False),
    "Send my {restaurant_id} order, and tell the courier: {dropoff_instructions}",
], reply=[
    Ask("Order {result.order_id} from {result.restaurant_name} is placed; it should arrive around "
        "{result.estimated_delivery}. Total ${result.total}.", **{"result.credit_applied": 0.0}),
    Ask("Your order from {result.restaurant_name} is in ({result.order_id}), ${result.charged} charged to the card, "
        "arriving around {result.estimated_delivery}.", **{"result.credit_applied": 0.0}),
    "Order {result.order_id} from {result.restaurant_name} is placed; it should arrive around "
    "{result.estimated_delivery}. Total ${result.total}, of which ${result.credit_applied} came off your account "
    "balance.",
    "Your order from {result.restaurant_name} is in ({result.order_id}), arriving around "
    "{result.estimated_delivery}: ${result.credit_applied} came off your account balance and ${result.charged} "
    "went on the card.",
], values={"dropoff_instructions": ["Leave it at the door.", "Ring the bell twice.", "Call when you arrive.",
                                    "Hand it to the front desk.", "Text me when you're outside.",
                                    "Don't knock, the baby is asleep.", "Meet me in the lobby."]},
needs=["add_to_cart"])
def place_order(ctx: Ctx, restaurant_id: RestaurantId, address_id: AddressId | None = None,
                payment_method_id: PaymentMethodId | None = None, tip: Tip = 0.0, scheduled_for: str | None = None,
                use_credit: bool = True, dropoff_instructions: ShortText | None = None) -> Order:
    """Check out the cart at one restaurant: deliver now, or at a scheduled time.

    An order for now needs the restaurant to be open now; a scheduled order needs it to be open
    at the requested delivery time, which must be at least 45 minutes (and enough for the kitchen
    and the courier) and at most 7 days ahead. Account credit pays first unless `use_credit` is
    false; the card pays the rest. The cart is emptied. An order can be cancelled until the
    kitchen starts: 5 minutes after placing, or shortly before a scheduled delivery.

    Args:
        restaurant_id: ID of the restaurant whose cart to order, such as 'RST-10029'.
        address_id: saved address to deliver to, such as 'ADR-10002'; default: the default address.
        payment_method_id: saved card to charge, such as 'PM-10002'; default: the default card.
        tip: tip for the courier in dollars, from 0 to 200, such as 4.0.
        scheduled_for: local delivery time for a scheduled order, such as '2026-03-16T19:30:00'; omit for now.
        use_credit: pay with account credit first (default true).
        dropoff_instructions: a note for the courier, such as 'leave it with the doorman'; default: the address's own note.

    Returns:
        The order with its ID, status, estimated delivery time, items, the price breakdown
        (subtotal, discount, fees, tax, tip, total), what credit and card paid, and whether it
        can still be cancelled.

    Raises:
        not_found: the restaurant, address or card does not exist.
        cart_empty: there is no cart at that restaurant.
        item_unavailable: a dish in the cart is sold out.
        outside_delivery_zone: the restaurant does not deliver to the address's neighborhood.
        below_minimum_order: the food subtotal is below the restaurant's minimum order.
        promo_expired: the cart's promo code is no longer valid.
        promo_not_applicable: the cart's promo code does not work at this restaurant.
        promo_already_used: the cart's promo code was used on another order meanwhile.
        promo_minimum_not_met: the food subtotal is below the cart's promo code minimum.
        payment_method_expired: the card has expired.
        invalid_time: `scheduled_for` is not an ISO 8601 local time (or carries a UTC offset).
        invalid_schedule_time: `scheduled_for` is in the past, too soon or more than 7 days ahead.
        restaurant_closed: the restaurant is closed now (or at the scheduled time).
    """
    rest = ctx.get("restaurant", restaurant_id)
    address = address_row(ctx, address_id)
    card = payment_row(ctx, payment_method_id)
    cart = cart_row(ctx, restaurant_id)
    if cart is None:
        raise ToolError("cart_empty", f"Your cart at {rest['name']} is empty.", hint="Add dishes with add_to_cart.")
    priced = cart_model(ctx, restaurant_id, address["address_id"])
    sold_out = [line for line in priced.items if not line.available]
    if sold_out:
        raise ToolError("item_unavailable", f"{', '.join(line.name for line in sold_out)} sold out since you added it.",
                        hint=f"Remove it with update_cart_item (quantity 0) using {sold_out[0].cart_item_id}.")
    zone = zone_for(ctx, restaurant_id, address["neighborhood"])
    if zone is None:
        raise ToolError("outside_delivery_zone", f"{rest['name']} does not deliver to {address['neighborhood']} "
                        f"('{address['label']}').", hint="Deliver to another saved address (get_restaurant lists "
                        "its delivery zones) or order from another restaurant.")
    if priced.subtotal < rest["minimum_order"]:
        raise ToolError("below_minimum_order", f"{rest['name']} delivers orders of at least "
                        f"${rest['minimum_order']:.2f} of food; the cart has ${priced.subtotal:.2f}.",
                        hint="Add more dishes with add_to_cart.")
    if cart["promo_code"] is not None:
        promo = ctx.db.execute("SELECT * FROM promo_codes WHERE code = ?", (cart["promo_code"],)).fetchone()
        err = promo_error(ctx, promo, rest, priced.subtotal)
        if err is not None:
            raise err
    if card_expired(card, ctx.today()):
        raise ToolError("payment_method_expired", f"{card['nickname']} expired at the end of "
                        f"{card['exp_month']:02d}/{card['exp_year']}.",
                        hint="Pay with another card (list_payment_methods) or add one with add_payment_card.")
    now = ctx.now().replace(second=0, microsecond=0)
    travel = zone["delivery_minutes"]
    if scheduled_for is None:
        if not is_open(ctx, restaurant_id, ctx.now()):
            opens = next_opening(ctx, restaurant_id, ctx.now())
            raise ToolError("restaurant_closed", f"{rest['name']} is closed now ({iso(ctx.now())}).",
                            hint=f"It next opens at {opens}; pass scheduled_for to order for later." if opens
                            else "It does not open in the coming week.")
        prep = now + timedelta(minutes=CONFIRM_MINUTES)
        ready = prep + timedelta(minutes=rest["prep_minutes"])
        delivered = ready + timedelta(minutes=travel)
        scheduled = None
    else:
        when = _parse_schedule(ctx, scheduled_for)
        lead = max(SCHEDULE_MIN_MINUTES, CONFIRM_MINUTES + rest["prep_minutes"] + travel)
        if when < now + timedelta(minutes=lead):
            raise ToolError("invalid_schedule_time", f"The earliest scheduled delivery from {rest['name']} is "
                            f"{iso(now + timedelta(minutes=lead))}.", hint="Pick a later time, or order for now.")
        if not is_open(ctx, restaurant_id, when):
            raise ToolError("restaurant_closed", f"{rest['name']} is closed at {iso(when)}.",
                            hint=f"Its next opening after that is {next_opening(ctx, restaurant_id, when)}.")
        delivered = when
        ready = when - timedelta(minutes=travel)
        prep = ready - timedelta(minutes=rest["prep_minutes"])
        scheduled = iso(when)
    total = money(priced.estimated_total + tip)
    balance = customer(ctx)["credit_balance"]
    credit = money(min(balance, total)) if use_credit else 0.0
    order_id = ctx.new_id("ORD")
    ctx.db.execute(
        "INSERT INTO orders (order_id, restaurant_id, restaurant_name, address_id, payment_method_id, placed_at, "
        "scheduled_for, prep_start_at, ready_at, delivered_at, cancelled_at, cancel_reason, subtotal, promo_code, "
        "discount, delivery_fee, service_fee, tax, tip, total, credit_applied, charged, refunded, "
        "dropoff_instructions, courier_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?, 0, ?, ?)",
        (order_id, restaurant_id, rest["name"], address["address_id"], card["payment_method_id"], ctx.now_iso(),
         scheduled, iso(prep), iso(ready), iso(delivered), priced.subtotal,
         priced.promo_code, priced.discount, priced.delivery_fee, priced.service_fee, priced.tax, money(tip), total,
         credit, money(total - credit), dropoff_instructions or address["instructions"], _courier(order_id)))
    for n, line in enumerate(priced.items, 1):
        ctx.db.execute("INSERT INTO order_items (order_id, line, item_id, name, quantity, unit_price, "
                       "special_instructions) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (order_id, n, line.item_id, line.name, line.quantity, line.unit_price,
                        line.special_instructions))
    ctx.db.execute("DELETE FROM cart_items WHERE cart_id = ?", (cart["cart_id"],))
    ctx.db.execute("DELETE FROM carts WHERE cart_id = ?", (cart["cart_id"],))
    if credit:
        ctx.db.execute("UPDATE customers SET credit_balance = ?", (money(balance - credit),))
    return order_model(ctx, order_id)


@tools.tool(effect=READ, asks=[
    Ask("Where's my food?", status="active"),
    "Show my recent orders.",
    Ask("Which of my orders were delivered?", status="delivered"),
    Ask("Is anything out for delivery right now?", status="out_for_delivery"),
    Ask("What orders do I have scheduled?", status="scheduled"),
    "What have I ordered from {restaurant_id} before?",
], reply=["I found {result.orders_text}."])
def list_orders(ctx: Ctx, status: Literal["active", "scheduled", "placed", "preparing", "out_for_delivery",
                                          "delivered", "cancelled"] | None = None,
                restaurant_id: RestaurantId | None = None, limit: Limit = 10) -> OrderList:
    """List the customer's orders, newest first, with their status right now.

    Args:
        status: only orders in this status; 'active' means not yet delivered or cancelled.
        restaurant_id: only orders from this restaurant, such as 'RST-10010'.
        limit: the most orders to return, from 1 to 100, such as 10.

    Returns:
        The orders with restaurant, status, when placed, (estimated) delivery time, item count,
        total and whether they are rated, and how many matched.

    Raises:
        not_found: the restaurant does not exist.
    """
    if restaurant_id is not None:
        ctx.get("restaurant", restaurant_id)
    sql = ("SELECT o.*, (SELECT sum(quantity) FROM order_items i WHERE i.order_id = o.order_id) AS n, "
           "(SELECT 1 FROM reviews r WHERE r.order_id = o.order_id) AS rated FROM orders o")
    params: list[str] = []
    if restaurant_id is not None:
        sql += " WHERE o.restaurant_id = ?"
        params.append(restaurant_id)
    found = []
    for row in ctx.db.execute(sql + " ORDER BY o.placed_at DESC, o.order_id DESC", params):
        st = order_status(row, ctx.now())
        if status == "active" and st in ("delivered", "cancelled"):
            continue
        if status not in (None, "active") and st != status:
            continue
        found.append(OrderSummary(order_id=row["order_id"], restaurant_id=row["restaurant_id"],
                                  restaurant_name=row["restaurant_name"], status=st, placed_at=row["placed_at"],
                                  estimated_delivery=row["delivered_at"], item_count=row["n"] or 0,
                                  total=row["total"], rated=bool(row["rated"])))
    return OrderList(orders=found[:limit], total=len(found), orders_text=_orders_text(found[:limit], len(found), ctx))


def _orders_text(found: list[OrderSummary], total: int, ctx: Ctx, shown: int = 5) -> str:
    """'2 orders: ORD-10036 from Gangnam BBQ ($73.39), delivered on March 15 at 8:02 PM; ORD-10040
    from Lotus Thai ($31.20), on its way, arriving around 9:40 AM'."""
    state = {"delivered": lambda o: f"delivered on {_clock(ctx, o.estimated_delivery)}",
             "cancelled": lambda o: "cancelled",
             "scheduled": lambda o: f"scheduled to arrive around {_clock(ctx, o.estimated_delivery)}",
             "out_for_delivery": lambda o: f"on its way, arriving around {_clock(ctx, o.estimated_delivery)}"}
    said = [f"{o.order_id} from {o.restaurant_name} (${o.total:,.2f}), "
            + state.get(o.status, lambda o: f"{o.status}, arriving around {_clock(ctx, o.estimated_delivery)}")(o)
            for o in found[:shown]]
    more = f"; and {total - len(said)} more" if total > len(said) else ""
    head = f"{total} order{'' if total == 1 else 's'}{', the latest' if more else ''}"
    return f"{head}: " + "; ".join(said) + more if said else "no orders"


@tools.tool(effect=READ, asks=[
    "What's the status of {order_id}?",
    "What did I order in {order_id}, and what's its status?",
    "How much did I pay in total for {order_id}?",
], reply=[
    "{order_id} from {result.restaurant_name} {result.status_text}.",
    "You ordered {result.ordered_items} from {result.restaurant_name}; the order {result.status_text}.",
    "For {order_id} from {result.restaurant_name} you paid {result.total_paid}.",
])
def get_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Show one order: its status right now, delivery time, items, price breakdown and courier.

    Args:
        order_id: ID of the order, such as 'ORD-10037'.

    Returns:
        The order with status ('scheduled', 'placed', 'preparing', 'out_for_delivery',
        'delivered' or 'cancelled'), estimated or actual delivery time, items, prices, what
        credit and card paid and any refund, the address, the courier once on the way, whether
        it can still be cancelled and its review, if any.

    Raises:
        not_found: the order does not exist.
    """
    return order_model(ctx, order_id)


@tools.tool(effect=WRITE, asks=[
    "Cancel {order_id}.",
    "Please cancel {order_id}, {reason}.",
    "Call off {order_id}; I don't want it anymore.",
], reply=[
    "Cancelled {order_id}: ${result.refunded_to_card} goes back to your card and ${result.refunded_to_credit} "
    "to your credit.",
    "{order_id} is cancelled and refunded in full.",
], values={"reason": ["ordered by mistake", "it's taking too long", "plans changed", "wrong address",
                      "ordered from the wrong place", "no longer hungry"]})
def cancel_order(ctx: Ctx, order_id: ScheduledOrderId, reason: ShortText | None = None) -> Cancellation:
    """Cancel an order before the kitchen starts on it, refunding it in full.

    The card payment goes back to the card and the credit part back to the account credit.

    Args:
        order_id: ID of the order, such as 'ORD-10038'.
        reason: why, such as 'plans changed'.

    Returns:
        The cancelled order's ID, the amounts refunded to the card and to account credit, and
        the new credit balance.

    Raises:
        not_found: the order does not exist.
        order_not_cancellable: the order is already being prepared, on its way, delivered or cancelled.
    """
    row = ctx.get("order", order_id)
    status = order_status(row, ctx.now())
    if status not in ("placed", "scheduled"):
        raise ToolError("order_not_cancellable", f"Order {order_id} is {status.replace('_', ' ')}; only an order "
                        "the kitchen has not started can be cancelled.",
                        hint="Contact the restaurant about problems with an order in progress." if status != "cancelled"
                        else None)
    ctx.db.execute("UPDATE orders SET cancelled_at = ?, cancel_reason = ?, refunded = total WHERE order_id = ?",
                   (ctx.now_iso(), reason or None, order_id))
    balance = money(customer(ctx)["credit_balance"] + row["credit_applied"])
    ctx.db.execute("UPDATE customers SET credit_balance = ?", (balance,))
    return Cancellation(order_id=order_id, status="cancelled", refunded_to_card=row["charged"],
                        refunded_to_credit=row["credit_applied"], credit_balance=balance)


@tools.tool(effect=WRITE, asks=[
    "Change the tip on {order_id} to {tip} dollars.",
    "Please make the tip ${tip} on {order_id}.",
    "Set a ${tip} tip for {order_id}.",
], reply=[
    "The tip on {order_id} is now ${result.tip} (it was ${result.previous_tip}); the total is ${result.total}.",
    "Done, {order_id} now has a ${result.tip} tip.",
])
def update_tip(ctx: Ctx, order_id: OrderId, tip: Tip) -> TipChange:
    """Set a new courier tip on an order, up to 24 hours after it was delivered.

    Args:
        order_id: ID of the order, such as 'ORD-10036'.
        tip: the new tip in dollars, from 0 to 200, such as 6.0.

    Returns:
        The order's previous and new tip, its new total and what the card is charged now.

    Raises:
        not_found: the order does not exist.
        order_cancelled: the order was cancelled.
        tip_window_closed: the order was delivered more than 24 hours ago.
    """
    row = ctx.get("order", order_id)
    status = order_status(row, ctx.now())
    if status == "cancelled":
        raise ToolError("order_cancelled", f"Order {order_id} was cancelled; there is nothing to tip.")
    deadline = tip_deadline(row)
    if status == "delivered" and ctx.now_iso() > deadline:
        raise ToolError("tip_window_closed", f"Order {order_id} was delivered at {row['delivered_at']}; tips can be "
                        f"changed until {deadline}.")
    total = money(row["total"] - row["tip"] + tip)
    credit = row["credit_applied"]
    if credit > total:    # a smaller tip can leave credit unused: it goes back to the account
        ctx.db.execute("UPDATE customers SET credit_balance = credit_balance + ?", (money(credit - total),))
        credit = total
    charged = money(total - credit)
    ctx.db.execute("UPDATE orders SET tip = ?, total = ?, credit_applied = ?, charged = ? WHERE order_id = ?",
                   (money(tip), total, credit, charged, order_id))
    return TipChange(order_id=order_id, previous_tip=row["tip"], tip=money(tip), total=total, charged=charged)


@tools.tool(effect=WRITE, asks=[
    "Give {order_id} {food_rating} stars.",
    "Rate {order_id}: food {food_rating} out of 5, delivery {delivery_rating}, and say '{comment}'.",
    "The food from {order_id} deserves {food_rating} stars; delivery was {delivery_rating}.",
], reply=[
    Ask("Thanks, your {food_rating}-star rating of {order_id} is in.", delivery_rating=None),
    "Thanks, {order_id} is rated: {food_rating} stars for the food and {delivery_rating} for the delivery.",
    "Rated {order_id}; the restaurant now averages {result.restaurant_rating} stars.",
], values={"food_rating, delivery_rating, comment": [
    (5, 5, "Hot and fresh, arrived early."), (5, 4, "Perfectly spicy, will order again."),
    (5, 5, "Driver was friendly and fast."), (4, 5, "Best pad thai in town."),
    (3, 4, "Portions were smaller than usual."), (3, 2, "Missing the extra sauce I asked for."),
    (2, 3, "The fries were soggy."), (2, 1, "Cold by the time it arrived.")]})
def rate_order(ctx: Ctx, order_id: OrderId, food_rating: Stars, delivery_rating: Stars | None = None,
               comment: Comment | None = None) -> Review:
    """Rate a delivered order (once, within 14 days of delivery); the restaurant's rating updates.

    Args:
        order_id: ID of the delivered order, such as 'ORD-10036'.
        food_rating: stars for the food, from 1 to 5, such as 5.
        delivery_rating: stars for the delivery, from 1 to 5, such as 4.
        comment: a short review, such as 'Great ramen, arrived hot'.

    Returns:
        The review with its ID and the restaurant's new average rating and rating count.

    Raises:
        not_found: the order does not exist.
        order_not_delivered: the order has not been delivered (or was cancelled).
        already_rated: the order already has a review.
        rating_window_closed: the order was delivered more than 14 days ago.
    """
    row = ctx.get("order", order_id)
    status = order_status(row, ctx.now())
    if status != "delivered":
        raise ToolError("order_not_delivered", f"Order {order_id} is {status.replace('_', ' ')}; only delivered "
                        "orders can be rated.", hint=f"It arrives around {row['delivered_at']}."
                        if status != "cancelled" else None)
    if ctx.db.execute("SELECT 1 FROM reviews WHERE order_id = ?", (order_id,)).fetchone():
        raise ToolError("already_rated", f"Order {order_id} is already rated; a review cannot be changed.")
    deadline = rating_deadline(row)
    if ctx.now_iso() > deadline:
        raise ToolError("rating_window_closed", f"Order {order_id} was delivered at {row['delivered_at']}; "
                        f"it could be rated until {deadline}.")
    review_id = ctx.new_id("REV")
    ctx.db.execute("INSERT INTO reviews (review_id, order_id, restaurant_id, food_rating, delivery_rating, comment, "
                   "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (review_id, order_id, row["restaurant_id"], food_rating, delivery_rating, comment or None,
                    ctx.now_iso()))
    ctx.db.execute("UPDATE restaurants SET rating_total = rating_total + ?, rating_count = rating_count + 1 "
                   "WHERE restaurant_id = ?", (food_rating, row["restaurant_id"]))
    rest = ctx.get("restaurant", row["restaurant_id"])
    return Review(review_id=review_id, order_id=order_id, restaurant_id=row["restaurant_id"], food_rating=food_rating,
                  delivery_rating=delivery_rating, comment=comment or None, restaurant_rating=rating_of(rest),
                  restaurant_rating_count=rest["rating_count"])


@tools.tool(effect=WRITE, asks=[
    "Reorder {order_id}.",
    "I want the same thing I got in {order_id} again.",
    "Put everything from {order_id} back in my cart.",
], reply=[
    "Added the dishes from {order_id} to your cart again: {result.added}.",
    "The dishes from {order_id} are back in your cart: {result.added}.",
])
def reorder(ctx: Ctx, order_id: OrderId) -> Reorder:
    """Put the dishes of a past order back into that restaurant's cart (then check out with place_order).

    Dishes that are sold out now are skipped; the rest join whatever is already in the cart.

    Args:
        order_id: ID of the past order, such as 'ORD-10036'.

    Returns:
        The restaurant's cart afterwards, the dishes added and the dishes skipped.

    Raises:
        not_found: the order does not exist.
        item_unavailable: every dish of the order is sold out now.
        quantity_limit: a cart line would hold more than 20 of one dish.
    """
    row = ctx.get("order", order_id)
    lines = ctx.db.execute("SELECT oi.*, m.available FROM order_items oi JOIN menu_items m ON m.item_id = oi.item_id "
                           "WHERE oi.order_id = ? ORDER BY oi.line", (order_id,)).fetchall()
    added = [line for line in lines if line["available"]]
    skipped = [line["name"] for line in lines if not line["available"]]
    if not added:
        raise ToolError("item_unavailable", f"Every dish of order {order_id} is sold out right now: "
                        f"{', '.join(skipped)}.", hint="Pick other dishes with get_menu.")
    cart_id = touch_cart(ctx, row["restaurant_id"])
    for line in added:
        item = ctx.db.execute("SELECT * FROM menu_items WHERE item_id = ?", (line["item_id"],)).fetchone()
        add_line(ctx, cart_id, item, line["quantity"], line["special_instructions"])
    return Reorder(cart=cart_model(ctx, row["restaurant_id"]), added=[line["name"] for line in added], skipped=skipped)
