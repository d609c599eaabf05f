"""What new players ran into at the table: the sides of a team game before the start (and choosing one), a watcher
who takes a computer player's seat or sits down after game over, and seat panels that show the hand's scores as the
score table does (a moon gives its shooter nothing)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from hartenjagen.shared.variants import VARIANTS, make_rules

from .conftest import create_table, no_horizontal_scroll, play_pages, view

PHONE_TALL = {"width": 390, "height": 844}
WIDE = {"width": 1920, "height": 1080}


def open_by_link(open_page, code: str, size: dict, name: str, locale: str = "en-GB") -> Page:
    """A friend opens the table's link with no name saved: the invitation, then the name and Join."""
    page = open_page(f"/t/{code}", viewport=size, locale=locale, name=None)
    page.wait_for_selector(".invite")
    page.fill("#name", name)
    page.press("#name", "Enter")
    return page


# ------------------------------------------------------------------ teams before the start


def test_the_sides_come_from_the_server_for_every_team_variant():
    # the table message and the invitation carry each seat's side from the core's rules; the client reads them
    from hartenjagen.server.table.seat_view import public_table
    from hartenjagen.server.table.table import Table

    for variant in VARIANTS:
        rules = make_rules({"variant": variant})
        table = Table.create("SIDES1", rules, at=0.0)
        assert public_table(table)["teams"] == (list(rules.teams) or None)


def test_the_sides_of_a_team_game_show_before_the_start_and_a_friend_moves_to_the_hosts_side(open_page, shot):
    anna = open_page("/", viewport=WIDE, name="Anna")
    code = create_table(anna, variant="achterhoeks")
    line = anna.locator("[data-team-line]")
    expect(line).to_have_text(
        "A team game: partners sit across from each other, North–South against East–West."
        " You play with whoever sits North against whoever sits West and whoever sits East."
    )
    expect(anna.locator(".side.mine .seat-card")).to_have_count(2)
    expect(anna.locator(".side.mine .seat-card[data-seat='2']")).to_contain_text("North")

    # the invitation says the sides, and where a seat is free
    bram = open_page(f"/t/{code}", viewport=PHONE_TALL, name=None)
    sides = bram.locator(".invite-sides")
    expect(sides).to_contain_text("partners sit across from each other")
    expect(sides.locator("[data-side='0']")).to_have_text("North–South Anna (South), North free")
    expect(sides.locator("[data-side='1']")).to_have_text("East–West West free, East free")
    assert no_horizontal_scroll(bram)
    shot(bram, "invite-sides-phone-390")

    # joining lands on the first free seat, West: the host's opponent, and the waiting room says so
    bram.fill("#name", "Bram")
    bram.press("#name", "Enter")
    bram.wait_for_selector(".lobby .sides")
    assert bram.evaluate("() => window.hartenjagen.state.table.you") == 1
    expect(bram.locator("[data-team-line]")).to_contain_text(
        "You play with whoever sits East against Anna and whoever sits North."
    )
    expect(bram.locator(".side.mine h3")).to_contain_text("East–West")
    assert no_horizontal_scroll(bram)
    shot(bram, "lobby-opponent-phone-390")

    # the host fills the empty seats; he chooses her side: he takes North from the computer player, across from her
    anna.click("[data-action=fill_computers]")
    join = bram.locator(".side:not(.mine) .side-join")
    expect(join).to_have_text("Play on this side")
    expect(bram.locator(".side.mine .side-join")).to_have_count(0)  # not on your own side
    join.click()
    bram.wait_for_function("() => window.hartenjagen.state.table.you === 2")
    expect(bram.locator("[data-team-line]")).to_contain_text("You play with Anna against whoever sits West and Sanne.")
    expect(anna.locator("[data-team-line]")).to_contain_text("You play with Bram against whoever sits West and Sanne.")
    expect(anna.locator(".side.mine .seat-card[data-seat='2']")).to_contain_text("Bram")

    anna.click("[data-action=fill_computers]")
    expect(anna.locator("[data-team-line]")).to_contain_text("You play with Bram against Ellen and Sanne.")
    assert no_horizontal_scroll(anna)
    shot(anna, "lobby-partners-desktop-1920")
    shot(bram, "lobby-partners-phone-390")

    # the game: Bram is her partner there too
    anna.click("[data-action=start]:not([disabled])")
    anna.wait_for_selector(".hand .card")
    teams = view(anna)["teams"]
    assert teams[0] == teams[2] != teams[1]
    badge = anna.locator(".player[data-seat='2'] .badge.team")
    expect(badge).to_have_attribute("data-team", str(teams[0]))
    expect(badge).to_have_text("North–South")


