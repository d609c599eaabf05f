"""Compact changes: after one full ``table`` message a seat gets ``update`` messages that fold back into it.

A ``table`` message is a seat's whole state. After it, each change is sent as an
``update`` holding only the top-level fields that changed (``set``), the view
fields that changed (``view``) and the new public events. ``fold`` turns the
previous state and an update into exactly the ``table`` message the server would
have sent in full; the browser's ``client/js/fold.js`` does the same.

Fields are compared with Python's ``==`` plus their own type, so a field whose value
turns from ``0`` into ``False`` is a change. Deeper down (a list of booleans) the
comparison relies on each field keeping its JSON types, which every field of the
``table`` message and the view does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .update import update_message

#: Fields that belong to one message, not to the state a seat is shown.
MESSAGE_ONLY = frozenset({"type", "events", "resumed"})
_MISSING = object()


def diff(shown: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
    """Return the ``update`` that turns the ``table`` message ``shown`` into ``new``; None when nothing changed."""
    return update_message(*diff_parts(shown, new))


def diff_parts(shown: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], list]:
    """Return what turns the ``table`` message ``shown`` into ``new``: changed fields, changed view fields, events."""
    changed: dict[str, Any] = {}
    view_changes: dict[str, Any] = {}
    for key, value in new.items():
        if key in MESSAGE_ONLY:
            continue
        old = shown.get(key, _MISSING)
        if key == "view" and type(old) is dict and type(value) is dict:
            view_changes = changed_fields(old, value)
        elif not _same(old, value):
            changed[key] = value
    return changed, view_changes, new.get("events") or []


def changed_fields(
    old: Mapping[str, Any], new: Mapping[str, Any], keys: Iterable[str] | None = None
) -> dict[str, Any]:
    """Return the fields of ``new`` (or only its ``keys``) whose value differs from ``old``'s."""
    get = old.get
    if keys is None:
        return {k: v for k, v in new.items() if (was := get(k, _MISSING)) is not v and not _same(was, v)}
    return {k: v for k in keys if (was := get(k, _MISSING)) is not (v := new[k]) and not _same(was, v)}


def _same(old: Any, new: Any) -> bool:
    """Equal as JSON would be at this level (``False`` and ``0`` differ; see the module's note on nesting)."""
    return old is new or (type(old) is type(new) and old == new)


def fold(state: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """Return the ``table`` message that ``update`` makes of ``state`` (the previous table message)."""
    table = {**state, **update.get("set", {}), "type": "table", "events": update.get("events", []), "resumed": None}
    view = update.get("view")
    if view:
        table["view"] = {**state["view"], **view}
    return table
