"""Reactions and pins."""

from __future__ import annotations

from prove.env import READ, WRITE, Ctx, ToolError, Toolset

from .server import (
    MESSAGE,
    ChannelId,
    ChannelMessageId,
    ChatMessage,
    Emoji,
    MessageList,
    OthersMessageId,
    me,
    message_model,
    message_row,
    messages_text,
    normalize_emoji,
    readable_channel,
    require_not_deleted,
    writable_channel,
)

tools = Toolset("reactions")

# Reactions that suit any message (:joy: on a code-freeze notice would not); removing one takes
# back what was added, so both tools draw from these.
REACTIONS = ["thumbsup", "eyes", "white_check_mark", "raised_hands", "pray", "100"]
# A message the user reacted to with one of those: what "take back my reaction" names.
ReactedMessageId = MESSAGE.where(
    "is_deleted = 0 AND message_id IN (SELECT message_id FROM reactions WHERE user_id = "
    "(SELECT user_id FROM users WHERE is_me = 1) AND emoji IN (" + ", ".join(f"'{e}'" for e in REACTIONS) + ")) "
    "AND channel_id IN (SELECT channel_id FROM channels WHERE is_archived = 0)")

# A pinned message in a channel the user is in and can still change: what "unpin" names.
PinnedMessageId = MESSAGE.where(
    "is_deleted = 0 AND pinned_at IS NOT NULL AND channel_id IN (SELECT channel_id FROM members WHERE user_id = "
    "(SELECT user_id FROM users WHERE is_me = 1)) AND channel_id IN (SELECT channel_id FROM channels "
    "WHERE is_archived = 0)")

@tools.tool(effect=WRITE, asks=[
    "React to {message_id} with :{emoji}:.",
    "Add a :{emoji}: to {message_id}.",
    "Put a :{emoji}: reaction on {message_id}.",
], reply=[
    "Reacted to {message_id} with :{emoji}:.",
    "Done: your :{emoji}: is on the message.",
], values={
    "emoji": REACTIONS,
})
def add_reaction(ctx: Ctx, message_id: OthersMessageId, emoji: Emoji) -> ChatMessage:
    """Add the user's emoji reaction to a message; each person reacts with a given emoji once.

    Args:
        message_id: ID of the message, such as 'CM-10042'.
        emoji: the emoji's name, with or without colons, such as 'thumbsup', ':tada:' or 'eyes'.

    Returns:
        The message with its reactions.

    Raises:
        not_found: no message has that ID.
        private_channel: the message is in a private channel the user is not a member of.
        not_in_channel: the user is not a member of the channel.
        channel_archived: the channel is archived.
        message_deleted: the message was deleted.
        invalid_emoji: the emoji name is not known.
        already_reacted: the user already reacted with that emoji.
    """
    row = message_row(ctx, message_id)
    writable_channel(ctx, row["channel_id"])
    require_not_deleted(row)
    name = normalize_emoji(emoji)
    user = me(ctx)
    if ctx.db.execute("SELECT 1 FROM reactions WHERE message_id = ? AND emoji = ? AND user_id = ?",
                      (message_id, name, user)).fetchone():
        raise ToolError("already_reacted", f"You already reacted to {message_id} with :{name}:.")
    ctx.db.execute("INSERT INTO reactions (message_id, emoji, user_id) VALUES (?, ?, ?)", (message_id, name, user))
    return message_model(ctx, message_row(ctx, message_id))


@tools.tool(effect=WRITE, asks=[
    "Remove my :{emoji}: reaction from {message_id}.",
    "Take back the :{emoji}: I put on {message_id}.",
], reply=[
    "Removed your :{emoji}: from {message_id}.",
    "Done: your :{emoji}: reaction is gone.",
], values={"emoji": REACTIONS})
def remove_reaction(ctx: Ctx, message_id: ReactedMessageId, emoji: Emoji) -> ChatMessage:
    """Remove one of the user's own reactions from a message.

    Args:
        message_id: ID of the message, such as 'CM-10042'.
        emoji: the emoji's name, such as 'thumbsup'.

    Returns:
        The message with its remaining reactions.

    Raises:
        not_found: no message has that ID.
        private_channel: the message is in a private channel the user is not a member of.
        not_in_channel: the user is not a member of the channel.
        channel_archived: the channel is archived.
        invalid_emoji: the emoji name is not known.
        no_reaction: the user has not reacted with that emoji.
    """
    row = message_row(ctx, message_id)
    writable_channel(ctx, row["channel_id"])
    name = normalize_emoji(emoji)
    cur = ctx.db.execute("DELETE FROM reactions WHERE message_id = ? AND emoji = ? AND user_id = ?",
                         (message_id, name, me(ctx)))
    if not cur.rowcount:
        raise ToolError("no_reaction", f"You have not reacted to {message_id} with :{name}:.")
    return message_model(ctx, message_row(ctx, message_id))


