"""Behaviour tests of the travel booking server: its world, its main flows and its failures.

Every test works on a fresh `Session("travel_booking", world=0)` and finds what it needs through
the server's own tools, the way a model would (the template database only to find a sold-out
hotel night), so the tests describe behaviour rather than the particular rows of one world.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

import pytest

from prove.env import INTERNAL_ERROR, INTERNAL_ERRORS, Session, registry

from .helpers import fails, ok, session_fixture

TODAY = date(2026, 3, 16)
NOW = datetime(2026, 3, 16, 9, 0)
SERVER = registry.get("travel_booking")


s = session_fixture("travel_booking")


def day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


def me(s: Session) -> str:
    return ok(s, "get_profile")["traveler_id"]


def traveler(s: Session, relationship: str) -> dict:
    return ok(s, "list_travelers", {"relationship": relationship})["travelers"][0]


def no_passport(s: Session) -> dict:
    return next(t for t in ok(s, "list_travelers")["travelers"] if not t["passport_on_file"])


def expiring_passport(s: Session) -> dict:
    return next(t for t in ok(s, "list_travelers")["travelers"]
                if t["passport_expiry"] and t["passport_expiry"] < "2026-10-01")


def card(s: Session, expired: bool = False) -> str:
    return next(c["payment_method_id"] for c in ok(s, "list_payment_methods")["payment_methods"]
                if c["expired"] == expired)


def routes(s: Session) -> tuple[str, list[str], list[str]]:
    """The home airport, its domestic and its international direct destinations."""
    home = ok(s, "get_profile")["home_airport"]
    airports = {a["code"]: a for a in ok(s, "list_airports")["airports"]}
    dests = airports[home]["nonstop_destinations"]
    domestic = [d for d in dests if airports[d]["country"] == "US"]
    return home, domestic, [d for d in dests if d not in domestic]


def flights(s: Session, origin: str, destination: str, offset: int, everything: bool = False, **kw: Any) -> list[dict]:
    """The flights of a day on a route; only those with seats for the passengers unless `everything`."""
    found = ok(s, "search_flights",
               {"origin": origin, "destination": destination, "departure_date": day(offset), **kw})["flights"]
    return found if everything else [f for f in found if f["available"]]


def upcoming(s: Session) -> list[dict]:
    return [ok(s, "get_booking", {"booking_id": b["booking_id"]})
            for b in ok(s, "list_bookings", {"upcoming_only": True, "limit": 100})["bookings"]]


def tomorrow_flight(s: Session) -> dict:
    """The work trip's outbound flight, which leaves tomorrow morning (check-in is open)."""
    return next(b for b in upcoming(s) if b["kind"] == "flight" and b["flight"]["departs_at"] < day(1) + "T09:00")


def international_trip_flight(s: Session) -> dict:
    """The outbound flight of the international trip with the partner."""
    home, _, abroad = routes(s)
    return next(b for b in upcoming(s) if b["kind"] == "flight" and b["flight"]["origin"] == home
                and b["flight"]["destination"] in abroad)


def airline_cancelled(s: Session) -> dict:
    return next(b for b in upcoming(s) if b["kind"] == "flight" and b["flight"]["flight_status"] == "cancelled")


def basic_bought_yesterday(s: Session) -> dict:
    return next(b for b in upcoming(s) if b["kind"] == "flight" and b["flight"]["fare"] == "basic_economy")


def seats_left(s: Session, flight_id: str, fare: str = "economy") -> int:
    return next(f["seats_left"] for f in ok(s, "get_flight", {"flight_id": flight_id})["fares"] if f["fare"] == fare)


def points(s: Session) -> int:
    return ok(s, "get_loyalty_account", {"limit": 1})["points_balance"]


# ----- the server and its world -----------------------------------------------------------------


def test_server_declares_documented_tools():
    visible = SERVER.visible_tools
    assert len(visible) >= 20
    for tool in visible:
        assert len(tool.asks) >= 2, tool.name
    assert SERVER.tools["get_traveler_passport"].hidden
    assert SERVER.tools["update_traveler_passport"].sensitive_params == ("passport_number",)
    assert SERVER.tools["add_traveler"].sensitive_params == ("passport_number",)
    assert SERVER.tools["add_payment_card"].sensitive_params == ("card_number",)
    assert set(SERVER.entities) == {"airport", "airline", "flight", "hotel", "room_type", "booking", "trip",
                                    "traveler", "payment_method", "payment", "loyalty_activity"}
    assert SERVER.on_advance is not None


def test_worlds_differ_by_seed_and_stay_small():
    with Session("travel_booking", world=0) as a, Session("travel_booking", world=1) as c:
        assert ok(a, "get_profile")["name"] != ok(c, "get_profile")["name"]
    assert SERVER.template(0).size < 250_000


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_world_has_a_realistic_size_and_the_situations_tasks_need(seed):
    db = SERVER.template(seed).db

    def count(table: str, where: str = "1") -> int:
        return db.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0]

    assert count("accounts") == 1
    assert count("flights") >= 400 and count("hotels") >= 20 and count("room_types") >= 60
    assert count("flights", "status = 'cancelled'") >= 2
    assert count("flights", "economy_sold >= 60 AND departs_at > '2026-03-18'") > 0
    assert count("travelers", "passport_number IS NULL") >= 1
    assert count("travelers", "passport_expiry < '2026-10-01'") >= 1
    assert count("payment_methods", "expires_on < '2026-03-16'") == 1
    assert count("bookings", "status = 'completed'") >= 6
    assert count("bookings", "status = 'cancelled'") == 1
    assert count("bookings", "status = 'confirmed'") >= 8
    assert count("room_blocks", "rooms_taken = (SELECT rooms_total FROM room_types r "
                                "WHERE r.room_type_id = room_blocks.room_type_id)") > 0
    (balance,) = db.execute("SELECT points_balance FROM accounts").fetchone()
    assert balance == db.execute("SELECT sum(points) FROM loyalty_activity").fetchone()[0]


def test_every_seed_has_the_fixture_bookings():
    for seed in range(6):
        with Session("travel_booking", world=seed) as s:
            assert tomorrow_flight(s)["flight"]["checked_in"] is False
            assert len(international_trip_flight(s)["passengers"]) == 2
            assert airline_cancelled(s)["flight"]["fare"] == "economy"
            assert ok(s, "get_cancellation_quote", {"booking_id": basic_bought_yesterday(s)["booking_id"]})["fee"] == 0


