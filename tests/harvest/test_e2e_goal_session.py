"""A Codex session driven by a goal: the objective the person set is the request.

Codex's `/goal <objective>` writes no user message. The objective is only in the goal's
record (`thread_goal_updated`), and every turn that pursues it opens with Codex's own
`<goal_context>` message. Read as written, a session started with a goal had no typed
request: its work belonged to no episode and gave no task, the class of the slash
command dropped as a wrapper in issue #14.

These rollouts are constructed after codex-rs (its goal extension, and the rollout
listing's test of a "goal started" session); no labelled rollout holds a goal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from codex_thread import SESSION, answered, envelope, episodes, meta, mined, said
from e2e_support import query

OBJECTIVE = "all tests in test/auth pass and the lint step is clean"
CONTEXT = (
    "<goal_context>\nContinue working toward the active thread goal.\n\n"
    f"<untrusted_objective>\n{OBJECTIVE}\n</untrusted_objective>\n</goal_context>"
)


def goal(objective: str, second: int, status: str = "active") -> dict[str, Any]:
    state = {"thread_id": SESSION, "objective": objective, "status": status, "tokens_used": 0}
    payload = {"type": "thread_goal_updated", "thread_id": SESSION, "goal": state}
    return envelope("event_msg", payload, second)


def goal_turn(second: int, words: str) -> list[dict[str, Any]]:
    """A turn Codex started for the goal: its context message, then the agent at work."""
    return [said(CONTEXT, second), *answered(words, second)]


@pytest.mark.both_dbs
def test_a_session_started_with_a_goal_has_the_goal_as_its_request(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    records = [
        meta(),
        goal(OBJECTIVE, 5),
        *goal_turn(10, "Fixed two auth tests; the lint step still fails on one import."),
        goal(OBJECTIVE, 20),
        *goal_turn(30, "Done: every test in test/auth passes and the lint step is clean."),
        goal(OBJECTIVE, 40, status="complete"),
    ]
    mined(isolated_home, store, cfg, records)

    # one request, the person's goal, holding both turns' work
    [(intent, outcome)] = episodes(db_file)
    assert intent == f"/goal {OBJECTIVE}"
    assert outcome == "success"
    [(calls,)] = query(
        db_file,
        "SELECT COUNT(*) FROM events e JOIN episodes p ON p.session_id = e.session_id "
        "WHERE e.kind = 'tool_call' AND e.seq BETWEEN p.start_seq AND p.end_seq",
    )
    assert calls == 2


def test_a_goal_set_later_in_a_session_is_a_request_of_its_own(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    records = [
        meta(),
        said("add a --json flag to the export command", 5),
        *answered("Done: `export --json` prints the records as JSON.", 5),
        goal(OBJECTIVE, 20),
        *goal_turn(30, "Done: every test in test/auth passes and the lint step is clean."),
    ]
    mined(isolated_home, store, cfg, records)

    assert [intent for intent, _ in episodes(db_file)] == [
        "add a --json flag to the export command",
        f"/goal {OBJECTIVE}",
    ]


@pytest.mark.parametrize(
    "objective",
    [
        "<command-name>/clear</command-name> parsing fails: fix the tag reader",
        "/usr/bin/env python3 scripts/bench.py runs under 2 s",
        "clear the backlog of flaky tests",  # a setting's word opening a condition
        "⏺ the report renders every section ⎿ and the tests pass",
        "<goal_context>all tests pass</goal_context>",
    ],
)
def test_a_goal_is_the_request_whatever_its_words_look_like(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, objective: str
) -> None:
    records = [
        meta(),
        goal(objective, 5),
        *goal_turn(10, "Done: the goal's condition holds and the tests pass."),
    ]
    mined(isolated_home, store, cfg, records)

    [(intent, _)] = episodes(db_file)
    assert intent == f"/goal {objective}"


def goal_status(status: str, second: int, output: Any = '{"goal":{"status":"ok"}}') -> list[Any]:
    """The agent reports its goal's state through its goal tool, and the tool answers."""
    arguments = f'{{"status":"{status}"}}'
    call = {"type": "function_call", "name": "update_goal", "call_id": f"g{second}"}
    result = {"type": "function_call_output", "call_id": f"g{second}", "output": output}
    return [
        envelope("response_item", {**call, "arguments": arguments}, second),
        envelope("response_item", result, second + 1),
    ]


#: The agent's last words report usage only, as the goal tool asks: no done claim, no
#: "I couldn't".
REPORT = "Tokens used: 40,000 of 50,000; time spent: 12 minutes."


def outcome_of(db_file: Path) -> tuple[str, str]:
    [(outcome, rule)] = query(db_file, "SELECT outcome, outcome_rule FROM episodes")
    return str(outcome), str(rule)


@pytest.mark.parametrize(
    ("status", "expected"),
    [("blocked", ("failure", "agent_gave_up")), ("complete", ("success", "done_claim"))],
)
def test_the_goal_state_the_agent_reported_is_its_verdict_whatever_its_last_words(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, status: str, expected: Any
) -> None:
    # read alone, the agent had the last word and nothing failed: a success, by no claim
    records = [meta(), goal(OBJECTIVE, 5), said(CONTEXT, 10), *goal_status(status, 20)]
    mined(isolated_home, store, cfg, [*records, *answered(REPORT, 30)])

    assert outcome_of(db_file) == expected


def test_only_the_goals_last_state_counts(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    # blocked, then the person resumed it and the agent finished: the goal was done
    records = [meta(), goal(OBJECTIVE, 5), said(CONTEXT, 10), *goal_status("blocked", 20)]
    records += [said(CONTEXT, 40), *goal_status("complete", 50), *answered(REPORT, 60)]
    mined(isolated_home, store, cfg, records)

    assert outcome_of(db_file)[0] == "success"


def test_a_goal_state_the_tool_refused_says_nothing(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    # (codex-rs's payload of a call that failed: its content and `success` false)
    refused = {"content": "cannot mark the goal blocked yet: seen once", "success": False}
    records = [meta(), goal(OBJECTIVE, 5), said(CONTEXT, 10)]
    records += [*goal_status("blocked", 20, output=refused), *answered(REPORT, 30)]
    mined(isolated_home, store, cfg, records)

    assert outcome_of(db_file)[1] != "agent_gave_up"
