"""A Codex thread where the person undid the agent's work: that is their verdict on it.

Codex's `/undo` put the working tree back as it was before the agent's latest turn and
wrote `undo_completed {"success": true, "message": "Undo restored snapshot …"}`; the
conversation keeps the turn, so read as written the agent's done claim stood and the
work the person threw away was a success.

These rollouts are constructed after codex-rs (its `UndoTask`, the `UndoCompleted`
event, persisted by the rollout policy); no labelled rollout holds an undo.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from codex_thread import answered, envelope, episodes, meta, mined, said
from e2e_support import query

REQUEST = "add a --json flag to the export command"
DONE = "Done: `export --json` now prints the records as JSON, and the tests pass."
OTHER = "write the changelog entry for release 0.4.2"


def undo(second: int, *, success: Any = True, message: str | None = None) -> dict[str, Any]:
    if message is None:
        message = "Undo restored snapshot 3f2a9c1." if success is True else "No snapshot."
    payload = {"type": "undo_completed", "success": success, "message": message}
    return envelope("event_msg", payload, second)


def thread_with(*after: dict[str, Any]) -> list[dict[str, Any]]:
    """The request answered with a done claim, then what the person did after it."""
    return [meta(), said(REQUEST, 10), *answered(DONE, 10), *after]


@pytest.mark.both_dbs
def test_work_the_person_undid_and_left_is_a_failure(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    records = thread_with(undo(30), said(OTHER, 40), *answered("Done: the 0.4.2 entry.", 40))
    mined(isolated_home, store, cfg, records)

    assert episodes(db_file) == [(REQUEST, "failure"), (OTHER, "success")]
    [(rule, evidence)] = query(
        db_file,
        "SELECT outcome_rule, outcome_event_ids FROM episodes WHERE intent_text = ?",
        (REQUEST,),
    )
    [(undo_id,)] = query(
        db_file, "SELECT id FROM events WHERE raw_type = 'event_msg:undo_completed'"
    )
    assert rule == "undone"
    assert str(undo_id) in str(evidence)


def test_an_undo_that_ends_the_session_is_the_last_verdict(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    mined(isolated_home, store, cfg, thread_with(undo(30)))

    assert episodes(db_file) == [(REQUEST, "failure")]


def test_work_done_again_after_an_undo_is_a_success_after_a_failed_attempt(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    again = "do it again, but keep csv as the default output"
    records = thread_with(
        undo(30), said(again, 40), *answered("Done: `--json` added; csv stays the default.", 40)
    )
    mined(isolated_home, store, cfg, records)

    # the second attempt was taken; the first was thrown away, so a replay of the
    # request reproduces a failure first (mixed, read as success by the labels)
    [(intent, outcome)] = episodes(db_file)
    assert intent == REQUEST
    assert outcome == "mixed"


@pytest.mark.parametrize(
    "record",
    [
        undo(30, success=False, message="No snapshot available to undo."),
        undo(30, success=False, message="Failed to restore snapshot 3f2a9c1: not a git repo"),
        undo(30, success="true"),
        undo(30, success=1),
        envelope("event_msg", {"type": "undo_completed"}, 30),
        envelope("event_msg", {"type": "undo_started", "message": "Undo in progress..."}, 30),
    ],
    ids=["no-snapshot", "restore-failed", "string-true", "number", "no-fields", "started"],
)
def test_an_undo_that_restored_nothing_leaves_the_work_standing(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, record: dict[str, Any]
) -> None:
    records = thread_with(record, said(OTHER, 40), *answered("Done: the 0.4.2 entry.", 40))
    mined(isolated_home, store, cfg, records)

    assert episodes(db_file) == [(REQUEST, "success"), (OTHER, "success")]
