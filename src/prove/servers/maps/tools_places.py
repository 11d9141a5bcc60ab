"""Places: cities, search, details, opening hours, nearby search, geocoding and reverse geocoding."""

from __future__ import annotations

import math
import re
from typing import Annotated, Literal

from pydantic import Field

from prove.env import READ, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso, like, quote

from .routing import Grid, haversine
from .server import (
    DAYS,
    PLACE_SQL,
    REVIEW_SQL,
    BusinessId,
    Category,
    City,
    CityId,
    CityList,
    DayHours,
    GeocodeResult,
    GeoMatch,
    Latitude,
    Limit,
    Longitude,
    OpenCheck,
    Place,
    PlaceId,
    PlaceList,
    Query,
    ReverseGeocode,
    coming,
    hours_on,
    open_state,
    open_words,
    place_row,
    place_summary,
    places_text,
    profile,
    rating,
    review_model,
    show_day,
    today_words,
)
from .world import grid_latlon, house_number, place_xy

tools = Toolset("places")

COVERAGE_MARGIN = 400.0  # metres around a city's grid that still count as that city
# The categories asked after as a kind of place one drops in to, each a noun ("is there a museum
# open right now?"): not 'residential', 'office', 'parking', 'shopping', 'grocery' or 'ev_charging'.
DROP_IN = ["restaurant", "cafe", "bar", "bakery", "pharmacy", "gas_station", "museum", "park", "hotel", "bank",
           "gym", "library", "cinema", "bookstore"]


def place_model(ctx: Ctx, place_id: str) -> Place:
    row = place_row(ctx, place_id)
    now = ctx.now()
    _, change = open_state(row, now)
    saved = [r[0] for r in ctx.db.execute("SELECT list_id FROM saved_places WHERE place_id = ? ORDER BY list_id",
                                          (place_id,))]
    mine = ctx.db.execute("SELECT review_id FROM reviews WHERE place_id = ? AND is_mine = 1", (place_id,)).fetchone()
    recent = [review_model(r) for r in ctx.db.execute(
        REVIEW_SQL + " WHERE r.place_id = ? ORDER BY r.created_at DESC, r.review_id LIMIT 3", (place_id,))]
    entries = row["hours"].split(",")
    return Place(**place_summary(ctx, row).model_dump(), phone=row["phone"],
                 hours_today=hours_on(row, now) if row["status"] == "open" else "closed",
                 weekly_hours=[DayHours(day=d, hours=show_day(e)) for d, e in zip(DAYS, entries)],
                 next_change=iso(change) if change else None, open_text=open_words(row, now, True),
                 today_text=today_words(row, now),
                 rated=(f"rated {rating(row)} from {row['rating_count']:,} ratings" if row["rating_count"]
                        else "not rated yet"), saved_in=saved,
                 my_review_id=mine[0] if mine else None, recent_reviews=recent)


def city_of_point(ctx: Ctx, lat: float, lon: float) -> Grid:
    """The city whose street grid (with a margin) holds the point, else `outside_coverage`."""
    for (city_id,) in ctx.db.execute("SELECT city_id FROM cities ORDER BY city_id").fetchall():
        grid = Grid(ctx.db, city_id)
        x, y = grid.xy(lat, lon)
        if -COVERAGE_MARGIN <= x <= (grid.nx - 1) * grid.sx + COVERAGE_MARGIN and \
                -COVERAGE_MARGIN <= y <= (grid.ny - 1) * grid.sy + COVERAGE_MARGIN:
            return grid
    raise ToolError("outside_coverage", f"({lat:.5f}, {lon:.5f}) is outside the mapped cities.",
                    hint="list_cities shows the cities on the map and their centres.")


