-- The vehicle server: one connected plug-in hybrid car and its owner's app.
-- Times are local ISO text ('2026-03-16T09:00:00'); distances miles, fuel US gallons, energy kWh,
-- temperatures °F, tyre pressure psi, money dollars. Tables are WITHOUT ROWID, keyed by their
-- text IDs, with no secondary indexes: a world has a few hundred rows and sessions copy it.

-- The signed-in owner (exactly one row).
CREATE TABLE owners (
    owner_id     TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    email        TEXT NOT NULL,
    phone        TEXT NOT NULL,
    member_since TEXT NOT NULL
) WITHOUT ROWID;

-- Places the car knows: saved places (home, work, favourites) and points of interest nearby.
CREATE TABLE places (
    place_id   TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    category   TEXT NOT NULL CHECK (category IN ('home', 'work', 'favorite', 'charging_station', 'service_center',
                                                 'grocery', 'restaurant', 'coffee', 'shopping', 'school', 'gym',
                                                 'airport', 'park', 'hospital', 'gas_station')),
    address    TEXT NOT NULL,
    lat        REAL NOT NULL,
    lon        REAL NOT NULL,
    saved      INTEGER NOT NULL,              -- 1: in the owner's saved places
    nickname   TEXT,                          -- the owner's name for a saved place ('Mom's')
    charger_kw REAL,                          -- charging stations (and a home charger): power of the charger
    price_kwh  REAL                           -- charging stations: dollars per kWh
) WITHOUT ROWID;

