"""Crash-test kit: real ``hearts serve`` processes, a websocket client that reads in the background,
and a planner that finds numbered deals and a play sequence in which one seat shoots the moon."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hartenjagen.server.settings import MACHINE_PACE, one_address_flags, serve_flags
from hartenjagen.shared.cards import CARD_NAMES, HEARTS_MASK, mask_cards
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import Game
from hartenjagen.shared.legal import legal_mask
from hartenjagen.shared.rules import Rules
from hartenjagen.tools.wsclient import ScriptedClient

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 8.0
SERVING = re.compile(r"Hartenjagen serving on http://127\.0\.0\.1:(\d+)/")

# --------------------------------------------------------------------------- the moon planner


def _moon_line(rules: Rules, hands: list[int], shooter: int, node_limit: int) -> list[int] | None:
    """Depth-first search for a play order (cards, in play order) in which ``shooter`` takes every penalty card."""
    penalty = rules.penalty_mask
    points = rules.card_points
    hands = list(hands)
    line: list[int] = []
    nodes = 0

    if rules.first_lead >= 0:
        leader = next(s for s in range(4) if hands[s] >> rules.first_lead & 1)
    else:
        leader = (rules.dealer(0) + 1) % 4

    def winner_of(trick: list[int], lead_seat: int) -> int:
        suit = trick[0] // 13
        best = max(range(len(trick)), key=lambda i: trick[i] if trick[i] // 13 == suit else -1)
        return (lead_seat + best) % 4

    def order(seat: int, legal: int, trick: list[int], lead_seat: int) -> list[int]:
        cards = list(mask_cards(legal))
        if seat == shooter:
            if not trick:  # lead the highest card: the shooter must win every trick with points
                return sorted(cards, key=lambda c: (-(c % 13), c))
            led = trick[0] // 13
            # follow high to win; when void, throw non-penalty cards first
            return sorted(cards, key=lambda c: (c // 13 != led, bool(penalty >> c & 1), -(c % 13)))
        shooter_pos = (shooter - lead_seat) % 4
        if trick and shooter_pos < len(trick) and winner_of(trick, lead_seat) == shooter:
            led = trick[0] // 13
            top = max(c for c in trick if c // 13 == led)

            def beats(c: int) -> bool:
                return c // 13 == led and c > top

            # the shooter holds the trick: hand it points, never beat it
            return sorted(cards, key=lambda c: (beats(c), -points[c], -(c % 13)))
        # the shooter has yet to play (or lost this trick): stay low, points only on tricks it can still take
        return sorted(cards, key=lambda c: (c % 13, -points[c]))

    def dfs(lead_seat: int, trick: list[int], done: int, broken: bool) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > node_limit:
            return False
        if done == rules.hand_size:
            return True
        seat = (lead_seat + len(trick)) % 4
        led = trick[0] // 13 if trick else -1
        legal = legal_mask(rules, hands[seat], led, done == 0, broken)
        for c in order(seat, legal, trick, lead_seat):
            bit = 1 << c
            hands[seat] ^= bit
            line.append(c)
            now_broken = broken or bool(bit & HEARTS_MASK) or (c == 49 and rules.queen_breaks_hearts)
            trick.append(c)
            if len(trick) == 4:
                win = winner_of(trick, lead_seat)
                ok = win == shooter or not any(penalty >> t & 1 for t in trick)
                if ok and dfs(win, [], done + 1, now_broken):
                    return True
            elif dfs(lead_seat, trick, done, now_broken):
                return True
            trick.pop()
            line.pop()
            hands[seat] ^= bit
            if nodes > node_limit:
                return False
        return False

    return list(line) if dfs(leader, [], 0, False) else None


def plan_moon(rules: Rules, first_deal: int = 1, tries: int = 4000, node_limit: int = 400) -> tuple[int, int, list]:
    """Return ``(deal, shooter, plays)``: numbered deal ``deal`` whose first hand (no passing) lets ``shooter``
    take every penalty card when the seats play ``plays`` (a list of ``(seat, card_name)``) in order."""
    assert rules.pass_offset(0) == 0, "the planner needs a first hand without passing"
    for deal in range(first_deal, first_deal + tries):
        hands = seeded_deal(rules, deal, 0)
        # the likeliest shooter first: the seat with the most high cards
        seats = sorted(range(4), key=lambda s: -sum(c % 13 for c in mask_cards(hands[s]) if c % 13 >= 9))
        for shooter in seats[:2]:
            cards = _moon_line(rules, hands, shooter, node_limit)
            if cards is None:
                continue
            game = Game(rules)
            game.deal_seeded(deal)
            plays = []
            for c in cards:
                seat = game.turn
                game.play(seat, c)
                plays.append((seat, CARD_NAMES[c]))
            shot = game.moon_seat if game.phase == "moon_choice" else game.history[-1]["moon"]
            assert shot == shooter, (deal, shooter, shot)
            return deal, shooter, plays
    raise AssertionError("no moon deal found")


# --------------------------------------------------------------------------- real server processes


class ServerProcess:
    """``python -m hartenjagen.server.cli serve`` on port 0 in its own process group; stdout and stderr go to files."""

    def __init__(
        self,
        db: Path | str,
        logs: Path,
        name: str,
        grace: float = 30.0,
        extra: list[str] = (),
        preexec: Callable[[], None] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.db, self.name, self.grace, self.extra, self.preexec = db, name, grace, list(extra), preexec
        self.env = env or {}  # HEARTS_* variables of its own (the test's are never passed on)
        self.out = logs / f"{name}.out"
        self.err = logs / f"{name}.err"
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None

    def start(self, timeout: float = 30.0) -> ServerProcess:
        cmd = [
            sys.executable, "-m", "hartenjagen.server.cli", "serve", "--host", "127.0.0.1", "--port", "0",
            "--db", str(self.db), "--bot-delay", "0", "--grace", str(self.grace), "--bot-workers", "0",
            *one_address_flags(), *serve_flags(MACHINE_PACE), *self.extra,
        ]  # fmt: skip
        env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
        env["PYTHONUNBUFFERED"] = "1"
        env.update(self.env)
        with open(self.out, "wb") as out, open(self.err, "wb") as err:
            self.proc = subprocess.Popen(
                cmd,
                cwd=ROOT,
                stdout=out,
                stderr=err,
                stdin=subprocess.DEVNULL,
                env=env,
                start_new_session=True,
                preexec_fn=self.preexec,  # e.g. a lower open-file limit
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = SERVING.search(self.out.read_text(errors="replace"))
            if m:
                self.port = int(m.group(1))
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        raise AssertionError(f"{self.name} did not start (rc {self.proc.poll()}):\n{self.stderr()}")

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def tail(self, lines: int = 30) -> str:
        """The last lines of the server's output and error log."""
        text = self.out.read_text(errors="replace") + self.stderr()
        return "\n".join(text.splitlines()[-lines:])

    def stderr(self) -> str:
        return self.err.read_text(errors="replace") if self.err.exists() else ""

    async def signal(self, sig: int, timeout: float = 10.0) -> int:
        """Send ``sig`` to the server process itself and wait for it to exit; return its exit code.

        The wait polls, so the clients in this event loop go on reading (and answer the closing handshake).
        """
        # a process that already ended may have its id given to another (ids wrap at 32768 here): never signal it
        assert self.proc.poll() is None, f"{self.name} already exited ({self.proc.returncode}):\n{self.tail()}"
        os.kill(self.proc.pid, sig)
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None:
            assert time.monotonic() < deadline, (
                f"{self.name} did not exit within {timeout} s after signal {sig}; its log ends:\n{self.tail()}"
            )
            await asyncio.sleep(0.01)
        return self.proc.returncode

    async def crash(self) -> int:
        """``kill -9`` the server."""
        rc = await self.signal(signal.SIGKILL)
        assert rc == -signal.SIGKILL, rc
        return rc

    def cleanup(self) -> None:
        """Kill whatever is left of this server's process group (always safe to call)."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass


# --------------------------------------------------------------------------- a websocket client


class Client(ScriptedClient):
    """The shared scripted client (``tools/wsclient.py``), with a wait for a table event number."""

    async def until_seq(self, seq: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        await self.wait(lambda: self.table is not None and self.table["seq"] >= seq, timeout, f"table seq {seq}")
        return self.table


async def settled(servers: ServerProcess | list[ServerProcess], clients: list[Client] = (), timeout: float = TIMEOUT):
    """Wait, without a clock, until the servers have nothing under way (no computer move being made, no change
    waiting for its commit: ``/healthz``), then until each client has read everything they sent (ping, pong)."""
    import json
    import urllib.request

    def quiet(srv: ServerProcess) -> bool:
        with urllib.request.urlopen(f"http://127.0.0.1:{srv.port}/healthz", timeout=5) as resp:
            return json.loads(resp.read())["under_way"] == {"computer_moves": 0, "waiting_commits": 0}

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    for srv in servers if isinstance(servers, list) else [servers]:
        while not await asyncio.to_thread(quiet, srv):
            assert loop.time() < deadline, f"{srv.name} never settled"
            await asyncio.sleep(0.02)
    for c in clients:
        await c.sync(timeout)


async def close_all(clients: list[Client]) -> None:
    for c in clients:
        if c.closed:
            await asyncio.gather(c._reader, return_exceptions=True)
        else:
            try:
                await asyncio.wait_for(c.close(), 2)
            except (TimeoutError, OSError):
                c.abandon()
