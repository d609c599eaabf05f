"""A claim holds exactly when the claimer can take every remaining trick against every defence (brute force agrees)."""

from __future__ import annotations

import copy
import random

import pytest

from hartenjagen.shared.bots.choice import checked
from hartenjagen.shared.cards import mask_list, parse_card
from hartenjagen.shared.claim import ClaimRefused, claim_plays
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import PLAYING, Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for


def claimer_wins_all(game: Game, seat: int, hand_no: int) -> bool:
    """Brute force: can ``seat`` choose its plays so that it takes every remaining trick whatever the others play?"""
    if game.phase != PLAYING or game.hand_no != hand_no:
        return True
    mover = game.turn
    outcomes = []
    for card in mask_list(game.legal(mover)):
        trial = copy.deepcopy(game)
        before = len(trial.tricks)
        trial.play(mover, card)
        if len(trial.tricks) > before and trial.tricks[-1].winner != seat:
            outcomes.append(False)
        else:
            outcomes.append(claimer_wins_all(trial, seat, hand_no))
        if mover == seat and outcomes[-1]:
            return True  # the claimer found a line
        if mover != seat and not outcomes[-1]:
            return False  # a defender found a trick
    return mover != seat


def positions(count: int, tricks_left: int, seed: int):
    """Positions of classic (easy play) with ``tricks_left`` tricks to go, the seat to move about to claim."""
    rules = make_rules({})
    rng = random.Random(seed)
    for deal in range(1, count + 1):
        game = Game(rules)
        game.deal(seeded_deal(rules, deal, 0))
        stop_at = rng.randrange(4)  # cards of the current trick already played
        while game.phase in ("passing", "playing"):
            seat = game.to_act()[0]
            if game.phase == "playing" and 13 - len(game.tricks) == tricks_left and len(game.trick.cards) == stop_at:
                yield game, seat
                break
            intent = checked("easy", rng.randrange(2**32), view_for(game, seat))
            if intent["type"] == "pass":
                game.pass_cards(seat, [parse_card(c) for c in intent["cards"]])
            else:
                game.play(seat, parse_card(intent["card"]))


@pytest.mark.parametrize("tricks_left", [1, 2, 3])
def test_a_claim_is_accepted_exactly_when_no_defence_takes_a_trick(tricks_left):
    held = refused = 0
    for game, seat in positions(60, tricks_left, seed=tricks_left):
        truth = claimer_wins_all(game, seat, game.hand_no)
        try:
            plays = claim_plays(game, seat)
        except ClaimRefused as exc:
            assert exc.reason == "claim_fails"
            assert not truth, "a claim that holds was refused"
            refused += 1
            continue
        assert truth, "a claim that a defence beats was accepted"
        held += 1
        # the plays are real cards of the players who hold them, and give the claimer every trick
        trial = copy.deepcopy(game)
        hand_no = trial.hand_no
        for s, card in plays:
            assert trial.turn == s and card in mask_list(trial.legal(s))
            trial.play(s, card)
        assert trial.hand_no == hand_no and trial.phase != PLAYING
        assert all(t.winner == seat for t in trial.tricks[13 - tricks_left :])
    assert held and refused  # both kinds met: the test says something either way


def test_a_claim_out_of_turn_or_with_two_decks_is_refused():
    rules = make_rules({})
    game = Game(rules)
    game.deal(seeded_deal(rules, 5, 0))
    assert game.phase == "passing"
    with pytest.raises(ClaimRefused) as exc:
        claim_plays(game, 0)
    assert exc.value.reason == "claim_turn"
    rules = make_rules({"variant": "cancellation", "seats": 6})
    game = Game(rules)
    game.deal(seeded_deal(rules, 5, 0))
    with pytest.raises(ClaimRefused) as exc:
        claim_plays(game, 0)
    assert exc.value.reason == "claim_variant"


def test_a_claim_whose_search_would_take_too_long_is_refused_as_not_checkable_yet_and_changes_nothing(monkeypatch):
    """A claim sent early (not offered: the browser offers only sure ones) cannot hold a table for a long search."""
    import hartenjagen.shared.claim as claim

    searched = next(
        (game, seat)
        for left in (2, 3, 4)
        for game, seat in positions(200, left, seed=left)
        if game.turn == seat and not claim.claim_sure(game, seat) and claimer_wins_all(game, seat, game.hand_no)
    )
    game, seat = searched
    assert claim_plays(game, seat)  # it holds, found by the search
    monkeypatch.setattr(claim, "MAX_POSITIONS", 1)
    before = copy.deepcopy(game)
    with pytest.raises(ClaimRefused) as refused:
        claim_plays(game, seat)
    assert refused.value.reason == "claim_unsure"
    assert game.hands == before.hands and game.trick.cards == before.trick.cards and game.turn == before.turn


def test_every_reason_a_claim_is_refused_is_an_error_code_of_the_protocol():
    """The server sends the reason as the error's code; the client's i18n files word it (tests/server)."""
    import re

    from hartenjagen.server.table.errors import CODES
    from hartenjagen.shared import claim

    raised = set(re.findall(r'ClaimRefused\("(\w+)"\)', open(claim.__file__).read()))
    assert raised and raised <= set(CODES)
