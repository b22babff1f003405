"""`sleepd rollback` and `sleepd history`."""

from __future__ import annotations

import sys

import typer

from sleepd.cli.common import ExitCode, emit_json, info
from sleepd.cli.review_cmd import CommandError
from sleepd.cli.terminal import visible


def rollback(
    target: str = typer.Option(None, "--target", help="The document (default: the only one)."),
    to: int = typer.Option(None, "--to", help="Version id from `sleepd history`."),
    yes: bool = typer.Option(False, "--yes", help="Do not ask for confirmation."),
) -> None:
    """Restore a document byte for byte (default: as it was before the last adoption;
    a document that adoption created is removed)."""
    from sleepd.config import load_config
    from sleepd.review.queue import reviewer_name
    from sleepd.review.rollback import execute_rollback, plan_rollback
    from sleepd.store.open import open_store

    engine = open_store(load_config(), write=True)
    plan = plan_rollback(engine, target_path=target, to_version=to)
    if plan.is_noop:
        state = (
            "is already absent" if plan.removes else f"already matches version #{plan.version_id}"
        )
        info(f"{plan.path} {state}; nothing to do")
        return
    question = (
        f"Remove {plan.path}? It did not exist before sleepd's last adoption."
        if plan.removes
        else f"Restore {plan.path} to version #{plan.version_id}?"
    )
    sys.stdout.write(visible(plan.diff))
    sys.stdout.flush()
    if not yes:
        if not sys.stdin.isatty():
            raise CommandError(
                "rollback asks for confirmation; pass --yes in scripts", ExitCode.NO_TTY
            )
        if not typer.confirm(question):
            info("nothing changed")
            return
    result = execute_rollback(engine, plan, actor=reviewer_name())
    backup = f"; the replaced content is version #{result.backup_version_id}"
    if result.restored_version_id is None:
        info(f"removed {result.path}, as it was before sleepd created it{backup}")
    else:
        info(f"restored {result.path} to version #{result.restored_version_id}{backup}")


def history(
    target: str = typer.Option(None, "--target", help="Only this document."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Stored versions of the managed documents, newest first (* = current reference)."""
    from sleepd.config import load_config
    from sleepd.review.history import list_history
    from sleepd.store.open import database_exists, open_store
    from sleepd.watch.report import WatchSettings

    cfg = load_config()
    rows = (
        []
        if not database_exists(cfg)
        else list_history(open_store(cfg), target_path=target, watch=WatchSettings.from_config(cfg))
    )
    if json_out:
        emit_json([r.to_dict() for r in rows])
        return
    if not rows:
        info("no stored versions yet")
        return
    from rich.text import Text

    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import table
    from sleepd.cli.watch_view import VERDICT_STYLE, print_command, verdict_text

    shown = table(
        ["version", "stored", "origin", "size", "live sessions", "document"],
        title="Stored versions, newest first (* = the current reference)",
    )
    for r in rows:
        proposal = f" (proposal #{r.proposal_id})" if r.proposal_id else ""
        verdict = (
            Text(r.watch["verdict"], style=VERDICT_STYLE[r.watch["verdict"]])
            if r.watch
            else Text("—")
        )
        shown.add_row(
            f"{'*' if r.current else ' '}#{r.id}",
            f"{r.created_at:%Y-%m-%d %H:%M}",
            r.origin + proposal,
            f"{r.size:,} B",
            verdict,
            Text(f"{r.path}\nsha256 {r.hash[:12]}…"),
        )
    console = stdout_console()
    console.print(shown)
    for r in rows:
        if r.watch:
            console.print(Text.assemble(f"#{r.id} ", verdict_text(r.watch)))
            print_command(console, r.watch)


def register(app: typer.Typer) -> None:
    app.command("rollback")(rollback)
    app.command("history")(history)
