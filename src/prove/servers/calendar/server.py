"""The calendar server: the one `server`, its entity types, result models and shared rules.

The tools live by area in toolsets, `tools_<area>.py` (people, calendars, events, recurrence,
invitations, availability, reminders); each imports what it needs from here, and the package's
`__init__.py` includes them in that order.

Rules every tool follows:

- The user ("me") is the one person with `is_me = 1`. They can read a calendar they own or that
  is shared with them for 'read' or 'write', and write to one they own or may 'write'.
- An event is visible to the user if it is on a calendar they can read, they organize it, or
  they are invited to it. Invited events also show on the user's primary calendar.
- A person is busy during a confirmed event shown as busy that they organize or are invited to
  and have not declined, and during their private busy blocks. Only colleagues' free/busy is
  visible; external contacts' is not.
- Times are local ISO 8601 text ('2026-03-18T14:00:00'), compared as strings. An event that has
  started is history: it can no longer be changed, answered or reminded of.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import iso, quote, spoken_day

from .world import build_world

PERSON = EntityKind("person", table="people", key="person_id", label="name",
                    description="a colleague or external contact in the directory (or the user)",
                    lister="search_people")
CALENDAR = EntityKind("calendar", table="calendars", key="calendar_id", label="name",
                      description="a calendar owned by someone, possibly shared with the user")
EVENT = EntityKind("event", table="events", key="event_id", label="title",
                   description="a meeting, appointment or block of time on a calendar", live="status = 'confirmed'")
SERIES = EntityKind("series", table="series", key="series_id", label="title",
                    description="a recurring event: a rule whose occurrences are events", noun="recurring event")
INVITATION = EntityKind("invitation", table="invitations", key="invitation_id", label=None,
                        description="one person's invitation to one event, with their response")
REMINDER = EntityKind("reminder", table="reminders", key="reminder_id", label=None,
                      description="a notification the user set before one of their events")

server = Server(
    "calendar", "Calendar",
    "The calendars of one signed-in employee: their work and personal calendars and a team "
    "calendar shared with them; events, recurring series, invitations and responses, "
    "colleagues' free/busy time, reminders and the company directory.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[PERSON, CALENDAR, EVENT, SERIES, INVITATION, REMINDER],
)

# ----- parameter types -------------------------------------------------------------------------

PersonId = PERSON.id
CalendarId = CALENDAR.id
EventId = EVENT.id
SeriesId = SERIES.id
InvitationId = INVITATION.id
ReminderId = REMINDER.id

# Subsets a tool accepts, so that sampled calls name rows it can act on.
_ME = "(SELECT person_id FROM people WHERE is_me = 1)"
ColleagueId = PERSON.where("is_colleague = 1 AND is_me = 0")
OtherPersonId = PERSON.where("is_me = 0")  # someone the user meets (not the user)
OwnCalendarId = CALENDAR.where(f"owner_id = {_ME}")
WritableCalendarId = CALENDAR.where(f"owner_id = {_ME} OR calendar_id IN (SELECT calendar_id FROM calendar_shares "
                                    f"WHERE person_id = {_ME} AND permission = 'write')")
# The user's primary (work) calendar: where the work meetings create_event's values describe go.
WorkCalendarId = CALENDAR.where(f"owner_id = {_ME} AND is_primary = 1")
OwnEventId = EVENT.where(f"organizer_id = {_ME} AND status = 'confirmed'")
# An upcoming group meeting the user organizes, with other people on it: who is invited is changed
# on these (not on the user's own focus blocks, holds or appointments, nor on a 1:1, coffee or lunch
# with one person).
OwnMeetingId = EVENT.where(f"organizer_id = {_ME} AND status = 'confirmed' AND starts_at >= :now AND event_id IN "
                           f"(SELECT event_id FROM invitations WHERE person_id != {_ME}) AND title NOT LIKE '1:1 %' "
                           "AND title NOT LIKE 'Coffee with %' AND title NOT LIKE 'Lunch with %'")
# A hold the user booked and has yet to name ('Hold', 'TBD', ...): renaming it, or giving it a
# room and an agenda, is what a person does with one (renaming '1:1 Ana / Sam' to 'Sprint planning' is not).
HeldEventId = EVENT.where(f"organizer_id = {_ME} AND status = 'confirmed' AND description = "
                          "'Holding this time; agenda to follow.'")
InvitedEventId = EVENT.where(f"status = 'confirmed' AND event_id IN (SELECT event_id FROM invitations "
                             f"WHERE person_id = {_ME})")
OwnSeriesId = SERIES.where(f"organizer_id = {_ME}")

Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Note = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]
Limit = Annotated[int, Field(ge=1, le=100)]
MAX_ATTENDEES = 30
Attendees = Annotated[list[OtherPersonId], Field(min_length=1, max_length=MAX_ATTENDEES)]  # not the user
Response = Literal["accepted", "declined", "tentative"]
ResponseStatus = Literal["needs_action", "accepted", "declined", "tentative"]
Permission = Literal["free_busy", "read", "write"]
Weekday = Literal["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

MAX_RANGE_DAYS = 31  # the longest window free/busy questions may span

# ----- result models ---------------------------------------------------------------------------


class Person(BaseModel):
    person_id: PersonId
    name: str
    email: str
    job_title: str | None
    department: str | None
    company: str
    is_colleague: bool = Field(description="works at the user's company (their free/busy is visible)")


class PersonList(BaseModel):
    people: list[Person]
    total: int = Field(description="how many people matched, before `limit`")
    people_text: str = Field(description="the people in words, such as 'David Stewart, Solutions Consultant in "
                                         "Customer Success at Bright Energy'")
    emails_text: str = Field(description="each person's email address, such as \"David Stewart's email address is "
                                         "david.stewart@brightenergy.com\"")


class Share(BaseModel):
    person_id: PersonId
    name: str
    email: str
    permission: Permission


class Calendar(BaseModel):
    calendar_id: CalendarId
    name: str
    description: str | None
    owner_id: PersonId
    owner_name: str
    access: Literal["owner", "write", "read", "free_busy"] = Field(description="what the user may do with it")
    is_primary: bool = Field(description="the owner's main calendar, where invitations appear")
    shared_with: list[Share] = Field(description="who else has access (only shown for calendars you own)")


class CalendarList(BaseModel):
    calendars: list[Calendar]
    total: int


class CalendarShare(BaseModel):
    calendar_id: CalendarId
    calendar_name: str
    person_id: PersonId
    person_name: str = Field(description="the name of the person the calendar is shared with")
    email: str
    permission: Permission
    previous_permission: Permission | None = Field(description="the access the person had before, if any")


class Attendee(BaseModel):
    person_id: PersonId
    name: str
    email: str
    response: ResponseStatus


class Event(BaseModel):
    event_id: EventId
    calendar_id: CalendarId
    calendar_name: str
    title: str
    start: str
    end: str
    location: str | None
    description: str | None
    status: Literal["confirmed", "cancelled"]
    show_as: Literal["busy", "free"] = Field(description="'free' events are informational and block nobody")
    organizer_id: PersonId
    organizer_name: str
    series_id: SeriesId | None = Field(description="the recurring series this is an occurrence of, if any")
    my_response: Literal["organizer", "needs_action", "accepted", "declined", "tentative"] | None = Field(
        description="'organizer' if you organize it, your answer if invited, null if you only see it")
    attendees: list[Attendee]
    when_text: str = Field(description="When it is in words, such as 'is on May 6 from 11:00 AM to 11:45 AM' "
                                       "('was on ...' once it has ended).")
    details_text: str = Field(description="Where it is, who organizes it and who is coming, in words, such as "
                                          "'it's in Room 4C (Everest); you organize it; Adrian Lopez and 3 others "
                                          "accepted, Alejandro Singh declined'.")


class EventSummary(BaseModel):
    event_id: EventId
    calendar_id: CalendarId
    title: str
    start: str
    end: str
    location: str | None
    status: Literal["confirmed", "cancelled"]
    organizer_name: str
    series_id: SeriesId | None
    my_response: Literal["organizer", "needs_action", "accepted", "declined", "tentative"] | None


class EventList(BaseModel):
    events: list[EventSummary]
    total: int = Field(description="how many events matched, before `limit`")
    events_text: str = Field(description="The events in words, in start order, such as "
                                         "\"March 17: 'Stand-up' from 9:30 AM to 9:45 AM, 'Atlas sync' from 2:00 PM to "
                                         "3:00 PM (you declined); March 18: ...\".")


class Occurrence(BaseModel):
    event_id: EventId
    start: str
    end: str
    status: Literal["confirmed", "cancelled"]


class Series(BaseModel):
    series_id: SeriesId
    calendar_id: CalendarId
    title: str
    organizer_id: PersonId
    rule: str = Field(description="the rule in words, such as 'every week on Monday and Wednesday, 10 times'")
    upcoming: int = Field(description="confirmed occurrences that have not started yet")
    occurrences: list[Occurrence]
    total: int = Field(description="how many occurrences matched, before `limit`")


class SeriesCancellation(BaseModel):
    series_id: SeriesId
    title: str
    cancelled: list[Occurrence] = Field(description="the occurrences this call cancelled")
    total: int
    upcoming: int = Field(description="confirmed occurrences still ahead after the cancellation")


class Invitation(BaseModel):
    invitation_id: InvitationId
    event_id: EventId
    title: str
    start: str
    end: str
    organizer_id: PersonId
    organizer_name: str
    series_id: SeriesId | None
    response: ResponseStatus
    note: str | None
    conflicts: list[EventId] = Field(description="your other events, not declined, at the same time")


class InvitationList(BaseModel):
    invitations: list[Invitation]
    total: int
    invitations_text: str = Field(description="the invitations in words, a day said once, such as \"March 17: "
                                              "'Stand-up' from 9:30 AM to 9:45 AM (from Sebastian Bennett)\"")


class Interval(BaseModel):
    start: str
    end: str


class FreeBusy(BaseModel):
    person_id: PersonId
    name: str
    start: str
    end: str
    busy: list[Interval] = Field(description="merged busy periods inside the window, in order")
    total: int


class SlotList(BaseModel):
    slots: list[Interval] = Field(description="non-overlapping free slots of the requested length, earliest first")
    total: int = Field(description="how many such slots the window holds, before `limit`")
    duration_minutes: int
    people: list[PersonId] = Field(description="whose time was checked (the user too, when include_me)")
    slots_text: str = Field(description="when the slots start, a day said once, such as 'March 17 at 9:00 AM, "
                                        "9:30 AM and 2:00 PM; March 18 at 10:00 AM'")


class Reminder(BaseModel):
    reminder_id: ReminderId
    event_id: EventId
    event_title: str
    event_start: str
    minutes_before: int
    method: Literal["popup", "email"]
    fires_at: str


class ReminderList(BaseModel):
    reminders: list[Reminder]
    total: int
    reminders_text: str = Field(description="the reminders in words, such as \"15 minutes before 'Polaris design "
                                            "review' (March 17 at 12:00 PM); an email 1 day before 'Team retro' "
                                            "(March 19 at 4:00 PM)\"")


# ----- who, and what they may see -----------------------------------------------------------------

def me(ctx: Ctx) -> str:
    """The signed-in user's person ID."""
    return ctx.db.execute("SELECT person_id FROM people WHERE is_me = 1").fetchone()[0]


