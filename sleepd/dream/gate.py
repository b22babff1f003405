"""The held-out gate: does a candidate skill edit help, hurt, or is it too early to say?

A pure function of two score tables (task id -> rollout scores in [0, 1], None = the rollout
failed for infrastructure reasons). See docs/gate.md for the statistics in plain words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from sleepd.dream.permutation import TailProbabilities, sign_test, stratified_test
from sleepd.dream.stats import obrien_fleming_spent, task_harm_p
from sleepd.errors import ExitCode, SleepdError

Outcome = Literal["accept", "reject", "inconclusive"]
TaskState = Literal["ok", "suspect", "regressed"]
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
    no_regression: bool = True  # a task that drops by regression_floor or more blocks acceptance
    regression_floor: float = 0.25  # smallest drop (score units) that counts as a regression
    # A drop of at least the floor is confirmed when that task's own exact one-sided test
    # reaches this level; until then it is a suspect that earns fresh rollouts (a retest).
    regression_alpha: float = 0.02
    # Retests add `retest_step` rollouts per arm to a suspect task, up to this many per arm
    # in all (first rollouts included); a drop still unconfirmed there is cleared.
    retest_max_rollouts: int = 12
    retest_step: int = 3
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
class RetestScores:
    """Fresh rollouts spent on suspect tasks only, both arms.

    They judge per-task regressions, never the overall lift: which tasks get them depends
    on the data, so mixing them into the stratified test would weaken its exactness.
    """

    baseline: Scores = field(default_factory=dict)
    candidate: Scores = field(default_factory=dict)

    @property
    def rollouts(self) -> int:
        return sum(len(v) for v in self.baseline.values()) + sum(
            len(v) for v in self.candidate.values()
        )


@dataclass(frozen=True)
class TaskDelta:
    """One task's paired comparison (first rollouts and retests together)."""

    delta: float  # mean(candidate) - mean(baseline)
    p_harm: float  # one-sided exact p that this task got worse
    state: TaskState  # ok | suspect (large drop, not yet significant) | regressed (confirmed)
    n_baseline: int
    n_candidate: int
    retest_baseline: int = 0  # of which retest rollouts
    retest_candidate: int = 0

    @property
    def regressed(self) -> bool:
        return self.state == "regressed"

    @property
    def suspect(self) -> bool:
        return self.state == "suspect"


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
    #: Suspect tasks that stand between this candidate and an accept: retest them.
    retest_tasks: tuple[str, ...] = field(default=())
    retest_rollouts: int = 0
    look: int = 1
    max_looks: int = 1
    alpha: float = 0.05  # the policy's overall level, before looks and candidates

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["per_task"] = {k: asdict(v) for k, v in self.per_task.items()}
        data["regressed_tasks"] = list(self.regressed_tasks)
        data["retest_tasks"] = list(self.retest_tasks)
        return data


@dataclass(frozen=True)
class Evidence:
    """Everything about one comparison that does not depend on the level alpha."""

    per_task: dict[str, TaskDelta]
    paired: dict[str, tuple[list[float], list[float]]]
    missing_fraction: float
    n_informative: int
    statistic: float
    improve: TailProbabilities
    below_min_lift: TailProbabilities
    harm: TailProbabilities
    retest_rollouts: int = 0


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
    return obrien_fleming_spent(policy.alpha, k / m) - obrien_fleming_spent(
        policy.alpha, (k - 1) / m
    )


def candidate_alpha(policy: GatePolicy) -> float:
    """This look's alpha, Bonferroni-divided among tonight's candidates."""
    return look_alpha(policy) / max(1, policy.n_candidates)


def decide(
    baseline: Scores,
    candidate: Scores,
    policy: GatePolicy,
    *,
    retests: RetestScores | None = None,
) -> GateDecision:
    """Decide one candidate against the baseline on the validation split.

    The level is policy.alpha, split across looks (nights), then Bonferroni-divided by
    policy.n_candidates. Use decide_many() to get Holm's sharper correction instead.
    An outcome of "inconclusive" with `retest_tasks` means: significant, but those tasks
    dropped by the regression floor or more without being significant yet; add fresh
    rollouts on them (both arms) as `retests` and decide again.
    """
    evidence = gather(baseline, candidate, policy, retests=retests)
    return conclude(evidence, policy, candidate_alpha(policy))


def decide_many(
    baseline: Scores, candidates: Mapping[str, Scores], policy: GatePolicy
) -> dict[str, GateDecision]:
    """Decide several candidates of one night with Holm's step-down correction.

    Sort by improvement p-value; the i-th smallest (0-based) is tested at a / (m - i), where a
    is this look's alpha; the first that fails stops acceptance for all after it. This keeps
    the family-wise false-accept rate <= a and is never less powerful than Bonferroni.
    """
    a = look_alpha(policy)
    evidence = {name: gather(baseline, scores, policy) for name, scores in candidates.items()}
    order = sorted(evidence, key=lambda name: evidence[name].improve.upper)
    m = len(order)
    decisions: dict[str, GateDecision] = {}
    still_open = True
    for i, name in enumerate(order):
        threshold = a / (m - i)
        passes = still_open and evidence[name].improve.upper <= threshold
        decisions[name] = conclude(evidence[name], policy, threshold, improvement_allowed=passes)
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


