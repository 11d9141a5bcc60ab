"""Video meeting tools: live meetings (start, join, waiting room, muting, chat, end)."""

from __future__ import annotations

from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso

from .server import (
    PARTICIPANTS,
    RECORDINGS,
    ChatMessage,
    ChatMessageList,
    ChatText,
    HostedAttendeeId,
    HostedGuestId,
    HostedMeetingId,
    JoinedMeetingId,
    Limit,
    LiveHostedMeetingId,
    Meeting,
    MeetingId,
    Minutes,
    Participant,
    ParticipantId,
    ParticipantList,
    ParticipantStatus,
    Passcode,
    PersonId,
    Recording,
    Topic,
    WaitingParticipantId,
    arrive,
    close_meeting,
    fetch_participant,
    live_hosted,
    me,
    meeting_model,
    participant_model,
    recording_model,
    require_attended,
    require_host,
    require_live,
    require_scheduled,
)
from .world import PASSCODE_ALPHABET, START_EARLY_MINUTES

tools = Toolset("live")

# ----- models -------------------------------------------------------------------------------------


class JoinResult(BaseModel):
    meeting_id: MeetingId
    topic: str
    participant_id: ParticipantId
    status: ParticipantStatus = Field(description="'waiting' if the host must admit the user first, else 'in_meeting'")
    muted: bool
    in_meeting: int = Field(description="people in the meeting now")


class MeetingEnded(BaseModel):
    meeting: Meeting
    attendees: int = Field(description="how many people took part")
    recording: Recording | None = Field(description="the cloud recording being processed, if it was recorded")


# ----- helpers ------------------------------------------------------------------------------------


def _host_busy(ctx: Ctx) -> None:
    hosting = live_hosted(ctx)
    if hosting is not None:
        raise ToolError("host_busy", f"You are already hosting '{hosting['topic']}' ({hosting['meeting_id']}); "
                        "a host runs one meeting at a time.", hint="End that meeting first with end_meeting.")


def _my_participation(ctx: Ctx, meeting: object) -> object:
    return ctx.db.execute("SELECT * FROM participants WHERE meeting_id = ? AND person_id = ?",
                          (meeting["meeting_id"], me(ctx))).fetchone()  # type: ignore[index]


def _require_in_meeting(ctx: Ctx, meeting: object) -> object:
    """The user's participant row in a live meeting they are in (not only waiting)."""
    mine = _my_participation(ctx, meeting)
    if mine is None or mine["status"] != "in_meeting":
        state = "in the waiting room of" if mine is not None and mine["status"] == "waiting" else "not in"
        raise ToolError("not_in_meeting", f"You are {state} '{meeting['topic']}'.",  # type: ignore[index]
                        hint="Join it first with join_meeting" + (
                            "; the host admits you from the waiting room shortly." if state != "not in" else "."))
    return mine


# ----- starting and joining --------------------------------------------------------------------------


# A meeting is started on its day, or early the day before: not next week's meeting of a series.
_SOON = {"meeting_id": "starts_at < strftime('%Y-%m-%dT%H:%M:%S', :now, '+1 day')"}
_TODAY = {"meeting_id": "date(starts_at) = :today"}


