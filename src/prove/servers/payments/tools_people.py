"""People: the member directory and the member's contacts."""

from __future__ import annotations

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import like

from .server import (
    ContactId,
    Limit,
    NonContactId,
    Query,
    User,
    UserList,
    user_model,
    users_text,
)

tools = Toolset("people")


@tools.tool(effect=READ, asks=[
    "Find {query} on the app.",
    "What's the username of {query}?",
    Ask("Search my contacts for {query}.", contacts_only=True),
], reply=[
    Ask("Here's who I found: {result.users_text}.", contacts_only=False),
    Ask("In your contacts: {result.users_text}.", contacts_only=True),
])
def search_users(ctx: Ctx, query: Query, contacts_only: bool = False, limit: Limit = 10) -> UserList:
    """Search the member directory (people and businesses) by name or username.

    Matching is case-insensitive and by substring: 'maya', 'Chen' or '@maya-chen' all work.

    Args:
        query: part of a name or username, such as 'Priya' or '@luca'.
        contacts_only: only the member's contacts, such as true; default false.
        limit: the most members to return, from 1 to 100, such as 10.

    Returns:
        The matching members (contacts first, then by name) with their user ID, name, username,
        kind, business category, city and contact status, and how many matched.
    """
    pattern = like(query)
    sql = ("SELECT * FROM users WHERE (lower(display_name) LIKE :p ESCAPE '\\' OR lower(username) LIKE :p ESCAPE '\\')"
           + (" AND is_contact = 1" if contacts_only else "") + " ORDER BY is_contact DESC, display_name, user_id")
    rows = ctx.db.execute(sql, {"p": pattern}).fetchall()
    users = [user_model(r) for r in rows[:limit]]
    return UserList(users=users, total=len(rows),
                    users_text=users_text(users, len(rows), contact_said=not contacts_only))


@tools.tool(effect=READ, asks=[
    "Who are my contacts?",
    "List my contacts, up to {limit}.",
], reply=[
    "You have {result.total} contacts: {result.users_text}.",
])
def list_contacts(ctx: Ctx, limit: Limit = 50) -> UserList:
    """List the member's contacts, people and businesses, by name.

    Args:
        limit: the most contacts to return, from 1 to 100, such as 50.

    Returns:
        The contacts with their user ID, name, username, kind, category, city and the date they
        became contacts, and how many contacts there are.
    """
    rows = ctx.db.execute("SELECT * FROM users WHERE is_contact = 1 ORDER BY display_name, user_id").fetchall()
    users = [user_model(r) for r in rows[:limit]]
    # (a number asked for, up to twenty, is each named: "List my contacts, up to 20.")
    return UserList(users=users, total=len(rows), users_text=users_text(users, len(rows), names_only=True,
                                                                        first=limit if limit <= 20 else 10))


@tools.tool(effect=WRITE, asks=[
    "Add {user_id} to my contacts.",
    "Save {user_id} as a contact so I can find them quickly.",
], reply=[
    "{result.display_name} ({result.username}) is in your contacts now.",
    "Added {user_id} to your contacts.",
])
def add_contact(ctx: Ctx, user_id: NonContactId) -> User:
    """Add a member of the directory to the member's contacts.

    Args:
        user_id: ID of the person or business, such as 'USR-10002'.

    Returns:
        The member, now a contact.

    Raises:
        not_found: no member has that ID.
        already_contact: they are already a contact.
    """
    row = ctx.get("user", user_id)
    if row["is_contact"]:
        raise ToolError("already_contact",
                        f"{row['display_name']} is already a contact (since {row['contact_since']}).")
    ctx.db.execute("UPDATE users SET is_contact = 1, contact_since = ? WHERE user_id = ?",
                   (ctx.today().isoformat(), user_id))
    return user_model(ctx.get("user", user_id))


@tools.tool(effect=WRITE, asks=[
    "Remove {user_id} from my contacts.",
    "I don't want {user_id} in my contacts anymore.",
], reply=[
    "Removed {user_id} from your contacts.",
    "{result.display_name} is no longer one of your contacts.",
])
def remove_contact(ctx: Ctx, user_id: ContactId) -> User:
    """Remove someone from the member's contacts (payments with them are kept).

    Args:
        user_id: ID of the contact, such as 'USR-10002'.

    Returns:
        The member, no longer a contact.

    Raises:
        not_found: no member has that ID.
        not_contact: they are not a contact.
    """
    row = ctx.get("user", user_id)
    if not row["is_contact"]:
        raise ToolError("not_contact", f"{row['display_name']} is not one of your contacts.")
    ctx.db.execute("UPDATE users SET is_contact = 0, contact_since = NULL WHERE user_id = ?", (user_id,))
    return user_model(ctx.get("user", user_id))


