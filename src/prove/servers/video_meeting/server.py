"""The video meeting server's declaration: one signed-in user's account on a Zoom-like service.

This module holds `server`, the entity kinds and ID types, the result models and the shared
rules. The tools live by area in toolsets that the package includes; `hooks.py` moves meetings
on as the clock moves:

    tools_meetings.py     account, directory, scheduling, invitations, passcodes
    tools_live.py         starting, joining, the waiting room, muting, chat, ending
    tools_recordings.py   recording a live meeting, cloud recordings, transcripts

Rules every tool follows:

- The user ("me") is the one person with `is_me = 1`. Every meeting in the world is one the
  user hosts or is invited to.
- Only the host starts, updates, cancels, invites to, records and ends a meeting, admits people
  from its waiting room, removes them, and mutes others. A host can run one live meeting at a
  time. A scheduled meeting can be started from 10 minutes before its start time.
- Colleagues' meetings run on their own: as the clock moves (`session.advance`), they start at
  their start time and end at their scheduled end. The user joins them with the passcode; if
  the waiting room is on, the host admits the user a minute later.
- When the user starts a meeting, invitees who accepted join at once (into the waiting room if
  it is on); the others who did not decline turn up 5 minutes after the start.
- Cloud recordings belong to the host. A recording is processed 20 minutes after its meeting
  ends, then its transcript can be read. Recording stops being possible once the stored
  recordings (not deleted) reach the plan's quota.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Sensitive, Server, ToolError
from prove.env.values import iso, spoken_day

from .world import (
    JOIN_URL,
    MB_PER_MINUTE,
    READY_AFTER_MINUTES,
    build_world,
    transcript,
)

PERSON = EntityKind("person", table="people", key="person_id", label="name",
                    description="a colleague or external contact in the directory (or the user)",
                    lister="search_people")
MEETING = EntityKind("meeting", table="meetings", key="meeting_id", label="topic",
                     description="a meeting the user hosts or is invited to",
                     live="status IN ('scheduled', 'live')")
PARTICIPANT = EntityKind("participant", table="participants", key="participant_id", label=None,
                         description="one person's presence in one meeting (waiting room included)",
                         live="status IN ('waiting', 'in_meeting')", stands_for="person_id")
CHAT_MESSAGE = EntityKind("chat_message", table="chat_messages", key="message_id", label="text",
                          description="a message in a meeting's chat")
RECORDING = EntityKind("recording", table="recordings", key="recording_id", label=None,
                       description="a cloud recording of a meeting the user hosted",
                       live="status = 'available'")

server = Server(
    "video_meeting", "Video meetings",
    "The account of one signed-in employee on a Zoom-like video meeting service: meetings they "
    "host or are invited to, with topics, start times, durations, passcodes and join links; "
    "scheduling, updating, cancelling and inviting; starting meetings (not too early), joining "
    "colleagues' meetings with a passcode, waiting rooms, admitting, removing and muting "
    "participants, in-meeting chat, ending meetings; instant meetings in the personal meeting "
    "room; cloud recordings with transcripts and a storage quota; the company directory.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[PERSON, MEETING, PARTICIPANT, CHAT_MESSAGE, RECORDING],
)

# ----- parameter and field types ----------------------------------------------------------------

PersonId = PERSON.id
MeetingId = MEETING.id
# A meeting the user hosts that has yet to take place: the ones they can change or start.
HostedMeetingId = MEETING.where("status = 'scheduled' AND host_id = (SELECT person_id FROM people WHERE is_me = 1)")
ParticipantId = PARTICIPANT.id
# Someone in the waiting room: the one a host admits.
WaitingParticipantId = PARTICIPANT.where("status = 'waiting'")
_HOSTING = "(SELECT meeting_id FROM meetings WHERE status = 'live' AND host_id = (SELECT person_id FROM people WHERE is_me = 1))"
# A meeting the user is hosting right now: the one they end; and the one whose recording runs.
LiveHostedMeetingId = MEETING.where(f"meeting_id IN {_HOSTING}")
RecordingMeetingId = MEETING.where(f"meeting_id IN {_HOSTING} AND recording_since IS NOT NULL")
# A colleague's live meeting the user is in (or waiting to be let in): the one they leave.
JoinedMeetingId = MEETING.where(
    "status = 'live' AND meeting_id IN (SELECT meeting_id FROM participants WHERE role = 'attendee' "
    "AND status IN ('waiting', 'in_meeting') AND person_id = (SELECT person_id FROM people WHERE is_me = 1))")
# Another person in the meeting the user is hosting or its waiting room (not the host): the one
# they remove, or, once in, mute ("background noise from the new participant" is never the
# user's own microphone).
HostedGuestId = PARTICIPANT.where(f"role = 'attendee' AND status IN ('waiting', 'in_meeting') "
                                  f"AND meeting_id IN {_HOSTING}")
HostedAttendeeId = PARTICIPANT.where(f"role = 'attendee' AND status = 'in_meeting' AND meeting_id IN {_HOSTING}")
MessageId = CHAT_MESSAGE.id
RecordingId = RECORDING.id
Passcode = Annotated[str, Sensitive()]

Topic = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Agenda = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
ChatText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=1000)]
Minutes = Annotated[int, Field(ge=5, le=1440)]
Limit = Annotated[int, Field(ge=1, le=100)]
Status = Literal["scheduled", "live", "ended", "cancelled"]
Response = Literal["needs_action", "accepted", "declined", "tentative"]
ParticipantStatus = Literal["waiting", "in_meeting", "left", "removed"]

# ----- result models ----------------------------------------------------------------------------


class Invitee(BaseModel):
    person_id: PersonId
    name: str
    email: str
    response: Response


class Meeting(BaseModel):
    meeting_id: MeetingId
    meeting_number: str = Field(description="the number people dial or type to join, such as '845 2231 9087'")
    topic: str
    agenda: str | None
    kind: Literal["scheduled", "instant", "personal_room"]
    host_id: PersonId
    host_name: str
    you_are_host: bool
    starts_at: str = Field(description="scheduled start, local time")
    ends_at: str = Field(description="scheduled end (start plus duration)")
    duration_minutes: int
    status: Status
    started_at: str | None
    ended_at: str | None
    join_url: str
    passcode: Passcode | None = Field(description="shown to the host only; invitees have it from their invitation")
    waiting_room: bool
    mute_on_entry: bool
    auto_record: bool
    recording_now: bool = Field(description="a cloud recording is running")
    in_meeting: int = Field(description="people in the meeting now (live meetings)")
    waiting: int = Field(description="people in the waiting room now (live meetings)")
    my_status: ParticipantStatus | None = Field(description="where the user is in this meeting, if they came")
    invitees: list[Invitee]
    when_text: str = Field(description="when it is and for how long, in words, such as 'is on March 17 at 10:00 AM "
                                       "for 45 minutes'")
    started_text: str = Field(description="whether it has started, in words, such as \"hasn't started yet; it starts "
                                          "March 17 at 10:00 AM\" or 'is live now; it started at 9:32 AM'")


class MeetingSummary(BaseModel):
    meeting_id: MeetingId
    topic: str
    host_name: str
    you_are_host: bool
    starts_at: str
    duration_minutes: int
    status: Status
    my_response: Response | None = Field(description="the user's answer to the invitation; null if they host it")


class MeetingList(BaseModel):
    meetings: list[MeetingSummary]
    total: int = Field(description="how many meetings matched, before `limit`")
    meetings_text: str = Field(description="the meetings in words, such as \"'Weekly sync' on March 16 at 9:00 AM "
                                           "(you host); 'Roadmap review' live now (hosted by Julia Zhang)\"")


class Participant(BaseModel):
    participant_id: ParticipantId
    meeting_id: MeetingId
    person_id: PersonId
    name: str
    role: Literal["host", "attendee"]
    status: ParticipantStatus
    muted: bool
    joined_at: str
    left_at: str | None


class ParticipantList(BaseModel):
    meeting_id: MeetingId
    participants: list[Participant]
    total: int
    participants_text: str = Field(description="who is where, in words, such as 'you and Leo Ramirez are in it now; "
                                               "Fiona Gomez and Alice Roberts are waiting to be let in'")


class ChatMessage(BaseModel):
    message_id: MessageId
    meeting_id: MeetingId
    sender_id: PersonId
    sender_name: str
    to_person_id: PersonId | None = Field(description="set for a private message")
    sent_at: str
    text: str


class ChatMessageList(BaseModel):
    meeting_id: MeetingId
    messages: list[ChatMessage]
    total: int


class Recording(BaseModel):
    recording_id: RecordingId
    meeting_id: MeetingId
    topic: str
    meeting_date: str
    duration_seconds: int
    size_mb: float
    status: Literal["processing", "available", "deleted"]
    ready_at: str = Field(description="when processing finishes (or finished)")
    play_url: str | None = Field(description="where to watch it, once available")


# ----- who, and what they may do -------------------------------------------------------------------


def me(ctx: Ctx) -> str:
    """The signed-in user's person ID."""
    return ctx.db.execute("SELECT person_id FROM people WHERE is_me = 1").fetchone()[0]


