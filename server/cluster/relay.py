"""Messages between cluster nodes over Redis pub/sub: a connection on one node plays at a table another node owns.

The node that holds a connection (its *edge*) forwards what the connection sends to the table's *owner*; the owner
runs it through its hub as it would a local connection's message (a ``RemoteClient``), and what it sends back
travels to the edge, which writes it to the websocket. Each node listens on one channel, ``<prefix>to:<node>``.
Frames are text: a letter, then fields separated by the unit separator (0x1F).

edge to owner: ``o`` open (edge, id, the connection's player and first message), ``m`` message, ``g`` gone,
``q`` a question (the invitation facts of a code); owner to edge: ``t`` text to deliver, ``c`` close with a code,
``d`` detached (the connection left the table: its next messages are the edge's own again), ``a`` an answer.
A node whose link starts (it started, or its link to Redis broke and came back) tells every other node ``r`` (with
its name): whatever they relayed to or from it before is gone (they would otherwise wait for frames that were lost).
Every node also listens on ``<prefix>signed_out`` (``Cluster.sign_out``): a player id and a device id, signed out;
and on ``<prefix>code_used`` (``Cluster.code_used``): a player's device code was used on some node.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets
from collections import OrderedDict, deque
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from ..config import Config
from ..connection.client import Client
from ..connection.closing import Close
from ..connection.routes import node_path
from ..metrics import NO_METRICS, Metrics
from ..storage.store import Store
from ..table import outgoing
from ..table.errors import ProtocolError
from ..table.jsontext import compact
from ..table.messages import ClientMessage, kind_of, parse_relayed

if TYPE_CHECKING:
    from .node import Cluster

log = logging.getLogger("hearts.relay")
SEP = "\x1f"
OPEN_TIMEOUT = 3.0  # seconds an edge waits for the owner's first answer before the client is told to come back
QUESTION_TIMEOUT = 2.0  # seconds an edge waits for the invitation facts of another node's table
LISTEN_POLL = 0.5  # seconds the listener waits for a frame before it looks whether it should stop
DETACHED_KEPT = 10_000  # connections that left a table here, remembered to tell a late message from a stray one
SEATED = ('{"type":"joined"', '{"type":"watching"')  # what an owner sends a connection it seated (compact JSON)


class NodeHub(Protocol):
    """What the relay needs of its node's hub (``server.net.hub.Hub``): it runs another node's connections there."""

    config: Config
    store: Store

    def disconnected(self, client: Client) -> None:
        """A connection closed."""

    def at_table(self, client: Client) -> bool:
        """True while ``client`` sits at or watches a table of this node."""

    async def handle(self, client: Client, msg: ClientMessage) -> None:
        """Dispatch one checked message; raise ProtocolError to refuse it."""

    def table_info(self, code: str, address: str, seat_token: str = "") -> tuple[int, dict[str, Any]]:
        """``GET /api/tables/{code}``: (HTTP status, body)."""

    def signed_out(self, player_id: int, device: str) -> None:
        """Device ``device`` no longer holds ``player_id``."""

    def code_used(self, player_id: int, notice: dict[str, Any]) -> None:
        """One of ``player_id``'s device codes was used."""


