"""`sleepd run`: one whole night now (harvest → mine → replay → reflect → gate → stage)."""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path
from typing import Any

import typer

from sleepd.cli.common import ExitCode, emit_json, finite
from sleepd.cli.terminal import safe_console


def _install_stop_handlers(stop: threading.Event) -> dict[int, Any]:
    """First Ctrl-C / SIGTERM: finish the current step and stop; a second Ctrl-C aborts."""
    previous: dict[int, Any] = {}

    def handler(signum: int, _frame: Any) -> None:
        if stop.is_set() and signum == signal.SIGINT:
            raise KeyboardInterrupt
        stop.set()
        typer.echo("sleepd: stopping after the current step (Ctrl-C again to abort)", err=True)

    for sig in (signal.SIGINT, signal.SIGTERM):
        previous[sig] = signal.signal(sig, handler)
    return previous


def execute_night(
    cfg: Any,
    *,
    backend: str | None = None,
    trigger: str = "manual",
    project: str | None = None,
    dry_run: bool = False,
    console: Any = None,
    calibrate: bool | None = None,
    max_usd: float | None = None,
    max_tokens: int | None = None,
    max_minutes: float | None = None,
) -> Any:
    """Run a night in this process, showing progress on stderr when it is a terminal."""
    from sleepd.dream.night import NightOptions
    from sleepd.jobs import night_job
    from sleepd.store.open import open_store

    engine = open_store(cfg, write=True)
    stop = threading.Event()
    previous = (
        _install_stop_handlers(stop)
        if threading.current_thread() is threading.main_thread()
        else {}
    )
    status_ctx = None
    if sys.stderr.isatty():
        status_ctx = safe_console(stderr=True).status("starting the night")
        status_ctx.start()

    def on_event(message: str) -> None:
        if status_ctx is not None:
            status_ctx.update(message)
        elif console is not None:
            console.print(f"[dim]· {message}[/]")

    options = NightOptions(
        trigger=trigger,
        project=project,
        backend=backend,
        dry_run=dry_run,
        stop=stop,
        calibrate=calibrate,
        max_usd=max_usd,
        max_tokens=max_tokens,
        max_wall_minutes=max_minutes,
        on_event=on_event,
    )
    try:
        _run_id, result = night_job(engine, cfg, options)
    finally:
        if status_ctx is not None:
            status_ctx.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return result


def run(
    project: Path = typer.Option(None, "--project", help="Only this project (its path)."),
    backend: str = typer.Option(None, "--backend", help="Use this backend for every role."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Plan only: no model calls."),
    json_out: bool = typer.Option(False, "--json", help="Print the night's figures as JSON."),
    calibrate: bool = typer.Option(None, "--calibrate/--no-calibrate", help="A/A calibration."),
    max_usd: float = typer.Option(
        None, "--max-usd", min=0, max=10_000, callback=finite, help="Dollar cap for this night."
    ),
    max_tokens: int = typer.Option(
        None, "--max-tokens", min=0, max=10_000_000_000, help="Token cap for this night."
    ),
    max_minutes: float = typer.Option(
        None, "--max-minutes", min=0.1, max=24 * 60, callback=finite, help="Wall-time cap."
    ),
) -> None:
    """One whole night now."""
    from sleepd.cli.common import stdout_console
    from sleepd.config import load_config

    cfg = load_config()
    console = stdout_console()
    result = execute_night(
        cfg,
        backend=backend,
        project=str(project.expanduser().resolve()) if project else None,
        dry_run=dry_run,
        console=None if json_out else console,
        calibrate=calibrate,
        max_usd=max_usd,
        max_tokens=max_tokens,
        max_minutes=max_minutes,
    )
    if json_out:
        emit_json(
            {
                "night_id": result.night_id,
                "status": result.status,
                "stop_reason": result.stop_reason,
                "proposals": result.proposals,
                **result.summary,
            }
        )
    else:
        from sleepd.cli.night_view import print_proposals, render_summary

        render_summary(result, console, dry_run=dry_run, cfg=cfg)
        print_proposals(result.proposals, console)
    if result.status == "failed":
        raise typer.Exit(int(ExitCode.ERROR))
    unusable = [
        p["plan"]["backend_problem"]
        for p in result.summary.get("projects", [])
        if p.get("plan") and not p["plan"].get("backend_usable", True)
    ]
    if dry_run and unusable:
        # The plan is printed, but the real run would be refused: say so in the exit status.
        typer.echo(f"sleepd: error: no backend is usable: {unusable[0]}", err=True)
        raise typer.Exit(int(ExitCode.NO_BACKEND))
    if result.status == "stopped" and result.stop_reason and "budget" in result.stop_reason:
        raise typer.Exit(int(ExitCode.BUDGET))


def register(app: typer.Typer) -> None:
    app.command("run")(run)