# ----- flights: search and booking ----------------------------------------------------------------


def test_search_filters_and_sorting(s):
    home, domestic, _ = routes(s)
    found = flights(s, home, domestic[0], 4, limit=100)
    assert found and [f["lowest_price"] for f in found] == sorted(f["lowest_price"] for f in found)
    assert all(f["origin"] == home and f["departs_at"].startswith(day(4)) for f in found)
    by_time = flights(s, home, domestic[0], 4, sort_by="departure")
    assert [f["departs_at"] for f in by_time] == sorted(f["departs_at"] for f in by_time)
    late = flights(s, home, domestic[0], 4, depart_after="12:00")
    assert late and all(f["departs_at"][11:16] >= "12:00" for f in late)
    airline = found[0]["airline_code"]
    assert all(f["airline_code"] == airline for f in flights(s, home, domestic[0], 4, airline=airline.lower()))
    cheap = min(f["lowest_price"] for f in found)
    assert all(f["lowest_price"] <= cheap for f in flights(s, home, domestic[0], 4, max_price=cheap))
    business = flights(s, home, domestic[0], 4, cabin="business", passengers=2)
    assert all(f["lowest_fare"] == "business" and f["total_price"] == pytest.approx(2 * f["lowest_price"])
               for f in business)
    # flights that left this morning are not offered
    assert all(f["departs_at"] > "2026-03-16T09:00:00" for f in flights(s, home, domestic[0], 0))


def test_search_errors(s):
    home, domestic, _ = routes(s)
    fails(s, "search_flights", "same_airport", {"origin": home, "destination": home, "departure_date": day(3)})
    unserved = next(a["code"] for a in ok(s, "list_airports")["airports"]
                    if a["code"] != home and a["code"] not in routes(s)[1] + routes(s)[2])
    fails(s, "search_flights", "no_route", {"origin": home, "destination": unserved, "departure_date": day(3)})
    fails(s, "search_flights", "past_date", {"origin": home, "destination": domestic[0], "departure_date": day(-1)})
    fails(s, "search_flights", "no_schedule", {"origin": home, "destination": domestic[0], "departure_date": day(40)})
    fails(s, "search_flights", "invalid_time_range",
          {"origin": home, "destination": domestic[0], "departure_date": day(3),
                                                      "depart_after": "18:00", "depart_before": "09:00"})
    fails(s, "search_flights", "not_found", {"origin": "XXX", "destination": domestic[0], "departure_date": day(3)})
    fails(s, "search_flights", "not_found", {"origin": home, "destination": domestic[0], "departure_date": day(3),
                                             "airline": "ZZ"})
    fails(s, "search_flights", "invalid_arguments",
          {"origin": home, "destination": domestic[0], "departure_date": "tomorrow"})


def test_book_a_flight_and_see_it_everywhere(s):
    home, domestic, _ = routes(s)
    flight = flights(s, home, domestic[1], 5, passengers=2)[0]
    child = no_passport(s)["traveler_id"]
    pay = card(s)
    before = seats_left(s, flight["flight_id"])
    booking = ok(s, "book_flight", {"flight_id": flight["flight_id"], "fare": "economy", "traveler_ids": [me(s), child],
                                    "payment_method_id": pay})
    assert booking["status"] == "confirmed" and re.fullmatch(r"[A-Z0-9]{6}", booking["confirmation_code"])
    assert booking["flight"]["flight_id"] == flight["flight_id"] and booking["flight"]["fare"] == "economy"
    assert {p["traveler_id"] for p in booking["passengers"]} == {me(s), child}
    price = next(f["price"] for f in ok(s, "get_flight", {"flight_id": flight["flight_id"]})["fares"]
                 if f["fare"] == "economy")
    assert booking["total_charged"] == pytest.approx(2 * price)
    assert booking["payments"][0]["payment_method_id"] == pay
    assert seats_left(s, flight["flight_id"]) == before - 2
    assert ok(s, "get_booking", {"booking_id": booking["booking_id"]}) == booking
    listed = ok(s, "list_bookings", {"upcoming_only": True, "kind": "flight", "limit": 100})["bookings"]
    assert booking["booking_id"] in {b["booking_id"] for b in listed}
    changes = s.diff().tables()
    assert changes["travel_booking.bookings"]["insert"] == 1
    assert changes["travel_booking.booking_passengers"]["insert"] == 2
    assert changes["travel_booking.payments"]["insert"] == 1
    # the same travellers cannot be booked twice on that flight
    fails(s, "book_flight", "already_booked",
          {"flight_id": flight["flight_id"], "fare": "economy", "traveler_ids": [child],
                                               "payment_method_id": pay})


def test_overbooking_fails(s):
    home, domestic, abroad = routes(s)
    nearly = sold_out = None
    for offset in range(3, 21):
        for dest in domestic + abroad:
            for f in flights(s, home, dest, offset, everything=True):
                if f["seats_left"] == 1 and nearly is None:
                    nearly = f
                if f["seats_left"] == 0 and sold_out is None:
                    sold_out = f
    assert nearly is not None and sold_out is not None
    assert sold_out["available"] is False
    pay = card(s)
    partner = traveler(s, "partner")["traveler_id"]
    fails(s, "book_flight", "sold_out", {"flight_id": sold_out["flight_id"], "fare": "economy", "traveler_ids": [me(s)],
                                         "payment_method_id": pay})
    fails(s, "book_flight", "sold_out",
          {"flight_id": nearly["flight_id"], "fare": "basic_economy", "traveler_ids": [me(s), partner],
                                         "payment_method_id": pay})
    ok(s, "book_flight", {"flight_id": nearly["flight_id"], "fare": "basic_economy", "traveler_ids": [me(s)],
                          "payment_method_id": pay})
    assert seats_left(s, nearly["flight_id"]) == 0
    fails(s, "book_flight", "sold_out",
          {"flight_id": nearly["flight_id"], "fare": "economy_flex", "traveler_ids": [partner],
                                         "payment_method_id": pay})
    # business still has room
    ok(s, "book_flight",
       {"flight_id": nearly["flight_id"], "fare": "business", "traveler_ids": [partner], "payment_method_id": pay})


