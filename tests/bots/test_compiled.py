"""The helpers written once (``compiled.py``, ``thumb.py``): compiled by numba, they answer as in plain Python."""

from __future__ import annotations

import random

from numba import njit

from hartenjagen.shared.bots import kernel
from hartenjagen.shared.bots.thumb import moon_state, thumb_follow, thumb_lead, top_rank
from hartenjagen.shared.cards import HEARTS_MASK, QS_BIT, SUIT_MASKS

DECK = (1 << 52) - 1


@njit
def _bits(x: int) -> tuple[int, int]:
    return x.bit_length(), x.bit_count()


@njit
def _lead(legal: int, rest: int, k: int, greedy: bool, big: int) -> int:
    return thumb_lead(legal, rest, k, greedy, big)


@njit
def _follow(legal: int, follow: int, greedy: bool, big: int, big_suit: int, penalty: int, suit: int, best: int,
            played: int, winner: int, threat: int, last: bool) -> int:  # fmt: skip
    return thumb_follow(legal, follow, greedy, big, big_suit, penalty, suit, best, played, winner, threat, last)


@njit
def _top_and_moon(m: int, shooter: int, seat: int) -> tuple[int, int]:
    return top_rank(m), moon_state(shooter, seat)


def test_numba_counts_bits_as_python_does() -> None:
    """``int.bit_length`` and ``int.bit_count``, taught to numba, on every width of an int64 mask."""
    assert kernel.warm()  # teaches numba the helpers
    rng = random.Random(1)
    xs = [0, 1, 2, 3, DECK, 1 << 62, -5] + [rng.getrandbits(rng.randint(1, 63)) for _ in range(2000)]
    assert [_bits(x) for x in xs] == [(x.bit_length(), x.bit_count()) for x in xs]


def test_the_rule_of_thumb_compiled_plays_the_cards_it_plays_in_python() -> None:
    """Random hands of one deck: the compiled lead, follow, top card and moon state are the plain ones."""
    assert kernel.warm()
    rng = random.Random(2)
    spades = SUIT_MASKS[2]
    for _ in range(3000):
        legal = rng.getrandbits(52) & rng.getrandbits(52)
        if not legal & (legal - 1):
            continue  # one legal card is played without asking the rule of thumb
        rest = rng.getrandbits(52) & DECK & ~legal
        big, big_suit = rng.choice([(QS_BIT, spades), (0, 0)])
        greedy = rng.random() < 0.2
        k = rng.randrange(4)
        assert _lead(legal, rest, k, greedy, big) == thumb_lead(legal, rest, k, greedy, big)
        led = rng.randrange(4)
        suit = SUIT_MASKS[led]
        follow = legal & suit
        if follow and not follow & (follow - 1):
            continue
        best = 1 << (13 * led + rng.randrange(13))  # the trick's best card: one of the led suit
        played = best | (rng.getrandbits(52) & rest)
        penalty = HEARTS_MASK | QS_BIT
        winner, threat, last = rng.randrange(4), rng.randrange(-1, 4), rng.random() < 0.3
        # a seat that holds the led suit plays it: its legal cards are those (two or more)
        args = (follow or legal, follow, greedy, big, big_suit, penalty, suit, best, played, winner,
                threat, last)  # fmt: skip
        assert _follow(*args) == thumb_follow(*args), args
        shooter, seat = rng.randrange(-2, 4), rng.randrange(4)
        assert _top_and_moon(legal, shooter, seat) == (top_rank(legal), moon_state(shooter, seat))
