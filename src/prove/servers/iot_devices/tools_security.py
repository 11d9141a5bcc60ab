"""Smart home tools: door locks and their codes, security cameras and their recordings."""

from __future__ import annotations

import re
import sqlite3
from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, Sensitive, ToolError, Toolset, Where
from prove.env.values import iso, parse_date, parse_time, spoken_day

from .server import (
    DEVICE,
    LOCK_CODE,
    RECORDING,
    Device,
    DeviceId,
    Limit,
    LockCodeId,
    Name,
    RecordingId,
    controllable,
    device,
    log,
)
from .world import MAX_CODES_PER_LOCK

DoorCode = Annotated[str, Sensitive()]
LockId = DEVICE.where("type = 'lock'")
UnlockedId = DEVICE.where("type = 'lock' AND lock_state = 'unlocked'")
LockedId = DEVICE.where("type = 'lock' AND lock_state = 'locked' AND online = 1")
CameraId = DEVICE.where("type = 'camera'")
# a temporary code, or a permanent one whose lock keeps another permanent code
RemovableCodeId = LOCK_CODE.where("valid_until IS NOT NULL OR device_id IN (SELECT device_id FROM lock_codes "
                                  "WHERE valid_until IS NULL GROUP BY device_id HAVING count(*) > 1)")
UnprotectedId = RECORDING.where("protected = 0")
Trigger = Literal["motion", "person", "package", "vehicle", "animal", "manual"]

tools = Toolset("security")

# ----- models -------------------------------------------------------------------------------------


class LockCode(BaseModel):
    """A door code; the digits themselves are never shown."""

    code_id: LockCodeId
    device_id: DeviceId
    lock_name: str
    name: str = Field(description="who the code is for, such as 'Dog walker (Maria)'")
    digits: int = Field(description="how many digits the code has")
    created_at: str
    valid_until: str | None = Field(description="when a temporary code stops working; null: permanent")
    status: Literal["active", "expired"]
    last_used_at: str | None


class LockCodeList(BaseModel):
    lock_codes: list[LockCode]
    total: int
    codes_text: str = Field(description="the codes in words, lock by lock, such as 'the Back Door Lock has 2 codes: "
                                        "Family; Plumber, until March 25'")


def _codes_text(codes: list[LockCode], status: str | None, today: date, shown: int = 5) -> str:
    """'the Front Door Lock has 3 working codes: Family; Babysitter (Carlos), until April 20; Plumber,
    until March 25. The Back Door Lock has ...'."""
    kind = {"active": "working code", "expired": "expired code"}.get(status or "", "code")
    by_lock: dict[str, list[LockCode]] = {}
    for c in codes:
        by_lock.setdefault(c.lock_name, []).append(c)
    said = []
    for lock, found in by_lock.items():
        items = []
        for c in found[:shown]:
            day = spoken_day(c.valid_until, today) if c.valid_until else None
            items.append(c.name + (f", which ran out on {day}" if c.status == "expired" and day else
                                   f", until {day}" if day else ""))
        more = f"; and {len(found) - len(items)} more" if len(found) > len(items) else ""
        said.append(f"the {lock} has {len(found)} {kind}{'' if len(found) == 1 else 's'}: " + "; ".join(items) + more)
    return ". ".join(s[:1].upper() + s[1:] if i else s for i, s in enumerate(said)) if said else f"no {kind}s"


class LockCodeSecret(BaseModel):
    code_id: LockCodeId
    device_id: DeviceId
    code: str


class LockDigits(BaseModel):
    code_id: LockCodeId
    name: str
    code: str


class LockDigitsList(BaseModel):
    device_id: DeviceId
    codes: list[LockDigits] = Field(description="the lock's codes that work now, with their digits")


class DeletedLockCode(BaseModel):
    code_id: LockCodeId
    name: str
    lock_name: str
    deleted: bool


