"""Every edit earns its place: leave-one-out ablation of a multi-edit candidate.

The gate judges a candidate as a whole, so a helpful rule can carry a harmful one past it
("…create a feature branch first. Leave formatting of touched files to the reviewer.").
Before a candidate of several units is staged (a unit is one edit, or one clause of an
edit's added text), the night replays the validation tasks under the full candidate and
under the candidate without each unit in turn, on fresh rollouts. A unit whose removal
leaves the document no worse (its contribution, full minus without, is not above zero) has
not earned its place and is cut. What is left is gated again against the baseline on
fresh rollouts before it may be staged; if nothing is left, or the rest does not pass,
the candidate is rejected. The figures go into the proposal's evidence.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from sleepd.documents.edits import Edit, EditBudget, apply_edits
from sleepd.documents.targets import Editable
from sleepd.dream.gate import GateDecision, GatePolicy, gather
from sleepd.dream.reflect import CandidateEdit, fingerprint
from sleepd.dream.replay import Replayer, ReplayTask, Scores, scores_by_task

#: Sentence ends inside one line of added text: ". " before a capital, a bullet or a quote.
_CLAUSE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z`\"'(*-])")
_UNLIMITED = EditBudget(max_edits=1000, max_chars=10**9)


@dataclass(frozen=True)
class Unit:
    """One edit, or one clause of an edit's added text."""

    edit: int
    clause: int | None  # None: the whole edit
    text: str


@dataclass(frozen=True)
class UnitFigures:
    text: str
    contribution: float | None  # mean(full) - mean(without the unit), per-task means
    p_harm: float | None  # one-sided p that the document is better without the unit
    rollouts: int
    verdict: str  # "kept" or "cut"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class AblationResult:
    units: list[UnitFigures] = field(default_factory=list)
    kept: list[Edit] = field(default_factory=list)  # the edits with the cut units removed
    pruned: CandidateEdit | None = None  # None: nothing was cut
    rollouts: int = 0
    interrupted: bool = False

    @property
    def cut(self) -> list[UnitFigures]:
        return [u for u in self.units if u.verdict == "cut"]


def clauses(text: str) -> list[str]:
    """The clauses of an edit's added text: its lines, each split at sentence ends."""
    out: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        out.extend(part for part in _CLAUSE_END.split(line) if part.strip())
    return out or [text]


def units_of(edits: Sequence[Edit]) -> list[Unit]:
    """Units an ablation judges: each clause of added text, each delete as a whole."""
    units: list[Unit] = []
    for i, edit in enumerate(edits):
        parts = clauses(edit.text) if edit.op in ("add", "append") else [edit.text]
        if len(parts) == 1:
            units.append(Unit(i, None, edit.text or edit.anchor))
        else:
            units.extend(Unit(i, j, part) for j, part in enumerate(parts))
    return units


def without(edits: Sequence[Edit], unit: Unit) -> list[Edit]:
    """The edits with `unit` left out (a clause removed from its edit's text)."""
    out: list[Edit] = []
    for i, edit in enumerate(edits):
        if i != unit.edit:
            out.append(edit)
        elif unit.clause is not None:
            parts = clauses(edit.text)
            rest = _join([p for j, p in enumerate(parts) if j != unit.clause], edit.text)
            if rest.strip():
                out.append(replace(edit, text=rest))
    return out


def remaining(edits: Sequence[Edit], cut: Sequence[Unit]) -> list[Edit]:
    """The edits once every cut unit is left out (an edit with no clause left goes)."""
    out: list[Edit] = []
    for i, edit in enumerate(edits):
        gone = [u for u in cut if u.edit == i]
        if any(u.clause is None for u in gone):
            continue
        if gone:
            dropped = {u.clause for u in gone}
            parts = [p for j, p in enumerate(clauses(edit.text)) if j not in dropped]
            if not parts:
                continue
            edit = replace(edit, text=_join(parts, edit.text))
        out.append(edit)
    return out


def _join(parts: list[str], original: str) -> str:
    """Clauses back into text: on one line when the original was one line."""
    return ("\n" if "\n" in original.strip("\n") else " ").join(p.strip() for p in parts)


