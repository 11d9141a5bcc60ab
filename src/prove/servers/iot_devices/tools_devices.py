"""Smart home tools: finding devices and controlling lights, plugs, speakers, thermostats and blinds."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso, parse_time, quote

from .server import (
    DEVICE,
    ROOM,
    Color,
    Device,
    DeviceId,
    DeviceType,
    Limit,
    Name,
    RoomId,
    Skipped,
    ThermostatMode,
    controllable,
    device,
    log,
)
from .world import (
    MIN_FIRMWARE_BATTERY,
    MIN_MOTOR_BATTERY,
    TEMP_CEILING,
    TEMP_FLOOR,
    WHITES,
)

Percent = Annotated[int, Field(ge=0, le=100)]
Brightness = Annotated[int, Field(ge=1, le=100)]
LightId = DEVICE.where("type = 'light'")
SwitchId = DEVICE.where("type IN ('light', 'plug', 'speaker')")
SpeakerId = DEVICE.where("type = 'speaker'")
ThermostatId = DEVICE.where("type = 'thermostat'")
BlindId = DEVICE.where(f"type = 'blind' AND coalesce(battery, 100) >= {MIN_MOTOR_BATTERY}")
TemperatureDeviceId = DEVICE.where("type = 'thermostat' OR sensor_kind = 'temperature'")
OutdatedId = DEVICE.where("firmware <> latest_firmware")
# what a person carries to another room: plugs, speakers, lamps, a temperature sensor, an indoor camera
# (not a lock, a thermostat, blinds or a ceiling light), and the indoor rooms they go to
PortableId = DEVICE.where("type IN ('plug', 'speaker') OR name LIKE '%Lamp%' OR sensor_kind = 'temperature' "
                          "OR (type = 'camera' AND placement = 'indoor')")
IndoorRoomId = ROOM.where("floor <> 'Outdoors'")
# the names a person gives a lamp fit an indoor light, not the deck lights or the garage light
IndoorLightId = DEVICE.where("type = 'light' AND room_id IN (SELECT room_id FROM rooms WHERE floor <> 'Outdoors' "
                             "AND name <> 'Garage')")
LitRoomId = ROOM.where("room_id IN (SELECT room_id FROM devices WHERE type = 'light')")

tools = Toolset("devices")

# ----- models -------------------------------------------------------------------------------------


class DeviceList(BaseModel):
    devices: list[Device]
    total: int = Field(description="how many devices matched, before `limit`")
    devices_text: str = Field(description="the first devices in words, with where each is and its state, such as "
                                          "'2 devices: the Front Door Lock in the Entryway (locked); ...'")


def _state_words(d: Device) -> str:
    """A device's state as people say it: 'on at 80%', 'locked', 'heating to 70°F', '40% open'."""
    if not d.online:
        return f"offline since {_at(d.last_seen)}"
    if d.type == "light":
        return f"on at {d.brightness}%" if d.power == "on" else "off"
    if d.type == "speaker":
        return f"playing {d.now_playing}" if d.power == "on" and d.now_playing else d.power or ""
    if d.type == "thermostat":
        return "switched off" if d.mode == "off" else f"{d.mode}, set to {d.target_temp:g}°F"
    if d.type == "camera":
        return "armed" if d.armed else "disarmed"
    if d.type == "blind":
        return "closed" if d.position == 0 else "fully open" if d.position == 100 else f"{d.position}% open"
    if d.type == "sensor":
        return f"reading {d.current_temp:g}°F" if d.sensor_kind == "temperature" and d.current_temp is not None \
            else _SENSED.get(d.sensor_state or "", d.sensor_state or "")
    return d.lock_state or d.power or ""


_SENSED = {"clear": "no motion", "motion": "motion detected"}


