"""Behaviour tests of the video meeting server: its world, its main flows and its failures.

Every test works on a fresh `Session("video_meeting", world=0)` and finds the meetings it needs
through the server's own list tools, the way a model would.
"""

from __future__ import annotations

import re
from typing import Any

from prove.env import Session, registry
from prove.env.asks import as_ask

from .helpers import fails, ok, session_fixture

SERVER = registry.get("video_meeting")


s = session_fixture("video_meeting")


def today(s: Session, **filters: Any) -> list[dict]:
    return ok(s, "list_meetings",
              {"from_date": "2026-03-16", "to_date": "2026-03-16", "status": "all", **filters})["meetings"]


def colleague_live(s: Session) -> dict:
    return next(m for m in today(s) if m["status"] == "live" and not m["you_are_host"])


def my_sync(s: Session) -> dict:
    return next(m for m in today(s, role="host") if m["starts_at"] == "2026-03-16T09:00:00")


def passcode(s: Session, meeting_id: str) -> str:
    return ok(s, "get_meeting_passcode", {"meeting_id": meeting_id})["passcode"]


def participants(s: Session, meeting_id: str, status: str | None = None) -> list[dict]:
    args = {"meeting_id": meeting_id} | ({"status": status} if status else {})
    return ok(s, "list_participants", args)["participants"]


# ----- the server and its world -------------------------------------------------------------------


def test_server_declares_documented_tools():
    visible = SERVER.visible_tools
    assert len(visible) >= 20
    assert SERVER.tools["get_meeting_passcode"].hidden
    assert SERVER.tools["join_meeting"].sensitive_params == ("passcode",)
    assert SERVER.tools["schedule_meeting"].sensitive_params == ("passcode",)
    assert set(SERVER.entities) == {"person", "meeting", "participant", "chat_message", "recording"}
    assert SERVER.template(0).size < 250_000


def test_world_at_the_epoch(s):
    account = ok(s, "get_my_account")
    assert account["plan"] == "Pro" and account["hosting_now"] is None
    assert 0 < account["storage_used_mb"] < account["storage_quota_mb"]
    live = colleague_live(s)
    meeting = ok(s, "get_meeting", {"meeting_id": live["meeting_id"]})
    assert meeting["waiting_room"] and meeting["passcode"] is None and meeting["my_status"] is None
    assert meeting["in_meeting"] >= 2
    sync = ok(s, "get_meeting", {"meeting_id": my_sync(s)["meeting_id"]})
    assert sync["status"] == "scheduled" and sync["you_are_host"] and sync["passcode"]
    past = ok(s, "list_meetings", {"status": "ended", "limit": 100})
    assert past["total"] > 30
    assert ok(s, "list_recordings")["total"] >= 3


# ----- hosting a meeting ------------------------------------------------------------------------