def test_book_flight_failures(s):
    home, domestic, abroad = routes(s)
    pay, old_card = card(s), card(s, expired=True)
    flight = flights(s, home, domestic[1], 6)[0]["flight_id"]
    departed = ok(s, "list_bookings", {"status": "completed", "kind": "flight"})["bookings"][0]
    gone = ok(s, "get_booking", {"booking_id": departed["booking_id"]})["flight"]["flight_id"]
    fails(s, "book_flight", "past_date", {"flight_id": gone, "fare": "economy", "traveler_ids": [me(s)],
                                          "payment_method_id": pay})
    cancelled = airline_cancelled(s)["flight"]["flight_id"]
    fails(s, "book_flight", "flight_cancelled", {"flight_id": cancelled, "fare": "economy", "traveler_ids": [me(s)],
                                                 "payment_method_id": pay})
    fails(s, "book_flight", "cabin_unavailable",
          {"flight_id": flight, "fare": "premium_economy", "traveler_ids": [me(s)],
                                                  "payment_method_id": pay})
    fails(s, "book_flight", "duplicate_passenger",
          {"flight_id": flight, "fare": "economy", "traveler_ids": [me(s), me(s)],
                                                    "payment_method_id": pay})
    fails(s, "book_flight", "invalid_payment", {"flight_id": flight, "fare": "economy", "traveler_ids": [me(s)]})
    fails(s, "book_flight", "invalid_payment",
          {"flight_id": flight, "fare": "economy", "traveler_ids": [me(s)], "payment_method_id": pay,
                                                "use_points": True})
    fails(s, "book_flight", "card_expired", {"flight_id": flight, "fare": "economy", "traveler_ids": [me(s)],
                                             "payment_method_id": old_card})
    fails(s, "book_flight", "not_found", {"flight_id": flight, "fare": "economy", "traveler_ids": ["TRV-1"],
                                          "payment_method_id": pay})
    fails(s, "book_flight", "not_found",
          {"flight_id": flight, "fare": "economy", "traveler_ids": [me(s)], "payment_method_id": pay,
                                          "trip_id": "TRP-1"})
    fails(s, "book_flight", "invalid_arguments", {"flight_id": flight, "fare": "first", "traveler_ids": [me(s)],
                                                  "payment_method_id": pay})
    fails(s, "book_flight", "invalid_arguments", {"flight_id": flight, "fare": "economy", "traveler_ids": [],
                                                  "payment_method_id": pay})
    far = flights(s, home, abroad[0], 8, cabin="business")[0]["flight_id"]
    fails(s, "book_flight", "insufficient_points", {"flight_id": far, "fare": "business", "traveler_ids": [me(s)],
                                                    "use_points": True})


def test_a_child_under_15_flies_with_an_older_traveller(s):
    """"Book the AS 1489 flight ... in business for Caleb Thomas", the user's 5-year-old, alone: a child under 15
    on the day of the flight is booked only with someone older."""
    home, domestic, _ = routes(s)
    flight = next(f for f in flights(s, home, domestic[1], 9) if f["seats_left"] >= 2)
    day = date.fromisoformat(flight["departs_at"][:10])
    travelers = ok(s, "list_travelers", {})["travelers"]
    born = {t["traveler_id"]: date.fromisoformat(t["date_of_birth"]) for t in travelers}
    child = next(t for t, b in born.items() if (b.year + 15, b.month, b.day) > (day.year, day.month, day.day))
    args = {"flight_id": flight["flight_id"], "fare": "economy", "payment_method_id": card(s)}
    error = fails(s, "book_flight", "unaccompanied_minor", {**args, "traveler_ids": [child]})
    assert "15 or older" in error["message"]
    booking = ok(s, "book_flight", {**args, "traveler_ids": [child, me(s)]})
    assert len(booking["passengers"]) == 2


def test_passports_gate_international_flights(s):
    home, _, abroad = routes(s)
    flight = next(f for f in flights(s, home, abroad[0], 9) if f["seats_left"] >= 3)["flight_id"]
    pay = card(s)
    child, elder = no_passport(s), expiring_passport(s)
    with s.fork() as domestic:  # domestic flights need no passport
        other = flights(domestic, home, routes(s)[1][1], 9)[0]["flight_id"]
        ok(domestic, "book_flight", {"flight_id": other, "fare": "economy",
                                     "traveler_ids": [me(s), child["traveler_id"]], "payment_method_id": pay})
    fails(s, "book_flight", "passport_required",
          {"flight_id": flight, "fare": "economy", "traveler_ids": [me(s), child["traveler_id"]],
                                                  "payment_method_id": pay})
    fails(s, "book_flight", "passport_expiring",
          {"flight_id": flight, "fare": "economy", "traveler_ids": [elder["traveler_id"]],
                                                  "payment_method_id": pay})
    updated = ok(s, "update_traveler_passport", {"traveler_id": child["traveler_id"], "passport_number": "C0 3385 172",
                                                 "passport_expiry": "2031-08-31"})
    assert updated["passport_on_file"] and updated["passport_ending"] == "172"
    assert ok(s, "get_traveler_passport", {"traveler_id": child["traveler_id"]})["passport_number"] == "C03385172"
    ok(s, "update_traveler_passport", {"traveler_id": elder["traveler_id"], "passport_number": "581234567",
                                       "passport_expiry": "2035-01-31"})
    booking = ok(s, "book_flight", {"flight_id": flight, "fare": "economy",
                                    "traveler_ids": [me(s), child["traveler_id"], elder["traveler_id"]],
                                    "payment_method_id": pay})
    assert len(booking["passengers"]) == 3
    fails(s, "update_traveler_passport", "invalid_passport", {"traveler_id": me(s), "passport_number": "12-34",
                                                              "passport_expiry": "2031-01-01"})
    fails(s, "update_traveler_passport", "passport_expired", {"traveler_id": me(s), "passport_number": "512345678",
                                                              "passport_expiry": "2025-01-01"})


