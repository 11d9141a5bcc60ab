"""Getting around: distances, routes, directions, travel modes, road closures and transit."""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from prove.env import READ, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso

from . import routing
from .routing import (
    WALK_KMH,
    WALK_ONLY_LIMIT,
    Grid,
    NoRoute,
    Segment,
    haversine,
    highway_mps,
)
from .server import (
    CityId,
    Closure,
    ClosureList,
    Departure,
    Departures,
    Directions,
    Distance,
    Limit,
    Mode,
    ModeComparison,
    ModeOption,
    LocalPlaceId,
    PlaceId,
    Route,
    Step,
    TransitLine,
    TransitLineList,
    coming,
    place_row,
    point,
    profile,
    spoken_time,
)
from .world import grid_latlon

tools = Toolset("routes")

HIGHWAY_DETOUR = 1.2   # road distance between cities over the straight line
STOP_RADIUS = 600.0    # how far a stop may be for get_departures
VERBS = {"driving": "Head", "walking": "Walk", "cycling": "Ride"}


@dataclass
class Plan:
    mode: str
    depart: datetime
    seconds: float
    distance: float
    steps: list[Step]
    summary: str
    warnings: list[str] = field(default_factory=list)
    fare: float | None = None
    transfers: int | None = None


def _clock(at: datetime) -> str:
    """A time as riders read it on a board: '2:01 PM'."""
    return f"{at:%I:%M %p}".lstrip("0")


def _step(text: str, metres: float, seconds: float) -> Step:
    return Step(instruction=text, distance_m=round(metres), duration_min=round(seconds / 60, 1))


def _via(segments: list[Segment]) -> str:
    by_street: dict[str, float] = {}
    for seg in segments:
        by_street[seg.street["name"]] = by_street.get(seg.street["name"], 0) + seg.length
    top = sorted(by_street, key=lambda n: -by_street[n])[:2]
    return "via " + " and ".join(top) if top else "direct"


def _points(grid: Grid, *rows: sqlite3.Row) -> dict[str, tuple[float, float]]:
    return {r["place_id"]: grid.point_xy(r["street_id"], r["block"], r["frac"]) for r in rows}


def _streets(ctx: Ctx, grid: Grid, mode: str, at: datetime, origin: sqlite3.Row, dest: sqlite3.Row) -> Plan:
    closures = routing.closed_blocks(ctx.db, grid.city_id, iso(at)) if mode != "walking" else {}
    pts = [point(origin), point(dest)]
    src, dst = ("p", origin["place_id"]), ("p", dest["place_id"])
    try:
        segs = routing.street_route(grid, mode, at, set(closures), pts, src, dst)
    except NoRoute:
        raise ToolError("no_route", f"No {mode} route from {origin['name']} to {dest['name']}: road closures "
                        "cut one of them off.", hint="Try walking, or a later depart_at (list_road_closures "
                        "shows when closures end).") from None
    warnings = []
    if closures:
        free = routing.street_route(grid, mode, at, set(), pts, src, dst)
        for key in sorted({(s.street["street_id"], s.block) for s in free} & set(closures)):
            c = closures[key]
            warnings.append(f"Detour: {c['street_name']} is closed between {_between(grid, c)} "
                            f"({c['reason']}) until {c['ends_at']}.")
    steps = [_step(s.instruction, s.distance_m, s.seconds)
             for s in routing.street_steps(grid, segs, _points(grid, origin, dest), VERBS[mode])]
    steps.append(_step(f"Arrive at {dest['name']}", 0, 0))
    return Plan(mode, at, sum(s.seconds for s in segs), sum(s.length for s in segs), steps, _via(segs), warnings)


def _between(grid: Grid, closure: sqlite3.Row) -> str:
    street = grid.streets[closure["street_id"]]
    a, b = grid.ends(street, closure["block"])
    other = "ew" if street["axis"] == "ns" else "ns"
    ia, ib = (a[2], b[2]) if street["axis"] == "ns" else (a[1], b[1])
    return f"{grid.by_axis[(other, ia)]['name']} and {grid.by_axis[(other, ib)]['name']}"