def _devices_text(devices: list[Device], total: int, noun: str, offline: bool, shown: int = 6) -> str:
    """'2 devices: the Front Door Lock in the Entryway (locked); the Front Door Sensor ('closed')', '4
    devices are offline: the Living Room Speaker (since March 14 at 2:18 PM); ...'."""
    if not devices:
        return f"no {noun}s" + (" are offline" if offline else "")
    said = []
    for d in devices[:shown]:
        room = "" if d.room_name.lower() in d.name.lower() or len({x.room_id for x in devices}) == 1 \
            else f" {'on' if d.room_name.endswith(('Porch', 'Deck', 'Patio')) else 'in'} the {d.room_name}"
        state = _state_words(d).replace("offline since", "since") if offline else _state_words(d)
        low = f", battery at {d.battery}%" if d.battery is not None and d.battery < 20 else ""
        said.append(f"the {d.name}{room}" + (f" ({state}{low})" if state else ""))
    more = f"; and {total - len(said)} more" if total > len(said) else ""
    head = f"{total} {noun}{'' if total == 1 else 's'}" + (f" {'is' if total == 1 else 'are'} offline" if offline else "")
    return f"{head}: " + "; ".join(said) + more


class RoomLights(BaseModel):
    room_id: RoomId
    room_name: str
    power: str
    changed: list[DeviceId] = Field(description="lights that were switched")
    skipped: list[Skipped] = Field(description="lights that are offline and were left as they are")
    switched: int = Field(description="how many lights were switched")
    offline: int = Field(description="how many lights were offline and left as they are")


class Reading(BaseModel):
    recorded_at: str
    temperature_f: float
    humidity_pct: int | None


class ReadingList(BaseModel):
    device_id: DeviceId
    name: str
    readings: list[Reading] = Field(description="oldest first")
    total: int
    min_temperature_f: float | None
    max_temperature_f: float | None
    average_temperature_f: float | None
    readings_text: str = Field(description="the readings summed up in words: how many, over what time, the "
                                           "range of temperatures and the latest reading")


def _at(text: str) -> str:
    at = datetime.fromisoformat(text)
    return f"{at:%B} {at.day} at {at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"


def _readings_text(readings: list[Reading]) -> str:
    """"43 readings between March 11 at 3:00 AM and March 16 at 9:00 AM: the temperature ranged from
    64.1°F to 72.3°F (68.2°F on average), and the latest was 67.5°F at 34% humidity"."""
    if not readings:
        return "no readings"
    last = readings[-1]
    latest = f"{last.temperature_f:g}°F" + (f" at {last.humidity_pct}% humidity" if last.humidity_pct is not None else "")
    if len(readings) == 1:
        return f"1 reading, on {_at(last.recorded_at)}: {latest}"
    temps = [r.temperature_f for r in readings]
    return (f"{len(readings)} readings between {_at(readings[0].recorded_at)} and {_at(last.recorded_at)}: the "
            f"temperature ranged from {min(temps):g}°F to {max(temps):g}°F ({sum(temps) / len(temps):.1f}°F on "
            f"average), and the latest was {latest}")


class FirmwareUpdate(BaseModel):
    device_id: DeviceId
    name: str
    previous_firmware: str
    firmware: str


