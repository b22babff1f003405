"""The contract every transcript source implements, and the small helpers they share.

A harvester is constructed with its root directories (the caller resolves
them; harvesters never import `sleepd`), lists its files with `discover`, and
turns the bytes after a cursor into `Batch`es with `read`.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, runtime_checkable

import orjson

from harvesters.records import (
    Batch,
    EventRecord,
    FileCursor,
    SessionRecord,
    SkippedLine,
    SourceFile,
)

DEFAULT_MAX_TEXT_BYTES = 64 * 1024
RECENT_IDS_KEPT = 512
#: The line `clip_text` puts under a text it cut, with the text's size in bytes.
CLIPPED_NOTE = "…[truncated: {} bytes in all]"


@runtime_checkable
class Harvester(Protocol):
    """One transcript source ("claude", "codex", …)."""

    name: str

    def discover(self) -> Iterator[SourceFile]:
        """Every transcript file under this harvester's roots, in a stable order."""
        ...

    # Optional: `discover_paths(paths) -> list[SourceFile] | None`, what `discover` lists
    # in the folders holding `paths` (same files, same order), so a harvest of a few
    # changed files need not list the whole history; None: only the whole listing can
    # tell. `sleepd.harvest.plan.discover_paths` falls back to `discover` without it.

    def read(
        self,
        file: SourceFile,
        cursor: FileCursor | None,
        *,
        batch_lines: int = 2000,
        max_text_bytes: int = DEFAULT_MAX_TEXT_BYTES,
    ) -> Iterator[Batch]:
        """Records from the bytes after `cursor`; each batch carries its own cursor.

        Texts are clipped to `max_text_bytes`; 0 leaves them whole, for a caller
        that redacts before it clips (`clip_events`).
        """
        ...


def batch_from_chunk(
    path: str,
    source: str,
    chunk: Any,
    state: dict[str, Any],
    sessions: list[SessionRecord],
    events: list[EventRecord],
    max_text_bytes: int = 0,
) -> Batch:
    """A reader chunk turned into a harvested batch; the cursor carries a copy of `state`.

    Events are clipped to `max_text_bytes` unless it is 0 (left whole).
    """
    chunk.cursor.state = _json_copy(state)
    if max_text_bytes > 0:
        clip_events(events, max_text_bytes)
    lines: list[Any] = getattr(chunk, "lines", None) or []
    return Batch(
        path=path,
        source=source,
        cursor=chunk.cursor,
        sessions=sessions,
        events=events,
        skipped=chunk.skipped,
        reset=chunk.reset,
        # a NUL can reach a parsed string only as JSON's escape for it
        nul_free=bool(lines) and not any(b"\\u0000" in line.raw for line in lines),
        bytes_read=chunk.bytes_read,
        lines_read=chunk.lines_read,
        truncated_lines=chunk.huge_lines,
    )


def clip_text(text: str, max_bytes: int) -> tuple[str, int]:
    """Return (text cut to at most `max_bytes` UTF-8 bytes, original size in bytes).

    Huge tool outputs and pasted images would bloat the store without helping
    mining; the original size is kept so figures stay honest.
    """
    if text.isascii():  # a flag on the string, not a scan: most text, and no encoding
        size = len(text)
        if size <= max_bytes:
            return text, size
    elif len(text) * 4 <= max_bytes:
        return text, len(text.encode("utf-8", "surrogatepass"))
    data = text.encode("utf-8", "surrogatepass")
    size = len(data)
    if size <= max_bytes:
        return text, size
    cut = data[:max_bytes].decode("utf-8", "ignore")
    return f"{cut}\n{CLIPPED_NOTE.format(size)}", size


def clip_events(events: list[EventRecord], max_text_bytes: int) -> None:
    """Clip each event's text and raw line to its own limit (at most `max_text_bytes`),
    keeping the size of the whole text in `text_size` where the harvester left it 0."""
    for event in events:
        limit = min(event.clip_bytes, max_text_bytes) if event.clip_bytes else max_text_bytes
        text, size = clip_text(event.text, limit)
        event.text = text
        if not event.text_size:
            event.text_size = size
        if event.raw is not None:
            event.raw = clip_text(event.raw, limit)[0]
        event.clip_bytes = 0


def line_id(offset: int, raw: bytes) -> str:
    """The external id of an event known only by its place: offset and content.

    The content keeps a file truncated and regrown with other lines at the same
    offsets from reusing the ids of events stored from before (history is kept).
    """
    return f"@{offset}:{zlib.crc32(raw):08x}"


