"""Behaviour tests of the calendar server: its main flows and failures on world 0.

Tests find the entities they need through the tools themselves (the user's 'Work' calendar, a
teammate, a pending invitation), so they do not depend on the exact IDs a world happens to hold.
The clock starts at the epoch, Monday 2026-03-16 09:00.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from prove.env import Session, registry

from .helpers import fails, ok, replies_for, session_fixture

WORLD = 0


s = session_fixture("calendar")


# ----- finding things in the world through the tools --------------------------------------------------

def calendars(s: Session) -> dict[str, dict]:
    return {c["name"]: c for c in ok(s, "list_calendars")["calendars"]}


def work(s: Session) -> dict:
    return calendars(s)["Work"]


def me(s: Session) -> str:
    return work(s)["owner_id"]


def team_calendar(s: Session) -> dict:
    return next(c for c in calendars(s).values() if c["access"] == "read")


def directory(s: Session) -> list[dict]:
    return ok(s, "search_people", {"query": "@", "limit": 100})["people"]


def colleagues(s: Session, n: int) -> list[str]:
    mine = me(s)
    return [p["person_id"] for p in directory(s) if p["is_colleague"] and p["person_id"] != mine][:n]


def external(s: Session) -> str:
    return next(p["person_id"] for p in directory(s) if not p["is_colleague"])


def free_slot(s: Session, minutes: int = 60, people: list[str] | None = None,
              start: str = "2026-03-23T00:00:00", end: str = "2026-03-28T00:00:00") -> dict:
    """A slot when the user (and `people`) are free, from find_free_slots."""
    data = ok(s, "find_free_slots", {"people": people or colleagues(s, 1), "duration_minutes": minutes,
                                     "start": start, "end": end})
    assert data["slots"], "world 0 should leave the user some free time"
    return data["slots"][0]


def my_busy(s: Session, start: str, end: str, person: str | None = None) -> list[tuple[str, str]]:
    data = ok(s, "get_free_busy", {"person_id": person or me(s), "start": start, "end": end})
    return [(b["start"], b["end"]) for b in data["busy"]]


def length(event: dict) -> timedelta:
    return datetime.fromisoformat(event["end"]) - datetime.fromisoformat(event["start"])


def covered(busy: list[tuple[str, str]], start: str, end: str) -> bool:
    return any(b <= start and e >= end for b, e in busy)


def new_event(s: Session, **extra: Any) -> dict:
    slot = free_slot(s)
    args = {"calendar_id": work(s)["calendar_id"], "title": "Pricing workshop", "start": slot["start"],
            "end": slot["end"], **extra}
    return ok(s, "create_event", args)


def invited_event(s: Session) -> dict:
    """An upcoming event someone else organizes and the user is invited to."""
    inv = ok(s, "list_invitations")["invitations"][0]
    return ok(s, "get_event", {"event_id": inv["event_id"]})


# ----- the world --------------------------------------------------------------------------------------

def test_world_has_the_described_shape():
    template = registry.get("calendar").template(WORLD)
    counts = {t: template.db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in template.tables}
    assert 30 <= counts["people"] - 1 <= 80
    assert 200 <= counts["events"] <= 600
    assert counts["series"] >= 4 and counts["reminders"] >= 10 and counts["busy_blocks"] >= 100
    assert template.size < 250_000


def test_user_has_own_and_shared_calendars(s):
    cals = calendars(s)
    assert cals["Work"]["access"] == "owner" and cals["Work"]["is_primary"]
    assert cals["Personal"]["access"] == "owner"
    team = team_calendar(s)
    assert team["owner_id"] != me(s)
    assert team["shared_with"] == []  # details of others' shares are not shown
    assert 3 <= len(cals) <= 5


def test_every_visible_tool_is_documented_for_the_teacher():
    tools = registry.get("calendar").visible_tools
    assert len(tools) >= 17
    for tool in tools:
        assert len(tool.asks) >= 2, tool.name
        assert tool.errors or tool.name in {"list_calendars", "search_people", "list_invitations"}, tool.name


def test_read_tools_do_not_change_state(s):
    before = s.fingerprint()
    ev = invited_event(s)
    ok(s, "list_calendars")
    ok(s, "search_people", {"query": "a"})
    ok(s, "list_events", {"start": "2026-03-16", "end": "2026-03-23"})
    ok(s, "search_events", {"query": "sync"})
    ok(s, "get_event", {"event_id": ev["event_id"]})
    ok(s, "list_invitations", {"response": "accepted"})
    ok(s, "get_free_busy", {"person_id": colleagues(s, 1)[0], "start": "2026-03-16", "end": "2026-03-20"})
    ok(s, "find_free_slots",
       {"people": colleagues(s, 2), "duration_minutes": 30, "start": "2026-03-16", "end": "2026-03-20"})
    ok(s, "list_reminders")
    series_id = next(e["series_id"] for e in ok(s, "list_events",
                                                {"start": "2026-03-16", "end": "2026-03-23"})["events"]
                     if e["series_id"])
    ok(s, "list_occurrences", {"series_id": series_id})
    assert s.fingerprint() == before
    assert not s.diff()


# ----- people --------------------------------------------------------------------------------------------

def test_search_people_by_name_and_email(s):
    person = directory(s)[5]
    first = person["name"].split()[0]
    by_name = ok(s, "search_people", {"query": first.upper()})
    assert person["person_id"] in [p["person_id"] for p in by_name["people"]]
    by_email = ok(s, "search_people", {"query": person["email"]})
    assert [p["person_id"] for p in by_email["people"]] == [person["person_id"]]
    assert by_email["total"] == 1


def test_search_people_with_odd_text(s):
    for query in ("'; DROP TABLE people; --", "%", "_", "zzzzqqq"):
        assert ok(s, "search_people", {"query": query}) == {"people": [], "total": 0, "people_text": "nobody",
                                                            "emails_text": "nobody"}
    fails(s, "search_people", "invalid_arguments", {"query": "   "})


# ----- calendars -----------------------------------------------------------------------------------------

def test_create_calendar_and_share_it(s):
    cal = ok(s, "create_calendar", {"name": "Book club", "description": "Monthly meetups"})
    assert cal["access"] == "owner" and cal["shared_with"] == [] and not cal["is_primary"]
    assert "Book club" in calendars(s)
    fails(s, "create_calendar", "duplicate_name", {"name": "book CLUB"})

    friend = colleagues(s, 1)[0]
    share = ok(s, "share_calendar", {"calendar_id": cal["calendar_id"], "person_id": friend, "permission": "read"})
    assert share["permission"] == "read" and share["previous_permission"] is None
    share = ok(s, "share_calendar", {"calendar_id": cal["calendar_id"], "person_id": friend, "permission": "write"})
    assert share["previous_permission"] == "read"
    shared = calendars(s)["Book club"]["shared_with"]
    assert [(x["person_id"], x["permission"]) for x in shared] == [(friend, "write")]


def test_share_calendar_failures(s):
    team = team_calendar(s)
    someone = colleagues(s, 1)[0]
    fails(s, "share_calendar", "not_owner",
          {"calendar_id": team["calendar_id"], "person_id": someone, "permission": "read"})
    fails(s, "share_calendar", "already_owner", {"calendar_id": work(s)["calendar_id"], "person_id": me(s),
                                                 "permission": "read"})
    fails(s, "share_calendar", "not_found", {"calendar_id": "CAL-99999", "person_id": someone, "permission": "read"})
    fails(s, "share_calendar", "not_found", {"calendar_id": work(s)["calendar_id"], "person_id": "PER-99999",
                                             "permission": "read"})
    fails(s, "share_calendar", "invalid_arguments", {"calendar_id": work(s)["calendar_id"], "person_id": someone,
                                                     "permission": "admin"})


# ----- events --------------------------------------------------------------------------------------------

def test_created_event_shows_everywhere(s):
    guest = colleagues(s, 1)[0]
    slot = free_slot(s, people=[guest])
    ev = ok(s, "create_event",
            {"calendar_id": work(s)["calendar_id"], "title": "Pricing workshop", "start": slot["start"],
                                "end": slot["end"], "attendees": [guest, me(s)], "location": "Zoom",
                                "description": "Decide tiers"})
    assert ev["event_id"].startswith("EVT-") and ev["my_response"] == "organizer"
    assert [(a["person_id"], a["response"]) for a in ev["attendees"]] == [(guest, "needs_action")]

    day = slot["start"][:10]
    listed = ok(s, "list_events", {"start": day, "end": day + "T23:59:59"})["events"]
    assert ev["event_id"] in [e["event_id"] for e in listed]
    assert ok(s, "get_event", {"event_id": ev["event_id"]})["description"] == "Decide tiers"
    found = ok(s, "search_events", {"query": "PRICING", "attendee_id": guest})["events"]
    assert [e["event_id"] for e in found] == [ev["event_id"]]
    assert covered(my_busy(s, day, day + "T23:59:59"), slot["start"], slot["end"])
    assert covered(my_busy(s, day, day + "T23:59:59", guest), slot["start"], slot["end"])
    assert s.diff().tables() == {"calendar.events": {"insert": 1, "update": 0, "delete": 0},
                                 "calendar.invitations": {"insert": 1, "update": 0, "delete": 0}}


def test_double_booking_is_refused_unless_allowed(s):
    ev = new_event(s)
    half = {"start": ev["start"], "end": ev["end"]}
    err = fails(s, "create_event", "double_booking", {"calendar_id": work(s)["calendar_id"], "title": "Clash", **half})
    assert ev["event_id"] in err["message"]
    # The personal calendar shares the same person's time.
    personal = calendars(s)["Personal"]["calendar_id"]
    fails(s, "create_event", "double_booking", {"calendar_id": personal, "title": "Dentist", **half})
    both = ok(s, "create_event", {"calendar_id": personal, "title": "Dentist", "allow_overlap": True, **half})
    assert both["status"] == "confirmed"


def test_event_time_validation(s):
    cal = work(s)["calendar_id"]
    fails(s, "create_event", "past_date", {"calendar_id": cal, "title": "Late", "start": "2026-03-16T08:00:00",
                                           "end": "2026-03-16T08:30:00"})
    fails(s, "create_event", "end_before_start",
          {"calendar_id": cal, "title": "Backwards", "start": "2026-03-20T11:00:00",
                                                  "end": "2026-03-20T10:00:00"})
    fails(s, "create_event", "end_before_start", {"calendar_id": cal, "title": "Empty", "start": "2026-03-20T11:00:00",
                                                  "end": "2026-03-20T11:00:00"})
    for bad in ("next tuesday", "2026-02-30T10:00:00", "2026-03-20T10:00:00Z", "9999-12-31T10:00:00", ""):
        fails(s, "create_event", "invalid_time",
              {"calendar_id": cal, "title": "Odd", "start": bad, "end": "2026-03-20T12:00:00"})
    fails(s, "create_event", "invalid_arguments", {"calendar_id": cal, "title": "  ", "start": "2026-03-20T11:00:00",
                                                   "end": "2026-03-20T12:00:00"})


def test_calendar_permissions_for_new_events(s):
    slot = free_slot(s)
    fails(s, "create_event", "read_only_calendar", {"calendar_id": team_calendar(s)["calendar_id"], "title": "Mine",
                                                    "start": slot["start"], "end": slot["end"]})
    organizer_cal = invited_event(s)["calendar_id"]  # a colleague's primary calendar, not shared
    fails(s, "create_event", "no_access", {"calendar_id": organizer_cal, "title": "Mine", "start": slot["start"],
                                           "end": slot["end"]})
    fails(s, "create_event", "not_found",
          {"calendar_id": "CAL-1", "title": "Mine", "start": slot["start"], "end": slot["end"]})
    fails(s, "create_event", "not_found",
          {"calendar_id": work(s)["calendar_id"], "title": "Mine", "start": slot["start"],
                                           "end": slot["end"], "attendees": ["PER-99999"]})
    panel = calendars(s).get("Interview Panel")
    if panel:  # shared with the user for writing in this world
        assert panel["access"] == "write"
        ev = ok(s, "create_event", {"calendar_id": panel["calendar_id"], "title": "Interview: debrief",
                                    "start": slot["start"], "end": slot["end"]})
        assert ev["calendar_id"] == panel["calendar_id"] and ev["my_response"] == "organizer"


def test_list_events_filters(s):
    week = {"start": "2026-03-16T00:00:00", "end": "2026-03-23T00:00:00"}
    events = ok(s, "list_events", {**week, "limit": 100})
    assert events["total"] >= 5
    starts = [e["start"] for e in events["events"]]
    assert starts == sorted(starts)
    assert all(e["status"] == "confirmed" for e in events["events"])
    team = team_calendar(s)["calendar_id"]
    only_team = ok(s, "list_events", {**week, "calendar_id": team})["events"]
    assert only_team and all(e["calendar_id"] == team for e in only_team)
    assert ok(s, "list_events", {**week, "limit": 2})["events"] == events["events"][:2]
    fails(s, "list_events", "no_access", {**week, "calendar_id": invited_event(s)["calendar_id"]})
    fails(s, "list_events", "end_before_start", {"start": week["end"], "end": week["start"]})


def test_update_event(s):
    ev = new_event(s, location="Room 1", description="Old agenda")
    up = ok(s, "update_event", {"event_id": ev["event_id"], "title": "Pricing workshop (v2)", "location": ""})
    assert (up["title"], up["location"], up["description"]) == ("Pricing workshop (v2)", None, "Old agenda")
    fails(s, "update_event", "nothing_to_update", {"event_id": ev["event_id"]})
    fails(s, "update_event", "not_organizer", {"event_id": invited_event(s)["event_id"], "title": "Mine now"})
    fails(s, "update_event", "not_found", {"event_id": "EVT-0", "title": "x"})


def test_reschedule_keeps_length_and_resets_answers(s):
    # A meeting of the user's, clashing with nothing, that colleagues have already accepted.
    upcoming = ok(s, "list_events", {"start": "2026-03-17", "end": "2026-04-04", "limit": 100})["events"]
    alone = [e for e in upcoming if not any(o is not e and o["start"] < e["end"] and o["end"] > e["start"]
                                            for o in upcoming)]
    mine = [ok(s, "get_event", {"event_id": e["event_id"]}) for e in alone
            if e["my_response"] == "organizer" and not e["series_id"]]
    ev = next(e for e in mine if any(a["response"] == "accepted" for a in e["attendees"]))
    later = free_slot(s, minutes=120, start="2026-04-06T00:00:00", end="2026-04-11T00:00:00")

    moved = ok(s, "reschedule_event", {"event_id": ev["event_id"], "start": later["start"]})
    assert moved["start"] == later["start"]
    assert length(moved) == length(ev)
    assert {a["response"] for a in moved["attendees"]} == {"needs_action"}
    # The old time is free again; the new one is busy.
    old_day, new_day = ev["start"][:10], moved["start"][:10]
    assert not covered(my_busy(s, old_day, old_day + "T23:59:59"), ev["start"], ev["end"])
    assert covered(my_busy(s, new_day, new_day + "T23:59:59"), moved["start"], moved["end"])

    week = ok(s, "list_events", {"start": "2026-04-06", "end": "2026-04-11"})["events"]
    other = next(e for e in week if e["event_id"] != ev["event_id"] and e["my_response"] == "organizer")
    fails(s, "reschedule_event", "double_booking", {"event_id": ev["event_id"], "start": other["start"]})
    ok(s, "reschedule_event", {"event_id": ev["event_id"], "start": other["start"], "allow_overlap": True})
    fails(s, "reschedule_event", "past_date", {"event_id": ev["event_id"], "start": "2026-03-01T10:00:00"})
    fails(s, "reschedule_event", "end_before_start", {"event_id": ev["event_id"], "start": "2026-04-20T10:00:00",
                                                      "end": "2026-04-20T09:00:00"})
    fails(s, "reschedule_event", "not_organizer",
          {"event_id": invited_event(s)["event_id"], "start": "2026-04-20T10:00:00"})


def test_cancel_event_frees_time_and_drops_reminders(s):
    ev = new_event(s)
    ok(s, "add_reminder", {"event_id": ev["event_id"], "minutes_before": 15})
    cancelled = ok(s, "cancel_event", {"event_id": ev["event_id"]})
    assert cancelled["status"] == "cancelled"
    day = ev["start"][:10]
    assert ev["event_id"] not in [e["event_id"] for e in ok(s, "list_events",
                                                            {"start": day, "end": day + "T23:59"})["events"]]
    listed = ok(s, "list_events", {"start": day, "end": day + "T23:59", "include_cancelled": True})["events"]
    assert ev["event_id"] in [e["event_id"] for e in listed]
    assert not covered(my_busy(s, day, day + "T23:59:59"), ev["start"], ev["end"])
    assert ok(s, "list_reminders", {"event_id": ev["event_id"]})["total"] == 0
    fails(s, "cancel_event", "already_cancelled", {"event_id": ev["event_id"]})
    fails(s, "update_event", "event_cancelled", {"event_id": ev["event_id"], "title": "Back on"})
    fails(s, "cancel_event", "not_organizer", {"event_id": invited_event(s)["event_id"]})


def test_past_events_are_history(s):
    ev = new_event(s)
    s.advance(14 * 24 * 3600)  # two weeks later, the event is over
    fails(s, "cancel_event", "past_date", {"event_id": ev["event_id"]})
    fails(s, "update_event", "past_date", {"event_id": ev["event_id"], "title": "Renamed"})
    fails(s, "add_reminder", "past_date", {"event_id": ev["event_id"], "minutes_before": 10})
    fails(s, "invite_attendees", "past_date", {"event_id": ev["event_id"], "people": colleagues(s, 1)})


# ----- recurrence ----------------------------------------------------------------------------------------

def test_weekly_series_on_given_weekdays(s):
    cal = calendars(s)["Personal"]["calendar_id"]
    series = ok(s, "create_recurring_event",
                {"calendar_id": cal, "title": "Piano lesson", "start": "2026-03-16T20:00:00",
                                              "end": "2026-03-16T20:45:00", "weekdays": ["WE", "MO"], "count": 5})
    assert series["rule"] == "every week on Monday and Wednesday, 5 times"
    starts = [o["start"] for o in series["occurrences"]]
    assert starts == ["2026-03-16T20:00:00", "2026-03-18T20:00:00", "2026-03-23T20:00:00",
                      "2026-03-25T20:00:00", "2026-03-30T20:00:00"]
    assert series["upcoming"] == 5 and series["total"] == 5
    week = ok(s, "list_events", {"start": "2026-03-16", "end": "2026-03-19", "calendar_id": cal})["events"]
    assert [e["start"] for e in week if e["series_id"] == series["series_id"]] == starts[:2]
    window = ok(s, "list_occurrences", {"series_id": series["series_id"], "start": "2026-03-20", "end": "2026-03-28"})
    assert [o["start"] for o in window["occurrences"]] == starts[2:4]


def test_until_rule_every_other_week_with_attendees(s):
    guests = colleagues(s, 2)
    series = ok(s, "create_recurring_event", {"calendar_id": work(s)["calendar_id"], "title": "Guild meetup",
                                              "start": "2026-03-19T07:00:00", "end": "2026-03-19T07:30:00",
                                              "interval": 2, "until": "2026-04-30",
                                              "attendees": guests})
    assert [o["start"][:10] for o in series["occurrences"]] == ["2026-03-19", "2026-04-02", "2026-04-16",
                                                                 "2026-04-30"]
    first = ok(s, "get_event", {"event_id": series["occurrences"][0]["event_id"]})
    assert sorted(a["person_id"] for a in first["attendees"]) == sorted(guests)
    assert first["series_id"] == series["series_id"]


def test_cancel_one_occurrence_then_the_series(s):
    series = ok(s, "create_recurring_event", {"calendar_id": work(s)["calendar_id"], "title": "Early sync",
                                              "start": "2026-03-17T07:30:00", "end": "2026-03-17T08:00:00",
                                              "frequency": "daily", "count": 4})
    occ = series["occurrences"]
    ok(s, "cancel_event", {"event_id": occ[1]["event_id"]})
    statuses = [o["status"] for o in ok(s, "list_occurrences", {"series_id": series["series_id"]})["occurrences"]]
    assert statuses == ["confirmed", "cancelled", "confirmed", "confirmed"]
    s.advance(24 * 3600)  # the first occurrence is now past and stays as it was
    done = ok(s, "cancel_series", {"series_id": series["series_id"]})
    assert [o["event_id"] for o in done["cancelled"]] == [occ[2]["event_id"], occ[3]["event_id"]]
    assert done["upcoming"] == 0
    statuses = [o["status"] for o in ok(s, "list_occurrences", {"series_id": series["series_id"]})["occurrences"]]
    assert statuses == ["confirmed", "cancelled", "cancelled", "cancelled"]
    fails(s, "cancel_series", "already_cancelled", {"series_id": series["series_id"]})


def test_cancel_series_from_a_date(s):
    series = ok(s, "create_recurring_event", {"calendar_id": work(s)["calendar_id"], "title": "Early sync",
                                              "start": "2026-03-17T07:30:00", "end": "2026-03-17T08:00:00",
                                              "weekdays": ["TU"], "count": 6})
    done = ok(s, "cancel_series", {"series_id": series["series_id"], "starting": "2026-04-07"})
    assert [o["start"][:10] for o in done["cancelled"]] == ["2026-04-07", "2026-04-14", "2026-04-21"]
    assert done["upcoming"] == 3


def test_recurrence_rule_failures(s):
    base = {"calendar_id": work(s)["calendar_id"], "title": "Rule", "start": "2026-03-17T07:00:00",
            "end": "2026-03-17T07:30:00"}
    fails(s, "create_recurring_event", "invalid_rule", base)
    fails(s, "create_recurring_event", "invalid_rule", {**base, "count": 3, "until": "2026-04-01"})
    fails(s, "create_recurring_event", "invalid_rule", {**base, "frequency": "daily", "weekdays": ["MO"], "count": 3})
    fails(s, "create_recurring_event", "invalid_rule", {**base, "frequency": "daily", "count": 61})
    fails(s, "create_recurring_event", "invalid_rule", {**base, "until": "2026-03-01"})
    fails(s, "create_recurring_event", "invalid_rule", {"calendar_id": base["calendar_id"], "title": "Long",
                                                        "start": "2026-03-17T07:00:00", "end": "2026-03-18T08:00:00",
                                                        "count": 2})
    fails(s, "create_recurring_event", "invalid_date", {**base, "until": "someday"})
    fails(s, "create_recurring_event", "past_date", {**{**base, "start": "2026-03-10T07:00:00",
                                                     "end": "2026-03-10T07:30:00"}, "count": 2})
    fails(s, "create_recurring_event", "read_only_calendar",
          {**{**base, "calendar_id": team_calendar(s)["calendar_id"]},
                                                              "count": 2})
    fails(s, "create_recurring_event", "invalid_arguments", {**base, "weekdays": ["Monday"], "count": 2})


def test_series_refuses_any_clashing_occurrence(s):
    sync = next(e for e in ok(s, "list_events", {"start": "2026-03-23", "end": "2026-03-30"})["events"]
                if e["series_id"] and e["my_response"] == "accepted")
    err = fails(s, "create_recurring_event", "double_booking",
                {"calendar_id": work(s)["calendar_id"], "title": "Overlap",
                                                                "start": sync["start"], "end": sync["end"], "count": 3})
    assert sync["event_id"] in err["message"]
    fails(s, "cancel_series", "not_organizer", {"series_id": sync["series_id"]})


# ----- invitations ---------------------------------------------------------------------------------------

def test_answering_pending_invitations(s):
    pending = ok(s, "list_invitations")
    assert pending["total"] >= 4
    assert all(i["response"] == "needs_action" for i in pending["invitations"])
    assert any(i["conflicts"] for i in pending["invitations"]), "world 0 has clashing invitations"
    first = pending["invitations"][0]
    answer = ok(s, "respond_to_invitation",
                {"event_id": first["event_id"], "response": "tentative", "note": "Might be late"})
    assert (answer["response"], answer["note"]) == ("tentative", "Might be late")
    assert first["event_id"] not in [i["event_id"] for i in ok(s, "list_invitations")["invitations"]]
    tentative = ok(s, "list_invitations", {"response": "tentative"})["invitations"]
    assert first["event_id"] in [i["event_id"] for i in tentative]
    assert ok(s, "get_event", {"event_id": first["event_id"]})["my_response"] == "tentative"


def test_declining_frees_the_slot(s):
    inv = next(i for i in ok(s, "list_invitations")["invitations"] if not i["conflicts"])
    day = inv["start"][:10]
    assert covered(my_busy(s, day, day + "T23:59:59"), inv["start"], inv["end"])
    declined = ok(s, "respond_to_invitation", {"event_id": inv["event_id"], "response": "declined"})
    assert declined["conflicts"] == []
    assert not covered(my_busy(s, day, day + "T23:59:59"), inv["start"], inv["end"])
    day_events = ok(s, "list_events", {"start": day, "end": day + "T23:59:59"})["events"]
    assert inv["event_id"] not in [e["event_id"] for e in day_events]
    shown = ok(s, "list_events", {"start": day, "end": day + "T23:59:59", "include_declined": True})["events"]
    assert inv["event_id"] in [e["event_id"] for e in shown]
    # Now the time can be booked without overlap.
    ok(s, "create_event",
       {"calendar_id": work(s)["calendar_id"], "title": "Instead", "start": inv["start"], "end": inv["end"]})


def test_respond_for_a_whole_series(s):
    sync = next(e for e in ok(s, "list_events", {"start": "2026-03-23", "end": "2026-03-30"})["events"]
                if e["series_id"] and e["my_response"] == "accepted")
    ok(s, "respond_to_invitation", {"event_id": sync["event_id"], "response": "declined", "whole_series": True})
    occ = ok(s, "list_occurrences", {"series_id": sync["series_id"], "start": sync["start"]})["occurrences"]
    answers = {ok(s, "get_event",
                  {"event_id": o["event_id"]})["my_response"] for o in occ if o["status"] == "confirmed"}
    assert answers == {"declined"}


def test_respond_failures(s):
    mine = new_event(s)
    fails(s, "respond_to_invitation", "not_invited", {"event_id": mine["event_id"], "response": "accepted"})
    fails(s, "respond_to_invitation", "not_found", {"event_id": "EVT-404", "response": "accepted"})
    fails(s, "respond_to_invitation", "invalid_arguments", {"event_id": mine["event_id"], "response": "maybe"})
    past = ok(s, "list_events", {"start": "2026-03-02", "end": "2026-03-07"})["events"]
    attended = next(e for e in past if e["my_response"] == "accepted")
    fails(s, "respond_to_invitation", "past_date", {"event_id": attended["event_id"], "response": "declined"})


def test_invite_and_remove_attendees(s):
    a, b = colleagues(s, 2)
    ev = new_event(s, attendees=[a])
    fails(s, "invite_attendees", "already_invited", {"event_id": ev["event_id"], "people": [b, a]})
    fails(s, "invite_attendees", "already_invited", {"event_id": ev["event_id"], "people": [me(s)]})
    invited = ok(s, "invite_attendees", {"event_id": ev["event_id"], "people": [b]})
    assert sorted(x["person_id"] for x in invited["attendees"]) == sorted([a, b])
    day = ev["start"][:10]
    assert covered(my_busy(s, day, day + "T23:59:59", b), ev["start"], ev["end"])
    removed = ok(s, "remove_attendee", {"event_id": ev["event_id"], "person_id": a})
    assert [x["person_id"] for x in removed["attendees"]] == [b]
    fails(s, "remove_attendee", "not_invited", {"event_id": ev["event_id"], "person_id": a})
    other = invited_event(s)
    fails(s, "invite_attendees", "not_organizer", {"event_id": other["event_id"], "people": [b]})
    fails(s, "remove_attendee", "not_organizer", {"event_id": other["event_id"], "person_id": me(s)})


def test_invite_to_the_rest_of_a_series(s):
    guest = colleagues(s, 3)[2]
    series = ok(s, "create_recurring_event", {"calendar_id": work(s)["calendar_id"], "title": "Mentoring",
                                              "start": "2026-03-18T07:00:00", "end": "2026-03-18T07:30:00", "count": 4})
    second = series["occurrences"][1]["event_id"]
    ok(s, "invite_attendees", {"event_id": second, "people": [guest], "whole_series": True})
    on = [bool(ok(s, "get_event", {"event_id": o["event_id"]})["attendees"]) for o in series["occurrences"]]
    assert on == [False, True, True, True]


# ----- free/busy -----------------------------------------------------------------------------------------

def test_free_slots_are_free_for_everyone(s):
    people = colleagues(s, 3)
    data = ok(s, "find_free_slots", {"people": people, "duration_minutes": 45, "start": "2026-03-16T00:00:00",
                                     "end": "2026-03-21T00:00:00", "day_start": "10:00", "day_end": "16:00",
                                     "limit": 100})
    assert data["slots"] and data["total"] == len(data["slots"])
    assert me(s) in data["people"]
    for slot in data["slots"]:
        assert slot["start"] >= "2026-03-16T09:00:00"  # never before now
        assert slot["start"][11:16] >= "10:00" and slot["end"][11:16] <= "16:00"
        assert slot["start"][14:16] in ("00", "30")
        for who in [*people, me(s)]:
            busy = my_busy(s, slot["start"], slot["end"], who)
            assert busy == [], (who, slot, busy)
    assert all(a["end"] <= b["start"] for a, b in pairwise(data["slots"]))


def test_free_slots_read_out_every_slot_asked_for(s):
    """"Suggest 10 times for a 15-minute call ..." was answered "52 slots are free: March 30 at 9:00 AM, ...
    1:00 PM and 46 more": six times of the ten asked for. Every slot returned is said; the rest are counted."""
    for limit in (5, 10):
        data = ok(s, "find_free_slots", {"people": colleagues(s, 1), "duration_minutes": 15, "limit": limit,
                                         "start": "2026-03-30T09:00:00", "end": "2026-04-03T17:00:00"})
        assert len(data["slots"]) == limit < data["total"]
        assert len(re.findall(r"\d:\d\d [AP]M", data["slots_text"])) == limit, data["slots_text"]
        assert data["slots_text"].endswith(f" and {data['total'] - limit} more"), data["slots_text"]


