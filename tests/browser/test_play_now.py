"""Play now in the browser: four people who press Play now meet at one table that starts by itself, play it out and
get a rating in their statistics; one person alone waits a few seconds before computer players fill in; the waiting
screen counts down and the queue can be left; a refused name is said at the name field; the leaderboard."""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, STEP, no_horizontal_scroll, resize

TALL = {"width": 390, "height": 844}
RATING = re.compile(r"^\d{3,4} ± \d{2,3}$")  # a rating as the statistics show it: "1012 ± 320"
MOVE = re.compile(r"^Your rating: 1000 → (\d{3,4}), ([+−]\d+)$")  # a newcomer's first rated game: "1000 → 1211, +211"
LANDSCAPE = {"width": 844, "height": 390}
SMALL = {"width": 320, "height": 568}


def play_out(pages: list[Page], timeout_ms: int = 60_000) -> None:
    """Every page takes its own steps by itself (a step every few milliseconds, in the page, as a quick player would
    tap), until each of them sees game over."""
    for page in pages:
        page.evaluate(f"() => {{ const step = {STEP}; window.__steps = setInterval(step, 20); }}")
    for page in pages:
        page.wait_for_function(
            "() => { const t = window.hartenjagen.state.table; return Boolean(t && t.view && t.view.game_over); }",
            timeout=timeout_ms,
        )
        page.evaluate("() => clearInterval(window.__steps)")


def press_play_now(page: Page, name: str, *, end_score: int, wait: int, variant: str = "classic") -> None:
    """Fill in the start page's Play now form and press Play now; wait for the waiting screen (or the table)."""
    page.fill("#name", name)
    page.select_option("#pn-variant", variant)
    page.fill(f"#pn-length-{variant}", str(end_score))
    page.fill("#pn-wait", str(wait))
    page.click("form[data-form=play_now] button[type=submit]")
    page.wait_for_selector("[data-play-now-wait], .hand .card")


