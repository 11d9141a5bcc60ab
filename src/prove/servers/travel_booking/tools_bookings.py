"""Travel booking tools: booking flights, reading bookings, cancellation quotes and refunds.

Also `move_on`, what passing time does to bookings (the server's `on_advance` hook).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ctx, ToolError
from prove.env.values import money

from .tools import (
    AirportCode,
    BookingId,
    Cabin,
    Fare,
    FlightId,
    HotelId,
    Limit,
    PaymentId,
    PaymentMethodId,
    RatePlan,
    RoomTypeId,
    TravelerId,
    TripId,
    check_passports,
    choose_payment,
    confirmation_code,
    fetch,
    flight_status,
    move_points,
    points_for,
    record_payment,
    require_cabin,
    seats_left,
    server,
    spend_points,
)
from .world import (
    FARES,
    FREE_CANCEL_DAYS,
    FREE_CANCEL_WINDOW,
    HOTEL_CHECK_IN,
    HOTEL_CHECK_OUT,
    HOTEL_FREE_CANCEL,
    MAX_PASSENGERS,
    POINT_VALUE,
    POINTS_PER_DOLLAR,
    TIER_FREE_BAGS,
    TIER_MULTIPLIER,
    fare_price,
    iso,
    night_rate,
)

BookingStatus = Literal["confirmed", "cancelled", "completed"]

# ----- models -------------------------------------------------------------------------------------


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


class BookingList(BaseModel):
    bookings: list[BookingSummary]
    total: int = Field(description="How many bookings matched, before `limit`.")


class CancellationQuote(BaseModel):
    booking_id: BookingId
    refund_amount: float = Field(description="Dollars that would go back to the card.")
    refund_points: int = Field(description="Loyalty points that would go back to the balance.")
    fee: float = Field(description="Dollars kept: the cancellation fee, or everything for a non-refundable booking.")
    reason: str = Field(description="The rule that applies.")


class Cancellation(BaseModel):
    booking: Booking
    refund_amount: float
    refund_points: int
    fee: float
    reason: str


# ----- reading ------------------------------------------------------------------------------------


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
    b = fetch(ctx, "booking", booking_id)
    flight_leg = stay = None
    passengers: list[Passenger] = []
    if b["kind"] == "flight":
        f = fetch(ctx, "flight", b["flight_id"])
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
        h = fetch(ctx, "hotel", b["hotel_id"])
        r = fetch(ctx, "room_type", b["room_type_id"])
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
    return Booking(booking_id=b["booking_id"], kind=b["kind"], confirmation_code=b["confirmation_code"],
                   status=b["status"], summary=b["summary"], trip_id=b["trip_id"], created_at=b["created_at"],
                   cancelled_at=b["cancelled_at"], flight=flight_leg, passengers=passengers, stay=stay,
                   payment_method_id=b["payment_method_id"], points_used=b["points_used"], total_charged=charged,
                   total_refunded=refunded, payments=lines)


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


# ----- refund rules -------------------------------------------------------------------------------


@dataclass
class Terms:
    cash: float
    points: int
    fee: float
    reason: str


def open_booking(ctx: Ctx, booking_id: str) -> sqlite3.Row:
    """A booking that can still be changed or cancelled: confirmed, not yet flown or begun."""
    b = fetch(ctx, "booking", booking_id)
    if b["status"] == "cancelled":
        raise ToolError("booking_cancelled", f"Booking {booking_id} ({b['summary']}) was cancelled on "
                        f"{(b['cancelled_at'] or '')[:10]}.", hint="Call list_bookings for the active bookings.")
    if b["kind"] == "flight":
        flight = fetch(ctx, "flight", b["flight_id"])
        if b["status"] == "completed" or flight["departs_at"] <= ctx.now_iso():
            raise ToolError("already_departed", f"{b['summary']} departed at {flight['departs_at']}.",
                            hint="Nothing can be changed on a flight that has left.")
    else:
        start = f"{b['check_in']}T{HOTEL_CHECK_IN.isoformat()}"
        if b["status"] == "completed" or start <= ctx.now_iso():
            raise ToolError("stay_started", f"The stay {b['summary']} began at {start}.",
                            hint="A stay that has begun can no longer be cancelled online.")
    return b


def refund_terms(ctx: Ctx, b: sqlite3.Row) -> Terms:
    """What cancelling a booking now gives back, by its rules and the clock."""
    charged, spent, refunded, returned = paid(ctx, b["booking_id"])
    cash, points = money(charged - refunded), spent - returned
    value = money(cash + points * POINT_VALUE)
    now = ctx.now()
    fee: float | None
    if b["kind"] == "flight":
        flight = fetch(ctx, "flight", b["flight_id"])
        rule = FARES[b["fare"]]
        created = datetime.fromisoformat(b["created_at"])
        departs = datetime.fromisoformat(flight["departs_at"])
        (n,) = ctx.db.execute("SELECT count(*) FROM booking_passengers WHERE booking_id = ?",
                              (b["booking_id"],)).fetchone()
        if flight["status"] == "cancelled":
            fee, reason = 0.0, "The airline cancelled the flight, so everything is refunded."
        elif now - created <= FREE_CANCEL_WINDOW and departs - created >= timedelta(days=FREE_CANCEL_DAYS):
            fee, reason = 0.0, (f"Booked less than 24 hours ago and at least {FREE_CANCEL_DAYS} days before "
                                "departure, so it is refunded in full.")
        elif rule.cancellation_fee is None:
            fee, reason = None, f"{rule.name} fares are non-refundable."
        elif rule.cancellation_fee == 0:
            fee, reason = 0.0, f"{rule.name} fares are fully refundable."
        else:
            fee = rule.cancellation_fee * n
            reason = f"{rule.name} fares keep a ${rule.cancellation_fee:.2f} cancellation fee per passenger."
    else:
        check_in = datetime.combine(date.fromisoformat(b["check_in"]), HOTEL_CHECK_IN)
        if b["rate_plan"] == "non_refundable":
            fee, reason = None, "The non-refundable rate cannot be refunded."
        elif now < check_in - HOTEL_FREE_CANCEL:
            fee, reason = 0.0, "Flexible rate cancelled more than 48 hours before check-in: free."
        else:
            room = fetch(ctx, "room_type", b["room_type_id"])
            fee = money(night_rate(room["nightly_rate"], check_in.date(), b["rate_plan"]) * b["rooms"])
            reason = "Flexible rate cancelled within 48 hours of check-in: the first night is charged."
    if fee is None:
        return Terms(0.0, 0, value, reason)
    back_cash = money(max(0.0, cash - fee))
    rest = max(0.0, fee - cash)
    back_points = max(0, points - points_for(rest))
    return Terms(back_cash, back_points, money(min(fee, value)), reason)


def apply_cancellation(ctx: Ctx, b: sqlite3.Row, terms: Terms, at: str, description: str) -> None:
    ctx.db.execute("UPDATE bookings SET status = 'cancelled', cancelled_at = ? WHERE booking_id = ?",
                   (at, b["booking_id"]))
    if terms.cash or terms.points:
        record_payment(ctx, b["booking_id"], "refund", terms.cash, description, card=b["payment_method_id"]
                       if terms.cash else None, points=terms.points, at=at)
    move_points(ctx, terms.points, f"Refunded for {b['summary']}", b["booking_id"], at)


# ----- time passing -------------------------------------------------------------------------------


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
        b = fetch(ctx, "booking", booking_id)
        if what == "refund":
            charged, spent, refunded, returned = paid(ctx, booking_id)
            terms = Terms(money(charged - refunded), spent - returned, 0.0, "airline cancellation")
            apply_cancellation(ctx, b, terms, at, "The airline cancelled the flight: full refund")
            continue
        ctx.db.execute("UPDATE bookings SET status = 'completed' WHERE booking_id = ?", (booking_id,))
        charged, _, refunded, _ = paid(ctx, booking_id)
        points = int(max(0.0, charged - refunded) * POINTS_PER_DOLLAR[b["kind"]] * TIER_MULTIPLIER[tier])
        move_points(ctx, points, f"Earned for {b['summary']}", booking_id, at)


# ----- tools --------------------------------------------------------------------------------------


@server.tool(effect=WRITE, asks=[
    "Book flight {flight_id} in {fare} for {traveler_ids}, charge card {payment_method_id}.",
    "Please get {traveler_ids} on {flight_id} with the {fare} fare and pay with my points.",
    "Reserve {flight_id} ({fare}) for {traveler_ids} on {payment_method_id} and add it to trip {trip_id}.",
])
def book_flight(ctx: Ctx, flight_id: FlightId, fare: Fare,
                traveler_ids: Annotated[list[TravelerId], Field(min_length=1, max_length=MAX_PASSENGERS)],
                payment_method_id: PaymentMethodId | None = None, use_points: bool = False,
                trip_id: TripId | None = None) -> Booking:
    """Book seats on a flight for one or more travellers, paid by saved card or with points.

    The price is the fare's price per passenger times the passengers. International flights need
    a passport on file for every passenger, valid at least six months after the flight.

    Args:
        flight_id: ID of the flight, such as 'FLT-10007'.
        fare: the fare family: 'basic_economy', 'economy', 'economy_flex', 'premium_economy' or 'business'.
        traveler_ids: IDs of the travellers flying, the user and/or saved companions, such as ['TRV-10001'].
        payment_method_id: saved card to charge, such as 'CARD-10001'; leave out when paying with points.
        use_points: pay with loyalty points instead of a card (100 points per dollar), such as true.
        trip_id: a trip to add the booking to, such as 'TRP-10004'.

    Returns:
        The new booking: confirmation code, flight, fare, passengers, the payment and its total.

    Raises:
        not_found: the flight, a traveller, the card or the trip does not exist.
        flight_cancelled: the airline cancelled the flight.
        past_date: the flight has already departed.
        cabin_unavailable: the aircraft has no cabin for this fare.
        duplicate_passenger: a traveller is listed twice.
        already_booked: a traveller already has a seat on this flight.
        sold_out: the cabin has fewer seats left than passengers.
        passport_required: the flight is international and a traveller has no passport on file.
        passport_expiring: a traveller's passport expires less than six months after the flight.
        invalid_payment: neither or both of payment_method_id and use_points were given.
        card_expired: the card has expired.
        insufficient_points: the points balance does not cover the price.
    """
    flight = fetch(ctx, "flight", flight_id)
    if flight["status"] == "cancelled":
        raise ToolError("flight_cancelled", f"{flight['flight_number']} on {flight['departs_at'][:10]} was cancelled "
                        "by the airline.", hint="Search another flight with search_flights.")
    if flight["departs_at"] <= ctx.now_iso():
        raise ToolError("past_date", f"{flight['flight_number']} departed at {flight['departs_at']}.",
                        hint="Search a later flight with search_flights.")
    rule = FARES[fare]
    require_cabin(flight, rule.cabin)
    if len(set(traveler_ids)) != len(traveler_ids):
        raise ToolError("duplicate_passenger", "A traveller is listed more than once.",
                        hint="List each traveller once.")
    travelers = [fetch(ctx, "traveler", t) for t in traveler_ids]
    marks = ", ".join("?" * len(traveler_ids))
    clash = ctx.db.execute(
        f"SELECT t.full_name, b.booking_id FROM booking_passengers p JOIN bookings b USING (booking_id) "
        f"JOIN travelers t USING (traveler_id) WHERE b.flight_id = ? AND b.status != 'cancelled' "
        f"AND p.traveler_id IN ({marks})", (flight["flight_id"], *traveler_ids)).fetchone()
    if clash is not None:
        raise ToolError("already_booked", f"{clash['full_name']} is already booked on {flight['flight_number']} "
                        f"({clash['booking_id']}).", hint="Leave that traveller out, or use get_booking.")
    left = seats_left(ctx, flight, rule.cabin)
    if left < len(travelers):
        raise ToolError("sold_out", f"{flight['flight_number']} has {left} {rule.cabin.replace('_', ' ')} seat(s) "
                        f"left for {len(travelers)} passenger(s).",
                        hint="Try another cabin, or another flight from search_flights.")
    check_passports(flight, travelers)
    trip = fetch(ctx, "trip", trip_id) if trip_id is not None else None
    card = choose_payment(ctx, payment_method_id, use_points)
    price = fare_price(flight, fare)
    assert price is not None
    total = money(price * len(travelers))
    booking_id = ctx.new_id("BKG")
    summary = f"{flight['flight_number']} {flight['origin']} to {flight['destination']} on {flight['departs_at'][:10]}"
    ctx.db.execute(
        "INSERT INTO bookings (booking_id, kind, confirmation_code, summary, status, trip_id, created_at, "
        "payment_method_id, points_used, flight_id, fare, cabin) VALUES (?, 'flight', ?, ?, 'confirmed', ?, ?, ?, "
        "0, ?, ?, ?)",
        (booking_id, confirmation_code(ctx), summary, trip["trip_id"] if trip else None, ctx.now_iso(),
         card["payment_method_id"] if card else None, flight["flight_id"], fare, rule.cabin))
    ctx.db.executemany("INSERT INTO booking_passengers (booking_id, traveler_id, seat, checked_bags) "
                       "VALUES (?, ?, NULL, 0)", [(booking_id, t["traveler_id"]) for t in travelers])
    what = f"{rule.name} fare, {len(travelers)} passenger(s)"
    if card is not None:
        record_payment(ctx, booking_id, "charge", total, what, card=card)
    else:
        points = spend_points(ctx, total, f"Redeemed for {summary}", booking_id)
        ctx.db.execute("UPDATE bookings SET points_used = ? WHERE booking_id = ?", (points, booking_id))
        record_payment(ctx, booking_id, "charge", 0.0, what + ", paid with points", card=None, points=points)
    return load_booking(ctx, booking_id)


@server.tool(effect=READ, asks=[
    "What trips do I have coming up?",
    "Show my {status} {kind} bookings.",
    "Which bookings are in trip {trip_id}?",
])
def list_bookings(ctx: Ctx, status: BookingStatus | None = None, kind: Literal["flight", "hotel"] | None = None,
                  trip_id: TripId | None = None, upcoming_only: bool = False, limit: Limit = 20) -> BookingList:
    """List the user's flight and hotel bookings in order of their start, past and future.

    Args:
        status: only bookings that are 'confirmed', 'cancelled' or 'completed'.
        kind: only 'flight' or 'hotel' bookings.
        trip_id: only bookings of this trip, such as 'TRP-10004'.
        upcoming_only: only confirmed bookings that have not started yet, such as true.
        limit: how many bookings to return, 1 to 100, such as 20.

    Returns:
        The bookings (ID, kind, confirmation code, status, summary, start and end, trip, net amount
        paid) and how many matched.

    Raises:
        not_found: the trip does not exist.
    """
    where, params = ["1"], []
    if status is not None:
        where.append("b.status = ?")
        params.append(status)
    if kind is not None:
        where.append("b.kind = ?")
        params.append(kind)
    if trip_id is not None:
        fetch(ctx, "trip", trip_id)
        where.append("b.trip_id = ?")
        params.append(trip_id)
    found = summaries(ctx, " AND ".join(where), tuple(params))
    if upcoming_only:
        stamp = ctx.now_iso()
        found = [s for s in found if s.status == "confirmed" and s.starts_at > stamp]
    return BookingList(bookings=found[:limit], total=len(found))


@server.tool(effect=READ, asks=[
    "Show me the details of booking {booking_id}.",
    "What seats and bags do we have on {booking_id}, and what did I pay?",
])
def get_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Show one booking in full: flight or stay, passengers, seats, bags and every charge and refund.

    Args:
        booking_id: ID of the booking, such as 'BKG-10010'.

    Returns:
        The booking: confirmation code, status, trip; for flights the flight, fare, cabin, check-in
        and passengers with seats and bags; for hotels the stay and its cancellation deadline; the
        card, points used, totals charged and refunded and each payment line.

    Raises:
        not_found: no booking has that ID.
    """
    return load_booking(ctx, booking_id)


