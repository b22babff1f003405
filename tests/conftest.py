"""Every test runs in a private home: nothing touches the real ~/.claude or ~/.codex."""

from __future__ import annotations

import itertools
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
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
    # A project's own pytest, which the tools-mode replay runs as a subprocess, loads only
    # its own plugins, not this virtualenv's (hypothesis, xdist): those would triple each
    # run's start-up and are no part of what a user's project runs.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return base


# ---- the database under test: SQLite, or PostgreSQL for tests marked both_dbs ----------
#
# A test that asks for `db_url`, `db_engine` (or a fixture built on them) runs on SQLite;
# marked `@pytest.mark.both_dbs` it runs once more on PostgreSQL: a throwaway cluster
# (tests/pgcluster.py) started once per session unless SLEEPD_TEST_PG_URL names a
# server, and a database per test copied from a template migrated once.

PG_URL_ENV = "SLEEPD_TEST_PG_URL"
_pg_numbers = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    """xdist's per-file scheduling hands out files in collection order, as
    `pytest_collection_modifyitems` leaves it; by default it would first re-sort them by
    their number of tests, which sends the long one-test files (a whole night, a kill
    series) last, onto one worker, while the other waits."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files holding a test marked slow run first, each file's tests in their order: with
    one file per xdist worker at a time, a long file started last would leave the other
    cores idle until it ends."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)


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


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Any]:
    """`migrated_sqlite(db_file)`: an engine on a new SQLite database at head in `db_file`.

    Alembic runs once per session, on a template; each test's database is a byte copy of
    it (what `upgrade` on an empty file gives, in a millisecond instead of a tenth of a
    second of CPU). The migrations themselves are tested in tests/store/test_migrations.py.
    """
    from sleepd import paths
    from sleepd.store.engine import make_engine
    from sleepd.store.migrate import upgrade

    base = tmp_path_factory.mktemp("sqlite-template")
    template = base / "sleepd.db"
    with pytest.MonkeyPatch.context() as patch:  # the migration makes a host id: not in ~
        patch.setenv("SLEEPD_HOME", str(base / "home"))
        engine = make_engine(f"sqlite:///{template}")
        upgrade(engine)
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        engine.dispose()
    wal = template.with_name(template.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the template's WAL was not folded in"

    def copy(db_file: Path) -> Any:
        paths.ensure_private_dir(db_file.parent)
        shutil.copyfile(template, db_file)
        db_file.chmod(0o600)
        return make_engine(f"sqlite:///{db_file}")

    return copy


@pytest.fixture
def db_engine(db_url: str, db_kind: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A migrated database: the home's SQLite file, or a PostgreSQL database (both_dbs);
    each a copy of a template migrated once per session."""
    from sleepd.store.engine import make_engine
    from sleepd.store.urls import sqlite_file_for

    if db_kind == "sqlite":
        db_file = sqlite_file_for(db_url)
        assert db_file is not None
        engine = request.getfixturevalue("migrated_sqlite")(db_file)
    else:
        engine = make_engine(db_url)  # created from the migrated template (`db_url`)
    yield engine
    engine.dispose()


@dataclass(frozen=True)
class DemoRun:
    """One `sleepd demo --home HOME` run as a user runs it, and what it left behind.

    `database` is a copy of the demo's database taken the moment the demo ended: tests
    that go on to run commands in `home` change the live one, never this copy.
    `outside` is where SLEEPD_HOME and the agents' homes pointed during the demo (the
    demo promises to touch nothing outside its own home).
    """

    home: Path
    width: int
    proc: subprocess.CompletedProcess[str]
    database: Path
    outside: Path


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], DemoRun]:
    """`demo_run(width)`: the demo at `width` columns, run once per session and width.

    The demo is a few whole simulated nights (tens of seconds of CPU); every test in this
    process (one xdist worker) that needs one at the same width shares this run, so the
    tests that use it live in one file (tests/cli/test_render.py) and use one width.
    """
    runs: dict[int, DemoRun] = {}

    def at(width: int) -> DemoRun:
        if width not in runs:
            runs[width] = _run_demo(tmp_path_factory.mktemp(f"demo{width}"), width)
        return runs[width]

    return at


def _run_demo(base: Path, width: int) -> DemoRun:
    home, outside = base / "home", base / "outside"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.pop("SLEEPD_DATABASE_URL", None)
    env.update(
        SLEEPD_HOME=str(outside / "sleepd-home"),
        SLEEPD_CONFIG=str(outside / "config.toml"),
        CLAUDE_CONFIG_DIR=str(outside / "claude"),
        CODEX_HOME=str(outside / "codex"),
        COLUMNS=str(width),
        LINES="50",
        TERM="dumb",
        NO_COLOR="1",
    )
    proc = subprocess.run(
        [str(Path(sys.executable).with_name("sleepd")), "demo", "--home", str(home)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    database = base / "demo-as-left.db"
    live = home / "state" / "sleepd.db"
    if live.exists():
        with closing(sqlite3.connect(live)) as source, closing(sqlite3.connect(database)) as copy:
            source.backup(copy)
    return DemoRun(home=home, width=width, proc=proc, database=database, outside=outside)
