"""Recurring events: create a series, list its occurrences, cancel what remains of it.

A series is a rule (daily or weekly, every N days or weeks, on given weekdays, for a count or
until a date). Its occurrences are ordinary events carrying the series ID, so they appear in
list_events and free/busy, and one occurrence can be edited, moved or cancelled on its own.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from pydantic import Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, parse_date, parse_span, parse_time, quote

from .server import (
    READABLE,
    Attendees,
    Limit,
    Note,
    Occurrence,
    OwnSeriesId,
    Series,
    SeriesCancellation,
    SeriesId,
    Title,
    Weekday,
    WritableCalendarId,
    check_double_booking,
    check_future,
    invite,
    me,
    person_rows,
    writable_calendar,
)
from .world import WEEKDAYS, recurrence_dates

tools = Toolset("recurrence")

MAX_OCCURRENCES = 60


def describe_rule(row: sqlite3.Row | dict) -> str:
    """A rule in words, such as 'every 2 weeks on Monday and Thursday, 6 times' or 'every day until
    May 1, 2026'."""
    unit = "day" if row["frequency"] == "daily" else "week"
    text = f"every {unit}" if row["interval"] == 1 else f"every {row['interval']} {unit}s"
    if row["weekdays"]:
        days = [_DAY_NAMES[d] for d in row["weekdays"].split(",")]
        text += " on " + (days[0] if len(days) == 1 else ", ".join(days[:-1]) + " and " + days[-1])
    if row["count"]:
        return text + f", {row['count']} times"
    until = date.fromisoformat(row["until"][:10])
    return text + f" until {until:%B} {until.day}, {until.year}"


_DAY_NAMES = {"MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday", "FR": "Friday",
              "SA": "Saturday", "SU": "Sunday"}


def visible_series(ctx: Ctx, series_id: str) -> sqlite3.Row:
    """A series the user can see: on a calendar they read, organized by them, or they are invited."""
    row = ctx.db.execute(
        f"SELECT * FROM series s WHERE s.series_id = :sid AND (s.organizer_id = :me OR s.calendar_id IN "
        f"({READABLE}) OR EXISTS (SELECT 1 FROM events e JOIN invitations i ON i.event_id = e.event_id "
        "WHERE e.series_id = s.series_id AND i.person_id = :me))", {"sid": series_id, "me": me(ctx)}).fetchone()
    if row is None:
        raise ToolError("not_found", f"No recurring series {quote(series_id)} is on your calendars.",
                        hint="Events that belong to a series show its series_id (get_event, list_events).")
    return row


def _upcoming(ctx: Ctx, series_id: str) -> int:
    return ctx.db.execute("SELECT count(*) FROM events WHERE series_id = ? AND status = 'confirmed' "
                          "AND starts_at >= ?", (series_id, ctx.now_iso())).fetchone()[0]


def _occurrences(ctx: Ctx, series_id: str) -> list[Occurrence]:
    return [Occurrence(event_id=r[0], start=r[1], end=r[2], status=r[3]) for r in ctx.db.execute(
        "SELECT event_id, starts_at, ends_at, status FROM events WHERE series_id = ? ORDER BY starts_at",
        (series_id,))]


# The series the values below describe are work meetings: they go on the user's work calendar (a
# 'Project sync' on the Personal calendar, or on a panel's shared one, reads as a mistake).
_ON_WORK = {"calendar_id": "is_primary = 1 AND owner_id = (SELECT person_id FROM people WHERE is_me = 1)"}


