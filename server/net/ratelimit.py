"""Rate limits: a token bucket per connection and a failure counter per client address.

Both read the time from ``clock`` (the monotonic clock unless a test gives its own).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

Clock = Callable[[], float]


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


class FailureLimiter:
    """Count failures per key in a sliding window; ``blocked`` once ``limit`` is reached."""

    def __init__(self, limit: int, window: float, clock: Clock = time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._hits: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        hits = self._hits.setdefault(key, deque())
        cutoff = self.clock() - self.window
        while hits and hits[0] < cutoff:
            hits.popleft()
        if not hits:
            del self._hits[key]
            return deque()
        return hits

    def blocked(self, key: str) -> bool:
        """Return True when ``key`` has failed ``limit`` times within the window."""
        return len(self._recent(key)) >= self.limit

    def fail(self, key: str) -> None:
        """Record one failure for ``key``."""
        self._recent(key)
        self._hits.setdefault(key, deque()).append(self.clock())
