"""Behaviour tests of the maps server: its main flows and failures on world 0.

Tests find what they need through the tools (the user's home and work, a museum, the restaurant
on the block a short road closure shuts), so they do not depend on the exact IDs a world holds.
The clock starts at the epoch, Monday 2026-03-16 09:00.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from prove.env import Session, registry
from prove.env.asks import as_ask

from .helpers import fails, ok, session_fixture

WORLD = 0


s = session_fixture("maps")


# ----- finding things through the tools -----------------------------------------------------------------

def me(s: Session) -> dict:
    return ok(s, "get_profile")


def home_city(s: Session) -> str:
    return me(s)["home"]["city_id"]


def other_city(s: Session) -> str:
    return next(c["city_id"] for c in ok(s, "list_cities")["cities"] if not c["is_home_city"])


def places(s: Session, **filters: Any) -> list[dict]:
    return ok(s, "search_places", {"limit": 50, **filters})["places"]


def closed_off_restaurant(s: Session) -> tuple[dict, dict]:
    """The restaurant on the block that the home city's shortest active road closure shuts."""
    closures = ok(s, "list_road_closures", {"city_id": home_city(s), "active_only": True})["closures"]
    closure = min(closures, key=lambda c: c["ends_at"])
    for place in places(s, query=closure["street"], city_id=home_city(s), category="restaurant"):
        r = s.call("get_route", {"destination_place_id": place["place_id"]})
        if r.code == "no_route":
            return place, closure
    raise AssertionError("world 0 should hold a restaurant cut off by a road closure")


# ----- the world ----------------------------------------------------------------------------------------

def test_world_has_the_described_shape(s):
    template = registry.get("maps").template(WORLD)
    counts = {t: template.db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in template.tables}
    assert counts["cities"] == 3 and counts["places"] >= 250 and counts["reviews"] >= 250
    assert counts["streets"] == 60 and counts["transit_lines"] == 12 and counts["road_closures"] == 9
    assert template.size < 250_000
    cities = ok(s, "list_cities")["cities"]
    assert sum(c["is_home_city"] for c in cities) == 1 and all(c["places"] >= 80 for c in cities)


def test_every_visible_tool_is_documented_for_the_teacher():
    tools = registry.get("maps").visible_tools
    assert len(tools) >= 16
    for tool in tools:
        assert len(tool.asks) >= 2, tool.name


def test_read_tools_do_not_change_state(s):
    before = s.fingerprint()
    profile = me(s)
    work = profile["work"]["place_id"]
    ok(s, "get_place", {"place_id": work})
    ok(s, "search_nearby", {"place_id": work, "radius_m": 1500})
    ok(s, "compare_travel_modes", {"destination_place_id": work})
    ok(s, "get_directions", {"destination_place_id": work, "mode": "transit"})
    ok(s, "get_departures", {"place_id": work})
    ok(s, "list_transit_lines", {"city_id": home_city(s)})
    ok(s, "geocode", {"address": profile["home"]["address"]})
    ok(s, "reverse_geocode", {"lat": profile["home"]["lat"], "lon": profile["home"]["lon"]})
    ok(s, "list_saved_lists")
    ok(s, "list_my_reports")
    assert s.fingerprint() == before and not s.diff()


# ----- places and hours -----------------------------------------------------------------------------------

def test_search_filters_and_sorting(s):
    cafes = places(s, category="cafe", city_id=home_city(s), sort="rating")
    assert cafes and all(p["category"] == "cafe" and p["city_id"] == home_city(s) for p in cafes)
    ratings = [p["rating"] or 0 for p in cafes]
    assert ratings == sorted(ratings, reverse=True)
    cheap = places(s, category="restaurant", max_price_level=1, min_rating=4.0)
    assert all(p["price_level"] == 1 and p["rating"] >= 4.0 for p in cheap)
    italian = places(s, cuisine="italian")
    assert all(p["cuisine"] == "italian" for p in italian)
    # Every museum is closed on Mondays.
    assert places(s, category="museum", open_now=True) == []
    assert all(p["open_now"] for p in places(s, category="hotel", open_now=True))
    assert ok(s, "search_places", {"query": "'; DROP TABLE places; --"}) == {"places": [], "total": 0,
                                                                              "places_text": "no places"}
    fails(s, "search_places", "not_found", {"city_id": "CTY-99999"})


