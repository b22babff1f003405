"""A request over the changes at hand, and whether the session had left them uncommitted.

The requests are from entireio/cli's and entireio/git-sync's histories (MIT; rebuilt from
their public `entire/checkpoints/v1` branches, not in the repository), where a blind review
of the replay tasks found them with nothing to act on in a checkout, beside constructed
ones of the same forms and requests that name work of their own.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import Engine, select, update

from sleepd.config import Config
from sleepd.mining.mine import mine
from sleepd.mining.turns.changes import works_over_the_changes, works_the_branch_state
from sleepd.mining.working_tree import left_uncommitted, names_a_file_made
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import Episode, Event, Session, Task

from .builders import LATER, T0, SessionBuilder


@pytest.mark.parametrize(
    "text",
    [
        "/simplify",
        "/review",
        "/requesting-code-review",
        "/code-review",
        "/superpowers:execute-plan",
        "<command-message>simplify</command-message>\n<command-name>/simplify</command-name>",
        "let's review the code we've created for this branch",
        "can you review the changes in the branch now once more as a whole",
        "can you do meaningful commits?",
        # constructed
        "please double-check the changes you made",
        "ok, clean up the code we wrote so far",
    ],
)
def test_a_request_over_the_changes_at_hand(text: str) -> None:
    assert works_over_the_changes(text)


@pytest.mark.parametrize(
    "text",
    [
        "/review 158",
        "/release patch",
        "/changelog",
        "/superpowers:write-plan",
        "review the parser code",
        "simplify the sync flags",
        "do meaningful commits and open a PR",
        "review the changes in this branch and fix the failing test",
        "",
    ],
)
def test_a_request_with_an_object_of_its_own(text: str) -> None:
    assert not works_over_the_changes(text)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli and entireio/git-sync: four replay tasks of one cluster, and two more
        "got merge conflicts from parent alex/ent-221-phase-aware-git-hooks",
        "fix merge conflicts from parent please",
        "we need to fix some merge conflicts",
        "we need to fix merge conflicts from our parent branch (on origin)",
        "can you rebase soph/progress-indicators onto soph/smart-subdivision",
        "can you now also do a rebase for soph/ssh-e2e-docker",
        # constructed
        "there are merge conflicts",
        "rebase onto main please",
    ],
)
def test_a_merges_conflicts_or_a_rebase_is_work_on_the_branches_state(text: str) -> None:
    assert works_the_branch_state(text)


@pytest.mark.parametrize(
    "text",
    [
        "fix the merge conflict detection in sync.go",
        "rebase the migration numbering",
        "resolve merge conflicts and add tests for the parser",
        "fix merge conflicts from parent and add tests",
    ],
)
def test_work_of_its_own_beside_a_merge_or_a_rebase(text: str) -> None:
    assert not works_the_branch_state(text)


def _session(engine: Engine, *steps: tuple[str, str]) -> dict[int, int]:
    """A session of the given steps, each ("write"|"patch"|"commit"|"failed commit"|
    "own commit"|"request", …); returns the request episodes' start seqs by their id."""
    b = SessionBuilder()
    starts: list[int] = []
    for n, (step, arg) in enumerate(steps):
        if step == "request":
            b.prompt(arg)
            starts.append(len(b.rows))
        elif step == "write":
            b.call("Edit", json.dumps({"file_path": arg, "old_string": "a"}), f"w{n}")
            b.result(f"w{n}", "updated")
        elif step == "patch":  # an older Codex ran its patch tool through the shell
            patch = f"*** Begin Patch\n*** Update File: {arg}\n*** End Patch"
            b.call("shell", json.dumps({"command": ["apply_patch", patch]}), f"p{n}")
            b.result(f"p{n}", "Done!")
        elif step == "commit":
            b.bash(f'git add -A && git commit -m "{arg}"', "[main 1a2b3c4] x")
        elif step == "failed commit":
            b.bash(f'git commit -m "{arg}"', "nothing added to commit", exit_code=1)
        elif step == "own commit":
            b.meta(f"<bash-input>git commit -am '{arg}'</bash-input>")
    session_id = b.save(engine)
    with read_session(engine) as db:
        prompts = db.scalars(
            select(Event.seq).where(Event.session_id == session_id, Event.kind == "user_prompt")
        ).all()
    return {seq: session_id for seq in prompts}


