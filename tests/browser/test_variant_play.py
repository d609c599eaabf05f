"""Every variant from the browser: the new-table form offers exactly what the core offers, each variant
is played through the UI until its score table shows what is special about it, and passing shows where each card
goes: several ways (scatter), into a pot, and the cards gentleman's rule 4 keeps."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from playwright.sync_api import Page, expect

from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.rules import RulesError
from hartenjagen.shared.variants import _CHOICES, _RANGES, VARIANTS, build

from .conftest import (
    DESKTOP,
    PHONE,
    click_card,
    fill_and_start,
    hand_cards,
    no_horizontal_scroll,
    open_my_games,
    pass_cards,
    play_until_game_over,
    resize,
    save_shot,
    view,
)
from .test_start_forms import MEASURE_SELECTS

pytestmark = pytest.mark.animations_off  # many hands played; what animations do is tested elsewhere

PHONE_TALL = {"width": 390, "height": 844}


# ------------------------------------------------------------------ the form mirrors the core


def expected_fields(variant: str) -> dict[str, list]:
    """What the form must offer for a variant, from shared/variants.py: option -> [kind, default] (a variant's own
    choices where it narrows them, such as passing without an across at three and five seats)."""
    out = {}
    for option, default in VARIANTS[variant].options.items():
        choices = (VARIANTS[variant].choices or {}).get(option) or _CHOICES.get(option)
        if option in _RANGES:
            lo, hi = _RANGES[option]
            out[option] = [f"number:{lo}:{hi}", default]
        elif choices == (False, True):
            out[option] = ["bool", default]
        else:
            out[option] = [[default, *(c for c in choices if c != default)], default]
    return out


def always_refused(variant: str, option: str) -> bool:
    """True when the core refuses ``option`` switched on for ``variant`` whatever passing is chosen."""
    passings = expected_fields(variant)["passing"][0] if "passing" in VARIANTS[variant].options else (None,)
    for passing in passings:
        options = {"variant": variant, option: True} | ({"passing": passing} if passing else {})
        try:
            build(options)
            return False
        except RulesError:
            continue
    return True


READ_FORM_DATA = """async () => {
    const m = await import('/js/render/start.js');
    const options = {};
    for (const [variant, fields] of Object.entries(m.VARIANT_OPTIONS)) {
        options[variant] = fields.map(([option, kind, def]) => [option, kind, def]);
    }
    return {options, groups: m.VARIANT_GROUPS};
}"""


def test_the_form_offers_every_variant_with_exactly_the_cores_options(open_page):
    page = open_page("/")
    data = page.evaluate(READ_FORM_DATA)
    assert set(data["options"]) == set(VARIANTS)
    for variant, fields in data["options"].items():
        names = [f[0] for f in fields]
        assert len(names) == len(set(names)), (variant, names)
        assert {f[0]: [f[1], f[2]] for f in fields} == expected_fields(variant), variant
    # the dropdown's groups hold every variant once
    grouped = [v for _, names in data["groups"] for v in names]
    assert sorted(grouped) == sorted(VARIANTS)
    # the core offers no option it always refuses, so every box the form shows can be ticked for some passing
    refused = {
        (v, o)
        for v in VARIANTS
        for o, (kind, d) in expected_fields(v).items()
        if kind == "bool" and not d and always_refused(v, o)
    }
    assert refused == set()


def test_the_forms_fields_follow_the_variant_and_rule_4_waits_for_passing(open_page):
    page = open_page("/", name="Anna")
    for variant in VARIANTS:
        page.select_option("#variant", variant)
        shown = page.locator(f".variant-options[data-variant={variant}]")
        expect(shown).to_be_visible()
        assert page.locator(".variant-options:not([hidden])").count() == 1
        expect(shown.locator(".variant-summary")).not_to_be_empty()
    # Dutch passes nothing by default: gentleman's rule 4 cannot be ticked until passing is chosen
    with pytest.raises(RulesError):
        build({"variant": "dutch", "gentleman_4": True})
    page.select_option("#variant", "dutch")
    rule4 = page.locator("#opt-dutch-gentleman_4")
    expect(rule4).to_be_disabled()
    page.select_option("#opt-dutch-passing", "cycle")
    expect(rule4).to_be_enabled()
    page.select_option("#opt-dutch-passing", "off")
    expect(rule4).to_be_disabled()
    # the summary's link opens the rules at the variant's section
    page.select_option("#variant", "parker_brothers")
    page.click(".variant-options[data-variant=parker_brothers] [data-action=rules_at]")
    section = page.locator("#rules-parker_brothers")
    expect(section).to_have_attribute("open", "")
    expect(section.locator("summary")).to_be_focused()


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_every_variants_dropdowns_show_their_whole_text(open_page, shot, locale, size):
    page = open_page("/", viewport=PHONE if size == "phone" else DESKTOP, locale=locale, name="Anna")
    for variant in VARIANTS:
        page.select_option("#variant", variant)
        for s in page.evaluate(MEASURE_SELECTS):
            assert s["widest"] <= s["room"], (variant, s)
        assert no_horizontal_scroll(page)
    page.select_option("#variant", "chips")
    page.locator(".variant-options[data-variant=chips]").scroll_into_view_if_needed()
    shot(page, "chips-options")


# ------------------------------------------------------------------ playing every variant


def create_variant_table(page: Page, variant: str, fields: dict[str, str | bool] | None = None) -> str:
    """Create a table of ``variant`` from the form, filling the given option fields; return its code."""
    page.select_option("#variant", variant)
    for option, value in (fields or {}).items():
        selector = f"#opt-{variant}-{option}"
        if isinstance(value, bool):
            page.locator(selector).set_checked(value)
        elif page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
    page.click("form[data-form=create] button[type=submit]")
    page.wait_for_selector(".lobby .code")
    return page.inner_text(".lobby .code").strip()


# The shortest games: the smallest end, one hand of chips.
SHORT = {
    "classic": {"end_score": "25"},
    "dutch": {"turn_score": "25"},
    "omnibus": {"end_score": "25", "bonus_card": "ten"},
    "spot_hearts": {"end_score": "25", "spot_form": "2"},
    "hooligan": {"end_score": "25"},
    "black_maria": {"end_score": "25"},
    "parker_brothers": {"end_score": "25"},
    "belgian": {"end_score": "25"},
    "achterhoeks": {"end_score": "25"},
    "achterhoeks_bar": {"end_score": "25"},
    "chips": {"hand_limit": "1", "start_chips": "10", "ante": "2"},
    "dutch52": {"turn_score": "25"},
    "three": {"end_score": "25", "removed": "three_of_clubs"},
    "three_kitty": {"end_score": "25", "kitty": "first_points"},
    "five": {"end_score": "25"},
    "five_kitty": {"end_score": "25", "kitty": "first_two"},
    "dutch5": {"turn_score": "25"},
    "three_jokers": {"end_score": "25"},
    "cancellation": {"end_score": "25", "seats": "7", "spade_ten": True},
    "extreme": {"end_score": "25"},
}


def first_hand_scored(v: dict) -> bool:
    return bool(v["history"]) and v["phase"] in ("hand_over", "game_over")


# Variants a journey of their own creates from this form and plays on (test_seat_counts.py, test_many_decks.py).
JOURNEYS = {"three_kitty", "five", "cancellation", "three_jokers"}


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v not in JOURNEYS])
def test_each_variant_plays_a_hand_and_its_score_table_shows_its_own_things(open_page, shot, variant):
    assert set(SHORT) == set(VARIANTS)
    page = open_page("/", name="Anna")
    create_variant_table(page, variant, SHORT[variant])
    fill_and_start(page)
    v = view(page)
    assert v["rules"]["variant"] == variant
    final = play_until_game_over(page, hands=1, stop=first_hand_scored)
    assert final["history"], "a hand was scored"
    dialog = page.locator(".dialog-scores")
    expect(dialog).to_be_visible()
    expect(dialog.locator("table.scores tbody tr")).to_have_count(len(final["history"]))
    totals = dialog.locator("table.scores tfoot td")
    if variant == "achterhoeks":
        teams = dialog.locator(".team-totals li")
        expect(teams).to_have_count(2)
        expect(teams.nth(0)).to_contain_text("North–South")
        expect(teams.nth(0).locator(".team-total")).to_have_text(str(final["totals"][0]))
        expect(teams.nth(1)).to_contain_text("East–West")
        expect(teams.nth(1).locator(".team-total")).to_have_text(str(final["totals"][1]))
        expect(dialog.locator("thead .team-mark")).to_have_count(4)
    else:
        expect(dialog.locator(".team-totals")).to_have_count(0)
    if variant == "chips":
        assert final["game_over"], "one hand is the whole game"
        expect(dialog.locator("tfoot th")).to_have_text("Chips")
        for i, seat in enumerate([0, 1, 2, 3]):  # Anna sits South: the columns run South, West, North, East
            expect(totals.nth(i)).to_contain_text(str(final["chips"][seat]))
        assert sum(final["chips"]) + final["pot"] == 40
        expect(dialog.locator(".pot-line")).to_have_text(f"In the pot: {final['pot']} chips")
        expect(page.locator(".hand-no .pot")).to_have_text(f"pot {final['pot']}")
        expect(page.locator(".player.self .chips")).to_have_text(f"chips {final['chips'][0]}")
    else:
        expect(dialog.locator(".pot-line")).to_have_count(0)
        expect(totals).to_have_count(len(final["totals"]))  # one column per seat, Anna's first, in play order
        for i in range(len(final["totals"])):
            expect(totals.nth(i)).to_have_text(re.compile(rf"^{final['totals'][i]}\b"))
    for seat in range(len(final["totals"])):
        lost = seat in final["losers"] and final["game_over"]
        cell = dialog.locator(f"tfoot td[data-seat='{seat}']")
        expect(cell).to_have_class(re.compile(r"\bloser\b" if lost else r"^(?!.*\bloser\b)"))
        worded = lost and variant == "achterhoeks_bar"  # where losing is the outcome, it is said in words
        expect(cell.locator(".loser-mark")).to_have_count(1 if worded else 0)
    if final["game_over"]:
        expect(dialog.locator(".winners")).to_be_visible()
        if final["toppers"]:
            expect(dialog.locator(".toppers li")).to_have_count(len(final["toppers"]))
    shot(page, "scores")
    if variant == "chips":  # My games names the chips game with its rules and each seat's final chips
        page.keyboard.press("Escape")
        open_my_games(page)
        game = page.locator(".dialog-games .game").first
        expect(game.locator(".g-facts")).to_contain_text("Traditional Hearts with chips, 10 chips each, ante 2")
        expect(game.locator(".g-seat").first).to_contain_text(f"chips {final['chips'][0]}")


def test_the_bar_form_ends_with_the_player_over_the_end_losing(open_page, shot):
    page = open_page("/", name="Anna")
    create_variant_table(page, "achterhoeks_bar", {"end_score": "25"})
    fill_and_start(page)
    final = play_until_game_over(page, hands=12)
    assert final["game_over"] and final["losers"]
    assert all(final["totals"][s] > 25 for s in final["losers"])
    dialog = page.locator(".dialog-scores")
    for seat in final["losers"]:
        expect(dialog.locator(f"tfoot td[data-seat='{seat}'] .loser-mark")).to_have_text("lost")
    expect(dialog.locator(".winners")).to_contain_text("went over 25")
    kinds = Counter(topper["kind"] for topper in final["toppers"])  # two players may share a kind (nil game)
    for kind, n in kinds.items():
        expect(dialog.locator(f".toppers [data-topper={kind}]")).to_have_count(n)
    shot(page, "game-over")


# ------------------------------------------------------------------ passing several ways, into the pot, kept back


def test_achterhoeks_passing_scatter_in_dutch_then_the_pot_on_a_phone(open_page, shot):
    """Achterhoeks passes left, right, one card to each (hand 3), then into the pot (hand 4)."""
    page = open_page("/", viewport=PHONE_TALL, locale="nl-NL", name="Anna")
    create_variant_table(page, "achterhoeks", {"end_score": "500"})
    fill_and_start(page)
    play_until_game_over(page, hands=3, stop=lambda v: v["phase"] == "passing" and v["pass_direction"] == "scatter")
    v = view(page)
    assert v["pass_targets"] == [1, 3, 2] and v["pass_to"] is None  # left, right, across of South
    expect(page.locator("[data-action=pass]")).to_have_text("Kaarten doorgeven")
    plan = page.locator(".pass-plan li")
    expect(plan).to_have_count(3)
    expect(plan.nth(0)).to_contain_text("1e →")
    expect(plan.nth(0)).to_contain_text("(West)")
    expect(plan.nth(1)).to_contain_text("(Oost)")
    expect(plan.nth(2)).to_contain_text("(Noord)")
    expect(plan.nth(0)).to_contain_text("nog niet gekozen")
    page.click("[data-action=hint]")  # the hint says the order its cards go in
    expect(page.locator(".status .notice.info")).to_contain_text(
        re.compile(r"in deze volgorde: 1e \S+, 2e \S+, 3e \S+\.")
    )
    assert len(page.evaluate("() => window.hartenjagen.state.hint")) == 3
    cards = hand_cards(page)[:4]
    for card in cards[:3]:
        click_card(page, card)
    expect(page.locator(f'.hand .card[data-card="{cards[0]}"]')).to_have_attribute("data-place", "1")
    expect(page.locator(f'.hand .card[data-card="{cards[2]}"]')).to_have_attribute("data-place", "3")
    label = page.locator(f'.hand .card[data-card="{cards[1]}"]').get_attribute("aria-label")
    assert "gaat naar" in label
    # a fourth card finds no free place; taking the second back frees its place for it
    click_card(page, cards[3])
    expect(page.locator(".status .notice")).to_contain_text("Alle 3 plaatsen zijn bezet")
    click_card(page, cards[1])
    expect(plan.nth(1)).to_contain_text("nog niet gekozen")
    expect(page.locator(f'.hand .card[data-card="{cards[2]}"]')).to_have_attribute("data-place", "3")
    click_card(page, cards[3])
    expect(page.locator(f'.hand .card[data-card="{cards[3]}"]')).to_have_attribute("data-place", "2")
    assert no_horizontal_scroll(page)
    save_shot(page, "variant-scatter-pass-nl-phone")
    shot(page, "scatter-chosen")
    page.click("[data-action=pass]")
    page.wait_for_function("() => window.hartenjagen.state.table.view.phase === 'playing'")
    v = view(page)
    chosen = [cards[0], cards[3], cards[2]]
    goes = dict(zip(v["passed"], v["passed_to"], strict=True))
    assert [goes[c] for c in chosen] == [1, 3, 2]
    expect(page.locator(".passed-line")).to_contain_text("Doorgegeven:")
    received = page.locator(".received-line")
    expect(received).to_contain_text("Gekregen:")
    for card, seat in zip(v["received"], v["received_from"], strict=True):
        label = page.locator(f'.hand .card[data-card="{card}"]').get_attribute("aria-label")
        name = v and page.evaluate(f"() => window.hartenjagen.state.table.seats[{seat}].name")
        assert f"gekregen van {name}" in label
    shot(page, "scatter-exchanged")

    # the fourth hand: into the pot
    play_until_game_over(page, hands=2, stop=lambda v: v["phase"] == "passing" and v["pass_direction"] == "pot")
    v = view(page)
    assert v["pass_targets"] is None and v["pass_count"] == 3
    expect(page.locator("[data-action=pass]")).to_have_text("In de pot")
    expect(page.locator(".pass-plan")).to_have_count(0)
    shot(page, "pot-choose")
    pass_cards(page)
    page.wait_for_function("() => window.hartenjagen.state.table.view.phase === 'playing'")
    expect(page.locator(".passed-line")).to_contain_text("In de pot:")
    expect(page.locator(".received-line")).to_contain_text("Uit de pot:")
    shot(page, "pot-exchanged")


def test_two_left_and_two_right_chooses_four_cards_in_their_places(open_page, shot):
    page = open_page("/", name="Anna")
    create_variant_table(page, "classic", {"passing": "left_right", "end_score": "500"})
    fill_and_start(page)
    play_until_game_over(page, hands=4, stop=lambda v: v["phase"] == "passing" and v["pass_direction"] == "left_right")
    v = view(page)
    assert v["pass_count"] == 4 and v["pass_targets"] == [1, 1, 3, 3]
    plan = page.locator(".pass-plan li")
    expect(plan).to_have_count(4)
    for i, (place, wind) in enumerate([("1st", "West"), ("2nd", "West"), ("3rd", "East"), ("4th", "East")]):
        expect(plan.nth(i)).to_contain_text(f"{place} →")
        expect(plan.nth(i)).to_contain_text(f"({wind})")
    shot(page, "choose")
    chosen = pass_cards(page)
    page.wait_for_function("() => window.hartenjagen.state.table.view.phase === 'playing'")
    v = view(page)
    goes = dict(zip(v["passed"], v["passed_to"], strict=True))
    assert [goes[c] for c in chosen] == [1, 1, 3, 3]
    expect(page.locator(".passed-line")).to_contain_text("Passed: ")


def south_holds(variant_options: dict, cards: set[str]) -> int:
    """A deal number whose first hand gives South one of ``cards``."""
    from hartenjagen.shared.cards import mask_names

    rules = build(variant_options)
    return next(n for n in range(1, 200) if cards & set(mask_names(seeded_deal(rules, n, 0)[0])))


def test_gentlemans_rule_4_dims_the_cards_that_stay_and_says_why(open_page, shot):
    deal = south_holds({"variant": "classic", "gentleman_4": True}, {"2C", "QS"})
    page = open_page(f"/?deal={deal}", name="Anna")
    create_variant_table(page, "classic", {"gentleman_4": True})
    fill_and_start(page)
    v = view(page)
    assert v["phase"] == "passing"
    kept = sorted(v["pass_refusals"])
    assert kept and set(kept) <= {"2C", "QS"}
    for card in kept:
        card_el = page.locator(f'.hand .card[data-card="{card}"]')
        expect(card_el).to_have_class("card face suit-" + card[1] + " dimmed")
        assert "may not be passed" in card_el.get_attribute("aria-label")
        card_el.click()
        expect(page.locator(".status .notice.refusal")).to_contain_text("may not be passed")
        assert page.evaluate("() => window.hartenjagen.state.selected.length") == 0
    shot(page, "kept")
    passed = pass_cards(page)
    assert not set(passed) & set(kept)


def test_a_team_score_table_on_a_phone(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, locale="nl-NL", name="Anna")
    create_variant_table(page, "achterhoeks", {"end_score": "25"})
    fill_and_start(page)
    badges = page.locator(".player .badge.team")
    expect(badges).to_have_count(4)
    expect(page.locator(".player.self .badge.team")).to_have_text("Noord–Zuid")
    expect(page.locator("[data-area=top] .badge.team")).to_have_text("Noord–Zuid")
    expect(page.locator("[data-area=left] .badge.team")).to_have_text("Oost–West")
    assert no_horizontal_scroll(page)
    shot(page, "table")
    play_until_game_over(page, hands=1, stop=first_hand_scored)
    dialog = page.locator(".dialog-scores")
    expect(dialog.locator(".team-totals li").nth(0)).to_contain_text("Noord–Zuid")
    assert no_horizontal_scroll(page)
    save_shot(page, "variant-team-scores-nl-phone")
    shot(page, "scores")


def test_a_chips_game_on_a_phone_shows_chips_and_the_pot(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, locale="nl-NL", name="Anna")
    create_variant_table(page, "chips", {"start_chips": "10", "ante": "2", "hand_limit": "2"})
    expect(page.locator(".lobby-rules")).to_have_text("Hartenjagen met fiches, 10 fiches per speler, inleg 2, 2 rondes")
    fill_and_start(page)
    v = view(page)
    assert v["phase"] == "playing" and v["pot"] == 8 and v["chips"] == [8, 8, 8, 8]  # no passing; everyone antes 2
    expect(page.locator(".hand-no .pot")).to_have_text("pot 8")
    expect(page.locator(".player.self .chips")).to_have_text("fiches 8")
    expect(page.locator("[data-area=left] .chips")).to_have_text("fiches 8")
    assert no_horizontal_scroll(page)
    shot(page, "table")
    final = play_until_game_over(page, hands=1, stop=first_hand_scored)
    dialog = page.locator(".dialog-scores")
    expect(dialog.locator(".pot-line")).to_have_text(f"In de pot: {final['pot']} fiches")
    expect(dialog.locator("tfoot th")).to_have_text("Fiches")
    assert no_horizontal_scroll(page)
    save_shot(page, "variant-chips-scores-nl-phone")
    shot(page, "scores")


def test_the_invitation_and_replay_name_every_variant(open_page):
    page = open_page("/")
    lines = page.evaluate(
        """async () => {
            const {rulesLine} = await import('/js/render/invite.js');
            return {
                omnibus: rulesLine({variant: 'omnibus', end_score: 75, passing: 'cycle'}, 'hard'),
                bar: rulesLine({variant: 'achterhoeks_bar', end_score: 50, passing: 'achterhoeks'}),
                chips: rulesLine({variant: 'chips', start_chips: 20, ante: 1, hand_limit: 0}),
                chips_hands: rulesLine({variant: 'chips', start_chips: 20, ante: 2, hand_limit: 10}),
                dutch52: rulesLine({variant: 'dutch52', turn_score: 50, passing: 'off'}),
            };
        }"""
    )
    assert (
        lines["omnibus"]
        == "Omnibus Hearts, game ends at 75 points · Left, right, across, hold · computer players: hard"
    )
    assert lines["bar"].startswith("Achterhoek Hearts, pub form, whoever goes over 50 points loses")
    assert lines["chips"] == "Traditional Hearts with chips, 20 chips each, ante 1, until one player has every chip"
    assert lines["chips_hands"].endswith("ante 2, 10 hands")
    assert lines["dutch52"].startswith("Dutch hartenjagen (52 cards), the count turns at 50 points")


# ------------------------------------------------------------------ the replay of passes several ways and a pot


def random_game(options: dict, seed: int) -> tuple[list[dict], dict]:
    """Play a whole game with random computer players; return its events and its replay (shared/replay.py)."""
    from hartenjagen.shared.bots.make import make_player
    from hartenjagen.shared.cards import parse_card
    from hartenjagen.shared.game import DEALING, GAME_OVER, HAND_OVER, Game
    from hartenjagen.shared.replay import replay_hands
    from hartenjagen.shared.view import view_for

    rules = build(options)
    game = Game(rules)
    players = [make_player("random", seed + s) for s in range(4)]
    while game.phase != GAME_OVER:
        if game.phase in (DEALING, HAND_OVER):
            game.deal_seeded(seed)
            continue
        seat = game.to_act()[0]
        intent = players[seat].decide(view_for(game, seat))
        if intent["type"] == "pass":
            game.pass_cards(seat, [parse_card(c) for c in intent["cards"]])
        elif intent["type"] == "play":
            game.play(seat, parse_card(intent["card"]))
        else:
            game.choose_moon(seat, intent["choice"])
    return game.events, replay_hands(rules, game.events)


def hands_after_exchange(options: dict, events: list[dict], hand_no: int) -> list[list[str]]:
    """Every seat's cards right after the exchange of hand ``hand_no``, folded by the core."""
    from hartenjagen.shared.cards import mask_names
    from hartenjagen.shared.game import Game

    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    end = deals[hand_no] + 5  # the deal and four passes
    game = Game.replay(build(options), events[:end])
    assert game.phase == "playing"
    return [sorted(mask_names(h)) for h in game.hands]


