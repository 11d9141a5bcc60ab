"""Vehicle tools: charging and its schedule, climate and seat heaters, software updates."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, parse_clock, parse_date

from .server import (
    ChargingSessionId,
    Limit,
    PlaceId,
    VehicleStatus,
    begin_charging,
    end_charging,
    log,
    parked,
    status,
    vehicle,
)
from .world import (
    CHARGE_EFFICIENCY,
    CHARGE_LIMIT_MIN,
    CLIMATE_MAX,
    CLIMATE_MIN,
    CLIMATE_MIN_BATTERY,
    UPDATE_MIN_BATTERY,
)

tools = Toolset("energy")

Seat = Literal["driver", "passenger", "rear_left", "rear_right"]

# ----- models -------------------------------------------------------------------------------------


class ChargingSession(BaseModel):
    session_id: ChargingSessionId
    place_id: PlaceId | None
    location: str
    started_at: str
    ended_at: str | None
    start_pct: float
    end_pct: float | None
    kwh_added: float
    power_kw: float
    cost: float
    status: Literal["charging", "completed", "stopped"]


class ChargingSessionList(BaseModel):
    charging_sessions: list[ChargingSession]
    total: int = Field(description="how many sessions matched, before `limit`")
    total_kwh: float
    total_cost: float
    sessions_text: str = Field(description="the sessions in words, such as '2 charging sessions: March 15 at Home, "
                                           "1.8% to 100% (13.54 kWh, $2.41); March 14 at Home, ...'")


class ChargeState(BaseModel):
    battery_pct: float
    electric_range_mi: float
    charge_limit: int
    plugged_in: bool
    charging: bool
    power_kw: float | None = Field(description="while charging: the charging power")
    minutes_to_limit: int | None = Field(description="while charging: time until the limit is reached")
    scheduled_charge_time: str | None
    session: ChargingSession | None = Field(description="the session under way, if any")
    answer: str = Field(description="the charging in words: the time to the limit, or why it is not charging")


class SoftwareUpdate(BaseModel):
    current_version: str
    available_version: str | None
    release_notes: str | None
    install_minutes: int | None
    installing: bool
    finishes_at: str | None


class SeatHeaters(BaseModel):
    seats: dict[str, int] = Field(description="heater level 0-3 per heated seat")
    climate_on: bool


# ----- helpers ------------------------------------------------------------------------------------


def _session(row) -> ChargingSession:
    return ChargingSession(session_id=row["session_id"], place_id=row["place_id"], location=row["location"],
                           started_at=row["started_at"], ended_at=row["ended_at"], start_pct=row["start_pct"],
                           end_pct=row["end_pct"], kwh_added=row["kwh_added"], power_kw=row["power_kw"],
                           cost=row["cost"], status=row["status"])


def _charge_state(ctx: Ctx) -> ChargeState:
    car = vehicle(ctx)
    row = ctx.db.execute("SELECT * FROM charging_sessions WHERE status = 'charging'").fetchone()
    minutes = None
    if row is not None:
        need = max(0.0, (car["charge_limit"] - car["battery_pct"]) / 100 * car["battery_kwh"])
        minutes = round(need / (row["power_kw"] * CHARGE_EFFICIENCY) * 60)
    return ChargeState(battery_pct=round(car["battery_pct"], 1),
                       electric_range_mi=round(car["battery_pct"] / 100 * car["battery_kwh"] * car["mi_per_kwh"], 1),
                       charge_limit=car["charge_limit"], plugged_in=bool(car["plugged_in"]),
                       charging=bool(car["charging"]), power_kw=row["power_kw"] if row else None,
                       minutes_to_limit=minutes, scheduled_charge_time=car["scheduled_charge_time"],
                       session=_session(row) if row else None, answer=_charge_answer(car, row, minutes))


def _charge_answer(car: Any, row: Any, minutes: int | None) -> str:
    limit = car["charge_limit"]
    if row is not None:
        return f"it is charging at {row['power_kw']:g} kW and reaches the {limit}% limit in about {minutes} minutes"
    if not car["plugged_in"]:
        return "it is not plugged in"
    if car["battery_pct"] >= limit:
        return f"it is plugged in and charged to its {limit}% limit"
    start = car["scheduled_charge_time"]
    if not start:
        return "it is plugged in but not charging"
    hour, minute = (int(x) for x in start.split(":"))
    at = "midnight" if (hour, minute) == (0, 0) else f"{hour % 12 or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"
    return f"it is plugged in but not charging; charging is scheduled to start at {at}"


# ----- charging -----------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "Is the car charging?",
    "How long until the battery is full?",
], reply=["The battery is at {result.battery_pct}% ({result.electric_range_mi} miles of range); {result.answer}."])
def get_charge_state(ctx: Ctx) -> ChargeState:
    """Show the battery and charging: percent, electric range, limit, plugged in, charging power and time to the limit.

    Returns:
        Battery percent and electric range, charge limit, whether the cable is plugged in and
        charging, charging power and minutes to the limit, the charging schedule and the session
        under way.
    """
    return _charge_state(ctx)


@tools.tool(effect=READ, asks=[
    "How much did charging cost me since {start_date}?",
    "Show my recent charging sessions.",
], reply=[
    "Charging cost you ${result.total_cost} ({result.total_kwh} kWh) in {result.sessions_text}.",
    "I found {result.sessions_text}.",
])
def list_charging_sessions(ctx: Ctx, start_date: str | None = None, limit: Limit = 20) -> ChargingSessionList:
    """List charging sessions, newest first, with the energy added and what they cost.

    Args:
        start_date: only sessions that started on or after this day, such as '2026-03-01'.
        limit: at most this many sessions (1-200, default 20).

    Returns:
        The sessions (where, start, end, battery before and after, kWh, power, cost, status),
        newest first, how many matched, and the total kWh and cost over every match.

    Raises:
        invalid_date: `start_date` is not an ISO date.
    """
    where, params = "1", []
    if start_date is not None:
        where, params = "substr(started_at, 1, 10) >= ?", [parse_date(start_date, "start_date").isoformat()]
    total, kwh, cost = ctx.db.execute(f"SELECT count(*), coalesce(sum(kwh_added), 0), coalesce(sum(cost), 0) "
                                      f"FROM charging_sessions WHERE {where}", params).fetchone()
    rows = ctx.db.execute(f"SELECT * FROM charging_sessions WHERE {where} ORDER BY started_at DESC, session_id DESC "
                          f"LIMIT ?", (*params, limit)).fetchall()
    return ChargingSessionList(charging_sessions=[_session(r) for r in rows], total=total, total_kwh=round(kwh, 2),
                               total_cost=round(cost, 2), sessions_text=_sessions_text(rows, total))


def _sessions_text(rows: list, total: int, shown: int = 5) -> str:
    """'2 charging sessions: March 15 at Home, 1.8% to 100% (13.54 kWh, $2.41); March 14 at Volta,
    25.1% to 80% (10.33 kWh, free)', the latest few of many."""
    said = []
    for r in rows[:shown]:
        at = datetime.fromisoformat(r["started_at"])
        if r["status"] == "charging":
            said.append(f"charging now at {r['location']}, from {r['start_pct']:g}%")
            continue
        cost = "free" if not r["cost"] else f"${r['cost']:,.2f}"
        said.append(f"{at:%B} {at.day} at {r['location']}, {r['start_pct']:g}% to {r['end_pct']:g}% "
                    f"({r['kwh_added']:g} kWh, {cost})")
    if not said:
        return "no charging sessions"
    head = f"{total} charging session{'' if total == 1 else 's'}"
    return f"{head}{', the latest' if total > len(said) else ''}: " + "; ".join(said)


