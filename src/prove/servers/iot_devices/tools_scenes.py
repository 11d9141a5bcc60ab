"""Smart home tools: scenes (many devices set at once) and the automations that run them."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Annotated

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, parse_clock, quote

from .server import (
    DEVICE,
    SCENE,
    AutomationId,
    DeviceId,
    Name,
    SceneId,
    Skipped,
    Weekday,
    apply_actions,
    controllable,
    log,
)
from .world import WEEKDAYS

MAX_SCENE_DEVICES = 40
SceneDevices = Annotated[list[DEVICE.where("type <> 'sensor'")], Field(min_length=1, max_length=MAX_SCENE_DEVICES)]
UnusedSceneId = SCENE.where("scene_id NOT IN (SELECT scene_id FROM automations)")
# a scene whose name says no time of day ("Leaving Home", "Focus Time"): an automation runs it at any hour
TimelessSceneId = SCENE.where("name NOT LIKE '%Morning%' AND name NOT LIKE '%Night%' AND name NOT LIKE '%Evening%' "
                              "AND name NOT LIKE '%Dinner%' AND name NOT LIKE '%Bedtime%'")
Days = Annotated[list[Weekday], Field(min_length=1, max_length=7)]

tools = Toolset("scenes")

# ----- models -------------------------------------------------------------------------------------


class SceneAction(BaseModel):
    """What a scene sets on one device; null fields are left as they are."""

    device_id: DeviceId
    device_name: str
    online: bool
    power: str | None
    brightness: int | None
    color: str | None
    mode: str | None
    target_temp: float | None
    lock_state: str | None
    armed: bool | None
    position: int | None
    volume: int | None


class Scene(BaseModel):
    scene_id: SceneId
    name: str
    created_at: str
    last_activated_at: str | None
    devices: int
    devices_offline: int = Field(description="devices of the scene that are offline now")
    automations: list[AutomationId] = Field(description="automations that run this scene")


class SceneDetail(Scene):
    actions: list[SceneAction]
    actions_text: str = Field(description="what the scene does, in words, such as 'sets 2 devices: it turns on the "
                                          "Kitchen Pendant Lights at 80% and opens the Living Room Blinds'")


def _action_words(a: SceneAction) -> tuple[str, str, str]:
    """What a scene does to a device, as (verb, device, how): ('turns on', 'the Kitchen Pendant
    Lights', 'at 80% in soft white'), ('sets', 'the Living Room Thermostat', 'to heat at 70°F')."""
    the = f"the {a.device_name}" + ("" if a.online else " (offline now)")
    if a.mode is not None:
        return ("switches off", the, "") if a.mode == "off" else \
            ("sets", the, f"to {a.mode}" + (f" at {a.target_temp:g}°F" if a.target_temp is not None else ""))
    if a.lock_state is not None:
        return f"{a.lock_state.removesuffix('ed')}s", the, ""
    if a.armed is not None:
        return "arms" if a.armed else "disarms", the, ""
    if a.position is not None:
        return ("closes", the, "") if a.position == 0 else ("opens", the, "" if a.position == 100 else f"to {a.position}%")
    if a.power == "off":
        return "turns off", the, ""
    how = [f"at {a.brightness}%"] if a.brightness is not None else []
    how += [f"in {a.color}"] if a.color is not None else []
    how += [f"at volume {a.volume}"] if a.volume is not None else []
    if a.power == "on":
        return "turns on", the, " ".join(how)
    return ("sets", the, " ".join(how)) if how else ("leaves", the, "as it is")


def actions_text(actions: list[SceneAction], shown: int = 5) -> str:
    """'sets 8 devices: it turns on the Kitchen Pendant Lights at 80%, opens the Living Room Blinds and
    the Office Blinds, ...': devices the scene does the same to are said together."""
    groups: dict[tuple[str, str], list[str]] = {}
    for a in actions:
        verb, the, how = _action_words(a)
        groups.setdefault((verb, how), []).append(the)
    if not groups:
        return "sets no devices"

    def listed(items: list[str]) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    said = []
    for (verb, how), names in groups.items():
        named = names if len(names) <= shown else [*names[:shown - 1], f"{len(names) - shown + 1} more"]
        said.append(f"{verb} {listed(named)}" + (f" {how}" if how else ""))
    return f"sets {len(actions)} device{'' if len(actions) == 1 else 's'}: it " + (
        said[0] if len(said) == 1 else "; ".join(said[:-1]) + "; and " + said[-1])


class SceneList(BaseModel):
    scenes: list[Scene]
    total: int
    scenes_text: str = Field(description="the scenes in words, such as '2 scenes: Good Morning (4 devices, last used "
                                         "March 16 at 6:30 AM) and Relax (1 device, never used)'")


class SceneRun(BaseModel):
    scene_id: SceneId
    name: str
    activated_at: str
    changed: list[DeviceId] = Field(description="devices set by the scene")
    skipped: list[Skipped] = Field(description="devices that could not be set (offline, jammed, battery low)")
    complete: bool = Field(description="true if every device of the scene was set")
    skipped_text: str = Field("", description="the devices skipped and why, such as 'the Patio String Lights Plug, "
                                              "which is offline'")


class DeletedScene(BaseModel):
    scene_id: SceneId
    name: str
    deleted: bool


class Automation(BaseModel):
    automation_id: AutomationId
    name: str
    scene_id: SceneId
    scene_name: str
    run_at: str = Field(description="local time 'HH:MM'")
    days: list[Weekday]
    schedule: str = Field(description="the days in words: 'every day', 'on weekdays', 'on Mondays and Fridays'")
    enabled: bool
    created_at: str
    last_run_at: str | None
    next_run_at: str | None = Field(description="when it runs next; null if disabled")


class AutomationList(BaseModel):
    automations: list[Automation]
    total: int
    automations_text: str = Field(description="the automations in words, such as \"2 automations: 'Lights out' "
                                              "runs the Good Night scene every day at 11:30 PM; ...\"")


class DeletedAutomation(BaseModel):
    automation_id: AutomationId
    name: str
    deleted: bool


# ----- helpers ------------------------------------------------------------------------------------


def _scene(ctx: Ctx, scene_id: str, detail: bool = False) -> SceneDetail | Scene:
    s = ctx.get("scene", scene_id)
    actions = ctx.db.execute("SELECT a.*, d.name, d.online FROM scene_actions a JOIN devices d USING (device_id) "
                             "WHERE a.scene_id = ? ORDER BY a.device_id", (scene_id,)).fetchall()
    autos = [r[0] for r in ctx.db.execute("SELECT automation_id FROM automations WHERE scene_id = ? "
                                          "ORDER BY automation_id", (scene_id,))]
    base = dict(scene_id=s["scene_id"], name=s["name"], created_at=s["created_at"],
                last_activated_at=s["last_activated_at"], devices=len(actions),
                devices_offline=sum(1 for a in actions if not a["online"]), automations=autos)
    if not detail:
        return Scene(**base)
    done = [SceneAction(
        device_id=a["device_id"], device_name=a["name"], online=bool(a["online"]), power=a["power"],
        brightness=a["brightness"], color=a["color"], mode=a["mode"], target_temp=a["target_temp"],
        lock_state=a["lock_state"], armed=None if a["armed"] is None else bool(a["armed"]), position=a["position"],
        volume=a["volume"]) for a in actions]
    return SceneDetail(**base, actions=done, actions_text=actions_text(done))


def _next_run(row: sqlite3.Row, now: datetime) -> str | None:
    if not row["enabled"]:
        return None
    hh, mm = map(int, row["run_at"].split(":"))
    days = row["days"].split(",")
    for ahead in range(0, 8):
        day = now.date() + timedelta(days=ahead)
        at = datetime(day.year, day.month, day.day, hh, mm)
        if at > now and WEEKDAYS[day.weekday()] in days:
            return iso(at)
    return None


DAY_NAMES = {"MO": "Mondays", "TU": "Tuesdays", "WE": "Wednesdays", "TH": "Thursdays", "FR": "Fridays",
             "SA": "Saturdays", "SU": "Sundays"}


def schedule_words(days: list[str]) -> str:
    """'every day', 'on weekdays', 'on weekends', or 'on Mondays, Wednesdays and Fridays'."""
    chosen = [d for d in DAY_NAMES if d in days]
    if len(chosen) == 7:
        return "every day"
    if chosen == ["MO", "TU", "WE", "TH", "FR"]:
        return "on weekdays"
    if chosen == ["SA", "SU"]:
        return "on weekends"
    names = [DAY_NAMES[d] for d in chosen]
    return "on " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])


