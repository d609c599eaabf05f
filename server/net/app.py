"""The network side: one port for static files, /healthz, /api/stats and the /ws websocket endpoint."""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import logging
import re
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..config import Config, client_dir
from ..connection.client import Client
from ..connection.closing import Close
from ..connection.limits import SOCKETS_RETRY_AFTER, Sockets
from ..connection.ratelimit import address_key
from ..storage.opening import REDIS_ERRORS
from ..storage.pruning import Pruner
from ..storage.store import Store, StoreBusy
from ..table.bundle import BUNDLE_PATH, bundle_bytes
from ..table.errors import ProtocolError
from ..table.messages import kind_of, parse_message
from .addresses import client_address, from_inside, parse_proxies, route_template, trusted_peer
from .api import API_ENDPOINTS, Api
from .compression import serve_options
from .files import STREAM_ABOVE, Downloads, Streamed
from .hub import Hub
from .liveness import ReadWatch
from .security import origin_allowed, parse_origins, secure
from .sockets import ACCEPT_BATCH, ExceptionHandler, Headroom, listen_deeper

if TYPE_CHECKING:
    from ..cluster.node import Cluster

log = logging.getLogger("hearts.server")

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
}
#: The offline game's runtime files: their folder names the pinned version, so a browser may keep them for a year.
RUNTIME_PREFIX = "/runtime/"
IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}
TABLE_INFO = "/api/tables/"  # public facts of an open table before joining (the invitation on /t/CODE)
NOT_FOUND = b"not found\n"  # the body of a path that does not exist (and of /metrics to anyone outside)
TOO_MANY_SOCKETS = b"too many connections from your address\n"  # a websocket upgrade past --sockets-per-address
GET_HEAD = ("GET", "HEAD")  # a page or a JSON answer: HEAD gets GET's status and headers without the body


@dataclass(frozen=True)
class Route:
    """One endpoint: its path as docs/protocol.md writes it (``{...}`` a part of the path), its methods, its handler."""

    path: str
    methods: tuple[str, ...]
    handler: str  # the name of the ``App`` method that answers it

    def matches(self, path: str) -> bool:
        """Return True when the URL path (without its query) is this endpoint's."""
        return self.pattern.fullmatch(path) is not None

    @property
    def pattern(self) -> re.Pattern[str]:
        """The path as a regular expression: ``{file}`` is any rest of the path, another ``{...}`` one segment."""
        return _patterns(self.path)


@functools.cache
def _patterns(path: str) -> re.Pattern[str]:
    """Compile an endpoint's path once."""
    parts = re.split(r"(\{[a-z]+\})", path)
    part = {"{file}": ".*"}
    return re.compile("".join(part.get(p, "[^/]*") if p.startswith("{") else re.escape(p) for p in parts))


#: Every endpoint with the methods it takes, first match wins: what routes a request and what answers 405 with
#: ``Allow``. docs/protocol.md lists the same paths and methods (a test keeps both).
ROUTES = (
    Route("/ws", ("GET",), "websocket"),
    Route("/healthz", GET_HEAD, "healthz"),
    Route(BUNDLE_PATH, GET_HEAD, "bundle"),
    Route("/api/cluster", GET_HEAD, "cluster_answer"),
    Route("/metrics", GET_HEAD, "metrics_answer"),
    Route(TABLE_INFO + "{code}", GET_HEAD, "table_info"),
    *(Route(path, GET_HEAD, "api_answer") for path in API_ENDPOINTS),
    Route("/", GET_HEAD, "static"),
    Route("/t/{code}", GET_HEAD, "static"),
    Route("/r/{share}", GET_HEAD, "static"),
    Route("/offline", GET_HEAD, "static"),
    Route("/runtime/{file}", GET_HEAD, "static"),
    Route("/{file}", GET_HEAD, "static"),
)
#: Every path the server answers, as docs/protocol.md lists them.
ENDPOINTS = tuple(route.path for route in ROUTES)


def route_of(path: str) -> Route:
    """Return the endpoint a URL path (without its query) belongs to (``/{file}`` takes what no other does)."""
    return next(route for route in ROUTES if route.matches(path))


