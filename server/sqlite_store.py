"""The SQLite store (aiosqlite): numbered migrations, group-committed table logs, players, games, daily boards."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .records import daily_place, game_rows, games_list_item
from .store import GroupCommit, PlayerWrite, SchemaTooNew, Store, StoredTable, TableWrite, token_hash

T = TypeVar("T")
PLAYER_CACHE = 200_000  # returning players' ids kept in memory (about 30 MB at most)
MIGRATION_FILE = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


def _sha256_hex(text: str | None) -> str | None:
    return token_hash(text) if text is not None else None


def migrations_dir() -> Path:
    """Return the folder of numbered SQL files (``HEARTS_MIGRATIONS_DIR`` or ``migrations/`` in the checkout)."""
    env = os.environ.get("HEARTS_MIGRATIONS_DIR")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "migrations"


def load_migrations(folder: Path) -> list[tuple[int, str, str]]:
    """Return ``(version, name, sql)`` for every ``NNN_name.sql`` in ``folder``, in order; versions must be 1..N."""
    found = []
    for path in sorted(folder.glob("*.sql")):
        match = MIGRATION_FILE.match(path.name)
        if not match:
            raise RuntimeError(f"migration file {path.name!r} is not named NNN_name.sql")
        found.append((int(match.group(1)), match.group(2), path.read_text(encoding="utf-8")))
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations in {folder} must be numbered 001, 002, ... without gaps; found {versions}")
    return found


APPEND_ROWS_MAX = 3000  # three bound values a row: well under SQLite's limit of 32,766 per statement


@lru_cache(maxsize=64)
def _append_sql(rows: int) -> str:
    """The one INSERT statement that appends ``rows`` table-log entries."""
    return "INSERT INTO table_log (table_id, n, entry) VALUES " + ",".join(["(?, ?, ?)"] * rows)


class SQLiteStore(Store):
    """One aiosqlite connection; every write goes through ``_write`` (one transaction, one lock)."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self.commits = GroupCommit(self._write_batch)
        self._player_ids: dict[str, int] = {}  # token hash -> player id, for returning players

    @classmethod
    async def open(cls, path: str, folder: Path | None = None) -> SQLiteStore:
        """Open (or create) the database at ``path`` and apply pending migrations; refuse a newer schema."""
        migrations = load_migrations(folder or migrations_dir())
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.create_function("sha256_hex", 1, _sha256_hex, deterministic=True)
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            db = cls(conn, path)
            await db._migrate(migrations)
        except BaseException:
            await conn.close()
            raise
        return db

    async def _migrate(self, migrations: list[tuple[int, str, str]]) -> None:
        await self.conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
            "applied_at REAL NOT NULL)"
        )
        async with self.conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
            current = (await cur.fetchone())[0]
        known = len(migrations)
        if current > known:
            raise SchemaTooNew(
                f"database {self.path} has schema version {current}, newer than this server knows ({known}); "
                "upgrade the server"
            )
        for version, name, sql in migrations[current:]:
            try:
                await self.conn.executescript(
                    f"BEGIN;\n{sql}\n;INSERT INTO schema_migrations (version, name, applied_at) "
                    f"VALUES ({version}, '{name}', {time.time()});\nCOMMIT;"
                )
            except BaseException:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        """Return the highest applied migration number."""
        async with self.conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
            return (await cur.fetchone())[0]

    async def close(self) -> None:
        """Commit what is queued, then close the connection."""
        await self.commits.close()
        await self.conn.close()

    async def _write(self, body: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run ``body(conn)`` in one write transaction: the only path that changes the database."""
        async with self._lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                result = await body(self.conn)
                await self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                raise
            return result


    # ------------------------------------------------------------------ table logs

    def submit(self, write: TableWrite) -> asyncio.Future:
        """Queue ``write``; it commits with whatever other tables queued meanwhile (group commit)."""
        return self.commits.submit(write)

    async def _write_batch(self, batch: list[TableWrite | PlayerWrite]) -> None:
        if all(type(w) is TableWrite and w.only_appends() for w in batch):
            rows = [(w.table_id, n, text) for w in batch for n, text in w.entries]
            if len(rows) <= APPEND_ROWS_MAX:
                # the common case in play: one statement is one transaction, and one trip to the database thread
                # (BEGIN, INSERT and COMMIT would be three)
                async with self._lock:
                    await self.conn.execute(_append_sql(len(rows)), [v for row in rows for v in row])
                return
        players = [w for w in batch if isinstance(w, PlayerWrite)]
        batch = [w for w in batch if isinstance(w, TableWrite)]

        async def body(conn: aiosqlite.Connection) -> None:
            for p in players:  # first: a table write may name a player of the same batch
                if p.new:  # (again, if a failed batch rolled the first insert back)
                    cur = await conn.execute(
                        "INSERT INTO players (token_hash, name, created_at, last_seen) VALUES (?, ?, ?, ?)",
                        (p.token_hash, p.name, p.seen_at, p.seen_at),
                    )
                    p.player_id = cur.lastrowid
                else:
                    await conn.execute(
                        "UPDATE players SET name = ?, last_seen = ? WHERE id = ?", (p.name, p.seen_at, p.player_id)
                    )
            for w in batch:
                if w.opened_at is not None:
                    await conn.execute(
                        "INSERT INTO tables (id, code, opened_at) VALUES (?, ?, ?)", (w.table_id, w.code, w.opened_at)
                    )
            rows = [(w.table_id, n, text) for w in batch for n, text in w.entries]
            if rows:
                await conn.executemany("INSERT INTO table_log (table_id, n, entry) VALUES (?, ?, ?)", rows)
            for w in batch:
                if w.finished is not None:
                    await self._insert_game(conn, w.finished)
                if w.closed_at is not None:
                    await conn.execute("UPDATE tables SET closed_at = ? WHERE id = ?", (w.closed_at, w.table_id))

        await self._write(body)

    async def open_tables(self) -> list[StoredTable]:
        """Return every open table's log, oldest table first."""
        async with self._lock:
            async with self.conn.execute(
                "SELECT id, code FROM tables WHERE closed_at IS NULL ORDER BY opened_at, id"
            ) as cur:
                found = {row[0]: StoredTable(row[0], row[1]) for row in await cur.fetchall()}
            if not found:
                return []
            async with self.conn.execute(
                "SELECT l.table_id, l.n, l.entry FROM table_log l JOIN tables t ON t.id = l.table_id "
                "WHERE t.closed_at IS NULL ORDER BY l.table_id, l.n"
            ) as cur:
                cur.row_factory = None  # plain tuples: a quarter of a million rows after a busy day
                rows = await cur.fetchall()
        for table_id, n, entry in rows:
            stored = found[table_id]
            stored.entries.append(entry)
            if n != len(stored.entries):
                stored.gaps = True
        return list(found.values())

    async def mark_damaged(self, table_id: str, why: str) -> None:
        """Close a table whose log cannot be replayed."""

        async def body(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE tables SET closed_at = ?, damaged = ? WHERE id = ?", (time.time(), why[:500], table_id)
            )

        await self._write(body)

    # ------------------------------------------------------------------ players

    async def player(self, name: str, token: str | None) -> tuple[int, str, str]:
        """Return ``(id, token, name)`` of the player with ``token`` (renamed to ``name``), or of a new player."""
        now = time.time()
        if token:
            hashed = token_hash(token)
            pid = self._player_ids.get(hashed)
            if pid is None:
                async with self.conn.execute("SELECT id FROM players WHERE token_hash = ?", (hashed,)) as cur:
                    row = await cur.fetchone()
                pid = row[0] if row is not None else None
            if pid is not None:
                self._remember(hashed, pid)
                await self.commits.submit(PlayerWrite(hashed, name, now, pid))  # shares the next group commit
                return pid, token, name
        token = secrets.token_urlsafe(24)
        write = PlayerWrite(token_hash(token), name, now, new=True)
        await self.commits.submit(write)  # a new player shares a transaction with whatever else is queued
        self._remember(write.token_hash, write.player_id)
        return write.player_id, token, name

    def _remember(self, hashed: str, pid: int) -> None:
        if len(self._player_ids) >= PLAYER_CACHE:
            self._player_ids.clear()  # bounded: forgetting only costs one read on a player's next hello
        self._player_ids[hashed] = pid

    async def player_id(self, token: str) -> int | None:
        """Return the id of the player with ``token``, or None."""
        async with self.conn.execute("SELECT id FROM players WHERE token_hash = ?", (token_hash(token),)) as cur:
            row = await cur.fetchone()
        return row[0] if row is not None else None

    # ------------------------------------------------------------------ finished games

    async def _insert_game(self, conn: aiosqlite.Connection, record: dict[str, Any]) -> None:
        rows = game_rows(record)
        await conn.execute(
            "INSERT INTO games (id, code, variant, options, started_at, finished_at, hands, winners, table_id, deal, "
            "share, seats, events) VALUES (:id, :code, :variant, :options, :started_at, :finished_at, :hands, "
            ":winners, :table_id, :deal, :share, :seats, :events)",
            rows["game"],
        )
        await conn.executemany(
            "INSERT INTO game_seats (game_id, seat, player_id, kind, name, level, final_total, won) "
            "VALUES (:game_id, :seat, :player_id, :kind, :name, :level, :final_total, :won)",
            rows["seats"],
        )
        await conn.executemany(
            "INSERT INTO game_hands (game_id, hand_no, seat, points, score, total, moon) "
            "VALUES (:game_id, :hand_no, :seat, :points, :score, :total, :moon)",
            rows["hands"],
        )
        await conn.executemany(
            "INSERT INTO game_toppers (game_id, seat, kind) VALUES (:game_id, :seat, :kind)", rows["toppers"]
        )
        await conn.executemany(
            "INSERT OR IGNORE INTO game_players (game_id, player_id) VALUES (:game_id, :player_id)", rows["players"]
        )
        if rows["daily"] is not None:
            await conn.execute(
                "INSERT OR IGNORE INTO daily_entries (day, player_id, game_id, total, finished_at) "
                "VALUES (:day, :player_id, :game_id, :total, :finished_at)",
                rows["daily"],
            )

    async def record_game(self, record: dict[str, Any]) -> None:
        """Store one finished game outside a table write (tests and tools)."""

        async def body(conn: aiosqlite.Connection) -> None:
            await self._insert_game(conn, record)

        await self._write(body)

    async def stats(self, token: str) -> dict[str, Any] | None:
        """Return the stats of the player with ``token`` (None if unknown)."""
        async with self._lock:  # one connection: never read a half-written game
            return await self._stats(token)

    async def _stats(self, token: str) -> dict[str, Any] | None:
        async with self.conn.execute("SELECT id, name FROM players WHERE token_hash = ?", (token_hash(token),)) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        pid, name = row[0], row[1]
        async with self.conn.execute(
            "SELECT gs.final_total, gs.won FROM game_seats gs JOIN games g ON g.id = gs.game_id "
            "WHERE gs.player_id = ? ORDER BY g.finished_at, g.id, gs.seat",
            (pid,),
        ) as cur:
            games = await cur.fetchall()
        async with self.conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(gh.score), 0), COALESCE(SUM(gh.moon), 0) FROM game_hands gh "
            "JOIN game_seats gs ON gs.game_id = gh.game_id AND gs.seat = gh.seat WHERE gs.player_id = ?",
            (pid,),
        ) as cur:
            hands, scored, moons = await cur.fetchone()
        async with self.conn.execute(
            "SELECT gt.kind, COUNT(*) FROM game_toppers gt JOIN game_seats gs ON gs.game_id = gt.game_id "
            "AND gs.seat = gt.seat WHERE gs.player_id = ? GROUP BY gt.kind",
            (pid,),
        ) as cur:
            toppers = {kind: n for kind, n in await cur.fetchall()}
        streak = best = 0
        for g in games:
            streak = streak + 1 if g[1] else 0
            best = max(best, streak)
        played = len(games)
        won = sum(g[1] for g in games)
        return {
            "name": name,
            "games_played": played,
            "games_won": won,
            "win_pct": round(100 * won / played, 1) if played else 0.0,
            "lowest_score": min((g[0] for g in games), default=None),
            "current_streak": streak,
            "best_streak": best,
            "moons": moons,
            "hands": hands,
            "avg_points_per_hand": round(scored / hands, 2) if hands else None,
            "toppers": toppers,
        }

    async def games_of(self, token: str, limit: int = 100) -> list[dict[str, Any]] | None:
        """Return the finished games the player with ``token`` sat in, most recent first (None if unknown)."""
        async with self._lock:
            pid = await self.player_id(token)
            if pid is None:
                return None
            async with self.conn.execute(
                "SELECT g.id, g.code, g.variant, g.options, g.deal, g.finished_at, g.hands, g.share, g.seats, "
                "g.winners FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE gp.player_id = ? "
                "ORDER BY g.finished_at DESC, g.id DESC LIMIT ?",
                (pid, limit),
            ) as cur:
                games = [dict(row) for row in await cur.fetchall()]
            out = []
            for g in games:
                async with self.conn.execute(
                    "SELECT seat, player_id, kind, name, final_total, won FROM game_seats WHERE game_id = ? "
                    "ORDER BY seat",
                    (g["id"],),
                ) as cur:
                    seats = [dict(row) for row in await cur.fetchall()]
                out.append(games_list_item(g, seats, pid))
            return out

    async def game(self, game_id: int, token: str | None = None, share: str | None = None) -> dict[str, Any] | None:
        """Return the stored game ``game_id`` for a player who sat in it, or by its share key; else None."""
        async with self._lock:
            if share is not None:
                query, args = "SELECT * FROM games WHERE share = ? AND events IS NOT NULL", (share,)
            else:
                pid = await self.player_id(token) if token else None
                if pid is None:
                    return None
                query = (
                    "SELECT g.* FROM games g JOIN game_players gp ON gp.game_id = g.id "
                    "WHERE g.id = ? AND gp.player_id = ? AND g.events IS NOT NULL"
                )
                args = (game_id, pid)
            async with self.conn.execute(query, args) as cur:
                row = await cur.fetchone()
            return dict(row) if row is not None else None

    # ------------------------------------------------------------------ daily deal

    async def server_key(self, name: str) -> str:
        """Return the server's secret ``name`` (made once, at random, and kept)."""

        async def body(conn: aiosqlite.Connection) -> str:
            await conn.execute(
                "INSERT OR IGNORE INTO server_keys (name, value) VALUES (?, ?)", (name, secrets.token_hex(32))
            )
            async with conn.execute("SELECT value FROM server_keys WHERE name = ?", (name,)) as cur:
                return (await cur.fetchone())[0]

        return await self._write(body)

    async def daily_played(self, day: str, player_id: int) -> bool:
        """Return True if the player already has a counted daily game on ``day``."""
        async with self._lock:
            async with self.conn.execute(
                "SELECT 1 FROM daily_entries WHERE day = ? AND player_id = ?", (day, player_id)
            ) as cur:
                return await cur.fetchone() is not None

    async def daily_board(self, day: str, token: str | None, limit: int = 50) -> dict[str, Any]:
        """Return the counted final totals of ``day``'s daily deal, lowest first, and the asker's place."""
        async with self._lock:
            async with self.conn.execute(
                "SELECT p.name, d.total, d.player_id FROM daily_entries d JOIN players p ON p.id = d.player_id "
                "WHERE d.day = ? ORDER BY d.total, d.finished_at, d.game_id LIMIT ?",
                (day, limit),
            ) as cur:
                top = [dict(row) for row in await cur.fetchall()]
            pid = await self.player_id(token) if token else None
            mine = None
            if pid is not None:
                async with self.conn.execute(
                    "SELECT total FROM daily_entries WHERE day = ? AND player_id = ?", (day, pid)
                ) as cur:
                    row = await cur.fetchone()
                if row is not None:
                    async with self.conn.execute(
                        "SELECT COUNT(*) FROM daily_entries WHERE day = ? AND total < ?", (day, row[0])
                    ) as cur:
                        better = (await cur.fetchone())[0]
                    mine = {"place": better + 1, "total": row[0]}
        return daily_place(top, mine)
