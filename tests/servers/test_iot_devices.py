"""Behaviour tests of the iot_devices server: its world, its main flows and its failures.

Every test works on a fresh `Session("iot_devices", world=0)` and finds the devices it needs
through the server's own list tools, the way a model would.
"""

from __future__ import annotations

from typing import Any

import pytest

from prove.env import Session, registry

from .helpers import fails, ok, session_fixture

SERVER = registry.get("iot_devices")


s = session_fixture("iot_devices")


def devices(s: Session, **filters: Any) -> list[dict]:
    return ok(s, "list_devices", filters)["devices"]


def one(s: Session, **filters: Any) -> dict:
    return devices(s, **filters)[0]


def by_name(s: Session, name: str) -> dict:
    return next(d for d in devices(s) if d["name"] == name)


def lock_in(s: Session, state: str) -> dict:
    return next(d for d in devices(s, device_type="lock") if d["lock_state"] == state)


def code_of(s: Session, code_id: str) -> str:
    return ok(s, "get_lock_code", {"code_id": code_id})["code"]


# ----- the server and its world -----------------------------------------------------------------


def test_server_declares_documented_tools():
    visible = SERVER.visible_tools
    assert len(visible) >= 25
    assert SERVER.tools["get_lock_code"].hidden
    assert SERVER.tools["unlock_door"].sensitive_params == ("code",)
    assert SERVER.tools["add_lock_code"].sensitive_params == ("new_code",)
    assert set(SERVER.entities) == {"room", "device", "lock_code", "scene", "automation", "recording", "activity"}


def test_worlds_differ_by_seed_and_stay_small():
    with Session("iot_devices", world=0) as a, Session("iot_devices", world=1) as c:
        assert ok(a, "get_home")["owner_name"] != ok(c, "get_home")["owner_name"]
    assert SERVER.template(0).size < 250_000


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_world_has_a_realistic_home(seed):
    db = SERVER.template(seed).db

    def count(table: str, where: str = "1") -> int:
        return db.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0]

    assert count("homes") == 1
    assert 8 <= count("rooms") <= 12
    assert 30 <= count("devices") <= 60
    assert {r[0] for r in db.execute("SELECT DISTINCT type FROM devices")} >= {
        "light", "thermostat", "lock", "camera", "sensor", "plug"}
    assert count("devices", "online = 0") >= 2
    assert count("devices", "lock_state = 'jammed'") == 1
    assert count("devices", "lock_state = 'unlocked'") >= 1
    assert count("lock_codes", "name = 'Family'") == count("devices", "type = 'lock'")
    assert count("scenes") >= 4 and count("automations", "enabled = 1") >= 3
    assert count("activity", "occurred_at > '2026-03-16T09:00:00'") == 0
    assert count("recordings", "started_at > '2026-03-16T09:00:00'") == 0
    assert sum(count(t) for t in SERVER.template(seed).tables) >= 400


# What each scene of a world may set, by its name: the rooms it is about, or the device types its purpose takes.
SCENE_ROOMS = {"Focus Time": {"Office"}, "Movie Night": {"Living Room"}, "Dinner Time": {"Dining Room", "Kitchen"},
               "Evening Outdoor Lights": {"Front Porch", "Backyard", "Garage"}}
SCENE_TYPES = {"Quiet Time": {"speaker"}}


@pytest.mark.parametrize("seed", range(12))
def test_a_scene_of_the_world_sets_what_its_name_is_about(seed):
    """A home without an office had a 'Focus Time' scene that only switched off the speakers of
    the kitchen, the living room and the bedroom."""
    db = SERVER.template(seed).db
    for scene_id, name in db.execute("SELECT scene_id, name FROM scenes"):
        rows = db.execute("SELECT r.name, d.type FROM scene_actions a JOIN devices d USING (device_id) "
                          "JOIN rooms r USING (room_id) WHERE a.scene_id = ?", (scene_id,)).fetchall()
        rooms, types = {r[0] for r in rows}, {r[1] for r in rows}
        if name in SCENE_ROOMS:
            assert rooms & SCENE_ROOMS[name], (name, rooms)
        if name in SCENE_TYPES:
            assert types <= SCENE_TYPES[name], (name, types)


