-- The CRM server: the sales CRM of one company, used by one signed-in sales rep.
-- Dates are ISO text ('2026-03-16', '2026-03-16T09:30:00'); money is dollars rounded to cents.
-- Tables are WITHOUT ROWID: keyed by their text IDs, they need no second index (a smaller world).

-- The company's sales team; exactly one rep is the signed-in user (is_me = 1).
CREATE TABLE reps (
    rep_id     TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    email      TEXT NOT NULL,
    title      TEXT NOT NULL,
    team       TEXT NOT NULL,
    manager_id TEXT REFERENCES reps(rep_id),
    quota      REAL NOT NULL,                  -- quarterly quota in dollars (0 for non-quota roles)
    active     INTEGER NOT NULL,               -- 0 once they left: records cannot be assigned to them
    is_me      INTEGER NOT NULL
) WITHOUT ROWID;

-- Companies: prospects, customers and partners. An account becomes a 'customer' when a deal is won.
CREATE TABLE accounts (
    account_id     TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    industry       TEXT NOT NULL,
    type           TEXT NOT NULL CHECK (type IN ('prospect', 'customer', 'partner')),
    website        TEXT,
    phone          TEXT,
    city           TEXT,
    country        TEXT,
    employees      INTEGER,
    annual_revenue REAL,
    owner_id       TEXT NOT NULL REFERENCES reps(rep_id),
    created_at     TEXT NOT NULL
) WITHOUT ROWID;

-- People at accounts. `do_not_contact` people may not be called or e-mailed.
CREATE TABLE contacts (
    contact_id     TEXT PRIMARY KEY,
    account_id     TEXT NOT NULL REFERENCES accounts(account_id),
    first_name     TEXT NOT NULL,
    last_name      TEXT NOT NULL,
    full_name      TEXT NOT NULL,
    title          TEXT,
    email          TEXT NOT NULL,
    phone          TEXT,
    owner_id       TEXT NOT NULL REFERENCES reps(rep_id),
    do_not_contact INTEGER NOT NULL,
    created_at     TEXT NOT NULL
) WITHOUT ROWID;

-- Prospective buyers not yet qualified. owner_id NULL means the lead waits in the shared queue.
-- Converting a lead creates (or reuses) an account and a contact, and usually a deal.
CREATE TABLE leads (
    lead_id              TEXT PRIMARY KEY,
    first_name           TEXT NOT NULL,
    last_name            TEXT NOT NULL,
    full_name            TEXT NOT NULL,
    company              TEXT NOT NULL,
    industry             TEXT,                 -- the company's industry, if known
    title                TEXT,
    email                TEXT NOT NULL,
    phone                TEXT,
    source               TEXT NOT NULL CHECK (source IN ('website', 'referral', 'trade_show', 'webinar',
                                                         'cold_outreach', 'partner')),
    status               TEXT NOT NULL CHECK (status IN ('new', 'working', 'qualified', 'unqualified',
                                                         'converted')),
    rating               TEXT NOT NULL CHECK (rating IN ('hot', 'warm', 'cold')),
    owner_id             TEXT REFERENCES reps(rep_id),
    created_at           TEXT NOT NULL,
    converted_at         TEXT,
    converted_account_id TEXT REFERENCES accounts(account_id),
    converted_contact_id TEXT REFERENCES contacts(contact_id),
    converted_deal_id    TEXT REFERENCES deals(deal_id)
) WITHOUT ROWID;

-- Opportunities. Open stages: prospecting, qualification, proposal, negotiation; closed stages:
-- closed_won, closed_lost. A closed deal changes stage only by being reopened.
CREATE TABLE deals (
    deal_id     TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    account_id  TEXT NOT NULL REFERENCES accounts(account_id),
    contact_id  TEXT REFERENCES contacts(contact_id),   -- primary contact, at the same account
    owner_id    TEXT NOT NULL REFERENCES reps(rep_id),
    stage       TEXT NOT NULL CHECK (stage IN ('prospecting', 'qualification', 'proposal', 'negotiation',
                                               'closed_won', 'closed_lost')),
    amount      REAL NOT NULL,
    probability INTEGER NOT NULL,              -- percent, set by the stage
    close_date  TEXT NOT NULL,                 -- expected (open) or actual (closed) close date
    next_step   TEXT,
    loss_reason TEXT,
    lead_id     TEXT REFERENCES leads(lead_id),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    closed_at   TEXT
) WITHOUT ROWID;

CREATE TABLE deal_stage_history (
    deal_id    TEXT NOT NULL REFERENCES deals(deal_id),
    seq        INTEGER NOT NULL,
    from_stage TEXT,                           -- NULL for the stage the deal was created in
    to_stage   TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    changed_by TEXT NOT NULL REFERENCES reps(rep_id),
    PRIMARY KEY (deal_id, seq)
) WITHOUT ROWID;

-- Tasks (to do, with a due date) and logged calls, e-mails and meetings (done, with a time).
CREATE TABLE activities (
    activity_id  TEXT PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('task', 'call', 'email', 'meeting')),
    subject      TEXT NOT NULL,
    details      TEXT,
    status       TEXT NOT NULL CHECK (status IN ('open', 'completed')),
    priority     TEXT NOT NULL CHECK (priority IN ('low', 'normal', 'high')),
    due_date     TEXT,                         -- tasks only
    occurred_at  TEXT,                         -- when a call/e-mail/meeting happened or a task was done
    outcome      TEXT,
    owner_id     TEXT NOT NULL REFERENCES reps(rep_id),
    account_id   TEXT REFERENCES accounts(account_id),
    contact_id   TEXT REFERENCES contacts(contact_id),
    deal_id      TEXT REFERENCES deals(deal_id),
    lead_id      TEXT REFERENCES leads(lead_id),
    created_at   TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE notes (
    note_id    TEXT PRIMARY KEY,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    author_id  TEXT NOT NULL REFERENCES reps(rep_id),
    account_id TEXT REFERENCES accounts(account_id),
    contact_id TEXT REFERENCES contacts(contact_id),
    deal_id    TEXT REFERENCES deals(deal_id),
    lead_id    TEXT REFERENCES leads(lead_id),
    created_at TEXT NOT NULL
) WITHOUT ROWID;
