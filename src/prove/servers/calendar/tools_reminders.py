"""Reminders: notifications the user sets before their events."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, said_in_part, spoken_day

from .server import (
    EventId,
    Limit,
    Reminder,
    ReminderId,
    ReminderList,
    clock,
    upcoming_event,
    visible_event,
)

tools = Toolset("reminders")

MAX_REMINDERS = 5  # per event

REMINDERS = """
SELECT r.reminder_id, r.event_id, e.title AS event_title, e.starts_at AS event_start, r.minutes_before, r.method
FROM reminders r JOIN events e ON e.event_id = r.event_id
"""


def _reminder(row: sqlite3.Row) -> Reminder:
    fires = datetime.fromisoformat(row["event_start"]) - timedelta(minutes=row["minutes_before"])
    return Reminder(**dict(row), fires_at=iso(fires))


@tools.tool(effect=WRITE, asks=[
    "Remind me {minutes_before} minutes before {event_id}.",
    Ask("Email me {minutes_before} minutes ahead of {event_id}.", method="email"),
    Ask("Pop up a reminder {minutes_before} minutes before {event_id}.", method="popup"),
], reply=[
    "I'll remind you {minutes_before} minutes before '{result.event_title}', at {result.fires_at}.",
    "Done: a {result.method} reminder is set for {event_id}.",
])
def add_reminder(ctx: Ctx, event_id: EventId, minutes_before: Annotated[int, Field(ge=0, le=40320)],
                 method: Literal["popup", "email"] = "popup") -> Reminder:
    """Add a reminder for an upcoming event on the user's calendars.

    Args:
        event_id: ID of the event, such as 'EVT-10042'.
        minutes_before: how long before the start to remind, 0 to 40320 (4 weeks), such as 15
            (1440 is one day).
        method: 'popup' (default) or 'email'.

    Returns:
        The reminder with its ID and when it fires.

    Raises:
        not_found: no event with that ID is visible to the user.
        event_cancelled: the event is cancelled.
        past_date: the event has already started.
        duplicate_reminder: the event already has a reminder with the same time and method.
        too_many_reminders: the event already has 5 reminders.
    """
    event = upcoming_event(ctx, event_id)
    existing = ctx.db.execute("SELECT minutes_before, method FROM reminders WHERE event_id = ?",
                              (event_id,)).fetchall()
    if (minutes_before, method) in [tuple(r) for r in existing]:
        raise ToolError("duplicate_reminder", f"'{event['title']}' already has a {method} reminder "
                        f"{minutes_before} minutes before.", hint="list_reminders shows the event's reminders.")
    if len(existing) >= MAX_REMINDERS:
        raise ToolError("too_many_reminders", f"'{event['title']}' already has {MAX_REMINDERS} reminders.",
                        hint="Delete one with delete_reminder first.")
    reminder_id = ctx.new_id("REM")
    ctx.db.execute("INSERT INTO reminders (reminder_id, event_id, minutes_before, method) VALUES (?, ?, ?, ?)",
                   (reminder_id, event_id, minutes_before, method))
    return _reminder(ctx.db.execute(REMINDERS + " WHERE r.reminder_id = ?", (reminder_id,)).fetchone())


@tools.tool(effect=READ, asks=[
    "What reminders have I set?",
    Ask("Which reminders are on {event_id}?", fits={"event_id": "event_id IN (SELECT event_id FROM reminders)"}),
], reply=[
    # One reminder is said as one, not as "event start ..., 15 minutes before, method popup, fires ...".
    Ask("{event_id} has one reminder: a {result.reminders.method} {result.reminders.minutes_before} minutes before "
        "it starts.", **{"result.total": 1}),
    Ask("You have one reminder: a {result.reminders.method} {result.reminders.minutes_before} minutes before "
        "'{result.reminders.event_title}'.", event_id=None, **{"result.total": 1}),
    Ask("You have {result.total} reminders: {result.reminders_text}.", event_id=None),
    "{event_id} has {result.total} reminders: {result.reminders_text}.",
])
def list_reminders(ctx: Ctx, event_id: EventId | None = None, limit: Limit = 50) -> ReminderList:
    """List the user's reminders: for one event, or for every event that has not started yet.

    Args:
        event_id: only this event's reminders, such as 'EVT-10042'; omit for all upcoming events.
        limit: the most reminders to return, from 1 to 100, such as 50.

    Returns:
        The reminders (ID, event, minutes before, method, when it fires), in firing order,
        and how many there are in total.

    Raises:
        not_found: `event_id` is given and no event with that ID is visible to the user.
    """
    if event_id is not None:
        visible_event(ctx, event_id)
        rows = ctx.db.execute(REMINDERS + " WHERE r.event_id = ?", (event_id,)).fetchall()
    else:
        rows = ctx.db.execute(REMINDERS + " WHERE e.starts_at >= ?", (ctx.now_iso(),)).fetchall()
    reminders = sorted((_reminder(r) for r in rows), key=lambda r: (r.fires_at, r.reminder_id))
    today = ctx.today()

    def one(r: Reminder) -> str:
        lead = _lead(r.minutes_before)
        start = datetime.fromisoformat(r.event_start)
        what = f"an email {lead}" if r.method == "email" else lead
        return f"{what} before '{r.event_title}' ({spoken_day(start.date(), today)} at {clock(start)})"
    shown = reminders[:limit] if len(reminders[:limit]) <= 8 else reminders[:6]
    return ReminderList(reminders=reminders[:limit], total=len(reminders),
                        reminders_text=said_in_part([one(r) for r in shown], len(reminders), "none"))


def _lead(minutes: int) -> str:
    """'15 minutes', '2 hours', '1 day': a lead time in the largest unit it fills whole."""
    for size, unit in ((1440, "day"), (60, "hour")):
        if minutes and minutes % size == 0:
            n = minutes // size
            return f"{n} {unit}{'' if n == 1 else 's'}"
    return f"{minutes} minute{'' if minutes == 1 else 's'}"


@tools.tool(effect=WRITE, asks=[
    "Delete {reminder_id}.",
    "I don't need {reminder_id} anymore; remove it.",
], reply=[
    "Deleted the reminder for '{result.event_title}'.",
    "Done: you won't be reminded of '{result.event_title}' {result.minutes_before} minutes ahead.",
])
def delete_reminder(ctx: Ctx, reminder_id: ReminderId) -> Reminder:
    """Delete one of the user's reminders.

    Args:
        reminder_id: ID of the reminder, such as 'REM-10003' (list_reminders shows them).

    Returns:
        The reminder that was deleted.

    Raises:
        not_found: no reminder has that ID.
    """
    ctx.get("reminder", reminder_id)
    row = ctx.db.execute(REMINDERS + " WHERE r.reminder_id = ?", (reminder_id,)).fetchone()
    ctx.db.execute("DELETE FROM reminders WHERE reminder_id = ?", (reminder_id,))
    return _reminder(row)
