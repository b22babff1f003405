"""An accepted plan is compared by what it asks, not by the frame every plan shares, and
the planning that made it is one request with it."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining import mine as mine_module
from sleepd.mining import persist as persist_module
from sleepd.mining.mine import mine
from sleepd.mining.recurrence import request_of
from sleepd.store.engine import read_session
from sleepd.store.models import Episode, Task

from .builders import DONE, LATER, T0, SessionBuilder

#: The frame of Claude Code's first message after a plan is accepted with a fresh context;
#: titles and sections as in real plans of one repository (ClusterCockpit/cc-backend).
FRAME = """Implement the following plan:

# Plan: {title}

## Context

{context}

## Files to modify

- `internal/repository/stats.go` — the query builder
- `internal/api/rest.go` — the handler
- `web/frontend/src/Jobs.root.svelte`

## Verification

1. `go build ./...`
2. `go test ./internal/repository/...`
3. Open the jobs list in the web UI and check the numbers.
"""

PLANS = [
    (
        "Fix: buildStatsQuery hangs on the users list page",
        "The users list page executes a GROUP BY job.hpc_user stats query; on production "
        "databases with hundreds of thousands of jobs this query never returns.",
    ),
    (
        "Add RRDTool-style Average Consolidation Function to Resampler",
        "The current downsampler offers two algorithms, LTTB and simple decimation; add an "
        "average consolidation so that long ranges keep their mean.",
    ),
    (
        "Line Protocol Parse Errors During Retention",
        "During retention, concurrent /api/write requests fail with truncated line protocol "
        "errors; all of them report end of input at the same second.",
    ),
]


def test_the_request_of_a_plan_is_its_title_and_first_paragraph() -> None:
    title, context = PLANS[0]
    request = request_of(FRAME.format(title=title, context=context))
    assert request.splitlines()[0] == title
    assert "GROUP BY job.hpc_user" in request and "Verification" not in request
    assert request_of("fix the flaky login test") == "fix the flaky login test"


def test_different_plans_of_one_repository_are_different_requests(
    engine: Engine, cfg: Config
) -> None:
    for day, (title, context) in enumerate(PLANS):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(FRAME.format(title=title, context=context)).say(DONE).save(engine)
    # the first plan accepted again a week later, reworded: the same request
    title, context = PLANS[0]
    again = FRAME.format(title=title.replace("Fix: ", ""), context=context + " Still slow.")
    SessionBuilder(start=T0 + timedelta(days=7)).prompt(again).say(DONE).save(engine)
    report = mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        clusters = list(db.scalars(select(Episode.cluster_id).order_by(Episode.id)))
    assert report.recurring_clusters == 1
    assert clusters[0] == clusters[3] and len(set(clusters)) == 3


#: A plan as the agent writes it, and Claude Code's refusal of the plan tool with which
#: "Yes, and clear context" takes it (PackmindHub/context-evaluator's public history).
PLAN = "# Plan: Show Total Skills & Standards\n\n## Context\nThe summary lists only issues."
REFUSED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). STOP what you are doing and "
    "wait for the user to tell you how to proceed."
)
ASKED = "show the total number of skills and standards in the summary"


def _plans(b: SessionBuilder, *, worked_first: bool = False) -> SessionBuilder:
    """The person's request, then the agent's plan (written to Claude Code's plans
    folder), taken by a refusal and a stop; `worked_first`: the agent changed a file of
    the project before it planned the next step."""
    b.prompt(ASKED)
    if worked_first:
        edit = {"file_path": "/work/app/src/summary.ts", "old_string": "a", "new_string": "b"}
        b.call("Edit", json.dumps(edit), "edit-1").result("edit-1", "The file was updated.")
    b.say("Let me write the plan.")
    write = {"file_path": "/home/me/.claude/plans/glimmering-toasting-fern.md", "content": PLAN}
    b.call("Write", json.dumps(write), "write-1").result("write-1", "File created.")
    b.call("ExitPlanMode", json.dumps({"plan": PLAN}), "plan-1")
    b.result("plan-1", REFUSED, error=True)
    return b.interrupt()


def _implements(b: SessionBuilder) -> SessionBuilder:
    return b.prompt(f"Implement the following plan:\n\n{PLAN}").say(DONE)


def _history(engine: Engine, *, handed_to_a_new_session: bool, worked_first: bool = False) -> None:
    """A request planned and its plan taken (in a new session a minute later, as Claude
    Code 2.1.3x and later do, or in the same one, as earlier versions did), and the same
    request asked again in a session a week later."""
    planning = _plans(SessionBuilder(start=T0), worked_first=worked_first)
    if handed_to_a_new_session:
        planning.save(engine)
        handed_at = planning.rows[-1]["ts"] + timedelta(seconds=1)
        _implements(SessionBuilder(start=handed_at)).save(engine)
    else:
        _implements(planning).save(engine)
    again = SessionBuilder(start=T0 + timedelta(days=7))
    again.prompt(ASKED + " please").say(DONE).save(engine)


def _requests(engine: Engine) -> dict[str, tuple[bool, int | None, int]]:
    """Each request's first line: (handed on, its cluster, its active tasks)."""
    with read_session(engine) as db:
        tasks = list(db.scalars(select(Task.episode_id).where(Task.active.is_(True))))
        return {
            e.intent_text.splitlines()[0]: (e.plan_handed_on, e.cluster_id, tasks.count(e.id))
            for e in db.scalars(select(Episode).order_by(Episode.id))
        }


