"""Reports of a person at one's table, and reviews of one's own decisions in a finished hand."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from ..live.reviews import ReviewRefused, game_name
from ..storage.store import StoreBusy
from ..table import outgoing
from ..table.errors import ProtocolError
from ..table.jsontext import compact
from ..table.messages import Report, Review
from ..table.seat_kinds import computer_name
from ..table.table import SeatKind
from .binding import handles
from .seats import known, seated
from .services import Services

if TYPE_CHECKING:
    from ..connection.client import Client

log = logging.getLogger("hearts.server")
CHAT_AROUND = 20  # chat lines kept with a report (the table's latest, which are the lines around it)


@handles(Report)
async def report(ctx: Services, client: Client, msg: Report) -> None:
    """``report``: a person at this table, for a reason, stored with the chat around it for the moderators."""
    table, seat = seated(ctx, client)
    target = table.seat_at(msg.seat)
    if target.kind != SeatKind.PERSON or target.index == seat:
        raise ProtocolError("no_other_person", seat=target.index)
    ctx.limits.report(client)  # the connection's and its address's
    lines = list(table.runtime.chat_room.lines)[-CHAT_AROUND:] if table.runtime.chat_room is not None else []
    await ctx.store.save_report(
        {
            "id": secrets.token_hex(8),
            "at": time.time(),
            "table_code": table.code,
            "reporter_id": client.player_id,
            "reported_id": target.player_id,
            "reported_name": target.name or "?",
            "reason": msg.reason,
            "chat": compact(lines),
        }
    )
    client.push(outgoing.reported(target.index))


@handles(Review)
def review(ctx: Services, client: Client, msg: Review) -> None:
    """Review this seat's decisions in a finished hand of the table's game; the answer comes when it is ready."""
    table, seat = seated(ctx, client)
    player_id, _ = known(client)
    game, hand_no = table.game, msg.hand_no
    if game is None or not any(h["hand_no"] == hand_no for h in game.history):
        raise ProtocolError("review_after_hand")
    key = ctx.reviewer.key(game_name(table.table_id, table.started_at), seat, hand_no)
    events = [dict(e) for e in game.events]  # as they are now: the game goes on meanwhile
    names = [s.name or computer_name(s.index) for s in table.seats]
    job = ctx.reviewer.review(player_id, key, dict(table.rules.to_json()), events, seat, hand_no, names)
    ctx.spawn(_send_review(client, job, hand_no, seat))  # not awaited: the connection's other messages go on


async def _send_review(client: Client, job: Awaitable[dict[str, Any] | None], hand_no: int, seat: int) -> None:
    """Send the review once it is ready, or the reason it is not."""
    try:
        review = await job
    except ReviewRefused as exc:
        client.tell_error(ProtocolError(exc.code))
    except StoreBusy:  # the answer comes later, past the dispatch: said here
        client.push(ProtocolError("server_busy").to_message())
    except Exception:
        log.exception("review of hand %s seat %s failed", hand_no, seat)
        client.push(ProtocolError("server_error").to_message())
    else:
        client.push(outgoing.review(hand_no, seat, review))
