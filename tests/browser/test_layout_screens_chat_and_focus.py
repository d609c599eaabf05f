"""The layout as new players met it: a small phone (320x568) shows everything needed to pass and play on one
screen under a one-line top bar; the open chat never covers the hand or whose turn it is, and a line arriving while
it is closed shows as a count on its button; the keyboard focus is a ring like no other marking and lands on a card
that may be played; a phone on its side keeps the line under the trick clear of the hand, the chat button sits beside
your own panel on a phone, and a large screen shows large cards side by side and larger text."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import click_card, create_table, fill_and_start, hand_cards, play_one_legal, view

SMALL = {"width": 320, "height": 568}
TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
SHORT_LANDSCAPE = {"width": 568, "height": 320}
DESKTOP = {"width": 1280, "height": 800}
LARGE = {"width": 1920, "height": 1080}
LONG_NAME = "Anna-Sophie van den Berg"

# Boxes of what a player needs at the table, whether a tap reaches each, and the page's scroll size. A card of the
# hand may lie partly under its neighbours: the point near its top-left corner (its rank and suit) must be reachable.
MEASURE = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
    const reach = (e, x, y) => e.contains(document.elementFromPoint(x, y));
    const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const whole = (e, name) => { const r = e.getBoundingClientRect();
        return {name, ...box(e), reachable: reach(e, (r.left + r.right) / 2, (r.top + r.bottom) / 2)}; };
    const card = (e) => { const r = e.getBoundingClientRect();
        return {name: 'hand ' + e.dataset.key, ...box(e), reachable: reach(e, r.left + 6, r.top + r.height * .2)}; };
    const all = (s, f) => [...document.querySelectorAll(s)].filter(shown).map(f);
    const one = (s, name) => { const e = document.querySelector(s); return e && shown(e) ? whole(e, name) : null; };
    const root = document.scrollingElement;
    return {
        viewport: {w: window.innerWidth, h: window.innerHeight},
        scroll: {w: root.scrollWidth, h: root.scrollHeight},
        hand: all('.hand .card', card),
        trick: one('.trick, .pass-board', 'trick'),  // while cards are passed the middle shows the pass
        trickCards: all('.trick .card', (e) => whole(e, 'played ' + e.dataset.card)),
        turn: one('.status .turn-line', 'turn line'),
        buttons: all('.status button', (b) => whole(b, 'button ' + b.textContent.trim())),
        opponents: all('.opp .player', (p) => whole(p, 'seat ' + p.dataset.seat)),
        me: one('.player.self', 'me'),
        captions: all('.under-trick p', (p) => whole(p, 'caption ' + p.textContent.trim())),
        header: all('#top button', (b) => whole(b, 'top ' + b.textContent.trim())),
        toggle: one('.chat-toggle', 'chat button'),
        unread: one('.chat-unread', 'new lines'),
        panel: one('#chat-panel', 'chat panel'),
    };
}"""


def _inside(a: dict, viewport: dict) -> bool:
    across = a["x"] >= -0.5 and a["x"] + a["w"] <= viewport["w"] + 0.5
    return across and a["y"] >= -0.5 and a["y"] + a["h"] <= viewport["h"] + 0.5


def _overlap(a: dict, b: dict) -> bool:
    across = a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
    return across and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5


def check_playable(seen: dict, cards: int) -> None:
    """Everything needed to play is on the screen, without scrolling: every card of the hand (its corner reachable),
    the trick and its cards, the line saying whose turn it is, and every button of the status."""
    viewport = seen["viewport"]
    assert seen["scroll"]["h"] <= viewport["h"], ("the page scrolls", seen["scroll"], viewport)
    assert seen["scroll"]["w"] <= viewport["w"], ("the page scrolls sideways", seen["scroll"], viewport)
    assert len(seen["hand"]) == cards, seen["hand"]
    for card in seen["hand"]:
        assert _inside(card, viewport) and card["reachable"], card
    assert seen["trick"] and _inside(seen["trick"], viewport), seen["trick"]
    for card in seen["trickCards"]:
        assert _inside(card, viewport), card
    assert seen["buttons"], "no buttons under the table"
    for thing in [seen["turn"], *seen["buttons"]]:
        assert thing and _inside(thing, viewport) and thing["reachable"], thing
        for card in seen["hand"]:
            assert not _overlap(thing, card), (thing, card)