@server.tool(effect=READ, asks=[
    "If I cancel {booking_id} now, how much do I get back?",
    "What's the refund on {booking_id} if I cancel it today?",
])
def get_cancellation_quote(ctx: Ctx, booking_id: BookingId) -> CancellationQuote:
    """Say what cancelling a booking right now would refund, without cancelling it.

    Flights: the airline cancelling, or cancelling within 24 hours of booking a flight at least 7
    days away, refunds everything; otherwise the fare's rule applies (Basic Economy nothing, Main
    Cabin less $150 and Premium Economy less $100 per passenger, Flex and Business everything).
    Hotels: flexible rates are free until 48 hours before check-in (15:00), then the first night is
    kept; non-refundable rates return nothing.

    Args:
        booking_id: ID of the booking, such as 'BKG-10010'.

    Returns:
        The refund to the card, the points returned, the amount kept and the rule that applies.

    Raises:
        not_found: no booking has that ID.
        booking_cancelled: the booking is already cancelled.
        already_departed: the flight has already left.
        stay_started: the hotel stay has already begun.
    """
    b = open_booking(ctx, booking_id)
    t = refund_terms(ctx, b)
    return CancellationQuote(booking_id=b["booking_id"], refund_amount=t.cash, refund_points=t.points, fee=t.fee,
                             reason=t.reason)


@server.tool(effect=WRITE, asks=[
    "Cancel booking {booking_id}.",
    "I can't make it anymore, please cancel {booking_id} and refund what you can.",
])
def cancel_booking(ctx: Ctx, booking_id: BookingId) -> Cancellation:
    """Cancel a flight or hotel booking and refund it by its rules (see get_cancellation_quote).

    Money goes back to the booking's card, points to the loyalty balance; seats and rooms are
    released for sale.

    Args:
        booking_id: ID of the booking, such as 'BKG-10010'.

    Returns:
        The cancelled booking, the refund to the card, the points returned, the amount kept and the
        rule that applied.

    Raises:
        not_found: no booking has that ID.
        booking_cancelled: the booking is already cancelled.
        already_departed: the flight has already left.
        stay_started: the hotel stay has already begun.
    """
    b = open_booking(ctx, booking_id)
    t = refund_terms(ctx, b)
    what = "Refund" if not t.fee else f"Refund less ${t.fee:.2f} kept"
    apply_cancellation(ctx, b, t, ctx.now_iso(), what)
    return Cancellation(booking=load_booking(ctx, booking_id), refund_amount=t.cash, refund_points=t.points,
                        fee=t.fee, reason=t.reason)
