"""`sleepd mine` runs without typer when its line is plain, and means the same thing.

The lean path (`sleepd.cli.mine_run.lean_mine`) takes exactly the lines the typer command
reads as "mine" or "mine --json" and hands every other line (help, errors) to typer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer.main
from cli_here import sleepd_here
from typer.testing import CliRunner

from sleepd.cli.app import app, lean_command
from sleepd.cli.mine_run import LEAN_LINES


def test_the_lean_lines_are_the_typer_options() -> None:
    command = typer.main.get_command(app).commands["mine"]  # type: ignore[attr-defined]
    options = [p for p in command.params if p.param_type_name == "option"]
    assert [o.opts for o in options] == [["--json"], ["--again"]]
    assert all(o.is_flag for o in options)
    # `--again` writes before the pass: typer's line, never the lean one
    assert {flags for flags in LEAN_LINES} == {(), ("--json",)}


@pytest.mark.parametrize(
    "args", [["--help"], ["--jsn"], ["--json", "--json"], ["--json=1"], ["extra"], ["--again"]]
)
def test_anything_else_goes_to_typer(args: list[str]) -> None:
    assert lean_command(["mine", *args]) is None


def test_the_lean_and_the_typer_mine_report_alike(isolated_home: Path) -> None:
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions" / "claude"
    project = isolated_home / "claude" / "projects" / "-home-user-app"
    project.mkdir(parents=True)
    for sample in sorted(fixtures.glob("*.jsonl"))[:2]:
        project.joinpath(sample.name.rsplit("__", 1)[-1]).write_bytes(sample.read_bytes())
    assert sleepd_here("harvest", "--json").returncode == 0
    first = sleepd_here("mine", "--json")  # the lean path runs a full pass
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["sessions_mined"] == 2
    idle = sleepd_here("mine", "--json")
    assert idle.returncode == 0 and json.loads(idle.stdout)["sessions_mined"] == 0
    with_typer = CliRunner().invoke(app, ["mine", "--json"])
    assert with_typer.exit_code == 0
    lean, typed = json.loads(idle.stdout), json.loads(with_typer.stdout)
    assert {k: v for k, v in lean.items() if k != "duration_s"} == {
        k: v for k, v in typed.items() if k != "duration_s"
    }
    shown = sleepd_here("mine")
    assert shown.returncode == 0 and "mined 0 sessions" in shown.stdout
