"""Behaviour tests of the shopping server: its world, its main flows and its state-dependent failures.

Every test works on a fresh `Session("shopping", world=0)` and finds what it needs through the
server's own tools (the hidden ones stand in for what the customer knows: card codes, gift cards),
so the tests describe behaviour rather than the particular rows of one world.
"""

from __future__ import annotations

from typing import Any

from prove.env import Session, registry

from .helpers import fails, ok, session_fixture

SERVER = registry.get("shopping")


s = session_fixture("shopping")


def card(s: Session, expired: bool = False) -> tuple[str, str]:
    """A saved card's ID and its security code (which the customer would say)."""
    pm = next(p for p in ok(s, "list_payment_methods")["payment_methods"] if p["expired"] == expired)
    return pm["payment_method_id"], ok(s, "get_payment_secrets", {"payment_method_id": pm["payment_method_id"]})[
        "security_code"]


def home(s: Session) -> str:
    return ok(s, "get_account")["default_address_id"]


def clear_cart(s: Session) -> None:
    """Empty the cart and take off the coupon the world may have put on it."""
    cart = ok(s, "view_cart")
    for item in cart["items"]:
        ok(s, "remove_from_cart", {"variant_id": item["variant_id"]})
    if cart["coupon_code"]:
        ok(s, "remove_coupon")


def stocked(s: Session, min_price: float = 0.0, max_price: float = 100_000.0, multi: bool | None = None,
            category: str | None = None, returnable: bool | None = None, min_stock: int = 5) -> tuple[dict, dict]:
    """An active product and one of its variants with at least `min_stock` units."""
    cats = {c["name"]: c["category_id"] for c in ok(s, "list_categories")["categories"]}
    found = ok(s, "search_products",
               {"in_stock_only": True, "min_price": min_price, "max_price": max_price, "limit": 50,
                                      "sort": "price_low",
                                      "category_id": cats[category] if category else None})["products"]
    for p in found:
        detail = ok(s, "get_product", {"product_id": p["product_id"]})
        if multi is not None and (len(detail["variants"]) > 1) != multi:
            continue
        if returnable is not None and detail["returnable"] != returnable:
            continue
        v = next((v for v in detail["variants"] if v["stock"] >= min_stock and min_price <= v["price"] <= max_price),
                 None)
        if v is not None:
            return detail, v
    raise AssertionError("no such product in the world")


def buy(s: Session, product: dict, variant: dict, quantity: int = 1, **checkout: Any) -> dict:
    """Empty the cart, buy one line and return the order."""
    clear_cart(s)
    ok(s, "add_to_cart",
       {"product_id": product["product_id"], "variant_id": variant["variant_id"], "quantity": quantity})
    pm, code = card(s)
    return ok(s, "checkout", {"address_id": home(s), "payment_method_id": pm, "security_code": code, **checkout})


# ----- the server and its world -----------------------------------------------------------------


def test_server_declares_documented_tools():
    visible = SERVER.visible_tools
    assert len(visible) >= 23
    for tool in visible:
        assert len(tool.asks) >= 2, tool.name
    hidden = {t.name for t in SERVER.tools.values() if t.hidden}
    assert hidden == {"get_payment_secrets", "list_gift_cards", "advance_order", "process_return"}
    assert all(SERVER.tools[n].read_only for n in ("get_payment_secrets", "list_gift_cards"))
    assert SERVER.tools["checkout"].sensitive_params == ("security_code",)
    assert SERVER.tools["add_payment_method"].sensitive_params == ("card_number", "security_code")
    assert SERVER.tools["redeem_gift_card"].sensitive_params == ("code",)
    assert SERVER.tools["checkout"].consumes == {"address", "payment_method"}


def test_world_is_realistic_and_varies_by_seed(s):
    template = SERVER.template(0)
    assert template.size < 250_000
    counts = {t: template.db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in template.tables}
    assert counts["products"] >= 80 and counts["variants"] >= 200 and counts["reviews"] >= 150
    assert counts["customer"] == 1 and counts["orders"] >= 12
    statuses = {o["status"] for o in ok(s, "list_orders", {"limit": 50})["orders"]}
    assert statuses == {"placed", "shipped", "delivered", "cancelled"}
    assert ok(s, "list_categories")["total"] == 10
    coupons = {c["status"] for c in ok(s, "list_coupons", {"status": "all"})["coupons"]}
    assert coupons == {"active", "expired", "used"}
    assert sum(p["expired"] for p in ok(s, "list_payment_methods")["payment_methods"]) == 1
    assert ok(s, "list_gift_cards")["total"] >= 1
    assert ok(s, "view_cart")["total"] >= 2 and ok(s, "get_wishlist")["total"] >= 4
    assert SERVER.build(1).digests != template.digests
    with Session("shopping", world=1) as s1:
        assert ok(s1, "get_account")["name"] != ok(s, "get_account")["name"]


