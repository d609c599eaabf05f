"""A real `hearts serve` on a free port, Debian's Chromium, and helpers that act like a player."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from hartenjagen.server.settings import one_address_flags

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
# Debian's headless shell (package chromium-headless-shell): the same Blink and V8 as Debian's Chromium, without the
# full browser's window layers; it ran the browser tests on half the processor time. HEARTS_CHROMIUM=/usr/bin/chromium
# runs them in the full browser.
CHROMIUM = os.environ.get("HEARTS_CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}
TIMEOUT_MS = 15_000
# What a test waits for (a page's state, or an expectation about it) it waits for this long at most: Playwright's own
# 5 s for expectations is shorter than what the server may take on a busy machine (a hint runs the hard computer
# player, whose first decision in a worker loads its compiled look-ahead; its own limit is 5 s before it answers).
expect.set_options(timeout=TIMEOUT_MS)


def hearts_command() -> list[str]:
    script = Path(sys.executable).with_name("hearts")
    if script.exists():
        return [str(script)]
    found = shutil.which("hearts")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from hartenjagen.server.cli import main; sys.exit(main())"]


# Every server this process started, with what it printed (a failed test's report ends with their logs).
SERVERS: list[tuple[subprocess.Popen, list[str]]] = []


def start_hearts(*args: str) -> tuple[subprocess.Popen, str]:
    """Start `hearts serve` with ``args`` on the loopback address; return the process and the address it printed."""
    # every page comes from loopback: the limits per address are out of the way (the server's tests try them)
    cmd = hearts_command() + ["serve", "--host", "127.0.0.1", "--bot-delay", "0", *one_address_flags(), *args]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found: list[str] = []
    seen: list[str] = []
    SERVERS.append((proc, seen))
    ready = threading.Event()

    def read() -> None:
        for line in proc.stdout:
            seen.append(line)
            match = re.search(r"http://127\.0\.0\.1:\d+/", line)
            if match and not found:
                found.append(match.group(0))
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    ready.wait(60)  # a busy machine may take a while to start Python and import the server
    if not found:
        proc.kill()
        pytest.fail("hearts serve printed no address:\n" + "".join(seen))
    return proc, found[0]


def stop_hearts(proc: subprocess.Popen) -> None:
    """Stop a server as a deploy does (SIGTERM), or kill it when it does not stop."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextmanager
def hearts_serve(*extra: str) -> Iterator[str]:
    """Run `hearts serve` on port 0 with a temporary database, no bot delay and ``extra`` options; yield its address."""
    tmp = tempfile.mkdtemp(prefix="hearts-browser-")
    proc, url = start_hearts("--port", "0", "--db", str(Path(tmp) / "hearts.db"), *extra)
    try:
        yield url
    finally:
        stop_hearts(proc)
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="package")
def server_url() -> Iterator[str]:
    """The server most tests share (a dropped player is marked away after the default 30 s)."""
    with hearts_serve() as url:
        yield url


@pytest.fixture(scope="package")
def quick_away_url() -> Iterator[str]:
    """A second server, started only when asked for, that marks a dropped player away after 1 s (`--grace 1`)."""
    with hearts_serve("--grace", "1") as url:
        yield url


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium chromium-headless-shell")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


# The player's own option "Animation speed", chosen before the page loads unless the page holds a choice already.
# Journeys play at "fast" (the same animations, half as long); those about what the player's default speed shows
# are marked ``animations_normal``, journeys of many hands ``animations_off``.
ANIMATION_SPEED = """(speed) => {
  const key = 'hartenjagen.prefs';
  let prefs = {};
  try { prefs = JSON.parse(localStorage.getItem(key) || '{}') || {}; } catch (e) { prefs = {}; }
  if (!('anim' in prefs)) localStorage.setItem(key, JSON.stringify({...prefs, anim: speed}));
}"""


# The player's own option "Sound", off before the page loads unless the page holds a choice already: the tones are
# made in the browser's audio service, which no test hears, for about a twentieth of the run's processor time.
# Journeys marked ``sound_on`` keep the default (on), so that the sounds' code runs in some of them.
SILENT = """() => {
  const key = 'hartenjagen.prefs';
  let prefs = {};
  try { prefs = JSON.parse(localStorage.getItem(key) || '{}') || {}; } catch (e) { prefs = {}; }
  if (!('sound' in prefs)) localStorage.setItem(key, JSON.stringify({...prefs, sound: false}));
}"""


