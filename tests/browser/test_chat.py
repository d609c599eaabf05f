"""Table chat in a real browser: two people chat, hostile text stays text, a screen reader is told
politely without the focus moving, muting hides someone's lines, the host turns chat off, and the
panel fits a phone upright and on its side."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import PHONE, create_table, fill_and_start, resize

XSS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>"]


def _join(page: Page, code: str) -> None:
    page.fill("#code", code)
    page.click("form[data-form=join] button[type=submit]")
    page.wait_for_selector(".lobby")


def _open_chat(page: Page) -> None:
    page.click(".chat-toggle")
    expect(page.locator("#chat-panel")).to_be_visible()


def _say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def _two(open_page) -> tuple[Page, Page, list[str]]:
    dialogs: list[str] = []
    anna = open_page("/", name="Anna")
    code = create_table(anna)
    bram = open_page("/", viewport=PHONE, locale="nl-NL", name="Bram")
    _join(bram, code)
    for page in (anna, bram):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    return anna, bram, dialogs


def test_two_people_chat_and_hostile_text_stays_text_announced_politely(open_page, shot):
    anna, bram, dialogs = _two(open_page)
    _open_chat(anna)
    _say(anna, "Hallo Bram!")
    expect(anna.locator(".chat-line.mine .chat-text")).to_have_text("Hallo Bram!")
    # Bram's panel is closed: the button counts the new line
    expect(bram.locator(".chat-unread")).to_have_text("1")
    _open_chat(bram)
    expect(bram.locator(".chat-line").last).to_contain_text("Anna:")
    # the line's time is the sending moment in local hours and minutes (from its own datetime, so a minute turning
    # over between the line and this check cannot fail it), and that moment is now
    stamp = bram.locator(".chat-line time").last
    local = stamp.evaluate(
        "t => { const d = new Date(t.dateTime); return [String(d.getHours()).padStart(2, '0') + ':' "
        "+ String(d.getMinutes()).padStart(2, '0'), Date.now() - d.getTime()]; }"
    )
    expect(stamp).to_have_text(local[0])
    assert 0 <= local[1] < 60_000
    expect(bram.locator("#chat-input")).to_have_attribute("maxlength", "200")

    # Bram is typing when hostile lines arrive: the focus and what he typed stay where they were.
    bram.click("#chat-input")
    bram.keyboard.type("half typed")
    images = bram.evaluate("() => document.images.length")
    for payload in XSS:
        _say(anna, payload)
    texts = bram.locator(".chat-line .chat-text")
    expect(texts).to_have_count(3)
    assert texts.all_text_contents()[1:] == XSS
    assert bram.evaluate("() => document.activeElement.id") == "chat-input"
    assert bram.input_value("#chat-input") == "half typed"
    assert bram.evaluate("() => document.images.length") == images
    for page in (anna, bram):
        assert page.locator("#chat img, #chat script").count() == 0
        assert page.evaluate("() => document.querySelectorAll('img[src=x], img[onerror]').length") == 0
    live = bram.locator("#chat-live")
    assert live.get_attribute("aria-live") == "polite"
    expect(live).to_contain_text(f"Anna zegt: {XSS[1]}")
    assert bram.locator("[aria-live=assertive] .chat-line, [aria-live=assertive]#chat-live").count() == 0

    # A quick phrase reads in each player's own language.
    bram.click("[data-phrase=well_played]")
    expect(bram.locator(".chat-line.mine .chat-text").last).to_have_text("Goed gespeeld!")
    expect(anna.locator(".chat-line .chat-text").last).to_have_text("Well played!")
    expect(anna.locator("#chat-live")).to_contain_text("Bram says: Well played!")
    shot(bram, "phone-lobby-chat-open")
    assert not dialogs, dialogs


def test_mute_hides_someone_for_me_only_and_the_host_turns_chat_off(open_page):
    anna, bram, _ = _two(open_page)
    _open_chat(anna)
    _open_chat(bram)
    _say(bram, "first line")
    expect(anna.locator(".chat-text")).to_have_text(["first line"])
    anna.click(".chat-people summary")
    anna.click('.chat-mute[data-name="Bram"]')
    expect(anna.locator('.chat-mute[data-name="Bram"]')).to_have_attribute("aria-pressed", "true")
    assert anna.evaluate("() => document.activeElement.dataset.name") == "Bram"  # the toggle keeps the focus
    expect(anna.locator(".chat-text")).to_have_count(0)
    _say(bram, "second line")
    expect(bram.locator(".chat-text")).to_have_text(["first line", "second line"])
    anna.wait_for_function("() => window.hartenjagen.state.chat.lines.length === 2")
    expect(anna.locator(".chat-text")).to_have_count(0)
    assert "second line" not in anna.inner_text("#chat-live")
    # the mute is Anna's own: remembered in her browser, not Bram's
    assert anna.evaluate("() => localStorage.getItem('hartenjagen.muted')") == '["Bram"]'
    anna.reload()
    _open_chat(anna)
    anna.wait_for_function("() => window.hartenjagen.state.chat.lines.length === 2")  # the history, still muted
    expect(anna.locator(".chat-text")).to_have_count(0)
    anna.click(".chat-people summary")
    anna.click('.chat-mute[data-name="Bram"]')
    expect(anna.locator(".chat-text")).to_have_text(["first line", "second line"])

    # The host turns chat off: everyone's input goes, a line says why; on again, it is back.
    anna.click(".chat-allow")
    expect(bram.locator(".chat-off")).to_be_visible()
    expect(bram.locator("#chat-input")).to_be_hidden()
    expect(bram.locator(".chat-allow")).to_be_hidden()  # only the host has the switch
    # a switch named for the setting, its state checked or not
    expect(anna.get_by_role("switch", name="Chat at this table")).to_have_attribute("aria-checked", "false")
    anna.click(".chat-allow")
    expect(bram.locator("#chat-input")).to_be_visible()


def test_the_panel_on_a_phone_upright_and_on_its_side(open_page, shot):
    page = open_page("/", viewport=PHONE, name="Anna")
    create_table(page)
    fill_and_start(page)
    _clear_of_the_table(page)
    shot(page, "portrait-closed")
    _open_chat(page)
    _say(page, "Een lang bericht om te zien hoe de regels teruglopen op een smal scherm 🙂 " * 2)
    page.click("[data-phrase=good_luck]")
    expect(page.locator(".chat-line")).to_have_count(2)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    box = page.locator("#chat-panel").bounding_box()
    assert box["width"] == PHONE["width"] and box["y"] + box["height"] <= PHONE["height"] + 0.5
    shot(page, "portrait-open")
    resize(page, {"width": 740, "height": 360})
    box = page.locator("#chat-panel").bounding_box()
    # along the right edge from the top down to the hand, never over it
    hand_top = min(card.bounding_box()["y"] for card in page.locator(".hand .card").all())
    assert box["y"] == 0 and box["y"] + box["height"] <= hand_top + 0.5 and box["height"] >= 200, (box, hand_top)
    assert box["x"] + box["width"] <= 740.5
    shot(page, "landscape-open")
    page.click(".chat-close")
    expect(page.locator("#chat-panel")).to_be_hidden()
    expect(page.locator(".hand .card").first).to_be_visible()
    _clear_of_the_table(page)
    shot(page, "landscape-closed")


def test_desktop_closed_button_sits_in_the_empty_corner(open_page, shot):
    page = open_page("/", name="Anna")
    create_table(page)
    fill_and_start(page)
    _clear_of_the_table(page)
    shot(page, "desktop-closed")


def _clear_of_the_table(page: Page) -> None:
    """The closed chat button covers no player, card, button or the trick."""
    toggle = page.locator(".chat-toggle").bounding_box()
    assert toggle is not None
    for selector in (".opp .player", ".player.self", ".trick", ".status button", ".top button", ".hand .card"):
        for el in page.locator(selector).all():
            b = el.bounding_box()
            if b is None:
                continue
            apart = (
                toggle["x"] >= b["x"] + b["width"]
                or b["x"] >= toggle["x"] + toggle["width"]
                or toggle["y"] >= b["y"] + b["height"]
                or b["y"] >= toggle["y"] + toggle["height"]
            )
            assert apart, (selector, b, toggle)


def test_at_a_play_now_table_chat_goes_off_for_me_and_with_half_the_people_for_everyone(open_page, shot):
    """Strangers at a Play now table (no host): one turns chat off for herself; being half the people there, it goes
    off for the other too, who is told why; she turns it on again and gets what was said meanwhile."""
    from .test_play_now import press_play_now

    gert, hanna = open_page("/"), open_page("/", viewport=PHONE)  # one language: Play now matches by it
    press_play_now(gert, "Gert", end_score=100, wait=300)
    press_play_now(hanna, "Hanna", end_score=100, wait=300)
    assert gert.evaluate("() => window.hartenjagen.state.table.code") == hanna.evaluate(
        "() => window.hartenjagen.state.table.code"
    )
    for page in (gert, hanna):
        _open_chat(page)
    mine = gert.get_by_role("switch", name="Chat for me")
    expect(mine).to_have_attribute("aria-checked", "true")
    expect(gert.locator(".chat-votes")).to_have_text(
        "Chat stops for everyone here once half the people at the table turn it off (0 of 2 so far)."
    )
    expect(gert.locator(".chat-allow")).to_be_hidden()  # nobody hosts strangers
    _say(gert, "hoi allemaal")
    expect(hanna.locator(".chat-text")).to_have_text(["hoi allemaal"])

    hanna.get_by_role("switch", name="Chat for me").click()
    expect(hanna.get_by_role("switch", name="Chat for me")).to_have_attribute("aria-checked", "false")
    expect(hanna.get_by_role("switch", name="Chat for me")).to_have_text("Chat for me: off")
    expect(hanna.locator(".chat-off")).to_have_text(
        "You turned chat off for yourself: nobody's messages reach you here."
    )
    expect(hanna.locator("#chat-input")).to_be_hidden()
    # one of two people: half the table, so chat is off for Gert too, and he is told why
    expect(gert.locator(".chat-off")).to_have_text(
        "Half the people at this table turned chat off, so it is off for everyone here."
    )
    expect(gert.locator("#chat-input")).to_be_hidden()
    expect(gert.locator(".chat-votes")).to_contain_text("(1 of 2 so far)")
    expect(mine).to_have_attribute("aria-checked", "true")  # his own switch is still his
    shot(hanna, "phone-play-now-chat-off-for-me")
    shot(gert, "play-now-chat-off-with-half-the-people")

    hanna.get_by_role("switch", name="Chat for me").click()
    expect(gert.locator("#chat-input")).to_be_visible()
    expect(gert.locator(".chat-off")).to_be_hidden()
    _say(gert, "fijn dat je er weer bent")
    expect(hanna.locator(".chat-text")).to_have_text(["hoi allemaal", "fijn dat je er weer bent"])
