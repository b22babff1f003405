"""`sleepd harvest`: the unchanged-tree answer or a harvest, then the report.

Most manual harvests find little or nothing new, so their cost is start-up. A line
made only of `--json`, `--source NAME` and `--jobs N` (each at most once, with a value
the typer command would accept) runs from here without building the typer app, as
`search` and `mine` do (`sleepd.cli.app.lean_command`); every other line (`--help`,
an unknown option, a bad value, a repeated option) goes to typer, whose `harvest`
command calls the same `run_harvest`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

#: The sources `--source` takes (the typer command's choices; a test holds them equal).
SOURCES = ("claude", "codex", "all")
_VALUED = {"--source": "source", "--jobs": "jobs", "-j": "jobs"}


def parse_lean(args: Sequence[str]) -> tuple[str, int | None, bool] | None:
    """(source, jobs, json_out) for a line the lean path takes, else None (typer parses it).

    Values are read as click reads them (`--name=value` on long options only); a number
    is taken only in its plain form (digits, an optional `+`)."""
    source, jobs, json_out = "all", None, False
    seen: set[str] = set()
    rest = list(args)
    while rest:
        token = rest.pop(0)
        name, eq, value = token.partition("=") if token.startswith("--") else (token, "", "")
        if name == "--json" and not eq:
            key = "json"
        elif name in _VALUED:
            key = _VALUED[name]
            if not eq:
                if not rest:
                    return None
                value = rest.pop(0)
        else:
            return None
        if key in seen:
            return None
        seen.add(key)
        if key == "json":
            json_out = True
        elif key == "source":
            if value not in SOURCES:
                return None
            source = value
        else:
            if not (value.isascii() and value.lstrip("+").isdigit()) or value.count("+") > 1:
                return None  # odd forms (`1_0`, ` 4`, `-0`) are typer's to read
            jobs = int(value)
    return source, jobs, json_out


def lean_harvest(args: Sequence[str]) -> Callable[[], Any] | None:
    """A callable running `sleepd harvest ARGS` without typer, or None (typer parses it)."""
    parsed = parse_lean(args)
    if parsed is None:
        return None
    source, jobs, json_out = parsed
    return lambda: run_harvest(source=source, jobs=jobs, json_out=json_out)


def run_harvest(*, source: str, jobs: int | None, json_out: bool) -> None:
    """Harvest what is new (nothing: a report of zero, recorded as a run) and report."""
    from sleepd.config import load_config
    from sleepd.harvest.plan import record_unchanged_run, unchanged_report

    cfg = load_config()
    listed: dict[str, Any] = {}
    quick = unchanged_report(cfg, source, listed)
    if quick is not None:  # nothing changed: no need to load the database layer
        record_unchanged_run(cfg, quick)
        print_report(quick.to_dict(), json_out)
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
        from rich.progress import Progress

        from sleepd.cli.terminal import safe_console

        progress_ctx = Progress(transient=True, console=safe_console(stderr=True))
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
            source=source,
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
    from sleepd.cli.common import warn

    for notice in detail.get("notices", []):
        warn(notice)
    for per in detail.get("per_source", {}).values():
        for message in per.get("error_messages", []):
            warn(message)
    print_report(detail, json_out)


def print_report(detail: dict[str, Any], json_out: bool) -> None:
    """The run's figures: JSON (the `--json` contract) or one panel."""
    if json_out:
        from sleepd.cli.common import emit_json

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
                *(
                    [("lines stored clipped", _clipped_text(detail))]
                    if detail.get("truncated_lines")
                    else []
                ),
                *(
                    [("copied history skipped", _copies_text(detail))]
                    if detail.get("rewritten_copies")
                    else []
                ),
                *(
                    [("history of resumed sessions", _history_text(detail))]
                    if detail.get("resumed_history")
                    else []
                ),
                *(
                    [("read again", _read_again_text(detail))]
                    if detail.get("files_read_again")
                    else []
                ),
                ("secrets redacted", str(detail["redactions"])),
                ("errors", str(detail["errors"])),
            ],
        )
    )


def _read_again_text(detail: dict[str, Any]) -> str:
    """How many files another harvest read were read again, and what changed."""
    files, events = int(detail["files_read_again"]), int(detail.get("events_read_again") or 0)
    return (
        f"{files} file{'s' if files != 1 else ''} an older harvest read (an upgrade): "
        f"{events} stored event{'s' if events != 1 else ''} now read otherwise, their "
        "sessions to be mined again"
    )


def _copies_text(detail: dict[str, Any]) -> str:
    """How many events a source wrote a second time (stored once)."""
    count = int(detail["rewritten_copies"])
    return f"{count} event{'s' if count != 1 else ''} written again by a resumed session"


def _history_text(detail: dict[str, Any]) -> str:
    """How many events a resumed session's file copied from the session it resumed."""
    count = int(detail["resumed_history"])
    return f"{count} event{'s' if count != 1 else ''} kept as context, counted once"


def _clipped_text(detail: dict[str, Any]) -> str:
    """How many lines were too long to store whole, and in which files."""
    files = [
        name
        for source in detail.get("per_source", {}).values()
        for name in source.get("truncated_files", [])
    ]
    return f"{detail['truncated_lines']} (over the line limit; in {', '.join(files)})"
