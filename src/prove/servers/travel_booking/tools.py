"""The travel booking server: the online travel agency account of one signed-in traveller.

This module holds `server`, the ID types and the helpers every tool module shares. The tools
live in one module per area, imported at the bottom so that they register on `server`:

    tools_flights.py    airports, flight search, flight details, seat maps
    tools_bookings.py   booking flights, listing and reading bookings, cancellation and refunds
    tools_changes.py    changing a flight, seats, checked bags, online check-in
    tools_hotels.py     hotel search, hotel rooms and availability, booking a stay
    tools_trips.py      trips that group bookings into an itinerary
    tools_account.py    profile, travellers and passports, saved cards, loyalty points

Rules every tool follows:

- The user books for themselves and their saved travellers; they pay with a saved card or with
  loyalty points (100 points = $1), never both for one purchase.
- A flight's seats left in a cabin are its capacity less the seats the airline sold to others
  (`*_sold`) less the passengers of the user's bookings that are not cancelled.
- A hotel room type's rooms left on a night are `rooms_total` less other guests' `room_blocks`
  less the rooms of the user's stays that are not cancelled.
- Flight times are local at each airport and compared with the simulated clock as written.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from prove.env import Ctx, Entity, EntityKind, Server, ToolError
from prove.env.values import money, quote

from .world import (
    AIRCRAFT,
    PASSPORT_MONTHS,
    POINT_VALUE,
    build_world,
    capacity,
    is_international,
    iso,
    others_seats,
)


def on_advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """As time passes, flights land and stays end (the bookings complete and earn points), and
    bookings on flights the airline cancelled are refunded in full at departure time."""
    from .tools_bookings import move_on

    move_on(ctx, new)


server = Server(
    "travel_booking", "Travel booking",
    "The online travel agency account of one signed-in traveller: direct flights between 19 "
    "airports in North America, Europe and Asia with three weeks of schedules, five fare families "
    "(Basic Economy to Business) with their change, cancellation and bag rules, seat maps; hotels "
    "with room types, nightly rates and availability per night; booking flights and stays for the "
    "traveller and their saved companions (passports required abroad), paying by saved card or "
    "with loyalty points; cancellations with refunds by fare rules and timing, flight changes, "
    "seat selection, checked bags, online check-in; trips that group bookings into an itinerary.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    on_advance=on_advance,
    entities=[
        EntityKind("airport", table="airports", key="code", label="name",
                   description="an airport, by IATA code such as 'BOS'"),
        EntityKind("airline", table="airlines", key="code", label="name",
                   description="an airline, by IATA code such as 'LH'"),
        EntityKind("flight", table="flights", key="flight_id", label="flight_number",
                   description="one dated direct flight", live="status = 'scheduled' AND departs_at > :now"),
        EntityKind("hotel", table="hotels", key="hotel_id", label="name", description="a hotel"),
        EntityKind("room_type", table="room_types", key="room_type_id", label="name",
                   description="a kind of room at a hotel, with its nightly rate"),
        EntityKind("booking", table="bookings", key="booking_id", label="summary",
                   description="a flight booking or a hotel stay of the user", live="status = 'confirmed'"),
        EntityKind("trip", table="trips", key="trip_id", label="name",
                   description="a trip grouping bookings into one itinerary"),
        EntityKind("traveler", table="travelers", key="traveler_id", label="full_name",
                   description="the user or a saved companion they book for"),
        EntityKind("payment_method", table="payment_methods", key="payment_method_id", label="nickname",
                   description="a saved card of the user", live="expires_on >= :today"),
        EntityKind("payment", table="payments", key="payment_id", label="description",
                   description="a charge or refund of a booking"),
        EntityKind("loyalty_activity", table="loyalty_activity", key="activity_id", label="description",
                   description="points earned or redeemed in the loyalty program"),
    ],
)

# ----- parameter and field types ----------------------------------------------------------------

AirportCode = Annotated[str, Entity("airport")]
AirlineCode = Annotated[str, Entity("airline")]
FlightId = Annotated[str, Entity("flight")]
HotelId = Annotated[str, Entity("hotel")]
RoomTypeId = Annotated[str, Entity("room_type")]
BookingId = Annotated[str, Entity("booking")]
TripId = Annotated[str, Entity("trip")]
TravelerId = Annotated[str, Entity("traveler")]
PaymentMethodId = Annotated[str, Entity("payment_method")]
PaymentId = Annotated[str, Entity("payment")]
ActivityId = Annotated[str, Entity("loyalty_activity")]

Fare = Literal["basic_economy", "economy", "economy_flex", "premium_economy", "business"]
Cabin = Literal["economy", "premium_economy", "business"]
RatePlan = Literal["flexible", "non_refundable"]
Limit = Annotated[int, Field(ge=1, le=100)]

SOLD_COLUMN = {"economy": "economy_sold", "premium_economy": "premium_sold", "business": "business_sold"}

# The tool that lists each kind of entity, named in `not_found` hints.
_LISTED_BY = {
    "airport": "list_airports", "airline": "search_flights (airline_code)", "flight": "search_flights",
    "hotel": "search_hotels", "room_type": "get_hotel", "booking": "list_bookings", "trip": "list_trips",
    "traveler": "list_travelers", "payment_method": "list_payment_methods", "payment": "get_booking",
    "loyalty_activity": "get_loyalty_account",
}

# ----- helpers ------------------------------------------------------------------------------------


def fetch(ctx: Ctx, kind: str, entity_id: str) -> sqlite3.Row:
    """The row of entity `kind` with this ID, or a `not_found` error naming the list tool."""
    spec = server.entities[kind]  # table and key names come from the declaration, never from input
    key = entity_id.strip().upper() if kind in ("airport", "airline") else entity_id
    row = ctx.db.execute(f'SELECT * FROM "{spec.table}" WHERE "{spec.key}" = ?', (key,)).fetchone()
    if row is None:
        what = kind.replace("_", " ")
        raise ToolError("not_found", f"No {what} has ID {quote(entity_id)}.",
                        hint=f"Call {_LISTED_BY[kind]} to see the IDs that exist.")
    return row


def flight_status(flight: sqlite3.Row, now: datetime) -> str:
    """'cancelled', 'landed', 'departed' or 'scheduled', from the row and the clock."""
    if flight["status"] == "cancelled":
        return "cancelled"
    stamp = iso(now)
    if flight["arrives_at"] <= stamp:
        return "landed"
    if flight["departs_at"] <= stamp:
        return "departed"
    return "scheduled"


def booked_counts(ctx: Ctx, flight_id: str | None = None) -> dict[tuple[str, str], int]:
    """Passengers of the user's bookings that are not cancelled, by (flight, cabin)."""
    sql = ("SELECT b.flight_id, b.cabin, count(*) FROM booking_passengers p JOIN bookings b USING (booking_id) "
           "WHERE b.kind = 'flight' AND b.status != 'cancelled'")
    params: tuple[Any, ...] = ()
    if flight_id is not None:
        sql += " AND b.flight_id = ?"
        params = (flight_id,)
    return {(f, c): n for f, c, n in ctx.db.execute(sql + " GROUP BY b.flight_id, b.cabin", params)}