def person_rows(ctx: Ctx, person_ids: Iterable[str]) -> list[sqlite3.Row]:
    """The people with these IDs, in the order given, duplicates dropped."""
    return [ctx.get("person", pid) for pid in dict.fromkeys(person_ids)]


# A calendar the user can read: their own, or shared with them for reading or writing.
READABLE = ("SELECT calendar_id FROM calendars WHERE owner_id = :me UNION "
            "SELECT calendar_id FROM calendar_shares WHERE person_id = :me AND permission IN ('read', 'write')")

# Events the user can see, with their calendar, organizer and the user's own response.
VISIBLE_EVENTS = f"""
SELECT e.*, c.name AS calendar_name, o.name AS organizer_name,
       CASE WHEN e.organizer_id = :me THEN 'organizer' ELSE i.response END AS my_response
FROM events e
JOIN calendars c ON c.calendar_id = e.calendar_id
JOIN people o ON o.person_id = e.organizer_id
LEFT JOIN invitations i ON i.event_id = e.event_id AND i.person_id = :me
WHERE (e.calendar_id IN ({READABLE}) OR e.organizer_id = :me OR i.invitation_id IS NOT NULL)
"""


def calendar_access(ctx: Ctx, calendar_id: str) -> tuple[sqlite3.Row, str | None]:
    """A calendar and the user's access to it: 'owner', a share permission, or None."""
    row = ctx.get("calendar", calendar_id)
    user = me(ctx)
    if row["owner_id"] == user:
        return row, "owner"
    share = ctx.db.execute("SELECT permission FROM calendar_shares WHERE calendar_id = ? AND person_id = ?",
                           (calendar_id, user)).fetchone()
    return row, share["permission"] if share else None


