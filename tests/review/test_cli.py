"""Script commands through the real CLI: exit codes, JSON, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from sleepd.errors import ExitCode
from sleepd.store.engine import write_session
from sleepd.store.models import Night

from .conftest import SKILL_V1, CliFn, StageFn, run_cli

NEW = SKILL_V1.replace("Run the tests first.", "Run `make test` first.")
HAND = SKILL_V1.replace("Never push on Fridays.", "Never push on Fridays or holidays.")


@pytest.mark.both_dbs
def test_list_show_and_unknown_ids(
    engine: Engine, stage: StageFn, skill_path: Path, cli: CliFn
) -> None:
    staged = stage(skill_path, NEW, simulated=True)
    listed = cli("review", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert [(r["id"], r["status"], r["simulated"]) for r in rows] == [
        (staged.proposal_id, "pending", True)
    ]
    shown = cli("review", "show", str(staged.proposal_id), "--json")
    assert json.loads(shown.stdout)["diff"].count("+Run `make test` first.") == 1
    for args in (("show", "999"), ("accept", "999"), ("reject", "999")):
        missing = cli("review", *args)
        assert missing.returncode == ExitCode.NOT_FOUND, args
        assert missing.stderr.count("\n") == 1 and "#999" in missing.stderr


def test_accept_conflict_then_merge_with_yes_merge(
    engine: Engine, stage: StageFn, skill_path: Path, cli: CliFn
) -> None:
    staged = stage(skill_path, NEW)
    skill_path.write_text(HAND)
    refused = cli("review", "accept", str(staged.proposal_id))
    assert refused.returncode == ExitCode.CONFLICT
    assert "--yes-merge" in refused.stderr
    assert "+Run `make test` first." in refused.stdout  # the merge is shown
    assert skill_path.read_text() == HAND
    merged = cli("review", "accept", str(staged.proposal_id), "--yes-merge")
    assert merged.returncode == 0, merged.stderr
    assert "make test" in skill_path.read_text() and "holidays" in skill_path.read_text()
    again = cli("review", "reject", str(staged.proposal_id))
    assert again.returncode == ExitCode.CONFLICT and "accepted" in again.stderr


def test_overlapping_accept_exits_conflict(
    engine: Engine, stage: StageFn, skill_path: Path, cli: CliFn
) -> None:
    staged = stage(skill_path, NEW)
    skill_path.write_text(SKILL_V1.replace("Run the tests first.", "Run lint first."))
    refused = cli("review", "accept", str(staged.proposal_id), "--yes-merge")
    assert refused.returncode == ExitCode.CONFLICT and "overlap" in refused.stderr


def test_interactive_review_without_a_terminal_is_refused(engine: Engine) -> None:
    result = run_cli("review")
    assert result.returncode == ExitCode.NO_TTY
    assert "review list" in result.stderr


def test_rollback_history_verify_round_trip(
    engine: Engine, stage: StageFn, skill_path: Path, cli: CliFn
) -> None:
    staged = stage(skill_path, NEW)
    assert cli("review", "accept", str(staged.proposal_id)).returncode == 0
    history = json.loads(cli("history", "--json").stdout)
    assert [(h["origin"], h["current"]) for h in history] == [
        ("adopted", True),
        ("observed", False),
    ]
    assert cli("verify").returncode == 0
    skill_path.write_text(NEW + "hand edit\n")
    changed = cli("verify", "--json")
    assert changed.returncode == ExitCode.CHECK_FAILED
    assert [c["status"] for c in json.loads(changed.stdout)] == ["changed"]
    unconfirmed = cli("rollback")
    assert unconfirmed.returncode == ExitCode.NO_TTY
    assert skill_path.read_text() == NEW + "hand edit\n"
    rolled = cli("rollback", "--yes")
    assert rolled.returncode == 0, rolled.stderr
    assert skill_path.read_text() == SKILL_V1


def test_rollback_removes_a_skill_the_adoption_created(
    engine: Engine, stage: StageFn, project: Path, cli: CliFn
) -> None:
    path = project / ".claude" / "skills" / "sleepd-learned" / "SKILL.md"
    staged = stage(path, "---\nname: sleepd-learned\ndescription: Learned.\n---\n\nHi.\n", base="")
    assert cli("review", "accept", str(staged.proposal_id)).returncode == 0
    assert path.exists()
    rolled = cli("rollback", "--yes")
    assert rolled.returncode == 0, rolled.stderr
    assert not path.exists()
    assert "removed" in rolled.stderr and "before sleepd created it" in rolled.stderr
    assert cli("verify").returncode == 0


def test_nights_jsonl_lines_parse(engine: Engine, cli: CliFn) -> None:
    with write_session(engine) as db:
        db.add_all([Night(tasks_replayed=4, simulated=True), Night(tasks_replayed=7)])
    result = cli("nights", "--jsonl")
    lines = result.stdout.splitlines()
    assert [json.loads(line)["tasks_replayed"] for line in lines] == [4, 7]
    assert json.loads(lines[0])["simulated"] is True
    both = cli("nights", "--json", "--jsonl")
    assert both.returncode == ExitCode.USAGE
