"""Inference from play: how well a sampled deal explains the cards the other seats chose, by the learned policy.

A deal that gives a seat cards with which it would seldom have played what it did counts less. Each play of the
hand so far is read from the view (public: who played what, into which trick), and for one sampled deal the hands
are put back as they were at that play: the deal's cards, and every card each seat played after it. The learned
policy (``policy.chance``, the model of ``hearts train``) gives the chance of the card played among the seat's legal
cards; a deal's weight is the product of those chances, raised to ``INFER_POWER`` (``log_likelihood``).
``kernel_impl.likelihoods`` is its compiled twin.
"""

from __future__ import annotations

from math import log

from ..cards import HEARTS_MASK, QS_BIT, Mask, parse_card
from ..legal import legal_mask
from ..rules import Rules
from ..view import View
from .policy import chance
from .rollout import big_bits, first_shooter, moon_threat
from .thumb import moon_state, thumb_follow, thumb_lead

#: The log-chance of a play the deal makes impossible (not a legal card with those hands), and the floor of any.
IMPOSSIBLE = -30.0
#: One play of the hand: seat, card bit, cards already in its trick, the led suit's mask, the trick's best card and
#: cards so far, the seat taking it so far, first trick (0 or 1), hearts broken before the play (0 or 1), the
#: only seat that had taken points (``rollout.first_shooter``) and the moon the rule of thumb would stop
#: (``rollout.moon_threat``).
Play = tuple[int, Mask, int, Mask, Mask, Mask, int, int, int, int, int]
#: Fields of a ``Play`` (the compiled twin reads them as the columns of an array).
PLAY_FIELDS = 11


def plays_of(rules: Rules, view: View) -> list[Play]:
    """Every card played this hand, in order, with the public state it played into (one deck: ``covers_learned``)."""
    tricks = list(view["tricks"] or [])
    current = view.get("trick")
    if current and current.get("cards"):
        tricks.append({**current, "winner": None})
    out: list[Play] = []
    taken = [0] * rules.seats
    broken = False
    penalty = rules.penalty_mask
    for n, t in enumerate(tricks):
        shooter = first_shooter(rules, taken)
        threat = moon_threat(rules, taken, shooter)
        suit = best = played = 0
        winner = -1
        for done, c in enumerate(t["cards"]):
            seat = c["seat"]
            b = 1 << parse_card(c["card"])
            now_broken = broken or bool(played & HEARTS_MASK) or bool(rules.queen_breaks_hearts and played & QS_BIT)
            if done == 0:
                suit = rules.suit_masks[(b.bit_length() - 1) // 13]
            out.append((seat, b, done, suit, best, played, winner, int(n == 0), int(now_broken), shooter, threat))
            if b & suit and b > best:
                best, winner = b, seat
            played |= b
        if played & HEARTS_MASK or (rules.queen_breaks_hearts and played & QS_BIT):
            broken = True
        if t.get("winner") is not None:
            taken[t["winner"]] |= played & penalty
    return out


def log_likelihood(rules: Rules, weights: tuple[int, ...], hands: list[Mask], plays: list[Play], me: int) -> float:
    """The sum over the other seats' plays of the log of the policy's chance of each, given the deal's ``hands``.

    ``hands`` are the cards each seat holds now (one deal); ``me`` is the seat reading, whose own plays count nothing.
    A lead's chance is the mean over the four suits the rule of thumb may look at first (its card is a feature).
    """
    hs = list(hands)
    seats = len(hs)
    penalty = rules.penalty_mask
    big, big_suit = big_bits(rules)
    total = 0.0
    for seat, b, done, suit, best, played, winner, first, broken, shooter, threat in reversed(plays):
        hs[seat] |= b
        if seat == me:
            continue
        h = hs[seat]
        led = (suit.bit_length() - 1) // 13 if done else -1
        legal = legal_mask(rules, h, led, bool(first), bool(broken), best.bit_length() - 1 if done else -1)
        if not legal & b:
            total += IMPOSSIBLE
            continue
        if not legal & (legal - 1):
            continue
        moon = moon_state(shooter, seat)
        if done == 0:
            rest = 0
            for o in range(seats):
                if o != seat:
                    rest |= hs[o]
            p = 0.0
            last = -1
            q = 0.0
            for k in range(4):
                prior = thumb_lead(legal, rest, k, False, big)
                if prior != last:  # the same card from another first suit: the same chance
                    q = chance(weights, legal, hs, seat, 0, 0, 0, 0, penalty, big, big_suit, moon, prior, b)
                    last = prior
                p += q
            p *= 0.25
        else:
            prior = thumb_follow(
                legal, h & suit, False, big, big_suit, penalty, suit, best, played, winner, threat, done == seats - 1
            )
            p = chance(weights, legal, hs, seat, done, suit, best, played, penalty, big, big_suit, moon, prior, b)
        total += max(IMPOSSIBLE, log(p)) if p > 0.0 else IMPOSSIBLE
    return total