def test_host_runs_a_meeting_from_waiting_room_to_transcript(s):
    sync = my_sync(s)["meeting_id"]
    started = ok(s, "start_meeting", {"meeting_id": sync})
    assert started["status"] == "live" and started["recording_now"]  # automatic recording is on
    assert ok(s, "get_my_account")["hosting_now"] == sync
    waiting = participants(s, sync, "waiting")
    assert len(waiting) >= 2 and not any(p["muted"] for p in waiting)  # no mute on entry: the host mutes
    fails(s, "send_chat_message", "recipient_not_present",
          {"meeting_id": sync, "text": "Hi", "to_participant_id": waiting[0]["participant_id"]})

    admitted = ok(s, "admit_participant", {"participant_id": waiting[0]["participant_id"]})
    assert admitted["status"] == "in_meeting"
    fails(s, "admit_participant", "not_waiting", {"participant_id": waiting[0]["participant_id"]})
    assert ok(s, "mute_participant", {"participant_id": admitted["participant_id"]})["muted"]
    fails(s, "mute_participant", "already_muted", {"participant_id": admitted["participant_id"]})
    fails(s, "mute_participant", "unmute_not_allowed", {"participant_id": admitted["participant_id"], "muted": False})
    removed = ok(s, "remove_participant", {"participant_id": waiting[1]["participant_id"]})
    assert removed["status"] == "removed"
    fails(s, "remove_participant", "not_in_meeting", {"participant_id": waiting[1]["participant_id"]})
    host = participants(s, sync)[0]
    assert host["role"] == "host"
    fails(s, "remove_participant", "cannot_remove_host", {"participant_id": host["participant_id"]})

    sent = ok(s, "send_chat_message", {"meeting_id": sync, "text": "Agenda is in the doc.",
                                       "to_participant_id": admitted["participant_id"]})
    assert sent["to_person_id"] == admitted["person_id"]
    assert ok(s, "get_meeting_chat", {"meeting_id": sync})["messages"][-1]["message_id"] == sent["message_id"]

    s.advance(25 * 60)
    ended = ok(s, "end_meeting", {"meeting_id": sync})
    assert ended["meeting"]["status"] == "ended" and ended["meeting"]["ended_at"] == "2026-03-16T09:25:00"
    recording = ended["recording"]
    assert recording["status"] == "processing" and recording["duration_seconds"] == 25 * 60
    assert {p["status"] for p in participants(s, sync)} == {"left", "removed"}
    fails(s, "get_transcript", "recording_processing", {"recording_id": recording["recording_id"]})
    fails(s, "end_meeting", "meeting_ended", {"meeting_id": sync})

    s.advance(20 * 60)  # processing takes 20 minutes
    lines = ok(s, "get_transcript", {"recording_id": recording["recording_id"]})["lines"]
    assert len(lines) >= 3 and lines[0]["speaker"] == ok(s, "get_my_account")["name"]
    listed = ok(s, "list_recordings", {"meeting_id": sync})["recordings"]
    assert listed[0]["status"] == "available" and listed[0]["play_url"]


def test_meeting_cannot_start_too_early(s):
    call = next(m for m in today(s, role="host") if m["starts_at"] == "2026-03-16T11:00:00")["meeting_id"]
    fails(s, "start_meeting", "too_early", {"meeting_id": call})
    s.advance(110 * 60)  # 10:50, ten minutes before
    assert ok(s, "start_meeting", {"meeting_id": call})["status"] == "live"
    fails(s, "start_meeting", "already_started", {"meeting_id": call})
    fails(s, "cancel_meeting", "already_started", {"meeting_id": call})


def test_one_live_meeting_per_host(s):
    sync = my_sync(s)["meeting_id"]
    ok(s, "start_meeting", {"meeting_id": sync})
    fails(s, "start_instant_meeting", "host_busy", {"topic": "Quick chat"})
    ok(s, "end_meeting", {"meeting_id": sync})
    room = ok(s, "start_instant_meeting", {"use_personal_room": True})
    account = ok(s, "get_my_account")
    assert room["kind"] == "personal_room" and room["waiting_room"]
    assert room["meeting_number"] == account["personal_meeting_number"]
    assert room["passcode"] == account["personal_room_passcode"]
    assert account["hosting_now"] == room["meeting_id"]


def test_latecomers_arrive_five_minutes_after_the_start(s):
    sync = my_sync(s)["meeting_id"]
    meeting = ok(s, "start_meeting", {"meeting_id": sync})
    late = {i["person_id"] for i in meeting["invitees"] if i["response"] in ("needs_action", "tentative")}
    here = {p["person_id"] for p in participants(s, sync)}
    assert late and not late & here
    s.advance(4 * 60)
    assert not late & {p["person_id"] for p in participants(s, sync)}
    s.advance(60)
    assert late <= {p["person_id"] for p in participants(s, sync, "waiting")}