def ends_at(row: sqlite3.Row | dict) -> str:
    return iso(datetime.fromisoformat(row["starts_at"]) + timedelta(minutes=row["duration_minutes"]))


PARTICIPANTS = ("SELECT pa.*, p.name FROM participants pa JOIN people p ON p.person_id = pa.person_id ")


def fetch_participant(ctx: Ctx, participant_id: str) -> sqlite3.Row:
    """A participant's row with the person's name."""
    return ctx.get("participant", participant_id, PARTICIPANTS + "WHERE pa.participant_id = ?")


def require_host(ctx: Ctx, meeting: sqlite3.Row, action: str) -> None:
    if meeting["host_id"] != me(ctx):
        (host,) = ctx.db.execute("SELECT name FROM people WHERE person_id = ?", (meeting["host_id"],)).fetchone()
        raise ToolError("not_host", f"Only the host, {host}, can {action} '{meeting['topic']}'.",
                        hint="Ask the host; you can join, leave and chat in meetings you are invited to.")


def require_live(meeting: sqlite3.Row) -> None:
    """A meeting that is running now, or the ToolError saying what it is instead."""
    status = meeting["status"]
    if status == "scheduled":
        raise ToolError("meeting_not_started", f"'{meeting['topic']}' has not started; it is scheduled for "
                        f"{meeting['starts_at']}.", hint="The host has to start it first.")
    if status == "ended":
        raise ToolError("meeting_ended", f"'{meeting['topic']}' ended at {meeting['ended_at']}.")
    if status == "cancelled":
        raise ToolError("meeting_cancelled", f"'{meeting['topic']}' was cancelled.")