@tools.tool(effect=READ, asks=[
    "Which cities does the map cover?",
    "What cities can you give me directions in?",
], reply=[
    "The map covers {result.cities_text}.",
])
def list_cities(ctx: Ctx) -> CityList:
    """List the cities on the map, with how many places and transit lines each has.

    Returns:
        Each city's ID, name, state, centre coordinates, number of places and transit lines, and
        whether the user's home is there; and the total.
    """
    home_city = ctx.db.execute("SELECT city_id FROM places WHERE place_id = ?",
                               (profile(ctx)["home_place_id"],)).fetchone()[0]
    out = []
    for row in ctx.db.execute("SELECT * FROM cities ORDER BY name").fetchall():
        (places,) = ctx.db.execute("SELECT count(*) FROM places WHERE city_id = ?", (row["city_id"],)).fetchone()
        (lines,) = ctx.db.execute("SELECT count(*) FROM transit_lines WHERE city_id = ?", (row["city_id"],)).fetchone()
        lat, lon = grid_latlon(dict(row), (row["nx"] - 1) * row["spacing_x"] / 2,
                               (row["ny"] - 1) * row["spacing_y"] / 2)
        out.append(City(city_id=row["city_id"], name=row["name"], region=row["region"], lat=lat, lon=lon,
                        places=places, transit_lines=lines, is_home_city=row["city_id"] == home_city))
    said = [f"{c.name}, {c.region}" + (" (where you live)" if c.is_home_city else "") for c in out]
    text = said[0] if len(said) == 1 else "; ".join(said[:-1]) + "; and " + said[-1] if said else "no cities"
    return CityList(cities=out, total=len(out), cities_text=text)


@tools.tool(effect=READ, asks=[
    "Find places matching '{query}' in {city_id}.",
    Ask("Is there a {cuisine} restaurant with at least {min_rating} stars?", category="restaurant"),
    Ask("What's the best-rated {category} in {city_id}?", sort="rating"),
    "Search the map for {query}.",
    Ask("Is there a {category} open right now?", open_now=True),
], reply=[
    "I found {result.places_text}.",
], values={
    # (a hotel is asked about by its rating, not by whether it is open now)
    "category, open_now": [(c, c != "hotel") for c in DROP_IN],
})
def search_places(ctx: Ctx, query: Query | None = None, city_id: CityId | None = None,
                  category: Category | None = None,
                  cuisine: Literal["italian", "mexican", "japanese", "chinese", "indian", "thai", "american",
                                   "french", "mediterranean", "korean", "vietnamese"] | None = None,
                  open_now: bool = False, min_rating: Annotated[float, Field(ge=0, le=5)] | None = None,
                  max_price_level: Annotated[int, Field(ge=1, le=4)] | None = None, include_closed: bool = False,
                  sort: Literal["relevance", "rating", "reviews", "name"] = "relevance",
                  limit: Limit = 10) -> PlaceList:
    """Search places by text and filters; places that closed for good are left out unless asked for.

    Args:
        query: text in the name, category, cuisine or street, such as 'coffee' or 'Trattoria'.
        city_id: only places in this city, such as 'CTY-10001'.
        category: only this kind of place, such as 'restaurant', 'cafe', 'museum', 'pharmacy' or 'park'.
        cuisine: only restaurants of this cuisine, such as 'italian'.
        open_now: only places open at the current time (default false).
        min_rating: only places rated at least this many stars, 0 to 5, such as 4.0.
        max_price_level: only places at most this expensive, 1 ($) to 4 ($$$$), such as 2.
        include_closed: also return permanently closed places (default false).
        sort: 'relevance' (name matches first, then rating; default), 'rating', 'reviews' (most
            rated first) or 'name'.
        limit: the most places to return, 1 to 50, such as 10.

    Returns:
        Matching places (ID, name, category, cuisine, address, coordinates, rating, number of
        ratings, price level, status, whether open now) and the total.

    Raises:
        not_found: city_id is given and no city has that ID.
    """
    where = Where()
    if query is not None:
        where.add("(p.name LIKE ? ESCAPE '\\' OR p.category LIKE ? ESCAPE '\\' OR p.cuisine LIKE ? ESCAPE '\\' "
                  "OR s.name LIKE ? ESCAPE '\\' OR replace(p.category, '_', ' ') LIKE ? ESCAPE '\\')",
                  *[like(query)] * 5)
    where.entity(ctx, "city", "p.city_id", city_id)
    where.eq("p.category", category)
    where.eq("p.cuisine", cuisine)
    where.cmp("p.price_level", "<=", max_price_level)
    if not include_closed:
        where.add("p.status != 'permanently_closed'")
    rows = ctx.db.execute(f"{PLACE_SQL} WHERE {where.sql}", where.params).fetchall()
    if min_rating is not None:
        rows = [r for r in rows if (rating(r) or 0) >= min_rating]
    if open_now:
        rows = [r for r in rows if open_state(r, ctx.now())[0]]
    text = (query or "").lower()

    def key(r):  # noqa: ANN001, ANN202
        score = rating(r) or 0
        if sort == "rating":
            return (-score, -r["rating_count"], r["place_id"])
        if sort == "reviews":
            return (-r["rating_count"], r["place_id"])
        if sort == "name":
            return (r["name"].lower(), r["place_id"])
        return (text not in r["name"].lower(), -score, r["place_id"])

    rows.sort(key=key)
    places = [place_summary(ctx, r) for r in rows[:limit]]
    return PlaceList(places=places, total=len(rows),
                     places_text=places_text(places, len(rows), category, "best-rated" if sort == "rating" else "",
                                             open_now))


