"""Events: list, read, search, create, edit, reschedule and cancel the user's events."""

from __future__ import annotations

from datetime import datetime

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, like, parse_span, parse_time

from .server import (
    VISIBLE_EVENTS,
    Attendees,
    CalendarId,
    Event,
    EventId,
    EventList,
    HeldEventId,
    Limit,
    Note,
    OtherPersonId,
    OwnEventId,
    Query,
    Title,
    WorkCalendarId,
    calendar_access,
    check_double_booking,
    check_future,
    event_model,
    events_text,
    invite,
    me,
    own_upcoming_event,
    person_rows,
    require_not_started,
    require_organizer,
    summary,
    visible_event,
    writable_calendar,
)

tools = Toolset("events")


def _event_list(ctx: Ctx, sql: str, params: dict[str, object], include_cancelled: bool, limit: int) -> EventList:
    """The events a VISIBLE_EVENTS query selects, in start order (cancelled ones only if asked)."""
    if not include_cancelled:
        sql += " AND e.status = 'confirmed'"
    rows = ctx.db.execute(sql + " ORDER BY e.starts_at, e.event_id", params).fetchall()
    return EventList(events=[summary(r) for r in rows[:limit]], total=len(rows),
                     events_text=events_text(rows[:limit], len(rows), ctx.today()))


@tools.tool(effect=READ, asks=[
    "What's on my calendar between {start} and {end}?",
    "Show me my meetings from {start} to {end}.",
    "List everything on {calendar_id} from {start} until {end}.",
    Ask("Show my events from {start} to {end}, including the cancelled ones.", include_cancelled=True),
    Ask("What was I invited to between {start} and {end}, even meetings I declined?", include_declined=True),
], reply=[
    "You have {result.total} events between {start} and {end}. {result.events_text}.",
    "Here's your calendar from {start} to {end}. {result.events_text}.",
])
def list_events(ctx: Ctx, start: str, end: str, calendar_id: CalendarId | None = None,
                include_cancelled: bool = False, include_declined: bool = False, limit: Limit = 50) -> EventList:
    """List the events the user can see that overlap a time range, in start order.

    Covers the user's own calendars, calendars shared with them, and every event they are
    invited to (invitations show on their primary calendar).

    Args:
        start: beginning of the range, ISO local time such as '2026-03-16T00:00:00' (a bare date
            such as '2026-03-16' means its midnight).
        end: end of the range (exclusive), such as '2026-03-21T00:00:00'.
        calendar_id: only this calendar, such as 'CAL-10040'; omit for all calendars.
        include_cancelled: also list cancelled events, such as true; default false.
        include_declined: also list invitations the user declined, such as true; default false.
        limit: the most events to return, from 1 to 100, such as 50.

    Returns:
        The events (ID, title, start, end, location, status, organizer, series, the user's
        response) and how many matched in total.

    Raises:
        invalid_time: `start` or `end` is not an ISO 8601 local time between 2000 and 2099.
        end_before_start: `end` is not after `start`.
        not_found: `calendar_id` does not exist.
        no_access: `calendar_id` is not shared with the user for reading.
    """
    s, e = parse_span(start, end)
    user = me(ctx)
    sql = VISIBLE_EVENTS + " AND e.starts_at < :end AND e.ends_at > :start"
    params = {"me": user, "start": iso(s), "end": iso(e)}
    if calendar_id is not None:
        row, access = calendar_access(ctx, calendar_id)
        if access not in ("owner", "write", "read"):
            raise ToolError("no_access", f"Calendar '{row['name']}' is not shared with you for reading.",
                            hint="list_calendars shows the calendars you can read.")
        if row["is_primary"] and row["owner_id"] == user:
            sql += " AND (e.calendar_id = :cid OR i.invitation_id IS NOT NULL)"
        else:
            sql += " AND e.calendar_id = :cid"
        params["cid"] = calendar_id
    if not include_declined:
        sql += " AND coalesce(i.response, '') != 'declined'"
    return _event_list(ctx, sql, params, include_cancelled, limit)


