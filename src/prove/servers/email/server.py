"""The email server's declaration: the `server`, its entity kinds, types, result models and shared rules.

The tools live by area in `tools_<area>.py` (messages, compose, folders and labels, contacts,
settings) and import what they need from here; `hooks.py` delivers mail as the clock moves and
the package's `__init__` assembles them.

Rules every tool follows:

- The user owns one primary address and some aliases; mail to any of them lands in the inbox.
- A message is 'received', 'sent', 'draft' or 'scheduled', and lives in exactly one folder.
  Drafts stay in 'drafts' and scheduled messages in 'scheduled' until sent; nothing else can be
  moved there, and received mail cannot be moved into 'sent'.
- Sending puts the message in Sent; if a recipient is one of the user's own addresses, a copy is
  also delivered to their inbox (through their filters). A draft keeps its ID when sent, and a
  sent draft cannot be sent, edited or deleted again.
- Mail arriving as the clock moves on (and self-addressed copies) goes to spam if the sender is
  blocked, otherwise through the filters in creation order; the vacation responder answers each
  sender once while it is on.
- Outgoing attachments are limited to 25 MB (25,600 KB) per message.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, Entity, EntityKind, Sensitive, Server, ToolError
from prove.env.values import quote, said_in_part, spoken_day

from .world import SYSTEM_FOLDERS, build_world

MAX_ATTACHMENTS_KB = 25_600
MAX_RECIPIENTS = 50
NO_REPLY = ("noreply", "no-reply", "no_reply", "notifications@", "mailer-daemon", "notification", "automated@",
            "auto-confirm", "alerts")

MESSAGE = EntityKind("message", table="messages", key="message_id", label="subject", noun="email",
                     description="an email the user received or sent", live="status IN ('received', 'sent')")
DRAFT = EntityKind("draft", table="messages", key="message_id", label="subject",
                   description="an unsent message the user is writing", live="status = 'draft'")
THREAD = EntityKind("thread", table="threads", key="thread_id", label="subject",
                    description="a conversation: a message and its replies and forwards")
FOLDER = EntityKind("folder", table="folders", key="folder_id", label="name",
                    description="a mail folder, system ('inbox', 'sent', ...) or made by the user")
LABEL = EntityKind("label", table="labels", key="label_id", label="name",
                   description="a tag the user puts on messages")
CONTACT = EntityKind("contact", table="contacts", key="contact_id", label="name",
                     description="a person in the user's address book")
ATTACHMENT = EntityKind("attachment", table="attachments", key="attachment_id", label="filename",
                        description="a file attached to a message (name, type and size)")
FILTER = EntityKind("filter", table="filters", key="filter_id", label="name", noun="mail filter",
                    description="a rule that files, labels, stars or marks arriving mail")
BLOCKED_SENDER = EntityKind("blocked_sender", table="blocked_senders", key="address", label="address",
                            noun="sender", public_id=True,
                            description="an address whose mail goes straight to spam (get_mailbox lists them)")
APP_PASSWORD = EntityKind("app_password", table="app_passwords", key="app_password_id", label="name",
                          description="a password a mail app uses to sign in", live="status = 'active'")

server = Server(
    "email", "Email",
    "The mailbox of one signed-in user: folders (inbox, sent, drafts, scheduled, archive, spam, "
    "trash and custom ones), labels, threads and messages with recipients and attachments; search; "
    "sending, replying, forwarding, drafts and scheduled sending; moving, archiving, trashing, "
    "restoring and reporting spam; contacts, filters, blocked senders, a signature, a vacation "
    "responder and app passwords. New mail arrives as time passes.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[MESSAGE, DRAFT, THREAD, FOLDER, LABEL, CONTACT, ATTACHMENT, FILTER, APP_PASSWORD, BLOCKED_SENDER],
)

# ----- parameter types -------------------------------------------------------------------------

MessageId = MESSAGE.id
ScheduledMessageId = MESSAGE.where("status = 'scheduled'")
# Mail from a person: a colleague at the user's own domain or someone in the address book (not a
# newsletter, receipt, notification or spam), so that a personal reply fits it.
_MY_DOMAIN = "(SELECT substr(address, instr(address, '@')) FROM addresses WHERE is_primary = 1)"
_FROM_PERSON = (f"(from_address LIKE '%' || {_MY_DOMAIN} OR from_address IN (SELECT email FROM contacts))")
PersonMessageId = MESSAGE.where(f"status = 'received' AND folder_id != 'spam' AND {_FROM_PERSON}")
TrashedMessageId = MESSAGE.where("status IN ('received', 'sent') AND folder_id = 'trash'")
# Mail kept in the mailbox, what a person stars, marks, files or archives: mail in the trash is
# restored and mail in spam is rescued by their own tools first.
KeptMessageId = MESSAGE.where("status IN ('received', 'sent') AND folder_id NOT IN ('spam', 'trash')")
ArchivableMessageId = MESSAGE.where("status IN ('received', 'sent') AND folder_id NOT IN ('spam', 'trash', 'archive')")
# What a person deletes: anything not in the trash yet (junk in spam included).
UntrashedMessageId = MESSAGE.where("status IN ('received', 'sent') AND folder_id != 'trash'")
# Work mail a colleague sent the user, kept in the mailbox: what is filed by hand into a work folder.
WorkMessageId = MESSAGE.where(f"status = 'received' AND folder_id NOT IN ('spam', 'trash') AND from_address LIKE "
                              f"'%' || {_MY_DOMAIN} AND from_address NOT IN (SELECT address FROM addresses)")
# Mail in spam from a sender whose other mail is not spam: what "not spam" rescues (real junk stays).
MisfiledSpamId = MESSAGE.where("status = 'received' AND folder_id = 'spam' AND from_address IN "
                               "(SELECT from_address FROM messages WHERE folder_id != 'spam')")
# Mail a user would call junk: received, not in spam yet, and not from a person they know.
# (Receipts, bookings, invoices and security alerts are wanted even so.)
_WANTED = ("(lower(subject) LIKE '%receipt%' OR lower(subject) LIKE '%confirm%' OR lower(subject) LIKE '%reservation%' "
           "OR lower(subject) LIKE '%invoice%' OR lower(subject) LIKE '%security alert%')")
# Notices from the user's work tools (code review, issues, calendar invitations, meeting recordings)
# are wanted too, though no person sent them.
_WORK_TOOLS = ("(from_address LIKE '%@github.com' OR from_address LIKE '%.atlassian.net' "
               "OR from_address LIKE '%google.com' OR from_address LIKE '%@zoom.us')")
UnwantedMessageId = MESSAGE.where(f"status = 'received' AND folder_id NOT IN ('spam', 'trash') AND NOT {_FROM_PERSON} "
                                  f"AND NOT {_WANTED} AND NOT {_WORK_TOOLS}")
DraftId = DRAFT.id
AddressedDraftId = DRAFT.where("status = 'draft' AND message_id IN (SELECT message_id FROM recipients "
                               "WHERE kind = 'to')")
ThreadId = THREAD.id
# A thread a person asks for by its subject: one no other thread shares (a newsletter repeats its own).
NamedThreadId = THREAD.where("subject IN (SELECT subject FROM threads GROUP BY subject HAVING count(*) = 1)")
FolderId = FOLDER.id
# Where any work email may be filed by hand: back to the inbox, the archive, or a Projects folder
# (the Receipts, Newsletters, Travel and Family folders hold their own kind of mail).
WorkFolderId = FOLDER.where("folder_id IN ('inbox', 'archive') OR name = 'Projects'")
# Where a filter sends what it matches: the archive, which fits any filter (a filter named
# 'Travel bookings' moving mail to a Newsletters folder would not).
FilterFolderId = FOLDER.where("folder_id = 'archive'")
# What can be deleted: a custom folder with nothing in it (one the user emptied).
EmptyFolderId = FOLDER.where("kind = 'custom' AND folder_id NOT IN (SELECT folder_id FROM messages)")
# Labels that fit any mail ('Finance' on a GitHub review or 'Personal' on a receipt would not), and
# labels the user has just made for the purpose.
AnyMailLabelId = LABEL.where("name IN ('Important', 'Follow up') OR created_at >= :now")
LabelId = LABEL.id
ContactId = CONTACT.id
PhoneContactId = CONTACT.where("phone IS NOT NULL")  # its update reply can say the number
AttachmentId = ATTACHMENT.id
FilterId = FILTER.id
AppPasswordId = APP_PASSWORD.id
Password = Annotated[str, Sensitive()]

Address = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=254)]
Addresses = Annotated[list[Address], Field(max_length=MAX_RECIPIENTS)]
BlockedAddress = Annotated[Address, Entity("blocked_sender")]
Subject = Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)]
Body = Annotated[str, StringConstraints(max_length=10_000)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Short = Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)]
Limit = Annotated[int, Field(ge=1, le=100)]
Color = Literal["gray", "red", "orange", "yellow", "green", "blue", "purple"]

_ADDRESS = re.compile(r"^[a-z0-9._%+'-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$")

# ----- result models ---------------------------------------------------------------------------


class Attachment(BaseModel):
    attachment_id: AttachmentId
    filename: str
    mime_type: str
    size_kb: int


class MessageSummary(BaseModel):
    message_id: MessageId
    thread_id: ThreadId
    folder_id: FolderId
    status: Literal["received", "sent", "draft", "scheduled"]
    from_name: str
    from_address: str
    to: list[str]
    subject: str
    snippet: str = Field(description="the start of the body")
    date: str = Field(description="when it was received or sent; a draft's last edit; a scheduled send time")
    is_read: bool
    is_starred: bool
    has_attachments: bool
    label_ids: list[LabelId]


class MessageList(BaseModel):
    messages: list[MessageSummary]
    total: int = Field(description="how many messages matched, before `limit` and `offset`")
    messages_text: str = Field(description="the emails in words, newest first, such as \"'Mom's birthday' from Hana "
                                           "Singh on March 8 (unread); 'Q2 plan' to liam@nimbus.com on March 5\"")


def known_names(ctx: Ctx) -> dict[str, str]:
    """The names the user knows people's addresses by: their contacts and the senders of their mail."""
    names = dict(ctx.db.execute("SELECT from_address, from_name FROM messages WHERE status = 'received'").fetchall())
    names.update(ctx.db.execute("SELECT email, name FROM contacts").fetchall())
    return names


