"""Results read out as a person reads a record aloud (`prove.synth.results`)."""

from __future__ import annotations

import pytest

from prove.synth.phrasing import _one_currency, tidy
from prove.synth.results import counted, describe, field_text


@pytest.mark.parametrize("key, value, words", [
    ("duration_s", 26, "duration 26 seconds"),
    ("straight_line_m", 2770, "straight line 2770 m"),
    ("odometer_mi", 40074, "odometer 40,074 miles"),
    ("storage_used_mb", 3159.0, "storage used 3,159 MB"), ("storage_used_mb", 3333.5, "storage used 3,333.5 MB"),
    ("exp_year", 2028, "exp year 2028"),
    ("stage", "closed_lost", "stage closed lost"),
    ("handle", "charlotte_foster", "@charlotte_foster"),
    ("last_message", "Thursday it is.", "last message 'Thursday it is.'"),
    ("km", 2.77, "2.77 km"),
    ("battery_pct", 39.9, "battery 39.9%"), ("battery", 81, "battery 81%"), ("probability", 10, "probability 10%"),
    ("electric_kwh", 0, None), ("electric_kwh", 3.94, "electric 3.94 kWh"),
    ("rating", 3.6, "rated 3.6"), ("rating", "hot", "rating hot"),
    ("priority", "low", "low priority"), ("priority", "critical", "critical priority"),
    ("condition", "good", "in good condition"), ("condition", "like_new", "like new"),
    ("condition", "for_parts", "for parts"), ("condition", "new", "new"),
    ("relationship", "other", None), ("relationship", "self", None), ("relationship", "partner", "your partner"),
    ("response", "needs_action", "not answered yet"), ("response", "tentative", "tentative"),
    ("avg_cost", 260.14, "average cost $260.14"),
    ("unread_count", 1, "1 unread"), ("unread_count", 0, None),
    ("cuisine", "korean", "cuisine Korean"), ("cuisine", "mediterranean", "cuisine Mediterranean"),
    ("amount", -85.33, "-$85.33"), ("fee", 2.5, "fee $2.50"),
    ("savings", 0, "savings $0.00"),
    ("total", 467.89, "total $467.89"),
    ("total", 3, "3 in all"),
    ("on_clearance", False, None),
    ("mark_read", False, None),
    ("expired", False, "not expired"),
    ("is_private", False, "not private"),
    ("size_text", "8.2 MB", "size 8.2 MB"),
    ("verified", True, "verified"),
    ("has_attachments", False, "no attachments"),
    ("you_follow", False, "you don't follow"),
    ("you_are_host", False, "you're not the host"),
    ("emoji", ":speech_balloon:", "emoji :speech_balloon:"),
    ("status", "under_review", "under review"),
    ("posted_at", "2026-03-13T12:49:00", "posted March 13 at 12:49 PM"),
    ("camera_name", "Backyard Camera", "camera Backyard Camera"),
    ("text", "See you at noon.", "text 'See you at noon.'"),
    ("state", "WA", "state WA"),
    ("place_id", "PLC-10032", None),
    ("order_id", "ORD-10089", "order ORD-10089"),
    ("full_name", "Kenji Shah", None),
    ("pressure_psi", 26.0, "pressure 26 psi"),
    ("price_kwh", 0.25, "price $0.25 per kWh"),
    ("price_level", 2, "price level $$"),
    ("minutes_before", 15, "15 minutes before"), ("minutes_before", 1440, "1 day before"),
    ("minutes_before", 120, "2 hours before"), ("minutes_before", 90, "90 minutes before"),
    ("days_left", 267, "267 days left"),
    ("days_until_due", -9, "9 days overdue"),
    ("days_until_due", 1, "1 day until due"),
    ("version_no", 1, "version 1"),
    ("number_last4", "1568", "ending 1568"),
    ("last4", "9096", "ending 9096"),
    ("available", 104.26, "available $104.26"),
    ("available", 4, "4 available"),
    ("author_name", "Zoe P.", "by Zoe P."),
    ("sender_name", "Ava Shah", "from Ava Shah"),
    ("unrealized_gain_percent", 13.03, "unrealized gain 13.03%"),
])
def test_a_field_is_said_by_its_meaning(key, value, words) -> None:
    assert field_text(key, value) == words


def test_a_record_is_headed_by_its_name_and_repeats_nothing() -> None:
    coupon = {"code": "HOLIDAY10", "status": "expired", "kind": "fixed", "value": 10.0}
    assert describe(coupon) == "HOLIDAY10: expired, kind fixed, value 10."
    contact = {"contact_id": "CON-10071", "full_name": "Kenji Shah", "title": "VP of Engineering"}
    assert describe(contact) == "Kenji Shah: title VP of Engineering."
    assert describe(contact, cite=["CON-10071"]) == "Kenji Shah (CON-10071): title VP of Engineering."


def test_a_line_item_reads_as_people_say_it() -> None:
    from prove.synth.values import human

    items = [{"description": "Additional hour", "quantity": 3.0, "unit_price": 60.0},
             {"description": "Travel fee", "quantity": 1, "unit_price": 25}]
    assert human(items) == "'Additional hour' (3 at $60.00 each) and 'Travel fee' at $25.00"
    from prove.synth.faithful import leaves  # and a quantity of one is not looked for in the request
    assert leaves(items) == ["Additional hour", 3.0, 60.0, "Travel fee", 25]


