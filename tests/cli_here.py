"""`sleepd ARGS` through the console script's entry point (`sleepd.cli.app.run`), inside
the test process: the same error handling, exit status and one-line failures as the
installed command, without a fresh interpreter's start-up (tests/cli/test_startup.py
and the subprocess tests cover that)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass

from typer.testing import CliRunner

from sleepd.cli.app import run


@dataclass(frozen=True)
class Ran:
    """A command's exit status and what it printed."""

    returncode: int
    stdout: str
    stderr: str


def sleepd_here(*args: str, env: Mapping[str, str | None] | None = None) -> Ran:
    """Run `sleepd ARGS` with `env` laid over os.environ (None removes a variable)."""
    with CliRunner().isolation(env=env) as (out, err, _):
        code = run(list(args))
        sys.stdout.flush()  # print() to a redirected stream is buffered
        sys.stderr.flush()
        return Ran(code, out.getvalue().decode(), err.getvalue().decode())
