"""Scratch checkouts for tools-mode replay: one per rollout, never the user's tree.

A checkout is a fresh repository (`git init` with no templates, so no hooks) whose
object store borrows the user's objects read-only through `objects/info/alternates`,
with HEAD at the episode's commit and the work tree filled by `read-tree`: on the
session's branch, with the main line as it was where the branch left it, when the
session named its branch (`name_the_branch`), else detached. It has no other refs, no
remotes, no hooks and no config of the user's repository; nothing is ever written to
the user's repository or work tree (git never writes through an alternate).

Checkouts live in `SLEEPD_HOME/replay-checkouts/` (0700). Each holds an exclusive
`flock` on a lock file created before its directory and removed after it, so
`sweep_stale` (called when a night starts) removes exactly the checkouts whose
process died: a lock it can take belongs to nobody, and a directory without a lock
file was orphaned by a kill between the two steps.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path, PurePath

from sleepd import paths
from sleepd.errors import SleepdError
from sleepd.mining.replay_site import git, main_line, run_git, safe_branch

CHECKOUTS_DIRNAME = "replay-checkouts"
GIT_TIMEOUT_S = 120.0
_LOCK_SUFFIX = ".lock"
#: A directory without a lock file younger than this may be a checkout being made.
_ORPHAN_MIN_AGE_S = 60.0


class CheckoutError(SleepdError):
    """A scratch checkout could not be made (missing commit, git failure, full disk)."""


def checkouts_root() -> Path:
    return paths.ensure_private_dir(paths.home_dir(create=True) / CHECKOUTS_DIRNAME)


def _git(args: list[str], cwd: Path) -> str:
    try:
        done = run_git(args, cwd, GIT_TIMEOUT_S, _env())
    except (OSError, subprocess.SubprocessError) as exc:
        raise CheckoutError(f"git {args[0]} failed: {exc}") from None
    if done.returncode != 0:
        line = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise CheckoutError(f"git {args[0]} failed: {line[:300]}")
    return done.stdout


def _git_answer(args: list[str], cwd: Path) -> str | None:
    """stdout of a git question whose "no" is an exit status ("no merge base"), or None."""
    out = git(args, cwd, GIT_TIMEOUT_S, _env())
    return out.strip() if out is not None else None


def _env() -> dict[str, str]:
    """The caller's environment without what would point git at another repository."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env


def objects_dir(repo_root: str | Path) -> Path:
    """The user's object store (the common one, for a linked worktree)."""
    common = _git(["rev-parse", "--git-common-dir"], Path(repo_root)).strip()
    path = Path(common)
    if not path.is_absolute():
        path = Path(repo_root) / path
    return (path / "objects").resolve()


@dataclass
class Checkout:
    """A work tree at one commit; `remove()` deletes it (idempotent)."""

    holder: Path
    path: Path
    commit: str
    _lock_fd: int | None
    source: CheckoutSource | None = None

    def remove(self) -> None:
        shutil.rmtree(self.holder, ignore_errors=True)
        lock = self.holder.with_name(self.holder.name + _LOCK_SUFFIX)
        with contextlib.suppress(FileNotFoundError):
            lock.unlink()
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Checkout:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def changes(self, ignore: set[str], max_chars: int = 60_000) -> tuple[list[str], str]:
        """The paths changed, added or deleted against the commit, and their diff (the
        document excluded from both; the diff cut at `max_chars` for storage)."""
        _git(["add", "-A", "--", "."], self.path)
        names = _git(["diff", "--cached", "--name-only", "--no-renames", self.commit], self.path)
        excludes = [f":(exclude){p}" for p in sorted(ignore)]
        out = _git(["diff", "--cached", "--no-color", self.commit, "--", ".", *excludes], self.path)
        changed = [p for p in names.splitlines() if p and p not in ignore]
        diff = out if len(out) <= max_chars else out[:max_chars] + "\n[diff cut for storage]\n"
        return changed, diff


@dataclass(frozen=True)
class CheckoutSource:
    """Where checkouts of one commit come from: the user's object store and the commit as
    resolved there. Resolved by the first checkout; a night passes it to the next ones
    of the same commit so they skip the look-ups."""

    objects: Path
    commit: str