def test_a_record_that_holds_a_list_reads_out_its_first_items() -> None:
    board = {"place_id": "PLC-1", "name": "Union Square", "departures": [
        {"line": "Bus 46", "departs_at": "2026-03-16T09:05:00"}, {"line": "Blue Line", "departs_at": "2026-03-16T09:08:00"},
        {"line": "Bus 47", "departs_at": "2026-03-16T09:15:00"}, {"line": "Bus 46", "departs_at": "2026-03-16T09:35:00"},
        {"line": "Blue Line", "departs_at": "2026-03-16T09:38:00"}]}
    assert describe(board) == ("Union Square; 5 departures: departs March 16 at 9:05 AM, line Bus 46; departs March 16 "
                               "at 9:08 AM, line Blue Line; departs March 16 at 9:15 AM, line Bus 47; and 2 more.")


def test_one_thing_more_is_read_out_rather_than_counted() -> None:
    """"6 scheduled payments: (five of them); and 1 more" and "4 actions: (three); and 1 more" leave
    out what one more clause would say."""
    board = {"place_id": "PLC-1", "name": "Union Square", "departures": [
        {"line": f"Bus {n}", "departs_at": f"2026-03-16T09:{10 + n}:00"} for n in range(4)]}
    assert "more" not in describe(board) and "line Bus 3" in describe(board)
    listing = {"payments": [{"payment_id": f"P-{n}", "payee": f"Payee {n}", "amount": 10.0 + n} for n in range(6)],
               "total": 6}
    said = describe(listing)
    assert "more" not in said and "Payee 5" in said, said
    listing["payments"].append({"payment_id": "P-6", "payee": "Payee 6", "amount": 16.0})
    listing["total"] = 7
    assert describe(listing).endswith("; and 2 more."), describe(listing)
    assert describe({"name": "Kit", "tags": ["a", "b", "c", "d"]}).count(", ") >= 3


def test_a_cited_entity_named_by_its_record_needs_no_raw_id() -> None:
    account = {"addresses": [{"address_id": "ADDR-1", "label": "Home"}], "name": "Gabriel", "user_id": "U-1"}
    assert "IDs" not in describe(account, cite=["ADDR-1"])
    assert describe({"user_id": "U-1", "name": "Gabriel", "default_card": "PM-9"}, cite=["PM-9"]).endswith("(IDs: PM-9).")


def test_what_a_listing_is_sorted_by_is_said_first() -> None:
    accounts = {"accounts": [{"account_id": "A-1", "name": "Foxglove", "industry": "Software", "type": "customer",
                              "city": "Oslo", "country": "NO", "employees": 5200}]}
    assert "employees 5200" not in describe(accounts)
    assert describe(accounts, stress=["employees"]) == "1 account: Foxglove: 5,200 employees, industry Software, type customer, in Oslo."


def test_what_the_request_asks_about_is_said_first() -> None:
    import random

    from prove.synth.wording import Wording

    held = {"positions": [{"ticker": "MS", "name": "Morgan Stanley", "price": 124.1, "quantity": 28, "available": 28,
                           "market_value": 3474.8, "unrealized_gain": 218.2}]}
    plain = Wording(random.Random(0)).summary(None, held, opener=False)
    asked = Wording(random.Random(0)).summary(None, held, opener=False,
                                              asked="Show my positions in {account_id} with gains and losses.")
    assert plain.startswith("1 position: Morgan Stanley (MS): price $124.10, 28 shares")
    assert asked.startswith("1 position: Morgan Stanley (MS): unrealized gain $218.20")


def test_a_start_with_its_end_reads_as_a_span() -> None:
    slots = {"slots": [{"start": "2026-03-20T16:30:00", "end": "2026-03-20T17:00:00"},
                       {"start": "2026-03-20T23:30:00", "end": "2026-03-21T00:30:00"}]}
    assert describe({"start": "2026-03-15T00:00:00", "end": "2026-03-15T03:34:00"}) == "March 15, 12:00 AM to 3:34 AM."
    assert describe(slots) == ("2 slots: March 20, 4:30 PM to 5:00 PM; "
                               "March 20 at 11:30 PM to March 21 at 12:30 AM.")


def test_a_listing_counts_what_it_found_consistently() -> None:
    orders = [{"order_id": f"ORD-{i}", "status": ("filled", "open")[i % 2]} for i in range(20)]
    page = describe({"orders": orders, "total": 68})
    assert page.startswith("68 orders in all; 5 of them: ORD-0: filled; ORD-1: open;") and "more" not in page
    whole = describe({"orders": orders, "total": 20})
    assert whole.startswith("20 orders: ORD-0: filled;") and whole.endswith("; and 15 more.")
    assert describe({"orders": orders[:5]}, cite=["ORD-19"]).endswith("(IDs: ORD-19).")
    assert describe({"orders": []}) == ""


