"""Tapping a card that may not be played shows why, in the player's language."""

from __future__ import annotations

from .conftest import PHONE, click_card, create_table, fill_and_start, play_one_legal, view

SUITS = {"en": ("club", "diamond", "spade", "heart"), "nl": ("klaveren", "ruiten", "schoppen", "harten")}
# What a person reads for the reasons a card in hand may have on your turn (no passing): the core sends the code and
# its parameters, the page says the sentence in the person's language.
SENTENCES = {
    "must_lead_first": ("The 2♣ must lead the first trick.", "De 2♣ moet uitkomen in de eerste slag."),
    "must_follow_suit": ("You must follow suit: play a {suit}.", "Je moet kleur bekennen: speel {suit}."),
    "hearts_not_broken": (
        "Hearts are not broken: you may not lead a heart yet.",
        "De harten zijn nog niet gebroken: je mag nog niet met harten uitkomen.",
    ),
    "no_points_first_trick": (
        "No points in the first trick: no point card unless you hold nothing else.",
        "Geen punten in de eerste slag: geen strafkaart, tenzij je niets anders hebt.",
    ),
}


def sentence(reason: dict, lang: str) -> str:
    """The sentence the page should show for ``reason`` (``{code, params}``) in ``lang``."""
    text = SENTENCES[reason["code"]][lang == "nl"]
    return text.format(suit=SUITS[lang][reason["params"]["suit"]]) if "suit" in reason["params"] else text


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
    reason = v["refusals"][card]
    assert set(reason) == {"code", "params"}  # a code and its parameters, no sentence
    assert sentence(reason, "en") in notice.inner_text()
    shot(page, "reason-en")
    # Nothing was played: the card is still in the hand and it is still my turn.
    assert card in view(page)["hand"]
    assert view(page)["turn"] == view(page)["seat"]

    # The same reason in Dutch after switching language.
    page.click("[data-action=lang][data-lang=nl]")
    click_card(page, card)
    page.wait_for_function(
        "t => document.querySelector('.status .notice.refusal').innerText.includes(t)", arg=sentence(reason, "nl")
    )
    shot(page, "reason-nl")