def _automation(ctx: Ctx, automation_id: str) -> Automation:
    a = ctx.get("automation", automation_id)
    (scene_name,) = ctx.db.execute("SELECT name FROM scenes WHERE scene_id = ?", (a["scene_id"],)).fetchone()
    return Automation(automation_id=a["automation_id"], name=a["name"], scene_id=a["scene_id"], scene_name=scene_name,
                      run_at=a["run_at"], days=a["days"].split(","),
                      schedule=schedule_words(a["days"].split(",")), enabled=bool(a["enabled"]),
                      created_at=a["created_at"], last_run_at=a["last_run_at"], next_run_at=_next_run(a, ctx.now()))


# ----- scenes -------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What scenes do I have?",
    "List my saved scenes and when I last used them.",
], reply=["You have {result.scenes_text}."])
def list_scenes(ctx: Ctx) -> SceneList:
    """List the home's scenes with their number of devices, offline devices and automations.

    Returns:
        The scenes (ID, name, last activated, devices, offline devices, automations running them)
        and how many there are.
    """
    ids = [r[0] for r in ctx.db.execute("SELECT scene_id FROM scenes ORDER BY scene_id")]
    scenes = [_scene(ctx, i) for i in ids]
    return SceneList(scenes=scenes, total=len(scenes), scenes_text=_scenes_text(scenes))


