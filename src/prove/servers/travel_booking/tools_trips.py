"""Travel booking tools: trips, which group flight and hotel bookings into one itinerary."""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import money, said_in_part

from .server import (
    BOOKING,
    BookedTripId,
    BookingId,
    BookingSummary,
    Limit,
    LooseBookingId,
    NewTripId,
    TripId,
    summaries,
)

tools = Toolset("trips")

TripName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
TripStatus = Literal["upcoming", "in_progress", "past", "empty"]

# a live booking that is in some trip
GroupedBookingId = BOOKING.where("status = 'confirmed' AND trip_id IS NOT NULL")

# ----- models -------------------------------------------------------------------------------------


class TripSummary(BaseModel):
    trip_id: TripId
    name: str
    status: TripStatus = Field(description="From its bookings that are not cancelled: 'upcoming' (none started), "
                                           "'in_progress', 'past' (all over) or 'empty' (none).")
    starts_at: str | None
    ends_at: str | None
    bookings: int = Field(description="Bookings in the trip, cancelled ones included.")


class TripList(BaseModel):
    trips: list[TripSummary]
    total: int
    trips_text: str = Field(description="The trips in words, such as 'Anniversary in Amsterdam (March 28 to "
                                        "April 2, 3 bookings)'.")


class Trip(BaseModel):
    trip_id: TripId
    name: str
    created_at: str
    status: TripStatus
    starts_at: str | None = Field(description="The first departure or check-in of its bookings that are not cancelled.")
    ends_at: str | None
    total_paid: float = Field(description="Dollars paid for its bookings, less refunds.")
    itinerary: list[BookingSummary] = Field(description="Its bookings in order of their start, cancelled ones "
                                                        "included (status 'cancelled').")
    itinerary_text: str = Field(description="Its bookings in words with what each cost, such as 'B6 2888 BOS to "
                                            "ATL on March 17 ($165.07)'.")


class TripChange(BaseModel):
    trip: Trip
    booking_id: BookingId
    previous_trip_id: TripId | None = Field(description="The trip the booking was in before, if any.")


# ----- helpers ------------------------------------------------------------------------------------


def load_trip(ctx: Ctx, trip: sqlite3.Row) -> Trip:
    items = summaries(ctx, "b.trip_id = ?", (trip["trip_id"],))
    live = [i for i in items if i.status != "cancelled"]
    start = min((i.starts_at for i in live), default=None)
    end = max((i.ends_at for i in live), default=None)
    return Trip(trip_id=trip["trip_id"], name=trip["name"], created_at=trip["created_at"],
                status=_status(ctx, start, end), starts_at=start, ends_at=end,
                total_paid=money(sum(i.net_paid for i in items)), itinerary=items,
                itinerary_text=said_in_part([_item(i) for i in items], len(items), "no bookings"))


def _item(b: BookingSummary) -> str:
    """'B6 2888 BOS to ATL on March 17 ($165.07)'; a cancelled one, or one paid with points, says so."""
    if b.status == "cancelled":
        return f"{b.summary} (cancelled)"
    return f"{b.summary} ({f'${b.net_paid:,.2f}' if b.net_paid else 'paid with points'})"


def _day(at: str, today: date) -> str:
    d = date.fromisoformat(at[:10])
    return f"{d:%B} {d.day}" + ("" if d.year == today.year else f", {d.year}")


def _trips_text(trips: list[TripSummary], total: int, today: date) -> str:
    """'Anniversary in Amsterdam (March 28 to April 2, 3 bookings) and Team offsite (no bookings yet)'."""
    # not "Denver (Dec 2025) (December 11, ...)": a name with its own parentheses is quoted, and so
    # then is every other name of the list
    quoted = any(t.name.endswith(")") for t in trips[:6])

    def one(t: TripSummary) -> str:
        name = f"'{t.name}'" if quoted else t.name
        if t.starts_at is None or t.ends_at is None:
            return f"{name} ({'no bookings yet' if not t.bookings else 'every booking cancelled'})"
        count = f"{t.bookings} booking{'s' if t.bookings != 1 else ''}"
        start, end = _day(t.starts_at, today), _day(t.ends_at, today)
        return f"{name} ({start if start == end else f'{start} to {end}'}, {count})"
    return said_in_part([one(t) for t in trips[:6]], total, "no trips")


