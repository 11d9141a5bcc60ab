"""The shopping server's clock: as time moves on, orders ship and arrive and returns are refunded."""

from __future__ import annotations

from datetime import datetime, timedelta

from prove.env import Ctx
from prove.env.values import iso

from .server import ship

SHIP_AFTER = timedelta(hours=20)        # an order leaves the warehouse this long after it is placed
REFUND_AFTER = timedelta(days=6)        # a return is received and refunded this long after it is requested


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """Everything that has happened by `new`: placed orders ship, shipped orders arrive on their
    estimated delivery date (at 3 pm, a day after shipping at the earliest), returns are refunded."""
    for o in ctx.db.execute("SELECT order_id, placed_at FROM orders WHERE status = 'placed' "
                            "ORDER BY placed_at, order_id").fetchall():
        at = datetime.fromisoformat(o["placed_at"]) + SHIP_AFTER
        if at <= new:
            ship(ctx, o["order_id"], at)
    for o in ctx.db.execute("SELECT order_id, shipped_at, estimated_delivery FROM orders WHERE status = 'shipped' "
                            "ORDER BY shipped_at, order_id").fetchall():
        at = max(datetime.fromisoformat(o["estimated_delivery"]).replace(hour=15),
                 datetime.fromisoformat(o["shipped_at"]) + timedelta(days=1))
        if at <= new:
            ctx.db.execute("UPDATE orders SET status = 'delivered', delivered_at = ? WHERE order_id = ?",
                           (iso(at), o["order_id"]))
    for r in ctx.db.execute("SELECT return_id, requested_at FROM returns WHERE status = 'requested'").fetchall():
        at = datetime.fromisoformat(r["requested_at"]) + REFUND_AFTER
        if at <= new:
            ctx.db.execute("UPDATE returns SET status = 'refunded', resolved_at = ? WHERE return_id = ?",
                           (iso(at), r["return_id"]))