def test_pay_with_points_and_get_them_back(s):
    home, domestic, _ = routes(s)
    flight = flights(s, home, domestic[0], 7)[0]
    balance = points(s)
    booking = ok(s, "book_flight", {"flight_id": flight["flight_id"], "fare": "economy_flex", "traveler_ids": [me(s)],
                                    "use_points": True})
    price = seats_price = next(f["price"] for f in ok(s, "get_flight", {"flight_id": flight["flight_id"]})["fares"]
                                if f["fare"] == "economy_flex")
    assert seats_price == price
    spent = round(price * 100)
    assert booking["points_used"] == spent and booking["payment_method_id"] is None and booking["total_charged"] == 0
    assert points(s) == balance - spent
    activity = ok(s, "get_loyalty_account", {"limit": 1})["activity"][0]
    assert activity["points"] == -spent and activity["booking_id"] == booking["booking_id"]
    # bags on a points booking need a card
    fails(s, "add_bags", "payment_required", {"booking_id": booking["booking_id"], "bags": 3})
    done = ok(s, "cancel_booking", {"booking_id": booking["booking_id"]})
    assert done["refund_points"] == spent and done["refund_amount"] == 0 and done["fee"] == 0
    assert points(s) == balance


# ----- cancellation and refunds -------------------------------------------------------------------


def test_24_hour_rule_refunds_a_basic_fare_in_full_until_a_day_after_booking(s):
    booking = basic_bought_yesterday(s)
    bid = booking["booking_id"]
    quote = ok(s, "get_cancellation_quote", {"booking_id": bid})
    assert quote["fee"] == 0 and quote["refund_amount"] == booking["total_charged"]
    created = datetime.fromisoformat(booking["created_at"])
    with s.fork() as late:
        late.advance(created + timedelta(hours=24, minutes=1) - NOW)
        later = ok(late, "get_cancellation_quote", {"booking_id": bid})
        assert later["refund_amount"] == 0 and later["fee"] == booking["total_charged"]
        assert "non-refundable" in later["reason"]
        assert ok(late, "cancel_booking", {"booking_id": bid})["refund_amount"] == 0
    done = ok(s, "cancel_booking", {"booking_id": bid})
    assert done["refund_amount"] == booking["total_charged"]
    assert done["booking"]["status"] == "cancelled" and done["booking"]["total_refunded"] == booking["total_charged"]
    assert done["booking"]["payments"][-1]["kind"] == "refund"
    fails(s, "cancel_booking", "booking_cancelled", {"booking_id": bid})
    fails(s, "get_cancellation_quote", "booking_cancelled", {"booking_id": bid})
    assert bid in {b["booking_id"] for b in ok(s, "list_bookings", {"status": "cancelled"})["bookings"]}


def test_main_cabin_cancellation_keeps_the_fee_and_releases_the_seats(s):
    booking = international_trip_flight(s)
    flight_id = booking["flight"]["flight_id"]
    seats = {p["seat"] for p in booking["passengers"]}
    free_before = {x["seat"] for x in ok(s, "get_seat_map", {"flight_id": flight_id})["seats"]}
    assert not seats & free_before
    left = seats_left(s, flight_id)
    done = ok(s, "cancel_booking", {"booking_id": booking["booking_id"]})
    assert done["fee"] == 300.0
    assert done["refund_amount"] == pytest.approx(booking["total_charged"] - 300.0)
    free_after = {x["seat"] for x in ok(s, "get_seat_map", {"flight_id": flight_id})["seats"]}
    assert seats <= free_after
    assert seats_left(s, flight_id) == left + 2


def test_hotel_cancellation_depends_on_rate_plan_and_timing(s):
    stays = [b for b in upcoming(s) if b["kind"] == "hotel"]
    tomorrow = next(b for b in stays if b["stay"]["check_in"] == day(1))
    quote = ok(s, "get_cancellation_quote", {"booking_id": tomorrow["booking_id"]})
    assert quote["fee"] > 0 and "first night" in quote["reason"]
    prepaid = next(b for b in stays if b["stay"]["rate_plan"] == "non_refundable")
    assert ok(s, "get_cancellation_quote", {"booking_id": prepaid["booking_id"]})["refund_amount"] == 0
    flexible = next(b for b in stays if b["stay"]["rate_plan"] == "flexible" and b["stay"]["check_in"] > day(5))
    assert ok(s, "get_cancellation_quote", {"booking_id": flexible["booking_id"]})["fee"] == 0
    deadline = datetime.fromisoformat(flexible["stay"]["free_cancellation_until"])
    with s.fork() as late:
        late.advance(deadline - NOW + timedelta(minutes=1))
        assert ok(late, "get_cancellation_quote", {"booking_id": flexible["booking_id"]})["fee"] > 0
    with s.fork() as started:
        started.advance(timedelta(days=1, hours=7))  # tomorrow 16:00: the work trip's stay has begun
        fails(started, "cancel_booking", "stay_started", {"booking_id": tomorrow["booking_id"]})
    done = ok(s, "cancel_booking", {"booking_id": flexible["booking_id"]})
    assert done["refund_amount"] == flexible["total_charged"]


# ----- changes, seats, bags, check-in -------------------------------------------------------------


def test_change_flight_charges_the_fee_and_fare_difference(s):
    home, domestic, _ = routes(s)
    outbound = tomorrow_flight(s)
    bid, old = outbound["booking_id"], outbound["flight"]
    dest = old["destination"]
    choices = [f for f in flights(s, home, dest, 4) if f["available"]]
    new = choices[0]["flight_id"]
    prices = {fid: next(f["price"] for f in ok(s, "get_flight", {"flight_id": fid})["fares"] if f["fare"] == "economy")
              for fid in (old["flight_id"], new)}
    left = seats_left(s, old["flight_id"])
    change = ok(s, "change_flight", {"booking_id": bid, "new_flight_id": new})
    assert change["change_fee"] == 75.0
    assert change["fare_difference"] == pytest.approx(max(0.0, prices[new] - prices[old["flight_id"]]))
    assert change["amount_charged"] == pytest.approx(change["change_fee"] + change["fare_difference"])
    assert change["booking"]["flight"]["flight_id"] == new and change["previous_flight_id"] == old["flight_id"]
    assert change["booking"]["payments"][-1]["amount"] == pytest.approx(change["amount_charged"])
    assert seats_left(s, old["flight_id"]) == left + 1
    fails(s, "change_flight", "same_flight", {"booking_id": bid, "new_flight_id": new})


