-- The rating model that made the stored ratings: a server whose model differs rates the stored games again.
-- Every rating stored before this table existed was made by openskill's Plackett-Luce.
CREATE TABLE rating_model (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL
);
INSERT INTO rating_model (id, name) VALUES (1, 'PlackettLuce');
