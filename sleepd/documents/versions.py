"""Content identity for documents: staging records the hash, adoption compares it."""

from __future__ import annotations

import hashlib


def content_hash(text: str) -> str:
    """sha256 hex digest of the UTF-8 bytes of `text`."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
