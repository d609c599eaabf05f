"""A newcomer's first screen: both ways to play, with friends (a table of one's own) and with strangers (Play now),
in view on a desktop and on a phone, upright and on its side; one control for how long a game lasts in both forms,
its common lengths one tap away and a number out of range said in the page's own words (never the browser's); the
Play now form says before the press that its tables run a 30-second turn clock; and the Dutch of the devices
heading reads naturally."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import DESKTOP, no_horizontal_scroll, resize

TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}


def test_on_a_desktop_both_ways_to_play_are_in_the_first_screen_and_a_short_game_is_one_tap(open_page, shot):
    page = open_page("/", viewport=DESKTOP, name="Anna")
    strangers = page.locator("#play-now-form")
    friends = page.locator("#create-form")
    expect(strangers.locator(".kicker")).to_have_text("Play with strangers")
    expect(friends.locator(".kicker")).to_have_text("Play with friends")
    expect(friends.locator(".create-intro")).to_have_text(
        "Open a table, then send your friends its link. Computer players can take the seats nobody takes."
    )
    for part in (strangers.locator("h2"), strangers.locator(".play-now-button"), friends.locator("h2"),
                 friends.locator("#variant"), friends.locator("#opt-classic-end_score")):  # fmt: skip
        expect(part).to_be_in_viewport(ratio=1)
    expect(page.locator(".ways")).to_be_hidden()  # both forms are in view: no need to point at them
    # before the press: Play now's turn clock
    expect(strangers.locator(".pn-clock-note")).to_have_text(
        "Play now tables have a 30-second turn clock: when it runs out, a computer player makes that move for you."
    )
    assert no_horizontal_scroll(page)
    shot(page, "first-screen-1280x800")

    # A game to 20 points: the page says what it takes, at the field, in its own words; no table is made.
    end = page.locator("#opt-classic-end_score")
    end.fill("20")
    page.click("#create-form button[type=submit]")
    error = page.locator("#opt-classic-end_score-error")
    expect(error).to_have_text("Choose a whole number from 25 to 500.")
    expect(end).to_have_attribute("aria-invalid", "true")
    expect(end).to_be_focused()
    expect(page.locator(".lobby")).to_have_count(0)
    shot(page, "end-score-refused-1280x800")

    # The common lengths are one tap away, in the same control as Play now's: 25 it is.
    presets = friends.locator("[data-variant=classic] .length-preset")
    expect(presets).to_have_text(["25", "50", "100"])
    expect(strangers.locator("[data-pn-variant=classic] .length-preset")).to_have_text(["25", "50", "100"])
    presets.and_(page.locator("[data-value='25']")).click()
    expect(end).to_have_value("25")
    expect(presets.and_(page.locator("[data-value='25']"))).to_have_attribute("aria-pressed", "true")
    expect(presets.and_(page.locator("[data-value='100']"))).to_have_attribute("aria-pressed", "false")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".lobby .code")
    expect(page.locator(".lobby-rules")).to_contain_text("game ends at 25 points")


def test_on_a_phone_the_two_ways_lead_to_their_forms_and_out_of_range_numbers_are_said_in_dutch(open_page, shot):
    page = open_page("/", viewport=TALL, locale="nl-NL", name="Bram", touch=True)
    ways = page.locator(".ways")
    expect(ways.locator("h2")).to_have_text("Hoe wil je spelen?")
    friends = ways.locator("[data-form=create-form]")
    strangers = ways.locator("[data-form=play-now-form]")
    expect(friends).to_contain_text("Met vrienden")
    expect(strangers).to_contain_text("Met onbekenden")
    expect(friends).to_be_in_viewport(ratio=1)
    expect(strangers).to_be_in_viewport(ratio=1)
    expect(page.locator("#play-now-form .pn-clock-note")).to_have_text(
        "Aan tafels van Nu spelen heb je per zet 30 seconden bedenktijd: is die om, dan doet een computerspeler die"
        " zet voor je."
    )
    assert no_horizontal_scroll(page)
    shot(page, "first-screen-390x844-nl")

    # With friends: the new-table form comes into view, its first field ready.
    friends.tap()
    expect(page.locator("#create-form h2")).to_be_in_viewport()
    expect(page.locator("#variant")).to_be_focused()
    shot(page, "friends-390x844-nl")

    # With strangers: Play now, where a length or a wait out of range is said at its field in Dutch.
    page.evaluate("() => window.scrollTo(0, 0)")
    strangers.tap()
    expect(page.locator("#play-now-form h2")).to_be_in_viewport()
    page.fill("#pn-length-classic", "600")
    page.tap("#play-now-form button[type=submit]")
    expect(page.locator("#pn-length-classic-error")).to_have_text("Kies een heel getal van 25 tot en met 500.")
    expect(page.locator("#pn-length-classic")).to_be_focused()
    shot(page, "length-refused-390x844-nl")
    page.tap("#play-now-form [data-pn-variant=classic] .length-preset[data-value='50']")
    expect(page.locator("#pn-length-classic")).to_have_value("50")
    page.fill("#pn-wait", "2")
    page.tap("#play-now-form button[type=submit]")
    expect(page.locator("#pn-wait-error")).to_have_text("Kies een heel getal van 5 tot en met 300.")
    expect(page.locator("#pn-length-classic-error")).to_have_count(0)
    page.fill("#pn-wait", "300")
    page.tap("#play-now-form button[type=submit]")
    page.wait_for_selector("[data-play-now-wait]")
    expect(page.locator(".lobby-rules")).to_contain_text("het spel eindigt bij 50 punten")
    page.tap("[data-play-now-wait] [data-leave-queue]")
    page.wait_for_selector("#play-now-form")

    # On its side the phone shows the two ways at the top as well.
    resize(page, LANDSCAPE)
    page.evaluate("() => window.scrollTo(0, 0)")
    expect(friends).to_be_in_viewport(ratio=1)
    expect(strangers).to_be_in_viewport(ratio=1)
    assert no_horizontal_scroll(page)
    shot(page, "first-screen-844x390-nl")

    # The statistics dialog's devices heading in natural Dutch.
    page.tap("#top [data-action=open][data-overlay=stats]")
    expect(page.locator("#devices-title")).to_have_text("Op je andere apparaten")
