"""The per-seat view: what a seat may know, all of it, and nothing of another seat's unplayed cards."""

import json
import random

import pytest

from hartenjagen.shared.cards import CARD_NAMES, mask_names, parse_card
from hartenjagen.shared.game import GAME_OVER, MOON_CHOICE, PASSING, PLAYING, Game
from hartenjagen.shared.variants import CLASSIC, VARIANTS, make_rules
from hartenjagen.shared.view import seat_key, seat_view, view_for

from .hands import CLASSIC_MOON, CLASSIC_VOID_HANDS
from .scripts import deal_and_play, deal_of, hand, names, play_script, random_step

CARDS = set(CARD_NAMES)


def _card_names_in(data) -> set[str]:
    """Every string in a JSON structure (keys included) that is a card name."""
    found = set()
    if isinstance(data, dict):
        for k, v in data.items():
            found |= _card_names_in(k) | _card_names_in(v)
    elif isinstance(data, list):
        for v in data:
            found |= _card_names_in(v)
    elif isinstance(data, str) and data in CARDS:
        found.add(data)
    return found


def _named(view: dict) -> set[str]:
    """The card names in a view, leaving out the rules' scoring table (names cards only as keys, of the rules)."""
    assert not _card_values_in(view["scoring"])
    return _card_names_in({k: v for k, v in view.items() if k != "scoring"})