def test_free_slots_skip_weekends_unless_asked(s):
    weekend = {"people": colleagues(s, 1), "duration_minutes": 60, "start": "2026-03-21T00:00:00",
               "end": "2026-03-23T00:00:00"}
    assert ok(s, "find_free_slots", weekend)["total"] == 0
    assert ok(s, "find_free_slots", {**weekend, "include_weekends": True})["total"] > 0


def test_free_busy_failures(s):
    fails(s, "get_free_busy", "free_busy_unavailable", {"person_id": external(s), "start": "2026-03-16",
                                                        "end": "2026-03-17"})
    fails(s, "get_free_busy", "range_too_large", {"person_id": colleagues(s, 1)[0], "start": "2026-03-16",
                                                  "end": "2026-05-16"})
    fails(s, "get_free_busy", "not_found", {"person_id": "PER-0", "start": "2026-03-16", "end": "2026-03-17"})
    fails(s, "find_free_slots", "free_busy_unavailable", {"people": [external(s)], "duration_minutes": 30,
                                                          "start": "2026-03-16", "end": "2026-03-17"})
    fails(s, "find_free_slots", "past_date", {"people": colleagues(s, 1), "duration_minutes": 30, "start": "2026-03-02",
                                              "end": "2026-03-06"})
    fails(s, "find_free_slots", "end_before_start", {"people": colleagues(s, 1), "duration_minutes": 30,
                                                     "start": "2026-03-17", "end": "2026-03-18", "day_start": "17:00",
                                                     "day_end": "09:00"})
    fails(s, "find_free_slots", "invalid_time",
          {"people": colleagues(s, 1), "duration_minutes": 30, "start": "2026-03-17",
                                                 "end": "2026-03-18", "day_start": "9am"})
    fails(s, "find_free_slots", "invalid_arguments", {"people": [], "duration_minutes": 30, "start": "2026-03-17",
                                                      "end": "2026-03-18"})


