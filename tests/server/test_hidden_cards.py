"""The hidden-card oracle: no message a seat receives names a card another seat still holds unseen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hartenjagen.shared.cards import CARD_NAMES, mask_names, parse_mask
from hartenjagen.shared.game import Game

from .conftest import seat_four
from .test_replays import drive_all, finished

NAMES = set(CARD_NAMES)


def card_strings(value: Any) -> set[str]:
    """Every string in a message that is exactly a card name, wherever it sits."""
    if isinstance(value, str):
        return {value} if value in NAMES else set()
    if isinstance(value, dict):
        return set().union(*(card_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_strings(v) for v in value)) if value else set()
    return set()


def events_before(events: list[dict[str, Any]], hand_no: int, plays: int) -> Iterator[dict[str, Any]]:
    """The game's events, oldest first, up to (not including) the ``plays``-th card of hand ``hand_no``."""
    hand, played = -1, 0
    for e in events:
        if e["type"] == "deal":
            hand += 1
            if hand > hand_no:
                return
        if hand == hand_no and e["type"] == "play":
            if played == plays:
                return
            played += 1
        yield e


def hidden_from(events: list[dict[str, Any]], rules, seat: int, hand_no: int, plays: int) -> set[str]:
    """The cards other seats hold unseen by ``seat`` after ``plays`` cards of hand ``hand_no`` (server's truth)."""
    game = Game(rules)
    for e in events_before(events, hand_no, plays):
        game.apply(e)
    own_pass = game.passes[seat] or 0
    others = 0
    for s in range(game.seats):
        if s != seat:
            others |= game.hands[s]
    for card, taker in zip(game.kitty, game.kitty_takers, strict=True):
        if taker != seat:  # the kitty lies face down, or another seat took it: hidden either way
            others |= 1 << card
    return set(mask_names(others & ~own_pass & ~game.hands[seat]))


class TestHiddenCards:
    @pytest.mark.parametrize(
        ("options", "people"),
        [({"variant": "classic", "end_score": 25}, 4), ({"variant": "three_kitty", "end_score": 25}, 3)],
        ids=["classic", "three_kitty"],
    )
    async def test_no_message_to_any_seat_names_a_card_another_seat_holds(self, server, options, people):
        players = await seat_four(server, options, people)
        code = players[0].joined["code"]
        await players[0].send("start")
        # a hint and a dropped connection that resumes from a snapshot are part of the journey
        for p in players:
            await p.until(lambda t: t["view"] is not None)
        await players[0].send("hint")
        await players[0].expect("hint")
        token, seat_token = players[1].welcome["player_token"], players[1].joined["seat_token"]
        await players[1].close()
        back = await server.connect("Bram", token=token)
        await back.send("resume", code=code, seat_token=seat_token)
        await back.expect("joined")
        await back.expect("table")
        players[1] = back
        await drive_all(players, finished)
        game = server.table(code).game
        events, rules = game.events, game.rules
        checked = 0
        for seat, p in enumerate(players):
            for msg in p.inbox:
                named = card_strings(msg)
                if not named:
                    continue
                view = msg.get("view") if msg["type"] == "table" else None
                if msg["type"] == "table" and view is None:
                    raise AssertionError(f"cards named outside a view: {msg}")
                if msg["type"] == "hint":
                    continue  # checked below against the hand it was asked for
                if view["phase"] in ("hand_over", "game_over"):
                    continue  # every card of a finished hand has been played in public
                plays = len(view["tricks"]) * people + (len(view["trick"]["cards"]) if view["trick"] else 0)
                hidden = hidden_from(events, rules, seat, view["hand_no"], plays)
                assert not named & hidden, f"seat {seat} was shown {sorted(named & hidden)} in {msg['type']}"
                assert set(view["hand"]) == set(mask_names(parse_mask(view["hand"])))
                checked += 1
        hint = next(m for m in players[0].inbox if m["type"] == "hint")
        first_view = next(m["view"] for m in players[0].inbox if m["type"] == "table" and m["view"])
        assert set(hint["cards"]) <= set(first_view["hand"])  # a hint names only the asker's own cards
        assert checked > 100
        if rules.kitty:  # the taker was shown the kitty, and only the taker
            takers = {t for h in players[0].table["view"]["history"] for t in h["kitty_takers"]}
            shown = {seat for seat, p in enumerate(players) for m in p.inbox if (m.get("view") or {}).get("kitty")}
            assert shown and shown <= takers


def played_before(events: list[dict[str, Any]], hand_no: int, plays: int) -> set[str]:
    """Every card played in public before the ``plays``-th card of hand ``hand_no`` (server's truth)."""
    return {e["card"] for e in events_before(events, hand_no, plays) if e["type"] == "play"}


class TestWatchersSeeNoHand:
    async def test_a_watcher_never_receives_a_card_before_it_is_played(self, server):
        players = await seat_four(server, {"variant": "classic", "end_score": 25})
        code = players[0].joined["code"]
        watcher = await server.connect("Eva")
        await watcher.send("watch", code=code)
        await watcher.expect("watching")
        await players[0].send("start")
        late = await server.connect("Finn")  # one more watcher joins mid-hand, from a full snapshot
        for p in players:
            await p.until(lambda t: t["view"] is not None)
        await late.send("watch", code=code)
        await late.expect("watching")
        await drive_all(players, finished)
        await watcher.until(finished)
        await late.until(finished)
        game = server.table(code).game
        checked = 0
        for w in (watcher, late):
            for msg in w.inbox + w.raw:
                assert msg["type"] in ("welcome", "watching", "table", "update", "chat_history"), msg
                if msg["type"] in ("table", "update"):
                    assert msg.get("you") is None and msg.get("deal") is None
                view = msg.get("view") if msg["type"] == "table" else None
                if view is not None:
                    assert "hand" not in view and "passed" not in view and "received" not in view
                named = card_strings(msg)
                if not named:
                    continue
                assert view is not None or msg["type"] == "update", f"cards named outside a view: {msg}"
                if msg["type"] == "update":
                    continue  # checked as the table message it folds into (inbox)
                if view["phase"] in ("hand_over", "game_over"):
                    plays = 10**6
                else:
                    plays = len(view["tricks"]) * 4 + (len(view["trick"]["cards"]) if view["trick"] else 0)
                unseen = named - played_before(game.events, view["hand_no"], plays)
                assert not unseen, f"a watcher was shown {sorted(unseen)} before they were played"
                checked += 1
        assert checked > 50
