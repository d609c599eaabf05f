"""One player at a table of computer players: passing by clicking, a whole hand, the score table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, click_card, create_table, fill_and_start, hand_cards, play_one_legal, view


@pytest.mark.sound_on  # a whole hand with a player's default sound: its tones are made as the cards are played
def test_create_fill_pass_play_a_whole_hand_and_see_the_score_table(open_page, shot):
    page = open_page("/", name="Anna")
    code = create_table(page)
    assert len(code) >= 4
    shot(page, "waiting-room")
    fill_and_start(page)

    # Passing: three clicked cards, then the button that names the direction.
    assert view(page)["phase"] == "passing"
    button = page.locator("[data-action=pass]")
    assert button.is_disabled()
    assert "left" in button.inner_text()
    chosen = hand_cards(page)[-3:]
    for card in chosen:
        click_card(page, card)
    expect(page.locator(".hand .card.selected")).to_have_count(3)
    expect(button).to_be_enabled()
    shot(page, "three-chosen")
    button.click()

    # The received cards are highlighted for a moment; the passed ones are gone.
    page.wait_for_selector(".hand .card.received")
    received = view(page)["received"]
    assert sorted(page.eval_on_selector_all(".hand .card.received", "els => els.map(e => e.dataset.card)")) == sorted(
        received
    )
    assert not set(chosen) & set(hand_cards(page))
    shot(page, "received")

    # A whole hand by clicking cards that stand up; the finished tricks pile up in the view.
    played = [play_one_legal(page) for _ in range(13)]
    assert len(set(played)) == 13

    dialog = page.wait_for_selector(".dialog-scores")
    shot(page, "score-table")
    totals = [int(x) for x in page.eval_on_selector_all(".dialog-scores tfoot td", "els => els.map(e => e.innerText)")]
    assert len(totals) == 4
    assert sum(totals) in (26, 78)  # 26 points a hand, or a moon: 26 to each of three others
    assert "Anna" in dialog.inner_text()
    assert view(page)["history"][0]["totals"][0] == totals[0]  # own column first

    # Next hand: ready deals again (hand 2 passes to the right).
    page.click(".dialog-scores [data-action=ready]")
    page.wait_for_function("() => window.hartenjagen.state.table.view.hand_no === 1")
    expect(page.locator(".dialog-scores")).to_have_count(0)  # the score table closes when the next hand is dealt
    expect(page.locator("[data-action=pass]")).to_contain_text("right")


def test_keyboard_arrows_choose_and_enter_plays(open_page, shot):
    page = open_page("/", viewport=PHONE, name="Kees")
    create_table(page, passing="off")
    fill_and_start(page)
    page.wait_for_selector(".hand .card.legal")
    legal = view(page)["legal"]
    page.locator('.hand .card[tabindex="0"]').focus()
    # Walk with the arrow keys until a legal card has the focus, then press Enter.
    for _ in range(len(hand_cards(page))):
        focused = page.evaluate("() => document.activeElement.dataset.card")
        if focused in legal:
            break
        page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => document.activeElement.dataset.card")
    assert focused in legal
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert " of " in label  # e.g. "two of clubs"
    page.keyboard.press("Enter")
    page.wait_for_function("c => !window.hartenjagen.state.table.view.hand.includes(c)", arg=focused)
    shot(page, "after-keyboard-play")
