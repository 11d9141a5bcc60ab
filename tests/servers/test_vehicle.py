"""Behaviour tests of the vehicle server: its world, its main flows and its state-dependent failures.

Every test works on a fresh `Session("vehicle", world=0)` and finds what it needs through the
server's own read tools, the way a model would.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from prove.env import Session, registry
from prove.env.asks import as_ask

from .helpers import fails, ok, session_fixture

SERVER = registry.get("vehicle")


s = session_fixture("vehicle")


def place(s: Session, category: str, index: int = 0) -> dict:
    return ok(s, "search_places", {"category": category, "limit": 50})["places"][index]


def ready_to_drive(s: Session) -> None:
    """Engine on, cable released, doors locked and trunk shut, in Drive."""
    st = ok(s, "get_vehicle_status")
    if st["trunk_open"]:
        ok(s, "close_trunk")
    if not st["locked"]:
        ok(s, "lock_doors")
    if st["engine"] == "off":
        ok(s, "start_engine")
    if ok(s, "get_charge_state")["plugged_in"]:
        ok(s, "release_charge_cable")
    ok(s, "shift_gear", {"gear": "D"})


def drive_to(s: Session, place_id: str) -> dict:
    ok(s, "set_navigation_destination", {"place_id": place_id})
    ready_to_drive(s)
    trip = ok(s, "start_drive")
    s.advance(trip["duration_min"] * 60)
    return trip


# ----- the server and its world -----------------------------------------------------------------


def test_server_declares_documented_tools():
    visible = SERVER.visible_tools
    assert len(visible) >= 20
    assert SERVER.tools["get_valet_pin"].hidden
    assert SERVER.tools["enable_valet_mode"].sensitive_params == ("pin",)
    assert SERVER.tools["disable_valet_mode"].sensitive_params == ("pin",)
    assert SERVER.on_advance is not None


def test_worlds_differ_by_seed_and_stay_small():
    with Session("vehicle", world=0) as a, Session("vehicle", world=1) as c:
        assert ok(a, "get_vehicle_status")["vin"] != ok(c, "get_vehicle_status")["vin"]
    assert SERVER.template(0).size < 250_000


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_world_is_a_consistent_car_history(seed):
    db = SERVER.template(seed).db

    def one(sql: str) -> Any:
        return db.execute(sql).fetchone()[0]

    assert one("SELECT count(*) FROM vehicles") == 1
    assert one("SELECT count(*) FROM trips") >= 100
    assert one("SELECT count(*) FROM places WHERE category = 'home'") == 1
    assert one("SELECT count(*) FROM places WHERE category = 'service_center'") >= 1
    assert one("SELECT count(*) FROM trips WHERE ended_at > '2026-03-16T09:00:00'") == 0
    assert one("SELECT count(*) FROM charging_sessions WHERE ended_at > '2026-03-16T09:00:00'") == 0
    last = db.execute("SELECT to_place_id FROM trips ORDER BY started_at DESC LIMIT 1").fetchone()[0]
    (car,) = rows(db, "SELECT * FROM vehicles")
    assert car["place_id"] == last  # the car is where its last trip ended: at home
    assert (car["gear"], car["plugged_in"]) == ("P", 1)
    assert 0 <= car["battery_pct"] <= 100


@pytest.mark.parametrize("seed", range(8))
def test_the_morning_state_agrees_with_the_event_log(seed):
    """However this morning ended (charging, warming up, unloading, valet mode left on), the
    car's state is what its event log and charging sessions say."""
    db = SERVER.template(seed).db
    (car,) = rows(db, "SELECT * FROM vehicles")

    def last(kind: str) -> str | None:
        row = db.execute("SELECT message FROM events WHERE kind = ? ORDER BY occurred_at DESC, event_id DESC LIMIT 1",
                         (kind,)).fetchone()
        return row[0] if row else None

    assert last("lock").startswith("Doors locked" if car["locked"] else "Doors unlocked")
    assert (last("valet") == "Valet mode turned on") is bool(car["valet_mode"])
    assert not (car["trunk_open"] and car["valet_mode"])  # valet mode keeps the trunk shut
    running = rows(db, "SELECT * FROM charging_sessions WHERE status = 'charging'")
    assert len(running) == car["charging"]
    if running:
        session = running[0]
        assert car["parked_since"] < session["started_at"] < "2026-03-16T09:00:00"
        assert session["end_pct"] == car["battery_pct"] < car["charge_limit"] and session["kwh_added"] > 0
        assert car["engine"] == "off"
    if car["engine"] == "running":
        assert car["climate_on"] and last("command") == "Engine started"


