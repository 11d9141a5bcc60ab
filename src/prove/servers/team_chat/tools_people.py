"""People: the workspace directory and the user's status."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso, like, said_in_part

from .server import (
    Emoji,
    Limit,
    Query,
    StatusColleagueId,
    User,
    UserList,
    me,
    normalize_emoji,
    user_model,
)

tools = Toolset("people")

StatusText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]


@tools.tool(effect=READ, asks=[
    "Who is {query} on chat?",
    "Find {query}'s handle so I can mention them.",
    "List everyone in the workspace.",
    Ask("List everyone, deactivated accounts included.", include_deactivated=True),
    Ask("List everyone in the workspace, Slackbot and PagerDuty included.", include_bots=True),
], reply=[
    # "Find Adrian's handle" is answered with the handle; "Who is Adrian?" with who they are.
    Ask("There are {result.total} people in the workspace: {result.users_text}.", query=None),
    "{result.handles_text}.",
    "I found {result.total} people matching '{query}': {result.users_text}.",
])
def list_users(ctx: Ctx, query: Query | None = None, include_deactivated: bool = False, include_bots: bool = False,
               limit: Limit = 50) -> UserList:
    """List people in the workspace by name, optionally matching part of a name, handle, title or email.

    Args:
        query: text to look for, case-insensitively, such as 'lopez' or 'designer'.
        include_deactivated: also list deactivated accounts, such as true; default false.
        include_bots: also list bots such as Slackbot, such as true; default false.
        limit: the most people to return, from 1 to 100, such as 50.

    Returns:
        The people (ID, handle, name, title, email, timezone, admin, status) and how many matched.
    """
    where = Where()
    if not include_deactivated:
        where.add("is_active = 1")
    if not include_bots:
        where.add("is_bot = 0")
    if query is not None:
        where.add("(lower(name) LIKE ? ESCAPE '\\' OR handle LIKE ? ESCAPE '\\' OR lower(coalesce(title, '')) "
                  "LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\')", *[like(query.lstrip("@") or query)] * 4)
    rows = ctx.db.execute(f"SELECT * FROM users WHERE {where.sql} ORDER BY name, user_id", where.params).fetchall()
    users = [user_model(r) for r in rows[:limit]]
    shown = users if len(users) <= 8 else users[:6]
    def who(u: User) -> str:
        notes = [w for w in ("a bot" if u.is_bot else "", "deactivated" if not u.is_active else "") if w]
        return (f"{u.name}, {u.title}" if u.title and not u.is_bot else u.name) + f" (@{u.handle}" \
            + "".join(f", {n}" for n in notes) + ")"
    return UserList(users=users, total=len(rows), users_text=said_in_part([who(u) for u in shown], len(rows), "nobody"),
                    handles_text=said_in_part([f"{u.name} is @{u.handle}" for u in shown], len(rows), "nobody"))


@tools.tool(effect=READ, asks=[
    "Is {user_id} around today? What's their status?",
    "Show me {user_id}'s profile.",
], reply=[
    # The generic summary leaves the status out, which is what the first question asks; the
    # title is what a profile is looked at for.
    "{result.name} ({result.title}, @{result.handle}): the status says '{result.status_text}' until "
    "{result.status_expires_at}.",
    "{result.name}, {result.title} (@{result.handle}, {result.timezone}), has set the status '{result.status_text}'.",
    "Here's {result.name}: {result.title}, @{result.handle}, time zone {result.timezone}; status right now: "
    "{result.status_text}.",
])
def get_user(ctx: Ctx, user_id: StatusColleagueId) -> User:
    """Get one person's profile and current status.

    Args:
        user_id: ID of the person, such as 'USR-10004'.

    Returns:
        The person's handle, name, title, email, timezone, roles and status (text, emoji, until when).

    Raises:
        not_found: no user has that ID.
    """
    return user_model(ctx.get("user", user_id))


@tools.tool(effect=WRITE, asks=[
    "Set my status to '{text}'.",
    "Set my status to '{text}' for {duration_minutes} minutes.",
    "Change my status to {text} with the :{emoji}: emoji.",
], reply=[
    "Your status is now '{text}'.",
    "Done: your status reads :{result.status_emoji}: {text}.",
], values={
    # A status, its emoji and how long it lasts belong together (not 'Out sick' with :pizza:).
    "text, emoji, duration_minutes": [
        ("In a meeting", "spiral_calendar_pad", 60), ("Out sick", "face_with_thermometer", 480),
        ("On vacation", "palm_tree", 10_080), ("Commuting", "bus", 45), ("Focusing", "headphones", 120),
        ("Working remotely", "house_with_garden", 480), ("At lunch", "pizza", 45),
        ("Out of office until Monday", "airplane", 4_320),
    ],
})
def set_status(ctx: Ctx, text: StatusText, emoji: Emoji = "speech_balloon",
               duration_minutes: Annotated[int, Field(ge=1, le=43_200)] | None = None) -> User:
    """Set the user's status, optionally clearing itself after some minutes.

    Args:
        text: the status, such as 'In a meeting' or 'Out sick'.
        emoji: the status emoji's name, such as 'spiral_calendar_pad', 'palm_tree' or 'headphones';
            default 'speech_balloon'.
        duration_minutes: clear it after this many minutes, from 1 to 43200 (30 days), such as 60; omit to keep it.

    Returns:
        The user's profile with the new status.

    Raises:
        invalid_emoji: the emoji name is not known.
    """
    name = normalize_emoji(emoji)
    until = iso(ctx.now() + timedelta(minutes=duration_minutes)) if duration_minutes else None
    ctx.db.execute("UPDATE users SET status_text = ?, status_emoji = ?, status_expires_at = ? WHERE is_me = 1",
                   (text, name, until))
    return user_model(ctx.get("user", me(ctx)))


@tools.tool(effect=WRITE, asks=[
    "Clear my status.",
    "Remove my status, I'm back.",
], reply=[
    "Cleared your status.",
    "Done: you have no status now.",
])
def clear_status(ctx: Ctx) -> User:
    """Clear the user's status.

    Returns:
        The user's profile with no status.

    Raises:
        no_status: the user has no status set.
    """
    row = ctx.get("user", me(ctx))
    if row["status_text"] is None and row["status_emoji"] is None:
        raise ToolError("no_status", "You have no status set.")
    ctx.db.execute("UPDATE users SET status_text = NULL, status_emoji = NULL, status_expires_at = NULL WHERE is_me = 1")
    return user_model(ctx.get("user", me(ctx)))
