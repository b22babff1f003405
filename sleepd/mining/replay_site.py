"""Where a mined task can be replayed with tools: repository root, commit, test commands.

Recorded at mining time for each new task (`record_replay_sites`, one call from the task
step). The commit is the one the episode started from: Codex writes the session's in its
metadata, and a later episode takes what the branch's reflog shows the session committed
before it; for Claude Code it is resolved from the local repository, when it still
exists, as what the session's work tree held at the episode's start (`commit_at`: HEAD's
reflog, the branch's, the branch's newest commit by then, and for a branch deleted
since, the merge that took it in or the main line). Test commands are the ones the agent
or the user actually ran in the session, parsed into argv without a shell: a transcript
is hostile input, and a command that needs a shell (substitutions, variables, globs, a
pipe into another program) is not kept; what only shapes a test run's output (`2>&1`, `|
tail -20`) is left out of the command kept. A per-project override in the config
(`[replay.projects."<path>"]`) is applied when the night loads the site, so changing it
needs no re-mining.

Every git call on the user's repository is read-only and runs with hooks and
fsmonitor turned off, so a repository's own configuration cannot run code here.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session as DbSession

from sleepd.mining.errors.shell import OUTPUT_FILTERS, read_shell_words, without_comments
from sleepd.mining.signatures import is_shell_tool
from sleepd.mining.tasks import full_command
from sleepd.mining.test_report import parse_test_output
from sleepd.store.fastread import as_utc
from sleepd.store.models import Episode, Event, Session, Task, TaskReplaySite

GIT_TIMEOUT_S = 10.0
MAX_TEST_COMMANDS = 3
MAX_COMMAND_CHARS = 300
#: Flags that make every git call on a user's repository inert: no hooks, no fsmonitor
#: daemon command, no pager, no prompts.
SAFE_GIT = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "--no-pager")
_SHA = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")
#: Characters that only a shell gives meaning to, in a word of the command kept (a
#: variable, a substitution, a glob, a home folder); such a command is never kept.
_SHELL_ONLY = re.compile(r"[`$*?!~{}\\\n\r]")
_ENV_ASSIGN = re.compile(r"^([A-Z_][A-Z0-9_]{0,63})=(.{0,200})$")
_UNSAFE_ENV = re.compile(r"^(?:PATH|HOME|LD_\w*|DYLD_\w*|PYTHONSTARTUP|BASH_ENV|ENV|GIT_\w*)$")
#: Runner prefixes that keep the test command what it is.
_RUNNERS = (("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("hatch", "run"), ("pdm", "run"))
_TEST_HEADS: tuple[tuple[str, ...], ...] = (
    ("pytest",),
    ("py.test",),
    ("python", "-m", "pytest"),
    ("python3", "-m", "pytest"),
    ("python", "-m", "unittest"),
    ("python3", "-m", "unittest"),
    ("tox",),
    ("nox",),
    ("npm", "test"),
    ("npm", "run", "test"),
    ("npm", "t"),
    ("pnpm", "test"),
    ("pnpm", "run", "test"),
    ("yarn", "test"),
    ("yarn", "run", "test"),
    ("bun", "test"),
    ("npx", "jest"),
    ("npx", "vitest"),
    ("pnpm", "vitest"),
    ("pnpm", "exec", "vitest"),
    ("yarn", "vitest"),
    ("bunx", "vitest"),
    ("pnpm", "jest"),
    ("yarn", "jest"),
    ("jest",),
    ("vitest",),
    ("go", "test"),
    ("cargo", "test"),
    ("cargo", "nextest", "run"),
    ("make", "test"),
    ("make", "check"),
    ("just", "test"),
    ("mvn", "test"),
    ("gradle", "test"),
    ("./gradlew", "test"),
    ("rspec",),
    ("bundle", "exec", "rspec"),
    ("dotnet", "test"),
    ("ctest",),
    ("phpunit",),
    ("mix", "test"),
)
#: Task runners that run a project's named task, and the task's name for a test run:
#: `test` or a test task of a kind (`mise run test:ci`, `bun run test:unit`, `make
#: test-integration`, `task test_e2e`): how entireio/cli's history runs its tests (`mise
#: run test`) and PackmindHub/context-evaluator's (`bun run test`), where no command of
#: the heads above ran and their tasks had no test command to replay with.
_TASK_RUNNERS: tuple[tuple[str, ...], ...] = (
    ("mise", "run"),
    ("mise", "r"),
    ("npm", "run"),
    ("pnpm", "run"),
    ("pnpm",),
    ("yarn", "run"),
    ("yarn",),
    ("bun", "run"),
    ("task",),
    ("just",),
    ("make",),
)
_TEST_TASK = re.compile(r"^test(?:[:_-][\w:.-]+)?$")


@dataclass(frozen=True)
class TestCommand:
    """A test command as argv, the directory it ran in (relative to the root), its env."""

    __test__ = False

    argv: tuple[str, ...]
    cwd: str = "."
    env: tuple[tuple[str, str], ...] = ()

    @property
    def text(self) -> str:
        prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env)
        body = shlex.join(self.argv)
        where = "" if self.cwd == "." else f"(in {self.cwd}) "
        return f"{where}{prefix + ' ' if prefix else ''}{body}"

    def to_dict(self) -> dict[str, Any]:
        return {"argv": list(self.argv), "cwd": self.cwd, "env": dict(self.env)}

    @classmethod
    def from_dict(cls, data: Any) -> TestCommand | None:
        if not isinstance(data, dict):
            return None
        argv = data.get("argv")
        if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
            return None
        cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else "."
        raw_env = data.get("env")
        env: dict[Any, Any] = raw_env if isinstance(raw_env, dict) else {}
        if not _safe_relative(str(cwd)):
            return None
        pairs = tuple((str(k), str(v)) for k, v in env.items() if _ENV_ASSIGN.match(f"{k}={v}"))
        return cls(tuple(argv), str(cwd), pairs)


@dataclass
class ReplaySiteDraft:
    repo_root: str | None = None
    commit: str | None = None
    commit_source: str = ""
    #: the branch HEAD was on at the episode's start, when it is not the session's
    branch: str | None = None
    test_commands: list[TestCommand] = field(default_factory=list)
    failing_tests: list[str] = field(default_factory=list)
    agent: str | None = None
    problem: str | None = None


def _safe_relative(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return not path.startswith("/") and ".." not in parts and "\x00" not in path


def _is_test_head(tokens: Sequence[str]) -> bool:
    for runner in _RUNNERS:
        if tuple(tokens[: len(runner)]) == runner:
            tokens = tokens[len(runner) :]
            break
    if not tokens:
        return False
    first = PurePosixPath(tokens[0]).name if "/" in tokens[0] else tokens[0]
    normalized = (first, *tokens[1:]) if tokens[0] != "./gradlew" else tuple(tokens)
    if any(tuple(normalized[: len(head)]) == head for head in _TEST_HEADS):
        return True
    return any(
        tuple(normalized[: len(runner)]) == runner
        and len(normalized) > len(runner)
        and _TEST_TASK.match(normalized[len(runner)]) is not None
        for runner in _TASK_RUNNERS
    )


def parse_test_command(command: str, *, session_cwd: str, repo_root: str) -> TestCommand | None:
    """The test command in one shell command line, or None.

    `cd DIR && pytest -q` keeps DIR (when it lies inside the repository); env assignments
    in front are kept unless they could change what runs (PATH, LD_*, …). Anything else
    around the test command, and any command a shell would have to interpret, is refused.
    """
    if not command or len(command) > MAX_COMMAND_CHARS * 4:
        return None
    cwd = Path(session_cwd)
    # a comment is no command, though it may name one ("# then: cd web && pytest -q")
    segments = [
        s.strip() for s in re.split(r"&&|;|\|\||\n", without_comments(command)) if s.strip()
    ]
    for segment in segments:
        words = _command_words(segment)
        if words is None:
            if segment.split(None, 1)[0] == "cd":
                return None  # where the tests ran can no longer be told
            continue  # a step a shell would have to run is never the test command
        tokens = words
        if len(tokens) >= 2 and tokens[0] == "cd":
            target = Path(tokens[1]) if tokens[1].startswith("/") else cwd / tokens[1]
            cwd = Path(os.path.normpath(target))
            continue
        env: list[tuple[str, str]] = []
        while tokens and (match := _ENV_ASSIGN.match(tokens[0])):
            if _UNSAFE_ENV.match(match.group(1)):
                return None
            env.append((match.group(1), match.group(2)))
            tokens = tokens[1:]
        if not tokens or not _is_test_head(tokens):
            continue
        if len(segment) > MAX_COMMAND_CHARS or any(_SHELL_ONLY.search(t) for t in tokens):
            return None
        try:
            relative = os.path.relpath(cwd, repo_root)
        except ValueError:
            return None
        if not _safe_relative(relative):
            return None
        return TestCommand(tuple(tokens), relative, tuple(env))
    return None


def _command_words(segment: str) -> list[str] | None:
    """The words of one command of a command line, as a shell would pass them, with what
    only shapes its output left out: redirections (`2>&1`, `> log.txt`) and a pipe into an
    output filter (`| tail -20`, `| grep FAILED`). A quoted word keeps its characters
    (`--grep "Sessions UI|Checkpoint UI"`). None when the line cannot be read as words, or
    when a shell would do more with it: a pipe into another program, a subshell, a
    background job."""
    tokens = read_shell_words(segment)
    if tokens is None:
        return None
    words: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token in ("|", "|&"):
            heads = [tokens[index + 1 : index + 2]] + [
                tokens[n + 1 : n + 2] for n in range(index + 1, len(tokens)) if tokens[n] == "|"
            ]
            if all(head and head[0] in OUTPUT_FILTERS for head in heads):
                break  # only the output is read on; the command is what came before
            return None
        if set(token) <= set("<>&"):
            # a redirection: its target is the next word (`2>&1` reads as `2`, `>&`, `1`)
            if token == "&" or index + 1 >= len(tokens):
                return None
            if words and words[-1].isdigit():
                words.pop()
            index += 2
            continue
        if set(token) <= set("();&|"):
            return None
        words.append(token)
        index += 1
    return words


# --- git -------------------------------------------------------------------------------


def run_git(
    args: Sequence[str],
    cwd: str | Path,
    timeout: float = GIT_TIMEOUT_S,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """One git call with hooks and fsmonitor off, no prompt and no optional locks; raises
    `OSError`/`SubprocessError` when git cannot run. `env` replaces the process's."""
    return subprocess.run(
        ["git", *SAFE_GIT, *args],
        cwd=str(cwd),
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        env={
            **(os.environ if env is None else env),
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_OPTIONAL_LOCKS": "0",
        },
        stdin=subprocess.DEVNULL,
    )


