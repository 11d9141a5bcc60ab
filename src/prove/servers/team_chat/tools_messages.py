"""Messages: read channels and threads, post, reply, DM, edit, delete, search, mentions."""

from __future__ import annotations

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import like, parse_window

from .server import (
    ChannelId,
    ChatMessage,
    ColleagueChannelMessageId,
    ColleagueId,
    Limit,
    MessageId,
    MessageList,
    PostableChannelId,
    Query,
    RepliedMessageId,
    Text,
    TypoMessageId,
    UserId,
    active_user,
    channel_row,
    find_mentions,
    me,
    message_model,
    message_row,
    messages_text,
    open_dm,
    post,
    readable_channel,
    require_can_post,
    require_not_deleted,
    require_open,
    writable_channel,
)
from .world import TYPO_FIXED

tools = Toolset("messages")


class Thread(BaseModel):
    root: ChatMessage = Field(description="the message that starts the thread")
    replies: list[ChatMessage] = Field(description="the replies, oldest first")
    total: int = Field(description="how many replies")
    replies_text: str = Field(description="the replies in words, oldest first, such as \"Camila Williams on March 9 at "
                                          "3:56 PM: 'Noted, thanks.'\"")


class MentionList(BaseModel):
    messages: list[ChatMessage]
    total: int = Field(description="how many mentions matched, before `limit`")
    unread: int = Field(description="how many of them the user has not read yet")
    unread_text: str = Field("", description="how many are unread, in words: '2 of them unread' or 'none of them "
                                             "unread'")
    messages_text: str = Field(description="the mentions in words, such as \"Elijah Morgan in #team-checkout on "
                                           "March 16 at 8:53 AM: '@ana QA found two regressions.'\"")


class DeletedMessage(BaseModel):
    message_id: MessageId
    channel_id: ChannelId
    replies_kept: int = Field(description="thread replies, which stay under the deleted message")


# The channels the user may read: public ones, and those they are a member of.
READABLE = ("SELECT channel_id FROM channels WHERE kind = 'public' UNION "
            "SELECT channel_id FROM members WHERE user_id = :me")


def _own_message(ctx: Ctx, message_id: str):
    row = message_row(ctx, message_id)
    if row["user_id"] != me(ctx):
        author = ctx.get("user", row["user_id"])["name"]
        raise ToolError("not_author", f"{message_id} was posted by {author}; only its author can change it.")
    require_not_deleted(row)
    require_open(channel_row(ctx, row["channel_id"]))
    return row


@tools.tool(effect=READ, asks=[
    "What's been happening in {channel_id}?",
    "Show me the last {limit} messages in {channel_id}.",
    "What did people post in {channel_id} after {after}?",
    "What was said in {channel_id} between {after} and {before}?",
], reply=[
    Ask("The latest in {channel_id}, oldest first: {result.messages_text}.", after=None, before=None),
    "Here's what was said in {channel_id}, oldest first: {result.messages_text}.",
])
def list_messages(ctx: Ctx, channel_id: ChannelId, limit: Limit = 20, after: str | None = None,
                  before: str | None = None) -> MessageList:
    """Read a channel or direct message: its most recent messages, oldest of them first.

    Thread replies are not included (see get_thread) unless also sent to the channel; each
    message shows its reply count. Public channels can be read without joining.

    Args:
        channel_id: ID of the channel, such as 'CHN-10003' (or a direct message, 'DM-10001').
        limit: how many of the most recent messages to return, from 1 to 100, such as 20.
        after: only messages posted after this time, such as '2026-03-13T17:30:00'.
        before: only messages posted before this time, such as '2026-03-16T09:00:00'.

    Returns:
        The messages (author, text, time, edits, thread reply count, reactions, pin, mentions)
        and how many matched in total.

    Raises:
        not_found: no channel has that ID (or it is someone else's direct message).
        private_channel: the channel is private and the user is not a member.
        invalid_time: `after` or `before` is not an ISO 8601 local time between 2000 and 2099.
        end_before_start: `before` is not later than `after`.
    """
    readable_channel(ctx, channel_id)
    where = Where()
    where.add("channel_id = ? AND in_channel = 1 AND (is_deleted = 0 OR EXISTS "
              "(SELECT 1 FROM messages r WHERE r.thread_id = m.message_id))", channel_id)
    lo, hi = parse_window(after, before)
    if lo:
        where.add("posted_at > ?", lo)
    if hi:
        where.add("posted_at < ?", hi)
    rows = ctx.db.execute(f"SELECT * FROM messages m WHERE {where.sql} ORDER BY posted_at, message_id",
                          where.params).fetchall()
    messages = [message_model(ctx, r) for r in rows[-limit:]]
    return MessageList(messages=messages, total=len(rows),
                       messages_text=messages_text(ctx, messages, len(messages), where=False))