def test_worlds_hold_every_morning_state():
    """Across the first worlds the car is charging, warming up, unlocked with the trunk open and
    in valet mode at the epoch, and in some it is simply parked, locked and off."""
    cars = [rows(SERVER.template(seed).db, "SELECT * FROM vehicles")[0] for seed in range(16)]
    first = cars[:4]  # the worlds `prove synth` uses by default
    assert any(c["charging"] for c in first)
    assert any(c["engine"] == "running" for c in first)
    assert any(not c["locked"] for c in first)
    assert any(c["trunk_open"] for c in first)
    assert any(c["valet_mode"] for c in first)
    plain = [c for c in cars if c["locked"] and c["engine"] == "off" and not c["charging"] and not c["trunk_open"]
             and not c["valet_mode"]]
    assert 1 <= len(plain) <= 8
    # each state blocks some tools (no charging with the engine on, no driving unlocked): a minority
    for state in (lambda c: c["charging"], lambda c: c["engine"] == "running", lambda c: not c["locked"],
                  lambda c: c["trunk_open"], lambda c: c["valet_mode"]):
        assert sum(bool(state(c)) for c in cars) < len(cars) / 2


def rows(db: Any, sql: str, params: tuple = ()) -> list[dict]:
    """A template's rows as dicts (its connection returns plain tuples)."""
    cur = db.execute(sql, params)
    return [dict(zip([c[0] for c in cur.description], r, strict=True)) for r in cur.fetchall()]


def world_where(condition: str) -> int:
    """The first world whose car meets an SQL condition at the epoch."""
    return next(seed for seed in range(16)
                if SERVER.template(seed).db.execute(f"SELECT 1 FROM vehicles WHERE {condition}").fetchone())


def test_unloading_car_is_locked_and_shut_for_the_drive():
    with Session("vehicle", world=world_where("trunk_open = 1")) as s:
        st = ok(s, "get_vehicle_status")
        assert st["trunk_open"] and not st["locked"] and {"Trunk open", "Doors unlocked"} <= set(st["warnings"])
        assert ok(s, "close_trunk")["trunk_open"] is False
        assert ok(s, "lock_doors")["locked"] is True
        ready_to_drive(s)
        assert ok(s, "get_vehicle_status")["gear"] == "D"


def test_warming_up_car_stops_its_engine():
    with Session("vehicle", world=world_where("engine = 'running'")) as s:
        st = ok(s, "get_vehicle_status")
        assert st["climate_on"] and st["cabin_temp"] > st["outside_temp"]
        fails(s, "start_engine", "engine_running")
        fails(s, "start_charging", "engine_running")
        assert ok(s, "stop_engine")["engine"] == "off"
        assert ok(s, "list_events", {"kind": "command", "limit": 1})["events"][0]["message"] == "Engine stopped"


def test_charging_car_charges_on_and_stops():
    with Session("vehicle", world=world_where("charging = 1")) as s:
        state = ok(s, "get_charge_state")
        assert state["charging"] and state["minutes_to_limit"] > 0 and state["session"]["status"] == "charging"
        s.advance(10 * 60)
        later = ok(s, "get_charge_state")
        assert later["battery_pct"] > state["battery_pct"]
        stopped = ok(s, "stop_charging")
        assert not stopped["charging"] and stopped["plugged_in"]
        session = ok(s, "list_charging_sessions", {"limit": 1})["charging_sessions"][0]
        assert (session["session_id"], session["status"]) == (state["session"]["session_id"], "stopped")
        assert session["kwh_added"] > state["session"]["kwh_added"]