def _status(ctx: Ctx, start: str | None, end: str | None) -> str:
    if start is None or end is None:
        return "empty"
    now = ctx.now_iso()
    if start > now:
        return "upcoming"
    return "past" if end <= now else "in_progress"


def _duplicate(ctx: Ctx, name: str, trip_id: str | None = None) -> None:
    same = ctx.db.execute("SELECT trip_id FROM trips WHERE lower(name) = lower(?) AND trip_id IS NOT ?",
                          (name, trip_id)).fetchone()
    if same is not None:
        raise ToolError("duplicate_trip", f"A trip named {name!r} already exists ({same[0]}).",
                        hint="Use that trip, or choose another name.")


# ----- tools --------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What trips do I have planned?",
    Ask("Which of my trips are coming up?", status="upcoming"),
    Ask("Which trips have I already taken?", status="past"),
], reply=[
    Ask("Your trips: {result.trips_text}.", status=None),
    Ask("Coming up: {result.trips_text}.", status="upcoming"),
    Ask("Trips you've taken: {result.trips_text}.", status="past"),
    "Here's what I found: {result.trips_text}.",
])
def list_trips(ctx: Ctx, status: TripStatus | None = None, limit: Limit = 20) -> TripList:
    """List the user's trips with their dates, newest start first.

    Args:
        status: only trips that are 'upcoming', 'in_progress', 'past' or 'empty'.
        limit: how many trips to return, 1 to 100, such as 20.

    Returns:
        The trips (ID, name, status, first start, last end, number of bookings) and how many matched.
    """
    out = []
    for t in ctx.db.execute("SELECT * FROM trips ORDER BY trip_id").fetchall():
        trip = load_trip(ctx, t)
        if status is not None and trip.status != status:
            continue
        out.append(TripSummary(trip_id=trip.trip_id, name=trip.name, status=trip.status,  # type: ignore[arg-type]
                               starts_at=trip.starts_at, ends_at=trip.ends_at, bookings=len(trip.itinerary)))
    out.sort(key=lambda x: (x.starts_at or "9999", x.trip_id), reverse=True)
    return TripList(trips=out[:limit], total=len(out), trips_text=_trips_text(out[:limit], len(out), ctx.today()))


@tools.tool(effect=READ, asks=[
    "What's the itinerary for {trip_id}?",
    "Walk me through {trip_id}: flights, hotels and what it cost.",
], reply=[
    "{result.name}: {result.itinerary_text}; ${result.total_paid} paid in all.",
    "Here's {trip_id}, in order: {result.itinerary_text}. That's ${result.total_paid} paid in all.",
])
def get_trip(ctx: Ctx, trip_id: BookedTripId) -> Trip:
    """Show a trip's itinerary: its flight and hotel bookings in order, with dates and cost.

    Args:
        trip_id: ID of the trip, such as 'TRP-10004'.

    Returns:
        The trip (name, status, first start, last end, total paid) and its bookings in order of
        their start (ID, kind, confirmation code, status, summary, start, end, amount paid).

    Raises:
        not_found: no trip has that ID.
    """
    return load_trip(ctx, ctx.get("trip", trip_id))


