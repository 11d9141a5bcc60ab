"""Smart home tools: the home and its mode, rooms, the activity feed and energy use."""

from __future__ import annotations

from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso, parse_date, parse_time, quote

from .server import (
    ActivityId,
    ActivityKind,
    DeviceId,
    DeviceType,
    HomeMode,
    Limit,
    Name,
    RoomId,
    Skipped,
    log,
)

tools = Toolset("home")

# ----- models -------------------------------------------------------------------------------------


class Home(BaseModel):
    name: str
    owner_name: str
    address: str
    timezone: str
    mode: HomeMode = Field(description="'home', 'away', 'night' or 'vacation'")
    mode_changed_at: str
    electricity_rate: float = Field(description="dollars per kWh")
    rooms: int
    devices: int
    devices_offline: int
    unlocked_doors: int
    jammed_locks: int
    armed_cameras: int


class ModeChange(BaseModel):
    previous_mode: HomeMode
    mode: HomeMode
    cameras_armed: list[DeviceId] = Field(description="cameras armed by the change")
    cameras_disarmed: list[DeviceId] = Field(description="cameras disarmed by the change")
    thermostats_set_to_eco: list[DeviceId]
    skipped: list[Skipped] = Field(description="devices the change could not reach")


class Room(BaseModel):
    room_id: RoomId
    name: str
    floor: str
    devices: int
    devices_offline: int
    lights_on: int
    temperature_f: float | None = Field(description="latest temperature in the room, °F, if it has a sensor")


class RoomList(BaseModel):
    rooms: list[Room]
    total: int
    rooms_text: str = Field(description="the rooms in words, such as '2 rooms: the Kids' Room, at 68°F (2 devices); "
                                        "the Office (4 devices, 1 light on)'")


def _rooms_text(rooms: list[Room], temperatures: bool) -> str:
    """'4 rooms: the Primary Bedroom, at 65.5°F (6 devices, 2 of them offline); the Office, no
    temperature reading (4 devices, 1 light on); ...'; a room without a reading says so only where
    `temperatures` are asked for."""
    said = []
    for r in rooms:
        temp = f", at {r.temperature_f:g}°F" if r.temperature_f is not None else \
            ", no temperature reading" if temperatures else ""
        notes = [f"{r.devices} device{'' if r.devices == 1 else 's'}"]
        notes += [f"{r.devices_offline} of them offline"] if r.devices_offline else []
        notes += [f"{r.lights_on} light{'' if r.lights_on == 1 else 's'} on"] if r.lights_on else []
        said.append(f"the {r.name}{temp} ({', '.join(notes)})")
    return f"{len(rooms)} room{'' if len(rooms) == 1 else 's'}: " + "; ".join(said) if rooms else "no rooms"


class Activity(BaseModel):
    activity_id: ActivityId
    occurred_at: str
    kind: ActivityKind
    device_id: DeviceId | None
    message: str


class ActivityList(BaseModel):
    activities: list[Activity]
    total: int = Field(description="how many entries matched, before `limit`")
    activities_text: str = Field(description="the latest entries in words, such as '2 entries: Motion in Living "
                                             "Room on March 14 at 8:49 PM; Front Door Lock locked on ...'")


class DeviceEnergy(BaseModel):
    device_id: DeviceId
    name: str
    type: DeviceType
    kwh: float
    cost: float


class EnergyReport(BaseModel):
    start_date: str
    end_date: str
    devices: list[DeviceEnergy] = Field(description="metered devices, biggest users first")
    total: int
    total_kwh: float
    total_cost: float = Field(description="dollars, at the home's electricity rate")
    usage_text: str = Field(description="the biggest users in words, such as 'the Upstairs Thermostat used 196.6 "
                                        "kWh ($46.01), the Space Heater Plug 57.8 kWh ($13.52), ...'")


def _usage_text(items: list[DeviceEnergy], shown: int = 4) -> str:
    """'the Upstairs Thermostat used 196.6 kWh ($46.01), the Space Heater Plug 57.8 kWh ($13.52) and 20
    more devices the rest'."""
    said = [f"the {d.name}{' used' if i == 0 else ''} {d.kwh:,.1f} kWh (${d.cost:,.2f})"
            for i, d in enumerate(items[:shown])]
    if len(items) > shown:
        said.append(f"{len(items) - shown} more device{'' if len(items) - shown == 1 else 's'} the rest")
    return (said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]) if said else "nothing"


