"""Behaviour tests of the marketplace server: its world, its main flows and its failures.

Every test works on a fresh `Session("marketplace", world=0)` and finds the entities it needs
through the server's own tools, the way a model would, so the tests describe behaviour rather
than the particular rows of one world.
"""

from __future__ import annotations

import pytest

from prove.env import Session, registry
from prove.env.asks import as_ask

from .helpers import fails, ok, session_fixture

SERVER = registry.get("marketplace")


s = session_fixture("marketplace")


def balance(s: Session) -> float:
    return ok(s, "get_account")["balance"]


def others_listing(s: Session, *, offers: bool | None = None, cheap: bool = False) -> dict:
    """An active listing of another member (taking offers, if asked)."""
    found = ok(s, "search_listings", {"sort": "price_low" if cheap else "newest", "limit": 50})["listings"]
    return next(x for x in found if not x["is_mine"] and (offers is None or x["accepts_offers"] == offers))


def received_pending(s: Session) -> list[dict]:
    return ok(s, "list_offers", {"role": "received", "status": "pending", "limit": 50})["offers"]


def my_countered(s: Session) -> dict:
    return ok(s, "list_offers", {"role": "made", "status": "countered"})["offers"][0]


def card(s: Session, expired: bool) -> dict:
    return next(p for p in ok(s, "get_account")["payment_methods"] if p["kind"] == "card" and p["expired"] == expired)


def gift_cards(s: Session) -> list[dict]:
    return ok(s, "list_gift_cards")["gift_cards"]


# ----- the server and its world ---------------------------------------------------------------------


def test_server_shape() -> None:
    visible = SERVER.visible_tools
    assert len(visible) >= 13
    assert {t.name for t in SERVER.tools.values() if t.hidden} == {"list_gift_cards"}
    assert SERVER.tools["redeem_gift_card"].sensitive_params == ("code",)
    assert SERVER.template(0).size < 250_000


def test_world_has_the_states_the_tools_need(s: Session) -> None:
    account = ok(s, "get_account")
    assert account["member_id"] == "MBR-10001" and account["balance"] > 0
    assert any(p["expired"] for p in account["payment_methods"])
    assert any(p["is_default"] and not p["expired"] for p in account["payment_methods"])
    assert received_pending(s), "offers wait for the member's answer"
    assert my_countered(s)["counter_amount"] > my_countered(s)["amount"]
    statuses = {o["status"] for o in ok(s, "list_orders", {"role": "purchases", "limit": 50})["orders"]}
    assert statuses == {"paid", "shipped", "delivered"}
    assert ok(s, "list_orders", {"role": "sales", "status": "paid"})["orders"], "a sale waits to be shipped"
    assert {g["status"] for g in gift_cards(s)} == {"unredeemed", "redeemed"}
    assert ok(s, "search_listings", {"limit": 1})["total"] > 100


def test_worlds_differ_by_seed() -> None:
    with Session("marketplace", world=1) as other, Session("marketplace", world=0) as base:
        assert ok(other, "get_account")["username"] != ok(base, "get_account")["username"]


# ----- buying --------------------------------------------------------------------------------------


def test_buy_listing_marks_it_sold_and_records_the_order(s: Session) -> None:
    listing = others_listing(s)
    order = ok(s, "buy_listing", {"listing_id": listing["listing_id"]})
    assert order["status"] == "paid" and order["buyer_id"] == "MBR-10001"
    assert order["total"] == round(listing["price"] + listing["shipping_cost"], 2)
    assert order["paid_with"] == card(s, expired=False)["label"]
    assert ok(s, "get_listing", {"listing_id": listing["listing_id"]})["status"] == "sold"
    purchases = ok(s, "list_orders", {"role": "purchases", "status": "paid"})["orders"]
    assert order["order_id"] in {o["order_id"] for o in purchases}
    fails(s, "buy_listing", "listing_unavailable", {"listing_id": listing["listing_id"]})
    fails(s, "make_offer", "listing_unavailable", {"listing_id": listing["listing_id"], "amount": 1.0})


