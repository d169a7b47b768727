-- Schema 4: every round of a recorded match as the engine replays it (bot/engine/record.py):
-- the dealt deck, its seed, the options and every action, as compact JSON text.
CREATE TABLE match_rounds (
    match_id INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    round    INTEGER NOT NULL,
    record   TEXT NOT NULL,
    PRIMARY KEY (match_id, round)
) WITHOUT ROWID;
