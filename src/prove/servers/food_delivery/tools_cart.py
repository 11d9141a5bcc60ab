"""Carts: one open cart per restaurant, its dishes and its promo code, and how a cart is priced."""

from __future__ import annotations

import sqlite3
from typing import Annotated

from pydantic import Field

from prove.env import READ, WRITE, Ctx, ToolError
from prove.env.values import quote

from .tools import (
    AddressId,
    Cart,
    CartItemId,
    CartLine,
    CartList,
    CartSummary,
    ClearedCart,
    ItemId,
    PromoCode,
    RestaurantId,
    ShortText,
    address_row,
    customer,
    discount_of,
    money,
    promo_error,
    promo_row,
    restaurant_row,
    server,
    zone_for,
)
from .world import MAX_LINE_QUANTITY, SERVICE_FEE_MAX, SERVICE_FEE_MIN, SERVICE_FEE_RATE

Quantity = Annotated[int, Field(ge=1, le=MAX_LINE_QUANTITY)]

# ----- the cart rules, shared with the order tools ---------------------------------------------------

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
    rest = restaurant_row(ctx, restaurant_id)
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
                tax=tax if lines else 0.0, estimated_total=total)


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


def _item(ctx: Ctx, item_id: str):  # noqa: ANN202 - a sqlite3.Row
    row = ctx.db.execute("SELECT * FROM menu_items WHERE item_id = ?", (item_id,)).fetchone()
    if row is None:
        raise ToolError("not_found", f"No menu item has ID {quote(item_id)}.",
                        hint="Find dishes with get_menu or search_dishes; IDs look like 'ITM-10107'.")
    return row


def _nonempty_cart(ctx: Ctx, restaurant_id: str):  # noqa: ANN202 - a sqlite3.Row
    rest = restaurant_row(ctx, restaurant_id)
    cart = cart_row(ctx, restaurant_id)
    if cart is None:
        raise ToolError("cart_empty", f"Your cart at {rest['name']} is empty.",
                        hint="Add dishes first with add_to_cart.")
    return cart


@server.tool(effect=WRITE, asks=[
    "Add {quantity} of {item_id} to my cart.",
    "Put {item_id} in the cart, with the note '{special_instructions}'.",
    "I'd like to order {item_id}, please add it.",
])
def add_to_cart(ctx: Ctx, item_id: ItemId, quantity: Quantity = 1, special_instructions: ShortText | None = None) -> Cart:
    """Add a dish to the cart of its restaurant (each restaurant has its own cart).

    Adding a dish that is already in the cart with the same instructions raises its quantity.

    Args:
        item_id: ID of the menu item, such as 'ITM-10110'.
        quantity: how many, from 1 to 20, such as 2.
        special_instructions: a note for the kitchen, such as 'no wasabi'.

    Returns:
        The restaurant's cart with its lines, subtotal, whether it meets the minimum order, and
        the fees, tax and estimated total for the default address.

    Raises:
        not_found: the menu item does not exist.
        item_unavailable: the dish is sold out right now.
        quantity_limit: the cart line would hold more than 20 of the dish.
    """
    item = _item(ctx, item_id)
    if not item["available"]:
        raise ToolError("item_unavailable", f"{item['name']} ({item_id}) is sold out right now.",
                        hint="Pick another dish from get_menu.")
    cart_id = touch_cart(ctx, item["restaurant_id"])
    add_line(ctx, cart_id, item, quantity, special_instructions or None)
    return cart_model(ctx, item["restaurant_id"])


@server.tool(effect=WRITE, asks=[
    "Change {cart_item_id} to {quantity}.",
    "Remove {cart_item_id} from my cart.",
    "Update the note on {cart_item_id} to '{special_instructions}'.",
])
def update_cart_item(ctx: Ctx, cart_item_id: CartItemId, quantity: Annotated[int, Field(ge=0, le=20)] | None = None,
                     special_instructions: ShortText | None = None) -> Cart:
    """Change the quantity or the kitchen note of one cart line; quantity 0 removes the line.

    Args:
        cart_item_id: ID of the cart line, such as 'CI-10001' (view_cart lists them).
        quantity: the new quantity from 0 to 20; 0 removes the line; omit to keep it.
        special_instructions: the new kitchen note, such as 'extra napkins'; an empty string clears it; omit to keep it.

    Returns:
        The restaurant's cart after the change, priced for the default address (empty once its last line is removed).

    Raises:
        not_found: the cart line does not exist.
    """
    line = ctx.db.execute("SELECT ci.*, c.restaurant_id FROM cart_items ci JOIN carts c ON c.cart_id = ci.cart_id "
                          "WHERE ci.cart_item_id = ?", (cart_item_id,)).fetchone()
    if line is None:
        raise ToolError("not_found", f"No cart line has ID {quote(cart_item_id)}.",
                        hint="See the lines of a cart with view_cart; IDs look like 'CI-10001'.")
    if quantity == 0:
        ctx.db.execute("DELETE FROM cart_items WHERE cart_item_id = ?", (cart_item_id,))
        touch_cart(ctx, line["restaurant_id"])
        drop_cart_if_empty(ctx, line["cart_id"])
        return cart_model(ctx, line["restaurant_id"])
    if quantity is not None:
        ctx.db.execute("UPDATE cart_items SET quantity = ? WHERE cart_item_id = ?", (quantity, cart_item_id))
    if special_instructions is not None:
        ctx.db.execute("UPDATE cart_items SET special_instructions = ? WHERE cart_item_id = ?",
                       (special_instructions or None, cart_item_id))
    touch_cart(ctx, line["restaurant_id"])
    return cart_model(ctx, line["restaurant_id"])


