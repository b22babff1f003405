"""The exact stratified permutation test behind the gate.

Under a no-op edit, the rollouts of one task are exchangeable between baseline and candidate:
shuffling the labels inside a task leaves the world unchanged. The test statistic is a
precision-weighted sum of per-task deltas; its null distribution is the convolution of each
task's own label-shuffle distribution. We compute that convolution exactly while its support
stays small (binary scores: always), and fall back to a seeded Monte Carlo otherwise.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

# Weights never exceed 1 / (WEIGHT_VARIANCE_FLOOR * (1/nb + 1/nc)): one nearly constant task
# must not dominate the statistic.
WEIGHT_VARIANCE_FLOOR = 0.01
# Enumerate a task's label shuffles only up to this many; beyond, sample.
MAX_TASK_SHUFFLES = 5000
# Keep the exact convolution below this many distinct sums; beyond, sample.
MAX_EXACT_SUPPORT = 200_000
_ROUND = 9


@dataclass(frozen=True)
class TailProbabilities:
    """Both one-sided p-values of the observed statistic and how they were computed."""

    upper: float  # P(S >= observed): evidence of improvement
    lower: float  # P(S <= observed): evidence of harm
    exact: bool


@dataclass(frozen=True)
class _Task:
    scores: tuple[float, ...]  # baseline first, then candidate
    n_baseline: int
    weight: float

    def statistic(self, candidate_idx: Sequence[int]) -> float:
        total = sum(self.scores)
        cand = sum(self.scores[i] for i in candidate_idx)
        n_c = len(self.scores) - self.n_baseline
        return self.weight * (cand / n_c - (total - cand) / self.n_baseline)


def task_weight(pooled: Sequence[float], n_baseline: int, n_candidate: int) -> float:
    """Inverse of the delta's null variance; depends on pooled scores only (label-invariant)."""
    mean = sum(pooled) / len(pooled)
    var = sum((x - mean) ** 2 for x in pooled) / len(pooled)
    return 1.0 / (max(var, WEIGHT_VARIANCE_FLOOR) * (1 / n_baseline + 1 / n_candidate))


def stratified_test(
    tasks: Sequence[tuple[Sequence[float], Sequence[float]]],
    *,
    samples: int,
    seed: int,
) -> tuple[float, TailProbabilities]:
    """Weighted statistic and its exact (or sampled) tail probabilities.

    `tasks` holds (baseline scores, candidate scores) per task, each with at least one score.
    Returns (statistic normalised to a weighted mean delta, tails).
    """
    prepared = [
        _Task(tuple(b) + tuple(c), len(b), task_weight(tuple(b) + tuple(c), len(b), len(c)))
        for b, c in tasks
    ]
    prepared = [t for t in prepared if len(set(t.scores)) > 1]
    if not prepared:
        return 0.0, TailProbabilities(1.0, 1.0, True)
    observed = sum(t.statistic(range(t.n_baseline, len(t.scores))) for t in prepared)
    weight_sum = sum(t.weight for t in prepared)
    tails = _exact_tails(prepared, observed)
    if tails is None:
        tails = _sampled_tails(prepared, observed, samples, seed)
    return observed / weight_sum, tails


def _task_distribution(task: _Task) -> dict[float, float] | None:
    n = len(task.scores)
    n_c = n - task.n_baseline
    count = math.comb(n, n_c)
    if count > MAX_TASK_SHUFFLES:
        return None
    dist: dict[float, float] = {}
    for idx in itertools.combinations(range(n), n_c):
        value = round(task.statistic(idx), _ROUND)
        dist[value] = dist.get(value, 0.0) + 1.0 / count
    return dist


def _exact_tails(tasks: Sequence[_Task], observed: float) -> TailProbabilities | None:
    total: dict[float, float] = {0.0: 1.0}
    for task in tasks:
        dist = _task_distribution(task)
        if dist is None:
            return None
        merged: dict[float, float] = {}
        for s, p in total.items():
            for d, q in dist.items():
                key = round(s + d, _ROUND)
                merged[key] = merged.get(key, 0.0) + p * q
        if len(merged) > MAX_EXACT_SUPPORT:
            return None
        total = merged
    tol = 1e-7 * (1.0 + abs(observed))
    upper = sum(p for s, p in total.items() if s >= observed - tol)
    lower = sum(p for s, p in total.items() if s <= observed + tol)
    return TailProbabilities(min(1.0, upper), min(1.0, lower), True)


def _sampled_tails(
    tasks: Sequence[_Task], observed: float, samples: int, seed: int
) -> TailProbabilities:
    rng = random.Random(seed)
    tol = 1e-7 * (1.0 + abs(observed))
    above = below = 0
    for _ in range(samples):
        s = 0.0
        for task in tasks:
            n = len(task.scores)
            idx = rng.sample(range(n), n - task.n_baseline)
            s += task.statistic(idx)
        above += s >= observed - tol
        below += s <= observed + tol
    # (count + 1) / (samples + 1) keeps a sampled p-value valid.
    return TailProbabilities((above + 1) / (samples + 1), (below + 1) / (samples + 1), False)


def sign_test(deltas: Sequence[float]) -> TailProbabilities:
    """Exact binomial sign test over non-zero deltas (kept as the simpler alternative)."""
    pos = sum(1 for d in deltas if d > 0)
    neg = sum(1 for d in deltas if d < 0)
    n = pos + neg
    if n == 0:
        return TailProbabilities(1.0, 1.0, True)
    upper = sum(math.comb(n, k) for k in range(pos, n + 1)) / 2**n
    lower = sum(math.comb(n, k) for k in range(0, pos + 1)) / 2**n
    return TailProbabilities(upper, lower, True)
