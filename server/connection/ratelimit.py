"""Rate limits: a token bucket per connection and a failure counter per client address.

Both read the time from ``clock`` (the monotonic clock unless a test gives its own). A limit kept per client
address keys it with ``address_key``: one IPv6 host usually holds a whole /64, so the /64 is the address.
"""

from __future__ import annotations

import ipaddress
import time
from collections import deque
from collections.abc import Callable

Clock = Callable[[], float]


def address_key(address: str) -> str:
    """Return the key a per-address limit counts ``address`` under: IPv4 whole, IPv6 by its /64.

    An IPv4-mapped IPv6 address counts as its IPv4 address; text that is no address is its own key.
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class TokenBucket:
    """Allow ``rate`` events a second on average, with bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.stamp = clock()

    def take(self) -> bool:
        """Spend one token; return False when the bucket is empty."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Window:
    """At most ``limit`` events per key within the last ``window`` seconds; keys with none left are forgotten.

    The time comes from ``clock`` (called each time, so a test may change it); keys whose events have all left the
    window go at the next ``sweep`` (``take`` sweeps once per window by itself).
    """

    def __init__(self, limit: int, window: float, clock: Clock | None = None) -> None:
        self.limit, self.window = limit, window
        self._clock = clock
        self._events: dict[str, deque[float]] = {}
        self._swept = self.now()

    def now(self) -> float:
        """The time on this window's clock."""
        return self._clock() if self._clock is not None else time.monotonic()

    def _recent(self, key: str, now: float) -> deque[float] | None:
        events = self._events.get(key)
        if events is not None:
            cutoff = now - self.window
            while events and events[0] <= cutoff:
                events.popleft()
            if not events:  # a key asked about after its window takes no memory
                del self._events[key]
                return None
        return events

    def room(self, key: str) -> bool:
        """True when ``key`` may have one more event now."""
        events = self._recent(key, self.now())
        return events is None or len(events) < self.limit

    def add(self, key: str) -> None:
        """Count one event of ``key``, room or not (a failure happened)."""
        now = self.now()
        if now - self._swept >= self.window:
            self.sweep()
        self._recent(key, now)
        self._events.setdefault(key, deque()).append(now)

    def take(self, key: str) -> bool:
        """Count one event of ``key``; False (nothing counted) when its budget is spent for now."""
        if not self.room(key):
            return False
        self.add(key)
        return True

    def give_back(self, key: str) -> None:
        """Uncount the latest event of ``key`` (what it was taken for did not happen)."""
        events = self._events.get(key)
        if events:
            events.pop()

    def sweep(self) -> None:
        """Forget every key whose events have all left the window."""
        now = self._swept = self.now()
        cutoff = now - self.window
        for key in [k for k, events in self._events.items() if not events or events[-1] <= cutoff]:
            del self._events[key]

    def __len__(self) -> int:
        """Return how many keys are kept."""
        return len(self._events)


class FailureLimiter:
    """Count failures per client address in a sliding window; ``blocked`` once ``limit`` is reached.

    A key is a client address counted by its ``address_key`` (any other text is its own key). Keys whose failures
    have left the window go at the next ``sweep`` (the app sweeps every window).
    """

    def __init__(self, limit: int, window: float, clock: Clock = time.monotonic) -> None:
        self.failures = Window(limit, window, clock)

    def blocked(self, key: str) -> bool:
        """Return True when ``key`` has failed ``limit`` times within the window."""
        return not self.failures.room(address_key(key))

    def fail(self, key: str) -> None:
        """Record one failure for ``key``."""
        self.failures.add(address_key(key))

    def sweep(self) -> None:
        """Forget every key whose failures have all left the window."""
        self.failures.sweep()

    def stored(self) -> int:
        """Return how many keys are stored (each with a failure still in the window, until the next sweep)."""
        return len(self.failures)
