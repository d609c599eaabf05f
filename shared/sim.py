"""The fast simulation path for look-ahead: whole tricks on plain ints, no views, no events.

Cards are single-bit masks here (``1 << card``), so a move is a few integer
operations. ``playout`` finishes a hand from any position with uniformly random
legal cards; ``score_hand`` turns taken cards into the hand's scores.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable

from .cards import HEARTS, SUIT_MASKS, Mask, mask_cards
from .legal import legal_mask
from .rules import QS, Rules
from .scoring import hand_deltas

HEARTS_MASK = SUIT_MASKS[HEARTS]
QS_BIT = 1 << QS
#: The suit mask of each single-card bit.
SUIT_OF_BIT: dict[int, Mask] = {1 << c: SUIT_MASKS[c // 13] for c in range(52)}
NEXT = (1, 2, 3, 0)


def pick(mask: Mask, rand: Callable[[], float]) -> Mask:
    """Return one card bit of ``mask`` chosen uniformly with ``rand()`` in [0, 1)."""
    k = int(rand() * mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return mask & -mask


def playout(
    rules: Rules,
    hands: list[Mask],
    taken: list[Mask],
    leader: int,
    trick: list[Mask],
    first_trick: bool,
    hearts_broken: bool,
    rand: Callable[[], float],
) -> list[Mask]:
    """Play the rest of a hand at random from a position; return the cards each seat took.

    ``hands`` and ``taken`` are changed in place. ``trick`` holds the bits already
    played to the current trick, in order from ``leader``.
    """
    penalty = rules.penalty_mask
    no_points_first = first_trick and not rules.first_trick_points
    qs_breaks = rules.queen_breaks_hearts
    suit_of = SUIT_OF_BIT
    nxt = NEXT
    seat = leader
    if trick:
        suit = suit_of[trick[0]]
        best, winner, played = 0, leader, 0
        for b in trick:
            if b & suit and b > best:
                best, winner = b, seat
            played |= b
            seat = nxt[seat]
        done = len(trick)
    else:
        done = 0
    while hands[seat]:
        if done == 0:
            h = hands[seat]
            legal = legal_mask(rules, h, -1, first_trick, hearts_broken)
            if legal & (legal - 1):
                k = int(rand() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
                b = legal & -legal
            else:
                b = legal
            hands[seat] = h ^ b
            suit = suit_of[b]
            best = played = b
            winner = seat
            seat = nxt[seat]
            done = 1
        while done < 4:
            h = hands[seat]
            legal = h & suit or h
            if no_points_first:
                safe = legal & ~penalty
                if safe:
                    legal = safe
            if legal & (legal - 1):
                k = int(rand() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
                b = legal & -legal
            else:
                b = legal
            hands[seat] = h ^ b
            played |= b
            if b & suit and b > best:
                best = b
                winner = seat
            seat = nxt[seat]
            done += 1
        if played & HEARTS_MASK or (qs_breaks and played & QS_BIT):
            hearts_broken = True
        taken[winner] |= played
        seat = winner
        done = 0
        first_trick = no_points_first = False
    return taken


def score_hand(rules: Rules, taken: list[Mask], counting_down: bool = False, moon: str | None = None) -> list[int]:
    """Return the hand's score change per seat; a moon is scored by ``moon`` (default: the rule's).

    With the rule "choose" a simulation scores the shooter's choice as "others".
    """
    choice = moon or rules.moon
    return hand_deltas(rules, taken, counting_down, "others" if choice == "choose" else choice)


def random_hand(rules: Rules, rng: _random.Random) -> list[int]:
    """Deal, pass and play one whole hand uniformly at random; return the scores (bench helper)."""
    deck = [1 << c for c in mask_cards(rules.deck)]
    rng.shuffle(deck)
    n = rules.hand_size
    hands = [sum(deck[i * n : (i + 1) * n]) for i in range(4)]
    rand = rng.random
    off = rules.pass_offset(0)
    if off:
        chosen = []
        for s in range(4):
            h = hands[s]
            m = 0
            for _ in range(rules.pass_count):
                b = pick(h, rand)
                h ^= b
                m |= b
            chosen.append(m)
        for s in range(4):
            hands[s] ^= chosen[s]
        for s in range(4):
            hands[(s + off) % 4] |= chosen[s]
    if rules.first_lead >= 0:
        first = 1 << rules.first_lead
        leader = next(s for s in range(4) if hands[s] & first)
    else:
        leader = (rules.dealer(0) + 1) % 4
    taken = playout(rules, hands, [0, 0, 0, 0], leader, [], True, False, rand)
    return score_hand(rules, taken)
