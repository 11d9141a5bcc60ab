-- The travel booking server: one signed-in traveller's account at an online travel agency.
-- Times are local ISO text ('2026-03-17T07:35:00'), flight times local at their airport; dates
-- are ISO days; money is dollars rounded to cents.

CREATE TABLE airports (
    code       TEXT PRIMARY KEY,               -- IATA code, 'JFK'
    name       TEXT NOT NULL,
    city       TEXT NOT NULL,
    country    TEXT NOT NULL,                  -- ISO country code, 'US'
    utc_offset REAL NOT NULL                   -- hours from UTC in March 2026
) WITHOUT ROWID;

CREATE TABLE airlines (
    code     TEXT PRIMARY KEY,                 -- IATA code, 'DL'
    name     TEXT NOT NULL,
    alliance TEXT
) WITHOUT ROWID;

-- The people the user books for: themselves ('self', the one row with is_me = 1) and saved companions.
CREATE TABLE travelers (
    traveler_id      TEXT PRIMARY KEY,
    first_name       TEXT NOT NULL,
    last_name        TEXT NOT NULL,
    full_name        TEXT NOT NULL,
    relationship     TEXT NOT NULL CHECK (relationship IN ('self', 'partner', 'child', 'parent', 'friend',
                                                           'colleague', 'other')),
    date_of_birth    TEXT NOT NULL,
    passport_number  TEXT,                     -- NULL: no passport on file
    passport_country TEXT,
    passport_expiry  TEXT,
    added_on         TEXT NOT NULL,
    is_me            INTEGER NOT NULL DEFAULT 0 CHECK (is_me IN (0, 1))
) WITHOUT ROWID;

-- The signed-in user's account and loyalty membership (one row).
CREATE TABLE accounts (
    traveler_id    TEXT PRIMARY KEY REFERENCES travelers(traveler_id),
    email          TEXT NOT NULL,
    phone          TEXT NOT NULL,
    home_airport   TEXT NOT NULL REFERENCES airports(code),
    loyalty_number TEXT NOT NULL,
    tier           TEXT NOT NULL CHECK (tier IN ('member', 'silver', 'gold', 'platinum')),
    points_balance INTEGER NOT NULL,
    member_since   TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE payment_methods (
    payment_method_id TEXT PRIMARY KEY,
    brand             TEXT NOT NULL,
    nickname          TEXT NOT NULL,
    card_number       TEXT NOT NULL,           -- never shown by a tool
    last4             TEXT NOT NULL,
    cardholder        TEXT NOT NULL,
    expiry            TEXT NOT NULL,           -- 'MM/YY'
    expires_on        TEXT NOT NULL,           -- last day the card works
    is_default        INTEGER NOT NULL,
    added_on          TEXT NOT NULL
) WITHOUT ROWID;

-- Dated, direct flights. Seats of each cabin held by the airline's other customers are `*_sold`;
-- the user's own bookings come on top (seats left = capacity - sold - the user's passengers).
CREATE TABLE flights (
    flight_id        TEXT PRIMARY KEY,
    airline_code     TEXT NOT NULL REFERENCES airlines(code),
    flight_number    TEXT NOT NULL,            -- 'DL 1432'
    origin           TEXT NOT NULL REFERENCES airports(code),
    destination      TEXT NOT NULL REFERENCES airports(code),
    departs_at       TEXT NOT NULL,            -- local time at the origin
    arrives_at       TEXT NOT NULL,            -- local time at the destination
    duration_minutes INTEGER NOT NULL,
    aircraft         TEXT NOT NULL,
    economy_fare     REAL NOT NULL,            -- Main Cabin price per passenger
    premium_fare     REAL,                     -- NULL: no premium economy cabin
    business_fare    REAL NOT NULL,
    economy_sold     INTEGER NOT NULL,
    premium_sold     INTEGER NOT NULL,
    business_sold    INTEGER NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('scheduled', 'cancelled'))
) WITHOUT ROWID;

