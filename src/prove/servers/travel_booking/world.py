"""The travel booking world: one signed-in traveller's account at an online travel agency.

`build_world` creates the traveller and the companions they book for, their saved cards and
loyalty account, a flight network of direct routes from their home airport (plus a few other
routes) with three weeks of dated flights, hotels with room types in every destination city,
and their bookings: completed trips of the last months and upcoming ones (one leaves tomorrow
morning, an international one with a companion, a basic economy fare bought yesterday, a flight
the airline cancelled, a cancelled booking and a prepaid hotel stay).

Everything random comes from `w.rng` and `w.fake`, so a seed always gives the same world and
different seeds give different people, home airports, routes, fares, hotels and bookings.

This module also holds the vocabulary the tools share with the world: aircraft seat maps, fare
rules, bag fees, loyalty tiers and the timing rules.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.values import iso, spoken_day

# ----- rules shared with the tools ----------------------------------------------------------------

SCHEDULE_DAYS = 21                   # flights are on sale for the epoch's day and the 20 days after
CHECK_IN_OPENS = timedelta(hours=24)  # online check-in opens this long before departure...
CHECK_IN_CLOSES = timedelta(hours=1)  # ...and closes this long before it
FREE_CANCEL_DAYS = 7                 # the 24-hour rule: bookings made at least 7 days before departure...
FREE_CANCEL_WINDOW = timedelta(hours=24)  # ...may be cancelled for free for 24 hours
PASSPORT_MONTHS = 6                  # a passport must be valid 6 months past an international flight
MAX_PASSENGERS = 9
ADULT_AGE = 15                       # a child under this age flies only with an older traveller on the booking
MAX_BAGS = 3                         # checked bags per passenger per flight
BAG_FEES = (35.0, 45.0, 150.0)       # the 1st, 2nd and 3rd checked bag, beyond the free allowance
HOTEL_CHECK_IN = time(15, 0)
HOTEL_CHECK_OUT = time(11, 0)
HOTEL_FREE_CANCEL = timedelta(hours=48)  # flexible rates: free cancellation until 48h before check-in
WEEKEND_UPLIFT = 1.2                 # Friday and Saturday nights cost more
NON_REFUNDABLE_DISCOUNT = 0.9        # the non-refundable rate plan is 10% cheaper
MAX_NIGHTS = 28
MAX_DAYS_AHEAD = 330                 # how far ahead a hotel stay may start
POINTS_PER_DOLLAR = {"flight": 5, "hotel": 3}  # loyalty points per dollar paid by card, before the tier bonus
POINT_VALUE = 0.01                   # a point is worth one cent when paying with points

TIERS = ("member", "silver", "gold", "platinum")
TIER_MULTIPLIER = {"member": 1.0, "silver": 1.25, "gold": 1.5, "platinum": 2.0}
TIER_FREE_BAGS = {"member": 0, "silver": 1, "gold": 1, "platinum": 2}

CABINS = ("economy", "premium_economy", "business")



def flight_summary(flight: Any, today: date) -> str:
    """How a flight booking is named: 'AS 2585 SEA to AUS on March 20'."""
    return f"{flight['flight_number']} {flight['origin']} to {flight['destination']} on " \
           f"{spoken_day(flight['departs_at'], today)}"


def stay_summary(hotel: str, room: str, check_in: date, check_out: date, today: date) -> str:
    """How a hotel booking is named: 'Harbor Hotel, King Room, March 20 to March 23'."""
    return f"{hotel}, {room}, {spoken_day(check_in, today)} to {spoken_day(check_out, today)}"

@dataclass(frozen=True)
class FareRule:
    """A fare family: its cabin, price against the cabin's base fare and its rules."""

    fare: str
    name: str
    cabin: str
    multiplier: float
    change_fee: float | None        # per passenger; None: changes not allowed
    cancellation_fee: float | None  # per passenger, kept from the refund; None: no refund at all
    bags_included: int              # free checked bags per passenger
    seat_selection: bool            # seats may be chosen before check-in


FARES: dict[str, FareRule] = {f.fare: f for f in (
    FareRule("basic_economy", "Basic Economy", "economy", 0.8, None, None, 0, False),
    FareRule("economy", "Main Cabin", "economy", 1.0, 75.0, 150.0, 0, True),
    FareRule("economy_flex", "Main Cabin Flex", "economy", 1.4, 0.0, 0.0, 1, True),
    FareRule("premium_economy", "Premium Economy", "premium_economy", 1.0, 50.0, 100.0, 2, True),
    FareRule("business", "Business", "business", 1.0, 0.0, 0.0, 2, True),
)}


@dataclass(frozen=True)
class CabinLayout:
    cabin: str
    rows: tuple[int, ...]
    letters: str                    # seat letters from left to right
    aisle_after: str                # letters with an aisle on their right
    extra_legroom: tuple[int, ...] = ()

    def seats(self) -> list[str]:
        return [f"{row}{letter}" for row in self.rows for letter in self.letters]

    def position(self, letter: str) -> str:
        i = self.letters.index(letter)
        if i in (0, len(self.letters) - 1):
            return "window"
        if letter in self.aisle_after or self.letters[i - 1] in self.aisle_after:
            return "aisle"
        return "middle"


def _cabin(cabin: str, first: int, last: int, letters: str, aisle_after: str,
           extra: tuple[int, ...] = ()) -> CabinLayout:
    return CabinLayout(cabin, tuple(range(first, last + 1)), letters, aisle_after, extra)


AIRCRAFT: dict[str, dict[str, CabinLayout]] = {
    "Embraer 175": {"business": _cabin("business", 1, 3, "ACD", "A"),
                    "economy": _cabin("economy", 7, 22, "ACDF", "C", (7, 11))},
    "Airbus A320": {"business": _cabin("business", 1, 3, "ACDF", "C"),
                    "economy": _cabin("economy", 7, 30, "ABCDEF", "C", (7, 10, 11))},
    "Boeing 737-800": {"business": _cabin("business", 1, 4, "ACDF", "C"),
                       "economy": _cabin("economy", 8, 31, "ABCDEF", "C", (8, 14, 15))},
    "Boeing 787-9": {"business": _cabin("business", 1, 8, "ADGK", "AG"),
                     "premium_economy": _cabin("premium_economy", 20, 24, "ABDEFHK", "BF"),
                     "economy": _cabin("economy", 30, 56, "ABCDEFHJK", "CF", (30, 45))},
    "Airbus A350-900": {"business": _cabin("business", 1, 10, "ADGK", "AG"),
                        "premium_economy": _cabin("premium_economy", 20, 24, "ABDEFHK", "BF"),
                        "economy": _cabin("economy", 30, 55, "ABCDEFHJK", "CF", (30, 42))},
}


