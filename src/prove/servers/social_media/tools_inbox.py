"""Social media tools: notifications and direct messages."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import spoken_day

from .server import (
    AccountId,
    Limit,
    MessageId,
    MessageText,
    NotificationId,
    GenuineAccountId,
    PostId,
    ReportId,
    WroteToMeAccountId,
    follows,
    me,
    require_not_blocked,
)

tools = Toolset("inbox")

Kind = Literal["like", "comment", "reply", "follow", "mention", "message", "follow_accepted", "report_update"]


class Notification(BaseModel):
    notification_id: NotificationId
    kind: Kind
    text: str = Field(description="what happened, in words")
    actor_id: AccountId | None = Field(description="the account that did it, if any")
    post_id: PostId | None
    report_id: ReportId | None
    created_at: str
    is_read: bool


class NotificationList(BaseModel):
    notifications: list[Notification]
    total: int = Field(description="how many matched, before `limit`")
    unread: int = Field(description="unread notifications in all")
    notifications_text: str = Field(description="the latest notifications in words, such as '4 notifications: "
                                                "@halls started following you on March 11 at 9:00 AM; ...'")


def _notifications_text(notes: list[Notification], total: int, unread: bool, shown: int = 5) -> str:
    """'2 unread notifications: @halls started following you on March 11 at 9:00 AM; ...'."""
    noun = "unread notification" if unread else "notification"
    if not notes:
        return f"no {noun}s"
    said = []
    for n in notes[:shown]:
        at = datetime.fromisoformat(n.created_at)
        said.append(f"{n.text} on {at:%B} {at.day} at {at.hour % 12 or 12}:{at.minute:02d} "
                    f"{'AM' if at.hour < 12 else 'PM'}")
    head = f"{total} {noun}{'' if total == 1 else 's'}" + (f", the latest {len(said)}" if total > len(said) else "")
    return f"{head}: " + "; ".join(said)


class MarkedRead(BaseModel):
    marked: int = Field(description="notifications this call marked as read")
    unread: int = Field(description="unread notifications left")


class DirectMessage(BaseModel):
    message_id: MessageId
    sender_id: AccountId
    recipient_id: AccountId
    from_you: bool
    text: str
    sent_at: str


class Conversation(BaseModel):
    account_id: AccountId
    handle: str
    display_name: str
    last_message: str
    last_from_you: bool
    last_sent_at: str
    messages: int


class ConversationList(BaseModel):
    conversations: list[Conversation]
    total: int
    conversations_text: str = Field(description="the latest conversations in words, such as \"Yusuf Collins "
                                                "(@yusufc_runs): you last wrote 'See you then.' on March 14\"")


def _conversations_text(conversations: list[Conversation], total: int, today: date, shown: int = 5) -> str:
    """"Yusuf Collins (@yusufc_runs): you last wrote 'See you then.' on March 14; Sara Kim (@kims)
    last wrote 'Great.' on March 12; and 4 more"."""
    said = [f"{c.display_name} (@{c.handle})" + (": you last wrote" if c.last_from_you else " last wrote")
            + f" '{c.last_message}' on {spoken_day(c.last_sent_at, today)}" for c in conversations[:shown]]
    more = f"; and {total - len(said)} more" if total > len(said) else ""
    return f"{total} conversation{'' if total == 1 else 's'}: " + "; ".join(said) + more if said else "no conversations"


class Thread(BaseModel):
    account_id: AccountId
    handle: str
    messages: list[DirectMessage] = Field(description="oldest first (the latest `limit`)")
    total: int
    last_from_them: str | None = Field(None, description="the text of the latest message the other account sent")
    last_said: str = Field("", description="the latest message the other account sent, in a sentence")


# ----- notifications ----------------------------------------------------------------------------

_WORDS = {
    "like": "@{actor} liked your post", "comment": "@{actor} commented on your post",
    "reply": "@{actor} replied to your comment", "follow": "@{actor} started following you",
    "mention": "@{actor} mentioned you in a post", "message": "@{actor} sent you a message",
    "follow_accepted": "@{actor} accepted your follow request",
}


def _notification(row: sqlite3.Row) -> Notification:
    if row["kind"] == "report_update":
        outcome = {"action_taken": "the post was removed", "no_violation": "no rules were broken"}.get(
            row["report_status"], "it is under review")
        text = f"Your report {row['report_id']} was reviewed: {outcome}"
    else:
        text = _WORDS[row["kind"]].format(actor=row["actor_handle"])
    return Notification(notification_id=row["notification_id"], kind=row["kind"], text=text, actor_id=row["actor_id"],
                        post_id=row["post_id"], report_id=row["report_id"], created_at=row["created_at"],
                        is_read=bool(row["is_read"]))