def require_scheduled(meeting: sqlite3.Row) -> None:
    """A meeting that has not started, ended or been cancelled."""
    status = meeting["status"]
    if status == "live":
        raise ToolError("already_started", f"'{meeting['topic']}' is already running (since "
                        f"{meeting['started_at']}).", hint="End it with end_meeting if it should stop.")
    if status == "ended":
        raise ToolError("meeting_ended", f"'{meeting['topic']}' already took place and ended at "
                        f"{meeting['ended_at']}.", hint="Schedule a new meeting with schedule_meeting.")
    if status == "cancelled":
        raise ToolError("meeting_cancelled", f"'{meeting['topic']}' was cancelled.",
                        hint="Schedule a new meeting with schedule_meeting.")


def require_attended(ctx: Ctx, meeting: sqlite3.Row) -> None:
    """Meetings the user hosts, or took part in, have a participant list and chat the user may read."""
    if meeting["status"] == "cancelled":
        raise ToolError("meeting_cancelled", f"'{meeting['topic']}' was cancelled; nobody met.")
    if meeting["status"] == "scheduled":
        raise ToolError("meeting_not_started", f"'{meeting['topic']}' has not started; it is scheduled for "
                        f"{meeting['starts_at']}.")
    user = me(ctx)
    if meeting["host_id"] == user:
        return
    came = ctx.db.execute("SELECT 1 FROM participants WHERE meeting_id = ? AND person_id = ?",
                          (meeting["meeting_id"], user)).fetchone()
    if came is None:
        raise ToolError("not_attended", f"You did not join '{meeting['topic']}', so its participants and chat "
                        "are not visible to you.", hint="Join the meeting first (join_meeting), if it is live.")


def storage_used(ctx: Ctx) -> float:
    (used,) = ctx.db.execute("SELECT coalesce(sum(size_mb), 0) FROM recordings WHERE status != 'deleted'").fetchone()
    return round(used, 1)


