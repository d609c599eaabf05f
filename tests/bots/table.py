"""Helpers for the computer-player tests: play games through the public API with bots in the seats."""

from __future__ import annotations

import json

from hartenjagen.shared.bots import make_player
from hartenjagen.shared.cards import parse_mask
from hartenjagen.shared.game import GAME_OVER, MOON_CHOICE, PASSING, PLAYING, Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for


def bot(level: str, seed: int):
    """Return a player of ``level``; the hard one thinks briefly so tests stay fast."""
    return make_player(level, seed, budget_ms=2) if level == "hard" else make_player(level, seed)


def play_game(levels: list[str], options: dict, seed: int, max_hands: int = 40, on_view=None) -> Game:
    """Play a game (at most ``max_hands`` hands) with bots; Game.apply refuses any illegal intent.

    ``levels`` go round the table again where the variant seats more players than it lists.
    """
    seats = make_rules(options).seats
    players = [bot(levels[s % len(levels)], seed * 4 + s) for s in range(seats)]
    return play_hands(players, options, seed * 1000, max_hands, on_view)


def play_hands(players: list, options: dict, deal_seed: int, hands: int, on_view=None) -> Game:
    """Play ``hands`` seeded hands with the given player objects, calling ``on_view(seat, view, intent)``."""
    game = Game(make_rules(options))
    for hand in range(hands):
        if game.phase == GAME_OVER:
            break
        game.deal_seeded(deal_seed + hand)
        while game.phase in (PASSING, PLAYING, MOON_CHOICE):
            for seat in game.to_act():
                view = view_for(game, seat)
                intent = players[seat].decide(view)
                if on_view:
                    on_view(seat, view, intent)
                game.apply({**intent, "seat": seat})
    return game


def dealt(options: dict, hands: list[str]) -> Game:
    """Return a game whose first hand is dealt from four space-separated card lists (S, W, N, E)."""
    game = Game(make_rules(options))
    game.deal([parse_mask(h.split()) for h in hands])
    return game


def play(game: Game, *moves: str) -> None:
    """Play cards in turn order (names), whoever's turn it is."""
    for name in moves:
        game.apply({"type": "play", "seat": game.turn, "card": name})


class ViewOnlySeat:
    """A player given only a JSON copy of its view (no game, no other hand); it checks each card it picks is legal."""

    def __init__(self, player) -> None:
        self.player = player
        self.plays: list[str] = []

    def decide(self, view: dict) -> dict:
        """The player's intent from the copy; a card must be one of the view's legal cards."""
        intent = self.player.decide(json.loads(json.dumps(view)))
        if intent["type"] == "play":
            assert intent["card"] in view["legal"]
            self.plays.append(intent["card"])
        return intent
