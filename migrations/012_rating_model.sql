-- The rating model that made the stored ratings: a server whose model differs rates the stored games again.
-- Every rating stored before this table existed was made by openskill's Plackett-Luce.
CREATE TABLE rating_model (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL
);
INSERT INTO rating_model (id, name) VALUES (1, 'PlackettLuce');
-- A player's rated games in a family in order (the rating before a game is the one after their game before it).
CREATE INDEX rating_changes_player ON rating_changes (player_id, family, at);