def live_hosted(ctx: Ctx) -> sqlite3.Row | None:
    """The meeting the user is hosting right now, if any."""
    return ctx.db.execute("SELECT * FROM meetings WHERE host_id = ? AND status = 'live'", (me(ctx),)).fetchone()


# ----- building results ------------------------------------------------------------------------------


def show_number(number: str) -> str:
    return f"{number[:3]} {number[3:7]} {number[7:]}"


def spoken_time(at: str, today: date) -> str:
    """'March 17 at 10:00 AM'."""
    t = datetime.fromisoformat(at)
    return f"{spoken_day(t.date(), today)} at {t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def _when_text(row: sqlite3.Row, today: date) -> str:
    """'is on March 17 at 10:00 AM for 45 minutes', 'was on ...' once over, 'was set for ...' if cancelled."""
    verb = {"scheduled": "is on", "live": "is on", "ended": "was on", "cancelled": "was set for"}[row["status"]]
    return f"{verb} {spoken_time(row['starts_at'], today)} for {row['duration_minutes']} minutes" + (
        " but is cancelled" if row["status"] == "cancelled" else "")


def _started_text(row: sqlite3.Row, today: date) -> str:
    started = datetime.fromisoformat(row["started_at"]) if row["started_at"] else None
    clock = f"{started.hour % 12 or 12}:{started.minute:02d} {'AM' if started.hour < 12 else 'PM'}" if started else ""
    return {"scheduled": f"hasn't started yet; it starts {spoken_time(row['starts_at'], today)}",
            "live": f"is live now; it started at {clock}" if started else "is live now",
            "ended": "has ended", "cancelled": "was cancelled"}[row["status"]]


def meeting_model(ctx: Ctx, meeting_id: str) -> Meeting:
    row = ctx.get("meeting", meeting_id)
    user = me(ctx)
    (host_name,) = ctx.db.execute("SELECT name FROM people WHERE person_id = ?", (row["host_id"],)).fetchone()
    counts = dict(ctx.db.execute("SELECT status, count(*) FROM participants WHERE meeting_id = ? GROUP BY status",
                                 (meeting_id,)).fetchall())
    mine = ctx.db.execute("SELECT status FROM participants WHERE meeting_id = ? AND person_id = ?",
                          (meeting_id, user)).fetchone()
    invitees = [Invitee(**dict(r)) for r in ctx.db.execute(
        "SELECT p.person_id, p.name, p.email, i.response FROM invitees i JOIN people p ON p.person_id = i.person_id "
        "WHERE i.meeting_id = ? ORDER BY p.name", (meeting_id,))]
    is_host = row["host_id"] == user
    return Meeting(
        meeting_id=row["meeting_id"], meeting_number=show_number(row["meeting_number"]), topic=row["topic"],
        agenda=row["agenda"], kind=row["kind"], host_id=row["host_id"], host_name=host_name, you_are_host=is_host,
        starts_at=row["starts_at"], ends_at=ends_at(row), duration_minutes=row["duration_minutes"],
        status=row["status"], started_at=row["started_at"], ended_at=row["ended_at"],
        join_url=JOIN_URL.format(number=row["meeting_number"]), passcode=row["passcode"] if is_host else None,
        waiting_room=bool(row["waiting_room"]), mute_on_entry=bool(row["mute_on_entry"]),
        auto_record=bool(row["auto_record"]), recording_now=row["recording_since"] is not None,
        in_meeting=counts.get("in_meeting", 0), waiting=counts.get("waiting", 0),
        my_status=mine["status"] if mine else None, invitees=invitees, when_text=_when_text(row, ctx.today()),
        started_text=_started_text(row, ctx.today()))


def participant_model(row: sqlite3.Row) -> Participant:
    return Participant(participant_id=row["participant_id"], meeting_id=row["meeting_id"],
                       person_id=row["person_id"], name=row["name"], role=row["role"], status=row["status"],
                       muted=bool(row["muted"]), joined_at=row["joined_at"], left_at=row["left_at"])


RECORDINGS = ("SELECT r.*, m.topic, substr(m.started_at, 1, 10) AS meeting_date FROM recordings r "
              "JOIN meetings m ON m.meeting_id = r.meeting_id ")


