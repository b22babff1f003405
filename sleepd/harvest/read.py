"""Read: harvester batches → redaction → the store's records, in file order.

The CPU half of a harvest, importing no database code. Each file is read from its
cursor by its harvester, every string the batch would store passes the one
redaction chokepoint (`BatchRedactor`), texts are clipped after that, and the
records come out as the store's own rows (`sleepd.store.ingest`). Serial by
default; with `workers`, files are parsed in worker processes through one ordered
pool map whose results come back through the pool, in exactly the order a serial
harvest reads them, so both store the same database.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from harvesters.base import DEFAULT_MAX_TEXT_BYTES, clip_events, clip_text
from harvesters.records import (
    FILE_UNREADABLE,
    FILE_VANISHED,
    Batch,
    EventRecord,
    FileCursor,
    SessionRecord,
)
from harvesters.records import SourceFile as SourceFileRecord
from sleepd.paths import REPLAY_DIR_PREFIX
from sleepd.store.records import (
    BRANCH_CHARS,
    ID_CHARS,
    MODEL_CHARS,
    NUL_STAND_IN,
    PATH_CHARS,
    RAW_TYPE_CHARS,
    VERSION_CHARS,
    CursorRow,
    EventRow,
    SessionRow,
    SkipRow,
    stored_timestamp,
)

if TYPE_CHECKING:
    from concurrent.futures import Future

#: A reader reports a file it could not open as one skip at line 0 with one of these.
FILE_LEVEL_REASONS = (FILE_VANISHED, FILE_UNREADABLE)


@dataclass(frozen=True, slots=True)
class ReadLimits:
    batch_lines: int
    max_text_bytes: int


#: The mark of a stored parse state every string of which passed the redaction: the
#: harvester never sees it (the plan takes it off the cursor it hands over).
REDACTED_STATE = "sleepd:redacted"


@dataclass(frozen=True, slots=True)
class ReadJob:
    """Read one file from `cursor` to its end."""

    source: str
    roots: tuple[str, ...]
    file: SourceFileRecord
    cursor: FileCursor | None
    limits: ReadLimits
    salt: bytes | None  # None: redaction off
    new_bytes: int = 0  # what the plan expects to read
    #: the cursor's parse state was stored after redaction (it carried `REDACTED_STATE`)
    state_redacted: bool = False


@dataclass(slots=True)
class PreparedBatch:
    """One batch of one file as the store takes it: redacted, clipped, its cursor after it."""

    path: str
    source: str
    role: str
    cursor: CursorRow
    sessions: list[SessionRow] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    skipped: list[SkipRow] = field(default_factory=list)
    reset: bool = False
    bytes_read: int = 0
    truncated_lines: int = 0
    replay_sessions_skipped: int = 0
    redactions: dict[str, int] = field(default_factory=dict)
    problem: str | None = None  # the whole file could not be read (vanished, unreadable)
    missing: bool = False  # ... because it is gone
    text_bytes: int = 0


#: Session fields read from a transcript; `meta` is a small JSON tree, walked string by string.
_SESSION_STRINGS = (
    "external_id",
    "project_path",
    "git_branch",
    "model",
    "agent_version",
    "title",
    "parent_external_id",
)
#: A JSON tree deeper than this is stored as one placeholder string (the reader already
#: refuses deeper lines; meta and parse state are shallow).
_TREE_DEPTH = 200
_TOO_DEEP = "[nested too deep]"
#: JSON and JavaScript escapes a secret can hide behind inside a decoded string (a JSON
#: document in a string, like Codex function-call arguments or a raw line).
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(/))")


def _unescape_one(match: re.Match[str]) -> str:
    code = match.group(1) or match.group(2)
    if code is None:
        return "/"
    point = int(code, 16)
    return match.group(0) if 0xD800 <= point <= 0xDFFF else chr(point)


def unescaped(text: str) -> str:
    """`text` with its escapes written out (nested ones too, a few levels deep)."""
    for _ in range(3):
        decoded = _ESCAPE.sub(_unescape_one, text)
        if decoded == text:
            break
        text = decoded
    return text


class BatchRedactor:
    """The one redaction chokepoint of a harvest: every string a batch would store.

    Event texts, raw lines, ids and names, session fields, session meta and the parse
    state kept in the file's cursor all pass here after JSON decoding and before any
    clipping, so a cut never leaves part of a secret and no field is forgotten. A
    string holding escapes is also redacted in its decoded form; when that finds a
    secret, the redacted decoded form is what is stored. Hits are counted per rule.
    The rule set is compiled on first use, so a harvest that finds nothing new never
    pays for it.
    """

    def __init__(self, salt: bytes) -> None:
        self._salt = salt
        self._redactor: Any = None

    def compile(self) -> Any:
        if self._redactor is None:
            from sleepd.redaction import Redactor

            self._redactor = Redactor(salt=self._salt)
        return self._redactor

    def scan(self, texts: list[str], *, names: bool = False) -> list[tuple[str, list[str]]]:
        """Each text redacted, with the rules that hit it (one keyword search for all).

        A text holding escapes is also redacted in its decoded form; when that finds a
        secret, the redacted decoded form is what comes back. `names`: the texts are
        names people choose (branches, titles, paths, URLs, meta), where a secret often
        sits against a separator (`fix/<key>`), so they are also searched with
        separators read as spaces.
        """
        redactor = self.compile()
        out: list[tuple[str, list[str]]] = []
        for original, (new_text, rules) in zip(texts, redactor.redact_many(texts), strict=True):
            text = str(new_text) if rules else original
            if "\\" in text and _ESCAPE.search(text):
                decoded, more = redactor.redact(unescaped(text))
                if more:
                    text, rules = decoded, [*rules, *more]
            if names:
                from sleepd.redaction.separators import redact_at_separators

                text, more = redact_at_separators(redactor, text)
                rules = [*rules, *more] if more else rules
            out.append((text, rules))
        return out

    def redact(
        self,
        events: list[EventRecord],
        sessions: list[SessionRecord],
        state: dict[str, Any] | None = None,
        known: set[str] | None = None,
    ) -> dict[str, int]:
        """Redact the records and the parse state in place; returns hits per rule.

        `known`: strings the parse state held when it was last stored or redacted, each
        the redaction's own output (redacting one again gives it back): they are not
        searched again, and the state's strings as redacted here join them. A file read
        again carries its whole parse state, most of it stored before; searching only
        what the harvester added keeps a small read small.

        Texts and raw lines are redacted one by one. The short fields of a record (ids,
        names, branch, title…) and the strings of a JSON tree (session meta, the parse
        state) are first searched for rule keywords joined, one string per record or
        tree, because most hold none and each string searched costs; the strings of a
        record or tree whose join holds a keyword or an escape are then redacted one by
        one, exactly as they would be alone. Only the keyword search is shared: a rule
        run on the join could miss a secret whose closing boundary, the end of its
        field, the join hides.
        """
        counts: dict[str, int] = {}
        slots: list[tuple[Any, str]] = []
        texts: list[str] = []
        for ev in events:
            if ev.text:
                slots.append((ev, "text"))
                texts.append(ev.text)
            if ev.raw:
                slots.append((ev, "raw"))
                texts.append(ev.raw)
        for (owner, name), (text, rules) in zip(slots, self.scan(texts), strict=True):
            if rules:
                setattr(owner, name, text)
                _count(counts, rules)
        groups: list[tuple[Any, tuple[str, ...]]] = []
        probes: list[str] = []
        for ev in events:
            groups.append((ev, _EVENT_SHORT))
            probes.append(_probe(ev, _EVENT_SHORT))
        for session in sessions:
            groups.append((session, _SESSION_STRINGS))
            probes.append(_probe(session, _SESSION_STRINGS))
        trees: list[Any] = [session.meta for session in sessions]
        if state is not None:
            trees.append(state)
        tree_strings: list[list[str]] = []
        for number, tree in enumerate(trees):
            strings: list[str] = []
            _strings_of(tree, strings, 0)
            tree_strings.append(strings)
            if known and number == len(sessions):  # the parse state
                probes.append(_NUL.join(s for s in strings if s not in known))
            else:
                probes.append(_NUL.join(strings))
        flagged = self.compile().may_find(probes)
        flagged.update(number for number, probe in enumerate(probes) if "\\" in probe)
        if flagged:
            skip = known if state is not None else None
            self._redact_flagged(flagged, groups, len(events), trees, tree_strings, counts, skip)
        if known is not None and state is not None:
            known.update(tree_strings[len(sessions)])  # as redacted: each its own output
        return counts

    def _redact_flagged(
        self,
        flagged: set[int],
        groups: list[tuple[Any, tuple[str, ...]]],
        event_groups: int,
        trees: list[Any],
        tree_strings: list[list[str]],
        counts: dict[str, int],
        known: set[str] | None = None,
    ) -> None:
        """Each string of the flagged records and trees redacted as it would be alone:
        an event's fields as texts, a session's fields and a tree's strings as names.
        The last tree's strings in `known` (the parse state's, redacted before) are kept.
        A rebuilt tree's `tree_strings` entry becomes its strings as redacted."""
        fields: list[tuple[Any, str]] = []
        values: list[str] = []
        name_fields: list[tuple[Any, str]] = []
        names: list[str] = []
        for number in sorted(n for n in flagged if n < len(groups)):
            owner, field_names = groups[number]
            into, into_values = (fields, values) if number < event_groups else (name_fields, names)
            for name in field_names:
                value = getattr(owner, name)
                if value:
                    into.append((owner, name))
                    into_values.append(value)
        flagged_trees = [n - len(groups) for n in sorted(flagged) if n >= len(groups)]
        stored = known or set()
        state_tree = len(trees) - 1 if stored else -1

        def kept(number: int, string: str) -> bool:
            return number == state_tree and string in stored

        for number in flagged_trees:
            names.extend(s for s in tree_strings[number] if not kept(number, s))
        named = self._scan_names(names)
        for (owner, name), (text, rules) in [
            *zip(fields, self.scan(values), strict=True),
            *zip(name_fields, named, strict=False),  # the trees' strings follow
        ]:
            if rules:
                setattr(owner, name, text)
                _count(counts, rules)
        results = iter(named[len(name_fields) :])
        for number in flagged_trees:
            tree = trees[number]
            taken = [
                (string, []) if kept(number, string) else next(results)
                for string in tree_strings[number]
            ]
            found = [rules for _, rules in taken if rules]
            if found:
                for rules in found:
                    _count(counts, rules)
                tree_strings[number] = [text for text, _ in taken]
                rebuilt = _rebuilt(tree, iter(tree_strings[number]), 0)
                tree.clear()
                tree.update(rebuilt)

    def _scan_names(self, names: list[str]) -> list[tuple[str, list[str]]]:
        """`scan(names, names=True)` that searches only the names holding a keyword or
        an escape: neither the rules nor a separator view find anything in the others."""
        may = self.compile().may_find(names)
        chosen = [number for number, name in enumerate(names) if number in may or "\\" in name]
        results: list[tuple[str, list[str]]] = [(name, []) for name in names]
        scanned = self.scan([names[number] for number in chosen], names=True)
        for number, result in zip(chosen, scanned, strict=True):
            results[number] = result
        return results


