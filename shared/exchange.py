"""Passing cards before play: checking a seat's choice and exchanging the cards of every passing form.

A seat lists its cards in order; the i-th card goes to offset ``targets[i]`` (``Rules.pass_targets``).
In the ``pot`` form every seat's cards go to the middle, are shuffled by SHA-256 of the hand's deal
(so a replay folds to the same hands, and no player can foresee the order) and dealt back.

>>> from hartenjagen.shared.variants import make_rules
>>> rules = make_rules({"passing": "scatter"})
>>> rules.pass_targets(3)
(1, 3, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import multiset
from .cards import CARD_NAMES, JOKER, Mask, mask_list
from .deal import keyed_shuffle
from .reasons import IllegalAction
from .rules import Rules


def chosen_cards(
    rules: Rules, hand: Mask, seat: int, targets: Sequence[int], cards: Mask | Iterable[int]
) -> tuple[list[int], Mask]:
    """Return the cards a seat passes, in its order (low to high when they all go one way), and their mask.

    Raise IllegalAction when they are not cards of the hand that may be passed, as many as the targets.
    """
    counted = rules.counted  # a card may be passed twice where the deck has it twice
    order: list[int] | None
    if type(cards) is int and cards >= 0:
        order, mask = (multiset.cards(cards) if counted else mask_list(cards)), cards  # low to high
    else:
        order = _list_strict(cards, counted)
        mask = 0
        if counted:
            try:
                mask = multiset.from_cards(order or ())
            except ValueError:
                order = None
        else:
            for c in order or ():
                mask |= 1 << c
        if order is not None and not _order_matters(targets):
            order.sort()
    if order is None or len(order) != len(targets) or not (_holds(hand, mask) if counted else not mask & ~hand):
        raise IllegalAction("bad_pass", seat, count=len(targets))
    kept = mask & rules.no_pass
    if kept:
        raise IllegalAction("may_not_pass", seat, card=CARD_NAMES[(kept & -kept).bit_length() - 1])
    return order, mask


def _holds(hand: Mask, mask: Mask) -> bool:
    """True when ``hand`` holds every card of ``mask`` as often as ``mask`` has it."""
    if not (hand | mask) >> multiset.LAYER:
        return not mask & ~hand
    return all(multiset.count(hand, c) >= multiset.count(mask, c) for c in multiset.cards(mask))


def _order_matters(targets: Sequence[int]) -> bool:
    """True when the cards go to different places, so their order matters (scatter, two left and two right)."""
    return len(set(targets)) > 1


def event_cards(targets: Sequence[int], order: list[int]) -> list[str]:
    """Return the card names of a pass event: in the seat's order when it matters, else low to high."""
    if _order_matters(targets):
        return [CARD_NAMES[c] for c in order]
    return [CARD_NAMES[c] for c in sorted(order)]


def exchange(
    targets: Sequence[int], orders: Sequence[list[int]], hands: list[Mask], key: str, counted: bool = False
) -> tuple[list[Mask], list[list[Mask]]]:
    """Move the passed cards (``hands`` changes in place); return what each seat received and from whom.

    The second value is ``sent[s][to]``: the cards seat ``s`` gave seat ``to`` (all zero in a pot).
    ``key`` names the hand (its deal), for the pot's shuffle; ``counted``: hands are layered (a card twice).
    """
    seats = len(hands)
    received = [0] * seats
    sent = [[0] * seats for _ in range(seats)]
    if not counted and any(targets):  # one deck, each card to a seat: bits, as fast as a pass can be
        for s in range(seats):
            row = sent[s]
            gone = 0
            for c, off in zip(orders[s], targets, strict=True):
                b = 1 << c
                gone |= b
                to = (s + off) % seats
                received[to] |= b
                row[to] |= b
            hands[s] &= ~gone
        for s in range(seats):
            hands[s] |= received[s]
        return received, sent
    add = multiset.add_card if counted else _add_bit
    remove = multiset.remove_card if counted else _remove_bit
    for s in range(seats):
        for c in orders[s]:
            hands[s] = remove(hands[s], c)
    if all(t == 0 for t in targets):  # the pot
        pot = sorted(c for o in orders for c in o)
        keyed_shuffle(pot, key)
        n = len(targets)
        for s in range(seats):
            for c in pot[s * n : (s + 1) * n]:
                received[s] = add(received[s], c)
    else:
        for s in range(seats):
            for c, off in zip(orders[s], targets, strict=True):
                to = (s + off) % seats
                received[to] = add(received[to], c)
                sent[s][to] = add(sent[s][to], c)
    for s in range(seats):
        hands[s] = multiset.add(hands[s], received[s]) if counted else hands[s] | received[s]
    return received, sent


def _add_bit(m: Mask, c: int) -> Mask:
    """One-deck ``add_card``: a bit set."""
    return m | 1 << c


def _remove_bit(m: Mask, c: int) -> Mask:
    """One-deck ``remove_card``: a bit cleared."""
    return m & ~(1 << c)


def _list_strict(cards: object, copies: bool = False) -> list[int] | None:
    """The cards as a list of card numbers, or None; a card twice only where the deck has copies."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        return None
    out: list[int] = []
    seen = 0
    for c in cards:
        if type(c) is not int or not 0 <= c <= JOKER or (seen >> c & 1 and not copies):
            return None
        seen |= 1 << c
        out.append(c)
    return out