def test_buy_with_balance_after_redeeming_a_gift_card(s: Session) -> None:
    start = balance(s)
    listing = next(x for x in ok(s, "search_listings", {"min_price": start + 1, "max_price": start + 60,
                                                        "sort": "price_low",
                                                        "limit": 50})["listings"] if not x["is_mine"])
    fails(s, "buy_listing", "insufficient_balance", {"listing_id": listing["listing_id"], "use_balance": True})
    good = next(g for g in gift_cards(s) if g["status"] == "unredeemed" and g["expires_on"] >= "2026-03-16")
    redeemed = ok(s, "redeem_gift_card", {"code": good["code"].lower()})
    assert redeemed["new_balance"] == round(start + good["amount"], 2) == balance(s)
    fails(s, "redeem_gift_card", "already_redeemed", {"code": good["code"]})
    order = ok(s, "buy_listing", {"listing_id": listing["listing_id"], "use_balance": True})
    assert order["paid_with"] == "marketplace balance"
    assert balance(s) == round(start + good["amount"] - order["total"], 2)


def test_payment_failures(s: Session) -> None:
    listing = others_listing(s)
    expired = card(s, expired=True)
    fails(s, "buy_listing", "payment_method_expired", {"listing_id": listing["listing_id"],
                                                       "payment_method_id": expired["payment_method_id"]})
    fails(s, "buy_listing", "not_found", {"listing_id": listing["listing_id"], "payment_method_id": "PM-99999"})
    fails(s, "buy_listing", "conflicting_payment", {"listing_id": listing["listing_id"], "use_balance": True,
                                                    "payment_method_id": card(s, expired=False)["payment_method_id"]})
    mine = ok(s, "list_my_listings", {"status": "active"})["listings"][0]
    fails(s, "buy_listing", "own_listing", {"listing_id": mine["listing_id"]})
    fails(s, "buy_listing", "not_found", {"listing_id": "LST-99999"})


def test_gift_card_failures(s: Session) -> None:
    expired = next(g for g in gift_cards(s) if g["status"] == "unredeemed" and g["expires_on"] < "2026-03-16")
    fails(s, "redeem_gift_card", "gift_card_expired", {"code": expired["code"]})
    used = next(g for g in gift_cards(s) if g["status"] == "redeemed")
    fails(s, "redeem_gift_card", "already_redeemed", {"code": used["code"]})
    fails(s, "redeem_gift_card", "invalid_code", {"code": "MKT-0000-0000-0000"})
    fails(s, "redeem_gift_card", "invalid_code", {"code": ""})


# ----- offers --------------------------------------------------------------------------------------


def test_make_and_withdraw_an_offer(s: Session) -> None:
    listing = others_listing(s, offers=True)
    price = listing["price"]
    lid = listing["listing_id"]
    fails(s, "make_offer", "offer_not_below_price", {"listing_id": lid, "amount": price})
    fails(s, "make_offer", "offer_too_low", {"listing_id": lid, "amount": round(price * 0.3, 2)})
    offer = ok(s, "make_offer", {"listing_id": lid, "amount": round(price * 0.8, 2), "message": "Can pay today."})
    assert offer["status"] == "pending" and offer["expires_at"] == "2026-03-18T09:00:00"
    assert ok(s, "get_listing", {"listing_id": lid})["my_open_offer_id"] == offer["offer_id"]
    fails(s, "make_offer", "offer_exists", {"listing_id": lid, "amount": round(price * 0.9, 2)})
    assert ok(s, "withdraw_offer", {"offer_id": offer["offer_id"]})["status"] == "withdrawn"
    fails(s, "withdraw_offer", "offer_not_open", {"offer_id": offer["offer_id"]})
    assert ok(s, "get_listing", {"listing_id": lid})["my_open_offer_id"] is None
    no_offers = others_listing(s, offers=False)
    fails(s, "make_offer", "offers_not_accepted", {"listing_id": no_offers["listing_id"],
                                                   "amount": round(no_offers["price"] * 0.9, 2)})


def test_offers_lapse_after_48_hours(s: Session) -> None:
    listing = others_listing(s, offers=True)
    offer = ok(s, "make_offer", {"listing_id": listing["listing_id"], "amount": round(listing["price"] * 0.8, 2)})
    s.advance(48 * 3600)
    made = ok(s, "list_offers", {"role": "made", "listing_id": listing["listing_id"]})["offers"]
    assert made[0]["offer_id"] == offer["offer_id"] and made[0]["status"] == "expired"
    fails(s, "withdraw_offer", "offer_not_open", {"offer_id": offer["offer_id"]})
    # a new offer is allowed once the old one lapsed
    ok(s, "make_offer", {"listing_id": listing["listing_id"], "amount": round(listing["price"] * 0.85, 2)})


