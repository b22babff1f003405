"""The nightly learning loop on the SIMULATED world, under three gates, for bench/learning.py.

One `ArmLoop` is one arm (a gate) on one world seed: each night it replays the training tasks
under the current document, reflects, gates the candidates on the validation tasks, adopts the
accepted candidate with the largest lift (as if the reviewer approved it), and then measures
the sealed test tasks with a separate simulator instance whose calls are the benchmark's
instrument, not the loop's cost. Nothing here decides on the test split.

The simulator is a TEST DOUBLE: every figure this produces is about the simulated world.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from sleepd.backends.sim import OptimizerRates, Proposal, SimBackend, SimWorld
from sleepd.documents.edits import EditBudget, parse_edits
from sleepd.documents.targets import TargetSpec, initial_content
from sleepd.dream.executor import CallExecutor
from sleepd.dream.gate import GatePolicy
from sleepd.dream.prompts import TARGET_SYSTEM
from sleepd.dream.reflect import CandidateEdit, Reflector, fingerprint
from sleepd.dream.replay import (
    Replayer,
    ReplayTask,
    RolloutResult,
    Scores,
    mean_score,
    scores_by_task,
)
from sleepd.dream.safety import SafetyPolicy
from sleepd.dream.sequential import SequentialPlan
from sleepd.dream.trial import run_calibration, run_trial

Gate = Literal["sleepd", "naive", "none"]
GATES: tuple[Gate, ...] = ("sleepd", "naive", "none")
Kind = Literal["helpful", "neutral", "harmful"]
KINDS: tuple[Kind, ...] = ("helpful", "neutral", "harmful")

# Rollout indices per night, as sleepd/dream/night.py spaces them (fresh draws every night).
NIGHT_STRIDE = 1000
VAL_SHIFT = 100
TEST_INDEX = 900_000  # the instrument scores every document on the same test indices
SKILL_PATH = Path("sim-project/.claude/skills/sleepd-learned/SKILL.md")


@dataclass(frozen=True)
class LoopSettings:
    """The world and the night's sizes; defaults are the benchmark's."""

    n_families: int = 3
    lift: float = 0.4
    penalty: float = 0.3
    base_rate: float = 0.35
    n_train: int = 24
    n_val: int = 12
    n_test: int = 12
    k: int = 3  # rollouts per task for train, the naive gate, and the test instrument
    n_candidates: int = 3
    rates: OptimizerRates = field(default_factory=OptimizerRates)
    policy: GatePolicy = field(default_factory=GatePolicy)
    plan: SequentialPlan = field(default_factory=SequentialPlan)


@dataclass
class CandidateRecord:
    """One distinct candidate of one arm, with the optimizer's ground truth beside it."""

    night: int
    kind: Kind
    true_val_lift: float  # exact change in expected validation success (from the world)
    looks: int = 0
    rounds: list[int] = field(default_factory=list)
    outcome: str = "pending"  # accept | reject | stale | pending | unused (no gate)
    why: str = ""  # the gate's reason class for the last decision (see `reason_class`)
    adopted: bool = False


@dataclass
class ArmRun:
    """What one arm did on one seed."""

    gate: Gate
    seed: int
    test_true: list[float] = field(default_factory=list)  # night 0 (start) .. N, exact
    test_measured: list[float] = field(default_factory=list)  # same, K rollouts per task
    doc_chars: list[int] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)
    candidates: list[CandidateRecord] = field(default_factory=list)
    trial_rollouts: int = 0
    fixed_rollouts: int = 0  # what a fixed K = k_max design would have spent on the same trials
    remembered_rejects: int = 0  # proposals dropped because the same edit was rejected before


REASON_CLASSES = (
    ("futile after 1 ", "futile at round 1"),
    ("futile after", "futile at a later round"),
    ("evidence never arrived", "no significance by the last look"),
    ("is significant (p=", "significant lift"),
    ("regressed beyond its own noise", "a task regressed (clear)"),
    ("may have regressed", "a task may have regressed"),
    ("significantly worse", "significant harm"),
    ("informative task", "too few informative tasks"),
    ("not significant yet", "not significant yet"),
)


def reason_class(reason: str) -> str:
    """A short class for a gate reason, so reasons can be counted."""
    return next((label for key, label in REASON_CLASSES if key in reason), "other")