def test_opening_hours(s):
    museum = places(s, category="museum", city_id=home_city(s))[0]
    now = ok(s, "check_open", {"place_id": museum["place_id"]})
    assert now["is_open"] is False and now["hours_that_day"] == "closed"
    opens = now["next_change"]
    assert opens > "2026-03-17"
    later = ok(s, "check_open", {"place_id": museum["place_id"], "at": opens})
    assert later["is_open"] and later["next_change"] > opens
    place = ok(s, "get_place", {"place_id": museum["place_id"]})
    assert [d["day"] for d in place["weekly_hours"]][0] == "Monday" and len(place["weekly_hours"]) == 7
    assert place["weekly_hours"][0]["hours"] == "closed" and place["open_now"] is False
    fails(s, "check_open", "past_time", {"place_id": museum["place_id"], "at": "2026-03-15T12:00"})
    fails(s, "check_open", "invalid_time", {"place_id": museum["place_id"], "at": "next tuesday"})
    fails(s, "check_open", "invalid_time", {"place_id": museum["place_id"], "at": "2027-01-01T10:00"})
    fails(s, "check_open", "invalid_time", {"place_id": museum["place_id"], "at": "2026-03-17T10:00+02:00"})


def test_search_nearby(s):
    home = me(s)["home"]
    near = ok(s, "search_nearby", {"place_id": home["place_id"], "radius_m": 1200, "limit": 50})
    distances = [p["distance_m"] for p in near["places"]]
    assert distances and distances == sorted(distances) and max(distances) <= 1200
    assert home["place_id"] not in [p["place_id"] for p in near["places"]]
    by_point = ok(s, "search_nearby", {"lat": home["lat"], "lon": home["lon"], "radius_m": 1200, "limit": 50})
    assert by_point["total"] == near["total"] + 1  # the home itself, at distance 0
    fails(s, "search_nearby", "missing_location", {"lat": home["lat"]})
    fails(s, "search_nearby", "conflicting_location", {"place_id": home["place_id"], "lat": 1.0, "lon": 1.0})
    fails(s, "search_nearby", "outside_coverage", {"lat": 0.0, "lon": 0.0})


def test_geocoding_round_trip(s):
    home = me(s)["home"]
    number, street = home["address"].split(",")[0].split(" ", 1)
    city = home["address"].split(", ")[1]
    found = ok(s, "geocode", {"address": home["address"]})["matches"]
    assert [(m["place_id"], m["kind"]) for m in found] == [(home["place_id"], "address")]
    short = street.replace("Avenue", "Ave").replace("Street", "St")
    again = ok(s, "geocode", {"address": f"{number} {short.lower()}, {city}"})["matches"]
    assert again[0]["place_id"] == home["place_id"]
    assert abs(again[0]["lat"] - home["lat"]) < 1e-3 and abs(again[0]["lon"] - home["lon"]) < 1e-3
    back = ok(s, "reverse_geocode", {"lat": home["lat"], "lon": home["lon"]})
    assert back["address"].split(",")[0] == f"{number} {street}" and back["city_id"] == home["city_id"]
    assert back["nearby_places"][0]["place_id"] == home["place_id"]
    corner = back["nearest_intersection"]
    assert ok(s, "geocode", {"address": corner, "city_id": home["city_id"]})["matches"][0]["kind"] == "intersection"
    by_name = ok(s, "geocode", {"address": home["name"]})["matches"]
    assert home["place_id"] in [m["place_id"] for m in by_name]
    fails(s, "geocode", "no_match", {"address": f"9950 {street}, {city}"})
    fails(s, "geocode", "no_match", {"address": f"{number} {street}, Atlantis"})  # a city not on the map
    fails(s, "geocode", "no_match", {"address": "zzzz qqqq"})
    fails(s, "reverse_geocode", "outside_coverage", {"lat": -45.0, "lon": 170.0})


# ----- routes ---------------------------------------------------------------------------------------------