@tools.tool(effect=READ, asks=[
    "Give me the details of {event_id}.",
    "When is {event_id}, and on which calendar?",
    "Pull up {event_id} for me.",
], reply=[
    "'{result.title}' {result.when_text}, on the {result.calendar_name} calendar; {result.details_text}.",
    "'{result.title}' {result.when_text}, on the {result.calendar_name} calendar.",
])
def get_event(ctx: Ctx, event_id: EventId) -> Event:
    """Get one event with all its details, including every attendee and their response.

    Args:
        event_id: ID of the event, such as 'EVT-10042'.

    Returns:
        The event: calendar, title, start, end, location, description, status, organizer,
        recurring series (if any), the user's own response and the attendees with theirs.

    Raises:
        not_found: no event with that ID is visible to the user.
    """
    return event_model(ctx, event_id)


@tools.tool(effect=READ, asks=[
    "Find my meetings with '{query}' in the title.",
    "Find the meeting called '{query}'.",
    "Find my '{query}' events.",
    "When am I meeting with {attendee_id} after {start}?",
    "Search my calendar for '{query}' between {start} and {end}.",
    Ask("Find every meeting with '{query}' in the title, cancelled ones too.", include_cancelled=True),
], reply=[
    "I found {result.total} events. {result.events_text}.",
])
def search_events(ctx: Ctx, query: Query | None = None, attendee_id: OtherPersonId | None = None,
                  start: str | None = None, end: str | None = None, include_cancelled: bool = False,
                  limit: Limit = 20) -> EventList:
    """Search the events the user can see by text and/or by a person taking part, in start order.

    Text matches the title, description or location, case-insensitively. A person matches if
    they organize the event or are invited to it.

    Args:
        query: words to look for, such as 'design review'; omit to match any text.
        attendee_id: only events this person organizes or is invited to, such as 'PER-10007'.
        start: only events ending after this time, such as '2026-03-16T09:00:00'; omit for no bound.
        end: only events starting before this time, such as '2026-04-01T00:00:00'; omit for no bound.
        include_cancelled: also return cancelled events, such as true; default false.
        limit: the most events to return, from 1 to 100, such as 20.

    Returns:
        The matching events in start order and how many matched in total.

    Raises:
        not_found: `attendee_id` is not a person in the directory.
        invalid_time: `start` or `end` is not an ISO 8601 local time between 2000 and 2099.
        end_before_start: both bounds are given and `end` is not after `start`.
    """
    sql = VISIBLE_EVENTS
    params: dict[str, object] = {"me": me(ctx)}
    if start is not None and end is not None:
        s, e = parse_span(start, end)
        params.update(start=iso(s), end=iso(e))
    elif start is not None:
        params["start"] = iso(parse_time(start, "start"))
    elif end is not None:
        params["end"] = iso(parse_time(end, "end"))
    if "start" in params:
        sql += " AND e.ends_at > :start"
    if "end" in params:
        sql += " AND e.starts_at < :end"
    if query is not None:
        sql += (" AND (lower(e.title) LIKE :q ESCAPE '\\' OR lower(coalesce(e.description, '')) LIKE :q "
                "ESCAPE '\\' OR lower(coalesce(e.location, '')) LIKE :q ESCAPE '\\')")
        params["q"] = like(query)
    if attendee_id is not None:
        person_rows(ctx, [attendee_id])
        sql += (" AND (e.organizer_id = :who OR EXISTS (SELECT 1 FROM invitations x "
                "WHERE x.event_id = e.event_id AND x.person_id = :who))")
        params["who"] = attendee_id
    return _event_list(ctx, sql, params, include_cancelled, limit)