def _intercity(ctx: Ctx, at: datetime, origin: sqlite3.Row, dest: sqlite3.Row) -> Plan:
    ga, gb = Grid(ctx.db, origin["city_id"]), Grid(ctx.db, dest["city_id"])
    ramp_a = ("n", ga.city["highway_i"], ga.city["highway_j"])
    ramp_b = ("n", gb.city["highway_i"], gb.city["highway_j"])
    try:
        first = routing.street_route(ga, "driving", at, set(routing.closed_blocks(ctx.db, ga.city_id, iso(at))),
                                     [point(origin)], ("p", origin["place_id"]), ramp_a)
        t1 = at + timedelta(seconds=sum(s.seconds for s in first))
        centre_a = grid_latlon(ga.city, (ga.nx - 1) * ga.sx / 2, (ga.ny - 1) * ga.sy / 2)
        centre_b = grid_latlon(gb.city, (gb.nx - 1) * gb.sx / 2, (gb.ny - 1) * gb.sy / 2)
        highway = haversine(*centre_a, *centre_b) * HIGHWAY_DETOUR
        hw_seconds = highway / highway_mps(t1)
        t2 = t1 + timedelta(seconds=hw_seconds)
        last = routing.street_route(gb, "driving", t2, set(routing.closed_blocks(ctx.db, gb.city_id, iso(t2))),
                                    [point(dest)], ramp_b, ("p", dest["place_id"]))
    except NoRoute:
        raise ToolError("no_route", f"No driving route from {origin['name']} to {dest['name']}: road closures cut "
                        "one of them off.", hint="Try a later depart_at (list_road_closures shows when closures "
                        "end).") from None
    steps = [_step(s.instruction, s.distance_m, s.seconds)
             for s in routing.street_steps(ga, first, _points(ga, origin), "Head")]
    steps.append(_step(f"Take {ga.city['highway']} from {ga.corner(ramp_a[1], ramp_a[2])} toward {gb.city['name']} "
                       f"for {highway / 1000:.0f} km and exit at {gb.corner(ramp_b[1], ramp_b[2])}",
                       highway, hw_seconds))
    steps += [_step(s.instruction, s.distance_m, s.seconds)
              for s in routing.street_steps(gb, last, _points(gb, dest), "Head")]
    steps.append(_step(f"Arrive at {dest['name']}", 0, 0))
    seconds = sum(s.seconds for s in first) + hw_seconds + sum(s.seconds for s in last)
    metres = sum(s.length for s in first) + highway + sum(s.length for s in last)
    return Plan("driving", at, seconds, metres, steps, f"via {ga.city['highway']}")


