"""One port for files, /healthz and stats; migrations; ``hearts serve`` starts, prints its address, stops cleanly."""

from __future__ import annotations

import asyncio
import hashlib
import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tomllib
import urllib.parse
from pathlib import Path

import asyncpg
import pytest
from websockets.asyncio.client import connect

from hartenjagen.server.config import Config
from hartenjagen.server.net.app import ENDPOINTS
from hartenjagen.server.storage.migrations import load_migrations
from hartenjagen.server.storage.opening import is_postgres_url, open_store
from hartenjagen.server.storage.postgres import PostgresStore
from hartenjagen.server.storage.sqlite import SQLiteStore as Database
from hartenjagen.server.storage.sqlite import migrations_dir
from hartenjagen.server.storage.store import SchemaTooNew, StoreUnavailable
from hartenjagen.server.table.bundle import shared_hash
from hartenjagen.server.table.changes import fold
from hartenjagen.server.table.codes import CODE_ALPHABET, new_code

from . import pg
from .conftest import both_stores
from .test_docs import table_rows
from .test_protocol_doc import DOC


class TestHttp:
    @both_stores
    async def test_healthz_counts_tables_and_connections_and_names_the_store(self, server, db_url):
        await server.host("Anna")
        status, headers, body = await server.get("/healthz")
        assert status == 200 and headers["Content-Type"] == "application/json"
        health = json.loads(body)
        assert health.pop("allocated_blocks") > 0  # the interpreter's live blocks: an operator's leak watch
        assert health.pop("allocator") == "pymalloc"  # this test's server runs in the tests' own interpreter
        store = "postgresql" if db_url.startswith("postgresql://") else "sqlite"
        hard = health.pop("hard_player")  # the hard player's queue: nothing waits, the full budget is next
        assert hard["waiting"] == 0 and hard["next_budget_ms"] == 80
        assert health.pop("connection_limit") > 1000  # connections that fit in the open-file limit, with a reserve
        assert health.pop("under_way") == {"computer_moves": 0, "waiting_commits": 0}  # nothing left to happen
        assert health.pop("engine") == shared_hash()  # the shared/ files it runs, as the offline worker hashes them
        assert health.pop("downloads") == {"sending": 0, "waiting": 0}  # large files being sent, readers waited for
        assert health == {
            "status": "ok",
            "store": store,
            "node": None,
            "tables": 1,
            "connections": 1,
            "store_answers": True,
            "parked_tables": 0,
        }

    async def test_static_files_index_for_table_links_types_and_no_traversal(self, server, tmp_path):
        root = tmp_path / "client"
        (root / "js").mkdir(parents=True)
        (root / "index.html").write_text("<!doctype html><title>H</title>")
        (root / "js" / "app.js").write_text("export {};")
        (tmp_path / "secret.txt").write_text("no")
        server.app.root = root
        status, headers, body = await server.get("/")
        assert status == 200 and headers["Content-Type"].startswith("text/html") and b"<title>H" in body
        status, _, body2 = await server.get("/t/ABCDEF")
        assert status == 200 and body2 == body
        status, headers, _ = await server.get("/js/app.js")
        assert status == 200 and headers["Content-Type"].startswith("text/javascript")
        for path in ("/../secret.txt", "/js/../../secret.txt", "/%2e%2e/secret.txt", "/missing.css", "/js/"):
            status, _, _ = await server.get(path)
            assert status == 404, path

    async def test_missing_client_is_a_clean_404(self, server, tmp_path):
        server.app.root = tmp_path / "nothing"
        status, _, body = await server.get("/")
        assert status == 404 and body == b"not found\n"

    async def test_stats_need_a_known_token(self, server):
        status, _, body = await server.get("/api/stats")
        assert status == 400 and json.loads(body) == {"error": "missing_token"}
        status, _, body = await server.get("/api/stats", {"X-Player-Token": "nobody"})
        assert status == 404 and json.loads(body) == {"error": "unknown_player"}
        p = await server.connect("Anna")
        status, _, body = await server.get("/api/stats", {"X-Player-Token": p.welcome["player_token"]})
        stats = json.loads(body)
        assert status == 200 and stats["games_played"] == 0 and stats["lowest_score"] is None

    async def test_a_returning_player_token_keeps_the_player(self, server):
        p = await server.connect("Anna")
        token = p.welcome["player_token"]
        q = await server.connect("Anna B", token=token)
        assert q.welcome["player_token"] == token and q.welcome["name"] == "Anna B"