def not_allowed(method: str, route: Route) -> Response:
    """405 for a method the endpoint does not take: ``Allow`` names the ones it does, the JSON body says so too."""
    body = {"error": "method_not_allowed", "method": method[:16], "allow": list(route.methods)}
    response = json_response(HTTPStatus.METHOD_NOT_ALLOWED, body)
    response.headers["Allow"] = ", ".join(route.methods)
    return response


def without_body(response: Response) -> Response:
    """The answer to HEAD: GET's status and headers (its Content-Length too), no body (nor one to stream)."""
    return Response(response.status_code, response.reason_phrase, response.headers, b"")


def _response(
    status: HTTPStatus, body: bytes | Path, content_type: str, extra: dict[str, str] | None = None
) -> Response:
    """An answer with the headers every one has; a body larger than ``STREAM_ABOVE`` (or a file) is ``Streamed``."""
    size = body.stat().st_size if isinstance(body, Path) else len(body)
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(size)),
            ("Cache-Control", "no-cache"),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
    for key, value in (extra or {}).items():
        if key in headers:
            del headers[key]  # Headers keeps every value set: replace, do not add a second
        headers[key] = value
    if isinstance(body, Path) or size > STREAM_ABOVE:
        return Streamed(status.value, status.phrase, headers, source=body)
    return Response(status.value, status.phrase, headers, body)


def json_response(status: HTTPStatus, data: Any) -> Response:
    """Return an HTTP response with a JSON body."""
    return _response(status, json.dumps(data).encode(), "application/json")


def static_file(root: Path, path: str) -> Response:
    """Return the file under ``root`` for a URL path (``/``, ``/offline``, ``/t/CODE`` give index.html), or a 404.

    A path with a part that begins with a dot (``/.git/config``, ``/runtime/v/.integrity``) is a 404: such files are
    no part of the client. A file larger than ``STREAM_ABOVE`` is sent from disk as it is read (``Streamed``).
    """
    path = path.split("?", 1)[0].split("#", 1)[0]
    if path in ("/", "/offline") or path.startswith("/t/") or path.startswith("/r/"):
        rel = "index.html"
    else:
        rel = path.lstrip("/")
    not_found = _response(HTTPStatus.NOT_FOUND, NOT_FOUND, "text/plain; charset=utf-8")
    if not rel or "\\" in rel or "\0" in rel or any(not part or part[0] == "." for part in rel.split("/")):
        return not_found  # a part that begins with a dot is refused, "." and ".." with it
    try:
        base = root.resolve()
        target = (base / rel).resolve()
        if not target.is_relative_to(base) or not target.is_file():
            return not_found
        body: bytes | Path = target if target.stat().st_size > STREAM_ABOVE else target.read_bytes()
    except (OSError, ValueError):
        return not_found
    kind = CONTENT_TYPES.get(target.suffix.lower(), "application/octet-stream")
    return _response(HTTPStatus.OK, body, kind, IMMUTABLE if path.startswith(RUNTIME_PREFIX) else None)


GC_THRESHOLDS = (50_000, 20, 10)
SLOW_STOP = 2.0  # seconds: a stop slower than this says where the time went


