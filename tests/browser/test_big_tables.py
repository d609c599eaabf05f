"""Big tables (six to twelve seats) from the browser: Cancellation Hearts for six, ten and twelve (two and three decks)
and Extreme Hearts for eight, played against computer players on a phone on its side (844x390) and a desktop
(1280x800), fit the screen without scrolling (the top bar, every seat, the trick and the whole hand in view, no seat's
points wrapping, the chat's button over no seat), while cards are passed too, when the middle of the table shows the
pass (its places large and whole, no card's corner covered, a chosen card standing up in the hand under the line
under the pass, not over it); the trick's cards are large, lie on two rows round the table, none covering another's
corner (its rank and suit), each named after its player, the lead marked and in Extreme Hearts the first of two
identical cards marked, in English and in Dutch; cancelled cards, the kitty (at ten seats four cards beside the
trick), the cards waiting after an undecided trick and who took the trick cover no card's corner; and on a phone
upright a table taller than the screen says the hand is further down until it is in view."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, click_card, fill_and_start, hand_keys, play_until_game_over, resize, save_shot, view
from .test_seat_counts import SHOW, _table
from .test_variant_play import create_variant_table

pytestmark = pytest.mark.animations_off  # what is measured is where the cards lie at rest

LANDSCAPE = {"width": 844, "height": 390}
PHONE_TALL = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 320, "height": 480}  # a small phone, its browser bars shown
SIZES = {"844x390": LANDSCAPE, "1280x800": DESKTOP}
WORDS = {
    "en": {"lead": "lead", "first": "1st of 2", "you": "You", "below": "Your hand is further down"},
    "nl": {"lead": "uitkomst", "first": "1e van 2", "you": "Jij", "below": "Je kaarten staan verderop"},
}

# What a player sees of a big table: every seat's panel (and whether each visible part of its points is one line
# inside it), the trick's cards (each card's box, its corner's box, whether every point of that corner reaches the
# card itself, so that no card lies over its rank and suit, the name under it, its marks), the words written on and
# under the cards, the caption under the trick, the hand, the status and the top bar; and the page's scroll size.
MEASURE = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
    const reaches = (e, x, y) => e.contains(document.elementFromPoint(x, y));
    const shown = (e) => e.getBoundingClientRect().width > 1 && getComputedStyle(e).visibility !== 'hidden';
    const panel = (p) => ({
        name: 'seat ' + p.dataset.seat, ...box(p),
        reachable: reaches(p, box(p).x + box(p).w / 2, box(p).y + box(p).h / 2),
        scores: [...p.querySelectorAll('.score > span')].filter(shown).map((s) => ({
            text: s.textContent, ...box(s), lines: s.getClientRects().length})),
    });
    const played = (slot) => {
        const card = slot.querySelector('.card');
        const corner = card.querySelector('.corner.tl').getBoundingClientRect();
        const points = [[corner.left + 1, corner.top + 1], [corner.right - 1, corner.top + 1],
            [corner.left + 1, corner.bottom - 1], [corner.right - 1, corner.bottom - 1],
            [(corner.left + corner.right) / 2, (corner.top + corner.bottom) / 2]];
        const label = slot.querySelector('.played-by');
        const mark = (kind) => {
            const m = slot.querySelector('.mark.' + kind);
            return m && shown(m) ? m.textContent : null;
        };
        return {
            seat: Number(slot.dataset.seat), card: card.dataset.card, ...box(card),
            corner: {x: corner.x, y: corner.y, w: corner.width, h: corner.height},
            cornerFree: points.every(([x, y]) => reaches(card, x, y)),
            said: card.getAttribute('aria-label'),
            // a cancelled card's stroke: a gradient toward the bottom right joins the bottom left and the top right
            stroke: card.classList.contains('cancelled') ? getComputedStyle(card, '::after').backgroundImage : null,
            name: label && shown(label) ? label.textContent : null, nameBox: label && box(label),
            lead: slot.hasAttribute('data-lead'), leadMark: mark('lead'),
            first: slot.hasAttribute('data-first-twin'), firstMark: mark('first-twin'),
        };
    };
    // a place of the pass: its card (whether every point of its corner reaches the card itself) or the empty place
    const place = (e) => {
        const corner = e.querySelector('.corner.tl');
        const c = corner && corner.getBoundingClientRect();
        return {name: 'place ' + (e.dataset.card || 'open'), ...box(e), corner: c && {x: c.x, y: c.y, w: c.width,
            h: c.height}, cornerFree: !c || [[c.left + 1, c.top + 1], [c.right - 1, c.bottom - 1],
            [(c.left + c.right) / 2, (c.top + c.bottom) / 2]].every(([x, y]) => reaches(e, x, y))};
    };
    const caption = document.querySelector('.trick-caption');
    const handNo = document.querySelector('.hand-no');
    const root = document.scrollingElement;
    // the middle of the table: the trick, or while cards are passed the pass
    const middle = document.querySelector('[data-area=center] :is(.trick, .pass-board)');
    return {
        viewport: {w: window.innerWidth, h: window.innerHeight},
        scroll: {w: root.scrollWidth, h: root.scrollHeight},
        top: box(document.querySelector('#top')),
        opponents: [...document.querySelectorAll('.opp .player')].map(panel),
        me: {name: 'me', ...box(document.querySelector('.player.self'))},
        trick: box(middle),
        passing: middle.classList.contains('pass-board'),
        places: [...middle.querySelectorAll('.pb-places > li > :is(.pb-card, .pb-empty)')].map(place),
        passTitle: middle.classList.contains('pass-board') ? box(middle.querySelector('.pb-to')) : null,
        passKitty: [...middle.querySelectorAll('.pb-kitty .kitty')].map((e) => ({name: 'kitty', ...box(e)})),
        cards: [...document.querySelectorAll('.trick .slot')].map(played),
        side: [...document.querySelectorAll('.trick :is(.kitty, .pending)')].map((e) => ({name: e.className,
            ...box(e)})),
        // what is written on or under the cards (none of it takes a tap, so it is measured, not tapped)
        words: [...document.querySelectorAll('.trick :is(.mark, .cancel-tag, .played-by)')].filter(shown)
            .map((e) => ({name: e.textContent, ...box(e)})),
        caption: caption && {name: 'caption ' + caption.textContent, ...box(caption)},
        handNo: handNo && {name: handNo.textContent, ...box(handNo)},
        hand: [...document.querySelectorAll('.hand .card')].map((e) => ({name: 'hand ' + e.dataset.key, ...box(e)})),
        status: [...document.querySelectorAll('.status :is(button, .turn-line)')].map((e) => ({name: e.textContent,
            ...box(e)})),
        below: Boolean(document.querySelector('.hand-below:not([hidden])')),
        // the closed chat's button, where it is shown
        chat: [...document.querySelectorAll('#chat:not([hidden]) .chat-toggle')].filter(shown).map((e) => ({
            name: 'chat', ...box(e)})),
    };
}"""

