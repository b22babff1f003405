"""Redaction of what a store already holds: `sleepd db redact`.

The harvest redacts every string before it is stored, with the rules of its day. When
the rules learn a kind of secret, what earlier harvests stored keeps it: this pass runs
today's rules over the stored texts (events, sessions, episodes, tasks, signals, failure
patterns, and what sleepd wrote itself: job and night reasons, rollout outputs) and
rewrites the values they change, a batch at a time, each batch its own transaction. A
value is only ever replaced by its redaction, so running it twice, or after a kill, leaves
what one complete run leaves. The full-text index follows the events it rewrites
(SQLite's triggers and side index, PostgreSQL's stored column).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

from sleepd.redaction.engine import RedactionStats, Redactor
from sleepd.redaction.walk import redact_obj

#: Rows read and rewritten per transaction.
BATCH_ROWS = 1000


@dataclass(frozen=True)
class Column:
    name: str
    #: stored as JSON (a dict or a list): every string inside is redacted
    is_json: bool = False


#: The texts a store keeps from transcripts, and the ones derived from them.
TABLES: dict[str, tuple[Column, ...]] = {
    "events": (Column("text"), Column("raw")),
    "sessions": (Column("title"), Column("git_branch"), Column("meta", is_json=True)),
    "episodes": (Column("intent_text"), Column("refinements", is_json=True)),
    "tasks": (
        Column("intent"),
        Column("context", is_json=True),
        Column("judge_spec", is_json=True),
    ),
    "signals": (Column("detail"),),
    "failure_patterns": (Column("example"), Column("signature")),
    # a cursor's parse state (queued messages, pending events): a later harvest stores
    # what it holds and, once it is marked redacted, does not search it again; the file's
    # last error can quote what it holds
    "transcript_files": (Column("parse_state", is_json=True), Column("last_error")),
    # the text sleepd writes itself, redacted as it is written since 2026-12-05 (an
    # exception's message, what a rollout's agent printed): older rows are cleaned here
    "job_runs": (Column("reason"), Column("detail", is_json=True)),
    "nights": (Column("stop_reason"),),
    "rollouts": (Column("output"), Column("judge_detail", is_json=True)),
}


@dataclass
class StoredRedaction:
    """What a pass read and rewrote, per table, and the rules that fired."""

    scanned: dict[str, int] = field(default_factory=dict)
    changed: dict[str, int] = field(default_factory=dict)
    by_rule: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows_scanned": dict(self.scanned),
            "rows_changed": dict(self.changed),
            "redactions": dict(sorted(self.by_rule.items())),
        }


def redact_store(engine: Engine) -> StoredRedaction:
    """`redact_stored` with this home's placeholder salt (equal secrets keep equal
    placeholders), under the harvest's lock, so no harvest of this machine writes
    while the pass rewrites."""
    from sleepd.harvest.run import machine_harvest_lock, redaction_salt

    with machine_harvest_lock(engine):
        return redact_stored(engine, Redactor(salt=redaction_salt()))


def redact_stored(
    engine: Engine, redactor: Redactor, *, batch_rows: int = BATCH_ROWS
) -> StoredRedaction:
    """Run `redactor` over every stored text of `TABLES`; rewrite the values it changes."""
    report = StoredRedaction()
    stats = RedactionStats()
    for table, columns in TABLES.items():
        for rows in _batches(engine, table, columns, batch_rows):
            report.scanned[table] = report.scanned.get(table, 0) + len(rows)
            updates = [u for u in (_redacted(row, columns, redactor, stats) for row in rows) if u]
            if updates:
                with engine.begin() as conn:
                    _write(conn, table, columns, updates)
                report.changed[table] = report.changed.get(table, 0) + len(updates)
    report.by_rule = dict(stats.by_rule)
    return report


def _batches(
    engine: Engine, table: str, columns: Sequence[Column], size: int
) -> Iterator[list[Any]]:
    """The rows of `table` (id and the columns), `size` at a time in id order."""
    names = ", ".join(c.name for c in columns)
    last = 0
    while True:
        with engine.connect() as conn:
            rows = conn.execute(
                text(f"SELECT id, {names} FROM {table} WHERE id > :last ORDER BY id LIMIT :n"),
                {"last": last, "n": size},
            ).all()
        if not rows:
            return
        last = int(rows[-1][0])
        yield list(rows)


def _redacted(
    row: Any, columns: Sequence[Column], redactor: Redactor, stats: RedactionStats
) -> dict[str, Any] | None:
    """The row's changed values (with its id), or None when nothing changed."""
    changed: dict[str, Any] = {}
    for index, column in enumerate(columns, start=1):
        value = row[index]
        if value is None:
            continue
        if column.is_json:
            try:
                loaded = json.loads(value) if isinstance(value, str) else value
            except ValueError:
                loaded = str(value)  # not JSON after all: redacted as the text it is
            clean = redact_obj(loaded, redactor, stats)
            if clean != loaded:
                changed[column.name] = json.dumps(clean, ensure_ascii=False)
        else:
            clean_text = redactor.redact_counted(str(value), stats)
            if clean_text != value:
                changed[column.name] = clean_text
    if not changed:
        return None
    return {"id": int(row[0]), **changed}


def _write(conn: Connection, table: str, columns: Sequence[Column], updates: list[dict]) -> None:
    for update in updates:
        sets = ", ".join(f"{c.name} = {_param(conn, c)}" for c in columns if c.name in update)
        conn.execute(text(f"UPDATE {table} SET {sets} WHERE id = :id"), update)
    if table == "events" and conn.dialect.name == "sqlite":
        _reindex_side(conn, [u for u in updates if "text" in u])


def _param(conn: Connection, column: Column) -> str:
    """A JSON value goes in as text; PostgreSQL is told it is JSON."""
    if column.is_json and conn.dialect.name == "postgresql":
        return f"CAST(:{column.name} AS JSON)"
    return f":{column.name}"


def _reindex_side(conn: Connection, updates: list[dict[str, Any]]) -> None:
    """A rewritten text's entry in the CJK side index: its trigger removed the old one."""
    from sleepd.store.cjk_index import CJK_TABLE, has_run, index_tokens

    exists = conn.execute(
        text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :t"), {"t": CJK_TABLE}
    ).first()
    if exists is None:
        return
    entries = [
        {"id": u["id"], "grams": index_tokens(u["text"])} for u in updates if has_run(u["text"])
    ]
    if entries:
        conn.execute(text(f"INSERT INTO {CJK_TABLE}(rowid, grams) VALUES (:id, :grams)"), entries)