def test_change_options_are_flights_the_booking_moves_to_at_the_quoted_cost(s):
    """list_change_options finds what change_flight takes (change_flight needs it first)."""
    assert list(SERVER.tools["change_flight"].needs) == ["list_change_options"]
    outbound = tomorrow_flight(s)
    bid, old = outbound["booking_id"], outbound["flight"]
    found = ok(s, "list_change_options", {"booking_id": bid})
    assert found["total"] == len(found["options"]) > 0 and found["passengers"] == len(outbound["passengers"])
    assert found["cheapest_change_cost"] == min(o["change_cost"] for o in found["options"])
    for option in found["options"][:3]:
        flight = ok(s, "get_flight", {"flight_id": option["flight_id"]})
        assert (flight["origin"], flight["destination"]) == (old["origin"], old["destination"])
        assert option["flight_id"] != old["flight_id"] and flight["departs_at"] > "2026-03-16T09:00"
        with s.fork() as moved:
            change = ok(moved, "change_flight", {"booking_id": bid, "new_flight_id": option["flight_id"]})
            assert change["amount_charged"] == pytest.approx(option["change_cost"])
            assert change["change_fee"] == pytest.approx(option["change_fee"])
    basic = basic_bought_yesterday(s)
    fails(s, "list_change_options", "change_not_allowed", {"booking_id": basic["booking_id"]})
    hotel = next(b for b in upcoming(s) if b["kind"] == "hotel")
    fails(s, "list_change_options", "not_a_flight", {"booking_id": hotel["booking_id"]})


def test_change_flight_failures(s):
    home, domestic, _ = routes(s)
    outbound = tomorrow_flight(s)
    bid, dest = outbound["booking_id"], outbound["flight"]["destination"]
    elsewhere = flights(s, home, domestic[-1] if domestic[-1] != dest else domestic[0], 4)[0]["flight_id"]
    fails(s, "change_flight", "route_mismatch", {"booking_id": bid, "new_flight_id": elsewhere})
    basic = basic_bought_yesterday(s)
    same_route = flights(s, home, basic["flight"]["destination"], 8)[0]["flight_id"]
    fails(s, "change_flight", "change_not_allowed", {"booking_id": basic["booking_id"], "new_flight_id": same_route})
    hotel = next(b for b in upcoming(s) if b["kind"] == "hotel")
    fails(s, "change_flight", "not_a_flight", {"booking_id": hotel["booking_id"], "new_flight_id": same_route})
    departed = ok(s, "search_flights",
                  {"origin": home, "destination": dest, "departure_date": day(0), "limit": 100})["flights"]
    assert all(f["departs_at"] > "2026-03-16T09:00" for f in departed)
    fails(s, "change_flight", "not_found", {"booking_id": bid, "new_flight_id": "FLT-1"})
    fails(s, "change_flight", "card_expired",
          {"booking_id": bid, "new_flight_id": flights(s, home, dest, 4)[0]["flight_id"],
                                               "payment_method_id": card(s, expired=True)})


def test_airline_cancellation_free_rebooking_or_automatic_refund(s):
    booking = airline_cancelled(s)
    bid, old = booking["booking_id"], booking["flight"]
    fails(s, "check_in", "flight_cancelled", {"booking_id": bid})
    quote = ok(s, "get_cancellation_quote", {"booking_id": bid})
    assert quote["fee"] == 0 and "airline" in quote["reason"]
    home = old["origin"]
    alternative = next(f for f in flights(s, home, old["destination"], int(old["departs_at"][8:10]) - 16)
                       if f["seats_left"] >= 2 and f["flight_id"] != old["flight_id"])
    with s.fork() as rebooked:
        change = ok(rebooked, "change_flight", {"booking_id": bid, "new_flight_id": alternative["flight_id"]})
        assert change["change_fee"] == 0 and change["amount_charged"] == 0
    # left alone, the booking is refunded in full when the cancelled flight would have left
    s.advance(datetime.fromisoformat(old["departs_at"]) - NOW + timedelta(minutes=1))
    after = ok(s, "get_booking", {"booking_id": bid})
    assert after["status"] == "cancelled" and after["total_refunded"] == booking["total_charged"]


def test_seat_selection(s):
    booking = international_trip_flight(s)
    bid, flight_id = booking["booking_id"], booking["flight"]["flight_id"]
    me_, partner = booking["passengers"][0], booking["passengers"][1]
    aisle = ok(s, "get_seat_map", {"flight_id": flight_id, "position": "aisle"})["seats"][0]["seat"]
    moved = ok(s, "select_seat", {"booking_id": bid, "traveler_id": me_["traveler_id"], "seat": aisle.lower()})
    assert moved["seat"] == aisle and moved["position"] == "aisle" and moved["previous_seat"] == me_["seat"]
    taken = ok(s, "get_seat_map", {"flight_id": flight_id, "include_taken": True})["seats"]
    assert next(x for x in taken if x["seat"] == aisle)["available"] is False
    assert next(x for x in taken if x["seat"] == me_["seat"])["available"] is True
    fails(s, "select_seat", "seat_taken", {"booking_id": bid, "traveler_id": partner["traveler_id"], "seat": aisle})
    fails(s, "select_seat", "invalid_seat", {"booking_id": bid, "traveler_id": partner["traveler_id"], "seat": "99Z"})
    fails(s, "select_seat", "wrong_cabin", {"booking_id": bid, "traveler_id": partner["traveler_id"], "seat": "1A"})
    outsider = no_passport(s)["traveler_id"]
    fails(s, "select_seat", "not_on_booking", {"booking_id": bid, "traveler_id": outsider, "seat": "40A"})
    basic = basic_bought_yesterday(s)
    fails(s, "select_seat", "seat_selection_not_allowed", {"booking_id": basic["booking_id"], "traveler_id": me(s),
                                                           "seat": "20A"})


