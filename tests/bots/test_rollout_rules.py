"""The look-ahead's rule of thumb follows the variant: its big card, the moon only where there is one, and which
tables the compiled twin plays."""

from __future__ import annotations

import random
from itertools import cycle

import pytest

from hartenjagen.shared import multiset
from hartenjagen.shared.bots import kernel
from hartenjagen.shared.bots.counted import counted_rollout
from hartenjagen.shared.bots.knowledge import big_card
from hartenjagen.shared.bots.rollout import rollout
from hartenjagen.shared.cards import parse_card, parse_mask
from hartenjagen.shared.variants import make_rules
from hartenjagen.tools.arena import run_arena


@pytest.mark.parametrize(
    ("variant", "big"),
    [("classic", "QS"), ("achterhoeks", "JC"), ("achterhoeks_bar", "JS"), ("dutch", "QS"), ("chips", None)],
)
def test_the_big_card_is_the_non_heart_card_worth_the_most(variant, big):
    card, suit = big_card(make_rules({"variant": variant}))
    assert card == (parse_card(big) if big else -1) and suit == (parse_card(big) // 13 if big else -1)


def test_a_void_seat_dumps_the_big_card_of_its_variant():
    # South leads 2♣; West, void in clubs, holds Q♠ and J♠: in the bar form it throws J♠ (8 points) on East's
    # trick, in Black Lady Q♠ (13); North takes the second trick with A♥
    hands = [parse_mask(["2C", "3H"]), parse_mask(["QS", "JS"]), parse_mask(["4C", "AH"]), parse_mask(["5C", "5H"])]
    for variant, dumped, kept in (("achterhoeks_bar", "JS", "QS"), ("classic", "QS", "JS")):
        rules = make_rules({"variant": variant})
        taken = rollout(rules, list(hands), [0, 0, 0, 0], 0, [], False, False, random.Random(1).random, whim=0.0)
        assert taken[3] == parse_mask(["2C", "4C", "5C", dumped]), variant
        assert taken[2] == parse_mask(["3H", "5H", "AH", kept]), variant


NINE_HEARTS = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"]


@pytest.mark.parametrize(("east_took", "qs_to"), [(["3H"], 3), (NINE_HEARTS, 2)])
def test_a_void_seat_stops_a_moon_only_once_a_third_of_it_is_taken(east_took, qs_to):
    # East leads K♣, South ducks 2♣; West, void in clubs, holds Q♠ and 4♦. East alone has taken points: with one
    # heart that is no moon yet and West dumps Q♠ on East; with nine (a third of 26) West keeps her off East, throws
    # 4♦, and North takes Q♠ on the next trick with A♥. The pure-Python rollout and its compiled twin agree.
    rules = make_rules({"variant": "classic"})
    hands = [parse_mask(["5D"]), parse_mask(["QS", "4D"]), parse_mask(["3C", "AH"]), parse_mask(["2H"])]
    taken = [0, 0, 0, parse_mask(east_took)]
    trick = [1 << parse_card("KC"), 1 << parse_card("2C")]
    out = rollout(rules, list(hands), list(taken), 3, list(trick), False, True, random.Random(1).random, whim=0.0)
    assert out[qs_to] >> parse_card("QS") & 1
    assert kernel.AVAILABLE
    compiled = kernel.play_out(rules, [hands], [taken], [3], [trick], [False], [True], [1], 8, False, 0.0)
    assert compiled[0][0] == out


SHOOTING = ["4H", "5H", "6H", "7H", "8H", "JH", "QH", "KH", "AH", "JK"]  # 10 points: a third of the 30 of a moon
# seat 2 has led; the hands of seats 0, 1 and 2 after its lead
AFTER_KC = [["QS", "4D"], ["2C", "6D"], ["5D"]]
AFTER_9H = [["TH", "2H"], ["3H", "4C"], ["3C"]]


@pytest.mark.parametrize(
    ("shooter_took", "lead", "hands", "card", "taker"),
    [
        (["2H"], "KC", AFTER_KC, "QS", 2),
        (SHOOTING, "KC", AFTER_KC, "QS", 1),
        (["2H"], "9H", AFTER_9H, "9H", 2),
        (SHOOTING, "9H", AFTER_9H, "9H", 0),
    ],
)
def test_with_jokers_the_rollouts_stop_a_moon_only_once_a_third_of_it_is_taken(shooter_took, lead, hands, card, taker):
    # Three seats, one deck and two jokers. Seat 2, the only one that has taken points, leads. On K♣ seat 0, void in
    # clubs, holds Q♠ and 4♦: with one heart taken there is no moon yet and Q♠ goes on the lead; with 10 points (a
    # third of 30) she throws 4♦, and Q♠ falls on the next trick, which seat 1 takes from the shooter. On 9♥ seat 0
    # ducks with 2♥, or takes the trick from the shooter with 10♥. The compiled twin plays the same.
    rules = make_rules({"variant": "three_jokers"})
    hs = [multiset.parse(h) for h in hands]
    taken = [0, 0, multiset.parse(shooter_took)]
    trick = [parse_card(lead)]
    out = counted_rollout(rules, list(hs), list(taken), 2, trick, False, True, cycle([0.5]).__next__, whim=0.0)
    assert multiset.count(out[taker], parse_card(card)) == 1
    assert kernel.AVAILABLE
    assert kernel.counted_play_out(rules, hs, taken, 2, trick, False, True, [0.5], False, 0.0) == out


def test_the_arenas_player_without_the_counted_moon_rule_plays_as_before_it():
    # hard-counted-nomoon: with jokers, the shooter of 10 points gets Q♠ thrown to it, as before the rule
    rules = make_rules({"variant": "three_jokers"})
    hs = [multiset.parse(h) for h in AFTER_KC]
    taken = [0, 0, multiset.parse(SHOOTING)]
    trick = [parse_card("KC")]
    draws = cycle([0.5]).__next__
    out = counted_rollout(rules, list(hs), list(taken), 2, trick, False, True, draws, whim=0.0, moon=False)
    assert multiset.count(out[2], parse_card("QS")) == 1
    assert kernel.counted_play_out(rules, hs, taken, 2, trick, False, True, [0.5], False, 0.0, moon=False) == out
    players = ["hard-counted-nomoon@1", "hard@1", "medium"]
    res = run_arena(players, 3, variant="three_jokers", keep_log=True)  # the arena seats it, and it plays hands out
    assert [p["name"] for p in res["players"]] == players
    assert res["log"] and all(len(d["scores"]) == 3 for d in res["log"])


def test_with_two_decks_the_rollouts_stop_no_moon():
    # Cancellation at six: the seat that alone has taken Q♠ and five hearts (18 points, a third of 52) leads K♣, and
    # the next seat, void in clubs, still dumps the second Q♠ on it: nobody takes every point card of two decks.
    rules = make_rules({"variant": "cancellation"})
    hands = [["QS", "4D"], ["2C", "AH"], ["3C", "6D"], ["4C", "7D"], ["5C", "8D"], ["5D"]]
    hs = [multiset.parse(h) for h in hands]
    taken = [0] * 5 + [multiset.parse(["QS", "2H", "3H", "4H", "5H", "6H"])]
    trick = [parse_card("KC")]
    out = counted_rollout(rules, list(hs), list(taken), 5, trick, False, True, cycle([0.5]).__next__, whim=0.0)
    assert multiset.count(out[5], parse_card("QS")) == 2
    assert kernel.counted_play_out(rules, hs, taken, 5, trick, False, True, [0.5], False, 0.0) == out


def test_the_compiled_twin_covers_every_table_of_one_deck():
    for variant in ("classic", "achterhoeks_bar", "three", "three_kitty", "five", "five_kitty", "dutch5"):
        assert kernel.covers(make_rules({"variant": variant})), variant
    for variant in ("three_jokers", "cancellation", "extreme"):
        assert not kernel.covers(make_rules({"variant": variant})), variant