def recording_model(row: sqlite3.Row) -> Recording:
    return Recording(recording_id=row["recording_id"], meeting_id=row["meeting_id"], topic=row["topic"],
                     meeting_date=row["meeting_date"], duration_seconds=row["duration_seconds"],
                     size_mb=row["size_mb"], status=row["status"], ready_at=row["ready_at"],
                     play_url=(f"https://vmeet.app/rec/play/{row['recording_id'].lower()}"
                               if row["status"] == "available" else None))


# ----- what meetings do by themselves -------------------------------------------------------------


def arrive(ctx: Ctx, meeting: sqlite3.Row | dict, person_id: str, at: str, role: str = "attendee") -> str:
    """Put a person into a live meeting (or its waiting room); returns the participant ID."""
    waiting = role != "host" and meeting["waiting_room"] and meeting["host_id"] != person_id
    status = "waiting" if waiting else "in_meeting"
    muted = int(role != "host" and bool(meeting["mute_on_entry"]))
    found = ctx.db.execute("SELECT participant_id FROM participants WHERE meeting_id = ? AND person_id = ?",
                           (meeting["meeting_id"], person_id)).fetchone()
    if found:
        ctx.db.execute("UPDATE participants SET status = ?, muted = ?, joined_at = ?, left_at = NULL "
                       "WHERE participant_id = ?", (status, muted, at, found[0]))
        return found[0]
    participant_id = ctx.new_id("PRT")
    ctx.db.execute("INSERT INTO participants (participant_id, meeting_id, person_id, role, status, muted, joined_at, "
                   "left_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                   (participant_id, meeting["meeting_id"], person_id, role, status, muted, at))
    return participant_id


def stop_recording_at(ctx: Ctx, meeting: sqlite3.Row, at: datetime) -> int:
    """Close the running recording stretch; returns the meeting's recorded seconds."""
    total = meeting["recorded_seconds"]
    if meeting["recording_since"] is not None:
        total += max(0, int((at - datetime.fromisoformat(meeting["recording_since"])).total_seconds()))
        ctx.db.execute("UPDATE meetings SET recording_since = NULL, recorded_seconds = ? WHERE meeting_id = ?",
                       (total, meeting["meeting_id"]))
    return total


def close_meeting(ctx: Ctx, meeting: sqlite3.Row, at: datetime) -> str | None:
    """End a live meeting at `at`: everyone leaves, the recording is saved; returns its ID."""
    stamp = iso(at)
    recorded = stop_recording_at(ctx, meeting, at)
    speakers = [r[0] for r in ctx.db.execute(
        "SELECT p.name FROM participants pa JOIN people p ON p.person_id = pa.person_id WHERE pa.meeting_id = ? "
        "AND pa.status != 'waiting' ORDER BY pa.role = 'host' DESC, pa.joined_at, pa.participant_id",
        (meeting["meeting_id"],))]
    ctx.db.execute("UPDATE participants SET status = 'left', left_at = ? WHERE meeting_id = ? "
                   "AND status IN ('waiting', 'in_meeting')", (stamp, meeting["meeting_id"]))
    ctx.db.execute("UPDATE meetings SET status = 'ended', ended_at = ? WHERE meeting_id = ?",
                   (stamp, meeting["meeting_id"]))
    was_recorded = recorded > 0 or meeting["recording_since"] is not None
    if not was_recorded or meeting["host_id"] != me(ctx):
        return None
    seconds = max(1, recorded)
    recording_id = ctx.new_id("REC")
    ctx.db.execute("INSERT INTO recordings (recording_id, meeting_id, duration_seconds, size_mb, status, created_at, "
                   "ready_at) VALUES (?, ?, ?, ?, 'processing', ?, ?)",
                   (recording_id, meeting["meeting_id"], seconds, round(seconds / 60 * MB_PER_MINUTE, 1), stamp,
                    iso(at + timedelta(minutes=READY_AFTER_MINUTES))))
    for line in transcript(recording_id, meeting["topic"], speakers or ["Host"], seconds, ctx.rng()):
        ctx.db.execute("INSERT INTO transcript_lines (recording_id, seq, offset_seconds, speaker, text) "
                       "VALUES (:recording_id, :seq, :offset_seconds, :speaker, :text)", line)
    return recording_id
