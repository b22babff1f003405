"""Does the nightly loop learn, and is the gate honest?  (SIMULATED world: a test double.)

Part 1 runs the whole night (train replay -> reflect -> gate -> adopt -> sealed test) for
several seeds and nights under three gates on identical worlds: sleepd's gate (sequential
trial, GatePolicy defaults, inconclusive candidates carried), the naive gate (validation mean
went up, K=3), and no gate (adopt the first candidate). Ground truth for every candidate is the
simulated optimizer's own label (helpful / neutral / harmful).

Part 2 measures the gate directly on binomial scores (12 tasks, baseline rates U[0.2, 0.6]):
power, A/A false accepts, and the rollouts the sequential plan saves.

Every figure is printed with its target. Deterministic; asserts nothing.

    .venv/bin/python bench/learning.py [--seeds 5] [--nights 6] [--families 2,6] [--quick]
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _sim_loop import (
    GATES,
    KINDS,
    ArmRun,
    Gate,
    LoopSettings,
    calibration_accepts,
    run_arm,
)

from sleepd.backends.sim import OptimizerRates
from sleepd.dream.gate import GatePolicy, gather
from sleepd.dream.retest import Draw, check_with_retests, decide_with_retests
from sleepd.dream.sequential import SequentialPlan

TASKS = 12
K = 3
LIFT = 0.3
ONE_LOOK = GatePolicy(max_looks=1)  # alpha 0.05 for a single decision
DEFAULT_PLAN = SequentialPlan()
ARM_NAMES = {"sleepd": "sleepd gate", "naive": "naive gate", "none": "no gate"}
Scores = dict[str, list[float | None]]
Runs = Mapping[Gate, list[ArmRun]]


class Targets:
    """Every target this benchmark checks, and whether it was met."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, bool]] = []

    def check(self, name: str, measured: str, target: str, met: bool) -> str:
        self.rows.append((name, measured, target, met))
        return f"{measured}   (target {target}: {'met' if met else 'MISSED'})"


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def rate(hits: int, n: int) -> str:
    return f"{hits}/{n} = {pct(hits / n)}" if n else "0/0 = n/a"


# --- part 1: the nightly loop ------------------------------------------------------------


def loop_section(families: int, seeds: int, nights: int, targets: Targets) -> None:
    settings = LoopSettings(n_families=families)
    started = time.perf_counter()
    runs = {
        gate: [run_arm(gate, seed, nights, settings) for seed in range(seeds)] for gate in GATES
    }
    elapsed = time.perf_counter() - started
    print(
        f"\n== Nightly loop, SIMULATED world: {families} task families, {seeds} seeds x {nights}"
        f" nights ({elapsed:.1f} s) =="
    )
    print(
        f"   {settings.n_train} train / {settings.n_val} val / {settings.n_test} test tasks;"
        f" K={settings.k}; {settings.n_candidates} candidates a night; lift {settings.lift},"
        f" penalty {settings.penalty}; a helpful edit helps {settings.n_val // families} of"
        f" {settings.n_val} val tasks"
    )
    print_decisions(runs)
    print_curves(runs, nights)
    print_costs(runs, seeds, nights)
    print_sleepd_detail(runs["sleepd"])
    sleepd = runs["sleepd"]
    below_true = [r.seed for r in sleepd if r.test_true[-1] < r.test_true[0] - 1e-12]
    below_measured = [r.seed for r in sleepd if r.test_measured[-1] < r.test_measured[0]]
    ever_true = [r.seed for r in sleepd if min(r.test_true) < r.test_true[0] - 1e-12]
    print(
        "  sleepd gate, test score ends below its start (exact expected score): "
        + targets.check(
            f"{families} families: test ends below start (sleepd)",
            f"{len(below_true)}/{seeds} seeds {below_true or ''}".strip(),
            "never",
            not below_true,
        )
    )
    print(
        f"    same, measured with {settings.k} rollouts per test task: {len(below_measured)}/"
        f"{seeds} seeds {below_measured or ''}; below start at any night (exact): "
        f"{len(ever_true)}/{seeds}"
    )
    neutral = [c for r in sleepd for c in r.candidates if c.kind == "neutral"]
    accepted = sum(c.outcome == "accept" for c in neutral)
    print(
        "  sleepd gate, false accepts on neutral edits in the loop: "
        + targets.check(
            f"{families} families: neutral edits accepted (sleepd, in loop)",
            rate(accepted, len(neutral)),
            "<= 5 %",
            accepted <= 0.05 * len(neutral),
        )
    )


