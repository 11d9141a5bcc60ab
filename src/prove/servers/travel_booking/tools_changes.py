"""Travel booking tools: changing a booked flight, choosing seats, adding checked bags, check-in."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, money, said_in_part

from .server import (
    BOOKING,
    Booking,
    BookingId,
    FlightBookingId,
    FlightId,
    Passenger,
    PaymentId,
    PaymentMethodId,
    TravelerId,
    check_passports,
    free_bags,
    load_booking,
    open_booking,
    record_payment,
    require_cabin,
    seats_left,
    taken_seats,
    usable_card,
)
from .world import (
    AIRCRAFT,
    BAG_FEES,
    CHECK_IN_CLOSES,
    CHECK_IN_OPENS,
    FARES,
    MAX_BAGS,
    fare_price,
    flight_summary,
    seat_cabin,
)

tools = Toolset("changes")

# a flight booking that can move to another flight: confirmed, not flown yet, not Basic Economy
ChangeableBookingId = BOOKING.where("kind = 'flight' AND status = 'confirmed' AND fare <> 'basic_economy' AND "
                                    "flight_id IN (SELECT flight_id FROM flights WHERE departs_at > :now)")

SeatCode = Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True, min_length=1, max_length=8)]
BOARDING_GROUP = {"business": 1, "premium_economy": 2, "economy_flex": 3, "economy": 4, "basic_economy": 6}
TIER_GROUP = {"member": 9, "silver": 3, "gold": 2, "platinum": 1}

# ----- models -------------------------------------------------------------------------------------


class FlightChange(BaseModel):
    booking: Booking
    previous_flight_id: FlightId
    change_fee: float = Field(description="The fare's change fee for all passengers (waived if the airline "
                                          "cancelled the original flight).")
    fare_difference: float = Field(description="How much more the new flight's fare costs for all passengers; "
                                               "a cheaper flight refunds nothing.")
    amount_charged: float
    payment_id: PaymentId | None = Field(description="The charge, if anything was charged.")


class ChangeOption(BaseModel):
    flight_id: FlightId
    flight_number: str
    departs_at: str = Field(description="Local time at the origin.")
    arrives_at: str = Field(description="Local time at the destination.")
    seats_left: int = Field(description="Seats still for sale in the booking's cabin.")
    change_fee: float = Field(description="The fare's change fee for all passengers.")
    fare_difference: float = Field(description="How much more the fare costs on this flight, for all passengers.")
    change_cost: float = Field(description="What moving to this flight costs: change fee plus fare difference.")


class ChangeOptions(BaseModel):
    booking_id: BookingId
    current_flight: str = Field(description="The booked flight, such as 'B6 2888 BOS to ATL on 2026-03-17'.")
    fare: str
    passengers: int
    options: list[ChangeOption] = Field(description="Other flights of the same route the booking can move to, "
                                                    "earliest first.")
    total: int
    cheapest_change_cost: float | None = Field(description="The lowest change_cost of the options; null if none.")
    options_text: str = Field(description="The options in words, earliest first, such as 'B6 2565 on March 17, "
                                          "8:00 AM to 10:30 AM ($13.64)'.")


def _options_text(options: list[ChangeOption]) -> str:
    """'B6 2518 on March 16, 7:35 PM to 10:05 PM (free) and B6 2565 on March 17, 8:00 AM to 10:30 AM ($88.64)'."""
    def clock(at: datetime) -> str:
        return f"{at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"

    def one(o: ChangeOption) -> str:
        dep, arr = datetime.fromisoformat(o.departs_at), datetime.fromisoformat(o.arrives_at)
        next_day = " the next day" if arr.date() != dep.date() else ""
        cost = "free" if not o.change_cost else f"${o.change_cost:,.2f}"
        return f"{o.flight_number} on {dep:%B} {dep.day}, {clock(dep)} to {clock(arr)}{next_day} ({cost})"
    return said_in_part([one(o) for o in options[:5]], len(options), "no other flights")


class SeatAssignment(BaseModel):
    booking_id: BookingId
    traveler_id: TravelerId
    name: str
    flight_id: FlightId
    seat: str
    position: Literal["window", "middle", "aisle"]
    extra_legroom: bool
    previous_seat: str | None


class BagPurchase(BaseModel):
    booking_id: BookingId
    passengers: list[Passenger] = Field(description="Every passenger of the booking after the change.")
    bags_added: int
    bags_text: str = Field(description="The bags added in words, such as '2 checked bags'.")
    fee_charged: float
    payment_id: PaymentId | None = Field(description="The charge, if the bags were not free.")


class BoardingPass(BaseModel):
    traveler_id: TravelerId
    name: str
    seat: str
    boarding_group: int
    checked_bags: int


class CheckIn(BaseModel):
    booking_id: BookingId
    flight_id: FlightId
    flight_number: str
    departs_at: str
    checked_in_at: str
    boarding_passes: list[BoardingPass]


# ----- helpers ------------------------------------------------------------------------------------


def _flight_booking(ctx: Ctx, booking_id: str) -> sqlite3.Row:
    """A confirmed flight booking whose flight has not left, else the matching error."""
    b = ctx.get("booking", booking_id)
    if b["kind"] != "flight":
        raise ToolError("not_a_flight", f"Booking {booking_id} is a hotel stay ({b['summary']}).",
                        hint="Use a flight booking from list_bookings with kind='flight'.")
    return open_booking(ctx, booking_id)


def _passenger(ctx: Ctx, b: sqlite3.Row, traveler_id: str) -> sqlite3.Row:
    t = ctx.get("traveler", traveler_id)
    p = ctx.db.execute("SELECT * FROM booking_passengers WHERE booking_id = ? AND traveler_id = ?",
                       (b["booking_id"], traveler_id)).fetchone()
    if p is None:
        raise ToolError("not_on_booking", f"{t['full_name']} is not a passenger of booking {b['booking_id']}.",
                        hint="Call get_booking to see its passengers.")
    return p


def _travelers(ctx: Ctx, booking_id: str) -> list[sqlite3.Row]:
    return ctx.db.execute("SELECT t.* FROM booking_passengers p JOIN travelers t USING (traveler_id) "
                          "WHERE p.booking_id = ? ORDER BY t.traveler_id", (booking_id,)).fetchall()


def _card(ctx: Ctx, b: sqlite3.Row, payment_method_id: str | None) -> sqlite3.Row:
    """The card for an extra charge: the one given, else the booking's own."""
    card_id = payment_method_id or b["payment_method_id"]
    if card_id is None:
        raise ToolError("payment_required", f"Booking {b['booking_id']} was paid with points, so there is no card "
                        "to charge.", hint="Give payment_method_id, a card from list_payment_methods.")
    return usable_card(ctx, card_id)