def _transit(ctx: Ctx, grid: Grid, at: datetime, origin: sqlite3.Row, dest: sqlite3.Row) -> Plan:
    trip = routing.transit_plan(grid, ctx.db, at, point(origin), point(dest))
    walk = _streets(ctx, grid, "walking", at, origin, dest)
    walk_only = trip is None or walk.seconds <= (trip.arrive - at).total_seconds()
    if walk_only:
        if trip is None and walk.distance > WALK_ONLY_LIMIT:
            raise ToolError("no_route", f"No transit from {origin['name']} to {dest['name']} at {iso(at)}: no line "
                            "runs then, or no stop is within walking distance.",
                            hint="Try driving, or another depart_at (list_transit_lines shows service hours).")
        walk.mode = "transit"
        walk.warnings.append("Walking is faster than any transit option." if trip is not None
                             else "No transit runs at that time; this is the walking route.")
        walk.fare, walk.transfers = 0.0, 0
        return walk
    mps = WALK_KMH / 3.6
    steps, metres = [], trip.walk_in + trip.walk_out
    first_stop = trip.rides[0].line.order(trip.rides[0].direction)[0][trip.rides[0].board]
    steps.append(_step(f"Walk {trip.walk_in:.0f} m to the {grid.corner(first_stop[1], first_stop[2])} stop",
                       trip.walk_in, trip.walk_in / mps))
    for ride in trip.rides:
        stops, _ = ride.line.order(ride.direction)
        board, alight = stops[ride.board], stops[ride.alight]
        ride_m = abs(board[1] - alight[1]) * grid.sx + abs(board[2] - alight[2]) * grid.sy
        metres += ride_m
        steps.append(_step(
            f"Take the {ride.line.row['name']} ({ride.line.row['mode']}) "
            f"toward {grid.corner(stops[-1][1], stops[-1][2])} "
            f"at {_clock(ride.depart)}; ride {_stops(ride.alight - ride.board)} to {grid.corner(alight[1], alight[2])}, "
            f"arriving {_clock(ride.arrive)}", ride_m, (ride.arrive - ride.depart).total_seconds()))
    steps.append(_step(f"Walk {trip.walk_out:.0f} m to {dest['name']}", trip.walk_out, trip.walk_out / mps))
    steps.append(_step(f"Arrive at {dest['name']}", 0, 0))
    names = list(dict.fromkeys(r.line.row["name"] for r in trip.rides))
    return Plan("transit", at, (trip.arrive - at).total_seconds(), metres, steps, "via " + ", ".join(names),
                fare=round(sum(r.line.row["fare"] for r in trip.rides), 2), transfers=len(trip.rides) - 1)


def _stops(n: int) -> str:
    return "1 stop" if n == 1 else f"{n} stops"


def plan(ctx: Ctx, origin: sqlite3.Row, dest: sqlite3.Row, mode: str, at: datetime) -> Plan:
    if origin["place_id"] == dest["place_id"]:
        raise ToolError("same_place", "The origin and the destination are the same place.",
                        hint="Pick two different places.")
    if origin["city_id"] != dest["city_id"]:
        if mode in ("walking", "cycling"):
            raise ToolError("too_far", f"{origin['name']} and {dest['name']} are in different cities; too far to "
                            f"go {mode}.", hint="Drive between cities.")
        if mode == "transit":
            raise ToolError("no_route", "There is no transit between cities on this map.", hint="Drive between cities.")
        return _intercity(ctx, at, origin, dest)
    grid = Grid(ctx.db, origin["city_id"])
    if mode == "transit":
        return _transit(ctx, grid, at, origin, dest)
    return _streets(ctx, grid, mode, at, origin, dest)


HEADINGS = {"N": "north", "NE": "northeast", "E": "east", "SE": "southeast", "S": "south", "SW": "southwest",
            "W": "west", "NW": "northwest"}


def _endpoints(ctx: Ctx, origin_place_id: str | None, destination_place_id: str) -> tuple[sqlite3.Row, sqlite3.Row]:
    origin = place_row(ctx, origin_place_id or profile(ctx)["home_place_id"])
    return origin, place_row(ctx, destination_place_id)


def _route(origin: sqlite3.Row, dest: sqlite3.Row, p: Plan) -> dict:
    return {"mode": p.mode, "origin_place_id": origin["place_id"], "origin_name": origin["name"],
            "destination_place_id": dest["place_id"], "destination_name": dest["name"],
            "distance_m": round(p.distance), "distance_km": round(p.distance / 1000, 1),
            "duration_min": max(1, math.ceil(p.seconds / 60)), "depart_at": iso(p.depart),
            "arrive_at": iso(p.depart + timedelta(seconds=round(p.seconds))), "summary": p.summary,
            "warnings": p.warnings, "fare": p.fare, "transfers": p.transfers}