def test_accept_an_offer_sells_the_listing_and_credits_proceeds(s: Session) -> None:
    pending = received_pending(s)
    by_listing: dict[str, list[dict]] = {}
    for o in pending:
        by_listing.setdefault(o["listing_id"], []).append(o)
    lid, offers = max(by_listing.items(), key=lambda kv: len(kv[1]))
    chosen, others = offers[0], offers[1:]
    start = balance(s)
    answer = ok(s, "respond_to_offer", {"offer_id": chosen["offer_id"], "action": "accept"})
    order = answer["order"]
    assert answer["offer"]["status"] == "accepted"
    assert order["seller_id"] == "MBR-10001" and order["item_price"] == chosen["amount"]
    assert balance(s) == round(start + order["seller_proceeds"], 2)
    assert ok(s, "get_listing", {"listing_id": lid})["status"] == "sold"
    for other in others:
        status = next(o for o in ok(s, "list_offers",
                                    {"listing_id": lid})["offers"] if o["offer_id"] == other["offer_id"])
        assert status["status"] == "rejected"
        fails(s, "respond_to_offer", "offer_not_open", {"offer_id": other["offer_id"], "action": "accept"})
    # then ship it
    sale = order["order_id"]
    fails(s, "mark_order_shipped", "invalid_tracking_number", {"order_id": sale, "carrier": "UPS",
                                                               "tracking_number": "  "})
    shipped = ok(s, "mark_order_shipped",
                 {"order_id": sale, "carrier": "UPS", "tracking_number": "1Z 999 AA1 0123456784"})
    assert shipped["status"] == "shipped" and shipped["tracking_number"] == "1Z999AA10123456784"
    fails(s, "mark_order_shipped", "already_shipped", {"order_id": sale, "carrier": "UPS", "tracking_number": "1Z1"})


def test_counter_and_reject_offers(s: Session) -> None:
    first, second = received_pending(s)[:2]
    fails(s, "respond_to_offer", "counter_amount_required", {"offer_id": first["offer_id"], "action": "counter"})
    fails(s, "respond_to_offer", "invalid_counter", {"offer_id": first["offer_id"], "action": "counter",
                                                     "counter_amount": first["asking_price"]})
    counter = round((first["amount"] + first["asking_price"]) / 2, 2)
    answer = ok(s, "respond_to_offer", {"offer_id": first["offer_id"], "action": "counter", "counter_amount": counter})
    assert answer["offer"]["status"] == "countered" and answer["offer"]["counter_amount"] == counter
    assert answer["order"] is None
    assert ok(s, "respond_to_offer",
              {"offer_id": second["offer_id"], "action": "reject"})["offer"]["status"] == "rejected"
    mine = my_countered(s)
    fails(s, "respond_to_offer", "not_your_listing", {"offer_id": mine["offer_id"], "action": "accept"})


def test_accept_a_counter_offer(s: Session) -> None:
    offer = my_countered(s)
    order = ok(s, "accept_counter_offer", {"offer_id": offer["offer_id"]})
    assert order["item_price"] == offer["counter_amount"] and order["buyer_id"] == "MBR-10001"
    assert ok(s, "get_listing", {"listing_id": offer["listing_id"]})["status"] == "sold"
    fails(s, "accept_counter_offer", "offer_not_countered", {"offer_id": offer["offer_id"]})
    received = received_pending(s)[0]
    fails(s, "accept_counter_offer", "not_your_offer", {"offer_id": received["offer_id"]})


def test_counter_offers_expire(s: Session) -> None:
    offer = my_countered(s)
    s.advance(72 * 3600)
    fails(s, "accept_counter_offer", "offer_expired", {"offer_id": offer["offer_id"]})


# ----- selling -------------------------------------------------------------------------------------


