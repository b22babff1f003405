"""A real `sleepd review accept` / `sleepd rollback` process killed by SIGKILL at every step of
the write ends consistent after the next command: either nothing happened, or the whole
adoption (rollback) is on disk AND recorded, with its backup; no temp file, no intent
left; `verify` agrees with the file; a rollback after a recovered adoption restores."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd import crashpoint
from sleepd.cli.app import run
from sleepd.paths import home_dir
from sleepd.store.engine import read_session
from sleepd.store.models import AuditEntry, DocumentVersion, Proposal, TargetDocument

from .conftest import SKILL_V1, CliFn, StageFn

NEW = SKILL_V1.replace("Run the tests first.", "Run `make test` first; it must pass.")

ADOPT_STEPS = [
    "adopt:backed-up",
    "adopt:intent-written",
    "write:temp-written",
    "write:renamed",
    "adopt:file-written",
    "adopt:recorded",
    "adopt:committed",
]
ROLLBACK_STEPS = [
    "rollback:backed-up",
    "rollback:intent-written",
    "write:temp-written",
    "write:renamed",
    "rollback:file-written",
    "rollback:recorded",
    "rollback:committed",
]
#: From here on the new file is in place: the outcome must be the recorded adoption.
WRITTEN_FROM = ADOPT_STEPS.index("write:renamed")


def _killed_at(step: str, output: Path, *args: str) -> None:
    """`sleepd ARGS` in a child process that dies by SIGKILL at `step` (sleepd.crashpoint).

    The child is forked from this process, with sleepd already imported, rather than a
    fresh interpreter: it is still a real process death, with no cleanup, no finally
    blocks and its files and database connections cut off, minus a second of start-up.
    """
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest, whatever happens
        code = 70
        try:
            fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # stdin is never a terminal
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            sys.stdin = open(0, closefd=False)  # noqa: SIM115
            sys.stdout = sys.stderr = open(fd, "w", closefd=False)  # noqa: SIM115
            os.environ[crashpoint.ENV] = step
            code = run(list(args))
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert killed, (step, status, output.read_text(errors="replace")[-2000:])


def _leftovers(directory: Path) -> list[str]:
    entries = list(directory.iterdir()) if directory.exists() else []
    temps = [p.name for p in entries if p.name.endswith(".tmp")]
    intents = home_dir() / "intents"
    if intents.exists():
        temps += [p.name for p in intents.iterdir()]
    return temps


def _adoption_state(engine: Engine, proposal_id: int) -> tuple[str, list[dict[str, object]]]:
    with read_session(engine) as db:
        proposal = db.get(Proposal, proposal_id)
        assert proposal is not None
        audits = [
            a.detail
            for a in db.scalars(select(AuditEntry).where(AuditEntry.action == "adopt")).all()
        ]
        return proposal.status, audits


def _version_text(engine: Engine, version_id: object) -> str | None:
    if version_id is None:
        return None
    with read_session(engine) as db:
        version = db.get(DocumentVersion, version_id)
        return None if version is None else version.content


@pytest.mark.parametrize("new_file", [False, True], ids=["existing", "created"])
@pytest.mark.parametrize("step", ADOPT_STEPS)
def test_adoption_killed_at_each_step_is_consistent(
    step: str,
    new_file: bool,
    engine: Engine,
    stage: StageFn,
    skill_path: Path,
    project: Path,
    cli: CliFn,
    tmp_path: Path,
) -> None:
    path = skill_path
    before: str | None = SKILL_V1
    if new_file:
        path = project / ".claude" / "skills" / "fresh" / "SKILL.md"
        before = None
    staged = stage(path, NEW)
    _killed_at(step, tmp_path / "killed.out", "review", "accept", str(staged.proposal_id))

    after = cli("verify")  # the next command, whatever it is, settles the write
    assert "Traceback" not in after.stderr
    assert _leftovers(path.parent) == []
    status, audits = _adoption_state(engine, staged.proposal_id)
    on_disk = path.read_text() if path.exists() else None
    if ADOPT_STEPS.index(step) >= WRITTEN_FROM:
        assert on_disk == NEW
    if on_disk == NEW:
        assert status == "accepted", step
        [detail] = audits
        assert _version_text(engine, detail["backup_version_id"]) == before
        assert _version_text(engine, detail["adopted_version_id"]) == NEW
        assert after.returncode == 0, after.stderr  # verify: the file is what was recorded
        rolled = cli("rollback", "--yes")
        assert rolled.returncode == 0, rolled.stderr
        assert (path.read_text() if path.exists() else None) == before
    else:
        assert on_disk == before, step
        assert status == "pending" and audits == []
        again = cli("review", "accept", str(staged.proposal_id))
        assert again.returncode == 0, again.stderr
        assert path.read_text() == NEW


@pytest.mark.parametrize("step", ROLLBACK_STEPS)
def test_rollback_killed_at_each_step_is_consistent(
    step: str, engine: Engine, stage: StageFn, skill_path: Path, cli: CliFn, tmp_path: Path
) -> None:
    staged = stage(skill_path, NEW)
    assert cli("review", "accept", str(staged.proposal_id)).returncode == 0
    _killed_at(step, tmp_path / "killed.out", "rollback", "--yes")

    after = cli("verify")
    assert "Traceback" not in after.stderr
    assert _leftovers(skill_path.parent) == []
    on_disk = skill_path.read_text()
    with read_session(engine) as db:
        rollbacks = db.scalars(select(AuditEntry).where(AuditEntry.action == "rollback")).all()
        document = db.scalars(select(TargetDocument)).one()
        reference = db.get(DocumentVersion, document.last_adopted_version_id)
        assert reference is not None
        reference_text = reference.content
    if ROLLBACK_STEPS.index(step) >= ROLLBACK_STEPS.index("write:renamed"):
        assert on_disk == SKILL_V1
    if on_disk == SKILL_V1:
        assert len(rollbacks) == 1 and reference_text == SKILL_V1, step
    else:
        assert on_disk == NEW and rollbacks == [] and reference_text == NEW, step
    assert after.returncode == 0, after.stderr  # verify agrees with the file either way
