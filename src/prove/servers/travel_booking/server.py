"""The travel booking server's declaration: `server`, its entity kinds, ID types, the booking
models and the helpers every toolset shares.

The tools live in one toolset per area, which the package includes (see `__init__.py`):

    tools_flights.py    airports, flight search, flight details, seat maps
    tools_bookings.py   booking flights, listing and reading bookings, cancellation and refunds
    tools_changes.py    changing a flight, seats, checked bags, online check-in
    tools_hotels.py     hotel search, hotel rooms and availability, booking a stay
    tools_trips.py      trips that group bookings into an itinerary
    tools_account.py    profile, travellers and passports, saved cards, loyalty points
    hooks.py            what passing time does to bookings

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

from pydantic import BaseModel, Field

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import iso, money

from .world import (
    ADULT_AGE,
    AIRCRAFT,
    FARES,
    HOTEL_CHECK_IN,
    HOTEL_CHECK_OUT,
    HOTEL_FREE_CANCEL,
    PASSPORT_MONTHS,
    POINT_VALUE,
    TIER_FREE_BAGS,
    build_world,
    capacity,
    is_international,
    others_seats,
)

# ----- entity kinds and their ID types ---------------------------------------------------------

AIRPORT = EntityKind("airport", "airports", "code", "name", "an airport, by IATA code such as 'BOS'",
                     lister="list_airports", public_id=True, naming="alone")
AIRLINE = EntityKind("airline", "airlines", "code", "name", "an airline, by IATA code such as 'LH'",
                     lister="search_flights", naming="alone")
FLIGHT = EntityKind("flight", "flights", "flight_id", "flight_number", "one dated direct flight",
                    live="status = 'scheduled' AND departs_at > :now", lister="search_flights")
HOTEL = EntityKind("hotel", "hotels", "hotel_id", "name", "a hotel", lister="search_hotels", naming="alone")
ROOM_TYPE = EntityKind("room_type", "room_types", "room_type_id", "name",
                       "a kind of room at a hotel, with its nightly rate", lister="get_hotel", noun="room",
                       part_of="hotel_id")  # "the Deluxe King room of Hyatt Regency ...", never room RMT-10048
# A booking is said by what it is, in full: "my flight B6 2888 BOS to ATL on March 17", "my stay at
# Four Seasons Frankfurt Westend, Standard King, March 30 to April 4" (never a cut summary).
BOOKING = EntityKind("booking", "bookings", "booking_id", "summary", "a flight booking or a hotel stay of the user",
                     live="status = 'confirmed'", lister="list_bookings", noun_from="kind",
                     phrases=(("flight", "my flight {label}"), ("hotel", "my stay at {label}")))
TRIP = EntityKind("trip", "trips", "trip_id", "name", "a trip grouping bookings into one itinerary",
                  lister="list_trips")
TRAVELER = EntityKind("traveler", "travelers", "traveler_id", "full_name",
                      "the user or a saved companion they book for", lister="list_travelers")
PAYMENT_METHOD = EntityKind("payment_method", "payment_methods", "payment_method_id", "nickname",
                            "a saved card of the user", live="expires_on >= :today", lister="list_payment_methods",
                            noun="card")
PAYMENT = EntityKind("payment", "payments", "payment_id", "description", "a charge or refund of a booking",
                     lister="get_booking")
LOYALTY_ACTIVITY = EntityKind("loyalty_activity", "loyalty_activity", "activity_id", "description",
                              "points earned or redeemed in the loyalty program", lister="get_loyalty_account")

AirportCode = AIRPORT.id
AirlineCode = AIRLINE.id
FlightId = FLIGHT.id
HotelId = HOTEL.id
RoomTypeId = ROOM_TYPE.id
BookingId = BOOKING.id
FlightBookingId = BOOKING.where("kind = 'flight'")
# a flight no booking of the user's was cancelled on: nobody cancels a flight and books it again
UncancelledFlightId = FLIGHT.where("flight_id NOT IN (SELECT flight_id FROM bookings WHERE status = 'cancelled' "
                                   "AND flight_id IS NOT NULL)")
TripId = TRIP.id
# a trip the user has just started (create_trip), with no bookings yet and a name that says what it
# is for: the one a booking joins; a world's trips are each named for their own city and dates,
# which another booking would not fit
NewTripId = TRIP.where("trip_id NOT IN (SELECT trip_id FROM bookings WHERE trip_id IS NOT NULL)")
# a trip that holds a booking: one to walk through (a trip just started holds nothing yet)
BookedTripId = TRIP.where("trip_id IN (SELECT trip_id FROM bookings WHERE trip_id IS NOT NULL)")
# a live booking in no trip: a trip takes it without pulling it out of the one it is in
LooseBookingId = BOOKING.where("status = 'confirmed' AND trip_id IS NULL")
TravelerId = TRAVELER.id
PaymentMethodId = PAYMENT_METHOD.id
PaymentId = PAYMENT.id
ActivityId = LOYALTY_ACTIVITY.id

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
    entities=[AIRPORT, AIRLINE, FLIGHT, HOTEL, ROOM_TYPE, BOOKING, TRIP, TRAVELER, PAYMENT_METHOD, PAYMENT,
              LOYALTY_ACTIVITY],
)

# ----- parameter and field types ----------------------------------------------------------------

Fare = Literal["basic_economy", "economy", "economy_flex", "premium_economy", "business"]
Cabin = Literal["economy", "premium_economy", "business"]
RatePlan = Literal["flexible", "non_refundable"]
BookingStatus = Literal["confirmed", "cancelled", "completed"]
Limit = Annotated[int, Field(ge=1, le=100)]

SOLD_COLUMN = {"economy": "economy_sold", "premium_economy": "premium_sold", "business": "business_sold"}

# ----- helpers ------------------------------------------------------------------------------------


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


def age_on(born: str, day: date) -> int:
    """Someone's age in whole years on a day."""
    birth = date.fromisoformat(born)
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def check_accompanied(flight: sqlite3.Row, travelers: list[sqlite3.Row]) -> None:
    """Airlines seat a child under 15 only with an older traveller on the same booking."""
    day = date.fromisoformat(flight["departs_at"][:10])
    if all(age_on(t["date_of_birth"], day) < ADULT_AGE for t in travelers):
        names = " and ".join(t["full_name"] for t in travelers)
        raise ToolError("unaccompanied_minor", f"{names} would fly without anyone {ADULT_AGE} or older on the "
                        "booking.", hint="Book them together with an adult traveller.")


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
    card = ctx.get("payment_method", payment_method_id)
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