def test_valet_mode_left_on_turns_off_with_the_pin():
    with Session("vehicle", world=world_where("valet_mode = 1")) as s:
        assert ok(s, "get_vehicle_status")["valet_mode"]
        fails(s, "open_trunk", "valet_mode_active")
        pin = ok(s, "get_valet_pin")["valet_pin"]
        fails(s, "disable_valet_mode", "wrong_pin", {"pin": "0000" if pin != "0000" else "1111"})
        assert not ok(s, "disable_valet_mode", {"pin": pin})["valet_mode"]
        assert ok(s, "open_trunk")["trunk_open"]


# ----- status, doors, trunk, windows ------------------------------------------------------------


def test_status_at_the_epoch(s):
    st = ok(s, "get_vehicle_status")
    assert (st["engine"], st["gear"], st["locked"], st["plugged_in"], st["driving"]) == ("off", "P", True, True, False)
    assert st["location"] == "Home" and st["total_range_mi"] == pytest.approx(
        st["electric_range_mi"] + st["fuel_range_mi"], abs=0.11)
    assert ok(s, "get_location")["place_name"] == "Home"


def test_lock_unlock_and_the_log(s):
    fails(s, "lock_doors", "already_locked")
    assert ok(s, "unlock_doors")["locked"] is False
    assert "Doors unlocked" in ok(s, "get_vehicle_status")["warnings"]
    assert ok(s, "list_events", {"kind": "lock", "limit": 1})["events"][0]["message"] == "Doors unlocked from the app"
    assert ok(s, "lock_doors")["locked"] is True


def test_trunk_needs_park(s):
    if ok(s, "get_vehicle_status")["valet_mode"]:  # left on in world 0
        ok(s, "disable_valet_mode", {"pin": ok(s, "get_valet_pin")["valet_pin"]})
    ok(s, "start_engine")
    ok(s, "shift_gear", {"gear": "N"})
    fails(s, "open_trunk", "not_parked")
    ok(s, "shift_gear", {"gear": "P"})
    assert ok(s, "open_trunk")["trunk_open"]
    ok(s, "release_charge_cable")
    fails(s, "shift_gear", "trunk_open", {"gear": "D"})
    ok(s, "close_trunk")
    assert ok(s, "shift_gear", {"gear": "D"})["gear"] == "D"


def test_windows_only_vent_with_the_engine_off(s):
    fails(s, "set_window", "engine_off", {"window": "all", "position": 50})
    vented = ok(s, "set_window", {"window": "all", "position": 10})
    assert {w["window"]: w["position"] for w in vented["windows"]}["front_left"] == 10
    ok(s, "start_engine")
    ok(s, "set_window", {"window": "front_left", "position": 100})
    assert "front_left" in ok(s, "get_vehicle_status")["open_windows"]


# ----- driving ----------------------------------------------------------------------------------


def test_drive_needs_engine_gear_lock_and_cable(s):
    shop = place(s, "shopping")
    nav = ok(s, "set_navigation_destination", {"place_id": shop["place_id"]})
    assert nav["enough_range"] and nav["distance_mi"] == shop["distance_mi"]
    fails(s, "start_drive", "engine_off")
    fails(s, "shift_gear", "engine_off", {"gear": "D"})
    ok(s, "start_engine")
    fails(s, "start_drive", "not_in_drive")
    fails(s, "shift_gear", "charging_cable_connected", {"gear": "D"})
    ok(s, "release_charge_cable")
    ok(s, "unlock_doors")
    fails(s, "shift_gear", "doors_unlocked", {"gear": "D"})
    ok(s, "lock_doors")
    ok(s, "shift_gear", {"gear": "D"})
    ok(s, "unlock_doors")
    fails(s, "start_drive", "doors_unlocked")


