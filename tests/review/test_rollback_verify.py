"""Rollback restores bytes exactly; verify notices hand edits; history and nights list rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.errors import NotFoundError
from sleepd.review.adopt import adopt_proposal
from sleepd.review.history import list_history
from sleepd.review.nights import NIGHT_KEYS, night_rows
from sleepd.review.rollback import execute_rollback, plan_rollback
from sleepd.review.verify import verify_documents
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import AuditEntry, DocumentVersion, Night

from .conftest import SKILL_V1, StageFn

# CRLF, no final newline and non-ASCII: a rollback must give back these exact bytes
ORIGINAL = SKILL_V1.replace("\n", "\r\n").rstrip("\r\n") + "\r\nÜberall: ✓"
NEW = SKILL_V1 + "\nAlways tag the release.\n"


def test_rollback_restores_the_version_before_the_last_adoption_byte_for_byte(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    skill_path.write_bytes(ORIGINAL.encode())
    skill_path.chmod(0o640)
    staged = stage(skill_path, NEW)
    adopt_proposal(engine, staged.proposal_id, actor="alice")
    assert skill_path.read_text() == NEW
    plan = plan_rollback(engine)
    assert "-Always tag the release." in plan.diff
    result = execute_rollback(engine, plan, actor="alice")
    assert skill_path.read_bytes() == ORIGINAL.encode()
    assert skill_path.stat().st_mode & 0o777 == 0o640
    assert result.restored_version_id == staged.base_version_id
    with read_session(engine) as db:
        entry = db.scalars(select(AuditEntry).where(AuditEntry.action == "rollback")).one()
        assert entry.detail["restored_version_id"] == staged.base_version_id
    assert [c.status for c in verify_documents(engine)] == ["ok"]
    assert plan_rollback(engine).is_noop  # the same rollback again changes nothing


def test_rollback_to_a_chosen_version_keeps_the_replaced_content(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    first = stage(skill_path, NEW)
    adopt_proposal(engine, first.proposal_id, actor="alice")
    hand = NEW + "A hand edit.\n"
    skill_path.write_text(hand)
    execute_rollback(engine, plan_rollback(engine, to_version=first.base_version_id), actor="a")
    assert skill_path.read_text() == SKILL_V1
    with read_session(engine) as db:
        contents = set(db.scalars(select(DocumentVersion.content)))
    assert hand in contents  # the hand edit was stored before it was replaced


def test_rollback_refuses_unknown_targets_and_versions(engine: Engine, skill_path: Path) -> None:
    with pytest.raises(NotFoundError, match="nothing has been adopted"):
        plan_rollback(engine)
    with pytest.raises(NotFoundError):
        plan_rollback(engine, to_version=999)
    with pytest.raises(NotFoundError):
        plan_rollback(engine, target_path=str(skill_path))


def test_rollback_of_a_document_the_adoption_created_removes_it(
    engine: Engine, stage: StageFn, project: Path
) -> None:
    folder = project / ".claude" / "skills" / "sleepd-learned"
    path = folder / "SKILL.md"
    created = "---\nname: sleepd-learned\ndescription: Learned.\n---\n\nBe brief.\n"
    staged = stage(path, created, base="")
    adopt_proposal(engine, staged.proposal_id, actor="alice")
    path.write_text(created + "A hand edit.\n")
    plan = plan_rollback(engine, target_path=str(path))
    assert plan.removes and not plan.is_noop
    assert "-Be brief." in plan.diff and "-A hand edit." in plan.diff
    result = execute_rollback(engine, plan, actor="alice")
    assert not path.exists() and not folder.exists()  # as before the skill was created
    assert (project / ".claude" / "skills").is_dir()  # but nothing above its own folder
    assert result.restored_version_id is None and result.new_version_id is None
    with read_session(engine) as db:
        contents = set(db.scalars(select(DocumentVersion.content)))
        entry = db.scalars(select(AuditEntry).where(AuditEntry.action == "rollback")).one()
        assert entry.detail["removed"] is True
    assert created + "A hand edit.\n" in contents  # the live content was kept first
    assert verify_documents(engine) == []  # no reference until the next adoption
    assert plan_rollback(engine, target_path=str(path)).is_noop
    with pytest.raises(NotFoundError, match="nothing has been adopted"):
        plan_rollback(engine)  # the default target: nothing adopted is live any more


def test_verify_reports_hand_edit_once_as_observed_version(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    staged = stage(skill_path, NEW)
    adopt_proposal(engine, staged.proposal_id, actor="alice")
    assert [c.status for c in verify_documents(engine)] == ["ok"]
    skill_path.write_text(NEW + "tampered\n")
    first = verify_documents(engine)
    second = verify_documents(engine)
    assert [c.status for c in first] == ["changed"]
    assert first[0].observed_version_id == second[0].observed_version_id
    with read_session(engine) as db:
        observed = db.scalars(
            select(DocumentVersion).where(DocumentVersion.origin == "observed")
        ).all()
        assert [v.content for v in observed if v.id == first[0].observed_version_id] == [
            NEW + "tampered\n"
        ]
    skill_path.unlink()
    assert [c.status for c in verify_documents(engine)] == ["missing"]


def test_history_lists_versions_newest_first_with_current_marked(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    staged = stage(skill_path, NEW)
    result = adopt_proposal(engine, staged.proposal_id, actor="alice")
    rows = list_history(engine, target_path=str(skill_path))
    assert [(r.id, r.origin, r.current) for r in rows] == [
        (result.adopted_version_id, "adopted", True),
        (staged.base_version_id, "observed", False),
    ]
    assert rows[0].size == len(NEW.encode()) and rows[0].proposal_id == staged.proposal_id


def test_night_rows_have_stable_keys_oldest_first(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    start = datetime(2026, 1, 1, 3, 30, tzinfo=UTC)
    with write_session(engine) as db:
        for day in range(3):
            db.add(
                Night(
                    started_at=start + timedelta(days=day),
                    ended_at=start + timedelta(days=day, minutes=20),
                    tasks_replayed=10 + day,
                    accepted=day,
                    val_before=0.5,
                    val_after=0.6,
                    stop_reason="done",
                )
            )
    staged = stage(skill_path, NEW)  # its night starts now, after the three above
    adopt_proposal(engine, staged.proposal_id, actor="alice")
    rows = night_rows(engine, limit=3)
    assert [tuple(r) for r in rows] == [NIGHT_KEYS] * 3
    assert [r["tasks_replayed"] for r in rows] == [11, 12, 0]
    assert rows[0]["duration_s"] == 1200.0
    assert [r["adopted"] for r in rows] == [0, 0, 1]
