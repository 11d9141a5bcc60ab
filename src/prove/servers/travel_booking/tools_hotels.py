"""Travel booking tools: hotel search, rooms and availability per night, booking a stay."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import money, said_in_part

from .server import (
    Booking,
    HotelId,
    Limit,
    NewTripId,
    PaymentMethodId,
    RatePlan,
    RoomTypeId,
    charge_booking,
    choose_payment,
    load_booking,
    new_booking,
)
from .world import (
    HOTEL_CHECK_IN,
    HOTEL_CHECK_OUT,
    MAX_DAYS_AHEAD,
    MAX_NIGHTS,
    night_rate,
    stay_summary,
)

tools = Toolset("hotels")

Guests = Annotated[int, Field(ge=1, le=20)]
Rooms = Annotated[int, Field(ge=1, le=5)]

# ----- models -------------------------------------------------------------------------------------


class HotelOption(BaseModel):
    hotel_id: HotelId
    name: str
    city: str
    neighborhood: str
    stars: int
    guest_rating: float = Field(description="Average guest score out of 10.")
    amenities: list[str]
    cheapest_room_type_id: RoomTypeId = Field(description="The cheapest room type with space for the stay.")
    cheapest_room_name: str
    nightly_average: float = Field(description="Average flexible rate per room per night of the cheapest room.")
    total_price: float = Field(description="Flexible rate for the whole stay and all rooms; the non-refundable "
                                           "rate is 10% less.")
    rooms_left: int = Field(description="Rooms of that type still free on every night of the stay.")


class HotelList(BaseModel):
    hotels: list[HotelOption]
    total: int = Field(description="How many hotels have a room for the stay, before `limit`.")
    nights: int
    hotels_text: str = Field(description="The hotels in words, such as 'Ace Hotel Denver (4-star, rated 8.7/10, "
                                         "$189.00 a night, $378.00 for 2 nights)'.")


class RoomOption(BaseModel):
    room_type_id: RoomTypeId
    name: str
    beds: str
    max_guests: int = Field(description="Guests per room.")
    nightly_rate: float = Field(description="Flexible rate for a Sunday to Thursday night; Friday and Saturday "
                                            "nights cost 20% more.")
    rooms_left: int | None = Field(description="Rooms free on every night of the given dates; null without dates.")
    flexible_total: float | None = Field(description="One room for the given dates, flexible rate.")
    non_refundable_total: float | None = Field(description="One room for the given dates, non-refundable rate.")


class Hotel(BaseModel):
    hotel_id: HotelId
    name: str
    city: str
    country: str
    neighborhood: str
    address: str
    stars: int
    guest_rating: float
    amenities: list[str]
    check_in_time: str
    check_out_time: str
    room_types: list[RoomOption]
    rooms_text: str = Field(description="The room types in words, with the rooms left and the stay's price when "
                                        "dates are given.")


# ----- helpers ------------------------------------------------------------------------------------


def _hotels_text(hotels: list[HotelOption], nights: int, rooms: int) -> str:
    """'Ace Hotel Denver (4-star, rated 8.7/10, $189.00 a night, $378.00 for 2 nights) and 2 more'."""
    stay = f"{nights} night{'s' if nights != 1 else ''}"
    stay = f"{rooms} rooms, {stay}" if rooms > 1 else stay
    shown = hotels if len(hotels) <= 4 else hotels[:3]
    one_night = nights == 1 and rooms == 1  # "$202.40 a night, $202.40 for 1 night" says it twice
    parts = [f"{h.name} ({h.stars}-star, rated {h.guest_rating:g}/10, "
             + (f"${h.total_price:,.2f} for the night)" if one_night else
                f"${h.nightly_average:,.2f} a night, ${h.total_price:,.2f} for {stay})") for h in shown]
    return said_in_part(parts, len(hotels), "none")


def _rooms_text(rooms: list[RoomOption]) -> str:
    """'Standard King (1 king bed, up to 2 guests): $223.02 a night' or, for dates, '...: 3 rooms
    left, $446.04 for the stay ($401.44 non-refundable)'."""
    parts = []
    for r in rooms:
        head = f"{r.name} ({r.beds}, up to {r.max_guests} guest{'s' if r.max_guests != 1 else ''})"
        if r.rooms_left is None or r.flexible_total is None:
            parts.append(f"{head}: ${r.nightly_rate:,.2f} a night")
        elif not r.rooms_left:
            parts.append(f"{head}: no rooms left")
        else:
            parts.append(f"{head}: {r.rooms_left} room{'s' if r.rooms_left != 1 else ''} left, "
                         f"${r.flexible_total:,.2f} for the stay (${r.non_refundable_total:,.2f} non-refundable)")
    return said_in_part(parts, len(parts), "none")


