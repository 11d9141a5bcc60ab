"""The team chat server's declaration: the `server`, its entity kinds, types, result models and shared rules.

The tools live by area in `tools_<area>.py` (channels, messages, reactions and pins, people,
scheduled messages and reminders), each a toolset the package includes; `hooks.py` holds what
passing time does.

Rules every tool follows:

- The user ("me") is the one user with `is_me = 1`.
- A public channel can be read by anyone, and joined unless archived. A private channel and a
  direct message exist for the user only if they are a member; a private channel can be joined
  only by invitation from a member (`private_channel`).
- Posting, replying, reacting, pinning, setting the topic and inviting need membership
  (`not_in_channel`) and a channel that is not archived (`channel_archived`). In a channel
  whose posting is 'admins', only admins post (`posting_restricted`).
- Only the author edits or deletes a message. A deleted message keeps its place as
  'This message was deleted.' and takes no replies, reactions, pins or edits.
- Mentions are `@handle` or `<@USR-10003>` for a person and `@here`, `@channel`, `@everyone` for
  a whole channel. Posting in a channel marks it read up to that message (a scheduled message
  posting later does not).
"""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import iso, parse_time, quote, said_in_part, spoken_day

from .world import TYPO, build_world

USER = EntityKind("user", table="users", key="user_id", label="name",
                  description="a person (or bot) in the workspace", live="is_active = 1")
CHANNEL = EntityKind("channel", table="channels", key="channel_id", label="name",
                     description="a public or private channel, or a direct message conversation",
                     live="is_archived = 0", noun_from="kind",
                     phrases=(("dm", "the DM with {label}"), ("public", "the channel '{label}'"),
                              ("private", "the channel '{label}'")))
MESSAGE = EntityKind("message", table="messages", key="message_id", label="text",
                     description="a message or thread reply in a channel", live="is_deleted = 0")
SCHEDULED_MESSAGE = EntityKind("scheduled_message", table="scheduled_messages", key="scheduled_id", label="text",
                               description="a message the user scheduled to post later", live="status = 'pending'")
REMINDER = EntityKind("reminder", table="reminders", key="reminder_id", label="text",
                      description="a reminder Slackbot sends the user at a set time", live="status = 'pending'")


server = Server(
    "team_chat", "Team chat",
    "A Slack-like workspace as one signed-in member sees it: public and private channels and "
    "direct messages, members, messages and thread replies, reactions, @mentions, pinned "
    "messages, channel topics, archiving, people and their status, scheduled messages and "
    "reminders. Colleagues keep posting as time passes.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[USER, CHANNEL, MESSAGE, SCHEDULED_MESSAGE, REMINDER],
)

# ----- parameter types -------------------------------------------------------------------------

UserId = USER.id
ChannelId = CHANNEL.id
MessageId = MESSAGE.id
ScheduledId = SCHEDULED_MESSAGE.id
ReminderId = REMINDER.id
# Subsets some tools take, so that sampled calls name a channel or person the tool can act on.
GroupChannelId = CHANNEL.where("kind != 'dm'")
PublicChannelId = CHANNEL.where("kind = 'public'")
ArchivedChannelId = CHANNEL.where("kind != 'dm' AND is_archived = 1")
ColleagueId = USER.where("is_me = 0 AND is_bot = 0")
# A colleague with a status set: whom "is she around today? what's her status?" asks after, so
# that the answer says the status (an expired one is cleared as the clock moves on).
StatusColleagueId = USER.where("is_me = 0 AND is_bot = 0 AND is_active = 1 AND status_text IS NOT NULL")
# The user's own message with a typo (the world holds one): the message an edit corrects.
TypoMessageId = MESSAGE.where(f"is_deleted = 0 AND user_id = (SELECT user_id FROM users WHERE is_me = 1) "
                              f"AND text = '{TYPO}'")
# A live message someone else wrote: what the user reacts to (not the message they just posted).
OthersMessageId = MESSAGE.where("is_deleted = 0 AND user_id != (SELECT user_id FROM users WHERE is_me = 1)")
# A live message in a channel (not a DM): what threads and pins are for.
ChannelMessageId = MESSAGE.where("is_deleted = 0 AND channel_id IN (SELECT channel_id FROM channels "
                                 "WHERE kind != 'dm')")
# A live message a colleague wrote (not a bot's notice, not the user's own): what a person sets a
# reminder to get back to.
ColleagueMessageId = MESSAGE.where("is_deleted = 0 AND user_id IN (SELECT user_id FROM users WHERE is_me = 0 "
                                   "AND is_bot = 0)")