class Recording(BaseModel):
    recording_id: RecordingId
    label: str = Field(description="the camera and when, such as 'Backyard Camera, March 13 at 10:30 AM'")
    device_id: DeviceId
    camera_name: str
    started_at: str
    duration_s: int
    trigger: Trigger
    size_mb: float
    protected: bool = Field(description="kept clips cannot be deleted")


class RecordingList(BaseModel):
    recordings: list[Recording]
    total: int = Field(description="how many clips matched, before `limit`")
    recordings_text: str = Field(description="the latest clips in words, such as '3 clips: the Doorbell Camera saw "
                                             "a person on March 16 at 7:20 AM (37 seconds); ...'")


# what set a clip off, as what the camera saw
_SAW = {"motion": "caught motion", "person": "saw a person", "package": "spotted a package",
        "vehicle": "saw a vehicle", "animal": "saw an animal", "manual": "was recorded by hand"}
_SEEN = {"motion": "motion", "person": "a person", "package": "a package", "vehicle": "a vehicle",
         "animal": "an animal", "manual": "a clip recorded by hand"}


def _recordings_text(clips: list[Recording], total: int, one: bool, shown: int = 5) -> str:
    """'36 clips, the latest 5: the Doorbell Camera saw a person on March 16 at 7:20 AM (37 seconds);
    ...'; of `one` camera, '13 clips from the Doorbell Camera: motion on March 16 at 7:25 AM (35
    seconds); ...'."""
    if not clips:
        return "no clips"
    said = []
    for c in clips[:shown]:
        at = datetime.fromisoformat(c.started_at)
        when = f"on {at:%B} {at.day} at {at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"
        m, sec = divmod(c.duration_s, 60)
        length = f"{sec} seconds" if not m else f"{m} minute{'' if m == 1 else 's'}" + (f" {sec} seconds" if sec else "")
        said.append(f"{_SEEN[c.trigger] if one else 'the ' + c.camera_name + ' ' + _SAW[c.trigger]} {when} ({length})")
    head = f"{total} clip{'' if total == 1 else 's'}" + (f" from the {clips[0].camera_name}" if one else "")
    head += f", the latest {len(said)}" if total > len(said) else ""
    return f"{head}: " + "; ".join(said)


class DeletedRecording(BaseModel):
    recording_id: RecordingId
    deleted: bool
    freed_mb: float


# ----- helpers ------------------------------------------------------------------------------------


def _status(ctx: Ctx, row: sqlite3.Row) -> str:
    return "expired" if row["valid_until"] is not None and row["valid_until"] < ctx.now_iso() else "active"


def _code(ctx: Ctx, row: sqlite3.Row) -> LockCode:
    (lock_name,) = ctx.db.execute("SELECT name FROM devices WHERE device_id = ?", (row["device_id"],)).fetchone()
    return LockCode(code_id=row["code_id"], device_id=row["device_id"], lock_name=lock_name, name=row["name"],
                    digits=len(row["code"]), created_at=row["created_at"], valid_until=row["valid_until"],
                    status=_status(ctx, row), last_used_at=row["last_used_at"])


def _recording(ctx: Ctx, row: sqlite3.Row) -> Recording:
    (camera,) = ctx.db.execute("SELECT name FROM devices WHERE device_id = ?", (row["device_id"],)).fetchone()
    return Recording(recording_id=row["recording_id"], label=row["label"], device_id=row["device_id"],
                     camera_name=camera,
                     started_at=row["started_at"], duration_s=row["duration_s"], trigger=row["trigger"],
                     size_mb=row["size_mb"], protected=bool(row["protected"]))


def _lock(ctx: Ctx, device_id: str) -> sqlite3.Row:
    """A lock that is online and not jammed."""
    row = controllable(ctx, device_id, "lock")
    if row["lock_state"] == "jammed":
        raise ToolError("lock_jammed", f"{row['name']} is jammed: its bolt cannot move.",
                        hint="Someone has to free the door by hand (check the bolt and the door alignment).")
    return row


