"""`sleepd mine`, `sleepd tasks list|show`, `sleepd patterns`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from sqlalchemy.engine import Engine
from typer.testing import CliRunner

from sleepd.cli import mine_cmd, patterns_cmd

from .builders import SessionBuilder


@pytest.fixture
def app(isolated_home: Path) -> typer.Typer:
    (isolated_home / "config.toml").write_text("[mining]\nsimilarity_threshold = 0.2\n")
    root = typer.Typer()

    @root.callback()
    def _root() -> None:
        """test root"""

    mine_cmd.register(root)
    patterns_cmd.register(root)
    return root


def run(app: typer.Typer, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def seed(engine: Engine) -> None:
    b = SessionBuilder().prompt("Set up the project dependencies").bash("npm install")
    b.prompt("no, use pnpm not npm").bash("python x.py", "ImportError: cannot import", exit_code=1)
    b.save(engine)


def test_mine_tasks_and_patterns_as_json(app: typer.Typer, db_engine: Engine) -> None:
    seed(db_engine)
    code, out, _ = run(app, "mine", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["episodes_new"] == 1 and report["tasks_new"] == 1
    code, out, _ = run(app, "tasks", "list", "--json")
    tasks = json.loads(out)
    assert code == 0 and [t["intent"] for t in tasks] == ["Set up the project dependencies"]
    code, out, _ = run(app, "tasks", "list", "--split", "train", "--project", "/nowhere", "--json")
    assert json.loads(out) == []
    code, out, _ = run(app, "tasks", "show", str(tasks[0]["id"]), "--json")
    shown = json.loads(out)
    assert shown["judge_spec"]["version"] == 1 and shown["context"]["project_path"] == "/work/app"
    code, out, _ = run(app, "patterns", "--json")
    assert code == 0 and json.loads(out) == []  # seen once: not a recurring pattern
    code, out, _ = run(app, "patterns", "--all", "--json")
    patterns = json.loads(out)
    assert code == 0 and patterns[0]["error_class"] == "ImportError" and patterns[0]["count"] == 1
    code, out, _ = run(app, "tasks", "list")
    assert code == 0 and "0 recurring, 1 one-off" in out and "one-off" in out.split("\n", 1)[1]


def test_plain_output_and_missing_task(app: typer.Typer, db_engine: Engine) -> None:
    seed(db_engine)
    code, out, _ = run(app, "mine")
    assert code == 0 and "episodes" in out and "1 new" in out
    code, out, _ = run(app, "patterns", "--all", "--limit", "1")
    assert code == 0 and "ImportError" in out
    code, _, err = run(app, "tasks", "show", "999")
    assert code == 3 and "no task with id 999" in err
    # a request asked once is called one-off, never a recurring task "asked 1 times"
    code, out, _ = run(app, "tasks", "show", "1")
    assert code == 0 and "one-off: asked once: Set up the project dependencies" in " ".join(
        out.split()
    )
    assert "recurring" not in out and "1 times" not in out


def test_a_pass_that_read_sessions_again_says_what_that_changed(
    app: typer.Typer, db_engine: Engine
) -> None:
    from sqlalchemy import update

    from sleepd.store.engine import write_session
    from sleepd.store.models import Session

    seed(db_engine)
    code, out, _ = run(app, "mine")
    assert code == 0 and "read again" not in out
    with write_session(db_engine) as db:  # as a store mined by an older sleepd reads
        db.execute(update(Session).values(mined_with="0.0.1:an-older-reader"))
    code, out, _ = run(app, "mine")
    flat = " ".join(out.replace("│", " ").split())
    assert code == 0
    assert "read again 1 session read before by other rules" in flat
    assert "0 episodes they found no longer a request of its own; 0 tasks retired" in flat
    code, out, _ = run(app, "mine", "--json")
    assert json.loads(out)["sessions_read_again"] == 0


def test_a_request_asked_again_only_within_one_session_is_shown_as_one_off() -> None:
    """The labelled sessions' spec-kit run sent ten times in one session had read
    "one-off: asked 10 times in one session", as if the count made it one-off."""
    from sleepd.cli.mine_cmd import _kind_of_request

    cluster = {"size": 10, "sessions": 1, "recurring": False, "representative": "Phase 5"}
    assert _kind_of_request(cluster) == "one-off: asked 10 times, all in one session: Phase 5"
    cluster = {"size": 3, "sessions": 2, "recurring": True, "representative": "/release"}
    assert _kind_of_request(cluster) == "recurring: asked 3 times in 2 sessions: /release"


def test_empty_lists_say_why(app: typer.Typer, db_engine: Engine) -> None:
    """An empty `tasks list` or `patterns` says which of the reasons holds: nothing mined,
    filters that match none of what is there, or mined work of which nothing qualified."""
    code, _, err = run(app, "tasks", "list")
    assert code == 0 and "nothing mined yet" in err
    code, _, err = run(app, "patterns")
    assert code == 0 and "nothing mined yet" in err

    # one request that went well and one tool error: no task, one pattern seen once
    b = SessionBuilder().prompt("Add a dark theme to the settings page")
    b.bash("python x.py", "ImportError: cannot import", exit_code=1).say("Done: dark theme added.")
    b.prompt("thanks, perfect")
    b.save(db_engine)
    assert run(app, "mine")[0] == 0
    code, _, err = run(app, "tasks", "list")
    assert code == 0 and "nothing mined" not in err
    assert "no tasks yet: of 1 episode mined, 0 ended in failure" in err
    assert "0 of 1 kinds of request recurred" in err
    code, _, err = run(app, "patterns")
    assert code == 0 and "1 pattern seen once" in err and "--all" in err
    code, _, err = run(app, "patterns", "--project", "/elsewhere")
    assert code == 0 and "no failure patterns in this project: no failure found" in err


def test_an_empty_filtered_task_list_says_what_there_is(
    app: typer.Typer, db_engine: Engine
) -> None:
    seed(db_engine)
    assert run(app, "mine")[0] == 0
    code, _, err = run(app, "tasks", "list", "--project", "/nowhere")
    assert code == 0 and "no task matches --split/--project (1 task in all)" in err


def test_the_list_shows_the_opening_request_and_counts_its_refinements(
    app: typer.Typer, db_engine: Engine
) -> None:
    """A task's folded follow-ups are in `tasks show`; the list keeps to the words that
    opened the task, cut at a word when long, with how many refinements it holds."""
    opening = "Set up the project dependencies for the " + "payments service " * 20
    b = SessionBuilder().prompt(opening).bash("npm install")
    b.prompt("also pin the versions in the lockfile please").bash("npm shrinkwrap")
    b.prompt("no, use pnpm not npm")
    b.bash("python x.py", "ImportError: cannot import", exit_code=1)
    b.save(db_engine)
    assert run(app, "mine")[0] == 0
    code, out, _ = run(app, "tasks", "list", "--json")
    intent = json.loads(out)[0]["intent"]
    assert "also pin the versions" in intent  # the refinement is folded into the task
    code, out, _ = run(app, "tasks", "list")
    listed = " ".join(out.split())
    assert code == 0 and "(+1 refinement)" in listed and "…" in listed
    assert "Refinements the user added" not in listed and "also pin" not in listed


def test_each_folded_refinement_is_counted_once_however_many_lines_it_has() -> None:
    from sleepd.mining.tasks import intent_parts, task_intent

    folded = task_intent("Fix the login form", ["also:\n- trim the email\n- lower-case it", "ok"])
    assert intent_parts(folded) == ("Fix the login form", 2)
    assert intent_parts("Fix the login form") == ("Fix the login form", 0)
    assert intent_parts(task_intent("Fix it", [" ", ""])) == ("Fix it", 0)


def test_one_refusal_of_edit_and_write_is_one_pattern_shown_as_theirs(
    app: typer.Typer, db_engine: Engine
) -> None:
    """Claude Code refuses Edit and Write in the same words when the file was not read
    first (18 and 8 times on the labelled sessions): one recurring pattern, shown under
    both tools rather than the one that failed first."""
    refused = (
        "<tool_use_error>File has not been read yet. Read it first before writing to it."
        "</tool_use_error>"
    )
    b = SessionBuilder().prompt("Rename the config loader and update its callers")
    b.call("Write", json.dumps({"file_path": "/work/app/a.py", "content": "x"}), "w1")
    b.result("w1", refused, error=True)
    b.call("Edit", json.dumps({"file_path": "/work/app/b.py", "old_string": "a"}), "e1")
    b.result("e1", refused, error=True)
    b.save(db_engine)
    assert run(app, "mine", "--json")[0] == 0
    code, out, _ = run(app, "patterns", "--json")
    (pattern,) = json.loads(out)
    assert code == 0 and pattern["count"] == 2
    code, out, _ = run(app, "patterns")
    assert code == 0 and "Edit/Write" in out and "File has not been read yet." in out


def test_a_failure_first_met_through_a_poll_is_shown_under_the_command_tool(
    app: typer.Typer, db_engine: Engine
) -> None:
    """Codex's `write_stdin` only polls a command `exec_command` started; a pattern first
    seen through a poll read "write_stdin" in `sleepd patterns` (a real Codex session's
    .NET timeout), naming the poll, not the command that failed."""
    timed_out = (
        "Chunk ID: 1a2b3c\nWall time: 30.0 seconds\nProcess exited with code 1\nOutput:\n"
        "TimeoutException: The operation has timed out."
    )
    b = SessionBuilder().prompt("Start the language server and check it answers")
    for n in (1, 2):
        b.call("write_stdin", json.dumps({"session_id": n, "chars": ""}), f"p{n}")
        b.result(f"p{n}", timed_out, error=True)
    b.save(db_engine)
    assert run(app, "mine", "--json")[0] == 0
    code, out, _ = run(app, "patterns")
    assert code == 0 and "TimeoutException" in out
    assert "exec_command" in out and "write_stdin" not in out
    code, out, _ = run(app, "patterns", "--json")
    assert [p["tool_name"] for p in json.loads(out)] == ["write_stdin"]  # as stored


def test_a_cut_task_list_counts_every_task_and_says_it_was_cut(
    app: typer.Typer, db_engine: Engine
) -> None:
    """The title had counted only the rows shown: with the default limit a history of
    468 tasks (7 one-off) was titled "199 recurring, 1 one-off" and never said more
    existed, while `status` said 461 and 7."""
    for _ in range(3):
        SessionBuilder().prompt("Set up the project dependencies").bash("npm install").save(
            db_engine
        )
    # a request asked once that failed: a one-off task
    b = SessionBuilder().prompt("Rename the logger module to journal").bash("git mv a b")
    b.prompt("no, keep the old name").bash("python x.py", "ImportError: x", exit_code=1)
    b.save(db_engine)
    assert run(app, "mine")[0] == 0
    every = json.loads(run(app, "tasks", "list", "--json")[1])
    recurring = sum(1 for task in every if task["recurring"])
    assert len(every) >= 3 and 0 < recurring < len(every)
    code, out, _ = run(app, "tasks", "list", "--limit", "1")
    flat = " ".join(out.split())
    assert code == 0
    assert f"Mined tasks: {recurring} recurring, {len(every) - recurring} one-off" in flat
    assert f"These are the first 1 of {len(every)}; `--limit N` shows more." in flat
    code, out, _ = run(app, "tasks", "list")
    assert code == 0 and "These are the first" not in out


def test_mine_again_reads_every_mined_session_again_and_changes_nothing_else(
    app: typer.Typer, db_engine: Engine
) -> None:
    seed(db_engine)
    SessionBuilder().prompt("write a haiku about compilers").say("Tokens fall.").save(db_engine)
    first = json.loads(run(app, "mine", "--json")[1])
    assert first["sessions_mined"] == 2
    code, out, _ = run(app, "mine", "--again", "--json")
    again = json.loads(out)
    assert code == 0 and again["sessions_read_again"] == 2
    assert (again["episodes_new"], again["episodes_gone"], again["tasks_retired"]) == (0, 0, 0)
    assert again["episodes_total"] == first["episodes_total"]
    assert again["tasks_by_split"] == first["tasks_by_split"]
    assert json.loads(run(app, "mine", "--json")[1])["sessions_read_again"] == 0


def test_the_nights_mining_line_counts_the_sessions_read_again_when_there_were_some() -> None:
    from sleepd.cli.night_view import mine_line

    quiet = mine_line({"sessions_mined": 3, "sessions_read_again": 0, "episodes_new": 1})
    assert quiet == "3 sessions read, 1 new episodes"
    again = mine_line({"sessions_mined": 3, "sessions_read_again": 2, "episodes_new": 1})
    assert again == "3 sessions read, 2 of them read again by new rules, 1 new episodes"


def test_retired_tasks_are_listed_only_when_asked_for_and_say_so(
    app: typer.Typer, db_engine: Engine
) -> None:
    from sleepd.config import Config
    from sleepd.mining import mine as mine_module
    from sleepd.mining import task_mining
    from sleepd.mining.mine import mine

    SessionBuilder().prompt("write a haiku about compilers").say("Tokens fall.").save(db_engine)
    cfg = Config()
    with pytest.MonkeyPatch.context() as older:
        # an older task step made a task of every request; today's makes none of this one
        older.setattr(task_mining, "_useful", lambda *_args: True)
        older.setattr(mine_module, "reading_rules", lambda _cfg: "0.0.1:an-older-reader")
        mine(db_engine, cfg)
    code, out, _ = run(app, "tasks", "list", "--json")
    (task,) = json.loads(out)
    assert mine(db_engine, cfg).tasks_retired == 1

    code, out, err = run(app, "tasks", "list")
    assert code == 0 and "haiku" not in out and "no tasks yet" in err
    assert "1 task retired when newer rules read their sessions again" in " ".join(err.split())
    assert json.loads(run(app, "tasks", "list", "--json")[1]) == []
    code, out, _ = run(app, "tasks", "list", "--retired")
    flat = " ".join(out.replace("│", " ").split())
    assert code == 0 and "haiku" in flat and "(retired)" in flat
    (listed,) = json.loads(run(app, "tasks", "list", "--retired", "--json")[1])
    assert listed["id"] == task["id"] and listed["active"] is False
    code, out, _ = run(app, "tasks", "show", str(task["id"]))
    flat = " ".join(out.replace("│", " ").split())
    assert code == 0 and "in the nights no: retired when newer rules read its session" in flat
    assert "today's rules make no task of its episode" in flat  # which rule, in words
    shown = json.loads(run(app, "tasks", "show", str(task["id"]), "--json")[1])
    assert shown["retired_because"] == "no_longer_a_task"


def test_a_command_tasks_show_prints_the_commands_text_whole(
    app: typer.Typer, db_engine: Engine
) -> None:
    """The person reads what a replay of "/release patch" will be asked, to its end."""
    from datetime import timedelta

    from .builders import T0
    from .test_command_families import command

    steps = "".join(f"{i}. step {i} of the release workflow\n" for i in range(1, 120))
    text = f"# /release — Automated Release Workflow\n\n**Arguments**: patch\n\n{steps}LAST-STEP"
    for day in range(2):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(command("release", "patch")).meta(text)
        b.bash("npm version patch", "v1.2.4").say("Released v1.2.4.")
        b.save(db_engine)
    assert run(app, "mine")[0] == 0
    code, out, _ = run(app, "tasks", "list", "--json")
    task = json.loads(out)[0]  # (the two sessions' tasks are alike)
    code, out, _ = run(app, "tasks", "show", str(task["id"]))
    flat = " ".join(out.replace("│", " ").split())
    assert code == 0 and "context: command text" in flat
    assert "step 119 of the release workflow" in flat and "LAST-STEP" in flat
    code, out, _ = run(app, "tasks", "show", str(task["id"]), "--json")
    assert json.loads(out)["context"]["command_text"] == text


def test_tasks_show_says_how_the_replay_commit_was_found_and_the_branch_moved_to(
    app: typer.Typer, db_engine: Engine
) -> None:
    from sleepd.store.engine import write_session
    from sleepd.store.models import TaskReplaySite

    seed(db_engine)
    assert run(app, "mine")[0] == 0
    code, out, _ = run(app, "tasks", "list", "--json")
    task_id = json.loads(out)[0]["id"]
    with write_session(db_engine) as db:
        for site in db.query(TaskReplaySite).filter_by(task_id=task_id):
            db.delete(site)
        db.flush()
        db.add(
            TaskReplaySite(
                task_id=task_id, repo_root="/work/app", commit="a" * 40,
                commit_source="merged-branch", branch="soph/issue-63",
            )
        )  # fmt: skip
    code, out, _ = run(app, "tasks", "show", str(task_id))
    flat = " ".join(out.replace("│", " ").split())
    assert code == 0
    assert "read off the merge that took it in; the branch is gone" in flat
    assert "soph/issue-63 (the work tree had moved to it)" in flat
    assert "merged-branch" not in flat  # the code itself is for --json
