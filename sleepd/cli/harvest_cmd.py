"""`sleepd harvest` and `sleepd search`."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Any

import typer

from sleepd.cli.common import emit_json, warn


class SourceChoice(StrEnum):
    claude = "claude"
    codex = "codex"
    all = "all"


def harvest(
    source: SourceChoice = typer.Option(SourceChoice.all, "--source", help="Which transcripts."),
    jobs: int = typer.Option(
        None,
        "--jobs",
        "-j",
        min=0,
        help="Processes that parse a large harvest: 1 in this process, more start worker "
        "processes, 0 one per CPU (default: the config's harvest.workers).",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Read new transcript lines into the database (incremental, redacted)."""
    from sleepd.config import load_config
    from sleepd.harvest.plan import record_unchanged_run, unchanged_report

    cfg = load_config()
    listed: dict[str, Any] = {}
    quick = unchanged_report(cfg, source.value, listed)
    if quick is not None:  # nothing changed: no need to load the database layer
        record_unchanged_run(cfg, quick)
        _print_report(quick.to_dict(), json_out)
        return

    from sleepd.harvest.plan import sqlite_target_at_head
    from sleepd.jobs import run_harvest_job

    # A SQLite file at head is written through the stdlib driver: no SQLAlchemy import.
    store: Any = sqlite_target_at_head(cfg)
    if store is None:
        from sleepd.store.open import open_store

        store = open_store(cfg, write=True)
    progress_cb = None
    progress_ctx = None
    if sys.stderr.isatty() and not json_out:
        from rich.console import Console
        from rich.progress import Progress

        progress_ctx = Progress(transient=True, console=Console(stderr=True))
        progress_ctx.start()
        tasks: dict[str, object] = {}

        def progress_cb(name: str, done: int, total: int) -> None:
            assert progress_ctx is not None
            if name not in tasks:
                tasks[name] = progress_ctx.add_task(f"harvest {name}", total=total)
            progress_ctx.update(tasks[name], completed=done)  # type: ignore[arg-type]

    try:
        run_id = run_harvest_job(
            store,
            cfg,
            trigger="manual",
            source=source.value,
            progress=progress_cb,
            jobs=jobs,
            listed=listed,
        )
    finally:
        if progress_ctx is not None:
            progress_ctx.stop()
    from sleepd.store.fastread import EngineReader, Reader, ReadOnlyDb, stored_json
    from sleepd.store.writedb import WriteTarget

    reader: Reader = (
        ReadOnlyDb(store.url) if isinstance(store, WriteTarget) else EngineReader(store)
    )
    try:
        detail = dict(
            stored_json(reader.scalar("SELECT detail FROM job_runs WHERE id = :id", {"id": run_id}))
            or {}
        )
    finally:
        reader.close()
        if isinstance(store, WriteTarget):
            store.close()
    for notice in detail.get("notices", []):
        warn(notice)
    for per in detail.get("per_source", {}).values():
        for message in per.get("error_messages", []):
            warn(message)
    _print_report(detail, json_out)


def _print_report(detail: dict[str, Any], json_out: bool) -> None:
    if json_out:
        emit_json(detail)
        return
    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import kv_panel

    stdout_console().print(
        kv_panel(
            f"harvested in {detail['duration_s']:.2f} s",
            [
                ("files", f"{detail['files_changed']} changed of {detail['files_scanned']}"),
                ("new sessions", str(detail["sessions_new"])),
                ("new events", str(detail["events_new"])),
                ("read", f"{detail['bytes_read'] / 1e6:.1f} MB"),
                ("malformed lines skipped", str(detail["malformed_lines"])),
                ("secrets redacted", str(detail["redactions"])),
                ("errors", str(detail["errors"])),
            ],
        )
    )


def search(
    query: str = typer.Argument(..., help="Words to find in harvested event text."),
    project: str = typer.Option(None, "--project", help="Only this project path."),
    source: str = typer.Option(None, "--source", help="claude or codex."),
    limit: int = typer.Option(20, "--limit", min=1, max=1000, help="Hits per page."),
    page: int = typer.Option(1, "--page", min=1, help="Which page of hits (newest first)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Full-text search over harvested events, newest first.

    Every word must appear (in any order, case and accents ignored); a word with
    punctuation in it, like exit-code or src/main.rs, must appear as typed. Words in
    Chinese, Japanese, Korean or Thai are found inside a sentence, from one character on.
    """
    from sleepd.cli.search_cmd import run_search

    run_search(query, project=project, source=source, limit=limit, page=page, json_out=json_out)


def register(app: typer.Typer) -> None:
    app.command("harvest")(harvest)
    app.command("search")(search)
