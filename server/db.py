"""SQLite persistence with aiosqlite: numbered migrations, players, finished games and per-player stats."""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")
MIGRATION_FILE = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer server than this one."""


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


class Database:
    """One aiosqlite connection; every write goes through ``_write`` (one transaction, one lock)."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str, folder: Path | None = None) -> Database:
        """Open (or create) the database at ``path`` and apply pending migrations; refuse a newer schema."""
        migrations = load_migrations(folder or migrations_dir())
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA journal_mode=WAL")
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
        """Close the connection."""
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

    async def player(self, name: str, token: str | None) -> tuple[int, str, str]:
        """Return ``(id, token, name)`` of the player with ``token`` (renamed to ``name``), or of a new player."""
        now = time.time()
        if token:
            async with self.conn.execute("SELECT id FROM players WHERE token = ?", (token,)) as cur:
                row = await cur.fetchone()
            if row is not None:
                pid = row[0]

                async def rename(conn: aiosqlite.Connection) -> None:
                    await conn.execute("UPDATE players SET name = ?, last_seen = ? WHERE id = ?", (name, now, pid))

                await self._write(rename)
                return pid, token, name
        token = secrets.token_urlsafe(24)

        async def insert(conn: aiosqlite.Connection) -> int:
            cur = await conn.execute(
                "INSERT INTO players (token, name, created_at, last_seen) VALUES (?, ?, ?, ?)", (token, name, now, now)
            )
            return cur.lastrowid

        return await self._write(insert), token, name

    async def record_game(self, record: dict[str, Any]) -> int:
        """Store one finished game: options, seats with final totals and winners, and every hand's scores."""
        winners = record["winners"]

        async def insert(conn: aiosqlite.Connection) -> int:
            cur = await conn.execute(
                "INSERT INTO games (code, variant, options, started_at, finished_at, hands, winners) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    record["code"],
                    record["options"]["variant"],
                    json.dumps(record["options"], sort_keys=True),
                    record["started_at"],
                    record["finished_at"],
                    len(record["history"]),
                    json.dumps(winners),
                ),
            )
            game_id = cur.lastrowid
            for s in record["seats"]:
                await conn.execute(
                    "INSERT INTO game_seats (game_id, seat, player_id, kind, name, level, final_total, won) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        s["seat"],
                        s["player_id"],
                        s["kind"],
                        s["name"],
                        s["level"],
                        record["totals"][s["seat"]],
                        int(s["seat"] in winners),
                    ),
                )
            for h in record["history"]:
                for seat in range(4):
                    await conn.execute(
                        "INSERT INTO game_hands (game_id, hand_no, seat, points, score, total, moon) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (
                            game_id,
                            h["hand_no"],
                            seat,
                            h["points"][seat],
                            h["scores"][seat],
                            h["totals"][seat],
                            int(h["moon"] == seat),
                        ),
                    )
            return game_id

        return await self._write(insert)

    async def stats(self, token: str) -> dict[str, Any] | None:
        """Return the stats of the player with ``token`` (None if unknown)."""
        async with self._lock:  # one connection: never read a half-written game
            return await self._stats(token)

    async def _stats(self, token: str) -> dict[str, Any] | None:
        async with self.conn.execute("SELECT id, name FROM players WHERE token = ?", (token,)) as cur:
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
        }
