"""The easy player: legal cards with light sense (follow low, dump the worst card when void) and some randomness."""

from __future__ import annotations

from ..cards import HEARTS_MASK, QS_BIT, SUIT_MASKS, SUIT_OF, mask_names, parse_mask
from ..view import View
from .base import ComputerPlayer
from .knowledge import Knowledge, low, rank_low, rank_top, top

#: How often the easy player plays a random legal card instead of its sensible one.
WHIM = 0.2


class EasyComputerPlayer(ComputerPlayer):
    """A beginner: passes its highest cards, follows low, dumps Q♠ or its highest heart when void."""

    level = "easy"

    def choose_pass(self, view: View) -> list[str]:
        """Pass the highest-ranked cards, with an occasional random pick among them."""
        rng = self.rng_for(view)
        hand = parse_mask({c for c in view["hand"] if c not in view.get("pass_refusals", {})})  # each card once
        chosen = 0
        for _ in range(view["pass_count"]):
            rest = hand & ~chosen
            c = rank_top(rest) if rng.random() > WHIM else rng.choice([c for c in range(52) if rest >> c & 1])
            chosen |= 1 << c
        return mask_names(chosen)

    def choose_play(self, view: View) -> str:
        """Play low when following, dump a point card when void, lead a low card; sometimes anything legal."""
        rng = self.rng_for(view)
        legal = parse_mask(view["legal"])
        if rng.random() < WHIM:
            return rng.choice(mask_names(legal))
        k = Knowledge(view)
        wanting = k.counting_down
        if not k.trick:
            return _name(rank_low(legal) if not wanting else rank_top(legal))
        suit = SUIT_OF[k.trick[0][1]]
        if legal & SUIT_MASKS[suit]:
            return _name(top(legal) if wanting else low(legal))
        if wanting:
            return _name(rank_low(legal))
        if legal & QS_BIT:
            return "QS"
        if legal & HEARTS_MASK:
            return _name(top(legal & HEARTS_MASK))
        return _name(rank_top(legal))


def _name(card: int) -> str:
    return mask_names(1 << card)[0]
