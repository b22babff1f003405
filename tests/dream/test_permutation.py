"""The stratified permutation test: exact where it was exact before, and past that too.

The reference below is the previous implementation (a dictionary convolution of per-task
shuffle distributions, exact while its support stayed under 200,000 sums). On every table it
could answer exactly, the current test must give the same p-values; a brute-force listing of
every joint shuffle checks both on the smallest tables.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence

import pytest

from sleepd.dream import permutation
from sleepd.dream.permutation import _Task, stratified_test, task_weight

Table = list[tuple[list[float], list[float]]]


def _reference(tasks: Table) -> tuple[float, float] | None:
    """The previous exact convolution; None where it fell back to sampling."""
    prepared = [
        _Task(tuple(b) + tuple(c), len(b), task_weight(tuple(b) + tuple(c), len(b), len(c)))
        for b, c in tasks
    ]
    prepared = [t for t in prepared if len(set(t.scores)) > 1]
    if not prepared:
        return 1.0, 1.0
    observed = sum(t.statistic(range(t.n_baseline, len(t.scores))) for t in prepared)
    total: dict[float, float] = {0.0: 1.0}
    for task in prepared:
        n = len(task.scores)
        n_c = n - task.n_baseline
        count = math.comb(n, n_c)
        if count > 5000:
            return None
        dist: dict[float, float] = {}
        for idx in itertools.combinations(range(n), n_c):
            value = round(task.statistic(idx), 9)
            dist[value] = dist.get(value, 0.0) + 1.0 / count
        if len(total) * len(dist) > 40_000:
            return None  # (the old code went on, for seconds; a test need not)
        merged: dict[float, float] = {}
        for s, p in total.items():
            for d, q in dist.items():
                key = round(s + d, 9)
                merged[key] = merged.get(key, 0.0) + p * q
        if len(merged) > 200_000:
            return None
        total = merged
    tol = 1e-7 * (1.0 + abs(observed))
    upper = sum(p for s, p in total.items() if s >= observed - tol)
    lower = sum(p for s, p in total.items() if s <= observed + tol)
    return min(1.0, upper), min(1.0, lower)


def _brute_force(tasks: Table) -> tuple[float, float]:
    """Every joint relabelling, listed: the definition of the exact p-values."""
    prepared = [
        _Task(tuple(b) + tuple(c), len(b), task_weight(tuple(b) + tuple(c), len(b), len(c)))
        for b, c in tasks
    ]
    prepared = [t for t in prepared if len(set(t.scores)) > 1]
    observed = sum(t.statistic(range(t.n_baseline, len(t.scores))) for t in prepared)
    tol = 1e-7 * (1.0 + abs(observed))
    choices = [
        list(itertools.combinations(range(len(t.scores)), len(t.scores) - t.n_baseline))
        for t in prepared
    ]
    above = below = count = 0
    for joint in itertools.product(*choices):
        s = sum(t.statistic(idx) for t, idx in zip(prepared, joint, strict=True))
        above += s >= observed - tol
        below += s <= observed + tol
        count += 1
    return above / count, below / count


def _score(rng: random.Random, kind: str) -> float:
    if kind == "binary":
        return float(rng.random() < 0.5)
    if kind == "quarters":
        return rng.randint(0, 4) / 4
    if kind == "tenths":
        return rng.randint(0, 10) / 10
    return rng.random()  # continuous: off any small grid


def _table(rng: random.Random, kind: str, tasks: int, max_arm: int, lift: float = 0.0) -> Table:
    out = []
    for _ in range(tasks):
        base = [_score(rng, kind) for _ in range(rng.randint(1, max_arm))]
        cand = [_score(rng, kind) - lift for _ in range(rng.randint(1, max_arm))]
        out.append((base, cand))
    return out


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize(
    ("kind", "lift"),
    [("binary", 0.0), ("binary", 0.1), ("quarters", 0.0), ("tenths", 0.05), ("continuous", 0.0)],
)
def test_p_values_equal_the_previous_exact_test(kind: str, lift: float) -> None:
    rng = random.Random(f"{kind}-{lift}")
    compared = 0
    for _ in range(150):
        table = _table(rng, kind, rng.randint(1, 6), 4, lift)
        expected = _reference(table)
        if expected is None:
            continue
        _, tails = stratified_test(table, samples=2000, seed=0)
        assert tails.exact, table
        assert _same(tails.upper, expected[0]), (table, tails, expected)
        assert _same(tails.lower, expected[1]), (table, tails, expected)
        compared += 1
    assert compared >= 100


def test_p_values_equal_every_shuffle_listed() -> None:
    rng = random.Random(7)
    for kind in ("binary", "quarters", "continuous"):
        for _ in range(25):
            table = _table(rng, kind, rng.randint(1, 3), 3)
            if not any(len(set(b + c)) > 1 for b, c in table):
                continue
            _, tails = stratified_test(table, samples=2000, seed=0)
            upper, lower = _brute_force(table)
            assert tails.exact
            assert _same(tails.upper, upper), (table, tails, upper)
            assert _same(tails.lower, lower), (table, tails, lower)


def test_binary_scores_stay_exact_at_hundreds_of_tasks() -> None:
    """Where the previous test sampled (24 x 5 already), the lattice answers exactly."""
    rng = random.Random(3)
    for tasks, k in ((24, 5), (700, 5), (300, 3)):
        table = [
            (
                [float(rng.random() < 0.4) for _ in range(k)],
                [float(rng.random() < 0.4) for _ in range(k)],
            )
            for _ in range(tasks)
        ]
        _, tails = stratified_test(table, samples=2000, seed=0)
        assert tails.exact
        assert tails.upper + tails.lower >= 1.0 - 1e-9  # the two tails overlap at the observed


def test_a_shift_by_min_lift_keeps_the_grid() -> None:
    rng = random.Random(4)
    table = [
        ([float(rng.random() < 0.4) for _ in range(3)], [float(rng.random() < 0.6) - 0.1] * 2)
        for _ in range(12)
    ]
    _, tails = stratified_test(table, samples=2000, seed=0)
    assert tails.exact


def _wide_table(seed: int) -> Table:
    """Continuous scores on many tasks: far past what an exact listing can afford."""
    rng = random.Random(seed)
    return [([rng.random() for _ in range(5)], [rng.random() for _ in range(5)]) for _ in range(40)]


def test_past_the_work_bound_the_test_is_sampled_and_seeded() -> None:
    table = _wide_table(1)
    _, first = stratified_test(table, samples=4000, seed=11)
    _, again = stratified_test(table, samples=4000, seed=11)
    _, other = stratified_test(table, samples=4000, seed=12)
    assert not first.exact
    assert first == again  # the same seed, the same p-values
    assert other != first
    # (count + 1) / (samples + 1): never 0, and on the sampled grid
    assert first.upper >= 1 / 4001
    assert round(first.upper * 4001) == pytest.approx(first.upper * 4001)


@pytest.mark.parametrize("kind", ["binary", "continuous"])
def test_the_sampled_test_agrees_with_the_exact_one(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forced to sample, the p-values land within sampling error of the exact ones."""
    rng = random.Random(kind)
    samples = 20_000
    for _ in range(5):
        table = _table(rng, kind, 8, 4)
        _, exact = stratified_test(table, samples=samples, seed=0)
        assert exact.exact
        with monkeypatch.context() as patch:
            patch.setattr(permutation, "MAX_EXACT_WORK", 0)
            _, sampled = stratified_test(table, samples=samples, seed=5)
        assert not sampled.exact
        for p_exact, p_sampled in ((exact.upper, sampled.upper), (exact.lower, sampled.lower)):
            noise = math.sqrt(max(p_exact * (1 - p_exact), 1e-4) / samples)
            assert abs(p_sampled - p_exact) <= 5 * noise + 1 / samples


