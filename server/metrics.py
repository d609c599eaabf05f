"""One node's Prometheus metrics (``GET /metrics``), kept by the optional ``prometheus-client`` (the ``metrics`` extra).

Every layer may import this module: it imports nothing of the project. Each node (``net.app.App``) makes its own
``Metrics``, with a registry of its own (tests run several nodes in one process; the library's global registry is
never used), and hands it to the parts that count: the hub and its tables, the store's group commit, the computer
players, the relay, each connection. Without the library every metric is a no-op and ``exposition`` is None;
``NO_METRICS`` is what a part counts into until it is given its node's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, cast

try:
    from prometheus_client import (
        CollectorRegistry,
        Counter,
        Gauge,
        GCCollector,
        Histogram,
        PlatformCollector,
        ProcessCollector,
        disable_created_metrics,
    )
    from prometheus_client.core import GaugeMetricFamily
    from prometheus_client.exposition import choose_encoder

    AVAILABLE = True
except ImportError:  # the plain install: /metrics is not served and nothing is counted
    AVAILABLE = False

if TYPE_CHECKING:
    from prometheus_client.registry import Collector

#: Seconds: a move and a group commit take milliseconds, a computer decision up to the decision timeout (5 s).
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
DECISION_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)


class Counting(Protocol):
    """A counter as the counting code sees it."""

    def inc(self, amount: float = 1) -> None:
        """Add ``amount`` (one event by default)."""


class Timing(Protocol):
    """A histogram as the timing code sees it."""

    def observe(self, amount: float) -> None:
        """Count one event that took ``amount`` seconds."""


class Idle:
    """A metric that keeps nothing: every metric without the library, and of ``NO_METRICS``."""

    __slots__ = ()

    def inc(self, amount: float = 1) -> None:
        """Count nothing."""

    def observe(self, amount: float) -> None:
        """Time nothing."""


IDLE = Idle()
TABLES_HELP = "Tables this node holds, by status"


class _TablesByStatus:
    """``hearts_tables{status}``, counted when scraped (never on the hot path)."""

    def __init__(self) -> None:
        self.count: Callable[[], dict[str, int]] = dict  # the node's tables by status (set by ``Metrics.watch``)

    def describe(self) -> Iterator[Any]:
        """The family without samples: its name for the registry."""
        yield GaugeMetricFamily("hearts_tables", TABLES_HELP, labels=["status"])

    def collect(self) -> Iterator[Any]:
        """The tables this node holds now, by status."""
        family = GaugeMetricFamily("hearts_tables", TABLES_HELP, labels=["status"])
        for status, n in sorted(self.count().items()):
            family.add_metric([status], n)
        yield family


class Metrics:
    """One node's metrics, in a registry of its own with the process, platform and GC collectors; idle without it."""

    def __init__(self, enabled: bool = True) -> None:
        self.frames_sent: Counting = IDLE  # websocket messages written to this node's connections
        self.relayed_out: Counting = IDLE  # relay frames this node sent to another node
        self.relayed_in: Counting = IDLE  # relay frames this node got from another node
        self.move_seconds: Timing = IDLE  # a pass or play, from received to its messages written
        self.commit_seconds: Timing = IDLE  # one group commit transaction
        self.leases_lost: Counting = IDLE  # a table lease found held by another node (or refused by the database)
        self.tables_adopted: Counting = IDLE  # an orphaned table (its node died or let go) restored here
        self._decisions: dict[str, Any] = {}  # by level: the children of hearts_computer_decision_seconds
        self._decision_family: Any = None
        self._refusals: dict[str, Any] = {}  # by limit: the children of hearts_refused_total
        self._refused_family: Any = None
        self._connections: Any = None
        self._tables: _TablesByStatus | None = None
        self.registry: Any = None  # the CollectorRegistry (None: idle)
        if enabled and AVAILABLE:
            self._build()

    @property
    def enabled(self) -> bool:
        """True when the library is there and this node counts."""
        return self.registry is not None

    def _build(self) -> None:
        # no ``_created`` twin of every counter and histogram (a switch of the process, whose only user this is)
        disable_created_metrics()  # type: ignore[no-untyped-call]  # the library leaves it unannotated
        registry = self.registry = CollectorRegistry()
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        self.frames_sent = Counter(
            "hearts_frames_sent_total", "Websocket messages written to connections of this node", registry=registry
        )
        relayed = Counter(
            "hearts_relayed_frames_total",
            "Relay frames this node sent to (out) or got from (in) another node",
            ["direction"],
            registry=registry,
        )
        self.relayed_out, self.relayed_in = relayed.labels(direction="out"), relayed.labels(direction="in")
        self.move_seconds = Histogram(
            "hearts_move_seconds",
            "Pass and play messages handled here, from received to their messages written",
            buckets=MOVE_BUCKETS,
            registry=registry,
        )
        self.commit_seconds = Histogram(
            "hearts_store_commit_seconds", "Group commit transactions", buckets=COMMIT_BUCKETS, registry=registry
        )
        self._decision_family = Histogram(
            "hearts_computer_decision_seconds",
            "Computer player decisions, by level",
            ["level"],
            buckets=DECISION_BUCKETS,
            registry=registry,
        )
        self.leases_lost = Counter(
            "hearts_leases_lost_total", "Table leases this node found held by another node", registry=registry
        )
        self.tables_adopted = Counter(
            "hearts_tables_adopted_total", "Orphaned tables this node adopted", registry=registry
        )
        self._refused_family = Counter(
            "hearts_refused_total",
            "Messages, connections and requests a limit refused, by limit",
            ["limit"],
            registry=registry,
        )
        self._connections = Gauge("hearts_connections", "Websocket connections on this node", registry=registry)
        self._tables = _TablesByStatus()
        registry.register(cast("Collector", self._tables))

    def decision_seconds(self, level: str) -> Timing:
        """The histogram of the computer decisions of ``level`` (easy, medium, hard, ...)."""
        return cast(Timing, _child(self._decision_family, self._decisions, level=level))

    def refused(self, limit: str) -> Counting:
        """The counter of what ``limit`` refused: a limit's error code, close reason or refused upgrade."""
        return cast(Counting, _child(self._refused_family, self._refusals, limit=limit))

    def watch(self, connections: Callable[[], int], tables: Callable[[], dict[str, int]]) -> None:
        """Read the node's connection count and its tables by status at each scrape."""
        if self._connections is not None and self._tables is not None:
            self._connections.set_function(connections)
            self._tables.count = tables

    def exposition(self, accept: str | None = None) -> tuple[bytes, str] | None:
        """Every metric and its content type, in the format ``accept`` asks for; None without the library.

        Without an ``Accept`` header (or one the library does not offer) it is Prometheus's text format 0.0.4.
        """
        if self.registry is None:
            return None
        encode, content_type = choose_encoder(accept or "")
        return encode(self.registry), content_type


def _child(family: Any, children: dict[str, Any], **label: str) -> Any:
    """The child of the labelled ``family`` for the one ``label`` given, made once and kept in ``children``.

    IDLE while the family is not made (no library, or ``NO_METRICS``).
    """
    if family is None:
        return IDLE
    (value,) = label.values()
    child = children.get(value)
    if child is None:
        child = children[value] = family.labels(**label)
    return child


#: What a part counts into until it is given its node's metrics: nothing.
NO_METRICS = Metrics(enabled=False)
