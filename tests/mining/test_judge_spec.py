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


def test_output_nested_past_the_parser_is_no_json_and_no_crash() -> None:
    # the output judged is a model's: it may nest past any parser's reach
    s = spec({"type": "json", "value": None})
    assert score_with_rules(s, "[" * 100_000 + "]" * 100_000)[0] == 0.0
    assert score_with_rules(s, "null")[0] == 1.0


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


@pytest.mark.parametrize(
    "pattern",
    [
        r"^(a+)+$",
        r"(\w+\s?)*$",
        r"(a|ab)*c",
        r"^(\s*\w+\s*=\s*\d+\s*,?)+$",
        r"(\d{1,3})+$",
        r"(x+x+)+y",
        r"(?:(?:foo|fo)o)*bar",
    ],
)
def test_a_regex_a_failed_search_could_run_for_hours_on_is_refused(pattern: str) -> None:
    """A model writes the regex checks after reading hostile transcripts; each runs on
    every rollout's answer, and these shapes take exponential time to fail."""
    with pytest.raises(SpecError, match="can match in more than one way"):
        validate(spec({"type": "regex", "value": pattern}))


@pytest.mark.parametrize(
    "pattern",
    [
        r"^def \w+\(",
        r"\d+ (passed|failed)",
        r"(?:ab)+c",
        r".*error.*line \d+",
        r"(\d{1,3}\.){3}\d{1,3}",
        r"[A-Z][a-z]+(?=:)",
        r"^\s*- \[[ x]\] .+$",
        r"(['\"]).*\1",
    ],
)
def test_regexes_whose_failure_stays_cheap_are_kept(pattern: str) -> None:
    assert validate(spec({"type": "regex", "value": pattern})).checks[0].value == pattern


def test_a_stored_spec_with_such_a_regex_is_missing_data_not_a_stalled_night() -> None:
    """A spec stored before the rule (or written by hand) is refused when it is used: the
    rollout's judgement is missing data, and the search never runs."""
    from sleepd.backends.base import ModelResponse
    from sleepd.dream.judges import ScoreWeights, judge_by_rules

    stored = spec({"type": "regex", "value": r"^(a+)+$"})
    answer = ModelResponse("a" * 26 + "!", "sim", "m")
    judgement = judge_by_rules(answer, stored, ScoreWeights())
    assert judgement.score is None and "can match in more than one way" in str(judgement.detail)


def test_the_rubric_lists_failed_commands_only_when_there_are_some() -> None:
    """Set 14 (Smartagent-so's PAI sessions): the errors a task recovered from were file
    reads, which name no command; the rubric had printed the heading over an empty list."""
    from sleepd.mining.tasks import Evidence, heuristic_spec

    reads = Evidence("/recover-from-checkpoint", recovered=[([3], "", ""), ([5], "", "")])
    assert "Commands that failed before" not in heuristic_spec(reads).rubric
    shell = Evidence(
        "install the deps",
        recovered=[([3], "npm install", "pnpm install"), ([7], "npm install", "pnpm install")],
    )
    rubric = heuristic_spec(shell).rubric
    # each replacement once, with what did the job instead
    assert rubric.endswith(
        "Commands that failed before, and the command that did the job instead:\n"
        "- `npm install` failed; `pnpm install` worked"
    )


def test_a_failing_form_the_fix_holds_is_named_but_not_banned() -> None:
    """`python -m pytest …` failed and `uv run python -m pytest …` worked (set 20): a check
    that the answer must not contain the failing form would refuse the fix itself, which
    holds it word for word; the rubric still names the pair."""
    from sleepd.mining.tasks import Evidence, heuristic_spec

    failing = "python -m pytest tests/test_decision_verify.py -v"
    evidence = Evidence("run the tests", recovered=[([3], failing, f"uv run {failing}")])
    spec = heuristic_spec(evidence)
    assert not spec.checks
    # held only as letters inside a longer word, it is still banned
    pnpm = heuristic_spec(Evidence("install", recovered=[([3], "npm install", "pnpm install")]))
    assert [(c.type, c.value) for c in pnpm.checks] == [("must_not_contain", "npm install")]
    assert f"- `{failing}` failed; `uv run {failing}` worked" in spec.rubric


@pytest.mark.parametrize(
    ("intent", "wants"),
    [
        ("List the open issues. Answer only in JSON.", True),
        ("give me the failing tests as JSON", True),
        ("Reply with valid JSON: the name and version of each dependency", True),
        ("JSON only, no prose: which services does docker-compose.yml start?", True),
        ("Your answer must be valid JSON.", True),
        # the work is about JSON, not the reply
        ("Make the /health endpoint return JSON instead of plain text", False),
        ("parse the settings file as JSON and fail loudly on a bad key", False),
        ("only read json files from the config folder", False),
        # a man page pasted into a request (gh pr view, tests/fixtures/real_sessions): the
        # json check it made would have failed every rollout of a code change
        ("Can you change the default command to look up the PR for the current branch?\n\n"
         "Man page:\n--json <fields>\n    Output JSON with the specified fields\n"
         "-t, --template <string>\n    Format JSON output using a Go template", False),
    ],
)  # fmt: skip
def test_a_json_check_only_when_the_answer_itself_is_asked_for_as_json(
    intent: str, wants: bool
) -> None:
    from sleepd.mining.tasks import Evidence, heuristic_spec

    checks = [c.type for c in heuristic_spec(Evidence(intent)).checks]
    assert (checks == ["json"]) is wants