#: The short string fields of an event, searched joined.
_EVENT_SHORT = (
    "tool_name",
    "call_id",
    "message_id",
    "raw_type",
    "external_id",
    "session_external_id",
)
#: Joins the strings of one probe; no rule's secret holds it.
_NUL = "\x00"


def _probe(owner: Any, names: tuple[str, ...]) -> str:
    """The record's string fields joined; a field of another type (a hostile file's
    number or list where a name belongs) is dropped on the way."""
    values = []
    for name in names:
        value = getattr(owner, name)
        if isinstance(value, str):
            values.append(value)
        elif value is not None:
            setattr(owner, name, None)
    return _NUL.join(values)


def _count(counts: dict[str, int], rules: list[str]) -> None:
    for rule in rules:
        counts[rule] = counts.get(rule, 0) + 1


def _strings_of(value: Any, out: list[str], depth: int) -> None:
    """Every string of a JSON tree (dict keys too), in the order `_rebuilt` takes them."""
    if isinstance(value, str):
        out.append(value)
    elif depth >= _TREE_DEPTH:
        return
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(str(key))
            _strings_of(item, out, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            _strings_of(item, out, depth + 1)


def _rebuilt(value: Any, strings: Iterator[str], depth: int) -> Any:
    if isinstance(value, str):
        return next(strings)
    if depth >= _TREE_DEPTH and isinstance(value, dict | list | tuple):
        return _TOO_DEEP
    if isinstance(value, dict):
        rebuilt: dict[str, Any] = {}
        for item in value.values():
            key = next(strings)
            rebuilt[key] = _rebuilt(item, strings, depth + 1)
        return rebuilt
    if isinstance(value, list | tuple):
        return [_rebuilt(item, strings, depth + 1) for item in value]
    return value


def clip_tree(value: Any, max_bytes: int) -> Any:
    """A JSON tree's long strings clipped (after redaction), like event texts."""
    if isinstance(value, dict | list):
        try:
            if len(orjson.dumps(value)) <= max_bytes:
                return value  # no string in it can be longer: one C call instead of a walk
        except TypeError:  # an integer over 64 bits, taken from a file: the walk keeps it
            pass
    return _clip_tree(value, max_bytes)


def _clip_tree(value: Any, max_bytes: int) -> Any:
    if isinstance(value, str):
        return clip_text(value, max_bytes)[0] if len(value) > max_bytes // 4 else value
    if isinstance(value, dict):
        return {key: _clip_tree(item, max_bytes) for key, item in value.items()}
    if isinstance(value, list):
        return [_clip_tree(item, max_bytes) for item in value]
    return value


def is_replay(project_path: str | None) -> bool:
    """Sessions sleepd's own dream rollouts created: never harvested."""
    return bool(project_path) and REPLAY_DIR_PREFIX in str(project_path)


def prepare(
    batch: Batch,
    redactor: BatchRedactor | None,
    role: str,
    max_text_bytes: int = DEFAULT_MAX_TEXT_BYTES,
    known: set[str] | None = None,
) -> PreparedBatch:
    """Redact everything the batch would store, then clip it, then make the store's rows.

    `known`: the parse state's strings that passed the redaction before (`read_file`
    keeps them; the redaction adds this batch's state to them). A parse state
    stored after redaction carries `REDACTED_STATE`, so the next read knows its strings.
    """
    cursor = _cursor_row(batch.cursor)
    problem = _file_level_problem(batch)
    if problem is not None:
        return PreparedBatch(
            batch.path,
            batch.source,
            role,
            cursor,
            problem=problem,
            missing=problem.startswith(FILE_VANISHED),
        )
    replay_ids = {s.external_id for s in batch.sessions if is_replay(s.project_path)}
    sessions = batch.sessions
    events = batch.events
    if replay_ids:
        sessions = [s for s in sessions if s.external_id not in replay_ids]
        events = [e for e in events if e.session_external_id not in replay_ids]
    counts: dict[str, int] = {}
    if redactor is not None:
        counts = redactor.redact(events, sessions, cursor.parse_state, known)
    if not batch.nul_free:
        cursor.parse_state = _without_nul(events, sessions, cursor.parse_state)
    clip_events(events, max_text_bytes)
    cursor.parse_state = clip_tree(cursor.parse_state, max_text_bytes)
    if redactor is not None:
        cursor.parse_state = {**cursor.parse_state, REDACTED_STATE: True}
    rows = [_event_row(ev) for ev in events]
    return PreparedBatch(
        path=batch.path,
        source=batch.source,
        role=role,
        cursor=cursor,
        sessions=[_session_row(s, max_text_bytes) for s in sessions],
        events=rows,
        skipped=[SkipRow(item.line_no, item.byte_offset, item.reason) for item in batch.skipped],
        reset=batch.reset,
        bytes_read=batch.bytes_read,
        truncated_lines=batch.truncated_lines,
        replay_sessions_skipped=len(replay_ids),
        redactions=counts,
        text_bytes=sum(len(row.text) for row in rows),
    )


_EVENT_STRINGS = ("text", "raw", *_EVENT_SHORT)


def _without_nul(
    events: list[EventRecord], sessions: list[SessionRecord], state: dict[str, Any]
) -> dict[str, Any]:
    """NUL replaced in every string the batch would store (a binary file printed, a hostile
    line): PostgreSQL's text refuses NUL, which would fail the batch at every harvest, and
    both databases hold the same text. Returns the parse state, rebuilt only when it held
    one."""
    for owner, names in [
        *((ev, _EVENT_STRINGS) for ev in events),
        *((session, _SESSION_STRINGS) for session in sessions),
    ]:
        for name in names:
            value = getattr(owner, name)
            if isinstance(value, str) and "\x00" in value:
                setattr(owner, name, value.replace("\x00", NUL_STAND_IN))
    for session in sessions:
        session.meta = _tree_without_nul(session.meta)
    return _tree_without_nul(state)


def _tree_without_nul(tree: dict[str, Any]) -> dict[str, Any]:
    """`tree` (session meta, a parse state) as it is, or rebuilt when a string or key in
    it holds NUL."""
    try:
        if b"\\u0000" not in orjson.dumps(tree):
            return tree
    except TypeError:  # an integer over 64 bits: walked below
        pass
    strings: list[str] = []
    _strings_of(tree, strings, 0)
    if not any("\x00" in string for string in strings):
        return tree
    rebuilt = _rebuilt(tree, iter(s.replace("\x00", NUL_STAND_IN) for s in strings), 0)
    return rebuilt if isinstance(rebuilt, dict) else tree


def _cursor_row(cursor: FileCursor) -> CursorRow:
    return CursorRow(
        device=cursor.device,
        inode=cursor.inode,
        size=cursor.size,
        offset=cursor.offset,
        line_no=cursor.line_no,
        head_hash=cursor.head_hash,
        tail_hash=cursor.tail_hash,
        mtime_ns=cursor.mtime_ns,
        parse_state=cursor.state,
    )


def _session_row(rec: SessionRecord, max_text_bytes: int) -> SessionRow:
    return SessionRow(
        external_id=_fitted_id(rec.external_id) or "",
        kind=rec.kind,
        project_path=_fitted(rec.project_path, PATH_CHARS),
        git_branch=_fitted(rec.git_branch, BRANCH_CHARS),
        model=_fitted(rec.model, MODEL_CHARS),
        agent_version=_fitted(rec.agent_version, VERSION_CHARS),
        started_at=rec.started_at,
        ended_at=rec.ended_at,
        parent_external_id=_fitted_id(rec.parent_external_id),
        title=rec.title,
        meta=clip_tree(rec.meta, max_text_bytes),
    )


def _fitted(value: str | None, width: int) -> str | None:
    """A name cut to its column's width (a branch, a model, a tool's name)."""
    return value if value is None or len(value) <= width else value[:width]


def _fitted_id(value: str | None, width: int = ID_CHARS) -> str | None:
    """An id fitted to its column: a longer one keeps its head and gains a hash of the
    whole, so equal ids stay equal and different ones different (a plain cut would make
    two ids with the same head one, and drop the second event as a duplicate)."""
    if value is None or len(value) <= width:
        return value
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{value[: width - 17]}~{digest}"


#: The store's integer columns hold 32 bits on PostgreSQL (and 64 on SQLite).
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


def _stored_int(value: Any, default: Any = 0) -> Any:
    """A figure a transcript gave (an exit code, a token count), or `default` when it is
    no integer the store's column can hold: a hostile or garbled number must cost its
    figure, not the harvest, whose insert would fail on it at every try."""
    if isinstance(value, int) and not isinstance(value, bool) and _INT_MIN <= value <= _INT_MAX:
        return value
    return default


def _event_row(ev: EventRecord) -> EventRow:
    return EventRow(
        _fitted_id(ev.session_external_id) or "",
        _fitted_id(ev.external_id) or "",
        stored_timestamp(ev.timestamp),
        ev.role,
        ev.kind,
        _fitted(ev.tool_name, ID_CHARS),
        _fitted_id(ev.call_id),
        ev.text,
        _stored_int(ev.text_size, _INT_MAX) or len(ev.text),
        1 if ev.is_error else 0,
        _stored_int(ev.exit_code, None),
        _stored_int(ev.input_tokens),
        _stored_int(ev.output_tokens),
        _stored_int(ev.cache_read_tokens),
        _stored_int(ev.cache_creation_tokens),
        _fitted_id(ev.message_id),
        1 if ev.is_sidechain else 0,
        1 if ev.is_meta else 0,
        _fitted(ev.raw_type, RAW_TYPE_CHARS),
        ev.raw,
        ev.byte_offset,
        ev.line_no,
    )


def _file_level_problem(batch: Batch) -> str | None:
    for item in batch.skipped:
        if item.line_no == 0 and item.reason.startswith(FILE_LEVEL_REASONS):
            return item.reason
    return None


#: One compiled rule set per salt, and one harvester per source, for each process.
_redactors: dict[bytes, BatchRedactor] = {}
_harvesters: dict[tuple[str, tuple[str, ...]], Any] = {}


def redactor_for(salt: bytes | None) -> BatchRedactor | None:
    """None when redaction is off."""
    if salt is None:
        return None
    redactor = _redactors.get(salt)
    if redactor is None:
        redactor = _redactors[salt] = BatchRedactor(salt)
    return redactor


def harvester_for(job: ReadJob) -> Any:
    key = (job.source, job.roots)
    harvester = _harvesters.get(key)
    if harvester is None:
        from harvesters.registry import load_harvester_class

        harvester = load_harvester_class(job.source)([Path(r) for r in job.roots])
        _harvesters[key] = harvester
    return harvester


def read_file(job: ReadJob) -> Iterator[PreparedBatch]:
    """Every prepared batch of one file, streamed."""
    redactor = redactor_for(job.salt)
    known: set[str] | None = None
    if redactor is not None:
        stored: list[str] = []
        if job.state_redacted and job.cursor is not None:
            _strings_of(job.cursor.state, stored, 0)
        known = set(stored)
    for batch in harvester_for(job).read(
        job.file,
        job.cursor,
        batch_lines=job.limits.batch_lines,
        max_text_bytes=0,  # whole: clipped in `prepare`, after redaction
    ):
        yield prepare(batch, redactor, job.file.role, job.limits.max_text_bytes, known)


def read_error(job: ReadJob, exc: Exception) -> str:
    """One line for a file that could not be read or parsed (the rest of it waits)."""
    from sleepd.backends.outbound import scrub_text

    # stored as the file's last error: redacted, as its lines are (a path or a parser's
    # message can quote what the file holds)
    if isinstance(exc, OSError):
        return scrub_text(f"cannot read {job.file.path}: {exc.strerror or exc}")
    return scrub_text(f"cannot parse {job.file.path}: {type(exc).__name__}: {exc}"[:1000])[:500]


# ---- in file order, serially or from worker processes ---------------------------------


@dataclass(slots=True)
class FeedItem:
    """One prepared batch of the `index`-th job, or why that file could not be read."""

    index: int
    batch: PreparedBatch | None = None
    error: str | None = None
    notice: str | None = None  # about the harvest itself, e.g. workers lost


WORKERS_LOST = "a harvest worker process died; the rest of this harvest was read in-process"
#: New bytes of transcript queued to workers ahead of the writer: enough to keep them
#: busy while a group commits, small enough to bound what waits in memory.
READ_AHEAD_BYTES = 48 << 20
#: A file with more new bytes than this is read by the harvesting process itself,
#: streamed batch by batch: a worker hands back a file's batches all at once.
WORKER_FILE_MAX_BYTES = 32 << 20
#: Small files go to a worker several to a call (a call costs about as much CPU as
#: parsing 40 KB of transcript), up to this many bytes or files.
BUNDLE_BYTES = 2 << 20
BUNDLE_FILES = 64
#: How much lower than the harvesting process's the workers' scheduling priority is: it
#: stores what they parse, one writer at a time, and is the harvest's critical path.
WORKER_NICENESS = 10
PARENT_POLL_S = 1.0

StartFn = Callable[[int], None]


def feed(
    jobs: list[ReadJob], workers: int = 0, started: StartFn | None = None
) -> Iterator[FeedItem]:
    """Prepared batches of every job, in job order; `started(i)` before job i's first.

    `workers` 0 reads in this process; more parse in that many worker processes.
    """
    on_start = started or (lambda index: None)
    if workers <= 0 or not jobs:
        yield from _feed_here(jobs, on_start)
    else:
        yield from _feed_pool(jobs, workers, on_start)


def _feed_here(jobs: Sequence[ReadJob], started: StartFn, offset: int = 0) -> Iterator[FeedItem]:
    for index, job in enumerate(jobs, start=offset):
        started(index)
        try:
            for batch in read_file(job):
                yield FeedItem(index, batch)
        except Exception as exc:  # one bad file never stops the rest
            yield FeedItem(index, error=read_error(job, exc))


@dataclass(slots=True)
class _FileResult:
    """A worker's reading of one whole file."""

    batches: list[PreparedBatch]
    error: str | None = None


def read_files(jobs: list[ReadJob]) -> list[_FileResult]:
    """Worker entry point: each file read whole, results returned through the pool."""
    results = []
    for job in jobs:
        batches: list[PreparedBatch] = []
        try:
            batches.extend(read_file(job))
        except Exception as exc:  # one bad file never stops the rest
            results.append(_FileResult(batches, read_error(job, exc)))
            continue
        results.append(_FileResult(batches))
    return results


def bundles(jobs: Sequence[ReadJob]) -> list[tuple[int, int]]:
    """The calls of a parallel read as (first job, how many): small files together, a
    big one alone, one too big for a worker as a call of its own read here."""
    calls: list[tuple[int, int]] = []
    start = 0
    while start < len(jobs):
        count, size = 1, jobs[start].new_bytes
        if size < BUNDLE_BYTES:
            while (
                start + count < len(jobs)
                and count < BUNDLE_FILES
                and size + jobs[start + count].new_bytes <= BUNDLE_BYTES
            ):
                size += jobs[start + count].new_bytes
                count += 1
        calls.append((start, count))
        start += count
    return calls


def _init_worker(parent_pid: int) -> None:
    """Ctrl-C is the harvesting process's to handle; a worker yields the CPU to it and
    exits when it is gone (a killed harvest cannot shut its pool down)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True).start()


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_S)
    os._exit(0)


def _feed_pool(jobs: list[ReadJob], workers: int, started: StartFn) -> Iterator[FeedItem]:
    """One ordered map over the files' calls, with a bounded read-ahead.

    Workers are spawned (fresh interpreters): safe whatever threads the caller runs
    (the daemon's scheduler, a progress bar), and the same on every platform. If the
    pool breaks (a worker killed, say by the out-of-memory killer), the files not yet
    stored are read here from their planned cursors: slower, never wrong.
    """
    # Imported here: a serial read, and every harvest with nothing to read, never start a
    # pool, and these modules are a noticeable part of a short command's start-up.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    calls = bundles(jobs)
    try:
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_worker,
            initargs=(os.getpid(),),
        )
    except OSError as exc:
        yield FeedItem(0, notice=f"could not start worker processes ({exc}); reading in-process")
        yield from _feed_here(jobs, started)
        return
    queued: deque[tuple[int, int, Future[list[_FileResult]] | None]] = deque()
    next_call = 0
    in_flight = 0

    def top_up() -> None:
        nonlocal next_call, in_flight
        while next_call < len(calls) and (not queued or in_flight < READ_AHEAD_BYTES):
            start, count = calls[next_call]
            size = sum(job.new_bytes for job in jobs[start : start + count])
            future = None
            if size <= WORKER_FILE_MAX_BYTES:
                future = pool.submit(read_files, jobs[start : start + count])
                in_flight += size
            queued.append((start, count, future))
            next_call += 1

    try:
        try:
            top_up()
        except (BrokenProcessPool, OSError) as exc:
            yield FeedItem(
                0, notice=f"could not start worker processes ({exc}); reading in-process"
            )
            yield from _feed_here(jobs, started)
            return
        while queued:
            start, count, future = queued.popleft()
            if future is None:  # too big to hand back whole: streamed here
                yield from _feed_here(jobs[start : start + count], started, start)
                top_up()
                continue
            try:
                results = future.result()
                in_flight -= sum(job.new_bytes for job in jobs[start : start + count])
                top_up()
            except (BrokenProcessPool, OSError):
                yield FeedItem(start, notice=WORKERS_LOST)
                yield from _feed_here(jobs[start:], started, start)
                return
            for offset, result in enumerate(results):
                started(start + offset)
                for batch in result.batches:
                    yield FeedItem(start + offset, batch)
                if result.error is not None:
                    yield FeedItem(start + offset, error=result.error)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