def test_the_sides_read_in_dutch(open_page, shot):
    anna = open_page("/", viewport=PHONE_TALL, locale="nl-NL", name="Anna")
    create_table(anna, variant="achterhoeks")
    expect(anna.locator("[data-team-line]")).to_have_text(
        "Een teamspel: partners zitten tegenover elkaar, Noord–Zuid tegen Oost–West."
        " Je speelt samen met wie er Noord gaat zitten tegen wie er West gaat zitten en wie er Oost gaat zitten."
    )
    anna.click("[data-action=fill_computers]")
    expect(anna.locator(".side:not(.mine) .side-join")).to_have_text("Speel aan deze kant")
    assert no_horizontal_scroll(anna)
    shot(anna, "lobby-sides-phone-390-nl")


# ------------------------------------------------------------------ watchers


def test_a_watcher_takes_a_seat_is_told_what_he_inherits_and_a_late_sitter_gets_only_the_share_link(open_page, shot):
    anna = open_page("/", viewport=WIDE, name="Anna")
    # a short game that the first hand cannot end: a hand gives one seat at most 26 points (a moon: 26 to each other)
    anna.fill("#opt-classic-end_score", "27")
    code = create_table(anna)
    anna.click("[data-action=fill_computers]")
    anna.click("[data-action=start]:not([disabled])")
    anna.wait_for_selector(".hand .card")

    # mid-hand every seat is taken: Eva watches, and is told why
    eva = open_by_link(open_page, code, PHONE_TALL, "Eva")
    eva.wait_for_selector(".player.watching")
    full = "All seats are taken during this hand: you are watching."
    expect(eva.locator(".status .notice")).to_have_text(full)
    shot(eva, "watcher-mid-hand-phone-390")

    # the hand is over: the seats can change hands, and "all seats are taken" no longer holds
    # (Anna never says ready here: pressing Next hand at once would deal the next hand before Eva's page drew this end)
    play_pages([anna], stop=lambda: view(anna)["phase"] == "hand_over", moves=("pass", "play", "moon"))
    eva.wait_for_function("() => window.hartenjagen.state.table.view.phase === 'hand_over'")
    take = eva.locator(".dialog-scores [data-action=sit][data-seat='2']")
    expect(take).to_have_text("Take Ruud's seat")
    expect(eva.get_by_text(full)).to_have_count(0)
    ruud_total = view(eva)["totals"][2]

    # she takes Ruud's seat: his total and his passed cards are hers, and she is told so
    take.click()
    eva.wait_for_function("() => window.hartenjagen.state.table.you === 2")
    note = eva.locator(".dialog-scores [data-score-note]")
    expect(note).to_have_text("You took over Ruud's seat: its score and the cards it passed are yours now.")
    expect(eva.locator(".me .total")).to_have_text(f"total {ruud_total}")
    assert no_horizontal_scroll(eva)
    shot(eva, "took-seat-phone-390")

    # the next hand: Gijs opens the link mid-hand and watches until game over
    play_pages([anna, eva], stop=lambda: view(anna)["phase"] == "playing" and view(anna)["hand_no"] >= 1)
    gijs = open_by_link(open_page, code, WIDE, "Gijs")
    gijs.wait_for_selector(".player.watching")
    expect(gijs.locator(".status .notice")).to_have_text(full)
    play_pages([anna, eva])

    # game over: the watcher reads "Game over" without "all seats are taken"
    gijs.wait_for_function("() => window.hartenjagen.state.table.status === 'finished'")
    gijs.wait_for_selector(".dialog-scores")  # opens by itself once the last trick has gone to its taker
    gijs.keyboard.press("Escape")
    gijs.wait_for_selector(".dialog", state="detached")
    expect(gijs.locator(".status .turn-line")).to_contain_text("Game over")
    expect(gijs.get_by_text(full)).to_have_count(0)
    shot(gijs, "watcher-game-over-desktop-1920")

    # Eva played hands of this game: her replay is hers
    eva.wait_for_function("() => window.hartenjagen.state.table.status === 'finished'")
    expect(eva.locator(".dialog-scores [data-action=replay]")).to_have_count(1)

    # Gijs sits down after game over: he played none of it, so only the share link is offered
    gijs.locator(".status [data-action=sit]").first.click()
    gijs.wait_for_function("() => window.hartenjagen.state.table.you !== null")
    gijs.click(".status [data-overlay=scores]")
    dialog = gijs.locator(".dialog-scores")
    expect(dialog.locator("[data-action=copy_share]")).to_have_count(1)
    expect(gijs.locator("[data-action=replay]")).to_have_count(0)
    shot(gijs, "late-sitter-game-over-desktop-1920")
    # a reload still knows
    gijs.reload()
    gijs.wait_for_function("() => (window.hartenjagen.state.table || {}).status === 'finished'")
    gijs.wait_for_selector(".status [data-action=copy_share]")
    expect(gijs.locator("[data-action=replay]")).to_have_count(0)