# The trick at rest: the one before gone to its taker, every card still.
# The trick on the table is the one the page knows, drawn (every card of it: a message that came this frame is drawn
# in the page's next frame), with no trick held over it and no card still moving.
AT_REST = """() => {
    const t = window.hartenjagen.state.table;
    const trick = t && t.view && t.view.trick;
    return !document.querySelector('.trick-caption')
        && document.querySelectorAll('.trick .slot').length === (trick ? trick.cards.length : 0)
        && [...document.querySelectorAll('.trick .card')].every(c => c.getAnimations().length === 0);
}"""


def _overlap(a: dict, b: dict) -> bool:
    across = a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
    return across and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5


def _inside(a: dict, viewport: dict) -> bool:
    across = a["x"] >= -0.5 and a["x"] + a["w"] <= viewport["w"] + 0.5
    return across and a["y"] >= -0.5 and a["y"] + a["h"] <= viewport["h"] + 0.5


def check_fits(seen: dict, seats: int) -> None:
    """No scrolling either way; the top bar, every seat, you, the trick, the status and the whole hand in view; no
    panel over another or over the trick, the chat's button over none of them; each part of a seat's points on one
    line inside its panel."""
    viewport = seen["viewport"]
    assert seen["scroll"] == viewport, ("the page scrolls", seats, seen["scroll"], viewport)
    assert len(seen["opponents"]) == seats - 1
    for thing in [seen["top"], seen["me"], seen["trick"], *seen["opponents"], *seen["hand"], *seen["status"]]:
        assert _inside(thing, viewport), ("out of view", seats, thing, viewport)
    panels = [*seen["opponents"], seen["me"]]
    for panel in panels:
        assert not _overlap(panel, seen["trick"]), (panel, seen["trick"])
        for other in panels:
            assert other is panel or not _overlap(panel, other), (panel, other)
    for chat in seen["chat"]:
        for thing in [*panels, seen["trick"], *seen["hand"], *seen["status"]]:
            assert not _overlap(chat, thing), ("the chat's button lies over", chat, thing)
    for panel in seen["opponents"]:
        assert panel["reachable"], panel
        assert panel["scores"], panel
        for part in panel["scores"]:
            assert part["lines"] == 1, ("points wrap", panel["name"], part)
            assert part["x"] >= panel["x"] and part["x"] + part["w"] <= panel["x"] + panel["w"] + 0.5, (panel, part)


