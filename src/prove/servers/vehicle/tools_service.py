"""Vehicle tools: service reminders, service appointments and the car's event log."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso, parse_time, spoken_day

from .server import (
    PLACE,
    AppointmentId,
    EventId,
    EventKind,
    Limit,
    PlaceId,
    ReminderId,
    log,
    place_label,
    reminder_status,
    vehicle,
)
from .world import BOOKING_DAYS_AHEAD, CANCEL_NOTICE, add_months

tools = Toolset("service")

ReminderStatus = Literal["overdue", "due_soon", "ok"]
Services = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Note = Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)]
ServiceCenterId = PLACE.where("category = 'service_center'")

# ----- models -------------------------------------------------------------------------------------


class ServiceReminder(BaseModel):
    reminder_id: ReminderId
    title: str
    status: ReminderStatus = Field(description="'overdue', 'due_soon' (within 30 days or 1,000 mi) or 'ok'")
    due_on: str | None
    due_odometer_mi: float | None
    miles_left: float | None = Field(description="miles until due by distance (negative: overdue)")
    days_left: int | None = Field(description="days until due by date (negative: overdue)")
    last_done_on: str
    last_done_odometer_mi: float
    interval_mi: int | None
    interval_months: int | None


class ServiceReminderList(BaseModel):
    service_reminders: list[ServiceReminder]
    total: int
    reminders_text: str = Field(description="when each item is due, in words, such as 'the engine oil and filter "
                                            "change is due soon: by March 28 or at 30,016 miles (8,114 miles from "
                                            "now)'")


class Appointment(BaseModel):
    appointment_id: AppointmentId
    place_id: PlaceId
    service_center: str
    address: str
    scheduled_for: str
    services: str
    note: str | None
    status: Literal["booked", "completed", "cancelled"]
    created_at: str


class AppointmentList(BaseModel):
    service_appointments: list[Appointment]
    total: int
    appointments_text: str = Field(description="the appointments in words, such as '1 service appointment: Tire "
                                               "rotation at Hyundai of Chicago on March 18 at 9:00 AM'")


class Event(BaseModel):
    event_id: EventId
    occurred_at: str
    kind: EventKind
    message: str


class EventList(BaseModel):
    events: list[Event]
    total: int = Field(description="how many events matched, before `limit`")
    events_text: str = Field(description="the latest events in words, such as '2 alerts: Low tyre pressure: front "
                                         "left tyre, on March 16 at 7:49 AM; ...'")


def _events_text(events: list[Event], total: int, kind: str | None, shown: int = 5) -> str:
    noun = "alert" if kind == "alert" else "event"
    if not events:
        return f"no {noun}s"
    said = []
    for e in events[:shown]:
        at = datetime.fromisoformat(e.occurred_at)
        said.append(f"{e.message}, on {at:%B} {at.day} at {at.hour % 12 or 12}:{at.minute:02d} "
                    f"{'AM' if at.hour < 12 else 'PM'}")
    head = f"{total} {noun}{'' if total == 1 else 's'}" + (f", the latest {len(said)}" if total > len(said) else "")
    return f"{head}: " + "; ".join(said)


# ----- helpers ------------------------------------------------------------------------------------


def _due_words(r: ServiceReminder, today: date) -> str:
    """'the tire rotation is due soon: by March 28 or at 30,016 miles (8,114 miles from now)', 'the
    brake fluid replacement is overdue: it was due on March 2'."""
    what = "the " + r.title[:1].lower() + r.title[1:]
    day = spoken_day(r.due_on, today) if r.due_on else None
    miles = f"{r.due_odometer_mi:,.0f} miles" if r.due_odometer_mi is not None else None
    if r.status == "overdue":
        late = [f"on {day}" for _ in [1] if r.days_left is not None and r.days_left < 0] + \
               [f"at {miles} ({-r.miles_left:,.0f} miles ago)" for _ in [1] if r.miles_left is not None
                and r.miles_left < 0]
        return f"{what} is overdue: it was due " + " and ".join(late)
    due = " or ".join(([f"by {day}"] if day else []) + ([f"at {miles} ({r.miles_left:,.0f} miles from now)"]
                                                         if miles else []))
    return f"{what} is {'due soon' if r.status == 'due_soon' else 'due'}: {due}"


