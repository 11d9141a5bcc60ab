"""How the home-and-away servers read (filesystem, food delivery, smart home, maps, social media,
travel, the car): requests a person would write and replies that answer them, read off their
tools' replies and off synthesized examples."""

from __future__ import annotations

from collections import Counter
import json
import random
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from prove.env import Session, registry
from prove.env.asks import as_ask
from prove.synth.phrasing import Phrasing
from prove.synth.sampler import Sampler
from prove.synth.wording import Wording

from .test_reads_rest import _generated, _index, _replies, _turn_users, _turns


def _calls(ex: dict) -> list[dict]:
    return [call for turn in ex["turns"] for call in turn["calls"]]


# ----- travel_booking ------------------------------------------------------------------------------


def test_a_booking_goes_only_into_a_trip_it_fits() -> None:
    """"Grab a room ... in Amsterdam and put it in the trip 'Atlanta work trip'": a world's trips are
    named for their own city and dates, so a new booking joins only a trip the conversation has just
    started, and a trip takes only a booking that is in no other trip (nothing is pulled out of the
    trip it was in)."""
    index = _index("travel_booking")
    seen = 0
    for ex in _generated("travel_booking", 300, 4):
        for call in _calls(ex):
            args = call["arguments"]
            if call["name"] == "create_trip":
                for booking in args.get("booking_ids") or []:
                    assert index.rows["booking"].get(booking, {}).get("trip_id") is None, ex["id"]
            if call["name"] in ("book_hotel", "book_flight", "add_booking_to_trip") and args.get("trip_id"):
                seen += 1
                assert args["trip_id"] not in index.rows["trip"], (ex["id"], call)
            if call["name"] == "add_booking_to_trip":
                assert index.rows["booking"].get(args["booking_id"], {}).get("trip_id") is None, ex["id"]
    assert seen


def test_nobody_books_a_flight_they_just_cancelled() -> None:
    """"Cancel my flight B6 2518 ATL to BOS on March 19", then "get me on the B6 2518 flight with the
    basic economy fare": a new booking is of a flight no booking of the user's was cancelled on."""
    bookings = _index("travel_booking").every["booking"]
    seen = 0
    for ex in _generated("travel_booking", 400, 6):
        cancelled = {r["flight_id"] for r in bookings.values() if r["status"] == "cancelled"}
        for call in _calls(ex):
            if call["name"] == "cancel_booking" and call["arguments"]["booking_id"] in bookings:
                cancelled.add(bookings[call["arguments"]["booking_id"]]["flight_id"])
            if call["name"] == "book_flight":
                seen += 1
                assert call["arguments"]["flight_id"] not in cancelled, (ex["id"], call)
    assert seen


def _travel_me() -> str:
    return next(k for k, r in _index("travel_booking").rows["traveler"].items() if r["relationship"] == "self")


def test_the_user_books_for_me_not_by_their_own_name() -> None:
    """"please get Emma Bennett on the B6 2565 flight" where Emma Bennett is the user: they say "me"."""
    me = _travel_me()
    name = _index("travel_booking").rows["traveler"][me]["full_name"]
    said = 0
    for tool in ("book_flight", "select_seat", "add_bags"):
        for call, user, _ in _turns("travel_booking", tool, 300, 4):
            if me in json.dumps(call["arguments"]):
                said += 1
                assert name not in user, user
    assert said


def test_a_seat_for_me_is_said_to_be_yours() -> None:
    """"Put me in seat 14C ..." -> "Emma Bennett is in seat 14C now." names the user to themselves."""
    index = _index("travel_booking")
    me = _travel_me()
    with Session(["travel_booking"], world=0) as s:
        bookings = s.call("list_bookings", {"upcoming_only": True}).data["bookings"]
        booking = next(b["booking_id"] for b in bookings if b["kind"] == "flight")
        seat = next(x["seat"] for x in s.call("get_seat_map", {"flight_id": s.call(
            "get_booking", {"booking_id": booking}).data["flight"]["flight_id"]}).data["seats"] if x["available"])
    name = index.rows["traveler"][me]["full_name"]
    for text in _replies("travel_booking", "select_seat", {"booking_id": booking, "traveler_id": me, "seat": seat}):
        assert name not in text and "you" in text.lower(), text


def test_bags_within_the_allowance_are_said_to_be_free() -> None:
    """"Checked bags added ..., 1 in all; the fee was $0.00." says a fee of nothing: they are free."""
    with Session(["travel_booking"], world=0) as s:
        bookings = s.call("list_bookings", {"upcoming_only": True}).data["bookings"]
        for b in (b for b in bookings if b["kind"] == "flight"):
            with s.fork() as probe:
                done = probe.call("add_bags", {"booking_id": b["booking_id"], "bags": 1})
            if done.ok and done.data["fee_charged"] == 0:
                booking = b["booking_id"]
                break
    for text in _replies("travel_booking", "add_bags", {"booking_id": booking, "bags": 1}):
        assert "$0.00" not in text and "free" in text, text


def test_an_airport_search_says_its_words_as_a_search() -> None:
    """"Do you fly to International Airport?" asks for a place by words of airport names: a search
    says its words as words to match."""
    said = [(call["arguments"]["query"], user) for call, user, _ in _turns("travel_booking", "list_airports", 400, 6)
            if "query" in call["arguments"]]
    assert said
    for query, user in said:
        assert f"'{query}'" in user, user


def test_a_country_is_named_not_coded() -> None:
    """"What airports do you have in DE?": a person says Germany."""
    said = [user for call, user, _ in _turns("travel_booking", "list_airports", 400, 6)
            if "country" in call["arguments"]]
    assert said
    for user in said:
        assert not re.search(r"\bin [A-Z]{2}\b", user), user


def test_loyalty_activity_is_headed_by_what_it_was_for() -> None:
    """"occurred March 16 at 9:00 AM, points -24,739, description 'Redeemed for B6 2888 ...'" reads
    out field names; an entry is said by what it was for."""
    text = _summary("travel_booking", "get_loyalty_account", {"limit": 5}, "Show my last 5 loyalty transactions.")
    assert "description" not in text and "Earned for" in text, text


def test_a_flight_search_asks_for_nothing_the_search_does_not_hold_to() -> None:
    """"What flies from BOS to FRA on March 24 ...? I need to be there that day." answered with an
    overnight flight: the search takes the day a flight leaves, so the words ask for no more."""
    said = [user for _, user, _ in _turns("travel_booking", "search_flights", 400, 6)]
    assert said
    for user in said:
        assert "that day" not in user and "be there" not in user, user


def test_a_trip_name_fits_any_days() -> None:
    """A trip named 'Wedding weekend' for a Monday-to-Wednesday stay: a new trip's name is drawn
    before its bookings are known, so it names no days of the week."""
    said = [call["arguments"]["name"] for call, _, _ in _turns("travel_booking", "create_trip", 400, 6)]
    assert said
    for name in [*said, *registry.get("travel_booking").tools["create_trip"].values["name"]]:
        assert "weekend" not in name.lower(), name


def test_a_trip_is_walked_through_only_when_it_holds_something() -> None:
    """"Start a new trip called 'Anniversary trip'", then "walk me through that trip: flights,
    hotels and what it cost" -> "Anniversary trip: empty, ... total paid $0.00": nobody asks what a
    trip they made a moment ago holds, or one they just emptied."""
    found = [json.loads(m["content"]) for ex in _generated("travel_booking", 400, 6) for m in ex["messages"]
             if m["role"] == "tool" and m.get("name") == "get_trip"]
    assert found
    for trip in found:
        assert trip.get("itinerary"), trip


def test_free_seats_are_said_by_their_codes() -> None:
    """"B6 1241: total seats 144, ..., available count 13; 3 seats (all 'aisle'): seat 17D, row 17;
    ..." reads out fields: a person says "B6 1241 has 3 free aisle seats in economy: 17D, 20C and 22C"."""
    flight = next(iter(_index("travel_booking").rows["flight"]))
    for args in ({"flight_id": flight, "cabin": "economy", "position": "aisle"}, {"flight_id": flight}):
        for text in _replies("travel_booking", "get_seat_map", args):
            assert "available count" not in text and re.search(r"has (?:no|\d+) free ", text), text
            assert re.search(r"\b\d+[A-K]\b", text), text


def test_bags_for_a_booking_are_asked_for_without_assuming_company() -> None:
    """"Add one checked bag for each of us" was asked of a booking with one passenger."""
    asks = [a.text for a in registry.get("travel_booking").tools["add_bags"].asks]
    assert any("every passenger" in a for a in asks)
    for text in asks:
        assert not re.search(r"\b(us|we|we're|our)\b", text), text


# ----- vehicle ---------------------------------------------------------------------------------------


def test_a_request_says_please_once() -> None:
    """"Then please get the engine running, please.": a request that has its own "please" is not
    joined on with another."""
    for seed in range(80):
        said = Wording(random.Random(seed)).user_turn(["Unlock the charge port.", "Get the engine running, please."], 0)
        assert said.lower().count("please") <= 1, said


def test_a_honk_is_said_in_words() -> None:
    """"Done: Honked the horn once." pastes a result's message after "Done:"; "Beep the car 1 times"."""
    for times in (1, 2, 3):
        for text in _replies("vehicle", "honk_horn", {"times": times}):
            assert "Done: Honked" not in text and "1 times" not in text, text
            assert "honked the horn" in text.lower(), text
    assert not any("{times}" in ask.text for ask in registry.get("vehicle").tools["honk_horn"].asks)


def test_a_software_update_is_said_as_an_answer() -> None:
    """"Is there a software update for the car?" -> "current version 2025.38.6, available version
    2026.9.0, ..., install 40 minutes" reads out fields: a person says whether one is waiting."""
    for text in _replies("vehicle", "get_software_update", {}):
        assert "available version" not in text and "install 40" not in text, text
        assert re.search(r"version [\d.]+ is ready to install", text, re.I), text


def test_navigation_that_is_off_says_so() -> None:
    """"Where is the navigation taking me?" with no route set -> "Here are the results: no range
    after, not active."."""
    with Session(["vehicle"], world=0) as s:
        active = s.call("get_navigation", {}).data["active"]
    before = [("cancel_navigation", {})] if active else []
    for text in _replies("vehicle", "get_navigation", {}, before):
        assert "not active" not in text and "no destination" in text, text


def test_the_last_ten_trips_are_ten() -> None:
    """"Show me my last 10 trips." -> "145 trips in all; 5 of them: ..." reads out half of them."""
    text = _summary("vehicle", "list_trips", {"limit": 10}, "Show me my last {limit} trips.")
    assert "10 of them" in text and text.count(" miles") >= 10, text


def test_a_trip_says_where_it_went_from_and_to() -> None:
    """"Home Depot: March 6, 7:41 PM to 8:00 PM, distance 9.4 miles" is a trip to Home whose end
    went unsaid, as "Home" is a word of "Home Depot": a trip is said from where to where."""
    text = _summary("vehicle", "list_trips", {"start_date": "2026-02-23", "end_date": "2026-03-06"},
                    "Where did I drive between {start_date} and {end_date}?")
    assert "Home Depot to Home:" in text, text


def test_where_the_car_is_is_said_in_a_sentence() -> None:
    """"Where's my car?" -> "Here are the results: 2221 King Street, ...: place Home, parked since ..."."""
    for text in _replies("vehicle", "get_location", {}):
        assert text.startswith("Your car is parked at") and "place Home" not in text, text


def test_the_last_trips_asked_for_are_read_out() -> None:
    """"Show me my last 20 trips." -> "145 trips in all; 5 of them": a person asks for as many as
    they can hear."""
    said = [call["arguments"]["limit"] for call, _, _ in _turns("vehicle", "list_trips", 400, 6)
            if "limit" in call["arguments"]]
    assert said and max(said) <= 10, said


def test_trips_to_a_place_say_it_by_the_name_asked_and_the_name_the_trips_use() -> None:
    """"Show my trips to or from Iron Energy." answered "12 trips: Work to Home ...": the trips call
    the place by its nickname, so the reply says the place both ways."""
    place = next((k, r) for k, r in _index("vehicle").every["place"].items()
                 if r["nickname"] and r["nickname"] != r["name"])
    for text in _replies("vehicle", "list_trips", {"place_id": place[0]}):
        assert f"to or from {place[1]['name']} ('{place[1]['nickname']}')" in text, text


def test_which_tyre_is_low_is_answered_with_the_low_one_or_none() -> None:
    """"Which tyre is low?" was answered "4 tires: front left; front right; rear left; rear right.":
    what every tyre shared (its status) was dropped, and with it the answer."""
    seen = set()
    for world in range(6):
        with Session(["vehicle"], world=world) as session:
            tyres = session.call("get_tire_pressure", {}).data["tires"]
        low = [t["position"].replace("_", " ") for t in tyres if t["status"] == "low"]
        seen.add(bool(low))
        for text in _replies("vehicle", "get_tire_pressure", {}, world=world):
            if low:
                assert f"the {low[0]} is low at" in text, text
            else:
                assert "low" not in text or text.startswith("None of the tyres is low"), text
                assert re.search(r"\d+ psi", text), text
    assert seen == {True, False}


# ----- social_media ----------------------------------------------------------------------------------


def test_the_users_posts_each_say_something_of_their_own() -> None:
    """"change the post 'Pour-over mornings…' from March 17 to followers only" (today is March 16):
    the user's scheduled post shared its text with another post of theirs, so it was told apart by a
    day still to come. The user's posts each have a text of their own, and "of mine" names one."""
    for world in range(4):
        index = _index("social_media", world)
        me = next(k for k, r in index.every["account"].items() if r["is_me"])
        texts = [r["text"] for r in index.every["post"].values() if r["author_id"] == me]
        assert len(texts) == len(set(texts)), world


def test_a_handle_is_made_of_whole_words() -> None:
    """"losangelesrunningclu": a handle cut at its 20 characters reads as a typo; one made of a
    long name is made of fewer of its words ("losangelesrunning")."""
    cut = 0
    for world in range(12):
        for row in _index("social_media", world).every["account"].values():
            words = [re.sub(r"[^a-z0-9]", "", w) for w in row["display_name"].lower().split()]
            whole = "".join(words)
            ends = {len("".join(words[:n])) for n in range(1, len(words) + 1)}
            handle = row["handle"].rstrip("0123456789")
            if whole.startswith(handle):
                cut += len(whole) > 20
                assert len(handle) in ends, (row["handle"], row["display_name"])
            assert len(row["handle"]) <= 20, row["handle"]
    assert cut


