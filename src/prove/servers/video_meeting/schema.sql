-- Video meetings: the account of one signed-in user on a Zoom-like service, the company
-- directory, the meetings they host or are invited to, who is in them, in-meeting chat, cloud
-- recordings and their transcripts.
--
-- Conventions: IDs are text with a prefix ('PER-10001', 'MTG-', 'PRT-', 'MSG-', 'REC-'); times
-- are local ISO 8601 text, '2026-03-16T09:00:00', so string order is time order. Tables are
-- WITHOUT ROWID and comments sit outside the CREATE statements, to keep the template small.

-- people: the directory. Exactly one row has is_me = 1: the signed-in user.
CREATE TABLE people (
    person_id    TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    email        TEXT NOT NULL UNIQUE,
    company      TEXT NOT NULL,
    job_title    TEXT,
    is_colleague INTEGER NOT NULL CHECK (is_colleague IN (0, 1)),
    is_me        INTEGER NOT NULL DEFAULT 0 CHECK (is_me IN (0, 1))
) WITHOUT ROWID;

-- account: the signed-in user's plan and personal meeting room (one row).
CREATE TABLE account (
    person_id                TEXT PRIMARY KEY REFERENCES people(person_id),
    plan                     TEXT NOT NULL,
    max_participants         INTEGER NOT NULL,
    storage_quota_mb         REAL NOT NULL,
    personal_meeting_number  TEXT NOT NULL,
    personal_room_passcode   TEXT NOT NULL,
    timezone                 TEXT NOT NULL
) WITHOUT ROWID;

-- meetings: everything the user hosts or is invited to. kind 'instant' and 'personal_room'
-- meetings were started on the spot. recording_since is set while the cloud recording runs;
-- recorded_seconds sums the finished recording stretches.
CREATE TABLE meetings (
    meeting_id       TEXT PRIMARY KEY,
    meeting_number   TEXT NOT NULL,
    host_id          TEXT NOT NULL REFERENCES people(person_id),
    topic            TEXT NOT NULL,
    agenda           TEXT,
    kind             TEXT NOT NULL CHECK (kind IN ('scheduled', 'instant', 'personal_room')),
    starts_at        TEXT NOT NULL,
    duration_minutes INTEGER NOT NULL CHECK (duration_minutes > 0),
    passcode         TEXT NOT NULL,
    waiting_room     INTEGER NOT NULL CHECK (waiting_room IN (0, 1)),
    mute_on_entry    INTEGER NOT NULL CHECK (mute_on_entry IN (0, 1)),
    auto_record      INTEGER NOT NULL CHECK (auto_record IN (0, 1)),
    status           TEXT NOT NULL CHECK (status IN ('scheduled', 'live', 'ended', 'cancelled')),
    started_at       TEXT,
    ended_at         TEXT,
    recording_since  TEXT,
    recorded_seconds INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- invitees: who was invited to a meeting and their answer; the host is not an invitee.
CREATE TABLE invitees (
    meeting_id TEXT NOT NULL REFERENCES meetings(meeting_id),
    person_id  TEXT NOT NULL REFERENCES people(person_id),
    response   TEXT NOT NULL CHECK (response IN ('needs_action', 'accepted', 'declined', 'tentative')),
    PRIMARY KEY (meeting_id, person_id)
) WITHOUT ROWID;

-- participants: one row per person who came to a meeting (the waiting room included); a
-- person who leaves and comes back keeps their row. joined_at is when they arrived.
CREATE TABLE participants (
    participant_id TEXT PRIMARY KEY,
    meeting_id     TEXT NOT NULL REFERENCES meetings(meeting_id),
    person_id      TEXT NOT NULL REFERENCES people(person_id),
    role           TEXT NOT NULL CHECK (role IN ('host', 'attendee')),
    status         TEXT NOT NULL CHECK (status IN ('waiting', 'in_meeting', 'left', 'removed')),
    muted          INTEGER NOT NULL CHECK (muted IN (0, 1)),
    joined_at      TEXT NOT NULL,
    left_at        TEXT,
    UNIQUE (meeting_id, person_id)
) WITHOUT ROWID;

-- chat_messages: in-meeting chat; recipient_id is set for a private message.
CREATE TABLE chat_messages (
    message_id   TEXT PRIMARY KEY,
    meeting_id   TEXT NOT NULL REFERENCES meetings(meeting_id),
    sender_id    TEXT NOT NULL REFERENCES people(person_id),
    recipient_id TEXT REFERENCES people(person_id),
    sent_at      TEXT NOT NULL,
    text         TEXT NOT NULL
) WITHOUT ROWID;

-- recordings: cloud recordings of meetings the user hosted. 'processing' until ready_at,
-- then 'available'; 'deleted' ones are in the trash and use no storage.
CREATE TABLE recordings (
    recording_id     TEXT PRIMARY KEY,
    meeting_id       TEXT NOT NULL REFERENCES meetings(meeting_id),
    duration_seconds INTEGER NOT NULL CHECK (duration_seconds > 0),
    size_mb          REAL NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('processing', 'available', 'deleted')),
    created_at       TEXT NOT NULL,
    ready_at         TEXT NOT NULL
) WITHOUT ROWID;

-- transcript_lines: the audio transcript of a recording, line by line.
CREATE TABLE transcript_lines (
    recording_id   TEXT NOT NULL REFERENCES recordings(recording_id),
    seq            INTEGER NOT NULL,
    offset_seconds INTEGER NOT NULL,
    speaker        TEXT NOT NULL,
    text           TEXT NOT NULL,
    PRIMARY KEY (recording_id, seq)
) WITHOUT ROWID;
