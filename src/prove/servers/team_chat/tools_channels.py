"""Channels: list, inspect, create, join, leave, invite, topic, archive, mark read."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import like, quote, said_in_part

from .server import (
    ArchivedChannelId,
    Channel,
    ChannelId,
    ChannelList,
    ChannelSummary,
    ColleagueId,
    GroupChannelId,
    Limit,
    Member,
    PublicChannelId,
    Query,
    active_user,
    channel_row,
    is_member,
    me,
    readable_channel,
    require_member,
    require_not_dm,
    require_open,
    summary,
    writable_channel,
)

tools = Toolset("channels")

ChannelName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Topic = Annotated[str, StringConstraints(strip_whitespace=True, max_length=250)]
People = Annotated[list[ColleagueId], Field(min_length=1, max_length=30)]
# Topics people set, offered to both tools that write one.
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")


def channel_model(ctx: Ctx, channel_id: str) -> Channel:
    row = ctx.db.execute("SELECT * FROM channels WHERE channel_id = ?", (channel_id,)).fetchone()
    base = summary(ctx, row)
    members = [Member(**dict(r)) for r in ctx.db.execute(
        "SELECT u.user_id, u.name, u.handle FROM members m JOIN users u ON u.user_id = m.user_id "
        "WHERE m.channel_id = ? ORDER BY u.name, u.user_id", (channel_id,))]
    pinned = ctx.db.execute("SELECT count(*) FROM messages WHERE channel_id = ? AND pinned_at IS NOT NULL "
                            "AND is_deleted = 0", (channel_id,)).fetchone()[0]
    mine = ctx.db.execute("SELECT last_read_at FROM members WHERE channel_id = ? AND user_id = ?",
                          (channel_id, me(ctx))).fetchone()
    return Channel(**base.model_dump(), purpose=row["purpose"], created_by=row["created_by"],
                   created_at=row["created_at"], is_default=bool(row["is_default"]), posting=row["posting"],
                   members=members, pinned_count=pinned, last_read_at=mine[0] if mine else None,
                   posting_text="everyone can post there" if row["posting"] == "everyone" else "only admins can post there",
                   pinned_text=f"{pinned or 'no'} pinned message{'' if pinned == 1 else 's'}")


def _join(ctx: Ctx, channel_id: str, user_id: str) -> None:
    at = ctx.now_iso()
    ctx.db.execute("INSERT INTO members (channel_id, user_id, joined_at, last_read_at) VALUES (?, ?, ?, ?)",
                   (channel_id, user_id, at, at))


@tools.tool(effect=READ, asks=[
    "What channels are there?",
    Ask("Which channels am I in?", member_only=True),
    "Is there a channel with '{query}' in its name?",
    Ask("List my direct message conversations.", kind="dm"),
    Ask("Which private channels am I in?", kind="private"),
    Ask("Show every channel, archived ones too.", include_archived=True),
], reply=[
    Ask("You have direct messages with {result.channels_text}.", kind="dm"),
    Ask("Your private channels: {result.channels_text}.", kind="private"),
    Ask("You're in {result.total} channels: {result.channels_text}.", kind=None, member_only=True),
    Ask("I found {result.total} channels: {result.channels_text}.", kind=None, member_only=False),
])
def list_channels(ctx: Ctx, kind: Literal["public", "private", "dm"] | None = None, member_only: bool = False,
                  include_archived: bool = False, query: Query | None = None, limit: Limit = 50) -> ChannelList:
    """List the channels the user can see: every public channel, and the private channels and
    direct messages they are in, by name.

    Args:
        kind: only 'public', 'private' or 'dm' (direct messages); omit for all.
        member_only: only channels the user is a member of, such as true; default false.
        include_archived: also list archived channels, such as true; default false.
        query: part of the name or topic, such as 'design'.
        limit: the most channels to return, from 1 to 100, such as 50.

    Returns:
        The channels (ID, name, kind, topic, archived, whether the user is a member, member count,
        the user's unread count) and how many matched.
    """
    sql = ("SELECT c.* FROM channels c WHERE (c.kind = 'public' OR EXISTS (SELECT 1 FROM members m "
           "WHERE m.channel_id = c.channel_id AND m.user_id = :me))")
    params: dict[str, object] = {"me": me(ctx)}
    if kind is not None:
        sql += " AND c.kind = :kind"
        params["kind"] = kind
    if member_only:
        sql += " AND EXISTS (SELECT 1 FROM members m WHERE m.channel_id = c.channel_id AND m.user_id = :me)"
    if not include_archived:
        sql += " AND c.is_archived = 0"
    if query is not None:
        sql += (" AND (lower(c.name) LIKE :q ESCAPE '\\' OR lower(coalesce(c.topic, '')) LIKE :q ESCAPE '\\' "
                "OR lower(coalesce(c.purpose, '')) LIKE :q ESCAPE '\\')")
        params["q"] = like(query.lstrip("#") or query)
    rows = ctx.db.execute(sql + " ORDER BY c.kind = 'dm', c.name, c.channel_id", params).fetchall()
    channels = [summary(ctx, r) for r in rows[:limit]]

    def one(c: ChannelSummary) -> str:
        if c.kind == "dm":
            return c.name if kind == "dm" else f"your direct messages with {c.name}"
        notes = [n for n in ("private" if c.kind == "private" and kind is None else "",
                             "archived" if c.is_archived else "",
                             "you're not in it" if not c.is_member and not member_only else "") if n]
        return f"#{c.name}" + (f" ({', '.join(notes)})" if notes else "")
    said = said_in_part([one(c) for c in (channels if len(channels) <= 10 else channels[:8])], len(rows), "none")
    return ChannelList(channels=channels, total=len(rows),
                       channels_text=said.replace("; ", ", ") if kind == "dm" else said)


@tools.tool(effect=READ, asks=[
    "How many members does {channel_id} have, and what's its topic?",
    "Tell me about {channel_id}: its topic, members and pinned messages.",
    "What is {channel_id} for, and who can post there?",
], reply=[
    # One reply a question: members and topic; topic, members and pins; what it is for and who may post. A
    # channel made in the conversation has no topic yet.
    "#{result.name} has {result.member_count} members, and its topic is '{result.topic}'.",
    "The topic of #{result.name} is '{result.topic}'; it has {result.member_count} members and {result.pinned_text}.",
    "The topic of #{result.name} is '{result.topic}', and {result.posting_text}.",
    Ask("#{result.name} has {result.member_count} members and no topic yet.", **{"result.topic": None}),
    Ask("#{result.name} has no topic yet; it has {result.member_count} members and {result.pinned_text}.",
        **{"result.topic": None}),
    Ask("#{result.name} has no topic yet, and {result.posting_text}.", **{"result.topic": None}),
])
def get_channel(ctx: Ctx, channel_id: GroupChannelId) -> Channel:
    """Get one channel's details: topic, purpose, members, posting rules, pins and the user's read position.

    Args:
        channel_id: ID of the channel, such as 'CHN-10001' (direct messages look like 'DM-10001').

    Returns:
        The channel with its members and the user's unread count.

    Raises:
        not_found: no channel has that ID (or it is someone else's direct message).
        private_channel: the channel is private and the user is not a member.
    """
    row = readable_channel(ctx, channel_id)
    return channel_model(ctx, row["channel_id"])


@tools.tool(effect=WRITE, asks=[
    "Create a channel called {name}.",
    Ask("Make a private channel named {name} with {member_ids}.", is_private=True),
    "Start a channel {name} with the topic '{topic}' and add {member_ids}.",
    "Set up {name} as a channel to {purpose}.",
], reply=[
    "Created #{result.name}; it has {result.member_count} members.",
    "Done: #{result.name} is ready.",
    Ask("Created the private channel #{result.name}; only the people in it can see it.", is_private=True),
], values={
    # A new channel's name, topic and purpose, drawn together so they are about the same thing.
    "name, topic, purpose": [
        ("proj-spring-launch", "Launch checklist and dates", "coordinate the spring launch"),
        ("design-reviews", "Weekly design critiques, Thursdays at 3pm", "review designs before handoff"),
        ("oncall-handoff", "Handoffs between on-call shifts", "hand over on-call between shifts"),
        ("team-offsite-2026", "Agenda and travel for the offsite", "plan the team offsite"),
        ("data-quality", "Data quality issues and fixes", "track data quality issues"),
        ("hiring-backend", "Candidate pipeline for the backend role", "organize hiring for the backend team"),
        ("customer-feedback", "Customer feedback from the beta", "share customer feedback with the product team"),
        ("q2-planning", "Open questions on the Q2 roadmap", "plan the Q2 roadmap"),
    ],
})
def create_channel(ctx: Ctx, name: ChannelName, is_private: bool = False, topic: Topic | None = None,
                   purpose: Topic | None = None,
                   member_ids: Annotated[list[ColleagueId], Field(max_length=30)] | None = None
                   ) -> Channel:
    """Create a channel with the user as its first member, and add people to it.

    Names are lower-case letters, digits, '-' and '_' (a leading '#' is dropped, upper case is
    lowered), at most 80 characters, and unique across the workspace, archived channels included.

    Args:
        name: the channel name, such as 'proj-launch-2026'.
        is_private: true for a private channel only members see; default false (public).
        topic: what is being discussed now, such as 'Launch checklist and dates'.
        purpose: what the channel is for, such as 'Coordinate the spring launch'.
        member_ids: people to add, such as ['USR-10003', 'USR-10005'].

    Returns:
        The new channel with its members.

    Raises:
        invalid_name: the name has characters other than lower-case letters, digits, '-' and '_'.
        name_taken: a channel with that name exists (perhaps archived).
        not_found: a member ID does not exist.
        user_deactivated: a member's account is deactivated.
    """
    clean = name.lstrip("#").lower()
    if not _NAME.match(clean):
        raise ToolError("invalid_name", f"{quote(name)} is not a valid channel name.",
                        hint="Use lower-case letters, digits, '-' and '_', such as 'proj-launch-2026'.")
    clash = ctx.db.execute("SELECT channel_id, is_archived FROM channels WHERE kind != 'dm' AND name = ?",
                           (clean,)).fetchone()
    if clash:
        raise ToolError("name_taken", f"#{clean} already exists ({clash[0]}{', archived' if clash[1] else ''}).",
                        hint="Pick another name" + (", or unarchive it." if clash[1] else ", or join it."))
    user = me(ctx)
    people = [active_user(ctx, u)["user_id"] for u in dict.fromkeys(member_ids or []) if u != user]
    channel_id = ctx.new_id("CHN")
    ctx.db.execute("INSERT INTO channels (channel_id, name, kind, topic, purpose, created_by, created_at, is_archived, "
                   "is_default, posting) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, 'everyone')",
                   (channel_id, clean, "private" if is_private else "public", topic or None, purpose or None, user,
                    ctx.now_iso()))
    for u in [user, *people]:
        _join(ctx, channel_id, u)
    return channel_model(ctx, channel_id)


@tools.tool(effect=WRITE, asks=[
    "Join {channel_id}.",
    "Add me to {channel_id}.",
    "I'd like to follow {channel_id}; can you get me in?",
], reply=[
    "You've joined {channel_id}.",
    "Done: you're now a member of {channel_id}, with {result.member_count} people.",
])
def join_channel(ctx: Ctx, channel_id: PublicChannelId) -> Channel:
    """Join a public channel; private channels can only be joined by invitation.

    Args:
        channel_id: ID of the channel, such as 'CHN-10003'.

    Returns:
        The channel, now with the user as a member.

    Raises:
        not_found: no channel has that ID.
        is_direct_message: the ID is a direct message conversation.
        private_channel: the channel is private; a member must invite the user.
        already_member: the user is already a member.
        channel_archived: the channel is archived.
    """
    row = channel_row(ctx, channel_id)
    require_not_dm(row)
    user = me(ctx)
    if is_member(ctx, channel_id, user):
        raise ToolError("already_member", f"You are already a member of #{row['name']}.")
    if row["kind"] == "private":
        raise ToolError("private_channel", f"#{row['name']} is private; you can only join if a member invites you.",
                        hint="Ask one of its members to invite you.")
    require_open(row)
    _join(ctx, channel_id, user)
    return channel_model(ctx, channel_id)


@tools.tool(effect=WRITE, asks=[
    "Leave {channel_id}.",
    "Take me out of {channel_id}, it's too noisy.",
], reply=[
    "You've left {channel_id}.",
    "Done: you're no longer in {channel_id}.",
])
def leave_channel(ctx: Ctx, channel_id: GroupChannelId) -> ChannelSummary:
    """Leave a channel. Nobody leaves the default channel; a private one can be rejoined only by invitation.

    Args:
        channel_id: ID of the channel, such as 'CHN-10003'.

    Returns:
        The channel, with the user no longer a member.

    Raises:
        not_found: no channel has that ID.
        is_direct_message: the ID is a direct message conversation.
        default_channel: the channel is the workspace's default channel.
        not_in_channel: the user is not a member.
    """
    row = channel_row(ctx, channel_id)
    require_not_dm(row)
    if row["is_default"]:
        raise ToolError("default_channel", f"#{row['name']} is the default channel; every member stays in it.")
    if not is_member(ctx, channel_id, me(ctx)):
        raise ToolError("not_in_channel", f"You are not a member of #{row['name']}.")
    ctx.db.execute("DELETE FROM members WHERE channel_id = ? AND user_id = ?", (channel_id, me(ctx)))
    return summary(ctx, row)


@tools.tool(effect=WRITE, asks=[
    "Invite {user_ids} to {channel_id}.",
    "Add {user_ids} to {channel_id}.",
    "Can you bring {user_ids} into {channel_id}?",
], reply=[
    "Added {user_ids} to {channel_id}; it now has {result.member_count} members.",
    "Done: {user_ids} can now see {channel_id}.",
])
def invite_to_channel(ctx: Ctx, channel_id: GroupChannelId, user_ids: People) -> Channel:
    """Add people to a channel the user is a member of (the only way into a private channel).

    Args:
        channel_id: ID of the channel, such as 'CHN-10003'.
        user_ids: the people to add, such as ['USR-10004', 'USR-10009'].

    Returns:
        The channel with its members.

    Raises:
        not_found: the channel or a user does not exist.
        is_direct_message: the ID is a direct message conversation.
        private_channel: the channel is private and the user is not a member.
        not_in_channel: the user is not a member of the channel.
        channel_archived: the channel is archived.
        user_deactivated: a person's account is deactivated.
        already_member: a person is already in the channel.
    """
    row = channel_row(ctx, channel_id)
    require_not_dm(row)
    writable_channel(ctx, channel_id)
    people = [active_user(ctx, u) for u in dict.fromkeys(user_ids)]
    inside = [p["name"] for p in people if is_member(ctx, channel_id, p["user_id"])]
    if inside:
        raise ToolError("already_member", f"{', '.join(inside)} {'is' if len(inside) == 1 else 'are'} already in "
                        f"#{row['name']}.", hint="Invite only people who are not members yet (get_channel lists them).")
    for p in people:
        _join(ctx, channel_id, p["user_id"])
    return channel_model(ctx, channel_id)


@tools.tool(effect=WRITE, asks=[
    "Set the topic of {channel_id} to '{topic}'.",
    "Change the topic of {channel_id} to: {topic}",
    Ask("Clear the topic of {channel_id}.", topic=""),
], reply=[
    Ask("Cleared the topic of {channel_id}; it has none now.", topic=""),
    "The topic of {channel_id} now reads '{topic}'.",
    "Done: {channel_id} has the topic '{topic}' now.",
], values={
    # House rules that suit whatever channel they are set on (a project topic would not).
    "topic": ["Please use threads for questions", "Read the pinned messages before posting",
              "Weekly updates every Monday morning", "Questions welcome; we answer within a day",
              "Keep it short; details go in threads"],
})
def set_channel_topic(ctx: Ctx, channel_id: GroupChannelId, topic: Topic) -> Channel:
    """Set a channel's topic; '' clears it.

    Args:
        channel_id: ID of the channel, such as 'CHN-10003'.
        topic: the new topic, such as 'Launch on March 30 - checklist pinned'.

    Returns:
        The channel with its new topic.

    Raises:
        not_found: no channel has that ID.
        is_direct_message: the ID is a direct message conversation.
        private_channel: the channel is private and the user is not a member.
        not_in_channel: the user is not a member of the channel.
        channel_archived: the channel is archived.
    """
    row = channel_row(ctx, channel_id)
    require_not_dm(row)
    writable_channel(ctx, channel_id)
    ctx.db.execute("UPDATE channels SET topic = ? WHERE channel_id = ?", (topic or None, channel_id))
    return channel_model(ctx, channel_id)


@tools.tool(effect=WRITE, asks=[
    "Archive {channel_id}.",
    "We're done with {channel_id}, archive it.",
], reply=[
    "{channel_id} is archived; it stays readable, but nobody can post in it.",
    "Done: I've archived {channel_id}.",
])
def archive_channel(ctx: Ctx, channel_id: GroupChannelId) -> ChannelSummary:
    """Archive a channel: it stays readable, but nothing can be posted or changed until unarchived.

    Args:
        channel_id: ID of the channel, such as 'CHN-10003'.

    Returns:
        The channel, now archived.

    Raises:
        not_found: no channel has that ID.
        is_direct_message: the ID is a direct message conversation.
        default_channel: the channel is the workspace's default channel.
        private_channel: the channel is private and the user is not a member.
        not_in_channel: only members can archive it.
        already_archived: the channel is already archived.
    """
    row = channel_row(ctx, channel_id)
    require_not_dm(row)
    if row["is_default"]:
        raise ToolError("default_channel", f"#{row['name']} is the default channel and cannot be archived.")
    readable_channel(ctx, channel_id)
    require_member(ctx, row)
    if row["is_archived"]:
        raise ToolError("already_archived", f"#{row['name']} is already archived.")
    ctx.db.execute("UPDATE channels SET is_archived = 1 WHERE channel_id = ?", (channel_id,))
    return summary(ctx, ctx.db.execute("SELECT * FROM channels WHERE channel_id = ?", (channel_id,)).fetchone())


@tools.tool(effect=WRITE, asks=[
    "Unarchive {channel_id}.",
    "Bring {channel_id} back, we need it again.",
], reply=[
    "{channel_id} is unarchived; people can post there again.",
    "Done: {channel_id} is open again.",
])
def unarchive_channel(ctx: Ctx, channel_id: ArchivedChannelId) -> ChannelSummary:
    """Unarchive a channel the user is a member of, so people can post in it again.

    Args:
        channel_id: ID of the channel, such as 'CHN-10016'.

    Returns:
        The channel, no longer archived.

    Raises:
        not_found: no channel has that ID.
        is_direct_message: the ID is a direct message conversation.
        private_channel: the channel is private and the user is not a member.
        not_archived: the channel is not archived.
        not_in_channel: only its members can unarchive it.
    """
    row = channel_row(ctx, channel_id)
    require_not_dm(row)
    readable_channel(ctx, channel_id)
    if not row["is_archived"]:
        raise ToolError("not_archived", f"#{row['name']} is not archived.")
    require_member(ctx, row)
    ctx.db.execute("UPDATE channels SET is_archived = 0 WHERE channel_id = ?", (channel_id,))
    return summary(ctx, ctx.db.execute("SELECT * FROM channels WHERE channel_id = ?", (channel_id,)).fetchone())


@tools.tool(effect=WRITE, asks=[
    "Mark {channel_id} as read.",
    "I've caught up on {channel_id}, clear its unread count.",
], reply=[
    "Marked {channel_id} as read.",
    "Done: {channel_id} has no unread messages now.",
])
def mark_channel_read(ctx: Ctx, channel_id: ChannelId) -> ChannelSummary:
    """Mark everything in a channel or direct message as read, up to now.

    Args:
        channel_id: ID of the channel, such as 'CHN-10003'.

    Returns:
        The channel, with an unread count of 0.

    Raises:
        not_found: no channel has that ID.
        private_channel: the channel is private and the user is not a member.
        not_in_channel: the user is not a member, so has no read position in it.
    """
    row = readable_channel(ctx, channel_id)
    require_member(ctx, row)
    ctx.db.execute("UPDATE members SET last_read_at = max(last_read_at, ?) WHERE channel_id = ? AND user_id = ?",
                   (ctx.now_iso(), channel_id, me(ctx)))
    return summary(ctx, row)
