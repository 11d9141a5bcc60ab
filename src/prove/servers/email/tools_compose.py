"""Compose: send, reply, forward; drafts, attachments and scheduled sending."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from prove.env import WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, parse_time, quote

from .server import (
    MAX_ATTACHMENTS_KB,
    AddressedDraftId,
    Addresses,
    AttachmentId,
    Body,
    DraftId,
    Message,
    MessageId,
    PersonMessageId,
    ScheduledMessageId,
    SentMessage,
    Subject,
    attachments_kb,
    copy_attachments,
    delete_messages,
    draft_row,
    insert_message,
    message_model,
    my_addresses,
    my_name,
    new_thread,
    recipients,
    require_not_draft,
    self_deliver,
    sender_address,
    sent_model,
    set_recipients,
    split_recipients,
    with_signature,
)

tools = Toolset("compose")

Filename = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
MIME = {"pdf": "application/pdf", "doc": "application/msword", "txt": "text/plain", "csv": "text/csv",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "zip": "application/zip",
        "mp4": "video/mp4", "mov": "video/quicktime", "ics": "text/calendar", "json": "application/json"}
_BAD_FILENAME = re.compile(r"[/\\:*?\"<>|\x00-\x1f]")


class DeletedDraft(BaseModel):
    draft_id: str = Field(description="the ID the deleted draft had")
    subject: str


class RemovedAttachment(BaseModel):
    attachment_id: str = Field(description="the ID the removed attachment had")
    filename: str
    draft: Message


def _prefixed(prefix: str, subject: str) -> str:
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}"


def _check_size(ctx: Ctx, total_kb: int) -> None:
    if total_kb > MAX_ATTACHMENTS_KB:
        raise ToolError("attachment_too_large", f"Attachments would total {total_kb:,} KB; a message can carry at "
                        f"most {MAX_ATTACHMENTS_KB:,} KB (25 MB).",
                        hint="Leave out the large files (forward without attachments) or share them as a link.")


def _send_now(ctx: Ctx, message_id: str) -> SentMessage:
    ctx.db.execute("UPDATE messages SET status = 'sent', folder_id = 'sent', sent_at = ?, is_read = 1 "
                   "WHERE message_id = ?", (ctx.now_iso(), message_id))
    return sent_model(ctx, message_id, self_deliver(ctx, message_id))


def _reply_recipients(ctx: Ctx, row, reply_all: bool) -> tuple[list[str], list[str]]:
    """Who a reply goes to: the sender (or, for the user's own message, its recipients)."""
    mine = set(my_addresses(ctx))
    rcpt = recipients(ctx, row["message_id"])
    if row["status"] == "sent" or row["from_address"] in mine:
        to = [a for a in rcpt["to"] if a not in mine] or rcpt["to"]
    else:
        to = [row["from_address"]]
    cc: list[str] = []
    if reply_all:
        others = rcpt["cc"] if row["status"] == "sent" else rcpt["to"] + rcpt["cc"]
        cc = [a for a in dict.fromkeys(others) if a not in mine and a not in to]
    return to, cc


def _reply_from(ctx: Ctx, row) -> str:
    """Reply from the alias the message was sent to, else the primary address."""
    mine = my_addresses(ctx)
    rcpt = recipients(ctx, row["message_id"])
    if row["status"] == "sent":
        return row["from_address"] if row["from_address"] in mine else mine[0]
    return next((a for a in rcpt["to"] + rcpt["cc"] + rcpt["bcc"] if a in mine), mine[0])


@tools.tool(effect=WRITE, asks=[
    "Email {to} with the subject '{subject}': {body}",
    "Send a message to {to}, cc {cc}, with the subject '{subject}', saying: {body}",
    "Write to {to} from {from_address}, subject '{subject}': {body}",
    Ask("Send {to} an email titled '{subject}' without my signature: {body}", include_signature=False),
    "Bcc {bcc} on an email to {to}, subject '{subject}': {body}",
], reply=[
    "Sent '{subject}' to {to}.",
    "Your email '{subject}' is on its way to {to}.",
], values={
    "subject, body": [
        ("Q2 budget numbers", "Hi, could you send me the latest Q2 numbers before Thursday? Thanks!"),
        ("Lunch on Friday?", "Are you free for lunch on Friday around noon?"),
        ("Updated project timeline", "Attached is the updated timeline; the launch moves to April 14."),
        ("Invoice question", "Just checking in on the status of the invoice from last month."),
        ("Notes from today's call", "Thanks for the call today. I'll follow up with the details tomorrow."),
        ("Contract draft for review", "Please review the contract draft and let me know if anything needs changing."),
        ("Team offsite plans", "I'm pulling together the offsite plans. Which dates work best for you in May?"),
        ("Quick question", "Can we move our meeting to 3 PM? Something came up."),
    ],
})
def send_message(ctx: Ctx, to: Annotated[Addresses, Field(min_length=1)], subject: Subject, body: Body,
                 cc: Addresses | None = None, bcc: Addresses | None = None, from_address: str | None = None,
                 include_signature: bool = True) -> SentMessage:
    """Send a new message now, starting a new thread; it is filed in Sent.

    If a recipient is one of the user's own addresses, a copy also lands in their inbox.

    Args:
        to: recipient addresses, such as ['ana.lopez@example.com'].
        subject: the subject line, such as 'Q2 budget numbers'.
        body: the message text, such as 'Hi Ana, the numbers are attached.'.
        cc: addresses to copy, such as ['sam.lee@example.com'].
        bcc: addresses to copy invisibly, such as ['me@example.com'].
        from_address: one of the user's addresses to send from (see get_mailbox); default the primary.
        include_signature: append the user's signature, such as false; default true.

    Returns:
        The sent message, and the ID of the inbox copy if the user sent it to themselves.

    Raises:
        invalid_address: an address is not a valid email address.
        not_your_address: `from_address` is not one of the user's addresses.
        too_many_recipients: more than 50 recipients in all.
    """
    t, c, b = split_recipients(to, cc or [], bcc or [])
    sender = sender_address(ctx, from_address)
    subject = subject or "(no subject)"
    message_id = insert_message(ctx, thread_id=new_thread(ctx, subject), folder_id="sent", status="sent",
                                from_name=my_name(ctx), from_address=sender, subject=subject,
                                body=with_signature(ctx, body, include_signature), sent_at=ctx.now_iso(),
                                to=t, cc=c, bcc=b)
    return sent_model(ctx, message_id, self_deliver(ctx, message_id))


@tools.tool(effect=WRITE, asks=[
    "Answer {message_id}: {body}",
    Ask("Reply to {message_id}: {body}", reply_all=False),
    Ask("Reply all to {message_id} and say: {body}", reply_all=True),
    Ask("Answer {message_id} with '{body}', no signature.", include_signature=False),
], reply=[
    "Replied to {message_id}.",
    Ask("Your reply to {message_id} is on its way to {result.to_names}.", reply_all=False),
    Ask("Your reply to {message_id} went to everyone on it: {result.everyone_names}.", reply_all=True),
], values={
    # Replies that fit any message a person wrote to the user (the message is never a newsletter,
    # receipt or notification: see PersonMessageId).
    "body": ["Thanks, got it.", "Got it, I'll take a look today.", "Thanks for the update, that helps.",
             "Thanks! Let me check and get back to you tomorrow.", "Sounds good to me.",
             "I'll get back to you by end of day.", "Thanks for letting me know."],
})
def reply_to_message(ctx: Ctx, message_id: PersonMessageId, body: Annotated[Body, StringConstraints(min_length=1)],
                     reply_all: bool = False, include_signature: bool = True) -> SentMessage:
    """Reply now to a received or sent message, in the same thread.

    The reply goes to the sender (for the user's own message, to its recipients); with
    `reply_all` everyone else on the message is copied, except the user. It is sent from the
    address the message was sent to, and its subject gets 'Re:'.

    Args:
        message_id: ID of the message to answer, such as 'MSG-10042'.
        body: the reply text, such as 'Thanks, that works for me.'.
        reply_all: also copy everyone else who got the message, such as true; default false.
        include_signature: append the user's signature, such as false; default true.

    Returns:
        The sent reply, and the ID of the inbox copy if the user is a recipient.

    Raises:
        not_found: no message has that ID.
        is_draft: the message is an unsent draft or scheduled message.
    """
    row = ctx.get("message", message_id)
    require_not_draft(row)
    to, cc = _reply_recipients(ctx, row, reply_all)
    reply_id = insert_message(ctx, thread_id=row["thread_id"], folder_id="sent", status="sent", from_name=my_name(ctx),
                              from_address=_reply_from(ctx, row), subject=_prefixed("Re:", row["subject"]),
                              body=with_signature(ctx, body, include_signature), sent_at=ctx.now_iso(), to=to, cc=cc,
                              in_reply_to=message_id)
    return sent_model(ctx, reply_id, self_deliver(ctx, reply_id))


@tools.tool(effect=WRITE, asks=[
    "Forward {message_id} to {to}.",
    "Send {message_id} on to {to} with a note: {note}",
    Ask("Forward {message_id} to {to} but without the attachments.", include_attachments=False),
    "Pass {message_id} along to {to} and cc {cc}.",
], reply=[
    Ask("Forwarded {message_id} to {to}.", cc=None, include_attachments=True),
    Ask("Done: {message_id} went to {to}.", cc=None, include_attachments=True),
    Ask("Forwarded {message_id} to {to} without the attachments.", cc=None, include_attachments=False),
    "Forwarded {message_id} to {to}, with {cc} on copy.",
], values={
    "note": ["FYI, see below.", "Can you take care of this one?", "Forwarding for your records.",
             "Please review before our meeting.", "Thought you'd find this interesting.",
             "Could you handle the reply to this?"],
})
def forward_message(ctx: Ctx, message_id: MessageId, to: Annotated[Addresses, Field(min_length=1)],
                    note: Body | None = None, cc: Addresses | None = None, include_attachments: bool = True,
                    include_signature: bool = True) -> SentMessage:
    """Forward a received or sent message now, in the same thread, with its attachments by default.

    The subject gets 'Fwd:' and the original message is quoted below the note. Attachments over
    25 MB in total cannot be sent.

    Args:
        message_id: ID of the message to forward, such as 'MSG-10042'.
        to: addresses to forward to, such as ['sam.lee@example.com'].
        note: text above the forwarded message, such as 'FYI, see below.'.
        cc: addresses to copy, such as ['ana.lopez@example.com'].
        include_attachments: send the original's attachments along, such as false; default true.
        include_signature: append the user's signature after the note; default true.

    Returns:
        The sent forward, and the ID of the inbox copy if the user is a recipient.

    Raises:
        not_found: no message has that ID.
        is_draft: the message is an unsent draft or scheduled message.
        invalid_address: an address is not a valid email address.
        too_many_recipients: more than 50 recipients in all.
        attachment_too_large: the attachments total more than 25 MB (forward without them).
    """
    row = ctx.get("message", message_id)
    require_not_draft(row)
    t, c, _ = split_recipients(to, cc or [], [])
    if include_attachments:
        _check_size(ctx, attachments_kb(ctx, message_id))
    rcpt = recipients(ctx, message_id)
    quoted = (f"---------- Forwarded message ---------\nFrom: {row['from_name']} <{row['from_address']}>\n"
              f"Date: {row['sent_at']}\nSubject: {row['subject']}\nTo: {', '.join(rcpt['to'])}\n\n{row['body']}")
    top = with_signature(ctx, note or "", include_signature).strip()
    body = (f"{top}\n\n{quoted}" if top else quoted)[:10_000]
    fwd_id = insert_message(ctx, thread_id=row["thread_id"], folder_id="sent", status="sent", from_name=my_name(ctx),
                            from_address=_reply_from(ctx, row), subject=_prefixed("Fwd:", row["subject"]), body=body,
                            sent_at=ctx.now_iso(), to=t, cc=c, in_reply_to=message_id)
    if include_attachments:
        copy_attachments(ctx, message_id, fwd_id)
    return sent_model(ctx, fwd_id, self_deliver(ctx, fwd_id))


@tools.tool(effect=WRITE, asks=[
    "Start a draft to {to} with the subject '{subject}': {body}",
    Ask("Draft a reply to {reply_to_message_id} saying I'll get back to them by Friday; don't send it yet.",
        body="Thanks for your message. I'll get back to you by Friday."),
    Ask("Start a reply to {reply_to_message_id} thanking them; I'll finish it later.",
        body="Thanks so much for this,"),
    "Save a draft called '{subject}' with these notes: {body}",
    Ask("Start an empty draft to {to}.", body=""),
], reply=[
    Ask("Started an empty draft to {to}; it's in Drafts, not sent.", body=""),
    "Saved a draft '{result.subject}'; it hasn't been sent.",
    "Your draft '{result.subject}' is saved in Drafts, ready when you are.",
], values={
    "subject, body": [
        ("Proposal follow-up", "Following up on the proposal we discussed last week."),
        ("Vacation plans", "Thinking of taking the week of May 4 off; does that work for the team?"),
        ("Weekly status update", "Hi team, here's a quick summary of where we are this week."),
        ("Meeting recap", "Thanks all for today's meeting. Notes: confirm dates, book the venue, send invites."),
        ("Question about the invoice", "Could you check the amount on last month's invoice? It looks higher than "
         "usual."),
        ("Welcome aboard!", "Welcome to the team! Here are a few things to get you started."),
        ("Feedback on the design", "I'd like to share some thoughts on the latest design."),
    ],
})
def create_draft(ctx: Ctx, to: Addresses | None = None, subject: Subject | None = None, body: Body = "",
                 cc: Addresses | None = None, bcc: Addresses | None = None,
                 reply_to_message_id: PersonMessageId | None = None, from_address: str | None = None) -> Message:
    """Save a new draft in Drafts without sending it; recipients can be added later.

    With `reply_to_message_id` the draft is a reply in that message's thread: unless given, the
    recipients and the 'Re:' subject are those a reply would have.

    Args:
        to: recipient addresses, such as ['ana.lopez@example.com']; may be left empty for now.
        subject: the subject line, such as 'Offsite ideas'.
        body: the text so far, such as 'Hi team, a few ideas for the offsite:'.
        cc: addresses to copy, such as ['sam.lee@example.com'].
        bcc: addresses to copy invisibly.
        reply_to_message_id: the message this draft answers, such as 'MSG-10042'.
        from_address: one of the user's addresses to send from; default the primary (or, for a
            reply, the address the message was sent to).

    Returns:
        The draft, with its ID for update_draft, add_attachment and send_draft.

    Raises:
        not_found: `reply_to_message_id` does not exist.
        is_draft: `reply_to_message_id` is itself an unsent draft.
        invalid_address: an address is not a valid email address.
        not_your_address: `from_address` is not one of the user's addresses.
        too_many_recipients: more than 50 recipients in all.
    """
    t, c, b = split_recipients(to or [], cc or [], bcc or [])
    in_reply_to = None
    if reply_to_message_id is not None:
        row = ctx.get("message", reply_to_message_id)
        require_not_draft(row)
        if to is None:
            t, _ = _reply_recipients(ctx, row, False)
            c = [a for a in c if a not in t]
        thread_id, in_reply_to = row["thread_id"], reply_to_message_id
        subject = subject if subject is not None else _prefixed("Re:", row["subject"])
        sender = sender_address(ctx, from_address) if from_address is not None else _reply_from(ctx, row)
    else:
        thread_id = new_thread(ctx, subject or "(no subject)")
        sender = sender_address(ctx, from_address)
    draft_id = insert_message(ctx, thread_id=thread_id, folder_id="drafts", status="draft", from_name=my_name(ctx),
                              from_address=sender, subject=subject or "", body=body, sent_at=ctx.now_iso(),
                              to=t, cc=c, bcc=b, in_reply_to=in_reply_to)
    return message_model(ctx, draft_id)


@tools.tool(effect=WRITE, asks=[
    "Change the subject of {draft_id} to '{subject}'.",
    "Address {draft_id} to {to} instead; don't send it yet.",
    "Rewrite the body of {draft_id}: {body}",
    "Cc {cc} on {draft_id}.",
], reply=[
    Ask("Cc'd {cc} on the draft '{result.subject}'; it's saved, not sent.", to=None, bcc=None, subject=None, body=None),
    Ask("Changed the subject of {draft_id} to '{subject}'; it's saved, not sent.", to=None, cc=None, bcc=None,
        body=None),
    Ask("Done: {draft_id} now has the subject '{subject}'.", to=None, cc=None, bcc=None, body=None),
    "Updated the draft '{result.subject}' (to {result.to}); it's saved, not sent.",
    "Done: I saved your change to the draft '{result.subject}', addressed to {result.to}.",
], values={
    # New wording that fits whatever the draft is about.
    "subject": ["Following up", "Quick update", "A quick question", "Checking in", "Next steps"],
    "body": ["Just following up on my last note; let me know what you think.",
             "Quick update: I'll send the details by Friday.",
             "Thanks for your patience on this. I'll have an answer for you this week.",
             "Could we find 15 minutes to talk this through?"],
})
def update_draft(ctx: Ctx, draft_id: AddressedDraftId, to: Addresses | None = None, cc: Addresses | None = None,
                 bcc: Addresses | None = None, subject: Subject | None = None, body: Body | None = None) -> Message:
    """Change a draft: each field given replaces the old value (an empty list clears recipients).

    Args:
        draft_id: ID of the draft, such as 'MSG-10257'.
        to: the new recipient list, such as ['ana.lopez@example.com'].
        cc: the new cc list, such as ['sam.lee@example.com'].
        bcc: the new bcc list.
        subject: the new subject, such as 'Revised proposal'.
        body: the new text, replacing the old, such as 'Hi Ana, here is the revised proposal.'.

    Returns:
        The updated draft.

    Raises:
        not_found: no draft has that ID.
        already_sent: the draft was already sent.
        already_scheduled: the draft is scheduled to be sent (cancel_scheduled_send first).
        not_a_draft: the ID names a received message.
        nothing_to_update: none of the fields was given.
        invalid_address: an address is not a valid email address.
        too_many_recipients: more than 50 recipients in all.
    """
    row = draft_row(ctx, draft_id)
    if to is None and cc is None and bcc is None and subject is None and body is None:
        raise ToolError("nothing_to_update", "Give at least one of to, cc, bcc, subject or body.")
    old = recipients(ctx, draft_id)
    t, c, b = split_recipients(old["to"] if to is None else to, old["cc"] if cc is None else cc,
                               old["bcc"] if bcc is None else bcc)
    set_recipients(ctx, draft_id, t, c, b)
    ctx.db.execute("UPDATE messages SET subject = ?, body = ?, sent_at = ? WHERE message_id = ?",
                   (row["subject"] if subject is None else subject, row["body"] if body is None else body,
                    ctx.now_iso(), draft_id))
    return message_model(ctx, draft_id)


@tools.tool(effect=WRITE, asks=[
    "Attach {filename} ({size_kb} KB) to {draft_id}.",
    "Add the file {filename} to {draft_id}; it's {size_kb} KB.",
], reply=[
    "Attached {filename} to {draft_id}.",
    "Done: {draft_id} now carries {filename}.",
], values={
    # A file and a size that fits its type: slides run to megabytes, a calendar invite to a few KB.
    "filename, size_kb": [
        ("report.pdf", 840), ("report.pdf", 1250), ("budget.xlsx", 96), ("budget.xlsx", 210), ("slides.pptx", 4800),
        ("slides.pptx", 2300), ("photo.jpg", 2100), ("photo.jpg", 3400), ("contract.docx", 64), ("contract.docx", 128),
        ("notes.txt", 3), ("notes.txt", 12), ("invite.ics", 2), ("invite.ics", 4), ("data.csv", 180), ("data.csv", 56),
    ],
})
def add_attachment(ctx: Ctx, draft_id: DraftId, filename: Filename,
                   size_kb: Annotated[int, Field(ge=1, le=1_000_000)]) -> Message:
    """Attach a file to a draft (metadata only: its name and size).

    A message carries at most 25 MB (25,600 KB) of attachments in all.

    Args:
        draft_id: ID of the draft, such as 'MSG-10257'.
        filename: the file's name with its extension, such as 'budget_q2.xlsx'.
        size_kb: the file's size in kilobytes, such as 820.

    Returns:
        The draft with its attachments.

    Raises:
        not_found: no draft has that ID.
        already_sent: the draft was already sent.
        already_scheduled: the draft is scheduled to be sent.
        not_a_draft: the ID names a received message.
        invalid_filename: the name contains a path separator or a character files cannot have.
        attachment_too_large: the draft's attachments would total more than 25 MB.
    """
    draft_row(ctx, draft_id)
    if _BAD_FILENAME.search(filename) or filename in (".", ".."):
        raise ToolError("invalid_filename", f"{quote(filename)} is not a valid file name.",
                        hint="Give just the file's name, such as 'report.pdf', without folders or special characters.")
    _check_size(ctx, attachments_kb(ctx, draft_id) + size_kb)
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    ctx.db.execute("INSERT INTO attachments (attachment_id, message_id, filename, mime_type, size_kb) "
                   "VALUES (?, ?, ?, ?, ?)",
                   (ctx.new_id("ATT"), draft_id, filename, MIME.get(ext, "application/octet-stream"), size_kb))
    ctx.db.execute("UPDATE messages SET sent_at = ? WHERE message_id = ?", (ctx.now_iso(), draft_id))
    return message_model(ctx, draft_id)


@tools.tool(effect=WRITE, asks=[
    # "the draft" alone would be the one the request has just started, not the one the file is on
    "Remove {attachment_id} from the draft it's on.",
    "Take {attachment_id} off its draft, I attached the wrong file.",
], reply=[
    "Removed {result.filename} from the draft.",
    "Done: {attachment_id} is no longer attached.",
])
def remove_attachment(ctx: Ctx, attachment_id: AttachmentId) -> RemovedAttachment:
    """Remove an attachment from a draft.

    Args:
        attachment_id: ID of the attachment, such as 'ATT-10032' (get_message lists a draft's attachments).

    Returns:
        The removed attachment's ID and name, and the draft as it is now.

    Raises:
        not_found: no attachment has that ID.
        already_sent: the attachment is on a message that was already sent.
        already_scheduled: the attachment is on a message scheduled to be sent.
        not_a_draft: the attachment is on a received message.
    """
    row = ctx.db.execute("SELECT * FROM attachments WHERE attachment_id = ?", (attachment_id,)).fetchone()
    if row is None:
        raise ToolError("not_found", f"No attachment has ID {quote(attachment_id)}.",
                        hint="get_message lists a message's attachments.")
    draft_row(ctx, row["message_id"])
    ctx.db.execute("DELETE FROM attachments WHERE attachment_id = ?", (attachment_id,))
    return RemovedAttachment(attachment_id=attachment_id, filename=row["filename"],
                             draft=message_model(ctx, row["message_id"]))


@tools.tool(effect=WRITE, asks=[
    "Send {draft_id}.",
    "Schedule {draft_id} to go out on {send_at}.",
    "{draft_id} is ready, send it now.",
], reply=[
    Ask("Sent {draft_id}.", send_at=None),
    Ask("Done: {draft_id} is on its way.", send_at=None),
    "Scheduled {draft_id} to go out on {send_at}.",
    "Done: {draft_id} will be sent on {send_at}; until then it waits in Scheduled.",
])
def send_draft(ctx: Ctx, draft_id: DraftId, send_at: str | None = None) -> SentMessage:
    """Send a draft now, or schedule it for `send_at`; a draft can be sent only once.

    A sent draft keeps its ID and moves to Sent. A scheduled one waits in 'scheduled' and goes
    out when the clock reaches `send_at` (cancel_scheduled_send turns it back into a draft).

    Args:
        draft_id: ID of the draft, such as 'MSG-10257'.
        send_at: when to send it, ISO local time in the future such as '2026-03-17T08:00:00';
            omit to send now.

    Returns:
        The sent (or scheduled) message, and the ID of the inbox copy if the user is a recipient.

    Raises:
        not_found: no draft has that ID.
        already_sent: the draft was already sent.
        already_scheduled: the draft is already scheduled.
        not_a_draft: the ID names a received message.
        no_recipients: the draft has no recipients yet (add them with update_draft).
        invalid_time: `send_at` is not an ISO 8601 local time between 2000 and 2099, or is more than a year
            ahead.
        past_date: `send_at` is not in the future.
    """
    row = draft_row(ctx, draft_id)
    rcpt = recipients(ctx, draft_id)
    if not rcpt["to"] + rcpt["cc"] + rcpt["bcc"]:
        raise ToolError("no_recipients", f"Draft {draft_id} ('{row['subject'] or '(no subject)'}') has no recipients.",
                        hint="Add recipients with update_draft, then send it.")
    if not row["subject"]:
        ctx.db.execute("UPDATE messages SET subject = '(no subject)' WHERE message_id = ?", (draft_id,))
    if send_at is None:
        return _send_now(ctx, draft_id)
    when = parse_time(send_at, "send_at")
    if when <= ctx.now():
        raise ToolError("past_date", f"send_at {iso(when)} is not in the future; it is now {ctx.now_iso()}.",
                        hint="Omit send_at to send right away.")
    if when - ctx.now() > timedelta(days=366):
        raise ToolError("invalid_time", f"send_at {iso(when)} is more than a year ahead.")
    ctx.db.execute("UPDATE messages SET status = 'scheduled', folder_id = 'scheduled', sent_at = ? "
                   "WHERE message_id = ?", (iso(when), draft_id))
    return sent_model(ctx, draft_id, None)


@tools.tool(effect=WRITE, asks=[
    "Don't send {message_id} after all, cancel the scheduled send.",
    "Unschedule {message_id} and keep it as a draft.",
], reply=[
    "Cancelled the scheduled send; {message_id} is back in your drafts.",
    "Done: {message_id} won't go out, it's a draft again.",
])
def cancel_scheduled_send(ctx: Ctx, message_id: ScheduledMessageId) -> Message:
    """Stop a scheduled message from going out; it goes back to Drafts.

    Args:
        message_id: ID of the scheduled message, such as 'MSG-10260' (list_messages with folder_id 'scheduled').

    Returns:
        The message, a draft again.

    Raises:
        not_found: no message has that ID.
        not_scheduled: the message is not scheduled (already sent, a draft, or received).
    """
    row = ctx.get("message", message_id)
    if row["status"] != "scheduled":
        what = "a draft" if row["status"] == "draft" else f"a {row['status']} message"
        raise ToolError("not_scheduled", f"{message_id} is {what}, not a scheduled one.",
                        hint="list_messages with folder_id 'scheduled' shows what is scheduled.")
    ctx.db.execute("UPDATE messages SET status = 'draft', folder_id = 'drafts', sent_at = ? WHERE message_id = ?",
                   (ctx.now_iso(), message_id))
    return message_model(ctx, message_id)


@tools.tool(effect=WRITE, asks=[
    "Delete {draft_id}.",
    "Discard {draft_id}, I don't need it.",
], reply=[
    "Deleted the draft '{result.subject}'.",
    "Done: the draft '{result.subject}' is gone.",
])
def delete_draft(ctx: Ctx, draft_id: DraftId) -> DeletedDraft:
    """Discard a draft for good, with its attachments.

    Args:
        draft_id: ID of the draft, such as 'MSG-10257'.

    Returns:
        The deleted draft's ID and subject.

    Raises:
        not_found: no draft has that ID.
        already_sent: the draft was already sent (trash the sent message instead).
        already_scheduled: the draft is scheduled (cancel_scheduled_send first).
        not_a_draft: the ID names a received message.
    """
    row = draft_row(ctx, draft_id)
    delete_messages(ctx, [draft_id])
    return DeletedDraft(draft_id=draft_id, subject=row["subject"])

