"""Shopping tools for the cart, coupons and checkout."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import money, quote

from .server import (
    EXPRESS_FEE,
    MAX_PER_LINE,
    STANDARD_FEE,
    AddressId,
    CartVariantId,
    CategoryId,
    CouponCode,
    Order,
    PaymentMethodId,
    ProductId,
    SecurityCode,
    VariantId,
    active,
    card_expired,
    load_order,
)
from .world import FREE_SHIPPING_FROM

tools = Toolset("cart")

Quantity = Annotated[int, Field(ge=1, le=MAX_PER_LINE)]


class CartLine(BaseModel):
    variant_id: VariantId
    product_id: ProductId
    product_name: str
    variant_name: str
    unit_price: float
    quantity: int
    line_total: float
    stock: int = Field(description="units of this variant the store has now")
    available: bool = Field(description="false when the store has fewer units than the line asks for")


class Cart(BaseModel):
    items: list[CartLine]
    total: int = Field(description="number of lines in the cart")
    item_count: int = Field(description="number of units in the cart")
    subtotal: float
    coupon_code: CouponCode | None
    coupon_description: str | None
    discount: float
    shipping_fee: float = Field(description="standard shipping for this cart")
    amount_due: float = Field(description="subtotal - discount + standard shipping, before store credit")
    store_credit: float = Field(description="store credit the customer can use at checkout")
    free_shipping_remaining: float = Field(description="spend this much more for free standard shipping")
    warnings: list[str]
    shipping_note: str = Field(description="what standard shipping costs and how far the cart is from free "
                                           "shipping, in words")


class CouponApplied(Cart):
    replaced_coupon: CouponCode | None = Field(description="the coupon this one took the place of, if any")
    replaced_discount: float = Field(description="what the replaced coupon took off this cart")


class Coupon(BaseModel):
    code: CouponCode
    description: str
    kind: Literal["percent", "fixed", "free_shipping"]
    value: float
    min_subtotal: float
    category_id: CategoryId | None
    category: str | None
    expires_on: str
    status: Literal["active", "expired", "used"]
    applied: bool = Field(description="applied to the cart now")


class CouponList(BaseModel):
    coupons: list[Coupon]
    total: int
    coupons_text: str = Field(description="The coupons in words, such as 'SAVE15 ($15 off orders of $75 or more, "
                                          "until April 30, 2026)'.")


def _coupons_text(coupons: list[Coupon], status: str) -> str:
    """'SAVE15 ($15 off orders of $75 or more, until April 30, 2026) and WELCOME10 (10% off your first order, used)';
    a listing of used coupons does not say of each that it was used."""
    def one(c: Coupon) -> str:
        until = date.fromisoformat(c.expires_on)
        day = f"{until:%B} {until.day}, {until.year}"
        state = {"active": f", until {day}", "expired": f", expired {day}",
                 "used": ", used" if status != "used" else ""}[c.status]
        what = c.description[:1].lower() + c.description[1:] if c.description[1:2].islower() else c.description
        return f"{c.code} ({what}{state})"
    named = [one(c) for c in coupons]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1] if named else "no coupons"


@dataclass
class Totals:
    lines: list[sqlite3.Row]
    subtotal: float = 0.0
    coupon: sqlite3.Row | None = None
    problem: ToolError | None = None
    discount: float = 0.0
    free_shipping: bool = False
    warnings: list[str] = field(default_factory=list)

    def shipping(self, speed: str) -> float:
        if speed == "express":
            return EXPRESS_FEE
        return 0.0 if self.free_shipping or self.subtotal - self.discount >= FREE_SHIPPING_FROM else STANDARD_FEE


def coupon_problem(ctx: Ctx, coupon: sqlite3.Row, lines: list[sqlite3.Row], subtotal: float) -> ToolError | None:
    """Why `coupon` cannot be used on these cart lines now, or None."""
    code = coupon["code"]
    if coupon["used_on"]:
        return ToolError("coupon_already_used", f"{code} is single-use and was used on {coupon['used_on']}.",
                         hint="Call list_coupons for coupons that are still active.")
    if coupon["expires_on"] < ctx.today().isoformat():
        return ToolError("coupon_expired", f"{code} expired on {coupon['expires_on']}.",
                         hint="Call list_coupons for coupons that are still active.")
    eligible = _eligible(coupon, lines, subtotal)
    if coupon["category_id"] and eligible <= 0:
        (cat,) = ctx.db.execute("SELECT name FROM categories WHERE category_id = ?",
                                (coupon["category_id"],)).fetchone()
        return ToolError("coupon_not_applicable", f"{code} applies only to {cat} items, and the cart has none.",
                         hint=f"Add a {cat} item first, or use another coupon.")
    if eligible < coupon["min_subtotal"]:
        scope = "of eligible items " if coupon["category_id"] else ""
        return ToolError("minimum_not_met", f"{code} needs a subtotal {scope}of ${coupon['min_subtotal']:.2f}; "
                         f"the cart has ${eligible:.2f}.",
                         hint=f"Add ${coupon['min_subtotal'] - eligible:.2f} more, or use another coupon.")
    return None


def _eligible(coupon: sqlite3.Row, lines: list[sqlite3.Row], subtotal: float) -> float:
    if not coupon["category_id"]:
        return subtotal
    return money(sum(r["price"] * r["quantity"] for r in lines if r["category_id"] == coupon["category_id"]))


def totals(ctx: Ctx) -> Totals:
    lines = ctx.db.execute(
        "SELECT ci.variant_id, ci.quantity, v.product_id, v.name AS variant_name, v.price, v.stock, "
        "p.name AS product_name, p.status, p.category_id FROM cart_items ci "
        "JOIN variants v ON v.variant_id = ci.variant_id JOIN products p ON p.product_id = v.product_id "
        "ORDER BY ci.added_at, ci.variant_id").fetchall()
    t = Totals(lines=lines, subtotal=money(sum(r["price"] * r["quantity"] for r in lines)))
    for r in lines:
        if r["status"] != "active":
            t.warnings.append(f"product_unavailable: {r['product_name']} ({r['variant_name']}) is discontinued.")
        elif r["stock"] < r["quantity"]:
            left = "is out of stock" if r["stock"] == 0 else f"has only {r['stock']} left"
            t.warnings.append(f"out_of_stock: {r['product_name']} ({r['variant_name']}) {left}.")
    (code,) = ctx.db.execute("SELECT coupon_code FROM cart").fetchone()
    if code:
        t.coupon = ctx.get("coupon", code)
        t.problem = coupon_problem(ctx, t.coupon, lines, t.subtotal)
        if t.problem is not None:
            t.warnings.append(f"{t.problem.code}: {t.problem.message}")
        else:
            eligible = _eligible(t.coupon, lines, t.subtotal)
            kind = t.coupon["kind"]
            t.discount = money(eligible * t.coupon["value"] / 100 if kind == "percent"
                               else min(t.coupon["value"], eligible) if kind == "fixed" else 0.0)
            t.free_shipping = kind == "free_shipping"
    return t


def cart_model(ctx: Ctx) -> Cart:
    t = totals(ctx)
    (credit,) = ctx.db.execute("SELECT store_credit FROM customer").fetchone()
    items = [CartLine(variant_id=r["variant_id"], product_id=r["product_id"], product_name=r["product_name"],
                      variant_name=r["variant_name"], unit_price=r["price"], quantity=r["quantity"],
                      line_total=money(r["price"] * r["quantity"]), stock=r["stock"],
                      available=r["status"] == "active" and r["stock"] >= r["quantity"]) for r in t.lines]
    fee = t.shipping("standard") if items else 0.0
    gap = 0.0 if t.free_shipping or not items else max(money(FREE_SHIPPING_FROM - (t.subtotal - t.discount)), 0.0)
    return Cart(items=items, total=len(items), item_count=sum(i.quantity for i in items), subtotal=t.subtotal,
                coupon_code=t.coupon["code"] if t.coupon else None,
                coupon_description=t.coupon["description"] if t.coupon else None, discount=t.discount,
                shipping_fee=fee, amount_due=money(t.subtotal - t.discount + fee), store_credit=credit,
                free_shipping_remaining=gap, warnings=t.warnings,
                shipping_note="there is nothing to ship yet" if not items
                else "standard shipping is free" if fee == 0
                else f"standard shipping is ${fee:.2f}, and ${gap:.2f} more would make it free")


def _stock_check(row: sqlite3.Row, wanted: int) -> None:
    if row["stock"] < wanted:
        left = "is out of stock" if row["stock"] == 0 else f"has only {row['stock']} left"
        raise ToolError("out_of_stock", f"{row['product_name']} ({row['name']}) {left}; {wanted} requested.",
                        hint="Choose another size or colour (get_product), or a smaller quantity."
                        if row["stock"] == 0 else f"Ask for {row['stock']} or fewer.")


def _in_cart(ctx: Ctx, variant_id: str) -> sqlite3.Row:
    row = ctx.db.execute("SELECT ci.quantity, v.*, p.name AS product_name FROM cart_items ci "
                         "JOIN variants v ON v.variant_id = ci.variant_id "
                         "JOIN products p ON p.product_id = v.product_id WHERE ci.variant_id = ?",
                         (variant_id,)).fetchone()
    if row is None:
        raise ToolError("not_in_cart", f"Variant {quote(variant_id)} is not in the cart.",
                        hint="Call view_cart to see the variant IDs in the cart.")
    return row


@tools.tool(effect=READ, asks=[
    "What's in my cart?",
    "How much is my cart going to cost, shipping included?",
    "How much more do I need for free shipping?",
], reply=[
    "Your cart has {result.item_count} items, and ${result.amount_due} is due; {result.shipping_note}.",
    "You have {result.item_count} items in your cart, ${result.amount_due} due with shipping; {result.shipping_note}.",
])
def view_cart(ctx: Ctx) -> Cart:
    """Show the cart: its lines, subtotal, coupon discount, standard shipping and amount due.

    Returns:
        The cart lines (variant, unit price, quantity, stock, whether available), the totals,
        the store credit the customer can use, how much more gives free shipping, and warnings
        (a line out of stock, a coupon that no longer applies).
    """
    return cart_model(ctx)


@tools.tool(effect=WRITE, asks=[
    "Add {product_id} to my cart.",
    "Add {quantity} of {product_id} to my cart.",
    "Put {product_id} in {variant_id} into my cart.",
    "I'll take {product_id}, {quantity} of them, in {variant_id}.",
], reply=[
    Ask("Added {product_id} to your cart; it now holds {result.item_count} items, ${result.amount_due} due.",
        quantity=1),
    Ask("Your cart now holds {product_id}; it comes to ${result.amount_due} with standard shipping.", quantity=1),
    "Added {product_id} to your cart ({quantity} of them); it now holds {result.item_count} items, "
    "${result.amount_due} due.",
    "Done: your cart has {product_id}, {quantity} of them; it comes to ${result.amount_due} with standard shipping.",
])
def add_to_cart(ctx: Ctx, product_id: ProductId, variant_id: VariantId | None = None,
                quantity: Quantity = 1) -> Cart:
    """Add a product to the cart (or more units of a variant already there).

    Args:
        product_id: the product, such as 'PROD-10001'.
        variant_id: the size, colour or format, such as 'VAR-10001'; needed when the product has several.
        quantity: units to add, 1 to 10 (default 1).

    Returns:
        The cart after the change.

    Raises:
        not_found: the product does not exist, or the variant is not one of the product's.
        variant_required: the product has several variants and none was chosen.
        product_unavailable: the product is discontinued.
        out_of_stock: the store has fewer units than the cart would hold.
        quantity_limit: the cart would hold more than 10 units of the variant.
    """
    product = ctx.get("product", product_id)
    options = ctx.db.execute("SELECT variant_id, name, stock FROM variants WHERE product_id = ? ORDER BY variant_id",
                             (product_id,)).fetchall()
    if variant_id is None:
        if len(options) > 1:
            listed = ", ".join(f"{o['variant_id']} ({o['name']}{'' if o['stock'] else ', out of stock'})"
                               for o in options[:12])
            raise ToolError("variant_required", f"{product['name']} comes in several variants: {listed}.",
                            hint="Ask which one the customer wants and pass its variant_id.")
        variant_id = options[0]["variant_id"]
    elif variant_id not in {o["variant_id"] for o in options}:
        raise ToolError("not_found", f"{product['name']} has no variant {quote(variant_id)}.",
                        hint="Call get_product to see the product's variants.")
    if product["status"] != "active":
        raise ToolError("product_unavailable", f"{product['name']} is discontinued and cannot be bought.",
                        hint="Search for a similar product with search_products.")
    row = ctx.db.execute("SELECT v.*, p.name AS product_name FROM variants v JOIN products p "
                         "ON p.product_id = v.product_id WHERE v.variant_id = ?", (variant_id,)).fetchone()
    have = ctx.db.execute("SELECT quantity FROM cart_items WHERE variant_id = ?", (variant_id,)).fetchone()
    wanted = quantity + (have["quantity"] if have else 0)
    _stock_check(row, wanted)
    if wanted > MAX_PER_LINE:
        raise ToolError("quantity_limit", f"At most {MAX_PER_LINE} units of one variant per order; the cart would "
                        f"hold {wanted}.", hint=f"The cart already has {wanted - quantity}.")
    if have:
        ctx.db.execute("UPDATE cart_items SET quantity = ? WHERE variant_id = ?", (wanted, variant_id))
    else:
        ctx.db.execute("INSERT INTO cart_items (variant_id, quantity, added_at) VALUES (?, ?, ?)",
                       (variant_id, quantity, ctx.now_iso()))
    return cart_model(ctx)


@tools.tool(effect=WRITE, asks=[
    "Change the quantity of {variant_id} in my cart to {quantity}.",
    "Set {variant_id} in my cart to {quantity}.",
    "I want {quantity} of {variant_id} in the cart, not what's there now.",
], reply=[
    "The quantity of {variant_id} in your cart is {quantity} now; the total is ${result.amount_due}.",
    "Updated: the quantity of {variant_id} is {quantity} now, ${result.amount_due} due.",
])
def update_cart_item(ctx: Ctx, variant_id: CartVariantId, quantity: Annotated[int, Field(ge=0, le=MAX_PER_LINE)]) -> Cart:
    """Set how many units of a variant the cart holds; 0 removes the line.

    Args:
        variant_id: a variant in the cart, such as 'VAR-10001'.
        quantity: the new number of units, 0 to 10, such as 2.

    Returns:
        The cart after the change.

    Raises:
        not_in_cart: the variant is not in the cart.
        out_of_stock: the store has fewer units than the new, larger quantity.
    """
    row = _in_cart(ctx, variant_id)
    if quantity == 0:
        ctx.db.execute("DELETE FROM cart_items WHERE variant_id = ?", (variant_id,))
    else:
        if quantity > row["quantity"]:
            _stock_check(row, quantity)
        ctx.db.execute("UPDATE cart_items SET quantity = ? WHERE variant_id = ?", (quantity, variant_id))
    return cart_model(ctx)


@tools.tool(effect=WRITE, asks=[
    "Remove {variant_id} from my cart.",
    "Take {variant_id} out of the cart, I don't want it anymore.",
    "Drop {variant_id} from my cart.",
], reply=[
    "Took {variant_id} out of your cart, which now holds {result.item_count} items.",
    "Removed {variant_id}. Your cart now comes to ${result.amount_due}.",
])
def remove_from_cart(ctx: Ctx, variant_id: CartVariantId) -> Cart:
    """Remove a line from the cart.

    Args:
        variant_id: the variant to remove, such as 'VAR-10001'.

    Returns:
        The cart after the change.

    Raises:
        not_in_cart: the variant is not in the cart.
    """
    _in_cart(ctx, variant_id)
    ctx.db.execute("DELETE FROM cart_items WHERE variant_id = ?", (variant_id,))
    return cart_model(ctx)


@tools.tool(effect=READ, asks=[
    "Do I have any coupons?",
    Ask("Which of my coupons have expired?", status="expired"),
    Ask("Show me every coupon on my account, used ones too.", status="all"),
    Ask("What coupons have I already used?", status="used"),
], reply=[
    Ask("Your coupons: {result.coupons_text}.", status="active"),
    Ask("You can still use {result.coupons_text}.", status="active"),
    Ask("Expired: {result.coupons_text}.", status="expired"),
    Ask("You've used {result.coupons_text}.", status="used"),
    Ask("Every coupon on your account: {result.coupons_text}.", status="all"),
])
def list_coupons(ctx: Ctx, status: Literal["active", "expired", "used", "all"] = "active") -> CouponList:
    """List the coupons in the customer's account.

    Args:
        status: 'active' (default: neither expired nor used), 'expired', 'used' or 'all'.

    Returns:
        The coupons with what each gives, minimum spend, category restriction, expiry, status and
        whether it is applied to the cart.
    """
    (applied,) = ctx.db.execute("SELECT coupon_code FROM cart").fetchone()
    today = ctx.today().isoformat()
    out = []
    for r in ctx.db.execute("SELECT c.*, k.name AS category FROM coupons c LEFT JOIN categories k "
                            "ON k.category_id = c.category_id ORDER BY c.expires_on, c.code"):
        state = "used" if r["used_on"] else "expired" if r["expires_on"] < today else "active"
        if status != "all" and state != status:
            continue
        out.append(Coupon(code=r["code"], description=r["description"], kind=r["kind"], value=r["value"],
                          min_subtotal=r["min_subtotal"], category_id=r["category_id"], category=r["category"],
                          expires_on=r["expires_on"], status=state, applied=r["code"] == applied))
    return CouponList(coupons=out, total=len(out), coupons_text=_coupons_text(out, status))


@tools.tool(effect=WRITE, asks=[
    "Apply {code} to my cart.",
    "Can you use my {code}?",
    "Use {code} on what's in my cart.",
], reply=[
    Ask("Applied {code} ({result.coupon_description}); ${result.amount_due} is due now, shipping included.",
        **{"result.replaced_coupon": None}),
    Ask("{code} is on your cart, so ${result.amount_due} is due with shipping.", **{"result.replaced_coupon": None}),
    "{code} is on your cart in place of {result.replaced_coupon}, which took ${result.replaced_discount} off; "
    "${result.amount_due} is due now, shipping included.",
    # (a coupon whose minimum the cart no longer met: not "which took $0.00 off")
    Ask("{code} is on your cart in place of {result.replaced_coupon}, which saved you nothing on this cart; "
        "${result.amount_due} is due now, shipping included.", **{"result.replaced_discount": 0.0}),
])
def apply_coupon(ctx: Ctx, code: CouponCode) -> CouponApplied:
    """Apply a coupon code to the cart, replacing any coupon already applied.

    Args:
        code: the coupon code, such as 'SPRING20' (case-insensitive).

    Returns:
        The cart with the coupon's discount, and the coupon it replaced with what that one took off.

    Raises:
        invalid_coupon: no coupon has that code.
        empty_cart: the cart is empty.
        coupon_already_used: the single-use coupon was already used on an order.
        coupon_expired: the coupon has expired.
        coupon_not_applicable: the coupon is for a category the cart has no items of.
        minimum_not_met: the cart's (eligible) subtotal is below the coupon's minimum.
    """
    coupon = ctx.db.execute("SELECT * FROM coupons WHERE code = ?", (code.strip().upper(),)).fetchone()
    if coupon is None:
        raise ToolError("invalid_coupon", f"{quote(code)} is not a valid coupon code.",
                        hint="Call list_coupons to see the customer's coupons.")
    t = totals(ctx)
    if not t.lines:
        raise ToolError("empty_cart", "The cart is empty; add items before applying a coupon.")
    problem = coupon_problem(ctx, coupon, t.lines, t.subtotal)
    if problem is not None:
        raise problem
    before = cart_model(ctx)
    ctx.db.execute("UPDATE cart SET coupon_code = ?", (coupon["code"],))
    replaced = before.coupon_code if before.coupon_code != coupon["code"] else None
    return CouponApplied(**cart_model(ctx).model_dump(), replaced_coupon=replaced,
                         replaced_discount=before.discount if replaced else 0.0)


@tools.tool(effect=WRITE, asks=[
    "Remove the coupon from my cart.",
    "Take off the promo code, I'll save it for later.",
    "Don't use a coupon on my cart after all.",
], reply=[
    "The coupon is off your cart; ${result.amount_due} is due now.",
    "Removed the coupon. It stays in your account for later.",
])
def remove_coupon(ctx: Ctx) -> Cart:
    """Remove the coupon applied to the cart (it stays in the account for later).

    Returns:
        The cart without a coupon.

    Raises:
        no_coupon: no coupon is applied to the cart.
    """
    (code,) = ctx.db.execute("SELECT coupon_code FROM cart").fetchone()
    if code is None:
        raise ToolError("no_coupon", "No coupon is applied to the cart.")
    ctx.db.execute("UPDATE cart SET coupon_code = NULL")
    return cart_model(ctx)


@tools.tool(effect=WRITE, asks=[
    "Check out and ship to {address_id}, paying with {payment_method_id}; the security code is {security_code}.",
    Ask("Place my order with express shipping to {address_id} using {payment_method_id} (CVV {security_code}).",
        shipping_speed="express"),
    Ask("Buy what's in my cart: send it to {address_id}, charge {payment_method_id}, security code "
        "{security_code}, and use my store credit first.", use_store_credit=True),
    "Order everything in my cart for delivery to {address_id}; bill {payment_method_id}, code {security_code}.",
], reply=[
    "Order {result.order_id} is placed: {result.summary}, ${result.total_charged} charged, arriving by "
    "{result.estimated_delivery}.",
    "Done! Your order {result.order_id} should arrive by {result.estimated_delivery}; the card was charged "
    "${result.total_charged}.",
])
def checkout(ctx: Ctx, address_id: AddressId, payment_method_id: PaymentMethodId, security_code: SecurityCode,
             shipping_speed: Literal["standard", "express"] = "standard", use_store_credit: bool = False) -> Order:
    """Place an order for everything in the cart, shipped to a saved address and paid by a saved card.

    Standard shipping ($5.99) is free from $35 after discounts or with a free-shipping coupon;
    express costs $14.99 and arrives in 2 days instead of 5. Store credit, if used, pays first.
    Stock is reserved, the coupon is used up and the cart is emptied.

    Args:
        address_id: the saved shipping address, such as 'ADDR-10001'.
        payment_method_id: the saved card to charge, such as 'PM-10001'.
        security_code: the card's 3-digit security code (4 digits for American Express), such as '123'.
        shipping_speed: 'standard' (default) or 'express'.
        use_store_credit: pay with the customer's store credit first (default false).

    Returns:
        The new order (status 'placed') with its items, totals, amount charged to the card and
        estimated delivery date.

    Raises:
        empty_cart: the cart is empty.
        not_found: the address or card does not exist or was removed.
        card_expired: the card has expired.
        wrong_security_code: the security code does not match the card.
        product_unavailable: an item in the cart is discontinued.
        out_of_stock: the store has fewer units of an item than the cart holds.
        coupon_expired: the applied coupon has expired since it was applied.
        coupon_not_applicable: the cart no longer has items the applied coupon is for.
        minimum_not_met: the cart's subtotal fell below the applied coupon's minimum.
    """
    t = totals(ctx)
    if not t.lines:
        raise ToolError("empty_cart", "The cart is empty.", hint="Add products with add_to_cart first.")
    active(ctx, "address", address_id)
    card = active(ctx, "payment_method", payment_method_id)
    if card_expired(card, ctx.today()):
        raise ToolError("card_expired", f"{card['nickname']} expired at the end of "
                        f"{card['exp_month']:02d}/{card['exp_year']}.",
                        hint="Use another saved card, or add a new one with add_payment_method.")
    if security_code.strip() != card["security_code"]:
        raise ToolError("wrong_security_code", f"The security code does not match {card['nickname']}.",
                        hint="Ask the customer to check the code on the back of the card.")
    for r in t.lines:
        if r["status"] != "active":
            raise ToolError("product_unavailable", f"{r['product_name']} is discontinued.",
                            hint=f"Remove {r['variant_id']} from the cart with remove_from_cart.")
        if r["stock"] < r["quantity"]:
            left = "is out of stock" if r["stock"] == 0 else f"has only {r['stock']} left"
            raise ToolError("out_of_stock", f"{r['product_name']} ({r['variant_name']}) {left}.",
                            hint=f"Remove {r['variant_id']} or lower its quantity (update_cart_item).")
    if t.problem is not None:
        raise ToolError(t.problem.code, t.problem.message,
                        hint="Remove the coupon with remove_coupon, or fix the cart.")
    fee = t.shipping(shipping_speed)
    due = money(t.subtotal - t.discount + fee)
    (credit,) = ctx.db.execute("SELECT store_credit FROM customer").fetchone()
    from_credit = money(min(credit, due)) if use_store_credit else 0.0
    order_id = ctx.new_id("ORD")
    first = t.lines[0]["product_name"]
    summary = first + (f" and {len(t.lines) - 1} more" if len(t.lines) > 1 else "")
    eta = ctx.today() + timedelta(days=2 if shipping_speed == "express" else 5)
    ctx.db.execute(
        "INSERT INTO orders (order_id, placed_at, status, summary, address_id, payment_method_id, shipping_speed, "
        "subtotal, discount, shipping_fee, store_credit_used, total_charged, coupon_code, estimated_delivery) "
        "VALUES (?, ?, 'placed', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (order_id, ctx.now_iso(), summary, address_id, payment_method_id, shipping_speed, t.subtotal, t.discount, fee,
         from_credit, money(due - from_credit), t.coupon["code"] if t.coupon else None, eta.isoformat()))
    for r in t.lines:
        ctx.db.execute(
            "INSERT INTO order_items (order_item_id, order_id, product_id, variant_id, product_name, variant_name, "
            "unit_price, quantity) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (ctx.new_id("OI"), order_id, r["product_id"], r["variant_id"], r["product_name"], r["variant_name"],
             r["price"], r["quantity"]))
        ctx.db.execute("UPDATE variants SET stock = stock - ? WHERE variant_id = ?", (r["quantity"], r["variant_id"]))
    if t.coupon is not None:
        ctx.db.execute("UPDATE coupons SET used_on = ? WHERE code = ?", (ctx.today().isoformat(), t.coupon["code"]))
    if from_credit:
        ctx.db.execute("UPDATE customer SET store_credit = round(store_credit - ?, 2)", (from_credit,))
    ctx.db.execute("DELETE FROM cart_items")
    ctx.db.execute("UPDATE cart SET coupon_code = NULL")
    return load_order(ctx, order_id)
