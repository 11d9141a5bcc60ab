"""Vehicle tools: status, doors, trunk, windows, horn and lights, tyres, valet mode, driver profiles."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, Sensitive, ToolError, Toolset

from .server import (
    DRIVER_PROFILE,
    ProfileId,
    VehicleStatus,
    log,
    no_valet,
    not_moving,
    parked,
    status,
    vehicle,
)
from .world import VALET_SPEED_LIMIT_MPH, VENT_POSITION

tools = Toolset("body")

ValetPin = Annotated[str, Sensitive()]
InactiveProfileId = DRIVER_PROFILE.where("profile_id IS NOT (SELECT active_profile_id FROM vehicles)")
Window = Literal["front_left", "front_right", "rear_left", "rear_right", "sunroof", "all"]

# ----- models -------------------------------------------------------------------------------------


class Tire(BaseModel):
    position: Literal["front_left", "front_right", "rear_left", "rear_right"]
    pressure_psi: float
    recommended_psi: float
    status: Literal["ok", "low", "high"] = Field(description="low: more than 4 psi under the recommendation")
    measured_at: str


class TirePressures(BaseModel):
    tires: list[Tire]
    total: int
    all_ok: bool
    summary: str = Field(description="The tyres in words: which is low or high, else that all are fine")


class WindowState(BaseModel):
    window: str
    position: int = Field(description="0 closed to 100 fully open")


class WindowList(BaseModel):
    windows: list[WindowState]
    total: int


class Signal(BaseModel):
    action: str
    done_at: str
    message: str


class ValetState(BaseModel):
    valet_mode: bool
    speed_limit_mph: int | None = Field(description="the top speed while valet mode is on")
    changed_at: str


class ValetPinSecret(BaseModel):
    valet_pin: str


class DriverProfile(BaseModel):
    profile_id: ProfileId
    name: str
    seat_position: int
    mirror_preset: str
    climate_target: float
    seat_heat: int = Field(description="driver seat heater level the driver likes, 0-3")
    active: bool


class DriverProfileList(BaseModel):
    driver_profiles: list[DriverProfile]
    total: int
    profiles_text: str = Field(description="the profiles in words, such as '2 driver profiles: Emily, the active one "
                                           "(seat at position 6, mirrors on preset A, climate at 68°F, seat heat at "
                                           "level 2); and Lina (...)'")


def _profiles_text(profiles: list[DriverProfile]) -> str:
    said = [f"{p.name}{', the active one' if p.active else ''} (seat at position {p.seat_position}, mirrors on preset "
            f"{p.mirror_preset}, climate at {p.climate_target:g}°F, "
            + (f"seat heat at level {p.seat_heat})" if p.seat_heat else "seat heat off)") for p in profiles]
    if not said:
        return "no driver profiles"
    listed = said[0] if len(said) == 1 else "; ".join(said[:-1]) + "; and " + said[-1]
    return f"{len(said)} driver profile{'' if len(said) == 1 else 's'}: {listed}"


# ----- status ---------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "How's my car doing? Is it locked and how much charge is left?",
    "What's the range on the car right now?",
    "Give me the full status of the car.",
], reply=[
    "{result.nickname} is {result.doors} at {result.location}, with {result.battery_pct}% battery and "
    "{result.fuel_pct}% fuel: {result.total_range_mi} miles of range in all, {result.electric_range_mi} of them "
    "electric.",
])
def get_vehicle_status(ctx: Ctx) -> VehicleStatus:
    """Show the car's full status: range, battery and fuel, locks, gear, climate, charging, location, warnings.

    Returns:
        The car: odometer, battery percent and electric range, fuel and fuel range, engine and
        gear, whether it is driving, locks, trunk, open windows, climate and cabin temperature,
        headlights, charging (plugged in, charging, limit, schedule), valet mode, software, where
        it is, the active driver profile and warnings (low tyre, low fuel, service overdue).
    """
    return status(ctx)


# ----- doors and trunk ----------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Lock my car.",
    "Did I forget to lock the car? Lock it please.",
    "Can you lock up the car for me?",
], reply=["Done: the car is locked.", "I've locked the car for you."])
def lock_doors(ctx: Ctx) -> VehicleStatus:
    """Lock all doors.

    Returns:
        The car's status, now locked.

    Raises:
        already_locked: the doors are already locked.
    """
    car = vehicle(ctx)
    if car["locked"]:
        raise ToolError("already_locked", "The car is already locked.", hint="Nothing to do.")
    ctx.db.execute("UPDATE vehicles SET locked = 1")
    log(ctx, "lock", "Doors locked from the app")
    return status(ctx)


@tools.tool(effect=WRITE, asks=[
    "Unlock the car, I'm right next to it.",
    "Can you open the doors for my friend?",
    "Please unlock my car.",
], reply=["The car is unlocked.", "Done: I've unlocked the doors."])
def unlock_doors(ctx: Ctx) -> VehicleStatus:
    """Unlock all doors. Not while driving.

    Returns:
        The car's status, now unlocked.

    Raises:
        already_unlocked: the doors are already unlocked.
        vehicle_moving: a drive is under way.
    """
    car = vehicle(ctx)
    if not car["locked"]:
        raise ToolError("already_unlocked", "The car is already unlocked.", hint="Nothing to do.")
    not_moving(ctx, car, "unlock the doors remotely")
    ctx.db.execute("UPDATE vehicles SET locked = 0")
    log(ctx, "lock", "Doors unlocked from the app")
    return status(ctx)


@tools.tool(effect=WRITE, needs=["disable_valet_mode"], asks=[
    "Open the trunk.",
    "Pop the liftgate, I need to load groceries.",
], reply=["The trunk is open.", "I've opened the liftgate for you."])
def open_trunk(ctx: Ctx) -> VehicleStatus:
    """Open the power liftgate. The car must be in Park, and valet mode keeps the trunk shut.

    Returns:
        The car's status with the trunk open.

    Raises:
        already_open: the trunk is already open.
        vehicle_moving: a drive is under way.
        not_parked: the car is not in Park.
        valet_mode_active: valet mode is on.
    """
    car = vehicle(ctx)
    if car["trunk_open"]:
        raise ToolError("already_open", "The trunk is already open.", hint="Nothing to do.")
    parked(ctx, car, "open the trunk")
    no_valet(car, "open the trunk")
    ctx.db.execute("UPDATE vehicles SET trunk_open = 1")
    log(ctx, "command", "Trunk opened")
    return status(ctx)


@tools.tool(effect=WRITE, asks=[
    "Close the trunk.",
    "I left the liftgate open, shut it please.",
], reply=["The trunk is closed.", "I've shut the liftgate."])
def close_trunk(ctx: Ctx) -> VehicleStatus:
    """Close the power liftgate.

    Returns:
        The car's status with the trunk closed.

    Raises:
        already_closed: the trunk is already closed.
    """
    car = vehicle(ctx)
    if not car["trunk_open"]:
        raise ToolError("already_closed", "The trunk is already closed.", hint="Nothing to do.")
    ctx.db.execute("UPDATE vehicles SET trunk_open = 0")
    log(ctx, "command", "Trunk closed")
    return status(ctx)


# ----- windows ------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, values={
    # "the {window} window" names one side window; all of them and the sunroof have phrasings of their own
    "window": ["front_left", "front_right", "rear_left", "rear_right"],
}, asks=[
    Ask("Crack all the windows a bit.", window="all", position=10),
    Ask("Close all the windows.", window="all", position=0),
    Ask("Open the sunroof all the way.", window="sunroof", position=100),
    Ask("Close the {window} window.", position=0),
    "Open the {window} window to {position} percent.",
], reply=[
    # a closed or fully open window is said so, not as "0% open"
    Ask("All the windows are closed.", window="all", position=0),
    Ask("All the windows are open a crack now.", window="all", position=10),
    Ask("The sunroof is fully open now.", window="sunroof", position=100),
    Ask("The sunroof is open {position}% now.", window="sunroof"),
    Ask("The front left window is closed.", window="front_left", position=0),
    Ask("The front right window is closed.", window="front_right", position=0),
    Ask("The rear left window is closed.", window="rear_left", position=0),
    Ask("The rear right window is closed.", window="rear_right", position=0),
    "The {window} window is open {position}% now.",
    "Done: the {window} window is open {position}%.",
])
def set_window(ctx: Ctx, window: Window, position: Annotated[int, Field(ge=0, le=100)]) -> WindowList:
    """Open, vent or close a window, the sunroof, or all windows at once.

    With the engine off the windows can only be vented (opened up to 10%) or closed, as a
    safety measure; opening further needs the engine running.

    Args:
        window: 'front_left', 'front_right', 'rear_left', 'rear_right', 'sunroof' or 'all'
            ('all' does not include the sunroof).
        position: 0 to close, 10 to vent, up to 100 for fully open, such as 10.

    Returns:
        Every window (and the sunroof, if the car has one) with its position.

    Raises:
        no_sunroof: the sunroof was asked and the car has none.
        engine_off: more than a vent (10%) was asked with the engine off.
    """
    car = vehicle(ctx)
    if window == "sunroof" and not car["has_sunroof"]:
        raise ToolError("no_sunroof", f"The {car['model']} has no sunroof.", hint="Choose a side window or 'all'.")
    if position > VENT_POSITION and car["engine"] == "off":
        raise ToolError("engine_off", f"With the engine off, windows open at most {VENT_POSITION}% (vent).",
                        hint=f"Use position {VENT_POSITION} to vent, or start the engine first.")
    if window == "all":
        ctx.db.execute("UPDATE windows SET position = ? WHERE window <> 'sunroof'", (position,))
    else:
        ctx.db.execute("UPDATE windows SET position = ? WHERE window = ?", (position, window))
    what = "closed" if position == 0 else "vented" if position <= VENT_POSITION else f"opened to {position}%"
    which = "All windows" if window == "all" else window.replace("_", " ").capitalize() + " window"
    log(ctx, "command", f"{which} {what}")
    rows = ctx.db.execute("SELECT window, position FROM windows ORDER BY window").fetchall()
    return WindowList(windows=[WindowState(window=r[0], position=r[1]) for r in rows], total=len(rows))


# ----- horn and lights ------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Honk the horn so I can find the car.",
    Ask("Beep the car twice.", times=2),
    Ask("Beep the car three times, I can't find it.", times=3),
    "Give the horn a quick honk.",
], reply=[
    Ask("I honked the horn; listen for it.", times=1),
    Ask("Done: I honked the horn once.", times=1),
    "I honked the horn {times} times; listen for it.",
])
def honk_horn(ctx: Ctx, times: Annotated[int, Field(ge=1, le=3)] = 1) -> Signal:
    """Sound the horn to find the car in a car park. Not while driving.

    Args:
        times: how many short honks, 1 to 3 (default 1).

    Returns:
        What was done and when.

    Raises:
        vehicle_moving: a drive is under way.
    """
    not_moving(ctx, vehicle(ctx), "honk remotely")
    log(ctx, "command", f"Horn honked {times} time{'s' if times > 1 else ''}")
    return Signal(action="honk_horn", done_at=ctx.now_iso(), message="Honked the horn once." if times == 1 else f"Honked the horn {times} times.")


@tools.tool(effect=WRITE, asks=[
    "Flash the lights, I can't see where I parked.",
    "Blink the headlights so I can spot the car.",
], reply=["I flashed the lights; look for them.", "Done: the lights flashed."])
def flash_lights(ctx: Ctx) -> Signal:
    """Flash the exterior lights to find the car. Not while driving.

    Returns:
        What was done and when.

    Raises:
        vehicle_moving: a drive is under way.
    """
    not_moving(ctx, vehicle(ctx), "flash its lights remotely")
    log(ctx, "command", "Lights flashed")
    return Signal(action="flash_lights", done_at=ctx.now_iso(), message="Flashed the lights.")


@tools.tool(effect=WRITE, asks=[
    Ask("Set the headlights to auto.", mode="auto"),
    Ask("Turn the headlights on.", mode="on"),
    Ask("Switch the headlights off.", mode="off"),
    Ask("Let the car handle the headlights, auto mode please.", mode="auto"),
    Ask("It's getting dark, put the headlights on.", mode="on"),
], reply=[
    Ask("The headlights are off.", mode="off"),
    Ask("Done: I switched the headlights off.", mode="off"),
    Ask("The headlights are on.", mode="on"),
    Ask("Done: the headlights are switched on.", mode="on"),
    Ask("The headlights are on auto now; they come on when it gets dark.", mode="auto"),
])
def set_headlights(ctx: Ctx, mode: Literal["off", "auto", "on"]) -> VehicleStatus:
    """Set the headlights: 'auto' (on when it is dark), 'on' or 'off'.

    Args:
        mode: 'off', 'auto' or 'on'.

    Returns:
        The car's status with the new headlight setting.

    Raises:
        already_set: the headlights are already set to `mode`.
    """
    car = vehicle(ctx)
    if car["headlights"] == mode:
        raise ToolError("already_set", f"The headlights are already '{mode}'.", hint="Nothing to do.")
    ctx.db.execute("UPDATE vehicles SET headlights = ?", (mode,))
    log(ctx, "command", f"Headlights set to {mode}")
    return status(ctx)


# ----- tyres ----------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What are my tyre pressures?",
    # (asked of tyres that may all be fine, so no warning is said to have come on)
    "Is any of my tyres low?",
], reply=[
    "Your tyre pressures: {result.summary}.",
    Ask("None of the tyres is low: {result.summary}.", **{"result.all_ok": True}),
    Ask("Check your tyres: {result.summary}.", **{"result.all_ok": False}),
])
def get_tire_pressure(ctx: Ctx) -> TirePressures:
    """Read the tyre pressures from the car's sensors, with each tyre's recommended pressure.

    Returns:
        The four tyres (pressure, recommended, status 'ok', 'low' or 'high', when measured) and
        whether all are fine.
    """
    rows = ctx.db.execute("SELECT * FROM tires ORDER BY position").fetchall()
    tires = []
    for r in rows:
        diff = r["pressure_psi"] - r["recommended_psi"]
        tires.append(Tire(position=r["position"], pressure_psi=r["pressure_psi"], recommended_psi=r["recommended_psi"],
                          status="low" if diff < -4 else "high" if diff > 6 else "ok", measured_at=r["measured_at"]))
    return TirePressures(tires=tires, total=len(tires), all_ok=all(t.status == "ok" for t in tires),
                         summary=_tyres_said(tires))


def _tyres_said(tires: list[Tire]) -> str:
    """"the rear left is low at 30 psi (38 recommended); the others are at 38 psi", "all four are at
    38 psi, as recommended", "front left 37 psi, ... all within range of the recommended 38 psi"."""
    def psi(value: float) -> str:
        return f"{value:g} psi"

    def where(t: Tire) -> str:
        return t.position.replace("_", " ")

    off = [t for t in tires if t.status != "ok"]
    fine = [t for t in tires if t.status == "ok"]
    if off:
        said = "; ".join(f"the {where(t)} is {t.status} at {psi(t.pressure_psi)} ({t.recommended_psi:g} recommended)"
                         for t in off)
        if not fine:
            return said
        same = {t.pressure_psi for t in fine}
        rest = f"at {psi(fine[0].pressure_psi)}" if len(same) == 1 else "fine"
        return f"{said}; the {'other is' if len(fine) == 1 else 'others are'} {rest}"
    if len({t.pressure_psi for t in tires}) == 1 and all(t.pressure_psi == t.recommended_psi for t in tires):
        return f"all {'four' if len(tires) == 4 else len(tires)} are at {psi(tires[0].pressure_psi)}, as recommended"
    each = ", ".join(f"{where(t)} {psi(t.pressure_psi)}" for t in tires)
    return f"{each}, all within range of the recommended {psi(tires[0].recommended_psi)}"


