"""Server capacity benchmark: our server and a bare ``websockets`` baseline under the same generated load.

Both servers run as processes of their own on loopback; the load comes from ``tools.loadgen`` worker
processes. Phases (ours first, then the bare server with messages padded to our median size): a seating
ramp, play at human pace over a measured window, a restart that every client comes back from, memory per
idle connection; then, ours only, memory after rounds of tables opened and closed. With ``idle`` (``--idle``)
that many more connections say hello right after the ramp and stay through play and the restart (the 10,000
connections run: ``--tables 500 --idle 8000``); the server's RSS with them minus without gives memory per
idle connection under load.
``bench_server`` returns the figures, ``format_server_report`` prints them.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hartenjagen.server.allocator import live_figure
from hartenjagen.server.config import Config
from hartenjagen.server.settings import one_address_flags

from .loadgen import TIMEOUT, Pool, die_with_parent

PHASES = ("ramp", "play", "restart", "idle", "memory", "bare")
ROOT = Path(__file__).resolve().parent.parent
MEMORY_MARGIN = 0.10  # the last churn round's RSS may exceed the first round's by this fraction


@dataclass
class Settings:
    """What ``hearts bench server`` was asked to do."""

    tables: int = 1000
    seconds: float = 60.0
    think: tuple[float, float] = (1.0, 2.0)
    workers: int = 2
    idle_connections: int = 2000
    idle: int = 0  # connections held idle after hello through play and the restart (0: none)
    memory_tables: int = 500
    rounds: int = 3
    warmup: float = 5.0
    concurrency: int = 128
    compression: str = field(default_factory=lambda: Config().compression)  # both servers' permessage-deflate mode
    settle: float = 2.0  # seconds a server gets to settle before its memory is read
    skip: frozenset[str] = field(default_factory=frozenset)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _errors(results: list[dict[str, Any]]) -> dict[str, int]:
    total: Counter[str] = Counter()
    for r in results:
        total.update(r.get("errors", {}))
    return dict(total)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listen_overflows() -> int:
    """Return the system's count of connections dropped for a full listen queue (each costs a 1 s SYN retry)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/net/netstat") as f:
            lines = f.read().splitlines()
        for head, values in zip(lines[::2], lines[1::2], strict=False):
            fields = dict(zip(head.split(), values.split(), strict=False))
            if "ListenOverflows" in fields:
                return int(fields["ListenOverflows"])
    return 0


