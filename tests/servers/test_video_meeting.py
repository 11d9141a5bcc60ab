"""Behaviour tests of the video meeting server: its world, its main flows and its failures.

Every test works on a fresh `Session("video_meeting", world=0)` and finds the meetings it needs
through the server's own list tools, the way a model would.
"""

from __future__ import annotations

from typing import Any

import pytest

from prove.env import Session, registry

SERVER = registry.get("video_meeting")


@pytest.fixture
def s():
    with Session("video_meeting", world=0) as session:
        yield session


def ok(s: Session, tool: str, **args: Any) -> Any:
    result = s.call(tool, args)
    assert result.ok, f"{tool}({args}) failed: {result.error}"
    return result.data


def fails(s: Session, tool: str, **args: Any) -> str:
    before = s.fingerprint()
    result = s.call(tool, args)
    assert not result.ok, f"{tool}({args}) should have failed but returned {result.data}"
    assert s.fingerprint() == before, f"failed call {tool} changed the state"
    return result.code


def today(s: Session, **filters: Any) -> list[dict]:
    return ok(s, "list_meetings", from_date="2026-03-16", to_date="2026-03-16", status="all", **filters)["meetings"]


def colleague_live(s: Session) -> dict:
    return next(m for m in today(s) if m["status"] == "live" and not m["you_are_host"])


def my_sync(s: Session) -> dict:
    return next(m for m in today(s, role="host") if m["starts_at"] == "2026-03-16T09:00:00")


def passcode(s: Session, meeting_id: str) -> str:
    return ok(s, "get_meeting_passcode", meeting_id=meeting_id)["passcode"]


def participants(s: Session, meeting_id: str, status: str | None = None) -> list[dict]:
    args = {"meeting_id": meeting_id} | ({"status": status} if status else {})
    return ok(s, "list_participants", **args)["participants"]


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
    meeting = ok(s, "get_meeting", meeting_id=live["meeting_id"])
    assert meeting["waiting_room"] and meeting["passcode"] is None and meeting["my_status"] is None
    assert meeting["in_meeting"] >= 2
    sync = ok(s, "get_meeting", meeting_id=my_sync(s)["meeting_id"])
    assert sync["status"] == "scheduled" and sync["you_are_host"] and sync["passcode"]
    past = ok(s, "list_meetings", status="ended", limit=100)
    assert past["total"] > 30
    assert ok(s, "list_recordings")["total"] >= 3


# ----- hosting a meeting ------------------------------------------------------------------------


def test_host_runs_a_meeting_from_waiting_room_to_transcript(s):
    sync = my_sync(s)["meeting_id"]
    started = ok(s, "start_meeting", meeting_id=sync)
    assert started["status"] == "live" and started["recording_now"]  # automatic recording is on
    assert ok(s, "get_my_account")["hosting_now"] == sync
    waiting = participants(s, sync, "waiting")
    assert len(waiting) >= 2 and all(p["muted"] for p in waiting)  # mute on entry
    assert fails(s, "send_chat_message", meeting_id=sync, text="Hi", to_participant_id=waiting[0]["participant_id"]) \
        == "recipient_not_present"

    admitted = ok(s, "admit_participant", participant_id=waiting[0]["participant_id"])
    assert admitted["status"] == "in_meeting"
    assert fails(s, "admit_participant", participant_id=waiting[0]["participant_id"]) == "not_waiting"
    assert fails(s, "mute_participant", participant_id=admitted["participant_id"]) == "already_muted"
    assert fails(s, "mute_participant", participant_id=admitted["participant_id"], muted=False) == "unmute_not_allowed"
    removed = ok(s, "remove_participant", participant_id=waiting[1]["participant_id"])
    assert removed["status"] == "removed"
    assert fails(s, "remove_participant", participant_id=waiting[1]["participant_id"]) == "not_in_meeting"
    host = participants(s, sync)[0]
    assert host["role"] == "host"
    assert fails(s, "remove_participant", participant_id=host["participant_id"]) == "cannot_remove_host"

    sent = ok(s, "send_chat_message", meeting_id=sync, text="Agenda is in the doc.",
              to_participant_id=admitted["participant_id"])
    assert sent["to_person_id"] == admitted["person_id"]
    assert ok(s, "get_meeting_chat", meeting_id=sync)["messages"][-1]["message_id"] == sent["message_id"]

    s.advance(25 * 60)
    ended = ok(s, "end_meeting", meeting_id=sync)
    assert ended["meeting"]["status"] == "ended" and ended["meeting"]["ended_at"] == "2026-03-16T09:25:00"
    recording = ended["recording"]
    assert recording["status"] == "processing" and recording["duration_seconds"] == 25 * 60
    assert {p["status"] for p in participants(s, sync)} == {"left", "removed"}
    assert fails(s, "get_transcript", recording_id=recording["recording_id"]) == "recording_processing"
    assert fails(s, "end_meeting", meeting_id=sync) == "meeting_ended"

    s.advance(20 * 60)  # processing takes 20 minutes
    lines = ok(s, "get_transcript", recording_id=recording["recording_id"])["lines"]
    assert len(lines) >= 3 and lines[0]["speaker"] == ok(s, "get_my_account")["name"]
    listed = ok(s, "list_recordings", meeting_id=sync)["recordings"]
    assert listed[0]["status"] == "available" and listed[0]["play_url"]


