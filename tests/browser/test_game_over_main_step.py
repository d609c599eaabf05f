"""Game over offers one clear next step: "Play again with the same people" is the one main button, large, with a line
saying what it does and who agreed so far; the host's new game at this table and starting over are folded under it
behind "Other choices"; the replay and its share link are smaller buttons after it. So in the score table and, once
that is closed, under the table, on a phone upright, a phone on its side and a desktop, in English and Dutch."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, create_table, fill_and_start, no_horizontal_scroll, play_pages, resize

TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}

# The buttons of the game-over part of a score table or of the status under the table: what each does, whether it is
# the main one (primary), whether it shows, and its height.
BUTTONS = """(root) => [...root.querySelectorAll('button[data-action]')]
    .filter((b) => !b.closest('.hand-review') && !b.classList.contains('close') && b.dataset.overlay !== 'scores')
    .map((b) => ({action: b.dataset.action, overlay: b.dataset.overlay || null,
                  primary: b.classList.contains('primary'), shown: b.getClientRects().length > 0,
                  y: b.getBoundingClientRect().y, h: b.getBoundingClientRect().height, text: b.textContent.trim()}))"""


def _buttons(page: Page, where: str) -> list[dict]:
    return page.locator(where).evaluate(BUTTONS)


def _check_one_main_step(buttons: list[dict], main: str) -> None:
    """One button stands out (primary), the main step, above the others and at least as tall as any of them."""
    primary = [b for b in buttons if b["primary"] and b["shown"]]
    assert [b["action"] for b in primary] == [main], buttons
    others = [b for b in buttons if b["shown"] and not b["primary"] and b["action"] != "more_steps"]
    assert others, buttons
    for b in others:
        assert b["y"] > primary[0]["y"] and b["h"] <= primary[0]["h"], (b, primary[0])


def test_game_over_has_one_main_step_and_the_hosts_choices_folded_under_it(open_page, shot):
    # Anna hosts on a desktop (English); Bram joins on a phone upright (Dutch); two computer players; 25 points.
    anna = open_page("/", viewport=DESKTOP, name="Anna")
    anna.fill("#opt-classic-end_score", "25")
    code = create_table(anna, passing="off")
    bram = open_page("/", viewport=TALL, locale="nl-NL", name="Bram")
    bram.fill("#code", code)
    bram.click("form[data-form=join] button[type=submit]")
    bram.wait_for_selector(".lobby")
    fill_and_start(anna)
    play_pages([anna, bram])
    for page in (anna, bram):
        page.wait_for_selector(".dialog-scores .winners")

    # The host's score table: one main button, playing again with the same people, and the line under it.
    dialog = anna.locator(".dialog-scores")
    main = dialog.locator(".main-step [data-action=rematch]")
    expect(main).to_have_text("Play again with the same people")
    expect(main).to_have_class("primary")
    expect(dialog.locator(".main-step .field-help")).to_have_text(
        "New cards, the same people and rules: the game starts once everyone agrees."
    )
    # a new game at this table and starting over: folded under "Other choices"
    toggle = dialog.locator("[data-action=more_steps]")
    expect(toggle).to_have_text("Other choices")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(dialog.locator("[data-action=new_game]")).to_be_hidden()
    expect(dialog.locator("[data-overlay=restart]")).to_be_hidden()
    # the replay and its share link: smaller buttons after the main step
    expect(dialog.locator(".more-actions [data-action=replay]")).to_have_text("Replay this game")
    expect(dialog.locator(".more-actions [data-action=copy_share]")).to_have_text("Copy share link")
    _check_one_main_step(_buttons(anna, ".dialog-scores"), "rematch")
    shot(anna, "host-1280x800")

    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    new_game = dialog.locator("[data-action=new_game]")
    expect(new_game).to_be_visible()
    expect(new_game).not_to_have_class("primary")  # still one main button
    expect(dialog.locator("#dialog-new-help")).to_contain_text("back to the waiting room")
    expect(dialog.locator("[data-overlay=restart]")).to_be_visible()
    _check_one_main_step(_buttons(anna, ".dialog-scores"), "rematch")
    shot(anna, "host-choices-1280x800")

    # Bram (no host): the same main step in Dutch, no host's choices (his own step alone: not the host's).
    bram_dialog = bram.locator(".dialog-scores")
    expect(bram_dialog.locator(".main-step [data-action=rematch]")).to_have_text("Nog een spel met dezelfde mensen")
    expect(bram_dialog.locator(".main-step .field-help")).to_have_text(
        "Nieuwe kaarten, dezelfde mensen en regels: het spel begint zodra iedereen meedoet."
    )
    expect(bram_dialog.locator("[data-action=more_steps]")).to_have_count(0)
    expect(bram_dialog.locator(".next-waiting")).to_have_count(0)
    expect(bram_dialog.locator(".more-actions [data-action=replay]")).to_have_text("Dit spel terugkijken")
    expect(bram_dialog.locator(".more-actions [data-action=copy_share]")).to_have_text("Deellink kopiëren")
    _check_one_main_step(_buttons(bram, ".dialog-scores"), "rematch")
    assert no_horizontal_scroll(bram)
    shot(bram, "guest-390x844-nl")

    # Under the table, once the score table is closed: the same one main step, in view without scrolling.
    bram.keyboard.press("Escape")
    status = bram.locator(".status")
    expect(status.locator(".main-step [data-action=rematch]")).to_be_in_viewport(ratio=1)
    _check_one_main_step(_buttons(bram, ".status"), "rematch")
    shot(bram, "guest-closed-390x844-nl")
    resize(bram, LANDSCAPE)
    expect(status.locator(".main-step [data-action=rematch]")).to_be_in_viewport(ratio=1)
    expect(status.locator(".buttons [data-action=open][data-overlay=scores]")).to_be_in_viewport(ratio=1)
    assert no_horizontal_scroll(bram)
    shot(bram, "guest-closed-844x390-nl")

    anna.keyboard.press("Escape")
    anna_status = anna.locator(".status")
    expect(anna_status.locator("[data-action=new_game]")).to_be_visible()  # the choices stay unfolded
    _check_one_main_step(_buttons(anna, ".status"), "rematch")
    for size, label in ((DESKTOP, "1280x800"), (LANDSCAPE, "844x390"), (TALL, "390x844")):
        resize(anna, size)
        expect(anna_status.locator(".main-step [data-action=rematch]")).to_be_in_viewport(ratio=1)
        assert no_horizontal_scroll(anna)
        shot(anna, f"host-closed-{label}")
    anna_status.locator("[data-action=more_steps]").click()  # folded again
    expect(anna_status.locator("[data-action=new_game]")).to_be_hidden()

    # Anna agrees: both see who agreed under the main step; Bram agrees too and the next game is dealt.
    anna_status.locator(".main-step [data-action=rematch]").click()
    expect(anna_status.locator(".main-step [data-action=rematch]")).to_have_text("You agreed to play again")
    expect(anna_status.locator(".main-step [data-action=rematch]")).to_be_disabled()
    expect(anna_status.locator("[data-rematch]")).to_have_text("1 of 2 agrees: Anna")
    expect(anna_status.locator(".rematch-waiting")).to_have_text("Waiting for Bram to agree.")
    expect(status.locator("[data-rematch]")).to_have_text("1 van de 2 doet weer mee: Anna")
    shot(bram, "one-agreed-844x390-nl")
    status.locator(".main-step [data-action=rematch]").click()
    for page in (anna, bram):
        page.wait_for_function(
            "() => { const t = window.hartenjagen.state.table; return t.status === 'playing' && t.view"
            " && !t.view.game_over && t.view.history.length === 0; }"
        )
        expect(page.locator(".main-step")).to_have_count(0)
