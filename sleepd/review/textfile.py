"""Read and write target documents for review, on top of `sleepd.documents`.

Documents are stored in the database as text, so a file must decode as UTF-8;
bytes are kept exactly (no newline translation) so a rollback is byte-identical.
Writes go through `documents.atomic` with the project directory as the only
allowed root: a symlink or `..` leading outside is refused.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sleepd.documents.atomic import UnsafePathError, atomic_write, check_path
from sleepd.documents.diff import unified_diff
from sleepd.documents.versions import content_hash
from sleepd.errors import ConflictError, SleepdError

__all__ = [
    "DocumentWriteError",
    "LiveDocument",
    "UnsafePathError",
    "content_hash",
    "document_diff",
    "read_live",
    "write_document",
]


class DocumentWriteError(SleepdError):
    """The file system refused the write (disk full, permissions); the old file is intact."""


@dataclass(frozen=True)
class LiveDocument:
    """What is on disk now; `text` is None when the file does not exist."""

    path: Path
    text: str | None
    mode: int | None

    @property
    def hash(self) -> str | None:
        return None if self.text is None else content_hash(self.text)


def read_live(path: str | Path) -> LiveDocument:
    """The document as it is now; a file that is not UTF-8 text is a conflict, not a crash."""
    p = Path(path)
    try:
        data = p.read_bytes()
        mode = stat.S_IMODE(p.stat().st_mode)
    except FileNotFoundError:
        return LiveDocument(p, None, None)
    except IsADirectoryError:
        raise ConflictError(f"{p} is a directory, not a document") from None
    except OSError as exc:
        raise ConflictError(f"cannot read {p}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConflictError(f"{p} is not UTF-8 text; sleepd will not touch it") from None
    return LiveDocument(p, text, mode)


def write_document(path: str | Path, text: str, project_root: str | Path) -> Path:
    """Atomically write a document inside its project (creating a new skill's folder)."""
    roots = [Path(project_root)]
    real = check_path(Path(path), roots)
    try:
        atomic_write(real, text.encode("utf-8"), allowed_roots=roots)
    except OSError as exc:
        raise DocumentWriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    return real


def remove_document(path: str | Path, project_root: str | Path) -> None:
    """Remove a document sleepd created, and its folder if that is left empty."""
    real = check_path(Path(path), [Path(project_root)])
    try:
        real.unlink(missing_ok=True)
    except OSError as exc:
        raise DocumentWriteError(f"cannot remove {path}: {exc.strerror or exc}") from None
    folder = real.parent
    if folder != Path(os.path.realpath(project_root)):
        with contextlib.suppress(OSError):  # only when empty: a new managed skill's folder
            folder.rmdir()


def undo_write(intent: Any, before: LiveDocument) -> None:
    """After a failed (not killed) write: put `before` back if the new file is in place,
    then drop the intent. If that fails too, the intent stays for `recover`."""
    from sleepd.review.intents import remove_intent, remove_stale_temp_files

    try:
        now = read_live(intent.path)
        if now.hash != before.hash and now.hash == intent.to_hash:
            if before.text is None:
                remove_document(intent.path, intent.project)
            else:
                write_document(intent.path, before.text, intent.project)
        elif intent.to_hash is None and now.text is None and before.text is not None:
            write_document(intent.path, before.text, intent.project)
        remove_stale_temp_files(intent.path)
    except (SleepdError, OSError):
        return
    remove_intent(intent)


def document_diff(before: str, after: str, path: str) -> str:
    """A git-style diff (`a/NAME`, `b/NAME`) between two versions of one document."""
    name = Path(path).name
    return unified_diff(before, after, old_label=f"a/{name}", new_label=f"b/{name}")
