"""``hearts bench offline``: the offline game's budgets, measured in Debian's Chromium against a real ``hearts serve``.

It prints: what a first visit of the installed app costs (the bytes the service worker keeps, and the seconds until the
engine is kept: a visit that does not install the app, play offline or play against computer players keeps none);
how long the engine takes to be ready with the network off and a warm cache (the worker started, the runtime and the
project's Python loaded, ``shared/`` hashed), over several page loads; the medium and hard computer players'
decision times inside the worker, from positions of real hands; the longest stall of the page's own thread while
the worker thinks a hard decision (the page must never block); and the size of the project's Python sent to the
browser. Needs Playwright (the ``test`` extra) and Chromium (``apt-get install chromium``).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from hartenjagen.server.table.bundle import bundle_bytes
from hartenjagen.shared.bots.choice import decide
from hartenjagen.shared.game import Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .bench_server import Proc, _free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]  # fmt: skip
KEPT = """async () => {
    await navigator.serviceWorker.ready;
    for (;;) {
        const engine = await caches.match('/engine/python.json');
        if (engine) {
            const {runtime} = await engine.json();
            const kept = await Promise.all(runtime.files.map((f) => caches.match(runtime.base + f)));
            if (kept.every(Boolean)) return Promise.all(kept.map((r) => r.arrayBuffer().then((b) => b.byteLength)));
        }
        await new Promise((done) => setTimeout(done, 50));
    }
}"""
# From the page's load (its time origin) until the engine is ready: the start page starts it by itself offline.
READY = """async () => {
    const facts = await window.hartenjagen.offline.start();
    return {page_ms: performance.now(), phases: facts.phases, same_hash: facts.hash === facts.expected};
}"""
# One decision in the worker while the page's own thread counts how late its 10 ms timer fires.
DECIDE = """async ([level, seed, view]) => {
    let last = performance.now(), worst = 0;
    const timer = setInterval(() => {
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
    }, 10);
    const answer = await window.hartenjagen.offline.decide(level, seed, view);
    clearInterval(timer);
    return {ms: answer.ms, stall_ms: Math.max(0, worst - 10), intent: answer.intent};
}"""


def positions(count: int, seed: int, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Return ``count`` views of the seat to act, from hands of the variant ``options`` played by the easy player.

    A fourth of the plays are kept, spread over the hands: a play with one legal card is no decision, and a pass is
    made by the tips, with no search.
    """
    rng = random.Random(seed)
    rules = make_rules(options or {})
    out: list[dict[str, Any]] = []
    while len(out) < count:
        game = Game(rules)
        game.deal_seeded(rng.randrange(2**32))
        while game.phase != "hand_over" and len(out) < count:
            seat = game.to_act()[0]
            view = view_for(game, seat)
            if rng.random() < 0.25 and view["phase"] == "playing" and len(view["legal"]) > 1:
                out.append(view)
            intent = decide("easy", rng.randrange(2**32), view)
            if intent is None:
                raise RuntimeError(f"the easy player made no move at seat {seat}")
            game.apply({**intent, "seat": seat})
    return out


#: The tables the hard player is timed at: every table size, with the variant of that size that costs the most to
#: think through (a card that appears twice costs more than one deck).
HARD_TABLES: list[tuple[str, dict[str, Any]]] = [
    ("3 seats, three with a kitty", {"variant": "three_kitty"}),
    ("4 seats, classic", {}),
    ("5 seats, five with a kitty", {"variant": "five_kitty"}),
    ("6 seats, cancellation", {"variant": "cancellation", "seats": 6}),
    ("8 seats, extreme", {"variant": "extreme"}),
    ("10 seats, cancellation", {"variant": "cancellation", "seats": 10}),
    ("12 seats, cancellation", {"variant": "cancellation", "seats": 12}),
]


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 1)