def test_the_replay_moves_cards_passed_several_ways_and_through_the_pot(open_page):
    options = {"variant": "achterhoeks", "end_score": 500}
    events, replay = random_game(options, 7)
    assert len(replay["hands"]) >= 4
    page = open_page("/")
    for hand_no, form in ((2, "scatter"), (3, "pot")):
        hand = replay["hands"][hand_no]
        assert hand["pass_direction"] == form
        holds = page.evaluate(
            """async (hand) => (await import('/js/replay.js')).snapshot(hand, 1).holds.map(h => [...h].sort())""",
            hand,
        )
        assert holds == hands_after_exchange(options, events, hand_no), form
    # the replay viewer names the game and says where the cards went
    data = {
        "id": 1,
        "code": "TEST",
        "options": options | {"passing": "achterhoeks"},
        "deal": None,
        "share": None,
        "finished_at": None,
        "seats": [{"seat": s, "name": n} for s, n in enumerate(["Anna", "Bram", "Carla", "Dirk"])],
        **replay,
    }
    page.evaluate(
        "d => { window.hartenjagen.state.replay = {status: 'ok', data: d, hand: 2, step: 0, you: 0}; }",
        data,
    )
    resize(page, {"width": 1200, "height": 900})  # a resize redraws
    expect(page.locator(".rp-facts")).to_contain_text("Achterhoek Hearts (teams), game ends at 500 points")
    expect(page.locator(".rp-passes")).to_contain_text("One card to the left, one to the right, one across")
    expect(page.locator(".rp-pass-list li").first).to_contain_text("Anna: ")
    expect(page.locator(".rp-pass-list li").first).to_contain_text("→ Bram")
    page.evaluate("() => { window.hartenjagen.state.replay.hand = 3; }")
    resize(page, {"width": 1200, "height": 901})
    expect(page.locator(".rp-passes")).to_contain_text("Into the pot, shuffled and dealt back")
    expect(page.locator(".rp-pass-list li")).to_have_count(8)
    expect(page.locator(".rp-pass-list li").nth(4)).to_contain_text("Anna from the pot:")