def _scenes_text(scenes: list[Scene]) -> str:
    """'2 scenes: Good Morning (4 devices, last used March 16 at 6:30 AM) and Relax (1 device, never used)'."""
    said = []
    for sc in scenes:
        used = "never used"
        if sc.last_activated_at:
            at = datetime.fromisoformat(sc.last_activated_at)
            used = f"last used {at:%B} {at.day} at {at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"
        said.append(f"{sc.name} ({sc.devices} device{'' if sc.devices == 1 else 's'}, {used})")
    if not said:
        return "no scenes"
    listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    return f"{len(said)} scene{'' if len(said) == 1 else 's'}: {listed}"


@tools.tool(effect=READ, asks=[
    "What does {scene_id} do?",
    "Which devices are in {scene_id}?",
], reply=[
    "{scene_id} {result.actions_text}.",
])
def get_scene(ctx: Ctx, scene_id: SceneId) -> SceneDetail:
    """Show a scene and what it sets on each of its devices.

    Args:
        scene_id: ID of the scene, such as 'SCN-10001'.

    Returns:
        The scene and its actions: per device, whether it is online and the power, brightness,
        colour, thermostat mode and target, lock, camera arming, blind position or volume it sets.

    Raises:
        not_found: no scene has that ID.
    """
    return _scene(ctx, scene_id, detail=True)  # type: ignore[return-value]


@tools.tool(effect=WRITE, asks=[
    "Run {scene_id}.",
    Ask("Activate {scene_id} even if some devices are offline.", allow_partial=True),
    "Start {scene_id}.",
], reply=["{scene_id} is activated.", "Done: I ran {scene_id}.",
          Ask("Ran {scene_id} for every device but {result.skipped_text}.", **{"result.complete": False}),
          Ask("{scene_id} is activated, except for {result.skipped_text}.", **{"result.complete": False})])
