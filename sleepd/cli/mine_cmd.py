"""`sleepd mine`, `sleepd tasks list` and `sleepd tasks show ID`."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import typer

from sleepd.cli.common import ExitCode, emit_json, fail

tasks_app = typer.Typer(help="Replay tasks mined from your sessions.", no_args_is_help=True)


class SplitChoice(StrEnum):
    train = "train"
    val = "val"
    test = "test"


def mine(
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    again: bool = typer.Option(
        False,
        "--again",
        help="Read every mined session again from its first event, as the first pass "
        "after an upgrade does (tasks made as before are kept).",
    ),
) -> None:
    """Turn harvested sessions into episodes, clusters, failure patterns and tasks."""
    from sleepd.cli.mine_run import run_mine

    run_mine(json_out=json_out, again=again)


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
        "retired_because": task.retired_because or None,
        "created_at": task.created_at,
    }


@tasks_app.command("list")
def tasks_list(
    split: SplitChoice = typer.Option(None, "--split", help="Only this split."),
    project: str = typer.Option(None, "--project", help="Only this project path."),
    limit: int = typer.Option(200, "--limit", min=1, max=100000),
    retired: bool = typer.Option(
        False,
        "--retired",
        help="Also the tasks retired when newer rules read their sessions again.",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List the mined tasks the nights replay, recurring or one-off (never their judge
    specs' internals)."""
    from sleepd.config import load_config
    from sleepd.mining.figures import task_counts, task_rows, why_no_tasks
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
            retired=retired,
        )
        empty = (
            "" if rows or json_out else why_no_tasks(db, min_recurrence=cfg.mining.min_recurrence)
        )
        total, recurring = task_counts(
            db,
            min_recurrence=cfg.mining.min_recurrence,
            split=None if split is None else split.value,
            project=project,
            retired=retired,
        )
    finally:
        db.close()
    if json_out:
        emit_json(rows)
        return
    if not rows:
        typer.echo(empty, err=True)
        return
    from rich.text import Text

    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import table

    names = {"val": "validation", "test": "sealed test"}
    shown = table(
        ["task", "split", "outcome", "kind", "request"],
        title=f"Mined tasks: {recurring} recurring, {total - recurring} one-off",
        compact=True,
    )
    for row in rows:
        split_shown = names.get(row["split"], row["split"])
        shown.add_row(
            str(row["id"]),
            split_shown if row["active"] else f"{split_shown} (retired)",
            row["outcome"],
            "recurring" if row["recurring"] else "one-off",
            Text(_request_shown(row)),
        )
    console = stdout_console()
    console.print(shown)
    if len(rows) < total:
        console.print(f"These are the first {len(rows)} of {total}; `--limit N` shows more.")


_RETIRED = (
    "no: retired when newer rules read its session again and made this task otherwise or "
    "not at all (kept with its replays)"
)


def _retired_line(because: str | None) -> str:
    """Why a task left the nights, in words, where the reading that retired it said."""
    from sleepd.mining.task_mining import RETIRED_BECAUSE

    said = RETIRED_BECAUSE.get(because or "")
    if said is None:
        return _RETIRED
    return f"no: retired when newer rules read its session again: {said} (kept with its replays)"


#: How much of a request the list shows (`tasks show` prints it whole).
_REQUEST_SHOWN = 200


def _request_shown(row: dict[str, Any]) -> str:
    """A task's request in one line: the words that opened it, cut at a word with "…"
    when long, and how many refinements `tasks show` holds; a saved prompt's run as the
    prompt's name and the words typed into it (the prompt is the same in every run)."""
    from sleepd.mining.tasks import intent_parts

    request, refinements = intent_parts(row["intent"])
    template = row.get("template")
    if template:
        shown = f"saved prompt #{template['founder_episode']}"
        if template.get("title"):
            shown += f" “{template['title']}”"
        typed = template["typed"]
        shown += f", typed into it: {typed}" if typed else ", run with nothing typed"
    else:
        shown = " ".join(request.split())
        if len(shown) > _REQUEST_SHOWN:
            shown = shown[:_REQUEST_SHOWN].rsplit(" ", 1)[0] + " …"
    if refinements:
        shown += f" (+{refinements} refinement{'s' if refinements > 1 else ''})"
    return shown


def _kind_of_request(cluster: dict[str, Any]) -> str:
    """How often the task's kind of request was asked, and whether that makes it recurring
    ("recurring: asked 3 times in 2 sessions: …", "one-off: asked once: …", "one-off:
    asked 10 times, all in one session: …")."""
    size, sessions = int(cluster["size"]), int(cluster["sessions"])
    asked = "asked once" if size == 1 else f"asked {size} times"
    if size > 1:
        # asked again within one session is working on the same thing, not a recurrence
        asked += ", all in one session" if sessions == 1 else f" in {sessions} sessions"
    kind = "recurring" if cluster["recurring"] else "one-off"
    return f"{kind}: {asked}: {cluster['representative']}"


@tasks_app.command("show")
def tasks_show(
    task_id: int = typer.Argument(..., help="Task id (see `sleepd tasks list`)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """One task with its replay context and judge spec."""
    from sleepd.config import load_config
    from sleepd.mining.recurring import recurs
    from sleepd.store.engine import read_session
    from sleepd.store.models import Task, TaskCluster
    from sleepd.store.open import open_store

    cfg = load_config()
    engine = open_store(cfg)
    with read_session(engine) as db:
        task = db.get(Task, task_id)
        if task is None:
            fail(f"no task with id {task_id}", ExitCode.NOT_FOUND)
        row = _task_row(task)
        row["context"] = task.context
        row["judge_spec"] = task.judge_spec
        from sleepd.dream.replay_modes import task_mode

        row["replay"] = task_mode(db, cfg, task)
        cluster = db.get(TaskCluster, task.cluster_id) if task.cluster_id else None
        row["cluster"] = (
            {
                "key": cluster.key,
                "size": cluster.size,
                "sessions": cluster.session_count,
                "recurring": recurs(cluster.size, cluster.session_count, cfg.mining.min_recurrence),
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
        *(() if row["active"] else [("in the nights", _retired_line(row["retired_because"]))]),
        ("outcome in the session", str(row["outcome"])),
        ("project", words(row["project_path"])),
        ("request", str(row["intent"])),
    ]
    cluster = row["cluster"]
    if cluster:
        rows.append(("kind of request", _kind_of_request(cluster)))
    context = row["context"] if isinstance(row["context"], dict) else {}
    for key, value in context.items():
        if key == "local_commands" and isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    rows.append(("context: the person ran", words(item.get("command"))))
                    rows.append(("context: which printed", words(item.get("output"))))
            continue
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


#: How the replay's commit was found (`task_replay_sites.commit_source`), in words.
_COMMIT_FOUND = {
    "session": "the commit the session recorded",
    "reflog": "where the branch's reflog had it when the request was typed",
    "head-reflog": "where HEAD's reflog had the work tree when the request was typed",
    "rev-list": "the branch's newest commit before the request",
    "merged-branch": "the branch's newest commit before the request, read off the merge "
    "that took it in; the branch is gone",
    "main-line": "the main line's newest commit before the request; the branch is gone",
}


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
        found = replay.get("commit_source")
        source = f" ({_COMMIT_FOUND.get(str(found), str(found))})" if found else ""
        rows.append(("replay repository", f"{replay['repository']} at {commit[:12]}{source}"))
    if replay.get("branch"):
        rows.append(("replay branch", f"{replay['branch']} (the work tree had moved to it)"))
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
