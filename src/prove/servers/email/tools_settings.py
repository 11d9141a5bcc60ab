"""Settings: the mailbox overview, signature, vacation responder and app passwords."""

from __future__ import annotations

import string
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import parse_date, quote, said_in_part, spoken_day

from .server import (
    AppPasswordId,
    BlockedAddress,
    Body,
    Name,
    Password,
    Subject,
    my_addresses,
)

tools = Toolset("settings")

MAX_APP_PASSWORDS = 5
Signature = Annotated[str, StringConstraints(max_length=1000)]


class Vacation(BaseModel):
    enabled: bool
    subject: str | None
    message: str | None
    start_date: str | None = Field(description="first day it answers (inclusive), or null for right away")
    end_date: str | None = Field(description="last day it answers (inclusive), or null for until turned off")


class Mailbox(BaseModel):
    display_name: str
    primary_address: str
    aliases: list[str] = Field(description="other addresses of the user: mail to them arrives in the inbox")
    signature: str | None
    vacation: Vacation
    blocked_senders: list[BlockedAddress]
    inbox_unread: int
    drafts: int
    scheduled: int


class SignatureChange(BaseModel):
    signature: str | None
    previous: str | None


class AppPassword(BaseModel):
    app_password_id: AppPasswordId
    name: str
    status: str = Field(description="'active' or 'revoked'")
    created_at: str
    last_used_at: str | None


class NewAppPassword(AppPassword):
    password: Password = Field(description="the 16-letter password; it is shown only this once")


class AppPasswordList(BaseModel):
    app_passwords: list[AppPassword]
    total: int
    app_passwords_text: str = Field(description="the app passwords in words, such as 'Thunderbird on laptop (in use, "
                                                "last used March 14) and Old phone (revoked)'")


def _vacation(ctx: Ctx) -> Vacation:
    box = ctx.db.execute("SELECT * FROM mailbox").fetchone()
    return Vacation(enabled=bool(box["vacation_enabled"]), subject=box["vacation_subject"],
                    message=box["vacation_body"], start_date=box["vacation_start"], end_date=box["vacation_end"])


def _app(row) -> AppPassword:
    return AppPassword(app_password_id=row["app_password_id"], name=row["name"], status=row["status"],
                       created_at=row["created_at"], last_used_at=row["last_used_at"])


@tools.tool(effect=READ, asks=[
    "What's my email address, and do I have any aliases?",
    "Is my out-of-office reply on? Show me my mail settings.",
    "Which senders have I blocked?",
], reply=[
    # The generic summary leaves out the aliases and the blocked senders, which these questions ask for.
    Ask("Your address is {result.primary_address}; aliases: {result.aliases}. Blocked senders: "
        "{result.blocked_senders}. Your out-of-office reply is off.", **{"result.vacation.enabled": False}),
    Ask("Your address is {result.primary_address}; aliases: {result.aliases}. Blocked senders: "
        "{result.blocked_senders}. Your out-of-office reply is on.", **{"result.vacation.enabled": True}),
    # ... and a question about the address, or about blocked senders, is answered alone.
    *(Ask(text, **{"result.vacation.enabled": on}) for on in (False, True) for text in (
        "Your address is {result.primary_address}; aliases: {result.aliases}.",
        "You've blocked {result.blocked_senders}.")),
])
def get_mailbox(ctx: Ctx) -> Mailbox:
    """Show the user's mailbox: name, addresses, signature, vacation responder, blocked senders and counts.

    Returns:
        The display name, primary address and aliases, signature, vacation responder settings,
        blocked sender addresses, unread messages in the inbox, drafts and scheduled messages.
    """
    box = ctx.db.execute("SELECT * FROM mailbox").fetchone()
    mine = my_addresses(ctx)

    def count(sql: str) -> int:
        return ctx.db.execute(sql).fetchone()[0]

    blocked = [r[0] for r in ctx.db.execute("SELECT address FROM blocked_senders ORDER BY address")]
    return Mailbox(display_name=box["display_name"], primary_address=mine[0], aliases=mine[1:],
                   signature=box["signature"], vacation=_vacation(ctx), blocked_senders=blocked,
                   inbox_unread=count("SELECT count(*) FROM messages WHERE folder_id = 'inbox' AND is_read = 0"),
                   drafts=count("SELECT count(*) FROM messages WHERE status = 'draft'"),
                   scheduled=count("SELECT count(*) FROM messages WHERE status = 'scheduled'"))


