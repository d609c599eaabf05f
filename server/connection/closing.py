"""Why the server closes a connection: each reason once, with its websocket close code (see docs/protocol.md)."""

from __future__ import annotations

from enum import Enum

from websockets.frames import CloseCode


class Close(Enum):
    """A reason to close a connection: ``code`` for the client to act on, ``reason`` for people reading logs."""

    FLOODING = (CloseCode.POLICY_VIOLATION, "too many messages")
    NOT_READING = (CloseCode.POLICY_VIOLATION, "not reading")
    NO_HELLO = (CloseCode.POLICY_VIOLATION, "no hello")  # no hello within --hello-timeout of the upgrade
    STORAGE_FAILED = (CloseCode.INTERNAL_ERROR, "storage failed")
    RESTARTING = (CloseCode.SERVICE_RESTART, "service restart")
    TABLE_MOVED = (CloseCode.SERVICE_RESTART, "table moved")
    CLUSTER_LINK_LOST = (CloseCode.SERVICE_RESTART, "cluster link lost")
    BUSY = (CloseCode.TRY_AGAIN_LATER, "server busy")
    TABLE_MOVING = (CloseCode.TRY_AGAIN_LATER, "table moving")
    SIGNED_OUT = (4001, "signed out")  # the player signed this device out (on another device): do not come back

    @property
    def limit(self) -> str | None:
        """The limit this close enforces, as ``hearts_refused_total`` names it (``flooding``...), or None."""
        return self.name.lower() if self in LIMIT_CLOSES else None

    @property
    def code(self) -> int:
        """The websocket close code."""
        return int(self.value[0])

    @property
    def reason(self) -> str:
        """The close frame's reason text."""
        return self.value[1]


#: The closes that enforce a limit on the connection (counted in ``hearts_refused_total{limit}``).
LIMIT_CLOSES = frozenset({Close.FLOODING, Close.NOT_READING, Close.NO_HELLO})
