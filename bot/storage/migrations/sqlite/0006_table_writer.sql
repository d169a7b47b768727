-- Schema 6: which process wrote each live table last ("<process>@<version>"), as in
-- PostgreSQL. A SQLite file has one process, which never needs to tell its writes apart, so
-- it leaves the column empty; the budget and identify tables are PostgreSQL's alone.
ALTER TABLE live_tables ADD COLUMN writer TEXT;