@tools.tool(effect=READ, asks=[
    "Show me the thread on {message_id}.",
    "What did people reply to {message_id}?",
], reply=[
    "{result.total} replies, oldest first: {result.replies_text}.",
])
def get_thread(ctx: Ctx, message_id: RepliedMessageId) -> Thread:
    """Read a whole thread: the message that starts it and every reply, oldest first.

    Args:
        message_id: ID of the thread's first message or of any reply in it, such as 'CM-10042'.

    Returns:
        The root message, its replies and how many there are.

    Raises:
        not_found: no message has that ID.
        private_channel: the message is in a private channel the user is not a member of.
    """
    row = message_row(ctx, message_id)
    root = message_row(ctx, row["thread_id"]) if row["thread_id"] else row
    replies = ctx.db.execute("SELECT * FROM messages WHERE thread_id = ? ORDER BY posted_at, message_id",
                             (root["message_id"],)).fetchall()
    said = [message_model(ctx, r) for r in replies]
    return Thread(root=message_model(ctx, root), replies=said, total=len(replies),
                  replies_text=messages_text(ctx, said, len(replies), where=False))


@tools.tool(effect=WRITE, asks=[
    "Post '{text}' in {channel_id}.",
    "Tell everyone in {channel_id}: {text}",
    "Write this in {channel_id}: {text}",
], reply=[
    "Posted in {channel_id}.",
    "Done: your message is up in #{result.channel_name}.",
], values={
    "text": [
        "Release notes are up, please take a look.", "Standup moved to 10:15 today.",
        "Who has the conference room booked at 2?", "Deploy is done, all green.",
        "Reminder: timesheets are due Friday.",
        "Can someone review my PR before noon?", "The dashboard is back up after the outage.",
        "Slides for tomorrow's demo are in the shared drive.",
    ],
})
def post_message(ctx: Ctx, channel_id: PostableChannelId, text: Text) -> ChatMessage:
    """Post a message in a channel or direct message the user is in.

    Mention people with '@handle' (such as '@ana.lopez') or '<@USR-10003>', and the whole
    channel with '@here' or '@channel'.

    Args:
        channel_id: ID of the channel, such as 'CHN-10003' (or a direct message, 'DM-10001').
        text: the message, such as 'Release notes are up, @ana.lopez please review.'.

    Returns:
        The posted message with its ID and the people it mentions.

    Raises:
        not_found: no channel has that ID.
        private_channel: the channel is private and the user is not a member.
        not_in_channel: the user is not a member (join_channel first).
        channel_archived: the channel is archived.
        posting_restricted: only admins can post in this channel.
    """
    row = writable_channel(ctx, channel_id)
    require_can_post(ctx, row)
    message_id = post(ctx, channel_id, me(ctx), text, ctx.now_iso())
    return message_model(ctx, message_row(ctx, message_id))


@tools.tool(effect=WRITE, asks=[
    "Reply to {message_id} in the thread: {text}",
    Ask("Answer {message_id} with '{text}' and also send it to the channel.", also_send_to_channel=True),
    "In the thread under {message_id}, say: {text}",
], reply=[
    "Replied in the thread on {message_id}.",
    "Done: your reply is in the thread in #{result.channel_name}.",
], values={
    # Thread replies that answer any message (a question, news, thanks), not only a bug report.
    "text": [
        "Thanks, noted!", "Sounds good to me.", "Thanks for the heads-up.", "Got it, I'll take a look today.",
        "Makes sense, thanks.",
    ],
})
def reply_in_thread(ctx: Ctx, message_id: ColleagueChannelMessageId, text: Text,
                    also_send_to_channel: bool = False) -> ChatMessage:
    """Reply in a message's thread (a reply to a reply goes to the same thread).

    Args:
        message_id: ID of the message to reply to, such as 'CM-10042'.
        text: the reply, such as 'On it, will update by noon.'.
        also_send_to_channel: also show the reply in the channel, such as true; default false.

    Returns:
        The reply, with thread_id set to the thread's first message.

    Raises:
        not_found: no message has that ID.
        private_channel: the message is in a private channel the user is not a member of.
        not_in_channel: the user is not a member of the channel.
        channel_archived: the channel is archived.
        message_deleted: the thread's first message was deleted.
        posting_restricted: sending to the channel too, where only admins post.
    """
    row = message_row(ctx, message_id)
    root = message_row(ctx, row["thread_id"]) if row["thread_id"] else row
    channel = writable_channel(ctx, row["channel_id"])
    require_not_deleted(root)
    if also_send_to_channel:
        require_can_post(ctx, channel)
    reply_id = post(ctx, row["channel_id"], me(ctx), text, ctx.now_iso(), thread_id=root["message_id"],
                    in_channel=also_send_to_channel)
    return message_model(ctx, message_row(ctx, reply_id))


