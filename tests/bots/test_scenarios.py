"""Constructed positions: the strategy points of the tips for computer players, and the hard player's obvious card."""

from __future__ import annotations

import random

import pytest

from hartenjagen.shared.bots import make_player
from hartenjagen.shared.bots.hard import candidates
from hartenjagen.shared.bots.knowledge import Knowledge
from hartenjagen.shared.bots.sampling import Sampler
from hartenjagen.shared.cards import SUIT_MASKS, mask_names, parse_mask
from hartenjagen.shared.game import Game
from hartenjagen.shared.variants import CLASSIC
from hartenjagen.shared.view import view_for

from .table import dealt, play

NO_PASS = {"passing": "off"}
# South has one club and twelve diamonds, West no diamonds but Q♠, East A♦ and the top clubs.
VOID_DEAL = [
    "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "3C QS 2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H",
    "4C 5C 6C 7C 8C 7H 8H 9H TH JH QH KH AH",
    "9C TC JC QC KC AC AD TS JS KS AS 5H 6H",
]
# South holds Q♠ and no diamonds; North holds 2♦ K♦ A♦ and plays last to East's J♦.
DUCK_DEAL = [
    "2C QS 2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H",
    "3C 3D 4D 5D 6D 7D 8D 9D TD 5H 6H 7H 8H",
    "4C 5C 6C 7C 8C 2D KD AD 9H TH JH QH KH",
    "9C TC JC QC KC AC JD QD TS JS KS AS AH",
]
# North will take Q♠ and a heart in the second trick and then lead K♥; East holds A♥ and low hearts.
MOON_DEAL = [
    "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD 4H",
    "3C QS 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS",
    "AC KC QC JC TC 6H 7H 8H 9H TH JH QH KH",
    "4C 5C 6C 7C 8C 9C AH 2H 3H 5H KD AD AS",
]


def pass_view(hand: str) -> dict:
    """Return South's passing view for a first hand whose South cards are ``hand``."""
    rest = [c for c in mask_names((1 << 52) - 1) if c not in hand.split()]
    game = Game(CLASSIC)
    game.deal([parse_mask(hand.split())] + [parse_mask(rest[i * 13 : (i + 1) * 13]) for i in range(3)])
    return view_for(game, 0)


def test_medium_passes_the_queen_with_only_two_small_spades():
    view = pass_view("QS 3S 5S 2C 4C 9C TC 3D 6D 8D 2H 5H 7H")
    intent = make_player("medium", 1).decide(view)
    assert intent["type"] == "pass"
    assert "QS" in intent["cards"]


def test_medium_keeps_the_queen_behind_four_small_spades():
    view = pass_view("QS 2S 3S 5S 7S 2C 4C 9C 3D 6D 8D 2H 5H")
    assert "QS" not in make_player("medium", 1).decide(view)["cards"]


def test_medium_passes_high_spades_it_cannot_protect_and_empties_a_short_suit():
    view = pass_view("AS KS 4S 2C 3C 5C 9C TC JC 3D 2H 5H 7H")
    cards = make_player("medium", 1).decide(view)["cards"]
    assert {"AS", "KS"} <= set(cards)
    assert "3D" in cards  # the lone diamond goes: South is void in diamonds after the pass


def test_medium_dumps_the_queen_when_void_in_the_led_suit():
    game = dealt(NO_PASS, VOID_DEAL)
    play(game, "2C", "3C", "4C", "AC", "AD", "2D")  # East wins the clubs, leads A♦, South follows
    view = view_for(game, 1)
    assert view["turn"] == 1 and "QS" in view["legal"]
    assert make_player("medium", 1).decide(view)["card"] == "QS"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_last_to_play_ducks_under_the_queen_trick(level):
    game = dealt(NO_PASS, DUCK_DEAL)
    play(game, "2C", "3C", "4C", "AC", "JD", "QS", "3D")  # East leads J♦, South drops Q♠ on it
    view = view_for(game, 2)
    assert sorted(view["legal"]) == ["2D", "AD", "KD"]
    player = make_player(level, 1, **({"budget_ms": 50} if level == "hard" else {}))
    assert player.decide(view)["card"] == "2D"


def test_medium_takes_one_heart_to_stop_a_moon():
    game = dealt(NO_PASS, MOON_DEAL)
    play(game, "2C", "3C", "AC", "4C")  # North wins the first trick
    play(game, "KC", "5C", "4H", "QS")  # North takes the queen and a heart: he may be shooting
    play(game, "KH")
    view = view_for(game, 3)
    assert make_player("medium", 1).decide(view)["card"] == "AH"


def test_medium_ducks_under_the_winner_without_a_moon_threat():
    game = dealt(NO_PASS, MOON_DEAL)
    play(game, "2C", "3C", "AC", "4C", "KC", "5C", "4H", "2S")  # nobody took the queen: no threat
    play(game, "KH")
    assert make_player("medium", 1).decide(view_for(game, 3))["card"] == "5H"


def test_sampled_deals_respect_voids_passed_cards_and_sizes():
    game = dealt(NO_PASS, VOID_DEAL)
    play(game, "2C", "3C", "4C", "AC", "AD", "2D", "QS", "7H")
    k = Knowledge(view_for(game, 0))
    sampler = Sampler(k)
    rng = random.Random(1)
    for _ in range(50):
        hands = sampler.sample(rng)
        assert [h.bit_count() for h in hands] == k.sizes
        assert hands[0] == k.hand
        assert not hands[1] & SUIT_MASKS[1] and not hands[2] & SUIT_MASKS[1]  # West and North showed no diamonds
        union = hands[0] | hands[1] | hands[2] | hands[3]
        assert union == k.rules.deck & ~k.played


def test_hard_tells_apart_cards_split_by_the_card_led():
    game = dealt(
        NO_PASS,
        [
            "2C 5D 7D 2S 3S 4S 5S 6S 7S 8S 9S TS 2H",
            "3C 5C 6C 7C 8C 9C TC JC QC KC 3H 4H 5H",
            "4C 2D 3D 4D 8D 9D TD 6H 7H 8H 9H TH JH",
            "AC 6D JD QD KD AD JS QS KS AS QH KH AH",
        ],
    )
    play(game, "2C", "3C", "4C", "AC", "6D")
    k = Knowledge(view_for(game, 0))
    # nothing is out between 5♦ and 7♦, but the 6♦ led splits them: one ducks, the other wins
    assert sorted(mask_names(sum(1 << c for c in candidates(k)))) == ["5D", "7D"]