def test_search_filters_and_sorts(s):
    everything = ok(s, "search_products", {"limit": 50})
    assert everything["total"] >= 80
    cheap = ok(s, "search_products",
               {"max_price": 30, "sort": "price_low", "in_stock_only": True, "limit": 50})["products"]
    assert cheap and all(p["price"] <= 30 and p["in_stock"] for p in cheap)
    assert [p["price"] for p in cheap] == sorted(p["price"] for p in cheap)
    rated = ok(s, "search_products", {"min_rating": 4, "sort": "rating", "limit": 50})["products"]
    assert all(p["rating"] >= 4 for p in rated)
    product, _ = stocked(s)
    brand_word = product["brand"].split()[0]
    hits = ok(s, "search_products", {"query": brand_word, "brand_id": product["brand_id"], "limit": 50})["products"]
    assert product["product_id"] in {p["product_id"] for p in hits}
    assert ok(s, "search_products", {"query": "'; DROP TABLE products; --"})["total"] == 0
    reviews = ok(s, "list_reviews", {"product_id": rated[0]["product_id"], "sort": "highest"})
    assert reviews["average_rating"] == rated[0]["rating"]
    fails(s, "search_products", "not_found", {"category_id": "CAT-99999"})


# ----- cart, coupons and checkout ------------------------------------------------------------------


def test_cart_to_order_with_coupon(s):
    clear_cart(s)
    product, variant = stocked(s, min_price=60, multi=True)
    fails(s, "add_to_cart", "variant_required", {"product_id": product["product_id"]})
    cart = ok(s, "add_to_cart",
              {"product_id": product["product_id"], "variant_id": variant["variant_id"], "quantity": 2})
    assert cart["subtotal"] == round(2 * variant["price"], 2) and cart["item_count"] == 2
    cart = ok(s, "apply_coupon", {"code": "spring20"})
    assert cart["coupon_code"] == "SPRING20" and cart["discount"] == round(cart["subtotal"] * 0.2, 2)
    assert cart["shipping_fee"] == 0.0 and cart["amount_due"] == round(cart["subtotal"] - cart["discount"], 2)
    pm, code = card(s)
    fails(s, "checkout", "wrong_security_code",
          {"address_id": home(s), "payment_method_id": pm, "security_code": "000" if code != "000"
                                                 else "111"})
    order = ok(s, "checkout", {"address_id": home(s), "payment_method_id": pm, "security_code": code,
                               "shipping_speed": "express"})
    assert order["status"] == "placed" and order["coupon_code"] == "SPRING20"
    assert order["shipping_fee"] == 14.99 and order["estimated_delivery"] == "2026-03-18"
    assert order["total_charged"] == round(cart["amount_due"] + 14.99, 2)
    assert [(i["variant_id"], i["quantity"]) for i in order["items"]] == [(variant["variant_id"], 2)]
    # later reads see the order, the stock taken, the cart emptied and the coupon used
    assert ok(s, "list_orders", {"limit": 1})["orders"][0]["order_id"] == order["order_id"]
    after = next(v for v in ok(s, "get_product", {"product_id": product["product_id"]})["variants"]
                 if v["variant_id"] == variant["variant_id"])
    assert after["stock"] == variant["stock"] - 2
    assert ok(s, "view_cart")["total"] == 0
    spring = next(c for c in ok(s, "list_coupons", {"status": "all"})["coupons"] if c["code"] == "SPRING20")
    assert spring["status"] == "used"
    ok(s, "add_to_cart", {"product_id": product["product_id"], "variant_id": variant["variant_id"]})
    fails(s, "apply_coupon", "coupon_already_used", {"code": "SPRING20"})
    # cancelling gives back the stock and the coupon
    cancelled = ok(s, "cancel_order", {"order_id": order["order_id"], "reason": "ordered by mistake"})
    assert cancelled["status"] == "cancelled" and cancelled["cancel_reason"] == "ordered by mistake"
    assert next(v for v in ok(s, "get_product", {"product_id": product["product_id"]})["variants"]
                if v["variant_id"] == variant["variant_id"])["stock"] == variant["stock"]
    fails(s, "cancel_order", "already_cancelled", {"order_id": order["order_id"]})
    ok(s, "update_cart_item", {"variant_id": variant["variant_id"], "quantity": 2})
    assert ok(s, "apply_coupon", {"code": "SPRING20"})["discount"] > 0


