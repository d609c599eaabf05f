-- Toppers: the achievements a seat earned at game end (double game, nil game, ...), counted in stats.
CREATE TABLE game_toppers (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    kind TEXT NOT NULL,             -- double_game, triple_game, nil_game, double_nil, triple_nil, absolute_topper
    PRIMARY KEY (game_id, seat, kind)
) WITHOUT ROWID;
