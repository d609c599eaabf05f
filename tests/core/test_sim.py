"""The fast playout path plays by the same rules and scores the same as the game it stands in for."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hartenjagen.shared.game import MOON_CHOICE, PASSING, PLAYING, Game
from hartenjagen.shared.sim import hand_scorer, pick, playout, random_hand, score_hand
from hartenjagen.shared.variants import VARIANTS, make_rules

from .scripts import random_step

OPTIONS = [
    {},
    {"queen_breaks_hearts": True},
    {"first_trick_points": True, "jack_of_diamonds": -10},
    {"moon": "self", "passing": "off"},
    {"variant": "dutch"},
    {"variant": "dutch", "first_trick_points": False, "passing": "cycle", "moon": "others"},
    {"variant": "dutch", "queen_value": 13, "jack_of_clubs": 0},
]
#: The house-rule variants whose play or scoring differs: the fast path must play and score them the same.
VARIANT_OPTIONS = [
    {"variant": "belgian"},
    {"variant": "belgian", "gentleman_3": True},
    {"gentleman_3": True, "passing": "scatter"},
    {"variant": "black_maria", "gentleman_4": True},
    {"variant": "parker_brothers"},
    {"variant": "achterhoeks"},
    {"variant": "achterhoeks_bar"},
    {"variant": "hooligan", "moon": "self"},
    {"variant": "spot_hearts", "spot_form": 2},
    {"variant": "dutch52", "gentleman_3": True},
]


def _engine_finish(game: Game, rand) -> None:
    """Finish the hand through the game, drawing from ``rand`` exactly where the playout draws."""
    while game.phase == PLAYING:
        legal = game.legal(game.turn)
        b = pick(legal, rand) if legal & (legal - 1) else legal
        game.play(game.turn, b.bit_length() - 1)


@settings(max_examples=120, deadline=None)
@given(
    options=st.sampled_from(OPTIONS + VARIANT_OPTIONS),
    seed=st.integers(0, 10**6),
    cut=st.integers(0, 52),
    draw_seed=st.integers(0, 10**6),
)
def test_playout_from_any_position_takes_the_same_cards_as_the_game_with_the_same_draws(options, seed, cut, draw_seed):
    rules = make_rules(options)
    game = Game(rules)
    rng = random.Random(seed)
    game.deal_seeded(seed)
    while game.phase == PASSING:
        random_step(game, rng)
    for _ in range(min(cut, rules.hand_size * 4 - 1)):
        random_step(game, rng)
    hands, taken = list(game.hands), list(game.taken)
    trick = [1 << c for c in game.trick.cards]
    first, broken, leader = not game.tricks, game.hearts_broken, game.trick.leader

    doubled = list(game.doubled)
    got = playout(rules, hands, taken, leader, trick, first, broken, random.Random(draw_seed).random, doubled)
    _engine_finish(game, random.Random(draw_seed).random)

    assert got == game.taken and doubled == game.doubled
    assert hands == [0, 0, 0, 0]
    if game.phase == MOON_CHOICE:
        game.choose_moon(game.moon_seat, "others")  # what score_hand assumes for "choose"
    assert score_hand(rules, got, game.counting_down, doubled=doubled) == game.history[-1]["scores"]


@pytest.mark.parametrize("moon", ["others", "self"])
def test_score_hand_with_an_explicit_moon_choice_matches_the_game_after_that_choice(moon):
    from .hands import DUTCH_MARS
    from .scripts import deal_and_play

    rules = make_rules({"variant": "dutch"})
    game = Game(rules)
    deal_and_play(game, DUTCH_MARS)
    game.choose_moon(0, moon)
    assert score_hand(rules, game.taken, moon=moon) == game.history[-1]["scores"]


def test_pick_chooses_each_card_of_a_mask_for_its_share_of_the_unit_interval():
    mask = (1 << 3) | (1 << 17) | (1 << 40) | (1 << 51)
    assert [pick(mask, lambda k=k: k / 4 + 0.01) for k in range(4)] == [1 << 3, 1 << 17, 1 << 40, 1 << 51]
    assert pick(mask, lambda: 0.999999) == 1 << 51
    assert pick(1 << 9, lambda: 0.5) == 1 << 9


@pytest.mark.parametrize("options", OPTIONS)
def test_random_hands_always_hand_out_every_point_of_the_deck(options):
    rules = make_rules(options)
    rng = random.Random(4)
    for _ in range(200):
        scores = random_hand(rules, rng)
        bonus, moon = sum(v for v in rules.card_points if v < 0), rules.moon_total
        # no moon: the deck's points; moon "others": 3 x the moon total; "self": minus the moon total
        assert sum(scores) - bonus in (moon, 3 * moon, -moon)


@settings(max_examples=300, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 2**32 - 1),
    counting_down=st.booleans(),
    moon=st.sampled_from([None, "others", "self"]),
    sweep=st.sampled_from(["none", "penalties", "everything"]),
)
def test_the_fast_scorer_scores_every_outcome_as_the_game_does(variant, seed, counting_down, moon, sweep):
    # Look-ahead scores simulated hands with hand_scorer: it must agree with score_hand on every variant.
    rules = make_rules({"variant": variant})
    rng = random.Random(seed)
    cards = [1 << c for c in range(52) if rules.deck >> c & 1]
    taken = [0] * rules.seats
    lucky = rng.randrange(rules.seats)
    for b in cards:
        if sweep == "everything" or (sweep == "penalties" and b & rules.penalty_mask):
            taken[lucky] |= b
        else:
            taken[rng.randrange(rules.seats)] |= b
    doubled = [t & rng.getrandbits(52) for t in taken]
    fast = hand_scorer(rules, counting_down, moon)
    assert fast(taken, doubled) == score_hand(rules, taken, counting_down, moon, doubled)
    assert fast(taken, None) == score_hand(rules, taken, counting_down, moon, None)