# ----- finding devices ----------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What devices do I have in {room_id}?",
    "Show me all my {device_type}s.",
    Ask("Which devices are offline right now?", online=False),
    "Find the devices called '{name}'.",
    "Which of my devices have '{name}' in their name?",
], reply=[
    Ask("{result.devices_text}.", online=False),
    "I found {result.devices_text}.",
], values={
    # words of the device names every home has (its locks, thermostats, cameras and lamps)
    "name": ["Lamp", "Door Lock", "Thermostat", "Camera", "Front Door", "Blinds", "Sensor"],
})
def list_devices(ctx: Ctx, room_id: RoomId | None = None, device_type: DeviceType | None = None,
                 online: bool | None = None, name: str | None = None, limit: Limit = 100) -> DeviceList:
    """List the home's devices with their current state, optionally by room, type, name or connection.

    Args:
        room_id: only devices in this room, such as 'RM-10003'.
        device_type: only devices of this type: 'light', 'thermostat', 'lock', 'camera',
            'sensor', 'plug', 'blind' or 'speaker'.
        online: true for reachable devices only, false for offline ones only.
        name: only devices whose name contains this text (any case), such as 'lamp'.
        limit: at most this many devices (1-200, default 100).

    Returns:
        The devices (ID, name, type, room, online, battery and the state of its type) and how many matched.

    Raises:
        not_found: `room_id` does not exist.
    """
    where = Where()
    where.entity(ctx, "room", "room_id", room_id)
    where.eq("type", device_type)
    if online is not None:
        where.add("online = ?", int(online))
    if name is not None and name.strip():
        where.add("instr(lower(name), lower(?)) > 0", name.strip())
    total, rows = where.page(ctx.db, "devices", "room_id, device_id", limit)
    devices = [device(ctx, r) for r in rows]
    return DeviceList(devices=devices, total=total,
                      devices_text=_devices_text(devices, total, device_type or "device", online is False))


def _on(kind: str, **state: object) -> dict[str, object]:
    """The result bindings of a status reply: an online device of a kind, in a state."""
    return {"result.type": kind, "result.online": True, **{f"result.{k}": v for k, v in state.items()}}


@tools.tool(effect=READ, asks=[
    "Give me a status check on {device_id}.",
    "What's the status of {device_id}?",
], reply=[
    # "What's the status" asks its state, not its make: one reply per kind of device and state
    Ask("{device_id} is offline; the hub last heard from it {result.last_seen}.", **{"result.online": False}),
    Ask("{device_id} is on at {result.brightness}% brightness ({result.color}).", **_on("light", power="on")),
    Ask("{device_id} is off.", **_on("light", power="off")),
    Ask("{device_id} is on, drawing {result.watts} W.", **_on("plug", power="on")),
    Ask("{device_id} is off.", **_on("plug", power="off")),
    Ask("{device_id} is playing {result.now_playing} at volume {result.volume}.", **_on("speaker", power="on")),
    Ask("{device_id} is off; its volume is set to {result.volume}.", **_on("speaker", power="off")),
    Ask("{device_id} is {result.lock_state}; its battery is at {result.battery}%.", **_on("lock")),
    Ask("{device_id} is armed: it records when it sees motion.", **_on("camera", armed=True)),
    Ask("{device_id} is disarmed: it won't record motion until you arm it.", **_on("camera", armed=False)),
    Ask("{device_id} is in {result.mode} mode, set to {result.target_temp}°F; it's {result.current_temp}°F there now.",
        **_on("thermostat")),
    Ask("{device_id} is switched off; it's {result.current_temp}°F there now.", **_on("thermostat", mode="off")),
    Ask("{device_id} is {result.position}% open.", **_on("blind")),
    Ask("{device_id} reads {result.current_temp}°F and {result.humidity}% humidity.",
        **_on("sensor", sensor_kind="temperature")),
    Ask("{device_id} shows '{result.sensor_state}' right now.", **_on("sensor")),
])
def get_device(ctx: Ctx, device_id: DeviceId) -> Device:
    """Show one device and its current state.

    Args:
        device_id: ID of the device, such as 'DEV-10006'.

    Returns:
        The device: name, type, room, manufacturer and model, online, battery, firmware, and the
        state of its type (power, brightness, colour, thermostat mode and temperatures, lock
        state, camera armed, sensor state, blind position, speaker volume).

    Raises:
        not_found: no device has that ID.
    """
    return device(ctx, device_id)


# a new name fits the light: a lamp's for a lamp, a ceiling light's for one, the kitchen's for its strips
_LAMP = {"device_id": "name LIKE '%Lamp%'"}
_CEILING = {"device_id": "(name LIKE '%Light' AND name NOT LIKE 'Night%') OR name LIKE '%Chandelier%'"}
_KITCHEN = {"device_id": "name LIKE '%Lights' AND room_id IN (SELECT room_id FROM rooms WHERE name = 'Kitchen')"}