def activate_scene(ctx: Ctx, scene_id: SceneId, allow_partial: bool = False) -> SceneRun:
    """Apply a scene: set every device in it as the scene says.

    If a device of the scene is offline, jammed (a lock) or too low on battery (a blind), the
    scene is not applied at all unless `allow_partial` is true; then the other devices are set
    and the unreachable ones are reported.

    Args:
        scene_id: ID of the scene, such as 'SCN-10001'.
        allow_partial: true to set the reachable devices even if some cannot be set (default false).

    Returns:
        The scene, when it ran, the devices set, the devices skipped and why, and whether it was complete.

    Raises:
        not_found: no scene has that ID.
        devices_unavailable: some devices of the scene cannot be set and `allow_partial` is false.
    """
    s = ctx.get("scene", scene_id)
    changed, skipped = apply_actions(ctx, scene_id, ctx.now())
    if skipped and not allow_partial:
        names = ", ".join(f"{k.name} ({k.reason})" for k in skipped)
        raise ToolError("devices_unavailable", f"The scene '{s['name']}' was not applied: {names} cannot be set.",
                        hint="Ask the user whether to run it anyway for the other devices (allow_partial=true).")
    note = f" ({len(skipped)} device(s) skipped)" if skipped else ""
    log(ctx, "scene", f"Scene '{s['name']}' activated{note}")
    why = {"offline": "is offline", "jammed": "is jammed", "battery_low": "is low on battery"}
    said = [f"the {k.name}, which {why[k.reason]}" for k in skipped]
    return SceneRun(scene_id=scene_id, name=s["name"], activated_at=ctx.now_iso(), changed=changed, skipped=skipped,
                    complete=not skipped, skipped_text="; ".join(said[:-1]) + ("; and " if len(said) > 1 else "") +
                    (said[-1] if said else ""))


# A scene saves how its devices are now, so its name says what that state is for, and the devices it
# takes are those whose state now fits the name: no 'Party' that only locks doors, no 'Bedtime' that
# turns lights on. (No name of a world's own scene: 'Good Morning' and 'Leaving Home' are taken.)
_OFF = "(type IN ('light', 'plug', 'speaker') AND power = 'off')"
_ON = "(type IN ('light', 'speaker') AND power = 'on')"
_WARM = "(type = 'thermostat' AND mode IN ('heat', 'auto'))"
# a scene named for a room sets how it looks and sounds, not its door's lock or its camera
_ROOMY = "type IN ('light', 'plug', 'speaker', 'blind')"
_SCENE_FITS = {
    "Lock up": "type = 'lock'",
    "Away": f"type = 'lock' OR (type = 'camera' AND armed = 1) OR {_OFF}",
    "Bedtime": f"type = 'lock' OR (type = 'blind' AND position = 0) OR {_OFF}",
    "Lights out": "type = 'light' AND power = 'off'",
    "Wake up": f"(type = 'blind' AND position = 100) OR (type = 'light' AND power = 'on') OR {_WARM}",
    "Party": _ON,
    "Relax": f"{_ON} OR {_WARM}",
    "Cosy": f"(type = 'light' AND power = 'on') OR {_WARM}",
    "Kitchen": f"{_ROOMY} AND room_id IN (SELECT room_id FROM rooms WHERE name = 'Kitchen')",
    "Living room": f"{_ROOMY} AND room_id IN (SELECT room_id FROM rooms WHERE name = 'Living Room')",
}


@tools.tool(effect=WRITE, asks=[
    ask for name, fits in _SCENE_FITS.items()
    for ask in (Ask(f"Save the current settings of {{device_ids}} as a scene called '{name}'.", name=name,
                    fits={"device_ids": f"online = 1 AND ({fits})"}),
                Ask(f"Create a scene named '{name}' with {{device_ids}}.", name=name,
                    fits={"device_ids": f"online = 1 AND ({fits})"}))
], reply=["The scene '{result.name}' is saved with {result.devices} devices.",
          "Done: saved the current settings of {device_ids} as the scene '{result.name}'."])
