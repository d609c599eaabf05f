"""Store benchmark: table-log appends per second and commit latency under load, and restore time.

Each simulated table replays the log entries a real ``Table`` wrote while four people played random
legal moves, so entry sizes and counts are those of real games.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from hartenjagen.server.config import Config
from hartenjagen.server.live.registry import Tables
from hartenjagen.server.storage.sqlite import SQLiteStore
from hartenjagen.server.storage.store import TableWrite
from hartenjagen.server.table.table import FINISHED, PLAYING_STATUS, Table
from hartenjagen.shared.cards import mask_names
from hartenjagen.shared.game import MOON_CHOICE, PASSING
from hartenjagen.shared.sim import pick
from hartenjagen.shared.variants import make_rules


def game_writes(rng: random.Random, code: str, hands: int | None = None) -> tuple[Table, list[TableWrite]]:
    """Play a table of four people with random legal moves; return it and its log as one write per move.

    With ``hands``, stop in the middle of hand ``hands`` (a table caught mid-game); else play to game over.
    """
    table = Table.create(code, make_rules({"variant": "classic"}), at=time.time())
    writes: list[TableWrite] = []

    def cut(opened: bool = False) -> None:
        entries = table.take_unsaved()
        if entries:
            writes.append(TableWrite(table.table_id, code, entries, opened_at=table.opened_at if opened else None))

    for seat, name in enumerate(("Anna", "Bram", "Cor", "Dirk")):
        table.seating.seat_person(None, seat + 1, name, seat)
    cut(opened=True)
    table.hosting.start(0, time.time())
    cut()
    rand = rng.random
    stop_after = rng.randrange(4, 48) if hands is not None else None
    while table.status == PLAYING_STATUS:
        game = table.game
        if hands is not None and game.hand_no == hands and len(game.tricks) * 4 + len(game.trick.cards) >= stop_after:
            break
        if game.phase == PASSING:
            for seat in game.to_act():
                hand, chosen = game.hands[seat], 0
                for _ in range(table.rules.pass_count):
                    b = pick(hand, rand)
                    hand ^= b
                    chosen |= b
                table.act(seat, {"type": "pass", "cards": mask_names(chosen)})
                cut()
        elif game.phase == MOON_CHOICE:
            table.act(game.moon_seat, {"type": "moon", "choice": "others"})
            cut()
        elif game.to_act():
            seat = game.turn
            card = pick(game.legal(seat), rand).bit_length() - 1
            table.act(seat, {"type": "play", "card": mask_names(1 << card)[0]})
            cut()
        else:  # hand over: everyone ready, the next hand is dealt
            for seat in range(4):
                table.set_ready(seat)
            for s in table.seats:
                s.client = object()  # as if all four were connected
            table.maybe_deal()
            for s in table.seats:
                s.client = None
            cut()
    if table.status == FINISHED:
        table.finish(time.time())
        cut()
    return table, writes


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def _busy(store: SQLiteStore, logs: list[list[TableWrite]], seconds: float) -> dict[str, Any]:
    """Every table appends its next move as soon as the previous one is committed."""
    latencies: list[float] = []
    entries = 0
    end = time.perf_counter() + seconds
    batches0, writes0 = store.commits.batches, store.commits.writes

    async def run(i: int, writes: list[TableWrite]) -> None:
        nonlocal entries
        k = 0
        while time.perf_counter() < end:
            w = writes[k % len(writes)]
            lap = k // len(writes)
            write = TableWrite(f"{w.table_id}-{i}-{lap}", w.code, w.entries, opened_at=w.opened_at)
            t0 = time.perf_counter()
            await store.submit(write)
            latencies.append((time.perf_counter() - t0) * 1000)
            entries += len(w.entries)
            k += 1

    start = time.perf_counter()
    await asyncio.gather(*(run(i, w) for i, w in enumerate(logs)))
    elapsed = time.perf_counter() - start
    batches = store.commits.batches - batches0
    writes = store.commits.writes - writes0
    return {
        "tables": len(logs),
        "appends_per_s": round(len(latencies) / elapsed),
        "entries_per_s": round(entries / elapsed),
        "commit_p50_ms": round(statistics.median(latencies), 2),
        "commit_p99_ms": round(_percentile(latencies, 0.99), 2),
        "appends_per_commit": round(writes / batches, 1) if batches else 0.0,
    }


async def _human_pace(
    store: SQLiteStore, logs: list[list[TableWrite]], seconds: float, rng: random.Random
) -> dict[str, Any]:
    """Every table makes a move every 1 to 2 s (people thinking); measure what storing it adds to the move."""
    latencies: list[float] = []
    end = time.perf_counter() + seconds

    async def run(i: int, writes: list[TableWrite]) -> None:
        await asyncio.sleep(rng.uniform(0, 2))
        k = 0
        while time.perf_counter() < end:
            w = writes[k % len(writes)]
            write = TableWrite(f"{w.table_id}-p{i}-{k // len(writes)}", w.code, w.entries, opened_at=w.opened_at)
            t0 = time.perf_counter()
            await store.submit(write)
            latencies.append((time.perf_counter() - t0) * 1000)
            k += 1
            await asyncio.sleep(rng.uniform(1, 2))

    await asyncio.gather(*(run(i, w) for i, w in enumerate(logs)))
    return {
        "tables": len(logs),
        "moves": len(latencies),
        "added_p50_ms": round(statistics.median(latencies), 2),
        "added_p99_ms": round(_percentile(latencies, 0.99), 2),
        "added_max_ms": round(max(latencies), 2),
    }


async def _restore(folder: Path, count: int, rng: random.Random) -> dict[str, Any]:
    """Store ``count`` tables caught mid-game (0 to 7 hands played), then time a fresh start's restore."""
    path = str(folder / "restore.db")
    store = await SQLiteStore.open(path)
    entries = 0
    for i in range(count):
        _, writes = game_writes(rng, f"R{i:05d}", hands=rng.randrange(0, 8))
        first = writes[0]
        merged = TableWrite(first.table_id, first.code, [e for w in writes for e in w.entries], first.opened_at)
        entries += len(merged.entries)
        store.submit(merged)
    await store.commits.close()
    await store.close()
    store = await SQLiteStore.open(path)
    tables = Tables(Config(), store, thinker=None)
    t0 = time.perf_counter()
    restored = await tables.restore()
    elapsed = time.perf_counter() - t0
    for handles in (tables._wake, tables._idle):
        for handle in handles.values():
            handle.cancel()
    await store.close()
    return {"tables": restored, "entries": entries, "restore_s": round(elapsed, 3)}