@tools.tool(effect=READ, asks=[
    "How far is {destination_place_id} from {origin_place_id} as the crow flies?",
    "What's the straight-line distance from home to {destination_place_id}?",
], reply=[
    # the origin as the user said it: their home where none was given, else by name
    Ask("{result.destination_name} is {result.miles} miles ({result.km} km) {result.heading} of your home as the crow "
        "flies.", origin_place_id=None),
    Ask("As the crow flies, {result.destination_name} is {result.km} km ({result.miles} miles) {result.heading} of "
        "your home.", origin_place_id=None),
    "{result.destination_name} is {result.miles} miles ({result.km} km) {result.heading} of {result.origin_name} as "
    "the crow flies.",
    "As the crow flies, {result.destination_name} is {result.km} km ({result.miles} miles) {result.heading} of "
    "{result.origin_name}.",
])
def get_distance(ctx: Ctx, destination_place_id: LocalPlaceId, origin_place_id: LocalPlaceId | None = None) -> Distance:
    """The straight-line (great-circle) distance and compass direction between two places.

    Args:
        destination_place_id: ID of the place to measure to, such as 'PLC-10005'.
        origin_place_id: ID of the place to measure from, such as 'PLC-10001'; default the user's home.

    Returns:
        The distance in metres, kilometres and miles, the bearing and compass direction from the
        origin, and whether both are in the same city.

    Raises:
        not_found: a place does not exist.
        same_place: the origin and the destination are the same place.
    """
    origin, dest = _endpoints(ctx, origin_place_id, destination_place_id)
    if origin["place_id"] == dest["place_id"]:
        raise ToolError("same_place", "The origin and the destination are the same place.", hint="Pick two places.")
    metres = haversine(origin["lat"], origin["lon"], dest["lat"], dest["lon"])
    deg = routing.bearing(origin["lat"], origin["lon"], dest["lat"], dest["lon"])
    return Distance(origin_place_id=origin["place_id"], origin_name=origin["name"],
                    destination_place_id=dest["place_id"], destination_name=dest["name"],
                    straight_line_m=round(metres), km=round(metres / 1000, 2), miles=round(metres / 1609.344, 2),
                    bearing_deg=round(deg) % 360, direction=routing.compass(deg), heading=HEADINGS[routing.compass(deg)],
                    same_city=origin["city_id"] == dest["city_id"])


@tools.tool(effect=READ, asks=[
    "How long does it take to get to {destination_place_id} by {mode}?",
    "If I leave {origin_place_id} at {depart_at}, when do I get to {destination_place_id} by {mode}?",
    Ask("How far is the drive from home to {destination_place_id}?", mode="driving"),
    Ask("How long would it take me to walk from {origin_place_id} to {destination_place_id}?", mode="walking"),
], reply=[
    Ask("The drive from {result.origin_said} to {result.destination_name} is {result.distance_km} km and takes about "
        "{result.duration_min} minutes; you'd get there at {result.arrive_at}.", mode="driving"),
    Ask("Walking from {result.origin_said} to {result.destination_name} is {result.distance_km} km, about "
        "{result.duration_min} minutes; you'd arrive at {result.arrive_at}.", mode="walking"),
    Ask("By bike it's {result.distance_km} km from {result.origin_said} to {result.destination_name}, about "
        "{result.duration_min} minutes; you'd arrive at {result.arrive_at}.", mode="cycling"),
    Ask("By transit it takes about {result.duration_min} minutes from {result.origin_said} to "
        "{result.destination_name} ({result.summary}); you'd arrive at {result.arrive_at}.", mode="transit"),
])
def get_route(ctx: Ctx, destination_place_id: LocalPlaceId, origin_place_id: LocalPlaceId | None = None,
              mode: Mode = "driving", depart_at: str | None = None) -> Route:
    """The fastest route between two places by car, on foot, by bicycle or by transit, with its time and distance.

    Driving uses live road closures and rush-hour traffic at the departure time; cars and bicycles
    keep to one-way streets; transit walks to subway and bus stops and waits for departures.

    Args:
        destination_place_id: ID of the place to go to, such as 'PLC-10005'.
        origin_place_id: ID of the place to start from, such as 'PLC-10001'; default the user's home.
        mode: 'driving' (default), 'walking', 'cycling' or 'transit'.
        depart_at: local departure time, from now up to 90 days ahead, such as '2026-03-16T17:30';
            default now.

    Returns:
        The route: distance, duration in minutes, departure and arrival times, the main streets
        or lines used, warnings (closures avoided, walking is faster, no service), and for
        transit the fare and number of transfers.

    Raises:
        not_found: a place does not exist.
        same_place: the origin and the destination are the same place.
        too_far: walking or cycling between two cities.
        no_route: road closures cut a place off for cars or bicycles, or no transit runs (and the
            walk is longer than 2.5 km), or transit between cities.
        invalid_time: depart_at is not a date and time or is more than 90 days ahead.
        past_time: depart_at is in the past.
    """
    origin, dest = _endpoints(ctx, origin_place_id, destination_place_id)
    at = coming(ctx, depart_at)
    return Route(**_route(origin, dest, plan(ctx, origin, dest, mode, at)),
                 origin_said="your home" if origin_place_id is None else origin["name"])


