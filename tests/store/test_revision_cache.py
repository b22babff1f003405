"""The schema revision check, remembered by file identity: trusted only while nothing changed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from sleepd import paths
from sleepd.config import Config
from sleepd.errors import DatabaseBehindError
from sleepd.store import revision_cache
from sleepd.store.engine import make_engine
from sleepd.store.migrate import downgrade, upgrade
from sleepd.store.open import open_store
from sleepd.store.schema_version import HEAD_REVISION
from sleepd.store.urls import sqlite_file_for


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///a/b.db",
        "sqlite:////abs/b.db",
        "sqlite+pysqlite:///x.db?timeout=3",
        "sqlite://",
        "sqlite:///:memory:",
        "sqlite:///a%20b.db",
        "sqlite:///~/x.db",
        "sqlite:///file:x.db?mode=ro&uri=true",
        "postgresql://u@h/db",
        "postgresql+psycopg://u:p@h:5432/db",
        "mysql:///db",
    ],
)
def test_the_sqlite_file_is_read_from_a_url_as_sqlalchemy_reads_it(url: str) -> None:
    parsed = make_url(url)
    expected = (
        None
        if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:")
        else Path(parsed.database).expanduser()
    )
    assert sqlite_file_for(url) == expected


@pytest.fixture
def cfg(isolated_home: Path) -> Config:
    config = Config()
    config.database_url = f"sqlite:///{isolated_home / 'store.db'}"
    return config


def db_file(cfg: Config) -> Path:
    path = sqlite_file_for(cfg.database_url)
    assert path is not None
    return path


def remembered(cfg: Config) -> bool:
    return revision_cache.known_at_head(revision_cache.identity(db_file(cfg), HEAD_REVISION))


def test_an_answer_is_kept_until_the_file_changes(cfg: Config) -> None:
    open_store(cfg, write=True).dispose()  # initialises the database
    open_store(cfg).dispose()
    assert remembered(cfg)
    engine = open_store(cfg)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO job_runs (job, trigger, started_at, outcome, detail) "
                "VALUES ('harvest', 'manual', '2026-01-01 00:00:00', 'ok', '{}')"
            )
        )
    engine.dispose()
    assert not remembered(cfg)  # a write: the next open checks again
    open_store(cfg).dispose()
    assert remembered(cfg)


def test_a_migration_outside_sleepd_is_seen(cfg: Config) -> None:
    open_store(cfg, write=True).dispose()
    open_store(cfg).dispose()
    assert remembered(cfg)
    with sqlite3.connect(db_file(cfg)) as conn:  # as another tool would downgrade it
        conn.execute("UPDATE alembic_version SET version_num = '0001'")
    with pytest.raises(DatabaseBehindError):
        open_store(cfg)


def test_sleepds_own_migrations_forget_the_answer(cfg: Config) -> None:
    open_store(cfg, write=True).dispose()
    open_store(cfg).dispose()
    engine = make_engine(cfg.database_url)
    downgrade(engine, "-1")
    assert not (paths.home_dir() / revision_cache.CACHE_NAME).exists()
    with pytest.raises(DatabaseBehindError):
        open_store(cfg)
    upgrade(engine)
    engine.dispose()
    open_store(cfg).dispose()


def test_a_hostile_cache_is_a_miss(cfg: Config) -> None:
    open_store(cfg, write=True).dispose()
    cache = paths.home_dir() / revision_cache.CACHE_NAME
    for hostile in (b"", b"\xff\x00", b"[]", b'{"at_head": {"path": 1}}'):
        cache.write_bytes(hostile)
        assert not remembered(cfg)
        open_store(cfg).dispose()  # checks, and remembers again
        assert remembered(cfg)


def test_other_databases_are_never_remembered() -> None:
    assert sqlite_file_for("postgresql://u@h/db") is None
    assert not revision_cache.known_at_head(None)