def test_some_worlds_start_with_a_coupon_on_the_cart():
    carts = {}
    for world in range(12):
        with Session("shopping", world=world) as w:
            carts[world] = ok(w, "view_cart")
    with_coupon = [world for world, cart in carts.items() if cart["coupon_code"]]
    assert 3 <= len(with_coupon) <= 8
    for world in with_coupon:
        cart = carts[world]
        assert cart["discount"] > 0 and not any(x.startswith(("minimum_not_met", "coupon_")) for x in cart["warnings"])
    with Session("shopping", world=with_coupon[0]) as w:
        code = ok(w, "view_cart")["coupon_code"]
        listed = {c["code"]: c for c in ok(w, "list_coupons")["coupons"]}
        assert listed[code]["applied"] and listed[code]["status"] == "active"
        cart = ok(w, "remove_coupon")
        assert cart["coupon_code"] is None and cart["discount"] == 0.0
        assert cart["amount_due"] == round(carts[with_coupon[0]]["amount_due"] + carts[with_coupon[0]]["discount"]
                                           + cart["shipping_fee"] - carts[with_coupon[0]]["shipping_fee"], 2)
        assert code in {c["code"] for c in ok(w, "list_coupons")["coupons"]}
        fails(w, "remove_coupon", "no_coupon")
    with Session("shopping", world=next(x for x in carts if x not in with_coupon)) as w:
        fails(w, "remove_coupon", "no_coupon")
    assert not SERVER.tools["remove_coupon"].needs


def catalogue(s: Session) -> list[dict]:
    """Every product's details (search returns at most 50, so go category by category)."""
    ids = [p["product_id"] for c in ok(s, "list_categories")["categories"]
           for p in ok(s, "search_products", {"category_id": c["category_id"], "limit": 50})["products"]]
    return [ok(s, "get_product", {"product_id": i}) for i in ids]


def test_stock_and_quantity_limits(s):
    clear_cart(s)
    products = [p for p in catalogue(s) if p["status"] == "active"]
    low_p, low = next((p, v) for p in products for v in p["variants"] if 1 <= v["stock"] <= 3)
    fails(s, "add_to_cart", "out_of_stock", {"product_id": low_p["product_id"], "variant_id": low["variant_id"],
                                             "quantity": low["stock"] + 1})
    ok(s, "add_to_cart", {"product_id": low_p["product_id"], "variant_id": low["variant_id"], "quantity": low["stock"]})
    fails(s, "update_cart_item", "out_of_stock", {"variant_id": low["variant_id"], "quantity": low["stock"] + 1})
    out_p, out = next((p, v) for p in products for v in p["variants"] if v["stock"] == 0)
    fails(s, "add_to_cart", "out_of_stock", {"product_id": out_p["product_id"], "variant_id": out["variant_id"]})
    big_p, big = next((p, v) for p in products for v in p["variants"] if v["stock"] >= 11)
    ok(s, "add_to_cart", {"product_id": big_p["product_id"], "variant_id": big["variant_id"], "quantity": 8})
    fails(s, "add_to_cart", "quantity_limit", {"product_id": big_p["product_id"], "variant_id": big["variant_id"],
                                               "quantity": 3})
    other = next(p for p in products if p["product_id"] != big_p["product_id"])
    fails(s, "add_to_cart", "not_found", {"product_id": other["product_id"], "variant_id": big["variant_id"]})
    gone = next(p for p in catalogue(s) if p["status"] == "discontinued")
    fails(s, "add_to_cart", "product_unavailable", {"product_id": gone["product_id"],
                                                    "variant_id": gone["variants"][0]["variant_id"]})
    cart = ok(s, "update_cart_item", {"variant_id": low["variant_id"], "quantity": 0})
    assert low["variant_id"] not in {i["variant_id"] for i in cart["items"]}
    fails(s, "update_cart_item", "not_in_cart", {"variant_id": low["variant_id"], "quantity": 1})
    fails(s, "remove_from_cart", "not_in_cart", {"variant_id": low["variant_id"]})


