"""What a night found behind a proposal, as a reader needs it: the recurring tasks
whose failures the optimizer read, the failure patterns seen in those tasks' history
(each with counts and one example), the edits, and the gate's figures for one
sentence. Data only; `sleepd.review.render` draws it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from sleepd.mining.signatures import tool_label
from sleepd.review.queue import load_proposal
from sleepd.store.engine import read_session
from sleepd.store.models import FailurePattern, PatternOccurrence, Rollout, Task, TaskCluster

#: How many of each kind the story names (the rest are counted).
SHOWN = 5
EXAMPLE_CHARS = 160


@dataclass(frozen=True)
class RecurringTask:
    intent: str
    asked: int  # episodes in its cluster: how often the request came up
    sessions: int
    failing_rollouts: int  # tonight's failing train replays that the optimizer read
    example: str


@dataclass(frozen=True)
class PatternSeen:
    signature: str
    count: int  # all occurrences ever mined
    in_these_tasks: int  # occurrences in the episodes behind these tasks
    example: str
    tool: str = ""


@dataclass(frozen=True)
class EditSummary:
    op: str
    anchor: str
    text: str


@dataclass
class Story:
    proposal_id: int
    tasks: list[RecurringTask] = field(default_factory=list)
    more_tasks: int = 0
    patterns: list[PatternSeen] = field(default_factory=list)
    more_patterns: int = 0
    edits: list[EditSummary] = field(default_factory=list)
    rationale: str = ""
    outcome: str = ""
    p_value: float | None = None
    alpha_used: float | None = None
    n_informative: int | None = None
    n_tasks: int | None = None
    regressed: list[str] = field(default_factory=list)


def _clip(text: str, limit: int = EXAMPLE_CHARS) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _edits(provenance: dict[str, Any]) -> list[EditSummary]:
    raw = provenance.get("edits")
    out = []
    for edit in raw if isinstance(raw, list) else []:
        if isinstance(edit, dict):
            out.append(
                EditSummary(
                    str(edit.get("op", "?")), str(edit.get("anchor", "")), str(edit.get("text", ""))
                )
            )
    return out


def _ints(value: Any) -> list[int]:
    return [v for v in value if isinstance(v, int)] if isinstance(value, list) else []


def gather_story(engine: Engine, proposal_id: int) -> Story:
    with read_session(engine) as db:
        proposal, _document = load_proposal(db, proposal_id)
        provenance = dict(proposal.provenance or {})
        gate = dict(proposal.gate or {})
        story = Story(
            proposal_id=proposal_id,
            edits=_edits(provenance),
            rationale=str(provenance.get("rationale") or ""),
            outcome=str(gate.get("outcome", "")),
            p_value=proposal.p_value,
            alpha_used=gate.get("alpha_used", gate.get("alpha")),
            n_informative=gate.get("n_informative"),
            n_tasks=gate.get("n_tasks"),
            regressed=[str(t) for t in gate.get("regressed_tasks") or []],
        )
        failing = Counter(
            task_id
            for (task_id,) in db.execute(
                select(Rollout.task_id).where(Rollout.id.in_(_ints(provenance.get("trajectories"))))
            )
        )
        if not failing:  # older proposals: the train tasks replayed that night
            tasks = db.scalars(
                select(Task).where(
                    Task.id.in_(_ints(provenance.get("tasks"))), Task.split == "train"
                )
            )
            failing = Counter({t.id: 0 for t in tasks})
        rows = db.execute(
            select(Task, TaskCluster)
            .outerjoin(TaskCluster, TaskCluster.id == Task.cluster_id)
            .where(Task.id.in_(list(failing)))
            .order_by(Task.id)
        ).all()
        by_cluster: dict[Any, list[tuple[Task, TaskCluster | None]]] = {}
        for row_task, row_cluster in rows:
            key = row_cluster.id if row_cluster else ("task", row_task.id)
            by_cluster.setdefault(key, []).append((row_task, row_cluster))
        recurring = []
        for members in by_cluster.values():
            task, cluster = members[0][0], members[0][1]
            recurring.append(
                RecurringTask(
                    intent=_clip(cluster.representative_intent if cluster else task.intent),
                    asked=cluster.size if cluster else 1,
                    sessions=cluster.session_count if cluster else 1,
                    failing_rollouts=sum(failing[t.id] for t, _c in members),
                    example=_clip(task.intent),
                )
            )
        recurring.sort(key=lambda r: (-r.failing_rollouts, -r.asked, r.intent))
        story.tasks, story.more_tasks = recurring[:SHOWN], max(0, len(recurring) - SHOWN)
        episodes = [t.episode_id for t, _c in rows if t.episode_id is not None]
        if episodes:
            counted = db.execute(
                select(FailurePattern, func.count(PatternOccurrence.id))
                .join(PatternOccurrence, PatternOccurrence.pattern_id == FailurePattern.id)
                .where(PatternOccurrence.episode_id.in_(episodes))
                .group_by(FailurePattern.id)
                .order_by(func.count(PatternOccurrence.id).desc(), FailurePattern.id)
            ).all()
            seen = [
                PatternSeen(
                    _clip(p.signature),
                    int(p.count),
                    int(n),
                    _clip(p.example),
                    tool_label(p.tool_name) or "",
                )
                for p, n in counted
            ]
            story.patterns, story.more_patterns = seen[:SHOWN], max(0, len(seen) - SHOWN)
        return story


def decision_sentence(story: Story, val_lift: float | None, test_lift: float | None) -> str:
    """The gate's decision in one sentence of plain words."""
    lift = "—" if val_lift is None else f"{val_lift:+.2f}"
    p = "—" if story.p_value is None else f"{story.p_value:.2g}"
    alpha = "—" if story.alpha_used is None else f"{story.alpha_used:.2g}"
    tasks = (
        f" over {story.n_informative} informative validation tasks"
        if story.n_informative is not None
        else ""
    )
    sealed = "" if test_lift is None else f"; on the sealed test tasks it scored {test_lift:+.2f}"
    if story.outcome == "accept":
        return (
            f"Accepted for your review: with the edit, validation tasks scored {lift} higher "
            f"on average{tasks}; an edit that changes nothing would score this well by chance "
            f"with probability {p}, below the {alpha} the gate allows (alpha used), and no task "
            f"got clearly worse{sealed}."
        )
    if story.outcome == "reject":
        worse = (
            f" (tasks {', '.join(story.regressed)} got clearly worse)" if story.regressed else ""
        )
        return f"Rejected: validation lift {lift}{tasks}, p = {p}{worse}{sealed}."
    return (
        f"Not decided yet (inconclusive): validation lift {lift}{tasks}, p = {p} against "
        f"the {alpha} allowed; it gets another look with fresh rollouts{sealed}."
    )
