"""Leaving asks first and tells the others; the link gives a computer's seat back between hands; watching
without a seat shows no hand; reopening the site offers the table; an invited friend gets one Join button."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import scoring_table

from .conftest import DESKTOP, PHONE, create_table, hand_cards, no_horizontal_scroll, play_pages, view


def base(page: Page) -> str:
    """The server's address the page was opened on (scheme, host and port)."""
    return "/".join(page.url.split("/", 3)[:3])


def join_by_code(page: Page, code: str) -> None:
    page.fill("#code", code)
    page.click("form[data-form=join] button[type=submit]")
    page.wait_for_selector(".lobby")


def page_names_cards(page: Page, cards: list[str]) -> set[str]:
    """The cards of ``cards`` that this page's DOM or state names anywhere."""
    html = page.content()
    table = page.evaluate("() => window.hartenjagen.state.table")
    if table and table.get("view") and "scoring" in table["view"]:
        # the view's scoring names the cards that score (as keys): exempt only if it is exactly the rules' table
        expected = json.loads(json.dumps(scoring_table(make_rules(table["options"]))))
        assert table["view"]["scoring"] == expected
        table = {**table, "view": {**table["view"], "scoring": None}}
    state = json.dumps(table)
    return {c for c in cards if f'"{c}"' in html or f'data-card="{c}"' in html or f'"{c}"' in state}


def test_leaving_asks_first_tells_the_others_and_the_link_gives_the_seat_back(open_page, shot):
    anna = open_page("/", name="Anna")
    code = create_table(anna, passing="off")
    bram = open_page("/", viewport=PHONE, locale="nl-NL", name="Bram")
    join_by_code(bram, code)
    anna.click("[data-action=fill_computers]")
    anna.click("[data-action=start]:not([disabled])")
    bram.wait_for_selector(".hand .card")

    # Leave during a game: a dialog asks first; Stay keeps the seat.
    bram.click("#top [data-action=leave]")
    dialog = bram.locator(".dialog-leave")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("computerspeler neemt je stoel over")
    assert no_horizontal_scroll(bram)
    shot(bram, "leave-confirm-phone-nl")
    dialog.locator("[data-action=close]").last.click()
    expect(dialog).to_have_count(0)
    expect(bram.locator(".hand .card")).to_have_count(13)
    bram.click("#top [data-action=leave]")
    bram.click(".dialog-leave [data-action=leave_confirm]")
    bram.wait_for_selector("form[data-form=create]")

    # The others are told who left and who plays on.
    notice = anna.locator("[data-notice=info]")
    expect(notice).to_have_text("Bram left; Ellen (computer) plays on.")
    expect(anna.locator('.opp [data-seat="1"]')).to_contain_text("Ellen")
    shot(anna, "left-notice-desktop-en")

    # Bram opens the link again mid-hand: every seat is taken, so he watches, no hand in sight.
    bram.goto(base(bram) + f"/t/{code}")
    bram.wait_for_selector(".player.watching")
    expect(bram.locator(".hand .card")).to_have_count(0)
    expect(bram.locator("[data-notice=info]")).to_contain_text("je kijkt mee")
    expect(bram.locator(".status [data-action=sit]")).to_have_count(0)  # mid-hand: a line says when instead
    expect(bram.locator(".status .turn-line")).to_contain_text("Tussen twee rondes")
    assert not page_names_cards(bram, view(anna)["hand"])
    assert no_horizontal_scroll(bram)
    shot(bram, "watching-mid-hand-phone-nl")

    # Between hands he takes his old seat back from Ellen, from the score table that opened by itself.
    play_pages([anna], stop=lambda: view(anna)["phase"] in ("hand_over", "game_over"), moves=("play",))
    bram.wait_for_selector('.dialog-scores [data-action=sit][data-seat="1"]:not([disabled])')
    shot(bram, "watching-hand-over-phone-nl")
    bram.click('.dialog-scores [data-action=sit][data-seat="1"]')
    bram.wait_for_function("() => window.hartenjagen.state.table.you === 1")
    expect(anna.locator('.opp [data-seat="1"]')).to_contain_text("Bram")
    bram.click(".dialog-scores [data-action=ready]")
    anna.click(".dialog-scores [data-action=ready]")
    bram.wait_for_selector(".hand .card")
    assert len(hand_cards(bram)) == 13
    expect(bram.locator("[data-notice]")).to_have_count(0)  # "you are watching" went with the seat
    shot(bram, "seat-taken-back-phone-nl")