def _weak(code: str) -> bool:
    """A code anyone would guess: one repeated digit or a straight run up or down."""
    steps = {int(b) - int(a) for a, b in zip(code, code[1:])}
    return len(set(code)) == 1 or steps in ({1}, {-1})


# ----- locks --------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Lock {device_id}.",
    "Did I leave the door unlocked? Lock {device_id} please.",
], reply=["{device_id} is locked.", "Done: I've locked {device_id}."])
def lock_door(ctx: Ctx, device_id: UnlockedId) -> Device:
    """Lock a smart door lock.

    Args:
        device_id: ID of the lock, such as 'DEV-10001'.

    Returns:
        The lock, now 'locked'.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a lock.
        device_offline: the lock is offline.
        lock_jammed: the lock is jammed.
        already_locked: the lock is already locked.
    """
    row = _lock(ctx, device_id)
    if row["lock_state"] == "locked":
        raise ToolError("already_locked", f"{row['name']} is already locked.", hint="Nothing to do.")
    ctx.db.execute("UPDATE devices SET lock_state = 'locked' WHERE device_id = ?", (device_id,))
    log(ctx, "lock", f"{row['name']} locked from the app", device_id)
    return device(ctx, device_id)


@tools.tool(effect=WRITE, asks=[
    "Unlock {device_id}, the code is {code}.",
    "Let me in: open {device_id} with code {code}.",
], reply=["{device_id} is unlocked.", "Done: {device_id} is open."])
def unlock_door(ctx: Ctx, device_id: LockedId, code: DoorCode) -> Device:
    """Unlock a smart door lock with one of its door codes, which the user must give.

    A code opens only its own lock, and a temporary code only until it expires.

    Args:
        device_id: ID of the lock, such as 'DEV-10001'.
        code: a door code of this lock as the user gave it, such as '482915'.

    Returns:
        The lock, now 'unlocked'.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a lock.
        device_offline: the lock is offline.
        lock_jammed: the lock is jammed.
        already_unlocked: the lock is already unlocked.
        wrong_code: the code is not a code of this lock.
        code_expired: the code was a temporary code of this lock that has expired.
    """
    row = _lock(ctx, device_id)
    if row["lock_state"] == "unlocked":
        raise ToolError("already_unlocked", f"{row['name']} is already unlocked.", hint="Nothing to do.")
    match = ctx.db.execute("SELECT * FROM lock_codes WHERE device_id = ? AND code = ? "
                           "ORDER BY valid_until IS NULL DESC, valid_until DESC LIMIT 1",
                           (device_id, code.strip())).fetchone()
    if match is None:
        raise ToolError("wrong_code", f"That code does not open {row['name']}.",
                        hint="Ask the user to check the code; each code opens only its own lock.")
    if _status(ctx, match) == "expired":
        raise ToolError("code_expired", f"The code '{match['name']}' expired at {match['valid_until']}.",
                        hint="Ask the user for a current code, or add a new one with add_lock_code.")
    ctx.db.execute("UPDATE devices SET lock_state = 'unlocked' WHERE device_id = ?", (device_id,))
    ctx.db.execute("UPDATE lock_codes SET last_used_at = ? WHERE code_id = ?", (ctx.now_iso(), match["code_id"]))
    log(ctx, "lock", f"{row['name']} unlocked with the code '{match['name']}'", device_id)
    return device(ctx, device_id)