# A colleague's live message in a channel: what the user answers in its thread ('Thanks, noted!'
# answers someone, not the user's own post nor a bot's notice).
_MINE = "(SELECT user_id FROM users WHERE is_me = 1)"
_READABLE = (f"channel_id IN (SELECT channel_id FROM channels WHERE kind = 'public' UNION "
             f"SELECT channel_id FROM members WHERE user_id = {_MINE})")
ColleagueChannelMessageId = MESSAGE.where(f"is_deleted = 0 AND thread_id IS NULL AND {_READABLE} AND channel_id IN "
                                          "(SELECT channel_id FROM channels WHERE kind != 'dm') AND user_id IN "
                                          "(SELECT user_id FROM users WHERE is_me = 0 AND is_bot = 0)")
# A message people have replied to, where the user can read it: what "the thread on" or "what did
# people reply to" asks about.
RepliedMessageId = MESSAGE.where(f"is_deleted = 0 AND {_READABLE} AND message_id IN (SELECT thread_id FROM messages "
                                 "WHERE thread_id IS NOT NULL AND is_deleted = 0)")
# A work channel (a team's, a project's, engineering) the user is in and can post to: where the
# status updates and reminders that posts say belong (not #random, not a DM).
PostableChannelId = CHANNEL.where("kind != 'dm' AND is_archived = 0 AND (name LIKE 'team-%' OR name LIKE 'proj-%' "
                                  "OR name = 'engineering') AND channel_id IN (SELECT channel_id FROM members "
                                  "WHERE user_id = (SELECT user_id FROM users WHERE is_me = 1))")

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=4000)]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Emoji = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
Limit = Annotated[int, Field(ge=1, le=100)]

DELETED = "This message was deleted."

# Emoji names accepted for reactions and statuses (colons optional: ':tada:' = 'tada').
EMOJI = frozenset("""
thumbsup thumbsdown heart tada eyes white_check_mark raised_hands fire rocket pray 100 clap joy
thinking_face muscle sparkles smile laughing wave ok_hand bulb warning x heavy_plus_sign coffee pizza
cake sunny palm_tree face_with_thermometer house_with_garden spiral_calendar_pad bus headphones
computer memo hourglass rotating_light speech_balloon airplane car calendar books cat dog star
heavy_check_mark point_up raising_hand slightly_smiling_face sweat_smile sob partying_face
exploding_head thinking see_no_evil dart chart_with_upwards_trend bug lock zap ship
""".split())
ALIASES = {"+1": "thumbsup", "-1": "thumbsdown", "thumbs_up": "thumbsup", "thumbs_down": "thumbsdown",
           "check": "white_check_mark", "heart_eyes": "heart", "ok": "ok_hand", "party": "partying_face"}

# ----- result models ---------------------------------------------------------------------------


class Reaction(BaseModel):
    emoji: str
    count: int
    user_ids: list[UserId]
    reacted_by_me: bool


class ChatMessage(BaseModel):
    message_id: MessageId
    channel_id: ChannelId
    channel_name: str
    user_id: UserId
    user_name: str
    text: str
    posted_at: str
    edited_at: str | None
    is_deleted: bool
    thread_id: MessageId | None = Field(description="for a thread reply, the thread's first message; else null")
    reply_count: int = Field(description="replies in the thread this message starts")
    reactions: list[Reaction]
    is_pinned: bool
    mentioned_user_ids: list[UserId]
    mentions_channel: bool = Field(description="it notifies everyone in the channel (@here / @channel)")


class MessageList(BaseModel):
    messages: list[ChatMessage]
    total: int = Field(description="how many messages matched, before `limit`")
    messages_text: str = Field(description="the messages in words, such as \"Elijah Morgan in #team-checkout on "
                                           "March 16 at 8:53 AM: 'QA found two regressions.' (4 replies)\"")


class Member(BaseModel):
    user_id: UserId
    name: str
    handle: str


class ChannelSummary(BaseModel):
    channel_id: ChannelId
    name: str
    kind: Literal["public", "private", "dm"]
    topic: str | None
    is_archived: bool
    is_member: bool
    member_count: int
    unread_count: int | None = Field(description="messages since the user last read it; null if not a member")


class ChannelList(BaseModel):
    channels: list[ChannelSummary]
    total: int
    channels_text: str = Field(description="the channels in words, such as \"#general ('Company-wide announcements "
                                           "and news'); #checkout-leads (private); your direct messages with Ethan "
                                           "Hughes\"")


