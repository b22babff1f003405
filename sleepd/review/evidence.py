"""The evidence behind a proposal: per-task scores, example trajectories, source sessions.

Read from the rollouts the night stored (baseline: same night, no candidate, the
base document's hash; after: the proposal's candidate); a night that stored only
the gate's own per-task table is shown from `gate_decisions.detail` instead.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.review.queue import load_proposal
from sleepd.store.engine import read_session
from sleepd.store.models import GateDecisionRecord, Proposal, Rollout, Task
from sleepd.store.models import Session as TranscriptSession

EXAMPLE_CHARS = 1200


@dataclass(frozen=True)
class TaskScores:
    task_id: int
    split: str
    intent: str
    before: float | None
    after: float | None
    before_n: int
    after_n: int


@dataclass(frozen=True)
class Example:
    rollout_id: int
    task_id: int
    score: float | None
    output: str


@dataclass(frozen=True)
class GateFigures:
    """How the gate decided: the level, the looks, the rounds and retests it used."""

    outcome: str | None = None
    p_value: float | None = None
    alpha_used: float | None = None  # the level this decision was made at
    alpha: float | None = None  # the policy's overall level before looks and candidates
    look: int | None = None
    max_looks: int | None = None
    rounds: int | None = None
    retest_rollouts: int = 0
    regressed_tasks: tuple[str, ...] = ()


@dataclass(frozen=True)
class EditAblation:
    """One edit (or clause) of a multi-edit candidate, judged by leaving it out."""

    text: str
    contribution: float | None  # mean(full) - mean(without this edit); > 0: it helps
    p_harm: float | None  # one-sided p that the document is better without it
    rollouts: int
    verdict: str  # kept | cut


@dataclass(frozen=True)
class TestsRow:
    """Tools-mode replay of one task by one agent: the project's tests before and after."""

    __test__ = False

    task_id: int
    consumer: str
    command: str
    at_commit: str
    targets: list[str]
    before: str
    after: str
    before_pass: int
    before_n: int
    after_pass: int
    after_n: int
    fidelity: float | None


@dataclass
class Evidence:
    proposal_id: int
    tasks: list[TaskScores] = field(default_factory=list)
    failing: Example | None = None
    passing: Example | None = None
    sessions: list[dict[str, Any]] = field(default_factory=list)
    gate_reason: str = ""
    provenance: dict[str, Any] = field(default_factory=dict)
    gate: GateFigures = field(default_factory=GateFigures)
    ablation: list[EditAblation] = field(default_factory=list)
    tests: list[TestsRow] = field(default_factory=list)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _rollout_score(r: Rollout) -> float:
    if r.score is not None:
        return r.score
    return 1.0 if r.success else 0.0


def _rollouts(db: Session, proposal: Proposal) -> tuple[list[Rollout], list[Rollout]]:
    """The baseline's and the candidate's rollouts on the tasks the candidate was run on.

    The baseline is the document the night replayed, which for a new document is its
    scaffold, not the empty file the proposal's base hash names: the night records that
    hash in the provenance. The A/A twin arm is not a baseline.
    """
    if proposal.night_id is None or proposal.candidate_id is None:
        return [], []
    provenance = proposal.provenance or {}
    hashes = {proposal.base_hash}
    if isinstance(provenance.get("baseline_hash"), str):
        hashes.add(provenance["baseline_hash"])
    after = list(db.scalars(select(Rollout).where(Rollout.candidate_id == proposal.candidate_id)))
    tasks = {r.task_id for r in after}
    before = [
        r
        for r in db.scalars(
            select(Rollout).where(
                Rollout.night_id == proposal.night_id,
                Rollout.candidate_id.is_(None),
                Rollout.document_hash.in_(hashes),
            )
        )
        if r.task_id in tasks and not (r.arm or "").startswith("baseline-aa")
    ]
    if not before and after:
        # An older proposal of a document the night created names the empty file as its
        # base and kept no baseline hash: the same night's baseline rollouts of the same
        # tasks are the comparison the gate made.
        before = [
            r
            for r in db.scalars(
                select(Rollout).where(
                    Rollout.night_id == proposal.night_id,
                    Rollout.candidate_id.is_(None),
                    Rollout.task_id.in_(sorted(tasks)),
                )
            )
            if not (r.arm or "").startswith("baseline-aa")
        ]
    return before, after


def _gate_figures(record: GateDecisionRecord) -> GateFigures:
    detail = record.detail or {}
    return GateFigures(
        outcome=record.outcome,
        p_value=record.p_value,
        alpha_used=record.alpha if record.alpha is not None else detail.get("alpha_used"),
        alpha=detail.get("alpha"),
        look=record.look,
        max_looks=detail.get("max_looks"),
        rounds=record.rounds,
        retest_rollouts=int(detail.get("retest_rollouts") or 0),
        regressed_tasks=tuple(str(t) for t in detail.get("regressed_tasks") or ()),
    )


def _ablation(provenance: dict[str, Any]) -> list[EditAblation]:
    rows = provenance.get("ablation") or []
    out = []
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict):
            out.append(
                EditAblation(
                    text=str(row.get("text", "")),
                    contribution=row.get("contribution"),
                    p_harm=row.get("p_harm"),
                    rollouts=int(row.get("rollouts") or 0),
                    verdict=str(row.get("verdict", "")),
                )
            )
    return out