def print_decisions(runs: Runs) -> None:
    print("  Gate decisions per distinct candidate (optimizer's label = ground truth):")
    print(f"    {'':22}" + "".join(f"{ARM_NAMES[g]:>24}" for g in GATES))
    for kind, label in (
        ("neutral", "neutral: false accepts"),
        ("harmful", "harmful: false accepts"),
        ("helpful", "helpful: accepted"),
    ):
        cells = []
        for gate in GATES:
            cands = [c for r in runs[gate] for c in r.candidates if c.kind == kind]
            passed = sum(c.outcome == "accept" for c in cands)
            cells.append(rate(passed, len(cands)))
        print(f"    {label:22}" + "".join(f"{c:>24}" for c in cells))
    for kind in KINDS:
        cells = []
        for gate in GATES:
            adopted = sum(c.adopted for r in runs[gate] for c in r.candidates if c.kind == kind)
            cells.append(str(adopted))
        print(f"    {'adopted ' + kind:22}" + "".join(f"{c:>24}" for c in cells))
    print("    (no gate: the first candidate is adopted unseen; the others are never used)")
    lifts = {
        k: [c.true_val_lift for r in runs["none"] for c in r.candidates if c.kind == k]
        for k in KINDS
    }
    print(
        "    true mean effect on validation success by label: "
        + ", ".join(f"{k} {sum(v) / len(v):+.3f}" for k, v in lifts.items() if v)
    )


def print_curves(runs: Runs, nights: int) -> None:
    print("  Sealed test score per night, mean over seeds (night 0 = start):")
    header = "".join(f"{n:>7}" for n in range(nights + 1))
    print(f"    {'':28}{header}")
    for gate in GATES:
        for label, attr in (("exact", "test_true"), ("measured", "test_measured")):
            series = [getattr(r, attr) for r in runs[gate]]
            means = [sum(s[n] for s in series) / len(series) for n in range(nights + 1)]
            cells = "".join(f"{m:7.3f}" for m in means)
            print(f"    {ARM_NAMES[gate] + ' (' + label + ')':28}{cells}")


def print_costs(runs: Runs, seeds: int, nights: int) -> None:
    print("  Document growth and model calls (sealed-test scoring is the instrument, not counted):")
    for gate in GATES:
        growth = sum(r.doc_chars[-1] - r.doc_chars[0] for r in runs[gate]) / seeds
        calls: Counter[str] = Counter()
        for r in runs[gate]:
            calls.update(r.calls)
        total = sum(calls[role] for role in ("target", "judge", "optimizer"))
        print(
            f"    {ARM_NAMES[gate]:12} +{growth:6.1f} chars per seed;  calls per night:"
            f" {total / (seeds * nights):7.1f} (target {calls['target'] / (seeds * nights):.1f},"
            f" judge {calls['judge'] / (seeds * nights):.1f}, optimizer"
            f" {calls['optimizer'] / (seeds * nights):.1f})"
        )


def print_sleepd_detail(runs: list[ArmRun]) -> None:
    cands = [c for r in runs for c in r.candidates]
    looks = Counter(c.looks for c in cands)
    outcomes = Counter(c.outcome for c in cands)
    print(
        "  sleepd gate: looks per candidate "
        + ", ".join(f"{n} look(s): {looks[n]}" for n in sorted(looks))
        + f"; final outcomes {dict(sorted(outcomes.items()))}"
    )
    remembered = sum(r.remembered_rejects for r in runs)
    print(f"    proposals dropped as already rejected (rejected-edit memory): {remembered}")
    trial = sum(r.trial_rollouts for r in runs)
    fixed = sum(r.fixed_rollouts for r in runs)
    if fixed:
        print(
            f"    validation rollouts {trial} vs {fixed} for fixed K={DEFAULT_PLAN.k_max} on the"
            " same trials"
            f" ({pct(1 - trial / fixed)} saved)"
        )
    for kind in KINDS:
        whys = Counter(c.why for c in cands if c.kind == kind)
        print(f"    why {kind}: " + ", ".join(f"{w} {n}" for w, n in whys.most_common()))


# --- part 2: the gate on binomial scores --------------------------------------------------

EFFECTS = {"helpful": [LIFT] * TASKS, "neutral": [0.0] * TASKS, "harmful": [-LIFT] * TASKS}