def create_scene(ctx: Ctx, name: Name, device_ids: SceneDevices) -> SceneDetail:
    """Create a scene from the current state of some devices, to bring them back to it later.

    Each device's current settings are captured: power, brightness and colour of lights, power
    of plugs, power and volume of speakers, mode and target of thermostats, position of blinds,
    arming of cameras. A lock in a scene is always locked by it. Sensors cannot be in a scene.

    Args:
        name: the scene's name, unique in the home, such as 'Reading Nook'.
        device_ids: the devices of the scene, such as ['DEV-10006', 'DEV-10008'].

    Returns:
        The new scene with its ID and what it sets on each device.

    Raises:
        not_found: a device does not exist.
        unsupported_device: a device is a sensor.
        device_offline: a device is offline, so its state cannot be read.
        duplicate_scene: a scene already has that name (any case).
    """
    taken = ctx.db.execute("SELECT scene_id FROM scenes WHERE lower(name) = lower(?)", (name,)).fetchone()
    if taken:
        raise ToolError("duplicate_scene", f"There is already a scene named {quote(name)} ({taken[0]}).",
                        hint="Choose another name, or delete the old scene first.")
    scene_id = ctx.new_id("SCN")
    ctx.db.execute("INSERT INTO scenes (scene_id, name, created_at, last_activated_at) VALUES (?, ?, ?, NULL)",
                   (scene_id, name, ctx.now_iso()))
    for device_id in dict.fromkeys(device_ids):
        d = controllable(ctx, device_id, "light", "thermostat", "lock", "camera", "plug", "blind", "speaker")
        act = {"power": None, "brightness": None, "color": None, "mode": None, "target_temp": None,
               "lock_state": None, "armed": None, "position": None, "volume": None}
        if d["type"] == "light":
            act.update(power=d["power"], brightness=d["brightness"] if d["power"] == "on" else None,
                       color=d["color"] if d["power"] == "on" else None)
        elif d["type"] == "plug":
            act["power"] = d["power"]
        elif d["type"] == "speaker":
            act.update(power=d["power"], volume=d["volume"])
        elif d["type"] == "thermostat":
            act.update(mode=d["mode"], target_temp=d["target_temp"])
        elif d["type"] == "blind":
            act["position"] = d["position"]
        elif d["type"] == "camera":
            act["armed"] = d["armed"]
        elif d["type"] == "lock":
            act["lock_state"] = "locked"
        ctx.db.execute("INSERT INTO scene_actions (scene_id, device_id, power, brightness, color, mode, target_temp, "
                       "lock_state, armed, position, volume) VALUES (:scene_id, :device_id, :power, :brightness, "
                       ":color, :mode, :target_temp, :lock_state, :armed, :position, :volume)",
                       {"scene_id": scene_id, "device_id": device_id, **act})
    log(ctx, "settings", f"Scene '{name}' created")
    return _scene(ctx, scene_id, detail=True)  # type: ignore[return-value]


@tools.tool(effect=WRITE, asks=[
    "Delete {scene_id}.",
    "I don't use {scene_id} anymore, remove it.",
], reply=["{scene_id} is deleted.", "Done: I removed {scene_id}."])
def delete_scene(ctx: Ctx, scene_id: UnusedSceneId) -> DeletedScene:
    """Delete a scene. A scene that automations run cannot be deleted until they are deleted.

    Args:
        scene_id: ID of the scene, such as 'SCN-10004'.

    Returns:
        The deleted scene's ID and name.

    Raises:
        not_found: no scene has that ID.
        scene_in_use: automations still run this scene.
    """
    s = ctx.get("scene", scene_id)
    autos = ctx.db.execute("SELECT automation_id, name FROM automations WHERE scene_id = ? ORDER BY automation_id",
                           (scene_id,)).fetchall()
    if autos:
        names = ", ".join(f"'{a['name']}' ({a['automation_id']})" for a in autos)
        raise ToolError("scene_in_use", f"The scene '{s['name']}' is run by the automations {names}.",
                        hint="Delete those automations with delete_automation first.")
    ctx.db.execute("DELETE FROM scene_actions WHERE scene_id = ?", (scene_id,))
    ctx.db.execute("DELETE FROM scenes WHERE scene_id = ?", (scene_id,))
    log(ctx, "settings", f"Scene '{s['name']}' deleted")
    return DeletedScene(scene_id=scene_id, name=s["name"], deleted=True)


