"""Getting ready for offline play: with no network the start page offers Play offline beside its notice and only what
plays without a network, starts the offline engine at once and shows how far it is, then says "Ready to play without
a network"; and the service worker keeps the engine (13.5 MB) only when asked: after installing the app, Play offline
or a game against computer players, never on a first visit and never while the browser asks to save data."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, create_table, fill_and_start, no_horizontal_scroll, resize
from .test_offline import BOOT_MS, ENGINE_KEPT, INSTALLED, PHONE_TALL

pytestmark = pytest.mark.service_worker  # what the service worker keeps, and the offline engine, are the subject

PHONE_SIDE = {"width": 844, "height": 390}
OFFLINE_NOTES = ("Failed to load resource", "ERR_INTERNET_DISCONNECTED")

TEXTS = {
    "en-GB": {"ready": "Ready to play without a network", "play": "Play offline", "notice": "No network"},
    "nl-NL": {"ready": "Klaar om zonder netwerk te spelen", "play": "Offline spelen", "notice": "Geen netwerk"},
}

# Every step of the engine's start the page showed, in order (noted from the page's first moment, on every load).
NOTE_STEPS = """(() => {
    window.__steps = [];
    const note = () => {
        for (const el of document.querySelectorAll('[data-offline-progress]')) {
            const step = el.dataset.offlineProgress;
            if (window.__steps[window.__steps.length - 1] !== step) window.__steps.push(step);
        }
    };
    new MutationObserver(note).observe(document, {subtree: true, childList: true, attributes: true});
})()"""

# Every message the page posts to the service worker (the request to keep the engine is one).
NOTE_POSTS = """(() => {
    window.__posts = [];
    const post = ServiceWorker.prototype.postMessage;
    ServiceWorker.prototype.postMessage = function (msg, ...rest) {
        window.__posts.push(msg);
        return post.call(this, msg, ...rest);
    };
})()"""

# The browser asks to save data (Chromium's "Lite mode", a phone's data saver).
SAVE_DATA = """Object.defineProperty(Navigator.prototype, 'connection', {
    configurable: true,
    get() { return {saveData: true, effectiveType: '4g', addEventListener() {}, removeEventListener() {}}; },
})"""

# The page runs as the installed app, opened from the home screen (Chromium cannot emulate the display mode).
STANDALONE = """(() => {
    const plain = window.matchMedia.bind(window);
    window.matchMedia = (query) => query.includes('display-mode: standalone')
        ? {matches: true, media: query, addEventListener() {}, removeEventListener() {}}
        : plain(query);
})()"""

# The service worker controls the page: its install (which keeps what it keeps at once) is over.
SW_READY = """async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
        await new Promise((done) => navigator.serviceWorker.addEventListener('controllerchange', done, {once: true}));
    }
    return true;
}"""

# The engine's files in this origin's caches.
ENGINE_CACHED = """async () => {
    const out = [];
    for (const name of await caches.keys()) {
        for (const req of await (await caches.open(name)).keys()) {
            const path = new URL(req.url).pathname;
            if (path === '/engine/python.json' || path.startsWith('/runtime/')) out.push(path);
        }
    }
    return out;
}"""


def engine_requests(seen: list[str]) -> list[str]:
    """The requests for the engine's files among ``seen`` (the page's, its worker's and the service worker's)."""
    return [url for url in seen if "/engine/python.json" in url or "/runtime/" in url]


def in_first_screen(page: Page, selector: str) -> bool:
    """Whether ``selector`` is seen on the page's first screen, without scrolling down from its top."""
    return page.locator(selector).evaluate(
        "(el) => { const r = el.getBoundingClientRect();"
        " return r.height > 0 && r.top + scrollY >= 0 && r.bottom + scrollY <= innerHeight; }"
    )