@pytest.mark.parametrize("n, key, words", [(3, "itinerary", "3 itinerary items"),
                                           (1, "stage_history", "1 stage history entry"),
                                           (1, "bills", "1 bill"), (2, "bills", "2 bills"),
                                           (1, "people", "1 person"), (3, "people", "3 people")])
def test_counts_read_as_plain_nouns(n, key, words) -> None:
    assert counted(n, key) == words


def test_filled_templates_say_money_once_and_agree_in_number() -> None:
    assert _one_currency("Logged $60; -$1,950.58 dollars left.") == "Logged $60; -$1,950.58 left."
    assert _one_currency("Cart: $$12.00 due, $-$5.00 off.") == "Cart: $12.00 due, -$5.00 off."
    assert tidy("1 person are in so far.") == "1 person is in so far."
    assert tidy("1 entries, 1 matches, 1 securities; the 7-in-1 comes in red") == \
        "1 entry, 1 match, 1 security; the 7-in-1 comes in red"
    from prove.synth.phrasing import _sentences
    assert _sentences("added to your Harlem Pizza Co. cart. the subtotal is $9.") == \
        "Added to your Harlem Pizza Co. cart. The subtotal is $9."
    assert tidy("Show me the account 'kenji_ito''s followers.") == "Show me the account kenji_ito's followers."
    quoted = "Don't post the message 'Reminder that the demo is at 2pm, a event.' after all."
    assert tidy(quoted) == quoted  # a quoted label is the user's words, not a slot to mend


def test_long_texts_are_quoted_by_their_opening_and_text_forms_win() -> None:
    note = {"path": "/a.md", "content": "# Retro\n\nDate: 2026-02-27\nWhat went well: " + "the launch " * 20,
            "size": 8202494, "size_text": "8.2 MB"}
    text = describe(note)
    assert "\n" not in text and "…" in text and "size 8.2 MB" in text and "8202494" not in text


def test_a_phrase_may_bind_a_parameter_named_text() -> None:
    from prove.env import Ask

    ask = Ask("Clear the post's caption.", text="")
    assert ask.text == "Clear the post's caption." and ask.binds == {"text": ""}


def test_please_leads_only_a_request() -> None:
    import random

    from prove.synth.wording import Wording

    for seed in range(40):
        joined = Wording(random.Random(seed)).join_requests(["Move the card.", "The deal 'Acme' is signed!"])
        assert "please the deal" not in joined.lower()


def test_a_question_asks_for_what_the_thing_is_known_by() -> None:
    import random

    from prove.synth.wording import Wording

    asked = {Wording(random.Random(s)).question("file", hidden=True, id_word="path") for s in range(10)}
    assert asked and all(q.endswith("the path?") for q in asked)


@pytest.mark.parametrize("key, money", [("cash", True), ("net_worth", True), ("estimated_total", True),
                                        ("max_discount", True), ("seller_proceeds", True), ("amount", True),
                                        ("task_count", False), ("account_balance", True), ("discount_count", False), ("credit_score", False),
                                        ("speed_limit_mph", False), ("total", False), ("points", False),
                                        ("total_lines", False), ("total_charged", True)])
def test_money_is_told_by_the_parts_of_a_name(key, money) -> None:
    from prove.synth.values import is_money

    assert is_money(key) is money


def test_a_range_never_starts_and_ends_on_one_day() -> None:
    from prove.synth.teachers.programmatic import _order_pairs

    args = {"start_date": "2026-01-30", "end_date": "2026-01-30"}
    _order_pairs(args)
    assert args == {"start_date": "2026-01-30", "end_date": "2026-02-06"}
    args = {"start_date": "2026-03-02", "end_date": "2026-01-30"}
    _order_pairs(args)
    assert args == {"start_date": "2026-01-30", "end_date": "2026-03-02"}


def test_a_listing_leaves_out_what_every_item_shares_and_says_few_fields() -> None:
    contacts = {"contacts": [
        {"contact_id": "CON-1", "name": "Abigail James", "title": "Chief Data Officer", "email": "a@c.com",
         "phone": "+1-370", "account_name": "Crescent Media", "do_not_contact": False},
        {"contact_id": "CON-2", "name": "Benjamin Ortiz", "title": "VP of Engineering", "email": "b@c.com",
         "phone": "+1-321", "account_name": "Crescent Media", "do_not_contact": False}]}
    text = describe(contacts)
    assert text == ("2 contacts: Abigail James: title Chief Data Officer, email a@c.com; "
                    "Benjamin Ortiz: title VP of Engineering, email b@c.com.")
    # A single record is not a listing of shared values: its fields are all its own.
    assert "Crescent Media" in describe({"contacts": contacts["contacts"][:1]})


def test_a_listing_says_no_path_that_only_repeats_the_name_unless_a_later_turn_uses_it() -> None:
    entries = {"entries": [{"path": "/Docs/a.pdf", "name": "a.pdf", "size_text": "1 KB"},
                           {"path": "/Docs/b.pdf", "name": "b.pdf", "size_text": "2 KB"}]}
    assert describe(entries) == "2 entries: a.pdf: size 1 KB; b.pdf: size 2 KB."
    assert "/Docs/b.pdf" in describe(entries, cite=["/Docs/b.pdf"])


