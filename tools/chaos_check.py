"""The checker of ``hearts bench chaos``: what the people were shown against what PostgreSQL stored, as Jepsen does.

Read after the run, straight from the database (not through any node):

- every table's log (``table_log``) is numbered 1..N without a gap, and its lease numbers never go down (a lower
  number after a higher one is a second writer that got in);
- every table's events are the fold of its log (``Table.restore``, the same fold a node makes): every event any
  person was shown must be the stored event at the number it was shown with. An event shown at a number the log
  does not reach is *shown, not stored*; an event shown with contents other than the stored one at its number is a
  *fork* (two histories were shown), and so is an event one person was shown twice with different contents;
- every finished game in the log (a ``game_over`` event) is recorded in ``games`` with exactly the plays of the log
  (the replay); every game a seat was told of (``table.replay``) is there; since every shown event equals the log's,
  the replay equals what its seats were shown.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from hartenjagen.server.table.state import DamagedLog
from hartenjagen.server.table.table import Table


class _Folded(Table):
    """A table folded from its log that keeps every event it emits (a live table keeps only the latest 500)."""

    def emit(self, kind: str, **fields: Any) -> None:
        """Number and keep one public event, and remember it."""
        super().emit(kind, **fields)
        self.__dict__.setdefault("all_events", []).append(self.events[-1])


def fold_events(table_id: str, entries: list[str]) -> dict[int, dict[str, Any]]:
    """Every event the log of table ``table_id`` makes, by number, as the wire carries them."""
    table = _Folded.restore(table_id, entries, grace=30.0)
    events = table.__dict__.get("all_events", [])
    return {e["seq"]: json.loads(json.dumps(e)) for e in events}


def game_plays(events: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """The plays (seat, card) of a stored game's events, in order."""
    return [(e["seat"], e["card"]) for e in events if e.get("type") == "play"]


def log_games(events: dict[int, dict[str, Any]]) -> list[list[tuple[int, str]]]:
    """The plays of every game the log finished, in order: from its first deal to its ``game_over``."""
    games, plays = [], []
    for seq in sorted(events):
        e = events[seq]
        if e["type"] == "deal" and e.get("hand_no") == 0:
            plays = []
        elif e["type"] == "play":
            plays.append((e["seat"], e["card"]))
        elif e["type"] == "game_over":
            games.append(plays)
            plays = []
    return games


@dataclass
class Verdict:
    """What the checker found."""

    tables: int = 0
    log_rows: int = 0
    events_shown: int = 0
    shown_not_stored: int = 0
    forks: int = 0
    log_gaps: int = 0
    lease_regressions: int = 0
    lease_handovers: int = 0  # a table's log went on under a newer lease (adopted, or claimed again)
    damaged_logs: int = 0
    games: int = 0
    games_not_recorded: int = 0
    replay_mismatches: int = 0
    replays_missing: int = 0
    examples: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        """Keep a few examples of what went wrong, for the report."""
        if len(self.examples) < 12:
            self.examples.append(text)

    @property
    def clean(self) -> bool:
        """Nothing lost, nothing forked, every log and replay whole."""
        return not (
            self.shown_not_stored or self.forks or self.log_gaps or self.lease_regressions or self.damaged_logs
            or self.games_not_recorded or self.replay_mismatches or self.replays_missing
        )  # fmt: skip


async def check(url: str, people: list[Any]) -> Verdict:
    """Check every person's record (``chaos_people.Person``) against the database at ``url``."""
    import asyncpg

    conn = await asyncpg.connect(url, timeout=30)
    try:
        tables = await conn.fetch("SELECT id, code FROM tables ORDER BY opened_at, id")
        rows = await conn.fetch("SELECT table_id, n, entry, lease FROM table_log ORDER BY table_id, n")
        stored_games = await conn.fetch("SELECT id, table_id, events FROM games ORDER BY finished_at, id")
    finally:
        await conn.close()
    v = Verdict(tables=len(tables), log_rows=len(rows))
    logs: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        logs[row["table_id"]].append(row)
    by_code: dict[str, list[str]] = defaultdict(list)
    folded: dict[str, dict[int, dict[str, Any]]] = {}
    for t in tables:
        by_code[t["code"]].append(t["id"])
        log = logs.get(t["id"], [])
        if [r["n"] for r in log] != list(range(1, len(log) + 1)):
            v.log_gaps += 1
            v.note(f"table {t['code']}: the log is not numbered 1..{len(log)}")
        leases = [r["lease"] for r in log]
        for before, after in zip(leases, leases[1:], strict=False):
            if before is None or after is None or after < before:
                v.lease_regressions += 1
                v.note(f"table {t['code']}: lease {after} after {before}")
            elif after > before:
                v.lease_handovers += 1
        if not log:
            folded[t["id"]] = {}
            continue
        try:
            folded[t["id"]] = fold_events(t["id"], [r["entry"] for r in log])
        except DamagedLog as exc:
            v.damaged_logs += 1
            v.note(f"table {t['code']}: the log does not fold: {exc}")
            folded[t["id"]] = {}

    games_of: dict[str, list[Any]] = defaultdict(list)
    game_ids = set()
    for g in stored_games:
        games_of[g["table_id"]].append(g)
        game_ids.add(g["id"])
    for table_id, events in folded.items():
        finished = log_games(events)
        recorded = [game_plays(json.loads(g["events"] or "[]")) for g in games_of.get(table_id, [])]
        v.games += len(finished)
        unmatched = list(recorded)
        for plays in finished:
            if plays in unmatched:
                unmatched.remove(plays)
            else:
                v.games_not_recorded += 1
                v.note(f"table {table_id}: a game the log finished is not in games with the same plays")
        v.replay_mismatches += len(unmatched)
        for _ in unmatched:
            v.note(f"table {table_id}: a recorded game's plays are no game of its log")

    for person in people:
        v.forks += len(person.forks)
        for code, seq, first, second in person.forks[:2]:
            v.note(f"{person.label} was shown event {seq} of {code} twice: {first} then {second}")
        for code, shown in person.shown.items():
            v.events_shown += len(shown)
            candidates = [folded.get(t, {}) for t in by_code.get(code, [])]
            if not candidates:
                v.shown_not_stored += len(shown)
                v.note(f"{person.label} was shown table {code}, which the database does not hold")
                continue
            best = max(candidates, key=lambda ev: sum(ev.get(s) == e for s, e in shown.items()))
            for seq, event in shown.items():
                stored = best.get(seq)
                if stored is None:
                    v.shown_not_stored += 1
                    v.note(f"{person.label} was shown event {seq} of {code} ({event['type']}): not in the log")
                elif stored != event:
                    v.forks += 1
                    v.note(f"{person.label} was shown event {seq} of {code} as {event}; the log has {stored}")
        for game_id, code in person.games.items():
            if game_id not in game_ids:
                v.replays_missing += 1
                v.note(f"{person.label} was told of game {game_id} at {code}: not in games")
    return v