def test_create_edit_and_withdraw_a_listing(s: Session) -> None:
    cats = ok(s, "list_categories")["categories"]
    camera = next(c for c in cats if c["name"] == "Cameras & Photo")
    fee = ok(s, "estimate_fees", {"category_id": camera["category_id"], "price": 200.0, "shipping_cost": 10.0})
    assert fee["fee"] == round(210 * camera["fee_percent"] / 100 + 0.30, 2)
    assert fee["seller_proceeds"] == round(210 - fee["fee"], 2)
    created = ok(s, "create_listing", {"listing_title": "Canon AE-1 Program 35mm Film Camera",
                                       "category_id": camera["category_id"], "price": 200.0, "condition": "good",
                                       "shipping_cost": 10.0})
    lid = created["listing_id"]
    assert created["status"] == "active" and created["is_mine"]
    hits = ok(s, "search_listings", {"query": "AE-1 Program", "category_id": camera["category_id"]})["listings"]
    assert lid in {h["listing_id"] for h in hits}
    fails(s, "edit_listing", "nothing_to_change", {"listing_id": lid})
    fails(s, "edit_listing", "invalid_title", {"listing_id": lid, "listing_title": "   "})
    edited = ok(s, "edit_listing", {"listing_id": lid, "price": 175.0, "accepts_offers": False})
    assert edited["price"] == 175.0 and not edited["accepts_offers"]
    assert ok(s, "withdraw_listing", {"listing_id": lid})["status"] == "withdrawn"
    fails(s, "edit_listing", "listing_unavailable", {"listing_id": lid, "price": 150.0})
    fails(s, "withdraw_listing", "listing_unavailable", {"listing_id": lid})
    assert lid in {x["listing_id"] for x in ok(s, "list_my_listings", {"status": "withdrawn"})["listings"]}


def test_withdrawing_a_listing_rejects_its_open_offers(s: Session) -> None:
    offer = received_pending(s)[0]
    ok(s, "withdraw_listing", {"listing_id": offer["listing_id"]})
    fails(s, "respond_to_offer", "offer_not_open", {"offer_id": offer["offer_id"], "action": "accept"})


def test_listing_limit(s: Session) -> None:
    account = ok(s, "get_account")
    room = account["max_active_listings"] - account["active_listings"]
    for i in range(room):
        ok(s, "create_listing",
           {"listing_title": f"Vintage postcard lot {i}", "category_id": "CAT-10007", "price": 12.0,
                                 "condition": "good"})
    fails(s, "create_listing", "listing_limit_reached",
          {"listing_title": "One too many", "category_id": "CAT-10007", "price": 12.0,
                                                         "condition": "good"})


def test_cannot_edit_others_listings(s: Session) -> None:
    listing = others_listing(s)
    fails(s, "edit_listing", "not_your_listing", {"listing_id": listing["listing_id"], "price": 1.0})
    fails(s, "withdraw_listing", "not_your_listing", {"listing_id": listing["listing_id"]})
    fails(s, "create_listing", "not_found", {"listing_title": "x", "category_id": "CAT-99999", "price": 1.0,
                                             "condition": "new"})


# ----- orders and ratings --------------------------------------------------------------------------


def test_confirm_delivery_then_rate_the_seller(s: Session) -> None:
    shipped = ok(s, "list_orders", {"role": "purchases", "status": "shipped"})["orders"][0]
    oid = shipped["order_id"]
    fails(s, "rate_seller", "order_not_delivered", {"order_id": oid, "stars": 5})
    assert ok(s, "confirm_delivery", {"order_id": oid})["status"] == "delivered"
    fails(s, "confirm_delivery", "already_delivered", {"order_id": oid})
    before = ok(s, "get_seller_profile", {"member_id": shipped["seller_id"]})
    rating = ok(s, "rate_seller", {"order_id": oid, "stars": 2, "comment": "Slow to ship."})
    assert rating["stars"] == 2 and rating["order_id"] == oid
    after = ok(s, "get_seller_profile", {"member_id": shipped["seller_id"]})
    assert after["rating_count"] == before["rating_count"] + 1
    assert after["recent_ratings"][0]["rating_id"] == rating["rating_id"]
    fails(s, "rate_seller", "already_rated", {"order_id": oid, "stars": 5})
    assert next(o for o in ok(s, "list_orders", {"limit": 50})["orders"] if o["order_id"] == oid)["rated"]