@tools.tool(effect=WRITE, asks=[
    Ask("Rename {device_id} to 'Reading Lamp'.", name="Reading Lamp", fits=_LAMP),
    Ask("Call {device_id} 'Reading Lamp' from now on.", name="Reading Lamp", fits=_LAMP),
    Ask("Rename {device_id} to 'Main Light'.", name="Main Light", fits=_CEILING),
    Ask("Call {device_id} 'Overhead Light' from now on.", name="Overhead Light", fits=_CEILING),
    Ask("Rename {device_id} to 'Kitchen Lights'.", name="Kitchen Lights", fits=_KITCHEN),
], reply=["{device_id} is now called {result.name}.", "Done: renamed {device_id} to {result.name}."])
def rename_device(ctx: Ctx, device_id: IndoorLightId, name: Name) -> Device:
    """Give a device a new name (names are unique in the home).

    Args:
        device_id: ID of the device, such as 'DEV-10006'.
        name: the new name, such as 'Reading Lamp'.

    Returns:
        The device with its new name.

    Raises:
        not_found: no device has that ID.
        duplicate_name: another device already has that name (any case).
    """
    row = ctx.get("device", device_id)
    taken = ctx.db.execute("SELECT device_id FROM devices WHERE lower(name) = lower(?) AND device_id <> ?",
                           (name, device_id)).fetchone()
    if taken:
        raise ToolError("duplicate_name", f"Another device ({taken[0]}) is already named {quote(name)}.",
                        hint="Choose a name no other device has.")
    ctx.db.execute("UPDATE devices SET name = ? WHERE device_id = ?", (name, device_id))
    log(ctx, "settings", f"{row['name']} renamed to '{name}'", device_id)
    return device(ctx, device_id)


@tools.tool(effect=WRITE, asks=[
    "Move {device_id} to {room_id}.",
    "I put {device_id} somewhere else; it's in {room_id} now.",
], reply=["{device_id} is now in {room_id}.", "Done: moved {device_id} to {room_id}."])
def move_device(ctx: Ctx, device_id: PortableId, room_id: IndoorRoomId) -> Device:
    """Assign a device to another room.

    Args:
        device_id: ID of the device, such as 'DEV-10006'.
        room_id: ID of the room it is in now, such as 'RM-10003'.

    Returns:
        The device in its new room.

    Raises:
        not_found: the device or the room does not exist.
        same_room: the device is already in that room.
    """
    row = ctx.get("device", device_id)
    room = ctx.get("room", room_id)
    if row["room_id"] == room_id:
        raise ToolError("same_room", f"{row['name']} is already in {room['name']}.", hint="Nothing to do.")
    ctx.db.execute("UPDATE devices SET room_id = ? WHERE device_id = ?", (room_id, device_id))
    log(ctx, "settings", f"{row['name']} moved to {room['name']}", device_id)
    return device(ctx, device_id)


# ----- lights, plugs, speakers --------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    Ask("Turn {device_id} on.", on=True),
    Ask("Switch off {device_id}, please.", on=False),
    Ask("Can you power up {device_id}?", on=True),
    Ask("Shut {device_id} off.", on=False),
], reply=["{device_id} is {result.power} now.", "Done: {device_id} is switched {result.power}."])
def set_power(ctx: Ctx, device_id: SwitchId, on: bool) -> Device:
    """Switch a light, smart plug or speaker on or off.

    Turning a plug on powers what is plugged into it; turning a speaker off stops what it plays.

    Args:
        device_id: ID of the light, plug or speaker, such as 'DEV-10006'.
        on: true to switch it on, false to switch it off.

    Returns:
        The device with its new power state.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a light, plug or speaker.
        device_offline: the device is offline.
    """
    row = controllable(ctx, device_id, "light", "plug", "speaker")
    power = "on" if on else "off"
    ctx.db.execute("UPDATE devices SET power = ? WHERE device_id = ?", (power, device_id))
    if row["type"] == "plug":
        ctx.db.execute("UPDATE devices SET watts = ? WHERE device_id = ?",
                       (row["rated_watts"] if on else 0.0, device_id))
    if row["type"] == "speaker" and not on:
        ctx.db.execute("UPDATE devices SET now_playing = NULL WHERE device_id = ?", (device_id,))
    return device(ctx, device_id)


