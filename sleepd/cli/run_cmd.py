"""`sleepd run`: one whole night now (harvest → mine → replay → reflect → gate → stage)."""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path
from typing import Any

import typer

from sleepd.cli.common import ExitCode, emit_json, finite


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
        from rich.console import Console

        status_ctx = Console(stderr=True).status("starting the night")
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


def print_proposals(proposal_ids: list[int], console: Any) -> None:
    from rich.syntax import Syntax
    from sqlalchemy.orm import Session

    from sleepd.config import load_config
    from sleepd.store.models import Proposal, TargetDocument
    from sleepd.store.open import open_store

    if not proposal_ids:
        console.print("no proposal was staged tonight")
        return
    engine = open_store(load_config())
    with Session(engine) as db:
        for pid in proposal_ids:
            proposal = db.get(Proposal, pid)
            if proposal is None:
                continue
            document = db.get(TargetDocument, proposal.document_id)
            sim = " [bold yellow]SIMULATED[/]" if proposal.simulated else ""
            console.rule(f"proposal #{pid}{sim}")
            console.print(f"target: {document.path if document else '?'}")
            gate = proposal.gate or {}
            console.print(
                f"gate: {gate.get('outcome')} — p = {proposal.p_value:.4g} "
                f"(α used {gate.get('alpha_used', 0):.4g}), {gate.get('n_informative')} "
                f"informative of {gate.get('n_tasks')} validation tasks; "
                f"validation lift {proposal.val_lift:+.3f}, sealed test lift "
                + (f"{proposal.test_lift:+.3f}" if proposal.test_lift is not None else "—")
            )
            console.print(f"reason: {gate.get('reason', '')}")
            console.print(Syntax(proposal.diff, "diff", theme="ansi_dark", word_wrap=True))


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
        render_summary(result, console)
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


def render_summary(result: Any, console: Any) -> None:
    summary = result.summary
    sim = (
        " [bold yellow](SIMULATED backend — a test double, not a real model)[/]"
        if summary.get("simulated")
        else ""
    )
    console.rule(f"night #{result.night_id}: {result.status}{sim}")
    if result.stop_reason:
        console.print(f"reason: {result.stop_reason}")
    steps = summary.get("steps", {})
    if "harvest" in steps:
        h = steps["harvest"]
        console.print(f"harvest: {h['events_new']} new events from {h['files_changed']} files")
    if "mine" in steps:
        m = steps["mine"]
        console.print(
            "mine: "
            + ", ".join(f"{k} {v}" for k, v in m.items() if isinstance(v, int | float))[:300]
        )
    for p in summary.get("projects", []):
        decisions = ", ".join(f"{k}: {v}" for k, v in p["decisions"].items()) or "none"
        console.print(
            f"{p['project']}: {p['status']} — tasks {p['tasks']}, candidates {p['candidates']} "
            f"({decisions}), rollouts {p['rollouts']}"
            + (f", A/A {p['calibration']}" if p.get("calibration") else "")
            + (f" — {p['reason']}" if p.get("reason") else "")
        )
        if p.get("plan"):
            render_plan(p["plan"], console)
        if p.get("val_before") is not None:
            console.print(
                f"  validation {p['val_before']:.3f} → "
                + (f"{p['val_after']:.3f}" if p.get("val_after") is not None else "—")
                + "; sealed test "
                + (
                    f"{p['test_before']:.3f} → {p['test_after']:.3f}"
                    if p.get("test_before") is not None
                    else "—"
                )
            )
    budget = summary.get("budget", {})
    console.print(
        f"spent: {budget.get('tokens', 0)} tokens, ${budget.get('usd', 0):.4f}; "
        f"{summary.get('duration_s', 0):.1f} s"
    )


def render_plan(plan: dict[str, Any], console: Any) -> None:
    """A dry run's plan: the calls, the forecast cost, what the gate can detect."""
    from rich.table import Table

    table = Table(title="Tonight's plan (at most)", show_header=True)
    table.add_column("what")
    table.add_column("value", justify="right")
    labels = (
        ("train_rollouts", "training rollouts"),
        ("val_rollouts_max", "validation rollouts"),
        ("test_rollouts", "sealed test rollouts"),
        ("optimizer_calls", "optimizer calls"),
    )
    for key, label in labels:
        table.add_row(label, str(plan.get(key, 0)))
    cost = plan.get("forecast_usd")
    if cost is None:
        table.add_row("forecast cost", "unknown: no backend is usable")
    else:
        for role in ("target", "judge", "optimizer"):
            if role in cost:
                table.add_row(f"forecast cost, {role}", f"${cost[role]:.4f}")
        table.add_row("forecast cost, total", f"${cost['total']:.4f}")
    console.print(table)
    console.print(f"  document: {plan.get('target')} ({plan.get('kind')})")
    if plan.get("detect_sentence"):
        console.print(f"  {plan['detect_sentence']}")
    if not plan.get("backend_usable", True):
        console.print(
            f"  [bold red]no backend is usable[/]: {plan.get('backend_problem')}; "
            "a real run would be refused before it starts"
        )


def register(app: typer.Typer) -> None:
    app.command("run")(run)
