"""Cluster benchmark (``hearts bench server --nodes N,...``): tables played at human pace across N real nodes.

For each N: a fresh PostgreSQL database and a unique Redis key prefix, N ``hearts serve`` processes on loopback
(``node1``.. as deploy/nginx.conf names them), and in front of them the shipped nginx config run for real
(``tools.nginx``): every person connects through it, the creator makes the table, the three others join by code
and follow ``moved`` to the table's node as a browser does. With ``--no-proxy`` each person connects to a node
drawn at random instead (seeded), and moves of players on another node cross over Redis (the relay). Figures: the
connections and tables the nodes hold at the end of the window, move latency (local, crossing), each node's CPU and
RSS, CPU per delivered message, the share of frames relayed over the whole play (from the nodes' ``/metrics``),
errors; then an estimate of the nodes 100,000 connections would need.
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

from hartenjagen.server.settings import one_address_flags

from .bench_server import Proc, Settings, _errors, _free_port, _pct, _shares
from .loadgen import TIMEOUT, Pool
from .nginx import NODES, Nginx, nginx_binary

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
    argv += one_address_flags()  # every player comes from loopback: the limits per address out of the way
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


def frame_counts(port: int) -> tuple[float, float]:
    """A node's frames written to its connections and frames it sent to other nodes, from its ``/metrics``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
        text = resp.read().decode()
    sent = relayed = 0.0
    for line in text.splitlines():
        if line.startswith("hearts_frames_sent_total "):
            sent = float(line.split()[-1])
        elif line.startswith('hearts_relayed_frames_total{direction="out"}'):
            relayed = float(line.split()[-1])
    return sent, relayed


def seat_across(
    pool: Pool, nodes: list[Proc], s: Settings, rng: random.Random, proxy: int | None = None
) -> dict[str, Any]:
    """Seat every table: through the proxy (port ``proxy``) or each player on a node drawn at random.

    The creator's node owns the table.
    """
    if proxy is not None:
        ports = [[proxy] * 4 for _ in range(s.tables)]
    else:
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
    crossing = None if proxy is not None else sum(p != t[0] for t in ports for p in t[1:])
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
    # The frames are counted over the whole play (from before anyone moves until every move has landed), so that they
    # cover the window in which the people count the messages they get: a frame in flight at an edge is on both sides.
    frames0 = [frame_counts(n.port) for n in nodes]
    pool.send([{"cmd": "play", "think": list(s.think), "begin": begin, "start": start, "end": end}] * len(pool))
    time.sleep(max(0.0, start - time.monotonic()))
    cpu0, t0, m0 = [n.cpu_seconds() for n in nodes], time.monotonic(), machine_ticks()
    time.sleep(max(0.0, end - time.monotonic()))
    cpu1, t1, m1 = [n.cpu_seconds() for n in nodes], time.monotonic(), machine_ticks()
    health = [n.health() for n in nodes]
    rss = [n.rss_kib() for n in nodes]
    res = pool.collect(timeout=TIMEOUT + 60)
    frames1 = [frame_counts(n.port) for n in nodes]
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
    messages = sum(r["messages"] for r in res)
    sent = sum(b[0] - a[0] for a, b in zip(frames0, frames1, strict=True))
    relayed = sum(b[1] - a[1] for a, b in zip(frames0, frames1, strict=True))
    cpu = sum(c1 - c0 for c0, c1 in zip(cpu0, cpu1, strict=True))
    return {
        "nodes": per_node,
        "moves": _latencies(res),
        "machine_busy_pct": round(busy, 1),
        "errors": _errors(res),
        "messages_delivered": messages,
        "cpu_us_per_message": round(cpu * 1e6 / messages, 1) if messages else None,
        "frames_sent": int(sent),
        "relayed_frames": int(relayed),
        "relayed_share": round(relayed / sent, 4) if sent else None,
    }


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


def run_cluster(
    pool: Pool, n: int, s: Settings, folder: Path, admin: str = ADMIN_URL, proxy: bool = True
) -> dict[str, Any]:
    """Start ``n`` nodes on a fresh database and Redis prefix (behind nginx with ``proxy``); seat, play, stop.

    Return the figures.
    """
    db = asyncio.run(_create_database(admin))
    prefix = f"hearts_bench_{secrets.token_hex(4)}:"
    names = NODES[:n] if proxy else [f"n{n}-{i + 1}" for i in range(n)]
    nodes = [node(folder, db, prefix, name, s.compression) for name in names]
    front: Nginx | None = None
    try:
        for proc in nodes:
            proc.start()
        for proc in nodes:
            proc.wait_healthy()
        wait_cluster(nodes)
        if proxy:
            (folder / f"nginx-{n}").mkdir(exist_ok=True)
            front = Nginx.run(dict(zip(names, (p.port for p in nodes), strict=True)), folder / f"nginx-{n}")
        seated = seat_across(pool, nodes, s, random.Random(SEED + n), front.port if front else None)
        nginx0 = front.cpu_seconds() if front else 0.0
        played = play_across(pool, nodes, s)
        nginx_cpu = (front.cpu_seconds() - nginx0) if front else None
        closed = pool.ask_all({"cmd": "close"})
    finally:
        if front is not None:
            front.stop()
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
        "proxy": "deploy/nginx.conf" if proxy else None,
        "nginx_cpu_s": round(nginx_cpu, 2) if nginx_cpu is not None else None,
        "messages_delivered": played["messages_delivered"],
        "cpu_us_per_message": played["cpu_us_per_message"],
        "frames_sent": played["frames_sent"],
        "relayed_frames": played["relayed_frames"],
        "relayed_share": played["relayed_share"],
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


