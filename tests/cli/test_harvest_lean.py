"""`sleepd harvest` runs without typer when its line is plain, and means the same thing.

The lean parser (`sleepd.cli.harvest_run.parse_lean`) must read every line it accepts
as the typer command reads it, hand every other line (help, errors, odd forms) to
typer, and both paths must print the same report.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import typer.main
from cli_here import sleepd_here
from typer.testing import CliRunner

from sleepd.cli.app import app, lean_command
from sleepd.cli.harvest_run import SOURCES, parse_lean

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions" / "claude"


def harvest_command() -> Any:
    return typer.main.get_command(app).commands["harvest"]  # type: ignore[attr-defined]


def typer_reading(args: list[str]) -> tuple[str, int | None, bool]:
    with harvest_command().make_context("harvest", list(args)) as ctx:
        params = ctx.params
    return str(params["source"]), params["jobs"], params["json_out"]


def test_the_lean_options_are_the_typer_options() -> None:
    options = {p.name: p for p in harvest_command().params if p.param_type_name == "option"}
    assert {name: sorted(p.opts) for name, p in options.items()} == {
        "source": ["--source"],
        "jobs": ["--jobs", "-j"],
        "json_out": ["--json"],
    }
    assert tuple(options["source"].type.choices) == SOURCES
    assert options["jobs"].type.min == 0 and options["jobs"].type.max is None
    assert options["json_out"].is_flag


ACCEPTED = [
    [],
    ["--json"],
    ["--source", "codex"],
    ["--source=claude", "--json"],
    ["--json", "--source", "all", "--jobs", "4"],
    ["-j", "0"],
    ["--jobs=+2", "--source", "claude"],
    ["--jobs", "007"],
]


@pytest.mark.parametrize("args", ACCEPTED)
def test_a_plain_line_reads_as_typer_reads_it(args: list[str]) -> None:
    lean = parse_lean(args)
    assert lean is not None
    assert lean == typer_reading(args)
    assert lean_command(["harvest", *args]) is not None


REFUSED = [
    ["--help"],
    ["-h"],
    ["--source", "cursor"],
    ["--source", "Claude"],
    ["--source"],
    ["--source="],
    ["--source", "--json"],
    ["--jobs", "-1"],
    ["--jobs", "two"],
    ["--jobs", "1_0"],
    ["--jobs", " 4"],
    ["-j4"],
    ["-j=4"],
    ["--json", "--json"],
    ["--json=1"],
    ["--source", "claude", "--source", "codex"],
    ["--jobs", "1", "-j", "2"],
    ["--sour", "claude"],
    ["extra"],
    ["--", "--json"],
]


@pytest.mark.parametrize("args", REFUSED)
def test_anything_else_goes_to_typer(args: list[str]) -> None:
    assert parse_lean(args) is None
    assert lean_command(["harvest", *args]) is None


def test_the_lean_and_the_typer_harvest_report_alike(isolated_home: Path) -> None:
    project = isolated_home / "claude" / "projects" / "-home-user-app"
    project.mkdir(parents=True)
    samples = sorted(FIXTURES.glob("*.jsonl"))
    for sample in samples[:2]:
        shutil.copyfile(sample, project / sample.name.rsplit("__", 1)[-1])
    first = sleepd_here("harvest", "--json")  # the lean path: a harvest into a new store
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["sessions_new"] == 2

    def same(lean: dict[str, Any], typed: dict[str, Any]) -> None:
        def drop(d: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in d.items() if k not in ("duration_s", "per_source")}

        assert drop(lean) == drop(typed)

    # unchanged: the lean path and typer answer alike
    lean = sleepd_here("harvest", "--json")
    typed = CliRunner().invoke(app, ["harvest", "--json"])
    assert lean.returncode == 0 and typed.exit_code == 0, (lean.stderr, typed.output)
    assert json.loads(lean.stdout)["files_scanned"] == 2
    same(json.loads(lean.stdout), json.loads(typed.stdout))

    # new lines: each path stores one new file and reports it alike
    reports = []
    for sample, invoke in zip(samples[2:4], ("lean", "typer"), strict=True):
        shutil.copyfile(sample, project / sample.name.rsplit("__", 1)[-1])
        if invoke == "lean":
            done = sleepd_here("harvest", "--json", "--source", "claude", "--jobs", "1")
            assert done.returncode == 0, done.stderr
            reports.append(json.loads(done.stdout))
        else:
            ran = CliRunner().invoke(
                app, ["harvest", "--json", "--source", "claude", "--jobs", "1"]
            )
            assert ran.exit_code == 0, ran.output
            reports.append(json.loads(ran.stdout))
    assert [r["files_changed"] for r in reports] == [1, 1]
    assert all(r["sessions_new"] == 1 and r["events_new"] > 0 for r in reports)

    # the panel: the same lines but for the time it took
    shown = sleepd_here("harvest")
    typed_panel = CliRunner().invoke(app, ["harvest"])
    assert shown.returncode == 0 and typed_panel.exit_code == 0
    assert "4 changed" not in shown.stdout and "0 changed of 4" in shown.stdout

    def body(text: str) -> list[str]:
        return [line for line in text.splitlines() if "harvested in" not in line]

    assert body(shown.stdout) == body(typed_panel.stdout)
