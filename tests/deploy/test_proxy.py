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
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from server.conftest import cluster  # noqa: F401 (the fixture: nodes, database, key prefix, cleanup)
from server.crashkit import ROOT, Client, ServerProcess

from hartenjagen.server.net.addresses import parse_proxies

CONF = ROOT / "deploy" / "nginx.conf"
COMPOSE = ROOT / "deploy" / "compose.yaml"
NODES = ("node1", "node2", "node3")
BUDGET = 30.0


def nginx_binary() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin:/sbin")
    assert found, "no nginx binary: run tools/ensure_services.sh (it installs Debian's nginx)"
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as resp:
        assert resp.status == 200, resp.status
        return json.loads(resp.read())


def health(node: ServerProcess) -> dict[str, Any]:
    """A node's own ``/healthz`` (straight to it, not through the proxy)."""
    return get_json(f"http://127.0.0.1:{node.port}/healthz")


def render(text: str, ports: list[int], listen: int, tmp: Path, nginx: str) -> str:
    """deploy/nginx.conf for this test: loopback nodes and port, files in ``tmp``, two workers."""
    for name, port in zip(NODES, ports, strict=True):
        assert text.count(f"server {name}:8000 ") == 1, name
        text = text.replace(f"server {name}:8000 ", f"server 127.0.0.1:{port} ")
    assert text.count("listen 8000;") == 1
    text = text.replace("listen 8000;", f"listen 127.0.0.1:{listen};")
    text = re.sub(r"^worker_processes \S+;", "worker_processes 2;", text, count=1, flags=re.M)
    text = re.sub(r"^(\s*)access_log \S+;", rf"\1access_log {tmp}/access.log;", text, count=1, flags=re.M)
    text = re.sub(r"^(\s*)error_log \S+ ", rf"\1error_log {tmp}/error.log ", text, count=1, flags=re.M)
    built = subprocess.run([nginx, "-V"], capture_output=True, text=True, timeout=10).stderr
    temps = [("client_body", "client_body"), ("proxy", "proxy")]
    temps += [(m, m) for m in ("fastcgi", "uwsgi", "scgi") if f"--without-http_{m}_module" not in built]
    paths = "".join(f"\n    {directive}_temp_path {tmp}/{sub};" for directive, sub in temps)
    assert text.count("http {") == 1
    return text.replace("http {", "http {" + paths, 1)


class Proxy:
    """One nginx master (and its workers) in its own process group, on a rendered copy of deploy/nginx.conf."""

    def __init__(self, nginx: str, conf: Path, tmp: Path, port: int) -> None:
        self.port = port
        self.args = [nginx, "-p", f"{tmp}/", "-c", str(conf), "-e", f"{tmp}/error.log"]
        self.globals = f"daemon off; master_process on; pid {tmp}/nginx.pid;"
        self.out, self.err, self.tmp = tmp / "nginx.out", tmp / "nginx.err", tmp
        self.proc: subprocess.Popen | None = None

    def check(self) -> subprocess.CompletedProcess:
        return subprocess.run([*self.args, "-t", "-g", self.globals], capture_output=True, text=True, timeout=20)

    def start(self, timeout: float = 10.0) -> Proxy:
        with open(self.out, "wb") as out, open(self.err, "wb") as err:
            self.proc = subprocess.Popen(
                [*self.args, "-g", self.globals], stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"nginx exited with {self.proc.returncode}:\n{self.log()}"
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"nginx did not listen on {self.port}:\n{self.log()}")

    def log(self) -> str:
        files = [self.err, self.tmp / "error.log"]
        return "\n".join(f.read_text(errors="replace") for f in files if f.exists())

    def get(self, path: str) -> Any:
        return get_json(f"http://127.0.0.1:{self.port}{path}")

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def stop(self) -> None:
        if self.proc is None:
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):  # fast shutdown, then whatever is left of the group
            try:
                os.killpg(self.proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                continue


@pytest.fixture
def nginx() -> str:
    return nginx_binary()


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
        conf.write_text(render(CONF.read_text(), [n.port for n in nodes], listen, proxy_dir, nginx))
        proxy = Proxy(nginx, conf, proxy_dir, listen)
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
    assert set(found) == {"postgres", "redis", *NODES, "proxy"}, list(found)

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


def test_nginx_conf_balances_without_stickiness_and_keeps_websockets_open():
    lines = [line.split("#", 1)[0].strip() for line in CONF.read_text().splitlines()]
    directives = [line for line in lines if line]
    upstream = re.search(r"upstream hearts \{(.*?)\}", "\n".join(directives), re.S).group(1).splitlines()
    assert [d for d in upstream if d.startswith("server ")] == [
        f"server {name}:8000 max_fails=2 fail_timeout=10s;" for name in NODES
    ]
    assert not [d for d in directives if re.match(r"(ip_hash|hash|sticky)\b", d)]
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
