"""Scratch checkouts: real git, nothing shared with the user's repository, no leftovers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sleepd.dream.checkout import (
    CheckoutError,
    CheckoutSource,
    create_checkout,
    objects_dir,
    place_document,
    sweep_stale,
)
from sleepd.paths import REPLAY_DIR_PREFIX

from .conftest import tree_digest


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()


def _commit(repo: Path, name: str, text: str) -> str:
    (repo / name).write_text(text)
    git(repo, "add", name)
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", text)
    return git(repo, "rev-parse", "HEAD")


def _feature_branch(tmp_path: Path) -> tuple[Path, str, str]:
    """A repository whose branch `soph/feature` left `main` at its second commit and made
    two of its own (c.txt, d.txt), checked out on `main`: the repository, the fork, the
    branch's commit."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    _commit(repo, "a.txt", "one")
    fork = _commit(repo, "b.txt", "two")
    git(repo, "checkout", "-q", "-b", "soph/feature")
    _commit(repo, "c.txt", "three")
    commit = _commit(repo, "d.txt", "four")
    git(repo, "checkout", "-q", "main")
    return repo, fork, commit


def test_a_checkout_is_on_the_sessions_branch_with_the_main_line_where_it_left(
    tmp_path: Path,
) -> None:
    """ "can you review the changes in this branch?" (the most frequent request of
    entireio/cli's history) reads `git diff main...HEAD`: the checkout is on the session's
    branch, with the main line as it stood where the branch left it, never past that point
    (the main line may hold the task's own work, merged later)."""
    repo, fork, commit = _feature_branch(tmp_path)
    _commit(repo, "e.txt", "the task's own fix, merged later")
    before = tree_digest(repo)
    root = tmp_path / "checkouts"
    with create_checkout(repo, commit, root=root, branch="soph/feature") as checkout:
        assert git(checkout.path, "symbolic-ref", "HEAD") == "refs/heads/soph/feature"
        assert git(checkout.path, "rev-parse", "HEAD") == commit
        refs = git(checkout.path, "for-each-ref", "--format=%(refname) %(objectname)")
        assert refs.splitlines() == [f"refs/heads/main {fork}", f"refs/heads/soph/feature {commit}"]
        assert git(checkout.path, "log", "--format=%s", "main..HEAD").splitlines() == [
            "four",
            "three",
        ]
        assert git(checkout.path, "diff", "--name-only", "main...HEAD").split() == [
            "c.txt",
            "d.txt",
        ]
    # on the main line itself, the branch is the main line
    with create_checkout(repo, fork, root=root, branch="main") as checkout:
        refs = git(checkout.path, "for-each-ref", "--format=%(refname) %(objectname)")
        assert refs == f"refs/heads/main {fork}"
    # a name git would read as an option or a range leaves the checkout detached
    for hostile in ("--upload-pack=touch /tmp/x", "a..b", "HEAD", "x y", "@{-1}", ""):
        with create_checkout(repo, commit, root=root, branch=hostile) as checkout:
            assert git(checkout.path, "for-each-ref") == ""
            assert git(checkout.path, "rev-parse", "HEAD") == commit
    assert tree_digest(repo) == before


def test_a_branch_merged_since_still_reads_its_own_changes(tmp_path: Path) -> None:
    """The task's branch was merged into the main line after the request, by a pull
    request's merge commit (entireio/cli and git-sync merge so): the main line now holds
    the branch's commit, so their merge base is that commit. The checkout's main line is
    where the branch left it, and "the changes in this branch" are still there to read."""
    repo, fork, commit = _feature_branch(tmp_path)
    _commit(repo, "e.txt", "main moved on")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "merge", "-q",
        "--no-ff", "-m", "Merge pull request #7 from o/soph/feature", "soph/feature")  # fmt: skip
    _commit(repo, "f.txt", "and on")
    root = tmp_path / "checkouts"
    with create_checkout(repo, commit, root=root, branch="soph/feature") as checkout:
        assert git(checkout.path, "rev-parse", "main") == fork
        assert git(checkout.path, "diff", "--name-only", "main...HEAD").split() == [
            "c.txt",
            "d.txt",
        ]
    # a commit on no line the main line has: its own history is all there is to name
    git(repo, "checkout", "-q", "--orphan", "elsewhere")
    alone = _commit(repo, "g.txt", "unrelated")
    with create_checkout(repo, alone, root=root, branch="elsewhere") as checkout:
        refs = git(checkout.path, "for-each-ref", "--format=%(refname)")
        assert refs == "refs/heads/elsewhere"


