"""The maps server's declaration: `server`, its entity kinds, result models and shared helpers.

The tools live by area in toolsets (`tools_places.py`, `tools_routes.py`, `tools_saved.py`,
`tools_reviews.py`) that the package includes; the time hook is in `hooks.py`. Routing itself
is in `routing.py`.

Rules every tool follows:

- The simulated clock is the local time in every city (they share a time zone). A place is open
  now if its status is 'open' and the clock falls within its opening hours.
- Distances are metres (with kilometres and miles where a person would want them); durations
  are minutes.
- Closure reports are reviewed 24 hours after they are filed, when the clock passes that time
  (`on_advance`); the place's status then becomes what was reported.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import iso, parse_time

from .routing import Point
from .world import CATEGORIES, build_world

# ----- entity kinds and their ID types ---------------------------------------------------------

CITY = EntityKind("city", "cities", "city_id", "name", "a city on the map", lister="list_cities", naming="alone")
PLACE = EntityKind("place", "places", "place_id", "name", "a business, landmark, office or building on the map",
                   live="status != 'permanently_closed'", lister="search_places", naming="alone")
REVIEW = EntityKind("review", "reviews", "review_id", "my_place", "a rating and comment someone left on a place",
                    lister="list_reviews")
SAVED_LIST = EntityKind("saved_list", "saved_lists", "list_id", "name", "one of the user's lists of saved places",
                        lister="list_saved_lists", noun="list")
REPORT = EntityKind("report", "closure_reports", "report_id",
                    description="the user's report that a place closed or reopened", lister="list_my_reports",
                    noun="closure report")
TRANSIT_LINE = EntityKind("transit_line", "transit_lines", "line_id", "name", "a subway or bus line of a city",
                          lister="list_transit_lines")
ROAD_CLOSURE = EntityKind("road_closure", "road_closures", "closure_id", "reason",
                          "a block of a street closed to cars and bicycles for a while", live="ends_at > :now",
                          lister="list_road_closures")
USER = EntityKind("user", "profile", "user_id", "name", "the signed-in user", lister="get_profile")

CityId = CITY.id
PlaceId = PLACE.id
# a place in the user's home city: trips people ask directions for are local ones
LocalPlaceId = PLACE.where("city_id = (SELECT h.city_id FROM places h JOIN profile u ON h.place_id = u.home_place_id)")
ReviewId = REVIEW.id
MyReviewId = REVIEW.where("is_mine = 1")
# a business or landmark: what has opening hours worth asking about and takes reviews
BusinessId = PLACE.where("category NOT IN ('residential', 'office') AND status != 'permanently_closed'")
ListId = SAVED_LIST.id
ReportId = REPORT.id
LineId = TRANSIT_LINE.id
ClosureId = ROAD_CLOSURE.id
UserId = USER.id

server = Server(
    "maps", "Maps",
    "A map of three cities for one signed-in user: places (restaurants, cafes, shops, museums, "
    "parks, hotels, offices, ...) with addresses, opening hours, ratings and reviews; search by "
    "text, category and what is open now; nearby search; geocoding and reverse geocoding; "
    "distances, routes, step-by-step directions and travel times by car, on foot, by bicycle and "
    "by transit over each city's streets, one-way streets, road closures and subway and bus lines; "
    "the user's home and work, saved lists, reviews and reports of closed places.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[CITY, PLACE, REVIEW, SAVED_LIST, REPORT, TRANSIT_LINE, ROAD_CLOSURE, USER],
)

# ----- parameter and field types ------------------------------------------------------------------

Category = Literal["restaurant", "cafe", "bar", "bakery", "grocery", "pharmacy", "gas_station", "ev_charging",
                   "parking", "museum", "park", "hotel", "bank", "hospital", "gym", "library", "cinema",
                   "bookstore", "shopping", "office", "residential"]
Mode = Literal["driving", "walking", "cycling", "transit"]
PlaceStatus = Literal["open", "temporarily_closed", "permanently_closed"]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Note = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
Limit = Annotated[int, Field(ge=1, le=50)]
Latitude = Annotated[float, Field(ge=-90, le=90)]
Longitude = Annotated[float, Field(ge=-180, le=180)]

assert set(CATEGORIES) == set(Category.__args__)  # type: ignore[attr-defined]
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MAX_AHEAD = timedelta(days=90)

# ----- result models --------------------------------------------------------------------------------


class City(BaseModel):
    city_id: CityId
    name: str
    region: str
    lat: float
    lon: float
    places: int
    transit_lines: int
    is_home_city: bool


class CityList(BaseModel):
    cities: list[City]
    total: int
    cities_text: str = Field(description="the cities in words, such as 'Los Angeles, CA; Portland, OR (where you "
                                         "live); and Seattle, WA'")


class PlaceSummary(BaseModel):
    place_id: PlaceId
    name: str
    category: str
    cuisine: str | None
    address: str
    city_id: CityId
    lat: float
    lon: float
    rating: float | None = Field(description="average stars, 1-5, over all ratings")
    rating_count: int
    price_level: int | None = Field(description="1 ($) to 4 ($$$$)")
    status: PlaceStatus
    open_now: bool
    distance_m: int | None = Field(None, description="straight-line distance from the search centre")


class PlaceList(BaseModel):
    places: list[PlaceSummary]
    total: int = Field(description="how many places matched, before `limit`")
    places_text: str = Field(description="the first places in words, such as '2 places: Fox & Bean, a cafe 120 m "
                                         "away at 461 Franklin Avenue (rated 4.4); ...'")


class DayHours(BaseModel):
    day: str
    hours: str = Field(description="such as '11:30 AM-10 PM', 'open 24 hours' or 'closed'")


class Review(BaseModel):
    review_id: ReviewId
    place_id: PlaceId
    place_name: str
    author: str
    is_mine: bool
    rating: int
    text: str = Field(description="what the review says")
    created_at: str
    updated_at: str | None


class Place(PlaceSummary):
    phone: str | None
    hours_today: str
    weekly_hours: list[DayHours]
    next_change: str | None = Field(description="when it next closes (if open now) or opens (if closed); "
                                                 "null if it never closes or stays closed")
    rated: str = Field(description="its rating in words, such as 'rated 4.4 from 620 ratings'")
    open_text: str = Field(description="whether it is open now and until when, in words")
    today_text: str = Field(description="its hours today and whether it is open now, in words, such as 'its hours "
                                        "today are 11 AM-10 PM, and it's open now, until 10:00 PM'")
    saved_in: list[ListId] = Field(description="the user's lists holding this place")
    my_review_id: ReviewId | None
    recent_reviews: list[Review]


class OpenCheck(BaseModel):
    place_id: PlaceId
    name: str
    at: str
    status: PlaceStatus
    is_open: bool
    hours_that_day: str
    next_change: str | None = Field(description="when it next closes (if open at `at`) or opens")
    answer: str = Field(description="the answer in words, such as 'closed on March 17 at 9:00 AM; it opens at "
                                    "11:00 AM'")


class GeoMatch(BaseModel):
    address: str
    city_id: CityId
    lat: float
    lon: float
    place_id: PlaceId | None = Field(description="the place at that address or with that name, if any")
    place_name: str | None
    kind: Literal["address", "intersection", "place"]


class GeocodeResult(BaseModel):
    query: str
    matches: list[GeoMatch]
    total: int
    matches_text: str = Field(description="the matches in words, such as '543 Elm Street, Portland, OR (The Green "
                                          "Residences), at 45.52, -122.69'")


class ReverseGeocode(BaseModel):
    lat: float
    lon: float
    address: str = Field(description="the nearest street address")
    city_id: CityId
    nearest_intersection: str
    distance_to_street_m: int
    nearby_places: list[PlaceSummary] = Field(description="places within 150 m, nearest first")


class Distance(BaseModel):
    origin_place_id: PlaceId
    origin_name: str
    destination_place_id: PlaceId
    destination_name: str
    straight_line_m: int
    km: float
    miles: float
    bearing_deg: int = Field(description="compass bearing from origin to destination")
    direction: str = Field(description="such as 'NE'")
    heading: str = Field(description="the direction in words, such as 'northeast'")
    same_city: bool


class Step(BaseModel):
    instruction: str
    distance_m: int
    duration_min: float


class Route(BaseModel):
    mode: Mode
    origin_place_id: PlaceId
    origin_name: str
    origin_said: str = Field("", description="the start as the user says it: 'your home' where none was given")
    destination_place_id: PlaceId
    destination_name: str
    distance_m: int
    distance_km: float
    duration_min: int
    depart_at: str
    arrive_at: str
    summary: str = Field(description="the main streets or lines used")
    warnings: list[str] = Field(description="closures avoided, no service, walking is faster, ...")
    fare: float | None = Field(description="transit fare in dollars")
    transfers: int | None = Field(description="changes between transit lines")


class Directions(Route):
    steps: list[Step]
    in_words: str = Field(description="the steps as one sentence, as a person reads them out")


class ModeOption(BaseModel):
    mode: Mode
    available: bool
    duration_min: int | None
    distance_m: int | None
    arrive_at: str | None
    reason: str | None = Field(description="why the mode is not available")


class ModeComparison(BaseModel):
    origin_place_id: PlaceId
    destination_place_id: PlaceId
    destination_name: str
    depart_at: str
    options: list[ModeOption]
    fastest: Mode | None
    fastest_min: int | None = Field(description="the fastest mode's duration in minutes")
    fastest_arrive_at: str | None = Field(description="when the fastest mode arrives")


class Closure(BaseModel):
    closure_id: ClosureId
    summary: str = Field(description="the closed block and why, such as 'Central Avenue between Hill Street and "
                                     "Church Street, for building construction'")
    city_id: CityId
    street: str
    between: str = Field(description="the two cross streets of the closed block")
    starts_at: str
    ends_at: str
    reason: str
    active_now: bool


class ClosureList(BaseModel):
    closures: list[Closure]
    total: int
    closures_text: str = Field(description="the closures in words, such as 'Central Avenue between Hill Street and "
                                           "Church Street is closed for building construction until April 1 at 9:00 "
                                           "AM'")


class TransitLine(BaseModel):
    line_id: LineId
    city_id: CityId
    name: str
    mode: Literal["subway", "bus"]
    street: str
    stops: list[str]
    headway_min: int
    first_departure: str
    last_departure: str
    weekdays_only: bool
    fare: float
    running_now: bool


class TransitLineList(BaseModel):
    lines: list[TransitLine]
    total: int
    lines_text: str = Field(description="the lines in words, such as 'the Orange Line (subway) runs along Harrison "
                                        "Avenue every 8 minutes, 5:30 AM to 12:30 AM'")


class Departure(BaseModel):
    line_id: LineId
    line_name: str
    mode: Literal["subway", "bus"]
    stop: str
    toward: str
    departs_at: str
    walk_m: int = Field(description="walking distance from the place to the stop")


class Departures(BaseModel):
    place_id: PlaceId
    place_name: str
    after: str
    departures: list[Departure]
    total: int
    departures_text: str = Field(description="the first departures in words, such as 'the Silver Line (subway) at "
                                             "9:01 AM from Pine Street & Madison Avenue; ...'")


class SavedList(BaseModel):
    list_id: ListId
    name: str
    description: str | None
    is_default: bool
    place_count: int
    created_at: str


class SavedListList(BaseModel):
    lists: list[SavedList]
    total: int
    lists_text: str = Field(description="the lists in words, such as \"3 lists: Favorites (6 places; your default "
                                        "list, 'Places I love'), Date night (4 places) and ...\"")


class SavedEntry(BaseModel):
    place: PlaceSummary
    note: str | None
    added_at: str


class SavedListDetail(SavedList):
    places: list[SavedEntry]
    said: str = Field(description="the places as people list them, with the notes: \"2 places: Jade Garden "
                                  "(book ahead) and Maple Coffee\", or 'no places yet'")


class SaveResult(BaseModel):
    list_id: ListId
    list_name: str
    place_id: PlaceId
    place_name: str
    note: str | None
    place_count: int = Field(description="places in the list now")


class ReviewList(BaseModel):
    place_id: PlaceId
    place_name: str
    rating: float | None
    rating_count: int
    reviews: list[Review]
    total: int = Field(description="shown reviews of the place, before `limit`")
    reviews_text: str = Field(description="the first reviews in words, such as \"2 stars from Isaac S.: 'Long wait.'\"")


class Report(BaseModel):
    report_id: ReportId
    place_id: PlaceId
    place_name: str
    reported: PlaceStatus
    note: str | None
    status: Literal["pending", "confirmed"]
    created_at: str
    reviewed_at: str = Field(description="when the report was (or will be) reviewed")


class ReportList(BaseModel):
    reports: list[Report]
    total: int
    reports_text: str = Field(description="the reports in words, such as 'on March 10 you reported Café Hernandez "
                                          "temporarily closed; that was confirmed on March 11'")


class Profile(BaseModel):
    user_id: UserId
    name: str
    home: PlaceSummary
    work: PlaceSummary
    saved_places: int
    reviews: int
    profile_text: str = Field(description="the profile in words, such as 'your home address is ... and your work "
                                          "address is ...; you've saved 18 places and written 4 reviews'")


# ----- helpers -----------------------------------------------------------------------------------------

def coming(ctx: Ctx, value: str | None, what: str = "depart_at") -> datetime:
    """A local time from now up to 90 days ahead (default now)."""
    if value is None:
        return ctx.now()
    at = parse_time(value, what)
    if at < ctx.now() - timedelta(minutes=1):
        raise ToolError("past_time", f"{what} {iso(at)} is in the past; it is now {ctx.now_iso()}.",
                        hint="Give a time from now on, or omit it for now.")
    if at > ctx.now() + MAX_AHEAD:
        raise ToolError("invalid_time", f"{what} {iso(at)} is more than 90 days ahead.",
                        hint="Ask about a time in the next 90 days.")
    return max(at, ctx.now())


# ----- opening hours -------------------------------------------------------------------------------------

def day_span(entry: str) -> tuple[int, int] | None:
    """One day's entry as minutes from that day's midnight; the end may pass midnight (> 1440)."""
    if entry == "closed":
        return None
    if entry == "24h":
        return 0, 1440
    opens, closes = entry.split("-")
    start = int(opens[:2]) * 60 + int(opens[3:])
    end = int(closes[:2]) * 60 + int(closes[3:])
    if end <= start:
        end += 1440
    return start, end


def show_day(entry: str) -> str:
    """A day's hours as people say them: '7 AM-7 PM', '11:30 AM-10 PM', 'open 24 hours', 'closed'."""
    if entry in ("24h", "closed"):
        return {"24h": "open 24 hours", "closed": "closed"}[entry]
    return "-".join(_hour(t) for t in entry.split("-"))