@tools.tool(effect=READ, asks=[
    "Give me step-by-step {mode} directions to {destination_place_id}.",
    "How do I get from {origin_place_id} to {destination_place_id} by {mode}? Walk me through it.",
    Ask("Which trains or buses do I take to {destination_place_id}, leaving at {depart_at}?", mode="transit"),
], reply=[
    Ask("Driving from {result.origin_said} to {result.destination_name} ({result.distance_km} km, about "
        "{result.duration_min} minutes): {result.in_words}.", mode="driving"),
    Ask("On foot from {result.origin_said} to {result.destination_name} ({result.distance_km} km, about "
        "{result.duration_min} minutes): {result.in_words}.", mode="walking"),
    Ask("By bike from {result.origin_said} to {result.destination_name} ({result.distance_km} km, about "
        "{result.duration_min} minutes): {result.in_words}.", mode="cycling"),
    Ask("By transit from {result.origin_said} to {result.destination_name} (about {result.duration_min} minutes): "
        "{result.in_words}.", mode="transit"),
])
def get_directions(ctx: Ctx, destination_place_id: LocalPlaceId, origin_place_id: LocalPlaceId | None = None,
                   mode: Mode = "driving", depart_at: str | None = None) -> Directions:
    """Turn-by-turn directions between two places by car, on foot, by bicycle or by transit.

    Args:
        destination_place_id: ID of the place to go to, such as 'PLC-10005'.
        origin_place_id: ID of the place to start from, such as 'PLC-10001'; default the user's home.
        mode: 'driving' (default), 'walking', 'cycling' or 'transit'.
        depart_at: local departure time, from now up to 90 days ahead, such as '2026-03-16T17:30';
            default now.

    Returns:
        The route as get_route gives it, plus the steps: each instruction ('Turn left onto Maple
        Street', 'Take the Red Line toward ...'), with its distance and minutes.

    Raises:
        not_found: a place does not exist.
        same_place: the origin and the destination are the same place.
        too_far: walking or cycling between two cities.
        no_route: road closures cut a place off for cars or bicycles, or no transit runs (and the
            walk is longer than 2.5 km), or transit between cities.
        invalid_time: depart_at is not a date and time or is more than 90 days ahead.
        past_time: depart_at is in the past.
    """
    origin, dest = _endpoints(ctx, origin_place_id, destination_place_id)
    at = coming(ctx, depart_at)
    p = plan(ctx, origin, dest, mode, at)
    words = _in_words(p.steps)
    if p.mode == "transit" and not p.fare and p.warnings:  # no line is worth taking: say so before the walk
        words = f"{p.warnings[-1].rstrip('.')}; {words[:1].lower()}{words[1:]}"
    return Directions(**_route(origin, dest, p), steps=p.steps, in_words=words,
                      origin_said="your home" if origin_place_id is None else origin["name"])