@tools.tool(effect=WRITE, asks=[
    Ask("Set up '{title}' every Monday and Wednesday, the first one from {start} to {end}, {count} times, on "
        "{calendar_id}.",
        frequency="weekly", weekdays=["MO", "WE"], fits=_ON_WORK),
    Ask("Create a daily '{title}' on {calendar_id}, the first one from {start} to {end}, until {until}.",
        frequency="daily", fits=_ON_WORK),
    Ask("Add a standing '{title}' with {attendees}: the first one from {start} to {end}, every {interval} weeks, "
        "{count} occurrences, on {calendar_id}.", fits=_ON_WORK),
    Ask("Put a weekly '{title}' on {calendar_id} from {start} to {end}, repeating until {until}.",
        frequency="weekly", fits=_ON_WORK),
], reply=[
    "Created the series '{result.title}': {result.rule}.",
    "Done: '{title}' repeats {result.rule}, with {result.upcoming} meetings ahead.",
], values={
    # Titles that fit a daily rule as well as a weekly one: a phrasing fixes the frequency, not the
    # title ("a daily 'Weekly 1:1'", "a daily 'Book club'" read as nonsense).
    "title, location, description": [
        ("Morning check-in", "Room 2A (Fuji)", "Rotating agenda in the shared doc."),
        ("Team standup", "Zoom", "Status, blockers, next steps."),
        ("Focus block", "Desk", "Heads-down time, no meetings."),
        ("Office hours", "Google Meet", "Bring your questions."),
        ("Project sync", "Google Meet", "Rotating facilitator."),
        ("Planning block", "Desk", "Plan the day, no meetings."),
        ("On-call check-in", "Zoom", "Open alerts and handoffs."),
    ],
    # The first meeting: an hour or less of a Monday or a Wednesday (a rule of Mondays and Wednesdays
    # starts on one), never one that runs over days; the last some weeks later; "every 2 weeks",
    # as "every 1 weeks" is no way to say weekly.
    "start, end": [
        ("2026-03-18T16:00:00", "2026-03-18T17:00:00"), ("2026-03-23T09:30:00", "2026-03-23T10:00:00"),
        ("2026-03-25T08:30:00", "2026-03-25T09:00:00"), ("2026-03-30T14:00:00", "2026-03-30T15:00:00"),
        ("2026-04-01T11:00:00", "2026-04-01T11:45:00"),
    ],
    "until": ["2026-04-24", "2026-04-30", "2026-05-08", "2026-05-15"],
    "interval": [2, 3],
})
def create_recurring_event(
    ctx: Ctx, calendar_id: WritableCalendarId, title: Title, start: str, end: str,
    frequency: Literal["daily", "weekly"] = "weekly", weekdays: list[Weekday] | None = None,
    interval: Annotated[int, Field(ge=1, le=4)] = 1, count: Annotated[int, Field(ge=1)] | None = None,
    until: str | None = None, attendees: Attendees | None = None, location: Note | None = None,
    description: Note | None = None, allow_overlap: bool = False,
) -> Series:
    """Create a recurring event organized by the user: one event per occurrence of a simple rule.

    A 'daily' rule repeats every `interval` days from the first day. A 'weekly' rule repeats
    every `interval` weeks on `weekdays` (default: the weekday of `start`), never before
    `start`. Give exactly one of `count` and `until`; a series has at most 60 occurrences.
    Every occurrence has the time of day and length of `start`..`end`, and every one must
    be free for the user unless `allow_overlap` is true.

    Args:
        calendar_id: ID of a calendar the user owns or may write to, such as 'CAL-10040'.
        title: what the event is, such as 'Team retro'.
        start: the first possible occurrence's start, ISO local time such as '2026-03-17T10:00:00'.
        end: the same occurrence's end, less than a day later, such as '2026-03-17T10:30:00'.
        frequency: 'daily' or 'weekly' (default).
        weekdays: for weekly rules, the days to repeat on, such as ['MO', 'WE'].
        interval: repeat every this many days or weeks, 1 to 4, such as 2 for every other week.
        count: how many occurrences, such as 10.
        until: the last date an occurrence may fall on, inclusive, such as '2026-05-29'.
        attendees: person IDs to invite to every occurrence, such as ['PER-10003'].
        location: where, such as 'Room 2A (Fuji)'.
        description: notes or agenda, such as 'Rotating facilitator'.
        allow_overlap: true to create it even where the user is already busy; default false.

    Returns:
        The series with its ID, the rule in words and every occurrence (event ID, start, end).

    Raises:
        not_found: the calendar or an attendee does not exist.
        no_access: the calendar is not shared with the user.
        read_only_calendar: the calendar is shared with the user read-only.
        invalid_time: `start` or `end` is not an ISO 8601 local time between 2000 and 2099.
        invalid_date: `until` is not an ISO date between 2000 and 2099.
        end_before_start: `end` is not after `start`.
        invalid_rule: not exactly one of `count` and `until`, weekdays with a daily rule, an
            occurrence of a day or longer, or a rule with no occurrence or more than 60.
        past_date: `start` is before the current time.
        double_booking: the user is busy during an occurrence and `allow_overlap` is false.
    """
    s, e = parse_span(start, end)
    last = parse_date(until, "until") if until is not None else None
    calendar = writable_calendar(ctx, calendar_id)
    user = me(ctx)
    people = [p for p in person_rows(ctx, attendees or []) if p["person_id"] != user]
    if (count is None) == (last is None):
        raise ToolError("invalid_rule", "Give exactly one of count and until.",
                        hint="For example count=10, or until='2026-05-29'.")
    if frequency == "daily" and weekdays:
        raise ToolError("invalid_rule", "weekdays only apply to weekly rules.",
                        hint="For every weekday use frequency='weekly', weekdays=['MO','TU','WE','TH','FR'].")
    if e - s >= timedelta(days=1):
        raise ToolError("invalid_rule", "Each occurrence must be shorter than a day.")
    days = recurrence_dates(s.date(), frequency, interval, weekdays, count, last, cap=MAX_OCCURRENCES)
    if not days:
        raise ToolError("invalid_rule", f"The rule yields no occurrence between {s.date()} and {last}.")
    if len(days) > MAX_OCCURRENCES:
        raise ToolError("invalid_rule", f"The rule yields more than {MAX_OCCURRENCES} occurrences.",
                        hint="Use a smaller count or an earlier until date.")
    check_future(ctx, s)
    length = e - s
    starts = [datetime.combine(day, s.time()) for day in days]
    if starts[-1] + length > datetime(2099, 12, 31, 23, 59):
        raise ToolError("invalid_time", "The series would run past the year 2099.")
    for occ in starts:
        check_double_booking(ctx, occ, occ + length, allow_overlap)
    on = ",".join(d for d in WEEKDAYS if d in (weekdays or [WEEKDAYS[s.weekday()]])) if frequency == "weekly" else None
    series_id = ctx.new_id("SER")
    ctx.db.execute(
        "INSERT INTO series (series_id, calendar_id, organizer_id, title, frequency, interval, weekdays, count, "
        "until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (series_id, calendar["calendar_id"], user, title, frequency, interval, on, count,
         last.isoformat() if last else None))
    for occ in starts:
        event_id = ctx.new_id("EVT")
        ctx.db.execute(
            "INSERT INTO events (event_id, calendar_id, series_id, organizer_id, title, description, location, "
            "starts_at, ends_at, status, show_as) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed', 'busy')",
            (event_id, calendar["calendar_id"], series_id, user, title, description or None, location or None,
             iso(occ), iso(occ + length)))
        for p in people:
            invite(ctx, event_id, p["person_id"])
    row = visible_series(ctx, series_id)
    occurrences = _occurrences(ctx, series_id)
    return Series(series_id=series_id, calendar_id=row["calendar_id"], title=title, organizer_id=user,
                  rule=describe_rule(row), upcoming=_upcoming(ctx, series_id), occurrences=occurrences,
                  total=len(occurrences))