@tools.tool(effect=WRITE, asks=[
    "Pin {message_id}.",
    "Pin {message_id} so people can find it.",
], reply=[
    "Pinned {message_id} in #{result.channel_name}.",
    "Done: {message_id} is pinned in #{result.channel_name}.",
])
def pin_message(ctx: Ctx, message_id: ChannelMessageId) -> ChatMessage:
    """Pin a message to its channel.

    Args:
        message_id: ID of the message, such as 'CM-10042'.

    Returns:
        The message, now pinned.

    Raises:
        not_found: no message has that ID.
        private_channel: the message is in a private channel the user is not a member of.
        not_in_channel: the user is not a member of the channel.
        channel_archived: the channel is archived.
        message_deleted: the message was deleted.
        already_pinned: the message is already pinned.
    """
    row = message_row(ctx, message_id)
    writable_channel(ctx, row["channel_id"])
    require_not_deleted(row)
    if row["pinned_at"] is not None:
        raise ToolError("already_pinned", f"{message_id} is already pinned (since {row['pinned_at']}).")
    ctx.db.execute("UPDATE messages SET pinned_by = ?, pinned_at = ? WHERE message_id = ?",
                   (me(ctx), ctx.now_iso(), message_id))
    return message_model(ctx, message_row(ctx, message_id))


@tools.tool(effect=WRITE, asks=[
    "Unpin {message_id}.",
    "No need to keep {message_id} pinned anymore, unpin it.",
], reply=[
    "Unpinned {message_id}.",
    "Done: {message_id} is no longer pinned in #{result.channel_name}.",
])
def unpin_message(ctx: Ctx, message_id: PinnedMessageId) -> ChatMessage:
    """Unpin a message from its channel (anyone in the channel may unpin).

    Args:
        message_id: ID of the message, such as 'CM-10042'.

    Returns:
        The message, no longer pinned.

    Raises:
        not_found: no message has that ID.
        private_channel: the message is in a private channel the user is not a member of.
        not_in_channel: the user is not a member of the channel.
        channel_archived: the channel is archived.
        not_pinned: the message is not pinned.
    """
    row = message_row(ctx, message_id)
    writable_channel(ctx, row["channel_id"])
    if row["pinned_at"] is None:
        raise ToolError("not_pinned", f"{message_id} is not pinned.")
    ctx.db.execute("UPDATE messages SET pinned_by = NULL, pinned_at = NULL WHERE message_id = ?", (message_id,))
    return message_model(ctx, message_row(ctx, message_id))


@tools.tool(effect=READ, asks=[
    "What's pinned in {channel_id}?",
    "Show me the pinned messages of {channel_id}.",
], reply=[
    "Pinned in {channel_id}: {result.messages_text}.",
])
def list_pins(ctx: Ctx, channel_id: ChannelId) -> MessageList:
    """List a channel's pinned messages, most recently pinned first.

    Args:
        channel_id: ID of the channel, such as 'CHN-10003'.

    Returns:
        The pinned messages and how many there are.

    Raises:
        not_found: no channel has that ID.
        private_channel: the channel is private and the user is not a member.
    """
    readable_channel(ctx, channel_id)
    rows = ctx.db.execute("SELECT * FROM messages WHERE channel_id = ? AND pinned_at IS NOT NULL AND is_deleted = 0 "
                          "ORDER BY pinned_at DESC, message_id DESC", (channel_id,)).fetchall()
    messages = [message_model(ctx, r) for r in rows]
    return MessageList(messages=messages, total=len(rows),
                       messages_text=messages_text(ctx, messages, len(rows), where=False))
