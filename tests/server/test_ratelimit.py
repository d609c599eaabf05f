"""The rate limiters on a clock of the test's own: a token bucket per connection, failures per address."""

from __future__ import annotations

from hartenjagen.server.net.ratelimit import FailureLimiter, TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_its_burst_then_its_rate_and_refills_up_to_the_burst_only():
    clock = Clock()
    bucket = TokenBucket(rate=20.0, burst=40.0, clock=clock)
    assert [bucket.take() for _ in range(41)] == [True] * 40 + [False]
    clock.now += 0.5  # half a second: ten more
    assert [bucket.take() for _ in range(11)] == [True] * 10 + [False]
    clock.now += 3600  # a long pause refills to the burst, not beyond
    assert sum(bucket.take() for _ in range(100)) == 40


def test_failures_block_a_key_at_the_limit_within_the_window_and_age_out():
    clock = Clock()
    limiter = FailureLimiter(limit=3, window=60.0, clock=clock)
    for _ in range(2):
        limiter.fail("10.0.0.1")
        clock.now += 10
    assert not limiter.blocked("10.0.0.1")
    limiter.fail("10.0.0.1")
    assert limiter.blocked("10.0.0.1") and not limiter.blocked("10.0.0.2")  # per key
    clock.now += 41  # the first failure is now 61 s old
    assert not limiter.blocked("10.0.0.1")
    clock.now += 60
    assert not limiter.blocked("10.0.0.1") and limiter._hits == {}  # forgotten keys take no memory
