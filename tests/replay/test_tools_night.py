"""End to end: `sleepd run` in tools mode on real git, a real pytest suite, simulated agents.

Codex sessions (synthetic, real on-disk format) show an agent failing to fix a failing
test at a recorded commit. The night harvests and mines them, replays the tasks with
the simulated `claude` and `codex` acting in scratch checkouts (the document is an
AGENTS.md that CLAUDE.md imports, so both agents consume it), runs the project's
pytest suite after each rollout, and stages the edit that makes the agents fix the
bug. The user's repository stays byte-identical.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from sleepd.backends.sim.optimizer import OptimizerRates
from sleepd.cli.app import app
from sleepd.demo.tools_world import ToolsWorld, build
from sleepd.store.engine import make_engine
from sleepd.store.models import Proposal, Rollout, TaskReplaySite

from .conftest import tree_digest

pytestmark = pytest.mark.slow

CONFIG = """
[backends]
default = "sim"
use_batch = false
[dream]
rollouts_per_task = 1
candidates_per_night = 2
min_tasks = 6
max_tasks_per_split = 3
[mining]
# Cluster keys (and so the train/val split) independent of the test's temporary
# project path: with per-project scope the split was a fresh draw on every run.
cross_project = true
[gate]
min_tasks = 3
calibrate = false
sequential_rounds = 1
[replay]
mode = "tools"
nice = 0
rollout_wall_seconds = 120
test_timeout_seconds = 120
[[targets]]
project = "{project}"
path = "{project}/AGENTS.md"
kind = "agents"
"""


def tools_world(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runner: str = "pytest"
) -> ToolsWorld:
    """The tools world's repository and sessions, the fake agents' playbook and a config
    that replays with tools: what a tools-mode night needs, however it is started.

    `runner` is the test command the sessions show and the replay runs (`pytest -q` or
    `python -m unittest`, the same suite)."""
    world = build(tmp_path / "projects", Path(os.environ["CODEX_HOME"]), runner=runner)
    monkeypatch.setenv("SLEEPD_FAKE_AGENT_PLAYBOOK", str(world.playbook))
    # The simulated optimizer proposes the rule the failing trajectories lack every time:
    # these tests are about acting and judging, not about the optimizer's luck (its draws
    # are seeded by the prompt, which holds salted redaction placeholders).
    monkeypatch.setattr(
        "sleepd.backends.sim.backend.OptimizerRates",
        lambda: OptimizerRates(helpful=1.0, neutral=0.0, harmful=0.0),
    )
    Path(os.environ["SLEEPD_CONFIG"]).write_text(CONFIG.format(project=world.repo))
    return world


def test_a_tools_night_stages_the_edit_that_makes_the_failing_tests_pass(
    agents: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = tools_world(tmp_path, monkeypatch)
    before = tree_digest(world.repo)

    result = CliRunner().invoke(app, ["run", "--backend", "sim", "--json"])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    night = json.loads(result.stdout)
    [project] = night["summary"]["projects"] if "summary" in night else night["projects"]
    assert project["status"] == "staged", project
    replay = project["replay"]
    assert replay["used"] == "tools" and replay["consumers"] == ["claude", "codex"]
    assert replay["fidelity"]["measured_units"] >= 3
    assert replay["fidelity"]["excluded_low_fidelity"] == 0

    assert tree_digest(world.repo) == before  # the user's tree and .git, byte for byte
    home = Path(os.environ["SLEEPD_HOME"])
    assert list((home / "replay-checkouts").iterdir()) == []

    engine = make_engine(f"sqlite:///{home / 'sleepd.db'}")
    with Session(engine) as db:
        proposal = db.scalars(select(Proposal)).one()
        assert "pytest -q" in proposal.new_content
        after = db.scalars(select(Rollout).where(Rollout.candidate_id == proposal.candidate_id))
        details = [r.judge_detail for r in after]
        sites = db.scalars(select(TaskReplaySite)).all()
    engine.dispose()
    assert {d["consumer"] for d in details} == {"claude", "codex"}
    fixed = [d for d in details if d["fixed"]]
    assert fixed, details
    sample = fixed[0]
    assert sample["tests_before"]["failed"] > sample["tests_after"]["failed"]
    assert sample["regressed"] == [] and sample["files_changed"]
    assert sample["tool_calls"] >= 1 and sample["tokens"] > 0 and sample["wall_s"] > 0
    assert all(s.commit == world.commit and s.commit_source == "session" for s in sites)
    assert any(s.fidelity == 1.0 for s in sites)
    print(f"tool rollouts: {len(details)} with the proposal, night {night.get('night_id')}")

    runs = [json.loads(p.read_text()) for p in agents.glob("*.json")]
    assert {r["agent"] for r in runs} == {"claude", "codex"}
    assert all(Path(r["cwd"]).resolve() != world.repo.resolve() for r in runs)
    assert all("--no-session-persistence" in r["argv"] for r in runs if r["agent"] == "claude")
    assert all("--ephemeral" in r["argv"] for r in runs if r["agent"] == "codex")

    shown = CliRunner().invoke(app, ["review", "show", str(proposal.id)], env={"COLUMNS": "220"})
    assert shown.exit_code == 0, shown.stdout
    assert "Project tests in tools-mode replay" in shown.stdout
    assert "pytest -q" in shown.stdout and "passed" in shown.stdout

    shown_task = CliRunner().invoke(app, ["tasks", "show", str(sites[0].task_id), "--json"])
    task_view = json.loads(shown_task.stdout)["replay"]
    assert task_view["mode"] == "tools" and task_view["commit"] == world.commit
    assert task_view["test_command"] == "pytest -q"
    plain = CliRunner().invoke(
        app, ["tasks", "show", str(sites[0].task_id)], env={"COLUMNS": "220"}
    )
    # how the commit was found, in words
    assert "(the commit the session recorded)" in " ".join(plain.stdout.replace("│", " ").split())

    nights = CliRunner().invoke(app, ["nights", "--json"])
    assert json.loads(nights.stdout)[-1]["replay_mode"] == "tools"
