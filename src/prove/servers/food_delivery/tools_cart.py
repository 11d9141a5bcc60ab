"""Carts: one open cart per restaurant, its dishes and its promo code, and how a cart is priced."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import quote

from .server import (
    AddressId,
    Cart,
    EarlierCartItemId,
    CartList,
    CartSummary,
    ClearedCart,
    ItemId,
    PromoCode,
    CartRestaurantId,
    PromoCartRestaurantId,
    RestaurantId,
    ShortText,
    add_line,
    cart_lines,
    cart_model,
    cart_row,
    drop_cart_if_empty,
    money,
    promo_error,
    promo_row,
    touch_cart,
)
from .world import MAX_LINE_QUANTITY

tools = Toolset("cart")

Quantity = Annotated[int, Field(ge=1, le=MAX_LINE_QUANTITY)]


def _nonempty_cart(ctx: Ctx, restaurant_id: str):  # noqa: ANN202 - a sqlite3.Row
    rest = ctx.get("restaurant", restaurant_id)
    cart = cart_row(ctx, restaurant_id)
    if cart is None:
        raise ToolError("cart_empty", f"Your cart at {rest['name']} is empty.",
                        hint="Add dishes first with add_to_cart.")
    return cart


@tools.tool(effect=WRITE, asks=[
    "Add {item_id} to my cart.",
    "Add {quantity} orders of {item_id} to my cart.",
    "Put {item_id} in the cart, with the note '{special_instructions}'.",
], reply=[
    "Added to your {result.restaurant_name} cart; the subtotal is ${result.subtotal}.",
    "Done: your {result.restaurant_name} cart now has {result.item_count} items, ${result.estimated_total} with "
    "fees and tax before the tip.",
], values={"quantity": [2, 2, 3, 4],  # (one is said by leaving the number out: "Add the Pho Tai")
           "special_instructions": ["please pack it separately", "it's for my son, please label it",
                                    "nut allergy, please take care", "put it in its own bag",
                                    "label it for Sam", "please make sure it's sealed well"]})
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
    item = ctx.get("menu_item", item_id)
    if not item["available"]:
        raise ToolError("item_unavailable", f"{item['name']} ({item_id}) is sold out right now.",
                        hint="Pick another dish from get_menu.")
    cart_id = touch_cart(ctx, item["restaurant_id"])
    add_line(ctx, cart_id, item, quantity, special_instructions or None)
    return cart_model(ctx, item["restaurant_id"])


@tools.tool(effect=WRITE, asks=[
    "Change {cart_item_id} to {quantity}.",
    Ask("Remove {cart_item_id} from my cart.", quantity=0),
    "Update the note on {cart_item_id} to '{special_instructions}'.",
    "I'd like {quantity} orders of {cart_item_id} in my cart.",
], reply=[
    Ask("Removed {cart_item_id}; your {result.restaurant_name} subtotal is now ${result.subtotal}.", quantity=0),
    "Changed {cart_item_id} to {quantity}; your {result.restaurant_name} cart has {result.item_count} items, "
    "${result.subtotal} subtotal.",
    "Done: changed {cart_item_id} to {quantity}. Your cart at {result.restaurant_name} has {result.item_count} items "
    "and comes to ${result.estimated_total} with fees and tax, before the tip.",
    Ask("Updated the note on {cart_item_id}; your {result.restaurant_name} cart has {result.item_count} items, "
        "${result.subtotal} subtotal.", quantity=None),
], values={"special_instructions": ["please pack it separately", "it's for my son, please label it",
                                    "nut allergy, please take care", "put it in its own bag",
                                    "label it for Sam", "please make sure it's sealed well"]})
def update_cart_item(ctx: Ctx, cart_item_id: EarlierCartItemId,
                     quantity: Annotated[int, Field(ge=0, le=20)] | None = None,
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


@tools.tool(effect=READ, asks=[
    "What's in my cart at {restaurant_id}?",
    "How much would my {restaurant_id} order come to if delivered to {address_id}?",
    "Does my cart at {restaurant_id} meet the minimum order yet?",
], reply=[
    Ask("Your {result.restaurant_name} cart has {result.items_text} for ${result.subtotal}; {result.notes}. With "
        "fees and tax it comes to ${result.estimated_total} before the tip.", address_id=None),
    "For {address_id}, your {result.restaurant_name} cart ({result.items_text}) comes to "
    "${result.estimated_total} with fees and tax, before the tip; {result.notes}.",
    Ask("{result.restaurant_name} doesn't deliver to {address_id}, so your cart ({result.items_text}, "
        "${result.subtotal} of food) can't be sent there.", **{"result.delivers": False}),
])
def view_cart(ctx: Ctx, restaurant_id: CartRestaurantId, address_id: AddressId | None = None) -> Cart:
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


@tools.tool(effect=READ, asks=[
    "Do I have anything sitting in a cart?",
    "Show all my open carts.",
], reply=[
    "You have {result.carts_text}.",
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
    return CartList(carts=carts, total=len(carts), carts_text=_carts_text(carts))


def _carts_text(carts: list[CartSummary]) -> str:
    """'a cart with 3 items from Sakura Sushi for $25.50 (promo code FREEDEL)', '2 carts: 2 items from The Patty
    Wagon for $21.50; 3 items from Sakura Sushi for $25.50 (promo code FREEDEL)'."""
    def one(c: CartSummary) -> str:
        items = f"{c.item_count} item{'' if c.item_count == 1 else 's'}"
        promo = f" (promo code {c.promo_code})" if c.promo_code else ""
        return f"{items} from {c.restaurant_name} for ${c.subtotal:,.2f}{promo}"
    said = [one(c) for c in carts]
    return ("a cart with " if len(said) == 1 else f"{len(said)} carts: ") + "; ".join(said) if said else "no open carts"


