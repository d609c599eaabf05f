"""Replays, reports, reviews, the server's secrets and the daily deal's board in SQL."""

from __future__ import annotations

import secrets
import time
from typing import Any

from ..table.records import daily_place, games_list_item
from ..table.tokens import token_hash
from . import sql
from .sql_query import Query, SqlAccess, one_value


class Replays:
    """``SqlStore.replays``: stored games served back (lists, replays, reviews), reports, the daily board."""

    def __init__(self, db: SqlAccess) -> None:
        self.db = db

    async def save_report(self, report: dict[str, Any]) -> None:
        """Keep one player's report of another for the operator."""
        await self.db._write(lambda q: q.execute(sql.NEW_REPORT, *sql.values(report, sql.REPORT_COLUMNS)))

    async def reports(self, limit: int = 100) -> list[dict[str, Any]]:
        """Return the latest reports, newest first (``hearts reports``)."""
        return await self.db._read(lambda q: q.dicts(sql.REPORTS, limit))

    async def games_of(self, token: str, limit: int = 100) -> list[dict[str, Any]] | None:
        """Return the finished games the player with ``token`` sat in, most recent first (None if unknown)."""

        async def body(q: Query) -> list[dict[str, Any]] | None:
            row = await q.one(sql.PLAYER_ID, token_hash(token))
            if row is None:
                return None
            pid = row[0]
            out = []
            for g in await q.dicts(sql.GAMES_OF, pid, limit):
                out.append(games_list_item(g, await q.dicts(sql.GAME_SEATS, g["id"]), pid))
            return out

        return await self.db._read(body)

    async def game(self, game_id: int, token: str | None = None, share: str | None = None) -> dict[str, Any] | None:
        """Return the stored game ``game_id`` for a player who sat in it, or by its share key; else None."""

        async def body(q: Query) -> dict[str, Any] | None:
            if share is not None:
                found = await q.dicts(sql.GAME_BY_SHARE, share)
            else:
                row = await q.one(sql.PLAYER_ID, token_hash(token)) if token else None
                if row is None:
                    return None
                found = await q.dicts(sql.GAME_OF_PLAYER, game_id, row[0])
            return found[0] if found else None

        return await self.db._read(body)

    # ------------------------------------------------------------------ daily deal

    async def finished_game(self, game_id: int) -> dict[str, Any] | None:
        """Return the stored finished game ``game_id`` with its events (for the operator's tools), or None."""
        rows = await self.db._read(lambda q: q.dicts(sql.FINISHED_GAME, game_id))
        return rows[0] if rows else None

    async def game_and_seat(self, game_id: int, token: str) -> tuple[dict[str, Any], int, int] | None:
        """Return (stored game, the player's seat in it, player id) for the player with ``token``; else None."""

        async def body(q: Query) -> tuple[dict[str, Any], int, int] | None:
            row = await q.one(sql.PLAYER_ID, token_hash(token))
            if row is None:
                return None
            games = await q.dicts(sql.GAME_OF_PLAYER, game_id, row[0])
            seat = await q.one(sql.SEAT_OF_PLAYER, game_id, row[0]) if games else None
            return (games[0], seat[0], row[0]) if seat is not None else None

        return await self.db._read(body)

    async def review(self, key: str) -> str | None:
        """Return the cached review (JSON text) stored under ``key``, or None."""
        row = await self.db._peek(sql.REVIEW, key)
        return row[0] if row is not None else None

    async def save_review(self, key: str, body: str) -> None:
        """Cache a review under ``key`` (the first one stored stays: reviews are deterministic)."""
        await self.db._write(lambda q: q.execute(sql.SAVE_REVIEW, key, body, time.time()))

    async def server_key(self, name: str) -> str:
        """Return the server's secret ``name`` (made once, at random, and kept)."""
        found = await self.db._peek(sql.SERVER_KEY, name)  # a read: a server starts while the database takes no writes
        if found is not None:
            return found[0]

        async def body(q: Query) -> str:
            await q.execute(sql.NEW_SERVER_KEY, name, secrets.token_hex(32))
            return await one_value(q, sql.SERVER_KEY, name)

        return await self.db._write(body)

    async def daily_played(self, day: str, player_id: int) -> bool:
        """Return True if the player already has a counted daily game on ``day``."""
        return await self.db._read(lambda q: q.one(sql.DAILY_PLAYED, day, player_id)) is not None

    async def daily_board(self, day: str, token: str | None, limit: int = 50) -> dict[str, Any]:
        """Return the counted final totals of ``day``'s daily deal, lowest first, and the asker's place."""

        async def body(q: Query) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
            top = await q.dicts(sql.DAILY_TOP, day, limit)
            row = await q.one(sql.PLAYER_ID, token_hash(token)) if token else None
            mine = await q.one(sql.DAILY_MINE, day, row[0]) if row is not None else None
            if mine is None:
                return top, None
            better = await one_value(q, sql.DAILY_BETTER, day, mine[0])
            return top, {"place": better + 1, "total": mine[0]}

        return daily_place(*await self.db._read(body))