def new_booking(ctx: Ctx, kind: str, summary: str, trip: sqlite3.Row | None, card: sqlite3.Row | None,
                **columns: object) -> str:
    """Insert a confirmed booking of `kind` with its own `columns` (flight, fare, stay...); returns its ID."""
    row = {"booking_id": ctx.new_id("BKG"), "kind": kind, "confirmation_code": confirmation_code(ctx),
           "summary": summary, "status": "confirmed", "trip_id": trip["trip_id"] if trip else None,
           "created_at": ctx.now_iso(), "payment_method_id": card["payment_method_id"] if card else None,
           "points_used": 0, **columns}
    ctx.db.execute(f"INSERT INTO bookings ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                   tuple(row.values()))
    return str(row["booking_id"])


def charge_booking(ctx: Ctx, booking_id: str, total: float, what: str, summary: str,
                   card: sqlite3.Row | None) -> None:
    """Pay for a new booking: charge `card`, or with no card spend the points for `total`."""
    if card is not None:
        record_payment(ctx, booking_id, "charge", total, what, card=card)
        return
    points = spend_points(ctx, total, f"Redeemed for {summary}", booking_id)
    ctx.db.execute("UPDATE bookings SET points_used = ? WHERE booking_id = ?", (points, booking_id))
    record_payment(ctx, booking_id, "charge", 0.0, what + ", paid with points", card=None, points=points)


def confirmation_code(ctx: Ctx) -> str:
    """A fresh six-character record locator such as 'K7QM2X'."""
    rng = ctx.rng()
    while True:
        code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
        if ctx.db.execute("SELECT 1 FROM bookings WHERE confirmation_code = ?", (code,)).fetchone() is None:
            return code


# ----- bookings -----------------------------------------------------------------------------------


class Passenger(BaseModel):
    traveler_id: TravelerId
    name: str
    seat: str | None = Field(description="The assigned seat, or null if none is chosen yet.")
    checked_bags: int
    free_bags: int = Field(description="Checked bags included per passenger (fare or loyalty tier).")


class FlightLeg(BaseModel):
    flight_id: FlightId
    flight_number: str
    origin: AirportCode
    destination: AirportCode
    departs_at: str
    arrives_at: str
    flight_status: Literal["scheduled", "departed", "landed", "cancelled"] = Field(
        description="'cancelled' means the airline cancelled the flight.")
    fare: Fare
    fare_name: str
    cabin: Cabin
    checked_in: bool


class Stay(BaseModel):
    hotel_id: HotelId
    hotel_name: str
    city: str
    room_type_id: RoomTypeId
    room_name: str
    check_in: str
    check_out: str
    nights: int
    rooms: int
    guests: int
    rate_plan: RatePlan
    free_cancellation_until: str | None = Field(description="Flexible rate: free cancellation before this "
                                                            "time; null for non-refundable rates.")


class PaymentLine(BaseModel):
    payment_id: PaymentId
    kind: Literal["charge", "refund"]
    amount: float = Field(description="Dollars charged to or refunded on the card.")
    points: int = Field(description="Loyalty points spent or returned.")
    payment_method_id: PaymentMethodId | None
    description: str
    created_at: str


class Booking(BaseModel):
    booking_id: BookingId
    kind: Literal["flight", "hotel"]
    confirmation_code: str
    status: BookingStatus
    summary: str
    trip_id: TripId | None
    created_at: str
    cancelled_at: str | None
    flight: FlightLeg | None = Field(description="Flight bookings only.")
    passengers: list[Passenger] = Field(description="Flight bookings only.")
    stay: Stay | None = Field(description="Hotel bookings only.")
    payment_method_id: PaymentMethodId | None = Field(description="The card the booking is charged to; null if "
                                                                   "it was paid with points.")
    points_used: int
    total_charged: float = Field(description="Dollars charged to cards for this booking.")
    total_refunded: float
    payments: list[PaymentLine]
    details_text: str = Field(description="What the booking includes and what was paid, in words.")


class BookingSummary(BaseModel):
    booking_id: BookingId
    kind: Literal["flight", "hotel"]
    confirmation_code: str
    status: BookingStatus
    summary: str
    starts_at: str = Field(description="Departure, or hotel check-in time.")
    ends_at: str = Field(description="Arrival, or hotel check-out time.")
    trip_id: TripId | None
    net_paid: float = Field(description="Dollars charged less refunded.")


def starts_ends(b: sqlite3.Row, flight: sqlite3.Row | None) -> tuple[str, str]:
    if b["kind"] == "flight" and flight is not None:
        return flight["departs_at"], flight["arrives_at"]
    return (f"{b['check_in']}T{HOTEL_CHECK_IN.isoformat()}", f"{b['check_out']}T{HOTEL_CHECK_OUT.isoformat()}")


def paid(ctx: Ctx, booking_id: str) -> tuple[float, int, float, int]:
    """(cash charged, points spent, cash refunded, points refunded) of a booking."""
    charged, spent, refunded, returned = ctx.db.execute(
        "SELECT coalesce(sum(CASE WHEN kind = 'charge' THEN amount END), 0), "
        "coalesce(sum(CASE WHEN kind = 'charge' THEN points END), 0), "
        "coalesce(sum(CASE WHEN kind = 'refund' THEN amount END), 0), "
        "coalesce(sum(CASE WHEN kind = 'refund' THEN points END), 0) FROM payments WHERE booking_id = ?",
        (booking_id,)).fetchone()
    return money(charged), spent, money(refunded), returned


def free_bags(ctx: Ctx, fare: str) -> int:
    (tier,) = ctx.db.execute("SELECT tier FROM accounts").fetchone()
    return max(FARES[fare].bags_included, TIER_FREE_BAGS[tier])


def load_booking(ctx: Ctx, booking_id: str) -> Booking:
    b = ctx.get("booking", booking_id)
    flight_leg = stay = None
    passengers: list[Passenger] = []
    if b["kind"] == "flight":
        f = ctx.get("flight", b["flight_id"])
        flight_leg = FlightLeg(flight_id=f["flight_id"], flight_number=f["flight_number"], origin=f["origin"],
                               destination=f["destination"], departs_at=f["departs_at"], arrives_at=f["arrives_at"],
                               flight_status=flight_status(f, ctx.now()), fare=b["fare"],  # type: ignore[arg-type]
                               fare_name=FARES[b["fare"]].name, cabin=b["cabin"],
                               checked_in=b["checked_in_at"] is not None)
        allowance = free_bags(ctx, b["fare"])
        for p in ctx.db.execute("SELECT p.*, t.full_name FROM booking_passengers p JOIN travelers t USING "
                                "(traveler_id) WHERE booking_id = ? ORDER BY traveler_id", (booking_id,)):
            passengers.append(Passenger(traveler_id=p["traveler_id"], name=p["full_name"], seat=p["seat"],
                                        checked_bags=p["checked_bags"], free_bags=allowance))
    else:
        h = ctx.get("hotel", b["hotel_id"])
        r = ctx.get("room_type", b["room_type_id"])
        check_in = date.fromisoformat(b["check_in"])
        until = None
        if b["rate_plan"] == "flexible":
            until = iso(datetime.combine(check_in, HOTEL_CHECK_IN) - HOTEL_FREE_CANCEL)
        stay = Stay(hotel_id=h["hotel_id"], hotel_name=h["name"], city=h["city"], room_type_id=r["room_type_id"],
                    room_name=r["name"], check_in=b["check_in"], check_out=b["check_out"],
                    nights=(date.fromisoformat(b["check_out"]) - check_in).days, rooms=b["rooms"],
                    guests=b["guests"], rate_plan=b["rate_plan"], free_cancellation_until=until)
    lines = [PaymentLine(payment_id=p["payment_id"], kind=p["kind"], amount=p["amount"], points=p["points"],
                         payment_method_id=p["payment_method_id"], description=p["description"],
                         created_at=p["created_at"])
             for p in ctx.db.execute("SELECT * FROM payments WHERE booking_id = ? ORDER BY created_at, payment_id",
                                     (booking_id,))]
    charged, _, refunded, _ = paid(ctx, booking_id)
    details = _flight_details(flight_leg, passengers) if flight_leg is not None else _stay_details(stay)
    payment = f"paid with {b['points_used']:,} points" if b["points_used"] else f"${charged:,.2f} charged"
    if refunded:
        payment += f", ${refunded:,.2f} refunded"
    return Booking(booking_id=b["booking_id"], kind=b["kind"], confirmation_code=b["confirmation_code"],
                   status=b["status"], summary=b["summary"], trip_id=b["trip_id"], created_at=b["created_at"],
                   cancelled_at=b["cancelled_at"], flight=flight_leg, passengers=passengers, stay=stay,
                   payment_method_id=b["payment_method_id"], points_used=b["points_used"], total_charged=charged,
                   total_refunded=refunded, payments=lines, details_text=f"{details}; {payment}")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _flight_details(leg: FlightLeg, passengers: list[Passenger]) -> str:
    """'Main Cabin fare for Fiona Thomas (seat 8A) and Jonah Fischer (no seat yet), 1 free checked bag each'."""
    people = [f"{p.name} ({'seat ' + p.seat if p.seat else 'no seat yet'}"
              f"{', ' + _plural(p.checked_bags, 'checked bag') if p.checked_bags else ''})" for p in passengers]
    who = people[0] if len(people) == 1 else ", ".join(people[:-1]) + " and " + people[-1]
    free = passengers[0].free_bags if passengers else 0
    bags = f"{_plural(free, 'free checked bag')}{' each' if len(passengers) > 1 else ''}" if free else \
        "no free checked bags"
    return f"{leg.fare_name} fare for {who}, {bags}"


def _stay_details(stay: Stay | None) -> str:
    """'3 nights for 2 guests, flexible rate' (the hotel and room are the booking's summary)."""
    assert stay is not None
    rooms = f"{stay.rooms} rooms, " if stay.rooms > 1 else ""
    rate = "flexible rate" if stay.rate_plan == "flexible" else "non-refundable rate"
    return f"{rooms}{_plural(stay.nights, 'night')} for {_plural(stay.guests, 'guest')}, {rate}"


def summaries(ctx: Ctx, where: str = "1", params: tuple = ()) -> list[BookingSummary]:
    """Bookings matching an SQL condition on `b`, in order of their start."""
    out = []
    for b in ctx.db.execute(f"SELECT b.*, f.departs_at, f.arrives_at FROM bookings b LEFT JOIN flights f "
                            f"USING (flight_id) WHERE {where}", params).fetchall():
        start, end = starts_ends(b, b if b["kind"] == "flight" else None)
        charged, _, refunded, _ = paid(ctx, b["booking_id"])
        out.append(BookingSummary(booking_id=b["booking_id"], kind=b["kind"], confirmation_code=b["confirmation_code"],
                                  status=b["status"], summary=b["summary"], starts_at=start, ends_at=end,
                                  trip_id=b["trip_id"], net_paid=money(charged - refunded)))
    out.sort(key=lambda s: (s.starts_at, s.booking_id))
    return out


def open_booking(ctx: Ctx, booking_id: str) -> sqlite3.Row:
    """A booking that can still be changed or cancelled: confirmed, not yet flown or begun."""
    b = ctx.get("booking", booking_id)
    if b["status"] == "cancelled":
        raise ToolError("booking_cancelled", f"Booking {booking_id} ({b['summary']}) was cancelled on "
                        f"{(b['cancelled_at'] or '')[:10]}.", hint="Call list_bookings for the active bookings.")
    if b["kind"] == "flight":
        flight = ctx.get("flight", b["flight_id"])
        if b["status"] == "completed" or flight["departs_at"] <= ctx.now_iso():
            raise ToolError("already_departed", f"{b['summary']} departed at {flight['departs_at']}.",
                            hint="Nothing can be changed on a flight that has left.")
    else:
        start = f"{b['check_in']}T{HOTEL_CHECK_IN.isoformat()}"
        if b["status"] == "completed" or start <= ctx.now_iso():
            raise ToolError("stay_started", f"The stay {b['summary']} began at {start}.",
                            hint="A stay that has begun can no longer be cancelled online.")
    return b