def _reminders_text(items: list[ServiceReminder], today: date, listed_all: bool) -> str:
    """Each item due or overdue in words; on a full listing, the rest as not due yet."""
    due = [_due_words(r, today) for r in items if r.status != "ok" or not listed_all]
    rest = [r.title[:1].lower() + r.title[1:] for r in items if r.status == "ok" and listed_all]
    later = ("nothing else is due yet" if len(rest) > 1 and due else "nothing is due yet") if rest else ""
    if rest and len(rest) <= 3:
        later += f" (the {', the '.join(rest[:-1]) + ' and the ' if len(rest) > 1 else ''}{rest[-1]})"
    return "; ".join(due + ([later] if later else []))


def _reminder(ctx: Ctx, r: sqlite3.Row, car: sqlite3.Row) -> ServiceReminder:
    return ServiceReminder(
        reminder_id=r["reminder_id"], title=r["title"], status=reminder_status(ctx, r, car), due_on=r["due_on"],
        due_odometer_mi=r["due_odometer"],
        miles_left=round(r["due_odometer"] - car["odometer_mi"], 1) if r["due_odometer"] is not None else None,
        days_left=(date.fromisoformat(r["due_on"]) - ctx.today()).days if r["due_on"] else None,
        last_done_on=r["last_done_on"], last_done_odometer_mi=r["last_done_odometer"], interval_mi=r["interval_mi"],
        interval_months=r["interval_months"])


def _appointment(ctx: Ctx, a: sqlite3.Row) -> Appointment:
    p = ctx.get("place", a["place_id"])
    return Appointment(appointment_id=a["appointment_id"], place_id=a["place_id"], service_center=p["name"],
                       address=p["address"], scheduled_for=a["scheduled_for"], services=a["services"], note=a["note"],
                       status=a["status"], created_at=a["created_at"])


# ----- reminders ----------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "Is any maintenance due on the car?",
    Ask("What maintenance is overdue on the car?", status="overdue"),
    Ask("Is any service coming up soon?", status="due_soon"),
], reply=[
    "{result.reminders_text}.",
])
def list_service_reminders(ctx: Ctx, status: ReminderStatus | None = None) -> ServiceReminderList:
    """List maintenance reminders (tyre rotation, oil change, filters, brake fluid, ...) and when each is due.

    Args:
        status: only reminders that are 'overdue', 'due_soon' or 'ok'.

    Returns:
        The reminders (title, status, due date and mileage, miles and days left, when last done,
        interval) and how many there are.
    """
    car = vehicle(ctx)
    items = [_reminder(ctx, r, car) for r in ctx.db.execute("SELECT * FROM service_reminders ORDER BY reminder_id")]
    if status is not None:
        items = [i for i in items if i.status == status]
    return ServiceReminderList(service_reminders=items, total=len(items),
                               reminders_text=_reminders_text(items, ctx.today(), status is None))


@tools.tool(effect=WRITE, asks=[
    "I had {reminder_id} done myself, mark it as done.",
    "Mark {reminder_id} as done.",
    "{reminder_id} is taken care of; record it.",
], reply=["Recorded {reminder_id} as done today at the current mileage.",
          "Done: {reminder_id} is marked done and its next due date moved on."])
def mark_service_done(ctx: Ctx, reminder_id: ReminderId) -> ServiceReminder:
    """Record that a maintenance item was done today at the current mileage; its next due date and mileage move on.

    Args:
        reminder_id: ID of the reminder, such as 'SRV-10001'.

    Returns:
        The reminder with its new due date and mileage.

    Raises:
        not_found: no reminder has that ID.
        not_due: the item is not due yet (more than 30 days and 1,000 miles away).
    """
    r = ctx.get("service_reminder", reminder_id)
    car = vehicle(ctx)
    if reminder_status(ctx, r, car) == "ok":
        raise ToolError("not_due", f"'{r['title']}' is not due yet.",
                        hint="Only overdue or soon-due items can be marked done; see list_service_reminders.")
    today = ctx.today()
    odo = round(car["odometer_mi"], 0)
    ctx.db.execute("UPDATE service_reminders SET last_done_on = ?, last_done_odometer = ?, due_on = ?, "
                   "due_odometer = ? WHERE reminder_id = ?",
                   (today.isoformat(), odo, add_months(today, r["interval_months"]).isoformat()
                    if r["interval_months"] else None, odo + r["interval_mi"] if r["interval_mi"] else None,
                    reminder_id))
    log(ctx, "service", f"Service item done: {r['title']}")
    return _reminder(ctx, ctx.get("service_reminder", reminder_id), vehicle(ctx))