@tools.tool(effect=WRITE, asks=[
    "Change my email signature to: {signature}",
    Ask("Remove my signature.", signature=""),
    "Set my sign-off to '{signature}'.",
], reply=[
    Ask("Your signature is removed; new emails go out without one.", signature=""),
    Ask("Done: you have no signature now.", signature=""),
    "Your signature now reads: {signature}",
    "Done: new emails will end with '{signature}'.",
], values={"signature": ["Best regards", "Thanks!", "Cheers", "Sent from my phone", "Talk soon",
                         "Kind regards"]})
def update_signature(ctx: Ctx, signature: Signature) -> SignatureChange:
    """Set the signature appended to messages the user sends; '' removes it.

    Args:
        signature: the new signature, such as 'Ana Lopez\\nHead of Operations'; '' for none.

    Returns:
        The new signature and the previous one.
    """
    previous = ctx.db.execute("SELECT signature FROM mailbox").fetchone()[0]
    ctx.db.execute("UPDATE mailbox SET signature = ?", (signature.strip() or None,))
    return SignatureChange(signature=signature.strip() or None, previous=previous)


@tools.tool(effect=WRITE, asks=[
    Ask("Turn on my out-of-office from {start_date} to {end_date} saying: {message}", enabled=True),
    Ask("Set an auto-reply with the subject '{subject}' until {end_date}.", enabled=True),
    Ask("Turn off my vacation responder.", enabled=False),
    Ask("I'm back, switch the out-of-office off.", enabled=False),
], reply=[
    Ask("Your out-of-office is on; it answers mail until {end_date}.", enabled=True),
    Ask("Done: the auto-reply is switched on through {end_date}.", enabled=True),
    Ask("Your out-of-office is off; mail no longer gets an auto-reply.", enabled=False),
    Ask("Done: the vacation responder is switched off.", enabled=False),
], values={
    # (no day of its own: "the subject 'Out of office until March 30' until April 15" contradicts itself)
    "subject": ["Out of office", "On vacation", "Away from my desk", "Out of the office"],
    "message": ["I'm away with limited access to email and will reply when I'm back.",
                "I'm out of the office this week. For urgent matters, please contact my team.",
                "Thanks for your email. I'm on vacation and will respond after I return.",
                "I'm traveling and checking mail only occasionally."],
})
def set_vacation_responder(ctx: Ctx, enabled: bool, subject: Subject | None = None, message: Body | None = None,
                           start_date: str | None = None, end_date: str | None = None) -> Vacation:
    """Turn the vacation auto-reply on (with its text and dates) or off.

    While on, each sender whose mail arrives between the start and end dates gets the reply once
    (not mailing lists, no-reply senders or spam). Turning it on again starts a fresh round. The
    subject and message not given keep their saved values.

    Args:
        enabled: true to turn it on, false to turn it off.
        subject: the reply's subject, such as 'Out of office'.
        message: the reply's text, such as 'I am away with limited access to email.'.
        start_date: first day to answer, such as '2026-03-20'; default today.
        end_date: last day to answer (inclusive), such as '2026-03-27'; omit for until turned off.

    Returns:
        The vacation responder as it is now.

    Raises:
        already_disabled: `enabled` is false and the responder is already off.
        missing_message: turning it on with no `message` and none saved.
        invalid_date: a date is not an ISO 8601 date between 2000 and 2099.
        end_before_start: `end_date` is before `start_date`.
        past_date: `end_date` is before today.
    """
    box = ctx.db.execute("SELECT * FROM mailbox").fetchone()
    if not enabled:
        if not box["vacation_enabled"]:
            raise ToolError("already_disabled", "The vacation responder is already off.")
        ctx.db.execute("UPDATE mailbox SET vacation_enabled = 0")
        return _vacation(ctx)
    body = message if message is not None and message.strip() else box["vacation_body"]
    if not body:
        raise ToolError("missing_message", "There is no saved vacation message; give `message`.",
                        hint="Pass the text of the auto-reply as message.")
    start = parse_date(start_date, "start_date") if start_date is not None else ctx.today()
    end = parse_date(end_date, "end_date") if end_date is not None else None
    if end is not None and end < start:
        raise ToolError("end_before_start", f"end_date {end} is before start_date {start}.")
    if end is not None and end < ctx.today():
        raise ToolError("past_date", f"end_date {end} is in the past; today is {ctx.today()}.")
    ctx.db.execute("UPDATE mailbox SET vacation_enabled = 1, vacation_subject = ?, vacation_body = ?, "
                   "vacation_start = ?, vacation_end = ?",
                   (subject or box["vacation_subject"] or "Out of office", body, start.isoformat(),
                    end.isoformat() if end else None))
    ctx.db.execute("DELETE FROM vacation_replies")
    return _vacation(ctx)