def test_checked_bags_and_their_fees(s):
    booking = tomorrow_flight(s)
    bid = booking["booking_id"]
    allowance = booking["passengers"][0]["free_bags"]
    fees = [0.0 if i <= allowance else (35.0, 45.0, 150.0)[i - 1] for i in (1, 2, 3)]
    first = ok(s, "add_bags", {"booking_id": bid, "bags": 2})
    assert first["fee_charged"] == sum(fees[:2]) and first["passengers"][0]["checked_bags"] == 2
    fails(s, "add_bags", "bag_limit", {"booking_id": bid, "bags": 2})
    third = ok(s, "add_bags", {"booking_id": bid, "bags": 1, "payment_method_id": card(s)})
    assert third["fee_charged"] == fees[2]
    assert ok(s, "get_booking", {"booking_id": bid})["total_charged"] == pytest.approx(
        booking["total_charged"] + sum(fees))
    fails(s, "add_bags", "bag_limit", {"booking_id": bid, "bags": 1})
    fails(s, "add_bags", "invalid_arguments", {"booking_id": bid, "bags": 4})
    fails(s, "add_bags", "not_on_booking", {"booking_id": bid, "bags": 1, "traveler_id": no_passport(s)["traveler_id"]})


def test_check_in_window_and_boarding_passes(s):
    booking = tomorrow_flight(s)
    bid = booking["booking_id"]
    departs = datetime.fromisoformat(booking["flight"]["departs_at"])
    with s.fork() as late:
        late.advance(departs - NOW - timedelta(minutes=30))
        fails(late, "check_in", "check_in_closed", {"booking_id": bid})
        late.advance(timedelta(minutes=45))
        fails(late, "check_in", "already_departed", {"booking_id": bid})
    done = ok(s, "check_in", {"booking_id": bid})
    seat = done["boarding_passes"][0]["seat"]
    assert seat and done["checked_in_at"] == "2026-03-16T09:00:00"
    after = ok(s, "get_booking", {"booking_id": bid})
    assert after["flight"]["checked_in"] and after["passengers"][0]["seat"] == seat
    fails(s, "check_in", "already_checked_in", {"booking_id": bid})
    fails(s, "check_in", "check_in_not_open", {"booking_id": international_trip_flight(s)["booking_id"]})
    hotel = next(b for b in upcoming(s) if b["kind"] == "hotel")
    fails(s, "check_in", "not_a_flight", {"booking_id": hotel["booking_id"]})


def test_time_completes_bookings_and_earns_points(s):
    booking = tomorrow_flight(s)
    balance = points(s)
    tier_rate = ok(s, "get_loyalty_account")["flight_points_per_dollar"]
    s.advance(timedelta(days=1, hours=12))
    done = ok(s, "get_booking", {"booking_id": booking["booking_id"]})
    assert done["status"] == "completed" and done["flight"]["flight_status"] == "landed"
    earned = int(booking["total_charged"] * tier_rate)
    assert points(s) == balance + earned
    latest = ok(s, "get_loyalty_account", {"limit": 1})["activity"][0]
    assert latest["booking_id"] == booking["booking_id"] and latest["points"] == earned
    fails(s, "cancel_booking", "already_departed", {"booking_id": booking["booking_id"]})
    assert booking["booking_id"] in {b["booking_id"] for b in ok(s, "list_bookings", {"status": "completed",
                                                                                      "limit": 100})["bookings"]}


# ----- hotels -------------------------------------------------------------------------------------


def test_search_and_book_a_hotel(s):
    _, domestic, _ = routes(s)
    city = ok(s, "list_airports", {"query": domestic[1]})["airports"][0]["city"]
    found = ok(s, "search_hotels", {"city": city.upper(), "check_in": day(20), "check_out": day(23), "guests": 2})
    assert found["total"] >= 1 and found["nights"] == 3
    totals = [h["total_price"] for h in found["hotels"]]
    assert totals == sorted(totals)
    option = found["hotels"][0]
    hotel = ok(s, "get_hotel", {"hotel_id": option["hotel_id"], "check_in": day(20), "check_out": day(23)})
    room = next(r for r in hotel["room_types"] if r["room_type_id"] == option["cheapest_room_type_id"])
    assert room["flexible_total"] == option["total_price"]
    assert room["non_refundable_total"] < room["flexible_total"]
    booking = ok(s, "book_hotel",
                 {"room_type_id": room["room_type_id"], "check_in": day(20), "check_out": day(23), "guests": 2,
                                   "rate_plan": "non_refundable", "payment_method_id": card(s)})
    assert booking["stay"]["nights"] == 3 and booking["stay"]["free_cancellation_until"] is None
    assert booking["total_charged"] == room["non_refundable_total"]
    again = ok(s, "get_hotel", {"hotel_id": option["hotel_id"], "check_in": day(20), "check_out": day(23)})
    assert next(r for r in again["room_types"] if r["room_type_id"] == room["room_type_id"])["rooms_left"] == \
        room["rooms_left"] - 1
    assert ok(s, "get_cancellation_quote", {"booking_id": booking["booking_id"]})["refund_amount"] == 0


def test_hotel_sold_out_nights_and_date_rules(s):
    db = SERVER.template(0).db
    room_type_id, night = db.execute(
        "SELECT b.room_type_id, b.night FROM room_blocks b JOIN room_types r USING (room_type_id) "
        "WHERE b.rooms_taken = r.rooms_total AND b.night > '2026-03-17' ORDER BY b.night, b.room_type_id").fetchone()
    start = date.fromisoformat(night)
    pay = card(s)
    args = {"room_type_id": room_type_id, "guests": 1, "payment_method_id": pay}
    fails(s, "book_hotel", "sold_out",
          {"check_in": str(start - timedelta(days=1)), "check_out": str(start + timedelta(days=1)),
                                        **args})
    ok(s, "book_hotel", {"check_in": str(start - timedelta(days=2)), "check_out": night, **args})
    fails(s, "book_hotel", "invalid_dates", {"check_in": day(5), "check_out": day(5), **args})
    fails(s, "book_hotel", "past_date", {"check_in": day(-1), "check_out": day(2), **args})
    fails(s, "book_hotel", "stay_too_long", {"check_in": day(5), "check_out": day(40), **args})
    fails(s, "book_hotel", "too_far_ahead", {"check_in": day(400), "check_out": day(402), **args})
    fails(s, "book_hotel", "too_many_guests",
          {"check_in": day(5), "check_out": day(7), "room_type_id": room_type_id, "guests": 20,
                                               "payment_method_id": pay})
    fails(s, "book_hotel", "card_expired",
          {"check_in": day(5), "check_out": day(7), "room_type_id": room_type_id, "guests": 1,
                                            "payment_method_id": card(s, expired=True)})
    fails(s, "book_hotel", "invalid_payment",
          {"check_in": day(5), "check_out": day(7), "room_type_id": room_type_id, "guests": 1})
    fails(s, "search_hotels", "unknown_city", {"city": "Atlantis", "check_in": day(5), "check_out": day(7)})
    fails(s, "get_hotel", "invalid_dates", {"hotel_id": "HTL-10001", "check_in": day(5)})


