"""Two decks and jokers from the browser: on a phone a person plays Cancellation Hearts at six seats to game over
(six players, a hand that holds a card twice and draws it twice, both copies chosen to pass, one by keyboard, the
cards received marked, a cancelled card struck through and labelled, the score table of six columns, a winner),
upright and on its side; Hearts for three with two jokers draws the joker in the hand and in the trick; and the cards
of an undecided trick wait in the middle of the table, said as such, until a trick someone takes."""

from __future__ import annotations

import json
import random
import re

from playwright.sync_api import Page, expect

from .conftest import (
    click_card,
    fill_and_start,
    hand_keys,
    no_horizontal_scroll,
    play_until_game_over,
    resize,
    save_shot,
    view,
)
from .test_seat_counts import AT_REST, MEASURE, SHOW, _table, check_layout, names_whole
from .test_variant_play import create_variant_table

PHONE_TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
# Numbered deals (the same cards on every machine): at deal 7 of Cancellation Hearts for six the first seat holds
# three cards twice; at deal 4 of Hearts for three with jokers it holds both jokers.
CANCELLATION_DEAL = 7
JOKERS_DEAL = 4


def photo(page: Page, label: str) -> None:
    """A screenshot under artifacts/screenshots/decks-<label>.png."""
    save_shot(page, f"decks-{label}")


# From now on note whether the page draws your joker in the trick once it has left your hand (``held`` jokers before):
# its star, said as Anna's, and how many such cards the trick then shows. A trick that the joker finishes stays on the
# table less than a second before it goes to its taker, which a test on a busy machine may look for too late; the page
# itself notes it as it draws.
WATCH_JOKER = """(held) => {
    window.__jokerDrawn = 0;
    window.__jokerLook = () => {
        const s = window.hartenjagen.state;
        const left = s.table && s.table.view ? s.table.view.hand.filter((c) => c === 'JK').length : held;
        const mine = [...document.querySelectorAll('.trick .card.joker[aria-label="Anna plays the joker"]')];
        const drawn = mine.some((c) => c.textContent.includes('★') && c.getClientRects().length);
        if (!window.__jokerDrawn && left < held && drawn) window.__jokerDrawn = mine.length;
    };
    if (!window.__jokerWatch) {
        window.__jokerWatch = new MutationObserver(() => window.__jokerLook());
        window.__jokerWatch.observe(document.body, {subtree: true, childList: true});
    }
}"""


def create_and_start(page: Page, variant: str, fields: dict[str, str], deal: int) -> None:
    """A table of ``variant`` dealing numbered deal ``deal``, easy computer players in every other seat, started."""
    page.select_option("#level", "easy")
    page.fill("#deal", str(deal))
    create_variant_table(page, variant, fields)
    fill_and_start(page)


def settled(page: Page) -> None:
    """The trick on the table is the view's own: the one before gone to its taker, every card at rest."""
    page.wait_for_selector(".trick-caption", state="detached")
    page.wait_for_function(AT_REST, polling="raf")


def cancelled_cards(trick: dict | None) -> list[dict]:
    return [c for c in (trick or {}).get("cards", []) if c.get("cancelled")]


def first_hand_scored(v: dict) -> bool:
    return bool(v["history"]) and v["phase"] in ("hand_over", "game_over")


# ------------------------------------------------------------------ Cancellation Hearts for six, to game over


def choose_both_copies(page: Page, card: str) -> str:
    """Choose both copies of ``card`` to pass, the second by keyboard, and one other card; return that other card."""
    copies = page.locator(f'.hand .card[data-card="{card}"]')
    copies.nth(0).focus()
    page.keyboard.press("ArrowRight")  # the copies lie side by side: the arrow goes to the other copy, not past it
    expect(copies.nth(1)).to_be_focused()
    page.keyboard.press("Enter")
    expect(copies.nth(1)).to_have_attribute("aria-pressed", "true")
    expect(copies.nth(0)).to_have_attribute("aria-pressed", "false")
    expect(copies.nth(1)).to_be_focused()  # the redraw keeps the focus on the same copy
    click_card(page, f"{card}#0")
    expect(copies.nth(0)).to_have_attribute("aria-pressed", "true")
    other = next(k for k in hand_keys(page) if not k.startswith(f"{card}#"))
    click_card(page, other)
    expect(page.locator(".hand .card.selected")).to_have_count(3)
    return other.split("#")[0]


