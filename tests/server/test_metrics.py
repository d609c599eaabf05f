"""``GET /metrics``: each node's Prometheus metrics, for loopback and the trusted proxies only; every series moves when
its event happens (a move, a commit, a computer decision, a relayed connection, a lease lost, a table adopted, a
limit's refusal).

In-process servers for one node; real ``hearts serve`` processes on PostgreSQL and Redis (``test_cluster.Cluster``,
leases of 1.5 s) for the cluster's series. Every wait is for a state, read from ``/metrics`` or the table.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys

import pytest
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed, InvalidStatus

from hartenjagen.server import metrics as metrics_module
from hartenjagen.server.net.addresses import from_inside, parse_proxies
from hartenjagen.shared.cards import CARD_NAMES

from .conftest import http_get, move_once, my_move, wait_for
from .crashkit import ROOT, ServerProcess
from .test_cluster import BUDGET, table_id_of, wait_until

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parse(body: bytes) -> Samples:
    """Every sample of a text-format answer, by name and labels."""
    found: Samples = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(samples: Samples, name: str, **labels: str) -> float:
    """One sample's value (0 when the series has none yet)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def scrape(server) -> Samples:
    """An in-process server's /metrics, asked from loopback."""
    status, _, body = await server.get("/metrics")
    assert status == 200, body
    return parse(body)


async def scrape_node(node: ServerProcess) -> Samples:
    """A node process's /metrics, asked from loopback."""
    status, _, body = await asyncio.to_thread(http_get, f"http://127.0.0.1:{node.port}/metrics")
    assert status == 200, body
    return parse(body)


async def at_my_move(p) -> None:
    """Read until the table waits for this person's pass or card (the computer players have moved)."""
    await p.until(my_move)


async def table_with_computers(server, level: str = "easy"):
    """Anna hosts a table, computer players of ``level`` fill the other seats, and she starts it."""
    anna = await server.host("Anna")
    await anna.send("fill_computers", level=level)
    await anna.send("start")
    await at_my_move(anna)
    return anna


# --------------------------------------------------------------------------- who may read it


async def test_loopback_reads_the_metrics_in_prometheus_s_text_format(server):
    status, headers, body = await server.get("/metrics")
    assert status == 200 and headers["Content-Type"] == CONTENT_TYPE_PLAIN_0_0_4  # the library's text format 0.0.4
    assert headers["Content-Type"].startswith("text/plain; version=0.0.4")
    samples = parse(body)
    assert value(samples, "hearts_connections") == 0 and value(samples, "hearts_tables", status="waiting") == 0
    assert value(samples, "process_resident_memory_bytes") > 0  # the process metrics come from the library
    assert value(samples, "process_cpu_seconds_total") > 0
    status, headers, body = await server.get("/metrics", {"Accept": "application/openmetrics-text; version=1.0.0"})
    assert status == 200 and headers["Content-Type"].startswith("application/openmetrics-text")

    anna = await server.host("Anna")
    samples = await scrape(server)
    assert value(samples, "hearts_connections") == 1 and value(samples, "hearts_tables", status="waiting") == 1
    await anna.ws.close()
    await wait_for(lambda: not server.app.hub.clients)
    assert value(await scrape(server), "hearts_connections") == 0


async def test_a_player_behind_a_trusted_proxy_gets_the_404_of_a_path_that_does_not_exist(make_server):
    server = await make_server(trusted_proxies="127.0.0.1/32")
    nothing = await server.get("/no-such-file")
    assert nothing[0] == 404
    for forwarded in ("203.0.113.9", "127.0.0.1, 203.0.113.9", "203.0.113.9, 127.0.0.1"):
        answer = await server.get("/metrics", {"X-Forwarded-For": forwarded})
        assert answer == nothing, forwarded  # the same status, headers and body: nobody learns it exists
    assert (await server.get("/metrics", {"X-Real-IP": "203.0.113.9"})) == nothing
    assert (await server.get("/metrics", {"Forwarded": "for=203.0.113.9"})) == nothing
    assert (await server.get("/metrics"))[0] == 200  # the proxy (loopback here) asking for itself
    assert (await server.get("/metrics", {"X-Forwarded-For": "127.0.0.1"}))[0] == 200