def _unread(ctx: Ctx) -> int:
    return ctx.db.execute("SELECT count(*) FROM notifications WHERE is_read = 0").fetchone()[0]


@tools.tool(effect=READ, asks=[
    Ask("Any new notifications?", unread_only=True),
    Ask("Show me my unread {kind} notifications.", unread_only=True),
    Ask("Who liked my posts recently?", kind="like"),
    Ask("Who started following me lately?", kind="follow"),
], reply=[
    "You have {result.notifications_text}.",
])
def list_notifications(ctx: Ctx, unread_only: bool = False, kind: Kind | None = None,
                       limit: Limit = 20) -> NotificationList:
    """List the user's notifications, newest first.

    Args:
        unread_only: only notifications not read yet (default false).
        kind: only one kind: 'like', 'comment', 'reply', 'follow', 'mention', 'message',
            'follow_accepted' or 'report_update'.
        limit: the most notifications to return, 1 to 100, such as 20.

    Returns:
        The notifications (ID, kind, what happened, who, which post or report, when, read or not),
        how many matched and how many are unread in all.
    """
    where = Where()
    if unread_only:
        where.add("n.is_read = 0")
    where.eq("n.kind", kind)
    rows = ctx.db.execute(
        "SELECT n.*, a.handle AS actor_handle, r.status AS report_status FROM notifications n "
        "LEFT JOIN accounts a ON a.account_id = n.actor_id LEFT JOIN reports r ON r.report_id = n.report_id "
        f"WHERE {where.sql} ORDER BY n.created_at DESC, n.notification_id DESC", where.params).fetchall()
    notes = [_notification(r) for r in rows[:limit]]
    return NotificationList(notifications=notes, total=len(rows), unread=_unread(ctx),
                            notifications_text=_notifications_text(notes, len(rows), unread_only))


@tools.tool(effect=WRITE, asks=[
    "Mark all my notifications as read.",
    "Mark {notification_ids} as read.",
], reply=[
    "Marked {result.marked} notifications as read; {result.unread} are still unread.",
    "Done: {result.marked} notifications marked as read.",
    Ask("Done: all {result.marked} unread notifications are marked as read.", notification_ids=None),
])
def mark_notifications_read(ctx: Ctx, notification_ids: Annotated[list[NotificationId], Field(max_length=100)]
                            | None = None) -> MarkedRead:
    """Mark notifications as read: the ones given, or every unread one.

    Args:
        notification_ids: IDs of notifications, such as ['NTF-10083']; omit to mark all as read.

    Returns:
        How many notifications were marked and how many unread ones are left.

    Raises:
        not_found: a notification ID does not exist.
        already_read: none of the notifications was unread.
    """
    if notification_ids is None:
        marked = ctx.db.execute("UPDATE notifications SET is_read = 1 WHERE is_read = 0").rowcount
    else:
        marked = 0
        for nid in dict.fromkeys(notification_ids):
            if not ctx.get("notification", nid)["is_read"]:
                ctx.db.execute("UPDATE notifications SET is_read = 1 WHERE notification_id = ?", (nid,))
                marked += 1
    if not marked:
        raise ToolError("already_read", "There was nothing unread to mark.",
                        hint="list_notifications with unread_only=true shows what is unread.")
    return MarkedRead(marked=marked, unread=_unread(ctx))


# ----- direct messages --------------------------------------------------------------------------------


def _dm(row: sqlite3.Row, user: str) -> DirectMessage:
    return DirectMessage(message_id=row["message_id"], sender_id=row["sender_id"], recipient_id=row["recipient_id"],
                         from_you=row["sender_id"] == user, text=row["text"], sent_at=row["sent_at"])


