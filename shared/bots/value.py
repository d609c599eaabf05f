"""What a simulated hand's outcome is worth to the seat that looks ahead: its points, a rival's, the game's end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Mask
from ..rules import Rules
from ..scoring import chip_shares, is_over
from ..sim import hand_scorer
from .knowledge import Knowledge

#: Values one hand's outcome for a seat: the cards each seat took, and the cards of each seat's doubled tricks.
Valuer = Callable[[list[Mask], list[Mask]], float]

#: The scoring features (``rules.scoring_features``) the valuer values right: every one ``hand_scorer`` scores (points,
#: the moon, teams, doublers, cancellers, the sun, bonus cards), and the ends it knows: a points game reached or
#: passed, the Dutch count down to zero (exactly or not), chips from the pot. A tie on the lowest total counts as a
#: shared win under either tie rule. Rules with any other feature are refused (``valued``).
VALUED = frozenset(
    {
        "moon=others", "moon=self", "moon=choose", "moon=none", "teams", "heart_doubler", "cancel", "trick_doubler",
        "spade_ten", "sun", "bonus_cards", "end=reach", "end=dutch", "end=chips", "end_over", "exact_zero=False",
        "exact_zero=True", "tie=share", "tie=play_on", "start_chips", "ante", "hand_limit",
    }
)  # fmt: skip
#: Worth of winning (or cost of losing) the game when this hand ends it, in points.
GAME_WORTH = 10.0
#: Share of the points of the rival with the lowest total (when lower than ours) counted in our favour.
RIVAL_SHARE = 0.1


@dataclass(frozen=True)
class ValueSpec:
    """The inputs of the valuer for one decision (read by the compiled twin as well)."""

    seat: int
    rival: int
    share: float
    near: bool
    exact: bool
    reach: bool
    totals: tuple[int, ...]
    worth: float
    chips: int | None  # the pot in a chips game, else None


def valued(rules: Rules) -> Rules:
    """Return ``rules`` when the valuer names each of their scoring features (``VALUED``); raise ValueError if not."""
    unknown = rules.scoring - VALUED
    if unknown:
        raise ValueError(f"the look-ahead does not value the rule features {', '.join(sorted(unknown))}")
    return rules


def value_spec(k: Knowledge) -> ValueSpec:
    """Return the valuer's inputs for this seat's view (rules with a feature it does not value: ValueError)."""
    rules, seat, totals = valued(k.rules), k.seat, k.totals
    mine = rules.side_of(seat)
    others = [s for s in range(rules.seats) if rules.side_of(s) != mine]
    rival = min(others, key=lambda s: totals[s])
    share = RIVAL_SHARE if totals[rival] < totals[seat] else 0.0  # only a rival ahead of us is worth feeding
    reach = rules.end == "reach"
    worst = max(rules.moon_total, rules.sun)
    near = max(totals) + worst >= rules.end_score if reach else k.counting_down
    chips = k.pot if rules.start_chips else None
    return ValueSpec(seat, rival, share, near, rules.exact_zero, reach, tuple(totals), GAME_WORTH, chips)


def valuer(k: Knowledge, spec: ValueSpec | None = None) -> Valuer:
    """Return a function valuing one hand's outcome (cards taken, cards of doubled tricks) for this seat.

    The outcome is scored by the variant's own scoring (``hand_scorer``), so the doubling queen, the
    cancelling Q♣, the doubling 9, team totals and the sun count as the game will count them; in a
    chips game the worth is the chips this seat would take from the pot. Rules with a scoring feature the valuer
    does not name (``VALUED``) raise ValueError.
    """
    rules = valued(k.rules)
    spec = spec or value_spec(k)
    seat, rival, share, totals = spec.seat, spec.rival, spec.share, spec.totals
    if spec.chips is not None:
        pot = spec.chips

        def chips(taken: list[int], doubled: list[int]) -> float:
            """Return the chips this seat takes from the pot."""
            return float(chip_shares(rules, taken, pot)[seat])

        return chips
    down = k.counting_down
    exact, near, worth = spec.exact, spec.near, spec.worth
    score_hand = hand_scorer(rules, down)

    def value(taken: list[int], doubled: list[int]) -> float:
        """Return the worth of one outcome for this seat."""
        scores = score_hand(taken, doubled)
        u = -scores[seat] + share * scores[rival]
        if near:
            new = [totals[s] + scores[s] for s in range(len(totals))]
            if exact and down:
                new = [-t if t < 0 else t for t in new]
            if is_over(rules, new, down):
                low = min(new)
                if new[seat] == low:
                    u += worth / sum(1 for t in new if t == low)
                else:
                    u -= worth
        return u

    return value