def check_trick(seen: dict, v: dict, names: list[str], lang: str = "en", large: bool = True) -> None:
    """Every card of the view's trick on the table, in view, large (four fifths of a card of the hand, or 70 pixels;
    on a screen too small for the table, unless ``large``, 34), none over another's corner, nothing over its own
    corner, its player's name under it; the lead marked, and in Extreme Hearts the first of each two identical
    cards."""
    words = WORDS[lang]
    trick = v["trick"]["cards"]
    cards = {c["seat"]: c for c in seen["cards"]}
    assert sorted(cards) == sorted(c["seat"] for c in trick), (cards, trick)
    hand_width = seen["hand"][0]["w"] if seen["hand"] else 0
    for i, played in enumerate(trick):
        card = cards[played["seat"]]
        assert card["card"] == played["card"], (card, played)
        assert _inside(card, seen["viewport"]), card
        assert card["w"] >= (min(0.8 * hand_width, 70) if large else 34), ("small trick card", card["w"], hand_width)
        assert card["cornerFree"], ("something lies over the corner", card)
        if played.get("cancelled"):  # struck through from the bottom left to the top right, away from the corner
            assert card["stroke"].startswith("linear-gradient(to right bottom,"), card
        else:
            assert card["stroke"] is None, card
        for other in seen["cards"]:
            assert other is card or not _overlap(card["corner"], other), ("a card covers a corner", card, other)
        for written in seen["words"]:
            assert not _overlap(card["corner"], written), ("words over a corner", card, written)
        for thing in [*seen["side"], *([seen["caption"]] if seen["caption"] else [])]:
            assert not _overlap(card, thing), (card, thing)
        name = words["you"] if played["seat"] == v["seat"] else names[played["seat"]]
        assert card["name"] == name, (card, name)
        label = card["nameBox"]
        assert label["y"] >= card["y"] + card["h"] - 1 and label["y"] <= card["y"] + card["h"] + 6, (card, label)
        assert card["x"] <= label["x"] + label["w"] / 2 <= card["x"] + card["w"], (card, label)
        assert card["said"].startswith(names[played["seat"]]), card  # the screen reader hears who played it too
        assert card["lead"] == (i == 0) and card["leadMark"] == (words["lead"] if i == 0 else None), (i, card)
        first = v["rules"]["variant"] == "extreme" and any(c["card"] == played["card"] for c in trick[i + 1 :])
        assert card["first"] == first and card["firstMark"] == (words["first"] if first else None), (i, card, trick)


