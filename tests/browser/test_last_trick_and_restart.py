"""The last trick on demand during play, and the host starting the game over with the same cards."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PHONE, create_table, fill_and_start, hand_cards, play_one_legal, resize, view

MY_TURN_AFTER_A_TRICK = """() => {
    const v = window.hartenjagen.state.table.view;
    return v.phase === 'playing' && v.turn === v.seat && v.tricks.length >= 1;
}"""


def _seat_name(page, seat: int) -> str:
    return page.evaluate("s => window.hartenjagen.state.table.seats[s].name", seat)


def test_last_trick_shows_its_four_cards_and_who_took_it(open_page, shot):
    page = open_page("/", name="Anna")
    create_table(page, passing="off")
    fill_and_start(page)
    expect(page.locator("[data-action=open][data-overlay=last_trick]")).to_have_count(0)  # no trick yet
    while not page.evaluate(MY_TURN_AFTER_A_TRICK):
        play_one_legal(page)
        page.wait_for_function(
            "() => { const v = window.hartenjagen.state.table.view;"
            " return v.turn === v.seat || v.phase !== 'playing'; }"
        )
    last = view(page)["tricks"][-1]

    button = page.locator("[data-action=open][data-overlay=last_trick]")
    button.focus()
    page.keyboard.press("Enter")  # a button like any other: the keyboard opens it too
    dialog = page.locator(".dialog-last_trick")
    expect(dialog.locator(".lt-card")).to_have_count(4)
    shown = dialog.locator(".lt-card .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert shown == [c["card"] for c in last["cards"]]  # in the order they were played
    for c in last["cards"]:
        expect(dialog.locator(f'.lt-card[data-seat="{c["seat"]}"]')).to_contain_text(_seat_name(page, c["seat"]))
    expect(dialog.locator(".lt-card.won")).to_have_attribute("data-seat", str(last["winner"]))
    mine = last["winner"] == view(page)["seat"]
    taker = "You take the trick" if mine else f"{_seat_name(page, last['winner'])} takes the trick"
    expect(dialog.locator(".lt-taker")).to_have_text(taker)
    shot(page, "desktop")

    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(page.locator(".hand .card.legal").first).to_be_visible()  # and the game goes on

    # On a phone in Dutch: a tap anywhere on it closes it.
    resize(page, PHONE)
    page.click("[data-action=lang][data-lang=nl]")
    button = page.locator("[data-action=open][data-overlay=last_trick]")
    expect(button).to_have_text("Laatste slag")
    button.click()
    expect(dialog.locator(".lt-card")).to_have_count(4)
    expect(dialog.locator(".lt-taker")).to_contain_text("Jij neemt de slag" if mine else "pakt de slag")
    shot(page, "phone-nl")
    dialog.locator(".lt-cards").click()
    expect(dialog).to_have_count(0)


def test_the_host_starts_over_with_the_same_cards_after_a_confirmation(open_page, shot):
    page = open_page("/", viewport=PHONE, name="Anna")
    create_table(page, passing="off")
    fill_and_start(page)
    dealt = sorted(hand_cards(page))
    assert len(dealt) == 13
    play_one_legal(page)
    play_one_legal(page)
    assert len(hand_cards(page)) == 11

    # Cancel keeps the game as it is.
    page.click("[data-action=open][data-overlay=restart]")
    dialog = page.locator(".dialog-restart")
    expect(dialog).to_contain_text("Start this game over with the same cards?")
    page.click(".dialog-restart [data-action=close]:not(.close)")
    expect(dialog).to_have_count(0)
    assert len(hand_cards(page)) == 11

    page.click("[data-action=open][data-overlay=restart]")
    shot(page, "confirm")
    dialog.locator("[data-action=restart_confirm]").click()
    expect(dialog).to_have_count(0)
    page.wait_for_function(
        "() => { const v = window.hartenjagen.state.table.view; return v.hand_no === 0 && v.hand.length === 13; }"
    )
    expect(page.locator(".hand .card")).to_have_count(13)
    assert sorted(hand_cards(page)) == dealt  # the same cards as before
    v = view(page)
    assert v["history"] == [] and v["totals"] == [0, 0, 0, 0] and v["tricks"] == []
    expect(page.locator(".status .notice")).to_contain_text("starts over with the same cards")
    shot(page, "restarted")
    play_one_legal(page)  # the new game is played as usual