def git(
    args: Sequence[str],
    cwd: str | Path,
    timeout: float = GIT_TIMEOUT_S,
    env: Mapping[str, str] | None = None,
) -> str | None:
    """stdout of a read-only git call on a user's repository; None on any failure (for a
    question whose "no" is an exit status, "no merge base", that is the answer)."""
    try:
        done = run_git(args, cwd, timeout, env)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def repository_root(path: str | None) -> str | None:
    """The work tree root containing `path`, when it is a git repository that still exists."""
    if not path or not Path(path).is_dir():
        return None
    out = git(["rev-parse", "--show-toplevel"], path)
    return out.strip() or None if out else None


#: Names the main line of a repository goes by, where its remote does not say.
MAIN_LINES = ("main", "master", "trunk", "develop")


def main_line(repo_root: str | Path) -> tuple[str, str] | None:
    """The user's main line, read-only: the branch its remote's HEAD names, else the first
    of `MAIN_LINES` it has; with the commit it is at."""
    remote_head = (
        git(["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"], repo_root) or ""
    ).strip()
    names = list(MAIN_LINES)
    if remote_head.startswith("refs/remotes/origin/"):
        names.insert(0, remote_head.removeprefix("refs/remotes/origin/"))
    for name in names:
        if not safe_branch(name):
            continue
        for ref in (f"refs/heads/{name}", f"refs/remotes/origin/{name}"):
            tip = (
                git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], repo_root) or ""
            ).strip()
            if tip:
                return name, tip
    return None