# ----- reminders -----------------------------------------------------------------------------------------

def test_reminders(s):
    ev = new_event(s)
    rem = ok(s, "add_reminder", {"event_id": ev["event_id"], "minutes_before": 30, "method": "email"})
    assert rem["reminder_id"].startswith("REM-") and rem["fires_at"] < ev["start"]
    fails(s, "add_reminder", "duplicate_reminder",
          {"event_id": ev["event_id"], "minutes_before": 30, "method": "email"})
    for minutes in (5, 10, 60, 1440):
        ok(s, "add_reminder", {"event_id": ev["event_id"], "minutes_before": minutes})
    fails(s, "add_reminder", "too_many_reminders", {"event_id": ev["event_id"], "minutes_before": 2})
    listed = ok(s, "list_reminders", {"event_id": ev["event_id"]})
    assert listed["total"] == 5
    fires = [r["fires_at"] for r in listed["reminders"]]
    assert fires == sorted(fires)
    everything = ok(s, "list_reminders", {"limit": 100})
    assert rem["reminder_id"] in [r["reminder_id"] for r in everything["reminders"]]
    gone = ok(s, "delete_reminder", {"reminder_id": rem["reminder_id"]})
    assert gone["reminder_id"] == rem["reminder_id"]
    fails(s, "delete_reminder", "not_found", {"reminder_id": rem["reminder_id"]})
    fails(s, "add_reminder", "not_found", {"event_id": "EVT-1", "minutes_before": 10})
    fails(s, "add_reminder", "invalid_arguments", {"event_id": ev["event_id"], "minutes_before": -5})