@tools.tool(effect=WRITE, asks=[
    "Start charging the car.",
    "Charge the car now, don't wait for the schedule.",
], reply=["Charging has started at {result.power_kw} kW, up to {result.charge_limit}%.",
          "The car is charging now; about {result.minutes_to_limit} minutes to {result.charge_limit}%."])
def start_charging(ctx: Ctx) -> ChargeState:
    """Start charging now. Needs the cable plugged in, the engine off and the battery below the charge limit.

    Returns:
        The charge state with the new session, its power and the time to the limit.

    Raises:
        not_plugged_in: the charging cable is not plugged in.
        engine_running: the engine is running.
        already_charging: the car is already charging.
        limit_reached: the battery is already at or above the charge limit.
    """
    car = vehicle(ctx)
    if not car["plugged_in"]:
        raise ToolError("not_plugged_in", "The charging cable is not plugged in.",
                        hint="Ask the owner to plug the car in first.")
    if car["engine"] == "running":
        raise ToolError("engine_running", "The car cannot charge while the engine runs.",
                        hint="Call stop_engine first.")
    if car["charging"]:
        raise ToolError("already_charging", "The car is already charging.", hint="Nothing to do.")
    if car["battery_pct"] >= car["charge_limit"]:
        raise ToolError("limit_reached", f"The battery is at {car['battery_pct']:g}%, already at the "
                        f"{car['charge_limit']}% limit.", hint="Raise the limit with set_charge_limit to charge more.")
    begin_charging(ctx, ctx.now())
    return _charge_state(ctx)