def test_a_scam_is_reported_for_a_reason_that_fits_it() -> None:
    """"Report the post 'Turn $100 into $10,000 in a week with this one…' as impersonation": a crypto
    scam impersonates nobody; a reason other than spam is given to the scam it fits."""
    fits = {"impersonation": "gift card", "misinformation": "crypto"}
    seen = set()
    for ex in _generated("social_media", 400, 6):
        posts = _index("social_media", ex["meta"]["world"]).every["post"]
        for call in _calls(ex):
            reason = call["arguments"].get("reason")
            if call["name"] == "report_post" and reason in fits:
                seen.add(reason)
                assert fits[reason] in posts[call["arguments"]["post_id"]]["text"], call
    assert seen


def test_the_feed_is_not_asked_for_as_only_others_posts() -> None:
    """"Show me the latest 3 posts from people I follow." answered with the user's own posts: the
    feed holds them too, so it is asked for as the feed."""
    with Session(["social_media"], world=0) as session:
        authors = {p["author_id"] for p in session.call("get_feed", {}).data["posts"]}
    me = next(k for k, r in _index("social_media").every["account"].items() if r["is_me"])
    assert me in authors
    for ask in registry.get("social_media").tools["get_feed"].asks:
        assert "people I follow" not in ask.text, ask.text


def test_the_users_own_post_is_said_to_be_theirs() -> None:
    """"You (@kenji_ito) posted: 'The tomatoes survived the cold snap!'": the user's own handle
    read back to them; another's post says whose it is."""
    index = _index("social_media")
    me = next(k for k, r in index.every["account"].items() if r["is_me"])
    mine = next(k for k, r in index.rows["post"].items() if r["author_id"] == me and r["status"] == "published")
    theirs = next(k for k, r in index.rows["post"].items() if r["author_id"] != me and r["status"] == "published"
                  and not r["violates"])
    handle = index.every["account"][me]["handle"]
    for text in _replies("social_media", "get_post", {"post_id": mine}):
        assert text.startswith("You posted: ") and handle not in text, text
    for text in _replies("social_media", "get_post", {"post_id": theirs}):
        assert "(@" in text, text


def test_a_follow_says_whether_it_is_one_or_a_request() -> None:
    """"Done: I followed the account 'alicew_music'; your follow shows as following." reads out a field."""
    index = _index("social_media")
    me = next(k for k, r in index.every["account"].items() if r["is_me"])
    with Session(["social_media"], world=0) as s:
        followed = {a["account_id"] for a in s.call("list_following", {"account_id": me, "limit": 100}).data["accounts"]}
    for private in (False, True):
        other = next(k for k, r in index.rows["account"].items() if k != me and k not in followed
                     and bool(r["is_private"]) == private)
        for text in _replies("social_media", "follow_account", {"account_id": other}):
            assert "shows as" not in text, text
            assert ("request" in text) == private, text


def test_a_spam_account_posts_its_scam_once_a_day() -> None:
    """"what are people saying on post PST-10184?": a scam posted twice on one day has nothing a
    person tells the two apart by; a spam account posts it on different days."""
    for world in range(4):
        posts = _index("social_media", world).every["post"].values()
        days = Counter((r["author_id"], r["text"], r["created_at"][:10]) for r in posts if r["violates"])
        assert max(days.values()) == 1, (world, days.most_common(1))


def test_a_report_is_said_by_the_post_it_reports() -> None:
    """"1 report: action taken, created March 9 at 7:40 PM, post author handle crypto.profits.daily,
    post text 'Turn $100 ...'" reads out field names: a report is said by whose post it reports."""
    text = _summary("social_media", "list_reports", {}, "What happened to the posts I reported?")
    assert "post author handle" not in text and "post text" not in text and "'s post '" in text, text


def test_a_trending_hashtag_is_said_as_a_hashtag() -> None:
    """"5 of them: hashtag travel, 11 posts, 8 accounts; hashtag running, ..." reads out a field name:
    a hashtag is said as people write it, "#travel"."""
    text = _summary("social_media", "get_trending_hashtags", {"days": 3},
                    "What were the top hashtags over the last {days} days?")
    assert "hashtag " not in text and re.search(r"#\w+: \d+ posts?", text), text


def test_a_post_without_comments_says_none() -> None:
    """"It has no likes and 0 comments." reads out a zero: a post nobody commented on has no comments yet."""
    with Session(["social_media"], world=0) as s:
        post = next(p for p in _index("social_media").rows["post"]
                    if (found := s.call("get_post", {"post_id": p})).ok and found.data["comment_count"] == 0)
    for text in _replies("social_media", "get_post", {"post_id": post}):
        assert "0 comments" not in text and "no comments" in text, text


def test_a_post_search_quotes_its_words() -> None:
    """"Search posts for I'll.", "Has anyone posted about time?": a search says its words as words."""
    said = [(call["arguments"]["query"], user) for call, user, _ in _turns("social_media", "search_posts", 400, 6)
            if call["arguments"]["query"] in re.sub(r"(?i)the post '.*?'[ ,.]", "", user)]  # (not an answer to a
    # question about something else, nor a lookup of a post the user named)
    assert said
    for query, user in said:
        assert f"'{query}'" in user, user


def test_nobody_follows_likes_or_writes_to_a_spam_account() -> None:
    """"Follow free_giftcards_4u, I'd like to see its posts in my feed": a scam account is one to
    report or block; nobody follows it, writes to it, likes or praises its posts."""
    seen = 0
    for ex in _generated("social_media", 400, 6):
        index = _index("social_media", ex["meta"]["world"])  # the example's own world
        scams = {k for k, r in index.every["post"].items() if r["violates"]}
        spammers = {index.every["post"][k]["author_id"] for k in scams}
        for call in _calls(ex):
            args = call["arguments"]
            if call["name"] in ("follow_account", "send_direct_message"):
                seen += 1
                assert args["account_id"] not in spammers, (ex["id"], call)
            if call["name"] in ("like_post", "comment_on_post"):
                seen += 1
                assert args["post_id"] not in scams, (ex["id"], call)
    assert seen


def test_a_filtered_listing_is_not_counted_against_the_whole() -> None:
    """"Show me my unread comment notifications" was answered "4 notifications (13 unread)": the
    filter's word named the account's unread count, which reads as a contradiction."""
    text = _summary("social_media", "list_notifications", {"unread_only": True, "kind": "comment"},
                    "Show me my unread {kind} notifications.")
    assert re.search(r"\d+ notifications: ", text) and "unread)" not in text, text


# ----- iot_devices -----------------------------------------------------------------------------------


def test_a_device_moved_to_a_new_room_is_said_to_be_in_that_room() -> None:
    """"Done: moved the Kids' Room Temperature Sensor to the Kids' Room Temperature Sensor.": the
    room the conversation made is said by its own name, not by the name of the device in it."""
    seen = 0
    for ex in _generated("iot_devices", 30, 3):
        made = {json.loads(m["content"]).get("room_id"): json.loads(m["content"]).get("name")
                for m in ex["messages"] if m["role"] == "tool" and '"floor"' in m["content"]}
        for turn, user in _turn_users(ex):
            for call in turn["calls"]:
                if call["name"] == "move_device" and call["arguments"]["room_id"] in made:
                    seen += 1
                    said = " ".join(m["content"] for m in ex["messages"] if m["role"] == "assistant" and m.get("content"))
                    assert f"to the {made[call['arguments']['room_id']]}" in said, said
    assert seen


def test_a_scene_run_without_some_devices_says_which() -> None:
    """"Activate the Evening Outdoor Lights scene even if some devices are offline." answered "The
    Evening Outdoor Lights scene is activated." when the Patio String Lights Plug was skipped."""
    runs = {}
    for scene in _index("iot_devices").rows["scene"]:
        with Session(["iot_devices"], world=0) as session:
            runs[scene] = session.call("activate_scene", {"scene_id": scene, "allow_partial": True}).data["skipped"]
    scene, skipped = next((k, v) for k, v in runs.items() if v)
    for text in _replies("iot_devices", "activate_scene", {"scene_id": scene, "allow_partial": True}):
        assert all(f"the {k['name']}, which is" in text for k in skipped), text


def _summary(server_name: str, tool: str, args: Mapping[str, Any], asked: str, world: int = 0) -> str:
    """How the teacher reads out a call's result for a request in these words."""
    server = registry.get(server_name)
    with Session([server], world=world) as session:
        result = session.call(tool, dict(args))
    assert result.ok, result.error
    return Wording(random.Random(0)).summary(server.tools[tool], result.data, args=args, asked=asked)


def test_room_temperatures_are_said_in_degrees_and_a_room_without_one_says_so() -> None:
    """"Primary Bedroom: temperature 65.5, ...; Guest Room: devices 2; Home Office." has no unit,
    and rooms without a reading are not said to have none."""
    text = _summary("iot_devices", "list_rooms", {"floor": "Upstairs"},
                    "Show me the rooms of the floor '{floor}' with their temperatures.")
    assert re.search(r"temperature \d+(?:\.\d)?°F", text), text
    assert "no temperature" in text, text
    readings = _summary("iot_devices", "get_sensor_readings", {"device_id": next(
        k for k, r in _index("iot_devices").rows["device"].items() if r["sensor_kind"] == "temperature")},
        "Show me the temperature history of {device_id}.")
    assert not re.search(r"temperature \d+(?:\.\d)?(?!\d|\.\d|°)", readings), readings


def test_a_device_status_says_its_state() -> None:
    """"What's the status of the Bedroom Speaker?" -> "Bedroom Speaker: type speaker, room Primary
    Bedroom, manufacturer Apple, model HomePod mini, online, ..." reads out its make, not its state."""
    states = {"light": ("on", "off"), "plug": ("on", "off"), "speaker": ("volume", "off"), "lock": ("locked", "unlocked", "jammed"),
              "camera": ("armed",), "thermostat": ("°F",), "blind": ("open", "closed"), "sensor": ("°F", "motion", "clear", "open", "closed", "dry", "wet")}
    seen: set[tuple[str, bool]] = set()
    with Session(["iot_devices"], world=0) as s:
        devices = s.call("list_devices", {"limit": 100}).data["devices"]
    for d in devices:
        if (d["type"], d["online"]) in seen:
            continue
        seen.add((d["type"], d["online"]))
        for text in _replies("iot_devices", "get_device", {"device_id": d["device_id"]}):
            assert "manufacturer" not in text, text
            words = ("offline",) if not d["online"] else states[d["type"]]
            assert any(w in text for w in words), text


def test_a_room_is_said_by_its_name() -> None:
    """"it's in the Entryway room now", "the Kitchen room", "moved the Floor Lamp to Kids' Room": a
    room is said as people say it ("the Kitchen", "the Kids' Room")."""
    said = [(user, reply) for tool in ("move_device", "set_room_lights", "get_energy_usage", "list_devices")
            for _, user, reply in _turns("iot_devices", tool, 300, 5)]
    assert said
    for user, reply in said:
        assert not re.search(r"\b(?:Entryway|Kitchen|Office|Garage|Backyard|Porch|Room|Bedroom) room\b|\broom the\b",
                             user + " " + reply), (user, reply)
        assert not re.search(r"\bto (?:Kids'|Living|Dining|Guest|Primary|Kitchen|Office|Garage)\b", reply), reply


def test_an_automation_runs_a_scene_whose_name_fits_any_hour() -> None:
    """"Every weekday at 9:30 PM, run the Good Morning scene; name it 'Late evening'": the scene an
    automation runs at a drawn hour is one whose name says no time of day."""
    said = [(ex["world"], call, user) for ex in _generated("iot_devices", 300, 5) for turn, user in _turn_users(ex)
            for call in turn["calls"] if call["name"] == "create_automation"]
    assert said
    for world, call, user in said:  # (each example's scene, named as its own world names it)
        scene = _index("iot_devices", world).labels["scene"].get(call["arguments"]["scene_id"], "")
        assert scene and not re.search(r"Morning|Night|Evening|Dinner|Bedtime", scene), user


def test_a_lock_and_a_new_scene_read_as_sentences() -> None:
    """"The door code 'House cleaner (Eli)' is deleted from Garage Side Door Lock." wants "the";
    "Quiet time will bring those devices back ..." for one device wants that one named."""
    index = _index("iot_devices")
    code = next(k for k, r in index.rows["lock_code"].items() if r["valid_until"])
    for text in _replies("iot_devices", "delete_lock_code", {"code_id": code}):
        assert re.search(r"\b(?:from|opens|the) the |\bthe [A-Z]", text), text
    light = next(k for k, r in index.rows["device"].items() if r["type"] == "light")
    for text in _replies("iot_devices", "create_scene", {"name": "Quiet time", "device_ids": [light]}):
        assert "those devices" not in text and "1 devices" not in text, text


def test_a_new_scene_is_named_for_what_it_sets() -> None:
    """"Create a scene named 'Party' with the Front Door Lock": a new scene saves how its devices are
    now, and its name says what that is for (locked up, asleep, awake, lit up) or the room it is about."""
    rooms = {w: {k: r["name"] for k, r in _index("iot_devices", w).every["room"].items()} for w in range(4)}
    seen = 0
    for ex in _generated("iot_devices", 400, 7):
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
        devices = _index("iot_devices", ex["world"]).every["device"]
        for call in _calls(ex):
            if call["name"] != "create_scene" or "actions" not in results.get(call["id"], {}):
                continue
            seen += 1
            name, actions = call["arguments"]["name"], results[call["id"]]["actions"]
            on = [a["power"] == "on" or a["mode"] in ("heat", "auto") for a in actions]
            shut = [a["lock_state"] == "locked" or a["armed"] is True or a["power"] == "off" or a["position"] == 0
                    for a in actions]
            if name in ("Lock up", "Away", "Bedtime", "Lights out"):
                assert all(shut), (ex["id"], name, actions)
            elif name in ("Party", "Relax", "Cosy"):
                assert all(on), (ex["id"], name, actions)
            elif name == "Wake up":
                assert all(o or a["position"] == 100 for o, a in zip(on, actions)), (ex["id"], name, actions)
            else:
                assert name in ("Kitchen", "Living room"), (ex["id"], name)
                assert all(rooms[ex["world"]][devices[a["device_id"]]["room_id"]].lower() == name.lower()
                           and a["lock_state"] is None and a["armed"] is None for a in actions), (ex["id"], name, actions)
    assert seen