@tools.tool(effect=WRITE, asks=[
    "Set {device_id} to {brightness} percent.",
    "Set {device_id} to {brightness}% brightness.",
    "Put {device_id} at {brightness}% brightness.",
], reply=["{device_id} is at {brightness}% now.", "Done: {device_id} is at {brightness}% brightness."])
def set_brightness(ctx: Ctx, device_id: LightId, brightness: Brightness) -> Device:
    """Set a light's brightness; a light that is off is switched on.

    Args:
        device_id: ID of the light, such as 'DEV-10006'.
        brightness: percent, 1 to 100, such as 40.

    Returns:
        The light, on, at its new brightness.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a light.
        device_offline: the light is offline.
    """
    controllable(ctx, device_id, "light")
    ctx.db.execute("UPDATE devices SET brightness = ?, power = 'on' WHERE device_id = ?", (brightness, device_id))
    return device(ctx, device_id)


@tools.tool(effect=WRITE, asks=[
    "Make {device_id} {color}.",
    "Change the colour of {device_id} to {color}.",
    Ask("Turn {device_id} blue for the game.", color="blue"),
], reply=["{device_id} is {color} now.", "Done: {device_id} changed to {color}."])
def set_color(ctx: Ctx, device_id: LightId, color: Color) -> Device:
    """Set a light's colour; a light that is off is switched on.

    Every light can show whites ('warm white', 'soft white', 'cool white', 'daylight'); only
    colour bulbs (`supports_color`) can show colours.

    Args:
        device_id: ID of the light, such as 'DEV-10006'.
        color: 'warm white', 'soft white', 'cool white', 'daylight', 'red', 'orange', 'yellow',
            'green', 'blue', 'purple' or 'pink'.

    Returns:
        The light, on, with its new colour.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a light.
        device_offline: the light is offline.
        color_not_supported: the light shows whites only and a colour was asked.
    """
    row = controllable(ctx, device_id, "light")
    if color not in WHITES and not row["supports_color"]:
        raise ToolError("color_not_supported", f"{row['name']} ({row['model']}) shows whites only, not {color}.",
                        hint=f"Choose one of {', '.join(WHITES)}, or use a colour bulb.")
    ctx.db.execute("UPDATE devices SET color = ?, power = 'on' WHERE device_id = ?", (color, device_id))
    return device(ctx, device_id)


@tools.tool(effect=WRITE, asks=[
    Ask("Turn off all the lights in {room_id}.", on=False),
    Ask("Switch the lights in {room_id} on at {brightness} percent.", on=True),
    Ask("Turn on the lights in {room_id}.", on=True),
], reply=[
    Ask("Done: I switched on {result.switched} lights in {room_id}.", on=True),
    Ask("Switched on {result.switched} lights in {room_id}.", on=True),
    Ask("Done: I switched off {result.switched} lights in {room_id}.", on=False),
    Ask("Switched off {result.switched} lights in {room_id}.", on=False),
])
def set_room_lights(ctx: Ctx, room_id: LitRoomId, on: bool, brightness: Brightness | None = None) -> RoomLights:
    """Switch every light in a room on or off at once; offline lights are skipped and reported.

    Args:
        room_id: ID of the room, such as 'RM-10003'.
        on: true to switch the lights on, false to switch them off.
        brightness: when switching on, the brightness for all of them, 1-100, such as 60.

    Returns:
        The room, the lights switched and the offline lights left as they were.

    Raises:
        not_found: no room has that ID.
        no_lights: the room has no lights.
        brightness_when_off: a brightness was given with `on` false.
    """
    room = ctx.get("room", room_id)
    if brightness is not None and not on:
        raise ToolError("brightness_when_off", "A brightness only applies when switching lights on.",
                        hint="Leave brightness out to switch the lights off.")
    lights = ctx.db.execute("SELECT device_id, name, online FROM devices WHERE room_id = ? AND type = 'light' "
                            "ORDER BY device_id", (room_id,)).fetchall()
    if not lights:
        raise ToolError("no_lights", f"{room['name']} has no lights.",
                        hint="Call list_devices with this room to see what it has.")
    changed, skipped = [], []
    for light in lights:
        if not light["online"]:
            skipped.append(Skipped(device_id=light["device_id"], name=light["name"], reason="offline"))
            continue
        ctx.db.execute("UPDATE devices SET power = ?, brightness = coalesce(?, brightness) WHERE device_id = ?",
                       ("on" if on else "off", brightness, light["device_id"]))
        changed.append(light["device_id"])
    return RoomLights(room_id=room_id, room_name=room["name"], power="on" if on else "off", changed=changed,
                      skipped=skipped, switched=len(changed), offline=len(skipped))


