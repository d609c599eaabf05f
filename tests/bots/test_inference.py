"""What the hard player infers from play (``infer=True``): a seat that discarded another card instead of Q♠."""

from __future__ import annotations

from hartenjagen.shared.bots.knowledge import kept_qs
from hartenjagen.shared.cards import CLUBS, DIAMONDS, HEARTS, SPADES, SUIT_MASKS
from hartenjagen.shared.game import Game
from hartenjagen.shared.rules import make_rules
from hartenjagen.shared.view import view_for


def game_after(plays: list[tuple[int, str]], options: dict | None = None) -> Game:
    """North holds every club, East every spade (Q♠ too), South the hearts, West the diamonds."""
    rules = make_rules({"variant": "classic", "passing": "off", **(options or {})})
    game = Game(rules)
    game.deal([SUIT_MASKS[CLUBS], SUIT_MASKS[SPADES], SUIT_MASKS[HEARTS], SUIT_MASKS[DIAMONDS]])
    for seat, card in plays:
        game.apply({"type": "play", "seat": seat, "card": card})
    return game


FIRST = [(0, "2C"), (1, "2S"), (2, "2H"), (3, "2D")]
SECOND = [(0, "3C"), (1, "3S"), (2, "3H"), (3, "3D")]


def test_discards_while_the_queen_is_out_count_against_holding_her_but_not_on_the_first_trick():
    game = game_after(FIRST + SECOND)
    assert kept_qs(view_for(game, 0)) == [0, 1, 1, 1]


def test_nothing_counts_once_she_has_been_played():
    game = game_after(FIRST + SECOND + [(0, "4C"), (1, "QS"), (2, "4H"), (3, "4D")])
    assert kept_qs(view_for(game, 0)) == [0, 1, 1, 1]


def test_the_first_trick_counts_where_points_may_fall_on_it():
    game = game_after(FIRST, {"first_trick_points": True})
    assert kept_qs(view_for(game, 0)) == [0, 1, 1, 1]
