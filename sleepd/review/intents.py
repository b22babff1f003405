"""Intent records: a document write announces itself before it touches the file.

A document is renamed into place inside the database transaction that records it, so
a kill between the rename and the commit would leave a new file beside a database that
never heard of it. The intent record closes that window: it is written (and fsynced)
under `SLEEPD_HOME/intents/` before the temp file, and removed only after the commit.
An intent left behind by a process that is gone is reconciled by `recover` on the next
command: the file on disk says whether the write happened, the audit log whether it was
recorded.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sleepd import paths

INTENTS_DIRNAME = "intents"


@dataclass(frozen=True)
class Intent:
    """One announced write: `to_hash` None means the write removes the file."""

    id: str
    op: str  # "adopt" or "rollback"
    path: str
    project: str
    from_hash: str | None
    to_hash: str | None
    content: str
    detail: dict[str, Any] = field(default_factory=dict)
    pid: int = 0
    start_mark: str = ""

    @classmethod
    def new(cls, op: str, **values: Any) -> Intent:
        import uuid  # not at import: every command checks for intents, few write one

        pid = os.getpid()
        return cls(id=uuid.uuid4().hex, op=op, pid=pid, start_mark=paths.start_mark(pid), **values)

    @property
    def file(self) -> Path:
        return intents_dir() / f"{self.id}.json"

    def owner_alive(self) -> bool:
        return paths.alive(self.pid, self.start_mark)


def intents_dir() -> Path:
    return paths.home_dir() / INTENTS_DIRNAME


def has_pending() -> bool:
    """Cheap: is any intent file there at all (one directory listing)."""
    try:
        return any(p.suffix == ".json" for p in intents_dir().iterdir())
    except OSError:
        return False


def write_intent(intent: Intent) -> None:
    """Durably record the intent (file and directory fsynced) before the write it announces.

    Written in place: a kill while writing it leaves unreadable JSON, which `load_intents`
    drops - rightly, since the document write it announces had not begun.
    """
    import orjson  # not at import: every command checks for intents, few write one

    directory = paths.ensure_private_dir(intents_dir())
    fd = os.open(intent.file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(orjson.dumps(asdict(intent)))
        handle.flush()
        os.fsync(handle.fileno())
    _fsync_dir(directory)


def remove_intent(intent: Intent) -> None:
    with contextlib.suppress(FileNotFoundError):
        intent.file.unlink()
    _fsync_dir(intents_dir())


def load_intents() -> list[Intent]:
    """Every readable intent; a half-written one is removed (its write never began)."""
    import orjson

    out: list[Intent] = []
    try:
        entries = sorted(intents_dir().iterdir())
    except OSError:
        return out
    for entry in entries:
        if entry.suffix != ".json":
            continue
        try:
            out.append(Intent(**orjson.loads(entry.read_bytes())))
        except (OSError, orjson.JSONDecodeError, TypeError):
            with contextlib.suppress(OSError):
                entry.unlink()
    return out


def remove_stale_temp_files(path: str | Path) -> int:
    """Temp files an interrupted atomic write left beside `path` (`.NAME.XXXX.tmp`)."""
    target = Path(path)
    removed = 0
    try:
        candidates = list(target.parent.glob(f".{target.name}.*.tmp"))
    except OSError:
        return 0
    for candidate in candidates:
        with contextlib.suppress(OSError):
            if candidate.is_file() and not candidate.is_symlink():
                candidate.unlink()
                removed += 1
    return removed


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