def test_what_every_item_shares_is_left_out_even_when_the_request_names_it() -> None:
    places = {"places": [{"name": "Home", "saved": True, "category": "home"},
                         {"name": "Shell", "saved": True, "category": "gas_station"}]}
    assert describe(places, stress=["saved"]) == "2 places: Home: category home; Shell: category gas station."


def test_long_durations_are_said_in_minutes_or_hours() -> None:
    assert field_text("duration_seconds", 1680) == "duration 28 minutes"
    assert field_text("duration_s", 26) == "duration 26 seconds"
    assert field_text("duration_seconds", 9000) == "duration 2.5 hours"


def test_a_record_says_no_coordinates_no_repeated_bound_and_no_field_twice() -> None:
    place = {"name": "Copper Parking", "rating": 4.7, "lat": 45.51, "lng": -122.6}
    assert describe(place) == "Copper Parking: rated 4.7."
    product = {"name": "Olaplex", "price": 39.99, "max_price": 39.99}
    assert describe(product) == "Olaplex: price $39.99."
    store = {"name": "Westside", "open_now": True, "open": True, "city": "Olympia"}
    assert describe(store) == "Westside: open now, in Olympia."


def test_a_cut_quoted_title_closes_its_quote() -> None:
    offer = {"summary": "clarkecloset's $60.00 offer on 'Osprey Atmos AG 65 Backpack, Large, Venom Green, with the "
                        "rain cover, both hip belt pockets, the original box, the receipt and two spare buckles'",
             "status": "pending"}
    text = describe(offer)
    assert text.startswith("clarkecloset's $60.00 offer on 'Osprey Atmos AG 65 Backpack, Large") and "…': pending" in text


def test_an_entry_is_headed_by_what_it_holds_and_an_empty_answer_says_nothing() -> None:
    saved = {"list_id": "LST-1", "name": "Visiting family", "places": [
        {"place": {"place_id": "PLC-1", "name": "Blue Bottle Coffee"}, "note": "go early", "added_at": "2026-01-30T09:00:00"},
        {"place": {"place_id": "PLC-2", "name": "Harbor Plaza"}, "note": "book ahead", "added_at": "2025-12-30T09:00:00"}]}
    text = describe(saved)
    assert "Blue Bottle Coffee: note 'go early'" in text and "Harbor Plaza" in text
    assert describe({"place_id": "PLC-9", "after": "2026-03-16T09:00:00", "departures": []}) == ""


def test_coordinates_are_said_when_the_request_asks_for_them() -> None:
    matches = {"matches": [{"address": "320 Washington Avenue, Portland, OR", "lat": 45.5, "lng": -122.6},
                           {"address": "320 Washington Avenue, Seattle, WA", "lat": 47.6, "lng": -122.3}]}
    assert "lat" not in describe(matches)
    assert "lat 45.5" in describe(matches, stress=["coordinates"])


def test_a_list_of_internal_ids_is_not_read_out() -> None:
    assert field_text("automations", ["AUT-10002"]) is None
    assert field_text("tags", ["budget", "family"]) == "tags budget, family"


def test_a_record_with_a_list_says_neither_its_query_nor_what_its_items_share() -> None:
    departures = {"place_id": "PLC-1", "after": "2026-03-19T09:30:00", "departures": [
        {"line": "Bus 60", "departs_at": "2026-03-19T09:36:00"}, {"line": "Bus 61", "departs_at": "2026-03-19T09:40:00"}]}
    assert describe(departures).startswith("2 departures: departs March 19 at 9:36 AM")
    place = {"place_id": "PLC-1", "name": "The Riverside Bee", "rating": 3.8, "reviews": [
        {"place_name": "The Riverside Bee", "rating": 3, "body": "Decent"},
        {"place_name": "The Riverside Bee", "rating": 5, "body": "Great"}]}
    assert describe(place) == "The Riverside Bee: rated 3.8; 2 reviews: 'Decent': 3 stars; 'Great': 5 stars."
    reviews = {"place_id": "PLC-1", "rating": 3.8, "reviews": [  # a place's reviews, asked for by its name
        {"place_id": "PLC-1", "place_name": "The Riverside Bee", "rating": 3, "body": "Decent"},
        {"place_id": "PLC-1", "place_name": "The Riverside Bee", "rating": 5, "body": "Great"}]}
    assert "all 'The Riverside Bee'" not in describe(reviews)


def test_a_bare_time_and_a_title_field_read_as_people_say_them() -> None:
    assert describe({"activities": [{"at": "2026-03-16T06:00:00", "path": "/a/b.md"},
                                    {"at": "2026-03-15T06:00:00", "path": "/a/c.md"}]}).startswith(
        "2 activities: March 16 at 6:00 AM, path /a/b.md")
    assert describe({"reminders": [{"event_title": "Stand-up", "event_start": "2026-03-19T09:30:00"},
                                   {"event_title": "Sync", "event_start": "2026-03-20T09:30:00"}]}).startswith(
        "2 reminders: Stand-up: event start March 19")


def test_the_users_own_answer_and_a_fare_difference_read_as_people_say_them() -> None:
    assert field_text("my_response", "organizer") == "you organize it"
    assert field_text("my_response", "needs_action") == "you haven't answered"
    assert field_text("fare_difference", 29.24) == "fare difference $29.24"