# ----- lights, plugs, speakers ------------------------------------------------------------------


def test_light_brightness_and_colour_change_what_later_reads_see(s):
    lamp = next(d for d in devices(s, device_type="light", online=True) if d["supports_color"] and d["power"] == "off")
    ok(s, "set_brightness", {"device_id": lamp["device_id"], "brightness": 35})
    ok(s, "set_color", {"device_id": lamp["device_id"], "color": "purple"})
    now = ok(s, "get_device", {"device_id": lamp["device_id"]})
    assert (now["power"], now["brightness"], now["color"]) == ("on", 35, "purple")
    ok(s, "set_power", {"device_id": lamp["device_id"], "on": False})
    assert ok(s, "get_device", {"device_id": lamp["device_id"]})["power"] == "off"


def test_whites_only_light_rejects_colours_but_takes_whites(s):
    bulb = next(d for d in devices(s, device_type="light", online=True) if not d["supports_color"])
    fails(s, "set_color", "color_not_supported", {"device_id": bulb["device_id"], "color": "red"})
    assert ok(s, "set_color", {"device_id": bulb["device_id"], "color": "daylight"})["color"] == "daylight"


def test_offline_and_wrong_type_devices_cannot_be_controlled(s):
    offline = one(s, device_type="light", online=False)
    fails(s, "set_power", "device_offline", {"device_id": offline["device_id"], "on": True})
    sensor = one(s, device_type="sensor")
    fails(s, "set_power", "unsupported_device", {"device_id": sensor["device_id"], "on": True})
    fails(s, "get_device", "not_found", {"device_id": "DEV-99999"})


def test_room_lights_skip_offline_lights(s):
    offline = one(s, device_type="light", online=False)
    room = offline["room_id"]
    result = ok(s, "set_room_lights", {"room_id": room, "on": True, "brightness": 50})
    assert offline["device_id"] in {k["device_id"] for k in result["skipped"]}
    for device_id in result["changed"]:
        d = ok(s, "get_device", {"device_id": device_id})
        assert (d["power"], d["brightness"]) == ("on", 50)
    assert ok(s, "get_device", {"device_id": offline["device_id"]})["power"] == "off"
    # the replies say how many lights (switched, offline), never the lists of their IDs
    assert (result["switched"], result["offline"]) == (len(result["changed"]), len(result["skipped"])) \
        and result["offline"] >= 1
    replies = [r.text for r in SERVER.tools["set_room_lights"].replies]
    assert all("{result.switched}" in t and "{result.changed}" not in t and "{result.skipped}" not in t
               for t in replies)
    fails(s, "set_room_lights", "brightness_when_off", {"room_id": room, "on": False, "brightness": 10})


def test_plug_draws_power_only_when_on(s):
    plug = next(d for d in devices(s, device_type="plug", online=True) if d["power"] == "off")
    on = ok(s, "set_power", {"device_id": plug["device_id"], "on": True})
    assert on["watts"] > 0
    assert ok(s, "set_power", {"device_id": plug["device_id"], "on": False})["watts"] == 0


# ----- thermostats and blinds -------------------------------------------------------------------


def test_thermostat_limits_off_and_eco(s):
    t = one(s, device_type="thermostat", online=True)
    tid = t["device_id"]
    fails(s, "set_temperature", "out_of_range", {"device_id": tid, "target_temp": t["max_temp"] + 5})
    assert ok(s, "set_temperature", {"device_id": tid, "target_temp": 71.26})["target_temp"] == 71.5
    ok(s, "set_thermostat_mode", {"device_id": tid, "mode": "off"})
    fails(s, "set_temperature", "thermostat_off", {"device_id": tid, "target_temp": 70})
    ok(s, "set_thermostat_mode", {"device_id": tid, "mode": "eco"})
    back = ok(s, "set_temperature", {"device_id": tid, "target_temp": 70})
    assert (back["mode"], back["target_temp"]) == ("auto", 70)


