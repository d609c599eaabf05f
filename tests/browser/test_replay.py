"""After game over: the score table, the replay viewer (shared link and My games), and starting over."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import (
    DESKTOP,
    PHONE,
    create_table,
    fill_and_start,
    no_horizontal_scroll,
    open_my_games,
    play_until_game_over,
    view,
)

LANDSCAPE = {"width": 640, "height": 360}


COUNTS = """([expected, sort]) => {
    const counts = [0, 1, 2, 3].map(s => document.querySelectorAll(`.rp-seat[data-seat="${s}"] .rp-hand .card`).length);
    if (sort) counts.sort((a, b) => a - b);
    return JSON.stringify(counts) === JSON.stringify(expected);
}"""


def _expect_counts(page, expected: list[int], any_seat: bool = False) -> None:
    """Wait until the seats 0..3 of the replay viewer hold ``expected`` cards (in any order with ``any_seat``)."""
    page.wait_for_function(COUNTS, arg=[sorted(expected) if any_seat else expected, any_seat], timeout=5000)


def _finished_game(open_page):
    page = open_page("/", name="Anna")
    page.fill("#opt-classic-end_score", "25")
    create_table(page)  # passing left, right, across, hold: the replay shows the passes
    fill_and_start(page)
    final = play_until_game_over(page)
    return page, final


def test_a_finished_game_can_be_replayed_shared_and_started_over(open_page, shot):
    page, final = _finished_game(open_page)
    table = page.evaluate("window.hartenjagen.state.table")
    assert table["status"] == "finished" and table["replay"]
    share = table["replay"]["share"]

    # The score table lists every hand with its running totals.
    scores = page.locator(".dialog-scores")
    expect(scores.locator("tbody tr")).to_have_count(len(final["history"]))
    me = final["seat"]
    for i, h in enumerate(final["history"]):
        mine = scores.locator("tbody tr").nth(i).locator("td").first  # my column comes first
        expect(mine.locator(".running")).to_have_text(str(h["totals"][me]))
    expect(scores.locator("tfoot td").first).to_have_text(str(final["totals"][me]))

    # The share link is the table's share key on this server.
    copy = scores.locator("[data-action=copy_share]")
    expect(copy).to_have_text("Copy share link")
    copy.click()
    expect(copy).to_have_text("Share link copied")

    # Replay this game: every hand open, from the deal.
    scores.locator("[data-action=replay]").click()
    expect(page.locator(".replay .rp-seat")).to_have_count(4)
    assert page.url.endswith(f"/r/{share}")
    expect(page.locator("#replay-hand option")).to_have_count(len(final["history"]))
    _expect_counts(page, [13, 13, 13, 13])
    expect(page.locator(".rp-stage")).to_have_text("As dealt")
    expect(page.locator(".rp-passes li")).to_have_count(4)  # hand 1 passes to the left
    expect(page.locator(".rp-hand .card.passing")).to_have_count(12)
    shot(page, "desktop-dealt")

    # Keyboard: the right arrow steps; after the exchange everyone still holds 13.
    page.keyboard.press("ArrowRight")
    expect(page.locator(".rp-stage")).to_have_text("After passing")
    _expect_counts(page, [13, 13, 13, 13])
    expect(page.locator(".rp-hand .card.received")).to_have_count(12)
    page.keyboard.press("ArrowRight")
    expect(page.locator(".rp-trick .card")).to_have_count(1)
    _expect_counts(page, [12, 13, 13, 13], any_seat=True)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator(".rp-trick .card")).to_have_count(4)
    _expect_counts(page, [12, 12, 12, 12])
    expect(page.locator(".rp-taker")).to_contain_text("takes the trick")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".rp-trick .card")).to_have_count(3)
    _expect_counts(page, [12, 12, 12, 13], any_seat=True)
    # One trick at a time with the buttons.
    page.click("#rp-next-trick")
    page.click("#rp-next-trick")
    _expect_counts(page, [11, 11, 11, 11])
    expect(page.locator(".rp-stage")).to_have_text("Trick 2 of 13")
    expect(page.locator("#rp-next-trick")).to_be_focused()  # the focus stays on the button pressed
    shot(page, "desktop-trick")

    # Jump to the last hand: its points and the running totals are those of the game.
    last = len(final["history"]) - 1
    page.select_option("#replay-hand", str(last))
    expect(page.locator(".replay")).to_have_attribute("data-hand", str(last))
    for s in range(4):
        expect(page.locator(f'[data-total="{s}"]')).to_have_text(f"total {final['totals'][s]}")
    page.click("#rp-end")
    _expect_counts(page, [0, 0, 0, 0])
    expect(page.locator(".rp-totals tfoot td")).to_have_text([str(n) for n in final["totals"]])
    page.click("[data-action=replay_close]")
    expect(page.locator(".replay")).to_have_count(0)
    assert page.url.endswith(f"/t/{table['code']}")

    # Anyone with the link sees the replay, on a phone without scrolling sideways.
    for size, viewport in (("phone", PHONE), ("landscape", LANDSCAPE)):
        phone = open_page(f"/r/{share}", viewport=viewport, locale="nl-NL")
        expect(phone.locator(".replay .rp-seat")).to_have_count(4)
        _expect_counts(phone, [13, 13, 13, 13])
        phone.click("#rp-next")
        phone.click("#rp-next")
        expect(phone.locator(".rp-trick .card")).to_have_count(1)
        expect(phone.locator(".rp-stage")).to_have_text("Slag 1 van 13")
        assert no_horizontal_scroll(phone)
        box = phone.locator(".rp-hand .card").first.bounding_box()
        assert box["width"] >= 30
        shot(phone, f"{size}-nl")

    # My games, from the statistics: the game is there and opens in the viewer.
    open_my_games(page)
    games = page.locator(".dialog-games .game")
    expect(games.first).to_have_attribute("data-game", str(table["replay"]["id"]))
    expect(games.first).to_contain_text("Anna")
    shot(page, "my-games")
    games.first.locator("[data-action=open_game]").click()
    expect(page.locator(".replay .rp-seat")).to_have_count(4)
    expect(page.locator('.rp-seat[data-seat="0"] .badge.you')).to_have_count(1)
    _expect_counts(page, [13, 13, 13, 13])
    page.click("[data-action=replay_close]")

    # The host starts the finished game over (one of the choices folded under the main step): hand 1 again, no scores.
    page.click(".status [data-action=more_steps]")
    page.click("[data-action=open][data-overlay=restart]")
    expect(page.locator(".dialog-restart")).to_contain_text("Start this game over with the same cards?")
    page.click("[data-action=restart_confirm]")
    page.wait_for_function(
        "() => { const t = window.hartenjagen.state.table; return t.status === 'playing' && t.view.hand_no === 0; }"
    )
    v = view(page)
    assert v["history"] == [] and not v["game_over"]
    expect(page.locator("[data-area=caption] .hand-no")).to_contain_text("Hand 1")
    expect(page.locator(".hand .card")).to_have_count(13)


def test_an_unknown_replay_link_says_the_replay_is_not_found(open_page, shot):
    not_found = ("status of 404",)  # the browser notes the answer of /api/replays/... in the console
    page = open_page("/r/doesnotexist123", viewport=PHONE, expected=not_found)
    expect(page.locator("[data-replay=not_found]")).to_contain_text("Replay not found")
    shot(page, "en")
    dutch = open_page("/r/doesnotexist123", locale="nl-NL", viewport=DESKTOP, expected=not_found)
    expect(dutch.locator("[data-replay=not_found]")).to_contain_text("niet gevonden")
    dutch.click("[data-action=replay_close]")
    expect(dutch.locator("form[data-form=create]")).to_be_visible()
    assert re.search(r"/$", dutch.url)