@tools.tool(effect=READ, asks=[
    "Who has a code for {device_id}?",
    Ask("Which door codes have expired?", status="expired"),
    Ask("Which door codes still work?", status="active"),
    "List all the door codes.",
], reply=[
    "{result.codes_text}.",
])
def list_lock_codes(ctx: Ctx, device_id: LockId | None = None,
                    status: Literal["active", "expired"] | None = None) -> LockCodeList:
    """List the door codes of the home's locks (who each is for, expiry, last use); the digits are never shown.

    Args:
        device_id: only codes of this lock, such as 'DEV-10001'.
        status: only 'active' or only 'expired' codes.

    Returns:
        The codes (ID, lock, name, number of digits, validity, status, last use) and how many there are.

    Raises:
        not_found: `device_id` does not exist.
        unsupported_device: `device_id` is not a lock.
    """
    params: list[object] = []
    cond = "1"
    if device_id is not None:
        row = ctx.get("device", device_id)
        if row["type"] != "lock":
            raise ToolError("unsupported_device", f"{row['name']} is a {row['type']}, not a lock.",
                            hint="Call list_devices with device_type='lock'.")
        cond, params = "device_id = ?", [device_id]
    rows = ctx.db.execute(f"SELECT * FROM lock_codes WHERE {cond} ORDER BY device_id, code_id", params).fetchall()
    codes = [_code(ctx, r) for r in rows]
    if status is not None:
        codes = [c for c in codes if c.status == status]
    return LockCodeList(lock_codes=codes, total=len(codes), codes_text=_codes_text(codes, status, ctx.today()))


@tools.tool(effect=READ, hidden=True)
def get_lock_code(ctx: Ctx, code_id: LockCodeId) -> LockCodeSecret:
    """The digits of a door code, for the synthesis pipeline to put in a user turn (never shown to a model).

    Args:
        code_id: ID of the code, such as 'LKC-10001'.

    Returns:
        The code's ID, its lock and its digits.

    Raises:
        not_found: no code has that ID.
    """
    row = ctx.get("lock_code", code_id)
    return LockCodeSecret(code_id=row["code_id"], device_id=row["device_id"], code=row["code"])


@tools.tool(effect=READ, hidden=True)
def get_door_codes(ctx: Ctx, device_id: LockId) -> LockDigitsList:
    """The digits of a lock's working codes, for the synthesis pipeline to put in a user turn (never shown to a model).

    The user knows the codes of their own locks; this is how a request to unlock a door gets one.

    Args:
        device_id: ID of the lock, such as 'DEV-10001'.

    Returns:
        The lock's ID and its active codes (ID, who it is for, digits).

    Raises:
        not_found: no device has that ID.
    """
    ctx.get("device", device_id)
    rows = ctx.db.execute("SELECT * FROM lock_codes WHERE device_id = ? ORDER BY code_id", (device_id,)).fetchall()
    return LockDigitsList(device_id=device_id, codes=[LockDigits(code_id=r["code_id"], name=r["name"], code=r["code"])
                                                     for r in rows if _status(ctx, r) == "active"])


