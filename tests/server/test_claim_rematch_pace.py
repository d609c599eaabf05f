"""Claims checked against the real cards and played out, the rematch vote, and the host's pace for computer moves."""

from __future__ import annotations

import json
import random

import pytest

from hartenjagen.server.table.errors import ProtocolError
from hartenjagen.server.table.pace import PACE_FACTORS
from hartenjagen.server.table.presence import ConnectionId
from hartenjagen.server.table.seat_view import Moment, table_message
from hartenjagen.server.table.state import FINISHED
from hartenjagen.server.table.step import settle
from hartenjagen.server.table.table import Table
from hartenjagen.shared.bots.choice import checked
from hartenjagen.shared.claim import ClaimRefused, claim_plays, claim_sure
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .wording import worded

AT = 1_765_000_000.0


def started(people: int = 1, **options) -> Table:
    table = Table.create("CLAIM1", make_rules({"variant": "classic", **options}), deal=11, at=AT)
    for seat in range(people):
        table.seating.seat_person(ConnectionId(seat + 1), seat + 1, f"P{seat}", seat)
    table.hosting.fill_computers(0, "easy")
    table.hosting.start(0, AT)
    return table


def play_until(table: Table, done, rng: random.Random) -> None:
    """Every seat plays easy moves (people too) until ``done(table)``."""
    for _ in range(3000):
        if done(table):
            return
        game = table.game
        if game.phase == "hand_over":
            for s in table.persons():
                table.set_ready(s.index)
            table.maybe_deal()
            continue
        seat = game.to_act()[0]
        table.act(seat, checked("easy", rng.randrange(2**32), view_for(game, seat)))
    raise AssertionError("never got there")


def claimable(table: Table) -> bool:
    game = table.game
    if game.phase != "playing" or game.turn != 0:
        return False
    try:
        claim_plays(game, 0)
    except ClaimRefused:
        return False
    return True


def test_a_claim_that_holds_plays_the_hand_out_with_every_trick_to_the_claimer():
    table = started()
    play_until(table, claimable, random.Random(2))
    game = table.game
    hand_no, done = game.hand_no, len(game.tricks)
    earlier = [text for _, text in table.take_unsaved()]
    table.claim(0)
    step = settle(table, 1000.0, AT)
    types = [json.loads(text)["type"] for _, text in step.entries]
    assert types[0] == "claim" and set(types[1:]) <= {"play", "moon", "deal"}
    assert any(h["hand_no"] == hand_no for h in table.game.history)  # the hand is over, scored like any other
    tricks = [t for t in table.game.tricks[done:]] if table.game.hand_no == hand_no else []
    assert all(t.winner == 0 for t in tricks)
    claimed = [e for e in table.events if e["type"] == "claim"]
    assert claimed and claimed[-1]["seat"] == 0
    again = Table.restore(table.table_id, earlier + [text for _, text in step.entries])
    assert again.game.totals == table.game.totals and again.game.history == table.game.history


def test_a_claim_too_early_is_refused_with_the_reason_and_changes_nothing():
    table = started(passing="off")
    play_until(table, lambda t: t.game.phase == "playing" and t.game.turn == 0 and not t.game.tricks, random.Random(1))
    logged = table.logged
    with pytest.raises(ProtocolError) as exc:
        table.claim(0)
    err = exc.value.to_message()
    assert err == {"type": "error", "code": "claim_fails"} and table.logged == logged
    assert "another player can still take a trick" in worded(err) and "slag" in worded(err, "nl")
    play_until(table, lambda t: t.game.phase == "playing" and t.game.turn != 0, random.Random(1))
    with pytest.raises(ProtocolError) as exc:
        table.claim(0)  # not this seat's turn
    assert exc.value.code == "claim_turn" and "when it is your turn" in worded(exc.value.to_message())


def test_the_seat_s_table_message_offers_the_claim_only_where_it_is_sure_and_it_then_holds():
    table = started(passing="off")
    offered = []
    for n in range(4):  # four hands: the turns where seat 0's view offers the claim, and those where it does not
        play_until(table, lambda t: t.game.phase == "playing" and t.game.turn == 0, random.Random(n))
        while table.game.phase == "playing":
            game = table.game
            moment = Moment(table, AT)
            views = [table_message(table, s, 0, moment)["view"] for s in range(4)]
            assert [v["claim"] for v in views] == [claim_sure(game, s) for s in range(4)]
            assert not any(v["claim"] for s, v in enumerate(views) if s != game.turn)  # only the seat to move
            assert "claim" not in table_message(table, None, 0, moment)["view"]  # a watcher has no seat fields
            if game.turn == 0:
                offered.append(views[0]["claim"])
                if views[0]["claim"]:
                    table.claim(0)  # offered: the claim holds, and the rest of the hand is played out
                    assert table.game.phase != "playing" and table.game.tricks[-1].winner == 0
                    break
            table.act(game.turn, checked("easy", n, views[game.turn]))
        play_until(table, lambda t: t.game.phase == "hand_over", random.Random(n))
        table.set_ready(0)
        table.maybe_deal()
    assert True in offered and False in offered
    assert offered.index(True) > 0  # not at the first turn of a hand


def test_a_rematch_starts_a_new_game_when_every_person_agrees():
    table = started(people=2, end_score=25)
    with pytest.raises(ProtocolError) as exc:
        table.hosting.vote_rematch(0, AT)
    assert exc.value.code == "rematch_after_game_over"
    play_until(table, lambda t: t.status == FINISHED, random.Random(5))
    first_totals = list(table.game.totals)
    table.hosting.vote_rematch(0, AT)
    assert table.status == FINISHED and table.rematch == {0}
    table.hosting.vote_rematch(0, AT)  # a second vote of the same person counts once
    assert table.rematch == {0}
    table.hosting.vote_rematch(1, AT)
    assert table.status == "playing" and table.game.totals == [0, 0, 0, 0] and table.rematch == set()
    assert first_totals != table.game.totals and table.game.phase == "passing"


def test_only_the_host_sets_the_pace_and_it_scales_the_pause_and_survives_a_restore():
    table = started(people=2)
    with pytest.raises(ProtocolError) as exc:
        table.hosting.set_pace(1, "fast")
    assert exc.value.code == "not_host"
    table.hosting.set_pace(0, "fast")
    assert table.pace == "fast" and PACE_FACTORS["fast"] < PACE_FACTORS["normal"] < PACE_FACTORS["slow"]
    entries = [text for _, text in table.take_unsaved()]
    assert Table.restore(table.table_id, entries).pace == "fast"
