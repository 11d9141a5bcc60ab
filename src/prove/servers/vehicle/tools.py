"""The vehicle server: one connected plug-in hybrid car, through its owner's app and in-car assistant.

This module holds `server`, the ID types, the status model, the helpers every tool module shares
and the `on_advance` hook (drives arrive, charging adds energy, updates finish, the cabin warms or
cools). The tools live in one module per area, imported at the bottom so that they register:

    tools_body.py      status, doors, trunk, windows, horn and lights, tyres, valet mode, driver profiles
    tools_drive.py     engine, gears, places, navigation, drives and trip history, location
    tools_energy.py    charging and its schedule, climate and seat heaters, software updates
    tools_service.py   service reminders, service appointments, the event log
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import Ctx, Entity, EntityKind, Server, ToolError
from prove.env.values import quote

from .world import CHARGE_EFFICIENCY, CLIMATE_KW, build_world, iso


def on_advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """As the clock moves on: a drive under way arrives, an installing update finishes, scheduled
    charging starts, charging adds energy up to the limit, and the cabin moves towards the climate
    target (or, with the climate off, towards the outside temperature)."""
    from .tools_drive import arrive
    from .tools_energy import begin_charging

    car = vehicle(ctx)
    if car["active_trip_id"] is not None:
        trip = ctx.db.execute("SELECT eta FROM trips WHERE trip_id = ?", (car["active_trip_id"],)).fetchone()
        if trip["eta"] <= iso(new):
            arrive(ctx, datetime.fromisoformat(trip["eta"]))
    car = vehicle(ctx)
    if car["update_finishes_at"] is not None and car["update_finishes_at"] <= iso(new):
        at = datetime.fromisoformat(car["update_finishes_at"])
        ctx.db.execute("UPDATE vehicles SET software_version = update_version, update_version = NULL, "
                       "update_notes = NULL, update_minutes = NULL, update_finishes_at = NULL")
        log(ctx, "software", f"Software update {car['update_version']} installed", at)
    car = vehicle(ctx)
    if (car["scheduled_charge_time"] and car["plugged_in"] and not car["charging"] and car["engine"] == "off"
            and car["battery_pct"] < car["charge_limit"]):
        start = _next_at(car["scheduled_charge_time"], old)
        if start <= new:
            begin_charging(ctx, start, scheduled=True)
    _charge_progress(ctx, old, new)
    _cabin(ctx, old, new)


server = Server(
    "vehicle", "Connected car",
    "One connected plug-in hybrid car, controlled through its owner's app and in-car assistant: "
    "status, battery and fuel range, location; doors, trunk, windows, horn, lights; engine, gears "
    "and drives to a navigation destination, with trip history; charging, charge limit and "
    "off-peak schedule; climate and seat heaters; tyre pressures; valet mode with a PIN; driver "
    "profiles; software updates; service reminders and dealer appointments; the car's event log. "
    "Actions are gated by the car's state: park before opening the trunk, lock before driving, "
    "engine off to charge.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    on_advance=on_advance,
    entities=[
        EntityKind("vehicle", table="vehicles", key="vehicle_id", label="nickname",
                   description="the owner's car"),
        EntityKind("place", table="places", key="place_id", label="name",
                   description="a saved place or point of interest the car can navigate to"),
        EntityKind("trip", table="trips", key="trip_id", label="to_name", description="a drive of the car"),
        EntityKind("charging_session", table="charging_sessions", key="session_id", label="location",
                   description="one time the car charged, at home or a public charger"),
        EntityKind("driver_profile", table="driver_profiles", key="profile_id", label="name",
                   description="a driver's saved seat, mirror and climate settings"),
        EntityKind("service_reminder", table="service_reminders", key="reminder_id", label="title",
                   description="a maintenance item that comes due by mileage or time"),
        EntityKind("service_appointment", table="service_appointments", key="appointment_id", label="services",
                   description="a booked visit to a service centre", live="status = 'booked'"),
        EntityKind("vehicle_event", table="events", key="event_id", label="message",
                   description="an entry of the car's event log"),
    ],
)

# ----- parameter and field types ----------------------------------------------------------------

VehicleId = Annotated[str, Entity("vehicle")]
PlaceId = Annotated[str, Entity("place")]
TripId = Annotated[str, Entity("trip")]
ChargingSessionId = Annotated[str, Entity("charging_session")]
ProfileId = Annotated[str, Entity("driver_profile")]
ReminderId = Annotated[str, Entity("service_reminder")]
AppointmentId = Annotated[str, Entity("service_appointment")]
EventId = Annotated[str, Entity("vehicle_event")]
Limit = Annotated[int, Field(ge=1, le=200)]
Gear = Literal["P", "R", "N", "D"]
EventKind = Literal["lock", "charging", "fuel", "alert", "software", "drive", "climate", "command", "valet",
                    "service"]

_LISTED_BY = {"place": "search_places", "trip": "list_trips", "charging_session": "list_charging_sessions",
              "driver_profile": "list_driver_profiles", "service_reminder": "list_service_reminders",
              "service_appointment": "list_service_appointments", "vehicle_event": "list_events",
              "vehicle": "get_vehicle_status"}

# ----- the status model -------------------------------------------------------------------------


class VehicleStatus(BaseModel):
    """The car as the app shows it."""

    vehicle_id: VehicleId
    nickname: str
    make: str
    model: str
    year: int
    trim: str
    color: str
    vin: str
    license_plate: str
    odometer_mi: float
    battery_pct: float
    electric_range_mi: float
    fuel_pct: float
    fuel_range_mi: float
    total_range_mi: float
    engine: Literal["off", "running"]
    gear: Gear
    driving: bool = Field(description="true while a drive is under way")
    locked: bool
    trunk_open: bool
    open_windows: list[str] = Field(description="windows not fully closed")
    climate_on: bool
    climate_target: float = Field(description="°F")
    cabin_temp: float = Field(description="°F")
    outside_temp: float = Field(description="°F")
    headlights: Literal["off", "auto", "on"]
    plugged_in: bool
    charging: bool
    charge_limit: int = Field(description="percent the battery charges to")
    scheduled_charge_time: str | None = Field(description="'HH:MM' when plugged-in charging starts; null: off")
    valet_mode: bool
    software_version: str
    update_available: str | None = Field(description="a downloaded update waiting to be installed")
    update_installing: bool
    location: str = Field(description="the saved place or address where the car is, or where it is driving to")
    place_id: PlaceId | None = Field(description="the known place where it is parked, if any")
    parked_since: str | None
    active_trip_id: TripId | None
    active_profile_id: ProfileId | None
    warnings: list[str] = Field(description="things that need attention: low tyre, low fuel, service due, ...")


# ----- helpers ------------------------------------------------------------------------------------


def vehicle(ctx: Ctx) -> sqlite3.Row:
    return ctx.db.execute("SELECT * FROM vehicles").fetchone()


def fetch(ctx: Ctx, kind: str, entity_id: str) -> sqlite3.Row:
    """The row of entity `kind` with this ID, or a `not_found` error naming the list tool."""
    spec = server.entities[kind]  # table and key names come from the declaration, never from input
    row = ctx.db.execute(f'SELECT * FROM "{spec.table}" WHERE "{spec.key}" = ?', (entity_id,)).fetchone()
    if row is None:
        what = kind.replace("_", " ")
        raise ToolError("not_found", f"No {what} has ID {quote(entity_id)}.",
                        hint=f"Call {_LISTED_BY[kind]} to see the IDs that exist.")
    return row


def log(ctx: Ctx, kind: str, message: str, at: datetime | None = None) -> str:
    event_id = ctx.new_id("EVT")
    ctx.db.execute("INSERT INTO events (event_id, occurred_at, kind, message) VALUES (?, ?, ?, ?)",
                   (event_id, iso(at or ctx.now()), kind, message))
    return event_id


def electric_range(car: sqlite3.Row) -> float:
    return round(car["battery_pct"] / 100 * car["battery_kwh"] * car["mi_per_kwh"], 1)


def fuel_range(car: sqlite3.Row) -> float:
    return round(car["fuel_gal"] * car["mpg"], 1)


def place_label(row: sqlite3.Row) -> str:
    return row["nickname"] or row["name"]


def not_moving(ctx: Ctx, car: sqlite3.Row, doing: str) -> None:
    """`vehicle_moving` while a drive is under way."""
    if car["active_trip_id"] is not None:
        raise ToolError("vehicle_moving", f"The car is driving; it cannot {doing} until it has arrived and parked.",
                        hint="Wait for the drive to end (get_navigation shows the arrival time).")


def parked(ctx: Ctx, car: sqlite3.Row, doing: str) -> None:
    """`vehicle_moving` while driving, `not_parked` out of Park."""
    not_moving(ctx, car, doing)
    if car["gear"] != "P":
        raise ToolError("not_parked", f"The car is in {car['gear']}; it must be in Park (P) to {doing}.",
                        hint="Shift to P with shift_gear first.")


def no_valet(car: sqlite3.Row, doing: str) -> None:
    if car["valet_mode"]:
        raise ToolError("valet_mode_active", f"Valet mode is on; it does not allow to {doing}.",
                        hint="Turn valet mode off with disable_valet_mode (it needs the valet PIN).")


def status(ctx: Ctx) -> VehicleStatus:
    car = vehicle(ctx)
    windows = [r[0] for r in ctx.db.execute("SELECT window FROM windows WHERE position > 0 ORDER BY window")]
    if car["active_trip_id"]:
        (to_name,) = ctx.db.execute("SELECT to_name FROM trips WHERE trip_id = ?", (car["active_trip_id"],)).fetchone()
        location = f"Driving to {to_name}"
    elif car["place_id"]:
        location = place_label(fetch(ctx, "place", car["place_id"]))
    else:
        location = f"{car['lat']:.5f}, {car['lon']:.5f}"
    warnings = []
    for t in ctx.db.execute("SELECT position, pressure_psi, recommended_psi FROM tires ORDER BY position"):
        if t["pressure_psi"] < t["recommended_psi"] - 4:
            warnings.append(f"Low tyre pressure: {t['position'].replace('_', ' ')} at {t['pressure_psi']:g} psi "
                            f"(recommended {t['recommended_psi']:g})")
    if car["fuel_gal"] < car["fuel_capacity_gal"] * 0.15:
        warnings.append("Low fuel")
    if car["battery_pct"] < 15:
        warnings.append("Low battery")
    from .tools_service import reminder_status

    for r in ctx.db.execute("SELECT * FROM service_reminders ORDER BY reminder_id"):
        if reminder_status(ctx, r, car) == "overdue":
            warnings.append(f"Service overdue: {r['title']}")
    if car["trunk_open"]:
        warnings.append("Trunk open")
    if not car["locked"] and car["active_trip_id"] is None and car["engine"] == "off":
        warnings.append("Doors unlocked")
    electric, fuel = electric_range(car), fuel_range(car)
    return VehicleStatus(
        vehicle_id=car["vehicle_id"], nickname=car["nickname"], make=car["make"], model=car["model"], year=car["year"],
        trim=car["trim"], color=car["color"], vin=car["vin"], license_plate=car["license_plate"],
        odometer_mi=round(car["odometer_mi"], 1), battery_pct=round(car["battery_pct"], 1), electric_range_mi=electric,
        fuel_pct=round(car["fuel_gal"] / car["fuel_capacity_gal"] * 100, 1), fuel_range_mi=fuel,
        total_range_mi=round(electric + fuel, 1), engine=car["engine"], gear=car["gear"],
        driving=car["active_trip_id"] is not None, locked=bool(car["locked"]), trunk_open=bool(car["trunk_open"]),
        open_windows=windows, climate_on=bool(car["climate_on"]), climate_target=car["climate_target"],
        cabin_temp=round(car["cabin_temp"], 1), outside_temp=car["outside_temp"], headlights=car["headlights"],
        plugged_in=bool(car["plugged_in"]), charging=bool(car["charging"]), charge_limit=car["charge_limit"],
        scheduled_charge_time=car["scheduled_charge_time"], valet_mode=bool(car["valet_mode"]),
        software_version=car["software_version"],
        update_available=car["update_version"] if car["update_finishes_at"] is None else None,
        update_installing=car["update_finishes_at"] is not None, location=location, place_id=car["place_id"],
        parked_since=car["parked_since"], active_trip_id=car["active_trip_id"],
        active_profile_id=car["active_profile_id"], warnings=warnings)


def _next_at(hhmm: str, after: datetime) -> datetime:
    """The first moment after `after` at the local time 'HH:MM'."""
    hh, mm = map(int, hhmm.split(":"))
    at = after.replace(hour=hh, minute=mm, second=0, microsecond=0)
    return at if at > after else at + timedelta(days=1)


def _charge_progress(ctx: Ctx, old: datetime, new: datetime) -> None:
    car = vehicle(ctx)
    if not car["charging"]:
        return
    session = ctx.db.execute("SELECT * FROM charging_sessions WHERE status = 'charging'").fetchone()
    start = max(old, datetime.fromisoformat(session["started_at"]))
    if new <= start:
        return
    rate = session["power_kw"] * CHARGE_EFFICIENCY          # kWh into the battery per hour
    have = car["battery_pct"] / 100 * car["battery_kwh"]
    target = car["charge_limit"] / 100 * car["battery_kwh"]
    hours = (new - start).total_seconds() / 3600
    added = min(max(0.0, target - have), rate * hours)
    done = have + added >= target - 1e-9
    end = start + timedelta(hours=added / rate) if done else new
    pct = round((have + added) / car["battery_kwh"] * 100, 1)
    (price,) = ctx.db.execute("SELECT coalesce(price_kwh, 0) FROM places WHERE place_id = ?",
                              (session["place_id"],)).fetchone() or (0.0,)
    kwh = round(session["kwh_added"] + added, 2)
    ctx.db.execute("UPDATE charging_sessions SET kwh_added = ?, end_pct = ?, cost = ?, ended_at = ?, status = ? "
                   "WHERE session_id = ?", (kwh, pct, round(kwh / CHARGE_EFFICIENCY * price, 2),
                                            iso(end) if done else None, "completed" if done else "charging",
                                            session["session_id"]))
    ctx.db.execute("UPDATE vehicles SET battery_pct = ?, charging = ?", (pct, 0 if done else 1))
    if done:
        log(ctx, "charging", f"Charging complete at {session['location']}: {pct:g}%", end)


def _cabin(ctx: Ctx, old: datetime, new: datetime) -> None:
    car = vehicle(ctx)
    hours = (new - old).total_seconds() / 3600
    if car["climate_on"]:
        target, rate = car["climate_target"], 90.0       # the climate reaches its target in 10-20 minutes
        if car["engine"] == "off" and not car["plugged_in"]:
            have = car["battery_pct"] / 100 * car["battery_kwh"]
            floor = 0.10 * car["battery_kwh"]
            usable = max(0.0, have - floor)
            needed = CLIMATE_KW * hours
            if needed >= usable:
                at = old + timedelta(hours=usable / CLIMATE_KW)
                ctx.db.execute("UPDATE vehicles SET battery_pct = ?, climate_on = 0",
                               (round(max(have - usable, 0) / car["battery_kwh"] * 100, 1),))
                log(ctx, "climate", "Climate turned off to save the battery (10% left)", at)
            else:
                ctx.db.execute("UPDATE vehicles SET battery_pct = ?",
                               (round((have - needed) / car["battery_kwh"] * 100, 1),))
    else:
        target, rate = car["outside_temp"] + (0 if car["engine"] == "off" else 8), 6.0
    current = car["cabin_temp"]
    moved = min(abs(target - current), rate * hours)
    value = current + moved if target > current else current - moved
    ctx.db.execute("UPDATE vehicles SET cabin_temp = ?", (round(value, 1),))


# Register the tools (each module adds its tools to `server`).
from . import tools_body, tools_drive, tools_energy, tools_service  # noqa: E402, F401, I001
