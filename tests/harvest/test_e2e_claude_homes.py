"""Every place Claude Code has kept its sessions is harvested by default.

Some Claude Code 1.0 builds wrote their sessions under `~/.config/claude/projects` (the
XDG place; shipped and then taken back), the others under `~/.claude/projects`: a
history that lived through those builds is split between the two, and both are read.
`$CLAUDE_CONFIG_DIR`, when set, is the one place Claude Code itself reads, and so the
one place harvested.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sleepd import paths
from sleepd.cli.app import app
from tests.conftest import CORPUS_DIR

#: Two small real sessions (sources and licences: tests/fixtures/real_sessions/SOURCES.md).
FIRST = (
    CORPUS_DIR
    / "claude"
    / "handgemacht-ai__claude-code-log__4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl"
)
SECOND = CORPUS_DIR / "claude" / "handgemacht-ai__claude-code-log__agent-3430b97e.jsonl"


def _put(session: Path, projects: Path) -> None:
    folder = projects / "-home-dev-app"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(session, folder / session.name.split("__")[-1])


def _harvested_files() -> Any:
    result = CliRunner().invoke(app, ["harvest", "--source", "claude", "--json"])
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return json.loads(result.stdout)["files_scanned"]


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "user"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return home


def test_both_default_places_are_harvested(user_home: Path) -> None:
    _put(FIRST, user_home / ".claude" / "projects")
    _put(SECOND, user_home / ".config" / "claude" / "projects")
    assert _harvested_files() == 2


def test_the_xdg_place_follows_xdg_config_home(
    user_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    _put(FIRST, user_home / ".config" / "claude" / "projects")  # not the XDG place now
    _put(SECOND, tmp_path / "xdg" / "claude" / "projects")
    assert _harvested_files() == 1


def test_claude_config_dir_is_the_one_place_when_set(
    user_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "chosen"))
    _put(FIRST, tmp_path / "chosen" / "projects")
    _put(SECOND, user_home / ".config" / "claude" / "projects")
    _put(SECOND, user_home / ".claude" / "projects")
    assert _harvested_files() == 1


def test_a_missing_place_is_no_error(user_home: Path) -> None:
    _put(FIRST, user_home / ".claude" / "projects")  # and no ~/.config at all
    assert _harvested_files() == 1


def test_a_place_that_links_to_the_other_is_read_once(user_home: Path) -> None:
    """`~/.config/claude` made a link to `~/.claude` (a common way to keep one history
    across the builds): every file would otherwise be read, and kept, under two names
    (a review's probe)."""
    _put(FIRST, user_home / ".claude" / "projects")
    (user_home / ".config").mkdir(parents=True)
    (user_home / ".config" / "claude").symlink_to(user_home / ".claude")
    assert _harvested_files() == 1
    assert paths.claude_projects_dirs() == [user_home / ".claude" / "projects"]
