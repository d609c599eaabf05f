"""Rows for a finished game and the shapes of the game list and daily board: plain data, no database."""

from __future__ import annotations

import json
from typing import Any

from .table_state import SeatKind


def game_rows(record: dict[str, Any]) -> dict[str, Any]:
    """Return the rows a finished game adds: the game, its seats, each hand per seat, toppers, players, daily."""
    game_id = record["id"]
    winners = record["winners"]
    totals = record["totals"]
    game = {
        "id": game_id,
        "code": record["code"],
        "variant": record["options"]["variant"],
        "options": json.dumps(record["options"], sort_keys=True),
        "started_at": record["started_at"],
        "finished_at": record["finished_at"],
        "hands": len(record["history"]),
        "winners": json.dumps(winners),
        "table_id": record.get("table_id"),
        "deal": record.get("deal"),
        "share": record.get("share"),
        "seats": json.dumps(
            [{k: s[k] for k in ("seat", "name", "kind", "level", "chips") if k in s} for s in record["seats"]],
            separators=(",", ":"),
        ),
        "events": json.dumps(record["events"], separators=(",", ":")) if record.get("events") is not None else None,
    }
    seats = [
        {
            "game_id": game_id,
            "seat": s["seat"],
            "player_id": s["player_id"],
            "kind": s["kind"],
            "name": s["name"],
            "level": s["level"],
            "final_total": totals[s["seat"]],
            "won": int(s["seat"] in winners),
        }
        for s in record["seats"]
    ]
    hands = [
        {
            "game_id": game_id,
            "hand_no": h["hand_no"],
            "seat": seat,
            "points": h["points"][seat],
            "score": h["scores"][seat],
            "total": h["totals"][seat],
            "moon": int(h["moon"] == seat),
        }
        for h in record["history"]
        for seat in range(len(h["totals"]))
    ]
    players = sorted(
        set(record.get("participants", [])) | {s["player_id"] for s in record["seats"] if s["player_id"] is not None}
    )
    daily = None
    if record.get("daily") and record["daily"].get("counts"):
        holder = next((s for s in record["seats"] if s["kind"] == SeatKind.HUMAN and s["player_id"] is not None), None)
        if holder is not None:
            daily = {
                "day": record["daily"]["date"],
                "player_id": holder["player_id"],
                "game_id": game_id,
                "total": totals[holder["seat"]],
                "finished_at": record["finished_at"],
            }
    toppers = [{"game_id": game_id, "seat": t["seat"], "kind": t["kind"]} for t in record.get("toppers", [])]
    return {
        "game": game,
        "seats": seats,
        "toppers": toppers,
        "hands": hands,
        "players": [{"game_id": game_id, "player_id": p} for p in players],
        "daily": daily,
    }


def games_list_item(game: dict[str, Any], seats: list[dict[str, Any]], player_id: int) -> dict[str, Any]:
    """Return one entry of ``GET /api/games``: the game, its options, its final table, the asker's seat at the end.

    A chips game's seats carry their final chips too.
    """
    you = next((s["seat"] for s in seats if s["player_id"] == player_id), None)
    chips = {s["seat"]: s["chips"] for s in json.loads(game.get("seats") or "[]") if "chips" in s}
    return {
        "id": game["id"],
        "code": game["code"],
        "variant": game["variant"],
        "options": json.loads(game["options"]),
        "deal": game["deal"],
        "finished_at": game["finished_at"],
        "hands": game["hands"],
        "you": you,
        "share": game["share"],
        "seats": [
            {k: s[k] for k in ("seat", "name", "kind", "final_total")}
            | {"won": bool(s["won"])}
            | ({"chips": chips[s["seat"]]} if s["seat"] in chips else {})
            for s in seats
        ],
    }


def daily_place(top: list[dict[str, Any]], mine: dict[str, Any] | None) -> dict[str, Any]:
    """Return the board body: places (equal totals share one), and the asker's own place."""
    board, place = [], 0
    for i, row in enumerate(top):
        if i == 0 or row["total"] != top[i - 1]["total"]:
            place = i + 1
        board.append({"place": place, "name": row["name"], "total": row["total"]})
    return {"board": board, "you": mine, "played": mine is not None}
