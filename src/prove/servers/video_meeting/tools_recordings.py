"""Video meeting tools: recording a live meeting, cloud recordings and their transcripts."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import quote, said_in_part, spoken_day

from .server import (
    RECORDINGS,
    Limit,
    MeetingId,
    Recording,
    RecordingId,
    RecordingMeetingId,
    recording_model,
    require_host,
    require_live,
    stop_recording_at,
    storage_used,
)

tools = Toolset("recordings")


class RecordingList(BaseModel):
    recordings: list[Recording]
    total: int = Field(description="how many recordings matched, before `limit`")
    storage_used_mb: float = Field(description="space the recordings that are not deleted take")
    storage_quota_mb: float
    recordings_text: str = Field(description="the recordings in words, newest first, such as \"'Weekly sync' from "
                                             "March 9 (32 minutes, 344.2 MB)\"")


class TranscriptLine(BaseModel):
    offset_seconds: int = Field(description="seconds from the start of the recording")
    speaker: str
    text: str


class Transcript(BaseModel):
    recording_id: RecordingId
    meeting_id: MeetingId
    topic: str
    meeting_date: str
    lines: list[TranscriptLine]
    total: int
    lines_text: str = Field(description="the lines in words, in order, such as \"James O'Brien: 'Let's get started.'; "
                                        "Leo Ramirez: 'The numbers came in above forecast.'\", or \"Leo Ramirez said '...' and '...'\" "
                                        "of one speaker's lines")


class RecordingState(BaseModel):
    meeting_id: MeetingId
    topic: str
    recording_now: bool
    recorded_seconds: int = Field(description="seconds recorded so far in this meeting, running stretch excluded")
    storage_used_mb: float
    storage_quota_mb: float


class DeletedRecording(BaseModel):
    recording: Recording
    freed_mb: float
    storage_used_mb: float


def _recording(ctx: Ctx, recording_id: str):  # noqa: ANN202 - a sqlite3.Row
    row = ctx.db.execute(RECORDINGS + "WHERE r.recording_id = ?", (recording_id,)).fetchone()
    if row is None:
        raise ToolError("not_found", f"No recording has ID {quote(recording_id)}.",
                        hint="See your cloud recordings with list_recordings; IDs look like 'REC-10003'.")
    return row


@tools.tool(effect=READ, asks=[
    "What cloud recordings do I have?",
    Ask("Which of my recordings are still processing?", status="processing"),
    # (a meeting yet to start has nothing recorded to ask about)
    Ask("Is there a recording of {meeting_id}?", fits={"meeting_id": "status IN ('live', 'ended')"}),
    Ask("Show me the recordings I deleted.", status="deleted"),
], reply=[
    Ask("{result.total} recordings are still processing: {result.recordings_text}.", status="processing"),
    Ask("You deleted {result.total} recordings: {result.recordings_text}.", status="deleted"),
    Ask("You have {result.total} recordings: {result.recordings_text}.", status=None),
])
def list_recordings(ctx: Ctx, status: Literal["processing", "available", "deleted"] | None = None,
                    meeting_id: MeetingId | None = None, limit: Limit = 20) -> RecordingList:
    """List the cloud recordings of meetings the user hosted, newest first, with storage use.

    Args:
        status: only recordings that are 'processing', 'available' or 'deleted' (in the trash);
            omit for processing and available ones.
        meeting_id: only recordings of this meeting, such as 'MTG-10051'.
        limit: the most recordings to return, 1 to 100, such as 20.

    Returns:
        The recordings (ID, meeting, topic, date, length, size, status, when ready, play link),
        how many matched, and the storage used and allowed.

    Raises:
        not_found: `meeting_id` is given and no meeting has that ID.
    """
    where = Where()
    if status is None:
        where.add("r.status != 'deleted'")
    where.eq("r.status", status)
    where.entity(ctx, "meeting", "r.meeting_id", meeting_id)
    rows = ctx.db.execute(f"{RECORDINGS}WHERE {where.sql} ORDER BY r.created_at DESC, r.recording_id",
                          where.params).fetchall()
    (quota,) = ctx.db.execute("SELECT storage_quota_mb FROM account").fetchone()
    recordings = [recording_model(r) for r in rows[:limit]]
    today = ctx.today()
    said = [f"'{r.topic}' from {spoken_day(r.meeting_date, today)} ({round(r.duration_seconds / 60)} minutes, "
            f"{r.size_mb:,.1f} MB" + (", still processing" if r.status == "processing" and status is None else "") + ")"
            for r in (recordings if len(recordings) <= 8 else recordings[:6])]
    return RecordingList(recordings=recordings, total=len(rows), storage_used_mb=storage_used(ctx),
                         storage_quota_mb=quota, recordings_text=said_in_part(said, len(rows), "none"))


@tools.tool(effect=READ, asks=[
    "Show me the transcript of {recording_id}.",
    "What was said in {recording_id}? Pull up the transcript.",
    "What did {speaker} say in {recording_id}?",
], reply=[
    Ask("{speaker} didn't say anything in {recording_id}; the transcript has no lines from them.",
        **{"result.total": 0}),
    Ask("The transcript of '{result.topic}' from {result.meeting_date}, {result.total} lines: {result.lines_text}.",
        speaker=None),
    "In {recording_id}, {result.lines_text}.",
])
def get_transcript(ctx: Ctx, recording_id: RecordingId, speaker: str | None = None) -> Transcript:
    """Read the audio transcript of a cloud recording, line by line.

    Args:
        recording_id: ID of the recording, such as 'REC-10003'.
        speaker: only lines spoken by people whose name contains this, such as 'Chen'.

    Returns:
        The recording's meeting, topic and date, and the transcript lines (offset, speaker, text).

    Raises:
        not_found: no recording has that ID.
        recording_processing: the recording is still being processed.
        recording_deleted: the recording was deleted.
    """
    row = _recording(ctx, recording_id)
    if row["status"] == "processing":
        raise ToolError("recording_processing", f"The recording of '{row['topic']}' is still processing; it will "
                        f"be ready at {row['ready_at']}.", hint="Try again after it is ready.")
    if row["status"] == "deleted":
        raise ToolError("recording_deleted", f"The recording of '{row['topic']}' was deleted.")
    lines = [TranscriptLine(offset_seconds=r["offset_seconds"], speaker=r["speaker"], text=r["text"])
             for r in ctx.db.execute("SELECT * FROM transcript_lines WHERE recording_id = ? ORDER BY seq",
                                     (recording_id,))]
    if speaker is not None and speaker.strip():
        lines = [line for line in lines if speaker.strip().lower() in line.speaker.lower()]
    if speaker is not None and len({line.speaker for line in lines}) == 1:
        quotes = [f"'{line.text}'" for line in lines[:5]] + ([f"{len(lines) - 5} more"] if len(lines) > 5 else [])
        text = f"{lines[0].speaker} said " + (quotes[0] if len(quotes) == 1 else ", ".join(quotes[:-1]) + " and " + quotes[-1])
    else:
        text = said_in_part([f"{line.speaker}: '{line.text}'" for line in lines[:6]], len(lines), "nothing")
    return Transcript(recording_id=recording_id, meeting_id=row["meeting_id"], topic=row["topic"],
                      meeting_date=row["meeting_date"], lines=lines, total=len(lines), lines_text=text)


@tools.tool(effect=WRITE, asks=[
    "Delete {recording_id}.",
    "I'm running out of cloud storage, get rid of {recording_id}.",
], reply=[
    "Deleted {recording_id}; {result.freed_mb} MB freed, {result.storage_used_mb} MB in use now.",
    "Done: {recording_id} is gone and {result.freed_mb} MB are free again.",
])
def delete_recording(ctx: Ctx, recording_id: RecordingId) -> DeletedRecording:
    """Delete a cloud recording; it moves to the trash and no longer uses storage.

    Args:
        recording_id: ID of the recording, such as 'REC-10003'.

    Returns:
        The recording, now 'deleted', the space freed and the storage now used.

    Raises:
        not_found: no recording has that ID.
        already_deleted: the recording was already deleted.
    """
    row = _recording(ctx, recording_id)
    if row["status"] == "deleted":
        raise ToolError("already_deleted", f"The recording of '{row['topic']}' is already deleted.")
    ctx.db.execute("UPDATE recordings SET status = 'deleted' WHERE recording_id = ?", (recording_id,))
    return DeletedRecording(recording=recording_model(_recording(ctx, recording_id)), freed_mb=row["size_mb"],
                            storage_used_mb=storage_used(ctx))


# ----- recording a live meeting ------------------------------------------------------------------------------------


def _recording_state(ctx: Ctx, meeting_id: str) -> RecordingState:
    row = ctx.get("meeting", meeting_id)
    (quota,) = ctx.db.execute("SELECT storage_quota_mb FROM account").fetchone()
    return RecordingState(meeting_id=meeting_id, topic=row["topic"], recording_now=row["recording_since"] is not None,
                          recorded_seconds=row["recorded_seconds"], storage_used_mb=storage_used(ctx),
                          storage_quota_mb=quota)


# A recording is asked of a meeting the user hosts that is live or starts within a day (and so can be
# started first), never of someone else's meeting or next month's.
_RECORDABLE = {"meeting_id": "host_id = (SELECT person_id FROM people WHERE is_me = 1) AND status IN ('live', 'scheduled') "
                             "AND starts_at < strftime('%Y-%m-%dT%H:%M:%S', :now, '+1 day')"}


@tools.tool(effect=WRITE, asks=[
    Ask("Start recording {meeting_id} to the cloud.", fits=_RECORDABLE),
    Ask("Can you record {meeting_id}?", fits=_RECORDABLE),
], reply=[
    "Recording '{result.topic}' to the cloud now.",
    "Done: {meeting_id} is being recorded.",
], needs=["start_meeting"])
def start_recording(ctx: Ctx, meeting_id: MeetingId) -> RecordingState:
    """Start (or resume) the cloud recording of a live meeting the user hosts.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10051'.

    Returns:
        The meeting's recording state and the account's storage use.

    Raises:
        not_found: no meeting has that ID.
        not_host: someone else hosts the meeting.
        meeting_not_started: the meeting has not started.
        meeting_ended: the meeting already ended.
        meeting_cancelled: the meeting was cancelled.
        already_recording: the meeting is already being recorded.
        storage_full: the cloud recordings already fill the plan's storage quota.
    """
    row = ctx.get("meeting", meeting_id)
    require_host(ctx, row, "record")
    require_live(row)
    if row["recording_since"] is not None:
        raise ToolError("already_recording", f"'{row['topic']}' is already being recorded.")
    (quota,) = ctx.db.execute("SELECT storage_quota_mb FROM account").fetchone()
    used = storage_used(ctx)
    if used >= quota:
        raise ToolError("storage_full", f"Your cloud recordings use {used:.1f} MB of {quota:.0f} MB.",
                        hint="Delete old recordings with delete_recording to free space.")
    ctx.db.execute("UPDATE meetings SET recording_since = ? WHERE meeting_id = ?", (ctx.now_iso(), meeting_id))
    return _recording_state(ctx, meeting_id)


@tools.tool(effect=WRITE, asks=[
    "Stop recording {meeting_id}.",
    "Pause the recording of {meeting_id} for the confidential part.",
], reply=[
    "Stopped recording '{result.topic}'; {result.recorded_seconds} seconds are recorded so far.",
    "Done: the recording of {meeting_id} is paused.",
])
def stop_recording(ctx: Ctx, meeting_id: RecordingMeetingId) -> RecordingState:
    """Stop the cloud recording of a live meeting the user hosts; what was recorded is kept.

    Args:
        meeting_id: ID of the meeting, such as 'MTG-10051'.

    Returns:
        The meeting's recording state, with the seconds recorded so far.

    Raises:
        not_found: no meeting has that ID.
        not_host: someone else hosts the meeting.
        meeting_not_started: the meeting has not started.
        meeting_ended: the meeting already ended.
        meeting_cancelled: the meeting was cancelled.
        not_recording: the meeting is not being recorded.
    """
    row = ctx.get("meeting", meeting_id)
    require_host(ctx, row, "record")
    require_live(row)
    if row["recording_since"] is None:
        raise ToolError("not_recording", f"'{row['topic']}' is not being recorded.")
    stop_recording_at(ctx, row, ctx.now())
    return _recording_state(ctx, meeting_id)