def test_coupon_rules(s):
    clear_cart(s)
    fails(s, "apply_coupon", "empty_cart", {"code": "SAVE15"})
    cheap, v = stocked(s, max_price=30, category="Office Supplies")
    ok(s, "add_to_cart", {"product_id": cheap["product_id"], "variant_id": v["variant_id"]})
    fails(s, "apply_coupon", "invalid_coupon", {"code": "NOPE2026"})
    fails(s, "apply_coupon", "coupon_expired", {"code": "WINTER30"})
    fails(s, "apply_coupon", "coupon_already_used", {"code": "WELCOME10"})
    fails(s, "apply_coupon", "minimum_not_met", {"code": "SAVE15"})
    category_coupon = next(c for c in ok(s, "list_coupons")["coupons"] if c["category_id"])
    fails(s, "apply_coupon", "coupon_not_applicable", {"code": category_coupon["code"]})
    fails(s, "remove_coupon", "no_coupon")
    cart = ok(s, "apply_coupon", {"code": "FREESHIP"})
    assert cart["shipping_fee"] == 0.0 and cart["discount"] == 0.0
    assert ok(s, "remove_coupon")["shipping_fee"] == 5.99
    # a coupon applied in time expires with the clock, and checkout refuses it
    ok(s, "update_cart_item", {"variant_id": v["variant_id"], "quantity": min(v["stock"], 10)})
    if ok(s, "view_cart")["subtotal"] >= 75:
        ok(s, "apply_coupon", {"code": "SAVE15"})
        s.advance(30 * 86400)
        assert ok(s, "view_cart")["warnings"][-1].startswith("coupon_expired")
        pm, code = card(s)
        fails(s, "checkout", "coupon_expired", {"address_id": home(s), "payment_method_id": pm, "security_code": code})


def test_checkout_failures_depend_on_state(s):
    pm, code = card(s)
    expired, expired_code = card(s, expired=True)
    clear_cart(s)
    fails(s, "checkout", "empty_cart", {"address_id": home(s), "payment_method_id": pm, "security_code": code})
    product, variant = stocked(s)
    ok(s, "add_to_cart", {"product_id": product["product_id"], "variant_id": variant["variant_id"]})
    fails(s, "checkout", "card_expired", {"address_id": home(s), "payment_method_id": expired,
                                          "security_code": expired_code})
    fails(s, "checkout", "not_found", {"address_id": "ADDR-99999", "payment_method_id": pm, "security_code": code})
    # a cart line that went out of stock blocks checkout until it is removed
    for seed in range(1, 12):
        with Session("shopping", world=seed) as other:
            cart = ok(other, "view_cart")
            gone = next((i for i in cart["items"] if not i["available"]), None)
            if gone is None:
                continue
            assert cart["warnings"] and cart["warnings"][0].startswith("out_of_stock")
            opm, ocode = card(other)
            args = {"address_id": home(other), "payment_method_id": opm, "security_code": ocode}
            fails(other, "checkout", "out_of_stock", args)
            ok(other, "remove_from_cart", {"variant_id": gone["variant_id"]})
            assert ok(other, "checkout", args)["status"] == "placed"
            break
    else:
        raise AssertionError("no world with an out-of-stock cart line")


def test_store_credit_and_gift_cards(s):
    gift = ok(s, "list_gift_cards")["gift_cards"][0]
    credit = ok(s, "get_account")["store_credit"]
    r = ok(s, "redeem_gift_card", {"code": gift["code"].lower()})
    assert r["amount"] == gift["amount"] and r["store_credit"] == round(credit + gift["amount"], 2)
    fails(s, "redeem_gift_card", "already_redeemed", {"code": gift["code"]})
    fails(s, "redeem_gift_card", "invalid_gift_card", {"code": "AAAA-BBBB-CCCC-DDDD"})
    assert gift["code"] not in {g["code"] for g in ok(s, "list_gift_cards")["gift_cards"]}
    product, variant = stocked(s, min_price=100)
    order = buy(s, product, variant, use_store_credit=True)
    used = min(r["store_credit"], order["subtotal"] + order["shipping_fee"])
    assert order["store_credit_used"] == round(used, 2)
    assert order["total_charged"] == round(order["subtotal"] + order["shipping_fee"] - used, 2)
    assert ok(s, "get_account")["store_credit"] == round(r["store_credit"] - used, 2)
    ok(s, "cancel_order", {"order_id": order["order_id"]})
    assert ok(s, "get_account")["store_credit"] == r["store_credit"]


