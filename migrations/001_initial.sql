-- Players, finished games, their seats and per-hand scores.
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    created_at REAL NOT NULL,
    last_seen REAL NOT NULL
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,          -- JSON: the table options (make_rules input)
    started_at REAL NOT NULL,
    finished_at REAL NOT NULL,
    hands INTEGER NOT NULL,
    winners TEXT NOT NULL           -- JSON list of seats
);

CREATE TABLE game_seats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id INTEGER REFERENCES players(id),   -- NULL for a computer player
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    name TEXT NOT NULL,
    level TEXT,
    final_total INTEGER NOT NULL,
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_player ON game_seats(player_id, game_id);

CREATE TABLE game_hands (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    hand_no INTEGER NOT NULL,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    points INTEGER NOT NULL,        -- penalty points taken in the hand
    score INTEGER NOT NULL,         -- what the hand added to the total (after moon and counting down)
    total INTEGER NOT NULL,
    moon INTEGER NOT NULL CHECK (moon IN (0, 1)),
    PRIMARY KEY (game_id, hand_no, seat)
);
