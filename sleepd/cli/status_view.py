"""The human view of `sleepd status`: one screen, most important first."""

from __future__ import annotations

from typing import Any

from sleepd.cli.common import stdout_console


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value else "0"
    return str(value)


def render_status(report: dict[str, Any]) -> None:
    from rich.table import Table

    console = stdout_console()
    db = report["database"]
    daemon = report["daemon"]
    state = "[green]running[/]" if daemon["running"] else f"[red]{daemon['state']}[/]"
    console.print(f"[bold]sleepd[/] home {report['home']}")
    console.print(
        f"database {'at head' if db['at_head'] else 'NOT at head'} ({db['revision'] or 'empty'})"
        f"   daemon {state}"
        + (f" pid {daemon['pid']}, watch {daemon['watch_mode']}" if daemon["running"] else "")
        + f"   next night {_fmt(daemon.get('next_night_at'))}"
    )
    harvest = Table(title="harvest", title_justify="left")
    for col in (
        "source",
        "files",
        "sessions",
        "events",
        "tool errors",
        "malformed",
        "redactions",
        "newest session",
        "last harvest",
    ):
        harvest.add_column(col)
    for source, f in report["harvest"]["sources"].items():
        harvest.add_row(
            source + ("" if f["enabled"] else " (off)"),
            _fmt(f["files"]),
            _fmt(f["sessions"]),
            _fmt(f["events"]),
            _fmt(f["tool_errors"]),
            _fmt(f["malformed_lines"]),
            _fmt(f["redactions"]),
            _fmt(f["newest_session"]),
            _fmt(f["last_harvest"]),
        )
    console.print(harvest)
    mining = report.get("mining") or {}
    if mining:
        splits = mining.get("tasks_by_split", {})
        console.print(
            f"mining: {_fmt(mining.get('episodes'))} episodes, {_fmt(mining.get('clusters'))} "
            f"clusters ({_fmt(mining.get('recurring_clusters'))} recurring), tasks "
            + ", ".join(f"{k} {v}" for k, v in splits.items())
            + f" ({_fmt(mining.get('tasks_recurring'))} recurring, "
            f"{_fmt(mining.get('tasks_one_off'))} one-off)"
        )
        replay = mining.get("replay") or {}
        if replay:
            mean = replay.get("fidelity_mean")
            console.print(
                f"replay: mode {replay['mode']}; {replay['tasks_ready_for_tools']} of "
                f"{replay['tasks_with_site']} tasks can act with tools; fidelity measured on "
                f"{replay['fidelity_measured']} (mean {'-' if mean is None else f'{mean:.0%}'}, "
                f"{replay['low_fidelity']} below {replay['min_fidelity']:.0%}, not gated)"
            )
    gate = report["gate"]
    p = gate["proposals"]
    d = gate["decisions"]
    console.print(
        f"gate: {p['pending']} pending, {p['accepted']} accepted, {p['rejected']} rejected, "
        f"{p['stale']} stale; decisions accept {d['accept']} / reject {d['reject']} / "
        f"inconclusive {d['inconclusive']}; acceptance rate {_fmt(gate['acceptance_rate'])}; "
        f"A/A false-accept {_fmt(gate['aa_false_accept_rate'])}"
    )
    last = gate["last_night"]
    if last:
        sim = " [yellow](SIMULATED backend)[/]" if last["simulated"] else ""
        console.print(
            f"last night #{last['id']} {last['status']}{sim}: accepted {last['accepted']}, "
            f"val lift {_fmt(last['val_lift'])}, test lift {_fmt(last['test_lift'])}"
            + (f" — {last['stop_reason']}" if last["stop_reason"] else "")
        )
    budget = report["budget"]
    console.print(
        f"budget: ${budget['last_24h_usd']:.2f} last 24 h "
        f"(cap ${budget['caps']['max_usd_per_night']}/night), "
        f"${budget['last_30d_usd']:.2f} last 30 days"
    )
    for warning in report["warnings"]:
        console.print(f"[yellow]warning:[/] {warning}")