# ----- orders, time and returns ----------------------------------------------------------------------


def test_orders_move_on_with_the_clock_and_can_be_returned(s):
    product, variant = stocked(s, returnable=True, min_price=20)
    order = buy(s, product, variant)
    oid = order["order_id"]
    item = order["items"][0]["order_item_id"]
    fails(s, "request_return", "not_delivered", {"order_item_id": item, "reason": "changed my mind"})
    fails(s, "write_review", ("not_purchased", "already_reviewed"),
          {"product_id": product["product_id"], "rating": 5, "title": "Great",
                                                                     "body": "Love it."})
    s.advance(21 * 3600)
    shipped = ok(s, "get_order", {"order_id": oid})
    assert shipped["status"] == "shipped" and shipped["carrier"] and shipped["tracking_number"]
    fails(s, "cancel_order", "already_shipped", {"order_id": oid})
    s.advance(5 * 86400)
    delivered = ok(s, "get_order", {"order_id": oid})
    assert delivered["status"] == "delivered" and delivered["delivered_at"].startswith(order["estimated_delivery"])
    assert delivered["items"][0]["return_by"] is not None
    ret = ok(s, "request_return", {"order_item_id": item, "reason": "arrived damaged"})
    assert ret["status"] == "requested" and ret["refund_amount"] == variant["price"]
    fails(s, "request_return", "exceeds_returnable", {"order_item_id": item, "reason": "defective"})
    assert ok(s, "get_order", {"order_id": oid})["items"][0]["returned_quantity"] == 1
    ok(s, "cancel_return", {"return_id": ret["return_id"]})
    fails(s, "cancel_return", "return_not_cancellable", {"return_id": ret["return_id"]})
    again = ok(s, "request_return", {"order_item_id": item, "reason": "defective"})
    s.advance(7 * 86400)
    assert next(r for r in ok(s, "list_returns")["returns"] if r["return_id"] == again["return_id"])["status"] \
        == "refunded"
    s.advance(30 * 86400)
    fails(s, "request_return", "return_window_closed", {"order_item_id": item, "reason": "defective"})


def test_return_rules_on_past_orders(s):
    delivered = ok(s, "list_orders", {"status": "delivered", "limit": 50})["orders"]
    old = ok(s, "get_order", {"order_id": delivered[-1]["order_id"]})
    fails(s, "request_return", "return_window_closed", {"order_item_id": old["items"][0]["order_item_id"],
                                                        "reason": "changed my mind"})
    shipped = ok(s, "get_order", {"order_id": ok(s, "list_orders", {"status": "shipped"})["orders"][0]["order_id"]})
    fails(s, "request_return", "not_delivered", {"order_item_id": shipped["items"][0]["order_item_id"],
                                                 "reason": "changed my mind"})
    fails(s, "cancel_order", "already_shipped", {"order_id": shipped["order_id"]})
    final_sale, v = stocked(s, category="Beauty & Personal Care", returnable=False)
    order = buy(s, final_sale, v)
    ok(s, "advance_order", {"order_id": order["order_id"]})
    ok(s, "advance_order", {"order_id": order["order_id"]})
    fails(s, "advance_order", "order_closed", {"order_id": order["order_id"]})
    fails(s, "request_return", "not_returnable", {"order_item_id": order["items"][0]["order_item_id"],
                                                  "reason": "changed my mind"})
    open_return = ok(s, "list_returns", {"status": "requested"})["returns"]
    if open_return:
        assert ok(s, "process_return", {"return_id": open_return[0]["return_id"]})["status"] == "refunded"
        fails(s, "cancel_return", "return_not_cancellable", {"return_id": open_return[0]["return_id"]})


