"""A finished game's record, its rows, and the shapes of the game list and daily board: plain data, no database."""

from __future__ import annotations

import json
from typing import Any

from .ratings import family_of, places
from .seat_kinds import SeatKind, seat_kind, stored_kind
from .state import TableState


def game_rows(record: dict[str, Any]) -> dict[str, Any]:
    """Return the rows a finished game adds: the game, its seats, each hand per seat, toppers, players, daily.

    Who sat is stored in the database's words (``"human"``, ``"bot"``), from a record in either words.
    """
    game_id = record["id"]
    stored = [{**s, "kind": stored_kind(s["kind"])} for s in record["seats"]]
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
            [{k: s[k] for k in ("seat", "name", "kind", "level", "chips") if k in s} for s in stored],
            separators=(",", ":"),
        ),
        "events": json.dumps(record["events"], separators=(",", ":")) if record.get("events") is not None else None,
        "daily": record["daily"]["date"] if record.get("daily") else None,
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
        for s in stored
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
        people = (s for s in stored if seat_kind(s["kind"]) == SeatKind.PERSON)
        holder = next((s for s in people if s["player_id"] is not None), None)
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


def player_stats(
    name: str | None,
    games: list[tuple[int, int]],
    hands: int,
    scored: int,
    moons: int,
    toppers: dict[str, int],
) -> dict[str, Any]:
    """Return a player's figures from (final total, won) per game in finishing order and their hands' sums."""
    streak = best = 0
    for _, won in games:
        streak = streak + 1 if won else 0
        best = max(best, streak)
    played = len(games)
    won = sum(g[1] for g in games)
    return {
        "name": name,
        "games_played": played,
        "games_won": won,
        "win_pct": round(100 * won / played, 1) if played else 0.0,
        "lowest_score": min((g[0] for g in games), default=None),
        "current_streak": streak,
        "best_streak": best,
        "moons": moons,
        "hands": hands,
        "avg_points_per_hand": round(scored / hands, 2) if hands else None,
        "toppers": toppers,
    }


def stats_by_variant(
    name: str | None,
    games: list[tuple[int, int, str]],
    hands: dict[str, tuple[int, int, int]],
    toppers: dict[str, dict[str, int]],
) -> dict[str, Any]:
    """Return a player's figures in total and, under ``variants``, per variant.

    ``games``: (final total, won, variant) in finishing order; ``hands``: per variant (hands, points, moons);
    ``toppers``: per variant, how often each topper.
    """
    total_toppers: dict[str, int] = {}
    for per_kind in toppers.values():
        for kind, n in per_kind.items():
            total_toppers[kind] = total_toppers.get(kind, 0) + n
    hand_count, scored, moons = (sum(h[i] for h in hands.values()) for i in range(3))
    out = player_stats(name, [(g[0], g[1]) for g in games], hand_count, scored, moons, total_toppers)
    out["variants"] = {
        variant: {
            k: v
            for k, v in player_stats(
                None, [(g[0], g[1]) for g in games if g[2] == variant], *hands.get(variant, (0, 0, 0)),
                toppers.get(variant, {}),
            ).items()
            if k != "name"
        }
        for variant in sorted({g[2] for g in games})
    }  # fmt: skip
    return out


def stats_of_records(records: list[dict[str, Any]], name: str | None = None) -> dict[str, Any]:
    """Return the figures of the person in each finished game record (an offline game has one person)."""
    games: list[tuple[int, int, str]] = []
    hands: dict[str, tuple[int, int, int]] = {}
    toppers: dict[str, dict[str, int]] = {}
    for record in sorted(records, key=lambda r: (r["finished_at"], r["id"])):
        rows = game_rows(record)
        variant = rows["game"]["variant"]
        person = next((s for s in rows["seats"] if seat_kind(s["kind"]) == SeatKind.PERSON), None)
        if person is None:
            continue
        games.append((person["final_total"], person["won"], variant))
        mine = [h for h in rows["hands"] if h["seat"] == person["seat"]]
        n, scored, moons = hands.get(variant, (0, 0, 0))
        hands[variant] = (n + len(mine), scored + sum(h["score"] for h in mine), moons + sum(h["moon"] for h in mine))
        for t in rows["toppers"]:
            if t["seat"] == person["seat"]:
                per_kind = toppers.setdefault(variant, {})
                per_kind[t["kind"]] = per_kind.get(t["kind"], 0) + 1
    return stats_by_variant(name, games, hands, toppers)


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
        "daily": game.get("daily"),  # the day whose daily deal this was, else null
        "finished_at": game["finished_at"],
        "hands": game["hands"],
        "you": you,
        "share": game["share"],
        "seats": [
            {"seat": s["seat"], "name": s["name"], "kind": seat_kind(s["kind"]), "final_total": s["final_total"]}
            | {"won": bool(s["won"])}
            | ({"chips": chips[s["seat"]]} if s["seat"] in chips else {})
            for s in seats
        ],
    }


def wire_seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return a finished game's stored seats with who sat in the wire's words (``"person"``, ``"computer"``)."""
    return [{**s, "kind": seat_kind(s["kind"])} if "kind" in s else s for s in seats]


def daily_place(top: list[dict[str, Any]], mine: dict[str, Any] | None) -> dict[str, Any]:
    """Return the board body: places (equal totals share one), and the asker's own place."""
    board, place = [], 0
    for i, row in enumerate(top):
        if i == 0 or row["total"] != top[i - 1]["total"]:
            place = i + 1
        board.append({"place": place, "name": row["name"], "total": row["total"]})
    return {"board": board, "you": mine, "played": mine is not None}


def game_record(table: TableState, replay: dict[str, Any], finished_at: float) -> dict[str, Any]:
    """Return the finished game as a record for the database (derived from the log's fold).

    ``replay``: the replay id and share key logged for it (``recorded``).
    """
    game = table.current_game
    return {
        "id": replay["id"],
        "share": replay["share"],
        "table_id": table.table_id,
        "code": table.code,
        "options": dict(table.rules.to_json()),
        "deal": None if table.daily is not None else table.deal,
        "daily": table.daily,
        "started_at": table.started_at,
        "finished_at": finished_at,
        "history": [dict(h) for h in game.history],
        "totals": list(game.totals),
        "winners": list(game.winners),
        "toppers": [dict(t) for t in game.toppers],
        "events": [dict(e) for e in game.events],
        "participants": sorted(table.participants),
        "rated": rated_result(table),
        "seats": [
            {
                "seat": s.index,
                "player_id": s.player_id if s.kind == SeatKind.PERSON else None,
                "kind": SeatKind.PERSON if s.kind == SeatKind.PERSON else SeatKind.COMPUTER,
                "name": s.name or "?",
                "level": s.level,
                **({"chips": game.chips[s.index]} if table.rules.start_chips else {}),
            }
            for s in table.seats
        ],
    }


def rated_result(table: TableState) -> dict[str, Any] | None:
    """Return a rated game's sides and places (people who left early are last), or None if it is not rated."""
    if not table.rated_seats or table.game is None:
        return None
    game = table.game
    standing = [-c for c in game.chips] if table.rules.start_chips else list(game.totals)
    seats = table.seats
    kept = {s for s, p in table.rated_seats.items() if seats[s].kind == SeatKind.PERSON and seats[s].player_id == p}
    result = places(standing, tuple(table.rules.teams), table.rated_seats, kept)
    left = sorted(p for s, p in table.rated_seats.items() if s not in kept)
    return {"family": family_of(table.rules.to_json()), **result, "left": left}
