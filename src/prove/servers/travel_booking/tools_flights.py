"""Travel booking tools: airports, flight search, flight details and seat maps."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, time
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, Ask, Ctx, ToolError, Toolset
from prove.env.values import said_in_part, spoken_day

from .server import (
    AirlineCode,
    AirportCode,
    Cabin,
    Fare,
    FlightId,
    Limit,
    booked_counts,
    flight_status,
    require_cabin,
    seats_left,
    taken_seats,
)
from .world import (
    AIRCRAFT,
    AIRPORT,
    COUNTRY_NAMES,
    FARES,
    MAX_PASSENGERS,
    capacity,
    fare_price,
    is_international,
)

tools = Toolset("flights")

# ----- models -------------------------------------------------------------------------------------


class Airport(BaseModel):
    code: AirportCode
    name: str
    city: str
    country: str
    nonstop_destinations: list[AirportCode] = Field(description="Airports with direct flights from this one.")


class AirportList(BaseModel):
    airports: list[Airport]
    total: int
    airports_text: str = Field(description="The airports in words, such as 'Boston Logan International Airport (BOS, "
                                           "Boston), with nonstops to AMS, ATL and FRA; ...'.")


def _airports_text(airports: list[Airport], shown: int = 6) -> str:
    def one(a: Airport) -> str:
        where = a.code if a.city in a.name else f"{a.code}, {a.city}"
        dests = a.nonstop_destinations
        to = (f", with nonstops to {dests[0] if len(dests) == 1 else ', '.join(dests[:-1]) + ' and ' + dests[-1]}"
              if dests else "")
        return f"{a.name} ({where}){to}"
    if not airports:
        return "no airports"
    said = [one(a) for a in airports[:shown]]
    more = f"; and {len(airports) - len(said)} more" if len(airports) > len(said) else ""
    return f"{len(airports)} airport{'' if len(airports) == 1 else 's'}: " + "; ".join(said) + more


class FlightOption(BaseModel):
    flight_id: FlightId
    flight_number: str
    airline_code: AirlineCode
    airline: str
    origin: AirportCode
    destination: AirportCode
    departs_at: str = Field(description="Local time at the origin.")
    arrives_at: str = Field(description="Local time at the destination.")
    duration_minutes: int
    aircraft: str
    cabin: Cabin
    seats_left: int = Field(description="Seats still for sale in this cabin.")
    lowest_fare: Fare = Field(description="The cheapest fare family of the cabin.")
    lowest_price: float = Field(description="Price per passenger of the cheapest fare.")
    total_price: float = Field(description="lowest_price times the number of passengers searched for.")
    available: bool = Field(description="Whether the cabin has seats for all the passengers searched for.")


class FlightList(BaseModel):
    flights: list[FlightOption]
    total: int = Field(description="How many flights matched, before `limit`.")
    flights_text: str = Field(description="The flights in words, such as 'DL 2979, 7:20 AM to 10:30 AM, $188.54 a "
                                          "person'.")
    said: str = Field("", description="Where nothing matched, the search in words: 'there are no American Airlines "
                                      "flights from BOS to JFK on March 26 leaving after 6:30 PM'.")


def _clock(at: str) -> str:
    hour, minute = int(at[11:13]), at[14:16]
    return f"{hour % 12 or 12}:{minute} {'AM' if hour < 12 else 'PM'}"


def _flights_text(flights: list[FlightOption], total: int, passengers: int) -> str:
    """'DL 2979, 7:20 AM to 10:30 AM, $188.54 a person ($377.08 for 2), 3 seats left; and 4 more'."""
    def one(f: FlightOption) -> str:
        next_day = " the next day" if f.arrives_at[:10] != f.departs_at[:10] else ""
        text = f"{f.flight_number}, {_clock(f.departs_at)} to {_clock(f.arrives_at)}{next_day}, ${f.lowest_price:,.2f} a person"
        if passengers > 1:
            text += f" (${f.total_price:,.2f} for {passengers})"
        if not f.available:
            text += ", sold out" if not f.seats_left else f", only {f.seats_left} seat{'s' if f.seats_left != 1 else ''} left"
        elif f.seats_left < 10:
            text += f", {f.seats_left} seat{'s' if f.seats_left != 1 else ''} left"
        return text
    return said_in_part([one(f) for f in flights[:5]], total, "no flights")


class FareOption(BaseModel):
    fare: Fare
    name: str
    cabin: Cabin
    price: float = Field(description="Price per passenger.")
    seats_left: int
    refundable: bool = Field(description="Whether cancelling returns money (less any cancellation fee).")
    cancellation_fee: float | None = Field(description="Per passenger; null when the fare is non-refundable.")
    change_fee: float | None = Field(description="Per passenger, plus any fare difference; null when changes "
                                                 "are not allowed.")
    bags_included: int = Field(description="Free checked bags per passenger.")
    seat_selection: bool = Field(description="Whether seats may be chosen before check-in.")


class Flight(BaseModel):
    flight_id: FlightId
    flight_number: str
    airline_code: AirlineCode
    airline: str
    origin: AirportCode
    origin_city: str
    destination: AirportCode
    destination_city: str
    departs_at: str
    arrives_at: str
    duration_minutes: int
    aircraft: str
    international: bool = Field(description="Passports are required for every passenger.")
    status: Literal["scheduled", "departed", "landed", "cancelled"]
    fares: list[FareOption] = Field(description="The fare families of the cabins this aircraft has.")
    fares_text: str = Field(description="The fares in words: name, price per passenger, whether refundable.")
    business_text: str = Field(description="The business fares in words, or that there is no business cabin.")
    on_time_text: str = Field(description="Whether it leaves on schedule, in words.")


class Seat(BaseModel):
    seat: str
    row: int
    position: Literal["window", "middle", "aisle"]
    extra_legroom: bool
    available: bool


class SeatMap(BaseModel):
    flight_id: FlightId
    flight_number: str
    aircraft: str
    cabin: Cabin
    rows: str = Field(description="The cabin's first and last row, such as '7-30'.")
    seats: list[Seat]
    available_count: int = Field(description="Free seats in the cabin (all positions).")
    total_seats: int
    said: str = Field(description="The free seats listed, as people say them: '3 free aisle seats in economy: "
                                  "17D, 20C and 22C'.")


# ----- helpers ------------------------------------------------------------------------------------


def _airline_name(ctx: Ctx, code: str) -> str:
    return ctx.db.execute("SELECT name FROM airlines WHERE code = ?", (code,)).fetchone()[0]


def fare_options(ctx: Ctx, flight: sqlite3.Row) -> list[FareOption]:
    booked = booked_counts(ctx, flight["flight_id"])
    out = []
    for rule in FARES.values():
        price = fare_price(flight, rule.fare)
        if price is None:
            continue
        out.append(FareOption(fare=rule.fare, name=rule.name, cabin=rule.cabin, price=price,  # type: ignore[arg-type]
                              seats_left=seats_left(ctx, flight, rule.cabin, booked),
                              refundable=rule.cancellation_fee is not None, cancellation_fee=rule.cancellation_fee,
                              change_fee=rule.change_fee, bags_included=rule.bags_included,
                              seat_selection=rule.seat_selection))
    return out


def load_flight(ctx: Ctx, flight: sqlite3.Row) -> Flight:
    fares = fare_options(ctx, flight)
    return Flight(flight_id=flight["flight_id"], flight_number=flight["flight_number"],
                  airline_code=flight["airline_code"], airline=_airline_name(ctx, flight["airline_code"]),
                  origin=flight["origin"], origin_city=AIRPORT[flight["origin"]][2], destination=flight["destination"],
                  destination_city=AIRPORT[flight["destination"]][2], departs_at=flight["departs_at"],
                  arrives_at=flight["arrives_at"], duration_minutes=flight["duration_minutes"],
                  aircraft=flight["aircraft"], international=is_international(flight["origin"], flight["destination"]),
                  status=flight_status(flight, ctx.now()), fares=fares,  # type: ignore[arg-type]
                  fares_text="; ".join(_fare_words(f) for f in fares),
                  business_text=_business_words(fares),
                  on_time_text=_on_time_words(flight_status(flight, ctx.now()), flight["departs_at"]))


def _business_words(fares: list[FareOption]) -> str:
    """'Business is $565.47 a person, free to cancel', or that the flight has no business cabin."""
    said = [f"{'business class' if f.name == 'Business' else f.name} is ${f.price:,.2f} a person, "
            + _fare_words(f).split(", ", 1)[1]
            for f in fares if f.cabin == "business"]
    return "; ".join(said) or "there's no business class on this flight"


def _on_time_words(status: str, departs_at: str) -> str:
    """'on schedule, leaving at 7:35 AM on March 17', 'cancelled'."""
    if status == "scheduled":
        at = datetime.fromisoformat(departs_at)
        return f"on schedule, leaving at {_clock(departs_at)} on {at:%B} {at.day}"
    return {"departed": "already in the air", "landed": "already landed"}.get(status, status)


def _fare_words(f: FareOption) -> str:
    """'Main Cabin $180.00, refundable ($150.00 to cancel)', 'Business $1,050.00, free to cancel' or
    'Basic Economy $212.00, non-refundable'."""
    if f.refundable and f.cancellation_fee is not None:
        refund = f"refundable (${f.cancellation_fee:,.2f} to cancel)" if f.cancellation_fee else "free to cancel"
    else:
        refund = "non-refundable"
    sold_out = ", sold out" if f.seats_left == 0 else ""
    return f"{f.name} ${f.price:,.2f}, {refund}{sold_out}"


# the countries a person asks about by name, not ISO code: those said without "the" ("in Germany",
# never "in United States")
NAMED_COUNTRIES = sorted(n for n in COUNTRY_NAMES.values() if " " not in n and n != "Netherlands")


# ----- tools --------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "Which of your airports match '{query}'?",
    "What airports do you have in {country}?",
    "List the airports you serve.",
], reply=[
    "I have {result.airports_text}.",
], values={"country": NAMED_COUNTRIES})
def list_airports(ctx: Ctx, country: str | None = None, query: str | None = None) -> AirportList:
    """List the airports flights are sold between, with the direct destinations from each.

    Args:
        country: only airports of this country, as an ISO code or name, such as 'US' or 'France'.
        query: only airports whose code, name or city contains this text, such as 'Boston' or 'FRA'.

    Returns:
        The airports (IATA code, name, city, country, airports with direct flights from it) and how
        many there are.
    """
    rows = ctx.db.execute("SELECT * FROM airports ORDER BY code").fetchall()
    routes: dict[str, set[str]] = {}
    for origin, destination in ctx.db.execute("SELECT DISTINCT origin, destination FROM flights"):
        routes.setdefault(origin, set()).add(destination)
    out = []
    for r in rows:
        if country is not None:
            wanted = country.strip().lower()
            if wanted not in (r["country"].lower(), COUNTRY_NAMES.get(r["country"], "").lower()):
                continue
        if query is not None:
            needle = query.strip().lower()
            if needle not in f"{r['code']} {r['name']} {r['city']}".lower():
                continue
        out.append(Airport(code=r["code"], name=r["name"], city=r["city"], country=r["country"],
                           nonstop_destinations=sorted(routes.get(r["code"], ()))))
    return AirportList(airports=out, total=len(out), airports_text=_airports_text(out))


@tools.tool(effect=READ, asks=[
    "Find me a flight from {origin} to {destination} on {departure_date}.",
    Ask("What are the cheapest {cabin} flights from {origin} to {destination} on {departure_date} for "
        "{passengers} people?", sort_by="price"),
    "Are there any {airline} flights from {origin} to {destination} on {departure_date} leaving after {depart_after}?",
    "What flies from {origin} to {destination} on {departure_date} for under ${max_price}?",
    Ask("What's the quickest way from {origin} to {destination} on {departure_date}?", sort_by="duration"),
], reply=[
    "Flights from {origin} to {destination} on {departure_date}, cheapest first: {result.flights_text}.",
    "Here's what flies from {origin} to {destination} on {departure_date}: {result.flights_text}.",
    Ask("Quickest first, from {origin} to {destination} on {departure_date}: {result.flights_text}.",
        sort_by="duration"),
    Ask("Earliest first, from {origin} to {destination} on {departure_date}: {result.flights_text}.",
        sort_by="departure"),
])
def search_flights(ctx: Ctx, origin: AirportCode, destination: AirportCode, departure_date: date,
                   cabin: Cabin = "economy", passengers: Annotated[int, Field(ge=1, le=MAX_PASSENGERS)] = 1,
                   max_price: Annotated[float, Field(gt=0, le=100_000)] | None = None,
                   airline: AirlineCode | None = None, depart_after: time | None = None,
                   depart_before: time | None = None,
                   sort_by: Literal["price", "departure", "duration"] = "price", limit: Limit = 20) -> FlightList:
    """Search direct flights between two airports on one day, with the cheapest fare of a cabin.

    Flights that have already left or that the airline cancelled are not shown. Schedules are on
    sale for three weeks from 2026-03-16.

    Args:
        origin: IATA code of the departure airport, such as 'BOS'.
        destination: IATA code of the arrival airport, such as 'FRA'.
        departure_date: the day of departure (local), such as '2026-03-24'.
        cabin: 'economy', 'premium_economy' or 'business'; prices are for this cabin.
        passengers: how many travellers need seats, 1 to 9, such as 2.
        max_price: only flights whose cheapest fare in the cabin is at most this per passenger, such as 400.0.
        airline: only flights of this airline, by IATA code, such as 'LH'.
        depart_after: only flights leaving at or after this local time, such as '12:00'.
        depart_before: only flights leaving at or before this local time, such as '18:30'.
        sort_by: 'price' (cheapest first), 'departure' (earliest first) or 'duration' (shortest first).
        limit: how many flights to return, 1 to 100, such as 10.

    Returns:
        The matching flights (ID, flight number, airline and its code, times, duration, aircraft,
        seats left in the cabin, cheapest fare and its price per passenger and for all passengers,
        whether there are enough seats) and how many matched.

    Raises:
        not_found: an airport or the airline does not exist.
        same_airport: origin and destination are the same airport.
        no_route: no direct flights are sold between the two airports.
        past_date: the departure date is before today.
        no_schedule: the date is after the last day flights are on sale.
        invalid_time_range: depart_after is later than depart_before.
    """
    o = ctx.get("airport", origin.strip().upper())
    d = ctx.get("airport", destination.strip().upper())
    if o["code"] == d["code"]:
        raise ToolError("same_airport", f"Origin and destination are both {o['code']}.",
                        hint="Give two different airports.")
    if airline is not None:
        airline = ctx.get("airline", airline.strip().upper())["code"]
    if ctx.db.execute("SELECT 1 FROM flights WHERE origin = ? AND destination = ? LIMIT 1",
                      (o["code"], d["code"])).fetchone() is None:
        served = sorted({r[0] for r in ctx.db.execute("SELECT destination FROM flights WHERE origin = ?",
                                                      (o["code"],))})
        raise ToolError("no_route", f"There are no direct flights from {o['code']} to {d['code']}.",
                        hint=f"Direct destinations from {o['code']}: {', '.join(served) or 'none'}.")
    if departure_date < ctx.today():
        raise ToolError("past_date", f"{departure_date} is in the past (today is {ctx.today()}).",
                        hint="Search today or a later day.")
    (last,) = ctx.db.execute("SELECT max(substr(departs_at, 1, 10)) FROM flights").fetchone()
    if departure_date.isoformat() > last:
        raise ToolError("no_schedule", f"Flights are on sale until {last}; {departure_date} is not open yet.",
                        hint=f"Search a day up to {last}.")
    if depart_after is not None and depart_before is not None and depart_after > depart_before:
        raise ToolError("invalid_time_range",
                        f"depart_after {depart_after} is later than depart_before {depart_before}.")
    day = departure_date.isoformat()
    rows = ctx.db.execute(
        "SELECT * FROM flights WHERE origin = ? AND destination = ? AND substr(departs_at, 1, 10) = ? "
        "AND status = 'scheduled' AND departs_at > ?", (o["code"], d["code"], day, ctx.now_iso())).fetchall()
    booked = booked_counts(ctx)
    cheapest = next(f for f in FARES.values() if f.cabin == cabin)
    found = []
    for f in rows:
        if airline is not None and f["airline_code"] != airline:
            continue
        clock = f["departs_at"][11:16]
        if depart_after is not None and clock < depart_after.strftime("%H:%M"):
            continue
        if depart_before is not None and clock > depart_before.strftime("%H:%M"):
            continue
        price = fare_price(f, cheapest.fare)
        if price is None or (max_price is not None and price > max_price):
            continue
        left = seats_left(ctx, f, cabin, booked)
        found.append(FlightOption(
            flight_id=f["flight_id"], flight_number=f["flight_number"], airline_code=f["airline_code"],
            airline=_airline_name(ctx, f["airline_code"]),
            origin=f["origin"], destination=f["destination"], departs_at=f["departs_at"], arrives_at=f["arrives_at"],
            duration_minutes=f["duration_minutes"], aircraft=f["aircraft"], cabin=cabin, seats_left=left,
            lowest_fare=cheapest.fare,  # type: ignore[arg-type]
            lowest_price=price, total_price=round(price * passengers, 2),
            available=left >= passengers))
    key = {"price": lambda x: (x.lowest_price, x.departs_at), "departure": lambda x: (x.departs_at, x.lowest_price),
           "duration": lambda x: (x.duration_minutes, x.departs_at)}[sort_by]
    found.sort(key=key)
    said = "" if found else _none_said(ctx, o["code"], d["code"], departure_date, cabin, max_price, airline,
                                       depart_after, depart_before)
    return FlightList(flights=found[:limit], total=len(found), flights_text=_flights_text(found[:limit], len(found),
                                                                                          passengers), said=said)


def _none_said(ctx: Ctx, origin: str, destination: str, day: date, cabin: str, max_price: float | None,
               airline: str | None, after: time | None, before: time | None) -> str:
    """A search that found no flight, in words, with each thing it kept to: 'there are no American Airlines
    flights from BOS to JFK on March 26 leaving after 6:30 PM'."""
    def clock(t: time) -> str:
        return _clock(f"{day.isoformat()}T{t:%H:%M}")
    text = f"there are no {_airline_name(ctx, airline) + ' ' if airline else ''}flights from {origin} to " \
           f"{destination} on {spoken_day(day, ctx.today())}"
    if after is not None and before is not None:
        text += f" leaving between {clock(after)} and {clock(before)}"
    elif after is not None:
        text += f" leaving after {clock(after)}"
    elif before is not None:
        text += f" leaving before {clock(before)}"
    if cabin != "economy":
        text += f" in {cabin.replace('_', ' ')}"
    if max_price is not None:
        text += f" for under ${max_price:,.2f}"
    return text