def test_a_level_is_set_without_saying_which_way_it_goes() -> None:
    """"Switch the lights in the Entryway on at 30 percent", then "dim the Entryway Light to 40
    percent": a level is asked for before the light's own is known, so the words say which level,
    not which way (no "dim" to a brighter one, no "turn down" to a louder one)."""
    said = [user for tool in ("set_brightness", "set_volume") for _, user, _ in _turns("iot_devices", tool, 300, 5)]
    assert said
    for user in said:
        assert not re.search(r"\b(?:[Dd]im|[Bb]righten|down|up) to\b|\b[Dd]im\b|[Bb]righten", user), user


def test_counts_of_devices_are_said_as_counts() -> None:
    """"Dinner Time: ..., devices 3, devices offline 0" reads field names and a zero; a person says
    "3 devices, no devices offline"; "points used 0" is "no points used"."""
    scene = next(iter(_index("iot_devices").rows["scene"]))
    for text in (_summary("iot_devices", "get_scene", {"scene_id": scene}, "What does {scene_id} do?"),
                 _summary("iot_devices", "list_rooms", {}, "Which rooms are set up in the app?")):
        assert not re.search(r"devices(?: offline)? \d", text), text
        assert re.search(r"\d devices?\b", text), text
    text = _summary("travel_booking", "get_booking", {"booking_id": "BKG-10012"},
                    "Show me the details of {booking_id}.")
    assert "points used 0" not in text, text
    text = _summary("maps", "get_profile", {}, "Show me my map profile.")
    assert re.search(r"\d+ saved places", text), text


def test_a_floor_is_said_as_its_name_without_a_preposition_that_needs_an_article() -> None:
    """"Done: Home Gym is set up on Basement." and "under the floor 'Basement'": a floor's name
    (Basement, Upstairs, Outdoors) takes no "on"."""
    for text in _replies("iot_devices", "add_room", {"name": "Home Gym", "floor": "Basement"}):
        assert "on Basement" not in text, text
    for ask in registry.get("iot_devices").tools["add_room"].asks:
        assert not re.search(r"(on|under) (the floor )?'?\{floor\}", ask.text), ask.text


def test_a_thing_told_apart_by_a_device_or_room_says_it_with_its_article() -> None:
    """"The Family door code from Back Door Lock is deleted from the Back Door Lock": a device's
    name takes "the" wherever it is said, and the lock is said once."""
    index = _index("iot_devices")
    family = [k for k, label in index.labels["lock_code"].items() if label == "Family"]
    assert len(family) > 1
    say = Phrasing(registry.get("iot_devices"), Sampler(registry.get("iot_devices"), 0, [0]).context(0), index,
                   Wording(random.Random(0)))
    for code in family:
        said = say.entity("lock_code", code)
        assert re.search(r"from the [A-Z]", said), said
    texts = [t for code in index.labels["lock_code"] for t in _replies_if_ok("iot_devices", "delete_lock_code",
                                                                            {"code_id": code})]
    assert texts
    for text in texts:
        assert not re.search(r"(from|in) (?!the )[A-Z][a-z]+ (Door|Lock|Room)", text) and text.count("Lock") <= 2, text


def _replies_if_ok(server: str, tool: str, args: dict) -> list[str]:
    try:
        return _replies(server, tool, args)
    except AssertionError:  # a call the state refuses (the last permanent code of a lock)
        return []


# ----- food_delivery ---------------------------------------------------------------------------------


def _food_order(name: str, before_order: Sequence[tuple[str, dict]] = ()) -> tuple[str, list[tuple[str, dict]]]:
    """A restaurant by name, and the calls that fill its cart with its cheapest dish."""
    index = _index("food_delivery")
    restaurant = next(k for k, r in index.rows["restaurant"].items() if r["name"] == name)
    dishes = sorted((r["price"], k) for k, r in index.rows["menu_item"].items() if r["restaurant_id"] == restaurant)
    return restaurant, [*before_order, ("add_to_cart", {"item_id": dishes[-1][1], "quantity": 3})]


def test_an_order_says_what_the_credit_paid_and_names_the_restaurant_once() -> None:
    """After "your Patty Wagon cart now has 1 item, $17.48 with fees and tax before the tip",
    "Your The Patty Wagon order is in (ORD-10039), $9.98 charged to the card" hides the $7.50 of
    account credit that paid the rest, and doubles the article."""
    restaurant, setup = _food_order("The Patty Wagon")
    with Session(["food_delivery"], world=0) as s:
        for name, args in setup:
            assert s.call(name, args).ok
        for when in range(0, 7 * 24 * 60, 30):
            probe = s.fork()
            at = (datetime(2026, 3, 16, 9) + timedelta(minutes=when + 120)).isoformat(timespec="seconds")
            if probe.call("place_order", {"restaurant_id": restaurant, "scheduled_for": at}).ok:
                break
    for use_credit in (True, False):
        args = {"restaurant_id": restaurant, "scheduled_for": at, **({} if use_credit else {"use_credit": False})}
        for text in _replies("food_delivery", "place_order", args, setup):
            assert "The The" not in text and "your The" not in text.replace("Your", "your"), text
            assert ("account balance" in text) == use_credit, text


def test_a_sensor_without_readings_in_the_window_says_so() -> None:
    """"How warm was it by the Bedroom Temperature Sensor between March 15 ... and March 17 ...?"
    -> "Here are the results: Bedroom Temperature Sensor." for a sensor offline since March 14."""
    sensor = next(k for k, r in _index("iot_devices").every["device"].items()
                  if r["sensor_kind"] == "temperature" and not r["online"])
    for text in _replies("iot_devices", "get_sensor_readings",
                         {"device_id": sensor, "start": "2026-03-15T09:00:00", "end": "2026-03-17T17:00:00"}):
        assert "no readings" in text, text


def test_travel_readouts_name_bookings_not_their_ids() -> None:
    """"1 booking: B6 1145 BOS to JFK on March 31: ..., booking id BKG-10015, kind flight" and
    "BKG-10007: occurred March 17 ..." read out an internal ID; a booking is said by what it is
    (its summary), and a person quotes its confirmation code, not its key."""
    for tool, args, asked in (("list_bookings", {"status": "completed"}, "Which of my bookings are done?"),
                              ("get_loyalty_account", {"limit": 5}, "Show my last 5 loyalty transactions."),
                              ("get_booking", {"booking_id": "BKG-10012"}, "What does {booking_id} include?")):
        text = _summary("travel_booking", tool, args, asked)
        assert "BKG-" not in text, text


def test_people_do_not_post_each_others_words() -> None:
    """A search for 'store downtown' found 'Vinyl haul from the record store downtown. #vinyl #music'
    posted word for word by five people; what one account posts, at most one other posts too."""
    for world in range(4):
        posts = _index("social_media", world).every["post"].values()
        authors = Counter(text for text, _ in {(r["text"], r["author_id"]) for r in posts})
        assert max(authors.values()) <= 2, (world, authors.most_common(2))


def test_the_user_in_a_follow_listing_is_not_said_to_follow_themselves() -> None:
    """"4 accounts: ...; Kenji Ito: you don't follow." lists the user, who is not to follow themselves."""
    index = _index("social_media")
    me = next(k for k, r in index.every["account"].items() if r["is_me"])
    name = index.every["account"][me]["display_name"]
    with Session(["social_media"], world=0) as s:
        follower = next(a["account_id"] for a in s.call("list_followers", {"account_id": me, "limit": 100}).data[
            "accounts"] if not a["is_private"])
    text = _summary("social_media", "list_following", {"account_id": follower, "limit": 100},
                    "Which accounts does {account_id} follow?")
    assert name in text and not re.search(rf"{name}: [^;]*(you don't follow|follows you)", text), text


# ----- maps ------------------------------------------------------------------------------------------


def test_departures_of_one_line_say_the_line() -> None:
    """"6 departures: departs March 17 at 3:11 PM, stop ..., toward ..." never says which bus: a
    name every departure shares (Bus 24) is said once, with the count."""
    with Session(["maps"], world=0) as s:
        places = [k for k in _index("maps").rows["place"]]
        for place in places:
            found = s.call("get_departures", {"place_id": place, "at": "2026-03-17T15:00"})
            lines = {d["line_name"] for d in found.data["departures"]} if found.ok else set()
            if len(lines) == 1 and len(found.data["departures"]) > 1:
                break
    text = _summary("maps", "get_departures", {"place_id": place, "at": "2026-03-17T15:00"},
                    "What transit leaves near {place_id} after {at}?")
    assert lines.pop() in text, text


def test_a_review_is_said_by_its_words_and_its_author() -> None:
    """"1 review: Peet's Coffee: rating 5, body 'Best coffee in the neighborhood.'" reads out a
    field name: a review is what its author wrote, quoted, with their rating."""
    place = next(r["place_id"] for r in _index("maps").rows["review"].values())
    text = _summary("maps", "list_reviews", {"place_id": place}, "What do people say about {place_id}?")
    assert "body" not in text and "by " in text, text
    assert re.search(r"\d stars?\b", text) and "place " not in text, text  # its stars; not the place asked about


def test_asks_say_what_their_calls_answer() -> None:
    """"Find Salads Harvest Salad near me." puts a cuisine before a dish's name and asks for a
    nearness no search holds to; "Show me the places I saved in the list 'Visiting family' and which
    are open now" is answered with the list, not with what is open."""
    for server, tool in (("food_delivery", "search_dishes"), ("maps", "get_saved_list")):
        for ask in registry.get(server).tools[tool].asks:
            assert not re.search(r"\{cuisine\} \{query\}|near me|open now", ask.text), ask.text


def test_a_tip_change_gives_no_reason_the_order_may_not_bear_out() -> None:
    """"Make the tip on order ORD-10038 1 dollar; the courier was great" for an order not yet
    delivered, and a tip cut from $14.17: the words give no reason the order and the new tip may belie."""
    said = [user for _, user, _ in _turns("food_delivery", "update_tip", 400, 8)]
    assert said
    for user in said:
        assert "courier" not in user, user


def test_a_promo_code_already_on_the_cart_is_not_applied_again() -> None:
    """"Use my promo code FREEDEL on the cart at Sakura Sushi" where the cart has FREEDEL already: a
    request that changes nothing is not made, so applying the same code again writes nothing."""
    with Session(["food_delivery"], world=0) as s:
        cart = next(c for c in s.call("list_carts", {}).data["carts"] if c["promo_code"])
        before = s.fingerprint()
        assert s.call("apply_promo_code", {"restaurant_id": cart["restaurant_id"], "code": cart["promo_code"]}).ok
        assert s.fingerprint() == before


def test_a_promotion_is_said_by_what_it_gives() -> None:
    """"FREEDEL: description 'Free delivery on orders of $15 or more', kind free delivery, value 0"
    reads out field names: a promotion is said by what it gives, its code and until when."""
    text = _summary("food_delivery", "list_promotions", {}, "Are there any promo codes I can use?")
    assert "description" not in text and "kind " not in text and "code FREEDEL" in text, text


def test_a_cart_just_thrown_out_is_not_looked_at() -> None:
    """"Forget my Sakura Sushi order, throw out the cart. Oh, and what's in my cart at Sakura Sushi?"
    asks about a cart the same request threw out: a thing an argument's condition takes (a
    restaurant with a cart) is one that meets it as the conversation stands."""
    seen = 0
    for ex in _generated("food_delivery", 400, 8):
        cleared: set[str] = set()
        for call in _calls(ex):
            restaurant = call["arguments"].get("restaurant_id")
            if call["name"] in ("view_cart", "apply_promo_code", "remove_promo_code") and restaurant:
                seen += 1
                assert restaurant not in cleared, ex["id"]
            if call["name"] == "clear_cart":
                cleared.add(restaurant)
            if call["name"] == "add_to_cart":
                cleared.clear()
    assert seen


def test_a_dish_just_added_is_not_changed_in_the_same_conversation() -> None:
    """"Add 1 of the Mapo Tofu to my cart. Then please change the new cart item to 2." reads as if
    the user could not decide: a cart line is changed only when it was in the cart before."""
    index = _index("food_delivery")
    seen = 0
    for ex in _generated("food_delivery", 300, 8):
        for call in _calls(ex):
            if call["name"] == "update_cart_item":
                seen += 1
                assert call["arguments"]["cart_item_id"] in index.ids["cart_item"], ex["id"]
    # nor does a change of a line said for the first time read as a change of mind ("make that 1 ... instead")
    assert not any("instead" in ask.text for ask in registry.get("food_delivery").tools["update_cart_item"].asks)
    assert seen


def test_a_search_kept_to_open_places_that_finds_none_says_so() -> None:
    """"Is there a bookstore open right now?" was answered "There are no bookstores.", a claim about
    every bookstore, not the open ones asked about."""
    text = _summary("maps", "search_places", {"open_now": True, "category": "bookstore"},
                    "Is there a {category} open right now?")
    assert "no open bookstores" in text, text


def test_a_card_saved_as_the_default_is_said_to_be_the_default() -> None:
    """"Add the card ... and make it my default." was answered "Saved your Visa ending 1111 as 'Visa
    ending 1111'.", which leaves out the half of the request that made it the default."""
    args = {"card_number": "4111 1111 1111 1111", "expiry": "06/28", "cardholder_name": "MAYA OKAFOR",
            "make_default": True}
    texts = _replies("travel_booking", "add_payment_card", args)
    assert texts
    for text in texts:
        assert "default" in text, text


# ----- filesystem ------------------------------------------------------------------------------------


def _reply_after(ex: dict, user: str) -> str:
    """What the assistant said last before the user spoke again."""
    messages = ex["messages"]
    at = next(i for i, m in enumerate(messages) if m["role"] == "user" and m["content"] == user)
    later = next((i for i in range(at + 1, len(messages)) if messages[i]["role"] == "user"), len(messages))
    return next((m["content"] for m in reversed(messages[at:later])
                 if m["role"] == "assistant" and not m.get("tool_calls")), "")


def test_a_moved_file_is_not_said_to_be_new() -> None:
    """"Move 'Overnight oats.md' into the Documents folder", then "Compress the new item into an
    archive": a moved file is the same file, said as the one just moved."""
    seen = 0
    for ex in _generated("filesystem", 300, 5):
        moved: set[str] = set()
        for turn, user in _turn_users(ex):
            if any(p in json.dumps(call["arguments"]) for call in turn["calls"] for p in moved):
                seen += 1
                assert "the new" not in user + _reply_after(ex, user), user
            moved |= {call["arguments"]["destination_folder"].rstrip("/") + "/" + call["arguments"]["path"].rsplit("/", 1)[1]
                      for call in turn["calls"] if call["name"] == "move_path"}
    assert seen


