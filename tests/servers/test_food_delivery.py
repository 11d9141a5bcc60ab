"""Behaviour tests of the food delivery server: its main flows and failures on world 0.

Tests find what they need through the tools themselves (the default address, a restaurant open
now, one that opens later today), so they depend on the world's shape, not on its exact IDs.
The clock starts at the epoch, Monday 2026-03-16 09:00: breakfast places are open, most others
are not.
"""

from __future__ import annotations

import pytest

from prove.env import Session, registry

from .helpers import fails, ok, session_fixture

WORLD = 0


SERVER = registry.get("food_delivery")
s = session_fixture("food_delivery")


# ----- finding things through the tools ------------------------------------------------------------

def open_restaurant(s: Session) -> dict:
    """A restaurant open now that delivers to the default address."""
    found = ok(s, "search_restaurants", {"open_now": True, "sort_by": "name"})["restaurants"]
    assert found, "some breakfast place is open at 09:00"
    return found[0]


def later_restaurant(s: Session) -> dict:
    """A restaurant delivering to the default address, closed now but open from lunch to 21:00-23:00 today."""
    for r in ok(s, "search_restaurants", {"sort_by": "name", "limit": 100})["restaurants"]:
        if not r["open_now"] and r["hours_today"] != "closed":
            opens, closes = r["hours_today"].split("-")
            if "09:00" < opens <= "12:00" and "21:00" <= closes <= "23:00":
                return r
    raise AssertionError("no restaurant opens later today")


def fill_cart(s: Session, restaurant_id: str) -> dict:
    """Add the cheapest available dishes until the cart meets the minimum order."""
    items = sorted(ok(s, "get_menu", {"restaurant_id": restaurant_id, "available_only": True})["items"],
                   key=lambda i: (-i["price"], i["item_id"]))
    cart = ok(s, "view_cart", {"restaurant_id": restaurant_id})
    while not cart["meets_minimum"]:
        cart = ok(s, "add_to_cart", {"item_id": items[0]["item_id"], "quantity": 1})
    return cart


def default_address(s: Session) -> dict:
    return next(a for a in ok(s, "list_addresses")["addresses"] if a["is_default"])


def order(s: Session, status: str) -> dict:
    found = ok(s, "list_orders", {"status": status, "limit": 100})["orders"]
    assert found, f"world 0 has a {status} order"
    return found[0]


# ----- the world ------------------------------------------------------------------------------------

def test_world_is_realistic_and_small():
    server = registry.get("food_delivery")
    assert len(server.visible_tools) >= 17
    assert server.template(WORLD).size < 250_000
    with Session("food_delivery", world=WORLD) as s:
        account = ok(s, "get_account")
        assert account["default_address_id"] and account["default_payment_method_id"]
        assert ok(s, "list_orders", {"limit": 1})["total"] >= 20
        assert ok(s, "search_restaurants", {"delivers_only": False, "limit": 1})["total"] >= 30
        assert order(s, "out_for_delivery") and order(s, "scheduled")
    with Session("food_delivery", world=WORLD + 1) as other:
        assert ok(other, "get_account")["name"] != account["name"] or \
            ok(other, "get_account")["city"] != account["city"]


# ----- ordering ---------------------------------------------------------------------------------------

def test_checkout_empties_the_cart_pays_with_credit_and_cancel_refunds(s):
    rest = open_restaurant(s)
    credit = ok(s, "get_account")["credit_balance"]
    cart = fill_cart(s, rest["restaurant_id"])
    assert cart["items"] and cart["estimated_total"] > cart["subtotal"]
    placed = ok(s, "place_order", {"restaurant_id": rest["restaurant_id"], "tip": 4.0})
    assert placed["status"] == "placed" and placed["can_cancel"]
    assert placed["total"] == pytest.approx(cart["estimated_total"] + 4.0)
    assert placed["credit_applied"] == pytest.approx(min(credit, placed["total"]))
    assert placed["charged"] == pytest.approx(placed["total"] - placed["credit_applied"])
    assert ok(s, "get_account")["credit_balance"] == pytest.approx(credit - placed["credit_applied"])
    assert ok(s, "view_cart", {"restaurant_id": rest["restaurant_id"]})["items"] == []
    assert rest["restaurant_id"] not in [c["restaurant_id"] for c in ok(s, "list_carts")["carts"]]
    assert placed["order_id"] in [o["order_id"] for o in ok(s, "list_orders", {"status": "active"})["orders"]]

    cancelled = ok(s, "cancel_order", {"order_id": placed["order_id"], "reason": "plans changed"})
    assert cancelled["refunded_to_credit"] == pytest.approx(placed["credit_applied"])
    assert cancelled["credit_balance"] == pytest.approx(credit)
    assert ok(s, "get_order", {"order_id": placed["order_id"]})["status"] == "cancelled"
    fails(s, "cancel_order", "order_not_cancellable", {"order_id": placed["order_id"]})


