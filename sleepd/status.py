"""Everything `sleepd status` reports, gathered as plain data.

Each section is one small query function so the CLI, `--check` and the JSON
schema in `docs/status.schema.json` read the same figures. Queries are plain,
portable SQL over `ReadOnlyDb`, so status starts without importing SQLAlchemy
on SQLite.
"""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime, timedelta
from typing import Any

from sleepd import paths
from sleepd.config import Config
from sleepd.mining.recurring import recurs_sql
from sleepd.processes import pid_alive
from sleepd.store.fastread import ReadOnlyDb, as_utc, db_to_utc_param, no_version_table
from sleepd.store.schema_version import HEAD_REVISION

SCHEMA_VERSION = 1
#: A heartbeat older than this means the daemon is not running.
HEARTBEAT_STALE_S = 120
CLAUDE_DEFAULT_CLEANUP_DAYS = 30
SOURCES = ("claude", "codex")
PROPOSAL_STATES = ("pending", "accepted", "rejected", "stale", "superseded")
GATE_OUTCOMES = ("accept", "reject", "inconclusive")


def _iso(value: Any) -> str | None:
    parsed = as_utc(value)
    return parsed.isoformat() if parsed else None


def database_revision(db: ReadOnlyDb) -> str | None:
    try:
        value = db.scalar("SELECT version_num FROM alembic_version")
    except Exception as exc:  # no table yet, or not a database at all
        if not db.is_sqlite and not no_version_table(exc):
            raise  # a server that cannot be reached is not an empty database
        return None
    return str(value) if value is not None else None


def harvest_figures(db: ReadOnlyDb, cfg: Config, now: datetime) -> dict[str, Any]:
    sources: dict[str, Any] = {}
    for source in SOURCES:
        p = {"s": source}
        files, malformed, last, file_errors = db.rows(
            "SELECT count(*), coalesce(sum(malformed_lines), 0), max(last_harvested_at), "
            "coalesce(sum(CASE WHEN status <> 'ok' THEN 1 ELSE 0 END), 0) "
            "FROM transcript_files WHERE source = :s",
            p,
        )[0]
        sessions, events, oldest, newest = db.rows(
            "SELECT count(*), coalesce(sum(event_count), 0), min(started_at), max(started_at) "
            "FROM sessions WHERE source = :s",
            p,
        )[0]
        # a tool's failure is the agent's work; its service failing (an API error, a usage
        # limit, a dropped stream) is not, and a turn the person aborted is neither
        tool_errors, service_errors = db.rows(
            "SELECT coalesce(sum(CASE WHEN e.role = 'tool' THEN 1 ELSE 0 END), 0), "
            "coalesce(sum(CASE WHEN e.role IN ('assistant', 'system') "
            "AND coalesce(e.raw_type, '') <> 'turn_aborted' THEN 1 ELSE 0 END), 0) "
            "FROM events e JOIN sessions s ON s.id = e.session_id "
            "WHERE s.source = :s AND e.kind = 'error'",
            p,
        )[0]
        redactions = db.scalar(
            "SELECT coalesce(sum(count), 0) FROM redaction_counts WHERE source = :s", p
        )
        unfinished, stale = _unfinished_last_lines(db, source, now)
        files_malformed, malformed_files = _malformed_files(db, source) if malformed else (0, [])
        last_dt = as_utc(last)
        sources[source] = {
            "enabled": bool(getattr(cfg.sources, source)),
            "files": int(files),
            "sessions": int(sessions),
            "events": int(events),
            "tool_errors": int(tool_errors or 0),
            "service_errors": int(service_errors or 0),
            "file_errors": int(file_errors),
            "malformed_lines": int(malformed),
            "files_with_malformed_lines": files_malformed,
            "malformed_files": malformed_files,
            "unfinished_last_lines": unfinished,
            "stale_unfinished": stale,
            "redactions": int(redactions or 0),
            "last_harvest": _iso(last_dt),
            "oldest_session": _iso(oldest),
            "newest_session": _iso(newest),
            "harvest_age_s": None if last_dt is None else round((now - last_dt).total_seconds(), 1),
        }
    last_job = db.scalar(
        "SELECT max(ended_at) FROM job_runs WHERE job = 'harvest' AND outcome = 'ok'"
    )
    return {"sources": sources, "last_harvest_job": _iso(last_job)}


#: Files named in the report as holding the most malformed lines, at most: where to look
#: when the count is large (a file of another format, one overwritten with junk).
MALFORMED_FILES_SHOWN = 3