def _charge(ctx: Ctx, b: sqlite3.Row, card: sqlite3.Row, amount: float, what: str) -> str:
    payment_id = record_payment(ctx, b["booking_id"], "charge", amount, what, card=card)
    if b["payment_method_id"] is None:
        ctx.db.execute("UPDATE bookings SET payment_method_id = ? WHERE booking_id = ?",
                       (card["payment_method_id"], b["booking_id"]))
    return payment_id


# ----- tools --------------------------------------------------------------------------------------


def _change_cost(ctx: Ctx, b: sqlite3.Row, old: sqlite3.Row, new: sqlite3.Row, n: int) -> tuple[float, float]:
    """The change fee and the fare difference of moving booking `b` from `old` to `new`."""
    if old["status"] == "cancelled":
        return 0.0, 0.0
    rule = FARES[b["fare"]]
    old_price, new_price = fare_price(old, b["fare"]), fare_price(new, b["fare"])
    assert old_price is not None and new_price is not None
    return money((rule.change_fee or 0.0) * n), money(max(0.0, new_price - old_price) * n)


@tools.tool(effect=READ, asks=[
    "What other flights could I move {booking_id} to?",
    "Can I change {booking_id} to another flight? What are my options and what would it cost?",
], reply=[
    "{booking_id} can move to {result.options_text}.",
    "Options for {booking_id}, earliest first, with what the change costs: {result.options_text}.",
])
def list_change_options(ctx: Ctx, booking_id: ChangeableBookingId) -> ChangeOptions:
    """The flights a flight booking can be changed to: the same route, later than now, with room for its passengers.

    Each option says what the change would cost (see change_flight): the fare's change fee per
    passenger plus any increase in the fare's price; nothing if the airline cancelled the booked flight.

    Args:
        booking_id: ID of the flight booking, such as 'BKG-10010'.

    Returns:
        The booking, its flight, fare and number of passengers, and the other flights it can move
        to with seats left and the cost of each change, earliest first.

    Raises:
        not_found: no booking has that ID.
        not_a_flight: the booking is a hotel stay.
        booking_cancelled: the booking is cancelled.
        already_departed: the booked flight has already left.
        change_not_allowed: the fare (Basic Economy) does not allow changes.
    """
    b = _flight_booking(ctx, booking_id)
    old = ctx.get("flight", b["flight_id"])
    rule = FARES[b["fare"]]
    if rule.change_fee is None and old["status"] != "cancelled":
        raise ToolError("change_not_allowed", f"{rule.name} fares cannot be changed.",
                        hint="Cancel and book a new flight instead (see get_cancellation_quote).")
    travelers = _travelers(ctx, booking_id)
    n = len(travelers)
    options = []
    for new in ctx.db.execute("SELECT * FROM flights WHERE origin = ? AND destination = ? AND flight_id != ? "
                              "AND status != 'cancelled' AND departs_at > ? ORDER BY departs_at, flight_id",
                              (old["origin"], old["destination"], old["flight_id"], ctx.now_iso())).fetchall():
        left = seats_left(ctx, new, rule.cabin)
        if rule.cabin not in AIRCRAFT[new["aircraft"]] or left < n:
            continue
        try:
            check_passports(new, travelers)
        except ToolError:
            continue
        fee, difference = _change_cost(ctx, b, old, new, n)
        options.append(ChangeOption(flight_id=new["flight_id"], flight_number=new["flight_number"],
                                    departs_at=new["departs_at"], arrives_at=new["arrives_at"], seats_left=left,
                                    change_fee=fee, fare_difference=difference, change_cost=money(fee + difference)))
    return ChangeOptions(booking_id=booking_id, current_flight=b["summary"], fare=b["fare"], passengers=n,
                         options=options, total=len(options),
                         cheapest_change_cost=min((o.change_cost for o in options), default=None),
                         options_text=_options_text(options))