def test_status_follows_the_clock_then_rating_and_tips(s):
    rest = open_restaurant(s)
    fill_cart(s, rest["restaurant_id"])
    placed = ok(s, "place_order", {"restaurant_id": rest["restaurant_id"], "tip": 2.0})
    oid = placed["order_id"]
    fails(s, "rate_order", "order_not_delivered", {"order_id": oid, "food_rating": 5})
    s.advance(10 * 60)
    assert ok(s, "get_order", {"order_id": oid})["status"] == "preparing"
    fails(s, "cancel_order", "order_not_cancellable", {"order_id": oid})
    s.advance(rest["estimated_minutes"] * 60)
    got = ok(s, "get_order", {"order_id": oid})
    assert got["status"] in ("out_for_delivery", "delivered") and got["courier_name"]
    s.advance(60 * 60)
    assert ok(s, "get_order", {"order_id": oid})["status"] == "delivered"

    before = ok(s, "get_restaurant", {"restaurant_id": rest["restaurant_id"]})["rating_count"]
    review = ok(s, "rate_order", {"order_id": oid, "food_rating": 5, "delivery_rating": 4, "comment": "Hot and fast"})
    assert review["restaurant_rating_count"] == before + 1
    assert ok(s, "get_order", {"order_id": oid})["review_id"] == review["review_id"]
    fails(s, "rate_order", "already_rated", {"order_id": oid, "food_rating": 1})

    tip = ok(s, "update_tip", {"order_id": oid, "tip": 7.5})
    assert tip["previous_tip"] == 2.0 and tip["total"] == pytest.approx(placed["total"] + 5.5)
    s.advance(25 * 3600)
    fails(s, "update_tip", "tip_window_closed", {"order_id": oid, "tip": 9.0})


def test_closed_restaurant_can_only_be_scheduled_while_open(s):
    rest = later_restaurant(s)
    fill_cart(s, rest["restaurant_id"])
    err = fails(s, "place_order", "restaurant_closed", {"restaurant_id": rest["restaurant_id"]})
    assert "opens" in err["hint"]
    fails(s, "place_order", "invalid_schedule_time", {"restaurant_id": rest["restaurant_id"],
                                                      "scheduled_for": "2026-03-16T09:20:00"})
    fails(s, "place_order", "invalid_time", {"restaurant_id": rest["restaurant_id"], "scheduled_for": "tonight"})
    fails(s, "place_order", "invalid_time", {"restaurant_id": rest["restaurant_id"],
                                             "scheduled_for": "2026-03-16T13:00:00Z"})
    fails(s, "place_order", "restaurant_closed", {"restaurant_id": rest["restaurant_id"],
                                                  "scheduled_for": "2026-03-16T23:30:00"})
    placed = ok(s, "place_order", {"restaurant_id": rest["restaurant_id"], "scheduled_for": "2026-03-16T13:00:00"})
    assert placed["status"] == "scheduled" and placed["estimated_delivery"] == "2026-03-16T13:00:00"
    assert placed["can_cancel"]
    s.advance(3 * 3600 + 50 * 60)        # 12:50: the kitchen has started
    assert ok(s, "get_order", {"order_id": placed["order_id"]})["status"] in ("preparing", "out_for_delivery")
    fails(s, "cancel_order", "order_not_cancellable", {"order_id": placed["order_id"]})


def test_world_orders_in_progress(s):
    moving = order(s, "out_for_delivery")
    fails(s, "cancel_order", "order_not_cancellable", {"order_id": moving["order_id"]})
    fails(s, "rate_order", "order_not_delivered", {"order_id": moving["order_id"], "food_rating": 4})
    scheduled = order(s, "scheduled")
    assert ok(s, "cancel_order", {"order_id": scheduled["order_id"]})["refunded_to_card"] > 0
    old = [o for o in ok(s, "list_orders", {"status": "delivered", "limit": 100})["orders"] if not o["rated"]][-1]
    fails(s, "rate_order", "rating_window_closed", {"order_id": old["order_id"], "food_rating": 3})
    fails(s, "update_tip", "tip_window_closed", {"order_id": old["order_id"], "tip": 3.0})