def test_routes_by_mode(s):
    profile = me(s)
    work = profile["work"]["place_id"]
    drive = ok(s, "get_directions", {"destination_place_id": work})
    walk = ok(s, "get_directions", {"destination_place_id": work, "mode": "walking"})
    assert drive["origin_place_id"] == profile["home"]["place_id"]  # routes start at home by default
    assert drive["duration_min"] < walk["duration_min"] and walk["distance_m"] > 1000
    assert drive["steps"][-1]["instruction"].startswith("Arrive at")
    assert walk["steps"][0]["instruction"].startswith("Walk ")
    assert abs(sum(x["distance_m"] for x in walk["steps"]) - walk["distance_m"]) <= len(walk["steps"])
    compare = ok(s, "compare_travel_modes", {"destination_place_id": work})
    options = {o["mode"]: o for o in compare["options"]}
    assert set(options) == {"driving", "walking", "cycling", "transit"}
    assert compare["fastest"] == min((o for o in options.values() if o["available"]),
                                     key=lambda o: o["duration_min"])["mode"]
    transit = ok(s, "get_directions", {"destination_place_id": work, "mode": "transit"})
    if transit["fare"]:
        assert any("Take the" in x["instruction"] for x in transit["steps"])
        assert transit["transfers"] >= 0
    # Evening rush hour is slower than the late evening.
    rush = ok(s, "get_route", {"destination_place_id": work, "depart_at": "2026-03-16T17:30"})
    late = ok(s, "get_route", {"destination_place_id": work, "depart_at": "2026-03-16T20:30"})
    assert rush["duration_min"] >= late["duration_min"]


def test_route_failures(s):
    profile = me(s)
    home, work = profile["home"]["place_id"], profile["work"]["place_id"]
    fails(s, "get_route", "same_place", {"destination_place_id": home})
    fails(s, "get_distance", "same_place", {"destination_place_id": home})
    fails(s, "get_route", "past_time", {"destination_place_id": work, "depart_at": "2026-03-16T08:00"})
    fails(s, "get_route", "invalid_time", {"destination_place_id": work, "depart_at": "soon"})
    fails(s, "get_route", "not_found", {"destination_place_id": "PLC-99999"})
    far = places(s, city_id=other_city(s), category="hotel")[0]["place_id"]
    fails(s, "get_route", "too_far", {"destination_place_id": far, "mode": "walking"})
    fails(s, "get_route", "too_far", {"destination_place_id": far, "mode": "cycling"})
    fails(s, "get_route", "no_route", {"destination_place_id": far, "mode": "transit"})
    drive = ok(s, "get_directions", {"destination_place_id": far})
    assert drive["distance_km"] > 100 and any(" toward " in x["instruction"] for x in drive["steps"])
    distance = ok(s, "get_distance", {"destination_place_id": far})
    assert not distance["same_city"] and distance["km"] * 1000 < drive["distance_m"]
    assert distance["origin_name"] == profile["home"]["name"]
    assert distance["destination_name"] == ok(s, "get_place", {"place_id": far})["name"]
    compass = {"N": "north", "NE": "northeast", "E": "east", "SE": "southeast", "S": "south", "SW": "southwest",
               "W": "west", "NW": "northwest"}
    assert distance["heading"] == compass[distance["direction"]]


def test_transit_stops_at_night(s):
    work = me(s)["work"]["place_id"]
    walk = ok(s, "get_route", {"destination_place_id": work, "mode": "walking"})
    r = s.call("get_route", {"destination_place_id": work, "mode": "transit", "depart_at": "2026-03-17T02:30"})
    if walk["distance_m"] > 2500:
        assert r.code == "no_route"
    else:
        assert r.ok and r.data["fare"] == 0 and r.data["warnings"]


