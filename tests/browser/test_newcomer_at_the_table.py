"""A newcomer at the table: a phone page closed and opened again mid-hand shows no keyboard cues until a key is
pressed; the site's name stays in the top bar on a phone; the rules open at this table's own game with its own
settings (the rest one tap away); every card of the trick says who played it, at four, five and eight seats, also
while "… takes the trick" shows; and between hands the person the others wait for is told so, with Next hand in
reach under the table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import (
    DESKTOP,
    create_table,
    fill_and_start,
    no_horizontal_scroll,
    play_one_legal,
    play_pages,
    resize,
    view,
)
from .test_layout_screens_chat_and_focus import HOLD_THE_FINISHED_TRICK

TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
KEYS_PLAY = "Keys: ← → move between cards, Enter plays one; Tab goes on to the buttons."

# The look of the element with the focus: whether it is a card of the hand, its outline and shadows.
FOCUSED = """() => { const e = document.activeElement; const s = getComputedStyle(e);
    return {card: e.matches('.hand .card'), visible: e.matches(':focus-visible'), outline: s.outlineStyle,
            shadow: s.boxShadow}; }"""
FOCUS_YELLOW = "rgb(255, 225, 77)"  # --focus-light: the outer ring of the keyboard's focus


def my_turn_after_a_trick(page: Page) -> None:
    """Play the first card that stands up until it is my turn again with a trick already taken."""
    for _ in range(13):
        page.wait_for_function(
            "() => { const s = window.hartenjagen.state; const v = s.table.view;"
            " return v.phase === 'playing' && v.turn === v.seat && !s.inFlight; }"
        )
        if view(page)["tricks"]:
            return
        play_one_legal(page)
    raise AssertionError("no turn after the first trick")


def test_a_phone_page_opened_again_mid_hand_shows_no_keyboard_cues_until_a_key_is_pressed(open_page, shot):
    page = open_page("/", viewport=TALL, name="Anna", touch=True)
    create_table(page, passing="off")
    page.tap("[data-action=fill_computers]")
    page.tap("[data-action=start]:not([disabled])")
    page.wait_for_selector(".hand .card")
    my_turn_after_a_trick(page)

    # The page is closed and opened again mid-hand: back at the table, the first card that may be played has the
    # focus (for a keyboard), but nothing on screen says so: no ring like a chosen card's, no keys in the status.
    page.reload()
    page.wait_for_selector(".hand .card.legal")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('.hand .card')")
    focused = page.evaluate(FOCUSED)
    assert focused["card"] and focused["outline"] == "none" and FOCUS_YELLOW not in focused["shadow"], focused
    expect(page.locator(".status .key-hint")).to_have_count(0)
    expect(page.locator(".status")).not_to_contain_text("Keys:")
    expect(page.locator(".status .turn-line")).to_contain_text("Your turn")
    # the site's name stays in the top bar, small, on one line with the buttons
    expect(page.locator("#top .brand")).to_have_text("♥ Hartenjagen")
    expect(page.locator("#top .brand")).to_be_in_viewport(ratio=1)
    assert page.locator("#top").bounding_box()["height"] < 45
    assert no_horizontal_scroll(page)
    shot(page, "reopened-390x844")

    # A keyboard: the first key brings the ring and the keys' words.
    page.keyboard.press("ArrowRight")
    focused = page.evaluate(FOCUSED)
    assert focused["card"] and focused["outline"] == "solid" and FOCUS_YELLOW in focused["shadow"], focused
    expect(page.locator(".status .key-hint")).to_have_text(KEYS_PLAY)
    shot(page, "after-a-key-390x844")
    # A tap again: the ring goes (the keys once said stay said for this hand's turns)
    page.tap(".status [data-action=open][data-overlay=scores]")
    page.keyboard.press("Escape")
    page.tap("#top .brand")
    focused = page.evaluate(FOCUSED)
    assert not focused["card"] or focused["outline"] == "none", focused


def test_the_rules_at_a_table_open_at_its_own_game_with_its_own_settings(open_page, shot):
    anna = open_page("/", viewport=DESKTOP, name="Anna")
    anna.fill("#opt-classic-end_score", "25")
    anna.check("#opt-classic-gentleman_3")
    code = create_table(anna, passing="left")
    bram = open_page("/", viewport=TALL, locale="nl-NL", name="Bram")
    bram.fill("#code", code)
    bram.click("form[data-form=join] button[type=submit]")
    bram.wait_for_selector(".lobby")
    fill_and_start(anna)
    bram.wait_for_selector(".hand .card")

    anna.click("#top [data-action=open][data-overlay=rules]")
    dialog = anna.locator(".dialog-rules")
    here = dialog.locator(".rules-here")
    expect(here.locator("h3")).to_have_text("At this table: Classic Hearts (52 cards), game ends at 25 points")
    expect(here.locator("li")).to_have_text(
        [
            "The game ends when, at the end of a hand, someone has 25 points or more.",
            "Passing: always left.",
            "Toppers: win while two or three others reach 25 (double or triple game), or win with 0 points (nil game).",
            "Gentleman's rule 3: Q♠ goes at the first safe chance: on.",
            "Every other rule as usual for this game.",
        ]
    )
    expect(dialog.locator(".rules-toc")).to_have_count(0)  # no contents list of 25 sections first
    classic = dialog.locator("details#rules-classic")
    expect(classic).to_have_attribute("open", "")
    expect(classic).to_contain_text("someone has 25 or more")
    expect(classic).not_to_contain_text("100 or more")
    expect(dialog.locator("details.rules-section")).to_have_count(1)
    shot(anna, "rules-here-1280x800")

    # The rest is one tap away: every game and option, this table's game still in its own numbers.
    dialog.locator("[data-action=rules_all]").click()
    expect(dialog.locator(".rules-toc")).to_be_visible()
    expect(dialog.locator("details#rules-belgian")).to_contain_text("someone has 100 or more")
    expect(dialog.locator("details#rules-classic")).to_contain_text("someone has 25 or more")
    anna.keyboard.press("Escape")

    # Bram's phone, in Dutch: the table's own game in the first screen of the dialog.
    bram.click("#top [data-action=open][data-overlay=rules]")
    here = bram.locator(".dialog-rules .rules-here")
    expect(here.locator("h3")).to_have_text("Aan deze tafel: Klassiek (52 kaarten), het spel eindigt bij 25 punten")
    expect(here.locator("li").first).to_have_text(
        "Het spel eindigt als iemand aan het eind van een ronde 25 punten of meer heeft."
    )
    expect(here).to_be_in_viewport(ratio=1)
    expect(bram.locator("details#rules-classic")).to_contain_text("25 punten of meer")
    shot(bram, "rules-here-390x844-nl")
    resize(bram, LANDSCAPE)
    expect(here.locator("h3")).to_be_in_viewport()
    shot(bram, "rules-here-844x390-nl")


def to_a_finished_trick(page: Page) -> None:
    """Play the first card that stands up until a trick is finished, and keep it on the table with its caption."""
    page.evaluate(HOLD_THE_FINISHED_TRICK)
    for _ in range(30):
        if page.locator(".trick-caption").count():
            return
        page.wait_for_function(
            "() => document.querySelector('.trick-caption') || (() => { const s = window.hartenjagen.state;"
            " const v = s.table.view; return v.phase === 'playing' && v.turn === v.seat && !s.inFlight; })()"
        )
        if page.locator(".trick-caption").count():
            return
        play_one_legal(page)
    raise AssertionError("no trick was finished")


NAMES_ON_TRICK = """() => [...document.querySelectorAll('.trick .slot')].map((slot) => {
    const label = slot.querySelector('.played-name, .played-by');
    const card = slot.querySelector('.card').getBoundingClientRect();
    const r = label && label.getBoundingClientRect();
    const s = label && getComputedStyle(label);
    return {seat: Number(slot.dataset.seat), name: label ? label.textContent : null,
            shown: Boolean(label) && r.width > 4 && s.visibility !== 'hidden' && Number(s.opacity) > 0.5,
            near: Boolean(r) && r.top < card.bottom + 24 && r.bottom > card.top};
})"""


@pytest.mark.parametrize(
    ("variant", "viewport"),
    [
        pytest.param("classic", TALL, id="4-seats-390x844"),
        pytest.param("five", LANDSCAPE, id="5-seats-844x390"),
        pytest.param("extreme", LANDSCAPE, id="8-seats-844x390"),
        pytest.param("extreme", DESKTOP, id="8-seats-1280x800"),
    ],
)
def test_every_card_of_the_trick_says_who_played_it_also_while_its_taker_is_named(open_page, shot, variant, viewport):
    page = open_page("/", viewport=viewport, name="Anna")
    create_table(page, passing="off", variant=variant)
    fill_and_start(page)
    to_a_finished_trick(page)
    caption = page.locator(".trick-caption")
    expect(caption).to_have_text(re.compile(r" takes the trick$|^You take the trick"))
    table = page.evaluate("() => window.hartenjagen.state.table")
    names = {s["seat"]: s["name"] for s in table["seats"]}
    names[table["you"]] = "You"
    seen = page.evaluate(NAMES_ON_TRICK)
    assert len(seen) == len(table["seats"]), seen
    for card in seen:
        assert card["name"] == names[card["seat"]] and card["shown"] and card["near"], (card, names)
    assert no_horizontal_scroll(page)
    shot(page, "finished-trick")


def test_between_hands_the_person_the_others_wait_for_is_told_so(open_page, shot):
    anna = open_page("/", viewport=DESKTOP, name="Anna")
    anna.fill("#opt-classic-end_score", "200")
    code = create_table(anna, passing="off")
    bram = open_page("/", viewport=TALL, locale="nl-NL", name="Bram")
    carla = open_page("/", viewport=LANDSCAPE, locale="nl-NL", name="Carla")
    for page in (bram, carla):
        page.fill("#code", code)
        page.click("form[data-form=join] button[type=submit]")
        page.wait_for_selector(".lobby")
    fill_and_start(anna)
    pages = [anna, bram, carla]
    play_pages(pages, stop=lambda: all(view(p)["phase"] == "hand_over" for p in pages), moves=("play",))
    for page in pages:
        page.wait_for_selector(".dialog-scores [data-action=ready]")

    # Bram presses Next hand: Anna and Carla, who have not, are told that he waits for them.
    bram.click(".dialog-scores [data-action=ready]")
    expect(bram.locator(".dialog-scores [role=status]")).to_have_text("Wachten op Anna en Carla…")
    expect(anna.locator(".dialog-scores .waited-by")).to_have_text("Bram is waiting for you: press Next hand.")
    expect(carla.locator(".dialog-scores .waited-by")).to_have_text("Bram wacht op jou: druk op Volgende ronde.")
    shot(anna, "waited-by-dialog-1280x800")
    shot(carla, "waited-by-dialog-844x390-nl")

    # Anna closed the score table: the line under the table says it, with Next hand right there.
    anna.keyboard.press("Escape")
    expect(anna.locator(".status .turn-line")).to_contain_text("Bram is waiting for you: press Next hand.")
    expect(anna.locator(".status .primary[data-action=ready]")).to_have_text("Next hand")
    shot(anna, "waited-by-status-1280x800")

    # Carla presses too: now two wait for Anna, who presses Next hand under the table and the next hand is dealt.
    carla.click(".dialog-scores [data-action=ready]")
    expect(anna.locator(".status .turn-line")).to_contain_text("Bram and Carla are waiting for you: press Next hand.")
    carla.keyboard.press("Escape")
    expect(carla.locator(".status .turn-line")).to_contain_text("Wachten op Anna…")
    assert no_horizontal_scroll(carla)
    shot(carla, "waiting-for-anna-844x390-nl")
    anna.click(".status [data-action=ready]")
    for page in pages:
        page.wait_for_function("() => window.hartenjagen.state.table.view.hand_no === 1")
    expect(anna.locator(".status [data-action=ready]")).to_have_count(0)
