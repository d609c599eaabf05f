"""Reason codes for refused actions and dimmed cards, with Dutch and English sentences."""

from __future__ import annotations

from typing import Any

SUIT_EN = ("club", "diamond", "spade", "heart")
SUIT_NL = ("klaveren", "ruiten", "schoppen", "harten")
_SYMBOLS = "♣♦♠♥"
_RANKS_EN = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
_RANKS_NL = {"T": "10", "J": "B", "Q": "V", "K": "H", "A": "A"}

MESSAGES: dict[str, tuple[str, str]] = {
    "must_lead_first": (
        "The {first_en} must lead the first trick.",
        "De {first_nl} moet uitkomen in de eerste slag.",
    ),
    "must_follow_suit": (
        "You must follow suit: play a {suit_en}.",
        "Je moet kleur bekennen: speel {suit_nl}.",
    ),
    "hearts_not_broken": (
        "Hearts are not broken: you may not lead a heart yet.",
        "De harten zijn nog niet gebroken: je mag nog niet met harten uitkomen.",
    ),
    "no_points_first_trick": (
        "No points in the first trick: no point card unless you hold nothing else.",
        "Geen punten in de eerste slag: geen strafkaart, tenzij je niets anders hebt.",
    ),
    "queen_waits": (
        "Q♠ may not be played before a heart has been played, unless you hold nothing else.",
        "De schoppenvrouw mag pas gespeeld worden als er een harten is gespeeld, tenzij je niets anders hebt.",
    ),
    "queen_must_go": (
        "Q♠ must go now: {high_en} is already in the trick.",
        "De schoppenvrouw moet nu weg: {high_nl} ligt al in de slag.",
    ),
    "queen_must_go_void": (
        "Q♠ must go now: you cannot follow {suit_en}s, so she cannot take the trick.",
        "De schoppenvrouw moet nu weg: je kunt geen {suit_nl} bekennen, dus zij kan de slag niet winnen.",
    ),
    "may_not_pass": (
        "{card_en} may not be passed: 2♣ and Q♠ stay with their holder.",
        "{card_nl} mag niet worden doorgegeven: klaveren twee en schoppenvrouw blijven bij wie ze heeft.",
    ),
    "not_your_turn": ("It is not your turn.", "Je bent niet aan de beurt."),
    "not_in_hand": ("You do not hold {card_en}.", "Je hebt {card_nl} niet."),
    "wrong_phase": (
        "That is not possible now: the game is {phase}.",
        "Dat kan nu niet: het spel is in de fase {phase}.",
    ),
    "bad_pass": (
        "Pass exactly {count} different cards from your hand.",
        "Geef precies {count} verschillende kaarten uit je hand door.",
    ),
    "already_passed": ("You have already passed.", "Je hebt al doorgegeven."),
    "bad_moon_choice": (
        "Choose one of: {choices}.",
        "Kies een van: {choices}.",
    ),
    "bad_event": ("Not a valid game event: {detail}.", "Geen geldige spelgebeurtenis: {detail}."),
    "bad_deal": ("Not a valid deal: {detail}.", "Geen geldige deling: {detail}."),
}


def card_label(name: str, lang: str = "en") -> str:
    """Return a short human label for a card name, e.g. ``"Q♠"`` (``"V♠"`` in Dutch)."""
    if name == "JK":
        return "joker"
    ranks = _RANKS_NL if lang == "nl" else _RANKS_EN
    return ranks.get(name[0], name[0]) + _SYMBOLS["CDSH".index(name[1])]


#: A reason's parameters as the rules give them: card names, suit numbers, counts, a phase.
Params = dict[str, str | int]


def reason(code: str, **params: Any) -> dict[str, str]:
    """Return ``{"code", "en", "nl"}`` for a reason code with its parameters filled in."""
    for key in ("card", "first", "high"):
        if key in params:
            params.setdefault(key + "_en", card_label(params[key], "en"))
            params.setdefault(key + "_nl", card_label(params[key], "nl"))
    if "suit" in params:
        params.setdefault("suit_en", SUIT_EN[params["suit"]])
        params.setdefault("suit_nl", SUIT_NL[params["suit"]])
    en, nl = MESSAGES[code]
    return {"code": code, "en": en.format(**params), "nl": nl.format(**params)}


class IllegalAction(ValueError):
    """An action the rules refuse; carries a stable reason code and the sentences for it."""

    def __init__(self, code: str, seat: int | None = None, **params: Any) -> None:
        self.reason = reason(code, **params)
        self.code = code
        self.seat = seat
        self.params = params
        who = f"seat {seat}: " if seat is not None else ""
        super().__init__(f"{who}{self.reason['en']} [{code}]")
