"""Every on/off option is a switch that says its state: a role switch named by its label, checked or not, with the
word on or off beside a knob; pressing it (a click or the keyboard) turns it over, and the focus stays on it. At a
table nobody hosts, the computer players' speed that applies is shown read-only."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, create_table, no_horizontal_scroll, resize
from .test_play_now import press_play_now
from .test_sides_seats_and_panels import PHONE_TALL

SWITCHES = {  # the preference each switch changes, its name in English and Dutch, and whether it starts on
    "fourColour": ("Four-colour suits", "Vierkleurige symbolen", False),
    "sound": ("Sound", "Geluid", True),
    "autoPlay": (
        "Play automatically when only one card is legal",
        "Automatisch spelen als er maar één kaart mag",
        False,
    ),
}
pytestmark = pytest.mark.sound_on  # the Sound switch starts as a player's does: on

WORDS = {"en": {True: "on", False: "off"}, "nl": {True: "aan", False: "uit"}}


def open_options(page: Page) -> None:
    page.click("#top [data-overlay=options]")
    page.wait_for_selector(".dialog-options")


def check_switch(page: Page, name: str, on: bool, lang: str) -> None:
    """The switch named ``name`` says ``on`` by its checked state and in words."""
    switch = page.get_by_role("switch", name=name, exact=True)
    expect(switch).to_have_attribute("aria-checked", "true" if on else "false")
    expect(switch.locator(".switch-word")).to_have_text(WORDS[lang][on])


def test_each_on_off_option_is_a_switch_that_says_its_state_and_turns_over(open_page, shot):
    page = open_page("/", viewport=DESKTOP, name="Anna")
    open_options(page)
    dialog = page.locator(".dialog-options")
    expect(dialog.get_by_role("switch")).to_have_count(len(SWITCHES))
    for pref, (en, _, on) in SWITCHES.items():
        check_switch(page, en, on, "en")
        assert page.evaluate("p => window.hartenjagen.state.prefs[p]", pref) is on
    shot(page, "switches-desktop-1280-en")

    # a click turns the automatic play on; the keyboard (Space) turns the sound off, and the focus stays on it
    page.get_by_role("switch", name=SWITCHES["autoPlay"][0]).click()
    check_switch(page, SWITCHES["autoPlay"][0], True, "en")
    sound = page.get_by_role("switch", name="Sound")
    sound.focus()
    page.keyboard.press("Space")
    check_switch(page, "Sound", False, "en")
    expect(sound).to_be_focused()
    prefs = page.evaluate("() => window.hartenjagen.state.prefs")
    assert (prefs["autoPlay"], prefs["sound"]) == (True, False)

    # kept, and said in Dutch on a phone
    page.reload()
    resize(page, PHONE_TALL)
    open_options(page)
    page.click(".dialog-options [data-lang=nl]")
    check_switch(page, SWITCHES["fourColour"][1], False, "nl")
    check_switch(page, SWITCHES["sound"][1], False, "nl")
    check_switch(page, SWITCHES["autoPlay"][1], True, "nl")
    assert no_horizontal_scroll(page)
    shot(page, "switches-phone-390-nl")


def test_the_host_s_watching_setting_at_the_table_is_a_switch_too(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    create_table(page)
    page.click("[data-action=fill_computers]")
    page.click("[data-action=start]:not([disabled])")
    page.wait_for_selector(".hand .card")
    open_options(page)
    watch = page.get_by_role("switch", name="Others may watch")
    expect(watch).to_have_attribute("aria-checked", "true")
    watch.click()
    page.wait_for_function("() => window.hartenjagen.state.table.watch.allowed === false")
    expect(watch).to_have_attribute("aria-checked", "false")
    expect(watch.locator(".switch-word")).to_have_text("off")
    page.click(".dialog-options [data-lang=nl]")
    expect(page.get_by_role("switch", name="Anderen mogen meekijken")).to_have_attribute("aria-checked", "false")
    assert no_horizontal_scroll(page)
    shot(page, "watch-switch-phone-390-nl")


def test_at_a_play_now_table_the_computer_speed_it_keeps_is_shown_read_only(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    open_options(page)
    page.click(".dialog-options [data-pref=computerPace][data-value=slow]")
    page.keyboard.press("Escape")
    press_play_now(page, "Anna", end_score=50, wait=120)
    page.wait_for_selector("[data-play-now-wait]")
    open_options(page)
    # nobody hosts a Play now table: its speed is what applies, shown and not changed; her own waits for her tables
    expect(page.locator(".dialog-options [data-pref=computerPace][aria-pressed=true]")).to_have_text("normal")
    expect(page.locator(".dialog-options [data-pref=computerPace]:disabled")).to_have_count(3)
    expect(page.locator(".dialog-options [data-pace-note]")).to_have_text(
        "Nobody hosts this table: its computer players keep this speed. Your own choice applies at tables you host."
    )
    page.click(".dialog-options [data-lang=nl]")
    expect(page.locator(".dialog-options [data-pace-note]")).to_have_text(
        "Deze tafel heeft geen host: de computerspelers houden deze snelheid. Je eigen keuze geldt aan tafels waar jij"
        " de host bent."
    )
    assert page.evaluate("() => window.hartenjagen.state.prefs.computerPace") == "slow"
    assert no_horizontal_scroll(page)
    shot(page, "pace-play-now-phone-390-nl")
    page.keyboard.press("Escape")
    page.click("[data-play-now-wait] [data-action=leave]")  # out of the queue: no other test meets this table
    page.wait_for_selector("form[data-form=play_now]")
