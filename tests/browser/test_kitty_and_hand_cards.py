"""The kitty and the end of a hand, as a player meets them: the kitty is named where it lies, with who takes it and
when (the variant's own rule, from the server's rules data), and at a hand's end the score table shows the point
cards each player took (the kitty's marked) and what the kitty held and who took it; at three seats with a kitty,
five with two kitty cards and the classic four, on a phone upright (390x844), on its side (844x390) and a desktop,
in English and Dutch."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from hartenjagen.shared.rules import KITTY_RULES

from .conftest import (
    DESKTOP,
    create_table,
    fill_and_start,
    no_horizontal_scroll,
    play_one_legal,
    play_until_game_over,
    resize,
    view,
)
from .test_hand_end import _lang
from .test_offline import BOOT_MS
from .test_seat_counts import create_and_start, first_hand_scored, seat_names

pytestmark = pytest.mark.animations_off  # whole hands are played; what animations do is tested elsewhere

PHONE_TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
SIZES = (("phone", PHONE_TALL), ("side", LANDSCAPE), ("desktop", DESKTOP))

RULE_WORDS = {
    "en": {
        "first_trick": "the kitty goes to the winner of the first trick",
        "first_points": "the kitty goes to the first to take a trick with a point card",
        "first_two": "the kitty: one card to the winner of trick 1, one to the winner of trick 2",
        "first_two_next": "the other kitty card goes to the winner of trick 2",
    },
    "nl": {
        "first_trick": "de kitty gaat naar de winnaar van de eerste slag",
        "first_points": "de kitty gaat naar wie als eerste een slag met een strafkaart pakt",
        "first_two": "de kitty: één kaart voor de winnaar van slag 1, één voor de winnaar van slag 2",
        "first_two_next": "de andere kaart van de kitty gaat naar de winnaar van slag 2",
    },
}
HELD = {"en": "The kitty held: ", "nl": "In de kitty zat: "}
TITLE = {"en": "Point cards, hand {n}", "nl": "Strafkaarten, ronde {n}"}
NONE = {"en": "none", "nl": "geen"}
YOU = {"en": "you", "nl": "jij"}

# The words of each kitty rule in the page's language.
RULE_TEXTS = (
    "async (rules) => { const m = await import('/js/i18n.js'); return rules.map((r) => m.t(`kitty_rule_${r}`)); }"
)

# The kitty where it lies: its label's box, whether a tap at the label's middle reaches it (nothing lies over it), and
# the boxes of every seat's panel and of the hand.
MEASURE_KITTY = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
    const label = document.querySelector('[data-area=center] .kitty .kitty-label');
    const r = label.getBoundingClientRect();
    return {
        viewport: {w: window.innerWidth, h: window.innerHeight},
        label: box(label),
        reachable: label.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)),
        panels: [...document.querySelectorAll('.player, .hand-area')].map(box),
        caption: (() => { const c = document.querySelector('.hand-no'); return c.scrollWidth <= c.clientWidth + 1; })(),
    };
}"""

# The score table's point cards: per cell its seat, its cards, whether each card lies inside its cell, and how far
# the cell's middle lies from the middle of its seat's column in the score table above.
MEASURE_CARDS = """() => {
    const heads = [...document.querySelectorAll('.dialog-scores table.scores thead th')].slice(1);
    return [...document.querySelectorAll('.dialog-scores li.point-cards')].map((cell, i) => {
        const box = cell.getBoundingClientRect();
        const head = heads[i].getBoundingClientRect();
        const chips = [...cell.querySelectorAll('.card-chip')];
        return {
            seat: Number(cell.dataset.seat),
            cards: chips.map((c) => c.dataset.card),
            kitty: chips.filter((c) => c.classList.contains('from-kitty')).map((c) => c.dataset.card),
            inside: chips.every((c) => { const r = c.getBoundingClientRect();
                return r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.width > 0; }),
            offset: Math.abs((box.left + box.right) / 2 - (head.left + head.right) / 2),
            none: (cell.querySelector('.muted') || {}).textContent || null,
        };
    });
}"""


def _overlap(a: dict, b: dict) -> bool:
    across = a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
    return across and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5


def check_kitty_lies_named(page: Page, lang: str, rule: str, lying: int) -> None:
    """The kitty's cards lie face down with the word "Kitty" on them, in view and under nothing; the line under the
    trick says who takes them, in the page's language."""
    kitty = page.locator("[data-area=center] .kitty")
    expect(kitty.locator(".card.back")).to_have_count(lying)
    expect(kitty.locator(".kitty-label")).to_have_text("Kitty")
    expect(page.locator(".hand-no .kitty-rule")).to_have_text(RULE_WORDS[lang][rule])
    assert RULE_WORDS[lang][rule] in (kitty.get_attribute("aria-label") or "")
    seen = page.evaluate(MEASURE_KITTY)
    label, viewport = seen["label"], seen["viewport"]
    assert label["x"] >= 0 and label["y"] >= 0, label
    assert label["x"] + label["w"] <= viewport["w"] and label["y"] + label["h"] <= viewport["h"], (label, viewport)
    assert seen["reachable"], "something lies over the kitty's label"
    for panel in seen["panels"]:
        assert not _overlap(label, panel), (label, panel)
    assert no_horizontal_scroll(page)


