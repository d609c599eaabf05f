"""The SQL both stores run, written once with ``?`` placeholders (``numbered`` turns them into PostgreSQL's ``$1``)."""

from __future__ import annotations

import re
from functools import lru_cache

SCHEMA_VERSION = "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"
RECORD_MIGRATION = "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"

# table logs
OPEN_TABLE = "INSERT INTO tables (id, code, opened_at) VALUES (?, ?, ?)"
APPEND = "INSERT INTO table_log (table_id, n, entry) VALUES (?, ?, ?)"
APPEND_LEASED = "INSERT INTO table_log (table_id, n, entry, lease) VALUES (?, ?, ?, ?)"  # PostgreSQL (fencing)
NEWEST_LEASE = "SELECT lease FROM table_leases WHERE table_id = ?"
# a node that took a table over raises its fence before it reads the log (PostgreSQL: the row the trigger locks)
FENCE_TABLE = (
    "INSERT INTO table_leases (table_id, lease) VALUES (?, ?) ON CONFLICT (table_id) DO UPDATE SET lease = "
    "CASE WHEN table_leases.lease > excluded.lease THEN table_leases.lease ELSE excluded.lease END RETURNING lease"
)
OPEN_TABLE_BY_ID = "SELECT id, code FROM tables WHERE closed_at IS NULL AND id = ?"
CLOSE_TABLE = "UPDATE tables SET closed_at = ? WHERE id = ?"
MARK_DAMAGED = "UPDATE tables SET closed_at = ?, damaged = ? WHERE id = ?"
OPEN_TABLES = "SELECT id, code FROM tables WHERE closed_at IS NULL ORDER BY opened_at, id"
OPEN_TABLE_BY_CODE = "SELECT id, code FROM tables WHERE closed_at IS NULL AND code = ? ORDER BY opened_at DESC LIMIT 1"
TABLE_LOG = "SELECT n, entry FROM table_log WHERE table_id = ? ORDER BY n"
OPEN_LOGS = (
    "SELECT l.table_id, l.n, l.entry FROM table_log l JOIN tables t ON t.id = l.table_id "
    "WHERE t.closed_at IS NULL ORDER BY l.table_id, l.n"
)

# one small real write: does the database take writes again? (one row per kind of store)
PROBE = "INSERT INTO store_probe (name, at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET at = excluded.at"

# players
NEW_PLAYER = "INSERT INTO players (token_hash, name, created_at, last_seen) VALUES (?, ?, ?, ?) RETURNING id"
SEEN_PLAYER = "UPDATE players SET name = ?, last_seen = ? WHERE id = ?"
PLAYER_ID = "SELECT player_id FROM devices WHERE token_hash = ?"  # every token is a device of its player
PLAYER = "SELECT p.id, p.name FROM devices d JOIN players p ON p.id = d.player_id WHERE d.token_hash = ?"
NEW_DEVICE = "INSERT INTO devices (token_hash, player_id, label, created_at, last_seen) VALUES (?, ?, ?, ?, ?)"
SEEN_DEVICE = "UPDATE devices SET last_seen = ? WHERE token_hash = ?"
DEVICES_OF = "SELECT token_hash, label, created_at, last_seen FROM devices WHERE player_id = ? ORDER BY created_at"
DROP_DEVICE = "DELETE FROM devices WHERE player_id = ? AND substr(token_hash, 1, 16) = ?"
NEW_DEVICE_CODE = "INSERT INTO device_codes (code_hash, player_id, expires_at) VALUES (?, ?, ?)"
TAKE_DEVICE_CODE = (  # once: the first use marks it used; an expired or used code gives no row
    "UPDATE device_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING player_id"
)
PLAYER_NAME = "SELECT name FROM players WHERE id = ?"

# finished games: the columns of the rows ``records.game_rows`` builds
GAME_COLUMNS = (
    "id", "code", "variant", "options", "started_at", "finished_at", "hands", "winners", "table_id", "deal", "share",
    "seats", "events", "daily",
)  # fmt: skip
SEAT_COLUMNS = ("game_id", "seat", "player_id", "kind", "name", "level", "final_total", "won")
HAND_COLUMNS = ("game_id", "hand_no", "seat", "points", "score", "total", "moon")
TOPPER_COLUMNS = ("game_id", "seat", "kind")
PLAYER_COLUMNS = ("game_id", "player_id")
DAILY_COLUMNS = ("day", "player_id", "game_id", "total", "finished_at")


def insert(table: str, columns: tuple[str, ...], once: bool = False) -> str:
    """Return the INSERT of one row of ``columns``; ``once``: a row that is already there is skipped."""
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    return sql + " ON CONFLICT DO NOTHING" if once else sql


INSERT_GAME = insert("games", GAME_COLUMNS)
INSERT_SEAT = insert("game_seats", SEAT_COLUMNS)
INSERT_HAND = insert("game_hands", HAND_COLUMNS)
INSERT_TOPPER = insert("game_toppers", TOPPER_COLUMNS)
INSERT_PLAYER = insert("game_players", PLAYER_COLUMNS, once=True)  # a player may have held two seats
INSERT_DAILY = insert("daily_entries", DAILY_COLUMNS, once=True)  # only the first finished daily game counts


