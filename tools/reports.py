"""``hearts reports``: the players' reports of one another, newest first, with the chat lines kept with each."""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the flags of ``hearts reports``."""
    parser.add_argument("--db", default="hearts.db", help="SQLite file or postgresql:// URL (default hearts.db)")
    parser.add_argument("--limit", type=int, default=50, help="reports shown at most (default 50)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per line")


def format_report(report: dict[str, Any]) -> str:
    """One report as lines for a person: when, where, who, why, and the chat lines around it."""
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(report["at"]))
    lines = [f"{when}  table {report['table_code']}  {report['reported_name']!r} (player {report['reported_id']}) "
             f"reported by player {report['reporter_id']}: {report['reason']}"]  # fmt: skip
    for line in json.loads(report["chat"]):
        said = line.get("text") or f"[{line.get('phrase')}]"
        lines.append(f"    {line['from']['name']}: {said}")
    return "\n".join(lines)


async def _reports(db: str, limit: int) -> list[dict[str, Any]]:
    from hartenjagen.server.storage.opening import open_store

    store = await open_store(db)
    try:
        return await store.reports(limit)
    finally:
        await store.close()


def run(args: argparse.Namespace) -> int:
    """Print the latest reports."""
    found = asyncio.run(_reports(args.db, args.limit))
    for report in found:
        print(json.dumps(report) if args.json else format_report(report))
    if not found and not args.json:
        print("no reports")
    return 0
