"""Routing over the synthetic street grids: road graphs per travel mode, shortest paths, transit.

Pure functions over the server's database and the simulated time; nothing here writes. A city's
street grid (see `schema.sql`) becomes a graph whose nodes are intersections ('n', i, j) and
the places a route starts or ends at ('p', key), inserted into their block of street.

Speeds (km/h): driving 45 on arterials and 30 on local streets, 22 and 18 in weekday rush hours
(07:00-09:30, 16:00-19:00), 55 and 35 at night (22:00-06:00); 100 on the interstate between
cities (70 in rush hours); cycling 15; walking 4.8. Cars and bicycles keep to one-way streets and
avoid closed blocks; pedestrians walk both ways and pass closures.
"""

from __future__ import annotations

import heapq
import math
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .world import METERS_PER_DEGREE, place_xy

Node = tuple[Any, ...]
WALK_KMH = 4.8
CYCLE_KMH = 15.0
TRANSIT_WALK_LIMIT = 1000.0   # the longest walk to or from a stop, in metres
WALK_ONLY_LIMIT = 2500.0      # transit falls back to walking only up to this distance
MAX_WAIT = timedelta(minutes=60)  # nobody waits longer than this at a stop
HEADINGS = ("north", "east", "south", "west")


def haversine(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in metres."""
    r = 6_371_000.0
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(min(1.0, math.sqrt(a)))


def bearing(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Initial compass bearing from the first point to the second, 0-360 degrees."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    x = math.sin(dl) * math.cos(p2)
    y = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return (math.degrees(math.atan2(x, y)) + 360) % 360


def compass(degrees: float) -> str:
    return ("N", "NE", "E", "SE", "S", "SW", "W", "NW")[int((degrees + 22.5) // 45) % 8]


def rush(at: datetime) -> bool:
    minutes = at.hour * 60 + at.minute
    return at.weekday() < 5 and (7 * 60 <= minutes < 9 * 60 + 30 or 16 * 60 <= minutes < 19 * 60)


def night(at: datetime) -> bool:
    return at.hour >= 22 or at.hour < 6


def speed_mps(mode: str, road_class: str, at: datetime) -> float:
    if mode == "walking":
        kmh = WALK_KMH
    elif mode == "cycling":
        kmh = CYCLE_KMH
    elif rush(at):
        kmh = 22.0 if road_class == "arterial" else 18.0
    elif night(at):
        kmh = 55.0 if road_class == "arterial" else 35.0
    else:
        kmh = 45.0 if road_class == "arterial" else 30.0
    return kmh / 3.6


def highway_mps(at: datetime) -> float:
    return (70.0 if rush(at) else 100.0) / 3.6


# ----- the grid ------------------------------------------------------------------------------------

class Grid:
    """One city's street grid, read from the database."""

    def __init__(self, db: sqlite3.Connection, city_id: str) -> None:
        row = db.execute("SELECT * FROM cities WHERE city_id = ?", (city_id,)).fetchone()
        self.city = dict(row)
        self.city_id = city_id
        self.streets = {r["street_id"]: dict(r) for r in db.execute("SELECT * FROM streets WHERE city_id = ?",
                                                                     (city_id,))}
        self.by_axis = {(s["axis"], s["idx"]): s for s in self.streets.values()}
        self.nx, self.ny = self.city["nx"], self.city["ny"]
        self.sx, self.sy = self.city["spacing_x"], self.city["spacing_y"]

    def blocks(self, street: dict[str, Any]) -> int:
        return (self.nx if street["axis"] == "ew" else self.ny) - 1

    def node_xy(self, node: Node, points: dict[str, tuple[float, float]]) -> tuple[float, float]:
        if node[0] == "n":
            return node[1] * self.sx, node[2] * self.sy
        return points[node[1]]

    def latlon(self, x: float, y: float) -> tuple[float, float]:
        lat = self.city["lat0"] + y / METERS_PER_DEGREE
        lon = self.city["lon0"] + x / (METERS_PER_DEGREE * math.cos(math.radians(self.city["lat0"])))
        return round(lat, 6), round(lon, 6)

    def xy(self, lat: float, lon: float) -> tuple[float, float]:
        y = (lat - self.city["lat0"]) * METERS_PER_DEGREE
        x = (lon - self.city["lon0"]) * METERS_PER_DEGREE * math.cos(math.radians(self.city["lat0"]))
        return x, y

    def corner(self, i: int, j: int) -> str:
        """The name of an intersection: 'Maple Street & Lincoln Avenue'."""
        return f"{self.by_axis[('ew', j)]['name']} & {self.by_axis[('ns', i)]['name']}"

    def ends(self, street: dict[str, Any], block: int) -> tuple[Node, Node]:
        """The intersections at the low and high end of a block."""
        if street["axis"] == "ns":
            return ("n", street["idx"], block), ("n", street["idx"], block + 1)
        return ("n", block, street["idx"]), ("n", block + 1, street["idx"])

    def length(self, street: dict[str, Any]) -> float:
        return self.sy if street["axis"] == "ns" else self.sx

    def point_xy(self, street_id: int, block: int, frac: float) -> tuple[float, float]:
        """A point on the centre line of a block."""
        street = self.streets[street_id]
        x, y = place_xy(self.city, street, block, frac, "left")
        return (x, street["idx"] * self.sy) if street["axis"] == "ew" else (street["idx"] * self.sx, y)


@dataclass(frozen=True)
class Point:
    """Where a route starts or ends: a place on a block."""

    key: str
    street_id: int
    block: int
    frac: float


@dataclass
class Edge:
    to: Node
    length: float
    street: dict[str, Any]
    block: int


def build_graph(grid: Grid, mode: str, closed: set[tuple[int, int]], points: Iterable[Point]) -> dict[Node, list[Edge]]:
    """The graph of a mode: directed edges with lengths, places spliced into their blocks."""
    splits: dict[tuple[int, int], list[tuple[float, str]]] = {}
    for p in points:
        splits.setdefault((p.street_id, p.block), []).append((p.frac, p.key))
    adj: dict[Node, list[Edge]] = {}
    for street in grid.streets.values():
        for block in range(grid.blocks(street)):
            u, v = grid.ends(street, block)
            inner = sorted(splits.get((street["street_id"], block), []))
            chain = [(0.0, u)] + [(f, ("p", k)) for f, k in inner] + [(1.0, v)]
            forward = backward = True
            if mode != "walking":
                if (street["street_id"], block) in closed:
                    forward = backward = False
                elif street["oneway"] == 1:
                    backward = False
                elif street["oneway"] == -1:
                    forward = False
            full = grid.length(street)
            for (fa, a), (fb, b) in zip(chain, chain[1:]):
                seg = (fb - fa) * full
                if forward:
                    adj.setdefault(a, []).append(Edge(b, seg, street, block))
                if backward:
                    adj.setdefault(b, []).append(Edge(a, seg, street, block))
    return adj


def dijkstra(adj: dict[Node, list[Edge]], source: Node,
             cost) -> tuple[dict[Node, float], dict[Node, tuple[Node, Edge]]]:  # noqa: ANN001
    """Least-cost distances from `source`; `cost(edge)` is an edge's cost."""
    dist: dict[Node, float] = {source: 0.0}
    prev: dict[Node, tuple[Node, Edge]] = {}
    heap: list[tuple[float, int, Node]] = [(0.0, 0, source)]
    tie = 0
    while heap:
        d, _, node = heapq.heappop(heap)
        if d > dist.get(node, math.inf):
            continue
        for edge in adj.get(node, ()):
            nd = d + cost(edge)
            if nd < dist.get(edge.to, math.inf) - 1e-9:
                dist[edge.to] = nd
                prev[edge.to] = (node, edge)
                tie += 1
                heapq.heappush(heap, (nd, tie, edge.to))
    return dist, prev


@dataclass
class Segment:
    start: Node
    end: Node
    street: dict[str, Any]
    block: int
    length: float
    seconds: float


def path(prev: dict[Node, tuple[Node, Edge]], source: Node, target: Node, mode: str, at: datetime) -> list[Segment]:
    out: list[Segment] = []
    node = target
    while node != source:
        before, edge = prev[node]
        out.append(Segment(before, node, edge.street, edge.block, edge.length,
                           edge.length / speed_mps(mode, edge.street["road_class"], at)))
        node = before
    return out[::-1]


def closed_blocks(db: sqlite3.Connection, city_id: str, at: str) -> dict[tuple[int, int], sqlite3.Row]:
    """Blocks of the city closed to traffic at `at` (ISO text), with their closure."""
    rows = db.execute("SELECT c.*, s.name AS street_name FROM road_closures c "
                      "JOIN streets s ON s.street_id = c.street_id "
                      "WHERE s.city_id = ? AND c.starts_at <= ? AND c.ends_at > ?", (city_id, at, at))
    return {(r["street_id"], r["block"]): r for r in rows}


class NoRoute(Exception):
    """No route exists for the mode (a closure cuts the place off, no transit runs, ...)."""


def street_route(grid: Grid, mode: str, at: datetime, closed: set[tuple[int, int]], points: list[Point],
                 src: Node, dst: Node) -> list[Segment]:
    """Fastest route within one city from `src` to `dst` (places in `points` spliced into the graph)."""
    adj = build_graph(grid, mode, closed, points)
    _, prev = dijkstra(adj, src, lambda e: e.length / speed_mps(mode, e.street["road_class"], at))
    if dst not in prev and dst != src:
        raise NoRoute()
    return path(prev, src, dst, mode, at)


# ----- directions ------------------------------------------------------------------------------------

@dataclass
class Step:
    instruction: str
    street: str | None
    distance_m: float
    seconds: float


def _heading(grid: Grid, seg: Segment, points: dict[str, tuple[float, float]]) -> int:
    (x1, y1), (x2, y2) = grid.node_xy(seg.start, points), grid.node_xy(seg.end, points)
    if abs(x2 - x1) >= abs(y2 - y1):
        return 1 if x2 > x1 else 3
    return 0 if y2 > y1 else 2


def street_steps(grid: Grid, segments: list[Segment], points: dict[str, tuple[float, float]], verb: str = "Head"
                 ) -> list[Step]:
    """Turn-by-turn steps: one per street followed, with turns between them."""
    steps: list[Step] = []
    last_heading = None
    groups: list[list[Segment]] = []
    for seg in segments:
        if seg.length <= 0:
            continue
        if groups and groups[-1][-1].street["street_id"] == seg.street["street_id"]:
            groups[-1].append(seg)
        else:
            groups.append([seg])
    for group in groups:
        heading = _heading(grid, group[0], points)
        name = group[0].street["name"]
        if last_heading is None:
            text = f"{verb} {HEADINGS[heading]} on {name}"
        else:
            turn = (heading - last_heading) % 4
            text = {0: f"Continue onto {name}", 1: f"Turn right onto {name}", 3: f"Turn left onto {name}",
                    2: f"Make a U-turn onto {name}"}[turn]
        steps.append(Step(text, name, sum(s.length for s in group), sum(s.seconds for s in group)))
        last_heading = heading
    return steps


# ----- transit -------------------------------------------------------------------------------------------

@dataclass
class Line:
    row: dict[str, Any]
    stops: list[Node]                      # in the forward direction
    cum: list[float]                       # seconds from the first stop, forward
    names: list[str] = field(default_factory=list)

    def order(self, direction: int) -> tuple[list[Node], list[float]]:
        if direction == 1:
            return self.stops, self.cum
        total = self.cum[-1]
        return self.stops[::-1], [total - c for c in self.cum[::-1]]


def _clock(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def load_lines(db: sqlite3.Connection, grid: Grid) -> list[Line]:
    lines = []
    for row in db.execute("SELECT * FROM transit_lines WHERE city_id = ? ORDER BY line_id", (grid.city_id,)):
        street = grid.streets[row["street_id"]]
        count = grid.blocks(street) + 1
        idxs = list(range(0, count, row["stop_every"]))
        if idxs[-1] != count - 1:
            idxs.append(count - 1)
        stops = [("n", street["idx"], k) if street["axis"] == "ns" else ("n", k, street["idx"]) for k in idxs]
        speed = (32.0 if row["mode"] == "subway" else 16.0) / 3.6
        dwell = 30.0 if row["mode"] == "subway" else 20.0
        cum, total = [0.0], 0.0
        for a, b in zip(idxs, idxs[1:]):
            total += (b - a) * grid.length(street) / speed + dwell
            cum.append(total)
        lines.append(Line(dict(row), stops, cum, [grid.corner(n[1], n[2]) for n in stops]))
    return lines


def next_departure(line: Line, direction: int, k: int, t: datetime) -> datetime | None:
    """The first departure of `line` in `direction` from its k-th stop (in that direction) at or after `t`."""
    _, cum = line.order(direction)
    headway = line.row["headway_min"] * 60
    first, last = _clock(line.row["first_departure"]) * 60, _clock(line.row["last_departure"]) * 60
    for shift in (-1, 0, 1):
        day = t.date() + timedelta(days=shift)
        if line.row["weekdays_only"] and day.weekday() >= 5:
            continue
        base = datetime.combine(day, datetime.min.time())
        start = base + timedelta(seconds=first + cum[k])
        end = base + timedelta(seconds=last + cum[k])
        if t > end:
            continue
        if t <= start:
            return start
        n = math.ceil((t - start).total_seconds() / headway)
        dep = start + timedelta(seconds=n * headway)
        if dep <= end:
            return dep
    return None


@dataclass
class Ride:
    line: Line
    direction: int
    board: int
    alight: int
    depart: datetime
    arrive: datetime


@dataclass
class TransitPlan:
    walk_in: float                 # metres to the first stop
    walk_out: float                # metres from the last stop
    rides: list[Ride]
    depart: datetime
    arrive: datetime


def transit_plan(grid: Grid, db: sqlite3.Connection, at: datetime, start: Point, end: Point) -> TransitPlan | None:
    """The earliest-arriving trip by transit (walk, ride, change lines, walk), or None."""
    adj = build_graph(grid, "walking", set(), [start, end])
    walk = lambda e: e.length  # noqa: E731
    from_start, _ = dijkstra(adj, ("p", start.key), walk)
    to_end, _ = dijkstra(adj, ("p", end.key), walk)
    mps = WALK_KMH / 3.6
    lines = load_lines(db, grid)
    serves: dict[Node, list[tuple[Line, int, int]]] = {}
    for line in lines:
        for direction in (1, -1):
            stops, _ = line.order(direction)
            for k, node in enumerate(stops[:-1]):
                serves.setdefault(node, []).append((line, direction, k))
    best: dict[Node, datetime] = {}
    how: dict[Node, Ride | None] = {}
    heap: list[tuple[datetime, int, Node]] = []
    tie = 0
    for node, metres in from_start.items():
        if node[0] == "n" and metres <= TRANSIT_WALK_LIMIT:
            best[node] = at + timedelta(seconds=metres / mps)
            how[node] = None
            tie += 1
            heapq.heappush(heap, (best[node], tie, node))
    while heap:
        t, _, node = heapq.heappop(heap)
        if t > best[node]:
            continue
        for line, direction, k in serves.get(node, ()):
            dep = next_departure(line, direction, k, t)
            if dep is None or dep - t > MAX_WAIT:
                continue
            stops, cum = line.order(direction)
            for m in range(k + 1, len(stops)):
                arrive = dep + timedelta(seconds=cum[m] - cum[k])
                if arrive < best.get(stops[m], datetime.max):
                    best[stops[m]] = arrive
                    how[stops[m]] = Ride(line, direction, k, m, dep, arrive)
                    tie += 1
                    heapq.heappush(heap, (arrive, tie, stops[m]))
    finish, chosen = None, None
    for node, t in best.items():
        if how[node] is None or to_end.get(node, math.inf) > TRANSIT_WALK_LIMIT:
            continue
        done = t + timedelta(seconds=to_end[node] / mps)
        if finish is None or done < finish:
            finish, chosen = done, node
    if chosen is None or finish is None:
        return None
    rides: list[Ride] = []
    node = chosen
    while how[node] is not None:
        ride = how[node]
        rides.append(ride)  # type: ignore[arg-type]
        stops, _ = ride.line.order(ride.direction)  # type: ignore[union-attr]
        node = stops[ride.board]  # type: ignore[union-attr]
    rides.reverse()
    return TransitPlan(from_start[node], to_end[chosen], rides, at, finish)
