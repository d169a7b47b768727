-- Schema 2: each server numbers its own matches; matches and server settings carry house
-- rules; standings gain official-rules-only rows, a count of rated matches and counts of
-- players per scope.

-- The server's own match number (1, 2, 3...); match_id stays the internal key.
ALTER TABLE matches ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
-- JSON object of the house-rule options in force; {} is the official rules.
ALTER TABLE matches ADD COLUMN house_rules TEXT NOT NULL DEFAULT '{}';
UPDATE matches SET number = ranked.n
FROM (
    SELECT match_id, ROW_NUMBER() OVER (PARTITION BY guild_id ORDER BY match_id) AS n
    FROM matches
) AS ranked
WHERE ranked.match_id = matches.match_id;
-- History walks this index backwards; the detail of match #n is one lookup.
DROP INDEX matches_by_guild_recent;
CREATE UNIQUE INDEX matches_by_number ON matches (guild_id, number);

-- One row per server with a league. Recording a match takes this row first: it hands out the
-- next number and serialises the server's matches. house_matches counts house-ruled matches;
-- while it is 0 the official-only standings are the ordinary ones and have no rows of their own.
CREATE TABLE league_guilds (
    guild_id      INTEGER PRIMARY KEY,
    last_number   INTEGER NOT NULL,
    house_matches INTEGER NOT NULL
);
INSERT INTO league_guilds (guild_id, last_number, house_matches)
SELECT guild_id, MAX(number), 0 FROM matches GROUP BY guild_id;

ALTER TABLE guild_settings ADD COLUMN rate_house_rules INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guild_settings ADD COLUMN house_rules TEXT NOT NULL DEFAULT '{}';

-- official_only = 1 rows count official-rules matches only; rated counts the matches that
-- changed the rating (a rating is provisional until there are enough).
CREATE TABLE standings_v2 (
    guild_id        INTEGER NOT NULL,
    season          INTEGER NOT NULL,
    official_only   INTEGER NOT NULL,
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
    rated           INTEGER NOT NULL,
    -- A player's rows of every scope share a page, so a match dirties one page, not four.
    PRIMARY KEY (guild_id, user_id, season, official_only)
) WITHOUT ROWID;

-- A seat was rated when its rating was stored and someone else's was too.
WITH rated_matches AS (
    SELECT match_id FROM match_players WHERE rating_after IS NOT NULL
    GROUP BY match_id HAVING COUNT(*) >= 2
), per_season AS (
    SELECT m.guild_id, m.season, p.user_id, COUNT(*) AS n
    FROM rated_matches r
    JOIN matches m ON m.match_id = r.match_id
    JOIN match_players p ON p.match_id = r.match_id
    WHERE p.rating_after IS NOT NULL
    GROUP BY m.guild_id, m.season, p.user_id
), counts AS (
    SELECT guild_id, season, user_id, n FROM per_season
    UNION ALL
    SELECT guild_id, 0, user_id, SUM(n) FROM per_season GROUP BY guild_id, user_id
)
INSERT INTO standings_v2 (guild_id, season, official_only, user_id, matches, wins, points,
                          rounds_won, best_round, matches_classic, matches_sonic, matches_mario,
                          mu, sigma, ordinal, rated)
SELECT s.guild_id, s.season, 0, s.user_id, s.matches, s.wins, s.points, s.rounds_won,
       s.best_round, s.matches_classic, s.matches_sonic, s.matches_mario, s.mu, s.sigma,
       s.ordinal, COALESCE(c.n, 0)
FROM standings s
LEFT JOIN counts c ON c.guild_id = s.guild_id AND c.season = s.season AND c.user_id = s.user_id;

DROP TABLE standings;
ALTER TABLE standings_v2 RENAME TO standings;
CREATE INDEX standings_by_rating
    ON standings (guild_id, season, official_only, ordinal DESC, user_id);
CREATE INDEX standings_by_wins ON standings (guild_id, season, official_only, wins DESC);
CREATE INDEX standings_by_points ON standings (guild_id, season, official_only, points DESC);

-- How many players each standings scope holds: a leaderboard's total is one lookup.
CREATE TABLE standings_counts (
    guild_id      INTEGER NOT NULL,
    season        INTEGER NOT NULL,
    official_only INTEGER NOT NULL,
    players       INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, official_only)
) WITHOUT ROWID;
INSERT INTO standings_counts (guild_id, season, official_only, players)
SELECT guild_id, season, official_only, COUNT(*) FROM standings
GROUP BY guild_id, season, official_only;
