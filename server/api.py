"""The JSON endpoints under ``/api/``: stats, my games, replays and the daily board."""

from __future__ import annotations

import json
import re
from http import HTTPStatus
from typing import Any

from shared.replay import NotFinished, replay_hands
from shared.rules import make_rules

from .daily import parse_day, public_deal
from .store import Store

GAME_PATH = re.compile(r"^/api/games/(\d{1,15})$")
SHARE_PATH = re.compile(r"^/api/replays/([A-Za-z0-9_-]{8,64})$")
DAILY_PATH = re.compile(r"^/api/daily/([^/]{0,40})$")
NOT_FOUND = (HTTPStatus.NOT_FOUND, {"error": "not_found"})


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
        "seats": json.loads(row["seats"]),
    }
    body.update(replay_hands(make_rules(options), json.loads(row["events"])))
    return body


class Api:
    """Answers ``GET /api/...``: (status, JSON body); what is not the asker's is 404, as if it did not exist."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.daily_key = ""  # loaded by the app before it serves

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
        if match := SHARE_PATH.match(path):
            return self._replay(await self.store.game(0, share=match.group(1)))
        if match := DAILY_PATH.match(path):
            day = parse_day(match.group(1))
            if day is None:
                return HTTPStatus.BAD_REQUEST, {"error": "bad_date"}
            board = await self.store.daily_board(day, token or None)
            return HTTPStatus.OK, {"date": day, "deal": public_deal(day, self.daily_key), **board}
        return NOT_FOUND

    @staticmethod
    def _replay(row: dict[str, Any] | None) -> tuple[HTTPStatus, Any]:
        if row is None:
            return NOT_FOUND
        try:
            return HTTPStatus.OK, replay_body(row)
        except NotFinished:
            return NOT_FOUND