@tools.tool(effect=WRITE, asks=[
    "Stop charging.",
    "That's enough charge for now, stop it.",
], reply=["Charging stopped at {result.battery_pct}%.", "Done: the car stopped charging at {result.battery_pct}%."])
def stop_charging(ctx: Ctx) -> ChargeState:
    """Stop the charging session under way; the cable stays plugged in.

    Returns:
        The charge state after stopping.

    Raises:
        not_charging: the car is not charging.
    """
    if not vehicle(ctx)["charging"]:
        raise ToolError("not_charging", "The car is not charging.", hint="Nothing to do.")
    end_charging(ctx, "stopped", "Charging stopped from the app")
    return _charge_state(ctx)


@tools.tool(effect=WRITE, asks=[
    "Set the charge limit to {percent} percent.",
    "Only charge up to {percent}% from now on.",
    "Let the battery charge to {percent}%, please.",
], reply=["The charge limit is now {percent}%.", "Done: the car will charge up to {percent}%."])
def set_charge_limit(ctx: Ctx, percent: Annotated[int, Field(ge=CHARGE_LIMIT_MIN, le=100)]) -> ChargeState:
    """Set the percent the battery charges to (50-100); 80-90% is kinder to the battery for daily use.

    If the car is charging and already at the new limit, charging completes.

    Args:
        percent: the new limit, 50 to 100, such as 80.

    Returns:
        The charge state with the new limit.

    Raises:
        same_limit: the limit is already `percent`.
    """
    car = vehicle(ctx)
    if car["charge_limit"] == percent:
        raise ToolError("same_limit", f"The charge limit is already {percent}%.", hint="Nothing to do.")
    ctx.db.execute("UPDATE vehicles SET charge_limit = ?", (percent,))
    if car["charging"] and car["battery_pct"] >= percent:
        end_charging(ctx, "completed", f"Charging complete: battery at the new {percent}% limit")
    return _charge_state(ctx)


@tools.tool(effect=WRITE, values={"start_time": ["21:00", "22:00", "23:00", "23:30", "00:00", "01:00"]},
            asks=[
    "Schedule charging to start at {start_time} every night.",
    "Charge only off-peak, from {start_time}.",
    Ask("Turn off scheduled charging.", start_time=None),
    Ask("Stop the charging schedule, I'll start charging myself.", start_time=None),
], reply=[
    Ask("Scheduled charging is off; the car charges only when you start it.", start_time=None),
    Ask("Done: the charging schedule is cleared; the battery is at {result.battery_pct}% now.", start_time=None),
    "Charging will start by itself at {start_time} each night when the car is plugged in.",
    "Done: the car starts charging at {start_time} every night; the battery is at {result.battery_pct}% now.",
])
def set_charging_schedule(ctx: Ctx, start_time: str | None = None) -> ChargeState:
    """Set when plugged-in charging starts by itself each day (off-peak), or turn the schedule off.

    Args:
        start_time: local time 'HH:MM' (24-hour), such as '23:00'; leave out to turn the schedule off.

    Returns:
        The charge state with the schedule.

    Raises:
        invalid_time: `start_time` is not a 24-hour 'HH:MM' time.
    """
    value = parse_clock(start_time, "start_time").strftime("%H:%M") if start_time is not None else None
    ctx.db.execute("UPDATE vehicles SET scheduled_charge_time = ?", (value,))
    log(ctx, "charging", f"Charging schedule set to {value}" if value else "Charging schedule turned off")
    return _charge_state(ctx)


@tools.tool(effect=WRITE, asks=[
    "Release the charging cable so I can unplug.",
    "Unlock the charge port.",
], reply=["The charge port is unlocked; you can unplug the cable.", "Done: the cable is released."])
def release_charge_cable(ctx: Ctx) -> ChargeState:
    """Unlatch the charge port so the cable can be unplugged; a charging session stops.

    Returns:
        The charge state, no longer plugged in.

    Raises:
        not_plugged_in: no charging cable is plugged in.
    """
    car = vehicle(ctx)
    if not car["plugged_in"]:
        raise ToolError("not_plugged_in", "No charging cable is plugged in.", hint="Nothing to do.")
    if car["charging"]:
        end_charging(ctx, "stopped", "Charging stopped: the cable was released")
    ctx.db.execute("UPDATE vehicles SET plugged_in = 0")
    log(ctx, "charging", "Charging cable released and unplugged")
    return _charge_state(ctx)


