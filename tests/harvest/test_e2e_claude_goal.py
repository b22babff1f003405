"""A Claude Code session driven by `/goal`: the evaluator's verdict is how the work ended.

Claude Code 2.1.139 and later: `/goal <condition>` is answered by the CLI ("Goal set: …"),
records the goal's state as a `goal_status` attachment (`{"met": false, "sentinel": true,
"condition": …}` when it is set; the shape of the real record in entireio/git-sync's public
history, not in the repository), and after each turn a small model reads the transcript
and judges whether the condition holds; when it does, the goal clears. The agent's last
words are then often a report, not a claim.

The record of the goal met is constructed after the one set (`met` true, no sentinel).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2e_support import (
    claude_answer,
    claude_prompt,
    claude_tool_result,
    claude_tool_use,
    query,
    write_lines,
)

from sleepd.harvest import harvest

SESSION = "5d1b8f3a-0c4e-4f7a-9b2d-6e8f1a3c5b7d"
CONDITION = "all tests in test/auth pass and the lint step is clean"
#: The agent's last words report, and claim nothing.
REPORT = "Ran the suite and the linter; output is above."


def goal_status(
    parent: dict[str, Any], uuid: str, condition: str = CONDITION, **state: Any
) -> dict[str, Any]:
    """The goal's state as Claude Code records it; the condition first, as a build that
    orders its keys otherwise would write it (up to 4,000 characters long)."""
    return {
        "parentUuid": parent["uuid"],
        "isSidechain": False,
        "type": "attachment",
        "uuid": uuid,
        "timestamp": "2026-06-05T05:00:03.000Z",
        "sessionId": SESSION,
        "cwd": "/work/demo",
        "attachment": {"type": "goal_status", "condition": condition, **state},
    }


def session(home: Path, *last: Any, condition: str = CONDITION) -> list[dict[str, Any]]:
    command = (
        "<command-name>/goal</command-name>\n<command-message>goal</command-message>\n"
        f"<command-args>{CONDITION}</command-args>"
    )
    opened = claude_prompt(SESSION, "u1", command)
    said = claude_prompt(
        SESSION, "u2", f"<local-command-stdout>Goal set: {CONDITION}</local-command-stdout>"
    )
    said["parentUuid"] = "u1"
    status = goal_status(said, "g1", met=False, sentinel=True)
    call = claude_tool_use(status, "a1", "toolu_1", {"command": "npm test && npm run lint"})
    result = claude_tool_result(call, "r1", "42 passing\nlint: 0 problems")
    words = claude_answer(result, "a2", REPORT, timestamp="2026-06-05T05:00:03.000Z")
    records = [opened, said, status, call, result, words]
    records += [goal_status(words, f"g{i + 2}", condition, **state) for i, state in enumerate(last)]
    write_lines(home / "claude" / "projects" / "-work-demo" / f"{SESSION}.jsonl", records)
    return records


def outcome(db_file: Path) -> tuple[str, str]:
    [(intent, result, rule)] = query(
        db_file, "SELECT intent_text, outcome, outcome_rule FROM episodes"
    )
    assert str(intent).startswith("/goal all tests in test/auth pass")
    return str(result), str(rule)


@pytest.mark.both_dbs
def test_a_goal_its_evaluator_judged_met_is_done(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    from sleepd.mining.mine import mine

    session(isolated_home, {"met": True})
    harvest(store, cfg)
    mine(store, cfg)

    assert outcome(db_file) == ("success", "done_claim")


@pytest.mark.parametrize(
    "last",
    [
        [],  # only the record of the goal set
        [{"met": False}],  # judged not met yet
        [{"met": True}, {"met": False, "sentinel": True}],  # met, then a new goal set
        [{"met": "true"}],  # not JSON true
    ],
    ids=["set-only", "not-met", "met-then-new-goal", "string"],
)
def test_a_goal_not_judged_met_claims_nothing(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, last: list[dict[str, Any]]
) -> None:
    from sleepd.mining.mine import mine

    session(isolated_home, *last)
    harvest(store, cfg)
    mine(store, cfg)

    assert outcome(db_file)[1] != "done_claim"


@pytest.mark.parametrize("met", [True, False])
def test_a_long_condition_quoting_the_records_words_is_read_by_its_keys(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, met: bool
) -> None:
    from sleepd.mining.mine import mine

    # the verdict's key after a condition near Claude Code's 4,000-character limit, which
    # itself quotes the record's keys
    long_condition = 'the report says "met": true and "sentinel": true; ' + "x" * 3_900
    session(isolated_home, {"met": met}, condition=long_condition)
    harvest(store, cfg)
    mine(store, cfg)
    assert (outcome(db_file)[1] == "done_claim") is met
