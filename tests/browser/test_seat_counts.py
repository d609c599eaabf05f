"""Tables of three and five from the browser: a person with computer players plays to game over on a phone (upright
and on its side) and on a desktop, sees who sits where, the kitty and who took it, passing two seats away, and a
score table with a column per seat; and the table's layout for three to twelve seats keeps everyone in play order
around the trick, each card toward its player, nothing over anything else."""

from __future__ import annotations

import json
import math

import pytest
from playwright.sync_api import Page, expect

from .conftest import (
    DESKTOP,
    fill_and_start,
    no_horizontal_scroll,
    pass_cards,
    play_one_legal,
    play_until_game_over,
    resize,
    save_shot,
    view,
)
from .test_variant_play import create_variant_table

pytestmark = pytest.mark.animations_off  # many hands played; what animations do is tested elsewhere

PHONE_TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
KITTY_LABEL = "The kitty: 1 face down: the kitty goes to the winner of the first trick"

# Boxes of what must be seen at the table, whether a tap at a point of each reaches it, and the page's scroll size.
# A trick card is "readable" when the tap at its top-left corner (its rank and suit) reaches it.
MEASURE = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
    const reaches = (e, x, y) => e.contains(document.elementFromPoint(x, y));
    const whole = (e, name) => { const r = e.getBoundingClientRect();
        return {name, ...box(e), reachable: reaches(e, (r.left + r.right) / 2, (r.top + r.bottom) / 2)}; };
    const played = (e) => { const r = e.getBoundingClientRect();
        return {name: 'played ' + e.dataset.card, ...box(e), readable: reaches(e, r.left + 5, r.top + 5)}; };
    const root = document.scrollingElement;
    return {
        viewport: {w: window.innerWidth, h: window.innerHeight},
        scroll: {w: root.scrollWidth, h: root.scrollHeight},
        opponents: [...document.querySelectorAll('.opp .player')].map((p) => whole(p, 'seat ' + p.dataset.seat)),
        me: whole(document.querySelector('.player.self'), 'me'),
        trick: whole(document.querySelector('.trick'), 'trick'),
        cards: [...document.querySelectorAll('.trick .slot .card')].map(played),
        hand: [...document.querySelectorAll('.hand .card')].map((e) => whole(e, 'hand ' + e.dataset.card)),
    };
}"""

# Trick cards at rest (none sliding in or out).
AT_REST = "() => [...document.querySelectorAll('.trick .card')].every(c => c.getAnimations().length === 0)"


def _overlap(a: dict, b: dict) -> bool:
    across = a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
    return across and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5


def _inside(a: dict, viewport: dict) -> bool:
    across = a["x"] >= -0.5 and a["x"] + a["w"] <= viewport["w"] + 0.5
    return across and a["y"] >= -0.5 and a["y"] + a["h"] <= viewport["h"] + 0.5


def check_layout(seen: dict, seats: int, cards_may_touch: bool = False, scrolls: bool = False) -> None:
    """Every opponent, me, the trick and its cards in view (the hand too, unless the page may scroll), no panel
    over another or over the trick, every trick card's corner readable up to six seats and, unless they may touch,
    no card over another."""
    viewport = seen["viewport"]
    assert seen["scroll"]["w"] <= viewport["w"], ("scrolls sideways", seats, seen["scroll"], viewport)
    if not scrolls:
        assert seen["scroll"]["h"] <= viewport["h"], ("scrolls", seats, seen["scroll"], viewport)
        for card in seen["hand"]:
            assert _inside(card, viewport), card
    assert len(seen["opponents"]) == seats - 1
    panels = [*seen["opponents"], seen["me"]]
    for panel in seen["opponents"] if scrolls else panels:
        assert _inside(panel, viewport) and panel["reachable"], panel
    for panel in panels:
        assert not _overlap(panel, seen["trick"]), (panel, seen["trick"])
        for other in panels:
            assert other is panel or not _overlap(panel, other), (panel, other)
    assert _inside(seen["trick"], viewport), seen["trick"]
    for card in seen["cards"]:
        assert card["w"] >= 30, card
        assert _inside(card, viewport) and (card["readable"] or seats > 6), card
        for panel in panels:
            assert not _overlap(card, panel), (card, panel)
        if not cards_may_touch:
            for other in seen["cards"]:
                assert other is card or not _overlap(card, other), (card, other)


def photo(page: Page, label: str) -> None:
    """A screenshot under artifacts/screenshots/seats-<label>.png."""
    save_shot(page, f"seats-{label}")


def create_and_start(page: Page, variant: str, fields: dict[str, str]) -> None:
    """A table of ``variant`` with easy computer players in every other seat, started."""
    page.select_option("#level", "easy")
    create_variant_table(page, variant, fields)
    fill_and_start(page)


def seat_names(page: Page) -> list[str]:
    return page.evaluate("() => window.hartenjagen.state.table.seats.map(s => s.name)")


def first_hand_scored(v: dict) -> bool:
    return bool(v["history"]) and v["phase"] in ("hand_over", "game_over")


def names_whole(dialog) -> bool:
    """Every column head of the score table shows its whole text (nothing cut off), and up to five seats the table
    fits a phone without scrolling sideways."""
    heads = dialog.locator("table.scores thead th")
    whole = all(heads.evaluate_all("els => els.map(e => e.scrollWidth <= e.clientWidth + 1)"))
    return whole and dialog.locator(".table-wrap").evaluate("e => e.scrollWidth <= e.clientWidth")


def my_turn_with_cards_on_the_table(page: Page) -> None:
    """Play on until it is my turn with cards of the others in the trick, shown at rest (the trick before gone)."""
    for _ in range(20):
        page.wait_for_selector(".hand .card.legal")
        v = view(page)
        if v["trick"] and v["trick"]["cards"]:
            page.wait_for_selector(".trick-caption", state="detached")
            page.wait_for_function(AT_REST, polling="raf")
            return
        play_one_legal(page)
    raise AssertionError("never followed to a trick")


def test_three_with_a_kitty_on_a_phone_to_game_over(open_page):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    page.select_option("#level", "easy")
    create_variant_table(page, "three_kitty", {"end_score": "25"})
    expect(page.locator(".seat-card")).to_have_count(3)
    expect(page.locator(".seat-card").nth(1)).to_contain_text("Seat 2")
    fill_and_start(page)
    names = seat_names(page)

    # Three players: me at the bottom, the next two in play order along the top; the kitty face down in the middle.
    expect(page.locator(".opp .player")).to_have_count(2)
    expect(page.locator("[data-area=top] .player").nth(0)).to_contain_text(f"Seat 2 {names[1]}")
    expect(page.locator("[data-area=top] .player").nth(1)).to_contain_text(f"Seat 3 {names[2]}")
    expect(page.locator(".player.self")).to_contain_text("Seat 1 Anna")
    kitty = page.locator("[data-area=center] .kitty")  # under the pass while cards are passed, then under the trick
    expect(kitty.locator(".card.back")).to_have_count(1)
    expect(kitty).to_have_attribute("aria-label", KITTY_LABEL)
    expect(kitty).to_be_in_viewport()
    expect(page.locator(".hand .card")).to_have_count(17)

    # The first hand passes to the left: to the next player, Seat 2.
    v = view(page)
    assert v["phase"] == "passing" and v["pass_direction"] == "left" and v["pass_to"] == 1
    expect(page.locator("[data-action=pass]")).to_have_text("Pass to the left")
    expect(page.locator(".status .turn-line")).to_contain_text(f"Choose 3 cards to pass to {names[1]} (the left).")
    photo(page, "three-kitty-passing-portrait")
    pass_cards(page)

    # The player left of the dealer (the last seat deals first) leads: that is me; the kitty still lies there.
    page.wait_for_selector(".hand .card.legal")
    v = view(page)
    assert v["dealer"] == 2 and v["turn"] == 0 and v["kitty_takers"] == [-1] and v["kitty"] == []
    expect(kitty.locator(".card.back")).to_have_count(1)
    photo(page, "three-kitty-kitty-portrait")
    check_layout(page.evaluate(MEASURE), 3)
    play_one_legal(page)

    # After the first trick everyone sees who took the kitty; only the taker sees its card.
    page.wait_for_function("() => window.hartenjagen.state.table.view.tricks.length >= 1")
    v = view(page)
    taker = v["kitty_takers"][0]
    assert taker == v["tricks"][0]["winner"]
    note = page.locator(".hand-no .kitty-note")
    expect(note).to_have_text("kitty: you" if taker == 0 else f"kitty: {names[taker]}")
    expect(page.locator(".trick .kitty")).to_have_count(0)
    if taker == 0:
        assert len(v["kitty"]) == 1
        expect(page.locator(".player.self .my-kitty")).to_have_attribute("data-my-kitty", v["kitty"][0])
        expect(page.locator(".player.self .kitty-badge")).to_have_text("kitty")
    else:
        assert v["kitty"] == []
        expect(page.locator(".my-kitty")).to_have_count(0)
        expect(page.locator(f'.opp [data-seat="{taker}"] .kitty-badge')).to_have_text("kitty")
    photo(page, "three-kitty-taken-portrait")

    # On its side, mid-trick: everyone, the trick and the hand in view at once.
    my_turn_with_cards_on_the_table(page)
    resize(page, LANDSCAPE)
    page.wait_for_function(AT_REST, polling="raf")
    photo(page, "three-kitty-playing-landscape")
    check_layout(page.evaluate(MEASURE), 3, cards_may_touch=True)
    resize(page, PHONE_TALL)

    # The score table after the first hand: a column per seat, mine first, names whole.
    first = play_until_game_over(page, hands=1, stop=first_hand_scored)
    dialog = page.locator(".dialog-scores")
    expect(dialog.locator("table.scores thead th")).to_have_count(4)
    expect(dialog.locator("table.scores tfoot td")).to_have_count(3)
    assert first["history"][0]["kitty_takers"] == [taker]
    assert names_whole(dialog)
    assert no_horizontal_scroll(page)
    photo(page, "three-kitty-scores-portrait")

    final = play_until_game_over(page, hands=10)
    assert final["game_over"] and final["winners"]
    expect(dialog.locator(".winners")).to_contain_text("Game over")
    winner = names[final["winners"][0]] if final["winners"][0] else "Anna"
    expect(dialog.locator(".winners")).to_contain_text(winner)
    expect(dialog.locator("table.scores tbody tr")).to_have_count(len(final["history"]))
    photo(page, "three-kitty-game-over-portrait")
    resize(page, LANDSCAPE)
    assert no_horizontal_scroll(page)
    photo(page, "three-kitty-game-over-landscape")

    # The replay shows the three hands and each hand's kitty, open.
    resize(page, PHONE_TALL)
    dialog.locator("[data-action=replay]").click()
    expect(page.locator(".rp-seat")).to_have_count(3)
    expect(page.locator(".rp-kitty")).to_contain_text("Kitty: ")
    expect(page.locator(".rp-totals table.scores tfoot td")).to_have_count(3)
    photo(page, "three-kitty-replay-portrait")


def test_five_on_a_phone_and_a_desktop_to_game_over(open_page):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    create_and_start(page, "five", {"end_score": "25"})
    names = seat_names(page)
    assert len(names) == 5

    # Four opponents in one row under the top bar, in play order: left, the two across, right.
    expect(page.locator(".opp .player")).to_have_count(4)
    expect(page.locator("[data-area=left] .player")).to_contain_text(f"Seat 2 {names[1]}")
    expect(page.locator("[data-area=top] .player").nth(0)).to_contain_text(f"Seat 3 {names[2]}")
    expect(page.locator("[data-area=top] .player").nth(1)).to_contain_text(f"Seat 4 {names[3]}")
    expect(page.locator("[data-area=right] .player")).to_contain_text(f"Seat 5 {names[4]}")
    tops = page.locator(".opp .player").evaluate_all("els => els.map(e => Math.round(e.getBoundingClientRect().top))")
    assert len(set(tops)) == 1, tops
    expect(page.locator(".trick .kitty")).to_have_count(0)
    expect(page.locator(".hand .card")).to_have_count(10)
    expect(page.locator("[data-action=pass]")).to_have_text("Pass to the left")
    photo(page, "five-passing-portrait")
    pass_cards(page)

    my_turn_with_cards_on_the_table(page)
    photo(page, "five-playing-portrait")
    check_layout(page.evaluate(MEASURE), 5)
    resize(page, LANDSCAPE)
    page.wait_for_function(AT_REST, polling="raf")
    photo(page, "five-playing-landscape")
    check_layout(page.evaluate(MEASURE), 5, cards_may_touch=True)
    resize(page, DESKTOP)
    page.wait_for_function(AT_REST, polling="raf")
    photo(page, "five-playing-desktop")
    check_layout(page.evaluate(MEASURE), 5)
    resize(page, PHONE_TALL)

    final = play_until_game_over(page, hands=12)
    assert final["game_over"] and final["winners"]
    dialog = page.locator(".dialog-scores")
    expect(dialog.locator(".winners")).to_contain_text("Game over")
    expect(dialog.locator("table.scores thead th")).to_have_count(6)
    totals = dialog.locator("table.scores tfoot td")
    expect(totals).to_have_count(5)
    for seat in range(5):
        expect(totals.nth(seat)).to_have_text(str(final["totals"][seat]))
    assert names_whole(dialog)
    assert no_horizontal_scroll(page)
    photo(page, "five-game-over-portrait")
    resize(page, DESKTOP)
    photo(page, "five-game-over-desktop")


def test_five_pass_to_the_second_player_on_the_left_in_both_languages(open_page):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    create_and_start(page, "five", {"end_score": "500"})
    names = seat_names(page)
    play_until_game_over(page, hands=3, stop=lambda v: v["phase"] == "passing" and v["pass_direction"] == "left2")
    v = view(page)
    assert v["pass_to"] == 2 and v["pass_from"] == 3
    expect(page.locator("[data-action=pass]")).to_have_text("Pass to the second player on your left")
    expect(page.locator(".status .turn-line")).to_contain_text(
        f"Choose 3 cards to pass to {names[2]} (the second player on your left)."
    )
    photo(page, "five-left2-passing-portrait")
    page.click("#top [data-action=lang][data-lang=nl]")
    expect(page.locator("[data-action=pass]")).to_have_text("Doorgeven naar de tweede speler links van je")
    expect(page.locator(".player.self")).to_contain_text("Stoel 1")
    photo(page, "five-left2-passing-nl-portrait")
    chosen = pass_cards(page)
    page.wait_for_function("() => window.hartenjagen.state.table.view.phase === 'playing'")
    assert set(view(page)["passed"]) == set(chosen)
    expect(page.locator(".passed-line")).to_contain_text(f"Doorgegeven aan {names[2]}")


# ------------------------------------------------------------------ the layout at three to twelve seats


NAMES = ["Anna-Sophie", "Ellen", "Ruud", "Sanne", "Bram", "Noor", "Joost", "Femke", "Daan", "Lotte", "Sem", "Vera"]


def _played_view(variant: str, cards: int) -> dict:
    """A view of seat 0 after passing, with ``cards`` cards in the first trick (the core's own, JSON-safe)."""
    from hartenjagen.shared.cards import parse_card
    from hartenjagen.shared.game import Game
    from hartenjagen.shared.variants import make_rules
    from hartenjagen.shared.view import view_for

    game = Game(make_rules({"variant": variant}))
    game.deal_seeded(5)
    if game.phase == "passing":
        for seat in range(game.seats):
            v = view_for(game, seat)
            game.pass_cards(seat, [parse_card(c) for c in v["hand"][: v["pass_count"]]])
    while game.trick is None or len(game.trick.cards) < cards:
        seat = game.to_act()[0]
        game.play(seat, parse_card(view_for(game, seat)["legal"][0]))
    return json.loads(json.dumps(view_for(game, 0)))


def _stretched(view: dict, n: int) -> dict:
    """A five-seat view stretched to n seats, each seat but mine with a card in the trick (no variant plays these
    yet; the client draws whatever the view says)."""
    v = json.loads(json.dumps(view))
    v["seats"] = n
    for key in ("hand_sizes", "points_taken", "totals"):
        v[key] = [v[key][s % 5] for s in range(n)]
    spare = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS"]
    v["trick"] = {"leader": 1, "cards": [{"seat": s, "card": spare[s - 1]} for s in range(1, n)], "winner": None}
    v["turn"] = 0
    return v


def _table(view: dict, n: int) -> dict:
    seats = [
        {
            "seat": s,
            "name": NAMES[s],
            "kind": "person" if s == 0 else "computer",
            "level": None if s == 0 else "medium",
            "connected": True,
            "away": False,
        }
        for s in range(n)
    ]
    return {
        "type": "table",
        "seq": 9,
        "code": "TEST",
        "link": "/t/TEST",
        "you": 0,
        "host": 0,
        "status": "playing",
        "options": view["rules"],
        "computer_level": "medium",
        "seats": seats,
        "turn_timer": None,
        "deadline": None,
        "ready": [],
        "view": view,
        "events": [],
        "resumed": None,
        "deal": None,
        "daily": None,
        "replay": None,
        "watch": {"allowed": True, "count": 0},
        "chat": {"allowed": True},
    }


def tables() -> dict[int, dict]:
    """A table message for every seat count from three to twelve, every other seat's card in the trick."""
    five = _played_view("five", 4)
    out = {3: _table(_played_view("three_kitty", 2), 3), 5: _table(_played_view("five_kitty", 4), 5)}
    for n in (4, 6, 7, 8, 9, 10, 11, 12):
        out[n] = _table(_stretched(five, n), n)
    return out


# Show the table message ``m`` as the page's own; resolves once the page has drawn it (the page redraws on the next
# animation frame, and a frame callback asked for after the resize event runs after that redraw).
SHOW = """(m) => {
    const s = window.hartenjagen.state;
    s.table = m; s.screen = 'table'; s.trickShow = null; s.conn = 'online';
    window.dispatchEvent(new Event('resize'));
    return new Promise((drawn) => requestAnimationFrame(() => drawn()));
}"""

# Each seat's panel and trick card centre, by seat.
CENTRES = """() => {
    const mid = (e) => {
        const r = e.getBoundingClientRect();
        return [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    };
    const trick = document.querySelector('.trick');
    return {
        panels: Object.fromEntries([...document.querySelectorAll('.opp .player')].map(p => [p.dataset.seat, mid(p)])),
        me: mid(document.querySelector('.player.self')),
        trick: mid(trick),
        cards: Object.fromEntries([...trick.querySelectorAll('.slot .card')].map(c =>
            [c.getAttribute('aria-label').split(' plays ')[0], mid(c)])),
        seats: trick.dataset.seats || '4',
    };
}"""

SIZES = {"portrait": PHONE_TALL, "landscape": LANDSCAPE, "desktop": DESKTOP}


def _clockwise(centre: list[float], point: list[float]) -> float:
    """The angle of ``point`` seen from ``centre``, clockwise from straight down, in degrees 0..360."""
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    return math.degrees(math.atan2(-dx, dy)) % 360


@pytest.mark.parametrize("size", list(SIZES))
def test_three_to_twelve_seats_sit_around_the_table_in_play_order(open_page, size):
    page = open_page("/", viewport=SIZES[size])
    page.wait_for_function("() => window.hartenjagen")
    for n, table in tables().items():
        page.evaluate(SHOW, table)
        page.wait_for_function("n => document.querySelectorAll('.opp .player').length === n - 1", arg=n)
        page.wait_for_function(AT_REST, polling="raf")
        photo(page, f"layout-{n}-{size}")
        # Up to six seats everything fits a phone upright and on its side; from seven on a short screen scrolls.
        check_layout(page.evaluate(MEASURE), n, cards_may_touch=n > 6 or size == "landscape", scrolls=n > 6)
        seen = page.evaluate(CENTRES)
        assert seen["seats"] == str(n)
        rows = n > 6 and size == "portrait"  # a phone upright: the side seats and the top seats a row each
        # The chairs are named by number away from four seats, by wind at four.
        expect(page.locator(".opp .player .wind").first).to_have_text("West" if n == 4 else "Seat 2")
        if rows:  # then they read in play order, line by line
            places = [seen["panels"][str(s)] for s in range(1, n)]
            for (x0, y0), (x1, y1) in zip(places, places[1:], strict=False):
                assert y1 > y0 + 5 or (abs(y1 - y0) <= 5 and x1 > x0), (n, size, places)
            continue
        # Going clockwise round the trick from me, the seats come in play order (seat + 1 is on my left).
        angles = [_clockwise(seen["trick"], seen["panels"][str(s)]) for s in range(1, n)]
        assert angles == sorted(angles), (n, size, angles)
        # Each card lies toward its player: on the player's side of the trick (on a phone upright, where every
        # opponent sits above it, the left players' cards on the left, the right players' on the right).
        for s in range(1, n):
            card = seen["cards"].get(NAMES[s])
            if card is None:
                continue  # not played yet
            panel = seen["panels"][str(s)]
            if size == "portrait":
                side = panel[0] - seen["trick"][0]
                placed = card[0] - seen["trick"][0]
                assert abs(side) < 20 or side * placed > 0, (n, size, s, panel, card)
                continue
            to_panel = _clockwise(seen["trick"], panel)
            to_card = _clockwise(seen["trick"], card)
            assert min(abs(to_panel - to_card), 360 - abs(to_panel - to_card)) < 90, (n, size, s, to_panel, to_card)


@pytest.mark.parametrize("n", [5, 12])
def test_the_score_table_has_a_column_per_seat_and_scrolls_sideways_inside_its_dialog(open_page, n):
    page = open_page("/", viewport=PHONE_TALL)
    page.wait_for_function("() => window.hartenjagen")
    table = tables()[n]
    v = table["view"]
    scores = [[(3 * s + h * 7) % 14 for s in range(n)] for h in range(2)]
    totals = [scores[0], [a + b for a, b in zip(*scores, strict=True)]]
    v["history"] = [
        {"hand_no": h, "points": scores[h], "scores": scores[h], "totals": totals[h], "moon": None} for h in range(2)
    ]
    v["totals"] = totals[1]
    page.evaluate(SHOW, table)
    page.evaluate("() => { window.hartenjagen.state.overlay = 'scores'; window.dispatchEvent(new Event('resize')); }")
    dialog = page.locator(".dialog-scores")
    expect(dialog.locator("table.scores thead th")).to_have_count(n + 1)
    expect(dialog.locator("table.scores tfoot td")).to_have_count(n)
    heads = dialog.locator("table.scores thead th").evaluate_all(
        "els => els.map(e => e.scrollWidth <= e.clientWidth + 1)"
    )
    assert all(heads), heads
    assert no_horizontal_scroll(page)
    wrap = dialog.locator(".table-wrap")
    scrolls = wrap.evaluate("e => e.scrollWidth > e.clientWidth")
    assert scrolls == (n > 5), (n, scrolls)
    photo(page, f"scores-{n}-portrait")
    if scrolls:  # scrolled to the end: the hand numbers stay at the left, the last seat's column in view
        wrap.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        first = dialog.locator("table.scores tbody th").first.bounding_box()
        last = dialog.locator("table.scores tfoot td").last.bounding_box()
        box = wrap.bounding_box()
        assert abs(first["x"] - box["x"]) < 2, (first, box)
        assert last["x"] + last["width"] <= box["x"] + box["width"] + 1, (last, box)
        assert last["x"] >= first["x"] + first["width"] - 1, (first, last)
        photo(page, f"scores-{n}-portrait-scrolled")