@tools.tool(effect=READ, asks=[
    "How many times does {series_id} meet between {start} and {end}?",
    Ask("How often does {series_id} repeat, and how many are still ahead?", start=None, end=None),
], reply=[
    # The generic summary would read the rule as a field; say it, and the count that was asked.
    Ask("'{result.title}' repeats {result.rule}; {result.upcoming} of its meetings are still ahead.",
        start=None, end=None),
    Ask("It meets {result.rule}, and {result.upcoming} meetings of '{result.title}' haven't happened yet.",
        start=None, end=None),
    "'{result.title}' ({result.rule}) has {result.total} meetings between {start} and {end}, cancelled ones "
    "included.",
], values={
    # A series' meetings are counted over weeks, not over an afternoon: from a Monday morning to a
    # Friday evening some weeks later (a reading over days runs from morning to evening).
    "start, end": [
        ("2026-03-16T09:00:00", "2026-03-27T17:00:00"), ("2026-03-16T09:00:00", "2026-04-10T17:00:00"),
        ("2026-03-23T09:00:00", "2026-04-17T17:00:00"), ("2026-03-16T09:00:00", "2026-05-01T17:00:00"),
        ("2026-04-06T09:00:00", "2026-05-01T17:00:00"), ("2026-03-30T09:00:00", "2026-05-29T17:00:00"),
    ],
})
def list_occurrences(ctx: Ctx, series_id: SeriesId, start: str | None = None, end: str | None = None,
                     limit: Limit = 60) -> Series:
    """List the occurrences of a recurring series, cancelled ones included, in time order.

    Args:
        series_id: ID of the series, such as 'SER-10002' (events of a series show it).
        start: only occurrences ending after this time, such as '2026-03-16T00:00:00'; omit for all.
        end: only occurrences starting before this time, such as '2026-04-30T00:00:00'; omit for all.
        limit: the most occurrences to return, from 1 to 100, such as 60.

    Returns:
        The series (title, organizer, rule in words, how many confirmed occurrences are still
        ahead) and its occurrences in the window, each with event ID, start, end and status.

    Raises:
        not_found: no series with that ID is visible to the user.
        invalid_time: `start` or `end` is not an ISO 8601 local time between 2000 and 2099.
        end_before_start: both bounds are given and `end` is not after `start`.
    """
    if start is not None and end is not None:
        s, e = (iso(x) for x in parse_span(start, end))
    else:
        s = iso(parse_time(start, "start")) if start is not None else "0000"
        e = iso(parse_time(end, "end")) if end is not None else "9999"
    row = visible_series(ctx, series_id)
    occurrences = [o for o in _occurrences(ctx, series_id) if o.end > s and o.start < e]
    return Series(series_id=series_id, calendar_id=row["calendar_id"], title=row["title"],
                  organizer_id=row["organizer_id"], rule=describe_rule(row), upcoming=_upcoming(ctx, series_id),
                  occurrences=occurrences[:limit], total=len(occurrences))


