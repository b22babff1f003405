"""`sleepd db upgrade|current|check`."""

from __future__ import annotations

import typer

from sleepd.cli.common import ExitCode, emit_json, fail, info

db_app = typer.Typer(help="Database migrations.", no_args_is_help=True)


def _url() -> str:
    from sleepd import paths
    from sleepd.config import load_config
    from sleepd.store.open import database_url

    paths.home_dir(create=True)
    return database_url(load_config())


def _engine(*, allow_damaged: bool = False) -> object:
    from sleepd.store.engine import make_engine

    return make_engine(_url(), allow_damaged=allow_damaged)


@db_app.command("upgrade")
def upgrade(
    revision: str = typer.Argument("head", help="Target revision."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Migrate the database to the newest schema (refused while a daemon holds it)."""
    from sqlalchemy.engine import Engine

    from sleepd.daemon.lock import daemon_lock_holder
    from sleepd.store import migrate

    holder = daemon_lock_holder()
    if holder is not None:
        fail(
            f"the daemon (pid {holder}) holds this database; stop it first "
            "(`systemctl --user stop sleepd`), then run `sleepd db upgrade`",
            ExitCode.LOCKED,
        )
    engine = _engine()
    assert isinstance(engine, Engine)
    before = migrate.db_state(engine)
    migrate.upgrade(engine, revision)
    after = migrate.db_state(engine)
    if json_out:
        emit_json({"from": before.current, "to": after.current, "head": after.head})
    elif before.current == after.current:
        info(f"database already at {after.current}")
    else:
        info(f"database upgraded {before.current or 'empty'} → {after.current}")


@db_app.command("current")
def current(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The database's revision and the code's head."""
    from sqlalchemy.engine import Engine

    from sleepd.store import migrate

    engine = _engine()
    assert isinstance(engine, Engine)
    state = migrate.db_state(engine)
    if json_out:
        emit_json({"current": state.current, "head": state.head, "at_head": state.at_head})
    else:
        typer.echo(f"current: {state.current or '(empty)'}  head: {state.head}")


@db_app.command("check")
def check(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Check the file's integrity, then that it is at head and matches the models.

    Runs `PRAGMA integrity_check` (read-only) on a SQLite file first: a damaged file exits
    non-zero naming the first problems, and stays marked so nothing writes to it; a sound
    one lifts an earlier damage mark.
    """
    from sqlalchemy.engine import Engine

    from sleepd.store import integrity, migrate
    from sleepd.store.engine import sqlite_file_for

    url = _url()
    db_file = sqlite_file_for(url)
    if db_file is not None and db_file.exists():
        problems = integrity.integrity_problems(db_file)
        if problems:
            integrity.mark_damaged(problems[0], db_file)
            if json_out:
                emit_json({"ok": False, "integrity": problems, "file": str(db_file)})
            fail(
                f"the database {db_file} is damaged: {problems[0]}"
                + (f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else "")
                + "; restore it from a backup or move it aside and run `sleepd harvest`"
                " to rebuild it from the transcripts",
                ExitCode.CHECK_FAILED,
            )
        integrity.clear_mark(db_file)
    engine = _engine()
    assert isinstance(engine, Engine)
    state = migrate.db_state(engine)
    diffs = [str(d) for d in migrate.pending_differences(engine)] if state.at_head else []
    ok = state.at_head and not diffs
    if json_out:
        emit_json(
            {
                "current": state.current,
                "head": state.head,
                "ok": ok,
                "integrity": "ok" if db_file is not None else "not checked (not SQLite)",
                "differences": diffs,
            }
        )
    if not state.at_head:
        fail(
            f"database at {state.current or 'empty'}, head is {state.head}; "
            "run `sleepd db upgrade`",
            ExitCode.DB_BEHIND,
        )
    if diffs:
        fail(f"database schema differs from the models: {diffs[0]}", ExitCode.CHECK_FAILED)
    if not json_out:
        info(
            f"database at head ({state.head}), in sync with the models"
            + (", integrity check ok" if db_file is not None else "")
        )


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")


@db_app.command("redact")
def redact(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Run today's redaction rules over everything already stored.

    A harvest redacts with the rules of its day; after an upgrade that teaches them a
    kind of secret, this rewrites the stored texts those rules now change (events,
    sessions, episodes, tasks, signals, failure patterns), a batch at a time.
    """
    from sqlalchemy.engine import Engine

    from sleepd.config import load_config
    from sleepd.redaction.stored import redact_store
    from sleepd.store.open import open_store

    engine = open_store(load_config(), write=True)
    assert isinstance(engine, Engine)
    report = redact_store(engine)
    if json_out:
        emit_json(report.to_dict())
        return
    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import kv_panel

    rows = [
        (table, f"{report.changed.get(table, 0)} rewritten of {count} read")
        for table, count in report.scanned.items()
    ]
    rows.append(
        (
            "secrets redacted",
            ", ".join(f"{rule} {n}" for rule, n in sorted(report.by_rule.items())) or "none",
        )
    )
    stdout_console().print(kv_panel("stored texts redacted with today's rules", rows))
