"""Retests: fresh rollouts on the tasks whose drop is large but not yet significant.

At 3 rollouts per arm a task that falls from 3/3 to 1/3 is a large drop that its own test
cannot yet confirm. Rather than accept over it, or reject every edit for noise, the night
spends `policy.retest_step` more rollouts per arm on just those tasks (fresh seeds, both
arms) and decides again, until each such task is confirmed (reject), cleared, or has
`policy.retest_max_rollouts` per arm. Retests judge regressions only; the overall lift
stays decided on the first rollouts, so retests can only ever remove accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from sleepd.dream.gate import GateDecision, GatePolicy, RetestScores, Scores
from sleepd.dream.sequential import SequentialPlan, SequentialStep

Result = TypeVar("Result", GateDecision, SequentialStep)

#: Draw `n` fresh rollouts per arm for these task ids: (baseline, candidate) score tables.
#: Returning empty tables means no more rollouts can be had (budget or stop).
Draw = Callable[[Sequence[str], int], tuple[Scores, Scores]]


def settle_suspects(
    result: Result,
    policy: GatePolicy,
    check: Callable[[RetestScores], Result],
    draw: Draw,
    retests: RetestScores | None = None,
) -> tuple[Result, RetestScores]:
    """Retest until no task stands between the candidate and its outcome, or draws run out.

    `result` is a `decide` decision or a plan step; `check` recomputes it with the retests.
    """
    retests = retests or RetestScores()
    limit = 1 + policy.retest_max_rollouts // max(1, policy.retest_step)
    for _ in range(limit):
        pending = _decision(result).retest_tasks
        if not pending:
            break
        extra_b, extra_c = draw(pending, max(1, policy.retest_step))
        if not any(extra_b.values()) or not any(extra_c.values()):
            break
        retests = RetestScores(
            _merged(retests.baseline, extra_b), _merged(retests.candidate, extra_c)
        )
        result = check(retests)
    return result, retests


def decide_with_retests(
    baseline: Scores,
    candidate: Scores,
    policy: GatePolicy,
    draw: Draw,
    retests: RetestScores | None = None,
) -> tuple[GateDecision, RetestScores]:
    """`decide`, with the suspect tasks retested as needed."""
    from sleepd.dream.gate import decide

    first = decide(baseline, candidate, policy, retests=retests)
    return settle_suspects(
        first, policy, lambda r: decide(baseline, candidate, policy, retests=r), draw, retests
    )


def check_with_retests(
    plan: SequentialPlan,
    baseline: Scores,
    candidate: Scores,
    round_: int,
    policy: GatePolicy,
    draw: Draw,
    retests: RetestScores | None = None,
) -> tuple[SequentialStep, RetestScores]:
    """`plan.check` after round `round_`, with the suspect tasks retested as needed.

    A step still waiting for retests when draws run out goes on to the next round (or, at
    the last round, ends inconclusive): it is never an accept.
    """
    step = plan.check(baseline, candidate, round_, policy, retests=retests)
    step, retests = settle_suspects(
        step,
        policy,
        lambda r: plan.check(baseline, candidate, round_, policy, retests=r),
        draw,
        retests,
    )
    if step.status == "retest" and round_ == plan.k_max:
        step = SequentialStep("inconclusive", step.decision, round_)
    return step, retests


def _decision(result: GateDecision | SequentialStep) -> GateDecision:
    return result.decision if isinstance(result, SequentialStep) else result


def _merged(into: Scores, more: Scores) -> dict[str, list[float | None]]:
    out = {k: list(v) for k, v in into.items()}
    for task, scores in more.items():
        out.setdefault(task, []).extend(scores)
    return out