# A flight is moved a day or two, not across the trip it belongs to (a return moved before the way out).
_NEAR = {"new_flight_id": "EXISTS (SELECT 1 FROM bookings b JOIN flights o ON o.flight_id = b.flight_id "
                          "WHERE b.status = 'confirmed' AND o.flight_number = flights.flight_number "
                          "AND o.flight_id != flights.flight_id "
                          "AND abs(julianday(o.departs_at) - julianday(flights.departs_at)) <= 2)"}


@tools.tool(effect=WRITE, needs=["list_change_options"], asks=[
    Ask("Move {booking_id} to {new_flight_id}.", fits=_NEAR),
    Ask("Can you switch {booking_id} onto {new_flight_id} instead and put any fee on {payment_method_id}?", fits=_NEAR),
], reply=[
    "{booking_id} is now on {new_flight_id}; the change cost ${result.amount_charged}.",
    "Done: you're on {new_flight_id} now, and ${result.amount_charged} was charged for the change.",
    Ask("{booking_id} is now on {new_flight_id}; the change was free.", **{"result.amount_charged": 0.0}),
])
def change_flight(ctx: Ctx, booking_id: ChangeableBookingId, new_flight_id: FlightId,
                  payment_method_id: PaymentMethodId | None = None) -> FlightChange:
    """Move a flight booking to another flight on the same route, keeping its fare and passengers.

    Costs the fare's change fee per passenger (Main Cabin $75, Premium Economy $50, Flex and
    Business free; Basic Economy cannot be changed) plus any increase in the fare's price; a
    cheaper flight refunds nothing. If the airline cancelled the original flight, the change is
    free for every fare. Chosen seats are released and check-in is undone; bags stay.

    Args:
        booking_id: ID of the flight booking, such as 'BKG-10010'.
        new_flight_id: ID of the flight to move to, same origin and destination, such as 'FLT-10200'.
        payment_method_id: saved card for the fee, such as 'CARD-10001'; by default the booking's card.

    Returns:
        The updated booking, the previous flight, the change fee, the fare difference and what was charged.

    Raises:
        not_found: the booking, the flight or the card does not exist.
        not_a_flight: the booking is a hotel stay.
        booking_cancelled: the booking is cancelled.
        already_departed: the booked flight has already left.
        same_flight: the booking is already on that flight.
        route_mismatch: the new flight does not fly the same origin and destination.
        flight_cancelled: the airline cancelled the new flight.
        past_date: the new flight has already departed.
        change_not_allowed: the fare (Basic Economy) does not allow changes.
        cabin_unavailable: the new aircraft has no cabin for the booking's fare.
        sold_out: the new flight has fewer seats left in the cabin than the booking has passengers.
        passport_required: the flight is international and a passenger has no passport on file.
        passport_expiring: a passenger's passport expires less than six months after the new flight.
        payment_required: there is something to pay and the booking was paid with points, with no card given.
        card_expired: the card has expired.
    """
    b = _flight_booking(ctx, booking_id)
    old = ctx.get("flight", b["flight_id"])
    new = ctx.get("flight", new_flight_id)
    card = usable_card(ctx, payment_method_id) if payment_method_id is not None else None
    if new["flight_id"] == old["flight_id"]:
        raise ToolError("same_flight", f"Booking {booking_id} is already on {old['flight_number']}.",
                        hint="Pick a different flight from search_flights.")
    if (new["origin"], new["destination"]) != (old["origin"], old["destination"]):
        raise ToolError("route_mismatch", f"{new['flight_number']} flies {new['origin']} to {new['destination']}, "
                        f"the booking is for {old['origin']} to {old['destination']}.",
                        hint="Search the same route with search_flights, or cancel and book anew.")
    if new["status"] == "cancelled":
        raise ToolError("flight_cancelled", f"{new['flight_number']} on {new['departs_at'][:10]} was cancelled by "
                        "the airline.", hint="Pick another flight from search_flights.")
    if new["departs_at"] <= ctx.now_iso():
        raise ToolError("past_date", f"{new['flight_number']} departed at {new['departs_at']}.",
                        hint="Pick a later flight from search_flights.")
    rule = FARES[b["fare"]]
    waived = old["status"] == "cancelled"
    if rule.change_fee is None and not waived:
        raise ToolError("change_not_allowed", f"{rule.name} fares cannot be changed.",
                        hint="Cancel and book a new flight instead (see get_cancellation_quote).")
    require_cabin(new, rule.cabin)
    travelers = _travelers(ctx, booking_id)
    n = len(travelers)
    left = seats_left(ctx, new, rule.cabin)
    if left < n:
        raise ToolError("sold_out", f"{new['flight_number']} has {left} {rule.cabin.replace('_', ' ')} seat(s) "
                        f"left for {n} passenger(s).", hint="Pick another flight from search_flights.")
    check_passports(new, travelers)
    old_price, new_price = fare_price(old, b["fare"]), fare_price(new, b["fare"])
    assert old_price is not None and new_price is not None
    fee = 0.0 if waived else money((rule.change_fee or 0.0) * n)
    difference = 0.0 if waived else money(max(0.0, new_price - old_price) * n)
    payment_id = None
    if fee + difference > 0:
        card = card or _card(ctx, b, None)
        payment_id = _charge(ctx, b, card, fee + difference,
                             f"Change to {new['flight_number']} on {new['departs_at'][:10]}: fee ${fee:.2f}, "
                             f"fare difference ${difference:.2f}")
    summary = flight_summary(new, ctx.today())
    ctx.db.execute("UPDATE bookings SET flight_id = ?, summary = ?, checked_in_at = NULL WHERE booking_id = ?",
                   (new["flight_id"], summary, booking_id))
    ctx.db.execute("UPDATE booking_passengers SET seat = NULL WHERE booking_id = ?", (booking_id,))
    return FlightChange(booking=load_booking(ctx, booking_id), previous_flight_id=old["flight_id"], change_fee=fee,
                        fare_difference=difference, amount_charged=money(fee + difference), payment_id=payment_id)


