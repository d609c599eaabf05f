"""Which cards a seat may play, and why each other card is refused: a few mask operations."""

from __future__ import annotations

from .cards import CARD_NAMES, HEARTS, SUIT_MASKS, Mask
from .rules import Rules

HEARTS_MASK = SUIT_MASKS[HEARTS]


def legal_mask(rules: Rules, hand: Mask, led_suit: int, first_trick: bool, hearts_broken: bool) -> Mask:
    """Return the playable cards of ``hand``; ``led_suit`` is -1 when the seat leads."""
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
        if rules.hearts_must_break and not hearts_broken:
            safe = legal & ~HEARTS_MASK
            if safe:
                legal = safe
        return legal
    legal = hand & SUIT_MASKS[led_suit] or hand
    if first_trick and not rules.first_trick_points:
        safe = legal & ~rules.penalty_mask
        if safe:
            legal = safe
    return legal


def refusal(
    rules: Rules, hand: Mask, led_suit: int, first_trick: bool, hearts_broken: bool, card: int
) -> tuple[str, dict]:
    """Return the reason code and its parameters for a card in ``hand`` that is not legal."""
    if led_suit >= 0 and hand & SUIT_MASKS[led_suit] and not SUIT_MASKS[led_suit] >> card & 1:
        return "must_follow_suit", {"suit": led_suit}
    if led_suit < 0 and first_trick and rules.first_lead >= 0 and hand >> rules.first_lead & 1:
        return "must_lead_first", {"first": CARD_NAMES[rules.first_lead]}
    if first_trick and not rules.first_trick_points and rules.penalty_mask >> card & 1:
        return "no_points_first_trick", {}
    return "hearts_not_broken", {}
