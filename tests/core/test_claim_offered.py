"""The claim is offered (the view's ``claim``) only where it holds, judged from what the seat may know alone.

Offered, it holds on the real cards and on every other way the cards the seat cannot see could lie, so it is never
refused; it does not depend on where those cards are, so it gives nothing of another seat's hand away.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest

from hartenjagen.shared.claim import ClaimRefused, claim_plays, claim_sure
from hartenjagen.shared.game import PLAYING, Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .scripts import hand, parse_tricks, random_step

VARIANTS = ["classic", "dutch", "black_maria", "belgian", "three_kitty", "five", "achterhoeks"]


def turns(variant: str, hands: int, seed: int) -> Iterator[tuple[Game, int]]:
    """Every turn in play of ``hands`` random hands of ``variant`` (random legal play), with the seat to move."""
    rules = make_rules({"variant": variant})
    rng = random.Random(seed)
    game = Game(rules)
    for n in range(hands):
        game.deal_seeded(seed * 1000 + n)
        while game.phase in ("passing", "playing", "moon_choice"):
            if game.phase == PLAYING:
                yield game, game.turn
            random_step(game, rng)
        if game.phase == "game_over":
            return


def others_dealt_again(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with the cards of the other seats' hands dealt among them again (each keeps its count)."""
    trial = copy.deepcopy(game)
    others = [s for s in range(game.seats) if s != seat]
    cards = [c for s in others for c in range(52) if game.hands[s] >> c & 1]
    rng.shuffle(cards)
    for s in others:
        count = game.hands[s].bit_count()
        trial.hands[s] = sum(1 << c for c in cards[:count])
        cards = cards[count:]
    trial._legal = -1
    return trial


def takes_the_rest(game: Game, seat: int) -> bool:
    """Whether the plays ``claim_plays`` gives (else ClaimRefused) are legal and give ``seat`` every trick left."""
    trial = copy.deepcopy(game)
    done = len(trial.tricks)
    for s, card in claim_plays(game, seat):
        trial.play(s, card)
    over = trial.phase != PLAYING and trial.hand_no == game.hand_no
    return over and all(t.winner == seat for t in trial.tricks[done:])


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_offered_claim_holds_however_the_unseen_cards_lie(variant):
    rng = random.Random(7)
    offered = not_offered = 0
    for game, seat in turns(variant, 12, seed=VARIANTS.index(variant) + 1):
        sure = view_for(game, seat)["claim"]
        for _ in range(3):
            again = others_dealt_again(game, seat, rng)
            assert claim_sure(again, seat) == sure  # the unseen cards' places never change the offer
            if sure:
                assert takes_the_rest(again, seat)  # holds on this lie of the cards too
        if sure:
            assert takes_the_rest(game, seat)
            offered += 1
        else:
            not_offered += 1
        # only the seat to move is ever offered the claim
        assert not any(view_for(game, s)["claim"] for s in range(game.seats) if s != seat)
    assert offered and not_offered  # both kinds met: the test says something either way


def test_the_claim_is_not_offered_at_the_first_trick_nor_where_a_claim_would_be_refused():
    refused_and_offered = 0
    for game, seat in turns("classic", 20, seed=3):
        if not game.tricks:
            assert not view_for(game, seat)["claim"]
        try:
            claim_plays(game, seat)
        except ClaimRefused:
            refused_and_offered += view_for(game, seat)["claim"]
    assert refused_and_offered == 0


# Classic, no passing, the deal written out whole. After three tricks South leads, holding 4C, which JC, QC and more
# clubs out can beat; after six she holds the highest card out of every suit she has left.
HANDS = [
    "2C 3C 4C AD KD QD AS KS QS JS AH KH QH",
    "5C 6C 7C 8C 2D 3D 4D 5D 2S 3S 4S 2H 3H",
    "9C TC JC QC 6D 7D 8D 9D 5S 6S 7S 4H 5H",
    "KC AC TD JD 8S 9S TS 6H 7H 8H 9H TH JH",
]
TRICKS = """
S:2C W:5C N:9C E:AC
E:KC S:3C W:6C N:TC
E:TD S:AD W:2D N:6D
S:4C W:7C N:JC E:JH
N:QC E:TH S:QD W:8C
N:5S E:8S S:AS W:2S
"""


def after(tricks: int) -> Game:
    """The game of ``HANDS`` with the first ``tricks`` tricks of ``TRICKS`` played."""
    game = Game(make_rules({"passing": "off"}))
    game.deal([hand(h) for h in HANDS])
    for trick in parse_tricks(TRICKS)[:tricks]:
        for s, c in trick:
            game.play(s, c)
    return game


def test_the_claim_is_offered_once_every_card_left_is_the_highest_of_its_suit_still_out():
    game = after(3)
    assert game.turn == 0 and game.hands[0] == hand("4C KD QD AS KS QS JS AH KH QH")
    assert not view_for(game, 0)["claim"]  # 4C: the clubs still out beat it
    with pytest.raises(ClaimRefused):
        claim_plays(game, 0)
    game = after(6)
    assert game.turn == 0 and game.hands[0] == hand("KD KS QS JS AH KH QH")
    assert view_for(game, 0)["claim"]
    assert all(s == 0 for s, _ in claim_plays(game, 0)[::4])  # she leads every trick that is left


# Classic, no passing: South holds 2C, 9D and every spade from 4S up; 2S and 3S are West's. TD and higher diamonds
# are out, so 9D takes a diamond trick only when South plays last to it and no higher diamond lies in it.
SPADES_HANDS = [
    "2C 9D AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
    "AC 3C 4C 5C 6C 2D 7D TD 2S 3S 2H 3H 4H",
    "7C 8C 9C TC JC 3D 4D 8D 5H 6H 7H 8H 9H",
    "QC KC 5D 6D JD QD KD AD TH JH QH KH AH",
]


def spades_game(script: str) -> Game:
    """The game of ``SPADES_HANDS`` with ``script`` played (its last trick may be one begun)."""
    game = Game(make_rules({"passing": "off"}))
    game.deal([hand(h) for h in SPADES_HANDS])
    for trick in parse_tricks(script):
        for s, c in trick:
            game.play(s, c)
    return game


def test_in_a_trick_begun_the_claim_is_offered_when_the_seat_takes_that_trick_and_holds_tops_after_it():
    # West took the first trick and leads 7D; South plays last: 9D takes it, and every spade she keeps is the top
    game = spades_game("S:2C W:AC N:7C E:QC\nW:7D N:8D E:5D")
    assert game.turn == 0
    assert view_for(game, 0)["claim"]
    plays = claim_plays(game, 0)
    assert plays[0] == (0, hand("9D").bit_length() - 1)
    # East's AD lies in the trick: 9D takes nothing, no claim
    game = spades_game("S:2C W:AC N:7C E:QC\nW:7D N:8D E:AD")
    assert not view_for(game, 0)["claim"]
    # East took the first trick and leads 5D: West plays after South and may hold a diamond over 9D (TD): no claim
    game = spades_game("S:2C W:3C N:JC E:KC\nE:5D")
    assert game.turn == 0
    assert not view_for(game, 0)["claim"]
    with pytest.raises(ClaimRefused):
        claim_plays(game, 0)
    assert not any(view_for(game, s)["claim"] for s in (1, 2, 3))  # only the seat to move is ever offered it
