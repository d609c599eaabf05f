"""Passing and playing from the keyboard (one Tab from the cards to the pass button, and the keys said once the
keyboard came to the hand), and the words for the pointer in hand: "click" with a mouse, "tap" on a touch screen."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, create_table, fill_and_start, no_horizontal_scroll, play_one_legal, resize, view
from .test_sides_seats_and_panels import PHONE_TALL

LANDSCAPE = {"width": 844, "height": 390}

KEYS_PASS = {
    "en": "Keys: ← → move between cards, Enter chooses one; Tab goes on to the pass button.",
    "nl": "Toetsen: ← → gaat naar een kaart, Enter kiest hem; Tab gaat verder naar de knop om door te geven.",
}
KEYS_PLAY = {
    "en": "Keys: ← → move between cards, Enter plays one; Tab goes on to the buttons.",
    "nl": "Toetsen: ← → gaat naar een kaart, Enter speelt hem; Tab gaat verder naar de knoppen.",
}
READY = {  # three cards chosen for West: what is left to do, with the word for this pointer
    ("en", "mouse"): "3 cards chosen for Ellen (the left). Pass them, or click a card to change your choice.",
    ("nl", "touch"): "3 kaarten gekozen voor Ellen (links). Geef ze door, of tik op een kaart om je keuze te "
    "veranderen.",
}
CLOSE = {
    ("en", "mouse"): "Click anywhere or press Escape to close.",
    ("nl", "mouse"): "Klik ergens of druk op Escape om te sluiten.",
    ("en", "touch"): "Tap anywhere to close.",
    ("nl", "touch"): "Tik ergens om te sluiten.",
}


def choose_three_by_keyboard(page: Page) -> None:
    """With the focus on a card of the hand: Enter chooses it, the right arrow goes on; three times."""
    for _ in range(3):
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    expect(page.locator(".hand .card.selected")).to_have_count(3)


def pass_with_tab_and_enter(page: Page) -> None:
    """From a card of the hand one Tab reaches the pass button, and Enter passes."""
    page.keyboard.press("Tab")
    expect(page.locator(".status [data-action=pass]")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.hartenjagen.state.table.view.passed !== null")


MY_TURN = """() => { const s = window.hartenjagen.state; const v = s.table.view;
    return v.phase === 'playing' && v.turn === v.seat && !s.inFlight; }"""


def turn_with_a_trick_taken(page: Page) -> None:
    """Play the first card that stands up at each turn until this seat is to play with a trick already taken."""
    for _ in range(13):
        page.wait_for_function(MY_TURN)
        if view(page)["tricks"]:
            return
        play_one_legal(page)
    raise AssertionError("no turn after the first trick")


def last_trick_close_text(page: Page, tap: bool) -> str:
    """Open the last trick, read its closing line, close it again (a tap or a click anywhere)."""
    opener = ".status [data-action=open][data-overlay=last_trick]"
    if tap:
        page.tap(opener)
    else:
        page.click(opener)
    text = page.locator(".dialog-last_trick p.muted").last.inner_text()
    page.keyboard.press("Escape")
    expect(page.locator(".dialog-last_trick")).to_have_count(0)
    return text


def test_a_mouse_and_keyboard_player_passes_with_one_tab_and_reads_click(open_page, shot):
    page = open_page("/", viewport=DESKTOP, name="Anna")
    create_table(page)
    fill_and_start(page)
    page.locator('.hand .card[tabindex="0"]').focus()
    choose_three_by_keyboard(page)
    # the status says what is left to do with a mouse's word, and, while a card has the keyboard focus, the keys
    expect(page.locator(".status .turn-line")).to_contain_text(READY[("en", "mouse")])
    hint = page.locator(".status .key-hint")
    expect(hint).to_be_visible()
    expect(hint).to_have_text(KEYS_PASS["en"])
    expect(page.locator(".hand")).to_have_attribute("aria-describedby", "key-hint")
    assert no_horizontal_scroll(page)
    shot(page, "keys-passing-desktop-en")
    pass_with_tab_and_enter(page)

    # in play: on her turn the keys are said again, and one Tab goes from the cards to the buttons under the table
    turn_with_a_trick_taken(page)
    page.locator('.hand .card[tabindex="0"]').focus()
    page.keyboard.press("ArrowRight")
    expect(hint).to_have_text(KEYS_PLAY["en"])
    expect(hint).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.locator(".status .buttons button").first).to_be_focused()
    expect(hint).to_be_visible()  # said for as long as the hand waits for her: nothing moves under a click
    page.click("[data-action=lang][data-lang=nl]")
    page.locator('.hand .card[tabindex="0"]').focus()
    page.keyboard.press("ArrowLeft")
    expect(hint).to_have_text(KEYS_PLAY["nl"])
    shot(page, "keys-playing-desktop-nl")

    # the last trick: closed with a click or Escape, said with a mouse's words in both languages
    assert last_trick_close_text(page, tap=False) == CLOSE[("nl", "mouse")]
    page.click("[data-action=lang][data-lang=en]")
    assert last_trick_close_text(page, tap=False) == CLOSE[("en", "mouse")]


def test_on_a_touch_phone_the_words_say_tap_and_the_keys_still_work(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, name="Anna", locale="nl-NL", touch=True)
    create_table(page)
    page.tap("[data-action=fill_computers]")
    page.tap("[data-action=start]:not([disabled])")
    page.wait_for_selector(".hand .card")
    for card in page.locator(".hand .card").all()[:3]:
        card.tap()
    expect(page.locator(".hand .card.selected")).to_have_count(3)
    expect(page.locator(".status .turn-line")).to_contain_text(READY[("nl", "touch")])
    hint = page.locator(".status .key-hint")
    expect(hint).to_be_hidden()  # a tap is no keyboard: the keys are not said
    assert no_horizontal_scroll(page)
    shot(page, "tap-passing-phone-nl")
    # a keyboard on the phone: the arrow moves the focus, the keys are said, and Tab reaches the pass button
    page.locator('.hand .card[tabindex="0"]').focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    expect(hint).to_be_visible()
    expect(hint).to_have_text(KEYS_PASS["nl"])
    shot(page, "keys-passing-phone-nl")
    pass_with_tab_and_enter(page)

    turn_with_a_trick_taken(page)
    # the phone on its side has no line to spare: the keys are said to screen readers only, and nothing scrolls
    resize(page, LANDSCAPE)
    expect(page.locator(".hand")).to_have_attribute("aria-describedby", "key-hint")
    assert page.evaluate("() => document.getElementById('key-hint').getBoundingClientRect().height") <= 1
    assert page.evaluate("() => document.documentElement.scrollHeight <= window.innerHeight")
    shot(page, "keys-playing-landscape-nl")
    resize(page, PHONE_TALL)
    assert last_trick_close_text(page, tap=True) == CLOSE[("nl", "touch")]
    page.tap("[data-action=lang][data-lang=en]")
    page.tap(".status [data-action=open][data-overlay=last_trick]")
    expect(page.locator(".dialog-last_trick")).to_contain_text(CLOSE[("en", "touch")])
    shot(page, "last-trick-phone-en")