def test_rooms_run_out_as_the_user_books_them(s):
    db = SERVER.template(0).db
    room_type_id, total = db.execute(
        "SELECT room_type_id, rooms_total FROM room_types WHERE rooms_total BETWEEN 2 AND 5 "
        "AND room_type_id NOT IN (SELECT room_type_id FROM room_blocks WHERE night BETWEEN ? AND ?) "
        "ORDER BY room_type_id", (day(30), day(31))).fetchone()
    args = {"room_type_id": room_type_id, "check_in": day(30), "check_out": day(32), "payment_method_id": card(s)}
    ok(s, "book_hotel", {"guests": 1, "rooms": total - 1, **args})
    fails(s, "book_hotel", "sold_out", {"guests": 1, "rooms": 2, **args})
    last = ok(s, "book_hotel", {"guests": 1, **args})
    fails(s, "book_hotel", "sold_out", {"guests": 1, **args})
    ok(s, "cancel_booking", {"booking_id": last["booking_id"]})
    ok(s, "book_hotel", {"guests": 1, **args})


# ----- trips --------------------------------------------------------------------------------------


def test_trips_group_bookings_into_an_itinerary(s):
    basic = basic_bought_yesterday(s)
    trip = ok(s, "create_trip", {"name": "  Spring conference  ", "booking_ids": [basic["booking_id"]]})
    assert trip["name"] == "Spring conference" and trip["status"] == "upcoming"
    assert [i["booking_id"] for i in trip["itinerary"]] == [basic["booking_id"]]
    assert trip["total_paid"] == basic["total_charged"]
    fails(s, "create_trip", "duplicate_trip", {"name": "spring CONFERENCE"})
    fails(s, "add_booking_to_trip", "already_in_trip", {"trip_id": trip["trip_id"], "booking_id": basic["booking_id"]})
    work = tomorrow_flight(s)
    moved = ok(s, "add_booking_to_trip", {"trip_id": trip["trip_id"], "booking_id": work["booking_id"]})
    assert moved["previous_trip_id"] == work["trip_id"]
    assert [i["booking_id"] for i in moved["trip"]["itinerary"]] == [work["booking_id"], basic["booking_id"]]
    assert work["booking_id"] not in {i["booking_id"] for i in ok(s, "get_trip",
                                                                  {"trip_id": work["trip_id"]})["itinerary"]}
    left = ok(s, "remove_booking_from_trip", {"booking_id": basic["booking_id"]})
    assert left["previous_trip_id"] == trip["trip_id"] and len(left["trip"]["itinerary"]) == 1
    fails(s, "remove_booking_from_trip", "not_in_trip", {"booking_id": basic["booking_id"]})
    names = {t["name"] for t in ok(s, "list_trips", {"status": "upcoming"})["trips"]}
    assert "Spring conference" in names
    assert all(t["status"] == "past" for t in ok(s, "list_trips", {"status": "past"})["trips"])
    fails(s, "create_trip", "invalid_arguments", {"name": "   "})


def test_a_booking_joins_a_trip_the_user_has_just_started(s):
    """add_booking_to_trip takes a trip without bookings, which only create_trip makes (it needs it
    first): the world's trips are each named for their own destination."""
    assert list(SERVER.tools["add_booking_to_trip"].needs) == ["create_trip"]
    assert all(t["bookings"] > 0 for t in ok(s, "list_trips", {"limit": 100})["trips"])
    trip = ok(s, "create_trip", {"name": "Team offsite"})
    booking = next(b for b in upcoming(s) if b["trip_id"] is None or b["trip_id"] != trip["trip_id"])
    moved = ok(s, "add_booking_to_trip", {"trip_id": trip["trip_id"], "booking_id": booking["booking_id"]})
    assert moved["trip"]["name"] == "Team offsite" and moved["previous_trip_id"] == booking["trip_id"]


def test_new_flight_booking_lands_in_a_trip(s):
    home, _, abroad = routes(s)
    trip = international_trip_flight(s)["trip_id"]
    before = ok(s, "get_trip", {"trip_id": trip})
    flight = flights(s, home, abroad[0], 18)[0]["flight_id"]
    booking = ok(s, "book_flight",
                 {"flight_id": flight, "fare": "business", "traveler_ids": [me(s)], "payment_method_id": card(s),
                                    "trip_id": trip})
    after = ok(s, "get_trip", {"trip_id": trip})
    assert booking["booking_id"] in {i["booking_id"] for i in after["itinerary"]}
    assert after["total_paid"] == pytest.approx(before["total_paid"] + booking["total_charged"])


# ----- travellers and cards -----------------------------------------------------------------------


