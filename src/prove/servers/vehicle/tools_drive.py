"""Vehicle tools: engine, gears, places, navigation, drives and trip history, location."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso, parse_date, quote

from .server import (
    PLACE,
    Gear,
    Limit,
    PlaceId,
    TripId,
    VehicleStatus,
    electric_range,
    end_charging,
    fuel_range,
    log,
    not_moving,
    place_label,
    status,
    vehicle,
)
from .world import drive_minutes, energy_for, miles_between

tools = Toolset("drive")

PlaceCategory = Literal["home", "work", "favorite", "charging_station", "service_center", "grocery", "restaurant",
                        "coffee", "shopping", "school", "gym", "airport", "park", "hospital", "gas_station"]
Nickname = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
UnsavedPlaceId = PLACE.where("saved = 0")
ElsewhereId = PLACE.where("place_id IS NOT (SELECT place_id FROM vehicles)")   # not where the car is parked

# ----- models -------------------------------------------------------------------------------------


class Place(BaseModel):
    place_id: PlaceId
    name: str
    nickname: str | None = Field(description="the owner's name for a saved place")
    category: PlaceCategory
    address: str
    saved: bool
    distance_mi: float = Field(description="driving distance from where the car is now")
    charger_kw: float | None = Field(description="charging stations: charger power")
    price_kwh: float | None = Field(description="charging stations: dollars per kWh")


class PlaceList(BaseModel):
    places: list[Place]
    total: int = Field(description="how many places matched, before `limit`")
    places_text: str = Field(description="the nearest places in words, such as '2 coffee shops, nearest first: "
                                         "Starbucks, 1.5 miles away at 2456 Park Avenue; ...'")


# what a listing of one category of place calls them
_PLURALS = {"charging_station": "charging stations", "gas_station": "gas stations", "coffee": "coffee shops",
            "service_center": "service centers", "restaurant": "restaurants", "grocery": "grocery stores",
            "shopping": "stores", "school": "schools", "gym": "gyms", "park": "parks", "hospital": "hospitals",
            "airport": "airports"}


def _place_words(p: Place) -> str:
    """'Starbucks, 1.5 miles away at 2456 Park Avenue', "Isabella's apartment ('Mom's house'), ...",
    'Volta - Whole Foods, 3.2 miles away at 282 Sunset Boulevard (7.2 kW, free)'."""
    name = p.name + (f" ('{p.nickname}')" if p.nickname and p.nickname.lower() != p.name.lower() else "")
    charger = ""
    if p.category == "charging_station" and p.charger_kw is not None:
        charger = f" ({p.charger_kw:g} kW, " + ("free)" if not p.price_kwh else f"${p.price_kwh:.2f} per kWh)")
    street = p.address.split(", ")[0]
    if p.distance_mi < 0.1:
        return f"{name}, at {street}{charger}, where the car is now"
    return f"{name}, {p.distance_mi:.1f} miles away at {street}{charger}"


def _places_text(places: list[Place], total: int, noun: str, shown: int = 5) -> str:
    if not places:
        return f"no {noun}"
    said = [_place_words(p) for p in places[:shown]]
    head = f"{total} {noun if total != 1 else noun[:-1]}"
    head += ", nearest first" if len(said) > 1 else ""
    more = f"; and {total - len(said)} more" if total > len(said) else ""
    return f"{head}: " + "; ".join(said) + more


class Navigation(BaseModel):
    active: bool = Field(description="false if no destination is set")
    destination: Place | None
    distance_mi: float | None
    minutes: int | None = Field(description="expected driving time")
    arrival: str | None = Field(description="expected arrival if leaving now, or the ETA of the drive under way")
    electric_mi: float | None = Field(description="how much of the way runs on the battery")
    range_after_mi: float | None = Field(description="total range left on arrival")
    enough_range: bool | None
    driving: bool


class Trip(BaseModel):
    trip_id: TripId
    summary: str = Field(description="where it went from and to, such as 'Home to Work'")
    started_at: str
    ended_at: str | None
    from_name: str
    from_place_id: PlaceId | None
    to_name: str
    to_place_id: PlaceId
    distance_mi: float
    duration_min: int
    electric_kwh: float
    fuel_gal: float
    status: Literal["in_progress", "completed"]


class TripList(BaseModel):
    trips: list[Trip]
    total: int = Field(description="how many trips matched, before `limit`")
    total_distance_mi: float = Field(description="over all matching trips")
    total_electric_kwh: float
    total_fuel_gal: float
    trips_text: str = Field(description="the trips in words, such as '2 trips: YMCA to Home on March 16 at 7:56 AM "
                                        "(3.6 miles, 10 minutes); ...'")


class Location(BaseModel):
    latitude: float
    longitude: float
    place_id: PlaceId | None
    place_name: str | None
    address: str | None
    parked_since: str | None
    driving_to: str | None
    eta: str | None


# ----- helpers ------------------------------------------------------------------------------------


def _place(ctx: Ctx, row, car=None) -> Place:
    car = car or vehicle(ctx)
    return Place(place_id=row["place_id"], name=row["name"], nickname=row["nickname"], category=row["category"],
                 address=row["address"], saved=bool(row["saved"]),
                 distance_mi=miles_between(car["lat"], car["lon"], row["lat"], row["lon"]),
                 charger_kw=row["charger_kw"], price_kwh=row["price_kwh"])


def _trip(row) -> Trip:
    start = datetime.fromisoformat(row["started_at"])
    end = datetime.fromisoformat(row["ended_at"] or row["eta"])
    return Trip(trip_id=row["trip_id"], summary=f"{row['from_name']} to {row['to_name']}",
                started_at=row["started_at"], ended_at=row["ended_at"],
                from_name=row["from_name"], from_place_id=row["from_place_id"], to_name=row["to_name"],
                to_place_id=row["to_place_id"], distance_mi=row["distance_mi"],
                duration_min=round((end - start).total_seconds() / 60), electric_kwh=row["electric_kwh"],
                fuel_gal=row["fuel_gal"], status=row["status"])


def _plan(car, dest) -> tuple[float, int, float, float]:
    """(miles, minutes, kWh, gallons) to drive from the car to `dest`."""
    miles = miles_between(car["lat"], car["lon"], dest["lat"], dest["lon"])
    kwh, gallons = energy_for(miles, car["battery_pct"] / 100 * car["battery_kwh"], car["mi_per_kwh"], car["mpg"])
    return miles, drive_minutes(miles), kwh, gallons


# ----- engine and gears ---------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Start the car.",
    "Warm up the engine, I'm leaving in ten minutes.",
    "Get the engine running, please.",
], reply=["The car is started.", "Done: the engine is running."])
def start_engine(ctx: Ctx) -> VehicleStatus:
    """Start the car (engine and drive systems on). Starting stops a charging session.

    Returns:
        The car's status with the engine running.

    Raises:
        engine_running: the engine is already running.
        update_in_progress: a software update is installing.
    """
    car = vehicle(ctx)
    if car["engine"] == "running":
        raise ToolError("engine_running", "The engine is already running.", hint="Nothing to do.")
    if car["update_finishes_at"] is not None:
        raise ToolError("update_in_progress", f"A software update is installing until {car['update_finishes_at']}; "
                        "the car cannot start until it finishes.", hint="Wait for the update to finish.")
    if car["charging"]:
        end_charging(ctx, "stopped", "Charging stopped: the car was started")
    ctx.db.execute("UPDATE vehicles SET engine = 'running'")
    log(ctx, "command", "Engine started")
    return status(ctx)


@tools.tool(effect=WRITE, asks=[
    "Turn the engine off.",
    "Shut the car down, we're here.",
], reply=["The engine is off.", "I've turned the car off."])
def stop_engine(ctx: Ctx) -> VehicleStatus:
    """Turn the engine off. The car must be parked (in P, not driving).

    Returns:
        The car's status with the engine off.

    Raises:
        engine_off: the engine is already off.
        vehicle_moving: a drive is under way.
        not_parked: the car is not in Park.
    """
    car = vehicle(ctx)
    if car["engine"] == "off":
        raise ToolError("engine_off", "The engine is already off.", hint="Nothing to do.")
    not_moving(ctx, car, "turn the engine off")
    if car["gear"] != "P":
        raise ToolError("not_parked", f"The car is in {car['gear']}; shift to Park before turning the engine off.",
                        hint="Call shift_gear with gear 'P' first.")
    ctx.db.execute("UPDATE vehicles SET engine = 'off'")
    ctx.db.execute("UPDATE seats SET heat_level = 0 WHERE (SELECT climate_on FROM vehicles) = 0")
    log(ctx, "command", "Engine stopped")
    return status(ctx)


@tools.tool(effect=WRITE, needs=["start_engine"], asks=[
    Ask("Put the car in park.", gear="P"),
    Ask("Shift into drive.", gear="D"),
    Ask("Put it in reverse.", gear="R"),
    Ask("Shift to neutral.", gear="N"),
], reply=[
    # a gear is said as a word, not as the letter on the selector
    Ask("The car is in park now.", gear="P"), Ask("Done: shifted into park.", gear="P"),
    Ask("The car is in reverse now.", gear="R"), Ask("Done: shifted into reverse.", gear="R"),
    Ask("The car is in neutral now.", gear="N"), Ask("Done: shifted into neutral.", gear="N"),
    Ask("The car is in drive now.", gear="D"), Ask("Done: shifted into drive.", gear="D"),
])
def shift_gear(ctx: Ctx, gear: Gear) -> VehicleStatus:
    """Shift gears: 'P' park, 'R' reverse, 'N' neutral, 'D' drive.

    Leaving Park needs the engine running; shifting into D or R also needs the doors locked, the
    trunk closed and the charging cable disconnected.

    Args:
        gear: 'P', 'R', 'N' or 'D'.

    Returns:
        The car's status in its new gear.

    Raises:
        already_in_gear: the car is already in that gear.
        vehicle_moving: a drive is under way.
        engine_off: the engine is off (only P is possible).
        doors_unlocked: D or R was asked with the doors unlocked.
        trunk_open: D or R was asked with the trunk open.
        charging_cable_connected: D or R was asked while the charging cable is plugged in.
    """
    car = vehicle(ctx)
    if car["gear"] == gear:
        raise ToolError("already_in_gear", f"The car is already in {gear}.", hint="Nothing to do.")
    not_moving(ctx, car, "change gear from the app")
    if car["engine"] == "off":
        raise ToolError("engine_off", "The engine is off; start it before shifting out of Park.",
                        hint="Call start_engine first.")
    if gear in ("D", "R"):
        if not car["locked"]:
            raise ToolError("doors_unlocked", "Lock the doors before driving.", hint="Call lock_doors first.")
        if car["trunk_open"]:
            raise ToolError("trunk_open", "The trunk is open; close it before driving.", hint="Call close_trunk first.")
        if car["plugged_in"]:
            raise ToolError("charging_cable_connected", "The charging cable is still connected.",
                            hint="Release it with release_charge_cable (and unplug it) before driving.")
    ctx.db.execute("UPDATE vehicles SET gear = ?", (gear,))
    return status(ctx)


# ----- places and navigation ----------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    Ask("Find a charging station near me.", category="charging_station"),
    Ask("Where's the nearest gas station?", category="gas_station"),
    Ask("Is there a coffee shop close by?", category="coffee"),
    "Search for {query} nearby.",
    Ask("Show my saved places.", saved_only=True),
], reply=[
    "I found {result.places_text}.",
    Ask("You have {result.places_text}.", saved_only=True),
])
def search_places(ctx: Ctx, query: str | None = None, category: PlaceCategory | None = None,
                  saved_only: bool = False, limit: Limit = 10) -> PlaceList:
    """Search the places the car knows, nearest first: saved places and points of interest around town.

    Args:
        query: text in the name, nickname or address (any case), such as 'coffee' or 'Costco'.
        category: only places of this category, such as 'charging_station', 'service_center',
            'grocery', 'restaurant', 'coffee', 'gas_station', 'home', 'work' or 'favorite'.
        saved_only: true for the owner's saved places only.
        limit: at most this many places (1-200, default 10).

    Returns:
        The places (ID, name, nickname, category, address, saved, driving distance from the car,
        charger power and price for charging stations), nearest first, and how many matched.
    """
    where = Where()
    if query is not None and query.strip():
        where.add("(instr(lower(name), lower(?)) > 0 OR instr(lower(coalesce(nickname, '')), lower(?)) > 0 "
                  "OR instr(lower(address), lower(?)) > 0 OR instr(lower(category), lower(?)) > 0)",
                  *[query.strip()] * 4)
    where.eq("category", category)
    if saved_only:
        where.add("saved = 1")
    car = vehicle(ctx)
    rows = ctx.db.execute(f"SELECT * FROM places WHERE {where.sql} ORDER BY place_id", where.params).fetchall()
    places = sorted((_place(ctx, r, car) for r in rows), key=lambda p: (p.distance_mi, p.place_id))
    noun = "saved places" if saved_only else _PLURALS.get(category or "", "places")
    return PlaceList(places=places[:limit], total=len(places),
                     places_text=_places_text(places[:limit], len(places), noun))


# places one goes out to, whose nicknames say an outing ('Sunday spot')
_OUTING = {"place_id": "category IN ('restaurant', 'coffee', 'shopping', 'park', 'grocery', 'gym')"}


@tools.tool(effect=WRITE, values={
    # nicknames that fit any place one goes out to (a nickname like 'Gym' would name one kind)
    "nickname": ["Weekend spot", "Sunday spot", "Favourite spot", "Usual spot", "Go-to spot"],
}, asks=[
    Ask("Save {place_id} to my places as '{nickname}'.", fits=_OUTING),
    "Add {place_id} to my saved places.",
    Ask("Keep {place_id} in my places, call it '{nickname}'.", fits=_OUTING),
    Ask("Save {place_id} to my places as 'Car service'.", nickname="Car service",
        fits={"place_id": "category = 'service_center'"}),
    Ask("Save {place_id} to my places, call it 'Charging stop'.", nickname="Charging stop",
        fits={"place_id": "category = 'charging_station'"}),
], reply=[
    Ask("{place_id} is now in your saved places.", nickname=None),
    Ask("Saved {place_id} to your places.", nickname=None),
    "Saved {place_id} to your places as '{nickname}'.",
])
def save_place(ctx: Ctx, place_id: UnsavedPlaceId, nickname: Nickname | None = None) -> Place:
    """Add a place to the owner's saved places, optionally with a nickname.

    Args:
        place_id: ID of the place, such as 'PLC-10012'.
        nickname: what the owner calls it, such as 'Gym'; nicknames of saved places are unique.

    Returns:
        The place, now saved.

    Raises:
        not_found: no place has that ID.
        already_saved: the place is already saved.
        duplicate_nickname: another saved place has that nickname (any case).
    """
    p = ctx.get("place", place_id)
    if p["saved"]:
        raise ToolError("already_saved", f"{place_label(p)} is already in the saved places.", hint="Nothing to do.")
    if nickname is not None:
        taken = ctx.db.execute("SELECT place_id FROM places WHERE saved = 1 AND lower(nickname) = lower(?)",
                               (nickname,)).fetchone()
        if taken:
            raise ToolError("duplicate_nickname", f"A saved place ({taken[0]}) is already called {quote(nickname)}.",
                            hint="Choose another nickname.")
    ctx.db.execute("UPDATE places SET saved = 1, nickname = coalesce(?, nickname) WHERE place_id = ?",
                   (nickname, place_id))
    return _place(ctx, ctx.get("place", place_id))


def _navigation(ctx: Ctx) -> Navigation:
    car = vehicle(ctx)
    if car["active_trip_id"] is not None:
        trip = ctx.get("trip", car["active_trip_id"])
        dest = ctx.get("place", trip["to_place_id"])
        minutes = max(0, round((datetime.fromisoformat(trip["eta"]) - ctx.now()).total_seconds() / 60))
        return Navigation(active=True, destination=_place(ctx, dest, car), distance_mi=trip["distance_mi"],
                          minutes=minutes, arrival=trip["eta"], electric_mi=None, range_after_mi=None,
                          enough_range=True, driving=True)
    if car["destination_id"] is None:
        return Navigation(active=False, destination=None, distance_mi=None, minutes=None, arrival=None,
                          electric_mi=None, range_after_mi=None, enough_range=None, driving=False)
    dest = ctx.get("place", car["destination_id"])
    miles, minutes, kwh, gallons = _plan(car, dest)
    total = electric_range(car) + fuel_range(car)
    return Navigation(active=True, destination=_place(ctx, dest, car), distance_mi=miles, minutes=minutes,
                      arrival=iso(ctx.now() + timedelta(minutes=minutes)),
                      electric_mi=round(kwh * car["mi_per_kwh"], 1), range_after_mi=round(max(0.0, total - miles), 1),
                      enough_range=total >= miles, driving=False)


@tools.tool(effect=WRITE, asks=[
    "Navigate to {place_id}.",
    "Set the destination to {place_id} and tell me how long it takes.",
    "Take me to {place_id}.",
], reply=["Route set to {place_id}: {result.distance_mi} miles, about {result.minutes} minutes.",
          "Navigation is on to {place_id}, {result.minutes} minutes away."])
def set_navigation_destination(ctx: Ctx, place_id: ElsewhereId) -> Navigation:
    """Set the navigation destination; the route shows distance, time, electric miles and whether the range suffices.

    Args:
        place_id: ID of the destination, such as 'PLC-10002' (see search_places).

    Returns:
        The route: destination, distance, minutes, arrival if leaving now, electric miles, range
        left on arrival and whether the range is enough.

    Raises:
        not_found: no place has that ID.
        vehicle_moving: a drive is under way.
        already_there: the car is parked at that place.
    """
    p = ctx.get("place", place_id)
    car = vehicle(ctx)
    not_moving(ctx, car, "change the destination")
    if car["place_id"] == place_id:
        raise ToolError("already_there", f"The car is already at {place_label(p)}.",
                        hint="Choose another destination.")
    ctx.db.execute("UPDATE vehicles SET destination_id = ?", (place_id,))
    return _navigation(ctx)


@tools.tool(effect=READ, asks=[
    "How long until we reach the place the navigation is set to?",
    # asked just after setting the destination too, so no question asks where it is
    "How far is it to where the navigation is taking me, and do I have enough range?",
], reply=[
    "{result.destination.name} is {result.distance_mi} miles away, about {result.minutes} minutes; you'd arrive "
    "around {result.arrival}, with {result.range_after_mi} miles of range left.",
    Ask("Navigation isn't on right now: no destination is set.", **{"result.active": False}),
    Ask("You're on the way to {result.destination.name}: about {result.minutes} minutes to go, arriving around "
        "{result.arrival}.", **{"result.driving": True}),
])
def get_navigation(ctx: Ctx) -> Navigation:
    """Show the navigation: the destination and route, or the drive under way and its arrival time.

    Returns:
        Whether a destination is set, the destination, distance, minutes, arrival, electric
        miles, range left on arrival, whether the range suffices and whether the car is driving.
    """
    return _navigation(ctx)


@tools.tool(effect=WRITE, needs=["set_navigation_destination"], asks=[
    "Cancel the navigation.",
    "Clear the destination, I'm not going anymore.",
], reply=["Navigation cancelled.", "Done: the destination is cleared."])
def cancel_navigation(ctx: Ctx) -> Navigation:
    """Clear the navigation destination. Not during a drive.

    Returns:
        The navigation, now inactive.

    Raises:
        no_destination: no destination is set.
        vehicle_moving: a drive is under way.
    """
    car = vehicle(ctx)
    not_moving(ctx, car, "cancel the route")
    if car["destination_id"] is None:
        raise ToolError("no_destination", "No navigation destination is set.", hint="Nothing to do.")
    ctx.db.execute("UPDATE vehicles SET destination_id = NULL")
    return _navigation(ctx)


@tools.tool(effect=WRITE, needs=["set_navigation_destination", "release_charge_cable", "start_engine",
                                "lock_doors", "close_trunk", "shift_gear"], asks=[
    "Let's go, start driving to the destination.",
    "Start the trip now.",
], reply=["On our way to {result.to_name}: {result.distance_mi} miles.",
          "The drive to {result.to_name} has started; it takes about {result.duration_min} minutes."])
def start_drive(ctx: Ctx) -> Trip:
    """Start driving to the navigation destination (the car drives the route; the clock must be advanced to arrive).

    Needs the engine running, the car in Drive (D), the doors locked and enough range. The car
    arrives at the ETA; then it is parked (P) at the destination with the engine running, and
    the battery (first) and fuel used are taken off.

    Returns:
        The trip under way: from, to, distance, start, ETA and the energy it will use.

    Raises:
        no_destination: no navigation destination is set.
        vehicle_moving: a drive is already under way.
        engine_off: the engine is off.
        not_in_drive: the car is not in D.
        doors_unlocked: the doors are unlocked.
        insufficient_range: battery and fuel together do not reach the destination.
    """
    car = vehicle(ctx)
    not_moving(ctx, car, "start another drive")
    if car["destination_id"] is None:
        raise ToolError("no_destination", "No navigation destination is set.",
                        hint="Set one with set_navigation_destination first.")
    if car["engine"] == "off":
        raise ToolError("engine_off", "The engine is off.", hint="Call start_engine first.")
    if car["gear"] != "D":
        raise ToolError("not_in_drive", f"The car is in {car['gear']}, not in Drive.",
                        hint="Call shift_gear with gear 'D' first.")
    if not car["locked"]:
        raise ToolError("doors_unlocked", "Lock the doors before driving.", hint="Call lock_doors first.")
    dest = ctx.get("place", car["destination_id"])
    miles, minutes, kwh, gallons = _plan(car, dest)
    total = electric_range(car) + fuel_range(car)
    if total < miles:
        station = "a charging station or gas station"
        raise ToolError("insufficient_range", f"{place_label(dest)} is {miles:g} mi away but the range is "
                        f"{total:g} mi.", hint=f"Go to {station} first (search_places).")
    if car["place_id"]:
        origin = ctx.get("place", car["place_id"])
        from_id, from_name = origin["place_id"], place_label(origin)
    else:
        from_id, from_name = None, f"{car['lat']:.4f}, {car['lon']:.4f}"
    trip_id = ctx.new_id("TRP")
    eta = ctx.now() + timedelta(minutes=minutes)
    ctx.db.execute("INSERT INTO trips (trip_id, started_at, ended_at, eta, from_place_id, from_name, to_place_id, "
                   "to_name, distance_mi, electric_kwh, fuel_gal, status) VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, "
                   "'in_progress')", (trip_id, ctx.now_iso(), iso(eta), from_id, from_name, dest["place_id"],
                                      place_label(dest), miles, kwh, gallons))
    ctx.db.execute("UPDATE vehicles SET active_trip_id = ?, place_id = NULL, parked_since = NULL", (trip_id,))
    log(ctx, "drive", f"Drive to {place_label(dest)} started ({miles:g} mi, arriving {iso(eta)[11:16]})")
    return _trip(ctx.get("trip", trip_id))


@tools.tool(effect=READ, asks=[
    "Where did I drive between {start_date} and {end_date}?",
    "Show me my last {limit} trips.",
    "How many miles did I drive since {start_date}?",
    "Show my trips to or from {place_id}.",
], values={"limit": [3, 5, 10]}, reply=[  # (as many as a reply reads out)
    Ask("You drove {result.total_distance_mi} miles in {result.trips_text}.", limit=20),
    "I found {result.trips_text}.",
])
def list_trips(ctx: Ctx, start_date: str | None = None, end_date: str | None = None,
               place_id: PlaceId | None = None, limit: Limit = 20) -> TripList:
    """List drives, newest first, with the distance, electric energy and fuel they used.

    Args:
        start_date: only trips that started on or after this day, such as '2026-03-09'.
        end_date: only trips that started on or before this day, such as '2026-03-15'.
        place_id: only trips to or from this place, such as 'PLC-10001'.
        limit: at most this many trips (1-200, default 20).

    Returns:
        The trips (from, to, start, end, distance, minutes, kWh, gallons, status), newest first,
        how many matched, and the totals over every match.

    Raises:
        not_found: `place_id` does not exist.
        invalid_date: `start_date` or `end_date` is not an ISO date.
        invalid_date_range: `start_date` is after `end_date`.
    """
    start = parse_date(start_date, "start_date") if start_date is not None else None
    end = parse_date(end_date, "end_date") if end_date is not None else None
    if start and end and start > end:
        raise ToolError("invalid_date_range", f"start_date {start} is after end_date {end}.",
                        hint="Give a start date on or before the end date.")
    where = Where()
    if start is not None:
        where.add("substr(started_at, 1, 10) >= ?", start.isoformat())
    if end is not None:
        where.add("substr(started_at, 1, 10) <= ?", end.isoformat())
    place = None
    if place_id is not None:
        place = ctx.get("place", place_id)
        where.add("(from_place_id = ? OR to_place_id = ?)", place_id, place_id)
    total, miles, kwh, gal = ctx.db.execute(
        f"SELECT count(*), coalesce(sum(distance_mi), 0), coalesce(sum(electric_kwh), 0), coalesce(sum(fuel_gal), 0) "
        f"FROM trips WHERE {where.sql}", where.params).fetchone()
    rows = ctx.db.execute(f"SELECT * FROM trips WHERE {where.sql} ORDER BY started_at DESC, trip_id DESC LIMIT ?",
                          (*where.params, limit)).fetchall()
    trips = [_trip(r) for r in rows]
    return TripList(trips=trips, total=total, total_distance_mi=round(miles, 1), total_electric_kwh=round(kwh, 2),
                    total_fuel_gal=round(gal, 2), trips_text=_trips_text(trips, total, place))


def _trips_text(trips: list[Trip], total: int, place: sqlite3.Row | None = None) -> str:
    """'145 trips, the latest: YMCA to Home on March 16 at 7:56 AM (3.6 miles, 10 minutes); ...', all
    of a listing of ten or fewer, else the first five; those of one `place` say it by its name and the
    nickname the trips use ('12 trips to or from Iron Energy ('Work'), the latest: Work to Home ...')."""
    said = []
    for t in trips[:len(trips) if len(trips) <= 10 else 5]:
        at = datetime.fromisoformat(t.started_at)
        fuel = f", {t.fuel_gal:.2f} gallons of fuel" if t.fuel_gal else ""
        said.append(f"{t.summary} on {at:%B} {at.day} at {at.hour % 12 or 12}:{at.minute:02d} "
                    f"{'AM' if at.hour < 12 else 'PM'} ({t.distance_mi:g} miles, {t.duration_min} minutes{fuel})")
    more = f"; and {total - len(said)} more" if total > len(said) and len(said) < len(trips) else ""
    head = f"{total} trip{'' if total == 1 else 's'}"
    if place is not None:
        nickname = place["nickname"]
        head += f" to or from {place['name']}" + (f" ('{nickname}')" if nickname and nickname != place["name"] else "")
    head += ", the latest" if total > len(said) else ""
    return f"{head}: " + "; ".join(said) + more if said else "no trips"


@tools.tool(effect=READ, asks=[
    "Where's my car?",
    "Where did I park?",
], reply=[
    "Your car is parked at {result.place_name} ({result.address}), since {result.parked_since}.",
    "Your car is on its way to {result.driving_to}; it should get there around {result.eta}.",
    Ask("Your car is parked at {result.latitude}, {result.longitude} (no saved place), since {result.parked_since}.",
        **{"result.place_id": None, "result.driving_to": None}),
])
def get_location(ctx: Ctx) -> Location:
    """Show where the car is: coordinates, the known place and address, or where it is driving to.

    Returns:
        Latitude and longitude, the place and address if it is at a known place, since when it
        is parked, or the destination and ETA while driving.
    """
    car = vehicle(ctx)
    place = ctx.get("place", car["place_id"]) if car["place_id"] else None
    trip = ctx.get("trip", car["active_trip_id"]) if car["active_trip_id"] else None
    return Location(latitude=car["lat"], longitude=car["lon"], place_id=car["place_id"],
                    place_name=place_label(place) if place else None, address=place["address"] if place else None,
                    parked_since=car["parked_since"], driving_to=trip["to_name"] if trip else None,
                    eta=trip["eta"] if trip else None)
