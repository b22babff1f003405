"""The `sleepd` process: pick the command's path, run it, map every outcome to a status.

A `search` line that `sleepd.cli.search_cmd` understands fully, a plain `mine`
(`sleepd.cli.mine_run`) and a plain `harvest` (`sleepd.cli.harvest_run`) run without
building the typer app (importing typer, click and every command module is most of a
short command's start-up); every other line,
`--help` included, goes through the typer app in `sleepd.cli.root`, which this module
hands out as `app` on first use.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def lean_command(argv: list[str]) -> Callable[[], Any] | None:
    """The command `argv` names, when it has a path that needs no typer; else None."""
    if argv[:1] == ["search"]:
        from sleepd.cli.search_cmd import lean_search

        command: Callable[[], Any] | None = lean_search(argv[1:])
        return command
    if argv[:1] == ["mine"]:
        from sleepd.cli.mine_run import lean_mine

        return lean_mine(argv[1:])
    if argv[:1] == ["harvest"]:
        from sleepd.cli.harvest_run import lean_harvest

        return lean_harvest(argv[1:])
    return None


def run(argv: list[str] | None = None) -> int:
    """Run one command; every outcome, expected or not, is an exit status and at most a line."""
    from sleepd.cli.failure import guarded

    args = sys.argv[1:] if argv is None else list(argv)
    command = lean_command(args)
    if command is None:

        def command() -> Any:
            from sleepd.cli.root import app

            return app(args=args, standalone_mode=False)

    return guarded(command)


def main() -> None:
    """Console-script entry: map every failure to an exit status and one line."""
    sys.exit(run())


def __getattr__(name: str) -> Any:
    """`app`, the root typer app, built when first asked for (see `sleepd.cli.root`)."""
    if name == "app":
        from sleepd.cli.root import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