@tools.tool(effect=WRITE, asks=[
    "Put {traveler_id} in seat {seat} on {booking_id}.",
    "I'd like seat {seat} for {traveler_id} on {booking_id}, please.",
], reply=[
    "Seat {result.seat} is held for {traveler_id} now.",
    "Done: seat {result.seat} is assigned to {traveler_id}.",
])
def select_seat(ctx: Ctx, booking_id: FlightBookingId, traveler_id: TravelerId, seat: SeatCode) -> SeatAssignment:
    """Choose a passenger's seat on a booked flight (free of charge), in the booking's cabin.

    Basic Economy seats cannot be chosen; they are assigned at check-in. See get_seat_map for
    the free seats.

    Args:
        booking_id: ID of the flight booking, such as 'BKG-10010'.
        traveler_id: ID of the passenger, such as 'TRV-10001'.
        seat: the seat, row and letter, such as '14C'.

    Returns:
        The passenger's new seat with its position and legroom, and the seat they had before.

    Raises:
        not_found: the booking or the traveller does not exist.
        not_a_flight: the booking is a hotel stay.
        booking_cancelled: the booking is cancelled.
        already_departed: the flight has already left.
        not_on_booking: the traveller is not a passenger of the booking.
        seat_selection_not_allowed: the fare (Basic Economy) does not allow choosing seats.
        invalid_seat: the aircraft has no such seat.
        wrong_cabin: the seat is in a different cabin than the booking's fare.
        seat_taken: someone else has the seat.
    """
    b = _flight_booking(ctx, booking_id)
    p = _passenger(ctx, b, traveler_id)
    rule = FARES[b["fare"]]
    if not rule.seat_selection:
        raise ToolError("seat_selection_not_allowed", f"{rule.name} fares get a seat assigned at check-in.",
                        hint="Seats are assigned by check_in; change to a higher fare to choose one.")
    flight = ctx.get("flight", b["flight_id"])
    layout = seat_cabin(flight["aircraft"], seat)
    if layout is None:
        mine = AIRCRAFT[flight["aircraft"]][b["cabin"]]
        raise ToolError("invalid_seat", f"The {flight['aircraft']} has no seat {seat!r}.",
                        hint=f"{b['cabin'].replace('_', ' ').capitalize()} is rows {mine.rows[0]}-{mine.rows[-1]}, "
                             f"seats {', '.join(mine.letters)}; see get_seat_map.")
    if layout.cabin != b["cabin"]:
        raise ToolError("wrong_cabin", f"Seat {seat} is in {layout.cabin.replace('_', ' ')}; the booking is in "
                        f"{b['cabin'].replace('_', ' ')}.",
                        hint="Pick a seat of the booking's cabin from get_seat_map.")
    if p["seat"] != seat:
        if seat in taken_seats(ctx, flight, b["cabin"]):
            raise ToolError("seat_taken", f"Seat {seat} on {flight['flight_number']} is taken.",
                            hint="Call get_seat_map for the free seats.")
        ctx.db.execute("UPDATE booking_passengers SET seat = ? WHERE booking_id = ? AND traveler_id = ?",
                       (seat, booking_id, traveler_id))
    row = int(seat[:-1])
    (name,) = ctx.db.execute("SELECT full_name FROM travelers WHERE traveler_id = ?", (traveler_id,)).fetchone()
    return SeatAssignment(booking_id=booking_id, traveler_id=traveler_id, name=name, flight_id=flight["flight_id"],
                          seat=seat, position=layout.position(seat[-1]),  # type: ignore[arg-type]
                          extra_legroom=row in layout.extra_legroom, previous_seat=p["seat"])