def check_pass(seen: dict, v: dict) -> None:
    """While cards are passed the middle of the table is the pass: a place for each card, every chosen card as large
    as a card of the trick would be, whole in the middle and in view, nothing over its corner, no place over
    another, the seat they go to and the kitty over none of them."""
    assert seen["passing"], "the middle shows no pass"
    places = seen["places"]
    assert len(places) == v["pass_count"], places
    hand_width = seen["hand"][0]["w"]
    middle = seen["trick"]
    for place in places:
        assert _inside(place, seen["viewport"]), ("out of view", place)
        assert _inside({**place, "x": place["x"] - middle["x"], "y": place["y"] - middle["y"]}, middle), (place, middle)
        assert place["w"] >= min(0.8 * hand_width, 70), ("small place", place["w"], hand_width)
        assert place["cornerFree"], ("something lies over the corner", place)
        for other in [*places, seen["passTitle"], *seen["passKitty"]]:
            assert other is place or not _overlap(place, other), (place, other)
    for card in seen["hand"]:  # a chosen card stands up in the hand, under the line under the middle
        assert not _overlap(card, seen["handNo"]), ("a card of the hand over the line", card, seen["handNo"])


# ------------------------------------------------------------------ playing against computer players


def start(page: Page, variant: str, seats: int | None = None) -> list[str]:
    """A table of ``variant`` (at ``seats`` seats) with easy computer players, started and its first pass made (the
    cards chosen, the table measured: it fits while passing too); return every seat's name."""
    page.select_option("#level", "easy")
    fields = {"end_score": "100"}
    if seats:
        fields["seats"] = str(seats)
    create_variant_table(page, variant, fields)
    fill_and_start(page)
    v = view(page)
    if v["phase"] == "passing":
        refused = v.get("pass_refusals") or {}
        chosen = [k for k in hand_keys(page) if k.split("#")[0] not in refused][: v["pass_count"]]
        for key in chosen:
            click_card(page, key)
        expect(page.locator("[data-action=pass]")).to_be_enabled()
        expect(page.locator(".pass-board .pb-card")).to_have_count(v["pass_count"])
        first = page.viewport_size
        for size in [first, *(s for s in SIZES.values() if s != first), first]:  # the pass in the middle, at each size
            resize(page, size)
            seen = page.evaluate(MEASURE)
            photo(page, v["seats"], "-passing-" + page.evaluate("() => document.documentElement.lang"))
            check_fits(seen, v["seats"])
            check_pass(seen, v)
            assert [p["name"] for p in seen["places"]] == [f"place {key.split('#')[0]}" for key in chosen]
        page.click("[data-action=pass]")
        page.wait_for_function("() => window.hartenjagen.state.table.view.passed !== null")
    return page.evaluate("() => window.hartenjagen.state.table.seats.map(s => s.name)")


def twins(trick: dict | None) -> bool:
    cards = [c["card"] for c in (trick or {}).get("cards", [])]
    return len(set(cards)) < len(cards)


def play_to(page: Page, wanted: Callable[[dict], bool] = lambda trick: bool(trick and trick["cards"])) -> dict:
    """Play on until it is my turn with a trick on the table that ``wanted`` takes (by default any cards of the
    others), shown at rest; return the view."""
    v = play_until_game_over(page, hands=4, stop=lambda v: v["phase"] == "playing" and wanted(v["trick"]))
    assert not v["game_over"], "the game ended first"
    page.wait_for_function(AT_REST, polling="raf")
    return view(page)


def photo(page: Page, seats: int, moment: str = "") -> None:
    """The screenshot kept for the closing note: big-table-<seats>-<width>x<height><moment>.png."""
    size = page.viewport_size
    save_shot(page, f"big-table-{seats}-{size['width']}x{size['height']}{moment}")


LOCALES = {"en": "en-GB", "nl": "nl-NL"}


