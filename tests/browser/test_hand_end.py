"""The end of a hand: the last trick is seen and slides to its taker before the score table
opens; the score table closes by itself when the next hand is dealt; the last trick can be looked at
until then; the Dutch score table's headers fit."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, create_table, fill_and_start, play_one_legal, resize, view

# From the moment the view says the hand is over: was the finished trick drawn with its four cards
# and caption, and how long until the score table was drawn?
WATCH_HAND_END = """() => {
    const state = window.hartenjagen.state;
    const seen = window.handEnd = {over: null, trick: false, dialog: null, dialogWithTrick: false};
    const watch = () => {
        const v = state.table && state.table.view;
        const now = performance.now();
        if (v && v.phase === 'hand_over' && seen.over === null) seen.over = now;
        if (seen.over !== null) {
            const four = document.querySelectorAll('.trick .card').length === 4
                && document.querySelector('.trick-caption');
            const dialog = document.querySelector('.dialog-scores');
            if (four && !dialog) seen.trick = true;
            if (dialog && seen.dialog === null) { seen.dialog = now; seen.dialogWithTrick = Boolean(four); }
            if (seen.dialog !== null) return;
        }
        requestAnimationFrame(watch);
    };
    watch();
}"""

# Keep the finished last trick on the table (and the score table waiting) for a minute, to look at it.
FREEZE_HAND_END = """() => {
    const state = window.hartenjagen.state;
    const watch = () => {
        const v = state.table && state.table.view;
        if (v && v.phase === 'hand_over' && state.trickShow) {
            state.trickShow.until = Date.now() + 60_000;
            state.trickShow.slideUntil = state.trickShow.until + 450;
            state.scoresAt = state.trickShow.slideUntil;
            return;
        }
        requestAnimationFrame(watch);
    };
    watch();
}"""

RELEASE = """() => {
    const state = window.hartenjagen.state;
    state.trickShow.until = Date.now();
    state.trickShow.slideUntil = Date.now() + 450;
    state.scoresAt = state.trickShow.slideUntil;
    window.dispatchEvent(new Event('resize'));  // a redraw
}"""

MY_TURN_OR_DONE = """() => {
    const v = window.hartenjagen.state.table.view;
    return v.turn === v.seat || v.phase !== 'playing';
}"""

# Is the text of an element cut off (ellipsis or clipped)?
CLIPPED = "e => e.scrollWidth > e.clientWidth + 0.5"


def _play_the_hand(page) -> None:
    while view(page)["phase"] == "playing":
        play_one_legal(page)
        page.wait_for_function(MY_TURN_OR_DONE)


def _lang(page, lang: str) -> None:
    """Switch the language with the top bar's button (also while a dialog lies over it)."""
    page.evaluate("l => document.querySelector(`#top [data-action=lang][data-lang=${l}]`).click()", lang)
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)


def _check_score_headers(page, words: tuple[str, str]) -> None:
    dialog = page.locator(".dialog-scores")
    hand, total = dialog.locator("thead th").first, dialog.locator("tfoot th").first
    expect(hand).to_have_text(words[0])
    expect(total).to_have_text(words[1])
    for cell in (hand, total):
        assert not cell.evaluate(CLIPPED), cell.inner_text()


@pytest.mark.animations_normal  # the player's default times are measured
def test_the_last_trick_slides_to_its_taker_before_the_score_table_which_closes_on_the_next_deal(open_page, shot):
    page = open_page("/", name="Anna")
    create_table(page, passing="off")
    fill_and_start(page)

    # Hand 1: the thirteenth trick is drawn, then slides away; only then does the score table open.
    page.evaluate(WATCH_HAND_END)
    _play_the_hand(page)
    page.wait_for_selector(".dialog-scores")
    seen = page.evaluate("window.handEnd")
    assert seen["trick"], seen  # the last trick was on the table, without the score table over it
    assert not seen["dialogWithTrick"], seen
    assert seen["dialog"] - seen["over"] >= 1_200, seen  # hold 900 ms + slide 450 ms
    assert len(view(page)["tricks"]) == 13

    # The score table's "Next hand" has the focus; the last trick is still there to look at.
    expect(page.locator(".dialog-scores [data-action=ready]")).to_be_focused()
    page.click(".dialog-scores [data-action=open][data-overlay=last_trick]")
    last = view(page)["tricks"][-1]
    expect(page.locator(".dialog-last_trick .lt-card")).to_have_count(4)
    shown = page.locator(".dialog-last_trick .lt-card .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert shown == [c["card"] for c in last["cards"]]
    shot(page, "last-trick-after-the-hand")
    page.keyboard.press("Escape")
    expect(page.locator(".dialog")).to_have_count(0)
    expect(page.locator(".status [data-action=open][data-overlay=last_trick]")).to_be_visible()  # and from the table

    # Next hand: the score table closes by itself when the next hand is dealt, and the hand has the focus.
    page.click(".status [data-action=open][data-overlay=scores]")
    page.locator(".dialog-scores [data-action=ready]").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.hartenjagen.state.table.view.hand_no === 1")
    expect(page.locator(".dialog")).to_have_count(0)
    expect(page.locator(".hand .card").first).to_be_visible()
    assert page.evaluate("() => document.activeElement.matches('.hand .card')")
    shot(page, "next-hand-dealt")

    # Hand 2: hold the last trick to look at it, on a desktop and a phone, in English and in Dutch.
    page.evaluate(FREEZE_HAND_END)
    _play_the_hand(page)
    expect(page.locator(".trick .card")).to_have_count(4)
    caption = page.locator(".trick-caption")
    winner = view(page)["tricks"][-1]["winner"]
    mine = winner == view(page)["seat"]
    expect(caption).to_have_text("You take the trick" if mine else f"{_name(page, winner)} takes the trick")
    expect(page.locator(".dialog")).to_have_count(0)
    shot(page, "last-trick-desktop-en")
    _lang(page, "nl")
    expect(caption).to_have_text("Jij neemt de slag" if mine else f"{_name(page, winner)} pakt de slag")
    shot(page, "last-trick-desktop-nl")
    resize(page, PHONE)
    shot(page, "last-trick-phone-nl")
    _lang(page, "en")
    shot(page, "last-trick-phone-en")

    # Let it go: the score table follows; its headers fit in both languages on both screens.
    page.evaluate(RELEASE)
    page.wait_for_selector(".dialog-scores")
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        resize(page, size)
        _lang(page, "nl")
        _check_score_headers(page, ("Ronde", "Totaal"))
        shot(page, f"scores-{label}-nl")
        _lang(page, "en")
        _check_score_headers(page, ("Hand", "Total"))
        shot(page, f"scores-{label}-en")


def _name(page, seat: int) -> str:
    return page.evaluate("s => window.hartenjagen.state.table.seats[s].name", seat)