def test_drive_moves_the_car_and_uses_battery_first(s):
    before = ok(s, "get_vehicle_status")
    shop = place(s, "shopping")
    ok(s, "set_navigation_destination", {"place_id": shop["place_id"]})
    ready_to_drive(s)
    trip = ok(s, "start_drive")
    assert trip["status"] == "in_progress" and trip["to_place_id"] == shop["place_id"]
    fails(s, "open_trunk", "vehicle_moving")
    fails(s, "shift_gear", "vehicle_moving", {"gear": "P"})
    fails(s, "set_navigation_destination", "vehicle_moving", {"place_id": place(s, "coffee")["place_id"]})
    assert ok(s, "get_navigation")["driving"]
    s.advance(trip["duration_min"] * 60)
    after = ok(s, "get_vehicle_status")
    assert after["location"] == shop["name"] and after["gear"] == "P" and not after["driving"]
    assert after["odometer_mi"] == pytest.approx(before["odometer_mi"] + trip["distance_mi"], abs=0.05)
    assert after["battery_pct"] < before["battery_pct"]
    assert after["fuel_range_mi"] == before["fuel_range_mi"]  # a short hop runs on the battery
    last = ok(s, "list_trips", {"limit": 1})["trips"][0]
    assert (last["trip_id"], last["status"]) == (trip["trip_id"], "completed")
    assert ok(s, "get_navigation")["active"] is False
    fails(s, "set_navigation_destination", "already_there", {"place_id": shop["place_id"]})


def test_range_runs_out_after_enough_driving(s):
    far = max(ok(s, "search_places", {"limit": 200})["places"], key=lambda p: p["distance_mi"])
    home = place(s, "home")
    legs = 0
    while True:
        target = far if legs % 2 == 0 else home
        ok(s, "set_navigation_destination", {"place_id": target["place_id"]})
        ready_to_drive(s)
        result = s.call("start_drive", {})
        if not result.ok:
            assert result.code == "insufficient_range"
            break
        s.advance(result.data["duration_min"] * 60)
        legs += 1
        assert legs < 60
    st = ok(s, "get_vehicle_status")
    assert st["battery_pct"] == 0 and "Low fuel" in st["warnings"]


# ----- charging ---------------------------------------------------------------------------------


def test_no_charging_once_the_cable_is_released(s):
    drive_to(s, place(s, "grocery")["place_id"])
    fails(s, "start_charging", "not_plugged_in")
    ok(s, "stop_engine")
    fails(s, "start_charging", "not_plugged_in")


def test_start_charging_at_home(s):
    state = ok(s, "get_charge_state")
    if state["battery_pct"] >= state["charge_limit"]:
        pytest.skip("world 0 starts at the limit")
    ok(s, "start_engine")
    fails(s, "start_charging", "engine_running")
    ok(s, "stop_engine")
    assert "not charging" in ok(s, "get_charge_state")["answer"]  # "how long until it's full?": it isn't charging
    charging = ok(s, "start_charging")
    assert charging["charging"] and charging["minutes_to_limit"] > 0
    assert f"in about {charging['minutes_to_limit']} minutes" in charging["answer"]
    fails(s, "start_charging", "already_charging")
    s.advance(charging["minutes_to_limit"] * 60 + 120)
    done = ok(s, "get_charge_state")
    assert done["battery_pct"] == pytest.approx(done["charge_limit"], abs=0.1) and not done["charging"]
    assert done["answer"] == f"it is plugged in and charged to its {done['charge_limit']}% limit"
    session = ok(s, "list_charging_sessions", {"limit": 1})["charging_sessions"][0]
    assert session["status"] == "completed" and session["kwh_added"] > 0 and session["cost"] > 0
    fails(s, "start_charging", "limit_reached")