# ----- automations --------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "Which automations are set up?",
    "Show me my schedules and when they run next.",
    Ask("Which automations are turned off?", enabled=False),
], reply=["You have {result.automations_text}."])
def list_automations(ctx: Ctx, enabled: bool | None = None) -> AutomationList:
    """List the time-based automations, each running a scene at a time on chosen weekdays.

    Args:
        enabled: true for enabled automations only, false for disabled ones only.

    Returns:
        The automations (ID, name, scene, time, weekdays, enabled, last and next run) and how many there are.
    """
    if enabled is None:
        ids = ctx.db.execute("SELECT automation_id FROM automations ORDER BY automation_id").fetchall()
    else:
        ids = ctx.db.execute("SELECT automation_id FROM automations WHERE enabled = ? ORDER BY automation_id",
                             (int(enabled),)).fetchall()
    autos = [_automation(ctx, r[0]) for r in ids]
    return AutomationList(automations=autos, total=len(autos), automations_text=_automations_text(autos))


def _automations_text(autos: list[Automation], shown: int = 5) -> str:
    """"2 automations: 'Lights out' runs the Good Night scene every day at 11:30 PM, next on March 16;
    'Family dinner' (turned off) runs the Dinner Time scene on weekdays at 6:00 PM"."""
    said = []
    for a in autos[:shown]:
        hour, minute = int(a.run_at[:2]), a.run_at[3:]
        at = f"{hour % 12 or 12}:{minute} {'AM' if hour < 12 else 'PM'}"
        nxt = datetime.fromisoformat(a.next_run_at) if a.next_run_at else None
        said.append(f"'{a.name}'{'' if a.enabled else ' (turned off)'} runs the {a.scene_name} scene {a.schedule} at {at}"
                    + (f", next on {nxt:%B} {nxt.day}" if nxt else ""))
    if not said:
        return "no automations"
    more = f"; and {len(autos) - len(said)} more" if len(autos) > len(said) else ""
    return f"{len(autos)} automation{'' if len(autos) == 1 else 's'}: " + "; ".join(said) + more


_LEAVING = "name LIKE '%Leaving%' OR name LIKE '%Away%'"
_ANY_HOUR = {"scene_id": f"NOT ({_LEAVING})"}


@tools.tool(effect=WRITE, values={
    # an automation's name says when it runs, not what its scene does (a scene that fits any hour)
    "name, run_at": [("Early start", "06:30"), ("Morning", "07:00"), ("Breakfast time", "07:30"),
                     ("After work", "17:30"), ("Evening", "19:00"), ("Late evening", "21:30"), ("Night", "22:30"),
                     ("Last thing at night", "23:00")],
}, asks=[
    Ask("Run {scene_id} every day at {run_at}; call it '{name}'.", days=["MO", "TU", "WE", "TH", "FR", "SA", "SU"],
        fits=_ANY_HOUR),
    Ask("Every weekday at {run_at}, run {scene_id}; name it '{name}'.", days=["MO", "TU", "WE", "TH", "FR"],
        fits=_ANY_HOUR),
    Ask("On weekends, start {scene_id} at {run_at} and call the automation '{name}'.", days=["SA", "SU"],
        fits=_ANY_HOUR),
    # a scene for leaving the house runs when the user heads out, not 'After work' as they come home
    Ask("Every weekday at 7:45 AM, run {scene_id}; name it 'Out the door'.", name="Out the door", run_at="07:45",
        days=["MO", "TU", "WE", "TH", "FR"], fits={"scene_id": _LEAVING}),
], reply=[
    # the days are said: "runs at 9:30 PM" alone would read as every day
    Ask("The automation '{result.name}' will run {scene_id} every day at {run_at}.",
        days=["MO", "TU", "WE", "TH", "FR", "SA", "SU"]),
    Ask("Done: '{result.name}' runs {scene_id} every weekday at {run_at}.", days=["MO", "TU", "WE", "TH", "FR"]),
    Ask("Done: '{result.name}' runs {scene_id} at {run_at} on Saturdays and Sundays.", days=["SA", "SU"]),
    "The automation '{result.name}' will run {scene_id} at {run_at} {result.schedule}.",
])
def create_automation(ctx: Ctx, name: Name, scene_id: TimelessSceneId, run_at: str, days: Days) -> Automation:
    """Schedule a scene to run at a local time on chosen weekdays; it starts enabled.

    Args:
        name: the automation's name, unique in the home, such as 'Bedtime'.
        scene_id: ID of the scene to run, such as 'SCN-10002'.
        run_at: local time as 'HH:MM' (24-hour), such as '22:30'.
        days: the weekdays it runs on, such as ['MO', 'TU', 'WE', 'TH', 'FR'].

    Returns:
        The new automation with its ID and next run.

    Raises:
        not_found: no scene has that ID.
        invalid_time: `run_at` is not a 24-hour 'HH:MM' time.
        duplicate_automation: an automation already has that name (any case).
    """
    ctx.get("scene", scene_id)
    at = parse_clock(run_at, "run_at").strftime("%H:%M")
    taken = ctx.db.execute("SELECT automation_id FROM automations WHERE lower(name) = lower(?)", (name,)).fetchone()
    if taken:
        raise ToolError("duplicate_automation", f"There is already an automation named {quote(name)} ({taken[0]}).",
                        hint="Choose another name.")
    ordered = ",".join(d for d in WEEKDAYS if d in days)
    automation_id = ctx.new_id("AUT")
    ctx.db.execute("INSERT INTO automations (automation_id, name, scene_id, run_at, days, enabled, created_at, "
                   "last_run_at) VALUES (?, ?, ?, ?, ?, 1, ?, NULL)",
                   (automation_id, name, scene_id, at, ordered, ctx.now_iso()))
    log(ctx, "settings", f"Automation '{name}' created")
    return _automation(ctx, automation_id)


