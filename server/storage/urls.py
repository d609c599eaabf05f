"""A database or Redis URL told without its passwords: in logs, errors and the start-up line."""

from __future__ import annotations

from urllib.parse import parse_qsl, quote, unquote, urlsplit, urlunsplit


def _secret(key: str) -> bool:
    """True for a query parameter that holds a secret (``password``, ``sslpassword``)."""
    return "password" in key.lower()


def redacted(url: str) -> str:
    """Return ``url`` without its passwords (for logs, errors and the start-up line).

    Both places a PostgreSQL URL may hold one are masked: the user information (``postgresql://u:pw@h/db``) and the
    query (``?password=pw``, ``?sslpassword=pw``). A URL that does not parse is masked whole but for its scheme.
    """
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url.split(":", 1)[0] + "://***"
    if password is not None:
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{parts.username or ''}:***@{host}")
    if parts.query:
        pairs = [p.partition("=") for p in parts.query.split("&")]
        parts = parts._replace(query="&".join(k + e + ("***" if e and _secret(unquote(k)) else v) for k, e, v in pairs))
    return urlunsplit(parts)


def scrubbed(text: str, url: str) -> str:
    """Return ``text`` (an error's message) with every password of ``url`` in it masked, as written or decoded."""
    secrets: list[str] = []
    try:
        parts = urlsplit(url)
        if parts.password:
            secrets.append(parts.password)
        secrets += [value for key, value in parse_qsl(parts.query, keep_blank_values=True) if _secret(key)]
    except ValueError:
        return text.replace(url, redacted(url))
    for secret in secrets:
        for form in {secret, unquote(secret), quote(unquote(secret), safe="")}:
            if form:
                text = text.replace(form, "***")
    return text