@pytest.mark.both_dbs
@pytest.mark.parametrize("handed_to_a_new_session", [True, False])
def test_a_planning_episode_and_the_plan_it_handed_on_are_one_request(
    engine: Engine, cfg: Config, handed_to_a_new_session: bool
) -> None:
    """Counted as two, the plan taken into a new session looked like a request asked in
    two sessions (recurring) and made two tasks, one of them holding only the planning.
    The planning is clustered nowhere and makes no task; the episode its plan went to
    holds the request and its work, and recurs with the same request asked later."""
    _history(engine, handed_to_a_new_session=handed_to_a_new_session)
    report = mine(engine, cfg, now=LATER)
    requests = _requests(engine)
    implementing = requests["Implement the following plan:"]
    assert requests[ASKED] == (True, None, 0)
    assert implementing[0] is False and implementing[2] == 1
    assert requests[ASKED + " please"] == (False, implementing[1], 1)
    assert report.recurring_clusters == 1 and report.tasks_new == 2


@pytest.mark.both_dbs
def test_a_task_made_of_a_planning_episode_before_is_retired_when_read_again(
    engine: Engine, cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    _history(engine, handed_to_a_new_session=True)
    # the rules before: the planning was a request of its own
    monkeypatch.setattr(persist_module, "_plan_handed_on", lambda *_a, **_k: False)
    monkeypatch.setattr(mine_module, "reading_rules", lambda _cfg: "0.0.9:an-older-reader")
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        planning = db.scalars(select(Episode).where(Episode.intent_text == ASKED)).one()
        (made,) = db.scalars(select(Task).where(Task.episode_id == planning.id))
        made_id = made.id
    monkeypatch.undo()

    report = mine(engine, cfg, now=LATER)
    assert report.sessions_read_again == 3 and report.tasks_retired == 1
    with read_session(engine) as db:
        retired = db.get(Task, made_id)
        assert retired is not None
        assert (retired.active, retired.episode_id, retired.retired_because) == (
            False,
            None,
            "plan_handed_on",
        )
        assert len(list(db.scalars(select(Task).where(Task.active.is_(True))))) == 2
    assert _requests(engine)[ASKED] == (True, None, 0)


def test_an_episode_that_worked_before_its_agent_planned_the_next_step_is_its_own_request(
    engine: Engine, cfg: Config
) -> None:
    """The agent changed the project, then planned the next step and the plan was taken:
    the episode's request was asked and worked on, whatever became of the plan."""
    _history(engine, handed_to_a_new_session=True, worked_first=True)
    mine(engine, cfg, now=LATER)
    handed_on, cluster, _made = _requests(engine)[ASKED]
    assert handed_on is False and cluster is not None


@pytest.mark.parametrize(
    ("project", "tool", "written", "planned"),
    [
        ("/work/app", "Write", "/home/me/.claude/plans/a.md", True),
        ("/work/app", "Write", "/home/me/.config/claude/plans/a.md", True),  # configured elsewhere
        ("/home/me", "Write", "/home/me/.claude/plans/a.md", True),  # a project at home
        (None, "Write", "/home/me/.claude/plans/a.md", True),
        ("C:\\src\\app", "Write", "C:\\Users\\me\\.claude\\plans\\a.md", True),
        ("/work/app", "Write", "/work/app/docs/plan.md", False),
        ("/work/app", "Write", "/work/app/docs/plans/next.md", False),  # a plan kept in the repo
        ("/work/app", "Edit", "/work/app-worktrees/feat/src/x.py", False),  # a linked worktree
        ("/mono", "Edit", "/elsewhere/api/x.py", False),
        ("C:\\src\\app", "Write", "c:\\src\\app\\main.py", False),
        ("/work/app", "Write", "src/a.py", False),  # a relative path is the project's
        ("/work/app", "Write", "/home/me/.claude/plans/../../../work/app/a.md", False),
        ("/work/app", "Write", "/home/me/.claude/plans/a.py", False),
    ],
)
def test_only_a_plan_file_is_no_work_done(
    project: str | None, tool: str, written: str, planned: bool
) -> None:
    from types import SimpleNamespace

    from sleepd.mining.plan_handback import only_planned

    call = SimpleNamespace(
        kind="tool_call", tool_name=tool, text=json.dumps({"file_path": written})
    )
    assert only_planned(SimpleNamespace(events=[call]), project) is planned  # type: ignore[arg-type]
    patch = SimpleNamespace(
        kind="tool_call", tool_name="apply_patch", text="*** Begin Patch\n*** Update File: a.py\n"
    )
    assert only_planned(SimpleNamespace(events=[patch]), "/work/app") is False  # type: ignore[arg-type]


@pytest.mark.both_dbs
def test_a_planning_episode_waits_unclustered_while_its_plan_may_still_be_taken(
    engine: Engine, cfg: Config
) -> None:
    """A pass that reads the session while the plan waits cannot tell whether it will be
    taken: the planning is clustered nowhere yet. Taken, it stays so; left, it becomes a
    request of its own once its session ends."""
    taken = _plans(SessionBuilder(start=T0))
    taken_id = taken.save(engine)
    left = _plans(SessionBuilder(start=T0 + timedelta(minutes=30)))
    left.rows[0]["text"] = ASKED + " and the tests"
    left.save(engine)
    mine(engine, cfg, now=T0 + timedelta(minutes=40))  # both sessions still open
    assert _requests(engine)[ASKED] == (True, None, 0)
    assert _requests(engine)[ASKED + " and the tests"] == (True, None, 0)
    n = len(taken.rows)
    _implements(taken).append(engine, taken_id, n)
    mine(engine, cfg, now=LATER)
    requests = _requests(engine)
    assert requests[ASKED] == (True, None, 0)
    assert requests["Implement the following plan:"][1] is not None
    handed_on, cluster, _made = requests[ASKED + " and the tests"]
    assert handed_on is False and cluster is not None


@pytest.mark.both_dbs
def test_a_plan_taken_up_before_its_planning_session_ends_makes_no_recurrence(
    engine: Engine, cfg: Config
) -> None:
    """The planning session stays open for hours after the plan went to a new session,
    where the person asks a second thing. Clustered meanwhile, the planning made the
    plan's episode look asked in two sessions, and its task stayed when the planning
    left the cluster."""
    planning = _plans(SessionBuilder(start=T0))
    planning.save(engine)
    handed_at = planning.rows[-1]["ts"] + timedelta(seconds=1)
    implementing = _implements(SessionBuilder(start=handed_at))
    implementing.prompt("now add a legend to the chart").say(DONE).save(engine)
    early = mine(engine, cfg, now=T0 + timedelta(minutes=30))
    assert early.tasks_new == 0 and _requests(engine)[ASKED] == (True, None, 0)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        assert list(db.scalars(select(Task).where(Task.active.is_(True)))) == []


def test_a_planning_session_taken_up_again_later_leaves_its_plan_handed_on(
    engine: Engine, cfg: Config
) -> None:
    """The person comes back to the planning session days after its plan went to a new
    session (`claude --resume`) and asks something else: the planning is still one
    request with the episode its plan went to."""
    _history(engine, handed_to_a_new_session=True)
    mine(engine, cfg, now=LATER)
    planning = _plans(SessionBuilder(start=T0))  # the same session, grown
    with read_session(engine) as db:
        episode = db.scalars(select(Episode).where(Episode.intent_text == ASKED)).one()
        session_id, n = episode.session_id, episode.end_seq
    back = LATER + timedelta(days=1)
    planning.rows = planning.rows[:n]
    planning.prompt("/review the summary component").say(DONE)  # a request of its own
    for row in planning.rows[n:]:
        row["ts"] = back
    planning.append(engine, session_id, n)
    mine(engine, cfg, now=back + timedelta(days=1))
    assert _requests(engine)[ASKED] == (True, None, 0)
