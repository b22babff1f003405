"""`sleepd status [--json] [--check]`."""

from __future__ import annotations

from typing import Any

import typer

from sleepd.cli.common import ExitCode, emit_json


def check_failures(report: dict[str, Any], cfg: Any) -> list[str]:
    """Reasons a monitor should alert: stale harvest, daemon down, last night failed."""
    reasons: list[str] = []
    if not report["database"]["at_head"]:
        reasons.append("database not at head")
    stale_after = max(3 * cfg.schedule.harvest_interval_minutes * 60, 26 * 3600)
    for source, figures in report["harvest"]["sources"].items():
        if not figures["enabled"]:
            continue
        age = figures["harvest_age_s"]
        if figures["files"] and (age is None or age > stale_after):
            reasons.append(f"{source} harvest is stale")
    if report["harvest"]["last_harvest_job"] is None:
        reasons.append("no successful harvest yet")
    if not report["daemon"]["running"]:
        reasons.append(f"daemon is not running ({report['daemon']['state']})")
    last = report["gate"]["last_night"]
    if last is not None and last["status"] == "failed":
        reasons.append(f"last night failed: {last['stop_reason']}")
    for worse in report.get("watch", {}).get("looks_worse", []):
        reasons.append(
            f"adopted proposal #{worse['proposal_id']} looks worse in live sessions "
            f"({worse['reason']}); run `{worse['rollback_command']}`"
        )
    refused = report["gate"].get("refused_night")
    if refused is not None:
        reasons.append(f"the {refused['trigger']} night could not start: {refused['reason']}")
    return reasons


def status(
    json_out: bool = typer.Option(False, "--json", help="Print JSON (schema in docs/)."),
    check: bool = typer.Option(
        False,
        "--check",
        help=(
            "Exit non-zero when harvest is stale, the daemon is down, the last night "
            "failed, or an adoption in force looks worse in live sessions."
        ),
    ),
) -> None:
    """Harvest, mining, gate, budget and daemon figures."""
    from sleepd import paths
    from sleepd.config import load_config
    from sleepd.status import collect_status
    from sleepd.store.fastread import ReadOnlyDb, sqlite_file_missing

    cfg = load_config()
    url = paths.database_url(cfg.database_url or None)
    missing = sqlite_file_missing(url)
    if not missing:
        from sleepd.store.integrity import probe
        from sleepd.store.urls import sqlite_file_for

        db_file = sqlite_file_for(url)
        if db_file is not None:
            probe(db_file)  # a damaged file: one line, non-zero exit
    db = None if missing else ReadOnlyDb(url)
    readiness: list[Any] = []
    try:
        report = collect_status(db, cfg)
        if db is not None and not json_out and report["database"]["at_head"]:
            from sleepd.readiness import project_readiness

            readiness = [r for r in project_readiness(db, cfg, limit=5)]
    finally:
        if db is not None:
            db.close()
    reasons = check_failures(report, cfg) if check else []
    if check:
        report["check"] = {"ok": not reasons, "failures": reasons}
    if json_out:
        emit_json(report)
    else:
        from sleepd.cli.status_view import render_status

        render_status(report, readiness)
    if reasons:
        typer.echo(f"sleepd: check failed: {'; '.join(reasons)}", err=True)
        raise typer.Exit(int(ExitCode.CHECK_FAILED))


def register(app: typer.Typer) -> None:
    app.command("status")(status)
