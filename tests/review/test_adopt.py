"""Adoption: conflicts, merges, confinement, crash safety, modes, staleness, audit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.documents.atomic import UnsafePathError
from sleepd.errors import ConflictError
from sleepd.review.adopt import (
    InvalidDocumentError,
    MergeRequired,
    adopt_proposal,
    reject_proposal,
)
from sleepd.review.auto_adopt import maybe_auto_adopt
from sleepd.review.textfile import DocumentWriteError
from sleepd.store.engine import read_session
from sleepd.store.models import AuditEntry, DocumentVersion, Proposal, TargetDocument

from .conftest import SKILL_V1, StageFn

NEW = SKILL_V1.replace("Run the tests first.", "Run `make test` first; it must pass.")


def _proposal(engine: Engine, proposal_id: int) -> Proposal:
    with read_session(engine) as db:
        proposal = db.get(Proposal, proposal_id)
        assert proposal is not None
        db.expunge(proposal)  # keep the loaded values past the read session's rollback
        return proposal


def _no_temp_files(directory: Path) -> bool:
    return [p.name for p in directory.iterdir()] == ["SKILL.md"]


@pytest.mark.both_dbs
def test_accept_writes_document_and_records_everything(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    staged = stage(skill_path, NEW)
    result = adopt_proposal(engine, staged.proposal_id, actor="alice")
    assert skill_path.read_text() == NEW
    proposal = _proposal(engine, staged.proposal_id)
    assert (proposal.status, proposal.decided_by) == ("accepted", "alice")
    assert proposal.adopted_version_id == result.adopted_version_id
    with read_session(engine) as db:
        document = db.get(TargetDocument, staged.document_id)
        assert document is not None
        assert document.last_adopted_version_id == result.adopted_version_id
        adopted = db.get(DocumentVersion, result.adopted_version_id)
        assert adopted is not None
        assert (adopted.origin, adopted.content, adopted.proposal_id) == (
            "adopted",
            NEW,
            staged.proposal_id,
        )
        # the live content was already stored as the base version: no duplicate backup
        assert result.backup_version_id == staged.base_version_id
        entries = db.scalars(select(AuditEntry).where(AuditEntry.action == "adopt")).all()
        assert len(entries) == 1
        assert entries[0].actor == "alice"
        assert entries[0].detail["to_hash"] == adopted.content_hash


def test_unknown_live_content_is_backed_up_before_writing(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    # staged against a base that is not what is on disk, but apart from the edit
    hand = SKILL_V1.replace("Never push on Fridays.", "Never push on Fridays or holidays.")
    staged = stage(skill_path, NEW, base=SKILL_V1)
    skill_path.write_text(hand)
    result = adopt_proposal(engine, staged.proposal_id, actor="alice", allow_merge=True)
    with read_session(engine) as db:
        backup = db.get(DocumentVersion, result.backup_version_id)
        assert backup is not None
        assert (backup.origin, backup.content) == ("backup", hand)


def test_overlapping_change_since_staging_is_refused(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    staged = stage(skill_path, NEW)
    hand = SKILL_V1.replace("Run the tests first.", "Run the linters first.")
    skill_path.write_text(hand)
    with pytest.raises(ConflictError, match="overlap"):
        adopt_proposal(engine, staged.proposal_id, actor="alice", allow_merge=True)
    assert skill_path.read_text() == hand
    assert _proposal(engine, staged.proposal_id).status == "pending"


def test_non_overlapping_change_merges_only_when_allowed(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    staged = stage(skill_path, NEW)
    hand = SKILL_V1.replace("Never push on Fridays.", "Never push on Fridays or holidays.")
    skill_path.write_text(hand)
    with pytest.raises(MergeRequired) as refused:
        adopt_proposal(engine, staged.proposal_id, actor="alice")
    assert skill_path.read_text() == hand
    assert "+Run `make test` first" in refused.value.plan.merge_diff
    result = adopt_proposal(engine, staged.proposal_id, actor="alice", allow_merge=True)
    merged = skill_path.read_text()
    assert "Run `make test` first" in merged and "or holidays" in merged
    assert result.merged


def test_symlink_escaping_the_project_is_refused(
    engine: Engine, stage: StageFn, skill_path: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(SKILL_V1)
    skill_path.unlink()
    skill_path.symlink_to(outside)
    staged = stage(skill_path, NEW)
    with pytest.raises(UnsafePathError):
        adopt_proposal(engine, staged.proposal_id, actor="alice")
    assert outside.read_text() == SKILL_V1
    assert _proposal(engine, staged.proposal_id).status == "pending"


def test_crash_before_rename_keeps_old_document_and_leaves_no_temp_file(
    engine: Engine, stage: StageFn, skill_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    staged = stage(skill_path, NEW)

    def crash(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(DocumentWriteError, match="No space left"):
        adopt_proposal(engine, staged.proposal_id, actor="alice")
    monkeypatch.undo()
    assert skill_path.read_text() == SKILL_V1
    assert _no_temp_files(skill_path.parent)
    assert _proposal(engine, staged.proposal_id).status == "pending"
    with read_session(engine) as db:
        assert not db.scalars(select(AuditEntry).where(AuditEntry.action == "adopt")).all()


def test_file_mode_is_kept(engine: Engine, stage: StageFn, skill_path: Path) -> None:
    skill_path.chmod(0o640)
    staged = stage(skill_path, NEW)
    adopt_proposal(engine, staged.proposal_id, actor="alice")
    assert skill_path.stat().st_mode & 0o777 == 0o640


def test_new_managed_skill_is_created_with_its_folder(
    engine: Engine, stage: StageFn, project: Path
) -> None:
    path = project / ".claude" / "skills" / "release" / "SKILL.md"
    content = SKILL_V1.replace("name: deploy", "name: release")
    staged = stage(path, content, base="")
    adopt_proposal(engine, staged.proposal_id, actor="alice")
    assert path.read_text() == content


def test_adoption_marks_sibling_proposals_stale(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    first = stage(skill_path, NEW)
    second = stage(skill_path, SKILL_V1 + "\nAlso check the changelog.\n")
    result = adopt_proposal(engine, first.proposal_id, actor="alice")
    assert result.stale_proposal_ids == [second.proposal_id]
    assert _proposal(engine, second.proposal_id).status == "stale"
    with pytest.raises(ConflictError, match="stale"):
        adopt_proposal(engine, second.proposal_id, actor="alice")


def test_edited_content_is_validated_and_stored(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    staged = stage(skill_path, NEW)
    with pytest.raises(InvalidDocumentError, match="name"):
        adopt_proposal(engine, staged.proposal_id, actor="alice", edited_content="no frontmatter\n")
    edited = NEW.replace("it must pass", "it must pass twice")
    adopt_proposal(engine, staged.proposal_id, actor="alice", edited_content=edited)
    proposal = _proposal(engine, staged.proposal_id)
    assert proposal.edited_by_reviewer
    assert proposal.new_content == edited
    assert skill_path.read_text() == edited


def test_reject_records_reason_and_cannot_repeat(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    staged = stage(skill_path, NEW)
    reject_proposal(engine, staged.proposal_id, actor="bob", reason="too vague")
    proposal = _proposal(engine, staged.proposal_id)
    assert (proposal.status, proposal.decision_reason) == ("rejected", "too vague")
    assert skill_path.read_text() == SKILL_V1
    with read_session(engine) as db:
        entry = db.scalars(select(AuditEntry).where(AuditEntry.action == "reject")).one()
        assert (entry.actor, entry.object_id) == ("bob", str(staged.proposal_id))
        assert entry.detail["reason"] == "too vague"
    with pytest.raises(ConflictError):
        reject_proposal(engine, staged.proposal_id, actor="bob")


@pytest.mark.parametrize(
    ("enabled", "fields", "adopted"),
    [
        (False, {}, False),
        (True, {}, True),
        (True, {"p_value": 0.03}, False),
        (True, {"simulated": True}, False),
        (True, {"safety_flags": ["shell-command"]}, False),
    ],
)
def test_auto_adopt_only_on_strong_clean_real_evidence(
    engine: Engine,
    stage: StageFn,
    skill_path: Path,
    enabled: bool,
    fields: dict[str, object],
    adopted: bool,
) -> None:
    cfg = Config()
    cfg.gate.auto_adopt = enabled
    staged = stage(skill_path, NEW, **fields)
    assert maybe_auto_adopt(engine, cfg, staged.proposal_id) is adopted
    assert (skill_path.read_text() == NEW) is adopted
    if adopted:
        assert _proposal(engine, staged.proposal_id).decided_by == "auto-adopt"
