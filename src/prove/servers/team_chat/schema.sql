-- Team chat: a Slack-like workspace as one signed-in member sees it. People and their status,
-- channels (public, private, direct messages), memberships with read positions, messages and
-- thread replies, reactions, mentions, pins, scheduled messages, reminders, and colleagues'
-- messages still to come as the simulated clock moves on.
--
-- Conventions: IDs are text with a prefix ('USR-10001', 'CHN-', 'DM-', 'CM-' for messages,
-- 'SCH-', 'REM-', 'UPC-'); times are local ISO 8601 text, '2026-03-16T09:00:00', so string order
-- is time order. Tables are WITHOUT ROWID except messages, whose longer rows pack more densely in
-- a rowid table; both keep the template every session copies small.

-- users: everyone in the workspace. Exactly one row has is_me = 1: the signed-in member.
-- Deactivated accounts (is_active = 0) stay for history. Bots post but are not people.
CREATE TABLE users (
    user_id           TEXT PRIMARY KEY,
    handle            TEXT NOT NULL UNIQUE,
    name              TEXT NOT NULL,
    title             TEXT,
    email             TEXT NOT NULL,
    timezone          TEXT NOT NULL,
    is_me             INTEGER NOT NULL DEFAULT 0 CHECK (is_me IN (0, 1)),
    is_admin          INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
    is_bot            INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    is_active         INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    status_text       TEXT,
    status_emoji      TEXT,
    status_expires_at TEXT
) WITHOUT ROWID;

-- channels: kind 'public' (anyone may read and join), 'private' (members only; joining needs an
-- invitation) or 'dm' (a direct conversation; its name is the other person's name). posting
-- 'admins' means only workspace admins may post. Exactly one channel is the default (#general),
-- which nobody leaves or archives.
CREATE TABLE channels (
    channel_id  TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('public', 'private', 'dm')),
    topic       TEXT,
    purpose     TEXT,
    created_by  TEXT NOT NULL REFERENCES users(user_id),
    created_at  TEXT NOT NULL,
    is_archived INTEGER NOT NULL DEFAULT 0 CHECK (is_archived IN (0, 1)),
    is_default  INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    posting     TEXT NOT NULL DEFAULT 'everyone' CHECK (posting IN ('everyone', 'admins'))
) WITHOUT ROWID;

-- members: who is in each channel; last_read_at is how far the member has read it.
CREATE TABLE members (
    channel_id   TEXT NOT NULL REFERENCES channels(channel_id),
    user_id      TEXT NOT NULL REFERENCES users(user_id),
    joined_at    TEXT NOT NULL,
    last_read_at TEXT NOT NULL,
    PRIMARY KEY (channel_id, user_id)
) WITHOUT ROWID;

-- messages: thread_id is the root message of the thread a reply belongs to (NULL for a message
-- in the channel); a reply with in_channel = 1 was also sent to the channel. A deleted message
-- keeps its row with is_deleted = 1 and empty text. mentions_channel = 1 for @here/@channel.
CREATE TABLE messages (
    message_id       TEXT PRIMARY KEY,
    channel_id       TEXT NOT NULL REFERENCES channels(channel_id),
    user_id          TEXT NOT NULL REFERENCES users(user_id),
    text             TEXT NOT NULL,
    posted_at        TEXT NOT NULL,
    thread_id        TEXT REFERENCES messages(message_id),
    in_channel       INTEGER NOT NULL DEFAULT 1 CHECK (in_channel IN (0, 1)),
    edited_at        TEXT,
    is_deleted       INTEGER NOT NULL DEFAULT 0 CHECK (is_deleted IN (0, 1)),
    mentions_channel INTEGER NOT NULL DEFAULT 0 CHECK (mentions_channel IN (0, 1)),
    pinned_by        TEXT REFERENCES users(user_id),
    pinned_at        TEXT
);
CREATE INDEX messages_by_channel ON messages (channel_id, posted_at);

CREATE TABLE reactions (
    message_id TEXT NOT NULL REFERENCES messages(message_id),
    emoji      TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users(user_id),
    PRIMARY KEY (message_id, emoji, user_id)
) WITHOUT ROWID;

-- mentions: people named in a message with @handle or <@USR-10003>.
CREATE TABLE mentions (
    message_id TEXT NOT NULL REFERENCES messages(message_id),
    user_id    TEXT NOT NULL REFERENCES users(user_id),
    PRIMARY KEY (message_id, user_id)
) WITHOUT ROWID;

-- scheduled_messages: the user's messages waiting for post_at; message_id once posted.
CREATE TABLE scheduled_messages (
    scheduled_id TEXT PRIMARY KEY,
    channel_id   TEXT NOT NULL REFERENCES channels(channel_id),
    text         TEXT NOT NULL,
    post_at      TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'cancelled', 'failed')),
    message_id   TEXT REFERENCES messages(message_id),
    created_at   TEXT NOT NULL
) WITHOUT ROWID;

-- reminders: the user's own reminders; when remind_at passes, Slackbot sends them by DM.
CREATE TABLE reminders (
    reminder_id TEXT PRIMARY KEY,
    text        TEXT NOT NULL,
    remind_at   TEXT NOT NULL,
    message_id  TEXT REFERENCES messages(message_id),
    status      TEXT NOT NULL CHECK (status IN ('pending', 'done')),
    created_at  TEXT NOT NULL
) WITHOUT ROWID;

-- upcoming: what colleagues will post as time passes (into thread_id when a reply).
CREATE TABLE upcoming (
    upcoming_id TEXT PRIMARY KEY,
    channel_id  TEXT NOT NULL REFERENCES channels(channel_id),
    user_id     TEXT NOT NULL REFERENCES users(user_id),
    text        TEXT NOT NULL,
    post_at     TEXT NOT NULL,
    thread_id   TEXT REFERENCES messages(message_id)
) WITHOUT ROWID;
