"""``hearts bench step``: the server's own CPU for one move of a table, without a socket: the move and its step.

Many tables of four people at once (each move at a table picked at random, as moves come in on a busy node, so a
table's objects are seldom in the processor's caches), each move checked by the table and settled: every seat's
update cut and encoded, what each connection was shown marked. Timed on the thread's own CPU clock, so another
process on the core does not count. It also counts how many seats' own view fields were made afresh per move (a
seat not to play keeps those it was shown while what they are made of is unchanged).

    .venv/bin/hearts bench step [--tables 1000] [--moves 30000] [--variant classic] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from hartenjagen.server.table.presence import ConnectionId
from hartenjagen.server.table.step import Step, mark_shown, settle
from hartenjagen.server.table.table import Table
from hartenjagen.shared.bots.choice import make_player
from hartenjagen.shared.variants import VARIANTS, make_rules
from hartenjagen.shared.view import view_for

T0, AT = 1000.0, 1_765_000_000.0  # the monotonic and the wall clock the tables start at


class Seated:
    """One table of people and the step it last took."""

    def __init__(self, number: int, variant: str, rng: random.Random) -> None:
        rules = make_rules({"variant": variant})
        self.table = Table.create(f"B{number:05d}", rules, deal=rng.randrange(2**31), grace=30.0, at=AT)
        self.connections = [ConnectionId(number * 100 + s) for s in range(rules.seats)]
        for s, connection in enumerate(self.connections):
            self.table.seating.seat_person(connection, number * 100 + s + 1, f"P{s}", s)
        self.table.hosting.start(0, AT)
        self.step: Step = settle(self.table, T0, AT)
        mark_shown(self.step.shown)

    def waiting(self) -> int | None:
        """The seat a move is wanted from (the first the game waits for), or None when the game waits for nobody."""
        game = self.table.game
        to_act = game.to_act() if game is not None else []
        return to_act[0] if to_act else None


def run(tables: int, moves: int, variant: str, seed: int) -> dict[str, Any]:
    """Make ``moves`` moves over ``tables`` tables; return CPU per move and what each move sent."""
    rng = random.Random(seed)
    player = make_player("random", seed)
    seated = [Seated(n, variant, rng) for n in range(1, tables + 1)]
    now = T0
    cpu: list[float] = []
    fresh = sent = 0
    while len(cpu) < moves:
        slot = rng.randrange(tables)
        at = seated[slot]
        seat = at.waiting()
        if seat is None:  # the hand or the game is over: a new table in its place
            seated[slot] = Seated(tables + len(cpu) + 1, variant, rng)
            continue
        assert at.table.game is not None
        intent = player.decide(view_for(at.table.game, seat))  # the person's choice: not part of the server's work
        assert intent is not None
        sights = [at.table.presence.sight(c) for c in at.connections]
        kept = [s.fields for s in sights]
        now += 0.01
        start = time.thread_time()
        at.table.act(seat, dict(intent))
        at.step = settle(at.table, now, AT + now, at.step.moment)
        mark_shown(at.step.shown)
        cpu.append(time.thread_time() - start)
        fresh += sum(s.fields is not k for s, k in zip(sights, kept, strict=True))
        sent += sum(len(m) if isinstance(m, str) else len(json.dumps(m)) for _, m in at.step.messages)
    return {
        "tables": tables,
        "moves": len(cpu),
        "variant": variant,
        "cpu_us_per_move_mean": round(1e6 * sum(cpu) / len(cpu), 1),
        "cpu_us_per_move_median": round(1e6 * statistics.median(cpu), 1),
        "seat_fields_made_per_move": round(fresh / len(cpu), 2),
        "bytes_sent_per_move": round(sent / len(cpu)),
    }


def add_step_parser(bench_sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``step`` to the ``hearts bench`` subcommands."""
    step = bench_sub.add_parser(
        "step", help="server CPU per move without sockets: the table's check and step, at many tables at once"
    )
    step.add_argument("--tables", type=int, default=1000, help="tables of people at once (default 1000)")
    step.add_argument("--moves", type=int, default=30000, help="moves timed (default 30000)")
    step.add_argument("--variant", default="classic", choices=list(VARIANTS))
    step.add_argument("--seed", type=int, default=1, help="the deals' and the moves' random seed (default 1)")
    step.add_argument("--json", action="store_true", help="print one JSON object")
    step.set_defaults(func=bench_step)


def bench_step(args: argparse.Namespace) -> int:
    """Run the moves and print the figures."""
    report = run(args.tables, args.moves, args.variant, args.seed)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:28} {value}")
    return 0
