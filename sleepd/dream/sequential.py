"""Stop spending rollouts on a candidate once its outcome is settled.

The night adds rollouts in rounds (one more rollout per task and arm per round, up to
`k_max`) and calls `SequentialPlan.check` between rounds. Error control is group-sequential
alpha spending (Lan-DeMets): a spending function says how much of the look's alpha may be used
by round r; the nominal per-round levels come from the joint normal law of the cumulative
statistic (correlation sqrt(r/s) between rounds r < s) and are applied to the exact
permutation p-values. `spending="bonferroni"` instead splits alpha by the union bound (valid
whatever the correlation, but costs power). Futility stops (the lift so far is not above
`futility_lift`) only ever remove accepts: they are non-binding and cost no alpha.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

import numpy as np

from sleepd.dream.gate import (
    GateDecision,
    GatePolicy,
    Scores,
    _conclude,
    _gather,
    _obf_spent,
    look_alpha,
)

Status = Literal["continue", "accept", "reject", "inconclusive", "futile"]


@dataclass(frozen=True)
class SequentialPlan:
    """Rounds, how alpha is spread over them, and when to give up early."""

    k_max: int = 4
    spending: Literal["pocock", "obrien-fleming", "bonferroni"] = "obrien-fleming"
    futility_lift: float = 0.0  # stop when the weighted lift so far is <= this
    min_rounds_for_futility: int = 1

    def round_alpha(self, look_alpha_: float, round_: int) -> float:
        """Nominal one-sided level for the p-value at round `round_` (1-based)."""
        return nominal_levels(look_alpha_, self.k_max, self.spending)[round_ - 1]

    def check(
        self, baseline: Scores, candidate: Scores, round_: int, policy: GatePolicy
    ) -> SequentialStep:
        """Is this candidate settled after `round_` rounds? Never decides on the test split."""
        if not 1 <= round_ <= self.k_max:
            raise ValueError(f"round {round_} outside 1..{self.k_max}")
        evidence = _gather(baseline, candidate, policy)
        a = look_alpha(policy) / max(1, policy.n_candidates)
        final = round_ == self.k_max
        # Interim rounds never turn "not yet significant" into a reject: the plan keeps going.
        interim_policy = policy if final else replace(policy, max_looks=policy.look + 1)
        decision = _conclude(
            evidence, interim_policy, self.round_alpha(a, round_), improvement_allowed=True
        )
        if decision.outcome != "inconclusive" or final:
            return SequentialStep(decision.outcome, decision, round_)
        futile = (
            round_ >= self.min_rounds_for_futility
            and decision.missing_fraction <= policy.max_missing_fraction
            and decision.statistic <= self.futility_lift
        )
        return SequentialStep("futile" if futile else "continue", decision, round_)


@dataclass(frozen=True)
class SequentialStep:
    """The plan's answer after one round."""

    status: Status
    decision: GateDecision
    round: int

    @property
    def settled(self) -> bool:
        return self.status != "continue"


def _spent(alpha: float, t: float, spending: str) -> float:
    if spending == "pocock":
        return alpha * math.log(1 + (math.e - 1) * t)
    if spending == "obrien-fleming":
        return _obf_spent(alpha, t)
    return alpha * t


@lru_cache(maxsize=64)
def nominal_levels(alpha: float, k_max: int, spending: str) -> tuple[float, ...]:
    """Per-round nominal levels whose joint false-accept rate is the spent alpha.

    Computed once per (alpha, k_max, spending) from 200,000 seeded Brownian paths, so the
    result is deterministic; the Monte Carlo error on each level is about 1 %.
    """
    increments = [
        _spent(alpha, r / k_max, spending) - _spent(alpha, (r - 1) / k_max, spending)
        for r in range(1, k_max + 1)
    ]
    if spending == "bonferroni":
        return tuple(increments)
    rng = np.random.default_rng(20240601)
    paths = 200_000
    z = np.cumsum(rng.standard_normal((paths, k_max)), axis=1) / np.sqrt(np.arange(1, k_max + 1))
    alive = np.ones(paths, dtype=bool)
    levels: list[float] = []
    for r in range(k_max):
        want = round(increments[r] * paths)
        candidates = np.sort(z[alive, r])[::-1]
        if want <= 0 or candidates.size == 0:
            levels.append(0.0)
            continue
        c = candidates[min(want, candidates.size) - 1]
        alive &= z[:, r] < c
        levels.append(0.5 * (1 - math.erf(float(c) / math.sqrt(2))))
    return tuple(levels)
