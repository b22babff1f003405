"""Reading a transcript again: each stored event as today's harvest reads its line.

A file another harvest read (`harvest.reading`) and that is still on disk, unchanged
where it was read, is read from its first line as a first harvest would: the same
harvester, the same redaction chokepoint, the same clipping. Each event it yields that
the store holds, found by its file, session and id, takes today's reading (its kind,
role, text, flags, record type, raw line) where that differs; its session is then read
again by mining (`sessions.mined_with` cleared). The events may be stored on another row
of the same transcript: one moved (Codex archives a rollout into `archived_sessions/`), or
read first on another machine. Such a row has the file's name and the first bytes of the
file on disk, as far as it was read; its events are read again with this file's when
this machine stored them, or a release before this one did. Another machine's reading
on the same release (its settings may differ: a longer text kept, redaction off) or on
a later one is its own, and stays. Nothing is added and nothing deleted:
an event the older reader did not make cannot be placed between stored ones, and one
today's reader no longer makes stays as it was. A copy of another session kept as
context (`history:` records, `store.resumed`) is left as it was kept.

A stored text holding a redaction placeholder keeps it: an event whose new text does not
hold every placeholder of the stored one keeps its stored text and raw line, so no
reading again ever brings back what a redaction took out.

Each file is read outside any transaction and its changes written in one, with its stamp,
so a kill leaves a file read again wholly or not at all. A file gone from disk or replaced
is stamped as it is: there is nothing left to read. One the reader cannot read through is
stamped too, left as stored, with one error line counted in the harvest's report.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from harvesters.reader import HEAD_BYTES, head_hash
from harvesters.records import SourceFile
from sleepd.config import Config
from sleepd.harvest.reading import harvest_rules
from sleepd.harvest.report import HarvestReport, SourceReport, note_error
from sleepd.redaction import PLACEHOLDER_RE
from sleepd.rules_identity import by_an_older_release
from sleepd.sources import roots_for
from sleepd.store.fastread import ReadOnlyDb
from sleepd.store.ingest import chunks, in_list
from sleepd.store.records import EventRow
from sleepd.store.resumed import is_history
from sleepd.store.writedb import WriteTarget

_STALE_SQL = (
    "SELECT id, source, path, role, device, inode, size, head_hash FROM transcript_files "
    "WHERE host_id = :h AND read_with != :r ORDER BY id"
)
_ROWS_SQL = (
    "SELECT id, source, path, size, head_hash, host_id, read_with FROM transcript_files ORDER BY id"
)
_STORED_SQL = (
    "SELECT e.id, e.session_id, s.external_id, e.external_id, e.role, e.kind, e.tool_name, "
    "e.call_id, e.text, e.text_size, e.is_error, e.exit_code, e.is_sidechain, e.is_meta, "
    "e.raw_type, e.raw FROM events e JOIN sessions s ON s.id = e.session_id "
    "WHERE e.file_id IN ({files}) AND e.external_id IN ({marks})"
)
_UPDATE_SQL = (
    "UPDATE events SET role = :role, kind = :kind, tool_name = :tool_name, "
    "call_id = :call_id, text = :text, text_size = :text_size, is_error = :is_error, "
    "exit_code = :exit_code, is_sidechain = :is_sidechain, is_meta = :is_meta, "
    "raw_type = :raw_type, raw = :raw WHERE id = :id"
)
#: The columns a reading makes, in `_STORED_SQL`'s order after the four keys.
_READING = (
    "role",
    "kind",
    "tool_name",
    "call_id",
    "text",
    "text_size",
    "is_error",
    "exit_code",
    "is_sidechain",
    "is_meta",
    "raw_type",
    "raw",
)
_FLAGS = frozenset({"is_error", "is_sidechain", "is_meta"})


@dataclass(frozen=True, slots=True)
class StaleFile:
    id: int
    source: str
    path: str
    role: str
    device: int
    inode: int
    size: int
    head_hash: str


@dataclass(frozen=True, slots=True)
class _StoredRow:
    """A file row of any machine, as far as telling the same transcript goes."""

    id: int
    size: int
    head_hash: str


def read_again(
    target: WriteTarget,
    cfg: Config,
    report: HarvestReport,
    salt: bytes | None,
    sources: Iterable[str],
) -> None:
    """Read again every file of `sources` that this machine harvested with other rules."""
    from sleepd.hosts import host_id

    rules = harvest_rules(cfg)
    wanted = set(sources)
    reader = ReadOnlyDb(target.url)
    try:
        stale = [
            StaleFile(*row)
            for row in reader.rows(_STALE_SQL, {"h": host_id(), "r": rules})
            if row[1] in wanted
        ]
        by_name = _rows_by_name(reader, wanted, host_id(), rules) if stale else {}
        for file in stale:
            source_report = report.sources.setdefault(file.source, SourceReport(source=file.source))
            if not _same_file(file):
                _write(target, file, rules, [])  # nothing left to read
                continue
            rows = _same_transcript(file, by_name.get((file.source, _name(file.path)), []))
            changes, problem = _changes(reader, cfg, file, rows, salt)
            _write(target, file, rules, changes)
            if problem is not None:
                note_error(source_report, f"{problem} (read again: left as stored)")
                continue
            source_report.files_read_again += 1
            source_report.events_read_again += len(changes)
    finally:
        reader.close()


def stamp_new_files(target: WriteTarget, cfg: Config, after_id: int) -> None:
    """Files stored for the first time in this harvest were read by today's rules, but
    for one named as a file an older reading stored (this machine's, or an older
    release's on another): its events may be stored on that row, kept by the store's key
    as they were read then. It is left unstamped, so that `read_again` reads it and gives
    them today's reading."""
    from sleepd.hosts import host_id

    rules, host = harvest_rules(cfg), host_id()
    with target.transaction() as db:
        new = db.rows(
            "SELECT id, source, path FROM transcript_files "
            "WHERE host_id = :h AND id > :after AND read_with = ''",
            {"h": host, "after": after_id},
        )
        if not new:
            return
        older = {
            (source, _name(path))
            for source, path, other, read_with in db.rows(
                "SELECT source, path, host_id, read_with FROM transcript_files "
                "WHERE id <= :after AND read_with != :r",
                {"after": after_id, "r": rules},
            )
            if _taken_over(str(other), str(read_with or ""), host, rules)
        }
        stamped = [int(i) for i, source, path in new if (source, _name(path)) not in older]
        for chunk in chunks(stamped):
            marks, names = in_list(chunk)
            db.run(
                f"UPDATE transcript_files SET read_with = :r WHERE id IN ({marks})",
                {"r": rules, **names},
            )


def last_file_id(db: ReadOnlyDb) -> int:
    """The newest transcript file row, before a harvest stores any."""
    return int(db.scalar("SELECT max(id) FROM transcript_files") or 0)


def _same_file(file: StaleFile) -> bool:
    """The file on disk is the one stored: same device and inode, at least as long, and
    the same first bytes as when it was first read."""
    try:
        st = os.stat(file.path)
        if (st.st_dev, st.st_ino) != (file.device, file.inode) or st.st_size < file.size:
            return False
        with open(file.path, "rb") as fh:
            return head_hash(fh, min(HEAD_BYTES, file.size)) == file.head_hash
    except OSError:
        return False


def _name(path: str) -> str:
    """A stored path's file name, whichever machine's separators it was written with."""
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _taken_over(other_host: str, read_with: str, host: str, rules: str) -> bool:
    """A row whose stored reading today's rules may replace: this machine's, one read
    before readings were stamped, or another machine's read by an older release."""
    return other_host == host or not read_with or by_an_older_release(read_with, rules)


def _rows_by_name(
    reader: ReadOnlyDb, sources: set[str], host: str, rules: str
) -> dict[tuple[str, str], list[_StoredRow]]:
    """The stored file rows of `sources` whose reading today's may replace, by source and
    file name."""
    rows: dict[tuple[str, str], list[_StoredRow]] = {}
    for row_id, source, path, size, head, other, read_with in reader.rows(_ROWS_SQL):
        if source in sources and _taken_over(str(other), str(read_with or ""), host, rules):
            rows.setdefault((source, _name(path)), []).append(
                _StoredRow(row_id, int(size or 0), head or "")
            )
    return rows


def _same_transcript(file: StaleFile, named: Sequence[_StoredRow]) -> list[int]:
    """`file`'s row and the rows of the same name whose first bytes, as far as each was
    read, are the file's first bytes: the transcript moved, or read on another machine."""
    found = [file.id]
    others = [row for row in named if row.id != file.id and row.head_hash]
    if not others:
        return found
    try:
        with open(file.path, "rb") as fh:
            for row in others:
                if head_hash(fh, min(HEAD_BYTES, row.size)) == row.head_hash:
                    found.append(row.id)
    except OSError:
        pass  # the reading itself says what is wrong with the file
    return found


def _changes(
    reader: ReadOnlyDb, cfg: Config, file: StaleFile, rows: Sequence[int], salt: bytes | None
) -> tuple[list[dict[str, Any]], str | None]:
    """The stored events of `file` whose reading today differs, as update rows, or the
    one line saying why the file could not be read through (then it is left as stored).
    Only the reading is caught: the store's own errors stop the harvest as anywhere."""
    from sleepd.harvest.plan import roots_key
    from sleepd.harvest.read import ReadJob, ReadLimits, read_error, read_file

    job = ReadJob(
        file.source,
        roots_key(roots_for(file.source, cfg)),
        SourceFile(file.path, file.source, file.role),  # type: ignore[arg-type]
        None,
        ReadLimits(cfg.harvest.batch_lines, cfg.harvest.max_text_bytes),
        salt,
    )
    changes: list[dict[str, Any]] = []
    batches = read_file(job)
    while True:
        try:
            batch = next(batches, None)
        except Exception as exc:
            return [], read_error(job, exc)
        if batch is None:
            return changes, None
        if batch.problem is not None:
            return [], batch.problem
        changes.extend(_changed(reader, rows, batch.events))


def _changed(
    reader: ReadOnlyDb, rows: Sequence[int], events: Sequence[EventRow]
) -> list[dict[str, Any]]:
    files = ", ".join(str(int(row)) for row in rows)
    out: list[dict[str, Any]] = []
    for chunk in chunks(events):
        marks, names = in_list([ev.external_id for ev in chunk])
        sql = _STORED_SQL.format(files=files, marks=marks)
        stored = {(row[2], row[3]): row for row in reader.rows(sql, names)}
        for ev in chunk:
            row = stored.get((ev.session_external_id, ev.external_id))
            if row is None or is_history(row[14]):
                continue
            before = dict(zip(_READING, row[4:], strict=True))
            after = {name: getattr(ev, name) for name in _READING}
            if not _keeps_redactions(before["text"], after["text"]) or not _keeps_redactions(
                before["raw"], after["raw"]
            ):
                after.update(text=before["text"], text_size=before["text_size"], raw=before["raw"])
            if _normal(before) != _normal(after):
                out.append({**after, "id": row[0], "session_id": row[1]})
    return out


def _keeps_redactions(stored: str | None, new: str | None) -> bool:
    """Every placeholder of the stored text is in the new one."""
    return set(PLACEHOLDER_RE.findall(stored or "")) <= set(PLACEHOLDER_RE.findall(new or ""))


def _normal(reading: dict[str, Any]) -> tuple[Any, ...]:
    """A reading as comparable values (flags as 0/1, whichever driver read them)."""
    return tuple(int(bool(reading[name])) if name in _FLAGS else reading[name] for name in _READING)


def _write(
    target: WriteTarget, file: StaleFile, rules: str, changes: Sequence[dict[str, Any]]
) -> None:
    """One transaction: the changed events, their sessions to be mined again, the stamp."""
    with target.transaction() as db:
        for chunk in chunks(changes):
            db.many(_UPDATE_SQL, [_stored(change, db.is_sqlite) for change in chunk])
            marks, names = in_list(sorted({int(change["session_id"]) for change in chunk}))
            db.run(f"UPDATE sessions SET mined_with = '' WHERE id IN ({marks})", names)
        db.run(
            "UPDATE transcript_files SET read_with = :r WHERE id = :f", {"r": rules, "f": file.id}
        )


def _stored(change: dict[str, Any], sqlite: bool) -> dict[str, Any]:
    row = {name: change[name] for name in (*_READING, "id")}
    for name in _FLAGS:
        row[name] = int(bool(row[name])) if sqlite else bool(row[name])
    return row
