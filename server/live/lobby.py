"""Open tables: the start page's list (this node's and, in a cluster, every node's) and where Play now sits a person.

A table is listed while it is open, waiting for its start, has an empty seat and a connected person. Each entry
shows the variant, the end score, the language (the host's; at a Play now table the languages of the people there,
or the one language it is for) and who sits with their rating in the variant's family. In
a cluster every node publishes its own entries in Redis (``Cluster.publish_open``) and reads the others'.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace
from typing import Any

from ..storage.store import Store
from ..table import ratings
from ..table.messages import PlayNow
from ..table.table import WAITING, SeatKind, Table
from .leasing import Leasing
from .registry import Tables

FRESH = 1.0  # seconds a node's own list is reused before it is built again
MAX_LISTED = 200  # entries on the start page at most (the fullest first)


def entry(table: Table) -> dict[str, Any] | None:
    """Return ``table``'s entry on the list of open tables, or None when it is not listed now."""
    if not table.listed or table.closed or table.daily is not None or table.status != WAITING:
        return None
    free = sum(1 for s in table.seats if s.kind == SeatKind.EMPTY)
    if not free or not table.connected_persons():
        return None
    options = table.rules.to_json()
    return {
        "code": table.code,
        "variant": options["variant"],
        "options": options,
        "end_score": table.rules.end_score,
        "lang": table.lang,
        "lang_only": table.lang_only,
        "langs": table.langs(),
        "play_now": table.play_now,
        "fill_at": table.fill_at,
        "free": free,
        "seats": [{"seat": s.index, "name": s.name, "kind": s.kind, "_player": s.player_id} for s in table.seats],
        "_barred": sorted(table.barred),  # the people the host removed: Play now never matches them here
    }


def public(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the entries as the start page gets them: no player ids."""
    return [
        {**{k: v for k, v in e.items() if k != "_barred"}, "seats": [_public_seat(s) for s in e["seats"]]}
        for e in entries
    ]


def _public_seat(seat: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in seat.items() if k != "_player"}


def fits(
    item: dict[str, Any], options: dict[str, Any], lang: str, player_id: int | None, lang_only: bool = False
) -> bool:
    """True when Play now may seat ``player_id`` (with ``options`` and ``lang``) at the listed table ``item``.

    The one test of a match, for this node's tables and for those another node published. Play now matches on the
    game, whatever the language; a person who asks for players of their own language only (``lang_only``) meets
    them at a table for that language, and such a table takes anyone whose page speaks its language. A person the
    host removed from a table is never matched to it.
    """
    table_only = item.get("lang_only", False)
    if lang_only or table_only:
        languages = table_only and item["lang"] == lang
    else:
        languages = True
    return (
        item["play_now"]
        and item["options"] == options
        and languages
        and item["free"] > 0
        and player_id not in item.get("_barred", ())
    )


def relayed_press(msg: PlayNow, code: str) -> PlayNow:
    """The ``play_now`` a node relays to the owner of the open table ``code`` (the table it matched).

    It is the person's own press (options, language, wait): the owner seats them as it would its own press.
    """
    return replace(msg, at_table=code)


def match_key(options: dict[str, Any], lang: str | None = None) -> str:
    """A short name of one kind of Play now table: the cluster matches one kind at a time.

    The kind is the table's options, and its language for a table of one language only (``lang`` None: any).
    """
    text = json.dumps([options, lang], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def match_keys(options: dict[str, Any], lang: str, lang_only: bool) -> list[str]:
    """The kinds of table one press may sit at, each locked in this order while it is matched across a cluster.

    A press for one language only fits the tables for that language; any other press fits the tables for anyone and
    those for its own language (taken in one order, so no two presses ever wait for each other's lock).
    """
    return [match_key(options, lang)] if lang_only else [match_key(options), match_key(options, lang)]


class Lobby:
    """The open tables of this node with ratings, and the list across the cluster."""

    def __init__(self, tables: Tables, store: Store, cluster: Leasing | None = None) -> None:
        self.tables = tables
        self.store = store
        self.cluster = cluster
        self._built: tuple[float, int, list[dict[str, Any]]] = (-FRESH, 0, [])
        self._changes = 0  # counts ``changed``: a list built while a table changed is not kept

    async def local(self) -> list[dict[str, Any]]:
        """Return this node's listed tables, each person with their rating (built at most once a second)."""
        built_at, changes, entries = self._built
        now = time.monotonic()
        if now - built_at < FRESH and changes == self._changes:
            return entries
        changes = self._changes
        entries = [e for e in (entry(t) for t in list(self.tables.by_code.values())) if e is not None]
        by_family: dict[str, list[int]] = {}
        for e in entries:
            family = ratings.family_of(e["options"])
            if family is not None:
                by_family.setdefault(family, []).extend(s["_player"] for s in e["seats"] if s["_player"] is not None)
        known = {f: await self.store.ratings_of(f, sorted(set(p))) for f, p in by_family.items()}
        node = self.cluster.node if self.cluster is not None else None
        for e in entries:
            family = ratings.family_of(e["options"])
            e["family"], e["node"] = family, node
            for s in e["seats"]:
                if s["kind"] == SeatKind.PERSON and family is not None:
                    s["rating"] = known.get(family, {}).get(s["_player"]) or ratings.shown(*ratings.PRIOR, 0)
        self._built = (now, changes, entries)
        return entries

    def seats_of(self, player_id: int | None) -> list[dict[str, Any]]:
        """Return the tables here where ``player_id`` holds a seat: code, seat (of how many), status, variant."""
        return self.seated().get(str(player_id), []) if player_id is not None else []

    def seated(self) -> dict[str, list[dict[str, Any]]]:
        """Return every seated player's tables on this node, by player id (published for the other nodes)."""
        out: dict[str, list[dict[str, Any]]] = {}
        for t in list(self.tables.by_code.values()):
            if t.closed:
                continue
            for s in t.seats:
                if s.kind == SeatKind.PERSON and s.player_id is not None:
                    variant = t.rules.to_json()["variant"]
                    out.setdefault(str(s.player_id), []).append(
                        {"code": t.code, "seat": s.index, "seats": len(t.seats), "status": t.status, "variant": variant}
                    )
        return out

    def changed(self) -> None:
        """A table opened, filled or started: the next list is built afresh."""
        self._changes += 1

    async def everywhere(self) -> list[dict[str, Any]]:
        """Return the listed tables of every node (this node's as they are now), the fullest first."""
        found = list(await self.local())
        if self.cluster is not None:
            found += await self.cluster.open_elsewhere()
        found.sort(key=lambda e: (e["free"], e["code"]))
        return found[:MAX_LISTED]

    async def listing(self) -> dict[str, Any]:
        """Return ``GET /api/open-tables``: the list of open tables for the start page."""
        return {"tables": public(await self.everywhere())}