def writable_calendar(ctx: Ctx, calendar_id: str) -> sqlite3.Row:
    """A calendar the user may add events to, or the ToolError saying why not."""
    row, access = calendar_access(ctx, calendar_id)
    if access in ("read", "free_busy"):
        raise ToolError("read_only_calendar", f"Calendar '{row['name']}' is shared with you without write access.",
                        hint="Create the event on one of your own calendars (list_calendars shows your access).")
    if access is None:
        raise ToolError("no_access", f"Calendar {calendar_id} is not shared with you.",
                        hint="Use a calendar from list_calendars.")
    return row


def visible_event(ctx: Ctx, event_id: str) -> sqlite3.Row:
    """An event the user can see (with calendar_name, organizer_name, my_response)."""
    row = ctx.db.execute(VISIBLE_EVENTS + " AND e.event_id = :event_id",
                         {"me": me(ctx), "event_id": event_id}).fetchone()
    if row is None:
        raise ToolError("not_found", f"No event {quote(event_id)} is on your calendars.",
                        hint="Find events with list_events or search_events; IDs look like 'EVT-10042'.")
    return row


def require_organizer(ctx: Ctx, event: sqlite3.Row) -> None:
    if event["organizer_id"] != me(ctx):
        raise ToolError("not_organizer", f"Only the organizer, {event['organizer_name']}, can change "
                        f"'{event['title']}'.", hint="You can respond to it with respond_to_invitation instead.")