class Channel(ChannelSummary):
    purpose: str | None
    created_by: UserId
    created_at: str
    is_default: bool = Field(description="the workspace's default channel, which nobody leaves or archives")
    posting: Literal["everyone", "admins"]
    members: list[Member]
    pinned_count: int
    last_read_at: str | None
    posting_text: str = Field(description="who may post, in words: 'everyone can post there' or 'only admins can "
                                          "post there'")
    pinned_text: str = Field(description="its pins counted in words, such as '1 pinned message' or 'no pinned "
                                         "messages'")


class User(BaseModel):
    user_id: UserId
    handle: str = Field(description="what @mentions use, such as 'ana.lopez'")
    name: str
    title: str | None
    email: str
    timezone: str
    is_admin: bool
    is_bot: bool
    is_active: bool = Field(description="false for deactivated accounts")
    status_text: str | None
    status_emoji: str | None
    status_expires_at: str | None
    is_me: bool = Field(description="true for the signed-in user")


class UserList(BaseModel):
    users: list[User]
    total: int
    users_text: str = Field(description="the people in words, such as 'Adrian Morgan, IT Support Specialist "
                                        "(@adrian.morgan) and Ana Lopez, Designer (@ana.lopez)'")
    handles_text: str = Field(description="each person's handle, such as 'Adrian Morgan is @adrian.morgan'")


# ----- helpers ---------------------------------------------------------------------------------------

def me(ctx: Ctx) -> str:
    return ctx.db.execute("SELECT user_id FROM users WHERE is_me = 1").fetchone()[0]


def active_user(ctx: Ctx, user_id: str) -> sqlite3.Row:
    row = ctx.get("user", user_id)
    if not row["is_active"]:
        raise ToolError("user_deactivated", f"{row['name']}'s account is deactivated.")
    return row


def is_member(ctx: Ctx, channel_id: str, user_id: str) -> bool:
    return ctx.db.execute("SELECT 1 FROM members WHERE channel_id = ? AND user_id = ?",
                          (channel_id, user_id)).fetchone() is not None


def channel_row(ctx: Ctx, channel_id: str) -> sqlite3.Row:
    """A channel the user can know of: any public or private channel, or one of their DMs."""
    row = ctx.get("channel", channel_id)
    if row["kind"] == "dm" and not is_member(ctx, channel_id, me(ctx)):
        raise ToolError("not_found", f"No channel has ID {quote(channel_id)}.",
                        hint="list_channels shows the channels; IDs look like 'CHN-10003' "
                        "(direct messages 'DM-10001').")
    return row


def readable_channel(ctx: Ctx, channel_id: str) -> sqlite3.Row:
    """A channel the user may read: public, or one they are a member of."""
    row = channel_row(ctx, channel_id)
    if row["kind"] == "private" and not is_member(ctx, channel_id, me(ctx)):
        raise ToolError("private_channel", f"#{row['name']} is a private channel you are not a member of.",
                        hint="Only a member can invite you; ask one of them.")
    return row


def require_member(ctx: Ctx, row: sqlite3.Row) -> None:
    if not is_member(ctx, row["channel_id"], me(ctx)):
        raise ToolError("not_in_channel", f"You are not a member of #{row['name']}.",
                        hint="Join it first with join_channel.")


def require_open(row: sqlite3.Row) -> None:
    if row["is_archived"]:
        raise ToolError("channel_archived", f"#{row['name']} is archived; nothing can be posted or changed in it.",
                        hint="A member can unarchive it with unarchive_channel.")


def require_not_dm(row: sqlite3.Row) -> None:
    if row["kind"] == "dm":
        raise ToolError("is_direct_message", f"{row['channel_id']} is a direct message conversation, not a channel.")


def writable_channel(ctx: Ctx, channel_id: str) -> sqlite3.Row:
    """A channel the user may act in: readable, a member, not archived."""
    row = readable_channel(ctx, channel_id)
    require_member(ctx, row)
    require_open(row)
    return row


def require_can_post(ctx: Ctx, row: sqlite3.Row) -> None:
    if row["posting"] == "admins" and not ctx.get("user", me(ctx))["is_admin"]:
        raise ToolError("posting_restricted", f"Only workspace admins can post in #{row['name']}.",
                        hint="Ask an admin to post it; replying in a thread of an existing post is allowed.")


def message_row(ctx: Ctx, message_id: str) -> sqlite3.Row:
    """A message in a channel the user can read."""
    row = ctx.get("message", message_id)
    readable_channel(ctx, row["channel_id"])
    return row


