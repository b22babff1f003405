"""Incremental, crash-tolerant JSONL reading shared by every harvester.

Transcript files are appended to while agents run, and may be truncated,
replaced or rotated underneath us. The reader resumes from a byte-offset
cursor, streams only the new bytes in chunks, leaves a half-written last line
for the next pass, and never raises on bad bytes: every line it cannot use is
reported as a `SkippedLine`. Harvesters turn the parsed objects into records.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import orjson

from harvesters.records import FileCursor, SkippedLine, open_failure_reason

HEAD_BYTES = 4096
#: Bytes before the cursor's offset whose hash must still match before a pass resumes
#: there: a file truncated and regrown to the same head is caught by them.
TAIL_BYTES = 4096
#: Deepest JSON nesting a line may have. Real transcripts stay under 20 levels; every
#: later step (encoding, redaction walks) recurses, so a deeper line is malformed.
MAX_DEPTH = 128
DEFAULT_BATCH_LINES = 2000
DEFAULT_MAX_LINE_BYTES = 1 << 20
DEFAULT_MAX_PARSE_BYTES = 64 << 20
DEFAULT_CHUNK_BYTES = 1 << 20
_BOM = b"\xef\xbb\xbf"
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(slots=True)
class ParsedLine:
    """One complete JSONL line that parsed to a JSON object."""

    line_no: int  # 1-based
    offset: int  # byte offset of the line start
    size: int  # bytes, including the trailing newline
    obj: dict[str, Any]
    raw: bytes  # the line without its newline, for raw/unknown records
    huge: bool = False  # longer than max_line_bytes: callers should clip text


@dataclass(slots=True)
class LineBatch:
    """A run of complete lines; `cursor` points just after the last of them."""

    lines: list[ParsedLine]
    skipped: list[SkippedLine]
    cursor: FileCursor
    reset: bool = False
    bytes_read: int = 0
    lines_read: int = 0
    huge_lines: int = 0
    #: the pass's last batch: no complete line follows it (an unfinished one may)
    at_end: bool = False


@dataclass(slots=True)
class _Pending:
    lines: list[ParsedLine] = field(default_factory=list)
    skipped: list[SkippedLine] = field(default_factory=list)
    count: int = 0
    huge: int = 0


TOO_DEEP = f"JSON nested deeper than {MAX_DEPTH} levels"
MALFORMED = "malformed JSON"


def parse_json_line(data: bytes) -> tuple[Any, str | None]:
    """Parse one line; return (value, None) or (None, reason).

    orjson is the fast path. It rejects a BOM, invalid UTF-8 and lone UTF-16
    surrogate escapes, all of which real transcripts contain, so those fall
    back to the stdlib parser and the strings are scrubbed to valid UTF-8.
    A value nested deeper than MAX_DEPTH is malformed: every later step that
    walks or encodes it recurses, and one such line must not stop a harvest.
    """
    value, reason = _parse(data)
    if reason is None and data.count(b"[") + data.count(b"{") > MAX_DEPTH and too_deep(value):
        return None, TOO_DEEP
    return value, reason


def _parse(data: bytes) -> tuple[Any, str | None]:
    try:
        return orjson.loads(data), None
    except orjson.JSONDecodeError:
        pass
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
        try:
            return orjson.loads(data), None
        except orjson.JSONDecodeError:
            pass
    text = data.decode("utf-8", errors="replace")
    try:
        value = json.loads(text)
    except RecursionError:
        return None, TOO_DEEP
    except ValueError:
        return None, MALFORMED
    if too_deep(value):
        return None, TOO_DEEP  # before scrub_surrogates recurses into it
    return scrub_surrogates(value), None


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether containers nest deeper than `limit` (iterative: it never recurses)."""
    if not isinstance(value, dict | list):
        return False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def scrub_surrogates(value: Any) -> Any:
    """Replace lone surrogates (which SQLite's UTF-8 encoder rejects) with U+FFFD."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value) if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {scrub_surrogates(k): scrub_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_surrogates(v) for v in value]
    return value


def head_hash(fh: BinaryIO, length: int) -> str:
    """sha256 of the first `length` bytes: how a replaced file is recognised."""
    fh.seek(0)
    return hashlib.sha256(fh.read(length)).hexdigest()


def empty_cursor(path: str) -> FileCursor:
    return FileCursor(path=path, device=0, inode=0, size=0, offset=0, head_hash="")


class NotRegularFile(OSError):
    """A path that is not a plain file (FIFO, device, socket, directory) or that
    leads out of the transcript roots: never read."""


def resolved_roots(roots: Sequence[str | os.PathLike[str]]) -> tuple[str, ...]:
    return tuple(os.path.realpath(root) for root in roots)


def open_regular(path: str, roots: Sequence[str] | None = None) -> BinaryIO:
    """Open `path` for reading only if it is a regular file inside `roots` (resolved).

    A FIFO or device named like a transcript would block `open()` or never end, so
    the open does not block and the file type is checked on the open descriptor; a
    symlink is followed only while it stays inside the roots.
    """
    target = path
    if roots is not None:
        target = os.path.realpath(path)
        if not any(target == root or target.startswith(root + os.sep) for root in roots):
            raise NotRegularFile(errno.EPERM, "a link out of the transcript folders", path)
    fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", path)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_whole(
    path: str, max_bytes: int, roots: Sequence[str] | None = None
) -> tuple[bytes, FileCursor]:
    """A small file read in one go (b"" if over `max_bytes`) and its cursor at end of file.

    For formats that are rewritten whole rather than appended to.
    """
    with open_regular(path, roots) as fh:
        st = os.fstat(fh.fileno())
        digest = head_hash(fh, min(HEAD_BYTES, st.st_size))
        fh.seek(0)
        data = fh.read(st.st_size) if st.st_size <= max_bytes else b""
    cursor = FileCursor(
        path=path,
        device=st.st_dev,
        inode=st.st_ino,
        size=st.st_size,
        offset=st.st_size,
        head_hash=digest,
        line_no=data.count(b"\n"),
        mtime_ns=st.st_mtime_ns,
    )
    return data, cursor


def same_file_version(old: FileCursor, new: FileCursor) -> bool:
    """True when identity, size, mtime and head bytes all match."""
    return (old.device, old.inode, old.size, old.mtime_ns, old.head_hash) == (
        new.device,
        new.inode,
        new.size,
        new.mtime_ns,
        new.head_hash,
    )


def tail_hash(fh: BinaryIO, offset: int) -> str:
    """sha256 of the TAIL_BYTES before `offset`: what a resume point must still hold."""
    if offset <= 0:
        return ""
    start = max(0, offset - TAIL_BYTES)
    return hashlib.sha256(os.pread(fh.fileno(), offset - start, start)).hexdigest()


def _needs_reset(fh: BinaryIO, st: os.stat_result, cursor: FileCursor) -> bool:
    if (st.st_dev, st.st_ino) != (cursor.device, cursor.inode):
        return True  # replaced or rotated
    if st.st_size < cursor.offset:
        return True  # truncated
    length = min(HEAD_BYTES, cursor.size)
    if head_hash(fh, length) != cursor.head_hash:
        return True  # rewritten in place
    # Truncated and regrown past the old offset with the same head: the bytes just
    # before the resume point tell (cursors stored before they were kept have none).
    return bool(cursor.tail_hash) and tail_hash(fh, cursor.offset) != cursor.tail_hash


def read_jsonl(
    path: str,
    cursor: FileCursor | None,
    *,
    roots: Sequence[str] | None = None,
    batch_lines: int = DEFAULT_BATCH_LINES,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_parse_bytes: int = DEFAULT_MAX_PARSE_BYTES,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
) -> Iterator[LineBatch]:
    """Yield batches of the complete lines after `cursor`.

    At least one batch is always yielded, so the caller can store a cursor for
    empty or vanished files too. `state` is copied forward (cleared on reset);
    harvesters put their own parse context into it. With `roots` (resolved), a
    path leading out of them is not read; only regular files are ever read.
    """
    try:
        fh = open_regular(path, roots)
    except OSError as exc:
        reason = open_failure_reason(exc)
        kept = cursor if cursor is not None else empty_cursor(path)
        yield LineBatch(lines=[], skipped=[SkippedLine(path, 0, 0, reason)], cursor=kept)
        return
    try:
        yield from _read_open(
            fh, path, cursor, batch_lines, max_line_bytes, max_parse_bytes, chunk_bytes
        )
    finally:
        fh.close()


def _read_open(
    fh: BinaryIO,
    path: str,
    cursor: FileCursor | None,
    batch_lines: int,
    max_line_bytes: int,
    max_parse_bytes: int,
    chunk_bytes: int,
) -> Iterator[LineBatch]:
    st = os.fstat(fh.fileno())
    reset = cursor is not None and _needs_reset(fh, st, cursor)
    start = 0 if cursor is None or reset else cursor.offset
    line_no = 0 if cursor is None or reset else cursor.line_no
    state: dict[str, Any] = {} if cursor is None or reset else dict(cursor.state)
    digest = head_hash(fh, min(HEAD_BYTES, st.st_size))

    def make_cursor(offset: int, last_line: int, *, more: bool) -> FileCursor:
        # A cursor taken before the file's last line keeps no mtime: a harvest killed
        # after committing it leaves a cursor no stat matches, so the next harvest reads
        # on from it; with the file's stat it passes for a file whose last line is
        # unfinished, which the plan skips until the file changes.
        return FileCursor(
            tail_hash=tail_hash(fh, offset),
            path=path,
            device=st.st_dev,
            inode=st.st_ino,
            size=st.st_size,
            offset=offset,
            head_hash=digest,
            line_no=last_line,
            mtime_ns=0 if more else st.st_mtime_ns,
            state=dict(state),
        )

    batch_start = start
    if start and _after_unterminated(fh, start):
        start += 1  # the newline that finished the line the last pass took without it
    fh.seek(start)
    pending = _Pending()
    offset = start  # start of the line being assembled
    carry: list[bytes] = []  # parts of an unfinished line
    carry_len = 0
    discarding = False  # inside a line longer than max_parse_bytes
    discard_len = 0
    first_batch = True
    remaining = st.st_size - start  # never read past the size we stat'ed

    def flush(*, more: bool) -> LineBatch:
        nonlocal pending, batch_start, first_batch
        batch = LineBatch(
            lines=pending.lines,
            skipped=pending.skipped,
            cursor=make_cursor(offset, line_no, more=more),
            reset=reset and first_batch,
            bytes_read=offset - batch_start,
            lines_read=pending.count,
            huge_lines=pending.huge,
            at_end=not more,
        )
        first_batch = False
        pending = _Pending()
        batch_start = offset
        return batch

    while remaining > 0:
        chunk = fh.read(min(chunk_bytes, remaining))
        if not chunk:
            break
        remaining -= len(chunk)
        pieces, tail = split_lines(chunk)  # tail: the bytes after the last newline
        for i, piece in enumerate(pieces):
            line_no += 1
            if i == 0 and discarding:
                size = discard_len + len(piece) + 1
                discarding, discard_len = False, 0
                pending.count += 1
                reason = f"line over {max_parse_bytes} bytes"
                pending.skipped.append(SkippedLine(path, line_no, offset, reason))
            else:
                if i == 0 and carry:
                    piece = b"".join([*carry, piece])
                    carry, carry_len = [], 0
                size = len(piece) + 1
                _take_line(pending, path, piece, line_no, offset, size, max_line_bytes)
            offset += size
            if pending.count >= batch_lines:
                yield flush(more=not _last_line(i, pieces, remaining, tail, max_parse_bytes))
        if discarding:
            discard_len += len(tail)
        elif tail:
            carry.append(tail)
            carry_len += len(tail)
            if carry_len > max_parse_bytes:
                discarding, discard_len, carry, carry_len = True, carry_len, [], 0
    if carry and not discarding and remaining <= 0:
        piece = b"".join(carry)
        if _whole_record(piece):
            # A writer that never ends its last line (some Codex rollouts end with their
            # `task_complete` record and no newline): a JSON object that parses is whole,
            # since no prefix of a record is itself an object.
            line_no += 1
            _take_line(pending, path, piece, line_no, offset, len(piece), max_line_bytes)
            offset += len(piece)
    # any other unfinished last line stays in the file for the next pass
    if pending.count or first_batch:
        yield flush(more=False)


def _last_line(
    index: int, pieces: list[bytes], remaining: int, tail: bytes, max_parse_bytes: int
) -> bool:
    """Whether piece `index` of the file's last chunk is the file's last complete line: no
    piece follows it, and the bytes after its newline are no line the reader takes (an
    unfinished record waits; a whole one without its newline is read after it)."""
    if index != len(pieces) - 1 or remaining > 0:
        return False
    return not (tail and len(tail) <= max_parse_bytes and _whole_record(tail))


#: Where one record ends and the next begins on a line that holds two: the writer appended
#: a record to a line it had not ended (a record written without its newline, then the
#: next one).
_GLUE = re.compile(rb'}\s*{"')
#: The most places a line is tried at: glued lines join two or three records; a line with
#: many more candidates is damage, not glue.
GLUE_TRIES = 16


def _glued_records(piece: bytes) -> list[tuple[int, bytes, dict[str, Any]]] | None:
    """The records of a line that holds several whole JSON objects one after another, as
    (start, bytes, object); None unless every part is an object."""
    records: list[tuple[int, bytes, dict[str, Any]]] = []
    start = 0
    for tries, found in enumerate(_GLUE.finditer(piece), start=1):
        if tries > GLUE_TRIES:
            return None
        end = found.start() + 1
        value, reason = parse_json_line(piece[start:end])
        if reason is None and isinstance(value, dict):
            records.append((start, piece[start:end], value))
            start = piece.index(b"{", end)
    if not records:
        return None
    value, reason = parse_json_line(piece[start:])
    if reason is not None or not isinstance(value, dict):
        return None
    records.append((start, piece[start:], value))
    return records


def _whole_record(piece: bytes) -> bool:
    """The bytes after the last newline are one whole JSON object."""
    text = piece.strip()
    if not (text.startswith(b"{") and text.endswith(b"}")):
        return False
    value, reason = _parse(text)
    return reason is None and isinstance(value, dict)


def _after_unterminated(fh: BinaryIO, start: int) -> bool:
    """Whether the last pass stopped after a record that had no newline (every other
    stop is just after one) and the writer has since ended that line."""
    fh.seek(start - 1)
    around = fh.read(2)
    return around[:1] != b"\n" and around[1:] == b"\n"


def split_lines(chunk: bytes) -> tuple[list[bytes], bytes]:
    """The complete lines of `chunk` (without newlines), and what follows the last one.

    `chunk.split(b"\\n")` tests every byte in a loop of its own; `find` jumps to the
    next newline with memchr. Transcript lines run to kilobytes, so this is several
    times faster (the reader's single largest cost before: a fifth of its instructions).
    """
    lines: list[bytes] = []
    append = lines.append
    find = chunk.find
    start = 0
    end = find(b"\n")
    while end >= 0:
        append(chunk[start:end])
        start = end + 1
        end = find(b"\n", start)
    return lines, chunk[start:]


def _take_line(
    pending: _Pending,
    path: str,
    piece: bytes,
    line_no: int,
    offset: int,
    size: int,
    max_line_bytes: int,
) -> None:
    pending.count += 1
    if not piece or piece.isspace():
        return  # blank lines are harmless separators, not damage
    value, reason = parse_json_line(piece)
    if reason is not None:
        records = _glued_records(piece) if reason == MALFORMED else None
        if records is None:
            pending.skipped.append(SkippedLine(path, line_no, offset, reason))
            return
        ends = [start for start, _, _ in records[1:]] + [size]
        for (start, record, obj), end in zip(records, ends, strict=True):
            # the same line, each record at its own offset (an id made from it is its own)
            part_huge = end - start > max_line_bytes
            pending.huge += part_huge
            pending.lines.append(
                ParsedLine(line_no, offset + start, end - start, obj, record, part_huge)
            )
        return
    if not isinstance(value, dict):
        kind = type(value).__name__
        pending.skipped.append(SkippedLine(path, line_no, offset, f"JSON {kind}, not an object"))
        return
    huge = size > max_line_bytes
    if huge:
        pending.huge += 1
    pending.lines.append(ParsedLine(line_no, offset, size, value, piece, huge))