# ----- carts ----------------------------------------------------------------------------------------------

def test_cart_rules(s):
    rest = open_restaurant(s)
    rid = rest["restaurant_id"]
    menu = ok(s, "get_menu", {"restaurant_id": rid})["items"]
    cheap = min((i for i in menu if i["available"]), key=lambda i: i["price"])
    cart = ok(s, "add_to_cart", {"item_id": cheap["item_id"], "quantity": 1, "special_instructions": "no ice"})
    if not cart["meets_minimum"]:
        fails(s, "place_order", "below_minimum_order", {"restaurant_id": rid})
    line = cart["items"][0]
    fails(s, "add_to_cart", "quantity_limit",
          {"item_id": cheap["item_id"], "quantity": 20, "special_instructions": "no ice"})
    cart = ok(s, "update_cart_item", {"cart_item_id": line["cart_item_id"], "quantity": 3})
    assert cart["items"][0]["quantity"] == 3 and cart["subtotal"] == pytest.approx(3 * cheap["price"])
    cart = ok(s, "update_cart_item", {"cart_item_id": line["cart_item_id"], "quantity": 0})
    assert cart["items"] == [] and cart["item_count"] == 0
    fails(s, "update_cart_item", "not_found", {"cart_item_id": line["cart_item_id"], "quantity": 1})
    fails(s, "clear_cart", "cart_empty", {"restaurant_id": rid})
    fails(s, "place_order", "cart_empty", {"restaurant_id": rid})

    sold_out = next(i for r in ok(s, "search_restaurants", {"delivers_only": False, "limit": 100})["restaurants"]
                    for i in ok(s, "get_menu", {"restaurant_id": r["restaurant_id"]})["items"] if not i["available"])
    fails(s, "add_to_cart", "item_unavailable", {"item_id": sold_out["item_id"]})
    fails(s, "add_to_cart", "not_found", {"item_id": "ITM-99999"})


def test_outside_delivery_zone(s):
    home = default_address(s)
    addresses = ok(s, "list_addresses")["addresses"]
    for r in ok(s, "search_restaurants", {"open_now": True, "delivers_only": False, "limit": 100})["restaurants"]:
        zones = {z["neighborhood"] for z in ok(s, "get_restaurant",
                                               {"restaurant_id": r["restaurant_id"]})["delivery_zones"]}
        away = [a for a in addresses if a["neighborhood"] not in zones]
        if away:
            fill_cart(s, r["restaurant_id"])
            fails(s, "place_order", "outside_delivery_zone", {"restaurant_id": r["restaurant_id"],
                                                              "address_id": away[0]["address_id"]})
            quote = ok(s, "view_cart", {"restaurant_id": r["restaurant_id"], "address_id": away[0]["address_id"]})
            assert not quote["delivers"] and quote["delivery_fee"] is None
            return
    pytest.skip(f"every open restaurant delivers to all addresses (home {home['neighborhood']})")


def test_reorder_refills_the_cart(s):
    past = order(s, "delivered")
    detail = ok(s, "get_order", {"order_id": past["order_id"]})
    result = ok(s, "reorder", {"order_id": past["order_id"]})
    assert result["cart"]["restaurant_id"] == detail["restaurant_id"]
    assert set(result["added"]) | set(result["skipped"]) == {line["name"] for line in detail["items"]}
    assert {line["name"] for line in result["cart"]["items"]} >= set(result["added"])
    assert ok(s, "clear_cart", {"restaurant_id": detail["restaurant_id"]})["removed_items"] >= len(set(result["added"]))


# ----- promo codes ------------------------------------------------------------------------------------------