def test_recording_storage_runs_out_and_deleting_frees_it(s):
    first = ok(s, "start_instant_meeting", {"topic": "Long workshop"})["meeting_id"]
    assert not ok(s, "get_meeting", {"meeting_id": first})["recording_now"]
    fails(s, "stop_recording", "not_recording", {"meeting_id": first})
    state = ok(s, "start_recording", {"meeting_id": first})
    assert state["recording_now"]
    fails(s, "start_recording", "already_recording", {"meeting_id": first})
    s.advance(3 * 3600)
    stopped = ok(s, "stop_recording", {"meeting_id": first})
    assert stopped["recorded_seconds"] == 3 * 3600 and not stopped["recording_now"]
    recording = ok(s, "end_meeting", {"meeting_id": first})["recording"]
    assert recording["size_mb"] == 3 * 60 * 12.0
    second = ok(s, "start_instant_meeting", {"topic": "Follow-up"})["meeting_id"]
    fails(s, "start_recording", "storage_full", {"meeting_id": second})
    deleted = ok(s, "delete_recording", {"recording_id": recording["recording_id"]})
    assert deleted["recording"]["status"] == "deleted" and deleted["freed_mb"] == recording["size_mb"]
    fails(s, "delete_recording", "already_deleted", {"recording_id": recording["recording_id"]})
    fails(s, "get_transcript", "recording_deleted", {"recording_id": recording["recording_id"]})
    assert ok(s, "start_recording", {"meeting_id": second})["recording_now"]


def test_a_meeting_of_today_that_does_not_record_itself_is_recorded_by_hand(s):
    """Every meeting the user hosted today recorded itself on start, so "start recording it" always
    failed with already_recording and the tool was nearly never asked; today's customer call does
    not, and the user starts its recording once it is live."""
    mine = [m for m in today(s, role="host") if m["status"] == "scheduled" and m["starts_at"] > "2026-03-16T09:00:00"]
    manual = [m for m in mine if not ok(s, "get_meeting", {"meeting_id": m["meeting_id"]})["auto_record"]]
    assert manual, mine
    meeting = manual[0]["meeting_id"]
    fails(s, "start_recording", "meeting_not_started", {"meeting_id": meeting})
    s.advance(2 * 3600)
    ok(s, "start_meeting", {"meeting_id": meeting})
    assert not ok(s, "get_meeting", {"meeting_id": meeting})["recording_now"]
    assert ok(s, "start_recording", {"meeting_id": meeting})["recording_now"]


# ----- scheduling -----------------------------------------------------------------------------------


def test_schedule_update_invite_and_cancel(s):
    people = ok(s, "search_people", {"query": "a", "limit": 3})["people"]
    meeting = ok(s, "schedule_meeting", {"topic": "Roadmap review", "start_time": "2026-03-18T15:00:00",
                                         "duration_minutes": 45, "invitees": [people[0]["person_id"]],
                                         "passcode": "Rm7q2xKd"})
    mid = meeting["meeting_id"]
    assert meeting["status"] == "scheduled" and meeting["passcode"] == "Rm7q2xKd"
    assert meeting["ends_at"] == "2026-03-18T15:45:00" and meeting["join_url"].startswith("https://")
    assert any(m["meeting_id"] == mid for m in ok(s, "list_meetings", {"query": "roadmap review"})["meetings"])

    moved = ok(s, "update_meeting", {"meeting_id": mid, "start_time": "2026-03-19T10:00:00", "auto_record": True})
    assert moved["starts_at"] == "2026-03-19T10:00:00" and moved["auto_record"]
    fails(s, "update_meeting", "nothing_to_update", {"meeting_id": mid})
    fails(s, "update_meeting", "past_date", {"meeting_id": mid, "start_time": "2026-03-13T10:00:00"})
    fails(s, "update_meeting", "invalid_time", {"meeting_id": mid, "start_time": "next tuesday"})

    invited = ok(s, "invite_to_meeting", {"meeting_id": mid, "person_ids": [people[1]["person_id"]]})
    assert invited["invitees"] == 2
    fails(s, "invite_to_meeting", "already_invited", {"meeting_id": mid, "person_ids": [people[1]["person_id"]]})
    fails(s, "invite_to_meeting", "not_found", {"meeting_id": mid, "person_ids": ["PER-99999"]})

    assert ok(s, "cancel_meeting", {"meeting_id": mid})["status"] == "cancelled"
    fails(s, "cancel_meeting", "meeting_cancelled", {"meeting_id": mid})
    fails(s, "start_meeting", "meeting_cancelled", {"meeting_id": mid})
    assert any(m["meeting_id"] == mid for m in ok(s, "list_meetings", {"status": "cancelled"})["meetings"])