def test_room_warms_towards_target_as_time_passes(s):
    t = one(s, device_type="thermostat", online=True)
    ok(s, "set_thermostat_mode", {"device_id": t["device_id"], "mode": "heat"})
    target = min(t["max_temp"], t["current_temp"] + 4)
    ok(s, "set_temperature", {"device_id": t["device_id"], "target_temp": target})
    s.advance(3600)
    mid = ok(s, "get_device", {"device_id": t["device_id"]})["current_temp"]
    assert t["current_temp"] < mid <= target
    s.advance(4 * 3600)
    assert ok(s, "get_device", {"device_id": t["device_id"]})["current_temp"] == target


def test_blind_with_empty_battery_does_not_move(s):
    weak = next(d for d in devices(s, device_type="blind", online=True) if d["battery"] < 5)
    fails(s, "set_blind_position", "battery_low", {"device_id": weak["device_id"], "position": 100})
    good = next(d for d in devices(s, device_type="blind", online=True) if d["battery"] >= 5)
    assert ok(s, "set_blind_position", {"device_id": good["device_id"], "position": 30})["position"] == 30


# ----- locks and codes --------------------------------------------------------------------------


def test_lock_unlock_with_codes(s):
    door = lock_in(s, "locked")
    codes = ok(s, "list_lock_codes", {"device_id": door["device_id"]})["lock_codes"]
    family = next(c for c in codes if c["name"] == "Family")
    fails(s, "unlock_door", "wrong_code", {"device_id": door["device_id"], "code": "000000"})
    ok(s, "unlock_door", {"device_id": door["device_id"], "code": code_of(s, family["code_id"])})
    assert ok(s, "get_device", {"device_id": door["device_id"]})["lock_state"] == "unlocked"
    after = ok(s, "list_lock_codes", {"device_id": door["device_id"]})["lock_codes"]
    assert next(c for c in after if c["code_id"] == family["code_id"])["last_used_at"] == "2026-03-16T09:00:00"
    feed = ok(s, "list_activity", {"device_id": door["device_id"], "limit": 1})["activities"][0]
    assert "unlocked with the code 'Family'" in feed["message"]
    fails(s, "unlock_door", "already_unlocked", {"device_id": door["device_id"], "code": "1234"})
    ok(s, "lock_door", {"device_id": door["device_id"]})
    fails(s, "lock_door", "already_locked", {"device_id": door["device_id"]})


def test_expired_code_and_jammed_lock_fail(s):
    expired = next(c for c in ok(s, "list_lock_codes", {"status": "expired"})["lock_codes"])
    lock = ok(s, "get_device", {"device_id": expired["device_id"]})
    if lock["lock_state"] == "unlocked":
        ok(s, "lock_door", {"device_id": lock["device_id"]})
    if lock["lock_state"] != "jammed":
        fails(s, "unlock_door", "code_expired", {"device_id": lock["device_id"],
                                                 "code": code_of(s, expired["code_id"])})
    jammed = lock_in(s, "jammed")
    fails(s, "lock_door", "lock_jammed", {"device_id": jammed["device_id"]})


