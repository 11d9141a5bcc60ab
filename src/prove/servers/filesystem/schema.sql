-- Filesystem: the cloud drive of one signed-in user, stored entirely in this database.
--
-- Nothing here is a host path: `path` is a normalised virtual path inside the drive, '/' being
-- its root ('/Documents/Finance/Budget 2026.csv'). Times are local ISO 8601 text
-- ('2026-03-16T09:00:00'), so string order is time order. Sizes are bytes.
-- Comments sit outside the CREATE statements (SQLite stores those verbatim in every template).

-- account: the signed-in user, their storage plan and their Personal Vault (one row).
-- The vault is unlocked while vault_unlocked_until is later than the clock.
CREATE TABLE account (
    account_id           TEXT PRIMARY KEY,
    name                 TEXT NOT NULL,
    email                TEXT NOT NULL,
    plan                 TEXT NOT NULL,
    quota_bytes          INTEGER NOT NULL CHECK (quota_bytes > 0),
    vault_passcode       TEXT NOT NULL,
    vault_unlocked_until TEXT
) WITHOUT ROWID;

-- trash: one row per deleted item (a file, or a folder with everything inside it). The item's
-- nodes stay in `nodes` with this trash_id until restored or deleted for good; node_id is the
-- deleted item's root node. Items are purged automatically 30 days after deleted_at.
CREATE TABLE trash (
    trash_id      TEXT PRIMARY KEY,
    node_id       INTEGER NOT NULL,
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('file', 'folder')),
    original_path TEXT NOT NULL,
    size          INTEGER NOT NULL,
    item_count    INTEGER NOT NULL,
    deleted_at    TEXT NOT NULL
) WITHOUT ROWID;

-- nodes: every file and folder. `path` is the full virtual path (unique among live nodes; a
-- trashed node keeps the path it had when deleted). `content` holds a text file's text and is
-- NULL for folders and binary files (photos, PDFs, videos), whose `size` is declared.
-- content_hash is a short fingerprint of the content (equal content, equal hash).
-- read_only protects the item and, for a folder, everything inside it.
CREATE TABLE nodes (
    node_id      INTEGER PRIMARY KEY,
    parent_id    INTEGER REFERENCES nodes(node_id),
    path         TEXT NOT NULL,
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('file', 'folder')),
    content      TEXT,
    size         INTEGER NOT NULL DEFAULT 0 CHECK (size >= 0),
    mime_type    TEXT,
    content_hash TEXT,
    owner        TEXT NOT NULL,
    read_only    INTEGER NOT NULL DEFAULT 0 CHECK (read_only IN (0, 1)),
    created_at   TEXT NOT NULL,
    modified_at  TEXT NOT NULL,
    trash_id     TEXT REFERENCES trash(trash_id)
);
CREATE UNIQUE INDEX nodes_live_path ON nodes(path) WHERE trash_id IS NULL;
CREATE INDEX nodes_parent ON nodes(parent_id);

-- versions: earlier contents of a text file, kept each time it is overwritten or edited.
-- modified_at is when that content was written; version_no counts from 1 (the oldest).
CREATE TABLE versions (
    version_id  TEXT PRIMARY KEY,
    node_id     INTEGER NOT NULL REFERENCES nodes(node_id),
    version_no  INTEGER NOT NULL,
    content     TEXT NOT NULL,
    size        INTEGER NOT NULL,
    modified_at TEXT NOT NULL,
    UNIQUE (node_id, version_no)
) WITHOUT ROWID;

-- tags: free-form lower-case labels on files and folders.
CREATE TABLE tags (
    node_id INTEGER NOT NULL REFERENCES nodes(node_id),
    tag     TEXT NOT NULL,
    PRIMARY KEY (node_id, tag)
) WITHOUT ROWID;

-- favorites: items the user starred.
CREATE TABLE favorites (
    node_id  INTEGER PRIMARY KEY REFERENCES nodes(node_id),
    added_at TEXT NOT NULL
);

-- share_links: links that let anyone with the token view or edit an item. A link stops
-- working when it expires, is revoked, or its item is in the trash.
CREATE TABLE share_links (
    link_id    TEXT PRIMARY KEY,
    node_id    INTEGER NOT NULL REFERENCES nodes(node_id),
    token      TEXT NOT NULL UNIQUE,
    access     TEXT NOT NULL CHECK (access IN ('view', 'edit')),
    created_at TEXT NOT NULL,
    expires_at TEXT,
    revoked_at TEXT
) WITHOUT ROWID;

-- archive_members: what a .zip archive holds, copied in when it was made (member_path is
-- relative, such as 'Taxes/2025/W-2 2025.pdf'; folders have kind 'folder').
CREATE TABLE archive_members (
    node_id      INTEGER NOT NULL REFERENCES nodes(node_id),
    member_path  TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('file', 'folder')),
    content      TEXT,
    size         INTEGER NOT NULL,
    content_hash TEXT,
    modified_at  TEXT NOT NULL,
    PRIMARY KEY (node_id, member_path)
) WITHOUT ROWID;

-- activity: what happened in the drive, newest last (uploads, edits, moves, shares, deletes).
CREATE TABLE activity (
    activity_id TEXT PRIMARY KEY,
    at          TEXT NOT NULL,
    action      TEXT NOT NULL,
    path        TEXT NOT NULL,
    detail      TEXT
) WITHOUT ROWID;
