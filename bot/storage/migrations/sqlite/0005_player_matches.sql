-- Schema 5: a member's matches in one lookup (their profile, forget-me).
CREATE INDEX match_players_by_user ON match_players (user_id, match_id);
