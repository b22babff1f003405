"""Remember that a SQLite database was at head, keyed by the identity of its files.

Every command that opens the store checks the schema revision first. When neither the
database file nor its write-ahead log changed since a check found it at head, nothing can
have changed its revision, so that answer is kept in SLEEPD_HOME/revision-cache.json, keyed
by the database's path, by (st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns) of the file
and of its WAL when the WAL holds anything, and by the head revision this code expects. Any
write, migration, restore or replacement of either file is a miss, and the check runs again;
sleepd's own migrations also drop the entry. Other databases (PostgreSQL) are always checked.

The identity is taken before the check connects, so a write that lands during the check
makes the next command check again rather than trust a stale answer.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from sleepd import paths

CACHE_NAME = "revision-cache.json"


def identity(db_file: Path, head: str) -> dict[str, Any] | None:
    """What a remembered answer is valid for; None when the file cannot be stat'ed."""
    try:
        st = db_file.stat()
    except OSError:
        return None
    key: dict[str, Any] = {
        "path": str(db_file.absolute()),
        "head": head,
        "file": [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns],
        "wal": None,
    }
    try:
        wal = db_file.with_name(db_file.name + "-wal").stat()
    except FileNotFoundError:
        return key
    except OSError:
        return None
    if wal.st_size:
        key["wal"] = [wal.st_dev, wal.st_ino, wal.st_size, wal.st_mtime_ns, wal.st_ctime_ns]
    return key


def known_at_head(key: dict[str, Any] | None) -> bool:
    """Whether a check already found the database with this identity at head."""
    if key is None:
        return False
    try:
        data = json.loads(_cache_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("at_head") == key


def remember_at_head(key: dict[str, Any] | None) -> None:
    """Keep the answer for this identity (best effort: a cache that cannot be written is a miss
    next time, never an error)."""
    if key is None:
        return
    target = _cache_file()
    tmp = target.with_name(f".{CACHE_NAME}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"at_head": key}, handle)
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)


def forget() -> None:
    """Drop any remembered answer (a migration is about to change the revision)."""
    with contextlib.suppress(OSError):  # a stale entry still misses: migrating writes the file
        _cache_file().unlink(missing_ok=True)


def _cache_file() -> Path:
    return paths.home_dir() / CACHE_NAME