def _in_words(steps: list[Step]) -> str:
    """'Head north on Oak Street for 400 m, turn left onto Main Street for 1.2 km, then arrive at Café Rio'."""
    parts = []
    if len(steps) > 1 and steps[-1].instruction.startswith("Arrive at ") \
            and steps[-2].instruction.endswith(" to " + steps[-1].instruction[len("Arrive at "):]):
        steps = steps[:-1]  # "walk 125 m to Copper Parking" arrives already
    for n, s in enumerate(steps):
        text = s.instruction if n == 0 else s.instruction[:1].lower() + s.instruction[1:]
        if s.distance_m and not any(c.isdigit() for c in s.instruction):
            text += f" for {s.distance_m} m" if s.distance_m < 1000 else f" for {s.distance_m / 1000:.1f} km"
        parts.append(text)
    if len(parts) > 1:
        parts[-1] = "then " + parts[-1]
    return ", ".join(parts)


@tools.tool(effect=READ, asks=[
    "What's the fastest way to get to {destination_place_id}?",
    "Compare driving, walking, biking and transit from {origin_place_id} to {destination_place_id} at {depart_at}.",
], reply=[
    "Of the {result.options} ways to {result.destination_name}, {result.fastest} is the fastest: about "
    "{result.fastest_min} minutes, arriving at {result.fastest_arrive_at}.",
])
def compare_travel_modes(ctx: Ctx, destination_place_id: LocalPlaceId, origin_place_id: LocalPlaceId | None = None,
                         depart_at: str | None = None) -> ModeComparison:
    """Compare the travel time of every mode (driving, walking, cycling, transit) between two places.

    Args:
        destination_place_id: ID of the place to go to, such as 'PLC-10005'.
        origin_place_id: ID of the place to start from, such as 'PLC-10001'; default the user's home.
        depart_at: local departure time, from now up to 90 days ahead, such as '2026-03-16T17:30';
            default now.

    Returns:
        For each mode: whether it is available, its duration, distance and arrival time, or why
        not; and the fastest available mode.

    Raises:
        not_found: a place does not exist.
        same_place: the origin and the destination are the same place.
        invalid_time: depart_at is not a date and time or is more than 90 days ahead.
        past_time: depart_at is in the past.
    """
    origin, dest = _endpoints(ctx, origin_place_id, destination_place_id)
    if origin["place_id"] == dest["place_id"]:
        raise ToolError("same_place", "The origin and the destination are the same place.", hint="Pick two places.")
    at = coming(ctx, depart_at)
    options = []
    for mode in ("driving", "walking", "cycling", "transit"):
        try:
            r = _route(origin, dest, plan(ctx, origin, dest, mode, at))
        except ToolError as exc:
            options.append(ModeOption(mode=mode, available=False, duration_min=None, distance_m=None, arrive_at=None,
                                      reason=exc.message))
            continue
        options.append(ModeOption(mode=mode, available=True, duration_min=r["duration_min"],
                                  distance_m=r["distance_m"], arrive_at=r["arrive_at"], reason=None))
    usable = [o for o in options if o.available]
    best = min(usable, key=lambda o: o.duration_min or 0) if usable else None
    return ModeComparison(origin_place_id=origin["place_id"], destination_place_id=dest["place_id"],
                          destination_name=dest["name"], depart_at=iso(at), options=options,
                          fastest=best.mode if best else None, fastest_min=best.duration_min if best else None,
                          fastest_arrive_at=best.arrive_at if best else None)


# ----- closures and transit -----------------------------------------------------------------------------------

