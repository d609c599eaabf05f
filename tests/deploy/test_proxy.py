"""deploy/: nginx in front of three real cluster nodes, no sticky sessions, and the compose file's shape.

``deploy/nginx.conf`` is the file the compose setup mounts, rendered for loopback: ``node1:8000`` .. ``node3:8000``
become three real ``hearts serve`` nodes (a PostgreSQL database and a Redis key prefix of their own, as in
``tests/server/test_cluster.py``), the listen port a free one, logs, pid and temp files go to ``tmp_path``. Then a
real ``nginx`` (``tools/ensure_services.sh`` installs Debian's) runs it. No docker is needed: the compose file gets
a static check of its text (the project has no YAML parser, and the file is simple on purpose).
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from server.conftest import cluster  # noqa: F401 (the fixture: nodes, database, key prefix, cleanup)
from server.crashkit import ROOT, Client, ServerProcess
from server.test_store_restore import play_until as play
from websockets.exceptions import InvalidStatus

from hartenjagen.server.net.addresses import parse_proxies
from hartenjagen.tools.nginx import CONF, NODES, Nginx, free_port, nginx_binary, render

COMPOSE = ROOT / "deploy" / "compose.yaml"
BUDGET = 30.0


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as resp:
        assert resp.status == 200, resp.status
        return json.loads(resp.read())


def health(node: ServerProcess) -> dict[str, Any]:
    """A node's own ``/healthz`` (straight to it, not through the proxy)."""
    return get_json(f"http://127.0.0.1:{node.port}/healthz")


def start_proxy(nodes: list[ServerProcess], nginx: str, tmp: Path, routes: bool = True) -> Nginx:
    """deploy/nginx.conf in front of ``nodes`` (named as in it); ``routes=False``: a plain round-robin proxy."""
    return Nginx.run({n.name: n.port for n in nodes}, tmp, routes, nginx)


@pytest.fixture
def nginx() -> str:
    found = nginx_binary()
    assert found, "no nginx binary: run tools/ensure_services.sh (it installs Debian's nginx)"
    return found


@pytest.fixture
def proxy_dir(tmp_path) -> Path:
    path = tmp_path / "nginx"
    path.mkdir()
    return path


async def test_nginx_spreads_over_all_nodes_and_skips_a_dead_one(cluster, nginx, proxy_dir):  # noqa: F811
    async with asyncio.timeout(BUDGET):
        nodes = [cluster.start(name) for name in NODES]
        listen = free_port()
        conf = proxy_dir / "nginx.conf"
        conf.write_text(render(CONF.read_text(), {n.name: n.port for n in nodes}, listen, proxy_dir, nginx))
        proxy = Nginx(nginx, conf, proxy_dir, listen)
        checked = proxy.check()
        assert checked.returncode == 0, checked.stderr
        assert "syntax is ok" in checked.stderr and "test is successful" in checked.stderr
        try:
            proxy.start()
            # plain HTTP: six requests reach all three nodes (no stickiness: one client address, every node)
            seen = Counter([(await asyncio.to_thread(proxy.get, "/healthz"))["node"] for _ in range(6)])
            assert set(seen) == set(NODES), seen

            # websockets: three at once land on three nodes (least_conn), hello and welcome go through
            for i in range(3):
                client = await Client.open(proxy.ws, f"Speler{i}")
                cluster.clients.append(client)
                assert client.welcome["name"] == f"Speler{i}" and client.welcome["player_token"]
            counts = {n.name: health(n)["connections"] for n in nodes}
            assert counts == {name: 1 for name in NODES}, counts

            # a person creates a table through the proxy; it lives on the node that person's connection reached
            anna = await Client.open(proxy.ws, "Anna")
            cluster.clients.append(anna)
            host = max(nodes, key=lambda n: health(n)["connections"])
            assert health(host)["connections"] == 2
            await anna.send("create", options={"variant": "classic", "end_score": 25})
            joined = await anna.expect("joined")
            assert re.fullmatch(r"[A-Z0-9]+", joined["code"]), joined
            await anna.wait(lambda: anna.table is not None, what="the table message")
            assert {n.name: health(n)["tables"] for n in nodes} == {n.name: int(n is host) for n in nodes}

            # a node that is down is skipped: a refused connect goes on to the next node. Anna's node goes down, so
            # the two left hold one person each and least_conn takes turns between them (were one to hold Anna
            # too, every short request would go to the other)
            dead = host
            await dead.crash()
            living = [n for n in nodes if n is not dead]
            after = Counter([(await asyncio.to_thread(proxy.get, "/healthz"))["node"] for _ in range(6)])
            assert set(after) == {n.name for n in living}, after
            late = await Client.open(proxy.ws, "Laat")
            cluster.clients.append(late)
            assert sum(health(n)["connections"] for n in living) == 3  # a Speler on each, and Laat
        finally:
            proxy.stop()
        assert proxy.proc.returncode is not None