def test_promo_codes(s):
    rest = open_restaurant(s)
    rid = rest["restaurant_id"]
    fails(s, "apply_promo_code", "cart_empty", {"restaurant_id": rid, "code": "SPRING15"})
    fill_cart(s, rid)
    fails(s, "apply_promo_code", "promo_invalid", {"restaurant_id": rid, "code": "FREEFOOD"})
    fails(s, "apply_promo_code", "promo_already_used", {"restaurant_id": rid, "code": "WELCOME10"})
    fails(s, "apply_promo_code", "promo_expired", {"restaurant_id": rid, "code": "WINTER20"})
    elsewhere = next(p for p in ok(s, "list_promotions")["promotions"]
                     if p["restaurant_id"] not in (None, rid))
    fails(s, "apply_promo_code", "promo_not_applicable", {"restaurant_id": rid, "code": elsewhere["code"]})
    fails(s, "remove_promo_code", "no_promo_applied", {"restaurant_id": rid})

    cart = ok(s, "view_cart", {"restaurant_id": rid})
    while cart["subtotal"] < 25:
        cart = ok(s, "update_cart_item", {"cart_item_id": cart["items"][0]["cart_item_id"],
                                          "quantity": cart["items"][0]["quantity"] + 1})
    cart = ok(s, "apply_promo_code", {"restaurant_id": rid, "code": "spring15"})
    assert cart["promo_code"] == "SPRING15"
    assert cart["discount"] == pytest.approx(min(cart["subtotal"] * 0.15, 12.0), abs=0.006)
    placed = ok(s, "place_order", {"restaurant_id": rid})
    assert placed["discount"] == cart["discount"] and placed["promo_code"] == "SPRING15"
    fill_cart(s, rid)
    fails(s, "apply_promo_code", "promo_already_used", {"restaurant_id": rid, "code": "SPRING15"})
    assert "SPRING15" not in [p["code"] for p in ok(s, "list_promotions")["promotions"]]
    ok(s, "cancel_order", {"order_id": placed["order_id"]})      # a cancelled order gives the code back
    assert "SPRING15" in [p["code"] for p in ok(s, "list_promotions")["promotions"]]


def test_some_worlds_start_with_a_promo_code_on_the_cart():
    carts = {}
    for world in range(12):
        with Session("food_delivery", world=world) as w:
            (cart,) = ok(w, "list_carts")["carts"]
            carts[world] = cart
    with_code = [world for world, cart in carts.items() if cart["promo_code"]]
    assert 3 <= len(with_code) <= 8
    where = SERVER.tools["remove_promo_code"].params[0].where
    for world in (with_code[0], next(x for x in carts if x not in with_code)):
        with Session("food_delivery", world=world) as w:
            rid = carts[world]["restaurant_id"]
            assert w.satisfies("restaurant", rid, where) == (world in with_code)
            before = ok(w, "view_cart", {"restaurant_id": rid})
            if world not in with_code:
                fails(w, "remove_promo_code", "no_promo_applied", {"restaurant_id": rid})
                continue
            # applied after the cart was filled last night, and it fits the cart as it stands
            assert "2026-03-15T22:10:00" < carts[world]["updated_at"] < "2026-03-15T22:20:00"
            assert before["promo_problem"] is None and before["discount"] > 0
            after = ok(w, "remove_promo_code", {"restaurant_id": rid})
            assert after["promo_code"] is None and after["discount"] == 0.0
            assert after["estimated_total"] > before["estimated_total"]
            assert not w.satisfies("restaurant", rid, where)
            fails(w, "remove_promo_code", "no_promo_applied", {"restaurant_id": rid})
    assert not SERVER.tools["remove_promo_code"].needs


def test_promo_minimum(s):
    rest = open_restaurant(s)
    rid = rest["restaurant_id"]
    cart = fill_cart(s, rid)
    if cart["subtotal"] >= 25:
        pytest.skip("the minimum order already meets the promo minimum")
    fails(s, "apply_promo_code", "promo_minimum_not_met", {"restaurant_id": rid, "code": "SPRING15"})


# ----- account ------------------------------------------------------------------------------------------------

def test_cards_and_gift_cards(s):
    expired = next(c for c in ok(s, "list_payment_methods")["payment_methods"] if c["expired"])
    fails(s, "set_default_payment_method", "payment_method_expired",
          {"payment_method_id": expired["payment_method_id"]})
    rest = open_restaurant(s)
    fill_cart(s, rest["restaurant_id"])
    fails(s, "place_order", "payment_method_expired", {"restaurant_id": rest["restaurant_id"],
                                                       "payment_method_id": expired["payment_method_id"]})

    secrets = ok(s, "get_user_secrets")
    card = secrets["wallet_cards"][0]
    fails(s, "add_payment_card", "invalid_card",
          {"card_number": "4111 1111 1111 1112", "expiry": "06/29", "cvv": "123"})
    fails(s, "add_payment_card", "card_expired",
          {"card_number": "4111 1111 1111 1111", "expiry": "02/26", "cvv": "123"})
    fails(s, "add_payment_card", "invalid_card",
          {"card_number": card["card_number"], "expiry": "13/29", "cvv": card["cvv"]})
    saved = ok(s, "add_payment_card", {"card_number": card["card_number"], "expiry": card["expiry"], "cvv": card["cvv"],
                                       "make_default": True})
    assert saved["last4"] == card["card_number"][-4:] and saved["is_default"]
    assert ok(s, "get_account")["default_payment_method_id"] == saved["payment_method_id"]
    fails(s, "add_payment_card", "duplicate_card", {"card_number": card["card_number"], "expiry": card["expiry"],
                                                    "cvv": card["cvv"]})

    gift = next(g for g in secrets["gift_cards"] if not g["redeemed"])
    used = next(g for g in secrets["gift_cards"] if g["redeemed"])
    credit = ok(s, "get_account")["credit_balance"]
    redeemed = ok(s, "redeem_gift_card", {"code": gift["code"].lower()})
    assert redeemed["credit_balance"] == pytest.approx(credit + gift["amount"])
    fails(s, "redeem_gift_card", "gift_card_already_redeemed", {"code": gift["code"]})
    fails(s, "redeem_gift_card", "gift_card_already_redeemed", {"code": used["code"]})
    fails(s, "redeem_gift_card", "gift_card_invalid", {"code": "NOPE-NOPE-NOPE"})


