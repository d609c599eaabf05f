"""A rated game (four people who pressed Play now): on a wide screen each person's rating stands beside their seat
while they play (phones keep their seat panels short); at game over the score table lists every person's rating
before and after the game and how far it moved, in English and Dutch, with the numbers the server's rating model
stored; the one main step there is playing again with the same people, Queue again a smaller button beside it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, no_horizontal_scroll
from .test_play_now import LANDSCAPE, TALL, play_out, press_play_now

HEADS = {"en": ["Player", "Before", "After", "Change"], "nl": ["Speler", "Voor", "Na", "Verschil"]}
TITLE = {"en": "Ratings after this game", "nl": "Ratings na dit spel"}
YOU = {"en": "(you)", "nl": "(jij)"}


def _table(page: Page) -> dict:
    return page.evaluate("() => window.hartenjagen.state.table")


def _seat_ratings(page: Page) -> dict[int, int]:
    """The rating beside each seat on the screen: seat -> the number shown."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.table-screen .player[data-seat]')]
            .filter((p) => p.querySelector('.rating'))
            .map((p) => [p.dataset.seat, Number(p.querySelector('.rating').dataset.rating)]))"""
    )


def _signed(change: int) -> str:
    return f"+{change}" if change >= 0 else f"−{-change}"


def test_a_rated_game_shows_ratings_beside_the_seats_and_every_rating_change_at_game_over(open_page, shot):
    people = [
        ("Eefje", DESKTOP, "en-GB"),
        ("Frits", TALL, "nl-NL"),
        ("Gerrit", LANDSCAPE, "en-GB"),
        ("Ineke", DESKTOP, "nl-NL"),
    ]
    # Play now seats people of one language together: all press it in English, then two switch the page to Dutch.
    pages = [open_page("/", viewport=size) for _, size, _ in people]
    for page, (name, _, _) in zip(pages, people, strict=True):
        press_play_now(page, name, end_score=25, wait=120)
    for page, (_, _, locale) in zip(pages, people, strict=True):
        page.wait_for_selector(".hand .card")
        expect(page.locator("#top [data-rated]")).to_be_visible()
        if locale == "nl-NL":
            page.click("#top [data-action=lang][data-lang=nl]")
            expect(page.locator("html")).to_have_attribute("lang", "nl")
    anna, bram, carla, daan = pages

    # Wide screens: every person's rating beside their seat, the rating the server sent for that seat.
    for page in (anna, daan):
        expect(page.locator(".table-screen .player .rating")).to_have_count(4)
        for badge in page.locator(".table-screen .player .rating").all():
            expect(badge).to_be_visible()
            expect(badge).to_have_text(re.compile(r"^rating \d{3,4} ± \d{2,3}$"))
        ratings = _table(page)["ratings"]
        assert _seat_ratings(page) == {str(s): r["rating"] for s, r in enumerate(ratings)}
    shot(anna, "playing-1280x800")
    # Phones (upright, on their side): the seat panels stay short, without the rating.
    for page in (bram, carla):
        expect(page.locator(".table-screen .player .rating")).to_have_count(4)
        for badge in page.locator(".table-screen .player .rating").all():
            expect(badge).to_be_hidden()
    shot(bram, "playing-390x844")

    play_out(pages)
    # Game over: each page lists the four people's ratings before and after, once the server has stored them.
    moved: dict[int, dict] = {}
    for page, (name, _, locale) in zip(pages, people, strict=True):
        lang = locale[:2]
        section = page.locator(".dialog-scores .rating-moves")
        expect(section.locator("tbody tr")).to_have_count(4)
        expect(section.locator("h3")).to_have_text(TITLE[lang])
        expect(section.locator("thead th")).to_have_text(HEADS[lang])
        moves = _table(page)["rating_moves"]  # what the server sent: its rating model's numbers
        me = _table(page)["you"]
        rows = section.locator("tbody tr")
        assert rows.first.get_attribute("data-seat") == str(me)  # you first
        expect(rows.first).to_have_class(re.compile(r"\byou\b"))
        expect(rows.first.locator("th")).to_have_text(f"{name} {YOU[lang]}")
        for row in rows.all():
            seat = int(row.get_attribute("data-seat"))
            before, after = moves[seat]["before"], moves[seat]["after"]
            expect(row.locator(".rm-before")).to_have_text(str(before))
            expect(row.locator(".rm-after")).to_have_text(str(after))
            expect(row.locator(".rm-change")).to_have_text(_signed(after - before))
            moved[seat] = moves[seat]
        # Play now has no host: one main step (playing again with the same people), Queue again a smaller button
        dialog = page.locator(".dialog-scores")
        expect(dialog.locator("button.primary")).to_have_count(1)
        expect(dialog.locator(".main-step button.primary")).to_have_attribute("data-action", "rematch")
        expect(dialog.locator(".more-actions [data-action=queue_again]")).to_be_visible()
        expect(dialog.locator("[data-action=more_steps]")).to_have_count(0)
        assert no_horizontal_scroll(page)
    assert all(m["before"] == 1000 for m in moved.values()), moved  # four newcomers
    changes = [m["after"] - m["before"] for m in moved.values()]
    assert max(changes) > 0 > min(changes), changes  # the winner gains, the last loses
    shot(anna, "game-over-1280x800")
    shot(bram, "game-over-390x844-nl")
    shot(carla, "game-over-844x390")
    shot(daan, "game-over-1280x800-nl")

    # Once stored, the rating beside each seat is the new one: the same number the score table gives as "after".
    anna.keyboard.press("Escape")
    anna.wait_for_function(
        "n => { const r = window.hartenjagen.state.table.ratings; return r && r.every((x, s) => x.rating === n[s]); }",
        arg=[moved[s]["after"] for s in range(4)],
    )
    assert _seat_ratings(anna) == {str(s): moved[s]["after"] for s in range(4)}
    shot(anna, "after-game-1280x800")