def test_cancellation_for_six_on_a_phone_to_game_over(open_page):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    page.select_option("#variant", "cancellation")
    seats = page.locator("#opt-cancellation-seats")
    expect(seats).to_have_value("6")
    cycle = page.locator("#opt-cancellation-passing option[value=cycle]")
    expect(cycle).to_have_text("Left, right, across, hold")
    seats.fill("7")  # an odd count has no across
    expect(cycle).to_have_text("Left, right, hold")
    seats.fill("6")
    expect(cycle).to_have_text("Left, right, across, hold")
    page.select_option("#level", "easy")
    page.fill("#deal", str(CANCELLATION_DEAL))
    create_variant_table(page, "cancellation", {"end_score": "25"})
    expect(page.locator(".seat-card")).to_have_count(6)
    expect(page.locator(".lobby-rules")).to_contain_text("Cancellation Hearts (6 to 12), game ends at 25 points")
    fill_and_start(page)
    names = page.evaluate("() => window.hartenjagen.state.table.seats.map(s => s.name)")

    # Six players: me at the bottom, the five others in play order around the trick.
    expect(page.locator(".opp .player")).to_have_count(5)
    expect(page.locator(".player.self")).to_contain_text("Seat 1 Anna")
    expect(page.locator("[data-area=left] .player")).to_contain_text(f"Seat 2 {names[1]}")
    expect(page.locator("[data-area=right] .player")).to_contain_text(f"Seat 6 {names[5]}")
    expect(page.locator(".hand .card")).to_have_count(17)

    # A card dealt twice is drawn twice, each copy a card of its own.
    v = view(page)
    assert v["seats"] == 6 and v["phase"] == "passing" and v["pass_to"] == 1
    twice = sorted({c for c in v["hand"] if v["hand"].count(c) == 2})
    assert twice, v["hand"]
    card = twice[0]
    copies = page.locator(f'.hand .card[data-card="{card}"]')
    expect(copies).to_have_count(2)
    assert copies.evaluate_all("els => els.map(e => e.dataset.key)") == [f"{card}#0", f"{card}#1"]
    for i in range(2):
        expect(copies.nth(i)).to_be_in_viewport()

    # The hint marks three cards, a card it names twice on both copies.
    page.click("[data-action=hint]")
    expect(page.locator(".hand .card.hint")).to_have_count(3)
    assert len(page.evaluate("() => window.hartenjagen.state.hint")) == 3

    # Both copies go to the left: the pass names the card twice.
    other = choose_both_copies(page, card)
    expect(page.locator("[data-action=pass]")).to_be_enabled()
    photo(page, "cancellation-passing-portrait")
    page.click("[data-action=pass]")
    page.wait_for_function("() => window.hartenjagen.state.table.view.phase === 'playing'")
    v = view(page)
    assert sorted(v["passed"]) == sorted([card, card, other])
    expect(page.locator(".passed-line")).to_have_attribute("data-passed", " ".join(v["passed"]))
    # The cards received glow, as many as came (a card received twice on both its copies).
    expect(page.locator(".hand .card.received")).to_have_count(len(v["received"]))
    expect(page.locator(".received-line")).to_contain_text(f"Received from {names[5]}")
    photo(page, "cancellation-received-portrait")

    seen = {"table": False, "last": False, "pending": False}

    def look(v: dict) -> bool:
        """At each of my moves: a cancelled card on the table, in the last trick, cards waiting in the middle."""
        if v["phase"] != "playing":
            return False
        if cancelled_cards(v["trick"]) and not seen["table"]:
            settled(page)
            marked = page.locator(".trick .card.cancelled")
            expect(marked).to_have_count(len(cancelled_cards(v["trick"])))
            expect(page.locator(".trick .cancel-tag").first).to_have_text("cancelled")
            assert marked.first.get_attribute("aria-label").endswith(", cancelled")
            assert marked.first.evaluate("e => getComputedStyle(e, '::after').backgroundImage").startswith("linear")
            photo(page, "cancellation-cancelled-portrait")
            check_layout(page.evaluate(MEASURE), 6)
            resize(page, LANDSCAPE)
            page.wait_for_function(AT_REST, polling="raf")
            photo(page, "cancellation-cancelled-landscape")
            check_layout(page.evaluate(MEASURE), 6, cards_may_touch=True)
            resize(page, PHONE_TALL)
            seen["table"] = True
        last = v["tricks"][-1] if v["tricks"] else None
        if cancelled_cards(last) and not seen["last"]:
            page.click("[data-action=open][data-overlay=last_trick]")
            dialog = page.locator(".dialog-last_trick")
            expect(dialog.locator(".card.cancelled")).to_have_count(len(cancelled_cards(last)))
            expect(dialog.locator(".cancel-tag").first).to_have_text("cancelled")
            if last.get("undecided"):
                expect(dialog.locator(".lt-taker")).to_have_text(
                    "No one takes this trick: the cards wait for the next one"
                )
            photo(page, "cancellation-last-trick-portrait")
            page.keyboard.press("Escape")
            page.wait_for_selector(".dialog", state="detached")
            seen["last"] = True
        if v["pending"] and not seen["pending"]:
            settled(page)
            expect(page.locator(".trick .pending")).to_have_attribute("data-pending", str(len(v["pending"])))
            photo(page, "cancellation-pending-portrait")
            seen["pending"] = True
        return False

    # The first hand, then its score table: a column per seat, names whole.
    play_until_game_over(page, hands=1, stop=lambda v: look(v) or first_hand_scored(v))
    dialog = page.locator(".dialog-scores")
    expect(dialog.locator("table.scores thead th")).to_have_count(7)
    expect(dialog.locator("table.scores tfoot td")).to_have_count(6)
    assert no_horizontal_scroll(page)
    photo(page, "cancellation-scores-portrait")

    final = play_until_game_over(page, hands=12, stop=look)
    assert final["game_over"] and final["winners"]
    assert seen["table"] or seen["last"], "a cancelled card was seen"
    expect(dialog.locator(".winners")).to_contain_text("Game over")
    winner = names[final["winners"][0]] if final["winners"][0] else "Anna"
    expect(dialog.locator(".winners")).to_contain_text(winner)
    expect(dialog.locator("table.scores tbody tr")).to_have_count(len(final["history"]))
    totals = dialog.locator("table.scores tfoot td")
    for seat in range(6):
        expect(totals.nth(seat)).to_have_text(str(final["totals"][seat]))
    voided = [i for i, h in enumerate(final["history"]) if h["voided"]]
    expect(dialog.locator(".voided-lines li")).to_have_count(len(voided))
    assert names_whole(dialog) or dialog.locator(".table-wrap").evaluate("e => e.scrollWidth > e.clientWidth")
    photo(page, "cancellation-game-over-portrait")
    resize(page, LANDSCAPE)
    assert no_horizontal_scroll(page)
    photo(page, "cancellation-game-over-landscape")

    # The replay: six hands open, each trick's cancelled cards struck through.
    resize(page, PHONE_TALL)
    dialog.locator("[data-action=replay]").click()
    expect(page.locator(".rp-seat")).to_have_count(6)
    expect(page.locator(".rp-totals table.scores tfoot td")).to_have_count(6)
    photo(page, "cancellation-replay-portrait")


