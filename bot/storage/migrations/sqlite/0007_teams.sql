-- Schema 7: team play in the league. A match keeps its team count (0: every player for
-- themselves), each seat its team (seat mod teams; null without teams), and every standings
-- row its team matches and team wins (a team win is also a win).
ALTER TABLE matches ADD COLUMN teams INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_players ADD COLUMN team INTEGER;
ALTER TABLE standings ADD COLUMN team_matches INTEGER NOT NULL DEFAULT 0;
ALTER TABLE standings ADD COLUMN team_wins INTEGER NOT NULL DEFAULT 0;