# ----- helpers ------------------------------------------------------------------------------------


def _room(ctx: Ctx, room_id: str) -> Room:
    r = ctx.get("room", room_id)
    counts = ctx.db.execute(
        "SELECT count(*), coalesce(sum(online = 0), 0), coalesce(sum(type = 'light' AND power = 'on'), 0) "
        "FROM devices WHERE room_id = ?", (room_id,)).fetchone()
    temp = ctx.db.execute(
        "SELECT current_temp FROM devices WHERE room_id = ? AND current_temp IS NOT NULL "
        "ORDER BY type = 'sensor' DESC, device_id LIMIT 1", (room_id,)).fetchone()
    return Room(room_id=r["room_id"], name=r["name"], floor=r["floor"], devices=counts[0], devices_offline=counts[1],
                lights_on=counts[2], temperature_f=temp[0] if temp else None)


def _home(ctx: Ctx) -> Home:
    h = ctx.db.execute("SELECT * FROM homes").fetchone()
    c = ctx.db.execute(
        "SELECT count(*), coalesce(sum(online = 0), 0), coalesce(sum(lock_state = 'unlocked'), 0), "
        "coalesce(sum(lock_state = 'jammed'), 0), coalesce(sum(armed = 1), 0) FROM devices").fetchone()
    (rooms,) = ctx.db.execute("SELECT count(*) FROM rooms").fetchone()
    return Home(name=h["name"], owner_name=h["owner_name"], address=h["address"], timezone=h["timezone"],
                mode=h["mode"], mode_changed_at=h["mode_changed_at"], electricity_rate=h["electricity_rate"],
                rooms=rooms, devices=c[0], devices_offline=c[1], unlocked_doors=c[2], jammed_locks=c[3],
                armed_cameras=c[4])


# ----- the home -----------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What mode is the house in right now?",
    "Give me a quick overview of my smart home: anything offline or unlocked?",
    "Is everything OK at home?",
], reply=["The home is in {result.mode} mode; {result.devices_offline} of its {result.devices} devices are offline, "
          "{result.unlocked_doors} doors are unlocked and {result.jammed_locks} locks are jammed."])
def get_home(ctx: Ctx) -> Home:
    """Show the home: its mode, and how many devices are offline, doors unlocked, locks jammed, cameras armed.

    Returns:
        The home's name, owner, address, mode ('home', 'away', 'night', 'vacation'), electricity
        rate, and counts of rooms, devices, offline devices, unlocked doors, jammed locks and armed cameras.
    """
    return _home(ctx)