def test_hidden_door_codes_open_their_lock_and_leave_out_expired_ones(s):
    """unlock_door's code comes from get_door_codes (the user knows their codes); add_lock_code's
    new_code is a new secret that no lookup supplies."""
    assert SERVER.tools["get_door_codes"].hidden
    assert "get_door_codes" not in {t.name for t in SERVER.visible_tools}
    expired = ok(s, "list_lock_codes", {"status": "expired"})["lock_codes"]
    assert expired
    lock_id = expired[0]["device_id"]
    lock = ok(s, "get_device", {"device_id": lock_id})
    given = ok(s, "get_door_codes", {"device_id": lock_id})["codes"]
    assert given and {c["code_id"] for c in given}.isdisjoint(c["code_id"] for c in expired)
    if lock["lock_state"] == "jammed":
        lock = lock_in(s, "locked")
        given = ok(s, "get_door_codes", {"device_id": lock["device_id"]})["codes"]
    if lock["lock_state"] == "unlocked":
        ok(s, "lock_door", {"device_id": lock["device_id"]})
    for c in given:
        ok(s, "unlock_door", {"device_id": lock["device_id"], "code": c["code"]})
        ok(s, "lock_door", {"device_id": lock["device_id"]})


def test_add_temporary_code_then_use_it_and_it_expires(s):
    door = lock_in(s, "locked")
    new = ok(s, "add_lock_code", {"device_id": door["device_id"], "name": "Dog walker (Ana)", "new_code": "582914",
                                  "valid_until": "2026-03-16T18:00:00"})
    assert new["status"] == "active" and new["digits"] == 6 and "code" not in new
    fails(s, "add_lock_code", "duplicate_code", {"device_id": door["device_id"], "name": "Again", "new_code": "582914"})
    fails(s, "add_lock_code", "invalid_code", {"device_id": door["device_id"], "name": "Weak", "new_code": "1234"})
    fails(s, "add_lock_code", "past_date", {"device_id": door["device_id"], "name": "Past", "new_code": "582915",
                                            "valid_until": "2026-03-15T18:00:00"})
    s.advance(10 * 3600)  # 19:00, after the code ran out
    assert next(c for c in ok(s, "list_lock_codes", {"device_id": door["device_id"]})["lock_codes"]
                if c["code_id"] == new["code_id"])["status"] == "expired"
    fails(s, "unlock_door", "code_expired", {"device_id": door["device_id"], "code": "582914"})


def test_delete_codes_but_not_the_last_permanent_one(s):
    door = lock_in(s, "locked")
    codes = ok(s, "list_lock_codes", {"device_id": door["device_id"]})["lock_codes"]
    for c in codes:
        if c["valid_until"] is not None or c["name"] != "Family":
            ok(s, "delete_lock_code", {"code_id": c["code_id"]})
    family = next(c for c in codes if c["name"] == "Family")
    fails(s, "delete_lock_code", "last_permanent_code", {"code_id": family["code_id"]})
    assert ok(s, "list_lock_codes", {"device_id": door["device_id"]})["total"] == 1


# ----- home mode and cameras --------------------------------------------------------------------


def test_away_mode_needs_locked_doors_and_arms_cameras(s):
    fails(s, "set_home_mode", "doors_unlocked", {"mode": "away"})
    for lock in devices(s, device_type="lock", online=True):
        if lock["lock_state"] == "unlocked":
            ok(s, "lock_door", {"device_id": lock["device_id"]})
    change = ok(s, "set_home_mode", {"mode": "away"})
    assert change["previous_mode"] == "home"
    home = ok(s, "get_home")
    assert home["mode"] == "away" and home["unlocked_doors"] == 0
    cams = devices(s, device_type="camera", online=True)
    assert all(c["armed"] for c in cams)
    fails(s, "set_home_mode", "already_in_mode", {"mode": "away"})
    assert ok(s, "list_activity",
              {"kind": "mode", "limit": 1})["activities"][0]["message"] == "Home mode changed to 'away'"


def test_vacation_puts_thermostats_in_eco(s):
    for lock in devices(s, device_type="lock", online=True):
        if lock["lock_state"] == "unlocked":
            ok(s, "lock_door", {"device_id": lock["device_id"]})
    change = ok(s, "set_home_mode", {"mode": "vacation"})
    assert change["thermostats_set_to_eco"]
    for device_id in change["thermostats_set_to_eco"]:
        assert ok(s, "get_device", {"device_id": device_id})["mode"] == "eco"


