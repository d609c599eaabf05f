-- Every device that holds a player, by its token's hash (a player's first device too), so that one player can be
-- used on several devices and sign any of them out.
CREATE TABLE devices (
    token_hash TEXT PRIMARY KEY,
    player_id BIGINT NOT NULL,
    label TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    last_seen DOUBLE PRECISION NOT NULL
);
CREATE INDEX devices_player ON devices (player_id);
INSERT INTO devices (token_hash, player_id, label, created_at, last_seen)
    SELECT token_hash, id, '', created_at, last_seen FROM players;

-- One-time codes that move a player to another device: hashed, valid ten minutes, used once.
CREATE TABLE device_codes (
    code_hash TEXT PRIMARY KEY,
    player_id BIGINT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    used_at DOUBLE PRECISION
);
