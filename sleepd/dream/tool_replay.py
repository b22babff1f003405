"""Tools-mode dream rollouts: the agent's own CLI acts in a scratch checkout.

For each rollout: a fresh checkout at the session's commit (`checkout`), the document
written where that agent reads it, the agent run with tools (`claude -p` or
`codex exec`, bounded, no session persistence), the diff and changed files captured,
the project's test command run, and the rollout judged (`tool_judge`). The checkout
is removed afterwards, whatever happened. The tests at the commit (before any agent
acts) run once per task and night in a checkout of their own.

Budgets apply unchanged: each rollout is checked against the night's guard before it
starts (a conservative multi-turn estimate) and recorded after it ends; the stop
event is honoured between rollouts. A rollout is one "task unit" per consumer: a
document read by more than one agent is replayed with each (`ReplayTask.consumer`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from sleepd.backends.agent_act import ActDetail, ActRequest
from sleepd.backends.base import ChatMessage, Estimate, FailureKind, ModelRequest, ModelResponse
from sleepd.backends.budget import BudgetExceeded, BudgetGuard
from sleepd.documents.versions import content_hash
from sleepd.dream.checkout import (
    Checkout,
    CheckoutError,
    CheckoutSource,
    create_checkout,
    place_document,
)
from sleepd.dream.judges import Judgement, ScoreWeights, judge_by_model, judge_request
from sleepd.dream.prompts import target_user_message
from sleepd.dream.replay import ReplayTask, RolloutResult
from sleepd.dream.tool_judge import TestRun, judge_tool_rollout, run_tests
from sleepd.mining.replay_site import TestCommand

#: A tool rollout is many model turns; its token reservation is this many single calls.
TURN_ESTIMATE_FACTOR = 8


class ToolAgent(Protocol):
    name: str
    simulated: bool

    def act(self, request: ActRequest) -> tuple[ModelResponse, ActDetail]: ...

    def estimate(self, request: ModelRequest) -> Estimate: ...


@dataclass(frozen=True)
class ReplaySite:
    """Where one task is replayed with tools (resolved for tonight's document)."""

    repo_root: str
    commit: str
    test_command: TestCommand
    document_path: str  # relative to the checkout root
    project_name: str
    failing_tests: tuple[str, ...] = ()
    original_outcome: str = "unknown"
    #: the session's branch, which the checkout is put on (`checkout.name_the_branch`)
    branch: str | None = None


@dataclass
class ToolSettings:
    max_turns: int = 30
    wall_s: float = 900.0
    test_timeout_s: float = 600.0
    allowed_tools: tuple[str, ...] = ()
    disallowed_tools: tuple[str, ...] = ()
    network: bool = False
    nice: int = 10
    concurrency: int = 1
    model: str | None = None
    require_isolation: bool = False
    #: Dollars reserved per rollout; Claude Code is stopped there (`--max-budget-usd`).
    max_usd_per_rollout: float = 0.5


@dataclass
class ToolReplayer:
    """Runs tool rollouts; the `Replayer` hands it the tasks that have a site."""

    agents: dict[str, ToolAgent]
    guard: BudgetGuard | None
    stop: threading.Event
    settings: ToolSettings = field(default_factory=ToolSettings)
    #: Where a budget stop is reported (the night's target executor), so the trial and
    #: the night see it exactly as they see a text rollout's budget stop.
    on_budget_stop: Callable[[BudgetExceeded], None] | None = None
    checkout_root: Path | None = None
    #: The rubric judge (the night's judge executor) when `replay.rubric_judge` is on.
    judge: Any = None
    judge_model: str | None = None
    rollouts_run: int = 0
    _baselines: dict[tuple[str, str, str], TestRun] = field(default_factory=dict)
    #: Per site, what the night's first checkout of it resolved (see `CheckoutSource`).
    _sources: dict[tuple[str, str], CheckoutSource] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def run(
        self, tasks: Sequence[ReplayTask], document: str, arm: str, indices: Sequence[int]
    ) -> list[RolloutResult]:
        doc_hash = content_hash(document)
        jobs = [(task, index) for task in tasks for index in indices]
        workers = max(1, min(self.settings.concurrency, len(jobs)))
        if workers == 1:
            results = [self._one(task, index, document, doc_hash, arm) for task, index in jobs]
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                results = list(
                    pool.map(lambda job: self._one(job[0], job[1], document, doc_hash, arm), jobs)
                )
        self.rollouts_run += len(results)
        return results

    # --- one rollout -------------------------------------------------------------------

    def _one(
        self, task: ReplayTask, index: int, document: str, doc_hash: str, arm: str
    ) -> RolloutResult:
        site: ReplaySite = task.site
        agent = self.agents.get(task.consumer)
        prompt = target_user_message(task.intent, task.context, offline=not self.settings.network)

        def missing(kind: FailureKind, detail: str, extra: dict[str, Any]) -> RolloutResult:
            response = ModelResponse.failed(
                kind, detail, backend=agent.name if agent else task.consumer, model=""
            )
            judgement = Judgement(None, None, {"mode": "tools", "failure": detail, **extra})
            return RolloutResult(task, arm, index, doc_hash, response, judgement)

        base = {"consumer": task.consumer, "mode": "tools"}
        if agent is None:
            return missing(FailureKind.NOT_AVAILABLE, f"no {task.consumer} agent", base)
        if self.stop.is_set():
            return missing(FailureKind.CANCELLED, "the night is stopping", base)
        before = self.baseline_tests(site)
        reservation = None
        if self.guard is not None:
            try:
                reservation = self.guard.check(self._estimate(agent, prompt))
            except BudgetExceeded as exc:
                if self.on_budget_stop is not None:
                    self.on_budget_stop(exc)
                return missing(FailureKind.BUDGET, str(exc), base)
        started = time.monotonic()
        try:
            checkout = self._checkout(site)
        except CheckoutError as exc:
            if self.guard is not None:
                self.guard.release(reservation)
            return missing(FailureKind.NOT_AVAILABLE, str(exc), base)
        setup_s = time.monotonic() - started
        with checkout:
            try:
                place_document(checkout, site.document_path, document)
                response, detail = agent.act(
                    self._act_request(
                        prompt, checkout.path, reservation.usd if reservation else None
                    )
                )
            except (CheckoutError, OSError) as exc:
                if self.guard is not None:
                    self.guard.release(reservation)
                return missing(FailureKind.NOT_AVAILABLE, f"{exc}"[:300], base)
            if self.guard is not None:
                self.guard.record(response, "target", agent.name, response.model, reservation)
            if not response.ok and response.failure != FailureKind.TIMEOUT:
                judgement = Judgement(
                    None, None, {**base, "failure": str(response.failure), **_act(detail)}
                )
                return RolloutResult(task, arm, index, doc_hash, response, judgement)
            try:
                changed, diff = checkout.changes({site.document_path})
            except CheckoutError as exc:
                changed, diff = [], f"[diff unavailable: {exc}]"
            after = run_tests(
                checkout.path,
                site.test_command,
                timeout_s=self.settings.test_timeout_s,
                network=self.settings.network,
                nice=self.settings.nice,
            )
        judgement = judge_tool_rollout(
            before,
            after,
            list(site.failing_tests),
            task.judge_spec,
            response.text,
            diff,
            sorted(detail.tools),
        )
        judgement.detail.update(
            {
                **base,
                **_act(detail),
                "files_changed": changed[:100],
                "tokens": response.input_tokens
                + response.output_tokens
                + response.cache_read_tokens
                + response.cache_write_tokens,
                "wall_s": round(time.monotonic() - started, 3),
                "checkout_s": round(setup_s, 3),
                "test_isolation": after.isolation,
            }
        )
        if self.judge is not None and judgement.success:
            judgement = self._rubric(task, index, arm, response.text, diff, after, judgement)
        summary = _trajectory_text(response.text, changed, after, judgement)
        shown = replace(response, text=summary)
        return RolloutResult(task, arm, index, doc_hash, shown, judgement)

    def _checkout(self, site: ReplaySite) -> Checkout:
        key = (site.repo_root, site.commit)
        checkout = create_checkout(
            site.repo_root,
            site.commit,
            name=site.project_name,
            root=self.checkout_root,
            source=self._sources.get(key),
            branch=site.branch,
        )
        if checkout.source is not None:
            self._sources[key] = checkout.source
        return checkout

    def _rubric(
        self,
        task: ReplayTask,
        index: int,
        arm: str,
        final: str,
        diff: str,
        after: TestRun,
        judgement: Judgement,
    ) -> Judgement:
        """The rubric judge reads the final message, the diff and the test output (fenced)."""
        answer = (
            f"{final}\n\n--- diff ---\n{diff[:20_000]}\n\n--- tests ({after.command}) ---\n"
            f"{after.output_tail}"
        )
        request = judge_request(
            task.intent,
            task.judge_spec,
            answer,
            self.judge_model,
            {"custom_id": f"judge-{arm}-{task.unit}-{index}", "task": task.id},
            offline=not self.settings.network,
        )
        [verdict] = self.judge.run([request])
        ruled = judge_by_model(verdict, verdict, ScoreWeights())
        detail = {**judgement.detail, "rubric": ruled.detail}
        if ruled.success is None:  # the judge failed: the tests' verdict stands, noted
            return Judgement(judgement.score, judgement.success, detail, verdict)
        success = bool(judgement.success and ruled.success)
        return Judgement(1.0 if success else 0.0, success, detail, verdict)

    def _act_request(self, prompt: str, workdir: Path, max_usd: float | None) -> ActRequest:
        s = self.settings
        return ActRequest(
            prompt=prompt,
            workdir=workdir,
            model=s.model,
            max_turns=s.max_turns,
            wall_s=s.wall_s,
            allowed_tools=s.allowed_tools,
            disallowed_tools=s.disallowed_tools,
            network=s.network,
            nice=s.nice,
            require_isolation=s.require_isolation,
            max_usd=max_usd,
        )

    def _estimate(self, agent: ToolAgent, prompt: str) -> Estimate:
        """What one rollout reserves: `max_usd_per_rollout` dollars, which Claude Code is
        told to stop at, and the tokens of `TURN_ESTIMATE_FACTOR` single calls.

        No output cap bounds a multi-turn agent, so the dollars are an allowance the agent
        enforces on itself (Claude Code checks it between turns; Codex has no such switch
        and is settled to what it reports)."""
        one = agent.estimate(
            ModelRequest(messages=[ChatMessage("user", prompt)], max_tokens=4000, role="target")
        )
        f = TURN_ESTIMATE_FACTOR
        usd = self.settings.max_usd_per_rollout
        return Estimate(one.input_tokens * f, one.output_tokens * f, usd)

    def baseline_tests(self, site: ReplaySite) -> TestRun:
        """The tests at the commit, before any agent acted (once per task site)."""
        key = (site.repo_root, site.commit, site.test_command.text)
        with self._lock:
            cached = self._baselines.get(key)
            if cached is not None:
                return cached
            try:
                with self._checkout(site) as checkout:
                    run = run_tests(
                        checkout.path,
                        site.test_command,
                        timeout_s=self.settings.test_timeout_s,
                        network=self.settings.network,
                        nice=self.settings.nice,
                    )
            except CheckoutError as exc:
                run = TestRun(site.test_command.text, None, False, None, 0, 0, "", error=str(exc))
            self._baselines[key] = run
            return run


def _act(detail: ActDetail) -> dict[str, Any]:
    return {
        "tool_calls": detail.tool_calls,
        "tools": dict(sorted(detail.tools.items())[:30]),
        "turns": detail.turns,
        "cpu_s": round(detail.cpu_s, 3),
        "agent_timed_out": detail.timed_out,
        "turn_cap_reached": detail.stopped_by_turn_cap,
        "isolation": detail.isolation,
    }


def _trajectory_text(final: str, changed: list[str], after: TestRun, judgement: Judgement) -> str:
    """What the optimizer and the review see of a tool rollout: words, files, tests."""
    lines = [final.strip() or "(the agent ended without a final message)", ""]
    lines.append("Files changed: " + (", ".join(changed[:20]) or "none"))
    figures = after.figures()
    lines.append(
        f"Tests after the rollout ({figures['command']}): exit {figures['exit']}, "
        f"passed {figures['passed']}, failed {figures['failed']}"
    )
    if figures["failed_names"]:
        lines.append("Failing: " + ", ".join(figures["failed_names"][:10]))
    verdict = judgement.detail.get("verdict")
    if verdict:
        lines.append(f"Verdict: {verdict}")
    return "\n".join(lines)
