"""One port for files, /healthz and stats; migrations; ``hearts serve`` starts, prints its address, stops cleanly."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from server.changes import fold
from server.sqlite_store import SQLiteStore as Database
from server.sqlite_store import migrations_dir
from server.store import SchemaTooNew
from server.table import CODE_ALPHABET, new_code


class TestHttp:
    async def test_healthz_counts_tables_and_connections(self, server):
        await server.host("Anna")
        status, headers, body = await server.get("/healthz")
        assert status == 200 and headers["Content-Type"] == "application/json"
        health = json.loads(body)
        assert health.pop("allocated_blocks") > 0  # the interpreter's live blocks: an operator's leak watch
        assert health == {"status": "ok", "tables": 1, "connections": 1}

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


class TestDockerfile:
    def test_every_package_the_hearts_command_installs_is_copied_into_the_image(self):
        root = Path(__file__).resolve().parents[2]
        include = re.search(r"include = \[(.*?)\]", (root / "pyproject.toml").read_text()).group(1)
        packages = re.findall(r'"(\w+)\*"', include)
        assert packages and "server" in packages
        copied = set(re.findall(r"^COPY (\w+) \./\1$", (root / "Dockerfile").read_text(), re.M))
        assert set(packages) <= copied, f"hearts serve would fail in the image without: {set(packages) - copied}"

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


class TestMigrations:
    async def test_migrations_are_recorded_and_wal_is_on(self, tmp_path):
        db = await Database.open(str(tmp_path / "a.db"))
        assert await db.schema_version() == 3
        await db.close()
        con = sqlite3.connect(tmp_path / "a.db")
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert con.execute("SELECT version, name FROM schema_migrations").fetchall() == [
            (1, "initial"),
            (2, "table_log"),
            (3, "toppers"),
        ]
        con.close()
        db = await Database.open(str(tmp_path / "a.db"))  # a second start applies nothing twice
        assert await db.schema_version() == 3
        await db.close()

    async def test_player_tokens_of_an_older_database_are_hashed_and_still_recognised(self, tmp_path):
        first = tmp_path / "migs"
        first.mkdir()
        (first / "001_initial.sql").write_text((migrations_dir() / "001_initial.sql").read_text())
        path = str(tmp_path / "old.db")
        await (await Database.open(path, first)).close()  # a database of the first release
        con = sqlite3.connect(path)
        con.execute("INSERT INTO players (token, name, created_at, last_seen) VALUES ('old-secret', 'Anna', 0, 0)")
        con.commit()
        con.close()
        db = await Database.open(path)
        try:
            con = sqlite3.connect(path)
            stored = con.execute("SELECT token_hash FROM players").fetchall()
            con.close()
            assert stored == [(hashlib.sha256(b"old-secret").hexdigest(),)]  # never the token in clear
            pid, token, name = await db.player("Anna B", "old-secret")
            assert (pid, token, name) == (1, "old-secret", "Anna B")
        finally:
            await db.close()

    async def test_a_newer_schema_is_refused(self, tmp_path):
        path = tmp_path / "b.db"
        await (await Database.open(str(path))).close()
        con = sqlite3.connect(path)
        con.execute("INSERT INTO schema_migrations VALUES (99, 'future', 0)")
        con.commit()
        con.close()
        with pytest.raises(SchemaTooNew, match="99"):
            await Database.open(str(path))

    async def test_a_broken_migration_leaves_nothing_behind(self, tmp_path):
        folder = tmp_path / "migs"
        folder.mkdir()
        (folder / "001_ok.sql").write_text("CREATE TABLE a (x INTEGER);")
        (folder / "002_bad.sql").write_text("CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);")
        with pytest.raises(sqlite3.OperationalError):
            await Database.open(str(tmp_path / "c.db"), folder)
        con = sqlite3.connect(tmp_path / "c.db")
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "a" in tables and "b" not in tables
        assert con.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0] == 1
        con.close()


class TestServeCommand:
    async def test_sigterm_the_moment_the_server_is_up_closes_connections_with_1012_and_exits_0(self, tmp_path):
        env = dict(os.environ, HEARTS_DB=str(tmp_path / "t.db"))
        hearts = Path(sys.executable).parent / "hearts"
        proc = await asyncio.create_subprocess_exec(
            str(hearts), "serve", "--port", "0", env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
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
                await proc.wait()

    async def test_hearts_serve_port_0_prints_the_address_and_sigterm_closes_with_1012(self, tmp_path):
        env = dict(os.environ, HEARTS_DB=str(tmp_path / "s.db"), HEARTS_BOT_DELAY="0", HEARTS_TIMER_MIN="2")
        hearts = Path(sys.executable).parent / "hearts"
        proc = await asyncio.create_subprocess_exec(
            str(hearts), "serve", "--port", "0", env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
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
                await proc.wait()
        con = sqlite3.connect(tmp_path / "s.db")
        assert con.execute("SELECT name FROM players").fetchall() == [("Anna",)]
        con.close()
