-- Issue tracker: the projects, issues, sprints and collaboration of one software company, seen
-- by one signed-in user.
--
-- Conventions: IDs are text with a prefix ('USR-10001', 'PRJ-', 'SPR-', 'CMT-', 'LNK-', 'WLG-',
-- 'CHG-'); an issue's ID starts with its project's key ('WEB-10042'). Times are local ISO 8601
-- text ('2026-03-16T09:00:00') and dates 'YYYY-MM-DD', so string order is time order.
-- Small-row tables are WITHOUT ROWID and comments sit outside the CREATE statements, which
-- SQLite stores verbatim: both keep the template every session copies small. `issues` keeps its
-- rowid: its rows are longer than a WITHOUT ROWID page holds locally and would spill to
-- overflow pages.

-- users: everyone in the company directory. Exactly one row has is_me = 1: the signed-in user.
-- Deactivated people (active = 0) keep their history but cannot be assigned or added as watchers.
CREATE TABLE users (
    user_id TEXT PRIMARY KEY,
    name    TEXT NOT NULL,
    email   TEXT NOT NULL UNIQUE,
    title   TEXT NOT NULL,
    team    TEXT NOT NULL,
    active  INTEGER NOT NULL CHECK (active IN (0, 1)),
    is_me   INTEGER NOT NULL DEFAULT 0 CHECK (is_me IN (0, 1))
) WITHOUT ROWID;

-- projects: key is the prefix of the project's issue IDs. Archived projects are read-only.
CREATE TABLE projects (
    project_id  TEXT PRIMARY KEY,
    key         TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    description TEXT NOT NULL,
    lead_id     TEXT NOT NULL REFERENCES users(user_id),
    status      TEXT NOT NULL CHECK (status IN ('active', 'archived')),
    created_on  TEXT NOT NULL
) WITHOUT ROWID;

-- members: who belongs to a project and with which role. Admins manage sprints; members work
-- on issues; viewers may only comment and watch.
CREATE TABLE members (
    project_id TEXT NOT NULL REFERENCES projects(project_id),
    user_id    TEXT NOT NULL REFERENCES users(user_id),
    role       TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
    PRIMARY KEY (project_id, user_id)
) WITHOUT ROWID;

-- sprints: time boxes of a project; at most one is active per project at a time.
CREATE TABLE sprints (
    sprint_id  TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(project_id),
    name       TEXT NOT NULL,
    goal       TEXT,
    start_date TEXT NOT NULL,
    end_date   TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('planned', 'active', 'completed')),
    completed_at TEXT,
    CHECK (end_date > start_date)
) WITHOUT ROWID;

-- issues: status follows the workflow open -> in_progress -> in_review -> done; an issue can
-- also be closed with a resolution from any unresolved status, and done or closed issues can be
-- reopened. parent_id is the epic an issue belongs to. Estimates and time spent are minutes.
CREATE TABLE issues (
    issue_id    TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects(project_id),
    type        TEXT NOT NULL CHECK (type IN ('bug', 'task', 'story', 'epic')),
    title       TEXT NOT NULL,
    description TEXT,
    status      TEXT NOT NULL CHECK (status IN ('open', 'in_progress', 'in_review', 'done', 'closed')),
    resolution  TEXT CHECK (resolution IN ('fixed', 'wont_fix', 'duplicate', 'cannot_reproduce', 'obsolete')),
    priority    TEXT NOT NULL CHECK (priority IN ('critical', 'high', 'medium', 'low')),
    assignee_id TEXT REFERENCES users(user_id),
    reporter_id TEXT NOT NULL REFERENCES users(user_id),
    sprint_id   TEXT REFERENCES sprints(sprint_id),
    parent_id   TEXT REFERENCES issues(issue_id),
    story_points INTEGER,
    estimate_minutes INTEGER,
    spent_minutes INTEGER NOT NULL DEFAULT 0,
    due_date    TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    resolved_at TEXT
);

-- labels: free-form lower-case tags on issues.
CREATE TABLE labels (
    issue_id TEXT NOT NULL REFERENCES issues(issue_id),
    label    TEXT NOT NULL,
    PRIMARY KEY (issue_id, label)
) WITHOUT ROWID;

-- links: source_id <type> target_id, such as 'WEB-10003 blocks WEB-10007'.
CREATE TABLE links (
    link_id   TEXT PRIMARY KEY,
    source_id TEXT NOT NULL REFERENCES issues(issue_id),
    target_id TEXT NOT NULL REFERENCES issues(issue_id),
    type      TEXT NOT NULL CHECK (type IN ('blocks', 'duplicates', 'relates_to')),
    created_at TEXT NOT NULL,
    UNIQUE (source_id, target_id, type)
) WITHOUT ROWID;

CREATE TABLE watchers (
    issue_id TEXT NOT NULL REFERENCES issues(issue_id),
    user_id  TEXT NOT NULL REFERENCES users(user_id),
    PRIMARY KEY (issue_id, user_id)
) WITHOUT ROWID;

CREATE TABLE comments (
    comment_id TEXT PRIMARY KEY,
    issue_id   TEXT NOT NULL REFERENCES issues(issue_id),
    author_id  TEXT NOT NULL REFERENCES users(user_id),
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    edited_at  TEXT
) WITHOUT ROWID;

-- worklogs: time someone spent on an issue on a given day.
CREATE TABLE worklogs (
    worklog_id TEXT PRIMARY KEY,
    issue_id   TEXT NOT NULL REFERENCES issues(issue_id),
    user_id    TEXT NOT NULL REFERENCES users(user_id),
    work_date  TEXT NOT NULL,
    minutes    INTEGER NOT NULL CHECK (minutes > 0),
    note       TEXT
) WITHOUT ROWID;

-- history: one row per changed field of an issue (the activity feed).
CREATE TABLE history (
    change_id TEXT PRIMARY KEY,
    issue_id  TEXT NOT NULL REFERENCES issues(issue_id),
    user_id   TEXT NOT NULL REFERENCES users(user_id),
    at        TEXT NOT NULL,
    field     TEXT NOT NULL,
    old_value TEXT,
    new_value TEXT
) WITHOUT ROWID;

CREATE INDEX issues_by_project ON issues(project_id, status);
CREATE INDEX links_by_target ON links(target_id);