def capacity(aircraft: str, cabin: str) -> int:
    layout = AIRCRAFT[aircraft].get(cabin)
    return len(layout.seats()) if layout else 0


def seat_cabin(aircraft: str, seat: str) -> CabinLayout | None:
    """The cabin of the aircraft holding `seat` ('14C'), or None if there is no such seat."""
    for layout in AIRCRAFT[aircraft].values():
        if seat in layout.seats():
            return layout
    return None


def others_seats(flight_id: str, aircraft: str, cabin: str, sold: int) -> set[str]:
    """The seats of a cabin held by other customers of the airline (`sold` of them).

    Derived from the flight's ID (no state), so the seat map is stable: the cabin's seats in a
    hash order, the first `sold` taken.
    """
    layout = AIRCRAFT[aircraft].get(cabin)
    if layout is None or sold <= 0:
        return set()
    order = sorted(layout.seats(), key=lambda s: hashlib.sha1(f"{flight_id}:{s}".encode()).digest())
    return set(order[:sold])


# ----- catalogues -------------------------------------------------------------------------------

# code, name, city, country, latitude, longitude, UTC offset in March 2026
AIRPORTS = (
    ("JFK", "John F. Kennedy International Airport", "New York", "US", 40.6413, -73.7781, -4),
    ("BOS", "Boston Logan International Airport", "Boston", "US", 42.3656, -71.0096, -4),
    ("ORD", "Chicago O'Hare International Airport", "Chicago", "US", 41.9742, -87.9073, -5),
    ("ATL", "Hartsfield-Jackson Atlanta International Airport", "Atlanta", "US", 33.6407, -84.4277, -4),
    ("MIA", "Miami International Airport", "Miami", "US", 25.7959, -80.2870, -4),
    ("AUS", "Austin-Bergstrom International Airport", "Austin", "US", 30.1975, -97.6664, -5),
    ("DEN", "Denver International Airport", "Denver", "US", 39.8561, -104.6737, -6),
    ("SEA", "Seattle-Tacoma International Airport", "Seattle", "US", 47.4502, -122.3088, -7),
    ("SFO", "San Francisco International Airport", "San Francisco", "US", 37.6213, -122.3790, -7),
    ("LAX", "Los Angeles International Airport", "Los Angeles", "US", 33.9416, -118.4085, -7),
    ("YYZ", "Toronto Pearson International Airport", "Toronto", "CA", 43.6777, -79.6248, -4),
    ("MEX", "Mexico City International Airport", "Mexico City", "MX", 19.4361, -99.0719, -6),
    ("LHR", "London Heathrow Airport", "London", "GB", 51.4700, -0.4543, 0),
    ("CDG", "Paris Charles de Gaulle Airport", "Paris", "FR", 49.0097, 2.5479, 1),
    ("AMS", "Amsterdam Airport Schiphol", "Amsterdam", "NL", 52.3105, 4.7683, 1),
    ("FRA", "Frankfurt Airport", "Frankfurt", "DE", 50.0379, 8.5622, 1),
    ("MAD", "Adolfo Suarez Madrid-Barajas Airport", "Madrid", "ES", 40.4983, -3.5676, 1),
    ("LIS", "Lisbon Humberto Delgado Airport", "Lisbon", "PT", 38.7742, -9.1342, 0),
    ("NRT", "Tokyo Narita International Airport", "Tokyo", "JP", 35.7720, 140.3929, 9),
)
AIRPORT = {a[0]: a for a in AIRPORTS}

AIRLINES = (
    ("DL", "Delta Air Lines", "SkyTeam"), ("UA", "United Airlines", "Star Alliance"),
    ("AA", "American Airlines", "oneworld"), ("B6", "JetBlue", None), ("AS", "Alaska Airlines", "oneworld"),
    ("WN", "Southwest Airlines", None), ("AC", "Air Canada", "Star Alliance"), ("AM", "Aeromexico", "SkyTeam"),
    ("BA", "British Airways", "oneworld"), ("AF", "Air France", "SkyTeam"), ("KL", "KLM", "SkyTeam"),
    ("LH", "Lufthansa", "Star Alliance"), ("IB", "Iberia", "oneworld"), ("TP", "TAP Air Portugal", "Star Alliance"),
    ("JL", "Japan Airlines", "oneworld"),
)
HOMES = ("JFK", "BOS", "ORD", "ATL", "DEN", "SEA", "SFO", "LAX", "AUS")
HUB_AIRLINES = {"JFK": ("DL", "B6", "AA"), "BOS": ("B6", "DL"), "ORD": ("UA", "AA"), "ATL": ("DL",),
                "DEN": ("UA", "WN"), "SEA": ("AS", "DL"), "SFO": ("UA", "AS"), "LAX": ("AA", "DL", "UA"),
                "AUS": ("WN", "AA"), "MIA": ("AA",), "YYZ": ("AC",)}
FLAG_CARRIER = {"LHR": "BA", "CDG": "AF", "AMS": "KL", "FRA": "LH", "MAD": "IB", "LIS": "TP", "NRT": "JL",
                "MEX": "AM", "YYZ": "AC"}
AIRPORT_COUNTRY = {a[2]: a[3] for a in AIRPORTS}
DOMESTIC = tuple(a[0] for a in AIRPORTS if a[3] == "US")
ABROAD = tuple(a[0] for a in AIRPORTS if a[3] != "US")