def require_confirmed(event: sqlite3.Row) -> None:
    if event["status"] == "cancelled":
        raise ToolError("event_cancelled", f"'{event['title']}' on {event['starts_at']} is cancelled.")


def require_not_started(ctx: Ctx, event: sqlite3.Row) -> None:
    if event["starts_at"] < ctx.now_iso():
        raise ToolError("past_date", f"'{event['title']}' started at {event['starts_at']}; it is now "
                        f"{ctx.now_iso()} and past events cannot be changed.")


def upcoming_event(ctx: Ctx, event_id: str) -> sqlite3.Row:
    """A visible event that is confirmed and has not started: `not_found`, `event_cancelled`, `past_date`."""
    event = visible_event(ctx, event_id)
    require_confirmed(event)
    require_not_started(ctx, event)
    return event


def own_upcoming_event(ctx: Ctx, event_id: str) -> sqlite3.Row:
    """An upcoming event the user organizes: also `not_organizer`."""
    event = visible_event(ctx, event_id)
    require_organizer(ctx, event)
    require_confirmed(event)
    require_not_started(ctx, event)
    return event


def invite(ctx: Ctx, event_id: str, person_id: str) -> None:
    """Send a person an invitation to an event, awaiting their response."""
    ctx.db.execute("INSERT INTO invitations (invitation_id, event_id, person_id, response) "
                   "VALUES (?, ?, ?, 'needs_action')", (ctx.new_id("INV"), event_id, person_id))


# ----- times ---------------------------------------------------------------------------------------

def check_future(ctx: Ctx, start: datetime) -> None:
    if start < ctx.now():
        raise ToolError("past_date", f"{iso(start)} is in the past; it is now {ctx.now_iso()}.",
                        hint="Pick a time later than now.")


# ----- busy time -----------------------------------------------------------------------------------

# Confirmed busy events a person organizes or has not declined, overlapping [:start, :end).
BUSY_EVENTS = """
SELECT e.event_id, e.title, e.starts_at, e.ends_at FROM events e
WHERE e.status = 'confirmed' AND e.show_as = 'busy' AND e.starts_at < :end AND e.ends_at > :start
  AND (e.organizer_id = :person OR EXISTS (
       SELECT 1 FROM invitations i WHERE i.event_id = e.event_id AND i.person_id = :person
       AND i.response != 'declined'))
"""


def busy_events(ctx: Ctx, person_id: str, start: str, end: str, exclude: Sequence[str] = ()) -> list[sqlite3.Row]:
    """The events that make `person_id` busy between `start` and `end`, in time order."""
    rows = ctx.db.execute(BUSY_EVENTS + " ORDER BY e.starts_at, e.event_id",
                          {"person": person_id, "start": start, "end": end}).fetchall()
    return [r for r in rows if r["event_id"] not in exclude]