def test_a_file_copied_under_its_own_name_is_then_said_with_its_folder() -> None:
    """"Make a copy of the Goals 2026.md file in the Documents folder", then "Tag the Goals 2026.md
    file": two files have that name now, so the original is said with the folder it is in."""
    seen = 0
    for ex in _generated("filesystem", 600, 3):
        copied: set[str] = set()
        for turn, user in _turn_users(ex):
            for path in copied:
                if any(path in json.dumps(call["arguments"]) for call in turn["calls"]):
                    seen += 1
                    folder, name = path.rsplit("/", 1)
                    at = user.index(name)  # "the Resume.md file in the Personal folder"
                    assert f"in the {folder.rsplit('/', 1)[1]} folder" in user[at:at + len(name) + 30], user
            copied |= {call["arguments"]["path"] for call in turn["calls"]
                       if call["name"] == "copy_path" and not call["arguments"].get("new_name")}
    assert seen >= 3


def test_sizes_are_asked_for_in_the_units_people_use() -> None:
    """"Which duplicate files larger than 2000000 bytes do I have?": nobody counts megabytes in bytes."""
    for server in registry.names():
        for tool in registry.get(server).tools.values():
            for ask in tool.asks:
                assert not re.search(r"\}\s*bytes\b", ask.text), (tool.name, ask.text)
    sized = [(call, " ".join(m["content"] for m in ex["messages"] if m["role"] == "user"))
             for ex in _generated("filesystem", 600, 5) for turn in ex["turns"] for call in turn["calls"]
             if call["name"] == "find_duplicates" and "min_size" in call["arguments"]]
    assert sized
    for call, said in sized:
        assert f"{call['arguments']['min_size'] // 1_000_000} MB" in said, said


def test_a_rename_says_what_it_renamed() -> None:
    """"Zipped 2 items into /Desktop/To send.zip (3.4 MB). Renamed it to 'Net worth 2026.csv'.": "it"
    after another thing's report names that thing."""
    texts = _replies("filesystem", "rename_path", {"path": "/Documents/Finance/Net worth.csv",
                                                   "new_name": "Net worth 2026.csv"})
    for text in texts:
        assert "'Net worth.csv'" in text and " it " not in text, text


def test_a_file_listing_reads_no_mime_types() -> None:
    """"Itinerary.md: size 293 bytes, mime type text/markdown, modified March 16 at 6:00 AM" reads
    out a field nobody says; a file's kind is in its name."""
    text = _summary("filesystem", "list_recent_files", {}, "Show me my most recently edited files.")
    assert "mime" not in text and "modified" in text, text


def test_an_answer_ending_in_an_abbreviation_has_one_period() -> None:
    """"The Greek Yogurt Parfait from Eggs & Co.." ends a clarification answer with two periods."""
    for seed in range(40):
        text = Wording(random.Random(seed)).answer("the Greek Yogurt Parfait from Eggs & Co.")
        assert ".." not in text, text


def test_a_version_and_a_share_link_are_said_by_their_file() -> None:
    """"bring back version VER-10004", "revoke share link LNK-10002": a person names an earlier
    version or a link by the file it belongs to ("the version of the Resume.md file from ...")."""
    said = [user for tool in ("restore_version", "read_version", "diff_version", "revoke_share_link",
                              "update_share_link") for _, user, _ in _turns("filesystem", tool, 300, 5)]
    assert len(said) > 5
    for user in said:
        assert not re.search(r"\b(?:VER|LNK)-\d+", user), user


def test_a_link_follows_its_file_when_it_moves() -> None:
    """The path a link is named by is its file's, after the file's folder is renamed too."""
    with Session(["filesystem"], world=0) as s:
        link = next(x for x in s.call("list_share_links", {}).data["links"] if x["kind"] == "file")
        folder, name = link["path"].rsplit("/", 1)
        assert s.call("rename_path", {"path": folder, "new_name": "Renamed"}).ok
        moved = folder.rsplit("/", 1)[0] + "/Renamed/" + name
        after = next(x for x in s.call("list_share_links", {}).data["links"] if x["link_id"] == link["link_id"])
        assert after["path"] == moved, after


def test_duplicates_are_said_as_sets_of_identical_files() -> None:
    """"There are no groups." for no duplicates in the Fragments folder, and "Sets of identical files
    found: 2; ..." read out a field: a person says "no files with the same content", "2 sets"."""
    tool = registry.get("filesystem").tools["find_duplicates"]
    with Session(["filesystem"], world=0) as s:
        empty = s.call("find_duplicates", {"path": "/Music"}).data
    assert not empty["groups"]
    for seed in range(5):
        text = Wording(random.Random(seed)).nothing(empty, tool, {"path": "/Music"})
        assert "groups" not in text and "same content" in text, text
    for text in _replies("filesystem", "find_duplicates", {}):
        assert "found:" not in text and re.search(r"\d sets? of identical files", text), text


def test_a_share_link_listing_names_each_item() -> None:
    """"1 share link: expired, created July 29, 2025 at 7:05 PM, path /Documents/Travel/..., kind
    file" heads nothing: each link is said by the name of the item it shares."""
    text = _summary("filesystem", "list_share_links", {}, "Which of my files are shared by link?")
    assert "path /" not in text and "Budget 2026.csv: " in text, text


# ----- wording shared by these servers ---------------------------------------------------------------


def test_an_empty_listing_says_what_was_looked_for_in_order() -> None:
    """"I found no Vietnamese restaurants delivery time." says a sort order as if it were a kind of
    restaurant; "There are no notifications report update." puts a kind after its noun."""
    food = registry.get("food_delivery").tools["search_restaurants"]
    social = registry.get("social_media").tools["list_notifications"]
    for seed in range(10):
        words = Wording(random.Random(seed))
        text = words.nothing({"restaurants": [], "total": 0}, food, {"cuisine": "Vietnamese", "sort_by": "delivery_time"})
        assert "delivery time" not in text, text
        text = words.nothing({"notifications": [], "total": 0}, social, {"kind": "report_update", "unread_only": True})
        assert "report update notifications" in text, text


def test_files_of_one_name_are_told_apart_by_their_folder() -> None:
    """"Protect the file 'Packing list.txt' from March 14": a person tells two files of one name
    apart by the folder each is in, not by the day it was made."""
    say = Phrasing(registry.get("filesystem"), Sampler(registry.get("filesystem"), 0, [0]).context(0),
                   _index("filesystem"), Wording(random.Random(0)))
    index = _index("filesystem")
    names = Counter(r["name"] for r in index.rows["item"].values())
    twins = [k for k, r in index.rows["item"].items() if names[r["name"]] > 1 and r["kind"] == "file"]
    assert twins
    for path in twins:
        folder = path.rsplit("/", 2)[-2]
        assert say.entity("item", path).endswith(f"in the {folder} folder"), (path, say.entity("item", path))


def test_a_link_listing_reads_no_tokens() -> None:
    """"Budget 2026.csv: ..., url https://drive.example.com/s/FSJs..., token FSJs...": a link's token
    is its URL again, and a secret besides: it is not read out unless asked."""
    with Session(["filesystem"], world=0) as s:
        for link in s.call("list_share_links", {"status": "active"}).data["links"]:
            if link["access"] == "edit":  # every link alike but for its name, its day and its URL
                assert s.call("update_share_link", {"link_id": link["link_id"], "access": "view"}).ok
        data = s.call("list_share_links", {"status": "active"}).data
    text = Wording(random.Random(0)).summary(registry.get("filesystem").tools["list_share_links"], data,
                                             args={"status": "active"}, asked="Which of my files are shared by link?")
    assert "token" not in text, text


def test_a_saved_list_is_said_by_its_places() -> None:
    """"Visiting family: created August 8, 2025 at 9:00 AM, not default, place count 4; 4 places: ..."
    reads out fields: a list is said by the places on it, with the user's notes."""
    for text in _replies("maps", "get_saved_list", {"list_id": "LST-10003"}):
        assert "place count" not in text and "not default" not in text, text
        assert re.search(r"has \d+ places?: \w", text), text


def test_a_road_closure_is_said_by_the_block_it_closes() -> None:
    """"February 17 at 9:00 AM to April 1 ..., street Central Avenue, between 'Hill Street and Church
    Street', reason 'building construction'" reads out fields: a closure is said by its block."""
    text = _summary("maps", "list_road_closures", {"city_id": "CTY-10001"}, "Which roads in {city_id} are closed?")
    assert "street " not in text and "between '" not in text and re.search(r"\w+ between \w+", text), text


def test_a_home_that_is_no_home_says_what_it_is() -> None:
    """"Harbor Plaza is a office place, not a residential building." wants "an office"."""
    index = _index("maps")
    office = next(k for k, r in index.rows["place"].items() if r["category"] == "office")
    with Session(["maps"], world=0) as s:
        failed = s.call("set_saved_address", {"label": "home", "place_id": office})
    assert not failed.ok and " an office," in failed.error["message"], failed.error


def test_a_room_is_said_with_its_hotel() -> None:
    """"Please book room RMT-10048 from March 19 ...": a room type is said with its hotel."""
    said = [user for call, user, _ in _turns("travel_booking", "book_hotel", 400, 6)]
    assert said
    for user in said:
        assert "RMT-" not in user, user


def test_nobody_reports_closed_for_good_a_place_they_just_asked_about() -> None:
    """"What's the fastest way to Golden Curry House? ... Golden Curry House has closed for good;
    please report it.": a place the conversation asks the way to, reviews or looks up is not the
    one the user then reports gone."""
    seen = 0
    for ex in _generated("maps", 300, 5):
        calls = _calls(ex)
        for at, call in enumerate(calls):
            if call["name"] == "report_closure" and call["arguments"]["status"] == "permanently_closed":
                seen += 1
                asked = {v for earlier in calls[:at] for v in earlier["arguments"].values()}
                assert call["arguments"]["place_id"] not in asked, (ex["id"], [c["name"] for c in calls])
    assert seen


def test_a_menu_is_asked_for_a_section_the_restaurant_has() -> None:
    """"What Curries does Flour & Crumb have for under 18.99 dollars?" asks a bakery for a section
    its menu has not: a section asked for is one of that restaurant's own."""
    seen = 0
    for ex in _generated("food_delivery", 400, 5):
        menu = _index("food_delivery", ex["meta"]["world"]).rows["menu_item"].values()
        for call in _calls(ex):
            args = call["arguments"]
            if call["name"] == "get_menu" and "category" in args:
                seen += 1
                sections = {row["category"] for row in menu if row["restaurant_id"] == args["restaurant_id"]}
                assert args["category"] in sections, (ex["id"], args)
    assert seen


def test_dishes_are_asked_for_under_a_price_a_dish_may_cost() -> None:
    """"What Tandoor does Masala Harlem have for under 1.50 dollars?": nobody asks for a dish under
    a price no dish costs; a limit is a round amount a meal may come to."""
    asked = [call["arguments"]["max_price"] for tool in ("get_menu", "search_dishes")
             for call, _, _ in _turns("food_delivery", tool, 400, 5) if "max_price" in call["arguments"]]
    assert asked
    for price in asked:
        assert price >= 8 and price == int(price), price


def test_a_menu_section_without_a_dish_under_the_price_says_so() -> None:
    """"Thai Orchid has nothing that matches; its menu has Starters, Noodles, Curries, ..." answers
    "What Curries does it have for under 8 dollars?" with the sections asked about: it has no
    curry at that price."""
    index = _index("food_delivery")
    dish = min(index.rows["menu_item"].values(), key=lambda r: -r["price"])
    args = {"restaurant_id": dish["restaurant_id"], "category": dish["category"], "max_price": 1.0}
    for text in _replies("food_delivery", "get_menu", args):
        assert f"nothing in {dish['category']} for $1.00 or less" in text and "its menu has" not in text, text


def test_a_locked_vault_is_said_to_be_locked() -> None:
    """"Is my Personal Vault locked?" -> "Here are the results: locked, path /Personal Vault." reads
    out fields: a person says "Your Personal Vault is locked"."""
    for text in _replies("filesystem", "get_vault_status", {}, [("lock_vault", {})]):
        assert "Personal Vault is locked" in text and "path" not in text, text


def test_a_renamed_device_is_said_by_its_old_name() -> None:
    """"Done: switched from home to night mode. Done: renamed it to Overhead Light.": "it" stands for
    nothing said; a rename says the device it renamed."""
    light = next(k for k, r in _index("iot_devices").rows["device"].items() if r["type"] == "light")
    name = _index("iot_devices").labels["device"][light]
    for text in _replies("iot_devices", "rename_device", {"device_id": light, "name": "Mood Light"}):
        assert name in text and "renamed it" not in text, text


def test_opening_hours_are_said_on_the_clock_people_use() -> None:
    """"Lantern Coffee ... is rated 4.1 from 294 ratings; today: 07:00-19:00, and it's open now, until
    7:00 PM" reads a 24-hour span beside a 12-hour time: hours are said as "7 AM-7 PM"."""
    place = next(k for k, r in _index("maps").rows["place"].items() if r["status"] == "open" and "24h" not in r["hours"]
                 and ":00-" in r["hours"])
    for text in _replies("maps", "get_place", {"place_id": place}):
        assert not re.search(r"\b\d\d:\d\d-", text) and re.search(r"\d (?:AM|PM)-\d", text), text


def test_a_place_taken_off_a_list_is_said_to_be_off_that_list() -> None:
    """"Done: Blue Coffee is off Date night." says a list's name as if it were a day: "off your Date
    night list"."""
    with Session(["maps"], world=0) as s:
        place = s.call("get_saved_list", {"list_id": "LST-10002"}).data["places"][0]["place"]["place_id"]
    for text in _replies("maps", "remove_saved_place", {"place_id": place, "list_id": "LST-10002"}):
        assert "your Date night list" in text, text


def test_a_number_of_a_dish_is_more_than_one() -> None:
    """"Then add 1 of the California Roll to my cart." says a count nobody says of one dish."""
    said = [(call["arguments"], user) for call, user, _ in _turns("food_delivery", "add_to_cart", 300, 5)
            if "quantity" in call["arguments"]]
    assert said
    for args, user in said:
        assert args["quantity"] > 1 and " 1 of " not in user, user


def test_charging_sessions_are_said_by_where_and_how_far_they_charged() -> None:
    """"March 14, 12:00 AM to 3:34 AM, cost $4.11, location Home, start 0%; ..., cost $0.00, location
    Volta - Whole Foods" reads out fields: a session is said by its day and place, the charge it
    took the battery from and to, and what it cost (a free one is free)."""
    for args in ({"start_date": "2026-03-13"}, {}):
        for text in _replies("vehicle", "list_charging_sessions", args):
            assert not re.search(r"location |start \d|cost \$|\$0\.00", text), text
            assert re.search(r"at Home, \d+(?:\.\d)?% to \d+(?:\.\d)?%", text), text


