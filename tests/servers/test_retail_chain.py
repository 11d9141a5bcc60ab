"""Behaviour tests of the retail_chain server: its world, its main flows and its failures.

Every test works on a fresh `Session("retail_chain", world=0)` (the epoch is Monday 2026-03-16
09:00) and finds the entities it needs through the server's own tools, the way a model would.
"""

from __future__ import annotations

from typing import Any

import pytest

from prove.env import Session, registry

from .helpers import fails, ok, session_fixture

SERVER = registry.get("retail_chain")
HOUR = 3600


s = session_fixture("retail_chain")


def stores(s: Session, **filters: Any) -> list[dict]:
    return ok(s, "find_stores", {"limit": 50, **filters})["stores"]


def reservations(s: Session, status: str) -> list[dict]:
    return ok(s, "list_reservations", {"status": status, "limit": 50})["reservations"]


def store_open(s: Session, store_id: str) -> bool:
    return ok(s, "get_store", {"store_id": store_id})["open_now"]


def available(s: Session, product_id: str, store_id: str) -> int:
    return ok(s, "check_price", {"product_id": product_id, "store_id": store_id})["available"]


def points(s: Session) -> int:
    return ok(s, "get_loyalty_account")["points"]


def pickup_stock(s: Session, least: int = 3, most: int = 12, avoid: str | None = None) -> tuple[str, str, int]:
    """(store, product, available) at an open pickup store with `least` to `most` units available,
    for a product that store `avoid` has none of."""
    for store in stores(s, pickup_only=True):
        if not store["open_now"] or store["store_id"] == avoid:
            continue
        for product in ok(s, "search_products", {"limit": 50})["products"]:
            found = s.call("check_price", {"product_id": product["product_id"], "store_id": store["store_id"]})
            if not (found.ok and least <= found.data["available"] <= most):
                continue
            if avoid is not None:
                there = s.call("check_price", {"product_id": product["product_id"], "store_id": avoid})
                if there.ok and there.data["available"]:
                    continue
            return store["store_id"], product["product_id"], found.data["available"]
    raise AssertionError("no stock found")


# ----- the server and its world ---------------------------------------------------------------------


def test_server_shape() -> None:
    assert len(SERVER.visible_tools) >= 11
    assert {t.name for t in SERVER.tools.values() if t.hidden} == {"get_loyalty_pin"}
    assert SERVER.tools["redeem_points"].sensitive_params == ("pin",)
    assert SERVER.template(0).size < 250_000


def test_world_has_the_states_the_tools_need(s: Session) -> None:
    all_stores = stores(s)
    assert len(all_stores) >= 6 and len({x["city"] for x in all_stores}) >= 3
    assert any(x["status"] == "temporarily_closed" for x in all_stores)
    assert any(not x["offers_pickup"] for x in all_stores if x["status"] == "open")
    home = next(x for x in all_stores if x["is_home_store"])
    assert not home["open_now"] and home["next_opening"] == "2026-03-16T10:00:00"
    assert len(reservations(s, "active")) >= 3 and reservations(s, "expired")
    assert {t["status"] for t in ok(s, "list_transfers")["transfers"]} == {"in_transit", "received", "cancelled"}
    account = ok(s, "get_loyalty_account")
    assert account["points"] >= 1000
    assert any(c["status"] == "available" for c in account["certificates"])
    assert ok(s, "list_purchases")["total"] >= 10


def test_worlds_differ_by_seed() -> None:
    with Session("retail_chain", world=1) as other, Session("retail_chain", world=0) as base:
        assert ok(other, "get_loyalty_account")["name"] != ok(base, "get_loyalty_account")["name"]


# ----- stores, products, prices ---------------------------------------------------------------------


def test_store_search_and_hours(s: Session) -> None:
    home = next(x for x in stores(s) if x["is_home_store"])
    city = stores(s, city=home["city"].upper())
    assert home["store_id"] in {x["store_id"] for x in city} and {x["city"] for x in city} == {home["city"]}
    store = ok(s, "get_store", {"store_id": home["store_id"]})
    monday = store["weekly_hours"][0]
    assert monday == {"day": "Monday", "opens": "10:00", "closes": "21:00"}
    at_ten = stores(s, city=home["city"], open_at="2026-03-16T10:30")
    assert home["store_id"] in {x["store_id"] for x in at_ten}
    at_nine = stores(s, city=home["city"], open_at="2026-03-16T09:30")
    assert home["store_id"] not in {x["store_id"] for x in at_nine}
    fails(s, "find_stores", "invalid_time", {"open_at": "next tuesday"})
    fails(s, "find_stores", "invalid_time", {"open_at": "2031-01-01T10:00"})
    fails(s, "find_stores", "invalid_time", {"open_at": "2026-03-16T19:30:00Z"})
    assert stores(s, city="Atlantis") == []
    fails(s, "get_store", "not_found", {"store_id": "STR-99999"})