def test_reviews_need_a_delivered_purchase(s):
    product, variant = stocked(s, min_price=15)
    mine = ok(s, "list_reviews", {"product_id": product["product_id"], "limit": 50})["reviews"]
    assert not any(r["is_mine"] for r in mine)
    if not ok(s, "list_orders", {"status": "delivered", "query": product["name"]})["total"]:
        fails(s, "write_review", "not_purchased", {"product_id": product["product_id"], "rating": 4, "title": "Nice",
                                                   "body": "Works well."})
    order = buy(s, product, variant)
    ok(s, "advance_order", {"order_id": order["order_id"]})
    ok(s, "advance_order", {"order_id": order["order_id"]})
    review = ok(s, "write_review", {"product_id": product["product_id"], "rating": 4, "title": "Solid choice",
                                    "body": "Does what it promises."})
    assert review["is_mine"] and review["verified"] and review["author"].endswith(".")
    listed = ok(s, "list_reviews", {"product_id": product["product_id"], "sort": "newest", "limit": 50})
    assert listed["reviews"][0]["review_id"] == review["review_id"]
    assert ok(s, "get_product", {"product_id": product["product_id"]})["review_count"] == len(mine) + 1
    fails(s, "write_review", "already_reviewed", {"product_id": product["product_id"], "rating": 1, "title": "x",
                                                  "body": "y"})


# ----- account and wishlist ---------------------------------------------------------------------------


def test_addresses_and_cards(s):
    added = ok(s, "add_address",
               {"label": "Cabin Two", "recipient": "Sam Lee", "street": "12 Lake Road", "city": "Bend",
                                  "region": "OR", "postal_code": "97701", "make_default": True})
    assert added["is_default"] and ok(s, "get_account")["default_address_id"] == added["address_id"]
    fails(s, "add_address", "duplicate_label",
          {"label": "cabin two", "recipient": "X", "street": "1 A St", "city": "B", "region": "OR",
                                                "postal_code": "97701"})
    fails(s, "add_address", "invalid_postal_code",
          {"label": "Office", "recipient": "X", "street": "1 A St", "city": "B", "region": "OR",
                                                    "postal_code": "9770"})
    placed = ok(s, "get_order", {"order_id": ok(s, "list_orders", {"status": "placed"})["orders"][0]["order_id"]})
    fails(s, "delete_address", "address_in_use", {"address_id": placed["address_id"]})
    fails(s, "remove_payment_method", "payment_method_in_use", {"payment_method_id": placed["payment_method_id"]})
    left = ok(s, "delete_address", {"address_id": added["address_id"]})
    assert added["address_id"] not in {a["address_id"] for a in left["addresses"]}
    assert sum(a["is_default"] for a in left["addresses"]) == 1
    fails(s, "delete_address", "not_found", {"address_id": added["address_id"]})

    args = {"exp_month": 8, "exp_year": 2029, "cardholder": "Sam Lee"}
    fails(s, "add_payment_method", "invalid_card_number", {"card_number": "4111 1111 1111 1112", "security_code": "123",
                                                           **args})
    fails(s, "add_payment_method", "invalid_security_code",
          {"card_number": "4111 1111 1111 1111", "security_code": "12",
                                                             **args})
    fails(s, "add_payment_method", "card_expired", {"card_number": "4111 1111 1111 1111", "security_code": "123",
                                                    "exp_month": 1, "exp_year": 2026, "cardholder": "Sam Lee"})
    new = ok(s, "add_payment_method", {"card_number": "4111-1111-1111-1111", "security_code": "123", **args})
    assert new["nickname"] == "Visa ending 1111" and not new["expired"]
    fails(s, "add_payment_method", "duplicate_card", {"card_number": "4111111111111111", "security_code": "123",
                                                      **args})
    product, variant = stocked(s)
    clear_cart(s)
    ok(s, "add_to_cart", {"product_id": product["product_id"], "variant_id": variant["variant_id"]})
    order = ok(s, "checkout",
               {"address_id": home(s), "payment_method_id": new["payment_method_id"], "security_code": "123"})
    assert order["payment"] == "Visa ending 1111"
    expired, _ = card(s, expired=True)
    remaining = ok(s, "remove_payment_method", {"payment_method_id": expired})["payment_methods"]
    assert expired not in {p["payment_method_id"] for p in remaining}
    fails(s, "remove_payment_method", "not_found", {"payment_method_id": expired})


def test_wishlist(s):
    wished = ok(s, "get_wishlist")["items"]
    first = wished[0]["product_id"]
    assert ok(s, "get_product", {"product_id": first})["in_wishlist"]
    fails(s, "add_to_wishlist", "already_in_wishlist", {"product_id": first})
    after = ok(s, "remove_from_wishlist", {"product_id": first})
    assert after["total"] == len(wished) - 1
    fails(s, "remove_from_wishlist", "not_in_wishlist", {"product_id": first})
    assert ok(s, "add_to_wishlist", {"product_id": first})["items"][0]["product_id"] == first
    fails(s, "add_to_wishlist", "not_found", {"product_id": "PROD-99999"})