@tools.tool(effect=READ, asks=[
    "Tell me more about {flight_id}: what fares are there?",
    "How much is business class on {flight_id}, and is it refundable?",
    "Is {flight_id} on time?",
], reply=[
    "{result.flight_number} ({result.origin} to {result.destination}, departing {result.departs_at}) is "
    "{result.status}. Fares per passenger: {result.fares_text}.",
    "On {result.flight_number}, {result.business_text}.",
    "{result.flight_number} is {result.on_time_text}.",
])
def get_flight(ctx: Ctx, flight_id: FlightId) -> Flight:
    """Show one flight with its status and every fare family with price, seats left and rules.

    Args:
        flight_id: ID of the flight, such as 'FLT-10007'.

    Returns:
        The flight (number, airline, airports and cities, local times, duration, aircraft, whether it
        is international, status) and its fares: price per passenger, seats left in the cabin,
        refundability and cancellation fee, change fee, free bags and seat selection.

    Raises:
        not_found: no flight has that ID.
    """
    return load_flight(ctx, ctx.get("flight", flight_id))


@tools.tool(effect=READ, asks=[
    "Which {position} seats are still free in {cabin} on {flight_id}?",
    "Show me the free seats on {flight_id}.",
    Ask("Show me the whole {cabin} seat map of {flight_id}, taken seats too.", include_taken=True),
], reply=["{result.flight_number} has {result.said}."])
def get_seat_map(ctx: Ctx, flight_id: FlightId, cabin: Cabin = "economy",
                 position: Literal["window", "middle", "aisle"] | None = None,
                 include_taken: bool = False) -> SeatMap:
    """Show the seats of one cabin of a flight: free seats, or all seats with include_taken.

    Args:
        flight_id: ID of the flight, such as 'FLT-10007'.
        cabin: 'economy', 'premium_economy' or 'business'.
        position: only 'window', 'middle' or 'aisle' seats.
        include_taken: also list seats that are taken (marked available=false), such as true.

    Returns:
        The aircraft, the cabin's rows, the seats (code such as '14C', row, position, extra legroom,
        whether free), how many seats of the cabin are free and how many it has.

    Raises:
        not_found: no flight has that ID.
        cabin_unavailable: the aircraft has no such cabin.
    """
    flight = ctx.get("flight", flight_id)
    require_cabin(flight, cabin)
    layout = AIRCRAFT[flight["aircraft"]][cabin]
    taken = taken_seats(ctx, flight, cabin)
    seats = []
    for code in layout.seats():
        pos = layout.position(code[-1])
        if position is not None and pos != position:
            continue
        free = code not in taken
        if free or include_taken:
            row = int(code[:-1])
            seats.append(Seat(seat=code, row=row, position=pos,  # type: ignore[arg-type]
                              extra_legroom=row in layout.extra_legroom, available=free))
    total = capacity(flight["aircraft"], cabin)
    return SeatMap(flight_id=flight["flight_id"], flight_number=flight["flight_number"], aircraft=flight["aircraft"],
                   cabin=cabin, rows=f"{layout.rows[0]}-{layout.rows[-1]}", seats=seats,
                   available_count=total - len(taken & set(layout.seats())), total_seats=total,
                   said=_free_seats(seats, cabin, position))


def _free_seats(seats: list[Seat], cabin: str, position: str | None) -> str:
    """'3 free aisle seats in economy: 17D (extra legroom), 20C and 22C', and how many are taken."""
    free = [s.seat + (" (extra legroom)" if s.extra_legroom else "") for s in seats if s.available]
    noun = f"{position} seat" if position else "seat"
    head = f"{len(free) or 'no'} free {noun}{'' if len(free) == 1 else 's'} in {cabin.replace('_', ' ')}"
    shown = free[:8] + ([f"{len(free) - 8} more"] if len(free) > 8 else [])
    listed = f": {', '.join(shown[:-1])} and {shown[-1]}" if len(shown) > 1 else f": {shown[0]}" if shown else ""
    taken = len(seats) - len(free)
    return head + listed + (f"; {taken} {'is' if taken == 1 else 'are'} taken" if taken else "")
