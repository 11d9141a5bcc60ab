"""The iot_devices world: the smart home of one signed-in user.

`build_world` creates the home (in a US city), 8-11 rooms, 32-45 devices of eight types (lights,
thermostats, locks, cameras, sensors, plugs, blinds, speakers) from real manufacturers, door codes
for every lock, scenes and the automations that run them, camera recordings of the last week,
temperature readings of the last five days, daily energy use of the last two weeks and the
home's activity feed of the last three days, all consistent with the devices' current state at
the epoch (Monday 2026-03-16 09:00).

Every world has three or four locks with one of them jammed, a few offline devices, an unlocked
front door and the home in 'home' mode, so that the usual requests meet real obstacles. Everything
random comes from `w.rng` and `w.fake`: different seeds give different people, rooms, devices,
states and histories.

This module also holds the vocabulary the tools share with the world.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.values import iso

# ----- vocabulary shared with the tools ---------------------------------------------------------

WHITES = ("warm white", "soft white", "cool white", "daylight")
COLORS = WHITES + ("red", "orange", "yellow", "green", "blue", "purple", "pink")
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
CONTROLLABLE = ("light", "thermostat", "lock", "camera", "plug", "blind", "speaker")
MAX_CODES_PER_LOCK = 10
MIN_FIRMWARE_BATTERY = 20          # battery devices update firmware only above this charge
MIN_MOTOR_BATTERY = 5              # a blind's motor does not move below this charge
HEAT_RATE_PER_HOUR = 3.0           # how fast a thermostat brings the room to its target (°F/h)
TEMP_FLOOR, TEMP_CEILING = 45.0, 95.0


# ----- catalogues -----------------------------------------------------------------------------

MODELS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    # (manufacturer, model, battery powered)
    "light_color": (("Philips Hue", "Hue White and Color Ambiance A19", False), ("LIFX", "LIFX Color A19", False),
                    ("Nanoleaf", "Essentials A19", False), ("Govee", "Smart LED Bulb H6008", False)),
    "light_white": (("Philips Hue", "Hue White A19", False), ("Lutron", "Caseta Smart Dimmer", False),
                    ("TP-Link Kasa", "Smart Dimmer Switch HS220", False), ("Wyze", "Bulb White", False)),
    "thermostat": (("ecobee", "SmartThermostat Premium", False), ("Google Nest", "Nest Learning Thermostat", False),
                   ("Honeywell Home", "T9 Smart Thermostat", False)),
    "lock": (("Schlage", "Encode Plus", True), ("August", "Wi-Fi Smart Lock", True), ("Yale", "Assure Lock 2", True),
             ("Level", "Lock+", True)),
    "camera_outdoor": (("Ring", "Stick Up Cam Battery", True), ("Arlo", "Pro 5S 2K", True),
                       ("Google Nest", "Nest Cam (battery)", True), ("eufy", "SoloCam S340", True)),
    "camera_indoor": (("Wyze", "Cam v3", False), ("Google Nest", "Nest Cam (indoor, wired)", False),
                      ("Ring", "Indoor Cam (2nd gen)", False)),
    "temperature": (("Aqara", "Temperature and Humidity Sensor T1", True), ("ecobee", "SmartSensor", True)),
    "motion": (("Philips Hue", "Hue Motion Sensor", True), ("Aqara", "Motion Sensor P1", True)),
    "contact": (("Aqara", "Door and Window Sensor P2", True), ("Ring", "Contact Sensor (2nd gen)", True)),
    "leak": (("Moen", "Flo Smart Water Detector", True), ("Aqara", "Water Leak Sensor", True)),
    "plug": (("TP-Link Kasa", "Smart Plug Mini EP10", False), ("Eve", "Energy", False),
             ("Wemo", "Smart Plug with Thread", False)),
    "blind": (("Lutron", "Serena Smart Shades", True), ("IKEA", "FYRTUR Blackout Blind", True),
              ("SmartWings", "Motorized Zebra Shades", True)),
    "speaker": (("Sonos", "Era 100", False), ("Amazon", "Echo (4th gen)", False), ("Apple", "HomePod mini", False),
                ("Google", "Nest Audio", False)),
}
FIRMWARE = {"Philips Hue": "1.116.3", "LIFX": "3.90", "Nanoleaf": "3.6.2", "Govee": "1.02.18",
            "Lutron": "8.15.2", "TP-Link Kasa": "1.1.6", "Wyze": "4.36.11", "ecobee": "4.8.7.132",
            "Google Nest": "6.2-7", "Honeywell Home": "3.5.0", "Schlage": "2.0.28", "August": "2.8.12",
            "Yale": "1.4.5", "Level": "1.9.0", "Ring": "3.1.12", "Arlo": "1.2.34", "eufy": "3.3.2.1",
            "Aqara": "0.0.0_0025", "Moen": "2.4.8", "Eve": "3.2.1", "Wemo": "2.01.12", "IKEA": "24.4.5",
            "SmartWings": "1.3.0", "Sonos": "16.4", "Amazon": "8891588868", "Apple": "18.3", "Google": "3.74.1"}
NEWER = {"Philips Hue": "1.122.8", "Wyze": "4.36.13", "ecobee": "4.8.8.140", "Schlage": "2.0.31",
         "August": "2.9.0", "Ring": "3.2.3", "Arlo": "1.2.41", "Aqara": "0.0.0_0027", "Sonos": "16.6",
         "TP-Link Kasa": "1.1.8", "Lutron": "8.16.0", "Yale": "1.5.0"}
PLAYING = ("Morning Jazz playlist", "NPR News Now", "Lo-fi Beats", "The Daily (podcast)", "Taylor Swift radio",
           "Classical Focus", "Bluey soundtrack", "Acoustic Covers")
PLUG_LOADS = {  # plug label: (watts when on, daily kWh low, high)
    "Coffee Maker": (900.0, 0.2, 0.5), "TV": (95.0, 0.4, 1.3), "Space Heater": (1400.0, 2.5, 7.5),
    "Dehumidifier": (310.0, 3.0, 6.5), "Patio String Lights": (48.0, 0.2, 0.4), "Fish Tank": (62.0, 1.3, 1.6),
    "Air Purifier": (38.0, 0.5, 0.9), "Christmas Cactus Grow Light": (24.0, 0.2, 0.3),
    "Electric Kettle": (1500.0, 0.3, 0.6), "Monitor": (35.0, 0.2, 0.4), "Fan": (45.0, 0.1, 0.5),
}
ONE_OFF_HOLDERS = ("Guest code", "Contractor ({first})", "Airbnb guest", "Plumber")
CODE_HOLDERS = ("Dog walker ({first})", "House cleaner ({first})", "Babysitter ({first})", "Guest code",
                "Contractor ({first})", "Grandparents", "Airbnb guest", "Neighbor ({first})",
                "Plumber", "Pet sitter ({first})")

# Rooms: (name, floor, [(device name, kind, options)]). "kind" picks the catalogue entry.
ROOMS: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    ("Entryway", "Ground floor", (("Front Door Lock", "lock"), ("Entryway Light", "light_white"),
                                  ("Front Door Sensor", "contact"), ("Hall Motion Sensor", "motion"))),
    ("Front Porch", "Outdoors", (("Doorbell Camera", "camera_outdoor"), ("Porch Light", "light_white"))),
    ("Living Room", "Ground floor", (("Living Room Ceiling Light", "light_color"), ("Floor Lamp", "light_color"),
                                     ("Living Room Thermostat", "thermostat"), ("Living Room Blinds", "blind"),
                                     ("Living Room Speaker", "speaker"), ("TV Plug", "plug:TV"),
                                     ("Living Room Motion Sensor", "motion"))),
    ("Kitchen", "Ground floor", (("Kitchen Pendant Lights", "light_white"), ("Under-Cabinet Lights", "light_color"),
                                 ("Coffee Maker Plug", "plug:Coffee Maker"), ("Kitchen Speaker", "speaker"),
                                 ("Under-Sink Leak Sensor", "leak"), ("Back Door Lock", "lock"),
                                 ("Back Door Sensor", "contact"))),
    ("Dining Room", "Ground floor", (("Dining Chandelier", "light_white"), ("Dining Room Blinds", "blind"))),
    ("Primary Bedroom", "Upstairs", (("Bedside Lamp Left", "light_color"), ("Bedside Lamp Right", "light_color"),
                                     ("Bedroom Blackout Blinds", "blind"),
                                     ("Bedroom Temperature Sensor", "temperature"),
                                     ("Bedroom Speaker", "speaker"), ("Upstairs Thermostat", "thermostat"))),
    ("Kids' Room", "Upstairs", (("Night Light", "light_color"), ("Kids' Room Camera", "camera_indoor"),
                                ("Kids' Room Temperature Sensor", "temperature"),
                                ("Air Purifier Plug", "plug:Air Purifier"))),
    ("Office", "Upstairs", (("Desk Lamp", "light_color"), ("Space Heater Plug", "plug:Space Heater"),
                            ("Office Temperature Sensor", "temperature"), ("Office Blinds", "blind"),
                            ("Monitor Plug", "plug:Monitor"))),
    ("Guest Room", "Upstairs", (("Guest Room Lamp", "light_white"), ("Guest Room Window Sensor", "contact"),
                                ("Guest Room Fan Plug", "plug:Fan"))),
    ("Garage", "Ground floor", (("Garage Side Door Lock", "lock"), ("Garage Light", "light_white"),
                                ("Garage Camera", "camera_outdoor"), ("Garage Door Sensor", "contact"))),
    ("Backyard", "Outdoors", (("Backyard Camera", "camera_outdoor"),
                              ("Patio String Lights Plug", "plug:Patio String Lights"),
                              ("Patio Door Lock", "lock"), ("Deck Lights", "light_color"))),
    ("Basement", "Basement", (("Basement Light", "light_white"), ("Dehumidifier Plug", "plug:Dehumidifier"),
                              ("Basement Leak Sensor", "leak"), ("Basement Temperature Sensor", "temperature"),
                              ("Fish Tank Plug", "plug:Fish Tank"))),
)
ALWAYS = ("Entryway", "Front Porch", "Living Room", "Kitchen", "Primary Bedroom", "Garage")
TABLES = ("homes", "rooms", "devices", "lock_codes", "scenes", "scene_actions", "automations",
          "recordings", "sensor_readings", "energy_usage", "activity")


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    """Build the smart home of `w.seed`: {table: rows}, in insertion order."""
    return _Builder(w).build()


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w, TABLES)
        self.by_name: dict[str, dict[str, Any]] = {}
        self.events: list[tuple[datetime, str | None, str, str]] = []

    def build(self) -> dict[str, list[dict[str, Any]]]:
        self._home()
        self._rooms_and_devices()
        self._states()
        self._codes()
        self._scenes()
        self._recordings()
        self._readings()
        self._energy()
        self._activity()
        return self.rows

    def _daytime(self, start: datetime, end: datetime) -> datetime:
        """A moment between `start` and `end`, nearly always between 7 am and 11 pm."""
        at = start
        for _ in range(20):
            at = self.fake.datetime_between(start, end, step_minutes=1)
            if 7 <= at.hour <= 22:
                break
        return at

    # ----- the home ---------------------------------------------------------------------------

    def _home(self) -> None:
        fake, rng = self.fake, self.rng
        self.owner = fake.person()
        self.city = fake.city("US")
        self.home = {
            "home_id": self.w.new_id("HOME"),
            "name": rng.choice((f"The {self.owner.last} Home", f"{self.owner.last} House",
                                f"{self.city.name} Home", f"{fake.street_address().split(' ', 1)[1]} House")),
            "owner_name": self.owner.name,
            "owner_email": fake.email(self.owner),
            "address": f"{fake.street_address()}, {self.city.name}, {self.city.region} "
                       f"{self.city.zip_prefix}{fake.digits(2)}",
            "timezone": self.city.timezone,
            "mode": "home",
            "mode_changed_at": iso(self.now.replace(hour=6, minute=50) - timedelta(days=0)),
            "electricity_rate": round(rng.uniform(0.13, 0.31), 3),
        }
        self.rows["homes"].append(self.home)
        self.installed_from = date(2021, 1, 1) + timedelta(days=rng.randint(0, 600))

    def _rooms_and_devices(self) -> None:
        rng = self.rng
        optional = [r for r in ROOMS if r[0] not in ALWAYS]
        chosen = {r[0] for r in rng.sample(optional, rng.randint(2, 5))}
        for name, floor, specs in ROOMS:
            if name not in ALWAYS and name not in chosen:
                continue
            room = {"room_id": self.w.new_id("RM"), "name": name, "floor": floor,
                    "created_at": iso(datetime.combine(self.installed_from, datetime.min.time()).replace(hour=20))}
            self.rows["rooms"].append(room)
            keep = list(specs)
            # Leave out a device now and then (never a lock, thermostat or camera), so homes differ in more than rooms.
            for spec in specs:
                if spec[1] not in ("lock", "thermostat", "camera_outdoor") and rng.random() < 0.15 and len(keep) > 2:
                    keep.remove(spec)
            for device_name, kind in keep:
                self._device(room, device_name, kind)
        # Every home has three or four locks: the front door, the back door, the garage (and patio).
        names = {d["name"] for d in self.rows["devices"]}
        assert {"Front Door Lock", "Back Door Lock", "Garage Side Door Lock"} <= names

    def _device(self, room: dict[str, Any], name: str, kind: str) -> None:
        rng, fake = self.rng, self.fake
        catalogue, _, load = kind.partition(":")
        maker, model, battery = rng.choice(MODELS[catalogue])
        dtype = {"light_color": "light", "light_white": "light", "camera_outdoor": "camera",
                 "camera_indoor": "camera", "temperature": "sensor", "motion": "sensor", "contact": "sensor",
                 "leak": "sensor"}.get(catalogue, catalogue)
        firmware = FIRMWARE[maker]
        latest = NEWER.get(maker, firmware) if rng.random() < 0.6 else firmware
        installed = fake.date_between(self.installed_from, date(2025, 12, 20))
        row: dict[str, Any] = {
            "device_id": self.w.new_id("DEV"), "room_id": room["room_id"], "name": name, "type": dtype,
            "manufacturer": maker, "model": model, "firmware": firmware, "latest_firmware": latest,
            "online": 1, "battery": rng.randint(35, 100) if battery else None,
            "last_seen": iso(self.now - timedelta(minutes=rng.randint(0, 4))),
            "installed_on": installed.isoformat(),
            "power": None, "brightness": None, "color": None, "supports_color": None, "watts": None,
            "rated_watts": None,
            "mode": None, "target_temp": None, "current_temp": None, "humidity": None, "min_temp": None,
            "max_temp": None, "lock_state": None, "armed": None, "placement": None, "sensor_kind": None,
            "sensor_state": None, "position": None, "volume": None, "now_playing": None,
        }
        if dtype == "light":
            row["supports_color"] = int(catalogue == "light_color")
            row["power"], row["brightness"] = "off", rng.choice((40, 60, 75, 80, 100))
            row["color"] = rng.choice(WHITES[:2])
        elif dtype == "plug":
            row["power"], row["watts"] = "off", 0.0
            row["_load"] = load
        elif dtype == "speaker":
            row["power"], row["volume"] = "off", rng.choice((15, 20, 25, 30, 35, 40))
        elif dtype == "thermostat":
            row["mode"] = rng.choice(("heat", "heat", "auto"))
            row["target_temp"] = float(rng.choice((68, 69, 70, 71, 72)))
            row["current_temp"] = row["target_temp"] - rng.choice((0.0, 0.5, 1.0, 1.5))
            row["humidity"] = rng.randint(32, 48)
            row["min_temp"], row["max_temp"] = rng.choice(((50.0, 90.0), (55.0, 85.0), (60.0, 80.0), (62.0, 78.0)))
        elif dtype == "lock":
            row["lock_state"] = "locked"
        elif dtype == "camera":
            row["placement"] = "outdoor" if catalogue == "camera_outdoor" else "indoor"
            row["armed"] = 1 if row["placement"] == "outdoor" else 0
        elif dtype == "sensor":
            row["sensor_kind"] = catalogue
            row["sensor_state"] = {"motion": "clear", "contact": "closed", "leak": "dry"}.get(catalogue)
            if catalogue == "temperature":
                row["current_temp"] = round(rng.uniform(66, 72) * 2) / 2
                row["humidity"] = rng.randint(30, 50)
        elif dtype == "blind":
            row["position"] = rng.choice((0, 0, 50, 100))
        self.rows["devices"].append(row)
        self.by_name[name] = row

    def _states(self) -> None:
        """The moment of the epoch: what is on, open, unlocked, offline or jammed."""
        rng = self.rng
        devices = self.rows["devices"]
        morning = [d for d in devices if d["name"] in ("Kitchen Pendant Lights", "Under-Cabinet Lights",
                                                        "Entryway Light", "Desk Lamp", "Floor Lamp")]
        for d in rng.sample(morning, min(len(morning), rng.randint(1, 3))):
            d["power"] = "on"
        for d in devices:
            if d["type"] == "plug" and d["_load"] in ("Fish Tank", "Dehumidifier", "Air Purifier", "Monitor"):
                d["power"] = "on"
            if d["type"] == "plug" and d["_load"] == "Coffee Maker" and rng.random() < 0.5:
                d["power"] = "on"
        speakers = [d for d in devices if d["type"] == "speaker"]
        if speakers and rng.random() < 0.7:
            sp = rng.choice(speakers)
            sp["power"], sp["now_playing"] = "on", rng.choice(PLAYING)
        for d in devices:
            if d["type"] == "plug":
                watts, _, _ = PLUG_LOADS[d["_load"]]
                d["rated_watts"] = round(watts * rng.uniform(0.85, 1.05), 1)
                d["watts"] = d["rated_watts"] if d["power"] == "on" else 0.0
        # Blinds open in the morning, mostly.
        for d in devices:
            if d["type"] == "blind" and "Bedroom" not in d["name"] and rng.random() < 0.6:
                d["position"] = 100
        # Locks: the front door is unlocked (someone is home); one of the others is jammed.
        locks = [d for d in devices if d["type"] == "lock"]
        self.by_name["Front Door Lock"]["lock_state"] = "unlocked"
        others = [d for d in locks if d["name"] != "Front Door Lock"]
        jammed = rng.choice(others)
        jammed["lock_state"] = "jammed"
        self.jammed = jammed
        for d in locks:
            if d is not jammed and d["name"] != "Front Door Lock" and rng.random() < 0.2:
                d["lock_state"] = "unlocked"
        # Contact sensors agree with the doors.
        if "Back Door Sensor" in self.by_name and self.by_name["Back Door Lock"]["lock_state"] == "unlocked":
            self.by_name["Back Door Sensor"]["sensor_state"] = rng.choice(("open", "closed"))
        if "Guest Room Window Sensor" in self.by_name and rng.random() < 0.4:
            self.by_name["Guest Room Window Sensor"]["sensor_state"] = "open"
        # Motion right now in the living room or the hall, sometimes.
        for name in ("Living Room Motion Sensor", "Hall Motion Sensor"):
            if name in self.by_name and rng.random() < 0.5:
                self.by_name[name]["sensor_state"] = "motion"
        # A few devices are offline: a dead battery, a lost Wi-Fi connection, and always a smart
        # bulb whose wall switch someone turned off.
        lights = [d for d in devices if d["type"] == "light" and d["power"] == "off"]
        self.switched_off = rng.choice(lights)
        candidates = [d for d in devices if d["type"] in ("light", "camera", "sensor", "plug", "blind", "speaker")
                      and d is not self.switched_off]
        self.offline = [self.switched_off] + rng.sample(candidates, rng.randint(2, 4))
        for d in self.offline:
            d["online"] = 0
            hours = rng.randint(3, 70)
            d["last_seen"] = iso(self.now - timedelta(hours=hours, minutes=rng.randint(0, 59)))
            d["_offline_at"] = d["last_seen"]
            if d["battery"] is not None and rng.random() < 0.6:
                d["battery"] = 0
            if d["type"] == "plug":
                d["watts"] = 0.0
        # A blind whose battery is nearly empty.
        blinds = [d for d in devices if d["type"] == "blind" and d["online"]]
        if blinds:
            rng.choice(blinds)["battery"] = rng.randint(1, 4)
        for d in devices:
            if d["battery"] is not None and d["online"] and d["battery"] < 10 and d["type"] != "blind":
                d["battery"] = rng.randint(10, 30)

    # ----- codes, scenes, automations ---------------------------------------------------------

    def _codes(self) -> None:
        rng, fake = self.rng, self.fake
        family = fake.digits(rng.choice((4, 6)))
        while len(set(family)) < 3:
            family = fake.digits(len(family))
        for lock in (d for d in self.rows["devices"] if d["type"] == "lock"):
            used = {family}
            self._code(lock, "Family", family, self.installed_from, None, used_days_ago=rng.randint(0, 2))
            many = rng.randint(1, 3) if lock["name"] != "Front Door Lock" else rng.randint(2, 4)
            holders = rng.sample(CODE_HOLDERS, many)
            for holder in holders:
                code = fake.digits(rng.choice((4, 5, 6)))
                while code in used or len(set(code)) < 3:
                    code = fake.digits(len(code))
                used.add(code)
                created = fake.date_between(date(2025, 6, 1), date(2026, 3, 10))
                roll = rng.random()
                if holder in ONE_OFF_HOLDERS:   # guests and tradespeople get temporary codes only
                    roll *= 0.6
                if roll < 0.3:     # a temporary code that has run out
                    until = (self.now - timedelta(days=rng.randint(1, 60))).replace(hour=rng.choice((12, 18, 23)))
                    until = max(until, datetime.combine(created, datetime.min.time()) + timedelta(days=1, hours=18))
                elif roll < 0.6:   # a temporary code still valid
                    until = self.now + timedelta(days=rng.randint(2, 45))
                    until = until.replace(hour=rng.choice((12, 18, 23)), minute=0 if rng.random() < 0.6 else 59)
                else:
                    until = None
                first = fake.person().first
                self._code(lock, holder.format(first=first), code, created, until,
                           used_days_ago=rng.randint(1, 20) if rng.random() < 0.7 else None)

    def _code(self, lock: dict[str, Any], name: str, code: str, created: date, until: datetime | None,
              used_days_ago: int | None) -> None:
        created_at = datetime.combine(created, datetime.min.time()) + timedelta(hours=self.rng.randint(8, 21))
        last_used = None
        if used_days_ago is not None:
            end = self.now - timedelta(days=used_days_ago)
            if until is not None:
                end = min(end, until - timedelta(minutes=30))
            at = self._daytime(max(created_at, end - timedelta(days=1)), end)
            if created_at < at < self.now:
                last_used = at
        self.rows["lock_codes"].append({
            "code_id": self.w.new_id("LKC"), "device_id": lock["device_id"], "name": name, "code": code,
            "created_at": iso(created_at), "valid_until": iso(until) if until else None,
            "last_used_at": iso(last_used) if last_used else None,
        })
        if last_used is not None and last_used > self.now - timedelta(days=3) and lock["online"]:
            self.events.append((last_used, lock["device_id"], "lock",
                                f"{lock['name']} unlocked with the code '{name}'"))

    def _scenes(self) -> None:
        rng = self.rng
        d = self.rows["devices"]
        lights = [x for x in d if x["type"] == "light"]
        thermostats = [x for x in d if x["type"] == "thermostat"]
        locks = [x for x in d if x["type"] == "lock"]
        outdoor_cams = [x for x in d if x["type"] == "camera" and x["placement"] == "outdoor"]
        cams = [x for x in d if x["type"] == "camera"]
        blinds = [x for x in d if x["type"] == "blind"]
        speakers = [x for x in d if x["type"] == "speaker"]
        plugs = [x for x in d if x["type"] == "plug"]

        def room_of(x: dict[str, Any]) -> str:
            return next(r["name"] for r in self.rows["rooms"] if r["room_id"] == x["room_id"])

        heat = float(rng.choice((68, 69, 70, 71)))
        night = float(rng.choice((64, 65, 66, 67)))
        office = [(x, {"power": "on", "brightness": 100, "color": "daylight"}) for x in lights if room_of(x) == "Office"]
        specs: list[tuple[str, list[tuple[dict[str, Any], dict[str, Any]]]]] = [
            ("Good Morning", [(x, {"power": "on", "brightness": 80}) for x in lights
                              if room_of(x) in ("Kitchen", "Entryway")]
             + [(x, {"position": 100}) for x in blinds]
             + [(x, {"mode": "heat", "target_temp": heat}) for x in thermostats]
             + [(x, {"power": "on"}) for x in plugs if x["_load"] in ("Coffee Maker", "Electric Kettle")]),
            ("Good Night", [(x, {"power": "off"}) for x in lights]
             + [(x, {"lock_state": "locked"}) for x in locks]
             + [(x, {"armed": 1}) for x in outdoor_cams]
             + [(x, {"mode": "heat", "target_temp": night}) for x in thermostats]
             + [(x, {"position": 0}) for x in blinds]
             + [(x, {"power": "off"}) for x in speakers]),
            ("Leaving Home", [(x, {"power": "off"}) for x in lights]
             + [(x, {"lock_state": "locked"}) for x in locks]
             + [(x, {"armed": 1}) for x in cams]
             + [(x, {"power": "off"}) for x in speakers]
             + [(x, {"mode": "eco"}) for x in thermostats]),
            ("Movie Night", [(x, {"power": "on", "brightness": 15, "color": "warm white"
                                  if not x["supports_color"] else rng.choice(("purple", "blue", "warm white"))})
                             for x in lights if room_of(x) == "Living Room"]
             + [(x, {"position": 0}) for x in blinds if room_of(x) == "Living Room"]
             + [(x, {"power": "on"}) for x in plugs if x["_load"] == "TV"]),
            ("Dinner Time", [(x, {"power": "on", "brightness": 60, "color": "soft white"}) for x in lights
                             if room_of(x) in ("Dining Room", "Kitchen")]
             + [(x, {"power": "on", "volume": 20}) for x in speakers if room_of(x) == "Kitchen"]),
            ("Evening Outdoor Lights", [(x, {"power": "on", "brightness": 70}) for x in lights
                                        if room_of(x) in ("Front Porch", "Backyard", "Garage")]
             + [(x, {"power": "on"}) for x in plugs if x["_load"] == "Patio String Lights"]),
            # without an office to light, silencing the speakers is quiet time, not focus time
            ("Focus Time" if office else "Quiet Time", office + [(x, {"power": "off"}) for x in speakers]),
        ]
        specs = [(name, acts) for name, acts in specs if acts]
        keep = specs[:3] + rng.sample(specs[3:], rng.randint(max(0, len(specs) - 5), len(specs) - 3))
        self.scene_ids: dict[str, str] = {}
        for name, acts in keep:
            scene = {"scene_id": self.w.new_id("SCN"), "name": name,
                     "created_at": iso(datetime.combine(self.installed_from + timedelta(days=rng.randint(3, 90)),
                                                        datetime.min.time()).replace(hour=21)),
                     "last_activated_at": None}
            self.rows["scenes"].append(scene)
            self.scene_ids[name] = scene["scene_id"]
            for device, act in acts:
                row = {"scene_id": scene["scene_id"], "device_id": device["device_id"], "power": None,
                       "brightness": None, "color": None, "mode": None, "target_temp": None, "lock_state": None,
                       "armed": None, "position": None, "volume": None}
                row.update(act)
                self.rows["scene_actions"].append(row)
        self._automations()

    def _automations(self) -> None:
        rng = self.rng
        plans = [("Weekday wake-up", "Good Morning", rng.choice(("06:30", "06:45", "07:00")), "MO,TU,WE,TH,FR", 1),
                 ("Lights out", "Good Night", rng.choice(("22:30", "23:00", "23:30")), ",".join(WEEKDAYS), 1),
                 ("Weekend wake-up", "Good Morning", rng.choice(("08:00", "08:30", "09:30")), "SA,SU",
                  int(rng.random() < 0.6))]
        if "Evening Outdoor Lights" in self.scene_ids:
            plans.append(("Porch lights at dusk", "Evening Outdoor Lights", rng.choice(("18:30", "19:00", "19:15")),
                          ",".join(WEEKDAYS), 1))
        if "Dinner Time" in self.scene_ids and rng.random() < 0.6:
            plans.append(("Family dinner", "Dinner Time", "18:00", "MO,TU,WE,TH,FR,SU", int(rng.random() < 0.5)))
        quiet = next((name for name in ("Focus Time", "Quiet Time") if name in self.scene_ids), None)
        if quiet is not None and rng.random() < 0.6:
            plans.append(("Start of work day", quiet, "08:45", "MO,TU,WE,TH,FR", 1))
        for name, scene, at, days, enabled in plans:
            if scene not in self.scene_ids:
                continue
            last = None
            if enabled:
                hh, mm = map(int, at.split(":"))
                day = self.now.date()
                for back in range(0, 8):
                    moment = datetime.combine(day - timedelta(days=back), datetime.min.time())
                    moment = moment.replace(hour=hh, minute=mm)
                    if moment <= self.now and WEEKDAYS[moment.weekday()] in days.split(","):
                        last = moment
                        break
            row = {"automation_id": self.w.new_id("AUT"), "name": name, "scene_id": self.scene_ids[scene],
                   "run_at": at, "days": days, "enabled": enabled,
                   "created_at": iso(datetime.combine(self.installed_from + timedelta(days=rng.randint(30, 200)),
                                                      datetime.min.time()).replace(hour=20, minute=15)),
                   "last_run_at": iso(last) if last else None}
            self.rows["automations"].append(row)
            if last is not None:
                sc = next(s for s in self.rows["scenes"] if s["scene_id"] == row["scene_id"])
                if sc["last_activated_at"] is None or sc["last_activated_at"] < iso(last):
                    sc["last_activated_at"] = iso(last)
                if last > self.now - timedelta(days=3):
                    self.events.append((last, None, "automation", f"Automation '{name}' ran the scene '{scene}'"))
        # The user ran a scene by hand now and then.
        for scene in self.rows["scenes"]:
            if scene["last_activated_at"] is None and rng.random() < 0.7:
                at = self._daytime(self.now - timedelta(days=6), self.now - timedelta(hours=1))
                at = at.replace(minute=rng.choice((0, 10, 25, 40, 55)), second=0)
                if at < self.now:
                    scene["last_activated_at"] = iso(at)
                    if at > self.now - timedelta(days=3):
                        self.events.append((at, None, "scene", f"Scene '{scene['name']}' activated"))

    # ----- history ------------------------------------------------------------------------------

    def _recordings(self) -> None:
        rng = self.rng
        start = self.now - timedelta(days=7)
        rows = []
        for cam in (d for d in self.rows["devices"] if d["type"] == "camera"):
            until = datetime.fromisoformat(cam["last_seen"])
            triggers = (("person", "package", "motion", "vehicle", "animal") if cam["placement"] == "outdoor"
                        else ("motion", "person", "animal", "manual"))
            weights = (5, 2, 6, 2, 1) if cam["placement"] == "outdoor" else (5, 3, 2, 1)
            for _ in range(rng.randint(8, 16) if cam["placement"] == "outdoor" else rng.randint(4, 8)):
                trigger = rng.choices(triggers, weights)[0]
                at = (self.fake.datetime_between(start, until, step_minutes=1) if trigger in ("motion", "animal")
                      else self._daytime(start, until))
                if trigger == "package" and not 9 <= at.hour <= 19:
                    trigger = "motion"
                duration = rng.randint(12, 75) if trigger != "manual" else rng.randint(60, 300)
                label = f"{cam['name']}, {at:%B} {at.day} at {at.hour % 12 or 12}:{at.minute:02d} " \
                        f"{'AM' if at.hour < 12 else 'PM'}"
                rows.append({"device_id": cam["device_id"], "label": label, "started_at": iso(at), "duration_s": duration,
                             "trigger": trigger, "size_mb": round(duration * rng.uniform(0.35, 0.6), 1),
                             "protected": int(rng.random() < 0.12)})
                if at > self.now - timedelta(days=3):
                    what = {"person": "Person detected", "package": "Package detected", "motion": "Motion detected",
                            "vehicle": "Vehicle detected", "animal": "Animal detected",
                            "manual": "Recording started"}[trigger]
                    self.events.append((at, cam["device_id"], "camera", f"{what} by {cam['name']}"))
        rows.sort(key=lambda r: (r["started_at"], r["device_id"]))
        for row in rows:
            self.rows["recordings"].append({"recording_id": self.w.new_id("REC"), **row})

    def _readings(self) -> None:
        rng = self.rng
        first = self.now.replace(hour=0) - timedelta(days=5)
        for dev in self.rows["devices"]:
            if not (dev["type"] == "thermostat" or dev["sensor_kind"] == "temperature"):
                continue
            base = dev["target_temp"] if dev["type"] == "thermostat" else dev["current_temp"]
            until = datetime.fromisoformat(dev["last_seen"])
            at, last = first, None
            while at <= until:
                swing = 1.6 * math.sin((at.hour - 9) / 24 * 2 * math.pi)
                temp = round((base - 0.8 + swing + rng.uniform(-0.6, 0.6)) * 2) / 2
                humidity = max(20, min(65, (dev["humidity"] or 40) + rng.randint(-4, 4)))
                self.rows["sensor_readings"].append({"device_id": dev["device_id"], "recorded_at": iso(at),
                                                  "temperature": temp, "humidity": humidity})
                last = (temp, humidity)
                at += timedelta(hours=3)
            if last is not None and dev["type"] == "sensor":
                dev["current_temp"], dev["humidity"] = last

    def _energy(self) -> None:
        rng = self.rng
        today = self.now.date()
        for dev in self.rows["devices"]:
            if dev["type"] == "plug":
                _, low, high = PLUG_LOADS[dev["_load"]]
            elif dev["type"] == "thermostat":
                low, high = 7.0, 22.0
            elif dev["type"] == "light":
                low, high = 0.03, 0.35
            elif dev["type"] == "speaker":
                low, high = 0.04, 0.12
            else:
                continue
            offline_since = date.fromisoformat(dev["last_seen"][:10]) if not dev["online"] else None
            for back in range(14, 0, -1):
                day = today - timedelta(days=back)
                if offline_since is not None and day > offline_since:
                    continue
                kwh = rng.uniform(low, high)
                if dev["type"] == "plug" and dev["_load"] == "Space Heater" and day.weekday() >= 5:
                    kwh *= 0.2
                self.rows["energy_usage"].append({"device_id": dev["device_id"], "day": day.isoformat(),
                                               "kwh": round(kwh, 3)})
        for dev in self.rows["devices"]:
            dev.pop("_load", None)

    def _activity(self) -> None:
        rng = self.rng
        start = self.now - timedelta(days=3)
        d = self.rows["devices"]
        for dev in d:
            if dev["sensor_kind"] == "motion":
                for _ in range(rng.randint(5, 10)):
                    at = self._daytime(start, datetime.fromisoformat(dev["last_seen"]))
                    where = dev["name"].replace(" Motion Sensor", "")
                    self.events.append((at, dev["device_id"], "motion", f"Motion in {where}"))
            elif dev["sensor_kind"] == "contact":
                for _ in range(rng.randint(3, 7)):
                    at = self._daytime(start, datetime.fromisoformat(dev["last_seen"]))
                    self.events.append((at, dev["device_id"], "contact",
                                        f"{dev['name'].replace(' Sensor', '')} opened"))
                    self.events.append((at + timedelta(minutes=rng.randint(1, 6)), dev["device_id"], "contact",
                                        f"{dev['name'].replace(' Sensor', '')} closed"))
            if dev.get("_offline_at"):
                why = ("battery is empty" if dev["battery"] == 0 else "powered off at the wall switch"
                       if dev is self.switched_off else "lost its Wi-Fi connection")
                self.events.append((datetime.fromisoformat(dev["_offline_at"]), dev["device_id"], "device",
                                    f"{dev['name']} went offline ({why})"))
        jam_at = self.now - timedelta(hours=rng.randint(2, 30), minutes=rng.randint(0, 59))
        self.events.append((jam_at, self.jammed["device_id"], "lock",
                            f"{self.jammed['name']} jammed while locking; the bolt could not extend"))
        front = self.by_name["Front Door Lock"]
        unlock_at = self.now - timedelta(minutes=rng.randint(10, 120))
        self.events.append((unlock_at, front["device_id"], "lock", f"{front['name']} unlocked from the keypad"))
        mode_at = datetime.fromisoformat(self.home["mode_changed_at"])
        self.events.append((mode_at, None, "mode", "Home mode changed to 'home'"))
        self.events.sort(key=lambda e: (e[0], e[1] or "", e[3]))
        for at, device_id, kind, message in self.events:
            if at > self.now:
                continue
            self.rows["activity"].append({"activity_id": self.w.new_id("ACT"), "occurred_at": iso(at),
                                       "device_id": device_id, "kind": kind, "message": message})
        for dev in d:
            dev.pop("_offline_at", None)