def test_travelers_and_cards(s):
    added = ok(s, "add_traveler", {"first_name": "Maya", "last_name": "Okafor", "date_of_birth": "1990-07-14",
                                   "relationship": "friend", "passport_number": "548201937",
                                   "passport_expiry": "2031-05-20"})
    assert added["passport_on_file"] and added["passport_country"] == "US"
    assert added["traveler_id"] in {t["traveler_id"] for t in ok(s, "list_travelers")["travelers"]}
    fails(s, "add_traveler", "duplicate_traveler",
          {"first_name": "maya", "last_name": "OKAFOR", "date_of_birth": "1990-07-14"})
    fails(s, "add_traveler", "invalid_date_of_birth",
          {"first_name": "Leo", "last_name": "Okafor", "date_of_birth": "2030-01-01"})
    fails(s, "add_traveler", "invalid_passport",
          {"first_name": "Leo", "last_name": "Okafor", "date_of_birth": "2015-01-01",
                                                  "passport_number": "548201938"})
    fails(s, "add_traveler", "passport_expired",
          {"first_name": "Leo", "last_name": "Okafor", "date_of_birth": "2015-01-01",
                                                  "passport_number": "548201938", "passport_expiry": "2020-01-01"})
    new = ok(s, "add_payment_card",
             {"card_number": "4111 1111 1111 1111", "expiry": "08/29", "cardholder_name": "Emma Test",
                                     "make_default": True})
    assert new["last4"] == "1111" and new["brand"] == "Visa" and new["is_default"] and not new["expired"]
    assert ok(s, "get_profile")["default_payment_method_id"] == new["payment_method_id"]
    assert sum(c["is_default"] for c in ok(s, "list_payment_methods")["payment_methods"]) == 1
    fails(s, "add_payment_card", "duplicate_card", {"card_number": "4111111111111111", "expiry": "09/30",
                                                    "cardholder_name": "Emma Test"})
    fails(s, "add_payment_card", "invalid_card_number", {"card_number": "4111111111111112", "expiry": "09/30",
                                                         "cardholder_name": "Emma Test"})
    fails(s, "add_payment_card", "invalid_expiry", {"card_number": "5555555555554444", "expiry": "13/30",
                                                    "cardholder_name": "Emma Test"})
    fails(s, "add_payment_card", "card_expired", {"card_number": "5555555555554444", "expiry": "01/26",
                                                  "cardholder_name": "Emma Test"})
    home, domestic, _ = routes(s)
    flight = flights(s, home, domestic[0], 10)[0]["flight_id"]
    booking = ok(s, "book_flight", {"flight_id": flight, "fare": "economy", "traveler_ids": [added["traveler_id"]],
                                    "payment_method_id": new["payment_method_id"]})
    assert booking["payment_method_id"] == new["payment_method_id"]


# ----- hostile and malformed input --------------------------------------------------------------


HOSTILE = ["'; DROP TABLE bookings; --", "", " ", "BKG-10001' OR '1'='1", "%", "\x00", "x" * 10_000,
           "BKG-99999999999999999999"]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_ids_are_not_found_and_harmless(s, value):
    before = s.fingerprint()
    for tool, args in [("get_booking", {"booking_id": value}), ("cancel_booking", {"booking_id": value}),
                       ("get_flight", {"flight_id": value}), ("get_hotel", {"hotel_id": value}),
                       ("get_trip", {"trip_id": value}), ("check_in", {"booking_id": value}),
                       ("get_seat_map", {"flight_id": value}), ("remove_booking_from_trip", {"booking_id": value}),
                       ("update_traveler_passport", {"traveler_id": value, "passport_number": "548201937",
                                                     "passport_expiry": "2031-01-01"})]:
        assert s.call(tool, args).code == "not_found", (tool, value)
    assert s.fingerprint() == before


def test_malformed_arguments_never_crash(s):
    calls = [
        ("search_flights", {"origin": "BOS", "destination": "ATL", "departure_date": "9999-12-31"}),
        ("search_flights", {"origin": "BOS", "destination": "ATL", "departure_date": "0001-01-01"}),
        ("search_flights", {"origin": "bos", "destination": "atl", "departure_date": "2026-03-20", "passengers": 50}),
        ("search_hotels", {"city": "Atlanta", "check_in": "2026-03-20", "check_out": "9999-12-31"}),
        ("search_hotels", {"city": "Atlanta", "check_in": "9999-12-30", "check_out": "9999-12-31"}),
        ("book_hotel", {"room_type_id": "RMT-10001", "check_in": "2026-04-01", "check_out": "2026-04-03",
                        "guests": 1, "rooms": 10**9, "use_points": True}),
        ("select_seat", {"booking_id": "BKG-10010", "traveler_id": "TRV-10001", "seat": "A1"}),
        ("select_seat", {"booking_id": "BKG-10010", "traveler_id": "TRV-10001", "seat": "999999A"}),
        ("add_payment_card", {"card_number": "abcd", "expiry": "00/00", "cardholder_name": "X"}),
        ("add_payment_card", {"card_number": "4111111111111111", "expiry": "00/99", "cardholder_name": "X"}),
        ("add_traveler", {"first_name": "A", "last_name": "B", "date_of_birth": "0001-01-01"}),
        ("get_hotel", {"hotel_id": "HTL-10001", "check_in": "9999-12-31", "check_out": "0001-01-01"}),
        ("list_bookings", {"limit": 10**30}),
        ("get_booking", {"booking_id": 10010}),
        ("get_booking", {}),
        ("get_booking", "not json"),
    ]
    for tool, args in calls:
        result = s.call(tool, args)
        assert result.code != INTERNAL_ERROR, (tool, args, result.error)
        if not result.ok:
            assert result.code in SERVER.tools[tool].errors or result.code == "invalid_arguments", result.error
    assert INTERNAL_ERRORS.count(SERVER.name) == 0


def test_a_flight_reads_out_its_fares():
    from prove.env import Session
    with Session("travel_booking", world=0) as s:
        flight = s.call("search_flights", {"origin": "BOS", "destination": "ATL", "departure_date": "2026-03-17"})
        fid = flight.data["flights"][0]["flight_id"] if flight.ok and flight.data["flights"] else None
        if fid is None:
            pytest.skip("no flight on that route in world 0")
        f = s.call("get_flight", {"flight_id": fid}).data
        for fare in f["fares"]:
            terms = ("free to cancel" if fare["refundable"] and fare["cancellation_fee"] == 0 else
                     "refundable" if fare["refundable"] else "non-refundable")
            said = f"{fare['name']} ${fare['price']:,.2f}, {terms}"
            assert said in f["fares_text"]


def test_a_booking_is_named_by_its_day_in_words(s):
    """'AS 2585 SEA to AUS on March 20', not '... on 2026-03-20': people quote these names."""
    summaries = [b["summary"] for b in ok(s, "list_bookings", {})["bookings"]]
    assert summaries and not any(re.search(r"\d{4}-\d{2}-\d{2}", x) for x in summaries)
    assert any(re.search(r" on (?:January|February|March|April|May|June|July|August|September|October|November|"
                         r"December) \d{1,2}\b", x) for x in summaries)
    assert any(re.search(r", \w+ \d{1,2}(?:, \d{4})? to \w+ \d{1,2}", x) for x in summaries)  # a stay's nights