def test_addresses(s):
    home = default_address(s)
    hoods = ok(s, "list_addresses")["neighborhoods"]
    fails(s, "add_address", "unknown_neighborhood",
          {"label": "Gym", "street": "12 Oak Street", "neighborhood": "Atlantis"})
    fails(s, "add_address", "duplicate_label", {"label": home["label"].upper(), "street": "12 Oak Street",
                                                "neighborhood": hoods[0]})
    new = ok(s, "add_address",
             {"label": "Gym", "street": "12 Oak Street", "neighborhood": hoods[0].lower(), "make_default": True})
    assert new["neighborhood"] == hoods[0] and new["is_default"]
    fails(s, "delete_address", "default_address", {"address_id": new["address_id"]})
    ok(s, "set_default_address", {"address_id": home["address_id"]})
    assert ok(s, "delete_address", {"address_id": new["address_id"]})["deleted"]
    assert new["address_id"] not in [a["address_id"] for a in ok(s, "list_addresses")["addresses"]]
    fails(s, "set_default_address", "not_found", {"address_id": new["address_id"]})

    moving = ok(s, "get_order", {"order_id": order(s, "scheduled")["order_id"]})
    if moving["address_id"] != home["address_id"]:
        fails(s, "delete_address", "address_in_use", {"address_id": moving["address_id"]})
    else:
        fails(s, "delete_address", "default_address", {"address_id": moving["address_id"]})


def test_favorites_and_search(s):
    rest = open_restaurant(s)
    ok(s, "set_favorite", {"restaurant_id": rest["restaurant_id"], "favorite": True})
    favs = ok(s, "search_restaurants", {"favorites_only": True, "delivers_only": False, "limit": 100})["restaurants"]
    assert rest["restaurant_id"] in [r["restaurant_id"] for r in favs]
    assert rest["restaurant_id"] in ok(s, "get_account")["favorite_restaurants"]
    ok(s, "set_favorite", {"restaurant_id": rest["restaurant_id"], "favorite": False})
    assert rest["restaurant_id"] not in ok(s, "get_account")["favorite_restaurants"]

    thai = ok(s, "search_restaurants", {"cuisine": "Thai", "delivers_only": False})["restaurants"]
    assert thai and all(r["cuisine"] == "Thai" for r in thai)
    dishes = ok(s, "search_dishes", {"query": "ramen", "dietary": "vegan"})["dishes"]
    assert all(d["vegan"] and "ramen" in d["name"].lower() for d in dishes)
    prices = [d["price"] for d in ok(s, "search_dishes", {"query": "a", "limit": 50})["dishes"]]
    assert prices == sorted(prices)


# ----- what the replies of the reads say --------------------------------------------------------


def test_restaurant_says_whether_it_is_open_and_delivers(s: Session) -> None:
    addresses = ok(s, "list_addresses")["addresses"]
    seen = set()
    for r in ok(s, "search_restaurants", {"delivers_only": False, "limit": 100})["restaurants"]:
        for a in addresses:
            got = ok(s, "get_restaurant", {"restaurant_id": r["restaurant_id"], "address_id": a["address_id"]})
            seen.add(got["delivers"])
            if got["delivers"]:
                assert got["delivery_quote"] == (f"delivers to {a['label']} for ${got['delivery_fee']:.2f}, in about "
                                                 f"{got['estimated_minutes']} minutes")
            else:
                assert got["delivery_quote"].startswith(f"doesn't deliver to {a['label']}")
        assert got["open_status"].startswith("open now" if got["open_now"] else "closed")
        closed = [h["day"] for h in got["hours"] if h["opens"] is None]
        if closed:  # the open days first, then the days it is closed
            assert got["hours_text"].endswith("closed " + " and ".join(closed)), got["hours_text"]
    assert seen == {True, False}


