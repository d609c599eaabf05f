"""``hearts bench failover``: kill -9 a cluster node, again and again, and time until its tables play on elsewhere.

Three real ``hearts serve`` nodes on a fresh PostgreSQL database and a Redis key prefix of their own. Each round:
people sit at tables on the victim node (three computer players each) and play into the hand; the victim is killed
with SIGKILL; every person reconnects through a random live node and resumes. A table is *playable again* once a
move is made on it after the resume (the person's own, or a computer's). The round's failover time is its slowest
table's. Moves lost: moves a person was shown before the kill that the resumed table does not have. The victim is
started again (same name) before the next round.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from hartenjagen.server.settings import one_address_flags
from hartenjagen.server.table.changes import fold

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = os.environ.get("HEARTS_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("HEARTS_BENCH_REDIS", "redis://127.0.0.1:6379")
OPTIONS = {"variant": "classic", "end_score": 100}
ROUND_LIMIT = 60.0  # seconds a round may take before the benchmark gives up and says which tables did not return


class Node:
    """One ``hearts serve`` cluster node process on a free loopback port."""

    def __init__(self, name: str, db: str, prefix: str, lease_ms: int, logs: Path) -> None:
        self.name, self.db, self.prefix, self.lease_ms, self.logs = name, db, prefix, lease_ms, logs
        self.proc: subprocess.Popen | None = None
        self.port = 0

    def start(self) -> None:
        """Start the node and wait for its serving line."""
        # every player comes from loopback: the limits per address out of the way
        cmd = [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--host", "127.0.0.1", "--port", "0",
               "--db", self.db, "--redis", REDIS_URL, "--redis-prefix", self.prefix, "--node", self.name,
               "--lease-ms", str(self.lease_ms), "--bot-delay", "0", "--bot-workers", "0",
               *one_address_flags()]  # fmt: skip
        out = self.logs / f"{self.name}.out"  # this start's serving line (the port), not an earlier one's
        with open(out, "wb") as stdout, open(self.logs / f"{self.name}.err", "ab") as stderr:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=stdout, stderr=stderr, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            lines = [line for line in out.read_text().splitlines() if line.startswith("Hartenjagen serving on")]
            if lines:
                self.port = int(lines[-1].split("http://127.0.0.1:")[1].split("/")[0])
                return
            time.sleep(0.05)
        raise RuntimeError(f"node {self.name} did not start")

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the node."""
        if self.alive:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


class Person:
    """A scripted person: plays the first legal card (passes the first cards) whenever it is their turn."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.ws: ClientConnection | None = None
        self.table: dict[str, Any] | None = None
        self.token = self.code = self.seat_token = ""
        self.changed = asyncio.Event()
        self.reader: asyncio.Task | None = None
        self.errors: list[str] = []

    async def connect(self, port: int) -> None:
        """Open a connection and say hello (with the player token once there is one)."""
        self.ws = await connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10)
        self.table = None
        hello: dict[str, Any] = {"type": "hello", "version": 1, "name": self.label}
        if self.token:
            hello["player_token"] = self.token
        await self.ws.send(json.dumps(hello))
        welcome = json.loads(await self.ws.recv())
        if welcome["type"] != "welcome":
            raise RuntimeError(f"{self.label}: {welcome}")
        self.token = welcome["player_token"]
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if msg["type"] == "update":
                    msg = fold(self.table, msg)
                if msg["type"] == "table":
                    self.table = msg
                elif msg["type"] == "joined":
                    self.code, self.seat_token = msg["code"], msg["seat_token"]
                elif msg["type"] == "error":
                    self.errors.append(msg["code"])
                self.changed.set()
        except Exception:
            pass
        finally:
            self.changed.set()

    async def wait(self, pred: Any, timeout: float = 30.0) -> None:
        """Wait until ``pred()`` holds (or the connection closed)."""
        deadline = time.monotonic() + timeout
        while not pred():
            if self.reader is None or self.reader.done():
                raise ConnectionError(f"{self.label}: connection closed")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.label}: timed out")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass

    async def send(self, **msg: Any) -> None:
        """Send one message."""
        await self.ws.send(json.dumps(msg))

    async def move_if_mine(self) -> bool:
        """Make this seat's move if it is to act; True if one was sent."""
        t = self.table
        v = t and t["view"]
        if not v or t["status"] != "playing" or v["seat"] not in v["to_act"]:
            return False
        if v["phase"] == "passing":
            await self.send(type="pass", cards=v["hand"][: v["pass_count"]])
        elif v["phase"] == "playing":
            await self.send(type="play", card=v["legal"][0])
        elif v["phase"] == "hand_over":
            return False
        else:
            await self.send(type="moon", choice="others")
        return True

    async def play_until(self, stop: Any) -> None:
        """Play until ``stop(table)``."""
        await self.wait(lambda: self.table is not None)
        while not stop(self.table):
            seq = self.table["seq"]
            await self.move_if_mine()
            await self.wait(lambda seq=seq: self.table["seq"] > seq or stop(self.table))

    async def close(self) -> None:
        """Close the connection."""
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


async def _sit(person: Person, port: int, deal: int) -> None:
    await person.connect(port)
    await person.send(type="create", options={**OPTIONS, "deal": deal}, computer_level="easy")
    await person.wait(lambda: bool(person.code))
    await person.send(type="fill_computers", level="easy")
    await person.send(type="start")
    await person.play_until(lambda t: t["view"] and t["view"]["phase"] == "playing" and len(t["view"]["tricks"]) >= 1)


