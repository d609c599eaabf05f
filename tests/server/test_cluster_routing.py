"""Three real nodes on one PostgreSQL and one Redis: any node takes any connection, a killed node's tables come back
on the others, and a database that stops answering costs a retry, not a move.

Real ``hearts serve`` processes, a PostgreSQL database and Redis key prefix per test, real signals. The database
outage is a real cut: the node reaches PostgreSQL through a TCP relay that the test stops (every connection reset,
new ones refused) and starts again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
import urllib.request
from typing import Any

import websockets
from websockets.asyncio.client import connect

from . import pg
from .crashkit import Client, ServerProcess, settled
from .test_cluster import BUDGET, Cluster, http_json, wait_until
from .test_store_restore import play_until as play

FAILOVER_WAIT = 30.0  # seconds a test waits for a dead node's tables (the goal, 10 s, is hearts bench failover's)


def phase(t: dict[str, Any]) -> str | None:
    return t["view"]["phase"] if t["view"] else None


def finished(t: dict[str, Any] | None) -> bool:
    return t is not None and t["status"] == "finished"


def api(node: ServerProcess, path: str, token: str) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{node.port}{path}", headers={"X-Player-Token": token})
    with urllib.request.urlopen(request, timeout=5) as resp:
        return json.loads(resp.read())


async def seat_two(scene: Cluster, owner: ServerProcess, guest_node: ServerProcess, i: int, end: int = 25):
    """Anna creates a table on ``owner``; Bram joins it by code through ``guest_node``; computers fill, start."""
    anna = await scene.open(owner, f"Anna{i}")
    await anna.send("create", options={"variant": "classic", "end_score": end, "deal": 700 + i}, computer_level="easy")
    code = (await anna.expect("joined"))["code"]
    bram = await scene.open(guest_node, f"Bram{i}")
    await bram.send("join", code=code)
    await bram.expect("joined")
    await anna.send("fill_computers", level="easy")
    await anna.send("start")
    return anna, bram, code


async def test_twenty_tables_on_three_nodes_with_players_on_random_nodes_play_to_the_end(cluster):
    rng = random.Random(20)
    async with asyncio.timeout(BUDGET * 3):
        nodes = [cluster.start(f"node-{n}") for n in (1, 2, 3)]
        crossing = 0

        async def one(i: int) -> None:
            nonlocal crossing
            owner, guest_node = rng.choice(nodes), rng.choice(nodes)
            crossing += guest_node is not owner
            anna, bram, code = await seat_two(cluster, owner, guest_node, i)
            ta, tb = await asyncio.gather(play(anna, finished), play(bram, finished))
            assert ta["seq"] == tb["seq"] and ta["view"]["totals"] == tb["view"]["totals"], code
            games = api(rng.choice(nodes), "/api/games", bram.welcome["player_token"])  # any node reads PostgreSQL
            assert [g["code"] for g in games["games"]] == [code]

        await asyncio.gather(*(one(i) for i in range(20)))
        assert crossing >= 8  # most guests sat down through another node than their table's
        for node in nodes:
            assert node.proc.poll() is None and "Traceback" not in node.stderr(), node.stderr()[-2000:]


async def come_back(scene: Cluster, nodes: list[ServerProcess], label: str, code: str, token: str, seq: int) -> Client:
    """Reconnect through a random live node and resume until the table is back (server_busy: try again)."""
    for _ in range(200):
        node = random.choice([n for n in nodes if n.proc.poll() is None])
        c = await scene.open(node, label)
        await c.send("resume", code=code, seat_token=token, last_seq=seq)
        await c.wait(lambda c=c: c.closed or c.table is not None or any(m["type"] == "error" for m in c.inbox))
        if c.table is not None:
            return c
        errors = [m["code"] for m in c.inbox if m["type"] == "error"]
        assert not errors or errors == ["server_busy"], errors
        await c.close()
        await asyncio.sleep(0.25)
    raise AssertionError(f"{label} never came back to {code}")


async def test_a_killed_node_s_tables_come_back_on_the_others_within_ten_seconds_with_no_move_lost(cluster):
    async with asyncio.timeout(BUDGET * 2):
        nodes = [cluster.start(f"node-{n}") for n in (1, 2, 3)]
        seated = []  # (client, code, seat token, owner index)
        for i in range(6):  # two tables per node; each guest sits down through the next node
            anna, bram, code = await seat_two(cluster, nodes[i % 3], nodes[(i + 1) % 3], i, end=100)
            seated += [(anna, code, i % 3), (bram, code, i % 3)]
        await asyncio.gather(*(play(c, lambda t: phase(t) == "playing" and len(t["view"]["tricks"]) >= 2)
                               for c, _, _ in seated))  # fmt: skip
        await settled(nodes, [c for c, _, _ in seated])  # the computers wait for a person: a quiet moment
        shown = {c.label: c.table["seq"] for c, _, _ in seated}

        dead = nodes[0]
        await dead.crash()
        killed = time.monotonic()
        hit = [(c, code) for c, code, owner in seated if owner == 0 or c.ws.remote_address[1] == dead.port]
        assert len(hit) == 6  # node-1's two tables (4 people) and the guest who sat down through it
        back = {}
        for c, code in hit:
            await c.wait(lambda c=c: c.closed, timeout=FAILOVER_WAIT, what="the dead node's connection to end")
            token = c.joined["seat_token"]
            back[c.label] = await come_back(cluster, nodes, c.label, code, token, shown[c.label])
        print(f"failover: every table playable again {time.monotonic() - killed:.2f} s after the kill")
        for label, c in back.items():
            assert c.table["seq"] >= shown[label]  # every move shown before the kill is still there
            first = next(m for m in c.inbox if m["type"] == "table")
            assert first["resumed"] == "events" and [e["seq"] for e in first["events"]] == list(
                range(shown[label] + 1, first["seq"] + 1)
            )  # the moves since, from the stored log
        # the adopted tables play on to the end of the hand, every person through whichever node took them
        players = [back.get(c.label, c) for c, _, _ in seated]
        await asyncio.gather(*(play(c, lambda t: phase(t) == "hand_over") for c in players))
        for _, code, _ in seated[::2]:
            rows = await pg.sql(
                cluster.db,
                "SELECT l.n FROM table_log l JOIN tables t ON t.id = l.table_id WHERE t.code = $1 ORDER BY l.n",
                code,
            )
            assert [r["n"] for r in rows] == list(range(1, len(rows) + 1))  # no gap, no fork
        for node in nodes[1:]:
            assert node.proc.poll() is None


class TcpCut:
    """A TCP relay to PostgreSQL that the test can cut (every connection reset, new ones refused) and restore."""

    def __init__(self, port: int = 5432) -> None:
        self.target = port
        self.port = 0
        self.server: asyncio.Server | None = None
        self.pairs: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._pipe, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.pairs |= {writer, up_writer}

        async def copy(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        await asyncio.gather(copy(reader, up_writer), copy(up_reader, writer))

    async def cut(self) -> None:
        self.server.close()
        for w in self.pairs:
            w.transport.abort()
        self.pairs.clear()
        await self.server.wait_closed()

    async def close(self) -> None:
        await self.cut()


async def test_postgresql_down_costs_a_retry_not_a_move_and_no_node_crashes(cluster):
    cut = TcpCut()
    await cut.start()
    cluster.db = cluster.db.replace("127.0.0.1:5432", f"127.0.0.1:{cut.port}")
    try:
        async with asyncio.timeout(BUDGET * 2):
            a = await asyncio.to_thread(cluster.start, "node-a")  # the relay runs in this loop: do not block it
            anna, bram, code = await seat_two(cluster, a, a, 1, end=100)

            def annas_turn(t: dict[str, Any]) -> bool:
                return phase(t) == "playing" and t["view"]["turn"] == 0

            await asyncio.gather(play(anna, annas_turn), play(bram, annas_turn))
            await settled(a, [anna, bram])
            shown = anna.table["seq"]

            await cut.cut()  # PostgreSQL stops answering
            tried = anna.table["view"]["legal"][0]
            await anna.send("play", card=tried)
            await anna.wait(lambda: anna.closed, what="the connection closed (1013)")
            assert anna.close_code == 1013 and anna.table["seq"] == shown  # the unstored move was never shown
            await bram.wait(lambda: bram.closed, what="the other person's connection closed too")
            assert bram.close_code == 1013
            token = anna.joined["seat_token"]
            again = Client(await connect(a.url), "Anna1")  # coming back: a known player is welcomed at once,
            cluster.clients.append(again)  # the table itself must come from the database
            await again.send("hello", version=1, name="Anna1", player_token=anna.welcome["player_token"])
            await again.expect("welcome")
            await again.send("resume", code=code, seat_token=token, last_seq=shown)
            refused = await again.expect("error")
            assert refused["code"] == "server_busy", refused
            await again.wait(lambda: again.closed, what="1013 after server_busy")
            assert again.close_code == 1013
            assert http_json(a, "/healthz")["status"] == "ok" and a.proc.poll() is None

            await cut.start()  # the database answers again, on the same port
            back = await come_back(cluster, [a], "Anna1", code, token, shown)
            v = back.table["view"]  # the table is where it was stored: the unstored card is still in Anna's hand
            assert v["turn"] == 0 and tried in v["hand"] and back.table["seq"] >= shown
            await play(back, lambda t: tried not in t["view"]["hand"])  # and now her move is stored and shown
            assert a.proc.poll() is None
    finally:
        await cut.close()
        cluster.db = cluster.db.replace(f"127.0.0.1:{cut.port}", "127.0.0.1:5432")


async def test_a_paused_node_s_table_is_taken_over_by_a_live_node_and_the_log_never_forks(cluster):
    """SIGSTOP the owner past its presence: the other node adopts the table and the person plays on there.

    SIGCONT the first: it learns its lease is gone and writes nothing more. The log is 1..N, one lease after another.
    """
    async with asyncio.timeout(BUDGET * 2):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        anna = await cluster.open(a, "Anna")
        await anna.send("create", options={"variant": "classic", "end_score": 100, "deal": 4242}, computer_level="easy")
        code = (await anna.expect("joined"))["code"]
        await anna.send("fill_computers", level="easy")
        await anna.send("start")
        await play(anna, lambda t: phase(t) == "playing" and len(t["view"]["tricks"]) >= 1)
        await settled([a, b], [anna])
        shown = anna.table["seq"]

        os.kill(a.pid, signal.SIGSTOP)
        try:
            back = await come_back(cluster, [b], "Anna", code, anna.joined["seat_token"], shown)
            assert back.table["seq"] >= shown
            await play(back, lambda t: t["seq"] > shown + 8)  # plays on at node-b
        finally:
            os.kill(a.pid, signal.SIGCONT)
        await wait_until(lambda: _healthy_without_tables(a), what="node-a dropping the table it lost")
        await play(back, lambda t: t["seq"] > shown + 16)  # node-b is not disturbed
        rows = await pg.sql(
            cluster.db,
            "SELECT l.n, l.lease FROM table_log l JOIN tables t ON t.id = l.table_id WHERE t.code = $1 ORDER BY l.n",
            code,
        )
        assert [r["n"] for r in rows] == list(range(1, len(rows) + 1))
        leases = [r["lease"] for r in rows]
        assert leases == sorted(leases) and len(set(leases)) == 2  # node-a's, then node-b's: no interleaving
        assert a.proc.poll() is None and b.proc.poll() is None


async def _healthy_without_tables(node: ServerProcess) -> bool:
    return http_json(node, "/healthz")["tables"] == 0


async def test_a_relayed_guest_whose_table_node_came_back_at_once_is_sent_back_not_left_without_a_seat(cluster):
    """The table's node is killed and started again (same name) before its presence runs out.

    The guest's edge still relays to it; the node's new life knows nothing of the guest's connection: it closes it
    with 1012 (the guest resumes), rather than handing it back to the edge, where every move would be ``not_seated``.
    """
    async with asyncio.timeout(BUDGET * 2):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        anna, bram, code = await seat_two(cluster, a, b, 1, end=100)
        await asyncio.gather(play(anna, lambda t: phase(t) == "playing"), play(bram, lambda t: phase(t) == "playing"))
        await a.crash()
        await asyncio.to_thread(a.start)  # the same name, within the 3 s its presence outlives it
        for _ in range(40):  # Bram's next message (relayed, unlike a ping) reaches node-a's new life
            if bram.closed:
                break
            with contextlib.suppress(websockets.ConnectionClosed):
                await bram.send("ready")
            await asyncio.sleep(0.25)
        await bram.wait(lambda: bram.closed, what="the guest's connection closed")
        assert bram.close_code == 1012
        assert "not_seated" not in [m.get("code") for m in bram.inbox if m["type"] == "error"]
        back = await come_back(cluster, [a, b], "Bram1", code, bram.joined["seat_token"], bram.table["seq"])
        assert back.table["code"] == code


async def test_a_relayed_guest_who_waits_when_the_table_node_came_back_at_once_is_sent_back_all_the_same(cluster):
    """As above, but the guest sends nothing after the restart (his move went to the dead node and was lost).

    The node's new life tells every node it started: the edge closes the guest's connection with 1012 by itself, and
    he resumes; without that he would wait for an answer for good.
    """
    async with asyncio.timeout(BUDGET * 2):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        anna, bram, code = await seat_two(cluster, a, b, 2, end=100)
        await asyncio.gather(play(anna, lambda t: phase(t) == "playing"), play(bram, lambda t: phase(t) == "playing"))
        await a.crash()
        await asyncio.to_thread(a.start)  # the same name, within the 3 s its presence outlives it
        await bram.wait(lambda: bram.closed, timeout=10, what="the guest's connection closed without a word of his")
        assert bram.close_code == 1012
        back = await come_back(cluster, [a, b], "Bram2", code, bram.joined["seat_token"], bram.table["seq"])
        assert back.table["code"] == code
