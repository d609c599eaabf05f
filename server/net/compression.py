"""permessage-deflate for large messages only, with no compressor state kept between messages.

The library's default keeps a compressor and a decompressor alive for every
connection (about 40 KiB each connection, even when idle). Here neither side keeps
context between messages, so an idle connection holds no zlib state; messages
under ``threshold`` bytes (the compact ``update``s, errors, pongs) go out as they
are, and only large ones (a full ``table`` message on join and resume) are
compressed. RFC 7692 lets a sender compress some messages and not others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from websockets.extensions.base import ServerExtensionFactory
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode

#: Messages at least this long (bytes of UTF-8) are compressed; shorter ones are sent as they are.
DEFAULT_THRESHOLD = 1024
MODES = ("large", "all", "off")


class LargeOnlyDeflate(PerMessageDeflate):
    """permessage-deflate that leaves single-frame messages under ``threshold`` bytes uncompressed."""

    def __init__(self, *args: Any, threshold: int = DEFAULT_THRESHOLD, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.threshold = threshold

    def encode(self, frame: Frame) -> Frame:
        """Compress a data message unless it is one short frame (then RSV1 stays unset: not compressed)."""
        if frame.fin and frame.opcode in (Opcode.TEXT, Opcode.BINARY) and len(frame.data) < self.threshold:
            return frame
        return super().encode(frame)


class LargeOnlyDeflateFactory(ServerPerMessageDeflateFactory):
    """Negotiates permessage-deflate without context takeover and hands out ``LargeOnlyDeflate``."""

    def __init__(self, threshold: int = DEFAULT_THRESHOLD) -> None:
        super().__init__(
            server_no_context_takeover=True,
            client_no_context_takeover=True,
            server_max_window_bits=12,
            compress_settings={"memLevel": 5},
        )
        self.threshold = threshold

    def process_request_params(self, params: Any, accepted_extensions: Any) -> tuple[Any, PerMessageDeflate]:
        """Negotiate as the library does, then return the large-only extension with the agreed parameters."""
        response, ext = super().process_request_params(params, accepted_extensions)
        return response, LargeOnlyDeflate(
            ext.remote_no_context_takeover,
            ext.local_no_context_takeover,
            ext.remote_max_window_bits,
            ext.local_max_window_bits,
            ext.compress_settings,
            threshold=self.threshold,
        )


def serve_options(mode: str, threshold: int = DEFAULT_THRESHOLD) -> dict[str, Any]:
    """Return the ``websockets.serve`` keyword arguments for a compression ``mode``: large, all or off."""
    if mode == "off":
        return {"compression": None}
    if mode == "all":
        return {"compression": "deflate"}  # the library's default: context kept, every message compressed
    if mode == "large":
        extensions: Sequence[ServerExtensionFactory] = [LargeOnlyDeflateFactory(threshold)]
        return {"compression": None, "extensions": extensions}
    raise ValueError(f"compression must be one of {', '.join(MODES)}, not {mode!r}")
