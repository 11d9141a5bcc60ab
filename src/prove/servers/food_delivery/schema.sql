-- The food delivery server: one signed-in customer ordering from restaurants in their city.
-- Dates are ISO text ('2026-03-16', '2026-03-16T09:30:00'); money is dollars rounded to cents.
-- An order's status is not stored: it follows from its timestamps and the simulated clock.
-- Tables are WITHOUT ROWID: keyed by their text IDs, they need no second index (a smaller world).

-- The neighborhoods of the customer's city; restaurants and addresses lie in one each.
CREATE TABLE neighborhoods (
    name TEXT PRIMARY KEY,
    city TEXT NOT NULL,
    zip  TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE restaurants (
    restaurant_id  TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    cuisine        TEXT NOT NULL,
    description    TEXT NOT NULL,
    neighborhood   TEXT NOT NULL REFERENCES neighborhoods(name),
    street_address TEXT NOT NULL,
    phone          TEXT NOT NULL,
    price_level    TEXT NOT NULL CHECK (price_level IN ('$', '$$', '$$$')),
    prep_minutes   INTEGER NOT NULL,           -- kitchen time for an order
    minimum_order  REAL NOT NULL,              -- least food subtotal the restaurant delivers
    rating_total   INTEGER NOT NULL,           -- sum of all food ratings (1-5 stars each)
    rating_count   INTEGER NOT NULL
) WITHOUT ROWID;

-- Opening hours, one row per weekday it opens (0 = Monday); no row means closed that day.
CREATE TABLE restaurant_hours (
    restaurant_id TEXT NOT NULL REFERENCES restaurants(restaurant_id),
    weekday       INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),
    opens         TEXT NOT NULL,               -- 'HH:MM'
    closes        TEXT NOT NULL,               -- 'HH:MM', later the same day
    PRIMARY KEY (restaurant_id, weekday)
) WITHOUT ROWID;

-- The neighborhoods a restaurant delivers to, with the fee and the courier's travel time.
CREATE TABLE delivery_zones (
    restaurant_id    TEXT NOT NULL REFERENCES restaurants(restaurant_id),
    neighborhood     TEXT NOT NULL REFERENCES neighborhoods(name),
    delivery_fee     REAL NOT NULL,
    delivery_minutes INTEGER NOT NULL,
    PRIMARY KEY (restaurant_id, neighborhood)
) WITHOUT ROWID;

CREATE TABLE menu_items (
    item_id       TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(restaurant_id),
    category      TEXT NOT NULL,               -- 'Appetizers', 'Mains', 'Drinks', ...
    name          TEXT NOT NULL,
    description   TEXT NOT NULL,
    price         REAL NOT NULL,
    vegetarian    INTEGER NOT NULL,
    vegan         INTEGER NOT NULL,
    gluten_free   INTEGER NOT NULL,
    spicy         INTEGER NOT NULL,
    popular       INTEGER NOT NULL,
    available     INTEGER NOT NULL             -- 0 while sold out
) WITHOUT ROWID;

-- The signed-in customer (exactly one row).
CREATE TABLE customers (
    customer_id               TEXT PRIMARY KEY,
    name                      TEXT NOT NULL,
    email                     TEXT NOT NULL,
    phone                     TEXT NOT NULL,
    city                      TEXT NOT NULL,
    tax_rate                  REAL NOT NULL,   -- percent of sales tax on food in the city
    member_since              TEXT NOT NULL,
    credit_balance            REAL NOT NULL,   -- account credit from gift cards and refunds
    default_address_id        TEXT,
    default_payment_method_id TEXT
) WITHOUT ROWID;

-- Saved delivery addresses. Deleted ones are kept (orders refer to them) but hidden.
CREATE TABLE addresses (
    address_id   TEXT PRIMARY KEY,
    label        TEXT NOT NULL,                -- how the customer names it: 'Home', 'Work'
    street       TEXT NOT NULL,
    apartment    TEXT,
    neighborhood TEXT NOT NULL REFERENCES neighborhoods(name),
    instructions TEXT,
    deleted      INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL
) WITHOUT ROWID;

-- Saved cards; only the brand, last four digits and expiry are kept.
CREATE TABLE payment_methods (
    payment_method_id TEXT PRIMARY KEY,
    nickname          TEXT NOT NULL,           -- 'Visa ending 4242'
    brand             TEXT NOT NULL,
    last4             TEXT NOT NULL,
    exp_month         INTEGER NOT NULL,
    exp_year          INTEGER NOT NULL,
    added_at          TEXT NOT NULL
) WITHOUT ROWID;