def test_a_checkout_is_at_the_commit_and_shares_no_refs_hooks_or_remotes(
    ledger: tuple[Path, str], tmp_path: Path
) -> None:
    repo, commit = ledger
    git(repo, "remote", "add", "origin", "https://example.invalid/ledger.git")
    hook = repo / ".git" / "hooks" / "post-checkout"
    hook.write_text('#!/bin/sh\ntouch "$HOME/hook-ran"\n')
    hook.chmod(0o755)
    (repo / "ledger" / "dirty.py").write_text("uncommitted = True\n")  # the user's work
    before = tree_digest(repo)
    root = tmp_path / "checkouts"
    with create_checkout(repo, commit, name="ledger", root=root) as checkout:
        assert REPLAY_DIR_PREFIX in str(checkout.path) and checkout.path.name == "ledger"
        assert oct(root.stat().st_mode & 0o777) == "0o700"
        assert git(checkout.path, "rev-parse", "HEAD") == commit
        assert git(checkout.path, "for-each-ref") == ""  # no refs at all
        assert git(checkout.path, "remote") == ""
        assert not any((checkout.path / ".git" / "hooks").glob("*"))
        assert not (checkout.path / "ledger" / "dirty.py").exists()
        assert git(checkout.path, "status", "--porcelain") == ""
        place_document(checkout, "AGENTS.md", "# new rules\n")
        (checkout.path / "ledger" / "total_price.py").write_text(
            "def total_price(i):\n    return 0\n"
        )
        changed, diff = checkout.changes({"AGENTS.md"})
        assert changed == ["ledger/total_price.py"] and "return 0" in diff
        with pytest.raises(CheckoutError):
            place_document(checkout, "../../escape.md", "x")
        path = checkout.path
        source = checkout.source
    # A night's next checkout of the same commit reuses what the first one resolved.
    assert source is not None and source.commit == commit
    with create_checkout(repo, "ignored", name="ledger", root=root, source=source) as again:
        assert git(again.path, "rev-parse", "HEAD") == commit
        assert git(again.path, "status", "--porcelain") == ""
        assert not (again.path / "ledger" / "dirty.py").exists()
        path_again = again.path
    assert not path.exists() and not path_again.exists() and list(root.iterdir()) == []
    assert tree_digest(repo) == before  # the user's tree and .git, byte for byte
    assert not (Path.home() / "hook-ran").exists()


def test_a_missing_commit_is_one_clear_error_and_leaves_nothing(
    ledger: tuple[Path, str], tmp_path: Path
) -> None:
    repo, _ = ledger
    root = tmp_path / "checkouts"
    with pytest.raises(CheckoutError, match="rev-parse"):
        create_checkout(repo, "0" * 40, root=root)
    assert list(root.iterdir()) == []
    with pytest.raises(CheckoutError):
        create_checkout(tmp_path / "not-a-repo", "0" * 40, root=root)
    gone = CheckoutSource(objects_dir(repo), "1" * 40)  # e.g. pruned since it was resolved
    with pytest.raises(CheckoutError, match="update-ref"):
        create_checkout(repo, "1" * 40, root=root, source=gone)
    assert list(root.iterdir()) == []


HOLDER = """
import sys, time
from pathlib import Path
from sleepd.dream.checkout import create_checkout
checkout = create_checkout(sys.argv[1], sys.argv[2], root=Path(sys.argv[3]))
Path(sys.argv[4]).write_text(str(checkout.path))
while True:
    time.sleep(1)
"""


def test_a_checkout_of_a_killed_process_is_removed_at_the_next_start(
    ledger: tuple[Path, str], tmp_path: Path
) -> None:
    repo, commit = ledger
    root = tmp_path / "checkouts"
    ready = tmp_path / "ready"
    live = create_checkout(repo, commit, root=root)  # this process's own, still in use
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(repo), commit, str(root), str(ready)]
    )
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert proc.poll() is None, "the holder died"
            assert time.monotonic() < deadline, "the holder never made its checkout"
            time.sleep(0.02)
        orphan = Path(ready.read_text())
        assert orphan.is_dir()
        assert sweep_stale(root) == 0  # both owners alive: nothing removed
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert sweep_stale(root) == 1
    assert not orphan.exists() and live.path.exists()
    live.remove()
    assert list(root.iterdir()) == []