@tools.tool(effect=WRITE, asks=[
    "DM {user_id}: {text}",
    "Send {user_id} a direct message saying: {text}",
    "Message {user_id} privately: {text}",
], reply=[
    "Sent {user_id} a direct message.",
    "Done: your DM to {user_id} is sent.",
], values={
    "text": [
        "Got a minute to talk about the launch?", "Can you send me the latest numbers?",
        "Thanks for covering for me yesterday!", "Are we still on for 3pm?",
        "Could you review my doc when you have a moment?", "Running 5 minutes late to our 1:1.",
        "Nice work on the demo today.", "Do you have the login for the staging server?",
    ],
})
def send_direct_message(ctx: Ctx, user_id: ColleagueId, text: Text) -> ChatMessage:
    """Send a direct message to one person, opening the conversation if there is none yet.

    Args:
        user_id: ID of the person, such as 'USR-10004'.
        text: the message, such as 'Got a minute to talk about the launch?'.

    Returns:
        The message, in the direct message conversation (its channel_id starts with 'DM-').

    Raises:
        not_found: no user has that ID.
        user_deactivated: the person's account is deactivated.
        cannot_message_self: the ID is the user's own.
    """
    person = active_user(ctx, user_id)
    if person["user_id"] == me(ctx):
        raise ToolError("cannot_message_self", "That is your own user ID.",
                        hint="Use set_reminder to leave yourself a note.")
    channel_id = open_dm(ctx, person["user_id"])
    message_id = post(ctx, channel_id, me(ctx), text, ctx.now_iso())
    return message_model(ctx, message_row(ctx, message_id))


@tools.tool(effect=WRITE, asks=[
    "Edit {message_id} to say: {text}",
    "Fix the typo in {message_id}: it should read {text}",
], reply=[
    "Edited the message; '{text}' is what it says now.",
    "Done: {message_id} is fixed and marked as edited.",
], values={
    # The correction of the world's one message with a typo (TypoMessageId), word for word.
    "text": [TYPO_FIXED],
})
def edit_message(ctx: Ctx, message_id: TypoMessageId, text: Text) -> ChatMessage:
    """Replace the text of one of the user's own messages; it is marked as edited.

    Args:
        message_id: ID of the user's message, such as 'CM-10042'.
        text: the new text, such as 'Standup moved to 10:15 today.'.

    Returns:
        The edited message.

    Raises:
        not_found: no message has that ID.
        private_channel: the message is in a private channel the user is not a member of.
        not_author: someone else posted the message.
        message_deleted: the message was deleted.
        channel_archived: the channel is archived.
    """
    row = _own_message(ctx, message_id)
    people, broadcast = find_mentions(ctx, text)
    ctx.db.execute("UPDATE messages SET text = ?, edited_at = ?, mentions_channel = ? WHERE message_id = ?",
                   (text, ctx.now_iso(), int(broadcast), row["message_id"]))
    ctx.db.execute("DELETE FROM mentions WHERE message_id = ?", (row["message_id"],))
    ctx.db.executemany("INSERT INTO mentions (message_id, user_id) VALUES (?, ?)",
                       [(row["message_id"], u) for u in people])
    return message_model(ctx, message_row(ctx, message_id))


@tools.tool(effect=WRITE, asks=[
    "Delete {message_id}.",
    "Remove {message_id}, I posted it in the wrong place.",
], reply=[
    "Deleted {message_id}.",
    "Done: {message_id} is gone; its thread keeps {result.replies_kept} replies.",
    Ask("Deleted {message_id}; nobody had replied to it.", **{"result.replies_kept": 0}),
])
def delete_message(ctx: Ctx, message_id: MessageId) -> DeletedMessage:
    """Delete one of the user's own messages; its reactions and pin go, thread replies stay.

    Args:
        message_id: ID of the user's message, such as 'CM-10042'.

    Returns:
        The deleted message's ID and channel, and how many thread replies remain under it.

    Raises:
        not_found: no message has that ID.
        private_channel: the message is in a private channel the user is not a member of.
        not_author: someone else posted the message.
        message_deleted: the message was already deleted.
        channel_archived: the channel is archived.
    """
    row = _own_message(ctx, message_id)
    ctx.db.execute("UPDATE messages SET text = '', is_deleted = 1, pinned_by = NULL, pinned_at = NULL, "
                   "mentions_channel = 0 WHERE message_id = ?", (message_id,))
    ctx.db.execute("DELETE FROM reactions WHERE message_id = ?", (message_id,))
    ctx.db.execute("DELETE FROM mentions WHERE message_id = ?", (message_id,))
    replies = ctx.db.execute("SELECT count(*) FROM messages WHERE thread_id = ?", (message_id,)).fetchone()[0]
    return DeletedMessage(message_id=message_id, channel_id=row["channel_id"], replies_kept=replies)