@pytest.mark.parametrize(("seats", "lang"), [(6, "en"), (10, "en"), (12, "nl")])
def test_cancellation_fits_a_phone_on_its_side_and_a_desktop_and_names_every_card(open_page, seats, lang):
    # a long name: your own panel as wide as it gets
    page = open_page("/", viewport=LANDSCAPE, name="Anna-Sophie van den Berg", locale=LOCALES[lang])
    names = start(page, "cancellation", seats)
    assert view(page)["seats"] == seats
    v = play_to(page)
    for size in SIZES.values():  # turned, then on a desktop: the same trick, laid out again
        resize(page, size)
        page.wait_for_function(AT_REST, polling="raf")
        seen = page.evaluate(MEASURE)
        photo(page, seats)
        check_fits(seen, seats)
        check_trick(seen, v, names, lang)
        assert not seen["below"]
    # In the other language: the lead says so in its words, and everything still fits.
    other = "nl" if lang == "en" else "en"
    page.click(f"#top [data-action=lang][data-lang={other}]")
    expect(page.locator(".trick .slot[data-lead] .mark.lead")).to_have_text(WORDS[other]["lead"])
    seen = page.evaluate(MEASURE)
    save_shot(page, f"big-table-{seats}-1280x800-{other}")
    check_fits(seen, seats)
    check_trick(seen, v, names, other)


def test_extreme_for_eight_marks_the_first_of_two_identical_cards(open_page):
    page = open_page("/", viewport=LANDSCAPE, name="Anna-Sophie", locale="nl-NL")
    names = start(page, "extreme")
    assert view(page)["seats"] == 8
    v = play_to(page, twins)
    for size in SIZES.values():
        resize(page, size)
        page.wait_for_function(AT_REST, polling="raf")
        seen = page.evaluate(MEASURE)
        photo(page, 8)
        check_fits(seen, 8)
        check_trick(seen, v, names, "nl")
    first = page.locator(".trick .slot[data-first-twin] .card").first
    expect(first).to_have_attribute("aria-label", re.compile(r", eerst gespeeld van twee: gaat boven de andere"))
    # In English: "1st of 2" on the first, nothing on the second.
    page.click("#top [data-action=lang][data-lang=en]")
    expect(page.locator(".trick .slot[data-first-twin] .mark.first-twin").first).to_have_text("1st of 2")
    resize(page, LANDSCAPE)
    page.wait_for_function(AT_REST, polling="raf")
    seen = page.evaluate(MEASURE)
    save_shot(page, "big-table-8-844x390-en")
    check_fits(seen, 8)
    check_trick(seen, v, names)


# ------------------------------------------------------------------ cancelled cards, kitty, waiting cards, taker


def core_view(options: dict, wanted: Callable[[dict], bool]) -> dict:
    """A view of seat 0 that ``wanted`` takes, at its turn, from games the core plays with random legal cards."""
    from hartenjagen.shared.cards import parse_card
    from hartenjagen.shared.game import GAME_OVER, HAND_OVER, Game
    from hartenjagen.shared.variants import make_rules
    from hartenjagen.shared.view import view_for

    rules = make_rules(options)
    for seed in range(3000):
        rng = random.Random(seed)
        game = Game(rules)
        game.deal_seeded(seed)
        while game.phase not in (HAND_OVER, GAME_OVER):
            seat = game.to_act()[0]
            v = view_for(game, seat)
            if game.phase == "passing":
                game.pass_cards(seat, [parse_card(c) for c in v["hand"][: v["pass_count"]]])
                continue
            if seat == 0 and wanted(v):
                return json.loads(json.dumps(v))
            game.play(seat, parse_card(rng.choice(v["legal"])))
    raise AssertionError("no such moment in the games looked at")


def full_trick(v: dict) -> bool:
    return bool(v["trick"]) and len(v["trick"]["cards"]) == v["seats"] - 1


def cancelled(trick: dict | None) -> int:
    return sum(1 for c in (trick or {}).get("cards", []) if c.get("cancelled"))


# The table message ``m`` with the finished trick ``trick`` held on the table (its taker said under it), as the page
# shows it for a moment after each trick; resolves once drawn.
HOLD = """([m, trick]) => {
    const s = window.hartenjagen.state;
    s.table = m; s.screen = 'table'; s.conn = 'online';
    const far = Date.now() + 600000;
    s.trickShow = {trick, until: far, slideUntil: far + 1000, kittyBefore: null, pendingBefore: null};
    window.dispatchEvent(new Event('resize'));
    return new Promise((drawn) => requestAnimationFrame(() => drawn()));
}"""