@tools.tool(effect=WRITE, asks=[
    Ask("Add a checked bag for {traveler_id} on {booking_id}.", bags=1),
    Ask("Add two checked bags for {traveler_id} on {booking_id}.", bags=2),
    # (a booking may have one passenger: "for each of us" would say there are several)
    Ask("Add one checked bag for every passenger on {booking_id}; there's luggage coming.", bags=1),
    Ask("Add two checked bags for every passenger on {booking_id}; there's luggage coming.", bags=2),
    Ask("Add a checked bag for everyone on {booking_id} and charge {payment_method_id}.", bags=1),
], reply=[
    "Added {result.bags_text} to {booking_id}; the fee was ${result.fee_charged}.",
    "Done: {result.bags_text} added to {booking_id}, for ${result.fee_charged}.",
    Ask("Added {result.bags_text} to {booking_id}, free within your allowance.",
        **{"result.fee_charged": 0.0}),
])
def add_bags(ctx: Ctx, booking_id: FlightBookingId, bags: Annotated[int, Field(ge=1, le=MAX_BAGS)],
             traveler_id: TravelerId | None = None, payment_method_id: PaymentMethodId | None = None) -> BagPurchase:
    """Add checked bags to a booked flight, for one passenger or for each passenger.

    Bags beyond the free allowance (the fare's, or 1 for Silver and Gold and 2 for Platinum
    members, whichever is more) cost $35 for a passenger's 1st bag, $45 for the 2nd and $150 for
    the 3rd; at most 3 per passenger.

    Args:
        booking_id: ID of the flight booking, such as 'BKG-10010'.
        bags: how many bags to add per passenger, 1 to 3, such as 1.
        traveler_id: the passenger, such as 'TRV-10001'; by default every passenger of the booking.
        payment_method_id: saved card for the fee, such as 'CARD-10001'; by default the booking's card.

    Returns:
        Every passenger with their bags, how many bags were added, the fee and its payment.

    Raises:
        not_found: the booking, the traveller or the card does not exist.
        not_a_flight: the booking is a hotel stay.
        booking_cancelled: the booking is cancelled.
        already_departed: the flight has already left.
        not_on_booking: the traveller is not a passenger of the booking.
        bag_limit: a passenger would have more than 3 checked bags.
        payment_required: there is a fee and the booking was paid with points, with no card given.
        card_expired: the card has expired.
    """
    b = _flight_booking(ctx, booking_id)
    if traveler_id is not None:
        passengers = [_passenger(ctx, b, traveler_id)]
    else:
        passengers = ctx.db.execute("SELECT * FROM booking_passengers WHERE booking_id = ? ORDER BY traveler_id",
                                    (booking_id,)).fetchall()
    card = usable_card(ctx, payment_method_id) if payment_method_id is not None else None
    allowance = free_bags(ctx, b["fare"])
    fee = 0.0
    for p in passengers:
        if p["checked_bags"] + bags > MAX_BAGS:
            (name,) = ctx.db.execute("SELECT full_name FROM travelers WHERE traveler_id = ?",
                                     (p["traveler_id"],)).fetchone()
            raise ToolError("bag_limit", f"{name} already has {p['checked_bags']} checked bag(s); the limit is "
                            f"{MAX_BAGS} per passenger.", hint=f"Add at most {MAX_BAGS - p['checked_bags']}.")
        fee += sum(BAG_FEES[i - 1] for i in range(p["checked_bags"] + 1, p["checked_bags"] + bags + 1)
                   if i > allowance)
    payment_id = None
    if fee > 0:
        card = card or _card(ctx, b, None)
        payment_id = _charge(ctx, b, card, fee, f"{bags} checked bag(s) for {len(passengers)} passenger(s)")
    ctx.db.executemany("UPDATE booking_passengers SET checked_bags = checked_bags + ? WHERE booking_id = ? "
                       "AND traveler_id = ?", [(bags, booking_id, p["traveler_id"]) for p in passengers])
    return BagPurchase(booking_id=booking_id, passengers=load_booking(ctx, booking_id).passengers,
                       bags_added=bags * len(passengers), bags_text=_bags_text(bags * len(passengers)),
                       fee_charged=money(fee), payment_id=payment_id)