# ------------------------------------------------------------------ Hearts for three with two jokers


def test_three_with_jokers_on_a_phone_draws_and_plays_the_joker(open_page):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    create_and_start(page, "three_jokers", {"end_score": "25"}, JOKERS_DEAL)
    v = view(page)
    assert v["hand"].count("JK") == 2 and len(v["hand"]) == 18
    jokers = page.locator('.hand .card[data-card="JK"]')
    expect(jokers).to_have_count(2)
    expect(jokers.first).to_have_class(re.compile(r"\bjoker\b"))
    expect(jokers.first).to_have_attribute("aria-label", "joker")
    expect(jokers.first.locator(".corner.tl")).to_have_text("★Joker")
    expect(jokers.first.locator(".pip")).to_have_text("★")
    # the jokers lie after the ace of hearts, at the end of the hand
    assert [c for c in page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")][-3:] == [
        "AH",
        "JK",
        "JK",
    ]
    colour = jokers.first.evaluate("e => getComputedStyle(e).color")
    heart = page.locator('.hand .card[data-card="AH"]').evaluate("e => getComputedStyle(e).color")
    assert colour != heart  # a colour of its own
    photo(page, "three-jokers-hand-portrait")
    page.click("[data-action=hint]")
    expect(page.locator(".hand .card.hint")).to_have_count(3)
    keys = [k for k in hand_keys(page) if not k.startswith("JK")][:3]
    for key in keys:
        click_card(page, key)
    page.click("[data-action=pass]")

    # Play on, the joker as soon as it may be played, until both are on the table.
    shown = False
    for _ in range(40):
        v = view(page)
        if "JK" not in v["hand"]:
            break
        # our turn by the confirmed view (the hand on screen may still show the last turn's legal cards)
        page.wait_for_function("() => (window.hartenjagen.state.table.view.legal || []).length > 0")
        v = view(page)
        held = v["hand"].count("JK")
        card = "JK" if "JK" in v["legal"] else v["legal"][0]
        copies = v["hand"].count(card)
        if card == "JK":
            page.evaluate(WATCH_JOKER, held)
        page.locator(f'.hand .card.legal[data-card="{card}"]').first.click()
        page.wait_for_function(  # the server took it and the hand on screen shows it gone
            "([c, n]) => window.hartenjagen.state.table.view.hand.filter(x => x === c).length < n"
            " && document.querySelectorAll(`.hand .card[data-card='${c}']`).length < n",
            arg=[card, copies],
        )
        if card == "JK":
            # drawn in the trick with its star, said as Anna's joker, the one joker of that trick
            assert page.wait_for_function("() => window.__jokerDrawn").json_value() == 1
            if not shown and page.locator(".trick .card.joker").count():
                photo(page, "three-jokers-played-portrait")
            shown = True
            assert view(page)["hand"].count("JK") == held - 1
    assert "JK" not in view(page)["hand"] and shown

    # The hand's score table: three columns; a joker counted as a heart (30 points a hand: hearts, jokers, Q♠ 15).
    first = play_until_game_over(page, hands=1, stop=first_hand_scored)
    dialog = page.locator(".dialog-scores")
    expect(dialog.locator("table.scores tfoot td")).to_have_count(3)
    hand = first["history"][0]
    assert sum(hand["points"]) == 30 or hand["moon"] is not None
    photo(page, "three-jokers-scores-portrait")


