"""The vehicle world: one connected plug-in hybrid and eight weeks of its life.

`build_world` picks a real plug-in hybrid (battery, range, fuel tank, charger), its owner in a US
city, the places the car knows (home, work, favourites, chargers, the dealer's service centre,
shops and restaurants around town), and simulates the car's last eight weeks trip by trip: commutes
and errands with electric miles first and then fuel, nightly charging at home (some nights
forgotten), public charging, refuelling, service visits. The car's state at the epoch (Monday
2026-03-16 09:00) is where that history ends: parked at home after an early errand, plugged in, in
Park. On some mornings it is simply locked, engine off and not charging; on others the owner is
still unloading (doors unlocked, maybe the trunk open), warming the car up (engine and climate
on), charging it now rather than waiting for the schedule, or has left valet mode on since a
meal out (`MORNING_ODDS`; each blocks some other tools, so each holds in a minority of worlds).

Everything random comes from `w.rng` and `w.fake`, so a seed always gives the same world and
different seeds give different cars, owners, towns, places and histories.

This module also holds the rules the tools share with the world (speeds, limits, distances).
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.values import iso

# ----- rules shared with the tools --------------------------------------------------------------

ROAD_FACTOR = 1.25                 # road distance over straight-line distance
CLIMATE_MIN, CLIMATE_MAX = 60.0, 85.0
CLIMATE_KW = 2.0                   # what the climate system draws with the engine off
CLIMATE_MIN_BATTERY = 20.0         # percent needed to run the climate on battery (not plugged in)
UPDATE_MIN_BATTERY = 20.0          # percent needed to install a software update
CHARGE_LIMIT_MIN = 50
CHARGE_EFFICIENCY = 0.9            # of what the charger delivers, this much reaches the battery
HOME_PRICE_KWH = 0.16              # dollars per kWh at home
VENT_POSITION = 10                 # windows may open this far with the engine off
VALET_SPEED_LIMIT_MPH = 70
BOOKING_DAYS_AHEAD = 90
CANCEL_NOTICE = timedelta(hours=2)
SERVICE_SOON_DAYS, SERVICE_SOON_MI = 30, 1000


def miles_between(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Driving distance in miles: great-circle distance times a road factor, to 0.1 mile."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return round(3958.8 * 2 * math.asin(min(1.0, math.sqrt(a))) * ROAD_FACTOR, 1)


def drive_minutes(miles: float) -> int:
    """How long a drive takes: town streets for short hops, faster roads for longer ones."""
    speed = 22 if miles < 5 else 30 if miles < 15 else 44
    return max(4, round(miles / speed * 60))


def energy_for(miles: float, battery_kwh_left: float, mi_per_kwh: float, mpg: float) -> tuple[float, float]:
    """(kWh, gallons) a drive uses: electric miles first, then the engine."""
    electric_mi = min(miles, battery_kwh_left * mi_per_kwh)
    kwh = electric_mi / mi_per_kwh
    gallons = (miles - electric_mi) / mpg
    return round(kwh, 3), round(gallons, 3)


# ----- catalogues -------------------------------------------------------------------------------

# make, model, trim, year, battery kWh, mi/kWh, onboard kW, tank gal, mpg, tyre psi, sunroof,
# heated rear seats, VIN prefix
CARS = (
    ("Toyota", "RAV4 Prime", "XSE", 2024, 18.1, 2.4, 6.6, 14.5, 38, 36, True, True, "JTMEB3FV"),
    ("Ford", "Escape Plug-In Hybrid", "SE", 2023, 14.4, 2.6, 3.3, 11.1, 40, 35, False, False, "1FMCU0E1"),
    ("Volvo", "XC60 Recharge", "Plus T8", 2024, 18.8, 1.9, 6.4, 18.8, 28, 38, True, True, "YV4H60DL"),
    ("Jeep", "Wrangler 4xe", "Sahara", 2024, 17.3, 1.3, 7.2, 17.2, 20, 37, False, False, "1C4JJXP6"),
    ("Kia", "Sorento Plug-In Hybrid", "SX Prestige", 2023, 13.8, 2.3, 3.3, 12.4, 34, 35, True, True, "KNDRMDLH"),
    ("Mitsubishi", "Outlander PHEV", "SEL", 2024, 20.0, 1.9, 3.5, 14.5, 26, 36, True, False, "JA4T5VA9"),
    ("BMW", "X5", "xDrive50e", 2024, 25.7, 1.6, 7.4, 17.4, 23, 38, True, True, "5UX43EU0"),
    ("Hyundai", "Tucson Plug-in Hybrid", "Limited", 2024, 13.8, 2.4, 7.2, 11.1, 35, 36, True, True, "KM8JECD1"),
)
COLORS = ("Midnight Black", "Ice Cap White", "Lunar Rock", "Blueprint", "Magnetic Gray", "Supersonic Red",
          "Silver Metallic", "Denim Blue", "Forest Green")
NICKNAMES = ("{first}'s {model}", "The {model}", "Blue Thunder", "Family Hauler", "Daily Driver", "{model}")
MARCH_TEMPS = {"New York": 41, "Boston": 37, "Chicago": 36, "Austin": 58, "Denver": 38, "Seattle": 44,
               "San Francisco": 50, "Los Angeles": 57, "Atlanta": 49, "Miami": 70, "Portland": 43,
               "Philadelphia": 41, "Minneapolis": 28}
SOFTWARE = ("2025.38.6", "2025.44.2", "2025.47.1", "2026.2.3")
UPDATES = (("2026.8.1", "Adds a trip energy planner to navigation and improves charge scheduling accuracy."),
           ("2026.6.4", "Improves Bluetooth phone pairing and fixes a rare climate control reset after updates."),
           ("2026.9.0", "Adds valet mode speed alerts and improves tyre pressure monitoring."))
POIS = (  # category, name pattern, distance range in miles
    ("grocery", "Whole Foods Market", 1, 5), ("grocery", "Trader Joe's", 1, 6), ("grocery", "Costco Wholesale", 3, 9),
    ("grocery", "Safeway", 1, 4), ("grocery", "Kroger", 1, 5),
    ("restaurant", "{city} Taqueria", 1, 6), ("restaurant", "The Copper Kettle", 2, 8),
    ("restaurant", "Olive Garden", 3, 8), ("restaurant", "Shake Shack", 2, 7), ("restaurant", "Sushi {last}", 2, 6),
    ("coffee", "Starbucks", 0.5, 3), ("coffee", "Blue Bottle Coffee", 1, 5),
    ("coffee", "{last}'s Bakery & Coffee", 1, 4),
    ("shopping", "Target", 2, 7), ("shopping", "Home Depot", 3, 8), ("shopping", "IKEA", 6, 14),
    ("shopping", "{city} Town Center Mall", 4, 10), ("shopping", "REI", 3, 9),
    ("school", "{last} Elementary School", 0.5, 3), ("school", "{city} High School", 1, 4),
    ("gym", "Planet Fitness", 1, 5), ("gym", "{city} Climbing Gym", 2, 7), ("gym", "YMCA", 1, 5),
    ("park", "{city} Botanical Garden", 3, 9), ("park", "Riverside Park", 1, 6), ("park", "{last} State Park", 12, 25),
    ("hospital", "{city} General Hospital", 2, 8), ("airport", "{city} International Airport", 10, 22),
    ("gas_station", "Shell", 0.5, 4), ("gas_station", "Chevron", 1, 5), ("gas_station", "Costco Gas", 3, 9),
)
CHARGERS = (("ChargePoint - {street}", 6.6, 0.29), ("Electrify America - Walmart Supercenter", 7.2, 0.36),
            ("EVgo - Kroger", 6.6, 0.34), ("Blink - {city} Public Library", 7.2, 0.25),
            ("ChargePoint - {city} Town Center", 6.6, 0.32), ("Volta - Whole Foods", 7.2, 0.0))
FAVORITES = ("Mom's house", "Dad's place", "{first}'s apartment", "Lake house", "Soccer practice", "Book club")
REMINDERS = (  # title, interval miles, interval months
    ("Tire rotation", 7500, None), ("Engine oil and filter change", 10000, 12),
    ("Cabin air filter replacement", 15000, 18), ("Brake fluid replacement", None, 24),
    ("Engine air filter replacement", 30000, None), ("Wiper blade replacement", None, 12),
    ("12-volt battery test", None, 12),
)
TABLES = ("owners", "places", "vehicles", "windows", "seats", "tires", "driver_profiles", "trips",
          "charging_sessions", "service_reminders", "service_appointments", "events")
HISTORY_DAYS = 56
# How often the car is not simply parked, locked and off at the epoch (see `_Builder._morning`).
MORNING_ODDS = {"charging": 0.35, "warming_up": 0.45, "valet_left_on": 0.3, "unloading": 0.25, "unlocked": 0.1}


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    """Build the car of `w.seed`: {table: rows}, in insertion order."""
    return _Builder(w).build()


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w, TABLES)
        self.events: list[tuple[datetime, str, str]] = []

    def build(self) -> dict[str, list[dict[str, Any]]]:
        self._owner_and_car()
        self._places()
        self._history()
        self._cabin()
        self._service()
        self._morning()
        for at, kind, message in sorted(self.events):
            if at <= self.now:
                self.rows["events"].append({"event_id": self.w.new_id("EVT"), "occurred_at": iso(at), "kind": kind,
                                         "message": message})
        return self.rows

    # ----- who and what -------------------------------------------------------------------------

    def _owner_and_car(self) -> None:
        rng, fake = self.rng, self.fake
        self.person = fake.person()
        self.city = fake.city("US")
        self.rows["owners"].append({"owner_id": self.w.new_id("OWN"), "name": self.person.name,
                                 "email": fake.email(self.person), "phone": fake.phone(),
                                 "member_since": fake.date_between(date(2022, 6, 1), date(2025, 4, 1)).isoformat()})
        (make, model, trim, year, kwh, eff, onboard, tank, mpg, psi, sunroof, rear_heat, vin) = rng.choice(CARS)
        self.car = {"make": make, "model": model, "kwh": kwh, "eff": eff, "onboard": onboard, "tank": tank,
                    "mpg": mpg, "psi": psi, "sunroof": sunroof, "rear_heat": rear_heat}
        self.vehicle: dict[str, Any] = {
            "vehicle_id": self.w.new_id("VEH"),
            "vin": vin + fake.code(9, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"),
            "make": make, "model": model, "trim": trim, "year": year,
            "nickname": rng.choice(NICKNAMES).format(first=self.person.first, model=model.split()[0]),
            "color": rng.choice(COLORS),
            "license_plate": f"{fake.digits(1)}{fake.code(3, 'ABCDEFGHJKLMNPRSTUVWXYZ')}{fake.digits(3)}",
        }
        self.odometer = float(rng.randint(4000, 38000)) + round(rng.random(), 1)
        self.battery_kwh = kwh * rng.uniform(0.5, 0.8)
        self.fuel = tank * rng.uniform(0.45, 0.9)
        self.charge_limit = rng.choice((80, 90, 90, 100))
        self.scheduled = rng.choice((None, "23:00", "00:00", "21:00"))

    def _point(self, lo: float, hi: float) -> tuple[float, float]:
        r = self.rng.uniform(lo, hi) / ROAD_FACTOR
        theta = self.rng.uniform(0, 2 * math.pi)
        lat = self.city.lat + r * math.cos(theta) / 69.0
        lon = self.city.lon + r * math.sin(theta) / (69.0 * math.cos(math.radians(self.city.lat)))
        return round(lat, 5), round(lon, 5)

    def _place(self, name: str, category: str, lat: float, lon: float, *, saved: bool = False,
               nickname: str | None = None, charger_kw: float | None = None,
               price_kwh: float | None = None) -> dict[str, Any]:
        zip_code = f"{self.city.zip_prefix}{self.fake.digits(2)}"
        row = {"place_id": self.w.new_id("PLC"), "name": name, "category": category,
               "address": f"{self.fake.street_address()}, {self.city.name}, {self.city.region} {zip_code}",
               "lat": lat, "lon": lon, "saved": int(saved), "nickname": nickname, "charger_kw": charger_kw,
               "price_kwh": price_kwh}
        self.rows["places"].append(row)
        return row

    def _places(self) -> None:
        rng, fake = self.rng, self.fake
        self.home_charger = rng.choice((7.2, 7.2, 9.6, 1.4))
        self.home = self._place("Home", "home", *self._point(1, 4), saved=True, charger_kw=self.home_charger,
                                price_kwh=HOME_PRICE_KWH)
        self.work = (self._place(fake.company(), "work", *self._point(4, 16), saved=True, nickname="Work")
                     if rng.random() < 0.85 else None)
        self.favorites = []
        for pattern in rng.sample(FAVORITES, rng.randint(1, 3)):
            name = pattern.format(first=fake.person().first)
            self.favorites.append(self._place(name, "favorite", *self._point(2, 20), saved=True, nickname=name))
        self.pois: dict[str, list[dict[str, Any]]] = {}
        for category, pattern, lo, hi in POIS:
            if rng.random() < 0.2 and category not in ("gas_station", "airport", "coffee"):
                continue
            name = pattern.format(city=self.city.name, last=fake.person().last)
            place = self._place(name, category, *self._point(lo, hi), saved=rng.random() < 0.08)
            self.pois.setdefault(category, []).append(place)
        for pattern, kw, price in rng.sample(CHARGERS, rng.randint(3, 5)):
            name = pattern.format(city=self.city.name, street=fake.street_address().split(" ", 1)[1])
            place = self._place(name, "charging_station", *self._point(1, 10), charger_kw=kw, price_kwh=price)
            self.pois.setdefault("charging_station", []).append(place)
        make = self.car["make"]
        self.dealer = self._place(f"{make} of {self.city.name}", "service_center", *self._point(3, 12))
        self._place(f"{self.fake.person().last} {make} Service Center", "service_center", *self._point(6, 18))

    # ----- history --------------------------------------------------------------------------------

    def _drive(self, start: datetime, frm: dict[str, Any], to: dict[str, Any]) -> datetime:
        """Record a completed trip and move the car; returns when it arrived."""
        miles = miles_between(frm["lat"], frm["lon"], to["lat"], to["lon"])
        minutes = drive_minutes(miles)
        end = start + timedelta(minutes=minutes)
        kwh, gallons = energy_for(miles, self.battery_kwh, self.car["eff"], self.car["mpg"])
        self.battery_kwh = max(0.0, self.battery_kwh - kwh)
        self.fuel = max(0.0, self.fuel - gallons)
        self.odometer = round(self.odometer + miles, 1)
        self.trips.append({"started_at": iso(start), "ended_at": iso(end), "eta": iso(end),
                           "from_place_id": frm["place_id"], "from_name": frm["nickname"] or frm["name"],
                           "to_place_id": to["place_id"], "to_name": to["nickname"] or to["name"],
                           "distance_mi": miles, "electric_kwh": kwh, "fuel_gal": gallons, "status": "completed"})
        if start > self.now - timedelta(days=10):
            self.events.append((start - timedelta(minutes=1), "lock", "Doors unlocked with the key fob"))
            self.events.append((end + timedelta(minutes=1), "lock", "Doors locked (walk-away lock)"))
        if self.fuel < self.car["tank"] * 0.2:
            station = self.rng.choice(self.pois["gas_station"])
            added = round(self.car["tank"] - self.fuel, 2)
            self.fuel = self.car["tank"]
            self.events.append((end + timedelta(minutes=self.rng.randint(5, 30)), "fuel",
                                f"Refuelled {added:.1f} gal at {station['name']}"))
        self.here = to
        return end

    def _charge(self, start: datetime, place: dict[str, Any], until: datetime | None) -> datetime:
        """Record a charging session from `start`, to the limit or until `until`; returns its end."""
        kw = min(self.car["onboard"], place["charger_kw"])
        target = self.car["kwh"] * self.charge_limit / 100
        need = max(0.0, target - self.battery_kwh)
        hours = need / (kw * CHARGE_EFFICIENCY)
        end = start + timedelta(hours=hours)
        status = "completed"
        if until is not None and end > until:
            end, status = until, "stopped"
        added = round(min(need, (end - start).total_seconds() / 3600 * kw * CHARGE_EFFICIENCY), 2)
        if added < 0.3:
            return start
        start_pct = round(self.battery_kwh / self.car["kwh"] * 100, 1)
        self.battery_kwh += added
        location = "Home" if place is self.home else place["name"]
        self.sessions.append({"place_id": place["place_id"], "location": location, "started_at": iso(start),
                              "ended_at": iso(end), "start_pct": start_pct,
                              "end_pct": round(self.battery_kwh / self.car["kwh"] * 100, 1), "kwh_added": added,
                              "power_kw": kw, "cost": round(added / CHARGE_EFFICIENCY * place["price_kwh"], 2),
                              "status": status})
        if start > self.now - timedelta(days=10):
            self.events.append((start, "charging", f"Charging started at {location} ({kw:g} kW)"))
            self.events.append((end, "charging", f"Charging {'complete' if status == 'completed' else 'stopped'} "
                                                 f"at {location}: {self.sessions[-1]['end_pct']:g}%"))
        return end

    def _history(self) -> None:
        rng = self.rng
        self.trips: list[dict[str, Any]] = []
        self.sessions: list[dict[str, Any]] = []
        self.here = self.home
        first = (self.now - timedelta(days=HISTORY_DAYS)).date()
        errands = [p for c in ("grocery", "restaurant", "coffee", "shopping", "gym", "park", "school")
                   for p in self.pois.get(c, [])] + self.favorites
        for offset in range(HISTORY_DAYS):
            day = first + timedelta(days=offset)
            t = datetime(day.year, day.month, day.day, 7, 0)
            if day.weekday() < 5 and self.work is not None and rng.random() < 0.8:
                t = self._drive(t + timedelta(minutes=rng.randint(20, 100)), self.here, self.work)
                if rng.random() < 0.2:   # lunch out
                    spot = rng.choice(self.pois.get("restaurant", errands))
                    t = self._drive(t.replace(hour=12, minute=rng.randint(0, 30)), self.here, spot)
                    t = self._drive(t + timedelta(minutes=rng.randint(35, 70)), self.here, self.work)
                t = t.replace(hour=rng.randint(16, 18), minute=rng.randint(0, 59))
                if rng.random() < 0.35:
                    t = self._drive(t, self.here, rng.choice(errands))
                    t += timedelta(minutes=rng.randint(20, 80))
                t = self._drive(t, self.here, self.home)
            else:
                t = t.replace(hour=rng.randint(8, 11), minute=rng.randint(0, 59))
                for _ in range(rng.randint(0, 3)):
                    spot = rng.choice(errands)
                    if spot is self.here:
                        continue
                    t = self._drive(t, self.here, spot)
                    stay = timedelta(minutes=rng.randint(25, 150))
                    if spot["category"] in ("shopping", "grocery") and rng.random() < 0.3:
                        public = rng.choice(self.pois["charging_station"])
                        t = self._drive(t, self.here, public)
                        t = self._charge(t, public, t + stay)
                    else:
                        t += stay
                if self.here is not self.home:
                    t = self._drive(t, self.here, self.home)
            # The night: plugged in at home (sometimes forgotten), charging at the scheduled time.
            forgot = rng.random() < 0.15 or offset == HISTORY_DAYS - 1 and rng.random() < 0.5
            if not forgot:
                start = t + timedelta(minutes=5)
                if self.scheduled is not None:
                    hh, mm = map(int, self.scheduled.split(":"))
                    at = datetime(day.year, day.month, day.day, hh, mm)
                    start = max(start, at if hh >= 12 else at + timedelta(days=1))
                next_morning = datetime(day.year, day.month, day.day, 7, 0) + timedelta(days=1)
                self._charge(start, self.home, next_morning)
        # This morning: a trip to the gym or for coffee, back home by half past eight; plugged in.
        morning = self.now.replace(hour=7, minute=rng.randint(0, 35))
        spot = rng.choice(self.pois.get("gym", []) + self.pois["coffee"])
        t = self._drive(morning, self.home, spot)
        t = self._drive(t + timedelta(minutes=rng.randint(10, 40) if spot["category"] == "coffee" else 45),
                        self.here, self.home)
        self.parked_since = t
        if rng.random() < 0.3:   # the owner keeps putting off a trip to the gas station
            self.fuel = self.car["tank"] * rng.uniform(0.03, 0.08)
            self.events.append((t - timedelta(minutes=rng.randint(3, 12)), "alert",
                                f"Low fuel: {self.fuel * self.car['mpg']:.0f} mi of gasoline range left"))
        self.events.append((t + timedelta(minutes=3), "charging", "Charging cable connected at Home"))
        if self.scheduled is not None:
            self.events.append((t + timedelta(minutes=3), "charging",
                                f"Charging scheduled to start at {self.scheduled} (off-peak)"))
        for row in self.trips:
            self.rows["trips"].append({"trip_id": self.w.new_id("TRP"), **row})
        for row in self.sessions:
            self.rows["charging_sessions"].append({"session_id": self.w.new_id("CHG"), **row})

    # ----- the car now --------------------------------------------------------------------------

    def _cabin(self) -> None:
        rng, fake = self.rng, self.fake
        outside = float(MARCH_TEMPS.get(self.city.name, 45) + rng.randint(-5, 5))
        version = rng.choice(SOFTWARE)
        update = rng.choice(UPDATES) if rng.random() < 0.7 else None
        profiles = [(self.person.first, rng.randint(3, 8), "A", float(rng.choice((68, 70, 72))), rng.choice((0, 1, 2)))]
        partner = fake.person()
        profiles.append((partner.first, rng.randint(1, 10), "B", float(rng.choice((66, 70, 74))),
                         rng.choice((0, 2, 3))))
        if rng.random() < 0.4:
            profiles.append(("Valet", 5, "C", 70.0, 0))
        ids = []
        for name, seat, mirror, temp, heat in profiles:
            pid = self.w.new_id("DRV")
            ids.append(pid)
            self.rows["driver_profiles"].append({
                "profile_id": pid, "name": name, "seat_position": seat, "mirror_preset": mirror,
                "climate_target": temp, "seat_heat": heat,
                "created_at": iso(datetime(2025, rng.randint(1, 11), rng.randint(1, 28), 18, rng.randint(0, 59)))})
        me = self.rows["driver_profiles"][0]
        self.vehicle.update({
            "odometer_mi": self.odometer, "battery_kwh": self.car["kwh"],
            "battery_pct": round(self.battery_kwh / self.car["kwh"] * 100, 1), "mi_per_kwh": self.car["eff"],
            "onboard_charger_kw": self.car["onboard"], "fuel_capacity_gal": self.car["tank"],
            "fuel_gal": round(self.fuel, 2), "mpg": float(self.car["mpg"]), "engine": "off", "gear": "P",
            "locked": 1, "trunk_open": 0, "has_sunroof": int(self.car["sunroof"]), "headlights": "auto",
            "climate_on": 0, "climate_target": me["climate_target"], "cabin_temp": outside + rng.randint(4, 10),
            "outside_temp": outside, "plugged_in": 1, "charging": 0, "charge_limit": self.charge_limit,
            "scheduled_charge_time": self.scheduled, "valet_mode": 0, "valet_pin": self._pin(),
            "software_version": version, "update_version": update[0] if update else None,
            "update_notes": update[1] if update else None,
            "update_minutes": rng.choice((25, 30, 40)) if update else None,
            "update_finishes_at": None, "place_id": self.home["place_id"], "lat": self.home["lat"],
            "lon": self.home["lon"], "parked_since": iso(self.parked_since), "destination_id": None,
            "active_trip_id": None, "active_profile_id": ids[0], "seat_position": me["seat_position"],
            "mirror_preset": me["mirror_preset"],
        })
        self.rows["vehicles"].append(self.vehicle)
        if update:
            self.events.append((self.now - timedelta(days=rng.randint(1, 4), hours=rng.randint(1, 8)), "software",
                                f"Software update {update[0]} downloaded and ready to install"))
        sides = ("front_left", "front_right", "rear_left", "rear_right")
        for window in sides + (("sunroof",) if self.car["sunroof"] else ()):
            self.rows["windows"].append({"window": window, "position": 0})
        for seat in ("driver", "passenger", "rear_left", "rear_right"):
            heated = int(seat in ("driver", "passenger") or self.car["rear_heat"])
            self.rows["seats"].append({"seat": seat, "heated": heated, "heat_level": 0})
        measured = iso(self.parked_since - timedelta(minutes=1))
        low = rng.choice((None, None, "front_left", "rear_right", "rear_left"))
        for tire in ("front_left", "front_right", "rear_left", "rear_right"):
            base = self.car["psi"] + rng.choice((-1, 0, 0, 1))
            psi = base - rng.randint(6, 9) if tire == low else base
            self.rows["tires"].append({"position": tire, "pressure_psi": float(psi),
                                    "recommended_psi": float(self.car["psi"]), "measured_at": measured})
        if low:
            self.events.append((self.parked_since - timedelta(minutes=rng.randint(2, 20)), "alert",
                                f"Low tyre pressure: {low.replace('_', ' ')} tyre"))

    def _pin(self) -> str:
        while True:
            pin = self.fake.digits(4)
            if len(set(pin)) >= 3:
                return pin

    def _service(self) -> None:
        rng = self.rng
        today = self.now.date()
        for title, every_mi, every_months in REMINDERS:
            if every_mi is not None:
                done_mi = self.odometer - rng.uniform(0.15, 1.08) * every_mi
                done_mi = max(0.0, round(done_mi, 0))
            else:
                done_mi = max(0.0, round(self.odometer - rng.uniform(3000, 11000), 0))
            if every_months is not None:
                done_on = today - timedelta(days=int(rng.uniform(0.1, 1.05) * every_months * 30.4))
            else:
                miles_ago = self.odometer - done_mi
                done_on = today - timedelta(days=int(miles_ago / 30) + rng.randint(0, 20))
            self.rows["service_reminders"].append({
                "reminder_id": self.w.new_id("SRV"), "title": title, "interval_mi": every_mi,
                "interval_months": every_months, "last_done_on": done_on.isoformat(), "last_done_odometer": done_mi,
                "due_on": add_months(done_on, every_months).isoformat() if every_months else None,
                "due_odometer": done_mi + every_mi if every_mi else None,
            })
        past = []
        kinds = rng.sample(("Oil change and tire rotation", "Annual inspection", "Brake check and cabin air filter",
                            "Recall: charging port software update", "Tire rotation", "12-volt battery replacement"),
                           rng.randint(2, 3))
        for services in kinds:
            at = datetime.combine(self.fake.date_between(date(2025, 3, 1), date(2026, 2, 20)),
                                  datetime.min.time()).replace(hour=rng.choice((8, 9, 10, 13, 14)),
                                                               minute=rng.choice((0, 30)))
            while at.weekday() >= 5:
                at += timedelta(days=1)
            booked_at = (at - timedelta(days=rng.randint(5, 20))).replace(hour=rng.randint(9, 20),
                                                                         minute=rng.randint(0, 59))
            past.append({"place_id": self.dealer["place_id"], "scheduled_for": iso(at), "services": services,
                         "note": None, "status": "completed", "created_at": iso(booked_at)})
        for row in sorted(past, key=lambda r: r["scheduled_for"]):
            self.rows["service_appointments"].append({"appointment_id": self.w.new_id("APT"), **row})
        if rng.random() < 0.4:
            day = today + timedelta(days=rng.randint(4, 20))
            while day.weekday() >= 5:
                day += timedelta(days=1)
            at = datetime(day.year, day.month, day.day, rng.choice((8, 9, 10, 14)), 0)
            self.rows["service_appointments"].append({
                "appointment_id": self.w.new_id("APT"), "place_id": self.dealer["place_id"], "scheduled_for": iso(at),
                "services": "Tire rotation", "note": "Please also check the low tyre warning",
                "status": "booked",
                "created_at": iso((self.now - timedelta(days=rng.randint(1, 6))).replace(hour=rng.randint(9, 20)))})

    # ----- how this morning ended -----------------------------------------------------------------

    def _morning(self) -> None:
        """Vary the car's state at the epoch, each with the events that led to it: a charge
        started from the app, a remote start to warm the cabin, doors left unlocked (and the
        trunk open) while unloading, valet mode left on since a meal out."""
        rng, car = self.rng, self.vehicle
        parked = self.parked_since
        if rng.random() < MORNING_ODDS["charging"]:
            self._charging_now()
        if not car["charging"] and rng.random() < MORNING_ODDS["warming_up"]:
            self._warming_up()
        if rng.random() < MORNING_ODDS["valet_left_on"]:
            self._valet_left_on()
        unloading = rng.random()
        if unloading < MORNING_ODDS["unloading"] and not car["valet_mode"]:   # valet mode keeps the trunk shut
            self._drop_walk_away_lock()
            at = parked + timedelta(minutes=1)
            self.events.append((at, "lock", "Doors unlocked with the key fob"))
            self.events.append((at + timedelta(seconds=20), "command", "Trunk opened with the key fob"))
            car.update(locked=0, trunk_open=1)
        elif unloading < MORNING_ODDS["unloading"] + MORNING_ODDS["unlocked"]:
            back = min(self.now - timedelta(minutes=2), parked + timedelta(minutes=rng.randint(8, 40)))
            self.events.append((max(back, parked + timedelta(minutes=2)), "lock", "Doors unlocked with the key fob"))
            car.update(locked=0)

    def _charging_now(self) -> None:
        """The owner started charging from the app a little while ago (unless the battery is near its limit)."""
        car = self.vehicle
        kw = min(self.car["onboard"], self.home_charger)
        plugged = self.parked_since + timedelta(minutes=3)   # when the cable was connected
        start = max(self.now - timedelta(minutes=self.rng.randint(6, 30)), plugged + timedelta(minutes=1))
        if start > self.now - timedelta(minutes=2):
            return
        have = self.battery_kwh
        added = round((self.now - start).total_seconds() / 3600 * kw * CHARGE_EFFICIENCY, 2)
        if have + added >= self.car["kwh"] * self.charge_limit / 100 - 0.5:
            return
        start_pct = round(have / self.car["kwh"] * 100, 1)
        self.battery_kwh = have + added
        car.update(charging=1, battery_pct=round(self.battery_kwh / self.car["kwh"] * 100, 1))
        self.rows["charging_sessions"].append({
            "session_id": self.w.new_id("CHG"), "place_id": self.home["place_id"], "location": "Home",
            "started_at": iso(start), "ended_at": None, "start_pct": start_pct, "end_pct": car["battery_pct"],
            "kwh_added": added, "power_kw": kw, "cost": round(added / CHARGE_EFFICIENCY * HOME_PRICE_KWH, 2),
            "status": "charging"})
        self.events.append((start, "charging", f"Charging started at Home ({kw:g} kW)"))

    def _warming_up(self) -> None:
        """A remote start a few minutes ago: engine running, climate on, the driver's seat heater
        at the active driver's level, the cabin on its way to the target, and the trip ahead (work,
        or a favorite place) sent to the car's navigation with it."""
        car = self.vehicle
        me = self.rows["driver_profiles"][0]
        start = self.now - timedelta(minutes=self.rng.randint(3, 9))
        minutes = (self.now - start).total_seconds() / 60
        cabin = car["cabin_temp"]
        moved = min(abs(car["climate_target"] - cabin), 1.5 * minutes)
        car.update(engine="running", climate_on=1,
                   cabin_temp=round(cabin + moved if car["climate_target"] > cabin else cabin - moved, 1))
        if me["seat_heat"]:
            next(s for s in self.rows["seats"] if s["seat"] == "driver")["heat_level"] = me["seat_heat"]
        self.events.append((start, "command", "Engine started"))
        self.events.append((start + timedelta(seconds=30), "climate", f"Climate on at {car['climate_target']:g}°F"))
        # The trip ahead was sent to the car from the app with the remote start.
        place = self.work if self.work is not None and car["place_id"] != self.work["place_id"] else \
            next((f for f in self.favorites if f["place_id"] != car["place_id"]), None)
        if place is not None:
            car["destination_id"] = place["place_id"]
            self.events.append((start + timedelta(seconds=45), "navigation",
                                f"Destination set to {place['nickname'] or place['name']}"))

    def _drop_walk_away_lock(self) -> None:
        """The owner is still at the car: the walk-away lock after this morning's drive did not happen."""
        last = max(i for i, (at, kind, _) in enumerate(self.events)
                   if kind == "lock" and at <= self.parked_since + timedelta(minutes=1))
        self.events.pop(last)

    def _valet_left_on(self) -> None:
        """Valet mode turned on at the last meal out of the past week, and never turned off."""
        restaurants = {p["place_id"] for p in self.pois.get("restaurant", [])}
        meals = [trip for trip in self.trips
                   if trip["to_place_id"] in restaurants and trip["started_at"] >= iso(self.now - timedelta(days=7))]
        if not meals:
            return
        at = datetime.fromisoformat(meals[-1]["ended_at"]) + timedelta(minutes=1)
        self.vehicle["valet_mode"] = 1
        self.events.append((at, "valet", "Valet mode turned on"))


def add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return date(year, month, min(day.day, 28))