@tools.tool(effect=READ, asks=[
    "Are there any road closures in {city_id}?",
    "What roads are closed or about to close in {city_id}?",
    Ask("Which roads in {city_id} are closed at this moment?", active_only=True),
], reply=[
    "In {city_id}: {result.closures_text}.",
    Ask("{result.closures_text}.", city_id=None),
])
def list_road_closures(ctx: Ctx, city_id: CityId | None = None, active_only: bool = False) -> ClosureList:
    """List road closures that have not ended yet (active now or coming up), soonest first.

    Args:
        city_id: only closures in this city, such as 'CTY-10001'.
        active_only: only closures in effect right now (default false).

    Returns:
        The closures: street, the block's two cross streets, start and end, reason and whether it
        is active now; and the total.

    Raises:
        not_found: city_id is given and no city has that ID.
    """
    now = ctx.now_iso()
    where = Where()
    where.add("c.ends_at > ?", now)
    where.entity(ctx, "city", "s.city_id", city_id)
    if active_only:
        where.add("c.starts_at <= ?", now)
    grids: dict[str, Grid] = {}
    out = []
    for r in ctx.db.execute("SELECT c.*, s.city_id, s.name AS street_name FROM road_closures c "
                            f"JOIN streets s ON s.street_id = c.street_id WHERE {where.sql} "
                            "ORDER BY c.starts_at, c.closure_id", where.params).fetchall():
        grid = grids.setdefault(r["city_id"], Grid(ctx.db, r["city_id"]))
        between = _between(grid, r)
        out.append(Closure(closure_id=r["closure_id"],
                           summary=f"{r['street_name']} between {between}, for {r['reason']}",
                           city_id=r["city_id"], street=r["street_name"],
                           between=between, starts_at=r["starts_at"], ends_at=r["ends_at"],
                           reason=r["reason"], active_now=r["starts_at"] <= now))
    return ClosureList(closures=out, total=len(out), closures_text=_closures_text(out, ctx.now()))


def _closures_text(closures: list[Closure], now: datetime) -> str:
    """'Central Avenue between Hill Street and Church Street is closed for building construction until
    April 1 at 9:00 AM; Union Street between ... closes for a farmers market from March 18 at 7:00 AM
    to March 21 at 5:00 PM'."""
    said = []
    for c in closures:
        starts, ends = datetime.fromisoformat(c.starts_at), datetime.fromisoformat(c.ends_at)
        block, why = f"{c.street} between {c.between}", _EVENTS.get(c.reason, c.reason)
        if c.active_now:
            until = spoken_time(ends, now) + (" today" if ends.date() == now.date() else "")
            said.append(f"{block} is closed for {why} until {until}")
        else:
            said.append(f"{block} closes for {why} from {spoken_time(starts, now)} to {spoken_time(ends, now)}")
    return "; ".join(said)


# a closure for an event is for "a parade", not for "parade"
_EVENTS = {"street festival": "a street festival", "marathon route": "a marathon", "film shoot": "a film shoot",
           "parade": "a parade", "farmers market": "a farmers market"}


@tools.tool(effect=READ, asks=[
    "What subway and bus lines are there in {city_id}?",
    "Which transit lines run in {city_id} and how often?",
], reply=[
    "{city_id} has {result.total} lines: {result.lines_text}.",
])
def list_transit_lines(ctx: Ctx, city_id: CityId) -> TransitLineList:
    """List a city's subway and bus lines with their stops, frequency, service hours and fare.

    Args:
        city_id: ID of the city, such as 'CTY-10001'.

    Returns:
        Each line's ID, name, mode, street, stops (intersections, in order), minutes between
        departures, first and last departure from the first stop ('24:30' is 00:30 the next day),
        whether it runs on weekdays only, fare and whether it is running now; and the total.

    Raises:
        not_found: no city has that ID.
    """
    ctx.get("city", city_id)
    grid = Grid(ctx.db, city_id)
    out = []
    for line in routing.load_lines(ctx.db, grid):
        nxt = routing.next_departure(line, 1, 0, ctx.now())
        running = nxt is not None and nxt - ctx.now() <= timedelta(minutes=line.row["headway_min"])
        out.append(TransitLine(line_id=line.row["line_id"], city_id=city_id, name=line.row["name"],
                               mode=line.row["mode"], street=grid.streets[line.row["street_id"]]["name"],
                               stops=line.names, headway_min=line.row["headway_min"],
                               first_departure=line.row["first_departure"], last_departure=line.row["last_departure"],
                               weekdays_only=bool(line.row["weekdays_only"]), fare=line.row["fare"],
                               running_now=running))
    return TransitLineList(lines=out, total=len(out), lines_text="; ".join(_line_words(line) for line in out))


