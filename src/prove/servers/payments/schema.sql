-- The payments server: one signed-in member of a person-to-person payments app (Venmo-like)
-- who also bills a few clients for freelance work. Dates are ISO text ('2026-03-16',
-- '2026-03-16T09:30:00'); money is dollars rounded to cents.

-- The signed-in member (exactly one row): the person the model acts for.
CREATE TABLE profile (
    user_id           TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    username          TEXT NOT NULL,            -- '@maya-chen-7'
    email             TEXT NOT NULL,
    phone             TEXT NOT NULL,
    city              TEXT NOT NULL,
    member_since      TEXT NOT NULL,
    balance           REAL NOT NULL,            -- wallet balance
    pin               TEXT NOT NULL,            -- 4-digit security PIN, asked for cash-outs
    identity_verified INTEGER NOT NULL,
    weekly_send_limit REAL NOT NULL,            -- most that may be sent in any rolling 7 days
    business_name     TEXT NOT NULL             -- the member's freelance business, on invoices
);

-- Other members of the network, people and businesses. `is_contact` marks the member's contacts.
CREATE TABLE users (
    user_id       TEXT PRIMARY KEY,
    display_name  TEXT NOT NULL,
    username      TEXT NOT NULL UNIQUE,
    kind          TEXT NOT NULL CHECK (kind IN ('person', 'business')),
    category      TEXT,                          -- businesses: 'Coffee shop', 'Landlord', ...
    city          TEXT NOT NULL,
    email         TEXT,
    is_contact    INTEGER NOT NULL DEFAULT 0,
    contact_since TEXT
);

-- Bank accounts and cards linked to the wallet. Removed sources stay (payments refer to them).
CREATE TABLE funding_sources (
    source_id    TEXT PRIMARY KEY,
    name         TEXT NOT NULL,                 -- 'Chase Checking ending 4821'
    kind         TEXT NOT NULL CHECK (kind IN ('bank_account', 'debit_card', 'credit_card')),
    institution  TEXT NOT NULL,                 -- bank or card network
    last4        TEXT NOT NULL,
    card_number  TEXT,                          -- cards only; never shown in full
    expires      TEXT,                          -- cards only: 'MM/YY'
    status       TEXT NOT NULL CHECK (status IN ('active', 'removed')),
    is_default   INTEGER NOT NULL DEFAULT 0,
    added_at     TEXT NOT NULL
);

-- Cards in the member's physical wallet (linked or not): what a user could read off a card.
CREATE TABLE cards_on_hand (
    card_number TEXT PRIMARY KEY,
    network     TEXT NOT NULL,
    issuer      TEXT NOT NULL,
    card_type   TEXT NOT NULL CHECK (card_type IN ('debit', 'credit')),
    expires     TEXT NOT NULL,                  -- 'MM/YY'
    cvv         TEXT NOT NULL
);

CREATE TABLE requests (
    request_id      TEXT PRIMARY KEY,
    direction       TEXT NOT NULL CHECK (direction IN ('incoming', 'outgoing')),  -- incoming: asks the member to pay
    counterparty_id TEXT NOT NULL REFERENCES users(user_id),
    amount          REAL NOT NULL,
    note            TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'declined', 'cancelled')),
    created_at      TEXT NOT NULL,
    resolved_at     TEXT
);

CREATE TABLE invoices (
    invoice_id        TEXT PRIMARY KEY,
    customer_id       TEXT NOT NULL REFERENCES users(user_id),
    title             TEXT NOT NULL,
    amount            REAL NOT NULL,            -- sum of the items
    status            TEXT NOT NULL CHECK (status IN ('open', 'paid', 'void')),
    issued_at         TEXT NOT NULL,
    due_date          TEXT NOT NULL,
    paid_at           TEXT,
    paid_via          TEXT CHECK (paid_via IN ('app', 'cash', 'check', 'bank_transfer')),
    last_reminded_at  TEXT,
    reminders_sent    INTEGER NOT NULL DEFAULT 0,
    voided_at         TEXT
);

CREATE TABLE invoice_items (
    invoice_id  TEXT NOT NULL REFERENCES invoices(invoice_id),
    line        INTEGER NOT NULL,
    description TEXT NOT NULL,
    quantity    REAL NOT NULL,
    unit_price  REAL NOT NULL,
    PRIMARY KEY (invoice_id, line)
);

-- Money between the member and another member. `sent` debits the member, `received` credits.
CREATE TABLE payments (
    payment_id      TEXT PRIMARY KEY,
    direction       TEXT NOT NULL CHECK (direction IN ('sent', 'received')),
    counterparty_id TEXT NOT NULL REFERENCES users(user_id),
    amount          REAL NOT NULL,              -- what the recipient gets
    fee             REAL NOT NULL DEFAULT 0,    -- sent with a credit card: 3% on top
    note            TEXT NOT NULL,
    source_id       TEXT REFERENCES funding_sources(source_id),  -- sent: NULL means the wallet balance
    audience        TEXT NOT NULL CHECK (audience IN ('private', 'friends', 'public')),
    status          TEXT NOT NULL CHECK (status IN ('completed', 'partially_refunded', 'refunded')),
    refunded_amount REAL NOT NULL DEFAULT 0,
    request_id      TEXT REFERENCES requests(request_id),
    invoice_id      TEXT REFERENCES invoices(invoice_id),
    created_at      TEXT NOT NULL
);
CREATE INDEX payments_by_time ON payments(created_at);

CREATE TABLE refunds (
    refund_id   TEXT PRIMARY KEY,
    payment_id  TEXT NOT NULL REFERENCES payments(payment_id),
    amount      REAL NOT NULL,
    reason      TEXT,
    created_at  TEXT NOT NULL
);

-- Money between the wallet and a linked bank account or debit card.
CREATE TABLE transfers (
    transfer_id TEXT PRIMARY KEY,
    direction   TEXT NOT NULL CHECK (direction IN ('add_money', 'cash_out')),
    source_id   TEXT NOT NULL REFERENCES funding_sources(source_id),
    amount      REAL NOT NULL,                  -- what left (cash-out) or reached (add) the wallet
    fee         REAL NOT NULL DEFAULT 0,        -- instant cash-outs: 1.75%, at least 0.25, at most 25
    speed       TEXT NOT NULL CHECK (speed IN ('standard', 'instant')),
    created_at  TEXT NOT NULL,
    arrives_at  TEXT NOT NULL                   -- completed once this time has passed
);