def has_commit(repo_root: str, commit: str) -> bool:
    return git(["cat-file", "-e", f"{commit}^{{commit}}"], repo_root) is not None


def safe_branch(branch: str | None) -> bool:
    """A branch name that cannot be read as an option or a revision range."""
    return bool(
        branch
        and not branch.startswith("-")
        and ".." not in branch
        and not re.search(r"[\s\x00-\x1f~^:?*\[\\]", branch)
        and len(branch) < 256
    )


def commit_at(repo_root: str, branch: str | None, at: datetime | None) -> tuple[str | None, str]:
    """The commit the session's work tree held at `at`. First where HEAD stood then, from
    HEAD's own reflog in that work tree: the session worked on what HEAD held, whichever
    branch that was (a branch made in the session, `git checkout -b fix/…` and a commit,
    before a later request) and whether or not the branch still exists (merged and
    deleted: `gh pr merge --delete-branch` removes the local branch and its reflog). Else
    the recorded branch's reflog, else its newest commit before `at` (a clone, an expired
    reflog)."""
    if at is None:
        return None, ""
    when = as_utc(at)
    sha = _reflog_at(repo_root, "HEAD", when) if _has_head_reflog(repo_root) else None
    if sha is not None:
        return sha, "head-reflog"
    ref = f"refs/heads/{branch}" if safe_branch(branch) else "HEAD"
    sha = _reflog_at(repo_root, ref, when) if ref != "HEAD" else None
    if sha is not None:
        return sha, "reflog"
    if ref != "HEAD" and git(["rev-parse", "--verify", "-q", ref], repo_root) is None:
        return _gone_branch_at(repo_root, str(branch), when)
    before = git(["rev-list", "-1", f"--before={int(when.timestamp())}", ref, "--"], repo_root)
    sha = (before or "").strip()
    return (sha, "rev-list") if _SHA.match(sha) else (None, "")


