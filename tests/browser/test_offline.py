"""Play offline: the project's own Python (shared/ and the server's table) runs in a Web Worker on Pyodide, the
service worker keeps it, the game is kept in IndexedDB, and the same numbered deal deals the same cards."""

from __future__ import annotations

import json
import random
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from hartenjagen.server.net.security import CONTENT_SECURITY_POLICY
from hartenjagen.server.table.bundle import shared_hash
from hartenjagen.shared.bots.choice import decide
from hartenjagen.shared.cards import parse_card
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .conftest import (
    DESKTOP,
    NEXT_MOVE,
    create_table,
    fill_and_start,
    no_horizontal_scroll,
    pass_cards,
    play_one_legal,
    play_until_game_over,
    resize,
    view,
)

pytestmark = pytest.mark.service_worker  # the service worker keeps the engine for offline play

PHONE_TALL = {"width": 390, "height": 844}
BOOT_MS = 60_000  # the first start on a shared machine reads 13 MB of runtime; a warm one takes a few seconds

# Wait until the service worker controls the page and has kept the offline engine: its Python and every runtime file.
ENGINE_KEPT = """async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
        await new Promise((done) => navigator.serviceWorker.addEventListener('controllerchange', done, {once: true}));
    }
    for (;;) {
        const engine = await caches.match('/engine/python.json');
        if (engine) {
            const {runtime} = await engine.json();
            const kept = await Promise.all(runtime.files.map((f) => caches.match(runtime.base + f)));
            if (kept.every(Boolean)) return runtime.files.map((f) => runtime.base + f);
        }
        await new Promise((done) => setTimeout(done, 200));
    }
}"""


# The browser says the app was installed on the home screen (as Chromium does once the person installs it).
INSTALLED = "() => window.dispatchEvent(new Event('appinstalled'))"


def start_offline(page: Page, options: dict | None = None) -> None:
    """Press Play offline in the new-table form (with the variant's ``options``) and wait for the hand."""
    page.evaluate("() => window.hartenjagen.offline.setDelay(20)")
    for option, value in (options or {}).items():
        page.fill(f"#opt-classic-{option}", str(value))
    page.click("[data-offline-play]")
    page.wait_for_selector(".hand .card", timeout=BOOT_MS)


def assert_decides_as_the_server(page: Page) -> None:
    """The page's offline engine makes the server's medium decisions for the same seeds and views (24 of a hand)."""
    rules = make_rules({})
    rng = random.Random(7)
    game = Game(rules)
    game.deal(seeded_deal(rules, 99, 1))
    cases = []
    while len(cases) < 24 and not game.phase == "hand_over":
        seat = game.to_act()[0]
        v = view_for(game, seat)
        seed = rng.randrange(2**32)
        cases.append({"seed": seed, "view": v})
        intent = decide("easy", seed, v)
        if intent["type"] == "pass":
            game.pass_cards(seat, [parse_card(c) for c in intent["cards"]])
        else:
            game.play(seat, parse_card(intent["card"]))
    got = page.evaluate(
        """async (cases) => {
            const out = [];
            for (const c of cases) out.push((await window.hartenjagen.offline.decide('medium', c.seed, c.view)).intent);
            return out;
        }""",
        json.loads(json.dumps(cases)),
    )
    assert got == [decide("medium", c["seed"], c["view"]) for c in cases]


