-- Pruning: each pass walks the players not seen for days and the tables closed days ago, oldest first, and asks
-- of each whether it was ever played (a finished game of its table, a report naming the player).
CREATE INDEX players_seen ON players (last_seen, id);
CREATE INDEX tables_closed ON tables (closed_at, id) WHERE closed_at IS NOT NULL;
CREATE INDEX games_table ON games (table_id);
CREATE INDEX reports_reporter ON reports (reporter_id);
CREATE INDEX reports_reported ON reports (reported_id);
