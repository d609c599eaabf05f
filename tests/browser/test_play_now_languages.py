"""Play now matches strangers on the game, whatever their language, and says so: a Dutch phone and an English desktop
meet at one table, the waiting screen, the list of open tables and the chat panel say which languages are spoken
there, and the countdown reads naturally in both languages. Whoever wants players of their own language only ticks
it in the form (off by default): then the press says so and meets only pages in that language, and the list says
"Nederlands only"."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, no_horizontal_scroll, resize

TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
TABLE_CODE = "() => window.hartenjagen.state.table && window.hartenjagen.state.table.code"


def press(page: Page, name: str, *, variant: str, length: int, wait: int, only: bool = False) -> str:
    """Fill in the Play now form (the game, its length, the wait, and whether to meet one's own language only) and press
    Play now; return the code of the table it sat down at."""
    page.fill("#name", name)
    page.select_option("#pn-variant", variant)
    page.fill(f"#pn-length-{variant}", str(length))
    page.fill("#pn-wait", str(wait))
    if only:
        page.check("#pn-lang-only")
    page.click("#play-now-form button[type=submit]")
    page.wait_for_selector("[data-play-now-wait], .hand .card")
    return page.evaluate(TABLE_CODE)


def listed(page: Page, code: str):
    """The open table ``code`` in the start page's list (it refreshes by itself)."""
    row = page.locator(f".open-table[data-open-code='{code}']")
    expect(row).to_be_visible()
    row.scroll_into_view_if_needed()
    return row


def test_a_dutch_phone_and_an_english_desktop_meet_at_one_table_and_see_which_languages_are_spoken(open_page, shot):
    anna = open_page("/", viewport=TALL, locale="nl-NL")
    bram = open_page("/", viewport=DESKTOP, locale="en-GB")

    # The form says before the press what Play now does with languages, and that its tables run a 30-second clock.
    only = anna.locator("label[for=pn-lang-only]")
    expect(only).to_have_text("Alleen spelers van mijn taal (Nederlands)")
    expect(anna.locator("#pn-lang-only")).not_to_be_checked()  # off by default: every language meets
    expect(anna.locator("#pn-lang-help")).to_have_text(
        "Nu spelen zet mensen van elke taal samen aan tafel. Vink dit aan om alleen te wachten op mensen met de pagina"
        " in het Nederlands."
    )
    expect(bram.locator("label[for=pn-lang-only]")).to_have_text("Only players of my language (English)")
    assert no_horizontal_scroll(anna)
    anna.locator("#play-now-form").scroll_into_view_if_needed()
    shot(anna, "form-390x844-nl")

    code = press(anna, "Anna", variant="omnibus", length=75, wait=300)
    assert press(bram, "Bram", variant="omnibus", length=75, wait=300) == code  # one table for both

    # The waiting screens: every language meets here, and which ones are spoken so far; the countdown in plain words.
    expect(anna.locator(".pn-langs")).to_have_text(
        "Aan deze tafel komen mensen van elke taal samen. Spelers hier spreken: English / Nederlands"
    )
    expect(bram.locator(".pn-langs")).to_have_text(
        "People of every language meet at this table. Players here speak: English / Nederlands"
    )
    expect(anna.locator(".pn-fill")).to_have_text(re.compile(r"^Over \d:\d\d nemen computerspelers de lege stoelen\.$"))
    expect(bram.locator(".pn-fill")).to_have_text(re.compile(r"^In \d:\d\d computer players take the empty seats\.$"))
    assert no_horizontal_scroll(anna)
    shot(anna, "waiting-390x844-nl")
    shot(bram, "waiting-1280x800-en")

    # Someone on the start page sees the table's languages in the list (a Play now table has no host's language).
    carla = open_page("/", viewport=DESKTOP, locale="en-GB")
    row = listed(carla, code)
    expect(row.locator(".ot-lang")).to_have_text("Players speak: English / Nederlands")
    carla.click("#top [data-action=lang][data-lang=nl]")
    expect(row.locator(".ot-lang")).to_have_text("Spelers spreken: English / Nederlands")
    expect(row).not_to_contain_text("host")
    shot(carla, "list-1280x800-nl")

    # Carla, whose page is Dutch now, joins with a short wait: the game starts with a computer player on the last seat.
    carla.click("#top [data-action=lang][data-lang=en]")
    assert press(carla, "Carla", variant="omnibus", length=75, wait=5) == code
    for page in (anna, bram, carla):
        page.wait_for_selector(".hand .card", timeout=15_000)

    # At the table the chat panel says which languages the people there speak: on a phone upright and on its side.
    anna.click(".chat-toggle")
    expect(anna.locator(".chat-langs")).to_have_text("Spelers hier spreken: English / Nederlands")
    assert no_horizontal_scroll(anna)
    shot(anna, "chat-390x844-nl")
    resize(anna, LANDSCAPE)
    expect(anna.locator(".chat-langs")).to_be_visible()
    shot(anna, "chat-844x390-nl")
    bram.click(".chat-toggle")
    expect(bram.locator(".chat-langs")).to_have_text("Players here speak: English / Nederlands")
    shot(bram, "chat-1280x800-en")


def test_only_players_of_my_language_is_asked_for_said_at_the_press_and_on_the_list(open_page, shot):
    dirk = open_page("/", viewport=TALL, locale="nl-NL")
    code = press(dirk, "Dirk", variant="black_maria", length=75, wait=300, only=True)
    # the press says what was asked: only Dutch pages sit here
    expect(dirk.locator(".pn-langs")).to_have_text(
        "Aan deze tafel zitten alleen spelers met de pagina in het Nederlands."
    )
    assert no_horizontal_scroll(dirk)
    shot(dirk, "only-dutch-390x844-nl")

    # An English page with the same game does not sit there: it opens a table for every language.
    eva = open_page("/", viewport=DESKTOP, locale="en-GB")
    other = press(eva, "Eva", variant="black_maria", length=75, wait=300)
    assert other != code
    expect(eva.locator(".pn-langs")).to_have_text("People of every language meet at this table.")
    # A Dutch page that did not ask still meets Dirk, who waited first: his table takes any page in his language.
    femke = open_page("/", viewport=LANDSCAPE, locale="nl-NL")
    assert press(femke, "Femke", variant="black_maria", length=75, wait=300) == code
    expect(femke.locator(".pn-langs")).to_have_text(
        "Aan deze tafel zitten alleen spelers met de pagina in het Nederlands."
    )
    assert no_horizontal_scroll(femke)
    shot(femke, "joined-only-dutch-844x390-nl")

    # The list says which table is for one language and which for all.
    gijs = open_page("/", viewport=DESKTOP, locale="en-GB")
    expect(listed(gijs, code).locator(".ot-lang")).to_have_text("Nederlands only")
    expect(listed(gijs, other).locator(".ot-lang")).to_have_text("Players speak: English")
    shot(gijs, "list-1280x800-en")

    # Leaving the queue, Dirk finds his choice kept for the next press.
    dirk.click("[data-play-now-wait] [data-leave-queue]")
    dirk.wait_for_selector("#play-now-form")
    expect(dirk.locator("#pn-lang-only")).to_be_checked()
    for page in (eva, femke):
        page.click("[data-play-now-wait] [data-leave-queue]")
        page.wait_for_selector("#play-now-form")
