"""The iot_devices server's declaration: the smart home of one signed-in user.

This module holds `server`, the entity kinds and their ID types, the device model and the helpers
every tool module shares. The tools live in one toolset per area, which `__init__` includes:

    tools_home.py       the home and its mode, rooms, activity feed, energy use
    tools_devices.py    devices: lights, plugs, speakers, thermostats, blinds, sensors, firmware
    tools_security.py   locks and door codes, cameras and recordings
    tools_scenes.py     scenes and automations

`hooks.py` holds the `on_advance` hook (automations run, rooms warm up).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import iso

from .world import build_world

ROOM = EntityKind("room", table="rooms", key="room_id", label="name", description="a room of the home",
                  lister="list_rooms", naming="article")  # "the Kitchen", not "the Kitchen room"
DEVICE = EntityKind("device", table="devices", key="device_id", label="name",
                    description="a connected device: light, thermostat, lock, camera, sensor, plug, blind or speaker",
                    live="online = 1", lister="list_devices", naming="article")
LOCK_CODE = EntityKind("lock_code", table="lock_codes", key="code_id", label="name",
                       description="a door code of one smart lock, for a person",
                       live="valid_until IS NULL OR valid_until >= :now", lister="list_lock_codes", noun="door code")
SCENE = EntityKind("scene", table="scenes", key="scene_id", label="name",
                   description="a saved set of device settings applied together, such as 'Good Night'",
                   lister="list_scenes")
AUTOMATION = EntityKind("automation", table="automations", key="automation_id", label="name",
                        description="a schedule that runs a scene at a time on chosen weekdays",
                        lister="list_automations")
RECORDING = EntityKind("recording", table="recordings", key="recording_id", label="label",
                       description="a video clip a camera recorded", lister="list_recordings")
ACTIVITY = EntityKind("activity", table="activity", key="activity_id", label="message",
                      description="one entry of the home's activity feed", lister="list_activity",
                      noun="activity entry")

server = Server(
    "iot_devices", "Smart home",
    "The smart home of one signed-in user: rooms and their devices (lights with brightness and "
    "colour, thermostats, smart locks with door codes, security cameras and their recordings, "
    "temperature, motion, door and leak sensors, smart plugs, motorised blinds, speakers); the "
    "home's mode (home, away, night, vacation); scenes that set many devices at once and "
    "time-based automations that run them; sensor readings, energy use and the activity feed. "
    "Offline devices cannot be controlled and a jammed lock does not move.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[ROOM, DEVICE, LOCK_CODE, SCENE, AUTOMATION, RECORDING, ACTIVITY],
)

# ----- parameter and field types ----------------------------------------------------------------

RoomId = ROOM.id
DeviceId = DEVICE.id
LockCodeId = LOCK_CODE.id
SceneId = SCENE.id
AutomationId = AUTOMATION.id
RecordingId = RECORDING.id
ActivityId = ACTIVITY.id

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
Limit = Annotated[int, Field(ge=1, le=200)]
DeviceType = Literal["light", "thermostat", "lock", "camera", "sensor", "plug", "blind", "speaker"]
Color = Literal["warm white", "soft white", "cool white", "daylight", "red", "orange", "yellow", "green", "blue",
                "purple", "pink"]
ThermostatMode = Literal["heat", "cool", "auto", "eco", "off"]
HomeMode = Literal["home", "away", "night", "vacation"]
Weekday = Literal["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
ActivityKind = Literal["motion", "contact", "lock", "camera", "device", "mode", "scene", "automation", "code",
                       "settings"]

# ----- the device model -------------------------------------------------------------------------


class Device(BaseModel):
    """A device and its current state; fields of other device types are null."""

    device_id: DeviceId
    name: str
    type: DeviceType
    room_id: RoomId
    room_name: str
    manufacturer: str
    model: str
    online: bool = Field(description="false: unreachable; it cannot be controlled until it reconnects")
    battery: int | None = Field(description="battery percent, for battery-powered devices")
    last_seen: str = Field(description="when the hub last heard from it: now for online devices")
    firmware: str
    update_available: bool
    power: Literal["on", "off"] | None = Field(description="lights, plugs and speakers")
    brightness: int | None = Field(description="lights, 1-100")
    color: str | None = Field(description="lights")
    supports_color: bool | None = Field(description="lights: true if it shows colours, not only whites")
    watts: float | None = Field(description="plugs: power drawn now")
    mode: ThermostatMode | None = Field(description="thermostats")
    target_temp: float | None = Field(description="thermostats: the setpoint in °F")
    current_temp: float | None = Field(description="thermostats and temperature sensors, °F")
    humidity: int | None
    min_temp: float | None = Field(description="thermostats: lowest setpoint allowed")
    max_temp: float | None = Field(description="thermostats: highest setpoint allowed")
    lock_state: Literal["locked", "unlocked", "jammed"] | None = Field(description="locks")
    armed: bool | None = Field(description="cameras: recording on motion")
    placement: Literal["indoor", "outdoor"] | None = Field(description="cameras")
    sensor_kind: Literal["temperature", "motion", "contact", "leak"] | None
    sensor_state: str | None = Field(description="'motion'/'clear', 'open'/'closed' or 'dry'/'wet'")
    position: int | None = Field(description="blinds: 0 closed to 100 fully open")
    volume: int | None = Field(description="speakers, 0-100")
    now_playing: str | None = Field(description="speakers")


class Skipped(BaseModel):
    """A device a bulk action could not change, and why."""

    device_id: DeviceId
    name: str
    reason: Literal["offline", "jammed", "battery_low"]


# ----- helpers ------------------------------------------------------------------------------------


def device(ctx: Ctx, row: sqlite3.Row | str) -> Device:
    """The `Device` model of a row (or of a device ID)."""
    if isinstance(row, str):
        row = ctx.get("device", row)
    (room_name,) = ctx.db.execute("SELECT name FROM rooms WHERE room_id = ?", (row["room_id"],)).fetchone()

    def flag(v: Any) -> bool | None:
        return None if v is None else bool(v)

    return Device(
        device_id=row["device_id"], name=row["name"], type=row["type"], room_id=row["room_id"], room_name=room_name,
        manufacturer=row["manufacturer"], model=row["model"], online=bool(row["online"]), battery=row["battery"],
        last_seen=ctx.now_iso() if row["online"] else row["last_seen"], firmware=row["firmware"],
        update_available=row["firmware"] != row["latest_firmware"], power=row["power"],
        brightness=row["brightness"], color=row["color"], supports_color=flag(row["supports_color"]),
        watts=row["watts"], mode=row["mode"], target_temp=row["target_temp"], current_temp=row["current_temp"],
        humidity=row["humidity"], min_temp=row["min_temp"], max_temp=row["max_temp"],
        lock_state=row["lock_state"], armed=flag(row["armed"]), placement=row["placement"],
        sensor_kind=row["sensor_kind"], sensor_state=row["sensor_state"], position=row["position"],
        volume=row["volume"], now_playing=row["now_playing"])


def controllable(ctx: Ctx, device_id: str, *types: str) -> sqlite3.Row:
    """A device of one of `types` that is online, else `not_found`, `unsupported_device` or `device_offline`."""
    row = ctx.get("device", device_id)
    if types and row["type"] not in types:
        kinds = " or ".join(types)
        raise ToolError("unsupported_device", f"{row['name']} is a {row['type']}, not a {kinds}.",
                        hint=f"Call list_devices with device_type={types[0]!r} to find one.")
    if not row["online"]:
        raise ToolError("device_offline", f"{row['name']} is offline (last seen {row['last_seen']}) and cannot "
                        "be controlled.", hint="Ask the user to check its power, battery or Wi-Fi; "
                        "it can be controlled again once it reconnects.")
    return row


def log(ctx: Ctx, kind: str, message: str, device_id: str | None = None, at: datetime | None = None) -> str:
    """Add an entry to the activity feed; returns its ID."""
    activity_id = ctx.new_id("ACT")
    ctx.db.execute("INSERT INTO activity (activity_id, occurred_at, device_id, kind, message) VALUES (?, ?, ?, ?, ?)",
                   (activity_id, iso(at or ctx.now()), device_id, kind, message))
    return activity_id


def apply_actions(ctx: Ctx, scene_id: str, at: datetime) -> tuple[list[str], list[Skipped]]:
    """Apply a scene's actions to its reachable devices; returns (changed IDs, skipped devices)."""
    rows = ctx.db.execute(
        "SELECT a.*, d.name, d.type, d.online, d.lock_state AS current_lock, d.battery, d.rated_watts "
        "FROM scene_actions a JOIN devices d USING (device_id) WHERE a.scene_id = ? ORDER BY a.device_id",
        (scene_id,)).fetchall()
    changed: list[str] = []
    skipped: list[Skipped] = []
    for a in rows:
        if not a["online"]:
            skipped.append(Skipped(device_id=a["device_id"], name=a["name"], reason="offline"))
            continue
        if a["lock_state"] is not None and a["current_lock"] == "jammed":
            skipped.append(Skipped(device_id=a["device_id"], name=a["name"], reason="jammed"))
            continue
        if a["position"] is not None and a["battery"] is not None and a["battery"] < 5:
            skipped.append(Skipped(device_id=a["device_id"], name=a["name"], reason="battery_low"))
            continue
        sets: dict[str, Any] = {}
        for column in ("power", "brightness", "color", "mode", "target_temp", "lock_state", "armed", "position",
                       "volume"):
            if a[column] is not None:
                sets[column] = a[column]
        if sets.get("power") == "off" and a["type"] == "speaker":
            sets["now_playing"] = None
        if a["type"] == "plug" and "power" in sets:
            sets["watts"] = a["rated_watts"] if sets["power"] == "on" else 0.0
        ctx.update("device", a["device_id"], sets)
        changed.append(a["device_id"])
    ctx.db.execute("UPDATE scenes SET last_activated_at = ? WHERE scene_id = ?", (iso(at), scene_id))
    return changed, skipped
