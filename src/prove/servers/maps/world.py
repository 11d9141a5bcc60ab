"""The maps world: three cities of one time zone, their streets, places, transit and road closures.

Each city is drawn from the `Fake` city list (New York, Boston, Philadelphia, Atlanta and Miami;
Chicago, Austin and Minneapolis; or Seattle, San Francisco, Los Angeles and Portland, so that the
simulated clock is local time everywhere) and gets a street grid of 10 avenues and 10 streets with
names, one-way streets and arterials; about 70 places on its blocks (restaurants, cafes, bars,
shops, museums, parks, hotels, offices, ...) with addresses, phone numbers, opening hours,
price levels and ratings; shown reviews; two subway and two bus lines; and road closures, some
active at the epoch (Monday 2026-03-16 09:00), some ending soon and some still to come.

The signed-in user lives and works in the first city; they have saved lists of places, a few
reviews of their own and one confirmed closure report.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from prove.env import WorldGen
from prove.env.fake import CITIES
from prove.env.values import iso

# ----- vocabulary shared with the tools ---------------------------------------------------------

CATEGORIES = ("restaurant", "cafe", "bar", "bakery", "grocery", "pharmacy", "gas_station", "ev_charging",
              "parking", "museum", "park", "hotel", "bank", "hospital", "gym", "library", "cinema",
              "bookstore", "shopping", "office", "residential")
CUISINES = ("italian", "mexican", "japanese", "chinese", "indian", "thai", "american", "french",
            "mediterranean", "korean", "vietnamese")
METERS_PER_DEGREE = 111_320.0
REVIEW_AFTER = timedelta(hours=24)  # a closure report is reviewed this long after it is filed

# Cities of one time zone, and the interstate that links them on this map.
ZONES = ((("New York", "Boston", "Philadelphia", "Atlanta", "Miami"), "I-95"),
         (("Chicago", "Austin", "Minneapolis"), "I-35"),
         (("Seattle", "San Francisco", "Los Angeles", "Portland"), "I-5"))

AVENUES = ("Washington Avenue", "Lincoln Avenue", "Madison Avenue", "Jefferson Avenue", "Franklin Avenue",
           "Broadway", "Park Avenue", "Grand Avenue", "Central Avenue", "Columbus Avenue", "Lexington Avenue",
           "Harrison Avenue", "Jackson Avenue", "Monroe Avenue", "Adams Avenue", "University Avenue")
STREETS = ("Oak Street", "Maple Street", "Pine Street", "Cedar Street", "Elm Street", "Walnut Street",
           "Chestnut Street", "Spruce Street", "Market Street", "Union Street", "Water Street", "Front Street",
           "Mill Street", "Church Street", "Spring Street", "Bridge Street", "Hill Street", "Locust Street")

WORDS = ("Golden", "Blue", "Red", "Green", "Silver", "Copper", "Harbor", "Maple", "Olive", "Juniper", "Corner",
         "Union", "Lantern", "Summit", "Riverside", "Elm", "Magnolia", "Iron", "Wild", "Little")
NOUNS = ("Spoon", "Table", "Fork", "Kettle", "Oven", "Garden", "Door", "Lantern", "Anchor", "Rooster", "Pepper",
         "Barrel", "Owl", "Fox", "Bee", "Pearl")
RESTAURANT_NAMES = {
    "italian": ("Trattoria {last}", "Osteria {word}", "Pasta {word}", "{last}'s Pizzeria", "Il Forno"),
    "mexican": ("Taqueria {word}", "El {noun} Cantina", "La Cocina de {first}", "Casa {last}"),
    "japanese": ("Sushi {word}", "Ramen {word}", "Izakaya {noun}", "Kaiten {word}"),
    "chinese": ("{word} Dragon", "Dumpling House", "Szechuan {word}", "Jade Garden"),
    "indian": ("Tandoor {word}", "Spice Route", "{word} Curry House", "Masala Kitchen"),
    "thai": ("Thai {word}", "Bangkok Street Kitchen", "{word} Basil"),
    "american": ("The {word} {noun}", "{last}'s Diner", "{word} Burger Bar", "Smokehouse {noun}"),
    "french": ("Bistro {last}", "Café du {noun}", "Le Petit {noun}"),
    "mediterranean": ("{word} Olive", "Mezze {word}", "The Greek Table"),
    "korean": ("Seoul {word}", "K-Town BBQ", "Bibimbap House"),
    "vietnamese": ("Pho {word}", "Saigon {noun}", "Banh Mi {word}"),
}
NAMES = {
    "cafe": ("{word} Coffee", "Starbucks", "Blue Bottle Coffee", "{noun} & Bean", "Café {last}", "Peet's Coffee"),
    "bar": ("The {word} {noun}", "{word} Tavern", "{word} Brewing Co.", "{last}'s Pub", "The {noun} Room"),
    "bakery": ("{last}'s Bakery", "{word} Crust Bakery", "Flour & {noun}"),
    "grocery": ("Whole Foods Market", "Trader Joe's", "{word} Market", "Safeway", "{street} Grocery"),
    "pharmacy": ("CVS Pharmacy", "Walgreens", "{street} Pharmacy"),
    "gas_station": ("Shell", "Chevron", "Exxon", "BP"),
    "ev_charging": ("ChargePoint Station", "Tesla Supercharger", "EVgo Fast Charging"),
    "parking": ("{street} Garage", "{word} Parking", "SP+ Parking"),
    "museum": ("{city} Museum of Art", "{city} History Center", "Museum of Science", "Children's Museum",
               "Museum of Modern Design"),
    "park": ("{word} Park", "{street} Square", "{last} Memorial Park", "{word} Gardens"),
    "hotel": ("Hilton {city} Downtown", "Marriott {city}", "The {word} Hotel", "Hyatt Place", "{word} Inn"),
    "bank": ("Chase Bank", "Bank of America", "Wells Fargo", "{word} Credit Union"),
    "hospital": ("{city} General Hospital", "St. {first}'s Medical Center"),
    "gym": ("Planet Fitness", "{word} Fitness", "Equinox", "{word} Climbing Gym"),
    "library": ("{city} Public Library - {street} Branch",),
    "cinema": ("AMC {word} 12", "Regal Cinemas", "The {word} Theater"),
    "bookstore": ("{word} Books", "Barnes & Noble", "{last} & Sons Booksellers"),
    "shopping": ("Target", "{word} Mall", "{word} Outlet", "Best Buy"),
    "office": ("{company}", "{word} Tower", "{word} Plaza", "{noun} Building"),
    "residential": ("{street} Apartments", "The {word} Residences", "{word} Lofts"),
}
# category: how many per city
MIX = {"restaurant": 24, "cafe": 9, "bar": 6, "bakery": 3, "grocery": 4, "pharmacy": 3, "gas_station": 3,
       "ev_charging": 2, "parking": 3, "museum": 3, "park": 4, "hotel": 4, "bank": 3, "hospital": 1, "gym": 3,
       "library": 1, "cinema": 2, "bookstore": 2, "shopping": 3, "office": 4, "residential": 4}
# category: weekly hours options (Monday first)
HOURS = {
    "restaurant": ("11:30-22:00,11:30-22:00,11:30-22:00,11:30-22:00,11:30-23:00,11:00-23:00,11:00-21:00",
                   "closed,17:00-22:00,17:00-22:00,17:00-22:00,17:00-23:00,17:00-23:00,17:00-21:00",
                   "07:00-15:00,07:00-15:00,07:00-15:00,07:00-15:00,07:00-15:00,08:00-15:00,08:00-15:00",
                   "11:00-21:00,11:00-21:00,11:00-21:00,11:00-21:00,11:00-22:00,12:00-22:00,closed"),
    "cafe": ("06:30-18:00,06:30-18:00,06:30-18:00,06:30-18:00,06:30-18:00,07:30-17:00,07:30-17:00",
             "07:00-19:00,07:00-19:00,07:00-19:00,07:00-19:00,07:00-19:00,08:00-16:00,closed"),
    "bar": ("16:00-00:00,16:00-00:00,16:00-00:00,16:00-01:00,16:00-02:00,14:00-02:00,14:00-23:00",
            "closed,17:00-01:00,17:00-01:00,17:00-01:00,17:00-02:00,17:00-02:00,closed"),
    "bakery": ("07:00-17:00,07:00-17:00,07:00-17:00,07:00-17:00,07:00-17:00,08:00-16:00,08:00-14:00",
               "closed,07:00-16:00,07:00-16:00,07:00-16:00,07:00-16:00,08:00-15:00,08:00-15:00"),
    "grocery": ("07:00-22:00,07:00-22:00,07:00-22:00,07:00-22:00,07:00-22:00,07:00-22:00,08:00-21:00",
                "08:00-21:00,08:00-21:00,08:00-21:00,08:00-21:00,08:00-21:00,08:00-21:00,09:00-20:00"),
    "pharmacy": ("24h,24h,24h,24h,24h,24h,24h",
                 "08:00-21:00,08:00-21:00,08:00-21:00,08:00-21:00,08:00-21:00,09:00-18:00,10:00-17:00"),
    "gas_station": ("24h,24h,24h,24h,24h,24h,24h",
                    "06:00-23:00,06:00-23:00,06:00-23:00,06:00-23:00,06:00-23:00,07:00-23:00,07:00-22:00"),
    "ev_charging": ("24h,24h,24h,24h,24h,24h,24h",),
    "parking": ("24h,24h,24h,24h,24h,24h,24h",
                "06:00-00:00,06:00-00:00,06:00-00:00,06:00-00:00,06:00-02:00,07:00-02:00,07:00-22:00"),
    "museum": ("closed,10:00-17:00,10:00-17:00,10:00-17:00,10:00-21:00,10:00-18:00,10:00-18:00",
               "closed,closed,11:00-18:00,11:00-18:00,11:00-20:00,10:00-18:00,10:00-17:00"),
    "park": ("06:00-22:00,06:00-22:00,06:00-22:00,06:00-22:00,06:00-22:00,06:00-22:00,06:00-22:00",
             "24h,24h,24h,24h,24h,24h,24h"),
    "hotel": ("24h,24h,24h,24h,24h,24h,24h",),
    "bank": ("09:00-17:00,09:00-17:00,09:00-17:00,09:00-17:00,09:00-18:00,09:00-13:00,closed",
             "08:30-16:30,08:30-16:30,08:30-16:30,08:30-16:30,08:30-16:30,closed,closed"),
    "hospital": ("24h,24h,24h,24h,24h,24h,24h",),
    "gym": ("05:00-23:00,05:00-23:00,05:00-23:00,05:00-23:00,05:00-22:00,07:00-20:00,07:00-20:00",
            "24h,24h,24h,24h,24h,24h,24h"),
    "library": ("10:00-20:00,10:00-20:00,10:00-20:00,10:00-20:00,10:00-18:00,10:00-17:00,13:00-17:00",),
    "cinema": ("12:00-23:30,12:00-23:30,12:00-23:30,12:00-23:30,11:00-01:00,10:00-01:00,10:00-23:00",),
    "bookstore": ("10:00-20:00,10:00-20:00,10:00-20:00,10:00-20:00,10:00-21:00,09:00-21:00,10:00-18:00",
                  "closed,11:00-19:00,11:00-19:00,11:00-19:00,11:00-19:00,10:00-19:00,12:00-17:00"),
    "shopping": ("10:00-21:00,10:00-21:00,10:00-21:00,10:00-21:00,10:00-21:00,10:00-21:00,11:00-19:00",
                 "08:00-22:00,08:00-22:00,08:00-22:00,08:00-22:00,08:00-22:00,08:00-22:00,08:00-22:00"),
    "office": ("08:00-19:00,08:00-19:00,08:00-19:00,08:00-19:00,08:00-18:00,closed,closed",),
    "residential": ("24h,24h,24h,24h,24h,24h,24h",),
}
PRICED = {"restaurant": (1, 4), "cafe": (1, 2), "bar": (2, 3), "bakery": (1, 2), "hotel": (2, 4),
          "cinema": (2, 2), "gym": (1, 3)}
GOOD = ("Great {thing}, friendly staff.", "Loved the {thing}. Will come back!", "Best {thing} in the neighborhood.",
        "Clean, quick and the {thing} {was} excellent.", "Hidden gem. The {thing} {is} worth the trip.")
MIXED = ("Decent {thing} but a bit pricey.", "Good {thing}, slow service at peak times.",
         "Fine for a quick stop; the {thing} {was} okay.")
BAD = ("Long wait and the {thing} {was} disappointing.", "Not what it used to be; the {thing} {was} cold.",
       "Rude staff, would not recommend the {thing}.")
THINGS = {"cafe": ("coffee", "latte", "pastries"),
          "bar": ("cocktails", "beer list", "atmosphere"), "bakery": ("bread", "croissants", "cakes"),
          "museum": ("exhibits", "collection", "guided tour"), "park": ("trails", "playground", "views"),
          "hotel": ("rooms", "breakfast", "location"), "gym": ("equipment", "classes"), "cinema": ("screens", "seats")}
# What a restaurant's reviews praise or fault besides its food: dishes of its cuisine (no pasta at a Korean place).
DISHES = {"italian": ("pasta", "pizza"), "mexican": ("tacos", "salsa"), "japanese": ("sushi", "ramen"),
          "chinese": ("dumplings", "noodles"), "indian": ("curry", "naan"), "thai": ("pad thai", "green curry"),
          "american": ("burgers", "fries"), "french": ("steak frites", "croissants"),
          "mediterranean": ("falafel", "hummus"), "korean": ("bibimbap", "kimchi"), "vietnamese": ("pho", "banh mi")}


def _things(place: dict) -> tuple[str, ...]:
    """What a review of a place is about: a restaurant's dishes are of its cuisine."""
    if place["category"] == "restaurant":
        return ("food", *DISHES[place["cuisine"]], "service", "dessert", "menu")
    return THINGS.get(place["category"], ("service", "place", "staff"))