# ------------------------------------------------------------------ one score everywhere

PANELS_MATCH_TABLE = """() => {
    const t = window.hartenjagen.state.table;
    const h = t.view.history[t.view.history.length - 1];
    const signed = (n) => `${n > 0 ? '+' : ''}${n}`;
    const out = [];
    for (let seat = 0; seat < t.view.seats; seat++) {
        const panel = document.querySelector(`.player[data-seat="${seat}"]`);
        out.push({
            seat,
            panelHand: panel.querySelector('.taken').dataset.handScore,
            panelTotal: panel.querySelector('.total').textContent,
            tableHand: signed(h.scores[seat]),
            tableTotal: `total ${h.totals[seat]}`,
        });
    }
    return out;
}"""

# The hand just scored, turned into a moon shot by seat 0 (as the server would send it): the seat took all 26, the
# score table gives it 0 and every other seat +26.
MOON = """() => {
    const s = window.hartenjagen.state;
    const m = structuredClone(s.table);
    const v = m.view;
    const n = v.seats;
    const before = v.history.length > 1 ? v.history[v.history.length - 2].totals : Array(n).fill(0);
    const points = Array.from({length: n}, (_, i) => (i === 0 ? 26 : 0));
    const scores = Array.from({length: n}, (_, i) => (i === 0 ? 0 : 26));
    const totals = before.map((x, i) => x + scores[i]);
    v.points_taken = points;
    v.history = [...v.history.slice(0, -1), {...v.history[v.history.length - 1], points, scores, totals, moon: 0}];
    v.totals = totals;
    s.table = m;
    window.dispatchEvent(new Event('resize'));
}"""


def test_seat_panels_show_the_hands_scores_as_the_score_table_does(open_page, shot):
    for size, label in ((WIDE, "desktop-1920"), (PHONE_TALL, "phone-390")):
        anna = open_page("/", viewport=size, name="Anna")
        create_table(anna, passing="off")
        anna.click("[data-action=fill_computers]")
        anna.click("[data-action=start]:not([disabled])")
        anna.wait_for_selector(".hand .card")
        play_pages([anna], stop=lambda page=anna: view(page)["phase"] == "hand_over", moves=("pass", "play", "moon"))
        anna.wait_for_selector(".dialog-scores")
        anna.keyboard.press("Escape")
        for row in anna.evaluate(PANELS_MATCH_TABLE):
            assert row["panelHand"] == row["tableHand"], row
            assert row["panelTotal"] == row["tableTotal"], row

        # she shot the moon: her panel says 0 this hand, as the score table does, and the others +26
        anna.evaluate(MOON)
        expect(anna.locator(".me .taken")).to_have_text("this hand 0")
        expect(anna.locator(".player[data-seat='1'] .taken")).to_have_text("this hand +26")
        for row in anna.evaluate(PANELS_MATCH_TABLE):
            assert row["panelHand"] == row["tableHand"], row
            assert row["panelTotal"] == row["tableTotal"], row
        anna.click(".status [data-overlay=scores]")
        mine = anna.locator(".dialog-scores tbody tr").last.locator("td").first  # her column comes first
        expect(mine.locator(".hand-score")).to_have_text("0")
        anna.keyboard.press("Escape")
        assert no_horizontal_scroll(anna)
        shot(anna, f"moon-panels-{label}")
