"""What the SQLite and PostgreSQL stores share: every query and write, over a small per-database ``Query``."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from abc import abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

from hartenjagen.shared.rules import make_rules

from ..players import rating_model
from ..table import ratings
from ..table.records import daily_place, game_rows, games_list_item, stats_by_variant
from ..table.tokens import token_hash
from . import sql
from .store import GroupCommit, PlayerWrite, Store, StoreBusy, StoredTable, TableWrite

T = TypeVar("T")
log = logging.getLogger("hearts.store")
PLAYER_CACHE = 200_000  # returning players' ids kept in memory (about 30 MB at most)
RATING_MODEL_MIGRATION = 12  # the migration that records which rating model made the stored ratings


class Query(Protocol):
    """One database connection as the shared code uses it; SQL comes with ``?`` placeholders."""

    async def rows(self, query: str, *args: Any) -> list[Sequence[Any]]:
        """Return every row (indexable by position)."""

    async def dicts(self, query: str, *args: Any) -> list[dict[str, Any]]:
        """Return every row as a dict of its columns."""

    async def one(self, query: str, *args: Any) -> Sequence[Any] | None:
        """Return the first row, or None."""

    async def execute(self, query: str, *args: Any) -> None:
        """Run one statement."""

    async def executemany(self, query: str, rows: list[tuple]) -> None:
        """Run one statement for each row of values."""


def _seen_stored(done: asyncio.Future) -> None:
    """A returning player's name and visit were stored, or not (then the next hello stores them)."""
    if not done.cancelled() and done.exception() is not None:
        log.debug("a returning player's visit was not stored: %s", done.exception())


