"""Real git repositories and worktrees made by the tests (no network, no user config)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(cwd: Path, *args: str) -> None:
    """Run git in `cwd` with a throwaway identity; fails the test when git fails."""
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def repo_with_commit(main: Path, files: dict[str, str] | None = None) -> Path:
    """A repository at `main` on branch main with one commit of `files` (a README)."""
    for name, text in (files or {"README.md": "app\n"}).items():
        (main / name).parent.mkdir(parents=True, exist_ok=True)
        (main / name).write_text(text)
    git(main, "init", "-q", "-b", "main")
    git(main, "add", ".")
    git(main, "commit", "-q", "-m", "first")
    return main
