"""The websocket player of ``tools/image_check.sh``: one scripted person against three hard computer players.

It drives the server with the project's scripted client (``tools/wsclient.py``), so it runs on the checkout's
``.venv`` or inside the image. Three commands, each printing one summary line on stdout (with a second line for
``mid``: the saved seat as JSON) and exiting 1 when its check fails:

- ``game --port P``: a whole classic game to 25 points; the computer moves' times as the client sees them.
- ``mid --port P``: a second table left mid-hand (the person's turn, two tricks played); prints its seat.
- ``resume --port P --saved JSON``: that seat resumed (``joined`` and a restored ``table``), one more card played
  and the next computer move seen.

The person passes the first ``pass_count`` cards of its hand, plays ``legal[0]``, chooses ``others`` after a moon
and says ``ready`` between hands (``wsclient.next_intent``); ``update`` messages are folded into the last ``table``
as the browser does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from typing import Any

from hartenjagen.tools.wsclient import ScriptedClient, next_intent

WAIT = 30.0  # seconds any one expected message may take (the server's own decision timeout is 5 s)
DECISION_LIMIT = 5.0  # a computer move later than this (as the client sees it) fails the game check
COMPUTER_MOVES = ("play", "passed", "moon")


class Person(ScriptedClient):
    """The shared scripted client (``tools/wsclient.py``), timing every computer move its table messages show."""

    def __init__(self, ws: Any, label: str = "") -> None:
        self.mark = time.perf_counter()  # when the last thing happened: our own message or a shown event
        # one entry per message that shows computer moves: (the first move's type, seconds since the previous
        # mark); moves that arrive together in one message were timed as one
        self.times: list[tuple[str, float]] = []
        self.moves = 0  # computer moves seen, all of them
        super().__init__(ws, label)

    @classmethod
    async def open_at(cls, port: int, name: str, token: str | None = None) -> Person:
        """Connect to ``ws://127.0.0.1:port/ws`` and say hello (with a player token to be a known player)."""
        return await cls.open(f"ws://127.0.0.1:{port}/ws", name, token)

    def received(self, msg: dict[str, Any]) -> None:
        """Time the computer moves a table message shows."""
        if msg.get("type") != "table":
            return
        now, me, first = time.perf_counter(), msg.get("you"), True
        for event in msg.get("events") or []:
            if event["type"] in COMPUTER_MOVES and event.get("seat") != me:
                self.moves += 1
                if first:
                    self.times.append((event["type"], now - self.mark))
                    first = False
        if msg.get("events"):
            self.mark = now

    async def send(self, type: str, **fields: Any) -> None:
        """Send one message; the clock of the next computer move starts now."""
        self.mark = time.perf_counter()
        await super().send(type, **fields)

    async def until(self, ready: Any, what: str, timeout: float = WAIT) -> None:
        """Wait until ``ready()`` holds; fail with the last table after ``timeout`` seconds."""
        try:
            await self.wait(ready, timeout, what)
        except TimeoutError:
            t = self.table or {}
            shown = {k: t.get(k) for k in ("seq", "status", "events")} | {"view": _brief(t.get("view"))}
            raise RuntimeError(f"waited {timeout:g} s for {what}; closed={self.closed}; last table: {shown}") from None

    async def move(self) -> bool:
        """Make this seat's move when the game waits for it; return False when there was none to make."""
        intent = next_intent(self.table)
        if intent is None:
            return False
        await self.send(**intent)
        return True

    async def next_change(self, seq: int) -> None:
        """Wait for the table to move past event number ``seq``."""
        await self.until(lambda: self.table["seq"] > seq, f"a change after event {seq}")


def _brief(view: dict[str, Any] | None) -> dict[str, Any] | None:
    """Return the few view fields that tell where a game stands (for a failure's message)."""
    keys = ("phase", "hand_no", "turn", "to_act", "hand", "legal", "trick")
    return {k: view.get(k) for k in keys} if view else None


async def new_table(port: int, name: str) -> Person:
    """Create a classic table to 25 points with three hard computer players and start it."""
    person = await Person.open_at(port, name)
    await person.send("create", options={"variant": "classic", "end_score": 25}, computer_level="hard")
    person.joined = await person.expect("joined")
    await person.expect("table")
    await person.send("fill_computers", level="hard")
    await person.send("start")
    await person.until(lambda: person.table["status"] != "waiting", "the first deal")
    return person


def ms(seconds: float) -> str:
    """Format seconds as whole milliseconds."""
    return f"{seconds * 1000:.0f} ms"