# ----- valet mode ---------------------------------------------------------------------------------


@tools.tool(effect=READ, hidden=True)
def get_valet_pin(ctx: Ctx) -> ValetPinSecret:
    """The car's valet PIN, for the synthesis pipeline to put in a user turn (never shown to a model).

    Returns:
        The 4-digit valet PIN.
    """
    return ValetPinSecret(valet_pin=vehicle(ctx)["valet_pin"])


def _check_pin(car, pin: str) -> None:
    if not re.fullmatch(r"\d{4}", pin.strip()) or pin.strip() != car["valet_pin"]:
        raise ToolError("wrong_pin", "That is not the car's valet PIN.",
                        hint="Ask the owner for the 4-digit valet PIN they set in the car.")


@tools.tool(effect=WRITE, asks=[
    "Turn on valet mode, the PIN is {pin}.",
    "I'm handing the car to the valet. Valet mode on with PIN {pin}.",
], reply=["Valet mode is on; top speed is limited to {result.speed_limit_mph} mph.",
          "Done: valet mode is on and the trunk stays shut."])
def enable_valet_mode(ctx: Ctx, pin: ValetPin) -> ValetState:
    """Turn on valet mode: top speed limited to 70 mph, trunk kept shut, driver profiles locked.

    Args:
        pin: the car's 4-digit valet PIN as the owner gave it, such as '4821'.

    Returns:
        Valet mode on, its speed limit and when it was turned on.

    Raises:
        valet_mode_active: valet mode is already on.
        wrong_pin: the PIN is not the car's valet PIN.
    """
    car = vehicle(ctx)
    if car["valet_mode"]:
        raise ToolError("valet_mode_active", "Valet mode is already on.", hint="Nothing to do.")
    _check_pin(car, pin)
    if car["trunk_open"]:
        ctx.db.execute("UPDATE vehicles SET trunk_open = 0")
    ctx.db.execute("UPDATE vehicles SET valet_mode = 1")
    log(ctx, "valet", "Valet mode turned on")
    return ValetState(valet_mode=True, speed_limit_mph=VALET_SPEED_LIMIT_MPH, changed_at=ctx.now_iso())