def test_a_road_closure_cuts_a_restaurant_off_until_it_ends(s):
    restaurant, closure = closed_off_restaurant(s)
    rid = restaurant["place_id"]
    err = fails(s, "get_route", "no_route", {"destination_place_id": rid})
    assert "closure" in err["message"]
    fails(s, "get_route", "no_route", {"destination_place_id": rid, "mode": "cycling"})
    assert ok(s, "get_route", {"destination_place_id": rid, "mode": "walking"})["distance_m"] > 0
    compare = {o["mode"]: o for o in ok(s, "compare_travel_modes", {"destination_place_id": rid})["options"]}
    assert not compare["driving"]["available"] and compare["walking"]["available"]
    # Planning a trip after the closure ends works already; once the clock passes it, so does now.
    after = closure["ends_at"]
    assert ok(s, "get_route", {"destination_place_id": rid, "depart_at": after})["mode"] == "driving"
    s.advance(24 * 3600 * 2)
    assert ok(s, "get_route", {"destination_place_id": rid})["duration_min"] >= 1
    active = ok(s, "list_road_closures", {"city_id": home_city(s), "active_only": True})["closures"]
    assert closure["closure_id"] not in [c["closure_id"] for c in active]


def test_transit_lines_and_departures(s):
    lines = ok(s, "list_transit_lines", {"city_id": home_city(s)})
    assert lines["total"] == 4 and {ln["mode"] for ln in lines["lines"]} == {"subway", "bus"}
    assert all(ln["running_now"] for ln in lines["lines"] if not ln["weekdays_only"])
    deps = ok(s, "get_departures", {"place_id": me(s)["work"]["place_id"], "limit": 50})
    times = [d["departs_at"] for d in deps["departures"]]
    assert times == sorted(times) and all(t >= "2026-03-16T09:00:00" for t in times)
    assert all(d["walk_m"] <= 600 for d in deps["departures"])
    night = ok(s, "get_departures", {"place_id": me(s)["work"]["place_id"], "at": "2026-03-17T02:00"})
    assert all(d["departs_at"] >= "2026-03-17T05:30:00" for d in night["departures"])


# ----- the user's own map -------------------------------------------------------------------------------------

def test_saved_lists_flow(s):
    cafe = places(s, category="cafe", city_id=home_city(s))[0]
    lst = ok(s, "create_list", {"list_name": "Work cafes", "description": "Laptop-friendly"})
    fails(s, "create_list", "duplicate_name", {"list_name": "work CAFES"})
    saved = ok(s, "save_place", {"place_id": cafe["place_id"], "list_id": lst["list_id"], "note": "fast wifi"})
    assert saved["place_count"] == 1 and saved["list_name"] == "Work cafes"
    fails(s, "save_place", "already_saved", {"place_id": cafe["place_id"], "list_id": lst["list_id"]})
    detail = ok(s, "get_saved_list", {"list_id": lst["list_id"]})
    assert [(e["place"]["place_id"], e["note"]) for e in detail["places"]] == [(cafe["place_id"], "fast wifi")]
    assert lst["list_id"] in ok(s, "get_place", {"place_id": cafe["place_id"]})["saved_in"]
    favorites = next(x for x in ok(s, "list_saved_lists")["lists"] if x["is_default"])
    fails(s, "delete_list", "default_list", {"list_id": favorites["list_id"]})
    fails(s, "remove_saved_place", "not_in_list", {"place_id": me(s)["work"]["place_id"]})
    deleted = ok(s, "delete_list", {"list_id": lst["list_id"]})
    assert deleted["place_count"] == 1
    fails(s, "get_saved_list", "not_found", {"list_id": lst["list_id"]})
    assert lst["list_id"] not in ok(s, "get_place", {"place_id": cafe["place_id"]})["saved_in"]


def test_favorites_is_the_default_list(s):
    favorites = next(x for x in ok(s, "list_saved_lists")["lists"] if x["is_default"])
    museum = places(s, category="museum")[0]["place_id"]
    assert ok(s, "save_place", {"place_id": museum})["list_id"] == favorites["list_id"]
    count = ok(s, "get_saved_list", {"list_id": favorites["list_id"]})["place_count"]
    assert count == favorites["place_count"] + 1
    assert ok(s, "remove_saved_place", {"place_id": museum})["place_count"] == favorites["place_count"]