def create_checkout(
    repo_root: str | Path,
    commit: str,
    *,
    name: str = "project",
    root: Path | None = None,
    source: CheckoutSource | None = None,
    branch: str | None = None,
) -> Checkout:
    """A scratch work tree of `repo_root` at `commit`, sharing nothing writable with it.

    `source` is an earlier checkout's `source` for the same repository and commit.
    `branch`: the session's branch, which the checkout is then on (`name_the_branch`)."""
    base = paths.ensure_private_dir(root) if root is not None else checkouts_root()
    token = f"{paths.REPLAY_DIR_PREFIX}{os.getpid()}-{secrets.token_hex(6)}"
    lock_path = base / (token + _LOCK_SUFFIX)
    fd = os.open(lock_path, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    holder = base / token
    safe_name = PurePath(name).name.strip(". ") or "project"
    checkout = Checkout(holder, holder / safe_name, commit, fd)
    try:
        holder.mkdir(mode=0o700)
        objects = source.objects if source is not None else objects_dir(repo_root)
        _git(["init", "-q", "--template=", str(checkout.path)], holder)
        alternates = checkout.path / ".git" / "objects" / "info"
        alternates.mkdir(parents=True, exist_ok=True)
        (alternates / "alternates").write_text(f"{objects}\n", encoding="utf-8")
        if source is not None:
            resolved = source.commit
        else:
            resolved = _git(
                ["rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"], checkout.path
            ).strip()
        # update-ref refuses an object the store does not hold, and read-tree a non-tree.
        _git(["update-ref", "--no-deref", "HEAD", resolved], checkout.path)
        _git(["read-tree", "--reset", "-u", "HEAD"], checkout.path)
        if branch:
            with contextlib.suppress(CheckoutError):
                name_the_branch(checkout.path, repo_root, resolved, branch)
    except (CheckoutError, OSError) as exc:
        checkout.remove()
        if isinstance(exc, CheckoutError):
            raise
        raise CheckoutError(f"cannot make a scratch checkout: {exc}") from None
    checkout.source = CheckoutSource(objects, resolved)
    return checkout


def name_the_branch(path: Path, repo_root: str | Path, commit: str, branch: str) -> None:
    """Put the checkout at `path` on the session's branch at `commit`, and give it the
    repository's main line as it was where the branch left it (`_where_it_left`), so a
    request about "the changes in this branch" reads as it did (`git diff main...HEAD`,
    `git log main..`). Nothing of the main line past that point is named: it may hold
    this very task's work, merged later. A name git would take for an option or a range,
    and a repository whose main line cannot be told, leave the checkout as it was
    (detached, or on the branch alone); a git failure raises `CheckoutError`."""
    if not safe_branch(branch) or branch == "HEAD":
        return
    _git(["check-ref-format", "--branch", branch], path)
    main = main_line(repo_root)
    _git(["update-ref", f"refs/heads/{branch}", commit], path)
    if main is not None and main[0] != branch:
        name, tip = main
        fork = _where_it_left(path, tip, commit)
        if fork:
            _git(["update-ref", f"refs/heads/{name}", fork], path)
    _git(["symbolic-ref", "HEAD", f"refs/heads/{branch}"], path)


def _where_it_left(path: Path, tip: str, commit: str) -> str | None:
    """The main line's newest commit of its own that `commit` holds: where the branch left
    it. Not their merge base, which a branch merged since (a pull request's merge commit)
    makes the branch's own commit, leaving no change of the branch's to read: the main
    line's first-parent chain is walked down to the first commit the branch holds. None
    for histories that share none."""
    ahead = _git_answer(["rev-list", "--first-parent", tip, f"^{commit}", "--"], path)
    if ahead is None:
        return None
    walked = ahead.split()
    if not walked:
        return tip  # the branch holds the whole main line
    return _git_answer(["rev-parse", "--verify", "--quiet", f"{walked[-1]}^1"], path)


def place_document(checkout: Checkout, relative: str, content: str) -> Path:
    """Write the candidate document where the agent reads it (inside the checkout only)."""
    target = (checkout.path / relative).resolve()
    if checkout.path.resolve() not in target.parents:
        raise CheckoutError(f"document path {relative!r} leaves the checkout")
    from sleepd.backends.outbound import scrub_text

    target.parent.mkdir(parents=True, exist_ok=True)
    # The agent sends what it reads to its model: the document passes the chokepoint.
    target.write_text(scrub_text(content), encoding="utf-8")
    return target


def sweep_stale(root: Path | None = None) -> int:
    """Remove checkouts whose process died; returns how many were removed."""
    base = root if root is not None else paths.home_dir() / CHECKOUTS_DIRNAME
    if not base.is_dir():
        return 0
    removed = 0
    entries = sorted(base.iterdir())
    locks = {e.name[: -len(_LOCK_SUFFIX)]: e for e in entries if e.name.endswith(_LOCK_SUFFIX)}
    for entry in entries:
        if entry.name.endswith(_LOCK_SUFFIX):
            continue
        lock = locks.get(entry.name)
        if lock is not None and not _lock_is_free(lock):
            continue  # a live process still owns it
        if lock is None and _age_s(entry) < _ORPHAN_MIN_AGE_S:
            continue  # its lock may be about to appear (creation is lock first)
        shutil.rmtree(entry, ignore_errors=True)
        if lock is not None:
            with contextlib.suppress(FileNotFoundError):
                lock.unlink()
        removed += 1
    for name, lock in locks.items():
        if not (base / name).exists() and _age_s(lock) >= _ORPHAN_MIN_AGE_S and _lock_is_free(lock):
            with contextlib.suppress(FileNotFoundError):
                lock.unlink()
    return removed


def _age_s(path: Path) -> float:
    try:
        return time.time() - path.lstat().st_mtime
    except OSError:
        return float("inf")


def _lock_is_free(lock: Path) -> bool:
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    else:
        return True
    finally:
        os.close(fd)