def test_recordings_list_and_delete(s):
    clips = ok(s, "list_recordings", {"limit": 200})["recordings"]
    assert clips and clips == sorted(clips, key=lambda c: c["started_at"], reverse=True)
    plain = next(c for c in clips if not c["protected"])
    kept = next(c for c in clips if c["protected"])
    assert ok(s, "delete_recording", {"recording_id": plain["recording_id"]})["deleted"]
    fails(s, "delete_recording", "recording_protected", {"recording_id": kept["recording_id"]})
    assert ok(s, "list_recordings", {"limit": 200})["total"] == len(clips) - 1
    lamp = one(s, device_type="light")
    fails(s, "list_recordings", "unsupported_device", {"device_id": lamp["device_id"]})


# ----- scenes and automations ---------------------------------------------------------------------


def test_scene_with_unreachable_devices_needs_allow_partial(s):
    night = next(x for x in ok(s, "list_scenes")["scenes"] if x["name"] == "Good Night")
    fails(s, "activate_scene", "devices_unavailable", {"scene_id": night["scene_id"]})
    run = ok(s, "activate_scene", {"scene_id": night["scene_id"], "allow_partial": True})
    assert not run["complete"]
    reasons = {k["reason"] for k in run["skipped"]}
    assert {"offline", "jammed"} <= reasons
    assert all(d["power"] == "off" for d in devices(s, device_type="light", online=True))
    locks = devices(s, device_type="lock")
    assert all(d["lock_state"] in ("locked", "jammed") for d in locks)
    assert ok(s, "get_scene", {"scene_id": night["scene_id"]})["last_activated_at"] == "2026-03-16T09:00:00"


def test_create_scene_captures_state_and_brings_it_back(s):
    lamp = next(d for d in devices(s, device_type="light", online=True) if d["supports_color"])
    ok(s, "set_color", {"device_id": lamp["device_id"], "color": "blue"})
    ok(s, "set_brightness", {"device_id": lamp["device_id"], "brightness": 20})
    scene = ok(s, "create_scene", {"name": "Reading Nook", "device_ids": [lamp["device_id"]]})
    assert scene["actions"][0]["color"] == "blue" and scene["actions"][0]["brightness"] == 20
    fails(s, "create_scene", "duplicate_scene", {"name": "reading nook", "device_ids": [lamp["device_id"]]})
    sensor = one(s, device_type="sensor", online=True)
    fails(s, "create_scene", "unsupported_device", {"name": "Sensors", "device_ids": [sensor["device_id"]]})
    ok(s, "set_power", {"device_id": lamp["device_id"], "on": False})
    run = ok(s, "activate_scene", {"scene_id": scene["scene_id"]})
    assert run["complete"] and run["changed"] == [lamp["device_id"]]
    back = ok(s, "get_device", {"device_id": lamp["device_id"]})
    assert (back["power"], back["color"], back["brightness"]) == ("on", "blue", 20)