@tools.tool(effect=WRITE, asks=[
    Ask("Start {meeting_id}.", fits=_SOON),
    Ask("Kick off {meeting_id} now, everyone's waiting.", fits=_TODAY),
], reply=[
    "Started {meeting_id}; {result.in_meeting} people are in so far.",
    "{meeting_id} is live now; the link is {result.join_url}.",
])
def start_meeting(ctx: Ctx, meeting_id: HostedMeetingId) -> Meeting:
    """Start a scheduled meeting the user hosts.

    It can start from 10 minutes before its scheduled time. Invitees who accepted join at once
    (into the waiting room if it is on); other invitees who did not decline turn up 5 minutes
    later. With automatic recording on, the cloud recording starts too.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10051'.

    Returns:
        The meeting, now live, with how many people are in it and waiting.

    Raises:
        not_found: no meeting has that ID.
        not_host: someone else hosts the meeting.
        already_started: the meeting is already running.
        meeting_ended: the meeting already took place.
        meeting_cancelled: the meeting was cancelled.
        too_early: it is more than 10 minutes before the scheduled start.
        host_busy: the user is already hosting another live meeting.
    """
    row = ctx.get("meeting", meeting_id)
    require_host(ctx, row, "start")
    require_scheduled(row)
    opens = datetime.fromisoformat(row["starts_at"]) - timedelta(minutes=START_EARLY_MINUTES)
    if ctx.now() < opens:
        raise ToolError("too_early", f"'{row['topic']}' is scheduled for {row['starts_at']}; it can start from "
                        f"{iso(opens)}, and it is now {ctx.now_iso()}.",
                        hint="Wait until closer to the start, or start an instant meeting instead.")
    _host_busy(ctx)
    now = ctx.now_iso()
    ctx.db.execute("UPDATE meetings SET status = 'live', started_at = ?, recording_since = ? WHERE meeting_id = ?",
                   (now, now if row["auto_record"] else None, meeting_id))
    live = ctx.get("meeting", meeting_id)
    arrive(ctx, live, row["host_id"], now, role="host")
    for (pid,) in ctx.db.execute("SELECT person_id FROM invitees WHERE meeting_id = ? AND response = 'accepted' "
                                 "ORDER BY person_id", (meeting_id,)).fetchall():
        arrive(ctx, live, pid, now)
    return meeting_model(ctx, meeting_id)


@tools.tool(effect=WRITE, asks=[
    "Start an instant meeting about '{topic}'.",
    Ask("Start a meeting at my personal link now.", use_personal_room=True),
    "Start a quick call called '{topic}' and invite {invitees}.",
    Ask("Start a call about '{topic}' right now and let people straight in.", waiting_room=False),
], reply=[
    Ask("Your meeting is live: {result.join_url}.", invitees=None),
    Ask("Started '{result.topic}'; people can join at {result.join_url}.", invitees=None),
    "Started '{result.topic}' and invited {invitees}; they can join at {result.join_url}.",
], values={"topic": ["Quick sync", "Incident call", "Pairing session", "Coffee chat", "Hotfix review",
                     "Urgent: customer escalation", "Brainstorm"]})
def start_instant_meeting(ctx: Ctx, topic: Topic | None = None, use_personal_room: bool = False,
                          invitees: list[PersonId] | None = None, waiting_room: bool | None = None,
                          duration_minutes: Minutes = 60) -> Meeting:
    """Start a meeting right now, in a new meeting room or in the user's personal meeting room.

    The personal room keeps its number and passcode; a new room gets fresh ones. Invitees turn
    up 5 minutes after the start.

    Args:
        topic: the meeting's title, such as 'Quick sync'; by default '<name>'s meeting' or
            '<name>'s personal meeting room'.
        use_personal_room: start it in the personal meeting room (true) or a new room (false, the default).
        invitees: IDs of people to invite, such as ['PER-10003'].
        waiting_room: hold people in a waiting room; by default on in the personal room, off otherwise.
        duration_minutes: planned length, 5 to 1440 minutes, such as 30 (default 60).

    Returns:
        The live meeting with its ID, number, join link and passcode.

    Raises:
        host_busy: the user is already hosting another live meeting.
        not_found: an invitee ID does not exist.
        already_invited: an invitee is the user.
    """
    _host_busy(ctx)
    user = me(ctx)
    account = ctx.db.execute("SELECT a.*, p.name FROM account a JOIN people p ON p.person_id = a.person_id").fetchone()
    first = account["name"].split()[0]
    if use_personal_room:
        number, passcode, kind = account["personal_meeting_number"], account["personal_room_passcode"], "personal_room"
        default_topic = f"{first}'s personal meeting room"
    else:
        rng = ctx.rng()
        number = f"{rng.randint(81, 99)}{rng.randint(0, 999_999_999):09d}"
        passcode = "".join(rng.choice(PASSCODE_ALPHABET) for _ in range(8))
        kind, default_topic = "instant", f"{first}'s meeting"
    hold = use_personal_room if waiting_room is None else waiting_room
    meeting_id = ctx.new_id("MTG")
    now = ctx.now_iso()
    ctx.db.execute(
        "INSERT INTO meetings (meeting_id, meeting_number, host_id, topic, agenda, kind, starts_at, duration_minutes, "
        "passcode, waiting_room, mute_on_entry, auto_record, status, started_at, ended_at, recording_since, "
        "recorded_seconds) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, 0, 0, 'live', ?, NULL, NULL, 0)",
        (meeting_id, number, user, topic or default_topic, kind, now, duration_minutes, passcode, int(hold), now))
    arrive(ctx, ctx.get("meeting", meeting_id), user, now, role="host")
    for pid in dict.fromkeys(invitees or []):
        person = ctx.get("person", pid)
        if pid == user:
            raise ToolError("already_invited", f"{person['name']} is you, the host.",
                            hint="Invite other people only.")
        ctx.db.execute("INSERT INTO invitees (meeting_id, person_id, response) VALUES (?, ?, 'needs_action')",
                       (meeting_id, pid))
    return meeting_model(ctx, meeting_id)


