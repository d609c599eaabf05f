"""Which handler takes each client message: ``@handles`` binds it at the handler, ``HANDLERS`` is the result.

The messages themselves, with their fields and where they act, are declared once in ``server/table/messages.py``;
``server/handlers/__init__.py`` refuses to import while a declared message has no handler here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..table.messages import ClientMessage

if TYPE_CHECKING:
    from ..connection.client import Client
    from .services import Services

Handler = Callable[["Services", "Client", Any], Awaitable[None] | None]
H = TypeVar("H", bound=Handler)
#: Every message type a client may send, and the plain function of the node's services, the connection and the
#: checked message that handles it.
HANDLERS: dict[str, Handler] = {}


def handles(*types: type[ClientMessage]) -> Callable[[H], H]:
    """Bind the decorated function as the handler of each of the client messages ``types``."""

    def bind(fn: H) -> H:
        for cls in types:
            assert cls.kind not in HANDLERS, f"{cls.kind} has two handlers"
            HANDLERS[cls.kind] = fn
        return fn

    return bind