#: A merge's subject that names the branch it took in: GitHub's ("Merge pull request #12
#: from owner/soph/fix-auth") and git's own ("Merge branch 'fix-auth' into main", "Merge
#: remote-tracking branch 'origin/fix-auth'"). Group 1 or 2 is the branch.
_MERGED_BRANCH = re.compile(
    r"^Merge pull request #\d+ from [^\s/]+/(\S+)"
    r"|^Merge (?:remote-tracking )?branch '(?:origin/)?([^']+)'"
)


def _gone_branch_at(repo_root: str, branch: str, when: datetime) -> tuple[str | None, str]:
    """Where a branch deleted since stood at `when`, when no reflog says: the newest commit
    of its own before then, read off the main line's merge that took it in (a merge
    commit keeps the branch's commits and names it); else the main line as it stood then,
    what the branch grew from. Squashed or rebased work leaves no such merge, and its
    task replays on the main line, where the screen of replay fidelity drops it when its
    replays do not end as the session did."""
    main = main_line(repo_root)
    if main is None:
        return None, ""
    stamp = f"--before={int(when.timestamp())}"
    merges = git(
        [
            "log",
            "--first-parent",
            "--merges",
            "-F",
            f"--grep={branch}",
            "--format=%P%x09%s",
            main[1],
        ],
        repo_root,
    )
    for line in (merges or "").splitlines():
        parents, _, subject = line.partition("\t")
        named = _MERGED_BRANCH.match(subject)
        shas = parents.split()
        if named is None or (named.group(1) or named.group(2)) != branch or len(shas) < 2:
            continue
        own = git(["rev-list", "-1", stamp, shas[1], f"^{shas[0]}", "--"], repo_root)
        sha = (own or "").strip()
        if _SHA.match(sha):
            return sha, "merged-branch"
        break  # the branch held no commit of its own then: it stood on the main line
    # (the main line's own commits, not those of branches merged into it later)
    line_then = git(["rev-list", "-1", "--first-parent", stamp, main[1], "--"], repo_root)
    sha = (line_then or "").strip()
    return (sha, "main-line") if _SHA.match(sha) else (None, "")