def test_four_people_meet_with_play_now_play_the_rated_game_out_and_see_their_rating(open_page, shot):
    sizes = [TALL, LANDSCAPE, SMALL, DESKTOP]
    pages = [open_page("/", viewport=size) for size in sizes]
    names = ["Anna", "Bram", "Carla", "Daan"]
    for n, (page, name) in enumerate(zip(pages, names, strict=True)):
        press_play_now(page, name, end_score=25, wait=120)
        if n == 0:  # alone at the table: the waiting screen counts down to the computer players
            screen = page.locator("[data-play-now-wait]")
            expect(screen.locator(".pn-count")).to_have_text("1 of 4 seats taken")
            left = int(screen.locator(".pn-fill").get_attribute("data-fill-in"))
            assert 100 <= left <= 120
            expect(screen.locator(".pn-fill")).to_contain_text("In 1:")
            expect(screen.locator(".pn-fill")).to_contain_text("computer players take the empty seats.")
            expect(screen.locator(".seat-card[data-kind=person] .rating")).to_have_text("rating 1000 ± 333")
            assert no_horizontal_scroll(page)
            shot(page, "waiting-390x844")
        if n == 1:
            expect(page.locator("[data-play-now-wait] .pn-count")).to_have_text("2 of 4 seats taken")
            expect(pages[0].locator("[data-play-now-wait] .pn-count")).to_have_text("2 of 4 seats taken")
            assert no_horizontal_scroll(page)
            shot(page, "waiting-844x390")
    codes = {p.evaluate("() => window.hartenjagen.state.table.code") for p in pages}
    assert len(codes) == 1, "all four sit at one table"
    for page in pages:  # the fourth person starts the game: nobody pressed Start
        page.wait_for_selector(".hand .card")
        expect(page.locator("#top [data-rated]")).to_be_visible()
    assert pages[0].evaluate("() => window.hartenjagen.state.table.rated") is True
    expect(pages[0].locator("[data-overlay=restart]")).to_have_count(0)  # a rated game cannot start over
    shot(pages[0], "rated-table-390x844")
    # on a small phone the mark is a star beside the buttons: the top bar stays one line
    assert pages[2].locator("#top").bounding_box()["height"] < 45
    shot(pages[2], "rated-table-320x568")

    play_out(pages)
    for page in pages:
        expect(page.locator("#top [data-rated]")).to_be_visible()
    # At game over each person sees how their own rating moved, once the game's new ratings are stored.
    moves = []
    for page in pages:
        move = page.locator(".rating-move")
        expect(move).to_have_text(MOVE)
        after, change = MOVE.match(move.inner_text()).groups()
        assert int(after) - 1000 == int(change.replace("−", "-"))
        moves.append(int(after))
    assert max(moves) > 1000 > min(moves), moves  # the winner gains, the last loses
    shot(pages[0], "rating-move-390x844")

    # The statistics say the classic rating after one rated game (stored with the game: asked again until it is).
    carla = pages[2]
    for _ in range(20):
        carla.keyboard.press("Escape")
        carla.click("#top [data-action=open][data-overlay=stats]")
        rating = carla.locator("[data-rating-family=classic]")
        rating.or_(carla.locator("[data-ratings-none]")).wait_for()
        if rating.count():
            break
        time.sleep(0.25)
    expect(rating).to_have_attribute("data-games", "1")
    expect(rating).to_contain_text("1 rated game")
    expect(rating.locator(".rating-value")).to_have_text(RATING)
    assert rating.locator(".rating-value").inner_text().startswith(f"{moves[2]} ± ")  # what game over showed
    shot(carla, "stats-320x568")

    # The leaderboard: one game is not yet enough to be ranked (five are): the four are listed as provisional (the
    # browser tests share a server, so the people of another test's rated game may be listed too).
    carla.click(".dialog [data-action=open][data-overlay=board]")
    board = carla.locator(".dialog-board")
    expect(board.locator("[data-min-games]")).to_contain_text("At least 5 rated games to appear.")
    provisional = board.locator("table.leaderboard tr[data-provisional]")
    for name in names:
        row = provisional.filter(has_text=name)
        expect(row).to_have_count(1)
        expect(row.locator(".provisional-mark")).to_have_text("provisional")
    expect(board.locator("[data-board-empty]")).to_have_count(0)
    expect(board.locator(".board-provisional-note")).to_contain_text("fewer than 5 rated games")
    expect(board.locator("[data-board-you]")).to_have_text("You are not on this board yet.")
    shot(carla, "leaderboard-provisional-320x568")
    board.locator("[data-action=board][data-family=dutch]").click()
    expect(board.locator("[data-action=board][data-family=dutch]")).to_have_attribute("aria-pressed", "true")
    board.locator("[data-action=board][data-period=week]").click()
    expect(board.locator("[data-action=board][data-period=week]")).to_have_attribute("aria-pressed", "true")
    expect(board.locator("[data-board-empty]")).to_be_visible()


def test_a_full_leaderboard_shows_the_top_and_your_own_place_on_a_phone(open_page, shot):
    top = [
        {
            "place": n,
            "name": "Anna-Sophie van den Berg" if n == 3 else f"Player {n}",
            "rating": 1400 - 7 * n,
            "uncertainty": 80 + n,
            "score": 1100 - 8 * n,
            "games": 5 + n,
        }
        for n in range(1, 51)
    ]
    you = {**top[2]}
    board = {"family": "classic", "period": "all", "min_games": 5, "top": top, "you": you, "players": 73}
    page = open_page("/", viewport=TALL, name="Anna-Sophie van den Berg")

    def answer(route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(board))

    page.route("**/api/leaderboard/**", answer)
    page.click("#top [data-action=open][data-overlay=stats]")
    expect(page.locator("[data-ratings-none]")).to_be_visible()
    page.click(".dialog [data-action=open][data-overlay=board]")
    rows = page.locator(".dialog-board table.leaderboard tbody tr")
    expect(rows).to_have_count(50)
    expect(page.locator(".dialog-board tr.you")).to_have_attribute("data-place", "3")
    expect(page.locator("[data-board-you]")).to_have_text("Your place: 3 of 73 (1379 ± 83)")
    fits = "() => { const d = document.querySelector('.dialog'); return d.scrollWidth <= d.clientWidth; }"
    assert page.evaluate(fits), "the leaderboard fits the phone's width"
    shot(page, "leaderboard-390x844")
    resize(page, LANDSCAPE)
    shot(page, "leaderboard-844x390")


