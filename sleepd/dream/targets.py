"""Which document a night edits for a project, and its versions in the store.

Every version is stored (by content hash) before anything edits it, so a
proposal always names the exact text it was built on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session as OrmSession

from sleepd.config import Config
from sleepd.documents.identity import repo_identity
from sleepd.documents.targets import (
    BEGIN_MARKER,
    END_MARKER,
    TargetSpec,
    default_targets,
    initial_content,
    kind_for,
)
from sleepd.documents.versions import content_hash
from sleepd.projects import roots_in_store
from sleepd.store.models import DocumentVersion, Session, TargetDocument


@dataclass
class PreparedTarget:
    spec: TargetSpec
    document_id: int
    base_version_id: int
    base_content: str  # the live document ("" when it does not exist yet)
    working_content: str  # what edits apply to (a new skill or an added managed section)


def choose_spec(db: OrmSession, cfg: Config, project: str) -> TargetSpec:
    """Configured targets first; else the managed skill for Claude Code users and the
    managed AGENTS.md section for projects worked on mostly with Codex."""
    configured = cfg.targets_for(project)
    if configured:
        first = configured[0]
        return TargetSpec(Path(first.path), kind_for(Path(first.path)), first.editable)  # type: ignore[arg-type]
    counts: dict[str, int] = {}
    roots = roots_in_store(db)
    for path, source, n in db.execute(
        select(Session.project_path, Session.source, func.count(Session.id)).group_by(
            Session.project_path, Session.source
        )
    ):
        if roots(path) == project:  # the repository's worktrees too
            counts[source] = counts.get(source, 0) + int(n)
    skill, agents = default_targets(Path(project))
    return agents if counts.get("codex", 0) > counts.get("claude", 0) else skill


def prepare(db: OrmSession, cfg: Config, project: str) -> PreparedTarget:
    spec = choose_spec(db, cfg, project)
    path = spec.path
    try:
        live = path.read_text(encoding="utf-8")
        mode: int | None = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        live, mode = "", None
    document = db.scalar(select(TargetDocument).where(TargetDocument.path == str(path)))
    if document is None:
        document = TargetDocument(
            project_path=project,
            path=str(path),
            kind=spec.kind,
            editable=spec.editable,
            managed=spec.editable == "managed_section" or ".claude/skills/sleepd-" in str(path),
        )
        db.add(document)
        db.flush()
    if document.repo_identity is None:
        document.repo_identity = repo_identity(project)  # adoption writes only there
    version = record_version(db, document.id, live, mode, origin="observed")
    working = live
    if not live:
        working = initial_content(spec)
    elif spec.editable == "managed_section" and BEGIN_MARKER not in live:
        working = live.rstrip("\n") + f"\n\n{BEGIN_MARKER}\n{END_MARKER}\n"
    return PreparedTarget(spec, document.id, version.id, live, working)


def record_version(
    db: OrmSession, document_id: int, content: str, mode: int | None, *, origin: str
) -> DocumentVersion:
    """The latest stored version if it has this content, else a new one."""
    digest = content_hash(content)
    latest = db.scalar(
        select(DocumentVersion)
        .where(DocumentVersion.document_id == document_id)
        .order_by(DocumentVersion.id.desc())
        .limit(1)
    )
    if latest is not None and latest.content_hash == digest:
        return latest
    version = DocumentVersion(
        document_id=document_id, content_hash=digest, content=content, mode=mode, origin=origin
    )
    db.add(version)
    db.flush()
    return version


def known_hosts(cfg: Config, document: str) -> set[str]:
    """Hosts the lint treats as known: the user's configuration and the user's own document.

    Never hosts seen in transcripts: an injected URL would otherwise whitelist itself.
    """
    from sleepd.dream.safety import hosts_in

    return {h.lower().strip().rstrip(".") for h in cfg.dream.known_hosts if h.strip()} | hosts_in(
        document
    )
