"""This machine's stable host id: which machine a transcript cursor belongs to.

Many machines can harvest into one PostgreSQL database; a cursor is the state of one
machine's file, so it is keyed by (host id, path): the same path on two machines is
two files. The id is made once (random, not derived from the hostname, which changes
and repeats) and kept in `SLEEPD_HOME/host.id`, so it survives renames and restarts.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

from sleepd import paths

HOST_ID_FILE = "host.id"
_cached: tuple[str, str] | None = None  # (home, id)


def host_id() -> str:
    """The id of this machine (its sleepd home), created on first use."""
    global _cached
    home = paths.home_dir(create=True)
    if _cached is not None and _cached[0] == str(home):
        return _cached[1]
    id_file = home / HOST_ID_FILE
    try:
        value = id_file.read_text(encoding="ascii").strip()
    except (FileNotFoundError, UnicodeDecodeError):
        value = ""
    if not value:
        value = _create(id_file)
    _cached = (str(home), value)
    return value


def _create(id_file: Path) -> str:
    """Write a new id whole, then link it into place: a concurrent first run either
    links first (and its id counts for both) or finds the file already complete."""
    value = uuid.uuid4().hex
    temp = id_file.with_name(f".{HOST_ID_FILE}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
    fd = os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(value + "\n")
    try:
        os.link(temp, id_file)
    except FileExistsError:
        value = id_file.read_text(encoding="ascii").strip()
    finally:
        temp.unlink(missing_ok=True)
    return value