def require_not_deleted(row: sqlite3.Row) -> None:
    if row["is_deleted"]:
        raise ToolError("message_deleted", f"{row['message_id']} was deleted.")


def normalize_emoji(value: str) -> str:
    name = value.strip().strip(":").lower()
    name = ALIASES.get(name, name)
    if name not in EMOJI:
        raise ToolError("invalid_emoji", f"{quote(value)} is not an emoji this workspace knows.",
                        hint="Use a name such as 'thumbsup', 'tada', 'eyes', 'white_check_mark' or 'heart'.")
    return name


_MENTION = re.compile(r"<@(USR-\d+)>|(?<![\w.@])@([a-z0-9][a-z0-9._-]*[a-z0-9]|[a-z0-9])", re.IGNORECASE)


def find_mentions(ctx: Ctx, text: str) -> tuple[list[str], bool]:
    """People a text mentions (by <@USR-..> or @handle), and whether it mentions the channel."""
    people: list[str] = []
    broadcast = False
    for by_id, by_handle in _MENTION.findall(text):
        if by_handle and by_handle.lower() in ("here", "channel", "everyone"):
            broadcast = True
            continue
        row = (ctx.db.execute("SELECT user_id FROM users WHERE user_id = ?", (by_id,)).fetchone() if by_id else
               ctx.db.execute("SELECT user_id FROM users WHERE handle = ?", (by_handle.lower(),)).fetchone())
        if row and row[0] not in people:
            people.append(row[0])
    return people, broadcast


def post(ctx: Ctx, channel_id: str, user_id: str, text: str, at: str, thread_id: str | None = None,
         in_channel: bool = True, mark_read: bool = True) -> str:
    """Insert a message with its mentions; posting marks the channel read for its author
    (unless `mark_read` is false: a scheduled message goes out while the user is away)."""
    message_id = ctx.new_id("CM")
    people, broadcast = find_mentions(ctx, text)
    ctx.db.execute(
        "INSERT INTO messages (message_id, channel_id, user_id, text, posted_at, thread_id, in_channel, edited_at, "
        "is_deleted, mentions_channel, pinned_by, pinned_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 0, ?, NULL, NULL)",
        (message_id, channel_id, user_id, text, at, thread_id, int(in_channel or thread_id is None), int(broadcast)))
    ctx.db.executemany("INSERT INTO mentions (message_id, user_id) VALUES (?, ?)", [(message_id, u) for u in people])
    if mark_read:
        ctx.db.execute("UPDATE members SET last_read_at = max(last_read_at, ?) WHERE channel_id = ? AND user_id = ?",
                       (at, channel_id, user_id))
    return message_id


def messages_text(ctx: Ctx, messages: list[ChatMessage], total: int, *, where: bool = True) -> str:
    """\"Elijah Morgan in #team-checkout on March 16 at 8:53 AM: 'QA found two regressions.' (4 replies); you
    on ...\": who wrote each, where (with `where`; a direct message is said as one), when, the words quoted
    (a long message cut short) and the replies it drew."""
    user, today = me(ctx), ctx.today()
    kinds = dict(ctx.db.execute("SELECT channel_id, kind FROM channels").fetchall())
    said = []
    for m in messages if len(messages) <= 8 else messages[:6]:
        at = datetime.fromisoformat(m.posted_at)
        when = f"{spoken_day(at.date(), today)} at {at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"
        place = ("" if not where else " in a direct message" if kinds.get(m.channel_id) == "dm"
                 else f" in #{m.channel_name}")
        words = m.text if len(m.text) <= 90 else m.text[:88].rsplit(" ", 1)[0] + "…"
        replies = f" ({m.reply_count} repl{'y' if m.reply_count == 1 else 'ies'})" if m.reply_count else ""
        said.append(f"{'you' if m.user_id == user else m.user_name}{place} on {when}: '{words}'{replies}")
    return said_in_part(said, total, "none")


