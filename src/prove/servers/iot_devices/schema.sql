-- The iot_devices server: the smart home of one signed-in user.
-- Times are local ISO text ('2026-03-16T09:00:00'), days 'YYYY-MM-DD'; temperatures are degrees
-- Fahrenheit; energy is kWh. Tables are WITHOUT ROWID, keyed by their text IDs, and carry only
-- the secondary indexes a hot read needs: sessions copy the whole image.

-- The home (exactly one row) and the person signed in to it.
CREATE TABLE homes (
    home_id          TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    owner_name       TEXT NOT NULL,
    owner_email      TEXT NOT NULL,
    address          TEXT NOT NULL,
    timezone         TEXT NOT NULL,
    mode             TEXT NOT NULL CHECK (mode IN ('home', 'away', 'night', 'vacation')),
    mode_changed_at  TEXT NOT NULL,
    electricity_rate REAL NOT NULL               -- dollars per kWh
) WITHOUT ROWID;

CREATE TABLE rooms (
    room_id    TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    floor      TEXT NOT NULL,                    -- 'Ground floor', 'Upstairs', 'Basement', 'Outdoors'
    created_at TEXT NOT NULL
) WITHOUT ROWID;

-- Every device, whatever its type; the columns of other types are NULL.
CREATE TABLE devices (
    device_id        TEXT PRIMARY KEY,
    room_id          TEXT NOT NULL REFERENCES rooms(room_id),
    name             TEXT NOT NULL,
    type             TEXT NOT NULL CHECK (type IN ('light', 'thermostat', 'lock', 'camera', 'sensor',
                                                   'plug', 'blind', 'speaker')),
    manufacturer     TEXT NOT NULL,
    model            TEXT NOT NULL,
    firmware         TEXT NOT NULL,
    latest_firmware  TEXT NOT NULL,
    online           INTEGER NOT NULL,           -- 0: unreachable, cannot be controlled
    battery          INTEGER,                    -- percent, battery-powered devices only
    last_seen        TEXT NOT NULL,
    installed_on     TEXT NOT NULL,
    power            TEXT CHECK (power IN ('on', 'off')),          -- lights, plugs, speakers
    brightness       INTEGER,                    -- lights, 1-100
    color            TEXT,                       -- lights
    supports_color   INTEGER,                    -- lights: 1 if it can show colours, not only whites
    watts            REAL,                       -- plugs: current draw
    rated_watts      REAL,                       -- plugs: what the plugged-in appliance draws when on
    mode             TEXT CHECK (mode IN ('heat', 'cool', 'auto', 'eco', 'off')),  -- thermostats
    target_temp      REAL,
    current_temp     REAL,                       -- thermostats and temperature sensors
    humidity         INTEGER,
    min_temp         REAL,                       -- the owner's allowed setpoint range
    max_temp         REAL,
    lock_state       TEXT CHECK (lock_state IN ('locked', 'unlocked', 'jammed')),
    armed            INTEGER,                    -- cameras
    placement        TEXT CHECK (placement IN ('indoor', 'outdoor')),  -- cameras
    sensor_kind      TEXT CHECK (sensor_kind IN ('temperature', 'motion', 'contact', 'leak')),
    sensor_state     TEXT,                       -- 'motion'/'clear', 'open'/'closed', 'dry'/'wet'
    position         INTEGER,                    -- blinds: 0 closed, 100 fully open
    volume           INTEGER,                    -- speakers, 0-100
    now_playing      TEXT
) WITHOUT ROWID;
CREATE INDEX devices_by_room ON devices (room_id);

-- Door codes of smart locks; a code opens only its own lock, until `valid_until` if set.
CREATE TABLE lock_codes (
    code_id      TEXT PRIMARY KEY,
    device_id    TEXT NOT NULL REFERENCES devices(device_id),
    name         TEXT NOT NULL,                  -- who it is for: 'Dog walker (Maria)'
    code         TEXT NOT NULL,                  -- 4-8 digits, never listed
    created_at   TEXT NOT NULL,
    valid_until  TEXT,                           -- NULL: permanent
    last_used_at TEXT
) WITHOUT ROWID;

CREATE TABLE scenes (
    scene_id          TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    created_at        TEXT NOT NULL,
    last_activated_at TEXT
) WITHOUT ROWID;

-- What a scene does to each of its devices; NULL columns are left as they are.
CREATE TABLE scene_actions (
    scene_id    TEXT NOT NULL REFERENCES scenes(scene_id),
    device_id   TEXT NOT NULL REFERENCES devices(device_id),
    power       TEXT CHECK (power IN ('on', 'off')),
    brightness  INTEGER,
    color       TEXT,
    mode        TEXT CHECK (mode IN ('heat', 'cool', 'auto', 'eco', 'off')),
    target_temp REAL,
    lock_state  TEXT CHECK (lock_state IN ('locked')),   -- a scene may lock, never unlock
    armed       INTEGER,
    position    INTEGER,
    volume      INTEGER,
    PRIMARY KEY (scene_id, device_id)
) WITHOUT ROWID;

-- Time-based automations: run a scene at `run_at` on the listed weekdays.
CREATE TABLE automations (
    automation_id TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    scene_id      TEXT NOT NULL REFERENCES scenes(scene_id),
    run_at        TEXT NOT NULL,                 -- 'HH:MM'
    days          TEXT NOT NULL,                 -- 'MO,TU,WE,TH,FR'
    enabled       INTEGER NOT NULL,
    created_at    TEXT NOT NULL,
    last_run_at   TEXT
) WITHOUT ROWID;

CREATE TABLE recordings (
    recording_id TEXT PRIMARY KEY,
    device_id    TEXT NOT NULL REFERENCES devices(device_id),
    label        TEXT NOT NULL,                  -- how a person names it: 'Backyard Camera, March 13 at 10:30 AM'
    started_at   TEXT NOT NULL,
    duration_s   INTEGER NOT NULL,
    trigger      TEXT NOT NULL CHECK (trigger IN ('motion', 'person', 'package', 'vehicle', 'animal', 'manual')),
    size_mb      REAL NOT NULL,
    protected    INTEGER NOT NULL                -- 1: kept; cannot be deleted
) WITHOUT ROWID;

-- Readings of temperature sensors and thermostats, every three hours.
CREATE TABLE sensor_readings (
    device_id   TEXT NOT NULL REFERENCES devices(device_id),
    recorded_at TEXT NOT NULL,
    temperature REAL NOT NULL,
    humidity    INTEGER,
    PRIMARY KEY (device_id, recorded_at)
) WITHOUT ROWID;

-- Energy use per metered device per day (complete days before today).
CREATE TABLE energy_usage (
    device_id TEXT NOT NULL REFERENCES devices(device_id),
    day       TEXT NOT NULL,
    kwh       REAL NOT NULL,
    PRIMARY KEY (device_id, day)
) WITHOUT ROWID;

-- The home's activity feed: motion, doors, locks, scenes, automations, mode changes.
CREATE TABLE activity (
    activity_id TEXT PRIMARY KEY,
    occurred_at TEXT NOT NULL,
    device_id   TEXT REFERENCES devices(device_id),
    kind        TEXT NOT NULL,
    message     TEXT NOT NULL
) WITHOUT ROWID;
