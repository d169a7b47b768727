-- Schema 2: each server numbers its own matches; matches and server settings carry house
-- rules; standings gain official-rules-only rows, a count of rated matches and counts of
-- players per scope.

-- The server's own match number (1, 2, 3...); match_id stays the internal key.
ALTER TABLE matches ADD COLUMN number BIGINT NOT NULL DEFAULT 0;
-- JSON object of the house-rule options in force; {} is the official rules.
ALTER TABLE matches ADD COLUMN house_rules TEXT NOT NULL DEFAULT '{}';
UPDATE matches SET number = ranked.n
FROM (
    SELECT match_id, ROW_NUMBER() OVER (PARTITION BY guild_id ORDER BY match_id) AS n
    FROM matches
) AS ranked
WHERE ranked.match_id = matches.match_id;
ALTER TABLE matches ALTER COLUMN number DROP DEFAULT;
-- Rows loaded with explicit ids (an import) leave the id sequence behind; catch it up.
SELECT setval(pg_get_serial_sequence('matches', 'match_id'), COALESCE(MAX(match_id), 0) + 1, false)
FROM matches;
-- History walks this index backwards; the detail of match #n is one lookup.
DROP INDEX matches_by_guild_recent;
CREATE UNIQUE INDEX matches_by_number ON matches (guild_id, number);

-- One row per server with a league. Recording a match locks this row first: it hands out the
-- next number and serialises the server's matches across processes. house_matches counts
-- house-ruled matches; while it is 0 the official-only standings are the ordinary ones.
CREATE TABLE league_guilds (
    guild_id      BIGINT PRIMARY KEY,
    last_number   BIGINT NOT NULL,
    house_matches BIGINT NOT NULL
);
INSERT INTO league_guilds (guild_id, last_number, house_matches)
SELECT guild_id, MAX(number), 0 FROM matches GROUP BY guild_id;

ALTER TABLE guild_settings
    ADD COLUMN rate_house_rules BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN house_rules TEXT NOT NULL DEFAULT '{}';

-- official_only rows count official-rules matches only; rated counts the matches that
-- changed the rating (a rating is provisional until there are enough).
ALTER TABLE standings
    ADD COLUMN official_only BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE standings ALTER COLUMN official_only DROP DEFAULT;
ALTER TABLE standings ALTER COLUMN rated DROP DEFAULT;

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
UPDATE standings s SET rated = c.n
FROM counts c
WHERE c.guild_id = s.guild_id AND c.season = s.season AND c.user_id = s.user_id;

ALTER TABLE standings DROP CONSTRAINT standings_pkey;
ALTER TABLE standings ADD PRIMARY KEY (guild_id, user_id, season, official_only);
DROP INDEX standings_by_rating;
DROP INDEX standings_by_wins;
DROP INDEX standings_by_points;
CREATE INDEX standings_by_rating
    ON standings (guild_id, season, official_only, ordinal DESC, user_id);
CREATE INDEX standings_by_wins ON standings (guild_id, season, official_only, wins DESC);
CREATE INDEX standings_by_points ON standings (guild_id, season, official_only, points DESC);

-- How many players each standings scope holds: a leaderboard's total is one lookup.
CREATE TABLE standings_counts (
    guild_id      BIGINT NOT NULL,
    season        BIGINT NOT NULL,
    official_only BOOLEAN NOT NULL,
    players       BIGINT NOT NULL,
    PRIMARY KEY (guild_id, season, official_only)
);
INSERT INTO standings_counts (guild_id, season, official_only, players)
SELECT guild_id, season, official_only, COUNT(*) FROM standings
GROUP BY guild_id, season, official_only;
