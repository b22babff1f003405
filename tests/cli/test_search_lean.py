"""`sleepd search` runs without typer when its line is plain, and means the same thing.

The lean parser (`sleepd.cli.search_cmd.parse_lean`) must declare the typer command's
options exactly, read every line it accepts as typer reads it, and hand every other
line (help, errors, odd forms) to typer.
"""

from __future__ import annotations

from typing import Any

import pytest
import typer.main

from sleepd.cli.app import app, lean_command
from sleepd.cli.search_cmd import OPTIONS, parse_lean


def search_command() -> Any:
    group = typer.main.get_command(app)
    return group.commands["search"]  # type: ignore[attr-defined]


def typer_reading(args: list[str]) -> dict[str, Any]:
    with search_command().make_context("search", list(args)) as ctx:
        return dict(ctx.params)


def test_the_lean_options_are_the_typer_options() -> None:
    declared = {p.name: p for p in search_command().params if p.param_type_name == "option"}
    assert {o.name for o in OPTIONS} == set(declared)
    for option in OPTIONS:
        param = declared[option.name]
        assert param.opts == [option.flag]
        assert param.default == option.default
        assert param.is_flag == (option.kind is bool)
        assert getattr(param.type, "min", None) == option.min
        assert getattr(param.type, "max", None) == option.max
        assert tuple(getattr(param.type, "choices", None) or ()) == (option.choices or ())


ACCEPTED = [
    ["error"],
    ["exit-code", "--json"],
    ["--json", "two words"],
    ["x", "--limit", "5", "--page", "3"],
    ["x", "--limit=1000", "--page=+2"],
    ["x", "--project", "/home/me/app", "--source", "codex"],
    ["x", "--project=/a=b", "--source="],
    ["", "--limit", "1"],
    ["日本語"],
    ["radius", "--from", "person"],
    ["x", "--from=tools", "--json"],
]


@pytest.mark.parametrize("args", ACCEPTED)
def test_a_plain_line_reads_as_typer_reads_it(args: list[str]) -> None:
    lean = parse_lean(args)
    assert lean is not None
    assert lean == typer_reading(args)


REFUSED = [
    [],
    ["--help"],
    ["x", "-h"],
    ["x", "y"],
    ["x", "--limit", "0"],
    ["x", "--limit", "1001"],
    ["x", "--page", "0"],
    ["x", "--limit", "ten"],
    ["x", "--limit", "1_0"],
    ["x", "--limit"],
    ["x", "--json", "--json"],
    ["x", "--json=1"],
    ["x", "--project", "--json"],
    ["x", "--proj", "a"],
    ["x", "--unknown"],
    ["--", "-x"],
    ["-x"],
    ["x", "--from", "people"],
    ["x", "--from"],
]


@pytest.mark.parametrize("args", REFUSED)
def test_anything_else_goes_to_typer(args: list[str]) -> None:
    assert parse_lean(args) is None
    assert lean_command(["search", *args]) is None


def test_only_search_mine_and_harvest_have_a_lean_path() -> None:
    assert lean_command(["search", "x"]) is not None
    assert lean_command(["mine", "--json"]) is not None  # tests/cli/test_mine_lean.py
    assert lean_command(["harvest"]) is not None  # tests/cli/test_harvest_lean.py
    assert lean_command(["status", "--json"]) is None
    assert lean_command([]) is None