def test_a_nameless_part_is_headed_by_its_position_or_path_and_zero_counts_go_unsaid() -> None:
    tires = {"tires": [{"position": "front_left", "pressure_psi": 26.0, "status": "low"},
                       {"position": "rear_left", "pressure_psi": 36.0, "status": "ok"}]}
    assert describe(tires) == "2 tires: front left: low, pressure 26 psi; rear left: ok, pressure 36 psi."
    members = {"path": "/a.zip", "members": [{"member_path": "2024/W-2.pdf", "kind": "file", "size": 3},
                                             {"member_path": "2024", "kind": "folder", "size": 0}]}
    assert describe(members) == "2 members: 2024/W-2.pdf: file, size 3; 2024: folder."
    reply = {"replies": [{"message_id": "CM-1", "text": "+1", "reply_count": 0, "user_name": "Carlos Reyes"}]}
    assert describe(reply, stress=["reply"]) == "1 reply: '+1': by Carlos Reyes."


def test_a_record_says_first_what_the_question_asks_of_it() -> None:
    home = {"name": "Bridge Road House", "owner_name": "Daniel Kowalski", "address": "1551 Meadow Lane",
            "timezone": "America/New_York", "mode": "home", "electricity_rate": 0.23, "rooms": 11,
            "devices_offline": 4, "unlocked_doors": 1}
    text = describe(home, stress=["anything", "offline", "unlocked"])
    assert text.startswith("Bridge Road House: 4 devices offline, 1 unlocked door")


def test_a_reply_agrees_with_a_plural_name_and_says_no_empty_list_as_none() -> None:
    from prove.synth.phrasing import _agree
    assert _agree("The Office Blinds is open; the Deck Lights has power.") == \
        "The Office Blinds are open; the Deck Lights have power."
    assert _agree("host Ana; none invitees; with none people invited; none this week") == \
        "host Ana; no invitees; with nobody invited; none this week"
    assert _one_currency("worth $62,749.7 ($5,169.07 in cash), paid $12") == \
        "worth $62,749.70 ($5,169.07 in cash), paid $12"


def test_a_listing_says_the_whole_figure_asked_for_and_an_id_asked_for() -> None:
    trips = {"trips": [{"trip_id": "TRP-1", "from_name": "Gym", "to_name": "Home", "distance_mi": 6.3}],
             "total": 60, "total_distance_mi": 312.44, "total_fuel_gal": 3.1}
    text = describe(trips, stress=["many", "miles", "drive"])
    assert text.startswith("60 trips in all (total distance 312.44 miles); 1 of them:") and "fuel" not in text
    people = {"people": [{"person_id": "PER-10016", "name": "Emma Walker", "email": "e@x.com"}], "total": 1}
    assert "PER-10016" in describe(people, stress=["person", "id"]) and "PER-10016" not in describe(people)


def test_a_name_every_item_shares_is_said_once_with_the_count() -> None:
    motion = {"activities": [{"activity_id": "A1", "occurred_at": "2026-03-14T20:49:00", "message": "Motion in Living Room"},
                             {"activity_id": "A2", "occurred_at": "2026-03-14T15:46:00", "message": "Motion in Living Room"}]}
    assert describe(motion) == "2 activities (all called 'Motion in Living Room'): occurred March 14 at 8:49 PM; " \
        "occurred March 14 at 3:46 PM."
    assert field_text("charge_limit", 90) == "charge limit 90%"


def test_items_that_share_their_name_are_not_headed_by_another_name() -> None:
    events = {"events": [
        {"event_id": "E1", "title": "Retro", "start": "2026-03-24T11:00:00", "end": "2026-03-24T12:00:00",
         "organizer_name": "Yara Mitchell"},
        {"event_id": "E2", "title": "Retro", "start": "2026-03-26T16:00:00", "end": "2026-03-26T16:45:00",
         "organizer_name": "Alexander Price"}]}
    assert describe(events) == "2 events (all called 'Retro'): March 24, 11:00 AM to 12:00 PM, organizer Yara Mitchell; " \
        "March 26, 4:00 PM to 4:45 PM, organizer Alexander Price."


def test_a_budget_gone_over_reads_over_by() -> None:
    from prove.synth.phrasing import _agree
    assert _agree("Pets has $111.53 spent of $90.00 budgeted, leaving -$21.53.") == \
        "Pets has $111.53 spent of $90.00 budgeted, over by $21.53."


def test_a_time_span_within_one_day_says_the_day_once() -> None:
    assert tidy("Set up a call from March 20 at 1:00 PM to March 20 at 2:00 PM.") == \
        "Set up a call on March 20 from 1:00 PM to 2:00 PM."
    assert tidy("Between April 2, 2027 at 9:30 AM and April 2, 2027 at 11:00 AM, who is free?") == \
        "On April 2, 2027 between 9:30 AM and 11:00 AM, who is free?"
    two_days = "How many times does it meet between March 17 at 9:30 AM and March 18 at 1:00 PM?"
    assert tidy(two_days) == two_days
    from prove.synth.phrasing import full_spans  # and the faithfulness check reads both ends in full
    assert full_spans("Set up a call on March 20 from 1:00 PM to 2:00 PM.") == \
        "Set up a call from March 20 at 1:00 PM to March 20 at 2:00 PM."