# ----- appointments -------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    Ask("Do I have a service appointment coming up?", status="booked"),
    Ask("Show my past service visits.", status="completed"),
    Ask("Which service appointments did I cancel?", status="cancelled"),
    "List all my service appointments.",
], reply=[
    "You have {result.appointments_text}.",
    Ask("You've had {result.appointments_text}.", status="completed"),
    Ask("You cancelled {result.appointments_text}.", status="cancelled"),
])
def list_service_appointments(ctx: Ctx, status: Literal["booked", "completed", "cancelled"] | None = None
                              ) -> AppointmentList:
    """List service appointments at service centres, newest first.

    Args:
        status: only 'booked', 'completed' or 'cancelled' appointments.

    Returns:
        The appointments (service centre, address, time, services, note, status) and how many there are.
    """
    if status is None:
        rows = ctx.db.execute("SELECT * FROM service_appointments ORDER BY scheduled_for DESC").fetchall()
    else:
        rows = ctx.db.execute("SELECT * FROM service_appointments WHERE status = ? ORDER BY scheduled_for DESC",
                              (status,)).fetchall()
    found = [_appointment(ctx, r) for r in rows]
    return AppointmentList(service_appointments=found, total=len(rows),
                           appointments_text=_appointments_text(found, status is None, ctx.now().year,
                                                                "service visit" if status == "completed"
                                                                else "service appointment"))


def _appointments_text(found: list[Appointment], say_status: bool, year: int, noun: str) -> str:
    """'2 service appointments: Tire rotation at Hyundai of Chicago on March 18 at 9:00 AM (booked); ...'."""
    said = []
    for a in found[:5]:
        at = datetime.fromisoformat(a.scheduled_for)
        day = f"{at:%B} {at.day}" + (f", {at.year}," if at.year != year else "")
        said.append(f"{a.services} at {a.service_center} on {day} at {at.hour % 12 or 12}:{at.minute:02d} "
                    f"{'AM' if at.hour < 12 else 'PM'}" + (f" ({a.status})" if say_status else ""))
    more = f"; and {len(found) - len(said)} more" if len(found) > len(said) else ""
    head = f"{len(found)} {noun}{'' if len(found) == 1 else 's'}"
    return f"{head}: " + "; ".join(said) + more if said else f"no {noun}s"


@tools.tool(effect=WRITE, values={
    "services": ["Oil change", "Tire rotation", "Tire rotation and oil change", "Brake inspection", "Annual service",
                 "Cabin air filter replacement", "Battery check", "Wheel alignment"],
    "note": ["Squeak from the front left brake", "Check engine light came on yesterday", "I'll wait at the dealership",
             "Please wash the car if there is time", "Rattle from the rear at highway speed",
             "Low tyre warning keeps coming back", "I need a loaner car", "The air conditioning smells musty"],
}, asks=[
    "Book a service at {place_id} on {scheduled_for}: {services}.",
    "Can you get me an appointment at {place_id} on {scheduled_for}? I need: {services}.",
    "Book {place_id} for {scheduled_for} ({services}) and tell the technician: {note}",
], reply=["You're booked at {result.service_center} on {scheduled_for} ({services}).",
          "Done: {result.service_center} expects the car on {scheduled_for} ({services})."])
