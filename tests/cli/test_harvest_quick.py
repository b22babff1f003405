"""The unchanged-tree shortcut of `sleepd harvest` answers only when nothing changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import text

from sleepd.config import load_config
from sleepd.harvest import harvest
from sleepd.harvest.plan import record_unchanged_run, unchanged_report

LINE = (
    '{"type":"user","uuid":"u%d","sessionId":"s1","cwd":"/p","timestamp":"2026-11-01T00:00:0%dZ",'
    '"message":{"role":"user","content":"run pytest please %d"}}\n'
)


def transcript(home: Path) -> Path:
    path = home / "claude" / "projects" / "-p" / "s1.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(LINE % (1, 1, 1) + LINE % (2, 2, 2), encoding="utf-8")
    return path


def test_shortcut_only_when_every_file_matches_its_cursor(
    isolated_home: Path, db_engine: Any
) -> None:
    path = transcript(isolated_home)
    cfg = load_config()
    assert unchanged_report(cfg) is None  # a file with no cursor yet
    harvest(db_engine, cfg)
    report = unchanged_report(cfg)
    assert report is not None
    assert report.totals()["files_scanned"] == 1
    assert report.totals()["events_new"] == 0
    with path.open("a", encoding="utf-8") as handle:
        handle.write(LINE % (3, 3, 3))
    assert unchanged_report(cfg) is None  # grown: the full harvest must read it
    harvest(db_engine, cfg)
    assert unchanged_report(cfg) is not None
    (path.parent / "s2.jsonl").write_text(LINE % (4, 4, 4), encoding="utf-8")
    assert unchanged_report(cfg) is None  # a new file
    harvest(db_engine, cfg)
    with db_engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'old'"))
    assert unchanged_report(cfg) is None  # never on a schema it does not know


def test_recorded_run_counts_as_a_fresh_harvest(isolated_home: Path, db_engine: Any) -> None:
    transcript(isolated_home)
    cfg = load_config()
    harvest(db_engine, cfg)
    report = unchanged_report(cfg)
    assert report is not None
    record_unchanged_run(cfg, report)
    with db_engine.connect() as conn:
        row = conn.execute(
            text("SELECT outcome, detail FROM job_runs WHERE job = 'harvest' ORDER BY id DESC")
        ).first()
    assert row is not None and row[0] == "ok"
    assert json.loads(row[1])["shortcut"] == "unchanged"
    proc = subprocess.run(
        [sys.executable, "-c", "from sleepd.cli.app import main; main()", "status", "--json"],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ.copy(),
    )
    assert json.loads(proc.stdout)["harvest"]["last_harvest_job"] is not None


def test_cli_uses_the_shortcut_and_prints_the_same_contract(
    isolated_home: Path, db_engine: Any
) -> None:
    transcript(isolated_home)
    harvest(db_engine, load_config())
    proc = subprocess.run(
        [sys.executable, "-c", "from sleepd.cli.app import main; main()", "harvest", "--json"],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ.copy(),
    )
    data = json.loads(proc.stdout)
    for key in ("files_scanned", "sessions_new", "events_new", "malformed_lines", "bytes_read"):
        assert key in data
    assert data["files_scanned"] == 1 and data["events_new"] == 0
    with db_engine.connect() as conn:
        detail = conn.execute(
            text("SELECT detail FROM job_runs WHERE job = 'harvest' ORDER BY id DESC")
        ).scalar()
    assert json.loads(detail)["shortcut"] == "unchanged"