def test_scheduled_charging_starts_at_its_time(s):
    ok(s, "set_charge_limit", {"percent": 90})
    fails(s, "set_charge_limit", "same_limit", {"percent": 90})
    start = ok(s, "get_charge_state")["battery_pct"]
    assert start < 90
    fails(s, "set_charging_schedule", "invalid_time", {"start_time": "25:00"})
    assert ok(s, "set_charging_schedule", {"start_time": "23:00"})["scheduled_charge_time"] == "23:00"
    s.advance(13 * 3600 + 30 * 60)  # 22:30: not yet
    waiting = ok(s, "get_charge_state")
    assert waiting["battery_pct"] == start and waiting["answer"].endswith("scheduled to start at 11:00 PM")
    s.advance(2 * 3600)  # 00:30
    assert ok(s, "get_charge_state")["battery_pct"] == 90
    session = ok(s, "list_charging_sessions", {"limit": 1})["charging_sessions"][0]
    assert (session["started_at"], session["status"], session["end_pct"]) == ("2026-03-16T23:00:00", "completed", 90)
    assert any(e["message"].startswith("Scheduled charging started")
               for e in ok(s, "list_events", {"kind": "charging", "limit": 5})["events"])
    assert ok(s, "set_charging_schedule")["scheduled_charge_time"] is None


def test_releasing_the_cable_stops_charging(s):
    assert ok(s, "get_charge_state")["charge_limit"] == 100
    ok(s, "start_charging")
    released = ok(s, "release_charge_cable")
    assert not released["plugged_in"] and not released["charging"]
    assert ok(s, "list_charging_sessions", {"limit": 1})["charging_sessions"][0]["status"] == "stopped"
    fails(s, "release_charge_cable", "not_plugged_in")
    fails(s, "stop_charging", "not_charging")


# ----- climate, seats, software -----------------------------------------------------------------


def test_climate_warms_the_cabin_and_seat_heaters_need_it(s):
    fails(s, "set_seat_heater", "climate_off", {"seat": "driver", "level": 2})
    fails(s, "set_climate", "out_of_range", {"on": True, "target_temp": 95})
    on = ok(s, "set_climate", {"on": True, "target_temp": 72})
    assert on["climate_on"] and on["climate_target"] == 72
    assert ok(s, "set_seat_heater", {"seat": "driver", "level": 2})["seats"]["driver"] == 2
    s.advance(30 * 60)
    assert ok(s, "get_vehicle_status")["cabin_temp"] == 72
    ok(s, "set_climate", {"on": False})
    assert ok(s, "set_seat_heater", {"seat": "driver", "level": 0})["seats"]["driver"] == 0


def test_software_update_blocks_starting_until_done(s):
    update = ok(s, "get_software_update")
    assert update["available_version"]
    ok(s, "start_engine")
    fails(s, "install_software_update", "engine_running")
    ok(s, "stop_engine")
    installing = ok(s, "install_software_update")
    assert installing["installing"]
    fails(s, "start_engine", "update_in_progress")
    fails(s, "install_software_update", "update_in_progress")
    s.advance(installing["install_minutes"] * 60)
    done = ok(s, "get_software_update")
    assert done["current_version"] == update["available_version"] and not done["installing"]
    fails(s, "install_software_update", "no_update_available")
    ok(s, "start_engine")


# ----- valet mode and driver profiles -----------------------------------------------------------


def test_valet_mode_needs_the_pin_and_locks_the_trunk(s):
    pin = ok(s, "get_valet_pin")["valet_pin"]
    wrong = "0000" if pin != "0000" else "1111"
    if ok(s, "get_vehicle_status")["valet_mode"]:  # left on in world 0
        fails(s, "enable_valet_mode", "valet_mode_active", {"pin": pin})
        ok(s, "disable_valet_mode", {"pin": pin})
    fails(s, "enable_valet_mode", "wrong_pin", {"pin": wrong})
    assert ok(s, "enable_valet_mode", {"pin": pin})["valet_mode"]
    fails(s, "open_trunk", "valet_mode_active")
    other = next(p for p in ok(s, "list_driver_profiles")["driver_profiles"] if not p["active"])
    fails(s, "apply_driver_profile", "valet_mode_active", {"profile_id": other["profile_id"]})
    fails(s, "disable_valet_mode", "wrong_pin", {"pin": wrong})
    assert not ok(s, "disable_valet_mode", {"pin": pin})["valet_mode"]
    fails(s, "disable_valet_mode", "valet_mode_off", {"pin": pin})
    assert ok(s, "apply_driver_profile", {"profile_id": other["profile_id"]})["active"]
    assert ok(s, "get_vehicle_status")["climate_target"] == other["climate_target"]


