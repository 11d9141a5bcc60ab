"""Travel booking tools: booking flights, reading bookings, cancellation quotes and refunds."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import money, said_in_part

from .server import (
    Booking,
    BookingId,
    BookingStatus,
    BookingSummary,
    Fare,
    Limit,
    NewTripId,
    PaymentMethodId,
    TravelerId,
    TripId,
    UncancelledFlightId,
    charge_booking,
    check_accompanied,
    check_passports,
    choose_payment,
    load_booking,
    move_points,
    new_booking,
    open_booking,
    paid,
    points_for,
    record_payment,
    require_cabin,
    seats_left,
    summaries,
)
from .world import (
    FARES,
    FREE_CANCEL_DAYS,
    FREE_CANCEL_WINDOW,
    HOTEL_CHECK_IN,
    HOTEL_FREE_CANCEL,
    MAX_PASSENGERS,
    POINT_VALUE,
    fare_price,
    flight_summary,
    night_rate,
)

tools = Toolset("bookings")

# ----- models -------------------------------------------------------------------------------------


class BookingList(BaseModel):
    bookings: list[BookingSummary]
    total: int = Field(description="How many bookings matched, before `limit`.")
    bookings_text: str = Field(description="The bookings in words, such as 'B6 2888 BOS to ATL on March 17 (leaves "
                                           "7:35 AM, confirmation ZYZGT3)'.")


def _bookings_text(bookings: list[BookingSummary], total: int) -> str:
    """'B6 2888 BOS to ATL on March 17 (leaves 7:35 AM, confirmation ZYZGT3) and Hampton Inn Atlanta
    Midtown, Standard King, March 17 to March 19 (confirmation 8KD2LQ, cancelled)'."""
    def one(b: BookingSummary) -> str:
        said = [f"confirmation {b.confirmation_code}"]
        if b.kind == "flight":
            hour, minute = int(b.starts_at[11:13]), b.starts_at[14:16]
            said.insert(0, f"leaves {hour % 12 or 12}:{minute} {'AM' if hour < 12 else 'PM'}")
        if b.status != "confirmed":
            said.append(b.status)
        return f"{b.summary} ({', '.join(said)})"
    return said_in_part([one(b) for b in bookings[:6]], total, "no bookings")


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


# ----- refund rules -------------------------------------------------------------------------------


@dataclass
class Terms:
    cash: float
    points: int
    fee: float
    reason: str


def refund_terms(ctx: Ctx, b: sqlite3.Row) -> Terms:
    """What cancelling a booking now gives back, by its rules and the clock."""
    charged, spent, refunded, returned = paid(ctx, b["booking_id"])
    cash, points = money(charged - refunded), spent - returned
    value = money(cash + points * POINT_VALUE)
    now = ctx.now()
    fee: float | None
    if b["kind"] == "flight":
        flight = ctx.get("flight", b["flight_id"])
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
            fee, reason = 0.0, "The flexible rate is free to cancel until 48 hours before check-in."
        else:
            room = ctx.get("room_type", b["room_type_id"])
            fee = money(night_rate(room["nightly_rate"], check_in.date(), b["rate_plan"]) * b["rooms"])
            reason = "Within 48 hours of check-in, the flexible rate keeps the first night."
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


