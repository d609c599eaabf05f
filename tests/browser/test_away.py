"""A player who drops out: the others see the seat marked away, and a computer player moves for it."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import create_table, play_one_legal, view

AWAY_MS = 5_000  # the server marks the seat away after 1 s (--grace 1)


def test_a_player_who_closes_the_page_is_shown_away_and_a_computer_plays_for_them(open_page, quick_away_url, shot):
    anna = open_page("/", name="Anna", server=quick_away_url)
    code = create_table(anna, passing="off")
    bram = open_page("/", name="Bram", server=quick_away_url)
    bram.fill("#code", code)
    bram.click("form[data-form=join] button[type=submit]")
    bram.wait_for_selector(".lobby")
    expect(anna.locator(".seats")).to_contain_text("Bram")
    anna.click("[data-action=fill_computers]")
    anna.click("[data-action=start]:not([disabled])")
    anna.wait_for_selector(".hand .card")
    bram.wait_for_selector(".hand .card")

    west = anna.locator('.opp [data-seat="1"]')
    expect(west).to_contain_text("Bram")
    expect(west.locator(".badge.away")).to_have_count(0)
    expect(west.locator(".mini-fan .card")).to_have_count(13)  # nobody has moved for Bram yet

    bram.close()

    # Anna sees Bram's seat marked away, and the server has marked him away (not just disconnected).
    expect(west.locator(".badge.away")).to_have_text("away", timeout=AWAY_MS)
    anna.wait_for_function("() => window.hartenjagen.state.table.seats[1].away === true", timeout=AWAY_MS)
    assert anna.evaluate("() => window.hartenjagen.state.table.seats[1].kind") == "person"  # his seat

    # The game goes on: Anna plays three cards, and a computer plays Bram's cards in between.
    for _ in range(3):
        play_one_legal(anna)
    anna.wait_for_function("() => document.querySelectorAll('.opp [data-seat=\"1\"] .mini-fan .card').length <= 10")
    assert view(anna)["hand_sizes"][1] <= 10
    expect(west).to_contain_text("Bram")  # still his seat, still away
    expect(west.locator(".badge.away")).to_be_visible()
    shot(anna, "bram-away")