def _task_table(db: Session, before: list[Rollout], after: list[Rollout]) -> list[TaskScores]:
    scores: dict[int, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    for r in before:
        scores[r.task_id][0].append(_rollout_score(r))
    for r in after:
        scores[r.task_id][1].append(_rollout_score(r))
    tasks = {t.id: t for t in db.scalars(select(Task).where(Task.id.in_(list(scores))))}
    table = []
    for task_id, (b, a) in sorted(scores.items()):
        task = tasks.get(task_id)
        table.append(
            TaskScores(
                task_id=task_id,
                split=task.split if task else "?",
                intent=(task.intent if task else "")[:80],
                before=_mean(b),
                after=_mean(a),
                before_n=len(b),
                after_n=len(a),
            )
        )
    return table


def _gate_table(detail: dict[str, Any]) -> list[TaskScores]:
    rows = detail.get("per_task") or detail.get("tasks") or []
    table = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict) or "task_id" not in row:
            continue
        table.append(
            TaskScores(
                task_id=int(row["task_id"]),
                split=str(row.get("split", "val")),
                intent=str(row.get("intent", ""))[:80],
                before=row.get("before"),
                after=row.get("after"),
                before_n=int(row.get("before_n", 0)),
                after_n=int(row.get("after_n", 0)),
            )
        )
    return table


def _tests_text(figures: dict[str, Any]) -> str:
    if not isinstance(figures, dict) or figures.get("exit") is None:
        return "did not run"
    failed = figures.get("failed")
    passed = figures.get("passed")
    if failed is None:
        return f"exit {figures.get('exit')}"
    return f"{passed} passed, {failed} failed"


def _tests_table(db: Session, before: list[Rollout], after: list[Rollout]) -> list[TestsRow]:
    """Per task and agent: tests at the commit, and how often they passed in each arm."""
    from sleepd.store.models import TaskReplaySite

    cells: dict[tuple[int, str], dict[str, Any]] = {}
    for arm, rollouts in (("before", before), ("after", after)):
        for r in rollouts:
            detail = r.judge_detail or {}
            if detail.get("mode") != "tools" or "tests_after" not in detail:
                continue
            key = (r.task_id, str(detail.get("consumer", "")))
            cell = cells.setdefault(
                key,
                {
                    "command": str(detail["tests_after"].get("command", "")),
                    "at_commit": _tests_text(detail.get("tests_before") or {}),
                    "targets": [str(t) for t in detail.get("targets") or []][:5],
                    "before": [],
                    "after": [],
                },
            )
            cell[arm].append((bool(r.success), _tests_text(detail["tests_after"])))
    fidelity = dict(
        db.execute(
            select(TaskReplaySite.task_id, TaskReplaySite.fidelity).where(
                TaskReplaySite.task_id.in_([k[0] for k in cells] or [-1])
            )
        ).all()
    )
    rows = []
    for (task_id, consumer), cell in sorted(cells.items()):
        b, a = cell["before"], cell["after"]
        if not a:
            continue  # a training task: only the current document was replayed
        rows.append(
            TestsRow(
                task_id=task_id,
                consumer=consumer,
                command=cell["command"],
                at_commit=cell["at_commit"],
                targets=cell["targets"],
                before=b[-1][1] if b else "-",
                after=a[-1][1] if a else "-",
                before_pass=sum(ok for ok, _ in b),
                before_n=len(b),
                after_pass=sum(ok for ok, _ in a),
                after_n=len(a),
                fidelity=fidelity.get(task_id),
            )
        )
    return rows


def _example(rollouts: list[Rollout], *, best: bool) -> Example | None:
    if not rollouts:
        return None
    if best:  # the highest score, the earliest rollout among equals
        chosen = max(rollouts, key=lambda r: (_rollout_score(r), -r.id))
    else:
        chosen = min(rollouts, key=lambda r: (_rollout_score(r), r.id))
    return Example(chosen.id, chosen.task_id, chosen.score, chosen.output[:EXAMPLE_CHARS])


def _sessions(db: Session, provenance: dict[str, Any]) -> list[dict[str, Any]]:
    refs = provenance.get("sessions") or []
    out: list[dict[str, Any]] = []
    for ref in refs if isinstance(refs, list) else []:
        session_id = ref.get("id") if isinstance(ref, dict) else ref
        row = db.get(TranscriptSession, session_id) if isinstance(session_id, int) else None
        if row is None:
            out.append(ref if isinstance(ref, dict) else {"id": ref})
            continue
        out.append(
            {
                "id": row.id,
                "source": row.source,
                "external_id": row.external_id,
                "project": row.project_path,
                "title": row.title,
                "started_at": row.started_at.isoformat() if row.started_at else None,
            }
        )
    return out


def gather_evidence(engine: Engine, proposal_id: int) -> Evidence:
    with read_session(engine) as db:
        proposal, _document = load_proposal(db, proposal_id)
        evidence = Evidence(proposal_id=proposal_id, provenance=dict(proposal.provenance or {}))
        before, after = _rollouts(db, proposal)
        evidence.tasks = _task_table(db, before, after)
        evidence.tests = _tests_table(db, before, after)
        if proposal.candidate_id is not None:
            decision = db.scalars(
                select(GateDecisionRecord)
                .where(GateDecisionRecord.candidate_id == proposal.candidate_id)
                .order_by(GateDecisionRecord.id.desc())
                .limit(1)
            ).first()
            if decision is not None:
                evidence.gate_reason = decision.reason
                evidence.gate = _gate_figures(decision)
                if not evidence.tasks:
                    evidence.tasks = _gate_table(decision.detail or {})
        evidence.failing = _example(before, best=False)
        evidence.passing = _example(after, best=True)
        evidence.sessions = _sessions(db, evidence.provenance)
        evidence.ablation = _ablation(evidence.provenance)
        return evidence
