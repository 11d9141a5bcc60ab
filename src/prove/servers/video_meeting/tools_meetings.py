"""Video meeting tools: the account, the directory, scheduling and invitations."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, parse_date, parse_time, said_in_part

from .server import (
    Agenda,
    HostedMeetingId,
    Limit,
    Meeting,
    MeetingId,
    MeetingList,
    MeetingSummary,
    Minutes,
    Passcode,
    PersonId,
    Query,
    Topic,
    live_hosted,
    me,
    meeting_model,
    require_host,
    require_scheduled,
    show_number,
    spoken_time,
    storage_used,
)
from .world import JOIN_URL, MAX_PARTICIPANTS, PASSCODE_ALPHABET

tools = Toolset("meetings")

Invitees = Annotated[list[PersonId], Field(max_length=50)]

# ----- models -------------------------------------------------------------------------------------


class Account(BaseModel):
    person_id: PersonId
    name: str
    email: str
    company: str
    plan: str
    max_participants: int
    storage_quota_mb: float
    storage_used_mb: float = Field(description="cloud recordings not deleted")
    storage_free_mb: float = Field(description="the quota not used yet")
    personal_meeting_number: str
    personal_room_url: str
    personal_room_passcode: Passcode
    hosting_now: MeetingId | None = Field(description="the meeting the user is hosting right now, if any")
    storage_text: str = Field(description="the recording storage used of the quota and left, in words, such as "
                                          "'3.5 GB of your 5 GB, so 1.5 GB is left'")


class Person(BaseModel):
    person_id: PersonId
    name: str
    email: str
    company: str
    job_title: str | None
    is_colleague: bool


class PersonList(BaseModel):
    people: list[Person]
    total: int
    people_text: str = Field(description="the people in words, such as 'Fiona Gomez, Head of Engineering at Redwood "
                                         "Analytics (an outside contact)'")


class MeetingPasscode(BaseModel):
    meeting_id: MeetingId
    passcode: Passcode


class Invitation(BaseModel):
    meeting_id: MeetingId
    topic: str
    invited: list[PersonId] = Field(description="the people this call invited")
    invitees: int = Field(description="how many people are invited now")


# ----- the account and the directory ------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What's my personal meeting room link?",
    "How much cloud recording storage do I have left?",
    "Which plan am I on, and how many people can join my meetings?",
], reply=[
    # One reply a question: the room's link; the storage used of the quota; the plan and its capacity.
    "Your personal meeting room is at {result.personal_room_url}.",
    "Your recordings use {result.storage_text}.",
    "You're on the {result.plan} plan; up to {result.max_participants} people can join your meetings.",
])
def get_my_account(ctx: Ctx) -> Account:
    """Show the signed-in user's account: plan, capacity, recording storage and personal meeting room.

    Returns:
        The user's name and email, plan, meeting capacity, cloud storage quota and use (MB),
        personal meeting number, link and passcode, and the meeting they are hosting now, if any.
    """
    row = ctx.db.execute("SELECT a.*, p.name, p.email, p.company FROM account a "
                         "JOIN people p ON p.person_id = a.person_id").fetchone()
    hosting = live_hosted(ctx)
    quota, used = row["storage_quota_mb"], storage_used(ctx)
    return Account(person_id=row["person_id"], name=row["name"], email=row["email"], company=row["company"],
                   plan=row["plan"], max_participants=row["max_participants"],
                   storage_quota_mb=row["storage_quota_mb"], storage_used_mb=storage_used(ctx),
                   storage_free_mb=round(max(row["storage_quota_mb"] - storage_used(ctx), 0.0), 1),
                   personal_meeting_number=show_number(row["personal_meeting_number"]),
                   personal_room_url=JOIN_URL.format(number=row["personal_meeting_number"]),
                   personal_room_passcode=row["personal_room_passcode"],
                   hosting_now=hosting["meeting_id"] if hosting else None,
                   storage_text=f"{_size(used)} of your {_size(quota)}, so {_size(max(quota - used, 0.0))} "
                                f"{'is' if quota >= 1024 else 'are'} left")


def _size(mb: float) -> str:
    """Storage as people say it: '3.5 GB', '5 GB', '820 MB'."""
    if mb >= 1024:
        return f"{mb / 1024:.1f}".removesuffix(".0") + " GB"
    return f"{mb:,.0f} MB"


@tools.tool(effect=READ, asks=[
    "Find {query} in the directory.",
    "Look up {query} in the directory for me.",
], reply=[
    "I found {result.total} people: {result.people_text}.",
])
def search_people(ctx: Ctx, query: Query, limit: Limit = 20) -> PersonList:
    """Find colleagues and external contacts by part of their name, email or company.

    Args:
        query: text to look for, such as 'Chen' or 'northwind'.
        limit: the most people to return, 1 to 100, such as 20.

    Returns:
        The matching people (ID, name, email, company, job title, colleague or not) and how many
        matched.
    """
    like = "%" + query.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = ctx.db.execute("SELECT * FROM people WHERE is_me = 0 AND (lower(name) LIKE :q ESCAPE '\\' OR "
                          "lower(email) LIKE :q ESCAPE '\\' OR lower(company) LIKE :q ESCAPE '\\') ORDER BY name",
                          {"q": like}).fetchall()
    people = [Person(person_id=r["person_id"], name=r["name"], email=r["email"], company=r["company"],
                     job_title=r["job_title"], is_colleague=bool(r["is_colleague"])) for r in rows]
    shown = people[:limit] if len(people[:limit]) <= 8 else people[:6]
    said = [p.name + (f", {p.job_title}" if p.job_title else "") + f" at {p.company}"
            + ("" if p.is_colleague else " (an outside contact)") for p in shown]
    return PersonList(people=people[:limit], total=len(people), people_text=said_in_part(said, len(people), "nobody"))


# ----- reading meetings -----------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What meetings do I have coming up?",
    Ask("Show me my cancelled meetings.", status="cancelled"),
    Ask("Which meetings have already ended?", status="ended"),
    Ask("Which meetings am I hosting between {from_date} and {to_date}?", role="host"),
    "Do I have any meetings with '{query}' in the title?",
    "Find the meeting called '{query}'.",
    Ask("What meetings am I invited to between {from_date} and {to_date}?", role="invited"),
], reply=[
    "{result.total} meetings: {result.meetings_text}.",
])
def list_meetings(ctx: Ctx, status: Literal["upcoming", "scheduled", "live", "ended", "cancelled", "all"] = "upcoming",
                  role: Literal["host", "invited"] | None = None, from_date: str | None = None,
                  to_date: str | None = None, query: Query | None = None, limit: Limit = 20) -> MeetingList:
    """List the meetings the user hosts or is invited to.

    Upcoming, scheduled and live meetings come earliest first; ended, cancelled and 'all' come
    newest first.

    Args:
        status: 'upcoming' (the default: live or scheduled), 'scheduled', 'live', 'ended',
            'cancelled' or 'all'.
        role: 'host' for meetings the user hosts, 'invited' for those they are invited to;
            omit for both.
        from_date: only meetings starting on or after this day, such as '2026-03-16'.
        to_date: only meetings starting on or before this day, such as '2026-03-20'.
        query: only meetings whose topic contains this text, such as 'sync'.
        limit: the most meetings to return, 1 to 100, such as 20.

    Returns:
        The meetings (ID, topic, host, start, duration, status, the user's answer) and how many
        matched.

    Raises:
        invalid_date: a date is malformed or outside 2000-2099.
        end_before_start: `to_date` is before `from_date`.
    """
    user = me(ctx)
    where = ["1"]
    params: dict[str, object] = {"me": user}
    if status == "upcoming":
        where.append("m.status IN ('scheduled', 'live')")
    elif status != "all":
        where.append("m.status = :status")
        params["status"] = status
    if role == "host":
        where.append("m.host_id = :me")
    elif role == "invited":
        where.append("m.host_id != :me")
    start = parse_date(from_date, "from_date").isoformat() if from_date is not None else None
    end = parse_date(to_date, "to_date").isoformat() if to_date is not None else None
    if start and end and end < start:
        raise ToolError("end_before_start", f"to_date {end} is before from_date {start}.")
    if start:
        where.append("m.starts_at >= :start")
        params["start"] = start
    if end:
        where.append("m.starts_at < :end")
        params["end"] = (date.fromisoformat(end) + timedelta(days=1)).isoformat()
    if query:
        where.append("instr(lower(m.topic), :q) > 0")
        params["q"] = query.lower()
    order = "DESC" if status in ("ended", "cancelled", "all") else "ASC"
    rows = ctx.db.execute(
        "SELECT m.*, p.name AS host_name, i.response AS my_response FROM meetings m "
        "JOIN people p ON p.person_id = m.host_id "
        "LEFT JOIN invitees i ON i.meeting_id = m.meeting_id AND i.person_id = :me "
        f"WHERE {' AND '.join(where)} ORDER BY m.starts_at {order}, m.meeting_id", params).fetchall()
    meetings = [MeetingSummary(meeting_id=r["meeting_id"], topic=r["topic"], host_name=r["host_name"],
                               you_are_host=r["host_id"] == user, starts_at=r["starts_at"],
                               duration_minutes=r["duration_minutes"], status=r["status"],
                               my_response=r["my_response"]) for r in rows]
    today = ctx.today()

    def one(m: MeetingSummary) -> str:
        when = "live now" if m.status == "live" else f"on {spoken_time(m.starts_at, today)}"
        notes = [] if status in ("ended", "cancelled") or m.status in ("scheduled", "live") else [m.status]
        if role is None:
            notes.append("you host" if m.you_are_host else f"hosted by {m.host_name}")
        elif role == "invited":
            notes.append(f"hosted by {m.host_name}")
        return f"'{m.topic}' {when}" + (f" ({', '.join(notes)})" if notes else "")
    shown = meetings[:limit] if len(meetings[:limit]) <= 8 else meetings[:6]
    return MeetingList(meetings=meetings[:limit], total=len(meetings),
                       meetings_text=said_in_part([one(m) for m in shown], len(meetings), "none"))


@tools.tool(effect=READ, asks=[
    "Give me the details and join link for {meeting_id}.",
    "Has {meeting_id} started yet, and how many people are invited?",
], reply=[
    # One reply a question: the meeting with its join link; whether it has started and how many are invited.
    "'{result.topic}' {result.when_text}, hosted by {result.host_name}, with {result.invitees} people invited; "
    "the join link is {result.join_url}.",
    "'{result.topic}' {result.started_text}, and {result.invitees} people are invited.",
])
def get_meeting(ctx: Ctx, meeting_id: MeetingId) -> Meeting:
    """Show one meeting: time, status, join link, settings, invitees and who is in it now.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10051'.

    Returns:
        The meeting with its number and join link, the passcode (only if the user hosts it),
        scheduled and actual start and end, settings (waiting room, mute on entry, automatic
        recording), whether it is being recorded, how many people are in it and waiting, the
        user's own status in it, and the invitees with their answers.

    Raises:
        not_found: no meeting has that ID.
    """
    return meeting_model(ctx, meeting_id)


@tools.tool(effect=READ, hidden=True)
def get_meeting_passcode(ctx: Ctx, meeting_id: MeetingId) -> MeetingPasscode:
    """The passcode of a meeting, as its invitation gives it, for the synthesis pipeline to put in a user turn.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10051'.

    Returns:
        The meeting ID and its passcode.

    Raises:
        not_found: no meeting has that ID.
    """
    row = ctx.get("meeting", meeting_id)
    return MeetingPasscode(meeting_id=row["meeting_id"], passcode=row["passcode"])


# ----- scheduling -----------------------------------------------------------------------------------


def _check_future(ctx: Ctx, start: datetime) -> None:
    if start < ctx.now():
        raise ToolError("past_date", f"{iso(start)} is in the past; it is now {ctx.now_iso()}.",
                        hint="Pick a start time later than now.")


def _check_passcode(passcode: str) -> str:
    code = passcode.strip()
    if not re.fullmatch(r"[A-Za-z0-9@*_\-.]{6,10}", code) or len(set(code)) == 1 or code in "0123456789":
        raise ToolError("invalid_passcode", "A passcode is 6 to 10 letters, digits or @ * _ - . and not a "
                        "single repeated character or a run like '123456'.", hint="Choose another passcode.")
    return code


def _invite(ctx: Ctx, meeting_id: str, host_id: str, person_ids: list[str]) -> list[str]:
    """Add invitees (checked: they exist and are not yet invited); returns their IDs."""
    added: list[str] = []
    for pid in dict.fromkeys(person_ids):
        person = ctx.get("person", pid)
        if pid == host_id:
            raise ToolError("already_invited", f"{person['name']} hosts this meeting.",
                            hint="The host does not need an invitation.")
        if ctx.db.execute("SELECT 1 FROM invitees WHERE meeting_id = ? AND person_id = ?", (meeting_id, pid)).fetchone():
            raise ToolError("already_invited", f"{person['name']} is already invited.",
                            hint="get_meeting lists the invitees.")
        ctx.db.execute("INSERT INTO invitees (meeting_id, person_id, response) VALUES (?, ?, 'needs_action')",
                       (meeting_id, pid))
        added.append(pid)
    (count,) = ctx.db.execute("SELECT count(*) FROM invitees WHERE meeting_id = ?", (meeting_id,)).fetchone()
    if count + 1 > MAX_PARTICIPANTS:
        raise ToolError("too_many_invitees", f"A meeting holds at most {MAX_PARTICIPANTS} people on your plan, "
                        f"host included; this would invite {count}.", hint="Invite fewer people.")
    return added


@tools.tool(effect=WRITE, asks=[
    "Schedule a meeting called '{topic}' for {start_time}, {duration_minutes} minutes long.",
    "Set up a {duration_minutes}-minute call about '{topic}' starting {start_time} and invite {invitees}.",
    Ask("Book a video meeting '{topic}' for {start_time} with {invitees}, and record it automatically.",
        auto_record=True),
    Ask("Schedule '{topic}' for {start_time} without a waiting room.", waiting_room=False),
    Ask("Set up '{topic}' for {start_time} and mute people when they join.", mute_on_entry=True),
], reply=[
    Ask("Scheduled '{topic}' for {result.starts_at}; the join link is {result.join_url}.", invitees=None,
        waiting_room=True, mute_on_entry=False, auto_record=False),
    Ask("Done: '{topic}' is on the calendar at {result.starts_at}, link {result.join_url}.", invitees=None,
        waiting_room=True, mute_on_entry=False, auto_record=False),
    Ask("Scheduled '{topic}' for {result.starts_at} with {invitees}, recorded automatically; the join link is "
        "{result.join_url}.", auto_record=True),
    Ask("Scheduled '{topic}' for {result.starts_at} without a waiting room: people come straight in at "
        "{result.join_url}.", waiting_room=False),
    Ask("Scheduled '{topic}' for {result.starts_at}; people are muted when they join. The join link is "
        "{result.join_url}.", mute_on_entry=True),
    "Scheduled '{topic}' for {result.starts_at} and invited {invitees}; the join link is {result.join_url}.",
], values={
    "topic, agenda": [
        ("Weekly team sync", "Status updates, blockers, next steps"),
        ("Q2 planning", "Review the Q2 roadmap and staffing"),
        ("Design review", "Walk through the new dashboard mockups"),
        ("1:1 check-in", "Priorities for the week and any blockers"),
        ("Customer onboarding call", "Go over the onboarding checklist with the customer"),
        ("Sprint retrospective", "What went well, what didn't, what to change"),
        ("Budget review", "Decide on the vendor shortlist and the Q3 budget"),
        ("Interview: backend engineer", "System design round, then questions from the candidate"),
        ("Product demo", "Demo of the new release, then Q&A"),
        ("All-hands prep", "Agree on the slides and who presents what"),
    ],
})
def schedule_meeting(ctx: Ctx, topic: Topic, start_time: str, duration_minutes: Minutes = 30,
                     invitees: Invitees | None = None, agenda: Agenda | None = None, waiting_room: bool = True,
                     mute_on_entry: bool = False, auto_record: bool = False,
                     passcode: Passcode | None = None) -> Meeting:
    """Schedule a meeting hosted by the user and invite people to it.

    A passcode is generated unless one is given; the host sees it in the result.

    Args:
        topic: the meeting's title, such as 'Roadmap review'.
        start_time: local start time in ISO 8601, such as '2026-03-18T15:00:00'; not in the past.
        duration_minutes: planned length, 5 to 1440 minutes, such as 45.
        invitees: IDs of people to invite, such as ['PER-10003', 'PER-10004'] (search_people finds them).
        agenda: optional description, such as 'Review the Q2 roadmap draft.'.
        waiting_room: hold people in a waiting room until the host admits them (default true).
        mute_on_entry: mute people as they join (default false).
        auto_record: start a cloud recording when the meeting starts (default false).
        passcode: a passcode the user chose, 6 to 10 letters or digits, such as 'Rm7q2x'.

    Returns:
        The new meeting with its ID, number, join link, passcode and invitees.

    Raises:
        invalid_time: `start_time` is malformed, has a UTC offset or is outside 2000-2099.
        past_date: `start_time` is before now.
        not_found: an invitee ID does not exist.
        already_invited: the same person is the host.
        too_many_invitees: more people than the plan's meeting capacity.
        invalid_passcode: `passcode` is not 6-10 allowed characters, or is trivial.
    """
    start = parse_time(start_time, "start_time")
    _check_future(ctx, start)
    code = _check_passcode(passcode) if passcode is not None else "".join(
        ctx.rng().choice(PASSCODE_ALPHABET) for _ in range(8))
    rng = ctx.rng()
    number = f"{rng.randint(81, 99)}{rng.randint(0, 999_999_999):09d}"
    meeting_id = ctx.new_id("MTG")
    user = me(ctx)
    ctx.db.execute(
        "INSERT INTO meetings (meeting_id, meeting_number, host_id, topic, agenda, kind, starts_at, duration_minutes, "
        "passcode, waiting_room, mute_on_entry, auto_record, status, started_at, ended_at, recording_since, "
        "recorded_seconds) VALUES (?, ?, ?, ?, ?, 'scheduled', ?, ?, ?, ?, ?, ?, 'scheduled', NULL, NULL, NULL, 0)",
        (meeting_id, number, user, topic, agenda or None, iso(start), duration_minutes, code, int(waiting_room),
         int(mute_on_entry), int(auto_record)))
    _invite(ctx, meeting_id, user, invitees or [])
    return meeting_model(ctx, meeting_id)


@tools.tool(effect=WRITE, asks=[
    "Move {meeting_id} to {start_time}.",
    "Make {meeting_id} last {duration_minutes} minutes.",
    "Move {meeting_id} to {start_time} and make it {duration_minutes} minutes.",
    Ask("Enable the waiting room for {meeting_id}.", waiting_room=True),
    Ask("Let people into {meeting_id} without a waiting room.", waiting_room=False),
    Ask("Record {meeting_id} automatically.", auto_record=True),
], reply=[
    Ask("Turned on the waiting room for {meeting_id}; you'll admit people as they arrive.", waiting_room=True),
    Ask("{meeting_id} has no waiting room now; people join it straight away.", waiting_room=False),
    Ask("Done: {meeting_id} will be recorded to the cloud as soon as it starts.", auto_record=True),
    "Updated {meeting_id}; it's at {result.starts_at} for {result.duration_minutes} minutes.",
    "Done: {meeting_id} now starts {result.starts_at} and runs {result.duration_minutes} minutes.",
])
def update_meeting(ctx: Ctx, meeting_id: HostedMeetingId, topic: Topic | None = None, start_time: str | None = None,
                   duration_minutes: Minutes | None = None, agenda: Agenda | None = None,
                   waiting_room: bool | None = None, mute_on_entry: bool | None = None,
                   auto_record: bool | None = None) -> Meeting:
    """Change a scheduled meeting the user hosts: topic, time, length, agenda or settings.

    Only the fields given change. Invitees keep their invitations.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10051'.
        topic: a new title, such as 'Roadmap review (moved)'.
        start_time: a new local start time, such as '2026-03-19T10:00:00'; not in the past.
        duration_minutes: a new length, 5 to 1440 minutes, such as 60.
        agenda: a new description, such as 'Bring the latest numbers.'.
        waiting_room: turn the waiting room on (true) or off (false).
        mute_on_entry: mute people as they join (true) or not (false).
        auto_record: record automatically when it starts (true) or not (false).

    Returns:
        The meeting as it is now.

    Raises:
        not_found: no meeting has that ID.
        not_host: someone else hosts the meeting.
        already_started: the meeting is running.
        meeting_ended: the meeting already took place.
        meeting_cancelled: the meeting was cancelled.
        nothing_to_update: no field to change was given.
        invalid_time: `start_time` is malformed, has a UTC offset or is outside 2000-2099.
        past_date: `start_time` is before now.
    """
    row = ctx.get("meeting", meeting_id)
    require_host(ctx, row, "change")
    require_scheduled(row)
    changes: dict[str, object] = {}
    if topic is not None:
        changes["topic"] = topic
    if start_time is not None:
        start = parse_time(start_time, "start_time")
        _check_future(ctx, start)
        changes["starts_at"] = iso(start)
    for name, value in (("duration_minutes", duration_minutes), ("agenda", agenda)):
        if value is not None:
            changes[name] = value
    for name, flag in (("waiting_room", waiting_room), ("mute_on_entry", mute_on_entry), ("auto_record", auto_record)):
        if flag is not None:
            changes[name] = int(flag)
    if not changes:
        raise ToolError("nothing_to_update", "No field to change was given.",
                        hint="Pass a topic, start_time, duration_minutes, agenda or a setting.")
    ctx.update("meeting", meeting_id, changes)
    return meeting_model(ctx, meeting_id)


@tools.tool(effect=WRITE, asks=[
    "Cancel {meeting_id}.",
    "Call off {meeting_id}, we don't need it anymore.",
], reply=[
    "Cancelled {meeting_id}; the invitees are told.",
    "Done: {meeting_id} is off.",
])
def cancel_meeting(ctx: Ctx, meeting_id: MeetingId) -> Meeting:
    """Cancel a scheduled meeting the user hosts; it stays on record as cancelled.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10051'.

    Returns:
        The meeting, now with status 'cancelled'.

    Raises:
        not_found: no meeting has that ID.
        not_host: someone else hosts the meeting.
        already_started: the meeting is running (end it instead).
        meeting_ended: the meeting already took place.
        meeting_cancelled: the meeting is already cancelled.
    """
    row = ctx.get("meeting", meeting_id)
    require_host(ctx, row, "cancel")
    require_scheduled(row)
    ctx.db.execute("UPDATE meetings SET status = 'cancelled' WHERE meeting_id = ?", (meeting_id,))
    return meeting_model(ctx, meeting_id)


# (a 1:1 is the two people its topic names: nobody else is invited to it)
_NOT_ONE_ON_ONE = {"meeting_id": "topic NOT LIKE '1:1%'"}


@tools.tool(effect=WRITE, asks=[
    Ask("Invite {person_ids} to {meeting_id}.", fits=_NOT_ONE_ON_ONE),
    Ask("Add {person_ids} to the invite list of {meeting_id}.", fits=_NOT_ONE_ON_ONE),
], reply=[
    "Invited {person_ids} to {meeting_id}.",
    "Done: the invite list of '{result.topic}' now includes {person_ids}.",
])
def invite_to_meeting(ctx: Ctx, meeting_id: MeetingId,
                      person_ids: Annotated[list[PersonId], Field(min_length=1, max_length=50)]) -> Invitation:
    """Invite more people to a scheduled or live meeting the user hosts.

    People invited to a live meeting turn up 5 minutes after it started (or at once if that
    is past, the next time the clock moves).

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10051'.
        person_ids: IDs of the people to invite, such as ['PER-10005'].

    Returns:
        The meeting ID and topic, who was invited, and how many invitees there are now.

    Raises:
        not_found: the meeting or a person does not exist.
        not_host: someone else hosts the meeting.
        meeting_ended: the meeting already took place.
        meeting_cancelled: the meeting was cancelled.
        already_invited: a person is already invited, or is the host.
        too_many_invitees: more people than the plan's meeting capacity.
    """
    row = ctx.get("meeting", meeting_id)
    require_host(ctx, row, "invite people to")
    if row["status"] in ("ended", "cancelled"):
        require_scheduled(row)
    added = _invite(ctx, meeting_id, row["host_id"], person_ids)
    (count,) = ctx.db.execute("SELECT count(*) FROM invitees WHERE meeting_id = ?", (meeting_id,)).fetchone()
    return Invitation(meeting_id=meeting_id, topic=row["topic"], invited=added, invitees=count)