def bench_cluster(s: Settings, counts: list[int], logs: Path | None = None, proxy: bool = True) -> dict[str, Any]:
    """Run the cluster benchmark once per node count in ``counts``; keep the node logs in ``logs`` if given.

    With ``proxy`` (the default) everyone connects through the shipped nginx config; the result then holds, for the
    most nodes, ``relayed_share`` and ``cpu_ratio_vs_one_node`` (CPU per delivered message against one node's).
    """
    settings = {k: v for k, v in vars(s).items() if k in ("tables", "seconds", "think", "workers", "warmup")}
    settings["compression"] = s.compression
    settings["proxy"] = "deploy/nginx.conf" if proxy else None
    out: dict[str, Any] = {"settings": settings | {"nodes": counts}, "runs": [], "logs": str(logs) if logs else None}
    with contextlib.ExitStack() as stack:
        if logs is None:
            logs = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="hearts-bench-cluster-")))
        logs.mkdir(parents=True, exist_ok=True)
        pool = Pool(s.workers)
        stack.callback(pool.close)
        for n in counts:
            out["runs"].append(run_cluster(pool, n, s, logs, proxy=proxy))
    out["estimate"] = estimate(max(out["runs"], key=lambda r: r["nodes"])) if out["runs"] else None
    most = max(out["runs"], key=lambda r: r["nodes"]) if out["runs"] else None
    one = next((r for r in out["runs"] if r["nodes"] == 1), None)
    out["relayed_share"] = most["relayed_share"] if most else None
    ratio = None
    if most and one and most["cpu_us_per_message"] and one["cpu_us_per_message"]:
        ratio = round(most["cpu_us_per_message"] / one["cpu_us_per_message"], 3)
    out["cpu_ratio_vs_one_node"] = ratio
    return out


def missing_proxy() -> str | None:
    """A message when the shipped proxy cannot run here (no nginx), else None."""
    if nginx_binary() is None:
        return "needs Debian's nginx (bash tools/ensure_services.sh installs it), or --no-proxy"
    return None


def _pct_or_na(share: float | None) -> str:
    return "n/a" if share is None else f"{share * 100:.2f} %"


def _ms(v: float | None) -> str:
    return "n/a" if v is None else f"{v:,.2f}"


def format_cluster_report(res: dict[str, Any]) -> str:
    """Return the figures of each node count, then the estimate line."""
    st = res["settings"]
    lines = [
        f"hearts bench server --nodes {','.join(map(str, st['nodes']))}: {st['tables']:,} tables "
        f"({st['tables'] * 4:,} players{'' if st.get('proxy') else ', each on a random node'}), "
        f"think {st['think'][0]:g}-{st['think'][1]:g} s, "
        f"window {st['seconds']:g} s, {st['workers']} load processes, compression {st['compression']}"
        + (f", through {st['proxy']} (nginx)" if st.get("proxy") else ", no proxy"),
    ]
    for run in res["runs"]:
        mv = run["moves"]
        lines += [
            "",
            f"{run['nodes']} node(s): {run['connections']:,} connections held, {run['tables']:,} tables "
            + (
                f"({run['crossing_players']:,} of {run['players']:,} players on another node than their table)"
                if run["crossing_players"] is not None
                else f"({run['players']:,} players seated through the proxy)"
            ),
            f"  CPU per delivered message {_ms(run['cpu_us_per_message'])} µs (the nodes', "
            f"{run['messages_delivered']:,} messages); frames relayed {run['relayed_frames']:,} of "
            f"{run['frames_sent']:,} sent ({_pct_or_na(run['relayed_share'])})"
            + (f"; nginx CPU {run['nginx_cpu_s']:g} s" if run.get("nginx_cpu_s") is not None else ""),
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
    lines.append("")
    if res.get("cpu_ratio_vs_one_node") is not None:
        most = max(r["nodes"] for r in res["runs"])
        lines.append(
            f"{most} nodes against one: {res['cpu_ratio_vs_one_node']:g} times the CPU per delivered message; "
            f"frames relayed {_pct_or_na(res['relayed_share'])}"
        )
    est = res.get("estimate")
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
