"""What passing time does to bookings: the server's `on_advance` hook."""

from __future__ import annotations

from datetime import datetime

from prove.env import Ctx
from prove.env.values import iso, money

from .server import move_points, paid
from .tools_bookings import Terms, apply_cancellation
from .world import HOTEL_CHECK_OUT, POINTS_PER_DOLLAR, TIER_MULTIPLIER


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """As time passes, flights land and stays end (the bookings complete and earn points), and
    bookings on flights the airline cancelled are refunded in full at departure time."""
    move_on(ctx, new)


def move_on(ctx: Ctx, now: datetime) -> None:
    """Everything that has happened by `now`, in time order: bookings on flights the airline
    cancelled are refunded in full at departure; flights land and stays end, completing their
    bookings and earning loyalty points for what was paid by card."""
    stamp = iso(now)
    events: list[tuple[str, str, str]] = []
    for b in ctx.db.execute("SELECT b.booking_id, f.status AS flight_status, f.departs_at, f.arrives_at "
                            "FROM bookings b JOIN flights f USING (flight_id) WHERE b.status = 'confirmed'").fetchall():
        if b["flight_status"] == "cancelled" and b["departs_at"] <= stamp:
            events.append((b["departs_at"], b["booking_id"], "refund"))
        elif b["flight_status"] == "scheduled" and b["arrives_at"] <= stamp:
            events.append((b["arrives_at"], b["booking_id"], "complete"))
    for b in ctx.db.execute("SELECT booking_id, check_out FROM bookings WHERE kind = 'hotel' "
                            "AND status = 'confirmed'").fetchall():
        end = f"{b['check_out']}T{HOTEL_CHECK_OUT.isoformat()}"
        if end <= stamp:
            events.append((end, b["booking_id"], "complete"))
    (tier,) = ctx.db.execute("SELECT tier FROM accounts").fetchone()
    for at, booking_id, what in sorted(events):
        b = ctx.get("booking", booking_id)
        if what == "refund":
            charged, spent, refunded, returned = paid(ctx, booking_id)
            terms = Terms(money(charged - refunded), spent - returned, 0.0, "airline cancellation")
            apply_cancellation(ctx, b, terms, at, "The airline cancelled the flight: full refund")
            continue
        ctx.db.execute("UPDATE bookings SET status = 'completed' WHERE booking_id = ?", (booking_id,))
        charged, _, refunded, _ = paid(ctx, booking_id)
        points = int(max(0.0, charged - refunded) * POINTS_PER_DOLLAR[b["kind"]] * TIER_MULTIPLIER[tier])
        move_points(ctx, points, f"Earned for {b['summary']}", booking_id, at)
