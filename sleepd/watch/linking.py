"""Which version of a managed document each live session ran under, and whether it read it.

A document's history is a timeline of changes sleepd made (adoptions and rollbacks, from
the audit log, each with its time): the version in force at a session's start is the one
the agent found on disk. Whether the agent read it depends on the document and the agent:

- `AGENTS.md`: Codex reads it at the start of every session (`every_session`); Claude Code
  does not read it (`not_a_reader`).
- `CLAUDE.md`: Claude Code reads it every session; Codex does not.
- a skill (`SKILL.md`): only its description is in context until the agent loads it, so a
  session counts only when its transcript shows the skill loaded (`loaded`): a `Skill`
  tool call naming it (`{"skill": "<name>"}`), the person typing `/<name>` (stored as
  `<command-name>/<name></command-name>`), or a tool call reading its `SKILL.md` (Codex
  reads skills as files). Otherwise `not_loaded`.

Plain SQL through any reader with `rows(sql, params)` (`store.fastread.ReadOnlyDb`), so
`sleepd status` can link without SQLAlchemy. Hand edits between adoptions are not seen
here; `sleepd verify` reports those.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePath
from typing import Any, Literal, Protocol

from sleepd.store.fastread import as_utc

Exposure = Literal["every_session", "loaded", "not_loaded", "not_a_reader"]
#: Exposures under which the session's agent had the document's text in context.
READ = ("every_session", "loaded")
_READERS = {"agents": "codex", "claude": "claude"}


class Reader(Protocol):
    def rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Sequence[Any]]: ...


@dataclass(frozen=True)
class Document:
    id: int
    project: str
    path: str
    kind: str
    current_version_id: int | None

    @property
    def skill_name(self) -> str:
        return PurePath(self.path).parent.name


@dataclass(frozen=True)
class Change:
    """One change sleepd made to a document: the version in force from `at` on."""

    at: datetime
    action: str  # "adopt" or "rollback"
    version_id: int | None  # None: the rollback removed the document
    proposal_id: int | None
    backup_version_id: int | None  # adopt: the content it replaced (None: it created it)


@dataclass(frozen=True)
class LiveSession:
    id: int
    source: str
    started_at: datetime
    exposure: Exposure
    version_id: int | None  # the sleepd version in force (None: before any adoption)


def documents(db: Reader) -> list[Document]:
    return [
        Document(int(i), str(project), str(path), str(kind), None if cur is None else int(cur))
        for i, project, path, kind, cur in db.rows(
            "SELECT id, project_path, path, kind, last_adopted_version_id "
            "FROM target_documents ORDER BY id"
        )
    ]


def changes(db: Reader, document_id: int) -> list[Change]:
    """Adoptions and rollbacks of one document, oldest first, from the audit log."""
    import json

    out: list[Change] = []
    for at, action, object_type, object_id, detail in db.rows(
        "SELECT at, action, object_type, object_id, detail FROM audit_log "
        "WHERE action IN ('adopt', 'rollback') ORDER BY at, id"
    ):
        data = detail if isinstance(detail, dict) else json.loads(detail or "{}")
        if action == "adopt":
            if data.get("document_id") != document_id:
                continue
            out.append(
                Change(
                    as_utc(at) or datetime.min,
                    "adopt",
                    _int(data.get("adopted_version_id")),
                    _int(object_id),
                    _int(data.get("backup_version_id")),
                )
            )
        elif object_type == "document" and _int(object_id) == document_id:
            version = None if data.get("removed") else _int(data.get("new_version_id"))
            out.append(Change(as_utc(at) or datetime.min, "rollback", version, None, None))
    return out


def _int(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


def version_at(timeline: Sequence[Change], moment: datetime) -> int | None:
    """The sleepd version in force at `moment` (None: before the first adoption)."""
    current = None
    for change in timeline:
        if change.at > moment:
            break
        current = change.version_id
    return current


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def project_sessions(
    db: Reader, project: str, since: datetime | None = None
) -> list[tuple[int, str, datetime]]:
    """Main sessions started in the project (or below it, or in one of its worktrees):
    id, source, start."""
    where, params = project_filter(db, project)
    rows = db.rows(f"SELECT id, source, started_at FROM sessions s WHERE {where} "
                   "AND s.started_at IS NOT NULL", params)  # fmt: skip
    out = []
    for sid, source, started in rows:
        at = as_utc(started)
        if at is not None and (since is None or at >= since):
            out.append((int(sid), str(source), at))
    return out


def skill_loaded_sessions(db: Reader, document: Document, session_ids: Iterable[int]) -> set[int]:
    """Sessions whose transcript shows the skill loaded (`read_filter`'s rule)."""
    ids = sorted(set(session_ids))
    read, params = read_filter(document)
    loaded: set[int] = set()
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join(f":s{i}" for i in range(len(chunk)))
        rows = db.rows(
            f"SELECT s.id FROM sessions s WHERE s.id IN ({marks}) AND {read}",
            {**params, **{f"s{i}": sid for i, sid in enumerate(chunk)}},
        )
        loaded.update(int(r[0]) for r in rows)
    return loaded


def link_sessions(
    db: Reader, document: Document, timeline: Sequence[Change], since: datetime | None = None
) -> list[LiveSession]:
    """Every main session of the document's project since `since`, with its version and
    whether its agent read the document."""
    sessions = project_sessions(db, document.project, since)
    loaded: set[int] = set()
    if document.kind == "skill":
        loaded = skill_loaded_sessions(db, document, (s for s, _src, _at in sessions))
    out = []
    for sid, source, at in sessions:
        exposure: Exposure
        if document.kind == "skill":
            exposure = "loaded" if sid in loaded else "not_loaded"
        elif _READERS.get(document.kind) == source:
            exposure = "every_session"
        else:
            exposure = "not_a_reader"
        out.append(LiveSession(sid, source, at, exposure, version_at(timeline, at)))
    return out


class EngineReader:
    """`rows(sql, params)` over a SQLAlchemy engine, for callers that hold one."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine

    def rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Sequence[Any]]:
        from sqlalchemy import text

        with self._engine.connect() as conn:
            return list(conn.execute(text(sql), params or {}).all())


def project_filter(db: Reader, project: str, alias: str = "s") -> tuple[str, dict[str, Any]]:
    """SQL for "a main session of this project (or below it)", its worktrees' sessions
    included: the paths recorded in them are listed (`sleepd.projects`)."""
    params: dict[str, Any] = {
        "project": project,
        "project_below": _like_escape(project.rstrip("/")) + "/%",
    }
    from sleepd.projects import recorded_paths

    marks = []
    for number, path in enumerate(recorded_paths(db, project, below=True)):
        params[f"wt{number}"] = path
        marks.append(f":wt{number}")
    linked = f" OR {alias}.project_path IN ({', '.join(marks)})" if marks else ""
    return (
        f"{alias}.kind <> 'subagent' AND ({alias}.project_path = :project "
        f"OR {alias}.project_path LIKE :project_below ESCAPE '\\'{linked})",
        params,
    )


def read_filter(
    document: Document, *, baseline_all_claude: bool = False
) -> tuple[str, dict[str, Any]]:
    """SQL for "this session's agent read the document" (session alias `s`), the same rule
    as `link_sessions`: AGENTS.md by Codex, CLAUDE.md by Claude Code, a skill when the
    transcript shows it loaded. `baseline_all_claude`: every Claude Code session (the
    baseline of an adoption that created the skill)."""
    if document.kind == "skill":
        if baseline_all_claude:
            return "s.source = 'claude'", {}
        name = _like_escape(document.skill_name)
        return (
            "EXISTS (SELECT 1 FROM events ev WHERE ev.session_id = s.id AND ("
            "(ev.kind = 'tool_call' AND ev.tool_name = 'Skill' AND (ev.text LIKE :skill_call "
            "ESCAPE '\\' OR ev.text LIKE :skill_plugin ESCAPE '\\')) "
            "OR (ev.role = 'user' AND ev.text LIKE :skill_typed ESCAPE '\\') "
            "OR (ev.kind = 'tool_call' AND ev.text LIKE :skill_file ESCAPE '\\')))",
            {
                "skill_call": f'%"skill":"{name}"%',
                "skill_plugin": f'%"skill":"%:{name}"%',
                "skill_typed": f"%<command-name>/{name}</command-name>%",
                "skill_file": f"%skills/{name}/SKILL.md%",
            },
        )
    reader = _READERS.get(document.kind)
    if reader is None:
        return "1 = 0", {}
    return "s.source = :reader", {"reader": reader}
