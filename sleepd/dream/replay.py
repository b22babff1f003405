"""Dream rollouts: replay tasks under a document and score every rollout.

Each rollout is one target call plus (where rule checks cannot decide) one
judge call, both through budgeted executors. Each call's results go to
`on_results`, so the night stores every rollout as soon as it is scored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sleepd.backends.base import ChatMessage, ModelRequest, ModelResponse
from sleepd.documents.versions import content_hash
from sleepd.dream.executor import CallExecutor
from sleepd.dream.judges import (
    Judgement,
    ScoreWeights,
    judge_by_model,
    judge_by_rules,
    judge_request,
    needs_model_judge,
)
from sleepd.dream.prompts import TARGET_SYSTEM, target_user_message

Scores = dict[str, list[float | None]]


@dataclass(frozen=True)
class ReplayTask:
    id: str
    intent: str
    split: str
    context: dict[str, Any] = field(default_factory=dict)
    judge_spec: dict[str, Any] = field(default_factory=dict)
    #: What the user said to correct the agent in the original episode (training tasks only).
    corrections: tuple[str, ...] = ()
    #: Tools mode: where the task is replayed (`tool_replay.ReplaySite`) and which agent
    #: acts; each consumer of a document is a unit of its own for the gate.
    site: Any = None
    consumer: str = ""

    @property
    def unit(self) -> str:
        return f"{self.id}@{self.consumer}" if self.consumer else self.id


@dataclass
class RolloutResult:
    task: ReplayTask
    arm: str
    rollout_index: int
    document_hash: str
    response: ModelResponse
    judgement: Judgement

    @property
    def score(self) -> float | None:
        return self.judgement.score


@dataclass
class Replayer:
    target: CallExecutor
    judge: CallExecutor | None
    target_model: str | None = None
    judge_model: str | None = None
    weights: ScoreWeights = field(default_factory=ScoreWeights)
    max_tokens: int = 1500
    on_results: Callable[[list[RolloutResult]], None] | None = None
    rollouts_run: int = 0
    #: Tools mode (`tool_replay.ToolReplayer`): tasks with a site are replayed there.
    tools: Any = None

    def run(
        self, tasks: Sequence[ReplayTask], document: str, arm: str, indices: Sequence[int]
    ) -> list[RolloutResult]:
        acting = [t for t in tasks if t.site is not None and self.tools is not None]
        if acting:
            results = self.tools.run(acting, document, arm, indices)
            self.rollouts_run += len(results)
            rest = [t for t in tasks if t.site is None or self.tools is None]
            if rest:
                results += self._run_text(rest, document, arm, indices, notify=False)
            if self.on_results is not None:
                self.on_results(results)
            return list(results)
        return self._run_text(tasks, document, arm, indices)

    def _run_text(
        self,
        tasks: Sequence[ReplayTask],
        document: str,
        arm: str,
        indices: Sequence[int],
        *,
        notify: bool = True,
    ) -> list[RolloutResult]:
        doc_hash = content_hash(document)
        jobs = [(task, index) for task in tasks for index in indices]
        requests = [
            ModelRequest(
                messages=[ChatMessage("user", target_user_message(task.intent, task.context))],
                system=TARGET_SYSTEM,
                cache_prefix=document,
                model=self.target_model,
                max_tokens=self.max_tokens,
                role="target",
                metadata={
                    "rollout": index,
                    "task": task.id,
                    "custom_id": f"{arm}-{task.id}-{index}",
                },
            )
            for task, index in jobs
        ]
        responses = self.target.run(requests)
        self.rollouts_run += len(responses)
        judgements = self._judge(jobs, responses, arm)
        results = []
        for (task, index), response, judgement in zip(jobs, responses, judgements, strict=True):
            results.append(RolloutResult(task, arm, index, doc_hash, response, judgement))
        if notify and self.on_results is not None:
            self.on_results(results)
        return results

    def _judge(
        self, jobs: list[tuple[ReplayTask, int]], responses: list[ModelResponse], arm: str
    ) -> list[Judgement]:
        judgements: list[Judgement | None] = [None] * len(jobs)
        model_requests: list[ModelRequest] = []
        positions: list[int] = []
        for pos, ((task, index), response) in enumerate(zip(jobs, responses, strict=True)):
            if needs_model_judge(response, task.judge_spec) and self.judge is not None:
                positions.append(pos)
                model_requests.append(
                    judge_request(
                        task.intent,
                        task.judge_spec,
                        response.text,
                        self.judge_model,
                        {"custom_id": f"judge-{arm}-{task.id}-{index}", "task": task.id},
                    )
                )
            else:
                judgements[pos] = judge_by_rules(response, task.judge_spec, self.weights)
        if model_requests and self.judge is not None:
            for pos, judge_response in zip(positions, self.judge.run(model_requests), strict=True):
                judgements[pos] = judge_by_model(responses[pos], judge_response, self.weights)
        return [j if j is not None else Judgement(None, None, {}) for j in judgements]


def scores_by_task(results: Sequence[RolloutResult]) -> Scores:
    table: Scores = {}
    for result in sorted(results, key=lambda r: (r.task.unit, r.rollout_index)):
        table.setdefault(result.task.unit, []).append(result.score)
    return table


def merge_scores(into: Scores, more: Scores) -> Scores:
    for task_id, scores in more.items():
        into.setdefault(task_id, []).extend(scores)
    return into


def mean_score(table: Scores) -> float | None:
    values = [s for scores in table.values() for s in scores if s is not None]
    return round(sum(values) / len(values), 6) if values else None
