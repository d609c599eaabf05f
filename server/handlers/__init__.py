"""The handlers of client messages, grouped by concern, and the one table from message type to handler."""

from __future__ import annotations

from typing import Any

from . import host, identity, new_tables, play, reports, seating

#: Every message type a client may send (past ``ping`` and the checks of ``Hub.handle``), and what handles it.
#: Each handler is a plain function of the node's services, the connection and the checked message.
HANDLERS: dict[str, Any] = {
    "hello": identity.hello,
    "device_code": identity.device_code,
    "use_device_code": identity.use_device_code,
    "devices": identity.devices,
    "sign_out_device": identity.sign_out_device,
    "create": new_tables.create,
    "play_now": new_tables.play_now,
    "my_tables": new_tables.my_tables,
    "join": seating.join,
    "resume": seating.resume,
    "watch": seating.watch,
    "sit": seating.sit,
    "leave": seating.leave,
    "allow_watch": host.allow_watch,
    "allow_chat": host.allow_chat,
    "add_computer": host.add_computer,
    "remove_computer": host.remove_computer,
    "fill_computers": host.fill_computers,
    "set_timer": host.set_timer,
    "start": host.start,
    "restart": host.restart,
    "new_game": host.new_game,
    "set_pace": host.set_pace,
    "set_open": host.set_open,
    "remove_player": host.remove_player,
    "pass": play.intent,
    "play": play.intent,
    "moon": play.intent,
    "ready": play.ready,
    "claim": play.claim,
    "rematch": play.rematch,
    "hint": play.hint,
    "chat": play.chat,
    "mute_chat": play.mute_chat,
    "report": reports.report,
    "review": reports.review,
}