# --------------------------------------------------------------------------- static checks of the files


def services(text: str) -> dict[str, str]:
    """The top-level ``services:`` of a simple compose file: each service's name and the text of its block."""
    body = re.search(r"^services:\n(.*?)(?=^\S|\Z)", text, re.M | re.S)
    assert body, "no services: section"
    parts = re.split(r"^  ([\w.-]+):[ \t]*\n", body.group(1), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_compose_runs_postgres_redis_three_nodes_and_the_proxy():
    text = COMPOSE.read_text()
    found = services(text)
    assert set(found) == {"postgres", "redis", *NODES, "proxy", "prometheus"}, list(found)

    pg_block = found["postgres"]
    assert re.search(r"^    image: postgres:16\s*$", pg_block, re.M)
    assert re.search(r"POSTGRES_DB: hearts\b", pg_block) and re.search(r"POSTGRES_USER: hearts\b", pg_block)
    assert "POSTGRES_PASSWORD: ${HEARTS_PG_PASSWORD:-change-me}" in pg_block  # a placeholder, never a secret
    assert "pg_isready" in pg_block and re.search(r"^      - \w+:/var/lib/postgresql/data\s*$", pg_block, re.M)
    volume = re.search(r"^      - (\w+):/var/lib/postgresql/data", pg_block, re.M).group(1)
    assert re.search(rf"^volumes:\n  {volume}:", text, re.M), "the database's volume is a named volume"

    assert re.search(r"^    image: redis:7\s*$", found["redis"], re.M) and "redis-cli" in found["redis"]
    assert '"ping"' in found["redis"] or "ping" in found["redis"].split()

    names = []
    for name in NODES:
        block = found[name]
        assert re.search(r"^    build: \.\.\s*$", block, re.M), name  # the project's Dockerfile
        db = re.search(r"HEARTS_DB: (\S+)", block).group(1)
        assert db == "postgresql://hearts:${HEARTS_PG_PASSWORD:-change-me}@postgres:5432/hearts", db
        assert re.search(r"HEARTS_REDIS: redis://redis:6379\s*$", block, re.M), name
        names.append(re.search(r"HEARTS_NODE: (\S+)", block).group(1))
        trusted = re.search(r"HEARTS_TRUSTED_PROXIES: (\S+)", block).group(1)  # per-client limits behind nginx
        parse_proxies(trusted)
        healthy = re.findall(r"^      (\w+):\n        condition: service_healthy\s*$", block, re.M)
        assert sorted(healthy) == ["postgres", "redis"], (name, healthy)
    assert sorted(names) == list(NODES)  # distinct, and the names nginx.conf proxies to

    proxy = found["proxy"]
    assert re.search(r"^    image: nginx:[\d.]+\s*$", proxy, re.M)
    assert re.search(r"^      - \./nginx\.conf:/etc/nginx/nginx\.conf:ro\s*$", proxy, re.M)
    assert re.search(r"^      - \"8000:8000\"\s*$", proxy, re.M)
    assert "\t" not in text


METRICS = (
    "hearts_connections",
    "hearts_tables",
    "hearts_frames_sent_total",
    "hearts_relayed_frames_total",
    "hearts_move_seconds",
    "hearts_store_commit_seconds",
    "hearts_computer_decision_seconds",
    "hearts_leases_lost_total",
    "hearts_tables_adopted_total",
)


def test_compose_runs_prometheus_on_loopback_scraping_every_node_and_the_dashboard_shows_every_series():
    block = services(COMPOSE.read_text())["prometheus"]
    assert re.search(r"^      context: \.\s*$", block, re.M) and "dockerfile: prometheus.Dockerfile" in block
    assert re.search(r'^      - "127\.0\.0\.1:9090:9090"\s*$', block, re.M)  # never on the host's other addresses
    assert not re.search(r"^    image:", block, re.M)  # built here, from Debian's package
    image = (COMPOSE.parent / "prometheus.Dockerfile").read_text()
    assert re.search(r"^FROM debian:bookworm-slim\s*$", image, re.M) and "apt-get install" in image
    assert re.search(r"install [^\n]*\bprometheus\b", image)
    assert "COPY prometheus.yml /etc/prometheus/prometheus.yml" in image and "--config.file=/etc/prometheus/" in image

    scrape = (COMPOSE.parent / "prometheus.yml").read_text()
    assert re.search(r"^    metrics_path: /metrics\s*$", scrape, re.M)
    targets = re.findall(r"^          - ([\w.-]+:\d+)\s*$", scrape, re.M)
    assert targets == [f"{name}:8000" for name in NODES]  # every node, straight (never the proxy)

    dashboard = json.loads((COMPOSE.parent / "grafana-dashboard.json").read_text())
    exprs = "\n".join(t["expr"] for panel in dashboard["panels"] for t in panel["targets"])
    for name in (*METRICS, "process_cpu_seconds_total", "process_resident_memory_bytes"):
        assert re.search(rf"\b{name}(_bucket)?\b", exprs), name
    assert "histogram_quantile(0.99, sum by (le) (rate(hearts_move_seconds_bucket" in exprs
    assert "histogram_quantile(0.5, sum by (le) (rate(hearts_move_seconds_bucket" in exprs
    protocol = (ROOT / "docs" / "protocol.md").read_text()
    documented = re.findall(r"^- `(hearts_\w+)", protocol.split("\n## Metrics\n", 1)[1].split("\n## ", 1)[0], re.M)
    assert documented == list(METRICS)


def test_nginx_conf_balances_without_stickiness_and_keeps_websockets_open():
    lines = [line.split("#", 1)[0].strip() for line in CONF.read_text().splitlines()]
    directives = [line for line in lines if line]
    upstream = re.search(r"upstream hearts \{(.*?)\}", "\n".join(directives), re.S).group(1).splitlines()
    assert [d for d in upstream if d.startswith("server ")] == [
        f"server {name}:8000 max_fails=2 fail_timeout=10s;" for name in NODES
    ]
    assert not [d for d in directives if re.match(r"(ip_hash|hash|sticky)\b", d)]
    # each node has a path of its own, and the nodes are told of it: a connection for another node's table is sent
    # there (docs/cluster.md, Straight to the table's node)
    for name in NODES:
        own = re.search(rf"upstream {name} \{{(.*?)\}}", "\n".join(directives), re.S).group(1).split("\n")
        assert [d for d in own if d] == [f"server {name}:8000;"], own
    assert f"location ~ ^/n/({'|'.join(NODES)})/ws$ {{" in directives
    assert "proxy_pass http://$1/ws;" in directives
    assert 'proxy_set_header X-Hearts-Route "/n/{node}/ws";' in directives
    for needed in (
        "map $http_upgrade $connection_upgrade {",
        "proxy_pass http://hearts;",
        "proxy_http_version 1.1;",
        "proxy_set_header Upgrade $http_upgrade;",
        "proxy_set_header Connection $connection_upgrade;",
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "proxy_set_header X-Real-IP $remote_addr;",
        "proxy_next_upstream error timeout;",
        "proxy_read_timeout 1h;",
        "proxy_send_timeout 1h;",
    ):
        assert needed in directives, needed


# --------------------------------------------------------------------------- a connection at its table's node


@pytest.mark.parametrize("routes", [True, False], ids=["straight-to-the-owner", "relayed-by-a-plain-proxy"])
async def test_a_guest_through_the_proxy_plays_at_a_table_of_another_node(cluster, nginx, proxy_dir, routes):  # noqa: F811
    """Bram joins Anna's table through the proxy and lands on another node. Behind the shipped config he is told
    where the table lives and reconnects there; behind a plain round-robin proxy his connection is relayed."""
    async with asyncio.timeout(BUDGET * 2):
        nodes = [cluster.start(name) for name in NODES]
        proxy = start_proxy(nodes, nginx, proxy_dir, routes)
        try:
            anna = await Client.open(proxy.ws, "Anna")
            cluster.clients.append(anna)
            await anna.send("create", options={"variant": "classic", "end_score": 25, "deal": 7}, computer_level="easy")
            code = (await anna.expect("joined"))["code"]
            owner = next(n for n in nodes if health(n)["tables"] == 1)
            bram = await Client.open(proxy.ws, "Bram")  # least_conn: a node without Anna
            cluster.clients.append(bram)
            edge = next(n for n in nodes if n is not owner and health(n)["connections"] == 1)
            await bram.send("join", code=code)
            if routes:
                moved = await bram.expect("moved")
                assert moved == {
                    "type": "moved",
                    "path": f"/n/{owner.name}/ws",
                    "again": {"type": "join", "code": code},
                }
                token = bram.welcome["player_token"]
                await bram.close()
                bram = await Client.open(f"ws://127.0.0.1:{proxy.port}{moved['path']}", "Bram", token=token)
                cluster.clients.append(bram)
                await bram.send(**moved["again"])
            joined = await bram.expect("joined")
            assert joined["code"] == code and joined["seat"] == 1
            await bram.sync()
            connections = {n.name: health(n)["connections"] for n in nodes}
            if routes:  # both people on the table's node, none left on the edge
                assert connections[owner.name] == 2 and connections[edge.name] == 0, connections
            else:  # the edge holds Bram's connection and relays it
                assert connections[owner.name] == 1 and connections[edge.name] == 1, connections
            await anna.send("fill_computers", level="easy")
            await anna.send("start")
            ta, tb = await asyncio.gather(*(play(c, lambda t: t["view"] and t["view"]["phase"] == "playing" and
                                                 len(t["view"]["tricks"]) >= 2) for c in (anna, bram)))  # fmt: skip
            assert tb["view"]["seat"] == 1 and len(tb["view"]["tricks"]) >= 2
        finally:
            proxy.stop()


async def test_a_direct_connection_whose_node_dies_comes_back_through_the_proxy(cluster, nginx, proxy_dir):  # noqa: F811
    """Bram plays on the table's node through /n/NODE/ws; the node is killed: that path fails, the site's /ws takes
    him to the node that adopted the table, and he resumes with every move he saw."""
    async with asyncio.timeout(BUDGET * 3):
        nodes = [cluster.start(name) for name in NODES]
        proxy = start_proxy(nodes, nginx, proxy_dir)
        try:
            anna = await Client.open(proxy.ws, "Anna")
            cluster.clients.append(anna)
            await anna.send(
                "create", options={"variant": "classic", "end_score": 100, "deal": 9}, computer_level="easy"
            )
            code = (await anna.expect("joined"))["code"]
            owner = next(n for n in nodes if health(n)["tables"] == 1)
            bram = await Client.open(proxy.ws, "Bram")
            cluster.clients.append(bram)
            await bram.send("join", code=code)
            moved = await bram.expect("moved")
            token = bram.welcome["player_token"]
            await bram.close()
            bram = await Client.open(f"ws://127.0.0.1:{proxy.port}{moved['path']}", "Bram", token=token)
            cluster.clients.append(bram)
            await bram.send(**moved["again"])
            seat_token = (await bram.expect("joined"))["seat_token"]
            await anna.send("fill_computers", level="easy")
            await anna.send("start")
            await asyncio.gather(*(play(c, lambda t: t["view"] and t["view"]["phase"] == "playing" and
                                         len(t["view"]["tricks"]) >= 1) for c in (anna, bram)))  # fmt: skip
            await bram.sync()
            seen = bram.table["seq"]

            await owner.crash()
            await bram.wait(lambda: bram.closed, what="the dead node's connection to end")
            with pytest.raises(InvalidStatus, match="502"):
                await Client.open(f"ws://127.0.0.1:{proxy.port}{moved['path']}", "Bram", token=token)
            back = None
            for _ in range(100):  # as the browser does: through /ws, growing pauses, until the table is adopted
                again = await Client.open(proxy.ws, "Bram", token=token)
                cluster.clients.append(again)
                await again.send("resume", code=code, seat_token=seat_token, last_seq=seen)
                await again.wait(lambda c=again: c.closed or c.table is not None or
                                 any(m["type"] in ("error", "moved") for m in c.inbox))  # fmt: skip
                if again.table is not None:
                    back = again
                    break
                hops = [m for m in again.inbox if m["type"] == "moved"]
                if hops:  # the table's node as Redis knows it: the dead one until its presence runs out (502)
                    await again.close()
                    try:
                        again = await Client.open(f"ws://127.0.0.1:{proxy.port}{hops[0]['path']}", "Bram", token=token)
                    except InvalidStatus as exc:
                        assert exc.response.status_code == 502
                        await asyncio.sleep(0.25)
                        continue
                    cluster.clients.append(again)
                    await again.send("resume", code=code, seat_token=seat_token, last_seq=seen)
                    await again.wait(lambda c=again: c.closed or c.table is not None or
                                     any(m["type"] == "error" for m in c.inbox))  # fmt: skip
                    if again.table is not None:
                        back = again
                        break
                errors = [m["code"] for m in again.inbox if m["type"] == "error"]
                assert set(errors) <= {"server_busy"}, errors
                await again.close()
                await asyncio.sleep(0.25)
            assert back is not None, "Bram never came back"
            assert back.table["seq"] >= seen and back.table["view"]["seat"] == 1
            living = {n.name: health(n) for n in nodes if n is not owner}
            assert sum(h["tables"] for h in living.values()) == 1, living
        finally:
            proxy.stop()
