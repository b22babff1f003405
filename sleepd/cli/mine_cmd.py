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
    splits = ", ".join(f"{k} {v}" for k, v in report.tasks_by_split.items())
    typer.echo(
        f"mined {report.sessions_mined} sessions: {report.episodes_new} new episodes "
        f"({report.episodes_total} total), {report.signals_new} new signals, "
        f"{report.clusters_new} new clusters ({report.clusters_total} total, "
        f"{report.recurring_clusters} recurring), {report.patterns_total} failure patterns, "
        f"{report.tasks_new} new tasks ({splits}) in {report.duration_s:.2f} s"
    )
    if report.miner_fallbacks:
        warn(f"{report.miner_fallbacks} model-written judge specs were invalid; heuristic used")


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
    from sqlalchemy import select

    from sleepd.config import load_config
    from sleepd.store.engine import read_session
    from sleepd.store.models import Task, TaskCluster
    from sleepd.store.open import open_store

    cfg = load_config()
    engine = open_store(cfg)
    query = (
        select(Task, TaskCluster.size, TaskCluster.session_count)
        .outerjoin(TaskCluster, TaskCluster.id == Task.cluster_id)
        .order_by(Task.id)
        .limit(limit)
    )
    if split is not None:
        query = query.where(Task.split == split.value)
    if project:
        query = query.where(Task.project_path == project)
    with read_session(engine) as db:
        rows = []
        for task, size, sessions in db.execute(query):
            row = _task_row(task)
            row["recurring"] = (size or 0) >= cfg.mining.min_recurrence and (sessions or 0) >= 2
            rows.append(row)
    if json_out:
        emit_json(rows)
        return
    if not rows:
        typer.echo("no tasks (run `sleepd mine` after `sleepd harvest`)", err=True)
        return
    recurring = sum(1 for row in rows if row["recurring"])
    for row in rows:
        intent = " ".join(row["intent"].split())[:80]
        kind = "recurring" if row["recurring"] else "one-off"
        typer.echo(f"{row['id']:>6}  {row['split']:<5}  {row['outcome']:<9} {kind:<9}  {intent}")
    typer.echo(f"{len(rows)} tasks: {recurring} recurring, {len(rows) - recurring} one-off")


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
    typer.echo(f"task {row['id']}  split={row['split']}  outcome={row['outcome']}")
    typer.echo(f"project: {row['project_path']}")
    typer.echo(f"intent:  {row['intent']}")
    typer.echo(f"context: {row['context']}")
    _echo_replay(row["replay"])
    for check in row["judge_spec"].get("checks", []):
        typer.echo(f"check:   {check['type']} {check.get('value')!r} (weight {check['weight']})")
    if row["judge_spec"].get("rubric"):
        typer.echo("rubric:\n" + row["judge_spec"]["rubric"])


def _echo_replay(replay: dict[str, Any]) -> None:
    """The replay mode in plain words: where and how the task would be replayed."""
    typer.echo(
        f"replay:  {replay['mode']} ({replay['reason']}; replay.mode = {replay['configured']})"
    )
    if replay.get("repository"):
        commit = replay.get("commit") or "unknown"
        source = f" from {replay['commit_source']}" if replay.get("commit_source") else ""
        typer.echo(f"         repository {replay['repository']} at {commit[:12]}{source}")
    if replay.get("test_command"):
        typer.echo(f"         tests: {replay['test_command']}")
    if replay.get("failing_tests"):
        typer.echo("         failing then: " + ", ".join(replay["failing_tests"][:5]))
    if replay.get("fidelity") is not None:
        typer.echo(
            f"         fidelity {replay['fidelity']:.0%} "
            f"({replay['fidelity_matched']} of {replay['fidelity_rollouts']} replays under the "
            "original document reproduced the original outcome)"
        )


def register(app: typer.Typer) -> None:
    app.command("mine")(mine)
    app.add_typer(tasks_app, name="tasks")
