"""Numbered migrations: ``NNN_name.sql`` for every database, ``NNN_name.pg.sql`` where PostgreSQL differs."""

from __future__ import annotations

import os
import re
from pathlib import Path

MIGRATION_FILE = re.compile(r"^(\d{3})_([a-z0-9_]+)(\.pg)?\.sql$")
DIALECTS = ("sqlite", "postgresql")


def migrations_dir() -> Path:
    """Return the folder of numbered SQL files (``HEARTS_MIGRATIONS_DIR`` or ``migrations/`` in the checkout)."""
    env = os.environ.get("HEARTS_MIGRATIONS_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "migrations"


def load_migrations(folder: Path, dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """Return ``(version, name, sql)`` for ``dialect``, in order; versions must be 1..N.

    Every version has one ``NNN_name.sql``; PostgreSQL reads ``NNN_name.pg.sql`` instead where that file exists.
    """
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    common: dict[int, tuple[str, Path]] = {}
    pg: dict[int, tuple[str, Path]] = {}
    for path in sorted(folder.glob("*.sql")):
        match = MIGRATION_FILE.match(path.name)
        if not match:
            raise RuntimeError(f"migration file {path.name!r} is not named NNN_name.sql (or NNN_name.pg.sql)")
        version, name = int(match.group(1)), match.group(2)
        into = pg if match.group(3) else common
        if version in into:
            twice = f"{into[version][1].name} and {path.name}"
            raise RuntimeError(f"two migrations numbered {version:03d} in {folder}: {twice}")
        into[version] = (name, path)
    versions = sorted(common)
    if versions != list(range(1, len(common) + 1)):
        raise RuntimeError(f"migrations in {folder} must be numbered 001, 002, ... without gaps; found {versions}")
    for version, (name, path) in pg.items():
        if common.get(version, ("",))[0] != name:
            raise RuntimeError(f"{path.name} has no {version:03d}_{name}.sql beside it: every version needs both")
    out = []
    for version, (name, path) in sorted(common.items()):
        if dialect == "postgresql" and version in pg:
            path = pg[version][1]
        out.append((version, name, path.read_text(encoding="utf-8")))
    return out
