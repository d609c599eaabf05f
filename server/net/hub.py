"""Connected clients and the one dispatcher for their messages; tables live in ``server.tables``."""

from __future__ import annotations

import asyncio
import logging
import secrets
import sys
import time
from collections import deque
from typing import Any

from websockets.asyncio.server import broadcast

from hartenjagen.shared.bots.choice import fallback, fits
from hartenjagen.shared.rules import make_rules
from hartenjagen.shared.view import view_for

from ..config import Config
from ..live import lobby
from ..live.computer import Thinker
from ..live.lobby import Lobby
from ..live.registry import Tables
from ..live.reviews import Reviewer, ReviewRefused, game_name
from ..players.devices import DeviceCodes
from ..players.names import Names
from ..storage.opening import REDIS_ERRORS
from ..storage.store import ClusterUnavailable, Store, StoreBusy
from ..table import chat
from ..table.bundle import shared_hash
from ..table.codes import new_code, table_code
from ..table.daily import DAILY_LEVEL, daily_deal, today
from ..table.errors import ProtocolError
from ..table.jsontext import compact
from ..table.messages import PLAY_NOW_WAIT, PROTOCOL_VERSION, TIMER_MAX
from ..table.seat_view import Moment, full_message, hint_message, public_table
from ..table.state import bot_name
from ..table.table import PLAYING_STATUS, SeatKind, Table, check_seat, table_rules
from ..table.tokens import token_hash
from .closing import Close
from .ratelimit import FailureLimiter, TokenBucket

log = logging.getLogger("hearts.server")
LOCATED = frozenset(("join", "resume", "watch"))  # messages that name a table by its code

REPORTS_PER_HOUR = 5  # reports of other players one connection may send an hour
CHAT_AROUND = 20  # chat lines kept with a report (the table's latest, which are the lines around it)
WRITE_BUFFER_LIMIT = 256 * 1024  # bytes waiting in the server for a client that does not read (its kernel buffers full)


class Client:
    """One websocket connection: who it is, where it sits; messages go straight into its write buffer, in order."""

    def __init__(self, ws: Any, address: str, config: Config) -> None:
        self.ws = ws
        self.address = address
        self.player_id: int | None = None
        self.name: str | None = None
        self.table: Table | None = None
        self.seat: int | None = None
        self.seen = 0
        self.shown: dict[str, Any] | None = None  # the last table state sent (updates are cut against it)
        self.shown_moment: Any = None  # the table moment that state was built from (seat_view.Moment)
        self.bucket = TokenBucket(config.msg_rate, config.msg_burst)
        self.guesses = FailureLimiter(config.code_failures, config.code_window)
        self.closing: asyncio.Task | None = None
        self.remote: str | None = None  # in a cluster: the node that owns the table this connection plays at
        self.edge: str | None = None  # in a cluster: the node that holds this connection (relay.RemoteClient)
        self.cid = ""  # the relay's id of this connection while it is relayed
        self.chat_sent: deque[float] = deque()  # when this connection's recent chat lines went out (server.chat)
        self.play_now = TokenBucket(config.play_now_rate / 60, config.play_now_rate)  # "Play now" presses
        self.reports = TokenBucket(REPORTS_PER_HOUR / 3600, REPORTS_PER_HOUR)
        # what it reads (server.liveness): characters sent, characters known read (answered pings), the ping out
        self.sent = self.read = self.ping_mark = 0
        self.ping_at = time.monotonic()
        self.pong: asyncio.Future | None = None
        self.stalled = False
        self.gone: Any = None  # the hub's ``disconnected``, called at once when the client is cut off
        self.token_hash: str | None = None  # the hash of the player token it greeted with (which device this is)

    def push(self, message: dict[str, Any] | str) -> None:
        """Write one message (or its JSON text) now, in order; a client that stops reading is cut off."""
        if self.closing is not None:
            return  # nothing goes out after the close
        transport = self.ws.transport
        if transport is not None and transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
            self.close_soon(Close.NOT_READING)
            return
        text = message if type(message) is str else compact(message)
        self.sent += len(text)
        broadcast((self.ws,), text)

    def close_soon(self, why: Close) -> None:
        """Close the connection for ``why`` after the messages written before (and none after).

        A client cut off for not reading leaves its seat at once: its closing handshake, which it will not read,
        would otherwise hold the seat for the library's close timeout.
        """
        if self.closing is None:
            loop = asyncio.get_running_loop()
            self.closing = loop.create_task(self.ws.close(why.code, why.reason))
            if why is Close.NOT_READING and self.gone is not None:
                loop.call_soon(self.gone, self)