def test_scheduling_failures(s):
    fails(s, "schedule_meeting", "past_date", {"topic": "Old", "start_time": "2026-03-13T10:00:00"})
    fails(s, "schedule_meeting", "invalid_time", {"topic": "Zoned", "start_time": "2026-03-18T10:00:00Z"})
    fails(s, "schedule_meeting", "invalid_passcode", {"topic": "Weak", "start_time": "2026-03-18T10:00:00",
                                                      "passcode": "111111"})
    me = ok(s, "get_my_account")["person_id"]
    fails(s, "schedule_meeting", "already_invited", {"topic": "Self", "start_time": "2026-03-18T10:00:00",
                                                     "invitees": [me]})
    fails(s, "list_meetings", "end_before_start", {"from_date": "2026-03-20", "to_date": "2026-03-18"})
    fails(s, "list_meetings", "invalid_date", {"from_date": "next week"})


def test_only_the_host_manages_a_meeting(s):
    live = colleague_live(s)["meeting_id"]
    fails(s, "end_meeting", "not_host", {"meeting_id": live})
    fails(s, "start_recording", "not_host", {"meeting_id": live})
    fails(s, "update_meeting", "not_host", {"meeting_id": live, "topic": "Mine now"})
    someone = next(p for p in participants_as_host_or_join(s, live) if p["role"] == "attendee")
    fails(s, "mute_participant", "not_host", {"participant_id": someone["participant_id"]})
    fails(s, "admit_participant", "not_host", {"participant_id": someone["participant_id"]})


def participants_as_host_or_join(s: Session, meeting_id: str) -> list[dict]:
    ok(s, "join_meeting", {"meeting_id": meeting_id, "passcode": passcode(s, meeting_id)})
    return participants(s, meeting_id)


# ----- joining colleagues' meetings --------------------------------------------------------------------


def test_join_a_live_meeting_through_the_waiting_room(s):
    live = colleague_live(s)["meeting_id"]
    fails(s, "list_participants", "not_attended", {"meeting_id": live})
    fails(s, "send_chat_message", "not_in_meeting", {"meeting_id": live, "text": "Hello"})
    fails(s, "join_meeting", "wrong_passcode", {"meeting_id": live, "passcode": "wrong-code"})
    joined = ok(s, "join_meeting", {"meeting_id": live, "passcode": passcode(s, live)})
    assert joined["status"] == "waiting" and joined["muted"]
    fails(s, "join_meeting", "already_joined", {"meeting_id": live, "passcode": passcode(s, live)})
    fails(s, "send_chat_message", "not_in_meeting", {"meeting_id": live, "text": "Hello"})

    s.advance(60)  # the host admits the user
    assert ok(s, "get_meeting", {"meeting_id": live})["my_status"] == "in_meeting"
    me = joined["participant_id"]
    assert ok(s, "mute_participant", {"participant_id": me, "muted": False})["muted"] is False
    fails(s, "mute_participant", "not_muted", {"participant_id": me, "muted": False})
    ok(s, "send_chat_message", {"meeting_id": live, "text": "Joining late, sorry!"})
    chat = ok(s, "get_meeting_chat", {"meeting_id": live})["messages"]
    assert chat[-1]["text"] == "Joining late, sorry!"

    assert ok(s, "leave_meeting", {"meeting_id": live})["status"] == "left"
    fails(s, "leave_meeting", "not_in_meeting", {"meeting_id": live})
    assert ok(s, "join_meeting", {"meeting_id": live, "passcode": passcode(s, live)})["participant_id"] == me


def test_colleague_meetings_start_and_end_on_schedule(s):
    afternoon = next(m for m in today(s, role="invited") if m["starts_at"] == "2026-03-16T13:30:00")
    mid = afternoon["meeting_id"]
    code = passcode(s, mid)
    fails(s, "join_meeting", "meeting_not_started", {"meeting_id": mid, "passcode": code})
    fails(s, "get_meeting_chat", "meeting_not_started", {"meeting_id": mid})
    s.advance(4.5 * 3600)  # 13:30
    meeting = ok(s, "get_meeting", {"meeting_id": mid})
    assert meeting["status"] == "live" and meeting["started_at"] == "2026-03-16T13:30:00"
    joined = ok(s, "join_meeting", {"meeting_id": mid, "passcode": code})
    assert joined["status"] == "in_meeting"  # no waiting room
    # The morning meeting ended at its scheduled end, 10:00.
    morning = ok(s, "get_meeting", {"meeting_id": colleague_live_id(s)})
    assert morning["status"] == "ended" and morning["ended_at"] == "2026-03-16T10:00:00"
    fails(s, "join_meeting", "meeting_ended",
          {"meeting_id": morning["meeting_id"], "passcode": passcode(s, morning["meeting_id"])})
    s.advance(3600)
    assert ok(s, "get_meeting", {"meeting_id": mid})["my_status"] == "left"