async def test_without_trusted_proxies_a_request_forwarded_for_a_player_is_refused_too(server):
    nothing = await server.get("/no-such-file")
    assert (await server.get("/metrics", {"X-Forwarded-For": "203.0.113.9"})) == nothing


def test_only_loopback_and_trusted_proxies_asking_for_themselves_may_read_the_metrics():
    proxies = parse_proxies("10.0.0.0/8")
    none = parse_proxies("")

    def asks(peer: str, proxies=proxies, **headers: str) -> bool:
        return from_inside((peer, 40000), Headers({k.replace("_", "-"): v for k, v in headers.items()}), proxies)

    assert asks("127.0.0.1") and asks("127.8.9.1") and asks("::1") and asks("::ffff:127.0.0.1")
    assert asks("10.1.2.3") and not asks("10.1.2.3", proxies=none)  # a proxy only when trusted
    assert not asks("203.0.113.9") and not asks("192.0.2.2") and not asks("?")
    assert not asks("10.1.2.3", X_Forwarded_For="198.51.100.7")  # a player behind the proxy
    assert not asks("127.0.0.1", X_Forwarded_For="198.51.100.7")  # ... whether or not the proxy is trusted
    assert not asks("10.1.2.3", X_Forwarded_For="198.51.100.7, 10.0.0.5")  # a player behind two proxies
    assert asks("10.1.2.3", X_Forwarded_For="10.0.0.5")  # proxies all the way
    assert not asks("10.1.2.3", X_Real_IP="198.51.100.7") and not asks("127.0.0.1", Forwarded="for=10.0.0.5")
    assert not asks("10.1.2.3", X_Forwarded_For="unknown")
    assert from_inside(("127.0.0.1", 1), None, none) and not from_inside(None, None, proxies)