def check_one_line_top_bar(seen: dict) -> None:
    """The top bar's buttons stand on one line: no button (such as the language switch) alone on a second."""
    assert len(seen["header"]) >= 4, seen["header"]
    tops = {round(b["y"]) for b in seen["header"]}
    assert len(tops) == 1, seen["header"]


def check_toggle_beside_me(seen: dict, upright: bool) -> None:
    """The closed chat button is whole on the screen, right of your own panel (upright) or under it (on its side), and
    over nothing of the table."""
    toggle, me, viewport = seen["toggle"], seen["me"], seen["viewport"]
    assert toggle and toggle["reachable"] and _inside(toggle, viewport), toggle
    assert toggle["x"] + toggle["w"] <= viewport["w"] - 2, ("glued to the edge", toggle)
    middle = toggle["y"] + toggle["h"] / 2
    if upright:
        assert toggle["x"] >= me["x"] + me["w"] and me["y"] <= middle <= me["y"] + me["h"], (toggle, me)
    else:
        right = abs(toggle["x"] + toggle["w"] - me["x"] - me["w"])
        assert toggle["y"] >= me["y"] + me["h"] and right <= 1, (toggle, me)
    things = [*seen["hand"], *seen["opponents"], seen["me"], seen["trick"], *seen["buttons"], *seen["captions"]]
    things += seen["header"]
    for thing in things:
        assert not _overlap(toggle, thing), (toggle, thing)


def _start(page: Page, passing: str | None = None, deal: int | None = None) -> None:
    if deal is not None:
        page.fill("#deal", str(deal))
    create_table(page, passing=passing)
    fill_and_start(page)


MY_TURN_AT_REST = """() => document.querySelector('.hand .card.legal')
    && [...document.querySelectorAll('.trick .card')].every(c => c.getAnimations().length === 0)"""


def _choose_three(page: Page) -> None:
    page.wait_for_selector("[data-action=pass]")
    for card in hand_cards(page)[:3]:
        click_card(page, card)
    expect(page.locator(".hand .card.selected")).to_have_count(3)


def _pass_and_play_one(page: Page) -> None:
    """Pass the three chosen cards, play a card and wait until it is my turn again, the trick at rest."""
    page.click("[data-action=pass]")
    play_one_legal(page)
    page.wait_for_function(MY_TURN_AT_REST, polling="raf")


# ------------------------------------------------------------------ 1. a small phone


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_a_small_phone_shows_everything_needed_to_pass_and_play(open_page, shot, locale):
    page = open_page("/", viewport=SMALL, locale=locale, name=LONG_NAME)
    _start(page)
    _choose_three(page)
    seen = page.evaluate(MEASURE)
    shot(page, "passing")
    check_one_line_top_bar(seen)
    check_playable(seen, 13)
    expect(page.locator("[data-action=pass]")).to_be_in_viewport(ratio=1)
    expect(page.locator("[data-action=hint]")).to_be_in_viewport(ratio=1)
    check_toggle_beside_me(seen, upright=True)

    _pass_and_play_one(page)
    seen = page.evaluate(MEASURE)
    shot(page, "playing")
    check_one_line_top_bar(seen)
    check_playable(seen, 12)
    expect(page.locator("[data-action=hint]")).to_be_in_viewport(ratio=1)
    check_toggle_beside_me(seen, upright=True)
    for panel in seen["opponents"]:
        assert _inside(panel, seen["viewport"]), panel


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_the_top_bar_of_a_small_phone_is_one_line_in_the_waiting_room(open_page, locale):
    page = open_page("/", viewport=SMALL, locale=locale, name="Anna")
    create_table(page)
    seen = page.evaluate(MEASURE)
    check_one_line_top_bar(seen)
    # the shorter words stay the buttons' names for a screen reader
    expect(page.locator("#top [data-action=leave]")).to_have_accessible_name(re.compile(r"^(Leave|Verlaten)$"))


# ------------------------------------------------------------------ 2. the chat

CHAT_SIZES = {"desktop": DESKTOP, "large": LARGE, "small": SMALL, "tall": TALL, "landscape": LANDSCAPE}