def check_hand_cards(page: Page, lang: str, names: list[str]) -> None:
    """The score table of the hand just over: under its row each seat's point cards, as the server listed them, in
    the seat's own column and inside it; the kitty's point cards marked in its taker's column; under the table what
    the kitty held and who took each card; the page never scrolls sideways."""
    v = view(page)
    dialog = page.locator(".dialog-scores")
    n = len(v["history"])
    expect(dialog.locator(".hand-cards-title")).to_have_text(TITLE[lang].format(n=n))
    expect(dialog.locator("table.scores tbody tr")).to_have_count(n)  # the score table keeps a row per hand
    cells = page.evaluate(MEASURE_CARDS)
    order = [(v["seat"] + k) % v["seats"] for k in range(v["seats"])]
    assert [c["seat"] for c in cells] == order  # mine first, then in play order: the columns of the names above
    points = v["scoring"]["card_points"]
    for cell in cells:
        seat = cell["seat"]
        cards = v["point_cards"][seat]
        assert sorted(cell["cards"]) == sorted(cards), (seat, cell, cards)
        assert cell["inside"] and cell["offset"] <= 2, cell  # in its seat's column, under the seat's name
        assert cell["none"] == (None if cards else NONE[lang]), cell
        # the cards are every card that scored for the seat: their points are the points it took
        assert sum(points.get(c, 0) for c in cards) == v["history"][-1]["points"][seat], (seat, cards)
        kitty = [c for c, taker in zip(v["kitty_cards"] or [], v["kitty_takers"] or [], strict=True) if taker == seat]
        assert sorted(cell["kitty"]) == sorted(c for c in kitty if c in points), (seat, cell, kitty)
    held = dialog.locator(".kitty-held")
    if v["kitty_cards"]:
        expect(held).to_have_attribute("data-kitty-cards", " ".join(v["kitty_cards"]))
        expect(held).to_contain_text(HELD[lang])
        for taker in v["kitty_takers"]:
            expect(held).to_contain_text(f"→ {YOU[lang] if taker == v['seat'] else names[taker]}")
        expect(held.locator(".card-chip")).to_have_count(len(v["kitty_cards"]))
    else:
        expect(held).to_have_count(0)
    assert dialog.locator(".table-wrap").evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert no_horizontal_scroll(page)


def every_size_and_language(page: Page, shot, label: str, check) -> None:
    """Run ``check(lang)`` on the phone upright, on its side and the desktop, in English and Dutch, with a shot each."""
    for size_name, size in SIZES:
        resize(page, size)
        for lang in ("en", "nl"):
            _lang(page, lang)
            check(lang)
            shot(page, f"{label}-{size_name}-{lang}")
    _lang(page, "en")


def play_first_trick(page: Page) -> None:
    """Play my card of the first trick (one each), then wait for the trick to end and my turn in the second (it
    cannot end without me)."""
    assert not view(page)["tricks"]
    play_one_legal(page)
    page.wait_for_function(
        "() => { const v = window.hartenjagen.state.table.view; return v.tricks.length === 1 && v.turn === v.seat; }"
    )


