-- The retail_chain server: a regional chain of home and outdoor stores, seen by one signed-in
-- customer with a loyalty account. Times are the chain's local time as ISO text
-- ('2026-03-16T09:30:00'); opening hours are 'HH:MM'; money is US dollars rounded to cents.

CREATE TABLE stores (
    store_id      TEXT PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,        -- 'Cedar & Stone Capitol Hill'
    format        TEXT NOT NULL CHECK (format IN ('flagship', 'standard', 'express')),
    city          TEXT NOT NULL,
    state         TEXT NOT NULL,
    address       TEXT NOT NULL,
    phone         TEXT NOT NULL,
    tax_rate      REAL NOT NULL,               -- sales tax percent charged at this store
    offers_pickup INTEGER NOT NULL CHECK (offers_pickup IN (0, 1)),
    status        TEXT NOT NULL CHECK (status IN ('open', 'temporarily_closed')),
    status_note   TEXT                         -- why a store is temporarily closed, and until when
);

-- Weekly opening hours; a missing weekday means the store is closed that day (0 = Monday).
CREATE TABLE store_hours (
    store_id TEXT NOT NULL REFERENCES stores(store_id),
    weekday  INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),
    opens    TEXT NOT NULL,
    closes   TEXT NOT NULL,
    PRIMARY KEY (store_id, weekday)
) WITHOUT ROWID;

CREATE TABLE products (
    product_id  TEXT PRIMARY KEY,
    sku         TEXT NOT NULL UNIQUE,          -- the shelf-label number: '204-118-553'
    name        TEXT NOT NULL,
    brand       TEXT NOT NULL,
    category    TEXT NOT NULL,
    list_price  REAL NOT NULL,
    description TEXT NOT NULL
);

-- What each store carries: units on hand and the store's shelf price (clearance markdowns are
-- per store). Available units are on_hand, plus transfers that have arrived but are not yet
-- shelved, minus the customer's active reservations.
CREATE TABLE inventory (
    store_id   TEXT NOT NULL REFERENCES stores(store_id),
    product_id TEXT NOT NULL REFERENCES products(product_id),
    on_hand    INTEGER NOT NULL CHECK (on_hand >= 0),
    price      REAL NOT NULL,
    clearance  INTEGER NOT NULL CHECK (clearance IN (0, 1)),
    PRIMARY KEY (store_id, product_id)
) WITHOUT ROWID;

-- The signed-in customer (exactly one row).
CREATE TABLE customers (
    customer_id    TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    email          TEXT NOT NULL,
    phone          TEXT NOT NULL,
    home_store_id  TEXT NOT NULL REFERENCES stores(store_id),
    customer_since TEXT NOT NULL
);

CREATE TABLE loyalty_accounts (
    loyalty_id      TEXT PRIMARY KEY,
    customer_id     TEXT NOT NULL REFERENCES customers(customer_id),
    card_number     TEXT NOT NULL,             -- printed on the loyalty card
    tier            TEXT NOT NULL CHECK (tier IN ('Silver', 'Gold', 'Platinum')),
    points          INTEGER NOT NULL CHECK (points >= 0),
    lifetime_points INTEGER NOT NULL,
    pin             TEXT NOT NULL               -- 4 digits, needed to redeem points
);

-- Reward certificates bought with points; a certificate past expires_on is 'expired'.
CREATE TABLE certificates (
    certificate_id TEXT PRIMARY KEY,
    loyalty_id     TEXT NOT NULL REFERENCES loyalty_accounts(loyalty_id),
    value          REAL NOT NULL,
    points_cost    INTEGER NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('available', 'used', 'expired')),
    issued_at      TEXT NOT NULL,
    expires_on     TEXT NOT NULL,
    used_at        TEXT
);

-- Click-and-collect reservations: units held at a store for the customer until expires_at
-- (an 'active' reservation past expires_at is expired and no longer holds stock).
CREATE TABLE reservations (
    reservation_id TEXT PRIMARY KEY,
    store_id       TEXT NOT NULL REFERENCES stores(store_id),
    product_id     TEXT NOT NULL REFERENCES products(product_id),
    quantity       INTEGER NOT NULL CHECK (quantity > 0),
    unit_price     REAL NOT NULL,              -- the store price when reserved, honoured at pickup
    status         TEXT NOT NULL CHECK (status IN ('active', 'collected', 'cancelled', 'expired')),
    created_at     TEXT NOT NULL,
    expires_at     TEXT NOT NULL,
    extended       INTEGER NOT NULL CHECK (extended IN (0, 1)),
    closed_at      TEXT                        -- when collected or cancelled
);

-- Store-to-store transfers the customer requested; an 'in_transit' transfer past arrives_at has
-- arrived (its units count as available at the destination).
CREATE TABLE transfers (
    transfer_id   TEXT PRIMARY KEY,
    product_id    TEXT NOT NULL REFERENCES products(product_id),
    from_store_id TEXT NOT NULL REFERENCES stores(store_id),
    to_store_id   TEXT NOT NULL REFERENCES stores(store_id),
    quantity      INTEGER NOT NULL CHECK (quantity > 0),
    status        TEXT NOT NULL CHECK (status IN ('in_transit', 'received', 'cancelled')),
    requested_at  TEXT NOT NULL,
    arrives_at    TEXT NOT NULL
);

-- The customer's purchases (receipts), from collected reservations or made in store.
CREATE TABLE purchases (
    purchase_id    TEXT PRIMARY KEY,
    store_id       TEXT NOT NULL REFERENCES stores(store_id),
    reservation_id TEXT REFERENCES reservations(reservation_id),
    certificate_id TEXT REFERENCES certificates(certificate_id),
    purchased_at   TEXT NOT NULL,
    subtotal       REAL NOT NULL,
    discount       REAL NOT NULL,
    tax            REAL NOT NULL,
    total          REAL NOT NULL,
    points_earned  INTEGER NOT NULL
);

CREATE TABLE purchase_items (
    purchase_id TEXT NOT NULL REFERENCES purchases(purchase_id),
    line        INTEGER NOT NULL,
    product_id  TEXT NOT NULL REFERENCES products(product_id),
    quantity    INTEGER NOT NULL,
    unit_price  REAL NOT NULL,
    PRIMARY KEY (purchase_id, line)
) WITHOUT ROWID;

-- Points history: earned on purchases, spent on certificates, bonuses.
CREATE TABLE points_activity (
    activity_id TEXT PRIMARY KEY,
    loyalty_id  TEXT NOT NULL REFERENCES loyalty_accounts(loyalty_id),
    occurred_at TEXT NOT NULL,
    points      INTEGER NOT NULL,              -- positive earned, negative spent
    description TEXT NOT NULL
);