def document_with(base: str, edits: Sequence[Edit], editable: Editable) -> str | None:
    """The base document with these edits, or None when one no longer applies."""
    if not edits:
        return base
    result = apply_edits(base, list(edits), editable=editable, budget=_UNLIMITED)
    return result.content if not result.rejected else None


def task_means(scores: Scores) -> dict[str, float]:
    out = {}
    for task, values in scores.items():
        xs = [x for x in values if x is not None]
        if xs:
            out[task] = sum(xs) / len(xs)
    return out


def contribution(full: Scores, reduced: Scores) -> float | None:
    """Mean over tasks of mean(full) - mean(reduced), on tasks scored in both."""
    f, r = task_means(full), task_means(reduced)
    common = sorted(set(f) & set(r))
    if not common:
        return None
    return sum(f[t] - r[t] for t in common) / len(common)


def run_ablation(
    replayer: Replayer,
    tasks: Sequence[ReplayTask],
    base_document: str,
    candidate: CandidateEdit,
    editable: Editable,
    policy: GatePolicy,
    *,
    rollouts_per_task: int,
    index_offset: int,
    stop: threading.Event,
) -> AblationResult:
    """Leave each unit out in turn; cut those that do not earn their place."""
    result = AblationResult(kept=list(candidate.edits))
    units = units_of(candidate.edits)
    if len(units) < 2 or not tasks:
        return result
    indices = list(range(index_offset, index_offset + rollouts_per_task))
    full_rollouts = replayer.run(tasks, candidate.content, f"{candidate.key}-full", indices)
    result.rollouts += len(full_rollouts)
    full = scores_by_task(full_rollouts)
    cut: list[Unit] = []
    for unit in units:
        if stop.is_set():
            result.interrupted = True
            return result
        reduced_doc = document_with(base_document, without(candidate.edits, unit), editable)
        if reduced_doc is None:
            result.units.append(UnitFigures(unit.text, None, None, 0, "kept"))
            continue
        arm = f"{candidate.key}-w{unit.edit}.{unit.clause if unit.clause is not None else 'all'}"
        rolled = replayer.run(tasks, reduced_doc, arm[:32], indices)
        result.rollouts += len(rolled)
        reduced = scores_by_task(rolled)
        lift = contribution(full, reduced)
        # "Is the document better without this unit?": the gate's own exact test.
        p_better_without = gather(full, reduced, policy).improve.upper
        earns = lift is not None and lift > 0
        result.units.append(
            UnitFigures(
                unit.text,
                None if lift is None else round(lift, 4),
                round(p_better_without, 4),
                len(rolled),
                "kept" if earns or lift is None else "cut",
            )
        )
        if lift is not None and not earns:
            cut.append(unit)
    if not cut:
        return result
    kept = remaining(candidate.edits, cut)
    result.kept = kept
    content = document_with(base_document, kept, editable) if kept else None
    if content is not None and content != base_document:
        result.pruned = replace(
            candidate,
            key=f"{candidate.key}-pruned",
            content=content,
            edits=kept,
            fingerprint=fingerprint(kept),
        )
    return result


def regate_pruned(
    replayer: Replayer,
    tasks: Sequence[ReplayTask],
    base_document: str,
    pruned: CandidateEdit,
    policy: GatePolicy,
    *,
    rollouts_per_task: int,
    index_offset: int,
) -> tuple[GateDecision, int]:
    """The pruned document against the baseline on fresh rollouts, suspects retested."""
    from sleepd.dream.retest import decide_with_retests

    indices = list(range(index_offset, index_offset + rollouts_per_task))
    base = replayer.run(tasks, base_document, "baseline", indices)
    cand = replayer.run(tasks, pruned.content, pruned.key[:32], indices)
    by_id = {t.id: t for t in tasks}
    extra = [index_offset + rollouts_per_task]

    def draw(task_ids: Sequence[str], n: int) -> tuple[Scores, Scores]:
        chosen = [by_id[t] for t in task_ids if t in by_id]
        more = list(range(extra[0], extra[0] + n))
        extra[0] += n
        b = replayer.run(chosen, base_document, "baseline", more)
        c = replayer.run(chosen, pruned.content, pruned.key[:32], more)
        return scores_by_task(b), scores_by_task(c)

    decision, retests = decide_with_retests(
        scores_by_task(base), scores_by_task(cand), policy, draw
    )
    return decision, len(base) + len(cand) + retests.rollouts