def animation_speed(node: pytest.Item) -> str | None:
    """The animation speed a test's pages start with (None: the player's default, normal)."""
    if node.get_closest_marker("animations_normal"):
        return None
    return "off" if node.get_closest_marker("animations_off") else "fast"


@pytest.fixture
def open_page(browser: Browser, server_url: str, request: pytest.FixtureRequest) -> Iterator[Callable[..., Page]]:
    """Open the client in a fresh browser context (own storage); page errors fail the test."""
    contexts = []
    errors: list[str] = []

    def open_(
        path: str = "/",
        viewport: dict | None = None,
        locale: str = "en-GB",
        name: str | None = None,
        server: str | None = None,
        expected: tuple[str, ...] = (),
        touch: bool = False,
    ) -> Page:
        """Open ``path`` on ``server`` (default: the shared server_url); console errors containing one of
        ``expected`` (such as the browser's own note on a 404 the test asks for) are not failures. ``touch``: a
        touch screen (its main pointer is coarse: one taps), else a mouse."""
        # The service worker keeps the offline engine (13 MB) in every fresh context: only journeys about offline
        # play and installing need it.
        workers = "allow" if request.node.get_closest_marker("service_worker") else "block"
        ctx = browser.new_context(viewport=viewport or DESKTOP, locale=locale, service_workers=workers, has_touch=touch)
        ctx.add_init_script(NOTE_FRAMES)
        if not request.node.get_closest_marker("sound_on"):
            ctx.add_init_script(f"({SILENT})()")
        speed = animation_speed(request.node)
        if speed:
            ctx.add_init_script(f"({ANIMATION_SPEED})({json.dumps(speed)})")
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda err: errors.append(str(err)))

        def console(msg) -> None:
            if msg.type == "error" and not any(text in msg.text for text in expected):
                errors.append(msg.text)

        page.on("console", console)
        page.goto((server or server_url).rstrip("/") + path)
        if name:
            page.fill("#name", name)
        return page

    open_.contexts = contexts  # read by the report of a failed test
    yield open_
    for ctx in contexts:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


FRAMES_KEPT = 30  # the last messages of each page's connections since it loaded, for a failed test's report
# Kept in the page itself: Playwright's websocket events would carry every frame through the browser, its driver and
# pytest (about a twentieth of the suite's processor time) for reports that are almost never read.
NOTE_FRAMES = f"""(() => {{
    const kept = window.__frames = [];
    const note = (what) => {{
        kept.push(new Date().toTimeString().slice(0, 8) + ' ' + what.slice(0, 200));
        if (kept.length > {FRAMES_KEPT}) kept.shift();
    }};
    const text = (data) => (typeof data === 'string' ? data : '<bytes>');
    const Plain = window.WebSocket;
    window.WebSocket = class extends Plain {{
        constructor(...args) {{
            super(...args);
            note('open ' + args[0]);
            this.addEventListener('message', (e) => note('<- ' + text(e.data)));
            this.addEventListener('close', () => note('closed'));
        }}
        send(data) {{
            note('-> ' + text(data));
            return super.send(data);
        }}
    }};
}})()"""


def page_frames(page: Page) -> list[str]:
    """The last messages ``page`` sent and received on its connections since it loaded (for a failed test's report)."""
    try:
        return page.evaluate("() => window.__frames || []")
    except Exception as exc:  # a page that closed or crashed: say so
        return [f"unreadable: {exc}"]


PAGE_STATE = """() => {
    const s = window.hartenjagen && window.hartenjagen.state;
    if (!s) return null;
    const t = s.table;
    return {connected: window.hartenjagen.connection.connected, greeted: s.greeted, pending: s.pending,
            notice: s.notice, table: t && {code: t.code, status: t.status, seq: t.seq, you: t.you}};
}"""