def test_product_search_stock_and_price(s: Session) -> None:
    found = ok(s, "search_products", {"query": "skillet"})["products"]
    assert found and all("Skillet" in p["name"] for p in found)
    assert ok(s, "search_products", {"category": "Electronics", "max_price": 60.0, "limit": 50})["products"]
    pid = found[0]["product_id"]
    product = ok(s, "get_product", {"product_id": pid})
    stock = ok(s, "check_availability", {"product_id": pid})["stores"]
    assert product["units_available"] == sum(x["available"] for x in stock)
    assert all(x["available"] > 0 for x in stock)
    price = ok(s, "check_price", {"product_id": pid, "store_id": stock[0]["store_id"]})
    assert price["available"] == stock[0]["available"] and price["store_price"] == stock[0]["price"]
    assert price["price_with_tax"] == round(price["store_price"] * (1 + price["tax_rate"] / 100), 2)
    fails(s, "get_product", "not_found", {"product_id": "PRD-99999"})


def test_clearance_and_not_carried(s: Session) -> None:
    for store in stores(s):
        for product in ok(s, "search_products", {"limit": 50})["products"]:
            r = s.call("check_price", {"product_id": product["product_id"], "store_id": store["store_id"]})
            if not r.ok:
                assert r.code == "not_carried"
                return
            if r.data["on_clearance"]:
                assert r.data["store_price"] < r.data["list_price"] and r.data["savings"] > 0
    raise AssertionError("every store carries every product")


def test_set_home_store(s: Session) -> None:
    all_stores = stores(s)
    closed = next(x for x in all_stores if x["status"] == "temporarily_closed")
    fails(s, "set_home_store", "store_unavailable", {"store_id": closed["store_id"]})
    new = next(x for x in all_stores if not x["is_home_store"] and x["status"] == "open")
    changed = ok(s, "set_home_store", {"store_id": new["store_id"]})
    assert changed["home_store_id"] == new["store_id"]
    assert ok(s, "get_loyalty_account")["home_store_id"] == new["store_id"]


# ----- click-and-collect ----------------------------------------------------------------------------


def test_reserve_holds_stock_then_cancel_releases_it(s: Session) -> None:
    store_id, product_id, units = pickup_stock(s)
    res = ok(s, "reserve_for_pickup", {"store_id": store_id, "product_id": product_id, "quantity": 2})
    assert res["status"] == "active" and res["expires_at"] == "2026-03-18T09:00:00"
    assert available(s, product_id, store_id) == units - 2
    fails(s, "reserve_for_pickup", "insufficient_stock", {"store_id": store_id, "product_id": product_id,
                                                          "quantity": units - 1})
    assert ok(s, "cancel_reservation", {"reservation_id": res["reservation_id"]})["status"] == "cancelled"
    assert available(s, product_id, store_id) == units
    fails(s, "cancel_reservation", "reservation_not_active", {"reservation_id": res["reservation_id"]})


def test_reservations_expire_and_release_stock(s: Session) -> None:
    store_id, product_id, units = pickup_stock(s)
    res = ok(s, "reserve_for_pickup", {"store_id": store_id, "product_id": product_id})
    assert available(s, product_id, store_id) == units - 1
    s.advance(49 * HOUR)
    assert available(s, product_id, store_id) == units
    assert next(r for r in reservations(s, "expired") if r["reservation_id"] == res["reservation_id"])
    fails(s, "collect_reservation", "reservation_expired", {"reservation_id": res["reservation_id"]})
    fails(s, "extend_reservation", "reservation_expired", {"reservation_id": res["reservation_id"]})


def test_extend_once(s: Session) -> None:
    res = reservations(s, "active")[0]
    extended = ok(s, "extend_reservation", {"reservation_id": res["reservation_id"]})
    assert extended["extended"] and extended["expires_at"] > res["expires_at"]
    fails(s, "extend_reservation", "already_extended", {"reservation_id": res["reservation_id"]})