def seats_left(ctx: Ctx, flight: sqlite3.Row, cabin: str, booked: dict[tuple[str, str], int] | None = None) -> int:
    """Seats still for sale in a cabin (0 if the aircraft has no such cabin)."""
    cap = capacity(flight["aircraft"], cabin)
    if not cap:
        return 0
    if booked is None:
        booked = booked_counts(ctx, flight["flight_id"])
    return max(0, cap - flight[SOLD_COLUMN[cabin]] - booked.get((flight["flight_id"], cabin), 0))


def taken_seats(ctx: Ctx, flight: sqlite3.Row, cabin: str) -> set[str]:
    """Seats of a cabin that nobody else may choose: other customers' and the user's passengers'."""
    taken = others_seats(flight["flight_id"], flight["aircraft"], cabin, flight[SOLD_COLUMN[cabin]])
    for (seat,) in ctx.db.execute(
            "SELECT p.seat FROM booking_passengers p JOIN bookings b USING (booking_id) "
            "WHERE b.flight_id = ? AND b.status != 'cancelled' AND p.seat IS NOT NULL", (flight["flight_id"],)):
        taken.add(seat)
    return taken


def require_cabin(flight: sqlite3.Row, cabin: str) -> None:
    if cabin not in AIRCRAFT[flight["aircraft"]]:
        cabins = ", ".join(AIRCRAFT[flight["aircraft"]])
        raise ToolError("cabin_unavailable", f"{flight['flight_number']} ({flight['aircraft']}) has no "
                        f"{cabin.replace('_', ' ')} cabin.", hint=f"This aircraft has: {cabins}.")