def values(row: dict, columns: tuple[str, ...]) -> tuple:
    """Return the values of ``row`` in the order of ``columns``."""
    return tuple(row[c] for c in columns)


# stats, games, replays
STATS_GAMES = (
    "SELECT gs.final_total, gs.won, g.variant FROM game_seats gs JOIN games g ON g.id = gs.game_id "
    "WHERE gs.player_id = ? ORDER BY g.finished_at, g.id, gs.seat"
)
STATS_HANDS = (  # per variant: hands, points scored, moons shot
    "SELECT g.variant, COUNT(*), COALESCE(SUM(gh.score), 0), COALESCE(SUM(gh.moon), 0) FROM game_hands gh "
    "JOIN game_seats gs ON gs.game_id = gh.game_id AND gs.seat = gh.seat JOIN games g ON g.id = gh.game_id "
    "WHERE gs.player_id = ? GROUP BY g.variant"
)
STATS_TOPPERS = (
    "SELECT g.variant, gt.kind, COUNT(*) FROM game_toppers gt JOIN game_seats gs ON gs.game_id = gt.game_id "
    "AND gs.seat = gt.seat JOIN games g ON g.id = gt.game_id WHERE gs.player_id = ? GROUP BY g.variant, gt.kind"
)
GAMES_OF = (
    "SELECT g.id, g.code, g.variant, g.options, g.deal, g.finished_at, g.hands, g.share, g.seats, "
    "g.winners, g.daily FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE gp.player_id = ? "
    "ORDER BY g.finished_at DESC, g.id DESC LIMIT ?"
)
GAME_SEATS = "SELECT seat, player_id, kind, name, final_total, won FROM game_seats WHERE game_id = ? ORDER BY seat"
FINISHED_GAME = "SELECT * FROM games WHERE id = ? AND events IS NOT NULL"
GAME_BY_SHARE = "SELECT * FROM games WHERE share = ? AND events IS NOT NULL"
GAME_OF_PLAYER = (
    "SELECT g.* FROM games g JOIN game_players gp ON gp.game_id = g.id "
    "WHERE g.id = ? AND gp.player_id = ? AND g.events IS NOT NULL"
)

# the daily deal
SEAT_OF_PLAYER = "SELECT seat FROM game_seats WHERE game_id = ? AND player_id = ?"
SAVE_REVIEW = "INSERT INTO reviews (key, body, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
REVIEW = "SELECT body FROM reviews WHERE key = ?"
NEW_SERVER_KEY = insert("server_keys", ("name", "value"), once=True)
SERVER_KEY = "SELECT value FROM server_keys WHERE name = ?"
DAILY_PLAYED = "SELECT 1 FROM daily_entries WHERE day = ? AND player_id = ?"
DAILY_TOP = (
    "SELECT p.name, d.total, d.player_id FROM daily_entries d JOIN players p ON p.id = d.player_id "
    "WHERE d.day = ? ORDER BY d.total, d.finished_at, d.game_id LIMIT ?"
)
DAILY_MINE = "SELECT total FROM daily_entries WHERE day = ? AND player_id = ?"
DAILY_BETTER = "SELECT COUNT(*) FROM daily_entries WHERE day = ? AND total < ?"