@tools.tool(effect=WRITE, asks=[
    "Join {meeting_id}, the passcode is {passcode}.",
    "Get me into {meeting_id} with passcode {passcode}.",
], reply=[
    # Joining may land the user in the waiting room, so the reply does not say they are in.
    "Joined '{result.topic}', where {result.in_meeting} people are now; if it has a waiting room, the host lets "
    "you in shortly.",
    "Done: you've joined {meeting_id}. With a waiting room on, you'll be admitted by the host in a moment.",
])
def join_meeting(ctx: Ctx, meeting_id: MeetingId, passcode: Passcode) -> JoinResult:
    """Join a live meeting someone else hosts, with its passcode.

    With the waiting room on, the user waits until the host admits them (about a minute).

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10077'.
        passcode: the meeting's passcode from the invitation, such as 'Rm7q2xKd'.

    Returns:
        The user's participant ID in the meeting, whether they are waiting or in, and whether
        they are muted.

    Raises:
        not_found: no meeting has that ID.
        host_must_start: the user hosts this meeting (start it with start_meeting).
        meeting_cancelled: the meeting was cancelled.
        meeting_ended: the meeting already ended.
        wrong_passcode: the passcode does not match.
        meeting_not_started: the host has not started the meeting yet.
        removed_from_meeting: the host removed the user from this meeting.
        already_joined: the user is already in the meeting or its waiting room.
    """
    row = ctx.get("meeting", meeting_id)
    user = me(ctx)
    if row["host_id"] == user:
        raise ToolError("host_must_start", f"You host '{row['topic']}'.",
                        hint="Start it with start_meeting; hosts do not join their own meetings.")
    if row["status"] in ("cancelled", "ended"):
        require_live(row)
    if passcode != row["passcode"]:
        raise ToolError("wrong_passcode", "The passcode is not correct.",
                        hint="Check the passcode in the meeting invitation with the user.")
    require_live(row)
    mine = _my_participation(ctx, row)
    if mine is not None and mine["status"] == "removed":
        raise ToolError("removed_from_meeting", f"The host removed you from '{row['topic']}'; you cannot rejoin.")
    if mine is not None and mine["status"] in ("waiting", "in_meeting"):
        raise ToolError("already_joined", f"You are already {'waiting to join' if mine['status'] == 'waiting' else 'in'} "
                        f"'{row['topic']}'.", hint="list_participants shows who is there.")
    participant_id = arrive(ctx, row, user, ctx.now_iso())
    joined = fetch_participant(ctx, participant_id)
    (count,) = ctx.db.execute("SELECT count(*) FROM participants WHERE meeting_id = ? AND status = 'in_meeting'",
                              (meeting_id,)).fetchone()
    return JoinResult(meeting_id=meeting_id, topic=row["topic"], participant_id=participant_id,
                      status=joined["status"], muted=bool(joined["muted"]), in_meeting=count)


