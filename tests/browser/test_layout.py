"""The table's layout: trick cards, the trick caption and the seat panels never cover one another."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, create_table, fill_and_start, no_horizontal_scroll, play_one_legal, view

SIZES = {"phone": PHONE, "tall-phone": {"width": 390, "height": 844}, "desktop": DESKTOP}

# As soon as a finished trick is shown with its caption, keep it on the table (the client holds it
# for less than a second) so that it can be measured and photographed at rest, and credit it to
# the left opponent under the player's long name (shared, so the caption adds the seat), so that the
# caption is as long as captions get (your own tricks say "You take the trick"). The redraw the
# client had planned for the end of the hold draws that caption.
HOLD_THE_FINISHED_TRICK = """() => {
    const state = window.hartenjagen.state;
    const watch = () => {
        if (state.trickShow && document.querySelector('.trick-caption')) {
            const left = (state.table.you + 1) % 4;
            const seats = [...state.table.seats];
            seats[left] = {...seats[left], name: seats[state.table.you].name};
            state.table = {...state.table, seats};
            state.trickShow.until = Date.now() + 60_000;
            state.trickShow.slideUntil = state.trickShow.until + 1_000;
            state.trickShow.trick = {...state.trickShow.trick, winner: left};
            return;
        }
        requestAnimationFrame(watch);
    };
    watch();
}"""

AT_REST = """() => {
    const cards = [...document.querySelectorAll('.trick .card')];
    const caption = document.querySelector('.trick-caption');
    return cards.length === 4 && caption !== null && caption.textContent.startsWith('Anna-Sophie van den Berg')
        && cards.every(c => c.getAnimations().length === 0);
}"""

# Boxes of everything that must stay visible, and whether the element itself is what a tap at
# its corners and centre reaches (so nothing lies on top of it and nothing clips it).
MEASURE = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
    const uncovered = (e) => {
        const r = e.getBoundingClientRect();
        const i = 4;
        const points = [[r.left + i, r.top + i], [r.right - i, r.top + i], [r.left + i, r.bottom - i],
                        [r.right - i, r.bottom - i], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
        return points.every(([x, y]) => e.contains(document.elementFromPoint(x, y)));
    };
    const describe = (e, name) => ({name, ...box(e), uncovered: uncovered(e)});
    return {
        viewport: {w: window.innerWidth, h: window.innerHeight},
        cards: [...document.querySelectorAll('.trick .slot')].map(s =>
            describe(s.querySelector('.card'), s.className + ' ' + s.querySelector('.card').dataset.card)),
        caption: describe(document.querySelector('.trick-caption'), 'caption'),
        opponents: [...document.querySelectorAll('.opp .player')].map(p => describe(p, 'seat ' + p.dataset.seat)),
        me: describe(document.querySelector('.player.self'), 'me'),
    };
}"""


def _overlap(a: dict, b: dict) -> bool:
    across = a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
    return across and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def _inside(a: dict, viewport: dict) -> bool:
    return a["x"] >= 0 and a["y"] >= 0 and a["x"] + a["w"] <= viewport["w"] and a["y"] + a["h"] <= viewport["h"]


@pytest.mark.parametrize("size", list(SIZES))
def test_trick_cards_caption_and_seat_panels_do_not_cover_each_other(open_page, shot, size):
    # Dutch and a long name give the longest caption and panels; passing leaves the
    # "received from" line in the status, the tallest status there is while playing.
    page = open_page("/", viewport=SIZES[size], locale="nl-NL", name="Anna-Sophie van den Berg")
    create_table(page)
    fill_and_start(page)
    for card in page.eval_on_selector_all(".hand .card", "els => els.slice(0, 3).map(e => e.dataset.card)"):
        page.locator(f'.hand .card[data-card="{card}"]').click()
    page.click("[data-action=pass]")
    page.evaluate(HOLD_THE_FINISHED_TRICK)
    play_one_legal(page)
    page.wait_for_function(AT_REST, polling="raf")
    seen = page.evaluate(MEASURE)
    shot(page, "trick")

    viewport, cards, caption = seen["viewport"], seen["cards"], seen["caption"]
    opponents = seen["opponents"]
    panels = [*opponents, seen["me"]]
    assert no_horizontal_scroll(page)
    assert len(cards) == 4
    for card in cards:
        assert card["w"] >= 44 and card["h"] >= 60, card
        assert _inside(card, viewport), card
        assert card["uncovered"], card
        assert not _overlap(card, caption), (card, caption)
        for panel in panels:
            assert not _overlap(card, panel), (card, panel)
        for other in cards:
            assert other is card or not _overlap(card, other), (card, other)
    assert _inside(caption, viewport) and caption["uncovered"], caption
    for panel in panels:
        assert not _overlap(caption, panel), (caption, panel)
    for panel in opponents:
        assert _inside(panel, viewport) and panel["uncovered"], panel


# My turn, with the cards the others played before me at rest in the trick: "follow";
# my turn to lead (an empty trick): "lead"; anything else: not yet.
MY_TURN = """() => {
    if (!document.querySelector('.hand .card.legal') || document.querySelector('.trick-caption')) return false;
    const cards = [...document.querySelectorAll('.trick .card')];
    if (!cards.length) return 'lead';
    return cards.every(c => c.getAnimations().length === 0) && 'follow';
}"""

# The first frame after the trick was drawn again: how many animations run on its cards.
REDRAWN = """(before) => {
    const trick = document.querySelector('.trick');
    if (trick.getAttribute('aria-label') === before) return false;
    return {running: [...trick.querySelectorAll('.card')].reduce((n, c) => n + c.getAnimations().length, 0)};
}"""


def test_a_redraw_does_not_slide_the_last_played_card_in_again(open_page):
    # A card slides in from the seat that played it, partly under that seat's panel; a redraw of the
    # table (here a language switch) must not start that again, or the card is half hidden for a moment.
    page = open_page("/", viewport=PHONE, name="Anna")
    create_table(page, passing="off")
    fill_and_start(page)
    for _ in range(13):
        if page.wait_for_function(MY_TURN, polling="raf").json_value() == "follow":
            break
        play_one_legal(page)
    else:
        raise AssertionError("never followed to a trick")
    assert view(page)["trick"]["cards"]
    before = page.get_attribute(".trick", "aria-label")
    page.click("[data-action=lang][data-lang=nl]")
    assert page.wait_for_function(REDRAWN, arg=before, polling="raf").json_value() == {"running": 0}
