"""The exact stratified permutation test behind the gate.

Under a no-op edit, the rollouts of one task are exchangeable between baseline and candidate:
shuffling the labels inside a task leaves the world unchanged. The test statistic is a
precision-weighted sum of per-task deltas; its null distribution is the convolution of each
task's own label-shuffle distribution.

How that stays cheap as tasks and rollouts grow:

* A task's term is w * (mean(cand) - mean(base)) = a * X + const, where X is the sum of the
  scores labelled candidate and a = 1 / max(pooled variance, floor). Only X moves under a
  shuffle, and the statistic's distribution is that of a sum of independent parts.
* On a grid: when every score is a multiple of 1/Q for a small Q (binary scores, shares of a
  few checks, either shifted by `min_lift`), X = Y / Q with an integer Y and a is rational, so
  once scaled by the common denominator the statistic is an integer Z = sum(c_t * Y_t). Each
  task's distribution of Y is counted exactly (a subset-sum count, no listing of shuffles);
  tasks sharing a coefficient are added by integer convolution into one part.
* Off the grid, each task is one part, its shuffles listed (up to MAX_TASK_SHUFFLES).
* The parts meet in the middle: split into halves A and B, list each half's distinct sums
  (merging equal ones), then P(A + B >= z) = sum_b P(B = b) * P(A >= z - b) from sorted suffix
  sums. On the grid, probability below TRIM_MASS in all is trimmed from the parts' far tails and
  added to both p-values, so they stay valid and equal the exact ones at float precision.
* Only when that would touch more than MAX_EXACT_WORK values (many parts with wide supports:
  scores off any small grid, or on a grid with many distinct weights) does the test switch to a
  seeded Monte Carlo: `samples` draws of every part, a (count + 1) / (samples + 1) p-value that
  is valid too, and `exact=False` in the result. The decision to switch is made before the
  work, step by step, so an infeasible exact test costs next to nothing.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

# Weights never exceed 1 / (WEIGHT_VARIANCE_FLOOR * (1/nb + 1/nc)): one nearly constant task
# must not dominate the statistic.
WEIGHT_VARIANCE_FLOOR = 0.01
# Off the grid, list a task's label shuffles only up to this many; beyond, sample.
MAX_TASK_SHUFFLES = 5000
# The exact test may touch at most this many values (about 0.1 s of numpy); beyond, sample.
MAX_EXACT_WORK = 12_000_000
# The largest grid denominator Q tried.
MAX_GRID = 1000
# Probability this small, in total, may be trimmed from the far tails (added to both p-values).
TRIM_MASS = 1e-18
_ROUND = 9  # off the grid, sums equal to 9 decimals are one sum
_GRID_TOLERANCE = 1e-9
_FLOOR = Fraction(str(WEIGHT_VARIANCE_FLOOR))  # the decimal the constant spells, exactly
_MAX_ABS_LATTICE = 2**60  # int64 arithmetic with room to spare
_CHUNK = 1_000_000  # values per numpy step when summing two supports
_MAX_COUNT_CELLS = 4_000_000  # the largest subset-sum table counted for one task
_DENSE_MAX = 4_000_000  # the widest span counted into an array
_SORT_COST = 8  # work per value merged by sorting, against 1 for counting into an array


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
    """Weighted statistic and its exact (or, past MAX_EXACT_WORK, sampled) tail probabilities.

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
    # Sums this close to the observed one count as ties (float noise is far smaller).
    tolerance = 1e-7 * (1.0 + abs(observed))
    parts = _grid_parts(prepared)
    if parts is None:
        parts = _listed_parts(prepared)
    tails = parts.exact_tails(tolerance)
    if tails is None:
        tails = _sampled_tails(parts.samplers, tolerance, samples, seed)
    return observed / weight_sum, tails


# A sampler draws `size` values of one part's statistic minus its observed value.
_Sampler = Callable[[Any, int], Any]


@dataclass(frozen=True)
class _Parts:
    """Independent parts of the statistic: exact tails when affordable, samplers always."""

    exact_tails: Callable[[float], TailProbabilities | None]
    samplers: list[_Sampler]


# --- on a grid ------------------------------------------------------------------------------


def _grid(scores: Sequence[float]) -> int | None:
    """The smallest Q <= MAX_GRID with every score a multiple of 1/Q, or None."""
    q = 1
    for x in set(scores):
        if not math.isfinite(x):
            return None
        fraction = Fraction(x).limit_denominator(MAX_GRID)
        if abs(float(fraction) - x) > _GRID_TOLERANCE:
            return None
        q = math.lcm(q, fraction.denominator)
        if q > MAX_GRID:
            return None
    return q