def test_meeting_cannot_start_too_early(s):
    call = next(m for m in today(s, role="host") if m["starts_at"] == "2026-03-16T11:00:00")["meeting_id"]
    assert fails(s, "start_meeting", meeting_id=call) == "too_early"
    s.advance(110 * 60)  # 10:50, ten minutes before
    assert ok(s, "start_meeting", meeting_id=call)["status"] == "live"
    assert fails(s, "start_meeting", meeting_id=call) == "already_started"
    assert fails(s, "cancel_meeting", meeting_id=call) == "already_started"


def test_one_live_meeting_per_host(s):
    sync = my_sync(s)["meeting_id"]
    ok(s, "start_meeting", meeting_id=sync)
    assert fails(s, "start_instant_meeting", topic="Quick chat") == "host_busy"
    ok(s, "end_meeting", meeting_id=sync)
    room = ok(s, "start_instant_meeting", use_personal_room=True)
    account = ok(s, "get_my_account")
    assert room["kind"] == "personal_room" and room["waiting_room"]
    assert room["meeting_number"] == account["personal_meeting_number"]
    assert room["passcode"] == account["personal_room_passcode"]
    assert account["hosting_now"] == room["meeting_id"]


def test_latecomers_arrive_five_minutes_after_the_start(s):
    sync = my_sync(s)["meeting_id"]
    meeting = ok(s, "start_meeting", meeting_id=sync)
    late = {i["person_id"] for i in meeting["invitees"] if i["response"] in ("needs_action", "tentative")}
    here = {p["person_id"] for p in participants(s, sync)}
    assert late and not late & here
    s.advance(4 * 60)
    assert not late & {p["person_id"] for p in participants(s, sync)}
    s.advance(60)
    assert late <= {p["person_id"] for p in participants(s, sync, "waiting")}


def test_recording_storage_runs_out_and_deleting_frees_it(s):
    first = ok(s, "start_instant_meeting", topic="Long workshop")["meeting_id"]
    assert not ok(s, "get_meeting", meeting_id=first)["recording_now"]
    assert fails(s, "stop_recording", meeting_id=first) == "not_recording"
    state = ok(s, "start_recording", meeting_id=first)
    assert state["recording_now"]
    assert fails(s, "start_recording", meeting_id=first) == "already_recording"
    s.advance(3 * 3600)
    stopped = ok(s, "stop_recording", meeting_id=first)
    assert stopped["recorded_seconds"] == 3 * 3600 and not stopped["recording_now"]
    recording = ok(s, "end_meeting", meeting_id=first)["recording"]
    assert recording["size_mb"] == 3 * 60 * 12.0
    second = ok(s, "start_instant_meeting", topic="Follow-up")["meeting_id"]
    assert fails(s, "start_recording", meeting_id=second) == "storage_full"
    deleted = ok(s, "delete_recording", recording_id=recording["recording_id"])
    assert deleted["recording"]["status"] == "deleted" and deleted["freed_mb"] == recording["size_mb"]
    assert fails(s, "delete_recording", recording_id=recording["recording_id"]) == "already_deleted"
    assert fails(s, "get_transcript", recording_id=recording["recording_id"]) == "recording_deleted"
    assert ok(s, "start_recording", meeting_id=second)["recording_now"]