class Hub:
    """Checks who may do what and hands each message to its table; every change then goes through ``changed``."""

    def __init__(self, config: Config, store: Store, thinker: Thinker, cluster: Any = None) -> None:
        self.config = config
        self.store = store
        self.thinker = thinker
        self.cluster = cluster
        self.tables = Tables(config, store, thinker, cluster)
        self.clients: set[Client] = set()
        self.guesses = FailureLimiter(config.address_failures, config.code_window)
        self.daily_key = ""  # the store's secret for daily deals, loaded by the app before it serves
        self.relay: Any = None  # in a cluster: the links to other nodes (relay.Relay), set by the app
        self.reviewer = Reviewer(store, config.review_ms)
        self.devices = DeviceCodes(store)
        self.lobby = Lobby(self.tables, store, cluster)
        self.names = Names(config.blocked_names)
        self._reviews: set[asyncio.Task] = set()
        self.headroom: Any = None  # the app's connection count against the open-file limit (server.sockets)

    def changed(self, table: Table) -> None:
        """After any change: store the table's log, then broadcast (see ``Tables.changed``)."""
        self.tables.changed(table)

    def send_table(self, client: Client, resumed: str | None = None) -> None:
        """Send ``client`` its seat's table message with the events it has not seen (after the log is stored)."""
        table = client.table
        self.tables.send(table, client, full_message(table, client, Moment(table, time.monotonic()), resumed))

    # ------------------------------------------------------------------ connections

    def disconnected(self, client: Client) -> None:
        """A connection closed: its seat stays reserved for the grace period."""
        self.clients.discard(client)
        if client.remote is not None:
            self.relay.gone(client)
            return
        table = client.table
        if table is not None and client in table.watchers:
            self._unwatch(client, table)
            self.changed(table)
        elif table is not None and client.seat is not None and table.seats[client.seat].client is client:
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
        if client.remote is not None and kind != "hello":
            self.relay.forward(client, msg)  # the connection plays at another node's table
            return
        if kind in LOCATED and msg["code"] not in self.tables.by_code and client.table is None:
            if await self._locate(client, msg):
                return
        if client.table is not None:
            client.table.check_command(kind)  # e.g. no host command at a Play now table
        result = HANDLERS[kind](self, client, msg)
        if asyncio.iscoroutine(result):
            await result

    async def _locate(self, client: Client, msg: dict[str, Any]) -> bool:
        """A code not open here: relay to the node that owns it (True), or restore it here from the database.

        Without a cluster only a table parked while the database was down is restored. In a cluster the table is
        restored here when nobody holds it or its node died. Redis down: ``cluster_unavailable``; the database
        down: ``server_busy`` (the connection closes with 1013 and the client comes back by itself).
        """
        code = msg["code"]
        if self._guessing(client) and msg["type"] != "resume":
            return False  # the handler refuses it (rate_limited) without asking anyone
        try:
            if self.cluster is None:
                if code in self.tables.parked:
                    await self.tables.fetch(code)
                return False
            found = await self.cluster.lookup(code)
            if found is None:
                return False
            _, holder, alive = found
            if holder is not None and holder != self.cluster.node and alive:
                self.relay.open(client, holder, msg)
                return True
            await self.tables.fetch(code)
        except StoreBusy:
            raise ProtocolError("server_busy") from None
        except REDIS_ERRORS as exc:
            self.cluster.mark_down(exc)
            raise ProtocolError("cluster_unavailable") from None
        return False

    async def _on_hello(self, client: Client, msg: dict[str, Any]) -> None:
        if msg["version"] != PROTOCOL_VERSION:
            raise ProtocolError("bad_version", version=msg["version"])
        if client.player_id is not None:
            raise ProtocolError("hello_once")  # a connection keeps the player it greeted with
        if self.names.blocked(msg["name"]):
            raise ProtocolError("bad_name")
        try:
            pid, token, name = await self.store.player(msg["name"], msg.get("player_token"))
        except StoreBusy:
            raise ProtocolError("server_busy") from None
        client.player_id, client.name, client.token_hash = pid, name, token_hash(token)
        client.push({"type": "welcome", "version": PROTOCOL_VERSION, "player_token": token, "name": name})

    async def _on_device_code(self, client: Client, msg: dict[str, Any]) -> None:
        headers = client.ws.request.headers if getattr(client.ws, "request", None) is not None else {}
        origin = headers.get("Origin", "") or ""
        origin = origin if origin.startswith(("http://", "https://")) and len(origin) <= 200 else ""
        try:
            client.push(await self.devices.ask(client.player_id, origin))
        except StoreBusy:
            raise ProtocolError("server_busy") from None

    async def _on_use_device_code(self, client: Client, msg: dict[str, Any]) -> None:
        if self._guessing(client):
            raise ProtocolError("rate_limited")
        try:
            found = await self.devices.use(msg["code"], msg.get("label", ""))
        except StoreBusy:
            raise ProtocolError("server_busy") from None
        if found is None:
            raise self._failed(client, "unknown_device_code")
        pid, token, name = found
        client.player_id, client.name, client.token_hash = pid, name, token_hash(token)
        client.push({"type": "device_joined", "player_token": token, "name": name})

    async def _on_devices(self, client: Client, msg: dict[str, Any]) -> None:
        try:
            listing = await self.devices.listing(client.player_id, client.token_hash)
        except StoreBusy:
            raise ProtocolError("server_busy") from None
        if client.token_hash is not None and not any(d["this"] for d in listing["devices"]):
            client.close_soon(Close.SIGNED_OUT)  # this device was signed out (a node that missed the notice)
            return
        client.push(listing)

    async def _on_sign_out_device(self, client: Client, msg: dict[str, Any]) -> None:
        device = msg["device"]
        try:
            await self.store.drop_device(client.player_id, device)
            client.push(await self.devices.listing(client.player_id, client.token_hash))
        except StoreBusy:
            raise ProtocolError("server_busy") from None
        self.signed_out(client.player_id, device)
        if self.cluster is not None:
            await self.cluster.sign_out(client.player_id, device)  # every other node does the same

    def signed_out(self, player_id: int, device: str) -> None:
        """Device ``device`` no longer holds ``player_id`` (signed out here or on another node).

        Its token leaves the cache of returning players and its open connections here close (``SIGNED_OUT``).
        """
        self.store.forget_device(player_id, device)
        for other in list(self.clients):
            if other.player_id == player_id and other.token_hash is not None and other.token_hash[:16] == device:
                other.close_soon(Close.SIGNED_OUT)

    def _check_free(self, client: Client) -> None:
        if client.table is not None:
            raise ProtocolError("already_seated", table=client.table.code)

    def _seated(self, client: Client) -> Table:
        if client.table is None or client.seat is None:
            raise ProtocolError("not_seated")
        return client.table

    def _guessing(self, client: Client) -> bool:
        """Return True while this connection, or its address, has failed too often lately."""
        return client.guesses.blocked("") or self.guesses.blocked(client.address)

    def _failed(self, client: Client, code: str, **params: Any) -> ProtocolError:
        """Count a wrong code or token against the connection and its address; return the refusal to raise."""
        if self._guessing(client):
            return ProtocolError("rate_limited")
        client.guesses.fail("")
        self.guesses.fail(client.address)
        return ProtocolError(code, **params)

    def _find(self, client: Client, code: str) -> Table:
        if self._guessing(client):
            raise ProtocolError("rate_limited")
        table = self.tables.get(code)
        if table is None:
            raise self._failed(client, "unknown_table", table=code[:16])
        return table

    def _rate_seats(self, table: Table) -> None:
        """At an open table of a rated family: load the seated people's ratings, then show them to the table."""
        self.tables.load_ratings(table)  # the one reader, also after every rated game is stored

    def _spawn(self, coro: Any) -> None:
        """Run ``coro`` beside the connection's messages (cancelled at shutdown with the reviews)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._reviews.add(task)
        task.add_done_callback(self._reviews.discard)

    def _attach(self, client: Client, table: Table, seat: int, token: str | None) -> None:
        self._rate_seats(table)
        client.table, client.seat, client.seen, client.shown = table, seat, table.seq, None
        client.shown_moment = None
        self.tables.send(
            table,
            client,
            {
                "type": "joined",
                "code": table.code,
                "seat": seat,
                "seat_token": token,
                "link": f"/t/{table.code}",
                "host": table.host == seat,
            },
        )

    async def _on_create(self, client: Client, msg: dict[str, Any]) -> None:
        if self.store.down is not None:  # its first entries could not be stored: refused before anything is made
            raise ProtocolError("server_busy")
        if msg.get("daily"):
            self._check_free(client)
            day = today()
            counts = not await self.store.daily_played(day, client.player_id)
            self._check_free(client)  # the connection may have sat down elsewhere meanwhile
            deal = daily_deal(day, self.daily_key)
            rules, daily, level = make_rules({}), {"date": day, "counts": counts}, DAILY_LEVEL
        else:
            rules, deal = table_rules(msg["options"])
            daily, level = None, msg.get("bot_level", "medium")
            check_seat(rules.seats, msg.get("seat", 0))
            self._check_free(client)  # after the fields, as the protocol lists the checks
        code, table_id = await self._new_code(client)
        table = Table.create(
            code, rules, level, deal, daily, grace=self.config.grace, table_id=table_id, at=time.time()
        )
        self.tables.add(table)
        seat, token = table.seat_human(client, client.player_id, client.name, 0 if daily else msg.get("seat", 0))
        self._attach(client, table, seat.index, token)
        if daily is not None:
            table.fill_bots(seat.index, DAILY_LEVEL)
        self.changed(table)

    async def _new_code(self, client: Client) -> tuple[str, str | None]:
        """A code free on this node, or in a cluster one reserved across it with the new table's lease."""
        if self.cluster is None:
            return new_code(self.tables.by_code), None
        table_id = secrets.token_hex(8)
        try:
            code, _ = await self.cluster.new_table(table_id, lambda: new_code(self.tables.by_code))
        except ClusterUnavailable:
            raise ProtocolError("cluster_unavailable") from None
        if client.table is not None:  # the connection sat down elsewhere meanwhile
            self.cluster.drop(table_id)
            self._check_free(client)
        return code, table_id

    async def _on_play_now(self, client: Client, msg: dict[str, Any]) -> None:
        """Sit at an open Play now table that fits (this node's, else another node's), or open one and wait there.

        In a cluster a node matches one kind of table (options and language) at a time across the cluster: it holds
        a short Redis lock while it matches or opens a table and publishes its open tables before letting go, so two
        people pressing at once on two nodes meet at one table.
        """
        self._check_free(client)
        if not client.play_now.take():
            raise ProtocolError("play_now_limited")
        if self.store.down is not None:
            raise ProtocolError("server_busy")
        rules, deal = table_rules(msg.get("options", {"variant": "classic"}))
        if deal is not None:
            detail = ("Play now deals fresh cards: no deal number", "Nu spelen deelt nieuwe kaarten: geen spelnummer")
            raise ProtocolError("bad_option", field="deal", detail=detail)
        options, lang = rules.to_json(), msg.get("lang", "en")
        if self.cluster is None:
            await self._play_now(client, msg, rules, options, lang)
            return
        async with self.cluster.matching(lobby.match_key(options, lang)):
            self._check_free(client)  # the connection may have sat down elsewhere meanwhile
            if await self._play_now(client, msg, rules, options, lang):
                await self.cluster.publish_open()  # before the lock goes: the next press sees this table

    async def _play_now(self, client: Client, msg: dict[str, Any], rules: Any, options: dict, lang: str) -> bool:
        """Seat one Play now press; True when a table here changed, False when it went to another node's table.

        A press relayed from another node names the table it matched (``at_table``): it sits there as a press here
        would, its wait included, or, when that table no longer fits (full, started, or the person was removed
        there), at another table here or a new one.
        """
        at = time.time()
        fill_at = at + msg.get("wait", PLAY_NOW_WAIT)
        here = [
            t
            for t in self.tables.by_code.values()
            if (e := lobby.entry(t)) is not None and lobby.fits(e, options, lang, client.player_id)
        ]
        if here:
            target = self.tables.by_code.get(msg.get("at_table", ""))
            # the table matched on the other node, else the fullest, then the oldest
            table = target if target in here else max(here, key=lambda t: (len(t.humans()), -t.opened_at))
            seat, token = table.seat_human(client, client.player_id, client.name, None)
            table.wait_until(fill_at)
            self._attach(client, table, seat.index, token)
            self.lobby.changed()
            self.changed(table)
            chat.history(self, client, table)
            return True
        if self.cluster is not None and client.edge is None:  # a press relayed here goes no further
            found = await self.cluster.open_elsewhere()
            elsewhere = [e for e in found if lobby.fits(e, options, lang, client.player_id)]
            self._check_free(client)
            if elsewhere:
                best = min(elsewhere, key=lambda e: e["free"])
                self.relay.open(client, best["node"], lobby.relayed_press(msg, best["code"]))
                return False
        code, table_id = await self._new_code(client)
        self._check_free(client)
        table = Table.create(code, rules, "medium", grace=self.config.grace, table_id=table_id, at=at)
        self.tables.add(table)
        seat, token = table.seat_human(client, client.player_id, client.name, 0)
        table.queue(lang, fill_at)
        self._attach(client, table, seat.index, token)
        self.lobby.changed()
        self.changed(table)
        return True

    async def _on_my_tables(self, client: Client, msg: dict[str, Any]) -> None:
        """The open tables (this node's, and in a cluster every node's) where this player holds a seat."""
        found = self.lobby.seats_of(client.player_id)
        if self.cluster is not None:
            found += await self.cluster.seats_elsewhere(client.player_id)
        client.push({"type": "my_tables", "tables": sorted(found, key=lambda t: t["code"])})

    def _on_set_open(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, Table.set_open, msg["open"], msg.get("lang", "en"))
        self.lobby.changed()
        self._rate_seats(client.table)

    def _on_remove_player(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        removed = table.remove_person(client.seat, msg["seat"], msg["reason"])
        if removed is not None:
            removed.table = removed.seat = None
            self.tables.send(table, removed, {"type": "left", "code": table.code, "reason": "removed",
                                               "text": msg["reason"]})  # fmt: skip
        self.lobby.changed()
        self.changed(table)
        if self.cluster is not None:  # the other nodes' Play now stops matching the person to this table at once
            self._spawn(self.cluster.publish_open())

    async def _on_report(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        target = table.seat_at(msg["seat"])
        if target.kind != SeatKind.HUMAN or target.index == client.seat:
            raise ProtocolError(
                "not_now", detail=("report a person at your table", "meld iemand die aan jouw tafel zit")
            )
        if not client.reports.take():
            raise ProtocolError("reports_limited")
        lines = list(table.chat_room.lines)[-CHAT_AROUND:] if table.chat_room is not None else []
        report = {
            "id": secrets.token_hex(8),
            "at": time.time(),
            "table_code": table.code,
            "reporter_id": client.player_id,
            "reported_id": target.player_id,
            "reported_name": target.name or "?",
            "reason": msg["reason"],
            "chat": compact(lines),
        }
        try:
            await self.store.save_report(report)
        except StoreBusy:
            raise ProtocolError("server_busy") from None
        client.push({"type": "reported", "seat": target.index})

    def _on_join(self, client: Client, msg: dict[str, Any]) -> None:
        self._check_free(client)
        table = self._find(client, msg["code"])
        seat, token = table.seat_human(client, client.player_id, client.name, msg.get("seat"))
        self._attach(client, table, seat.index, token)
        self.changed(table)
        chat.history(self, client, table)

    def _on_resume(self, client: Client, msg: dict[str, Any]) -> None:
        self._check_free(client)
        table = self.tables.get(msg["code"])  # a valid seat token is never refused, whatever the rate limits
        if table is None:
            raise self._failed(client, "unknown_table", table=msg["code"][:16])
        given = msg.get("seat_token")
        seat = table.seat_by_token(given) if given is not None else table.seat_of_player(client.player_id)
        if seat is None:
            raise self._failed(client, "bad_token")
        old = seat.client
        if old is not None and old is not client:
            old.table = old.seat = None  # the newer connection wins the seat
            self.tables.send(table, old, {"type": "left", "code": table.code})
        table.reconnect(seat.index, client)
        self._attach(client, table, seat.index, given)
        last = msg.get("last_seq")
        if last is not None and last <= table.seq and table.events_since(last) is not None:
            client.seen, resumed = last, "events"  # a last_seq the table never reached (lost power) gets a snapshot
        else:
            client.seen, resumed = table.seq, "snapshot"
        self.send_table(client, resumed)
        self.changed(table)
        chat.history(self, client, table)

    def _on_watch(self, client: Client, msg: dict[str, Any]) -> None:
        self._check_free(client)
        table = self._find(client, msg["code"])
        table.check_not_removed(client.player_id)
        table.check_watchable()
        table.watchers.add(client)
        client.table, client.seat, client.seen, client.shown, client.shown_moment = table, None, table.seq, None, None
        code = table.code
        self.tables.send(table, client, {"type": "watching", "code": code, "link": f"/t/{code}"})
        self.changed(table)  # the watcher gets its full table; the others see the count
        chat.history(self, client, table)

    @staticmethod
    def _unwatch(client: Client, table: Table) -> None:
        table.watchers.discard(client)
        client.table = client.seat = None

    def _on_allow_watch(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        table.set_watch(client.seat, msg["allowed"])
        if not msg["allowed"]:
            for watcher in list(table.watchers):
                self._unwatch(watcher, table)
                self.tables.send(table, watcher, {"type": "left", "code": table.code, "reason": "watch_off"})
        self.changed(table)

    def _on_allow_chat(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, Table.set_chat, msg["allowed"])

    def _on_chat(self, client: Client, msg: dict[str, Any]) -> None:
        chat.say(self, client, msg)  # memory only: never in the table log

    def _on_sit(self, client: Client, msg: dict[str, Any]) -> None:
        table = client.table
        if table is not None and client in table.watchers:  # a watcher sits: an empty seat, a computer's between hands
            seat, token = table.seat_human(client, client.player_id, client.name, msg["seat"])
            table.watchers.discard(client)
            self._attach(client, table, seat.index, token)
            self.changed(table)
            return
        table = self._seated(client)
        seen = client.seen
        seat, token = table.change_seat(client.seat, msg["seat"])
        self._attach(client, table, seat.index, token)
        client.seen = seen  # the next table message shows the seat change's own events too
        self.changed(table)

    def _host_action(self, client: Client, action: Any, *args: Any) -> None:
        """Run the table command ``action`` (one of ``Table``'s host commands) for the client's seat."""
        table = self._seated(client)
        action(table, client.seat, *args)
        self.changed(table)

    def _on_add_bot(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, Table.add_bot, msg["seat"], msg["level"])

    def _on_remove_bot(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, Table.remove_bot, msg["seat"])

    def _on_fill_bots(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, Table.fill_bots, msg["level"])

    def _on_start(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, Table.start, time.time())

    def _on_restart(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, Table.restart, time.time())

    def _on_set_timer(self, client: Client, msg: dict[str, Any]) -> None:
        seconds, low = msg["seconds"], self.config.timer_min
        if seconds is not None and not low <= seconds <= TIMER_MAX:
            raise ProtocolError(
                "bad_message",
                field="seconds",
                detail=(
                    f"expected a whole number from {low} to {TIMER_MAX}",
                    f"verwacht: een heel getal van {low} tot en met {TIMER_MAX}",
                ),
            )
        self._host_action(client, Table.set_timer, seconds)

    def _on_set_pace(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, Table.set_pace, msg["pace"])

    def _on_rematch(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        table.vote_rematch(client.seat, time.time())
        self.changed(table)

    def _on_claim(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        table.claim(client.seat)
        self.changed(table)

    def _on_new_game(self, client: Client, msg: dict[str, Any]) -> None:
        self._host_action(client, Table.new_game)

    def _on_intent(self, client: Client, msg: dict[str, Any]) -> None:
        """A pass, a card played or a moon choice: the game core checks it."""
        table = self._seated(client)
        table.act(client.seat, msg)
        self.changed(table)

    def _on_ready(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        table.set_ready(client.seat)
        self.changed(table)

    async def _on_hint(self, client: Client, msg: dict[str, Any]) -> None:
        table = self._seated(client)
        game, seat = table.game, client.seat
        if game is None or table.status != PLAYING_STATUS or seat not in game.to_act():
            raise ProtocolError(
                "not_now", detail=("a hint only when it is your move", "een tip alleen als jij aan zet bent")
            )
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

    def _on_review(self, client: Client, msg: dict[str, Any]) -> None:
        """Review this seat's decisions in a finished hand of the table's game; the answer comes when it is ready."""
        table = self._seated(client)
        game, hand_no, seat = table.game, msg["hand_no"], client.seat
        if game is None or not any(h["hand_no"] == hand_no for h in game.history):
            raise ProtocolError(
                "not_now",
                detail=("a review once that hand is over", "een analyse pas als die ronde voorbij is"),
            )
        key = self.reviewer.key(game_name(table.table_id, table.started_at), seat, hand_no)
        events = [dict(e) for e in game.events]  # as they are now: the game goes on meanwhile
        names = [s.name or bot_name(s.index) for s in table.seats]
        job = self.reviewer.review(client.player_id, key, dict(table.rules.to_json()), events, seat, hand_no, names)
        task = asyncio.get_running_loop().create_task(self._send_review(client, job, hand_no, seat))
        self._reviews.add(task)  # not awaited here: the connection's other messages go on meanwhile
        task.add_done_callback(self._reviews.discard)

    async def _send_review(self, client: Client, job: Any, hand_no: int, seat: int) -> None:
        try:
            review = await job
        except ReviewRefused as exc:
            client.push(ProtocolError(exc.code).to_message())
        except StoreBusy:
            client.push(ProtocolError("server_busy").to_message())
        except Exception:
            log.exception("review of hand %s seat %s failed", hand_no, seat)
            client.push(ProtocolError("server_error").to_message())
        else:
            client.push({"type": "review", "hand_no": hand_no, "seat": seat, "review": review})

    def _on_leave(self, client: Client, msg: dict[str, Any]) -> None:
        table = client.table
        if table is not None and client in table.watchers:
            self._unwatch(client, table)
            self.tables.send(table, client, {"type": "left", "code": table.code})
            self.changed(table)
            return
        table = self._seated(client)
        seat = client.seat
        client.table = client.seat = None
        table.leave(seat)
        self.tables.send(table, client, {"type": "left", "code": table.code})
        self.changed(table)

    async def table_info_anywhere(self, code: str, address: str, seat_token: str = "") -> tuple[int, dict[str, Any]]:
        """``GET /api/tables/{code}`` in a cluster: the owner's answer for a table another node holds."""
        wanted = table_code(code) or ""
        if self.relay is None or not wanted or wanted in self.tables.by_code or self.guesses.blocked(address):
            return self.table_info(code, address, seat_token)
        try:
            found = await self.cluster.lookup(wanted)
            if found is not None and found[1] not in (None, self.cluster.node) and found[2]:
                answer = await self.relay.ask(found[1], wanted, address, seat_token)
                if answer is not None:
                    return answer
            elif found is not None:
                await self.tables.fetch(wanted)  # nobody holds it (its node died): adopt it here
        except StoreBusy:
            return 503, {"error": "server_busy"}
        except REDIS_ERRORS:
            return 503, {"error": "cluster_unavailable"}
        return self.table_info(code, address, seat_token)

    def table_info(self, code: str, address: str, seat_token: str = "") -> tuple[int, dict[str, Any]]:
        """``GET /api/tables/{code}``: (HTTP status, body); unknown codes and wrong seat tokens count as guesses."""
        if self.guesses.blocked(address):
            return 429, {"error": "rate_limited"}
        wanted = table_code(code)
        table = self.tables.get(wanted) if wanted is not None else None
        if table is None:
            self.guesses.fail(address)
            return 404, {"error": "not_found"}
        body = public_table(table)
        if seat_token:
            seat = table.seat_by_token(seat_token)
            if seat is None:
                self.guesses.fail(address)
            body["you"] = seat.index if seat is not None else None
        return 200, body

    def health(self) -> dict[str, Any]:
        """Return the ``/healthz`` body (``allocated_blocks``: the interpreter's live memory blocks, for leak watch)."""
        return {
            "status": "ok",
            "engine": shared_hash(),  # the shared/ files this server runs (the offline worker reports its own)
            "store": self.store.kind,
            "node": self.cluster.node if self.cluster is not None else None,
            "tables": len(self.tables),
            "connections": len(self.clients),
            "allocated_blocks": sys.getallocatedblocks(),
            "hard_player": self.thinker.health(),
            "connection_limit": self.headroom.limit if self.headroom is not None else None,
            "under_way": self.tables.quiet(),
            "store_answers": self.store.down is None,
            "parked_tables": len(self.tables.parked),
        }

    async def shutdown(self) -> None:
        """Stop timers, computer moves and reviews; wait until every logged change is stored."""
        for task in list(self._reviews):
            task.cancel()
        self.reviewer.close()
        await self.tables.shutdown()


#: Every message type a client may send (past ``ping`` and the checks of ``handle``), and what handles it.
HANDLERS: dict[str, Any] = {
    "hello": Hub._on_hello,
    "create": Hub._on_create,
    "join": Hub._on_join,
    "resume": Hub._on_resume,
    "watch": Hub._on_watch,
    "sit": Hub._on_sit,
    "leave": Hub._on_leave,
    "allow_watch": Hub._on_allow_watch,
    "allow_chat": Hub._on_allow_chat,
    "chat": Hub._on_chat,
    "add_bot": Hub._on_add_bot,
    "remove_bot": Hub._on_remove_bot,
    "fill_bots": Hub._on_fill_bots,
    "set_timer": Hub._on_set_timer,
    "start": Hub._on_start,
    "restart": Hub._on_restart,
    "new_game": Hub._on_new_game,
    "set_pace": Hub._on_set_pace,
    "rematch": Hub._on_rematch,
    "claim": Hub._on_claim,
    "play_now": Hub._on_play_now,
    "my_tables": Hub._on_my_tables,
    "set_open": Hub._on_set_open,
    "remove_player": Hub._on_remove_player,
    "report": Hub._on_report,
    "device_code": Hub._on_device_code,
    "use_device_code": Hub._on_use_device_code,
    "devices": Hub._on_devices,
    "sign_out_device": Hub._on_sign_out_device,
    "pass": Hub._on_intent,
    "play": Hub._on_intent,
    "moon": Hub._on_intent,
    "ready": Hub._on_ready,
    "hint": Hub._on_hint,
    "review": Hub._on_review,
}