@tools.tool(effect=WRITE, needs=["lock_door"], asks=[
    Ask("We're heading out, switch the home to away.", mode="away"),
    Ask("Put the house in night mode.", mode="night"),
    Ask("We're leaving for two weeks; set the home to vacation mode.", mode="vacation"),
    Ask("I'm back, set the house to home mode.", mode="home"),
    "Set the house to {mode} mode.",
], reply=["The home is in {mode} mode now.", "Done: switched from {result.previous_mode} to {mode} mode."])
def set_home_mode(ctx: Ctx, mode: HomeMode) -> ModeChange:
    """Change the home's mode; cameras and thermostats follow it.

    'away' and 'vacation' arm every camera and need every door locked first; 'vacation' also
    puts heating and cooling thermostats in 'eco'. 'night' arms the outdoor cameras. 'home'
    disarms the indoor cameras (outdoor ones stay as they are). Offline cameras and thermostats
    are skipped and reported.

    Args:
        mode: the new mode: 'home', 'away', 'night' or 'vacation'.

    Returns:
        The previous and new mode, the cameras armed or disarmed, the thermostats set to eco, and
        the devices that could not be reached.

    Raises:
        doors_unlocked: 'away' or 'vacation' was asked while a reachable door lock is unlocked.
        already_in_mode: the home is already in that mode.
    """
    home = ctx.db.execute("SELECT home_id, mode FROM homes").fetchone()
    if home["mode"] == mode:
        raise ToolError("already_in_mode", f"The home is already in '{mode}' mode.", hint="Nothing to do.")
    if mode in ("away", "vacation"):
        unlocked = ctx.db.execute("SELECT device_id, name FROM devices WHERE type = 'lock' AND online = 1 "
                                  "AND lock_state = 'unlocked' ORDER BY device_id").fetchall()
        if unlocked:
            names = ", ".join(f"{r['name']} ({r['device_id']})" for r in unlocked)
            raise ToolError("doors_unlocked", f"Cannot switch to '{mode}' while doors are unlocked: {names}.",
                            hint="Lock them with lock_door first, then set the mode again.")
    cams = ctx.db.execute("SELECT device_id, name, online, armed, placement FROM devices WHERE type = 'camera' "
                          "ORDER BY device_id").fetchall()
    armed: list[str] = []
    disarmed: list[str] = []
    eco: list[str] = []
    skipped: list[Skipped] = []
    for c in cams:
        want = {"away": True, "vacation": True, "night": True if c["placement"] == "outdoor" else None,
                "home": False if c["placement"] == "indoor" else None}[mode]
        if want is None or bool(c["armed"]) == want:
            continue
        if not c["online"]:
            skipped.append(Skipped(device_id=c["device_id"], name=c["name"], reason="offline"))
            continue
        ctx.db.execute("UPDATE devices SET armed = ? WHERE device_id = ?", (int(want), c["device_id"]))
        (armed if want else disarmed).append(c["device_id"])
    if mode == "vacation":
        for t in ctx.db.execute("SELECT device_id, name, online FROM devices WHERE type = 'thermostat' "
                                "AND mode IN ('heat', 'cool', 'auto') ORDER BY device_id").fetchall():
            if not t["online"]:
                skipped.append(Skipped(device_id=t["device_id"], name=t["name"], reason="offline"))
                continue
            ctx.db.execute("UPDATE devices SET mode = 'eco' WHERE device_id = ?", (t["device_id"],))
            eco.append(t["device_id"])
    ctx.db.execute("UPDATE homes SET mode = ?, mode_changed_at = ?", (mode, ctx.now_iso()))
    log(ctx, "mode", f"Home mode changed to '{mode}'")
    return ModeChange(previous_mode=home["mode"], mode=mode, cameras_armed=armed, cameras_disarmed=disarmed,
                      thermostats_set_to_eco=eco, skipped=skipped)


# ----- rooms --------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "Which rooms are set up in the app?",
    # a floor said as people say where rooms are, not "the rooms of the floor 'Ground floor'"
    Ask("Show me the rooms on the ground floor with their temperatures.", floor="Ground floor"),
    Ask("Which rooms are upstairs, and how warm are they?", floor="Upstairs"),
    Ask("Show me the rooms in the basement with their temperatures.", floor="Basement"),
    Ask("What rooms do I have outdoors?", floor="Outdoors"),
], reply=[
    Ask("You have {result.rooms_text}.", floor=None),
    "{floor} has {result.rooms_text}.",
    Ask("On the ground floor you have {result.rooms_text}.", floor="Ground floor"),
    Ask("Upstairs you have {result.rooms_text}.", floor="Upstairs"),
    Ask("In the basement you have {result.rooms_text}.", floor="Basement"),
    Ask("Outdoors you have {result.rooms_text}.", floor="Outdoors"),
])
def list_rooms(ctx: Ctx, floor: str | None = None) -> RoomList:
    """List the rooms of the home with device counts, lights on and the latest temperature.

    Args:
        floor: only rooms on this floor, such as 'Upstairs' ('Ground floor', 'Upstairs',
            'Basement', 'Outdoors').

    Returns:
        The rooms (ID, name, floor, number of devices, offline devices, lights on, temperature)
        and how many there are.
    """
    if floor is None:
        rows = ctx.db.execute("SELECT room_id FROM rooms ORDER BY room_id").fetchall()
    else:
        rows = ctx.db.execute("SELECT room_id FROM rooms WHERE lower(floor) = lower(?) ORDER BY room_id",
                              (floor.strip(),)).fetchall()
    rooms = [_room(ctx, r[0]) for r in rows]
    return RoomList(rooms=rooms, total=len(rooms), rooms_text=_rooms_text(rooms, floor is not None))


