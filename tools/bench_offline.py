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

import json
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
from hartenjagen.shared.cards import parse_card
from hartenjagen.shared.game import Game
from hartenjagen.shared.rules import make_rules
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


def positions(count: int, seed: int) -> list[dict[str, Any]]:
    """Return ``count`` views of the seat to act from hands of classic played by the easy player, spread over hands."""
    rng = random.Random(seed)
    rules = make_rules({})
    out: list[dict[str, Any]] = []
    while len(out) < count:
        game = Game(rules)
        game.deal_seeded(rng.randrange(2**32))
        while game.phase != "hand_over" and len(out) < count:
            seat = game.to_act()[0]
            view = view_for(game, seat)
            if rng.random() < 0.25:
                out.append(view)
            intent = decide("easy", rng.randrange(2**32), view)
            if intent["type"] == "pass":
                game.pass_cards(seat, [parse_card(c) for c in intent["cards"]])
            else:
                game.play(seat, parse_card(intent["card"]))
    return out


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 1)


def bench_offline(loads: int = 5, medium: int = 40, hard: int = 12, seed: int = 1) -> dict[str, Any]:
    """Measure the offline budgets once; return the figures."""
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="hearts-bench-offline-"))
    port = _free_port()
    argv = [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    proc = Proc(argv + ["--db", str(folder / "bench.db")], port, folder / "server.log")
    proc.start()
    base = f"http://127.0.0.1:{port}/"
    try:
        proc.wait_healthy()
        with urllib.request.urlopen(base + "engine/python.json", timeout=10) as answer:
            runtime = json.load(answer)["runtime"]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
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
            views = positions(medium + hard, seed)
            medium_runs = [page.evaluate(DECIDE, ["medium", i, v]) for i, v in enumerate(views[:medium])]
            hard_runs = [page.evaluate(DECIDE, ["hard", i, v]) for i, v in enumerate(views[medium:])]
            same = sum(r["intent"] == decide("medium", i, views[i]) for i, r in enumerate(medium_runs))
            browser.close()
        proc.check()
    finally:
        proc.stop()
    return {
        "runtime": f"pyodide {runtime['version']}",
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
        "hard_median_ms": _median([r["ms"] for r in hard_runs]),
        "hard_max_ms": round(max(r["ms"] for r in hard_runs), 1),
        "page_stall_max_ms": round(max(r["stall_ms"] for r in hard_runs), 1),
        "python_bytes": len(bundle_bytes()),
    }


def format_offline(r: dict[str, Any]) -> str:
    """Return the figures as lines for people, each with its budget."""
    return "\n".join(
        [
            f"offline engine on {r['runtime']} in Chromium",
            f"  first visit   {r['first_visit_bytes'] / 1e6:6.1f} MB kept by the service worker in "
            f"{r['first_visit_s']:.1f} s (loopback)",
            f"  ready, warm   {r['ready_median_ms']:6.0f} ms median of {len(r['ready_page_ms'])} offline loads "
            f"{r['ready_page_ms']} (budget 3000), hash equal: {r['ready_same_hash']}",
            f"                of which {r['ready_phases_ms']}",
            f"  medium        {r['medium_median_ms']:6.1f} ms median, p90 {r['medium_p90_ms']} (budget 50); "
            f"same as the server's: {r['medium_same_as_server']}",
            f"  hard          {r['hard_median_ms']:6.1f} ms median, max {r['hard_max_ms']} (budget 1500)",
            f"  page stall    {r['page_stall_max_ms']:6.1f} ms longest while the worker thought hard decisions",
            f"  own Python    {r['python_bytes'] / 1e3:6.0f} kB (budget 1000)",
        ]
    )
