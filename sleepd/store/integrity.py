"""Telling a damaged SQLite database from a healthy one, and refusing to write to it.

Three layers, cheapest first:
- every open reads the 100-byte header: the magic string, a valid page size, a file
  size that is a whole number of pages and not shorter than the page count the header
  records (a truncated file or an overwritten header is caught before any query);
- any query that meets SQLite's own corruption errors (`SQLITE_CORRUPT`,
  `SQLITE_NOTADB`) marks the file damaged (`<db>.damaged`, next to it, never in it);
- a file marked damaged is refused by every command but `sleepd db check`, which runs
  `PRAGMA integrity_check` and lifts the mark only when the check passes.

So after the first sign of damage nothing writes on top of the file until a full check
says it is sound.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import OrderedDict
from pathlib import Path

from sleepd.errors import ExitCode, SleepdError

MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
WAL_HEADER_SIZE = 32

#: SQLite result names that mean the file is damaged, not busy or full.
CORRUPT_NAMES = frozenset({"SQLITE_CORRUPT", "SQLITE_NOTADB"})
CORRUPT_TEXTS = ("malformed", "file is not a database", "database disk image")

#: The SQLite file the process opened last (the one an error is about).
_current: Path | None = None


class DatabaseDamagedError(SleepdError):
    exit_code = ExitCode.CHECK_FAILED


def sqlite_cause(exc: BaseException) -> sqlite3.Error | None:
    """The sqlite3 error behind `exc` (SQLAlchemy wraps it as `.orig`), if any."""
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 8:
        if isinstance(current, sqlite3.Error):
            return current
        orig = getattr(current, "orig", None)
        if isinstance(orig, sqlite3.Error):
            return orig
        current = current.__cause__ or current.__context__
        seen += 1
    return None


def is_corruption(error: sqlite3.Error) -> bool:
    name = str(getattr(error, "sqlite_errorname", "") or "")
    if any(name.startswith(n) for n in CORRUPT_NAMES):
        return True
    text = str(error).lower()
    return type(error) is sqlite3.DatabaseError and any(t in text for t in CORRUPT_TEXTS)


def remember(db_file: Path) -> None:
    global _current
    _current = db_file


def current_file() -> Path | None:
    return _current


def marker_for(db_file: Path) -> Path:
    return db_file.with_name(db_file.name + ".damaged")


#: Descriptors this process reads database headers through, one per file (device and
#: inode), kept open: closing any descriptor of a file drops every POSIX lock the
#: process holds on it, SQLite's included (sqlite.org/howtocorrupt.html, 2.2). A
#: connection that lost its lock lets another process take the file for the last user
#: and checkpoint and remove the write-ahead log under it: a harvest beside a `sleepd
#: mine` read "disk I/O error" and left the file malformed. Only the least recently used
#: of many files is closed (a process that has opened that many is a test run).
_HEADER_FDS: OrderedDict[tuple[int, int], int] = OrderedDict()
_HEADER_FDS_KEPT = 64
_SPARE_FDS: list[int] = []
_HEADER_LOCK = threading.Lock()


def _read_header(db_file: Path) -> tuple[bytes, int]:
    """The file's first HEADER_SIZE bytes and its size, through a kept descriptor."""
    with _HEADER_LOCK:
        st = db_file.stat()
        key = (st.st_dev, st.st_ino)
        fd = _HEADER_FDS.get(key)
        if fd is None:
            # non-blocking: a FIFO where the file belongs is refused, not waited on
            fd = os.open(db_file, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            opened = os.fstat(fd)
            key = (opened.st_dev, opened.st_ino)  # the file replaced in between: this one
            if key in _HEADER_FDS:
                # a second descriptor of a file already kept (it was replaced between the
                # stat and the open): closing it would drop the locks, so it stays open
                _SPARE_FDS.append(fd)
                fd = _HEADER_FDS[key]
            else:
                _HEADER_FDS[key] = fd
                while len(_HEADER_FDS) > _HEADER_FDS_KEPT:
                    os.close(_HEADER_FDS.popitem(last=False)[1])
        _HEADER_FDS.move_to_end(key)
        return os.pread(fd, HEADER_SIZE, 0), os.fstat(fd).st_size


def header_problem(db_file: Path) -> str | None:
    """Why the file's header says it is damaged, or None (missing and empty files pass)."""
    try:
        header, size = _read_header(db_file)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read it: {exc.strerror}"
    if size == 0:
        return None
    if len(header) < HEADER_SIZE or not header.startswith(MAGIC):
        return "not an SQLite database (header overwritten or file cut short)"
    raw_page = int.from_bytes(header[16:18], "big")
    page_size = 65536 if raw_page == 1 else raw_page
    if page_size < 512 or page_size & (page_size - 1):
        return f"invalid page size {raw_page} in the header"
    if size % page_size:
        return f"size {size} is not a whole number of {page_size}-byte pages (truncated)"
    page_count = int.from_bytes(header[28:32], "big")
    change_counter = header[24:28]
    valid_for = header[92:96]
    if (
        page_count
        and change_counter == valid_for
        and size < page_count * page_size
        and not _has_hot_wal(db_file)
    ):
        return f"holds {size // page_size} of the {page_count} pages its header records (truncated)"
    return None


def _has_hot_wal(db_file: Path) -> bool:
    """Whether a write-ahead log with frames sits beside the file.

    A checkpoint copies page 1 (and so the new page count) before the pages past the old end
    of the file; a process killed in between leaves a main file shorter than its header
    says, which SQLite repairs from the WAL on the next open. Only a file with no frames
    waiting in a WAL must hold every page its header records.
    """
    wal = db_file.with_name(db_file.name + "-wal")
    try:
        return wal.stat().st_size > WAL_HEADER_SIZE
    except OSError:
        return False


def check_openable(db_file: Path) -> None:
    """Raise `DatabaseDamagedError` when the file is marked damaged or its header is bad."""
    remember(db_file)
    marker = marker_for(db_file)
    if marker.exists():
        reason = _read_marker(marker)
        raise DatabaseDamagedError(
            f"the database {db_file} was found damaged ({reason}); nothing is written to it"
            " until `sleepd db check` passes"
        )
    problem = header_problem(db_file)
    if problem is not None:
        mark_damaged(problem, db_file)
        raise DatabaseDamagedError(
            f"the database {db_file} is damaged: {problem}; run `sleepd db check`"
        )


def probe(db_file: Path) -> None:
    """Open, read the schema and the revision: SQLite's corruption errors mark the file.

    Cheap (a few pages); a damaged page elsewhere is only found by `integrity_problems`.
    """
    check_openable(db_file)
    if not db_file.exists() or db_file.stat().st_size == 0:
        return
    try:
        conn = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True, timeout=30)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
            if "alembic_version" in names:
                conn.execute("SELECT version_num FROM alembic_version").fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if not is_corruption(exc):
            raise
        mark_damaged(str(exc), db_file)
        raise DatabaseDamagedError(
            f"the database {db_file} is damaged ({exc}); run `sleepd db check`"
        ) from None


def mark_damaged(reason: str, db_file: Path | None = None) -> Path | None:
    """Record that `db_file` (default: the one opened last) is damaged; never raises."""
    target = db_file or _current
    if target is None:
        return None
    try:
        fd = os.open(marker_for(target), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(" ".join(reason.split())[:300] + "\n")
    except OSError:
        pass
    return target


def clear_mark(db_file: Path) -> None:
    marker_for(db_file).unlink(missing_ok=True)


def _read_marker(marker: Path) -> str:
    try:
        return marker.read_text(encoding="utf-8", errors="replace").strip()[:300] or "no detail"
    except OSError:
        return "no detail"


def integrity_problems(db_file: Path, limit: int = 20) -> list[str]:
    """`PRAGMA integrity_check` on a read-only connection; [] when the file is sound."""
    problem = header_problem(db_file)
    if problem is not None:
        return [problem]
    try:
        conn = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        return [f"cannot open: {exc}"]
    try:
        rows = conn.execute(f"PRAGMA integrity_check({int(limit)})").fetchall()
    except sqlite3.Error as exc:
        return [str(exc)]
    finally:
        conn.close()
    found = [str(row[0]) for row in rows]
    return [] if found == ["ok"] else found