def _grid_parts(tasks: Sequence[_Task]) -> _Parts | None:
    """One part per distinct coefficient, on an integer lattice; None off the grid."""
    q = _grid([x for t in tasks for x in t.scores])
    if q is None:
        return None
    import numpy as np

    classes: dict[Fraction, list[tuple[int, Any, int]]] = {}
    pmfs: dict[tuple[tuple[int, ...], int], tuple[int, Any]] = {}
    for task in tasks:
        ys = [round(x * q) for x in task.scores]
        n, n_c = len(ys), len(ys) - task.n_baseline
        spread = n * sum(y * y for y in ys) - sum(ys) ** 2  # n^2 Q^2 * pooled variance
        if spread == 0:
            continue  # equal on the grid after all: the term never moves
        # a * X = (a / Q) * Y, with a = 1 / max(variance, floor), exactly.
        if Fraction(spread, q * q * n * n) < _FLOOR:
            coefficient = 1 / (_FLOOR * q)
        else:
            coefficient = Fraction(q * n * n, spread)
        key = (tuple(sorted(ys)), n_c)
        if key not in pmfs:
            if not _countable(key[0], n_c):
                return None
            pmfs[key] = _subset_sum_pmf(key[0], n_c)
        offset, pmf = pmfs[key]
        classes.setdefault(coefficient, []).append((offset, pmf, sum(ys[task.n_baseline :])))
    if not classes:
        return _Parts(lambda _tol: TailProbabilities(1.0, 1.0, True), [])

    coefficients = list(classes)
    # Scale the coefficients to coprime integers c; Z = sum(c * Y) moves in steps of `unit`.
    denominator = math.lcm(*(c.denominator for c in coefficients))
    scaled = [int(c * denominator) for c in coefficients]
    common = math.gcd(*scaled)
    scaled = [s // common for s in scaled]
    unit = common / denominator  # statistic units per step of Z
    parts: list[tuple[int, int, Any, int]] = []  # (c, offset, pmf of Y - offset, observed Y)
    for c, coefficient in zip(scaled, coefficients, strict=True):
        members = classes[coefficient]
        pmf = np.ones(1)
        for _, member_pmf, _ in members:
            pmf = np.convolve(pmf, member_pmf)
        parts.append((c, sum(m[0] for m in members), pmf, sum(m[2] for m in members)))
    extent = sum(c * (abs(offset) + len(pmf)) for c, offset, pmf, _ in parts)
    z_observed = sum(c * observed for c, _, _, observed in parts)

    def exact_tails(tolerance: float) -> TailProbabilities | None:
        if extent > _MAX_ABS_LATTICE:
            return None
        ties = int(tolerance / unit)
        trimmed = 0.0
        terms = []
        for c, offset, pmf, _ in parts:
            lo, hi, cut = _trim(pmf, TRIM_MASS / (2 * len(parts)))
            trimmed += cut
            terms.append(((np.arange(lo, hi, dtype=np.int64) + offset) * c, pmf[lo:hi]))
        tails = _meet_in_the_middle(terms, z_observed - ties, z_observed + ties, _merge_integers)
        if tails is None:
            return None
        upper, lower = tails
        return TailProbabilities(min(1.0, upper + trimmed), min(1.0, lower + trimmed), True)

    def sampler(c: int, offset: int, pmf: Any, observed: int) -> _Sampler:
        values = (np.arange(len(pmf)) + (offset - observed)) * (c * unit)
        return _table_sampler(values, pmf)

    return _Parts(exact_tails, [sampler(*part) for part in parts])


def _countable(sorted_ys: tuple[int, ...], n_c: int) -> bool:
    """Whether `_subset_sum_pmf` fits in memory and in floats (hostile sizes go elsewhere)."""
    width = sum(sorted_ys[-n_c:]) - n_c * sorted_ys[0] + 1
    return (n_c + 1) * width <= _MAX_COUNT_CELLS and math.comb(len(sorted_ys), n_c) < 1e300


def _subset_sum_pmf(ys: tuple[int, ...], n_c: int) -> tuple[int, Any]:
    """(offset, pmf): P(sum of a uniformly drawn n_c-subset of `ys` = offset + i) = pmf[i]."""
    import numpy as np

    low = min(ys)
    shifted = [y - low for y in ys]
    width = sum(sorted(shifted)[-n_c:]) + 1
    # counts[k, s]: subsets of size k of the items seen so far that sum to s.
    counts = np.zeros((n_c + 1, width))
    counts[0, 0] = 1.0
    for y in shifted:
        counts[1:, y:] += counts[:-1, : width - y].copy()
    return low * n_c, counts[n_c] / math.comb(len(ys), n_c)


def _trim(pmf: Any, budget: float) -> tuple[int, int, float]:
    """The index range [lo, hi) that drops at most `budget` probability from each end."""
    import numpy as np

    head = np.cumsum(pmf)
    tail = np.cumsum(pmf[::-1])
    lo = int(np.searchsorted(head, budget, side="right"))
    cut_hi = int(np.searchsorted(tail, budget, side="right"))
    hi = len(pmf) - cut_hi
    cut = (float(head[lo - 1]) if lo else 0.0) + (float(tail[cut_hi - 1]) if cut_hi else 0.0)
    return lo, hi, cut


def _merge_integers(values: Any, probs: Any) -> tuple[Any, Any]:
    """Distinct sorted values and their summed probabilities (integer lattice)."""
    import numpy as np

    low = int(values.min())
    span = int(values.max()) - low + 1
    if span <= min(4 * len(values), _DENSE_MAX):  # dense: count into an array over the span
        dense = np.bincount(values - low, weights=probs, minlength=span)
        keep = np.flatnonzero(dense)
        return keep.astype(np.int64) + low, dense[keep]
    distinct, inverse = np.unique(values, return_inverse=True)
    return distinct, np.bincount(inverse.ravel(), weights=probs, minlength=len(distinct))


# --- off the grid ---------------------------------------------------------------------------


def _listed_parts(tasks: Sequence[_Task]) -> _Parts:
    """One part per task, its shuffles listed when there are few enough."""
    import numpy as np

    listed: list[tuple[Any, Any] | None] = []
    samplers: list[_Sampler] = []
    for task in tasks:
        scores = np.asarray(task.scores, dtype=np.float64)
        n, n_b = len(scores), task.n_baseline
        n_c = n - n_b
        base = task.statistic(range(n_b, n))
        weight, total = task.weight, float(scores.sum())
        if math.comb(n, n_c) > MAX_TASK_SHUFFLES:
            listed.append(None)
            samplers.append(_shuffle_sampler(scores, n_c, weight, n_b, base))
            continue
        subsets = np.array(list(itertools.combinations(range(n), n_c)), dtype=np.intp)
        cand = scores[subsets].sum(axis=1)
        values = weight * (cand / n_c - (total - cand) / n_b) - base
        samplers.append(_uniform_sampler(values))
        listed.append(_merge_floats(values, np.full(len(values), 1.0 / len(values))))

    def exact_tails(tolerance: float) -> TailProbabilities | None:
        terms = [t for t in listed if t is not None]
        if len(terms) < len(listed):
            return None
        tails = _meet_in_the_middle(terms, -tolerance, tolerance, _merge_floats)
        if tails is None:
            return None
        return TailProbabilities(min(1.0, tails[0]), min(1.0, tails[1]), True)

    return _Parts(exact_tails, samplers)


def _merge_floats(values: Any, probs: Any) -> tuple[Any, Any]:
    """Distinct sorted values (to _ROUND decimals) and their summed probabilities."""
    import numpy as np

    distinct, inverse = np.unique(np.round(values, _ROUND), return_inverse=True)
    return distinct, np.bincount(inverse.ravel(), weights=probs, minlength=len(distinct))


# --- the exact combination ------------------------------------------------------------------


def _meet_in_the_middle(
    terms: Sequence[tuple[Any, Any]],
    upper_from: Any,
    lower_to: Any,
    merge: Callable[[Any, Any], tuple[Any, Any]],
) -> tuple[float, float] | None:
    """(P(sum >= upper_from), P(sum <= lower_to)) of independent terms (values, probs);
    None, before any work, when listing the two halves' sums would cost more than
    MAX_EXACT_WORK."""
    import numpy as np

    halves = [[terms[i] for i in half] for half in _halves([len(v) for v, _ in terms])]
    if sum(_cost(half) for half in halves) > MAX_EXACT_WORK:
        return None
    (a_values, a_probs), (b_values, b_probs) = (_sums(half, merge) for half in halves)
    suffix = np.concatenate((np.cumsum(a_probs[::-1])[::-1], [0.0]))
    prefix = np.concatenate(([0.0], np.cumsum(a_probs)))
    up = np.searchsorted(a_values, upper_from - b_values, side="left")
    low = np.searchsorted(a_values, lower_to - b_values, side="right")
    return float(np.dot(b_probs, suffix[up])), float(np.dot(b_probs, prefix[low]))


def _halves(sizes: Sequence[int]) -> tuple[list[int], list[int]]:
    """Two groups with about equal products of support sizes (largest placed first)."""
    groups: tuple[list[int], list[int]] = ([], [])
    logs = [0.0, 0.0]
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        g = 0 if logs[0] <= logs[1] else 1
        groups[g].append(i)
        logs[g] += math.log(sizes[i])
    return groups


def _steps(terms: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """The order `_sums` adds terms in: smallest supports first."""
    return sorted(terms, key=lambda t: len(t[0]))


def _cost(terms: Sequence[tuple[Any, Any]]) -> float:
    """An upper bound on the work `_sums` does: pairs formed, weighted by how they merge.

    The number of distinct sums after a step is at most min(pairs, span) on the integer
    lattice; a dense step (counted into an array over the span) costs about one unit per pair
    and per slot, a sorting step about eight per pair.
    """
    cost = 0.0
    size, low, high = 1, 0, 0
    for values, _ in _steps(terms):
        pairs = size * len(values)
        low, high = low + values.min(), high + values.max()
        if values.dtype.kind in "iu":
            span = int(high - low) + 1
            dense = span <= min(4 * pairs, _DENSE_MAX)
            cost += pairs + span if dense else _SORT_COST * pairs
            size = min(pairs, span)
        else:
            cost += _SORT_COST * pairs
            size = pairs
        if cost > MAX_EXACT_WORK:
            return math.inf
    return cost


def _sums(
    terms: Sequence[tuple[Any, Any]], merge: Callable[[Any, Any], tuple[Any, Any]]
) -> tuple[Any, Any]:
    """The distinct sums of independent `terms` and their probabilities, in sorted order."""
    import numpy as np

    values = np.zeros(1, dtype=terms[0][0].dtype if terms else np.int64)
    probs = np.ones(1)
    for term_values, term_probs in _steps(terms):
        step = max(1, _CHUNK // len(term_values))
        pieces = [
            merge(
                (values[i : i + step, None] + term_values[None, :]).ravel(),
                (probs[i : i + step, None] * term_probs[None, :]).ravel(),
            )
            for i in range(0, len(values), step)
        ]
        if len(pieces) == 1:
            values, probs = pieces[0]
        else:
            values, probs = merge(
                np.concatenate([v for v, _ in pieces]), np.concatenate([p for _, p in pieces])
            )
    return values, probs


# --- the seeded Monte Carlo -----------------------------------------------------------------


def _table_sampler(values: Any, probs: Any) -> _Sampler:
    import numpy as np

    cumulative = np.cumsum(probs)
    cumulative /= cumulative[-1]

    def draw(rng: Any, size: int) -> Any:
        idx = np.searchsorted(cumulative, rng.random(size), side="right")
        return values[np.minimum(idx, len(values) - 1)]

    return draw


def _uniform_sampler(values: Any) -> _Sampler:
    """Every listed shuffle equally likely."""

    def draw(rng: Any, size: int) -> Any:
        return values[rng.integers(0, len(values), size=size)]

    return draw


def _shuffle_sampler(scores: Any, n_c: int, weight: float, n_b: int, base: float) -> _Sampler:
    import numpy as np

    total = float(scores.sum())

    def draw(rng: Any, size: int) -> Any:
        rows = max(1, _CHUNK // len(scores))  # bounded memory for very long tasks
        sums = []
        for start in range(0, size, rows):
            keys = rng.random((min(rows, size - start), len(scores)))
            picks = np.argpartition(keys, n_c - 1, axis=1)[:, :n_c]
            sums.append(scores[picks].sum(axis=1))
        cand = np.concatenate(sums)
        return weight * (cand / n_c - (total - cand) / n_b) - base

    return draw


def _sampled_tails(
    samplers: Sequence[_Sampler], tolerance: float, samples: int, seed: int
) -> TailProbabilities:
    """`samples` independent shuffles of every part (seeded: the same call, the same p)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    totals = np.zeros(samples)
    for draw in samplers:
        totals += draw(rng, samples)
    above = int(np.count_nonzero(totals >= -tolerance))
    below = int(np.count_nonzero(totals <= tolerance))
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
