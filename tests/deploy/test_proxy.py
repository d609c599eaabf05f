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
import ssl
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from server.conftest import cluster  # noqa: F401 (the fixture: nodes, database, key prefix, cleanup)
from server.crashkit import ROOT, Client, ServerProcess
from server.test_cluster import wait_until
from server.test_store_restore import play_until as play
from websockets.exceptions import InvalidStatus

from hartenjagen.server.net.addresses import parse_proxies
from hartenjagen.server.net.app import CONTENT_TYPES
from hartenjagen.server.net.security import SECURITY_HEADERS
from hartenjagen.tools.nginx import CONF, NODES, Listen, Nginx, nginx_binary, render

COMPOSE = ROOT / "deploy" / "compose.yaml"
BUDGET = 30.0


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as resp:
        assert resp.status == 200, resp.status
        return json.loads(resp.read())


@dataclass
class Answer:
    status: int
    headers: Any
    body: bytes


def raw_get(url: str, context: ssl.SSLContext | None = None) -> Answer:
    """One GET, redirects not followed, error statuses returned like any other."""

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any) -> None:
            return None

    handlers: list[Any] = [Stay()]
    if context is not None:
        handlers.append(urllib.request.HTTPSHandler(context=context))
    try:
        with urllib.request.build_opener(*handlers).open(url, timeout=5) as resp:
            return Answer(resp.status, resp.headers, resp.read())
    except urllib.error.HTTPError as exc:
        return Answer(exc.code, exc.headers, exc.read())


def csp() -> str:
    """The Content-Security-Policy the shipped config writes."""
    return re.search(r'add_header Content-Security-Policy "([^"]+)" always;', CONF.read_text()).group(1)


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
        listen = Listen.free()
        conf = proxy_dir / "nginx.conf"
        conf.write_text(render(CONF.read_text(), {n.name: n.port for n in nodes}, listen, proxy_dir, nginx, tls=True))
        proxy = Nginx(nginx, conf, proxy_dir, listen, tls=True)
        checked = proxy.check()
        assert checked.returncode == 0, checked.stderr
        assert "syntax is ok" in checked.stderr and "test is successful" in checked.stderr
        try:
            proxy.start()
            # TLS: plain HTTP only sends the browser on to https; every answer carries HSTS and the site's headers
            redirect = await asyncio.to_thread(raw_get, f"http://127.0.0.1:{listen.redirect}/t/ABCDEF?x=1")
            assert (
                redirect.status == 301
                and redirect.headers["Location"] == "https://127.0.0.1/t/ABCDEF?x=1"  # the default port
            )
            for path in ("/", "/js/main.js", "/healthz", "/api/stats", "/no-such-file.js"):
                answer = await asyncio.to_thread(raw_get, proxy.site + path, proxy.context)
                assert answer.headers["Strict-Transport-Security"].startswith("max-age="), path
                assert answer.headers.get_all("Content-Security-Policy") == [csp()], path
                assert (
                    answer.headers["X-Frame-Options"] == "DENY" and answer.headers["Referrer-Policy"] == "no-referrer"
                )
            # the client's files come from disk, as a node would send them
            page = await asyncio.to_thread(raw_get, proxy.site + "/t/ABCDEF", proxy.context)
            assert page.status == 200 and page.body == (ROOT / "client" / "index.html").read_bytes()
            assert (
                page.headers["Content-Type"] == "text/html; charset=utf-8"
                and page.headers["Cache-Control"] == "no-cache"
            )
            hidden = await asyncio.to_thread(raw_get, proxy.site + "/js/.secret", proxy.context)
            assert hidden.status == 404
            before = sum(health(n)["connections"] for n in nodes)
            # six requests reach all three nodes (no stickiness: one client address, every node)
            seen = Counter([(await asyncio.to_thread(proxy.get, "/healthz"))["node"] for _ in range(6)])
            assert set(seen) == set(NODES), seen

            # websockets: three at once land on three nodes (least_conn), hello and welcome go through
            assert before == 0
            for i in range(3):
                client = await Client.open(proxy.ws, f"Speler{i}", ssl=proxy.context)
                cluster.clients.append(client)
                assert client.welcome["name"] == f"Speler{i}" and client.welcome["player_token"]
            counts = {n.name: health(n)["connections"] for n in nodes}
            assert counts == {name: 1 for name in NODES}, counts

            # a person creates a table through the proxy; it lives on the node that person's connection reached
            anna = await Client.open(proxy.ws, "Anna", ssl=proxy.context)
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
            late = await Client.open(proxy.ws, "Laat", ssl=proxy.context)
            cluster.clients.append(late)
            assert sum(health(n)["connections"] for n in living) == 3  # a Speler on each, and Laat
        finally:
            proxy.stop()
        assert proxy.proc.returncode is not None


