"""A fresh PostgreSQL database for each test, on the real server at 127.0.0.1:5432 (never a mock).

``tools/ensure_services.sh`` (run by the README's test command) installs and starts PostgreSQL where nothing
answers there. ``HEARTS_TEST_PG`` names another server (an admin URL; its database is only used to connect).
"""

from __future__ import annotations

import os
import secrets
from urllib.parse import urlsplit, urlunsplit

import asyncpg

ADMIN_URL = os.environ.get("HEARTS_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
PREFIX = "hearts_test_"
STORES = ["sqlite", "postgresql"]


def url_of(database: str) -> str:
    """The URL of ``database`` on the test server."""
    return urlunsplit(urlsplit(ADMIN_URL)._replace(path="/" + database))


async def _admin() -> asyncpg.Connection:
    try:
        return await asyncpg.connect(ADMIN_URL, timeout=10)
    except (OSError, asyncpg.PostgresError) as exc:
        raise RuntimeError(
            f"no PostgreSQL for the tests at {ADMIN_URL} ({exc}): run tools/ensure_services.sh, "
            "or set HEARTS_TEST_PG to a server where this user may create databases"
        ) from exc


async def create_database() -> str:
    """Create an empty database ``hearts_test_<random>``; return its URL."""
    name = PREFIX + secrets.token_hex(6)
    conn = await _admin()
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return url_of(name)


async def drop_database(url: str) -> None:
    """Drop a database made by ``create_database``, whoever is still connected (a killed server's sessions)."""
    name = urlsplit(url).path.lstrip("/")
    assert name.startswith(PREFIX), name
    conn = await _admin()
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def sql(url: str, query: str, *args: object) -> list[asyncpg.Record]:
    """Run one query on the database at ``url`` and return its rows (for checks a test makes itself)."""
    conn = await asyncpg.connect(url, timeout=10)
    try:
        return await conn.fetch(query, *args)
    finally:
        await conn.close()