def test_forks_are_independent(s):
    child = s.fork()
    ev = new_event(child)
    assert ok(child, "get_event", {"event_id": ev["event_id"]})
    fails(s, "get_event", "not_found", {"event_id": ev["event_id"]})
    child.close()


# ----- what the sampler offers, and the words around it ----------------------------------------------

def offered(tool: str, param: str) -> list[str]:
    """The rows of world 0 that a parameter's entity kind (narrowed by its `where`) offers the sampler."""
    server = registry.get("calendar")
    p = next(p for p in server.tools[tool].params if p.name == param)
    kind = server.entities[p.entity]
    db = server.template(WORLD).db
    return [r[0] for r in db.execute(f'SELECT "{kind.key}" FROM "{kind.table}" WHERE {p.where or kind.live or "1"}')]


def test_renames_take_only_the_users_unnamed_holds(s):
    from prove.servers.calendar.world import HOLDS
    held = offered("update_event", "event_id")
    assert len(held) >= 2
    for event_id in held:
        event = ok(s, "get_event", {"event_id": event_id})
        assert event["title"] in HOLDS and event["location"] and event["description"]
        assert event["start"] > "2026-03-16T09:00:00"
    renamed = ok(s, "update_event", {"event_id": held[0], "title": "Sprint planning"})
    assert renamed["title"] == "Sprint planning" and renamed["location"] and renamed["description"]
    # A meeting with a real name is not offered for renaming.
    named = ok(s, "search_events", {"query": "1:1", "limit": 100})["events"]
    assert named and not {e["event_id"] for e in named} & set(held)