#: A last line left unfinished this long after the file last changed will not be finished.
STALE_UNFINISHED_S = 86400
#: Paths of such files named in the report, at most.
STALE_UNFINISHED_SHOWN = 5


def _malformed_files(db: ReadOnlyDb, source: str) -> tuple[int, list[dict[str, Any]]]:
    """How many of a source's files hold malformed lines, and the ones holding the most."""
    count = db.scalar(
        "SELECT count(*) FROM transcript_files WHERE source = :s AND malformed_lines > 0",
        {"s": source},
    )
    most = [
        {"path": str(path), "lines": int(lines)}
        for path, lines in db.rows(
            "SELECT path, malformed_lines FROM transcript_files "
            "WHERE source = :s AND malformed_lines > 0 "
            "ORDER BY malformed_lines DESC, path LIMIT :n",
            {"s": source, "n": MALFORMED_FILES_SHOWN},
        )
    ]
    return int(count or 0), most


def _unfinished_last_lines(db: ReadOnlyDb, source: str, now: datetime) -> tuple[int, list[str]]:
    """Files whose last line is unfinished (bytes past the stored cursor: a record being
    written, or one cut off for good), and the paths of those unchanged for a day.

    The harvest holds such a line and reads it once it ends; one that never ends (a
    cut-off copy, a NUL-filled block after a crash) would be held silently forever. A
    cursor without an mtime is none of them: a harvest stopped before the file's last
    line (killed, or a head held), and the next one reads on from it.
    """
    held = int(
        db.scalar(
            "SELECT count(*) FROM transcript_files WHERE source = :s AND status = 'ok' "
            'AND size > "offset" AND mtime_ns <> 0',
            {"s": source},
        )
        or 0
    )
    if not held:
        return 0, []
    cutoff_ns = int((now.timestamp() - STALE_UNFINISHED_S) * 1e9)
    rows = db.rows(
        "SELECT path FROM transcript_files WHERE source = :s AND status = 'ok' "
        'AND size > "offset" AND mtime_ns <> 0 AND mtime_ns < :cutoff '
        "ORDER BY mtime_ns LIMIT :n",
        {"s": source, "cutoff": cutoff_ns, "n": STALE_UNFINISHED_SHOWN},
    )
    return held, [str(row[0]) for row in rows]


def mining_figures(db: ReadOnlyDb, cfg: Config) -> dict[str, Any]:
    splits = dict.fromkeys(("train", "val", "test"), 0)
    for split, count in db.rows(
        "SELECT split, count(*) FROM tasks WHERE active = TRUE GROUP BY split"
    ):
        splits[str(split)] = int(count)
    # the outcomes of people's requests: not a subagent's (the lead agent asked it), nor
    # the work before a session's first request (a greeting, a plan handed over from
    # another session), which no one asked for and whose end says nothing, nor a planning
    # whose plan was taken as the next request (one request with that one, which ends it)
    outcomes = {
        str(o): int(n)
        for o, n in db.rows(
            "SELECT e.outcome, count(*) FROM episodes e JOIN sessions s ON s.id = e.session_id "
            "WHERE s.kind <> 'subagent' AND e.intent_text <> '' AND NOT e.plan_handed_on "
            "GROUP BY e.outcome"
        )
    }
    # only recurring patterns (count >= 2) are worth a line, as in `sleepd patterns`
    top = [
        {"signature": sig, "tool": tool, "count": int(count)}
        for sig, tool, count in db.rows(
            "SELECT signature, tool_name, count FROM failure_patterns WHERE count >= 2 "
            "ORDER BY count DESC, id LIMIT 5"
        )
    ]
    recurring_tasks = int(
        db.scalar(
            "SELECT count(*) FROM tasks t JOIN task_clusters c ON c.id = t.cluster_id "
            f"WHERE t.active = TRUE AND {recurs_sql('c')}",
            {"n": cfg.mining.min_recurrence},
        )
        or 0
    )
    return {
        "episodes": sum(outcomes.values()),
        "episode_outcomes": outcomes,
        "clusters": int(db.scalar("SELECT count(*) FROM task_clusters WHERE size > 0") or 0),
        "recurring_clusters": int(
            db.scalar(
                f"SELECT count(*) FROM task_clusters WHERE {recurs_sql()}",
                {"n": cfg.mining.min_recurrence},
            )
            or 0
        ),
        "tasks_by_split": splits,
        "tasks_recurring": recurring_tasks,
        "tasks_one_off": sum(splits.values()) - recurring_tasks,
        "failure_patterns": int(db.scalar("SELECT count(*) FROM failure_patterns") or 0),
        "sessions_started_by_programs": programs_sessions(db),
        "recurring_failure_patterns": int(
            db.scalar("SELECT count(*) FROM failure_patterns WHERE count >= 2") or 0
        ),
        "top_failure_patterns": top,
        "sessions_to_read_again": sessions_to_read_again(db, cfg),
        "replay": replay_figures(db, cfg),
    }