def _hour(hhmm: str) -> str:
    hour, minute = int(hhmm[:2]), hhmm[3:]
    return f"{hour % 12 or 12}{'' if minute == '00' else ':' + minute} {'AM' if hour % 24 < 12 else 'PM'}"


def _intervals(hours: str, at: datetime) -> list[tuple[datetime, datetime]]:
    """Opening intervals from the day before `at` to a week after, merged where they touch."""
    entries = hours.split(",")
    spans = []
    for shift in range(-1, 8):
        day = at.date() + timedelta(days=shift)
        span = day_span(entries[day.weekday()])
        if span:
            base = datetime.combine(day, datetime.min.time())
            spans.append((base + timedelta(minutes=span[0]), base + timedelta(minutes=span[1])))
    merged: list[list[datetime]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def open_state(row: sqlite3.Row, at: datetime) -> tuple[bool, datetime | None]:
    """Whether a place is open at `at`, and when that next changes (None: never, within a week)."""
    if row["status"] != "open":
        return False, None
    intervals = _intervals(row["hours"], at)
    horizon = datetime.combine(at.date() + timedelta(days=8), datetime.min.time())
    for start, end in intervals:
        if start <= at < end:
            return True, None if end >= horizon else end
        if start > at:
            return False, start
    return False, None


def hours_on(row: sqlite3.Row, at: datetime) -> str:
    return show_day(row["hours"].split(",")[at.weekday()])


def spoken_time(at: datetime, ref: datetime | None = None) -> str:
    """'9:00 PM', or 'March 18 at 9:00 PM' when it is not on the day of `ref`."""
    clock = f"{at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"
    if ref is not None and at.date() == ref.date():
        return clock
    return f"{at:%B} {at.day} at {clock}"


def open_words(row: sqlite3.Row, at: datetime, now: bool) -> str:
    """Whether a place is open at `at`, in words: 'open now, until 9:00 PM', 'closed on March 17 at
    9:00 AM; it opens at 11:00 AM', 'temporarily closed'."""
    when = "now" if now else f"on {spoken_time(at)}"
    if row["status"] != "open":
        return f"{row['status'].replace('_', ' ')}, so it isn't open {when}"
    is_open, change = open_state(row, at)
    if is_open:
        if change is not None and change.time() == datetime.min.time() and change.date() > at.date():
            return f"open {when}, until midnight"
        return f"open {when}, until {spoken_time(change, at)}" if change else f"open {when} (it never closes)"
    return f"closed {when}; it opens at {spoken_time(change, at)}" if change else f"closed {when}"


def today_words(row: sqlite3.Row, now: datetime) -> str:
    """A place's hours today and whether it is open now, in words: 'its hours today are 11 AM-10 PM,
    and it's open now, until 10:00 PM', 'it's closed today and opens on March 17 at 5:00 PM'."""
    if row["status"] != "open":
        return "it's temporarily closed" if row["status"] == "temporarily_closed" else "it has closed for good"
    today = hours_on(row, now)
    is_open, change = open_state(row, now)
    when = "" if change is None else f"at {spoken_time(change, now)}" if change.date() == now.date() else \
        f"on {spoken_time(change)}"
    if is_open:
        midnight = change is not None and change == datetime.combine(now.date() + timedelta(days=1), datetime.min.time())
        until = ", until midnight" if midnight else f", until {spoken_time(change, now)}" if change else ""
        if today == "closed":
            return f"it's open now{until}"
        if today == "open 24 hours":
            return f"it's open 24 hours today{until}" if change else "it's open around the clock"
        return f"its hours today are {today}, and it's open now{until}"
    if today == "closed":
        return f"it's closed today and opens {when}" if change else "it's closed today"
    opens = f" and opens {when}" if change else ""
    return f"its hours today are {today}; it's closed now{opens}"


# ----- places -------------------------------------------------------------------------------------------

PLACE_SQL = """
SELECT p.*, s.name AS street_name, c.name AS city_name, c.region AS region FROM places p
JOIN streets s ON s.street_id = p.street_id JOIN cities c ON c.city_id = p.city_id
"""


def address(row: sqlite3.Row) -> str:
    return f"{row['number']} {row['street_name']}, {row['city_name']}, {row['region']} {row['zip']}"


def rating(row: sqlite3.Row) -> float | None:
    return round(row["rating_total"] / row["rating_count"], 1) if row["rating_count"] else None


def place_row(ctx: Ctx, place_id: str) -> sqlite3.Row:
    return ctx.get("place", place_id, PLACE_SQL + " WHERE p.place_id = ?")


def place_summary(ctx: Ctx, row: sqlite3.Row, distance: float | None = None) -> PlaceSummary:
    return PlaceSummary(place_id=row["place_id"], name=row["name"], category=row["category"], cuisine=row["cuisine"],
                        address=address(row), city_id=row["city_id"], lat=row["lat"], lon=row["lon"],
                        rating=rating(row), rating_count=row["rating_count"], price_level=row["price_level"],
                        status=row["status"], open_now=open_state(row, ctx.now())[0],
                        distance_m=None if distance is None else round(distance))


# what each category of place is called
KIND_NOUN = {"grocery": "grocery store", "gas_station": "gas station", "ev_charging": "EV charging station",
             "parking": "parking garage", "shopping": "store", "office": "office building",
             "residential": "apartment building"}


def kind_noun(category: str, plural: bool = False) -> str:
    """'cafe', 'gas station'; with `plural`, 'cafes', 'bakeries'."""
    noun = KIND_NOUN.get(category, category.replace("_", " "))
    if not plural:
        return noun
    return noun[:-1] + "ies" if noun.endswith("y") and noun[-2] not in "aeiou" else noun + "s"


def _a(words: str) -> str:
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


def place_words(p: PlaceSummary, kind_said: bool = False) -> str:
    """'Fox & Bean, a cafe 120 m away at 461 Franklin Avenue (rated 4.4)', 'Green Burger Bar, an
    American restaurant at 459 Franklin Avenue, Seattle (rated 4.8)'; with `kind_said` (a listing
    of cafes) the kind goes without saying."""
    kind = f"{p.cuisine.capitalize()} {kind_noun(p.category)}" if p.cuisine else "" if kind_said else kind_noun(p.category)
    street, city = p.address.split(", ")[:2]
    if p.distance_m is not None:
        away = f"{p.distance_m} m" if p.distance_m < 1000 else f"{p.distance_m / 1000:.1f} km"
        where = f"{away} away at {street}"
    else:
        where = f"at {street}, {city}"
    notes = ([f"rated {p.rating:.1f}"] if p.rating is not None else []) + \
            ([p.status.replace("_", " ")] if p.status != "open" else [])
    lead = f"{p.name}, {_a(kind)}" if kind else f"{p.name}," if p.distance_m is not None else p.name
    return f"{lead} {where}" + (f" ({', '.join(notes)})" if notes else "")


def places_text(places: list[PlaceSummary], total: int, category: str | None = None, order: str = "",
                open_now: bool = False, shown: int = 5) -> str:
    """'2 cafes open now: Fox & Bean, 120 m away at 461 Franklin Avenue (rated 4.4); ...', '15 places,
    the nearest 5: ...'."""
    plural = kind_noun(category, True) if category else "places"
    if not places:
        return f"no {plural}" + (" open now" if open_now else "")
    said = [place_words(p, category is not None) for p in places[:shown]]
    head = f"{total} {plural if total != 1 else kind_noun(category) if category else 'place'}"
    head += " open now" if open_now else ""
    if total > len(said):
        head += f", the {len(said)} {order}" if order else f", the first {len(said)}"
    elif order and len(said) > 1:
        head += f", {order} first"
    return f"{head}: " + "; ".join(said)


def point(row: sqlite3.Row) -> Point:
    return Point(row["place_id"], row["street_id"], row["block"], row["frac"])


def profile(ctx: Ctx) -> sqlite3.Row:
    return ctx.db.execute("SELECT * FROM profile").fetchone()


def require_not_gone(row: sqlite3.Row) -> None:
    if row["status"] == "permanently_closed":
        raise ToolError("place_closed", f"{row['name']} has closed permanently.",
                        hint="search_places or search_nearby finds places that are still in business.")


REVIEW_SQL = "SELECT r.*, p.name AS place_name FROM reviews r JOIN places p ON p.place_id = r.place_id"


def reviews_text(reviews: list[Review], total: int, shown: int = 3) -> str:
    """"3 reviews: 2 stars from Isaac S.: 'Long wait.'; 5 stars from you: 'Great.'; and 1 more"."""
    said = [f"{r.rating} star{'' if r.rating == 1 else 's'} from {'you' if r.is_mine else r.author}: '{r.text}'"
            for r in reviews[:shown]]
    more = f"; and {total - len(said)} more" if total > len(said) else ""
    return f"{total} review{'' if total == 1 else 's'}: " + "; ".join(said) + more


def review_model(row: sqlite3.Row) -> Review:
    return Review(review_id=row["review_id"], place_id=row["place_id"], place_name=row["place_name"],
                  author=row["author"], is_mine=bool(row["is_mine"]), rating=row["rating"], text=row["body"],
                  created_at=row["created_at"], updated_at=row["updated_at"])
