"""Reflection: the optimizer reads training trajectories and proposes bounded edits.

Only training rollouts reach the optimizer, and only their task text and output:
never judge specs, never validation or test tasks. Every proposal goes through
the edit budget, anchor and region checks, and the safety lint; what fails is
counted, and a fingerprint keeps the same rejected edit from coming back.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sleepd.backends.base import ChatMessage, ModelRequest
from sleepd.backends.edit_schema import EDIT_SCHEMA
from sleepd.documents.edits import Edit, EditBudget, ParseError, apply_edits, parse_edits
from sleepd.documents.targets import Editable
from sleepd.dream.executor import CallExecutor
from sleepd.dream.prompts import OPTIMIZER_SYSTEM, Trajectory, optimizer_user_message
from sleepd.dream.replay import RolloutResult
from sleepd.dream.safety import SafetyFlag, SafetyPolicy, blocking, lint_edit

_SPACE_RE = re.compile(r"\s+")


@dataclass
class CandidateEdit:
    key: str
    content: str
    edits: list[Edit]
    rationale: str
    fingerprint: str
    rejected_edits: list[dict[str, Any]] = field(default_factory=list)
    safety_flags: list[SafetyFlag] = field(default_factory=list)
    carried_from: int | None = None
    look: int = 1

    def edits_as_dicts(self) -> list[dict[str, str]]:
        return [e.to_dict() for e in self.edits]


@dataclass
class ReflectStats:
    requested: int = 0
    optimizer_failures: int = 0
    parse_failures: int = 0
    edits_rejected: int = 0
    no_change: int = 0
    duplicates: int = 0
    remembered_rejects: int = 0
    safety_rejected: int = 0
    reasons: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "reasons"} | {
            "reasons": self.reasons[:20]
        }


def fingerprint(edits: Sequence[Edit]) -> str:
    """Same edits, same fingerprint, whatever the whitespace or case."""
    parts = sorted(
        "|".join(_SPACE_RE.sub(" ", x).strip().lower() for x in (e.op, e.anchor, e.text))
        for e in edits
    )
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]


#: Rule-check kinds in plain words: the optimizer learns what went wrong, never the value.
CHECK_KINDS = {
    "must_contain": "required content was missing from the answer",
    "must_not_contain": "the answer contained something it must not",
    "regex": "the answer did not have the expected form",
    "json": "the answer was not valid JSON",
    "tool": "an expected tool was not used",
}


def failure_reasons(result: RolloutResult) -> tuple[str, ...]:
    """Why a training rollout failed, without any value of the task's judge spec.

    Rule checks are described by kind; a model judge's reason is kept unless it quotes the
    spec (its rubric or a check's value), which stays hidden.
    """
    detail = result.judgement.detail or {}
    hidden = _spec_strings(result.task.judge_spec)
    reasons: list[str] = []
    for check in detail.get("checks") or []:
        if isinstance(check, dict) and check.get("passed") is False:
            kind = str(check.get("type", ""))
            reasons.append(f"check failed: {CHECK_KINDS.get(kind, 'a rule check failed')}")
    reason = detail.get("reason")
    if isinstance(reason, str) and reason.strip():
        if any(h in reason for h in hidden) or _quotes_rubric(reason, result.task.judge_spec):
            reasons.append("judge's reason withheld: it quoted the hidden rubric")
        else:
            reasons.append(f"judge: {reason.strip()}")
    failure = detail.get("failure")
    if isinstance(failure, str) and failure:
        reasons.append(f"the call failed: {failure}")
    return tuple(dict.fromkeys(reasons))


def _spec_strings(spec: dict[str, Any]) -> set[str]:
    values = {
        str(c.get("value"))
        for c in spec.get("checks") or []
        if isinstance(c, dict) and c.get("value") not in (None, "")
    }
    return {v for v in values if len(v) >= 3}


def _quotes_rubric(reason: str, spec: dict[str, Any], span: int = 24) -> bool:
    rubric = str(spec.get("rubric") or "")
    if len(rubric) < span:
        return bool(rubric) and rubric in reason
    return any(rubric[i : i + span] in reason for i in range(0, len(rubric) - span + 1, 4))


def _trajectory(result: RolloutResult) -> Trajectory:
    ok = (result.score or 0) >= 0.5
    return Trajectory(
        result.task.intent,
        result.response.text,
        ok,
        why=() if ok else failure_reasons(result),
        corrections=result.task.corrections,
    )


def pick_trajectories(
    results: Sequence[RolloutResult],
    max_failing: int = 6,
    max_passing: int = 3,
    max_pairs: int = 3,
) -> tuple[list[Trajectory], list[Trajectory], list[tuple[Trajectory, Trajectory]]]:
    """Failures first (one per task, most-failed tasks first), contrasting pairs of the same
    task (a failing and a succeeding attempt), then successes of other tasks.

    Training rollouts only: validation and test tasks are never passed in, and a rollout of
    another split that slips in is dropped here.
    """
    train = [r for r in results if r.task.split == "train" and r.score is not None]
    by_task: dict[str, list[RolloutResult]] = {}
    for r in train:
        by_task.setdefault(r.task.id, []).append(r)
    ranked = sorted(by_task.values(), key=lambda rs: sum(r.score or 0 for r in rs) / len(rs))
    failing: list[Trajectory] = []
    passing: list[Trajectory] = []
    pairs: list[tuple[Trajectory, Trajectory]] = []
    paired_tasks: set[str] = set()
    for rollouts in ranked:
        worst = min(rollouts, key=lambda r: r.score or 0)
        best = max(rollouts, key=lambda r: r.score or 0)
        if (worst.score or 0) < 0.5 and (best.score or 0) >= 0.5 and len(pairs) < max_pairs:
            pairs.append((_trajectory(worst), _trajectory(best)))
            paired_tasks.add(worst.task.id)
        elif (worst.score or 0) < 0.5 and len(failing) < max_failing:
            failing.append(_trajectory(worst))
    for rollouts in reversed(ranked):
        best = max(rollouts, key=lambda r: r.score or 0)
        if (
            (best.score or 0) >= 0.5
            and best.task.id not in paired_tasks
            and len(passing) < max_passing
        ):
            passing.append(_trajectory(best))
    return failing, passing, pairs


@dataclass
class Reflector:
    optimizer: CallExecutor
    model: str | None
    budget: EditBudget
    safety: SafetyPolicy
    safety_mode: str = "reject"  # or "flag": flagged edits still go to the gate
    known_hosts: set[str] = field(default_factory=set)

    def propose(
        self,
        document: str,
        editable: Editable,
        results: Sequence[RolloutResult],
        *,
        n_candidates: int,
        rejected_fingerprints: set[str],
        rejected_descriptions: Sequence[str],
        seed: int = 0,
    ) -> tuple[list[CandidateEdit], ReflectStats]:
        stats = ReflectStats(requested=n_candidates)
        failing, passing, pairs = pick_trajectories(results)
        if not failing and not pairs:
            stats.reasons.append("no failing training trajectories to learn from")
            return [], stats
        prompt = optimizer_user_message(
            document,
            "the managed section between the sleepd markers"
            if editable == "managed_section"
            else "the body below the frontmatter",
            failing,
            passing,
            max_edits=self.budget.max_edits,
            max_chars=self.budget.max_chars,
            rejected_before=rejected_descriptions,
            pairs=pairs,
        )
        requests = [
            ModelRequest(
                messages=[ChatMessage("user", prompt)],
                system=OPTIMIZER_SYSTEM,
                model=self.model,
                max_tokens=1500,
                temperature=0.7,
                role="optimizer",
                json_schema=EDIT_SCHEMA,
                metadata={"candidate": i, "seed": seed, "custom_id": f"opt-{seed}-{i}"},
            )
            for i in range(n_candidates)
        ]
        candidates: list[CandidateEdit] = []
        seen: set[str] = set()
        for i, response in enumerate(self.optimizer.run(requests)):
            if not response.ok:
                stats.optimizer_failures += 1
                stats.reasons.append(f"optimizer call failed: {response.failure}")
                continue
            candidate = self._candidate(f"c{i + 1}", document, editable, response.text, stats)
            if candidate is None:
                continue
            if candidate.fingerprint in rejected_fingerprints:
                stats.remembered_rejects += 1
                continue
            if candidate.fingerprint in seen:
                stats.duplicates += 1
                continue
            seen.add(candidate.fingerprint)
            candidates.append(candidate)
        return candidates, stats

    def _candidate(
        self, key: str, document: str, editable: Editable, reply: str, stats: ReflectStats
    ) -> CandidateEdit | None:
        parsed = parse_edits(reply)
        if isinstance(parsed, ParseError):
            stats.parse_failures += 1
            stats.reasons.append(parsed.message)
            return None
        result = apply_edits(document, parsed, editable=editable, budget=self.budget)
        stats.edits_rejected += len(result.rejected)
        stats.reasons.extend(reason for _edit, reason in result.rejected)
        if not result.applied or result.content == document:
            stats.no_change += 1
            return None
        flags = lint_edit(
            document, result.content, known_hosts=self.known_hosts, policy=self.safety
        )
        if flags and blocking(flags) and self.safety_mode == "reject":
            stats.safety_rejected += 1
            stats.reasons.append(f"safety lint: {flags[0].rule}: {flags[0].excerpt[:80]}")
            return None
        return CandidateEdit(
            key=key,
            content=result.content,
            edits=list(result.applied),
            rationale=_rationale(reply),
            fingerprint=fingerprint(result.applied),
            rejected_edits=[{**e.to_dict(), "reason": why} for e, why in result.rejected],
            safety_flags=flags,
        )


def _rationale(reply: str) -> str:
    import json

    start, end = reply.find("{"), reply.rfind("}")
    try:
        data = json.loads(reply[start : end + 1])
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's reach
        return ""
    return str(data.get("rationale", ""))[:2000] if isinstance(data, dict) else ""
