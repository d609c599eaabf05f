"""The live server state: open tables, connected clients, and the one dispatcher for client messages."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from shared.rules import RulesError, make_rules
from shared.view import view_for

from .computer import Thinker, fallback, fits
from .config import Config
from .db import Database
from .errors import ProtocolError
from .messages import PROTOCOL_VERSION, TIMER_MAX
from .ratelimit import FailureLimiter, TokenBucket
from .seat_view import hint_message, table_message
from .table import FINISHED, PLAYING_STATUS, Table, new_code

log = logging.getLogger("hearts.server")
OUTBOX_LIMIT = 200


class Client:
    """One websocket connection: who it is, where it sits, and its ordered outbox."""

    def __init__(self, ws: Any, address: str, config: Config) -> None:
        self.ws = ws
        self.address = address
        self.player_id: int | None = None
        self.name: str | None = None
        self.table: Table | None = None
        self.seat: int | None = None
        self.seen = 0
        self.bucket = TokenBucket(config.msg_rate, config.msg_burst)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()

    def push(self, message: dict[str, Any]) -> None:
        """Queue one message; a client that stops reading is cut off instead of growing memory."""
        if self.outbox.qsize() > OUTBOX_LIMIT:
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(json.dumps(message, separators=(",", ":")))

    async def writer(self) -> None:
        """Send queued messages in order until told to stop."""
        while True:
            text = await self.outbox.get()
            if text is None:
                await self.ws.close(1008, "not reading")
                return
            await self.ws.send(text)


class Hub:
    """Tables by code and every connected client; all table changes go through ``changed``."""

    def __init__(self, config: Config, db: Database, thinker: Thinker) -> None:
        self.config = config
        self.db = db
        self.thinker = thinker
        self.tables: dict[str, Table] = {}
        self.clients: set[Client] = set()
        self.guesses = FailureLimiter(config.code_failures, config.code_window)
        self._pending: dict[str, set[int]] = {}
        self._wake: dict[str, asyncio.TimerHandle] = {}
        self._idle: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task] = set()
        self._records: set[asyncio.Task] = set()

    # ------------------------------------------------------------------ plumbing

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def send_table(self, client: Client, resumed: str | None = None) -> None:
        """Send ``client`` its seat's table message with the events it has not seen."""
        table = client.table
        client.push(table_message(table, client.seat, client.seen, resumed))
        client.seen = table.seq

    def changed(self, table: Table) -> None:
        """After any change: away marks, next deal, timers, recording, broadcast, computer moves."""
        if self.tables.get(table.code) is not table:
            return
        now = time.monotonic()
        table.mark_away(now, self.config.grace)
        table.maybe_deal()
        table.refresh_deadline(now)
        if table.status == FINISHED and not table.recorded:
            table.recorded = True
            task = asyncio.get_running_loop().create_task(self._record(table.record()))
            self._records.add(task)
            task.add_done_callback(self._records.discard)
        for seat in table.seats:
            if seat.client is not None:
                self.send_table(seat.client)
        if not table.humans():
            self.close_table(table)
            return
        self._schedule_bots(table)
        self._schedule_wake(table, now)
        self._schedule_idle(table)

    async def _record(self, record: dict[str, Any]) -> None:
        try:
            await self.db.record_game(record)
        except Exception:
            log.exception("could not record the game of table %s", record["code"])

    def _schedule_bots(self, table: Table) -> None:
        pending = self._pending.setdefault(table.code, set())
        for s in table.auto_seats():
            if s not in pending:
                pending.add(s)
                self._spawn(self._computer_move(table, s))

    async def _computer_move(self, table: Table, s: int) -> None:
        try:
            key = table.current_key()
            seat = table.seats[s]
            level = seat.level if seat.kind == "bot" else table.bot_level
            for_human = seat.kind == "human"
            view = view_for(table.game, s)
            if self.config.bot_delay > 0:
                await asyncio.sleep(self.config.bot_delay)
            intent = await self.thinker.decide(level, view)
            if self.tables.get(table.code) is not table or table.current_key() != key or s not in table.auto_seats():
                return  # the table moved on (or the person came back) while the computer thought
            if not fits(intent, view):
                log.warning("computer %s chose %r at seat %s; playing a simple legal move", level, intent, s)
                intent = fallback(view)
            table.act(s, intent, auto=for_human)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer move failed at table %s seat %s", table.code, s)
        finally:
            self._pending.get(table.code, set()).discard(s)
            self.changed(table)

    def _schedule_wake(self, table: Table, now: float) -> None:
        handle = self._wake.pop(table.code, None)
        if handle is not None:
            handle.cancel()
        times = [table.deadline] if table.deadline is not None else []
        for s in table.humans():
            if s.client is None and not s.away and s.disconnected_at is not None:
                times.append(s.disconnected_at + self.config.grace)
        if times:
            delay = max(0.0, min(times) - now) + 0.01
            self._wake[table.code] = asyncio.get_running_loop().call_later(delay, self._wake_up, table)

    def _wake_up(self, table: Table) -> None:
        self._wake.pop(table.code, None)
        table.expire_timer(time.monotonic())
        self.changed(table)

    def _schedule_idle(self, table: Table) -> None:
        handle = self._idle.get(table.code)
        if table.connected_humans():
            if handle is not None:
                handle.cancel()
                del self._idle[table.code]
        elif handle is None:
            loop = asyncio.get_running_loop()
            self._idle[table.code] = loop.call_later(self.config.idle_timeout, self.close_table, table)

    def close_table(self, table: Table) -> None:
        """Forget a table (its finished games stay in the database)."""
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        for handles in (self._wake, self._idle):
            handle = handles.pop(table.code, None)
            if handle is not None:
                handle.cancel()
        self._pending.pop(table.code, None)
        for seat in table.seats:
            if seat.client is not None and seat.client.table is table:
                seat.client.table = seat.client.seat = None

    # ------------------------------------------------------------------ connections

    def disconnected(self, client: Client) -> None:
        """A connection closed: its seat stays reserved for the grace period."""
        self.clients.discard(client)
        table = client.table
        if table is not None and client.seat is not None and table.seats[client.seat].client is client:
            table.disconnect(client.seat, time.monotonic())
            client.table = client.seat = None
            self.changed(table)

    async def handle(self, client: Client, msg: dict[str, Any]) -> None:
        """Dispatch one checked message; raise ProtocolError to refuse it."""
        kind = msg["type"]
        if kind == "ping":
            client.push({"type": "pong"})
            return
        if client.player_id is None and kind != "hello":
            raise ProtocolError("hello_first")
        handler = getattr(self, "_on_" + kind)
        result = handler(client, msg)
        if asyncio.iscoroutine(result):
            await result

    async def _on_hello(self, client: Client, msg: dict[str, Any]) -> None:
        if msg["version"] != PROTOCOL_VERSION:
            raise ProtocolError("bad_version", version=msg["version"])
        pid, token, name = await self.db.player(msg["name"], msg.get("player_token"))
        client.player_id, client.name = pid, name
        client.push({"type": "welcome", "version": PROTOCOL_VERSION, "player_token": token, "name": name})

    def _check_free(self, client: Client) -> None:
        if client.table is not None:
            raise ProtocolError("already_seated", table=client.table.code)

    def _seated(self, client: Client) -> Table:
        if client.table is None or client.seat is None:
            raise ProtocolError("not_seated")
        return client.table

    def _find(self, client: Client, code: str) -> Table:
        if self.guesses.blocked(client.address):
            raise ProtocolError("rate_limited")
        table = self.tables.get(code)
        if table is None:
            self.guesses.fail(client.address)
            raise ProtocolError("unknown_table", table=code[:16])
        return table

    def _attach(self, client: Client, table: Table, seat: int) -> None:
        client.table, client.seat, client.seen = table, seat, table.seq
        s = table.seats[seat]
        client.push(
            {
                "type": "joined",
                "code": table.code,
                "seat": seat,
                "seat_token": s.token,
                "link": f"/t/{table.code}",
                "host": table.host == seat,
            }
        )

    def _on_create(self, client: Client, msg: dict[str, Any]) -> None:
        self._check_free(client)
        try:
            rules = make_rules(msg["options"])
        except RulesError as exc:
            raise ProtocolError("bad_option", field=exc.option, detail=str(exc)) from None
        except (TypeError, ValueError) as exc:
            raise ProtocolError("bad_option", field="options", detail=str(exc)) from None
        table = Table(new_code(self.tables), dict(rules.to_json()), rules, grace=self.config.grace)
        table.bot_level = msg.get("bot_level", "medium")
        self.tables[table.code] = table
        seat = table.seat_human(client, client.player_id, client.name, msg.get("seat", 0))
        self._attach(client, table, seat.index)
        self.changed(table)

    def _on_join(self, client: Client, msg: dict[str, Any]) -> None:
        self._check_free(client)
        table = self._find(client, msg["code"])
        seat = table.seat_human(client, client.player_id, client.name, msg.get("seat"))
        self._attach(client, table, seat.index)
        self.changed(table)

    def _on_resume(self, client: Client, msg: dict[str, Any]) -> None:
        self._check_free(client)
        table = self._find(client, msg["code"])
        seat = table.seat_by_token(msg["seat_token"])
        if seat is None:
            self.guesses.fail(client.address)
            raise ProtocolError("bad_token")
        old = seat.client
        if old is not None and old is not client:
            old.table = old.seat = None  # the newer connection wins the seat
            old.push({"type": "left", "code": table.code})
        table.reconnect(seat.index, client)
        self._attach(client, table, seat.index)
        last = msg.get("last_seq")
        if last is not None and table.events_since(min(last, table.seq)) is not None:
            client.seen, resumed = min(last, table.seq), "events"
        else:
            client.seen, resumed = table.seq, "snapshot"
        self.send_table(client, resumed)
        self.changed(table)

    def _on_sit(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        seat = table.move(client.seat, msg["seat"])
        client.seat = seat.index
        client.push(
            {
                "type": "joined",
                "code": table.code,
                "seat": seat.index,
                "seat_token": seat.token,
                "link": f"/t/{table.code}",
                "host": table.host == seat.index,
            }
        )
        self.changed(table)

    def _host_action(self, client: Client, method: str, *args: Any) -> None:
        table = self._seated(client)
        getattr(table, method)(client.seat, *args)
        self.changed(table)

    def _on_add_bot(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, "add_bot", msg["seat"], msg["level"])

    def _on_remove_bot(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, "remove_bot", msg["seat"])

    def _on_fill_bots(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, "fill_bots", msg["level"])

    def _on_start(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, "start")

    def _on_set_timer(self, client: Client, msg: dict[str, Any]) -> None:
        seconds, low = msg["seconds"], self.config.timer_min
        if seconds is not None and not low <= seconds <= TIMER_MAX:
            raise ProtocolError(
                "bad_message", field="seconds", detail=f"expected a whole number from {low} to {TIMER_MAX}"
            )
        self._host_action(client, "set_timer", seconds)

    def _on_new_game(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, "new_game")

    def _move(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        table.act(client.seat, msg)
        self.changed(table)

    _on_pass = _on_play = _on_moon = _move

    def _on_ready(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        table.set_ready(client.seat)
        self.changed(table)

    async def _on_hint(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        game, seat = table.game, client.seat
        if game is None or table.status != PLAYING_STATUS or seat not in game.to_act():
            raise ProtocolError("not_now", detail="a hint only when it is your move")
        if seat in table.hints:  # one hard-player search per decision, however often it is asked
            client.push(table.hints[seat])
            return
        key = table.current_key()
        view = view_for(game, seat)
        intent = await self.thinker.decide("hard", view)
        if not fits(intent, view):
            log.warning("the hard computer player hinted %r; hinting a simple legal move instead", intent)
            intent = fallback(view)
        if intent["type"] == "pass":
            answer = hint_message(list(intent["cards"]), None)
        elif intent["type"] == "play":
            answer = hint_message([intent["card"]], None)
        else:
            answer = hint_message([], intent["choice"])
        if table.current_key() == key == table.decision_key and client.seat == seat:
            table.hints[seat] = answer
        client.push(answer)

    def _on_leave(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        seat = client.seat
        client.table = client.seat = None
        client.push({"type": "left", "code": table.code})
        table.leave(seat)
        self.changed(table)

    def health(self) -> dict[str, Any]:
        """Return the ``/healthz`` body."""
        return {"status": "ok", "tables": len(self.tables), "connections": len(self.clients)}

    async def shutdown(self) -> None:
        """Cancel timers and computer moves; let games being recorded finish."""
        for handles in (self._wake, self._idle):
            for handle in handles.values():
                handle.cancel()
            handles.clear()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._records:
            await asyncio.wait(self._records, timeout=5)