def test_a_watcher_sees_the_table_and_never_a_hand(open_page, shot):
    anna = open_page("/", name="Anna")
    code = create_table(anna, passing="off")
    anna.click("[data-action=fill_computers]")
    anna.click("[data-action=start]:not([disabled])")
    anna.wait_for_selector(".hand .card")
    for size, lang, label in ((DESKTOP, "en-GB", "desktop-en"), (PHONE, "nl-NL", "phone-nl")):
        eva = open_page(f"/t/{code}", viewport=size, locale=lang, name=None)
        eva.wait_for_selector(".invite")
        eva.fill("#name", "Eva")
        eva.press("#name", "Enter")
        eva.wait_for_selector(".player.watching")
        expect(eva.locator(".opp")).to_have_count(3)
        expect(eva.locator(".hand-area .player")).to_contain_text("Anna")
        expect(eva.locator(".hand .card")).to_have_count(0)
        assert eva.evaluate("() => window.hartenjagen.state.table.view.hand") is None
        assert not page_names_cards(eva, view(anna)["hand"])
        assert no_horizontal_scroll(eva)
        shot(eva, f"watcher-{label}")
    anna.wait_for_function("() => window.hartenjagen.state.table.watch.count === 2")


def test_reopening_the_site_offers_back_to_your_table(open_page, shot):
    for size, lang, label, seat in ((DESKTOP, "en-GB", "desktop-en", "South"), (PHONE, "nl-NL", "phone-nl", "Zuid")):
        anna = open_page("/", viewport=size, locale=lang, name="Anna")
        code = create_table(anna)
        anna.goto(base(anna) + "/")  # the tab is closed and the site opened again
        offer = anna.locator("[data-action=comeback]")
        expect(offer).to_contain_text(code)
        expect(offer).to_contain_text(seat)
        assert no_horizontal_scroll(anna)
        shot(anna, f"comeback-{label}")
        offer.click()
        expect(anna.locator(".lobby .code")).to_have_text(code)
        expect(anna.locator(".seat-card.pos-bottom")).to_contain_text("Anna")
        # after leaving on purpose there is nothing to go back to
        anna.click("#top [data-action=leave]")
        anna.wait_for_selector("form[data-form=create]")
        anna.reload()
        anna.wait_for_selector("form[data-form=create]")
        anna.wait_for_timeout(300)
        expect(anna.locator("[data-action=comeback]")).to_have_count(0)


def test_an_invited_friend_gets_the_invitation_and_one_join_button(open_page, shot):
    anna = open_page("/", name="Anna")
    code = create_table(anna)
    for size, lang, label in ((PHONE, "nl-NL", "phone-nl"), (DESKTOP, "en-GB", "desktop-en")):
        friend = open_page(f"/t/{code}", viewport=size, locale=lang, name=None)
        invite = friend.locator(".invite")
        expect(invite).to_be_visible()
        title = "Je bent uitgenodigd aan tafel" if lang == "nl-NL" else "You are invited to table"
        expect(invite.locator("h2")).to_have_text(f"{title} {code}")
        expect(invite).to_contain_text("Anna")
        expect(invite.locator(".invite-rules")).to_contain_text("100")
        expect(friend.locator("form[data-form=create]")).to_have_count(0)
        expect(invite.locator("button[type=submit]")).to_have_count(1)
        expect(friend.locator("#name")).to_be_focused()
        assert no_horizontal_scroll(friend)
        shot(friend, f"invite-{label}")
        if label == "phone-nl":
            friend.fill("#name", "Bram")
            friend.press("#name", "Enter")
            friend.wait_for_selector(".lobby")
            expect(friend.locator(".seat-card.pos-bottom")).to_contain_text("Bram")
        else:
            friend.click("[data-action=own_table]")  # not joining: the full start page
            expect(friend.locator("form[data-form=create]")).to_be_visible()
    # an unknown code: the plain start page says so
    stranger = open_page("/t/ZZZZZZ", name=None, expected=("404",))
    expect(stranger.locator(".notice.error")).to_contain_text("There is no table with that code")
    expect(stranger.locator("form[data-form=create]")).to_be_visible()


def test_the_host_turns_watching_off_in_the_waiting_room(open_page, shot):
    anna = open_page("/", viewport=PHONE, locale="nl-NL", name="Anna")
    code = create_table(anna)
    box = anna.locator("#allow-watch")
    expect(box).to_be_checked()
    eva = open_page("/", name="Eva")
    eva.dispatch_event("#name", "change")  # the name is saved for the greeting
    eva.evaluate("() => window.hartenjagen.connection.open()")
    eva.wait_for_function("() => window.hartenjagen.connection.connected && window.hartenjagen.state.playerToken")
    eva.evaluate("code => window.hartenjagen.connection.send({type: 'watch', code})", code)
    eva.wait_for_selector(".lobby")  # a watcher sees the waiting room too, without a seat
    anna.wait_for_selector("[data-watch-count='1']")
    shot(anna, "lobby-watch-setting-phone-nl")
    box.uncheck()
    anna.wait_for_function("() => window.hartenjagen.state.table.watch.allowed === false")
    expect(anna.locator("[data-watch-count]")).to_have_count(0)
    expect(box).not_to_be_checked()