def sessions_to_read_again(db: ReadOnlyDb, cfg: Config) -> int:
    """Mined sessions the next mining pass reads again: read by other rules (an upgrade,
    changed patterns) or with hard turns left for the miner model (`mining.reading`)."""
    from sleepd.mining.reading import OTHER_STAMPS_SQL, count_to_read_again, reading_rules

    rules = reading_rules(cfg.mining)
    return count_to_read_again(db.rows(OTHER_STAMPS_SQL, {"rules": rules}), rules)


def programs_sessions(db: ReadOnlyDb) -> int:
    """Sessions a program started (`claude -p`, the SDK, `codex exec`, Codex over MCP):
    harvested and mined for their failures, never for tasks (`mining.automation`)."""
    from sleepd.mining.automation import AUTOMATED_ORIGINS

    origin = "json_extract(meta, '$.origin')" if db.is_sqlite else "(meta ->> 'origin')"
    marks = {f"o{n}": value for n, value in enumerate(AUTOMATED_ORIGINS)}
    return int(
        db.scalar(
            f"SELECT count(*) FROM sessions WHERE {origin} IN "
            f"({', '.join(':' + name for name in marks)})",
            marks,
        )
        or 0
    )


def replay_figures(db: ReadOnlyDb, cfg: Config) -> dict[str, Any]:
    """Tools-mode replay: tasks that can act, and their replay fidelity."""
    sites, ready, measured, mean, low = db.rows(
        "SELECT count(*), "
        "coalesce(sum(CASE WHEN s.problem IS NULL THEN 1 ELSE 0 END), 0), "
        "coalesce(sum(CASE WHEN s.fidelity IS NOT NULL THEN 1 ELSE 0 END), 0), "
        "avg(s.fidelity), "
        "coalesce(sum(CASE WHEN s.fidelity < :low THEN 1 ELSE 0 END), 0) "
        "FROM task_replay_sites s JOIN tasks t ON t.id = s.task_id WHERE t.active = TRUE",
        {"low": cfg.replay.min_fidelity},
    )[0]
    return {
        "mode": cfg.replay.mode,
        "tasks_with_site": int(sites or 0),
        "tasks_ready_for_tools": int(ready or 0),
        "fidelity_measured": int(measured or 0),
        "fidelity_mean": None if mean is None else round(float(mean), 4),
        "low_fidelity": int(low or 0),
        "min_fidelity": cfg.replay.min_fidelity,
    }


def gate_figures(db: ReadOnlyDb) -> dict[str, Any]:
    by_status = {
        str(s): int(n) for s, n in db.rows("SELECT status, count(*) FROM proposals GROUP BY status")
    }
    by_outcome = {
        str(o): int(n)
        for o, n in db.rows(
            "SELECT outcome, count(*) FROM gate_decisions "
            "WHERE calibration = FALSE GROUP BY outcome"
        )
    }
    decided = sum(by_outcome.values())
    aa_trials, aa_accepts = db.rows(
        "SELECT count(*), coalesce(sum(CASE WHEN outcome = 'accept' THEN 1 ELSE 0 END), 0) "
        "FROM gate_decisions WHERE calibration = TRUE"
    )[0]
    last = db.rows(
        "SELECT id, started_at, status, stop_reason, accepted, rejected, inconclusive, "
        "val_before, val_after, test_before, test_after, simulated FROM nights "
        "WHERE status <> 'running' ORDER BY started_at DESC, id DESC LIMIT 1"
    )
    last_night = None
    if last:
        row = last[0]
        last_night = {
            "id": int(row[0]),
            "started_at": _iso(row[1]),
            "status": row[2],
            "stop_reason": row[3],
            "accepted": int(row[4]),
            "rejected": int(row[5]),
            "inconclusive": int(row[6]),
            "val_lift": _lift(row[7], row[8]),
            "test_lift": _lift(row[9], row[10]),
            "simulated": bool(row[11]),
        }
    refused = db.rows(
        "SELECT started_at, trigger, reason FROM job_runs WHERE job = 'night' "
        "AND outcome = 'refused' ORDER BY started_at DESC, id DESC LIMIT 1"
    )
    refused_night = None
    if refused and (last_night is None or str(refused[0][0]) > str(last[0][1])):
        refused_night = {
            "at": _iso(refused[0][0]),
            "trigger": str(refused[0][1]),
            "reason": refused[0][2],
        }
    return {
        "refused_night": refused_night,
        "proposals": {s: by_status.get(s, 0) for s in PROPOSAL_STATES},
        "decisions": {o: by_outcome.get(o, 0) for o in GATE_OUTCOMES},
        "acceptance_rate": None
        if decided == 0
        else round(by_outcome.get("accept", 0) / decided, 4),
        "aa_false_accept_rate": None if not aa_trials else round(aa_accepts / aa_trials, 4),
        "aa_trials": int(aa_trials),
        "last_night": last_night,
    }