def test_one_person_leaves_the_queue_then_waits_five_seconds_for_computer_players(open_page, shot):
    page = open_page("/", viewport=TALL)
    press_play_now(page, "Eva", end_score=50, wait=300)
    page.click("[data-play-now-wait] [data-action=leave]")
    page.wait_for_selector("form[data-form=play_now]")
    assert page.evaluate("() => location.pathname") == "/"
    expect(page.locator("#pn-wait")).to_have_value("300")  # the choices are remembered

    started = time.monotonic()
    press_play_now(page, "Eva", end_score=50, wait=5)
    left = int(page.locator("[data-play-now-wait] .pn-fill").get_attribute("data-fill-in"))
    assert 3 <= left <= 5
    page.wait_for_selector(".hand .card", timeout=12_000)
    assert time.monotonic() - started >= 3.5, "the computer players came after the wait"
    kinds = page.evaluate("() => window.hartenjagen.state.table.seats.map((s) => s.kind)")
    assert kinds == ["person", "computer", "computer", "computer"]
    expect(page.locator("#top [data-rated]")).to_have_count(0)  # not rated: computers played


def test_a_refused_name_is_said_at_the_name_field_and_another_name_plays(open_page):
    page = open_page("/", viewport=TALL)
    page.fill("#name", "sh1t")
    page.fill("#pn-wait", "300")
    page.click("form[data-form=play_now] button[type=submit]")
    error = page.locator(".name-panel #name-error")
    expect(error).to_have_text("That name is not allowed here; choose another name, please.")
    expect(page.locator("#name")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#name")).to_be_focused()
    page.fill("#name", "Femke")
    page.click("form[data-form=play_now] button[type=submit]")
    page.wait_for_selector("[data-play-now-wait]")
    expect(page.locator(".seat-card[data-kind=person] .name")).to_have_text("Femke")
    page.click("[data-play-now-wait] [data-action=leave]")
    page.wait_for_selector("form[data-form=play_now]")


def test_strangers_at_a_play_now_table_have_no_host_and_queue_again_after_game_over(open_page, shot):
    gert, hanna = open_page("/", viewport=TALL), open_page("/", viewport=DESKTOP)
    press_play_now(gert, "Gert", end_score=25, wait=300, variant="black_maria")  # his own wait: five minutes
    press_play_now(hanna, "Hanna", end_score=25, wait=5, variant="black_maria")  # hers brings the start closer
    code = gert.evaluate("() => window.hartenjagen.state.table.code")
    assert hanna.evaluate("() => window.hartenjagen.state.table.code") == code
    seat_of = "() => window.hartenjagen.state.table.you"
    gert_seat, hanna_seat = gert.evaluate(seat_of), hanna.evaluate(seat_of)
    for page, other in ((gert, hanna_seat), (hanna, gert_seat)):  # the waiting screen: nobody hosts strangers
        card = page.locator(f"[data-play-now-wait] .seat-card[data-seat='{other}']")
        expect(card.locator("[data-kind=report]")).to_have_count(1)  # reporting stays
        expect(card.locator("[data-kind=remove]")).to_have_count(0)
        expect(page.locator(".badge.host")).to_have_count(0)
        expect(page.locator("[data-leave-queue]")).to_be_visible()
    shot(gert, "play-now-no-host-waiting-390x844")

    for page in (gert, hanna):  # the computer players came after Hanna's five seconds
        page.wait_for_selector(".hand .card", timeout=15_000)
    gert.click(f"[data-area] .player[data-seat='{hanna_seat}'] [data-action=moderate]")
    dialog = gert.locator(".dialog-seat")
    expect(dialog.locator("[data-kind=report]")).to_be_visible()
    expect(dialog.locator("[data-kind=remove]")).to_have_count(0)
    expect(dialog.locator("[data-remove-later]")).to_have_count(0)
    gert.keyboard.press("Escape")
    expect(gert.locator(".badge.host")).to_have_count(0)
    expect(gert.locator("[data-overlay=restart]")).to_have_count(0)

    play_out([gert, hanna])
    for page in (gert, hanna):  # game over: the rematch vote and Queue again, no host's new game
        scores = page.locator(".dialog-scores")
        expect(scores.locator("[data-action=rematch]")).to_have_text("Play again with the same people")
        expect(scores.locator("[data-action=queue_again]")).to_have_text("Queue again")
        expect(page.locator("[data-action=new_game]")).to_have_count(0)
        expect(page.locator(".next-waiting")).to_have_count(0)  # no "the host can start a new game"
        expect(page.locator("[data-overlay=restart]")).to_have_count(0)
    shot(gert, "play-now-game-over-390x844")

    gert.click(".dialog-scores [data-action=queue_again]")
    gert.wait_for_function(f"() => {{ const t = window.hartenjagen.state.table; return t && t.code !== '{code}'; }}")
    screen = gert.locator("[data-play-now-wait]")
    expect(screen.locator(".pn-count")).to_have_text("1 of 4 seats taken")
    expect(screen.locator(".lobby-rules")).to_contain_text("Black Maria")
    left = int(screen.locator(".pn-fill").get_attribute("data-fill-in"))
    assert 250 <= left <= 300, left  # his own wait again
    assert gert.evaluate("() => location.pathname") != f"/t/{code}"
    shot(gert, "play-now-queued-again-390x844")

    hanna.click(".dialog-scores [data-action=rematch]")  # the others play again: a computer player in Gert's seat
    hanna.wait_for_function(
        "() => { const t = window.hartenjagen.state.table;"
        " return t.status === 'playing' && t.view && !t.view.game_over; }"
    )
    kinds = hanna.evaluate("() => window.hartenjagen.state.table.seats.map((s) => s.kind)")
    assert kinds[gert_seat] == "computer" and kinds[hanna_seat] == "person" and "empty" not in kinds
    gert.click("[data-play-now-wait] [data-leave-queue]")
    gert.wait_for_selector("form[data-form=play_now]")


def test_players_below_the_minimum_are_listed_voorlopig_under_the_ranked_in_dutch(open_page, shot):
    ranked = [{"place": n, "name": f"Speler {n}", "rating": 1300 - n, "uncertainty": 90, "score": 1030 - n, "games": 9}
              for n in (1, 2)]  # fmt: skip
    below = [{"place": None, "name": name, "rating": 1211, "uncertainty": 300, "score": 311, "games": 1,
              "provisional": True} for name in ("Femke", "Gert")]  # fmt: skip
    board = {"family": "classic", "period": "all", "min_games": 5, "top": ranked, "provisional": below, "you": None,
             "players": 2}  # fmt: skip
    page = open_page("/", viewport=TALL, locale="nl-NL", name="Femke")
    page.route("**/api/leaderboard/**", lambda route: route.fulfill(status=200, content_type="application/json",
                                                                    body=json.dumps(board)))  # fmt: skip
    page.click("#top [data-action=open][data-overlay=stats]")
    page.click(".dialog [data-action=open][data-overlay=board]")
    rows = page.locator(".dialog-board table.leaderboard tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.locator(".who")).to_have_text(["Speler 1", "Speler 2", "Femke voorlopig", "Gert voorlopig"])
    expect(rows.nth(2).locator(".place")).to_have_text("–")
    expect(page.locator(".board-provisional-note")).to_have_text(
        "Voorlopig: nog minder dan 5 spellen met rating; nog zonder plaats."
    )
    shot(page, "leaderboard-voorlopig-390x844")
