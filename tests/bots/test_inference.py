"""What the hard player infers from play (``read``): how well a sampled deal explains every card the others played,
by the learned policy."""

from __future__ import annotations

import random

import pytest

from hartenjagen.shared.bots import kernel, policy
from hartenjagen.shared.bots.hard import DRAWS, HardComputerPlayer, candidates
from hartenjagen.shared.bots.inference import IMPOSSIBLE, log_likelihood, plays_of
from hartenjagen.shared.bots.knowledge import Knowledge, rules_of
from hartenjagen.shared.bots.sampling import Sampler, seed_from
from hartenjagen.shared.bots.value import value_spec
from hartenjagen.shared.cards import parse_card, parse_mask
from hartenjagen.shared.game import Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .table import ViewOnlySeat, play_hands

NO_STOP = 60_000.0  # no wall-clock stop: the same deals on a busy machine


def _names_mask(names: str) -> int:
    """The mask of space-separated card names."""
    return parse_mask(names.split())


# North leads the two of clubs and South takes the trick; South leads clubs again, and East, void in clubs, discards a
# diamond while holding Q♠ (she could have gone: points may fall from the second trick on).
READ_DEAL = [
    "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2H 3H 4H",  # North
    "QS 2S 3S 4S 7D 8D 9D TD JD 5H 6H 7H 8H",  # East: no clubs
    "AC KC 7C 8C 5S 6S 7S 8S QD KD AD 9H TH",  # South
    "QC JC TC 9C 9S TS JS KS AS JH QH KH AH",  # West
]
READ_PLAYS = [(0, "2C"), (1, "7D"), (2, "AC"), (3, "9C"), (2, "KC"), (3, "TC"), (0, "3C"), (1, "8D")]


def _read_view() -> tuple[dict, list[int]]:
    """North's view after East twice discarded a diamond into a club trick, and the hands everybody holds then."""
    rules = make_rules({"variant": "classic", "passing": "off"})
    game = Game(rules)
    game.deal([_names_mask(h) for h in READ_DEAL])
    for seat, card in READ_PLAYS:
        game.apply({"type": "play", "seat": seat, "card": card})
    return view_for(game, 0), list(game.hands)


def test_a_deal_where_the_queen_could_have_gone_and_did_not_explains_the_play_worse() -> None:
    """The learned policy reads East's second discard: with Q♠ in East's hand it was unlikely; that deal weighs less."""
    view, hands = _read_view()
    rules = rules_of(view)
    weights = policy.learned_weights()
    assert weights is not None
    plays = plays_of(rules, view)
    assert [(p[0], p[1]) for p in plays] == [(s, 1 << parse_card(c)) for s, c in READ_PLAYS]
    queen, swap = 1 << parse_card("QS"), 1 << parse_card("9S")
    moved = list(hands)  # the same deal with Q♠ in West's hand, and West's 9♠ in East's
    moved[1] ^= queen | swap
    moved[3] ^= queen | swap
    with_east = log_likelihood(rules, weights, hands, plays, 0)
    with_west = log_likelihood(rules, weights, moved, plays, 0)
    assert with_east < with_west - 1.0


def test_a_deal_that_makes_a_play_impossible_counts_as_nearly_impossible() -> None:
    """East discarded into clubs: a deal giving East a club it should have followed with is all but ruled out."""
    view, hands = _read_view()
    rules = rules_of(view)
    weights = policy.learned_weights()
    assert weights is not None
    club, diamond = 1 << parse_card("5C"), 1 << parse_card("9D")
    moved = list(hands)  # read by South: East holds North's 5♣, North East's 9♦
    moved[1] ^= diamond | club
    moved[0] ^= diamond | club
    assert log_likelihood(rules, weights, moved, plays_of(rules, view), 2) <= IMPOSSIBLE
    assert log_likelihood(rules, weights, hands, plays_of(rules, view), 2) > IMPOSSIBLE