def _lift(before: float | None, after: float | None) -> float | None:
    if before is None or after is None:
        return None
    return round(after - before, 4)


def _caps(cfg: Config) -> dict[str, float]:
    return {
        "max_usd_per_night": cfg.budget.max_usd_per_night,
        "max_tokens_per_night": cfg.budget.max_tokens_per_night,
        "max_wall_minutes": cfg.budget.max_wall_minutes,
    }


def budget_figures(db: ReadOnlyDb, cfg: Config, now: datetime) -> dict[str, Any]:
    def spend(since: datetime) -> tuple[float, int]:
        usd, tokens = db.rows(
            "SELECT coalesce(sum(cost_usd), 0), coalesce(sum(input_tokens + output_tokens), 0) "
            "FROM budget_ledger WHERE at >= :since AND simulated = FALSE",
            {"since": db_to_utc_param(since)},
        )[0]
        return float(usd), int(tokens)

    day_usd, day_tokens = spend(now - timedelta(hours=24))
    month_usd, month_tokens = spend(now - timedelta(days=30))
    return {
        "last_24h_usd": round(day_usd, 4),
        "last_24h_tokens": day_tokens,
        "last_30d_usd": round(month_usd, 4),
        "last_30d_tokens": month_tokens,
        "caps": _caps(cfg),
    }


def daemon_figures(db: ReadOnlyDb, now: datetime) -> dict[str, Any]:
    rows = db.rows(
        "SELECT pid, hostname, state, heartbeat_at, watch_mode, next_night_at "
        "FROM daemon_heartbeats ORDER BY heartbeat_at DESC, id DESC LIMIT 1"
    )
    if not rows:
        return _no_daemon()
    pid, hostname, state, beat_at, watch_mode, next_night = rows[0]
    beat = as_utc(beat_at) or now
    age = (now - beat).total_seconds()
    running = state == "running" and age <= HEARTBEAT_STALE_S
    if running and hostname == socket.gethostname():
        running = pid_alive(int(pid))
    return {
        "running": running,
        "state": state if running or state != "running" else "dead",
        "pid": int(pid),
        "last_heartbeat": _iso(beat),
        "heartbeat_age_s": round(age, 1),
        "watch_mode": watch_mode,
        "next_night_at": _iso(next_night),
    }


def _no_daemon() -> dict[str, Any]:
    return {
        "running": False,
        "state": "never-started",
        "pid": None,
        "last_heartbeat": None,
        "heartbeat_age_s": None,
        "watch_mode": None,
        "next_night_at": None,
    }