def test_pickup_failures(s: Session) -> None:
    all_stores = stores(s)
    express = next(x for x in all_stores if x["status"] == "open" and not x["offers_pickup"])
    closed = next(x for x in all_stores if x["status"] == "temporarily_closed")
    for store in (express, closed):
        fails(s, "reserve_for_pickup", "pickup_unavailable", {"store_id": store["store_id"],
                                                              "product_id": "PRD-10001"})
    fails(s, "reserve_for_pickup", "not_found", {"store_id": "STR-10001", "product_id": "PRD-99999"})
    expired = reservations(s, "expired")[0]
    fails(s, "collect_reservation", "reservation_expired", {"reservation_id": expired["reservation_id"]})
    fails(s, "cancel_reservation", "reservation_expired", {"reservation_id": expired["reservation_id"]})
    collected = reservations(s, "collected")[0]
    fails(s, "collect_reservation", "reservation_not_active", {"reservation_id": collected["reservation_id"]})
    fails(s, "collect_reservation", "not_found", {"reservation_id": "RES-99999"})


def test_reservation_limit(s: Session) -> None:
    held = len(reservations(s, "active"))
    made = 0
    for store in stores(s, pickup_only=True):
        for product in ok(s, "search_products", {"limit": 50})["products"]:
            if held + made == 5:
                break
            r = s.call("reserve_for_pickup", {"store_id": store["store_id"], "product_id": product["product_id"]})
            made += r.ok
    store_id, product_id, _ = pickup_stock(s, least=1)
    fails(s, "reserve_for_pickup", "reservation_limit_reached", {"store_id": store_id, "product_id": product_id})


def test_collect_at_the_home_store_waits_for_opening(s: Session) -> None:
    home = next(x for x in stores(s) if x["is_home_store"])
    res = next(r for r in reservations(s, "active") if r["store_id"] == home["store_id"])
    fails(s, "collect_reservation", "store_closed", {"reservation_id": res["reservation_id"]})
    start = points(s)
    stock_before = ok(s, "check_price", {"product_id": res["product_id"], "store_id": home["store_id"]})["available"]
    s.advance(HOUR)   # 10:00, the store opens
    pickup = ok(s, "collect_reservation", {"reservation_id": res["reservation_id"]})
    assert pickup["reservation"]["status"] == "collected"
    assert pickup["subtotal"] == res["subtotal"] and pickup["discount"] == 0
    tax_rate = ok(s, "get_store", {"store_id": home["store_id"]})["tax_rate"]
    assert pickup["tax"] == round(res["subtotal"] * tax_rate / 100, 2)
    assert pickup["points_balance"] == points(s) == start + pickup["points_earned"]
    assert pickup["points_earned"] == int(res["subtotal"] * ok(s, "get_loyalty_account")["points_per_dollar"])
    # the held units left the shelf: availability is unchanged, the receipt is there
    assert available(s, res["product_id"], home["store_id"]) == stock_before
    receipt = ok(s, "list_purchases", {"limit": 1})["purchases"][0]
    assert receipt["purchase_id"] == pickup["purchase_id"] and receipt["reservation_id"] == res["reservation_id"]
    fails(s, "collect_reservation", "reservation_not_active", {"reservation_id": res["reservation_id"]})


def test_collect_after_closing_time_then_next_morning(s: Session) -> None:
    res = next(r for r in reservations(s, "active")
               if store_open(s, r["store_id"]) and r["expires_at"] > "2026-03-17T12")
    closes = ok(s, "get_store", {"store_id": res["store_id"]})["weekly_hours"][0]["closes"]
    s.advance((int(closes[:2]) - 9) * HOUR + 60)            # one minute after Monday's closing time
    assert not store_open(s, res["store_id"])
    fails(s, "collect_reservation", "store_closed", {"reservation_id": res["reservation_id"]})
    opens = ok(s, "get_store", {"store_id": res["store_id"]})["next_opening"]
    assert opens.startswith("2026-03-17T")
    s.advance((24 - int(closes[:2]) + int(opens[11:13])) * HOUR)   # Tuesday, at opening time
    assert ok(s, "collect_reservation",
              {"reservation_id": res["reservation_id"]})["reservation"]["status"] == "collected"


# ----- loyalty --------------------------------------------------------------------------------------


