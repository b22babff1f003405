"""`sleepd daemon`: the foreground process a systemd unit or launchd agent runs."""

from __future__ import annotations

import typer

from sleepd.cli.common import fail


def daemon(
    foreground: bool = typer.Option(
        True,
        "--foreground/--no-foreground",
        help="Stay in the foreground (the only mode; services supervise the process).",
    ),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log debug detail."),
) -> None:
    """Run the scheduler and the live harvester until SIGTERM/SIGINT (SIGHUP reloads config)."""
    from sleepd.daemon.main import run_daemon
    from sleepd.errors import SleepdError

    if not foreground:
        fail(
            "sleepd does not daemonize itself; run it under `sleepd service install` "
            "or a supervisor in the foreground"
        )
    try:
        status = run_daemon(verbose=verbose)
    except SleepdError as exc:
        fail(str(exc), exc.exit_code)
    raise typer.Exit(status)


def register(app: typer.Typer) -> None:
    app.command("daemon")(daemon)