def _card_values_in(data) -> set[str]:
    """Every string value (not key) in a JSON structure that is a card name: what a scan of messages sees."""
    if isinstance(data, dict):
        return set().union(*map(_card_values_in, data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*map(_card_values_in, data)) if data else set()
    return {data} if isinstance(data, str) and data in CARDS else set()


def _may_know(game: Game, seat: int) -> set[str]:
    """Own hand, own pass, what was received, and every card played so far."""
    known = game.hands[seat] | (game.passes[seat] or 0) | game.received[seat]
    for t in game.tricks + [game.trick]:
        for c in t.cards:
            known |= 1 << c
    return set(mask_names(known))


@pytest.mark.parametrize(
    "options",
    [{}, {"moon": "choose", "passing": "right"}, {"variant": "dutch"}, {"variant": "dutch", "passing": "cycle"}],
)
def test_a_view_never_names_a_card_its_seat_may_not_know(options):
    rng = random.Random(2)
    game = Game(make_rules(options))
    for seed in range(3):
        game.deal_seeded(seed)
        while game.phase in ("passing", "playing", "moon_choice"):
            for seat in range(4):
                view = view_for(game, seat)
                assert _named(view) <= _may_know(game, seat)
                assert json.loads(json.dumps(view)) == view
            random_step(game, rng)
        if game.phase == "game_over":
            break


def test_received_cards_show_only_after_everyone_has_passed():
    game = Game(CLASSIC)
    game.deal_seeded(5)
    chosen = [mask_names(h)[:3] for h in game.hands]
    game.pass_cards(0, hand(" ".join(chosen[0])))
    game.pass_cards(3, hand(" ".join(chosen[3])))
    south = view_for(game, 0)
    assert south["passed"] == chosen[0] and south["received"] is None
    assert south["has_passed"] == [True, False, False, True]
    assert view_for(game, 1)["passed"] is None
    assert (south["pass_direction"], south["pass_to"], south["pass_from"], south["pass_count"]) == ("left", 1, 3, 3)
    game.pass_cards(1, hand(" ".join(chosen[1])))
    game.pass_cards(2, hand(" ".join(chosen[2])))
    south = view_for(game, 0)
    assert south["received"] == chosen[3]  # East passes left to South
    assert set(chosen[3]) <= set(south["hand"]) and not set(chosen[0]) & set(south["hand"])
    assert south["has_passed"] is None


def test_the_seat_on_turn_sees_its_legal_cards_and_a_reason_for_each_other_card():
    game = Game(make_rules({"passing": "off"}))
    game.deal([hand(h) for h in CLASSIC_VOID_HANDS])
    game.play(0, parse_card("2C"))
    west = view_for(game, 1)
    assert (west["phase"], west["turn"], west["to_act"]) == ("playing", 1, [1])
    assert west["legal"] == ["AC"]
    assert set(west["refusals"]) == set(west["hand"]) - {"AC"}
    assert {r["code"] for r in west["refusals"].values()} == {"must_follow_suit"}
    assert all(r == {"code": "must_follow_suit", "params": {"suit": 0}} for r in west["refusals"].values())
    north = view_for(game, 2)
    assert west["refusal"] is None
    # not your turn: one reason for the whole hand, not the same sentence thirteen times
    assert north["legal"] == [] and north["refusals"] == {} and north["refusal"]["code"] == "not_your_turn"
    assert north["refusal"] == {"code": "not_your_turn", "params": {}}  # a code, no sentence: the client words it
    assert west["trick"] == {"leader": 0, "cards": [{"seat": 0, "card": "2C"}], "winner": None}
    assert west["hand_sizes"] == [12, 13, 13, 13]


def test_a_view_before_the_first_deal_is_empty_but_complete():
    view = view_for(Game(CLASSIC), 2)
    assert view["phase"] == "dealing" and view["hand"] == [] and view["dealer"] is None
    assert view["points_taken"] == [0, 0, 0, 0] and view["legal"] == [] and view["refusals"] == {}
    assert view["refusal"] is None
    assert view["rules"] == CLASSIC.to_json() and view["seat"] == 2


def test_after_the_hand_the_view_shows_the_tricks_scores_and_no_trick_in_play():
    game = Game(make_rules({"passing": "off", "end_score": 25}))
    deal_and_play(game, CLASSIC_MOON)
    view = view_for(game, 3)
    assert view["trick"] is None and view["turn"] is None and len(view["tricks"]) == 13
    assert view["history"][-1]["scores"] == [0, 26, 26, 26]
    assert view["game_over"] and view["winners"] == [0] and view["totals"] == [0, 26, 26, 26]
    assert view["points_taken"] == [26, 0, 0, 0]
    assert {t["winner"] for t in view["tricks"]} == {0}


def test_once_the_hand_is_over_the_view_lists_the_cards_that_counted_for_each_seat_and_not_before():
    game = Game(make_rules({"passing": "off", "end_score": 100}))
    game.deal(deal_of(CLASSIC_MOON))
    assert view_for(game, 1)["point_cards"] is None
    play_script(game, CLASSIC_MOON)
    view = view_for(game, 1)
    assert view["point_cards"] == [names("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"), [], [], []]
    assert view["kitty_cards"] is None  # no kitty in this variant
    game.deal_seeded(1)
    assert view_for(game, 1)["point_cards"] is None  # the next hand is being played: nothing of it is open


@pytest.mark.parametrize("variant", ["omnibus", "parker_brothers", "achterhoeks", "hooligan", "spot_hearts"])
def test_the_point_cards_are_whatever_scores_in_the_variant_bonus_cards_and_roles_too(variant):
    rules = make_rules({"variant": variant})
    game = Game(rules)
    game.deal_seeded(8)
    rng = random.Random(8)
    while game.phase in ("passing", "playing"):
        random_step(game, rng)
    if game.phase == "moon_choice":
        game.choose_moon(game.moon_seat, "others")
    view = view_for(game, 0)
    listed = [hand(" ".join(cards)) for cards in view["point_cards"]]
    assert sum(m.bit_count() for m in listed) == rules.counting_mask.bit_count()  # every such card, once
    for seat, m in enumerate(listed):
        assert m == game.taken[seat] & rules.counting_mask
        assert rules.points_of(m) == rules.points_of(game.taken[seat])  # no card worth points left out
    roles = {c for c, r in view["scoring"]["card_roles"].items() if set(r) & {"heart_doubler", "canceller"}}
    assert roles <= {c for cards in view["point_cards"] for c in cards}  # the queens that change a score by their role


def test_the_view_carries_the_variants_scoring_teams_and_chips_for_the_rules_page_and_score_table():
    pb = view_for(Game(make_rules({"variant": "parker_brothers"})), 0)
    assert pb["scoring"]["card_points"]["QS"] == 26 and pb["scoring"]["card_points"]["QD"] == -10
    assert pb["scoring"]["card_roles"] == {"QH": ["heart_doubler"], "QC": ["canceller"], "QS": ["cancelled"]}
    assert pb["teams"] is None and pb["chips"] is None and pb["pot"] is None and pb["toppers"] == []
    ah = view_for(Game(make_rules({"variant": "achterhoeks"})), 1)
    assert ah["teams"] == [0, 1, 0, 1] and ah["scoring"]["trick_doubler"] == "9" and ah["scoring"]["sun"] == 52
    game = Game(make_rules({"variant": "chips"}))
    game.deal_seeded(1)
    chips = view_for(game, 2)
    assert chips["chips"] == [19, 19, 19, 19] and chips["pot"] == 4 and chips["scoring"]["moon"] == "none"
    assert view_for(game, 0)["scoring"] is chips["scoring"]  # one shared copy: the server's diff sees no change
    assert set(chips) - {"scoring"} >= {"teams", "chips", "pot", "toppers", "losers", "pass_targets"}
    identical = {v: view_for(Game(make_rules({"variant": v})), 0)["scoring"]["identical"] for v in IDENTICAL}
    assert identical == IDENTICAL  # what two identical cards in a trick do, for the trick's marks and the rules page


IDENTICAL = {"classic": None, "cancellation": "cancel", "extreme": "first_wins"}


def test_seat_fields_are_exactly_the_keys_of_the_seats_own_part_of_the_view_in_every_phase():
    """``SEAT_FIELDS`` (what updates cut per seat) is kept by hand: it must name the seat's own fields, no more."""
    from hartenjagen.shared.view import SEAT_FIELDS, common_view, seat_view

    game = Game(make_rules({"variant": "classic", "moon": "choose"}))
    seen_phases = set()
    for _ in range(400):
        if game.phase == "game_over":
            break
        if game.phase in ("dealing", "hand_over"):
            game.deal_seeded(7)
        seen_phases.add(str(game.phase))
        for seat in range(4):
            assert tuple(seat_view(game, seat)) == SEAT_FIELDS
        assert not set(common_view(game)) & set(SEAT_FIELDS)
        seat = game.to_act()[0]
        view = view_for(game, seat)
        if game.phase == "passing":
            game.pass_cards(seat, [parse_card(c) for c in view["hand"][: view["pass_count"]]])
        elif game.phase == "playing":
            game.play(seat, parse_card(view["legal"][0]))
        else:
            game.choose_moon(seat, view["moon_choices"][0])
    assert {"passing", "playing"} <= seen_phases


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_seat_s_own_fields_are_the_same_while_what_they_are_made_of_is(variant):
    """A step keeps a seat's own view fields while their key is unchanged: they must then be exactly what it would
    make afresh, through whole hands of every variant (passing, play, the moon choice, the hand's end)."""
    rng = random.Random(variant)
    game = Game(make_rules({"variant": variant}))
    kept: dict[int, tuple] = {}
    reused = 0
    for hand_no in range(3):
        if game.phase == GAME_OVER:
            break
        game.deal_seeded(rng.randrange(2**32))
        while True:
            for seat in range(game.seats):
                key, fields = seat_key(game, seat), seat_view(game, seat)
                if key is not None and seat in kept and kept[seat][0] == key:
                    assert kept[seat][1] == fields, f"hand {hand_no}, seat {seat}: kept fields went stale"
                    reused += 1
                kept[seat] = (key, fields)
            if game.phase not in (PASSING, PLAYING, MOON_CHOICE):
                break
            step_from_view(game, rng)
    assert reused > 20 * game.seats  # most moments keep most seats' fields


def step_from_view(game: Game, rng: random.Random) -> None:
    """Take one random action a seat the game waits for may take, chosen from its own view."""
    seat = rng.choice(game.to_act())
    view = view_for(game, seat)
    if game.phase == PASSING:
        allowed = [c for c in view["hand"] if c not in view["pass_refusals"]]
        game.pass_cards(seat, [parse_card(c) for c in rng.sample(allowed, view["pass_count"])])
    elif game.phase == PLAYING:
        game.play(seat, parse_card(rng.choice(view["legal"])))
    else:
        game.choose_moon(seat, rng.choice(view["moon_choices"]))
