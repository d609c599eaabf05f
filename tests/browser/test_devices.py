"""Your player on every device: a code from the statistics dialog moves the same player to another browser, which
keeps its own token; the first can see and sign it out; the same code a second time is refused."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, create_table, no_horizontal_scroll

PHONE_TALL = {"width": 390, "height": 844}
PHONE_SIDE = {"width": 844, "height": 390}

# What the code's part of the statistics dialog says, in each language.
CODE_TEXTS = {
    "en-GB": {
        "copy": "Copy link",
        "copied": "Link copied",
        "used": "Code {code} was used: your player now also plays on",
    },
    "nl-NL": {
        "copy": "Link kopiëren",
        "copied": "Link gekopieerd",
        "used": "Code {code} is gebruikt: je speler speelt nu ook op",
    },
}


def stats_of(server_url: str, token: str) -> tuple[int, dict]:
    request = urllib.request.Request(server_url.rstrip("/") + "/api/stats", headers={"X-Player-Token": token})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def test_a_device_code_moves_the_player_and_a_second_use_is_refused(open_page, shot, server_url):
    laptop = open_page("/", viewport=DESKTOP, name="Anna")
    laptop.click("[data-action=open][data-overlay=stats]")
    laptop.click("[data-action=device_code]")
    code = laptop.locator("[data-device-code]").get_attribute("data-device-code")
    assert len(code) == 9 and code[4] == "-"
    expect(laptop.locator(".device-qr svg")).to_be_visible()
    laptop_token = laptop.evaluate("() => window.hartenjagen.state.playerToken")

    phone = open_page(f"/?device={code}", viewport=PHONE_TALL)
    expect(phone.locator(".notice")).to_contain_text("This device now plays as Anna")
    phone_token = phone.evaluate("() => window.hartenjagen.state.playerToken")
    assert phone_token and phone_token != laptop_token and phone.url.rstrip("/").endswith(server_url.rstrip("/"))
    assert stats_of(server_url, phone_token) == stats_of(server_url, laptop_token)
    assert phone.input_value("#name") == "Anna"
    phone.click("[data-action=open][data-overlay=stats]")
    expect(phone.locator(".devices li")).to_have_count(2)
    expect(phone.locator(".devices li", has_text="(this device)")).to_contain_text("Chrome")
    shot(phone, "phone-devices")

    # The same code again, on a third browser: refused, and that browser stays a player of its own.
    other = open_page(f"/?device={code}", viewport=PHONE_TALL, name="Eva")
    expect(other.locator(".notice.error")).to_contain_text("That code is not valid")
    assert other.input_value("#name") == "Eva"

    # The laptop sees both devices and signs the phone out: its token no longer holds Anna.
    laptop.keyboard.press("Escape")
    laptop.click("[data-action=open][data-overlay=stats]")
    expect(laptop.locator(".devices li")).to_have_count(2)
    shot(laptop, "desktop-devices")
    laptop.locator(".devices li:not(:has-text('(this device)')) [data-action=device_sign_out]").click()
    expect(laptop.locator(".devices li")).to_have_count(1)
    assert stats_of(server_url, phone_token)[0] == 404
    assert stats_of(server_url, laptop_token)[1]["name"] == "Anna"

    # A mistyped code is said in the dialog, and nothing changes.
    laptop.fill("#device-code-input", "abc")
    laptop.click("form[data-form=device] button[type=submit]")
    expect(laptop.locator("[data-device-error]")).to_contain_text("8 letters and digits")


@pytest.mark.parametrize(
    ("locale", "size", "other"),
    [("en-GB", DESKTOP, PHONE_TALL), ("nl-NL", PHONE_TALL, PHONE_SIDE), ("en-GB", PHONE_SIDE, DESKTOP)],
    ids=["desktop-en", "phone-nl", "phone-side-en"],
)
def test_the_code_comes_with_a_link_to_copy_and_shows_as_used_once_the_other_device_used_it(
    open_page, shot, locale, size, other
):
    texts = CODE_TEXTS[locale]
    first = open_page("/", viewport=size, locale=locale, name="Kees")
    first.context.grant_permissions(["clipboard-read", "clipboard-write"])
    first.click("[data-action=open][data-overlay=stats]")
    first.click("[data-action=device_code]")
    box = first.locator("[data-device-code]")
    code = box.get_attribute("data-device-code")
    # the link itself, to copy: a QR code on the screen of the device it is for cannot be scanned
    link = first.locator(".device-link input.link")
    expect(link).to_be_visible()
    expect(link).to_have_value(f"{first.url.rstrip('/')}/?device={code}")
    copy = first.locator("[data-action=copy_device_link]")
    expect(copy).to_have_text(texts["copy"])
    copy.click()
    expect(copy).to_have_text(texts["copied"])
    copied = first.evaluate("() => navigator.clipboard.readText()")
    assert copied == link.input_value()
    expect(first.locator(".device-qr svg")).to_be_visible()
    assert no_horizontal_scroll(first)
    shot(first, "device-code-link")

    # the other device opens the copied link; the first device's dialog, still open, says the code is used
    second = open_page(copied.removeprefix(first.url.rstrip("/")), viewport=other, locale=locale)
    expect(second.locator(".notice")).to_contain_text("Kees")
    used = first.locator("[data-device-code-used]")
    expect(used).to_contain_text(texts["used"].format(code=code))
    expect(used).to_contain_text("Chrome")  # the device as it named itself
    expect(first.locator(".device-qr")).to_have_count(0)
    expect(first.locator(".device-link")).to_have_count(0)
    expect(first.locator(".devices li")).to_have_count(2)  # the new device listed without asking again
    assert no_horizontal_scroll(first)
    shot(first, "device-code-used")


def test_the_players_seat_comes_along_to_the_new_device(open_page, shot):
    laptop = open_page("/", viewport=DESKTOP, name="Anna")
    laptop.click("form[data-form=create] button[type=submit]")
    laptop.wait_for_selector(".lobby .code")
    code = laptop.inner_text(".lobby .code").strip()
    laptop.click("[data-action=open][data-overlay=stats]")
    laptop.click("[data-action=device_code]")
    device = laptop.locator("[data-device-code]").get_attribute("data-device-code")

    # The phone never sat at that table: it has no seat token, yet the player's seat is offered and taken
    phone = open_page(f"/?device={device}", viewport=PHONE_TALL)
    expect(phone.locator(".notice")).to_contain_text("This device now plays as Anna")
    expect(phone.locator(".comeback button")).to_contain_text(code)
    shot(phone, "phone-back-to-your-table")
    phone.click(".comeback button")
    phone.wait_for_selector(".lobby .code")
    assert phone.inner_text(".lobby .code").strip() == code
    assert phone.evaluate("() => window.hartenjagen.state.table.you") == 0  # the host's own seat, not a new one
    expect(laptop.locator(".lobby")).to_have_count(0)  # the newer device has the seat; the laptop is told it left


def test_a_page_signed_out_from_another_says_so_and_becomes_a_new_player_only_when_asked(open_page, shot, server_url):
    laptop = open_page("/", viewport=DESKTOP, name="Anna")
    laptop.click("[data-action=open][data-overlay=stats]")
    laptop.click("[data-action=device_code]")
    code = laptop.locator("[data-device-code]").get_attribute("data-device-code")
    phone = open_page(f"/?device={code}", viewport=PHONE_TALL)
    expect(phone.locator(".notice")).to_contain_text("This device now plays as Anna")
    phone_token = phone.evaluate("() => window.hartenjagen.state.playerToken")
    other_page = phone.context.new_page()  # the phone's start page, opened again in another tab
    other_page.goto(server_url.rstrip("/") + "/")
    expect(other_page.locator("#name")).to_have_value("Anna")
    assert other_page.evaluate("() => window.hartenjagen.connection.connected") is False

    laptop.keyboard.press("Escape")
    laptop.click("[data-action=open][data-overlay=stats]")
    laptop.locator(".devices li:not(:has-text('(this device)')) [data-action=device_sign_out]").click()
    expect(laptop.locator(".devices li")).to_have_count(1)

    # the open phone page is told at once, and does not reconnect as anyone; what it said before is gone
    notice = phone.locator("[data-signed-out]")
    expect(notice).to_contain_text("This device was signed out of Anna")
    expect(phone.locator("text=This device now plays as Anna")).to_have_count(0)
    # so is the phone's other page, whose start page holds no connection of its own
    expect(other_page.locator("[data-signed-out]")).to_contain_text("This device was signed out of Anna")
    assert other_page.evaluate("() => window.hartenjagen.state.playerToken") is None
    shot(phone, "phone-signed-out")
    shot(other_page, "phone-other-page-signed-out")
    assert phone.evaluate("() => window.hartenjagen.state.playerToken") is None
    # a reload still says so and greets nobody (no new player made behind the person's back)
    phone.reload()
    expect(notice).to_contain_text("This device was signed out of Anna")
    expect(phone.locator("[data-action=start_fresh]")).to_be_visible()
    assert phone.evaluate("() => window.hartenjagen.state.playerToken") is None
    assert phone.evaluate("() => window.hartenjagen.state.conn") != "online"
    # starting fresh: the next table is a new player's
    phone.click("[data-action=start_fresh]")
    expect(notice).to_have_count(0)
    phone.fill("#name", "Anna")
    phone.click("form[data-form=create] button[type=submit]")
    phone.wait_for_selector(".lobby .code")
    fresh = phone.evaluate("() => window.hartenjagen.state.playerToken")
    assert fresh and fresh != phone_token
    assert stats_of(server_url, phone_token)[0] == 404

    # a device whose page was closed when it was signed out: the next time it greets, it says so instead of
    # quietly becoming someone new
    laptop.keyboard.press("Escape")
    laptop.click("[data-action=open][data-overlay=stats]")
    laptop.click("[data-action=device_code]")
    expect(laptop.locator("[data-device-code]")).not_to_have_attribute("data-device-code", code)  # a new one
    code = laptop.locator("[data-device-code]").get_attribute("data-device-code")
    tablet = open_page(f"/?device={code}", viewport=PHONE_TALL)
    expect(tablet.locator(".notice")).to_contain_text("This device now plays as Anna")
    tablet_token = tablet.evaluate("() => window.hartenjagen.state.playerToken")
    context = tablet.context
    tablet.close()
    laptop.keyboard.press("Escape")
    laptop.click("[data-action=open][data-overlay=stats]")
    laptop.locator(".devices li:not(:has-text('(this device)')) [data-action=device_sign_out]").click()
    expect(laptop.locator(".devices li")).to_have_count(1)
    tablet = context.new_page()
    tablet.goto(server_url.rstrip("/") + "/")
    assert tablet.evaluate("() => window.hartenjagen.state.playerToken") == tablet_token
    tablet.click("form[data-form=create] button[type=submit]")
    expect(tablet.locator("[data-signed-out]")).to_contain_text("This device was signed out of Anna")
    expect(tablet.locator(".lobby")).to_have_count(0)
    assert tablet.evaluate("() => window.hartenjagen.state.playerToken") is None
    tablet.reload()
    expect(tablet.locator("[data-signed-out]")).to_contain_text("This device was signed out of Anna")


def test_my_games_stays_put_while_the_statistics_and_this_devices_line_come(open_page, shot):
    # The figures come over HTTP and this device's line over the socket, each making the dialog longer. The figures
    # are held back here until My games has been seen, so the dialog grows under the person's eyes every time.
    page = open_page("/", viewport=PHONE_TALL, name="Ines")
    assert create_table(page)  # a player now, with a token: the statistics are asked of the server
    held = []
    page.route("**/api/stats*", lambda route: held.append(route))
    page.click("[data-action=open][data-overlay=stats]")
    button = ".dialog-stats [data-action=open][data-overlay=games]"
    where = f"() => {{ const r = document.querySelector('{button}').getBoundingClientRect(); return [r.x, r.y]; }}"
    expect(page.locator(button)).to_be_visible()
    expect(page.locator(".dialog-stats dt")).to_have_count(0)  # the figures have not come
    before = page.evaluate(where)
    asked_by = time.monotonic() + 15
    while not held and time.monotonic() < asked_by:  # the request reaches the route once the page has sent it
        page.wait_for_timeout(20)
    assert held, "the statistics dialog never asked for the figures"
    held[0].continue_()
    expect(page.locator(".dialog-stats dt").first).to_be_visible()
    expect(page.locator(".dialog-stats ul.devices li strong")).to_be_visible()
    assert page.evaluate(where) == before
    shot(page, "phone-stats-my-games-first")
    page.click(button)
    expect(page.locator(".dialog-games")).to_be_visible()