# ------------------------------------------------------------------ an undecided trick's cards wait in the middle


def undecided_views() -> tuple[dict, dict]:
    """Two views of seat 0 at Cancellation Hearts for six, from a seeded game in the core: right after an undecided
    trick (its cards waiting), and at its turn with cards waiting and a cancelled card in the trick."""
    from hartenjagen.shared.cards import parse_card
    from hartenjagen.shared.game import GAME_OVER, HAND_OVER, Game
    from hartenjagen.shared.variants import make_rules
    from hartenjagen.shared.view import view_for

    rules = make_rules({"variant": "cancellation", "seats": 6})
    after = waiting = None
    for seed in range(2000):
        rng = random.Random(seed)
        game = Game(rules)
        game.deal_seeded(seed)
        while game.phase not in (HAND_OVER, GAME_OVER):
            seat = game.to_act()[0]
            v = view_for(game, seat)
            if game.phase == "passing":
                game.pass_cards(seat, [parse_card(c) for c in v["hand"][: v["pass_count"]]])
                continue
            mine = view_for(game, 0)
            last = mine["tricks"][-1] if mine["tricks"] else None
            if after is None and last and last.get("undecided") and not (mine["trick"] or {}).get("cards"):
                after = json.loads(json.dumps(mine))
            if waiting is None and seat == 0 and v["pending"] and len(cancelled_cards(v["trick"])) >= 2:
                waiting = json.loads(json.dumps(v))
            if after and waiting:
                return after, waiting
            game.play(seat, parse_card(rng.choice(v["legal"])))
    raise AssertionError("no undecided trick found")


SHOW_UNDECIDED = """([m, trick, before]) => {
    const s = window.hartenjagen.state;
    s.table = m; s.screen = 'table'; s.conn = 'online';
    const far = Date.now() + 600000;
    s.trickShow = {trick, until: far, slideUntil: far, kittyBefore: null, pendingBefore: before};
    window.dispatchEvent(new Event('resize'));
    return new Promise((drawn) => requestAnimationFrame(() => drawn()));  // once the page has drawn it
}"""