def messages_text(messages: list[MessageSummary], total: int, today: date, names: dict[str, str],
                  unread_said: bool = True) -> str:
    """\"'Mom's birthday' from Hana Singh on March 8 (unread); 'Q2 plan' to Liam Williams on March 5\": each
    email by its subject, who it is from (or, for the user's own, to, by name where the user knows one) and
    its day."""
    said = []
    for m in messages if len(messages) <= 8 else messages[:6]:
        to = names.get(m.to[0], m.to[0]) if m.to else ""
        who = (f"from {m.from_name}" if m.status == "received" else
               f"to {to}" + (f" and {len(m.to) - 1} more" if len(m.to) > 1 else "") if m.to else "to nobody yet")
        kind = {"draft": "draft ", "scheduled": "scheduled email "}.get(m.status, "")
        said.append(f"{kind}'{m.subject}' {who} on {spoken_day(m.date, today)}"
                    + (" (unread)" if unread_said and m.status == "received" and not m.is_read else ""))
    return said_in_part(said, total, "none")


class Message(BaseModel):
    message_id: MessageId
    thread_id: ThreadId
    folder_id: FolderId
    folder_name: str
    status: Literal["received", "sent", "draft", "scheduled"]
    from_name: str
    from_address: str
    to: list[str]
    cc: list[str]
    bcc: list[str]
    subject: str
    body: str
    date: str = Field(description="when it was received or sent; a draft's last edit; a scheduled send time")
    is_read: bool
    is_starred: bool
    in_reply_to: MessageId | None = Field(description="the message this one answers or forwards, if any")
    attachments: list[Attachment]
    label_ids: list[LabelId]
    labels: list[str] = Field(description="label names, in the order of label_ids")
    to_names: str = Field("", description="whom it is to, by the names the user knows them by: 'you', 'Elijah "
                                          "Murphy and rosa.sullivan@nimbusfood.com'")
    everyone_names: str = Field("", description="everyone it is to or copies, by name, as in to_names")


