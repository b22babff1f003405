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


def pick_trajectories(
    results: Sequence[RolloutResult], max_failing: int = 6, max_passing: int = 3
) -> tuple[list[Trajectory], list[Trajectory]]:
    """Failures first (one per task, most-failed tasks first), then contrasting successes."""
    train = [r for r in results if r.task.split == "train" and r.score is not None]
    by_task: dict[str, list[RolloutResult]] = {}
    for r in train:
        by_task.setdefault(r.task.id, []).append(r)
    ranked = sorted(by_task.values(), key=lambda rs: sum(r.score or 0 for r in rs) / len(rs))
    failing: list[Trajectory] = []
    passing: list[Trajectory] = []
    for rollouts in ranked:
        worst = min(rollouts, key=lambda r: r.score or 0)
        best = max(rollouts, key=lambda r: r.score or 0)
        if (worst.score or 0) < 0.5 and len(failing) < max_failing:
            failing.append(Trajectory(worst.task.intent, worst.response.text, False))
    for rollouts in reversed(ranked):
        best = max(rollouts, key=lambda r: r.score or 0)
        if (best.score or 0) >= 0.5 and len(passing) < max_passing:
            passing.append(Trajectory(best.task.intent, best.response.text, True))
    return failing, passing


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
        failing, passing = pick_trajectories(results)
        if not failing:
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
    except ValueError:
        return ""
    return str(data.get("rationale", ""))[:2000] if isinstance(data, dict) else ""