# ----- climate and seats --------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    Ask("Turn on the heat in the car, set it to {target_temp} degrees.", on=True),
    Ask("Precondition the cabin to {target_temp} degrees.", on=True),
    Ask("Turn the climate on.", on=True),
    Ask("Switch the climate off.", on=False),
], reply=[
    Ask("The climate is on, heading for {result.climate_target}°F; the cabin is {result.cabin_temp}°F right now.",
        on=True),
    Ask("Done: the climate is running with a target of {result.climate_target}°F (the cabin is {result.cabin_temp}°F "
        "now).", on=True),
    Ask("The climate is off; the cabin is at {result.cabin_temp}°F.", on=False),
    Ask("Done: I switched the climate off. The cabin is {result.cabin_temp}°F now.", on=False),
], values={
    "target_temp": [68.0, 70.0, 71.0, 72.0, 74.0],  # what people sit in, not "60.5 degrees"
})
def set_climate(ctx: Ctx, on: bool,
                target_temp: Annotated[float, Field(ge=-50, le=150)] | None = None) -> VehicleStatus:
    """Turn the climate control on or off, optionally with a target temperature (60-85 °F).

    With the engine off the climate runs on the battery, which needs at least 20% unless the car
    is plugged in; it stops by itself at 10%. Turning the climate off also turns seat heaters off
    when the engine is off.

    Args:
        on: true to turn the climate on, false to turn it off.
        target_temp: the cabin target in °F, 60 to 85, such as 70.

    Returns:
        The car's status with the climate setting and cabin temperature.

    Raises:
        out_of_range: the target is outside 60-85 °F.
        battery_low: the climate was turned on with the engine off, unplugged, below 20% battery.
    """
    car = vehicle(ctx)
    if target_temp is not None and not CLIMATE_MIN <= target_temp <= CLIMATE_MAX:
        raise ToolError("out_of_range", f"The climate target must be {CLIMATE_MIN:g} to {CLIMATE_MAX:g} °F, "
                        f"not {target_temp:g}.", hint=f"Choose a target from {CLIMATE_MIN:g} to {CLIMATE_MAX:g}.")
    if on and car["engine"] == "off" and not car["plugged_in"] and car["battery_pct"] < CLIMATE_MIN_BATTERY:
        raise ToolError("battery_low", f"The battery is at {car['battery_pct']:g}%; the climate needs "
                        f"{CLIMATE_MIN_BATTERY:g}% to run with the engine off.",
                        hint="Start the engine or plug the car in first.")
    target = round(target_temp * 2) / 2 if target_temp is not None else car["climate_target"]
    ctx.db.execute("UPDATE vehicles SET climate_on = ?, climate_target = ?", (int(on), target))
    if not on and car["engine"] == "off":
        ctx.db.execute("UPDATE seats SET heat_level = 0")
    log(ctx, "climate", f"Climate on at {target:g}°F" if on else "Climate off")
    return status(ctx)