class RemoteClient(Client):
    """On the table's owner: a connection another node (its edge) holds; what it is sent goes back over Redis."""

    def __init__(self, relay: Relay, edge: str, cid: str, address: str, config: Config) -> None:
        super().__init__(None, address, config)
        self.relay = relay
        self.edge: str = edge
        self.cid = cid
        self.inbox: deque[dict[str, Any]] = deque()  # as the edge relayed them: checked again here (``parse_relayed``)
        self.worker: asyncio.Task | None = None

    def push(self, message: dict[str, Any] | str) -> None:
        """Send one message to the edge; once the connection is at no table, the edge takes it back."""
        if self.closing is not None:
            return
        self.relay.send(self.edge, "t" + self.cid + SEP + (message if type(message) is str else compact(message)))
        if not self.relay.hub.at_table(self):
            self.relay.detach(self)

    def refuse(self, message: dict[str, Any], why: Close) -> None:
        """Send a refusal, then ask the edge to close the connection.

        Not ``push``: a connection at no table here would be handed back to the edge with the refusal, and the edge
        then drops the close that follows, for a connection it no longer relays; the person would wait on an open
        connection for a close that never comes.
        """
        if self.closing is None:
            self.relay.send(self.edge, "t" + self.cid + SEP + compact(message))
            self.close_soon(why)

    def close_soon(self, why: Close) -> None:
        """Ask the edge to close the connection with ``code`` after what it was sent before."""
        if self.closing is None:
            self.closing = True
            self.relay.send(self.edge, "c" + self.cid + SEP + why.name)
            self.relay.remotes.pop((self.edge, self.cid), None)


