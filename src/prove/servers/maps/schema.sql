-- Maps: a synthetic map of three cities (street grids, places, transit lines, road closures)
-- and the saved places, lists, reviews and closure reports of one signed-in user.
--
-- Conventions: IDs are text with a prefix ('CTY-10001', 'PLC-', 'REV-', 'LST-', 'RPT-', 'LIN-',
-- 'RCL-'); times are local ISO 8601 text ('2026-03-16T09:00:00'), the same local time in every
-- city. Distances are metres. Small-row tables are WITHOUT ROWID and comments sit outside the
-- CREATE statements, which SQLite stores verbatim: both keep the template small.

-- cities: each city's streets form a grid: nx avenues running north-south, spacing_x metres
-- apart, and ny streets running east-west, spacing_y metres apart; the south-west corner
-- (avenue 0 and street 0) is at (lat0, lon0). highway_* is where the interstate joins the grid.
CREATE TABLE cities (
    city_id    TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    region     TEXT NOT NULL,
    zip_prefix TEXT NOT NULL,
    lat0       REAL NOT NULL,
    lon0       REAL NOT NULL,
    spacing_x  REAL NOT NULL,
    spacing_y  REAL NOT NULL,
    nx         INTEGER NOT NULL,
    ny         INTEGER NOT NULL,
    highway    TEXT NOT NULL,
    highway_i  INTEGER NOT NULL,
    highway_j  INTEGER NOT NULL
) WITHOUT ROWID;

-- streets: axis 'ns' streets are avenues at index idx along x; 'ew' streets are at index idx
-- along y. oneway: 0 two-way, 1 one-way towards higher indexes (north or east), -1 towards lower.
CREATE TABLE streets (
    street_id  INTEGER PRIMARY KEY,
    city_id    TEXT NOT NULL REFERENCES cities(city_id),
    name       TEXT NOT NULL,
    axis       TEXT NOT NULL CHECK (axis IN ('ns', 'ew')),
    idx        INTEGER NOT NULL,
    road_class TEXT NOT NULL CHECK (road_class IN ('arterial', 'local')),
    oneway     INTEGER NOT NULL CHECK (oneway IN (-1, 0, 1)),
    UNIQUE (city_id, axis, idx)
);

-- places: a place sits on one block of a street: between cross streets `block` and `block` + 1,
-- at fraction `frac` along it, on side 'left' (north or west) or 'right' (south or east).
-- hours: seven entries, Monday first, separated by ',': 'HH:MM-HH:MM' (a closing time before the
-- opening time runs past midnight), '24h' or 'closed'. Ratings are kept as the sum of all stars
-- and the number of ratings. status changes when a closure report is confirmed.
CREATE TABLE places (
    place_id     TEXT PRIMARY KEY,
    city_id      TEXT NOT NULL REFERENCES cities(city_id),
    name         TEXT NOT NULL,
    category     TEXT NOT NULL,
    cuisine      TEXT,
    street_id    INTEGER NOT NULL REFERENCES streets(street_id),
    block        INTEGER NOT NULL,
    frac         REAL NOT NULL,
    side         TEXT NOT NULL CHECK (side IN ('left', 'right')),
    number       INTEGER NOT NULL,
    zip          TEXT NOT NULL,
    lat          REAL NOT NULL,
    lon          REAL NOT NULL,
    phone        TEXT,
    price_level  INTEGER CHECK (price_level BETWEEN 1 AND 4),
    hours        TEXT NOT NULL,
    rating_total INTEGER NOT NULL,
    rating_count INTEGER NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('open', 'temporarily_closed', 'permanently_closed'))
);

-- reviews: a few shown reviews per place; is_mine marks the signed-in user's own. my_place is,
-- on the user's own reviews only, the name of the place reviewed: the user names a review of theirs
-- by its place ("my Bistro Thompson review", a leading "The" left off), never by its author,
-- who is always them.
CREATE TABLE reviews (
    review_id  TEXT PRIMARY KEY,
    place_id   TEXT NOT NULL REFERENCES places(place_id),
    author     TEXT NOT NULL,
    is_mine    INTEGER NOT NULL CHECK (is_mine IN (0, 1)),
    my_place   TEXT,
    rating     INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT
) WITHOUT ROWID;

-- profile: the signed-in user, with saved home and work places.
CREATE TABLE profile (
    user_id       TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    home_place_id TEXT NOT NULL REFERENCES places(place_id),
    work_place_id TEXT NOT NULL REFERENCES places(place_id)
) WITHOUT ROWID;

-- saved_lists: the user's lists of places; the default list ('Favorites') cannot be deleted.
CREATE TABLE saved_lists (
    list_id     TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    description TEXT,
    is_default  INTEGER NOT NULL CHECK (is_default IN (0, 1)),
    created_at  TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE saved_places (
    list_id  TEXT NOT NULL REFERENCES saved_lists(list_id),
    place_id TEXT NOT NULL REFERENCES places(place_id),
    note     TEXT,
    added_at TEXT NOT NULL,
    PRIMARY KEY (list_id, place_id)
) WITHOUT ROWID;

-- closure_reports: the user's reports that a place closed (or reopened). A pending report is
-- reviewed 24 hours after it was filed (when the clock passes that time) and the place's status
-- then changes to what was reported.
CREATE TABLE closure_reports (
    report_id   TEXT PRIMARY KEY,
    place_id    TEXT NOT NULL REFERENCES places(place_id),
    reported    TEXT NOT NULL CHECK (reported IN ('temporarily_closed', 'permanently_closed', 'open')),
    note        TEXT,
    status      TEXT NOT NULL CHECK (status IN ('pending', 'confirmed')),
    created_at  TEXT NOT NULL,
    resolved_at TEXT
) WITHOUT ROWID;

-- transit_lines: a subway or bus line along one street, stopping at every `stop_every`-th cross
-- street. Departures leave each terminus every headway_min minutes from first_departure to
-- last_departure ('24:30' is half past midnight); weekdays_only lines do not run on weekends.
CREATE TABLE transit_lines (
    line_id         TEXT PRIMARY KEY,
    city_id         TEXT NOT NULL REFERENCES cities(city_id),
    name            TEXT NOT NULL,
    mode            TEXT NOT NULL CHECK (mode IN ('subway', 'bus')),
    street_id       INTEGER NOT NULL REFERENCES streets(street_id),
    stop_every      INTEGER NOT NULL,
    headway_min     INTEGER NOT NULL,
    first_departure TEXT NOT NULL,
    last_departure  TEXT NOT NULL,
    weekdays_only   INTEGER NOT NULL CHECK (weekdays_only IN (0, 1)),
    fare            REAL NOT NULL
) WITHOUT ROWID;

-- road_closures: one block of a street (between cross streets `block` and `block` + 1) closed to
-- cars and bicycles from starts_at until ends_at; pedestrians may still pass.
CREATE TABLE road_closures (
    closure_id TEXT PRIMARY KEY,
    street_id  INTEGER NOT NULL REFERENCES streets(street_id),
    block      INTEGER NOT NULL,
    starts_at  TEXT NOT NULL,
    ends_at    TEXT NOT NULL,
    reason     TEXT NOT NULL,
    CHECK (ends_at > starts_at)
) WITHOUT ROWID;

CREATE INDEX places_by_city ON places(city_id, category);
