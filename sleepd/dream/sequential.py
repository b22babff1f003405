"""Stop spending rollouts on a candidate once its outcome is settled.

The night adds rollouts in rounds (one more rollout per task and arm per round, up to
`k_max`) and calls `SequentialPlan.check` between rounds. Error control is group-sequential
alpha spending (Lan-DeMets): a spending function says how much of the look's alpha may be used
by round r; the nominal per-round levels come from the joint normal law of the cumulative
statistic (correlation sqrt(r/s) between rounds r < s) and are applied to the exact
permutation p-values. `spending="bonferroni"` instead splits alpha by the union bound (valid
whatever the correlation, but costs power).

Futility is judged by conditional power: the chance, if the candidate's true effect were the
design effect, of crossing the final boundary by round `k_max` given the evidence so far.
When that chance is below `futility_power` the candidate stops. Futility stops only ever
remove accepts: they are non-binding and cost no alpha. See docs/gate.md for the figures.
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
    RetestScores,
    Scores,
    candidate_alpha,
    conclude,
    gather,
)
from sleepd.dream.stats import NORMAL, obrien_fleming_spent

Status = Literal["continue", "retest", "accept", "reject", "inconclusive", "futile"]
Spending = Literal["linear", "pocock", "obrien-fleming", "bonferroni"]
# p-values are clipped to this distance from 0 and 1 before turning them into z-scores.
_P_CLIP = 1e-12


@dataclass(frozen=True)
class SequentialPlan:
    """Rounds, how alpha is spread over them, and when to give up early.

    The defaults were tuned on the simulated binomial world (bench/learning.py) on draws the
    benchmark does not use; docs/gate.md has the figures.
    """

    k_max: int = 5
    spending: Spending = "linear"
    # Stop for futility when the conditional power under the design effect is below this;
    # 0 turns futility off.
    futility_power: float = 0.2
    # The design effect is the one a fixed design at the final nominal level would detect
    # with this probability (0.5: its expected final z-score sits on the final boundary).
    design_power: float = 0.5
    min_rounds_for_futility: int = 1

    def round_alpha(self, look_alpha_: float, round_: int) -> float:
        """Nominal one-sided level for the p-value at round `round_` (1-based)."""
        return nominal_levels(look_alpha_, self.k_max, self.spending)[round_ - 1]

    def conditional_power(self, p_value: float, round_: int, look_alpha_: float) -> float:
        """Chance of crossing the final boundary by `k_max` if the effect is the design one."""
        final_z = _z(self.round_alpha(look_alpha_, self.k_max))
        design_drift = final_z + NORMAL.inv_cdf(self.design_power)
        return conditional_power(_z(p_value), round_, self.k_max, final_z, design_drift)

    def check(
        self,
        baseline: Scores,
        candidate: Scores,
        round_: int,
        policy: GatePolicy,
        *,
        retests: RetestScores | None = None,
    ) -> SequentialStep:
        """Is this candidate settled after `round_` rounds? Never decides on the test split.

        Status "retest": the candidate would stop here, but the decision's `retest_tasks`
        dropped without being significant yet; add fresh rollouts on them and check again.
        """
        if not 1 <= round_ <= self.k_max:
            raise ValueError(f"round {round_} outside 1..{self.k_max}")
        evidence = gather(baseline, candidate, policy, retests=retests)
        a = candidate_alpha(policy)
        final = round_ == self.k_max
        # Interim rounds never turn "not yet significant" into a reject: the plan keeps going.
        interim_policy = policy if final else replace(policy, max_looks=policy.look + 1)
        decision = conclude(
            evidence, interim_policy, self.round_alpha(a, round_), improvement_allowed=True
        )
        if decision.retest_tasks:
            return SequentialStep("retest", replace(decision, max_looks=policy.max_looks), round_)
        if decision.outcome != "inconclusive" or final:
            return SequentialStep(decision.outcome, decision, round_)
        power = self.conditional_power(decision.p_value, round_, a)
        futile = (
            round_ >= self.min_rounds_for_futility
            and decision.missing_fraction <= policy.max_missing_fraction
            and power < self.futility_power
        )
        if not futile:
            return SequentialStep("continue", decision, round_)
        if decision.statistic > 0 and policy.look < policy.max_looks:
            # Ahead, but this look will not settle it: stop spending on it tonight and
            # give it the next night's look on fresh rollouts, as an inconclusive end would.
            carried = replace(
                decision,
                reason=(
                    f"ahead by {decision.statistic:+.3f} but short of this look's bar after "
                    f"{round_} round(s) (conditional power {power:.2f}); tried again next night"
                ),
            )
            return SequentialStep("inconclusive", carried, round_)
        return SequentialStep("futile", decision, round_)


@dataclass(frozen=True)
class SequentialStep:
    """The plan's answer after one round."""

    status: Status
    decision: GateDecision
    round: int

    @property
    def settled(self) -> bool:
        return self.status not in ("continue", "retest")


def conditional_power(z: float, round_: int, k_max: int, final_z: float, drift: float) -> float:
    """P(final z >= final_z | z at round `round_`), if the full-information drift is `drift`.

    Brownian-motion (B-value) form: with t = round_/k_max, B(t) = z*sqrt(t) and the rest of
    the path adds drift*(1 - t) with variance 1 - t.
    """
    t = round_ / k_max
    if t >= 1:
        return 1.0 if z >= final_z else 0.0
    if math.isinf(z):
        return 1.0 if z > 0 else 0.0
    shortfall = final_z - z * math.sqrt(t) - drift * (1 - t)
    return 1.0 - NORMAL.cdf(shortfall / math.sqrt(1 - t))


def _z(p_value: float) -> float:
    """The one-sided z-score of a p-value."""
    return NORMAL.inv_cdf(1.0 - min(max(p_value, _P_CLIP), 1.0 - _P_CLIP))


def _spent(alpha: float, t: float, spending: str) -> float:
    if spending == "pocock":
        return alpha * math.log(1 + (math.e - 1) * t)
    if spending == "obrien-fleming":
        return obrien_fleming_spent(alpha, t)
    return alpha * t  # linear; bonferroni splits the same increments by the union bound


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