# ----- what the phrasings and the replies of the reads say ---------------------------------------


def test_sorted_searches_are_asked_of_a_category_or_a_brand():
    """'The newest <one product's name>' makes no sense: a phrasing that binds a sort names no query."""
    for ask in SERVER.tools["search_products"].asks:
        if "sort" in ask.binds:
            assert "query" not in ask.slots and {"category_id", "brand_id"} & set(ask.slots), ask.text


def test_product_detail_says_its_variants_and_return_policy(s):
    seen = set()
    for p in catalogue(s):
        d = ok(s, "get_product", {"product_id": p["product_id"]})
        seen.add(d["returnable"])
        assert d["return_policy"] == ("returnable within 30 days of delivery" if d["returnable"]
                                      else "a final sale, so it can't be returned")
        if d["status"] == "active" and len(d["variants"]) > 1:
            states = {v["in_stock"] for v in d["variants"]}
            for v in d["variants"]:
                said = v["name"] if len(states) == 1 else f"{v['name']} ({'in stock' if v['in_stock'] else 'sold out'})"
                assert said in d["variant_stock"]
            if len(states) == 1:
                assert d["variant_stock"].endswith(", all in stock" if d["variants"][0]["in_stock"] else ", all sold out") \
                    or d["variant_stock"].endswith(("both in stock", "both sold out"))
        elif d["status"] == "active":
            assert d["versions"] == 1 and d["variant_stock"] == ("in stock" if d["in_stock"] else "sold out")
    assert seen == {True, False}


def test_order_progress_says_where_it_is_and_until_when_it_can_be_returned(s):
    orders = ok(s, "list_orders", {"limit": 50})["orders"]
    statuses = set()
    for o in orders:
        d = ok(s, "get_order", {"order_id": o["order_id"]})
        statuses.add(d["status"])
        text = d["progress"]
        if d["status"] == "cancelled":
            assert text.startswith("it was cancelled on ") and "nothing to return" in text
            continue
        start = {"placed": "it's waiting to ship", "shipped": f"it's on its way with {d['carrier']}",
                 "delivered": "it was delivered on "}[d["status"]]
        assert text.startswith(start), text
        if not any(i["returnable"] for i in d["items"]):
            assert "can't be returned" in text
        elif d["status"] == "delivered":
            by = min(i["return_by"] for i in d["items"] if i["return_by"])
            assert ("return it until" in text) == (by >= "2026-03-16"), text
    assert {"placed", "shipped", "delivered", "cancelled"} <= statuses


def test_a_free_shipping_coupon_is_not_reported_as_saving_nothing():
    replies = [r.text for r in SERVER.tools["apply_coupon"].replies]
    assert not any("{result.discount}" in r for r in replies)


def test_review_words_fit_any_product():
    """The product is drawn apart from the words: none names a use ('coffee', 'size') some products lack."""
    for _, title, body in SERVER.tools["write_review"].values["rating, title, body"]:
        assert not any(w in (title + body).lower() for w in ("coffee", "size", "cup", "working", "leak")), title


def test_a_new_address_has_a_city_with_its_state_and_zip():
    tuples = SERVER.tools["add_address"].values["city, region, postal_code"]
    zips = {"OR": "97", "WA": "98", "TX": "78", "CO": "80", "IL": "60", "MA": "02"}
    assert all(z.startswith(zips[r]) for _, r, z in tuples)


def test_cards_and_cart_say_the_default_card_and_the_free_shipping_gap(s):
    cards = ok(s, "list_payment_methods")
    default = next(c for c in cards["payment_methods"] if c["is_default"])
    assert f"{default['nickname']} (your default)" in cards["cards_text"]
    assert all(c["nickname"] in cards["cards_text"] for c in cards["payment_methods"])
    cart = ok(s, "view_cart")
    if cart["shipping_fee"]:
        assert cart["shipping_note"] == (f"standard shipping is ${cart['shipping_fee']:.2f}, and "
                                         f"${cart['free_shipping_remaining']:.2f} more would make it free")
    else:
        assert cart["shipping_note"] == "standard shipping is free"
    clear_cart(s)
    assert ok(s, "view_cart")["shipping_note"] == "there is nothing to ship yet"
