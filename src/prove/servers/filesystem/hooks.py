"""What passing time does to the drive: old trash is purged, an unlocked vault relocks."""

from __future__ import annotations

from datetime import datetime, timedelta

from prove.env import Ctx
from prove.env.values import iso

from .server import log_activity, purge
from .world import TRASH_DAYS


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """What passing time does: trash older than 30 days is purged, an unlocked vault relocks."""
    cutoff = iso(new - timedelta(days=TRASH_DAYS))
    due = ctx.db.execute("SELECT trash_id, original_path, deleted_at FROM trash WHERE deleted_at <= ? "
                         "ORDER BY deleted_at, trash_id", (cutoff,)).fetchall()
    for row in due:
        purge(ctx, row["trash_id"])
        at = datetime.fromisoformat(row["deleted_at"]) + timedelta(days=TRASH_DAYS)
        log_activity(ctx, "purged", row["original_path"],
                     f"deleted for good after {TRASH_DAYS} days in the trash", at=at)
    ctx.db.execute("UPDATE account SET vault_unlocked_until = NULL WHERE vault_unlocked_until <= ?",
                   (iso(new),))
