"""Loose ends of watching: a watcher gets no replay button that cannot work for them (the share link stays),
and the host turns watching off during the game too (from Options), which sends every watcher away."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect
from websockets.sync.client import connect

from .conftest import DESKTOP, PHONE, create_table, fill_and_start, no_horizontal_scroll, play_until_game_over, resize


def watch_by_link(open_page, code: str, size: dict, locale: str, name: str) -> Page:
    """Open the table's link after the start (every seat is taken), give a name: the page watches."""
    page = open_page(f"/t/{code}", viewport=size, locale=locale, name=None)
    page.wait_for_selector(".invite")
    page.fill("#name", name)
    page.press("#name", "Enter")
    page.wait_for_selector(".player.watching")
    return page


def ws_url(page: Page) -> str:
    """The websocket endpoint of the server ``page`` was opened on."""
    return "/".join(page.url.split("/", 3)[:3]).replace("http", "ws", 1) + "/ws"


def start_watching(ws, code: str) -> None:
    """Make the bare websocket ``ws`` a watcher of ``code``."""
    ws.send(json.dumps({"type": "hello", "version": 1, "name": "Wim"}))
    ws.send(json.dumps({"type": "watch", "code": code}))
    types = []
    while "table" not in types:
        types.append(json.loads(ws.recv(timeout=5))["type"])
    assert "watching" in types, types


def test_a_watcher_after_game_over_gets_the_share_link_and_no_replay_button(open_page, shot):
    anna = open_page("/", name="Anna")
    anna.fill("#opt-classic-end_score", "25")
    code = create_table(anna)
    fill_and_start(anna)
    eva = watch_by_link(open_page, code, DESKTOP, "en-GB", "Eva")
    frits = watch_by_link(open_page, code, PHONE, "nl-NL", "Frits")
    play_until_game_over(anna)
    # the player still has both; the watchers only what works for them
    expect(anna.locator(".dialog-scores [data-action=replay]")).to_have_count(1)
    expect(anna.locator(".dialog-scores [data-action=copy_share]")).to_have_count(1)
    share = anna.evaluate("() => window.hartenjagen.state.table.replay.share")
    for page, label, copy_text in ((eva, "desktop-en", "Copy share link"), (frits, "phone-nl", None)):
        page.wait_for_function("() => window.hartenjagen.state.table.status === 'finished'")
        if not page.locator(".dialog-scores").count():
            page.click(".status [data-overlay=scores]")
        dialog = page.locator(".dialog-scores")
        expect(dialog.locator(".winners")).to_be_visible()
        expect(page.locator("[data-action=replay]")).to_have_count(0)
        copy = dialog.locator("[data-action=copy_share]")
        expect(copy).to_have_count(1)
        if copy_text:
            expect(copy).to_have_text(copy_text)
        assert copy.get_attribute("data-share") == share
        assert no_horizontal_scroll(page)
        shot(page, f"watcher-game-over-{label}")
    # the share link a watcher copies opens the replay for anyone
    frits.goto("/".join(frits.url.split("/", 3)[:3]) + f"/r/{share}")
    expect(frits.locator(".replay .rp-seat")).to_have_count(4)


def test_the_host_turns_watching_off_during_the_game_from_options(open_page, shot):
    anna = open_page("/", name="Anna")
    code = create_table(anna)
    fill_and_start(anna)
    eva = watch_by_link(open_page, code, PHONE, "nl-NL", "Eva")
    with connect(ws_url(anna), open_timeout=5) as ws:
        start_watching(ws, code)
        anna.wait_for_function("() => window.hartenjagen.state.table.watch.count === 2")
        # a watcher's Options have no such setting: only the host's
        eva.click("#top [data-overlay=options]")
        eva.wait_for_selector(".dialog-options")
        expect(eva.locator(".dialog-options [data-action=allow_watch]")).to_have_count(0)
        eva.keyboard.press("Escape")

        anna.click("#top [data-overlay=options]")
        toggle = anna.locator(".dialog-options [data-action=allow_watch]")
        expect(toggle).to_have_attribute("aria-checked", "true")
        expect(anna.locator(".dialog-options .opt-watch")).to_contain_text("Others may watch")
        expect(anna.locator(".dialog-options [data-watch-count='2']")).to_have_text("2 watching")
        assert no_horizontal_scroll(anna)
        shot(anna, "options-watch-on-desktop-en")
        toggle.click()

        # the bare watcher is told why it must go
        left = None
        for _ in range(50):
            msg = json.loads(ws.recv(timeout=5))
            if msg["type"] == "left":
                left = msg
                break
        assert left is not None and left.get("reason") == "watch_off", left

    anna.wait_for_function("() => window.hartenjagen.state.table.watch.allowed === false")
    expect(toggle).to_have_attribute("aria-checked", "false")
    expect(anna.locator(".dialog-options [data-watch-count]")).to_have_count(0)
    shot(anna, "options-watch-off-desktop-en")

    # the browser watcher is back on the start page, with a notice why
    eva.wait_for_selector("form[data-form=create]")
    expect(eva.locator(".notice.info")).to_have_text("De host heeft meekijken uitgezet.")
    assert no_horizontal_scroll(eva)
    shot(eva, "watch-off-start-phone-nl")

    # turned on again
    toggle.click()
    anna.wait_for_function("() => window.hartenjagen.state.table.watch.allowed === true")
    expect(toggle).to_have_attribute("aria-checked", "true")

    # the Dutch host sees the same setting in Dutch
    anna.click(".dialog-options [data-lang=nl]")
    expect(anna.locator(".dialog-options .opt-watch")).to_contain_text("Anderen mogen meekijken")
    resize(anna, PHONE)
    assert no_horizontal_scroll(anna)
    shot(anna, "options-watch-phone-nl")