class PhoneClass:
    """Chromium on a fraction of one core of this machine, as a phone: Linux's CPU controller (root, cgroup v1 or v2).

    Chromium's own CPU throttling slows the page but not its workers, where the offline game thinks; a CPU quota
    slows every process of the browser alike. ``slowdown`` 4 is a quarter of a core, as Lighthouse's mobile runs.
    """

    PERIOD_US = 10_000  # short periods: the quota is spread over the decision, not taken in one 100 ms gulp

    def __init__(self, slowdown: float) -> None:
        self.slowdown = slowdown
        self.folder: Path | None = None
        self.root: Path | None = None

    def __enter__(self) -> PhoneClass:
        quota = int(self.PERIOD_US / self.slowdown)
        v1, v2 = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup")
        if (v1 / "cpu.cfs_quota_us").exists():
            self.root, self.folder = v1, v1 / f"hearts-phone-{os.getpid()}"
            self.folder.mkdir(exist_ok=True)
            (self.folder / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
            (self.folder / "cpu.cfs_quota_us").write_text(str(quota))
        elif (v2 / "cgroup.controllers").exists() and "cpu" in (v2 / "cgroup.controllers").read_text().split():
            self.root, self.folder = v2, v2 / f"hearts-phone-{os.getpid()}"
            self.folder.mkdir(exist_ok=True)
            (self.folder / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
        else:
            raise SystemExit("--phone needs Linux's CPU controller (cgroup v1 cpu, or v2 with cpu), and root")
        return self

    def enter(self) -> None:
        """Move this process into the quota: what it starts from now on (the browser) stays there."""
        assert self.folder is not None
        (self.folder / "cgroup.procs").write_text(str(os.getpid()))

    def leave(self) -> None:
        """Move this process back out: the browser it started stays in the quota."""
        assert self.root is not None
        (self.root / "cgroup.procs").write_text(str(os.getpid()))

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            self.leave()
            time.sleep(0.2)  # the browser's processes have gone
            try:
                self.folder.rmdir()
            except OSError:
                pass


def bench_offline(
    loads: int = 5, medium: int = 40, hard: int = 12, seed: int = 1, phone: float | None = None
) -> dict[str, Any]:
    """Measure the offline budgets once; return the figures.

    With ``phone`` (a slowdown, such as 4) the browser runs on that fraction of one core, as a phone would.
    """
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="hearts-bench-offline-"))
    port = _free_port()
    argv = [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    proc = Proc(argv + ["--db", str(folder / "bench.db")], port, folder / "server.log")
    proc.start()
    base = f"http://127.0.0.1:{port}/"
    quota = PhoneClass(phone) if phone else contextlib.nullcontext()
    stack = contextlib.ExitStack()
    try:
        proc.wait_healthy()
        with urllib.request.urlopen(base + "engine/python.json", timeout=10) as answer:
            runtime = json.load(answer)["runtime"]
        with quota:
            if isinstance(quota, PhoneClass):
                quota.enter()  # Playwright's driver, and so the browser it starts, start inside the quota
            p = stack.enter_context(sync_playwright())
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            if isinstance(quota, PhoneClass):
                quota.leave()
            context = browser.new_context()
            page = context.new_page()
            started = time.monotonic()
            page.goto(base)
            page.evaluate("() => window.dispatchEvent(new Event('appinstalled'))")  # installed: the engine is kept
            sizes = page.evaluate(KEPT)
            first_visit_s = time.monotonic() - started
            context.set_offline(True)
            ready = []
            for _ in range(loads):
                page.reload()
                page.wait_for_function("() => window.hartenjagen && window.hartenjagen.offline")
                ready.append(page.evaluate(READY))
            views = positions(medium, seed)
            medium_runs = [page.evaluate(DECIDE, ["medium", i, v]) for i, v in enumerate(views)]
            same = sum(r["intent"] == decide("medium", i, views[i]) for i, r in enumerate(medium_runs))
            hard_runs: dict[str, list[dict[str, Any]]] = {}
            for name, options in HARD_TABLES:
                table_views = positions(hard, seed, options)
                hard_runs[name] = [page.evaluate(DECIDE, ["hard", i, v]) for i, v in enumerate(table_views)]
            browser.close()
            stack.close()
        proc.check()
    finally:
        stack.close()
        proc.stop()
    every_hard = [r for runs in hard_runs.values() for r in runs]
    return {
        "runtime": f"pyodide {runtime['version']}",
        "phone_slowdown": phone,
        "first_visit_bytes": sum(sizes) + len(bundle_bytes()),
        "first_visit_s": round(first_visit_s, 2),
        "ready_page_ms": [round(r["page_ms"]) for r in ready],
        "ready_median_ms": _median([r["page_ms"] for r in ready]),
        "ready_same_hash": all(r["same_hash"] for r in ready),
        # where a warm start's time goes (medians, ms): the project's Python fetched, the runtime loaded, imported
        "ready_phases_ms": {k: _median([r["phases"][k] for r in ready]) for k in ("bundle", "runtime", "python")},
        "medium_median_ms": _median([r["ms"] for r in medium_runs]),
        "medium_p90_ms": _p90([r["ms"] for r in medium_runs]),
        "medium_same_as_server": f"{same}/{medium}",
        "hard_ms": {
            name: {"median": _median([r["ms"] for r in runs]), "max": round(max(r["ms"] for r in runs), 1)}
            for name, runs in hard_runs.items()
        },
        "hard_max_ms": round(max(r["ms"] for r in every_hard), 1),
        "page_stall_max_ms": round(max(r["stall_ms"] for r in every_hard), 1),
        "python_bytes": len(bundle_bytes()),
    }


def format_offline(r: dict[str, Any]) -> str:
    """Return the figures as lines for people, each with its budget."""
    machine = f", on 1/{r['phone_slowdown']:g} of a core (a phone)" if r.get("phone_slowdown") else ""
    lines = [
        f"offline engine on {r['runtime']} in Chromium{machine}",
        f"  first visit   {r['first_visit_bytes'] / 1e6:6.1f} MB kept by the service worker in "
        f"{r['first_visit_s']:.1f} s (loopback)",
        f"  ready, warm   {r['ready_median_ms']:6.0f} ms median of {len(r['ready_page_ms'])} offline loads "
        f"{r['ready_page_ms']} (budget 3000), hash equal: {r['ready_same_hash']}",
        f"                of which {r['ready_phases_ms']}",
        f"  medium        {r['medium_median_ms']:6.1f} ms median, p90 {r['medium_p90_ms']} (budget 50); "
        f"same as the server's: {r['medium_same_as_server']}",
        f"  hard          {r['hard_max_ms']:6.1f} ms at most over every table (budget 300 on a phone)",
    ]
    lines += [f"    {name:24s} {t['median']:6.1f} ms median, max {t['max']}" for name, t in r["hard_ms"].items()]
    lines += [
        f"  page stall    {r['page_stall_max_ms']:6.1f} ms longest while the worker thought hard decisions",
        f"  own Python    {r['python_bytes'] / 1e3:6.0f} kB (budget 1000)",
    ]
    return "\n".join(lines)