def test_whether_someone_follows_you_is_said_in_words() -> None:
    """"Yusuf Collins (@yusufc_runs) has 90 followers. Follows you: yes; you follow them: yes." reads
    out two switches: a person says "you follow each other"."""
    accounts = [k for k, r in _index("social_media").rows["account"].items() if k != "USR-10001"][:12]
    for account in accounts:
        for text in _replies("social_media", "get_profile", {"account_id": account}):
            assert not re.search(r": (?:yes|no)\b", text), text
            assert re.search(r"each other|follows? you|follow them|neither", text), text


def test_an_account_does_not_post_the_same_words_twice() -> None:
    """"What has copperlineoutdoorco posted lately?" -> "2 posts: @copperlineoutdoorco: 'Trail
    conditions update: ...'; @copperlineoutdoorco: 'Trail conditions update: ...'": a business posts
    news, each post its own (only a spam account copies its scam, once a day)."""
    for world in (0, 1):
        index = _index("social_media", world)
        spam = {r["author_id"] for r in index.rows["post"].values() if r["violates"]}
        said = Counter((r["author_id"], r["text"]) for r in index.rows["post"].values() if r["author_id"] not in spam)
        assert not [key for key, n in said.items() if n > 1]


def test_reviews_are_said_by_their_stars_and_who_gave_them() -> None:
    """"Rating 3.6, 426 ratings; 3 reviews: 'Long wait ...': 2 stars, created October 14, 2025 at
    11:40 PM, by Isaac S." reads out fields and leaves out the place: a person says whose review
    gave how many stars and what it says."""
    place = next(r["place_id"] for r in _index("maps").rows["review"].values())
    name = _index("maps").labels["place"][place]
    for sort in ("newest", "lowest"):
        for text in _replies("maps", "list_reviews", {"place_id": place, "sort": sort}):
            assert name in text and "created " not in text and ", by " not in text, text
            assert re.search(r"\d stars? from [\w .]+: '", text), text


def test_automations_are_said_by_what_they_run_and_when() -> None:
    """"1 automation: Start of work day: created February 2, 2022 at 8:15 PM, scene Focus Time, run
    8:45 AM, days MO, TU, WE and 2 more." reads out fields and day codes: an automation is said by
    the scene it runs, on which days and at what time."""
    for args in ({}, {"enabled": False}):
        for text in _replies("iot_devices", "list_automations", args, [("set_automation_enabled", {
                "automation_id": "AUT-10002", "enabled": False})]):
            assert not re.search(r"created |days [A-Z]{2}|run \d|scene [A-Z]", text), text
            assert re.search(r"runs the [\w ]+ scene (?:every day|on [\w, ]+) at \d{1,2}:\d\d [AP]M", text), text


def test_departures_are_said_by_line_time_and_stop() -> None:
    """"8 departures: Silver Line: departs March 16 at 9:01 AM, mode subway, stop 'Pine Street &
    Madison Avenue'; ..." reads out fields: a departure is which line leaves when, from which stop."""
    place = next(k for k, r in _index("maps").rows["place"].items() if r["category"] == "residential")
    for text in _replies("maps", "get_departures", {"place_id": place}):
        assert not re.search(r"mode (?:subway|bus)|stop '|departs ", text), text
        assert re.search(r"at \d{1,2}:\d\d [AP]M from [A-Z]\w+ Street & ", text), text


def test_home_activity_is_said_by_what_happened_and_when() -> None:
    """"8 activities (all 'Motion in Living Room'): occurred March 14 at 8:49 PM; occurred ..." reads
    out a field name for every entry: an entry is what happened, and when."""
    for args in ({"kind": "motion"}, {}):
        for text in _replies("iot_devices", "list_activity", args):
            assert "occurred" not in text and "activities" not in text, text
            assert re.search(r"on March \d+ at \d{1,2}:\d\d [AP]M", text), text


def test_scenes_are_said_by_their_devices_and_last_use() -> None:
    """"7 scenes: Good Morning: created January 11, 2022 at 9:00 PM, last activated March 16 at 6:30
    AM; ...; Dinner Time: created ..., 4 devices" reads out fields: a scene is said by how many
    devices it sets and when it was last used."""
    for text in _replies("iot_devices", "list_scenes", {}):
        assert "created" not in text and "last activated" not in text, text
        assert re.search(r"Good Morning \(\d+ devices?, last used [A-Z]", text), text


def test_a_folder_listing_says_each_item_in_a_few_words() -> None:
    """"6 entries: Bank statements: folder, size 1.0 MB, modified October 8, 2025 at 8:11 PM; ..."
    reads a folder out field by field: an item is its name with what it is, its size and its day."""
    for args in ({"path": "/Documents/Finance"}, {"path": "/Documents/Finance", "sort_by": "size", "descending": True}):
        for text in _replies("filesystem", "list_folder", args):
            assert not re.search(r": (?:folder|file), size|entries", text), text
            assert re.search(r"Budget 2025\.csv \(636 bytes, modified December 31, 2025\)", text), text
            assert re.search(r"Taxes \(folder, 2\.2 MB\)", text), text


def test_followers_are_said_by_name_handle_and_how_they_relate_to_you() -> None:
    """"44 followers: Sofia Hall: you don't follow, @halls; Olivia Nguyen: you follow, @olivia_nguyen"
    reads out switches: a follower is said by name and handle, with "you follow each other" where
    that is so."""
    for tool, args in (("list_followers", {}), ("list_following", {})):
        for text in _replies("social_media", tool, args):
            assert not re.search(r": (?:you (?:don't )?follow|@)", text), text
            assert re.search(r"[A-Z]\w+ [A-Z]\w+ \(@[\w.]+(?:; you follow each other)?\)", text), text


def test_orders_are_said_by_restaurant_total_and_what_became_of_them() -> None:
    """"Gangnam BBQ: total $73.39, order ORD-10036, placed March 15 at 7:20 PM, estimated delivery
    March 15 at 8:02 PM" reads out fields, and an "estimated" delivery of food that came long ago."""
    for args in ({"status": "delivered"}, {}):
        for text in _replies("food_delivery", "list_orders", args):
            assert "estimated" not in text and "total $" not in text, text
            assert re.search(r"from [A-Z][\w'&. ]+ \(\$[\d.,]+\), delivered on [A-Z]\w+ \d+ at ", text), text


def test_promo_codes_are_said_by_what_they_give() -> None:
    """"Free delivery on orders of $15 or more: code FREEDEL, valid until April 10, min subtotal
    $15.00" says the minimum twice and a field name: a code is said with what it gives and until when."""
    for text in _replies("food_delivery", "list_promotions", {}):
        assert "min subtotal" not in text and "valid until" not in text and "code " not in text, text
        assert re.search(r"[A-Z0-9]{4,} for [a-z$\d][^;]*, until [A-Z]\w+ \d+", text), text


def test_trips_are_said_by_where_when_and_how_far() -> None:
    """"Kroger to Volta - Whole Foods: March 13, 10:23 AM to 10:47 AM, distance 11.8 miles, duration
    24 minutes, fuel gal 0.35" reads out fields: a trip is where it went, when, how far and how long;
    the last ten asked for are ten."""
    for args in ({"start_date": "2026-03-09"}, {"limit": 10}):
        for text in _replies("vehicle", "list_trips", args):
            assert not re.search(r"distance \d|duration \d|fuel gal|electric \d", text), text
            assert re.search(r"\w to [\w' ]+ on March \d+ at \d{1,2}:\d\d [AP]M \([\d.]+ miles, \d+ minutes", text), text
    assert all(text.count(" miles,") == 10 for text in _replies("vehicle", "list_trips", {"limit": 10}))
    for world in range(2):  # "0.378 gallons": to the hundredth
        for text in _replies("vehicle", "list_trips", {"limit": 10}, world=world):
            assert " gallons" in text and not re.search(r"\d\.\d{3} gallons", text), text


def test_the_trash_is_said_by_what_each_thing_was_and_where_it_was() -> None:
    """"Screenshot ... .png: file, original path /Desktop/Screenshot ... .png, size 1.8 MB, 1 item" reads
    out fields, the name twice and a file as one item: a thing in the trash is its name, the folder it
    was in and its size (a folder with what it holds)."""
    for text in _replies("filesystem", "list_trash", {}):
        assert "original path" not in text and "1 item" not in text, text
        assert re.search(r"Untitled\.txt from the Desktop folder \(\d+ bytes\)", text), text


def test_an_empty_listing_still_answers() -> None:
    """A listing said in words answers when it holds nothing (an empty folder, no scenes, no trash)."""
    with Session(["filesystem"], world=0) as s:
        assert s.call("create_folder", {"path": "/Documents/Empty"}).ok
        assert s.call("list_folder", {"path": "/Documents/Empty"}).data["entries_text"] == "nothing"
        assert s.call("empty_trash", {}).ok
        assert s.call("list_trash", {}).data["items_text"] == "nothing"
    with Session(["iot_devices"], world=0) as s:
        for automation in s.call("list_automations", {}).data["automations"]:
            assert s.call("delete_automation", {"automation_id": automation["automation_id"]}).ok
        for scene in s.call("list_scenes", {}).data["scenes"]:
            assert s.call("delete_scene", {"scene_id": scene["scene_id"]}).ok
        assert s.call("list_scenes", {}).data["scenes_text"] == "no scenes"
    with Session(["vehicle"], world=0) as s:
        assert s.call("list_trips", {"start_date": "2026-04-30"}).ok
        assert s.call("list_charging_sessions", {"start_date": "2026-04-30"}).ok


def test_a_service_appointment_is_said_with_its_day() -> None:
    """"Do I have a service appointment coming up?" -> "1 service appointment: Hyundai of Chicago:
    services Tire rotation, booked, created March 12 at 3:00 PM, at 752 Main Street" leaves out when
    it is: an appointment is what is done, where, and on which day."""
    for args in ({"status": "booked"}, {}):
        for text in _replies("vehicle", "list_service_appointments", args):
            assert "created" not in text and "services " not in text, text
            assert re.search(r"[A-Z][\w ]+ at [A-Z][\w ]+ on [A-Z]\w+ \d+ at \d{1,2}:\d\d [AP]M", text), text


def test_found_files_are_said_with_the_folder_they_are_in() -> None:
    """"1 entry: invoice-93827.pdf: file, size 98.3 KB, modified February 1 at 7:50 PM" reads out
    fields: a file found anywhere is said by name, the folder it is in, its size and its day."""
    for tool, args in (("search_by_name", {"query": "Budget"}), ("find_by_extension", {"extension": "pdf"}),
                       ("list_recent_files", {})):
        for text in _replies("filesystem", tool, args):
            assert not re.search(r"entr(?:y|ies)|: (?:file|folder), size", text), text
            assert re.search(r"\.\w+ (?:in the [\w ]+ folder|at the top of your drive) \([\d.,]+ \w+, modified ", text), text


def test_posts_of_one_account_say_the_account_once() -> None:
    """"2 posts: @copperlineoutdoorco: '...'; @copperlineoutdoorco: '...'" says the one author before
    each post: posts all by one account are said as that account's, the handle once."""
    with Session(["social_media"], world=0) as s:
        account = next(a["account_id"] for a in s.call("list_following", {"limit": 100}).data["accounts"]
                       if s.call("list_posts", {"account_id": a["account_id"]}).data["total"] > 1)
    for text in _replies("social_media", "list_posts", {"account_id": account}):
        handle = re.search(r"@[\w.]+", text).group()
        assert text.count(handle) == 1 and re.search(rf"posts?(?:, the first \d+)? by {handle}: '", text), text


def test_only_a_business_is_reported_closed() -> None:
    """"The Green Residences has closed for good; please report it." reports the user's own apartment
    building: what is reported closed or reopened is a business or a landmark, not a home or an office."""
    rows = {w: _index("maps", w).rows["place"] for w in range(2)}
    seen = 0
    for ex in _generated("maps", 300, 5):
        for call in _calls(ex):
            if call["name"] == "report_closure" and ex["meta"]["world"] in rows:
                seen += 1
                place = rows[ex["meta"]["world"]][call["arguments"]["place_id"]]
                assert place["category"] not in ("residential", "office"), (ex["id"], place["name"])
    assert seen


def test_a_place_says_its_hours_today_in_one_sentence() -> None:
    """"Sushi Maple (...) is rated 3.5 from 530 ratings; today: closed, and it's closed now; it opens
    on March 17 at 5:00 PM." reads a field out: a person says "it's closed today and opens on March
    17 at 5:00 PM", or "its hours today are 11 AM-10 PM, and it's open now, until 10:00 PM"."""
    places = _index("maps").rows["place"]
    closed_today = next(k for k, r in places.items() if r["status"] == "open" and r["hours"].split(",")[0] == "closed")
    open_now = next(k for k, r in places.items() if r["category"] == "cafe" and r["status"] == "open"
                    and r["hours"].startswith("0"))
    for place in (closed_today, open_now):
        for text in _replies("maps", "get_place", {"place_id": place}):
            assert "today:" not in text and "closed, and" not in text, text
            assert re.search(r"it's closed today and opens on March \d+ at|its hours today are \d", text), text


def test_a_home_and_work_are_said_as_places_not_businesses() -> None:
    """"home: The Green Residences: open, rated 4.5, category residential" reads a home as a
    business: a person says where home and work are."""
    for text in _replies("maps", "get_profile", {}):
        assert "rated" not in text and "category" not in text and "open," not in text, text
        assert re.search(r"[Yy]our home address is [A-Z][\w ]+ \(\d+ ", text), text


def test_conversations_are_said_by_who_wrote_last_what_and_when() -> None:
    """"6 conversations: Yusuf Collins: @yusufc_runs, last message 'Sure, I'll DM it tonight.', last
    from you, last sent March 14 at 10:05 PM" reads fields out: a person says "Yusuf Collins
    (@yusufc_runs): you last wrote 'Sure, I'll DM it tonight.' on March 14"."""
    for text in _replies("social_media", "list_conversations", {}):
        assert "last message" not in text and "last from" not in text and "last sent" not in text, text
        assert re.search(r"[A-Z][\w ]+ \(@[\w.]+\): you last wrote '(?:[^']|'\w)+' on March \d+", text), text
        assert re.search(r"[A-Z][\w ]+ \(@[\w.]+\) last wrote '(?:[^']|'\w)+' on March \d+", text), text


