"""`sleepd review` (interactive) and `review list|show|accept|reject` for scripts."""

from __future__ import annotations

import sys
from typing import Any

import typer

from sleepd.cli.common import ExitCode, emit_json, info
from sleepd.cli.terminal import safe_console, visible
from sleepd.errors import SleepdError


class CommandError(SleepdError):
    """A one-line failure with a chosen exit status, raised so `main()` maps it to that status."""

    def __init__(self, message: str, code: ExitCode) -> None:
        super().__init__(message)
        self.exit_code = code


review_app = typer.Typer(
    help="Decide on staged proposals. Without a command: the interactive queue "
    "(y accept, n reject, s skip, e edit, v evidence, q quit, ? help).",
    invoke_without_command=True,
    no_args_is_help=False,
)

SCRIPT_HINT = "use `sleepd review list`, `review show ID`, `review accept ID`, `review reject ID`"


def _engine(*, write: bool) -> Any:
    """None when a reader finds no database yet (nothing staged, nothing to show)."""
    from sleepd.config import load_config
    from sleepd.store.open import database_exists, open_store

    cfg = load_config()
    if not write and not database_exists(cfg):
        return None
    return open_store(cfg, write=write)


@review_app.callback()
def review(ctx: typer.Context) -> None:
    """Walk the queue: y accept, n reject, s skip, e edit, v evidence, q quit, ? help."""
    if ctx.invoked_subcommand is not None:
        return
    if not sys.stdin.isatty():
        raise CommandError(
            f"`sleepd review` needs a terminal; in scripts {SCRIPT_HINT}", ExitCode.NO_TTY
        )
    from rich.markup import escape

    from sleepd.review.interactive import run_interactive
    from sleepd.review.queue import reviewer_name

    console = safe_console()

    def ask(prompt: str) -> str:
        return console.input(escape(prompt))

    run_interactive(_engine(write=True), console, ask, reviewer_name())


@review_app.command("list")
def list_cmd(
    status: str = typer.Option(
        "pending", "--status", help="pending, accepted, rejected, stale, superseded or all."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List proposals (pending by default), oldest first."""
    from sleepd.review.queue import PROPOSAL_STATES, list_proposals

    if status != "all" and status not in PROPOSAL_STATES:
        allowed = ", ".join(PROPOSAL_STATES)
        raise CommandError(f"--status “{status}”: expected all or one of {allowed}", ExitCode.USAGE)
    from sleepd.config import load_config
    from sleepd.store.fastread import open_reader

    db = open_reader(load_config())
    wanted = None if status == "all" else status
    try:
        views = [] if db is None else list_proposals(db, status=wanted)
    finally:
        if db is not None:
            db.close()
    if json_out:
        emit_json([v.to_dict(with_diff=False) for v in views])
        return
    if not views:
        info(f"no {'' if status == 'all' else status + ' '}proposals")
        return
    from rich.text import Text

    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import table

    shown = table(
        ["proposal", "status", "validation lift", "p-value", "document"],
        title="Proposals, oldest first (`sleepd review show ID` tells the story)",
    )
    for v in views:
        proposal = Text(f"#{v.id}")
        if v.simulated:
            proposal.append("\nSIMULATED", "bold yellow")
        shown.add_row(
            proposal,
            v.status,
            "—" if v.val_lift is None else f"{v.val_lift:+.3f}",
            "—" if v.p_value is None else f"{v.p_value:.2g}",
            Text(v.document_path),
        )
    stdout_console().print(shown)


@review_app.command("show")
def show(
    proposal_id: int = typer.Argument(..., metavar="ID"),
    json_out: bool = typer.Option(False, "--json", help="Print JSON (with evidence)."),
    no_pager: bool = typer.Option(
        False, "--no-pager", help="Print straight to the terminal (no less), like git."
    ),
) -> None:
    """One proposal: what the night found, the edit, the decision, the evidence."""
    from dataclasses import asdict

    from sleepd.errors import NotFoundError
    from sleepd.review.evidence import gather_evidence
    from sleepd.review.queue import get_proposal

    engine = _engine(write=False)
    if engine is None:
        raise NotFoundError(f"no proposal #{proposal_id}")
    view = get_proposal(engine, proposal_id)
    evidence = gather_evidence(engine, proposal_id)
    from sleepd.config import load_config
    from sleepd.watch.linking import EngineReader
    from sleepd.watch.report import WatchSettings, watch_for_proposal

    watched = watch_for_proposal(
        EngineReader(engine), WatchSettings.from_config(load_config()), proposal_id
    )
    live = watched.to_dict() if watched is not None else None
    if json_out:
        emit_json({**view.to_dict(), "evidence": asdict(evidence), "watch": live})
        return
    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import paged
    from sleepd.review.render import render_diff, render_evidence, render_header, render_story
    from sleepd.review.story import gather_story

    story = gather_story(engine, proposal_id)
    with paged(stdout_console(), enabled=not no_pager) as console:
        render_header(console, view)
        render_story(console, view, story)
        console.rule("the change to the document", align="left")
        render_diff(console, view.diff)
        console.rule("evidence", align="left")
        render_evidence(console, evidence)
        if live is not None:
            from sleepd.cli.watch_view import print_command, verdict_text

            console.rule("after adoption (live sessions)", align="left")
            console.print(verdict_text(live))
            print_command(console, live)


@review_app.command("accept")
def accept(
    proposal_id: int = typer.Argument(..., metavar="ID"),
    yes_merge: bool = typer.Option(
        False, "--yes-merge", help="Write a clean three-way merge when the document moved."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Adopt a proposal: back up, write atomically, record (exit 4 on conflict)."""
    from dataclasses import asdict

    from sleepd.review.adopt import MergeRequired, adopt_proposal
    from sleepd.review.queue import reviewer_name

    try:
        result = adopt_proposal(
            _engine(write=True), proposal_id, actor=reviewer_name(), allow_merge=yes_merge
        )
    except MergeRequired as exc:
        sys.stdout.write(visible(exc.plan.merge_diff))
        sys.stdout.flush()
        raise
    if json_out:
        emit_json(asdict(result))
        return
    merged = " (merged)" if result.merged else ""
    info(
        f"adopted proposal #{proposal_id}{merged} into {result.path} "
        f"as version #{result.adopted_version_id}"
    )
    if result.stale_proposal_ids:
        info("marked stale: " + ", ".join(f"#{i}" for i in result.stale_proposal_ids))


@review_app.command("reject")
def reject(
    proposal_id: int = typer.Argument(..., metavar="ID"),
    reason: str = typer.Option("", "--reason", help="Why (kept with the decision)."),
) -> None:
    """Reject a proposal (exit 3 if unknown, 4 if already decided)."""
    from sleepd.review.adopt import reject_proposal
    from sleepd.review.queue import reviewer_name

    reject_proposal(_engine(write=True), proposal_id, actor=reviewer_name(), reason=reason or None)
    info(f"rejected proposal #{proposal_id}")


def register(app: typer.Typer) -> None:
    app.add_typer(review_app, name="review")