@tools.tool(effect=READ, asks=[
    "Search chat for messages mentioning '{query}'.",
    "What has {from_user_id} said about '{query}'?",
    "Find messages in {channel_id} mentioning '{query}' since {after}.",
    # (not "what Carlos Thomas wrote in the DM with Carlos Thomas")
    Ask("Show me what {from_user_id} wrote in {channel_id}.", fits={"channel_id": "kind != 'dm'"}),
], reply=[
    "I found {result.total} messages: {result.messages_text}.",
])
def search_messages(ctx: Ctx, query: Query | None = None, channel_id: ChannelId | None = None,
                    from_user_id: UserId | None = None, after: str | None = None, before: str | None = None,
                    limit: Limit = 20) -> MessageList:
    """Search the messages the user can read (public channels, and private ones and DMs they are in), newest first.

    Text matches case-insensitively by substring. Every criterion given must match.

    Args:
        query: words to find, such as 'rollout'.
        channel_id: only messages in this channel, such as 'CHN-10003'.
        from_user_id: only messages from this person, such as 'USR-10004'.
        after: only messages posted after this time, such as '2026-03-09T00:00:00'.
        before: only messages posted before this time, such as '2026-03-14T00:00:00'.
        limit: the most messages to return, from 1 to 100, such as 20.

    Returns:
        The matching messages, replies included, and how many matched in total.

    Raises:
        not_found: the channel or the user does not exist.
        private_channel: `channel_id` is a private channel the user is not a member of.
        invalid_time: `after` or `before` is not an ISO 8601 local time between 2000 and 2099.
        end_before_start: `before` is not later than `after`.
    """
    sql = f"SELECT * FROM messages WHERE is_deleted = 0 AND channel_id IN ({READABLE})"
    params: dict[str, object] = {"me": me(ctx)}
    if channel_id is not None:
        readable_channel(ctx, channel_id)
        sql += " AND channel_id = :channel"
        params["channel"] = channel_id
    if from_user_id is not None:
        ctx.get("user", from_user_id)
        sql += " AND user_id = :author"
        params["author"] = from_user_id
    lo, hi = parse_window(after, before)
    if lo:
        sql += " AND posted_at > :lo"
        params["lo"] = lo
    if hi:
        sql += " AND posted_at < :hi"
        params["hi"] = hi
    if query is not None:
        sql += " AND lower(text) LIKE :q ESCAPE '\\'"
        params["q"] = like(query)
    rows = ctx.db.execute(sql + " ORDER BY posted_at DESC, message_id DESC", params).fetchall()
    messages = [message_model(ctx, r) for r in rows[:limit]]
    return MessageList(messages=messages, total=len(rows),
                       messages_text=messages_text(ctx, messages, len(rows), where=channel_id is None))


@tools.tool(effect=READ, asks=[
    "Did anyone mention me?",
    Ask("Show my unread mentions.", unread_only=True),
    "Who has @-mentioned me lately?",
], reply=[
    Ask("You have {result.total} unread mentions: {result.messages_text}.", unread_only=True),
    Ask("You were mentioned {result.total} times, {result.unread_text}: {result.messages_text}.", unread_only=False),
])
def list_mentions(ctx: Ctx, unread_only: bool = False, limit: Limit = 20) -> MentionList:
    """List messages that mention the user by name, or the whole channel (@here, @channel) in
    channels they are in, newest first.

    Args:
        unread_only: only mentions posted after the user last read that channel, such as true; default false.
        limit: the most messages to return, from 1 to 100, such as 20.

    Returns:
        The messages, how many matched, and how many are unread.
    """
    sql = ("SELECT m.*, m.posted_at > mb.last_read_at AS unread FROM messages m "
           "JOIN members mb ON mb.channel_id = m.channel_id AND mb.user_id = :me "
           "WHERE m.is_deleted = 0 AND m.user_id != :me AND (m.mentions_channel = 1 OR EXISTS "
           "(SELECT 1 FROM mentions x WHERE x.message_id = m.message_id AND x.user_id = :me))")
    rows = ctx.db.execute(sql + " ORDER BY m.posted_at DESC, m.message_id DESC", {"me": me(ctx)}).fetchall()
    unread = sum(1 for r in rows if r["unread"])
    if unread_only:
        rows = [r for r in rows if r["unread"]]
    messages = [message_model(ctx, r) for r in rows[:limit]]
    return MentionList(messages=messages, total=len(rows), unread=unread,
                       unread_text=f"{unread} of them unread" if unread else "none of them unread",
                       messages_text=messages_text(ctx, messages, len(rows)))