@tools.tool(effect=READ, asks=[
    "Tell me about {place_id}.",
    Ask("What are the hours and rating of {place_id}?",
        fits={"place_id": "category NOT IN ('residential', 'office')"}),  # a business keeps hours
], reply=[
    "{result.name} ({result.address}) is {result.rated}; {result.today_text}.",
    Ask("{result.name} is a residential building at {result.address}.", **{"result.category": "residential"}),
])
def get_place(ctx: Ctx, place_id: PlaceId) -> Place:
    """Get one place in full: address, phone, weekly hours, whether it is open now, rating and recent reviews.

    Args:
        place_id: ID of the place, such as 'PLC-10001'.

    Returns:
        The place with its category, address, coordinates, phone, price level, status, today's
        hours, the weekly hours, whether it is open now and when that changes, its rating, the
        user's lists holding it, the user's review of it (if any) and its three latest reviews.

    Raises:
        not_found: no place has that ID.
    """
    return place_model(ctx, place_id)


@tools.tool(effect=READ, asks=[
    "Will {place_id} be open at {at}?",
    "Is {place_id} open right now?",
    "Can I still go to {place_id} on {at}?",
], reply=["{result.name} is {result.answer}."])
def check_open(ctx: Ctx, place_id: BusinessId, at: str | None = None) -> OpenCheck:
    """Check whether a place is open at a given time (default now), its hours that day and when that changes.

    Args:
        place_id: ID of the place, such as 'PLC-10001'.
        at: the local date and time to check, from now up to 90 days ahead, such as
            '2026-03-21T19:30'; default now.

    Returns:
        Whether the place is open at that time, its status, its hours that day and when it next
        closes or opens.

    Raises:
        not_found: no place has that ID.
        invalid_time: `at` is not a date and time or is more than 90 days ahead.
        past_time: `at` is in the past.
    """
    row = place_row(ctx, place_id)
    when = coming(ctx, at, "at")
    is_open, change = open_state(row, when)
    return OpenCheck(place_id=place_id, name=row["name"], at=iso(when), status=row["status"], is_open=is_open,
                     hours_that_day=hours_on(row, when) if row["status"] == "open" else "closed",
                     next_change=iso(change) if change else None, answer=open_words(row, when, at is None))