def claude_cleanup_days() -> int:
    """Claude Code deletes transcripts older than this at startup."""
    try:
        data = json.loads(paths.claude_settings_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return CLAUDE_DEFAULT_CLEANUP_DAYS
    value = data.get("cleanupPeriodDays") if isinstance(data, dict) else None
    return value if isinstance(value, int) and value >= 0 else CLAUDE_DEFAULT_CLEANUP_DAYS


def warnings_for(report: dict[str, Any], cfg: Config) -> list[str]:
    warnings: list[str] = []
    db = report["database"]
    if not db["initialised"]:
        warnings.append("database not initialised yet: run `sleepd harvest` or `sleepd db upgrade`")
    elif not db["at_head"]:
        warnings.append(
            f"database at {db['revision']}, code expects {db['head']}: run `sleepd db upgrade`"
        )
    claude = report["harvest"]["sources"]["claude"]
    cleanup = claude_cleanup_days()
    if claude["enabled"]:
        interval_days = cfg.schedule.harvest_interval_minutes / 1440
        age_days = (claude["harvest_age_s"] or 0) / 86400
        if cleanup <= 1 or age_days + max(interval_days, 1.0) >= cleanup:
            warnings.append(
                f"Claude Code's cleanupPeriodDays is {cleanup}: transcripts may be deleted before "
                "the next harvest; raise it in ~/.claude/settings.json or harvest more often"
            )
    for source, figures in report["harvest"]["sources"].items():
        if figures["file_errors"]:
            warnings.append(
                f"{source}: {figures['file_errors']} transcript file(s) could not be read"
            )
        stale = figures["stale_unfinished"]
        if stale:
            more = f" and {len(stale) - 1} more" if len(stale) > 1 else ""
            warnings.append(
                f"{source}: {stale[0]}{more} ends in a line cut off and unchanged for over a "
                "day: that line is held, and read only if the file is ever completed"
            )
    if report["daemon"]["state"] == "dead":
        warnings.append(
            "the daemon's heartbeat stopped: it is not running (see `sleepd service status`)"
        )
    return warnings


def collect_status(
    db: ReadOnlyDb | None, cfg: Config, *, now: datetime | None = None
) -> dict[str, Any]:
    """The whole status report; works on an empty home (zero counts, no database)."""
    now = now or datetime.now(UTC)
    revision = database_revision(db) if db is not None else None
    report: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "generated_at": now.isoformat(),
        "home": str(paths.home_dir()),
        "config_file": str(paths.config_file()),
        "database": {
            "url": db.url if db is not None else paths.database_url(cfg.database_url or None),
            "initialised": revision is not None,
            "revision": revision,
            "head": HEAD_REVISION,
            "at_head": revision == HEAD_REVISION,
        },
    }
    if db is not None and revision == HEAD_REVISION:
        report["harvest"] = harvest_figures(db, cfg, now)
        report["mining"] = mining_figures(db, cfg)
        report["gate"] = gate_figures(db)
        report["budget"] = budget_figures(db, cfg, now)
        report["daemon"] = daemon_figures(db, now)
        report["watch"] = watch_section(db, cfg, now)
    else:
        report.update(empty_sections(cfg))
    report["warnings"] = warnings_for(report, cfg)
    return report


def watch_section(db: ReadOnlyDb, cfg: Config, now: datetime) -> dict[str, Any]:
    """After adoption: each adoption's verdict from live sessions (`sleepd.watch`)."""
    from sleepd.watch.report import watch_figures

    return watch_figures(db, cfg, now=now)


def empty_watch(cfg: Config) -> dict[str, Any]:
    return {
        "adoptions": [],
        "in_force": {"helping": 0, "no evidence yet": 0, "looks worse": 0},
        "looks_worse": [],
        "auto_rollback": bool(cfg.watch.auto_rollback),
    }


def empty_sections(cfg: Config) -> dict[str, Any]:
    zero_source = {
        "files": 0,
        "sessions": 0,
        "events": 0,
        "tool_errors": 0,
        "service_errors": 0,
        "file_errors": 0,
        "malformed_lines": 0,
        "files_with_malformed_lines": 0,
        "malformed_files": [],
        "unfinished_last_lines": 0,
        "stale_unfinished": [],
        "redactions": 0,
        "last_harvest": None,
        "oldest_session": None,
        "newest_session": None,
        "harvest_age_s": None,
    }
    return {
        "harvest": {
            "sources": {
                s: {"enabled": bool(getattr(cfg.sources, s)), **zero_source} for s in SOURCES
            },
            "last_harvest_job": None,
        },
        "mining": {
            "episodes": 0,
            "episode_outcomes": {},
            "clusters": 0,
            "recurring_clusters": 0,
            "tasks_by_split": dict.fromkeys(("train", "val", "test"), 0),
            "tasks_recurring": 0,
            "tasks_one_off": 0,
            "failure_patterns": 0,
            "sessions_started_by_programs": 0,
            "recurring_failure_patterns": 0,
            "top_failure_patterns": [],
            "sessions_to_read_again": 0,
            "replay": {
                "mode": cfg.replay.mode,
                "tasks_with_site": 0,
                "tasks_ready_for_tools": 0,
                "fidelity_measured": 0,
                "fidelity_mean": None,
                "low_fidelity": 0,
                "min_fidelity": cfg.replay.min_fidelity,
            },
        },
        "gate": {
            "proposals": dict.fromkeys(PROPOSAL_STATES, 0),
            "decisions": dict.fromkeys(GATE_OUTCOMES, 0),
            "acceptance_rate": None,
            "aa_false_accept_rate": None,
            "aa_trials": 0,
            "last_night": None,
            "refused_night": None,
        },
        "budget": {
            "last_24h_usd": 0.0,
            "last_24h_tokens": 0,
            "last_30d_usd": 0.0,
            "last_30d_tokens": 0,
            "caps": _caps(cfg),
        },
        "daemon": _no_daemon(),
        "watch": empty_watch(cfg),
    }