def http_call(url: str, method: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request of any method over plain HTTP: status, headers and the body as sent."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    try:
        connection.request(method, parts.path, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


class TestMethods:
    async def test_a_method_an_endpoint_does_not_take_is_405_with_allow_and_changes_nothing(self, server):
        anna = await server.host("Anna")
        await anna.send("set_open", open=True)
        await anna.sync()
        server.app.hub.lobby.changed()
        token = anna.welcome["player_token"]
        examples = {"{id}": "1", "{hand}": "0", "{family}": "classic", "{period}": "all", "{date}": "2026-12-01",
                    "{file}": "js/main.js", "{share}": "abcdefgh", "{code}": anna.joined["code"]}  # fmt: skip
        documented = [r for r in table_rows(DOC[: DOC.index("## ")]) if r[0].startswith("`/")]
        assert len(documented) == len(ENDPOINTS) and any(r[0] == "`/ws`" for r in documented)
        for row in documented:
            path, allowed = row[0].strip("`"), [m.strip() for m in row[1].split(",")]
            for key, value in examples.items():
                path = path.replace(key, value)
            for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"):
                if method in allowed:
                    continue
                status, headers, body = await asyncio.to_thread(
                    http_call, server.http + path, method, {"X-Player-Token": token}
                )
                assert status == 405, (method, path, status)
                assert headers["Allow"] == ", ".join(allowed), path
                if method != "HEAD":
                    assert json.loads(body) == {"error": "method_not_allowed", "method": method, "allow": allowed}
        assert server.app.hub.tables.by_code[anna.joined["code"]].listed  # nothing changed
        status, _, body = await server.get("/api/open-tables")
        assert status == 200 and [e["code"] for e in json.loads(body)["tables"]] == [anna.joined["code"]]

    async def test_head_answers_as_get_without_the_body(self, server):
        for path in ("/", "/healthz", "/api/open-tables", "/api/leaderboard/classic/all"):
            got_status, got_headers, got_body = await server.get(path)
            raw = await asyncio.to_thread(raw_request, server.http, f"HEAD {path} HTTP/1.1")
            head, _, body = raw.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200 ") and got_status == 200, path
            assert body == b"", path  # nothing after the headers
            assert f"Content-Type: {got_headers['Content-Type']}".encode() in head, path
            if path == "/":  # a file's length is known without sending it
                assert f"Content-Length: {len(got_body)}".encode() in head


def raw_request(base: str, line: str) -> bytes:
    """Send one request line over a bare socket and return every byte the server sends until it closes."""
    parts = urllib.parse.urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=5) as sock:
        sock.sendall(f"{line}\r\nHost: {parts.hostname}\r\n\r\n".encode())
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


class TestDockerfile:
    def test_the_image_runs_the_installed_package_only_with_its_settings_from_the_environment(self):
        root = Path(__file__).resolve().parents[2]
        text = (root / "Dockerfile").read_text()
        build, run = text.split("\nFROM ${BASE}\n")  # the build stage, then the image that runs
        project = tomllib.loads((root / "pyproject.toml").read_text())
        folders = set(project["tool"]["setuptools"]["package-dir"].values())
        assert folders == {"server", "shared", "tools", "client", "migrations"}
        copied = set(re.findall(r"^COPY (\w+) \./\1$", build, re.M))
        assert folders <= copied, f"the package would be built without: {folders - copied}"
        # the versions CI tested, each checked against its hash, then the package itself
        assert "pip install --require-hashes -r constraints-server.txt" in build and "pip install --no-deps ." in build
        assert re.findall(r"^COPY .*", run, re.M) == ["COPY --from=build /opt/hearts /opt/hearts"]  # no second copy
        assert "kernel.warm() and kernel.cached()" in run and "NUMBA_CACHE_DIR" in run
        # the server runs on Debian's jemalloc (tools/image_check.sh sees /healthz say so in a container)
        assert "HEARTS_ALLOCATOR=jemalloc" in run and "install -y --no-install-recommends libjemalloc2" in run
        assert re.search(r'^CMD \["hearts", "serve"\]$', run, re.M)  # HEARTS_HOST and the others are not overridden

    async def test_the_healthcheck_asks_the_port_in_hearts_port(self, server):
        text = (Path(__file__).resolve().parents[2] / "Dockerfile").read_text()
        command = re.search(r"HEALTHCHECK[^\n]*\\\n\s*CMD (.+)", text).group(1)
        port = server.http.rsplit(":", 1)[1]
        path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")

        async def check(hearts_port: str) -> int:
            env = {**os.environ, "PATH": path, "HEARTS_PORT": hearts_port}
            proc = await asyncio.create_subprocess_exec(
                "sh", "-c", command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            return await proc.wait()

        assert await check(port) == 0
        with socket.socket() as sock:  # a port nothing listens on
            sock.bind(("127.0.0.1", 0))
            closed = str(sock.getsockname()[1])
        assert await check(closed) != 0


class TestCodes:
    def test_codes_are_six_characters_without_look_alikes(self):
        codes = {new_code(set()) for _ in range(200)}
        assert len(codes) > 190  # random, not sequential
        assert all(len(c) == 6 and set(c) <= set(CODE_ALPHABET) for c in codes)
        assert not set("01OIL") & set(CODE_ALPHABET)


async def raw(db_url: str, query: str) -> list[tuple]:
    """Run one SQL statement straight on the test's database (SQLite file or PostgreSQL URL); return its rows."""
    if is_postgres_url(db_url):
        return [tuple(r) for r in await pg.sql(db_url, query)]
    con = sqlite3.connect(db_url)
    try:
        with con:
            return con.execute(query).fetchall()
    finally:
        con.close()


def copy_migrations(folder: Path, upto: int) -> Path:
    """Copy the first ``upto`` migrations (both dialects' files) into ``folder``."""
    folder.mkdir()
    for path in migrations_dir().glob("*.sql"):
        if int(path.name[:3]) <= upto:
            (folder / path.name).write_text(path.read_text())
    return folder


class TestMigrations:
    @both_stores
    async def test_migrations_are_recorded_once_with_the_dialects_own_files(self, db_url):
        db = await open_store(db_url)
        assert await db.schema_version() == 13
        await db.close()
        assert await raw(db_url, "SELECT version, name FROM schema_migrations ORDER BY version") == [
            (1, "initial"),
            (2, "table_log"),
            (3, "toppers"),
            (4, "table_leases"),
            (5, "open_tables_index"),
            (6, "reviews"),
            (7, "store_probe"),
            (8, "twelve_seats"),
            (9, "daily_games"),
            (10, "devices"),
            (11, "ratings_reports"),
            (12, "rating_model"),
            (13, "pruning"),
        ]
        if is_postgres_url(db_url):  # the .pg.sql files: 64-bit game ids, double precision times
            types = await raw(
                db_url,
                "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE "
                "(table_name, column_name) IN (('games', 'id'), ('tables', 'opened_at'), ('players', 'id')) "
                "ORDER BY table_name",
            )
            assert types == [
                ("games", "id", "bigint"),
                ("players", "id", "bigint"),
                ("tables", "opened_at", "double precision"),
            ]
        else:
            assert await raw(db_url, "PRAGMA journal_mode") == [("wal",)]
        db = await open_store(db_url)  # a second start applies nothing twice
        assert await db.schema_version() == 13
        await db.close()
        assert len(await raw(db_url, "SELECT * FROM schema_migrations")) == 13

    @both_stores
    async def test_player_tokens_of_an_older_database_are_hashed_and_still_recognised(self, tmp_path, db_url):
        first = copy_migrations(tmp_path / "migs", upto=1)
        kind = PostgresStore if is_postgres_url(db_url) else Database
        await (await kind.open(db_url, first)).close()  # a database of the first release
        await raw(
            db_url, "INSERT INTO players (token, name, created_at, last_seen) VALUES ('old-secret', 'Anna', 0, 0)"
        )
        db = await open_store(db_url)
        try:
            stored = await raw(db_url, "SELECT token_hash FROM players")
            assert stored == [(hashlib.sha256(b"old-secret").hexdigest(),)]  # never the token in clear
            pid, token, name = await db.player("Anna B", "old-secret")
            assert (pid, token, name) == (1, "old-secret", "Anna B")
        finally:
            await db.close()

    @both_stores
    async def test_a_newer_schema_is_refused(self, db_url):
        await (await open_store(db_url)).close()
        await raw(db_url, "INSERT INTO schema_migrations VALUES (99, 'future', 0)")
        with pytest.raises(SchemaTooNew, match="99"):
            await open_store(db_url)

    @both_stores
    async def test_a_broken_migration_leaves_nothing_behind(self, tmp_path, db_url):
        folder = tmp_path / "migs"
        folder.mkdir()
        (folder / "001_ok.sql").write_text("CREATE TABLE a (x INTEGER);")
        (folder / "002_bad.sql").write_text("CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);")
        kind = PostgresStore if is_postgres_url(db_url) else Database
        with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedTableError)):
            await kind.open(db_url, folder)
        if is_postgres_url(db_url):
            query = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        else:
            query = "SELECT name FROM sqlite_master WHERE type = 'table'"
        tables = {r[0] for r in await raw(db_url, query)}
        assert "a" in tables and "b" not in tables
        assert await raw(db_url, "SELECT MAX(version) FROM schema_migrations") == [(1,)]

    def test_postgresql_reads_a_pg_sql_file_where_the_dialects_differ_and_the_common_file_elsewhere(self, tmp_path):
        folder = tmp_path / "migs"
        folder.mkdir()
        (folder / "001_first.sql").write_text("-- both 1")
        (folder / "001_first.pg.sql").write_text("-- pg 1")
        (folder / "002_second.sql").write_text("-- both 2")
        assert load_migrations(folder, "sqlite") == [(1, "first", "-- both 1"), (2, "second", "-- both 2")]
        assert load_migrations(folder, "postgresql") == [(1, "first", "-- pg 1"), (2, "second", "-- both 2")]
        (folder / "003_third.pg.sql").write_text("-- pg only")
        with pytest.raises(RuntimeError, match="003_third.sql"):
            load_migrations(folder, "postgresql")
        (folder / "003_third.pg.sql").rename(folder / "002_other.pg.sql")
        with pytest.raises(RuntimeError, match="002_other"):
            load_migrations(folder, "sqlite")

    def test_every_shipped_pg_sql_file_has_its_common_file(self):
        for dialect in ("sqlite", "postgresql"):
            assert [v for v, _, _ in load_migrations(migrations_dir(), dialect)] == list(range(1, 14))


