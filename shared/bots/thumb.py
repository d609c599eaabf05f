"""The rule of thumb's card choices as integer helpers, written once: ``rollout`` calls them, the kernel compiles them.

Cards are bits of one deck's 52-bit mask. Each helper is marked ``compiled`` (``compiled.py``): plain Python here,
compiled into ``kernel_impl`` where numba is installed, the same body either way.
"""

from __future__ import annotations

from ..cards import HEARTS_MASK, SUIT_MASKS, Mask
from .compiled import compiled


@compiled
def top_rank(m: Mask) -> Mask:
    """Return the bit of the highest-ranked card over all suits (the higher suit on a tie).

    >>> from hartenjagen.shared.cards import parse_card
    >>> top_rank(1 << parse_card("10H") | 1 << parse_card("QC") | 1 << parse_card("2S")) == 1 << parse_card("QC")
    True
    """
    best, best_rank = 0, -1
    for s in range(4):
        x = m & SUIT_MASKS[s]
        if x:
            c = x.bit_length() - 1
            r = c - 13 * s
            if r >= best_rank:
                best, best_rank = 1 << c, r
    return best


@compiled
def moon_state(shooter: int, seat: int) -> int:
    """The learned policy's moon state: 1 when another seat alone has taken points, 2 when this one has, else 0."""
    if shooter < 0:
        return 0
    return 2 if shooter == seat else 1


@compiled
def thumb_lead(legal: Mask, rest: Mask, k: int, greedy: bool, big: Mask) -> Mask:
    """The rule of thumb's lead: ``k`` (0 to 3) is the suit it looks at first.

    A safe lead: the low card of a suit the others (``rest``) still hold, below all their cards in it, from suit
    ``k`` on; else the low card of the first suit it has from there (the high card when playing for points).
    """
    x = 0
    if not greedy:
        for i in range(4):
            sm = SUIT_MASKS[(k + i) & 3]
            y = legal & sm
            o = rest & sm
            if y and o and (y & -y) < (o & -o) and (y & -y) != big:
                x = y
                break
    if not x:
        for i in range(4):
            x = legal & SUIT_MASKS[(k + i) & 3]
            if x:
                break
    if greedy:
        return 1 << (x.bit_length() - 1)
    b = x & -x
    if b == big and x != b:
        x ^= b
        b = x & -x
    return b


@compiled
def thumb_follow(
    legal: Mask, follow: Mask, greedy: bool, big: Mask, big_suit: Mask, penalty: Mask, suit: Mask, best: Mask,
    played: Mask, winner: int, threat: int, last: bool,
) -> Mask:
    """The rule of thumb's card after a lead: duck, dump the big card and hearts.

    ``follow`` is whether the seat holds the led suit, ``last`` whether it plays last in the trick, ``threat`` the
    possible moon shooter to stop (``rollout.moon_threat``) or -1.
    """
    if follow:
        if greedy:
            above = legal & ~(best - 1)
            return 1 << (above.bit_length() - 1) if above else legal & -legal
        if legal & big and best > big and winner != threat:
            return big
        if winner == threat and legal > best and (played & penalty or suit == HEARTS_MASK):
            above = legal & ~(best - 1)
            return above & -above  # take this trick from a seat that may be shooting the moon
        below = legal & (best - 1)
        if last and not played & penalty:
            x = legal & ~big
            if not x:
                x = legal
            return 1 << (x.bit_length() - 1)
        if below:
            return 1 << (below.bit_length() - 1)
        if suit == big_suit and legal & big:
            x = legal & ~big
            return 1 << (x.bit_length() - 1)
        return 1 << (legal.bit_length() - 1)
    if greedy:
        x = legal & ~penalty
        if not x:
            x = legal
        return x & -x
    if winner == threat and legal & ~penalty:
        return top_rank(legal & ~penalty)  # give a possible moon shooter nothing
    if legal & big:
        return big
    if legal & HEARTS_MASK:
        return 1 << ((legal & HEARTS_MASK).bit_length() - 1)
    return top_rank(legal)