@tools.tool(effect=WRITE, asks=[
    "Empty my cart at {restaurant_id}.",
    "Clear everything out of the {restaurant_id} cart.",
    "Forget my {restaurant_id} order, throw out the cart.",
], reply=[
    "Emptied your cart at {result.restaurant_name}; {result.removed_items} items removed.",
    "Your {result.restaurant_name} cart is clear now.",
], needs=["add_to_cart"])
def clear_cart(ctx: Ctx, restaurant_id: CartRestaurantId) -> ClearedCart:
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
    return ClearedCart(restaurant_id=restaurant_id, restaurant_name=ctx.get("restaurant", restaurant_id)["name"],
                       removed_items=removed)


@tools.tool(effect=WRITE, asks=[
    "Apply the code {code} to my {restaurant_id} order.",
    "Use my {code} on the cart at {restaurant_id}.",
    "Use {code} at {restaurant_id}.",
], reply=[
    "Applied {code} at {result.restaurant_name}: ${result.discount} off.",
    "{code} is on your {result.restaurant_name} cart; the estimated total is ${result.estimated_total}.",
], needs=["add_to_cart"])
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
    err = promo_error(ctx, promo, ctx.get("restaurant", restaurant_id), current.subtotal)
    if err is not None:
        raise err
    if cart["promo_code"] != promo["code"]:  # the code already on the cart stays as it is
        ctx.db.execute("UPDATE carts SET promo_code = ?, updated_at = ? WHERE cart_id = ?",
                       (promo["code"], ctx.now_iso(), cart["cart_id"]))
    return cart_model(ctx, restaurant_id)


@tools.tool(effect=WRITE, asks=[
    "Take the promo code off my {restaurant_id} cart.",
    "Remove the discount code from the cart at {restaurant_id}.",
    "Don't use a promo on my {restaurant_id} order after all.",
], reply=[
    "The promo code is off your {result.restaurant_name} cart.",
    "Removed the code; your {result.restaurant_name} order now comes to ${result.estimated_total} before the "
    "tip.",
])
def remove_promo_code(ctx: Ctx, restaurant_id: PromoCartRestaurantId) -> Cart:
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
