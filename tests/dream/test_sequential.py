"""The sequential plan: alpha spending, conditional-power futility, and its error rate."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from statistics import NormalDist

import pytest

from sleepd.dream.gate import GatePolicy
from sleepd.dream.sequential import SequentialPlan, conditional_power, nominal_levels

ONE_LOOK = GatePolicy(max_looks=1)
Table = dict[str, list[float | None]]


def paired(ups: int, downs: int, ties: int) -> tuple[Table, Table]:
    """One rollout per task and arm: `ups` tasks 0 -> 1, `downs` 1 -> 0, `ties` 0 -> 0."""
    base: Table = {}
    cand: Table = {}
    rows = [(0.0, 1.0)] * ups + [(1.0, 0.0)] * downs + [(0.0, 0.0)] * ties
    for i, (b, c) in enumerate(rows):
        base[f"t{i}"], cand[f"t{i}"] = [b], [c]
    return base, cand


def test_conditional_power_matches_the_b_value_formula() -> None:
    # Halfway, z = 0, design drift equal to the final boundary c: CP = 1 - Phi((c/2)/sqrt(.5)).
    c = 1.96
    expected = 1 - NormalDist().cdf((c / 2) / math.sqrt(0.5))
    assert conditional_power(0.0, 2, 4, c, c) == pytest.approx(expected, abs=1e-12)
    # More evidence so far, more conditional power; at the last round it is 0 or 1.
    values = [conditional_power(z, 2, 4, c, c) for z in (-1.0, 0.0, 1.0, 2.0)]
    assert values == sorted(values) and values[0] < 0.1 < 0.6 < values[-1]
    assert conditional_power(2.0, 4, 4, c, c) == 1.0
    assert conditional_power(1.9, 4, 4, c, c) == 0.0


def test_linear_spending_spends_alpha_in_proportion_to_rounds() -> None:
    levels = nominal_levels(0.05, 5, "linear")
    assert levels[0] == pytest.approx(0.05 / 5, rel=0.05)  # round 1 may use a fifth of alpha
    assert list(levels) == sorted(levels)  # later rounds get higher nominal levels
    assert sum(levels) > 0.05  # correlated looks: the nominal levels add up to more than alpha


def test_futility_settings_do_not_move_the_efficacy_levels() -> None:
    """Non-binding futility: switching it off or on leaves every nominal level unchanged."""
    plan = SequentialPlan()
    off = replace(plan, futility_power=0.0)
    eager = replace(plan, futility_power=0.5, design_power=0.9)
    for round_ in range(1, plan.k_max + 1):
        level = plan.round_alpha(0.05, round_)
        assert off.round_alpha(0.05, round_) == level == eager.round_alpha(0.05, round_)


def test_clearly_futile_candidate_stops_at_round_one() -> None:
    base, cand = paired(ups=3, downs=5, ties=4)  # behind, but not significantly worse
    step = SequentialPlan().check(base, cand, 1, ONE_LOOK)
    assert step.status == "futile" and step.settled
    assert step.decision.p_value_harm > 0.05  # it was not rejected for harm


def test_clear_winner_is_not_stopped_for_futility() -> None:
    base, cand = paired(ups=7, downs=1, ties=4)  # p ~ 0.035: promising, not yet significant
    plan = SequentialPlan()
    step = plan.check(base, cand, 1, ONE_LOOK)
    assert step.status == "continue"
    assert plan.conditional_power(step.decision.p_value, 1, 0.05) > 0.5


def test_small_positive_lift_stops_late_but_not_early() -> None:
    """A lift too small to reach significance by k_max is dropped once that is clear."""
    plan = SequentialPlan()
    p_small = 1 - NormalDist().cdf(0.5)  # z = 0.5: a small positive trend
    assert plan.conditional_power(p_small, 1, 0.05) > plan.futility_power
    assert plan.conditional_power(p_small, 3, 0.05) < plan.futility_power


def test_a_candidate_ahead_but_short_of_this_look_is_carried_not_rejected() -> None:
    """Futility under a positive lift stops tonight's spending, not the candidate."""
    plan = SequentialPlan()
    base, cand = paired(ups=5, downs=4, ties=3)  # slightly ahead after one round
    steps = {}
    for round_ in range(1, plan.k_max):
        step = plan.check(base, cand, round_, GatePolicy(max_looks=3))
        if step.settled:
            steps["carried"] = step
            break
        for task in base:  # the same small lead again each round
            base[task].append(base[task][0])
            cand[task].append(cand[task][0])
    carried = steps["carried"]
    assert carried.status == "inconclusive"
    assert carried.decision.outcome == "inconclusive" and "next night" in carried.decision.reason
    # On the candidate's last look there is no next night: the same evidence is futile.
    last = plan.check(base, cand, carried.round, GatePolicy(max_looks=3, look=3))
    assert last.status == "futile"


def test_futility_off_never_stops_for_futility() -> None:
    base, cand = paired(ups=3, downs=5, ties=4)
    step = SequentialPlan(futility_power=0.0).check(base, cand, 1, ONE_LOOK)
    assert step.status == "continue"


def test_round_outside_the_plan_is_refused() -> None:
    base, cand = paired(ups=3, downs=5, ties=4)
    with pytest.raises(ValueError, match=r"outside 1\.\.5"):
        SequentialPlan().check(base, cand, 6, ONE_LOOK)


def run_aa(rng: random.Random, plan: SequentialPlan, tasks: int = 12) -> str:
    rates = [rng.uniform(0.2, 0.6) for _ in range(tasks)]
    base: Table = {f"t{i}": [] for i in range(tasks)}
    cand: Table = {f"t{i}": [] for i in range(tasks)}
    status = "continue"
    for round_ in range(1, plan.k_max + 1):
        for i, p in enumerate(rates):
            base[f"t{i}"].append(float(rng.random() < p))
            cand[f"t{i}"].append(float(rng.random() < p))
        status = plan.check(base, cand, round_, ONE_LOOK).status
        if status != "continue":
            break
    return status


def test_aa_false_accepts_stay_within_alpha() -> None:
    """No-op edits through the whole plan: the accept rate is consistent with <= 5 %.

    200 seeded draws; at most 17 accepts (P(X >= 18 | rate = 5 %) < 2 %).
    """
    rng = random.Random(11)
    statuses = [run_aa(rng, SequentialPlan()) for _ in range(200)]
    accepted = statuses.count("accept")
    print(f"sequential A/A: {accepted}/200 accepted, {statuses.count('futile')} futile")
    assert accepted <= 17
    assert statuses.count("futile") >= 100  # most no-op edits end in a futility stop