@pytest.mark.parametrize("size", list(CHAT_SIZES))
def test_the_open_chat_never_covers_the_hand_or_whose_turn_it_is(open_page, shot, size):
    viewport = CHAT_SIZES[size]
    page = open_page("/", viewport=viewport, name=LONG_NAME)
    _start(page, passing="off")
    page.wait_for_function(MY_TURN_AT_REST, polling="raf")
    page.click(".chat-toggle")
    expect(page.locator("#chat-panel")).to_be_visible()
    page.fill("#chat-input", "Een regel om te zien waar het paneel staat")
    page.press("#chat-input", "Enter")
    expect(page.locator(".chat-line")).to_have_count(1)
    seen = page.evaluate(MEASURE)
    shot(page, "open")
    panel = seen["panel"]
    assert panel and _inside(panel, seen["viewport"]) and panel["h"] >= 150, panel
    check_playable(seen, 13)
    for thing in [*seen["hand"], seen["turn"], *seen["buttons"]]:
        assert not _overlap(panel, thing), (panel, thing)
        if thing["name"].startswith("hand") or thing["name"] == "turn line":
            assert thing["reachable"], thing
    if viewport["width"] >= 1000:
        # on a wide screen the table moves aside: no one's panel and no card of the trick lies under the chat
        for thing in [*seen["opponents"], seen["me"], seen["trick"], *seen["captions"]]:
            assert not _overlap(panel, thing), (panel, thing)
    # a card can be played with the chat open
    play_one_legal(page)
    expect(page.locator("#chat-panel")).to_be_visible()
    page.click(".chat-close")
    expect(page.locator("#chat-panel")).to_be_hidden()
    expect(page.locator(".chat-toggle")).to_be_focused()


def test_a_line_that_arrives_while_the_chat_is_closed_shows_as_a_count_on_its_button(open_page, shot):
    anna = open_page("/", viewport=DESKTOP, name="Anna")
    code = create_table(anna, passing="off")
    bram = open_page("/", viewport=SMALL, locale="nl-NL", name="Bram")
    bram.fill("#code", code)
    bram.click("form[data-form=join] button[type=submit]")
    bram.wait_for_selector(".lobby")
    anna.wait_for_function("() => window.hartenjagen.state.table.seats.filter(s => s.kind === 'person').length === 2")
    fill_and_start(anna)
    bram.wait_for_selector(".hand .card")
    expect(bram.locator(".chat-unread")).to_be_hidden()

    anna.click(".chat-toggle")
    anna.fill("#chat-input", "Succes Bram!")
    anna.press("#chat-input", "Enter")
    anna.click("[data-phrase=good_luck]")
    expect(bram.locator(".chat-unread")).to_have_text("2")
    expect(bram.locator(".chat-toggle")).to_have_attribute("aria-label", "Chat: 2 nieuw")
    seen = bram.evaluate(MEASURE)
    shot(bram, "badge-phone")
    check_toggle_beside_me(seen, upright=True)
    assert seen["unread"] and _inside(seen["unread"], seen["viewport"]), seen["unread"]
    for card in seen["hand"]:
        assert not _overlap(seen["unread"], card), (seen["unread"], card)

    bram.click(".chat-toggle")
    expect(bram.locator(".chat-line .chat-text")).to_have_text(["Succes Bram!", "Succes!"])
    expect(bram.locator(".chat-unread")).to_be_hidden()
    seen = bram.evaluate(MEASURE)
    shot(bram, "open-phone")
    for thing in [*seen["hand"], seen["turn"]]:
        assert not _overlap(seen["panel"], thing), (seen["panel"], thing)
    bram.click(".chat-close")
    anna.fill("#chat-input", "Nog eentje")
    anna.press("#chat-input", "Enter")
    expect(bram.locator(".chat-unread")).to_have_text("1")


# ------------------------------------------------------------------ 3. the keyboard focus

# The look of a card: its outline and shadows, whether it is faded, and its face's colour.
LOOK = """(e) => { const s = getComputedStyle(e);
    return {key: e.dataset.key, cls: e.className, focused: e === document.activeElement,
            visible: e.matches(':focus-visible'),
            outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth), outlineColor: s.outlineColor,
            shadow: s.boxShadow, opacity: Number(s.opacity), filter: s.filter, face: s.backgroundColor}; }"""