class SentMessage(Message):
    inbox_copy_id: MessageId | None = Field(
        description="the copy delivered to the user's own inbox when they are a recipient, else null")


class Thread(BaseModel):
    thread_id: ThreadId
    subject: str
    messages: list[Message] = Field(description="every message of the conversation, oldest first")
    total: int
    conversation_text: str = Field("", description="who wrote each message and when, oldest first, such as \"Bianca "
                                                   "Lee wrote on February 18: 'Ava, exports time out…'; you wrote on "
                                                   "February 19: 'Can we push this…'\"")


class Folder(BaseModel):
    folder_id: FolderId
    name: str
    kind: Literal["system", "custom"]
    total: int = Field(description="messages in the folder")
    unread: int


class FolderList(BaseModel):
    folders: list[Folder]
    total: int
    folders_text: str = Field("", description="the folders with how many emails each holds, such as 'Inbox (51 emails), "
                                              "Drafts (6 emails) and Clients (no emails)'")
    unread_text: str = Field("", description="how many unread emails each folder holds, such as 'Inbox: 3 unread, "
                                             "Archive: 0 unread'")


class Label(BaseModel):
    label_id: LabelId
    name: str
    color: str
    total: int = Field(description="messages carrying the label")
    unread: int


class LabelList(BaseModel):
    labels: list[Label]
    total: int
    labels_text: str = Field("", description="the labels with how many emails carry each, such as 'Finance (10 emails, "
                                             "2 unread), Follow up (7 emails)'")


