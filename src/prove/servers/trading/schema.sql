-- The trading server: one signed-in investor's brokerage accounts at a retail broker.
-- Dates are ISO text ('2026-03-16', '2026-03-16T09:30:00'); money is dollars rounded to cents.
-- Prices are not stored: they follow a deterministic model of each security over simulated
-- market time (see world.py), so quotes move only when the episode's clock moves.

-- The signed-in investor (exactly one row): the person the model acts for.
CREATE TABLE profile (
    customer_id       TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    email             TEXT NOT NULL,
    phone             TEXT NOT NULL,
    address           TEXT NOT NULL,
    member_since      TEXT NOT NULL,
    daily_deposit_limit REAL NOT NULL           -- most that may be deposited from banks per calendar day
);

-- The tradable universe: stocks and ETFs with the parameters of their price model.
CREATE TABLE securities (
    ticker         TEXT PRIMARY KEY,            -- 'AAPL'
    name           TEXT NOT NULL,               -- 'Apple Inc.'
    kind           TEXT NOT NULL CHECK (kind IN ('stock', 'etf')),
    sector         TEXT NOT NULL,
    exchange       TEXT NOT NULL CHECK (exchange IN ('NASDAQ', 'NYSE', 'NYSE Arca', 'Cboe BZX')),
    ref_price      REAL NOT NULL,               -- model level at the epoch's session start
    drift          REAL NOT NULL,               -- log drift per trading day
    volatility     REAL NOT NULL,               -- scale of the model's oscillations
    phase          REAL NOT NULL,               -- the model's phase, in radians
    dividend_yield REAL NOT NULL                -- annual, percent
);

CREATE TABLE accounts (
    account_id        TEXT PRIMARY KEY,
    name              TEXT NOT NULL UNIQUE,      -- how the investor names it: 'Individual Brokerage'
    kind              TEXT NOT NULL CHECK (kind IN ('individual', 'joint', 'roth_ira')),
    number_last4      TEXT NOT NULL,
    opened_on         TEXT NOT NULL,
    cash              REAL NOT NULL,            -- settled cash, before reservations for open orders
    contributions_ytd REAL NOT NULL DEFAULT 0,  -- Roth IRA: money put in during tax year contribution_year
    contribution_year INTEGER NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('active', 'restricted')) -- restricted: no buys (documents pending)
);

-- External bank accounts linked for deposits and withdrawals.
CREATE TABLE bank_links (
    bank_link_id TEXT PRIMARY KEY,
    nickname     TEXT NOT NULL UNIQUE,          -- 'Chase Total Checking ending 4821'
    institution  TEXT NOT NULL,
    account_type TEXT NOT NULL CHECK (account_type IN ('checking', 'savings')),
    number_last4 TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('verified', 'pending_verification')),
    linked_on    TEXT NOT NULL
);

CREATE TABLE positions (
    account_id TEXT NOT NULL REFERENCES accounts(account_id),
    ticker     TEXT NOT NULL REFERENCES securities(ticker),
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    avg_cost   REAL NOT NULL,                   -- average price paid per share
    opened_on  TEXT NOT NULL,
    PRIMARY KEY (account_id, ticker)
);

CREATE TABLE orders (
    order_id      TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts(account_id),
    ticker        TEXT NOT NULL REFERENCES securities(ticker),
    side          TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
    order_type    TEXT NOT NULL CHECK (order_type IN ('market', 'limit')),
    quantity      INTEGER NOT NULL CHECK (quantity > 0),
    limit_price   REAL,                         -- limit orders only
    time_in_force TEXT NOT NULL CHECK (time_in_force IN ('day', 'gtc')),
    status        TEXT NOT NULL CHECK (status IN ('open', 'filled', 'cancelled', 'expired')),
    placed_at     TEXT NOT NULL,
    expires_at    TEXT,                         -- day orders: the close of their session
    filled_at     TEXT,
    fill_price    REAL,
    cancelled_at  TEXT,                         -- when cancelled or expired
    CHECK ((order_type = 'limit') = (limit_price IS NOT NULL))
);
CREATE INDEX orders_by_status ON orders(status, account_id);

-- Everything that moved cash or shares in an account: fills, dividends, deposits, transfers.
CREATE TABLE activity (
    activity_id   TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts(account_id),
    occurred_at   TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('buy', 'sell', 'dividend', 'deposit', 'withdrawal',
                                                'transfer_in', 'transfer_out', 'interest')),
    ticker        TEXT REFERENCES securities(ticker),
    quantity      INTEGER,
    price         REAL,
    amount        REAL NOT NULL,                -- signed cash effect: negative takes cash out
    realized_gain REAL,                         -- sells only
    order_id      TEXT REFERENCES orders(order_id),
    bank_link_id  TEXT REFERENCES bank_links(bank_link_id),
    description   TEXT NOT NULL
);
CREATE INDEX activity_by_account ON activity(account_id, occurred_at);

CREATE TABLE watchlists (
    watchlist_id TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    created_at   TEXT NOT NULL
);

CREATE TABLE watchlist_items (
    watchlist_id TEXT NOT NULL REFERENCES watchlists(watchlist_id),
    ticker       TEXT NOT NULL REFERENCES securities(ticker),
    added_at     TEXT NOT NULL,
    PRIMARY KEY (watchlist_id, ticker)
);

CREATE TABLE price_alerts (
    alert_id        TEXT PRIMARY KEY,
    ticker          TEXT NOT NULL REFERENCES securities(ticker),
    condition       TEXT NOT NULL CHECK (condition IN ('above', 'below')),
    target_price    REAL NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('active', 'triggered', 'cancelled')),
    created_at      TEXT NOT NULL,
    triggered_at    TEXT,
    triggered_price REAL,
    cancelled_at    TEXT
);