@pytest.mark.parametrize(
    ("locale", "size"),
    [("en-GB", PHONE_TALL), ("nl-NL", PHONE_SIDE), ("nl-NL", DESKTOP)],
    ids=["phone-en", "phone-side-nl", "desktop-nl"],
)
def test_with_no_network_the_start_page_offers_play_offline_beside_its_notice_and_says_when_it_is_ready(
    open_page, shot, locale, size
):
    texts = TEXTS[locale]
    page = open_page("/", viewport=size, locale=locale, name="Anna", expected=OFFLINE_NOTES)
    page.context.add_init_script(NOTE_STEPS)
    expect(page.locator("[data-offline-ready]")).to_have_count(0)  # nothing kept yet: nothing claims to be ready
    page.evaluate(INSTALLED)
    page.evaluate(ENGINE_KEPT)
    # online, beside Play offline in the new-table form: this device is ready to play without a network
    expect(page.locator(".offline-play [data-offline-ready]")).to_have_text(texts["ready"], timeout=BOOT_MS)
    page.locator(".offline-play").scroll_into_view_if_needed()
    shot(page, "online-ready")

    page.context.set_offline(True)
    page.reload()
    notice = page.locator("[data-no-network]")
    expect(notice).to_contain_text(texts["notice"])
    play = notice.locator("[data-offline-now]")
    expect(play).to_have_text(texts["play"])
    assert in_first_screen(page, "[data-no-network] [data-offline-now]")  # beside the notice, not under the form
    # only what plays without a network: no Play now, open tables, Join, Today's deal or Create table
    for gone in ("form[data-form=play_now]", "[data-open-tables]", "form[data-form=join]", "form[data-form=daily]"):
        expect(page.locator(gone)).to_have_count(0)
    expect(page.locator("form[data-form=create] button[type=submit]:not([name=where])")).to_have_count(0)
    # the engine starts by itself while the page is read, shows its steps, then says it is ready
    expect(notice.locator("[data-offline-ready]")).to_have_text(texts["ready"], timeout=BOOT_MS)
    steps = page.evaluate("() => window.__steps")  # a step shorter than a frame may go by undrawn: the long ones
    assert [s for s in steps if s in ("runtime", "python")] == ["runtime", "python"], steps
    assert no_horizontal_scroll(page)
    shot(page, "offline-ready")

    page.evaluate("() => window.hartenjagen.offline.setDelay(20)")
    play.click()
    page.wait_for_selector(".hand .card")  # the engine was ready: the hand comes at once
    expect(page.locator("[data-offline-badge]")).to_be_visible()
    page.context.set_offline(False)


def test_the_engine_starts_as_soon_as_the_network_goes_while_the_start_page_is_open(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, name="Anna", expected=OFFLINE_NOTES)
    page.evaluate(INSTALLED)
    page.evaluate(ENGINE_KEPT)
    assert page.evaluate("() => window.hartenjagen.offline.started") is False  # online: no engine running
    page.evaluate(NOTE_STEPS)
    page.context.set_offline(True)  # the train enters a tunnel: nothing pressed, nothing reloaded
    expect(page.locator("[data-no-network] [data-offline-now]")).to_be_visible()
    page.wait_for_function("() => window.hartenjagen.offline.started")
    expect(page.locator("[data-no-network] [data-offline-progress]").first).to_be_attached(timeout=BOOT_MS)
    shot(page, "offline-starting")
    expect(page.locator("[data-no-network] [data-offline-ready]")).to_be_visible(timeout=BOOT_MS)
    assert "runtime" in page.evaluate("() => window.__steps")
    # the statistics offline: the figures last seen, not what needs the server (other devices, My games)
    page.click("[data-action=open][data-overlay=stats]")
    expect(page.locator(".dialog-stats h2")).to_be_visible()
    expect(page.locator(".dialog-stats .devices-panel")).to_have_count(0)
    expect(page.locator(".dialog-stats [data-overlay=games]")).to_have_count(0)
    page.keyboard.press("Escape")
    resize(page, PHONE_SIDE)
    assert in_first_screen(page, "[data-no-network] [data-offline-now]")
    shot(page, "offline-ready-side")
    page.context.set_offline(False)