class Contact(BaseModel):
    contact_id: ContactId
    name: str
    email: str
    phone: str | None
    company: str | None
    notes: str | None
    is_favorite: bool


class ContactList(BaseModel):
    contacts: list[Contact]
    total: int = Field(description="how many contacts matched, before `limit`")
    contacts_text: str = Field(description="the contacts in words, such as 'Omar Meyer of Beacon Studio "
                                           "(omar.meyer@beaconstudio.com, +1-877-510-3004)'")
    emails_text: str = Field(description="each contact's email address, such as \"Omar Meyer's email "
                                         "address is omar.meyer@beaconstudio.com\"")


class Filter(BaseModel):
    filter_id: FilterId
    name: str
    from_contains: str | None
    subject_contains: str | None
    move_to_folder_id: FolderId | None
    move_to_folder_name: str | None
    add_label_id: LabelId | None
    add_label_name: str | None
    mark_read: bool
    star: bool


class FilterList(BaseModel):
    filters: list[Filter]
    total: int
    filters_text: str = Field(description="the filters in words, in the order they run, such as \"'Morning Brew' "
                                          "moves mail from morningbrew.com to Newsletters and marks it read\"")


def filter_text(f: Filter) -> str:
    """\"'Morning Brew' moves mail from morningbrew.com to Newsletters and marks it read\", \"'Receipts' gives
    mail with 'receipt' in the subject the label Finance\", \"'Newsletters' catches mail from substack.com\"."""
    what = " and ".join(w for w in (f"from {f.from_contains}" if f.from_contains else "",
                                    f"with '{f.subject_contains}' in the subject" if f.subject_contains else "") if w)
    mail = f"mail {what}"
    acts = [a for a in (f"gives it the label {f.add_label_name}" if f.add_label_name else "",
                        "marks it read" if f.mark_read else "", "stars it" if f.star else "") if a]
    if f.move_to_folder_name:
        acts.insert(0, f"moves {mail} to {f.move_to_folder_name}")
    elif acts:
        acts[0] = acts[0].replace(" it", f" {mail}", 1)
    else:
        acts = [f"catches {mail}"]
    return f"'{f.name}' " + (acts[0] if len(acts) == 1 else ", ".join(acts[:-1]) + " and " + acts[-1])


# ----- the user ------------------------------------------------------------------------------------

def my_addresses(ctx: Ctx) -> list[str]:
    """The user's addresses, primary first."""
    return [r[0] for r in ctx.db.execute("SELECT address FROM addresses ORDER BY is_primary DESC, address")]