def as_str(value: Any) -> str | None:
    """A string field of a record, or None when the file holds anything else there."""
    return value if isinstance(value, str) and value else None


def compact_json(value: Any) -> str:
    """Compact JSON text for tool inputs and raw records (never raises)."""
    try:
        return orjson.dumps(value).decode()
    except (TypeError, orjson.JSONEncodeError):
        return str(value)


#: How far past this machine's clock a transcript's time may be and still be believed
#: (another machine's clock, a zone written as UTC).
CLOCK_SLACK = timedelta(days=1)


def parse_timestamp(value: Any) -> datetime | None:
    """ISO-8601 or epoch (s or ms) to an aware UTC datetime; None if unusable.

    A time later than this machine's clock (beyond CLOCK_SLACK) is unusable too: no
    transcript was written in the future, and a session whose last time lay years ahead
    would never count as over, so its last request would never be mined.
    """
    parsed: datetime | None = None
    if isinstance(value, str) and value:
        try:
            parsed = datetime.fromisoformat(value)
            parsed = parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
        except (ValueError, OverflowError):  # OverflowError: an offset past year 1 or 9999
            return None
    elif isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        seconds = value / 1000 if value > 1e11 else value
        try:
            parsed = datetime.fromtimestamp(seconds, tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if parsed is None or parsed - datetime.now(UTC) > CLOCK_SLACK:
        return None
    return parsed


def json_object(text: str) -> dict[str, Any] | None:
    """`text` decoded, when it is a JSON object (a tool's structured result, a queued
    notice); None for any other text, a malformed object included."""
    if not text.startswith("{"):
        return None
    try:
        decoded = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return decoded if isinstance(decoded, dict) else None


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def read_record(
    parse: Callable[[Any], None], line: Any, events: list[EventRecord], chunk: Any
) -> None:
    """`parse(line)`; when it raises, the line is skipped and counted, its events dropped.

    A record may hold anything where a harvester expects a string or a list (a hostile
    file, a format change): a parser that trips on one record must cost that record,
    not the rest of the file, which would otherwise fail at the same line on every
    harvest. `chunk` is the reader's batch the line came in (its `skipped` list).
    """
    kept = len(events)
    try:
        parse(line)
    except MemoryError:
        raise
    except Exception as exc:
        del events[kept:]
        reason = f"a record the harvester could not read ({type(exc).__name__})"
        chunk.skipped.append(SkippedLine(chunk.cursor.path, line.line_no, line.offset, reason))


def _json_copy(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of the parse state as JSON gives it back. A value taken from a file may be
    an integer orjson cannot encode (over 64 bits, read by the stdlib parser): it is
    kept as its digits, so one such value never stops the file's reading."""
    try:
        copied: dict[str, Any] = orjson.loads(orjson.dumps(state))
    except TypeError:
        copied = json.loads(json.dumps(state), parse_int=_bounded_int)
    return copied


def _bounded_int(digits: str) -> int | str:
    if len(digits) > 20:  # past 64 bits in any case (and past what int() takes, at 4,300)
        return digits
    value = int(digits)
    return value if -(2**63) <= value < 2**63 else digits


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def as_int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def remember(recent: dict[str, Any], key: str, value: Any) -> None:
    """Insert into an insertion-ordered dict kept to RECENT_IDS_KEPT entries."""
    recent.pop(key, None)
    recent[key] = value
    while len(recent) > RECENT_IDS_KEPT:
        recent.pop(next(iter(recent)))


def attachment_placeholder(block: dict[str, Any]) -> str:
    """`[image: image/png, 528112 bytes]` or `[document: application/pdf, 91311 bytes]`
    instead of kilobytes of base64 (an attached or read PDF is a `document` block; a
    document whose source is plain text is that text)."""
    label = "document" if block.get("type") == "document" else "image"
    source = block.get("source")
    media = label
    size = 0
    if isinstance(source, dict):
        media = str(source.get("media_type") or media)
        data = source.get("data")
        if label == "document" and source.get("type") == "text" and isinstance(data, str):
            return data
        if isinstance(data, str):
            size = len(data) * 3 // 4 - data[-2:].count("=")
        elif source.get("url"):
            return f"[{label}: {media}, {source['url']}]"
    elif isinstance(block.get("image_url"), str):
        url = block["image_url"]
        if url.startswith("data:"):
            media = url[5:].split(";", 1)[0] or media
            size = (len(url) - url.find(",") - 1) * 3 // 4
        else:
            return f"[image: {url[:200]}]"
    return f"[{label}: {media}, {size} bytes]"
