"""The layout on phones and tablets: a phone on its side and tablets show the hand, the trick and the three
opponents at once, without scrolling; a phone upright shows the hand number, "hearts are broken" and who is a
computer."""

from __future__ import annotations

import pytest

from .conftest import click_card, create_table, fill_and_start, hand_cards, play_one_legal

LANDSCAPE = {"844x390": {"width": 844, "height": 390}, "740x360": {"width": 740, "height": 360}}
TABLETS = {"768x1024": {"width": 768, "height": 1024}, "1024x768": {"width": 1024, "height": 768}}
PORTRAIT = {"360x640": {"width": 360, "height": 640}, "390x844": {"width": 390, "height": 844}}
LOCALES = ["en-GB", "nl-NL"]
LONG_NAME = "Anna-Sophie van den Berg"

# Boxes of what must be seen together, whether a tap on them reaches them, and the page's scroll size.
MEASURE = """() => {
    const vw = window.innerWidth, vh = window.innerHeight;
    const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
    // a card of the hand may lie partly under its right neighbour: its left strip must be reachable
    const reachable = (e, x, y) => e.contains(document.elementFromPoint(x, y));
    const card = (e) => { const r = e.getBoundingClientRect();
        return {name: e.dataset.card, ...box(e), reachable: reachable(e, r.left + 5, r.top + r.height / 2)}; };
    const whole = (e, name) => { const r = e.getBoundingClientRect();
        return {name, ...box(e), reachable: reachable(e, (r.left + r.right) / 2, (r.top + r.bottom) / 2)}; };
    const root = document.scrollingElement;
    return {
        viewport: {w: vw, h: vh},
        scroll: {w: root.scrollWidth, h: root.scrollHeight},
        hand: [...document.querySelectorAll('.hand .card')].map(card),
        // while cards are passed the middle shows the pass in place of the trick
        trick: whole(document.querySelector('.trick, .pass-board'), 'trick'),
        trickCards: [...document.querySelectorAll('.trick .card')].map((e) => whole(e, 'played ' + e.dataset.card)),
        opponents: [...document.querySelectorAll('.opp .player')].map((p) => whole(p, 'seat ' + p.dataset.seat)),
        me: whole(document.querySelector('.player.self'), 'me'),
        buttons: [...document.querySelectorAll('.status button')].map((b) => whole(b, b.textContent)),
        turn: whole(document.querySelector('.status .turn-line'), 'turn line'),
    };
}"""


def _inside(a: dict, viewport: dict) -> bool:
    across = a["x"] >= -0.5 and a["x"] + a["w"] <= viewport["w"] + 0.5
    return across and a["y"] >= -0.5 and a["y"] + a["h"] <= viewport["h"] + 0.5


def _overlap(a: dict, b: dict) -> bool:
    across = a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
    return across and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5


def check_all_in_view(seen: dict, cards: int) -> None:
    """The hand, the trick, the three opponents, me and the status fit the screen: no scrolling either way."""
    viewport = seen["viewport"]
    assert seen["scroll"]["h"] <= viewport["h"], ("scrolls vertically", seen["scroll"], viewport)
    assert seen["scroll"]["w"] <= viewport["w"], ("scrolls horizontally", seen["scroll"], viewport)
    assert len(seen["hand"]) == cards
    for card in seen["hand"]:
        assert _inside(card, viewport) and card["reachable"], card
        assert card["w"] >= 40 and card["h"] >= 56, card
    assert _inside(seen["trick"], viewport), seen["trick"]
    for card in seen["trickCards"]:
        assert _inside(card, viewport) and card["reachable"], card
    assert len(seen["opponents"]) == 3
    for panel in [*seen["opponents"], seen["me"]]:
        assert _inside(panel, viewport) and panel["reachable"], panel
        assert not _overlap(panel, seen["trick"]), (panel, seen["trick"])
        for card in seen["hand"]:
            assert not _overlap(panel, card), (panel, card)
    for thing in [*seen["buttons"], seen["turn"]]:
        assert _inside(thing, viewport) and thing["reachable"], thing


def _to_play(page, shot, label: str) -> None:
    """From a fresh page: a table with three computers, photographed and measured while passing and
    while a trick lies on the table."""
    create_table(page)
    fill_and_start(page)
    page.wait_for_selector("[data-action=pass]")
    for card in hand_cards(page)[:3]:
        click_card(page, card)
    seen = page.evaluate(MEASURE)
    shot(page, f"{label}-passing")
    check_all_in_view(seen, 13)
    page.click("[data-action=pass]")
    play_one_legal(page)
    page.wait_for_function("() => document.querySelectorAll('.trick .card').length > 0")
    page.wait_for_selector(".hand .card.legal")  # my turn again: the status shows its buttons
    page.wait_for_function(
        "() => [...document.querySelectorAll('.trick .card')].every(c => c.getAnimations().length === 0)", polling="raf"
    )
    seen = page.evaluate(MEASURE)
    shot(page, f"{label}-playing")
    check_all_in_view(seen, 12)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", list(LANDSCAPE))
