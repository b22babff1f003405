"""The judge spec of a task: rule checks from evidence plus an optional rubric.

The optimizer never sees a spec; the night scores rollouts with `score_with_rules`.
Format::

    {"version": 1,
     "checks": [{"type": "must_contain" | "must_not_contain" | "regex" | "json" | "tool_called",
                 "value": ..., "weight": 1.0, "evidence_event_ids": [...]}],
     "rubric": "..."}

`must_contain` / `must_not_contain` match case-insensitively and on token
boundaries, so "npm install" does not match inside "pnpm install".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

# the regex engine's own parse of a pattern: no second grammar to keep in step with it
from re import _parser  # type: ignore[attr-defined]
from typing import Any

from sleepd.mining.json_text import NOT_JSON, json_value

SPEC_VERSION = 1
CHECK_TYPES = ("must_contain", "must_not_contain", "regex", "json", "tool_called")


class SpecError(ValueError):
    """A judge spec that does not follow the format."""


@dataclass(frozen=True, slots=True)
class Check:
    type: str
    value: Any = None
    weight: float = 1.0
    evidence_event_ids: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["evidence_event_ids"] = list(self.evidence_event_ids)
        return data


@dataclass(frozen=True, slots=True)
class JudgeSpec:
    checks: tuple[Check, ...] = ()
    rubric: str = ""
    version: int = SPEC_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "checks": [c.to_dict() for c in self.checks],
            "rubric": self.rubric,
        }

    @property
    def empty(self) -> bool:
        return not self.checks and not self.rubric.strip()


@dataclass(slots=True)
class CheckResult:
    check: Check
    passed: bool
    reason: str = ""


@dataclass(slots=True)
class RuleScore:
    score: float
    results: list[CheckResult] = field(default_factory=list)

    def detail(self) -> list[dict[str, Any]]:
        return [
            {"type": r.check.type, "value": r.check.value, "passed": r.passed, "reason": r.reason}
            for r in self.results
        ]


def validate(data: Any) -> JudgeSpec:
    """Parse and check a spec dict; raise `SpecError` naming the first problem."""
    if not isinstance(data, dict):
        raise SpecError("judge spec is not an object")
    if data.get("version") != SPEC_VERSION:
        raise SpecError(f"judge spec version {data.get('version')!r} is not {SPEC_VERSION}")
    raw_checks = data.get("checks", [])
    if not isinstance(raw_checks, list):
        raise SpecError("checks is not a list")
    rubric = data.get("rubric", "")
    if not isinstance(rubric, str):
        raise SpecError("rubric is not a string")
    checks = tuple(_check(i, c) for i, c in enumerate(raw_checks))
    return JudgeSpec(checks=checks, rubric=rubric)


def _check(index: int, raw: Any) -> Check:
    where = f"checks[{index}]"
    if not isinstance(raw, dict):
        raise SpecError(f"{where} is not an object")
    kind = raw.get("type")
    if kind not in CHECK_TYPES:
        raise SpecError(f"{where}.type {kind!r} is not one of {', '.join(CHECK_TYPES)}")
    value = raw.get("value")
    needs_text = kind in ("must_contain", "must_not_contain", "regex", "tool_called")
    if needs_text and (not isinstance(value, str) or not value.strip()):
        raise SpecError(f"{where}.value must be a non-empty string")
    if kind == "regex":
        try:
            re.compile(str(value))
        except re.error as exc:
            raise SpecError(f"{where}.value is not a valid regex: {exc}") from None
        if backtracks_without_bound(str(value)):
            raise SpecError(
                f"{where}.value repeats a part that can match in more than one way "
                "(a repeat or alternatives inside a repeat without bound): "
                "a search that fails could run for hours"
            )
    weight = raw.get("weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, int | float) or weight <= 0:
        raise SpecError(f"{where}.weight must be a positive number")
    ids = raw.get("evidence_event_ids", [])
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        raise SpecError(f"{where}.evidence_event_ids must be a list of integers")
    return Check(type=kind, value=value, weight=float(weight), evidence_event_ids=tuple(ids))


def backtracks_without_bound(pattern: str) -> bool:
    """Whether a failed search with `pattern` can take exponential time in Python's
    backtracking engine: a part repeated without bound holds another repeat or
    alternatives, so the same text splits among them in many ways (`(a+)+$`,
    `(\\w+\\s?)*$`, `(a|ab)*c`).

    A regex check comes from a model that read hostile transcripts, and runs on every
    rollout's whole answer: a polynomial pattern (`.*a.*b`) is left alone, a shape
    that can stall a night is refused.
    """
    return _repeats_ambiguously(list(_parser.parse(pattern)), inside_repeat=False)


def _repeats_ambiguously(items: list[tuple[Any, Any]], *, inside_repeat: bool) -> bool:
    """`inside_repeat`: the items sit in a repeat without an upper bound (a bounded one,
    `(\\d{1,3}\\.){3}`, tries a bounded number of splits)."""
    for op, arg in items:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            _low, high, body = arg
            if (high > 1 and inside_repeat) or _repeats_ambiguously(
                list(body), inside_repeat=inside_repeat or high == _parser.MAXREPEAT
            ):
                return True
        elif name == "BRANCH":
            if inside_repeat or any(
                _repeats_ambiguously(list(branch), inside_repeat=False) for branch in arg[1]
            ):
                return True
        elif name == "SUBPATTERN" or name in ("ASSERT", "ASSERT_NOT", "ATOMIC_GROUP"):
            body = arg if name == "ATOMIC_GROUP" else arg[-1]
            if _repeats_ambiguously(list(body), inside_repeat=inside_repeat):
                return True
    return False


def token_pattern(value: str) -> re.Pattern[str]:
    """`value` as a literal that must not sit inside a longer word."""
    left = r"(?<![\w-])" if re.match(r"[\w-]", value) else ""
    right = r"(?![\w-])" if re.search(r"[\w-]$", value) else ""
    return re.compile(left + re.escape(value) + right, re.IGNORECASE)


def _json_ok(text: str) -> bool:
    stripped = text.strip()
    fence = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", stripped, re.DOTALL)
    candidate = fence.group(1) if fence else stripped
    # (nested past the parser's reach included: the output judged is a model's)
    return json_value(candidate, NOT_JSON) is not NOT_JSON


def _run(check: Check, output: str, tools: Sequence[str]) -> CheckResult:
    if check.type == "must_contain":
        ok = bool(token_pattern(check.value).search(output))
        return CheckResult(check, ok, "" if ok else f"missing {check.value!r}")
    if check.type == "must_not_contain":
        ok = not token_pattern(check.value).search(output)
        return CheckResult(check, ok, "" if ok else f"contains {check.value!r}")
    if check.type == "regex":
        ok = bool(re.search(check.value, output, re.MULTILINE))
        return CheckResult(check, ok, "" if ok else "regex did not match")
    if check.type == "json":
        ok = _json_ok(output)
        return CheckResult(check, ok, "" if ok else "output is not JSON")
    wanted = str(check.value).lower()
    ok = any(t.lower() == wanted for t in tools)
    return CheckResult(check, ok, "" if ok else f"tool {check.value!r} not called")


def score_with_rules(
    spec: JudgeSpec | dict[str, Any], output_text: str, tool_calls: Sequence[str] = ()
) -> tuple[float | None, RuleScore]:
    """Weighted share of passed checks in [0, 1]; None when the spec has no checks.

    `tool_calls` are the names of the tools the rollout called.
    """
    parsed = validate(spec) if isinstance(spec, dict) else spec
    results = [_run(c, output_text, tool_calls) for c in parsed.checks]
    total = sum(r.check.weight for r in results)
    if total <= 0:
        return None, RuleScore(0.0, results)
    score = sum(r.check.weight for r in results if r.passed) / total
    return score, RuleScore(score, results)