FELT = "() => getComputedStyle(document.documentElement).getPropertyValue('--felt').trim()"


def _rgb(text: str) -> tuple[int, int, int]:
    if text.startswith("#"):
        return tuple(int(text[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]
    return tuple(int(float(n)) for n in re.findall(r"[\d.]+", text)[:3])  # type: ignore[return-value]


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _ring(look: dict) -> tuple[tuple[int, int, int], tuple[int, int, int], float]:
    """A focused card's ring: the inner (outline) colour, the outer ring's colour and the outer ring's width."""
    assert look["focused"] and look["visible"], look
    assert look["outlineStyle"] == "solid" and look["outlineWidth"] >= 2, look
    outer = re.match(r"(rgba?\([^)]*\)) 0px 0px 0px (\d+(?:\.\d+)?)px", look["shadow"])
    assert outer, look["shadow"]
    return _rgb(look["outlineColor"]), _rgb(outer.group(1)), float(outer.group(2)) - look["outlineWidth"]


def _focused(page: Page) -> dict:
    return page.evaluate(f"() => ({LOOK})(document.activeElement)")


FOCUS_SIZES = {"small": SMALL, "tall": TALL, "landscape": LANDSCAPE, "large": LARGE}


@pytest.mark.parametrize("size", list(FOCUS_SIZES))
def test_keyboard_focus_is_a_ring_like_no_other_marking_and_lands_on_a_playable_card(open_page, shot, size):
    # Deal 1 gives me the two of clubs: after passing my three highest cards I lead it, the one card I may play.
    page = open_page("/", viewport=FOCUS_SIZES[size], name="Anna")
    _start(page, deal=1)
    assert "2C" in view(page)["hand"]
    expect(page.locator('.hand .card[tabindex="0"]')).to_be_focused()
    # With the keyboard: the last three cards chosen, then one step left, to a card that stays in the hand.
    page.keyboard.press("End")
    for _ in range(3):
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowLeft")
    expect(page.locator(".hand .card.selected")).to_have_count(3)
    before = _focused(page)
    assert "selected" not in before["cls"]
    selected = page.evaluate(f"() => [...document.querySelectorAll('.hand .card.selected')].map({LOOK})")
    _ring(before)  # the ring shows while passing too
    felt = _rgb(page.evaluate(FELT))
    shot(page, "passing-focus")
    page.locator("[data-action=pass]").focus()
    page.keyboard.press("Enter")

    # My turn to lead: the focus is on the one card that may be played, not on the card it was on before passing.
    page.wait_for_function("() => { const v = window.hartenjagen.state.table.view; return v.turn === v.seat; }")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('.hand .card.legal')")
    focus = _focused(page)
    assert focus["key"] == "2C#0" and focus["key"] != before["key"], (focus, before)
    inner, outer, width = _ring(focus)
    # unmistakable: dark against the card's face, bright against the felt, each ring at least 2 px
    assert width >= 2
    assert _contrast(inner, _rgb(focus["face"])) >= 3, (inner, focus["face"])
    assert _contrast(outer, felt) >= 3, (outer, felt)
    assert _contrast(inner, outer) >= 3, (inner, outer)
    shot(page, "playing-focus")

    # Like no other marking: the received glow, the chosen cards' line, the hint, the cards that stand up or are dimmed.
    page.keyboard.press("ArrowRight")  # away from the two of clubs, to a card that may not be played
    page.wait_for_function("() => !document.activeElement.matches('.legal')")
    dimmed = _focused(page)
    assert "dimmed" in dimmed["cls"], dimmed
    assert _ring(dimmed)[:2] == (inner, outer), dimmed  # the same ring, not faded with the card
    assert dimmed["opacity"] == 1 and dimmed["filter"] == "none", dimmed
    page.click("[data-action=hint]")
    page.wait_for_selector(".hand .card.hint")
    page.locator('.hand .card[tabindex="0"]').focus()
    page.keyboard.press("ArrowRight")
    others = page.evaluate(f"() => [...document.querySelectorAll('.hand .card:not(:focus)')].map({LOOK})")
    marks = {"received", "selected", "hint", "legal", "dimmed"}
    kinds = {kind for look in others + selected for kind in marks if kind in look["cls"].split()}
    assert kinds == marks, kinds
    for look in others + selected:
        assert look["outlineStyle"] == "none" or _rgb(look["outlineColor"]) != inner, look
        colours = {_rgb(c) for c in re.findall(r"rgba?\([^)]*\)", look["shadow"])}
        assert outer not in colours and inner not in colours, look
    shot(page, "dimmed-focus")


# ------------------------------------------------------------------ 4. a phone on its side, phones, a large screen

# As soon as a finished trick is shown with its caption ("… takes the trick"), keep it on the table for the test.
HOLD_THE_FINISHED_TRICK = """() => {
    const state = window.hartenjagen.state;
    const watch = () => {
        if (state.trickShow && document.querySelector('.trick-caption')) {
            state.trickShow.until = Date.now() + 60_000;
            state.trickShow.slideUntil = state.trickShow.until + 1_000;
            return;
        }
        requestAnimationFrame(watch);
    };
    watch();
}"""


def check_captions_clear(seen: dict) -> None:
    """The lines under the trick (who took it, the hand number) are whole and lie over no card of the hand."""
    assert seen["captions"], "no line under the trick"
    for caption in seen["captions"]:
        assert _inside(caption, seen["viewport"]) and caption["reachable"], caption
        for card in seen["hand"]:
            assert not _overlap(caption, card), (caption, card)


@pytest.mark.parametrize("size", ["844x390", "568x320"])
def test_a_phone_on_its_side_keeps_the_line_under_the_trick_clear_of_the_hand(open_page, shot, size):
    viewport = {"844x390": LANDSCAPE, "568x320": SHORT_LANDSCAPE}[size]
    page = open_page("/", viewport=viewport, name=LONG_NAME)
    # On the small phone a numbered deal, whose number shares the top bar's one line, and whose last card, the ace of
    # hearts, may be played at the first trick: it stands up under the closed chat button.
    _start(page, deal=27 if size == "568x320" else None)
    _choose_three(page)  # chosen cards stand up the highest
    seen = page.evaluate(MEASURE)
    shot(page, "passing")
    if size == "568x320":
        check_one_line_top_bar(seen)
    check_playable(seen, 13)
    check_captions_clear(seen)
    check_toggle_beside_me(seen, upright=False)
    page.evaluate(HOLD_THE_FINISHED_TRICK)
    _pass_and_play_one(page)
    page.wait_for_selector(".trick-caption")
    seen = page.evaluate(MEASURE)
    shot(page, "playing")
    check_playable(seen, 12)
    check_captions_clear(seen)
    assert any(c["name"].startswith("caption ") and "trick" in c["name"] for c in seen["captions"]), seen["captions"]
    check_toggle_beside_me(seen, upright=False)


def test_a_tall_phone_has_the_chat_button_beside_your_panel(open_page, shot):
    page = open_page("/", viewport=TALL, name=LONG_NAME)
    _start(page)
    _choose_three(page)
    _pass_and_play_one(page)
    seen = page.evaluate(MEASURE)
    shot(page, "playing")
    check_playable(seen, 12)
    check_toggle_beside_me(seen, upright=True)


def test_a_large_screen_shows_large_cards_side_by_side_and_larger_text(open_page, shot):
    page = open_page("/", viewport=LARGE, name=LONG_NAME)
    _start(page)
    _choose_three(page)
    _pass_and_play_one(page)
    seen = page.evaluate(MEASURE)
    shot(page, "playing")
    check_playable(seen, 12)
    hand = sorted(seen["hand"], key=lambda c: c["x"])
    for left, right in zip(hand, hand[1:], strict=False):
        assert left["x"] + left["w"] <= right["x"] + 0.5, ("cards overlap", left, right)
    assert min(c["w"] for c in hand) >= 110, hand[0]
    spread = hand[-1]["x"] + hand[-1]["w"] - hand[0]["x"]
    assert spread >= 0.6 * LARGE["width"], spread  # the hand uses the width, not a third of it
    assert seen["trick"]["h"] >= 0.33 * LARGE["height"], seen["trick"]
    sizes = page.evaluate(
        "() => ['.status .turn-line', '.player.self .name', '.opp .player .name', '#top button']"
        ".map(s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"
    )
    assert min(sizes) >= 17, sizes