def _timetable_clock(hhmm: str) -> str:
    """'05:30' -> '5:30 AM', '24:30' (past midnight) -> '12:30 AM'."""
    hour, minute = int(hhmm[:2]) % 24, hhmm[3:5]
    return f"{hour % 12 or 12}:{minute} {'AM' if hour < 12 else 'PM'}"


def _line_words(line: TransitLine) -> str:
    """'the Orange Line (subway) runs along Harrison Avenue every 8 minutes, 5:30 AM to 12:30 AM'."""
    days = " on weekdays" if line.weekdays_only else ""
    name = line.name if line.name.lower().startswith(line.mode) else f"the {line.name} ({line.mode})"
    return (f"{name} runs along {line.street} every {line.headway_min} minutes{days}, "
            f"{_timetable_clock(line.first_departure)} to {_timetable_clock(line.last_departure)}")


@tools.tool(effect=READ, asks=[
    "When is the next train or bus near {place_id}?",
    "What transit leaves near {place_id} after {at}?",
], reply=["The next departures near {result.place_name}: {result.departures_text}."])
def get_departures(ctx: Ctx, place_id: PlaceId, at: str | None = None, limit: Limit = 10) -> Departures:
    """The next subway and bus departures from stops within 600 m of a place, soonest first.

    Args:
        place_id: ID of the place, such as 'PLC-10001'.
        at: list departures from this local time, up to 90 days ahead, such as '2026-03-16T18:00';
            default now.
        limit: the most departures to return, 1 to 50, such as 10.

    Returns:
        Departures (line, mode, stop, direction, time and walking distance to the stop), soonest
        first, and how many were found (the next two per line, direction and stop).

    Raises:
        not_found: no place has that ID.
        invalid_time: `at` is not a date and time or is more than 90 days ahead.
        past_time: `at` is in the past.
    """
    row = place_row(ctx, place_id)
    when = coming(ctx, at, "at")
    grid = Grid(ctx.db, row["city_id"])
    px, py = grid.point_xy(row["street_id"], row["block"], row["frac"])
    found = []
    for line in routing.load_lines(ctx.db, grid):
        for direction in (1, -1):
            stops, _ = line.order(direction)
            for k, node in enumerate(stops[:-1]):
                walk = abs(node[1] * grid.sx - px) + abs(node[2] * grid.sy - py)
                if walk > STOP_RADIUS:
                    continue
                t = when + timedelta(seconds=walk / (WALK_KMH / 3.6))
                for _ in range(2):
                    dep = routing.next_departure(line, direction, k, t)
                    if dep is None:
                        break
                    found.append(Departure(line_id=line.row["line_id"], line_name=line.row["name"],
                                           mode=line.row["mode"], stop=grid.corner(node[1], node[2]),
                                           toward=grid.corner(stops[-1][1], stops[-1][2]), departs_at=iso(dep),
                                           walk_m=round(walk)))
                    t = dep + timedelta(seconds=1)
    found.sort(key=lambda d: (d.departs_at, d.line_id, d.stop))
    return Departures(place_id=place_id, place_name=row["name"], after=iso(when), departures=found[:limit],
                      total=len(found), departures_text=_departures_text(found[:limit], when))


def _departures_text(departures: list[Departure], when: datetime, shown: int = 4) -> str:
    """'the Silver Line (subway) at 9:01 AM from Pine Street & Madison Avenue toward Pine Street &
    Grand Avenue; Bus 47 at 9:10 AM from ...; and 6 more'."""
    said = []
    for d in departures[:shown]:
        line = d.line_name if d.mode in d.line_name.lower() else f"the {d.line_name} ({d.mode})"
        said.append(f"{line} at {spoken_time(datetime.fromisoformat(d.departs_at), when)} from {d.stop} "
                    f"toward {d.toward}")
    if not said:
        return "no departures from stops nearby"
    more = f"; and {len(departures) - len(said)} more" if len(departures) > len(said) else ""
    return "; ".join(said) + more