@tools.tool(effect=WRITE, asks=[
    "Start a new trip called '{name}'.",
    "Group {booking_ids} into a trip named '{name}'.",
], reply=[
    Ask("I've created the trip '{result.name}'.", booking_ids=None),
    Ask("Done: '{result.name}' is set up as a trip.", booking_ids=None),
    "I've put {booking_ids} in a new trip, '{result.name}'.",
    "Done: the trip '{result.name}' is set up with {booking_ids} in it.",
], values={
    # names that say what the trip is for, not where it goes nor on which days: they fit whichever
    # bookings it groups
    "name": ["Spring break", "Work trip", "Family visit", "Anniversary trip", "Getaway", "Team offsite",
        "Client visit", "Cousin's wedding"],
})
def create_trip(ctx: Ctx, name: TripName,
                booking_ids: Annotated[list[LooseBookingId], Field(max_length=20)] | None = None) -> Trip:
    """Create a trip, optionally with bookings in it (a booking in another trip moves here).

    Args:
        name: the trip's name, such as 'Lisbon in April'.
        booking_ids: bookings to put in the trip, such as ['BKG-10010', 'BKG-10011'].

    Returns:
        The new trip with its itinerary.

    Raises:
        duplicate_trip: a trip with that name (any case) already exists.
        not_found: a booking does not exist.
    """
    _duplicate(ctx, name)
    bookings = [ctx.get("booking", b) for b in booking_ids or []]
    trip_id = ctx.new_id("TRP")
    ctx.db.execute("INSERT INTO trips (trip_id, name, created_at) VALUES (?, ?, ?)", (trip_id, name, ctx.now_iso()))
    ctx.db.executemany("UPDATE bookings SET trip_id = ? WHERE booking_id = ?",
                       [(trip_id, b["booking_id"]) for b in bookings])
    return load_trip(ctx, ctx.get("trip", trip_id))


@tools.tool(effect=WRITE, needs=["create_trip"], asks=[
    "Add {booking_id} to {trip_id}.",
    "Put {booking_id} in {trip_id}.",
], reply=[
    "{booking_id} is now part of your trip '{result.trip.name}'.",
    "Done: I added {booking_id} to {trip_id}.",
])
def add_booking_to_trip(ctx: Ctx, trip_id: NewTripId, booking_id: LooseBookingId) -> TripChange:
    """Put a booking into a trip; a booking in another trip moves (a booking is in one trip at most).

    Args:
        trip_id: ID of the trip, such as 'TRP-10004'.
        booking_id: ID of the booking, such as 'BKG-10010'.

    Returns:
        The trip with its itinerary, the booking and the trip it was in before.

    Raises:
        not_found: the trip or the booking does not exist.
        already_in_trip: the booking is already in this trip.
    """
    trip = ctx.get("trip", trip_id)
    b = ctx.get("booking", booking_id)
    if b["trip_id"] == trip["trip_id"]:
        raise ToolError("already_in_trip", f"Booking {booking_id} is already in {trip['name']!r}.",
                        hint="Nothing to do; call get_trip to see the itinerary.")
    ctx.db.execute("UPDATE bookings SET trip_id = ? WHERE booking_id = ?", (trip["trip_id"], booking_id))
    return TripChange(trip=load_trip(ctx, trip), booking_id=booking_id, previous_trip_id=b["trip_id"])


@tools.tool(effect=WRITE, asks=[
    "Take {booking_id} out of its trip.",
    "Remove {booking_id} from its trip, but keep the booking itself.",
], reply=[
    "{booking_id} is no longer part of your trip '{result.trip.name}'.",
    "Done: I took {booking_id} out of its trip.",
])
def remove_booking_from_trip(ctx: Ctx, booking_id: GroupedBookingId) -> TripChange:
    """Take a booking out of its trip (the booking itself stays as it is).

    Args:
        booking_id: ID of the booking, such as 'BKG-10010'.

    Returns:
        The trip it left with the remaining itinerary, the booking and that trip's ID.

    Raises:
        not_found: no booking has that ID.
        not_in_trip: the booking is not in any trip.
    """
    b = ctx.get("booking", booking_id)
    if b["trip_id"] is None:
        raise ToolError("not_in_trip", f"Booking {booking_id} is not in a trip.",
                        hint="Call list_trips or add_booking_to_trip.")
    ctx.db.execute("UPDATE bookings SET trip_id = NULL WHERE booking_id = ?", (booking_id,))
    return TripChange(trip=load_trip(ctx, ctx.get("trip", b["trip_id"])), booking_id=booking_id,
                      previous_trip_id=b["trip_id"])