@tools.tool(effect=WRITE, asks=[
    "Leave {meeting_id}.",
    "Drop me from {meeting_id}, I have to go.",
], reply=[
    "You've left {meeting_id}.",
    "Done: you're out of {meeting_id}.",
])
def leave_meeting(ctx: Ctx, meeting_id: JoinedMeetingId) -> Participant:
    """Leave a meeting someone else hosts (or its waiting room); the meeting goes on.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10077'.

    Returns:
        The user's participant record, now 'left'.

    Raises:
        not_found: no meeting has that ID.
        host_cannot_leave: the user hosts the meeting (end it with end_meeting).
        not_in_meeting: the user is not in the meeting or its waiting room.
    """
    row = ctx.get("meeting", meeting_id)
    if row["host_id"] == me(ctx):
        raise ToolError("host_cannot_leave", f"You host '{row['topic']}'.",
                        hint="End it for everyone with end_meeting.")
    mine = _my_participation(ctx, row)
    if mine is None or mine["status"] not in ("waiting", "in_meeting"):
        raise ToolError("not_in_meeting", f"You are not in '{row['topic']}'.")
    ctx.db.execute("UPDATE participants SET status = 'left', left_at = ? WHERE participant_id = ?",
                   (ctx.now_iso(), mine["participant_id"]))
    return participant_model(ctx.db.execute(PARTICIPANTS + "WHERE pa.participant_id = ?",
                                            (mine["participant_id"],)).fetchone())


@tools.tool(effect=WRITE, asks=[
    "End {meeting_id} for everyone.",
    "We're done, close {meeting_id}.",
], reply=[
    "Ended {meeting_id}; {result.attendees} people attended.",
    "{meeting_id} is over for everyone.",
])
def end_meeting(ctx: Ctx, meeting_id: LiveHostedMeetingId) -> MeetingEnded:
    """End a live meeting the user hosts, for everyone.

    Everyone leaves; if it was recorded, the cloud recording starts processing (ready 20
    minutes later).

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10051'.

    Returns:
        The ended meeting, how many people took part, and its recording if there is one.

    Raises:
        not_found: no meeting has that ID.
        not_host: someone else hosts the meeting.
        meeting_not_started: the meeting has not started.
        meeting_ended: the meeting already ended.
        meeting_cancelled: the meeting was cancelled.
    """
    row = ctx.get("meeting", meeting_id)
    require_host(ctx, row, "end")
    require_live(row)
    (count,) = ctx.db.execute("SELECT count(*) FROM participants WHERE meeting_id = ? AND status != 'waiting'",
                              (meeting_id,)).fetchone()
    recording_id = close_meeting(ctx, row, ctx.now())
    recording = (recording_model(ctx.db.execute(RECORDINGS + "WHERE r.recording_id = ?", (recording_id,)).fetchone())
                 if recording_id else None)
    return MeetingEnded(meeting=meeting_model(ctx, meeting_id), attendees=count, recording=recording)


