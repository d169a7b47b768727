-- Schema 3: the language a server chose for its public messages (NULL: its Discord locale).
ALTER TABLE guild_settings ADD COLUMN language TEXT;
