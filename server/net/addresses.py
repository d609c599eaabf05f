"""The address a client connects from, also behind a trusted reverse proxy (its ``X-Forwarded-For``)."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from websockets.datastructures import Headers

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(text: str) -> tuple[Network, ...]:
    """Parse a comma list of addresses or networks (``10.0.0.0/8,127.0.0.1``); raise ValueError for a bad one."""
    nets = []
    for part in text.split(","):
        part = part.strip()
        if part:
            try:
                nets.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise ValueError(f"not an address or network: {part!r}") from None
    return tuple(nets)


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in proxies)


def trusted_peer(peer: tuple[Any, ...] | None, proxies: tuple[Network, ...]) -> bool:
    """True when the connection comes from one of the trusted proxies (whose ``X-Forwarded-*`` headers count)."""
    return peer is not None and _trusted(str(peer[0]), proxies)


def _inside(address: str, proxies: tuple[Network, ...]) -> bool:
    """True for a loopback address or one of the trusted proxies (an IPv4 address mapped to IPv6 as itself)."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or any(ip in net for net in proxies)


def from_inside(peer: tuple[Any, ...] | None, headers: Headers | None, proxies: tuple[Network, ...]) -> bool:
    """True when a request comes from this machine or a trusted proxy, for itself: who may read ``GET /metrics``.

    The peer must be loopback or a trusted proxy, and so must the client it speaks for (``client_address``) and every
    address ``X-Forwarded-For`` and ``X-Real-IP`` name: a request a proxy passes on for a player is refused, trusted
    or not, whoever wrote the header. A ``Forwarded`` header (someone's proxy) is refused too.
    """
    if not _inside(peer[0] if peer else "?", proxies):
        return False
    if headers is None:
        return True
    if "Forwarded" in headers:
        return False
    named = [hop for value in headers.get_all("X-Forwarded-For") for hop in value.split(",") if hop.strip()]
    named += headers.get_all("X-Real-IP")
    return all(_inside(hop, proxies) for hop in named) and _inside(client_address(peer, headers, proxies), proxies)


def client_address(peer: tuple[Any, ...] | None, headers: Headers | None, proxies: tuple[Network, ...]) -> str:
    """The client's address: the peer's, or behind trusted proxies the nearest untrusted one in X-Forwarded-For.

    Each proxy appends the address it saw, so the list is read from the end; what a client wrote itself comes
    first and is never believed.
    """
    address = peer[0] if peer else "?"
    if not proxies or not _trusted(address, proxies):
        return address
    forwarded = ",".join(headers.get_all("X-Forwarded-For")) if headers is not None else ""
    for hop in reversed([h.strip() for h in forwarded.split(",") if h.strip()]):
        if not _trusted(hop, proxies):
            return hop[:64]
    return address


#: The header a proxy that routes a path to each node sets on every websocket it passes on: the path of one node's
#: websocket with ``{node}`` in place of its name (deploy/nginx.conf sets ``/n/{node}/ws``). Without it (a plain
#: round-robin proxy, or none) a connection to a table of another node is relayed.
ROUTE_HEADER = "X-Hearts-Route"
_ROUTE = re.compile(r"/[A-Za-z0-9/_.-]{0,100}\{node\}[A-Za-z0-9/_.-]{0,100}")


def route_template(headers: Headers | None) -> str | None:
    """The proxy's path to one node (``/n/{node}/ws``) from ``X-Hearts-Route``, or None when absent or malformed."""
    value = headers.get(ROUTE_HEADER, "") if headers is not None else ""
    return value if _ROUTE.fullmatch(value) else None
