"""A mining pass against the store: idempotent, incremental, stable ids, useful tasks."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining.figures import top_patterns
from sleepd.mining.mine import mine
from sleepd.mining.splits import split_for_key, split_for_task
from sleepd.store.engine import make_engine, read_session
from sleepd.store.fastread import as_utc
from sleepd.store.migrate import upgrade
from sleepd.store.models import (
    Episode,
    Event,
    PatternOccurrence,
    Session,
    Signal,
    Task,
    TaskCluster,
    TaskReplaySite,
)

from .builders import DONE, LATER, T0, SessionBuilder


def recurring_session(engine: Engine, intent: str, project: str = "/work/app", **kw: object) -> int:
    b = SessionBuilder(project=project, **kw)  # type: ignore[arg-type]
    b.prompt(intent).bash("npm install", "EACCES: permission denied", exit_code=1)
    b.bash("pnpm install", "done").prompt("thanks, works now")
    return b.save(engine)


def clusters(engine: Engine) -> dict[str, int]:
    with read_session(engine) as db:
        return {c.key: c.id for c in db.scalars(select(TaskCluster))}


@pytest.mark.both_dbs
def test_rerun_adds_nothing_and_keeps_cluster_ids(engine: Engine, cfg: Config) -> None:
    recurring_session(engine, "install the dependencies with pnpm")
    recurring_session(engine, "please install deps via pnpm", start=T0 + timedelta(days=1))
    first = mine(engine, cfg, now=LATER)
    assert first.episodes_new == 2 and first.clusters_new == 1 and first.recurring_clusters == 1
    assert first.tasks_new == 2
    keys = clusters(engine)
    again = mine(engine, cfg, now=LATER)
    assert (again.episodes_new, again.signals_new, again.clusters_new, again.tasks_new) == (
        0,
        0,
        0,
        0,
    )
    assert clusters(engine) == keys
    assert again.episodes_total == 2


def test_new_sessions_join_existing_clusters(engine: Engine, cfg: Config) -> None:
    recurring_session(engine, "fix the failing tests in tests/test_parser.py")
    mine(engine, cfg, now=LATER)
    keys = clusters(engine)
    recurring_session(engine, "the parser tests are failing, can you fix them?")
    SessionBuilder().prompt("write a haiku about compilers").say("...").save(engine)
    report = mine(engine, cfg, now=LATER)
    assert report.clusters_new == 1  # only the haiku
    after = clusters(engine)
    assert set(keys) <= set(after)
    with read_session(engine) as db:
        parser = [e.cluster_id for e in db.scalars(select(Episode)) if "parser" in e.intent_text]
        assert len(parser) == 2 and parser[0] == parser[1] == keys[next(iter(keys))]
        cluster = db.get(TaskCluster, parser[0])
        assert cluster is not None
        assert (cluster.size, cluster.session_count, cluster.projects) == (2, 2, ["/work/app"])
        assert cluster.success_rate == 1.0  # a recovered error, then approval: success
        assert cluster.first_seen is not None and cluster.last_seen is not None


def test_open_episode_is_extended_by_a_later_pass(engine: Engine, cfg: Config) -> None:
    b = SessionBuilder(start=T0).prompt("Add a dark mode toggle to settings").bash("npm test")
    sid = b.save(engine)
    live = mine(engine, cfg, now=T0 + timedelta(minutes=5))
    assert live.episodes_new == 1
    with read_session(engine) as db:
        episode = db.scalars(select(Episode)).one()
        assert not episode.is_closed
    n = len(b.rows)
    b.prompt("that's wrong, the toggle does not persist").bash("npm test")
    b.append(engine, sid, n)
    later = mine(engine, cfg, now=LATER)
    assert later.episodes_new == 0
    with read_session(engine) as db:
        episode = db.scalars(select(Episode)).one()
        assert episode.is_closed and episode.feedback_count == 1
        assert episode.end_seq == len(b.rows) and episode.outcome == "failure"
        kinds = {s.kind for s in db.scalars(select(Signal))}
        assert "user_correction" in kinds


def test_subagent_attaches_to_the_episode_that_spawned_it(engine: Engine, cfg: Config) -> None:
    parent = SessionBuilder()
    parent.prompt("Find every TODO and list them").say("I'll ask a helper")
    parent.call("Task", '{"prompt": "Search the whole repository for TODO comments"}', "t1")
    parent.result("t1", "found 3")
    parent.prompt("Now write a README for the project").say("done")
    pid = parent.save(engine)
    child = SessionBuilder(kind="subagent", parent_id=pid, start=T0 + timedelta(days=2))
    child.prompt("Search the whole repository for TODO comments").bash("grep -rn TODO .")
    child.save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        rows = list(db.scalars(select(Episode).order_by(Episode.id)))
        by_intent = {e.intent_text: e for e in rows}
        spawned = by_intent["Search the whole repository for TODO comments"]
        assert spawned.parent_episode_id == by_intent["Find every TODO and list them"].id
        assert spawned.cluster_id is None  # subagent work is not a user intent


def test_a_fork_a_person_carried_on_in_is_read_turn_by_turn(engine: Engine, cfg: Config) -> None:
    """A forked session (Codex `forked_from_id`, Claude Code's `/fork`) is the person's own:
    each request they typed there is a task, as in any session, not one subagent's task.
    (Its first turn is read against the conversation it was forked from, `mining.carried`:
    "make a pr to fix" there would carry on the parent's question.)"""
    parent = SessionBuilder()
    parent.prompt("thoughts on the env var discussion?").say("It is a real bug.")
    pid = parent.save(engine)
    fork = SessionBuilder(kind="fork", parent_id=pid, start=T0 + timedelta(hours=1))
    fork.prompt("Rename the SLEEPD_HOME variable to SLEEPD_DIR everywhere")
    fork.bash("gh pr create").say("Opened the PR.")
    fork.prompt("address pr feedback").bash("git push").say("Addressed the review comments.")
    fork.save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        forked = list(
            db.scalars(
                select(Episode).join(Session).where(Session.kind == "fork").order_by(Episode.id)
            )
        )
        assert [e.intent_text for e in forked] == [
            "Rename the SLEEPD_HOME variable to SLEEPD_DIR everywhere",
            "address pr feedback",
        ]
        assert all(e.parent_episode_id is None for e in forked)


def test_correction_becomes_judge_checks_not_context(engine: Engine, cfg: Config) -> None:
    b = SessionBuilder().prompt("Set up the project dependencies").bash("npm install")
    b.prompt("no, use pnpm not npm").bash("pnpm install")
    b.save(engine)
    report = mine(engine, cfg, now=LATER)
    assert report.tasks_new == 1  # failed with a clear signal, not yet recurring
    with read_session(engine) as db:
        task = db.scalars(select(Task)).one()
        checks = {(c["type"], c["value"]) for c in task.judge_spec["checks"]}
        assert ("must_contain", "pnpm") in checks
        assert ("must_not_contain", "npm install") in checks
        assert "pnpm" not in str(task.context)
        assert task.origin == "mined" and task.outcome == "failure"


def test_a_check_that_failed_and_then_passed_is_not_a_mistake_to_avoid(
    engine: Engine, cfg: Config
) -> None:
    """claude-code-log (tests/fixtures/real_sessions): `uv run ty check` failed, the agent
    fixed the code, and the same check passed. The rubric had listed the check among the
    commands "that should not be repeated", so a judge would mark down the rollout that
    verifies its fix; only a command another one stood in for is named, with what did."""
    b = SessionBuilder().prompt("Please fix these lint errors in the cache tests")
    b.bash("uv run ty check", "error[call-non-callable]: Object is not callable", exit_code=1)
    b.bash("uv run ty check", "All checks passed!")
    b.bash("npm install", "EACCES: permission denied", exit_code=1)
    b.bash("ls", "package.json").bash("pnpm install", "Done in 2.1s")
    b.say("Done: both lint errors are fixed and the dependencies are installed.")
    b.prompt("no, the lint still fails in CI")
    b.save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        spec = db.scalars(select(Task.judge_spec)).one()
    rubric = spec["rubric"]
    assert "ty check" not in rubric and "should not be repeated" not in rubric
    assert "- `npm install` failed; `pnpm install` worked" in rubric
    checks = {(c["type"], c["value"]) for c in spec["checks"]}
    assert ("must_not_contain", "npm install") in checks
    assert ("must_not_contain", "uv run ty check") not in checks


def test_whole_cluster_lands_in_one_stable_split(engine: Engine, cfg: Config) -> None:
    texts = [
        "write a README for this project",
        "please write a README for the project",
        "write a README for this project with install steps",
    ]
    for day, text in enumerate(texts):
        recurring_session(engine, text, start=T0 + timedelta(days=day))
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        task_splits = {(t.cluster_id, t.split) for t in db.scalars(select(Task))}
        task_count = len(db.scalars(select(Task)).all())
        (cluster,) = db.scalars(select(TaskCluster)).all()
        key, split, cluster_id = cluster.key, cluster.split, cluster.id
    assert task_count == 3 and task_splits == {(cluster_id, split)}
    assert split == split_for_key(key, cfg.mining.val_fraction, cfg.mining.test_fraction)


def test_split_fractions_and_origins() -> None:
    splits = [split_for_key(f"c{i:05d}", 0.25, 0.25) for i in range(4000)]
    assert 0.2 < splits.count("test") / 4000 < 0.3 and 0.2 < splits.count("val") / 4000 < 0.3
    assert split_for_task("val", "mined") == "val"
    assert split_for_task("test", "synthetic") == "train"


@pytest.mark.both_dbs
def test_failure_patterns_are_counted_linked_and_trended(engine: Engine, cfg: Config) -> None:
    for day in (1, 3, 10):
        b = SessionBuilder(start=LATER - timedelta(days=day)).prompt("run the app")
        b.bash("python app.py", f"ModuleNotFoundError: No module named 'mod{day}'", exit_code=1)
        b.save(engine)
    mine(engine, cfg, now=LATER)
    rows = top_patterns(engine, now=LATER)
    assert rows[0].count == 3 and rows[0].error_class == "ModuleNotFoundError"
    assert (rows[0].last_7d, rows[0].previous_7d, rows[0].trend) == (2, 1, "rising")
    with read_session(engine) as db:
        occ = list(db.scalars(select(PatternOccurrence)))
        assert all(o.episode_id is not None and o.cluster_id is not None for o in occ)
    from sleepd.status import mining_figures
    from sleepd.store.fastread import ReadOnlyDb

    status_db = ReadOnlyDb(engine.url.render_as_string())
    try:
        figures = mining_figures(status_db, cfg)
    finally:
        status_db.close()
    assert figures["episodes"] == 3 and figures["top_failure_patterns"][0]["count"] == 3
    assert top_patterns(engine, project="/elsewhere", now=LATER) == []


def test_clusters_do_not_depend_on_how_many_texts_are_read_at_once(
    engine: Engine, cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bounded memory (#22): intents are read and vectorised a chunk at a time; the
    clusters are the same as when everything is read in one go."""
    from sleepd.mining import recurrence

    def clusters_with(text_chunk: int, home: Engine) -> list[list[str]]:
        monkeypatch.setattr(recurrence, "TEXT_CHUNK", text_chunk)
        for i, text in enumerate(PARAPHRASES):
            SessionBuilder(external_id=f"s{i}").prompt(text).say("Done.").save(home)
        mine(home, cfg, now=LATER)
        with read_session(home) as db:
            rows = db.execute(select(Episode.cluster_id, Episode.intent_text)).all()
        groups: dict[int, list[str]] = {}
        for cluster_id, text in rows:
            groups.setdefault(cluster_id, []).append(text)
        return sorted(sorted(g) for g in groups.values())

    whole = clusters_with(10_000, engine)
    other = make_engine(f"sqlite:///{engine.url.database}.2")
    upgrade(other)
    assert clusters_with(2, other) == whole
    assert any(len(g) > 1 for g in whole)


PARAPHRASES = [
    "Fix the failing login test in the auth module",
    "The auth module login test fails, fix it",
    "Add pagination to the users API endpoint",
    "Users endpoint needs pagination, add it to the API",
    "Write a README section about installing with uv",
    "Bump the version and publish the release notes",
]


def test_a_request_that_needs_the_exchange_before_it_is_never_a_task(
    engine: Engine, cfg: Config
) -> None:
    """Resumed sessions open with a reply to a conversation that is not in them ("Did yo
    commit?" opened two Safecast/safecast-map-MCP sessions seen in public checkpoints).
    They recur, and their episodes stay; a replay would have nothing to act on."""
    for day, intent in enumerate(("Did yo commit?", "Did you commit and pushed the code?")):
        recurring_session(engine, intent, start=T0 + timedelta(days=day))
    for day, intent in enumerate(("commit and push", "[image: image/png, 1 bytes] commit")):
        recurring_session(engine, intent, start=T0 + timedelta(days=2 + day))
    recurring_session(engine, "install the dependencies with pnpm", start=T0 + timedelta(days=4))
    recurring_session(engine, "please install deps via pnpm", start=T0 + timedelta(days=5))
    result = mine(engine, cfg, now=LATER)
    assert result.episodes_new == 6 and result.recurring_clusters >= 2
    with read_session(engine) as db:
        intents = sorted(task.intent.splitlines()[0] for task in db.scalars(select(Task)))
    assert intents == ["install the dependencies with pnpm", "please install deps via pnpm"]


def test_a_request_whose_only_object_is_outside_the_repository_recurs_but_is_no_task(
    engine: Engine, cfg: Config
) -> None:
    """entireio/cli's history (rebuilt from its public checkpoint branch) held replay tasks
    that named only a pull request, a Linear ticket or a pull request's review
    (`/github-pr-review`, most of them): a replay works offline in a checkout, where none
    of them is. Their episodes stay, and recur; a request with work of its own beside the
    item is a task. Nor is a request whose only work is an act in the tracker or the forge
    ("log a linear bug and let's move on", from the same history), nor a merge's conflicts
    to resolve, which are in the person's working tree ("fix merge conflicts from parent
    please", four replay tasks of one cluster there)."""
    outside = (
        "can you review pr 227 for me?",
        "/review 158",
        "have a look at linear ENT-260\n\nlet's debug this",
        "/github-pr-review",
        "log a linear bug and let's move on",
        "fix merge conflicts from parent please",
    )
    own = "look at PR 5 and fix the failing test in parser.py"
    for day, intent in enumerate((*outside, own)):
        for week in range(2):  # each request asked twice, so each recurs
            recurring_session(engine, intent, start=T0 + timedelta(days=day, weeks=week))
    result = mine(engine, cfg, now=LATER)
    assert result.episodes_new == 14 and result.recurring_clusters >= 6
    with read_session(engine) as db:
        intents = sorted(task.intent.splitlines()[0] for task in db.scalars(select(Task)))
    assert intents == [own, own]


def _after_work(engine: Engine, request: str, *, committed: bool, start: datetime) -> None:
    """A session whose agent wrote a file for a first request, committed it or not, and
    then got `request`, which the agent took up."""
    b = SessionBuilder(start=start)
    b.prompt("add a --verbose flag to the sync command")
    b.call("Edit", json.dumps({"file_path": "/work/app/sync.go", "old_string": "a"}), "e1")
    b.result("e1", "The file /work/app/sync.go has been updated.")
    if committed:
        b.bash('git add -A && git commit -m "sync: --verbose"', "[main 1a2b3c4] sync")
    b.say("Added the flag.").prompt(request)
    b.bash("go vet ./...", "vet: cmd/sync.go:12: unreachable code", exit_code=1)
    b.bash("go vet ./...", "ok").say("Simplified the flag handling.")
    b.save(engine)


@pytest.mark.both_dbs
def test_a_request_over_changes_the_session_left_uncommitted_is_no_task(
    engine: Engine, cfg: Config
) -> None:
    """entireio/git-sync's history (outside the repository): "/simplify" after the agent
    wrote code it had not committed made replay tasks, and a replay's checkout of the
    commit at the episode's start holds none of that code. Once the agent committed it,
    the checkout does, and the request is a task; so is a request that names its own
    work."""
    requests = (
        "/simplify",
        "can you do meaningful commits?",
        "rename the config loader to settings_loader in config.go",
    )
    for day, request in enumerate(requests):
        for week, committed in enumerate((False, False)):
            _after_work(
                engine, request, committed=committed, start=T0 + timedelta(days=day, weeks=week)
            )
    for week in range(2):
        _after_work(
            engine, "/code-review", committed=True, start=T0 + timedelta(days=5, weeks=week)
        )
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        intents = sorted(task.intent.splitlines()[0] for task in db.scalars(select(Task)))
    later = [intent for intent in intents if not intent.startswith("add a --verbose")]
    assert later == [
        "/code-review",
        "/code-review",
        *["rename the config loader to settings_loader in config.go"] * 2,
    ]


def test_a_tasks_test_command_is_read_whole_and_without_its_output_plumbing(
    engine: Engine, cfg: Config, tmp_path: Path
) -> None:
    """claude-code-log (tests/fixtures/real_sessions) ran `uv run pytest …::TestTemplate
    Rendering::test_multi_session_rendering -v`: the site had kept the line clipped for
    display, a test id that names no test; and `… 2>&1 | tail -30`, most of the test runs
    agents make, had been refused whole."""
    import subprocess

    repo = tmp_path / "repo"
    repo.mkdir()
    for args in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "start"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
            cwd=repo, check=True, capture_output=True,
        )  # fmt: skip
    test_id = (
        "/Users/dain/workspace/claude-code-log/test/test_template_rendering.py"
        "::TestTemplateRendering::test_multi_session_rendering"
    )
    assert len(f"uv run pytest {test_id} -v") > 120  # past the line shown for a command
    b = SessionBuilder(project=str(repo), start=T0)
    b.prompt("Fix the multi-session rendering test")
    b.bash(f"uv run pytest {test_id} -v 2>&1 | tail -30", f"FAILED {test_id}\n1 failed")
    b.bash("make test 2>&1 | tail -5", "1 failed", exit_code=2)
    b.bash(f"uv run pytest {test_id} -v 2>&1 | tail -30", f"FAILED {test_id}\n1 failed")
    b.prompt("no, it still fails")
    b.save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        commands = db.scalars(select(TaskReplaySite.test_commands)).one()
    assert [c["argv"] for c in commands] == [
        ["uv", "run", "pytest", test_id, "-v"],
        ["make", "test"],
    ]


def test_a_request_to_resume_earlier_work_recurs_but_is_no_task(
    engine: Engine, cfg: Config
) -> None:
    """polecatspeaks/StarCar (set 19) opens its sessions with "pick up where we left off":
    the request recurred and became two replay tasks, with nothing in them a replay could
    act on; the work it resumes lives in an earlier session."""
    opening = "good morning buddy, it's 24 July 26 at 0546 local philly time. Please pick up"
    for day, intent in enumerate((f"{opening} where we left off.", "pick up where we left off")):
        recurring_session(engine, intent, start=T0 + timedelta(days=day))
    result = mine(engine, cfg, now=LATER)
    assert result.episodes_new == 2 and result.recurring_clusters == 1
    with read_session(engine) as db:
        assert not list(db.scalars(select(Task)))


def test_a_look_at_the_project_is_no_task_and_the_work_after_it_is(
    engine: Engine, cfg: Config
) -> None:
    """A real Codex history (7567491/Feishu_ClaudeCode, not in the repository) opens its
    sessions with "阅读readme" (read the README); the agent sums it up, and the next turn is
    the work ("写入AGENTS.md: …"). The look had recurred and become two replay tasks, the
    work folded into them as refinements; now the look is no task and the work opens its
    own episode."""
    summary = "这个项目是一个飞书机器人后台，README 说明了安装、配置和部署步骤。"
    work = '写入AGENTS.md:"中文对话，用最简单的方法完成任务 不要创建新文件，除非我告诉你这么做"'
    for day in range(2):
        b = SessionBuilder(start=T0 + timedelta(days=day)).prompt("阅读readme").say(summary)
        b.prompt(work).bash("cat >> AGENTS.md", "").say("已写入 AGENTS.md。")
        b.prompt("谢谢").save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        intents = sorted(e.intent_text for e in db.scalars(select(Episode)))
        tasks = [t.intent for t in db.scalars(select(Task))]
    assert intents == sorted([work, work, "阅读readme", "阅读readme"])
    assert tasks and all(t.startswith("写入AGENTS.md") for t in tasks)


@pytest.mark.both_dbs
def test_a_request_the_agent_never_took_up_is_no_task(engine: Engine, cfg: Config) -> None:
    """A real orchestrator's history (issue-orchestrator/issue-orchestrator, not in the
    repository): it sent "Work on issue #2643 …" 53 times while the API key was invalid,
    and Claude Code answered each with "Invalid API key · Please run /login". The request
    recurred and had made 53 replay tasks with no attempt in them; only the one the agent
    took up is a task."""
    request = (
        "Work on issue #2643: [M3-003] Add unit tests for dependency_evaluator.py. Follow the "
        "instructions in .issue-orchestrator/prompts/simple-fix.md. When done, exit with /exit."
    )
    for day in range(3):
        b = SessionBuilder(start=T0 + timedelta(days=day)).prompt(request)
        b.service_error("Invalid API key · Please run /login").save(engine)
    # a proxy's reply stored with no words in it (isaacmorgado/claude-sovereign, claudish)
    SessionBuilder(start=T0 + timedelta(days=3)).prompt(request).say("").save(engine)
    b = SessionBuilder(start=T0 + timedelta(days=4)).prompt(request)
    b.bash("pytest -q tests/test_dependency_evaluator.py", "5 passed").say("Added the tests.")
    b.save(engine)
    result = mine(engine, cfg, now=LATER)
    assert result.episodes_new == 5 and result.recurring_clusters == 1
    with read_session(engine) as db:
        tasks = list(db.scalars(select(Task.episode_id)))
        took_up = db.scalar(select(Episode.id).order_by(Episode.started_at.desc()).limit(1))
        outcomes = list(db.scalars(select(Episode.outcome).order_by(Episode.started_at)))
    assert tasks == [took_up]
    # a reply with no words answered nothing: not a success
    assert outcomes[3] == "unknown"


def test_a_failure_under_each_shell_tools_name_is_one_pattern(engine: Engine, cfg: Config) -> None:
    """Real lines (public Codex sessions): `command not found: pytest` under Claude Code's
    Bash and two Codex versions' shell tools is one failure seen three times, and a patch
    Codex ran through the shell (`bash -lc "apply_patch <<'PATCH' …"`) fails as apply_patch
    itself does: one pattern, shown under apply_patch."""
    missing = "/bin/bash: line 1: pytest: command not found"
    patch = (
        "apply_patch verification failed: Failed to find expected lines in {}:\n"
        "func durationEnv(key string, fallback time.Duration) time.Duration {{"
    )
    for number, tool in enumerate(("Bash", "shell_command", "exec_command")):
        b = SessionBuilder(start=LATER - timedelta(days=1)).prompt("run the tests")
        b.call(tool, json.dumps({"command": "pytest -q"}), f"t{number}")
        b.result(f"t{number}", f"Exit code 127\n{missing}", exit_code=127)
        b.save(engine)
    b = SessionBuilder(start=LATER - timedelta(days=1)).prompt("add the config loader")
    b.call("apply_patch", "*** Begin Patch\n*** Update File: a.go\n*** End Patch", "p1")
    b.result("p1", patch.format("/home/a/project/internal/app/config/config.go"), error=True)
    heredoc = "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: b.go\n*** End Patch\nPATCH"
    b.call("shell", json.dumps({"command": ["bash", "-lc", heredoc]}), "p2")
    b.result("p2", patch.format("/home/a/project/cmd/api/main.go"), exit_code=1)
    b.save(engine)
    mine(engine, cfg, now=LATER)
    rows = {row.signature.split(" | ", 2)[2]: row for row in top_patterns(engine, now=LATER)}
    assert len(rows) == 2 and rows["command not found: pytest"].count == 3
    patched = rows["Failed to find expected lines in <path>:"]
    assert (patched.count, patched.tool_name) == (2, "apply_patch")


def test_a_pattern_is_shown_by_its_earliest_occurrence_whichever_pass_read_it_first(
    engine: Engine, cfg: Config
) -> None:
    """The same failure under two shell tools' names (one Codex version's `shell`,
    another's `exec_command`): one pattern, shown as its earliest occurrence, though the
    later session was harvested and mined first, as one pass over both shows it."""
    missing = "/bin/bash: line 1: pytest: command not found"

    def session(tool: str, start: datetime) -> SessionBuilder:
        b = SessionBuilder(start=start).prompt("run the tests")
        b.call(tool, json.dumps({"command": "pytest -q"}), f"t-{tool}")
        b.result(f"t-{tool}", f"Exit code 127\n{missing}", exit_code=127)
        return b

    session("exec_command", LATER - timedelta(days=1)).save(engine)
    mine(engine, cfg, now=LATER)
    session("shell", LATER - timedelta(days=3)).save(engine)
    mine(engine, cfg, now=LATER)
    [row] = top_patterns(engine, now=LATER)
    assert (row.count, row.tool_name) == (2, "shell")
    assert row.signature.startswith("shell | ")


def test_a_code_mode_scripts_failures_are_the_tools_it_ran(engine: Engine, cfg: Config) -> None:
    """Codex Desktop's code mode (a Codex history outside the repository, jdx/mise): a
    script's command that is not there, and its patch that did not apply, are the same
    patterns as Codex's shell's and patch tool's same failures."""
    script = 'const r = await tools.exec_command({{cmd: "{}"}});\ntext(r.output);'
    b = SessionBuilder(start=LATER - timedelta(days=1)).prompt("run the checks")
    b.call("exec", script.format("python x.py"), "s1")
    b.result(
        "s1", "Script completed\nWall time 0.5 seconds\nOutput:\nzsh:1: command not found: python"
    )
    b.call("exec_command", json.dumps({"cmd": "python y.py"}), "s2")
    b.result("s2", "Chunk ID: 1\nOutput:\nzsh:1: command not found: python", exit_code=127)
    b.call("exec", "await tools.apply_patch(`*** Begin Patch\n*** End Patch`);", "s3")
    b.result(
        "s3",
        "Script failed\nWall time 0.0 seconds\nOutput:\n\nScript error:\napply_patch "
        "verification failed: Failed to find expected lines in /w/registry.rs:\n<<<<<<< HEAD",
    )
    b.call("apply_patch", "*** Begin Patch\n*** Update File: a.rs\n*** End Patch", "s4")
    b.result(
        "s4",
        "apply_patch verification failed: Failed to find expected lines in /w/a.rs:\nfn a()",
        error=True,
    )
    b.save(engine)
    mine(engine, cfg, now=LATER)
    rows = {row.signature.split(" | ", 2)[2]: row for row in top_patterns(engine, now=LATER)}
    assert rows["Failed to find expected lines in <path>:"].count == 2
    assert sum(row.count for text, row in rows.items() if "command not found" in text) == 2
    assert len(rows) == 2


def test_a_background_commands_failure_read_later_is_one_pattern_with_its_own(
    engine: Engine, cfg: Config
) -> None:
    """Claude Code ran an ssh in the background and read its failure with `TaskOutput`
    (M-Thisness/M-Claude, set 19); the same failure of an ssh that ended at once is the
    same pattern, shown under Bash with the command's exit and words, not the read's."""
    failed = "ssh: connect to host zima.thisness.us port 22: Connection timed out"
    read = (
        "<retrieval_status>success</retrieval_status>\n\n<task_id>bdea11d</task_id>\n\n"
        "<task_type>local_bash</task_type>\n\n<status>failed</status>\n\n<exit_code>255"
        f"</exit_code>\n\n<output>\n{failed}\n</output>"
    )
    b = SessionBuilder(start=LATER - timedelta(days=1)).prompt("mount the share on zima")
    b.call("Bash", json.dumps({"command": "ssh zima mount -a", "run_in_background": True}), "b1")
    b.result("b1", "Command running in background with ID: bdea11d. Output is being written to: x")
    b.call("TaskOutput", json.dumps({"task_id": "bdea11d", "block": True}), "b2")
    b.result("b2", read)
    b.bash("ssh zima mount -a", f"Exit code 255\n{failed}", exit_code=255)
    b.save(engine)
    mine(engine, cfg, now=LATER)
    rows = top_patterns(engine, now=LATER)
    assert [(row.tool_name, row.count) for row in rows] == [("Bash", 2)]
    assert rows[0].signature.startswith("Bash | exit 255 | ssh: connect to host")
    assert "<task_id>" not in (rows[0].example or "")


def test_a_long_searchs_matches_and_an_unannounced_stop_sign_no_pattern(
    engine: Engine, cfg: Config
) -> None:
    """Real shapes (7567491/Feishu_ClaudeCode's Codex rollouts, not in the repository): an
    `rg` over a folder exited 2 and printed thousands of matches without line numbers,
    mining read its head and tail only, and the tail began mid-line (half a base64 run of
    an image in a markdown file); `git push` and a test run were stopped at Codex's time
    limit with exit 124 and no note. Neither a match, nor a piece of a line, nor a passing
    test's "❌ Failed: 0" signs a failure."""
    blob = "iVBORw0KGgoAAAANSUhEUgAAA" * 40
    matches = "".join(
        f"feicc/group-{n}/verify_deployment.sh:if [ $FAILED -eq 0 ]; then {blob}\n"
        for n in range(40)
    )
    for day in (1, 2):
        b = SessionBuilder(start=LATER - timedelta(days=day)).prompt("find the AI notes")
        b.call("shell_command", json.dumps({"command": 'rg "AI" feicc'}), f"rg{day}")
        searched = f"Exit code: 2\nWall time: 0.4 seconds\nOutput:\n{matches}"
        b.result(f"rg{day}", searched, exit_code=2)
        b.call("shell_command", json.dumps({"command": "git push"}), f"push{day}")
        b.result(f"push{day}", "Exit code: 124\nWall time: 120 seconds\nOutput:\n", exit_code=124)
        b.call("shell_command", json.dumps({"command": "npm run test:bot"}), f"npm{day}")
        passed = "Exit code: 124\nWall time: 120 seconds\nOutput:\n✅ Passed: 35\n❌ Failed: 0\n"
        b.result(f"npm{day}", passed + "🎉 All tests passed!", exit_code=124)
        b.save(engine)
    mine(engine, cfg, now=LATER)
    rows = {row.signature.split(" | ", 2)[2]: row.count for row in top_patterns(engine, now=LATER)}
    assert rows == {"rg: printed only matches": 2, "command timed out after <n>": 4}


def test_an_old_codexs_patch_and_sandbox_failures_are_the_later_ones(
    engine: Engine, cfg: Config
) -> None:
    """Real shapes of Codex 0.2x (JaydenXsoe/ocodex's labelled sessions and its owner's
    whole history, not in the repository): `shell` ran `["apply_patch", "*** Begin Patch
    …"]` as an argument list and its failure listed the lines it looked for; a command
    stopped at the time limit came inside a sandbox note naming the sandbox. Each is one
    pattern with the later Codex's wording, under apply_patch for the patch."""
    b = SessionBuilder(start=LATER - timedelta(days=1)).prompt("update the generator")
    patch = "*** Begin Patch\n*** Update File: gen/gen.py\n@@\n-a\n+b\n*** End Patch"
    for n, (lines, sandbox) in enumerate((('"    # A"', "None"), ('" ", ""', "MacosSeatbelt"))):
        b.call("shell", json.dumps({"command": ["apply_patch", patch]}), f"p{n}")
        b.result(f"p{n}", f"error: Failed to find expected lines [{lines}] in /w/gen/gen.py")
        b.call("shell", json.dumps({"command": ["bash", "-lc", "pytest -q"]}), f"t{n}")
        note = f"failed in sandbox {sandbox} with execution error: command timed out"
        b.result(f"t{n}", note, error=True)
    b.call("apply_patch", "*** Begin Patch\n*** Update File: a.go\n*** End Patch", "p9")
    later = "apply_patch verification failed: Failed to find expected lines in /w/a.go:\nx"
    b.result("p9", later, error=True)
    b.call("shell_command", json.dumps({"command": "pytest -q"}), "t9")
    b.result("t9", "command timed out after 10031 milliseconds", error=True)
    b.save(engine)
    mine(engine, cfg, now=LATER)
    found = top_patterns(engine, now=LATER)
    rows = {(r.tool_name, r.signature.split(" | ", 2)[2]): r.count for r in found}
    assert rows == {
        ("apply_patch", "Failed to find expected lines in <path>:"): 3,
        ("shell", "command timed out after <n>"): 3,
    }


def test_the_lines_a_search_let_through_a_pipe_sign_the_failure(
    engine: Engine, cfg: Config
) -> None:
    """A search over files never signs its failure with a match, but a search that filters
    another program's output (`npx tsc --noEmit 2>&1 | grep error`, the pipe hiding tsc's
    status) lets through that program's own lines: they say what went wrong."""
    said = (
        "src/app.ts:3:5 - error TS2345: Argument of type 'string' is not assignable to "
        "parameter of type 'number'."
    )
    for day in (1, 2):
        b = SessionBuilder(start=LATER - timedelta(days=day)).prompt("type-check the app")
        b.bash("npx tsc --noEmit 2>&1 | grep error", said, exit_code=0).say("It fails.")
        b.save(engine)
    mine(engine, cfg, now=LATER)
    [row] = top_patterns(engine, now=LATER)
    assert row.count == 2 and "error TS2345" in row.signature


@pytest.mark.both_dbs
def test_an_error_class_longer_than_its_column_is_stored_cut(engine: Engine, cfg: Config) -> None:
    """A tool's output naming an error class longer than the column holds (PostgreSQL
    refuses it) still makes a pattern: the class is stored cut, the pass completes."""
    for day in (1, 2):
        b = SessionBuilder(start=LATER - timedelta(days=day)).prompt("run the app")
        b.bash("python app.py", "Raised " + "A" * 400 + "Error: boom", exit_code=1)
        b.save(engine)
    mine(engine, cfg, now=LATER)
    [row] = top_patterns(engine, now=LATER)
    assert row.count == 2 and row.error_class is not None
    assert row.error_class.startswith("AAAA") and len(row.error_class) <= 256


def test_the_store_wide_noise_sample_reads_every_shell_tool(engine: Engine) -> None:
    """A shell's start-up noise is learned from the newest shell results whichever tool ran
    them: Claude Code's Bash and PowerShell (on Windows), Codex's shell tools."""
    from sleepd.mining.loading import recent_shell_outputs
    from sleepd.store.engine import read_session

    builder = SessionBuilder()
    for n, tool in enumerate(("Bash", "PowerShell", "shell_command", "Read")):
        builder.call(tool, json.dumps({"command": f"echo {tool}"}), f"c{n}")
        builder.result(f"c{n}", f"output of {tool}")
    builder.save(engine)
    with read_session(engine) as db:
        texts = {text for text, _ in recent_shell_outputs(db)}
    assert texts == {f"output of {tool}" for tool in ("Bash", "PowerShell", "shell_command")}


#: A real follow-up the rules read as a request of its own ("long request after done", a
#: hard reading): questions and thoughts on the app the agent had just built
#: (definitelyreal/speakfree, labelled a follow-up).
UNSURE_REQUEST = (
    "What other settings are available?\n\nTranscription failures: I don't expect the audio "
    "source to change during recording. The app could crash, or the window could change. If "
    "I don't let go of the function key and the app crashes, would the audio still be "
    "retrievable?\n\nto go back to the same window where I started the recording. But what "
    "if it goes to a different focus area within the window? Can we find the same focus area "
    "we started on?confirm whether the typing actually happens into that focus area."
)


def unsure_one_off(engine: Engine) -> None:
    b = SessionBuilder().prompt("Build a menu bar app that transcribes while I hold fn")
    b.bash("swift build", "Build complete!").say("Done: the app is built and transcribes.")
    b.prompt(UNSURE_REQUEST).bash("swift test", "error: no such module 'XCTest'", exit_code=1)
    b.say("I couldn't run the tests here.").prompt("no, that's wrong, the tests still fail")
    b.save(engine)


def test_a_one_off_failure_the_rules_were_unsure_opened_is_no_task(
    engine: Engine, cfg: Config
) -> None:
    """A one-off failure has only its own episode to show that it was a request at all:
    when the rules found its opening turn hard to tell from a follow-up, it becomes a task
    only once it recurs or a model reads it (a real follow-up had become a one-off task)."""
    unsure_one_off(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        opened = {e.intent_text[:30]: e for e in db.scalars(select(Episode))}
        episode = opened[UNSURE_REQUEST[:30]]
        (opening,) = [t for t in episode.turns if t["event_id"] == episode.intent_event_id]
        assert episode.outcome == "failure" and opening["hard"] and not opening.get("by_model")
        assert not [t.intent for t in db.scalars(select(Task)) if "focus area" in t.intent]


#: A call input nested past the interpreter's recursion limit: a Codex call's `arguments`
#: is a string inside its line, so no line parser limits it.
NESTED_PAST_ANY_INPUT = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "tool", ["shell", "exec_command", "Write", "AskUserQuestion", "apply_patch"]
)
def test_a_call_input_nested_past_any_real_one_is_mined_as_text(
    engine: Engine, cfg: Config, tool: str
) -> None:
    b = SessionBuilder().prompt("run the tests and fix what fails")
    b.call(tool, NESTED_PAST_ANY_INPUT, "c1")
    b.result("c1", '{"result": "' + "[" * 5_000 + '"}', error=True)
    b.say("Done: the tests pass now.").save(engine)
    report = mine(engine, cfg, now=LATER)
    assert report.episodes_new == 1
    with read_session(engine) as db:
        assert db.scalars(select(Episode.outcome)).one() in ("success", "failure", "mixed")


_PLAN = "# Plan: Show Total Skills & Standards\n\n## Context\nThe summary lists only issues."
_REFUSED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). STOP what you are doing and "
    "wait for the user to tell you how to proceed."
)


def _planning_session(engine: Engine, project: str = "/work/app") -> None:
    """A session that ends on the agent's plan, answered with a refusal and a stop."""
    b = SessionBuilder(project=project, start=T0)
    b.prompt("show the total number of skills and standards in the summary")
    b.say("Let me write the plan.")
    b.call("ExitPlanMode", json.dumps({"plan": _PLAN}), "plan-1")
    b.result("plan-1", _REFUSED, error=True)
    b._add("interrupt", "user", "[Request interrupted by user for tool use]")
    b.save(engine)


def _planning_outcome(engine: Engine) -> tuple[str, list[str]]:
    with read_session(engine) as db:
        episode = db.scalars(
            select(Episode).where(Episode.intent_text.like("show the total number%"))
        ).one()
        kinds = [s.kind for s in db.scalars(select(Signal).where(Signal.episode_id == episode.id))]
        return episode.outcome, kinds


@pytest.mark.both_dbs
def test_a_plan_taken_into_a_new_session_is_no_abandoned_plan(engine: Engine, cfg: Config) -> None:
    """PackmindHub/context-evaluator's history opens most of its sessions with "Implement the
    following plan: …", Claude Code 2.1.39 and later's "Yes, and clear context": the
    planning session ends on a refused plan tool and a stop, and the plan comes back as
    the new session's first request a second later."""
    _planning_session(engine)
    implement = SessionBuilder(project="/work/app", start=T0 + timedelta(seconds=61))
    implement.prompt(
        f"Implement the following plan:\n\n{_PLAN}\n\nIf you need specific details from before "
        "exiting plan mode, read the full transcript at: /home/me/.claude/projects/x/y.jsonl"
    )
    implement.say("Done: the summary shows both totals, and the tests pass.")
    implement.save(engine)
    mine(engine, cfg, now=LATER)
    outcome, kinds = _planning_outcome(engine)
    assert outcome == "success"
    assert "tool_rejected" not in kinds and "abandoned" not in kinds


@pytest.mark.parametrize(
    ("project", "after"),
    [
        ("/work/app", None),  # no session took the plan up
        ("/work/app", timedelta(hours=2)),  # pasted into a session started much later
        ("/work/other", timedelta(seconds=61)),  # another project's session
    ],
)
def test_a_plan_refused_and_not_taken_up_at_once_stays_refused(
    engine: Engine, cfg: Config, project: str, after: timedelta | None
) -> None:
    _planning_session(engine)
    if after is not None:
        later = SessionBuilder(project=project, start=T0 + after)
        later.prompt(f"Implement the following plan:\n\n{_PLAN}").say("Done.")
        later.save(engine)
    mine(engine, cfg, now=LATER)
    outcome, kinds = _planning_outcome(engine)
    assert outcome == "abandoned" and "tool_rejected" in kinds


@pytest.mark.both_dbs
def test_a_pass_cut_short_after_its_reading_leaves_no_cluster_figures_stale(
    engine: Engine, cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mining commits a batch of sessions at a time. The clusters a batch touched were
    refreshed only once every batch was read, so a pass cut short in between left them
    as they were for good: here a request that failed after all kept a cluster whose
    success rate said it always worked."""
    from sleepd.mining import recurrence

    b = SessionBuilder(start=T0).prompt("add a dark mode toggle to the settings page")
    b.bash("npm test", "all passed").say("Done: the toggle is there and the tests pass.")
    sid = b.save(engine)
    mine(engine, cfg, now=T0 + timedelta(minutes=5))  # while the session runs
    n = len(b.rows)
    b.prompt("no, that's wrong: the toggle does nothing and the tests still fail")
    b.bash("npm test", "FAIL src/settings.test.ts\n  1 failed", exit_code=1)
    b.say("I could not fix it.")
    b.append(engine, sid, n)

    def cut_short(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt("the pass was stopped")

    monkeypatch.setattr(recurrence, "cluster_new_episodes", cut_short)
    with pytest.raises(KeyboardInterrupt):
        mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        episode = db.scalars(select(Episode)).one()
        cluster = db.get(TaskCluster, episode.cluster_id)
        assert episode.outcome == "failure"
        assert cluster is not None and cluster.success_rate == 0.0


@pytest.mark.both_dbs
def test_a_task_made_on_a_clusters_count_goes_when_the_cluster_stops_recurring(
    engine: Engine, cfg: Config
) -> None:
    """One session is read again alone (its file was read again by a newer harvest, or
    a model is to answer its hard turns) and its episode leaves a cluster, which no
    longer recurs: the other session's task, made on the cluster's count, is weighed
    again with the same rules a first pass uses, and retired."""
    from sqlalchemy import update

    from sleepd.store.engine import write_session

    asked = "add rate limiting to the /api/login endpoint"
    first = SessionBuilder(start=T0).prompt(asked)
    first.bash("pytest tests/test_login.py", "5 passed").say(DONE)
    first.save(engine)
    second = SessionBuilder(start=T0 + timedelta(days=1))
    second.prompt("fix the flaky login test in tests/test_auth.py")
    second.bash("pytest tests/test_auth.py", "3 passed").say(DONE)
    second.prompt("New task: " + asked).bash("pytest tests/test_login.py", "5 passed")
    second.say(DONE)
    second_id = second.save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        before = {t.intent: t.active for t in db.scalars(select(Task))}
    assert before == {asked: True, "New task: " + asked: True}
    # the newer reading: the second request was no prompt the person typed
    with write_session(engine) as db:
        db.execute(
            update(Event)
            .where(Event.session_id == second_id, Event.seq == 5)
            .values(kind="meta", is_meta=True)
        )
        db.execute(update(Session).where(Session.id == second_id).values(mined_with=""))
    again = mine(engine, cfg, now=LATER + timedelta(days=1))
    assert again.sessions_read_again == 1 and again.recurring_clusters == 0
    with read_session(engine) as db:
        assert list(db.scalars(select(Task).where(Task.active.is_(True)))) == []
        kept = db.scalars(select(Task).where(Task.intent == asked)).one()
        assert kept.retired_because == "no_longer_a_task"


@pytest.mark.both_dbs
def test_a_session_mined_while_it_ran_keeps_how_its_last_request_was_read(
    engine: Engine, cfg: Config
) -> None:
    """A session that grew is read on from its last episode's request, which that pass
    opens without reading it again: the episode had lost its opening turn's reading, so a
    one-off failure whose request the rules were unsure of became a task after all."""
    unsure_one_off(engine)
    with read_session(engine) as db:
        last = max(as_utc(ts) for ts in db.scalars(select(Event.ts)) if ts is not None)
    mine(engine, cfg, now=last + timedelta(minutes=5))  # the session is still running
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        episode = db.scalars(select(Episode).where(Episode.intent_text == UNSURE_REQUEST)).one()
        (opening,) = [t for t in episode.turns if t["event_id"] == episode.intent_event_id]
        assert opening["hard"] and opening["kind"] == "new_task"
        assert not [t.intent for t in db.scalars(select(Task)) if "focus area" in t.intent]


@pytest.mark.both_dbs
def test_an_error_a_later_event_makes_benign_leaves_the_patterns_of_a_running_session(
    engine: Engine, cfg: Config
) -> None:
    """A pass that reads a session while the agent works records the failed call as a
    failure; when the agent's next words say it failed as expected, the next pass reads
    it as benign, and its occurrence (and a pattern left with none) goes, as one pass
    over the whole session would never have recorded it."""
    b = SessionBuilder(start=T0).prompt("make the cli reject an empty --name with a clear error")
    b.bash(
        "python cli.py --name ''",
        'Traceback (most recent call last):\n  File "cli.py", line 9\n'
        "ValueError: name must not be empty",
        exit_code=1,
    )
    sid = b.save(engine)
    mine(engine, cfg, now=b.rows[-1]["ts"] + timedelta(seconds=20))  # mid-turn
    n = len(b.rows)
    b.say("Good, as expected: the command rejects the empty name with a clear error.")
    b.bash("pytest -q", "3 passed").say(DONE)
    b.append(engine, sid, n)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        assert list(db.scalars(select(PatternOccurrence))) == []
        assert top_patterns(engine, limit=10, now=LATER, min_count=1) == []


@pytest.mark.parametrize("unread_first", [False, True], ids=["as_written", "unread_first"])
def test_a_session_read_on_stores_its_turns_in_the_order_they_were_typed(
    engine: Engine, cfg: Config, unread_first: bool
) -> None:
    """The continued request's stored reading and the housekeeping typed before it: in the
    order they were typed, as one pass stores them; also when the session's first record
    is one mining does not read (a later build's record at the file's head: a review found
    the housekeeping lost then)."""
    b = SessionBuilder()
    if unread_first:
        b._add("raw", "system", "", raw_type="x-later-build")
    b.prompt("/model").prompt("fix the login bug in src/auth.py").bash("make")
    cut = len(b.rows)
    b.say("Fixed: the session token is refreshed.").prompt("thanks, that works")
    rows = b.rows
    b.rows = rows[:cut]
    sid = b.save(engine)
    b.rows = rows
    mine(engine, cfg, now=T0 + timedelta(minutes=30))  # the session still runs
    b.append(engine, sid, cut)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        seqs = {row[0]: row[1] for row in db.execute(select(Event.id, Event.seq))}
        [episode] = db.scalars(select(Episode)).all()
        order = [seqs[turn["event_id"]] for turn in episode.turns]
    assert order == sorted(order) and len(order) == 3