def test_sampled_p_values_have_their_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over every shuffle of fixed pooled scores, P(sampled p <= a) stays near a or below."""
    monkeypatch.setattr(permutation, "MAX_EXACT_WORK", 0)
    pooled = [(0.0, 1.0, 1.0, 0.0), (1.0, 0.3, 0.0, 0.5), (0.2, 0.9, 0.7, 0.4)]
    splits = list(itertools.combinations(range(4), 2))
    p_values = []
    for choice in itertools.product(splits, repeat=len(pooled)):
        table = [
            ([s[i] for i in range(4) if i not in idx], [s[i] for i in idx])
            for s, idx in zip(pooled, choice, strict=True)
        ]
        p_values.append(stratified_test(table, samples=4000, seed=len(p_values))[1].upper)
    for a in (0.05, 0.1, 0.25, 0.5):
        assert sum(p <= a for p in p_values) / len(p_values) <= a + 0.02


def test_constant_tasks_carry_no_evidence() -> None:
    statistic, tails = stratified_test(
        [([1.0, 1.0], [1.0]), ([0.0], [0.0, 0.0])], samples=10, seed=0
    )
    assert statistic == 0.0
    assert (tails.upper, tails.lower, tails.exact) == (1.0, 1.0, True)


def _tables_for(sizes: Sequence[int]) -> Table:
    return [([0.0] * (n // 2) + [1.0] * (n - n // 2), [1.0, 0.0]) for n in sizes]


def test_uneven_arms_and_many_weights_stay_exact_when_small() -> None:
    table = _tables_for([1, 2, 3, 4, 5])
    _, tails = stratified_test(table, samples=10, seed=0)
    assert tails.exact
    expected = _reference(table)
    assert expected is not None
    assert _same(tails.upper, expected[0]) and _same(tails.lower, expected[1])


def test_very_long_tasks_are_answered_in_bounded_memory() -> None:
    """Hostile sizes (thousands of rollouts in one task) fall back to sampling, never crash."""
    rng = random.Random(9)
    for scores in (
        lambda: float(rng.random() < 0.5),  # on the grid, too many shuffles to count in floats
        rng.random,  # off the grid
    ):
        table = [([scores() for _ in range(1500)], [scores() for _ in range(1500)])]
        _, tails = stratified_test(table, samples=500, seed=0)
        assert 0.0 < tails.upper <= 1.0 and 0.0 < tails.lower <= 1.0
