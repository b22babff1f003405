"""Which repository a project directory holds: its root commit, not its path.

Many machines share one team database. A proposal names its document by path, and the
same path on another machine may hold nothing, or another repository altogether; a
document is written only where the project exists and is the same repository (the
same first commit) as when the night that staged it looked at it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

GIT_TIMEOUT_S = 10
#: Read-only git with hooks and fsmonitor off (as the miner's calls on user repositories).
_SAFE_GIT = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "--no-pager")


def repo_identity(project: str | Path) -> str | None:
    """The project's root commit (the smallest if history was joined), or None when the
    directory is missing, not a git repository, has no commit, or git cannot run."""
    if not Path(project).is_dir():
        return None
    try:
        done = subprocess.run(
            ["git", *_SAFE_GIT, "rev-list", "--max-parents=0", "HEAD"],
            cwd=str(project),
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"},
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    roots = sorted(line.strip() for line in done.stdout.splitlines() if line.strip())
    return roots[0] if done.returncode == 0 and roots else None


def not_here_reason(project: str, recorded: str | None) -> str | None:
    """Why this machine must not write into `project`, or None when it may.

    Without a recorded identity (no repository when the proposal was staged) the
    project directory existing is all there is to check.
    """
    if not Path(project).is_dir():
        return f"the project {project} is not on this machine"
    if recorded is None:
        return None
    here = repo_identity(project)
    if here != recorded:
        return f"{project} on this machine is not the repository the proposal was made for"
    return None