def test_a_figure_and_its_percent_are_said_together() -> None:
    """"unrealized gain $27.08, unrealized gain 0.9%" says one thing twice."""
    from prove.synth.results import record_text

    text = record_text({"ticker": "AMZN", "name": "Amazon.com, Inc.", "unrealized_gain": 27.08,
                        "unrealized_gain_percent": 0.9, "price": 234.28}, stress=["gain"])
    assert "unrealized gain $27.08 (0.9%)" in text and text.count("unrealized gain") == 1


def test_a_summary_written_to_be_read_out_is_said_whole_and_its_amount_once() -> None:
    """"acastillo64's $48.00 offer on 'Nintendo Game Boy Color…': amount $48.00"."""
    offer = {"offer_id": "OFR-10005", "summary": "acastillo64's $48.00 offer on 'Nintendo Game Boy Color Teal' "
             "(asking $80.00)", "amount": 48.0, "status": "pending", "created_at": "2026-03-16T03:01:00"}
    text = describe({"offers": [offer, {**offer, "offer_id": "OFR-10006", "amount": 53.0,
                                        "summary": offer["summary"].replace("48", "53")}], "total": 2})
    assert "'Nintendo Game Boy Color Teal' (asking $80.00)" in text and "amount $" not in text


def test_how_many_each_holds_is_counted_first() -> None:
    """"Which watchlists do I have, and how many tickers are on each?" is answered per list."""
    lists = {"watchlists": [{"watchlist_id": "WL-1", "name": "Tech", "items": [{"ticker": "AAPL"}, {"ticker": "MSFT"}],
                             "created_at": "2026-01-02T09:00:00"},
                            {"watchlist_id": "WL-2", "name": "Energy", "items": [{"ticker": "XOM"}],
                             "created_at": "2026-01-05T09:00:00"}], "total": 2}
    assert "Tech: 2 items" in describe(lists, stress=["count"]) and "Energy: 1 item" in describe(lists, stress=["count"])
    assert "items" not in describe(lists)


def test_what_a_record_holds_is_counted_once() -> None:
    """"Growth Watch: count 6, 6 items" says one number twice."""
    lists = {"watchlists": [{"watchlist_id": "WL-1", "name": "Growth Watch", "count": 2,
                             "items": [{"ticker": "AAPL"}, {"ticker": "MSFT"}]},
                            {"watchlist_id": "WL-2", "name": "Energy", "count": 1, "items": [{"ticker": "XOM"}]}],
             "total": 2}
    text = describe(lists, stress=["count"])
    assert "count 2" in text and "2 items" not in text


def test_a_heading_cut_short_is_quoted() -> None:
    """"@adam.castillo updated the Aurora tracker, three items are…: pinned" reads as a broken
    sentence; a cut heading is a quotation: "'@adam.castillo updated the ... three items are…': pinned"."""
    from prove.synth.results import record_text

    text = record_text({"message_id": "CM-1", "text": "@adam.castillo updated the Aurora tracker, three items are "
                        "still open and two are blocked on review.", "pinned": True, "reply_count": 4})
    assert text.startswith("'@adam.castillo updated the Aurora tracker, three items are…': "), text
    assert record_text({"issue_id": "WEB-1", "title": "Login fails", "status": "open"}).startswith("Login fails: open")


def test_a_quoted_sentence_at_the_end_is_not_given_a_second_stop() -> None:
    dispute = {"merchant": "Olive Garden", "status": "under_review",
               "details": "I was charged twice for the same purchase a few minutes apart."}
    text = describe(dispute)
    assert text.endswith("apart.'"), text
    assert not text.endswith(".'.")


def test_counts_places_and_handles_read_as_people_say_them() -> None:
    user = {"user_id": "USR-1", "display_name": "Amelia Jackson", "username": "@amelia-jackson", "kind": "person",
            "city": "Minneapolis", "is_contact": True, "contact_since": "2026-01-03"}
    assert describe(user) == "Amelia Jackson: @amelia-jackson, in Minneapolis, a contact since January 3."
    folders = {"folders": [{"folder_id": "inbox", "name": "Inbox", "kind": "system", "total": 51, "unread": 9},
                           {"folder_id": "archive", "name": "Archive", "kind": "system", "total": 45, "unread": 0}]}
    assert describe(folders) == "2 folders: Inbox: 51 in all, 9 unread; Archive: 45 in all."
    room = {"name": "Kitchen", "devices": 8, "devices_offline": 0, "seats_left": 3}
    assert describe(room) == "Kitchen: 8 devices, no devices offline, 3 seats left."


def test_a_count_every_item_shares_is_said_once_when_asked() -> None:
    lists = {"watchlists": [{"name": name, "items": [{"ticker": t} for t in "ABCDE"], "count": 5}
                            for name in ("Growth Watch", "Big Tech")]}
    assert describe(lists, stress=["count"]).startswith("2 watchlists (5 items each): Growth Watch")
    assert "each" not in describe(lists)