def busy_intervals(ctx: Ctx, person_id: str, start: str, end: str) -> list[tuple[str, str]]:
    """A person's busy time between `start` and `end`: merged, clipped to the window, in order."""
    spans = [(r["starts_at"], r["ends_at"]) for r in busy_events(ctx, person_id, start, end)]
    spans += [tuple(r) for r in ctx.db.execute(
        "SELECT starts_at, ends_at FROM busy_blocks WHERE person_id = ? AND starts_at < ? AND ends_at > ?",
        (person_id, end, start))]
    merged: list[list[str]] = []
    for s, e in sorted((max(s, start), min(e, end)) for s, e in spans):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [(s, e) for s, e in merged]


def require_free_busy(person: sqlite3.Row) -> None:
    if not person["is_colleague"]:
        raise ToolError("free_busy_unavailable", f"{person['name']} is an external contact; their calendar "
                        "is not visible to you.", hint="Only colleagues at your company share free/busy time.")


def check_double_booking(ctx: Ctx, start: datetime, end: datetime, allow_overlap: bool,
                         exclude: Sequence[str] = ()) -> None:
    """Refuse a time that overlaps the user's busy events unless the caller allows it."""
    if allow_overlap:
        return
    clashes = busy_events(ctx, me(ctx), iso(start), iso(end), exclude)
    if clashes:
        shown = "; ".join(f"'{r['title']}' ({r['event_id']}) {r['starts_at']} to {r['ends_at']}" for r in clashes[:3])
        raise ToolError("double_booking", f"{iso(start)} to {iso(end)} overlaps {len(clashes)} of your "
                        f"events: {shown}.", hint="Pick a free time (find_free_slots helps) or pass "
                        "allow_overlap=true to book it anyway.")


# ----- building results ----------------------------------------------------------------------------

VIDEO_PLACES = ("Zoom", "Google Meet", "Microsoft Teams")


def clock(at: datetime) -> str:
    return f"{at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"


def when_text(start: str, end: str, now: datetime) -> str:
    """'is on May 6 from 11:00 AM to 11:45 AM', 'was on ...' once it has ended, or 'is from May 6 at
    11:00 PM to May 7 at 1:00 AM'."""
    s, e = datetime.fromisoformat(start), datetime.fromisoformat(end)
    verb = "was" if e <= now else "is"
    today = now.date()
    if s.date() == e.date():
        return f"{verb} on {spoken_day(s.date(), today)} from {clock(s)} to {clock(e)}"
    return f"{verb} from {spoken_day(s.date(), today)} at {clock(s)} to {spoken_day(e.date(), today)} at {clock(e)}"


def place_text(location: str) -> str:
    """Where a meeting is, with the word a person puts before it: 'on Zoom', 'in Room 4C (Everest)',
    'at the Main office cafe', 'at Riverside Park'."""
    if location in VIDEO_PLACES:
        return f"on {location}"
    if location.startswith("Room "):
        return f"in {location}"
    words = location.split()
    named = len(words) > 1 and all(w[:1].isupper() for w in words)  # 'Riverside Park', not 'Main office cafe'
    return f"at {location}" if named else f"at the {location}"


def _some(names: list[str]) -> str:
    """'Ana Silva', 'Ana Silva and Bo Li', 'Ana Silva and 3 others'."""
    if len(names) <= 2:
        return " and ".join(names)
    return f"{names[0]} and {len(names) - 1} others"


_ANSWERS = (("accepted", "accepted"), ("tentative", "said maybe"), ("declined", "declined"),
            ("needs_action", "hasn't answered"))


def details_text(row: sqlite3.Row, attendees: list[Attendee], user: str) -> str:
    """"it's in Room 4C (Everest); Sebastian Bennett organizes it and you accepted; Adrian Lopez and 3
    others accepted, Alejandro Singh declined": the user is 'you', never one of the attendees by name."""
    parts = ["it's cancelled"] if row["status"] == "cancelled" else []
    if row["location"]:
        parts.append(f"it's {place_text(row['location'])}")
    mine = {"accepted": "you accepted", "tentative": "you said maybe", "declined": "you declined",
            "needs_action": "you haven't answered"}.get(row["my_response"] or "")
    if row["organizer_id"] == user:
        parts.append("you organize it")
    else:
        parts.append(f"{row['organizer_name']} organizes it" + (f" and {mine}" if mine else ""))
    others = [a for a in attendees if a.person_id not in (user, row["organizer_id"])]
    said = []
    for response, words in _ANSWERS:
        names = [a.name for a in others if a.response == response]
        if names:
            verb = words.replace("hasn't", "haven't") if len(names) > 1 else words
            said.append(f"{_some(names)} {verb}")
    parts.append(", ".join(said) if said else "nobody else is invited")
    return "; ".join(parts)


