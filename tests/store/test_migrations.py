"""Migrations build the schema, tear it down, and agree with the models."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from seed_rows import seed_events
from sqlalchemy import inspect

from sleepd.store import migrate
from sleepd.store.engine import make_engine
from sleepd.store.models import Base
from sleepd.store.schema_version import HEAD_REVISION


@pytest.mark.both_dbs
def test_upgrade_from_empty_to_head_and_down_to_base(empty_db_url: str, db_kind: str) -> None:
    """Every revision up, then every revision down, one step at a time."""
    from alembic.script import ScriptDirectory

    engine = make_engine(empty_db_url)
    assert migrate.db_state(engine).empty
    revisions = [
        script.revision
        for script in ScriptDirectory.from_config(migrate.alembic_config(engine)).walk_revisions()
    ][::-1]
    for revision in revisions:
        migrate.upgrade(engine, revision)
        assert migrate.current_revision(engine) == revision
    state = migrate.db_state(engine)
    assert state.at_head and state.current == state.head
    assert migrate.pending_differences(engine) == []  # `db check` finds no drift
    tables = set(inspect(engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    if db_kind == "sqlite":
        assert "events_fts" in tables
    else:
        columns = {c["name"] for c in inspect(engine).get_columns("events")}
        assert {"text_tsv", "owner_role"} <= columns
    for revision in [*revisions[-2::-1], "base"]:
        migrate.downgrade(engine, revision)
        assert migrate.current_revision(engine) == (None if revision == "base" else revision)
    remaining = set(inspect(engine).get_table_names())
    assert remaining == {"alembic_version"}
    assert migrate.db_state(engine).empty
    migrate.upgrade(engine)  # and up again over what the downgrades left
    assert migrate.pending_differences(engine) == []
    engine.dispose()


@pytest.mark.both_dbs
def test_models_and_migrations_agree(db_engine: Any) -> None:
    assert migrate.pending_differences(db_engine) == []


def test_fast_head_constant_matches_alembic(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    assert migrate.head_revision(engine) == HEAD_REVISION


def test_fts_stays_in_sync_with_events(db_engine) -> None:  # type: ignore[no-untyped-def]
    """Inserts are indexed by the ingest's bulk step; edits and deletes by triggers."""
    from sqlalchemy import text

    from sleepd.store.engine import write_session
    from sleepd.store.ingest import index_new_events, last_event_id
    from sleepd.store.models import Event, Session
    from sleepd.store.writedb import EngineWriteDb

    def hits(word: str) -> int:
        with db_engine.connect() as conn:
            query = text("SELECT count(*) FROM events_fts WHERE events_fts MATCH :w")
            return int(conn.execute(query, {"w": word}).scalar())

    with write_session(db_engine) as db:
        before = last_event_id(EngineWriteDb(db.connection()))
        s = Session(source="claude", external_id="s1", meta={})
        db.add(s)
        db.flush()
        for i, body in enumerate(("please fix the flaky pytest fixture", "and the cache")):
            db.add(
                Event(
                    session_id=s.id,
                    seq=i + 1,
                    external_id=f"e{i}",
                    role="user",
                    kind="user_prompt",
                    text=body,
                )
            )
        db.flush()
        index_new_events(EngineWriteDb(db.connection()), before)
    assert hits("flaky") == 1 and hits("cache") == 1
    with write_session(db_engine) as db:
        event = db.query(Event).filter(Event.external_id == "e1").one()
        event.text = "and the scheduler"
    assert hits("cache") == 0 and hits("scheduler") == 1
    with write_session(db_engine) as db:
        db.query(Event).delete()
    assert hits("flaky") == 0 and hits("scheduler") == 0


def test_0002_keeps_stored_events_searchable_both_ways(tmp_path: Path) -> None:
    """0002 rebuilds the full-text index: events stored under 0001 stay searchable."""
    from sqlalchemy import text

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate.upgrade(engine, "0001")
    with engine.begin() as conn:
        seed_events(
            conn,
            [("user_prompt", "fix the flaky fixture"), ("error", "ModuleNotFoundError: numpy")],
        )
        conn.execute(text("INSERT INTO events_fts(rowid, text) SELECT id, text FROM events"))

    def hits(word: str) -> int:
        with engine.connect() as conn:
            query = text("SELECT count(*) FROM events_fts WHERE events_fts MATCH :w")
            return int(conn.execute(query, {"w": word}).scalar())

    migrate.upgrade(engine)
    assert hits("flaky") == 1 and hits("numpy") == 1
    indexes = {ix["name"] for ix in inspect(engine).get_indexes("events")}
    assert "ix_events_errors" in indexes
    assert not indexes & {"ix_events_ts", "ix_events_kind", "ix_events_call_id"}
    with engine.connect() as conn:
        plan = " ".join(
            str(row[-1])
            for row in conn.execute(
                text("EXPLAIN QUERY PLAN SELECT count(*) FROM events WHERE kind = 'error'")
            )
        )
    assert "ix_events_errors" in plan  # the status count uses the partial index
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM events WHERE external_id = 'e0'"))
    assert hits("flaky") == 0 and hits("numpy") == 1
    migrate.downgrade(engine, "0001")
    assert hits("numpy") == 1
    assert "ix_events_kind" in {ix["name"] for ix in inspect(engine).get_indexes("events")}


def test_0003_drops_token_positions_and_keeps_events_searchable_both_ways(
    tmp_path: Path,
) -> None:
    """0003 rebuilds the full-text index without positions; 0002's phrases come back on
    the way down."""
    from sqlalchemy import text

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate.upgrade(engine, "0002")
    with engine.begin() as conn:
        seed_events(
            conn, [("error", "connection refused by the server"), ("error", "the server refused")]
        )
        conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('rebuild')"))

    def hits(match: str) -> int:
        with engine.connect() as conn:
            query = text("SELECT count(*) FROM events_fts WHERE events_fts MATCH :m")
            return int(conn.execute(query, {"m": match}).scalar())

    def fts_sql() -> str:
        with engine.connect() as conn:
            query = text("SELECT sql FROM sqlite_master WHERE name = 'events_fts'")
            return str(conn.execute(query).scalar())

    assert hits('"connection refused"') == 1
    migrate.upgrade(engine)
    assert "detail=none" in fts_sql()
    assert hits('"refused" "server"') == 2 and hits('"connection"') == 1
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM events WHERE external_id = 'e0'"))
        conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('integrity-check')"))
    assert hits('"connection"') == 0 and hits('"refused"') == 1
    migrate.downgrade(engine, "0002")
    assert "detail=none" not in fts_sql()
    assert hits('"the server refused"') == 1  # phrases work again
