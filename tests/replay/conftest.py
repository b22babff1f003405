"""A real git repository with a real pytest suite, and the simulated agents on PATH."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import pytest

from sleepd.demo.fake_agents import install_fake_agents, write_playbook
from sleepd.demo.tools_world import BUGS, make_repository, playbook_rules


def tree_digest(root: Path) -> str:
    """A hash of every file (path, mode, bytes) under `root`, `.git` included."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        digest.update(str(path.relative_to(root)).encode())
        digest.update(oct(path.stat().st_mode).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@pytest.fixture
def ledger(tmp_path: Path) -> tuple[Path, str]:
    """The demo's `ledger` project with four bugs, committed; (repo, commit)."""
    repo = tmp_path / "work" / "ledger"
    repo.mkdir(parents=True)
    return repo, make_repository(repo, BUGS[:4])


@pytest.fixture
def agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fake claude/codex first on PATH, then this interpreter's scripts (its pytest)."""
    bin_dir = tmp_path / "bin"
    install_fake_agents(bin_dir)
    path = os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), os.environ["PATH"]])
    monkeypatch.setenv("PATH", path)
    log = tmp_path / "agent-log"
    monkeypatch.setenv("SLEEPD_FAKE_AGENT_LOG", str(log))
    playbook = write_playbook(tmp_path / "playbook.json", playbook_rules(BUGS))
    monkeypatch.setenv("SLEEPD_FAKE_AGENT_PLAYBOOK", str(playbook))
    return log