def stay_nights(ctx: Ctx, check_in: date, check_out: date) -> list[date]:
    """The nights of a stay, or the error that makes the dates unusable."""
    if check_in < ctx.today():
        raise ToolError("past_date", f"Check-in {check_in} is in the past (today is {ctx.today()}).",
                        hint="Choose a check-in date from today on.")
    if (check_in - ctx.today()).days > MAX_DAYS_AHEAD:
        raise ToolError("too_far_ahead", f"Stays can be booked at most {MAX_DAYS_AHEAD} days ahead; {check_in} is "
                        "further.",
                        hint=f"Choose a check-in date up to {ctx.today() + timedelta(days=MAX_DAYS_AHEAD)}.")
    nights = (check_out - check_in).days
    if nights < 1:
        raise ToolError("invalid_dates", f"Check-out {check_out} must be after check-in {check_in}.",
                        hint="Give a check-out date at least one day after check-in.")
    if nights > MAX_NIGHTS:
        raise ToolError("stay_too_long", f"A stay is at most {MAX_NIGHTS} nights; {check_in} to {check_out} is "
                        f"{nights}.", hint="Book a shorter stay, or two stays.")
    return [check_in + timedelta(days=i) for i in range(nights)]


def rooms_left(ctx: Ctx, room: sqlite3.Row, nights: list[date]) -> int:
    """Rooms of a type free on every one of `nights`."""
    first, last = nights[0].isoformat(), nights[-1].isoformat()
    blocks = dict(ctx.db.execute("SELECT night, rooms_taken FROM room_blocks WHERE room_type_id = ? "
                                 "AND night BETWEEN ? AND ?", (room["room_type_id"], first, last)).fetchall())
    stays = ctx.db.execute("SELECT check_in, check_out, rooms FROM bookings WHERE room_type_id = ? "
                           "AND status != 'cancelled' AND check_in <= ? AND check_out > ?",
                           (room["room_type_id"], last, first)).fetchall()
    free = room["rooms_total"]
    for night in nights:
        day = night.isoformat()
        mine = sum(s["rooms"] for s in stays if s["check_in"] <= day < s["check_out"])
        free = min(free, room["rooms_total"] - blocks.get(day, 0) - mine)
    return max(0, free)


def stay_price(room: sqlite3.Row, nights: list[date], rate_plan: str, rooms: int = 1) -> float:
    return money(sum(night_rate(room["nightly_rate"], n, rate_plan) for n in nights) * rooms)


def _amenities(row: sqlite3.Row) -> list[str]:
    return [a.strip() for a in row["amenities"].split(",") if a.strip()]


