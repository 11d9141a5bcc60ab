"""The vehicle's `on_advance` hook: what happens by itself as an episode's clock moves on."""

from __future__ import annotations

from datetime import datetime, timedelta

from prove.env import Ctx
from prove.env.values import iso

from .server import begin_charging, log, vehicle
from .world import CHARGE_EFFICIENCY, CLIMATE_KW


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """As the clock moves on: a drive under way arrives, an installing update finishes, scheduled
    charging starts, charging adds energy up to the limit, and the cabin moves towards the climate
    target (or, with the climate off, towards the outside temperature)."""
    car = vehicle(ctx)
    if car["active_trip_id"] is not None:
        trip = ctx.db.execute("SELECT eta FROM trips WHERE trip_id = ?", (car["active_trip_id"],)).fetchone()
        if trip["eta"] <= iso(new):
            _arrive(ctx, datetime.fromisoformat(trip["eta"]))
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


def _arrive(ctx: Ctx, at: datetime) -> None:
    """The drive under way ends at `at`: the car is at its destination, in Park, engine running."""
    car = vehicle(ctx)
    trip = ctx.get("trip", car["active_trip_id"])
    dest = ctx.get("place", trip["to_place_id"])
    have = car["battery_pct"] / 100 * car["battery_kwh"]
    battery = round(max(0.0, have - trip["electric_kwh"]) / car["battery_kwh"] * 100, 1)
    fuel = round(max(0.0, car["fuel_gal"] - trip["fuel_gal"]), 2)
    ctx.db.execute("UPDATE trips SET status = 'completed', ended_at = ? WHERE trip_id = ?", (iso(at), trip["trip_id"]))
    ctx.db.execute("UPDATE vehicles SET active_trip_id = NULL, destination_id = NULL, gear = 'P', place_id = ?, "
                   "lat = ?, lon = ?, parked_since = ?, odometer_mi = round(odometer_mi + ?, 1), battery_pct = ?, "
                   "fuel_gal = ?", (dest["place_id"], dest["lat"], dest["lon"], iso(at), trip["distance_mi"], battery,
                                    fuel))
    log(ctx, "drive", f"Arrived at {trip['to_name']} ({trip['distance_mi']:g} mi)", at)


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
