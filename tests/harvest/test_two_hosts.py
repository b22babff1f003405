"""Two machines, one PostgreSQL: two homes (two host ids) whose transcript trees overlap
(a synced folder) harvest at the same time; every session and event is stored once, none
is lost, each machine keeps its own cursors, and a project's night runs on one at a time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from sleepd.store.engine import make_engine

CORPUS_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions"


def _home(base: Path, name: str, files: list[Path], db_url: str) -> dict[str, str]:
    """A machine: its own sleepd home (so its own host id) and transcript tree."""
    tree = base / name / "claude" / "projects" / "-synced"
    tree.mkdir(parents=True)
    for f in files:
        (tree / f.name).write_bytes(f.read_bytes())
    return {
        **os.environ,
        "SLEEPD_HOME": str(base / name / "state"),
        "SLEEPD_CONFIG": str(base / name / "config.toml"),
        "CLAUDE_CONFIG_DIR": str(base / name / "claude"),
        "CODEX_HOME": str(base / name / "codex"),
        "SLEEPD_DATABASE_URL": db_url,
    }


def _harvest(env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sleepd", "harvest", "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return dict(json.loads(out))


def _rows(url: str, sql: str) -> list[Any]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(sql)).all())
    finally:
        engine.dispose()


EVENT_KEYS = (
    "SELECT s.source, s.external_id, e.external_id FROM events e "
    "JOIN sessions s ON s.id = e.session_id"
)


def test_two_hosts_harvest_overlapping_trees_concurrently(
    pg_admin: Any, tmp_path: Path, db_url: str
) -> None:
    files = sorted(
        (CORPUS_DIR / "claude").glob("*.jsonl"), key=lambda p: (p.stat().st_size, p.name)
    )[:8]
    shared_db = pg_admin.create(f"sleepd_two_hosts_{os.getpid()}", template=pg_admin.template)
    one = _home(tmp_path, "laptop", files[:6], shared_db)
    two = _home(tmp_path, "desktop", files[3:], shared_db)  # files 3-5 on both machines
    reference = _home(tmp_path, "reference", files, db_url)  # every file, one machine, SQLite

    first, second = _harvest(one), _harvest(two)  # at the same time
    a, b = _finish(first), _finish(second)
    ref = _finish(_harvest(reference))

    stored = _rows(shared_db, EVENT_KEYS)
    assert len(stored) == len(set(stored))  # no event twice
    assert set(stored) == set(_rows(db_url, EVENT_KEYS))  # and none lost
    assert a["events_new"] + b["events_new"] == len(stored) == ref["events_new"]
    sessions = _rows(shared_db, "SELECT source, external_id FROM sessions")
    assert (
        len(sessions)
        == len(set(sessions))
        == len(_rows(db_url, "SELECT source, external_id FROM sessions"))
    )
    # Sequence numbers stay dense per session although two machines wrote to it.
    for count, top, distinct in _rows(
        shared_db,
        "SELECT count(*), max(seq), count(DISTINCT seq) FROM events GROUP BY session_id",
    ):
        assert count == top == distinct
    # Each machine its own cursors: 6 + 5 files, under two host ids.
    hosts = _rows(shared_db, "SELECT host_id, count(*) FROM transcript_files GROUP BY host_id")
    assert sorted(n for _, n in hosts) == [5, 6]
    ids = {Path(env["SLEEPD_HOME"], "host.id").read_text().strip() for env in (one, two)}
    assert {h for h, _ in hosts} == ids and len(ids) == 2

    again = _finish(_harvest(two))  # each machine resumes from its own cursors
    assert again["events_new"] == 0 and again["files_changed"] == 0
    pg_admin.drop(f"sleepd_two_hosts_{os.getpid()}")


@pytest.mark.both_dbs
def test_a_projects_night_runs_on_one_machine_at_a_time(
    db_engine: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While another machine (another connection or process) holds a project's night, a
    night here leaves that project alone and says why; once free, it takes the project."""
    from night.support import add_tasks, small_config

    from sleepd.dream.night import NightOptions, run_night
    from sleepd.store.locks import project_night

    monkeypatch.setattr("sleepd.dream.night._Night.harvest_and_mine", lambda self: None)
    project = tmp_path / "acme"
    add_tasks(db_engine, project)
    cfg = small_config()
    elsewhere = make_engine(db_engine.url.render_as_string(hide_password=False))
    try:
        with project_night(elsewhere, str(project)) as taken:
            assert taken
            held = run_night(db_engine, cfg, NightOptions(trigger="manual", project=str(project)))
        assert held.summary["projects"][0]["status"] == "skipped"
        assert "another night" in held.summary["projects"][0]["reason"]
    finally:
        elsewhere.dispose()
    free = run_night(db_engine, cfg, NightOptions(trigger="manual", project=str(project)))
    assert "another night" not in (free.summary["projects"][0].get("reason") or "")