class Relay:
    """One node's side of the links: connections it relays to owners (edge), and others' connections it serves."""

    def __init__(self, cluster: Cluster, hub: NodeHub) -> None:
        self.cluster = cluster
        self.hub = hub
        self.metrics: Metrics = getattr(hub, "metrics", NO_METRICS)  # frames out and in (a stand-in hub: none)
        self.node: str = cluster.node
        self.relayed: dict[str, Client] = {}  # edge: id -> a local connection at another node's table
        self.remotes: dict[tuple[str, str], RemoteClient] = {}  # owner: (edge, id) -> that connection here
        self.questions: dict[str, asyncio.Future] = {}
        self.up = False  # subscribed to our channel
        self._life = secrets.token_hex(3)  # this process's mark on its connection ids
        self._ids = (f"{self._life}.{n}" for n in itertools.count(1))  # never one of an earlier life of this node
        self._detached: OrderedDict[tuple[str, str], None] = OrderedDict()  # owner: connections that left, latest
        self._out: list[tuple[str, str]] = []
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._stopping = False
        self._subscribed_before = False  # a link that comes back may have missed sign-outs meanwhile
        self._relink = False  # redis-py made the listener's connection again by itself (``_relinked``)

    def channel(self, node: str) -> str:
        """The channel ``node`` listens on."""
        return f"{self.cluster.prefix}to:{node}"

    # ------------------------------------------------------------------ edge side

    def open(self, client: Client, owner: str, msg: ClientMessage) -> None:
        """Relay ``client`` to the owner of the table its ``join``/``resume``/``watch`` names, starting with it."""
        cid = str(next(self._ids))
        client.remote, client.cid = owner, cid
        self.relayed[cid] = client
        self._timers[cid] = asyncio.get_running_loop().call_later(OPEN_TIMEOUT, self._no_answer, cid)
        body = compact({"p": client.player_id, "n": client.name, "a": client.address, "m": msg.to_wire()})
        self.send(owner, "o" + self.node + SEP + cid + SEP + body)

    def forward(self, client: Client, owner: str, msg: ClientMessage) -> None:
        """Forward a relayed connection's message to ``owner``, the node of its table (``client.remote``)."""
        self.send(owner, "m" + self.node + SEP + client.cid + SEP + compact(msg.to_wire()))

    def gone(self, client: Client) -> None:
        """A relayed connection closed: tell the owner (its seat is kept for the grace period)."""
        owner = client.remote
        if self.relayed.pop(client.cid, None) is client and owner is not None:  # relayed: it has an owner
            self._stop_timer(client.cid)
            self.send(owner, "g" + self.node + SEP + client.cid)
        client.remote = None

    async def ask(self, owner: str, code: str, address: str, seat_token: str) -> tuple[int, dict[str, Any]] | None:
        """Ask ``owner`` for the invitation facts of table ``code``; None when it does not answer in time."""
        qid = str(next(self._ids))
        future = self.questions[qid] = asyncio.get_running_loop().create_future()
        self.send(owner, "q" + self.node + SEP + qid + SEP + compact({"c": code, "a": address, "s": seat_token}))
        try:
            return await asyncio.wait_for(future, QUESTION_TIMEOUT)
        except TimeoutError:
            return None
        finally:
            self.questions.pop(qid, None)

    def _no_answer(self, cid: str) -> None:
        """The owner did not answer the open in time (it died a moment ago): the client comes back soon."""
        self._timers.pop(cid, None)
        client = self.relayed.pop(cid, None)
        if client is not None:
            client.remote = None
            client.push(ProtocolError("server_busy").to_message())
            client.close_soon(Close.TABLE_MOVING)

    def _stop_timer(self, cid: str) -> None:
        timer = self._timers.pop(cid, None)
        if timer is not None:
            timer.cancel()

    def _to_client(self, kind: str, rest: str) -> None:
        """A frame from an owner for one of our relayed connections."""
        cid, _, body = rest.partition(SEP)
        if kind == "a":
            future = self.questions.get(cid)
            if future is not None and not future.done():
                status, answer = json.loads(body)
                future.set_result((status, answer))
            return
        client = self.relayed.get(cid)
        if client is None:
            return
        self._stop_timer(cid)
        if kind == "t":
            client.push(body)
            if client.route is not None and body.startswith(SEATED):
                self._go_direct(client)
        elif kind == "d":
            del self.relayed[cid]
            client.remote = None
        elif kind == "c":
            why = Close[body]  # a reason this node does not know fails here, before anything changed
            del self.relayed[cid]
            client.remote = None
            client.close_soon(why)

    def _go_direct(self, client: Client) -> None:
        """A relayed connection was seated (a Play now press matched another node's table): go straight there.

        Behind a proxy that routes to each node the client reconnects to the owner and resumes its seat, so its
        moves cross no node from now on.
        """
        path = node_path(client.route, client.remote or "")
        if path is not None:
            client.push(outgoing.moved(path))

    def _drop_relayed(self, owners: set[str] | None, why: Close) -> None:
        """Close the relayed connections of ``owners`` (all when None) with 1012: they resume by themselves."""
        for cid, client in list(self.relayed.items()):
            if owners is None or client.remote in owners:
                del self.relayed[cid]
                self._stop_timer(cid)
                client.remote = None
                client.close_soon(why)

    # ------------------------------------------------------------------ owner side

    def detach(self, remote: RemoteClient) -> None:
        """The connection left our table: the edge serves it again (after the messages sent before)."""
        key = (remote.edge, remote.cid)
        if self.remotes.pop(key, None) is remote:
            self._detached[key] = None
            while len(self._detached) > DETACHED_KEPT:
                self._detached.popitem(last=False)
            self.send(remote.edge, "d" + remote.cid)

    def _from_edge(self, kind: str, rest: str) -> None:
        """A frame from an edge about one of its connections."""
        edge, _, rest = rest.partition(SEP)
        cid, _, body = rest.partition(SEP)
        key = (edge, cid)
        if kind == "o":
            info = json.loads(body)
            opened = RemoteClient(self, edge, cid, info["a"], self.hub.config)
            opened.player_id, opened.name = info["p"], info["n"]
            opened.metrics = self.metrics  # a limit's refusal counts on the node that answers it
            self.remotes[key] = opened
            self._enqueue(opened, info["m"])
        elif kind == "m":
            remote = self.remotes.get(key)
            if remote is None:
                if key in self._detached:  # it left meanwhile: the edge takes the connection back
                    self.send(edge, "d" + cid)
                else:  # never heard of here (this node started again meanwhile): it comes back and resumes
                    self.send(edge, "c" + cid + SEP + Close.TABLE_MOVED.name)
                return
            self._enqueue(remote, json.loads(body))
        elif kind == "g":
            remote = self.remotes.pop(key, None)
            if remote is not None:
                self.hub.disconnected(remote)
        elif kind == "q":
            question = json.loads(body)
            status, answer = self.hub.table_info(question["c"], question["a"], question["s"])
            self.send(edge, "a" + cid + SEP + compact([status, answer]))

    def _enqueue(self, remote: RemoteClient, msg: dict[str, Any]) -> None:
        remote.inbox.append(msg)
        if remote.worker is None:
            remote.worker = self._spawn(self._work(remote))

    async def _work(self, remote: RemoteClient) -> None:
        """Handle one connection's messages in order, as its edge received them."""
        try:
            while remote.inbox:
                msg = remote.inbox.popleft()
                try:
                    await self.hub.handle(remote, parse_relayed(msg))
                except ProtocolError as exc:
                    remote.tell_error(exc)
                except Exception:
                    log.exception("a relayed %s message failed", kind_of(msg))  # never its fields: tokens
                    remote.push(ProtocolError("server_error").to_message())
        finally:
            remote.worker = None

    def _drop_remotes(self, edges: set[str] | None) -> None:
        """The edges went away (or our link did): their connections count as disconnected here."""
        for key, remote in list(self.remotes.items()):
            if edges is None or remote.edge in edges:
                del self.remotes[key]
                self.hub.disconnected(remote)

    # ------------------------------------------------------------------ the link

    def send(self, node: str, frame: str) -> None:
        """Queue ``frame`` for ``node``; frames leave in order, many per round trip."""
        self._out.append((node, frame))
        self.metrics.relayed_out.inc()
        self._wake.set()

    async def _sender(self) -> None:
        while not self._stopping:
            await self._wake.wait()
            self._wake.clear()
            batch, self._out = self._out, []
            if not batch:
                continue
            try:
                async with self.cluster.redis.pipeline(transaction=False) as pipe:
                    for node, frame in batch:
                        pipe.publish(self.channel(node), frame)
                    await pipe.execute()
            except Exception as exc:  # Redis is down: frames are lost, so the links they belonged to end
                self.cluster.mark_down(exc)
                self._link_lost()

    async def _listener(self) -> None:
        """Listen on our channel (and the notices); a link that broke ends every relayed link, as does a new one.

        redis-py makes a broken pub/sub connection again by itself and subscribes again: the frames published
        meanwhile are lost all the same, so that counts as a broken link here (``_relinked``).
        """
        while not self._stopping:
            pubsub = self.cluster.redis.pubsub(ignore_subscribe_messages=True)
            link = None
            try:
                notices = (self.cluster.signed_out_channel, self.cluster.code_used_channel)
                await pubsub.subscribe(self.channel(self.node), *notices)
                link = pubsub.connection
                if link is not None:
                    self._relink = False
                    link.register_connect_callback(self._relinked)
                if self._subscribed_before:
                    self.hub.store.forget_players()  # a sign-out may have gone by while the link was down
                self._subscribed_before = self.up = True
                self._spawn(self._announce())
                while not self._stopping:
                    message = await pubsub.get_message(timeout=LISTEN_POLL)
                    if self._relink:
                        raise ConnectionError("the link to Redis broke (made again at once: frames were lost)")
                    if message is None:
                        continue
                    if message["channel"] == self.cluster.signed_out_channel:
                        self._signed_out(message["data"])
                    elif message["channel"] == self.cluster.code_used_channel:
                        self._code_used(message["data"])
                    else:
                        self._frame(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.up and not self._stopping:
                    self.cluster.mark_down(exc)
                    self._link_lost()
                self.up = False
            finally:
                if link is not None:
                    link.deregister_connect_callback(self._relinked)  # (it goes back to the pool)
                try:
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves PubSub.aclose unannotated
                except Exception:
                    pass
            if not self._stopping:
                await asyncio.sleep(0.5)

    def _relinked(self, connection: object) -> None:
        """redis-py made our pub/sub connection again (after we subscribed on it): the listener ends the links."""
        self._relink = True

    def _frame(self, frame: str) -> None:
        self.metrics.relayed_in.inc()
        kind, rest = frame[:1], frame[1:]
        try:
            if kind and kind in "tdca":
                self._to_client(kind, rest)
            elif kind and kind in "omgq":
                self._from_edge(kind, rest)
            elif kind == "r":
                self._restarted(rest)
            else:
                raise ValueError("no such frame")
        except Exception:
            log.exception("bad frame of kind %r from another node", kind)  # never its body: it may hold tokens

    def _restarted(self, node: str) -> None:
        """``node`` started (again): what was relayed to or from its earlier life is gone.

        Connections relayed to it come back (1012) and resume; those it relayed here count as disconnected.
        """
        if node != self.node:
            self._drop_relayed({node}, Close.TABLE_MOVED)
            self._drop_remotes({node})

    def _signed_out(self, body: str) -> None:
        """A device was signed out on some node (this one too): forget its token and close it here."""
        try:
            player, _, device = body.partition(SEP)
            self.hub.signed_out(int(player), device)
        except Exception:
            log.exception("bad sign-out notice from another node")

    def _code_used(self, body: str) -> None:
        """A device code was used on another node: tell the player's open pages here (the node itself told its own)."""
        try:
            notice = json.loads(body)
            if notice["node"] != self.node:
                self.hub.code_used(int(notice["player"]), notice["notice"])
        except Exception:
            log.exception("bad code-used notice from another node")

    def _link_lost(self) -> None:
        """Our link to Redis broke: relayed connections come back (1012), remote ones count as disconnected."""
        self._drop_relayed(None, Close.CLUSTER_LINK_LOST)
        self._drop_remotes(None)

    async def _watch(self) -> None:
        """Every second: end the links to nodes whose presence ran out (they died)."""
        while not self._stopping:
            await asyncio.sleep(1.0)
            owners = {c.remote for c in self.relayed.values() if c.remote is not None}
            edges = {r.edge for r in self.remotes.values()}
            if not owners and not edges:
                continue
            try:
                alive = await self.cluster.alive(sorted(owners | edges))
            except Exception:
                continue  # Redis down: the sender and listener end the links
            dead = {node for node, up in alive.items() if not up}
            if dead & owners:
                self._drop_relayed(dead & owners, Close.TABLE_MOVED)
            if dead & edges:
                self._drop_remotes(dead & edges)

    def _spawn(self, coro: Coroutine[Any, Any, object]) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.append(task)
        task.add_done_callback(self._forget)
        return task

    def _forget(self, task: asyncio.Task) -> None:
        if task in self._tasks:
            self._tasks.remove(task)

    def start(self) -> None:
        """Listen on our channel, send queued frames, watch the nodes we link to."""
        for loop in (self._listener(), self._sender(), self._watch()):
            self._spawn(loop)

    async def _announce(self) -> None:
        """Tell every live node that this node's link (re)started: what they relayed to or from it before is gone.

        Each time the listener subscribes: when the node starts (a node killed and started again within the 3 s its
        presence outlives it would otherwise keep the others' links to its earlier life: a move sent meanwhile went
        nowhere, and the connection waited for an answer for good), and when its link to Redis came back (it ended
        its side of every link; a frame sent meanwhile was lost).
        """
        try:
            nodes = await self.cluster.nodes()
        except Exception:  # Redis down: the others' links broke too, and came back (1012) by themselves
            return
        for node in nodes:
            if node["node"] != self.node:
                self.send(node["node"], "r" + self.node)

    async def close(self) -> None:
        """Stop the link (the app closes every connection before).

        The loops are asked to stop rather than cancelled: redis-py can swallow a cancel inside a command.
        """
        self._stopping = True
        self._wake.set()
        for task in self._tasks[2:]:  # the watch loop only sleeps between looks: cancelling it is safe
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=LISTEN_POLL + 1.5)
        for task in self._tasks:
            task.cancel()
        for timer in self._timers.values():
            timer.cancel()
