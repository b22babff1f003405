"""Keep the managed region lean: measure each learned rule, propose deleting dead weight.

A rule earned its place on the night it was adopted; the project, the model and the other
rules have moved since. Each night (with `watch.prune_rules`) measures the leave-one-out
contribution of up to `watch.max_rules_measured` learned rules, least recently measured
first: the validation tasks replayed under the document without the rule, on fresh
rollouts, against the document as it is (the night's own baseline rollouts); the
contribution is mean(with) - mean(without) over tasks, the same figure as
`ablation.contribution`. Every measurement is stored on the rule (`sleepd rules`).

Rules whose contribution has vanished (not above zero), and, while the region is over
`watch.region_budget_chars`, the weakest measured rules until it fits, become one
deletion candidate. It is gated like any edit, on fresh paired rollouts with retests of
suspect tasks and per-task no-regression, with one difference stated in the policy: the
hypothesis is non-inferiority (`min_lift = -watch.deletion_margin`): a deletion passes
when the document without those rules is significantly no worse than the margin, never
on "nothing changed". A deletion that passes is staged in the same review queue as any
proposal (a person decides; it is never auto-adopted). One that does not is rejected for
tonight, not carried: the rules are measured afresh next time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.engine import Engine

from sleepd.documents.edits import Edit
from sleepd.dream.ablation import contribution, regate_pruned
from sleepd.dream.gate import GateDecision, GatePolicy
from sleepd.dream.reflect import CandidateEdit, fingerprint
from sleepd.dream.replay import Replayer, ReplayTask, Scores, scores_by_task
from sleepd.dream.targets import PreparedTarget
from sleepd.store.engine import write_session
from sleepd.watch.rules import document_without, measurable_rules, record_contribution, region_text


@dataclass
class PruneResult:
    measured: list[dict[str, Any]] = field(default_factory=list)
    proposed: list[int] = field(default_factory=list)  # rule ids in the deletion candidate
    candidate: CandidateEdit | None = None
    decision: GateDecision | None = None
    rollouts: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "measured": self.measured,
            "proposed_for_deletion": self.proposed,
            "decision": None if self.decision is None else self.decision.outcome,
            "reason": None if self.decision is None else self.decision.reason,
            "rollouts": self.rollouts,
        }


def deletion_policy(policy: GatePolicy, margin: float) -> GatePolicy:
    """The gate's policy for a deletion: non-inferiority at `margin`, one look."""
    return replace(policy, min_lift=-margin, look=1, max_looks=1, n_candidates=1)


def stale_rules(
    measured: Sequence[tuple[int, str, float | None]], region_size: int, budget: int
) -> list[tuple[int, str]]:
    """Rules whose contribution vanished, then the weakest until the region fits."""
    chosen = [(rid, text) for rid, text, c in measured if c is not None and c <= 0]
    size = region_size - sum(len(text) + 1 for _rid, text in chosen)
    for rid, text, _c in sorted(
        (m for m in measured if m[2] is not None and m[2] > 0), key=lambda m: m[2] or 0.0
    ):
        if size <= budget:
            break
        chosen.append((rid, text))
        size -= len(text) + 1
    return chosen


def measure_rules(
    engine: Engine,
    cfg: Any,
    night_id: int,
    replayer: Replayer,
    val: Sequence[ReplayTask],
    target: PreparedTarget,
    baseline: Scores,
    *,
    index_offset: int,
) -> PruneResult:
    """Measure learned rules; the deletion candidate of the stale ones, if any."""
    result = PruneResult()
    editable = target.spec.editable
    content = target.working_content
    with write_session(engine) as db:
        rules = measurable_rules(
            db, target.document_id, content, editable, cfg.watch.max_rules_measured
        )
    if not rules or not val:
        return result
    k = cfg.dream.rollouts_per_task
    indices = list(range(index_offset, index_offset + k))
    measured: list[tuple[int, str, float | None]] = []
    for rule_id, text in rules:
        reduced = document_without(content, editable, [text])
        rolled = replayer.run(val, reduced, f"rule-{rule_id}"[:32], indices)
        result.rollouts += len(rolled)
        value = contribution(baseline, scores_by_task(rolled))
        measured.append((rule_id, text, value))
        with write_session(engine) as db:
            record_contribution(db, rule_id, value, night_id)
        result.measured.append(
            {"rule_id": rule_id, "contribution": None if value is None else round(value, 4)}
        )
    stale = stale_rules(
        measured, len(region_text(content, editable)), cfg.watch.region_budget_chars
    )
    if not stale:
        return result
    result.proposed = [rid for rid, _text in stale]
    texts = [text for _rid, text in stale]
    edits = [Edit("delete", text) for text in texts]
    candidate = CandidateEdit(
        key=f"prune-{night_id}",
        content=document_without(content, editable, texts),
        edits=edits,
        rationale=(
            f"delete {len(texts)} learned rule(s) whose leave-one-out contribution vanished "
            "(or that no longer fit the region's size budget)"
        ),
        fingerprint=fingerprint(edits),
    )
    result.candidate = candidate
    return result


def gate_deletion(
    cfg: Any,
    replayer: Replayer,
    val: Sequence[ReplayTask],
    content: str,
    candidate: CandidateEdit,
    policy: GatePolicy,
    *,
    index_offset: int,
) -> tuple[GateDecision, int]:
    """The deletion against the document as it is, on fresh paired rollouts, suspects
    retested, at the non-inferiority margin (see the module docstring)."""
    return regate_pruned(
        replayer,
        val,
        content,
        candidate,
        deletion_policy(policy, cfg.watch.deletion_margin),
        rollouts_per_task=cfg.dream.rollouts_per_task,
        index_offset=index_offset,
    )