# ratings (server.table.ratings), the leaderboards and reports
RATINGS_OF = "SELECT player_id, mu, sigma, games FROM ratings WHERE family = ? AND player_id IN ({})"
SAVE_RATING = (
    "INSERT INTO ratings (player_id, family, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (player_id, family) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "games = excluded.games, updated_at = excluded.updated_at"
)
RATING_CHANGE = insert("rating_changes", ("game_id", "player_id", "family", "place", "left_early", "mu", "sigma", "at"))
RATING_MOVES = (  # each person's μ after a game and after their game before it in the family (NULL: their first)
    "SELECT rc.player_id, rc.mu, (SELECT b.mu FROM rating_changes b WHERE b.player_id = rc.player_id "
    "AND b.family = rc.family AND (b.at < rc.at OR (b.at = rc.at AND b.game_id < rc.game_id)) "
    "ORDER BY b.at DESC, b.game_id DESC LIMIT 1) FROM rating_changes rc WHERE rc.game_id = ?"
)
PLAYER_RATINGS = "SELECT family, mu, sigma, games FROM ratings WHERE player_id = ? ORDER BY family"
BOARD_ALL = (
    "SELECT r.player_id, p.name, r.mu, r.sigma, r.games FROM ratings r JOIN players p ON p.id = r.player_id "
    "WHERE r.family = ? AND r.games >= ?"
)
BOARD_WEEK = (
    "SELECT r.player_id, p.name, r.mu, r.sigma, w.n FROM (SELECT player_id, COUNT(*) AS n FROM rating_changes "
    "WHERE family = ? AND at >= ? GROUP BY player_id) w JOIN ratings r ON r.player_id = w.player_id "
    "AND r.family = ? JOIN players p ON p.id = r.player_id WHERE w.n >= ?"
)
# rating the stored games again with another model (``SqlStore.rerate``)
TAKE_RATING_MODEL = "UPDATE rating_model SET name = ? WHERE id = 1 AND name <> ? RETURNING name"
RATED_GAMES = (  # every rated game's places, in the order the games were rated
    "SELECT rc.game_id, rc.player_id, rc.family, rc.place, rc.at, g.options FROM rating_changes rc "
    "JOIN games g ON g.id = rc.game_id ORDER BY rc.at, rc.game_id, rc.player_id"
)
RATED_SEATS = (
    "SELECT gs.game_id, gs.player_id, gs.seat FROM game_seats gs JOIN rating_changes rc "
    "ON rc.game_id = gs.game_id AND rc.player_id = gs.player_id"
)
RERATE_CHANGE = "UPDATE rating_changes SET mu = ?, sigma = ? WHERE game_id = ? AND player_id = ?"
CLEAR_RATINGS = "DELETE FROM ratings"
BOARD_ALL_PROVISIONAL = (  # those with fewer than the minimum of rated games, best first
    "SELECT r.player_id, p.name, r.mu, r.sigma, r.games FROM ratings r JOIN players p ON p.id = r.player_id "
    "WHERE r.family = ? AND r.games < ? ORDER BY r.mu - 3 * r.sigma DESC, r.player_id LIMIT ?"
)
BOARD_WEEK_PROVISIONAL = (
    "SELECT r.player_id, p.name, r.mu, r.sigma, w.n FROM (SELECT player_id, COUNT(*) AS n FROM rating_changes "
    "WHERE family = ? AND at >= ? GROUP BY player_id) w JOIN ratings r ON r.player_id = w.player_id "
    "AND r.family = ? JOIN players p ON p.id = r.player_id WHERE w.n < ? "
    "ORDER BY r.mu - 3 * r.sigma DESC, r.player_id LIMIT ?"
)
REPORT_COLUMNS = ("id", "at", "table_code", "reporter_id", "reported_id", "reported_name", "reason", "chat")
NEW_REPORT = insert("reports", REPORT_COLUMNS)
REPORTS = "SELECT * FROM reports ORDER BY at DESC LIMIT ?"

# pruning: a player who never finished a game, not seen since the cutoff, on one device at most, in no report
_NEVER_PLAYED = (
    "p.last_seen < ? AND NOT EXISTS (SELECT 1 FROM game_players g WHERE g.player_id = p.id) "
    "AND (SELECT COUNT(*) FROM devices d WHERE d.player_id = p.id) <= 1 "
    "AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.reporter_id = p.id) "
    "AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.reported_id = p.id)"
)
PRUNABLE_PLAYERS = (  # (cutoff, last_seen, id) of the last one looked at, how many: in last_seen order
    f"SELECT p.id, p.last_seen FROM players p WHERE {_NEVER_PLAYED} AND (p.last_seen, p.id) > (?, ?) "
    "ORDER BY p.last_seen, p.id LIMIT ?"
)
PRUNE_PLAYER = f"DELETE FROM players WHERE id = ? AND id IN (SELECT p.id FROM players p WHERE {_NEVER_PLAYED})"
PRUNE_DEVICES = "DELETE FROM devices WHERE player_id = ? AND NOT EXISTS (SELECT 1 FROM players p WHERE p.id = ?)"
PRUNE_CODES = "DELETE FROM device_codes WHERE player_id = ? AND NOT EXISTS (SELECT 1 FROM players p WHERE p.id = ?)"
#: who sits at an open table (its log's seated entries name them): never pruned, however long ago they said hello
SEATED_AT_OPEN = (
    "SELECT l.entry FROM tables t JOIN table_log l ON l.table_id = t.id "
    "WHERE t.closed_at IS NULL AND l.entry LIKE '%\"player_id\":%'"
)
# a table closed before the cutoff whose log never started a game (nor was damaged: the operator may want to look)
PRUNABLE_TABLES = (  # (cutoff, closed_at, id) of the last one looked at, how many: in closing order
    "SELECT t.id, t.closed_at FROM tables t WHERE t.closed_at IS NOT NULL AND t.closed_at < ? AND t.damaged IS NULL "
    "AND (t.closed_at, t.id) > (?, ?) AND NOT EXISTS (SELECT 1 FROM games g WHERE g.table_id = t.id) "
    "AND NOT EXISTS (SELECT 1 FROM table_log l WHERE l.table_id = t.id "
    'AND (l.entry LIKE \'{"type":"start"%\' OR l.entry LIKE \'{"k":"start"%\')) '
    "ORDER BY t.closed_at, t.id LIMIT ?"
)
PRUNE_TABLE_LOG = "DELETE FROM table_log WHERE table_id = ?"
PRUNE_TABLE_LEASE = "DELETE FROM table_leases WHERE table_id = ?"
PRUNE_TABLE = "DELETE FROM tables WHERE id = ? AND closed_at IS NOT NULL"

_PLACEHOLDER = re.compile(r"\?")


@lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """Return ``sql`` with its ``?`` placeholders numbered ``$1, $2, ...`` (PostgreSQL); no SQL here quotes a ``?``."""
    count = iter(range(1, sql.count("?") + 1))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", sql)
