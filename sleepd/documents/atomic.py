"""Crash-safe document writes that never leave the allowed roots.

A document is either the old bytes or the new bytes, never a torn mix: write a temp file in
the same directory, fsync it, rename over the target, fsync the directory.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from sleepd import crashpoint
from sleepd.errors import ExitCode, SleepdError

NEW_FILE_MODE = 0o644


class UnsafePathError(SleepdError):
    """The path would write outside the allowed roots (symlink or `..` escape)."""

    exit_code = ExitCode.CHECK_FAILED


def check_path(path: Path, allowed_roots: Sequence[Path]) -> Path:
    """The resolved target, or UnsafePathError when it or a parent escapes every root."""
    roots = [Path(os.path.realpath(r)) for r in allowed_roots]
    if not roots:
        raise UnsafePathError(f"refusing to write {path}: no allowed roots configured")
    absolute = Path(os.path.abspath(path))
    resolved = Path(os.path.realpath(absolute))
    if not any(resolved.is_relative_to(r) for r in roots):
        raise UnsafePathError(f"refusing to write {path}: it resolves outside the allowed roots")
    for part in [absolute, *absolute.parents]:
        if part.is_symlink():
            target = Path(os.path.realpath(part))
            if not any(target.is_relative_to(r) for r in roots):
                raise UnsafePathError(
                    f"refusing to write {path}: {part} is a symlink leaving the allowed roots"
                )
    return resolved


def atomic_write(path: Path, data: bytes, *, allowed_roots: Sequence[Path]) -> None:
    """Replace `path` with `data` atomically, keeping the existing file's mode."""
    target = check_path(path, allowed_roots)
    directory = target.parent
    directory.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = NEW_FILE_MODE
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, mode)
        crashpoint.reach("write:temp-written")
        os.replace(tmp_name, target)
        crashpoint.reach("write:renamed")
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    _fsync_directory(directory)


def _fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open directories; the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
