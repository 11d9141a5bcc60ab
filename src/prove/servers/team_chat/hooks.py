"""What passing time does in team chat: colleagues post, scheduled messages go out, reminders fire."""

from __future__ import annotations

from datetime import datetime

from prove.env import Ctx
from prove.env.values import iso

from .server import is_member, me, open_dm, post


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """What happens as time passes: colleagues post, scheduled messages go out, reminders fire,
    statuses expire, in time order."""
    due: list[tuple[str, int, str]] = []
    end = iso(new)
    due += [(r[1], 0, r[0]) for r in ctx.db.execute(
        "SELECT upcoming_id, post_at FROM upcoming WHERE post_at <= ?", (end,))]
    due += [(r[1], 1, r[0]) for r in ctx.db.execute(
        "SELECT scheduled_id, post_at FROM scheduled_messages WHERE status = 'pending' AND post_at <= ?", (end,))]
    due += [(r[1], 2, r[0]) for r in ctx.db.execute(
        "SELECT reminder_id, remind_at FROM reminders WHERE status = 'pending' AND remind_at <= ?", (end,))]
    for at, kind, key in sorted(due):
        if kind == 0:
            _post_upcoming(ctx, key)
        elif kind == 1:
            _post_scheduled(ctx, key)
        else:
            _fire_reminder(ctx, key)
    ctx.db.execute("UPDATE users SET status_text = NULL, status_emoji = NULL, status_expires_at = NULL "
                   "WHERE status_expires_at IS NOT NULL AND status_expires_at <= ?", (end,))


def _post_upcoming(ctx: Ctx, upcoming_id: str) -> None:
    r = ctx.db.execute("SELECT * FROM upcoming WHERE upcoming_id = ?", (upcoming_id,)).fetchone()
    ctx.db.execute("DELETE FROM upcoming WHERE upcoming_id = ?", (upcoming_id,))
    channel = ctx.db.execute("SELECT * FROM channels WHERE channel_id = ?", (r["channel_id"],)).fetchone()
    if channel["is_archived"] or not is_member(ctx, r["channel_id"], r["user_id"]):
        return  # the channel was archived, or its author left: nothing is posted
    if r["thread_id"]:
        root = ctx.db.execute("SELECT is_deleted FROM messages WHERE message_id = ?", (r["thread_id"],)).fetchone()
        if root is None or root[0]:
            return
    post(ctx, r["channel_id"], r["user_id"], r["text"], r["post_at"], thread_id=r["thread_id"], in_channel=False)


def _post_scheduled(ctx: Ctx, scheduled_id: str) -> None:
    r = ctx.db.execute("SELECT * FROM scheduled_messages WHERE scheduled_id = ?", (scheduled_id,)).fetchone()
    channel = ctx.db.execute("SELECT * FROM channels WHERE channel_id = ?", (r["channel_id"],)).fetchone()
    user = me(ctx)
    if channel["is_archived"] or not is_member(ctx, r["channel_id"], user):
        ctx.db.execute("UPDATE scheduled_messages SET status = 'failed' WHERE scheduled_id = ?", (scheduled_id,))
        return
    message_id = post(ctx, r["channel_id"], user, r["text"], r["post_at"], mark_read=False)
    ctx.db.execute("UPDATE scheduled_messages SET status = 'sent', message_id = ? WHERE scheduled_id = ?",
                   (message_id, scheduled_id))


def _fire_reminder(ctx: Ctx, reminder_id: str) -> None:
    r = ctx.db.execute("SELECT * FROM reminders WHERE reminder_id = ?", (reminder_id,)).fetchone()
    bot = ctx.db.execute("SELECT user_id FROM users WHERE handle = 'slackbot'").fetchone()[0]
    text = f"Reminder: {r['text']}"
    if r["message_id"]:
        text += f" (about message {r['message_id']})"
    post(ctx, open_dm(ctx, bot), bot, text, r["remind_at"])
    ctx.db.execute("UPDATE reminders SET status = 'done' WHERE reminder_id = ?", (reminder_id,))