async def test_the_operator_s_endpoints_answer_internal_addresses_only(cluster, nginx, tmp_path):  # noqa: F811
    """Prometheus reads each node's /metrics through nginx's port for the operator; an address that is not internal
    gets 403 there and for /healthz, /metrics and /api/cluster on the site, while the site itself still answers."""
    async with asyncio.timeout(BUDGET):
        node = cluster.start("node1")
        for inside in (True, False):
            folder = tmp_path / f"inside-{inside}"
            folder.mkdir()
            proxy = Nginx.run({"node1": node.port}, folder, nginx=nginx, loopback_inside=inside)
            try:
                internal = f"http://127.0.0.1:{proxy.listen.internal}"
                scraped = await asyncio.to_thread(raw_get, internal + "/n/node1/metrics")
                site = [
                    await asyncio.to_thread(raw_get, proxy.site + p) for p in ("/healthz", "/metrics", "/api/cluster")
                ]
                page = await asyncio.to_thread(raw_get, proxy.site + "/")
                assert page.status == 200
                if inside:  # the node sees nginx, which asks for itself: the metrics
                    assert scraped.status == 200 and b"hearts_connections " in scraped.body, scraped
                    assert [a.status for a in site] == [200, 200, 200]
                else:
                    assert scraped.status == 403 and [a.status for a in site] == [403, 403, 403]
            finally:
                proxy.stop()


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
    # no password in the file, and none made up: compose refuses to start without the operator's
    assert "POSTGRES_PASSWORD: ${HEARTS_PG_PASSWORD:?set HEARTS_PG_PASSWORD}" in pg_block
    assert "change-me" not in text and ":-" not in text
    assert "pg_isready" in pg_block and re.search(r"^      - \w+:/var/lib/postgresql/data\s*$", pg_block, re.M)
    volume = re.search(r"^      - (\w+):/var/lib/postgresql/data", pg_block, re.M).group(1)
    assert re.search(rf"^volumes:\n  {volume}:", text, re.M), "the database's volume is a named volume"

    assert re.search(r"^    image: redis:7\s*$", found["redis"], re.M) and "redis-cli" in found["redis"]
    assert '"ping"' in found["redis"] or "ping" in found["redis"].split()
    assert '"--requirepass", "${HEARTS_REDIS_PASSWORD:?set HEARTS_REDIS_PASSWORD}"' in found["redis"]
    assert "REDISCLI_AUTH: ${HEARTS_REDIS_PASSWORD:?set HEARTS_REDIS_PASSWORD}" in found["redis"]  # its health check

    names = []
    proxy_address = "172.30.0.2"
    for name in NODES:
        block = found[name]
        assert re.search(r"^    build: \.\.\s*$", block, re.M), name  # the project's Dockerfile
        db = re.search(r"HEARTS_DB: (.+?)\s*$", block, re.M).group(1)
        assert db == "postgresql://hearts:${HEARTS_PG_PASSWORD:?set HEARTS_PG_PASSWORD}@postgres:5432/hearts", db
        redis = re.search(r"HEARTS_REDIS: (.+?)\s*$", block, re.M).group(1)
        assert redis == "redis://:${HEARTS_REDIS_PASSWORD:?set HEARTS_REDIS_PASSWORD}@redis:6379", redis
        names.append(re.search(r"HEARTS_NODE: (\S+)", block).group(1))
        trusted = re.search(r"HEARTS_TRUSTED_PROXIES: (\S+)", block).group(1)  # per-client limits behind nginx
        assert parse_proxies(trusted) == parse_proxies(proxy_address), name  # nginx alone
        healthy = re.findall(r"^      (\w+):\n        condition: service_healthy\s*$", block, re.M)
        assert sorted(healthy) == ["postgres", "redis"], (name, healthy)
    assert sorted(names) == list(NODES)  # distinct, and the names nginx.conf proxies to

    proxy = found["proxy"]
    assert re.search(r"^      context: \.\.\n      target: proxy\s*$", proxy, re.M)  # the Dockerfile's proxy stage
    assert re.search(r"^      - \./nginx\.conf:/etc/nginx/nginx\.conf:ro\s*$", proxy, re.M)
    assert re.search(r"^      - \./tls:/etc/nginx/tls:ro\s*$", proxy, re.M)  # the certificate and key
    assert re.findall(r'^      - "(\d+:\d+)"\s*$', proxy, re.M) == ["80:80", "443:443"]  # never 8081 (the operator's)
    assert re.search(r"^(\s+)hearts:\n\1  ipv4_address: 172\.30\.0\.2\s", proxy, re.M)
    assert re.search(r"^        - subnet: 172\.30\.0\.0/24\s*$", text, re.M)
    image = (ROOT / "Dockerfile").read_text().split("\nFROM ${BASE} AS proxy\n", 1)[1].split("\nFROM ", 1)[0]
    assert "apt-get install -y --no-install-recommends nginx" in image
    assert "COPY --from=build /src/client /srv/hearts/client" in image  # the runtime fetched in the build stage
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
    "hearts_refused_total",
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
    # each node alone, through nginx's port for the operator (8081, never published): /n/NODE/metrics
    assert re.findall(r'^      - targets: \["([\w.-]+:\d+)"\]\s*$', scrape, re.M) == ["proxy:8081"] * len(NODES)
    assert re.findall(r"^          node: (\w+)\s*$", scrape, re.M) == list(NODES)
    assert "target_label: __metrics_path__\n        replacement: /n/$1/metrics" in scrape
    conf = CONF.read_text()
    assert "listen 8081;" in conf and f"location ~ ^/n/({'|'.join(NODES)})/(metrics|healthz)$ {{" in conf

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
    # TLS with HSTS, the certificate where the README says; port 80 only sends browsers on to https
    for needed in (
        "listen 443 ssl;",
        "ssl_certificate /etc/nginx/tls/fullchain.pem;",
        "ssl_certificate_key /etc/nginx/tls/privkey.pem;",
        'add_header Strict-Transport-Security "max-age=63072000; includeSubDomains" always;',
        "return 301 https://$host$request_uri;",
        "limit_conn per_address 64;",
        "limit_req zone=requests burst=200 nodelay;",
    ):
        assert needed in directives, needed
    assert "ssl_certificate /etc/nginx/tls/fullchain.pem" in (ROOT / "README.md").read_text()
    # the headers of every answer are a node's own (nginx writes them, the nodes' copies hidden)
    written = dict(re.findall(r'^add_header ([\w-]+) "?(.*?)"? always;$', "\n".join(directives), re.M))
    for name, value in SECURITY_HEADERS:
        assert written[name] == value, name
        assert f"proxy_hide_header {name};" in directives, name
    assert written["X-Content-Type-Options"] == "nosniff"
    # the client's files from disk, typed as a node types them
    types = re.search(r"types \{(.*?)\}", "\n".join(directives), re.S).group(1)
    typed = {f".{ext}": kind.strip('"') for kind, exts in re.findall(r'^("[^"]+"|\S+) ([^;]+);$', types, re.M)
             for ext in exts.split()}  # fmt: skip
    assert typed == CONTENT_TYPES
    # the operator's endpoints answer internal addresses only
    internal = re.search(r"location ~ \^/\(healthz\|metrics\|api/cluster\)\$ \{(.*?)\}", "\n".join(directives), re.S)
    assert internal and internal.group(1).split("\n")[-3:-1] == ["deny all;", "proxy_pass http://hearts;"]
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
                bram = await Client.open(proxy.ws_path(moved["path"]), "Bram", token=token)
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
            bram = await Client.open(proxy.ws_path(moved["path"]), "Bram", token=token)
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
                await Client.open(proxy.ws_path(moved["path"]), "Bram", token=token)
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
                        again = await Client.open(proxy.ws_path(hops[0]["path"]), "Bram", token=token)
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


