-- The marketplace server: a peer-to-peer marketplace (think eBay or Etsy) seen by one signed-in
-- member, who both buys from other members and sells their own items.
-- Dates are ISO text ('2026-03-16', '2026-03-16T09:30:00'); money is US dollars rounded to cents.

-- Everyone who buys or sells. The signed-in member is the one row with is_me = 1.
CREATE TABLE members (
    member_id  TEXT PRIMARY KEY,
    username   TEXT NOT NULL UNIQUE,           -- how people name them: 'clara.vintage'
    full_name  TEXT NOT NULL,
    city       TEXT NOT NULL,
    region     TEXT NOT NULL,
    joined_on  TEXT NOT NULL,
    bio        TEXT NOT NULL,
    is_me    INTEGER NOT NULL DEFAULT 0 CHECK (is_me IN (0, 1))
);

-- The signed-in member's account (exactly one row): contact details and marketplace balance.
CREATE TABLE accounts (
    member_id           TEXT PRIMARY KEY REFERENCES members(member_id),
    email               TEXT NOT NULL,
    phone               TEXT NOT NULL,
    shipping_address    TEXT NOT NULL,
    balance             REAL NOT NULL,         -- sale proceeds and gift cards, spendable on purchases
    max_active_listings INTEGER NOT NULL       -- most listings the member may have active at once
);

-- Cards and wallets the signed-in member pays with; card numbers are never shown in full.
CREATE TABLE payment_methods (
    payment_method_id TEXT PRIMARY KEY,
    label             TEXT NOT NULL,           -- 'Visa ending 4821'
    kind              TEXT NOT NULL CHECK (kind IN ('card', 'paypal')),
    card_number       TEXT,                    -- cards only
    expires           TEXT,                    -- cards only, 'MM/YY'
    is_default        INTEGER NOT NULL CHECK (is_default IN (0, 1))
);

CREATE TABLE categories (
    category_id TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    fee_percent REAL NOT NULL                  -- final value fee on price plus shipping
);

CREATE TABLE listings (
    listing_id     TEXT PRIMARY KEY,
    seller_id      TEXT NOT NULL REFERENCES members(member_id),
    category_id    TEXT NOT NULL REFERENCES categories(category_id),
    title          TEXT NOT NULL,
    description    TEXT NOT NULL,
    condition      TEXT NOT NULL CHECK (condition IN ('new', 'like_new', 'good', 'fair', 'for_parts')),
    price          REAL NOT NULL,
    shipping_cost  REAL NOT NULL,              -- 0 for free shipping
    accepts_offers INTEGER NOT NULL CHECK (accepts_offers IN (0, 1)),
    status         TEXT NOT NULL CHECK (status IN ('active', 'sold', 'withdrawn')),
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    watchers       INTEGER NOT NULL
);

-- Offers below the asking price. A pending or countered offer lapses at expires_at (the tools
-- report it as 'expired' from then on, whatever the stored status).
CREATE TABLE offers (
    offer_id       TEXT PRIMARY KEY,
    listing_id     TEXT NOT NULL REFERENCES listings(listing_id),
    buyer_id       TEXT NOT NULL REFERENCES members(member_id),
    amount         REAL NOT NULL,
    message        TEXT,
    status         TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected', 'countered',
                                                   'withdrawn', 'expired')),
    counter_amount REAL,                       -- set when the seller countered
    created_at     TEXT NOT NULL,
    expires_at     TEXT NOT NULL,
    responded_at   TEXT
);

-- Sales between two members: the signed-in member's purchases and sales.
CREATE TABLE orders (
    order_id          TEXT PRIMARY KEY,
    listing_id        TEXT NOT NULL UNIQUE REFERENCES listings(listing_id),
    buyer_id          TEXT NOT NULL REFERENCES members(member_id),
    seller_id         TEXT NOT NULL REFERENCES members(member_id),
    offer_id          TEXT REFERENCES offers(offer_id),
    item_price        REAL NOT NULL,
    shipping_cost     REAL NOT NULL,
    total             REAL NOT NULL,           -- what the buyer paid
    seller_fee        REAL NOT NULL,           -- what the marketplace kept from the seller
    paid_with         TEXT NOT NULL,           -- a payment method label, or 'marketplace balance'
    payment_method_id TEXT REFERENCES payment_methods(payment_method_id),
    status            TEXT NOT NULL CHECK (status IN ('paid', 'shipped', 'delivered')),
    carrier           TEXT,
    tracking_number   TEXT,
    created_at        TEXT NOT NULL,
    shipped_at        TEXT,
    delivered_at      TEXT
);

-- Buyers' ratings of sellers (1 to 5 stars); order_id is set for ratings of a known order.
CREATE TABLE ratings (
    rating_id  TEXT PRIMARY KEY,
    seller_id  TEXT NOT NULL REFERENCES members(member_id),
    rater_id   TEXT NOT NULL REFERENCES members(member_id),
    order_id   TEXT UNIQUE REFERENCES orders(order_id),
    stars      INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
    comment    TEXT NOT NULL,
    created_at TEXT NOT NULL
);

-- Messages about a listing between the signed-in member and another member.
CREATE TABLE messages (
    message_id   TEXT PRIMARY KEY,
    listing_id   TEXT NOT NULL REFERENCES listings(listing_id),
    sender_id    TEXT NOT NULL REFERENCES members(member_id),
    recipient_id TEXT NOT NULL REFERENCES members(member_id),
    body         TEXT NOT NULL,
    sent_at      TEXT NOT NULL
);

-- Gift cards the signed-in member received; the code is a secret until redeemed.
CREATE TABLE gift_cards (
    gift_card_id TEXT PRIMARY KEY,
    code         TEXT NOT NULL UNIQUE,         -- 'MKT-7Q4P-ZC9D-2WLX'
    amount       REAL NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('unredeemed', 'redeemed')),
    expires_on   TEXT NOT NULL,
    redeemed_at  TEXT
);