@server.tool(effect=READ, asks=[
    "What's in my cart at {restaurant_id}?",
    "How much would my {restaurant_id} order come to if delivered to {address_id}?",
])
def view_cart(ctx: Ctx, restaurant_id: RestaurantId, address_id: AddressId | None = None) -> Cart:
    """Show the cart at one restaurant, priced for delivery to an address.

    Args:
        restaurant_id: ID of the restaurant, such as 'RST-10025'.
        address_id: saved address to price delivery to, such as 'ADR-10002'; default: the default address.

    Returns:
        The cart's lines (with cart line IDs and whether each dish is still available), the
        subtotal, whether it meets the minimum order, the promo code and its discount (or why it
        does not apply), the delivery fee, service fee, tax and the estimated total before tip.
        A restaurant without a cart gives an empty cart.

    Raises:
        not_found: the restaurant or the address does not exist.
    """
    return cart_model(ctx, restaurant_id, address_id)


@server.tool(effect=READ, asks=[
    "Do I have anything sitting in a cart?",
    "Show all my open carts.",
])
def list_carts(ctx: Ctx) -> CartList:
    """List the customer's open carts, most recently changed first.

    Returns:
        One entry per restaurant with a cart: its item count, food subtotal, promo code and when
        it was last changed.
    """
    carts = []
    for cart in ctx.db.execute("SELECT c.*, r.name FROM carts c JOIN restaurants r ON r.restaurant_id = c.restaurant_id "
                               "ORDER BY c.updated_at DESC, c.cart_id"):
        lines = cart_lines(ctx, cart["cart_id"])
        carts.append(CartSummary(restaurant_id=cart["restaurant_id"], restaurant_name=cart["name"],
                                 item_count=sum(r["quantity"] for r in lines),
                                 subtotal=money(sum(r["quantity"] * r["price"] for r in lines)),
                                 promo_code=cart["promo_code"], updated_at=cart["updated_at"]))
    return CartList(carts=carts, total=len(carts))


@server.tool(effect=WRITE, asks=[
    "Empty my cart at {restaurant_id}.",
    "Clear everything out of the {restaurant_id} cart.",
])
def clear_cart(ctx: Ctx, restaurant_id: RestaurantId) -> ClearedCart:
    """Remove every dish (and the promo code) from the cart at one restaurant.

    Args:
        restaurant_id: ID of the restaurant, such as 'RST-10025'.

    Returns:
        The restaurant and how many cart lines were removed.

    Raises:
        not_found: the restaurant does not exist.
        cart_empty: there is no cart at that restaurant.
    """
    cart = _nonempty_cart(ctx, restaurant_id)
    removed = ctx.db.execute("DELETE FROM cart_items WHERE cart_id = ?", (cart["cart_id"],)).rowcount
    ctx.db.execute("DELETE FROM carts WHERE cart_id = ?", (cart["cart_id"],))
    return ClearedCart(restaurant_id=restaurant_id, restaurant_name=restaurant_row(ctx, restaurant_id)["name"],
                       removed_items=removed)


@server.tool(effect=WRITE, asks=[
    "Apply the code {code} to my {restaurant_id} order.",
    "I have a promo code, {code}. Use it on the cart at {restaurant_id}.",
])
def apply_promo_code(ctx: Ctx, restaurant_id: RestaurantId, code: PromoCode) -> Cart:
    """Apply a promo code to the cart at one restaurant (replacing any code already applied).

    Args:
        restaurant_id: ID of the restaurant whose cart gets the code, such as 'RST-10010'.
        code: the promo code, such as 'SPRING15' (case-insensitive).

    Returns:
        The cart with the code applied and its discount.

    Raises:
        not_found: the restaurant does not exist.
        cart_empty: there is no cart at that restaurant.
        promo_invalid: no promo code is spelled like that.
        promo_expired: today is outside the code's valid dates.
        promo_not_applicable: the code is limited to another restaurant or cuisine.
        promo_already_used: the customer already used the code on an order.
        promo_minimum_not_met: the cart's food subtotal is below the code's minimum.
    """
    cart = _nonempty_cart(ctx, restaurant_id)
    promo = promo_row(ctx, code)
    current = cart_model(ctx, restaurant_id)
    err = promo_error(ctx, promo, restaurant_row(ctx, restaurant_id), current.subtotal)
    if err is not None:
        raise err
    ctx.db.execute("UPDATE carts SET promo_code = ?, updated_at = ? WHERE cart_id = ?",
                   (promo["code"], ctx.now_iso(), cart["cart_id"]))
    return cart_model(ctx, restaurant_id)


@server.tool(effect=WRITE, asks=[
    "Take the promo code off my {restaurant_id} cart.",
    "Remove the discount code from the cart at {restaurant_id}.",
])
def remove_promo_code(ctx: Ctx, restaurant_id: RestaurantId) -> Cart:
    """Remove the promo code from the cart at one restaurant.

    Args:
        restaurant_id: ID of the restaurant, such as 'RST-10010'.

    Returns:
        The cart without a promo code.

    Raises:
        not_found: the restaurant does not exist.
        cart_empty: there is no cart at that restaurant.
        no_promo_applied: the cart has no promo code.
    """
    cart = _nonempty_cart(ctx, restaurant_id)
    if cart["promo_code"] is None:
        raise ToolError("no_promo_applied", "That cart has no promo code applied.")
    ctx.db.execute("UPDATE carts SET promo_code = NULL, updated_at = ? WHERE cart_id = ?",
                   (ctx.now_iso(), cart["cart_id"]))
    return cart_model(ctx, restaurant_id)
