-- The budget server: the personal budgeting app of one signed-in user.
-- Dates are ISO text ('2026-03-16', '2026-03-16T09:30:00'), months are 'YYYY-MM'; money is dollars
-- rounded to cents.

-- The signed-in user (exactly one row): the person the model acts for.
CREATE TABLE profile (
    user_id      TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    email        TEXT NOT NULL,
    city         TEXT NOT NULL,
    member_since TEXT NOT NULL
);

-- Where money lives. A credit card's balance is negative: the amount owed.
CREATE TABLE accounts (
    account_id   TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,         -- how the user names it: 'Everyday Checking'
    type         TEXT NOT NULL CHECK (type IN ('checking', 'savings', 'credit_card', 'cash')),
    institution  TEXT NOT NULL,
    last4        TEXT,                         -- NULL for cash
    balance      REAL NOT NULL,
    credit_limit REAL,                         -- credit cards only
    status       TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    opened_on    TEXT NOT NULL
);

-- Budget categories ("envelopes"). Expense categories have a default monthly limit; a strict
-- category refuses expenses that would take it over its budget for the month.
CREATE TABLE categories (
    category_id   TEXT PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE COLLATE NOCASE,
    group_name    TEXT NOT NULL,               -- 'Housing', 'Food', 'Transportation', ...
    kind          TEXT NOT NULL CHECK (kind IN ('expense', 'income')),
    monthly_limit REAL NOT NULL,               -- 0 for income categories
    strict        INTEGER NOT NULL DEFAULT 0,
    status        TEXT NOT NULL CHECK (status IN ('active', 'archived')),
    created_on    TEXT NOT NULL
);

-- The budget of one expense category for one month. A month without a row uses the category's
-- monthly_limit (from the month the category was created on).
CREATE TABLE budgets (
    category_id TEXT NOT NULL REFERENCES categories(category_id),
    month       TEXT NOT NULL,                 -- '2026-03'
    amount      REAL NOT NULL,
    PRIMARY KEY (category_id, month)
);

-- Money moved between two envelopes' budgets for one month.
CREATE TABLE budget_moves (
    move_id          TEXT PRIMARY KEY,
    month            TEXT NOT NULL,
    from_category_id TEXT NOT NULL REFERENCES categories(category_id),
    to_category_id   TEXT NOT NULL REFERENCES categories(category_id),
    amount           REAL NOT NULL,
    note             TEXT,
    created_at       TEXT NOT NULL
);

CREATE TABLE bills (
    bill_id       TEXT PRIMARY KEY,
    name          TEXT NOT NULL,               -- 'Rent', 'Netflix'
    payee         TEXT NOT NULL,
    amount        REAL NOT NULL,
    category_id   TEXT NOT NULL REFERENCES categories(category_id),
    account_id    TEXT NOT NULL REFERENCES accounts(account_id),
    frequency     TEXT NOT NULL CHECK (frequency IN ('weekly', 'monthly', 'quarterly', 'yearly')),
    next_due_date TEXT NOT NULL,
    autopay       INTEGER NOT NULL DEFAULT 0,
    status        TEXT NOT NULL CHECK (status IN ('active', 'cancelled')),
    last_paid_on  TEXT
);

CREATE TABLE goals (
    goal_id       TEXT PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE COLLATE NOCASE,
    target_amount REAL NOT NULL,
    saved_amount  REAL NOT NULL,
    target_date   TEXT,
    status        TEXT NOT NULL CHECK (status IN ('active', 'completed')),
    created_on    TEXT NOT NULL,
    completed_on  TEXT
);

-- Every entry on an account: expenses (negative), income (positive) and money set aside into or
-- taken back from a savings goal ('goal_transfer', negative into the goal).
CREATE TABLE transactions (
    transaction_id TEXT PRIMARY KEY,
    account_id     TEXT NOT NULL REFERENCES accounts(account_id),
    category_id    TEXT REFERENCES categories(category_id),
    date           TEXT NOT NULL,
    amount         REAL NOT NULL,
    payee          TEXT NOT NULL,
    note           TEXT,
    kind           TEXT NOT NULL CHECK (kind IN ('expense', 'income', 'goal_transfer')),
    bill_id        TEXT REFERENCES bills(bill_id),
    goal_id        TEXT REFERENCES goals(goal_id),
    created_at     TEXT NOT NULL
);
CREATE INDEX transactions_by_category ON transactions(category_id, date);
CREATE INDEX transactions_by_account ON transactions(account_id, date);

CREATE TABLE goal_contributions (
    contribution_id TEXT PRIMARY KEY,
    goal_id         TEXT NOT NULL REFERENCES goals(goal_id),
    account_id      TEXT NOT NULL REFERENCES accounts(account_id),
    transaction_id  TEXT NOT NULL REFERENCES transactions(transaction_id),
    amount          REAL NOT NULL,             -- positive into the goal, negative taken back
    date            TEXT NOT NULL
);
