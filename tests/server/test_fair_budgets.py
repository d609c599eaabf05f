"""The hard player under load: budgets shrink when decisions queue, toward a floor, in fixed steps."""

from __future__ import annotations

import asyncio

from hartenjagen.server.live.computer import STEPS, Budgets, Thinker
from hartenjagen.shared.bots.choice import decide, fits
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for


def playing_view(seed: int = 3) -> dict:
    """A view of the first trick's second seat, several cards to choose from."""
    rules = make_rules({"variant": "classic", "passing": "off"})
    game = Game(rules)
    game.deal(seeded_deal(rules, seed, 0))
    leader = game.to_act()[0]
    game.apply({"type": "play", "seat": leader, "card": "2C"})
    return view_for(game, game.to_act()[0])


class TestBudgets:
    def test_alone_a_decision_gets_the_full_budget(self):
        b = Budgets(workers=2, ceiling_ms=200, floor_ms=10, target_s=1.0)
        assert b.next() == 200

    def test_the_longer_the_queue_the_smaller_the_budget_down_to_the_floor(self):
        b = Budgets(workers=2, ceiling_ms=200, floor_ms=10, target_s=1.0)
        seen = [b.take() for _ in range(60)]  # sixty decisions asked at once, none done yet
        assert seen == sorted(seen, reverse=True)
        assert seen[0] == 200 and seen[-1] == 10
        assert set(seen) <= set(STEPS) | {200, 10}  # a few fixed budgets, each one the arena can replay
        # what is queued ahead (the floor aside) fits in the target: about a second per worker
        assert sum(x for x in seen if x > 10) / 2 <= 1000
        for x in seen:
            b.done(x, None)
        assert b.next() == 200  # the queue drained: full budget again

    def test_a_slower_machine_shrinks_the_budgets_sooner(self):
        quick = Budgets(workers=2, ceiling_ms=200, floor_ms=10, target_s=1.0)
        slow = Budgets(workers=2, ceiling_ms=200, floor_ms=10, target_s=1.0)
        for _ in range(50):
            quick.done(quick.take(), 0.1)  # 0.5 ms of wall time per nominal ms
            slow.done(slow.take(), 0.6)  # 3 ms
        for _ in range(6):
            quick.take(), slow.take()
        assert slow.next() < quick.next()


class TestDecisions:
    def test_the_same_view_seed_and_budget_make_the_same_decision(self):
        view = playing_view()
        for budget in (10.0, 35.0):
            first = decide("hard", 7, view, budget)
            assert fits(first, view)
            assert all(decide("hard", 7, view, budget) == first for _ in range(2))

    async def test_a_flood_of_hard_decisions_is_answered_with_smaller_budgets_and_legal_cards(self):
        thinker = Thinker(workers=0, hard_ms=200, floor_ms=10, target_s=0.5)
        view = playing_view()
        try:
            intents = await asyncio.gather(*(thinker.decide("hard", view) for _ in range(40)))
            assert all(fits(i, view) for i in intents)
            used = thinker.health()["decisions_by_budget_ms"]
            assert sum(used.values()) == 40
            assert "200" in used and min(float(k) for k in used) < 200  # the first at full budget, later ones less
            assert thinker.health()["waiting"] == 0
            # medium and easy never queue behind the hard player: they decide at once, on the event loop
            assert fits(await thinker.decide("medium", view), view)
        finally:
            thinker.close()
