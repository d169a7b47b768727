-- Schema 6: which process wrote each live table last, and at which version ("<process>@<n>").
-- After a write whose answer was lost, the process that made it knows the row for its own.
ALTER TABLE live_tables ADD COLUMN writer TEXT;

-- The bot's REST budget, shared by every process of one bot token: the moment (the server's
-- clock, epoch seconds) from which the next request may go, one row per budget. Unlogged:
-- a reservation never waits for the disk, and a crash only forgets a second's pacing.
CREATE UNLOGGED TABLE rest_budget (
    name    TEXT PRIMARY KEY,
    next_at DOUBLE PRECISION NOT NULL
);

-- When a shard of each max_concurrency bucket last identified (the server's clock).
CREATE UNLOGGED TABLE identify_turns (
    bucket  INTEGER PRIMARY KEY,
    last_at DOUBLE PRECISION NOT NULL
);
