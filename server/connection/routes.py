"""The path of one node's own websocket through the proxy (the template is the proxy's ``X-Hearts-Route``)."""

from __future__ import annotations

import re

_NODE = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def node_path(template: str | None, node: str) -> str | None:
    """The path of ``node``'s own websocket through the proxy, or None (no template, or a name a path cannot hold)."""
    if template is None or not _NODE.fullmatch(node):
        return None
    return template.replace("{node}", node)