@tools.tool(effect=WRITE, asks=[
    "Put '{title}' on {calendar_id} from {start} to {end}.",
    "Set up a meeting called '{title}' with {attendees} from {start} to {end} on {calendar_id}.",
    Ask("Book '{title}' from {start} to {end} on {calendar_id} with the location set to {location}, even if it "
        "overlaps something.",
        allow_overlap=True),
    "Schedule '{title}' on {calendar_id}, {start} to {end}, with this agenda: {description}",
], reply=[
    "Booked '{result.title}' on {calendar_id} from {result.start} to {result.end}.",
    "Done: '{title}' is on your calendar for {start}.",
], values={
    # What a meeting is, where it is and what it is for, drawn together.
    "title, location, description": [
        ("Atlas design review", "Room 2A (Fuji)", "Walk through the design doc together."),
        ("Design critique", "Room 4C (Everest)", "Bring work in progress for feedback."),
        ("Sprint planning", "Zoom", "Pick the stories for the next two weeks."),
        ("Interview debrief", "Google Meet", "Goal: a hire or no-hire decision."),
        ("Quarterly roadmap review", "Room 4C (Everest)", "Bring the latest metrics."),
        ("Customer check-in", "Zoom", "No agenda; just catching up."),
        ("Team retro", "Zoom", "What went well, what didn't, what to change."),
        ("Launch readiness check", "Google Meet", "Goal: agree on the launch date."),
    ],
    # When: an hour or half an hour of a working day ahead, never an event spanning days.
    "start, end": [
        ("2026-03-17T10:00:00", "2026-03-17T11:00:00"), ("2026-03-18T14:00:00", "2026-03-18T15:00:00"),
        ("2026-03-19T09:30:00", "2026-03-19T10:00:00"), ("2026-03-20T13:00:00", "2026-03-20T14:00:00"),
        ("2026-03-23T11:00:00", "2026-03-23T11:30:00"), ("2026-03-24T15:30:00", "2026-03-24T16:30:00"),
        ("2026-03-25T10:30:00", "2026-03-25T11:30:00"), ("2026-03-26T16:00:00", "2026-03-26T16:30:00"),
        ("2026-03-27T09:00:00", "2026-03-27T10:00:00"), ("2026-03-30T14:30:00", "2026-03-30T15:30:00"),
    ],
})
def create_event(ctx: Ctx, calendar_id: WorkCalendarId, title: Title, start: str, end: str,
                 attendees: Attendees | None = None, location: Note | None = None,
                 description: Note | None = None, allow_overlap: bool = False) -> Event:
    """Create a one-off event organized by the user, and invite attendees to it.

    The user must be free: an event overlapping one of their busy events is refused unless
    `allow_overlap` is true. Attendees get an invitation awaiting their response; the user
    (the organizer) is never an attendee of their own event.

    Args:
        calendar_id: ID of a calendar the user owns or may write to, such as 'CAL-10040'.
        title: what the event is, such as 'Q2 roadmap review'.
        start: when it starts, ISO local time such as '2026-03-18T14:00:00'; not in the past.
        end: when it ends, after `start`, such as '2026-03-18T15:00:00'.
        attendees: person IDs to invite, such as ['PER-10003', 'PER-10007']; omit for none.
        location: where, such as 'Room 4B (Everest)' or 'Zoom'.
        description: notes or agenda, such as 'Review the launch checklist'.
        allow_overlap: true to book even if the user is already busy then; default false.

    Returns:
        The created event with its ID and attendees.

    Raises:
        not_found: the calendar or an attendee does not exist.
        no_access: the calendar is not shared with the user.
        read_only_calendar: the calendar is shared with the user read-only.
        invalid_time: `start` or `end` is not an ISO 8601 local time between 2000 and 2099.
        end_before_start: `end` is not after `start`.
        past_date: `start` is before the current time.
        double_booking: the user is busy during part of that time and `allow_overlap` is false.
    """
    s, e = parse_span(start, end)
    calendar = writable_calendar(ctx, calendar_id)
    user = me(ctx)
    people = [p for p in person_rows(ctx, attendees or []) if p["person_id"] != user]
    check_future(ctx, s)
    check_double_booking(ctx, s, e, allow_overlap)
    event_id = ctx.new_id("EVT")
    ctx.db.execute(
        "INSERT INTO events (event_id, calendar_id, series_id, organizer_id, title, description, location, "
        "starts_at, ends_at, status, show_as) VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, 'confirmed', 'busy')",
        (event_id, calendar["calendar_id"], user, title, description or None, location or None, iso(s), iso(e)))
    for p in people:
        invite(ctx, event_id, p["person_id"])
    return event_model(ctx, event_id)