def test_redeem_points_then_use_the_certificate_at_pickup(s: Session) -> None:
    pin = ok(s, "get_loyalty_pin")["pin"]
    start = points(s)
    fails(s, "redeem_points", "wrong_pin", {"points": 500, "pin": "0000" if pin != "0000" else "1111"})
    fails(s, "redeem_points", "invalid_points_amount", {"points": 750, "pin": pin})
    fails(s, "redeem_points", "insufficient_points", {"points": start // 500 * 500 + 500, "pin": pin})
    cert = ok(s, "redeem_points", {"points": 500, "pin": pin})
    assert cert["value"] == 5.0 and cert["status"] == "available" and cert["expires_on"] == "2026-06-14"
    account = ok(s, "get_loyalty_account")
    assert account["points"] == start - 500
    assert account["recent_activity"][0]["points"] == -500
    res = next(r for r in reservations(s, "active") if store_open(s, r["store_id"]))
    pickup = ok(s, "collect_reservation",
                {"reservation_id": res["reservation_id"], "certificate_id": cert["certificate_id"]})
    assert pickup["discount"] == min(5.0, res["subtotal"]) and pickup["certificate_id"] == cert["certificate_id"]
    used = next(c for c in ok(s, "get_loyalty_account")["certificates"]
                if c["certificate_id"] == cert["certificate_id"])
    assert used["status"] == "used"
    other = next(r for r in reservations(s, "active") if r["reservation_id"] != res["reservation_id"])
    s.advance(HOUR)
    fails(s, "collect_reservation", "certificate_unavailable", {"reservation_id": other["reservation_id"],
                                                                "certificate_id": cert["certificate_id"]})
    fails(s, "collect_reservation", "not_found", {"reservation_id": other["reservation_id"],
                                                  "certificate_id": "CRT-99999"})


# ----- transfers ------------------------------------------------------------------------------------


def test_transfer_moves_stock_between_stores(s: Session) -> None:
    home = next(x for x in stores(s) if x["is_home_store"])
    src, product_id, units = pickup_stock(s, avoid=home["store_id"])
    fails(s, "reserve_for_pickup", ("not_carried", "insufficient_stock"),
          {"store_id": home["store_id"], "product_id": product_id})
    transfer = ok(s, "request_transfer",
                  {"product_id": product_id, "from_store_id": src, "to_store_id": home["store_id"],
                                          "quantity": 2})
    assert transfer["status"] == "in_transit"
    assert available(s, product_id, src) == units - 2
    assert available(s, product_id, home["store_id"]) == 0
    s.advance(24 * HOUR)
    assert ok(s, "list_transfers", {"status": "in_transit"})["transfers"][0]["transfer_id"] == transfer["transfer_id"]
    s.advance(25 * HOUR)
    listed = next(t for t in ok(s, "list_transfers")["transfers"] if t["transfer_id"] == transfer["transfer_id"])
    assert listed["status"] == "received"
    assert available(s, product_id, home["store_id"]) == 2
    res = ok(s, "reserve_for_pickup", {"store_id": home["store_id"], "product_id": product_id, "quantity": 2})
    assert res["status"] == "active"
    fails(s, "cancel_transfer", "transfer_not_cancellable", {"transfer_id": transfer["transfer_id"]})
    pickup = ok(s, "collect_reservation", {"reservation_id": res["reservation_id"]})   # Wednesday 10:00, open
    assert pickup["reservation"]["status"] == "collected"
    assert available(s, product_id, home["store_id"]) == 0


def test_cancel_a_transfer_returns_the_stock(s: Session) -> None:
    home = next(x for x in stores(s) if x["is_home_store"])
    src, product_id, units = pickup_stock(s)
    dest = home["store_id"] if src != home["store_id"] else stores(s, pickup_only=True)[1]["store_id"]
    transfer = ok(s, "request_transfer", {"product_id": product_id, "from_store_id": src, "to_store_id": dest})
    assert ok(s, "cancel_transfer", {"transfer_id": transfer["transfer_id"]})["status"] == "cancelled"
    assert available(s, product_id, src) == units
    fails(s, "cancel_transfer", "transfer_not_cancellable", {"transfer_id": transfer["transfer_id"]})


def test_transfer_failures(s: Session) -> None:
    all_stores = stores(s)
    closed = next(x for x in all_stores if x["status"] == "temporarily_closed")
    src, product_id, units = pickup_stock(s)
    fails(s, "request_transfer", "same_store", {"product_id": product_id, "from_store_id": src, "to_store_id": src})
    fails(s, "request_transfer", "store_unavailable", {"product_id": product_id, "from_store_id": src,
                                                       "to_store_id": closed["store_id"]})
    other = next(x["store_id"] for x in all_stores if x["store_id"] != src and x["status"] == "open")
    fails(s, "request_transfer", "insufficient_stock",
          {"product_id": product_id, "from_store_id": src, "to_store_id": other,
                                                        "quantity": units + 1})
    fails(s, "request_transfer", "not_found", {"product_id": "PRD-99999", "from_store_id": src, "to_store_id": other})
    arrived = next(t for t in ok(s, "list_transfers")["transfers"] if t["status"] == "received")
    fails(s, "cancel_transfer", "transfer_not_cancellable", {"transfer_id": arrived["transfer_id"]})


def test_an_arrived_transfer_counts_at_the_destination(s: Session) -> None:
    now = "2026-03-16T09:00:00"
    arrived = next(t for t in ok(s, "list_transfers")["transfers"]
                   if t["status"] == "received" and t["arrives_at"] > "2026-03-14")
    assert arrived["arrives_at"] <= now
    units = available(s, arrived["product_id"], arrived["to_store_id"])
    assert units >= arrived["quantity"]
    # a write that settles stock leaves the count unchanged
    ok(s, "request_transfer", {"product_id": arrived["product_id"], "from_store_id": arrived["to_store_id"],
                               "to_store_id": arrived["from_store_id"], "quantity": 1})
    assert available(s, arrived["product_id"], arrived["to_store_id"]) == units - 1


def test_reads_do_not_change_state(s: Session) -> None:
    before = s.fingerprint()
    for tool, args in (("find_stores", {}), ("get_store", {"store_id": "STR-10001"}),
                       ("search_products", {"query": "lamp"}), ("check_availability", {"product_id": "PRD-10001"}),
                       ("list_reservations", {}), ("list_transfers", {}), ("get_loyalty_account", {}),
                       ("list_purchases", {}), ("get_loyalty_pin", {})):
        ok(s, tool, args)
    assert s.fingerprint() == before and not s.diff()


def test_more_state_failures(s: Session) -> None:
    collected = reservations(s, "collected")[0]
    fails(s, "extend_reservation", "reservation_not_active", {"reservation_id": collected["reservation_id"]})
    open_stores = [x for x in stores(s) if x["status"] == "open"]
    for src in open_stores:
        for product in ok(s, "search_products", {"limit": 50})["products"]:
            if not s.call("check_price", {"product_id": product["product_id"], "store_id": src["store_id"]}).ok:
                dest = next(x["store_id"] for x in open_stores if x["store_id"] != src["store_id"])
                fails(s, "request_transfer", "not_carried",
                      {"product_id": product["product_id"], "from_store_id": src["store_id"],
                                                             "to_store_id": dest})
                return
    raise AssertionError("every store carries every product")


@pytest.mark.parametrize("tool, args", [
    ("get_store", {"store_id": "STR-99999"}),
    ("get_product", {"product_id": ""}),
    ("check_availability", {"product_id": "PRD-99999"}),
    ("check_price", {"product_id": "PRD-10001", "store_id": "'; DROP TABLE stores; --"}),
    ("set_home_store", {"store_id": "STR-99999"}),
    ("reserve_for_pickup", {"store_id": "STR-99999", "product_id": "PRD-10001"}),
    ("cancel_reservation", {"reservation_id": "RES-99999"}),
    ("extend_reservation", {"reservation_id": "RES-99999"}),
    ("request_transfer", {"product_id": "PRD-10001", "from_store_id": "STR-99999", "to_store_id": "STR-10001"}),
    ("cancel_transfer", {"transfer_id": "TRF-99999"}),
    ("list_purchases", {"store_id": "STR-99999"}),
])
def test_unknown_ids_are_not_found(s: Session, tool: str, args: dict) -> None:
    fails(s, tool, "not_found", args)


# ----- what the replies of the reads say --------------------------------------------------------


def test_store_open_status_and_hours_agree_with_the_store(s: Session) -> None:
    for store in stores(s):
        got = ok(s, "get_store", {"store_id": store["store_id"]})
        if got["status"] != "open":  # 'temporarily closed for remodeling until April 2', no ISO date
            assert got["open_status"].startswith("temporarily closed ") and "2026-" not in got["open_status"]
        elif got["open_now"]:
            assert got["open_status"].startswith("open now, until ")
        else:
            assert got["open_status"].startswith("closed now")
    # Monday 09:00: a store that opens at 10 says when it opens, today
    later = [st for st in stores(s) if st["status"] == "open" and not st["open_now"]]
    assert later
    assert all("opening" in ok(s, "get_store", {"store_id": st["store_id"]})["open_status"] for st in later)


def test_store_hours_text_groups_days_with_the_same_hours() -> None:
    from prove.servers.retail_chain.tools_stores import hours_text
    week = {d: ("09:00", "21:00") for d in range(5)} | {5: ("10:00", "20:30")}
    assert hours_text(week) == "Monday to Friday 9 AM-9 PM, Saturday 10 AM-8:30 PM, closed Sunday"
    assert hours_text({0: ("09:00", "17:00"), 1: ("09:00", "17:00")}).startswith("Monday and Tuesday 9 AM-5 PM")
    # a closed day is said last, not as the start of the week
    assert hours_text({d: ("07:00", "18:00") for d in range(1, 7)}) == "Tuesday to Sunday 7 AM-6 PM, closed Monday"
    assert hours_text({d: ("07:00", "22:00") for d in range(7)}) == "every day 7 AM-10 PM"
    # the same hours on both sides of a closed day are said once
    assert hours_text({d: ("11:00", "23:00") for d in (0, 2, 3, 4, 5, 6)}) == \
        "Monday and Wednesday to Sunday 11 AM-11 PM, closed Tuesday"


def test_availability_names_the_stores(s: Session) -> None:
    product = ok(s, "search_products", {"limit": 1})["products"][0]
    got = ok(s, "check_availability", {"product_id": product["product_id"], "in_stock_only": False})
    assert got["stores"]
    for st in got["stores"]:
        assert (f"{st['store_name']} ({st['available']} at ${st['price']:.2f})" if st["available"]
                else f"{st['store_name']} (none left, ${st['price']:.2f})") in got["stores_text"]
    none = ok(s, "check_availability", {"product_id": product["product_id"], "city": "Yakima"})
    assert none["stores_text"] == "nowhere in Yakima right now"


def test_a_new_home_store_is_not_the_current_one() -> None:
    assert "home_store_id" in SERVER.tools["set_home_store"].params[0].where


def test_price_check_says_whether_it_is_on_clearance(s: Session) -> None:
    seen = set()
    for store in stores(s, pickup_only=True):
        for item in ok(s, "search_products", {"limit": 50})["products"]:
            got = s.call("check_price", {"product_id": item["product_id"], "store_id": store["store_id"]})
            if not got.ok:
                continue
            d = got.data
            seen.add(d["on_clearance"])
            if d["on_clearance"]:
                assert d["clearance_note"] == (f"it's on clearance, ${d['savings']:.2f} off the "
                                               f"${d['list_price']:.2f} list price")
            else:
                assert d["clearance_note"] == "it isn't on clearance"
    assert seen == {True, False}


def test_a_receipt_says_what_was_bought(s: Session) -> None:
    purchases = ok(s, "list_purchases", {"limit": 50})["purchases"]
    assert any(len(p["items"]) > 1 for p in purchases)
    for p in purchases:
        named = [i["product_name"] if i["quantity"] == 1 else f"{i['quantity']} × {i['product_name']}"
                 for i in p["items"]]
        if len(named) <= 3:
            assert all(n in p["summary"] for n in named), p["summary"]
        else:
            assert p["summary"].endswith(f" and {len(named) - 2} more"), p["summary"]


def test_the_loyalty_account_names_the_certificates_that_can_be_used_and_counts_the_rest(s: Session) -> None:
    ok(s, "redeem_points", {"points": 500, "pin": ok(s, "get_loyalty_pin")["pin"]})
    got = ok(s, "get_loyalty_account")
    assert got["certificates"]
    spent = 0
    for c in got["certificates"]:
        if c["status"] == "available":
            assert f"({c['certificate_id']}, available until" in got["certificates_text"], got["certificates_text"]
        else:
            assert c["certificate_id"] not in got["certificates_text"], got["certificates_text"]
            spent += 1
    assert spent and got["certificates_text"].endswith(f", besides {spent} used or expired")
    assert any(r.text.count("{result.certificates_text}") for r in SERVER.tools["get_loyalty_account"].replies)
