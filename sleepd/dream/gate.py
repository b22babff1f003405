"""The held-out gate: does a candidate skill edit help, hurt, or is it too early to say?

A pure function of two score tables (task id -> rollout scores in [0, 1], None = the rollout
failed for infrastructure reasons). See docs/gate.md for the statistics in plain words.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from sleepd.dream.permutation import TailProbabilities, sign_test, stratified_test
from sleepd.errors import ExitCode, SleepdError

Outcome = Literal["accept", "reject", "inconclusive"]
Scores = Mapping[str, Sequence[float | None]]


class GateInputError(SleepdError):
    """Scores outside [0, 1] or not numbers: the caller's bug, reported as one line."""

    exit_code = ExitCode.USAGE


@dataclass(frozen=True)
class GatePolicy:
    """How strict the gate is. Defaults are the product's; see docs/gate.md."""

    alpha: float = 0.05  # one-sided false-accept rate, spent across looks (nights)
    min_tasks: int = 6  # fewer informative tasks -> inconclusive
    max_missing_fraction: float = 0.2  # more failed rollouts -> inconclusive, never reject
    no_regression: bool = True  # a task that drops beyond its own noise blocks acceptance
    regression_floor: float = 0.25  # smallest drop (score units) that counts as a regression
    regression_z: float = 2.5  # noise margin = max(floor, z * standard error of the delta)
    min_lift: float = 0.0  # smallest lift worth adopting; H0 is "lift == min_lift"
    n_candidates: int = 1  # candidates tested tonight: Bonferroni inside decide()
    look: int = 1  # which night this candidate is being tested (1-based)
    max_looks: int = 3  # after this many inconclusive nights the candidate is rejected
    look_spending: Literal["equal", "obrien-fleming"] = "equal"
    test: Literal["permutation", "sign"] = "permutation"
    permutation_samples: int = 20000  # Monte Carlo draws when the exact test is too large
    seed: int = 0
    auto_adopt_alpha: float = 0.01  # stricter level for adoption without a person


@dataclass(frozen=True)
class TaskDelta:
    """One task's paired comparison."""

    delta: float  # mean(candidate) - mean(baseline)
    noise: float  # standard error of delta from the task's own rollout variance
    margin: float  # the drop it may show before it counts as a regression
    regressed: bool  # delta < -margin
    clear: bool  # regressed, and both arms had >= 2 rollouts (noise actually measured)
    n_baseline: int
    n_candidate: int


@dataclass(frozen=True)
class GateDecision:
    """What the gate decided and every figure that went into it."""

    outcome: Outcome
    statistic: float  # precision-weighted mean lift (the test statistic, normalised)
    p_value: float  # one-sided, for improvement beyond policy.min_lift
    p_value_harm: float  # one-sided, for the candidate being worse than baseline
    n_tasks: int  # tasks with at least one score in both arms
    n_informative: int  # tasks that can move the statistic
    per_task: Mapping[str, TaskDelta]
    mean_delta: float  # plain mean of per-task deltas
    missing_fraction: float
    reason: str
    alpha_used: float
    auto_adopt_ok: bool = False
    exact: bool = True
    regressed_tasks: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["per_task"] = {k: asdict(v) for k, v in self.per_task.items()}
        data["regressed_tasks"] = list(self.regressed_tasks)
        return data


@dataclass(frozen=True)
class _Evidence:
    """Everything that does not depend on the level alpha."""

    per_task: dict[str, TaskDelta]
    paired: dict[str, tuple[list[float], list[float]]]
    missing_fraction: float
    n_informative: int
    statistic: float
    improve: TailProbabilities
    below_min_lift: TailProbabilities
    harm: TailProbabilities


def look_alpha(policy: GatePolicy) -> float:
    """The share of alpha this night (look) may spend; the shares sum to policy.alpha.

    Each look uses fresh rollouts, so by the union bound the chance of ever falsely accepting
    a candidate across all its nights stays <= alpha whatever the split.
    """
    k, m = policy.look, policy.max_looks
    if not 1 <= k <= m:
        raise GateInputError(f"look {k} is outside 1..{m} (max_looks)")
    if policy.look_spending == "equal":
        return policy.alpha / m
    return _obf_spent(policy.alpha, k / m) - _obf_spent(policy.alpha, (k - 1) / m)


def _obf_spent(alpha: float, t: float) -> float:
    """Lan-DeMets O'Brien-Fleming-like spending function (one-sided)."""
    if t <= 0:
        return 0.0
    z = _norm_ppf(1 - alpha / 2)
    return 2 * (1 - _norm_cdf(z / math.sqrt(t)))