@tools.tool(effect=WRITE, asks=[
    Ask("Turn off {automation_id} for now.", enabled=False),
    Ask("Enable {automation_id} again.", enabled=True),
    Ask("Pause {automation_id} while we're away.", enabled=False),
    Ask("Switch {automation_id} back on.", enabled=True),
], reply=[
    Ask("Done: {automation_id} is enabled and will run again.", enabled=True),
    Ask("{automation_id} is back on.", enabled=True),
    Ask("Done: {automation_id} is paused; it won't run until you enable it.", enabled=False),
    Ask("{automation_id} is disabled.", enabled=False),
])
def set_automation_enabled(ctx: Ctx, automation_id: AutomationId, enabled: bool) -> Automation:
    """Enable or disable an automation; a disabled one does not run until enabled again.

    Args:
        automation_id: ID of the automation, such as 'AUT-10001'.
        enabled: true to enable, false to disable.

    Returns:
        The automation with its new state and next run.

    Raises:
        not_found: no automation has that ID.
        already_enabled: it is already enabled and `enabled` is true.
        already_disabled: it is already disabled and `enabled` is false.
    """
    a = ctx.get("automation", automation_id)
    if bool(a["enabled"]) == enabled:
        code = "already_enabled" if enabled else "already_disabled"
        raise ToolError(code, f"The automation '{a['name']}' is already {'enabled' if enabled else 'disabled'}.",
                        hint="Nothing to do.")
    ctx.db.execute("UPDATE automations SET enabled = ? WHERE automation_id = ?", (int(enabled), automation_id))
    log(ctx, "settings", f"Automation '{a['name']}' {'enabled' if enabled else 'disabled'}")
    return _automation(ctx, automation_id)


@tools.tool(effect=WRITE, asks=[
    "Delete {automation_id}.",
    "Get rid of {automation_id}.",
], reply=["{automation_id} is deleted; its scene stays.", "Done: I removed {automation_id}."])
def delete_automation(ctx: Ctx, automation_id: AutomationId) -> DeletedAutomation:
    """Delete an automation; its scene stays.

    Args:
        automation_id: ID of the automation, such as 'AUT-10003'.

    Returns:
        The deleted automation's ID and name.

    Raises:
        not_found: no automation has that ID.
    """
    a = ctx.get("automation", automation_id)
    ctx.db.execute("DELETE FROM automations WHERE automation_id = ?", (automation_id,))
    log(ctx, "settings", f"Automation '{a['name']}' deleted")
    return DeletedAutomation(automation_id=automation_id, name=a["name"], deleted=True)