async def game(port: int) -> tuple[bool, str]:
    """Play a whole game; pass when it finishes and no computer move took over ``DECISION_LIMIT`` seconds."""
    started = time.perf_counter()
    anna = await new_table(port, "Anna")
    try:
        for _ in range(5000):
            t = anna.table
            if t["status"] == "finished":
                break
            seq = t["seq"]
            await anna.move()
            await anna.next_change(seq)
        else:
            return False, "the game did not end after 5,000 changes"
        t = anna.table
        times = [s for _, s in anna.times]
        plays = [s for kind, s in anna.times if kind == "play"]
        passes = [s for kind, s in anna.times if kind == "passed"]
        slow = [s for s in times if s > DECISION_LIMIT]
        totals = t["view"]["totals"]
        took = time.perf_counter() - started
        line = f"game over after {len(t['view']['history'])} hands in {took:.1f} s, totals {totals}"
        if len(plays) < 2:
            return False, f"{line}; but only {len(plays)} computer card plays were seen in the events"
        slowest = max(range(len(times)), key=times.__getitem__)
        line += (
            f"; {anna.moves} computer moves, seen in {len(times)} messages, each timed from the move or message "
            f"before it: card plays p50 {ms(statistics.median(plays))}, p90 {ms(statistics.quantiles(plays, n=10)[-1])}"
            f", max {ms(max(plays))}; passes max {ms(max(passes)) if passes else '-'}; the slowest was message "
            f"{slowest + 1} of {len(times)}; over {DECISION_LIMIT:g} s: {len(slow)}"
        )
        return not slow and max(totals) >= 25, line
    finally:
        await anna.close()


async def mid(port: int) -> tuple[bool, str]:
    """Leave a second table in the middle of a hand, at the person's turn; the seat goes out as JSON."""
    bram = await new_table(port, "Bram")
    try:
        for _ in range(500):
            t = bram.table
            v = t["view"]
            if v["phase"] == "playing" and len(v["tricks"]) >= 2 and v["seat"] in v["to_act"]:
                break
            seq = t["seq"]
            await bram.move()
            await bram.next_change(seq)
        else:
            return False, "the second table never came to the person's turn after two tricks"
        saved = {
            "code": bram.joined["code"],
            "seat_token": bram.joined["seat_token"],
            "player_token": bram.welcome["player_token"],
            "seq": t["seq"],
            "hand_no": v["hand_no"],
            "hand": v["hand"],
        }
        line = f"table {saved['code']} left at hand {v['hand_no'] + 1}, trick {len(v['tricks']) + 1}, event {t['seq']}"
        return True, line + "\n" + json.dumps(saved)
    finally:
        await bram.close()


async def resume(port: int, saved: dict[str, Any]) -> tuple[bool, str]:
    """Resume the saved seat; the table must be the one left (same hand, same cards) and play on."""
    bram = await Person.open_at(port, "Bram", saved["player_token"])
    try:
        await bram.send("resume", code=saved["code"], seat_token=saved["seat_token"], last_seq=saved["seq"])
        joined = await bram.expect("joined")
        table = await bram.expect("table")
        v = table["view"]
        same = (
            table["status"] == "playing" and v["hand_no"] == saved["hand_no"] and v["hand"] == saved["hand"]
            and table["seq"] >= saved["seq"] and v["seat"] in v["to_act"]
        )  # fmt: skip
        if not same:
            return False, f"joined seat {joined['seat']} but the table is not the one left: {table}"
        card = v["legal"][0]
        bram.times.clear()
        await bram.send("play", card=card)
        await bram.until(lambda: bool(bram.times), "a computer move after ours", timeout=WAIT)
        kind, first = bram.times[0]
        line = (
            f"resumed {saved['code']}: joined seat {joined['seat']}, table at hand {v['hand_no'] + 1} with the same "
            f"{len(v['hand'])} cards (resumed: {table['resumed']}); played {card}, next computer {kind} {ms(first)}"
        )
        return first <= DECISION_LIMIT, line
    finally:
        await bram.close()


def main() -> int:
    """Run one command; print its line; 0 when the check passed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("game", "mid", "resume"))
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--saved", help="the JSON that 'mid' printed (for 'resume')")
    args = parser.parse_args()
    try:
        if args.command == "game":
            passed, line = asyncio.run(game(args.port))
        elif args.command == "mid":
            passed, line = asyncio.run(mid(args.port))
        else:
            passed, line = asyncio.run(resume(args.port, json.loads(args.saved)))
    except Exception as exc:  # any failure is this check's failure, told on its one line
        passed, line = False, f"{type(exc).__name__}: {exc}"[:2000]
    print(line, flush=True)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
