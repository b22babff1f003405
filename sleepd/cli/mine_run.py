"""`sleepd mine`: an idle answer or a full pass, then the report.

Most `sleepd mine` runs find nothing new (`sleepd.mining.idle` answers those from a few
stdlib queries), so the plain lines `sleepd mine` and `sleepd mine --json` run from here
without building the typer app, as `search` does (`sleepd.cli.app.lean_command`); any
other line (`--help`, an unknown option) goes to typer, whose `mine` command calls the
same `run_mine`. A full pass imports what it needs when it runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

#: The lines the lean path takes, and whether each asks for JSON (a test holds these to
#: the typer command's options).
LEAN_LINES: dict[tuple[str, ...], bool] = {(): False, ("--json",): True}


def lean_mine(args: Sequence[str]) -> Callable[[], Any] | None:
    """A callable running `sleepd mine ARGS` without typer, or None (typer parses it)."""
    json_out = LEAN_LINES.get(tuple(args))
    if json_out is None:
        return None
    return lambda: run_mine(json_out=json_out)


def run_mine(*, json_out: bool, again: bool = False) -> None:
    """Mine what is new (nothing: the last pass's totals, recorded as a run) and report;
    with `again`, every mined session is read again first."""
    from sleepd.config import load_config
    from sleepd.mining.idle import idle_report, record_idle_run

    cfg = load_config()
    if again:
        from sleepd.mining.mine import read_everything_again
        from sleepd.store.open import open_store

        read_everything_again(open_store(cfg, write=True))
    data = idle_report(cfg)
    if data is not None:  # nothing pending: no need to load the mining or database layers
        record_idle_run(cfg, data)
    else:
        from sleepd.cli.common import warn
        from sleepd.jobs import recorded_job
        from sleepd.mining.idle import run_pass
        from sleepd.mining.model_miner import miner_backend
        from sleepd.store.open import open_store

        engine = open_store(cfg, write=True)
        backend, why_not = miner_backend(cfg)
        if why_not:
            warn(why_not)
        with recorded_job(engine, "mine", "manual") as job:
            data = run_pass(engine, cfg, backend=backend)
            job.detail = data
    if json_out:
        from sleepd.cli.common import emit_json

        emit_json(data)
        return
    render_report(data)


def _read_again_rows(data: dict[str, Any]) -> list[tuple[str, str]]:
    """What reading sessions again with new rules changed, when it ran."""
    again = data.get("sessions_read_again") or 0
    if not again:
        return []
    gone, retired = data.get("episodes_gone") or 0, data.get("tasks_retired") or 0
    return [
        (
            "read again",
            f"{_count(again, 'session')} read before by other rules (an upgrade, changed "
            "correction or approval patterns) or with hard turns left for the miner model: "
            f"{_count(gone, 'episode')} they found no longer a request of its own; "
            f"{_count(retired, 'task')} retired (kept, out of the nights) and made again "
            "where the request still stands",
        )
    ]


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def render_report(data: dict[str, Any]) -> None:
    """The pass's figures as a panel, then any warnings in plain lines."""
    from types import SimpleNamespace

    from sleepd.cli.common import stdout_console, warn
    from sleepd.cli.night_view import splits_text
    from sleepd.cli.view import kv_panel

    report = SimpleNamespace(**data)
    stdout_console().print(
        kv_panel(
            f"mined {report.sessions_mined} sessions in {report.duration_s:.2f} s",
            [
                ("episodes", f"{report.episodes_new} new, {report.episodes_total} in all"),
                ("outcome signals", f"{report.signals_new} new"),
                (
                    "request clusters",
                    f"{report.clusters_new} new, {report.clusters_total} in all, "
                    f"{report.recurring_clusters} recurring",
                ),
                ("failure patterns", str(report.patterns_total)),
                ("tasks", f"{report.tasks_new} new; {splits_text(report.tasks_by_split)}"),
                *_read_again_rows(data),
            ],
        )
    )
    if report.miner_fallbacks:
        warn(f"{report.miner_fallbacks} model-written judge specs were invalid; heuristic used")
    hard = getattr(report, "hard_turns", None) or {}
    # (printed through the console, which wraps them at the terminal's width)
    if hard.get("asked") or hard.get("skipped"):
        stdout_console().print(
            f"hard user turns: {hard.get('decided', 0)} decided by the miner model "
            f"({hard.get('changed', 0)} read differently from the rules), "
            f"{hard.get('fallbacks', 0)} left to the rules after a failed or unaffordable call, "
            f"{hard.get('skipped', 0)} over the per-pass cap"
            + (" (asked on the next passes, newest sessions first)" if hard.get("skipped") else ""),
            markup=False,
            highlight=False,
        )
    elif hard.get("found"):
        stdout_console().print(
            f"hard user turns: {hard['found']} read by the rules alone "
            "(`mining.model_assisted` hands them to a model)",
            markup=False,
            highlight=False,
        )
