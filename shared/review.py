"""The hand review: the hard player looks back at one seat's decisions, from that seat's view at that moment.

For every pass and card of a seat in a hand, ``review_decision`` compares what was chosen with the
hard player's best choice by expected hand points (``shared.review_search``) and marks what cost
points: "inaccuracy" from 0.5, "mistake" from 2, "blunder" from 5. A decision costing 2 or more in
a hand where another side shot the moon is a "blunder" too (a lost moon defence), with its reason.
Figures are the seat's score change for the hand (a moon included; minus chips in a chips game):
lower is better. Only the view is read, never the hidden hands, so reviews are honest and
deterministic for a view and a budget. Moon choices (the "choose" moon rule) are not reviewed.
A review holds no sentence: each reason is a code with its parameters (``REVIEW_REASONS``), and the client
words it, and the hand's total, in its player's language (``client/js/i18n/``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .bots.knowledge import Knowledge
from .cards import CARD_NAMES, HEARTS, JOKER, QS, SPADES, SUIT_MASKS, parse_card
from .game import Game
from .review_search import evaluate_passes, evaluate_plays, group_of, hard_pass
from .rules import Rules
from .view import View, view_for

THRESHOLDS = (("blunder", 5.0), ("mistake", 2.0), ("inaccuracy", 0.5))
MOON_COST = 2.0  # a decision costing this much in a hand another side shot the moon is a lost moon defence
#: Every reason code of a costly decision, with the names of its parameters (the client's sentence fills in exactly
#: these): a card as the core names it (``"QS"``), a pass's cards, the points a better choice saves, the seat that shot
#: the moon (``let_moon`` adds that seat's ``name`` where the review was given the names, for the client to show).
REVIEW_REASONS: dict[str, tuple[str, ...]] = {
    "kept_queen_unguarded": (),
    "better_pass": ("cards", "cost"),
    "kept_queen": (),
    "took_queen": (),
    "broke_hearts": (),
    "ducked_high_card": (),
    "better_card": ("card", "cost"),
    "let_moon": ("seat",),
}
_RANKS = "23456789TJQKA"
_SYMBOLS = "♣♦♠♥"


@dataclass(frozen=True)
class Decision:
    """One decision of a seat: its view just before, what it chose, and where in the hand it was."""

    kind: str  # "pass" or "play"
    view: View
    chosen: list[str] | str
    trick: int | None
    position: int | None


def decisions(rules: Rules, events: Iterable[Mapping[str, Any]], seat: int, hand_no: int) -> list[Decision]:
    """Fold ``events`` and return ``seat``'s pass and plays of hand ``hand_no``, in order, each with its view."""
    game = Game(rules)
    out: list[Decision] = []
    for event in events:
        if game.hand_no == hand_no and event.get("seat") == seat and event["type"] in ("pass", "play"):
            view = view_for(game, seat)
            if event["type"] == "pass":
                out.append(Decision("pass", view, list(event["cards"]), None, None))
            else:
                out.append(Decision("play", view, event["card"], len(game.tricks), len(game.trick.cards)))
        game.apply(event)
        if game.hand_no > hand_no:
            break
    return out


def mark_for(cost: float) -> str | None:
    """Return the mark of a cost: "blunder" from 5, "mistake" from 2, "inaccuracy" from 0.5, else None."""
    return next((mark for mark, at in THRESHOLDS if cost >= at), None)