@tools.tool(effect=WRITE, asks=[
    "Rename {event_id} to '{title}'.",
    "{event_id} is a placeholder; call it '{title}'.",
    "Change the location of {event_id} to {location}.",
    "Update the agenda of {event_id}: {description}",
], reply=[
    # Each says the one change asked for; several at once read out what the event is now.
    Ask("Renamed {event_id} to '{title}'.", location=None, description=None),
    Ask("Done: {event_id} is called '{title}' now.", location=None, description=None),
    Ask("Changed the location of {event_id} to {location}.", title=None, description=None),
    Ask("Done: the location of {event_id} is {location} now.", title=None, description=None),
    Ask("Updated the agenda of {event_id}; it now reads: {description}", title=None, location=None),
    Ask("Done: the agenda of {event_id} is now: {description}", title=None, location=None),
    "Updated the event. It now reads: '{result.title}', location: {result.location}, agenda: {result.description}",
], values={
    "title": ["Sprint planning", "Roadmap review", "Team retro", "Project sync", "Customer prep",
              "Design review"],
    "location": ["Room 2A (Fuji)", "Room 5B (Denali)", "Zoom", "Microsoft Teams", "Cafeteria"],
    "description": ["Status, risks, next steps.", "Goal: decide on the vendor.",
                    "Please read the doc beforehand.", "Focus: the Q3 hiring plan.", "Bring your questions."],
})
def update_event(ctx: Ctx, event_id: HeldEventId, title: Title | None = None, location: Note | None = None,
                 description: Note | None = None) -> Event:
    """Change the title, location or description of an upcoming event the user organizes.

    Only the fields given change; an empty `location` or `description` clears it. To change
    the time use reschedule_event. For a recurring event this changes only this occurrence.

    Args:
        event_id: ID of the event, such as 'EVT-10042'.
        title: the new title, such as 'Roadmap review (moved online)'.
        location: the new location, such as 'Google Meet'; '' clears it.
        description: the new description, such as 'Agenda: pricing, launch date'; '' clears it.

    Returns:
        The updated event.

    Raises:
        not_found: no event with that ID is visible to the user.
        not_organizer: someone else organizes the event.
        event_cancelled: the event is cancelled.
        past_date: the event has already started.
        nothing_to_update: none of `title`, `location` and `description` was given.
    """
    event = own_upcoming_event(ctx, event_id)
    if title is None and location is None and description is None:
        raise ToolError("nothing_to_update", "Give at least one of title, location or description.")
    ctx.db.execute(
        "UPDATE events SET title = ?, location = ?, description = ? WHERE event_id = ?",
        (title if title is not None else event["title"],
         (location or None) if location is not None else event["location"],
         (description or None) if description is not None else event["description"], event_id))
    return event_model(ctx, event_id)


# The times a request moves an event to are working hours: never a dinner's ("move the dinner to 8:00 AM").
_DAYTIME = {"event_id": "title NOT LIKE 'Dinner%'"}


