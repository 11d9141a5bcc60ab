"""Later: scheduled messages and reminders, which act when the clock reaches their time."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import said_in_part, spoken_day

from .server import (
    ChannelId,
    ColleagueMessageId,
    MessageId,
    PostableChannelId,
    ReminderId,
    ScheduledId,
    Text,
    future_time,
    message_row,
    require_can_post,
    writable_channel,
)

tools = Toolset("later")


class ScheduledMessage(BaseModel):
    scheduled_id: ScheduledId
    channel_id: ChannelId
    channel_name: str
    text: str
    post_at: str
    status: Literal["pending", "sent", "cancelled", "failed"] = Field(
        description="'failed' if the channel was archived (or left) by the time it was due")
    message_id: MessageId | None = Field(description="the posted message, once sent")


class ScheduledList(BaseModel):
    scheduled_messages: list[ScheduledMessage]
    total: int
    scheduled_text: str = Field(description="the messages in words, such as \"'Standup in 5!' in #team-growth on "
                                            "March 17 at 9:55 AM\"")


class Reminder(BaseModel):
    reminder_id: ReminderId
    text: str
    remind_at: str
    status: Literal["pending", "done"]
    message_id: MessageId | None = Field(description="the message it is about, if any")


class ReminderList(BaseModel):
    reminders: list[Reminder]
    total: int
    reminders_text: str = Field(description="the reminders in words, such as \"'Submit the expense report' on March 5 "
                                            "at 2:00 PM (already went off)\"")


class DeletedReminder(BaseModel):
    reminder_id: str = Field(description="the ID the deleted reminder had")
    text: str


def _scheduled(ctx: Ctx, row: sqlite3.Row) -> ScheduledMessage:
    name = ctx.db.execute("SELECT name FROM channels WHERE channel_id = ?", (row["channel_id"],)).fetchone()[0]
    return ScheduledMessage(scheduled_id=row["scheduled_id"], channel_id=row["channel_id"], channel_name=name,
                            text=row["text"], post_at=row["post_at"], status=row["status"],
                            message_id=row["message_id"])


def _when(at: str, today: date) -> str:
    """'March 17 at 9:55 AM'."""
    t = datetime.fromisoformat(at)
    return f"{spoken_day(t.date(), today)} at {t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def _reminder(row: sqlite3.Row) -> Reminder:
    return Reminder(reminder_id=row["reminder_id"], text=row["text"], remind_at=row["remind_at"], status=row["status"],
                    message_id=row["message_id"])


@tools.tool(effect=WRITE, asks=[
    "Schedule '{text}' in {channel_id} for {post_at}.",
    "At {post_at}, post this in {channel_id}: {text}",
], reply=[
    "Scheduled '{text}' for {post_at} in {channel_id}.",
    "Done: '{text}' will post in #{result.channel_name} at {post_at}.",
], values={
    # A message and a time it fits: "demo at 2pm today!" goes out that morning, "Happy Friday" on a Friday.
    "text, post_at": [
        ("Standup in 5!", "2026-03-17T09:55:00"), ("Standup in 5!", "2026-03-19T09:55:00"),
        ("Reminder: demo at 2pm today!", "2026-03-18T09:30:00"), ("Reminder: demo at 2pm today!", "2026-03-24T10:00:00"),
        ("Happy Friday, team!", "2026-03-20T09:00:00"), ("Happy Friday, team!", "2026-03-27T09:00:00"),
        ("Timesheets are due today.", "2026-03-20T10:00:00"), ("Timesheets are due today.", "2026-03-27T10:00:00"),
        ("The retro starts in 10 minutes.", "2026-03-19T14:50:00"), ("The retro starts in 10 minutes.", "2026-03-26T15:50:00"),
        ("Don't forget to submit your expense reports.", "2026-03-23T11:00:00"),
        ("Don't forget to submit your expense reports.", "2026-03-30T09:30:00"),
        ("Good morning! Today's agenda is pinned.", "2026-03-17T08:30:00"),
        ("Good morning! Today's agenda is pinned.", "2026-03-25T08:30:00"),
        ("Release freeze starts at 6pm.", "2026-03-18T12:00:00"), ("Release freeze starts at 6pm.", "2026-03-26T13:00:00"),
    ],
})
def schedule_message(ctx: Ctx, channel_id: PostableChannelId, text: Text, post_at: str) -> ScheduledMessage:
    """Schedule a message to be posted in a channel later, when the clock reaches `post_at`.

    Args:
        channel_id: ID of the channel, such as 'CHN-10003' (or a direct message, 'DM-10001').
        text: the message, such as 'Reminder: demo at 2pm today!'.
        post_at: when to post it, ISO local time in the next 120 days, such as '2026-03-17T09:30:00'.

    Returns:
        The scheduled message with its ID and status 'pending'.

    Raises:
        not_found: no channel has that ID.
        private_channel: the channel is private and the user is not a member.
        not_in_channel: the user is not a member of the channel.
        channel_archived: the channel is archived.
        posting_restricted: only admins can post in this channel.
        invalid_time: `post_at` is not an ISO 8601 local time, or more than 120 days ahead.
        past_date: `post_at` is not in the future.
    """
    row = writable_channel(ctx, channel_id)
    require_can_post(ctx, row)
    when = future_time(ctx, post_at, "post_at")
    scheduled_id = ctx.new_id("SCH")
    ctx.db.execute("INSERT INTO scheduled_messages (scheduled_id, channel_id, text, post_at, status, message_id, "
                   "created_at) VALUES (?, ?, ?, ?, 'pending', NULL, ?)",
                   (scheduled_id, channel_id, text, when, ctx.now_iso()))
    return _scheduled(ctx, ctx.db.execute("SELECT * FROM scheduled_messages WHERE scheduled_id = ?",
                                          (scheduled_id,)).fetchone())


@tools.tool(effect=READ, asks=[
    "What messages do I have scheduled?",
    Ask("Show all my scheduled messages, including ones already sent.", include_past=True),
], reply=[
    Ask("You have {result.total} messages waiting to go out: {result.scheduled_text}.", include_past=False),
    Ask("Your scheduled messages: {result.scheduled_text}.", include_past=True),
])
def list_scheduled_messages(ctx: Ctx, include_past: bool = False) -> ScheduledList:
    """List the user's scheduled messages by time: pending ones, or all with `include_past`.

    Args:
        include_past: also list sent, cancelled and failed ones, such as true; default false.

    Returns:
        The scheduled messages and how many there are.
    """
    sql = "SELECT * FROM scheduled_messages" + ("" if include_past else " WHERE status = 'pending'")
    rows = ctx.db.execute(sql + " ORDER BY post_at, scheduled_id").fetchall()
    items = [_scheduled(ctx, r) for r in rows]
    today = ctx.today()
    state = {"pending": "", "sent": " (sent)", "cancelled": " (cancelled)", "failed": " (it could not be posted)"}
    said = [f"'{m.text}' in #{m.channel_name} on {_when(m.post_at, today)}{state[m.status]}"
            for m in (items if len(items) <= 8 else items[:6])]
    return ScheduledList(scheduled_messages=items, total=len(rows), scheduled_text=said_in_part(said, len(rows), "none"))


@tools.tool(effect=WRITE, asks=[
    "Cancel {scheduled_id}.",
    "Don't post {scheduled_id} after all.",
], reply=[
    "Cancelled {scheduled_id}; it won't be posted.",
    "Done: {scheduled_id} won't go out.",
])
def cancel_scheduled_message(ctx: Ctx, scheduled_id: ScheduledId) -> ScheduledMessage:
    """Cancel a pending scheduled message so it is never posted.

    Args:
        scheduled_id: ID of the scheduled message, such as 'SCH-10001'.

    Returns:
        The scheduled message, now 'cancelled'.

    Raises:
        not_found: no scheduled message has that ID.
        not_pending: it was already sent, cancelled or failed.
    """
    row = ctx.get("scheduled_message", scheduled_id)
    if row["status"] != "pending":
        raise ToolError("not_pending", f"{scheduled_id} is already {row['status']}"
                        + (f" (posted as {row['message_id']})." if row["message_id"] else "."),
                        hint="A posted message can be deleted with delete_message." if row["message_id"] else None)
    ctx.db.execute("UPDATE scheduled_messages SET status = 'cancelled' WHERE scheduled_id = ?", (scheduled_id,))
    return _scheduled(ctx, ctx.db.execute("SELECT * FROM scheduled_messages WHERE scheduled_id = ?",
                                          (scheduled_id,)).fetchone())


@tools.tool(effect=WRITE, asks=[
    "Remind me to {text} at {remind_at}.",
    # A reminder about a message is to get back to it (a task of its own would not be about that message).
    Ask("Remind me about {message_id} at {remind_at} so I can get back to it.", text="get back to this message"),
    Ask("At {remind_at}, remind me to reply to {message_id}.", text="reply to this message"),
    "At {remind_at}, remind me to {text}.",
], reply=[
    Ask("I'll remind you at {remind_at}: {text}.", message_id=None),
    Ask("Done: Slackbot will remind you at {remind_at}.", message_id=None),
    # A reminder about a message names the message, not "this message".
    Ask("Done: Slackbot will remind you at {remind_at} to get back to {message_id}.", text="get back to this message"),
    Ask("Done: Slackbot will remind you at {remind_at} to reply to {message_id}.", text="reply to this message"),
    "I'll remind you about {message_id} at {remind_at}.",
], values={
    "text": [
        "send the weekly update", "review the launch checklist", "follow up with design",
        "submit my expense report", "prepare the demo", "call the vendor back", "book the offsite venue",
        "reply to the onboarding thread",
    ],
})
def set_reminder(ctx: Ctx, text: Text, remind_at: str, message_id: ColleagueMessageId | None = None) -> Reminder:
    """Set a reminder: at `remind_at`, Slackbot sends the user a direct message with it.

    Args:
        text: what to be reminded of, such as 'send the weekly update'.
        remind_at: when, ISO local time in the next 120 days, such as '2026-03-16T16:00:00'.
        message_id: a message the reminder is about, such as 'CM-10042'.

    Returns:
        The reminder with its ID and status 'pending'.

    Raises:
        not_found: `message_id` does not exist.
        private_channel: the message is in a private channel the user is not a member of.
        invalid_time: `remind_at` is not an ISO 8601 local time, or more than 120 days ahead.
        past_date: `remind_at` is not in the future.
    """
    if message_id is not None:
        message_row(ctx, message_id)
    when = future_time(ctx, remind_at, "remind_at")
    reminder_id = ctx.new_id("REM")
    ctx.db.execute("INSERT INTO reminders (reminder_id, text, remind_at, message_id, status, created_at) "
                   "VALUES (?, ?, ?, ?, 'pending', ?)", (reminder_id, text, when, message_id, ctx.now_iso()))
    return _reminder(ctx.db.execute("SELECT * FROM reminders WHERE reminder_id = ?", (reminder_id,)).fetchone())


@tools.tool(effect=READ, asks=[
    "What reminders do I have?",
    Ask("List all my reminders, including the ones that already went off.", include_done=True),
], reply=[
    Ask("You have {result.total} reminders coming up: {result.reminders_text}.", include_done=False),
    Ask("Your reminders: {result.reminders_text}.", include_done=True),
])
def list_reminders(ctx: Ctx, include_done: bool = False) -> ReminderList:
    """List the user's reminders by time: pending ones, or all with `include_done`.

    Args:
        include_done: also list reminders that already went off, such as true; default false.

    Returns:
        The reminders and how many there are.
    """
    sql = "SELECT * FROM reminders" + ("" if include_done else " WHERE status = 'pending'")
    rows = ctx.db.execute(sql + " ORDER BY remind_at, reminder_id").fetchall()
    reminders = [_reminder(r) for r in rows]
    today = ctx.today()
    said = [f"'{r.text}' on {_when(r.remind_at, today)}" + (" (already went off)" if r.status == "done" else "")
            for r in (reminders if len(reminders) <= 8 else reminders[:6])]
    return ReminderList(reminders=reminders, total=len(rows), reminders_text=said_in_part(said, len(rows), "none"))


@tools.tool(effect=WRITE, asks=[
    "Delete {reminder_id}.",
    "I don't need {reminder_id} anymore.",
], reply=[
    "Deleted the reminder '{result.text}'.",
    "Done: {reminder_id} is gone.",
])
def delete_reminder(ctx: Ctx, reminder_id: ReminderId) -> DeletedReminder:
    """Delete a reminder, pending or done.

    Args:
        reminder_id: ID of the reminder, such as 'REM-10003'.

    Returns:
        The deleted reminder's ID and text.

    Raises:
        not_found: no reminder has that ID.
    """
    row = ctx.get("reminder", reminder_id)
    ctx.db.execute("DELETE FROM reminders WHERE reminder_id = ?", (reminder_id,))
    return DeletedReminder(reminder_id=reminder_id, text=row["text"])
