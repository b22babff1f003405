"""`sleepd db upgrade|current|check`."""

from __future__ import annotations

import typer

from sleepd.cli.common import ExitCode, emit_json, fail, info

db_app = typer.Typer(help="Database migrations.", no_args_is_help=True)


def _engine() -> object:
    from sleepd import paths
    from sleepd.config import load_config
    from sleepd.store.engine import make_engine
    from sleepd.store.open import database_url

    paths.home_dir(create=True)
    return make_engine(database_url(load_config()))


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
    """Exit non-zero when the database is behind head or differs from the models."""
    from sqlalchemy.engine import Engine

    from sleepd.store import migrate

    engine = _engine()
    assert isinstance(engine, Engine)
    state = migrate.db_state(engine)
    diffs = [str(d) for d in migrate.pending_differences(engine)] if state.at_head else []
    ok = state.at_head and not diffs
    if json_out:
        emit_json({"current": state.current, "head": state.head, "ok": ok, "differences": diffs})
    if not state.at_head:
        fail(
            f"database at {state.current or 'empty'}, head is {state.head}; "
            "run `sleepd db upgrade`",
            ExitCode.DB_BEHIND,
        )
    if diffs:
        fail(f"database schema differs from the models: {diffs[0]}", ExitCode.CHECK_FAILED)
    if not json_out:
        info(f"database at head ({state.head}) and in sync with the models")


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