@pytest.mark.parametrize(
    ("steps", "left"),
    [
        ((("write", "a.go"),), True),
        ((("patch", "a.go"),), True),
        ((("write", "a.go"), ("commit", "a")), False),
        ((("write", "a.go"), ("failed commit", "a")), True),
        ((("write", "a.go"), ("own commit", "a")), False),
        ((("write", "a.go"), ("commit", "a"), ("write", "b.go")), True),
        ((), False),
    ],
)
def test_what_the_session_left_uncommitted_before_a_request(
    engine: Engine, steps: tuple[tuple[str, str], ...], left: bool
) -> None:
    starts = _session(engine, ("request", "add a flag"), *steps, ("request", "/simplify"))
    [first, later] = sorted(starts)
    session_id = starts[later]
    episodes = [
        Episode(id=1, session_id=session_id, start_seq=first),
        Episode(id=2, session_id=session_id, start_seq=later),
    ]
    with read_session(engine) as db:
        assert set(left_uncommitted(db, episodes)) == ({2} if left else set())


@pytest.mark.parametrize(
    ("commits_after", "left"), [(None, True), ("subagent", False), ("parent", False)]
)
def test_a_subagents_writes_are_the_sessions_by_their_time(
    engine: Engine, commits_after: str | None, left: bool
) -> None:
    """A subagent (a session of its own) wrote the code; its records have no place in the
    parent's order, only their time. A commit after them, by it or by the parent, takes
    them up."""
    parent = SessionBuilder(start=T0)
    parent.prompt("implement the plan in docs/plan.md with a subagent")
    parent.call("Task", json.dumps({"prompt": "implement docs/plan.md"}), "t1")
    parent.result("t1", "Done: wrote sync.go")
    if commits_after == "parent":
        parent.bash('git commit -am "sync"', "[main 1a2b3c4] sync")
    parent.say("The subagent implemented the plan.").prompt("/simplify")
    parent_id = parent.save(engine)
    child = SessionBuilder(start=T0 + timedelta(seconds=15), kind="subagent", parent_id=parent_id)
    child.prompt("implement docs/plan.md")
    child.call("Write", json.dumps({"file_path": "/work/app/sync.go", "content": "x"}), "w1")
    child.result("w1", "File created")
    if commits_after == "subagent":
        child.bash('git add -A && git commit -m "sync"', "[main 1a2b3c4] sync")
    child.save(engine)
    request_seq = len(parent.rows)
    episode = Episode(
        id=7,
        session_id=parent_id,
        start_seq=request_seq,
        started_at=parent.rows[-1]["ts"] + timedelta(minutes=5),
    )
    with read_session(engine) as db:
        assert set(left_uncommitted(db, [episode])) == ({7} if left else set())
        # without the request's time nothing places the subagent's write: kept
        episode.started_at = None
        assert set(left_uncommitted(db, [episode])) == set()