def colleague_live_id(s: Session) -> str:
    return next(m for m in today(s, role="invited") if m["starts_at"] == "2026-03-16T08:30:00")["meeting_id"]


def test_host_cannot_join_or_leave_their_own_meeting(s):
    sync = my_sync(s)["meeting_id"]
    fails(s, "join_meeting", "host_must_start", {"meeting_id": sync, "passcode": passcode(s, sync)})
    ok(s, "start_meeting", {"meeting_id": sync})
    fails(s, "leave_meeting", "host_cannot_leave", {"meeting_id": sync})


def test_past_meetings_keep_attendance_and_chat(s):
    past = ok(s, "list_meetings", {"status": "ended", "role": "host", "limit": 100})["meetings"]
    attended = participants(s, past[0]["meeting_id"])
    assert attended and all(p["status"] == "left" and p["left_at"] for p in attended)
    chats = [s.call("get_meeting_chat", {"meeting_id": m["meeting_id"]})
             for m in ok(s, "list_meetings", {"status": "ended", "limit": 100})["meetings"]]
    assert any(c.ok and c.data["total"] for c in chats)
    assert {c.code for c in chats if not c.ok} <= {"not_attended"}  # meetings the user skipped
    fails(s, "send_chat_message", "meeting_ended", {"meeting_id": past[0]["meeting_id"], "text": "Late note"})
    fails(s, "get_meeting", "not_found", {"meeting_id": "MTG-1"})


# ----- set-up the planner runs before the live-meeting tools -------------------------------------------

def test_live_participant_tools_have_their_set_up_and_a_meeting_to_start(s):
    tools = registry.get("video_meeting").tools
    assert tools["admit_participant"].needs == ("start_meeting", "list_participants")
    assert tools["remove_participant"].needs == ("start_meeting", "list_participants")
    assert tools["mute_participant"].needs == ("start_meeting", "list_participants", "admit_participant")
    server = registry.get("video_meeting")
    p = next(p for p in tools["start_meeting"].params if p.name == "meeting_id")
    offered = {r[0] for r in server.template(0).db.execute(f"SELECT meeting_id FROM meetings WHERE {p.where}")}
    sync = my_sync(s)["meeting_id"]
    assert sync in offered
    # The chain those needs make: start, see who waits, admit one, mute them; remove another.
    ok(s, "start_meeting", {"meeting_id": sync})
    waiting = ok(s, "list_participants", {"meeting_id": sync, "status": "waiting"})["participants"]
    admitted = ok(s, "admit_participant", {"participant_id": waiting[0]["participant_id"]})
    assert ok(s, "mute_participant", {"participant_id": admitted["participant_id"], "muted": True})["muted"]
    assert ok(s, "remove_participant", {"participant_id": waiting[1]["participant_id"]})["status"] == "removed"
    for meeting_id in offered:  # every meeting offered is the user's, still to come
        meeting = ok(s, "get_meeting", {"meeting_id": meeting_id})
        assert meeting["you_are_host"] and meeting["status"] in ("scheduled", "live")


def test_meeting_details_say_the_join_link_status_and_invitees():
    tool = registry.get("video_meeting").tools["get_meeting"]
    assert tool.replies and all("{result.invitees}" in r.text for r in tool.replies)
    assert any("{result.join_url}" in r.text for r in tool.replies)
    assert any("{result.started_text}" in r.text for r in tool.replies)


