"""The headers every answer carries (where a page may load from, no framing, no referrer); who may open ``/ws``.

The page loads only its own scripts, styles, workers and manifest; the offline worker compiles the runtime's
WebAssembly (``'wasm-unsafe-eval'``, no ``'unsafe-eval'``); the client writes no inline script and no inline style
(``client/js/render/dom.js`` turns ``data-style`` into CSSOM). The headers go on every answer the library lets us
touch: each HTTP answer and the websocket handshake's (not a 400 for a request it cannot parse).

A browser names the page that opens a websocket in ``Origin``: a foreign page may open ``/ws`` with the visitor's
address and (were there any) cookies, so ``/ws`` takes only the site's own origin (its host and port are the
request's ``Host``, or the ``X-Forwarded-Host`` of a trusted proxy) and those ``--origin`` lists. A handshake
without ``Origin`` comes from no browser (a script, a bench, a load generator): it could send any ``Origin`` it
likes, so refusing it protects nothing, and it is let through.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from websockets.http11 import Response

#: The page's own scripts, styles, workers, WebAssembly and websocket; nothing inline, no frames, no plugins.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
)
DEFAULT_PORTS = {"http": 80, "https": 443}
#: An origin as compared: scheme, host (lower case, an IPv6 address without brackets), port (the default filled in)
Origin = tuple[str, str, int]


def secure(response: Response) -> Response:
    """Put ``SECURITY_HEADERS`` on ``response`` (replacing any it has) and return it."""
    for name, value in SECURITY_HEADERS:
        if name in response.headers:
            del response.headers[name]
        response.headers[name] = value
    return response


def parse_origin(text: str) -> Origin | None:
    """Read ``scheme://host[:port]`` (an ``Origin`` header, or one of ``--origin``); None for anything else."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.username is not None or parts.password is not None:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def parse_origins(text: str) -> frozenset[Origin]:
    """Parse ``--origin``: a comma list of ``https://host[:port]``; raise ValueError for one that is not an origin."""
    found = set()
    for part in text.split(","):
        if part.strip():
            origin = parse_origin(part)
            if origin is None:
                raise ValueError(f"not an origin (scheme://host[:port]): {part.strip()!r}")
            found.add(origin)
    return frozenset(found)


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[Origin] = frozenset()) -> bool:
    """True when a websocket handshake with this ``Origin`` header may go on.

    No ``Origin``: no browser, let through. Else the origin must be one of ``allowed`` or the site's own: the same
    host and port as ``host`` (the ``Host`` the request came to; without a port, the origin's scheme's default).
    """
    if origin is None:
        return True
    seen = parse_origin(origin)
    if seen is None:  # "null" (a sandboxed frame, a file), or garbage
        return False
    if seen in allowed:
        return True
    if not host:
        return False
    try:
        parts = urlsplit("//" + host.strip())
        port = parts.port
    except ValueError:
        return False
    return parts.hostname is not None and (parts.hostname.lower(), port or DEFAULT_PORTS[seen[0]]) == seen[1:]
