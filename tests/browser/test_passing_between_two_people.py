"""Two people at one table: who has passed is plain to see, "waiting for…" names whom, the
cards you passed and received stay in view (the received ones marked until your first card, also after a
reload), and when the next hand is dealt the score table closes for everyone."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PHONE, create_table, hand_cards, play_pages, view


def _pass_first_three(page) -> list[str]:
    cards = hand_cards(page)[:3]
    for card in cards:
        page.locator(f'.hand .card[data-card="{card}"]').click()
    page.click("[data-action=pass]")
    page.wait_for_function("() => window.hartenjagen.state.table.view.passed !== null")
    return cards


def _has_played(page) -> bool:
    v = view(page)
    tricks = v["tricks"] + ([v["trick"]] if v["trick"] else [])
    return any(c["seat"] == v["seat"] for t in tricks for c in t["cards"])


def test_passing_marks_names_and_exchange_lines_and_both_score_tables_close_on_the_next_deal(open_page, shot):
    anna = open_page("/", name="Anna")
    code = create_table(anna)  # the first hand passes to the left: Anna (South) to Bram (West)
    bram = open_page("/", viewport=PHONE, locale="nl-NL", name="Bram")
    bram.fill("#code", code)
    bram.click("form[data-form=join] button[type=submit]")
    bram.wait_for_selector(".lobby")
    anna.click("[data-action=fill_computers]")
    anna.click("[data-action=start]:not([disabled])")
    for page in (anna, bram):
        page.wait_for_selector(".hand .card")

    # The computer players pass at once: a clear mark on their seats, not on Bram's yet.
    expect(anna.locator(".opp .badge.passed")).to_have_count(2)
    expect(anna.locator('.opp [data-seat="1"] .badge.passed')).to_have_count(0)
    expect(anna.locator('.opp [data-seat="2"] .badge.passed')).to_have_text("✓ passed")

    # Bram passes first: he is told whom he waits for; Anna sees his mark.
    _pass_first_three(bram)
    expect(bram.locator(".status .turn-line")).to_contain_text("Wachten tot Anna heeft doorgegeven…")
    expect(bram.locator(".opp .badge.passed")).to_have_count(2)
    expect(bram.locator(".opp .badge.passed").first).to_have_text("✓ doorgegeven")
    expect(anna.locator('.opp [data-seat="1"] .badge.passed')).to_have_text("✓ passed")
    shot(anna, "passed-marks-desktop-en")
    shot(bram, "waiting-for-anna-phone-nl")

    passed = _pass_first_three(anna)
    for page in (anna, bram):
        page.wait_for_function("() => window.hartenjagen.state.table.view.phase === 'playing'")

    # Anna's passed cards and their taker stay in view; Bram's received cards are marked and named.
    line = anna.locator(".status .passed-line")
    expect(line).to_contain_text("Passed to Bram:")
    assert set(line.get_attribute("data-passed").split()) == set(passed)
    expect(bram.locator(".status .received-line")).to_contain_text("Gekregen van Anna")
    assert set(view(bram)["received"]) == set(passed)
    received = bram.locator(".hand .card.received")
    expect(received).to_have_count(3)
    bram_to = bram.evaluate("() => { const t = window.hartenjagen.state.table; return t.seats[t.view.pass_to].name; }")
    expect(bram.locator(".status .passed-line")).to_contain_text(f"Doorgegeven aan {bram_to}:")
    shot(anna, "exchange-lines-desktop-en")
    shot(bram, "exchange-lines-phone-nl")

    # Received cards stay marked after a reload, as long as Bram has not played.
    if not _has_played(bram):
        bram.reload()
        bram.wait_for_selector(".hand .card")
        expect(bram.locator(".hand .card.received")).to_have_count(3)

    # ... until his first card; what he passed stays in view all hand.
    play_pages([anna, bram], stop=lambda: _has_played(bram), moves=("play",))
    expect(bram.locator(".hand .card.received")).to_have_count(0)
    expect(bram.locator(".status .received-line")).to_have_count(0)
    expect(bram.locator(".status .passed-line")).to_contain_text(f"Doorgegeven aan {bram_to}:")
    shot(bram, "after-first-card-phone-nl")

    # The end of the hand: both see the score table; Anna, ready first, is told whom she waits for.
    play_pages(
        [anna, bram],
        stop=lambda: view(anna)["phase"] == "hand_over" and view(bram)["phase"] == "hand_over",
        moves=("play",),
    )
    expect(anna.locator(".status .passed-line")).to_contain_text("Passed to Bram:")
    for page in (anna, bram):
        page.wait_for_selector(".dialog-scores")
    anna.click(".dialog-scores [data-action=ready]")
    expect(anna.locator(".dialog-scores")).to_contain_text("Waiting for Bram…")
    expect(anna.locator(".status .turn-line")).to_contain_text("Waiting for Bram…")
    shot(anna, "waiting-for-bram-desktop-en")
    expect(bram.locator(".dialog-scores [data-action=ready]")).to_have_text("Volgende ronde")
    bram.click(".dialog-scores [data-action=ready]")

    # The next hand is dealt: the score table closes for both of them.
    for page in (anna, bram):
        page.wait_for_function("() => window.hartenjagen.state.table.view.hand_no === 1")
        expect(page.locator(".dialog")).to_have_count(0)
        expect(page.locator(".hand .card")).to_have_count(13)
    shot(anna, "next-hand-desktop-en")
    shot(bram, "next-hand-phone-nl")