def test_service_reminders_are_said_by_when_each_is_due() -> None:
    """"1 service reminder: Engine oil and filter change: due soon, due on March 28, due odometer
    30,016 miles, 8,114.1 miles left" reads fields out: a person says "the engine oil and filter
    change is due soon: by March 28 or at 30,016 miles (8,114 miles from now)"."""
    seen = 0
    for world in range(4):
        for status in (None, "due_soon", "overdue"):
            args = {} if status is None else {"status": status}
            with Session(["vehicle"], world=world) as s:
                if not s.call("list_service_reminders", args).data["total"]:
                    continue
            for text in _replies("vehicle", "list_service_reminders", args, world=world):
                seen += 1
                assert not re.search(r"due odometer|miles left|[^s] due on|\d\.\d miles", text), text
                assert re.search(r"[Tt]he [a-z0-9][\w -]+ is (?:due|overdue)", text), text
    assert seen


def test_a_saved_place_is_nicknamed_as_what_it_is() -> None:
    """"Save Hyundai of Chicago to my places as 'Sunday spot'": an outing's nickname goes only to a
    place one goes out to, and a service centre or a charger is called what it is for."""
    outings = {"restaurant", "coffee", "shopping", "park", "grocery", "gym"}
    seen = Counter()
    for ex in _generated("vehicle", 400, 7):
        for call in _calls(ex):
            if call["name"] == "save_place" and call["arguments"].get("nickname"):
                category = _index("vehicle", ex["world"]).every["place"][call["arguments"]["place_id"]]["category"]
                seen[category in outings] += 1
                assert category in outings or not call["arguments"]["nickname"].endswith("spot"), call
    assert seen[True]


def test_a_light_is_renamed_to_a_name_that_fits_it() -> None:
    """"Rename the Living Room Ceiling Light to 'Reading Lamp'": a lamp gets a lamp's name and a
    ceiling light a ceiling light's."""
    seen = 0
    for ex in _generated("iot_devices", 400, 7):
        for call in _calls(ex):
            if call["name"] == "rename_device":
                seen += 1
                old = _index("iot_devices", ex["world"]).every["device"][call["arguments"]["device_id"]]["name"]
                new = call["arguments"]["name"]
                assert ("Lamp" in old) == ("Lamp" in new) and old.endswith("s") == new.endswith("s"), (old, new)
    assert seen


def test_sensor_readings_are_summed_up_by_their_range_and_the_latest() -> None:
    """"43 readings: recorded March 11, temperature 67.5°F, humidity 34%; recorded March 11 at 3:00
    AM, ..." reads every reading out: a person says over what time, the range and the latest."""
    sensor = next(k for k, r in _index("iot_devices").every["device"].items()
                  if r["sensor_kind"] == "temperature" and r["online"])
    for args in ({"device_id": sensor}, {"device_id": sensor, "start": "2026-03-15T09:00:00"}):
        for text in _replies("iot_devices", "get_sensor_readings", args):
            assert "recorded" not in text and "humidity 3" not in text, text
            assert re.search(r"ranged from [\d.]+°F to [\d.]+°F .*the latest was [\d.]+°F", text), text


def test_a_hotel_is_on_a_street_of_its_own_city() -> None:
    """"Sheraton London Westminster is a 4-star hotel at 1759 Willow Drive, London": a hotel's street
    is one of its city's, written the way that city writes it."""
    from prove.env.fake import STREET_NAMES
    for world in range(3):
        for hotel in _index("travel_booking", world).every["hotel"].values():
            street = hotel["address"].rsplit(", ", 1)[0]
            assert hotel["address"].endswith(", " + hotel["city"]), hotel
            if hotel["country"] not in ("US", "CA"):
                assert not any(name in street for name in STREET_NAMES), hotel
                assert not re.match(r"\d{4} ", street), hotel


def test_a_trip_is_said_as_a_trip() -> None:
    """"Your flight ... is no longer part of Atlanta work trip": a trip's name is said as the trip's,
    "your trip 'Atlanta work trip'"."""
    booking = next(k for k, r in _index("travel_booking").rows["booking"].items() if r.get("trip_id"))
    for text in _replies("travel_booking", "remove_booking_from_trip", {"booking_id": booking}):
        assert re.search(r"(?:your trip '[^']+'|out of its trip)\.$", text), text


def test_found_places_are_said_by_what_and_where_they_are() -> None:
    """"15 places in all; 5 of them: Fox & Bean: open, rated 4.4, category cafe, at 461 Franklin
    Avenue, Seattle, WA 98114" reads fields out: a place is what it is, where, and its rating."""
    for tool, args in (("search_places", {"query": "Burger Bar"}), ("search_places", {"category": "cafe", "open_now": True}),
                       ("search_nearby", {"place_id": "PLC-10010", "radius_m": 800})):
        for text in _replies("maps", tool, args):
            assert "category" not in text and "open," not in text and not re.search(r"\d{5}", text), text
            assert re.search(r"[A-Z][\w&' ]+(?:, an? [\w ]+)? (?:[\d.]+ k?m away )?at \d+ [A-Z]\w+ (?:Street|Avenue)", text), text


def test_road_closures_and_transit_lines_are_said_in_sentences() -> None:
    """"Central Avenue between Hill Street and Church Street, for building construction: February 17
    at 9:00 AM to April 1 at 9:00 AM, active now" and "Orange Line: mode subway, on Harrison Avenue,
    stops ..., headway 8 minutes" read fields out: a closure is closed until when or closes when, a
    line runs along a street every so many minutes."""
    for text in _replies("maps", "list_road_closures", {"city_id": "CTY-10001"}):
        assert "active now" not in text and "for farmers" not in text, text
        assert re.search(r"is closed for [\w ]+ until [A-Z]", text), text
    for text in _replies("maps", "list_transit_lines", {"city_id": "CTY-10002"}):
        assert "mode " not in text and "headway" not in text and "(bus)" not in text, text
        assert re.search(r"runs along [\w ]+ every \d+ minutes", text), text


def test_a_travel_profile_answers_what_was_asked_in_a_sentence() -> None:
    """"What's my home airport and loyalty status?" -> "Emma Bennett: home airport BOS, home city
    Boston, loyalty number ..., email ..., phone ..., tier silver" reads every field out: a person
    says the home airport and the tier."""
    texts = _replies("travel_booking", "get_profile", {})
    assert any(re.fullmatch(r"Your home airport is [A-Z]{3} \([\w ]+\), and you're an? [\w ]*member \(loyalty "
                            r"number \w+\) with [\d,]+ points\.", t) for t in texts), texts
    assert not any("tier " in t or "home city" in t for t in texts), texts


def test_devices_are_said_by_where_they_are_and_their_state() -> None:
    """"2 devices: Front Door Lock: manufacturer Level, model Lock+, battery 48%" reads out a device's
    make: a person says where each device is and what state it is in."""
    for args in ({"online": False}, {"name": "Front Door"}, {"device_type": "light"}, {}):
        for text in _replies("iot_devices", "list_devices", args):
            assert "manufacturer" not in text and "model" not in text and "'" not in text, text
            assert re.search(r"the [A-Z][\w' ]+ \((?:on|off|locked|unlocked|closed|since|armed)", text), text
            assert "in the Front Porch" not in text, text


def test_clips_scenes_and_rooms_are_said_in_a_few_words_each() -> None:
    """"Doorbell Camera, March 16 at 7:25 AM: duration 35 seconds, trigger motion, size 18.6 MB",
    "Good Morning: created June 8, 2021 ..., 8 actions: Living Room Thermostat: mode heat, target temp
    70" and "Primary Bedroom: temperature 65.5°F, 6 devices, 2 devices offline" read fields out."""
    for text in _replies("iot_devices", "list_recordings", {}):
        assert not re.search(r"duration|trigger|size|MB", text), text
        assert re.search(r"the [\w ]+ Camera (?:saw|caught|spotted) [\w ]+ on March \d+ at", text), text
    scene = next(iter(_index("iot_devices").rows["scene"]))
    for text in _replies("iot_devices", "get_scene", {"scene_id": scene}):
        assert not re.search(r"created|actions|mode heat|target temp|position \d", text), text
        assert re.search(r"scene sets \d+ devices: it (?:sets|opens|turns|locks)", text), text
    for args in ({}, {"floor": "Upstairs"}):
        for text in _replies("iot_devices", "list_rooms", args):
            assert not re.search(r"temperature \d|devices offline|: \d rooms", text), text
            assert re.search(r"\d+ rooms: the [A-Z]", text), text
            assert ("no temperature reading" in text) == bool(args), text


def test_the_cars_places_and_driver_profiles_are_said_in_a_few_words() -> None:
    """"1 place: Starbucks: category coffee, at 2456 Park Avenue, Chicago, IL 60676, distance 1.5
    miles" and "Emily: active, seat position 6, mirror preset A, climate target 68" read fields out."""
    for args in ({"category": "charging_station"}, {"query": "Starbucks"}, {"saved_only": True}):
        for text in _replies("vehicle", "search_places", args):
            assert not re.search(r"category|distance|charger \d|\d{5}|0\.0 miles", text), text
            assert re.search(r"[A-Z][\w' -]+, (?:[\d.]+ miles away )?at \d+ [A-Z]", text), text
    for text in _replies("vehicle", "list_driver_profiles", {}):
        assert not re.search(r"active,|climate target|mirror preset [A-Z],", text), text
        assert re.search(r"[A-Z]\w+, the active one \(seat at position \d", text), text


def test_accounts_and_notifications_are_said_as_people_say_them() -> None:
    """"2 blocked accounts: Elizabeth Richardson: @elizabethr_hikes; ..." and "'@halls started
    following you': created March 11 at 9:00 AM" read fields out."""
    for text in _replies("social_media", "list_blocked_accounts", {}):
        assert re.fullmatch(r"You've blocked \d+ accounts?: [A-Z][\w ]+ \(@[\w.]+\)(?:,? (?:and )?[A-Z][\w ]+ \(@[\w.]+\))*\.",
                            text), text
    for args in ({"kind": "follow"}, {"unread_only": True}):
        for text in _replies("social_media", "list_notifications", args):
            assert "created" not in text and "'@" not in text, text
            assert re.search(r"@[\w.]+ [a-z ]+ on March \d+ at \d{1,2}:\d\d [AP]M", text), text
            assert ("unread notifications" in text) == ("unread_only" in args), text


def test_past_service_visits_are_said_as_visits_one_had() -> None:
    """"Show my past service visits." -> "You have 2 service appointments: ..." says they are still
    to come: past ones are visits one has had."""
    for text in _replies("vehicle", "list_service_appointments", {"status": "completed"}):
        assert text.startswith("You've had ") and "service visit" in text, text


def test_a_thermostat_setting_and_a_hotel_budget_read_as_people_say_them() -> None:
    """"Done: target 69.5°F on the Upstairs Thermostat." and "the best-rated hotel in Frankfurt under
    $200.75 a night": a setting is said in a sentence and a budget in round dollars."""
    thermostat = next(k for k, r in _index("iot_devices").rows["device"].items() if r["type"] == "thermostat"
                      and r["online"])
    for text in _replies("iot_devices", "set_temperature", {"device_id": thermostat, "target_temp": 69.5}):
        assert "target 69.5" not in text, text
    rates = [call["arguments"]["max_nightly_rate"] for call, _, _ in _turns("travel_booking", "search_hotels", 400, 9)
             if "max_nightly_rate" in call["arguments"]]
    assert rates and all(rate % 50 == 0 for rate in rates), rates


def test_cities_lists_matches_and_reports_are_said_in_sentences() -> None:
    """"3 cities: Los Angeles: region CA; Portland: region OR, home city", "3 saved lists: Favorites:
    created May 20, 2025 ..., default", "2 matches: 210 Oak Street, Portland, OR: lat 45.52, lon
    -122.69" and "1 report: Café Hernandez: confirmed, created March 10 ..." read fields out."""
    for text in _replies("maps", "list_cities", {}):
        assert re.fullmatch(r"The map covers [A-Z][\w ]+, [A-Z]{2}(?: \(where you live\))?(?:;(?: and)? [A-Z][\w ]+, "
                            r"[A-Z]{2}(?: \(where you live\))?)*\.", text), text
    for text in _replies("maps", "list_saved_lists", {}):
        assert "created" not in text and "default;" not in text, text
        assert re.search(r"Favorites \(\d+ places; your default list", text), text
    for text in _replies("maps", "geocode", {"address": "210 Oak Street"}):
        assert "lat " not in text and "lon " not in text, text
        assert re.search(r"210 Oak Street, [A-Z][\w ]+, [A-Z]{2}, at -?\d+\.\d+, -?\d+\.\d+", text), text
    for text in _replies("maps", "list_my_reports", {}):
        assert "created" not in text and ": confirmed" not in text, text
        assert re.search(r"you reported [\w' ]+ (?:temporarily closed|open again|closed for good)", text), text


def test_door_codes_are_said_lock_by_lock() -> None:
    """"13 lock codes: Family: created May 22, 2021 at 4:00 PM, lock Front Door Lock, 4 digits, ..."
    reads fields out: codes are said lock by lock, with until when a temporary one works."""
    for args in ({"status": "active"}, {}):
        for text in _replies("iot_devices", "list_lock_codes", args):
            assert not re.search(r"created|digits|lock Front", text), text
            assert re.search(r"The [\w ]+ Lock has \d+ (?:working )?codes?: \w+", text), text


def test_hashtags_and_car_events_are_said_in_a_few_words_each() -> None:
    """"30 hashtags in all; 5 of them: #travel: 22 posts, 10 accounts" and "1 event: 'Low tyre
    pressure: front left tyre': occurred March 16 at 7:49 AM, alert" read fields out."""
    for text in _replies("social_media", "get_trending_hashtags", {}):
        assert not re.search(r"#\w+: \d", text), text
        assert re.search(r"#\w+ \(\d+ posts from \d+ accounts\)", text), text
    for text in _replies("vehicle", "list_events", {"kind": "alert"}):
        assert "occurred" not in text and ", alert" not in text, text
        assert re.search(r"\d+ alerts?: [A-Z][^;]+, on March \d+ at \d{1,2}:\d\d [AP]M", text), text