async def _come_back(person: Person, nodes: list[Node], killed: float) -> tuple[float, int]:
    """Resume through random live nodes until a move is made on the table; return (seconds, moves lost)."""
    shown = person.table["seq"]
    await person.close()
    while True:
        port = random.choice([n.port for n in nodes if n.alive])
        try:
            await person.connect(port)
            await person.send(type="resume", code=person.code, seat_token=person.seat_token, last_seq=shown)
            await person.wait(lambda: person.table is not None, timeout=10)
            back = person.table["seq"]
            await person.move_if_mine()
            await person.wait(lambda back=back: person.table["seq"] > back, timeout=10)
            return time.monotonic() - killed, max(0, shown - back)
        except (ConnectionError, TimeoutError, OSError) as exc:
            if os.environ.get("HEARTS_BENCH_DEBUG"):
                t = person.table
                print(person.label, port, repr(exc), t and t["seq"], t and t["view"] and t["view"]["to_act"],
                      person.errors[-2:], file=sys.stderr)  # fmt: skip
            await person.close()
            await asyncio.sleep(0.2)


async def _round(nodes: list[Node], victim: Node, tables: int, round_no: int) -> dict[str, Any]:
    people = [Person(f"P{round_no}_{i}") for i in range(tables)]
    await asyncio.gather(*(_sit(p, victim.port, 1000 * round_no + i) for i, p in enumerate(people)))
    await asyncio.sleep(0.3)
    await asyncio.to_thread(victim.kill)
    killed = time.monotonic()
    try:
        async with asyncio.timeout(ROUND_LIMIT):
            results = await asyncio.gather(*(_come_back(p, nodes, killed) for p in people))
    except TimeoutError:
        stuck = {p.label: (p.code, p.errors[-3:]) for p in people}
        raise RuntimeError(f"round {round_no}: not every table came back within {ROUND_LIMIT} s: {stuck}") from None
    for p in people:
        await p.send(type="leave")
        await p.close()
    return {"seconds": max(r[0] for r in results), "lost": sum(r[1] for r in results), "tables": tables}


async def _database() -> str:
    import asyncpg

    name = f"hearts_bench_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(ADMIN_URL)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return ADMIN_URL.rsplit("/", 1)[0] + "/" + name


async def _drop(url: str, prefix: str) -> None:
    import asyncpg
    from redis.asyncio import Redis

    conn = await asyncpg.connect(ADMIN_URL)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
    finally:
        await conn.close()
    redis = Redis.from_url(REDIS_URL)
    keys = [k async for k in redis.scan_iter(match=prefix + "*")]
    if keys:
        await redis.delete(*keys)
    await redis.aclose()


async def bench_failover(kills: int, tables: int, lease_ms: int, logs: Path) -> dict[str, Any]:
    """Run ``kills`` rounds on three nodes; return each round's failover time and moves lost."""
    url = await _database()
    prefix = f"hearts_bench_{secrets.token_hex(4)}:"
    nodes = [Node(f"node-{n}", url, prefix, lease_ms, logs) for n in (1, 2, 3)]
    rounds = []
    try:
        for node in nodes:
            await asyncio.to_thread(node.start)
        for k in range(kills):
            victim = nodes[k % 3]
            rounds.append(await _round(nodes, victim, tables, k + 1))
            print(f"round {k + 1}: {rounds[-1]['seconds']:.2f} s", file=sys.stderr, flush=True)
            await asyncio.to_thread(victim.start)
            await asyncio.sleep(1.0)
    finally:
        for node in nodes:
            node.kill()
        await _drop(url, prefix)
    times = [r["seconds"] for r in rounds]
    return {
        "rounds": rounds,
        "median_s": statistics.median(times),
        "max_s": max(times),
        "lost": sum(r["lost"] for r in rounds),
        "tables": tables,
        "lease_ms": lease_ms,
    }


def format_failover_report(result: dict[str, Any]) -> str:
    """The figures as text."""
    lines = [
        f"hearts bench failover: 3 nodes, {result['tables']} tables on the victim each round, lease "
        f"{result['lease_ms']} ms; kill -9, then every person resumes through a random live node",
        "round  playable again (slowest table)  moves lost",
    ]
    for i, r in enumerate(result["rounds"], 1):
        lines.append(f"{i:>5}  {r['seconds']:>8.2f} s{'':>20}  {r['lost']}")
    lines.append(
        f"median {result['median_s']:.2f} s, max {result['max_s']:.2f} s over {len(result['rounds'])} kills; "
        f"moves lost: {result['lost']}"
    )
    return "\n".join(lines)


def run(kills: int, tables: int, lease_ms: int, logs: str | None = None) -> dict[str, Any]:
    """Run the benchmark with node logs in ``logs`` (kept), or in a temporary folder."""
    if logs:
        Path(logs).mkdir(parents=True, exist_ok=True)
        return asyncio.run(bench_failover(kills, tables, lease_ms, Path(logs)))
    with tempfile.TemporaryDirectory(prefix="hearts-failover-") as folder:
        return asyncio.run(bench_failover(kills, tables, lease_ms, Path(folder)))
