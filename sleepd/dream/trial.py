"""The validation trial: baseline against each candidate, round by round.

Each round adds one fresh rollout per validation task to the baseline and to
every candidate still undecided; the sequential plan stops spending on a
candidate as soon as its outcome is settled. Rollout indices are offset per
night so a carried candidate is re-tested on fresh draws. The test split is
never passed in here: it is scored afterwards, for the report only.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from sleepd.dream.gate import GateDecision, GatePolicy, RetestScores, with_look
from sleepd.dream.reflect import CandidateEdit
from sleepd.dream.replay import Replayer, ReplayTask, Scores, merge_scores, scores_by_task
from sleepd.dream.retest import Draw, check_with_retests
from sleepd.dream.sequential import SequentialPlan

BASELINE = "baseline"
AA_ARM = "baseline-aa"
#: Rollout indices of the A/A arm are shifted so they are independent draws.
AA_INDEX_SHIFT = 50_000
#: Retest rollouts of suspect tasks start here, past every round's index and within the
#: night's stride of rollout indices (fresh draws, never another night's).
RETEST_INDEX_SHIFT = 300


@dataclass
class TrialResult:
    decisions: dict[str, GateDecision] = field(default_factory=dict)
    rounds_used: dict[str, int] = field(default_factory=dict)
    baseline: Scores = field(default_factory=dict)
    candidates: dict[str, Scores] = field(default_factory=dict)
    rollouts: int = 0
    fixed_design_rollouts: int = 0
    interrupted: bool = False
    #: Stopped for futility: rejected tonight, but not remembered as a bad edit.
    futile: set[str] = field(default_factory=set)
    #: Fresh rollouts spent on suspect tasks, per candidate (both arms).
    retests: dict[str, RetestScores] = field(default_factory=dict)


def run_trial(
    replayer: Replayer,
    tasks: Sequence[ReplayTask],
    base_document: str,
    candidates: Sequence[CandidateEdit],
    policy: GatePolicy,
    plan: SequentialPlan,
    *,
    index_offset: int,
    stop: threading.Event,
) -> TrialResult:
    result = TrialResult()
    if not candidates or not tasks:
        return result
    policies = {
        c.key: replace(with_look(policy, c.look), n_candidates=len(candidates)) for c in candidates
    }
    active = [c for c in candidates]
    result.candidates = {c.key: {} for c in candidates}
    result.fixed_design_rollouts = len(tasks) * plan.k_max * (len(candidates) + 1)
    last_steps: dict[str, GateDecision] = {}
    for round_ in range(1, plan.k_max + 1):
        if not active or stop.is_set() or _budget_stopped(replayer):
            result.interrupted = bool(active)
            break
        index = index_offset + round_ - 1
        base = replayer.run(tasks, base_document, BASELINE, [index])
        merge_scores(result.baseline, scores_by_task(base))
        result.rollouts += len(base)
        still_active = []
        for candidate in active:
            rolled = replayer.run(tasks, candidate.content, candidate.key, [index])
            result.rollouts += len(rolled)
            merge_scores(result.candidates[candidate.key], scores_by_task(rolled))
            before = result.retests.get(candidate.key, RetestScores())
            step, retests = check_with_retests(
                plan,
                result.baseline,
                result.candidates[candidate.key],
                round_,
                policies[candidate.key],
                _retest_draw(
                    replayer,
                    tasks,
                    base_document,
                    candidate,
                    index_offset
                    + RETEST_INDEX_SHIFT
                    + max((len(v) for v in before.candidate.values()), default=0),
                    stop,
                ),
                before,
            )
            result.retests[candidate.key] = retests
            result.rollouts += retests.rollouts - before.rollouts
            last_steps[candidate.key] = step.decision
            result.rounds_used[candidate.key] = round_
            if step.status == "futile":
                result.futile.add(candidate.key)
                result.decisions[candidate.key] = replace(
                    step.decision,
                    outcome="reject",
                    reason=f"futile after {round_} round(s): {step.decision.reason}",
                )
            elif step.settled:
                result.decisions[candidate.key] = step.decision
            else:
                still_active.append(candidate)
        active = still_active
    for candidate in active:  # stopped early (signal or budget): the evidence is what it is
        decision = last_steps.get(candidate.key)
        if decision is not None:
            result.decisions[candidate.key] = replace(
                decision,
                outcome="inconclusive",
                reason="the night stopped before the evidence settled; tried again next night",
            )
    return result


def run_calibration(
    replayer: Replayer,
    tasks: Sequence[ReplayTask],
    document: str,
    policy: GatePolicy,
    plan: SequentialPlan,
    *,
    index_offset: int,
    stop: threading.Event,
    baseline: Scores | None = None,
) -> tuple[GateDecision | None, int]:
    """A/A: the current document against itself; an accept here is a false accept."""
    baseline = {k: list(v) for k, v in (baseline or {}).items()}
    twin: Scores = {}
    rollouts = 0
    decision: GateDecision | None = None
    for round_ in range(1, plan.k_max + 1):
        if stop.is_set() or _budget_stopped(replayer):
            return None, rollouts
        index = index_offset + round_ - 1
        if sum(len(v) for v in baseline.values()) < round_ * len(tasks):
            base = replayer.run(tasks, document, BASELINE, [index])
            rollouts += len(base)
            merge_scores(baseline, scores_by_task(base))
        rolled = replayer.run(tasks, document, AA_ARM, [index + AA_INDEX_SHIFT])
        rollouts += len(rolled)
        merge_scores(twin, scores_by_task(rolled))
        trimmed = {k: v[:round_] for k, v in baseline.items()}
        step = plan.check(trimmed, twin, round_, replace(policy, n_candidates=1))
        decision = step.decision
        if step.settled:
            break
    return decision, rollouts


def _retest_draw(
    replayer: Replayer,
    tasks: Sequence[ReplayTask],
    base_document: str,
    candidate: CandidateEdit,
    first_index: int,
    stop: threading.Event,
) -> Draw:
    """Fresh rollouts of the named tasks under both documents; nothing once stopped."""
    by_id = {t.id: t for t in tasks}
    next_index = [first_index]

    def draw(task_ids: Sequence[str], n: int) -> tuple[Scores, Scores]:
        if stop.is_set() or _budget_stopped(replayer):
            return {}, {}
        chosen = [by_id[t] for t in task_ids if t in by_id]
        indices = list(range(next_index[0], next_index[0] + n))
        next_index[0] += n
        base = replayer.run(chosen, base_document, BASELINE, indices)
        cand = replayer.run(chosen, candidate.content, candidate.key, indices)
        return scores_by_task(base), scores_by_task(cand)

    return draw


def _budget_stopped(replayer: Replayer) -> bool:
    return replayer.target.stopped_by is not None or (
        replayer.judge is not None and replayer.judge.stopped_by is not None
    )
