"""Exact one-sided tests for two success rates (before vs after an adoption).

Fisher's exact test conditions on the total number of successes, so it stays exact at
the small counts live sessions give (a few dozen episodes a week); no normal law, no
continuity correction. Pure Python (`math.comb`): `sleepd status` computes it without
importing scipy.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Literal

Verdict = Literal["helping", "no evidence yet", "looks worse"]


@dataclass(frozen=True)
class RateComparison:
    """Successes out of known outcomes before and after, and both one-sided p-values."""

    before_success: int
    before_total: int
    after_success: int
    after_total: int
    p_better: float  # P(data at least this favourable to "after is better" | no change)
    p_worse: float  # P(data at least this favourable to "after is worse" | no change)

    @property
    def before_rate(self) -> float | None:
        return self.before_success / self.before_total if self.before_total else None

    @property
    def after_rate(self) -> float | None:
        return self.after_success / self.after_total if self.after_total else None

    @property
    def change(self) -> float | None:
        b, a = self.before_rate, self.after_rate
        return None if a is None or b is None else a - b

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(
            before_rate=_round(self.before_rate),
            after_rate=_round(self.after_rate),
            change=_round(self.change),
            p_better=round(self.p_better, 6),
            p_worse=round(self.p_worse, 6),
        )
        return data


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def fisher_one_sided(
    before_success: int, before_total: int, after_success: int, after_total: int
) -> RateComparison:
    """Both tails of Fisher's exact test on the 2x2 table (before/after x success/not).

    Under "the adoption changed nothing" and given the total successes, the after-arm's
    successes follow a hypergeometric law; `p_better` is its upper tail at the observed
    count, `p_worse` its lower tail.
    """
    if not (0 <= before_success <= before_total and 0 <= after_success <= after_total):
        raise ValueError("successes must lie between 0 and the total")
    n = before_total + after_total
    k = before_success + after_success
    low, high = max(0, k - before_total), min(k, after_total)
    denominator = math.comb(n, k) if n else 1

    def probability(x: int) -> float:
        return math.comb(after_total, x) * math.comb(before_total, k - x) / denominator

    upper = sum(probability(x) for x in range(after_success, high + 1)) if n else 1.0
    lower = sum(probability(x) for x in range(low, after_success + 1)) if n else 1.0
    return RateComparison(
        before_success,
        before_total,
        after_success,
        after_total,
        min(1.0, upper),
        min(1.0, lower),
    )


def verdict_for(comparison: RateComparison, *, alpha: float, min_episodes: int) -> Verdict:
    """'helping' or 'looks worse' only past the minimum sample and at level `alpha`."""
    if min(comparison.before_total, comparison.after_total) < min_episodes:
        return "no evidence yet"
    if comparison.p_worse <= alpha:
        return "looks worse"
    if comparison.p_better <= alpha:
        return "helping"
    return "no evidence yet"
