-- Email: the mailbox of one signed-in user. Folders, labels, threads and messages with their
-- recipients and attachments, contacts, filters, blocked senders, settings (signature, vacation
-- responder), app passwords, and mail that will arrive as the simulated clock moves on.
--
-- Tables are WITHOUT ROWID except the two with long rows (messages, inbound), where a rowid
-- table packs bodies into pages far more densely; both keep the template sessions copy small.
--
-- Conventions: IDs are text with a prefix ('MSG-10001', 'THR-', 'FLD-', 'LBL-', 'CON-', 'ATT-',
-- 'FIL-', 'APP-', 'INB-'); the system folders have fixed lower-case IDs ('inbox', 'sent', 'drafts',
-- 'scheduled', 'archive', 'spam', 'trash'). Times are local ISO 8601 text, '2026-03-16T09:00:00',
-- so string order is time order; addresses are stored lower-case.

-- mailbox: exactly one row, the signed-in user's settings.
CREATE TABLE mailbox (
    mailbox_id       TEXT PRIMARY KEY,
    display_name     TEXT NOT NULL,
    signature        TEXT,
    vacation_enabled INTEGER NOT NULL DEFAULT 0 CHECK (vacation_enabled IN (0, 1)),
    vacation_subject TEXT,
    vacation_body    TEXT,
    vacation_start   TEXT,
    vacation_end     TEXT
) WITHOUT ROWID;

-- addresses: the user's own addresses; exactly one is primary, the others are aliases that
-- deliver to the same inbox and can be sent from.
CREATE TABLE addresses (
    address    TEXT PRIMARY KEY,
    is_primary INTEGER NOT NULL CHECK (is_primary IN (0, 1))
) WITHOUT ROWID;

-- folders: every message (and draft) lives in exactly one folder.
CREATE TABLE folders (
    folder_id  TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('system', 'custom')),
    created_at TEXT NOT NULL
) WITHOUT ROWID;

-- labels: tags a message can carry any number of, across folders.
CREATE TABLE labels (
    label_id   TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    color      TEXT NOT NULL,
    created_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE contacts (
    contact_id  TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    email       TEXT NOT NULL UNIQUE,
    phone       TEXT,
    company     TEXT,
    notes       TEXT,
    is_favorite INTEGER NOT NULL DEFAULT 0 CHECK (is_favorite IN (0, 1)),
    created_at  TEXT NOT NULL
) WITHOUT ROWID;

-- threads: a conversation; replies and forwards stay in their original's thread.
CREATE TABLE threads (
    thread_id TEXT PRIMARY KEY,
    subject   TEXT NOT NULL
) WITHOUT ROWID;

-- messages: status 'received' (delivered to the user), 'sent', 'draft' or 'scheduled' (a draft
-- waiting for its send time). sent_at is when it was sent or received; for a draft, its last
-- edit; for a scheduled message, when it will go. trashed_from is the folder a trashed message
-- came from (restore puts it back there).
CREATE TABLE messages (
    message_id   TEXT PRIMARY KEY,
    thread_id    TEXT NOT NULL REFERENCES threads(thread_id),
    folder_id    TEXT NOT NULL REFERENCES folders(folder_id),
    status       TEXT NOT NULL CHECK (status IN ('received', 'sent', 'draft', 'scheduled')),
    from_name    TEXT NOT NULL,
    from_address TEXT NOT NULL,
    subject      TEXT NOT NULL,
    body         TEXT NOT NULL,
    sent_at      TEXT NOT NULL,
    is_read      INTEGER NOT NULL DEFAULT 1 CHECK (is_read IN (0, 1)),
    is_starred   INTEGER NOT NULL DEFAULT 0 CHECK (is_starred IN (0, 1)),
    in_reply_to  TEXT,
    trashed_from TEXT
);
CREATE INDEX messages_by_thread ON messages (thread_id);

-- recipients: to, cc and bcc addresses of each message, in the order given (position).
CREATE TABLE recipients (
    message_id TEXT NOT NULL REFERENCES messages(message_id),
    kind       TEXT NOT NULL CHECK (kind IN ('to', 'cc', 'bcc')),
    address    TEXT NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (message_id, kind, address)
) WITHOUT ROWID;

-- attachments: file metadata only (name, type, size in kilobytes).
CREATE TABLE attachments (
    attachment_id TEXT PRIMARY KEY,
    message_id    TEXT NOT NULL REFERENCES messages(message_id),
    filename      TEXT NOT NULL,
    mime_type     TEXT NOT NULL,
    size_kb       INTEGER NOT NULL CHECK (size_kb > 0)
) WITHOUT ROWID;
CREATE INDEX attachments_by_message ON attachments (message_id);

CREATE TABLE message_labels (
    message_id TEXT NOT NULL REFERENCES messages(message_id),
    label_id   TEXT NOT NULL REFERENCES labels(label_id),
    PRIMARY KEY (message_id, label_id)
) WITHOUT ROWID;

-- filters: rules applied, in creation order, to mail as it arrives. A filter has at least one
-- condition (from_contains, subject_contains; both must match) and at least one action.
CREATE TABLE filters (
    filter_id         TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    from_contains     TEXT,
    subject_contains  TEXT,
    move_to_folder_id TEXT REFERENCES folders(folder_id),
    add_label_id      TEXT REFERENCES labels(label_id),
    mark_read         INTEGER NOT NULL DEFAULT 0 CHECK (mark_read IN (0, 1)),
    star              INTEGER NOT NULL DEFAULT 0 CHECK (star IN (0, 1)),
    created_at        TEXT NOT NULL
) WITHOUT ROWID;

-- blocked_senders: mail from these addresses goes straight to spam.
CREATE TABLE blocked_senders (
    address    TEXT PRIMARY KEY,
    blocked_at TEXT NOT NULL
) WITHOUT ROWID;

-- app_passwords: passwords for mail apps that cannot sign in interactively (IMAP clients).
CREATE TABLE app_passwords (
    app_password_id TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    password        TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
    created_at      TEXT NOT NULL,
    last_used_at    TEXT
) WITHOUT ROWID;

-- inbound: mail on its way that is delivered when the clock reaches arrives_at (into thread_id
-- when it is a reply); attachment is 'filename|mime type|size_kb' or NULL; bulk = 1 for mailing
-- lists and automated mail (newsletters, receipts, spam), which the vacation responder ignores.
CREATE TABLE inbound (
    inbound_id   TEXT PRIMARY KEY,
    arrives_at   TEXT NOT NULL,
    thread_id    TEXT REFERENCES threads(thread_id),
    from_name    TEXT NOT NULL,
    from_address TEXT NOT NULL,
    cc           TEXT,
    subject      TEXT NOT NULL,
    body         TEXT NOT NULL,
    attachment   TEXT,
    bulk         INTEGER NOT NULL DEFAULT 0 CHECK (bulk IN (0, 1))
);

-- vacation_replies: senders who already got the vacation auto-reply since it was last turned on.
CREATE TABLE vacation_replies (
    address    TEXT PRIMARY KEY,
    replied_at TEXT NOT NULL
) WITHOUT ROWID;
