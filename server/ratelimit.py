"""Rate limits: a token bucket per connection and a failure counter per client address."""

from __future__ import annotations

import time
from collections import deque


class TokenBucket:
    """Allow ``rate`` events a second on average, with bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one token; return False when the bucket is empty."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class FailureLimiter:
    """Count failures per key in a sliding window; ``blocked`` once ``limit`` is reached."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self._hits: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        hits = self._hits.setdefault(key, deque())
        cutoff = time.monotonic() - self.window
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
        self._hits.setdefault(key, deque()).append(time.monotonic())
