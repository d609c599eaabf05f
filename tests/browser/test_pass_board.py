"""Passing in the middle of the table: on a phone held upright (390x844) the chosen cards lie in the middle of the
screen, in a place each, under the seat they go to with an arrow toward it, and what to do (the line, Pass, Hint) sits
right under them instead of at the bottom below an empty green middle; a tap on a chosen card there takes it back;
once passed the middle shows the cards given until everyone has passed. A phone on its side and a desktop show the
same pass in their middle, beside or over nothing else."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, create_table, hand_cards, no_horizontal_scroll, resize

TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
WORDS = {
    "en-GB": {"to": "To Bram (West)", "passed": "Passed to Bram (West)", "waiting": "Waiting for Bram to pass…"},
    "nl-NL": {
        "to": "Naar Bram (West)",
        "passed": "Doorgegeven aan Bram (West)",
        "waiting": "Wachten tot Bram heeft doorgegeven…",
    },
}

# Where the parts of the table lie on the screen (their boxes), to see what is in the middle and what overlaps.
BOXES = """() => {
    const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
        return {x: r.x, y: r.y, w: r.width, h: r.height, bottom: r.bottom, right: r.right}; };
    const all = (s) => [...document.querySelectorAll(s)].map(box);
    return {
        viewport: {w: window.innerWidth, h: window.innerHeight},
        scroll: document.scrollingElement.scrollHeight,
        board: box(document.querySelector('[data-area=center] .pass-board')),
        status: box(document.querySelector('[data-area=status]')),
        pass: box(document.querySelector('.status [data-action=pass]')),
        hand: all('.hand .card'),
        opponents: all('.opp .player'),
        me: box(document.querySelector('.player.self')),
    };
}"""


def _overlap(a: dict, b: dict) -> bool:
    across = a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
    return across and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5


def _inside(a: dict, viewport: dict) -> bool:
    across = a["x"] >= -0.5 and a["right"] <= viewport["w"] + 0.5
    return across and a["y"] >= -0.5 and a["bottom"] <= viewport["h"] + 0.5


def _check_apart(seen: dict) -> None:
    """The pass lies whole on the screen, over no opponent, no card of the hand, not over you or the status."""
    board = seen["board"]
    assert board and _inside(board, seen["viewport"]), board
    assert seen["scroll"] <= seen["viewport"]["h"], ("the page scrolls", seen["scroll"], seen["viewport"])
    for thing in [*seen["opponents"], *seen["hand"], seen["me"], seen["status"]]:
        assert not _overlap(board, thing), (board, thing)


def _table_of_two(open_page, locale: str) -> tuple[Page, Page]:
    """Anna (South, on a phone upright, in ``locale``) and Bram (West) at a table that passes to the left, with two
    computer players: Anna's cards go to Bram, and she waits for him once she has passed."""
    anna = open_page("/", viewport=TALL, locale=locale, name="Anna")
    code = create_table(anna, passing="left")
    bram = open_page("/", viewport=DESKTOP, name="Bram")
    bram.fill("#code", code)
    bram.click("form[data-form=join] button[type=submit]")
    bram.wait_for_selector(".lobby")
    anna.click("[data-action=fill_computers]")
    anna.click("[data-action=start]:not([disabled])")
    for page in (anna, bram):
        page.wait_for_selector(".hand .card")
    return anna, bram


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_a_phone_upright_passes_in_the_middle_of_the_table(open_page, shot, locale):
    words = WORDS[locale]
    anna, bram = _table_of_two(open_page, locale)
    board = anna.locator("[data-area=center] .pass-board")
    expect(board).to_be_visible()
    # where the cards go: Bram, to the left, with an arrow pointing left; three empty places
    expect(board.locator(".pb-to")).to_have_text(f"← {words['to']}")
    expect(board.locator(".pb-to")).to_have_attribute("data-toward", "left")
    expect(board.locator(".pb-places li")).to_have_count(3)
    expect(board.locator(".pb-empty")).to_have_count(3)

    cards = hand_cards(anna)[:4]
    for card in cards[:2]:
        anna.locator(f'.hand .card[data-card="{card}"]').click()
    expect(board.locator(".pb-card")).to_have_count(2)
    assert board.locator(".pb-places li[data-card]").evaluate_all("els => els.map(e => e.dataset.card)") == cards[:2]
    seen = anna.evaluate(BOXES)
    shot(anna, "two-chosen-390x844")

    # The pass and what to do with it lie in the middle of the screen, the spare height shared above and below them:
    # not a large empty middle with the line and the buttons pressed onto the hand.
    viewport, chosen = seen["viewport"], seen["board"]
    middle = (chosen["y"] + seen["status"]["bottom"]) / 2
    assert 0.35 * viewport["h"] <= middle <= 0.65 * viewport["h"], (chosen, seen["status"], viewport)
    assert chosen["h"] >= 150, chosen  # the places as large cards, not a line of text
    above = chosen["y"] - max(o["bottom"] for o in seen["opponents"])
    below = min(c["y"] for c in seen["hand"]) - seen["status"]["bottom"]
    assert above >= 40 and below >= 40 and abs(above - below) <= 60, (above, below)
    assert seen["pass"]["bottom"] < min(c["y"] for c in seen["hand"]), (seen["pass"], seen["hand"])
    _check_apart(seen)
    assert no_horizontal_scroll(anna)

    # a tap on a chosen card in the middle takes it back into the hand
    board.locator(f'.pb-card[data-card="{cards[0]}"]').click()
    expect(anna.locator(f'.hand .card[data-card="{cards[0]}"]')).not_to_have_class("selected")
    expect(board.locator(".pb-card")).to_have_count(1)
    for card in (cards[0], cards[2]):
        anna.locator(f'.hand .card[data-card="{card}"]').click()
    expect(board.locator(".pb-card")).to_have_count(3)
    expect(board.locator(".pb-empty")).to_have_count(0)
    expect(anna.locator(".status [data-action=pass]")).to_be_enabled()
    shot(anna, "three-chosen-390x844")

    # Once passed, the middle shows what went to Bram until he has passed too.
    anna.click(".status [data-action=pass]")
    expect(board.locator(".pb-to")).to_have_text(f"← {words['passed']}")
    expect(board.locator(".pb-card")).to_have_count(3)
    expect(board.locator("button.pb-card")).to_have_count(0)  # given: no taking back
    expect(anna.locator(".status .turn-line")).to_contain_text(words["waiting"])
    _check_apart(anna.evaluate(BOXES))
    shot(anna, "passed-waiting-390x844")

    # The same pass on Bram's desktop and on a phone on its side: whole, over nothing else.
    expect(bram.locator(".pass-board .pb-to")).to_have_text(re.compile(r"^← To \S+ \(North\)$"))  # West passes left
    bram_cards = hand_cards(bram)[:2]
    for card in bram_cards:
        bram.locator(f'.hand .card[data-card="{card}"]').click()
    _check_apart(bram.evaluate(BOXES))
    shot(bram, "two-chosen-1280x800")
    resize(bram, LANDSCAPE)
    _check_apart(bram.evaluate(BOXES))
    shot(bram, "two-chosen-844x390")
    bram.locator(f'.hand .card[data-card="{hand_cards(bram)[2]}"]').click()
    bram.click(".status [data-action=pass]")

    # Everyone has passed: the middle is the table's again, ready for the first trick.
    for page in (anna, bram):
        page.wait_for_function("() => window.hartenjagen.state.table.view.phase === 'playing'")
        expect(page.locator(".pass-board")).to_have_count(0)
        expect(page.locator("[data-area=center] .trick")).to_have_count(1)