@tools.tool(effect=WRITE, asks=[
    "Set {device_id} to volume {volume}.",
    "Put the volume on {device_id} at {volume}.",
    Ask("Mute {device_id}.", volume=0),
], reply=[Ask("{device_id} is muted.", volume=0), Ask("Done: I muted {device_id}.", volume=0),
          "{device_id} is at volume {volume}.", "Done: volume set to {volume} on {device_id}."])
def set_volume(ctx: Ctx, device_id: SpeakerId, volume: Percent) -> Device:
    """Set a speaker's volume.

    Args:
        device_id: ID of the speaker, such as 'DEV-10013'.
        volume: 0 (muted) to 100, such as 25.

    Returns:
        The speaker with its new volume.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a speaker.
        device_offline: the speaker is offline.
    """
    controllable(ctx, device_id, "speaker")
    ctx.db.execute("UPDATE devices SET volume = ? WHERE device_id = ?", (volume, device_id))
    return device(ctx, device_id)


# ----- thermostats --------------------------------------------------------------------------------


# (the slotted mode is one said "in ... mode": not "in off mode", which has phrasings of its own)
@tools.tool(effect=WRITE, values={"mode": ["heat", "cool", "auto", "eco"]}, asks=[
    Ask("Switch {device_id} to heat.", mode="heat"),
    Ask("Put {device_id} in cooling mode.", mode="cool"),
    Ask("Set {device_id} to eco while we're out.", mode="eco"),
    Ask("Turn {device_id} off.", mode="off"),
    "Put {device_id} in {mode} mode.",
], reply=[
    Ask("{device_id} is off now.", mode="off"),
    Ask("Done: I turned {device_id} off.", mode="off"),
    "{device_id} is in {mode} mode now.",
    "Done: {device_id} is set to {mode}.",
])
def set_thermostat_mode(ctx: Ctx, device_id: ThermostatId, mode: ThermostatMode) -> Device:
    """Set a thermostat's mode: 'heat', 'cool', 'auto', 'eco' (energy saving while away) or 'off'.

    Args:
        device_id: ID of the thermostat, such as 'DEV-10007'.
        mode: 'heat', 'cool', 'auto', 'eco' or 'off'.

    Returns:
        The thermostat with its new mode.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a thermostat.
        device_offline: the thermostat is offline.
    """
    row = controllable(ctx, device_id, "thermostat")
    ctx.db.execute("UPDATE devices SET mode = ? WHERE device_id = ?", (mode, device_id))
    if row["mode"] != mode:
        log(ctx, "settings", f"{row['name']} set to {mode}", device_id)
    return device(ctx, device_id)