def page_state(page: Page) -> object:
    """The page's connection and state in a few fields (for a failed test's report)."""
    try:
        return page.evaluate(PAGE_STATE)
    except Exception as exc:  # a page that closed or crashed: say so
        return f"unreadable: {exc}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """A failed browser test's report says what each of its pages showed and knew (and keeps a screenshot)."""
    outcome = yield
    report = outcome.get_result()
    opener = getattr(item, "funcargs", {}).get("open_page")
    if report.when != "call" or not report.failed or opener is None:
        return
    lines = []
    for n, page in enumerate(p for ctx in opener.contexts for p in ctx.pages):
        lines.append(f"page {n} at {page.url}: {page_state(page)}")
        lines.extend(f"  {frame}" for frame in page_frames(page))
        try:
            lines.append(f"  screenshot: {save_shot(page, f'failed-{item.name}-{n}')}")
        except Exception as exc:  # a page that closed or crashed
            lines.append(f"  no screenshot: {exc}")
    report.sections.append(("pages when the test failed", "\n".join(lines)))
    logs = []
    for proc, seen in SERVERS[-4:]:  # the servers started last: the shared one and this test's own
        state = "running" if proc.poll() is None else f"exited with {proc.returncode}"
        logs.append(f"server {proc.pid} ({' '.join(proc.args[-6:])}), {state}; its log ends:")
        logs.extend("  " + line.rstrip() for line in seen[-40:])
    report.sections.append(("servers when the test failed", "\n".join(logs)))


def save_shot(page: Page, name: str) -> Path:
    """Save what ``page`` shows as artifacts/screenshots/<name>.png, encoded for speed (a third of the time of
    Playwright's screenshot, in a larger file)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    if page.evaluate("() => navigator.onLine === false"):
        # A DevTools session of our own would end Chromium's emulated offline state when it closes (the page would
        # hear "online" and try its server): a page with no network is taken through Playwright's own session.
        page.screenshot(path=str(path))
        return path
    cdp = page.context.new_cdp_session(page)
    try:
        data = cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})["data"]
    finally:
        cdp.detach()
    path.write_bytes(base64.b64decode(data))
    return path


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Callable[[Page, str], Path]:
    """Save a screenshot under artifacts/screenshots/<test>-<label>.png."""
    test = re.sub(r"[^A-Za-z0-9_-]+", "-", request.node.name).strip("-")

    def take(page: Page, label: str) -> Path:
        return save_shot(page, f"{test}-{label}")

    return take


# ------------------------------------------------------------------ player actions


def view(page: Page) -> dict:
    """The view the server last sent this page (what the page may know)."""
    return page.evaluate("() => window.hartenjagen.state.table && window.hartenjagen.state.table.view")


def create_table(page: Page, passing: str | None = None, variant: str = "classic") -> str:
    """Create a table from the start screen; return its code from the waiting room."""
    if variant != "classic":
        page.select_option("#variant", variant)
    if passing:
        page.select_option(f"#opt-{variant}-passing", passing)
    page.click("form[data-form=create] button[type=submit]")
    page.wait_for_selector(".lobby .code")
    return page.inner_text(".lobby .code").strip()


def open_my_games(page: Page) -> None:
    """Open My games from the statistics at once, as a quick person does: the button stays where it is while the
    figures and this device's line come (test_devices.py holds the figures back to check that)."""
    page.click("[data-action=open][data-overlay=stats]")
    page.click(".dialog-stats [data-action=open][data-overlay=games]")


def fill_and_start(page: Page) -> None:
    page.click("[data-action=fill_computers]")
    page.click("[data-action=start]:not([disabled])")
    page.wait_for_selector(".hand .card")


# The page redraws on the animation frame after a resize event; a listener added after the page's own asks for a frame
# after the page's redraw and notes the size it drew at.
NOTE_DRAWN_SIZE = """() => {
    window.__drawnAt = null;
    if (window.__notingDrawnSize) return;
    window.__notingDrawnSize = true;
    window.addEventListener('resize', () => requestAnimationFrame(() => {
        window.__drawnAt = `${window.innerWidth}x${window.innerHeight}`;
    }));
}"""