def test_offline_journey_on_a_phone_hint_last_trick_close_and_finish_then_online_again(open_page, shot, server_url):
    page = open_page("/", viewport=PHONE_TALL, name="Anna", expected=("ERR_INTERNET_DISCONNECTED",))
    page.evaluate(INSTALLED)  # the app installed: the service worker keeps the engine (a mere visit does not)
    kept = page.evaluate(ENGINE_KEPT)
    assert any(path.endswith(".wasm") for path in kept), kept
    context = page.context

    # No network from here: the page comes from the service worker, and so does the engine.
    context.set_offline(True)
    page.reload()
    expect(page.locator("[data-no-network]")).to_be_visible()
    # the start page offers only what plays without a network: no Join, no Today's deal (nor Play now)
    expect(page.locator("[data-offline-play]")).to_be_visible()
    expect(page.locator("form[data-form=join]")).to_have_count(0)
    expect(page.locator("form[data-form=daily]")).to_have_count(0)
    expect(page.locator("form[data-form=play_now]")).to_have_count(0)
    page.fill("#name", "Anna")
    start_offline(page, {"end_score": 40})
    # the engine is kept here, so its start also keeps the runtime's started interpreter for the next start
    assert page.evaluate("() => window.hartenjagen.state.offline.facts.snapshot") == "made"
    expect(page.locator("[data-offline-badge]")).to_be_visible()
    expect(page.locator("p.conn")).to_have_count(0)  # no "connecting": the offline table needs no server
    expect(page.locator("#chat")).to_be_hidden()
    assert page.url.endswith("/offline")
    assert no_horizontal_scroll(page)
    shot(page, "phone-offline-pass")

    # A hint (the hard computer player, thinking in the worker), then the pass and a whole hand, the last trick too.
    page.click("[data-action=hint]")
    page.wait_for_function("() => window.hartenjagen.state.hint.length === 3")
    hinted = page.evaluate("() => window.hartenjagen.state.hint")
    assert set(hinted) <= set(view(page)["hand"])
    pass_cards(page)
    play_one_legal(page)
    page.wait_for_function("() => window.hartenjagen.state.table.view.tricks.length >= 1")
    page.click("[data-action=open][data-overlay=last_trick]")
    page.wait_for_selector(".dialog .card")
    shot(page, "phone-offline-last-trick")
    page.keyboard.press("Escape")
    page.wait_for_selector(".dialog", state="detached")
    while view(page)["phase"] == "playing":
        move = page.wait_for_function(NEXT_MOVE).json_value()
        if move != "play":
            break
        play_one_legal(page)
    page.wait_for_selector(".dialog-scores")
    expect(page.locator("[data-review-offline]")).to_contain_text("needs the server")
    expect(page.locator("[data-action=review_hand]")).to_have_count(0)
    shot(page, "phone-offline-scores")
    page.click(".dialog-scores [data-action=ready]")
    page.wait_for_function(
        "() => { const v = window.hartenjagen.state.table.view;"
        " return v.history.length === 1 && v.phase !== 'hand_over'; }"
    )

    # A few cards into the next hand, close the page; open the app again, still offline: the same card.
    play_until_game_over(page, stop=lambda v: v["phase"] == "playing" and len(v["tricks"]) >= 2)
    before = view(page)
    page.close()
    again = context.new_page()
    again.goto(server_url.rstrip("/") + "/")
    expect(again.locator("[data-offline-kept]")).to_be_visible()
    again.evaluate("() => window.hartenjagen.offline.setDelay(20)")
    again.click("[data-action=offline_continue]")
    again.wait_for_selector(".hand .card", timeout=BOOT_MS)
    # this start restored that interpreter, which decides as the server does, and the rest of the game below is
    # played on it
    assert again.evaluate("() => window.hartenjagen.state.offline.facts.snapshot") == "used"
    assert_decides_as_the_server(again)
    after = view(again)
    for key in ("hand", "hand_no", "tricks", "totals", "scores_so_far"):
        assert after.get(key) == before.get(key), key
    assert again.url.endswith("/offline")
    resize(again, {"width": 844, "height": 390})  # the phone turned: the same table, nothing off screen
    expect(again.locator("[data-offline-badge]")).to_be_visible()
    assert no_horizontal_scroll(again)
    shot(again, "phone-landscape-offline")
    resize(again, PHONE_TALL)
    final = play_until_game_over(again)
    assert final["game_over"]
    expect(again.locator("[data-action=copy_share]")).to_have_count(0)  # the server holds no offline game
    # the offline table takes no rematch vote (nobody to vote with): its game over's one main step is a new game,
    # starting over folded under it
    expect(again.locator(".dialog-scores [data-action=new_game]")).to_be_visible()
    expect(again.locator(".dialog-scores button.primary")).to_have_count(1)
    expect(again.locator(".dialog-scores .main-step [data-action=new_game]")).to_have_class("primary")
    expect(again.locator(".dialog-scores [data-overlay=restart]")).to_be_hidden()
    again.click(".dialog-scores [data-action=more_steps]")
    expect(again.locator(".dialog-scores [data-overlay=restart]")).to_be_visible()
    expect(again.locator("[data-action=rematch]")).to_have_count(0)
    assert "rematch" not in again.evaluate("() => window.hartenjagen.state.table.commands")
    shot(again, "phone-offline-game-over")

    # The finished game counts in the statistics, under this device's offline games.
    again.keyboard.press("Escape")
    again.click("[data-action=open][data-overlay=stats]")
    expect(again.locator("[data-offline-stats=ok] [data-offline-stat=stats_played]")).to_have_text("1")
    won = "1" if 0 in final["winners"] else "0"
    expect(again.locator("[data-offline-stat=stats_won]")).to_have_text(won)
    shot(again, "phone-offline-stats")
    again.keyboard.press("Escape")

    # Online again: nothing is lost, and a normal table opens as before.
    context.set_offline(False)
    again.click("[data-action=leave]")
    again.wait_for_selector("form[data-form=create]")
    expect(again.locator("form[data-form=join]")).to_be_visible()  # with the network, Join is back
    assert create_table(again)
    fill_and_start(again)
    expect(again.locator("[data-offline-badge]")).to_have_count(0)


