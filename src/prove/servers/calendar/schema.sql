-- Calendar: the signed-in user's calendars, events, invitations and reminders, the company
-- directory, and colleagues' free/busy time.
--
-- Conventions: IDs are text with a prefix ('PER-10001', 'CAL-', 'SER-', 'EVT-', 'INV-', 'REM-');
-- times are local ISO 8601 text, '2026-03-18T14:00:00', so string order is time order.
-- Tables are WITHOUT ROWID: with text keys this keeps one B-tree per table instead of two, and
-- comments sit outside the CREATE statements, which SQLite stores verbatim; both keep the
-- template that every session copies small.

-- people: everyone in the directory. Exactly one row has is_me = 1: the signed-in user.
-- is_colleague = 1 for people at the user's company, whose free/busy time is visible.
CREATE TABLE people (
    person_id    TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    email        TEXT NOT NULL UNIQUE,
    job_title    TEXT,
    department   TEXT,
    company      TEXT NOT NULL,
    is_colleague INTEGER NOT NULL CHECK (is_colleague IN (0, 1)),
    is_me        INTEGER NOT NULL DEFAULT 0 CHECK (is_me IN (0, 1))
) WITHOUT ROWID;

-- calendars: every colleague has a primary calendar, holding the events they organize; the
-- user also owns other calendars and sees calendars shared with them.
CREATE TABLE calendars (
    calendar_id TEXT PRIMARY KEY,
    owner_id    TEXT NOT NULL REFERENCES people(person_id),
    name        TEXT NOT NULL,
    description TEXT,
    is_primary  INTEGER NOT NULL DEFAULT 0 CHECK (is_primary IN (0, 1))
) WITHOUT ROWID;

-- calendar_shares: access a calendar's owner granted to someone else.
CREATE TABLE calendar_shares (
    calendar_id TEXT NOT NULL REFERENCES calendars(calendar_id),
    person_id   TEXT NOT NULL REFERENCES people(person_id),
    permission  TEXT NOT NULL CHECK (permission IN ('free_busy', 'read', 'write')),
    PRIMARY KEY (calendar_id, person_id)
) WITHOUT ROWID;

-- series: a recurrence rule; its occurrences are the events carrying its series_id.
-- weekdays is 'MO,WE' for weekly rules and NULL for daily ones; exactly one of count and
-- until (the last allowed date, '2026-05-01') is set.
CREATE TABLE series (
    series_id    TEXT PRIMARY KEY,
    calendar_id  TEXT NOT NULL REFERENCES calendars(calendar_id),
    organizer_id TEXT NOT NULL REFERENCES people(person_id),
    title        TEXT NOT NULL,
    frequency    TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly')),
    interval     INTEGER NOT NULL CHECK (interval >= 1),
    weekdays     TEXT,
    count        INTEGER,
    until        TEXT,
    CHECK ((count IS NULL) != (until IS NULL))
) WITHOUT ROWID;

-- events: show_as 'free' marks informational events that block nobody's time. Cancelled
-- events stay on record.
CREATE TABLE events (
    event_id     TEXT PRIMARY KEY,
    calendar_id  TEXT NOT NULL REFERENCES calendars(calendar_id),
    series_id    TEXT REFERENCES series(series_id),
    organizer_id TEXT NOT NULL REFERENCES people(person_id),
    title        TEXT NOT NULL,
    description  TEXT,
    location     TEXT,
    starts_at    TEXT NOT NULL,
    ends_at      TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled')),
    show_as      TEXT NOT NULL CHECK (show_as IN ('busy', 'free')),
    CHECK (ends_at > starts_at)
) WITHOUT ROWID;

-- invitations: one row per invited attendee of an event; the organizer is not an attendee.
CREATE TABLE invitations (
    invitation_id TEXT PRIMARY KEY,
    event_id      TEXT NOT NULL REFERENCES events(event_id),
    person_id     TEXT NOT NULL REFERENCES people(person_id),
    response      TEXT NOT NULL CHECK (response IN ('needs_action', 'accepted', 'declined', 'tentative')),
    note          TEXT,
    UNIQUE (event_id, person_id)
) WITHOUT ROWID;

-- reminders: the user's own notifications before events.
CREATE TABLE reminders (
    reminder_id    TEXT PRIMARY KEY,
    event_id       TEXT NOT NULL REFERENCES events(event_id),
    minutes_before INTEGER NOT NULL CHECK (minutes_before >= 0),
    method         TEXT NOT NULL CHECK (method IN ('popup', 'email'))
) WITHOUT ROWID;

-- busy_blocks: colleagues' private commitments, seen only as busy time through free/busy.
CREATE TABLE busy_blocks (
    person_id TEXT NOT NULL REFERENCES people(person_id),
    starts_at TEXT NOT NULL,
    ends_at   TEXT NOT NULL,
    PRIMARY KEY (person_id, starts_at),
    CHECK (ends_at > starts_at)
) WITHOUT ROWID;
