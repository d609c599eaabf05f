"""Players and their devices in SQL: hellos (new and returning, cached), one-time device codes, sign-outs."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from ..table.tokens import token_hash
from . import sql
from .sql_query import Query, SqlAccess, one_value
from .store import PlayerWrite

log = logging.getLogger("hearts.store")
PLAYER_CACHE = 200_000  # returning players' ids kept in memory (about 30 MB at most)


def _seen_stored(done: asyncio.Future) -> None:
    """A returning player's name and visit were stored, or not (then the next hello stores them)."""
    if not done.cancelled() and done.exception() is not None:
        log.debug("a returning player's visit was not stored: %s", done.exception())


class Players:
    """``SqlStore.players``: players' ids by token (cached) and the devices that hold them."""

    def __init__(self, db: SqlAccess) -> None:
        self.db = db
        self._player_ids: dict[str, int] = {}  # token hash -> player id, for returning players

    # ------------------------------------------------------------------ players

    async def player(self, name: str, token: str | None) -> tuple[int, str, str]:
        """Return ``(id, token, name)`` of the player with ``token`` (renamed to ``name``), or of a new player."""
        found = await self.returning(name, token) if token else None
        if found is not None:
            return found
        now = time.time()
        token = secrets.token_urlsafe(24)
        write = PlayerWrite(token_hash(token), name, now, new=True)
        await self.db.commits.submit(write)  # a new player shares a transaction with whatever else is queued
        pid = write.stored_id()
        self._remember(write.token_hash, pid)
        return pid, token, name

    async def returning(self, name: str, token: str) -> tuple[int, str, str] | None:
        """Return ``(id, token, name)`` of the player with ``token`` (renamed to ``name``), or None (nothing stored)."""
        hashed = token_hash(token)
        pid = self._player_ids.get(hashed)
        if pid is None:
            row = await self.db._peek(sql.PLAYER_ID, hashed)
            pid = row[0] if row is not None else None
        if pid is None:
            return None
        self._remember(hashed, pid)
        # the name and last visit go with the next group commit, not waited for: a returning player is welcomed even
        # while the database does not take writes (a lock, a full disk)
        self.db.commits.submit(PlayerWrite(hashed, name, time.time(), pid)).add_done_callback(_seen_stored)
        return pid, token, name

    def _remember(self, hashed: str, pid: int) -> None:
        """Cache a returning player's id by token hash (bounded)."""
        if len(self._player_ids) >= PLAYER_CACHE:
            self._player_ids.clear()  # bounded: forgetting only costs one read on a player's next hello
        self._player_ids[hashed] = pid

    # ------------------------------------------------------------------ devices

    async def new_device_code(self, player_id: int, code: str, expires_at: float) -> None:
        """Keep a one-time code (its hash) that moves ``player_id`` to another device until ``expires_at``."""
        await self.db._write(lambda q: q.execute(sql.NEW_DEVICE_CODE, token_hash(code), player_id, expires_at))

    async def use_device_code(self, code: str, label: str, now: float) -> tuple[int, str, str] | None:
        """Use a code once: a new device token for its player; return ``(id, token, name)``, or None if not valid."""
        token = secrets.token_urlsafe(24)

        async def body(q: Query) -> tuple[int, str, str] | None:
            row = await q.one(sql.TAKE_DEVICE_CODE, now, token_hash(code), now)
            if row is None:
                return None
            pid = row[0]
            await q.execute(sql.NEW_DEVICE, token_hash(token), pid, label, now, now)
            return pid, token, await one_value(q, sql.PLAYER_NAME, pid)

        return await self.db._write(body)

    async def devices(self, player_id: int) -> list[dict[str, Any]]:
        """Return the devices that hold ``player_id``: id (the start of the token's hash), label, times."""
        rows = await self.db._read(lambda q: q.rows(sql.DEVICES_OF, player_id))
        return [{"id": h[:16], "label": label, "created_at": c, "last_seen": seen} for h, label, c, seen in rows]

    async def drop_device(self, player_id: int, device: str) -> None:
        """Sign device ``device`` (an id from ``devices``) out of ``player_id``: its token no longer holds them."""
        await self.db._write(lambda q: q.execute(sql.DROP_DEVICE, player_id, device))
        self.forget_device(player_id, device)

    def forget_device(self, player_id: int, device: str) -> None:
        """Drop a signed-out device from the cache of returning players (here, or told by another node)."""
        self._player_ids = {h: p for h, p in self._player_ids.items() if not (p == player_id and h[:16] == device)}

    def forget_players(self) -> None:
        """Forget every cached token (a node that may have missed a sign-out: the next hello reads the database)."""
        self._player_ids = {}

    def forget_ids(self, dropped: set[int]) -> None:
        """Forget the cached tokens of the players ``dropped`` (pruned)."""
        self._player_ids = {h: p for h, p in self._player_ids.items() if p not in dropped}

    async def player_id(self, token: str) -> int | None:
        """Return the id of the player with ``token``, or None."""
        row = await self.db._peek(sql.PLAYER_ID, token_hash(token))
        return row[0] if row is not None else None