def test_the_host_mutes_admits_and_removes_others_never_themselves(s):
    tools = registry.get("video_meeting").tools
    where = {t: next(p.where for p in tools[t].params if p.name == "participant_id")
             for t in ("admit_participant", "remove_participant", "mute_participant")}
    sync = my_sync(s)["meeting_id"]
    ok(s, "start_meeting", {"meeting_id": sync})
    everyone = participants(s, sync)
    host = [p for p in everyone if p["role"] == "host"]
    waiting = [p for p in everyone if p["status"] == "waiting"]
    assert host and waiting
    for tool in where:
        assert not s.satisfies("participant", host[0]["participant_id"], where[tool]), tool
    for tool in ("admit_participant", "remove_participant"):
        assert all(s.satisfies("participant", p["participant_id"], where[tool]) for p in waiting), tool
    # nobody in the waiting room has a microphone on yet: the host mutes those who are in
    assert not any(s.satisfies("participant", p["participant_id"], where["mute_participant"]) for p in waiting)
    admitted = ok(s, "admit_participant", {"participant_id": waiting[0]["participant_id"]})
    assert s.satisfies("participant", admitted["participant_id"], where["mute_participant"])
    inside = [p for p in everyone if p["status"] == "in_meeting" and p["role"] != "host"]
    assert all(not s.satisfies("participant", p["participant_id"], where["admit_participant"]) for p in inside)
    # people in a colleague's meeting are not the user's to remove or mute
    live = colleague_live(s)["meeting_id"]
    ok(s, "join_meeting", {"meeting_id": live, "passcode": passcode(s, live)})
    s.advance(120)
    others = participants(s, live)
    assert len(others) >= 3
    for tool in ("remove_participant", "mute_participant"):
        assert not any(s.satisfies("participant", p["participant_id"], where[tool]) for p in others), tool


# ----- where the user is at the epoch ----------------------------------------------------------------

ME = "(SELECT person_id FROM people WHERE is_me = 1)"
JOINED = (f"SELECT p.meeting_id FROM participants p JOIN meetings m ON m.meeting_id = p.meeting_id "
          f"WHERE m.status = 'live' AND m.host_id != {ME} AND p.person_id = {ME} AND p.status = 'in_meeting'")
HOSTING = f"SELECT meeting_id FROM meetings WHERE status = 'live' AND host_id = {ME}"


def worlds_with(sql: str, seeds: range = range(4)) -> list[int]:
    return [seed for seed in seeds if SERVER.template(seed).db.execute(sql).fetchone()]


def test_worlds_vary_where_the_user_is_at_the_epoch():
    """In the first worlds (those `prove synth` uses) the user is in a colleague's live meeting in
    one, hosting their team sync started early in another, and in neither in others."""
    joined, hosting = worlds_with(JOINED), worlds_with(HOSTING)
    assert joined and hosting and not set(joined) & set(hosting)
    assert set(range(4)) - set(joined) - set(hosting)
    for seed in hosting:
        db = SERVER.template(seed).db
        started, recording, starts = db.execute(
            f"SELECT started_at, recording_since, starts_at FROM meetings WHERE status = 'live' AND host_id = {ME}"
        ).fetchone()
        assert "2026-03-16T08:50:00" <= started < "2026-03-16T09:00:00" == starts and recording == started


def test_the_user_leaves_the_colleague_meeting_they_joined():
    seed = worlds_with(JOINED)[0]
    (meeting_id,) = SERVER.template(seed).db.execute(JOINED).fetchone()
    where = next(p.where for p in SERVER.tools["leave_meeting"].params if p.name == "meeting_id")
    offered = [r[0] for r in SERVER.template(seed).db.execute(f"SELECT meeting_id FROM meetings WHERE {where}")]
    assert offered == [meeting_id]
    with Session("video_meeting", world=seed) as s:
        meeting = ok(s, "get_meeting", {"meeting_id": meeting_id})
        assert meeting["my_status"] == "in_meeting" and meeting["in_meeting"] >= 3
        fails(s, "join_meeting", "already_joined", {"meeting_id": meeting_id, "passcode": passcode(s, meeting_id)})
        assert ok(s, "leave_meeting", {"meeting_id": meeting_id})["status"] == "left"
        fails(s, "leave_meeting", "not_in_meeting", {"meeting_id": meeting_id})


