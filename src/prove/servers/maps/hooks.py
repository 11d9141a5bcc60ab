"""What passing time does on the map: the server's `on_advance` hook."""

from __future__ import annotations

from datetime import datetime

from prove.env import Ctx
from prove.env.values import iso

from .world import REVIEW_AFTER


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """Pending closure reports filed 24 hours or more before `new` are confirmed."""
    due = iso(new - REVIEW_AFTER)
    for row in ctx.db.execute("SELECT * FROM closure_reports WHERE status = 'pending' AND created_at <= ? "
                              "ORDER BY created_at, report_id", (due,)).fetchall():
        reviewed = iso(datetime.fromisoformat(row["created_at"]) + REVIEW_AFTER)
        ctx.db.execute("UPDATE closure_reports SET status = 'confirmed', resolved_at = ? WHERE report_id = ?",
                       (reviewed, row["report_id"]))
        ctx.db.execute("UPDATE places SET status = ? WHERE place_id = ?", (row["reported"], row["place_id"]))