def test_order_failures(s: Session) -> None:
    paid = ok(s, "list_orders", {"role": "purchases", "status": "paid"})["orders"][0]
    fails(s, "confirm_delivery", "order_not_shipped", {"order_id": paid["order_id"]})
    fails(s, "mark_order_shipped", "not_your_sale", {"order_id": paid["order_id"], "carrier": "USPS",
                                                     "tracking_number": "9400111899223344556677"})
    sale = ok(s, "list_orders", {"role": "sales", "status": "paid"})["orders"][0]
    fails(s, "confirm_delivery", "not_your_purchase", {"order_id": sale["order_id"]})
    fails(s, "rate_seller", "not_your_purchase", {"order_id": sale["order_id"], "stars": 4})
    fails(s, "rate_seller", "not_found", {"order_id": "ORD-99999", "stars": 4})


# ----- messages ------------------------------------------------------------------------------------


def test_messages_to_sellers_and_replies_on_own_listings(s: Session) -> None:
    listing = others_listing(s)
    sent = ok(s, "send_message", {"listing_id": listing["listing_id"], "body": "Is this still available?"})
    assert sent["recipient_id"] == listing["seller_id"]
    thread = ok(s, "list_messages", {"listing_id": listing["listing_id"]})["messages"]
    assert thread[0]["message_id"] == sent["message_id"]
    fails(s, "send_message", "empty_message", {"listing_id": listing["listing_id"], "body": "  "})
    fails(s, "send_message", "invalid_recipient", {"listing_id": listing["listing_id"], "body": "hi",
                                                   "recipient_id": "MBR-10001"})
    question = next(m for m in ok(s, "list_messages", {"direction": "received", "limit": 50})["messages"]
                    if ok(s, "get_listing", {"listing_id": m["listing_id"]})["is_mine"])
    mine = question["listing_id"]
    fails(s, "send_message", "recipient_required", {"listing_id": mine, "body": "Yes!"})
    stranger = next(m["member_id"] for m in [ok(s, "get_seller_profile", {"member_id": listing["seller_id"]})]
                    if m["member_id"] != question["sender_id"])
    fails(s, "send_message", "invalid_recipient", {"listing_id": mine, "body": "Yes!", "recipient_id": stranger})
    reply = ok(s, "send_message",
               {"listing_id": mine, "body": "Yes, still available!", "recipient_id": question["sender_id"]})
    assert reply["recipient_id"] == question["sender_id"]
    assert ok(s, "list_messages", {"member_id": question["sender_id"], "direction": "sent"})["messages"][0]["body"] == \
        "Yes, still available!"


def test_reads_do_not_change_state(s: Session) -> None:
    before = s.fingerprint()
    for tool, args in (("search_listings", {"query": "camera"}), ("get_account", {}), ("list_offers", {}),
                       ("list_orders", {"role": "sales"}), ("list_messages", {}), ("list_categories", {}),
                       ("list_my_listings", {}), ("get_seller_profile", {"member_id": "MBR-10002"})):
        ok(s, tool, args)
    assert s.fingerprint() == before and not s.diff()


def test_paying_a_counter_offer_can_fail_like_a_purchase(s: Session) -> None:
    offer = my_countered(s)
    expired = card(s, expired=True)["payment_method_id"]
    fails(s, "accept_counter_offer", "payment_method_expired", {"offer_id": offer["offer_id"],
                                                                "payment_method_id": expired})
    fails(s, "accept_counter_offer", "conflicting_payment",
          {"offer_id": offer["offer_id"], "use_balance": True,
           "payment_method_id": card(s, expired=False)["payment_method_id"]})
    dearest = max(ok(s, "list_offers", {"role": "made", "status": "countered"})["offers"],
                  key=lambda o: o["counter_amount"])
    assert dearest["counter_amount"] > balance(s)
    fails(s, "accept_counter_offer", "insufficient_balance", {"offer_id": dearest["offer_id"], "use_balance": True})


def test_more_ownership_failures(s: Session) -> None:
    mine = ok(s, "list_my_listings", {"status": "active"})["listings"][0]
    fails(s, "make_offer", "own_listing", {"listing_id": mine["listing_id"], "amount": round(mine["price"] * 0.8, 2)})
    received = received_pending(s)[0]
    fails(s, "withdraw_offer", "not_your_offer", {"offer_id": received["offer_id"]})
    fails(s, "create_listing", "invalid_title", {"listing_title": " \t ", "category_id": "CAT-10001", "price": 10.0,
                                                 "condition": "new"})