@tools.tool(effect=WRITE, values={
    "name": ["Dog walker (Maria)", "Cleaner (Ana)", "Babysitter", "Guest", "Contractor (Bob)", "Grandma",
             "Neighbour (Tom)", "Holiday rental guest"],
    "new_code": ["582914", "730461", "4827", "915306", "26048173", "3719", "640285", "8153"],
}, asks=[
    "Add the code {new_code} on {device_id} and name it '{name}'.",
    "Add the door code {new_code} to {device_id} until {valid_until}, under the name '{name}'.",
], reply=["Added the code '{name}' on {device_id}.", "Done: the code '{name}' now opens {device_id}."])
def add_lock_code(ctx: Ctx, device_id: LockId, name: Name, new_code: DoorCode,
                  valid_until: str | None = None) -> LockCode:
    """Add a door code to a lock, permanent or temporary (a guest, a dog walker, a contractor).

    Args:
        device_id: ID of the lock, such as 'DEV-10001'.
        name: who the code is for, such as 'Dog walker (Maria)'.
        new_code: the new code the user chose, 4 to 8 digits, such as '582914'; not a repeated digit
            or a straight run like '1234'.
        valid_until: when a temporary code stops working, such as '2026-03-22T18:00:00'; leave
            out for a permanent code.

    Returns:
        The new code (without its digits) and its ID.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a lock.
        device_offline: the lock is offline; codes are written to the lock itself.
        invalid_code: the code is not 4 to 8 digits, or is easy to guess.
        invalid_time: `valid_until` is not an ISO 8601 local time.
        duplicate_code: the lock already has that code.
        past_date: `valid_until` is not in the future.
        too_many_codes: the lock already holds 10 codes (expired ones count until deleted).
    """
    row = controllable(ctx, device_id, "lock")
    code = new_code.strip()
    if not re.fullmatch(r"\d{4,8}", code) or _weak(code):
        raise ToolError("invalid_code", "A door code is 4 to 8 digits, not one repeated digit or a straight run.",
                        hint="Ask the user for another code.")
    if ctx.db.execute("SELECT 1 FROM lock_codes WHERE device_id = ? AND code = ?", (device_id, code)).fetchone():
        raise ToolError("duplicate_code", f"{row['name']} already has that code.",
                        hint="Ask the user for another code.")
    until = None
    if valid_until is not None:
        until = iso(parse_time(valid_until, "valid_until"))
        if until <= ctx.now_iso():
            raise ToolError("past_date", f"valid_until {until} is not in the future.",
                            hint="Give a time after now, or leave it out for a permanent code.")
    (count,) = ctx.db.execute("SELECT count(*) FROM lock_codes WHERE device_id = ?", (device_id,)).fetchone()
    if count >= MAX_CODES_PER_LOCK:
        raise ToolError("too_many_codes", f"{row['name']} already holds {count} codes, the most it can store.",
                        hint="Delete an old or expired code with delete_lock_code first.")
    code_id = ctx.new_id("LKC")
    ctx.db.execute("INSERT INTO lock_codes (code_id, device_id, name, code, created_at, valid_until, last_used_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, NULL)", (code_id, device_id, name, code, ctx.now_iso(), until))
    log(ctx, "code", f"Code '{name}' added to {row['name']}", device_id)
    return _code(ctx, ctx.get("lock_code", code_id))


@tools.tool(effect=WRITE, asks=[
    "Delete {code_id}.",
    "Revoke {code_id}, they don't need access anymore.",
], reply=["Deleted the door code '{result.name}'; it no longer opens the {result.lock_name}.",
          "Done: {code_id} no longer works."])
def delete_lock_code(ctx: Ctx, code_id: RemovableCodeId) -> DeletedLockCode:
    """Delete a door code from its lock; it stops working at once.

    Args:
        code_id: ID of the code, such as 'LKC-10002'.

    Returns:
        The deleted code's ID, name and lock.

    Raises:
        not_found: no code has that ID.
        device_offline: the code's lock is offline; codes are removed from the lock itself.
        last_permanent_code: it is the lock's only permanent code.
    """
    row = ctx.get("lock_code", code_id)
    lock = controllable(ctx, row["device_id"], "lock")
    if row["valid_until"] is None:
        (permanent,) = ctx.db.execute("SELECT count(*) FROM lock_codes WHERE device_id = ? AND valid_until IS NULL",
                                      (row["device_id"],)).fetchone()
        if permanent <= 1:
            raise ToolError("last_permanent_code", f"'{row['name']}' is the only permanent code of {lock['name']}.",
                            hint="Add another permanent code first, so the household is not locked out.")
    ctx.db.execute("DELETE FROM lock_codes WHERE code_id = ?", (code_id,))
    log(ctx, "code", f"Code '{row['name']}' deleted from {lock['name']}", row["device_id"])
    return DeletedLockCode(code_id=code_id, name=row["name"], lock_name=lock["name"], deleted=True)