@tools.tool(effect=READ, asks=[
    "Show me my DMs.",
    "Who have I been messaging lately?",
], reply=[
    "You have {result.conversations_text}.",
])
def list_conversations(ctx: Ctx, limit: Limit = 20) -> ConversationList:
    """List the user's direct-message conversations, most recent first.

    Args:
        limit: the most conversations to return, 1 to 100, such as 20.

    Returns:
        One entry per account the user messaged with: the last message, who sent it, when, and
        how many messages there are; and how many conversations in all.
    """
    user = me(ctx)
    rows = ctx.db.execute(
        "WITH m AS (SELECT *, CASE WHEN sender_id = :me THEN recipient_id ELSE sender_id END AS other "
        "FROM messages WHERE sender_id = :me OR recipient_id = :me), "
        "last AS (SELECT other, max(sent_at || message_id) AS k, count(*) AS n FROM m GROUP BY other) "
        "SELECT m.*, a.handle, a.display_name, last.n FROM last JOIN m ON m.other = last.other "
        "AND m.sent_at || m.message_id = last.k JOIN accounts a ON a.account_id = m.other "
        "ORDER BY m.sent_at DESC, m.message_id DESC", {"me": user}).fetchall()
    conversations = [Conversation(account_id=r["other"], handle=r["handle"], display_name=r["display_name"],
                                  last_message=r["text"], last_from_you=r["sender_id"] == user,
                                  last_sent_at=r["sent_at"], messages=r["n"]) for r in rows]
    return ConversationList(conversations=conversations[:limit], total=len(conversations),
                            conversations_text=_conversations_text(conversations[:limit], len(conversations),
                                                                   ctx.today()))


@tools.tool(effect=READ, asks=[
    "Show me my messages with {account_id}.",
    "What did {account_id} last say to me?",
], reply=[
    "You and {account_id} have {result.total} messages in your DMs. {result.last_said}",
])
def get_conversation(ctx: Ctx, account_id: WroteToMeAccountId, limit: Limit = 50) -> Thread:
    """Read the direct messages between the user and one account, oldest first.

    Args:
        account_id: ID of the other account, such as 'USR-10005'.
        limit: the most recent messages to return, 1 to 100, such as 50.

    Returns:
        The messages (ID, sender, text, time) and how many there are; empty if they never wrote.

    Raises:
        not_found: no account has that ID.
    """
    other = ctx.get("account", account_id)
    user = me(ctx)
    rows = ctx.db.execute("SELECT * FROM messages WHERE (sender_id = :me AND recipient_id = :o) OR "
                          "(sender_id = :o AND recipient_id = :me) ORDER BY sent_at, message_id",
                          {"me": user, "o": account_id}).fetchall()
    theirs = [r["text"] for r in rows if r["sender_id"] == account_id]
    return Thread(account_id=account_id, handle=other["handle"], messages=[_dm(r, user) for r in rows[-limit:]],
                  total=len(rows), last_from_them=theirs[-1] if theirs else None,
                  last_said=f"Their last message: '{theirs[-1]}'" if theirs else "They haven't written to you yet.")


@tools.tool(effect=WRITE, asks=[
    "Message {account_id}: {text}",
    "Send a DM to {account_id} saying '{text}'.",
], reply=[
    "Sent your message to {account_id}.",
    "Done: {account_id} has your DM.",
], values={
    "text": [
        # messages one may send to anyone (not about a post, a race or a recipe they may never have shared)
        "Are you going to the meetup on Saturday?", "Thanks for the recommendation!",
        "Long time no see, how have you been?", "Want to grab coffee next week?", "Thanks for the follow!",
        "Do you have a minute to chat this week?",
    ],
})
def send_direct_message(ctx: Ctx, account_id: GenuineAccountId, text: MessageText) -> DirectMessage:
    """Send a direct message to another account.

    Accounts that take messages only from accounts they follow refuse messages from others.

    Args:
        account_id: ID of the recipient, such as 'USR-10005'.
        text: the message, 1 to 2000 characters, such as 'Are you coming on Saturday?'.

    Returns:
        The message as sent.

    Raises:
        not_found: no account has that ID.
        cannot_message_self: the recipient is the user.
        blocked: the user blocked the recipient, or the recipient blocked the user.
        messages_closed: the recipient takes messages only from accounts they follow, and they do not follow the user.
    """
    other = ctx.get("account", account_id)
    user = me(ctx)
    if account_id == user:
        raise ToolError("cannot_message_self", "You cannot send a message to yourself.")
    require_not_blocked(ctx, other)
    if other["dm_policy"] == "following" and not follows(ctx, account_id, user):
        raise ToolError("messages_closed", f"@{other['handle']} only accepts messages from accounts they follow, "
                        "and they do not follow you.", hint="Mention them in a post or comment instead.")
    message_id = ctx.new_id("DM")
    ctx.db.execute("INSERT INTO messages (message_id, sender_id, recipient_id, text, sent_at) VALUES (?, ?, ?, ?, ?)",
                   (message_id, user, account_id, text, ctx.now_iso()))
    return _dm(ctx.db.execute("SELECT * FROM messages WHERE message_id = ?", (message_id,)).fetchone(), user)