def test_automation_runs_its_scene_when_the_clock_passes_its_time(s):
    lamp = next(d for d in devices(s, device_type="light", online=True) if d["power"] == "off")
    ok(s, "set_brightness", {"device_id": lamp["device_id"], "brightness": 90})
    scene = ok(s, "create_scene", {"name": "Lamp on", "device_ids": [lamp["device_id"]]})
    ok(s, "set_power", {"device_id": lamp["device_id"], "on": False})
    auto = ok(s, "create_automation", {"name": "Mid-morning lamp", "scene_id": scene["scene_id"], "run_at": "10:15",
                                       "days": ["MO"]})
    assert auto["next_run_at"] == "2026-03-16T10:15:00" and auto["enabled"]
    fails(s, "create_automation", "invalid_time", {"name": "Bad", "scene_id": scene["scene_id"], "run_at": "25:00",
                                                   "days": ["MO"]})
    s.advance(3600)  # 10:00: not yet
    assert ok(s, "get_device", {"device_id": lamp["device_id"]})["power"] == "off"
    s.advance(30 * 60)  # 10:30
    assert ok(s, "get_device", {"device_id": lamp["device_id"]})["power"] == "on"
    listed = next(a for a in ok(s, "list_automations")["automations"] if a["automation_id"] == auto["automation_id"])
    assert listed["last_run_at"] == "2026-03-16T10:15:00" and listed["next_run_at"] == "2026-03-23T10:15:00"
    assert "Mid-morning lamp" in ok(s, "list_activity", {"kind": "automation", "limit": 1})["activities"][0]["message"]
    fails(s, "delete_scene", "scene_in_use", {"scene_id": scene["scene_id"]})


def test_disabled_automation_does_not_run(s):
    lamp = next(d for d in devices(s, device_type="light", online=True) if d["power"] == "off")
    ok(s, "set_brightness", {"device_id": lamp["device_id"], "brightness": 90})
    scene = ok(s, "create_scene", {"name": "Lamp on", "device_ids": [lamp["device_id"]]})
    ok(s, "set_power", {"device_id": lamp["device_id"], "on": False})
    auto = ok(s, "create_automation",
              {"name": "Lamp", "scene_id": scene["scene_id"], "run_at": "09:30", "days": ["MO", "TU"]})
    off = ok(s, "set_automation_enabled", {"automation_id": auto["automation_id"], "enabled": False})
    assert off["next_run_at"] is None
    fails(s, "set_automation_enabled", "already_disabled", {"automation_id": auto["automation_id"],
                                                            "enabled": False})
    s.advance(3600)
    assert ok(s, "get_device", {"device_id": lamp["device_id"]})["power"] == "off"
    ok(s, "delete_automation", {"automation_id": auto["automation_id"]})
    assert ok(s, "delete_scene", {"scene_id": scene["scene_id"]})["deleted"]


# ----- rooms, readings, energy, firmware --------------------------------------------------------


def test_add_room_and_move_a_device_into_it(s):
    room = ok(s, "add_room", {"name": "Sunroom", "floor": "Ground floor"})
    fails(s, "add_room", "duplicate_room", {"name": "sunroom"})
    lamp = one(s, device_type="light")
    moved = ok(s, "move_device", {"device_id": lamp["device_id"], "room_id": room["room_id"]})
    assert moved["room_name"] == "Sunroom"
    fails(s, "move_device", "same_room", {"device_id": lamp["device_id"], "room_id": room["room_id"]})
    assert [d["device_id"] for d in devices(s, room_id=room["room_id"])] == [lamp["device_id"]]
    other = devices(s)[1]
    fails(s, "rename_device", "duplicate_name", {"device_id": lamp["device_id"], "name": other["name"].upper()})


def test_sensor_readings_and_energy(s):
    sensor = next(d for d in devices(s, device_type="sensor") if d["sensor_kind"] == "temperature")
    r = ok(s, "get_sensor_readings", {"device_id": sensor["device_id"], "start": "2026-03-14T00:00:00"})
    assert r["readings"] and all(x["recorded_at"] >= "2026-03-14" for x in r["readings"])
    assert r["min_temperature_f"] <= r["average_temperature_f"] <= r["max_temperature_f"]
    lamp = one(s, device_type="light")
    fails(s, "get_sensor_readings", "unsupported_device", {"device_id": lamp["device_id"]})
    week = ok(s, "get_energy_usage")
    assert (week["start_date"], week["end_date"]) == ("2026-03-09", "2026-03-15")
    assert week["total_kwh"] > 0 and week["devices"][0]["kwh"] >= week["devices"][-1]["kwh"]
    fails(s, "get_energy_usage", "invalid_date_range", {"start_date": "2026-03-10", "end_date": "2026-03-01"})