# What a review may call cold: what is eaten or drunk, a room, a welcome (not "the location was cold").
SERVED_WARM = frozenset({"food", "dessert", "coffee", "latte", "pastries", "bread", "croissants", "cakes", "rooms",
                         "breakfast", "service"} | {d for dishes in DISHES.values() for d in dishes})


def _review(template: str, thing: str) -> str:
    """A review about a thing, its verb agreeing with it ("the trails were okay", "the food was"); a thing that
    is not served warm is a letdown, never cold."""
    plural = thing.endswith("s") and not thing.endswith(("ss", "us"))
    if thing not in SERVED_WARM:
        template = template.replace("{was} cold", "{was} a letdown")
    return template.format(thing=thing, **{"was": "were" if plural else "was", "is": "are" if plural else "is"})


CLOSURE_REASONS = (("water main repair", "gas leak repair", "utility work", "emergency sewer repair"),
                   ("building construction", "bridge repair", "streetcar track work", "repaving"),
                   ("street festival", "marathon route", "film shoot", "parade", "farmers market"))
# Places one goes out to, which a list of favourites or of places to try holds (not a bank or a gas station).
OUTINGS = frozenset({"restaurant", "cafe", "bar", "bakery", "museum", "park", "cinema", "bookstore", "library", "gym"})
# The user's lists: name, description, and the kinds of place each holds.
LIST_NAMES = (("Want to go", "Places to try", OUTINGS),
              ("Date night", None, frozenset({"restaurant", "bar", "cinema", "museum"})),
              ("Coffee spots", "Good places to work from", frozenset({"cafe", "bakery"})),
              ("Visiting family", None, frozenset({"restaurant", "cafe", "park", "museum", "hotel"})),
              ("Weekend brunch", None, frozenset({"restaurant", "cafe", "bakery"})))