CREATE TABLE hotels (
    hotel_id     TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    city         TEXT NOT NULL,
    country      TEXT NOT NULL,
    neighborhood TEXT NOT NULL,
    address      TEXT NOT NULL,
    stars        INTEGER NOT NULL,
    guest_rating REAL NOT NULL,
    amenities    TEXT NOT NULL                 -- comma-separated
) WITHOUT ROWID;

CREATE TABLE room_types (
    room_type_id TEXT PRIMARY KEY,
    hotel_id     TEXT NOT NULL REFERENCES hotels(hotel_id),
    name         TEXT NOT NULL,
    beds         TEXT NOT NULL,
    max_guests   INTEGER NOT NULL,
    nightly_rate REAL NOT NULL,                -- Sunday-Thursday flexible rate
    rooms_total  INTEGER NOT NULL              -- rooms of this type sold through the agency per night
) WITHOUT ROWID;

-- Rooms taken by other guests on a night; the user's own stays come on top.
CREATE TABLE room_blocks (
    room_type_id TEXT NOT NULL REFERENCES room_types(room_type_id),
    night        TEXT NOT NULL,
    rooms_taken  INTEGER NOT NULL,
    PRIMARY KEY (room_type_id, night)
) WITHOUT ROWID;

CREATE TABLE trips (
    trip_id    TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL
) WITHOUT ROWID;

-- A flight booking (one flight, one or more passengers) or a hotel booking (a stay).
CREATE TABLE bookings (
    booking_id        TEXT PRIMARY KEY,
    kind              TEXT NOT NULL CHECK (kind IN ('flight', 'hotel')),
    confirmation_code TEXT NOT NULL UNIQUE,
    summary           TEXT NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled', 'completed')),
    trip_id           TEXT REFERENCES trips(trip_id),
    created_at        TEXT NOT NULL,
    payment_method_id TEXT REFERENCES payment_methods(payment_method_id),  -- NULL: paid with points
    points_used       INTEGER NOT NULL,
    flight_id         TEXT REFERENCES flights(flight_id),
    fare              TEXT,
    cabin             TEXT,
    checked_in_at     TEXT,
    hotel_id          TEXT REFERENCES hotels(hotel_id),
    room_type_id      TEXT REFERENCES room_types(room_type_id),
    check_in          TEXT,
    check_out         TEXT,
    rooms             INTEGER,
    guests            INTEGER,
    rate_plan         TEXT CHECK (rate_plan IN ('flexible', 'non_refundable')),
    cancelled_at      TEXT,
    CHECK ((kind = 'flight') = (flight_id IS NOT NULL)),
    CHECK ((kind = 'hotel') = (room_type_id IS NOT NULL))
) WITHOUT ROWID;

CREATE TABLE booking_passengers (
    booking_id   TEXT NOT NULL REFERENCES bookings(booking_id),
    traveler_id  TEXT NOT NULL REFERENCES travelers(traveler_id),
    seat         TEXT,
    checked_bags INTEGER NOT NULL,
    PRIMARY KEY (booking_id, traveler_id)
) WITHOUT ROWID;

-- Money (and points) moving for a booking: charges and refunds.
CREATE TABLE payments (
    payment_id        TEXT PRIMARY KEY,
    booking_id        TEXT NOT NULL REFERENCES bookings(booking_id),
    payment_method_id TEXT REFERENCES payment_methods(payment_method_id),  -- NULL: points only
    kind              TEXT NOT NULL CHECK (kind IN ('charge', 'refund')),
    amount            REAL NOT NULL,           -- dollars, positive
    points            INTEGER NOT NULL,        -- loyalty points, positive
    description       TEXT NOT NULL,
    created_at        TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE loyalty_activity (
    activity_id TEXT PRIMARY KEY,
    occurred_at TEXT NOT NULL,
    points      INTEGER NOT NULL,              -- signed: earned or refunded (+), redeemed (-)
    description TEXT NOT NULL,
    booking_id  TEXT REFERENCES bookings(booking_id)
) WITHOUT ROWID;
