-- Schema 1: live tables, guild settings, seasons, recorded matches and incremental standings.
-- Plain SQL types that map one to one onto PostgreSQL (BIGINT ids, DOUBLE PRECISION times).

-- One row per live table; the state is the table layer's JSON, saved with every change.
CREATE TABLE live_tables (
    table_id   TEXT PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    state      TEXT NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE guild_settings (
    guild_id                INTEGER PRIMARY KEY,
    edition                 TEXT NOT NULL,
    scoring                 TEXT NOT NULL,
    target                  INTEGER,
    turn_seconds            INTEGER,
    timeout_action          TEXT NOT NULL,
    timeouts_before_removal INTEGER NOT NULL,
    lobby_minutes           INTEGER NOT NULL,
    computers_allowed       INTEGER NOT NULL,
    computer_level          TEXT NOT NULL,
    computers_rated         INTEGER NOT NULL
);

-- Season 1 of a guild has no row until a second season starts.
CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    name       TEXT,
    started_at REAL,
    ended_at   REAL,
    PRIMARY KEY (guild_id, season)
) WITHOUT ROWID;

-- The latest display name seen per member of a guild.
CREATE TABLE player_names (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE matches (
    match_id    INTEGER PRIMARY KEY,
    match_uid   TEXT NOT NULL UNIQUE,
    guild_id    INTEGER NOT NULL,
    season      INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    edition     TEXT NOT NULL,
    scoring     TEXT NOT NULL,
    target      INTEGER,
    started_at  REAL NOT NULL,
    finished_at REAL NOT NULL,
    rounds      TEXT NOT NULL,  -- JSON: per round, per seat points
    round_winners TEXT NOT NULL, -- JSON: per round, the seat that went out or null
    events      TEXT NOT NULL   -- JSON: the engine's game record
);
CREATE INDEX matches_by_guild_recent ON matches (guild_id, finished_at DESC, match_id DESC);

CREATE TABLE match_players (
    match_id      INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    name          TEXT NOT NULL,
    points        INTEGER NOT NULL,
    place         INTEGER NOT NULL,
    computer      INTEGER NOT NULL,
    winner        INTEGER NOT NULL,
    rating_before REAL,  -- season ordinal; null when the seat was not rated
    rating_after  REAL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

-- Kept up to date by record_match; season 0 holds the all-time rows. Matches per edition are
-- columns, not rows, so a recorded match touches one row per player and scope.
CREATE TABLE standings (
    guild_id        INTEGER NOT NULL,
    season          INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    matches         INTEGER NOT NULL,
    wins            INTEGER NOT NULL,
    points          INTEGER NOT NULL,
    rounds_won      INTEGER NOT NULL,
    best_round      INTEGER NOT NULL,
    matches_classic INTEGER NOT NULL,
    matches_sonic   INTEGER NOT NULL,
    matches_mario   INTEGER NOT NULL,
    mu              REAL NOT NULL,
    sigma           REAL NOT NULL,
    ordinal         REAL NOT NULL,
    -- A player's season and all-time rows share a page, so a match dirties one page, not two.
    PRIMARY KEY (guild_id, user_id, season)
) WITHOUT ROWID;
-- A leaderboard page walks one of these and stops after offset + limit rows. Wins and points
-- sorts break ties by rating with a small sort inside each run of equal values: keeping
-- ordinal out of those two indexes means a match rewrites their entries only for players
-- whose wins or points changed, not for everyone whose rating moved.
CREATE INDEX standings_by_rating ON standings (guild_id, season, ordinal DESC, user_id);
CREATE INDEX standings_by_wins ON standings (guild_id, season, wins DESC);
CREATE INDEX standings_by_points ON standings (guild_id, season, points DESC);
