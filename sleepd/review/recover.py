"""Finish or forget document writes a killed process left half-done (see `intents`).

For each intent whose process is gone, the file decides:
- it holds the new content (or is gone, for a removal) -> the write happened; if the
  audit log does not show the intent, the rows are added now (an adoption becomes the
  recorded adoption with the backup it took, a rollback the recorded rollback);
- it still holds the old content -> nothing happened; the intent is dropped (the
  proposal stays pending, the document untouched);
- anything else -> someone edited the file since; nothing is recorded, and `verify`
  will report and store what is there.
Temp files an interrupted atomic write left beside the document are removed in every case.
"""

from __future__ import annotations

import stat
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.errors import SleepdError
from sleepd.review.intents import (
    Intent,
    has_pending,
    load_intents,
    remove_intent,
    remove_stale_temp_files,
)
from sleepd.review.textfile import read_live
from sleepd.store.engine import write_session
from sleepd.store.models import AuditEntry, Proposal


def reconcile(engine: Engine) -> list[str]:
    """Settle every intent of a dead process; one plain-words line per intent settled."""
    notes: list[str] = []
    for intent in load_intents():
        if intent.owner_alive():
            continue  # its process is still writing
        note = _settle(engine, intent)
        remove_stale_temp_files(intent.path)
        remove_intent(intent)
        if note:
            notes.append(note)
    return notes


def reconcile_if_needed(engine_factory: Callable[[], Engine]) -> list[str]:
    """`reconcile` only when an intent exists (a directory listing otherwise)."""
    if not has_pending():
        return []
    engine = engine_factory()
    try:
        return reconcile(engine)
    finally:
        engine.dispose()


def _settle(engine: Engine, intent: Intent) -> str | None:
    try:
        live = read_live(intent.path)
    except SleepdError as exc:
        return f"interrupted {intent.op} of {intent.path} left unsettled: {exc}"
    written = live.text is None if intent.to_hash is None else live.hash == intent.to_hash
    if not written:
        if live.hash == intent.from_hash:
            return None  # killed before the rename: nothing changed
        return (
            f"interrupted {intent.op} of {intent.path}: the file changed since; nothing recorded"
            " (`sleepd verify` shows it)"
        )
    mode = stat.S_IMODE(live.path.stat().st_mode) if live.text is not None else None
    with write_session(engine) as db:
        if _recorded(db, intent):
            return None  # killed after the commit, before the intent was removed
        if intent.op == "adopt":
            from sleepd.review.adopt import record_adoption

            proposal = db.get(Proposal, int(intent.detail["proposal_id"]))
            if proposal is None or proposal.status != "pending":
                return (
                    f"interrupted adoption of {intent.path}: proposal is no longer pending;"
                    " nothing recorded (`sleepd verify` shows the file)"
                )
            record_adoption(db, intent, mode=mode, recovered=True)
            return (
                f"recorded the adoption of proposal #{proposal.id} into {intent.path}"
                " that an interrupted command wrote"
            )
        from sleepd.review.rollback import record_rollback

        record_rollback(db, intent, mode=mode, recovered=True)
        return f"recorded the rollback of {intent.path} that an interrupted command wrote"


def _recorded(db: Session, intent: Intent) -> bool:
    rows = db.scalars(
        select(AuditEntry)
        .where(AuditEntry.action == intent.op)
        .order_by(AuditEntry.id.desc())
        .limit(200)
    ).all()
    return any((row.detail or {}).get("intent") == intent.id for row in rows)