def test_an_undecided_tricks_cards_wait_in_the_middle_until_someone_takes_a_trick(open_page):
    after, waiting = undecided_views()
    page = open_page("/", viewport=PHONE_TALL)
    page.wait_for_function("() => window.hartenjagen")

    # Right after the trick: it stays a moment, said as undecided, with nothing waiting yet but what waited before.
    trick = after["tricks"][-1]
    before = after["pending"][: len(after["pending"]) - len(trick["cards"])]
    page.evaluate(SHOW_UNDECIDED, [_table(after, 6), trick, before])
    caption = page.locator(".trick-caption")
    expect(caption).to_have_text("No one takes this trick: the cards wait for the next one")
    expect(caption).to_have_class("trick-caption undecided")
    expect(page.locator(".trick .slot .card")).to_have_count(6)
    expect(page.locator(".trick .card.cancelled")).to_have_count(len(cancelled_cards(trick)))
    photo(page, "undecided-caption-portrait")

    # Then its cards wait in the middle, a small stack that says how many, until a trick someone takes.
    page.evaluate(
        "() => { const s = window.hartenjagen.state; s.trickShow = null; window.dispatchEvent(new Event('resize'));"
        " return new Promise((drawn) => requestAnimationFrame(() => drawn())); }"
    )
    pending = page.locator(".trick .pending")
    expect(pending).to_have_attribute("data-pending", str(len(after["pending"])))
    expect(pending.locator(".pending-count")).to_have_text(f"{len(after['pending'])} waiting")
    label = pending.get_attribute("aria-label")
    assert label.startswith(f"{len(after['pending'])} cards wait for the next trick someone takes: ")
    expect(page.locator(".trick-caption")).to_have_count(0)
    expect(page.locator(".hand-no .pending-note")).to_have_text(f"{len(after['pending'])} cards waiting")
    photo(page, "undecided-pending-portrait")

    # At my turn with cards waiting and a cancelled card in the trick: everything in view, nothing over the cards.
    page.evaluate(SHOW, _table(waiting, 6))
    page.wait_for_function(AT_REST, polling="raf")
    expect(pending).to_have_attribute("data-pending", str(len(waiting["pending"])))
    expect(page.locator(".trick .card.cancelled")).to_have_count(len(cancelled_cards(waiting["trick"])))
    tags = page.locator(".trick .cancel-tag")
    expect(tags.first).to_have_text("cancelled")
    check_layout(page.evaluate(MEASURE), 6)
    box = pending.bounding_box()
    for card in page.locator(".trick .slot .card").all():
        other = card.bounding_box()
        assert (
            other["x"] + other["width"] <= box["x"] + 1
            or box["x"] + box["width"] <= other["x"] + 1
            or (other["y"] + other["height"] <= box["y"] + 1 or box["y"] + box["height"] <= other["y"] + 1)
        ), (box, other)
    photo(page, "undecided-waiting-portrait")
    resize(page, LANDSCAPE)
    page.wait_for_function(AT_REST, polling="raf")
    check_layout(page.evaluate(MEASURE), 6, cards_may_touch=True)
    expect(page.locator(".hand-no .pending-note")).to_be_in_viewport()  # the trick's cards may cover the stack here
    photo(page, "undecided-waiting-landscape")

    # In Dutch: "opgeheven", and the stack says how many wait.
    resize(page, PHONE_TALL)
    page.click("#top [data-action=lang][data-lang=nl]")
    expect(tags.first).to_have_text("opgeheven")
    expect(pending.locator(".pending-count")).to_have_text(f"{len(waiting['pending'])} wachten")
    photo(page, "undecided-waiting-nl-portrait")


def test_cards_still_waiting_after_the_last_trick_are_named_in_the_score_table(open_page):
    after, _ = undecided_views()
    page = open_page("/", viewport=PHONE_TALL)
    page.wait_for_function("() => window.hartenjagen")
    table = _table(after, 6)
    v = table["view"]
    points = [3, 0, 13, 5, 1, 0]
    v["history"] = [
        {
            "hand_no": 0,
            "points": points,
            "scores": points,
            "totals": points,
            "moon": None,
            "kitty_takers": [5, 5],
            "voided": ["AC", "AC", "3S", "4S", "TS", "8H"],
        }
    ]
    v["totals"] = points
    v["phase"] = "hand_over"
    page.evaluate(SHOW, table)
    page.evaluate("() => { window.hartenjagen.state.overlay = 'scores'; window.dispatchEvent(new Event('resize')); }")
    line = page.locator(".dialog-scores .voided-lines li")
    expect(line).to_have_count(1)
    expect(line).to_have_text("Hand 1, counted for nobody (undecided at the end): A♣ A♣ 3♠ 4♠ 10♠ 8♥")
    expect(page.locator(".dialog-scores table.scores tfoot td")).to_have_count(6)
    photo(page, "voided-scores-portrait")
    page.keyboard.press("Escape")
    page.click("#top [data-action=lang][data-lang=nl]")
    page.evaluate("() => { window.hartenjagen.state.overlay = 'scores'; window.dispatchEvent(new Event('resize')); }")
    expect(line).to_have_text("Ronde 1, telt voor niemand (onbeslist aan het eind): A♣ A♣ 3♠ 4♠ 10♠ 8♥")