def test_a_booked_service_and_asked_for_transactions_are_answered_as_asked() -> None:
    """"You're booked at BMW of Seattle on March 24 at 3:00 PM; the appointment is APT-10003." reads
    out a raw ID, and "Show my last 20 loyalty transactions." -> "You have 46,833 points ..." answers
    the balance question instead."""
    index = _index("vehicle")
    center = next(k for k, r in index.rows["place"].items() if r["category"] == "service_center")
    booked = [("cancel_service_appointment", {"appointment_id": k})
              for k, r in index.every["service_appointment"].items() if r["status"] == "booked"]
    for text in _replies("vehicle", "book_service_appointment", {"place_id": center, "scheduled_for": "2026-03-24T15:00:00",
                                                                 "services": "Brake inspection"}, booked):
        assert "APT-" not in text and "Brake inspection" in text, text
    asked = [(call, user, reply) for call, user, reply in _turns("travel_booking", "get_loyalty_account", 400, 9)
             if "transactions" in user]
    assert asked
    for call, user, reply in asked:
        assert call["arguments"].get("limit", 20) != 20 and "tier" not in reply, (user, reply)
        assert "occurred" not in reply and re.search(r"\+[\d,]+ points on [A-Z]", reply), reply


def test_a_place_goes_on_a_list_it_fits() -> None:
    """"Put Spring Grocery on the list 'Date night'": a place goes only on a list about its kind."""
    from prove.servers.maps.world import LIST_KINDS
    seen = 0
    for ex in _generated("maps", 400, 7):
        index = _index("maps", ex["world"])
        lists = {k: r["name"] for k, r in index.every["saved_list"].items()}
        for call in _calls(ex):
            args = call["arguments"]
            if call["name"] == "save_place" and args.get("list_id") in lists:
                seen += 1
                kinds = LIST_KINDS.get(lists[args["list_id"]])
                assert kinds is None or index.every["place"][args["place_id"]]["category"] in kinds, (ex["id"], args)
    assert seen


def test_a_sold_out_flight_is_said_to_be_sold_out() -> None:
    """"B6 1972, 8:10 AM to 9:10 AM, $79.13 a person, only 0 seats left" wants "sold out"."""
    from prove.servers.travel_booking.tools_flights import FlightOption, _flights_text
    flight = FlightOption.model_construct(flight_number="B6 1972", departs_at="2026-03-18T08:10:00",
                                          arrives_at="2026-03-18T09:10:00", lowest_price=79.13, total_price=79.13,
                                          available=False, seats_left=0)
    text = _flights_text([flight], 1, 1)
    assert "sold out" in text and "0 seats" not in text, text


def test_reports_of_posts_are_said_by_what_became_of_them() -> None:
    """"1 report: @free_giftcards_4u's post '...', reported as spam: open, created March 15 at 8:05
    PM, details '...', review by March 16 at 8:05 PM" reads fields out."""
    for args in ({}, {"status": "action_taken"}):
        for text in _replies("social_media", "list_reports", args):
            assert not re.search(r"created|: open|, review by|details '", text), text
            assert re.search(r"you reported @[\w.]+'s post '[^']+' for \w+; (?:it's still open|the moderators)", text), text


def test_airports_are_said_by_name_code_and_nonstops() -> None:
    """"13 airports: Hartsfield-Jackson Atlanta International Airport: code ATL, country US, nonstop
    destinations BOS, DEN" reads fields out."""
    for args in ({}, {"query": "International Airport"}):
        for text in _replies("travel_booking", "list_airports", args):
            assert not re.search(r"code [A-Z]{3}|country [A-Z]{2}|nonstop destinations", text), text
            assert re.search(r"[A-Z][\w-]+ [\w -]*Airport \([A-Z]{3}(?:, [A-Z][\w ]+)?\), with nonstops to [A-Z]{3}", text), text


def test_who_you_follow_midnight_and_comments_read_plainly() -> None:
    """"You follow 48 accounts: Rosa Lee (@leer; you follow them)" says what the listing already
    says; "open on March 18 at 4:00 PM, until March 19 at 12:00 AM" is "until midnight"; "On that
    post: 5 comments: @cruzc: ..." stacks colons."""
    for text in _replies("social_media", "list_following", {}):
        assert "you follow them" not in text, text
    bar = next(k for k, r in _index("maps").rows["place"].items() if r["status"] == "open"
               and r["hours"].split(",")[2].endswith("-00:00"))
    for text in _replies("maps", "check_open", {"place_id": bar, "at": "2026-03-18T16:00"}):
        assert "12:00 AM" not in text and "until midnight" in text, text
    with Session(["social_media"], world=0) as s:
        post = next(p["post_id"] for p in s.call("get_feed", {"limit": 50}).data["posts"] if p["comment_count"])
    for text in _replies("social_media", "list_comments", {"post_id": post}):
        assert not text.startswith("On that post:"), text


def test_energy_use_is_said_by_the_biggest_users() -> None:
    """"1 device (total cost $21.08): Upstairs Thermostat: cost $21.08, 90.06 kWh" reads fields out."""
    thermostat = next(k for k, r in _index("iot_devices").every["device"].items() if r["type"] == "thermostat")
    for args in ({"start_date": "2026-03-11", "end_date": "2026-03-15"}, {"device_id": thermostat}):
        for text in _replies("iot_devices", "get_energy_usage", args):
            assert not re.search(r": cost \$|total cost", text), text
            assert re.search(r"the [\w ]+ used [\d.,]+ kWh \(\$[\d.,]+\)", text), text


def test_only_a_metered_device_is_asked_what_its_power_cost() -> None:
    """"How much has the Front Door Lock cost me in power lately?" -> "There are no devices.": only
    lights, plugs, thermostats and speakers have their power metered."""
    seen = 0
    for ex in _generated("iot_devices", 400, 8):
        for call in _calls(ex):
            if call["name"] == "get_energy_usage" and "device_id" in call["arguments"]:
                seen += 1
                kind = _index("iot_devices", ex["world"]).every["device"][call["arguments"]["device_id"]]["type"]
                assert kind in ("light", "plug", "thermostat", "speaker"), (ex["id"], kind)
    assert seen


def test_a_flight_answers_the_question_asked_of_it() -> None:
    """"How much is business class on the B6 2888 flight, and is it refundable?" and "Is it on time?"
    were answered with every fare of the flight."""
    asked = _turns("travel_booking", "get_flight", 400, 9)
    assert asked
    for _, user, reply in asked:
        if "business class" in user:
            assert "Basic Economy" not in reply and re.search(r"business class is \$[\d,.]+ a person", reply), reply
        if "on time?" in user:
            assert "Fares per passenger" not in reply and "on schedule" in reply, reply


def test_a_follower_count_is_the_one_the_profile_gives() -> None:
    """"Layla Nelson (@layla_nelson) has 582 followers" and then "The account 'layla_nelson' has 7
    followers: ...": a follower listing counts the followers the profile counts."""
    with Session(["social_media"], world=0) as s:
        count = s.call("get_profile", {}).data["followers_count"]
    for text in _replies("social_media", "list_followers", {}):
        assert text.startswith(f"You have {count:,} followers"), (count, text)


def test_navigation_under_way_says_where_and_how_long_to_go() -> None:
    """"Kroger: no range after, enough range, active, distance 4.2 miles, ..." reads a drive under
    way out field by field."""
    place = next(k for k, r in _index("vehicle").rows["place"].items() if r["category"] == "grocery" and not r["saved"])
    drive = [("set_navigation_destination", {"place_id": place}), ("release_charge_cable", {}), ("start_engine", {}),
             ("shift_gear", {"gear": "D"}), ("start_drive", {})]
    for text in _replies("vehicle", "get_navigation", {}, drive):
        assert "enough range" not in text and "category" not in text, text
        assert re.search(r"on the way to [\w ]+: about \d+ minutes to go", text), text


def test_coordinates_are_said_as_an_address() -> None:
    """"578 Bridge Street, Austin, TX: lat 30.27, lon -97.74, nearest intersection 'Bridge Street &
    Jackson Avenue', distance to street 24 m" reads fields out."""
    for text in _replies("maps", "reverse_geocode", {"lat": 45.5164, "lon": -122.6771}):
        assert "lat " not in text and "distance to street" not in text, text
        assert re.fullmatch(r"That's \d+ [\w ]+, [\w ]+, [A-Z]{2}, near the corner of [\w ]+ & [\w ]+\.", text), text


def test_a_hotel_cancellation_gives_its_reason_in_a_sentence() -> None:
    """"Flexible rate cancelled more than 48 hours before check-in: free." is a note, not a sentence."""
    stay = next(k for k, r in _index("travel_booking").rows["booking"].items() if r["kind"] == "hotel"
                and r["status"] == "confirmed" and r["rate_plan"] == "flexible" and r["check_in"] > "2026-03-19")
    for text in _replies("travel_booking", "cancel_booking", {"booking_id": stay}):
        assert ": free." not in text and "Flexible rate cancelled" not in text, text


def test_a_review_about_service_is_of_a_place_with_staff() -> None:
    """"Leave a 5-star review for Iron Park: Friendly staff and quick service": a park has no staff."""
    seen = 0
    for ex in _generated("maps", 400, 8):
        for call in _calls(ex):
            if call["name"] == "write_review":
                seen += 1
                category = _index("maps", ex["world"]).every["place"][call["arguments"]["place_id"]]["category"]
                assert category not in ("park", "parking", "ev_charging"), (ex["id"], category)
    assert seen


def test_a_temperature_history_is_asked_of_the_past() -> None:
    """"How warm was it by the Upstairs Thermostat between March 14 at 9:00 AM and March 24 at 5:00
    PM?" asks about days to come."""
    asked = [call["arguments"] for call, _, _ in _turns("iot_devices", "get_sensor_readings", 400, 8)]
    assert any("start" in a for a in asked)
    for args in asked:
        for key in ("start", "end"):
            assert args.get(key, "") <= "2026-03-16T09:00:00", args


def test_a_new_room_and_notifications_read_are_said_in_a_sentence() -> None:
    """"Done: Mudroom is set up (Ground floor)." and "Marked 13 notifications as read; 0 are still
    unread." read a field and a zero out."""
    for text in _replies("iot_devices", "add_room", {"name": "Mudroom"}):
        assert "(Ground floor)" not in text, text
    for text in _replies("social_media", "mark_notifications_read", {}):
        assert "0 are still unread" not in text, text


def test_a_seat_heater_is_said_off_low_medium_or_high() -> None:
    """"Turn off the driver seat heater" -> "Done: driver seat heater set to 0 of 3."."""
    from prove.synth.teachers.programmatic import _fitting_replies

    tool = registry.get("vehicle").tools["set_seat_heater"]
    for level, word in ((0, "off"), (1, "low"), (2, "medium"), (3, "high")):
        texts = [r.text for r in _fitting_replies(tool, {"seat": "driver", "level": level})]
        assert texts and all(word in t and "of 3" not in t and "level" not in t for t in texts), (level, texts)


def test_a_temperature_in_the_car_log_reads_as_one_word() -> None:
    """"Climate on at 68 °F": a degree sign goes with its number."""
    with Session([registry.get("vehicle")], world=0) as session:
        assert session.call("set_climate", {"on": True, "target_temp": 70}).ok
        result = session.call("list_events", {"kind": "climate"})
    said = json.dumps(result.data, ensure_ascii=False)
    assert "°F" in said and " °F" not in said, said


def test_a_trip_named_with_parentheses_is_not_followed_by_more() -> None:
    """"Work trip to Denver (Dec 2025) (December 11, 2025 to December 13, 2025, 3 bookings)"."""
    from prove.servers.travel_booking.tools_trips import TripSummary, _trips_text

    trip = TripSummary.model_construct(name="Work trip to Denver (Dec 2025)", starts_at="2025-12-11T07:00:00",
                                       ends_at="2025-12-13T18:00:00", bookings=3)
    text = _trips_text([trip], 1, datetime(2026, 3, 16).date())
    assert ") (" not in text and text.startswith("'Work trip to Denver (Dec 2025)' ("), text


def test_a_cancellation_says_what_comes_back() -> None:
    """"Please cancel my stay ... and refund what you can" was answered "Done: I cancelled your stay
    .... Within 48 hours of check-in, the flexible rate keeps the first night.": the rule, never the
    refund. Every reply says the money or points that come back, or that nothing does."""
    from prove.synth.teachers.programmatic import _fitting_replies

    server = registry.get("travel_booking")
    say = Phrasing(server, Sampler(server, 0, [0]).context(0), _index("travel_booking"), Wording(random.Random(0)))
    cancel = registry.get("travel_booking").tools["cancel_booking"]
    base = {"booking": {"booking_id": "BKG-1"}, "fee": 0.0, "reason": "Flex fares are fully refundable."}
    cases = {(412.5, 0): ["$412.50"], (0.0, 4000): ["4000 points", "4,000 points"], (0.0, 0): ["nothing comes back"],
             (100.0, 2000): ["$100.00"]}
    for (cash, points), said in cases.items():
        data = {**base, "refund_amount": cash, "refund_points": points, "fee": 0.0 if cash or points else 250.0}
        texts = [say.reply(cancel, r.text, {"booking_id": "BKG-1"}, data, {"booking_id": "your flight"})
                 for r in _fitting_replies(cancel, {"booking_id": "BKG-1"}, data)]
        assert texts and all(any(s in t for s in said) and "0 points" not in t.replace("000 points", "")
                             for t in texts), (cash, points, texts)


def test_directions_arrive_once() -> None:
    """"..., walk 491 m to Flour & Lantern, then arrive at Flour & Lantern": the last walk already
    arrives; a route whose last step goes elsewhere still ends "then arrive at ..."."""
    seen = 0
    with Session(["maps"], world=0) as session:
        places = [p["place_id"] for p in session.call("search_places", {"city_id": "CTY-10001", "limit": 6}).data["places"]]
        for origin in places[:4]:
            for dest in places[:4]:
                if origin == dest:
                    continue
                for mode in ("transit", "walking"):
                    result = session.call("get_directions", {"origin_place_id": origin, "destination_place_id": dest,
                                                             "mode": mode})
                    if not result.ok:
                        continue
                    seen += 1
                    name = result.data["destination_name"]
                    words = result.data["in_words"]
                    assert words.count(name) == 1 and "ride 1 stops" not in words, words
                    assert words.endswith(name), words
    assert seen >= 6


def test_trips_in_one_listing_are_named_alike() -> None:
    """"Anniversary in Amsterdam (March 28 ...); 'Work trip to Denver (Dec 2025)' (December 11, ...)":
    where one name needs quotes to keep its own parentheses apart, every name of the list has them."""
    with Session(["travel_booking"], world=0) as session:
        data = session.call("list_trips", {}).data
    names = [t["name"] for t in data["trips"][:6]]
    assert any(n.endswith(")") for n in names) and not all(n.endswith(")") for n in names), names
    assert all(f"'{n}' (" in data["trips_text"] for n in names), data["trips_text"]


