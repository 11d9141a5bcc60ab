"""The vehicle server's declaration: one connected plug-in hybrid car, through its owner's app and in-car assistant.

This module holds `server`, the entity kinds and their ID types, the status model and the helpers
every tool module shares. The tools live in one toolset per area, which `__init__` includes:

    tools_body.py      status, doors, trunk, windows, horn and lights, tyres, valet mode, driver profiles
    tools_drive.py     engine, gears, places, navigation, drives and trip history, location
    tools_energy.py    charging and its schedule, climate and seat heaters, software updates
    tools_service.py   service reminders, service appointments, the event log

`hooks.py` holds the `on_advance` hook (drives arrive, charging adds energy, updates finish, the
cabin warms or cools).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import iso

from .world import SERVICE_SOON_DAYS, SERVICE_SOON_MI, build_world

VEHICLE = EntityKind("vehicle", table="vehicles", key="vehicle_id", label="nickname",
                     description="the owner's car", lister="get_vehicle_status", noun="car")
PLACE = EntityKind("place", table="places", key="place_id", label="name",
                   description="a saved place or point of interest the car can navigate to", lister="search_places", naming="alone")
TRIP = EntityKind("trip", table="trips", key="trip_id", label="to_name", description="a drive of the car",
                  lister="list_trips")
CHARGING_SESSION = EntityKind("charging_session", table="charging_sessions", key="session_id", label="location",
                              description="one time the car charged, at home or a public charger",
                              lister="list_charging_sessions")
DRIVER_PROFILE = EntityKind("driver_profile", table="driver_profiles", key="profile_id", label="name",
                            description="a driver's saved seat, mirror and climate settings",
                            lister="list_driver_profiles")
SERVICE_REMINDER = EntityKind("service_reminder", table="service_reminders", key="reminder_id", label="title",
                              description="a maintenance item that comes due by mileage or time",
                              lister="list_service_reminders", noun="service item")
SERVICE_APPOINTMENT = EntityKind("service_appointment", table="service_appointments", key="appointment_id",
                                 label="services", description="a booked visit to a service centre",
                                 live="status = 'booked'", lister="list_service_appointments")
VEHICLE_EVENT = EntityKind("vehicle_event", table="events", key="event_id", label="message",
                           description="an entry of the car's event log", lister="list_events",
                           noun="event")

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
    entities=[VEHICLE, PLACE, TRIP, CHARGING_SESSION, DRIVER_PROFILE, SERVICE_REMINDER, SERVICE_APPOINTMENT,
              VEHICLE_EVENT],
)

# ----- parameter and field types ----------------------------------------------------------------

VehicleId = VEHICLE.id
PlaceId = PLACE.id
TripId = TRIP.id
ChargingSessionId = CHARGING_SESSION.id
ProfileId = DRIVER_PROFILE.id
ReminderId = SERVICE_REMINDER.id
AppointmentId = SERVICE_APPOINTMENT.id
EventId = VEHICLE_EVENT.id
Limit = Annotated[int, Field(ge=1, le=200)]
Gear = Literal["P", "R", "N", "D"]
EventKind = Literal["lock", "charging", "fuel", "alert", "software", "drive", "climate", "command", "valet",
                    "service", "navigation"]

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
    doors: Literal["locked", "unlocked"] = Field(description="the locks in a word")
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


def reminder_status(ctx: Ctx, r: sqlite3.Row, car: sqlite3.Row) -> str:
    today = ctx.today().isoformat()
    soon = (ctx.today() + timedelta(days=SERVICE_SOON_DAYS)).isoformat()
    odo = car["odometer_mi"]
    if (r["due_on"] and r["due_on"] <= today) or (r["due_odometer"] is not None and odo >= r["due_odometer"]):
        return "overdue"
    if (r["due_on"] and r["due_on"] <= soon) or (
            r["due_odometer"] is not None and odo >= r["due_odometer"] - SERVICE_SOON_MI):
        return "due_soon"
    return "ok"


def status(ctx: Ctx) -> VehicleStatus:
    car = vehicle(ctx)
    windows = [r[0] for r in ctx.db.execute("SELECT window FROM windows WHERE position > 0 ORDER BY window")]
    if car["active_trip_id"]:
        (to_name,) = ctx.db.execute("SELECT to_name FROM trips WHERE trip_id = ?", (car["active_trip_id"],)).fetchone()
        location = f"Driving to {to_name}"
    elif car["place_id"]:
        location = place_label(ctx.get("place", car["place_id"]))
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
        driving=car["active_trip_id"] is not None, locked=bool(car["locked"]),
        doors="locked" if car["locked"] else "unlocked", trunk_open=bool(car["trunk_open"]),
        open_windows=windows, climate_on=bool(car["climate_on"]), climate_target=car["climate_target"],
        cabin_temp=round(car["cabin_temp"], 1), outside_temp=car["outside_temp"], headlights=car["headlights"],
        plugged_in=bool(car["plugged_in"]), charging=bool(car["charging"]), charge_limit=car["charge_limit"],
        scheduled_charge_time=car["scheduled_charge_time"], valet_mode=bool(car["valet_mode"]),
        software_version=car["software_version"],
        update_available=car["update_version"] if car["update_finishes_at"] is None else None,
        update_installing=car["update_finishes_at"] is not None, location=location, place_id=car["place_id"],
        parked_since=car["parked_since"], active_trip_id=car["active_trip_id"],
        active_profile_id=car["active_profile_id"], warnings=warnings)


def begin_charging(ctx: Ctx, at: datetime, scheduled: bool = False) -> str:
    """Start a charging session at `at` where the car is; returns its ID."""
    car = vehicle(ctx)
    place = ctx.get("place", car["place_id"]) if car["place_id"] else None
    charger = place["charger_kw"] if place is not None and place["charger_kw"] else 1.4   # a wall socket
    kw = min(car["onboard_charger_kw"], charger)
    location = "Home" if place is not None and place["category"] == "home" else place["name"] if place else "Outlet"
    session_id = ctx.new_id("CHG")
    ctx.db.execute("INSERT INTO charging_sessions (session_id, place_id, location, started_at, ended_at, start_pct, "
                   "end_pct, kwh_added, power_kw, cost, status) "
                   "VALUES (?, ?, ?, ?, NULL, ?, NULL, 0, ?, 0, 'charging')",
                   (session_id, place["place_id"] if place else None, location, iso(at), car["battery_pct"], kw))
    ctx.db.execute("UPDATE vehicles SET charging = 1")
    how = "scheduled charging" if scheduled else "charging"
    log(ctx, "charging", f"{how.capitalize()} started at {location} ({kw:g} kW)", at)
    return session_id


def end_charging(ctx: Ctx, final: str, message: str) -> None:
    """End the session under way now as `final` ('stopped' or 'completed')."""
    car = vehicle(ctx)
    ctx.db.execute("UPDATE charging_sessions SET status = ?, ended_at = ?, end_pct = ? WHERE status = 'charging'",
                   (final, ctx.now_iso(), car["battery_pct"]))
    ctx.db.execute("UPDATE vehicles SET charging = 0")
    log(ctx, "charging", message)