@dataclass
class SimRun:
    """One simulated candidate: the gate's outcome and the rollouts it cost (both arms)."""

    outcome: str
    rollouts: int


def base_rates(
    rng: random.Random, n: int = TASKS, low: float = 0.2, high: float = 0.6
) -> list[float]:
    return [rng.uniform(low, high) for _ in range(n)]


def draw(
    rng: random.Random, rates: Sequence[float], effects: Sequence[float], k: int
) -> tuple[Scores, Scores]:
    """K binomial rollouts per task for the baseline and for a candidate with `effects`."""
    base: Scores = {}
    cand: Scores = {}
    for i, (p, effect) in enumerate(zip(rates, effects, strict=True)):
        base[f"t{i}"] = [float(rng.random() < p) for _ in range(k)]
        cand[f"t{i}"] = [float(rng.random() < p + effect) for _ in range(k)]
    return base, cand


def retest_draw(rng: random.Random, rates: Sequence[float], effects: Sequence[float]) -> Draw:
    """Fresh rollouts of the named tasks, both arms: what the night's retests replay."""

    def more(task_ids: Sequence[str], n: int) -> tuple[Scores, Scores]:
        base: Scores = {}
        cand: Scores = {}
        for t in task_ids:
            i = int(t[1:])
            base[t] = [float(rng.random() < rates[i]) for _ in range(n)]
            cand[t] = [float(rng.random() < rates[i] + effects[i]) for _ in range(n)]
        return base, cand

    return more


def fixed_runs(
    tag: str,
    effects: Sequence[float],
    k: int,
    draws: int,
    policy: GatePolicy = ONE_LOOK,
    rates_range: tuple[float, float] = (0.2, 0.6),
) -> list[SimRun]:
    """`decide` on a fixed design of K rollouts per task and arm, one look, with retests."""
    runs = []
    n = len(effects)
    for i in range(draws):
        rng = random.Random(f"{tag}-{i}")
        rates = base_rates(rng, n, *rates_range)
        base, cand = draw(rng, rates, effects, k)
        decision, retests = decide_with_retests(
            base, cand, policy, retest_draw(rng, rates, effects)
        )
        runs.append(SimRun(decision.outcome, 2 * n * k + retests.rollouts))
    return runs


def sequential_runs(
    tag: str,
    effects: Sequence[float],
    draws: int,
    plan: SequentialPlan | None = None,
    policy: GatePolicy = ONE_LOOK,
    rates_range: tuple[float, float] = (0.2, 0.6),
) -> list[SimRun]:
    """The sequential plan, one rollout per task and arm a round, as run_trial drives it
    (suspect tasks retested with fresh rollouts before any accept)."""
    plan = plan or SequentialPlan()
    runs = []
    n = len(effects)
    for i in range(draws):
        rng = random.Random(f"{tag}-{i}")
        rates = base_rates(rng, n, *rates_range)
        base: Scores = {f"t{t}": [] for t in range(n)}
        cand: Scores = {f"t{t}": [] for t in range(n)}
        retests = None
        for round_ in range(1, plan.k_max + 1):
            b, c = draw(rng, rates, effects, 1)
            for t in base:
                base[t] += b[t]
                cand[t] += c[t]
            step, retests = check_with_retests(
                plan, base, cand, round_, policy, retest_draw(rng, rates, effects), retests
            )
            if step.settled:
                break
        outcome = "reject" if step.status == "futile" else step.status
        retested = retests.rollouts if retests is not None else 0
        runs.append(SimRun(outcome, 2 * n * step.round + retested))
    return runs


def accepts(runs: Sequence[SimRun]) -> float:
    return sum(r.outcome == "accept" for r in runs) / len(runs)


def mean_rollouts(runs: Sequence[SimRun]) -> float:
    return sum(r.rollouts for r in runs) / len(runs)


def with_ci(share: float, n: int) -> str:
    """The share and its 95 % Wilson interval: how much of a miss could be sampling noise."""
    z = 1.96
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{pct(share)} [95 % CI {pct(max(0.0, centre - half))}-{pct(min(1.0, centre + half))}]"


