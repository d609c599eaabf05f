"""Journeys new players stumbled on: a hand review that belongs to its own game, the score table that goes
when the host starts a new game, a next step after game over, a numbered-deal link, leaving, the start page and the
address bar, Dutch numbers and words, and screen-reader news in the language of the moment."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect

from .conftest import (
    DESKTOP,
    PHONE,
    create_table,
    fill_and_start,
    hearts_serve,
    no_horizontal_scroll,
    open_my_games,
    play_one_legal,
    play_pages,
)

DUTCH_MONTHS = [
    "januari",
    "februari",
    "maart",
    "april",
    "mei",
    "juni",
    "juli",
    "augustus",
    "september",
    "oktober",
    "november",
    "december",
]


@pytest.fixture(scope="module")
def quick_review_url() -> Iterator[str]:
    """A server whose hand reviews search with a small budget (the default second per decision is for real players)."""
    with hearts_serve("--review-ms", "20") as url:
        yield url


def _join(page: Page, code: str) -> None:
    page.fill("#code", code)
    page.click("form[data-form=join] button[type=submit]")
    page.wait_for_selector(".lobby")


def _path(page: Page) -> str:
    return page.evaluate("() => location.pathname")


def _news(page: Page) -> list[str]:
    return page.eval_on_selector_all("[data-area=news] p", "els => els.map(e => e.textContent)")


def test_after_game_over_the_host_has_a_next_step_and_a_new_game_starts_clean_for_everyone(
    open_page, quick_review_url, shot
):
    # Anna hosts a chips game that ends after one hand; Bram (Dutch, on a phone) joins by code.
    anna = open_page("/", name="Anna", server=quick_review_url)
    anna.select_option("#variant", "chips")
    anna.fill("#opt-chips-hand_limit", "1")
    code = create_table(anna)
    bram = open_page("/", viewport=PHONE, locale="nl-NL", name="Bram", server=quick_review_url)
    _join(bram, code)
    fill_and_start(anna)
    bram.wait_for_selector(".hand .card")
    play_pages([anna, bram], moves=("play",))

    # Game over: the host's score table offers one main step, playing again with the same people; a new game and
    # starting over are folded under it, each saying what it does.
    dialog = anna.locator(".dialog-scores")
    expect(dialog.locator(".winners")).to_contain_text("Game over")
    expect(dialog.locator(".main-step [data-action=rematch]")).to_have_text("Play again with the same people")
    steps = dialog.locator("[data-next-steps=dialog]")
    expect(steps.locator("[data-action=new_game]")).to_be_hidden()
    steps.locator("[data-action=more_steps]").click()
    expect(steps.locator("[data-action=new_game]")).to_have_text("New game at this table")
    expect(steps).to_contain_text("New game: back to the waiting room")
    expect(steps.locator("[data-action=open][data-overlay=restart]")).to_have_text("Start over")
    expect(steps).to_contain_text("Start over: the same cards again, from the first hand.")
    new_help = steps.locator("[data-action=new_game]").get_attribute("aria-describedby")
    expect(anna.locator(f"#{new_help}")).to_contain_text("new cards")  # the line is the button's description
    shot(anna, "game-over-dialog-host")
    bram_dialog = bram.locator(".dialog-scores")
    # Bram's own step is the vote to play again; a choice that is the host's is no step of his
    expect(bram_dialog.locator(".main-step [data-action=rematch]")).to_have_text("Nog een spel met dezelfde mensen")
    expect(bram_dialog.locator(".next-waiting")).to_have_count(0)
    expect(bram_dialog.locator("[data-action=new_game]")).to_have_count(0)

    # Bram asks for the review of the hand he played.
    bram_dialog.locator("[data-action=review_hand]").click()
    first_review = bram_dialog.locator(".hand-review .review")
    expect(first_review).to_be_visible(timeout=60_000)
    first_text = first_review.locator(".rv-list").inner_text()
    for cost in bram_dialog.locator(".rv-cost").all_inner_texts():  # "ongeveer 1,6 punten", never "1.6"
        assert re.fullmatch(r"ongeveer \d+,\d punten", cost), cost
    # Whether this hand had a costly card is up to the cards: a first decision that cost exactly one point reads so.
    bram.evaluate(
        """() => {
            const d = window.hartenjagen.state.review.data.decisions[0];
            Object.assign(d, {mark: "inaccuracy", cost: 1, best: d.chosen});
            window.dispatchEvent(new Event("resize"));
        }"""
    )
    expect(bram_dialog.locator(".rv-cost").first).to_have_text("ongeveer 1,0 punten")
    shot(bram, "game-over-review-nl")

    # Anna closes the score table: the table still says who won, and offers the next step.
    anna.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    status = anna.locator(".status")
    expect(status.locator(".turn-line")).to_contain_text("Game over")
    winners = anna.evaluate(
        "() => { const t = window.hartenjagen.state.table; return t.view.winners.map(s => t.seats[s].name); }"
    )
    for name in winners:
        expect(status.locator(".turn-line")).to_contain_text(name)
    expect(status.locator("[data-action=new_game]")).to_be_visible()  # the choices stay unfolded
    expect(status).to_contain_text("New game: back to the waiting room")
    expect(status).to_contain_text("Start over: the same cards again")
    shot(anna, "game-over-closed-host")

    # The host starts a new game from under the table: Bram's score table of the old game closes by itself.
    status.locator("[data-action=new_game]").click()
    anna.wait_for_selector(".lobby")
    bram.wait_for_selector(".lobby")
    expect(bram.locator(".dialog")).to_have_count(0)
    anna.click("[data-action=start]:not([disabled])")
    bram.wait_for_selector(".hand .card")
    expect(bram.locator(".dialog")).to_have_count(0)  # no empty score table over the new hand
    shot(bram, "new-game-no-dialog-nl")

    # The second game's score table offers a review of its own hand, not the first game's.
    play_pages([anna, bram], moves=("play",))
    expect(bram_dialog.locator(".winners")).to_be_visible()
    expect(bram_dialog.locator(".hand-review .review")).to_have_count(0)
    expect(bram_dialog.locator("[data-action=review_hand]")).to_be_visible()
    shot(bram, "second-game-over-nl")
    bram_dialog.locator("[data-action=review_hand]").click()
    second_review = bram_dialog.locator(".hand-review .review")
    expect(second_review).to_be_visible(timeout=60_000)
    assert second_review.locator(".rv-list").inner_text() != first_text  # other cards, another review

    # Bram's games: two games of one hand each, "1 ronde" (not "1 rondes").
    bram.keyboard.press("Escape")
    open_my_games(bram)
    games = bram.locator(".dialog-games .game")
    expect(games).to_have_count(2)
    for facts in games.locator(".g-facts").all_inner_texts():
        assert "1 ronde" in facts and "1 rondes" not in facts, facts
    assert no_horizontal_scroll(bram)
    shot(bram, "my-games-nl")


def test_leaving_stay_is_the_main_button_and_the_others_learn_who_hosts_now(open_page, shot):
    anna = open_page("/", name="Anna")
    code = create_table(anna, passing="off")
    bram = open_page("/", viewport=PHONE, locale="nl-NL", name="Bram")
    _join(bram, code)
    carla = open_page("/", name="Carla")
    _join(carla, code)
    fill_and_start(anna)
    bram.wait_for_selector(".hand .card")
    carla.wait_for_selector(".hand .card")

    # The leave question: Stay is the main (yellow) button and has the focus; standing up is the plain one.
    anna.click("#top [data-action=leave]")
    leave = anna.locator(".dialog-leave")
    expect(leave.locator("button.primary")).to_have_text("Stay")
    expect(leave.locator("button.primary")).to_be_focused()
    expect(leave.locator("[data-action=leave_confirm]")).not_to_have_class(re.compile(r"\bprimary\b"))
    shot(anna, "leave-question")
    anna.keyboard.press("Enter")  # Enter on the focused Stay: still at the table
    expect(leave).to_have_count(0)
    expect(anna.locator(".hand .card")).to_have_count(13)

    # The host stands up: the others are told who left, who plays on, and who hosts now.
    anna.click("#top [data-action=leave]")
    anna.click(".dialog-leave [data-action=leave_confirm]")
    anna.wait_for_selector("form[data-form=create]")
    host = bram.evaluate("window.hartenjagen.state.table.host")
    names = {
        bram.evaluate("window.hartenjagen.state.table.you"): ("Bram", bram),
        carla.evaluate("window.hartenjagen.state.table.you"): ("Carla", carla),
    }
    new_name, new_host = names.pop(host)
    ((_, other),) = names.values()
    expect(new_host.locator("[data-notice=info]")).to_contain_text(
        "Jij bent nu de host." if new_name == "Bram" else "You host the table now."
    )
    expect(other.locator("[data-notice=info]")).to_contain_text(
        "Anna left;" if other is carla else "Anna is opgestaan;"
    )
    expect(other.locator("[data-notice=info]")).to_contain_text(
        f"{new_name} hosts the table now." if other is carla else f"{new_name} is nu de host."
    )
    shot(bram, "host-left-nl")
    shot(carla, "host-left-en")


def test_start_page_join_without_a_code_and_the_address_bar_follows_the_screen(open_page, server_url, shot):
    page = open_page("/", viewport=PHONE, name="Anna")

    # Join with no code: the field says what is missing.
    page.click("form[data-form=join] button[type=submit]")
    error = page.locator("#code-error")
    expect(error).to_have_text("Type the table code you were given (for example K7QX), then press Join.")
    expect(page.locator("#code")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#code")).to_be_focused()
    shot(page, "join-without-code")

    # A table made from the bottom of the start page opens at its top, at its own address.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("() => window.scrollY") > 300
    code = create_table(page, passing="off")
    assert page.evaluate("() => window.scrollY") == 0
    expect(page.locator("#top nav")).to_be_in_viewport()
    expect(page.locator(".lobby h2")).to_be_in_viewport()
    assert _path(page) == f"/t/{code}"
    shot(page, "lobby-at-top")
    fill_and_start(page)

    # The browser's Back at the table asks before standing up; Stay keeps the seat and the table's address.
    page.go_back()
    expect(page.locator(".dialog-leave")).to_be_visible()
    page.click(".dialog-leave [data-stay]")
    expect(page.locator(".dialog-leave")).to_have_count(0)
    expect(page.locator(".hand .card")).to_have_count(13)
    page.wait_for_function("c => location.pathname === `/t/${c}`", arg=code)

    # On the start page again (a new visit to /), "Back to your table" brings the address along.
    page.goto(server_url.rstrip("/") + "/")
    page.click("[data-action=comeback]")
    page.wait_for_selector(".hand .card")
    page.wait_for_function("c => location.pathname === `/t/${c}`", arg=code)

    # Leaving: the start page at /; Back opens the table's link again, which says the table is gone (Anna was the
    # only person at it); Forward is the start page again.
    page.click("#top [data-action=leave]")
    page.click(".dialog-leave [data-action=leave_confirm]")
    page.wait_for_selector("form[data-form=create]")
    assert _path(page) == "/"
    page.go_back()
    expect(page.locator(".start .notice.error")).to_have_text("There is no table with that code.")
    assert _path(page) == f"/t/{code}"
    expect(page.locator("#code")).to_have_value(code)
    shot(page, "back-after-leaving")
    page.go_forward()
    page.wait_for_function("() => location.pathname === '/'")
    expect(page.locator(".start .notice")).to_have_count(0)


def test_a_numbered_deal_link_says_its_number_on_top_and_plays_it_with_one_button(open_page, shot):
    page = open_page("/?deal=12345", viewport=PHONE, name="Anna")
    panel = page.locator("[data-deal-link]")
    expect(panel.locator("h2")).to_have_text("Deal 12345")
    box = panel.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"], "the deal is said above the fold"
    play = panel.locator("button.primary")
    expect(play).to_have_text("Play deal 12345")
    expect(panel.locator("button[value=offline]")).to_have_text("Play offline")
    assert no_horizontal_scroll(page)
    shot(page, "deal-link")

    play.click()
    page.wait_for_selector(".lobby")
    assert page.evaluate("window.hartenjagen.state.table.deal") == 12345
    expect(page.locator("#top .deal-no")).to_have_text("Deal 12345")


def test_dutch_dates_numbers_and_the_pass_line_and_news_in_the_new_language(open_page, shot):
    page = open_page("/", viewport=DESKTOP, locale="nl-NL", name="Joke")
    page.click("form[data-form=daily] button[type=submit]")
    page.wait_for_selector(".lobby .daily-date")
    today = datetime.now(UTC)
    expect(page.locator(".lobby .daily-date")).to_have_text(
        f"Het spel van {today.day} {DUTCH_MONTHS[today.month - 1]} {today.year}"
    )
    shot(page, "daily-date-nl")
    page.click("[data-action=start]:not([disabled])")
    page.wait_for_selector(".hand .card")

    # Passing: "Kies 3 kaarten…" until three are chosen, then what is left to do.
    line = page.locator(".status .turn-line")
    expect(line).to_contain_text("Kies 3 kaarten")
    for card in page.eval_on_selector_all(".hand .card", "els => els.slice(0, 3).map(e => e.dataset.key)"):
        page.locator(f'.hand .card[data-key="{card}"]').click()
    expect(line).not_to_contain_text("Kies 3 kaarten")
    expect(line).to_contain_text("3 kaarten gekozen voor")
    shot(page, "three-chosen-nl")
    page.click("[data-action=pass]")
    page.wait_for_function("() => window.hartenjagen.state.table.view.passed !== null")

    # The screen reader's news, then a switch to English: the earlier lines are in English too.
    play_one_legal(page)
    page.wait_for_function("() => document.querySelectorAll('[data-area=news] p').length >= 2")
    assert any("speelt" in n or "aan de beurt" in n for n in _news(page)), _news(page)
    page.click("#top [data-action=lang][data-lang=en]")
    # the page redraws on its next frame: wait for the lines to be redrawn, not just for the language to be set
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-area=news] p')].some(p => / plays the |Your turn| to play/.test(
            p.textContent))"""
    )
    news = _news(page)
    assert news and not [n for n in news if "speelt" in n or "aan de beurt" in n or "pakt" in n], news
    assert any(" plays the " in n or "Your turn" in n or " to play" in n for n in news), news

    # Figures in Dutch: the win percentage with a decimal comma.
    page.click("#top [data-action=lang][data-lang=nl]")
    page.route(
        "**/api/stats",
        lambda route: route.fulfill(
            json={
                "name": "Joke",
                "games_played": 6,
                "games_won": 1,
                "win_pct": 16.7,
                "lowest_score": 40,
                "current_streak": 0,
                "best_streak": 1,
                "moons": 0,
                "hands": 30,
                "avg_points_per_hand": 6.5,
                "toppers": {},
            }
        ),
    )
    page.click("[data-action=open][data-overlay=stats]")
    expect(page.locator('[data-stat="stats_win_pct"]')).to_have_text("16,7%")
    shot(page, "stats-nl")
