"""Which rules read a transcript file: stored with it, so that a better harvest reads it again.

The harvest reads each line once. A later sleepd may read a line otherwise (a record a
person did not type stored as their prompt, a goal objective that is the session's
request, an error kind the older reader missed), and mining reads what the harvest
stored: without more, the history harvested before an upgrade keeps the older reading.

So each transcript file keeps the identity of the harvest that read it
(`transcript_files.read_with`): the package version and a digest of the harvesters, of the
read step and of the redaction rules, and of the settings that change what is stored
(redaction on or off, the longest text kept). A harvest reads again, in place, each file
still on disk that other rules read (`sleepd.harvest.reread`).

Standard library only: the unchanged-tree shortcut of `sleepd harvest` asks for it before
it loads anything else.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sleepd import __version__

if TYPE_CHECKING:
    from sleepd.config import Config

#: `<version>:<digest>`, at most this long (the column's width).
RULES_CHARS = 64
_DIGEST_CHARS = 24
_SLEEPD = Path(__file__).resolve().parents[1]
#: What reads a line into what the store keeps: (folder, pattern), every match by content.
_PARTS = (
    (_SLEEPD.parent / "harvesters", "*.py"),
    (_SLEEPD / "harvest", "read.py"),
    (_SLEEPD / "redaction", "*.py"),
    (_SLEEPD / "redaction", "*.toml"),
)


@cache
def code_digest() -> str:
    """A digest of the code that turns a transcript line into stored events."""
    digest = hashlib.sha256()
    for folder, pattern in _PARTS:
        for source in sorted(folder.glob(pattern)):
            try:
                content = source.read_bytes()
            except OSError:
                content = b""  # an unreadable module still counts by its name
            digest.update(f"{folder.name}/{source.name}".encode())
            digest.update(b"\0")
            digest.update(hashlib.sha256(content).digest())
    return digest.hexdigest()


def harvest_rules(cfg: Config) -> str:
    """The identity of the reading a harvest makes of a line, under these settings."""
    settings = json.dumps([cfg.harvest.redact, cfg.harvest.max_text_bytes])
    digest = hashlib.sha256(f"{code_digest()}\0{settings}".encode()).hexdigest()
    return f"{__version__}:{digest[:_DIGEST_CHARS]}"[:RULES_CHARS]