@tools.tool(effect=WRITE, asks=[
    Ask("Move {event_id} to {start}.", fits=_DAYTIME),
    Ask("Reschedule {event_id} to run from {start} to {end}.", fits=_DAYTIME),
    Ask("Move {event_id} to {start} even if that clashes with something else.", allow_overlap=True, fits=_DAYTIME),
], reply=[
    "Moved '{result.title}'; it now runs from {result.start} to {result.end}.",
    "Done: {event_id} now starts at {result.start}.",
])
def reschedule_event(ctx: Ctx, event_id: OwnEventId, start: str, end: str | None = None,
                     allow_overlap: bool = False) -> Event:
    """Move an upcoming event the user organizes to a new time.

    The event keeps its length unless `end` is given. Because the time changed, every
    attendee's response is reset to 'needs_action'. For a recurring event this moves only
    this occurrence.

    Args:
        event_id: ID of the event, such as 'EVT-10042'.
        start: the new start, ISO local time such as '2026-03-19T10:00:00'; not in the past.
        end: the new end, such as '2026-03-19T11:00:00'; omit to keep the event's length.
        allow_overlap: true to move it even if the user is busy at the new time; default false.

    Returns:
        The rescheduled event.

    Raises:
        not_found: no event with that ID is visible to the user.
        not_organizer: someone else organizes the event.
        event_cancelled: the event is cancelled.
        past_date: the event has already started, or the new `start` is in the past.
        invalid_time: `start` or `end` is not an ISO 8601 local time between 2000 and 2099.
        end_before_start: `end` is not after `start`.
        double_booking: the user is busy during part of the new time and `allow_overlap` is false.
    """
    event = own_upcoming_event(ctx, event_id)
    if end is None:
        s = parse_time(start, "start")
        e = s + (datetime.fromisoformat(event["ends_at"]) - datetime.fromisoformat(event["starts_at"]))
        if e.year > 2099:
            raise ToolError("invalid_time", f"start {iso(s)} would end the event after the year 2099.")
    else:
        s, e = parse_span(start, end)
    check_future(ctx, s)
    check_double_booking(ctx, s, e, allow_overlap, exclude=[event_id])
    ctx.db.execute("UPDATE events SET starts_at = ?, ends_at = ? WHERE event_id = ?", (iso(s), iso(e), event_id))
    ctx.db.execute("UPDATE invitations SET response = 'needs_action', note = NULL WHERE event_id = ?", (event_id,))
    return event_model(ctx, event_id)


@tools.tool(effect=WRITE, asks=[
    "Cancel {event_id}.",
    "Call off {event_id}; it's not needed anymore.",
    "{event_id} isn't happening; please take it off the calendar.",
], reply=[
    "Cancelled '{result.title}'; the attendees will see it's off.",
    "Done: {event_id} is cancelled.",
    Ask("Cancelled '{result.title}'; nobody else was invited, so it's simply off your calendar.",
        **{"result.attendees": []}),
    Ask("Done: {event_id} is cancelled.", **{"result.attendees": []}),
])
def cancel_event(ctx: Ctx, event_id: OwnEventId) -> Event:
    """Cancel an upcoming event the user organizes; for a recurring event, only this occurrence.

    The event stays on record with status 'cancelled', frees everyone's time and loses its
    reminders. To cancel every remaining occurrence of a series use cancel_series.

    Args:
        event_id: ID of the event, such as 'EVT-10042'.

    Returns:
        The cancelled event.

    Raises:
        not_found: no event with that ID is visible to the user.
        not_organizer: someone else organizes the event (decline it with respond_to_invitation).
        already_cancelled: the event is already cancelled.
        past_date: the event has already started.
    """
    event = visible_event(ctx, event_id)
    require_organizer(ctx, event)
    if event["status"] == "cancelled":
        raise ToolError("already_cancelled", f"'{event['title']}' on {event['starts_at']} is already cancelled.")
    require_not_started(ctx, event)
    ctx.db.execute("UPDATE events SET status = 'cancelled' WHERE event_id = ?", (event_id,))
    ctx.db.execute("DELETE FROM reminders WHERE event_id = ?", (event_id,))
    return event_model(ctx, event_id)

