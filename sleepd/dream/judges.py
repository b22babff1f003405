"""Score one rollout: rule checks from the task's judge spec, or a model judge.

A failed call (timeout, rate limit, …) is missing data (`None`), never a zero.
The score may blend success with token efficiency, tool use and latency by the
configured weights; with the default weights it is success alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import orjson

from sleepd.backends.base import ChatMessage, ModelRequest, ModelResponse
from sleepd.dream.prompts import JUDGE_SYSTEM, judge_user_message
from sleepd.mining.judge_spec import SpecError, score_with_rules

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"score": {"type": "number"}, "reason": {"type": "string"}},
    "required": ["score", "reason"],
    "additionalProperties": False,
}
_TOOL_MENTION_RE = re.compile(r"\b(?:Bash|Read|Edit|Write|Grep|Glob|shell|apply_patch)\b")


@dataclass(frozen=True)
class ScoreWeights:
    success: float = 1.0
    tokens: float = 0.0
    tools: float = 0.0
    latency: float = 0.0
    token_budget: int = 4000
    latency_budget_s: float = 120.0


@dataclass
class Judgement:
    score: float | None
    success: bool | None
    detail: dict[str, Any] = field(default_factory=dict)
    judge_response: ModelResponse | None = None


def needs_model_judge(response: ModelResponse, judge_spec: dict[str, Any]) -> bool:
    """Rule checks judge real answers; rubric-only specs and simulated answers need a judge.

    Rule checks come from real evidence (what the user insisted on), so they say nothing
    about a simulated answer; the simulated judge reads the simulator's outcome instead.
    """
    return response.ok and (response.simulated or not judge_spec.get("checks"))


def judge_request(
    intent: str,
    judge_spec: dict[str, Any],
    answer: str,
    model: str | None,
    meta: dict[str, Any],
    *,
    offline: bool = False,
) -> ModelRequest:
    """`offline`: the answer was made with the network cut (`prompts.OFFLINE_NOTE`)."""
    rubric = str(judge_spec.get("rubric", ""))
    return ModelRequest(
        messages=[ChatMessage("user", judge_user_message(intent, rubric, answer, offline=offline))],
        system=JUDGE_SYSTEM,
        model=model,
        max_tokens=200,
        temperature=0.0,
        role="judge",
        json_schema=JUDGE_SCHEMA,
        metadata=meta,
    )


def judge_by_rules(
    response: ModelResponse, judge_spec: dict[str, Any], weights: ScoreWeights
) -> Judgement:
    if not response.ok:
        return Judgement(None, None, {"failure": str(response.failure)})
    tool_calls = _TOOL_MENTION_RE.findall(response.text)
    try:
        success_score, rule = score_with_rules(judge_spec, response.text, tool_calls)
    except SpecError as exc:  # a spec stored before a rule it breaks: missing data
        return Judgement(None, None, {"judge": "rules", "checks_skipped": str(exc)[:200]})
    detail: dict[str, Any] = {"judge": "rules", "checks": rule.detail()}
    if success_score is None:
        return Judgement(None, None, detail)
    return Judgement(blend(success_score, response, weights), success_score >= 0.5, detail)


def judge_by_model(
    response: ModelResponse, judge_response: ModelResponse, weights: ScoreWeights
) -> Judgement:
    """Parse the judge's JSON; a failed or malformed judgement is missing data."""
    if not judge_response.ok:
        return Judgement(
            None, None, {"judge": "model", "failure": str(judge_response.failure)}, judge_response
        )
    try:
        data = orjson.loads(_json_part(judge_response.text))
        score = float(data["score"])
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
        return Judgement(None, None, {"judge": "model", "failure": "bad_output"}, judge_response)
    if not 0.0 <= score <= 1.0:
        return Judgement(
            None, None, {"judge": "model", "failure": "score out of range"}, judge_response
        )
    detail = {"judge": "model", "reason": str(data.get("reason", ""))[:300]}
    return Judgement(blend(score, response, weights), score >= 0.5, detail, judge_response)


def _json_part(text: str) -> str:
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if start >= 0 and end > start else text


def blend(success: float, response: ModelResponse, weights: ScoreWeights) -> float:
    parts = [(weights.success, success)]
    if weights.tokens:
        used = response.output_tokens
        parts.append((weights.tokens, max(0.0, 1.0 - used / max(1, weights.token_budget))))
    if weights.tools:
        parts.append((weights.tools, 1.0 if _TOOL_MENTION_RE.search(response.text) else 0.0))
    if weights.latency:
        parts.append(
            (weights.latency, max(0.0, 1.0 - response.latency_s / weights.latency_budget_s))
        )
    total = sum(w for w, _ in parts)
    if total <= 0:
        return success
    return round(sum(w * v for w, v in parts) / total, 6)
