"""Hint, options remembered in the browser, a game played to its end with winners, and statistics."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import PHONE, create_table, fill_and_start, play_one_legal, view


def test_hint_highlights_three_cards_to_pass_then_one_to_play(open_page, shot):
    page = open_page("/", name="Anna")
    create_table(page)
    fill_and_start(page)
    page.click("[data-action=hint]")
    expect(page.locator(".hand .card.hint")).to_have_count(3)
    shot(page, "hint-pass")
    for card in page.eval_on_selector_all(".hand .card.hint", "els => els.map(e => e.dataset.card)"):
        page.locator(f'.hand .card[data-card="{card}"]').click()
    page.click("[data-action=pass]")
    page.wait_for_selector(".hand .card.legal")
    page.click("[data-action=hint]")
    expect(page.locator(".hand .card.hint")).to_have_count(1)
    assert page.locator(".hand .card.hint").get_attribute("data-card") in view(page)["legal"]
    shot(page, "hint-play")


def test_options_are_remembered_after_a_reload(open_page, shot):
    page = open_page("/", viewport=PHONE)
    page.click("[data-action=open][data-overlay=options]")
    page.click("[data-pref=table][data-value=blue]")
    page.click("[data-pref=back][data-value=green]")
    page.click("[data-pref=fourColour]")
    page.click(".dialog [data-action=lang][data-lang=nl]")
    expect(page.locator(".dialog h2")).to_have_text("Opties")
    shot(page, "options")
    page.reload()
    root = page.locator("html")
    expect(root).to_have_attribute("data-table", "blue")
    expect(root).to_have_attribute("data-back", "green")
    expect(root).to_have_attribute("data-four-colour", "on")
    expect(root).to_have_attribute("lang", "nl")


def test_a_short_game_ends_with_winners_a_new_game_button_and_statistics(open_page, shot):
    page = open_page("/", name="Anna")
    page.fill("#opt-classic-end_score", "25")
    create_table(page, passing="off")
    fill_and_start(page)
    for _ in range(12):
        while view(page)["phase"] == "playing":
            play_one_legal(page)
            page.wait_for_function(
                "() => { const v = window.hartenjagen.state.table.view;"
                " return v.turn === v.seat || v.phase === 'hand_over' || v.game_over; }"
            )
        page.wait_for_selector(".dialog-scores")  # after the last trick has gone to its taker
        if view(page)["game_over"]:
            break
        page.click(".dialog-scores [data-action=ready]")
        page.wait_for_function(
            "n => window.hartenjagen.state.table.view.history.length === n && "
            "window.hartenjagen.state.table.view.phase === 'playing'",
            arg=len(view(page)["history"]),
        )
        expect(page.locator(".dialog-scores")).to_have_count(0)  # closed when the next hand was dealt
    v = view(page)
    assert v["game_over"] and max(v["totals"]) >= 25
    winners = page.locator(".dialog-scores .winners")
    expect(winners).to_contain_text("Game over")
    for seat in v["winners"]:
        expect(page.locator(".dialog-scores tfoot td.winner")).to_have_count(len(v["winners"]))
        assert min(v["totals"]) == v["totals"][seat]
    shot(page, "game-over")

    # Statistics from the server count the finished game.
    page.click(".dialog [data-action=close]")
    page.click("[data-action=open][data-overlay=stats]")
    expect(page.locator('[data-stat="stats_played"]')).to_have_text("1")
    won = "1" if 0 in v["winners"] else "0"
    expect(page.locator('[data-stat="stats_won"]')).to_have_text(won)
    shot(page, "stats")
    page.click(".dialog [data-action=close]")

    # The host starts a new game at the same table (one of the choices folded under playing again with the same
    # people): back in the waiting room with the same seats.
    page.click("[data-action=open][data-overlay=scores]")
    page.click(".dialog-scores [data-action=more_steps]")
    page.click(".dialog-scores [data-action=new_game]")
    page.wait_for_selector(".lobby")
    expect(page.locator("[data-action=start]")).to_be_enabled()


def test_dutch_table_deals_eight_cards_from_seven_up_and_skips_passing(open_page, shot):
    page = open_page("/", viewport=PHONE, locale="nl-NL", name="Joke")
    create_table(page, variant="dutch")
    fill_and_start(page)
    expect(page.locator(".hand .card")).to_have_count(8)
    assert page.locator("[data-action=pass]").count() == 0
    assert all(c[0] in "789TJQKA" for c in view(page)["hand"])
    played = play_one_legal(page)
    assert played[0] in "789TJQKA"
    shot(page, "dutch")


def test_the_host_sets_a_turn_timer_and_the_table_counts_down(open_page, shot):
    page = open_page("/", name="Anna")
    create_table(page)
    page.select_option("#turn-timer", "15")
    page.wait_for_function("() => window.hartenjagen.state.table.turn_timer === 15")  # a function: the CSP has no eval
    expect(page.locator("#turn-timer")).to_have_value("15")
    fill_and_start(page)
    status = page.locator(".turn-line")
    expect(status).to_contain_text("s left")
    first = int(page.evaluate("window.hartenjagen.state.table.deadline"))
    assert 10 <= first <= 15
    start = int(re.search(r"(\d+) s left", status.inner_text()).group(1))
    page.wait_for_function(
        "n => /(\\d+) s left/.test(document.querySelector('.turn-line').innerText)"
        " && Number(document.querySelector('.turn-line').innerText.match(/(\\d+) s left/)[1]) < n",
        arg=start,
        timeout=4000,
    )
    shot(page, "timer")