@pytest.mark.parametrize("tool, args", [
    ("get_listing", {"listing_id": "LST-99999"}),
    ("get_seller_profile", {"member_id": "MBR-99999"}),
    ("estimate_fees", {"category_id": "CAT-99999", "price": 10.0}),
    ("edit_listing", {"listing_id": "'; DROP TABLE listings; --", "price": 10.0}),
    ("withdraw_listing", {"listing_id": ""}),
    ("make_offer", {"listing_id": "LST-99999", "amount": 10.0}),
    ("withdraw_offer", {"offer_id": "OFR-99999"}),
    ("respond_to_offer", {"offer_id": "OFR-99999", "action": "reject"}),
    ("accept_counter_offer", {"offer_id": "OFR-99999"}),
    ("mark_order_shipped", {"order_id": "ORD-99999", "carrier": "UPS", "tracking_number": "1Z1"}),
    ("confirm_delivery", {"order_id": "ORD-99999"}),
    ("send_message", {"listing_id": "LST-99999", "body": "hello"}),
    ("send_message", {"listing_id": "LST-10002", "body": "hello", "recipient_id": "MBR-99999"}),
])
def test_unknown_ids_are_not_found(s: Session, tool: str, args: dict) -> None:
    fails(s, tool, "not_found", args)


# ----- what the values, phrasings and replies say ------------------------------------------------


def test_a_new_listing_goes_with_its_category(s: Session) -> None:
    tool = SERVER.tools["create_listing"]
    names = {c["category_id"]: c["name"] for c in ok(s, "list_categories")["categories"]}
    fits = {"Kindle": "Electronics", "Canon": "Cameras & Photo", "Guitar": "Musical Instruments",
            "Stratocaster": "Musical Instruments", "Nintendo": "Video Games", "PlayStation": "Video Games",
            "Creuset": "Home & Kitchen", "Instant Pot": "Home & Kitchen", "Kallax": "Furniture",
            "table": "Furniture", "Pokemon": "Collectibles", "baseball": "Collectibles", "bike": "Sports & Outdoors",
            "jeans": "Clothing & Shoes", "jacket": "Clothing & Shoes", "Harry Potter": "Books", "Lord of the Rings": "Books",
            "Lego": "Toys & Hobbies", "train": "Toys & Hobbies", "earrings": "Jewelry & Watches",
            "watch": "Jewelry & Watches", "GoPro": "Cameras & Photo", "Bose": "Electronics"}
    tuples = tool.values["category_id, listing_title, price"]
    assert {c for c, _, _ in tuples} == set(names)  # every category has items, every item a real category
    for category_id, title, _ in tuples:
        word = next(w for w in fits if w.lower() in title.lower())
        assert names[category_id] == fits[word], title
    listing = ok(s, "create_listing", {"category_id": "CAT-10006", "listing_title": "IKEA Kallax shelf, white",
                                       "price": 60.0, "condition": "good"})
    assert listing["category"] == "Furniture"


def test_a_new_listing_is_titled_as_a_seller_titles_it() -> None:
    """"Listed your sunburst Fender Squier Stratocaster": a listing's title starts as buyers read it in
    search results, with a capital or a number, not with the words of a sentence around it."""
    tuples = SERVER.tools["create_listing"].values["category_id, listing_title, price"]
    for _, title, _ in tuples:
        assert title[0].isupper() or title[0].isdigit(), title


def test_seller_profiles_are_asked_of_other_members() -> None:
    member = SERVER.tools["get_seller_profile"].params[0]
    assert member.where == "is_me = 0"


def test_a_message_to_a_seller_is_a_buyers_question() -> None:
    tool = SERVER.tools["send_message"]
    assert all(b.endswith("?") for b in tool.values["body"])
    # A reply to a member could go to a seller or to a buyer, so no words fit it: none is phrased.
    assert not any("recipient_id" in a.covers for a in tool.asks)


def test_account_lists_its_payment_methods(s: Session) -> None:
    got = ok(s, "get_account")
    assert got["payment_methods"]
    for m in got["payment_methods"]:
        assert m["label"] in got["payment_methods_text"]
    default = next(m for m in got["payment_methods"] if m["is_default"])
    assert f"{default['label']} (your default)" in got["payment_methods_text"]