def test_without_prometheus_client_every_metric_is_a_no_op_and_the_server_still_imports():
    code = (
        "import sys; sys.modules['prometheus_client'] = None\n"  # as if not installed: importing it fails
        "from hartenjagen.server import metrics\n"
        "from hartenjagen.server.net import app\n"
        "assert not metrics.AVAILABLE\n"
        "m = metrics.Metrics()\n"
        "m.frames_sent.inc(); m.relayed_in.inc(); m.move_seconds.observe(0.1); m.decision_seconds('hard').observe(1)\n"
        "m.watch(lambda: 3, dict)\n"
        "assert not m.enabled and m.exposition() is None and m.registry is None\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


async def test_without_prometheus_client_loopback_is_told_why_and_a_player_still_gets_the_404(make_server, monkeypatch):
    monkeypatch.setattr(metrics_module, "AVAILABLE", False)  # the app's Metrics() sees a plain install
    server = await make_server(trusted_proxies="127.0.0.1/32")
    status, headers, body = await server.get("/metrics")
    assert status == 501 and headers["Content-Type"] == "application/json"
    assert json.loads(body)["error"] == "metrics_unavailable" and "[metrics]" in json.loads(body)["install"]
    assert (await server.get("/metrics", {"X-Forwarded-For": "203.0.113.9"}))[0] == 404
    anna = await table_with_computers(server)  # nothing counts, everything plays
    await move_once(anna)


async def test_every_series_a_node_serves_is_documented_and_nothing_more(server):
    _, _, body = await server.get("/metrics")
    served = {f.name for f in text_string_to_metric_families(body.decode()) if f.name.startswith("hearts_")}
    doc = (ROOT / "docs" / "protocol.md").read_text().split("\n## Metrics\n", 1)[1].split("\n## ", 1)[0]
    documented = {name.removesuffix("_total") for name in re.findall(r"^- `(hearts_\w+)", doc, re.M)}
    assert served == documented


# --------------------------------------------------------------------------- each series moves with its event


async def test_a_move_is_timed_and_its_messages_are_counted(server):
    anna = await table_with_computers(server)
    await server.settled()
    before = await scrape(server)
    assert value(before, "hearts_tables", status="playing") == 1 and value(before, "hearts_connections") == 1
    await move_once(anna)  # a pass (the first hand passes) or a card, read back from the table
    await server.settled()
    after = await scrape(server)
    assert value(after, "hearts_move_seconds_count") == value(before, "hearts_move_seconds_count") + 1
    assert value(after, "hearts_move_seconds_sum") > value(before, "hearts_move_seconds_sum")
    assert value(after, "hearts_move_seconds_bucket", le="+Inf") == value(after, "hearts_move_seconds_count")
    assert value(after, "hearts_frames_sent_total") > value(before, "hearts_frames_sent_total")


async def test_a_refused_move_is_not_timed(server):
    anna = await table_with_computers(server)
    await server.settled()
    before = await scrape(server)
    card = next(c for c in CARD_NAMES if c not in anna.table["view"]["hand"])  # not hers: the table refuses it
    error = await anna.error("play", card=card)
    assert error["code"] in ("illegal", "wrong_phase"), error
    after = await scrape(server)
    assert value(after, "hearts_move_seconds_count") == value(before, "hearts_move_seconds_count")
    assert value(after, "hearts_frames_sent_total") == value(before, "hearts_frames_sent_total") + 1  # the error


async def test_each_limit_s_refusals_are_counted_by_limit_and_a_normal_journey_counts_none(make_server):
    server = await make_server(sockets_per_address=3, new_tables_per_minute=1, msg_rate=1.0, msg_burst=6.0)
    anna = await table_with_computers(server)  # hello, create, fill, start: within the burst
    await move_once(anna)
    assert not [k for k in await scrape(server) if k[0] == "hearts_refused_total"]  # a normal journey: none

    bram = await server.connect("Bram")  # from the same address: its one table a minute is Anna's
    assert (await bram.error("create", options={"variant": "classic"}))["code"] == "tables_limited"
    with pytest.raises(InvalidStatus) as refused:  # another site's page
        await connect(server.url, origin="https://evil.example", open_timeout=10)
    assert refused.value.response.status_code == 403
    flood = await connect(server.url, open_timeout=10)  # the address's third socket
    with pytest.raises(InvalidStatus) as refused:
        await connect(server.url, open_timeout=10)
    assert refused.value.response.status_code == 429
    for _ in range(10):  # far past the burst, at once
        await flood.send(json.dumps({"type": "ping"}))
    with pytest.raises(ConnectionClosed):
        while True:
            await flood.recv()
    assert flood.close_code == 1008 and flood.close_reason == "too many messages"
    await flood.close()

    samples = await scrape(server)
    refusals = {dict(labels)["limit"]: n for (name, labels), n in samples.items() if name == "hearts_refused_total"}
    assert refusals == {"tables_limited": 1, "origin": 1, "sockets_per_address": 1, "flooding": 1}
    await bram.ws.close()


async def test_a_socket_that_never_says_hello_is_closed_and_counted_as_no_hello(make_server):
    server = await make_server(hello_timeout=0.1)
    silent = await connect(server.url, open_timeout=10)
    with pytest.raises(ConnectionClosed):
        await silent.recv()  # nothing comes but the close, at the server's next look
    assert silent.close_code == 1008 and silent.close_reason == "no hello"
    refusals = {dict(labels)["limit"]: n for (name, labels), n in (await scrape(server)).items()
                if name == "hearts_refused_total"}  # fmt: skip
    assert refusals == {"no_hello": 1}


async def test_every_store_commit_is_timed(server):
    before = await scrape(server)
    await server.host("Anna")  # her hello (a new player) and the new table's first entries are stored
    await server.settled()
    after = await scrape(server)
    commits = value(after, "hearts_store_commit_seconds_count") - value(before, "hearts_store_commit_seconds_count")
    assert commits >= 1 and value(after, "hearts_store_commit_seconds_sum") > 0
    assert server.app.db.commits.batches == value(after, "hearts_store_commit_seconds_count")  # one each


async def test_computer_decisions_are_timed_by_level(server):
    await table_with_computers(server, level="medium")
    await server.settled()
    samples = await scrape(server)
    assert value(samples, "hearts_computer_decision_seconds_count", level="medium") >= 3  # three seats decided
    assert value(samples, "hearts_computer_decision_seconds_count", level="hard") == 0


# --------------------------------------------------------------------------- the cluster's series


async def test_a_guest_relayed_to_the_table_s_node_counts_frames_out_on_the_edge_and_in_on_the_owner(cluster):
    async with asyncio.timeout(BUDGET):
        owner, edge = cluster.start("node-a"), cluster.start("node-b")
        anna = await cluster.open(owner, "Anna")
        await anna.send("create", options={"variant": "classic", "end_score": 25})
        code = (await anna.expect("joined"))["code"]
        before = {node.name: await scrape_node(node) for node in (owner, edge)}
        bram = await cluster.open(edge, "Bram")  # a plain connection (no X-Hearts-Route): relayed, never moved
        await bram.send("join", code=code)
        await bram.expect("joined")
        await bram.wait(lambda: bram.table is not None, what="the table through the relay")
        at_edge, at_owner = await scrape_node(edge), await scrape_node(owner)

        def grew(node: ServerProcess, now: Samples, direction: str) -> float:
            return value(now, "hearts_relayed_frames_total", direction=direction) - value(
                before[node.name], "hearts_relayed_frames_total", direction=direction
            )

        assert grew(edge, at_edge, "out") >= 1 and grew(owner, at_owner, "in") >= 1  # the join went over
        assert grew(owner, at_owner, "out") >= 2 and grew(edge, at_edge, "in") >= 2  # joined and the table came back
        # the messages the owner sent came out of the edge's websocket
        edge_sent = value(at_edge, "hearts_frames_sent_total") - value(before["node-b"], "hearts_frames_sent_total")
        assert edge_sent >= 2
        assert value(at_edge, "hearts_tables", status="waiting") == 0  # the table stays on its node
        assert value(at_owner, "hearts_tables", status="waiting") == 1


async def test_a_lease_another_node_holds_now_is_counted_lost(cluster):
    async with asyncio.timeout(BUDGET):
        node = cluster.start("node-a")
        anna, code = await cluster.table_at(node)
        await anna.until_seq(1)
        assert value(await scrape_node(node), "hearts_leases_lost_total") == 0
        table_id = await table_id_of(cluster.db, code)
        # another node, alive, holds the table's lease now: node-a's next renewal finds it
        await cluster.redis.set(f"{cluster.prefix}node:node-x", json.dumps({"node": "node-x"}), px=30_000)
        await cluster.redis.set(f"{cluster.prefix}lease:{table_id}", "node-x#999999", px=30_000)

        async def lost() -> Samples | None:
            samples = await scrape_node(node)
            return samples if value(samples, "hearts_leases_lost_total") == 1 else None

        samples = await wait_until(lost, what="the lease counted lost")
        assert value(samples, "hearts_tables", status="playing") == 0
        await anna.wait(lambda: anna.closed, what="the table's connection closed")
        assert anna.close_code == 1012
        assert value(samples, "hearts_tables_adopted_total") == 0


async def test_a_killed_node_s_table_is_counted_adopted_on_the_node_that_takes_it(cluster):
    async with asyncio.timeout(BUDGET):
        dead, heir = cluster.start("node-a"), cluster.start("node-b")
        anna, _ = await cluster.table_at(dead)
        # shown, so stored (write-ahead): the heir adopts it playing
        await anna.wait(lambda: anna.table is not None and anna.table["status"] == "playing", what="the start")
        assert value(await scrape_node(heir), "hearts_tables_adopted_total") == 0
        os.kill(dead.pid, signal.SIGKILL)

        async def adopted() -> Samples | None:
            samples = await scrape_node(heir)
            return samples if value(samples, "hearts_tables_adopted_total") == 1 else None

        samples = await wait_until(adopted, timeout=15.0, what="the table adopted")  # presence runs out in 3 s
        assert value(samples, "hearts_tables", status="playing") == 1
        assert value(samples, "hearts_leases_lost_total") == 0