def test_a_promotion_summed_up_in_words_reads_no_value_field() -> None:
    promo = {"code": "LATENIGHT", "summary": "$4 off orders of $18 or more", "valid_until": "2026-06-30",
             "kind": "fixed", "value": 4.0, "min_subtotal": 18.0}
    free = {**promo, "code": "FREEDEL", "summary": "Free delivery on orders of $15 or more", "kind": "free_delivery",
            "value": 0.0}
    assert "value" not in describe({"promotions": [promo, free]})


def test_a_handle_comes_first_and_a_store_is_said_with_its_preposition() -> None:
    followers = {"accounts": [{"display_name": "Sofia Hall", "you_follow": False, "handle": "halls"},
                              {"display_name": "Olivia Nguyen", "you_follow": True, "handle": "olivia_nguyen"}]}
    assert describe(followers) == "2 accounts: Sofia Hall: @halls; Olivia Nguyen: @olivia_nguyen, you follow."
    transfer = {"product_name": "25 ft Tape Measure", "status": "in_transit", "from_store_name": "Capitol Hill"}
    assert describe(transfer) == "25 ft Tape Measure: in transit, from Capitol Hill."


def test_a_record_s_one_item_does_not_say_the_record_again() -> None:
    """"Rating 4.7, 612 ratings; 1 review: 'Best latte in the neighborhood.': rating 5, ..., place
    Copper Coffee": the review is the place's own, which the request named."""
    place = {"place_id": "PLC-1", "rating": 4.7, "rating_count": 612, "reviews": [
        {"review_id": "REV-1", "place_id": "PLC-1", "place_name": "Copper Coffee", "author": "Ryan W.", "rating": 5,
         "text": "Best latte in the neighborhood."}]}
    said = describe(place)
    assert "Copper Coffee" not in said and "'Best latte in the neighborhood.': 5 stars" in said, said


def test_a_listed_item_does_not_say_again_what_the_call_was_given() -> None:
    """"1 comment: Javier Rossi: '...', created March 14 at 1:53 PM, issue PAY-10019" of the comments
    on issue PAY-10019: one item shares nothing with others, but it shares the call's own ID."""
    comments = {"comments": [{"comment_id": "CMT-1", "issue_id": "PAY-10019", "author_name": "Javier Rossi",
                              "body": "Paired on this today, about halfway there."}], "total": 1}
    assert "PAY-10019" in describe(comments)
    said = describe(comments, given=["PAY-10019", "newest"])
    assert "PAY-10019" not in said and "Javier Rossi" in said, said


def test_a_search_over_several_kinds_counts_each_kind() -> None:
    """"3 accounts in all; 1 of them: Blue Harbor Financial" read the search's total (1 account and
    2 deals) as the accounts' and left the deals out."""
    found = {"accounts": [{"account_id": "ACC-7", "name": "Blue Harbor Financial", "industry": "Financial Services"}],
             "contacts": [], "deals": [{"deal_id": "DEAL-13", "name": "Blue Harbor - Platform", "amount": 164000.0},
                                       {"deal_id": "DEAL-14", "name": "Blue Harbor - Support", "amount": 180000.0}],
             "total": 3}
    said = describe(found)
    assert said.startswith("1 account: Blue Harbor Financial") and "2 deals: Blue Harbor - Platform" in said, said
    assert "in all" not in said and ".;" not in said and said.endswith("$180,000.00."), said


def test_one_item_is_not_said_to_share_a_name_with_the_others() -> None:
    """"1 statement (all 'Shopping Rewards Visa')": a lone item has no others to share with."""
    statements = {"statements": [{"statement_id": "STM-1", "account_id": "ACC-5", "account_name": "Shopping Rewards Visa",
                                  "amount": 20.0, "period": "2025-11"}]}
    said = describe(statements, given=["ACC-5"])
    assert "all '" not in said and " each" not in said, said


def test_a_text_that_quotes_a_name_is_not_quoted_inside_single_quotes() -> None:
    """"'Garage Side Door Lock unlocked with the code 'Family'': occurred ...": a line that quotes a
    name itself is set off with double quotes, so no quote closes another."""
    log = {"events": [{"message": "Garage Side Door Lock unlocked with the code 'Family'", "occurred_at": "2026-03-13T11:46:00"},
                      {"message": "Front Door Lock locked", "occurred_at": "2026-03-13T11:40:00"}]}
    said = describe(log)
    assert "''" not in said, said
    assert "\"Garage Side Door Lock unlocked with the code 'Family'\": occurred March 13 at 11:46 AM" in said, said
    assert "'Front Door Lock locked': occurred" in said, said


@pytest.mark.parametrize("key, name, said", [
    ("author_name", "Amara Williams", "3 comments (all by Amara Williams)"),
    ("merchant", "Target", "3 transactions (all at Target)"),
    ("counterparty_name", "Rosa Wang", "3 payments (all with Rosa Wang)"),
    ("listing_title", "Vintage Omega Seamaster", "3 messages (all about 'Vintage Omega Seamaster')"),
    ("position", "aisle", "3 seats (all aisle)"),
    ("name", "Jade Garden", "3 places (all called 'Jade Garden')"),
])
def test_a_name_every_item_shares_is_said_by_what_it_is_to_them(key, name, said) -> None:
    """"3 comments (all 'Amara Williams')", "2 transactions (all 'Target')": the name every item
    shares is said as what it is to them: who wrote them, where they were paid, what they are about."""
    kind = said.split()[1]
    items = [{f"{kind[:-1]}_id": f"X-{i}", key: name, "created_at": f"2026-03-1{i}T10:00:00", "note": f"n{i}"}
             for i in range(3)]
    assert describe({kind: items}).startswith(said + ": "), describe({kind: items})


