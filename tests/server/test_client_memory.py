"""What one connection's ``Client`` costs: an idle connection's memory is what 10,000 connections on one node add up.

``hearts bench server --tables 500 --idle 8000`` measures the whole connection (the library's part included);
this keeps our part small: ``Client`` stays under the 30 instance attributes past which CPython 3.11 gives every
instance a dict of its own (1,648 bytes instead of about 330), and the limits an idle connection never spends are
made on first use (``connection.client.Budgets``).
"""

from __future__ import annotations

import tracemalloc

from hartenjagen.server.config import Config
from hartenjagen.server.connection.client import Client


def test_a_client_stays_small_until_it_spends_a_seldom_used_limit() -> None:
    config = Config()
    first = Client(None, "127.0.0.1", config)
    assert len(vars(first)) < 30, sorted(vars(first))
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        clients = [Client(None, "127.0.0.1", config) for _ in range(500)]
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    per_client = sum(s.size_diff for s in after.compare_to(before, "filename")) / len(clients)
    assert per_client < 1024, per_client  # 3.1 KiB with the limits made at once and a dict of its own
    # the limits are there when spent, and stay the same objects
    client = clients[0]
    assert client.guesses is client.guesses and not client.guesses.blocked("")
    assert client.play_now.take() and client.reports.take()
    client.chat_sent.append(1.0)
    assert list(client.chat_sent) == [1.0]