def test_places_already_on_a_list_can_be_taken_off(s):
    tool = registry.get("maps").tools["remove_saved_place"]
    where = tool.params[0].where
    assert not tool.needs
    lists = ok(s, "list_saved_lists")["lists"]
    on_lists = {(e["place"]["place_id"], x["list_id"]) for x in lists
                for e in ok(s, "get_saved_list", {"list_id": x["list_id"]})["places"]}
    assert len(on_lists) >= 12
    for place_id, _ in on_lists:
        assert s.satisfies("place", place_id, where)
    assert not s.satisfies("place", me(s)["work"]["place_id"], where)
    favorites = next(x for x in lists if x["is_default"])
    place_id = next(p for p, lst in sorted(on_lists) if lst == favorites["list_id"])
    removed = ok(s, "remove_saved_place", {"place_id": place_id})
    assert removed["list_id"] == favorites["list_id"] and removed["place_count"] == favorites["place_count"] - 1
    if not any(p == place_id for p, lst in on_lists if lst != favorites["list_id"]):
        assert not s.satisfies("place", place_id, where)
    fails(s, "remove_saved_place", "not_in_list", {"place_id": place_id})
    other = next((p, lst) for p, lst in sorted(on_lists) if lst != favorites["list_id"])
    assert ok(s, "remove_saved_place", {"place_id": other[0], "list_id": other[1]})["list_id"] == other[1]


def test_reviews_move_the_rating(s):
    restaurant = next(p for p in places(s, category="restaurant", city_id=home_city(s))
                      if ok(s, "get_place", {"place_id": p["place_id"]})["my_review_id"] is None)
    rid = restaurant["place_id"]
    before = ok(s, "list_reviews", {"place_id": rid})
    review = ok(s, "write_review", {"place_id": rid, "rating": 1, "review_text": "Cold food and a long wait."})
    assert review["is_mine"] and review["created_at"] == "2026-03-16T09:00:00"
    after = ok(s, "list_reviews", {"place_id": rid})
    assert after["rating_count"] == before["rating_count"] + 1 and after["total"] == before["total"] + 1
    assert after["reviews"][0]["review_id"] == review["review_id"]
    assert after["rating"] <= before["rating"]
    fails(s, "write_review", "already_reviewed", {"place_id": rid, "rating": 5, "review_text": "Second try."})
    updated = ok(s, "update_review", {"review_id": review["review_id"], "rating": 5})
    assert updated["rating"] == 5 and updated["updated_at"] == "2026-03-16T09:00:00"
    fails(s, "update_review", "nothing_to_update", {"review_id": review["review_id"], "rating": 5})
    assert ok(s, "get_place", {"place_id": rid})["my_review_id"] == review["review_id"]
    ok(s, "delete_review", {"review_id": review["review_id"]})
    final = ok(s, "list_reviews", {"place_id": rid})
    assert (final["rating"], final["rating_count"]) == (before["rating"], before["rating_count"])
    others = next(r for r in before["reviews"] if not r["is_mine"]) if before["reviews"] else None
    if others:
        fails(s, "update_review", "not_author", {"review_id": others["review_id"], "review_text": "changed"})
        fails(s, "delete_review", "not_author", {"review_id": others["review_id"]})
    fails(s, "write_review", "not_reviewable",
          {"place_id": me(s)["home"]["place_id"], "rating": 5, "review_text": "Nice home."})


def test_my_reviews_are_named_by_their_place(s):
    """The review kind's label is the place of one of the user's own reviews (others' have none):
    a user says "my Bistro Thompson review", never the review 'Anna S.'."""
    from prove.synth.entities import EntityIndex

    server = registry.get("maps")
    assert server.entities["review"].label == "my_place"
    labels = EntityIndex(server, WORLD).labels["review"]
    rows = server.template(WORLD).db.execute(
        "SELECT r.review_id, p.name, p.place_id FROM reviews r JOIN places p USING (place_id) WHERE r.is_mine = 1"
    ).fetchall()
    strip = {r[0]: r[1][4:] if r[1].startswith("The ") else r[1] for r in rows}  # "my Little Kettle review"
    assert labels == strip and len(rows) >= 3 and len(set(labels.values())) == len(labels)
    for review_id, name, place_id in rows:
        place = ok(s, "get_place", {"place_id": place_id})
        assert (place["name"], place["my_review_id"]) == (name, review_id)


