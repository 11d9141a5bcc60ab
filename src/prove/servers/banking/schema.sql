-- The banking server: one signed-in customer and everything the bank holds for them.
-- Dates are ISO text ('2026-03-16', '2026-03-16T09:30:00'); money is dollars rounded to cents.
-- Tables are WITHOUT ROWID (keyed by their text IDs) and carry no secondary indexes: a world
-- has a few hundred rows, and every session copies the template, so pages are what cost.

-- The signed-in customer (exactly one row): the person the model acts for.
CREATE TABLE customers (
    customer_id         TEXT PRIMARY KEY,
    name                TEXT NOT NULL,
    email               TEXT NOT NULL,
    phone               TEXT NOT NULL,
    address             TEXT NOT NULL,
    customer_since      TEXT NOT NULL,
    daily_payment_limit REAL NOT NULL          -- most that may be paid to payees per calendar day
) WITHOUT ROWID;

CREATE TABLE accounts (
    account_id      TEXT PRIMARY KEY,
    customer_id     TEXT NOT NULL REFERENCES customers(customer_id),
    nickname        TEXT NOT NULL UNIQUE,      -- how the customer names it: 'Everyday Checking'
    type            TEXT NOT NULL CHECK (type IN ('checking', 'savings', 'credit_card')),
    number_last4    TEXT NOT NULL,
    opened_on       TEXT NOT NULL,
    current_balance REAL NOT NULL,             -- posted balance; for a credit card, the amount owed
    credit_limit    REAL,                      -- credit cards only
    interest_rate   REAL NOT NULL              -- percent: APY for deposits, APR for credit cards
) WITHOUT ROWID;

-- People and companies the customer pays. Removed payees are kept (status 'removed') because
-- past payments refer to them.
CREATE TABLE payees (
    payee_id       TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('person', 'business')),
    category       TEXT NOT NULL,              -- category given to payments to this payee
    account_number TEXT NOT NULL,
    routing_number TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('active', 'removed')),
    added_on       TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE cards (
    card_id              TEXT PRIMARY KEY,
    account_id           TEXT NOT NULL REFERENCES accounts(account_id),
    name                 TEXT NOT NULL,        -- how the customer names it: 'Visa debit card ending 4821'
    kind                 TEXT NOT NULL CHECK (kind IN ('debit', 'credit')),
    network              TEXT NOT NULL,
    card_number          TEXT NOT NULL,
    cardholder           TEXT NOT NULL,
    expires              TEXT NOT NULL,        -- 'MM/YY'
    pin                  TEXT NOT NULL,
    pin_changed_on       TEXT,
    status               TEXT NOT NULL CHECK (status IN ('active', 'frozen', 'lost', 'stolen')),
    daily_spending_limit REAL NOT NULL,
    issued_on            TEXT NOT NULL,
    replaces_card_id     TEXT REFERENCES cards(card_id)
) WITHOUT ROWID;

-- One-time or recurring payments to a payee or transfers to another account of the customer.
CREATE TABLE scheduled_payments (
    scheduled_payment_id TEXT PRIMARY KEY,
    from_account_id      TEXT NOT NULL REFERENCES accounts(account_id),
    payee_id             TEXT REFERENCES payees(payee_id),
    to_account_id        TEXT REFERENCES accounts(account_id),
    recipient_name       TEXT NOT NULL,        -- payee name or account nickname
    amount               REAL NOT NULL,
    frequency            TEXT NOT NULL CHECK (frequency IN ('once', 'weekly', 'biweekly', 'monthly')),
    next_date            TEXT,                 -- next run; NULL once completed or cancelled
    end_date             TEXT,                 -- last day a recurring payment may run, if any
    memo                 TEXT,
    status               TEXT NOT NULL CHECK (status IN ('scheduled', 'completed', 'cancelled')),
    created_at           TEXT NOT NULL,
    CHECK ((payee_id IS NULL) <> (to_account_id IS NULL))
) WITHOUT ROWID;

-- Money moved by the customer: between their accounts ('internal') or to a payee ('payee').
-- Each transfer has one transaction per account it touches.
CREATE TABLE transfers (
    transfer_id          TEXT PRIMARY KEY,
    kind                 TEXT NOT NULL CHECK (kind IN ('internal', 'payee')),
    from_account_id      TEXT NOT NULL REFERENCES accounts(account_id),
    to_account_id        TEXT REFERENCES accounts(account_id),
    payee_id             TEXT REFERENCES payees(payee_id),
    scheduled_payment_id TEXT REFERENCES scheduled_payments(scheduled_payment_id),
    amount               REAL NOT NULL,
    memo                 TEXT,
    created_at           TEXT NOT NULL,
    CHECK ((to_account_id IS NULL) <> (payee_id IS NULL))
) WITHOUT ROWID;

CREATE TABLE transactions (
    transaction_id TEXT PRIMARY KEY,
    account_id     TEXT NOT NULL REFERENCES accounts(account_id),
    occurred_at    TEXT NOT NULL,
    amount         REAL NOT NULL,              -- signed: negative takes money out (or is a card charge)
    merchant       TEXT NOT NULL,              -- merchant or counterparty as the statement shows it
    category       TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('purchase', 'refund', 'deposit', 'withdrawal',
                                                 'transfer', 'payment', 'fee', 'interest')),
    status         TEXT NOT NULL CHECK (status IN ('pending', 'posted')),
    card_id        TEXT REFERENCES cards(card_id),
    transfer_id    TEXT REFERENCES transfers(transfer_id),
    memo           TEXT
) WITHOUT ROWID;

-- Balances sum an account's pending debits on every read: keep that lookup off a table scan.
CREATE INDEX transactions_by_account ON transactions (account_id, status);

-- Monthly statements of complete calendar months.
CREATE TABLE statements (
    statement_id        TEXT PRIMARY KEY,
    account_id          TEXT NOT NULL REFERENCES accounts(account_id),
    period              TEXT NOT NULL,         -- '2026-02'
    start_date          TEXT NOT NULL,
    end_date            TEXT NOT NULL,
    issued_on           TEXT NOT NULL,
    opening_balance     REAL NOT NULL,
    closing_balance     REAL NOT NULL,
    total_credits       REAL NOT NULL,         -- money in (for a credit card: payments and refunds)
    total_debits        REAL NOT NULL,         -- money out (for a credit card: charges)
    transaction_count   INTEGER NOT NULL,
    minimum_payment_due REAL,                  -- credit cards only
    payment_due_date    TEXT,                  -- credit cards only
    UNIQUE (account_id, period)
) WITHOUT ROWID;

CREATE TABLE disputes (
    dispute_id     TEXT PRIMARY KEY,
    transaction_id TEXT NOT NULL UNIQUE REFERENCES transactions(transaction_id),
    merchant       TEXT NOT NULL,              -- the disputed transaction's merchant
    amount         REAL NOT NULL,              -- the disputed amount, positive
    reason         TEXT NOT NULL,
    details        TEXT,
    status         TEXT NOT NULL CHECK (status IN ('open', 'under_review', 'resolved')),
    resolution     TEXT CHECK (resolution IN ('refunded', 'denied')),
    opened_at      TEXT NOT NULL,
    resolved_at    TEXT
) WITHOUT ROWID;
