"""``hearts bench chaos``: three cluster nodes play on while a nemesis breaks things at random; nothing may be lost.

Jepsen's way on real processes and services, all on loopback and all the bench's own: a private PostgreSQL and Redis
(``chaos_services``), three ``hearts serve`` nodes (``node1``..``node3``, each under libfaketime, each reaching
PostgreSQL and Redis through a fault proxy of its own, ``faultproxy``), and the shipped nginx config in front
(``nginx``). Scripted people (``chaos_people``) sit at tables of every kind and play for ``--seconds`` while the
nemesis injects one fault at a time, drawn from a seeded random generator (``--seed``: a failing run can be run
again), every kind in turn in a shuffled order, with random pauses between them. Then every fault is healed, the
people get back to their seats, the nodes stop, and the checker (``chaos_check``) holds what they were shown against
what PostgreSQL stored.

The faults (``KINDS``): a node killed with SIGKILL mid-hand, or mid-commit (its PostgreSQL proxy holds a log append
on its way, and the node dies while it is held), and started again with the same name after 1 to 3 s; a node paused
with SIGSTOP for 0.5 to 2 lease times; Redis restarted empty (SIGKILL, no dump) or with every key (``SHUTDOWN SAVE``,
started on its dump); one node cut off from Redis (its proxy blackholes) for 0.3 to 3 lease times while the others
reach it; PostgreSQL killed (SIGKILL of the instance) and started again after 0.5 to 2 s; PostgreSQL slowed by 0.5 to
2 s a round trip for 2 to 6 s (one node's proxy, or every node's); one node's wall clock jumped 30 s forward.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .chaos_check import Verdict, check
from .chaos_people import Person
from .chaos_services import ChaosNode, PrivatePostgres, PrivateRedis
from .faultproxy import Proxies
from .nginx import NODES, Nginx

KINDS = (
    "kill_mid_hand",
    "kill_mid_commit",
    "pause",
    "redis_restart_empty",
    "redis_restart_kept",
    "redis_cut",
    "pg_restart",
    "pg_slow",
    "clock_jump",
)
OPTIONS = {"variant": "classic", "end_score": 25}  # short games: many finished games (replays) to check
APPEND = '"type":"'  # every log entry's JSON starts so: a chunk holding it carries an append
PRESENCE_S = 3.0  # a node's presence key lives this long after its last heartbeat (server.cluster.presence)
POOL_FLOOR = "Failed to restore the pool connection floor; retrying\nTraceback"  # asyncpg's own, PostgreSQL down
LINGER = 20.0  # a close this long after a fault's end is still counted as that fault's
BACK_WAIT = 90.0  # seconds the people get, after the last fault is healed, to be back at their seats


@dataclass
class Settings:
    """What one run does."""

    seconds: float = 600.0
    seed: int = 1
    lease_ms: int = 3000
    sets: int = 1  # how many times the cast of tables and people (``cast``) sits down
    gap: tuple[float, float] = (2.0, 5.0)  # seconds between two faults
    each: int = 0  # go on past ``seconds`` until every kind of fault was injected this often
    logs: str | None = None  # keep every log in this folder
    progress: bool = True  # a line on stderr for each fault


@dataclass
class Fault:
    """One fault injected: its kind, where, and from when to when (monotonic seconds)."""

    kind: str
    target: str
    start: float
    end: float
    detail: str = ""
    late_append: float | None = None  # a cut node: its last append to PostgreSQL, seconds after the cut began


@dataclass
class Outcome:
    """The figures of a run."""

    settings: dict[str, Any]
    faults: list[Fault] = field(default_factory=list)
    verdict: Verdict | None = None
    people: int = 0
    tables_seated: int = 0
    people_lost: list[str] = field(default_factory=list)
    resume: list[float] = field(default_factory=list)  # seconds from a fault's end to each affected person's view
    resume_by_kind: dict[str, list[float]] = field(default_factory=dict)
    unattributed_closes: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    node_log: Counter[str] = field(default_factory=Counter)
    cut_late_appends: int = 0
    elapsed: float = 0.0


class Chaos:
    """One run: the services, the nodes, the proxy, the people, the nemesis and the checker."""

    def __init__(self, settings: Settings, folder: Path) -> None:
        self.s = settings
        self.folder = folder
        self.rng = random.Random(settings.seed)  # the nemesis's: the same seed, the same faults
        self.stage = random.Random(f"{settings.seed} people")  # the cast's and the people's (drawn while they play)
        self.pg = PrivatePostgres(folder / "postgres.log")
        self.redis = PrivateRedis(folder / "redis")
        self.proxies: Proxies | None = None
        self.nodes: list[ChaosNode] = []
        self.nginx: Nginx | None = None
        self.people: list[Person] = []
        self.out = Outcome(settings=asdict(settings))
        self.began = 0.0

    # ------------------------------------------------------------------ the stage

    def say(self, text: str) -> None:
        """A progress line on stderr."""
        if self.s.progress:
            print(f"[chaos {time.monotonic() - self.began:7.1f}s] {text}", file=sys.stderr, flush=True)

    async def set_up(self) -> None:
        """PostgreSQL, Redis, the fault proxies, three nodes, nginx."""
        await asyncio.to_thread(self.pg.init)
        self.pg.start()
        await self.pg.wait()
        await self.pg.create("hearts")
        self.redis.start()
        await self.redis.wait()
        targets = {}
        for name in NODES:
            targets[f"pg-{name}"] = self.pg.port
            targets[f"redis-{name}"] = self.redis.port
        with open(self.folder / "faultproxy.log", "ab") as log:
            self.proxies = await asyncio.to_thread(Proxies(targets).start, log)
        for name in NODES:  # from now on each PostgreSQL proxy notes when an append last went through it
            await self.proxies.command(f"pg-{name}", "last", APPEND)
        for name in NODES:
            db = self.pg.url("hearts", self.proxies.ports[f"pg-{name}"])
            redis = f"redis://127.0.0.1:{self.proxies.ports[f'redis-{name}']}"
            self.nodes.append(ChaosNode(name, self.folder, db, redis, "chaos:", self.s.lease_ms))
        for node in self.nodes:  # one after another: the first migrates the database
            await node.start()
        await self._cluster_formed()
        ports = {node.name: node.port for node in self.nodes}
        (self.folder / "nginx").mkdir()
        self.nginx = await asyncio.to_thread(Nginx.run, ports, self.folder / "nginx")

    async def _cluster_formed(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError, KeyError):
                body = await asyncio.to_thread(_get, self.nodes[0].port, "/api/cluster")
                if len(body["nodes"]) == len(self.nodes):
                    return
            await asyncio.sleep(0.1)
        raise RuntimeError("the nodes did not list each other")

    def node(self, name: str) -> ChaosNode:
        """The node named ``name``."""
        return next(n for n in self.nodes if n.name == name)

    def live_url(self) -> str:
        """A node drawn at random among those whose process runs (what a person without the proxy tries)."""
        running = [n for n in self.nodes if n.alive] or self.nodes
        return f"ws://127.0.0.1:{self.stage.choice(running).port}/ws"

    def person(self, label: str, kind: str, node: ChaosNode | None) -> Person:
        """A person who first connects to ``node`` directly, or through the proxy (None)."""
        assert self.nginx is not None
        nginx = self.nginx
        if node is None:
            first, again, route = (lambda: nginx.ws), (lambda: nginx.ws), "proxy"
        else:
            url = f"ws://127.0.0.1:{node.port}/ws"
            first, again, route = (lambda: url), self.live_url, "direct"
        person = Person(label, kind, route, first, again, nginx.ws_path, random.Random(self.stage.random()))
        person.began = self.began
        self.people.append(person)
        return person

    # ------------------------------------------------------------------ the cast

    async def cast(self, number: int) -> None:
        """Seat one set of tables: every kind of table and person the bench covers."""
        a, b, c = self.stage.sample(self.nodes, 3)
        tag = f"{number}"
        # a table all on one node: four people straight at node a
        local = [self.person(f"Local{tag}-{i}", "local", a) for i in range(4)]
        await self.seat(local[0], local[1:], computers=[])
        # people on several nodes, straight at them: the guests are relayed to the owner
        relayed = [self.person(f"Relay{tag}-0", "relayed", a), self.person(f"Relay{tag}-1", "relayed", b),
                   self.person(f"Relay{tag}-2", "relayed", c)]  # fmt: skip
        await self.seat(relayed[0], relayed[1:], computers=[3])
        # through the proxy: the guests are told where the table lives (moved) and go straight there
        routed = [self.person(f"Route{tag}-{i}", "routed", None) for i in range(3)]
        await self.seat(routed[0], routed[1:], computers=[3])
        # computer players: one person each, one straight at a node, one through the proxy
        await self.seat(self.person(f"Solo{tag}-0", "computers", b), [], computers=[1, 2, 3])
        await self.seat(self.person(f"Solo{tag}-1", "computers", None), [], computers=[1, 2, 3])
        # Play now: two through the proxy, one straight at a node; computers fill the last seat after 5 s
        for i, node in enumerate([None, None, c]):
            presser = self.person(f"Now{tag}-{i}", "play_now", node)
            presser.start({"type": "play_now", "options": OPTIONS, "wait": 5})
            await asyncio.wait_for(presser.seated.wait(), 30)
        # watchers: of the relayed table through the proxy, of the local table straight at a node
        for watcher, code in ((self.person(f"Watch{tag}-0", "watcher", None), relayed[0].code),
                              (self.person(f"Watch{tag}-1", "watcher", b), local[0].code)):  # fmt: skip
            watcher.start({"type": "watch", "code": code})
            await asyncio.wait_for(watcher.seated.wait(), 30)

    async def seat(self, host: Person, guests: list[Person], computers: list[int]) -> None:
        """The host creates a table, computers take ``computers`` seats, the guests join by code; it starts."""
        host.start({"type": "create", "options": OPTIONS, "computer_level": "easy"})
        await asyncio.wait_for(host.seated.wait(), 30)
        assert host.client is not None
        for seat in computers:
            await host.client.send("add_computer", seat=seat, level="easy")
        for guest in guests:
            guest.start({"type": "join", "code": host.code})
            await asyncio.wait_for(guest.seated.wait(), 30)
        deadline = time.monotonic() + 30
        while not (host.last_table and all(s["kind"] for s in host.last_table["seats"])):
            if time.monotonic() > deadline:
                raise RuntimeError(f"table {host.code}: not every seat was taken: {host.last_table}")
            await asyncio.sleep(0.05)
        await host.client.send("start")
        self.out.tables_seated += 1

    # ------------------------------------------------------------------ the nemesis

    async def nemesis(self) -> None:
        """Inject faults until ``seconds`` have passed (and ``each`` of every kind): every kind in turn, shuffled."""
        deadline = time.monotonic() + self.s.seconds
        order: list[str] = []
        while True:
            await asyncio.sleep(self.rng.uniform(*self.s.gap))
            done = Counter(f.kind for f in self.out.faults)
            if time.monotonic() >= deadline and all(done[kind] >= self.s.each for kind in KINDS):
                return
            if not order:
                order = list(KINDS)
                self.rng.shuffle(order)
            fault = await getattr(self, order.pop())()
            self.out.faults.append(fault)
            late = "" if fault.late_append is None else f", last append {fault.late_append:.2f} s into the cut"
            self.say(f"{fault.kind} {fault.target} {fault.detail} ({fault.end - fault.start:.1f} s{late})")

    def _victim(self) -> ChaosNode:
        return self.rng.choice(self.nodes)

    async def _busiest(self) -> ChaosNode:
        """The node with the most tables (a random one when they hold as many): it has commits to catch."""
        counts = {}
        for node in self.nodes:
            with contextlib.suppress(OSError, ValueError, KeyError):
                counts[node.name] = (await asyncio.to_thread(_get, node.port, "/healthz"))["tables"]
        most = max(counts.values(), default=0)
        busiest = [n for n in self.nodes if counts.get(n.name, 0) == most]
        return busiest[int(self.rng.random() * len(busiest))]  # one draw whatever the counts: the seed's faults stay

    async def _restart_after(self, node: ChaosNode, start: float, kind: str, detail: str) -> Fault:
        await asyncio.sleep(self.rng.uniform(1.0, 3.0))
        await node.start()
        return Fault(kind, node.name, start, time.monotonic(), detail)

    async def kill_mid_hand(self) -> Fault:
        """A node killed (SIGKILL) while its tables play; started again after 1 to 3 s."""
        node = self._victim()
        node.kill()
        return await self._restart_after(node, time.monotonic(), "kill_mid_hand", "")

    async def kill_mid_commit(self) -> Fault:
        """A node killed (SIGKILL) while one of its log appends is on its way to PostgreSQL (held by the proxy)."""
        assert self.proxies is not None
        node = await self._busiest()
        pg = f"pg-{node.name}"
        await self.proxies.command(pg, "delay", 150)
        held = await self.proxies.command(pg, "held", APPEND, 5)
        node.kill()
        start = time.monotonic()
        await self.proxies.command(pg, "pass")
        detail = "append held" if held == "held" else "no append caught"
        return await self._restart_after(node, start, "kill_mid_commit", detail)

    async def pause(self) -> Fault:
        """SIGSTOP of a node for 0.5 to 2 lease times, then SIGCONT."""
        node = self._victim()
        seconds = self.rng.uniform(0.5, 2.0) * self.s.lease_ms / 1000
        node.pause()
        start = time.monotonic()
        await asyncio.sleep(seconds)
        node.resume()
        return Fault("pause", node.name, start, time.monotonic(), f"{seconds:.1f} s")

    async def redis_restart_empty(self) -> Fault:
        """Redis killed and started with no key."""
        start = time.monotonic()
        await self.redis.restart_empty()
        return Fault("redis_restart_empty", "redis", start, time.monotonic())

    async def redis_restart_kept(self) -> Fault:
        """Redis saved, stopped and started on its dump."""
        start = time.monotonic()
        await self.redis.restart_kept()
        return Fault("redis_restart_kept", "redis", start, time.monotonic())

    async def redis_cut(self) -> Fault:
        """One node cut off from Redis (its proxy blackholes) for 0.3 to 3 lease times; the others reach it."""
        assert self.proxies is not None
        node = self._victim()
        seconds = self.rng.uniform(0.3, 3.0) * self.s.lease_ms / 1000
        await self.proxies.command(f"redis-{node.name}", "blackhole")
        start = time.monotonic()
        await asyncio.sleep(seconds)
        last = float(await self.proxies.command(f"pg-{node.name}", "last", APPEND))
        await self.proxies.command(f"redis-{node.name}", "pass")
        fault = Fault("redis_cut", node.name, start, time.monotonic(), f"{seconds:.1f} s")
        if last > start:
            fault.late_append = last - start
            if fault.late_append > PRESENCE_S:  # its tables could have been adopted: it must have stopped by then
                self.out.cut_late_appends += 1
        return fault

    async def pg_restart(self) -> Fault:
        """PostgreSQL killed (the whole instance) and started again after 0.5 to 2 s (crash recovery)."""
        self.pg.kill()
        start = time.monotonic()
        await asyncio.sleep(self.rng.uniform(0.5, 2.0))
        self.pg.start()
        await self.pg.wait()
        return Fault("pg_restart", "postgresql", start, time.monotonic())

    async def pg_slow(self) -> Fault:
        """PostgreSQL 0.5 to 2 s slower a round trip for 2 to 6 s, for one node or for all."""
        assert self.proxies is not None
        names = [n.name for n in self.nodes] if self.rng.random() < 1 / 3 else [self._victim().name]
        delay = self.rng.uniform(500, 2000)
        seconds = self.rng.uniform(2.0, 6.0)
        for name in names:
            await self.proxies.command(f"pg-{name}", "delay", round(delay))
        start = time.monotonic()
        await asyncio.sleep(seconds)
        await self.proxies.heal(f"pg-{name}" for name in names)
        target = "all" if len(names) > 1 else names[0]
        return Fault("pg_slow", target, start, time.monotonic(), f"+{delay / 1000:.1f} s a round trip, {seconds:.1f} s")

    async def clock_jump(self) -> Fault:
        """One node's wall clock 30 s forward, at once."""
        node = self._victim()
        node.jump(30)
        now = time.monotonic()
        return Fault("clock_jump", node.name, now, now, f"now +{node.offset} s")

    async def heal(self) -> None:
        """Undo whatever is still broken: proxies pass, nodes run and are not paused."""
        if self.proxies is not None:
            await self.proxies.heal()
        for node in self.nodes:
            if node.stopped:
                node.resume()
            if not node.alive:
                await node.start()

    # ------------------------------------------------------------------ the end

    async def back_at_their_seats(self) -> list[str]:
        """Wait until every person is back at their seat; return those who are not after ``BACK_WAIT``."""
        deadline = time.monotonic() + BACK_WAIT
        while True:
            away = [p.label for p in self.people if not (p.seated.is_set() and not p.down and p.client is not None
                                                        and not p.client.closed)]  # fmt: skip
            if not away or time.monotonic() > deadline:
                return away
            await asyncio.sleep(0.25)

    def resume_times(self) -> None:
        """Seconds from the end of the faults that kept each person away to their next view (or awaited move).

        A close (or a move that waited) belongs to the last fault that began before it, if it came while that fault
        lasted or within ``LINGER`` after; the wait is counted from the end of the last fault that struck while the
        person was away (faults come faster than some recoveries: a node killed, then PostgreSQL restarted while its
        people come back), never from before the cause.
        """
        faults = sorted(self.out.faults, key=lambda f: f.start)
        for p in self.people:
            waits = [(down, back) for down, back in p.outages] + [(sent, shown) for sent, shown in p.slow_moves]
            for down, back in waits:
                assert down is not None
                cause = next((f for f in reversed(faults) if f.start <= down), None)
                if cause is None or down > cause.end + LINGER:
                    self.out.unattributed_closes += 1
                    continue
                if back is None:
                    continue
                struck = [f for f in faults if f.end > f.start and cause.start <= f.start <= back]
                end = max([cause.end] + [f.end for f in struck if f.end <= back])
                wait = max(0.0, back - end)
                self.out.resume.append(wait)
                self.out.resume_by_kind.setdefault(cause.kind, []).append(wait)

    def read_node_logs(self) -> None:
        """Count what the nodes said about leases, fences and failures.

        asyncpg's pool logs its own failed reconnects (PostgreSQL down) with a traceback: those are not counted.
        """
        marks = {
            "tracebacks": "Traceback",
            "fence_refusals": "refused an append from an old lease",
            "self_fenced": "its leases were not renewed in time",
            "leases_lost": "its lease went to another node",
            "adoptions": "whose node went away",
            "parked_db": "the database does not answer; parked",
        }
        for node in self.nodes:
            text = node.err.read_text(errors="replace") if node.err.exists() else ""
            for key, mark in marks.items():
                self.out.node_log[key] += text.count(mark)
            self.out.node_log["tracebacks"] -= text.count(POOL_FLOOR)

    async def run(self) -> Outcome:
        """The whole run; every process it started is stopped on the way out."""
        self.began = time.monotonic()
        try:
            await self.set_up()
            self.say(f"nodes {', '.join(f'{n.name}:{n.port}' for n in self.nodes)}, nginx {self.nginx.port}, "
                     f"postgres {self.pg.port}, redis {self.redis.port}")  # type: ignore[union-attr]  # fmt: skip
            for number in range(1, self.s.sets + 1):
                await self.cast(number)
            self.out.people = len(self.people)
            self.say(f"{len(self.people)} people at {self.out.tables_seated} tables and Play now; the nemesis starts")
            await asyncio.sleep(3.0)
            try:
                await self.nemesis()
            finally:
                await self.heal()
            self.say(f"{len(self.out.faults)} faults; waiting for everyone to be back")
            self.out.people_lost = await self.back_at_their_seats()
            self.resume_times()
            for p in self.people:
                self.out.errors.update(p.errors)
            await asyncio.gather(*(p.stop() for p in self.people))
            for node in self.nodes:
                await node.terminate()
            self.read_node_logs()
            self.out.verdict = await check(self.pg.url("hearts"), self.people)
            if self.s.logs:
                self.dump()
        finally:
            await self.tear_down()
        self.out.elapsed = time.monotonic() - self.began
        return self.out

    def dump(self) -> None:
        """Keep what each person went through and every fault (``people.json``, ``faults.json``) beside the logs."""
        people = [
            {"label": p.label, "kind": p.kind, "route": p.route, "code": p.code, "seat": p.seat, "down": p.down,
             "connects": p.connects, "outages": len(p.outages), "errors": dict(p.errors),
             "closes": {str(k): n for k, n in p.closes.items()}, "events": p.events_shown(), "trail": p.trail,
             "outage_times": [[round(d - self.began, 2), b and round(b - self.began, 2)] for d, b in p.outages],
             "slow_moves": [[round(a - self.began, 2), round(b - self.began, 2)] for a, b in p.slow_moves]}
            for p in self.people
        ]  # fmt: skip
        (self.folder / "people.json").write_text(json.dumps(people, indent=1))
        faults = [{**asdict(f), "start": f.start - self.began, "end": f.end - self.began} for f in self.out.faults]
        (self.folder / "faults.json").write_text(json.dumps(faults, indent=1))

    async def tear_down(self) -> None:
        """Stop the people, nodes, nginx, proxies, Redis and PostgreSQL."""
        for p in self.people:
            with contextlib.suppress(Exception):
                await p.stop()
        for node in self.nodes:
            with contextlib.suppress(Exception):
                node.kill()
        if self.nginx is not None:
            self.nginx.stop()
        if self.proxies is not None:
            self.proxies.stop()
        self.redis.kill()
        self.pg.stop()