@tools.tool(effect=READ, asks=[
    "Is there a {category} near {place_id}?",
    "Find places within {radius_m} metres of {place_id}.",
    "What's around {lat}, {lon}?",
    # open now is asked of somewhere to drop in, never of a residence or an office
    Ask("Is there a cafe near {place_id} that's open now?", open_now=True, category="cafe"),
    Ask("Is there a pharmacy near {place_id} that's open now?", open_now=True, category="pharmacy"),
    Ask("Any restaurant near {place_id} that's open now?", open_now=True, category="restaurant"),
], reply=[
    "Near {place_id}: {result.places_text}.",
    Ask("Around there: {result.places_text}.", place_id=None),
], values={"category": DROP_IN})
def search_nearby(ctx: Ctx, place_id: PlaceId | None = None, lat: Latitude | None = None, lon: Longitude | None = None,
                  radius_m: Annotated[int, Field(ge=50, le=5000)] = 800, category: Category | None = None,
                  open_now: bool = False, limit: Limit = 10) -> PlaceList:
    """Find places within a radius of a place or of coordinates, nearest first (permanently closed ones left out).

    Args:
        place_id: search around this place, such as 'PLC-10001'.
        lat: or search around these coordinates: latitude, such as 45.5152.
        lon: longitude, such as -122.6784.
        radius_m: search radius in metres, 50 to 5000, such as 800.
        category: only this kind of place, such as 'cafe' or 'pharmacy'.
        open_now: only places open at the current time (default false).
        limit: the most places to return, 1 to 50, such as 10.

    Returns:
        Places with their straight-line distance in metres, nearest first, and the total.

    Raises:
        not_found: no place has that ID.
        missing_location: neither a place nor both coordinates were given.
        conflicting_location: both a place and coordinates were given.
        outside_coverage: the coordinates are outside the mapped cities.
    """
    if place_id is not None and (lat is not None or lon is not None):
        raise ToolError("conflicting_location", "Give either a place or coordinates, not both.",
                        hint="Pass place_id, or lat and lon.")
    if place_id is not None:
        center = place_row(ctx, place_id)
        lat0, lon0 = center["lat"], center["lon"]
    elif lat is not None and lon is not None:
        city_of_point(ctx, lat, lon)
        lat0, lon0 = lat, lon
    else:
        raise ToolError("missing_location", "Say where to search: a place_id, or both lat and lon.",
                        hint="search_places or geocode finds a place or coordinates.")
    sql = PLACE_SQL + " WHERE p.status != 'permanently_closed'"
    params: list[object] = []
    if category is not None:
        sql += " AND p.category = ?"
        params.append(category)
    found = []
    for r in ctx.db.execute(sql, params).fetchall():
        if r["place_id"] == place_id:
            continue
        d = haversine(lat0, lon0, r["lat"], r["lon"])
        if d <= radius_m and (not open_now or open_state(r, ctx.now())[0]):
            found.append((d, r["place_id"], r))
    found.sort(key=lambda t: (t[0], t[1]))
    places = [place_summary(ctx, r, d) for d, _, r in found[:limit]]
    return PlaceList(places=places, total=len(found),
                     places_text=places_text(places, len(found), category, "nearest", open_now))


# ----- geocoding --------------------------------------------------------------------------------------------

_ADDRESS = re.compile(r"^\s*(\d{1,5})\s+([^,]+?)\s*(?:,\s*(.*))?$")
_ABBREVIATIONS = {"st": "street", "st.": "street", "ave": "avenue", "ave.": "avenue", "av": "avenue"}


def _norm(street: str) -> str:
    words = street.lower().split()
    return " ".join(_ABBREVIATIONS.get(w, w) for w in words)


def _cities(ctx: Ctx, city_id: str | None, rest: str) -> list[str]:
    """The cities to look in: `city_id`, else the city the address names after its street, else all.

    A place named after the street that is not a mapped city (nor a state or zip code) is off the
    map: no city.
    """
    if city_id is not None:
        ctx.get("city", city_id)
        return [city_id]
    rows = ctx.db.execute("SELECT city_id, name, region FROM cities ORDER BY city_id").fetchall()
    first = rest.split(",")[0].strip().lower()
    if not first:
        return [r["city_id"] for r in rows]
    named = [r["city_id"] for r in rows if r["name"].lower() == first]
    if named:
        return named
    regions = {r["region"].lower() for r in rows}
    words = first.split()
    if all(w in regions or w.isdigit() for w in words):  # only a state and/or a zip code
        in_state = [r["city_id"] for r in rows if r["region"].lower() in words]
        return in_state or [r["city_id"] for r in rows]
    return []