# The kinds of place a list of each name holds: the world's lists, and those a user may create.
LIST_KINDS = {"Favorites": OUTINGS, **{name: kinds for name, _, kinds in LIST_NAMES},
              "Museums to visit": frozenset({"museum"}), "Kid-friendly": frozenset({"park", "museum", "library"}),
              "Late-night food": frozenset({"restaurant", "bar"}), "Best parks": frozenset({"park"}),
              "Visiting friends": frozenset({"restaurant", "cafe", "bar", "museum", "park"})}
# Notes on saved places, with the kinds of place each fits (None: any).
LIST_NOTES = (("try the specials", frozenset({"restaurant", "cafe", "bar", "bakery"})),
              ("good for groups", frozenset({"restaurant", "bar", "museum", "park", "cinema"})),
              ("book ahead", frozenset({"restaurant", "hotel", "bar"})), ("go early", None))


def grid_latlon(city: dict[str, Any], x: float, y: float) -> tuple[float, float]:
    """Metres east (x) and north (y) of a city's south-west corner, as (lat, lon)."""
    lat = city["lat0"] + y / METERS_PER_DEGREE
    lon = city["lon0"] + x / (METERS_PER_DEGREE * math.cos(math.radians(city["lat0"])))
    return round(lat, 6), round(lon, 6)


