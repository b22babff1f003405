"""Every test runs in a private home: nothing touches the real ~/.claude or ~/.codex."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
#: Real transcripts copied into the repository (sources and licences: SOURCES.md there).
CORPUS_DIR = REPO_ROOT / "tests" / "fixtures" / "real_sessions"


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    base = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("SLEEPD_HOME", str(base / "sleepd-home"))
    monkeypatch.setenv("SLEEPD_CONFIG", str(base / "config.toml"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(base / "claude"))
    monkeypatch.setenv("CODEX_HOME", str(base / "codex"))
    monkeypatch.delenv("SLEEPD_DATABASE_URL", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    return base


# ---- the database under test: SQLite, or PostgreSQL for tests marked both_dbs ----------
#
# A test that asks for `db_url`, `db_engine` (or a fixture built on them) runs on SQLite;
# marked `@pytest.mark.both_dbs` it runs once more on PostgreSQL: a throwaway cluster
# (tests/pgcluster.py) started once per session unless SLEEPD_TEST_PG_URL names a
# server, and a database per test copied from a template migrated once.

PG_URL_ENV = "SLEEPD_TEST_PG_URL"
_pg_numbers = itertools.count(1)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_kind" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_dbs"):
        metafunc.parametrize("db_kind", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def db_kind(request: pytest.FixtureRequest) -> str:
    """Which database the test runs on (parametrised by the both_dbs mark)."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a PostgreSQL server the tests may create databases on."""
    given = os.environ.get(PG_URL_ENV, "").strip()
    if given:
        yield given
        return
    import pgcluster

    base, url = pgcluster.start()
    try:
        yield url
    finally:
        pgcluster.stop(base)


class PgAdmin:
    """Creates and drops the per-test databases, on one autocommit connection."""

    def __init__(self, server_url: str) -> None:
        import psycopg

        self.server_url = server_url
        self.conn = psycopg.connect(_conninfo(server_url), autocommit=True)
        self.template = f"sleepd_template_{os.getpid()}"

    def url(self, database: str) -> str:
        from sqlalchemy.engine import make_url

        return make_url(self.server_url).set(database=database).render_as_string(False)

    def create(self, name: str, template: str | None = None) -> str:
        self.drop(name)
        clause = f" TEMPLATE {template}" if template else ""
        self.conn.execute(f'CREATE DATABASE "{name}"{clause}')
        return self.url(name)

    def drop(self, name: str) -> None:
        self.conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def execute(self, sql: str) -> None:
        self.conn.execute(sql)


def _conninfo(url: str) -> str:
    """A libpq URI from a SQLAlchemy URL (no driver suffix)."""
    _scheme, _, rest = url.partition("://")
    return f"postgresql://{rest}"


@pytest.fixture(scope="session")
def pg_admin(pg_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[PgAdmin]:
    """The server with a template database at head, migrated once for the session."""
    from sleepd.store.engine import make_engine
    from sleepd.store.migrate import upgrade

    admin = PgAdmin(pg_server)
    with pytest.MonkeyPatch.context() as patch:  # the migration makes a host id: not in ~
        patch.setenv("SLEEPD_HOME", str(tmp_path_factory.mktemp("pg-template-home")))
        engine = make_engine(admin.create(admin.template))
        upgrade(engine)
        engine.dispose()
    yield admin
    admin.drop(admin.template)
    admin.conn.close()


@pytest.fixture
def db_url(db_kind: str, isolated_home: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL of an empty database at head (SQLite: not yet created; it is the home's)."""
    if db_kind == "sqlite":
        yield f"sqlite:///{isolated_home / 'sleepd-home' / 'sleepd.db'}"
        return
    admin: PgAdmin = request.getfixturevalue("pg_admin")
    name = f"sleepd_test_{os.getpid()}_{next(_pg_numbers)}"
    url = admin.create(name, template=admin.template)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SLEEPD_DATABASE_URL", url)  # the CLI and open_store use it too
        yield url
    admin.drop(name)


@pytest.fixture
def empty_db_url(db_kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A database with no schema at all (for the migration tests)."""
    if db_kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    admin: PgAdmin = request.getfixturevalue("pg_admin")
    name = f"sleepd_empty_{os.getpid()}_{next(_pg_numbers)}"
    yield admin.create(name)
    admin.drop(name)


@pytest.fixture
def db_engine(db_url: str, db_kind: str) -> Iterator[Any]:
    """A migrated database: the home's SQLite file, or a PostgreSQL database (both_dbs)."""
    from sleepd.store.engine import make_engine
    from sleepd.store.migrate import upgrade

    engine = make_engine(db_url)
    if db_kind == "sqlite":
        upgrade(engine)  # PostgreSQL's was copied from the migrated template
    yield engine
    engine.dispose()