def test_edit_listing_replies_say_what_changed(s: Session) -> None:
    tool = SERVER.tools["edit_listing"]
    bound = {a.binds.get("accepts_offers"): a.text for a in tool.replies if a.binds}
    assert "no longer" in bound[False] and "can make offers" in bound[True]
    mine = ok(s, "list_my_listings", {"status": "active"})["listings"][0]
    got = ok(s, "edit_listing", {"listing_id": mine["listing_id"], "accepts_offers": False})
    assert got["accepts_offers"] is False and got["price"] == mine["price"]  # 'it stays at $price'


def test_sorted_searches_are_asked_of_a_category() -> None:
    """'The newest <one listing's title> listings' makes no sense: a phrasing that binds a sort names no query."""
    for ask in SERVER.tools["search_listings"].asks:
        if "sort" in ask.binds:
            assert "query" not in ask.slots and "category_id" in ask.slots, ask.text


def test_shipping_is_asked_of_a_paid_sale(s: Session) -> None:
    param = SERVER.tools["mark_order_shipped"].params[0]
    assert "status = 'paid'" in param.where and "seller_id" in param.where
    sale = ok(s, "list_orders", {"role": "sales", "status": "paid"})["orders"][0]
    got = ok(s, "mark_order_shipped", {"order_id": sale["order_id"], "carrier": "UPS",
                                       "tracking_number": "1Z999AA10123456784"})
    assert got["status"] == "shipped"


def test_a_tracking_number_goes_with_its_carrier() -> None:
    shapes = {"USPS": lambda t: t.startswith("94") and len(t) == 22, "UPS": lambda t: t.startswith("1Z"),
              "FedEx": lambda t: t.isdigit() and len(t) == 12, "DHL": lambda t: t.isdigit() and len(t) == 10}
    pairs = SERVER.tools["mark_order_shipped"].values["carrier, tracking_number"]
    assert {c for c, _ in pairs} == set(shapes)
    assert all(shapes[c](t) for c, t in pairs)


def test_listings_of_one_title_are_told_apart_by_their_seller(s: Session) -> None:
    from prove.synth.results import describe
    got = ok(s, "search_listings", {"query": "Headlamp"})
    assert len({x["seller_username"] for x in got["listings"]}) > 1
    text = describe(got)
    for x in got["listings"][:5]:
        assert f"price ${x['price']:.2f}, seller {x['seller_username']}" in text
        assert all(w in text for w in x["seller_username"].split("_")), x["seller_username"]


def test_only_own_live_listings_are_edited_and_only_others_live_ones_offered_on(s: Session) -> None:
    """The listings a parameter draws are exactly those the tool accepts (edit: mine; offer: others')."""
    listings = ok(s, "search_listings", {"limit": 50})["listings"] + ok(s, "list_my_listings", {"limit": 50})["listings"]
    edit, offer = (SERVER.tools[t].params[0].where for t in ("edit_listing", "make_offer"))
    drawn = {"edit": 0, "offer": 0}
    for x in {x["listing_id"]: x for x in listings}.values():
        lid = x["listing_id"]
        can_edit = s.call("edit_listing", {"listing_id": lid, "description": "Shipping within 2 days."}).ok
        assert s.satisfies("listing", lid, edit) == can_edit, lid
        drawn["edit"] += can_edit
        if s.satisfies("listing", lid, offer):
            drawn["offer"] += 1
            assert not x["is_mine"] and x["status"] == "active", lid
        else:
            assert x["is_mine"] or x["status"] != "active", lid
    assert drawn["edit"] and drawn["offer"]
    for tool in ("withdraw_listing", "buy_listing"):
        assert SERVER.tools[tool].params[0].where == (edit if tool == "withdraw_listing" else offer)


def test_a_fee_estimate_reply_says_what_the_seller_keeps(s: Session) -> None:
    cat = ok(s, "list_categories")["categories"][0]
    got = ok(s, "estimate_fees", {"category_id": cat["category_id"], "price": 25.0})
    assert got["fee"] == round(25.0 * cat["fee_percent"] / 100 + 0.30, 2)
    assert got["seller_proceeds"] == round(25.0 - got["fee"], 2)
    replies = SERVER.tools["estimate_fees"].replies
    assert all("{result.seller_proceeds}" in r.text and "$0.30" in r.text for r in replies)


