"""The one encoder of ``update`` messages: their fields in wire order, given as a dict or as compact JSON text.

Both come from the same parts (``update_parts``): the dict for code that folds or compares, the text for the wire.
The text encodes each part on its own, so parts every seat shares can be encoded once (``seat_view.Moment``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import outgoing
from .jsontext import compact

Parts = list[tuple[str, Any]]
_KEYS = {"set": ',"set":', "events": ',"events":'}  # how a part other than the view opens on the wire


def update_parts(changed: dict[str, Any], common: dict[str, Any], seat: dict[str, Any], events: list) -> Parts | None:
    """Return an update's fields in wire order, or None when there is nothing to tell.

    ``set``: the top-level fields that changed (always there); ``view``: the view fields that changed, as the parts
    it merges (those every seat shares first, then the seat's own; only when any changed); ``events``: the new
    public events (only when any).
    """
    if not changed and not common and not seat and not events:
        return None
    parts: Parts = [("set", changed)]
    if common or seat:
        parts.append(("view", (common, seat) if common and seat else (common or seat,)))
    if events:
        parts.append(("events", events))
    return parts


def update_dict(parts: Parts) -> dict[str, Any]:
    """Return the ``update`` message of ``parts`` as a dict (its own dicts: a shared part is never handed out)."""
    message = outgoing.update()
    for name, value in parts:
        if name == "view":
            view: dict[str, Any] = {}
            for part in value:
                view.update(part)
            message[name] = view
        else:
            message[name] = dict(value) if name == "set" else value
    return message


def update_text(parts: Parts, encode: Callable[[Any], str] = compact) -> str:
    """Return the ``update`` message of ``parts`` as compact JSON, each part encoded by ``encode``.

    The same text as ``compact(update_dict(parts))``: the view's parts hold different fields, so their members
    joined are the merged view's.
    """
    pieces = ['{"type":"update"']  # outgoing.update(), encoded with its parts
    for name, value in parts:
        if name == "view":  # one object: the members of its one or two parts, in order
            first = encode(value[0])
            if len(value) == 1:
                pieces += (',"view":', first)
            else:
                pieces += (',"view":', first[:-1], ",", encode(value[1])[1:])
        else:
            pieces += (_KEYS[name], encode(value))
    pieces.append("}")
    return "".join(pieces)


def update_message(changed: dict[str, Any], view_changes: dict[str, Any], events: list) -> dict[str, Any] | None:
    """Return the ``update`` message for these changes as a dict, or None when there is nothing to tell."""
    parts = update_parts(changed, view_changes, {}, events)
    return None if parts is None else update_dict(parts)
