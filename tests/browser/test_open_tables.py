"""Open tables in the browser: a table its host lists shows up on another person's start page without a reload, with
who sits there and their rating, and is joined from the list, while a field being typed in beside the list keeps its
selection and the name typed outlives a reload; the host removes a person with a reason they are told,
and the others read it; a seated person reports another."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from .conftest import DESKTOP, create_table, no_horizontal_scroll, resize

TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}


def test_a_listed_table_appears_on_another_start_page_without_a_reload_and_is_joined_from_it(open_page, shot):
    bram = open_page("/", viewport=TALL, name="Bram")
    expect(bram.locator("[data-open-empty]")).to_be_visible()  # nothing listed yet: the list says so
    bram.evaluate("() => { window.__sameDocument = true; }")  # gone if the page were loaded again

    anna = open_page("/", viewport=DESKTOP, name="Anna")
    code = create_table(anna)
    anna.check("#list-open")
    anna.wait_for_function("() => window.hartenjagen.state.table.open.listed")
    expect(anna.locator(".seat-card[data-seat='0'] .rating")).to_contain_text("1000 ± 333")

    entry = bram.locator(f".open-table[data-open-code='{code}']")
    started = time.monotonic()
    expect(entry).to_be_visible(timeout=8000)  # the list refreshes by itself every few seconds
    assert time.monotonic() - started < 7
    assert bram.evaluate("() => window.__sameDocument === true"), "the list came without a reload"
    expect(entry.locator(".ot-game")).to_have_text("Classic Hearts (52 cards), game ends at 100 points")
    expect(entry.locator(".ot-lang")).to_have_text("Host's language: English")
    expect(entry.locator(".ot-free")).to_have_text("3 seats free")
    expect(entry.locator(".ot-seat[data-kind=person]")).to_contain_text("Anna")
    expect(entry.locator(".ot-seat[data-kind=person] .rating")).to_contain_text("1000 ± 333")
    expect(entry.locator(".ot-seat")).to_have_count(1)  # who sits; the free seats are counted
    bram.locator("#open-slot").scroll_into_view_if_needed()
    assert no_horizontal_scroll(bram)
    shot(bram, "start-390x844")
    resize(bram, LANDSCAPE)
    bram.locator("#open-slot").scroll_into_view_if_needed()
    assert no_horizontal_scroll(bram)
    shot(bram, "start-844x390")

    entry.locator("[data-action=join_open]").click()
    bram.wait_for_selector(".lobby")
    assert bram.evaluate("() => window.hartenjagen.state.table.code") == code
    expect(anna.locator(".seat-card[data-kind=person]")).to_have_count(2)
    expect(bram.locator("[data-listed]")).to_have_text("This table is listed on the start page.")

    # The host takes it off the list again.
    anna.uncheck("#list-open")
    anna.wait_for_function("() => !window.hartenjagen.state.table.open.listed")
    expect(bram.locator("[data-listed]")).to_have_count(0)


def test_a_field_being_typed_in_keeps_its_selection_when_the_list_refreshes_and_the_name_outlives_a_reload(open_page):
    anna = open_page("/", viewport=DESKTOP)
    anna.locator("#name").press_sequentially("Anna")  # typed; the field is not left
    wait = anna.locator("#pn-wait")
    wait.select_text()  # about to type over the whole number
    anna.evaluate("() => { window.__waitField = document.querySelector('#pn-wait'); }")

    bram = open_page("/", viewport=DESKTOP, name="Bram")
    code = create_table(bram)
    bram.check("#list-open")
    # Anna's page refreshes its list of open tables, and the form beside it is drawn again with the name she typed
    expect(anna.locator(f".open-table[data-open-code='{code}']")).to_be_visible()
    anna.keyboard.type("120")
    expect(wait).to_have_value("120")  # what she typed replaced the selection, not added itself to it
    assert anna.evaluate("() => document.activeElement === window.__waitField"), "the field she types in stays itself"

    anna.reload()
    expect(anna.locator("#name")).to_have_value("Anna")  # the name was kept as it was typed


def test_the_host_removes_a_person_with_a_reason_and_a_seated_person_reports_another(open_page, shot):
    anna = open_page("/", viewport=DESKTOP, name="Anna")
    code = create_table(anna)
    bram = open_page("/", viewport=TALL, name="Bram")
    bram.fill("#code", code)
    bram.click("form[data-form=join] button[type=submit]")
    bram.wait_for_selector(".lobby")
    carla = open_page("/", viewport=DESKTOP, name="Carla")
    carla.fill("#code", code)
    carla.click("form[data-form=join] button[type=submit]")
    carla.wait_for_selector(".lobby")

    # Carla reports Bram: a reason is needed; then the server's answer thanks her.
    bram_seat = bram.evaluate("() => window.hartenjagen.state.table.you")
    carla.click(f".seat-card[data-seat='{bram_seat}'] [data-action=moderate][data-kind=report]")
    expect(carla.locator(".dialog-seat h2")).to_have_text("Report Bram")
    expect(carla.locator("#mod-reason")).to_be_focused()
    carla.click(".dialog-seat button[type=submit]")  # empty: the browser asks for a reason first
    expect(carla.locator(".dialog-seat")).to_be_visible()
    carla.fill("#mod-reason", "shouting in the chat")
    carla.click(".dialog-seat button[type=submit]")
    expect(carla.locator(".lobby .notice")).to_have_text("Thank you: your report about Bram was sent.")
    expect(carla.locator(".dialog")).to_have_count(0)
    # Only the host removes: Carla has no Remove button.
    expect(carla.locator("[data-action=moderate][data-kind=remove]")).to_have_count(0)

    anna.click(f".seat-card[data-seat='{bram_seat}'] [data-action=moderate][data-kind=remove]")
    expect(anna.locator(".dialog-seat h2")).to_have_text("Remove Bram from the table")
    anna.fill("#mod-reason", "rude in the chat")
    shot(anna, "remove-dialog")
    anna.click(".dialog-seat button[type=submit]")

    bram.wait_for_selector("form[data-form=play_now]")
    told = "The host removed you from the table. Reason: rude in the chat"
    expect(bram.locator(".start .notice.error")).to_have_text(told)
    assert bram.evaluate("() => location.pathname") == "/"
    shot(bram, "removed-390x844")
    news = "The host removed Bram from the table. Reason: rude in the chat"
    expect(anna.locator(".lobby .notice")).to_have_text(news)
    expect(carla.locator(".lobby .notice")).to_have_text(news)
    expect(anna.locator(".dialog")).to_have_count(0)
    expect(anna.locator(".seat-card[data-kind=person]")).to_have_count(2)

    # Bram cannot sit at that table again.
    bram.fill("#code", code)
    bram.click("form[data-form=join] button[type=submit]")
    expect(bram.locator(".start .notice.error")).to_contain_text("you cannot sit here again")


def test_at_the_table_a_name_opens_report_and_the_host_may_remove_only_between_hands(open_page):
    anna = open_page("/", viewport=DESKTOP, name="Anna")
    code = create_table(anna)
    bram = open_page("/", viewport=DESKTOP, name="Bram")
    bram.fill("#code", code)
    bram.click("form[data-form=join] button[type=submit]")
    bram.wait_for_selector(".lobby")
    anna.click("[data-action=fill_computers]")
    anna.click("[data-action=start]:not([disabled])")
    anna.wait_for_selector(".hand .card")
    bram_seat = bram.evaluate("() => window.hartenjagen.state.table.you")
    # computer players' names are no buttons; a person's is
    expect(anna.locator(".opp .name-menu")).to_have_count(1)
    anna.click(f".opp .player[data-seat='{bram_seat}'] .name-menu")
    dialog = anna.locator(".dialog-seat")
    expect(dialog.locator("h2")).to_have_text("Bram")
    expect(dialog.locator("[data-remove-later]")).to_have_text("The host can remove someone only between hands.")
    dialog.locator("[data-action=moderate][data-kind=report]").click()
    expect(dialog.locator("h2")).to_have_text("Report Bram")
    anna.fill("#mod-reason", "plays far too slowly")
    dialog.locator("button[type=submit]").click()
    expect(anna.locator(".status .notice")).to_have_text("Thank you: your report about Bram was sent.")
