"""Finished games in SQL: the rows of a game (and its ratings, in the same transaction), stats, the leaderboard."""

from __future__ import annotations

import json
import logging
from typing import Any

from hartenjagen.shared.variants import make_rules

from ..players import rating_model
from ..table import ratings
from ..table.records import game_rows, stats_by_variant
from ..table.tokens import token_hash
from . import sql
from .sql_query import Query, SqlAccess

log = logging.getLogger("hearts.store")
RATING_MODEL_MIGRATION = 12  # the migration that records which rating model made the stored ratings


async def insert_game(q: Query, record: dict[str, Any]) -> None:
    """Insert one finished game's rows (seats, hands, toppers, players, daily) and rate it if it was rated."""
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
        await rate(q, record["id"], record["rated"], record["finished_at"])


async def rate(q: Query, game_id: int, rated: dict[str, Any], at: float) -> None:
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


async def _stats(q: Query, token: str) -> dict[str, Any] | None:
    """The stats of the player with ``token`` read in one snapshot (None if unknown)."""
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


class GameRecords:
    """``SqlStore.games``: finished games read and written, their ratings and the leaderboard."""

    def __init__(self, db: SqlAccess) -> None:
        self.db = db

    async def rerate(self) -> int:
        """Rate every stored rated game again, in game order, if the stored ratings were made by another model.

        Runs once, when a store opens: the first store to take the model's name does it, in one transaction with
        the name (another node opening at the same time finds the name taken). Returns the games rated again.
        """
        if await self.db.schema_version() < RATING_MODEL_MIGRATION:
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

        games = await self.db._write(body)
        if games:
            log.info("rated %d stored games again with %s", games, rating_model.NAME)
        return games

    async def record_game(self, record: dict[str, Any]) -> None:
        """Store one finished game outside a table write (tests and tools)."""
        await self.db._write(lambda q: insert_game(q, record))

    async def stats(self, token: str) -> dict[str, Any] | None:
        """Return the stats of the player with ``token`` (None if unknown)."""
        return await self.db._read(lambda q: _stats(q, token))

    async def ratings_of(self, family: str, players: list[int]) -> dict[int, dict[str, Any]]:
        """Return the shown ratings in ``family`` of those of ``players`` who have one."""
        if not players:
            return {}
        query = sql.RATINGS_OF.format(", ".join("?" * len(players)))
        rows = await self.db._read(lambda q: q.rows(query, family, *players))
        return {r[0]: ratings.shown(r[1], r[2], r[3]) for r in rows}

    async def rating_moves(self, game_id: int) -> dict[int, dict[str, int]]:
        """Return each rated person's shown rating ``before`` and ``after`` the rated game ``game_id``."""
        rows = await self.db._read(lambda q: q.rows(sql.RATING_MOVES, game_id))
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

        board = await self.db._read(body)
        return {"family": family, "period": period, "min_games": ratings.MIN_GAMES, **board}