def resize(page: Page, viewport: dict[str, int]) -> None:
    """Turn or resize the screen to ``viewport`` and wait until the page has drawn itself at that size (measuring
    earlier sees the layout of the size before)."""
    if page.viewport_size == viewport:
        return
    page.evaluate(NOTE_DRAWN_SIZE)
    page.set_viewport_size(viewport)
    page.wait_for_function(
        "([w, h]) => window.__drawnAt === `${w}x${h}`", arg=[viewport["width"], viewport["height"]], polling="raf"
    )


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def hand_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")


def hand_keys(page: Page) -> list[str]:
    """The hand's cards as the keys of their copies ("AS#0", "AS#1": with two decks a hand may hold a card twice)."""
    return page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.key)")


def click_card(page: Page, card: str) -> None:
    """Click a card of the hand: by the key of one copy ("AS#1"), or by its name (its first copy)."""
    attr = "data-key" if "#" in card else "data-card"
    page.locator(f'.hand .card[{attr}="{card}"]').first.click()


def play_one_legal(page: Page) -> str:
    """Wait for my turn, click the first card that stands up, and wait until it (one copy of it) has left my hand."""
    page.wait_for_selector(".hand .card.legal")
    card = page.locator(".hand .card.legal").first.get_attribute("data-card")
    copies = page.locator(f'.hand .card[data-card="{card}"]').count()
    click_card(page, card)
    page.wait_for_function(  # the server took it (the view) and the hand on screen shows it gone: one round trip
        "([c, n]) => window.hartenjagen.state.table.view.hand.filter(x => x === c).length < n"
        " && document.querySelectorAll(`.hand .card[data-card='${c}']`).length < n",
        arg=[card, copies],
    )
    return card


# What the page should do next, read from the view the server sent it: pass, play, say ready, or nothing
# (the game is over, or it waits for the others).
NEXT_MOVE = """() => {
    const t = window.hartenjagen.state.table;
    const v = t && t.view;
    if (!v) return false;
    if (v.game_over) return 'over';
    if (v.phase === 'passing' && !v.passed) return 'pass';
    if (v.phase === 'playing' && v.turn === v.seat) return 'play';
    if (v.phase === 'moon_choice' && (v.moon_choices || []).length) return 'moon';
    if (v.phase === 'hand_over' && !(t.ready || []).includes(t.you)) return 'ready';
    return false;
}"""


def pass_cards(page: Page) -> list[str]:
    """Choose the first ``pass_count`` cards of the hand that may be passed (not in ``pass_refusals``), in
    hand order (both copies of a card held twice, one after the other), and pass them; return them in the order
    chosen (the order the places of a pass go in)."""
    v = view(page)
    refused = v.get("pass_refusals") or {}
    keys = [k for k in hand_keys(page) if k.split("#")[0] not in refused][: v["pass_count"]]
    for key in keys:
        click_card(page, key)
    page.click("[data-action=pass]")
    page.wait_for_function("() => window.hartenjagen.state.table.view.passed !== null")
    return [k.split("#")[0] for k in keys]


# One step of a seated page, done in the page itself as a quick player would tap: choose the next card that may be
# passed (or press Pass once enough are chosen), play the first card that stands up, take the first moon choice, press
# Next hand in the score table. Each is a click on what the page shows; returns what it clicked, or "wait".
STEP = """() => {
    const s = window.hartenjagen.state;
    const t = s.table;
    const v = t && t.view;
    if (!v) return 'wait';
    if (v.game_over) return 'over';
    if (s.inFlight) return 'wait';
    const click = (el) => { if (el && !el.disabled) { el.click(); return true; } return false; };
    if (v.phase === 'passing' && !v.passed) {
        const chosen = s.selected.filter(Boolean);
        if (chosen.length < v.pass_count) {
            const refused = v.pass_refusals || {};
            const card = [...document.querySelectorAll('.hand .card')]
                .find((c) => !chosen.includes(c.dataset.key) && !refused[c.dataset.card]);
            return click(card) ? 'choose' : 'wait';
        }
        return click(document.querySelector('[data-action="pass"]')) ? 'pass' : 'wait';
    }
    if (v.phase === 'playing' && v.turn === t.you) {
        const card = [...document.querySelectorAll('.hand .card.legal')].find((c) => v.legal.includes(c.dataset.card));
        return click(card) ? 'play' : 'wait';
    }
    if (v.phase === 'moon_choice' && (v.moon_choices || []).length) {
        return click(document.querySelector('[data-action="moon"]')) ? 'moon' : 'wait';
    }
    if (v.phase === 'hand_over' && !(t.ready || []).includes(t.you)) {
        return click(document.querySelector('.dialog-scores [data-action="ready"]')) ? 'ready' : 'wait';
    }
    return 'wait';
}"""