async def bench_store(
    sizes: list[int], seconds: float = 5.0, pace_seconds: float = 10.0, restore_tables: int = 1000, seed: int = 1
) -> dict[str, Any]:
    """Run every measurement in a temporary folder; return the figures."""
    rng = random.Random(seed)
    distinct = [game_writes(rng, f"B{i:05d}")[1] for i in range(50)]
    out: dict[str, Any] = {"busy": [], "human_pace": None, "restore": None}
    with tempfile.TemporaryDirectory(prefix="hearts-bench-") as tmp:
        folder = Path(tmp)
        for n in sizes:
            store = await SQLiteStore.open(str(folder / f"busy-{n}.db"))
            logs = [distinct[i % len(distinct)] for i in range(n)]
            out["busy"].append(await _busy(store, logs, seconds))
            await store.close()
        store = await SQLiteStore.open(str(folder / "pace.db"))
        logs = [distinct[i % len(distinct)] for i in range(max(sizes))]
        out["human_pace"] = await _human_pace(store, logs, pace_seconds, rng)
        await store.close()
        out["restore"] = await _restore(folder, restore_tables, rng)
    return out


def format_store_report(res: dict[str, Any]) -> str:
    """Return the figures as a small table."""
    lines = ["table log on SQLite (WAL, synchronous=NORMAL), group commit", ""]
    head = ("busy tables", "appends/s", "entries/s", "p50 ms", "p99 ms", "per commit")
    lines.append(f"{head[0]:>11} {head[1]:>10} {head[2]:>10} {head[3]:>8} {head[4]:>8} {head[5]:>11}")
    for r in res["busy"]:
        lines.append(
            f"{r['tables']:>11,} {r['appends_per_s']:>10,} {r['entries_per_s']:>10,} "
            f"{r['commit_p50_ms']:>8.2f} {r['commit_p99_ms']:>8.2f} {r['appends_per_commit']:>11.1f}"
        )
    p = res["human_pace"]
    lines += [
        "",
        f"human pace: {p['tables']:,} tables, a move every 1-2 s each, {p['moves']:,} moves: storing adds "
        f"p50 {p['added_p50_ms']:.2f} ms, p99 {p['added_p99_ms']:.2f} ms, max {p['added_max_ms']:.2f} ms "
        "(goal p99 < 5)",
    ]
    r = res["restore"]
    lines.append(
        f"restore: {r['tables']:,} open tables ({r['entries']:,} log entries) in {r['restore_s']:.2f} s (goal < 2 s)"
    )
    return "\n".join(lines)