@tools.tool(effect=WRITE, values={"target_temp": [66.0, 68.0, 69.5, 70.0, 71.0, 72.0, 73.5, 75.0]}, asks=[
    "Set {device_id} to {target_temp} degrees.",
    "Make it {target_temp}°F on {device_id}.",
    "Change {device_id} to {target_temp}°F, please.",
], reply=["{device_id} is set to {result.target_temp}°F.", "Done: I set {device_id} to {result.target_temp}°F."])
def set_temperature(ctx: Ctx, device_id: ThermostatId,
                    target_temp: Annotated[float, Field(ge=-100, le=200)]) -> Device:
    """Set a thermostat's target temperature in °F (rounded to the nearest half degree).

    The target must lie within the thermostat's allowed range (`min_temp` to `max_temp`). A
    thermostat in 'eco' leaves eco for 'auto' when given a target, as real thermostats do; one
    that is 'off' must be given a mode first.

    Args:
        device_id: ID of the thermostat, such as 'DEV-10007'.
        target_temp: the target in °F, such as 70.5.

    Returns:
        The thermostat with its new target (and mode, if it left eco).

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a thermostat.
        device_offline: the thermostat is offline.
        thermostat_off: the thermostat is off.
        out_of_range: the target is outside the thermostat's allowed range.
    """
    row = controllable(ctx, device_id, "thermostat")
    if row["mode"] == "off":
        raise ToolError("thermostat_off", f"{row['name']} is off; it has no target temperature.",
                        hint="Set a mode ('heat', 'cool' or 'auto') with set_thermostat_mode first.")
    target = round(target_temp * 2) / 2
    if not row["min_temp"] <= target <= row["max_temp"] or not TEMP_FLOOR <= target <= TEMP_CEILING:
        raise ToolError("out_of_range", f"{row['name']} accepts {row['min_temp']:g} to {row['max_temp']:g} °F, "
                        f"not {target:g}.",
                        hint=f"Choose a temperature from {row['min_temp']:g} to {row['max_temp']:g}.")
    mode = "auto" if row["mode"] == "eco" else row["mode"]
    ctx.db.execute("UPDATE devices SET target_temp = ?, mode = ? WHERE device_id = ?", (target, mode, device_id))
    log(ctx, "settings", f"{row['name']} set to {target:g} °F", device_id)
    return device(ctx, device_id)


# ----- blinds ---------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Open {device_id} to {position} percent.",
    Ask("Close {device_id}.", position=0),
    Ask("Open {device_id} all the way.", position=100),
    Ask("Set {device_id} halfway.", position=50),
], reply=[
    Ask("{device_id} is closed.", position=0),
    Ask("{device_id} is open all the way.", position=100),
    "{device_id} is at {position}% open.",
    "Done: {device_id} is now {position}% open.",
])
def set_blind_position(ctx: Ctx, device_id: BlindId, position: Percent) -> Device:
    """Move a motorised blind: 0 is fully closed, 100 fully open.

    Args:
        device_id: ID of the blind, such as 'DEV-10018'.
        position: 0 (closed) to 100 (open), such as 50.

    Returns:
        The blind at its new position.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a blind.
        device_offline: the blind is offline.
        battery_low: the blind's battery is too low to run its motor (below 5%).
    """
    row = controllable(ctx, device_id, "blind")
    if row["battery"] is not None and row["battery"] < MIN_MOTOR_BATTERY:
        raise ToolError("battery_low", f"{row['name']}'s battery is at {row['battery']}%, too low to move it.",
                        hint="Ask the user to charge or replace the blind's battery.")
    ctx.db.execute("UPDATE devices SET position = ? WHERE device_id = ?", (position, device_id))
    return device(ctx, device_id)


