"""``hearts bench server --bots LEVEL``: tables of one person and computer players, at human pace.

A real ``hearts serve`` process; one asyncio client process plays the people (a table of one person sends
about one message a second, so a single process keeps up with hundreds). Each person creates a table (classic
Hearts to 100, or the variant and options asked for: Cancellation at ten seats has nine computer players), fills
its other seats with computer players of a level, starts and plays random legal cards after a think time. What is
measured, from the person's side: the time from the moment a computer seat's turn began (the message that
showed it) to the message with its move (the server's ``--bot-delay`` included), and the person's own move
round trip.

With ``--reviews N``, N more people each play a few hands first; after a quiet window they all ask for
reviews of their hands at once, and a second window measures the same tables while the reviews run.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from hartenjagen.server.settings import one_address_flags
from hartenjagen.server.table.changes import fold

from .bench_server import Proc, _free_port, _pct

TIMEOUT = 30.0
CLASSIC = {"variant": "classic", "end_score": 100}  # the tables' game unless another is asked for
REFLECTED_BY = {"pass": "passed", "play": "play", "moon": "moon", "ready": "ready", "start": "deal"}


@dataclass
class BotSettings:
    """What one run of the bench does."""

    tables: list[int]  # tables of one person and computer players, one run per count
    options: dict[str, Any] = field(default_factory=lambda: dict(CLASSIC))  # the game of each table
    level: str = "hard"
    others: dict[str, int] = field(default_factory=dict)  # more tables of other levels, measured apart
    seconds: float = 60.0  # each measured window
    warmup: float = 10.0
    think: tuple[float, float] = (1.0, 2.0)
    bot_delay: float = 0.6  # the server's --bot-delay (its default)
    reviews: int = 0  # people who ask for reviews of their hands after the first window
    review_hands: int = 3  # hands each of them plays first (and asks a review of)
    review_ms: float = 500.0
    server_args: list[str] = field(default_factory=list)
    seed: int = 1


class Window:
    """The latencies recorded in one phase, by the level of the computer players."""

    def __init__(self) -> None:
        self.bot: dict[str, list[float]] = {}
        self.person: dict[str, list[float]] = {}

    def summary(self, level: str) -> dict[str, Any]:
        """Return the figures for ``level`` (ms)."""
        bot, person = self.bot.get(level, []), self.person.get(level, [])
        return {
            "computer_moves": len(bot),
            "computer_p50_ms": round(_pct(bot, 0.5), 1),
            "computer_p99_ms": round(_pct(bot, 0.99), 1),
            "computer_max_ms": round(max(bot, default=0.0), 1),
            "over_2s": sum(1 for x in bot if x > 2000),
            "person_moves": len(person),
            "person_p50_ms": round(_pct(person, 0.5), 1),
            "person_p99_ms": round(_pct(person, 0.99), 1),
        }


class Person:
    """One scripted person at a table with three computer players (or, ``reviewer``, fast and then idle)."""

    def __init__(self, bench: Bench, level: str, rng: random.Random, think: tuple[float, float]) -> None:
        self.bench, self.level, self.rng, self.think = bench, level, rng, think
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] | None = None
        self.seat = 0
        self.turn_began: dict[int, float] = {}  # computer seat -> when its turn showed
        self.pending: tuple[str, float] | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.stop_after_hands: int | None = None  # reviewer: stop acting once this many hands are over
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.errors: list[str] = []

    async def sit(self, port: int, name: str) -> None:
        """Connect, say hello, create a table and fill it with computer players (the first table shown starts it)."""
        self.ws = await connect(f"ws://127.0.0.1:{port}/ws", ping_interval=None, open_timeout=TIMEOUT)
        asyncio.get_running_loop().create_task(self._read())
        await self._send({"type": "hello", "version": 1, "name": name})
        await self._wait("welcome")
        await self._send({"type": "create", "options": self.bench.s.options})
        await self._wait("joined")
        await self._send({"type": "fill_computers", "level": self.level})
        # no start of its own: the table full of computer players makes ``wanted`` say "start", once (``pending``)

    async def _send(self, msg: dict[str, Any]) -> None:
        if self.ws is not None:
            try:
                await self.ws.send(json.dumps(msg))
            except ConnectionClosed:
                self.errors.append("closed")

    async def _wait(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = await asyncio.wait_for(self.inbox.get(), max(0.01, deadline - time.monotonic()))
            if msg["type"] == kind:
                return msg
            if msg["type"] == "error":
                raise RuntimeError(f"{kind}: error {msg.get('code')}")

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self._on(json.loads(raw), time.monotonic())
        except ConnectionClosed:
            pass
        except Exception as exc:  # a bug in the script: report it, do not hang the run
            self.errors.append(f"script: {exc!r}")

    def _on(self, msg: dict[str, Any], now: float) -> None:
        kind = msg["type"]
        if kind in ("table", "update"):
            self.state = msg if kind == "table" else fold(self.state, msg)
            self.seat = self.state["you"]
            self._measure(msg.get("events") or [], now)
            self._decide()
        else:
            if kind == "error":
                self.errors.append(str(msg.get("code")))
                self.pending = None
            self.inbox.put_nowait(msg)

    def _measure(self, events: list[dict[str, Any]], now: float) -> None:
        window = self.bench.window
        for e in events:
            s = e.get("seat")
            if e["type"] in ("play", "passed") and s is not None and s != self.seat:
                began = self.turn_began.pop(s, None)
                if began is not None and window is not None:
                    window.bot.setdefault(self.level, []).append((now - began) * 1000)
            if self.pending is not None and e["type"] == REFLECTED_BY.get(self.pending[0]) and s in (None, self.seat):
                if window is not None:
                    window.person.setdefault(self.level, []).append((now - self.pending[1]) * 1000)
                self.pending = None
        view = self.state.get("view")
        acting = set(view["to_act"]) if view and self.state["status"] == "playing" else set()
        for s in list(self.turn_began):
            if s not in acting:
                del self.turn_began[s]  # the hand or phase ended another way (a moon choice, a new game)
        for s in acting - {self.seat}:
            self.turn_began.setdefault(s, now)

    def wanted(self) -> str | None:
        """What this person would do now."""
        s = self.state
        view = s.get("view")
        if s["status"] == "finished":
            return "new_game"
        if s["status"] == "waiting":
            return "start" if all(x["kind"] != "empty" for x in s["seats"]) else None
        if s["status"] != "playing" or view is None:
            return None
        if (
            self.stop_after_hands is not None
            and view["hand_no"] + (view["phase"] == "hand_over") >= self.stop_after_hands
        ):
            return None
        if self.seat in view["to_act"]:
            if view.get("moon_choices"):
                return "moon"
            return {"passing": "pass", "playing": "play"}.get(view["phase"])
        if view["phase"] == "hand_over" and self.seat not in s["ready"]:
            return "ready"
        return None

    def _decide(self) -> None:
        if self.pending is not None or self.timer is not None or self.wanted() is None:
            return
        delay = self.rng.uniform(*self.think)
        self.timer = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self.timer = None
        kind = self.wanted()
        if kind is None or self.pending is not None:
            return
        view = self.state["view"]
        if kind == "pass":
            msg: dict[str, Any] = {"type": "pass", "cards": self.rng.sample(view["hand"], view["pass_count"])}
        elif kind == "play":
            msg = {"type": "play", "card": self.rng.choice(view["legal"])}
        elif kind == "moon":
            msg = {"type": "moon", "choice": "others"}
        else:
            msg = {"type": kind}
        self.pending = (kind, time.monotonic())
        asyncio.get_running_loop().create_task(self._send(msg))

    def hands_over(self) -> int:
        """Hands finished at this table so far."""
        view = self.state.get("view") if self.state else None
        return 0 if view is None else view["hand_no"] + (view["phase"] == "hand_over")

    async def review(self, hand_no: int) -> float:
        """Ask for the review of hand ``hand_no``; return the seconds until it came."""
        t0 = time.monotonic()
        await self._send({"type": "review", "hand_no": hand_no})
        await self._wait("review", timeout=1800)
        return time.monotonic() - t0

    async def close(self) -> None:
        """Leave."""
        if self.timer is not None:
            self.timer.cancel()
        if self.ws is not None:
            await self.ws.close()


class Bench:
    """One run: a server, its tables, the windows."""

    def __init__(self, s: BotSettings, count: int) -> None:
        self.s, self.count = s, count
        self.window: Window | None = None
        self.rng = random.Random(s.seed)

    async def run(self, port: int) -> dict[str, Any]:
        """Seat everyone, measure the windows, return the figures."""
        s = self.s
        reviewers = [Person(self, "easy", random.Random(self.rng.random()), (0.0, 0.05)) for _ in range(s.reviews)]
        for i, r in enumerate(reviewers):
            r.stop_after_hands = s.review_hands
            await r.sit(port, f"Reviewer{i}")
        if reviewers:
            deadline = time.monotonic() + 600
            while min(r.hands_over() for r in reviewers) < s.review_hands and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
        levels = [s.level] * self.count + [lvl for lvl, n in s.others.items() for _ in range(n)]
        people = [Person(self, lvl, random.Random(self.rng.random()), s.think) for lvl in levels]
        t0 = time.monotonic()
        for i, p in enumerate(people):  # staggered over one think time, as people arrive
            await asyncio.sleep(max(0.0, t0 + s.think[1] * i / max(1, len(people)) - time.monotonic()))
            await p.sit(port, f"P{i}")
        await asyncio.sleep(s.warmup)
        out: dict[str, Any] = {"tables": self.count, "level": s.level, "others": s.others, "options": s.options}
        self.window = Window()
        await asyncio.sleep(s.seconds)
        quiet, self.window = self.window, None
        out["quiet"] = {lvl: quiet.summary(lvl) for lvl in dict.fromkeys(levels)}
        if reviewers:
            self.window = Window()
            started = time.monotonic()
            asks = [r.review(h) for r in reviewers for h in range(s.review_hands)]
            took = await asyncio.gather(*asks, return_exceptions=True)
            busy, self.window = self.window, None
            secs = [t for t in took if isinstance(t, float)]
            out["reviews"] = {
                "asked": len(asks),
                "given": len(secs),
                "refused": [repr(t) for t in took if not isinstance(t, float)],
                "window_s": round(time.monotonic() - started, 1),
                "last_review_s": round(max(secs, default=0.0), 1),
            }
            out["during_reviews"] = {lvl: busy.summary(lvl) for lvl in dict.fromkeys(levels)}
        errors = [e for p in people + reviewers for e in p.errors]
        out["errors"] = errors[:20]
        for p in people + reviewers:
            await p.close()
        return out


def tree_cpu_seconds(pid: int) -> float:
    """Return the CPU seconds of process ``pid`` and all its descendants (computer-player and review workers)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = sum(int(x) for x in fields[11:15]) / tick  # own and waited-for children's time
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += times.get(p, 0.0)
        todo.extend(c for c, parent in parents.items() if parent == p)
    return total


