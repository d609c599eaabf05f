"""Numbered deals: /?deal=N fills in the form, the number shows at the table, a bad number is refused at its field."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PHONE, create_table, fill_and_start, hand_cards, no_horizontal_scroll


def test_the_deal_number_from_the_link_reaches_the_table_header_and_deals_the_same_cards(open_page, shot):
    page = open_page("/?deal=77", viewport=PHONE, locale="nl-NL", name="Anna")
    expect(page.locator("#deal")).to_have_value("77")
    create_table(page, passing="off")
    assert page.evaluate("window.hartenjagen.state.table.deal") == 77
    expect(page.locator("#top .deal-no")).to_have_text("Spel 77")
    fill_and_start(page)
    expect(page.locator("#top .deal-no")).to_have_text("Spel 77")
    assert no_horizontal_scroll(page)
    shot(page, "table-nl")
    anna = sorted(hand_cards(page))

    # A friend types the same number: the same cards in the same seat.
    friend = open_page("/", name="Bram")
    friend.fill("#deal", "77")
    create_table(friend, passing="off")
    expect(friend.locator("#top .deal-no")).to_have_text("Deal 77")
    fill_and_start(friend)
    assert sorted(hand_cards(friend)) == anna

    # Without a number there is no deal number in the header.
    other = open_page("/", name="Carla")
    create_table(other)
    assert other.evaluate("window.hartenjagen.state.table.deal") is None
    expect(other.locator("#top .deal-no")).to_have_count(0)


def test_a_deal_number_the_server_refuses_is_shown_at_the_field(open_page, shot):
    page = open_page("/", viewport=PHONE, name="Anna")
    page.fill("#deal", "0")
    page.click("form[data-form=create] button[type=submit]")
    error = page.locator("#deal-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Deal number refused")
    expect(page.locator("#deal")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#deal")).to_be_focused()
    expect(page.locator("#deal")).to_have_value("0")  # what was typed stays, to be corrected
    assert page.locator(".lobby").count() == 0
    shot(page, "refused")

    page.fill("#deal", "12.5")
    page.click("form[data-form=create] button[type=submit]")
    expect(error).to_contain_text("Deal number refused")

    page.fill("#deal", "1234")
    page.click("form[data-form=create] button[type=submit]")
    page.wait_for_selector(".lobby .code")
    expect(page.locator("#top .deal-no")).to_have_text("Deal 1234")