def task_delta(
    b: list[float], c: list[float], policy: GatePolicy, retest_b: int = 0, retest_c: int = 0
) -> TaskDelta:
    """One task's drop, its exact one-sided p for harm, and whether it is a regression.

    A drop smaller than the floor is never a regression. A larger one is confirmed when the
    task's own exact test reaches `regression_alpha`; otherwise it is a suspect until both
    arms hold `retest_max_rollouts` rollouts, after which it is cleared. So a task that
    passed every baseline rollout and failed every candidate rollout is a suspect at 1 or
    2 rollouts per arm (too few to tell) and confirmed from 3 on (p = 1/20 at 3 + 3).
    """
    delta = sum(c) / len(c) - sum(b) / len(b)
    state: TaskState = "ok"
    p_harm = 1.0
    if delta <= -policy.regression_floor + 1e-12:
        p_harm = task_harm_p(b, c, seed=policy.seed)
        if p_harm <= policy.regression_alpha:
            state = "regressed"
        elif min(len(b), len(c)) < policy.retest_max_rollouts:
            state = "suspect"
    return TaskDelta(delta, p_harm, state, len(b), len(c), retest_b, retest_c)


def gather(
    baseline: Scores,
    candidate: Scores,
    policy: GatePolicy,
    *,
    retests: RetestScores | None = None,
) -> Evidence:
    """Every figure of one comparison; `conclude` turns it into an outcome at a level."""
    _validate(baseline, "baseline")
    _validate(candidate, "candidate")
    retests = retests or RetestScores()
    _validate(retests.baseline, "retest baseline")
    _validate(retests.candidate, "retest candidate")
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
    per_task = {}
    for t, (b, c) in paired.items():
        rb = [float(x) for x in retests.baseline.get(t, ()) if x is not None]
        rc = [float(x) for x in retests.candidate.get(t, ()) if x is not None]
        per_task[t] = task_delta(b + rb, c + rc, policy, len(rb), len(rc))
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
    return Evidence(
        per_task=per_task,
        paired=paired,
        missing_fraction=missing / total if total else 1.0,
        n_informative=n_informative,
        statistic=statistic,
        improve=improve,
        below_min_lift=below,
        harm=harm,
        retest_rollouts=retests.rollouts,
    )


def conclude(
    ev: Evidence, policy: GatePolicy, alpha: float, *, improvement_allowed: bool = True
) -> GateDecision:
    """The outcome of `ev` at level `alpha` (see docs/gate.md for the order of the rules)."""
    regressed = tuple(t for t, d in ev.per_task.items() if d.regressed)
    suspects = tuple(t for t, d in ev.per_task.items() if d.suspect)
    deltas = [d.delta for d in ev.per_task.values()]
    p_up, p_down = ev.improve.upper, ev.below_min_lift.lower
    significant = improvement_allowed and p_up <= alpha
    last_look = policy.look >= policy.max_looks

    outcome: Outcome
    retest: tuple[str, ...] = ()
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
    elif policy.no_regression and regressed:
        outcome = "reject"
        reason = (
            f"task {_regressions(regressed, ev.per_task)} regressed (confirmed by its own test)"
        )
    elif ev.harm.lower <= alpha:
        outcome = "reject"
        reason = f"the candidate is significantly worse (p_harm={ev.harm.lower:.3g})"
    elif p_down <= alpha:
        outcome = "reject"
        reason = f"the lift is clearly below min_lift={policy.min_lift:g} (p={p_down:.3g})"
    elif significant and policy.no_regression and suspects:
        outcome, retest = "inconclusive", suspects
        reason = (
            f"significant overall lift, but task {_regressions(suspects, ev.per_task)} "
            "dropped without being significant yet: retest with fresh rollouts"
        )
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
        retest_tasks=retest,
        retest_rollouts=ev.retest_rollouts,
        look=policy.look,
        max_looks=policy.max_looks,
        alpha=policy.alpha,
    )


def _regressions(tasks: Sequence[str], per_task: Mapping[str, TaskDelta]) -> str:
    """Names with their drop and rollout counts, so a reason can be checked by a person."""
    shown = ", ".join(
        f"{t} ({per_task[t].delta:+.2f} over {per_task[t].n_baseline}+"
        f"{per_task[t].n_candidate} rollouts, p={per_task[t].p_harm:.2g})"
        for t in tasks[:3]
    )
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