# ----- tools --------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "Find me a hotel in {city} from {check_in} to {check_out}.",
    "I need {rooms} rooms for {guests} people in {city}, {check_in} to {check_out}, at a {min_stars}-star hotel "
    "or better.",
    Ask("What's the best-rated hotel in {city} under ${max_nightly_rate} a night from {check_in} to {check_out}?",
        sort_by="rating"),
    Ask("What's the cheapest place to stay in {city} from {check_in} to {check_out}?", sort_by="price"),
], reply=[
    "Hotels in {city} with room from {check_in} to {check_out}: {result.hotels_text}.",
    "Here's what's available in {city} from {check_in} to {check_out}, cheapest first: {result.hotels_text}.",
    Ask("Best rated first, in {city} from {check_in} to {check_out}: {result.hotels_text}.", sort_by="rating"),
    Ask("Most stars first, in {city} from {check_in} to {check_out}: {result.hotels_text}.", sort_by="stars"),
], values={"min_stars": [3, 4, 5],  # "a 1-star hotel or better" asks for nothing
           "max_nightly_rate": [150.0, 200.0, 250.0, 300.0, 400.0]})  # a budget in round dollars
def search_hotels(ctx: Ctx, city: Annotated[str, StringConstraints(strip_whitespace=True, max_length=100)],
                  check_in: date, check_out: date, guests: Guests = 1, rooms: Rooms = 1,
                  max_nightly_rate: Annotated[float, Field(gt=0, le=100_000)] | None = None,
                  min_stars: Annotated[int, Field(ge=1, le=5)] | None = None,
                  sort_by: Literal["price", "rating", "stars"] = "price", limit: Limit = 20) -> HotelList:
    """Search hotels in a city that have a room for the whole stay, with the cheapest room's price.

    Args:
        city: the city, such as 'Frankfurt' or 'Atlanta'.
        check_in: the day of arrival, such as '2026-03-27'.
        check_out: the day of departure, after check_in, such as '2026-03-31'.
        guests: how many guests in all, such as 2.
        rooms: how many rooms of the same type, 1 to 5, such as 1.
        max_nightly_rate: only hotels whose cheapest room averages at most this per night, such as 250.0.
        min_stars: only hotels with at least this many stars, 1 to 5, such as 4.
        sort_by: 'price' (cheapest first), 'rating' (best guest score first) or 'stars' (most first).
        limit: how many hotels to return, 1 to 100, such as 10.

    Returns:
        The hotels (ID, name, neighbourhood, stars, guest rating, amenities, the cheapest room type
        with space for the guests, its average nightly rate, the total for the stay and rooms left),
        how many matched and the number of nights.

    Raises:
        unknown_city: no hotels are listed in that city.
        past_date: check-in is before today.
        too_far_ahead: check-in is more than 330 days ahead.
        invalid_dates: check-out is not after check-in.
        stay_too_long: the stay is longer than 28 nights.
    """
    hotels = ctx.db.execute("SELECT * FROM hotels WHERE lower(city) = lower(?) ORDER BY hotel_id", (city,)).fetchall()
    if not hotels:
        cities = [r[0] for r in ctx.db.execute("SELECT DISTINCT city FROM hotels ORDER BY city")]
        raise ToolError("unknown_city", f"No hotels are listed in {city!r}.", hint=f"Cities: {', '.join(cities)}.")
    nights = stay_nights(ctx, check_in, check_out)
    per_room = -(-guests // rooms)
    found = []
    for h in hotels:
        if min_stars is not None and h["stars"] < min_stars:
            continue
        best = None
        for r in ctx.db.execute("SELECT * FROM room_types WHERE hotel_id = ? AND max_guests >= ? ORDER BY room_type_id",
                                (h["hotel_id"], per_room)).fetchall():
            left = rooms_left(ctx, r, nights)
            if left < rooms:
                continue
            total = stay_price(r, nights, "flexible", rooms)
            if best is None or total < best[1]:
                best = (r, total, left)
        if best is None:
            continue
        r, total, left = best
        average = money(total / rooms / len(nights))
        if max_nightly_rate is not None and average > max_nightly_rate:
            continue
        found.append(HotelOption(hotel_id=h["hotel_id"], name=h["name"], city=h["city"], neighborhood=h["neighborhood"],
                                 stars=h["stars"], guest_rating=h["guest_rating"], amenities=_amenities(h),
                                 cheapest_room_type_id=r["room_type_id"], cheapest_room_name=r["name"],
                                 nightly_average=average, total_price=total, rooms_left=left))
    key = {"price": lambda x: (x.total_price, x.hotel_id), "rating": lambda x: (-x.guest_rating, x.total_price),
           "stars": lambda x: (-x.stars, x.total_price)}[sort_by]
    found.sort(key=key)
    return HotelList(hotels=found[:limit], total=len(found), nights=len(nights),
                     hotels_text=_hotels_text(found[:limit], len(nights), rooms))


@tools.tool(effect=READ, asks=[
    "Tell me about {hotel_id}.",
    "What rooms does {hotel_id} have free from {check_in} to {check_out}, and how much?",
], reply=[
    Ask("{result.name} is a {result.stars}-star hotel at {result.address}, rated {result.guest_rating}/10 by guests, "
        "with {result.amenities}. Rooms: {result.rooms_text}.", check_in=None),
    "{result.name} is a {result.stars}-star hotel, rated {result.guest_rating}/10 by guests. From {check_in} to "
    "{check_out}: {result.rooms_text}.",
])
def get_hotel(ctx: Ctx, hotel_id: HotelId, check_in: date | None = None, check_out: date | None = None) -> Hotel:
    """Show one hotel and its room types; with dates, the rooms left and prices for that stay.

    Args:
        hotel_id: ID of the hotel, such as 'HTL-10001'.
        check_in: the day of arrival, with check_out, such as '2026-03-27'.
        check_out: the day of departure, with check_in, such as '2026-03-31'.

    Returns:
        The hotel (address, neighbourhood, stars, guest rating, amenities, check-in and check-out
        times) and its room types (beds, guests per room, weekday rate; with dates also the rooms
        free every night and one room's total at the flexible and the non-refundable rate).

    Raises:
        not_found: no hotel has that ID.
        invalid_dates: only one of the dates was given, or check-out is not after check-in.
        past_date: check-in is before today.
        too_far_ahead: check-in is more than 330 days ahead.
        stay_too_long: the stay is longer than 28 nights.
    """
    h = ctx.get("hotel", hotel_id)
    nights: list[date] | None = None
    if (check_in is None) != (check_out is None):
        raise ToolError("invalid_dates", "Give both check_in and check_out, or neither.",
                        hint="Add the missing date to see availability and prices.")
    if check_in is not None and check_out is not None:
        nights = stay_nights(ctx, check_in, check_out)
    options = []
    for r in ctx.db.execute("SELECT * FROM room_types WHERE hotel_id = ? ORDER BY nightly_rate, room_type_id",
                            (h["hotel_id"],)).fetchall():
        options.append(RoomOption(
            room_type_id=r["room_type_id"], name=r["name"], beds=r["beds"], max_guests=r["max_guests"],
            nightly_rate=r["nightly_rate"], rooms_left=rooms_left(ctx, r, nights) if nights else None,
            flexible_total=stay_price(r, nights, "flexible") if nights else None,
            non_refundable_total=stay_price(r, nights, "non_refundable") if nights else None))
    return Hotel(hotel_id=h["hotel_id"], name=h["name"], city=h["city"], country=h["country"],
                 neighborhood=h["neighborhood"], address=h["address"], stars=h["stars"], guest_rating=h["guest_rating"],
                 amenities=_amenities(h), check_in_time=HOTEL_CHECK_IN.strftime("%H:%M"),
                 check_out_time=HOTEL_CHECK_OUT.strftime("%H:%M"), room_types=options, rooms_text=_rooms_text(options))


@tools.tool(effect=WRITE, asks=[
    "Book {room_type_id} from {check_in} to {check_out} for {guests} guests on {payment_method_id}.",
    Ask("Reserve {room_type_id} for {guests} guests, {check_in} to {check_out}, {rooms} rooms at the "
        "{rate_plan} rate, paid with points.", use_points=True),
    "Grab {room_type_id} for {guests} guests from {check_in} to {check_out}, charge {payment_method_id} and "
    "put it in {trip_id}.",
], reply=[
    "Your stay is booked: {result.summary}, confirmation {result.confirmation_code}.",
    "Done. {result.summary} is confirmed under code {result.confirmation_code}.",
])
def book_hotel(ctx: Ctx, room_type_id: RoomTypeId, check_in: date, check_out: date, guests: Guests,
               rooms: Rooms = 1, rate_plan: RatePlan = "flexible", payment_method_id: PaymentMethodId | None = None,
               use_points: bool = False, trip_id: NewTripId | None = None) -> Booking:
    """Book a hotel stay: rooms of one type for a range of nights, paid now by card or with points.

    Friday and Saturday nights cost 20% more. The 'flexible' rate can be cancelled for free until
    48 hours before check-in (15:00), then the first night is kept; 'non_refundable' is 10%
    cheaper and never refunded.

    Args:
        room_type_id: ID of the room type, from get_hotel or search_hotels, such as 'RMT-10001'.
        check_in: the day of arrival, such as '2026-03-27'.
        check_out: the day of departure, after check_in, such as '2026-03-31'.
        guests: how many guests in all, such as 2.
        rooms: how many rooms of this type, 1 to 5, such as 1.
        rate_plan: 'flexible' or 'non_refundable'.
        payment_method_id: saved card to charge, such as 'CARD-10001'; leave out when paying with points.
        use_points: pay with loyalty points instead of a card (100 points per dollar), such as true.
        trip_id: a trip to add the booking to, such as 'TRP-10004'.

    Returns:
        The new booking: confirmation code, the stay with its cancellation deadline, the payment.

    Raises:
        not_found: the room type, the card or the trip does not exist.
        past_date: check-in is before today.
        too_far_ahead: check-in is more than 330 days ahead.
        invalid_dates: check-out is not after check-in.
        stay_too_long: the stay is longer than 28 nights.
        too_many_guests: the rooms hold fewer people than `guests`.
        sold_out: fewer rooms of this type are free on some night than `rooms`.
        invalid_payment: neither or both of payment_method_id and use_points were given.
        card_expired: the card has expired.
        insufficient_points: the points balance does not cover the price.
    """
    room = ctx.get("room_type", room_type_id)
    nights = stay_nights(ctx, check_in, check_out)
    if guests > room["max_guests"] * rooms:
        raise ToolError("too_many_guests", f"{rooms} {room['name']} room(s) sleep at most "
                        f"{room['max_guests'] * rooms}; {guests} guests were asked for.",
                        hint="Book more rooms, or a larger room type from get_hotel.")
    left = rooms_left(ctx, room, nights)
    if left < rooms:
        full = [n.isoformat() for n in nights if rooms_left(ctx, room, [n]) < rooms]
        raise ToolError("sold_out", f"Only {left} {room['name']} room(s) are free for the whole stay; "
                        f"short on {', '.join(full[:5])}.",
                        hint="Try other dates, another room type, or search_hotels.")
    trip = ctx.get("trip", trip_id) if trip_id is not None else None
    card = choose_payment(ctx, payment_method_id, use_points)
    hotel = ctx.get("hotel", room["hotel_id"])
    total = stay_price(room, nights, rate_plan, rooms)
    summary = stay_summary(hotel["name"], room["name"], check_in, check_out, ctx.today())
    booking_id = new_booking(ctx, "hotel", summary, trip, card, hotel_id=hotel["hotel_id"],
                             room_type_id=room["room_type_id"], check_in=check_in.isoformat(),
                             check_out=check_out.isoformat(), rooms=rooms, guests=guests, rate_plan=rate_plan)
    what = (f"{len(nights)} night(s), {rooms} x {room['name']}, "
            f"{'non-refundable' if rate_plan == 'non_refundable' else 'flexible'} rate")
    charge_booking(ctx, booking_id, total, what, summary, card)
    return load_booking(ctx, booking_id)
