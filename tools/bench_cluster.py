"""Cluster benchmark (``hearts bench server --nodes N,...``): tables played at human pace across N real nodes.

For each N: a fresh PostgreSQL database and a unique Redis key prefix, N ``hearts serve`` processes on loopback,
and the ``tools.loadgen`` workers seating every table with its four players on nodes drawn at random (seeded).
The table lives on the node its creator connected to; the others' moves cross nodes over Redis. Figures: the
connections and tables the nodes hold at the end of the window, move latency (local, crossing), each node's
CPU and RSS, errors; then an estimate of the nodes 100,000 connections would need.
``bench_cluster`` returns the figures, ``format_cluster_report`` prints them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import secrets
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .bench_server import Proc, Settings, _errors, _free_port, _pct, _shares
from .loadgen import TIMEOUT, Pool

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379"
DB_PREFIX = "hearts_bench_"
TARGET_CONNECTIONS = 100_000
TARGET_CPU_PCT = 70.0  # a node planned to run at most this busy (of one core), to leave room for bursts
SEED = 12


def missing_packages() -> str | None:
    """Return a message naming the missing cluster packages (asyncpg, redis), or None when both import."""
    missing = []
    for name in ("asyncpg", "redis"):
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    if not missing:
        return None
    return f"needs the {' and '.join(missing)} package(s): pip install -e '.[cluster]'"


async def _create_database(admin: str) -> str:
    import asyncpg

    name = DB_PREFIX + secrets.token_hex(6)
    conn = await asyncpg.connect(admin, timeout=10)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return urlunsplit(urlsplit(admin)._replace(path="/" + name))


async def _drop_database(admin: str, url: str) -> None:
    import asyncpg

    name = urlsplit(url).path.lstrip("/")
    assert name.startswith(DB_PREFIX), name
    conn = await asyncpg.connect(admin, timeout=10)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def _delete_keys(redis_url: str, prefix: str) -> int:
    from redis.asyncio import Redis

    r = Redis.from_url(redis_url)
    try:
        keys = [k async for k in r.scan_iter(match=prefix + "*", count=1000)]
        if keys:
            await r.delete(*keys)
        return len(keys)
    finally:
        await r.aclose()


def node(folder: Path, db: str, prefix: str, name: str, compression: str) -> Proc:
    """Return (not started) one cluster node on a free port, its output in ``folder/<name>.log``."""
    port = _free_port()
    argv = [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    argv += ["--db", db, "--redis", REDIS_URL, "--redis-prefix", prefix, "--node", name]
    argv += ["--bot-delay", "0", "--idle-timeout", "600", "--compression", compression]
    return Proc(argv, port, folder / f"{name}.log")


def wait_cluster(nodes: list[Proc], timeout: float = 30.0) -> None:
    """Wait until every node lists all of them in ``/api/cluster`` (heartbeats and relays running).

    ``/healthz`` answers as soon as the port listens, before the node's cluster side has started: a table
    created then has no presence behind it yet, and another node would take it over.
    """
    deadline = time.monotonic() + timeout
    pending = list(nodes)
    while pending and time.monotonic() < deadline:
        with contextlib.suppress(OSError, ValueError):
            with urllib.request.urlopen(f"http://127.0.0.1:{pending[0].port}/api/cluster", timeout=2) as resp:
                body = json.load(resp)
            listed = body["nodes"] if isinstance(body, dict) else body
            if len(listed) >= len(nodes):
                pending.pop(0)
                continue
        time.sleep(0.05)
    if pending:
        raise RuntimeError(f"the nodes did not all list each other within {timeout:.0f} s")


def seat_across(pool: Pool, nodes: list[Proc], s: Settings, rng: random.Random) -> dict[str, Any]:
    """Seat every table: each of its four players on a node drawn at random; the creator's node owns it."""
    ports = [[rng.choice(nodes).port for _ in range(4)] for _ in range(s.tables)]
    tables = list(range(s.tables))
    at = time.monotonic() + 0.3
    per = max(1, s.concurrency // 3)
    cmds = [
        {"cmd": "seat", "target": "ours", "port": nodes[0].port, "tables": share, "at": at, "concurrency": per}
        | {"ports": mine}
        for share, mine in zip(_shares(pool, tables), _shares(pool, ports), strict=True)
    ]
    res = pool.ask(cmds, timeout=120 + s.tables * 0.1)
    crossing = sum(p != t[0] for t in ports for p in t[1:])
    return {"players": sum(r["seated"] for r in res), "crossing_players": crossing, "errors": _errors(res)}


def machine_ticks() -> tuple[int, int]:
    """Return the machine's busy and total CPU ticks so far (all cores, from /proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return sum(fields) - idle, sum(fields)


def play_across(pool: Pool, nodes: list[Proc], s: Settings) -> dict[str, Any]:
    """Play at human pace; over the window read each node's CPU, and at its end its /healthz and RSS."""
    begin = time.monotonic() + 0.3
    start = begin + s.warmup
    end = start + s.seconds
    pool.send([{"cmd": "play", "think": list(s.think), "begin": begin, "start": start, "end": end}] * len(pool))
    time.sleep(max(0.0, start - time.monotonic()))
    cpu0, t0, m0 = [n.cpu_seconds() for n in nodes], time.monotonic(), machine_ticks()
    time.sleep(max(0.0, end - time.monotonic()))
    cpu1, t1, m1 = [n.cpu_seconds() for n in nodes], time.monotonic(), machine_ticks()
    health = [n.health() for n in nodes]
    rss = [n.rss_kib() for n in nodes]
    res = pool.collect(timeout=TIMEOUT + 60)
    for n in nodes:
        n.check()
    per_node = [
        {
            "node": h.get("node"),
            "connections": h["connections"],
            "tables": h["tables"],
            "cpu_pct": round((c1 - c0) * 100 / (t1 - t0), 1),
            "rss_kib": kib,
        }
        for h, c0, c1, kib in zip(health, cpu0, cpu1, rss, strict=True)
    ]
    busy = (m1[0] - m0[0]) * 100 / max(1, m1[1] - m0[1])
    return {"nodes": per_node, "moves": _latencies(res), "machine_busy_pct": round(busy, 1), "errors": _errors(res)}


def _latencies(res: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind, key in (("all", "latencies"), ("local", "local"), ("crossing", "crossing")):
        lat = [x for r in res for x in r[key]]
        p50, p99 = (round(_pct(lat, q), 2) if lat else None for q in (0.5, 0.99))
        out[kind] = {"moves": len(lat), "p50_ms": p50, "p99_ms": p99}
    local, cross = out["local"], out["crossing"]
    if local["moves"] and cross["moves"]:
        out["crossing_extra_p50_ms"] = round(cross["p50_ms"] - local["p50_ms"], 2)
        out["crossing_extra_p99_ms"] = round(cross["p99_ms"] - local["p99_ms"], 2)
    else:
        out["crossing_extra_p50_ms"] = out["crossing_extra_p99_ms"] = None
    return out


def run_cluster(pool: Pool, n: int, s: Settings, folder: Path, admin: str = ADMIN_URL) -> dict[str, Any]:
    """Start ``n`` nodes on a fresh database and Redis prefix, seat and play, stop; return the figures."""
    db = asyncio.run(_create_database(admin))
    prefix = f"hearts_bench_{secrets.token_hex(4)}:"
    nodes = [node(folder, db, prefix, f"n{n}-{i + 1}", s.compression) for i in range(n)]
    try:
        for proc in nodes:
            proc.start()
        for proc in nodes:
            proc.wait_healthy()
        wait_cluster(nodes)
        seated = seat_across(pool, nodes, s, random.Random(SEED + n))
        played = play_across(pool, nodes, s)
        closed = pool.ask_all({"cmd": "close"})
    finally:
        stops = [proc.stop(timeout=10) for proc in nodes]
        with contextlib.suppress(Exception):
            asyncio.run(_delete_keys(REDIS_URL, prefix))
        asyncio.run(_drop_database(admin, db))
    errors = _errors([{"errors": seated["errors"]}, {"errors": played["errors"]}, *closed])
    nodes_out = played["nodes"]
    for x, stop, proc in zip(nodes_out, stops, nodes, strict=True):
        x["stop_s"] = round(stop, 2)
        x["exit"] = proc.popen.returncode
    return {
        "nodes": n,
        "players": seated["players"],
        "crossing_players": seated["crossing_players"],
        "connections": sum(x["connections"] for x in nodes_out),
        "tables": sum(x["tables"] for x in nodes_out),
        "moves": played["moves"],
        "per_node": nodes_out,
        "machine_busy_pct": played["machine_busy_pct"],
        "errors": errors,
    }


def estimate(run: dict[str, Any]) -> dict[str, Any] | None:
    """Nodes for 100,000 connections from one run's connections and CPU per node (each node at most 70 %)."""
    per = run["per_node"]
    conns = sum(x["connections"] for x in per) / len(per)
    cpu = sum(x["cpu_pct"] for x in per) / len(per)
    if conns <= 0 or cpu <= 0:
        return None
    per_node = conns * TARGET_CPU_PCT / cpu
    return {
        "from_nodes": run["nodes"],
        "connections_per_node": round(conns),
        "cpu_pct_per_node": round(cpu, 1),
        "connections_per_node_at_target": round(per_node),
        "target_cpu_pct": TARGET_CPU_PCT,
        "nodes_for_100k": math.ceil(TARGET_CONNECTIONS / per_node),
    }


def bench_cluster(s: Settings, counts: list[int], logs: Path | None = None) -> dict[str, Any]:
    """Run the cluster benchmark once per node count in ``counts``; keep the node logs in ``logs`` if given."""
    settings = {k: v for k, v in vars(s).items() if k in ("tables", "seconds", "think", "workers", "warmup")}
    settings["compression"] = s.compression
    out: dict[str, Any] = {"settings": settings | {"nodes": counts}, "runs": [], "logs": str(logs) if logs else None}
    with contextlib.ExitStack() as stack:
        if logs is None:
            logs = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="hearts-bench-cluster-")))
        logs.mkdir(parents=True, exist_ok=True)
        pool = Pool(s.workers)
        stack.callback(pool.close)
        for n in counts:
            out["runs"].append(run_cluster(pool, n, s, logs))
    out["estimate"] = estimate(max(out["runs"], key=lambda r: r["nodes"])) if out["runs"] else None
    return out