# ----- sensors and firmware -----------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What was the temperature on {device_id} since {start}?",
    "Show me the temperature history of {device_id}.",
    "How warm was it by {device_id} between {start} and {end}?",
], reply=[
    Ask("I found no readings from {device_id} for that time.", **{"result.total": 0}),
    "{device_id} logged {result.readings_text}.",
])
def get_sensor_readings(ctx: Ctx, device_id: TemperatureDeviceId, start: str | None = None,
                        end: str | None = None, limit: Limit = 50) -> ReadingList:
    """Read the temperature and humidity history of a temperature sensor or thermostat (every three hours).

    Args:
        device_id: ID of a temperature sensor or thermostat, such as 'DEV-10025'.
        start: only readings at or after this time, such as '2026-03-14T00:00:00'.
        end: only readings at or before this time, such as '2026-03-15T21:00:00'.
        limit: at most this many of the latest matching readings (1-200, default 50).

    Returns:
        The readings, oldest first, with the lowest, highest and average temperature among them.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device records no temperatures (not a thermostat or temperature sensor).
        invalid_time: `start` or `end` is not an ISO 8601 local time.
        invalid_date_range: `start` is after `end`.
    """
    row = ctx.get("device", device_id)
    if not (row["type"] == "thermostat" or row["sensor_kind"] == "temperature"):
        raise ToolError("unsupported_device", f"{row['name']} records no temperatures.",
                        hint="Call list_devices with device_type='sensor' or 'thermostat' to find one that does.")
    lo = iso(parse_time(start, "start")) if start is not None else ""
    hi = iso(parse_time(end, "end")) if end is not None else "9999"
    if start is not None and end is not None and lo > hi:
        raise ToolError("invalid_date_range", "start is after end.", hint="Give a start before the end.")
    rows = ctx.db.execute("SELECT * FROM (SELECT recorded_at, temperature, humidity FROM sensor_readings "
                          "WHERE device_id = ? AND recorded_at BETWEEN ? AND ? ORDER BY recorded_at DESC LIMIT ?) "
                          "ORDER BY recorded_at", (device_id, lo, hi, limit)).fetchall()
    temps = [r["temperature"] for r in rows]
    readings = [Reading(recorded_at=r[0], temperature_f=r[1], humidity_pct=r[2]) for r in rows]
    return ReadingList(device_id=device_id, name=row["name"], readings=readings, readings_text=_readings_text(readings),
                       total=len(rows), min_temperature_f=min(temps) if temps else None,
                       max_temperature_f=max(temps) if temps else None,
                       average_temperature_f=round(sum(temps) / len(temps), 1) if temps else None)


@tools.tool(effect=WRITE, asks=[
    "Update the firmware on {device_id}.",
    "Is there a software update for {device_id}? Install it.",
], reply=["{device_id} is updated to firmware {result.firmware}.",
          "Done: {device_id} is updated from version {result.previous_firmware} to {result.firmware}."])
def update_firmware(ctx: Ctx, device_id: OutdatedId) -> FirmwareUpdate:
    """Install the latest firmware on a device (`update_available` in get_device).

    Args:
        device_id: ID of the device, such as 'DEV-10006'.

    Returns:
        The device's previous and new firmware version.

    Raises:
        not_found: no device has that ID.
        device_offline: the device is offline.
        already_up_to_date: the device already runs the latest firmware.
        battery_low: a battery-powered device is below 20% charge.
    """
    row = controllable(ctx, device_id)
    if row["firmware"] == row["latest_firmware"]:
        raise ToolError("already_up_to_date", f"{row['name']} already runs the latest firmware {row['firmware']}.",
                        hint="Nothing to do.")
    if row["battery"] is not None and row["battery"] < MIN_FIRMWARE_BATTERY:
        raise ToolError("battery_low", f"{row['name']}'s battery is at {row['battery']}%; updates need at least "
                        f"{MIN_FIRMWARE_BATTERY}%.", hint="Ask the user to charge or replace the battery first.")
    ctx.db.execute("UPDATE devices SET firmware = latest_firmware WHERE device_id = ?", (device_id,))
    log(ctx, "device", f"{row['name']} updated to firmware {row['latest_firmware']}", device_id)
    return FirmwareUpdate(device_id=device_id, name=row["name"], previous_firmware=row["firmware"],
                          firmware=row["latest_firmware"])
