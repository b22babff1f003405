"""The human view of `sleepd status`: one screen, most important first.

Tables are laid out to fit 80 columns without cutting a header (figures are rows,
sources are columns); every figure is named in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from sleepd.cli.common import stdout_console
from sleepd.cli.view import kv_panel, table

HARVEST_ROWS = (
    ("files", "transcript files"),
    ("sessions", "sessions"),
    ("events", "events"),
    ("tool_errors", "tool errors"),
    ("service_errors", "agent service errors (API, limits)"),
    ("malformed_lines", "malformed lines skipped"),
    ("unfinished_last_lines", "files ending mid-line (held)"),
    ("redactions", "secrets redacted"),
    ("newest_session", "newest session"),
    ("last_harvest", "last harvest"),
)


#: Each outcome in the order a person reads them, with what `mixed` means.
_OUTCOME_WORDS = (
    ("success", "success"),
    ("mixed", "success after a correction"),
    ("failure", "failure"),
    ("abandoned", "abandoned"),
    ("unknown", "unknown"),
)


def _outcomes_line(outcomes: dict[str, int]) -> str:
    """Each outcome's count in words ("300 success, 70 success after a correction, …, 30
    unknown (7%)"): the share left `unknown` says whether mining could read the sessions,
    so it is always shown."""
    total = sum(outcomes.values())
    if not total:
        return "—"
    known = {name for name, _ in _OUTCOME_WORDS}
    parts = [
        f"{outcomes[k]:,} {words}"
        for k, words in _OUTCOME_WORDS
        if outcomes.get(k) and k != "unknown"
    ]
    parts += [f"{n:,} {k}" for k, n in sorted(outcomes.items()) if k not in known and n]
    unknown = outcomes.get("unknown", 0)
    return ", ".join([*parts, f"{unknown:,} unknown ({unknown / total:.0%})"])


def _malformed_line(source: str, figures: dict[str, Any]) -> str:
    """Where a source's malformed lines are, so a large count can be looked into: how many
    files hold them and the ones holding the most, each path whole."""
    files = figures["files_with_malformed_lines"]
    most = ", ".join(f"{f['path']} ({f['lines']:,})" for f in figures["malformed_files"])
    where = "1 file:" if files == 1 else f"{files:,} files; the most are in"
    count = figures["malformed_lines"]
    return f"{source}: the {count:,} malformed lines skipped are in {where} {most}"


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value else "0"
    if isinstance(value, int):
        return f"{value:,}"
    text = str(value)
    if len(text) >= 19 and text[10] == "T":  # an ISO timestamp: to the minute
        return text[:16].replace("T", " ")
    return text


def _lift(value: float | None) -> str:
    return "—" if value is None else f"{value:+.3f}"


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{rate * 100:.0f}%"


def render_status(report: dict[str, Any], readiness: Sequence[Any] = ()) -> None:
    console = stdout_console()
    db = report["database"]
    daemon = report["daemon"]
    if daemon["running"]:
        daemon_text = f"running, pid {daemon['pid']}, watching by {daemon['watch_mode']}"
    else:
        daemon_text = f"not running ({daemon['state']})"
    if db["at_head"]:
        database = f"up to date (schema {db['revision']})"
    elif not db.get("initialised"):
        database = "not created yet (the first `sleepd harvest` creates it)"
    else:
        database = f"schema {db['revision']} is behind: run `sleepd db upgrade`"
    console.print(
        kv_panel(
            "sleepd",
            [
                ("home", report["home"]),
                ("database", database),
                ("daemon", daemon_text),
                ("next night", _fmt(daemon.get("next_night_at"))),
            ],
        )
    )
    sources = report["harvest"]["sources"]
    harvest = table(
        ["harvest", *(s + ("" if f["enabled"] else " (off)") for s, f in sources.items())]
    )
    for key, name in HARVEST_ROWS:
        harvest.add_row(name, *(_fmt(f.get(key)) for f in sources.values()))
    console.print(harvest)
    for source, figures in sources.items():
        if figures.get("malformed_files"):
            console.print(Text(_malformed_line(source, figures)))
    mining = report.get("mining") or {}
    if mining:
        splits = mining.get("tasks_by_split", {})
        console.print(
            kv_panel(
                "mining",
                [
                    ("episodes", _fmt(mining.get("episodes"))),
                    *(
                        [("how they ended", _outcomes_line(mining["episode_outcomes"]))]
                        if mining.get("episode_outcomes")
                        else []
                    ),
                    (
                        "kinds of request",
                        f"{_fmt(mining.get('clusters'))}, of which "
                        f"{_fmt(mining.get('recurring_clusters'))} recurred",
                    ),
                    (
                        "tasks",
                        f"train {splits.get('train', 0)}, validation {splits.get('val', 0)}, "
                        f"sealed test {splits.get('test', 0)}; "
                        f"{_fmt(mining.get('tasks_recurring'))} from requests that recurred, "
                        f"{_fmt(mining.get('tasks_one_off'))} from one-off failures",
                    ),
                    (
                        "failure patterns",
                        f"{_fmt(mining.get('failure_patterns'))}, of which "
                        f"{_fmt(mining.get('recurring_failure_patterns'))} seen twice or more",
                    ),
                    *(
                        [
                            (
                                "started by a program",
                                f"{_fmt(mining.get('sessions_started_by_programs'))} sessions "
                                "(claude -p, the SDK, codex exec, MCP, or another agent "
                                "handing over its conversation): mined for their failures, "
                                "not for tasks",
                            )
                        ]
                        if mining.get("sessions_started_by_programs")
                        else []
                    ),
                    *(
                        [
                            (
                                "to be read again",
                                f"{_fmt(mining.get('sessions_to_read_again'))} sessions read "
                                "by other rules (an upgrade, changed patterns) or with hard "
                                "turns left for the miner model: the next mining pass reads "
                                "them again",
                            )
                        ]
                        if mining.get("sessions_to_read_again")
                        else []
                    ),
                ],
            )
        )
        replay = mining.get("replay") or {}
        if replay:
            mean = replay.get("fidelity_mean")
            console.print(
                kv_panel(
                    "replay",
                    [
                        ("mode", str(replay["mode"])),
                        (
                            "tasks that can act with tools",
                            f"{replay['tasks_ready_for_tools']} of {replay['tasks_with_site']}",
                        ),
                        (
                            "fidelity",
                            f"measured on {replay['fidelity_measured']} tasks, mean "
                            f"{'—' if mean is None else f'{mean:.0%}'}; "
                            f"{replay['low_fidelity']} below {replay['min_fidelity']:.0%} "
                            "(not gated)",
                        ),
                    ],
                )
            )
    if readiness:
        ready = table(
            ["project", "ready for a night?"], title="Readiness (see `sleepd explain readiness`)"
        )
        for r in readiness:
            ready.add_row(Text(r.project), Text(r.sentence()))
        console.print(ready)
    gate = report["gate"]
    p = gate["proposals"]
    d = gate["decisions"]
    aa = (
        f"{_percent(gate['aa_false_accept_rate'])} of {gate.get('aa_trials', 0)} checks "
        "accepted an unchanged document (a false alarm; the gate keeps this ≤ alpha)"
        if gate.get("aa_trials")
        else "no check run yet"
    )
    rows = [
        (
            "proposals",
            f"{p['pending']} waiting for review, {p['accepted']} accepted, "
            f"{p['rejected']} rejected, {p['stale']} stale",
        ),
        (
            "gate decisions",
            f"{d['accept']} accepted, {d['reject']} rejected, {d['inconclusive']} inconclusive "
            f"(acceptance rate {_percent(gate['acceptance_rate'])})",
        ),
        ("A/A checks", aa),
    ]
    last = gate["last_night"]
    if last:
        sim = " SIMULATED" if last["simulated"] else ""
        lifts = (
            f"validation lift {_lift(last['val_lift'])}, "
            f"sealed test lift {_lift(last['test_lift'])}"
            if last["val_lift"] is not None
            else "no edit scored to the end"
        )
        rows.append(
            (
                "last night",
                f"#{last['id']} {last['status']}{sim}: {last['accepted']} accepted; {lifts}"
                + (f"; {last['stop_reason']}" if last["stop_reason"] else ""),
            )
        )
    console.print(kv_panel("gate", rows))
    _render_watch(console, report.get("watch") or {})
    budget = report["budget"]
    console.print(
        Text(
            f"model spend: ${budget['last_24h_usd']:.2f} in the last 24 h "
            f"(cap ${budget['caps']['max_usd_per_night']} a night), "
            f"${budget['last_30d_usd']:.2f} in the last 30 days"
        )
    )
    for warning in report["warnings"]:
        console.print(Text.assemble(("warning: ", "yellow"), str(warning)))


def _render_watch(console: Any, watch: dict[str, Any]) -> None:
    """After adoption: the verdict of each adoption still in force (docs/watch.md)."""
    from sleepd.cli.watch_view import print_command, verdict_text

    shown = [w for w in watch.get("adoptions", []) if w["in_force"]][:5]
    if not shown:
        return
    rows = [
        (f"proposal #{w['proposal_id']}" if w["proposal_id"] else "adoption", verdict_text(w))
        for w in shown
    ]
    console.print(kv_panel("after adoption (live sessions)", rows))
    for w in shown:
        if w["verdict"] == "looks worse" and w.get("rollback_command"):
            console.print(f"proposal #{w['proposal_id']} looks worse; to undo it:")
            print_command(console, w)