#: HEAD's reflog entry for a move to another branch ("checkout: moving from main to
#: soph/issue-63"): group 1 is where it went.
_MOVED_TO = re.compile(r"^checkout: moving from \S+ to (\S+)$")


def branch_at(repo_root: str, at: datetime | None) -> str | None:
    """The branch HEAD was on at `at`, from the last move HEAD's reflog records by then;
    None when it records none, or HEAD was detached, or the name is not one to use."""
    if at is None or not _has_head_reflog(repo_root):
        return None
    when = as_utc(at)
    log = git(["log", "-g", "--format=%gd%x09%gs", "--date=unix", "HEAD", "--"], repo_root)
    for line in (log or "").splitlines():
        selector, _, subject = line.partition("\t")
        stamp = re.search(r"@\{(\d+)\}$", selector)
        if not stamp or int(stamp.group(1)) > when.timestamp():
            continue
        moved = _MOVED_TO.match(subject)
        if moved is None:
            continue
        name = moved.group(1)
        # ("to HEAD" or to a commit's id: HEAD was detached)
        detached = name == "HEAD" or re.fullmatch(r"[0-9a-f]{7,64}", name) is not None
        return name if safe_branch(name) and not detached else None
    return None


def _has_head_reflog(repo_root: str) -> bool:
    """Whether the work tree's HEAD keeps a reflog of its own (without one, `git log -g
    HEAD` reads the reflog of the branch HEAD points at now, which says nothing of the
    branch the session was on)."""
    path = (git(["rev-parse", "--git-path", "logs/HEAD"], repo_root) or "").strip()
    return bool(path) and (Path(repo_root) / path).is_file()


def _reflog_at(repo_root: str, ref: str, when: datetime) -> str | None:
    """The commit `ref` pointed at, at `when`, as its reflog says; None without an entry
    from then or before."""
    log = git(["log", "-g", "--format=%H %gd", "--date=unix", ref, "--"], repo_root)
    for line in (log or "").splitlines():
        sha, _, selector = line.partition(" ")
        stamp = re.search(r"@\{(\d+)\}$", selector)
        if stamp and _SHA.match(sha) and int(stamp.group(1)) <= when.timestamp():
            return sha
    return None


def committed_since(
    repo_root: str, branch: str | None, recorded: str, at: datetime | None
) -> tuple[str, str] | None:
    """The work tree's commit at `at`, and which reflog said it (`commit_at`'s source),
    when a reflog shows it moved on from `recorded` (the commit the session started from)
    by then along the same line: what the session committed before a later episode
    began. Only a reflog says where the work tree was; the newest commit by date may have
    reached the branch later."""
    sha, source = commit_at(repo_root, branch, at)
    if source not in ("reflog", "head-reflog") or sha is None or sha == recorded:
        return None
    descends = git(["merge-base", "--is-ancestor", recorded, sha], repo_root)
    return (sha, source) if descends is not None else None


# --- what the session shows ------------------------------------------------------------


