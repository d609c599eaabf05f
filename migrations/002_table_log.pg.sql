-- PostgreSQL form of 002_table_log.sql: SHA-256 built in, DOUBLE PRECISION times, BIGINT ids, no WITHOUT ROWID.
ALTER TABLE players RENAME COLUMN token TO token_hash;
UPDATE players SET token_hash = encode(sha256(convert_to(token_hash, 'UTF8')), 'hex');

CREATE TABLE tables (
    id TEXT PRIMARY KEY,            -- random, never reused (codes are reused once a table closes)
    code TEXT NOT NULL,
    opened_at DOUBLE PRECISION NOT NULL,
    closed_at DOUBLE PRECISION,     -- NULL while the table is open: restored on start
    damaged TEXT                    -- why restore gave up on this log, if it did
);
CREATE INDEX tables_open ON tables(closed_at) WHERE closed_at IS NULL;

CREATE TABLE table_log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,             -- 1, 2, 3... per table
    entry TEXT NOT NULL,            -- JSON: {"k": kind, ...fields}
    PRIMARY KEY (table_id, n)
);

ALTER TABLE games ADD COLUMN table_id TEXT;
ALTER TABLE games ADD COLUMN deal BIGINT;
ALTER TABLE games ADD COLUMN share TEXT;
ALTER TABLE games ADD COLUMN seats TEXT;    -- JSON: [{seat, name, kind, level}] at game over
ALTER TABLE games ADD COLUMN events TEXT;   -- JSON: the game's core events (deals, passes, plays, moon choices)
CREATE UNIQUE INDEX games_share ON games(share);

-- Everyone who held a seat at some moment of the game may see its replay.
CREATE TABLE game_players (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players(id),
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX game_players_player ON game_players(player_id, game_id);
INSERT INTO game_players (game_id, player_id)
    SELECT DISTINCT game_id, player_id FROM game_seats WHERE player_id IS NOT NULL;

-- Secrets the server keeps across restarts (and shares between nodes), e.g. the key of the daily deals.
CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE daily_entries (
    day TEXT NOT NULL,              -- YYYY-MM-DD (UTC)
    player_id BIGINT NOT NULL REFERENCES players(id),
    game_id BIGINT NOT NULL REFERENCES games(id),
    total INTEGER NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (day, player_id)
);
CREATE INDEX daily_board ON daily_entries(day, total, finished_at);