def test_an_offer_says_who_offered_how_much_on_what_and_the_counter(s: Session) -> None:
    offers = ok(s, "list_offers", {"role": "made", "limit": 50})["offers"] + \
        ok(s, "list_offers", {"limit": 50})["offers"]
    assert any(o["counter_amount"] is not None for o in offers)
    for o in offers:
        head = f"{o['buyer_username']}'s ${o['amount']:,.2f} offer on '{o['listing_title']}'"
        assert o["summary"].startswith(head), o["summary"]
        if o["counter_amount"] is None:
            assert "countered" not in o["summary"], o["summary"]
        else:
            assert o["summary"].endswith(f", countered by {o['seller_username']} at ${o['counter_amount']:,.2f}")


def test_every_rating_a_seller_has_stands_for_a_sale() -> None:
    """"christophers_collects gets 4.45 stars from 11 ratings ... with 3 listings for sale and 0 items sold":
    a rating is left on a sale, so a seller has sold at least as many items as they have ratings."""
    for world in (0, 1):
        db = SERVER.template(world).db
        sellers = {r[0] for r in db.execute("SELECT DISTINCT r.seller_id FROM ratings r JOIN members m "
                                            "ON m.member_id = r.seller_id WHERE NOT m.is_me")}
        with Session([SERVER], world=world) as session:
            for seller in sorted(sellers):
                profile = ok(session, "get_seller_profile", {"member_id": seller})
                assert profile["items_sold"] >= profile["rating_count"] > 0, profile


def test_an_item_priced_as_working_is_not_listed_for_parts() -> None:
    """"Put my Nintendo Switch with two controllers up ... for $220, price firm, no offers; condition: for
    parts.": the items drawn for a new listing are priced as working ones, so none is drawn as for parts."""
    tool = SERVER.tools["create_listing"]
    assert set(tool.values["condition"]) == {"new", "like_new", "good", "fair"}
    assert not [a for a in tool.asks if a.binds.get("condition") == "for_parts"]


def test_a_buyer_asks_the_seller_of_a_listing_still_for_sale():
    """"Is the listing 'Nintendo Game Boy Color Teal' still for sale?" -> sold; "Also, message the seller ... and
    say 'Could you combine shipping if I buy two?'": a buyer's question is of a listing still for sale."""
    asks = [as_ask(a) for a in registry.get("marketplace").tools["send_message"].asks]
    with Session(["marketplace"]) as session:
        listings = [row for n in range(10001, 10300) if (row := session.row("listing", f"LST-{n}")) is not None]
        me = next(x["seller_id"] for x in listings if session.row("member", x["seller_id"])["is_me"] == 1)
        assert {x["status"] for x in listings} == {"active", "sold", "withdrawn"}
        assert any(x["seller_id"] == me and x["status"] == "active" for x in listings)
        for ask in asks:
            for x in listings:
                fits = session.satisfies("listing", x["listing_id"], ask.fits.get("listing_id", "1"))
                assert fits == (x["status"] == "active" and x["seller_id"] != me), (ask.text, x)


def test_each_answer_to_an_offer_takes_the_offers_it_can_answer():
    """"take the seller's counter price on ayoung81's offer on the listing 'Osprey Atmos AG 65 Backpack' of mine":
    a counter is accepted on an offer the user made, an offer is answered on the user's own listing, and withdrawn
    while it is the user's own and still waiting."""
    tools = registry.get("marketplace").tools
    where = {name: next(p.where for p in tools[name].params if p.name == "offer_id")
             for name in ("withdraw_offer", "respond_to_offer", "accept_counter_offer")}
    with Session(["marketplace"]) as session:
        offers = [row for n in range(10001, 10100) if (row := session.row("offer", f"OFR-{n}")) is not None]
        me = next(m for n in range(10001, 10200) if (m := session.row("member", f"MBR-{n}")) and m["is_me"])["member_id"]
        mine = {x["listing_id"] for n in range(10001, 10300)
                if (x := session.row("listing", f"LST-{n}")) is not None and x["seller_id"] == me}
        expected = {"withdraw_offer": lambda o: o["buyer_id"] == me and o["status"] == "pending",
                    "respond_to_offer": lambda o: o["listing_id"] in mine and o["status"] == "pending",
                    "accept_counter_offer": lambda o: o["buyer_id"] == me and o["status"] == "countered"}
        for name, fits in expected.items():
            assert any(fits(o) for o in offers) and not all(fits(o) for o in offers), name
            for o in offers:
                assert session.satisfies("offer", o["offer_id"], where[name]) == fits(o), (name, o)