@pytest.mark.parametrize("variant", ["classic", "five_kitty", "black_maria"])
def test_both_twins_weigh_the_deals_alike(variant: str) -> None:
    """The compiled likelihoods (``kernel.Plan.likelihoods``) are the pure-Python ones, deal by deal."""
    weights = policy.learned_weights()
    assert weights is not None and kernel.warm()
    seats = make_rules({"variant": variant}).seats
    views: list[dict] = []
    play_hands([HardComputerPlayer(seed=s, budget_ms=1) for s in range(seats)], {"variant": variant}, 7, 1,
               lambda seat, view, intent: views.append(view))  # fmt: skip
    checked = 0
    for view in views[:: max(1, len(views) // 12)]:
        if view["phase"] != "playing":
            continue
        k = Knowledge(view)
        if k.rules.counted:
            continue
        sampler = Sampler(k)
        plays = plays_of(k.rules, view)
        seeds = [seed_from(random.Random(i)) for i in range(20)]
        compiled = kernel.Plan(k, sampler, value_spec(k), DRAWS).likelihoods(seeds, plays, weights)
        pure = [log_likelihood(k.rules, weights, sampler.sample_with_kitty(x)[0], plays, k.seat) for x in seeds]
        assert compiled == pytest.approx(pure, abs=1e-9)
        checked += any(p[0] != k.seat for p in plays)
    assert checked >= 4


def _reading_positions(deal_seed: int) -> list[dict]:
    """Play views of one hand of four hard players, after some other seat has played, with a choice of cards."""
    views: list[dict] = []
    play_hands([HardComputerPlayer(seed=s, budget_ms=1) for s in range(4)], {}, deal_seed, 1,
               lambda seat, view, intent: views.append(view))  # fmt: skip
    return [v for v in views if v["phase"] == "playing" and len(v["legal"]) >= 2 and v["tricks"]]


def test_the_reading_hard_player_weighs_its_deals_the_same_compiled_and_in_pure_python() -> None:
    """With ``read`` the values still come out the same with or without the kernel, and reading changes some."""
    checked = differs = 0
    for i, view in enumerate(_reading_positions(41)[:8]):
        k = Knowledge(view)
        cands = candidates(k)
        history = plays_of(k.rules, view)
        fast = HardComputerPlayer(budget_ms=3, max_ms=NO_STOP, read=True).evaluate(k, cands, random.Random(i), history)
        slow = HardComputerPlayer(budget_ms=3, max_ms=NO_STOP, read=True, use_kernel=False).evaluate(
            k, cands, random.Random(i), history
        )
        plain = HardComputerPlayer(budget_ms=3, max_ms=NO_STOP).evaluate(k, cands, random.Random(i))
        assert fast == slow, (view["hand"], view["trick"])
        checked += 1
        differs += fast != plain
    assert checked == 8
    assert differs > 0, "reading the play changed no value at all"


def test_the_reading_hard_player_plays_a_whole_hand_of_legal_cards_from_its_own_view() -> None:
    """Seat 0 reads the others' plays from a JSON copy of its view, and every card it picks is legal."""
    seat = ViewOnlySeat(HardComputerPlayer(seed=4, budget_ms=3, max_ms=NO_STOP, read=True))
    play_hands([seat, *[HardComputerPlayer(seed=s, budget_ms=1) for s in (1, 2, 3)]], {}, deal_seed=33, hands=1)
    assert len(seat.plays) == 13


def test_where_a_card_appears_twice_the_reading_player_plays_on() -> None:
    """The policy covers one deck only: with jokers (one is led in this hand) ``read`` reads nothing and plays on."""
    reader = ViewOnlySeat(HardComputerPlayer(seed=4, budget_ms=2, max_ms=NO_STOP, read=True))
    others = [HardComputerPlayer(seed=s, budget_ms=1) for s in (1, 2)]
    leads: list[str] = []

    def note_leads(seat: int, view: dict, intent: dict) -> None:
        if intent["type"] == "play" and not (view.get("trick") or {}).get("cards"):
            leads.append(intent["card"])

    play_hands([reader, *others], {"variant": "three_jokers"}, deal_seed=5, hands=1, on_view=note_leads)
    assert "JK" in leads[:-1]  # a joker led before the last trick, with cards still to choose from
    assert len(reader.plays) == make_rules({"variant": "three_jokers"}).hand_size
