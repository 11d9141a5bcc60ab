"""What passing time does on the social network: scheduled posts publish, requests are answered, reports reviewed."""

from __future__ import annotations

from datetime import datetime, timedelta

from prove.env import Ctx
from prove.env.values import iso

from .server import me, notify
from .world import REPORT_REVIEW_HOURS, REQUEST_ANSWER_HOURS


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """As the clock moves on: scheduled posts publish, follow requests are approved, reports reviewed."""
    now = iso(new)
    user = me(ctx)
    ctx.db.execute("UPDATE posts SET status = 'published' WHERE status = 'scheduled' AND created_at <= ?", (now,))
    answered_before = iso(new - timedelta(hours=REQUEST_ANSWER_HOURS))
    for req in ctx.db.execute(
            "SELECT r.* FROM follow_requests r JOIN accounts a ON a.account_id = r.target_id "
            "WHERE r.requester_id = ? AND a.answers_requests = 1 AND r.created_at <= ? "
            "ORDER BY r.created_at, r.target_id", (user, answered_before)).fetchall():
        at = iso(datetime.fromisoformat(req["created_at"]) + timedelta(hours=REQUEST_ANSWER_HOURS))
        ctx.db.execute("DELETE FROM follow_requests WHERE requester_id = ? AND target_id = ?",
                       (user, req["target_id"]))
        ctx.db.execute("INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)",
                       (user, req["target_id"], at))
        notify(ctx, "follow_accepted", at, actor=req["target_id"])
    reviewed_before = iso(new - timedelta(hours=REPORT_REVIEW_HOURS))
    for rep in ctx.db.execute("SELECT r.*, p.violates FROM reports r JOIN posts p ON p.post_id = r.post_id "
                              "WHERE r.status = 'open' AND r.created_at <= ? ORDER BY r.created_at, r.report_id",
                              (reviewed_before,)).fetchall():
        at = iso(datetime.fromisoformat(rep["created_at"]) + timedelta(hours=REPORT_REVIEW_HOURS))
        outcome = "action_taken" if rep["violates"] else "no_violation"
        ctx.db.execute("UPDATE reports SET status = ?, resolved_at = ? WHERE report_id = ?",
                       (outcome, at, rep["report_id"]))
        if rep["violates"]:
            ctx.db.execute("UPDATE posts SET status = 'removed' WHERE post_id = ? AND status = 'published'",
                           (rep["post_id"],))
        notify(ctx, "report_update", at, post=rep["post_id"], report=rep["report_id"])