def test_cancelled_cards_the_kitty_waiting_cards_and_the_taker_cover_no_corner(open_page):
    names = [s["name"] for s in _table(core_view({"variant": "cancellation"}, full_trick), 6)["seats"]]
    page = open_page("/", viewport=LANDSCAPE)
    page.wait_for_function("() => window.hartenjagen")

    # Six seats, the kitty still on the table and two identical cards cancelled in the trick: the struck-through
    # cards and their "cancelled" leave every rank and suit in view.
    kitty = core_view(
        {"variant": "cancellation"},
        lambda v: full_trick(v) and cancelled(v["trick"]) >= 2 and -1 in (v["kitty_takers"] or []),
    )
    for label, size in SIZES.items():
        resize(page, size)
        page.evaluate(SHOW, _table(kitty, 6))
        expect(page.locator(".trick .kitty")).to_be_visible()
        expect(page.locator(".trick .card.cancelled")).to_have_count(cancelled(kitty["trick"]))
        expect(page.locator(".trick .cancel-tag").first).to_have_text("cancelled")
        seen = page.evaluate(MEASURE)
        save_shot(page, f"big-table-6-cancelled-kitty-{label}")
        check_fits(seen, 6)
        check_trick(seen, kitty, names)

    # Ten seats, four kitty cards: they lie beside the trick one a little below the other, the word Kitty under them,
    # over none of its cards.
    kitty10 = core_view(
        {"variant": "cancellation", "seats": 10}, lambda v: full_trick(v) and -1 in (v["kitty_takers"] or [])
    )
    names10 = [s["name"] for s in _table(kitty10, 10)["seats"]]
    for label, size in SIZES.items():
        resize(page, size)
        page.evaluate(SHOW, _table(kitty10, 10))
        expect(page.locator(".trick .kitty .card")).to_have_count(4)
        seen = page.evaluate(MEASURE)
        save_shot(page, f"big-table-10-kitty-{label}")
        check_fits(seen, 10)
        check_trick(seen, kitty10, names10)

    # The trick you just took, held a moment with "You take the trick" under it: the caption lies under the cards,
    # over none of them; your own card says "You".
    won = core_view(
        {"variant": "cancellation"},
        lambda v: bool(v["tricks"]) and v["tricks"][-1]["winner"] == 0 and cancelled(v["tricks"][-1]) >= 2,
    )
    trick = won["tricks"][-1]
    held = {**won, "trick": trick}
    for label, size in SIZES.items():
        resize(page, size)
        page.evaluate(HOLD, [_table(won, 6), trick])
        expect(page.locator(".trick-caption")).to_have_text("You take the trick")
        expect(page.locator(".trick .slot")).to_have_count(6)
        seen = page.evaluate(MEASURE)
        save_shot(page, f"big-table-6-taken-{label}")
        assert seen["caption"] is not None
        check_fits(seen, 6)
        check_trick(seen, held, names)
    page.click("#top [data-action=lang][data-lang=nl]")
    expect(page.locator(".trick-caption")).to_have_text("Jij neemt de slag")
    check_trick(page.evaluate(MEASURE), held, names, "nl")
    page.click("#top [data-action=lang][data-lang=en]")

    # Twelve seats, three decks: the cards of an undecided trick wait beside the trick, covering none of its cards.
    waiting = core_view({"variant": "cancellation", "seats": 12}, lambda v: full_trick(v) and bool(v["pending"]))
    names12 = [s["name"] for s in _table(waiting, 12)["seats"]]
    for label, size in SIZES.items():
        resize(page, size)
        page.evaluate(SHOW, _table(waiting, 12))
        expect(page.locator(".trick .pending")).to_have_attribute("data-pending", str(len(waiting["pending"])))
        page.wait_for_function(AT_REST, polling="raf")
        seen = page.evaluate(MEASURE)
        save_shot(page, f"big-table-12-waiting-{label}")
        assert seen["side"]
        check_fits(seen, 12)
        check_trick(seen, waiting, names12)


# ------------------------------------------------------------------ once your cards are passed