# ----- scheduling -----------------------------------------------------------------------------------


def test_schedule_update_invite_and_cancel(s):
    people = ok(s, "search_people", query="a", limit=3)["people"]
    meeting = ok(s, "schedule_meeting", topic="Roadmap review", start_time="2026-03-18T15:00:00",
                 duration_minutes=45, invitees=[people[0]["person_id"]], passcode="Rm7q2xKd")
    mid = meeting["meeting_id"]
    assert meeting["status"] == "scheduled" and meeting["passcode"] == "Rm7q2xKd"
    assert meeting["ends_at"] == "2026-03-18T15:45:00" and meeting["join_url"].startswith("https://")
    assert any(m["meeting_id"] == mid for m in ok(s, "list_meetings", query="roadmap review")["meetings"])

    moved = ok(s, "update_meeting", meeting_id=mid, start_time="2026-03-19T10:00:00", auto_record=True)
    assert moved["starts_at"] == "2026-03-19T10:00:00" and moved["auto_record"]
    assert fails(s, "update_meeting", meeting_id=mid) == "nothing_to_update"
    assert fails(s, "update_meeting", meeting_id=mid, start_time="2026-03-13T10:00:00") == "past_date"
    assert fails(s, "update_meeting", meeting_id=mid, start_time="next tuesday") == "invalid_time"

    invited = ok(s, "invite_to_meeting", meeting_id=mid, person_ids=[people[1]["person_id"]])
    assert invited["invitees"] == 2
    assert fails(s, "invite_to_meeting", meeting_id=mid, person_ids=[people[1]["person_id"]]) == "already_invited"
    assert fails(s, "invite_to_meeting", meeting_id=mid, person_ids=["PER-99999"]) == "not_found"

    assert ok(s, "cancel_meeting", meeting_id=mid)["status"] == "cancelled"
    assert fails(s, "cancel_meeting", meeting_id=mid) == "meeting_cancelled"
    assert fails(s, "start_meeting", meeting_id=mid) == "meeting_cancelled"
    assert any(m["meeting_id"] == mid for m in ok(s, "list_meetings", status="cancelled")["meetings"])


def test_scheduling_failures(s):
    assert fails(s, "schedule_meeting", topic="Old", start_time="2026-03-13T10:00:00") == "past_date"
    assert fails(s, "schedule_meeting", topic="Zoned", start_time="2026-03-18T10:00:00Z") == "invalid_time"
    assert fails(s, "schedule_meeting", topic="Weak", start_time="2026-03-18T10:00:00",
                 passcode="111111") == "invalid_passcode"
    me = ok(s, "get_my_account")["person_id"]
    assert fails(s, "schedule_meeting", topic="Self", start_time="2026-03-18T10:00:00",
                 invitees=[me]) == "already_invited"
    assert fails(s, "list_meetings", from_date="2026-03-20", to_date="2026-03-18") == "end_before_start"


def test_only_the_host_manages_a_meeting(s):
    live = colleague_live(s)["meeting_id"]
    assert fails(s, "end_meeting", meeting_id=live) == "not_host"
    assert fails(s, "start_recording", meeting_id=live) == "not_host"
    assert fails(s, "update_meeting", meeting_id=live, topic="Mine now") == "not_host"
    someone = next(p for p in participants_as_host_or_join(s, live) if p["role"] == "attendee")
    assert fails(s, "mute_participant", participant_id=someone["participant_id"]) == "not_host"
    assert fails(s, "admit_participant", participant_id=someone["participant_id"]) == "not_host"


def participants_as_host_or_join(s: Session, meeting_id: str) -> list[dict]:
    ok(s, "join_meeting", meeting_id=meeting_id, passcode=passcode(s, meeting_id))
    return participants(s, meeting_id)


# ----- joining colleagues' meetings --------------------------------------------------------------------


