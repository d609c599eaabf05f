"""Which cards a seat may play, and why each other card is refused: a few mask operations.

The hand is the set of different cards it holds (the first layer of a layered hand: see multiset.py).

>>> from hartenjagen.shared.variants import make_rules
>>> from hartenjagen.shared.cards import SPADES, mask_names, parse_mask, parse_card
>>> rules = make_rules({"gentleman_3": True})
>>> mask_names(legal_mask(rules, parse_mask(["2S", "QS"]), SPADES, False, False, parse_card("AS")))
['QS']
"""

from __future__ import annotations

from .cards import CARD_NAMES, QS, QS_BIT, SPADES, Mask
from .reasons import Params
from .rules import Rules


def legal_mask(rules: Rules, hand: Mask, led_suit: int, first_trick: bool, hearts_broken: bool, best: int = -1) -> Mask:
    """Return the playable cards of ``hand``; ``led_suit`` is -1 when the seat leads.

    ``hearts_broken`` is whether a heart (or Q♠ where she breaks hearts) was played this hand so far;
    ``best`` is the highest card of the led suit already in the trick (-1 when leading).
    """
    waits = rules.queen_waits and not hearts_broken and hand & QS_BIT
    if led_suit < 0:
        if first_trick and rules.first_lead >= 0:
            first = 1 << rules.first_lead
            if hand & first:
                return first
        legal = hand
        if first_trick and not rules.first_trick_points:
            safe = legal & ~rules.penalty_mask
            if safe:
                legal = safe
        if waits and legal != QS_BIT:
            legal &= ~QS_BIT
        if rules.hearts_must_break and not hearts_broken:
            safe = legal & ~rules.hearts_mask
            if safe:
                legal = safe
        return legal
    follow = hand & rules.suit_masks[led_suit]
    legal = follow or hand
    if first_trick and not rules.first_trick_points:
        safe = legal & ~rules.penalty_mask
        if safe:
            legal = safe
    if waits and legal & QS_BIT and legal != QS_BIT:
        legal &= ~QS_BIT
    if rules.queen_must_go and legal & QS_BIT and (not follow or (led_suit == SPADES and best > QS)):
        legal = QS_BIT
    return legal


def refusal(
    rules: Rules, hand: Mask, led_suit: int, first_trick: bool, hearts_broken: bool, card: int, best: int = -1
) -> tuple[str, Params]:
    """Return the reason code and its parameters for a card in ``hand`` that is not legal."""
    suits = rules.suit_masks
    if led_suit >= 0 and hand & suits[led_suit] and not suits[led_suit] >> card & 1:
        return "must_follow_suit", {"suit": led_suit}
    if led_suit < 0 and first_trick and rules.first_lead >= 0 and hand >> rules.first_lead & 1:
        return "must_lead_first", {"first": CARD_NAMES[rules.first_lead]}
    if first_trick and not rules.first_trick_points and rules.penalty_mask >> card & 1:
        return "no_points_first_trick", {}
    if card == QS and rules.queen_waits and not hearts_broken:
        return "queen_waits", {}
    if led_suit >= 0 and card != QS and rules.queen_must_go and hand & QS_BIT:
        if not hand & suits[led_suit]:
            return "queen_must_go_void", {"suit": led_suit}
        return "queen_must_go", {"high": CARD_NAMES[best]}
    return "hearts_not_broken", {}
