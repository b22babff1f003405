"""Seeded simulations: the gate's error rates at 12 tasks x 3 rollouts (binomial scores).

Each world has a baseline success rate per task drawn from [0.2, 0.6]; a helpful edit adds
+0.3 to every task, a no-op edit adds nothing. Figures are printed for docs/gate.md.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from sleepd.dream.gate import GatePolicy, RetestScores, decide, false_accept_rate
from sleepd.dream.retest import Draw, check_with_retests, decide_with_retests
from sleepd.dream.sequential import SequentialPlan

TASKS, ROLLOUTS, TRIALS = 12, 3, 400
ONE_LOOK = GatePolicy(max_looks=1)  # one-sided alpha = 0.05 for this single decision


def world(rng: random.Random) -> list[float]:
    return [rng.uniform(0.2, 0.6) for _ in range(TASKS)]


def draw(rng: random.Random, rates: list[float], lift: float, k: int) -> tuple[dict, dict]:
    base = {f"t{i}": [float(rng.random() < p) for _ in range(k)] for i, p in enumerate(rates)}
    cand = {
        f"t{i}": [float(rng.random() < p + lift) for _ in range(k)] for i, p in enumerate(rates)
    }
    return base, cand


def accept_rate(lift: float, seed: int, trials: int = TRIALS) -> float:
    """decide() with suspect tasks retested on fresh draws, as the night does."""
    rng = random.Random(seed)
    decisions = []
    for _ in range(trials):
        rates = world(rng)
        base, cand = draw(rng, rates, lift, ROLLOUTS)

        decision, _ = decide_with_retests(base, cand, ONE_LOOK, fresh(rng, rates, lift))
        decisions.append(decision)
    return false_accept_rate(decisions)


def test_no_op_edit_is_accepted_at_most_5_percent() -> None:
    """The true rate is <= 5 % by exactness (next test); a sample of 1000 has noise.

    So the assertion is that the sample is consistent with <= 5 %: at most 62 accepts of 1000
    (P(X >= 63 | rate = 5 %) < 1 %).
    """
    trials = 1000
    rate = accept_rate(0.0, seed=0, trials=trials)
    print(f"A/A false-accept rate: {rate:.3f} over {trials} draws")
    assert rate * trials <= 62


def test_permutation_p_value_has_exact_size() -> None:
    """Over every label shuffle of fixed pooled scores, P(p <= a) <= a for each a."""
    pooled = [(0.0, 1.0, 1.0, 0.0), (1.0, 1.0, 0.0, 0.5), (0.2, 0.9, 0.9, 0.4)]
    splits = list(itertools.combinations(range(4), 2))
    p_values = []
    for choice in itertools.product(splits, repeat=len(pooled)):
        base, cand = {}, {}
        for t, (scores, idx) in enumerate(zip(pooled, choice, strict=True)):
            cand[f"t{t}"] = [scores[i] for i in idx]
            base[f"t{t}"] = [scores[i] for i in range(4) if i not in idx]
        p_values.append(decide(base, cand, GatePolicy(min_tasks=1, max_looks=1)).p_value)
    for a in (0.01, 0.05, 0.1, 0.25, 0.5):
        assert sum(p <= a + 1e-12 for p in p_values) / len(p_values) <= a + 1e-12
    assert min(p_values) < 0.05  # the test can reject at all


def test_plus_30_points_is_accepted_at_least_80_percent() -> None:
    rate = accept_rate(0.3, seed=1)
    print(f"power for +0.3 at 12x3: {rate:.3f} over {TRIALS} draws")
    assert rate >= 0.80


def test_naive_mean_went_up_rule_accepts_half_of_no_op_edits() -> None:
    rng = random.Random(2)
    ups = 0
    for _ in range(TRIALS):
        base, cand = draw(rng, world(rng), 0.0, ROLLOUTS)
        mean_b = sum(sum(v) for v in base.values())
        mean_c = sum(sum(v) for v in cand.values())
        ups += mean_c > mean_b
    rate = ups / TRIALS
    print(f"naive 'mean went up' accepts {rate:.3f} of no-op edits")
    assert 0.40 <= rate <= 0.55


def fresh(rng: random.Random, rates: list[float], lift: float) -> Draw:
    """Retest draws: fresh rollouts of the named tasks, both arms."""

    def more(tasks: Sequence[str], n: int) -> tuple[dict, dict]:
        b, c = draw(rng, [rates[int(t[1:])] for t in tasks], lift, n)
        return (
            {t: b[f"t{i}"] for i, t in enumerate(tasks)},
            {t: c[f"t{i}"] for i, t in enumerate(tasks)},
        )

    return more


def run_sequential(rng: random.Random, lift: float, plan: SequentialPlan) -> tuple[str, int]:
    rates = world(rng)
    base: dict[str, list[float | None]] = {f"t{i}": [] for i in range(TASKS)}
    cand: dict[str, list[float | None]] = {f"t{i}": [] for i in range(TASKS)}
    retests = RetestScores()
    for round_ in range(1, plan.k_max + 1):
        b, c = draw(rng, rates, lift, 1)
        for t in base:
            base[t] += b[t]
            cand[t] += c[t]
        step, retests = check_with_retests(
            plan, base, cand, round_, ONE_LOOK, fresh(rng, rates, lift), retests
        )
        if step.settled:
            break
    return step.status, 2 * TASKS * step.round + retests.rollouts


def test_sequential_stopping_controls_errors_and_saves_rollouts() -> None:
    plan = SequentialPlan()
    fixed = 2 * TASKS * ROLLOUTS
    figures = {}
    for lift, seed in ((0.0, 3), (0.3, 4)):
        rng = random.Random(seed)
        runs = [run_sequential(rng, lift, plan) for _ in range(TRIALS // 2)]
        accepted = sum(status == "accept" for status, _ in runs) / len(runs)
        used = sum(n for _, n in runs) / len(runs)
        figures[lift] = (accepted, 1 - used / fixed)
    print(f"sequential (accept rate, rollouts saved vs fixed K=3): {figures}")
    assert figures[0.0][0] <= 0.05
    assert figures[0.0][1] >= 0.30  # no-op candidates stop early for futility
    assert figures[0.3][0] >= 0.70
