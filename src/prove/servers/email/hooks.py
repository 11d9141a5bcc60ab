"""What happens in the mailbox as the clock moves on: mail arrives and scheduled messages go out."""

from __future__ import annotations

from datetime import datetime

from prove.env import Ctx
from prove.env.values import iso

from .server import receive_inbound, self_deliver


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """Deliver the mail that arrives and send the scheduled messages due by `new`, in time order."""
    due: list[tuple[str, int, str]] = []
    for r in ctx.db.execute("SELECT message_id, sent_at FROM messages WHERE status = 'scheduled' AND sent_at <= ?",
                            (iso(new),)):
        due.append((r["sent_at"], 0, r["message_id"]))
    for r in ctx.db.execute("SELECT inbound_id, arrives_at FROM inbound WHERE arrives_at <= ?", (iso(new),)):
        due.append((r["arrives_at"], 1, r["inbound_id"]))
    for _, kind, key in sorted(due):
        if kind == 0:
            ctx.db.execute("UPDATE messages SET status = 'sent', folder_id = 'sent' WHERE message_id = ?", (key,))
            self_deliver(ctx, key)
        else:
            receive_inbound(ctx, key)