class Proc:
    """A server under test in its own process: start, wait until healthy, read CPU and memory, stop."""

    def __init__(self, argv: list[str], port: int, log: Path) -> None:
        self.argv, self.port, self.log = argv, port, log
        self.popen: subprocess.Popen | None = None

    def start(self) -> float:
        """Start the process; return the monotonic time just before."""
        t0 = time.monotonic()
        with open(self.log, "ab") as out:
            self.popen = subprocess.Popen(
                self.argv, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, preexec_fn=die_with_parent
            )
        return t0

    def wait_healthy(self, timeout: float = 60.0) -> float:
        """Poll ``/healthz`` until it answers; return the monotonic time it did."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                raise RuntimeError(f"{self.argv[2]} exited with {self.popen.returncode}:\n{self.tail()}")
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2) as resp:
                    if resp.status == 200:
                        return time.monotonic()
            time.sleep(0.02)
        raise RuntimeError(f"{self.argv[2]} did not get healthy within {timeout:.0f} s:\n{self.tail()}")

    def check(self) -> None:
        """Raise if the server has exited (a crash would otherwise show up only as client errors)."""
        if self.popen is None or self.popen.poll() is not None:
            code = None if self.popen is None else self.popen.returncode
            raise RuntimeError(f"{self.argv[2]} is not running (exit {code}):\n{self.tail()}")

    def health(self) -> dict[str, Any]:
        """Return the ``/healthz`` body."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=5) as resp:
            return json.load(resp)

    def cpu_seconds(self) -> float:
        """Return the process's user plus system CPU time so far."""
        with open(f"/proc/{self.popen.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kib(self) -> int:
        """Return the process's resident memory (VmRSS) in KiB."""
        with open(f"/proc/{self.popen.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self, timeout: float = 30.0) -> float:
        """SIGTERM and wait for the exit (SIGKILL after ``timeout``); return the seconds it took."""
        if self.popen is None or self.popen.poll() is not None:
            return 0.0
        t0 = time.monotonic()
        self.popen.send_signal(signal.SIGTERM)
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
        return time.monotonic() - t0

    def tail(self, lines: int = 20) -> str:
        """Return the last lines of the process's output."""
        with contextlib.suppress(OSError):
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        return ""


def ours(folder: Path, name: str, compression: str) -> Proc:
    """Return (not started) our server on a free port with a fresh database in ``folder``."""
    port = _free_port()
    argv = [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    argv += ["--db", str(folder / f"{name}.db"), "--bot-delay", "0", "--idle-timeout", "600"]
    argv += one_address_flags()  # every player comes from loopback: the limits per address out of the way
    argv += ["--compression", compression]
    return Proc(argv, port, folder / f"{name}.log")


def bare(folder: Path, name: str, size: int, sample: str | None, compression: str) -> Proc:
    """Return (not started) the bare websockets server, broadcasting moves of ``size`` bytes."""
    port = _free_port()
    argv = [sys.executable, "-m", "hartenjagen.tools.bare_server", "--port", str(port), "--size", str(size)]
    argv += ["--compression", compression]
    if sample is not None:
        path = folder / "sample.json"
        path.write_text(sample)
        argv += ["--sample", str(path)]
    return Proc(argv, port, folder / f"{name}.log")


def _shares(pool: Pool, items: list[Any]) -> list[list[Any]]:
    return [items[i :: len(pool)] for i in range(len(pool))]


def seat(pool: Pool, target: str, proc: Proc, s: Settings) -> dict[str, Any]:
    """Phase 2: every player connects, says hello and sits down (create and three joins, or room joins)."""
    at = time.monotonic() + 0.3
    per = max(1, s.concurrency // 3)
    overflows = listen_overflows()
    cmds = [
        {"cmd": "seat", "target": target, "port": proc.port, "tables": share, "at": at, "concurrency": per}
        for share in _shares(pool, list(range(s.tables)))
    ]
    res = pool.ask(cmds, timeout=120 + s.tables * 0.1)
    lat = [x for r in res for x in r["latencies"]]
    seconds = max(r["done"] for r in res) - at
    return {
        "players": len(lat),
        "seconds": round(seconds, 3),
        "players_per_s": round(len(lat) / seconds, 1) if seconds > 0 else 0.0,
        "seat_p50_ms": round(_pct(lat, 0.5), 2),
        "seat_p99_ms": round(_pct(lat, 0.99), 2),
        "listen_overflows": listen_overflows() - overflows,
        "errors": _errors(res),
    }


def play(pool: Pool, proc: Proc, s: Settings) -> dict[str, Any]:
    """Phase 1: everybody plays at human pace; measure over ``s.seconds`` after ``s.warmup``."""
    begin = time.monotonic() + 0.3
    start = begin + s.warmup
    end = start + s.seconds
    pool.send([{"cmd": "play", "think": list(s.think), "begin": begin, "start": start, "end": end}] * len(pool))
    time.sleep(max(0.0, start - time.monotonic()))
    cpu0, t0 = proc.cpu_seconds(), time.monotonic()
    time.sleep(max(0.0, end - time.monotonic()))
    cpu1, t1 = proc.cpu_seconds(), time.monotonic()
    res = pool.collect(timeout=TIMEOUT + 60)
    lat = [x for r in res for x in r["latencies"]]
    messages = sum(r["messages"] for r in res)
    sizes: Counter[int] = Counter()
    for r in res:
        sizes.update({int(k): v for k, v in r["sizes"].items()})
    median_size = int(_pct(list(sizes.elements()), 0.5)) if sizes else 0
    samples = [x for r in res for x in r["samples"]]
    lags = [x for r in res for x in r.get("lags", [])]
    sample = min(samples, key=lambda t: abs(len(t) - median_size)) if samples else None
    cpu = cpu1 - cpu0
    return {
        "moves": len(lat),
        "latency_p50_ms": round(_pct(lat, 0.5), 2),
        "latency_p99_ms": round(_pct(lat, 0.99), 2),
        "latency_max_ms": round(max(lat), 2) if lat else 0.0,
        "messages": messages,
        "messages_per_s": round(messages / (t1 - t0), 1),
        "median_message_bytes": median_size,
        "server_cpu_s": round(cpu, 3),
        "cpu_us_per_message": round(cpu * 1e6 / messages, 2) if messages else 0.0,
        "load_lag_p99_ms": round(_pct(lags, 0.99), 2),  # the load processes' own loop delay (in every latency)
        "load_lag_max_ms": round(max(lags), 2) if lags else 0.0,
        "errors": _errors(res),
        "sample": sample,
    }


def restart(pool: Pool, proc: Proc, s: Settings) -> dict[str, Any]:
    """Phase 3: SIGTERM, start again on the same port (and database); every client comes back."""
    pool.ask_all({"cmd": "restart_expected"})
    overflows = listen_overflows()
    stopped = proc.stop()
    t0 = proc.start()
    healthy = proc.wait_healthy() - t0
    res = pool.ask_all({"cmd": "reconnect", "port": proc.port, "concurrency": s.concurrency}, timeout=300)
    back = [x - t0 for r in res for x in r["back"]]
    back_idle = [x - t0 for r in res for x in r["back_idle"]]
    everyone = back + back_idle
    out = {
        "players": len(back),
        "stop_s": round(stopped, 3),
        "healthy_s": round(healthy, 3),
        "all_back_s": round(max(everyone), 3) if everyone else 0.0,
        "back_p50_s": round(_pct(back, 0.5), 3),
        "listen_overflows": listen_overflows() - overflows,
        "errors": _errors(res),
    }
    if s.idle:
        out["idle_back"] = len(back_idle)  # the idle connections came back too (hello): in all_back_s
    return out


def idle(pool: Pool, target: str, proc: Proc, s: Settings) -> dict[str, Any]:
    """Phase 4: RSS with ``s.idle_connections`` connections that only said hello, minus RSS before them."""
    warm = max(1, min(20, s.idle_connections // len(pool)))
    pool.ask_all({"cmd": "idle", "target": target, "port": proc.port, "count": warm, "concurrency": s.concurrency})
    pool.ask_all({"cmd": "close"})
    time.sleep(s.settle)
    before = proc.rss_kib()
    counts = [len(x) for x in _shares(pool, list(range(s.idle_connections)))]
    cmds = [
        {"cmd": "idle", "target": target, "port": proc.port, "count": n, "concurrency": s.concurrency} for n in counts
    ]
    res = pool.ask(cmds, timeout=300)
    time.sleep(s.settle)
    proc.check()
    after = proc.rss_kib()
    opened = sum(r["open"] for r in res)
    closed = pool.ask_all({"cmd": "close"})
    return {
        "connections": opened,
        "rss_before_kib": before,
        "rss_after_kib": after,
        "kib_per_connection": round((after - before) / opened, 2) if opened else 0.0,
        "errors": _errors(res + closed),
    }


def hold_idle(pool: Pool, target: str, proc: Proc, s: Settings) -> dict[str, Any]:
    """After the ramp: open ``s.idle`` connections that say hello and stay; RSS with them minus RSS without."""
    time.sleep(s.settle)
    before = proc.rss_kib()
    overflows = listen_overflows()
    counts = [len(x) for x in _shares(pool, list(range(s.idle)))]
    t0 = time.monotonic()
    cmds = [
        {"cmd": "idle", "target": target, "port": proc.port, "count": n, "concurrency": s.concurrency} for n in counts
    ]
    res = pool.ask(cmds, timeout=300 + s.idle * 0.05)
    seconds = time.monotonic() - t0
    time.sleep(s.settle)
    proc.check()
    after = proc.rss_kib()
    health = proc.health()
    opened = sum(r["open"] for r in res)
    return {
        "idle": opened,
        "connections": health.get("connections"),  # as the server counts them: the players and the idle
        "connection_limit": health.get("connection_limit"),  # ours: what its open-file limit allows
        "open_s": round(seconds, 3),
        "rss_without_idle_kib": before,
        "rss_with_idle_kib": after,
        "kib_per_idle_connection": round((after - before) / opened, 2) if opened else 0.0,
        "listen_overflows": listen_overflows() - overflows,
        "errors": _errors(res),
    }


def memory_rounds(pool: Pool, proc: Proc, s: Settings) -> dict[str, Any]:
    """Phase 5: warm up, then rounds of tables opened, played a little and left (closed); RSS after each."""
    tokens: list[list[str]] = [[] for _ in range(len(pool))]
    errors: list[dict[str, Any]] = []

    def churn(count: int, first: int) -> int:
        cmds = [
            {
                "cmd": "churn",
                "port": proc.port,
                "tables": share,
                "moves": 4,
                "tokens": tokens[i][: len(share)],
                "concurrency": s.concurrency,
            }
            for i, share in enumerate(_shares(pool, list(range(first, first + count))))
        ]
        res = pool.ask(cmds, timeout=300)
        proc.check()
        errors.extend(res)
        for i, r in enumerate(res):
            tokens[i] = r["tokens"] + tokens[i][len(r["tokens"]) :]
        time.sleep(s.settle)
        return sum(r["done"] for r in res)

    churn(min(50, s.memory_tables), 0)
    baseline = proc.rss_kib()
    baseline_live, unit = live_figure(proc.health())
    rounds = []
    for k in range(s.rounds):
        done = churn(s.memory_tables, (k + 1) * 100_000)
        health = proc.health()
        rounds.append(
            {
                "tables": done,
                "rss_kib": proc.rss_kib(),
                "live": live_figure(health)[0],
                "open_tables": health["tables"],
            }
        )
    first, last = rounds[0]["rss_kib"], rounds[-1]["rss_kib"]
    last_live = rounds[-1]["live"]
    return {
        "baseline_rss_kib": baseline,
        "allocator": proc.health().get("allocator", "pymalloc"),
        "live_unit": unit,  # live memory as /healthz counts it: jemalloc's bytes, or the interpreter's blocks
        "baseline_live": baseline_live,
        "rounds": rounds,
        "last_over_first_pct": round((last - first) * 100 / first, 1) if first else 0.0,
        "live_over_baseline_pct": (
            round((last_live - baseline_live) * 100 / baseline_live, 1) if baseline_live else None
        ),
        "errors": _errors(errors),
    }


def _table_phases(pool: Pool, target: str, proc: Proc, s: Settings) -> dict[str, Any]:
    """Seating ramp, play and restart on one server (seating is needed by the other two)."""
    out: dict[str, Any] = {}
    t0 = proc.start()
    out["start_s"] = round(proc.wait_healthy() - t0, 3)
    ramp = seat(pool, target, proc, s)
    proc.check()
    if "ramp" not in s.skip:
        out["ramp"] = ramp
    if s.idle:
        out["held"] = hold_idle(pool, target, proc, s)
    if "play" not in s.skip:
        out["play"] = play(pool, proc, s)
        proc.check()
    if "restart" not in s.skip:
        out["restart"] = restart(pool, proc, s)
    pool.ask_all({"cmd": "close"})  # on an error the caller stops the server and the load processes
    proc.stop()
    return out


def bench_server(s: Settings) -> dict[str, Any]:
    """Run every phase not in ``s.skip`` against our server and the bare one; return the figures."""
    out: dict[str, Any] = {"settings": {k: v for k, v in vars(s).items() if k != "skip"}, "ours": {}, "bare": {}}
    out["settings"]["skip"] = sorted(s.skip)
    tables = {"ramp", "play", "restart"} - s.skip
    procs: list[Proc] = []
    pool = Pool(s.workers)
    with tempfile.TemporaryDirectory(prefix="hearts-bench-server-") as tmp:
        folder = Path(tmp)
        try:
            if tables:
                procs.append(ours(folder, "ours", s.compression))
                out["ours"] = _table_phases(pool, "ours", procs[-1], s)
            if "idle" not in s.skip:
                procs.append(ours(folder, "ours-idle", s.compression))
                procs[-1].start()
                procs[-1].wait_healthy()
                out["ours"]["idle"] = idle(pool, "ours", procs[-1], s)
                procs[-1].stop()
            sample = out["ours"].get("play", {}).pop("sample", None)
            size = out["ours"].get("play", {}).get("median_message_bytes") or 2500
            if "bare" not in s.skip and tables:
                procs.append(bare(folder, "bare", size, sample, s.compression))
                out["bare"] = _table_phases(pool, "bare", procs[-1], s)
            if "bare" not in s.skip and "idle" not in s.skip:
                procs.append(bare(folder, "bare-idle", size, sample, s.compression))
                procs[-1].start()
                procs[-1].wait_healthy()
                out["bare"]["idle"] = idle(pool, "bare", procs[-1], s)
                procs[-1].stop()
            if "memory" not in s.skip:
                procs.append(ours(folder, "ours-memory", s.compression))
                procs[-1].start()
                procs[-1].wait_healthy()
                out["memory"] = memory_rounds(pool, procs[-1], s)
                procs[-1].stop()
        finally:
            for proc in procs:
                proc.stop(timeout=10)
            pool.close()
    out["bare"].get("play", {}).pop("sample", None)
    out["goals"] = goals(out)
    return out


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def _get(res: dict[str, Any], *path: str) -> Any:
    for key in path:
        if not isinstance(res, dict) or key not in res:
            return None
        res = res[key]
    return res


def _all_errors(side: dict[str, Any]) -> int:
    return sum(sum(p.get("errors", {}).values()) for p in side.values() if isinstance(p, dict))


def goals(out: dict[str, Any]) -> list[dict[str, Any]]:
    """Return one row per goal: our figure, the bare figure, their ratio, the goal and whether it is met."""
    o, b = out["ours"], out["bare"]
    rows = []

    def row(name: str, ours_v: Any, bare_v: Any, goal: str, ok: bool | None, ratio: float | None = None) -> None:
        if ours_v is not None:
            rows.append({"goal": name, "ours": ours_v, "bare": bare_v, "ratio": ratio, "target": goal, "pass": ok})

    p99, bp99 = _get(o, "play", "latency_p99_ms"), _get(b, "play", "latency_p99_ms")
    row("move latency p99 (ms)", p99, bp99, "< 50", p99 is not None and p99 < 50, _ratio(p99, bp99))
    held = _get(o, "held", "idle")
    if held and p99 is not None:
        ratio = _ratio(p99, bp99)
        ok = ratio is not None and ratio <= 1.5
        row(f"move latency p99, +{held:,} idle (x bare)", p99, bp99, "<= 1.5x bare", ok, ratio)
    cpu, bcpu = _get(o, "play", "cpu_us_per_message"), _get(b, "play", "cpu_us_per_message")
    ratio = _ratio(cpu, bcpu)
    row("server CPU per delivered message (us)", cpu, bcpu, "<= 1.3x bare", ratio is not None and ratio <= 1.3, ratio)
    rate, brate = _get(o, "ramp", "players_per_s"), _get(b, "ramp", "players_per_s")
    row("seating ramp (players/s)", rate, brate, ">= 1000", rate is not None and rate >= 1000, _ratio(rate, brate))
    back, bback = _get(o, "restart", "all_back_s"), _get(b, "restart", "all_back_s")
    row("restart: all players back (s)", back, bback, "< 10", back is not None and back < 10, _ratio(back, bback))
    kib, bkib = _get(o, "idle", "kib_per_connection"), _get(b, "idle", "kib_per_connection")
    row("memory per idle connection (KiB)", kib, bkib, "<= 25", kib is not None and kib <= 25, _ratio(kib, bkib))
    kib, bkib = _get(o, "held", "kib_per_idle_connection"), _get(b, "held", "kib_per_idle_connection")
    row("memory per idle connection, held (KiB)", kib, bkib, "< 20", kib is not None and kib < 20, _ratio(kib, bkib))
    grow = _get(out, "memory", "last_over_first_pct")
    row(
        "RSS, last churn round over first (%)",
        grow,
        None,
        f"<= +{MEMORY_MARGIN:.0%}",
        grow is not None and grow <= MEMORY_MARGIN * 100,
    )
    errs = _all_errors(o) + sum(_get(out, "memory", "errors").values() if out.get("memory") else [])
    row("errors (all phases)", errs, _all_errors(b) if b else None, "0", errs == 0)
    return rows


def _fmt(v: Any) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:,.2f}"
    return f"{v:,}" if isinstance(v, int) else str(v)


def format_server_report(res: dict[str, Any]) -> str:
    """Return the goals as a table, then the raw figures of each phase."""
    st = res["settings"]
    idle = f" + {st['idle']:,} idle connections" if st.get("idle") else ""
    lines = [
        f"hearts bench server: {st['tables']:,} tables ({st['tables'] * 4:,} players){idle}, think "
        f"{st['think'][0]:g}-{st['think'][1]:g} s, window {st['seconds']:g} s, {st['workers']} load processes, "
        f"compression {st['compression']}",
        "",
        f"{'goal':<40} {'ours':>12} {'bare':>12} {'ratio':>7} {'target':>13}  result",
    ]
    for r in res["goals"]:
        verdict = "PASS" if r["pass"] else "FAIL"
        lines.append(
            f"{r['goal']:<40} {_fmt(r['ours']):>12} {_fmt(r['bare']):>12} {_fmt(r['ratio']):>7} "
            f"{r['target']:>13}  {verdict}"
        )
    lines += ["", "raw figures (ours | bare):"]
    for phase in ("ramp", "held", "play", "restart", "idle"):
        mine, theirs = res["ours"].get(phase), res["bare"].get(phase)
        if not mine and not theirs:
            continue
        keys = [k for k in (mine or theirs) if k != "errors"]
        lines.append(f"  {phase}:")
        for k in keys:
            lines.append(f"    {k:<24} {_fmt(_get(mine or {}, k)):>14} | {_fmt(_get(theirs or {}, k)):>14}")
        for who, side in (("ours", mine), ("bare", theirs)):
            if side and side.get("errors"):
                lines.append(f"    errors ({who}): {side['errors']}")
    mem = res.get("memory")
    if mem:
        lines.append(
            f"  memory ({mem['allocator']}): baseline {mem['baseline_rss_kib']:,} KiB "
            f"({mem['baseline_live']:,} live {mem['live_unit']}), after each round of "
            + ", ".join(
                f"{r['tables']} tables: {r['rss_kib']:,} KiB, {r['live']:,} {mem['live_unit']} "
                f"({r['open_tables']} open)"
                for r in mem["rounds"]
            )
            + f"; RSS last over first {mem['last_over_first_pct']:+.1f} % (bare: n/a)"
        )
        if mem["errors"]:
            lines.append(f"    errors: {mem['errors']}")
    return "\n".join(lines)