# In the page: with ``act``, first take the steps of the moment the page is at (until the table moves on), then wait
# for the next moment this seat must act (its move is not in flight) or game over, and return {move, view}.
TO_NEXT_MOVE = f"""async ([act, timeoutMs]) => {{
    const next = {NEXT_MOVE};
    const step = {STEP};
    const state = () => window.hartenjagen.state;
    const seq = () => (state().table ? state().table.seq : -1);
    const pause = () => new Promise((done) => setTimeout(done, 10));
    const deadline = Date.now() + timeoutMs;
    const from = seq();
    while (Date.now() < deadline) {{
        const move = next();
        if (move === 'over') return {{ move, view: state().table.view }};
        if (move && !state().inFlight) {{
            if (!act || seq() !== from) return {{ move, view: state().table.view }};
            step();
        }}
        await pause();
    }}
    const v = state().table && state().table.view;
    throw new Error('no move to make: ' + JSON.stringify(v && {{ phase: v.phase, turn: v.turn, seat: v.seat }}));
}}"""


def play_until_game_over(page: Page, hands: int = 20, stop: Callable[[dict], bool] | None = None) -> dict:
    """Play this page's seat until game over like a quick player (pass the first cards that may be passed,
    play the first card that stands up, take the first moon choice offered after shooting the moon, press Next
    hand in the score table), each move clicked in the page itself: one round trip a move; return the final view.
    ``stop``, when given, ends the play earlier: at the first moment the page must act and ``stop(view)`` holds."""
    found = page.evaluate(TO_NEXT_MOVE, [False, TIMEOUT_MS])
    for _ in range(hands * 40):  # a hand holds at most a pass, 26 cards of this seat's (two decks), a moon, ready
        if found["move"] == "over" or (stop and stop(found["view"])):
            return found["view"]
        found = page.evaluate(TO_NEXT_MOVE, [True, TIMEOUT_MS])
    raise AssertionError("the game did not end")


# In the page: when this seat must make one of ``moves`` now, take the steps of that moment until the table moves on
# and return the move; else return at once what it must do ("over", another move, or false).
ACT_NOW = f"""async ([moves, timeoutMs]) => {{
    const next = {NEXT_MOVE};
    const step = {STEP};
    const state = () => window.hartenjagen.state;
    const seq = () => state().table.seq;
    const first = next();
    if (!first || first === 'over' || !moves.includes(first) || state().inFlight) return first;
    const from = seq();
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {{
        if (seq() !== from || next() !== first) return first;
        if (!state().inFlight) step();
        await new Promise((done) => setTimeout(done, 10));
    }}
    throw new Error('the move ' + first + ' was not taken');
}}"""
EVERY_MOVE = ("pass", "play", "moon", "ready")


def act_now(page: Page, moves: tuple[str, ...] = EVERY_MOVE) -> str | bool:
    """Make this page's move if it must make one of ``moves`` now (clicked in the page); return the move it had."""
    return page.evaluate(ACT_NOW, [list(moves), TIMEOUT_MS])


def play_pages(
    pages: list[Page], stop: Callable[[], bool] | None = None, moves: tuple[str, ...] = EVERY_MOVE, rounds: int = 4000
) -> None:
    """Every page plays its own seat (only ``moves``) until each sees game over, or ``stop()`` holds between moves."""
    for _ in range(rounds):
        if stop and stop():
            return
        done = [act_now(p, moves) for p in pages]
        if all(m == "over" for m in done):
            return
        if not any(m in moves for m in done):
            pages[0].wait_for_timeout(20)  # the computer players, or a person not in ``pages``, are to move
    raise AssertionError("the game did not end")