def keep_gc_off_the_hot_path() -> None:
    """Freeze what start-up made and collect young objects less often (measured with ``hearts bench server``).

    What start-up made (modules, restored tables) lives as long as the process, so no collection
    needs to walk it. Each change builds short-lived messages and views; with the default
    thresholds (700, 10, 10) many survive just long enough to reach the oldest generation, whose
    collections walk every connection's state and stalled the loop for 300-450 ms at 4,000
    players. With 50,000 allocations between young collections they die young instead: move
    latency p99 went from 370 ms to 10 ms in the same benchmark.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class App:
    """The running server: the hub, the database, the websocket server."""

    def __init__(
        self,
        config: Config,
        store: Store,
        hub: Hub,
        api: Api,
        pruner: Pruner,
        headroom: Headroom,
        cluster: Cluster | None = None,
    ) -> None:
        """Serve the node ``server.net.node.build_node`` made (the one place its parts are made)."""
        self.config = config
        self.db = store
        self.cluster = cluster  # with --redis, else None
        self.hub = hub
        self.relay = hub.relay  # the links to the other nodes, in a cluster
        self.metrics = hub.metrics
        self.thinker = hub.thinker
        self.api = api
        self.pruner = pruner
        self.headroom = headroom  # connections against the open-file limit
        self.proxies = parse_proxies(config.trusted_proxies)  # whose X-Forwarded-For names the client
        self.root = client_dir()
        self.server: Server | None = None
        self.readers = ReadWatch(hub.clients, config.read_timeout)  # who stopped reading (or never said hello)
        self.sockets = Sockets(config.sockets_per_address)  # websockets open per client address
        self.downloads = Downloads(config.read_timeout)  # large files sent as their readers take them
        self.origins = parse_origins(config.origin)  # the other web pages that may open /ws
        self._sweeper: asyncio.Task | None = None  # forgets the addresses whose failures aged out
        self._exception_handler: ExceptionHandler | None = None

    async def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Answer plain HTTP requests by ``ROUTES``; let ``GET /ws`` through to the websocket handshake."""
        path = request.path.split("?", 1)[0]
        route = route_of(path)
        if request.method not in route.methods:
            return not_allowed(request.method, route)
        response = await getattr(self, route.handler)(connection, request, path)
        return without_body(response) if request.method == "HEAD" and response is not None else response

    def process_response(self, connection: ServerConnection, request: Request, response: Response) -> None:
        """Every answer, the websocket handshake's too, carries the security headers (``security.SECURITY_HEADERS``)."""
        secure(response)

    async def websocket(self, connection: ServerConnection, request: Request, path: str) -> Response | None:
        """``GET /ws``: on to the handshake, unless the open-file limit is near or the address has its sockets open.

        A socket let through counts against its address until its TCP connection is gone, handshake or not.
        """
        host = request.headers.get("Host")
        if trusted_peer(connection.remote_address, self.proxies) and "X-Forwarded-Host" in request.headers:
            host = request.headers.get_all("X-Forwarded-Host")[-1].split(",")[-1]  # what the nearest proxy saw
        if not origin_allowed(request.headers.get("Origin"), host, self.origins):  # another site's page
            self.metrics.refused("origin").inc()
            return _response(HTTPStatus.FORBIDDEN, b"origin not allowed\n", "text/plain; charset=utf-8")
        if self.headroom.full():  # keep descriptors for answering: come back in a moment (or another node)
            self.metrics.refused("server_full").inc()
            return _response(
                HTTPStatus.SERVICE_UNAVAILABLE, b"server full\n", "text/plain; charset=utf-8", {"Retry-After": "5"}
            )
        key = address_key(client_address(connection.remote_address, request.headers, self.proxies))
        if not self.sockets.admit(key):  # refused before anything of the connection is made
            self.metrics.refused("sockets_per_address").inc()
            retry = {"Retry-After": str(SOCKETS_RETRY_AFTER)}
            return _response(HTTPStatus.TOO_MANY_REQUESTS, TOO_MANY_SOCKETS, "text/plain; charset=utf-8", retry)
        connection.connection_lost_waiter.add_done_callback(lambda _: self.sockets.release(key))
        return None

    async def healthz(self, connection: ServerConnection, request: Request, path: str) -> Response:
        """``GET /healthz``: the server's state."""
        return json_response(HTTPStatus.OK, {**self.hub.health(), "downloads": self.downloads.counts()})

    async def table_info(self, connection: ServerConnection, request: Request, path: str) -> Response:
        """``GET /api/tables/{code}``: public table facts before joining, guarded like join codes."""
        address = client_address(connection.remote_address, request.headers, self.proxies)
        seat_token = request.headers.get("X-Seat-Token", "").strip()[:64]
        status, body = await self.hub.table_info_anywhere(path[len(TABLE_INFO) :], address, seat_token)
        return self.api_response(HTTPStatus(status), body)

    def api_response(self, status: HTTPStatus, body: dict[str, Any]) -> Response:
        """An answer of the JSON API; a limit's 429 counts in ``hearts_refused_total`` by its error code."""
        if status == HTTPStatus.TOO_MANY_REQUESTS:
            self.metrics.refused(body["error"]).inc()
        return json_response(status, body)

    async def bundle(self, connection: ServerConnection, request: Request, path: str) -> Response:
        """``GET /engine/python.json``: the offline game's Python, the project's own files, built once."""
        return _response(HTTPStatus.OK, bundle_bytes(), "application/json")

    async def cluster_answer(self, connection: ServerConnection, request: Request, path: str) -> Response:
        """``GET /api/cluster``: the live nodes."""
        return json_response(*await self.cluster_info())

    async def metrics_answer(self, connection: ServerConnection, request: Request, path: str) -> Response:
        """``GET /metrics``: Prometheus's text format, for loopback and the trusted proxies; anyone else a 404.

        The 404 is an unknown path's (nobody outside learns it exists). Without prometheus-client: 501 with a JSON
        error, to those who may ask.
        """
        if not from_inside(connection.remote_address, request.headers, self.proxies):
            return _response(HTTPStatus.NOT_FOUND, NOT_FOUND, "text/plain; charset=utf-8")
        exposed = self.metrics.exposition(request.headers.get("Accept"))
        if exposed is None:
            body = {"error": "metrics_unavailable", "install": "pip install 'hartenjagen[metrics]'"}
            return json_response(HTTPStatus.NOT_IMPLEMENTED, body)
        return _response(HTTPStatus.OK, *exposed)

    async def api_answer(self, connection: ServerConnection, request: Request, path: str) -> Response:
        """The JSON endpoints of ``Api``."""
        try:
            status, body = await self.api.answer(path, request.headers.get("X-Player-Token", "").strip()[:64])
        except StoreBusy:
            status, body = HTTPStatus.SERVICE_UNAVAILABLE, {"error": "server_busy"}
        return self.api_response(status, body)

    async def static(self, connection: ServerConnection, request: Request, path: str) -> Response:
        """The client's files; under ``/api/`` a path that is no endpoint is a JSON 404."""
        if path.startswith("/api/"):
            return json_response(HTTPStatus.NOT_FOUND, {"error": "not_found"})
        return static_file(self.root, path)

    async def cluster_info(self) -> tuple[HTTPStatus, dict[str, Any]]:
        """``GET /api/cluster``: the live nodes with their table and connection counts."""
        if self.cluster is None:
            return HTTPStatus.NOT_FOUND, {"error": "not_a_cluster"}
        try:
            return HTTPStatus.OK, {"node": self.cluster.node, "nodes": await self.cluster.nodes()}
        except REDIS_ERRORS:
            return HTTPStatus.SERVICE_UNAVAILABLE, {"error": "cluster_unavailable", "node": self.cluster.node}

    def client_of(self, ws: ServerConnection) -> Client:
        """The ``Client`` of a new websocket connection, made from its handshake, which is then let go.

        Kept, the response held 2.7 KiB per idle connection (tracemalloc, 2,000 of them), and the request's headers
        3.7 KiB. The request itself stays (the library takes a connection without one for one still in its
        handshake, and its parser holds it anyway), its headers emptied once read.
        """
        headers = ws.request.headers if ws.request else None
        client = Client(ws, client_address(ws.remote_address, headers, self.proxies), self.config)
        client.route = route_template(headers)
        client.origin = (headers.get("Origin", "") or "") if headers is not None else ""
        client.gone = self.hub.disconnected
        client.frames_sent = self.metrics.frames_sent
        client.metrics = self.metrics
        if headers is not None:
            headers.clear()  # read
        ws.response = None  # sent
        return client

    async def handler(self, ws: ServerConnection) -> None:
        """Serve one websocket connection: read, check, dispatch; errors go back to this client only."""
        client = self.client_of(ws)
        self.hub.clients.add(client)
        try:
            closing = None
            while True:  # ``async for`` would add an async generator per connection; the end is the same
                frame = await ws.recv()
                if closing is not None:
                    continue  # keep reading (and dropping) so the closing handshake gets through
                if not client.bucket.take():
                    client.count_refusal(Close.FLOODING.limit)
                    closing = asyncio.create_task(ws.close(Close.FLOODING.code, Close.FLOODING.reason))
                    continue
                try:
                    msg = parse_message(frame)
                    await self.hub.handle(client, msg)
                except ProtocolError as exc:
                    client.tell_error(exc)
                except Exception:  # a bug must cost one message, not the connection or the server
                    log.exception("a %s message failed", kind_of(frame))  # never the frame: it may hold tokens
                    client.push(ProtocolError("server_error").to_message())
        except ConnectionClosed:
            pass
        finally:
            self.hub.disconnected(client)

    async def start(self) -> Server:
        """Restore open tables, listen, then start the computer players' workers; return the websockets server."""
        self.hub.daily_key = self.api.daily_key = await self.db.server_key("daily")
        restored = await self.hub.tables.restore()
        if restored:
            log.info("restored %d open tables", restored)
        if self.cluster is not None:  # present and linked before the first connection: no one adopts our tables
            await self.cluster.heartbeat()
            self.cluster.start()
            assert self.relay is not None  # build_node made it with the cluster
            self.relay.start()
        self.headroom.measure()  # before the first connection: none is refused for want of a limit
        self.server = await serve(
            self.handler,
            self.config.host,
            self.config.port,
            process_request=self.process_request,
            max_size=self.config.max_frame,
            backlog=ACCEPT_BATCH,  # asyncio accepts this many per wake-up (and retries each failed one)
            ping_interval=None,  # server.net.liveness pings: a connection that does not read is closed with 1008
            create_connection=self.downloads.connection_class(self.headroom.connection_class()),
            open_timeout=None,  # the connection keeps files.OPEN_TIMEOUT itself: a download may take longer
            process_response=self.process_response,
            server_header="Hartenjagen",
            **serve_options(self.config.compression),
        )
        listen_deeper(self.server.sockets)  # after a restart thousands reconnect at once: a deep kernel queue
        await self.thinker.start()
        self.headroom.measure(quiet=True)  # again with the workers' pipes: they stay out of the limit
        loop = asyncio.get_running_loop()
        self._exception_handler = loop.get_exception_handler()
        loop.set_exception_handler(self.headroom.exception_handler(self._exception_handler))
        self.readers.start()
        self._sweeper = loop.create_task(self._sweep_limits())
        self.pruner.start()
        keep_gc_off_the_hot_path()
        return self.server

    async def _sweep_limits(self) -> None:
        """Every window, forget the addresses whose failures all aged out (nobody may ever ask about them again)."""
        while True:
            await asyncio.sleep(self.config.code_window)
            self.hub.guesses.sweep()

    def address(self) -> tuple[str, int]:
        """Return the host and the real port (useful with port 0)."""
        assert self.server is not None, "address() of a server not started"
        sock = next(iter(self.server.sockets))
        host, port = sock.getsockname()[:2]
        return host, port

    async def stop(self) -> None:
        """Close every connection with 1012 (service restart), store what is pending, close the database.

        A stop that takes more than two seconds logs how long each step took.
        """
        loop = asyncio.get_running_loop()
        took: list[tuple[str, float]] = []
        began = mark = loop.time()

        def done(step: str) -> None:
            nonlocal mark
            took.append((step, loop.time() - mark))
            mark = loop.time()

        await self.readers.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self.pruner.close()
        if self.server is not None:
            self.downloads.stop()  # a download would hold the stop until its reader is done
            self.server.close(code=Close.RESTARTING.code, reason=Close.RESTARTING.reason)
            await self.server.wait_closed()
            loop.set_exception_handler(self._exception_handler)
        done("connections")
        await self.hub.shutdown()
        self.thinker.close()
        done("tables")
        if self.relay is not None:
            await self.relay.close()
        if self.cluster is not None:
            await self.cluster.close()
        done("cluster")
        await self.db.close()
        done("database")
        if loop.time() - began > SLOW_STOP:
            log.warning("the stop took %.1f s: %s", loop.time() - began, ", ".join(f"{s} {t:.1f} s" for s, t in took))
