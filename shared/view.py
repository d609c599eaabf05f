"""The one filter: everything a seat may know of a game, as JSON-ready data, and nothing more.

Browsers and computer players both receive exactly this structure. It never holds
another seat's unplayed cards, the cards another seat chose to pass, a seed, or a
deck order.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypedDict

from .cards import CARD_NAMES, RANK_LETTERS, mask_cards, mask_names
from .claim import claim_sure
from .game import GAME_OVER, HAND_OVER, PASSING, PLAYING, Game
from .multiset import LAYER0
from .reasons import Params, reason
from .rules import Rules

VIEW_VERSION = 1


def _reason(code: str, params: Params) -> dict[str, Any]:
    """A reason as the view carries it: ``{"code", "params"}`` (``shared.reasons``), worded by the client."""
    return reason(code, **params)


class CommonView(TypedDict):
    """The fields of a view that every seat shares (``common_view``): public by nature."""

    version: int
    rules: dict[str, Any]  # the table's options (``Rules.to_json``)
    seats: int
    kitty_size: int
    kitty_takers: list[int] | None
    pending: list[str] | None
    phase: str  # a ``Phase``
    hand_no: int
    dealer: int | None
    pass_direction: str | None
    pass_count: int
    hand_sizes: list[int]
    has_passed: list[bool] | None
    tricks: list[dict[str, Any]]  # ``Trick.to_json`` of each finished trick
    trick: dict[str, Any] | None
    turn: int | None
    to_act: list[int]
    hearts_broken: bool
    points_taken: list[int]
    point_cards: list[list[str]] | None  # once the hand is over: each seat's cards that counted (``counted_cards``)
    kitty_cards: list[str] | None  # once the hand is over: the kitty's cards, in the order of ``kitty_takers``
    history: list[dict[str, Any]]  # the hand results
    totals: list[int]
    counting_down: bool
    turned: bool
    moon_seat: int | None
    game_over: bool
    winners: list[int]
    losers: list[int]
    toppers: list[dict[str, Any]]
    teams: list[int] | None
    chips: list[int] | None
    pot: int | None
    scoring: dict[str, Any]  # ``scoring_table``


class SeatFields(TypedDict):
    """The fields of a view that belong to one seat alone (``seat_view``): its cards and choices."""

    seat: int
    kitty: list[str] | None
    pass_to: int | None
    pass_from: int | None
    pass_targets: list[int] | None
    hand: list[str]
    passed: list[str] | None
    passed_to: list[int] | None
    received: list[str] | None
    received_from: list[int] | None
    pass_refusals: dict[str, dict[str, Any]]  # card -> reason ({code, params})
    moon_choices: list[str]
    legal: list[str]
    refusals: dict[str, dict[str, Any]]  # card -> reason ({code, params})
    refusal: dict[str, Any] | None  # {code, params}
    claim: bool  # the seat may claim the rest now: from what it may know, every remaining trick is its own


class View(CommonView, SeatFields):
    """What one seat may know of a game (``view_for``): what browsers and computer players receive, as JSON."""


#: The view fields that differ from seat to seat; every other field is the same for every seat.
SEAT_FIELDS = tuple(SeatFields.__annotations__)


@lru_cache(maxsize=64)
def scoring_table(rules: Rules) -> dict[str, Any]:
    """Return the variant's scoring as data for the rules page and the score table (one shared copy per rules).

    Cards appear only as keys (a value is never a card name, so no scan for hidden cards trips on rules):
    ``card_points``: every card of the deck worth points, with its points; ``card_roles``: cards with a
    role beyond points (``heart_doubler``, ``canceller``, ``cancelled``, ``no_pass``); ``trick_doubler``:
    the rank letter that doubles its trick; ``moon``/``moon_total``; ``sun``: points per other side when
    one side takes every trick; the end rule, and ``start_chips``/``ante``/``hand_limit`` for chips;
    ``kitty_rule``: who takes the kitty (``KITTY_RULES``), or None without one; ``identical``: what two identical
    cards in a trick do (``cancel``, ``first_wins``), or None with one deck.
    """
    points = rules.card_points
    roles: dict[str, list[str]] = {}
    if rules.heart_doubler >= 0:
        roles.setdefault(CARD_NAMES[rules.heart_doubler], []).append("heart_doubler")
    if rules.cancel:
        roles.setdefault(CARD_NAMES[rules.cancel[0]], []).append("canceller")
        roles.setdefault(CARD_NAMES[rules.cancel[1]], []).append("cancelled")
    for c in mask_cards(rules.no_pass):
        roles.setdefault(CARD_NAMES[c], []).append("no_pass")
    return {
        "card_points": {CARD_NAMES[c]: points[c] for c in mask_cards(rules.deck & LAYER0) if points[c]},
        "card_roles": roles,
        "trick_doubler": RANK_LETTERS[rules.trick_doubler] if rules.trick_doubler >= 0 else None,
        "moon": rules.moon,
        "moon_total": rules.moon_total,
        "sun": rules.sun,
        "end": rules.end,
        "end_score": rules.end_score,
        "end_over": rules.end_over,
        "turn_score": rules.turn_score,
        "start_chips": rules.start_chips,
        "ante": rules.ante,
        "hand_limit": rules.hand_limit,
        "queen_must_go": rules.queen_must_go,
        "queen_waits": rules.queen_waits,
        "hearts_must_break": rules.hearts_must_break,
        "queen_breaks_hearts": rules.queen_breaks_hearts,
        "kitty_rule": rules.kitty_rule if rules.kitty else None,
        "identical": rules.identical or None,
    }


def view_for(game: Game, seat: int, common: CommonView | None = None) -> View:
    """Return what ``seat`` (at four seats 0 South, 1 West, 2 North, 3 East) may know of ``game`` now.

    ``common`` is ``common_view(game)`` of this very moment, when the caller builds views for
    several seats at once (it is then built once, not once per seat).
    """
    return view_of(common if common is not None else common_view(game), seat_view(game, seat))  # type: ignore[return-value]


def spectator_view(game: Game, common: CommonView | None = None) -> CommonView:
    """Return what someone watching without a seat may know: the shared fields only, no hand, no ``SEAT_FIELDS``."""
    return view_of(common if common is not None else common_view(game))  # type: ignore[return-value]


def view_of(common: CommonView, fields: SeatFields | None = None) -> dict[str, Any]:
    """Return a view from its parts: the shared fields and a seat's own (``seat_view``), or a watcher's (none)."""
    view: dict[str, Any] = dict(common)
    if fields is not None:
        view.update(fields)
    return view


def common_view(game: Game, same_rules: CommonView | None = None) -> CommonView:
    """Return the fields of the view that every seat shares: public by nature (no hand, no passed card).

    ``same_rules`` is an earlier common view made under this very rules object: its rules and scoring are taken as
    they are (shared, read-only), not made again.
    """
    rules = game.rules
    phase = game.phase
    over = phase in (HAND_OVER, GAME_OVER) and game.hand_no >= 0  # every card of the hand is open now
    return {
        "version": VIEW_VERSION,
        "rules": same_rules["rules"] if same_rules is not None else rules.to_json(),
        "seats": rules.seats,
        "kitty_size": rules.kitty,
        "kitty_takers": list(game.kitty_takers) if rules.kitty else None,
        "pending": game.names(game.pending) if rules.identical == "cancel" else None,
        "phase": phase,
        "hand_no": game.hand_no,
        "dealer": rules.dealer(game.hand_no) if game.hand_no >= 0 else None,
        "pass_direction": game.pass_direction,
        "pass_count": len(game.pass_targets),
        "hand_sizes": [h.bit_count() for h in game.hands],
        "has_passed": [p is not None for p in game.passes] if phase == PASSING else None,
        "tricks": [t.to_json() for t in game.tricks],
        "trick": game.trick.to_json() if phase == PLAYING else None,
        "turn": game.turn if phase == PLAYING else None,
        "to_act": game.to_act(),
        "hearts_broken": game.hearts_broken,
        "points_taken": game.points_taken() if game.hand_no >= 0 else [0] * rules.seats,
        "point_cards": [game.names(m) for m in game.counted_cards()] if over else None,
        "kitty_cards": [CARD_NAMES[c] for c in game.kitty] if over and rules.kitty else None,
        "history": list(game.history),  # the hand results are never changed once written: shared, read-only
        "totals": list(game.totals),
        "counting_down": game.counting_down,
        "turned": game.turned,
        "moon_seat": game.moon_seat if game.moon_seat >= 0 else None,
        "game_over": phase == GAME_OVER,
        "winners": list(game.winners),
        "losers": list(game.losers),
        "toppers": [dict(t) for t in game.toppers],
        "teams": list(rules.teams) or None,
        "chips": list(game.chips) if rules.start_chips else None,
        "pot": game.pot if rules.start_chips else None,
        # the same object for every view of these rules: shared, read-only
        "scoring": same_rules["scoring"] if same_rules is not None else scoring_table(rules),
    }


def seat_view(game: Game, seat: int) -> SeatFields:
    """Return the fields of the view that belong to ``seat`` alone (``SEAT_FIELDS``): its cards and choices."""
    phase = game.phase
    passed = game.passes[seat] if game.hand_no >= 0 else None
    offset = game.pass_offset
    targets = game.pass_targets
    pot = bool(targets) and not any(targets)
    exchanged = bool(targets) and phase != PASSING
    hand = game.hands[seat]
    n = game.seats
    names = game.names
    whole = game.hand_refusal(seat)
    refusals = {}
    if whole is None:  # the seat's turn: a reason for each card it may not play (one copy of each reason given)
        made: dict[int, dict[str, Any]] = {}
        for c, why in game.refusals(seat).items():
            given = made.get(id(why))
            if given is None:
                given = made[id(why)] = _reason(*why)
            refusals[CARD_NAMES[c]] = given
    return {
        "seat": seat,
        "kitty": names(game.kitty_taken[seat]) if game.kitty else None,
        "pass_to": (seat + offset) % n if offset else None,
        "pass_from": (seat - offset) % n if offset else None,
        "pass_targets": [(seat + t) % n for t in targets] if targets and not pot else None,
        "hand": names(hand),
        "passed": names(passed) if passed is not None else None,
        "passed_to": game.passed_to[seat] if passed is not None and not pot else None,
        "received": names(game.received[seat]) if exchanged else None,
        "received_from": game.received_from[seat] if exchanged and not pot else None,
        "pass_refusals": _pass_refusals(game, seat) if phase == PASSING and passed is None else {},
        "moon_choices": ["others", "self"] if game.moon_seat == seat else [],
        "legal": mask_names(game.legal(seat)),
        "refusals": refusals,
        "refusal": _reason(*whole) if whole is not None and phase == PLAYING and hand else None,
        "claim": claim_sure(game, seat),  # judged from this seat's own knowledge, never another seat's hand
    }


def seat_key(game: Game, seat: int) -> tuple[Any, ...] | None:
    """Return what ``seat_view`` reads of ``game`` for ``seat`` while it is not to play: equal keys, equal fields.

    None while the seat is to play a card (its legal cards, reasons and claim are then read afresh). Between two
    moments with the same key the seat's own fields are the same, so a step may keep those it made before.
    """
    phase = game.phase
    if phase == PLAYING and game.turn == seat:
        return None
    passed = game.passes[seat] if game.hand_no >= 0 else None
    return (
        seat,
        game.hand_no,
        phase,
        game.hands[seat],
        passed,
        game.received[seat],
        game.kitty_taken[seat],
        bool(game.kitty),
        game.moon_seat == seat,
        game.pass_offset,
        game.pass_targets,
    )


def _pass_refusals(game: Game, seat: int) -> dict[str, dict[str, Any]]:
    """A reason for every card of the hand that may not be passed (gentleman's rule 4)."""
    kept = game.hands[seat] & game.rules.no_pass & LAYER0
    return {CARD_NAMES[c]: _reason("may_not_pass", {"card": CARD_NAMES[c]}) for c in mask_cards(kept)}
