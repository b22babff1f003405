"""One whole night: harvest → mine → replay → reflect → gate → stage.

Every step is recorded as it finishes (rollouts, candidates, gate decisions,
proposals, the night's figures), so a stop at any point — a signal, a budget
cap, an error — leaves a consistent database and a night row that says why it
ended. The stop event is checked between steps and between gate rounds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.backends.base import Backend
from sleepd.backends.budget import BudgetCaps, BudgetGuard
from sleepd.backends.outbound import scrub_optional
from sleepd.config import Config
from sleepd.dream.executor import CallExecutor
from sleepd.dream.gate import GateDecision, GatePolicy, report_lift, with_look
from sleepd.dream.judges import ScoreWeights
from sleepd.dream.reflect import CandidateEdit, Reflector
from sleepd.dream.replay import Replayer, ReplayTask, RolloutResult, mean_score, scores_by_task
from sleepd.dream.replay_modes import plan_modes
from sleepd.dream.safety import SafetyPolicy
from sleepd.dream.sequential import SequentialPlan
from sleepd.dream.staging import (
    load_tasks,
    mark_undecided,
    orphaned_batches,
    projects_with_tasks,
    rejected_memory,
    save_candidates,
    save_decision,
    save_rollouts,
    stage_proposal,
    take_carried_candidates,
)
from sleepd.dream.targets import PreparedTarget, known_hosts, prepare
from sleepd.dream.trial import run_calibration, run_trial
from sleepd.errors import NoBackendError, SleepdError
from sleepd.store.engine import write_session
from sleepd.store.ledger import DbLedger, forecast_from_ledger
from sleepd.store.locks import project_night
from sleepd.store.models import Night, utcnow
from sleepd.store.orphans import close_orphaned_runs, owner

#: Rollout indices are offset per night so every night draws fresh rollouts.
NIGHT_INDEX_STRIDE = 1000
VAL_INDEX_SHIFT = 100
TEST_INDEX_SHIFT = 200
FIDELITY_INDEX_SHIFT = 300
ABLATION_INDEX_SHIFT = 500
REGATE_INDEX_SHIFT = 600
PRUNE_INDEX_SHIFT = 700
DELETION_INDEX_SHIFT = 800


@dataclass
class NightOptions:
    trigger: str = "manual"
    project: str | None = None
    backend: str | None = None
    dry_run: bool = False
    stop: threading.Event | None = None
    skip_harvest: bool = False
    calibrate: bool | None = None
    max_usd: float | None = None
    max_tokens: int | None = None
    max_wall_minutes: float | None = None
    on_event: Callable[[str], None] | None = None


@dataclass
class ProjectOutcome:
    project: str
    status: str
    reason: str = ""
    tasks: dict[str, int] = field(default_factory=dict)
    candidates: int = 0
    decisions: dict[str, str] = field(default_factory=dict)
    proposal_id: int | None = None
    val_before: float | None = None
    val_after: float | None = None
    test_before: float | None = None
    test_after: float | None = None
    rollouts: int = 0
    reflect: dict[str, Any] = field(default_factory=dict)
    calibration: str | None = None
    plan: dict[str, Any] = field(default_factory=dict)
    ablation: dict[str, Any] = field(default_factory=dict)
    #: Replay modes (text / tools), consumers and fidelity (`replay_modes.ModePlan`).
    replay: dict[str, Any] = field(default_factory=dict)
    #: Learned rules measured tonight and the deletion proposed (`dream.prune`).
    prune: dict[str, Any] = field(default_factory=dict)


@dataclass
class NightResult:
    night_id: int
    status: str
    stop_reason: str | None
    summary: dict[str, Any]
    proposals: list[int] = field(default_factory=list)

    @property
    def job_outcome(self) -> str:
        return {"completed": "ok", "stopped": "stopped", "failed": "failed"}.get(
            self.status, self.status
        )


def gate_policy(cfg: Config) -> GatePolicy:
    g = cfg.gate
    return GatePolicy(
        alpha=g.alpha,
        min_tasks=g.min_tasks,
        max_missing_fraction=g.max_missing_fraction,
        no_regression=g.no_regression,
        regression_floor=g.regression_floor,
        max_looks=g.max_looks,
        auto_adopt_alpha=g.auto_adopt_alpha,
    )


def build_backends(cfg: Config, override: str | None) -> dict[str, Backend]:
    from sleepd.backends.registry import make_role_backends
    from sleepd.backends.settings import settings_from_config

    settings = settings_from_config(cfg)
    if override:
        for role in settings.roles.values():
            role.backend = override
    return make_role_backends(settings)


@dataclass
class _Night:
    """The state of one night in progress; methods are its steps.

    Built only by `_Night.begin`, after the models are known to be usable, so every field
    exists from the start: a night without models is a dry run (`guard` is None).
    """

    engine: Engine
    cfg: Config
    options: NightOptions
    stop: threading.Event
    night_id: int
    backends: dict[str, Backend]
    simulated: bool
    guard: BudgetGuard | None
    started: float = field(default_factory=time.monotonic)
    outcomes: list[ProjectOutcome] = field(default_factory=list)
    proposals: list[int] = field(default_factory=list)
    steps: dict[str, Any] = field(default_factory=dict)
    executors: list[CallExecutor] = field(default_factory=list)
    candidate_ids: dict[str, int] = field(default_factory=dict)
    ledger: DbLedger | None = None
    backend_problem: str | None = None  # a dry run's plain answer: why no backend is usable

    @classmethod
    def begin(
        cls,
        engine: Engine,
        cfg: Config,
        options: NightOptions,
        backends: dict[str, Backend],
        backend_problem: str | None = None,
    ) -> _Night:
        """Open the night row and set up its budget: the only place a night is built."""
        simulated = any(b.simulated for b in backends.values())
        with write_session(engine) as db:
            close_orphaned_runs(db)
            row = Night(
                trigger=options.trigger,
                project_path=options.project,
                dry_run=options.dry_run,
                status="running",
                summary={"owner": owner()},
                backend=",".join(sorted({b.name for b in backends.values()})) or None,
                simulated=simulated,
            )
            db.add(row)
            db.flush()
            night_id = row.id
        guard = ledger = None
        if not options.dry_run:
            budget = cfg.budget
            caps = BudgetCaps(
                max_tokens=options.max_tokens or budget.max_tokens_per_night,
                max_usd=options.max_usd
                if options.max_usd is not None
                else budget.max_usd_per_night,
                max_wall_s=60 * (options.max_wall_minutes or budget.max_wall_minutes),
            )
            ledger = DbLedger(engine, night_id)
            # measured output sizes let calls near a cap run narrowed, still bounded
            guard = BudgetGuard(caps, ledger, forecast=forecast_from_ledger(engine))
        return cls(
            engine=engine,
            cfg=cfg,
            options=options,
            stop=options.stop or threading.Event(),
            night_id=night_id,
            backends=backends,
            simulated=simulated,
            guard=guard,
            ledger=ledger,
            backend_problem=backend_problem,
        )

    def say(self, message: str) -> None:
        if self.options.on_event is not None:
            self.options.on_event(message)

    def close(self, status: str, reason: str | None) -> NightResult:
        if self.ledger is not None:
            self.ledger.flush()
        summary = self.summary()
        with write_session(self.engine) as db:
            night = db.get(Night, self.night_id)
            assert night is not None
            night.status = status
            # often an exception's message: stored redacted, as every harvested text is
            night.stop_reason = scrub_optional(reason)
            night.ended_at = utcnow()
            night.summary = summary
            done = [o for o in self.outcomes if o.status in ("gated", "staged")]
            night.tasks_replayed = sum(sum(o.tasks.values()) for o in done)
            night.candidates_proposed = sum(o.candidates for o in self.outcomes)
            decided = [d for o in self.outcomes for d in o.decisions.values()]
            night.accepted = decided.count("accept")
            night.rejected = decided.count("reject")
            night.inconclusive = decided.count("inconclusive")
            night.rollouts = sum(o.rollouts for o in self.outcomes)
            first = next((o for o in done if o.val_before is not None), None)
            if first is not None:
                night.val_before, night.val_after = first.val_before, first.val_after
                night.test_before, night.test_after = first.test_before, first.test_after
            night.tokens = self.guard.spent_tokens if self.guard is not None else 0
            night.cost_usd = round(self.guard.spent_usd, 6) if self.guard is not None else 0.0
        return NightResult(self.night_id, status, reason, summary, list(self.proposals))

    def summary(self) -> dict[str, Any]:
        return {
            "owner": owner(),
            "night_id": self.night_id,
            "duration_s": round(time.monotonic() - self.started, 2),
            "steps": self.steps,
            "projects": [o.__dict__ for o in self.outcomes],
            "proposals": self.proposals,
            "simulated": self.simulated,
            "budget": {
                "tokens": self.guard.spent_tokens if self.guard is not None else 0,
                "usd": round(self.guard.spent_usd, 6) if self.guard is not None else 0.0,
            },
        }

    # --- steps ---------------------------------------------------------------------

    def harvest_and_mine(self) -> None:
        from sleepd.harvest import harvest
        from sleepd.mining.idle import idle_report, run_pass

        if not self.options.skip_harvest:
            self.say("harvesting transcripts")
            report = harvest(self.engine, self.cfg, jobs=self.cfg.harvest.workers)
            self.steps["harvest"] = report.totals()
        if self.stop.is_set():
            return
        self.say("mining tasks and failure patterns")
        # Nothing new since the last pass: skip the mining imports (about a second).
        self.steps["mine"] = idle_report(self.cfg) or run_pass(
            self.engine, self.cfg, backend=self.mining_backend()
        )
        if self.ledger is not None:
            self.ledger.flush()  # the miner model's spend is the night's too
        self.watch_adoptions()

    def mining_backend(self) -> Any:
        """The miner model for this night's mining pass when model-assisted mining is on
        (None otherwise, and for a dry run, which makes no calls). Its calls pass the
        pass's own cap (`mining.model_max_usd`) and then the night's budget, so the
        night's ledger and caps count them like every other call."""
        if not self.cfg.mining.model_assisted or self.guard is None:
            return None
        from sleepd.backends.budget import GuardedBackend
        from sleepd.mining.model_miner import miner_backend

        backend, why_not = miner_backend(self.cfg, override=self.options.backend)
        if backend is None:
            if why_not:
                self.say(why_not)
            return None
        return GuardedBackend(backend, self.guard)

    def watch_adoptions(self) -> None:
        """With fresh live outcomes mined: roll back adoptions that look worse, if allowed."""
        if not self.cfg.watch.auto_rollback or self.options.dry_run:
            return
        from sleepd.watch.autorollback import auto_rollback

        done = auto_rollback(self.engine, self.cfg)
        if done:
            self.steps["watch_rollbacks"] = [d.to_dict() for d in done]
            for d in done:
                self.say(f"{d.path}: {d.action} ({d.reason})")

    def settle_orphaned_batches(self) -> None:
        """Collect provider batches an earlier night submitted but never collected.

        Their results come too late for that night, but the money was spent: the
        usage goes into the ledger under the night that paid for it.
        """
        from sleepd.backends.base import BackendError, supports_batch
        from sleepd.backends.budget import entry_for
        from sleepd.store.models import BatchJob

        with write_session(self.engine) as db:
            orphans = orphaned_batches(db)
        by_name = {b.name: b for b in self.backends.values()}
        settled = 0
        for row_id, night_id, backend_name, batch_id in orphans:
            backend = by_name.get(backend_name)
            if backend is None or not supports_batch(backend):
                continue
            try:
                if not backend.poll_batch(batch_id).done:  # type: ignore[attr-defined]
                    continue
                results = backend.collect_batch(batch_id)  # type: ignore[attr-defined]
            except BackendError:
                status = "abandoned"
                results = {}
            else:
                status = "collected-late"
            ledger = DbLedger(self.engine, night_id, batched=True)
            for response in results.values():
                ledger.record(entry_for(response, "target", backend_name, response.model))
            with write_session(self.engine) as db:
                ledger.flush(db)
                job = db.get(BatchJob, row_id)
                if job is not None:
                    job.status, job.completed_at = status, utcnow()
            settled += 1
        if settled:
            self.steps["orphaned_batches_settled"] = settled

    def executor(self, role: str) -> CallExecutor:
        from sleepd.store.models import BatchJob

        def submitted(backend: str, batch_id: str, ids: Any) -> None:
            with write_session(self.engine) as db:
                db.add(
                    BatchJob(
                        night_id=self.night_id,
                        backend=backend,
                        role=role,
                        provider_batch_id=batch_id,
                        request_map={"ids": list(ids)},
                    )
                )

        def finished(batch_id: str, status: str) -> None:
            with write_session(self.engine) as db:
                job = db.scalar(select(BatchJob).where(BatchJob.provider_batch_id == batch_id))
                if job is not None:
                    job.status, job.completed_at = status, utcnow()

        assert self.guard is not None, "a dry run makes no calls"
        return CallExecutor(
            self.backends[role],
            self.guard,
            self.stop,
            concurrency=self.cfg.backends.concurrency,
            use_batch=self.cfg.backends.use_batch and role == "target",
            batch_poll_s=self.cfg.backends.batch_poll_seconds,
            on_batch_submitted=submitted,
            on_batch_finished=finished,
        )

    def stopped_reason(self) -> str | None:
        for backend_exec in self.executors:
            if backend_exec.stopped_by is not None:
                return str(backend_exec.stopped_by)
        if self.stop.is_set():
            return "stop requested (signal or shutdown); finished steps were kept"
        return None

    def run_project_alone(self, project: str) -> ProjectOutcome:
        """`run_project` under the project's night lock (`store.locks.project_night`): with
        many machines on one database, a project's night runs on one of them at a time."""
        if self.options.dry_run:
            return self.run_project(project)  # a plan writes no candidates or proposals
        with project_night(self.engine, project) as taken:
            if taken:
                return self.run_project(project)
        outcome = ProjectOutcome(
            project=project,
            status="skipped",
            reason="another night (here or on another machine) is at this project",
        )
        self.outcomes.append(outcome)
        return outcome

    def run_project(self, project: str) -> ProjectOutcome:
        outcome = ProjectOutcome(project=project, status="started")
        self.outcomes.append(outcome)
        dream = self.cfg.dream
        with write_session(self.engine) as db:
            tasks = load_tasks(db, project, dream.max_tasks_per_split)
        outcome.tasks = {split: len(ts) for split, ts in tasks.items()}
        if len(tasks["val"]) < self.cfg.gate.min_tasks or not tasks["train"]:
            outcome.status, outcome.reason = (
                "skipped",
                (
                    f"not enough tasks (train {len(tasks['train'])}, val {len(tasks['val'])}; "
                    f"the gate needs {self.cfg.gate.min_tasks} validation tasks)"
                ),
            )
            return outcome
        with write_session(self.engine) as db:
            target = prepare(db, self.cfg, project)
            hosts = known_hosts(self.cfg, target.base_content)
            modes = plan_modes(db, self.cfg, project, target, tasks)
        tasks = modes.tasks
        outcome.replay = modes.to_dict()
        if modes.excluded and (len(tasks["val"]) < self.cfg.gate.min_tasks or not tasks["train"]):
            outcome.status = "skipped"
            outcome.reason = "too few tasks can be replayed with tools: " + "; ".join(
                f"{n} {why}" for why, n in modes.excluded.items()
            )
            return outcome
        if self.options.dry_run:
            outcome.status, outcome.reason = "planned", "dry run: no model calls"
            outcome.plan = self.plan(tasks, target)
            return outcome
        target_exec, judge_exec, opt_exec = (
            self.executor("target"),
            self.executor("judge"),
            self.executor("optimizer"),
        )
        self.executors = [target_exec, judge_exec, opt_exec]
        roles = {r: self.cfg.role(r) for r in ("target", "judge", "optimizer")}
        replayer = Replayer(
            target_exec,
            judge_exec,
            target_model=roles["target"].model or None,
            judge_model=roles["judge"].model or None,
            weights=ScoreWeights(
                dream.weight_success, dream.weight_tokens, dream.weight_tools, dream.weight_latency
            ),
            on_results=self._store_rollouts,
        )
        base = self.night_id * NIGHT_INDEX_STRIDE
        k = dream.rollouts_per_task
        if modes.tools_tasks:
            replayer.tools = self.tool_replayer(target_exec)
            if self.cfg.replay.rubric_judge:
                replayer.tools.judge, replayer.tools.judge_model = judge_exec, replayer.judge_model
            if not self.screen_fidelity(replayer, tasks, target, modes, outcome, base):
                return outcome
        self.say(f"{project}: replaying {len(tasks['train'])} training tasks × {k}")
        train = replayer.run(
            tasks["train"], target.working_content, "baseline", range(base, base + k)
        )
        if self._interrupted(outcome):
            return outcome
        candidates = self.reflect(target, train, opt_exec, hosts, outcome)
        if self._interrupted(outcome):
            return outcome
        candidates = self.within_budget(candidates, target, outcome)
        if not candidates:
            outcome.status = "no-candidates"
            outcome.reason = "the optimizer proposed no usable edit"
            if self.cfg.watch.prune_rules and not self.stop.is_set():
                self.prune(
                    replayer, tasks["val"], target, None, base, outcome, gate_policy(self.cfg)
                )
            return outcome
        outcome.candidates = len(candidates)
        with write_session(self.engine) as db:
            self.candidate_ids = save_candidates(db, self.night_id, target, candidates)
        self.say(
            f"{project}: gating {len(candidates)} candidate(s) on {len(tasks['val'])} "
            "validation tasks"
        )
        policy = gate_policy(self.cfg)
        plan = SequentialPlan(k_max=self.cfg.gate.sequential_rounds)
        trial = run_trial(
            replayer,
            tasks["val"],
            target.working_content,
            candidates,
            policy,
            plan,
            index_offset=base + VAL_INDEX_SHIFT,
            stop=self.stop,
        )
        outcome.rollouts = replayer.rollouts_run
        if modes.consumers:
            refuse_consumer_regressions(trial, candidates)
        with write_session(self.engine) as db:
            for candidate in candidates:
                decision = trial.decisions.get(candidate.key)
                if decision is not None:
                    save_decision(
                        db,
                        self.night_id,
                        target.document_id,
                        self.candidate_ids[candidate.key],
                        decision,
                        trial.rounds_used.get(candidate.key, 0),
                        futile=candidate.key in trial.futile,
                    )
                    outcome.decisions[candidate.key] = decision.outcome
        undecided = [c for c in candidates if c.key not in trial.decisions]
        if undecided:
            with write_session(self.engine) as db:
                mark_undecided(db, [self.candidate_ids[c.key] for c in undecided])
        outcome.val_before = mean_score(trial.baseline)
        outcome.status = "gated"
        if self._interrupted(outcome):
            return outcome
        calibrate = (
            self.options.calibrate
            if self.options.calibrate is not None
            else self.cfg.gate.calibrate
        )
        if calibrate and not self.stop.is_set():
            self.calibrate(
                replayer, tasks["val"], target, policy, plan, base, trial.baseline, outcome
            )
        accepted = [c for c in candidates if outcome.decisions.get(c.key) == "accept"]
        if accepted and not self.stop.is_set():
            best = max(accepted, key=lambda c: trial.decisions[c.key].mean_delta)
            self.stage(
                replayer,
                tasks,
                target,
                best,
                trial.decisions[best.key],
                trial.candidates[best.key],
                base,
                outcome,
                accepted,
                policy,
            )
        if self.cfg.watch.prune_rules and not self.stop.is_set():
            self.prune(replayer, tasks["val"], target, trial.baseline, base, outcome, policy)
        outcome.rollouts = replayer.rollouts_run
        return outcome

    def within_budget(
        self, candidates: list[CandidateEdit], target: PreparedTarget, outcome: ProjectOutcome
    ) -> list[CandidateEdit]:
        """Candidates whose managed region stays within `watch.region_budget_chars`."""
        from sleepd.watch.rules import region_text

        budget = self.cfg.watch.region_budget_chars
        editable = target.spec.editable
        kept = [c for c in candidates if len(region_text(c.content, editable)) <= budget]
        if len(kept) < len(candidates):
            outcome.reflect["over_region_budget"] = len(candidates) - len(kept)
            self.say(
                f"{outcome.project}: {len(candidates) - len(kept)} candidate(s) would grow the "
                f"managed region past its budget ({budget} characters): not gated"
            )
        return kept

    def prune(
        self,
        replayer: Replayer,
        val: list[ReplayTask],
        target: PreparedTarget,
        baseline: dict[str, list[float | None]] | None,
        base: int,
        outcome: ProjectOutcome,
        policy: GatePolicy,
    ) -> None:
        """Measure the learned rules; gate and stage a deletion of the stale ones."""
        from sleepd.dream.prune import gate_deletion, measure_rules
        from sleepd.store.models import Candidate, Proposal

        self.say(f"{outcome.project}: measuring what each learned rule still contributes")
        k = self.cfg.dream.rollouts_per_task
        if baseline is None:
            indices = range(base + PRUNE_INDEX_SHIFT - k, base + PRUNE_INDEX_SHIFT)
            baseline = scores_by_task(
                replayer.run(val, target.working_content, "baseline", indices)
            )
        result = measure_rules(
            self.engine,
            self.cfg,
            self.night_id,
            replayer,
            val,
            target,
            baseline,
            index_offset=base + PRUNE_INDEX_SHIFT,
        )
        outcome.prune = result.to_dict()
        candidate = result.candidate
        if candidate is None or self._interrupted(outcome):
            return
        with write_session(self.engine) as db:
            self.candidate_ids.update(save_candidates(db, self.night_id, target, [candidate]))
        decision, used = gate_deletion(
            self.cfg,
            replayer,
            val,
            target.working_content,
            candidate,
            policy,
            index_offset=base + DELETION_INDEX_SHIFT,
        )
        outcome.prune.update(decision=decision.outcome, reason=decision.reason, gate_rollouts=used)
        outcome.decisions[candidate.key] = decision.outcome
        candidate_id = self.candidate_ids[candidate.key]
        with write_session(self.engine) as db:
            save_decision(db, self.night_id, target.document_id, candidate_id, decision, 1)
            if decision.outcome != "accept":
                row = db.get(Candidate, candidate_id)
                if row is not None:  # measured afresh next night, never carried
                    row.status = "rejected"
                    row.reason = f"rule deletion not staged: {decision.reason}"[:1000]
                return
            proposal_id = stage_proposal(
                db,
                self.night_id,
                target,
                candidate,
                candidate_id,
                decision,
                val_lift=decision.mean_delta,
                test_lift=None,
                cost_usd=self.guard.spent_usd if self.guard is not None else 0.0,
                simulated=self.simulated,
                superseded=[],
                ablation=[],
            )
            proposal = db.get(Proposal, proposal_id)
            if proposal is not None:
                proposal.provenance = {
                    **(proposal.provenance or {}),
                    "kind": "delete",
                    "rules": result.proposed,
                    "measured": result.measured,
                }
        outcome.prune["proposal_id"] = proposal_id
        self.proposals.append(proposal_id)
        self.say(f"{outcome.project}: staged rule deletion proposal #{proposal_id}")

    def tool_replayer(self, target_exec: CallExecutor) -> Any:
        """Tools-mode rollouts under the night's guard; a budget stop stops the night."""
        from sleepd.dream.replay_modes import build_tool_replayer

        def budget_stop(exc: Any) -> None:
            target_exec.stopped_by = target_exec.stopped_by or exc

        return build_tool_replayer(self.cfg, self.guard, self.stop, budget_stop)

    def screen_fidelity(
        self,
        replayer: Replayer,
        tasks: dict[str, list[ReplayTask]],
        target: PreparedTarget,
        modes: Any,
        outcome: ProjectOutcome,
        base: int,
    ) -> bool:
        """Drop validation units whose replay under the old document is unfaithful."""
        from sleepd.dream.replay_modes import screen_fidelity

        self.say(f"{outcome.project}: measuring replay fidelity under the original document")
        tasks["val"], modes.fidelity = screen_fidelity(
            lambda: write_session(self.engine),
            replayer,
            tasks["val"],
            target.base_content or target.working_content,
            k=self.cfg.dream.rollouts_per_task,
            index_offset=base + FIDELITY_INDEX_SHIFT,
            min_fidelity=self.cfg.replay.min_fidelity,
            night_id=self.night_id,
        )
        outcome.replay = modes.to_dict()
        outcome.tasks["val"] = len(tasks["val"])
        if self._interrupted(outcome):
            return False
        if len(tasks["val"]) < self.cfg.gate.min_tasks:
            outcome.status = "skipped"
            outcome.reason = (
                f"{len(tasks['val'])} validation task(s) left after the fidelity check "
                f"({modes.fidelity.get('excluded_low_fidelity', 0)} below "
                f"{self.cfg.replay.min_fidelity}); the gate needs {self.cfg.gate.min_tasks}"
            )
            return False
        return True

    def _store_rollouts(self, results: list[RolloutResult]) -> None:
        """A round's rollouts and the ledger rows of its calls, in one transaction."""
        with write_session(self.engine) as db:
            save_rollouts(db, self.night_id, results, self.candidate_ids)
            if self.ledger is not None:
                self.ledger.flush(db)

    def _interrupted(self, outcome: ProjectOutcome) -> bool:
        reason = self.stopped_reason()
        if reason:
            outcome.status, outcome.reason = "stopped", reason
            return True
        return False

    def reflect(
        self,
        target: PreparedTarget,
        train: list[RolloutResult],
        opt_exec: CallExecutor,
        hosts: set[str],
        outcome: ProjectOutcome,
    ) -> list[CandidateEdit]:
        from sleepd.documents.edits import EditBudget

        dream = self.cfg.dream
        with write_session(self.engine) as db:
            carried = take_carried_candidates(db, target, self.cfg.gate.max_looks)
            fingerprints, descriptions = rejected_memory(db, target.document_id)
        reflector = Reflector(
            opt_exec,
            self.cfg.role("optimizer").model or None,
            EditBudget(dream.max_edits, dream.max_edit_chars),
            SafetyPolicy(),
            safety_mode=dream.safety,
            known_hosts=hosts,
        )
        fresh_slots = max(0, dream.candidates_per_night - len(carried))
        fresh: list[CandidateEdit] = []
        stats = None
        if fresh_slots:
            self.say(f"{outcome.project}: reflecting on failing trajectories")
            fresh, stats = reflector.propose(
                target.working_content,
                target.spec.editable,
                train,
                n_candidates=fresh_slots,
                rejected_fingerprints=fingerprints | {c.fingerprint for c in carried},
                rejected_descriptions=descriptions,
                seed=self.night_id,
            )
        outcome.reflect = {"carried": len(carried), **(stats.to_dict() if stats else {})}
        return carried + fresh

    def calibrate(
        self,
        replayer: Replayer,
        val: list[ReplayTask],
        target: PreparedTarget,
        policy: GatePolicy,
        plan: SequentialPlan,
        base: int,
        baseline: dict[str, list[float | None]],
        outcome: ProjectOutcome,
    ) -> None:
        self.say(f"{outcome.project}: A/A calibration")
        decision, _ = run_calibration(
            replayer,
            val,
            target.working_content,
            replace(policy, max_looks=1),
            plan,
            index_offset=base + VAL_INDEX_SHIFT,
            stop=self.stop,
            baseline=baseline,
        )
        if decision is not None:
            with write_session(self.engine) as db:
                save_decision(
                    db, self.night_id, target.document_id, None, decision, 0, calibration=True
                )
            outcome.calibration = decision.outcome

    def ablate(
        self,
        replayer: Replayer,
        val: list[ReplayTask],
        target: PreparedTarget,
        best: CandidateEdit,
        decision: GateDecision,
        base: int,
        outcome: ProjectOutcome,
        policy: GatePolicy,
    ) -> tuple[CandidateEdit, GateDecision, list[dict[str, Any]]] | None:
        """Leave-one-out over a multi-edit candidate; what may be staged, or None.

        A cut leaves a pruned document, gated again against the baseline on fresh
        rollouts; it replaces the candidate only if it passes on its own.
        """
        from sleepd.dream.ablation import regate_pruned, run_ablation

        k = self.cfg.dream.rollouts_per_task
        look_policy = replace(with_look(policy, best.look), n_candidates=1)
        self.say(f"{outcome.project}: checking that every edit earns its place")
        ablation = run_ablation(
            replayer,
            val,
            target.working_content,
            best,
            target.spec.editable,
            look_policy,
            rollouts_per_task=k,
            index_offset=base + ABLATION_INDEX_SHIFT,
            stop=self.stop,
        )
        figures = [u.to_dict() for u in ablation.units]
        outcome.ablation = {"units": figures, "rollouts": ablation.rollouts}
        if ablation.interrupted or self.stopped_reason():
            return None
        if not ablation.cut:
            return best, decision, figures
        cut = "; ".join(u.text[:60] for u in ablation.cut)
        if ablation.pruned is None:
            self._overrule(best, f"leave-one-out ablation cut every part of it ({cut})")
            outcome.decisions[best.key] = "reject"
            return None
        pruned = ablation.pruned
        regated, used = regate_pruned(
            replayer,
            val,
            target.working_content,
            pruned,
            look_policy,
            rollouts_per_task=k,
            index_offset=base + REGATE_INDEX_SHIFT,
        )
        outcome.ablation["regate_rollouts"] = used
        with write_session(self.engine) as db:
            self.candidate_ids.update(save_candidates(db, self.night_id, target, [pruned]))
            save_decision(
                db, self.night_id, target.document_id, self.candidate_ids[pruned.key], regated, 1
            )
        outcome.decisions[pruned.key] = regated.outcome
        if regated.outcome != "accept":
            self._overrule(
                best,
                f"a harmful part was cut ({cut}) and the rest did not pass the gate on its "
                f"own: {regated.reason}",
            )
            outcome.decisions[best.key] = "reject"
            return None
        self._overrule(best, f"superseded by its pruned form: {cut} cut")
        return pruned, regated, figures

    def _overrule(self, candidate: CandidateEdit, reason: str) -> None:
        """An accepted candidate that ablation rejected (or replaced): never staged."""
        from sleepd.store.models import Candidate

        with write_session(self.engine) as db:
            row = db.get(Candidate, self.candidate_ids[candidate.key])
            if row is not None:
                row.status, row.reason = "rejected", reason[:1000]

    def stage(
        self,
        replayer: Replayer,
        tasks: dict[str, list[ReplayTask]],
        target: PreparedTarget,
        best: CandidateEdit,
        decision: GateDecision,
        val_scores: dict[str, list[float | None]],
        base: int,
        outcome: ProjectOutcome,
        accepted: list[CandidateEdit],
        policy: GatePolicy,
    ) -> None:
        staged = self.ablate(replayer, tasks["val"], target, best, decision, base, outcome, policy)
        if staged is None:
            return
        chosen, decision, ablation = staged
        if chosen is not best:  # the original was overruled; its pruned form goes on
            accepted = [c for c in accepted if c is not best]
        best = chosen
        test = tasks["test"]
        k = self.cfg.dream.rollouts_per_task
        indices = range(base + TEST_INDEX_SHIFT, base + TEST_INDEX_SHIFT + k)
        outcome.val_after = mean_score(val_scores)
        if test:
            self.say(f"{outcome.project}: scoring the sealed test split (report only)")
            before = scores_by_task(replayer.run(test, target.working_content, "baseline", indices))
            after = scores_by_task(replayer.run(test, best.content, best.key, indices))
            lift = report_lift(before, after)
            if lift.n_tasks:  # no test task scored in both arms: no figure, not a zero
                outcome.test_before, outcome.test_after = lift.mean_before, lift.mean_after
        with write_session(self.engine) as db:
            proposal_id = stage_proposal(
                db,
                self.night_id,
                target,
                best,
                self.candidate_ids[best.key],
                decision,
                val_lift=(outcome.val_after or 0) - (outcome.val_before or 0),
                test_lift=None
                if outcome.test_before is None
                else (outcome.test_after or 0) - outcome.test_before,
                cost_usd=self.guard.spent_usd if self.guard is not None else 0.0,
                simulated=self.simulated,
                superseded=[
                    self.candidate_ids[c.key]
                    for c in accepted
                    if c is not best and c.key in self.candidate_ids
                ],
                ablation=ablation,
            )
        outcome.proposal_id = proposal_id
        outcome.status = "staged"
        self.proposals.append(proposal_id)
        self.say(f"{outcome.project}: staged proposal #{proposal_id}")
        from sleepd.review.auto_adopt import maybe_auto_adopt

        if maybe_auto_adopt(self.engine, self.cfg, proposal_id):
            self.say(f"{outcome.project}: proposal #{proposal_id} auto-adopted")

    def plan(self, tasks: dict[str, list[ReplayTask]], target: PreparedTarget) -> dict[str, Any]:
        """What tonight would do for one project: calls, forecast cost, detectable lift."""
        from sleepd.dream.forecast import call_plan, detectable, forecast_cost

        calls = call_plan(self.cfg, {split: len(ts) for split, ts in tasks.items()})
        policy = replace(
            gate_policy(self.cfg), n_candidates=max(1, self.cfg.dream.candidates_per_night)
        )
        cost = forecast_cost(
            calls,
            target.working_content,
            self.backends,
            forecast_from_ledger(self.engine) if self.backends else None,
            self.cfg,
        )
        return {
            "target": str(target.spec.path),
            "kind": target.spec.kind,
            **calls.to_dict(),
            "backend_usable": not self.backend_problem and bool(self.backends),
            "backend_problem": self.backend_problem,
            "forecast_usd": cost,
            **{
                f"detect_{k}": v for k, v in detectable(self.cfg, policy, len(tasks["val"])).items()
            },
        }