def book_service_appointment(ctx: Ctx, place_id: ServiceCenterId, scheduled_for: str, services: Services,
                             note: Note | None = None) -> Appointment:
    """Book a visit at a service centre, on the hour or half hour within its opening hours.

    Service centres open Monday to Friday 7:30-17:00 (last appointment 16:00) and Saturday
    8:00-12:00 (last 11:00); closed Sunday. One open appointment at a time.

    Args:
        place_id: ID of a service centre, such as 'PLC-10035' (search_places with category 'service_center').
        scheduled_for: local start time, such as '2026-03-19T09:30:00'.
        services: what should be done, such as 'Tire rotation and oil change'.
        note: a note for the technician, such as 'Squeak from the front left brake'.

    Returns:
        The booked appointment with its ID.

    Raises:
        not_found: no place has that ID.
        not_a_service_center: the place is not a service centre.
        past_date: the time is not in the future.
        too_far_ahead: the time is more than 90 days ahead.
        invalid_time: `scheduled_for` is not an ISO 8601 local time.
        outside_hours: the time is not on the hour or half hour within opening hours.
        appointment_exists: an appointment is already booked.
    """
    p = ctx.get("place", place_id)
    if p["category"] != "service_center":
        raise ToolError("not_a_service_center", f"{place_label(p)} is not a service centre.",
                        hint="Call search_places with category 'service_center'.")
    at = parse_time(scheduled_for, "scheduled_for")
    if at <= ctx.now():
        raise ToolError("past_date", f"{iso(at)} is not in the future.", hint="Choose a later time.")
    if at > ctx.now() + timedelta(days=BOOKING_DAYS_AHEAD):
        raise ToolError("too_far_ahead", f"Appointments can be booked at most {BOOKING_DAYS_AHEAD} days ahead.",
                        hint="Choose an earlier day.")
    minutes = at.hour * 60 + at.minute
    weekday = at.weekday()
    opening = (450, 960) if weekday < 5 else (480, 660) if weekday == 5 else None
    if opening is None or at.minute not in (0, 30) or at.second or not opening[0] <= minutes <= opening[1]:
        raise ToolError("outside_hours", f"{iso(at)} is not a bookable time.",
                        hint="Mon-Fri 7:30-16:00 or Sat 8:00-11:00, on the hour or half hour; closed Sunday.")
    booked = ctx.db.execute("SELECT appointment_id, scheduled_for FROM service_appointments WHERE status = 'booked'"
                            ).fetchone()
    if booked:
        raise ToolError("appointment_exists", f"Appointment {booked[0]} is already booked for {booked[1]}.",
                        hint="Cancel it with cancel_service_appointment first, or keep it.")
    appointment_id = ctx.new_id("APT")
    ctx.db.execute("INSERT INTO service_appointments (appointment_id, place_id, scheduled_for, services, note, status, "
                   "created_at) VALUES (?, ?, ?, ?, ?, 'booked', ?)",
                   (appointment_id, place_id, iso(at), services, note or None, ctx.now_iso()))
    log(ctx, "service", f"Service booked at {p['name']} for {iso(at)}")
    return _appointment(ctx, ctx.get("service_appointment", appointment_id))


@tools.tool(effect=WRITE, asks=[
    "Cancel {appointment_id}.",
    "I can't make it to {appointment_id}, please cancel it.",
], reply=["{appointment_id} is cancelled.", "Done: I've cancelled {appointment_id} at {result.service_center}."])
def cancel_service_appointment(ctx: Ctx, appointment_id: AppointmentId) -> Appointment:
    """Cancel a booked service appointment, at least two hours before it starts.

    Args:
        appointment_id: ID of the appointment, such as 'APT-10004'.

    Returns:
        The appointment, now cancelled.

    Raises:
        not_found: no appointment has that ID.
        not_cancellable: the appointment is completed or already cancelled.
        too_late: it starts in less than two hours (or has started).
    """
    a = ctx.get("service_appointment", appointment_id)
    if a["status"] != "booked":
        raise ToolError("not_cancellable", f"Appointment {appointment_id} is {a['status']}.", hint="Nothing to cancel.")
    if datetime.fromisoformat(a["scheduled_for"]) - ctx.now() < CANCEL_NOTICE:
        raise ToolError("too_late", f"Appointment {appointment_id} starts at {a['scheduled_for']}; it can no longer "
                        "be cancelled online.", hint="Call the service centre directly.")
    ctx.db.execute("UPDATE service_appointments SET status = 'cancelled' WHERE appointment_id = ?", (appointment_id,))
    log(ctx, "service", f"Service appointment {appointment_id} cancelled")
    return _appointment(ctx, ctx.get("service_appointment", appointment_id))


# ----- events -------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What has the car been up to since {since}?",
    "Show me the recent {kind} events of the car.",
    Ask("Were there any alerts from the car?", kind="alert"),
], reply=[
    "The car logged {result.events_text}.",
])
def list_events(ctx: Ctx, kind: EventKind | None = None, since: str | None = None,
                limit: Limit = 30) -> EventList:
    """Read the car's event log, newest first: locking, charging, refuelling, alerts, drives, updates, commands,
    destinations sent to the car.

    Args:
        kind: only events of this kind: 'lock', 'charging', 'fuel', 'alert', 'software', 'drive',
            'climate', 'command', 'valet', 'service' or 'navigation'.
        since: only events at or after this time, such as '2026-03-15T00:00:00'.
        limit: at most this many events (1-200, default 30).

    Returns:
        The events (ID, time, kind, message), newest first, and how many matched.

    Raises:
        invalid_time: `since` is not an ISO 8601 local time.
    """
    where = Where()
    where.eq("kind", kind)
    if since is not None:
        where.add("occurred_at >= ?", iso(parse_time(since, "since")))
    total, rows = where.page(ctx.db, "events", "occurred_at DESC, event_id DESC", limit)
    events = [Event(event_id=r[0], occurred_at=r[1], kind=r[2], message=r[3]) for r in rows]
    return EventList(events=events, total=total, events_text=_events_text(events, total, kind))
