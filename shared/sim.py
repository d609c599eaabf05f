"""The fast simulation path for look-ahead: whole tricks on plain ints, no views, no events.

Cards are single-bit masks here (``1 << card``), so a move is a few integer
operations. ``playout`` finishes a hand from any position with uniformly random
legal cards; ``score_hand`` turns taken cards into the hand's scores.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable

from .cards import SUIT_MASKS, Mask, mask_cards
from .legal import legal_mask
from .rules import Rules
from .scoring import hand_deltas

#: The suit mask of each single-card bit.
SUIT_OF_BIT: dict[int, Mask] = {1 << c: SUIT_MASKS[c // 13] for c in range(52)}
#: The next seat round a table of n seats, for every table size.
NEXTS: dict[int, tuple[int, ...]] = {n: tuple(range(1, n)) + (0,) for n in range(3, 13)}


def doubler_mask(rules: Rules) -> Mask:
    """Return the cards that double their trick when they follow the led suit (the four 9s), or 0."""
    r = rules.trick_doubler
    return sum(1 << (13 * s + r) for s in range(4)) if r >= 0 else 0


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
    doubled: list[Mask] | None = None,
) -> list[Mask]:
    """Play the rest of a hand at random from a position; return the cards each seat took.

    ``hands`` and ``taken`` (and ``doubled``: the cards of each seat's doubled tricks) are changed
    in place. ``trick`` holds the bits already played to the current trick, in order from ``leader``.
    """
    penalty = rules.penalty_mask
    no_points_first = first_trick and not rules.first_trick_points
    breaking = rules.breaking
    strict = rules.queen_waits or rules.queen_must_go  # following needs the full rule, not the fast path
    nines = doubler_mask(rules)
    seats = len(hands)
    if doubled is None:
        doubled = [0] * seats
    suit_of = SUIT_OF_BIT
    nxt = NEXTS[seats]
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
        while done < seats:
            h = hands[seat]
            if strict:
                broken = hearts_broken or bool(played & breaking)
                led = (suit.bit_length() - 1) // 13
                legal = legal_mask(rules, h, led, first_trick, broken, best.bit_length() - 1)
            else:
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
        if played & breaking:
            hearts_broken = True
        taken[winner] |= played
        if played & suit & nines:
            doubled[winner] |= played
        seat = winner
        done = 0
        first_trick = no_points_first = False
    return taken


def score_hand(
    rules: Rules,
    taken: list[Mask],
    counting_down: bool = False,
    moon: str | None = None,
    doubled: list[Mask] | None = None,
) -> list[int]:
    """Return the hand's score change per seat with the variant's own scoring; a moon is scored by ``moon``.

    ``moon`` defaults to the rule's; with the rule "choose" a simulation scores the shooter's choice as "others".
    """
    choice = moon or rules.moon
    if choice == "none":
        choice = "others"  # no moon rule: shooter_of finds none, so the choice is never used
    return hand_deltas(rules, taken, counting_down, "others" if choice == "choose" else choice, doubled)


#: The scoring features (``rules.scoring_features``) that ``hand_scorer``'s few integer operations score as
#: ``score_hand`` does: points per penalty card and the moon in each of its forms, counting down or up; how the
#: game ends and the chips change no hand's scores. Teams, doublers, cancellers, the sun and bonus cards are not
#: here: rules with any feature not named here are scored by ``score_hand``.
SIMPLE_SCORING = frozenset(
    {
        "moon=others", "moon=self", "moon=choose", "moon=none",
        "end=reach", "end=dutch", "end=chips", "end_over", "exact_zero=False", "exact_zero=True",
        "tie=share", "tie=play_on", "start_chips", "ante", "hand_limit",
    }
)  # fmt: skip


def simple_scoring(rules: Rules) -> bool:
    """Return True when the simple scorer scores every scoring feature of ``rules`` (``SIMPLE_SCORING``)."""
    return rules.scoring <= SIMPLE_SCORING


def hand_scorer(
    rules: Rules, counting_down: bool = False, moon: str | None = None
) -> Callable[[list[Mask], list[Mask] | None], list[int]]:
    """Return ``score(taken, doubled)``: the same scores as ``score_hand`` with these arguments, faster.

    Look-ahead scores every simulated hand, and the general scoring (teams, doublers, cancellers, the
    sun, bonus cards) costs more than playing the hand out. Rules with none of those get a scorer of a
    few integer operations; the others get ``score_hand`` itself.
    """
    choice = moon or rules.moon
    if choice in ("none", "choose"):
        choice = "others"
    groups = rules.groups  # every copy of each card where the deck has copies
    pen = rules.penalty_mask
    if not simple_scoring(rules):

        def general(taken: list[Mask], doubled: list[Mask] | None = None) -> list[int]:
            """Score with the variant's full scoring."""
            return score_hand(rules, taken, counting_down, moon, doubled)

        return general
    has_moon = rules.moon != "none" and not counting_down
    total = rules.moon_total
    self_moon = choice == "self"
    (m1, v1), (m2, v2) = (tuple(groups) + ((0, 0), (0, 0)))[:2]

    def points(t: Mask) -> int:
        return sum(v * (t & m).bit_count() for m, v in groups)

    def score(taken: list[Mask], doubled: list[Mask] | None = None) -> list[int]:
        """Return the hand's score change per seat."""
        if has_moon:
            for s in range(len(taken)):
                if taken[s] & pen == pen:
                    if self_moon:
                        return [-total if x == s else 0 for x in range(len(taken))]
                    return [0 if x == s else total for x in range(len(taken))]
        if doubled is not None and any(doubled):
            out = [points(t) + points(d) for t, d in zip(taken, doubled, strict=True)]  # a doubled card counts twice
        elif len(groups) <= 2:
            out = [v1 * (t & m1).bit_count() + v2 * (t & m2).bit_count() for t in taken]
        else:
            out = [points(t) for t in taken]
        return [-x for x in out] if counting_down else out

    return score


def random_hand(rules: Rules, rng: _random.Random) -> list[int]:
    """Deal, pass and play one whole hand uniformly at random; return the scores (bench helper)."""
    deck = [1 << c for c in mask_cards(rules.deck)]
    rng.shuffle(deck)
    n = rules.hand_size
    seats = rules.seats
    hands = [sum(deck[i * n : (i + 1) * n]) for i in range(seats)]
    rand = rng.random
    targets = rules.pass_targets(0)
    if targets:
        moves = []
        for s in range(seats):
            h = hands[s] & ~rules.no_pass
            for off in targets:
                b = pick(h, rand)
                h ^= b
                moves.append((s, b, (s + off) % seats))  # a pot is approximated by keeping the cards
        for s, b, _ in moves:
            hands[s] ^= b
        for _, b, to in moves:
            hands[to] |= b
    if rules.first_lead >= 0:
        first = 1 << rules.first_lead
        leader = next(s for s in range(seats) if hands[s] & first)
    else:
        leader = (rules.dealer(0) + 1) % seats
    doubled = [0] * seats
    taken = playout(rules, hands, [0] * seats, leader, [], True, False, rand, doubled)
    return hand_scorer(rules)(taken, doubled)