# ----- places, service --------------------------------------------------------------------------


def test_save_place_and_search(s):
    cafe = place(s, "coffee")
    saved = ok(s, "save_place", {"place_id": cafe["place_id"], "nickname": "Morning coffee"})
    assert saved["saved"] and saved["nickname"] == "Morning coffee"
    fails(s, "save_place", "already_saved", {"place_id": cafe["place_id"]})
    gym = place(s, "gym")
    fails(s, "save_place", "duplicate_nickname", {"place_id": gym["place_id"], "nickname": "work"})
    mine = ok(s, "search_places", {"saved_only": True, "limit": 50})["places"]
    assert cafe["place_id"] in {p["place_id"] for p in mine}
    assert ok(s, "search_places", {"query": "morning coffee"})["places"][0]["place_id"] == cafe["place_id"]


def test_service_appointment_booking_rules(s):
    booked = ok(s, "list_service_appointments", {"status": "booked"})["service_appointments"]
    for a in booked:
        ok(s, "cancel_service_appointment", {"appointment_id": a["appointment_id"]})
    center = place(s, "service_center")
    shop = place(s, "shopping")
    fails(s, "book_service_appointment", "not_a_service_center",
          {"place_id": shop["place_id"], "scheduled_for": "2026-03-18T09:00:00",
                                                                  "services": "Tire rotation"})
    fails(s, "book_service_appointment", "past_date",
          {"place_id": center["place_id"], "scheduled_for": "2026-03-15T09:00:00",
                                                       "services": "Tire rotation"})
    fails(s, "book_service_appointment", "outside_hours",
          {"place_id": center["place_id"], "scheduled_for": "2026-03-22T09:00:00",
                                                           "services": "Tire rotation"})  # a Sunday
    fails(s, "book_service_appointment", "outside_hours",
          {"place_id": center["place_id"], "scheduled_for": "2026-03-18T09:10:00",
                                                           "services": "Tire rotation"})
    fails(s, "book_service_appointment", "too_far_ahead",
          {"place_id": center["place_id"], "scheduled_for": "2026-08-18T09:00:00",
                                                           "services": "Tire rotation"})
    fails(s, "book_service_appointment", "invalid_time",
          {"place_id": center["place_id"], "scheduled_for": "2026-03-18T09:00:00Z", "services": "Tire rotation"})
    appt = ok(s, "book_service_appointment", {"place_id": center["place_id"], "scheduled_for": "2026-03-16T10:30:00",
                                              "services": "Tire rotation", "note": "Low tyre warning"})
    assert appt["status"] == "booked"
    fails(s, "book_service_appointment", "appointment_exists",
          {"place_id": center["place_id"], "scheduled_for": "2026-03-20T09:00:00",
                                                                "services": "Oil change"})
    fails(s, "cancel_service_appointment", "too_late", {"appointment_id": appt["appointment_id"]})
    done = ok(s, "list_service_appointments", {"status": "completed"})["service_appointments"][0]
    fails(s, "cancel_service_appointment", "not_cancellable", {"appointment_id": done["appointment_id"]})


def test_marking_service_done_moves_its_due_date(s):
    reminders = ok(s, "list_service_reminders")["service_reminders"]
    far = next(r for r in reminders if r["status"] == "ok")
    fails(s, "mark_service_done", "not_due", {"reminder_id": far["reminder_id"]})
    due = next((r for r in reminders if r["status"] != "ok"), None)
    if due is None:
        pytest.skip("nothing is due in world 0")
    done = ok(s, "mark_service_done", {"reminder_id": due["reminder_id"]})
    assert done["status"] == "ok" and done["last_done_on"] == "2026-03-16"


def test_tyres_and_warnings(s):
    tyres = ok(s, "get_tire_pressure")
    low = [t for t in tyres["tires"] if t["status"] == "low"]
    warnings = ok(s, "get_vehicle_status")["warnings"]
    assert tyres["all_ok"] is (not low)
    assert len([w for w in warnings if w.startswith("Low tyre")]) == len(low)


