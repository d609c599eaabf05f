"""The address a client connects from, also behind a trusted reverse proxy (its ``X-Forwarded-For``)."""

from __future__ import annotations

import ipaddress
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
