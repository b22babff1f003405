"""Small statistical helpers the gate, the sequential plan and the forecast share.

One normal law (the standard library's `NormalDist`), one per-task exact test, and the
smallest lift a design can detect. Kept apart so no module reaches into another's privates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from sleepd.dream.permutation import stratified_test

NORMAL = NormalDist()


def norm_cdf(x: float) -> float:
    return NORMAL.cdf(x)


def norm_ppf(p: float) -> float:
    """The standard normal quantile; p is clipped away from 0 and 1 so it never raises."""
    return NORMAL.inv_cdf(min(max(p, 1e-15), 1.0 - 1e-15))


def obrien_fleming_spent(alpha: float, t: float) -> float:
    """Lan-DeMets O'Brien-Fleming-like spending function (one-sided): alpha spent by time t."""
    if t <= 0:
        return 0.0
    z = norm_ppf(1 - alpha / 2)
    return 2 * (1 - norm_cdf(z / math.sqrt(t)))


def task_harm_p(baseline: Sequence[float], candidate: Sequence[float], *, seed: int = 0) -> float:
    """One-sided exact p-value that this one task's candidate scores are lower.

    The labels of a task's rollouts are exchangeable under "no change", so the p-value is the
    share of label shuffles whose candidate mean is at most the observed one. Pass/fail scores
    use the hypergeometric law directly (Fisher's exact test); other scores go through the
    gate's permutation test with a single stratum.
    """
    nb, nc = len(baseline), len(candidate)
    if not nb or not nc:
        return 1.0
    pooled = list(baseline) + list(candidate)
    if all(x in (0.0, 1.0) for x in pooled):
        successes = int(sum(pooled))
        observed = int(sum(candidate))
        total = math.comb(nb + nc, nc)
        tail = sum(
            math.comb(successes, k) * math.comb(nb + nc - successes, nc - k)
            for k in range(max(0, nc - (nb + nc - successes)), observed + 1)
        )
        return min(1.0, tail / total)
    _, tails = stratified_test([(baseline, candidate)], samples=20_000, seed=seed)
    return tails.lower


def detectable_lift(
    n_tasks: int, rollouts: int, alpha: float, *, power: float = 0.8, base_rate: float = 0.5
) -> float | None:
    """The smallest lift on every task that a fixed design detects with `power`.

    Normal approximation to the gate's test on pass/fail scores: each task's delta has
    variance 2 p (1 - p) / rollouts, the mean over tasks divides it by the task count.
    p = 0.5 is the worst case, so the figure is conservative. None when nothing can be said.
    """
    if n_tasks < 1 or rollouts < 1 or not 0 < alpha < 1:
        return None
    variance = 2 * base_rate * (1 - base_rate) / (rollouts * n_tasks)
    return (norm_ppf(1 - alpha) + norm_ppf(power)) * math.sqrt(variance)
