"""Random whole games under random options: invariants that must hold after every single action."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.cards import SUIT_MASKS, mask_cards
from shared.game import GAME_OVER, HAND_OVER, MOON_CHOICE, PASSING, PLAYING, Game
from shared.reasons import IllegalAction
from shared.rules import make_rules

CLASSIC_OPTIONS = st.fixed_dictionaries(
    {"variant": st.just("classic")},
    optional={
        "passing": st.sampled_from(["cycle", "off", "left", "right"]),
        "queen_breaks_hearts": st.booleans(),
        "end_score": st.integers(25, 120),
        "moon": st.sampled_from(["others", "self", "choose"]),
        "jack_of_diamonds": st.sampled_from([0, -10]),
        "tie": st.sampled_from(["share", "play_on"]),
        "first_trick_points": st.booleans(),
    },
)
DUTCH_OPTIONS = st.fixed_dictionaries(
    {"variant": st.just("dutch")},
    optional={
        "passing": st.sampled_from(["cycle", "off", "left", "right"]),
        "turn_score": st.integers(25, 60),
        "dutch_end": st.sampled_from(["at_or_below_zero", "exactly_zero"]),
        "queen_value": st.sampled_from([5, 13]),
        "jack_of_clubs": st.sampled_from([2, 0]),
        "moon": st.sampled_from(["others", "self", "choose"]),
        "jack_of_diamonds": st.sampled_from([0, -10]),
        "tie": st.sampled_from(["share", "play_on"]),
        "first_trick_points": st.booleans(),
    },
)
MAX_HANDS = 40


def _played(game: Game) -> int:
    m = 0
    for t in game.tricks + [game.trick]:
        for c in t.cards:
            m |= 1 << c
    return m


def _check_cards_are_conserved(game: Game) -> None:
    rules = game.rules
    union, total = _played(game), _played(game).bit_count()
    for h in game.hands:
        assert not h & union
        union |= h
        total += h.bit_count()
    assert union == rules.deck and total == rules.deck.bit_count()


def _check_refusals(game: Game, rng: random.Random) -> None:
    seat = game.turn
    hand, legal = game.hands[seat], game.legal(seat)
    assert legal and not legal & ~hand, "a seat on turn always has a legal card from its hand"
    refusals = game.refusals(seat)
    assert set(refusals) == set(mask_cards(hand & ~legal))
    for other in range(4):
        if other != seat:
            assert game.legal(other) == 0
    outside = game.rules.deck & ~hand
    if outside:
        _refused(game, seat, rng.choice(sorted(mask_cards(outside))), "not_in_hand")
    _refused(game, (seat + rng.randint(1, 3)) % 4, rng.choice(sorted(mask_cards(legal))), "not_your_turn")
    if refusals:
        card = rng.choice(sorted(refusals))
        _refused(game, seat, card, refusals[card][0])


def _refused(game: Game, seat: int, card: int, code: str) -> None:
    before = (game.snapshot(), len(game.events))
    try:
        game.play(seat, card)
    except IllegalAction as exc:
        assert exc.code == code
    else:
        raise AssertionError(f"seat {seat} played {card} and should have been refused with {code}")
    assert (game.snapshot(), len(game.events)) == before


def _check_dutch_follows_suit_only(game: Game) -> None:
    """Dutch with points allowed on the first trick: follow suit, otherwise anything."""
    rules, seat = game.rules, game.turn
    if rules.variant != "dutch" or not rules.first_trick_points:
        return
    hand = game.hands[seat]
    if game.trick.cards:
        expected = hand & SUIT_MASKS[game.trick.cards[0] // 13] or hand
    else:
        expected = hand
    assert game.legal(seat) == expected


def _check_hand_end(game: Game, totals_before: list[int], turned_before: bool) -> None:
    rules, last = game.rules, game.history[-1]
    points = [rules.points_of(t) for t in game.taken]
    assert last["points"] == points
    assert sum(points) == rules.moon_total + sum(v for v in rules.card_points if v < 0)
    full = [s for s in range(4) if game.taken[s] & rules.penalty_mask == rules.penalty_mask]
    assert last["moon"] == (full[0] if full else None)
    scores = last["scores"]
    if last["counting_down"]:
        # penalty points count down; a bonus card (the -10 jack) still lowers the total
        bonus = [rules.points_of(t & ~rules.penalty_mask) for t in game.taken]
        assert scores == [b - (p - b) for p, b in zip(points, bonus, strict=True)]
    elif not full:
        assert scores == points
    expected_totals = []
    for before, delta in zip(totals_before, scores, strict=True):
        new = before + delta
        if rules.exact_zero and last["counting_down"] and new < 0:
            new = -new
        expected_totals.append(new)
    assert game.totals == last["totals"] == expected_totals
    low = min(game.totals)
    tied = game.totals.count(low) > 1
    if rules.end == "reach":
        over = max(game.totals) >= rules.end_score
    else:
        assert game.turned == (turned_before or max(game.totals) >= rules.turn_score)
        zero = (lambda t: t == 0) if rules.exact_zero else (lambda t: t <= 0)
        over = last["counting_down"] and any(zero(t) for t in game.totals)
    if over and rules.tie == "play_on" and tied:
        over = False
    assert game.phase == (GAME_OVER if over else HAND_OVER)
    assert game.winners == ([s for s in range(4) if game.totals[s] == low] if over else [])


@settings(max_examples=100, deadline=None)
@given(options=st.one_of(CLASSIC_OPTIONS, DUTCH_OPTIONS), seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant_and_replay_to_the_same_state(options, seed):
    rules = make_rules(options)
    rng = random.Random(seed)
    game = Game(rules)
    for n in range(MAX_HANDS):
        totals_before, turned_before = list(game.totals), game.turned
        game.deal_seeded(seed + n)
        assert game.counting_down == turned_before
        _check_cards_are_conserved(game)
        while game.phase == PASSING:
            seat = rng.choice(game.to_act())
            chosen = rng.sample(sorted(mask_cards(game.hands[seat])), rules.pass_count)
            game.pass_cards(seat, chosen)
        assert game.phase == PLAYING
        if rules.first_lead >= 0:
            assert game.hands[game.turn] >> rules.first_lead & 1
        else:
            assert game.turn == (rules.dealer(game.hand_no) + 1) % 4
        while game.phase == PLAYING:
            _check_cards_are_conserved(game)
            _check_dutch_follows_suit_only(game)
            if rng.random() < 0.3:
                _check_refusals(game, rng)
            seat = game.turn
            game.play(seat, rng.choice(sorted(mask_cards(game.legal(seat)))))
        if game.phase == MOON_CHOICE:
            assert rules.moon == "choose" and not game.counting_down
            game.choose_moon(game.moon_seat, rng.choice(["others", "self"]))
        _check_hand_end(game, totals_before, turned_before)
        if game.phase == GAME_OVER:
            break
    again = Game.from_json(game.to_json())
    assert again.snapshot() == game.snapshot()
