-- Schema 8: server tournaments. Each one's whole state is the tournament layer's JSON, saved
-- with every change like a live table's; a finished one stays (its podium, for stats). Each
-- recorded match names the tournament it was played in (null: an ordinary match), so its
-- standings can be recounted from the match records. A server may let anyone open one.
CREATE TABLE tournaments (
    tournament_id TEXT PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    state         TEXT NOT NULL,
    version       INTEGER NOT NULL,
    opened_at     REAL NOT NULL,
    finished_at   REAL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, opened_at DESC);
CREATE INDEX tournaments_open ON tournaments (guild_id) WHERE finished_at IS NULL;

ALTER TABLE matches ADD COLUMN tournament_id TEXT;
CREATE INDEX matches_by_tournament ON matches (tournament_id) WHERE tournament_id IS NOT NULL;

ALTER TABLE guild_settings ADD COLUMN tournaments_open INTEGER NOT NULL DEFAULT 0;