def test_three_seats_the_kitty_says_who_takes_it_and_the_hands_end_shows_what_it_held(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    create_and_start(page, "three_kitty", {"end_score": "100", "kitty": "first_points"})  # one hand cannot end it
    names = seat_names(page)
    assert view(page)["scoring"]["kitty_rule"] == "first_points" and view(page)["phase"] == "passing"
    # every rule the core knows has its words in both languages
    for lang in ("en", "nl"):
        _lang(page, lang)
        words = page.evaluate(RULE_TEXTS, list(KITTY_RULES))
        assert words == [RULE_WORDS[lang][r] for r in KITTY_RULES]

    # While passing: one card face down in the middle, named, and who takes it.
    every_size_and_language(page, shot, "passing", lambda lang: check_kitty_lies_named(page, lang, "first_points", 1))
    resize(page, PHONE_TALL)

    # The hand is played; no one has seen the kitty's card until the hand is over.
    first = play_until_game_over(page, hands=1, stop=first_hand_scored)
    assert first["kitty_cards"] and len(first["kitty_cards"]) == 1 and first["kitty_takers"][0] >= 0
    page.wait_for_selector(".dialog-scores")
    expect(page.locator("[data-area=center] .kitty")).to_have_count(0)
    every_size_and_language(page, shot, "hand-end", lambda lang: check_hand_cards(page, lang, names))

    # The next hand: the new kitty lies face down again, and the score table shows no cards of a hand being played.
    resize(page, PHONE_TALL)
    page.locator(".dialog-scores [data-action=ready]").click()
    page.wait_for_function("() => window.hartenjagen.state.table.view.hand_no === 1")
    assert view(page)["point_cards"] is None and view(page)["kitty_cards"] is None
    check_kitty_lies_named(page, "en", "first_points", 1)
    page.click(".status [data-action=open][data-overlay=scores]")
    expect(page.locator(".dialog-scores table.scores tbody tr")).to_have_count(1)  # hand 1's row alone
    expect(page.locator(".dialog-scores .hand-cards, .dialog-scores .kitty-held")).to_have_count(0)


def test_five_seats_two_kitty_cards_go_one_each_to_the_first_two_tricks_and_lie_open_at_the_end(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    create_and_start(page, "five_kitty", {"end_score": "25", "kitty": "first_two", "passing": "off"})
    names = seat_names(page)
    v = view(page)
    assert v["scoring"]["kitty_rule"] == "first_two" and v["kitty_takers"] == [-1, -1]

    # Before the first trick: two cards, one for each of the first two tricks' winners.
    every_size_and_language(page, shot, "two-lying", lambda lang: check_kitty_lies_named(page, lang, "first_two", 2))
    resize(page, PHONE_TALL)

    # After the first trick: its winner took one; the other still lies there, for the winner of the second.
    play_first_trick(page)
    v = view(page)
    first_winner = v["tricks"][0]["winner"]
    assert v["kitty_takers"] == [first_winner, -1]
    taker = "you" if first_winner == v["seat"] else names[first_winner]
    expect(page.locator(".hand-no .kitty-note")).to_have_text(f"kitty: {taker}")
    one_lying = lambda lang: check_kitty_lies_named(page, lang, "first_two_next", 1)  # noqa: E731
    every_size_and_language(page, shot, "one-lying", one_lying)
    resize(page, PHONE_TALL)

    # The end of the hand: both cards open, each beside the winner of its trick.
    first = play_until_game_over(page, hands=1, stop=first_hand_scored)
    assert first["kitty_takers"] == [first["tricks"][0]["winner"], first["tricks"][1]["winner"]]
    page.wait_for_selector(".dialog-scores")
    every_size_and_language(page, shot, "hand-end", lambda lang: check_hand_cards(page, lang, names))


def test_four_seats_the_score_table_shows_the_point_cards_each_player_took(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    page.select_option("#level", "easy")
    create_table(page)
    fill_and_start(page)
    names = seat_names(page)
    assert view(page)["point_cards"] is None  # nothing of a hand being played
    expect(page.locator("[data-area=center] .kitty, .kitty-rule")).to_have_count(0)  # no kitty in the classic game

    first = play_until_game_over(page, hands=1, stop=first_hand_scored)
    assert sum(len(cards) for cards in first["point_cards"]) == 14  # the thirteen hearts and the queen of spades
    assert first["kitty_cards"] is None
    page.wait_for_selector(".dialog-scores")
    every_size_and_language(page, shot, "hand-end", lambda lang: check_hand_cards(page, lang, names))


@pytest.mark.service_worker  # the service worker keeps the offline engine
def test_offline_the_kitty_says_who_takes_it_and_the_hands_end_shows_the_cards_as_online(open_page, shot):
    # the offline game runs the same shared/ view in the browser: the same words, the same cards at the hand's end
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    page.select_option("#variant", "three_kitty")
    page.fill("#opt-three_kitty-end_score", "100")
    page.evaluate("() => window.hartenjagen.offline.setDelay(20)")  # the computer players' pause: 20 ms, not 600
    page.click("[data-offline-play]")
    page.wait_for_selector(".hand .card", timeout=BOOT_MS)
    expect(page.locator("[data-offline-badge]")).to_be_visible()
    names = seat_names(page)
    check_kitty_lies_named(page, "en", "first_trick", 1)
    shot(page, "offline-passing-phone-en")
    first = play_until_game_over(page, hands=1, stop=first_hand_scored)
    assert first["kitty_cards"] and first["point_cards"]
    page.wait_for_selector(".dialog-scores")
    check_hand_cards(page, "en", names)
    shot(page, "offline-hand-end-phone-en")
    _lang(page, "nl")
    check_hand_cards(page, "nl", names)
    shot(page, "offline-hand-end-phone-nl")
