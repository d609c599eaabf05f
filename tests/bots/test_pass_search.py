"""The hard player's search-based pass (``pass_search=True``): always a pass the game takes."""

from __future__ import annotations

from hartenjagen.shared.bots import make_player
from hartenjagen.shared.cards import parse_mask
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for


def passing_view(options: dict, deal_seed: int, seat: int = 0) -> tuple[Game, dict]:
    rules = make_rules(options)
    game = Game(rules)
    game.deal(seeded_deal(rules, deal_seed, 0))
    return game, view_for(game, seat)


def test_the_searched_pass_is_three_of_its_own_cards_and_the_game_takes_it():
    for deal_seed in range(6):
        game, view = passing_view({"variant": "classic"}, deal_seed)
        intent = make_player("hard", 5, budget_ms=10, pass_search=True).decide(view)
        assert intent["type"] == "pass" and len(set(intent["cards"])) == 3
        assert set(intent["cards"]) <= set(view["hand"])
        game.apply({**intent, "seat": 0})  # accepted by the engine


def test_the_search_never_passes_a_card_gentlemans_rule_4_keeps():
    for deal_seed in range(6):
        _, view = passing_view({"variant": "classic", "gentleman_4": True}, deal_seed)
        cards = make_player("hard", 5, budget_ms=10, pass_search=True).decide(view)["cards"]
        assert not parse_mask(cards) & make_rules({"variant": "classic", "gentleman_4": True}).no_pass