def test_a_summary_that_says_an_amount_is_not_followed_by_it_again() -> None:
    """"Free delivery on orders of $15 or more: code FREEDEL, ..., min subtotal $15.00": the summary
    says the amount already."""
    promos = {"promotions": [
        {"code": "FREEDEL", "summary": "Free delivery on orders of $15 or more", "valid_until": "2026-04-10",
         "min_subtotal": 15.0},
        {"code": "INDIAN20", "summary": "20% off Indian food (up to $15, min $30)", "valid_until": "2026-03-31",
         "min_subtotal": 30.0, "max_discount": 15.0},
        {"code": "TAKE8", "summary": "$8 off at Umami House", "valid_until": "2026-04-15", "min_subtotal": 35.0}]}
    said = describe(promos, stress=["promo"])
    assert "min subtotal $15.00" not in said and "min subtotal $30.00" not in said and "max discount" not in said, said
    assert "min subtotal $35.00" in said, said


def test_a_lead_time_in_whole_hours_or_days_is_said_in_them() -> None:
    """"an email 1440 minutes before it starts": a reminder a day ahead is "a day before"."""
    from prove.synth.phrasing import whole_units
    assert whole_units("a email 1440 minutes before it starts") == "a email 1 day before it starts"
    assert whole_units("I'll remind you 120 minutes before 'Retro'") == "I'll remind you 2 hours before 'Retro'"
    assert whole_units("2880 minutes ahead and 60 minutes early") == "2 days ahead and 1 hour early"
    assert whole_units("45 minutes before") == "45 minutes before"


def test_a_listing_about_one_thing_that_found_nothing_says_nothing_of_its_own() -> None:
    """"I found the following: Silver Olive: after March 16 at 9:00 AM." for no departures near a
    place: a listing about one thing that found nothing is left to say that nothing came up."""
    departures = {"place_id": "PLC-10190", "place_name": "Silver Olive", "after": "2026-03-16T09:00:00",
                  "departures": [], "total": 0}
    assert describe(departures) == ""
    untagged = {"path": "/Desktop/notes.txt", "name": "notes.txt", "tags": []}
    assert describe(untagged).startswith("notes.txt")


def test_a_listing_opens_with_what_was_found_not_a_heading_before_its_count() -> None:
    """"I found the following: 32 events: ..." reads as two headings; a count is what was found."""
    import random

    from prove.synth.wording import Wording

    data = {"events": [{"event_id": f"EVT-1000{i}", "title": t} for i, t in enumerate(("Stand-up", "Retro"))],
            "total": 2}
    said = {Wording(random.Random(seed)).summary(None, data) for seed in range(12)}
    assert said and all(s.startswith(("I found 2 events: ", "There are 2 events: ")) for s in said), said
    one = {Wording(random.Random(seed)).summary(None, {"events": data["events"][:1], "total": 1}) for seed in range(12)}
    assert all(s.startswith("I found 1 event: ") for s in one), one
    record = {Wording(random.Random(seed)).summary(None, {"event_id": "EVT-10001", "title": "Stand-up",
                                                          "location": "Room 4C"}) for seed in range(12)}
    assert all(not s[0].isdigit() and ":" in s for s in record), record


def test_a_large_sum_in_a_request_is_written_with_its_thousands_marked() -> None:
    """"deals worth at least $100000" -> "$100,000", as people write it; a quoted text stays as it is."""
    assert tidy("Which deals are worth at least $100000?") == "Which deals are worth at least $100,000?"
    assert tidy("Change the amount to $38500.50.") == "Change the amount to $38,500.50."
    assert tidy("Put $1500 into savings.") == "Put $1500 into savings."
    assert tidy("Post 'Raised $25000 today!' for me.") == "Post 'Raised $25000 today!' for me."


def test_a_text_written_to_be_read_out_is_said_as_it_is() -> None:
    """A `*_text` field is the tool's own words for a part of its result: "amount text '$40.00 came in
    from Alex'" read its key aloud; a text someone wrote (a review's) stays quoted."""
    assert field_text("amount_text", "$40.00 came in from Alex on March 16") == "$40.00 came in from Alex on March 16"
    assert field_text("size_text", "8.2 MB") == "size 8.2 MB"
    assert field_text("review_text", "Great little place, will be back") == "review text 'Great little place, will be back'"


def test_a_count_in_a_reply_marks_its_thousands() -> None:
    """"Minneapolis Running Club (@minneapolisrunning) has 8163 followers": a count is marked from four
    digits, as points are; a year is not."""
    from prove.synth.results import number

    assert number(8163, "result.followers_count") == "8,163"
    assert number(3033, "result.points") == "3,033"
    assert number(2028, "result.exp_year") == "2028"
