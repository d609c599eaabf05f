"""The browser folds the server's compact updates into exactly the full table message, at every step of a game."""

from __future__ import annotations

import json

from hartenjagen.server.table.presence import ConnectionId
from hartenjagen.server.table.seat_view import Moment, cut
from hartenjagen.server.table.table import Table
from hartenjagen.shared.bots.choice import fallback
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for


def recorded_game(options: dict) -> list[list[tuple[dict, dict]]]:
    """Play a whole game of four seated people; per seat, every message the server cut and the full one behind it."""
    table = Table.create("FOLDME", make_rules(options), at=0.0)
    clients = []
    for n, name in enumerate(("Anna", "Bram", "Cor", "Dirk")):
        client = ConnectionId(n + 1)
        table.seating.seat_person(client, None, name, None)
        table.presence.arrive(client, table.seq)
        clients.append(client)
    out: list[list[tuple[dict, dict]]] = [[] for _ in clients]

    moments: list[Moment] = []

    def broadcast() -> None:
        table.maybe_deal()
        table.finish(0.0)
        moments.append(Moment(table, 0.0, moments[-1] if moments else None))  # as the server does after a change
        for c in clients:
            made = cut(table, c, moments[-1])  # as seat_update: the message, and what the connection then holds
            made.shown.apply()
            message = made.message()
            if message is not None:
                out[table.presence.seat_of(c)].append((message, made.shown.shown))

    broadcast()
    table.hosting.start(0, 0.0)
    broadcast()
    for _ in range(5000):
        if table.game.phase == "game_over":
            break
        waiting = table.game.to_act()
        if waiting:
            table.act(waiting[0], fallback(view_for(table.game, waiting[0])))
        else:
            for s in range(4):
                if s not in table.ready:
                    table.set_ready(s)
                    break
        broadcast()
    assert table.game.phase == "game_over"
    return out


def test_the_client_folds_every_update_into_the_full_table_message(open_page):
    page = open_page("/")
    for options in ({"variant": "classic", "end_score": 30}, {"variant": "dutch"}):
        for seat, messages in enumerate(recorded_game(options)):
            sent = [m for m, _ in messages]
            assert sent[0]["type"] == "table" and {m["type"] for m in sent[1:]} == {"update"}
            folded = page.evaluate(
                """async (messages) => {
                    const { foldUpdate } = await import("/js/fold.js");
                    let table = null;
                    const out = [];
                    for (const m of messages) {
                        table = m.type === "table" ? m : foldUpdate(table, m);
                        out.push(JSON.stringify(table));
                    }
                    return out;
                }""",
                sent,
            )
            for step, (text, (_, full)) in enumerate(zip(folded, messages, strict=True)):
                assert json.loads(text) == json.loads(json.dumps(full)), f"seat {seat}, message {step}"