@tools.tool(effect=WRITE, asks=[
    "Cancel {series_id} altogether.",
    "Stop {series_id} from {starting} on.",
], reply=[
    Ask("Cancelled the {result.total} remaining meetings of '{result.title}'; none are left.", starting=None),
    Ask("Done: {series_id} is cancelled, all {result.total} meetings still ahead.", starting=None),
    "Cancelled {result.total} meetings of '{result.title}' from {starting} on; the ones before then stay on the "
    "calendar.",
    "Done: {series_id} stops from {starting}; {result.total} meetings are cancelled.",
], values={"starting": ["2026-03-23T00:00:00", "2026-03-30T00:00:00", "2026-04-01T00:00:00", "2026-04-06T00:00:00",
                        "2026-04-13T00:00:00", "2026-04-20T00:00:00"]})
def cancel_series(ctx: Ctx, series_id: OwnSeriesId, starting: str | None = None) -> SeriesCancellation:
    """Cancel the remaining occurrences of a recurring series the user organizes.

    Occurrences that have already started are history and stay as they are. To cancel a
    single occurrence use cancel_event on its event ID.

    Args:
        series_id: ID of the series, such as 'SER-10002'.
        starting: cancel only occurrences starting at or after this time, such as
            '2026-04-01T00:00:00'; omit to cancel every upcoming occurrence.

    Returns:
        The occurrences this call cancelled and how many confirmed occurrences remain ahead.

    Raises:
        not_found: no series with that ID is visible to the user.
        invalid_time: `starting` is not an ISO 8601 local time between 2000 and 2099.
        not_organizer: someone else organizes the series.
        already_cancelled: no confirmed occurrence is left at or after `starting` (or now).
    """
    cutoff = ctx.now_iso()
    if starting is not None:
        cutoff = max(cutoff, iso(parse_time(starting, "starting")))
    row = visible_series(ctx, series_id)
    if row["organizer_id"] != me(ctx):
        raise ToolError("not_organizer", f"Only the organizer can cancel the series '{row['title']}'.",
                        hint="You can decline its occurrences with respond_to_invitation and whole_series=true.")
    targets = [o for o in _occurrences(ctx, series_id) if o.status == "confirmed" and o.start >= cutoff]
    if not targets:
        raise ToolError("already_cancelled", f"No confirmed occurrence of '{row['title']}' is left from {cutoff} on.")
    for occ in targets:
        ctx.db.execute("UPDATE events SET status = 'cancelled' WHERE event_id = ?", (occ.event_id,))
        ctx.db.execute("DELETE FROM reminders WHERE event_id = ?", (occ.event_id,))
    cancelled = [o.model_copy(update={"status": "cancelled"}) for o in targets]
    return SeriesCancellation(series_id=series_id, title=row["title"], cancelled=cancelled, total=len(cancelled),
                              upcoming=_upcoming(ctx, series_id))