@tools.tool(effect=WRITE, values={
    # a room and the floor it is on; a request that names no floor gets the ground floor
    "name, floor": [("Sunroom", "Ground floor"), ("Mudroom", "Ground floor"), ("Pantry", "Ground floor"),
                    ("Playroom", "Ground floor"), ("Home Office", "Upstairs"), ("Guest Room", "Upstairs"),
                    ("Nursery", "Upstairs"), ("Attic", "Upstairs"), ("Laundry Room", "Basement"),
                    ("Home Gym", "Basement"), ("Patio", "Outdoors"), ("Garden Shed", "Outdoors")],
}, asks=[
    Ask("Add a room called '{name}' upstairs.", floor="Upstairs"),
    Ask("Add a room called '{name}' in the basement.", floor="Basement"),
    Ask("Add '{name}' as a room outdoors.", floor="Outdoors"),
    Ask("I set up a new room downstairs, '{name}'; can you add it?", floor="Ground floor"),
    Ask("Create a room named '{name}' on the ground floor.", floor="Ground floor"),
], reply=["The room {result.name} is added; it has no devices yet.",
          # the floor said as people say where a room is (not "on Basement", nor "(Ground floor)")
          Ask("Done: {result.name} is set up on the ground floor.", floor="Ground floor"),
          Ask("Done: {result.name} is set up upstairs.", floor="Upstairs"),
          Ask("Done: {result.name} is set up in the basement.", floor="Basement"),
          Ask("Done: {result.name} is set up outdoors.", floor="Outdoors")])
def add_room(ctx: Ctx, name: Name, floor: str = "Ground floor") -> Room:
    """Create a room, to move devices into it with move_device.

    Args:
        name: the room's name, unique in the home, such as 'Sunroom'.
        floor: the floor it is on, such as 'Ground floor' (the default), 'Upstairs', 'Basement' or 'Outdoors'.

    Returns:
        The new room with its ID (it has no devices yet).

    Raises:
        duplicate_room: a room already has that name (any case).
        invalid_name: the floor is empty or longer than 40 characters.
    """
    floor = floor.strip()
    if not floor or len(floor) > 40:
        raise ToolError("invalid_name", "A floor name is 1 to 40 characters.", hint="Use a name such as 'Upstairs'.")
    taken = ctx.db.execute("SELECT room_id FROM rooms WHERE lower(name) = lower(?)", (name,)).fetchone()
    if taken:
        raise ToolError("duplicate_room", f"There is already a room named {quote(name)} ({taken[0]}).",
                        hint="Use the existing room or choose another name.")
    room_id = ctx.new_id("RM")
    ctx.db.execute("INSERT INTO rooms (room_id, name, floor, created_at) VALUES (?, ?, ?, ?)",
                   (room_id, name, floor, ctx.now_iso()))
    log(ctx, "settings", f"Room '{name}' added")
    return _room(ctx, room_id)


# ----- activity and energy ------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What's happened at home since {since}?",
    "Show me the recent {kind} events.",
    Ask("Any motion at home lately?", kind="motion"),
    "Any activity on {device_id} lately?",
], reply=["The activity log has {result.activities_text}."])
def list_activity(ctx: Ctx, device_id: DeviceId | None = None, kind: ActivityKind | None = None,
                  since: str | None = None, limit: Limit = 30) -> ActivityList:
    """Read the home's activity feed, newest first: motion, doors, locks, cameras, scenes, automations, mode changes.

    Args:
        device_id: only entries about this device, such as 'DEV-10001'.
        kind: only entries of this kind: 'motion', 'contact', 'lock', 'camera', 'device', 'mode',
            'scene', 'automation', 'code' or 'settings'.
        since: only entries at or after this time, such as '2026-03-15T18:00:00'.
        limit: at most this many entries (1-200, default 30).

    Returns:
        The entries (ID, time, kind, device, message), newest first, and how many matched.

    Raises:
        not_found: `device_id` does not exist.
        invalid_time: `since` is not an ISO 8601 local time.
    """
    where = Where()
    where.entity(ctx, "device", "device_id", device_id)
    where.eq("kind", kind)
    if since is not None:
        where.add("occurred_at >= ?", iso(parse_time(since, "since")))
    total, rows = where.page(ctx.db, "activity", "occurred_at DESC, activity_id DESC", limit)
    return ActivityList(activities=[Activity(activity_id=r["activity_id"], occurred_at=r["occurred_at"], kind=r["kind"],
                                             device_id=r["device_id"], message=r["message"]) for r in rows],
                        total=total, activities_text=_activities_text(rows, total))