def card_text(name: str) -> str:
    """Return a card as the command line shows it: ``Q♠``, ``10♦`` for a ten (a seat's client words its own)."""
    c = parse_card(name)
    if c == JOKER:
        return "joker"
    rank = _RANKS[c % 13]
    return ("10" if rank == "T" else rank) + _SYMBOLS[c // 13]


def review_decision(view: View, chosen: list[str] | str, budget_ms: float = 1000.0) -> dict[str, Any]:
    """Return the review of one decision (a pass or a card) from the seat's ``view`` alone: figures, cost, mark."""
    if view["phase"] == "passing":
        return _review_pass(view, list(chosen), budget_ms)
    return _review_play(view, str(chosen), budget_ms)


def _entry(
    kind: str, view: View, chosen: list[str] | str, best: list[str] | str, ev: tuple[float, float]
) -> dict[str, Any]:
    cost = round(max(0.0, ev[0] - ev[1]), 2)
    trick = view.get("trick") or {"cards": []}
    play = kind == "play"
    return {
        "kind": kind,
        "trick": len(view["tricks"]) if play else None,
        "position": len(trick["cards"]) if play else None,
        "chosen": chosen,
        "best": best,
        "expected": {"chosen": round(ev[0], 2), "best": round(ev[1], 2)},
        "cost": cost,
        "mark": mark_for(cost),
        "reason": None,
    }


def _review_play(view: View, chosen: str, budget_ms: float) -> dict[str, Any]:
    k = Knowledge(view)
    card = parse_card(chosen)
    values = evaluate_plays(view, budget_ms)
    mine = group_of(k, card)
    best = min(values, key=lambda c: (values[c], c != mine, c))  # ties go to the chosen card
    entry = _entry("play", view, chosen, CARD_NAMES[best], (values[mine], values[best]))
    if best == mine or not entry["cost"]:
        entry["best"] = chosen  # an equal card (or one no better) is no better choice
    if entry["mark"]:
        entry["reason"] = _play_reason(k, card, best, entry["cost"])
    return entry


def _review_pass(view: View, chosen: list[str], budget_ms: float) -> dict[str, Any]:
    mine = [parse_card(c) for c in chosen]
    hard = hard_pass(view)
    if set(hard) == set(mine):
        ev = evaluate_passes(view, [mine], budget_ms) * 2
    else:
        ev = evaluate_passes(view, [mine, hard], budget_ms)
    best = chosen if ev[0] <= ev[1] else [CARD_NAMES[c] for c in hard]
    entry = _entry("pass", view, chosen, best, (ev[0], min(ev)))
    if not entry["cost"]:
        entry["best"] = chosen
    if entry["mark"]:
        entry["reason"] = _pass_reason(view, mine, [parse_card(c) for c in best], entry["cost"])
    return entry


def _reason(code: str, **params: Any) -> dict[str, Any]:
    """A review's reason: ``{"code", "params"}`` with exactly the code's parameters (``REVIEW_REASONS``)."""
    if set(params) != set(REVIEW_REASONS[code]) and not (code == "let_moon" and set(params) == {"seat", "name"}):
        raise TypeError(f"review reason {code!r} takes {REVIEW_REASONS[code]}, not {sorted(params)}")
    return {"code": code, "params": params}


def _pass_reason(view: View, mine: list[int], best: list[int], cost: float) -> dict[str, Any]:
    """The pattern of a costly pass (Q♠ kept with too few low spades), else the better pass and its saving."""
    hand = sum(1 << parse_card(c) for c in view["hand"])
    kept = hand & ~sum(1 << c for c in mine)
    guards = (kept & SUIT_MASKS[SPADES] & ((1 << QS) - 1)).bit_count()
    if kept >> QS & 1 and QS in best and guards <= 2:
        return _reason("kept_queen_unguarded")
    return _reason("better_pass", cards=[CARD_NAMES[c] for c in best], cost=round(cost, 2))


def _play_reason(k: Knowledge, card: int, best: int, cost: float) -> dict[str, Any]:
    """The pattern of a costly card where one is clear, else the better card and what it saves."""
    trick = [c for _, c in k.trick]
    led = trick[0] // 13 if trick else -1
    hearts = SUIT_MASKS[HEARTS]
    win_seat, win = k.winning()
    if best == QS and card != QS and led >= 0 and card // 13 != led:
        return _reason("kept_queen")
    if QS in trick and card // 13 == led and card > win and not (best // 13 == led and best > win):
        return _reason("took_queen")
    if not trick and (1 << card) & hearts and not k.hearts_broken and k.legal & ~hearts and not (1 << best) & hearts:
        return _reason("broke_hearts")
    last = len(trick) == 3 and not k.trick_points()
    if last and card // 13 == led and card < win and best // 13 == led and best > win:
        return _reason("ducked_high_card")
    return _reason("better_card", card=CARD_NAMES[best], cost=round(cost, 2))


def _moon_reason(shooter: int, names: Sequence[str] | None) -> dict[str, Any]:
    """The lost moon defence: the shooter's seat, and its name where the review was given the names."""
    if names:
        return _reason("let_moon", seat=shooter, name=names[shooter])
    return _reason("let_moon", seat=shooter)


def review_hand(
    rules: Rules,
    events: Sequence[Mapping[str, Any]],
    seat: int,
    hand_no: int,
    budget_ms: float = 1000.0,
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Return the review of ``seat``'s decisions in hand ``hand_no`` as plain data (see the module docstring).

    ``names`` (one per seat) name the moon shooter in a ``let_moon`` reason; without them it carries the seat alone.
    """
    found = decisions(rules, events, seat, hand_no)
    if not found:
        raise ValueError(f"no decisions of seat {seat} in hand {hand_no}")
    result = Game.replay(rules, events).history
    shooter: int | None = result[hand_no]["moon"] if hand_no < len(result) else None
    if shooter is not None and rules.side_of(shooter) == rules.side_of(seat):
        shooter = None  # only a moon shot against this seat's side makes a costly decision a blunder
    out = []
    for d in found:
        entry = review_decision(d.view, d.chosen, budget_ms)
        if shooter is not None and entry["cost"] >= MOON_COST:
            entry["mark"] = "blunder"
            entry["reason"] = _moon_reason(shooter, names)
        out.append(entry)
    total = round(sum(e["cost"] for e in out), 2)
    return {
        "seat": seat,
        "hand_no": hand_no,
        "budget_ms": budget_ms,
        "decisions": out,
        "total_cost": total,
    }


def review_game(
    rules: Rules,
    events: Sequence[Mapping[str, Any]],
    seat: int,
    budget_ms: float = 1000.0,
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Return the review of every hand of a game for ``seat``: the hands' reviews and the total cost."""
    hands = sum(1 for e in events if e["type"] == "deal")
    reviews = [review_hand(rules, events, seat, h, budget_ms, names) for h in range(hands)]
    total = round(sum(r["total_cost"] for r in reviews), 2)
    return {"seat": seat, "budget_ms": budget_ms, "hands": reviews, "total_cost": total}
