"""Who moves automatically, and when a table needs a look: the turn timer, the grace period, the fill-in time.

Kept in a table's runtime (never stored). No clock is read here: the time is passed in.
"""

from __future__ import annotations

from hartenjagen.shared.game import MOON_CHOICE, PASSING, PLAYING

from .parts import Runtime, held
from .seat_kinds import SeatKind
from .state import PLAYING_STATUS, WAITING, TableState


class Turns:
    """A table's current decision point, its turn timer, and the seats a computer moves for now."""

    __slots__ = ("table", "runtime")

    def __init__(self, table: TableState, runtime: Runtime) -> None:
        self.table: TableState = held(table)
        self.runtime = runtime

    def current_key(self) -> tuple | None:
        """Return an identifier of the current decision point (changes when the game waits for something new)."""
        g = self.table.game
        if g is None or g.phase not in (PASSING, PLAYING, MOON_CHOICE) or self.table.status != PLAYING_STATUS:
            return None
        return (id(g), g.hand_no, g.phase, len(g.tricks), len(g.trick.cards))

    def refresh_deadline(self, now: float) -> None:
        """Start the turn timer when the game reaches a new decision point that waits for a person."""
        key, runtime = self.current_key(), self.runtime
        if key != runtime.decision_key:
            runtime.decision_key = key
            runtime.timed_out.clear()
            runtime.hints.clear()
            waits_for_human = key is not None and any(
                self.table.seats[s].kind == SeatKind.PERSON for s in self.table.current_game.to_act()
            )
            runtime.deadline = now + self.table.timer if (self.table.timer and waits_for_human) else None

    def expire_timer(self, now: float) -> bool:
        """Let a computer make the current move for people whose turn timer ran out; return True if so."""
        if self.runtime.deadline is None or now < self.runtime.deadline or self.table.game is None:
            return False
        self.runtime.deadline = None
        late = {s for s in self.table.game.to_act() if self.table.seats[s].kind == SeatKind.PERSON}
        self.runtime.timed_out |= late
        return bool(late)

    def next_wake(self, now: float, at: float) -> float | None:
        """Return the monotonic time this table next needs a look: its turn timer, a grace period's end, the fill-in.

        ``now`` and ``at`` are the same moment on the monotonic and the wall clock (the fill-in time is wall-clock).
        """
        times = [self.runtime.deadline] if self.runtime.deadline is not None else []
        if self.table.play_now and self.table.status == WAITING and self.table.fill_at is not None:
            times.append(now + max(0.0, self.table.fill_at - at))
        for s in self.table.persons():
            if s.connection is None and not s.away and s.disconnected_at is not None:
                times.append(s.disconnected_at + self.runtime.grace)
        return min(times) if times else None

    def auto_seats(self) -> list[int]:
        """Return the seats a computer player should move for now (nobody moves while no person is connected)."""
        if self.table.game is None or self.table.status != PLAYING_STATUS or not self.table.connected_persons():
            return []
        out, timed_out = [], self.runtime.timed_out
        for s in self.table.game.to_act():
            seat = self.table.seats[s]
            if seat.kind == SeatKind.COMPUTER or (seat.kind == SeatKind.PERSON and (seat.away or s in timed_out)):
                out.append(s)
        return out