NEIGHBORHOODS = {
    "New York": ("Midtown", "SoHo", "Times Square", "Financial District", "Chelsea"),
    "Boston": ("Back Bay", "Seaport", "Beacon Hill", "Downtown"),
    "Chicago": ("River North", "The Loop", "Magnificent Mile", "West Loop"),
    "Atlanta": ("Midtown", "Buckhead", "Downtown"),
    "Miami": ("South Beach", "Brickell", "Downtown", "Coconut Grove"),
    "Austin": ("Downtown", "South Congress", "The Domain"),
    "Denver": ("LoDo", "Cherry Creek", "Union Station", "Capitol Hill"),
    "Seattle": ("Downtown", "Pike Place", "South Lake Union", "Capitol Hill"),
    "San Francisco": ("Union Square", "Fisherman's Wharf", "SoMa", "Nob Hill"),
    "Los Angeles": ("Santa Monica", "Downtown", "West Hollywood", "Beverly Hills"),
    "Toronto": ("Downtown", "Yorkville", "Entertainment District"),
    "Mexico City": ("Polanco", "Roma Norte", "Reforma", "Condesa"),
    "London": ("Kensington", "Covent Garden", "Shoreditch", "Paddington", "Westminster"),
    "Paris": ("Saint-Germain", "Le Marais", "Opera", "Montmartre"),
    "Amsterdam": ("Centrum", "Jordaan", "De Pijp", "Museumplein"),
    "Frankfurt": ("Altstadt", "Westend", "Sachsenhausen"),
    "Madrid": ("Gran Via", "Salamanca", "Retiro", "Chamberi"),
    "Lisbon": ("Baixa", "Chiado", "Alfama", "Avenida"),
    "Tokyo": ("Shinjuku", "Ginza", "Shibuya", "Roppongi"),
}
# streets a hotel of each city stands on; the number goes after the street where the city writes it so
STREETS = {
    "New York": ("West 44th Street", "Lexington Avenue", "Broadway", "Park Avenue", "West 57th Street"),
    "Boston": ("Boylston Street", "Newbury Street", "Congress Street", "Tremont Street"),
    "Chicago": ("North Michigan Avenue", "West Wacker Drive", "North State Street", "West Randolph Street"),
    "Atlanta": ("Peachtree Street NE", "Spring Street NW", "Piedmont Avenue NE"),
    "Miami": ("Collins Avenue", "Brickell Avenue", "Biscayne Boulevard", "Ocean Drive"),
    "Austin": ("Congress Avenue", "East 6th Street", "Cesar Chavez Street"),
    "Denver": ("17th Street", "Larimer Street", "Wynkoop Street", "Broadway"),
    "Seattle": ("Pike Street", "4th Avenue", "Westlake Avenue", "Olive Way"),
    "San Francisco": ("Market Street", "Powell Street", "Mission Street", "California Street"),
    "Los Angeles": ("Wilshire Boulevard", "Sunset Boulevard", "South Figueroa Street", "Ocean Avenue"),
    "Toronto": ("King Street West", "Front Street West", "Bloor Street West", "Yonge Street"),
    "Mexico City": ("Paseo de la Reforma", "Avenida Presidente Masaryk", "Calle Durango"),
    "London": ("Cromwell Road", "Strand", "Bayswater Road", "Great Eastern Street", "Victoria Street"),
    "Paris": ("Rue de Rivoli", "Boulevard Haussmann", "Rue Saint-Honore", "Boulevard Saint-Germain"),
    "Amsterdam": ("Damrak", "Prinsengracht", "Rokin", "Stadhouderskade"),
    "Frankfurt": ("Kaiserstrasse", "Mainzer Landstrasse", "Neue Mainzer Strasse"),
    "Madrid": ("Gran Via", "Calle de Alcala", "Calle de Serrano", "Paseo del Prado"),
    "Lisbon": ("Avenida da Liberdade", "Rua Augusta", "Rua Garrett"),
    "Tokyo": ("Nishi-Shinjuku", "Ginza", "Roppongi", "Dogenzaka"),
}
NUMBER_AFTER = {"Mexico City", "Amsterdam", "Frankfurt", "Madrid", "Lisbon"}


def hotel_address(city: str, number: int) -> str:
    """'1759 Peachtree Street NE, Atlanta', '12 Cromwell Road, London', 'Damrak 41, Amsterdam',
    '2-7-3 Nishi-Shinjuku, Tokyo': a street of the city, numbered as it numbers them."""
    street = STREETS[city][number % len(STREETS[city])]
    if city == "Tokyo":
        return f"{number % 4 + 1}-{number % 17 + 1}-{number % 9 + 1} {street}, {city}"
    if city in NUMBER_AFTER:
        return f"{street} {number % 180 + 1}, {city}"
    return f"{number if AIRPORT_COUNTRY[city] == 'US' else number % 240 + 1} {street}, {city}"


# brand, stars, where ('us', 'world' or 'any'), nightly rate for a standard room in a mid-priced city
BRANDS = (
    ("Hampton Inn", 3, "us", 149), ("Courtyard by Marriott", 3, "us", 169), ("Holiday Inn Express", 2, "any", 129),
    ("Hyatt Regency", 4, "any", 229), ("The Westin", 4, "any", 249), ("Hilton", 4, "any", 219),
    ("Kimpton", 4, "us", 239), ("Ace Hotel", 4, "us", 209), ("Moxy", 3, "any", 139), ("citizenM", 3, "any", 159),
    ("Novotel", 3, "world", 139), ("ibis", 2, "world", 99), ("Radisson Blu", 4, "world", 189),
    ("Park Hyatt", 5, "any", 489), ("Four Seasons", 5, "any", 629), ("Sheraton", 4, "any", 199),
)
CITY_PRICE = {"New York": 1.45, "Boston": 1.25, "San Francisco": 1.3, "London": 1.35, "Paris": 1.3,
              "Tokyo": 1.1, "Amsterdam": 1.15, "Miami": 1.2, "Los Angeles": 1.2, "Seattle": 1.1,
              "Mexico City": 0.7, "Lisbon": 0.85, "Madrid": 0.9, "Austin": 1.0, "Atlanta": 0.9}
AMENITIES = ("free wifi", "fitness center", "restaurant", "bar", "pool", "spa", "breakfast included",
             "airport shuttle", "pet friendly", "parking", "business center", "rooftop terrace")
# name, beds, max guests, price factor against the standard room
ROOM_TYPES = (
    ("Standard King", "1 king bed", 2, 1.0), ("Standard Two Queens", "2 queen beds", 4, 1.12),
    ("Deluxe King", "1 king bed", 2, 1.3), ("Junior Suite", "1 king bed and a sofa bed", 3, 1.75),
    ("Family Room", "2 double beds and a sofa bed", 5, 1.45),
)
COUNTRY_NAMES = {"US": "United States", "CA": "Canada", "MX": "Mexico", "GB": "United Kingdom", "FR": "France",
                 "NL": "Netherlands", "DE": "Germany", "ES": "Spain", "PT": "Portugal", "JP": "Japan"}
CARD_NAMES = (("Visa", "Chase Sapphire Preferred"), ("Visa", "Capital One Venture"),
              ("Mastercard", "Citi Premier"), ("American Express", "Amex Gold"),
              ("Visa", "Wells Fargo Autograph"), ("Mastercard", "Bank of America Travel Rewards"))
TABLES = ("airports", "airlines", "travelers", "accounts", "payment_methods", "flights", "hotels",
          "room_types", "room_blocks", "trips", "bookings", "booking_passengers", "payments", "loyalty_activity")


# ----- shared helpers -------------------------------------------------------------------------------