@tools.tool(effect=READ, asks=[
    "Which apps have passwords for my mail?",
    "List my app passwords.",
], reply=[
    "You have {result.total} app passwords: {result.app_passwords_text}.",
])
def list_app_passwords(ctx: Ctx) -> AppPasswordList:
    """List the app passwords mail apps use to sign in, active and revoked (never the passwords).

    Returns:
        The app passwords (ID, name, status, created and last used times).
    """
    rows = ctx.db.execute("SELECT * FROM app_passwords ORDER BY created_at, app_password_id").fetchall()
    apps = [_app(r) for r in rows]
    today = ctx.today()
    said = [f"{a.name} (" + ("revoked" if a.status == "revoked" else f"in use, last used {spoken_day(a.last_used_at, today)}"
                              if a.last_used_at else "in use, never used yet") + ")" for a in apps]
    return AppPasswordList(app_passwords=apps, total=len(rows), app_passwords_text=said_in_part(said, len(rows), "none"))


@tools.tool(effect=WRITE, asks=[
    "Create an app password for {name}.",
    "I need a password so {name} can get my mail.",
], reply=[
    # the password is what the user asked for: said, once
    "Created an app password for {name}: {result.password}. It's shown only this once, so save it now.",
    "Done: here is the new password for {name}: {result.password}. It won't be shown again.",
], values={
    # an app's own name, said as is by the user ("so Thunderbird can get my mail") and by the reply ("for
    # Thunderbird"): no device that wants a "my" ("so Android tablet can ..."), no "my" the reply would repeat
    "name": ["Thunderbird", "iPhone Mail", "Outlook", "Calendar sync", "Android Mail", "Apple Mail"],
})
def create_app_password(ctx: Ctx, name: Name) -> NewAppPassword:
    """Create a password for a mail app (such as Thunderbird) that cannot sign in interactively.

    Args:
        name: which app or device it is for, unique among active ones, such as 'Work laptop Thunderbird'.

    Returns:
        The app password with its 16-letter password, shown only this once.

    Raises:
        duplicate_name: an active app password already has that name.
        too_many_app_passwords: there are already 5 active app passwords (revoke one first).
    """
    active = ctx.db.execute("SELECT name FROM app_passwords WHERE status = 'active'").fetchall()
    if any(r[0].lower() == name.lower() for r in active):
        raise ToolError("duplicate_name", f"An active app password is already named {quote(name)}.")
    if len(active) >= MAX_APP_PASSWORDS:
        raise ToolError("too_many_app_passwords", f"You already have {len(active)} active app passwords.",
                        hint="Revoke one you no longer use with revoke_app_password.")
    rng = ctx.rng()
    letters = "".join(rng.choice(string.ascii_lowercase) for _ in range(16))
    password = " ".join(letters[i:i + 4] for i in range(0, 16, 4))
    app_id = ctx.new_id("APP")
    ctx.db.execute("INSERT INTO app_passwords (app_password_id, name, password, status, created_at, last_used_at) "
                   "VALUES (?, ?, ?, 'active', ?, NULL)", (app_id, name, password, ctx.now_iso()))
    row = ctx.db.execute("SELECT * FROM app_passwords WHERE app_password_id = ?", (app_id,)).fetchone()
    return NewAppPassword(**_app(row).model_dump(), password=password)


@tools.tool(effect=WRITE, asks=[
    "Revoke {app_password_id}.",
    "I lost that device; kill {app_password_id}.",
], reply=[
    "Revoked the app password for {result.name}; that app can no longer sign in.",
    "Done: {app_password_id} no longer works.",
])
def revoke_app_password(ctx: Ctx, app_password_id: AppPasswordId) -> AppPassword:
    """Revoke an app password: the app using it can no longer sign in.

    Args:
        app_password_id: ID of the app password, such as 'APP-10001'.

    Returns:
        The app password, now 'revoked'.

    Raises:
        not_found: no app password has that ID.
        already_revoked: it is already revoked.
    """
    row = ctx.db.execute("SELECT * FROM app_passwords WHERE app_password_id = ?", (app_password_id,)).fetchone()
    if row is None:
        raise ToolError("not_found", f"No app password has ID {quote(app_password_id)}.",
                        hint="list_app_passwords shows them.")
    if row["status"] == "revoked":
        raise ToolError("already_revoked", f"The app password '{row['name']}' is already revoked.")
    ctx.db.execute("UPDATE app_passwords SET status = 'revoked' WHERE app_password_id = ?", (app_password_id,))
    return _app(ctx.db.execute("SELECT * FROM app_passwords WHERE app_password_id = ?", (app_password_id,)).fetchone())