def test_replies_say_which_answer_or_access_was_given():
    tools = registry.get("calendar").tools
    for tool, param in (("respond_to_invitation", "response"), ("share_calendar", "permission")):
        bound = {r.binds[param] for r in tools[tool].replies}
        assert bound == set(tools[tool].parameters["properties"][param]["enum"])
        assert all(r.binds for r in tools[tool].replies)  # no reply that could name the wrong one
    notes = tools["respond_to_invitation"].values["note"]
    assert not any("looking forward" in n.lower() for n in notes)  # the note goes with a decline


def test_a_series_wide_change_is_said_to_cover_the_series():
    for tool, args in (("respond_to_invitation", {"event_id": "EVT-1", "response": "declined"}),
                       ("invite_attendees", {"event_id": "EVT-1", "people": ["PER-1"]}),
                       ("remove_attendee", {"event_id": "EVT-1", "person_id": "PER-1"})):
        series = replies_for("calendar", tool, args | {"whole_series": True})
        assert series and all("series" in r for r in series), tool
        one = replies_for("calendar", tool, args)
        assert one and not any("series" in r for r in one), tool


def test_a_new_calendar_is_described_by_what_its_name_is_for():
    pairs = dict(registry.get("calendar").tools["create_calendar"].values["name, description"])
    assert pairs["Volunteering"] != "School events, practices and pickups"
    assert pairs["Kids' activities"] == "School events, practices and pickups"


