"""Tapping a card that may not be played shows why, in the player's language."""

from __future__ import annotations

from .conftest import PHONE, click_card, create_table, fill_and_start, play_one_legal, view


def _my_turn_with_a_dimmed_card(page) -> dict:
    for _ in range(13):
        page.wait_for_selector(".hand .card.legal")
        v = view(page)
        if page.locator(".hand .card.dimmed").count():
            return v
        play_one_legal(page)
    raise AssertionError("never had a dimmed card on my turn")


def test_tapping_a_dimmed_card_shows_the_reason(open_page, shot):
    page = open_page("/", viewport=PHONE, name="Anna")
    create_table(page, passing="off")
    fill_and_start(page)
    v = _my_turn_with_a_dimmed_card(page)
    card = page.locator(".hand .card.dimmed").first.get_attribute("data-card")
    assert card in v["refusals"] and card not in v["legal"]
    click_card(page, card)
    notice = page.wait_for_selector(".status .notice.refusal")
    assert v["refusals"][card]["en"] in notice.inner_text()
    shot(page, "reason-en")
    # Nothing was played: the card is still in the hand and it is still my turn.
    assert card in view(page)["hand"]
    assert view(page)["turn"] == view(page)["seat"]

    # The same reason in Dutch after switching language.
    page.click("[data-action=lang][data-lang=nl]")
    click_card(page, card)
    page.wait_for_function(
        "t => document.querySelector('.status .notice.refusal').innerText.includes(t)", arg=v["refusals"][card]["nl"]
    )
    shot(page, "reason-nl")