# ----- who is in the meeting ------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    Ask("Who is in {meeting_id} right now?", status="in_meeting"),
    Ask("Is anyone in the waiting room of {meeting_id}?", status="waiting"),
    "Who is on the participant list of {meeting_id}?",
], reply=[
    # Who they are, and where they are, as asked.
    Ask("In {meeting_id} right now: {result.participants.name}.", status="in_meeting"),
    Ask("In the waiting room of {meeting_id}: {result.participants.name}.", status="waiting"),
    Ask("{result.total} people have left {meeting_id}: {result.participants.name}.", status="left"),
    Ask("{result.total} people were removed from {meeting_id}: {result.participants.name}.", status="removed"),
    Ask("For {meeting_id}: {result.participants_text}.", status=None),
])
def list_participants(ctx: Ctx, meeting_id: MeetingId, status: ParticipantStatus | None = None) -> ParticipantList:
    """List the people in a live meeting (and its waiting room), or who attended an ended one.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10051'.
        status: only people who are 'waiting', 'in_meeting', 'left' or 'removed'.

    Returns:
        The participants (participant ID, person, role, status, muted, when they joined and
        left), host first, and how many there are.

    Raises:
        not_found: no meeting has that ID.
        meeting_not_started: the meeting has not started.
        meeting_cancelled: the meeting was cancelled.
        not_attended: the user neither hosts nor joined the meeting.
    """
    row = ctx.get("meeting", meeting_id)
    require_attended(ctx, row)
    sql = PARTICIPANTS + "WHERE pa.meeting_id = ?"
    params: list[object] = [meeting_id]
    if status is not None:
        sql += " AND pa.status = ?"
        params.append(status)
    rows = ctx.db.execute(sql + " ORDER BY pa.role = 'host' DESC, pa.joined_at, pa.participant_id", params).fetchall()
    people = [participant_model(r) for r in rows]
    user = me(ctx)
    groups = []
    for state, one, many in (("in_meeting", "is in it now", "are in it now"),
                             ("waiting", "is waiting to be let in", "are waiting to be let in"),
                             ("left", "left", "left"), ("removed", "was removed", "were removed")):
        names = ["you" if p.person_id == user else p.name for p in people if p.status == state]
        if names:
            shown = names if len(names) <= 5 else [*names[:4], f"{len(names) - 4} more"]
            who = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
            groups.append(f"{who} {many if len(names) > 1 or who == 'you' else one}")
    return ParticipantList(meeting_id=meeting_id, participants=people, total=len(rows),
                           participants_text="; ".join(groups) or "nobody")


@tools.tool(effect=WRITE, asks=[
    "Let {participant_id} in from the waiting room.",
    "Admit {participant_id} to the meeting.",
], reply=[
    "Admitted {result.name}; they're in the meeting now.",
    "Done: {result.name} is in.",
], needs=["start_meeting", "list_participants"])
def admit_participant(ctx: Ctx, participant_id: WaitingParticipantId) -> Participant:
    """Admit someone from the waiting room of a live meeting the user hosts.

    Args:
        participant_id: ID of the waiting participant, such as 'PRT-10257' (list_participants shows them).

    Returns:
        The participant, now 'in_meeting'.

    Raises:
        not_found: no participant has that ID.
        not_host: someone else hosts the meeting.
        not_waiting: the participant is not in the waiting room.
    """
    part = fetch_participant(ctx, participant_id)
    meeting = ctx.get("meeting", part["meeting_id"])
    require_host(ctx, meeting, "admit people to")
    if part["status"] != "waiting":
        raise ToolError("not_waiting", f"{part['name']} is not in the waiting room; their status is "
                        f"'{part['status']}'.", hint="list_participants with status 'waiting' shows who is waiting.")
    ctx.db.execute("UPDATE participants SET status = 'in_meeting' WHERE participant_id = ?", (participant_id,))
    return participant_model(fetch_participant(ctx, participant_id))