def test_a_rule_reads_in_words_with_weekday_names_and_a_date():
    from prove.servers.calendar.tools_recurrence import describe_rule

    weekly = {"frequency": "weekly", "interval": 1, "weekdays": "TU", "count": None, "until": "2026-05-02"}
    assert describe_rule(weekly) == "every week on Tuesday until May 2, 2026"
    fortnightly = {"frequency": "weekly", "interval": 2, "weekdays": "MO,WE,FR", "count": 6, "until": None}
    assert describe_rule(fortnightly) == "every 2 weeks on Monday, Wednesday and Friday, 6 times"
    series = replies_for("calendar", "list_occurrences", {"series_id": "SER-1"})
    assert series and all("{result.rule}" in r and "{result.upcoming}" in r for r in series)
    window = replies_for("calendar", "list_occurrences", {"series_id": "SER-1", "start": "2026-03-16T00:00:00",
                                               "end": "2026-04-01T00:00:00"})
    assert window and all("{start}" in r and "{result.total}" in r for r in window)


def test_invite_lists_change_only_on_group_meetings_the_user_organizes(s):
    server = registry.get("calendar")
    db = server.template(WORLD).db
    for tool in ("invite_attendees", "remove_attendee"):
        p = next(p for p in server.tools[tool].params if p.name == "event_id")
        rows = db.execute(f"SELECT event_id, title FROM events WHERE {p.where}",
                          {"now": "2026-03-16T09:00:00", "today": "2026-03-16"}).fetchall()
        assert rows, tool
        for event_id, title in rows:
            assert not title.startswith(("Focus time", "Hold", "1:1 ", "Coffee with", "Lunch with")), title
            assert ok(s, "get_event", {"event_id": event_id})["attendees"], title  # others are on it