def test_firmware_update(s):
    stale = next(d for d in devices(s, online=True) if d["update_available"]
                 and (d["battery"] is None or d["battery"] >= 20))
    done = ok(s, "update_firmware", {"device_id": stale["device_id"]})
    assert done["firmware"] != done["previous_firmware"]
    assert not ok(s, "get_device", {"device_id": stale["device_id"]})["update_available"]
    fails(s, "update_firmware", "already_up_to_date", {"device_id": stale["device_id"]})


def test_one_set_of_time_codes(s):
    lock = ok(s, "list_devices", {"device_type": "lock", "online": True})["devices"][0]
    sensor = next(d for d in ok(s, "list_devices", {"device_type": "sensor"})["devices"]
                  if d["sensor_kind"] == "temperature")
    fails(s, "list_activity", "invalid_time", {"since": "2026-03-15T18:00:00Z"})
    fails(s, "get_sensor_readings", "invalid_time", {"device_id": sensor["device_id"], "start": "yesterday"})
    fails(s, "get_energy_usage", "invalid_date", {"start_date": "2026-02-30"})
    fails(s, "list_recordings", "invalid_date", {"day": "15 March"})
    fails(s, "add_lock_code", "invalid_time", {"device_id": lock["device_id"], "name": "Guest", "new_code": "582914",
                                               "valid_until": "2026-03-22T18:00:00+01:00"})


def test_recordings_are_named_by_camera_and_time(s):
    """A clip is called 'Backyard Camera, March 13 at 10:30 AM', never by a raw timestamp."""
    assert SERVER.entities["recording"].label == "label"
    for rec in ok(s, "list_recordings", {"limit": 50})["recordings"]:
        assert rec["label"].startswith(rec["camera_name"] + ", ")
        assert "T" not in rec["label"].split(", ", 1)[1] and rec["label"].endswith(("AM", "PM"))


def test_new_automations_say_their_days(s):
    scene = ok(s, "list_scenes")["scenes"][0]["scene_id"]
    weekend = ok(s, "create_automation", {"name": "Late evening", "scene_id": scene, "run_at": "21:30",
                                          "days": ["SA", "SU"]})
    assert weekend["schedule"] == "on weekends"
    odd = ok(s, "create_automation", {"name": "Gym days", "scene_id": scene, "run_at": "06:30",
                                      "days": ["FR", "MO", "WE"]})
    assert odd["schedule"] == "on Mondays, Wednesdays and Fridays"


def test_an_empty_listing_says_there_is_none_in_its_text(s):
    """"automations_text": "0 automations: " read as a sentence cut off: an empty listing says "no ..."."""
    autos = ok(s, "list_automations", {"enabled": False})
    if autos["total"]:
        for a in autos["automations"]:
            ok(s, "set_automation_enabled", {"automation_id": a["automation_id"], "enabled": True})
        autos = ok(s, "list_automations", {"enabled": False})
    assert autos["total"] == 0 and autos["automations_text"] == "no automations"
    s.advance(3600)
    log = ok(s, "list_activity", {"since": "2026-03-16T09:30:00"})
    assert log["total"] == 0 and log["activities_text"] == "no entries"


def test_one_activity_entry_says_what_happened(s):
    """"Show me the recent mode events." answered "The activity log has 1 entry: today at 6:50 AM": one entry is
    said with what happened, as each of several is."""
    one = ok(s, "list_activity", {"kind": "mode", "limit": 1})
    assert one["total"] >= 1 and len(one["activities"]) == 1
    assert one["activities"][0]["message"] in one["activities_text"], one["activities_text"]
    last = one["activities"][0]
    only = ok(s, "list_activity", {"kind": "mode", "since": last["occurred_at"]})
    assert only["total"] == 1 and only["activities_text"].startswith(f"1 entry: {last['message']} on "), only
