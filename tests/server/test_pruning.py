"""Players who never finished a game and tables that never started are deleted after ``--prune-days``; nothing else.

Against both stores: the rows are made as the server makes them (a hello, a table's log), then aged with SQL.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable

from hartenjagen.server.storage.opening import open_store

from .conftest import both_stores
from .test_http_db_cli import raw

DAY = 86_400.0
LONG_AGO = time.time() - 30 * DAY


async def aged(db_url: str, query: str) -> None:
    """Run an UPDATE or INSERT that makes rows look as old as the test needs."""
    await raw(db_url, query)


def log_entry(kind: str, **fields: object) -> str:
    """One stored table log entry, as the server writes it."""
    return json.dumps({"type": kind, **fields}, separators=(",", ":"))


async def table(db_url: str, tid: str, entries: list[str], closed_at: float | None, damaged: str | None = None):
    """A table row with its log."""
    closed = "NULL" if closed_at is None else repr(closed_at)
    why = "NULL" if damaged is None else f"'{damaged}'"
    await raw(db_url, f"INSERT INTO tables (id, code, opened_at, closed_at, damaged) "
                      f"VALUES ('{tid}', 'C{tid}', {LONG_AGO!r}, {closed}, {why})")  # fmt: skip
    for n, entry in enumerate(entries, 1):
        await raw(db_url, f"INSERT INTO table_log (table_id, n, entry) VALUES ('{tid}', {n}, '{entry}')")


async def ids(db_url: str, query: str) -> set:
    """The first column of every row of ``query``."""
    return {row[0] for row in await raw(db_url, query)}


@both_stores
async def test_prune_deletes_only_what_was_never_played_and_is_old_enough(db_url):
    db = await open_store(db_url)
    try:
        gone, token, _ = await db.player("Gone", None)  # a page opened once, long ago
        played, _, _ = await db.player("Played", None)  # finished a game
        two, _, _ = await db.player("Two devices", None)  # moved to a second device
        recent, _, _ = await db.player("Recent", None)  # seen within the week
        seated, _, _ = await db.player("Seated", None)  # holds a seat at an open table
        reported, _, _ = await db.player("Reported", None)  # named in a report
        connected, _, _ = await db.player("Connected", None)  # connected to this node now
        old = [gone, played, two, seated, reported, connected]
        await aged(db_url, f"UPDATE players SET created_at = {LONG_AGO!r}, last_seen = {LONG_AGO!r} "
                           f"WHERE id IN ({', '.join(map(str, old))})")  # fmt: skip
        await aged(db_url, "INSERT INTO games (id, code, variant, options, started_at, finished_at, hands, winners) "
                           f"VALUES (7, 'G', 'classic', '{{}}', {LONG_AGO!r}, {LONG_AGO!r}, 3, '[0]')")  # fmt: skip
        await aged(db_url, f"INSERT INTO game_players (game_id, player_id) VALUES (7, {played})")
        await aged(db_url, "INSERT INTO devices (token_hash, player_id, label, created_at, last_seen) "
                           f"VALUES ('second', {two}, 'Phone', {LONG_AGO!r}, {LONG_AGO!r})")  # fmt: skip
        report = {"id": "r1", "at": LONG_AGO, "table_code": "X", "reporter_id": played, "reported_id": reported,
                  "reported_name": "Reported", "reason": "rude", "chat": "[]"}  # fmt: skip
        await db.save_report(report)
        created = log_entry("created", code="T1", options={"variant": "classic"}, bot_level="medium", deal=None,
                            daily=None, at=LONG_AGO)  # fmt: skip
        sits = log_entry("seated", seat=0, who="human", name="Seated", player_id=seated, token_hash="h")
        start = log_entry("start", at=LONG_AGO)
        await table(db_url, "never", [created, sits], LONG_AGO)  # closed long ago, never started: pruned
        await table(db_url, "started", [created, sits, start], LONG_AGO)  # a game was begun: kept
        await table(db_url, "lately", [created], time.time() - DAY)  # closed yesterday: kept for now
        await table(db_url, "open", [created, sits], None)  # open (its node closes it when idle): kept
        await table(db_url, "damaged", [created], LONG_AGO, damaged="entry 2: bad")  # for the operator: kept

        assert await db.prune(time.time(), 7.0, keep={connected}) == (1, 1)

        assert await ids(db_url, "SELECT id FROM players") == {played, two, recent, seated, reported, connected}
        assert await ids(db_url, "SELECT player_id FROM devices") == {played, two, recent, seated, reported, connected}
        assert await ids(db_url, "SELECT id FROM tables") == {"started", "lately", "open", "damaged"}
        assert await ids(db_url, "SELECT DISTINCT table_id FROM table_log") == {"started", "lately", "open", "damaged"}
        assert await db.prune(time.time(), 7.0, keep={connected}) == (0, 0)  # done once: a second pass finds nothing
        again, new_token, _ = await db.player("Gone", token)  # the pruned player's token names nobody now
        assert again != gone and new_token != token
        assert await db.returning("Played", "no such token") is None
        # a month on, nobody connected: the newcomer, Recent and Connected too, and yesterday's table
        assert await db.prune(time.time() + 30 * DAY, 7.0) == (3, 1)
        assert await ids(db_url, "SELECT id FROM players") == {played, two, seated, reported}
    finally:
        await db.close()


async def test_each_node_prunes_by_itself_now_and_then_keeping_who_is_connected(make_server, tmp_path):
    server = await make_server(prune_days=1, prune_every=0.05)  # prune often; nobody is a day old yet
    db = str(tmp_path / "hearts.db")
    gone = await server.connect("Gone")
    await gone.send("create", options={"variant": "classic"})  # a table never started, closed when Gone leaves
    await gone.expect("joined")
    gone_id = next(c.player_id for c in server.app.hub.clients if c.name == "Gone")
    await gone.send("leave")
    await gone.expect("left")
    await gone.close()
    stays = await server.connect("Stays")  # connected the whole time
    stays_id = next(c.player_id for c in server.app.hub.clients if c.name == "Stays")

    async def closed() -> bool:
        return await raw(db, "SELECT id FROM tables WHERE closed_at IS NULL") == []

    await until(closed)
    # two days on for the database: both players last seen then, the table closed then (a clock of the test's own:
    # moved only once both are in, a pass never meets a player stored but not yet counted as connected)
    await raw(db, f"UPDATE players SET last_seen = last_seen - {2 * DAY} WHERE id IN ({gone_id}, {stays_id})")
    await raw(db, f"UPDATE tables SET closed_at = closed_at - {2 * DAY}")

    async def pruned() -> bool:
        return (
            await raw(db, f"SELECT id FROM players WHERE id = {gone_id}") == []
            and await raw(db, "SELECT id FROM tables") == []
        )

    await until(pruned)
    passes = server.app.pruner.passes
    await until(lambda: asyncio.sleep(0, server.app.pruner.passes > passes))  # one more whole pass
    assert await raw(db, f"SELECT id FROM players WHERE id = {stays_id}") == [(stays_id,)]
    await stays.send("create", options={"variant": "classic"})  # Stays plays on as ever
    await stays.expect("joined")


async def until(cond: Callable[[], Awaitable[bool]], timeout: float = 60.0) -> None:
    """Wait until the coroutine function ``cond`` gives True (for rows in the database no message announces).

    ``timeout`` only stops a server that never gets there: on a machine busy with other tests a prune pass can wait
    seconds for the store's thread (10 s was once too short).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await cond():
        assert loop.time() < deadline, "timed out waiting for a condition"
        await asyncio.sleep(0.05)