def test_closure_report_is_confirmed_a_day_later(s):
    cafe = next(p for p in places(s, category="cafe", city_id=home_city(s)) if p["status"] == "open")
    cid = cafe["place_id"]
    fails(s, "report_closure", "no_change", {"place_id": cid, "status": "open"})
    report = ok(s, "report_closure", {"place_id": cid, "status": "permanently_closed", "note": "Boarded up"})
    assert report["status"] == "pending" and report["reviewed_at"] == "2026-03-17T09:00:00"
    fails(s, "report_closure", "already_reported", {"place_id": cid, "status": "temporarily_closed"})
    assert ok(s, "get_place", {"place_id": cid})["status"] == "open"  # not until it is reviewed
    s.advance(23 * 3600)
    assert ok(s, "list_my_reports", {"status": "pending"})["total"] == 1
    s.advance(3600)
    reports = ok(s, "list_my_reports")["reports"]
    assert reports[0]["report_id"] == report["report_id"] and reports[0]["status"] == "confirmed"
    place = ok(s, "get_place", {"place_id": cid})
    assert place["status"] == "permanently_closed" and not place["open_now"]
    assert cid not in [p["place_id"] for p in places(s, category="cafe", city_id=home_city(s))]
    assert cid in [p["place_id"] for p in places(s, category="cafe", city_id=home_city(s), include_closed=True)]
    fails(s, "save_place", "place_closed", {"place_id": cid})
    fails(s, "write_review", "place_closed", {"place_id": cid, "rating": 2, "review_text": "Gone."})
    diff = s.diff().tables()
    assert diff["maps.places"]["update"] == 1 and diff["maps.closure_reports"]["insert"] == 1


def test_moving_home_changes_where_routes_start(s):
    profile = me(s)
    new_home = next(p for p in places(s, category="residential", city_id=home_city(s))
                    if p["place_id"] != profile["home"]["place_id"])
    fails(s, "set_saved_address", "no_change", {"label": "home", "place_id": profile["home"]["place_id"]})
    office = next(p for p in places(s, category="office", city_id=home_city(s))
                  if p["place_id"] != profile["work"]["place_id"])
    fails(s, "set_saved_address", "not_residential", {"label": "home", "place_id": office["place_id"]})
    with s.fork() as moved:
        assert ok(moved, "set_saved_address", {"label": "work", "place_id": office["place_id"]})["work"]["place_id"] \
            == office["place_id"]
    updated = ok(s, "set_saved_address", {"label": "home", "place_id": new_home["place_id"]})
    assert updated["home"]["place_id"] == new_home["place_id"]
    route = ok(s, "get_route", {"destination_place_id": profile["work"]["place_id"]})
    assert route["origin_place_id"] == new_home["place_id"]


@pytest.mark.parametrize("world", [0, 1, 2, 3])
def test_reverse_geocode_values_fall_in_the_worlds_cities(world):
    """Each city a world may hold has one of reverse_geocode's candidate points, so a request
    about coordinates finds an address in the world's three cities."""
    points = registry.get("maps").tools["reverse_geocode"].values["lat, lon"]
    with Session("maps", world=world) as s:
        found = [s.call("reverse_geocode", {"lat": lat, "lon": lon}) for lat, lon in points]
        cities = {c["city_id"] for c in ok(s, "list_cities")["cities"]}
        assert {r.data["city_id"] for r in found if r.ok} == cities


def _where(tool: str, param: str) -> str:
    return next(p.where for p in registry.get("maps").tools[tool].params if p.name == param)


def test_trips_people_ask_about_are_local(s):
    """Directions, routes and distances are drawn between places of the home city: a 1,300 km
    drive between two places the user names like neighbours is no question people ask."""
    near = places(s, city_id=home_city(s))[0]["place_id"]
    far = places(s, city_id=other_city(s))[0]["place_id"]
    for tool in ("get_directions", "get_route", "compare_travel_modes", "get_distance"):
        for param in ("destination_place_id", "origin_place_id"):
            where = _where(tool, param)
            assert s.satisfies("place", near, where) and not s.satisfies("place", far, where), (tool, param)
    assert not s.satisfies("place", far, _where("set_saved_address", "place_id"))