class TestUnwritableDatabaseFolder:
    async def test_a_database_folder_the_server_cannot_write_gets_a_clear_message_not_an_sqlite_error(
        self, tmp_path, monkeypatch
    ):
        """As with a volume bind-mounted from a folder owned by root while the server runs as another user."""
        folder = tmp_path / "data"
        folder.mkdir()
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == folder.resolve() else real(p, mode))
        with pytest.raises(StoreUnavailable) as refused:
            await open_store(str(folder / "hearts.db"))
        message = str(refused.value)
        assert str(folder.resolve()) in message and "chown" in message and f"uid {os.getuid()}" in message
        assert not (folder / "hearts.db").exists()


class TestServeCommand:
    async def test_sigterm_the_moment_the_server_is_up_closes_connections_with_1012_and_exits_0(self, tmp_path):
        env = dict(os.environ, HEARTS_DB=str(tmp_path / "t.db"))
        hearts = Path(sys.executable).parent / "hearts"
        proc = await asyncio.create_subprocess_exec(
            str(hearts), "serve", "--port", "0", env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
            port = int(re.search(r":(\d+)/", line).group(1))
            async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
                proc.send_signal(signal.SIGTERM)  # at once: no settling time
                with pytest.raises(Exception):  # noqa: B017
                    await asyncio.wait_for(ws.recv(), 10)
                assert ws.close_code == 1012
            assert await asyncio.wait_for(proc.wait(), 10) == 0
            assert b"Hartenjagen stopped" in await proc.stderr.read()
        finally:
            if proc.returncode is None:
                proc.kill()
                await asyncio.wait_for(proc.wait(), 30)

    async def test_hearts_serve_port_0_prints_the_address_and_sigterm_closes_with_1012(self, tmp_path):
        env = dict(os.environ, HEARTS_DB=str(tmp_path / "s.db"), HEARTS_BOT_DELAY="0", HEARTS_TIMER_MIN="2")
        hearts = Path(sys.executable).parent / "hearts"
        proc = await asyncio.create_subprocess_exec(
            str(hearts), "serve", "--port", "0", env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
            match = re.match(r"Hartenjagen serving on http://127\.0\.0\.1:(\d+)/", line)
            assert match, line
            port = int(match.group(1))
            async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
                await ws.send(json.dumps({"type": "hello", "version": 1, "name": "Anna"}))
                assert json.loads(await ws.recv())["type"] == "welcome"
                # HEARTS_TIMER_MIN lowers the shortest turn timer a host may set
                await ws.send(json.dumps({"type": "create", "options": {}}))
                await ws.send(json.dumps({"type": "set_timer", "seconds": 2}))
                table = None
                while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "error":
                    msg = table = fold(table, msg) if msg["type"] == "update" else msg
                    if msg["type"] == "table" and msg["turn_timer"] == 2:
                        break
                assert msg["type"] == "table", msg
                proc.send_signal(signal.SIGTERM)
                with pytest.raises(Exception):  # noqa: B017
                    await asyncio.wait_for(ws.recv(), 10)
                assert ws.close_code == 1012  # service restart: the client comes back by itself
            assert await asyncio.wait_for(proc.wait(), 10) == 0
        finally:
            if proc.returncode is None:
                proc.kill()
                await asyncio.wait_for(proc.wait(), 30)
        con = sqlite3.connect(tmp_path / "s.db")
        assert con.execute("SELECT name FROM players").fetchall() == [("Anna",)]
        con.close()


class TestChoosingTheStore:
    def serve(self, db: str, prelude: str = "") -> subprocess.CompletedProcess:
        """Run ``hearts serve --db db`` to its exit (it must refuse to start); ``prelude`` runs first."""
        code = f"import sys\n{prelude}\nfrom hartenjagen.server.cli import main\nsys.exit(main())"
        env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
        cmd = [sys.executable, "-c", code, "serve", "--port", "0", "--db", db]
        root = Path(__file__).resolve().parents[2]
        return subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=30)

    def test_without_asyncpg_a_postgresql_url_says_how_to_install_it(self):
        done = self.serve("postgresql://postgres:secret@127.0.0.1:5432/x", "sys.modules['asyncpg'] = None")
        assert done.returncode == 2, done.stderr
        assert "needs the asyncpg package: pip install -e '.[cluster]'" in done.stderr
        assert "secret" not in done.stderr and "Traceback" not in done.stderr

    def test_a_postgresql_that_does_not_answer_is_a_clear_error(self):
        with socket.socket() as sock:  # a port nothing listens on
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        done = self.serve(f"postgres://postgres:secret@127.0.0.1:{port}/hearts")
        assert done.returncode == 2, done.stderr
        assert f"cannot start: cannot connect to PostgreSQL at postgres://postgres:***@127.0.0.1:{port}/hearts" in (
            done.stderr
        )
        assert "secret" not in done.stderr and "Traceback" not in done.stderr

    async def test_a_file_path_or_no_flag_stays_sqlite(self, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        for db in ("hearts.db", str(tmp_path / "postgresql.db"), Config().db):
            store = await open_store(db)
            try:
                assert isinstance(store, Database) and store.describe() == f"SQLite {db}"
            finally:
                await store.close()
        assert (tmp_path / "hearts.db").exists() and (tmp_path / "postgresql.db").exists()


class TestTheTestCommand:
    def test_ci_runs_exactly_the_readmes_test_command_and_it_makes_sure_postgresql_and_redis_answer(self):
        root = Path(__file__).resolve().parents[2]
        readme = [line.strip() for line in (root / "README.md").read_text().splitlines()]
        (command,) = [line for line in readme if line.startswith("apt-get update") and "pytest" in line]
        assert (root / ".ci" / "run").read_text().rstrip("\n").splitlines()[-1] == command
        assert "bash tools/ensure_services.sh && " in command and command.index("ensure") < command.index("pytest")
        done = subprocess.run(["bash", "-n", str(root / "tools" / "ensure_services.sh")], capture_output=True)
        assert done.returncode == 0, done.stderr