@tools.tool(effect=WRITE, asks=[
    "Turn valet mode off, PIN {pin}.",
    "I got the car back from the valet; disable valet mode with {pin}.",
], reply=["Valet mode is off.", "Done: I've turned valet mode off."])
def disable_valet_mode(ctx: Ctx, pin: ValetPin) -> ValetState:
    """Turn off valet mode; it needs the valet PIN.

    Args:
        pin: the car's 4-digit valet PIN as the owner gave it, such as '4821'.

    Returns:
        Valet mode off and when it was turned off.

    Raises:
        valet_mode_off: valet mode is not on.
        wrong_pin: the PIN is not the car's valet PIN.
    """
    car = vehicle(ctx)
    if not car["valet_mode"]:
        raise ToolError("valet_mode_off", "Valet mode is not on.", hint="Nothing to do.")
    _check_pin(car, pin)
    ctx.db.execute("UPDATE vehicles SET valet_mode = 0")
    log(ctx, "valet", "Valet mode turned off")
    return ValetState(valet_mode=False, speed_limit_mph=None, changed_at=ctx.now_iso())


# ----- driver profiles ------------------------------------------------------------------------


def _profile(row, active: str | None) -> DriverProfile:
    return DriverProfile(profile_id=row["profile_id"], name=row["name"], seat_position=row["seat_position"],
                         mirror_preset=row["mirror_preset"], climate_target=row["climate_target"],
                         seat_heat=row["seat_heat"], active=row["profile_id"] == active)


