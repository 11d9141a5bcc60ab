"""Messages: list, search and read mail; mark read, star, move, archive, trash, restore, spam."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso, like, parse_window, quote, spoken_day

from .server import (
    ArchivableMessageId,
    BlockedAddress,
    FolderId,
    KeptMessageId,
    LabelId,
    Limit,
    Message,
    MessageId,
    MessageList,
    MessageSummary,
    MisfiledSpamId,
    NamedThreadId,
    Query,
    Thread,
    TrashedMessageId,
    UntrashedMessageId,
    UnwantedMessageId,
    WorkFolderId,
    WorkMessageId,
    delete_messages,
    folder_row,
    known_names,
    message_model,
    messages_text,
    require_not_draft,
    summary,
)

tools = Toolset("messages")

Offset = Annotated[int, Field(ge=0, le=10_000)]


class ReadUpdate(BaseModel):
    messages: list[MessageSummary]
    total: int
    changed: int = Field(description="how many messages actually changed (the others already were so)")


class Moved(BaseModel):
    message: MessageSummary
    from_folder_id: FolderId = Field(description="the folder the message was in before")


class SpamReport(BaseModel):
    message: MessageSummary
    blocked_sender: BlockedAddress | None = Field(description="the address now blocked, if it was blocked by this call")


class NotSpam(BaseModel):
    message: MessageSummary
    unblocked_sender: str | None = Field(description="the address no longer blocked, if it was blocked")


class TrashEmptied(BaseModel):
    deleted_ids: list[str] = Field(description="IDs of the messages deleted for good")
    total: int


def _relocate(ctx: Ctx, row, folder_id: str) -> Moved:
    """Put a message in `folder_id`; remember where a trashed message came from."""
    ctx.db.execute("UPDATE messages SET folder_id = ?, trashed_from = ? WHERE message_id = ?",
                   (folder_id, row["folder_id"] if folder_id == "trash" else None, row["message_id"]))
    return Moved(message=summary(ctx, ctx.get("message", row["message_id"])), from_folder_id=row["folder_id"])


def _labelled(ctx: Ctx, where: Where, label_id: str | None) -> None:
    """Only messages that carry `label_id` (checked to exist), unless it is None."""
    if label_id is not None:
        ctx.get("label", label_id)
        where.add("EXISTS (SELECT 1 FROM message_labels l WHERE l.message_id = m.message_id AND l.label_id = ?)",
                  label_id)


@tools.tool(effect=READ, asks=[
    "What's in my inbox?",
    Ask("Show me the unread messages in {folder_id}.", unread_only=True),
    Ask("List my starred emails in {folder_id}.", starred_only=True),
    "Which emails in my inbox carry {label_id}?",
    "What's in {folder_id}?",
], reply=[
    Ask("{result.total} unread emails in {folder_id}, newest first: {result.messages_text}.", unread_only=True),
    Ask("{result.total} starred emails in {folder_id}, newest first: {result.messages_text}.", starred_only=True,
        unread_only=False),
    Ask("{result.total} emails in {folder_id}, newest first: {result.messages_text}.", unread_only=False,
        starred_only=False),
])
def list_messages(ctx: Ctx, folder_id: FolderId = "inbox", unread_only: bool = False, starred_only: bool = False,
                  label_id: LabelId | None = None, limit: Limit = 25, offset: Offset = 0) -> MessageList:
    """List the messages in one folder, newest first.

    Args:
        folder_id: the folder, such as 'inbox', 'sent', 'drafts', 'scheduled', 'archive', 'spam', 'trash'
            or a custom folder such as 'FLD-10001'; default 'inbox'.
        unread_only: only unread messages, such as true; default false.
        starred_only: only starred messages, such as true; default false.
        label_id: only messages carrying this label, such as 'LBL-10001'.
        limit: the most messages to return, from 1 to 100, such as 25.
        offset: how many of the newest matches to skip, for paging, such as 25; default 0.

    Returns:
        Message summaries (ID, thread, folder, status, sender, recipients, subject, snippet, date,
        read and starred flags, attachments, labels) and how many matched in total.

    Raises:
        not_found: the folder or the label does not exist.
    """
    folder = folder_row(ctx, folder_id)
    where = Where()
    where.eq("m.folder_id", folder["folder_id"])
    if unread_only:
        where.add("m.is_read = 0")
    if starred_only:
        where.add("m.is_starred = 1")
    _labelled(ctx, where, label_id)
    rows = ctx.db.execute(f"SELECT m.* FROM messages m WHERE {where.sql} ORDER BY m.sent_at DESC, m.message_id DESC",
                          where.params).fetchall()
    messages = [summary(ctx, r) for r in rows[offset:offset + limit]]
    return MessageList(messages=messages, total=len(rows),
                       messages_text=messages_text(messages, len(rows) - offset, ctx.today(), known_names(ctx),
                                                   unread_said=not unread_only))


@tools.tool(effect=READ, asks=[
    "Find emails about {query}.",
    "Find emails with '{query}' in the subject.",
    "Search my mail from {sender} since {after}.",
    Ask("Did {sender} send me anything with an attachment?", has_attachment=True),
    "Look for messages mentioning '{query}' sent to {recipient} before {before}.",
    Ask("Any unread mail from {sender}?", unread_only=True),
], reply=[
    "I found {result.total} emails, newest first: {result.messages_text}.",
])
def search_messages(ctx: Ctx, query: Query | None = None, sender: Query | None = None, recipient: Query | None = None,
                    folder_id: FolderId | None = None, label_id: LabelId | None = None,
                    has_attachment: bool | None = None, unread_only: bool = False, after: str | None = None,
                    before: str | None = None, limit: Limit = 25) -> MessageList:
    """Search the mailbox, newest first; spam and trash are searched only when `folder_id` names them.

    Text matching is case-insensitive and by substring. Every criterion given must match.

    Args:
        query: words to find in the subject, body or sender, such as 'budget'.
        sender: part of the sender's name or address, such as 'morningbrew.com' or 'Ana'.
        recipient: part of a to/cc/bcc address, such as 'finance@'.
        folder_id: only this folder, such as 'archive' or 'FLD-10001'.
        label_id: only messages with this label, such as 'LBL-10002'.
        has_attachment: true for only messages with attachments, false for only without.
        unread_only: only unread messages, such as true; default false.
        after: only messages dated at or after this date or time, such as '2026-03-01'.
        before: only messages dated before this date or time, such as '2026-03-10T00:00:00'.
        limit: the most messages to return, from 1 to 100, such as 25.

    Returns:
        The matching message summaries and how many matched in total.

    Raises:
        not_found: the folder or the label does not exist.
        invalid_time: `after` or `before` is not an ISO 8601 date or local time between 2000 and 2099.
        end_before_start: `before` is not later than `after`.
    """
    where = Where()
    if folder_id is not None:
        where.add("m.folder_id = ?", folder_row(ctx, folder_id)["folder_id"])
    else:
        where.add("m.folder_id NOT IN ('spam', 'trash')")
    _labelled(ctx, where, label_id)
    lo, hi = parse_window(after, before)
    if lo:
        where.add("m.sent_at >= ?", lo)
    if hi:
        where.add("m.sent_at < ?", hi)
    if query is not None:
        where.add("(lower(m.subject) LIKE ? ESCAPE '\\' OR lower(m.body) LIKE ? ESCAPE '\\' "
                  "OR lower(m.from_name || ' ' || m.from_address) LIKE ? ESCAPE '\\')", *[like(query)] * 3)
    if sender is not None:
        where.add("lower(m.from_name || ' <' || m.from_address || '>') LIKE ? ESCAPE '\\'", like(sender))
    if recipient is not None:
        where.add("EXISTS (SELECT 1 FROM recipients r WHERE r.message_id = m.message_id "
                  "AND r.address LIKE ? ESCAPE '\\')", like(recipient))
    if has_attachment is not None:
        where.add(f"{'' if has_attachment else 'NOT '}EXISTS "
                  "(SELECT 1 FROM attachments a WHERE a.message_id = m.message_id)")
    if unread_only:
        where.add("m.is_read = 0")
    rows = ctx.db.execute(f"SELECT m.* FROM messages m WHERE {where.sql} ORDER BY m.sent_at DESC, m.message_id DESC",
                          where.params).fetchall()
    messages = [summary(ctx, r) for r in rows[:limit]]
    return MessageList(messages=messages, total=len(rows),
                       messages_text=messages_text(messages, len(rows), ctx.today(), known_names(ctx),
                                                   unread_said=not unread_only))


_OWN_SUBJECT = {"message_id": "subject IN (SELECT subject FROM messages GROUP BY subject HAVING count(*) = 1)"}


@tools.tool(effect=READ, asks=[
    "Open {message_id}.",
    # (an email whose subject another shares is told apart by its sender: "who sent the email 'Moving help'
    # from Elizabeth Miller?" would give the answer away)
    Ask("Who sent {message_id}, and to whom?", fits=_OWN_SUBJECT),
    Ask("When did {message_id} come in, and who sent it?", fits=_OWN_SUBJECT),
], reply=[
    # Who wrote it, when and to whom, as asked (the body is not read out: a reworded reply could not
    # be checked to keep a text of several sentences whole).
    "'{result.subject}' is from {result.from_name} ({result.from_address}), sent {result.date} to {result.to_names}; "
    "it's in the {result.folder_name} folder.",
    "{result.from_name} sent it on {result.date} to {result.to_names}, from {result.from_address}.",
    # The user's own mail: they sent it (or have not yet), not "Ava Singh sent it".
    Ask("You sent '{result.subject}' on {result.date} to {result.to_names}; it's in the {result.folder_name} folder.",
        **{"result.status": "sent"}),
    Ask("'{result.subject}' is a draft of yours to {result.to_names}, not sent yet.", **{"result.status": "draft"}),
])
def get_message(ctx: Ctx, message_id: MessageId) -> Message:
    """Read one message in full: recipients, body, attachments and labels.

    Reading does not mark it as read; call mark_read for that.

    Args:
        message_id: ID of the message, such as 'MSG-10042'.

    Returns:
        The message with its folder, status, sender, to/cc/bcc, subject, body, date, flags, the
        message it answers, attachments and labels.

    Raises:
        not_found: no message has that ID.
    """
    return message_model(ctx, message_id)


@tools.tool(effect=READ, asks=[
    "Show me the whole conversation in {thread_id}.",
    "Pull up every message in {thread_id}, oldest first.",
], reply=[
    "The conversation '{result.subject}' has {result.total} messages: {result.conversation_text}.",
])
def get_thread(ctx: Ctx, thread_id: NamedThreadId) -> Thread:
    """Read a whole conversation: every message, reply, forward and draft in it, oldest first.

    Args:
        thread_id: ID of the thread, such as 'THR-10007' (every message carries its thread_id).

    Returns:
        The thread's subject and its messages in full, in date order.

    Raises:
        not_found: no thread has that ID.
    """
    row = ctx.db.execute("SELECT * FROM threads WHERE thread_id = ?", (thread_id,)).fetchone()
    if row is None:
        raise ToolError("not_found", f"No thread has ID {quote(thread_id)}.",
                        hint="Every message shows its thread_id; IDs look like 'THR-10007'.")
    ids = [r[0] for r in ctx.db.execute(
        "SELECT message_id FROM messages WHERE thread_id = ? ORDER BY sent_at, message_id", (thread_id,))]
    messages = [message_model(ctx, m) for m in ids]
    today = ctx.today()
    said = []
    for m in messages:
        day = spoken_day(m.date, today)
        body = " ".join(m.body.split())
        opening = body if len(body) <= 60 else body[:60].rsplit(" ", 1)[0].rstrip(",;:.") + "…"
        who = (f"your draft from {day}" if m.status == "draft" else f"you wrote on {day}"
               if m.status in ("sent", "scheduled") else f"{m.from_name} wrote on {day}")
        if not body:  # a draft with no words yet
            said.append(f"{who} is empty" if m.status == "draft" else f"{who}, with no text")
        else:
            said.append(f"{who} reads: '{opening}'" if m.status == "draft" else f"{who}: '{opening}'")
    text = "; ".join(said) or "none"
    return Thread(thread_id=thread_id, subject=row["subject"], messages=messages, total=len(ids),
                  conversation_text=text[:1].upper() + text[1:] if text.startswith("you") else text)


@tools.tool(effect=WRITE, asks=[
    Ask("Mark {message_ids} as read.", read=True),
    # (one email or several: no "them" for a single one)
    Ask("Mark {message_ids} as unread again; I want to come back to that later.", read=False),
    Ask("Please clear {message_ids} from my unread count.", read=True),
], reply=[
    Ask("Marked {message_ids} as read.", read=True),
    Ask("Done: I marked {message_ids} as read.", read=True),
    Ask("Marked {message_ids} as unread again.", read=False),
    Ask("Done: I marked {message_ids} as unread again.", read=False),
])
def mark_read(ctx: Ctx, message_ids: Annotated[list[KeptMessageId], Field(min_length=1, max_length=100)],
              read: bool = True) -> ReadUpdate:
    """Mark messages as read, or as unread with `read` false.

    Args:
        message_ids: IDs of the messages, such as ['MSG-10042', 'MSG-10043'].
        read: true to mark read, false to mark unread; default true.

    Returns:
        The messages as they are now and how many of them changed.

    Raises:
        not_found: a message does not exist.
        is_draft: a message is a draft or scheduled message, which has no read state.
    """
    rows = [ctx.get("message", m) for m in dict.fromkeys(message_ids)]
    for row in rows:
        require_not_draft(row)
    changed = sum(1 for r in rows if bool(r["is_read"]) != read)
    ctx.db.executemany("UPDATE messages SET is_read = ? WHERE message_id = ?",
                       [(int(read), r["message_id"]) for r in rows])
    return ReadUpdate(messages=[summary(ctx, ctx.get("message", r["message_id"])) for r in rows], total=len(rows),
                      changed=changed)


@tools.tool(effect=WRITE, asks=[
    Ask("Star {message_id}.", starred=True),
    "Flag {message_id} so I don't forget it.",
    Ask("Remove the star from {message_id}.", starred=False),
    Ask("Unstar {message_id}, I've dealt with it.", starred=False),
], reply=[
    Ask("Starred {message_id}.", starred=True),
    Ask("Done: {message_id} has a star now.", starred=True),
    Ask("Removed the star from {message_id}.", starred=False),
    Ask("Done: {message_id} is no longer starred.", starred=False),
])
def star_message(ctx: Ctx, message_id: MessageId, starred: bool = True) -> MessageSummary:
    """Star a message, or remove its star with `starred` false.

    Args:
        message_id: ID of the message, such as 'MSG-10042'.
        starred: true to star, false to unstar; default true.

    Returns:
        The message summary with its new starred flag.

    Raises:
        not_found: no message has that ID.
        already_starred: the message is already starred.
        not_starred: the message is not starred, so there is no star to remove.
    """
    row = ctx.get("message", message_id)
    if starred and row["is_starred"]:
        raise ToolError("already_starred", f"{message_id} ('{row['subject']}') is already starred.")
    if not starred and not row["is_starred"]:
        raise ToolError("not_starred", f"{message_id} ('{row['subject']}') is not starred.")
    ctx.db.execute("UPDATE messages SET is_starred = ? WHERE message_id = ?", (int(starred), message_id))
    return summary(ctx, ctx.get("message", message_id))


@tools.tool(effect=WRITE, asks=[
    "Move {message_id} to {folder_id}.",
    "Could you move {message_id} into {folder_id}?",
    "Please move {message_id} over to {folder_id}.",
], reply=[
    "Moved {message_id} to {folder_id}.",
    "Done: {message_id} is now in {folder_id}.",
])
def move_message(ctx: Ctx, message_id: WorkMessageId, folder_id: WorkFolderId) -> Moved:
    """Move a received or sent message to another folder.

    Moving into 'trash' works like trash_message. Nothing can be moved into 'drafts' or
    'scheduled', only sent messages into 'sent', and only received ones into 'spam'.

    Args:
        message_id: ID of the message, such as 'MSG-10042'.
        folder_id: the destination, such as 'archive' or 'FLD-10001'.

    Returns:
        The message in its new folder, and the folder it came from.

    Raises:
        not_found: the message or the folder does not exist.
        is_draft: the message is a draft or scheduled message (those stay where they are).
        invalid_destination: the folder is 'drafts' or 'scheduled', 'sent' for a message the user did not
            send, or 'spam' for one they sent.
        already_in_folder: the message is already in that folder.
    """
    row = ctx.get("message", message_id)
    folder = folder_row(ctx, folder_id)
    require_not_draft(row)
    dest = folder["folder_id"]
    if (dest in ("drafts", "scheduled") or (dest == "sent" and row["status"] != "sent")
            or (dest == "spam" and row["status"] == "sent")):
        raise ToolError("invalid_destination", f"A {row['status']} message cannot be moved to {folder['name']}.",
                        hint="Pick a folder such as 'inbox', 'archive' or one of yours from list_folders.")
    if row["folder_id"] == dest:
        raise ToolError("already_in_folder", f"{message_id} is already in {folder['name']}.")
    return _relocate(ctx, row, dest)


@tools.tool(effect=WRITE, asks=[
    "Archive {message_id}.",
    "Get {message_id} out of the way but keep it.",
], reply=[
    "Archived {message_id}; it's still searchable.",
    "Done: {message_id} is in the archive now.",
])
def archive_message(ctx: Ctx, message_id: ArchivableMessageId) -> Moved:
    """Move a message to the archive: out of the inbox (or any folder) but kept and searchable.

    Args:
        message_id: ID of the message, such as 'MSG-10042'.

    Returns:
        The message, now in 'archive', and the folder it came from.

    Raises:
        not_found: no message has that ID.
        is_draft: the message is a draft or scheduled message.
        already_archived: the message is already in the archive.
    """
    row = ctx.get("message", message_id)
    require_not_draft(row)
    if row["folder_id"] == "archive":
        raise ToolError("already_archived", f"{message_id} ('{row['subject']}') is already archived.")
    return _relocate(ctx, row, "archive")


@tools.tool(effect=WRITE, asks=[
    "Delete {message_id}.",
    "Throw {message_id} in the trash.",
], reply=[
    "Moved {message_id} to the trash; it can be restored until the trash is emptied.",
    "Done: {message_id} is in the trash.",
])
def trash_message(ctx: Ctx, message_id: UntrashedMessageId) -> Moved:
    """Move a message to the trash; restore_message brings it back until the trash is emptied.

    Args:
        message_id: ID of the message, such as 'MSG-10042'.

    Returns:
        The message, now in 'trash', and the folder it came from.

    Raises:
        not_found: no message has that ID.
        is_draft: the message is a draft or scheduled message (use delete_draft).
        already_in_trash: the message is already in the trash.
    """
    row = ctx.get("message", message_id)
    require_not_draft(row)
    if row["folder_id"] == "trash":
        raise ToolError("already_in_trash", f"{message_id} ('{row['subject']}') is already in the trash.",
                        hint="empty_trash deletes it for good; restore_message brings it back.")
    return _relocate(ctx, row, "trash")


@tools.tool(effect=WRITE, asks=[
    "Restore {message_id} from the trash.",
    "I deleted {message_id} by mistake, bring it back.",
], reply=[
    "Restored the email '{result.message.subject}'; it's back in the folder it was in before you deleted it.",
    "Done: the email '{result.message.subject}' is out of the trash.",
])
def restore_message(ctx: Ctx, message_id: TrashedMessageId) -> Moved:
    """Take a message out of the trash, back to the folder it was trashed from.

    If that folder no longer exists, a received message goes to the inbox and a sent one to Sent.

    Args:
        message_id: ID of the message, such as 'MSG-10042'.

    Returns:
        The message in its restored folder.

    Raises:
        not_found: no message has that ID.
        not_in_trash: the message is not in the trash.
    """
    row = ctx.get("message", message_id)
    if row["folder_id"] != "trash":
        raise ToolError("not_in_trash", f"{message_id} is in {row['folder_id']}, not in the trash.")
    back = row["trashed_from"]
    exists = back and ctx.db.execute("SELECT 1 FROM folders WHERE folder_id = ?", (back,)).fetchone()
    if not exists or back == "trash":
        back = "sent" if row["status"] == "sent" else "inbox"
    return _relocate(ctx, row, back)


@tools.tool(effect=WRITE, asks=[
    "Empty my trash.",
    "Permanently delete everything in the trash.",
], reply=[
    "Emptied the trash: {result.total} emails are gone for good.",
    "Done: I permanently deleted {result.total} emails from the trash.",
])
def empty_trash(ctx: Ctx) -> TrashEmptied:
    """Delete every message in the trash for good (with its attachments); this cannot be undone.

    Returns:
        The IDs of the deleted messages and how many there were.

    Raises:
        trash_empty: there is nothing in the trash.
    """
    ids = [r[0] for r in ctx.db.execute(
        "SELECT message_id FROM messages WHERE folder_id = 'trash' ORDER BY message_id")]
    if not ids:
        raise ToolError("trash_empty", "The trash is already empty.")
    delete_messages(ctx, ids)
    return TrashEmptied(deleted_ids=ids, total=len(ids))


@tools.tool(effect=WRITE, asks=[
    "{message_id} is spam, report it.",
    Ask("Report {message_id} as spam and block the sender.", block_sender=True),
    Ask("Mark {message_id} as junk but don't block the sender.", block_sender=False),
], reply=[
    Ask("Reported {message_id} as spam; it's in your spam folder, and mail from that sender goes straight to spam "
        "now.", block_sender=True),
    Ask("Done: {message_id} is in spam and its sender is blocked.", block_sender=True),
    Ask("Moved {message_id} to spam without blocking its sender.", block_sender=False),
    Ask("Done: {message_id} is in spam; I left the sender unblocked.", block_sender=False),
])
def report_spam(ctx: Ctx, message_id: UnwantedMessageId, block_sender: bool = True) -> SpamReport:
    """Move a received message to spam and, by default, block its sender.

    Mail from a blocked sender goes straight to spam from then on.

    Args:
        message_id: ID of the message, such as 'MSG-10042'.
        block_sender: also block the sender's address, such as false; default true.

    Returns:
        The message, now in 'spam', and the address blocked by this call, if any.

    Raises:
        not_found: no message has that ID.
        is_draft: the message is a draft or scheduled message.
        not_received: the user sent this message themselves.
        already_spam: the message is already in spam.
    """
    row = ctx.get("message", message_id)
    require_not_draft(row)
    if row["status"] != "received":
        raise ToolError("not_received", f"{message_id} is a message you sent; only received mail can be spam.")
    if row["folder_id"] == "spam":
        raise ToolError("already_spam", f"{message_id} ('{row['subject']}') is already in spam.")
    blocked = None
    if block_sender and not ctx.db.execute("SELECT 1 FROM blocked_senders WHERE address = ?",
                                           (row["from_address"],)).fetchone():
        ctx.db.execute("INSERT INTO blocked_senders (address, blocked_at) VALUES (?, ?)",
                       (row["from_address"], iso(ctx.now())))
        blocked = row["from_address"]
    moved = _relocate(ctx, row, "spam")
    return SpamReport(message=moved.message, blocked_sender=blocked)


@tools.tool(effect=WRITE, asks=[
    "{message_id} isn't spam, move it back to my inbox.",
    "Rescue {message_id} from the spam folder.",
], reply=[
    "Moved {message_id} back to your inbox.",
    "Done: '{result.message.subject}' is out of spam and back in your inbox.",
])
def mark_not_spam(ctx: Ctx, message_id: MisfiledSpamId) -> NotSpam:
    """Move a message out of spam into the inbox, and unblock its sender if they were blocked.

    Args:
        message_id: ID of a message in spam, such as 'MSG-10042'.

    Returns:
        The message, now in the inbox, and the address unblocked, if any.

    Raises:
        not_found: no message has that ID.
        not_spam: the message is not in spam.
    """
    row = ctx.get("message", message_id)
    if row["folder_id"] != "spam":
        raise ToolError("not_spam", f"{message_id} is in {row['folder_id']}, not in spam.")
    cur = ctx.db.execute("DELETE FROM blocked_senders WHERE address = ?", (row["from_address"],))
    moved = _relocate(ctx, row, "inbox")
    return NotSpam(message=moved.message, unblocked_sender=row["from_address"] if cur.rowcount else None)
