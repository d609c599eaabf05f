"""The learned rollout policy: a linear score over a few integer features of each legal card, a softmax over them.

The features read the sampled deal mostly as a player at the table could: the cards of the suit still out above and
below the card (all other seats together, not who holds them), whether it takes the trick so far or for sure, the
points it would take, who may be shooting the moon; only the count of other seats void in a suit reads the deal's
hands one by one. There is one weight per feature and per kind of play (a lead, following suit, a discard), as
integers (``policy_model.WEIGHTS``, made by ``hearts train``), so a score is exact integer arithmetic; the card is
drawn by the softmax of the scores with the rollout's next random draw, and the compiled twin (``kernel_impl._pick``)
does the same float operations in the same order, so it draws the very same card.
"""

from __future__ import annotations

from math import exp

from ..cards import SUIT_MASKS, Mask
from ..rules import Rules

#: The features of one card, in the order of the weights (per kind of play).
FEATURES = (
    "rank",  # 0 (two) to 12 (ace)
    "points card",  # a penalty card (a heart, Q♠ in Black Lady)
    "big card",  # the non-heart card worth the most (Q♠ in Black Lady), as the rule of thumb names it
    "left in suit",  # our cards of its suit after this one
    "others in suit",  # cards of its suit the other seats hold
    "above, out",  # cards of its suit above it that other seats hold
    "below, out",  # ... and below it
    "takes for now",  # it would be the trick's best card so far (every lead)
    "no higher out",  # ... and no other seat holds a higher card of the suit
    "points taken",  # penalty cards already in the trick, if it takes for now
    "big taken",  # the big card already in the trick, if it takes for now
    "big out",  # another seat holds the big card, if it takes for now
    "stops a moon",  # one other seat has taken every point so far, if it takes for now
    "own moon",  # we have taken every point so far, if it takes for now
    "voids suit",  # our last card of its suit
    "others void",  # other seats that hold none of its suit
    "our lowest",  # our lowest card of its suit
    "our highest",  # our highest card of its suit
    "above the big",  # a card of the big card's suit above it while another seat holds it
    "last and takes",  # we play last in the trick and take it
    "rule of thumb",  # the card the rule-of-thumb rollout would play (``rollout.py``)
)
#: Features per kind of play.
K = len(FEATURES)
#: The kinds of play, each with its own ``K`` weights.
KINDS = ("lead", "follow", "discard")
#: The weights are scaled by this and rounded (integers, so both twins compute the same scores).
SCALE = 1000


def kind_of(done: int, follow: Mask) -> int:
    """Which kind of play: 0 a lead, 1 following suit, 2 a discard."""
    if done == 0:
        return 0
    return 1 if follow else 2


def features(
    b: Mask, h: Mask, rest: Mask, others_void: tuple[int, int, int, int], kind: int, suit: Mask,
    best: Mask, played: Mask, done: int, seats: int, penalty: Mask, big: Mask, big_suit: Mask, moon: int, prior: Mask,
) -> list[int]:
    """Return the ``K`` features of playing card bit ``b`` (``kernel_impl._features`` is its compiled twin).

    ``h`` is the seat's hand, ``rest`` every other seat's cards (those still out: what the seat knows as a whole, not
    who holds them), ``others_void`` how many other seats hold none of each suit.
    ``moon`` is 1 when one other seat has taken every point so far, 2 when this seat has, else 0; ``prior`` is the
    rule of thumb's card.
    """
    c = b.bit_length() - 1
    s = c // 13
    sm = SUIT_MASKS[s]
    mine = (h & sm).bit_count()
    above = (rest & sm & ~((b << 1) - 1)).bit_count()
    below = (rest & sm & (b - 1)).bit_count()
    takes = 1 if kind == 0 or (b & suit and b > best) else 0
    sure = 1 if takes and above == 0 else 0
    ours = h & sm
    return [
        c - 13 * s,
        1 if b & penalty else 0,
        1 if b == big else 0,
        mine - 1,
        (rest & sm).bit_count(),
        above,
        below,
        takes,
        sure,
        takes * (played & penalty).bit_count(),
        takes if played & big else 0,
        takes if rest & big else 0,
        takes if moon == 1 else 0,
        takes if moon == 2 else 0,
        1 if mine == 1 else 0,
        others_void[s],
        1 if ours & -ours == b else 0,
        1 if 1 << (ours.bit_length() - 1) == b else 0,
        1 if big and b & big_suit and b > big and rest & big else 0,
        takes if done == seats - 1 else 0,
        1 if b == prior else 0,
    ]