-- Cards in the customer's wallet that are not saved yet (what they would read out to add one).
CREATE TABLE wallet_cards (
    card_number TEXT PRIMARY KEY,
    brand       TEXT NOT NULL,
    expiry      TEXT NOT NULL,                 -- 'MM/YY'
    cvv         TEXT NOT NULL,
    holder      TEXT NOT NULL
) WITHOUT ROWID;

-- Gift cards the customer received; redeeming one adds its amount to the credit balance.
CREATE TABLE gift_cards (
    gift_card_id TEXT PRIMARY KEY,
    code         TEXT NOT NULL,
    amount       REAL NOT NULL,
    from_name    TEXT NOT NULL,
    message      TEXT,
    redeemed_at  TEXT
) WITHOUT ROWID;

-- Promo codes: a percentage or amount off the food, or free delivery; each usable once.
CREATE TABLE promo_codes (
    code          TEXT PRIMARY KEY,
    description   TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('percent', 'amount', 'free_delivery')),
    value         REAL NOT NULL,               -- percent or dollars off (0 for free delivery)
    max_discount  REAL,                        -- cap for percentage codes
    min_subtotal  REAL NOT NULL,
    restaurant_id TEXT REFERENCES restaurants(restaurant_id),
    cuisine       TEXT,
    valid_from    TEXT NOT NULL,               -- first day it works
    valid_until   TEXT NOT NULL                -- last day it works
) WITHOUT ROWID;

CREATE TABLE favorites (
    restaurant_id TEXT PRIMARY KEY REFERENCES restaurants(restaurant_id),
    added_at      TEXT NOT NULL
) WITHOUT ROWID;

-- One open cart per restaurant.
CREATE TABLE carts (
    cart_id       TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL UNIQUE REFERENCES restaurants(restaurant_id),
    promo_code    TEXT REFERENCES promo_codes(code),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE cart_items (
    cart_item_id         TEXT PRIMARY KEY,
    cart_id              TEXT NOT NULL REFERENCES carts(cart_id),
    item_id              TEXT NOT NULL REFERENCES menu_items(item_id),
    name                 TEXT NOT NULL,        -- the menu item's name
    quantity             INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 20),
    special_instructions TEXT,
    added_at             TEXT NOT NULL
) WITHOUT ROWID;

-- Orders. Status follows from the clock: before prep_start_at 'placed' (or 'scheduled'), then
-- 'preparing' until ready_at, 'out_for_delivery' until delivered_at, then 'delivered';
-- 'cancelled' once cancelled_at is set.
CREATE TABLE orders (
    order_id             TEXT PRIMARY KEY,
    restaurant_id        TEXT NOT NULL REFERENCES restaurants(restaurant_id),
    restaurant_name      TEXT NOT NULL,
    address_id           TEXT NOT NULL REFERENCES addresses(address_id),
    payment_method_id    TEXT REFERENCES payment_methods(payment_method_id),
    placed_at            TEXT NOT NULL,
    scheduled_for        TEXT,                 -- requested delivery time of a scheduled order
    prep_start_at        TEXT NOT NULL,
    ready_at             TEXT NOT NULL,
    delivered_at         TEXT NOT NULL,        -- estimated until it has passed
    cancelled_at         TEXT,
    cancel_reason        TEXT,
    subtotal             REAL NOT NULL,
    promo_code           TEXT REFERENCES promo_codes(code),
    discount             REAL NOT NULL,
    delivery_fee         REAL NOT NULL,
    service_fee          REAL NOT NULL,
    tax                  REAL NOT NULL,
    tip                  REAL NOT NULL,
    total                REAL NOT NULL,
    credit_applied       REAL NOT NULL,        -- paid from account credit
    charged              REAL NOT NULL,        -- paid by card: total - credit_applied
    refunded             REAL NOT NULL DEFAULT 0,
    dropoff_instructions TEXT,
    courier_name         TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE order_items (
    order_id             TEXT NOT NULL REFERENCES orders(order_id),
    line                 INTEGER NOT NULL,
    item_id              TEXT NOT NULL REFERENCES menu_items(item_id),
    name                 TEXT NOT NULL,
    quantity             INTEGER NOT NULL,
    unit_price           REAL NOT NULL,
    special_instructions TEXT,
    PRIMARY KEY (order_id, line)
) WITHOUT ROWID;

CREATE TABLE reviews (
    review_id       TEXT PRIMARY KEY,
    order_id        TEXT NOT NULL REFERENCES orders(order_id),
    restaurant_id   TEXT NOT NULL REFERENCES restaurants(restaurant_id),
    food_rating     INTEGER NOT NULL CHECK (food_rating BETWEEN 1 AND 5),
    delivery_rating INTEGER CHECK (delivery_rating BETWEEN 1 AND 5),
    comment         TEXT,
    created_at      TEXT NOT NULL
) WITHOUT ROWID;