def place_xy(city: dict[str, Any], street: dict[str, Any], block: int, frac: float, side: str) -> tuple[float, float]:
    """Where a place on a block stands, in metres from the city's south-west corner."""
    offset = 15.0
    if street["axis"] == "ew":
        y = street["idx"] * city["spacing_y"] + (offset if side == "left" else -offset)
        return (block + frac) * city["spacing_x"], y
    x = street["idx"] * city["spacing_x"] + (-offset if side == "left" else offset)
    return x, (block + frac) * city["spacing_y"]


def house_number(block: int, frac: float, side: str) -> int:
    """Numbers rise by 100 a block; even on the left (north or west) side, odd on the right."""
    return (block + 1) * 100 + 2 * min(int(frac * 49), 48) + (0 if side == "left" else 1)


def locate(city: dict[str, Any], street: dict[str, Any], block: int, frac: float, side: str) -> dict[str, Any]:
    """The location columns of a place on a block: street, block, position, number, zip, coordinates."""
    x, y = place_xy(city, street, block, frac, side)
    lat, lon = grid_latlon(city, x, y)
    district = int(max(x, 0) // (city["spacing_x"] * 3)) * 4 + int(max(y, 0) // (city["spacing_y"] * 3))
    return {"street_id": street["street_id"], "block": block, "frac": frac, "side": side,
            "number": house_number(block, frac, side), "zip": f"{city['zip_prefix']}{district + 1:02d}"[:5],
            "lat": lat, "lon": lon}


def my_place(name: str) -> str:
    """How the user names their review of a place: by the place, without a leading 'The'
    ("my Little Kettle review")."""
    return name[4:] if name.startswith("The ") else name


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    rng, fake, now = w.rng, w.fake, w.now
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in (
        "cities", "streets", "places", "reviews", "profile", "saved_lists", "saved_places", "closure_reports",
        "transit_lines", "road_closures")}
    zone, highway = rng.choice(ZONES)
    names = rng.sample(zone, 3)
    by_name = {c.name: c for c in CITIES}
    street_no = 0
    city_places: list[list[dict[str, Any]]] = []
    for n, cname in enumerate(names):
        base = by_name[cname]
        nx, ny = 10, 10
        sx, sy = rng.choice((320.0, 360.0, 400.0)), rng.choice((220.0, 250.0, 280.0))
        lat0 = round(base.lat - (ny - 1) * sy / 2 / METERS_PER_DEGREE, 6)
        lon0 = round(base.lon - (nx - 1) * sx / 2 / (METERS_PER_DEGREE * math.cos(math.radians(base.lat))), 6)
        city = {"city_id": w.new_id("CTY"), "name": cname, "region": base.region, "zip_prefix": base.zip_prefix,
                "lat0": lat0, "lon0": lon0, "spacing_x": sx, "spacing_y": sy, "nx": nx, "ny": ny,
                "highway": highway, "highway_i": rng.choice((0, nx - 1)),
                "highway_j": rng.choice((0, ny - 1))}
        rows["cities"].append(city)
        streets = []
        arterial_ns = set(rng.sample(range(1, nx - 1), 2))
        arterial_ew = set(rng.sample(range(1, ny - 1), 2))
        for axis, pool, count, arterials in (("ns", AVENUES, nx, arterial_ns), ("ew", STREETS, ny, arterial_ew)):
            for idx, sname in enumerate(rng.sample(pool, count)):
                street_no += 1
                arterial = idx in arterials
                oneway = 0 if arterial or rng.random() < 0.6 else rng.choice((-1, 1))
                streets.append({"street_id": street_no, "city_id": city["city_id"], "name": sname, "axis": axis,
                                "idx": idx, "road_class": "arterial" if arterial else "local", "oneway": oneway})
        rows["streets"] += streets
        places = _places(w, city, streets)
        rows["places"] += places
        city_places.append(places)
        _transit(w, rows, city, streets)
        _closures(w, rows, city, streets)
        if n == 0:
            _closed_in(w, rows, city, streets, places)

    # ----- reviews ---------------------------------------------------------------------------------
    for places in city_places:
        for p in places:
            if p["category"] in ("residential", "office", "parking", "ev_charging", "gas_station", "bank"):
                continue
            for _ in range(rng.choice((0, 1, 2, 2, 3, 3, 4))):
                stars = rng.choices((5, 4, 3, 2, 1), (40, 30, 15, 8, 7))[0]
                template = rng.choice(GOOD if stars >= 4 else MIXED if stars == 3 else BAD)
                thing = rng.choice(_things(p))
                when = now - timedelta(days=rng.randint(1, 400), minutes=rng.randrange(0, 600, 5))
                rows["reviews"].append({"review_id": w.new_id("REV"), "place_id": p["place_id"],
                                        "author": _short(fake.person()), "is_mine": 0, "my_place": None, "rating": stars,
                                        "body": _review(template, thing), "created_at": iso(when),
                                        "updated_at": None})

    # ----- the signed-in user ----------------------------------------------------------------------------
    home_city = city_places[0]
    person = fake.person()
    home = next(p for p in home_city if p["category"] == "residential")
    work = max((p for p in home_city if p["category"] == "office"),
               key=lambda p: abs(p["lat"] - home["lat"]) + abs(p["lon"] - home["lon"]))
    rows["profile"].append({"user_id": w.new_id("USR"), "name": person.name, "home_place_id": home["place_id"],
                            "work_place_id": work["place_id"]})
    reviewable = [p for places in city_places for p in places
                  if p["category"] in ("restaurant", "cafe", "bar", "museum")]
    for p in rng.sample(reviewable, rng.randint(3, 5)):
        stars = rng.choice((5, 4, 4, 3, 2))
        template = rng.choice(GOOD if stars >= 4 else MIXED if stars == 3 else BAD)
        thing = rng.choice(_things(p))
        rows["reviews"].append({"review_id": w.new_id("REV"), "place_id": p["place_id"], "author": _short(person),
                                "is_mine": 1, "my_place": my_place(p["name"]), "rating": stars,
                                "body": _review(template, thing),
                                "created_at": iso(now - timedelta(days=rng.randint(3, 200), hours=rng.randint(1, 9))),
                                "updated_at": None})

    lists = [("Favorites", "Places I love", OUTINGS, 1)] + [(a, b, kinds, 0) for a, b, kinds in rng.sample(LIST_NAMES, 2)]
    open_places = [p for places in city_places for p in places if p["status"] == "open"]
    for k, (name, description, kinds, default) in enumerate(lists):
        list_id = w.new_id("LST")
        rows["saved_lists"].append({"list_id": list_id, "name": name, "description": description, "is_default": default,
                                    "created_at": iso(now - timedelta(days=300 - 40 * k))})
        fitting = [p for p in open_places if p["category"] in kinds]
        for p in rng.sample(fitting, min(len(fitting), rng.randint(4, 7))):
            notes = [note for note, fits in LIST_NOTES if fits is None or p["category"] in fits]
            rows["saved_places"].append({"list_id": list_id, "place_id": p["place_id"],
                                         "note": rng.choice((None, None, *notes)),
                                         "added_at": iso(now - timedelta(days=rng.randint(1, 250)))})

    # The user reported a cafe near home as closed; the report was confirmed.
    closed = rng.choice([p for p in home_city if p["category"] == "cafe" and p["status"] == "open"])
    closed["status"] = "temporarily_closed"
    rows["saved_places"] = [sp for sp in rows["saved_places"] if sp["place_id"] != closed["place_id"]]
    filed = now - timedelta(days=rng.randint(5, 30), hours=3)
    rows["closure_reports"].append({"report_id": w.new_id("RPT"), "place_id": closed["place_id"],
                                    "reported": "temporarily_closed", "note": "Sign on the door says renovations",
                                    "status": "confirmed", "created_at": iso(filed),
                                    "resolved_at": iso(filed + REVIEW_AFTER)})

    keys = {"saved_places": ("list_id", "place_id")}
    for table, items in rows.items():
        if items:
            cols = keys.get(table, (next(iter(items[0])),))
            items.sort(key=lambda r: tuple(r[c] for c in cols))
    return rows