def hard_budgets(port: int) -> dict[str, int]:
    """Return how many hard decisions the server made at each budget step (nominal ms), from ``/healthz``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as resp:
        health = json.loads(resp.read())
    return dict(health.get("hard_player", {}).get("decisions_by_budget_ms", {}))


def run_bots(s: BotSettings) -> dict[str, Any]:
    """Run the bench once per table count, each on a fresh server; return every run's figures."""
    runs = []
    for count in s.tables:
        folder = Path(tempfile.mkdtemp(prefix="hearts-bench-bots-"))
        port = _free_port()
        argv = [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
        argv += ["--db", str(folder / "bench.db"), "--bot-delay", str(s.bot_delay), "--idle-timeout", "600"]
        argv += ["--review-ms", str(s.review_ms), *one_address_flags(), *s.server_args]  # all from loopback
        proc = Proc(argv, port, folder / "server.log")
        proc.start()
        try:
            proc.wait_healthy()
            cpu0, t0 = tree_cpu_seconds(proc.popen.pid), time.monotonic()
            result = asyncio.run(Bench(s, count).run(port))
            result["server_cpu_pct"] = round(
                100 * (tree_cpu_seconds(proc.popen.pid) - cpu0) / (time.monotonic() - t0), 1
            )
            result["hard_budgets"] = hard_budgets(port)
            proc.check()
        finally:
            proc.stop()
        runs.append(result)
    return {"runs": runs, "settings": {"bot_delay": s.bot_delay, "think": s.think, "seconds": s.seconds}}


def _game(options: dict[str, Any]) -> str:
    """The game of the tables in a few words, e.g. ``cancellation (seats=10)``."""
    rest = ", ".join(f"{k}={v}" for k, v in options.items() if k != "variant")
    return f"{options.get('variant', 'classic')}{f' ({rest})' if rest else ''}"


def format_bots(report: dict[str, Any]) -> str:
    """Return the report as lines for the terminal."""
    lines = [
        f"computer moves, from the turn showing to the move arriving (--bot-delay {report['settings']['bot_delay']} s)"
    ]
    for run in report["runs"]:
        lines.append(
            f"{run['tables']} {run['level']} tables of {_game(run.get('options') or {})} "
            f"(+ {run['others'] or 'nothing else'}), "
            f"server CPU (with its workers) {run['server_cpu_pct']} % of one core"
        )
        phases = [("quiet", run["quiet"])] + (
            [("during reviews", run["during_reviews"])] if "during_reviews" in run else []
        )
        for name, by_level in phases:
            for lvl, f in by_level.items():
                lines.append(
                    f"  {name:<15} {lvl:<7} computer p50 {f['computer_p50_ms']:7.1f}  p99 {f['computer_p99_ms']:7.1f}"
                    f"  max {f['computer_max_ms']:7.1f} ms  over 2 s {f['over_2s']:4d} of {f['computer_moves']:5d}"
                    f"   person p50 {f['person_p50_ms']:6.1f}  p99 {f['person_p99_ms']:6.1f} ms"
                )
        budgets = run.get("hard_budgets") or {}
        total = sum(budgets.values())
        if total:
            shares = ", ".join(f"{ms} ms {100 * n / total:.0f} %" for ms, n in budgets.items() if n / total >= 0.01)
            lines.append(f"  hard budgets (whole run, nominal ms): {shares}")
        if "reviews" in run:
            r = run["reviews"]
            lines.append(
                f"  reviews: {r['given']} of {r['asked']} given, the last after {r['last_review_s']} s "
                f"{r['refused'] or ''}"
            )
        if run["errors"]:
            lines.append(f"  errors: {run['errors']}")
    return "\n".join(lines)