@tools.tool(effect=READ, asks=[
    "Which driver profiles are saved in the car?",
    "Show me the driver profiles and which one is active.",
], reply=[
    "The car has {result.profiles_text}.",
])
def list_driver_profiles(ctx: Ctx) -> DriverProfileList:
    """List the saved driver profiles (seat, mirrors, climate, seat heat) and which is active.

    Returns:
        The profiles and how many there are.
    """
    active = vehicle(ctx)["active_profile_id"]
    rows = ctx.db.execute("SELECT * FROM driver_profiles ORDER BY profile_id").fetchall()
    profiles = [_profile(r, active) for r in rows]
    return DriverProfileList(driver_profiles=profiles, total=len(rows), profiles_text=_profiles_text(profiles))


@tools.tool(effect=WRITE, needs=["disable_valet_mode"], asks=[
    "Switch to {profile_id}.",
    "Someone else is driving today, load {profile_id}.",
    "Set the car up with {profile_id}.",
], reply=["{profile_id} is loaded: seat and mirrors moved, climate target {result.climate_target}°F.",
          "Done: the car is set up with {profile_id}."])
def apply_driver_profile(ctx: Ctx, profile_id: InactiveProfileId) -> DriverProfile:
    """Load a driver profile: the seat and mirrors move, the climate target and driver seat heat are set.

    The driver seat heater is set only while the climate is on or the engine runs.

    Args:
        profile_id: ID of the profile, such as 'DRV-10002'.

    Returns:
        The profile, now active.

    Raises:
        not_found: no profile has that ID.
        already_active: the profile is already active.
        vehicle_moving: a drive is under way (the seat cannot move while driving).
        valet_mode_active: valet mode is on.
    """
    p = ctx.get("driver_profile", profile_id)
    car = vehicle(ctx)
    if car["active_profile_id"] == profile_id:
        raise ToolError("already_active", f"The profile '{p['name']}' is already active.", hint="Nothing to do.")
    not_moving(ctx, car, "move the seat")
    no_valet(car, "change driver profiles")
    ctx.db.execute("UPDATE vehicles SET active_profile_id = ?, seat_position = ?, mirror_preset = ?, "
                   "climate_target = ?", (profile_id, p["seat_position"], p["mirror_preset"], p["climate_target"]))
    if car["climate_on"] or car["engine"] == "running":
        ctx.db.execute("UPDATE seats SET heat_level = ? WHERE seat = 'driver'", (p["seat_heat"],))
    log(ctx, "command", f"Driver profile '{p['name']}' loaded")
    return _profile(ctx.get("driver_profile", profile_id), profile_id)