@pytest.mark.parametrize(
    ("commit_in", "left"), [(None, True), ("first file", False), ("new file", False)]
)
def test_what_the_conversations_first_file_left_is_the_new_files_too(
    engine: Engine, commit_in: str | None, left: bool
) -> None:
    """A conversation resumed or forked into a new file: what the agent wrote in the first
    file and nobody committed is no more in a checkout of the new file's requests than
    what it wrote there. The first file's records are placed by their time; a commit in
    either file takes them up."""
    first = SessionBuilder(start=T0)
    first.prompt("write the tasks for phase 5 in specs/001/tasks.md")
    patch = "*** Begin Patch\n*** Add File: specs/001/tasks.md\n+T026\n*** End Patch"
    first.call("apply_patch", patch, "p1").result("p1", "Done!")
    if commit_in == "first file":
        first.bash('git commit -am "tasks"', "[main 1a2b3c4] tasks")
    first.say("Wrote the tasks.")
    first_id = first.save(engine)
    new = SessionBuilder(start=T0 + timedelta(hours=1), kind="fork", parent_id=first_id)
    if commit_in == "new file":
        new.bash('git commit -am "tasks"', "[main 1a2b3c4] tasks")
    new.prompt("implement T026-T030 from specs/001/tasks.md")
    new_id = new.save(engine)
    episode = Episode(
        id=5, session_id=new_id, start_seq=len(new.rows), started_at=new.rows[-1]["ts"]
    )
    with read_session(engine) as db:
        assert set(left_uncommitted(db, [episode])) == set()  # not known to carry it on
    with write_session(engine) as db:
        db.execute(
            update(Session).where(Session.id == new_id).values(conversation_session_id=first_id)
        )
    with read_session(engine) as db:
        found = left_uncommitted(db, [episode])
    assert set(found) == ({5} if left else set())
    if left:
        assert found[5] == frozenset({"specs/001/tasks.md"})


def test_the_files_a_session_made_and_left_are_named_with_the_episode(engine: Engine) -> None:
    """A `Write` and a patch's `Add File` make a file; an `Edit` changes one the checkout
    has. A commit after them takes them up."""
    b = SessionBuilder()
    b.prompt("write a plan for the sync rewrite")
    plan = json.dumps({"file_path": "/work/app/docs/plans/sync.md", "content": "# Plan"})
    b.call("Write", plan, "w1").result("w1", "File created")
    patch = "*** Begin Patch\n*** Add File: specs/001/tasks.md\n+T026\n*** End Patch"
    b.call("shell", json.dumps({"command": ["apply_patch", patch]}), "p1").result("p1", "Done!")
    b.call("Edit", json.dumps({"file_path": "/work/app/sync.go", "old_string": "a"}), "e1")
    b.result("e1", "updated")
    b.say("Wrote the plan.").prompt("implement the plan in docs/plans/sync.md")
    session_id = b.save(engine)
    episode = Episode(id=3, session_id=session_id, start_seq=len(b.rows))
    with read_session(engine) as db:
        made = left_uncommitted(db, [episode])[3]
    assert made == {"/work/app/docs/plans/sync.md", "specs/001/tasks.md"}
    assert names_a_file_made("implement the plan in docs/plans/sync.md", made)
    assert names_a_file_made("do T026 from tasks.md", made)
    assert not names_a_file_made("fix the race in sync.go", made)  # edited: the checkout has it
    assert not names_a_file_made("update docs/plans/other.md", made)


@pytest.mark.both_dbs
@pytest.mark.parametrize("committed", [False, True])
def test_a_request_naming_a_file_the_session_made_and_left_is_no_task(
    engine: Engine, cfg: Config, committed: bool
) -> None:
    """The labelled set: spec-kit's implement step over tasks.md, which the session had
    generated and not committed; a replay's checkout has no tasks.md."""
    for day in range(2):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt("write the plan for the export feature to docs/plans/export.md")
        plan = json.dumps({"file_path": "/work/app/docs/plans/export.md", "content": "# Plan"})
        b.call("Write", plan, "w1").result("w1", "File created")
        if committed:
            b.bash('git add -A && git commit -m "plan"', "[main 1a2b3c4] plan")
        b.say("The plan is in docs/plans/export.md.")
        b.prompt("/implement docs/plans/export.md")
        b.bash("go test ./...", "FAIL export_test.go:12", exit_code=1)
        b.bash("go test ./...", "ok").say("Implemented.")
        b.save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        intents = {task.intent.splitlines()[0] for task in db.scalars(select(Task))}
    assert ("/implement docs/plans/export.md" in intents) is committed