def _ms(v: float | None) -> str:
    return "n/a" if v is None else f"{v:,.2f}"


def format_cluster_report(res: dict[str, Any]) -> str:
    """Return the figures of each node count, then the estimate line."""
    st = res["settings"]
    lines = [
        f"hearts bench server --nodes {','.join(map(str, st['nodes']))}: {st['tables']:,} tables "
        f"({st['tables'] * 4:,} players, each on a random node), think {st['think'][0]:g}-{st['think'][1]:g} s, "
        f"window {st['seconds']:g} s, {st['workers']} load processes, compression {st['compression']}",
    ]
    for run in res["runs"]:
        mv = run["moves"]
        lines += [
            "",
            f"{run['nodes']} node(s): {run['connections']:,} connections held, {run['tables']:,} tables "
            f"({run['crossing_players']:,} of {run['players']:,} players on another node than their table)",
        ]
        for kind in ("all", "local", "crossing"):
            m = mv[kind]
            lines.append(
                f"  move latency {kind:<9} {m['moves']:>7,} moves   p50 {_ms(m['p50_ms']):>8} ms   "
                f"p99 {_ms(m['p99_ms']):>8} ms"
            )
        lines.append(
            f"  crossing extra           p50 {_ms(mv['crossing_extra_p50_ms'])} ms   "
            f"p99 {_ms(mv['crossing_extra_p99_ms'])} ms"
        )
        for x in run["per_node"]:
            lines.append(
                f"  node {x['node']:<8} {x['connections']:>6,} connections {x['tables']:>5,} tables   "
                f"CPU {x['cpu_pct']:>5.1f} % of a core   RSS {x['rss_kib'] / 1024:,.1f} MiB   "
                f"stopped in {x['stop_s']:g} s (exit {x['exit']})"
            )
        lines.append(
            f"  machine: {run['machine_busy_pct']:g} % of its {os.cpu_count()} cores busy over the window "
            "(nodes, PostgreSQL, Redis, load generator)"
        )
        errs = sum(run["errors"].values())
        lines.append(f"  errors {errs}" + (f": {run['errors']}" if errs else ""))
    est = res.get("estimate")
    lines.append("")
    if est:
        lines.append(
            f"estimate: {est['nodes_for_100k']} nodes for {TARGET_CONNECTIONS:,} connections at this pace "
            f"(from the {est['from_nodes']}-node run: {est['connections_per_node']:,} connections per node at "
            f"{est['cpu_pct_per_node']:g} % of a core, so about {est['connections_per_node_at_target']:,} per node "
            f"at {est['target_cpu_pct']:g} %). An estimate from a 2-core machine where all nodes, PostgreSQL, "
            "Redis and the load generator share the cores: the figures show the cost of the cluster, not its ceiling."
        )
    else:
        lines.append("estimate: n/a (no connections or no CPU measured)")
    if res.get("logs"):
        lines.append(f"node logs: {res['logs']}")
    return "\n".join(lines)