-- The car (exactly one row) and its live state.
CREATE TABLE vehicles (
    vehicle_id            TEXT PRIMARY KEY,
    vin                   TEXT NOT NULL,
    make                  TEXT NOT NULL,
    model                 TEXT NOT NULL,
    trim                  TEXT NOT NULL,
    year                  INTEGER NOT NULL,
    nickname              TEXT NOT NULL,
    color                 TEXT NOT NULL,
    license_plate         TEXT NOT NULL,
    odometer_mi           REAL NOT NULL,
    battery_kwh           REAL NOT NULL,      -- usable capacity
    battery_pct           REAL NOT NULL,
    mi_per_kwh            REAL NOT NULL,
    onboard_charger_kw    REAL NOT NULL,      -- the most the car can take from an AC charger
    fuel_capacity_gal     REAL NOT NULL,
    fuel_gal              REAL NOT NULL,
    mpg                   REAL NOT NULL,
    engine                TEXT NOT NULL CHECK (engine IN ('off', 'running')),
    gear                  TEXT NOT NULL CHECK (gear IN ('P', 'R', 'N', 'D')),
    locked                INTEGER NOT NULL,
    trunk_open            INTEGER NOT NULL,
    has_sunroof           INTEGER NOT NULL,
    headlights            TEXT NOT NULL CHECK (headlights IN ('off', 'auto', 'on')),
    climate_on            INTEGER NOT NULL,
    climate_target        REAL NOT NULL,
    cabin_temp            REAL NOT NULL,
    outside_temp          REAL NOT NULL,
    plugged_in            INTEGER NOT NULL,
    charging              INTEGER NOT NULL,   -- 1: a charging session is running
    charge_limit          INTEGER NOT NULL,   -- percent the battery charges to
    scheduled_charge_time TEXT,               -- 'HH:MM': plugged-in charging starts then (off-peak); NULL: off
    valet_mode            INTEGER NOT NULL,
    valet_pin             TEXT NOT NULL,      -- 4 digits, never shown
    software_version      TEXT NOT NULL,
    update_version        TEXT,               -- a downloaded update waiting to be installed
    update_notes          TEXT,
    update_minutes        INTEGER,
    update_finishes_at    TEXT,               -- set while an update installs
    place_id              TEXT REFERENCES places(place_id),  -- where it is parked, if at a known place
    lat                   REAL NOT NULL,
    lon                   REAL NOT NULL,
    parked_since          TEXT,
    destination_id        TEXT REFERENCES places(place_id),  -- navigation destination
    active_trip_id        TEXT,               -- the drive under way, if any
    active_profile_id     TEXT,
    seat_position         INTEGER NOT NULL,   -- driver's seat memory position 1-10
    mirror_preset         TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE windows (
    window   TEXT PRIMARY KEY CHECK (window IN ('front_left', 'front_right', 'rear_left', 'rear_right', 'sunroof')),
    position INTEGER NOT NULL                 -- 0 closed, 100 fully open
) WITHOUT ROWID;

CREATE TABLE seats (
    seat        TEXT PRIMARY KEY CHECK (seat IN ('driver', 'passenger', 'rear_left', 'rear_right')),
    heated      INTEGER NOT NULL,             -- 1 if the seat has a heater
    heat_level  INTEGER NOT NULL              -- 0 off to 3 high
) WITHOUT ROWID;

CREATE TABLE tires (
    position        TEXT PRIMARY KEY CHECK (position IN ('front_left', 'front_right', 'rear_left', 'rear_right')),
    pressure_psi    REAL NOT NULL,
    recommended_psi REAL NOT NULL,
    measured_at     TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE driver_profiles (
    profile_id     TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    seat_position  INTEGER NOT NULL,
    mirror_preset  TEXT NOT NULL,
    climate_target REAL NOT NULL,
    seat_heat      INTEGER NOT NULL,          -- driver seat heater level this driver likes
    created_at     TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE trips (
    trip_id        TEXT PRIMARY KEY,
    started_at     TEXT NOT NULL,
    ended_at       TEXT,                      -- NULL while under way
    eta            TEXT NOT NULL,
    from_place_id  TEXT REFERENCES places(place_id),
    from_name      TEXT NOT NULL,
    to_place_id    TEXT NOT NULL REFERENCES places(place_id),
    to_name        TEXT NOT NULL,
    distance_mi    REAL NOT NULL,
    electric_kwh   REAL NOT NULL,             -- energy used; for a drive under way, what it will use
    fuel_gal       REAL NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('in_progress', 'completed'))
) WITHOUT ROWID;

CREATE TABLE charging_sessions (
    session_id  TEXT PRIMARY KEY,
    place_id    TEXT REFERENCES places(place_id),
    location    TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    ended_at    TEXT,
    start_pct   REAL NOT NULL,
    end_pct     REAL,
    kwh_added   REAL NOT NULL,
    power_kw    REAL NOT NULL,
    cost        REAL NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('charging', 'completed', 'stopped'))
) WITHOUT ROWID;

-- Maintenance items that come due by distance and/or time.
CREATE TABLE service_reminders (
    reminder_id        TEXT PRIMARY KEY,
    title              TEXT NOT NULL,
    interval_mi        INTEGER,
    interval_months    INTEGER,
    last_done_on       TEXT NOT NULL,
    last_done_odometer REAL NOT NULL,
    due_on             TEXT,                  -- by date (NULL: distance only)
    due_odometer       REAL                   -- by distance (NULL: time only)
) WITHOUT ROWID;

CREATE TABLE service_appointments (
    appointment_id TEXT PRIMARY KEY,
    place_id       TEXT NOT NULL REFERENCES places(place_id),
    scheduled_for  TEXT NOT NULL,
    services       TEXT NOT NULL,            -- what is to be done, as the owner asked
    note           TEXT,
    status         TEXT NOT NULL CHECK (status IN ('booked', 'completed', 'cancelled')),
    created_at     TEXT NOT NULL
) WITHOUT ROWID;

-- The car's event log: locks, charging, alerts, updates, commands from the app.
CREATE TABLE events (
    event_id    TEXT PRIMARY KEY,
    occurred_at TEXT NOT NULL,
    kind        TEXT NOT NULL,
    message     TEXT NOT NULL
) WITHOUT ROWID;