def test_the_host_runs_the_sync_they_started_early():
    seed = worlds_with(HOSTING)[0]
    db = SERVER.template(seed).db
    (sync,) = db.execute(HOSTING).fetchone()
    for tool, param in (("end_meeting", "meeting_id"), ("stop_recording", "meeting_id")):
        where = next(p.where for p in SERVER.tools[tool].params if p.name == param)
        assert [r[0] for r in db.execute(f"SELECT meeting_id FROM meetings WHERE {where}")] == [sync], tool
    with Session("video_meeting", world=seed) as s:
        assert ok(s, "get_my_account")["hosting_now"] == sync
        fails(s, "start_meeting", "already_started", {"meeting_id": sync})
        fails(s, "start_recording", "already_recording", {"meeting_id": sync})
        everyone = participants(s, sync)
        waiting = [p for p in everyone if p["status"] == "waiting"]
        loud = [p for p in everyone if p["status"] == "in_meeting" and p["role"] == "attendee" and not p["muted"]]
        assert waiting and loud
        assert ok(s, "mute_participant", {"participant_id": loud[0]["participant_id"]})["muted"]
        assert ok(s, "admit_participant", {"participant_id": waiting[0]["participant_id"]})["status"] == "in_meeting"
        if len(waiting) > 1:
            assert ok(s, "remove_participant", {"participant_id": waiting[1]["participant_id"]})["status"] == "removed"
        paused = ok(s, "stop_recording", {"meeting_id": sync})
        assert not paused["recording_now"] and 120 <= paused["recorded_seconds"] <= 600
        ended = ok(s, "end_meeting", {"meeting_id": sync})
        assert ended["recording"]["status"] == "processing"
        assert ended["recording"]["duration_seconds"] == paused["recorded_seconds"]


def test_a_participant_listing_says_where_they_are():
    from prove.synth.teachers.programmatic import _fitting_replies

    spec = registry.get("video_meeting").tools["list_participants"]
    for status, words in (("waiting", "waiting room"), ("in_meeting", "right now")):
        said = [r.text for r in _fitting_replies(spec, {"meeting_id": "MTG-1", "status": status})]
        assert said and all(words in r and "{result.participants.name}" in r for r in said), status
    # Everyone, in the meeting or still waiting: said with where each one is, not as "took part".
    said = [r.text for r in _fitting_replies(spec, {"meeting_id": "MTG-1"})]
    assert said and all("{result.participants_text}" in r and "took part" not in r for r in said)


def test_a_recording_is_asked_of_a_meeting_that_has_started():
    """"Is there a recording of the meeting 'Orbit Energy integration kickoff' from March 24?" asked on March 16:
    a meeting yet to start has no recording to ask about."""
    ask = next(as_ask(a) for a in registry.get("video_meeting").tools["list_recordings"].asks
               if "{meeting_id}" in as_ask(a).text)
    with Session(["video_meeting"]) as session:
        meetings = [m for status in ("scheduled", "ended")
                    for m in session.call("list_meetings", {"status": status}).data["meetings"]]
        assert {m["status"] for m in meetings} == {"scheduled", "ended"}
        for m in meetings:
            assert session.satisfies("meeting", m["meeting_id"], ask.fits["meeting_id"]) == (m["status"] == "ended"), m


def test_a_one_on_one_names_two_people() -> None:
    """"'1:1 Naomi / Naomi'": a one-on-one between two people of one first name names them in full."""
    for world in range(4):
        titles = [t for (t,) in registry.get("video_meeting").template(world).db.execute(
            "SELECT DISTINCT topic FROM meetings WHERE topic LIKE '1:1 %'")]
        assert titles
        for title in titles:
            a, b = title.removeprefix("1:1 ").split(" / ")
            assert a != b, title


def test_a_chat_message_fits_a_meeting_that_has_just_started() -> None:
    """"Kick off the meeting ... now. ... Post 'Thanks all, great discussion.' in the chat": a meeting chatted in may
    have just started, so no chat line is one that closes a meeting or breaks it up."""
    texts = registry.get("video_meeting").tools["send_chat_message"].values["text"]
    assert texts and not [t for t in texts if re.search(r"(?i)great discussion|thanks all|\bbreak\b", t)], texts
