"""The identity of a set of reading rules: a release and a digest of the code and settings.

Mining (`sleepd.mining.reading`) and the harvest (`sleepd.harvest.reading`) each stamp what
they read with such an identity, so that a later sleepd reads again what other rules read.
A digest of the code, not a number someone bumps, so that a change nobody remembered to
announce still counts. Standard library only: the commands that answer before loading
anything else ask for it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sleepd import __version__

#: `<version>:<digest>` (and any mark a reader adds), at most this long (the columns' width).
RULES_CHARS = 64
_DIGEST_CHARS = 24


def files_digest(root: Path, files: Iterable[Path]) -> str:
    """A digest of `files`, each by its path under `root` and its content."""
    digest = hashlib.sha256()
    for source in sorted(files):
        try:
            content = source.read_bytes()
        except OSError:
            content = b""  # an unreadable file still counts by its name
        digest.update(source.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(hashlib.sha256(content).digest())
    return digest.hexdigest()


def rules_identity(code: str, settings: Any) -> str:
    """`<version>:<digest>` of a code digest and the JSON of the settings that matter."""
    mixed = f"{code}\0{json.dumps(settings, ensure_ascii=True)}".encode()
    return f"{__version__}:{hashlib.sha256(mixed).hexdigest()[:_DIGEST_CHARS]}"[:RULES_CHARS]


def release_of(rules: str) -> tuple[int, ...] | None:
    """The release numbers of the sleepd that stamped `rules` ("0.4.1:…" -> (0, 4, 1))."""
    version = rules.split(":", 1)[0]
    numbers = re.findall(r"\d+", version.split("+", 1)[0])
    return tuple(int(n) for n in numbers[:4]) if numbers else None


def by_an_older_release(stored: str, current: str) -> bool:
    """`stored` was stamped by a release before the one that stamps `current` (False when
    either names no release)."""
    theirs, ours = release_of(stored), release_of(current)
    return theirs is not None and ours is not None and theirs < ours