def by_day(entries: list[tuple[str, str, str]], total: int, today: date) -> str:
    """"March 17: 'Stand-up' from 9:30 AM to 9:45 AM, 'Atlas sync' from 2:00 PM to 3:00 PM; March 18: ... and 30
    more": (start, end, what) entries in time order, a day said once for what falls on it."""
    shown = entries if len(entries) <= 8 else entries[:6]
    days: dict[str, list[str]] = {}
    for start, end, what in shown:
        s, e = datetime.fromisoformat(start), datetime.fromisoformat(end)
        span = (f"from {clock(s)} to {clock(e)}" if s.date() == e.date()
                else f"from {clock(s)} to {spoken_day(e.date(), today)} at {clock(e)}")
        days.setdefault(spoken_day(s.date(), today), []).append(what.replace("{span}", span))
    text = "; ".join(f"{day}: {', '.join(items)}" for day, items in days.items()) or "none"
    return text + (f" and {total - len(shown)} more" if total > len(shown) else "")


def events_text(rows: list[sqlite3.Row], total: int, today: date) -> str:
    """"March 17: 'Stand-up' from 9:30 AM to 9:45 AM, 'Atlas sync' from 2:00 PM to 3:00 PM (you declined);
    March 18: 'Team retro' from 4:00 PM to 5:00 PM and 30 more", a day said once for its events."""
    def what(r: sqlite3.Row) -> str:
        notes = [n for n in ("cancelled" if r["status"] == "cancelled" else "",
                             "you declined" if r["my_response"] == "declined" else "") if n]
        return f"'{r['title']}' {{span}}" + (f" ({', '.join(notes)})" if notes else "")
    return by_day([(r["starts_at"], r["ends_at"], what(r)) for r in rows], total, today)


def summary(row: sqlite3.Row) -> EventSummary:
    return EventSummary(event_id=row["event_id"], calendar_id=row["calendar_id"], title=row["title"],
                        start=row["starts_at"], end=row["ends_at"], location=row["location"],
                        status=row["status"], organizer_name=row["organizer_name"], series_id=row["series_id"],
                        my_response=row["my_response"])


def event_model(ctx: Ctx, event_id: str) -> Event:
    """The full event, as the user sees it, with its attendees."""
    row = visible_event(ctx, event_id)
    attendees = [Attendee(**dict(a)) for a in ctx.db.execute(
        "SELECT p.person_id, p.name, p.email, i.response FROM invitations i "
        "JOIN people p ON p.person_id = i.person_id WHERE i.event_id = ? ORDER BY p.name", (event_id,))]
    return Event(event_id=row["event_id"], calendar_id=row["calendar_id"], calendar_name=row["calendar_name"],
                 title=row["title"], start=row["starts_at"], end=row["ends_at"], location=row["location"],
                 description=row["description"], status=row["status"], show_as=row["show_as"],
                 organizer_id=row["organizer_id"], organizer_name=row["organizer_name"],
                 series_id=row["series_id"], my_response=row["my_response"], attendees=attendees,
                 when_text=when_text(row["starts_at"], row["ends_at"], ctx.now()),
                 details_text=details_text(row, attendees, me(ctx)))


def invitation_model(ctx: Ctx, row: sqlite3.Row) -> Invitation:
    """The user's invitation to an event; `row` joins invitations, events and the organizer."""
    conflicts: list[str] = []
    if row["response"] != "declined":
        conflicts = [r["event_id"] for r in busy_events(ctx, me(ctx), row["starts_at"], row["ends_at"],
                                                        exclude=[row["event_id"]])]
    return Invitation(invitation_id=row["invitation_id"], event_id=row["event_id"], title=row["title"],
                      start=row["starts_at"], end=row["ends_at"], organizer_id=row["organizer_id"],
                      organizer_name=row["organizer_name"], series_id=row["series_id"],
                      response=row["response"], note=row["note"], conflicts=conflicts)


def series_targets(ctx: Ctx, event: sqlite3.Row, whole_series: bool) -> list[str]:
    """The event, or with `whole_series` it and its series' later confirmed occurrences."""
    if not whole_series or event["series_id"] is None:
        return [event["event_id"]]
    return [r[0] for r in ctx.db.execute(
        "SELECT event_id FROM events WHERE series_id = ? AND starts_at >= ? AND status = 'confirmed' "
        "ORDER BY starts_at", (event["series_id"], event["starts_at"]))]
