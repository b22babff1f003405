"""A merge keeps the document's line endings and never glues lines; `verify` catches an
adopted document whose proposal lines are glued or cut."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine

from sleepd.review.textfile import content_hash
from sleepd.store.engine import write_session
from sleepd.store.models import DocumentVersion, Proposal, TargetDocument

from .conftest import SKILL_V1, CliFn, StageFn

ADDED = "Check the staging dashboard after a deploy."
NEW = SKILL_V1 + ADDED + "\n"


def test_merge_after_trailing_newline_removed_keeps_lines_apart(
    stage: StageFn, skill_path: Path, cli: CliFn
) -> None:
    staged = stage(skill_path, NEW)
    edited = SKILL_V1.replace("# Deploy", "# Deploying").rstrip("\n")  # no final newline
    skill_path.write_bytes(edited.encode())
    done = cli("review", "accept", str(staged.proposal_id), "--yes-merge")
    assert done.returncode == 0, done.stderr
    text = skill_path.read_text()
    assert "Never push on Fridays.\n" + ADDED in text
    assert "# Deploying" in text
    assert cli("verify").returncode == 0


def test_merge_keeps_crlf(stage: StageFn, skill_path: Path, cli: CliFn) -> None:
    staged = stage(skill_path, NEW)
    skill_path.write_bytes(SKILL_V1.replace("Deploy\n", "Deploy!\n").replace("\n", "\r\n").encode())
    assert cli("review", "accept", str(staged.proposal_id), "--yes-merge").returncode == 0
    data = skill_path.read_bytes()
    assert b"\r\n" + ADDED.encode() + b"\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")


def test_verify_catches_glued_adopted_content(
    engine: Engine, stage: StageFn, skill_path: Path, cli: CliFn
) -> None:
    """What an older merge wrote: the added line glued to the last one, recorded as is."""
    staged = stage(skill_path, NEW)
    glued = SKILL_V1.rstrip("\n") + ADDED + "\n"
    skill_path.write_text(glued)
    with write_session(engine) as db:
        version = DocumentVersion(
            document_id=staged.document_id,
            content_hash=content_hash(glued),
            content=glued,
            origin="adopted",
            proposal_id=staged.proposal_id,
        )
        db.add(version)
        db.flush()
        document = db.get(TargetDocument, staged.document_id)
        proposal = db.get(Proposal, staged.proposal_id)
        assert document is not None and proposal is not None
        document.last_adopted_version_id = version.id
        proposal.status = "accepted"
    done = cli("verify")
    assert done.returncode == 8
    assert "damaged" in done.stdout + done.stderr