def distance_km(a: str, b: str) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (AIRPORT[a][4], AIRPORT[a][5], AIRPORT[b][4], AIRPORT[b][5]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 6371 * 2 * math.asin(math.sqrt(h))


def is_international(origin: str, destination: str) -> bool:
    return AIRPORT[origin][3] != AIRPORT[destination][3]


def fare_price(flight: Any, fare: str) -> float | None:
    """Price per passenger of `fare` on a flight row (None if the aircraft lacks the cabin)."""
    rule = FARES[fare]
    base = {"economy": flight["economy_fare"], "premium_economy": flight["premium_fare"],
            "business": flight["business_fare"]}[rule.cabin]
    return None if base is None else round(base * rule.multiplier, 2)


def night_rate(nightly_rate: float, night: date, rate_plan: str) -> float:
    rate = nightly_rate * (WEEKEND_UPLIFT if night.weekday() in (4, 5) else 1.0)
    if rate_plan == "non_refundable":
        rate *= NON_REFUNDABLE_DISCOUNT
    return round(rate, 2)


def card_brand(number: str) -> str | None:
    if number.startswith("4"):
        return "Visa"
    if number[:2] in ("34", "37"):
        return "American Express"
    if number[:2] in ("51", "52", "53", "54", "55") or "2221" <= number[:4] <= "2720":
        return "Mastercard"
    if number.startswith("6011") or number.startswith("65"):
        return "Discover"
    return None


def month_end(year: int, month: int) -> date:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return nxt - timedelta(days=1)


# ----- the builder --------------------------------------------------------------------------------

def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    """Build the travel world of `w.seed`: {table: rows}, in insertion order."""
    return _Builder(w).build()


@dataclass
class _Route:
    origin: str
    destination: str
    airline: str
    number: int
    departs: time
    aircraft: str
    fare: float          # economy base fare of the route


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w, TABLES)
        self.payments: list[dict[str, Any]] = []     # IDs assigned in time order at the end
        self.activity: list[dict[str, Any]] = []
        self.routes: list[_Route] = []
        self.booked: dict[tuple[str, str], int] = {}  # (flight_id, cabin) -> passengers of the user's bookings
        self.seats_used: dict[str, set[str]] = {}
        self.numbers: set[str] = set()

    def build(self) -> dict[str, list[dict[str, Any]]]:
        self._reference()
        self._people()
        self._cards()
        self._network()
        self._hotels()
        self._history()
        self._schedule()
        self._upcoming()
        self._scarcity()
        self._finish()
        return self.rows

    # ----- reference data -------------------------------------------------------------------------

    def _reference(self) -> None:
        for code, name, city, country, _, _, offset in AIRPORTS:
            self.rows["airports"].append({"code": code, "name": name, "city": city, "country": country,
                                       "utc_offset": offset})
        for code, name, alliance in AIRLINES:
            self.rows["airlines"].append({"code": code, "name": name, "alliance": alliance})

    # ----- the traveller, companions, cards ---------------------------------------------------------

    def _traveler(self, first: str, last: str, relationship: str, born: date, passport: str | None,
                  expiry: date | None, added: date) -> dict[str, Any]:
        row = {"traveler_id": self.w.new_id("TRV"), "first_name": first, "last_name": last,
               "full_name": f"{first} {last}", "relationship": relationship, "date_of_birth": born.isoformat(),
               "passport_number": passport, "passport_country": "US" if passport else None,
               "passport_expiry": expiry.isoformat() if expiry else None, "added_on": added.isoformat(),
               "is_me": int(relationship == "self")}
        self.rows["travelers"].append(row)
        return row

    def _passport(self) -> str:
        return str(self.rng.randint(5, 6)) + self.fake.digits(8)

    def _people(self) -> None:
        rng, fake = self.rng, self.fake
        person = fake.person()
        self.home = rng.choice(HOMES)
        since = fake.date_between(date(2016, 1, 1), date(2023, 6, 30))
        self.me = self._traveler(person.first, person.last, "self",
                                 fake.date_between(date(1968, 1, 1), date(1998, 12, 31)), self._passport(),
                                 fake.date_between(date(2027, 6, 1), date(2035, 12, 31)), since)
        partner = fake.person()
        same_name = rng.random() < 0.6
        # The partner's passport is valid; a parent's or friend's expires in a few months (too soon
        # for an international flight) and a child or a colleague has none on file.
        self.partner = self._traveler(partner.first, person.last if same_name else partner.last, "partner",
                                      fake.date_between(date(1968, 1, 1), date(1998, 12, 31)), self._passport(),
                                      fake.date_between(date(2027, 1, 1), date(2034, 12, 31)),
                                      fake.date_between(since, date(2024, 12, 31)))
        others: list[dict[str, Any]] = []
        if rng.random() < 0.6:
            kids = rng.randint(1, 2)
            for _ in range(kids):
                child = fake.person()
                others.append(self._traveler(child.first, person.last, "child",
                                             fake.date_between(date(2011, 1, 1), date(2021, 12, 31)), None, None,
                                             fake.date_between(since, date(2025, 6, 30))))
        else:
            colleague = fake.person()
            others.append(self._traveler(colleague.first, colleague.last, "colleague",
                                         fake.date_between(date(1975, 1, 1), date(2000, 12, 31)), None, None,
                                         fake.date_between(date(2024, 1, 1), date(2025, 12, 31))))
        elder = fake.person()
        relation = rng.choice(("parent", "friend"))
        others.append(self._traveler(elder.first, person.last if relation == "parent" else elder.last, relation,
                                     fake.date_between(date(1948, 1, 1), date(1966, 12, 31)) if relation == "parent"
                                     else fake.date_between(date(1970, 1, 1), date(1999, 12, 31)),
                                     self._passport(), fake.date_between(date(2026, 5, 1), date(2026, 9, 15)),
                                     fake.date_between(since, date(2025, 6, 30))))
        if rng.random() < 0.5:
            friend = fake.person()
            others.insert(1, self._traveler(friend.first, friend.last, rng.choice(("friend", "colleague")),
                                            fake.date_between(date(1972, 1, 1), date(2001, 12, 31)), self._passport(),
                                            fake.date_between(date(2027, 3, 1), date(2035, 12, 31)),
                                            fake.date_between(since, date(2025, 12, 31))))
        self.no_passport = others[0]
        self.expiring = others[-1]
        tier = rng.choices(TIERS, weights=(3, 4, 3, 1))[0]
        self.account = {"traveler_id": self.me["traveler_id"], "email": fake.email(person), "phone": fake.phone(),
                        "home_airport": self.home, "loyalty_number": "TB" + fake.digits(9), "tier": tier,
                        "points_balance": 0, "member_since": since.isoformat()}
        self.rows["accounts"].append(self.account)
        self.activity.append({"occurred_at": f"{since.isoformat()}T12:00:00", "points": 5000,
                              "description": "Welcome bonus", "booking_id": None})

    def _cards(self) -> None:
        rng, fake = self.rng, self.fake
        names = rng.sample(CARD_NAMES, rng.randint(3, 4))
        self.cards = []
        for i, (brand, nickname) in enumerate(names):
            prefix = {"Visa": "4", "Mastercard": "5" + str(rng.randint(1, 5)), "American Express": "37"}[brand]
            length = 15 if brand == "American Express" else 16
            number = fake.card_number(prefix, length)
            if i == 2:   # the old card on file has expired
                year, month = 2026, rng.choice((1, 2))
            else:
                year, month = rng.randint(2027, 2031), rng.randint(1, 12)
            row = {"payment_method_id": self.w.new_id("CARD"), "brand": brand, "nickname": nickname,
                   "card_number": number, "last4": number[-4:], "cardholder": self.me["full_name"].upper(),
                   "expiry": f"{month:02d}/{year % 100:02d}", "expires_on": month_end(year, month).isoformat(),
                   "is_default": int(i == 0),
                   "added_on": fake.date_between(date(2019, 1, 1), date(2025, 9, 30)).isoformat()}
            self.cards.append(row)
        self.cards.sort(key=lambda r: r["payment_method_id"])
        self.rows["payment_methods"].extend(self.cards)
        self.card = self.cards[0]

    # ----- flights ------------------------------------------------------------------------------------

    def _flight_number(self, airline: str, low: int, high: int) -> int:
        while True:
            n = self.rng.randint(low, high)
            if f"{airline}{n}" not in self.numbers:
                self.numbers.add(f"{airline}{n}")
                return n

    def _aircraft(self, origin: str, destination: str) -> str:
        km = distance_km(origin, destination)
        if is_international(origin, destination) and km > 3500:
            return self.rng.choice(("Boeing 787-9", "Airbus A350-900"))
        if km < 1300:
            return self.rng.choice(("Embraer 175", "Airbus A320"))
        return self.rng.choice(("Airbus A320", "Boeing 737-800"))

    def _add_route(self, a: str, b: str, slots_out: list[time], slots_back: list[time], airline: str) -> None:
        km = distance_km(a, b)
        intl = is_international(a, b)
        base = (180 + 0.075 * km) if intl else (59 + 0.085 * km)
        base *= self.rng.uniform(0.85, 1.2)
        aircraft = self._aircraft(a, b)
        low, high = (100, 999) if intl else (1000, 2999)
        for origin, dest, slots in ((a, b, slots_out), (b, a, slots_back)):
            for departs in slots:
                self.routes.append(_Route(origin, dest, airline, self._flight_number(airline, low, high), departs,
                                          aircraft, round(base * self.rng.uniform(0.92, 1.08), 2)))

    def _slot(self, first_hour: int, last_hour: int) -> time:
        minutes = self.rng.randrange(first_hour * 60, last_hour * 60 + 1, 5)
        return time(minutes // 60, minutes % 60)

    def _network(self) -> None:
        rng = self.rng
        domestic = [c for c in DOMESTIC if c != self.home]
        self.domestic = rng.sample(domestic, 4)
        abroad = [c for c in ABROAD if not (c == "NRT" and self.home in ("BOS", "ATL", "AUS"))]
        europe = [c for c in abroad if AIRPORT[c][6] in (0, 1)]
        self.abroad = [rng.choice(europe)]
        self.abroad.append(rng.choice([c for c in abroad if c not in self.abroad]))
        hub = HUB_AIRLINES[self.home]
        for dest in self.domestic:
            airline = rng.choice(hub)
            # A morning flight that leaves before 09:00 and an afternoon or evening one.
            out = [self._slot(6, 8), self._slot(13, 19)]
            back = [self._slot(7, 10), self._slot(15, 20)]
            self._add_route(self.home, dest, out, back, airline)
        for dest in self.abroad:
            # US carriers without long-haul aircraft leave international routes to the flag carrier
            own = hub[0] if hub[0] not in ("B6", "WN", "AS") else FLAG_CARRIER[dest]
            airline = FLAG_CARRIER[dest] if rng.random() < 0.5 else own
            far = distance_km(self.home, dest) > 3500
            out = [self._slot(17, 22)] if far else [self._slot(8, 18)]
            back = [self._slot(9, 14)] if far else [self._slot(8, 18)]
            self._add_route(self.home, dest, out, back, airline)
        pool = [c for c in DOMESTIC if c != self.home]
        pairs: list[tuple[str, str]] = []
        while len(pairs) < 2:
            a, b = sorted(rng.sample(pool, 2))
            if (a, b) not in pairs:
                pairs.append((a, b))
        for a, b in pairs:
            self._add_route(a, b, [self._slot(7, 19)], [self._slot(7, 19)], rng.choice(HUB_AIRLINES.get(a, ("AA",))))
        # home routes first, so flight IDs of a day list them first
        self.routes.sort(key=lambda r: (r.origin != self.home, r.origin, r.destination, r.departs))

    def _flight(self, route: _Route, day: date) -> dict[str, Any]:
        rng = self.rng
        km = distance_km(route.origin, route.destination)
        duration = int(round((km / 780 * 60 + 35) / 5) * 5)
        departs = datetime.combine(day, route.departs)
        shift = AIRPORT[route.destination][6] - AIRPORT[route.origin][6]
        arrives = departs + timedelta(minutes=duration, hours=shift)
        weekday = day.weekday()
        demand = 1.15 if weekday in (4, 6) else 0.92 if weekday in (1, 2) else 1.0
        economy = round(route.fare * demand * rng.uniform(0.9, 1.15), 2)
        intl = is_international(route.origin, route.destination)
        layout = AIRCRAFT[route.aircraft]
        row = {
            "flight_id": self.w.new_id("FLT"), "airline_code": route.airline,
            "flight_number": f"{route.airline} {route.number}", "origin": route.origin,
            "destination": route.destination, "departs_at": iso(departs), "arrives_at": iso(arrives),
            "duration_minutes": duration, "aircraft": route.aircraft, "economy_fare": economy,
            "premium_fare": round(economy * 1.85, 2) if "premium_economy" in layout else None,
            "business_fare": round(economy * (4.5 if intl else 3.2), 2),
            "economy_sold": 0, "premium_sold": 0, "business_sold": 0, "status": "scheduled",
        }
        busy = 0.12 if weekday in (4, 6) else 0.0
        for cabin, col, low, high in (("economy", "economy_sold", 0.45, 0.93), ("premium_economy", "premium_sold",
                                                                                 0.3, 0.9),
                                      ("business", "business_sold", 0.25, 0.95)):
            cap = capacity(route.aircraft, cabin)
            row[col] = min(cap, int(cap * min(0.99, rng.uniform(low, high) + busy)))
        roll = rng.random()
        cap = capacity(route.aircraft, "economy")
        if roll < 0.05:
            row["economy_sold"] = cap                       # sold out in economy
        elif roll < 0.1:
            row["economy_sold"] = cap - rng.randint(1, 2)   # one or two seats left
        return row

    def _schedule(self) -> None:
        for offset in range(SCHEDULE_DAYS):
            day = self.today + timedelta(days=offset)
            for route in self.routes:
                self.rows["flights"].append(self._flight(route, day))

    def _scarcity(self) -> None:
        """Guarantee, on flights the user has not booked: a sold-out and a nearly full economy
        cabin on home routes, and one flight cancelled for weather."""
        mine = {b["flight_id"] for b in self.rows["bookings"] if b["flight_id"]}
        future = [f for f in self.rows["flights"] if f["departs_at"] > iso(self.now + timedelta(days=2))
                  and f["flight_id"] not in mine and f["status"] == "scheduled"]
        home = [f for f in future if f["origin"] == self.home]
        sold_out, nearly = self.rng.sample(home, 2)
        sold_out["economy_sold"] = capacity(sold_out["aircraft"], "economy")
        nearly["economy_sold"] = capacity(nearly["aircraft"], "economy") - 1
        self.rng.choice([f for f in future if f["origin"] != self.home])["status"] = "cancelled"

    def _find(self, origin: str, destination: str, day: date, morning: bool | None = None) -> dict[str, Any]:
        found = [f for f in self.rows["flights"] if f["origin"] == origin and f["destination"] == destination
                 and f["departs_at"][:10] == day.isoformat() and f["status"] == "scheduled"]
        if morning is not None:
            found = [f for f in found if (f["departs_at"][11:13] < "12") == morning] or found
        return found[0]

    # ----- hotels -------------------------------------------------------------------------------------

    def _hotels(self) -> None:
        rng = self.rng
        home_city = AIRPORT[self.home][2]
        cities = []
        for r in self.routes:
            for code in (r.origin, r.destination):
                city = AIRPORT[code][2]
                if city != home_city and city not in cities:
                    cities.append(city)
        self.hotels_by_city: dict[str, list[dict[str, Any]]] = {}
        self.rooms_by_hotel: dict[str, list[dict[str, Any]]] = {}
        for city in cities:
            country = next(a[3] for a in AIRPORTS if a[2] == city)
            brands = [b for b in BRANDS if b[2] == "any" or (b[2] == "us") == (country == "US")]
            picks = rng.sample(brands, rng.randint(3, 4))
            hoods = rng.sample(NEIGHBORHOODS[city], min(len(picks), len(NEIGHBORHOODS[city])))
            for i, (brand, stars, _, rate) in enumerate(picks):
                hood = hoods[i % len(hoods)]
                name = f"{brand} {city} {hood}"
                amenities = ["free wifi"] + rng.sample(AMENITIES[1:], rng.randint(2, 5))
                hotel = {"hotel_id": self.w.new_id("HTL"), "name": name, "city": city, "country": country,
                         "neighborhood": hood, "address": hotel_address(city, int(self.fake.street_address().split()[0])),
                         "stars": stars, "guest_rating": round(rng.uniform(6.8 + stars * 0.4, 8.2 + stars * 0.3), 1),
                         "amenities": ", ".join(sorted(amenities))}
                self.rows["hotels"].append(hotel)
                self.hotels_by_city.setdefault(city, []).append(hotel)
                base = rate * CITY_PRICE.get(city, 1.0) * rng.uniform(0.88, 1.15)
                kinds = [ROOM_TYPES[0]] + sorted(rng.sample(ROOM_TYPES[1:], rng.randint(1, 3)),
                                                 key=lambda k: ROOM_TYPES.index(k))
                rooms = []
                for name_, beds, guests, factor in kinds:
                    room = {"room_type_id": self.w.new_id("RMT"), "hotel_id": hotel["hotel_id"], "name": name_,
                            "beds": beds, "max_guests": guests, "nightly_rate": round(base * factor, 2),
                            "rooms_total": rng.randint(3, 9) if factor < 1.5 else rng.randint(1, 4)}
                    self.rows["room_types"].append(room)
                    rooms.append(room)
                self.rooms_by_hotel[hotel["hotel_id"]] = rooms
        # Other guests' bookings on some nights of the next six weeks; a city-wide event sells
        # out one destination for three nights.
        event_city = rng.choice(cities[:4])
        event_start = self.today + timedelta(days=rng.randint(9, 18))
        blocks: dict[tuple[str, str], int] = {}
        for room in self.rows["room_types"]:
            for _ in range(rng.randint(1, 4)):
                night = self.today + timedelta(days=rng.randint(0, 42))
                blocks[(room["room_type_id"], night.isoformat())] = rng.randint(1, room["rooms_total"])
        for hotel in self.hotels_by_city[event_city]:
            for room in self.rooms_by_hotel[hotel["hotel_id"]]:
                for d in range(3):
                    blocks[(room["room_type_id"], (event_start + timedelta(days=d)).isoformat())] = room["rooms_total"]
        self.blocks = blocks

    # ----- bookings -----------------------------------------------------------------------------------

    def _code(self) -> str:
        return self.fake.code(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    def _trip(self, name: str, created: datetime) -> dict[str, Any]:
        row = {"trip_id": self.w.new_id("TRP"), "name": name, "created_at": iso(created)}
        self.rows["trips"].append(row)
        return row

    def _charge(self, booking: dict[str, Any], amount: float, at: datetime, what: str,
                card: dict[str, Any] | None = None, points: int = 0) -> None:
        self.payments.append({"booking_id": booking["booking_id"], "payment_method_id": card["payment_method_id"]
                              if card else None, "kind": "charge", "amount": round(amount, 2), "points": points,
                              "description": what, "created_at": iso(at)})

    def _flight_booking(self, flight: dict[str, Any], fare: str, travelers: list[dict[str, Any]], created: datetime,
                        trip: dict[str, Any] | None, *, seats: bool = False, bags: int = 0,
                        status: str = "confirmed", points: bool = False) -> dict[str, Any]:
        rule = FARES[fare]
        price = fare_price(flight, fare)
        assert price is not None
        total = round(price * len(travelers), 2)
        booking = self._booking("flight", created, trip, status)
        booking.update({"flight_id": flight["flight_id"], "fare": fare, "cabin": rule.cabin,
                        "summary": flight_summary(flight, self.today)})
        if points:
            booking["points_used"] = int(round(total / POINT_VALUE))
            self._charge(booking, 0.0, created, f"{rule.name} fare, {len(travelers)} passenger(s), paid with points",
                         points=booking["points_used"])
            self.activity.append({"occurred_at": iso(created), "points": -booking["points_used"],
                                  "description": f"Redeemed for {booking['summary']}",
                                  "booking_id": booking["booking_id"]})
        else:
            booking["payment_method_id"] = self.card["payment_method_id"]
            self._charge(booking, total, created, f"{rule.name} fare, {len(travelers)} passenger(s)", self.card)
        key = (flight["flight_id"], rule.cabin)
        self.booked[key] = self.booked.get(key, 0) + len(travelers)
        col = {"economy": "economy_sold", "premium_economy": "premium_sold", "business": "business_sold"}[rule.cabin]
        flight[col] = min(flight[col], capacity(flight["aircraft"], rule.cabin) - self.booked[key])
        taken = others_seats(flight["flight_id"], flight["aircraft"], rule.cabin, flight[col])
        used = self.seats_used.setdefault(flight["flight_id"], set())
        free = [s for s in AIRCRAFT[flight["aircraft"]][rule.cabin].seats() if s not in taken and s not in used]
        # Adjacent seats if the row has them: take the first free run long enough.
        chosen: list[str | None] = [None] * len(travelers)
        if seats and rule.seat_selection:
            for i, seat in enumerate(free):
                run = free[i:i + len(travelers)]
                if len({s[:-1] for s in run}) == 1 and len(run) == len(travelers):
                    chosen = list(run)
                    break
            used.update(s for s in chosen if s)
        free_bags = max(rule.bags_included, TIER_FREE_BAGS[self.account["tier"]])
        for traveler, seat in zip(travelers, chosen):
            self.rows["booking_passengers"].append({"booking_id": booking["booking_id"],
                                                 "traveler_id": traveler["traveler_id"], "seat": seat,
                                                 "checked_bags": bags})
            fee = sum(BAG_FEES[min(i, MAX_BAGS) - 1] for i in range(1, bags + 1) if i > free_bags)
            if fee:
                self._charge(booking, fee, created + timedelta(minutes=3),
                             f"{bags} checked bag(s) for {traveler['full_name']}", self.card)
                booking["payment_method_id"] = booking["payment_method_id"] or self.card["payment_method_id"]
        return booking

    def _booking(self, kind: str, created: datetime, trip: dict[str, Any] | None, status: str) -> dict[str, Any]:
        row = {"booking_id": self.w.new_id("BKG"), "kind": kind, "confirmation_code": self._code(), "summary": "",
               "status": status, "trip_id": trip["trip_id"] if trip else None, "created_at": iso(created),
               "payment_method_id": None, "points_used": 0, "flight_id": None, "fare": None, "cabin": None,
               "checked_in_at": None, "hotel_id": None, "room_type_id": None, "check_in": None, "check_out": None,
               "rooms": None, "guests": None, "rate_plan": None, "cancelled_at": None}
        self.rows["bookings"].append(row)
        return row

    def _hotel_booking(self, hotel: dict[str, Any], room: dict[str, Any], check_in: date, nights: int, guests: int,
                       rate_plan: str, created: datetime, trip: dict[str, Any] | None,
                       status: str = "confirmed") -> dict[str, Any]:
        booking = self._booking("hotel", created, trip, status)
        check_out = check_in + timedelta(days=nights)
        booking.update({"hotel_id": hotel["hotel_id"], "room_type_id": room["room_type_id"],
                        "check_in": check_in.isoformat(), "check_out": check_out.isoformat(), "rooms": 1,
                        "guests": guests, "rate_plan": rate_plan, "payment_method_id": self.card["payment_method_id"],
                        "summary": stay_summary(hotel["name"], room["name"], check_in, check_out, self.today)})
        total = sum(night_rate(room["nightly_rate"], check_in + timedelta(days=i), rate_plan) for i in range(nights))
        plan = "non-refundable" if rate_plan == "non_refundable" else "flexible"
        self._charge(booking, total, created, f"{nights} night(s), {room['name']}, {plan} rate", self.card)
        for i in range(nights):
            key = (room["room_type_id"], (check_in + timedelta(days=i)).isoformat())
            # keep the user's own room free of other guests' blocks
            if self.blocks.get(key, 0) >= room["rooms_total"]:
                self.blocks[key] = room["rooms_total"] - 1
        return booking

    def _earn(self, booking: dict[str, Any], at: datetime) -> None:
        paid = sum(p["amount"] for p in self.payments if p["booking_id"] == booking["booking_id"]
                   and p["payment_method_id"] is not None and p["kind"] == "charge")
        points = int(paid * POINTS_PER_DOLLAR[booking["kind"]] * TIER_MULTIPLIER[self.account["tier"]])
        if points:
            self.activity.append({"occurred_at": iso(at), "points": points,
                                  "description": f"Earned for {booking['summary']}",
                                  "booking_id": booking["booking_id"]})

    def _hotel_in(self, city: str, guests: int = 1) -> tuple[dict[str, Any], dict[str, Any]]:
        hotel = self.rng.choice(self.hotels_by_city[city])
        rooms = [r for r in self.rooms_by_hotel[hotel["hotel_id"]] if r["max_guests"] >= guests]
        return hotel, rooms[0]

    def _history(self) -> None:
        """Completed trips of the last five months, on flights that have since flown."""
        rng = self.rng
        outbound = {r.destination: r for r in self.routes if r.origin == self.home}
        inbound = {r.origin: r for r in self.routes if r.destination == self.home}
        trips = rng.randint(2, 4)
        starts = sorted(self.fake.date_between(date(2025, 10, 1), date(2026, 2, 20)) for _ in range(trips))
        dests = rng.sample(self.domestic, trips - 1) + [self.abroad[0]]
        rng.shuffle(dests)
        for start, dest in zip(starts, dests):
            city = AIRPORT[dest][2]
            nights = rng.randint(2, 5)
            with_partner = is_international(self.home, dest) or rng.random() < 0.4
            people = [self.me, self.partner] if with_partner else [self.me]
            created = datetime.combine(start - timedelta(days=rng.randint(12, 45)), time(rng.randint(8, 22),
                                                                                         rng.randrange(0, 60, 7)))
            label = rng.choice(("Weekend in", "Trip to", "Visit to")) if with_partner else "Work trip to"
            trip = self._trip(f"{label} {city} ({start.strftime('%b %Y')})", created)
            out = self._flight(outbound[dest], start)
            back = self._flight(inbound[dest], start + timedelta(days=nights))
            self.rows["flights"].extend([out, back])
            fare = rng.choice(("economy", "economy", "basic_economy", "economy_flex"))
            b1 = self._flight_booking(out, fare, people, created, trip, seats=fare != "basic_economy",
                                      status="completed")
            b2 = self._flight_booking(back, fare, people, created + timedelta(minutes=4), trip,
                                      seats=fare != "basic_economy", status="completed")
            hotel, room = self._hotel_in(city, len(people))
            b3 = self._hotel_booking(hotel, room, start, nights, len(people), "flexible",
                                     created + timedelta(minutes=11), trip, status="completed")
            for b, at in ((b1, out["arrives_at"]), (b2, back["arrives_at"])):
                self._earn(b, datetime.fromisoformat(at))
            self._earn(b3, datetime.combine(start + timedelta(days=nights), HOTEL_CHECK_OUT))
        for month in (10, 11, 12, 1, 2):
            year = 2025 if month >= 10 else 2026
            self.activity.append({"occurred_at": f"{year}-{month:02d}-28T06:00:00",
                                  "points": rng.randrange(600, 3200, 10),
                                  "description": f"{self.card['nickname']} card partner points",
                                  "booking_id": None})

    def _ago(self, low: int, high: int) -> datetime:
        """A moment between `low` and `high` days before the epoch, in waking hours."""
        day = self.today - timedelta(days=self.rng.randint(low, high))
        return datetime.combine(day, time(self.rng.randint(7, 22), self.rng.randrange(0, 60)))

    def _upcoming(self) -> None:
        rng = self.rng
        today = self.today
        # A: a work trip that leaves tomorrow morning (check-in is open), with a hotel and a return.
        dest = self.domestic[0]
        city = AIRPORT[dest][2]
        created = self._ago(8, 20)
        trip = self._trip(f"{city} work trip", created)
        out = self._find(self.home, dest, today + timedelta(days=1), morning=True)
        nights = rng.randint(2, 3)
        back = self._find(dest, self.home, today + timedelta(days=1 + nights), morning=False)
        self._flight_booking(out, "economy", [self.me], created, trip)
        self._flight_booking(back, "economy", [self.me], created + timedelta(minutes=5), trip, seats=True)
        hotel, room = self._hotel_in(city)
        self._hotel_booking(hotel, room, today + timedelta(days=1), nights, 1, "flexible",
                            created + timedelta(minutes=12), trip)

        # B: an international trip with the partner: seats, a bag each, a flexible hotel.
        dest = self.abroad[0]
        city = AIRPORT[dest][2]
        created = self._ago(20, 40)
        trip = self._trip(f"{rng.choice(('Spring break in', 'Anniversary in', 'Vacation in'))} {city}", created)
        start = today + timedelta(days=rng.randint(10, 13))
        nights = rng.randint(5, 7)
        out = self._find(self.home, dest, start)
        back = self._find(dest, self.home, start + timedelta(days=nights))
        arrival = date.fromisoformat(out["arrives_at"][:10])
        self._flight_booking(out, "economy", [self.me, self.partner], created, trip, seats=True, bags=1)
        self._flight_booking(back, "economy", [self.me, self.partner], created + timedelta(minutes=6), trip,
                             seats=True, bags=1)
        hotel, room = self._hotel_in(city, 2)
        self._hotel_booking(hotel, room, arrival, (date.fromisoformat(back["departs_at"][:10]) - arrival).days, 2,
                            "flexible", created + timedelta(minutes=15), trip)

        # C: a basic economy fare bought last night, more than a week before the flight, so the
        # 24-hour rule still allows a free cancellation at the epoch.
        dest = self.domestic[1]
        created = datetime.combine(today - timedelta(days=1), time(rng.randint(18, 21), rng.randrange(0, 60, 3)))
        flight = self._find(self.home, dest, today + timedelta(days=rng.randint(9, 16)))
        self._flight_booking(flight, "basic_economy", [self.me], created, None)

        # D: a flight the airline has since cancelled, booked with a companion (domestic, so no
        # passport is needed).
        dest = self.domestic[2]
        city = AIRPORT[dest][2]
        created = self._ago(15, 30)
        trip = self._trip(f"Weekend in {city}", created)
        flight = self._find(self.home, dest, today + timedelta(days=rng.randint(4, 7)))
        self._flight_booking(flight, "economy", [self.me, self.no_passport], created, trip, seats=True)
        flight["status"] = "cancelled"

        # E: a refundable booking the user cancelled about two weeks ago.
        dest = self.domestic[3]
        created = self._ago(21, 30)
        flight = self._find(self.home, dest, today + timedelta(days=rng.randint(5, 15)))
        booking = self._flight_booking(flight, "economy_flex", [self.me], created, None, seats=True,
                                       status="cancelled")
        cancelled = self._ago(10, 14)
        booking["cancelled_at"] = iso(cancelled)
        paid = sum(p["amount"] for p in self.payments if p["booking_id"] == booking["booking_id"])
        self.payments.append({"booking_id": booking["booking_id"], "payment_method_id": self.card["payment_method_id"],
                              "kind": "refund", "amount": round(paid, 2), "points": 0, "description": "Refund",
                              "created_at": iso(cancelled)})
        key = (flight["flight_id"], "economy")
        self.booked[key] -= 1
        for p in self.rows["booking_passengers"]:
            if p["booking_id"] == booking["booking_id"]:
                self.seats_used[flight["flight_id"]].discard(p["seat"])

        # F: a prepaid (non-refundable) hotel stay after the flight schedule, paid with the card.
        city = AIRPORT[self.abroad[1]][2] if rng.random() < 0.5 else AIRPORT[self.domestic[1]][2]
        hotel, room = self._hotel_in(city, 2)
        created = self._ago(3, 12)
        self._hotel_booking(hotel, room, today + timedelta(days=rng.randint(24, 40)), rng.randint(2, 4), 2,
                            "non_refundable", created, None)

    # ----- finishing ----------------------------------------------------------------------------------

    def _finish(self) -> None:
        self.rows["flights"].sort(key=lambda f: f["flight_id"])
        for (room_type_id, night), taken in sorted(self.blocks.items()):
            self.rows["room_blocks"].append({"room_type_id": room_type_id, "night": night, "rooms_taken": taken})
        self.payments.sort(key=lambda p: (p["created_at"], p["booking_id"]))
        for p in self.payments:
            p["payment_id"] = self.w.new_id("PAY")
        self.rows["payments"] = [{"payment_id": p.pop("payment_id"), **p} for p in self.payments]
        self.activity.sort(key=lambda a: a["occurred_at"])
        for a in self.activity:
            a["activity_id"] = self.w.new_id("LYA")
        self.rows["loyalty_activity"] = [{"activity_id": a.pop("activity_id"), **a} for a in self.activity]
        self.account["points_balance"] = sum(a["points"] for a in self.activity)