def _activities_text(rows: list, total: int, shown: int = 5) -> str:
    """"8 entries, all 'Motion in Living Room': on March 14 at 8:49 PM; on March 14 at 3:46 PM; and 6
    more", "1 entry: Mode set to Away on March 16 at 6:50 AM", or "71 entries, the latest: Front Door Lock unlocked
    from the keypad on March 16 at ..."."""
    def when(text: str) -> str:
        at = datetime.fromisoformat(text)
        return f"on {at:%B} {at.day} at {at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"

    if not rows:
        return "no entries"
    same = total == len(rows) > 1 and len({r["message"] for r in rows}) == 1
    said = [when(r["occurred_at"]) if same else f"{r['message']} {when(r['occurred_at'])}" for r in rows[:shown]]
    more = f"; and {total - len(said)} more" if total > len(said) else ""
    head = f"{total} entr{'y' if total == 1 else 'ies'}"
    head += f", all '{rows[0]['message']}'" if same else ", the latest" if more else ""
    return f"{head}: " + "; ".join(said) + more


@tools.tool(effect=READ, asks=[
    "How much electricity did we use between {start_date} and {end_date}?",
    # (the reading covers the last seven full days: on a Monday, "this week" would be one morning)
    "What's used the most energy in {room_id} over the last week?",
    # (only a metered device has a power bill: a lock or a camera draws no counted power)
    Ask("How much has {device_id} cost me in power lately?",
        fits={"device_id": "type IN ('light', 'plug', 'thermostat', 'speaker')"}),
], reply=[
    "From {result.start_date} to {result.end_date} you used {result.total_kwh} kWh, costing ${result.total_cost}: "
    "{result.usage_text}.",
    Ask("From {result.start_date} to {result.end_date}, {result.usage_text}.", **{"result.total": 1}),
])
def get_energy_usage(ctx: Ctx, start_date: str | None = None, end_date: str | None = None,
                     room_id: RoomId | None = None, device_id: DeviceId | None = None) -> EnergyReport:
    """Report electricity use of metered devices (lights, plugs, thermostats, speakers) per device over whole days.

    Usage is recorded per complete day, so today is not included yet.

    Args:
        start_date: first day, such as '2026-03-09'; default seven days before today.
        end_date: last day, such as '2026-03-15'; default yesterday.
        room_id: only devices in this room, such as 'RM-10003'.
        device_id: only this device, such as 'DEV-10028'.

    Returns:
        Each metered device's kWh and cost over the days (biggest first), the totals, and the dates used.

    Raises:
        not_found: `room_id` or `device_id` does not exist.
        invalid_date: `start_date` or `end_date` is not an ISO date.
        invalid_date_range: `start_date` is after `end_date`.
    """
    today = ctx.today()
    end = parse_date(end_date, "end_date") if end_date is not None else today - timedelta(days=1)
    start = parse_date(start_date, "start_date") if start_date is not None else min(end, today - timedelta(days=7))
    if start > end:
        raise ToolError("invalid_date_range", f"start_date {start} is after end_date {end}.",
                        hint="Give a start date on or before the end date.")
    where = Where()
    where.add("e.day BETWEEN ? AND ?", start.isoformat(), end.isoformat())
    where.entity(ctx, "room", "d.room_id", room_id)
    where.entity(ctx, "device", "d.device_id", device_id)
    (rate,) = ctx.db.execute("SELECT electricity_rate FROM homes").fetchone()
    rows = ctx.db.execute(
        f"SELECT d.device_id, d.name, d.type, round(sum(e.kwh), 3) AS kwh FROM energy_usage e "
        f"JOIN devices d USING (device_id) WHERE {where.sql} GROUP BY d.device_id "
        f"ORDER BY kwh DESC, d.device_id", where.params).fetchall()
    items = [DeviceEnergy(device_id=r["device_id"], name=r["name"], type=r["type"], kwh=r["kwh"],
                          cost=round(r["kwh"] * rate, 2)) for r in rows]
    total_kwh = round(sum(i.kwh for i in items), 3)
    return EnergyReport(start_date=start.isoformat(), end_date=end.isoformat(), devices=items, total=len(items),
                        total_kwh=total_kwh, total_cost=round(total_kwh * rate, 2), usage_text=_usage_text(items))