def _short(person: Any) -> str:
    return f"{person.first} {person.last[0]}."


def _places(w: WorldGen, city: dict[str, Any], streets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rng, fake = w.rng, w.fake
    taken: set[tuple[int, int]] = set()
    used_names: set[str] = set()
    places = []
    plan = [c for c, k in MIX.items() for _ in range(k)]
    for category in plan:
        for _attempt in range(50):
            street = rng.choice(streets)
            blocks = (city["nx"] if street["axis"] == "ew" else city["ny"]) - 1
            block, frac, side = rng.randrange(blocks), rng.randint(8, 92) / 100, rng.choice(("left", "right"))
            number = house_number(block, frac, side)
            if (street["street_id"], number) not in taken:
                break
        taken.add((street["street_id"], number))
        cuisine = rng.choice(CUISINES) if category == "restaurant" else None
        pool = RESTAURANT_NAMES[cuisine] if cuisine else NAMES[category]
        name = ""
        for _attempt in range(20):
            name = rng.choice(pool).format(
                word=rng.choice(WORDS), noun=rng.choice(NOUNS), last=fake.person().last, first=fake.person().first,
                city=city["name"], street=street["name"].rsplit(" ", 1)[0], company=fake.company())
            if name not in used_names:
                break
        if name in used_names:
            name = f"{name} ({street['name']})"
        used_names.add(name)
        count = rng.randint(3, 900) if category not in ("residential", "office") else rng.randint(0, 12)
        mean = rng.uniform(3.4, 4.8) if category != "residential" else rng.uniform(3.0, 4.5)
        low, high = PRICED.get(category, (0, 0))
        status = "open"
        roll = rng.random()
        if category not in ("residential", "office", "hospital") and roll < 0.04:
            status = "temporarily_closed"
        elif category not in ("residential", "office", "hospital") and roll < 0.06:
            status = "permanently_closed"
        places.append({
            "place_id": w.new_id("PLC"), "city_id": city["city_id"], "name": name, "category": category,
            "cuisine": cuisine, **locate(city, street, block, frac, side),
            "phone": fake.phone() if category != "residential" else None,
            "price_level": rng.randint(low, high) if high else None, "hours": rng.choice(HOURS[category]),
            "rating_total": round(count * mean), "rating_count": count, "status": status})
    return places


def _closed_in(w: WorldGen, rows: dict[str, list[dict[str, Any]]], city: dict[str, Any],
               streets: list[dict[str, Any]], places: list[dict[str, Any]]) -> None:
    """Move a restaurant onto the block the home city's short road closure shuts: cars and
    bicycles cannot reach it until the closure ends (early on a day after the epoch)."""
    closure = next(c for c in rows["road_closures"] if c["street_id"] in {s["street_id"] for s in streets})
    street = next(s for s in streets if s["street_id"] == closure["street_id"])
    taken = {p["number"] for p in places if p["street_id"] == street["street_id"]}
    frac = next(f / 100 for f in (50, 30, 70, 20, 80, 40, 60)
                if house_number(closure["block"], f / 100, "left") not in taken)
    target = next(p for p in places if p["category"] == "restaurant" and p["status"] == "open")
    target.update(locate(city, street, closure["block"], frac, "left"))


def _transit(w: WorldGen, rows: dict[str, list[dict[str, Any]]], city: dict[str, Any],
             streets: list[dict[str, Any]]) -> None:
    rng = w.rng
    arterials = [s for s in streets if s["road_class"] == "arterial"]
    ns = [s for s in arterials if s["axis"] == "ns"]
    ew = [s for s in arterials if s["axis"] == "ew"]
    subway_names = rng.sample(("Red Line", "Blue Line", "Green Line", "Orange Line", "Silver Line", "Gold Line"), 2)
    specs = [(subway_names[0], "subway", ns[0], 2, rng.choice((6, 8)), "05:30", "24:30", 0, 2.75),
             (subway_names[1], "subway", ew[0], 2, rng.choice((8, 10)), "05:30", "24:00", 0, 2.75)]
    two_way = [s for s in streets if s["axis"] == "ew" and s["road_class"] == "local" and s["oneway"] == 0]
    bus_streets = [ns[1], rng.choice(two_way) if two_way else ew[1]]
    for k, street in enumerate(bus_streets):
        specs.append((f"Bus {rng.randint(2, 99)}", "bus", street, 1, rng.choice((12, 15, 20)),
                      rng.choice(("06:00", "06:30")), rng.choice(("21:00", "22:00", "23:00")),
                      int(k == 1 and rng.random() < 0.5),
                      1.75))
    for name, mode, street, every, headway, first, last, weekdays, fare in specs:
        rows["transit_lines"].append({"line_id": w.new_id("LIN"), "city_id": city["city_id"], "name": name,
                                      "mode": mode, "street_id": street["street_id"], "stop_every": every,
                                      "headway_min": headway, "first_departure": first, "last_departure": last,
                                      "weekdays_only": weekdays, "fare": fare})


def _closures(w: WorldGen, rows: dict[str, list[dict[str, Any]]], city: dict[str, Any],
              streets: list[dict[str, Any]]) -> None:
    rng, now = w.rng, w.now
    windows = (
        (now - timedelta(days=rng.randint(1, 5), hours=3), now + timedelta(hours=rng.choice((9, 21, 45)))),
        (now - timedelta(days=rng.randint(10, 40)), now + timedelta(days=rng.randint(14, 60))),
        (now + timedelta(days=rng.randint(2, 5), hours=-2), now + timedelta(days=rng.randint(2, 5), hours=8)),
    )
    chosen = rng.sample(streets, len(windows))
    for street, (start, end), reasons in zip(chosen, windows, CLOSURE_REASONS):
        blocks = (city["nx"] if street["axis"] == "ew" else city["ny"]) - 1
        if end <= start:
            end = start + timedelta(hours=10)
        rows["road_closures"].append({"closure_id": w.new_id("RCL"), "street_id": street["street_id"],
                                      "block": rng.randrange(1, blocks - 1), "starts_at": iso(start),
                                      "ends_at": iso(end), "reason": rng.choice(reasons)})