def my_name(ctx: Ctx) -> str:
    return ctx.db.execute("SELECT display_name FROM mailbox").fetchone()[0]


def normalize(values: Iterable[str], field: str) -> list[str]:
    """Addresses lower-cased and de-duplicated, or `invalid_address` naming the bad ones."""
    out = [v.strip().lower() for v in values]
    bad = [v for v in out if len(v) > 254 or not _ADDRESS.match(v)]
    if bad:
        raise ToolError("invalid_address", f"{field}: {', '.join(quote(b) for b in bad[:3])} "
                        f"{'is not an email address' if len(bad) == 1 else 'are not email addresses'}.",
                        hint="Give plain addresses such as 'ana.lopez@example.com' (no names or angle brackets); "
                        "search_contacts finds a person's address.")
    return list(dict.fromkeys(out))


def check_address(value: str, field: str = "address") -> str:
    return normalize([value], field)[0]


def sender_address(ctx: Ctx, from_address: str | None) -> str:
    """The address to send from: the given one, which must be the user's, or the primary."""
    mine = my_addresses(ctx)
    if from_address is None:
        return mine[0]
    address = check_address(from_address, "from_address")
    if address not in mine:
        raise ToolError("not_your_address", f"{quote(address)} is not one of your addresses.",
                        hint=f"Send from one of: {', '.join(mine)} (see get_mailbox).")
    return address


