"""A claim: the player to move says every remaining trick is theirs, whatever the others play.

The table checks a claim on the real cards: it holds when the claimer has a way to play that takes every remaining
trick against every way the others may play. The search is small because most moves are dominated: there are no
trumps, so a trick goes to the highest card of the suit led, and
- the claimer plays the top of a suit (a lower card of it wins nothing the top does not, and keeping the top for later
  is never better: the others' cards of that suit only become fewer);
- a player who follows suit either beats the claimer's card (the claim fails there) or plays the lowest (keeping
  higher cards can only hurt the claimer later);
- a player who cannot follow throws the lowest card of one of its suits (which suit is searched: giving up a suit's
  lowest card keeps the most of that suit).
``claim_plays`` returns the plays that finish the hand, which the table then plays for real. Legality (hearts
broken, the first trick) is the game's own. Only where one card beats another by rank alone: one deck, no jokers.

``claim_sure`` says whether a seat may be offered the claim: judged from what that seat may know alone (its own
cards, the cards played, the kitty it took), never from another seat's hand, so the view can carry it.
"""

from __future__ import annotations

import copy
from typing import Any

from .cards import SUIT_MASKS, bit, mask_list, rank_of, suit_of
from .game import PLAYING, Game
from .multiset import LAYER0


class ClaimRefused(ValueError):
    """A claim the cards do not bear out (or that this game does not allow); ``reason`` is a stable code."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _tops(cards: list[int]) -> list[int]:
    """The highest card of each suit among ``cards``, highest first."""
    best: dict[int, int] = {}
    for c in cards:
        if suit_of(c) not in best or rank_of(c) > rank_of(best[suit_of(c)]):
            best[suit_of(c)] = c
    return sorted(best.values(), key=rank_of, reverse=True)


def _lows(cards: list[int]) -> list[int]:
    """The lowest card of each suit among ``cards``."""
    low: dict[int, int] = {}
    for c in cards:
        if suit_of(c) not in low or rank_of(c) < rank_of(low[suit_of(c)]):
            low[suit_of(c)] = c
    return sorted(low.values(), key=rank_of)


#: The positions a claim's search may look at: with many tricks left, the others' throws multiply, and a claim sent
#: early could hold the table's event loop for minutes. Past this the claim is refused as not checkable yet (the
#: browser offers a claim only once it is sure, which needs no search).
MAX_POSITIONS = 1000


def _trial(game: Game) -> Game:
    """A copy of ``game`` to play on, without its past.

    The rules are shared (they never change), the log is left out, and the finished hands' results are shared by a
    list of its own: a deep copy of the past made a claim's search about sixty times slower in a long game.
    """
    memo: dict[int, Any] = {id(game.rules): game.rules, id(game.events): [], id(game.history): list(game.history)}
    return copy.deepcopy(game, memo)


class _Search:
    """Whether ``seat`` takes every remaining trick of the hand, with the moves worth trying at each turn."""

    def __init__(self, seat: int, hand_no: int) -> None:
        self.seat, self.hand_no = seat, hand_no
        self.known: dict[tuple[tuple[int, ...], tuple[int, ...], int, bool], bool] = {}
        self.left = MAX_POSITIONS

    def moves(self, game: Game) -> list[int] | None:
        """The moves worth trying for the player to move; None when that player can take the trick from the claimer."""
        mover = game.turn
        legal = mask_list(game.legal(mover))
        trick = game.trick
        led = trick.led if trick.cards else -1
        if mover == self.seat:
            following = [c for c in legal if suit_of(c) == led]
            return _tops(following) if following else _tops(legal)
        following = [c for c in legal if suit_of(c) == led]
        if following:
            top = max((c for c in trick.cards if suit_of(c) == led), key=rank_of)
            if any(rank_of(c) > rank_of(top) for c in following):
                return None
            return [min(following, key=rank_of)]
        return _lows(legal)

    def after(self, game: Game, card: int) -> Game | None:
        """The game after ``card`` is played, or None when that ends a trick the claimer did not take."""
        trial = _trial(game)
        before = len(trial.tricks)
        trial.play(trial.turn, card)
        if len(trial.tricks) > before and trial.tricks[-1].winner != self.seat:
            return None
        return trial

    def wins(self, game: Game) -> bool:
        """Whether the claimer takes every remaining trick from ``game`` on."""
        if game.phase != PLAYING or game.hand_no != self.hand_no:
            return True
        key = (tuple(game.hands), tuple(game.trick.cards), game.turn, game.hearts_broken)
        if key not in self.known:
            self.left -= 1
            if self.left < 0:
                raise ClaimRefused("claim_unsure")
            self.known[key] = self._wins(game)
        return self.known[key]

    def winning_move(self, game: Game) -> tuple[int, Game]:
        """A move that keeps the claim winning, and the game after it; only where ``wins(game)`` holds."""
        for card in self.moves(game) or ():
            after = self.after(game, card)
            if after is not None and self.wins(after):
                return card, after
        raise AssertionError("the claimer wins here, so some move keeps winning")

    def _wins(self, game: Game) -> bool:
        moves = self.moves(game)
        if moves is None:
            return False
        results = (self.after(game, card) for card in moves)
        if game.turn == self.seat:
            return any(trial is not None and self.wins(trial) for trial in results)
        return all(trial is not None and self.wins(trial) for trial in results)


def claim_plays(game: Game, seat: int) -> list[tuple[int, int]]:
    """Return the plays (seat, card) that finish the hand with every trick to ``seat``, or raise ClaimRefused."""
    if game.rules.counted:
        raise ClaimRefused("claim_variant")
    if game.phase != PLAYING or game.turn != seat:
        raise ClaimRefused("claim_turn")
    if _sure_card(game, seat) is not None:
        return _sure_plays(game, seat)  # no search: with many tricks left it would try every throw of the others
    search = _Search(seat, game.hand_no)
    if not search.wins(game):
        raise ClaimRefused("claim_fails")
    plays: list[tuple[int, int]] = []
    trial = game
    while trial.phase == PLAYING and trial.hand_no == game.hand_no:
        mover = trial.turn
        card, trial = search.winning_move(trial)
        plays.append((mover, card))
    return plays


def claim_sure(game: Game, seat: int) -> bool:
    """Whether ``seat`` may claim now, judged only from what it may know: however the cards it cannot see lie.

    It is the seat's turn in play, and every card it will lead is the highest of its suit still out, so every trick
    it leads is its own; in a trick already begun it first takes that trick with a card of the suit led. Then
    ``claim_plays`` holds on the real cards too, whoever holds them.
    """
    return _sure_card(game, seat) is not None


def _sure_card(game: Game, seat: int) -> int | None:
    """The card ``seat`` plays now in a claim that holds however the cards it cannot see lie, else None.

    In a trick begun: its lowest card of the suit led that beats the trick and every card of that suit out that may
    still fall in it (the higher ones it keeps are likelier to stay the highest); leading: its first legal card.
    Every card it keeps must be the highest of its suit still out.
    """
    if game.rules.counted or game.phase != PLAYING or game.turn != seat:
        return None
    trick = game.trick
    hand = game.hands[seat]
    played = trick.bits
    for done in game.tricks:
        played |= done.bits
    unseen = game.rules.deck & LAYER0 & ~(hand | played | game.kitty_taken[seat])
    legal = mask_list(game.legal(seat))
    if not trick.cards:
        return legal[0] if _all_highest(hand, unseen) else None
    last = len(trick.cards) == game.seats - 1  # nobody plays after the seat in this trick
    above = trick.best() if last else max(trick.best(), _highest(unseen & SUIT_MASKS[trick.led]))
    winners = [c for c in legal if suit_of(c) == trick.led and c > above]
    return winners[0] if winners and _all_highest(hand & ~bit(winners[0]), unseen) else None


def _sure_plays(game: Game, seat: int) -> list[tuple[int, int]]:
    """The plays of a claim ``_sure_card`` vouches for: the claimer's sure cards, the others' lowest legal ones."""
    trial = _trial(game)
    plays: list[tuple[int, int]] = []
    while trial.phase == PLAYING and trial.hand_no == game.hand_no:
        mover = trial.turn
        card = _sure_card(trial, seat) if mover == seat else _lowest(trial, mover)
        if card is None:
            raise AssertionError("a sure claim stays sure after each trick the claimer takes")
        plays.append((mover, card))
        trial.play(mover, card)
    return plays


def _lowest(game: Game, seat: int) -> int:
    """The lowest legal card of ``seat``: of the suit led when it follows, else the lowest of any suit."""
    legal = mask_list(game.legal(seat))
    trick = game.trick
    following = [c for c in legal if trick.cards and suit_of(c) == trick.led]
    return min(following or legal, key=rank_of)
def _highest(cards: int) -> int:
    """The highest card of a mask (-1 for none): within a suit a higher card has a higher bit."""
    return cards.bit_length() - 1


def _all_highest(hand: int, unseen: int) -> bool:
    """Whether every card of ``hand`` is higher than every card of its suit in ``unseen``."""
    for suit in SUIT_MASKS:
        mine = hand & suit
        if mine and (mine & -mine).bit_length() - 1 < _highest(unseen & suit):
            return False
    return True
