"""Whatever escapes a command ends as one line on stderr and a non-zero exit, never a
traceback: an unexpected exception is forced inside EACH command of the CLI."""

from __future__ import annotations

import errno
import random
import sqlite3
import string
from collections.abc import Iterator
from typing import Any

import pytest
import typer
import typer.main

from sleepd.cli.app import app, run
from sleepd.errors import ExitCode


def _leaves(command: Any, prefix: list[str]) -> Iterator[tuple[list[str], Any]]:
    subs = getattr(command, "commands", None)
    if subs:
        for name, sub in subs.items():
            yield from _leaves(sub, [*prefix, name])
    else:
        yield prefix, command


def _argv(path: list[str], command: Any) -> list[str]:
    """The command with a value for each required parameter (the callback never runs)."""
    argv = list(path)
    for param in command.params:
        if not param.required:
            continue
        value = "1" if type(param.type).__name__ in ("IntParamType", "FloatParamType") else "x"
        if param.param_type_name == "option":
            argv += [param.opts[0], value]
        else:
            argv.append(value)
    return argv


COMMANDS = [
    pytest.param(path, id=" ".join(path)) for path, _ in _leaves(typer.main.get_command(app), [])
]


class Unprintable(Exception):
    def __str__(self) -> str:
        raise ValueError("cannot render")


SECRET = "ghp_" + "".join(random.choice(string.ascii_letters + string.digits) for _ in range(36))


def _boom(kind: str) -> BaseException:
    if kind == "unexpected":
        return RuntimeError(f"kaboom\nsecond line token {SECRET}\nthird")
    if kind == "unprintable":
        return Unprintable()
    if kind == "disk-full":
        return OSError(errno.ENOSPC, "No space left on device", "/x/sleepd.db-wal")
    if kind == "corrupt":
        return sqlite3.DatabaseError("database disk image is malformed")
    raise AssertionError(kind)


def test_every_command_is_covered() -> None:
    names = {" ".join(p.values[0]) for p in COMMANDS}  # type: ignore[arg-type]
    assert {"status", "harvest", "run", "db check", "review accept", "service install"} <= names
    assert len(names) >= 20


@pytest.mark.parametrize("kind", ["unexpected", "unprintable", "disk-full", "corrupt"])
@pytest.mark.parametrize("path", COMMANDS)
def test_forced_exception_ends_in_one_line(
    path: list[str], kind: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    built = typer.main.get_command(app)
    target = built
    for name in path:
        target = target.commands[name]  # type: ignore[attr-defined]
    calls: list[str] = []

    def boom(*args: Any, **kwargs: Any) -> None:
        calls.append("called")
        raise _boom(kind)

    monkeypatch.setattr(target, "callback", boom)
    monkeypatch.setattr(typer.main, "get_command", lambda _app: built)
    # `search`, `mine` and `harvest` run without typer (sleepd.cli.app.lean_command):
    # their bodies fail there too.
    monkeypatch.setattr("sleepd.cli.search_cmd.run_search", boom)
    monkeypatch.setattr("sleepd.cli.mine_run.run_mine", boom)
    monkeypatch.setattr("sleepd.cli.harvest_run.run_harvest", boom)

    code = run(_argv(path, target))

    out, err = capfd.readouterr()
    assert calls == ["called"], f"the command did not run: {err}"
    assert code not in (0, None)
    assert "Traceback" not in err + out
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("sleepd: error:")
    assert SECRET not in err
    if kind == "corrupt":
        assert code == ExitCode.CHECK_FAILED and "sleepd db check" in lines[0]
    if kind == "disk-full":
        assert "disk is full" in lines[0]


def test_handler_survives_its_own_failure(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """Even when classifying fails, the command ends in one line, not a traceback."""
    from sleepd.cli import failure

    def broken(exc: BaseException) -> int:
        raise AttributeError("module 'click.exceptions' has no attribute 'Abort'")

    monkeypatch.setattr(failure, "_classify", broken)
    assert failure.exit_status(RuntimeError("x")) == ExitCode.ERROR
    err = capfd.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1


def test_real_usage_error_and_abort(capfd: pytest.CaptureFixture[str]) -> None:
    assert run(["no-such-command"]) == ExitCode.USAGE
    assert "Traceback" not in capfd.readouterr().err
    from sleepd.cli.failure import exit_status

    assert exit_status(typer.Abort()) == ExitCode.INTERRUPTED
    assert exit_status(KeyboardInterrupt()) == ExitCode.INTERRUPTED
