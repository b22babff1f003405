"""Migrations build the schema, tear it down, and agree with the models."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import inspect

from sleepd.store import migrate
from sleepd.store.engine import make_engine
from sleepd.store.models import Base
from sleepd.store.schema_version import HEAD_REVISION


def test_upgrade_from_empty_to_head_and_down_to_base(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    assert migrate.db_state(engine).empty
    migrate.upgrade(engine)
    state = migrate.db_state(engine)
    assert state.at_head and state.current == state.head
    tables = set(inspect(engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    assert "events_fts" in tables
    migrate.downgrade(engine, "base")
    remaining = set(inspect(engine).get_table_names())
    assert remaining == {"alembic_version"}
    assert migrate.db_state(engine).empty


def test_models_and_migrations_agree(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate.upgrade(engine)
    assert migrate.pending_differences(engine) == []


def test_fast_head_constant_matches_alembic(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    assert migrate.head_revision(engine) == HEAD_REVISION


FTS_QUERY = "SELECT rowid FROM events_fts WHERE events_fts MATCH 'flaky'"


def test_fts_stays_in_sync_with_events(db_engine) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import text

    from sleepd.store.engine import write_session
    from sleepd.store.models import Event, Session

    with write_session(db_engine) as db:
        s = Session(source="claude", external_id="s1", meta={})
        db.add(s)
        db.flush()
        db.add(
            Event(
                session_id=s.id,
                seq=1,
                external_id="e1",
                role="user",
                kind="user_prompt",
                text="please fix the flaky pytest fixture",
            )
        )
    with db_engine.connect() as conn:
        hits = conn.execute(
            text("SELECT rowid FROM events_fts WHERE events_fts MATCH 'flaky'")
        ).all()
        assert len(hits) == 1
    with write_session(db_engine) as db:
        db.query(Event).delete()
    with db_engine.connect() as conn:
        hits = conn.execute(
            text("SELECT rowid FROM events_fts WHERE events_fts MATCH 'flaky'")
        ).all()
        assert hits == []