def passed_view(options: dict) -> dict:
    """A view of seat 0 that has passed its first cards (its hand's first ones) while every other seat still chooses."""
    from hartenjagen.shared.cards import parse_card
    from hartenjagen.shared.game import Game
    from hartenjagen.shared.variants import make_rules
    from hartenjagen.shared.view import view_for

    game = Game(make_rules(options))
    game.deal_seeded(1)
    v = view_for(game, 0)
    assert v["phase"] == "passing", v["phase"]
    game.pass_cards(0, [parse_card(c) for c in v["hand"][: v["pass_count"]]])
    return json.loads(json.dumps(view_for(game, 0)))


PASSED = {"en": "Passed to Ellen (Seat 2)", "nl": "Doorgegeven aan Ellen (Stoel 2)"}


@pytest.mark.parametrize(
    ("options", "lang"),
    [
        ({"variant": "cancellation", "seats": 6}, "en"),
        ({"variant": "extreme"}, "nl"),
        ({"variant": "cancellation", "seats": 10}, "en"),
        ({"variant": "cancellation", "seats": 12}, "nl"),
    ],
)
def test_once_passed_the_middle_shows_the_cards_given_and_the_table_still_fits(open_page, options, lang):
    # While the others still choose, the middle shows the cards you gave and to whom (and the kitty under them where
    # one lies), whole and in view, on a phone on its side and a desktop alike.
    v = passed_view(options)
    seats = v["seats"]
    page = open_page("/", viewport=LANDSCAPE, locale=LOCALES[lang])
    page.wait_for_function("() => window.hartenjagen")
    for label, size in SIZES.items():
        resize(page, size)
        page.evaluate(SHOW, _table(v, seats))
        board = page.locator(".pass-board.passed")
        expect(board.locator(".pb-to")).to_have_text(re.compile(re.escape(PASSED[lang])))
        expect(board.locator(".pb-card")).to_have_count(v["pass_count"])
        expect(board.locator(".kitty")).to_have_count(1 if v["kitty_size"] else 0)
        seen = page.evaluate(MEASURE)
        save_shot(page, f"big-table-{seats}-passed-{label}-{lang}")
        check_fits(seen, seats)
        check_pass(seen, v)
        assert [p["name"] for p in seen["places"]] == [f"place {card}" for card in v["passed"]]


# ------------------------------------------------------------------ a phone upright


def test_a_phone_upright_says_when_the_hand_is_further_down(open_page):
    page = open_page("/", viewport=PHONE_TALL, name="Anna-Sophie")
    names = start(page, "cancellation", 12)
    v = play_to(page)
    below = page.locator(".hand-below")

    # On a tall phone a table of twelve fits: nothing says the hand is further down (nor on a phone of 360x640).
    seen = page.evaluate(MEASURE)
    save_shot(page, "big-table-12-390x844")
    check_fits(seen, 12)
    check_trick(seen, v, names)
    expect(below).to_be_hidden()
    resize(page, {"width": 360, "height": 640})
    page.wait_for_function(AT_REST, polling="raf")
    seen = page.evaluate(MEASURE)
    check_fits(seen, 12)
    expect(below).to_be_hidden()

    # On the smallest phone it does not: a note at the foot of the screen says the hand is further down, in both
    # languages.
    resize(page, SMALL_PHONE)
    page.wait_for_function(AT_REST, polling="raf")
    seen = page.evaluate(MEASURE)
    assert seen["scroll"]["h"] > seen["viewport"]["h"], seen["scroll"]
    expect(below).to_be_visible()
    expect(below).to_have_text(WORDS["en"]["below"] + " ↓")
    expect(below).to_be_in_viewport()
    save_shot(page, "big-table-12-320x480-below")
    check_trick(seen, v, names, large=False)  # the smallest cards: the page scrolls rather than shrink them further
    page.click("#top [data-action=lang][data-lang=nl]")
    expect(below).to_have_text(WORDS["nl"]["below"] + " ↓")

    # A tap on it scrolls down to the hand, and the note goes; scrolled back up, it says so again.
    below.click()
    expect(below).to_be_hidden()
    for card in page.locator(".hand .card").all():
        expect(card).to_be_in_viewport()
    save_shot(page, "big-table-12-320x480-hand")
    page.evaluate("() => window.scrollTo(0, 0)")
    expect(below).to_be_visible()
