"""PostgreSQL as the team store: the driver, search through its index, advisory locks,
and row-level security that keeps one member's transcripts from another, even in SQL."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from sleepd.store.engine import make_engine
from sleepd.store.urls import driver_url, is_postgres

REPO = Path(__file__).resolve().parents[2]


def test_postgresql_urls_mean_psycopg_3() -> None:
    assert driver_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert driver_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert driver_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert driver_url("sqlite:////x.db") == "sqlite:////x.db"
    assert is_postgres("postgres://h/db") and not is_postgres("sqlite:////x.db")


@pytest.mark.parametrize("command", [["status"], ["db", "check"], ["harvest"], ["search", "x"]])
def test_a_missing_driver_is_one_line_naming_the_extra(tmp_path: Path, command: list[str]) -> None:
    """psycopg made unimportable (as if never installed): one line, no traceback."""
    (tmp_path / "sitecustomize.py").write_text('import sys\nsys.modules["psycopg"] = None\n')
    env = {
        **os.environ,
        "PYTHONPATH": str(tmp_path),
        "SLEEPD_DATABASE_URL": "postgresql://someone@db.invalid/sleepd",
    }
    done = subprocess.run(
        [sys.executable, "-m", "sleepd", *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "pip install 'sleepd[postgres]'" in lines[0]
    assert "Traceback" not in done.stderr


def test_an_unreachable_server_is_one_line(tmp_path: Path) -> None:
    url = f"postgresql://someone@/sleepd?host={tmp_path}"  # no server on that socket
    for command in (["status"], ["db", "check"], ["search", "x"]):
        done = subprocess.run(
            [sys.executable, "-m", "sleepd", *command],
            env={**os.environ, "SLEEPD_DATABASE_URL": url},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 1, (command, done.stdout)
        assert done.stderr.startswith("sleepd: error: database: "), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.fixture
def pg(pg_admin: Any) -> Iterator[Any]:
    """A fresh PostgreSQL database at head (copied from the session's template)."""
    name = f"sleepd_pgt_{os.getpid()}"
    engine = make_engine(pg_admin.create(name, template=pg_admin.template))
    yield engine
    engine.dispose()
    pg_admin.drop(name)


def test_search_goes_through_the_gin_index_and_ranks(pg: Any) -> None:
    from seed_rows import seed_events

    from sleepd.search import search_events

    with pg.begin() as conn:
        seed_events(
            conn,
            [
                ("user_prompt", "Café crème: the pytest fixture failed"),
                ("user_prompt", "pytest pytest pytest fixture fixture"),
                ("user_prompt", "unrelated"),
            ],
            dated=True,
        )
        conn.execute(text("SET LOCAL enable_seqscan = off"))
        plan = " ".join(
            str(r[0])
            for r in conn.execute(
                text(
                    "EXPLAIN SELECT id FROM events WHERE text_tsv @@ "
                    "plainto_tsquery('simple', sleepd_search_text('pytest'))"
                )
            )
        )
    assert "ix_events_text_tsv" in plan
    hits = search_events(pg, "PYTEST fixture")
    assert len(hits) == 2 and all(h.rank is not None and h.rank > 0 for h in hits)
    assert [h.event_id for h in search_events(pg, "cafe creme")] == [1]
    assert hits[0].to_dict()["rank"] == hits[0].rank


def test_an_advisory_lock_excludes_other_connections_and_dies_with_its_holder(
    pg: Any, pg_server: str
) -> None:
    """Two engines stand for two machines: the second cannot take the lock while the
    first holds it, and can once the holder's process is gone (killed, no release)."""
    from sleepd.store.locks import hold, project_night

    other = make_engine(pg.url.render_as_string(hide_password=False))
    try:
        with project_night(pg, "/src/acme") as first:
            assert first
            with project_night(other, "/src/acme") as second:
                assert not second
            with project_night(other, "/src/other") as elsewhere:
                assert elsewhere  # another project's night is not held up
        with project_night(other, "/src/acme") as after:
            assert after
        # A holder killed without releasing: the server ends its session and the lock.
        url = pg.url.render_as_string(hide_password=False)
        holder = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys, time\n"
                "from sleepd.store.engine import make_engine\n"
                "from sleepd.store.locks import project_night\n"
                f"with project_night(make_engine({url!r}), '/src/acme') as taken:\n"
                "    print(taken, flush=True)\n"
                "    sys.stdin.read()\n",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "True"
            with project_night(other, "/src/acme") as while_held:
                assert not while_held
        finally:
            holder.kill()
            holder.wait(timeout=30)
        with hold(other, "night:/src/acme", "unused.lock", 30) as after_kill:
            assert after_kill  # the server let go when the killed process's session ended
    finally:
        other.dispose()


# ---- row-level security ---------------------------------------------------------------

ROLES = ("sleepd_admin", "sleepd_team", "sleepd_night", "alice", "bob")


def team_sql_blocks() -> list[str]:
    """The ```sql blocks of docs/team.md, in order: the set-up as a reader runs it."""
    doc = (REPO / "docs" / "team.md").read_text(encoding="utf-8")
    return re.findall(r"```sql\n(.*?)```", doc, flags=re.S)


def _renamed(sql: str, suffix: str, database: str) -> str:
    """The docs' SQL with this run's role names (roles are cluster-wide) and database."""
    for role in ROLES:
        sql = re.sub(rf"\b{role}\b", f"{role}_{suffix}", sql)
    return re.sub(r"\bDATABASE sleepd\b", f"DATABASE {database}", sql)


def _as(url: str, role: str) -> str:
    return make_url(url).set(username=role).render_as_string(hide_password=False)


@pytest.fixture
def team(pg_admin: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The team set up exactly as docs/team.md says: roles, database, schema, grants."""
    from sleepd.store.migrate import upgrade

    suffix = str(os.getpid())
    database = f"sleepd_team_{suffix}"
    cluster_sql, grants_sql = team_sql_blocks()
    pg_admin.drop(database)
    for role in ROLES:
        pg_admin.execute(f"DROP ROLE IF EXISTS {role}_{suffix}")
    for statement in _renamed(cluster_sql, suffix, database).split(";"):
        if statement.strip():
            pg_admin.execute(statement)
    url = pg_admin.url(database)
    admin_url = _as(url, f"sleepd_admin_{suffix}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SLEEPD_HOME", str(tmp_path_factory.mktemp("admin-home")))
        engine = make_engine(admin_url)
        upgrade(engine)  # `sleepd db upgrade` as the schema owner
        with engine.begin() as conn:
            conn.exec_driver_sql(_renamed(grants_sql, suffix, database))
        engine.dispose()
    yield {
        "admin": admin_url,
        "alice": _as(url, f"alice_{suffix}"),
        "bob": _as(url, f"bob_{suffix}"),
        "night": _as(url, f"sleepd_night_{suffix}"),
    }
    pg_admin.drop(database)
    for role in reversed(ROLES):
        pg_admin.execute(f"DROP ROLE IF EXISTS {role}_{suffix}")


def _harvest_as(url: str, home: Path, files: list[Path]) -> dict[str, Any]:
    """`sleepd harvest --json` in its own home, logged in as one member."""
    import json

    projects = home / "claude" / "projects" / "-work"
    projects.mkdir(parents=True)
    for f in files:
        (projects / f.name).write_bytes(f.read_bytes())
    env = {
        **os.environ,
        "SLEEPD_HOME": str(home / "state"),
        "SLEEPD_CONFIG": str(home / "config.toml"),
        "CLAUDE_CONFIG_DIR": str(home / "claude"),
        "CODEX_HOME": str(home / "codex"),
        "SLEEPD_DATABASE_URL": url,
    }
    done = subprocess.run(
        [sys.executable, "-m", "sleepd", "harvest", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def _scalar(url: str, sql: str, **params: Any) -> Any:
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            return conn.execute(text(sql), params).scalar()
    finally:
        engine.dispose()


def test_a_member_cannot_read_another_members_events_even_with_raw_sql(
    team: dict[str, str], tmp_path: Path
) -> None:
    claude = sorted(
        (REPO / "tests" / "fixtures" / "real_sessions" / "claude").glob("*.jsonl"),
        key=lambda p: p.stat().st_size,
    )
    alice = _harvest_as(team["alice"], tmp_path / "alice", claude[:2])
    bob = _harvest_as(team["bob"], tmp_path / "bob", claude[2:4])
    assert alice["events_new"] > 0 and bob["events_new"] > 0
    total = _scalar(team["admin"], "SELECT count(*) FROM events")
    assert total == alice["events_new"] + bob["events_new"]
    bob_ids = _scalar(
        team["admin"],
        "SELECT string_agg(id::text, ',') FROM events WHERE owner_role = :r",
        r=make_url(team["bob"]).username,
    ).split(",")
    some_bob_event = int(bob_ids[0])

    # Alice sees exactly her own rows, whatever SQL she writes.
    assert _scalar(team["alice"], "SELECT count(*) FROM events") == alice["events_new"]
    assert (
        _scalar(team["alice"], "SELECT count(*) FROM events WHERE id = :i", i=some_bob_event) == 0
    )
    assert (
        _scalar(
            team["alice"],
            "SELECT count(*) FROM sessions s JOIN events e ON e.session_id = s.id "
            "WHERE s.owner_role <> current_user",
        )
        == 0
    )
    assert _scalar(team["alice"], "SELECT count(*) FROM transcript_files") == 2
    # … cannot change or delete Bob's, nor claim them, nor switch the policy off.
    assert _scalar(
        team["alice"], "WITH d AS (DELETE FROM events WHERE id = :i RETURNING 1) "
        "SELECT count(*) FROM d", i=some_bob_event,
    ) == 0  # fmt: skip
    engine = make_engine(team["alice"])
    try:
        for forbidden in (
            "ALTER TABLE events DISABLE ROW LEVEL SECURITY",
            f"SET ROLE {make_url(team['bob']).username}",
            f"INSERT INTO events (session_id, seq, external_id, role, kind, text, text_size, "
            f"is_error, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, "
            f"is_sidechain, is_meta, byte_offset, line_no, owner_role) SELECT session_id, 999, "
            f"'forged', 'user', 'message', 'x', 1, false, 0, 0, 0, 0, false, false, 0, 0, "
            f"'{make_url(team['bob']).username}' FROM events LIMIT 1",
        ):
            refused = r"(?i)permission denied|must be owner|violates"
            with pytest.raises(DBAPIError, match=refused), engine.begin() as conn:
                conn.exec_driver_sql(forbidden)
    finally:
        engine.dispose()
    assert _scalar(team["admin"], "SELECT count(*) FROM events") == total  # nothing lost

    # Tasks are the team's: mined by Alice, read by Bob and by the night role; the night
    # role reads no one's raw events.
    _scalar(
        team["alice"],
        "INSERT INTO tasks (project_path, intent, context, judge_spec, split, origin, "
        "outcome, active, created_at) VALUES ('/w', 'fix the flaky test', '{}', '{}', "
        "'val', 'mined', 'unknown', true, now()) RETURNING id",
    )
    assert _scalar(team["bob"], "SELECT count(*) FROM tasks") == 1
    assert _scalar(team["night"], "SELECT count(*) FROM tasks") == 1
    assert _scalar(team["night"], "SELECT count(*) FROM events") == 0
    assert _scalar(team["night"], "SELECT count(*) FROM sessions") == 0


def test_a_request_two_members_asked_recurs_for_the_team(team: dict[str, str]) -> None:
    """Each member reads only their own episodes, yet a cluster's figures count every
    member's (migration 0024): the same request asked by two people recurs, and a task is
    made of it, as docs/team.md promises."""
    from sleepd.config import Config
    from sleepd.mining.mine import mine
    from tests.mining.builders import LATER, SessionBuilder

    cfg = Config()
    cfg.mining.similarity_threshold = 0.2
    for who, intent in (
        ("alice", "install the dependencies with pnpm"),
        ("bob", "please install deps via pnpm"),
    ):
        engine = make_engine(team[who])
        try:
            b = SessionBuilder(external_id=f"{who}-install")
            b.prompt(intent).bash("npm install", "EACCES: permission denied", exit_code=1)
            b.bash("pnpm install", "done").prompt("thanks, works now")
            b.save(engine)
            report = mine(engine, cfg, now=LATER)
        finally:
            engine.dispose()
    assert report.recurring_clusters == 1 and report.tasks_new == 1  # bob's pass
    assert _scalar(team["admin"], "SELECT count(*) FROM task_clusters") == 1
    assert _scalar(team["admin"], "SELECT size FROM task_clusters") == 2
    assert _scalar(team["admin"], "SELECT session_count FROM task_clusters") == 2
    # what a member reads of the others is the figures, never their episodes
    assert _scalar(team["bob"], "SELECT count(*) FROM episodes") == 1