def _get(port: int, path: str) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=3) as resp:
        return json.loads(resp.read())


def p99(values: list[float]) -> float:
    """The 99th percentile (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.99 * len(ordered) + 0.5) - 1))]


def summary(out: Outcome) -> dict[str, Any]:
    """The figures as one JSON object (the last line of ``--json``)."""
    v = out.verdict or Verdict()
    kinds = Counter(f.kind for f in out.faults)
    result: dict[str, Any] = {
        "faults": len(out.faults),
        "events_shown": v.events_shown,
        "shown_not_stored": v.shown_not_stored,
        "forks": v.forks + v.lease_regressions,
        "resume_p99_s": round(p99(out.resume), 2),
        "people_lost": len(out.people_lost),
        "faults_by_kind": {kind: kinds.get(kind, 0) for kind in KINDS},
        "seed": out.settings["seed"],
        "seconds": out.settings["seconds"],
        "lease_ms": out.settings["lease_ms"],
        "people": out.people,
        "tables": v.tables,
        "log_rows": v.log_rows,
        "log_gaps": v.log_gaps,
        "lease_regressions": v.lease_regressions,
        "lease_handovers": v.lease_handovers,
        "damaged_logs": v.damaged_logs,
        "games_checked": v.games,
        "games_not_recorded": v.games_not_recorded,
        "replay_mismatches": v.replay_mismatches,
        "replays_missing": v.replays_missing,
        "resumes_measured": len(out.resume),
        "resume_median_s": round(statistics.median(out.resume), 2) if out.resume else 0.0,
        "resume_max_s": round(max(out.resume), 2) if out.resume else 0.0,
        "resume_p99_by_kind_s": {k: round(p99(v), 2) for k, v in sorted(out.resume_by_kind.items())},
        "cut_late_appends": out.cut_late_appends,
        "cut_last_append_max_s": round(
            max((f.late_append or 0.0 for f in out.faults if f.kind == "redis_cut"), default=0.0), 2
        ),  # fmt: skip
        "node_log": dict(out.node_log),
        "errors": dict(out.errors),
        "elapsed_s": round(out.elapsed, 1),
    }
    result["clean"] = bool(
        v.clean and not out.people_lost and not out.cut_late_appends and not out.node_log.get("tracebacks")
    )
    return result


def format_report(result: dict[str, Any], out: Outcome) -> str:
    """The figures and one verdict, as text."""
    kinds = ", ".join(f"{k} {n}" for k, n in result["faults_by_kind"].items())
    lines = [
        f"hearts bench chaos: {result['seconds']:g} s, seed {result['seed']}, lease {result['lease_ms']} ms, "
        f"{result['people']} people at {result['tables']} tables, 3 nodes",
        f"faults: {result['faults']} ({kinds})",
        f"events shown: {result['events_shown']}; log rows {result['log_rows']} in {result['tables']} tables; "
        f"games finished and checked: {result['games_checked']}",
        f"shown, not stored: {result['shown_not_stored']}; forks: {result['forks']}; log gaps: {result['log_gaps']}; "
        f"damaged logs: {result['damaged_logs']}; games not recorded: {result['games_not_recorded']}; replays "
        f"unlike the log: {result['replay_mismatches']}; replays missing: {result['replays_missing']}",
        f"people lost: {result['people_lost']}; back after a fault: p99 {result['resume_p99_s']} s, median "
        f"{result['resume_median_s']} s, max {result['resume_max_s']} s ({result['resumes_measured']} measured)",
        f"back after each kind of fault, p99: {json.dumps(result['resume_p99_by_kind_s'])}",
        f"a node cut off from Redis: last append at most {result['cut_last_append_max_s']} s into the cut "
        f"({result['cut_late_appends']} later than {PRESENCE_S:g} s)",
        f"node logs: {json.dumps(result['node_log'])}; refusals people met: {json.dumps(result['errors'])}",
    ]
    v = out.verdict
    if v is not None and v.examples:
        lines += ["what went wrong, for example:"] + [f"  {e}" for e in v.examples]
    if out.people_lost:
        lines.append(f"not back at their seats: {', '.join(out.people_lost)}")
    lines.append("verdict: " + ("CLEAN: nothing lost, no fork" if result["clean"] else "FAILED"))
    return "\n".join(lines)


def run(settings: Settings) -> tuple[dict[str, Any], Outcome]:
    """Run the bench in a folder of its own (kept in ``settings.logs``, else deleted); return its figures."""
    if settings.logs:
        folder = Path(settings.logs)
        folder.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix="chaos-", dir=folder))
    else:
        folder = Path(tempfile.mkdtemp(prefix="hearts-chaos-"))
    folder.chmod(0o755)  # PostgreSQL runs as its own user below it
    try:
        out = asyncio.run(Chaos(settings, folder).run())
    finally:
        if not settings.logs:
            shutil.rmtree(folder, ignore_errors=True)
    return summary(out), out