def usable_backends(cfg: Config, options: NightOptions) -> dict[str, Backend]:
    """Every role's backend, or `NoBackendError` naming why none can be used.

    Called before a night row exists: a run that cannot start creates no night.
    """
    try:
        return build_backends(cfg, options.backend)
    except SleepdError:
        raise
    except (ValueError, KeyError) as exc:
        raise NoBackendError(f"no usable backend: {exc}") from None


def refuse_consumer_regressions(trial: Any, candidates: list[CandidateEdit]) -> None:
    """An accepted edit that makes any consumer (claude, codex) worse is rejected."""
    from sleepd.dream.replay_modes import consumer_regressions

    for candidate in candidates:
        decision = trial.decisions.get(candidate.key)
        if decision is None or decision.outcome != "accept":
            continue
        worse = consumer_regressions(trial.baseline, trial.candidates.get(candidate.key, {}))
        if worse:
            trial.decisions[candidate.key] = replace(
                decision,
                outcome="reject",
                reason=f"worse for {', '.join(worse)} (each consumer must not regress); "
                + decision.reason,
            )


def run_night(engine: Engine, cfg: Config, options: NightOptions) -> NightResult:
    """Run one night; always closes the night row with a status and a reason.

    A run refused before it starts (no usable backend) raises before any night exists.
    A dry run never fails for want of a backend: its plan says plainly that none is usable.
    """
    from sleepd.dream.checkout import sweep_stale

    sweep_stale()  # scratch checkouts a killed process left behind
    problem: str | None = None
    backends: dict[str, Backend] = {}
    if options.dry_run:
        try:
            backends = usable_backends(cfg, options)
        except SleepdError as exc:
            problem = str(exc)
    else:
        backends = usable_backends(cfg, options)
    night = _Night.begin(engine, cfg, options, backends, problem)
    try:
        if not options.dry_run:
            night.settle_orphaned_batches()
        night.harvest_and_mine()
        if night.stop.is_set():
            return night.close("stopped", "stop requested before replay")
        with write_session(engine) as db:
            projects = projects_with_tasks(db, options.project, cfg.dream.min_tasks)
        if not projects:
            from sleepd.readiness import not_ready_reason

            return night.close("completed", not_ready_reason(engine, cfg, options.project))
        for project in projects:
            outcome = night.run_project_alone(project)
            if outcome.status == "stopped":
                return night.close("stopped", outcome.reason)
            stopped = night.stopped_reason()
            if stopped is not None:
                return night.close("stopped", stopped)
        reason = (
            None
            if any(o.status in ("gated", "staged") for o in night.outcomes)
            else "; ".join(f"{o.project}: {o.reason}" for o in night.outcomes if o.reason)[:1000]
            or None
        )
        return night.close("completed", reason)
    except SleepdError as exc:
        night.close("failed", str(exc))
        raise
    except KeyboardInterrupt:
        night.close("stopped", "interrupted (a second Ctrl-C); finished steps were kept")
        raise
    except BaseException as exc:
        night.close("failed", f"{type(exc).__name__}: {exc}"[:1000])
        raise