def _bags_text(n: int) -> str:
    return f"{n} checked bag{'' if n == 1 else 's'}"


@tools.tool(effect=WRITE, asks=[
    "Check me in for {booking_id}.",
    "Can you do the online check-in for {booking_id} and get our boarding passes?",
], reply=[
    "You're checked in for {result.flight_number}; your boarding passes are ready.",
    "Done: you're checked in for {booking_id}.",
])
def check_in(ctx: Ctx, booking_id: FlightBookingId) -> CheckIn:
    """Check in every passenger of a flight booking and issue boarding passes.

    Online check-in opens 24 hours before departure and closes 1 hour before. Passengers without a
    seat (always, on Basic Economy) get a free one assigned. International flights need every
    passport on file.

    Args:
        booking_id: ID of the flight booking, such as 'BKG-10010'.

    Returns:
        The flight, when check-in happened, and a boarding pass per passenger (seat, boarding
        group, checked bags).

    Raises:
        not_found: no booking has that ID.
        not_a_flight: the booking is a hotel stay.
        booking_cancelled: the booking is cancelled.
        already_departed: the flight has already left.
        flight_cancelled: the airline cancelled the flight.
        already_checked_in: the booking is already checked in.
        check_in_not_open: it is more than 24 hours before departure.
        check_in_closed: it is less than 1 hour before departure.
        passport_required: the flight is international and a passenger has no passport on file.
        passport_expiring: a passenger's passport expires less than six months after the flight.
    """
    b = _flight_booking(ctx, booking_id)
    flight = ctx.get("flight", b["flight_id"])
    if flight["status"] == "cancelled":
        raise ToolError("flight_cancelled", f"{flight['flight_number']} was cancelled by the airline.",
                        hint="Move the booking to another flight with change_flight (free), or cancel it for a refund.")
    if b["checked_in_at"] is not None:
        raise ToolError("already_checked_in", f"Booking {booking_id} was checked in at {b['checked_in_at']}.",
                        hint="Call get_booking to see the seats.")
    departs = datetime.fromisoformat(flight["departs_at"])
    now = ctx.now()
    if now < departs - CHECK_IN_OPENS:
        raise ToolError("check_in_not_open", f"Check-in for {flight['flight_number']} opens at "
                        f"{iso(departs - CHECK_IN_OPENS)}, 24 hours before departure.",
                        hint="Try again once check-in opens.")
    if now > departs - CHECK_IN_CLOSES:
        raise ToolError("check_in_closed", f"Online check-in for {flight['flight_number']} closed at "
                        f"{iso(departs - CHECK_IN_CLOSES)}.", hint="Check in at the airport desk.")
    check_passports(flight, _travelers(ctx, booking_id))
    layout = AIRCRAFT[flight["aircraft"]][b["cabin"]]
    taken = taken_seats(ctx, flight, b["cabin"])
    free = [s for s in layout.seats() if s not in taken]
    rng = ctx.rng()
    (tier,) = ctx.db.execute("SELECT tier FROM accounts").fetchone()
    group = min(BOARDING_GROUP[b["fare"]], TIER_GROUP[tier])
    passes = []
    for p in ctx.db.execute("SELECT p.*, t.full_name FROM booking_passengers p JOIN travelers t USING (traveler_id) "
                            "WHERE booking_id = ? ORDER BY traveler_id", (booking_id,)).fetchall():
        seat = p["seat"]
        if seat is None:
            seat = rng.choice(free)
            free.remove(seat)
            ctx.db.execute("UPDATE booking_passengers SET seat = ? WHERE booking_id = ? AND traveler_id = ?",
                           (seat, booking_id, p["traveler_id"]))
        passes.append(BoardingPass(traveler_id=p["traveler_id"], name=p["full_name"], seat=seat,
                                   boarding_group=group, checked_bags=p["checked_bags"]))
    stamp = ctx.now_iso()
    ctx.db.execute("UPDATE bookings SET checked_in_at = ? WHERE booking_id = ?", (stamp, booking_id))
    return CheckIn(booking_id=booking_id, flight_id=flight["flight_id"], flight_number=flight["flight_number"],
                   departs_at=flight["departs_at"], checked_in_at=stamp, boarding_passes=passes)