def test_join_a_live_meeting_through_the_waiting_room(s):
    live = colleague_live(s)["meeting_id"]
    assert fails(s, "list_participants", meeting_id=live) == "not_attended"
    assert fails(s, "send_chat_message", meeting_id=live, text="Hello") == "not_in_meeting"
    assert fails(s, "join_meeting", meeting_id=live, passcode="wrong-code") == "wrong_passcode"
    joined = ok(s, "join_meeting", meeting_id=live, passcode=passcode(s, live))
    assert joined["status"] == "waiting" and joined["muted"]
    assert fails(s, "join_meeting", meeting_id=live, passcode=passcode(s, live)) == "already_joined"
    assert fails(s, "send_chat_message", meeting_id=live, text="Hello") == "not_in_meeting"

    s.advance(60)  # the host admits the user
    assert ok(s, "get_meeting", meeting_id=live)["my_status"] == "in_meeting"
    me = joined["participant_id"]
    assert ok(s, "mute_participant", participant_id=me, muted=False)["muted"] is False
    assert fails(s, "mute_participant", participant_id=me, muted=False) == "not_muted"
    ok(s, "send_chat_message", meeting_id=live, text="Joining late, sorry!")
    chat = ok(s, "get_meeting_chat", meeting_id=live)["messages"]
    assert chat[-1]["text"] == "Joining late, sorry!"

    assert ok(s, "leave_meeting", meeting_id=live)["status"] == "left"
    assert fails(s, "leave_meeting", meeting_id=live) == "not_in_meeting"
    assert ok(s, "join_meeting", meeting_id=live, passcode=passcode(s, live))["participant_id"] == me


def test_colleague_meetings_start_and_end_on_schedule(s):
    afternoon = next(m for m in today(s, role="invited") if m["starts_at"] == "2026-03-16T13:30:00")
    mid = afternoon["meeting_id"]
    code = passcode(s, mid)
    assert fails(s, "join_meeting", meeting_id=mid, passcode=code) == "meeting_not_started"
    assert fails(s, "get_meeting_chat", meeting_id=mid) == "meeting_not_started"
    s.advance(4.5 * 3600)  # 13:30
    meeting = ok(s, "get_meeting", meeting_id=mid)
    assert meeting["status"] == "live" and meeting["started_at"] == "2026-03-16T13:30:00"
    joined = ok(s, "join_meeting", meeting_id=mid, passcode=code)
    assert joined["status"] == "in_meeting"  # no waiting room
    # The morning meeting ended at its scheduled end, 10:00.
    morning = ok(s, "get_meeting", meeting_id=colleague_live_id(s))
    assert morning["status"] == "ended" and morning["ended_at"] == "2026-03-16T10:00:00"
    assert fails(s, "join_meeting", meeting_id=morning["meeting_id"], passcode=passcode(s, morning["meeting_id"])) \
        == "meeting_ended"
    s.advance(3600)
    assert ok(s, "get_meeting", meeting_id=mid)["my_status"] == "left"


def colleague_live_id(s: Session) -> str:
    return next(m for m in today(s, role="invited") if m["starts_at"] == "2026-03-16T08:30:00")["meeting_id"]


def test_host_cannot_join_or_leave_their_own_meeting(s):
    sync = my_sync(s)["meeting_id"]
    assert fails(s, "join_meeting", meeting_id=sync, passcode=passcode(s, sync)) == "host_must_start"
    ok(s, "start_meeting", meeting_id=sync)
    assert fails(s, "leave_meeting", meeting_id=sync) == "host_cannot_leave"


def test_past_meetings_keep_attendance_and_chat(s):
    past = ok(s, "list_meetings", status="ended", role="host", limit=100)["meetings"]
    attended = participants(s, past[0]["meeting_id"])
    assert attended and all(p["status"] == "left" and p["left_at"] for p in attended)
    chats = [s.call("get_meeting_chat", {"meeting_id": m["meeting_id"]})
             for m in ok(s, "list_meetings", status="ended", limit=100)["meetings"]]
    assert any(c.ok and c.data["total"] for c in chats)
    assert {c.code for c in chats if not c.ok} <= {"not_attended"}  # meetings the user skipped
    assert fails(s, "send_chat_message", meeting_id=past[0]["meeting_id"], text="Late note") == "meeting_ended"
    assert fails(s, "get_meeting", meeting_id="MTG-1") == "not_found"