def test_kitchen_notes_fit_any_dish() -> None:
    tool = registry.get("food_delivery").tools["add_to_cart"]
    notes = tool.values["special_instructions"]
    # a note that names an ingredient or a cooking would be said of a drink or a dessert too
    assert not any(w in n for n in notes for w in ("onion", "spicy", "dressing", "well done", "cilantro", "ice"))


def test_a_menu_names_the_dishes_it_found_or_says_what_it_has_instead(s: Session) -> None:
    rest = ok(s, "search_restaurants", {})["restaurants"][0]
    full = ok(s, "get_menu", {"restaurant_id": rest["restaurant_id"]})
    section = full["categories"][0]
    got = ok(s, "get_menu", {"restaurant_id": rest["restaurant_id"], "category": section})
    assert got["items"] and len(got["items"]) <= 8
    for item in got["items"]:
        assert f"{item['name']} (${item['price']:,.2f}" in got["dishes_text"]
    assert got["dishes_text"].startswith(f"{len(got['items'])} dish")
    none = ok(s, "get_menu", {"restaurant_id": rest["restaurant_id"], "category": "No Such Section"})
    assert none["dishes_text"].startswith("nothing that matches") and section in none["dishes_text"]


def test_a_dish_found_in_a_search_is_read_with_its_restaurant(s: Session) -> None:
    from prove.synth.results import describe
    got = ok(s, "search_dishes", {"query": "burger"})
    assert len({d["restaurant_name"] for d in got["dishes"]}) > 1
    text = describe(got)
    for d in got["dishes"][:5]:
        assert f"{d['name']}: price ${d['price']:.2f}, restaurant {d['restaurant_name']}" in text


def test_a_cart_read_says_its_dishes_the_minimum_and_whether_it_delivers(s: Session) -> None:
    cart = ok(s, "list_carts", {})["carts"][0]
    got = ok(s, "view_cart", {"restaurant_id": cart["restaurant_id"]})
    for line in got["items"]:
        name = line["name"] if line["quantity"] == 1 else f"{line['quantity']} × {line['name']}"
        assert name in got["items_text"]
    minimum = f"${got['minimum_order']:,.2f} minimum order"
    assert got["notes"].startswith("it meets the " if got["meets_minimum"] else "it's ") and minimum in got["notes"]
    seen = set()
    for a in ok(s, "list_addresses", {})["addresses"]:
        there = ok(s, "view_cart", {"restaurant_id": cart["restaurant_id"], "address_id": a["address_id"]})
        seen.add(there["delivers"])
        assert (f"doesn't deliver to {a['label']}" in there["notes"]) == (not there["delivers"]), there["notes"]
    assert True in seen


def test_a_cart_is_read_or_emptied_only_where_there_is_one(s: Session) -> None:
    for tool in ("view_cart", "clear_cart"):
        where = SERVER.tools[tool].params[0].where
        for r in ok(s, "search_restaurants", {"limit": 50})["restaurants"]:
            has = any(c["restaurant_id"] == r["restaurant_id"] for c in ok(s, "list_carts", {})["carts"])
            assert s.satisfies("restaurant", r["restaurant_id"], where) == has, (tool, r["restaurant_id"])


def test_opening_days_are_listed_with_commas_and_one_and(s: Session) -> None:
    """'Monday, Wednesday, Thursday and Sunday', never 'Monday and Wednesday and Thursday and Sunday'."""
    for r in ok(s, "search_restaurants", {"delivers_only": False, "limit": 100})["restaurants"]:
        text = ok(s, "get_restaurant", {"restaurant_id": r["restaurant_id"]})["hours_text"]
        for part in text.split(", "):
            assert part.count(" and ") <= 1, text


def test_the_address_list_says_which_one_is_the_default(s: Session) -> None:
    got = ok(s, "list_addresses", {})
    assert sum(a["is_default"] for a in got["addresses"]) == 1
    for a in got["addresses"]:
        said = f"{a['label']} ({a['street']}, {a['neighborhood']}{'; your default' if a['is_default'] else ''})"
        assert said in got["addresses_text"], got["addresses_text"]
    assert got["addresses_text"].count("your default") == 1