def find_test_commands(
    commands: Iterable[str], *, session_cwd: str, repo_root: str
) -> list[TestCommand]:
    """Distinct test commands, most often run first."""
    counts: dict[TestCommand, int] = {}
    for command in commands:
        parsed = parse_test_command(command, session_cwd=session_cwd, repo_root=repo_root)
        if parsed is not None:
            counts[parsed] = counts.get(parsed, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    return [command for command, _ in ranked[:MAX_TEST_COMMANDS]]


def _session_commands(db: DbSession, session_id: int) -> list[str]:
    rows = db.execute(
        select(Event.tool_name, Event.text).where(
            Event.session_id == session_id, Event.kind == "tool_call"
        )
    )
    # whole, not a line clipped for display: a clipped test id names no test
    return [full_command(text) for name, text in rows if is_shell_tool(name)]


def _episode_failing_tests(db: DbSession, episode: Episode) -> list[str]:
    """Failing test names in the tool output the episode saw (the first failing run)."""
    rows = db.scalars(
        select(Event.text).where(
            Event.session_id == episode.session_id,
            Event.kind == "tool_result",
            Event.seq >= episode.start_seq,
            Event.seq <= episode.end_seq,
        )
    )
    for text in rows:
        report = parse_test_output(text or "")
        if report is not None and report.failed_names:
            return report.failed_names
    return []


def draft_site(
    db: DbSession,
    task: Task,
    episode: Episode,
    session: Session,
    roots: dict[str, str | None] | None = None,
) -> ReplaySiteDraft:
    """`roots` remembers `repository_root` per directory across the drafts of one batch
    (a project's tasks share a few directories)."""
    draft = ReplaySiteDraft(agent=session.source)
    cwd = episode.project_path or session.project_path
    if roots is None or cwd is None:
        root = repository_root(cwd)
    elif cwd in roots:
        root = roots[cwd]
    else:
        root = roots[cwd] = repository_root(cwd)
    if root is None or cwd is None:
        draft.problem = "the session's directory is not a git repository on this machine"
        return draft
    draft.repo_root = root
    recorded = str((session.meta or {}).get("commit") or "").strip().lower()
    started = as_utc(episode.started_at) or as_utc(session.started_at)
    if _SHA.match(recorded) and has_commit(root, recorded):
        # a later episode starts from what the session committed before it (Codex writes
        # only the commit the session started from)
        later = None
        if started is not None and started != as_utc(session.started_at):
            later = committed_since(root, session.git_branch, recorded, started)
        draft.commit, draft.commit_source = later or (recorded, "session")
    else:
        draft.commit, draft.commit_source = commit_at(root, session.git_branch, started)
    if draft.commit is not None:
        # the branch the work tree had moved to by then, when HEAD's reflog says another
        moved = branch_at(root, started)
        draft.branch = moved if moved != session.git_branch else None
    draft.test_commands = find_test_commands(
        _session_commands(db, session.id), session_cwd=cwd, repo_root=root
    )
    draft.failing_tests = _episode_failing_tests(db, episode)
    if draft.commit is None:
        draft.problem = "the commit the session started from is not in the repository"
    elif not draft.test_commands:
        draft.problem = "no test command was run in the session"
    return draft


def record_replay_sites(db: DbSession, episode_ids: Iterable[int]) -> int:
    """Record where the mined tasks of these episodes can be replayed: those without a
    site, and those whose site found no commit when it was recorded (the repository was
    not there yet, or the rules that find a commit have learnt more since: a pass that
    reads a session again looks once more).

    Returns the number of sites written. Never fails the mining step: a task whose site
    cannot be found gets a row with the reason, and replays in text mode.
    """
    ids = list(episode_ids)
    if not ids:
        return 0
    has_site = select(TaskReplaySite.task_id)
    tasks = db.scalars(
        select(Task).where(
            Task.episode_id.in_(ids), Task.origin == "mined", Task.id.not_in(has_site)
        )
    ).all()
    without_commit = {
        site.task_id: site
        for site in db.scalars(
            select(TaskReplaySite)
            .join(Task, Task.id == TaskReplaySite.task_id)
            .where(Task.episode_id.in_(ids), TaskReplaySite.commit.is_(None))
        )
    }
    if without_commit:
        tasks = [*tasks, *db.scalars(select(Task).where(Task.id.in_(without_commit)))]
    written = 0
    roots: dict[str, str | None] = {}
    for task in tasks:
        if task.id is None or task.episode_id is None:
            continue
        episode = db.get(Episode, task.episode_id)
        session = db.get(Session, episode.session_id) if episode is not None else None
        if episode is None or session is None:
            continue
        draft = draft_site(db, task, episode, session, roots)
        earlier = without_commit.get(task.id)
        if earlier is not None:
            if draft.commit is None:
                continue  # still none: the row and its reason stand
            db.delete(earlier)  # found now: a site of its own, with nothing measured on it
            db.flush()
        db.add(
            TaskReplaySite(
                task_id=task.id,
                repo_root=draft.repo_root,
                commit=draft.commit,
                commit_source=draft.commit_source,
                branch=draft.branch,
                test_commands=[c.to_dict() for c in draft.test_commands],
                failing_tests=draft.failing_tests,
                agent=draft.agent,
                problem=draft.problem,
            )
        )
        written += 1
    return written