def _norm_cdf(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def _norm_ppf(p: float) -> float:
    lo, hi = -12.0, 12.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if _norm_cdf(mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def decide(baseline: Scores, candidate: Scores, policy: GatePolicy) -> GateDecision:
    """Decide one candidate against the baseline on the validation split.

    The level is policy.alpha, split across looks (nights), then Bonferroni-divided by
    policy.n_candidates. Use decide_many() to get Holm's sharper correction instead.
    """
    evidence = _gather(baseline, candidate, policy)
    alpha = look_alpha(policy) / max(1, policy.n_candidates)
    return _conclude(evidence, policy, alpha, improvement_allowed=True)


def decide_many(
    baseline: Scores, candidates: Mapping[str, Scores], policy: GatePolicy
) -> dict[str, GateDecision]:
    """Decide several candidates of one night with Holm's step-down correction.

    Sort by improvement p-value; the i-th smallest (0-based) is tested at a / (m - i), where a
    is this look's alpha; the first that fails stops acceptance for all after it. This keeps
    the family-wise false-accept rate <= a and is never less powerful than Bonferroni.
    """
    a = look_alpha(policy)
    evidence = {name: _gather(baseline, scores, policy) for name, scores in candidates.items()}
    order = sorted(evidence, key=lambda name: evidence[name].improve.upper)
    m = len(order)
    decisions: dict[str, GateDecision] = {}
    still_open = True
    for i, name in enumerate(order):
        threshold = a / (m - i)
        passes = still_open and evidence[name].improve.upper <= threshold
        decisions[name] = _conclude(evidence[name], policy, threshold, improvement_allowed=passes)
        still_open = passes
    return {name: decisions[name] for name in candidates}


def false_accept_rate(decisions: Sequence[GateDecision]) -> float:
    """Fraction of accepts among A/A (document against itself) decisions."""
    if not decisions:
        return 0.0
    return sum(d.outcome == "accept" for d in decisions) / len(decisions)


def _validate(table: Scores, arm: str) -> None:
    bad = [
        x
        for scores in table.values()
        for x in scores
        if x is not None
        and (not isinstance(x, int | float) or isinstance(x, bool) or not 0.0 <= x <= 1.0)
    ]
    if bad:
        raise GateInputError(
            f"{len(bad)} {arm} score(s) are not numbers in [0, 1] (first: {bad[0]!r})"
        )


def _task_delta(b: list[float], c: list[float], policy: GatePolicy) -> TaskDelta:
    delta = sum(c) / len(c) - sum(b) / len(b)
    measured = len(b) >= 2 and len(c) >= 2
    variance = _pooled_variance(b + c)
    noise = math.sqrt(variance / len(b) + variance / len(c))
    margin = max(policy.regression_floor, policy.regression_z * noise)
    regressed = delta < -margin - 1e-12
    return TaskDelta(delta, noise, margin, regressed, regressed and measured, len(b), len(c))


def _pooled_variance(xs: list[float]) -> float:
    """The task's score variance, never below what its mean allows.

    With a handful of 0/1 rollouts that happen to agree, the sample variance is 0 and
    any change would look like a regression "beyond the noise". Scores live in [0, 1],
    so a Beta(1, 1)-smoothed mean m bounds a plausible variance from below by m(1 - m).
    """
    smoothed = (sum(xs) + 1.0) / (len(xs) + 2.0)
    return max(_variance(xs), smoothed * (1.0 - smoothed))


def _variance(xs: list[float]) -> float:
    """Unbiased sample variance; with one rollout the noise is unknown, so assume the worst."""
    if len(xs) < 2:
        return 0.25
    mean = sum(xs) / len(xs)
    return sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)


def _gather(baseline: Scores, candidate: Scores, policy: GatePolicy) -> _Evidence:
    _validate(baseline, "baseline")
    _validate(candidate, "candidate")
    tasks = sorted(set(baseline) | set(candidate))
    total = sum(len(baseline.get(t, ())) + len(candidate.get(t, ())) for t in tasks)
    missing = sum(
        sum(x is None for x in baseline.get(t, ())) + sum(x is None for x in candidate.get(t, ()))
        for t in tasks
    )
    paired: dict[str, tuple[list[float], list[float]]] = {}
    for t in tasks:
        b = [float(x) for x in baseline.get(t, ()) if x is not None]
        c = [float(x) for x in candidate.get(t, ()) if x is not None]
        if b and c:
            paired[t] = (b, c)
    per_task = {t: _task_delta(b, c, policy) for t, (b, c) in paired.items()}
    shifted = [(b, [x - policy.min_lift for x in c]) for b, c in paired.values()]
    if policy.test == "sign":
        deltas = [d.delta for d in per_task.values()]
        improve = sign_test([d - policy.min_lift for d in deltas])
        harm = sign_test(deltas)
        statistic = sum(deltas) / len(deltas) if deltas else 0.0
        n_informative = sum(1 for d in deltas if d != 0)
        below = improve
    else:
        statistic, harm = stratified_test(
            list(paired.values()), samples=policy.permutation_samples, seed=policy.seed
        )
        improve = below = harm
        if policy.min_lift != 0.0:
            _, improve = stratified_test(
                shifted, samples=policy.permutation_samples, seed=policy.seed
            )
            below = improve
        n_informative = sum(1 for b, c in paired.values() if len(set(b + c)) > 1)
    return _Evidence(
        per_task=per_task,
        paired=paired,
        missing_fraction=missing / total if total else 1.0,
        n_informative=n_informative,
        statistic=statistic,
        improve=improve,
        below_min_lift=below,
        harm=harm,
    )


def _conclude(
    ev: _Evidence, policy: GatePolicy, alpha: float, *, improvement_allowed: bool
) -> GateDecision:
    regressed = tuple(t for t, d in ev.per_task.items() if d.regressed)
    clear = tuple(t for t, d in ev.per_task.items() if d.clear)
    deltas = [d.delta for d in ev.per_task.values()]
    p_up, p_down = ev.improve.upper, ev.below_min_lift.lower
    significant = improvement_allowed and p_up <= alpha
    last_look = policy.look >= policy.max_looks

    outcome: Outcome
    if ev.missing_fraction > policy.max_missing_fraction:
        outcome = "inconclusive"
        reason = (
            f"{ev.missing_fraction:.0%} of rollouts failed (limit "
            f"{policy.max_missing_fraction:.0%}); missing data is never read as a loss"
        )
    elif ev.n_informative < policy.min_tasks:
        outcome, reason = (
            "reject" if last_look else "inconclusive",
            (
                f"only {ev.n_informative} informative task(s), {policy.min_tasks} needed"
                + ("; evidence never arrived by the last look" if last_look else "")
            ),
        )
    elif policy.no_regression and clear:
        outcome = "reject"
        reason = f"task {_names(clear)} regressed beyond its own noise"
    elif ev.harm.lower <= alpha:
        outcome = "reject"
        reason = f"the candidate is significantly worse (p_harm={ev.harm.lower:.3g})"
    elif p_down <= alpha:
        outcome = "reject"
        reason = f"the lift is clearly below min_lift={policy.min_lift:g} (p={p_down:.3g})"
    elif significant and policy.no_regression and regressed:
        outcome = "reject" if last_look else "inconclusive"
        reason = f"significant overall lift, but task {_names(regressed)} may have regressed"
    elif significant:
        outcome = "accept"
        reason = (
            f"lift {ev.statistic:+.3f} is significant (p={p_up:.3g} <= alpha {alpha:.3g}) "
            f"over {ev.n_informative} informative tasks, none regressed"
        )
    elif last_look:
        outcome = "reject"
        reason = (
            f"evidence never arrived: p={p_up:.3g} > alpha {alpha:.3g} on the last look "
            f"({policy.look}/{policy.max_looks})"
        )
    else:
        outcome = "inconclusive"
        reason = (
            f"not significant yet (p={p_up:.3g} > alpha {alpha:.3g}); "
            f"retest with fresh rollouts at look {policy.look + 1}/{policy.max_looks}"
        )
    auto = outcome == "accept" and p_up <= policy.auto_adopt_alpha * alpha / policy.alpha
    return GateDecision(
        outcome=outcome,
        statistic=ev.statistic,
        p_value=p_up,
        p_value_harm=ev.harm.lower,
        n_tasks=len(ev.per_task),
        n_informative=ev.n_informative,
        per_task=ev.per_task,
        mean_delta=sum(deltas) / len(deltas) if deltas else 0.0,
        missing_fraction=ev.missing_fraction,
        reason=reason,
        alpha_used=alpha,
        auto_adopt_ok=auto,
        exact=ev.improve.exact and ev.harm.exact,
        regressed_tasks=regressed,
    )


def _names(tasks: Sequence[str]) -> str:
    shown = ", ".join(tasks[:3])
    return shown + (f" (+{len(tasks) - 3} more)" if len(tasks) > 3 else "")


@dataclass(frozen=True)
class LiftReport:
    """Before/after figures for reporting (e.g. on the sealed test split); never decides."""

    mean_before: float
    mean_after: float
    delta: float
    per_task: Mapping[str, float]
    n_tasks: int

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "per_task": dict(self.per_task)}


def report_lift(before: Scores, after: Scores) -> LiftReport:
    """Mean score before and after over tasks scored in both; None rollouts are skipped."""
    _validate(before, "before")
    _validate(after, "after")
    per_task: dict[str, float] = {}
    means_b: list[float] = []
    means_a: list[float] = []
    for t in sorted(set(before) & set(after)):
        b = [float(x) for x in before[t] if x is not None]
        a = [float(x) for x in after[t] if x is not None]
        if b and a:
            means_b.append(sum(b) / len(b))
            means_a.append(sum(a) / len(a))
            per_task[t] = means_a[-1] - means_b[-1]
    mb = sum(means_b) / len(means_b) if means_b else 0.0
    ma = sum(means_a) / len(means_a) if means_a else 0.0
    return LiftReport(mb, ma, ma - mb, per_task, len(per_task))


def with_look(policy: GatePolicy, look: int) -> GatePolicy:
    """The same policy for a later night."""
    return replace(policy, look=look)