def message_model(ctx: Ctx, row: sqlite3.Row) -> ChatMessage:
    user = me(ctx)
    channel = ctx.db.execute("SELECT name FROM channels WHERE channel_id = ?", (row["channel_id"],)).fetchone()[0]
    author = ctx.db.execute("SELECT name FROM users WHERE user_id = ?", (row["user_id"],)).fetchone()[0]
    by_emoji: dict[str, list[str]] = {}
    for r in ctx.db.execute("SELECT emoji, user_id FROM reactions WHERE message_id = ? ORDER BY emoji, user_id",
                            (row["message_id"],)):
        by_emoji.setdefault(r[0], []).append(r[1])
    replies = ctx.db.execute("SELECT count(*) FROM messages WHERE thread_id = ?", (row["message_id"],)).fetchone()[0]
    mentioned = [r[0] for r in ctx.db.execute("SELECT user_id FROM mentions WHERE message_id = ? ORDER BY user_id",
                                              (row["message_id"],))]
    return ChatMessage(
        message_id=row["message_id"], channel_id=row["channel_id"], channel_name=channel, user_id=row["user_id"],
        user_name=author, text=DELETED if row["is_deleted"] else row["text"], posted_at=row["posted_at"],
        edited_at=row["edited_at"], is_deleted=bool(row["is_deleted"]), thread_id=row["thread_id"],
        reply_count=replies,
        reactions=[Reaction(emoji=e, count=len(us), user_ids=us, reacted_by_me=user in us)
                   for e, us in by_emoji.items()],
        is_pinned=row["pinned_at"] is not None, mentioned_user_ids=mentioned,
        mentions_channel=bool(row["mentions_channel"]))


def unread_count(ctx: Ctx, channel_id: str, since: str) -> int:
    return ctx.db.execute(
        "SELECT count(*) FROM messages WHERE channel_id = ? AND posted_at > ? AND in_channel = 1 AND is_deleted = 0 "
        "AND user_id != ?", (channel_id, since, me(ctx))).fetchone()[0]


def summary(ctx: Ctx, row: sqlite3.Row) -> ChannelSummary:
    mine = ctx.db.execute("SELECT last_read_at FROM members WHERE channel_id = ? AND user_id = ?",
                          (row["channel_id"], me(ctx))).fetchone()
    count = ctx.db.execute("SELECT count(*) FROM members WHERE channel_id = ?", (row["channel_id"],)).fetchone()[0]
    return ChannelSummary(channel_id=row["channel_id"], name=row["name"], kind=row["kind"], topic=row["topic"],
                          is_archived=bool(row["is_archived"]), is_member=mine is not None, member_count=count,
                          unread_count=unread_count(ctx, row["channel_id"], mine[0]) if mine else None)


def user_model(row: sqlite3.Row) -> User:
    return User(user_id=row["user_id"], handle=row["handle"], name=row["name"], title=row["title"], email=row["email"],
                timezone=row["timezone"], is_admin=bool(row["is_admin"]), is_bot=bool(row["is_bot"]),
                is_active=bool(row["is_active"]), status_text=row["status_text"], status_emoji=row["status_emoji"],
                status_expires_at=row["status_expires_at"], is_me=bool(row["is_me"]))


def future_time(ctx: Ctx, value: str, name: str, max_days: int = 120) -> str:
    """A time after now and at most `max_days` ahead, as stored."""
    dt = parse_time(value, name)
    if dt <= ctx.now():
        raise ToolError("past_date", f"{name} {iso(dt)} is not in the future; it is now {ctx.now_iso()}.")
    if (dt - ctx.now()).days > max_days:
        raise ToolError("invalid_time", f"{name} {iso(dt)} is more than {max_days} days ahead.")
    return iso(dt)


def open_dm(ctx: Ctx, other: str) -> str:
    """The direct message channel between the user and `other`, created if it does not exist."""
    user = me(ctx)
    row = ctx.db.execute(
        "SELECT c.channel_id FROM channels c WHERE c.kind = 'dm' "
        "AND EXISTS (SELECT 1 FROM members m WHERE m.channel_id = c.channel_id AND m.user_id = ?) "
        "AND EXISTS (SELECT 1 FROM members m WHERE m.channel_id = c.channel_id AND m.user_id = ?)",
        (user, other)).fetchone()
    if row:
        return row[0]
    name = ctx.db.execute("SELECT name FROM users WHERE user_id = ?", (other,)).fetchone()[0]
    channel_id = ctx.new_id("DM")
    at = ctx.now_iso()
    ctx.db.execute("INSERT INTO channels (channel_id, name, kind, topic, purpose, created_by, created_at, is_archived, "
                   "is_default, posting) VALUES (?, ?, 'dm', NULL, NULL, ?, ?, 0, 0, 'everyone')",
                   (channel_id, name, user, at))
    ctx.db.executemany("INSERT INTO members (channel_id, user_id, joined_at, last_read_at) VALUES (?, ?, ?, ?)",
                       [(channel_id, user, at, at), (channel_id, other, at, at)])
    return channel_id