@tools.tool(effect=WRITE, asks=[
    "Remove {participant_id} from the meeting.",
    "Kick {participant_id} out of my call, they shouldn't be there.",
], reply=[
    "Removed {result.name} from the meeting.",
    "Done: {result.name} is out.",
], needs=["start_meeting", "list_participants"])
def remove_participant(ctx: Ctx, participant_id: HostedGuestId) -> Participant:
    """Remove someone from a live meeting the user hosts (or its waiting room); they cannot rejoin.

    Args:
        participant_id: ID of the participant, such as 'PRT-10257'.

    Returns:
        The participant, now 'removed'.

    Raises:
        not_found: no participant has that ID.
        not_host: someone else hosts the meeting.
        cannot_remove_host: the participant is the host.
        not_in_meeting: the participant already left or was removed.
    """
    part = fetch_participant(ctx, participant_id)
    meeting = ctx.get("meeting", part["meeting_id"])
    require_host(ctx, meeting, "remove people from")
    if part["role"] == "host":
        raise ToolError("cannot_remove_host", "The host cannot be removed from their own meeting.",
                        hint="End the meeting with end_meeting instead.")
    if part["status"] not in ("waiting", "in_meeting"):
        raise ToolError("not_in_meeting", f"{part['name']} is not in the meeting; their status is '{part['status']}'.")
    ctx.db.execute("UPDATE participants SET status = 'removed', left_at = ? WHERE participant_id = ?",
                   (ctx.now_iso(), participant_id))
    return participant_model(fetch_participant(ctx, participant_id))


@tools.tool(effect=WRITE, asks=[
    Ask("Mute {participant_id}.", muted=True),
    Ask("There's background noise from {participant_id}, please mute them.", muted=True),
    Ask("Unmute {participant_id}.", muted=False),
], reply=[
    Ask("Muted {result.name}.", muted=True),
    Ask("Done: {result.name}'s microphone is off.", muted=True),
    Ask("Unmuted {result.name}; the microphone is on.", muted=False),
], needs=["start_meeting", "list_participants", "admit_participant"])
def mute_participant(ctx: Ctx, participant_id: HostedAttendeeId, muted: bool = True) -> Participant:
    """Mute a participant, or unmute the user themselves.

    The host can mute anyone; anyone can mute or unmute themselves; nobody can unmute someone else.

    Args:
        participant_id: ID of the participant, such as 'PRT-10257'.
        muted: true to mute (the default), false to unmute (only the user's own participant).

    Returns:
        The participant with their new muted state.

    Raises:
        not_found: no participant has that ID.
        not_host: the participant is someone else and the user does not host the meeting.
        unmute_not_allowed: asked to unmute someone other than the user.
        not_in_meeting: the participant is not in the meeting now.
        already_muted: the participant is already muted.
        not_muted: the participant is not muted.
    """
    part = fetch_participant(ctx, participant_id)
    meeting = ctx.get("meeting", part["meeting_id"])
    own = part["person_id"] == me(ctx)
    if not own:
        require_host(ctx, meeting, "mute other people in")
        if not muted:
            raise ToolError("unmute_not_allowed", f"Only {part['name']} can unmute themselves.",
                            hint="Ask them in the chat to unmute.")
    if part["status"] != "in_meeting":
        raise ToolError("not_in_meeting", f"{part['name']} is not in the meeting; their status is '{part['status']}'.")
    if muted and part["muted"]:
        raise ToolError("already_muted", f"{part['name']} is already muted.")
    if not muted and not part["muted"]:
        raise ToolError("not_muted", f"{part['name']} is not muted.")
    ctx.db.execute("UPDATE participants SET muted = ? WHERE participant_id = ?", (int(muted), participant_id))
    return participant_model(fetch_participant(ctx, participant_id))


# ----- chat -----------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Post '{text}' in the chat of {meeting_id}.",
    "Send {to_participant_id} a private chat message in {meeting_id}: {text}",
    "Tell everyone in the chat of {meeting_id}: {text}",
], reply=[
    "Posted your message in the chat of {meeting_id}.",
    "Sent: '{text}'.",
], values={"text": ["Can everyone see my screen?", "I have to drop off at the half hour.",  # (fit a meeting just begun)
                    "Here's the doc: https://docs.example.com/q2-plan", "You're on mute!",
                    "Let's give people two more minutes to join.", "The agenda is in the invite.",
                    "Could you share the slides after the call?", "I'll send the notes by email."]},
    needs=["start_meeting"])
