-- The shopping server: an online store and the account of one signed-in customer.
-- Dates are ISO text ('2026-03-16', '2026-03-16T09:30:00'); money is dollars rounded to cents;
-- prices include sales tax. Tables are small, so there are no secondary indexes (each b-tree costs a
-- page in every session's copy).

-- The signed-in customer (exactly one row): the person the model acts for.
CREATE TABLE customer (
    customer_id  TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    email        TEXT NOT NULL,
    phone        TEXT NOT NULL,
    member_since TEXT NOT NULL,
    store_credit REAL NOT NULL                 -- from redeemed gift cards and refunds
);

CREATE TABLE categories (
    category_id TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL
);

CREATE TABLE brands (
    brand_id TEXT PRIMARY KEY,
    name     TEXT NOT NULL UNIQUE
);

CREATE TABLE products (
    product_id  TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    brand_id    TEXT NOT NULL REFERENCES brands(brand_id),
    category_id TEXT NOT NULL REFERENCES categories(category_id),
    description TEXT NOT NULL,
    returnable  INTEGER NOT NULL,             -- 0: final sale
    status      TEXT NOT NULL CHECK (status IN ('active', 'discontinued')),
    added_on    TEXT NOT NULL
);

-- What is actually bought: a product in one size, colour or format, with its own price and stock.
CREATE TABLE variants (
    variant_id TEXT PRIMARY KEY,
    product_id TEXT NOT NULL REFERENCES products(product_id),
    name       TEXT NOT NULL,                 -- 'Black', 'M / Navy', 'Size 9', 'Standard'
    sku        TEXT NOT NULL,
    price      REAL NOT NULL,
    stock      INTEGER NOT NULL CHECK (stock >= 0)
);

CREATE TABLE reviews (
    review_id     TEXT PRIMARY KEY,
    product_id    TEXT NOT NULL REFERENCES products(product_id),
    author        TEXT NOT NULL,
    rating        INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    title         TEXT NOT NULL,
    body          TEXT NOT NULL,
    created_on    TEXT NOT NULL,
    verified      INTEGER NOT NULL,           -- written by a buyer of the product
    helpful_votes INTEGER NOT NULL,
    is_mine       INTEGER NOT NULL            -- written by the signed-in customer
);

CREATE TABLE addresses (
    address_id  TEXT PRIMARY KEY,
    label       TEXT NOT NULL COLLATE NOCASE, -- 'Home', 'Work'; unique among active addresses
    recipient   TEXT NOT NULL,
    street      TEXT NOT NULL,
    city        TEXT NOT NULL,
    region      TEXT NOT NULL,
    postal_code TEXT NOT NULL,
    country     TEXT NOT NULL,
    phone       TEXT,
    is_default  INTEGER NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('active', 'deleted'))  -- deleted ones stay for past orders
);
CREATE UNIQUE INDEX addresses_label ON addresses(label) WHERE status = 'active';

CREATE TABLE payment_methods (
    payment_method_id TEXT PRIMARY KEY,
    nickname          TEXT NOT NULL,          -- 'Visa ending 4242'
    network           TEXT NOT NULL,
    card_number       TEXT NOT NULL,
    last4             TEXT NOT NULL,
    exp_month         INTEGER NOT NULL,
    exp_year          INTEGER NOT NULL,
    cardholder        TEXT NOT NULL,
    security_code     TEXT NOT NULL,
    billing_zip       TEXT NOT NULL,
    is_default        INTEGER NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('active', 'removed')),
    added_on          TEXT NOT NULL
);

-- Gift cards the customer holds; redeeming one adds its value to the store credit.
CREATE TABLE gift_cards (
    code        TEXT PRIMARY KEY,
    amount      REAL NOT NULL,
    redeemed_on TEXT
);

CREATE TABLE coupons (
    code         TEXT PRIMARY KEY,
    description  TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('percent', 'fixed', 'free_shipping')),
    value        REAL NOT NULL,               -- percent off, or dollars off; 0 for free shipping
    min_subtotal REAL NOT NULL,
    category_id  TEXT REFERENCES categories(category_id),   -- only items of this category count
    expires_on   TEXT NOT NULL,               -- last valid day
    used_on      TEXT                         -- single use: set when an order uses it
);

-- The shopping cart: one line per variant, and the coupon applied to it.
CREATE TABLE cart_items (
    variant_id TEXT PRIMARY KEY REFERENCES variants(variant_id),
    quantity   INTEGER NOT NULL,
    added_at   TEXT NOT NULL
);
CREATE TABLE cart (
    cart_id     TEXT PRIMARY KEY CHECK (cart_id = 'cart'),
    coupon_code TEXT REFERENCES coupons(code)
);

CREATE TABLE wishlist (
    product_id TEXT PRIMARY KEY REFERENCES products(product_id),
    added_at   TEXT NOT NULL
);

CREATE TABLE orders (
    order_id           TEXT PRIMARY KEY,
    placed_at          TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('placed', 'shipped', 'delivered', 'cancelled')),
    summary            TEXT NOT NULL,         -- 'Yeti Insulated Water Bottle and 2 more'
    address_id         TEXT NOT NULL REFERENCES addresses(address_id),
    payment_method_id  TEXT NOT NULL REFERENCES payment_methods(payment_method_id),
    shipping_speed     TEXT NOT NULL CHECK (shipping_speed IN ('standard', 'express')),
    subtotal           REAL NOT NULL,
    discount           REAL NOT NULL,
    shipping_fee       REAL NOT NULL,
    store_credit_used  REAL NOT NULL,
    total_charged      REAL NOT NULL,         -- charged to the card
    coupon_code        TEXT REFERENCES coupons(code),
    estimated_delivery TEXT NOT NULL,
    carrier            TEXT,
    tracking_number    TEXT,
    shipped_at         TEXT,
    delivered_at       TEXT,
    cancelled_at       TEXT,
    cancel_reason      TEXT
);

CREATE TABLE order_items (
    order_item_id TEXT PRIMARY KEY,
    order_id      TEXT NOT NULL REFERENCES orders(order_id),
    product_id    TEXT NOT NULL REFERENCES products(product_id),
    variant_id    TEXT NOT NULL REFERENCES variants(variant_id),
    product_name  TEXT NOT NULL,
    variant_name  TEXT NOT NULL,
    unit_price    REAL NOT NULL,
    quantity      INTEGER NOT NULL
);

CREATE TABLE returns (
    return_id     TEXT PRIMARY KEY,
    order_id      TEXT NOT NULL REFERENCES orders(order_id),
    order_item_id TEXT NOT NULL REFERENCES order_items(order_item_id),
    product_name  TEXT NOT NULL,
    quantity      INTEGER NOT NULL,
    reason        TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('requested', 'refunded', 'cancelled')),
    refund_amount REAL NOT NULL,
    requested_at  TEXT NOT NULL,
    resolved_at   TEXT
);