async def test_a_play_now_press_matched_on_another_node_goes_on_to_the_table_s_node(cluster, nginx, proxy_dir):  # noqa: F811
    """Bram presses Play now through the proxy on a node without Anna's Play now table: the press is relayed to the
    table's node, seats him there, and he is sent on (`moved`) to resume his seat on that node."""
    options = {"variant": "classic", "end_score": 50}
    async with asyncio.timeout(BUDGET * 2):
        nodes = [cluster.start(name) for name in NODES]
        proxy = start_proxy(nodes, nginx, proxy_dir)
        try:
            anna = await Client.open(proxy.ws, "Anna")
            cluster.clients.append(anna)
            await anna.send("play_now", options=options, lang="en", wait=300)
            code = (await anna.expect("joined"))["code"]
            owner = next(n for n in nodes if health(n)["tables"] == 1)
            others = [n for n in nodes if n is not owner]
            await wait_until(lambda: listed_everywhere(others, code), what="the table on every node's list")
            bram = await Client.open(proxy.ws, "Bram")  # least_conn: a node without Anna
            cluster.clients.append(bram)
            assert health(owner)["connections"] == 1
            await bram.send("play_now", options=options, lang="en", wait=300)
            joined = await bram.expect("joined")
            moved = await bram.expect("moved")
            assert joined["code"] == code and moved == {"type": "moved", "path": f"/n/{owner.name}/ws"}
            token = bram.welcome["player_token"]
            await bram.close()
            bram = await Client.open(proxy.ws_path(moved["path"]), "Bram", token=token)
            cluster.clients.append(bram)
            await bram.send("resume", code=code, seat_token=joined["seat_token"], last_seq=0)
            table = await bram.until(lambda t: t["you"] == joined["seat"])
            assert [s["name"] for s in table["seats"] if s["kind"] == "person"] == ["Anna", "Bram"]
            await bram.sync()
            assert health(owner)["connections"] == 2 and all(health(n)["connections"] == 0 for n in others)
        finally:
            proxy.stop()


async def listed_everywhere(nodes: list[ServerProcess], code: str) -> bool:
    """True once every one of ``nodes`` lists table ``code`` on its start page."""
    for node in nodes:
        if code not in [
            e["code"]
            for e in (await asyncio.to_thread(get_json, f"http://127.0.0.1:{node.port}/api/open-tables"))["tables"]
        ]:
            return False
    return True