def context(hands: list[Mask], seat: int) -> tuple[Mask, tuple[int, int, int, int]]:
    """What every card's features share: the other seats' cards, and how many of them hold none of each suit."""
    rest = 0
    voids = [0, 0, 0, 0]
    for o in range(len(hands)):
        if o != seat:
            rest |= hands[o]
            for s in range(4):
                if not hands[o] & SUIT_MASKS[s]:
                    voids[s] += 1
    return rest, (voids[0], voids[1], voids[2], voids[3])


def scores(
    weights: tuple[int, ...], legal: Mask, hands: list[Mask], seat: int, done: int, suit: Mask, best: Mask,
    played: Mask, penalty: Mask, big: Mask, big_suit: Mask, moon: int, prior: Mask,
) -> tuple[list[Mask], list[int], int]:
    """The legal card bits from low to high, the model's score of each, and the highest score."""
    seats = len(hands)
    h = hands[seat]
    rest, others_void = context(hands, seat)
    kind = kind_of(done, h & suit)
    base = kind * K
    top_score = 0
    cards: list[Mask] = []
    out: list[int] = []
    m = legal
    while m:
        b = m & -m
        m ^= b
        f = features(
            b, h, rest, others_void, kind, suit, best, played, done, seats, penalty, big, big_suit, moon, prior
        )
        score = 0
        for i in range(K):
            score += weights[base + i] * f[i]
        if not cards or score > top_score:
            top_score = score
        cards.append(b)
        out.append(score)
    return cards, out, top_score


def pick(
    weights: tuple[int, ...], legal: Mask, hands: list[Mask], seat: int, done: int, suit: Mask, best: Mask,
    played: Mask, penalty: Mask, big: Mask, big_suit: Mask, moon: int, prior: Mask, u: float,
) -> Mask:
    """Draw a legal card bit by the model's softmax (``u`` a uniform draw); ``prior``: the rule of thumb's card.

    A card's chance is ``exp((score - best score) / SCALE)`` over the sum of those, in card order from low to high.
    """
    cards, out, top_score = scores(weights, legal, hands, seat, done, suit, best, played, penalty, big, big_suit,
                                   moon, prior)  # fmt: skip
    total = 0.0
    for score in out:
        total += exp((score - top_score) / SCALE)
    r = u * total
    for b, score in zip(cards, out, strict=True):
        r -= exp((score - top_score) / SCALE)
        if r < 0:
            return b
    return cards[-1]


def chance(
    weights: tuple[int, ...], legal: Mask, hands: list[Mask], seat: int, done: int, suit: Mask, best: Mask,
    played: Mask, penalty: Mask, big: Mask, big_suit: Mask, moon: int, prior: Mask, card: Mask,
) -> float:
    """The model's chance that the seat plays ``card`` (``pick``'s softmax; 0 for a card that is not legal)."""
    cards, out, top_score = scores(weights, legal, hands, seat, done, suit, best, played, penalty, big, big_suit,
                                   moon, prior)  # fmt: skip
    total = 0.0
    mine = 0.0
    for b, score in zip(cards, out, strict=True):
        e = exp((score - top_score) / SCALE)
        total += e
        if b == card:
            mine = e
    return mine / total


#: The features' version: a model written for another version is not loaded (the rule of thumb plays instead).
VERSION = 2


def learned_weights() -> tuple[int, ...] | None:
    """The shipped model's weights (``policy_model``), or None where it is missing or of another version."""
    try:
        from . import policy_model
    except ImportError:
        return None
    weights = tuple(policy_model.WEIGHTS)
    if policy_model.VERSION != VERSION or len(weights) != len(KINDS) * K:
        return None
    return weights


def covers_learned(rules: Rules) -> bool:
    """Return True for the tables the learned policy plays in the look-ahead: one deck, any seat count."""
    return not rules.counted
