-- PostgreSQL form of 003_toppers.sql: BIGINT game ids, no WITHOUT ROWID.
CREATE TABLE game_toppers (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    kind TEXT NOT NULL,             -- double_game, triple_game, nil_game, double_nil, triple_nil, absolute_topper
    PRIMARY KEY (game_id, seat, kind)
);
