"""Calendars: list the user's calendars, create one, share one with a person."""

from __future__ import annotations

import sqlite3

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset

from .server import (
    Calendar,
    CalendarList,
    CalendarShare,
    Note,
    OwnCalendarId,
    Permission,
    PersonId,
    Share,
    Title,
    calendar_access,
    me,
    person_rows,
)

tools = Toolset("calendars")

# Calendars the user owns or that are shared with them, with the user's access.
MY_CALENDARS = """
SELECT c.*, o.name AS owner_name,
       CASE WHEN c.owner_id = :me THEN 'owner' ELSE s.permission END AS access
FROM calendars c
JOIN people o ON o.person_id = c.owner_id
LEFT JOIN calendar_shares s ON s.calendar_id = c.calendar_id AND s.person_id = :me
WHERE (c.owner_id = :me OR s.person_id IS NOT NULL)
"""


def _calendar(ctx: Ctx, row: sqlite3.Row) -> Calendar:
    shares: list[Share] = []
    if row["access"] == "owner":
        shares = [Share(**dict(s)) for s in ctx.db.execute(
            "SELECT p.person_id, p.name, p.email, s.permission FROM calendar_shares s "
            "JOIN people p ON p.person_id = s.person_id WHERE s.calendar_id = ? ORDER BY p.name",
            (row["calendar_id"],))]
    return Calendar(calendar_id=row["calendar_id"], name=row["name"], description=row["description"],
                    owner_id=row["owner_id"], owner_name=row["owner_name"], access=row["access"],
                    is_primary=bool(row["is_primary"]), shared_with=shares)


@tools.tool(effect=READ, asks=[
    "Which calendars do I have?",
    "Show me all my calendars, including the ones people shared with me.",
], reply=[
    "You have {result.total} calendars: {result.calendars.name}.",
])
def list_calendars(ctx: Ctx) -> CalendarList:
    """List the calendars the user owns and the calendars others have shared with them.

    Returns:
        Each calendar with its ID, name, owner, the user's access ('owner', 'write', 'read' or
        'free_busy'), whether it is the owner's primary calendar, and, for calendars the user
        owns, who it is shared with; own calendars first.
    """
    rows = ctx.db.execute(MY_CALENDARS + " ORDER BY c.owner_id != :me, c.is_primary DESC, c.name",
                          {"me": me(ctx)}).fetchall()
    return CalendarList(calendars=[_calendar(ctx, r) for r in rows], total=len(rows))


@tools.tool(effect=WRITE, asks=[
    "Make me a new calendar called '{name}'.",
    "Create a calendar named '{name}', described as: {description}",
    "I'd like a separate calendar, '{name}'.",
], reply=[
    "Created your new calendar '{result.name}'.",
    "Done: the '{name}' calendar is ready for events.",
], values={
    # a calendar's description says what its name is for
    "name, description": [
        ("Book club", "Monthly meetups and reading deadlines"),
        ("Side project", "Evenings and weekends only"),
        ("Kids' activities", "School events, practices and pickups"),
        ("Training plan", "Runs, rides and gym sessions"),
        ("On-call rotation", "Who is on call, week by week"),
        ("Travel", "Flights, hotels and trip plans"),
        ("Volunteering", "Food bank shifts and charity runs"),
        ("Home renovation", "Contractor visits, deliveries and inspections"),
    ],
})
def create_calendar(ctx: Ctx, name: Title, description: Note | None = None) -> Calendar:
    """Create a new calendar owned by the user.

    Args:
        name: the calendar's name, unique among the user's calendars, such as 'Book club'.
        description: optional one-line purpose, such as 'Monthly meetups and reading deadlines'.

    Returns:
        The new calendar with its ID; it starts empty and shared with nobody.

    Raises:
        duplicate_name: the user already owns a calendar with that name (ignoring case).
    """
    user = me(ctx)
    clash = ctx.db.execute("SELECT calendar_id FROM calendars WHERE owner_id = ? AND lower(name) = lower(?)",
                           (user, name)).fetchone()
    if clash:
        raise ToolError("duplicate_name", f"You already have a calendar named {name!r} ({clash[0]}).",
                        hint="Choose another name, or use the existing calendar.")
    calendar_id = ctx.new_id("CAL")
    ctx.db.execute("INSERT INTO calendars (calendar_id, owner_id, name, description, is_primary) "
                   "VALUES (?, ?, ?, ?, 0)", (calendar_id, user, name, description or None))
    row = ctx.db.execute(MY_CALENDARS + " AND c.calendar_id = :cid", {"me": user, "cid": calendar_id}).fetchone()
    return _calendar(ctx, row)


