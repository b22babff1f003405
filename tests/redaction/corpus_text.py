"""Decoded string values of the real transcripts in tests/fixtures/real_sessions (FP checks)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CORPUS_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions"


def _strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from _strings(value)
    elif isinstance(obj, list):
        for item in obj:
            yield from _strings(item)


def corpus_strings(corpus_dir: Path = CORPUS_DIR) -> list[str]:
    """Every string value of every parseable line, in file order."""
    found: list[str] = []
    for path in sorted(corpus_dir.glob("**/*.jsonl")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                found.extend(_strings(json.loads(line)))
            except ValueError:
                continue
    return found