def test_one_set_of_time_codes(s):
    fails(s, "list_trips", "invalid_date", {"start_date": "March 3"})
    fails(s, "list_charging_sessions", "invalid_date", {"start_date": "2026-13-01"})
    fails(s, "list_events", "invalid_time", {"since": "2026-03-15T00:00:00+02:00"})
    fails(s, "set_charging_schedule", "invalid_time", {"start_time": "11pm"})


@pytest.mark.parametrize(("tool", "args", "must", "never"), [
    # the phrasings that turn the schedule off or save a place without a nickname bind None
    ("set_charging_schedule", {"start_time": None}, ("off", "cleared"), ("{start_time}", "saved")),
    ("set_charging_schedule", {"start_time": "22:00"}, ("{start_time}",), ("off", "cleared")),
    ("set_climate", {"on": False}, ("off",), ("heading", "target")),
    ("set_climate", {"on": True, "target_temp": 70}, ("{result.climate_target}",), ("off",)),
    ("set_headlights", {"mode": "off"}, ("off",), (" on",)),
    ("set_headlights", {"mode": "auto"}, ("auto",), ("off",)),
    ("set_window", {"window": "all", "position": 0}, ("all the windows",), ("{window} window",)),
    ("set_window", {"window": "sunroof", "position": 50}, ("sunroof",), ("{window} window",)),
])
def test_replies_say_what_the_call_did(tool, args, must, never):
    """Each reply the teacher may use for a call says what that call did (on or off, the time,
    the nickname), and none says what it did not."""
    from prove.synth.teachers.programmatic import _fitting_replies

    replies = [r.text for r in _fitting_replies(SERVER.tools[tool], args)]
    assert replies
    for text in replies:
        assert any(w in text.lower() or w in text for w in must), text
        assert not any(w in text.lower() or w in text for w in never), text


def test_a_remote_start_comes_with_the_trip_ahead_which_can_be_cancelled() -> None:
    """The warming-up mornings have a destination sent with the remote start, so cancelling the
    navigation needs no destination set first in the same conversation."""
    from prove.env import Session, registry

    server = registry.get("vehicle")
    warming = 0
    for world in range(12):
        with Session([server], world=world) as s:
            status = s.call("get_vehicle_status", {}).data
            if status["engine"] != "running":
                continue
            warming += 1
            route = s.call("get_navigation", {})
            assert route.ok and route.data["active"], world
            cleared = s.call("cancel_navigation", {})
            assert cleared.ok and not cleared.data["active"]
    assert warming >= 2


def test_the_event_log_reads_every_kind_its_worlds_write():
    """A remote start sends the trip ahead to the car: its "Destination set to ..." event is read back
    (once an internal error), and can be asked for by its kind."""
    worlds = [w for w in range(40) if SERVER.template(w).db.execute(
        "SELECT 1 FROM events WHERE kind = 'navigation'").fetchone()]
    assert worlds
    with Session("vehicle", world=worlds[0]) as s:
        assert ok(s, "list_events", {"limit": 200})["total"] > 0
        navigation = ok(s, "list_events", {"kind": "navigation"})["events"]
        assert navigation and navigation[0]["message"].startswith("Destination set to")


def test_a_service_is_asked_for_as_a_label_not_mid_sentence() -> None:
    """"Book a service at BMW of Seattle on March 18 at 2:00 PM for Annual service.": a service's name is
    capitalized, so a request says it where a label stands (after a colon, in parentheses)."""
    for ask in SERVER.tools["book_service_appointment"].asks:
        assert re.search(r"(?::|\() ?\{services\}", ask.text), ask.text


def test_a_question_about_the_tyres_says_no_warning_came_on():
    """"The dashboard showed a tyre warning, which tyre is low?" answered "None of the tyres is low": a question
    asked of tyres that may all be fine says nothing of a warning."""
    asks = [as_ask(a).text for a in registry.get("vehicle").tools["get_tire_pressure"].asks]
    assert asks and not any("warning" in t for t in asks), asks