@tools.tool(effect=WRITE, asks=[
    Ask("Let {person_id} see the events on {calendar_id}.", permission="read"),
    Ask("Give {person_id} edit access to {calendar_id}.", permission="write"),
    Ask("Share only my free/busy times on {calendar_id} with {person_id}.", permission="free_busy"),
    Ask("{person_id} should be able to add events to {calendar_id}; please share it.", permission="write"),
], reply=[
    Ask("Shared {calendar_id} with {person_id}; they can see its events but not change them.", permission="read"),
    Ask("Done: {result.person_name} can now read the events on {calendar_id}.", permission="read"),
    Ask("Shared {calendar_id} with {person_id}; they can add and edit events on it.", permission="write"),
    Ask("Done: {result.person_name} now has edit access to {calendar_id}.", permission="write"),
    Ask("Shared {calendar_id} with {person_id}; they see only when you're busy, no event details.",
        permission="free_busy"),
    Ask("Done: {result.person_name} can see your free/busy times on {calendar_id}, nothing more.",
        permission="free_busy"),
])
def share_calendar(ctx: Ctx, calendar_id: OwnCalendarId, person_id: PersonId, permission: Permission) -> CalendarShare:
    """Share a calendar the user owns with a person, or change the access they already have.

    Permissions: 'free_busy' shows only when the user is busy, 'read' shows every event's
    details, 'write' also lets the person add and change events.

    Args:
        calendar_id: ID of a calendar the user owns, such as 'CAL-10040'.
        person_id: ID of the person to share with, such as 'PER-10007' (find it with search_people).
        permission: the access to grant: 'free_busy', 'read' or 'write'.

    Returns:
        The share: calendar, person, the permission now granted and the one they had before (if any).

    Raises:
        not_found: the calendar or the person does not exist.
        not_owner: the calendar belongs to someone else; only its owner can share it.
        already_owner: the person owns the calendar (you cannot share a calendar with its owner).
    """
    calendar, access = calendar_access(ctx, calendar_id)
    (person,) = person_rows(ctx, [person_id])
    if access != "owner":
        raise ToolError("not_owner", f"Calendar '{calendar['name']}' belongs to someone else; only its owner "
                        "can share it.", hint="Share one of the calendars you own (list_calendars).")
    if person_id == calendar["owner_id"]:
        raise ToolError("already_owner", f"{person['name']} owns calendar '{calendar['name']}'.")
    before = ctx.db.execute("SELECT permission FROM calendar_shares WHERE calendar_id = ? AND person_id = ?",
                            (calendar_id, person_id)).fetchone()
    # Not an UPSERT: the framework's change-tracking triggers fail inside its DO UPDATE branch.
    if before:
        ctx.db.execute("UPDATE calendar_shares SET permission = ? WHERE calendar_id = ? AND person_id = ?",
                       (permission, calendar_id, person_id))
    else:
        ctx.db.execute("INSERT INTO calendar_shares (calendar_id, person_id, permission) VALUES (?, ?, ?)",
                       (calendar_id, person_id, permission))
    return CalendarShare(calendar_id=calendar_id, calendar_name=calendar["name"], person_id=person_id,
                         person_name=person["name"], email=person["email"], permission=permission,
                         previous_permission=before[0] if before else None)
