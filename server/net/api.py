"""The JSON endpoints under ``/api/``: stats, my games, replays, the daily board, open tables and leaderboards."""

from __future__ import annotations

import json
import re
import time
from http import HTTPStatus
from typing import Any

from hartenjagen.shared.replay import NotFinished, replay_hands
from hartenjagen.shared.variants import make_rules

from ..live.lobby import Lobby
from ..live.reviews import Reviewer, ReviewRefused, game_name
from ..storage.store import Store
from ..table import ratings
from ..table.daily import day_of, parse_day, public_deal
from ..table.records import wire_seats

GAME_PATH = re.compile(r"^/api/games/(\d{1,15})$")
REVIEW_PATH = re.compile(r"^/api/games/(\d{1,15})/review/(\d{1,4})$")
SHARE_PATH = re.compile(r"^/api/replays/([A-Za-z0-9_-]{8,64})$")
DAILY_PATH = re.compile(r"^/api/daily/([^/]*)$")  # anything there that is not a date is bad_date
BOARD_PATH = re.compile(r"^/api/leaderboard/([^/]*)/([^/]*)$")
NOT_FOUND = (HTTPStatus.NOT_FOUND, {"error": "not_found"})
#: The paths ``Api.answer`` serves, as docs/protocol.md lists them.
API_ENDPOINTS = (
    "/api/stats",
    "/api/games",
    "/api/games/{id}",
    "/api/games/{id}/review/{hand}",
    "/api/replays/{share}",
    "/api/daily/{date}",
    "/api/open-tables",
    "/api/leaderboard/{family}/{period}",
)
RETRY_MS = 1500  # how soon to ask again after a 202


def replay_body(row: dict[str, Any]) -> dict[str, Any]:
    """Return the replay of a stored finished game: its table, seats and every hand with all four hands open."""
    options = json.loads(row["options"])
    body = {
        "id": row["id"],
        "code": row["code"],
        "options": options,
        "deal": row["deal"],
        "started_at": row["started_at"],
        "finished_at": row["finished_at"],
        "share": row["share"],
        "seats": wire_seats(json.loads(row["seats"])),
    }
    body.update(replay_hands(make_rules(options), json.loads(row["events"])))
    return body


class Api:
    """Answers ``GET /api/...``: (status, JSON body); what is not the asker's is 404, as if it did not exist."""

    def __init__(self, store: Store, reviewer: Reviewer | None = None, review_wait: float = 4.0) -> None:
        self.store = store
        self.reviewer = reviewer
        self.review_wait = review_wait  # then 202: the websockets server ends a request that takes 10 s
        self.daily_key = ""  # loaded by the app before it serves
        self.lobby: Lobby | None = None  # the hub's open tables, set by the app

    async def answer(self, path: str, token: str) -> tuple[HTTPStatus, Any]:
        """Return the status and body for ``path``, asked with player token ``token`` (may be empty)."""
        if path in ("/api/stats", "/api/games"):
            if not token:
                return HTTPStatus.BAD_REQUEST, {"error": "missing_token"}
            if path == "/api/stats":
                body = await self.store.stats(token)
            else:
                games = await self.store.games_of(token)
                body = {"games": games} if games is not None else None
            if body is None:
                return HTTPStatus.NOT_FOUND, {"error": "unknown_player"}
            return HTTPStatus.OK, body
        if match := GAME_PATH.match(path):
            row = await self.store.game(int(match.group(1)), token=token) if token else None
            return self._replay(row)
        if match := REVIEW_PATH.match(path):
            return await self._review(int(match.group(1)), int(match.group(2)), token)
        if match := SHARE_PATH.match(path):
            return self._replay(await self.store.game(0, share=match.group(1)))
        if match := DAILY_PATH.match(path):
            today = day_of(time.time())
            day = parse_day(match.group(1), today)
            if day is None:
                return HTTPStatus.BAD_REQUEST, {"error": "bad_date"}
            board = await self.store.daily_board(day, token or None)
            return HTTPStatus.OK, {"date": day, "deal": public_deal(day, self.daily_key, today), **board}
        if path == "/api/open-tables" and self.lobby is not None:
            return HTTPStatus.OK, await self.lobby.listing()
        if match := BOARD_PATH.match(path):
            family, period = match.groups()
            if family not in ratings.FAMILIES or period not in ratings.PERIODS:
                return HTTPStatus.NOT_FOUND, {"error": "not_found", "families": list(ratings.FAMILIES),
                                              "periods": list(ratings.PERIODS)}  # fmt: skip
            return HTTPStatus.OK, await self.store.leaderboard(family, period, token, time.time())
        return NOT_FOUND

    async def _review(self, game_id: int, hand_no: int, token: str) -> tuple[HTTPStatus, Any]:
        """The review of the asker's own decisions in hand ``hand_no`` of a finished game they sat in."""
        if not token:
            return NOT_FOUND  # as for the game itself: without a token nobody sat in it
        found = await self.store.game_and_seat(game_id, token)
        if found is None or self.reviewer is None:
            return NOT_FOUND
        row, seat, player_id = found
        if not 0 <= hand_no < row["hands"]:
            return NOT_FOUND
        key = self.reviewer.key(game_name(row.get("table_id"), row["started_at"], game_id), seat, hand_no)
        try:
            names = [s.get("name") or "" for s in sorted(json.loads(row["seats"]), key=lambda s: s["seat"])]
            review = await self.reviewer.review(
                player_id,
                key,
                json.loads(row["options"]),
                json.loads(row["events"]),
                seat,
                hand_no,
                names,
                wait=self.review_wait,
            )
        except ReviewRefused as exc:
            return HTTPStatus.TOO_MANY_REQUESTS, {"error": exc.code}
        if review is None:  # still being computed: ask again (free while it runs, then read from the cache)
            return HTTPStatus.ACCEPTED, {
                "game_id": game_id,
                "hand_no": hand_no,
                "status": "pending",
                "retry_ms": RETRY_MS,
            }
        return HTTPStatus.OK, {"game_id": game_id, "hand_no": hand_no, "seat": seat, "review": review}

    @staticmethod
    def _replay(row: dict[str, Any] | None) -> tuple[HTTPStatus, Any]:
        if row is None:
            return NOT_FOUND
        try:
            return HTTPStatus.OK, replay_body(row)
        except NotFinished:
            return NOT_FOUND