def test_a_phone_on_its_side_shows_hand_trick_and_opponents_without_scrolling(open_page, shot, size, locale):
    page = open_page("/", viewport=LANDSCAPE[size], locale=locale, name=LONG_NAME)
    _to_play(page, shot, "table")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", list(PORTRAIT))
def test_a_phone_upright_shows_hand_trick_and_opponents_without_scrolling(open_page, shot, size, locale):
    page = open_page("/", viewport=PORTRAIT[size], locale=locale, name=LONG_NAME)
    _to_play(page, shot, "table")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", list(TABLETS))
def test_a_tablet_shows_hand_trick_and_opponents_without_scrolling(open_page, shot, size, locale):
    page = open_page("/", viewport=TABLETS[size], locale=locale, name=LONG_NAME)
    _to_play(page, shot, "table")


# What a phone upright must show during play, where it is, and whether it is really on screen.
INFO = """() => {
    const vh = window.innerHeight, vw = window.innerWidth;
    const shown = (e) => {
        if (!e) return null;
        const r = e.getBoundingClientRect();
        const style = getComputedStyle(e);
        const x = Math.min(Math.max(r.left + 2, 0), vw - 1), y = (r.top + r.bottom) / 2;
        return {text: e.textContent.trim(), x: r.x, y: r.y, w: r.width, h: r.height,
                visible: style.display !== 'none' && style.visibility !== 'hidden' && Number(style.opacity) > 0.5
                    && r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= vh && r.left >= 0 && r.right <= vw
                    && e.contains(document.elementFromPoint(x, y))};
    };
    const header = document.querySelector('#top').getBoundingClientRect();
    const first = Math.min(...[...document.querySelectorAll('.opp .player')].map((p) => p.getBoundingClientRect().top));
    return {
        handNo: shown(document.querySelector('.hand-no')),
        bots: [...document.querySelectorAll('.opp .player')].map((p) => shown(p.querySelector('.badge.computer'))),
        gapAboveTable: first - header.bottom,
        height: vh,
        scroll: document.scrollingElement.scrollHeight,
    };
}"""

# Hearts are broken: set on the view this page holds and drawn again (a resize asks for a redraw),
# as it would be after the first heart; the layout is what is tested here.
BREAK_HEARTS = """() => {
    window.hartenjagen.state.table.view.hearts_broken = true;
    window.dispatchEvent(new Event('resize'));
}"""

WORDS = {
    "en-GB": {"hand": "Hand 1", "broken": "Hearts are broken", "bot": "computer"},
    "nl-NL": {"hand": "Ronde 1", "broken": "De harten zijn gebroken", "bot": "computer"},
}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", list(PORTRAIT))
def test_a_phone_upright_shows_hand_number_hearts_broken_and_computer_players(open_page, shot, size, locale):
    page = open_page("/", viewport=PORTRAIT[size], locale=locale, name=LONG_NAME)
    words = WORDS[locale]
    create_table(page, passing="off")
    fill_and_start(page)
    play_one_legal(page)
    # the first trick is over and it is my turn again; the hand number shares its line with
    # "… takes the trick", which shows for a moment after each trick
    page.wait_for_function(
        "() => { const s = window.hartenjagen.state; return s.table.view.tricks.length >= 1"
        " && (!s.trickShow || Date.now() > s.trickShow.slideUntil)"
        " && !document.querySelector('.trick-caption') && document.querySelector('.hand .card.legal'); }"
    )
    page.evaluate(BREAK_HEARTS)
    page.wait_for_function("t => document.querySelector('.hand-no').textContent.includes(t)", arg=words["broken"])
    seen = page.evaluate(INFO)
    shot(page, "playing")

    assert seen["handNo"]["visible"], seen["handNo"]
    assert seen["handNo"]["text"].startswith(words["hand"]) and words["broken"] in seen["handNo"]["text"], seen
    assert len(seen["bots"]) == 3
    for badge in seen["bots"]:
        assert badge and badge["visible"] and words["bot"] in badge["text"], badge
    # The room above the table is used: the opponents start right under the top bar, not a third down.
    assert seen["gapAboveTable"] <= 0.08 * seen["height"], seen
    assert seen["scroll"] <= seen["height"], seen
