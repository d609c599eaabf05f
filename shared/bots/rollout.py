"""A cheap rule-of-thumb playout for look-ahead: lead safe, duck under the winner, dump big cards and hearts when void.

The big card is the non-heart card worth the most (Q♠ in Black Lady, J♠ in the bar form, none with chips).

Same position format as ``shared.sim.playout`` (cards as single bits), a little slower
per card and much closer to how people play, so Monte Carlo estimates are sharper.
Inside a sampled deal every seat's cards are known, so a leader picks a suit where its low
card is below all the others hold. ``kernel_impl._rollout`` is its compiled twin: change both. The rule of
thumb's card choices (``thumb.py``) are written once for both.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import HEARTS_MASK, QS_BIT, SUIT_MASKS, Mask
from ..legal import legal_mask
from ..rules import Rules
from ..sim import NEXTS, SUIT_OF_BIT, doubler_mask
from .knowledge import big_card, moon_threat_points
from .policy import pick
from .thumb import moon_state, thumb_follow, thumb_lead


def first_shooter(rules: Rules, taken: list[Mask]) -> int:
    """The only seat that has taken points so far (a possible moon), -1 for nobody, -2 for several or no moon rule."""
    shooter = -2 if rules.moon == "none" else -1  # without a moon rule nobody needs stopping
    for s in range(len(taken)):
        if taken[s] & rules.penalty_mask:
            shooter = s if shooter == -1 else -2
    return shooter


def moon_threat(rules: Rules, taken: list[Mask], shooter: int) -> int:
    """The possible moon the rule of thumb tries to stop: ``shooter`` once it has a third of the moon's points, or -1.

    ``shooter`` is ``first_shooter``'s: the only seat that has taken points. Fewer points are no threat yet, so
    the others still dump their points on it, as people and the medium player do.
    """
    if shooter < 0 or rules.points_of(taken[shooter] & rules.penalty_mask) < moon_threat_points(rules):
        return -1
    return shooter


def big_bits(rules: Rules) -> tuple[Mask, Mask]:
    """The big card the rule of thumb dumps and keeps out of leads, and its suit (0, 0 where there is none)."""
    c, suit = big_card(rules)
    return (1 << c, SUIT_MASKS[suit]) if c >= 0 else (0, 0)


def rollout(
    rules: Rules,
    hands: list[Mask],
    taken: list[Mask],
    leader: int,
    trick: list[Mask],
    first_trick: bool,
    hearts_broken: bool,
    rand: Callable[[], float],
    greedy: bool = False,
    whim: float = 0.08,
    doubled: list[Mask] | None = None,
    weights: tuple[int, ...] | None = None,
    trace: list[Mask] | None = None,
) -> list[Mask]:
    """Finish a hand with the rule-of-thumb policy; return the cards each seat took (``hands``/``taken`` change).

    ``greedy`` plays for points (the Dutch second half); ``whim`` is the chance of a random legal card;
    ``doubled`` collects the cards of each seat's doubled tricks (changed in place). With ``weights`` (the learned
    policy, ``policy.pick``) a card that is not a whim is drawn from the model's softmax, told the rule of thumb's
    card, except when ``greedy``.
    ``trace`` collects the cards played, in order.
    """
    penalty = rules.penalty_mask
    no_points_first = first_trick and not rules.first_trick_points
    qs_breaks = rules.queen_breaks_hearts
    strict = rules.queen_waits or rules.queen_must_go
    nines = doubler_mask(rules)
    seats = len(hands)
    big, big_suit = big_bits(rules)
    wts: tuple[int, ...] = weights if weights is not None and not greedy else ()
    if doubled is None:
        doubled = [0] * seats
    suit_of = SUIT_OF_BIT
    nxt = NEXTS[seats]
    seat = leader
    suit = best = played = 0
    winner = leader
    done = len(trick)
    # the only seat that has taken points so far, -1 for nobody, -2 for several; a threat once it has a third of them
    shooter = first_shooter(rules, taken)
    threat = moon_threat(rules, taken, shooter)
    if trick:
        suit = suit_of[trick[0]]
        for b in trick:
            if b & suit and b > best:
                best, winner = b, seat
            played |= b
            seat = nxt[seat]
    while True:
        if done == 0:
            h = hands[seat]
            if not h:
                break
            legal = legal_mask(rules, h, -1, first_trick, hearts_broken)
            if legal & (legal - 1):
                if rand() < whim:
                    k = int(rand() * legal.bit_count())
                    while k:
                        legal &= legal - 1
                        k -= 1
                    b = legal & -legal
                else:
                    k = int(rand() * 4)
                    rest = 0  # every other seat's cards
                    if not greedy:
                        for o in hands:
                            rest |= o
                        rest ^= h
                    b = thumb_lead(legal, rest, k, greedy, big)
                    if wts:  # the learned policy, told the rule of thumb's card
                        moon = moon_state(shooter, seat)
                        b = pick(wts, legal, hands, seat, 0, 0, 0, 0, penalty, big, big_suit, moon, b, rand())
            else:
                b = legal
            hands[seat] = h ^ b
            if trace is not None:
                trace.append(b)
            suit = suit_of[b]
            best = played = b
            winner = seat
            seat = nxt[seat]
            done = 1
        while done < seats:
            h = hands[seat]
            follow = h & suit
            if strict:
                broken = hearts_broken or bool(played & HEARTS_MASK) or bool(qs_breaks and played & QS_BIT)
                legal = legal_mask(rules, h, (suit.bit_length() - 1) // 13, first_trick, broken, best.bit_length() - 1)
            else:
                legal = follow or h
                if no_points_first:
                    safe = legal & ~penalty
                    if safe:
                        legal = safe
            if not legal & (legal - 1):
                b = legal
            elif rand() < whim:
                k = int(rand() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
                b = legal & -legal
            else:
                b = thumb_follow(legal, follow, greedy, big, big_suit, penalty, suit, best, played, winner, threat,
                                 done == seats - 1)  # fmt: skip
                if wts:  # the learned policy, told the rule of thumb's card
                    moon = moon_state(shooter, seat)
                    b = pick(wts, legal, hands, seat, done, suit, best, played, penalty, big, big_suit, moon, b, rand())
            hands[seat] = h ^ b
            if trace is not None:
                trace.append(b)
            played |= b
            if b & suit and b > best:
                best = b
                winner = seat
            seat = nxt[seat]
            done += 1
        if played & HEARTS_MASK or (qs_breaks and played & QS_BIT):
            hearts_broken = True
        taken[winner] |= played
        if played & suit & nines:
            doubled[winner] |= played
        if played & penalty and shooter != winner:
            shooter = winner if shooter == -1 else -2
        if shooter >= 0 and threat < 0:
            threat = moon_threat(rules, taken, shooter)
        elif shooter < 0:
            threat = -1
        seat = winner
        done = 0
        first_trick = no_points_first = False
    return taken