# ----- cameras ------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    Ask("Arm {device_id}.", armed=True),
    Ask("Turn off motion recording on {device_id}.", armed=False),
    Ask("Disarm {device_id}, we're home.", armed=False),
], reply=[
    Ask("Done: {device_id} is armed and will record on motion.", armed=True),
    Ask("Armed {device_id}.", armed=True),
    Ask("Done: {device_id} is disarmed.", armed=False),
    Ask("{device_id} won't record motion until you arm it again.", armed=False),
])
def set_camera_armed(ctx: Ctx, device_id: CameraId, armed: bool) -> Device:
    """Arm a camera (it records and alerts on motion) or disarm it.

    Args:
        device_id: ID of the camera, such as 'DEV-10003'.
        armed: true to arm, false to disarm.

    Returns:
        The camera with its new armed state.

    Raises:
        not_found: no device has that ID.
        unsupported_device: the device is not a camera.
        device_offline: the camera is offline.
    """
    row = controllable(ctx, device_id, "camera")
    ctx.db.execute("UPDATE devices SET armed = ? WHERE device_id = ?", (int(armed), device_id))
    if bool(row["armed"]) != armed:
        log(ctx, "camera", f"{row['name']} {'armed' if armed else 'disarmed'}", device_id)
    return device(ctx, device_id)


@tools.tool(effect=READ, asks=[
    "Show me the clips from {device_id}.",
    "Were there any {trigger} recordings on {day}?",
    Ask("Did a package get delivered? Check the camera clips.", trigger="package"),
    "Did the cameras pick up anything lately?",
], reply=[
    "I found {result.recordings_text}.",
    Ask("Yes: {result.recordings_text}.", trigger="package"),
])
def list_recordings(ctx: Ctx, device_id: CameraId | None = None, trigger: Trigger | None = None,
                    day: str | None = None, limit: Limit = 20) -> RecordingList:
    """List camera recordings, newest first, by camera, what triggered them and day.

    Args:
        device_id: only clips of this camera, such as 'DEV-10003'.
        trigger: only clips triggered by 'motion', 'person', 'package', 'vehicle', 'animal' or 'manual'.
        day: only clips that started on this day, such as '2026-03-15'.
        limit: at most this many clips (1-200, default 20).

    Returns:
        The clips (ID, camera, start, duration, trigger, size, protected) and how many matched.

    Raises:
        not_found: `device_id` does not exist.
        unsupported_device: `device_id` is not a camera.
        invalid_date: `day` is not an ISO date.
    """
    where = Where()
    if device_id is not None:
        row = ctx.get("device", device_id)
        if row["type"] != "camera":
            raise ToolError("unsupported_device", f"{row['name']} is a {row['type']}, not a camera.",
                            hint="Call list_devices with device_type='camera'.")
    where.eq("device_id", device_id)
    where.eq("trigger", trigger)
    if day is not None:
        where.add("substr(started_at, 1, 10) = ?", parse_date(day, "day").isoformat())
    total, rows = where.page(ctx.db, "recordings", "started_at DESC, recording_id DESC", limit)
    clips = [_recording(ctx, r) for r in rows]
    return RecordingList(recordings=clips, total=total,
                         recordings_text=_recordings_text(clips, total, device_id is not None))


@tools.tool(effect=WRITE, asks=[
    "Delete {recording_id}.",
    "Get rid of {recording_id}, I don't need it.",
], reply=["Deleted {recording_id}; {result.freed_mb} MB freed.",
          "Done: {recording_id} is gone and {result.freed_mb} MB are free again."])
def delete_recording(ctx: Ctx, recording_id: UnprotectedId) -> DeletedRecording:
    """Delete a camera recording for good.

    Args:
        recording_id: ID of the clip, such as 'REC-10003'.

    Returns:
        The deleted clip's ID and the storage freed.

    Raises:
        not_found: no recording has that ID.
        recording_protected: the clip is protected (kept) and cannot be deleted.
    """
    row = ctx.get("recording", recording_id)
    if row["protected"]:
        raise ToolError("recording_protected", f"Recording {recording_id} is protected and cannot be deleted.",
                        hint="Protected clips are kept as evidence; only unprotected clips can be deleted.")
    ctx.db.execute("DELETE FROM recordings WHERE recording_id = ?", (recording_id,))
    return DeletedRecording(recording_id=recording_id, deleted=True, freed_mb=row["size_mb"])
