-- Ratings per family of variants (classic, dutch, teams), written in the same transaction as the rated game.
CREATE TABLE ratings (
    player_id BIGINT NOT NULL,
    family TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, family)
);
-- Every rated game's result per player: the rating after it (the week's board counts these rows).
CREATE TABLE rating_changes (
    game_id BIGINT NOT NULL,
    player_id BIGINT NOT NULL,
    family TEXT NOT NULL,
    place INTEGER NOT NULL,
    left_early INTEGER NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_changes_week ON rating_changes (family, at);
-- Reports of one player by another at a table, with the chat lines around them, for the operator.
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    at DOUBLE PRECISION NOT NULL,
    table_code TEXT NOT NULL,
    reporter_id BIGINT NOT NULL,
    reported_id BIGINT,
    reported_name TEXT NOT NULL,
    reason TEXT NOT NULL,
    chat TEXT NOT NULL
);