class SqlStore(Store):
    """A ``Store`` on an SQL database: the subclass gives transactions and the fast append, this class the rest."""

    leases = False  # PostgreSQL: log rows carry the writer's lease number (fencing)

    def __init__(self) -> None:
        self.commits = GroupCommit(self._write_batch, lambda: self.probe())  # looked up at each probe
        self._player_ids: dict[str, int] = {}  # token hash -> player id, for returning players

    # ------------------------------------------------------------------ what each database provides

    @abstractmethod
    async def _read(self, body: Callable[[Query], Awaitable[T]]) -> T:
        """Run ``body`` on a consistent view of the database (never a half-written game)."""

    @abstractmethod
    async def _write(self, body: Callable[[Query], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction: committed whole or not at all."""

    @abstractmethod
    async def _peek(self, query: str, *args: Any) -> Sequence[Any] | None:
        """Return the first row of one quick read that needs no snapshot (a token lookup)."""

    @abstractmethod
    async def _append_only(self, rows: list[tuple]) -> bool:
        """Append log rows ``(table_id, n, entry[, lease])`` in one statement; False if too big for that."""

    @abstractmethod
    async def _close(self) -> None:
        """Close the connection or pool."""

    async def close(self) -> None:
        """Commit what is queued, then close the database."""
        await self.commits.close()
        await self._close()

    async def schema_version(self) -> int:
        """Return the highest applied migration number."""
        return (await self._read(lambda q: q.one(sql.SCHEMA_VERSION)))[0]

    # ------------------------------------------------------------------ the database down and back

    @property
    def down(self) -> StoreBusy | None:
        """Why the database counts as not answering now (writes fail at once), or None while it answers."""
        return self.commits.down

    async def answering(self) -> None:
        """Return once the database answers again (at once while it does)."""
        await self.commits.answering()

    def resume_table(self, table_id: str) -> None:
        """The table is restored from what was stored: its writes may be stored again after a failed one."""
        self.commits.resume(table_id)

    async def probe(self) -> None:
        """Make one small real write (the probe row); raise ``StoreBusy`` while the database does not take it."""
        await self._write(lambda q: q.execute(sql.PROBE, self.kind, time.time()))

    # ------------------------------------------------------------------ table logs

    def submit(self, write: TableWrite) -> asyncio.Future:
        """Queue ``write``; it commits with whatever other tables queued meanwhile (group commit)."""
        return self.commits.submit(write)

    async def _write_batch(self, batch: list[TableWrite | PlayerWrite]) -> None:
        if all(type(w) is TableWrite and w.only_appends() for w in batch):
            # the common case in play: one statement, one transaction, one trip to the database
            rows = self._log_rows(batch)
            if not rows or await self._append_only(rows):
                return
        players = [w for w in batch if isinstance(w, PlayerWrite)]
        tables = [w for w in batch if isinstance(w, TableWrite)]

        async def body(q: Query) -> None:
            for p in players:  # first: a table write may name a player of the same batch
                if p.new:  # (again, if a failed batch rolled the first insert back)
                    p.player_id = (await q.one(sql.NEW_PLAYER, p.token_hash, p.name, p.seen_at, p.seen_at))[0]
                    await q.execute(sql.NEW_DEVICE, p.token_hash, p.player_id, "", p.seen_at, p.seen_at)
            seen = [(p.name, p.seen_at, p.player_id) for p in players if not p.new]
            if seen:
                await q.executemany(sql.SEEN_PLAYER, seen)
                await q.executemany(sql.SEEN_DEVICE, [(p.seen_at, p.token_hash) for p in players if not p.new])
            for w in tables:
                if w.opened_at is not None:
                    await q.execute(sql.OPEN_TABLE, w.table_id, w.code, w.opened_at)
            rows = self._log_rows(tables)
            if rows:
                await q.executemany(sql.APPEND_LEASED if self.leases else sql.APPEND, rows)
            for w in tables:
                if w.finished is not None:
                    await self._insert_game(q, w.finished)
                if w.closed_at is not None:
                    await q.execute(sql.CLOSE_TABLE, w.closed_at, w.table_id)

        await self._write(body)

    def _log_rows(self, writes: list) -> list[tuple]:
        """The table-log rows of ``writes``: with each write's lease number where the database fences."""
        if self.leases:
            return [(w.table_id, n, text, w.lease) for w in writes for n, text in w.entries]
        return [(w.table_id, n, text) for w in writes for n, text in w.entries]

    async def newest_lease(self, table_id: str) -> int:
        """Return the newest lease number recorded for ``table_id`` (0: none)."""
        row = await self._peek(sql.NEWEST_LEASE, table_id)
        return row[0] if row is not None else 0

    async def open_tables(self) -> list[StoredTable]:
        """Return every open table's log, oldest table first."""

        async def body(q: Query) -> tuple[list[Sequence[Any]], list[Sequence[Any]]]:
            found = await q.rows(sql.OPEN_TABLES)
            return found, (await q.rows(sql.OPEN_LOGS) if found else [])

        tables, rows = await self._read(body)
        found = {row[0]: StoredTable(row[0], row[1]) for row in tables}
        for table_id, n, entry in rows:
            stored = found[table_id]
            stored.entries.append(entry)
            if n != len(stored.entries):
                stored.gaps = True
        return list(found.values())

    async def open_table(self, code: str) -> StoredTable | None:
        """Return the log of the open table with ``code`` (the newest such table), or None."""

        async def body(q: Query) -> tuple[Sequence[Any] | None, list[Sequence[Any]]]:
            found = await q.one(sql.OPEN_TABLE_BY_CODE, code)
            return found, (await q.rows(sql.TABLE_LOG, found[0]) if found is not None else [])

        found, rows = await self._read(body)
        if found is None:
            return None
        stored = StoredTable(found[0], found[1])
        for n, entry in rows:
            stored.entries.append(entry)
            if n != len(stored.entries):
                stored.gaps = True
        return stored

    async def open_table_ids(self) -> list[tuple[str, str]]:
        """Return ``(table_id, code)`` of every table that is not closed."""
        return [(row[0], row[1]) for row in await self._read(lambda q: q.rows(sql.OPEN_TABLES))]

    async def mark_damaged(self, table_id: str, why: str) -> None:
        """Close a table whose log cannot be replayed."""
        await self._write(lambda q: q.execute(sql.MARK_DAMAGED, time.time(), why[:500], table_id))

    # ------------------------------------------------------------------ players

    async def player(self, name: str, token: str | None) -> tuple[int, str, str]:
        """Return ``(id, token, name)`` of the player with ``token`` (renamed to ``name``), or of a new player."""
        now = time.time()
        if token:
            hashed = token_hash(token)
            pid = self._player_ids.get(hashed)
            if pid is None:
                row = await self._peek(sql.PLAYER_ID, hashed)
                pid = row[0] if row is not None else None
            if pid is not None:
                self._remember(hashed, pid)
                # the name and last visit go with the next group commit, not waited for: a returning player is
                # welcomed even while the database does not take writes (a lock, a full disk)
                self.commits.submit(PlayerWrite(hashed, name, now, pid)).add_done_callback(_seen_stored)
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

    # ------------------------------------------------------------------ devices

    async def new_device_code(self, player_id: int, code: str, expires_at: float) -> None:
        """Keep a one-time code (its hash) that moves ``player_id`` to another device until ``expires_at``."""
        await self._write(lambda q: q.execute(sql.NEW_DEVICE_CODE, token_hash(code), player_id, expires_at))

    async def use_device_code(self, code: str, label: str, now: float) -> tuple[int, str, str] | None:
        """Use a code once: a new device token for its player; return ``(id, token, name)``, or None if not valid."""
        token = secrets.token_urlsafe(24)

        async def body(q: Query) -> tuple[int, str, str] | None:
            row = await q.one(sql.TAKE_DEVICE_CODE, now, token_hash(code), now)
            if row is None:
                return None
            pid = row[0]
            await q.execute(sql.NEW_DEVICE, token_hash(token), pid, label, now, now)
            return pid, token, (await q.one(sql.PLAYER_NAME, pid))[0]

        return await self._write(body)

    async def devices(self, player_id: int) -> list[dict[str, Any]]:
        """Return the devices that hold ``player_id``: id (the start of the token's hash), label, times."""
        rows = await self._read(lambda q: q.rows(sql.DEVICES_OF, player_id))
        return [{"id": h[:16], "label": label, "created_at": c, "last_seen": seen} for h, label, c, seen in rows]

    async def drop_device(self, player_id: int, device: str) -> None:
        """Sign device ``device`` (an id from ``devices``) out of ``player_id``: its token no longer holds them."""
        await self._write(lambda q: q.execute(sql.DROP_DEVICE, player_id, device))
        self.forget_device(player_id, device)

    def forget_device(self, player_id: int, device: str) -> None:
        """Drop a signed-out device from the cache of returning players (here, or told by another node)."""
        self._player_ids = {h: p for h, p in self._player_ids.items() if not (p == player_id and h[:16] == device)}

    def forget_players(self) -> None:
        """Forget every cached token (a node that may have missed a sign-out: the next hello reads the database)."""
        self._player_ids = {}

    async def player_id(self, token: str) -> int | None:
        """Return the id of the player with ``token``, or None."""
        row = await self._peek(sql.PLAYER_ID, token_hash(token))
        return row[0] if row is not None else None

    # ------------------------------------------------------------------ finished games

    @staticmethod
    async def _insert_game(q: Query, record: dict[str, Any]) -> None:
        rows = game_rows(record)
        await q.execute(sql.INSERT_GAME, *sql.values(rows["game"], sql.GAME_COLUMNS))
        for query, key, columns in (
            (sql.INSERT_SEAT, "seats", sql.SEAT_COLUMNS),
            (sql.INSERT_HAND, "hands", sql.HAND_COLUMNS),
            (sql.INSERT_TOPPER, "toppers", sql.TOPPER_COLUMNS),
            (sql.INSERT_PLAYER, "players", sql.PLAYER_COLUMNS),
        ):
            if rows[key]:
                await q.executemany(query, [sql.values(row, columns) for row in rows[key]])
        if rows["daily"] is not None:
            await q.execute(sql.INSERT_DAILY, *sql.values(rows["daily"], sql.DAILY_COLUMNS))
        if record.get("rated"):
            await SqlStore._rate(q, record["id"], record["rated"], record["finished_at"])

    @staticmethod
    async def _rate(q: Query, game_id: int, rated: dict[str, Any], at: float) -> None:
        """Update the ratings of a rated game in the game's own transaction (never counted twice, never lost)."""
        family, sides, ranks = rated["family"], rated["sides"], rated["ranks"]
        players = [p for side in sides for p in side]
        query = sql.RATINGS_OF.format(", ".join("?" * len(players)))
        before = {r[0]: (r[1], r[2], r[3]) for r in await q.rows(query, family, *players)}
        after = rating_model.rate(sides, ranks, before)
        await q.executemany(sql.SAVE_RATING, [(p, family, *after[p], at) for p in players])
        left = set(rated.get("left", ()))
        await q.executemany(
            sql.RATING_CHANGE,
            [
                (game_id, p, family, rank, int(p in left), after[p][0], after[p][1], at)
                for side, rank in zip(sides, ranks, strict=True)
                for p in side
            ],
        )

    async def rerate(self) -> int:
        """Rate every stored rated game again, in game order, if the stored ratings were made by another model.

        Runs once, when a store opens: the first store to take the model's name does it, in one transaction with
        the name (another node opening at the same time finds the name taken). Returns the games rated again.
        """
        if await self.schema_version() < RATING_MODEL_MIGRATION:
            return 0  # an older schema (tests of migrations): nothing records the model yet

        async def body(q: Query) -> int:
            if await q.one(sql.TAKE_RATING_MODEL, rating_model.NAME, rating_model.NAME) is None:
                return 0
            games: dict[int, tuple[str, float, str, list[tuple[int, int]]]] = {}
            for game_id, player_id, family, place, at, options in await q.rows(sql.RATED_GAMES):
                games.setdefault(game_id, (family, at, options, []))[3].append((player_id, place))
            seats: dict[int, dict[int, int]] = {}
            for game_id, player_id, seat in await q.rows(sql.RATED_SEATS):
                seats.setdefault(game_id, {})[player_id] = seat
            now: dict[tuple[str, int], tuple[float, float, int]] = {}
            last: dict[tuple[str, int], float] = {}
            changes = []
            for game_id, (family, at, options, players) in games.items():
                teams = tuple(make_rules(json.loads(options)).teams) if family == "teams" else ()
                sides, ranks = ratings.stored_sides(players, seats.get(game_id, {}), teams)
                before = {p: now[family, p] for side in sides for p in side if (family, p) in now}
                for p, after in rating_model.rate(sides, ranks, before).items():
                    now[family, p], last[family, p] = after, at
                    changes.append((after[0], after[1], game_id, p))
            await q.execute(sql.CLEAR_RATINGS)
            if changes:
                await q.executemany(sql.RERATE_CHANGE, changes)
                await q.executemany(sql.SAVE_RATING, [(p, f, *r, last[f, p]) for (f, p), r in now.items()])
            return len(games)

        games = await self._write(body)
        if games:
            log.info("rated %d stored games again with %s", games, rating_model.NAME)
        return games

    async def record_game(self, record: dict[str, Any]) -> None:
        """Store one finished game outside a table write (tests and tools)."""
        await self._write(lambda q: self._insert_game(q, record))

    async def stats(self, token: str) -> dict[str, Any] | None:
        """Return the stats of the player with ``token`` (None if unknown)."""
        return await self._read(lambda q: self._stats(q, token))

    @staticmethod
    async def _stats(q: Query, token: str) -> dict[str, Any] | None:
        row = await q.one(sql.PLAYER, token_hash(token))
        if row is None:
            return None
        pid, name = row[0], row[1]
        games = await q.rows(sql.STATS_GAMES, pid)
        hands = {variant: (n, scored, moons) for variant, n, scored, moons in await q.rows(sql.STATS_HANDS, pid)}
        toppers: dict[str, dict[str, int]] = {}
        for variant, kind, n in await q.rows(sql.STATS_TOPPERS, pid):
            toppers.setdefault(variant, {})[kind] = n
        body = stats_by_variant(name, [(g[0], g[1], g[2]) for g in games], hands, toppers)
        body["ratings"] = {f: ratings.shown(mu, sigma, n) for f, mu, sigma, n in await q.rows(sql.PLAYER_RATINGS, pid)}
        return body

    async def ratings_of(self, family: str, players: list[int]) -> dict[int, dict[str, Any]]:
        """Return the shown ratings in ``family`` of those of ``players`` who have one."""
        if not players:
            return {}
        query = sql.RATINGS_OF.format(", ".join("?" * len(players)))
        rows = await self._read(lambda q: q.rows(query, family, *players))
        return {r[0]: ratings.shown(r[1], r[2], r[3]) for r in rows}

    async def rating_moves(self, game_id: int) -> dict[int, dict[str, int]]:
        """Return each rated person's shown rating ``before`` and ``after`` the rated game ``game_id``."""
        rows = await self._read(lambda q: q.rows(sql.RATING_MOVES, game_id))
        first = ratings.shown(*ratings.PRIOR, 0)["rating"]
        return {
            p: {"before": first if mu_before is None else ratings.shown(mu_before, 0, 0)["rating"],
                "after": ratings.shown(mu, 0, 0)["rating"]}
            for p, mu, mu_before in rows
        }  # fmt: skip

    async def leaderboard(self, family: str, period: str, token: str, now: float) -> dict[str, Any]:
        """Return the leaderboard of ``family`` over all time or this week (the last seven days) and your place."""

        async def body(q: Query) -> dict[str, Any]:
            me = await q.one(sql.PLAYER_ID, token_hash(token)) if token else None
            if period == "week":
                week = (family, now - ratings.WEEK, family, ratings.MIN_GAMES)
                rows = await q.rows(sql.BOARD_WEEK, *week)
                below = await q.rows(sql.BOARD_WEEK_PROVISIONAL, *week, ratings.BOARD_SIZE)
            else:
                rows = await q.rows(sql.BOARD_ALL, family, ratings.MIN_GAMES)
                below = await q.rows(sql.BOARD_ALL_PROVISIONAL, family, ratings.MIN_GAMES, ratings.BOARD_SIZE)
            mine = me[0] if me is not None else None
            return ratings.board([tuple(r) for r in rows], mine, [tuple(r) for r in below])

        board = await self._read(body)
        return {"family": family, "period": period, "min_games": ratings.MIN_GAMES, **board}

    async def save_report(self, report: dict[str, Any]) -> None:
        """Keep one player's report of another for the operator."""
        await self._write(lambda q: q.execute(sql.NEW_REPORT, *sql.values(report, sql.REPORT_COLUMNS)))

    async def reports(self, limit: int = 100) -> list[dict[str, Any]]:
        """Return the latest reports, newest first (``hearts reports``)."""
        return await self._read(lambda q: q.dicts(sql.REPORTS, limit))

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

        return await self._read(body)

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

        return await self._read(body)

    # ------------------------------------------------------------------ daily deal

    async def finished_game(self, game_id: int) -> dict[str, Any] | None:
        """Return the stored finished game ``game_id`` with its events (for the operator's tools), or None."""
        rows = await self._read(lambda q: q.dicts(sql.FINISHED_GAME, game_id))
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

        return await self._read(body)

    async def review(self, key: str) -> str | None:
        """Return the cached review (JSON text) stored under ``key``, or None."""
        row = await self._peek(sql.REVIEW, key)
        return row[0] if row is not None else None

    async def save_review(self, key: str, body: str) -> None:
        """Cache a review under ``key`` (the first one stored stays: reviews are deterministic)."""
        await self._write(lambda q: q.execute(sql.SAVE_REVIEW, key, body, time.time()))

    async def server_key(self, name: str) -> str:
        """Return the server's secret ``name`` (made once, at random, and kept)."""
        found = await self._peek(sql.SERVER_KEY, name)  # a read: a server starts while the database takes no writes
        if found is not None:
            return found[0]

        async def body(q: Query) -> str:
            await q.execute(sql.NEW_SERVER_KEY, name, secrets.token_hex(32))
            return (await q.one(sql.SERVER_KEY, name))[0]

        return await self._write(body)

    async def daily_played(self, day: str, player_id: int) -> bool:
        """Return True if the player already has a counted daily game on ``day``."""
        return await self._read(lambda q: q.one(sql.DAILY_PLAYED, day, player_id)) is not None

    async def daily_board(self, day: str, token: str | None, limit: int = 50) -> dict[str, Any]:
        """Return the counted final totals of ``day``'s daily deal, lowest first, and the asker's place."""

        async def body(q: Query) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
            top = await q.dicts(sql.DAILY_TOP, day, limit)
            row = await q.one(sql.PLAYER_ID, token_hash(token)) if token else None
            mine = await q.one(sql.DAILY_MINE, day, row[0]) if row is not None else None
            if mine is None:
                return top, None
            better = (await q.one(sql.DAILY_BETTER, day, mine[0]))[0]
            return top, {"place": better + 1, "total": mine[0]}

        return daily_place(*await self._read(body))
