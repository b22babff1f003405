"""`sleepd mine`, `sleepd tasks list` and `sleepd tasks show ID`."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import typer

from sleepd.cli.common import ExitCode, emit_json, fail, warn

tasks_app = typer.Typer(help="Replay tasks mined from your sessions.", no_args_is_help=True)


class SplitChoice(StrEnum):
    train = "train"
    val = "val"
    test = "test"


def mine(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Turn harvested sessions into episodes, clusters, failure patterns and tasks."""
    from types import SimpleNamespace

    from sleepd.config import load_config
    from sleepd.mining.idle import idle_report, record_idle_run

    cfg = load_config()
    data = idle_report(cfg)
    if data is not None:  # nothing pending: no need to load the mining or database layers
        record_idle_run(cfg, data)
    else:
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
        emit_json(data)
        return
    report = SimpleNamespace(**data)
    from sleepd.cli.common import stdout_console
    from sleepd.cli.night_view import splits_text
    from sleepd.cli.view import kv_panel

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
            ],
        )
    )
    if report.miner_fallbacks:
        warn(f"{report.miner_fallbacks} model-written judge specs were invalid; heuristic used")
    hard = getattr(report, "hard_turns", None) or {}
    if hard.get("asked") or hard.get("skipped"):
        typer.echo(
            f"hard user turns: {hard.get('decided', 0)} decided by the miner model "
            f"({hard.get('changed', 0)} read differently from the rules), "
            f"{hard.get('fallbacks', 0)} left to the rules after a failed or unaffordable call, "
            f"{hard.get('skipped', 0)} over the per-pass cap"
        )


def _task_row(task: Any) -> dict[str, Any]:
    return {
        "id": task.id,
        "split": task.split,
        "origin": task.origin,
        "outcome": task.outcome,
        "cluster_id": task.cluster_id,
        "episode_id": task.episode_id,
        "project_path": task.project_path,
        "intent": task.intent,
        "active": task.active,
        "created_at": task.created_at,
    }


@tasks_app.command("list")
def tasks_list(
    split: SplitChoice = typer.Option(None, "--split", help="Only this split."),
    project: str = typer.Option(None, "--project", help="Only this project path."),
    limit: int = typer.Option(200, "--limit", min=1, max=100000),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List mined tasks, recurring or one-off (never their judge specs' internals)."""
    from sleepd.config import load_config
    from sleepd.mining.figures import task_rows
    from sleepd.store.fastread import open_reader

    cfg = load_config()
    db = open_reader(cfg, missing_ok=False)
    assert db is not None
    try:
        rows = task_rows(
            db,
            min_recurrence=cfg.mining.min_recurrence,
            split=None if split is None else split.value,
            project=project,
            limit=limit,
        )
    finally:
        db.close()
    if json_out:
        emit_json(rows)
        return
    if not rows:
        typer.echo("no tasks (run `sleepd mine` after `sleepd harvest`)", err=True)
        return
    from rich.text import Text

    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import table

    names = {"val": "validation", "test": "sealed test"}
    recurring = sum(1 for row in rows if row["recurring"])
    shown = table(
        ["task", "split", "outcome", "kind", "request"],
        title=f"Mined tasks: {recurring} recurring, {len(rows) - recurring} one-off",
        compact=True,
    )
    for row in rows:
        shown.add_row(
            str(row["id"]),
            names.get(row["split"], row["split"]),
            row["outcome"],
            "recurring" if row["recurring"] else "one-off",
            Text(" ".join(row["intent"].split())[:200]),
        )
    stdout_console().print(shown)


@tasks_app.command("show")
def tasks_show(
    task_id: int = typer.Argument(..., help="Task id (see `sleepd tasks list`)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """One task with its replay context and judge spec."""
    from sleepd.config import load_config
    from sleepd.store.engine import read_session
    from sleepd.store.models import Task, TaskCluster
    from sleepd.store.open import open_store

    engine = open_store(load_config())
    with read_session(engine) as db:
        task = db.get(Task, task_id)
        if task is None:
            fail(f"no task with id {task_id}", ExitCode.NOT_FOUND)
        row = _task_row(task)
        row["context"] = task.context
        row["judge_spec"] = task.judge_spec
        from sleepd.dream.replay_modes import task_mode

        row["replay"] = task_mode(db, load_config(), task)
        cluster = db.get(TaskCluster, task.cluster_id) if task.cluster_id else None
        row["cluster"] = (
            {
                "key": cluster.key,
                "size": cluster.size,
                "representative": cluster.representative_intent,
            }
            if cluster
            else None
        )
    if json_out:
        emit_json(row)
        return
    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import kv_panel, words

    names = {"val": "validation", "test": "sealed test"}
    rows: list[tuple[str, str]] = [
        ("split", names.get(row["split"], row["split"])),
        ("outcome in the session", str(row["outcome"])),
        ("project", words(row["project_path"])),
        ("request", str(row["intent"])),
    ]
    cluster = row["cluster"]
    if cluster:
        rows.append(
            ("recurring task", f"asked {cluster['size']} times: {cluster['representative']}")
        )
    context = row["context"] if isinstance(row["context"], dict) else {}
    for key, value in context.items():
        rows.append((f"context: {key.replace('_', ' ')}", words(value)))
    rows.extend(_replay_rows(row.get("replay")))
    spec = row["judge_spec"] if isinstance(row["judge_spec"], dict) else {}
    for check in spec.get("checks", []) if isinstance(spec.get("checks"), list) else []:
        if isinstance(check, dict):
            rows.append(
                (
                    "judge check",
                    f"{words(check.get('type'))} “{words(check.get('value'))}” "
                    f"(weight {words(check.get('weight'))})",
                )
            )
    if spec.get("rubric"):
        rows.append(("judge rubric", str(spec["rubric"])))
    stdout_console().print(kv_panel(f"task {row['id']}", rows))


def _replay_rows(replay: Any) -> list[tuple[str, str]]:
    """The replay mode in plain words: where and how the task would be replayed."""
    if not isinstance(replay, dict) or not replay:
        return []
    rows = [
        (
            "replay",
            f"{replay.get('mode')} ({replay.get('reason')}; replay.mode = "
            f"{replay.get('configured')})",
        )
    ]
    if replay.get("repository"):
        commit = str(replay.get("commit") or "unknown")
        source = f" from {replay['commit_source']}" if replay.get("commit_source") else ""
        rows.append(("replay repository", f"{replay['repository']} at {commit[:12]}{source}"))
    if replay.get("test_command"):
        rows.append(("replay tests", str(replay["test_command"])))
    if replay.get("failing_tests"):
        rows.append(("failing then", ", ".join(str(t) for t in replay["failing_tests"][:5])))
    if replay.get("fidelity") is not None:
        rows.append(
            (
                "replay fidelity",
                f"{replay['fidelity']:.0%} ({replay['fidelity_matched']} of "
                f"{replay['fidelity_rollouts']} replays under the original document reproduced "
                "the original outcome)",
            )
        )
    return rows


def register(app: typer.Typer) -> None:
    app.command("mine")(mine)
    app.add_typer(tasks_app, name="tasks")
