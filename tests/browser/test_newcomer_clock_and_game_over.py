"""When the turn clock runs out, the person is told in the moment what a computer player did for them (the cards it
passed, the card it played), in English and in Dutch; and at game over each topper says what it means in that game's
numbers, and each person sees their own next step and, once they agreed to play again, who they wait for."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, click_card, hearts_serve, no_horizontal_scroll, resize, view

TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
SUITS = {"C": "♣", "D": "♦", "S": "♠", "H": "♥"}
RANKS = {"en": {"T": "10"}, "nl": {"T": "10", "J": "B", "Q": "V", "K": "H"}}  # the Dutch jack, queen and king


def short(card: str, lang: str = "en") -> str:
    """A card as the page writes it in a sentence: "10♦", "Q♠" ("V♠" in Dutch)."""
    return RANKS[lang].get(card[0], card[0]) + SUITS[card[1]]


@pytest.fixture(scope="module")
def quick_clock_url() -> Iterator[str]:
    """A server whose hosts may set a turn clock of a second or two (`--timer-min 1`), so that it runs out quickly."""
    with hearts_serve("--timer-min", "1") as url:
        yield url


def join(page: Page, code: str) -> None:
    page.fill("#code", code)
    page.click("form[data-form=join] button[type=submit]")
    page.wait_for_selector(".lobby")


def test_when_the_turn_clock_runs_out_the_person_is_told_what_was_done_for_them(open_page, shot, quick_clock_url):
    anna = open_page("/", viewport=DESKTOP, name="Anna", server=quick_clock_url)
    anna.click("#create-form button[type=submit]")
    anna.wait_for_selector(".lobby .code")
    code = anna.inner_text(".lobby .code").strip()
    bram = open_page("/", viewport=TALL, locale="nl-NL", name="Bram", server=quick_clock_url)
    join(bram, code)
    # the host's turn clock: two seconds a move (this server allows it)
    anna.evaluate("() => window.hartenjagen.connection.send({type: 'set_timer', seconds: 2})")
    expect(bram.locator(".timer-setting")).to_have_text("Bedenktijd: 2 s per zet")
    anna.click("[data-action=fill_computers]")
    anna.click("[data-action=start]:not([disabled])")
    for page in (anna, bram):
        page.wait_for_selector(".hand .card")

    # Neither passes: when the clock runs out each is told which three cards a computer player passed for them.
    notice = anna.locator(".status .notice")
    anna.wait_for_function("() => window.hartenjagen.state.table.view.passed !== null", timeout=10_000)
    passed = " ".join(short(c) for c in view(anna)["passed"])
    expect(notice).to_have_text(f"Time ran out: a computer player passed {passed} for you.")
    bram.wait_for_function("() => window.hartenjagen.state.table.view.passed !== null", timeout=10_000)
    bram_passed = " ".join(short(c, "nl") for c in view(bram)["passed"])
    expect(bram.locator(".status .notice")).to_have_text(
        f"Je bedenktijd was om: een computerspeler gaf {bram_passed} voor je door."
    )
    shot(anna, "passed-for-you-1280x800")
    shot(bram, "passed-for-you-390x844-nl")

    # Nor does Anna play: a computer player plays her card, and she is told which.
    expect(notice).to_have_text(re.compile(r"^Time ran out: a computer player played \S+ for you\.$"), timeout=20_000)
    card = re.match(r"^Time ran out: a computer player played (\S+) for you\.$", notice.inner_text()).group(1)
    v = view(anna)
    mine = [c["card"] for t in [*v["tricks"], v["trick"]] for c in t["cards"] if c["seat"] == v["seat"]]
    assert card in {short(c) for c in mine}, (card, mine)
    shot(anna, "played-for-you-1280x800")
    expect(bram.locator(".status .notice")).to_have_text(
        re.compile(r"^Je bedenktijd was om: een computerspeler speelde \S+ voor je\.$"), timeout=20_000
    )
    resize(bram, LANDSCAPE)
    expect(bram.locator(".status .notice")).to_be_in_viewport()
    assert no_horizontal_scroll(bram)
    shot(bram, "played-for-you-844x390-nl")


# Deal 1 with no passing, played by four people so that Anna takes every point card but one heart (Daan's): 25 points,
# the end. Bram and Carla win with 0 while Anna reached 25: a nil game each. Trick by trick, in the order played.
PLAN = (
    (
        "2C 6C TC 8C / AD JD KD QD / 9C KC 4C 3C / 6S 3S 5S 7S / 8D 7D 6D TD / 9S 4S AS 8S / 9D 3D QH 5D / "
        "4H 8H 2H 7H / TH 3H 2D 6H / JC QC 7C AC / 9H AH 5H 2S / QS TS 4D KH / KS JS 5C JH"
    )
    .replace("/", "")
    .split()
)
MY_TURN = """() => { const s = window.hartenjagen.state; const v = s.table && s.table.view;
    return Boolean(v) && v.phase === 'playing' && v.turn === v.seat && !s.inFlight; }"""


def play_plan(pages: list[Page]) -> None:
    """Each card of the plan, clicked by the person whose turn it is, once the server took the card before it."""
    for card in PLAN:
        turn = view(pages[0])["turn"]
        page = pages[turn]
        page.wait_for_function(MY_TURN)
        click_card(page, card)
        page.wait_for_function(f"() => !window.hartenjagen.state.table.view.hand.includes('{card}')")


def test_game_over_explains_each_topper_and_shows_each_person_their_own_next_step(open_page, shot):
    anna = open_page("/", viewport=DESKTOP, name="Anna")
    anna.fill("#opt-classic-end_score", "25")
    anna.fill("#deal", "1")
    anna.select_option("#opt-classic-passing", "off")
    anna.click("#create-form button[type=submit]")
    anna.wait_for_selector(".lobby .code")
    code = anna.inner_text(".lobby .code").strip()
    bram = open_page("/", viewport=TALL, locale="nl-NL", name="Bram")
    carla = open_page("/", viewport=LANDSCAPE, name="Carla")
    daan = open_page("/", viewport=DESKTOP, locale="nl-NL", name="Daan")
    pages = [anna, bram, carla, daan]
    for page in pages[1:]:
        join(page, code)
    anna.click("[data-action=start]:not([disabled])")
    for page in pages:
        page.wait_for_selector(".hand .card")
    play_plan(pages)
    for page in pages:
        page.wait_for_selector(".dialog-scores .winners")
    assert view(anna)["totals"] == [25, 0, 0, 1]

    # Each topper says what it is and what earned it, in this game's numbers.
    expect(anna.locator(".dialog-scores .toppers li")).to_have_text(
        [
            "Nil game: Bram won with 0 points while Anna reached 25.",
            "Nil game: Carla won with 0 points while Anna reached 25.",
        ]
    )
    expect(bram.locator(".dialog-scores .toppers li")).to_have_text(
        [
            "Zege op nul: Bram won met 0 punten terwijl Anna de 25 haalde.",
            "Zege op nul: Carla won met 0 punten terwijl Anna de 25 haalde.",
        ]
    )
    # Each person's own next step: the host's choices are the host's; nobody else reads that the host may choose.
    for page in pages:
        expect(page.locator(".dialog-scores .main-step [data-action=rematch]")).to_have_class("primary")
        expect(page.locator(".dialog-scores .next-waiting")).to_have_count(0)
    expect(anna.locator(".dialog-scores [data-action=more_steps]")).to_have_count(1)
    for page in pages[1:]:
        expect(page.locator(".dialog-scores [data-action=more_steps]")).to_have_count(0)
    shot(anna, "game-over-host-1280x800")
    carla.locator(".dialog-scores .toppers").scroll_into_view_if_needed()
    shot(carla, "game-over-844x390")

    # Bram agrees to play again: now he is told who he waits for, and that list shrinks as the others agree.
    bram.click(".dialog-scores .main-step [data-action=rematch]")
    waiting = bram.locator(".dialog-scores .rematch-waiting")
    expect(waiting).to_have_text("Wachten op het ja van Anna, Carla en Daan.")
    expect(anna.locator(".dialog-scores .rematch-line")).to_have_text("1 of 4 agrees: Bram")
    expect(anna.locator(".dialog-scores .rematch-waiting")).to_have_count(0)  # her own step is still the button
    assert no_horizontal_scroll(bram)
    bram.locator(".dialog-scores .toppers").scroll_into_view_if_needed()
    shot(bram, "game-over-390x844-nl")
    carla.click(".dialog-scores .main-step [data-action=rematch]")
    expect(carla.locator(".dialog-scores .rematch-waiting")).to_have_text("Waiting for Anna and Daan to agree.")
    expect(waiting).to_have_text("Wachten op het ja van Anna en Daan.")
    carla.locator(".dialog-scores .rematch-waiting").scroll_into_view_if_needed()
    shot(carla, "agreed-844x390")
