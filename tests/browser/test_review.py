"""The hand review in the browser: asked for at game over, and in the replay viewer with marks on the timeline and the
better card highlighted in your own hand; on a phone in both orientations."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from .conftest import (
    PHONE,
    create_table,
    fill_and_start,
    hearts_serve,
    no_horizontal_scroll,
    play_until_game_over,
    resize,
)

LANDSCAPE = {"width": 640, "height": 360}


@pytest.fixture(scope="module")
def review_url() -> Iterator[str]:
    """A server whose reviews search with a small budget (the default second per decision is for real players), and
    whose review requests answer 202 (ask again) at once, as a long review does at the default budget."""
    with hearts_serve("--review-ms", "20", "--review-wait", "0") as url:
        yield url


def test_a_finished_game_is_reviewed_at_the_table_and_in_the_replay_viewer(open_page, review_url, shot):
    page = open_page("/", name="Anna", server=review_url)
    page.fill("#opt-classic-end_score", "25")
    create_table(page)
    fill_and_start(page)
    play_until_game_over(page)

    # At game over: the review of the last hand, asked for in the score table.
    scores = page.locator(".dialog-scores")
    scores.locator("[data-action=review_hand]").click()
    review = scores.locator(".hand-review .review")
    expect(review).to_be_visible(timeout=60_000)
    expect(review.locator(".rv-summary")).to_contain_text("This hand you gave away about")
    items = review.locator(".rv-item")
    assert items.count() >= 13  # every card Anna played (and her pass, when the last hand had one)
    shot(page, "table-review")

    # The replay viewer: the review of a hand with its marks on the timeline, the first hand in which the first card
    # that stands up cost Anna points (nearly always hand 1; a deal where every such card was as good as the best is
    # not this test's failure).
    scores.locator("[data-action=replay]").click()
    expect(page.locator(".replay .rp-seat")).to_have_count(4)
    section = page.locator(".rp-review .review")
    marked = 0
    for hand in range(page.locator("[data-action=replay_hand]").count()):
        page.locator(f'[data-action=replay_hand][data-hand="{hand}"]').click()
        page.locator("[data-action=replay_review]").click()
        expect(section).to_be_visible(timeout=60_000)
        passed = hand % 4 != 3  # left, right, across, then a hand without passing
        expect(section.locator(".rv-item")).to_have_count(14 if passed else 13)  # the pass and thirteen cards
        marked = int(section.get_attribute("data-marked"))
        if marked:
            break
    assert marked >= 1, "playing the first card that stands up should cost points in some hand"
    expect(page.locator(".rv-timeline .rv-dot")).to_have_count(marked)

    # A marked decision opens its step: the better card stands out in Anna's hand, the one she chose is marked too.
    first = section.locator(".rv-item.marked").first
    first.locator("[data-action=replay_step]").click()
    expect(page.locator(".rv-item.current")).to_have_count(1)
    expect(page.locator('.rp-seat[data-seat="0"] .card.better').first).to_be_visible()
    expect(page.locator(".rv-dot.current")).to_have_count(1)
    shot(page, "replay-review")

    # On a phone, in both orientations: the review and its timeline fit, nothing wider than the screen.
    for size, viewport in (("portrait", PHONE), ("landscape", LANDSCAPE)):
        resize(page, viewport)
        expect(page.locator(".rv-timeline")).to_be_visible()
        assert no_horizontal_scroll(page)
        shot(page, f"phone-{size}-replay")
        page.locator(".rp-review").scroll_into_view_if_needed()
        shot(page, f"phone-{size}-review-list")