def test_directions_read_out_their_steps(s):
    dest = next(p for p in places(s, city_id=home_city(s), category="restaurant"))
    d = ok(s, "get_directions", {"destination_place_id": dest["place_id"], "mode": "walking"})
    words = d["in_words"]
    assert words.startswith(d["steps"][0]["instruction"])
    assert words.endswith(f"then arrive at {dest['name']}")
    assert words.count(",") >= len(d["steps"]) - 1


def test_open_checks_answer_in_words(s):
    cafe = next(p for p in places(s, city_id=home_city(s), category="restaurant"))
    now = ok(s, "check_open", {"place_id": cafe["place_id"]})
    assert now["answer"].startswith("open now, until" if now["is_open"] else "closed now; it opens at")
    later = ok(s, "check_open", {"place_id": cafe["place_id"], "at": "2026-03-17T03:00"})
    assert not later["is_open"] and later["answer"].startswith("closed on March 17 at 3:00 AM; it opens at")
    place = ok(s, "get_place", {"place_id": cafe["place_id"]})
    assert place["open_text"] == now["answer"] and place["rated"].startswith(f"rated {place['rating']:g} from ")


def test_transit_directions_say_times_as_riders_read_them() -> None:
    with Session([registry.get("maps")], world=0) as s:
        plan = s.call("get_directions", {"mode": "transit", "destination_place_id": "PLC-10019",
                                         "depart_at": "2026-03-17T14:00"}).data
    rides = [step["instruction"] for step in plan["steps"] if step["instruction"].startswith("Take the")]
    assert rides and all(re.search(r"at \d{1,2}:\d\d [AP]M; .*arriving \d{1,2}:\d\d [AP]M$", r) for r in rides), rides


def test_a_saved_list_holds_places_that_fit_its_name():
    """"Weekend brunch has 7 places: Summit Brewing Co., Shell, Safeway (go early), ..., Chase Bank
    (book ahead)": a list holds the kinds of place its name is about, and a note fits its place."""
    fits = {"Weekend brunch": {"restaurant", "cafe", "bakery"}, "Coffee spots": {"cafe", "bakery"},
            "Date night": {"restaurant", "bar", "cinema", "museum"}}
    booked = {"restaurant", "hotel", "bar"}
    for world in range(6):
        with Session([registry.get("maps")], world=world) as session:
            for lst in ok(session, "list_saved_lists")["lists"]:
                for entry in ok(session, "get_saved_list", {"list_id": lst["list_id"]})["places"]:
                    category = entry["place"]["category"]
                    assert category in fits.get(lst["name"], {category}), (world, lst["name"], entry["place"]["name"])
                    assert category not in {"gas_station", "bank", "grocery", "pharmacy", "hospital", "ev_charging"}, \
                        (world, lst["name"], entry["place"]["name"])
                    if entry["note"] == "book ahead":
                        assert category in booked, (world, entry)
                    if entry["note"] == "try the specials":
                        assert category in {"restaurant", "cafe", "bar", "bakery"}, (world, entry)


def test_no_departures_near_a_place_are_said_as_none(s):
    """An empty departures listing held "departures_text": "": its text says there are none."""
    deps = ok(s, "get_departures", {"place_id": "PLC-10266"})
    assert deps["total"] == 0 and deps["departures_text"] == "no departures from stops nearby"


def test_nobody_asks_what_a_list_made_a_moment_ago_holds():
    """"make a new list called 'Museums to visit'. Now what's on the new list?" -> "no places yet": a list is asked
    about only once it holds something."""
    asks = [as_ask(a) for a in registry.get("maps").tools["get_saved_list"].asks]
    with Session(["maps"]) as session:
        made = session.call("create_list", {"list_name": "Museums to visit"}).data["list_id"]
        held = session.call("list_saved_lists", {}).data["lists"][0]["list_id"]
        for ask in asks:
            assert not session.satisfies("saved_list", made, ask.fits["list_id"]), ask.text
            assert session.satisfies("saved_list", held, ask.fits["list_id"]), ask.text