def check_passports(flight: sqlite3.Row, travelers: list[sqlite3.Row]) -> None:
    """For an international flight, every traveller needs a passport valid six months past it."""
    if not is_international(flight["origin"], flight["destination"]):
        return
    day = date.fromisoformat(flight["departs_at"][:10])
    month = day.month - 1 + PASSPORT_MONTHS
    year = day.year + month // 12
    month = month % 12 + 1
    needed = date(year, month, min(day.day, 28)).isoformat()
    for t in travelers:
        if not t["passport_number"]:
            raise ToolError("passport_required", f"{t['full_name']} has no passport on file, and "
                            f"{flight['origin']} to {flight['destination']} is an international flight.",
                            hint=f"Ask for the passport details and call update_traveler_passport for "
                                 f"{t['traveler_id']}.")
        if (t["passport_expiry"] or "") < needed:
            raise ToolError("passport_expiring", f"{t['full_name']}'s passport expires on {t['passport_expiry']}; "
                            f"it must be valid until at least {needed}, six months after the flight.",
                            hint=f"Ask for a renewed passport and call update_traveler_passport for "
                                 f"{t['traveler_id']}.")


def usable_card(ctx: Ctx, payment_method_id: str) -> sqlite3.Row:
    """A saved card that has not expired, else `not_found` or `card_expired`."""
    card = fetch(ctx, "payment_method", payment_method_id)
    if card["expires_on"] < ctx.today().isoformat():
        raise ToolError("card_expired", f"The {card['nickname']} card ending {card['last4']} expired "
                        f"({card['expiry']}).", hint="Use another card from list_payment_methods, or add_payment_card.")
    return card


def choose_payment(ctx: Ctx, payment_method_id: str | None, use_points: bool) -> sqlite3.Row | None:
    """The card to charge, or None to pay with points; `invalid_payment` unless exactly one is given."""
    if use_points == (payment_method_id is not None):
        raise ToolError("invalid_payment", "Pay either with a saved card (payment_method_id) or with points "
                        "(use_points=true), exactly one of them.",
                        hint="Call list_payment_methods for the saved cards, or get_loyalty_account for points.")
    return usable_card(ctx, payment_method_id) if payment_method_id is not None else None


def points_for(amount: float) -> int:
    """Loyalty points needed to pay `amount` dollars."""
    return int(round(amount / POINT_VALUE))


def points_balance(ctx: Ctx) -> int:
    return ctx.db.execute("SELECT points_balance FROM accounts").fetchone()[0]


def move_points(ctx: Ctx, points: int, description: str, booking_id: str | None, at: str | None = None) -> None:
    """Add (or, negative, take) points from the balance and record the activity."""
    if not points:
        return
    ctx.db.execute("UPDATE accounts SET points_balance = points_balance + ?", (points,))
    ctx.db.execute("INSERT INTO loyalty_activity (activity_id, occurred_at, points, description, booking_id) "
                   "VALUES (?, ?, ?, ?, ?)", (ctx.new_id("LYA"), at or ctx.now_iso(), points, description, booking_id))


def spend_points(ctx: Ctx, amount: float, description: str, booking_id: str) -> int:
    """Take the points for `amount` dollars, else `insufficient_points`; returns the points."""
    needed = points_for(amount)
    balance = points_balance(ctx)
    if balance < needed:
        raise ToolError("insufficient_points", f"This costs {needed:,} points (${amount:,.2f}) and the balance is "
                        f"{balance:,} points.", hint="Pay with a saved card instead (payment_method_id).")
    move_points(ctx, -needed, description, booking_id)
    return needed


def record_payment(ctx: Ctx, booking_id: str, kind: str, amount: float, description: str, *,
                   card: sqlite3.Row | str | None, points: int = 0, at: str | None = None) -> str:
    """A charge or refund line of a booking; returns its ID."""
    payment_id = ctx.new_id("PAY")
    card_id = card["payment_method_id"] if isinstance(card, sqlite3.Row) else card
    ctx.db.execute("INSERT INTO payments (payment_id, booking_id, payment_method_id, kind, amount, points, "
                   "description, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (payment_id, booking_id, card_id, kind, money(amount), points, description, at or ctx.now_iso()))
    return payment_id


def confirmation_code(ctx: Ctx) -> str:
    """A fresh six-character record locator such as 'K7QM2X'."""
    rng = ctx.rng()
    while True:
        code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
        if ctx.db.execute("SELECT 1 FROM bookings WHERE confirmation_code = ?", (code,)).fetchone() is None:
            return code


# Register the tools (each module adds its tools to `server`).
from . import tools_flights, tools_bookings, tools_changes  # noqa: E402, F401, I001
from . import tools_hotels, tools_trips, tools_account  # noqa: E402, F401, I001
