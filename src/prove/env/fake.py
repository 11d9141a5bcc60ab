"""Deterministic, realistic-looking fake data for world builders (no dependency, no drift).

Every world builder draws from a seeded `random.Random`, so the same seed gives the same world
on every machine and every release of PROVE that keeps these lists.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from .errors import ToolDefinitionError
from .values import luhn_digit

FIRST_NAMES = (
    "Aaliyah Aaron Abigail Adam Adrian Aisha Alejandro Alexander Alice Amara Amelia Ana Andre Andrew "
    "Anika Anna Arjun Aria Ava Benjamin Bianca Brandon Caleb Camila Carlos Caroline Charlotte Chen "
    "Chloe Christopher Clara Daniel David Diego Dmitri Elena Eli Elijah Elizabeth Emily Emma Ethan "
    "Fatima Felix Fiona Gabriel Grace Hana Hannah Harper Hassan Henry Isaac Isabella Ivan Jack Jacob "
    "James Jasmine Javier Jia Jonah Jordan Joseph Julia Kai Kavya Kenji Laila Layla Leo Liam Lina "
    "Lucas Lucia Luis Maya Mei Mia Michael Mohammed Naomi Nathan Nia Noah Nora Olivia Omar Oscar "
    "Priya Rafael Rahul Rosa Ryan Samuel Sara Sebastian Sofia Sophie Tariq Theo Tomas Valentina "
    "Victoria William Yara Yusuf Zara Zoe"
).split()

LAST_NAMES = (
    "Abbott Adams Ahmed Alvarez Anderson Bailey Baker Banerjee Bennett Brooks Brown Campbell Carter "
    "Castillo Chen Clarke Collins Cooper Cruz Davis Diaz Edwards Evans Fischer Flores Foster Garcia "
    "Gomez Gonzalez Gray Green Gupta Hall Harris Hernandez Hill Hughes Ito Jackson James Jensen "
    "Johnson Jones Kelly Khan Kim King Kowalski Kumar Lee Lewis Lopez Martin Martinez Mendoza Meyer "
    "Miller Mitchell Moore Morales Morgan Murphy Nakamura Nelson Nguyen Novak O'Brien Okafor Ortiz "
    "Park Patel Perez Peterson Phillips Price Ramirez Reed Reyes Richardson Rivera Roberts Robinson "
    "Rodriguez Rossi Sanchez Santos Schmidt Scott Shah Silva Singh Smith Stewart Sullivan Tanaka "
    "Taylor Thomas Thompson Torres Turner Walker Wang Ward Watson White Williams Wilson Wong Wright "
    "Yamamoto Young Zhang"
).split()


@dataclass(frozen=True)
class City:
    name: str
    region: str
    country: str
    lat: float
    lon: float
    timezone: str
    zip_prefix: str


CITIES = (
    City("New York", "NY", "US", 40.7128, -74.0060, "America/New_York", "100"),
    City("Boston", "MA", "US", 42.3601, -71.0589, "America/New_York", "021"),
    City("Chicago", "IL", "US", 41.8781, -87.6298, "America/Chicago", "606"),
    City("Austin", "TX", "US", 30.2672, -97.7431, "America/Chicago", "787"),
    City("Denver", "CO", "US", 39.7392, -104.9903, "America/Denver", "802"),
    City("Seattle", "WA", "US", 47.6062, -122.3321, "America/Los_Angeles", "981"),
    City("San Francisco", "CA", "US", 37.7749, -122.4194, "America/Los_Angeles", "941"),
    City("Los Angeles", "CA", "US", 34.0522, -118.2437, "America/Los_Angeles", "900"),
    City("Atlanta", "GA", "US", 33.7490, -84.3880, "America/New_York", "303"),
    City("Miami", "FL", "US", 25.7617, -80.1918, "America/New_York", "331"),
    City("Portland", "OR", "US", 45.5152, -122.6784, "America/Los_Angeles", "972"),
    City("Philadelphia", "PA", "US", 39.9526, -75.1652, "America/New_York", "191"),
    City("Minneapolis", "MN", "US", 44.9778, -93.2650, "America/Chicago", "554"),
    City("Toronto", "ON", "CA", 43.6532, -79.3832, "America/Toronto", "M5V"),
    City("Vancouver", "BC", "CA", 49.2827, -123.1207, "America/Vancouver", "V6B"),
    City("London", "England", "GB", 51.5074, -0.1278, "Europe/London", "EC1"),
    City("Manchester", "England", "GB", 53.4808, -2.2426, "Europe/London", "M1"),
    City("Dublin", "Leinster", "IE", 53.3498, -6.2603, "Europe/Dublin", "D02"),
    City("Paris", "Ile-de-France", "FR", 48.8566, 2.3522, "Europe/Paris", "750"),
    City("Berlin", "Berlin", "DE", 52.5200, 13.4050, "Europe/Berlin", "101"),
    City("Munich", "Bavaria", "DE", 48.1351, 11.5820, "Europe/Berlin", "803"),
    City("Amsterdam", "North Holland", "NL", 52.3676, 4.9041, "Europe/Amsterdam", "101"),
    City("Madrid", "Madrid", "ES", 40.4168, -3.7038, "Europe/Madrid", "280"),
    City("Barcelona", "Catalonia", "ES", 41.3874, 2.1686, "Europe/Madrid", "080"),
    City("Rome", "Lazio", "IT", 41.9028, 12.4964, "Europe/Rome", "001"),
    City("Lisbon", "Lisbon", "PT", 38.7223, -9.1393, "Europe/Lisbon", "110"),
    City("Stockholm", "Stockholm", "SE", 59.3293, 18.0686, "Europe/Stockholm", "111"),
    City("Zurich", "Zurich", "CH", 47.3769, 8.5417, "Europe/Zurich", "800"),
    City("Tokyo", "Tokyo", "JP", 35.6762, 139.6503, "Asia/Tokyo", "100"),
    City("Osaka", "Osaka", "JP", 34.6937, 135.5023, "Asia/Tokyo", "530"),
    City("Seoul", "Seoul", "KR", 37.5665, 126.9780, "Asia/Seoul", "041"),
    City("Singapore", "Singapore", "SG", 1.3521, 103.8198, "Asia/Singapore", "018"),
    City("Sydney", "NSW", "AU", -33.8688, 151.2093, "Australia/Sydney", "200"),
    City("Melbourne", "VIC", "AU", -37.8136, 144.9631, "Australia/Melbourne", "300"),
    City("Mumbai", "Maharashtra", "IN", 19.0760, 72.8777, "Asia/Kolkata", "400"),
    City("Bangalore", "Karnataka", "IN", 12.9716, 77.5946, "Asia/Kolkata", "560"),
    City("Mexico City", "CDMX", "MX", 19.4326, -99.1332, "America/Mexico_City", "060"),
    City("Sao Paulo", "SP", "BR", -23.5505, -46.6333, "America/Sao_Paulo", "010"),
    City("Cape Town", "Western Cape", "ZA", -33.9249, 18.4241, "Africa/Johannesburg", "800"),
    City("Dubai", "Dubai", "AE", 25.2048, 55.2708, "Asia/Dubai", "000"),
)

STREETS = (
    "Oak Street Maple Avenue Cedar Lane Pine Road Elm Street Birch Way Willow Drive Lakeview Terrace "
    "Hillcrest Road Riverside Drive Park Avenue Main Street Church Street High Street Market Street "
    "Station Road Mill Lane Orchard Close Harbor View Sunset Boulevard Valley Road Meadow Lane "
    "Forest Avenue Spring Street King Street Queen Street Bridge Road Garden Walk Union Street"
)
STREET_NAMES = tuple(" ".join(p) for p in zip(*[iter(STREETS.split())] * 2))

COMPANY_WORDS = (
    "Apex Blue Bright Cascade Cedar Summit Harbor Northwind Evergreen Granite Horizon Iron Juniper "
    "Keystone Lighthouse Meridian Nimbus Orbit Pioneer Quantum Redwood Silverline Tidal Vertex "
    "Willow Zenith Atlas Beacon Crescent Delta"
).split()
COMPANY_SUFFIXES = ("Labs", "Systems", "Partners", "Group", "Holdings", "Studio", "Works", "Analytics",
                    "Logistics", "Health", "Foods", "Energy", "Media", "Consulting", "Capital")
EMAIL_DOMAINS = ("gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "fastmail.com")

WORDS = (
    "quarterly review budget planning launch roadmap customer feedback design sprint onboarding "
    "migration release notes vendor contract renewal hiring interview offsite workshop training "
    "analytics dashboard report forecast inventory shipment invoice payment audit compliance "
    "security incident postmortem retrospective kickoff demo prototype research survey"
).split()


@dataclass(frozen=True)
class Person:
    first: str
    last: str

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"


class Fake:
    """Fake-data helpers over one seeded RNG."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def person(self) -> Person:
        return Person(self.rng.choice(FIRST_NAMES), self.rng.choice(LAST_NAMES))

    def people(self, n: int) -> list[Person]:
        """`n` people with distinct full names."""
        seen: set[str] = set()
        out: list[Person] = []
        while len(out) < n:
            p = self.person()
            if p.name not in seen:
                seen.add(p.name)
                out.append(p)
        return out

    def email(self, person: Person, domain: str | None = None) -> str:
        local = f"{person.first}.{person.last}".lower().replace("'", "")
        if domain is None:
            domain = self.rng.choice(EMAIL_DOMAINS)
            local += str(self.rng.randint(1, 99)) if self.rng.random() < 0.4 else ""
        return f"{local}@{domain}"

    def phone(self) -> str:
        return f"+1-{self.rng.randint(201, 989)}-{self.rng.randint(200, 999)}-{self.rng.randint(1000, 9999)}"

    def city(self, country: str | None = None) -> City:
        """A city, optionally of one country ('US', 'GB', 'DE', ...)."""
        pool = [c for c in CITIES if c.country == country] if country else CITIES
        if not pool:
            raise ToolDefinitionError(f"no cities for country {country!r}")
        return self.rng.choice(pool)

    def street_address(self) -> str:
        return f"{self.rng.randint(1, 2999)} {self.rng.choice(STREET_NAMES)}"

    def company(self) -> str:
        return f"{self.rng.choice(COMPANY_WORDS)} {self.rng.choice(COMPANY_SUFFIXES)}"

    def words(self, n: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(n))

    def digits(self, n: int) -> str:
        return "".join(self.rng.choice(string.digits) for _ in range(n))

    def card_number(self, prefix: str = "4", length: int = 16) -> str:
        """A card number of `length` digits starting with `prefix` that passes the Luhn check."""
        body = prefix + self.digits(length - len(prefix) - 1)
        return body + luhn_digit(body)

    def code(self, n: int, alphabet: str = string.ascii_uppercase + string.digits) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def money(self, low: float, high: float) -> float:
        return round(self.rng.uniform(low, high), 2)

    def date_between(self, start: date, end: date) -> date:
        return start + timedelta(days=self.rng.randint(0, (end - start).days))

    def datetime_between(self, start: datetime, end: datetime, step_minutes: int = 15) -> datetime:
        steps = int((end - start).total_seconds() // (step_minutes * 60))
        return start + timedelta(minutes=step_minutes * self.rng.randint(0, max(steps, 0)))