def replay_tasks(world: SimWorld, n: int, split: str, split_seed: int) -> list[ReplayTask]:
    tasks = world.make_tasks(n, split_seed)
    return [ReplayTask(f"{split}-{i}", t.intent, split) for i, t in enumerate(tasks)]


class ArmLoop:
    """One gate on one simulated world, night after night."""

    def __init__(self, gate: Gate, seed: int, settings: LoopSettings) -> None:
        self.gate, self.s = gate, settings
        self.world = SimWorld(
            seed,
            settings.n_families,
            lift=settings.lift,
            penalty=settings.penalty,
            base_rate=settings.base_rate,
        )
        self.backend = SimBackend(self.world, rates=settings.rates)
        stop = threading.Event()
        self.stop = stop
        self.replayer = Replayer(self._exec(self.backend), self._exec(self.backend))
        meter = SimBackend(self.world)
        self.meter = Replayer(self._exec(meter), self._exec(meter))
        self.reflector = Reflector(
            self._exec(self.backend), None, EditBudget(3, 800), SafetyPolicy(), "reject"
        )
        self.train = replay_tasks(self.world, settings.n_train, "train", 1)
        self.val = replay_tasks(self.world, settings.n_val, "val", 2)
        self.test = replay_tasks(self.world, settings.n_test, "test", 3)
        self.document = initial_content(TargetSpec(SKILL_PATH, "skill", "body"))
        self.carried: list[CandidateEdit] = []
        self.rejected: list[CandidateEdit] = []
        self.records: dict[str, CandidateRecord] = {}
        self.run = ArmRun(gate, seed)
        self._measure()

    def _exec(self, backend: SimBackend) -> CallExecutor:
        return CallExecutor(backend, None, self.stop, concurrency=1)

    # --- one night -------------------------------------------------------------------

    def night(self, n: int) -> None:
        base = n * NIGHT_STRIDE
        k = self.s.k
        train = self.replayer.run(self.train, self.document, "baseline", range(base, base + k))
        candidates = self.carried + self._reflect(n, train)
        self.carried = []  # the gate carries the inconclusive ones again
        best = self._gate(candidates, base + VAL_SHIFT) if candidates else None
        if best is not None:
            self.records[best.fingerprint].adopted = True
            self.document = best.content
            for stale in self.carried:  # their evidence was about the old document
                self.records[stale.fingerprint].outcome = "stale"
            self.carried = []
        self.run.calls = Counter(r.role for r in self.backend.received)
        self._measure()

    def _reflect(self, n: int, train: list[RolloutResult]) -> list[CandidateEdit]:
        slots = self.s.n_candidates - len(self.carried)
        if slots <= 0:
            return []
        seen = len(self.backend.proposals)
        fresh, stats = self.reflector.propose(
            self.document,
            "body",
            train,
            n_candidates=slots,
            rejected_fingerprints={c.fingerprint for c in self.rejected + self.carried},
            rejected_descriptions=[
                " / ".join(e.text for e in c.edits) for c in reversed(self.rejected[-10:])
            ],
            seed=n,
        )
        self.run.remembered_rejects += stats.remembered_rejects
        kinds = self._kinds(self.backend.proposals[seen:])
        for candidate in fresh:
            candidate.key = f"n{n}-{candidate.key}"
            record = CandidateRecord(n, kinds[candidate.fingerprint], self._val_lift(candidate))
            self.records[candidate.fingerprint] = record
            self.run.candidates.append(record)
        return fresh

    @staticmethod
    def _kinds(proposals: list[Proposal]) -> dict[str, Kind]:
        """Ground truth: the optimizer's own label, matched to a candidate by fingerprint."""
        kinds: dict[str, Kind] = {}
        for proposal in proposals:
            edits = parse_edits(proposal.to_json())
            if proposal.kind != "none" and isinstance(edits, list) and edits:
                kinds[fingerprint(edits)] = proposal.kind
        return kinds

    def _gate(self, candidates: list[CandidateEdit], offset: int) -> CandidateEdit | None:
        if self.gate == "none":
            for candidate in candidates[1:]:
                self.records[candidate.fingerprint].outcome = "unused"
            self.records[candidates[0].fingerprint].outcome = "accept"
            return candidates[0]
        if self.gate == "naive":
            return self._naive_gate(candidates, offset)
        return self._sleepd_gate(candidates, offset)

    def _sleepd_gate(self, candidates: list[CandidateEdit], offset: int) -> CandidateEdit | None:
        trial = run_trial(
            self.replayer,
            self.val,
            self.document,
            candidates,
            self.s.policy,
            self.s.plan,
            index_offset=offset,
            stop=self.stop,
        )
        self.run.trial_rollouts += trial.rollouts
        self.run.fixed_rollouts += trial.fixed_design_rollouts
        accepted: list[CandidateEdit] = []
        for candidate in candidates:
            record = self.records[candidate.fingerprint]
            decision = trial.decisions[candidate.key]
            record.looks += 1
            record.rounds.append(trial.rounds_used[candidate.key])
            record.outcome, record.why = decision.outcome, reason_class(decision.reason)
            if decision.outcome == "accept":
                accepted.append(candidate)
            elif decision.outcome == "reject":
                self.rejected.append(candidate)
            elif candidate.look >= self.s.policy.max_looks:
                record.outcome = "reject"
                self.rejected.append(candidate)
            else:
                self.carried.append(replace(candidate, look=candidate.look + 1))
        if not accepted:
            return None
        return max(accepted, key=lambda c: trial.decisions[c.key].mean_delta)

    def _naive_gate(self, candidates: list[CandidateEdit], offset: int) -> CandidateEdit | None:
        """ "Accept if the validation mean went up", K fixed rollouts per task and arm."""
        indices = range(offset, offset + self.s.k)
        baseline = self._val_mean(self.document, "baseline", indices)
        lifts: dict[str, float] = {}
        for candidate in candidates:
            lift = self._val_mean(candidate.content, candidate.key, indices) - baseline
            record = self.records[candidate.fingerprint]
            record.looks, record.rounds = 1, [self.s.k]
            record.outcome = "accept" if lift > 0 else "reject"
            if lift > 0:
                lifts[candidate.key] = lift
            else:
                self.rejected.append(candidate)
        accepted = [c for c in candidates if c.key in lifts]
        return max(accepted, key=lambda c: lifts[c.key]) if accepted else None

    def _val_mean(self, document: str, arm: str, indices: range) -> float:
        return mean_score(scores_by_task(self.replayer.run(self.val, document, arm, indices))) or 0

    # --- ground truth and the sealed test instrument --------------------------------

    def _expected(self, tasks: list[ReplayTask], document: str) -> float:
        seen_by_target = f"{document}\n\n{TARGET_SYSTEM}"
        return sum(self.world.success_probability(t.intent, seen_by_target) for t in tasks) / len(
            tasks
        )

    def _val_lift(self, candidate: CandidateEdit) -> float:
        return self._expected(self.val, candidate.content) - self._expected(self.val, self.document)

    def _measure(self) -> None:
        indices = range(TEST_INDEX, TEST_INDEX + self.s.k)
        scores: Scores = scores_by_task(self.meter.run(self.test, self.document, "test", indices))
        self.run.test_measured.append(mean_score(scores) or 0.0)
        self.run.test_true.append(self._expected(self.test, self.document))
        self.run.doc_chars.append(len(self.document))


def run_arm(gate: Gate, seed: int, nights: int, settings: LoopSettings) -> ArmRun:
    loop = ArmLoop(gate, seed, settings)
    for n in range(1, nights + 1):
        loop.night(n)
    return loop.run


def calibration_accepts(seed: int, draws: int, settings: LoopSettings) -> tuple[int, int]:
    """A/A on the product path: `run_calibration` (document against itself), many draws.

    Returns (accepts, decisions) for the starting document of the world `seed`.
    """
    loop = ArmLoop("sleepd", seed, settings)
    policy = replace(settings.policy, max_looks=1)  # as the night calibrates
    accepts = decided = 0
    for draw in range(draws):
        decision, _ = run_calibration(
            loop.replayer,
            loop.val,
            loop.document,
            policy,
            settings.plan,
            index_offset=(draw + 1) * NIGHT_STRIDE + VAL_SHIFT,
            stop=loop.stop,
        )
        if decision is not None:
            decided += 1
            accepts += decision.outcome == "accept"
    return accepts, decided
