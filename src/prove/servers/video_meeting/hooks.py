"""What meetings do by themselves as the clock moves on (the server's on_advance hook)."""

from __future__ import annotations

from datetime import datetime, timedelta

from prove.env import Ctx
from prove.env.values import iso

from .server import arrive, close_meeting, ends_at, me
from .world import ADMIT_AFTER_SECONDS, LATECOMER_MINUTES


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """As the clock moves on: colleagues' meetings start and end, hosts admit the user from
    waiting rooms, latecomers arrive at the user's meetings, recordings finish processing."""
    now = iso(new)
    user = me(ctx)
    # Colleagues' meetings start at their start time; invitees who accepted come in.
    for m in ctx.db.execute("SELECT * FROM meetings WHERE host_id != ? AND status = 'scheduled' AND starts_at <= ? "
                            "ORDER BY starts_at, meeting_id", (user, now)).fetchall():
        ctx.db.execute("UPDATE meetings SET status = 'live', started_at = starts_at WHERE meeting_id = ?",
                       (m["meeting_id"],))
        arrive(ctx, m, m["host_id"], m["starts_at"], role="host")
        for (pid,) in ctx.db.execute("SELECT person_id FROM invitees WHERE meeting_id = ? AND response = 'accepted' "
                                     "AND person_id != ? ORDER BY person_id", (m["meeting_id"], user)).fetchall():
            ctx.db.execute("INSERT INTO participants (participant_id, meeting_id, person_id, role, status, muted, "
                           "joined_at, left_at) VALUES (?, ?, ?, 'attendee', 'in_meeting', ?, ?, NULL)",
                           (ctx.new_id("PRT"), m["meeting_id"], pid, m["mute_on_entry"], m["starts_at"]))
    # Colleague hosts admit the user from their waiting rooms a minute after the user asked.
    admit_before = iso(new - timedelta(seconds=ADMIT_AFTER_SECONDS))
    ctx.db.execute("UPDATE participants SET status = 'in_meeting' WHERE person_id = ? AND status = 'waiting' "
                   "AND joined_at <= ? AND meeting_id IN (SELECT meeting_id FROM meetings WHERE status = 'live' "
                   "AND host_id != ?)", (user, admit_before, user))
    # Latecomers: invitees of the user's live meetings who had not accepted (nor declined).
    for m in ctx.db.execute("SELECT * FROM meetings WHERE host_id = ? AND status = 'live' ORDER BY meeting_id",
                            (user,)).fetchall():
        due = datetime.fromisoformat(m["started_at"]) + timedelta(minutes=LATECOMER_MINUTES)
        if due > new:
            continue
        for (pid,) in ctx.db.execute(
                "SELECT person_id FROM invitees WHERE meeting_id = ? AND response != 'declined' AND person_id NOT IN "
                "(SELECT person_id FROM participants WHERE meeting_id = ?) ORDER BY person_id",
                (m["meeting_id"], m["meeting_id"])).fetchall():
            arrive(ctx, m, pid, iso(max(due, datetime.fromisoformat(m["started_at"]))))
    # Colleagues' meetings end at their scheduled end.
    for m in ctx.db.execute("SELECT * FROM meetings WHERE host_id != ? AND status = 'live' ORDER BY meeting_id",
                            (user,)).fetchall():
        end = datetime.fromisoformat(ends_at(m))
        if end <= new:
            close_meeting(ctx, m, end)
    # Recordings finish processing.
    ctx.db.execute("UPDATE recordings SET status = 'available' WHERE status = 'processing' AND ready_at <= ?", (now,))
