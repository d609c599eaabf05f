"""Installable: a manifest, and a service worker that keeps the client's files so the app opens offline,
while the websocket and the API always go to the server and are never kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, ROOT, create_table, no_horizontal_scroll

pytestmark = pytest.mark.service_worker  # what the service worker keeps is the subject

CLIENT = ROOT / "client"

# Wait until the service worker is active and controls this page.
SW_READY = """async () => {
    const reg = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
        await new Promise((done) => navigator.serviceWorker.addEventListener('controllerchange', done, {once: true}));
    }
    return reg.active.scriptURL;
}"""

# Every URL in every cache of this origin (path and query).
CACHED = """async () => {
    const out = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const req of await cache.keys()) { const u = new URL(req.url); out.push(u.pathname + u.search); }
    }
    return out;
}"""

MANIFEST = """async () => {
    const link = document.querySelector('link[rel=manifest]');
    const res = await fetch(link.href);
    return {type: res.headers.get('content-type'), body: await res.json(),
            theme: document.querySelector('meta[name=theme-color]').content};
}"""

# What went offline must not be a failure of the page: the browser notes the requests it could not send.
OFFLINE_NOTES = ("Failed to load resource", "ERR_INTERNET_DISCONNECTED")

TEXTS = {
    "en-GB": {
        "rules": "Rules",
        "stats": "Statistics",
        "create": "New table",
        "offline": "Offline: figures of ",
        "not_available": "Statistics are not available right now.",
    },
    "nl-NL": {
        "rules": "Spelregels",
        "stats": "Statistiek",
        "create": "Nieuwe tafel",
        "offline": "Offline: cijfers van ",
        "not_available": "De statistiek is nu niet beschikbaar.",
    },
}


def client_files() -> set[str]:
    """The client's own files that an offline start needs (the worker itself excepted)."""
    return {
        "/" + p.relative_to(CLIENT).as_posix()
        for p in CLIENT.rglob("*")
        if p.is_file() and p.suffix in {".js", ".css", ".svg", ".webmanifest", ".png"} and p.name != "sw.js"
    }


def test_the_manifest_names_the_app_and_its_icons(open_page):
    page = open_page("/", viewport=PHONE)
    found = page.evaluate(MANIFEST)
    assert found["type"] == "application/manifest+json"
    manifest = found["body"]
    assert manifest["name"] == "Hartenjagen" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert found["theme"] == manifest["theme_color"]
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert "any" in sizes and "192x192" in sizes and "512x512" in sizes
    for icon in manifest["icons"]:
        assert (CLIENT / icon["src"].lstrip("/")).is_file(), icon
    # Chromium's own verdict: the manifest parses cleanly and nothing stands in the way of installing.
    page.evaluate(SW_READY)
    cdp = page.context.new_cdp_session(page)
    parsed = cdp.send("Page.getAppManifest")
    assert not parsed["errors"], parsed["errors"]
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # a test's browser context is private ("in-incognito"); nothing else may stand in the way
    assert [e for e in errors if e["errorId"] != "in-incognito"] == [], errors


@pytest.mark.parametrize(("locale", "size"), [("en-GB", DESKTOP), ("nl-NL", PHONE)], ids=["desktop-en", "phone-nl"])
def test_offline_the_start_page_rules_and_statistics_open_and_no_api_or_websocket_is_kept(
    open_page, shot, locale, size
):
    page = open_page("/", viewport=size, locale=locale, name="Anna", expected=OFFLINE_NOTES)
    base = page.url.rstrip("/")
    assert page.evaluate(SW_READY).endswith("/sw.js")
    # Online: use the websocket (a table) and the API (today's board, statistics with a player token).
    create_table(page)
    page.click("[data-action=leave]")
    page.wait_for_selector("form[data-form=create]")
    page.click("[data-action=open][data-overlay=stats]")
    page.wait_for_selector("[data-stat=stats_played]")
    online = {
        key: page.inner_text(f"[data-stat={key}]")
        for key in ("stats_played", "stats_won", "stats_win_pct", "stats_lowest", "stats_moons")
    }
    expect(page.locator("[data-stats-offline]")).to_have_count(0)  # online: no offline line
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('hartenjagen.stats'))")
    assert kept["data"]["games_played"] == int(online["stats_played"]) and kept["at"] > 0
    page.keyboard.press("Escape")
    page.evaluate("() => fetch('/api/stats').then(r => r.text())")
    page.evaluate("() => fetch('/healthz').then(r => r.text())")

    cached = page.evaluate(CACHED)
    assert not [u for u in cached if u.startswith("/api/") or u.startswith("/ws") or u.startswith("/healthz")], cached
    assert "/" in cached
    missing = client_files() - set(cached)
    assert not missing, f"not kept for offline: {sorted(missing)}"

    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("form[data-form=create] button[type=submit]")
    assert TEXTS[locale]["create"] in page.inner_text("#screen")
    shot(page, "offline-start")

    page.click("[data-action=open][data-overlay=rules]")
    page.wait_for_selector(".dialog-rules .dialog-body h3")
    assert page.inner_text(".dialog-rules h2") == TEXTS[locale]["rules"]
    assert len(page.inner_text(".dialog-rules .dialog-body")) > 500
    shot(page, "offline-rules")
    page.keyboard.press("Escape")

    # Statistics offline: the last figures the server gave, with the moment they are of.
    page.click("[data-action=open][data-overlay=stats]")
    page.wait_for_selector(".dialog-stats [data-stats-offline]")
    assert page.inner_text(".dialog-stats h2") == TEXTS[locale]["stats"]
    line = page.inner_text(".dialog-stats [data-stats-offline]")
    assert line.startswith(TEXTS[locale]["offline"]) and len(line) > len(TEXTS[locale]["offline"]) + 5, line
    for key, value in online.items():
        expect(page.locator(f".dialog-stats [data-stat={key}]")).to_have_text(value)
    assert no_horizontal_scroll(page)
    shot(page, "offline-stats")
    page.keyboard.press("Escape")

    # With nothing kept (another player token, or never online) it still says the figures are not available.
    page.evaluate("() => localStorage.removeItem('hartenjagen.stats')")
    page.click("[data-action=open][data-overlay=stats]")
    expect(page.locator(".dialog-stats .dialog-body p").first).to_have_text(TEXTS[locale]["not_available"])
    expect(page.locator("[data-stat]")).to_have_count(0)
    page.keyboard.press("Escape")

    # A table link opened offline gets the app too (it waits for the connection).
    page.goto(base + "/t/ABCDEF")
    page.wait_for_selector("#top nav")
    assert page.inner_text("#top")

    # Nothing of the server's answers was kept offline either.
    cached = page.evaluate(CACHED)
    assert not [u for u in cached if u.startswith("/api/") or u.startswith("/ws") or u.startswith("/healthz")], cached
    page.context.set_offline(False)


def test_client_files_list_is_not_empty():
    # guards the comparison above against a moved client directory
    assert "/js/main.js" in client_files() and Path(CLIENT / "index.html").is_file()