@tools.tool(effect=READ, asks=[
    "What are the coordinates of {address}?",
    "Find {address} on the map.",
    "Where is {address} in {city_id}?",
], reply=[
    Ask("I found {result.matches_text}.", **{"result.total": 1}),
    "There are {result.matches_text}.",
], values={
    # street addresses and intersections of the street names every world draws from, without a
    # city: the city, if any, is the request's own (a city in the address would fight city_id)
    "address": ["543 Elm Street", "210 Oak Street", "415 Maple Street", "Market Street & Broadway",
                "Elm St & Lexington Ave", "Church Street & Park Avenue", "320 Washington Avenue"],
})
def geocode(ctx: Ctx, address: Query, city_id: CityId | None = None) -> GeocodeResult:
    """Turn a street address, an intersection or a place name into coordinates.

    Accepts '543 Elm Street, Portland' (house numbers rise by 100 a block; 'St' and 'Ave' are
    understood; an address in a city that is not on the map matches nothing), an intersection
    'Elm Street & Lexington Avenue', or part of a place's name.

    Args:
        address: what to look up, such as '543 Elm Street, Portland', 'Elm St & Lexington Ave' or
            'Little Coffee'.
        city_id: only look in this city, such as 'CTY-10001'; otherwise a city named in the
            address is used, or all cities.

    Returns:
        The matches (address, city, coordinates, the place there if any, and whether it matched
        an address, an intersection or a place name) and how many there are.

    Raises:
        not_found: city_id is given and no city has that ID.
        no_match: nothing on the map matches.
    """
    matches: list[GeoMatch] = []
    parsed = _ADDRESS.match(address)
    if parsed:
        number, street, rest = int(parsed.group(1)), _norm(parsed.group(2)), parsed.group(3) or ""
        for cid in _cities(ctx, city_id, rest):
            grid = Grid(ctx.db, cid)
            for s in grid.streets.values():
                if s["name"].lower() != street:
                    continue
                block = number // 100 - 1
                if not 0 <= block < grid.blocks(s) or number % 100 > 97:
                    continue
                side = "left" if number % 2 == 0 else "right"
                frac = min((number % 100) // 2 / 49, 0.98)
                lat, lon = grid_latlon(grid.city, *place_xy(grid.city, s, block, frac, side))
                here = ctx.db.execute("SELECT place_id, name FROM places WHERE street_id = ? AND number = ?",
                                      (s["street_id"], number)).fetchone()
                matches.append(GeoMatch(address=f"{number} {s['name']}, {grid.city['name']}, {grid.city['region']}",
                                        city_id=cid, lat=lat, lon=lon, place_id=here[0] if here else None,
                                        place_name=here[1] if here else None, kind="address"))
    corner = re.split(r"\s+(?:&|and|at)\s+", address.split(",")[0].strip(), maxsplit=1)
    if not matches and len(corner) == 2:
        a, b = _norm(corner[0]), _norm(corner[1])
        rest = address.split(",", 1)[1] if "," in address else ""
        for cid in _cities(ctx, city_id, rest):
            grid = Grid(ctx.db, cid)
            names = {s["name"].lower(): s for s in grid.streets.values()}
            sa, sb = names.get(a), names.get(b)
            if sa and sb and sa["axis"] != sb["axis"]:
                ns, ew = (sa, sb) if sa["axis"] == "ns" else (sb, sa)
                lat, lon = grid.latlon(ns["idx"] * grid.sx, ew["idx"] * grid.sy)
                matches.append(GeoMatch(address=f"{grid.corner(ns['idx'], ew['idx'])}, {grid.city['name']}, "
                                        f"{grid.city['region']}", city_id=cid, lat=lat, lon=lon, place_id=None,
                                        place_name=None, kind="intersection"))
    if not matches:
        sql = PLACE_SQL + " WHERE p.name LIKE ? ESCAPE '\\'"
        params: list[object] = [like(address.split(',')[0].strip())]
        if city_id is not None:
            ctx.get("city", city_id)
            sql += " AND p.city_id = ?"
            params.append(city_id)
        for r in ctx.db.execute(sql + " ORDER BY p.rating_count DESC, p.place_id LIMIT 10", params).fetchall():
            matches.append(GeoMatch(address=f"{r['number']} {r['street_name']}, {r['city_name']}, {r['region']}",
                                    city_id=r["city_id"], lat=r["lat"], lon=r["lon"], place_id=r["place_id"],
                                    place_name=r["name"], kind="place"))
    if not matches:
        raise ToolError("no_match", f"Nothing on the map matches {quote(address)}.",
                        hint="Check the street name and number (numbers rise by 100 a block), add the city, "
                             "or search_places by name.")
    said = [(f"{m.place_name}, {m.address}" if m.kind == "place" else
             m.address + (f" ({m.place_name})" if m.place_name else "")) + f", at {m.lat:.4f}, {m.lon:.4f}"
            for m in matches[:5]]
    more = f"; and {len(matches) - len(said)} more" if len(matches) > len(said) else ""
    text = (said[0] if len(said) == 1 else f"{len(matches)} matches: " + "; ".join(said)) + more
    return GeocodeResult(query=address, matches=matches, total=len(matches), matches_text=text)


@tools.tool(effect=READ, asks=[
    "What's the address at {lat}, {lon}?",
    "Where am I? My coordinates are {lat}, {lon}.",
], values={
    # points a few blocks from the centre of each city a world may hold (a world has three of them;
    # a point in another city is outside coverage)
    "lat, lon": [(40.7141, -74.0049), (42.3612, -71.0571), (39.9539, -75.1640), (33.7502, -84.3868),
                 (25.7629, -80.1902), (41.8793, -87.6285), (30.2684, -97.7418), (44.9790, -93.2637),
                 (47.6074, -122.3308), (37.7761, -122.4181), (34.0534, -118.2424), (45.5164, -122.6771)],
}, reply=[
    "That's {result.address}, near the corner of {result.nearest_intersection}.",
])
def reverse_geocode(ctx: Ctx, lat: Latitude, lon: Longitude) -> ReverseGeocode:
    """Turn coordinates into the nearest street address, the nearest intersection and places close by.

    Args:
        lat: latitude, such as 45.5152.
        lon: longitude, such as -122.6784.

    Returns:
        The nearest street address, the city, the nearest intersection, how far the point is from
        the street, and places within 150 m, nearest first.

    Raises:
        outside_coverage: the coordinates are outside the mapped cities.
    """
    grid = city_of_point(ctx, lat, lon)
    x, y = grid.xy(lat, lon)
    i = min(max(round(x / grid.sx), 0), grid.nx - 1)
    j = min(max(round(y / grid.sy), 0), grid.ny - 1)
    dx, dy = abs(x - i * grid.sx), abs(y - j * grid.sy)
    if dx <= dy:
        street, along, spacing, off = grid.by_axis[("ns", i)], y, grid.sy, dx
        side = "left" if x < i * grid.sx else "right"
    else:
        street, along, spacing, off = grid.by_axis[("ew", j)], x, grid.sx, dy
        side = "left" if y > j * grid.sy else "right"
    block = min(max(math.floor(along / spacing), 0), grid.blocks(street) - 1)
    frac = min(max((along - block * spacing) / spacing, 0.0), 0.999)
    number = house_number(block, frac, side)
    near = []
    for r in ctx.db.execute(PLACE_SQL + " WHERE p.city_id = ? AND p.status != 'permanently_closed'",
                            (grid.city_id,)).fetchall():
        d = haversine(lat, lon, r["lat"], r["lon"])
        if d <= 150:
            near.append((d, r["place_id"], r))
    near.sort(key=lambda t: (t[0], t[1]))
    return ReverseGeocode(lat=lat, lon=lon, address=f"{number} {street['name']}, {grid.city['name']}, "
                          f"{grid.city['region']}", city_id=grid.city_id, nearest_intersection=grid.corner(i, j),
                          distance_to_street_m=round(off),
                          nearby_places=[place_summary(ctx, r, d) for d, _, r in near[:5]])