def send_chat_message(ctx: Ctx, meeting_id: MeetingId, text: ChatText,
                      to_participant_id: ParticipantId | None = None) -> ChatMessage:
    """Send a chat message in a live meeting the user is in, to everyone or privately to one participant.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10077'.
        text: the message, 1 to 1000 characters, such as 'Slides are in the shared folder.'.
        to_participant_id: send privately to this participant, such as 'PRT-10257'; omit for everyone.

    Returns:
        The message as sent.

    Raises:
        not_found: no meeting or participant has that ID, or the participant is in another meeting.
        meeting_not_started: the meeting has not started.
        meeting_ended: the meeting already ended.
        meeting_cancelled: the meeting was cancelled.
        not_in_meeting: the user is not in the meeting (or still in its waiting room).
        cannot_message_self: the private recipient is the user.
        recipient_not_present: the private recipient is not in the meeting now.
    """
    row = ctx.get("meeting", meeting_id)
    require_live(row)
    _require_in_meeting(ctx, row)
    recipient = None
    if to_participant_id is not None:
        part = fetch_participant(ctx, to_participant_id)
        if part["meeting_id"] != meeting_id:
            raise ToolError("not_found", f"Participant {to_participant_id} is not in '{row['topic']}'.",
                            hint="list_participants shows who is in this meeting.")
        if part["person_id"] == me(ctx):
            raise ToolError("cannot_message_self", "That participant is you.")
        if part["status"] != "in_meeting":
            raise ToolError("recipient_not_present", f"{part['name']} is not in the meeting now "
                            f"(status '{part['status']}').", hint="Send the message to everyone, or later.")
        recipient = part["person_id"]
    message_id = ctx.new_id("MSG")
    ctx.db.execute("INSERT INTO chat_messages (message_id, meeting_id, sender_id, recipient_id, sent_at, text) "
                   "VALUES (?, ?, ?, ?, ?, ?)", (message_id, meeting_id, me(ctx), recipient, ctx.now_iso(), text))
    return _messages(ctx, "WHERE c.message_id = ?", [message_id])[0]


def _messages(ctx: Ctx, where: str, params: list[object]) -> list[ChatMessage]:
    rows = ctx.db.execute("SELECT c.*, p.name AS sender_name FROM chat_messages c JOIN people p "
                          f"ON p.person_id = c.sender_id {where} ORDER BY c.sent_at, c.message_id", params).fetchall()
    return [ChatMessage(message_id=r["message_id"], meeting_id=r["meeting_id"], sender_id=r["sender_id"],
                        sender_name=r["sender_name"], to_person_id=r["recipient_id"], sent_at=r["sent_at"],
                        text=r["text"]) for r in rows]


@tools.tool(effect=READ, asks=[
    "What's been said in the chat of {meeting_id}?",
    "Show me the saved chat from {meeting_id}.",
], reply=[
    Ask("Nobody has written anything in the chat of {meeting_id}.", **{"result.total": 0}),
    Ask("The chat of {meeting_id} is empty.", **{"result.total": 0}),
])
def get_meeting_chat(ctx: Ctx, meeting_id: MeetingId, limit: Limit = 50) -> ChatMessageList:
    """Read the chat of a live meeting or the saved chat of a past one: messages to everyone and
    private messages to or from the user.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10077'.
        limit: the most recent messages to return, 1 to 100, such as 50.

    Returns:
        The messages in the order they were sent (the latest `limit`), and how many there are.

    Raises:
        not_found: no meeting has that ID.
        meeting_not_started: the meeting has not started.
        meeting_cancelled: the meeting was cancelled.
        not_attended: the user neither hosts nor joined the meeting.
    """
    row = ctx.get("meeting", meeting_id)
    require_attended(ctx, row)
    user = me(ctx)
    messages = _messages(ctx, "WHERE c.meeting_id = ? AND (c.recipient_id IS NULL OR c.recipient_id = ? "
                              "OR c.sender_id = ?)", [meeting_id, user, user])
    return ChatMessageList(meeting_id=meeting_id, messages=messages[-limit:], total=len(messages))