def power_section(draws: int, targets: Targets) -> None:
    print(f"\n== The gate on binomial scores (SIMULATED), {TASKS} tasks, U[0.2, 0.6] baselines ==")
    print(f"  Power, +{LIFT} on every validation task, one look (alpha 0.05), {draws} draws:")
    helpful = EFFECTS["helpful"]
    for label, runs in (
        (f"decide(), fixed {TASKS}x{K}, max_looks=1", fixed_runs("pw", helpful, K, draws)),
        (
            f"sequential plan, k_max={DEFAULT_PLAN.k_max} (default)",
            sequential_runs("ps4", helpful, draws),
        ),
    ):
        power = accepts(runs)
        line = targets.check(f"power: {label}", with_ci(power, draws), ">= 80 %", power >= 0.8)
        print(f"    {label:38} {line}")
    for k_max in (3, 4):
        power = accepts(sequential_runs(f"ps{k_max}", helpful, draws, SequentialPlan(k_max)))
        print(
            f"    {f'what-if: same plan, k_max={k_max}':38} {with_ci(power, draws)}"
            "   (not the default: fewer rounds, less power)"
        )


def aa_section(draws: int, targets: Targets) -> None:
    n = 2 * draws
    print(f"  False accepts on no-op edits (A/A: document vs itself, {n} draws):")
    gate = naive = 0
    for i in range(n):
        rng = random.Random(f"aa-{i}")
        rates = base_rates(rng)
        base, cand = draw(rng, rates, EFFECTS["neutral"], K)
        decision, _ = decide_with_retests(
            base, cand, ONE_LOOK, retest_draw(rng, rates, EFFECTS["neutral"])
        )
        gate += decision.outcome == "accept"
        naive += _total(cand) > _total(base)
    line = targets.check(
        "A/A false accepts: decide()", with_ci(gate / n, n), "<= 5 %", gate <= 0.05 * n
    )
    print(f"    sleepd gate, decide() {TASKS}x{K}, one look: {line}")
    print(f"    naive 'mean went up', same draws:     {with_ci(naive / n, n)}   (expected ~50 %)")
    seq = accepts(sequential_runs("as", EFFECTS["neutral"], n))
    line = targets.check("A/A false accepts: sequential", with_ci(seq, n), "<= 5 %", seq <= 0.05)
    print(f"    sleepd gate, sequential k_max={DEFAULT_PLAN.k_max}:      {line}")


def _total(table: Scores) -> float:
    return sum(x for v in table.values() for x in v if x is not None)


#: The savings comparison uses this many times `--draws`: the saving against the fixed
#: design of equal power moves by several points with a power estimate's sampling error
#: (the fixed designs' power rises only ~8 points from K=3 to K=4), and these runs are cheap.
SAVINGS_DRAW_FACTOR = 5