# ----- tools --------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Book {flight_id} in {fare} for {traveler_ids} and charge {payment_method_id}.",
    Ask("Please get {traveler_ids} on {flight_id} with the {fare} fare and pay with my points.", use_points=True),
    "Reserve {flight_id} ({fare}) for {traveler_ids} on {payment_method_id} and add it to {trip_id}.",
], reply=[
    Ask("Booked {traveler_ids} on {result.summary}, paid with {result.points_used} points; confirmation "
        "{result.confirmation_code}.", use_points=True),
    "Booked {traveler_ids} on {result.summary}, confirmation {result.confirmation_code}.",
    "Done. {result.summary} is confirmed under code {result.confirmation_code}; ${result.total_charged} was "
    "charged.",
])
def book_flight(ctx: Ctx, flight_id: UncancelledFlightId, fare: Fare,
                traveler_ids: Annotated[list[TravelerId], Field(min_length=1, max_length=MAX_PASSENGERS)],
                payment_method_id: PaymentMethodId | None = None, use_points: bool = False,
                trip_id: NewTripId | None = None) -> Booking:
    """Book seats on a flight for one or more travellers, paid by saved card or with points.

    The price is the fare's price per passenger times the passengers. A child under 15 flies only
    with an older traveller on the same booking. International flights need a passport on file for
    every passenger, valid at least six months after the flight.

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
        unaccompanied_minor: every traveller is under 15 on the day of the flight.
        sold_out: the cabin has fewer seats left than passengers.
        passport_required: the flight is international and a traveller has no passport on file.
        passport_expiring: a traveller's passport expires less than six months after the flight.
        invalid_payment: neither or both of payment_method_id and use_points were given.
        card_expired: the card has expired.
        insufficient_points: the points balance does not cover the price.
    """
    flight = ctx.get("flight", flight_id)
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
    travelers = [ctx.get("traveler", t) for t in traveler_ids]
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
    check_accompanied(flight, travelers)
    check_passports(flight, travelers)
    trip = ctx.get("trip", trip_id) if trip_id is not None else None
    card = choose_payment(ctx, payment_method_id, use_points)
    price = fare_price(flight, fare)
    assert price is not None
    total = money(price * len(travelers))
    summary = flight_summary(flight, ctx.today())
    booking_id = new_booking(ctx, "flight", summary, trip, card, flight_id=flight["flight_id"], fare=fare,
                             cabin=rule.cabin)
    ctx.db.executemany("INSERT INTO booking_passengers (booking_id, traveler_id, seat, checked_bags) "
                       "VALUES (?, ?, NULL, 0)", [(booking_id, t["traveler_id"]) for t in travelers])
    what = f"{rule.name} fare, {len(travelers)} passenger(s)"
    charge_booking(ctx, booking_id, total, what, summary, card)
    return load_booking(ctx, booking_id)


@tools.tool(effect=READ, asks=[
    Ask("What do I have booked coming up?", upcoming_only=True),
    "Show my {status} {kind} bookings.",
    "Which bookings are in {trip_id}?",
    Ask("Which of my bookings were cancelled?", status="cancelled"),
], reply=[
    "Your bookings: {result.bookings_text}.",
    "Here's what I found: {result.bookings_text}.",
    Ask("Coming up: {result.bookings_text}.", upcoming_only=True),
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
    where = Where()
    where.eq("b.status", status)
    where.eq("b.kind", kind)
    where.entity(ctx, "trip", "b.trip_id", trip_id)
    found = summaries(ctx, where.sql, tuple(where.params))
    if upcoming_only:
        stamp = ctx.now_iso()
        found = [s for s in found if s.status == "confirmed" and s.starts_at > stamp]
    return BookingList(bookings=found[:limit], total=len(found), bookings_text=_bookings_text(found[:limit], len(found)))


@tools.tool(effect=READ, asks=[
    "Show me the details of {booking_id}.",
    # Said of a flight and of a hotel stay alike; "charged" asks for what was paid (total_charged).
    "What does {booking_id} include, and how much was charged for it?",
], reply=[
    "{result.summary} (confirmation {result.confirmation_code}, {result.status}): {result.details_text}.",
    "Here's {booking_id}: {result.details_text}. It's {result.status}, confirmation {result.confirmation_code}.",
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


@tools.tool(effect=READ, asks=[
    "If I cancel {booking_id} now, how much do I get back?",
    "What's the refund on {booking_id} if I cancel it today?",
], reply=[
    # (a reply that would report a zero amount does not fit: a quote with no fee says only the refund)
    "If you cancel {booking_id} now, ${result.refund_amount} comes back to your card and ${result.fee} is kept. "
    "{result.reason}",
    "If you cancel {booking_id} now, ${result.refund_amount} comes back to your card. {result.reason}",
    "If you cancel {booking_id} now, {result.refund_points} points come back to you. {result.reason}",
    Ask("Nothing comes back if you cancel {booking_id} now: ${result.fee} is kept. {result.reason}",
        **{"result.refund_amount": 0.0, "result.refund_points": 0}),
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


@tools.tool(effect=WRITE, asks=[
    "Cancel {booking_id}.",
    "Please cancel {booking_id} and refund what you can; I can't make it anymore.",
], reply=[
    # Each says what comes back: money, points, both, or nothing.
    "{booking_id} is cancelled; ${result.refund_amount} and {result.refund_points} points come back to you.",
    Ask("Done: I cancelled {booking_id}; ${result.refund_amount} goes back to your card. {result.reason}",
        **{"result.refund_points": 0}),
    Ask("{booking_id} is cancelled, and ${result.refund_amount} comes back to your card. {result.reason}",
        **{"result.refund_points": 0}),
    Ask("Done: I cancelled {booking_id}; {result.refund_points} points go back to your balance. {result.reason}",
        **{"result.refund_amount": 0.0}),
    Ask("Done: I cancelled {booking_id}, but nothing comes back: ${result.fee} is kept. {result.reason}",
        **{"result.refund_amount": 0.0, "result.refund_points": 0}),
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
