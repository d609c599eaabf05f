"""Cluster nodes on one PostgreSQL and one Redis: presence, cluster-wide codes, table leases and fencing.

Real ``hearts serve`` processes, a real PostgreSQL database per test (``pg.py``) and a Redis key prefix per test
(on the shared Redis at 127.0.0.1:6379, or a private ``redis-server`` for the outage test). No mocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest
import websockets
from redis.asyncio import Redis

from hartenjagen.server.storage.postgres import PostgresStore
from hartenjagen.server.storage.store import LeaseLost, TableWrite
from hartenjagen.tools.faultproxy import Proxies

from . import pg
from .crashkit import ROOT, Client, ServerProcess, close_all, settled
from .test_store_restore import http_json, my_turn, play_until

REDIS_URL = os.environ.get("HEARTS_TEST_REDIS", "redis://127.0.0.1:6379")
LEASE_MS = 1500
OPTIONS = {"variant": "classic", "end_score": 100, "deal": 5151}
BUDGET = 40.0


class Cluster:
    """The nodes, clients, database and key prefix of one test; ``cleanup`` removes them all."""

    def __init__(self, tmp: Path, db: str, redis_url: str = REDIS_URL) -> None:
        self.tmp, self.db, self.redis_url = tmp, db, redis_url
        self.prefix = f"hearts_test_{secrets.token_hex(4)}:"
        self.nodes: list[ServerProcess] = []
        self.clients: list[Client] = []
        self.redis = Redis.from_url(redis_url, decode_responses=True)

    def start(self, name: str, redis_url: str | None = None) -> ServerProcess:
        """Start node ``name`` (reaching Redis at ``redis_url``, a proxy in front, when given)."""
        redis = redis_url or self.redis_url
        extra = ["--redis", redis, "--redis-prefix", self.prefix, "--node", name, "--lease-ms", str(LEASE_MS)]
        node = ServerProcess(self.db, self.tmp, name, extra=extra)
        self.nodes.append(node)
        return node.start()

    async def open(self, node: ServerProcess, name: str) -> Client:
        client = await Client.open(node.url, name)
        self.clients.append(client)
        return client

    async def table_at(self, node: ServerProcess, name: str = "Anna") -> tuple[Client, str]:
        """A person creates a table with three computer players and starts it; return the client and code."""
        c = await self.open(node, name)
        await c.send("create", options=OPTIONS, computer_level="easy")
        code = (await c.expect("joined"))["code"]
        await c.send("fill_computers", level="easy")
        await c.send("start")
        return c, code

    async def cleanup(self) -> None:
        try:
            await close_all(self.clients)
        finally:
            for node in self.nodes:
                if node.proc is not None and node.proc.poll() is None:
                    os.kill(node.pid, signal.SIGCONT)
                node.cleanup()
            try:
                keys = [k async for k in self.redis.scan_iter(match=self.prefix + "*")]
                if keys:
                    await self.redis.delete(*keys)
            except OSError:
                pass
            await self.redis.aclose()


async def table_id_of(db: str, code: str) -> str:
    rows = await pg.sql(db, "SELECT id FROM tables WHERE code = $1 AND closed_at IS NULL", code)
    assert len(rows) == 1, rows
    return rows[0]["id"]


async def wait_until(cond, timeout: float = 8.0, what: str = "a condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = await cond()
        if value:
            return value
        assert time.monotonic() < deadline, f"waited for {what}"
        await asyncio.sleep(0.05)


def test_redis_needs_a_postgresql_database(tmp_path):
    cmd = [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--db", str(tmp_path / "x.db")]
    cmd += ["--redis", REDIS_URL]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "--redis needs --db postgresql://" in done.stderr and "share one database" in done.stderr


async def test_two_nodes_list_each_other_reserve_unique_codes_and_renew_their_leases(cluster):
    async with asyncio.timeout(BUDGET):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        assert "node node-a" in a.out.read_text().splitlines()[0]

        async def both() -> dict | None:
            info = http_json(a, "/api/cluster")
            return info if [n["node"] for n in info["nodes"]] == ["node-a", "node-b"] else None

        await wait_until(both, what="both nodes in /api/cluster")
        codes = {}
        for node in (a, b, a, b, a, b):
            c, code = await cluster.table_at(node)
            await c.wait(lambda c=c: c.table is not None, what="the table")
            codes[code] = node.name
        assert len(codes) == 6  # unique across the cluster

        async def counted() -> bool:
            nodes = {n["node"]: n for n in http_json(b, "/api/cluster")["nodes"]}
            return all(nodes[name]["tables"] == 3 and nodes[name]["connections"] == 3 for name in nodes)

        await wait_until(counted, what="three tables and connections per node in /api/cluster")
        health = http_json(a, "/healthz")
        assert (health["node"], health["tables"], health["connections"]) == ("node-a", 3, 3)

        r, p = cluster.redis, cluster.prefix
        leases = {}
        for code, name in codes.items():
            table_id = await table_id_of(cluster.db, code)
            assert await r.get(f"{p}code:{code}") == table_id
            owner, lease = (await r.get(f"{p}lease:{table_id}")).split("#")
            assert owner == name and 0 < await r.pttl(f"{p}lease:{table_id}") <= LEASE_MS
            leases[table_id] = lease
            logged = await pg.sql(cluster.db, "SELECT DISTINCT lease FROM table_log WHERE table_id = $1", table_id)
            assert [row["lease"] for row in logged] == [int(lease)]  # every append carries the lease number
        assert len(set(leases.values())) == 6
        c_node = cluster.start("node-c")  # a node that starts later restores none of the tables others own
        assert http_json(c_node, "/healthz")["tables"] == 0
        assert await c_node.signal(signal.SIGTERM) == 0
        await asyncio.sleep(LEASE_MS * 2 / 1000)  # past the lease time: renewed, same owner and number
        for table_id, lease in leases.items():
            assert (await r.get(f"{p}lease:{table_id}")).endswith(f"#{lease}")

        # a table that closes releases its code and lease
        c = cluster.clients[0]
        code = next(iter(codes))
        table_id = await table_id_of(cluster.db, code)
        await c.send("leave")
        await c.expect("left")
        await wait_until(lambda: _gone(r, f"{p}code:{code}", f"{p}lease:{table_id}"), what="the keys released")

        # a node that stops leaves the cluster at once
        assert await b.signal(signal.SIGTERM) == 0
        await wait_until(
            lambda: _async([n["node"] for n in http_json(a, "/api/cluster")["nodes"]] == ["node-a"]),
            what="node-b gone",
        )


async def _gone(r: Redis, *keys: str) -> bool:
    return await r.exists(*keys) == 0


async def _async(value):
    return value


@pytest.mark.parametrize("how", ["redis-says-lost", "database-refuses", "fences-itself"])
async def test_a_paused_node_past_its_lease_stops_writing_and_the_log_has_no_fork(cluster, how):
    """SIGSTOP node A past its lease; B takes the lease with a higher number and appends; SIGCONT A.

    ``redis-says-lost``: nobody moves; A's renewal finds B's lease and A drops the table (1012).
    ``database-refuses``: B's key is gone from Redis (as after a Redis restart), so A's renewal sets its own again;
    once it has, Anna plays, and only PostgreSQL's fence stops A: its append, from the older lease, is refused (1012).
    ``fences-itself``: Anna plays the moment A wakes: A's last renewal is older than its lease, so it writes nothing
    and parks the table (1013), unless its renewal learnt first that the lease is gone (1012).
    Either way A shows nothing more, keeps running, and the log is 1..N with every entry from B's takeover on under
    B's lease.
    """
    async with asyncio.timeout(BUDGET):
        a = cluster.start("node-a")
        anna, code = await cluster.table_at(a)
        await play_until(anna, lambda t: my_turn(t) and t["view"]["phase"] == "playing")
        await settled(a, [anna])  # the computers wait for Anna: a quiet moment
        shown = anna.table["seq"]
        table_id = await table_id_of(cluster.db, code)
        r, key = cluster.redis, f"{cluster.prefix}lease:{table_id}"
        a_lease = int((await r.get(key)).split("#")[1])

        os.kill(a.pid, signal.SIGSTOP)
        await asyncio.sleep(LEASE_MS / 1000 + 0.5)
        assert await r.exists(key) == 0  # A's lease ran out
        b_lease = await r.incr(f"{cluster.prefix}lease_seq")
        assert b_lease > a_lease and await r.set(key, f"node-b#{b_lease}", nx=True, px=60_000)
        conn = await asyncpg.connect(cluster.db)
        try:
            async with conn.transaction():
                n = await conn.fetchval("SELECT MAX(n) + 1 FROM table_log WHERE table_id = $1", table_id)
                await conn.execute(
                    "INSERT INTO table_log (table_id, n, entry, lease) VALUES ($1, $2, $3, $4)",
                    table_id,
                    n,
                    '{"k": "node_b_was_here"}',
                    b_lease,
                )
        finally:
            await conn.close()
        if how == "database-refuses":
            await r.delete(key)
        os.kill(a.pid, signal.SIGCONT)
        if how == "database-refuses":  # A renews: its own key again, and it may write (its leases are fresh)
            await wait_until(lambda: _async_get(r, key), what="A setting its lease key again")
            assert await r.get(key) == f"node-a#{a_lease}"
            await asyncio.sleep(1.5)  # and a heartbeat since
        if how != "redis-says-lost":
            with contextlib.suppress(websockets.ConnectionClosed):  # A may close her connection before the card goes
                await anna.send("play", card=anna.table["view"]["legal"][0])
        await anna.wait(lambda: anna.closed, what="A closing the connection")
        assert anna.close_code == (1013 if how == "fences-itself" and anna.close_code == 1013 else 1012)
        assert anna.table["seq"] == shown  # nothing shown after the takeover
        await wait_until(lambda: _async(http_json(a, "/healthz")["tables"] == 0), what="A without the table")
        assert a.proc.poll() is None
        if how == "database-refuses":
            assert "refused an append from an old lease" in a.stderr()

        rows = await pg.sql(cluster.db, "SELECT n, lease FROM table_log WHERE table_id = $1 ORDER BY n", table_id)
        assert [row["n"] for row in rows] == list(range(1, len(rows) + 1))  # no fork, no gap
        assert [row["lease"] for row in rows if row["n"] >= n] == [b_lease]  # nothing of A's after the takeover
        assert {row["lease"] for row in rows if row["n"] < n} == {a_lease}


async def _async_get(r: Redis, key: str) -> bool:
    return await r.exists(key) == 1


async def test_a_node_cut_off_from_redis_stops_writing_before_its_tables_can_pass_to_another(cluster):
    """Node A reaches Redis through a proxy that blackholes (the others reach Redis): A fences itself.

    A move right after the cut is still shown (none of A's leases can have run out); once A's presence could have run
    out (3 s), A writes nothing more: Anna's move closes her connection (1013) unshown and unstored. B adopts the
    table; Anna resumes through B with her card still in hand and plays on; the log goes on under B's lease alone.
    """
    proxies = Proxies({"redis": int(cluster.redis_url.rsplit(":", 1)[1])}).start()
    try:
        async with asyncio.timeout(BUDGET):
            a = cluster.start("node-a", f"redis://127.0.0.1:{proxies.ports['redis']}")
            b = cluster.start("node-b")
            anna, code = await cluster.table_at(a)
            await play_until(anna, lambda t: my_turn(t) and t["view"]["phase"] == "playing")
            await settled(a, [anna])
            table_id = await table_id_of(cluster.db, code)

            await proxies.command("redis", "blackhole")
            cut = time.monotonic()
            seq = anna.table["seq"]
            await anna.send("play", card=anna.table["view"]["legal"][0])
            await anna.until_seq(seq + 1)  # within A's leases: shown
            await play_until(anna, lambda t: my_turn(t) and t["view"]["phase"] == "playing")
            await settled(a, [anna])
            stored = len(await pg.sql(cluster.db, "SELECT n FROM table_log WHERE table_id = $1", table_id))
            await asyncio.sleep(max(0.0, cut + 3.0 - time.monotonic()))  # A's presence may have run out by now
            shown, tried = anna.table["seq"], anna.table["view"]["legal"][0]
            await anna.send("play", card=tried)
            await anna.wait(lambda: anna.closed, what="A parking the table")
            assert anna.close_code == 1013 and anna.table["seq"] == shown
            rows = await pg.sql(cluster.db, "SELECT n FROM table_log WHERE table_id = $1", table_id)
            assert len(rows) == stored  # nothing written after A's deadline
            assert "its leases were not renewed in time" in a.stderr()

            back = None
            for _ in range(80):  # B adopts the table once A's presence ran out; Anna comes back through B
                back = await cluster.open(b, "Anna")
                await back.send("resume", code=code, seat_token=anna.joined["seat_token"], last_seq=shown)
                await back.wait(lambda back=back: back.table is not None or back.closed, what="the table or 1013")
                if back.table is not None:
                    break
                await asyncio.sleep(0.25)
            assert back is not None and back.table is not None and tried in back.table["view"]["hand"]
            await play_until(back, lambda t: t["seq"] > shown + 6)
            await proxies.command("redis", "pass")
            await play_until(back, lambda t: t["seq"] > shown + 12)  # A back on Redis disturbs nothing
            rows = await pg.sql(cluster.db, "SELECT n, lease FROM table_log WHERE table_id = $1 ORDER BY n", table_id)
            assert [r["n"] for r in rows] == list(range(1, len(rows) + 1))
            leases = [r["lease"] for r in rows]
            assert leases == sorted(leases) and len(set(leases[stored:])) == 1 and leases[stored] > leases[0]
            assert a.proc.poll() is None and b.proc.poll() is None
    finally:
        proxies.stop()


@pytest.mark.parametrize("broken", ["edge", "owner"])
async def test_a_relayed_connection_comes_back_when_a_link_to_redis_breaks_even_for_a_moment(cluster, broken):
    """A node's connections to Redis are reset, and redis-py makes them again (and subscribes again) at once.

    Frames published meanwhile were lost, so the relayed links of that node end all the same: Bram, relayed from
    node-b to node-a, is closed with 1012 without sending a word (``edge``: node-b's link broke; ``owner``:
    node-a's, which tells node-b), and resumes.
    """
    proxies = Proxies({"redis": int(cluster.redis_url.rsplit(":", 1)[1])}).start()
    try:
        async with asyncio.timeout(BUDGET):
            through = f"redis://127.0.0.1:{proxies.ports['redis']}"
            a = cluster.start("node-a", through if broken == "owner" else None)
            b = cluster.start("node-b", through if broken == "edge" else None)
            anna = await cluster.open(a, "Anna")
            await anna.send("create", options=OPTIONS, computer_level="easy")
            code = (await anna.expect("joined"))["code"]
            bram = await cluster.open(b, "Bram")
            await bram.send("join", code=code)
            await bram.expect("joined")
            await bram.sync()
            await proxies.command("redis", "reset")
            await bram.wait(lambda: bram.closed, what="Bram's relayed connection closed")
            assert bram.close_code == 1012
            for _ in range(40):
                again = await cluster.open(b, "Bram")
                await again.send("resume", code=code, seat_token=bram.joined["seat_token"], last_seq=0)
                await again.wait(lambda c=again: c.table is not None or c.closed, what="the table or 1013")
                if again.table is not None:
                    break
                await asyncio.sleep(0.25)
            assert again.table is not None and again.table["code"] == code
    finally:
        proxies.stop()


async def test_a_stop_ends_even_when_a_loop_is_stuck_in_a_step_that_swallows_its_cancel():
    """redis-py can swallow a cancel inside a command: a node's stop must not wait for such a step for ever."""
    from hartenjagen.server.cluster.node import STOP_WAIT, Cluster

    prefix = f"hearts_test_{secrets.token_hex(4)}:"
    node = await Cluster.open(REDIS_URL, prefix, "node-x", 3000)
    release, entered = asyncio.Event(), asyncio.Event()

    async def listed() -> list:  # the listing step, stuck in a "command" that ignores cancels until released
        entered.set()
        while not release.is_set():
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                pass
        return []

    node.listed = listed
    node.start()
    try:
        await asyncio.wait_for(entered.wait(), 5)
        loop = asyncio.get_running_loop()
        began = loop.time()
        await asyncio.wait_for(node.close(), STOP_WAIT + 10)  # returns: the stuck step is left behind
        assert loop.time() - began < STOP_WAIT + 5
        redis = Redis.from_url(REDIS_URL, decode_responses=True)
        try:
            assert await redis.exists(f"{prefix}node:node-x") == 0  # it left the cluster
        finally:
            await redis.aclose()
    finally:
        release.set()


async def test_the_database_refuses_an_append_from_an_older_lease_and_only_that_one():
    url = await pg.create_database()
    db = await PostgresStore.open(url)
    try:
        now = time.time()
        await db.append(TableWrite("t1", "AAAAAA", [(1, "{}")], opened_at=now, lease=5))
        await db.append(TableWrite("t2", "BBBBBB", [(1, "{}")], opened_at=now, lease=6))
        await db.append(TableWrite("t1", "AAAAAA", [(2, "{}")], lease=7))  # a newer lease takes over
        stale = db.submit(TableWrite("t1", "AAAAAA", [(3, "{}")], lease=5))
        fine = db.submit(TableWrite("t2", "BBBBBB", [(2, "{}")], lease=6))  # same group commit
        with pytest.raises(LeaseLost, match="stale lease 5"):
            await stale
        await fine
        rows = await pg.sql(url, "SELECT table_id, n, lease FROM table_log ORDER BY table_id, n")
        assert [tuple(r) for r in rows] == [("t1", 1, 5), ("t1", 2, 7), ("t2", 1, 6), ("t2", 2, 6)]
        assert await db.newest_lease("t1") == 7 and await db.newest_lease("nope") == 0
    finally:
        await db.close()
        await pg.drop_database(url)


async def test_a_node_that_takes_a_table_over_fences_it_before_it_reads_the_log():
    """The claim's fence: every append of the older lease is in the log the new holder reads, or refused after it."""
    url = await pg.create_database()
    db = await PostgresStore.open(url)
    try:
        now = time.time()
        await db.append(TableWrite("t1", "AAAAAA", [(1, '{"n":1}')], opened_at=now, lease=5))
        await db.append(TableWrite("t1", "AAAAAA", [(2, '{"n":2}')], lease=5))  # the old holder, before the fence
        stored = await db.fenced_table("t1", 9)
        assert stored is not None and stored.entries == ['{"n":1}', '{"n":2}'] and not stored.gaps
        with pytest.raises(LeaseLost):  # the old holder, after it: refused, though nobody appended under 9 yet
            await db.append(TableWrite("t1", "AAAAAA", [(3, '{"n":3}')], lease=5))
        db.resume_table("t1")  # (one process plays both nodes: the new holder's writes are its own)
        await db.append(TableWrite("t1", "AAAAAA", [(3, '{"n":3}')], lease=9))  # the new holder writes on
        with pytest.raises(LeaseLost, match="fenced at lease 9"):  # a claim older than the fence gets nothing
            await db.fenced_table("t1", 7)
        await db.append(TableWrite("t2", "BBBBBB", [(1, "{}")], opened_at=now, closed_at=now, lease=3))
        assert await db.fenced_table("t2", 4) is None  # closed: nothing to take over
        assert await db.fenced_table("nope", 4) is None
        rows = await pg.sql(url, "SELECT n, lease FROM table_log WHERE table_id = 't1' ORDER BY n")
        assert [tuple(r) for r in rows] == [(1, 5), (2, 5), (3, 9)]
    finally:
        await db.close()
        await pg.drop_database(url)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(port: int, tmp: Path) -> subprocess.Popen:
    cmd = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc
        except OSError:
            time.sleep(0.02)
    proc.kill()
    raise AssertionError("redis-server did not start")


async def test_redis_down_tables_play_on_until_the_node_fences_itself_then_come_back_by_themselves(tmp_path):
    """Redis killed: a node's tables play on as long as none of its leases can have run out, then it writes nothing.

    Anna's move right after the kill is shown; once the node's last renewal is older than its lease (less a margin)
    her next move is not: the table is parked (1013) and a resume answers ``server_busy`` (1013: the browser comes
    back by itself), never ``cluster_unavailable`` with the connection left open. A new table and a join are refused.
    Redis comes back empty: the keys, presence and new tables come back, and Anna gets her seat back with the card
    still in her hand.
    """
    port = free_port()
    redis = start_redis(port, tmp_path)
    url = await pg.create_database()
    scene = Cluster(tmp_path, url, f"redis://127.0.0.1:{port}")
    try:
        async with asyncio.timeout(BUDGET):
            a, b = scene.start("node-a"), scene.start("node-b")
            anna, code = await scene.table_at(a)
            await play_until(anna, lambda t: my_turn(t) and t["view"]["phase"] == "playing")
            await settled(a, [anna])

            redis.kill()
            redis.wait(5)
            seq = anna.table["seq"]
            await anna.send("play", card=anna.table["view"]["legal"][0])
            await anna.until_seq(seq + 1)  # within its leases: Anna's table plays on
            await play_until(anna, lambda t: my_turn(t) and t["view"]["phase"] == "playing")
            await asyncio.sleep(LEASE_MS / 1000)  # renewals fail meanwhile: its leases may have run out now
            shown = anna.table["seq"]
            tried = anna.table["view"]["legal"][0]
            await anna.send("play", card=tried)
            await anna.wait(lambda: anna.closed, what="the table parked")
            assert anna.close_code == 1013 and anna.table["seq"] == shown  # the move was neither stored nor shown
            assert "its leases were not renewed in time" in a.stderr()
            bram = await scene.open(a, "Bram")
            await bram.send("create", options=OPTIONS)
            refused = await bram.expect("error")
            assert refused["code"] == "cluster_unavailable", refused
            cor = await scene.open(b, "Cor")  # a join through another node cannot find the table's node
            await cor.send("join", code=code)
            refused = await cor.expect("error")
            assert refused["code"] == "cluster_unavailable", refused
            for node in (a, b):  # a resume is told to come back (and is closed, so that the browser does)
                back = await scene.open(node, "Anna")
                await back.send("resume", code=code, seat_token=anna.joined["seat_token"], last_seq=shown)
                refused = await back.expect("error")
                assert refused["code"] == "server_busy", refused
                await back.wait(lambda back=back: back.closed, what="1013 after server_busy")
                assert back.close_code == 1013
            assert http_json(b, "/healthz")["status"] == "ok"
            assert http_json(a, "/healthz")["status"] == "ok"

            redis = start_redis(port, tmp_path)  # back, empty
            table_id = await table_id_of(url, code)

            async def recovered() -> bool:
                return await scene.redis.exists(f"{scene.prefix}lease:{table_id}", f"{scene.prefix}code:{code}") == 2

            await wait_until(recovered, timeout=15, what="the lease and code set again after Redis came back")
            # both heartbeats answered again (a node writes nothing while its presence may have run out)
            await wait_until(lambda: _async(len(http_json(a, "/api/cluster")["nodes"]) == 2), what="presence back")
            await bram.send("create", options=OPTIONS)
            await bram.expect("joined")
            for _ in range(40):  # and cross-node links work again, once both nodes listen to Redis again
                cor = await scene.open(b, "Cor")
                await cor.send("watch", code=code)
                await cor.wait(lambda c=cor: len(c.inbox) > 1 or c.closed, what="an answer to watch")
                if len(cor.inbox) > 1 and cor.inbox[1]["type"] == "watching":
                    break
                if len(cor.inbox) > 1:
                    assert cor.inbox[1]["code"] == "server_busy", cor.inbox[1]
                else:  # its relay was set up as node-b's link to Redis came back: told to come back (1012)
                    assert cor.close_code == 1012, cor.close_code
                await asyncio.sleep(0.25)
            assert len(cor.inbox) > 1 and cor.inbox[1]["type"] == "watching", cor.inbox
            for _ in range(40):
                back = await scene.open(a, "Anna")
                await back.send("resume", code=code, seat_token=anna.joined["seat_token"], last_seq=shown)
                await back.wait(lambda back=back: back.table is not None or back.closed, what="the table or 1013")
                if back.table is not None:
                    break
                await asyncio.sleep(0.25)
            assert back.table is not None and back.table["seq"] >= shown and tried in back.table["view"]["hand"]
            assert not any(e["type"] == "play" for e in back.table["events"])  # (an away and a back at most)
            await play_until(back, lambda t: t["seq"] > shown + 4)  # and playing again
            assert a.proc.poll() is None and b.proc.poll() is None
    finally:
        await scene.cleanup()
        redis.kill()
        redis.wait(5)
        await pg.drop_database(url)


async def test_a_resume_right_after_redis_came_back_empty_is_told_to_come_back_never_that_the_table_is_gone(tmp_path):
    """Redis restarted empty: for a moment no code is known until each node sets its own again.

    A resume in that moment (through another node than the table's) gets ``server_busy`` (the browser comes back), not
    ``unknown_table`` (the browser would forget the seat for good); a moment later it finds the table.
    """
    port = free_port()
    redis = start_redis(port, tmp_path)
    url = await pg.create_database()
    scene = Cluster(tmp_path, url, f"redis://127.0.0.1:{port}")
    try:
        async with asyncio.timeout(BUDGET):
            a, b = scene.start("node-a"), scene.start("node-b")
            anna, code = await scene.table_at(a)
            await play_until(anna, lambda t: my_turn(t) and t["view"]["phase"] == "playing")
            await settled(a, [anna])
            shown = anna.table["seq"]
            redis.kill()
            redis.wait(5)
            redis = start_redis(port, tmp_path)  # back, empty
            answers = []
            for _ in range(40):
                back = await scene.open(b, "Anna")
                await back.send("resume", code=code, seat_token=anna.joined["seat_token"], last_seq=shown)
                await back.wait(lambda back=back: back.table is not None or back.closed
                                or any(m["type"] == "error" for m in back.inbox), what="an answer")  # fmt: skip
                answers += [m["code"] for m in back.inbox if m["type"] == "error"]
                if back.table is not None:
                    break
                await back.close()
                await asyncio.sleep(0.1)
            assert back.table is not None and back.table["code"] == code, answers
            assert set(answers) <= {"server_busy"}, answers
    finally:
        await scene.cleanup()
        redis.kill()
        redis.wait(5)
        await pg.drop_database(url)


async def test_open_tables_of_two_nodes_appear_in_one_list_and_play_now_finds_the_other_node(cluster):
    async with asyncio.timeout(BUDGET):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        anna = await cluster.open(a, "Anna")
        await anna.send("create", options={"variant": "dutch"})
        code_a = (await anna.expect("joined"))["code"]
        await anna.send("set_open", open=True, lang="nl")
        bram = await cluster.open(b, "Bram")
        await bram.send("play_now", options={"variant": "classic", "end_score": 50}, lang="en", wait=300)
        code_b = (await bram.expect("joined"))["code"]

        async def both_listed() -> list | None:
            found = [http_json(node, "/api/open-tables")["tables"] for node in (a, b)]
            codes = [sorted(e["code"] for e in tables) for tables in found]
            return found if codes == [sorted([code_a, code_b])] * 2 else None

        found = await wait_until(both_listed, what="both nodes' open tables in each node's list")
        by_code = {e["code"]: e for e in found[0]}
        assert (by_code[code_a]["node"], by_code[code_a]["variant"], by_code[code_a]["lang"]) == (
            "node-a",
            "dutch",
            "nl",
        )
        assert (by_code[code_b]["node"], by_code[code_b]["play_now"]) == ("node-b", True)
        assert by_code[code_b]["seats"][0]["name"] == "Bram" and by_code[code_b]["seats"][0]["rating"]["games"] == 0

        # Carla on node a presses Play now with Bram's choice: she sits at his table on node b, through node a
        carla = await cluster.open(a, "Carla")
        await carla.send("play_now", options={"variant": "classic", "end_score": 50}, lang="en")
        joined = await carla.expect("joined")
        assert joined["code"] == code_b and joined["seat"] == 1
        await bram.wait(lambda: bram.table is not None and bram.table["seats"][1]["name"] == "Carla", what="Carla")