def split_recipients(to: Sequence[str], cc: Sequence[str],
                     bcc: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """Validated to/cc/bcc lists, an address kept only in the first list it appears in."""
    t = normalize(to, "to")
    c = [a for a in normalize(cc, "cc") if a not in t]
    b = [a for a in normalize(bcc, "bcc") if a not in t and a not in c]
    if len(t) + len(c) + len(b) > MAX_RECIPIENTS:
        raise ToolError("too_many_recipients", f"{len(t) + len(c) + len(b)} recipients; at most "
                        f"{MAX_RECIPIENTS} are allowed per message.", hint="Split the message into several sends.")
    return t, c, b


# ----- rows ---------------------------------------------------------------------------------------

def draft_row(ctx: Ctx, draft_id: str) -> sqlite3.Row:
    """A message that is still a draft, or why it is not."""
    row = ctx.get("draft", draft_id)
    if row["status"] == "sent":
        raise ToolError("already_sent", f"{draft_id} ('{row['subject']}') was already sent on {row['sent_at']}.",
                        hint="Create a new draft or reply to the sent message instead.")
    if row["status"] == "scheduled":
        raise ToolError("already_scheduled", f"{draft_id} is scheduled to be sent at {row['sent_at']}.",
                        hint="Call cancel_scheduled_send first to turn it back into a draft.")
    if row["status"] != "draft":
        raise ToolError("not_a_draft", f"{draft_id} is a message you received, not a draft.",
                        hint="Reply to it or forward it instead.")
    return row


def require_not_draft(row: sqlite3.Row) -> None:
    if row["status"] in ("draft", "scheduled"):
        what = "draft" if row["status"] == "draft" else "scheduled message"
        raise ToolError("is_draft", f"{row['message_id']} is an unsent {what}.",
                        hint="Send it with send_draft, or delete it with delete_draft "
                        "(cancel_scheduled_send first if scheduled).")


def folder_row(ctx: Ctx, folder_id: str) -> sqlite3.Row:
    """A folder by ID; system folders may be named in any case ('Inbox')."""
    key = folder_id.strip()
    return ctx.get("folder", key.lower() if key.lower() in dict(SYSTEM_FOLDERS) else key)


def recipients(ctx: Ctx, message_id: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"to": [], "cc": [], "bcc": []}
    for r in ctx.db.execute("SELECT kind, address FROM recipients WHERE message_id = ? ORDER BY kind, position",
                            (message_id,)):
        out[r["kind"]].append(r["address"])
    return out


def set_recipients(ctx: Ctx, message_id: str, to: Sequence[str], cc: Sequence[str], bcc: Sequence[str]) -> None:
    ctx.db.execute("DELETE FROM recipients WHERE message_id = ?", (message_id,))
    for kind, values in (("to", to), ("cc", cc), ("bcc", bcc)):
        ctx.db.executemany("INSERT INTO recipients (message_id, kind, address, position) VALUES (?, ?, ?, ?)",
                           [(message_id, kind, a, i) for i, a in enumerate(values)])


def attachments_kb(ctx: Ctx, message_id: str) -> int:
    return ctx.db.execute("SELECT coalesce(sum(size_kb), 0) FROM attachments WHERE message_id = ?",
                          (message_id,)).fetchone()[0]


def copy_attachments(ctx: Ctx, source_id: str, target_id: str) -> None:
    for r in ctx.db.execute("SELECT filename, mime_type, size_kb FROM attachments WHERE message_id = ? "
                            "ORDER BY attachment_id", (source_id,)).fetchall():
        ctx.db.execute("INSERT INTO attachments (attachment_id, message_id, filename, mime_type, size_kb) "
                       "VALUES (?, ?, ?, ?, ?)", (ctx.new_id("ATT"), target_id, *r))


def new_thread(ctx: Ctx, subject: str) -> str:
    thread_id = ctx.new_id("THR")
    ctx.db.execute("INSERT INTO threads (thread_id, subject) VALUES (?, ?)", (thread_id, base_subject(subject)))
    return thread_id


def base_subject(subject: str) -> str:
    """The subject without leading 'Re:' / 'Fwd:' prefixes."""
    return re.sub(r"^(\s*(re|fwd?|fw)\s*:\s*)+", "", subject, flags=re.IGNORECASE).strip() or "(no subject)"


def insert_message(ctx: Ctx, *, thread_id: str, folder_id: str, status: str, from_name: str, from_address: str,
                   subject: str, body: str, sent_at: str, to: Sequence[str], cc: Sequence[str] = (),
                   bcc: Sequence[str] = (), is_read: bool = True, in_reply_to: str | None = None) -> str:
    message_id = ctx.new_id("MSG")
    ctx.db.execute(
        "INSERT INTO messages (message_id, thread_id, folder_id, status, from_name, from_address, subject, body, "
        "sent_at, is_read, is_starred, in_reply_to, trashed_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, NULL)",
        (message_id, thread_id, folder_id, status, from_name, from_address, subject, body, sent_at, int(is_read),
         in_reply_to))
    set_recipients(ctx, message_id, to, cc, bcc)
    return message_id


def delete_messages(ctx: Ctx, message_ids: Sequence[str]) -> None:
    for table in ("recipients", "attachments", "message_labels", "messages"):
        ctx.db.executemany(f"DELETE FROM {table} WHERE message_id = ?", [(m,) for m in message_ids])


def with_signature(ctx: Ctx, body: str, include: bool) -> str:
    signature = ctx.db.execute("SELECT signature FROM mailbox").fetchone()[0]
    if include and signature:
        return f"{body.rstrip()}\n\n-- \n{signature}"[:10_000]
    return body


# ----- delivery --------------------------------------------------------------------------------------

def deliver(ctx: Ctx, message_id: str) -> None:
    """File a message that just arrived: spam if the sender is blocked, else through the filters."""
    row = ctx.get("message", message_id)
    if ctx.db.execute("SELECT 1 FROM blocked_senders WHERE address = ?", (row["from_address"],)).fetchone():
        ctx.db.execute("UPDATE messages SET folder_id = 'spam' WHERE message_id = ?", (message_id,))
        return
    for f in ctx.db.execute("SELECT * FROM filters ORDER BY created_at, filter_id").fetchall():
        if filter_matches(f, row):
            apply_filter(ctx, f, message_id)


def filter_matches(f: sqlite3.Row, message: sqlite3.Row) -> bool:
    sender = f"{message['from_name']} <{message['from_address']}>".lower()
    if f["from_contains"] and f["from_contains"].lower() not in sender:
        return False
    if f["subject_contains"] and f["subject_contains"].lower() not in message["subject"].lower():
        return False
    return bool(f["from_contains"] or f["subject_contains"])


def apply_filter(ctx: Ctx, f: sqlite3.Row, message_id: str) -> None:
    if f["move_to_folder_id"]:
        ctx.db.execute("UPDATE messages SET folder_id = ?, trashed_from = CASE WHEN ? = 'trash' THEN folder_id END "
                       "WHERE message_id = ?", (f["move_to_folder_id"], f["move_to_folder_id"], message_id))
    if f["add_label_id"]:
        ctx.db.execute("INSERT OR IGNORE INTO message_labels (message_id, label_id) VALUES (?, ?)",
                       (message_id, f["add_label_id"]))
    if f["mark_read"]:
        ctx.db.execute("UPDATE messages SET is_read = 1 WHERE message_id = ?", (message_id,))
    if f["star"]:
        ctx.db.execute("UPDATE messages SET is_starred = 1 WHERE message_id = ?", (message_id,))


def self_deliver(ctx: Ctx, sent_id: str) -> str | None:
    """If a sent message is addressed to one of the user's addresses, deliver a copy to the inbox."""
    row = ctx.get("message", sent_id)
    rcpt = recipients(ctx, sent_id)
    if not set(rcpt["to"] + rcpt["cc"] + rcpt["bcc"]) & set(my_addresses(ctx)):
        return None
    copy_id = insert_message(ctx, thread_id=row["thread_id"], folder_id="inbox", status="received",
                             from_name=row["from_name"], from_address=row["from_address"], subject=row["subject"],
                             body=row["body"], sent_at=row["sent_at"], to=rcpt["to"], cc=rcpt["cc"], is_read=False,
                             in_reply_to=sent_id)
    copy_attachments(ctx, sent_id, copy_id)
    deliver(ctx, copy_id)
    return copy_id


def receive_inbound(ctx: Ctx, inbound_id: str) -> str:
    """Turn one piece of mail on its way into a received message, and answer it if on vacation."""
    r = ctx.db.execute("SELECT * FROM inbound WHERE inbound_id = ?", (inbound_id,)).fetchone()
    thread_id = r["thread_id"] or new_thread(ctx, r["subject"])
    last = ctx.db.execute("SELECT message_id FROM messages WHERE thread_id = ? AND status IN ('received', 'sent') "
                          "ORDER BY sent_at DESC, message_id DESC LIMIT 1", (thread_id,)).fetchone()
    mine = my_addresses(ctx)
    message_id = insert_message(ctx, thread_id=thread_id, folder_id="inbox", status="received",
                                from_name=r["from_name"], from_address=r["from_address"], subject=r["subject"],
                                body=r["body"], sent_at=r["arrives_at"], to=[mine[0]],
                                cc=[r["cc"]] if r["cc"] else [], is_read=False,
                                in_reply_to=last["message_id"] if last and r["thread_id"] else None)
    if r["attachment"]:
        filename, mime, size = r["attachment"].split("|")
        ctx.db.execute("INSERT INTO attachments (attachment_id, message_id, filename, mime_type, size_kb) "
                       "VALUES (?, ?, ?, ?, ?)", (ctx.new_id("ATT"), message_id, filename, mime, int(size)))
    ctx.db.execute("DELETE FROM inbound WHERE inbound_id = ?", (inbound_id,))
    deliver(ctx, message_id)
    if not r["bulk"]:
        vacation_reply(ctx, message_id)
    return message_id


def vacation_reply(ctx: Ctx, message_id: str) -> None:
    """Answer a person's arriving message once per sender while the vacation responder is on."""
    box = ctx.db.execute("SELECT * FROM mailbox").fetchone()
    msg = ctx.get("message", message_id)
    day = msg["sent_at"][:10]
    sender = msg["from_address"]
    if (not box["vacation_enabled"] or msg["folder_id"] == "spam" or sender in my_addresses(ctx)
            or (box["vacation_start"] and day < box["vacation_start"])
            or (box["vacation_end"] and day > box["vacation_end"])
            or any(marker in sender for marker in NO_REPLY)
            or ctx.db.execute("SELECT 1 FROM vacation_replies WHERE address = ?", (sender,)).fetchone()):
        return
    insert_message(ctx, thread_id=msg["thread_id"], folder_id="sent", status="sent",
                              from_name=box["display_name"], from_address=my_addresses(ctx)[0],
                              subject=box["vacation_subject"] or f"Re: {msg['subject']}",
                              body=box["vacation_body"], sent_at=msg["sent_at"], to=[sender], in_reply_to=message_id)
    ctx.db.execute("INSERT INTO vacation_replies (address, replied_at) VALUES (?, ?)", (sender, msg["sent_at"]))


# ----- building results ---------------------------------------------------------------------------------

def summary(ctx: Ctx, row: sqlite3.Row) -> MessageSummary:
    rcpt = recipients(ctx, row["message_id"])
    labels = [r[0] for r in ctx.db.execute("SELECT label_id FROM message_labels WHERE message_id = ? ORDER BY label_id",
                                           (row["message_id"],))]
    has = ctx.db.execute("SELECT 1 FROM attachments WHERE message_id = ?", (row["message_id"],)).fetchone()
    body = " ".join(row["body"].split())
    return MessageSummary(
        message_id=row["message_id"], thread_id=row["thread_id"], folder_id=row["folder_id"], status=row["status"],
        from_name=row["from_name"], from_address=row["from_address"], to=rcpt["to"], subject=row["subject"],
        snippet=body if len(body) <= 100 else body[:100] + "...", date=row["sent_at"], is_read=bool(row["is_read"]),
        is_starred=bool(row["is_starred"]), has_attachments=has is not None, label_ids=labels)


def message_model(ctx: Ctx, message_id: str) -> Message:
    row = ctx.get("message", message_id)
    rcpt = recipients(ctx, message_id)
    folder = ctx.db.execute("SELECT name FROM folders WHERE folder_id = ?", (row["folder_id"],)).fetchone()[0]
    labels = ctx.db.execute("SELECT l.label_id, l.name FROM message_labels m JOIN labels l ON l.label_id = m.label_id "
                            "WHERE m.message_id = ? ORDER BY l.label_id", (message_id,)).fetchall()
    files = [Attachment(**dict(r)) for r in ctx.db.execute(
        "SELECT attachment_id, filename, mime_type, size_kb FROM attachments WHERE message_id = ? "
        "ORDER BY attachment_id", (message_id,))]
    names, mine = known_names(ctx), set(my_addresses(ctx))
    said = ["you" if a in mine else names.get(a, a) for a in rcpt["to"]]
    everyone = said + ["you" if a in mine else names.get(a, a) for a in rcpt["cc"]]
    return Message(
        message_id=row["message_id"], thread_id=row["thread_id"], folder_id=row["folder_id"], folder_name=folder,
        status=row["status"], from_name=row["from_name"], from_address=row["from_address"], to=rcpt["to"],
        cc=rcpt["cc"], bcc=rcpt["bcc"], subject=row["subject"], body=row["body"], date=row["sent_at"],
        is_read=bool(row["is_read"]), is_starred=bool(row["is_starred"]), in_reply_to=row["in_reply_to"],
        attachments=files, label_ids=[r[0] for r in labels], labels=[r[1] for r in labels],
        to_names=_and(said), everyone_names=_and(everyone))


def _and(names: list[str]) -> str:
    """'Elijah Murphy', 'Elijah Murphy and you', 'A, B and C'; 'nobody' for none."""
    return (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]) if names else "nobody"


def sent_model(ctx: Ctx, message_id: str, copy_id: str | None) -> SentMessage:
    return SentMessage(**message_model(ctx, message_id).model_dump(), inbox_copy_id=copy_id)


def filter_model(ctx: Ctx, row: sqlite3.Row) -> Filter:
    folder = ctx.db.execute("SELECT name FROM folders WHERE folder_id = ?", (row["move_to_folder_id"],)).fetchone()
    label = ctx.db.execute("SELECT name FROM labels WHERE label_id = ?", (row["add_label_id"],)).fetchone()
    return Filter(filter_id=row["filter_id"], name=row["name"], from_contains=row["from_contains"],
                  subject_contains=row["subject_contains"], move_to_folder_id=row["move_to_folder_id"],
                  move_to_folder_name=folder[0] if folder else None, add_label_id=row["add_label_id"],
                  add_label_name=label[0] if label else None, mark_read=bool(row["mark_read"]), star=bool(row["star"]))