@tools.tool(effect=WRITE, needs=["set_climate"], asks=[
    Ask("Turn on my seat heater on high.", seat="driver", level=3),
    Ask("Warm up the passenger seat, medium is fine.", seat="passenger", level=2),
    "Set the {seat} seat heater to level {level}.",
    Ask("Turn off the {seat} seat heater.", level=0),
], reply=[
    Ask("The {seat} seat heater is off.", level=0),
    Ask("Done: I turned the {seat} seat heater off.", level=0),
    Ask("The {seat} seat heater is on low.", level=1),
    Ask("The {seat} seat heater is on medium.", level=2),
    Ask("The {seat} seat heater is on high.", level=3),
    "The {seat} seat heater is at level {level}.",
])
def set_seat_heater(ctx: Ctx, seat: Seat, level: Annotated[int, Field(ge=0, le=3)]) -> SeatHeaters:
    """Set a seat heater: 0 off, 1 low, 2 medium, 3 high. Needs the climate on or the engine running.

    Args:
        seat: 'driver', 'passenger', 'rear_left' or 'rear_right'.
        level: 0 (off) to 3 (high), such as 2.

    Returns:
        The heater level of every heated seat.

    Raises:
        no_seat_heater: that seat has no heater in this car.
        climate_off: a level above 0 was asked with the climate off and the engine off.
    """
    car = vehicle(ctx)
    row = ctx.db.execute("SELECT heated FROM seats WHERE seat = ?", (seat,)).fetchone()
    if not row["heated"]:
        raise ToolError("no_seat_heater", f"The {seat.replace('_', ' ')} seat of the {car['model']} {car['trim']} "
                        "has no heater.", hint="Only the front seats are heated in this car.")
    if level > 0 and not car["climate_on"] and car["engine"] == "off":
        raise ToolError("climate_off", "Seat heaters need the climate on or the engine running.",
                        hint="Turn the climate on with set_climate first.")
    ctx.db.execute("UPDATE seats SET heat_level = ? WHERE seat = ?", (level, seat))
    rows = ctx.db.execute("SELECT seat, heat_level FROM seats WHERE heated = 1 ORDER BY seat").fetchall()
    return SeatHeaters(seats={r[0]: r[1] for r in rows}, climate_on=bool(car["climate_on"]))


# ----- software -----------------------------------------------------------------------------------


def _software(ctx: Ctx) -> SoftwareUpdate:
    car = vehicle(ctx)
    return SoftwareUpdate(current_version=car["software_version"], available_version=car["update_version"],
                          release_notes=car["update_notes"], install_minutes=car["update_minutes"],
                          installing=car["update_finishes_at"] is not None, finishes_at=car["update_finishes_at"])


@tools.tool(effect=READ, asks=[
    "Is there a software update for the car?",
    "What version is the car running?",
], reply=[
    Ask("The car runs version {result.current_version}. Version {result.available_version} is ready to install "
        "(about {result.install_minutes} minutes); its notes say '{result.release_notes}'",
        **{"result.installing": False}),
    Ask("The car is on version {result.current_version}, and {result.available_version} is installing now; it finishes "
        "{result.finishes_at}.", **{"result.installing": True}),
    Ask("The car runs version {result.current_version}, the latest; no update is waiting.",
        **{"result.available_version": None}),
])
def get_software_update(ctx: Ctx) -> SoftwareUpdate:
    """Show the car's software version and any downloaded update waiting to be installed.

    Returns:
        The current version, the available version with its release notes and install time,
        and whether an update is installing and until when.
    """
    return _software(ctx)


@tools.tool(effect=WRITE, asks=[
    "Install the software update now.",
    "Go ahead and update the car's software.",
], reply=["Installing {result.available_version} now; the car can't be started until it's done.",
          "The update to {result.available_version} is installing ({result.install_minutes} minutes)."])
def install_software_update(ctx: Ctx) -> SoftwareUpdate:
    """Install the downloaded software update. The car must be parked with the engine off and at least 20% battery.

    The car cannot be started until the update finishes (25-40 minutes; advance the clock).

    Returns:
        The update, installing, and when it finishes.

    Raises:
        no_update_available: there is no downloaded update.
        update_in_progress: the update is already installing.
        vehicle_moving: a drive is under way.
        not_parked: the car is not in Park.
        engine_running: the engine is running.
        battery_low: the battery is below 20%.
    """
    car = vehicle(ctx)
    if car["update_version"] is None:
        raise ToolError("no_update_available", f"The car runs {car['software_version']}; no update is waiting.",
                        hint="Nothing to install.")
    if car["update_finishes_at"] is not None:
        raise ToolError("update_in_progress", f"The update is already installing until {car['update_finishes_at']}.",
                        hint="Wait for it to finish.")
    parked(ctx, car, "install software")
    if car["engine"] == "running":
        raise ToolError("engine_running", "Turn the engine off before installing an update.",
                        hint="Call stop_engine first.")
    if car["battery_pct"] < UPDATE_MIN_BATTERY:
        raise ToolError("battery_low", f"The battery is at {car['battery_pct']:g}%; updates need "
                        f"{UPDATE_MIN_BATTERY:g}%.", hint="Charge the car first.")
    finishes = ctx.now() + timedelta(minutes=car["update_minutes"])
    ctx.db.execute("UPDATE vehicles SET update_finishes_at = ?", (iso(finishes),))
    log(ctx, "software", f"Installing software update {car['update_version']} (until {iso(finishes)[11:16]})")
    return _software(ctx)

