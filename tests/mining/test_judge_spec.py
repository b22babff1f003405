"""Judge specs: validation and rule scoring."""

from __future__ import annotations

import pytest

from sleepd.mining.judge_spec import SpecError, score_with_rules, validate


def spec(*checks: dict, rubric: str = "") -> dict:
    return {"version": 1, "checks": list(checks), "rubric": rubric}


def test_token_boundaries_keep_pnpm_apart_from_npm() -> None:
    s = spec(
        {"type": "must_contain", "value": "pnpm"},
        {"type": "must_not_contain", "value": "npm install"},
    )
    assert score_with_rules(s, "run `pnpm install`")[0] == 1.0
    score, detail = score_with_rules(s, "run npm install")
    assert score == 0.0
    assert [r["passed"] for r in detail.detail()] == [False, False]


def test_weights_regex_json_and_tools() -> None:
    s = spec(
        {"type": "regex", "value": r"^def \w+", "weight": 2.0},
        {"type": "json", "value": None},
        {"type": "tool_called", "value": "Edit"},
    )
    assert score_with_rules(s, "def f():\n  pass", ["Edit"])[0] == pytest.approx(3 / 4)
    assert score_with_rules(s, '```json\n{"a": 1}\n```', [])[0] == pytest.approx(1 / 4)


def test_no_checks_scores_none() -> None:
    assert score_with_rules(spec(rubric="be good"), "x")[0] is None


@pytest.mark.parametrize(
    "bad",
    [
        [],
        {"version": 2, "checks": []},
        spec({"type": "contains", "value": "x"}),
        spec({"type": "must_contain", "value": ""}),
        spec({"type": "regex", "value": "("}),
        spec({"type": "must_contain", "value": "x", "weight": 0}),
        spec({"type": "must_contain", "value": "x", "evidence_event_ids": ["a"]}),
    ],
)
def test_invalid_specs_are_refused(bad: object) -> None:
    with pytest.raises(SpecError):
        validate(bad)