def savings_section(draws: int, rates: OptimizerRates, targets: Targets) -> None:
    """Rollouts of the sequential plan against fixed designs, per kind and on the mix."""
    draws *= SAVINGS_DRAW_FACTOR
    print(
        f"  Sequential savings (plan k_max={DEFAULT_PLAN.k_max} vs fixed K, one look, alpha 0.05,"
        f" {draws} draws):"
    )
    seq = {kind: sequential_runs(f"sv-{kind}", EFFECTS[kind], draws) for kind in KINDS}
    runs3 = {kind: fixed_runs(f"fx-{kind}", EFFECTS[kind], K, draws) for kind in KINDS}
    fixed3 = {kind: accepts(runs3[kind]) for kind in KINDS}
    weights = {"helpful": rates.helpful, "neutral": rates.neutral, "harmful": rates.harmful}
    total_w = sum(weights.values())
    fixed_k3 = 2 * TASKS * K
    for kind in KINDS:
        used = mean_rollouts(seq[kind])
        print(
            f"    {kind:8} {LIFT_LABEL[kind]:10} {weights[kind] / total_w:4.0%} of the mix:"
            f" accepted {pct(accepts(seq[kind]))} (fixed K=3: {pct(fixed3[kind])});"
            f" rollouts {used:5.1f} vs {fixed_k3} ({pct(1 - used / fixed_k3)} saved)"
        )
    mix = sum(weights[k] * mean_rollouts(seq[k]) for k in KINDS) / total_w
    power = accepts(seq["helpful"])
    fixed = {
        (kind, k): fixed_runs(f"fx-{kind}-{k}", EFFECTS[kind], k, draws)
        for kind in KINDS
        for k in (2, 4, 5)
    }
    helpful_fixed = {k: accepts(fixed[("helpful", k)]) for k in (2, 4, 5)} | {K: fixed3["helpful"]}
    # What a fixed design really spends on the mix: its 2 x tasks x K rollouts plus the
    # retests its own regression guard needs (the plan's figure counts the plan's retests).
    fixed_mix = {
        k: sum(weights[kind] * mean_rollouts(fixed[(kind, k)]) for kind in KINDS) / total_w
        for k in (2, 4, 5)
    }
    fixed_mix[K] = sum(weights[kind] * mean_rollouts(runs3[kind]) for kind in KINDS) / total_w
    k_eq = matched_k(power, helpful_fixed)
    saved_k3 = 1 - mix / fixed_k3
    saved_design = 1 - mix / (2 * TASKS * k_eq)
    saved_eq = 1 - mix / interpolate(fixed_mix, k_eq)
    # The saving's sampling error comes mostly from the plan's power (through K_eq).
    half = 1.96 * math.sqrt(power * (1 - power) / draws)
    k_lo, k_hi = matched_k(power - half, helpful_fixed), matched_k(power + half, helpful_fixed)
    print(
        f"    mix: {mix:.1f} rollouts per candidate, {pct(saved_k3)} fewer than fixed K=3 — but"
        f" fixed K=3 has {pct(fixed3['helpful'])} power against the plan's {with_ci(power, draws)}"
    )
    print(
        "    fixed power by K: "
        + ", ".join(f"K={k}: {pct(v)}" for k, v in sorted(helpful_fixed.items()))
        + f"; equal power to the plan at K = {k_eq:.2f} (interpolated;"
        f" {k_lo:.2f}-{k_hi:.2f} over the plan's power interval)"
    )
    print(
        "    fixed rollouts on the mix, retests included: "
        + ", ".join(f"K={k}: {v:.1f}" for k, v in sorted(fixed_mix.items()))
        + f"; at K = {k_eq:.2f}: {interpolate(fixed_mix, k_eq):.1f}"
    )
    print(
        f"    saved against the design's rollouts alone (2 x {TASKS} x K, no retests, the"
        f" figure reported before both designs had retests): {pct(saved_design)}"
    )
    line = targets.check(
        "sequential savings on the mix, vs fixed K of equal power",
        f"{pct(saved_eq)} [{pct(1 - mix / interpolate(fixed_mix, k_lo))}-"
        f"{pct(1 - mix / interpolate(fixed_mix, k_hi))} over the power interval]",
        ">= 40 %",
        saved_eq >= 0.4,
    )
    print(
        "    saved on the mix against the fixed design of equal power, retests counted on"
        f" both sides: {line}"
    )
    what_if_k_max(draws // SAVINGS_DRAW_FACTOR, weights, helpful_fixed)
    what_if(max(10, draws // SAVINGS_DRAW_FACTOR // 2), weights)


def what_if_k_max(draws: int, weights: Mapping[str, float], fixed_power: dict[int, float]) -> None:
    """The same rule with fewer rounds (config gate.sequential_rounds); same fixed comparator."""
    total_w = sum(weights.values())
    for k_max in (4,):
        plan = SequentialPlan(k_max)
        runs = {k: sequential_runs(f"sv-{k}", EFFECTS[k], draws, plan) for k in KINDS}
        mix = sum(weights[k] * mean_rollouts(runs[k]) for k in KINDS) / total_w
        power = accepts(runs["helpful"])
        k_eq = matched_k(power, fixed_power)
        print(
            f"    what-if, same rule with k_max={k_max}: power {pct(power)}, A/A"
            f" {pct(accepts(runs['neutral']))}, mix {mix:.1f} rollouts ="
            f" {pct(1 - mix / (2 * TASKS * k_eq))} saved vs equal power (K = {k_eq:.2f})"
        )


def what_if(draws: int, weights: Mapping[str, float]) -> None:
    """Settings the product could choose (not what it runs today): power and savings.

    The fixed comparator runs without the per-task regression check too, so it stays fair.
    """
    no_regression = replace(ONE_LOOK, no_regression=False)
    fixed_power = {
        k: accepts(fixed_runs(f"wi-fx-{k}", EFFECTS["helpful"], k, draws, no_regression))
        for k in (2, 3, 4)
    }
    print(
        "    what-if, fixed K without the regression check, power: "
        + ", ".join(f"K={k}: {pct(v)}" for k, v in fixed_power.items())
    )
    total_w = sum(weights.values())
    for label, plan in (
        ("what-if, per-task regression off", SequentialPlan()),
        ("what-if, regression off + O'Brien-Fleming", SequentialPlan(spending="obrien-fleming")),
    ):
        runs = {
            k: sequential_runs(f"wi-{label}-{k}", EFFECTS[k], draws, plan, no_regression)
            for k in KINDS
        }
        mix = sum(weights[k] * mean_rollouts(runs[k]) for k in KINDS) / total_w
        power = accepts(runs["helpful"])
        k_eq = matched_k(power, fixed_power)
        print(
            f"    {label}: power {pct(power)}, A/A {pct(accepts(runs['neutral']))}, mix"
            f" {mix:.1f} rollouts = {pct(1 - mix / (2 * TASKS * K))} saved vs K=3,"
            f" {pct(1 - mix / (2 * TASKS * k_eq))} vs equal power (K = {k_eq:.2f}) [{draws} draws]"
        )


LIFT_LABEL = {"helpful": f"(+{LIFT})", "neutral": "(0)", "harmful": f"(-{LIFT})"}


def interpolate(by_k: Mapping[int, float], k: float) -> float:
    """`by_k` at a fractional K, linear between the neighbouring whole ones."""
    ks = sorted(by_k)
    k = min(max(k, ks[0]), ks[-1])
    for lo, hi in itertools.pairwise(ks):
        if k <= hi:
            return by_k[lo] + (by_k[hi] - by_k[lo]) * (k - lo) / (hi - lo)
    return by_k[ks[-1]]


def matched_k(power: float, fixed_power: dict[int, float]) -> float:
    """The (interpolated) fixed K whose power equals `power`: the fair fixed comparator."""
    ks = sorted(fixed_power)
    if power <= fixed_power[ks[0]]:
        return float(ks[0])
    for lo, hi in itertools.pairwise(ks):
        if power <= fixed_power[hi]:
            span = fixed_power[hi] - fixed_power[lo]
            return lo + (power - fixed_power[lo]) / span if span > 0 else float(hi)
    return float(ks[-1])


def diagnosis_section(draws: int) -> None:
    print("\n== Diagnosis: where the loop's power goes (SIMULATED, binomial, first look) ==")
    print(
        "  A confirmed per-task 'regression' under A/A (no-op edit), any of 12 tasks, by rollouts:"
    )
    cells = []
    for k in (2, 3, 4):
        alarms = 0
        for i in range(draws):
            rng = random.Random(f"rg{k}-{i}")
            base, cand = draw(rng, base_rates(rng), EFFECTS["neutral"], k)
            alarms += any(d.regressed for d in gather(base, cand, ONE_LOOK).per_task.values())
        cells.append(f"K={k}: {pct(alarms / draws)}")
    print("    " + ";  ".join(cells) + f"   ({draws} draws; each alarm rejects the candidate)")
    product = GatePolicy(n_candidates=3)  # night 1 of 3 looks, 3 candidates: alpha 0.05/9
    effects = {
        f"+{LIFT} on all 12": EFFECTS["helpful"],
        "+0.4 on 6 of 12": [0.4] * 6 + [0.0] * 6,
        "+0.4 on 2 of 12": [0.4] * 2 + [0.0] * 10,
    }
    variants = {
        "product defaults": (product, SequentialPlan()),
        "no futility stop": (product, SequentialPlan(futility_power=0.0)),
        "no per-task regression": (replace(product, no_regression=False), SequentialPlan()),
        "neither": (replace(product, no_regression=False), SequentialPlan(futility_power=0.0)),
    }
    print(
        "  Accepted at the first look (alpha 0.05 / 3 looks / 3 candidates), sequential"
        f" k_max={DEFAULT_PLAN.k_max}, {draws} draws (2 of 12 = a 6-family world,"
        " 6 of 12 = a 2-family world):"
    )
    print(f"    {'':24}" + "".join(f"{name:>18}" for name in effects))
    for vname, (policy, plan) in variants.items():
        cells = [
            pct(accepts(sequential_runs(f"dg-{ename}", eff, draws, plan, policy)))
            for ename, eff in effects.items()
        ]
        print(f"    {vname:24}" + "".join(f"{c:>18}" for c in cells))


@dataclass(frozen=True)
class World:
    """A binomial world the gate's settings were not tuned on."""

    label: str
    tasks: int
    k: int
    rates: tuple[float, float]


UNTUNED_WORLDS = (
    World("12 tasks x 3, rates U[0.2, 0.6] (fresh seeds)", 12, 3, (0.2, 0.6)),
    World("12 tasks x 3, rates U[0.05, 0.35]", 12, 3, (0.05, 0.35)),
    World("12 tasks x 3, rates U[0.4, 0.7]", 12, 3, (0.4, 0.7)),
    World("8 tasks x 3, rates U[0.2, 0.6]", 8, 3, (0.2, 0.6)),
    World("20 tasks x 3, rates U[0.1, 0.7]", 20, 3, (0.1, 0.7)),
    World("12 tasks x 5, rates U[0.3, 0.7]", 12, 5, (0.3, 0.7)),
    World("6 tasks x 5, rates U[0.2, 0.6]", 6, 5, (0.2, 0.6)),
)


def worlds_section(draws: int, targets: Targets) -> None:
    """A/A and power through decide() and the plan, with retests, on untuned worlds."""
    from sleepd.dream.stats import detectable_lift

    power_draws = max(10, draws // 2)

    print(
        f"\n== The gate with retests on worlds it was not tuned on (SIMULATED; A/A {draws},"
        f" power {power_draws} draws each; one look, alpha 0.05) =="
    )
    print(
        f"    {'world':44}{'A/A decide':>12}{'A/A plan':>10}{'power decide':>14}"
        f"{'power plan':>12}{'retests/cand':>14}{'MDE':>7}"
    )
    for world in UNTUNED_WORLDS:
        tag = f"untuned-{world.label}"
        neutral = [0.0] * world.tasks
        helpful = [LIFT] * world.tasks
        aa_fixed = accepts(fixed_runs(f"{tag}-aa", neutral, world.k, draws, ONE_LOOK, world.rates))
        aa_plan = accepts(
            sequential_runs(f"{tag}-aas", neutral, draws, None, ONE_LOOK, world.rates)
        )
        pw = fixed_runs(f"{tag}-pw", helpful, world.k, power_draws, ONE_LOOK, world.rates)
        pw_plan = accepts(
            sequential_runs(f"{tag}-pws", helpful, power_draws, None, ONE_LOOK, world.rates)
        )
        extra = mean_rollouts(pw) - 2 * world.tasks * world.k
        mde = detectable_lift(world.tasks, world.k, 0.05) or float("nan")
        print(
            f"    {world.label:44}{pct(aa_fixed):>12}{pct(aa_plan):>10}{pct(accepts(pw)):>14}"
            f"{pct(pw_plan):>12}{extra:>14.1f}{mde:>7.2f}"
        )
        targets.check(
            f"A/A false accepts with retests, {world.label}",
            f"decide {with_ci(aa_fixed, draws)}, plan {with_ci(aa_plan, draws)}",
            "<= 5 %",
            aa_fixed <= 0.05 and aa_plan <= 0.05,
        )
        if world.tasks == TASKS and world.k == K:
            power = accepts(pw)
            targets.check(
                f"power +{LIFT} with retests, {world.label}",
                f"decide {pct(power)}, plan {pct(pw_plan)}",
                ">= 80 %",
                power >= 0.8 and pw_plan >= 0.8,
            )
    print(
        "    MDE: the smallest lift on every task a fixed design detects with 80 % power"
        " (normal approximation, p = 0.5), what `sleepd run --dry-run` prints"
    )


def regression_section(draws: int, targets: Targets) -> None:
    """A candidate that helps every task but one, which it breaks: how often is it accepted?"""
    print(f"\n== Per-task regressions with retests (SIMULATED, {draws} draws, 12 tasks) ==")
    cases = (
        ("collapse 1.0 -> 0.0, 11 tasks +0.3 (k=3)", 3, 1.0, -1.0),
        ("collapse 1.0 -> 0.0, 11 tasks +0.3 (k=2)", 2, 1.0, -1.0),
        ("collapse 1.0 -> 0.0, 11 tasks +0.3 (k=1)", 1, 1.0, -1.0),
        ("drop 0.9 -> 0.2, 11 tasks +0.3 (k=3)", 3, 0.9, -0.7),
        ("drop 0.8 -> 0.3, 11 tasks +0.3 (k=3)", 3, 0.8, -0.5),
    )
    for label, k, start, drop in cases:
        accepted = retest_rollouts = 0
        for i in range(draws):
            rng = random.Random(f"reg-{label}-{i}")
            rates = [*base_rates(rng, TASKS - 1), start]
            effects = [LIFT] * (TASKS - 1) + [drop]
            base, cand = draw(rng, rates, effects, k)
            decision, retests = decide_with_retests(
                base, cand, ONE_LOOK, retest_draw(rng, rates, effects)
            )
            accepted += decision.outcome == "accept"
            retest_rollouts += retests.rollouts
        line = (
            f"accepted {rate(accepted, draws)}; retest rollouts per candidate"
            f" {retest_rollouts / draws:.1f}"
        )
        if "collapse" in label:
            line = (
                targets.check(
                    f"collapsed task accepted: {label}",
                    rate(accepted, draws),
                    "0",
                    accepted == 0,
                )
                + f"; retest rollouts per candidate {retest_rollouts / draws:.1f}"
            )
        print(f"    {label:44} {line}")


def world_aa_section(seeds: int, draws: int, settings: LoopSettings, targets: Targets) -> None:
    accepted = decided = 0
    for seed in range(seeds):
        a, d = calibration_accepts(seed, draws, settings)
        accepted += a
        decided += d
    print(
        f"  A/A on the product path (run_calibration in the simulated world,"
        f" {settings.n_families} families, {seeds} seeds x {draws}): "
        + targets.check(
            "A/A false accepts, run_calibration",
            rate(accepted, decided),
            "<= 5 %",
            accepted <= 0.05 * decided,
        )
    )


MISSES = (
    (
        "A/A false accepts with retests",
        "the test is exact (its false-accept rate is at most alpha by construction; retests only"
        " remove accepts), so a figure a little above 5 % on a few hundred draws is sampling"
        " noise when its 95 % interval contains 5 %; rerun with more --draws to narrow it",
    ),
    (
        "power: sequential",
        "the conditional-power futility stop removes some good edits early; with few draws the"
        " interval is wide (the tuning draws gave 87-89 %)",
    ),
    (
        "sequential savings",
        "the per-task regression retests cost the plan's helpful candidates rollouts at its"
        " interim rounds, where one rollout per task makes large drops common; no setting of"
        " the plan tried (futility 0.15-0.4, design power 0.4-0.6, linear/Pocock/O'Brien-"
        "Fleming/quadratic spending, rising or falling futility bars, k_max 4-6, retest steps"
        " 1-3) reached 40 % on 2,000+ draws without losing power; without the regression check"
        " the same plan saves ~41 % (the what-if line)",
    ),
    (
        "run_calibration",
        "a few hundred A/A draws in the simulated world: the binomial 95 % interval around this"
        " rate still contains 5 % (decide() and the sequential plan, on 800 draws, are below it)",
    ),
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="world seeds (default 5)")
    parser.add_argument("--nights", type=int, default=6, help="nights per seed (default 6)")
    parser.add_argument(
        "--families", default="2,6", help="task families per world, comma-separated (2,6)"
    )
    parser.add_argument("--draws", type=int, default=400, help="draws per gate simulation")
    parser.add_argument("--quick", action="store_true", help="2 seeds x 3 nights, 100 draws")
    args = parser.parse_args(argv)
    if args.quick:
        args.seeds, args.nights, args.draws = 2, 3, 100
    try:
        families = [int(x) for x in args.families.split(",") if x.strip()]
    except ValueError:
        parser.error(f"--families wants comma-separated integers, got {args.families!r}")
    if args.seeds < 1 or args.nights < 1 or args.draws < 10 or not families:
        parser.error("--seeds and --nights must be >= 1, --draws >= 10, --families non-empty")
    started = time.perf_counter()
    print("SIMULATED: every figure below comes from sleepd's simulator, a deterministic test")
    print("double (SimWorld / SimBackend), never from a real model.")
    targets = Targets()
    for n_families in families:
        loop_section(n_families, args.seeds, args.nights, targets)
    power_section(args.draws, targets)
    aa_section(args.draws, targets)
    savings_section(args.draws, OptimizerRates(), targets)
    world_aa_section(
        args.seeds, max(10, args.draws // 10), LoopSettings(n_families=families[0]), targets
    )
    regression_section(max(10, args.draws // 2), targets)
    worlds_section(args.draws, targets)
    diagnosis_section(args.draws // 2)
    print(f"\n== Targets (SIMULATED; {time.perf_counter() - started:.0f} s) ==")
    for name, measured, target, met in targets.rows:
        print(f"  {'met   ' if met else 'MISSED'} {name}: {measured} (target {target})")
    missed = {
        why for name, _m, _t, met in targets.rows if not met for key, why in MISSES if key in name
    }
    for why in sorted(missed):
        print(f"  why missed: {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