def test_an_event_update_is_said_by_the_one_change_asked_for():
    for field, slot in (("title", "{title}"), ("location", "{location}"), ("description", "{description}")):
        said = replies_for("calendar", "update_event", {"event_id": "EVT-1", field: "x"})
        assert said and all(slot in r and "result." not in r for r in said), field
    both = replies_for("calendar", "update_event", {"event_id": "EVT-1", "title": "x", "location": "y"})
    assert both and all("{result.title}" in r and "{result.location}" in r for r in both)


def test_cancelling_a_series_says_what_is_left_only_when_part_of_it_stays():
    whole = replies_for("calendar", "cancel_series", {"series_id": "SER-1"})
    assert whole and all("{starting}" not in r and "{result.upcoming}" not in r for r in whole)
    part = replies_for("calendar", "cancel_series", {"series_id": "SER-1", "starting": "2026-04-01T00:00:00"})
    assert part and all("{starting}" in r for r in part)


def test_a_colleagues_calendar_is_named_as_theirs():
    db = registry.get("calendar").template(WORLD).db
    names = {n for (n,) in db.execute("SELECT name FROM calendars")}
    people = {n for (n,) in db.execute("SELECT name FROM people")}
    assert not names & people  # 'the event X in Joseph Silva' would read as a place
    assert any(n.endswith("'s calendar") for n in names)


def test_a_dinner_is_not_moved_to_a_working_hour() -> None:
    """"Move the event 'Dinner with Victoria' to March 17 at 8:00 AM.": the times a request moves an event
    to are working hours, so a dinner is not among the events it moves."""
    server = registry.get("calendar")
    tool = server.tools["reschedule_event"]
    db = server.template(0).db
    with Session(["calendar"]) as session:
        dinners = [e for (e,) in db.execute("SELECT event_id FROM events WHERE title LIKE 'Dinner%'")]
        meetings = [e for (e,) in db.execute("SELECT event_id FROM events WHERE title = 'Hiring debrief'")]
        assert dinners and meetings
        for ask in tool.asks:
            fits = ask.fits.get("event_id", "1")
            assert not any(session.satisfies("event", e, fits) for e in dinners), ask.text
            assert any(session.satisfies("event", e, fits) for e in meetings), ask.text