def test_the_worker_runs_the_servers_shared_files_and_deals_and_decides_as_the_server(open_page, shot, server_url):
    # Under the server's Content-Security-Policy, which comes with the worker's script too: the runtime compiles its
    # WebAssembly with 'wasm-unsafe-eval' alone (no 'unsafe-eval'); a refusal would be an error in the page.
    for path in ("/", "/js/offline/worker.js"):
        with urllib.request.urlopen(server_url.rstrip("/") + path, timeout=10) as answer:
            assert answer.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "'unsafe-eval'" not in CONTENT_SECURITY_POLICY and "'wasm-unsafe-eval'" in CONTENT_SECURITY_POLICY
    deal = 4242
    page = open_page(f"/?deal={deal}", viewport=DESKTOP, name="Bram")
    start_offline(page)
    facts = page.evaluate("() => window.hartenjagen.state.offline.facts")
    with urllib.request.urlopen(server_url.rstrip("/") + "/healthz", timeout=10) as answer:
        health = json.load(answer)
    assert facts["hash"] == health["engine"] == shared_hash()
    assert facts["outside"] == [] and facts["modules"] >= 10  # every shared module imported came from those files
    offline_hand, hand_no = view(page)["hand"], view(page)["hand_no"]
    assert view(page)["phase"] == "passing"
    expect(page.locator("[data-offline-badge]")).to_be_visible()
    expect(page.locator(".deal-no")).to_have_attribute("data-deal", str(deal))
    shot(page, "desktop-offline")

    # Start over on the same cards: after the pass and a card, the game begins again with the hand as dealt.
    pass_cards(page)
    play_one_legal(page)
    page.click("[data-action=open][data-overlay=restart]")
    page.click("[data-action=restart_confirm]")
    page.wait_for_function("() => window.hartenjagen.state.table.view.phase === 'passing'")
    page.wait_for_function("(h) => window.hartenjagen.state.table.view.hand.join() === h.join()", arg=offline_hand)

    # The same deal number online: the same cards in the same seat, and the same as the core deals them.
    online = open_page(f"/?deal={deal}", viewport=DESKTOP, name="Bram")
    create_table(online)
    fill_and_start(online)
    assert view(online)["hand"] == offline_hand
    rules = make_rules({})
    assert sorted(offline_hand) == sorted(Game(rules).names(seeded_deal(rules, deal, hand_no)[0]))

    # The same medium decisions from the same seeds and views, in the worker and here.
    assert_decides_as_the_server(page)


def test_a_kept_game_that_does_not_replay_is_dropped_with_a_notice(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, name="Cor")
    # A kept game whose log does not fold: its first entry does not say how the table was made.
    page.evaluate(
        """async () => {
            const store = await import('/js/offline/store.js');
            await store.startGame({table_id: 'damaged1', token: 'x', seat: 0});
            await store.keep('damaged1', [[1, '{"type": "nonsense"}']], null);
        }"""
    )
    page.reload()
    expect(page.locator("[data-offline-kept]")).to_be_visible()
    page.goto(page.url.rstrip("/") + "/offline")
    expect(page.locator(".notice.error")).to_contain_text("could not be read", timeout=BOOT_MS)  # after the start
    expect(page.locator("[data-offline-kept]")).to_have_count(0)
    assert page.url.endswith("/")
    page.wait_for_selector("form[data-form=create] [data-offline-play]")
    assert page.evaluate("async () => (await import('/js/offline/store.js').then((s) => s.currentGame()))") is None
    shot(page, "damaged-notice")
