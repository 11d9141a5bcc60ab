-- Social media: the account of one signed-in user on a social network, the accounts around it,
-- their posts, likes, comments, follows, blocks, direct messages, the user's notifications and
-- the reports the user filed.
--
-- Conventions: IDs are text with a prefix ('USR-10001', 'PST-', 'CMT-', 'DM-', 'NTF-', 'RPT-');
-- hashtags are stored lower-case without '#'; times are local ISO 8601 text,
-- '2026-03-16T09:00:00', so string order is time order. Tables are WITHOUT ROWID and comments
-- sit outside the CREATE statements, to keep the template small.

-- accounts: exactly one row has is_me = 1, the signed-in user. outside_followers counts the
-- followers who are not in this world. A private account's posts are seen by its followers
-- only; dm_policy 'following' accepts direct messages only from accounts it follows.
-- answers_requests: a private account that approves follow requests (two hours later).
CREATE TABLE accounts (
    account_id        TEXT PRIMARY KEY,
    handle            TEXT NOT NULL UNIQUE,
    display_name      TEXT NOT NULL,
    bio               TEXT,
    location          TEXT,
    joined_on         TEXT NOT NULL,
    is_private        INTEGER NOT NULL CHECK (is_private IN (0, 1)),
    verified          INTEGER NOT NULL CHECK (verified IN (0, 1)),
    dm_policy         TEXT NOT NULL CHECK (dm_policy IN ('everyone', 'following')),
    outside_followers INTEGER NOT NULL DEFAULT 0,
    answers_requests  INTEGER NOT NULL DEFAULT 1 CHECK (answers_requests IN (0, 1)),
    is_me             INTEGER NOT NULL DEFAULT 0 CHECK (is_me IN (0, 1))
) WITHOUT ROWID;

CREATE TABLE follows (
    follower_id TEXT NOT NULL REFERENCES accounts(account_id),
    followee_id TEXT NOT NULL REFERENCES accounts(account_id),
    created_at  TEXT NOT NULL,
    PRIMARY KEY (follower_id, followee_id),
    CHECK (follower_id != followee_id)
) WITHOUT ROWID;

-- follow_requests: pending requests to follow a private account.
CREATE TABLE follow_requests (
    requester_id TEXT NOT NULL REFERENCES accounts(account_id),
    target_id    TEXT NOT NULL REFERENCES accounts(account_id),
    created_at   TEXT NOT NULL,
    PRIMARY KEY (requester_id, target_id)
) WITHOUT ROWID;

CREATE TABLE blocks (
    blocker_id TEXT NOT NULL REFERENCES accounts(account_id),
    blocked_id TEXT NOT NULL REFERENCES accounts(account_id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id)
) WITHOUT ROWID;

-- posts: 'scheduled' posts publish at created_at; 'deleted' by their author, 'removed' by
-- moderation. violates marks content that breaks the rules (moderation acts on reports of it).
CREATE TABLE posts (
    post_id      TEXT PRIMARY KEY,
    author_id    TEXT NOT NULL REFERENCES accounts(account_id),
    text         TEXT NOT NULL,
    visibility   TEXT NOT NULL CHECK (visibility IN ('public', 'followers')),
    reply_policy TEXT NOT NULL CHECK (reply_policy IN ('everyone', 'following')),
    status       TEXT NOT NULL CHECK (status IN ('scheduled', 'published', 'deleted', 'removed')),
    created_at   TEXT NOT NULL,
    edited_at    TEXT,
    violates     INTEGER NOT NULL DEFAULT 0 CHECK (violates IN (0, 1))
) WITHOUT ROWID;

CREATE TABLE hashtags (
    tag TEXT PRIMARY KEY
) WITHOUT ROWID;

CREATE TABLE post_hashtags (
    post_id TEXT NOT NULL REFERENCES posts(post_id),
    tag     TEXT NOT NULL REFERENCES hashtags(tag),
    PRIMARY KEY (post_id, tag)
) WITHOUT ROWID;

CREATE TABLE likes (
    post_id    TEXT NOT NULL REFERENCES posts(post_id),
    account_id TEXT NOT NULL REFERENCES accounts(account_id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (post_id, account_id)
) WITHOUT ROWID;

-- comments: parent_id is set for a reply to another comment on the same post.
CREATE TABLE comments (
    comment_id TEXT PRIMARY KEY,
    post_id    TEXT NOT NULL REFERENCES posts(post_id),
    author_id  TEXT NOT NULL REFERENCES accounts(account_id),
    parent_id  TEXT REFERENCES comments(comment_id),
    text       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('visible', 'deleted'))
) WITHOUT ROWID;

-- messages: direct messages between the user and another account.
CREATE TABLE messages (
    message_id   TEXT PRIMARY KEY,
    sender_id    TEXT NOT NULL REFERENCES accounts(account_id),
    recipient_id TEXT NOT NULL REFERENCES accounts(account_id),
    text         TEXT NOT NULL,
    sent_at      TEXT NOT NULL
) WITHOUT ROWID;

-- reports: content the user reported; moderators review each one 24 hours after it is filed.
CREATE TABLE reports (
    report_id   TEXT PRIMARY KEY,
    post_id     TEXT NOT NULL REFERENCES posts(post_id),
    reason      TEXT NOT NULL CHECK (reason IN ('spam', 'harassment', 'hate', 'misinformation', 'violence',
                                                'impersonation', 'other')),
    details     TEXT,
    status      TEXT NOT NULL CHECK (status IN ('open', 'action_taken', 'no_violation')),
    created_at  TEXT NOT NULL,
    resolved_at TEXT
) WITHOUT ROWID;

-- notifications: what happened to the user's account.
CREATE TABLE notifications (
    notification_id TEXT PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind IN ('like', 'comment', 'reply', 'follow', 'mention', 'message',
                                                  'follow_accepted', 'report_update')),
    actor_id        TEXT REFERENCES accounts(account_id),
    post_id         TEXT REFERENCES posts(post_id),
    comment_id      TEXT REFERENCES comments(comment_id),
    report_id       TEXT REFERENCES reports(report_id),
    created_at      TEXT NOT NULL,
    is_read         INTEGER NOT NULL CHECK (is_read IN (0, 1))
) WITHOUT ROWID;