def test_a_first_visit_keeps_no_engine_a_game_against_computer_players_or_play_offline_does(open_page, shot):
    # A first visit: the service worker keeps the client's files, not the engine.
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    seen: list[str] = []
    page.context.on("request", lambda r: seen.append(r.url))
    page.evaluate(SW_READY)
    assert page.evaluate(ENGINE_CACHED) == []
    assert engine_requests(seen) == []
    expect(page.locator("[data-offline-ready]")).to_have_count(0)

    # A game against computer players: the engine is kept, and the start page says the device is ready.
    create_table(page)
    fill_and_start(page)
    page.evaluate(ENGINE_KEPT)
    assert any(url.endswith("/engine/python.json") for url in seen) and any(url.endswith(".wasm") for url in seen)
    page.click("[data-action=leave]")
    page.click("[data-action=leave_confirm]")  # the game goes on without her
    expect(page.locator(".offline-play [data-offline-ready]")).to_be_visible(timeout=BOOT_MS)
    page.locator(".offline-play").scroll_into_view_if_needed()
    shot(page, "kept-after-computer-game")

    # Play offline on another first visit: the engine comes through the service worker and stays kept.
    other = open_page("/", viewport=DESKTOP, name="Bram")
    other.evaluate(SW_READY)
    assert other.evaluate(ENGINE_CACHED) == []
    other.evaluate("() => window.hartenjagen.offline.setDelay(20)")
    other.click("[data-offline-play]")
    # "Starting the offline game…" shows how far it is: the runtime's megabytes come (the first time, 13.5 MB)
    expect(other.locator("[data-offline-starting] [data-offline-progress]")).to_be_attached()
    shot(other, "starting-with-progress")
    other.wait_for_selector(".hand .card", timeout=BOOT_MS)
    other.evaluate(ENGINE_KEPT)
    other.click("[data-action=leave]")  # the offline game is kept to continue: no question
    expect(other.locator(".offline-play [data-offline-ready]")).to_be_visible(timeout=BOOT_MS)


def test_the_installed_app_keeps_the_engine_when_it_opens(open_page, shot):
    page = open_page("/", viewport=PHONE_SIDE, locale="nl-NL", name="Anna")
    page.evaluate(SW_READY)
    assert page.evaluate(ENGINE_CACHED) == []  # a visit in the browser keeps no engine
    page.context.add_init_script(STANDALONE)
    page.reload()  # the same site, opened as the app from the home screen
    page.evaluate(ENGINE_KEPT)
    ready = page.locator(".offline-play [data-offline-ready]")
    expect(ready).to_have_text(TEXTS["nl-NL"]["ready"], timeout=BOOT_MS)
    ready.scroll_into_view_if_needed()
    assert no_horizontal_scroll(page)
    shot(page, "installed-ready")


def test_while_the_browser_asks_to_save_data_the_engine_is_never_fetched_unasked(open_page, browser, server_url):
    context = browser.new_context(viewport=PHONE_TALL, service_workers="allow")
    open_page.contexts.append(context)  # closed with the test's other pages
    context.add_init_script(SAVE_DATA)
    context.add_init_script(NOTE_POSTS)
    seen: list[str] = []
    context.on("request", lambda r: seen.append(r.url))

    # installed on the home screen: asked, and refused because of the data saver
    page = context.new_page()
    page.goto(server_url)
    page.fill("#name", "Anna")
    page.evaluate(SW_READY)  # its install is over: it kept the client's files and not the engine
    assert engine_requests(seen) == []
    page.evaluate(INSTALLED)
    page.wait_for_function("() => window.hartenjagen.state.offline.asked")
    page.evaluate(SW_READY)  # whatever the page meant to post to the service worker has gone by now
    assert page.evaluate("() => window.__posts") == []

    # a game against computer players on another page of the same browser: the same
    game = context.new_page()
    game.goto(server_url)
    game.fill("#name", "Anna")
    create_table(game)
    fill_and_start(game)
    game.wait_for_function("() => window.hartenjagen.state.offline.asked")
    game.evaluate(SW_READY)
    assert game.evaluate("() => window.__posts") == []

    assert engine_requests(seen) == []
    assert page.evaluate(ENGINE_CACHED) == []
    expect(page.locator("[data-offline-ready]")).to_have_count(0)

    # Play offline is the person asking: the game needs the engine, so it comes
    page.evaluate("() => window.hartenjagen.offline.setDelay(20)")
    page.click("[data-offline-play]")
    page.wait_for_selector(".hand .card", timeout=BOOT_MS)
    assert any(url.endswith(".wasm") for url in seen)