def test_a_trip_made_from_bookings_says_it_holds_them() -> None:
    """"Group my stay at Sheraton London Westminster ... into a trip named 'Spring break'." was
    answered "I've created the trip 'Spring break'.", silent on the stay it now holds."""
    from prove.synth.teachers.programmatic import _fitting_replies

    server = registry.get("travel_booking")
    say = Phrasing(server, Sampler(server, 0, [0]).context(0), _index("travel_booking"), Wording(random.Random(0)))
    tool = server.tools["create_trip"]
    stay = "your stay at Sheraton London Westminster, Standard King, April 20 to April 22"
    args = {"name": "Spring break", "booking_ids": ["BKG-10012"]}
    data = {"trip_id": "TRP-10009", "name": "Spring break"}
    texts = [say.reply(tool, r.text, args, data, {"booking_ids": stay}) for r in _fitting_replies(tool, args, data)]
    assert texts and all(stay in t and "'Spring break'" in t for t in texts), texts
    empty = [r.text for r in _fitting_replies(tool, {"name": "Getaway"}, data)]
    assert empty and not any("{booking_ids}" in t for t in empty)


def test_the_users_own_passport_is_said_to_them() -> None:
    """"Do I have a passport on file?" was answered "Yara Brooks (you) has a US passport on file"."""
    with Session(["travel_booking"], world=0) as session:
        mine = session.call("list_travelers", {"relationship": "self"}).data["travelers_text"]
        everyone = session.call("list_travelers", {}).data["travelers_text"]
    assert mine.startswith("you have ") and "(you)" not in mine, mine
    assert "(you) has" in everyone, everyone


def test_one_checked_bag_is_said_as_one() -> None:
    """"Checked bags added to your flight AS 1489 SEA to DEN on March 17, 1 in all"."""
    from prove.synth.teachers.programmatic import _fitting_replies

    server = registry.get("travel_booking")
    say = Phrasing(server, Sampler(server, 0, [0]).context(0), _index("travel_booking"), Wording(random.Random(0)))
    tool = server.tools["add_bags"]
    for added, fee, words in ((1, 0.0, "1 checked bag "), (1, 35.0, "1 checked bag "), (4, 90.0, "4 checked bags ")):
        data = {"booking_id": "BKG-1", "passengers": [], "bags_added": added, "fee_charged": fee, "payment_id": None,
                "bags_text": f"{added} checked bag{'s' if added > 1 else ''}"}
        texts = [say.reply(tool, r.text, {"booking_id": "BKG-1", "bags": added}, data, {"booking_id": "your flight"})
                 for r in _fitting_replies(tool, {"booking_id": "BKG-1", "bags": added}, data)]
        assert texts and all(words in t and "1 in all" not in t for t in texts), texts
    with Session(["travel_booking"], world=0) as session:
        booking = next(b["booking_id"] for b in session.call("list_bookings", {}).data["bookings"]
                       if b["kind"] == "flight" and b["status"] == "confirmed")
        result = session.call("add_bags", {"booking_id": booking, "bags": 1})
    assert result.ok and result.data["bags_text"].endswith(("1 checked bag", "checked bags")), result.data


def test_a_tag_and_a_purged_item_are_named_in_the_reply() -> None:
    """"Removed 'budget' from the Budget 2025.csv file." left out what 'budget' is; "Deleted it for
    good" after a listing of the trash left out which item."""
    with Session(["filesystem"], world=0) as session:
        tagged = session.call("find_by_tag", {"tag": "budget"}).data["entries"][0]
        trashed = session.call("list_trash", {}).data["items"][0]
    for text in _replies("filesystem", "remove_tag", {"path": tagged["path"], "tag": "budget"}):
        assert "tag 'budget'" in text or "tagged 'budget'" in text, text
    for text in _replies("filesystem", "delete_from_trash", {"trash_id": trashed["trash_id"]}):
        assert " it " not in text and trashed["name"] in text, text


def test_a_link_that_expires_says_when() -> None:
    """"Make a view-only link ... that stops working after 30 days" was answered "Done: anyone with
    https://... can view it.", silent on the expiry asked for; a tag added is not listed again."""
    path = "/Documents/Finance/Budget 2025.csv"
    for text in _replies("filesystem", "create_share_link", {"path": path, "expires_in_days": 30}):
        assert "April 15" in text, text
    for text in _replies("filesystem", "create_share_link", {"path": path}):
        assert "until" not in text, text
    for text in _replies("filesystem", "add_tag", {"path": path, "tag": "follow-up"}):
        assert text.count("follow-up") == 1, text


def test_one_busy_stretch_is_said_as_one() -> None:
    """"Tariq Rivera has 1 stretch of busy time ...; any time outside them is free"."""
    from prove.synth.teachers.programmatic import _fitting_replies

    server = registry.get("calendar")
    say = Phrasing(server, Sampler(server, 0, [0]).context(0), _index("calendar"), Wording(random.Random(0)))
    tool = server.tools["get_free_busy"]
    args = {"person_id": "PER-10002", "start": "2026-03-17T09:00:00", "end": "2026-03-18T17:00:00"}
    data = {"name": "Tariq Rivera", "busy": [{"start": "2026-03-17T10:00:00", "end": "2026-03-17T11:00:00"}], "total": 1}
    texts = [say.reply(tool, r.text, args, data, {}) for r in _fitting_replies(tool, args, data)]
    assert texts and all("1 stretch " in t and "them" not in t for t in texts), texts


def test_a_feed_asked_for_by_number_shows_that_many_posts() -> None:
    """"Show me the latest 10 posts in my feed." was answered "61 posts, the first 5: ...": the posts asked
    for by number are all said, up to ten."""
    for limit in (3, 10):
        for text in _replies("social_media", "get_feed", {"limit": limit}):
            assert len(re.findall(r"(?:^|; )(?:you|@[\w.]+): '", text.split(": ", 1)[1])) == limit, text


def test_a_flight_search_that_found_nothing_says_what_it_looked_for() -> None:
    """"Are there any American Airlines flights from BOS to JFK on March 26 leaving after 6:30 PM?" was
    answered "No flights for BOS for JFK for American Airlines came up."."""
    tool = registry.get("travel_booking").tools["search_flights"]
    args = {"origin": "BOS", "destination": "JFK", "airline": "AA", "departure_date": "2026-03-26",
            "depart_after": "18:30"}
    with Session(["travel_booking"], world=0) as session:
        data = session.call("search_flights", args).data
    assert data["total"] == 0
    said = Wording(random.Random(0)).nothing(data, tool, args)
    assert said == "There are no American Airlines flights from BOS to JFK on March 26 leaving after 6:30 PM.", said


def test_two_files_that_are_the_same_are_said_to_be() -> None:
    """"What's the difference between the Budget 2025.csv file and budget-2025-export.csv?" was answered
    "There are no diff for the Budget 2025.csv file for the file 'budget-2025-export.csv'."."""
    texts = _replies("filesystem", "diff_files", {"path_a": "/Documents/Finance/Budget 2025.csv",
                                                  "path_b": "/Downloads/budget-2025-export.csv"})
    assert texts and all(t.endswith("are the same, line for line.") for t in texts), texts


def test_the_navigation_is_asked_about_by_name() -> None:
    """"Can you get me an appointment at Stewart BMW Service Center ...?", then "And how long until we get
    there?" was answered for the place the navigation was set to: a question of the navigation says so."""
    for ask in registry.get("vehicle").tools["get_navigation"].asks:
        assert "navigation" in ask.text and not re.search(r"\bthere\b", ask.text), ask.text


def test_a_restaurant_review_is_about_its_own_cuisine() -> None:
    """"Bibimbap House ...: 5 stars from Caroline S.: 'Hidden gem. The pasta is worth the trip.'": the
    dishes a review names are of the restaurant's cuisine."""
    from prove.servers.maps.world import DISHES

    for world in range(3):
        rows = registry.get("maps").template(world).db.execute(
            "SELECT p.cuisine, r.body FROM reviews r JOIN places p USING (place_id) "
            "WHERE p.category = 'restaurant'").fetchall()
        assert rows
        for cuisine, body in rows:
            rest = re.sub("|".join(DISHES[cuisine]), "", body)  # (a Thai green curry is no Indian curry)
            others = {d for c, dishes in DISHES.items() if c != cuisine for d in dishes}
            assert not any(re.search(rf"\b{d}\b", rest) for d in others), (cuisine, body)


def test_only_what_is_served_warm_is_cold_in_a_review() -> None:
    """"Iron Inn ...: 1 star from Elijah M.: 'Not what it used to be; the location was cold.'"."""
    from prove.servers.maps.world import SERVED_WARM, _review

    assert _review("Not what it used to be; the {thing} {was} cold.", "location") == \
        "Not what it used to be; the location was a letdown."
    assert _review("Not what it used to be; the {thing} {was} cold.", "pho") == "Not what it used to be; the pho was cold."
    for world in range(3):
        bodies = [b for (b,) in registry.get("maps").template(world).db.execute("SELECT body FROM reviews")]
        cold = [b for b in bodies if " cold." in b]
        assert cold and all(re.search(r"the (.+) (?:was|were) cold\.", b).group(1) in SERVED_WARM for b in cold)


def test_a_question_of_saved_travellers_asks_what_the_answer_tells() -> None:
    """"Which of my kids are saved as travellers?" was answered "Nia Bennett (your child) has no passport on
    file.": the answer tells each traveller's passport, so the question asks for it."""
    tool = registry.get("travel_booking").tools["list_travelers"]
    for ask in tool.asks:
        assert "passport" in ask.text or ask.text == "Who do I have saved as travellers?", ask.text


def test_a_question_about_the_route_does_not_ask_where_it_goes() -> None:
    """"Navigate to Seattle Botanical Garden. Also, where is the navigation taking me?" asks what the user has
    just set: the questions about the route ask what the destination does not say (how long, how far)."""
    asks = registry.get("vehicle").tools["get_navigation"].asks
    assert asks and not any(re.match(r"where\b", as_ask(a).text, re.I) for a in asks), asks


def test_a_scene_for_leaving_runs_when_the_user_heads_out() -> None:
    """"Every weekday at 5:30 PM, run the Leaving Home scene; name it 'After work'": a scene for leaving the house
    is run in the morning, as the user heads out; other scenes at any of the named hours."""
    turns = _turns("iot_devices", "create_automation", 400, 5)
    leaving = [(call, user) for call, user, _ in turns if "Leaving Home" in user]
    assert leaving and len(leaving) < len(turns)
    for call, user in leaving:
        assert call["arguments"]["run_at"] < "12:00" and call["arguments"]["name"] == "Out the door", user


def test_energy_is_asked_of_the_days_the_reading_covers() -> None:
    """"What's using the most energy in the Primary Bedroom this week?" asked on a Monday, answered "From March 9 to
    March 15": the question names the last week the reading covers."""
    asks = [as_ask(a).text for a in registry.get("iot_devices").tools["get_energy_usage"].asks]
    assert not any("this week" in t for t in asks) and any("last week" in t for t in asks), asks


def test_a_deleted_door_code_names_its_lock_once() -> None:
    """"Done: the Plumber door code from the Garage Side Door Lock no longer opens the Garage Side Door Lock.": a
    code named by its lock is not followed by the lock again."""
    with Session(["iot_devices"], world=0) as session:
        codes = [code for lock in session.call("list_devices", {"device_type": "lock"}).data["devices"]
                 for code in session.call("list_lock_codes", {"device_id": lock["device_id"]}).data["lock_codes"]
                 if code["valid_until"]]  # (a lock's last permanent code is never deleted)
    assert codes
    for code in codes:
        for text in _replies("iot_devices", "delete_lock_code", {"code_id": code["code_id"]}):
            assert text.count(code["lock_name"]) <= 1, text


def test_a_new_room_says_its_floor_in_words() -> None:
    """"Please add a room called 'Patio' to my floor plan (Outdoors).": a floor is said as people say where a room
    is ("outdoors", "in the basement"), and every floor a room may be on has such a phrasing."""
    tool = registry.get("iot_devices").tools["add_room"]
    assert all("{floor}" not in ask.text for ask in tool.asks)
    floors = {floor for _, floor in tool.values["name, floor"]}
    assert floors <= {ask.binds.get("floor") for ask in tool.asks}


def test_the_rooms_of_a_floor_are_asked_for_as_people_say_where_rooms_are() -> None:
    """"Show me the rooms of the floor 'Ground floor' with their temperatures.": a floor is said as people say it
    ("on the ground floor", "upstairs"), and every floor of every world has such a phrasing."""
    tool = registry.get("iot_devices").tools["list_rooms"]
    assert all("{floor}" not in ask.text for ask in tool.asks)
    floors = {f for world in range(4)
              for (f,) in registry.get("iot_devices").template(world).db.execute("SELECT DISTINCT floor FROM rooms")}
    assert floors <= {ask.binds.get("floor") for ask in tool.asks}


def test_a_cabin_is_warmed_to_a_temperature_people_sit_in() -> None:
    """"Precondition the cabin to 60.5 degrees.": a cabin target is one people set, 68 to 74°F."""
    targets = [call["arguments"]["target_temp"] for ex in _generated("vehicle", 600, 3579) for turn in ex["turns"]
               for call in turn["calls"] if call["name"] == "set_climate" and "target_temp" in call["arguments"]]
    assert targets and all(68 <= t <= 74 for t in targets), targets


def test_a_comment_told_apart_by_its_author_names_them_by_their_handle() -> None:
    """"The comment 'Love this!' from leer, please.": a handle said bare reads as a word; it is said as people
    write one, "from @leer"."""
    server = registry.get("social_media")
    index = _index("social_media")
    say = Phrasing(server, Sampler(server, 0, [0]).context(0), index, Wording(random.Random(0)))
    said = [say.entity("comment", key) for key in index.every["comment"]]
    by_author = [text for text in said if re.search(r"' from \S*[a-z_]\S*$", text)]
    assert by_author and all("' from @" in text for text in by_author), by_author[:5]


def test_a_new_traveller_is_nobody_already_saved() -> None:
    """"Save Nia Bennett, born July 17, 1968, as a traveller." (Nia Bennett, the user's child, is saved already):
    a new traveller's name was drawn from the travellers the world has."""
    added = 0
    for ex in _generated("travel_booking", 500, 9135):
        saved = {(r["first_name"], r["last_name"]) for r in _index("travel_booking", ex["world"]).every["traveler"].values()}
        for call in _calls(ex):
            if call["name"] == "add_traveler":
                added += 1
                assert (call["arguments"]["first_name"], call["arguments"]["last_name"]) not in saved, call
    assert added >= 5
