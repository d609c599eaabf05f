"""The rate limiters on a clock of the test's own: a token bucket per connection, failures per address."""

from __future__ import annotations

from hartenjagen.server.connection.ratelimit import FailureLimiter, TokenBucket, address_key

from .conftest import wait_for


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
    assert not limiter.blocked("10.0.0.1") and limiter.stored() == 0  # forgotten keys take no memory


def test_an_address_is_keyed_whole_for_ipv4_and_by_its_64_for_ipv6():
    assert address_key("203.0.113.9") == "203.0.113.9"
    assert address_key("::ffff:203.0.113.9") == "203.0.113.9"  # IPv4 mapped into IPv6 is the IPv4 address
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::2") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("?") == "?"  # what is no address is its own key


def test_two_addresses_of_one_64_share_a_budget_and_swept_keys_leave_nothing_behind():
    clock = Clock()
    limiter = FailureLimiter(limit=2, window=60.0, clock=clock)
    limiter.fail("2001:db8:7:7::1")
    limiter.fail("2001:db8:7:7:ffff::2")
    assert limiter.blocked("2001:db8:7:7::3") and not limiter.blocked("2001:db8:7:8::1")
    for i in range(100_000):  # a spray of addresses, each failing once and never asking again
        limiter.fail(f"10.{i >> 16}.{i >> 8 & 255}.{i & 255}")
    assert limiter.stored() == 100_001
    clock.now += 30
    limiter.sweep()  # still within their window: kept
    assert limiter.stored() == 100_001
    clock.now += 31
    limiter.sweep()
    assert limiter.stored() == 0


async def test_the_app_sweeps_the_failures_per_address_every_window(make_server):
    srv = await make_server(code_window=0.05)
    guesses = srv.app.hub.guesses
    for i in range(1000):
        guesses.fail(f"192.0.2.{i % 250}")
    assert guesses.stored() == 250
    await wait_for(lambda: guesses.stored() == 0)  # nobody asked about them again
