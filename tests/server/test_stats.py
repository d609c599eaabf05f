"""Stats count moons and average the points taken per hand, for a game recorded the way the server records it."""

from __future__ import annotations

import json

from hartenjagen.server.table.table import FINISHED, Table
from hartenjagen.shared.cards import card_name, mask_cards
from hartenjagen.shared.variants import make_rules

from .conftest import both_stores

OPTIONS = {"variant": "classic", "passing": "off", "end_score": 25}

# Hand 0: an ordinary hand; everyone plays their lowest legal card. South 2, West 1, North 19 (Q♠), East 4.
ORDINARY = (
    "5C 8C JC 5D 7D 8D TD 9S TS QS KS 5H JH",
    "3C TC KC 4D KD AD 4S 5S JS 2H 8H 9H TH",
    "2C 4C 6C 7C QC 2D 3D QD 3S 6S 7S 6H KH",
    "9C AC 6D 9D JD 2S 8S AS 3H 4H 7H QH AH",
)
# Hand 1: South holds the top cards and wins every trick: all hearts and Q♠, a moon (26 to each of the others).
MOON = (
    "AC AD AS KS QS AH KH QH JH TH 9H 8H 7H",
    "2C 5C 8C JC 2D 5D 8D JD 2S 5S 8S JS 4H",
    "3C 6C 9C QC 3D 6D 9D QD 3S 6S 9S 2H 5H",
    "4C 7C TC KC 4D 7D TD KD 4S 7S TS 3H 6H",
)


def play_hand(table: Table, hands: tuple[str, ...], highest: set[int]) -> None:
    """Log a deal of ``hands`` and play the hand out through the table: ``highest`` seats play their top legal card."""
    table.log("deal", hands=[h.split() for h in hands])  # the table log's own deal entry, with chosen cards
    game = table.game
    while game.phase == "playing":
        seat = game.turn
        legal = list(mask_cards(game.legal(seat)))
        card = legal[-1] if seat in highest else legal[0]
        table.act(seat, {"type": "play", "card": card_name(card)})


class TestStatsCountMoons:
    @both_stores
    async def test_the_shooter_gets_one_moon_and_every_average_matches_the_points_taken(self, server):
        db = server.app.db
        names = ("Anna", "Bram", "Cor", "Dirk")
        players = [await db.player(name, None) for name in names]  # what a hello does: (id, token, name)
        rules = make_rules(OPTIONS)
        table = Table.create("MOONAB", rules, at=0.0)  # as the hub builds a table
        for pid, _, name in players:
            table.seating.seat_person(None, pid, name, None)
        table.log("start", at=0.0)  # what start() logs, before the hand below instead of a secure deal
        play_hand(table, ORDINARY, highest=set())
        assert table.game.history[0]["points"] == [2, 1, 19, 4] and table.game.history[0]["moon"] is None
        play_hand(table, MOON, highest={0})
        last = table.game.history[1]
        assert last["moon"] == 0 and last["points"] == [26, 0, 0, 0] and last["scores"] == [0, 26, 26, 26]
        assert table.status == FINISHED and table.game.winners == [0]

        await db.record_game(table.finish(1.0))  # what the hub stores with the table's last entries

        stats = []
        for _, token, _ in players:
            status, _, body = await server.get("/api/stats", {"X-Player-Token": token})
            assert status == 200
            stats.append(json.loads(body))
        assert [s["name"] for s in stats] == list(names)
        assert [s["moons"] for s in stats] == [1, 0, 0, 0]
        assert [s["hands"] for s in stats] == [2, 2, 2, 2]
        # what each hand added to the total: the shooter's moon hand counts 0, the others' 26
        assert [s["avg_points_per_hand"] for s in stats] == [1.0, 13.5, 22.5, 15.0]
        assert [s["games_won"] for s in stats] == [1, 0, 0, 0]
        assert [s["lowest_score"] for s in stats] == [2, 27, 45, 30]
        # the toppers: Anna has the lowest total while all three others passed 25, a triple game
        assert [s["toppers"] for s in stats] == [{"triple_game": 1}, {}, {}, {}]
