-- Tables of three to twelve seats: a seat number is 0..11. SQLite cannot change a CHECK, so each table is copied.
CREATE TABLE game_seats_new (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 11),
    player_id INTEGER REFERENCES players(id),   -- NULL for a computer player
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    name TEXT NOT NULL,
    level TEXT,
    final_total INTEGER NOT NULL,
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, seat)
);
INSERT INTO game_seats_new SELECT game_id, seat, player_id, kind, name, level, final_total, won FROM game_seats;
DROP TABLE game_seats;
ALTER TABLE game_seats_new RENAME TO game_seats;
CREATE INDEX game_seats_player ON game_seats(player_id, game_id);

CREATE TABLE game_hands_new (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    hand_no INTEGER NOT NULL,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 11),
    points INTEGER NOT NULL,        -- penalty points taken in the hand
    score INTEGER NOT NULL,         -- what the hand added to the total (after moon and counting down)
    total INTEGER NOT NULL,
    moon INTEGER NOT NULL CHECK (moon IN (0, 1)),
    PRIMARY KEY (game_id, hand_no, seat)
);
INSERT INTO game_hands_new SELECT game_id, hand_no, seat, points, score, total, moon FROM game_hands;
DROP TABLE game_hands;
ALTER TABLE game_hands_new RENAME TO game_hands;

CREATE TABLE game_toppers_new (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 11),
    kind TEXT NOT NULL,             -- double_game, triple_game, nil_game, double_nil, triple_nil, absolute_topper
    PRIMARY KEY (game_id, seat, kind)
) WITHOUT ROWID;
INSERT INTO game_toppers_new SELECT game_id, seat, kind FROM game_toppers;
DROP TABLE game_toppers;
ALTER TABLE game_toppers_new RENAME TO game_toppers;
