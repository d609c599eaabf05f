"""Two people at one table, each in their own browser: seated together, and never shown the other's cards."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PHONE, create_table, hand_cards, view


def dom_cards(page) -> set[str]:
    return set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))


def assert_hidden(viewer, other_hand: list[str]) -> None:
    """No element of the viewer's page names one of the other player's unplayed cards."""
    leaked = dom_cards(viewer) & set(other_hand)
    assert not leaked, f"the other player's cards are in this page: {leaked}"
    html = viewer.content()
    for card in other_hand:
        assert f'"{card}"' not in html


def test_two_contexts_join_by_code_see_each_other_and_never_the_other_hand(open_page, shot):
    anna = open_page("/", name="Anna")
    code = create_table(anna)
    bram = open_page("/", viewport=PHONE, locale="nl-NL", name="Bram")
    bram.fill("#code", code.lower())
    bram.click("form[data-form=join] button[type=submit]")
    bram.wait_for_selector(".lobby")

    # Both see both names in the waiting room; Bram took the first empty seat, West.
    expect(anna.locator(".seats")).to_contain_text("Bram")
    expect(bram.locator(".seats")).to_contain_text("Anna")
    expect(bram.locator(".lobby .code")).to_have_text(code)
    expect(bram.locator(".seat-card.pos-bottom")).to_contain_text("Bram")
    expect(anna.locator(".seat-card.pos-left")).to_contain_text("Bram")
    expect(bram.locator(".seat-card.pos-right")).to_contain_text("Anna")  # South sits right of West
    shot(anna, "anna-waiting")
    shot(bram, "bram-waiting")

    anna.click("[data-action=fill_computers]")
    anna.click("[data-action=start]:not([disabled])")
    anna.wait_for_selector(".hand .card")
    bram.wait_for_selector(".hand .card")
    expect(anna.locator('.opp [data-seat="1"]')).to_contain_text("Bram")
    expect(bram.locator('.opp [data-seat="0"]')).to_contain_text("Anna")

    a_hand, b_hand = hand_cards(anna), hand_cards(bram)
    assert len(a_hand) == len(b_hand) == 13 and not set(a_hand) & set(b_hand)
    assert_hidden(anna, b_hand)
    assert_hidden(bram, a_hand)
    shot(anna, "anna-deal")
    shot(bram, "bram-deal")

    # Both pass; Anna passes to Bram (left). Afterwards each still sees only their own hand.
    for page in (anna, bram):
        for card in hand_cards(page)[:3]:
            page.locator(f'.hand .card[data-card="{card}"]').click()
        page.click("[data-action=pass]")
    for page in (anna, bram):
        page.wait_for_function("() => window.hartenjagen.state.table.view.phase === 'playing'")
        page.wait_for_selector(".hand .card.received")
    assert set(view(bram)["received"]) == set(a_hand[:3])
    a_hand, b_hand = view(anna)["hand"], view(bram)["hand"]
    expect(anna.locator(".hand .card")).to_have_count(13)
    expect(bram.locator(".hand .card")).to_have_count(13)
    played = {c["card"] for c in (view(anna)["trick"] or {"cards": []})["cards"]}
    assert_hidden(anna, [c for c in b_hand if c not in played])
    assert_hidden(bram, [c for c in a_hand if c not in played])
    shot(bram, "bram-playing")
