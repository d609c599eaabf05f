"""Limits per client address and per table: sockets open at once, new players and tables, chat lines, reports.

A household or a café shares one address, so each budget is roomy for people and tight for a script; an IPv6 host
usually holds a whole /64, so the /64 is the address (``ratelimit.address_key``, kept on each connection as
``Client.address_key``). Each node counts its own. docs/protocol.md lists every limit (Limits); the settings say
how much (``server/settings.py``). The time comes from ``clock`` (a test gives its own).
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING

from ..config import Config
from ..table.errors import ProtocolError
from .ratelimit import Window

if TYPE_CHECKING:
    from ..table.table import Table
    from .client import Client

clock = time.monotonic  # every budget's time (a test gives its own)


def now() -> float:
    """The time on the budgets' clock (read through the module, so that a test's own clock counts)."""
    return clock()


CHAT_BURST = 5  # chat lines one connection may send within the chat window
MINUTE = 60.0
HOUR = 3600.0
#: A websocket upgrade over ``sockets_per_address`` gets this: HTTP 429 with ``Retry-After`` (seconds)
SOCKETS_RETRY_AFTER = 30


def within(events: deque[float], limit: int, window: float, now: float) -> bool:
    """Forget ``events`` older than ``window`` seconds; True while fewer than ``limit`` are left (room for one)."""
    cutoff = now - window
    while events and events[0] <= cutoff:
        events.popleft()
    return len(events) < limit


class Sockets:
    """The websockets open now per address; ``admit`` refuses one past ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}
        self.refused = 0  # upgrades answered 429

    def admit(self, key: str) -> bool:
        """Count a new socket of ``key`` in; False (not counted) when ``key`` has ``limit`` open already."""
        held = self.open.get(key, 0)
        if held >= self.limit:
            self.refused += 1
            return False
        self.open[key] = held + 1
        return True

    def release(self, key: str) -> None:
        """A socket of ``key`` closed."""
        held = self.open.get(key, 0) - 1
        if held > 0:
            self.open[key] = held
        else:
            self.open.pop(key, None)


class Limits:
    """The node's budgets per address and per table, made once from the settings; the handlers spend them."""

    def __init__(self, config: Config) -> None:
        self.new_players = Window(config.new_players_per_minute, MINUTE, now)
        self.new_tables = Window(config.new_tables_per_minute, MINUTE, now)
        self.chat_window = config.chat_window
        self.chat_by_address = Window(config.chat_per_address, config.chat_window, now)
        self.chat_by_table = Window(config.chat_per_table, config.chat_window, now)
        self.reports = Window(config.reports_per_address, HOUR, now)

    def new_table(self, client: Client) -> None:
        """Count a table about to be opened from the connection's address, or refuse it (``tables_limited``)."""
        if not self.new_tables.take(client.address_key):
            raise ProtocolError("tables_limited", count=self.new_tables.limit)

    def chat(self, client: Client, table: Table) -> None:
        """Count one chat line of ``client`` at ``table``, or refuse it: the connection's, the address's, the table's.

        A refused line counts nowhere.
        """
        seconds = int(self.chat_window) if self.chat_window == int(self.chat_window) else self.chat_window
        if not within(client.chat_sent, CHAT_BURST, self.chat_window, clock()):
            raise ProtocolError("chat_limited", count=CHAT_BURST, seconds=seconds)
        if not self.chat_by_address.room(client.address_key):
            raise ProtocolError("chat_limited_address", count=self.chat_by_address.limit, seconds=seconds)
        if not self.chat_by_table.take(table.table_id):
            raise ProtocolError("chat_busy", count=self.chat_by_table.limit, seconds=seconds)
        self.chat_by_address.take(client.address_key)
        client.chat_sent.append(clock())

    def report(self, client: Client) -> None:
        """Count one report from the connection and its address, or refuse it (``reports_limited``)."""
        if not self.reports.room(client.address_key) or not client.reports.take():
            raise ProtocolError("reports_limited")
        self.reports.take(client.address_key)
